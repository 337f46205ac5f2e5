//! `hexcert prove`: one claim "no valid level-k partial below B", solved
//! with a traced DRAT proof, checked, and stored as a certificate.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::check::{Regenerate, Regenerated};
use super::{Settings, WorkDir};
use crate::encoding::{EncodeOptions, LevelEncoding, SymmetryBreaking, ENCODER_VERSION};
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::proofs::claim::{CheckerRecord, EncoderRecord, FileRecord, SolverRecord, CLAIM_FORMAT};
use crate::proofs::{compress, own_peak_memory_kb, sha256_file, Checker, Claim};
use crate::solving::race::{race, Entrant};
use crate::solving::search::{accept_model, Found};
use crate::solving::{Cadical, Outcome};

/// What `prove` ended with.
pub enum ProveOutcome {
    Certified { directory: PathBuf, claim: Box<Claim> },
    /// The claim is false: a validated partial below the bound.
    Counterexample(Box<Found>),
}

/// An UNSAT answer with its traced proof, not yet checked.
pub struct Refutation {
    pub level: u8,
    pub below: usize,
    pub options: EncodeOptions,
    pub proof: PathBuf,
    pub solve_seconds: f64,
}

/// The formulations raced for a claim: symmetry-broken first (it traces the
/// proof we expect to keep), plain second when racing.
pub fn formulations(settings: &Settings, max_penalty: usize) -> Vec<EncodeOptions> {
    let with = |symmetry| EncodeOptions { max_penalty: Some(max_penalty), cardinality: settings.cardinality, symmetry };
    let mut list = vec![with(SymmetryBreaking::Ring1LexLeader)];
    if settings.race {
        list.push(with(SymmetryBreaking::None));
    }
    list
}

/// Proves "no valid level-k partial of `hex` has penalty below `below`".
pub fn prove(hex: &Hexagon, level: u8, below: usize, settings: &Settings) -> Result<ProveOutcome, HexError> {
    if below == 0 {
        return Err(HexError::Usage("--below 0 holds trivially: penalties are never negative".into()));
    }
    let n = hex.side();
    super::remove_stale_work_dirs(&settings.root.join(format!("n{n}")));
    let work = WorkDir::create(settings.root.join(format!("n{n}")).join(format!(".work-level{level}-below{below}-{}", std::process::id())))?;
    match refute(hex, level, below, settings, &work.0, None)? {
        Err(found) => Ok(ProveOutcome::Counterexample(Box::new(found))),
        Ok(refutation) => {
            let (directory, claim) = certify_refutation(hex, &refutation, settings, &work.0)?;
            Ok(ProveOutcome::Certified { directory, claim: Box::new(claim) })
        }
    }
}

/// Races the formulations of the claim in `work`. The symmetry-broken one
/// always traces a proof. The plain one traces too unless it is steered by
/// `hint` (phases would make its proof unreproducible by `check
/// --regenerate`); if that untraced entrant wins with UNSAT, the traced one is
/// run alone to obtain the proof.
/// `Ok(refutation)` on UNSAT, `Err(found)` on a counterexample.
pub fn refute(
    hex: &Hexagon,
    level: u8,
    below: usize,
    settings: &Settings,
    work: &Path,
    hint: Option<&crate::levels::Partial>,
) -> Result<Result<Refutation, Found>, HexError> {
    let options = formulations(settings, below - 1);
    let encodings: Vec<LevelEncoding> = options.iter().map(|o| LevelEncoding::new(hex, level, *o)).collect();
    let entrants: Vec<Entrant> = encodings
        .iter()
        .enumerate()
        .map(|(i, encoding)| {
            let steered = i > 0 && hint.is_some();
            Entrant {
                encoding,
                proof: (!steered).then(|| work.join(format!("level{level}-below{below}-{i}.drat"))),
                phases: if steered { encoding.hint_literals(hint.expect("steered")) } else { Vec::new() },
            }
        })
        .collect();
    let mut finish = race(&entrants, &settings.abort)?;
    for (i, entrant) in entrants.iter().enumerate() {
        if i != finish.winner || matches!(finish.outcome, Outcome::Sat(_)) {
            if let Some(proof) = &entrant.proof {
                let _ = std::fs::remove_file(proof);
            }
        }
    }
    if let Outcome::Sat(model) = &finish.outcome {
        return Ok(Err(accept_model(hex, &encodings[finish.winner], model)?));
    }
    if entrants[finish.winner].proof.is_none() {
        let earlier = finish.seconds;
        finish = race(&entrants[..1], &settings.abort)?;
        finish.seconds += earlier;
        if !matches!(finish.outcome, Outcome::Unsat) {
            return Err(HexError::Internal("the two formulations disagree on satisfiability".into()));
        }
    }
    Ok(Ok(Refutation {
        level,
        below,
        options: options[finish.winner],
        proof: entrants[finish.winner].proof.clone().expect("the winner traced its proof"),
        solve_seconds: finish.seconds,
    }))
}

