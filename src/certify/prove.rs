//! `hexcert prove`: one claim "no valid level-k partial below B", solved
//! with its proof checked by the LRAT checker as it is written, and stored
//! as a certificate with the DRAT twin of that proof for drat-trim.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::certificate_dir::{replace_directory, store_files, Stored};
use super::{ExternalCheck, Settings};
use crate::encoding::model::{accept_model, Found};
use crate::encoding::{EncodeOptions, LevelEncoding, SymmetryBreaking, ENCODER_VERSION};
use crate::error::{AtPath, HexError, RecordError};
use crate::formula::Cnf;
use crate::geometry::Hexagon;
use crate::proofs::online::OnlineCheck;
use crate::proofs::verified::VerifiedChecker;
use crate::proofs::{own_peak_memory_kb, Checker};
use crate::records::trust::{trust_base, Basis};
use crate::records::{CheckerRecord, Claim, EncoderRecord, LratRecord, SolverRecord, CLAIM_FORMAT};
use crate::run::WorkDir;
use crate::solving::profile::{self, Profile};
use crate::solving::race::{race, Entrant};
use crate::solving::{solve_traced, Answer, Cadical, TraceSender};
use crate::verify::regenerate::Regenerate;

/// What `prove` ended with.
pub enum ProveOutcome {
    Certified {
        directory: PathBuf,
        claim: Box<Claim>,
    },
    /// The claim is false: a validated partial below the bound.
    Counterexample(Box<Found>),
}

/// An UNSAT answer whose traced proof the LRAT checker accepted.
pub struct Refutation {
    pub level: u8,
    pub below: usize,
    pub options: EncodeOptions,
    /// The binary DRAT twin of the checked trace.
    pub proof: PathBuf,
    pub solve_seconds: f64,
    /// The LRAT checker's verdict on the trace (verified).
    pub lrat: LratRecord,
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
    super::work_dirs::remove_stale_work_dirs(&settings.root.join(format!("n{n}")));
    let work = WorkDir::create(&settings.root.join(format!("n{n}")), &format!(".work-level{level}-below{below}"))?;
    match refute(hex, level, below, settings, &work.0, None)? {
        Err(found) => Ok(ProveOutcome::Counterexample(Box::new(found))),
        Ok(refutation) => {
            let (directory, claim) = certify_refutation(hex, &refutation, settings, &work.0)?;
            Ok(ProveOutcome::Certified { directory, claim: Box::new(claim) })
        }
    }
}

/// Races the formulations of the claim. Only the symmetry-broken one traces
/// its proof, which the LRAT checker judges while it is written (`online`);
/// the plain one, free to be steered by `hint`, races untraced, and if it
/// wins with UNSAT the traced one is run alone to obtain the proof.
/// `Ok(refutation)` on UNSAT (its proof checked), `Err(found)` on a
/// counterexample.
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
    let dimacs = encodings[0].cnf.to_dimacs();
    let drat = work.join(format!("level{level}-below{below}.drat"));
    let mut online = OnlineCheck::start(dimacs.clone(), &drat)?;
    let entrants: Vec<Entrant> = encodings
        .iter()
        .enumerate()
        .map(|(i, encoding)| Entrant {
            encoding,
            trace: (i == 0).then(|| online.sender()),
            phases: match hint {
                Some(partial) if i > 0 => encoding.hint_literals(partial),
                _ => Vec::new(),
            },
        })
        .collect();
    let mut finish = race(entrants, &settings.abort)?;
    if let Answer::Sat(model) = &finish.outcome {
        let _ = online.finish(Instant::now());
        let _ = std::fs::remove_file(&drat);
        return Ok(Err(accept_model(hex, &encodings[finish.winner], model)?));
    }
    if finish.winner != 0 {
        // The traced entrant was stopped: its trace ends without the empty
        // clause and is thrown away.
        let _ = online.finish(Instant::now());
        let earlier = finish.seconds;
        online = OnlineCheck::start(dimacs, &drat)?;
        let alone = vec![Entrant { encoding: &encodings[0], trace: Some(online.sender()), phases: Vec::new() }];
        finish = race(alone, &settings.abort)?;
        finish.seconds += earlier;
        if !matches!(finish.outcome, Answer::Unsat) {
            return Err(HexError::Internal("the two formulations disagree on satisfiability".into()));
        }
    }
    let crate::proofs::online::Finished { lrat, drat: proof, .. } = online.finish(Instant::now())?;
    if !lrat.verified {
        let what = format!("the proof of {}", Claim::statement_for(hex.side(), level, below));
        return Err(HexError::Rejected(RecordError::LratRejected { what, verdict: lrat.verdict }));
    }
    Ok(Ok(Refutation { level, below, options: options[0], proof, solve_seconds: finish.seconds, lrat }))
}

