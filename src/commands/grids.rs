//! The commands on one grid or formula: verify, render, encode, statement, solve, optimize.

use std::path::Path;

use hexcert::outcome::Outcome;
use hexcert::error::HexError;
use hexcert::formats::{read_grid_file, to_hexcert_text};
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::search::Step;
use hexcert::derivation::Reach;
use hexcert::encoding::{Cardinality, EncodeOptions, LevelEncoding, SymmetryBreaking};
use hexcert::search::{minimize_through, solve_at_bound, LowerBoundProof, PlainOracle};
use hexcert::solving::Cadical;
use hexcert::validation::evaluate;
use hexcert::statement::Statement;

pub fn render(json: bool, file: &Path, output: &Path, level: Option<u8>) -> Result<Outcome, HexError> {
    let partial = at_level(file, &read_grid_file(file, None)?.partial, level)?;
    let hex = Hexagon::new(partial.side())?;
    hexcert::files::write_atomic(output, hexcert::rendering::render_svg(&hex, &partial).as_bytes())?;
    let evaluation = evaluate(&hex, &partial);
    if json {
        println!("{}", serde_json::json!({"file": file, "output": output, "n": partial.side(),
            "level": partial.level(), "valid": evaluation.is_valid(),
            "penalty": evaluation.penalty, "score": evaluation.score}));
    } else {
        let score = evaluation.score.map_or(String::new(), |s| format!(" score {s}"));
        println!("{}: n={} level={} penalty {}{score} -> {}", file.display(), partial.side(), partial.level(), evaluation.penalty, output.display());
    }
    Ok(Outcome::Done)
}

/// A partial read from `file`, optionally seen at a lower level.
pub fn at_level(file: &Path, partial: &Partial, level: Option<u8>) -> Result<Partial, HexError> {
    match level {
        Some(k) => partial.truncate(k).map_err(|e| HexError::Input { file: file.into(), line: 0, message: e.to_string() }),
        None => Ok(partial.clone()),
    }
}

pub fn encode(json: bool, n: usize, level: u8, options: EncodeOptions, output: Option<&Path>) -> Result<Outcome, HexError> {
    if json && output.is_none() {
        return Err(HexError::Usage("--json describes the formula on stdout: give the DIMACS file with -o".into()));
    }
    let hex = Hexagon::new(n)?;
    let cnf = LevelEncoding::new(&hex, level, options).cnf;
    let dimacs = cnf.to_dimacs();
    emit(output, &dimacs)?;
    if json {
        println!("{}", serde_json::json!({"n": n, "level": level, "max_penalty": options.max_penalty,
            "cardinality": options.cardinality, "symmetry": options.symmetry, "variables": cnf.num_vars(),
            "clauses": cnf.clauses().len(), "output": output, "sha256": hexcert::proofs::sha256_hex(&dimacs)}));
    }
    Ok(Outcome::Done)
}

pub fn statement(
    json: bool,
    n: usize,
    level: u8,
    below: usize,
    output: Option<&Path>,
    derivation: Option<(&Path, &Path, Reach)>,
    check: bool,
) -> Result<Outcome, HexError> {
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
            let to_stdout = |source| HexError::Io { path: "<stdout>".into(), source };
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
    // VeriPB's verdict: `None` when asked for but not on PATH (unverified, exit 4).
    let mut verdict = None;
    let mut outcome = Outcome::Done;
    if let (true, Some((proof, target_path, _)), Some(statement_path)) = (check, derivation, output) {
        match hexcert::proofs::veripb::Veripb::find() {
            Some(veripb) => {
                let found = veripb.check(statement_path, proof, target_path)?;
                outcome = if found.verified { Outcome::Done } else { Outcome::Negative };
                verdict = Some(found);
            }
            None => outcome = Outcome::Unverified,
        }
    }
    if let (true, Some(path)) = (json, output) {
        println!("{}", serde_json::json!({"n": n, "level": level, "below": below,
            "version": hexcert::statement::STATEMENT_VERSION, "variables": statement.variables.len(),
            "constraints": statement.constraints.len(), "output": path,
            "sha256": hexcert::proofs::sha256_file(path).map_err(|source| HexError::Io { path: path.to_path_buf(), source })?,
            "derivation": summary,
            "target_cnf_sha256": target.as_ref().map(|cnf| hexcert::proofs::sha256_hex(&cnf.to_dimacs())),
            "veripb": verdict, "exit_code": outcome.code()}));
    } else if check {
        match &verdict {
            Some(v) => println!("{}: `{}` in {:.1} s ({})", v.version, v.line, v.seconds, v.command),
            None => println!("unverified: veripb is not on PATH (cargo install veripb --locked)"),
        }
    }
    Ok(outcome)
}