/// Writes the claim's CNF, runs the checker on (CNF, proof), and on
/// `s VERIFIED` stores the certificate directory. Returns it and the claim.
pub fn certify_refutation(hex: &Hexagon, refutation: &Refutation, settings: &Settings, work: &Path) -> Result<(PathBuf, Claim), HexError> {
    let (n, level, below) = (hex.side(), refutation.level, refutation.below);
    let cnf_path = work.join(format!("level{level}-below{below}.cnf"));
    let dimacs = LevelEncoding::new(hex, level, refutation.options).cnf.to_dimacs();
    crate::files::write_atomic(&cnf_path, &dimacs)?;
    let checker = Checker::find()?;
    let verdict = checker.check(&cnf_path, &refutation.proof)?;
    if settings.abort.load(std::sync::atomic::Ordering::Relaxed) {
        // Ctrl-C reaches the checker too; its failure then says nothing.
        return Err(HexError::Interrupted);
    }
    if !verdict.verified {
        return Err(HexError::Internal(format!("{} rejected the proof of {}: {}", checker.name, Claim::statement_for(n, level, below), verdict.line)));
    }
    let staging = work.join(format!("certificate-level{level}-below{below}"));
    std::fs::create_dir_all(&staging).map_err(|source| HexError::Io { path: staging.clone(), source })?;
    let (cnf, proof) = store_files(&cnf_path, &refutation.proof, &staging, settings.store_limit)?;
    let claim = Claim {
        format: CLAIM_FORMAT.into(),
        statement: Claim::statement_for(n, level, below),
        n,
        level,
        below,
        encoder: EncoderRecord {
            version: ENCODER_VERSION.into(),
            max_penalty: below - 1,
            cardinality: refutation.options.cardinality,
            symmetry_breaking: refutation.options.symmetry,
            symmetry_soundness: refutation.options.symmetry.soundness().into(),
        },
        hexcert: crate::proofs::claim::this_build(),
        cnf,
        proof,
        solver: SolverRecord {
            name: "CaDiCaL (rustsat-cadical)".into(),
            version: Cadical::version(),
            options: "default options, single-threaded, binary DRAT traced from the first clause".into(),
            seconds: refutation.solve_seconds,
            peak_memory_kb: own_peak_memory_kb(),
        },
        checker: CheckerRecord {
            name: checker.name.clone(),
            version: checker.version.clone(),
            command: verdict.command.clone(),
            verdict: verdict.line.clone(),
            seconds: verdict.seconds,
            peak_memory_kb: verdict.peak_memory_kb,
        },
        trust_base: trust_base(&refutation.options, &checker.name),
    };
    let json = serde_json::to_vec_pretty(&claim).expect("claims serialise");
    crate::files::write_atomic(&staging.join("claim.json"), &json)?;
    let directory = Claim::directory(&settings.root, n, level, below);
    replace_directory(&staging, &directory)?;
    Ok((directory, claim))
}

/// The short list of what a reader must trust besides the checker's verdict.
pub fn trust_base(options: &EncodeOptions, checker: &str) -> Vec<String> {
    let mut base = vec![
        format!("the encoder {ENCODER_VERSION} (src/encoding): the CNF says 'valid level-k partial with penalty <= B-1'; \
                 cross-checked against the independent validator and brute force (tests/sat.rs)"),
        "refinement never lowers the penalty (docs/PROBLEM.md, section 4; tests/validation.rs)".into(),
        format!("the DRAT checker {checker} and its verdict line"),
    ];
    if options.symmetry != SymmetryBreaking::None {
        base.push(format!("symmetry breaking: {}", options.symmetry.soundness()));
    }
    base
}

