//! The commands that write a formula: encode (DIMACS) and statement (OPB,
//! with its VeriPB derivation). The formula goes to its file or stdout; the
//! report describes it (as JSON only when the formula went to a file, so
//! stdout holds one document).

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::report::Reported;
use hexcert::derivation::{DerivationSummary, Reach};
use hexcert::encoding::{Cardinality, EncodeOptions, LevelEncoding, SymmetryBreaking};
use hexcert::error::AtPath;
use hexcert::error::HexError;
use hexcert::geometry::Hexagon;
use hexcert::outcome::Outcome;
use hexcert::proofs::veripb::VeripbVerdict;
use hexcert::statement::Statement;

/// `encode`: the formula written. Its text is the DIMACS itself, so the
/// report shows nothing as text.
#[derive(Serialize)]
pub struct EncodeReport {
    n: usize,
    level: u8,
    max_penalty: Option<usize>,
    cardinality: Cardinality,
    symmetry: SymmetryBreaking,
    variables: u32,
    clauses: usize,
    output: Option<PathBuf>,
    sha256: String,
}

impl fmt::Display for EncodeReport {
    fn fmt(&self, _: &mut fmt::Formatter) -> fmt::Result {
        Ok(())
    }
}

pub fn encode(
    json: bool,
    n: usize,
    level: u8,
    options: EncodeOptions,
    output: Option<&Path>,
) -> Result<Reported, HexError> {
    if json && output.is_none() {
        return Err(HexError::Usage("--json describes the formula on stdout: give the DIMACS file with -o".into()));
    }
    let hex = Hexagon::new(n)?;
    let cnf = LevelEncoding::new(&hex, level, options).cnf;
    let dimacs = cnf.to_dimacs();
    match output {
        Some(path) => hexcert::files::write_atomic(path, &dimacs)?,
        None => std::io::Write::write_all(&mut std::io::stdout(), &dimacs).map_err(to_stdout)?,
    }
    let report = EncodeReport {
        n,
        level,
        max_penalty: options.max_penalty,
        cardinality: options.cardinality,
        symmetry: options.symmetry,
        variables: cnf.num_vars(),
        clauses: cnf.clauses().len(),
        output: output.map(Path::to_path_buf),
        sha256: hexcert::digest::sha256_hex(&dimacs),
    };
    Ok(Reported::new(report, Outcome::Done))
}

fn to_stdout(source: std::io::Error) -> HexError {
    HexError::io("<stdout>", source)
}

/// `statement`: the OPB written, its derivation, and VeriPB's verdict when
/// `--check` asked for one. As text it shows only that verdict.
#[derive(Serialize)]
pub struct StatementReport {
    n: usize,
    level: u8,
    below: usize,
    version: &'static str,
    variables: usize,
    constraints: usize,
    output: Option<PathBuf>,
    sha256: Option<String>,
    derivation: Option<DerivationSummary>,
    target_cnf_sha256: Option<String>,
    veripb: Option<VeripbVerdict>,
    exit_code: u8,
    #[serde(skip)]
    check: bool,
}

impl fmt::Display for StatementReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match (&self.veripb, self.check) {
            (Some(v), _) => writeln!(f, "{}: `{}` in {:.1} s ({})", v.version, v.line, v.seconds, v.command),
            (None, true) => writeln!(f, "unverified: {}", hexcert::proofs::veripb::Veripb::missing()),
            (None, false) => Ok(()),
        }
    }
}

pub fn statement(
    json: bool,
    (n, level, below): (usize, u8, usize),
    output: Option<&Path>,
    derivation: Option<(&Path, &Path, Reach)>,
    check: bool,
) -> Result<Reported, HexError> {
    if json && output.is_none() {
        return Err(HexError::Usage("--json describes the statement on stdout: give the OPB file with -o".into()));
    }
    let hex = Hexagon::new(n)?;
    let statement = Statement::new(&hex, level, below);
    // Built before anything is written: a bad bound leaves no file behind.
    let target = derivation.map(|(_, _, reach)| reach.target(&hex, level, below)).transpose()?;
    match output {
        Some(path) => hexcert::files::write_atomic_with(path, |out| statement.write(&hex, out))?,
        None => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            statement.write(&hex, &mut out).map_err(to_stdout)?;
            std::io::Write::flush(&mut out).map_err(to_stdout)?;
        }
    }
    let mut summary = None;
    if let (Some((proof, target_path, reach)), Some(cnf)) = (derivation, &target) {
        hexcert::files::write_atomic_with(proof, |out| {
            summary = Some(reach.write(&hex, level, below, out)?);
            Ok(())
        })?;
        hexcert::files::write_atomic_with(target_path, |out| hexcert::derivation::write_cnf_as_opb(cnf, out))?;
    }
    let (verdict, outcome) = match (check, derivation, output) {
        (true, Some((proof, target_path, _)), Some(statement_path)) => run_veripb(statement_path, proof, target_path)?,
        _ => (None, Outcome::Done),
    };
    let sha256 = output.map(|path| hexcert::digest::sha256_file(path).at_path(path)).transpose()?;
    let report = StatementReport {
        n,
        level,
        below,
        version: hexcert::statement::STATEMENT_VERSION,
        variables: statement.variables.len(),
        constraints: statement.constraints.len(),
        output: output.map(Path::to_path_buf),
        sha256,
        derivation: summary,
        target_cnf_sha256: target.as_ref().map(|cnf| hexcert::digest::sha256_hex(&cnf.to_dimacs())),
        veripb: verdict,
        exit_code: outcome.code(),
        check,
    };
    Ok(Reported::new(report, outcome))
}

/// VeriPB's verdict on the three files: `None` when this run has none
/// (unverified, exit 4).
fn run_veripb(statement: &Path, proof: &Path, target: &Path) -> Result<(Option<VeripbVerdict>, Outcome), HexError> {
    Ok(match hexcert::proofs::veripb::Veripb::find() {
        Some(veripb) => {
            let found = veripb.check(statement, proof, target)?;
            let outcome = if found.verified { Outcome::Done } else { Outcome::Negative };
            (Some(found), outcome)
        }
        None => (None, Outcome::Unverified),
    })
}