pub fn solve(json: bool, n: usize, level: u8, options: EncodeOptions, output: Option<&Path>) -> Result<Outcome, HexError> {
    let hex = Hexagon::new(n)?;
    let Some(found) = solve_at_bound::<Cadical>(&hex, level, options)? else {
        if json {
            println!("{}", serde_json::json!({"n": n, "level": level, "satisfiable": false}));
        } else {
            println!("unsatisfiable: no valid level-{level} partial with penalty <= {}", options.max_penalty.unwrap_or(0));
        }
        return Ok(Outcome::Negative);
    };
    let text = to_hexcert_text(&found.partial);
    if let Some(path) = output {
        hexcert::files::write_atomic(path, text.as_bytes())?;
    }
    if json {
        println!("{}", serde_json::json!({"n": n, "level": level, "satisfiable": true,
            "penalty": found.evaluation.penalty, "grid": text}));
    } else {
        print!("{text}");
        println!("penalty {}", found.evaluation.penalty);
    }
    Ok(Outcome::Done)
}

pub fn verify(json: bool, file: &Path, level: Option<u8>, n: Option<usize>) -> Result<Outcome, HexError> {
    let grid = read_grid_file(file, n)?;
    let partial = at_level(file, &grid.partial, level)?;
    let hex = Hexagon::new(partial.side())?;
    let evaluation = evaluate(&hex, &partial);
    let sum: u64 = grid.partial.values().iter().map(|&v| u64::from(v)).sum();
    let score_ok = grid.stated_score.is_none_or(|s| s == sum);
    let ok = evaluation.is_valid() && score_ok;
    if json {
        let doc = serde_json::json!({
            "file": file, "n": partial.side(), "level": partial.level(), "valid": ok,
            "penalty": evaluation.penalty, "score": evaluation.score,
            "stated_sum": grid.stated_score, "sum": sum,
            "violations": evaluation.violations, "penalty_edges": evaluation.penalty_edges,
        });
        println!("{doc}");
    } else {
        for v in &evaluation.violations {
            println!("violation: cell ({}, {}) value {} does not see {:?}", v.row, v.column, show_value(v.value, partial.level()), v.missing);
        }
        if !score_ok {
            println!("stated score {} differs from the sum of values {sum}", grid.stated_score.unwrap_or(0));
        }
        let verdict = if ok { "valid" } else { "INVALID" };
        let score = evaluation.score.map_or(String::new(), |s| format!(" score {s}"));
        println!("{}: n={} level={} {verdict} penalty {}{score}", file.display(), partial.side(), partial.level(), evaluation.penalty);
    }
    Ok(if ok { Outcome::Done } else { Outcome::Negative })
}

fn show_value(value: u8, level: u8) -> String {
    if value == level + 1 && level < 6 { "+".into() } else { value.to_string() }
}

pub fn optimize(json: bool, quiet: bool, verbose: bool, n: usize, level: u8, cardinality: Cardinality, output: Option<&Path>) -> Result<Outcome, HexError> {
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::with_lines(quiet || json, verbose);
    let mut on_step = |s: &Step| progress.step(n, s);
    let template = EncodeOptions { max_penalty: None, cardinality, symmetry: SymmetryBreaking::None };
    let minima = minimize_through(&hex, level, &mut PlainOracle::<Cadical>::new(template), &mut on_step)?;
    let top = minima.last().expect("at least level 1");
    if let Some(path) = output {
        hexcert::files::write_atomic(path, to_hexcert_text(&top.witness.partial).as_bytes())?;
    }
    if json {
        let levels: Vec<_> = minima
            .iter()
            .map(|m| serde_json::json!({"level": m.level, "minimum": m.penalty, "proof": m.proof,
                "seconds": m.steps.iter().map(|s| s.seconds).sum::<f64>(), "steps": m.steps,
                "witness": to_hexcert_text(&m.witness.partial)}))
            .collect();
        println!("{}", serde_json::json!({"n": n, "levels": levels}));
        return Ok(Outcome::Done);
    }
    println!("n={n}");
    println!("| level | minimum | shown minimal by | seconds |");
    println!("|---|---|---|---|");
    for m in &minima {
        let why = match &m.proof {
            LowerBoundProof::UnsatAtLevel { level, max_penalty } => format!("level {level}, penalty <= {max_penalty} UNSAT"),
            LowerBoundProof::InheritedFromLevel { level } => format!("bound of level {level}"),
            LowerBoundProof::Zero => "penalty 0".into(),
        };
        let secs: f64 = m.steps.iter().map(|s| s.seconds).sum();
        println!("| {} | {} | {why} | {secs:.2} |", m.level, m.penalty);
    }
    print!("{}", to_hexcert_text(&top.witness.partial));
    Ok(Outcome::Done)
}

fn emit(output: Option<&Path>, bytes: &[u8]) -> Result<(), HexError> {
    match output {
        Some(path) => hexcert::files::write_atomic(path, bytes),
        None => {
            use std::io::Write;
            std::io::stdout().write_all(bytes).map_err(|source| HexError::Io { path: "<stdout>".into(), source })
        }
    }
}