/// Hashes the plain CNF and proof; stores gzip copies in `staging` when the
/// two together stay within `limit`.
fn store_files(cnf: &Path, proof: &Path, staging: &Path, limit: u64) -> Result<(FileRecord, FileRecord), HexError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| HexError::Io { path, source }
    };
    let record = |path: &Path, description: &str| -> Result<FileRecord, HexError> {
        Ok(FileRecord {
            stored_as: None,
            sha256: sha256_file(path).map_err(io(path))?,
            bytes: std::fs::metadata(path).map_err(io(path))?.len(),
            compressed_bytes: None,
            description: description.into(),
        })
    };
    let mut cnf_record = record(cnf, "DIMACS CNF, as written by `hexcert encode` with the encoder options above")?;
    let mut proof_record = record(proof, "binary DRAT proof of unsatisfiability (drat-trim reads it directly)")?;
    let cnf_gz = staging.join("formula.cnf.gz");
    let proof_gz = staging.join("proof.drat.gz");
    compress::gzip_file(cnf, &cnf_gz)?;
    compress::gzip_file(proof, &proof_gz)?;
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).map_err(io(p));
    let (cnf_size, proof_size) = (size(&cnf_gz)?, size(&proof_gz)?);
    cnf_record.compressed_bytes = Some(cnf_size);
    proof_record.compressed_bytes = Some(proof_size);
    if cnf_size + proof_size <= limit {
        cnf_record.stored_as = Some("formula.cnf.gz".into());
        proof_record.stored_as = Some("proof.drat.gz".into());
    } else {
        let _ = std::fs::remove_file(&cnf_gz);
        let _ = std::fs::remove_file(&proof_gz);
    }
    Ok((cnf_record, proof_record))
}

/// Moves the finished `staging` directory to `target`, replacing an older
/// certificate there. The target never holds a partial directory.
fn replace_directory(staging: &Path, target: &Path) -> Result<(), HexError> {
    let io = |source| HexError::Io { path: target.to_path_buf(), source };
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(io)?;
    }
    let retired = target.with_extension(format!("old-{}", std::process::id()));
    if target.exists() {
        std::fs::rename(target, &retired).map_err(io)?;
    }
    std::fs::rename(staging, target).map_err(io)?;
    let _ = std::fs::remove_dir_all(&retired);
    Ok(())
}

/// Re-solves a stored claim's exact formula alone (single thread, the
/// recorded options) with a traced proof in `work`; for `check --regenerate`.
pub fn regenerate_proof(hex: &Hexagon, claim: &Claim, work: &Path) -> Result<(PathBuf, PathBuf, f64), HexError> {
    let encoding = LevelEncoding::new(hex, claim.level, claim.encode_options());
    let cnf_path = work.join("formula.cnf");
    crate::files::write_atomic(&cnf_path, &encoding.cnf.to_dimacs())?;
    let proof_path = work.join("proof.drat");
    let start = Instant::now();
    let mut solver = Cadical::with_proof(&proof_path, true)?;
    use crate::solving::SatSolver;
    solver.add_cnf(&encoding.cnf)?;
    let outcome = solver.solve()?;
    drop(solver);
    match outcome {
        Outcome::Unsat => Ok((cnf_path, proof_path, start.elapsed().as_secs_f64())),
        Outcome::Sat(_) => Err(HexError::Internal(format!("regenerating `{}`: the formula is satisfiable", claim.statement))),
    }
}

/// Regeneration by re-solving (`regenerate_proof`), handed to
/// `check::check_record` by `check --regenerate` and by `certify`. `check`
/// sees only the trait, so checking stored proofs links no solver code.
pub struct SolveAgain;

impl Regenerate for SolveAgain {
    fn regenerate(&self, claim: &Claim, work: &Path) -> Result<Regenerated, HexError> {
        let (cnf, proof, seconds) = regenerate_proof(&Hexagon::new(claim.n)?, claim, work)?;
        Ok(Regenerated { cnf, proof, seconds })
    }
}