/// Writes the claim's CNF, runs the external DRAT checkers the settings ask
/// for, and stores the certificate directory. The proof's LRAT verdict is
/// already in `refutation`: a refutation the checker rejected never gets
/// here. Returns the directory and the claim.
pub fn certify_refutation(
    hex: &Hexagon,
    refutation: &Refutation,
    settings: &Settings,
    work: &Path,
) -> Result<(PathBuf, Claim), HexError> {
    let (n, level, below) = (hex.side(), refutation.level, refutation.below);
    if !refutation.lrat.verified {
        return Err(HexError::Internal(format!("refusing to store an unverified proof: {}", refutation.lrat.verdict)));
    }
    let cnf_path = work.join(format!("level{level}-below{below}.cnf"));
    let dimacs = LevelEncoding::new(hex, level, refutation.options).cnf.to_dimacs();
    crate::files::write_atomic(&cnf_path, &dimacs)?;
    let staging = work.join(format!("certificate-level{level}-below{below}"));
    std::fs::create_dir_all(&staging).at_path(&staging)?;
    let lrat_path = refutation.proof.with_extension("lrat");
    let lrat_kept = lrat_path.exists().then_some(lrat_path.as_path());
    let Stored { cnf, proof, lrat_proof } =
        store_files(&cnf_path, &refutation.proof, lrat_kept, &staging, settings.store_limit)?;
    let (drat_checks, not_checked_externally) = external_checks(
        &cnf_path,
        &refutation.proof,
        settings,
        proof.stored_as.is_some(),
        &Claim::statement_for(n, level, below),
    )?;
    let statement_to_cnf = crate::verify::statement_to_cnf::derive_and_check(
        hex,
        level,
        below,
        &refutation.options,
        &cnf.sha256,
        &cnf_path,
    );
    if settings.abort.load(std::sync::atomic::Ordering::Relaxed) {
        // Ctrl-C reaches VeriPB too; what it said then means nothing.
        return Err(HexError::Interrupted);
    }
    let statement_to_cnf = statement_to_cnf?;
    let claim = Claim {
        format: CLAIM_FORMAT.into(),
        statement: Claim::statement_for(n, level, below),
        n,
        level,
        below,
        encoder: encoder_record(&refutation.options, below),
        hexcert: crate::records::this_build(),
        cnf,
        proof,
        lrat_proof,
        solver: solver_record(refutation.solve_seconds),
        lrat: refutation.lrat.clone(),
        trust_base: trust_base(Basis::Claim {
            options: &refutation.options,
            drat_checks: &drat_checks,
            statement: Some(&statement_to_cnf),
            verified: None,
        }),
        statement_to_cnf: Some(statement_to_cnf),
        verified_lrat: None,
        drat_checks,
        not_checked_externally,
    };
    let json = serde_json::to_vec_pretty(&claim).expect("claims serialise");
    crate::files::write_atomic(&staging.join("claim.json"), &json)?;
    let directory = Claim::directory(&settings.root, n, level, below);
    replace_directory(&staging, &directory)?;
    Ok((directory, claim))
}

/// How the claim's formula was encoded: `options` at the bound `below - 1`.
fn encoder_record(options: &EncodeOptions, below: usize) -> EncoderRecord {
    EncoderRecord {
        version: ENCODER_VERSION.into(),
        max_penalty: below - 1,
        cardinality: options.cardinality,
        symmetry_breaking: options.symmetry,
        symmetry_soundness: options.symmetry.soundness().into(),
    }
}

/// The solver of this build, its profile, and what the solve took.
fn solver_record(seconds: f64) -> SolverRecord {
    SolverRecord {
        name: crate::records::ranges::SOLVER_NAME.into(),
        version: Cadical::version(),
        options: profile::CURRENT.record_text(),
        seconds,
        peak_memory_kb: own_peak_memory_kb(),
    }
}

/// Runs drat-trim and rate, those on PATH, on (CNF, DRAT) when `settings`
/// asks for it; a rejection is an error (the LRAT checker accepted the same
/// solve, so the two disagree). Returns the verdicts, or why none ran.
fn external_checks(
    cnf: &Path,
    proof: &Path,
    settings: &Settings,
    stored: bool,
    statement: &str,
) -> Result<(Vec<CheckerRecord>, Option<String>), HexError> {
    let wanted = match settings.external_check {
        ExternalCheck::Always => true,
        ExternalCheck::Stored => stored,
        ExternalCheck::Never => false,
    };
    if !wanted {
        return Ok((
            Vec::new(),
            Some(format!(
                "not run (--external-check {}): check the regenerated DRAT with drat-trim or rate",
                settings.external_check.name()
            )),
        ));
    }
    let checkers = Checker::present();
    if checkers.is_empty() {
        return Ok((Vec::new(), Some("no DRAT checker on PATH (drat-trim, rate)".into())));
    }
    let mut records = Vec::new();
    for checker in checkers {
        let verdict = checker.check(cnf, proof)?;
        if settings.abort.load(std::sync::atomic::Ordering::Relaxed) {
            // Ctrl-C reaches the checker too; its failure then says nothing.
            return Err(HexError::Interrupted);
        }
        if !verdict.verified {
            return Err(HexError::Internal(format!(
                "{} rejected the DRAT proof of {statement}: {}",
                checker.name, verdict.line
            )));
        }
        records.push(CheckerRecord {
            name: checker.name.clone(),
            version: checker.version.clone(),
            command: verdict.command.clone(),
            verdict: verdict.line.clone(),
            seconds: verdict.seconds,
            peak_memory_kb: verdict.peak_memory_kb,
            read: None,
        });
    }
    Ok((records, None))
}

/// Re-solves a stored claim's exact formula alone (single thread, the
/// recorded options, so the same trace as when it was proved), sending every
/// step to `trace`; returns the solve seconds. The caller checks the trace:
/// this function judges nothing. `stop` is polled by the solver.
pub fn solve_claim_traced(
    hex: &Hexagon,
    claim: &Claim,
    trace: TraceSender,
    stop: impl Fn() -> bool + 'static,
) -> Result<f64, HexError> {
    let encoding = LevelEncoding::new(hex, claim.level, claim.encode_options());
    let profile = profile::Profile::from_record(&claim.solver.options)?;
    refute_traced(&encoding.cnf, profile, trace, &claim.statement, stop)
}

/// `solve_traced` of a formula that must be unsatisfiable (`what` names it).
fn refute_traced(
    cnf: &Cnf,
    profile: Profile,
    trace: TraceSender,
    what: &str,
    stop: impl Fn() -> bool + 'static,
) -> Result<f64, HexError> {
    match solve_traced(cnf, profile, trace, stop)? {
        (Answer::Unsat, seconds) => Ok(seconds),
        // The record claims a refutation of a satisfiable formula: a failed
        // certificate (exit 1), not a fault of hexcert's.
        (Answer::Sat(_), _) => Err(HexError::Contradiction(format!(
            "regenerating `{what}`: the formula is satisfiable, so the record's refutation is false"
        ))),
    }
}

/// Regeneration by re-solving (`solve_claim_traced`), handed to
/// `check::check_record` by `check --regenerate` and by `certify`. `check`
/// sees only the trait, so checking stored proofs links no solver code.
pub struct SolveAgain;

/// `SolveAgain` that gives up once the flag rises (Ctrl-C under `check
/// --regenerate`): the solver answers `Interrupted`, so the check has no
/// trace to judge and verifies nothing it did not finish.
pub struct SolveAgainUntil(pub Arc<AtomicBool>);

impl Regenerate for SolveAgain {
    fn regenerate(&self, claim: &Claim, trace: TraceSender) -> Result<f64, HexError> {
        SolveAgainUntil(Arc::default()).regenerate(claim, trace)
    }

    fn regenerate_formula(
        &self,
        cnf: &Cnf,
        profile: Option<&str>,
        what: &str,
        trace: TraceSender,
    ) -> Result<f64, HexError> {
        SolveAgainUntil(Arc::default()).regenerate_formula(cnf, profile, what, trace)
    }

    fn relist(
        &self,
        hex: &Hexagon,
        cube: (&LevelEncoding, &crate::cubes::Split, &[u8]),
        path: &[i32],
        verified: Option<&VerifiedChecker>,
    ) -> Result<crate::records::leaders::CubeLeaders, HexError> {
        SolveAgainUntil(Arc::default()).relist(hex, cube, path, verified)
    }
}

impl SolveAgainUntil {
    fn stop(&self) -> impl Fn() -> bool + 'static {
        let flag = Arc::clone(&self.0);
        move || flag.load(Ordering::Relaxed)
    }
}

impl Regenerate for SolveAgainUntil {
    fn regenerate(&self, claim: &Claim, trace: TraceSender) -> Result<f64, HexError> {
        solve_claim_traced(&Hexagon::new(claim.n)?, claim, trace, self.stop())
    }

    fn regenerate_formula(
        &self,
        cnf: &Cnf,
        profile: Option<&str>,
        what: &str,
        trace: TraceSender,
    ) -> Result<f64, HexError> {
        // A record that names no profile was solved before profiles existed,
        // with CaDiCaL's defaults: only they give its trace again.
        let profile = profile.map_or(Ok(profile::DEFAULT), profile::Profile::named)?;
        refute_traced(cnf, profile, trace, what, self.stop())
    }

    fn relist(
        &self,
        hex: &Hexagon,
        cube: (&LevelEncoding, &crate::cubes::Split, &[u8]),
        path: &[i32],
        verified: Option<&VerifiedChecker>,
    ) -> Result<crate::records::leaders::CubeLeaders, HexError> {
        let scratch = tempfile::tempdir().at_path(std::env::temp_dir())?;
        crate::listing::refute::certified_cube(hex, cube, path, (scratch.path(), verified), (self.stop(), None))
            .map(|(record, _)| record)
    }
}
