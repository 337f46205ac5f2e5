//! `hexcert certify`: the optimum of a side-n hexagon, with a witness grid
//! the engine found itself and a checked lower-bound certificate.
//!
//! The levels are minimised in turn (each from the bound of the one below).
//! Every bounded query races the plain formula against the symmetry-broken
//! one; every UNSAT answer becomes a checked certificate (so each level's
//! minimum is certified, not only the optimum's), checked on the verifier
//! thread while the search goes on. A rerun resumes from the certificates on
//! disk and from `.resume/` (see `resume`), each re-checked before it is
//! used; it skips an n whose `optimum.json` exists and verifies.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::check::{check_record, CheckReport, Status};
use super::deadline::Deadline;
use super::contradiction::{set_aside_contradicted, Contradicted};
use super::cubes::{merge, progress, read_counterexample, run_all, CubeResult, RunLimits};
use crate::cubes::Plan;
use super::prove::{certify_refutation, refute, Refutation, SolveAgain};
use super::resume::ResumeDir;
use super::verifier::Verifier;
use super::{Settings, WorkDir};
use crate::error::HexError;
use crate::formats::to_hexcert_text;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::digest::sha256_hex;
use crate::records::{read_json, this_build, Claim, Optimum, Record, WitnessSource};
use crate::search::{minimize_through, Found, LowerBoundProof, Oracle, PlainOracle, Step};
use crate::encoding::EncodeOptions;
use crate::solving::{Cadical, SatSolver};

/// What `certify` reports for one n.
#[derive(Debug, Clone, serde::Serialize)]
pub struct OptimumReport {
    pub n: usize,
    pub optimum: usize,
    pub level: u8,
    pub level_minima: Vec<usize>,
    /// Wall time for this n (all queries, intermediate checks included).
    pub seconds: f64,
    /// Solve time of the claim the optimum rests on, and how long after the
    /// solver's answer its LRAT verdict came.
    pub solve_seconds: f64,
    pub check_seconds: f64,
    pub proof_bytes: u64,
    pub proof_stored: bool,
    pub directory: PathBuf,
    /// True when an earlier run had already certified this n.
    pub resumed: bool,
    /// Claims the search relied on that this run did not check (cube claims
    /// with attested cubes): the optimum is attested, not verified, and
    /// `certify` exits 4, as `check` would.
    pub attested: Vec<String>,
    /// Claims the level minima rest on whose statement -> CNF derivation
    /// VeriPB, not on PATH, could not check in this run: `check` reports
    /// them unverified, and `certify` exits 4 too.
    pub derivation_unchecked: Vec<String>,
}

/// Races formulations for bounded queries. Every UNSAT answer is handed to
/// the verifier, which checks it and stores the certificate while the
/// search goes on, so an interrupted run resumes claim by claim: a query
/// whose certificate already exists is answered UNSAT from it once that
/// certificate verifies in this run (`already_certified`).
struct CertifyingOracle<'a> {
    settings: &'a Settings,
    verifier: &'a Verifier,
    work: PathBuf,
    /// Best partials and unchecked refutations, kept across stops.
    resume: ResumeDir,
    /// Claims `(level, below)` refuted in this run (checked or in the queue),
    /// or found already certified and verified in this run.
    refuted: HashSet<(u8, usize)>,
    /// Those of `refuted` this run did not check: attested cube claims.
    attested: HashSet<(u8, usize)>,
}

impl CertifyingOracle<'_> {
    /// A claim refuted in this run, or certified by an earlier run and
    /// verified now. An earlier certificate is re-checked (`check_record`,
    /// regenerating a claim-only proof) rather than trusted because its
    /// `claim.json` parses: an optimum built on it would inherit whatever is
    /// wrong with it. One that does not verify is proved again (and replaced).
    fn already_certified(&mut self, n: usize, level: u8, below: usize) -> bool {
        if self.refuted.contains(&(level, below)) {
            return true;
        }
        let path = Claim::directory(&self.settings.root, n, level, below).join("claim.json");
        let holds = if path.exists() { earlier_claim_holds(&path) } else { Holds::No };
        if holds != Holds::No {
            self.refuted.insert((level, below)); // checked once per run
        }
        if holds == Holds::Attested {
            self.attested.insert((level, below));
        }
        holds != Holds::No
    }

    /// `contradiction::set_aside_contradicted` on this run's root; the
    /// claim no longer counts as refuted in this run either.
    fn contradicted(&mut self, n: usize, level: u8, penalty: usize) -> Result<(), HexError> {
        let result = set_aside_contradicted(&self.settings.root, n, level, penalty);
        if let Err(Contradicted { level, below, error }) = result {
            self.refuted.remove(&(level, below));
            self.attested.remove(&(level, below));
            return Err(error);
        }
        Ok(())
    }

    /// Answers "level-k penalty below `below`" with ring-1 value cubes run
    /// on `settings.jobs` cores: a counterexample from any cube is the
    /// model; all refuted, they are merged into the cube claim. Records go to
    /// `nN/.cubes/` and are named by cube and formula, so a stopped run
    /// resumes cube by cube.
    fn query_cubes(&mut self, hex: &Hexagon, level: u8, below: usize) -> Result<Option<Found>, HexError> {
        let n = hex.side();
        let plan = Plan::new(n, level, below, crate::options::SPLIT_RADIUS.default, crate::options::SPLIT_DEPTH.default, self.settings.cardinality)?
            .split_budget(crate::options::BUDGET_SPLIT.default)?;
        let results = self.settings.root.join(format!("n{n}")).join(".cubes");
        // The plan and its job list, for other machines sharing `results`
        // to help: every cube one of them records is one this run skips.
        let plan_path = results.join(format!("level{level}-below{below}.plan.json"));
        std::fs::create_dir_all(&results).map_err(|source| HexError::Io { path: results.clone(), source })?;
        let hexcert = std::env::current_exe().map(|p| p.to_string_lossy().into_owned()).unwrap_or_else(|_| "hexcert".into());
        let jobs = plan.write(&plan_path, &results, &hexcert)?;
        eprintln!("  n={n} level {level} below {below}: split into {} cubes ({}); other machines can run lines of {}",
            plan.cubes.len(), plan_path.display(), jobs.display());
        // The store limit is the whole claim's: shared among its cubes.
        let limits = RunLimits { time_limit: None, store_limit: self.settings.store_limit / plan.cubes.len().max(1) as u64, verified: None };
        let start = Instant::now();
        let report = |index: usize, result: &CubeResult, pending: usize| {
            eprintln!("  n={n} level {level} below {below}: cube {index} of {pending} pending: {:?} in {:.1} s ({:.0} s into the query)",
                result.verdict, result.solve_seconds, start.elapsed().as_secs_f64());
        };
        run_all(&plan, None, &results, self.settings.jobs, limits, &self.settings.abort, &report)?;
        if self.settings.abort.load(Ordering::Relaxed) {
            return Err(HexError::Interrupted);
        }
        let found = progress(&plan, &results)?;
        if let Some(&index) = found.counterexamples.first() {
            let partial = read_counterexample(&plan, &results, index)?;
            let evaluation = crate::validation::evaluate(hex, &partial);
            let found = Found { partial, evaluation };
            self.resume.offer(hex, &found)?;
            return Ok(Some(found));
        }
        merge(&plan, &results, &self.settings.root)?;
        self.refuted.insert((level, below));
        if !found.attested.is_empty() {
            self.attested.insert((level, below));
        }
        Ok(None)
    }

    /// Queues the storing of a refutation whose proof the LRAT checker has
    /// already judged (and, when asked, its external DRAT check).
    fn submit_check(&mut self, hex: &Hexagon, refutation: Refutation) {
        let (level, below) = (refutation.level, refutation.below);
        let (hex, settings, work) = (hex.clone(), self.settings.clone(), self.work.clone());
        self.verifier.submit(Box::new(move || certify_refutation(&hex, &refutation, &settings, &work).map(|_| ())));
        self.refuted.insert((level, below));
    }
}

impl Oracle for CertifyingOracle<'_> {
    /// Every model found is held against the claims on disk (`contradicted`).
    fn query(&mut self, hex: &Hexagon, level: u8, max_penalty: Option<usize>, hint: Option<&Partial>) -> Result<Option<Found>, HexError> {
        let found = self.answer(hex, level, max_penalty, hint)?;
        if let Some(found) = &found {
            self.contradicted(hex.side(), level, found.evaluation.penalty)?;
        }
        Ok(found)
    }

    fn fresh_solver(&self) -> Box<dyn SatSolver> {
        Box::new(Cadical::new())
    }
}

impl CertifyingOracle<'_> {
    fn answer(&mut self, hex: &Hexagon, level: u8, max_penalty: Option<usize>, hint: Option<&Partial>) -> Result<Option<Found>, HexError> {
        if let Some(message) = self.verifier.failure() {
            return Err(HexError::Internal(format!("an earlier certificate failed: {message}")));
        }
        let Some(bound) = max_penalty else {
            if let Some(best) = self.resume.best(hex, level) {
                return Ok(Some(best));
            }
            let template = EncodeOptions { cardinality: self.settings.cardinality, ..EncodeOptions::bounded(None) };
            let found = PlainOracle::<Cadical>::new(template).query(hex, level, None, hint)?;
            if let Some(found) = &found {
                self.resume.offer(hex, found)?;
            }
            return Ok(found);
        };
        if self.already_certified(hex.side(), level, bound + 1) {
            return Ok(None);
        }
        let split = self.settings.cubes.applies(hex.side(), level);
        // A query that may be split runs whole first, for `cubes_after`
        // seconds: most satisfiable queries end by then, and cubes pay only
        // on long refutations (a satisfiable query split into cubes refutes
        // cube after cube until one holds a model).
        let deadline = split.then(|| Deadline::start(&self.settings.abort, self.settings.cubes_after));
        let settings = match &deadline {
            Some(deadline) => Settings { abort: Arc::clone(&deadline.flag), ..self.settings.clone() },
            None => self.settings.clone(),
        };
        let answer = refute(hex, level, bound + 1, &settings, &self.work, hint);
        if let Some(deadline) = deadline {
            if deadline.stop() && matches!(answer, Err(HexError::Interrupted)) {
                return self.query_cubes(hex, level, bound + 1);
            }
        }
        match answer? {
            Ok(refutation) => {
                self.submit_check(hex, refutation);
                Ok(None)
            }
            Err(found) => {
                self.resume.offer(hex, &found)?;
                Ok(Some(found))
            }
        }
    }
}

/// How an earlier run's claim stands in this run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// Verified now (a claim-only proof regenerated).
    Verified,
    /// A cube claim whose cube proofs are not stored, everything else
    /// verified (cover, formula hashes): its cubes are attested by the runs
    /// that solved them. Regenerating would re-solve every cube (`hexcert
    /// check --regenerate` does); the optimum built on it says attested.
    Attested,
    /// Prove it again.
    No,
}

fn earlier_claim_holds(path: &Path) -> Holds {
    if matches!(Record::read(path), Ok(Record::CubeClaim(_))) {
        // Unverified only for lack of VeriPB, its cubes were checked: not attested.
        let report = check_record(path, None);
        return match report.status {
            _ if reusable(&report) => Holds::Verified,
            Status::Unverified => Holds::Attested,
            _ => Holds::No,
        };
    }
    if reusable(&check_record(path, Some(&SolveAgain))) {
        Holds::Verified
    } else {
        Holds::No
    }
}

/// Verified now, or everything verified but a recorded derivation that
/// VeriPB, not on this machine, could not check: solving again would not
/// change that, and `hexcert check` still reports it unverified.
fn reusable(report: &super::check::CheckReport) -> bool {
    report.status == Status::Verified || report.needs_veripb
}

/// Certifies the optimum of the side-n hexagon under `settings.root`, with
/// the checks in line: returns once `optimum.json` is written.
pub fn certify_optimum(n: usize, settings: &Settings, on_step: &mut dyn FnMut(&Step)) -> Result<OptimumReport, HexError> {
    let verifier = Verifier::start(settings.abort.clone());
    let report = Arc::new(Mutex::new(None));
    let slot = Arc::clone(&report);
    certify_optimum_queued(n, settings, &verifier, on_step, Box::new(move |r| *slot.lock().expect("report slot") = Some(r)))?;
    verifier.finish()?;
    let report = report.lock().expect("report slot").take();
    report.ok_or_else(|| HexError::Internal(format!("n={n}: the optimum record was not written")))
}

/// What to do with a finished n's report (called on the verifier thread).
pub type OnReport = Box<dyn FnOnce(OptimumReport) + Send>;

/// Runs the search for n's optimum and queues, behind the checks of its
/// claims, the task that writes `optimum.json` and reports. Returns when the
/// search is done; the record appears once the verifier reaches that task.
pub fn certify_optimum_queued(
    n: usize,
    settings: &Settings,
    verifier: &Verifier,
    on_step: &mut dyn FnMut(&Step),
    on_report: OnReport,
) -> Result<(), HexError> {
    let hex = Hexagon::new(n)?;
    let dir = settings.root.join(format!("n{n}"));
    let record_path = dir.join("optimum.json");
    // An earlier run's optimum is reused only when it verifies now, with its
    // claim (regenerated if claim-only); otherwise n is certified afresh and
    // the record replaced. This can cost a re-solve, which is the price of
    // not trusting a record because it parses.
    if record_path.exists() && reusable(&check_record(&record_path, Some(&SolveAgain))) {
        on_report(resumed_report(&record_path)?);
        return Ok(());
    }
    let start = Instant::now();
    super::remove_stale_work_dirs(&dir);
    let work = WorkDir::create(&dir, ".work-certify")?;
    let resume = ResumeDir::new(&dir);
    let mut oracle =
        CertifyingOracle { settings, verifier, work: work.0.clone(), resume: resume.clone(), refuted: HashSet::new(), attested: HashSet::new() };
    let minima = match minimize_through(&hex, 6, &mut oracle, on_step) {
        Ok(minima) => minima,
        Err(error) => {
            // Queued checks read their proofs from `work`: let them finish
            // (or be skipped, after Ctrl-C) before it is removed.
            verifier.wait();
            return Err(error);
        }
    };
    // Every level's witness is a validated model: held against the claims
    // on disk once more (quick starts find models without the oracle).
    for minimum in &minima {
        if let Err(error) = oracle.contradicted(n, minimum.level, minimum.witness.evaluation.penalty) {
            verifier.wait();
            return Err(error);
        }
    }
    let top = minima.last().expect("six levels");
    let (level, below) = match top.proof {
        LowerBoundProof::UnsatAtLevel { level, max_penalty } => (level, max_penalty + 1),
        LowerBoundProof::InheritedFromLevel { level } => (level, top.penalty),
        LowerBoundProof::Zero => return Err(HexError::Internal(format!("n={n}: optimum 0 needs no proof"))),
    };
    if top.penalty != below {
        return Err(HexError::Internal(format!("n={n}: witness penalty {} but lower bound {below}", top.penalty)));
    }
    let witness = top.witness.partial.clone();
    let level_minima: Vec<usize> = minima.iter().map(|m| m.penalty).collect();
    let mut attested: Vec<String> = oracle.attested.iter().map(|(k, b)| format!("level{k}-below{b}")).collect();
    attested.sort();
    verifier.submit(Box::new(move || {
        // Owning the scratch directory here keeps the queued proofs alive
        // until their checks ran; it is removed when this task ends.
        let _work = work;
        let found = Provenance { source: WitnessSource::search(), level_minima, unreached: Vec::new(), attested };
        let report = write_optimum(&dir, n, (level, below), &witness, found, start)?;
        resume.remove();
        on_report(report);
        Ok(())
    }));
    Ok(())
}

/// What an optimum record says of where its numbers came from.
struct Provenance {
    source: WitnessSource,
    level_minima: Vec<usize>,
    /// Levels whose minimum is stated from below only.
    unreached: Vec<u8>,
    attested: Vec<String>,
}

/// Writes the witness and `optimum.json` (last: its presence means n is
/// done). Runs after the checks of n's claims, so the claim it names exists.
fn write_optimum(
    dir: &Path,
    n: usize,
    (level, below): (u8, usize),
    witness: &Partial,
    found: Provenance,
    start: Instant,
) -> Result<OptimumReport, HexError> {
    let Provenance { source, level_minima, unreached, attested } = found;
    let claim_dir = Claim::directory(dir.parent().unwrap_or(Path::new(".")), n, level, below);
    let claim = ClaimFigures::read(&claim_dir.join("claim.json"))?;
    let witness_text = to_hexcert_text(witness);
    crate::files::write_atomic(&dir.join("witness.txt"), witness_text.as_bytes())?;
    let record = Optimum {
        format: Optimum::new_format(),
        n,
        optimum: below,
        witness: "witness.txt".into(),
        witness_sha256: sha256_hex(witness_text.as_bytes()),
        lower_bound: relative(&claim_dir, dir),
        lower_bound_level: level,
        level_minima,
        seconds: start.elapsed().as_secs_f64(),
        hexcert: this_build(),
        attested: (!attested.is_empty()).then_some(attested),
        witness_source: Some(source),
        unreached: (!unreached.is_empty()).then_some(unreached),
    };
    crate::files::write_atomic(&dir.join("optimum.json"), &serde_json::to_vec_pretty(&record).expect("serialises"))?;
    Ok(OptimumReport::new(record, &claim, claim_dir, dir, false))
}

/// `certify --witness`: the optimum of side n from a grid already found
/// (the engine's search, a published file) and the claims already under
/// `root`, none of them solved again. The grid must be a full grid the
/// plain validator accepts, with penalty exactly the bound of a claim beside
/// (the lowest level's such claim is the lower bound); a claim it
/// contradicts (a bound above its penalty) refuses it. Below that level,
/// a minimum is the strongest bound the claims beside prove, listed as
/// `unreached` unless a level witness or the grid itself reaches it. The
/// lower-bound claim is checked first, as `check` does (a failure refuses
/// the grid, nothing written); the record is then checked whole, and its
/// report says what this run verified.
pub fn certify_from_grid(n: usize, grid_path: &Path, root: &Path) -> Result<(OptimumReport, CheckReport), HexError> {
    let start = Instant::now();
    let hex = Hexagon::new(n)?;
    let dir = root.join(format!("n{n}"));
    let record_path = dir.join("optimum.json");
    let refuse = |message: String| HexError::Input { file: grid_path.to_path_buf(), line: 0, message };
    if std::fs::symlink_metadata(&record_path).is_ok() {
        return Err(refuse(format!("{} exists already: remove it first to rest n = {n}'s optimum on this grid", record_path.display())));
    }
    let bytes = crate::files::read_regular(grid_path, crate::formats::MAX_GRID_BYTES, "grid file")?;
    let grid = crate::formats::parse_grid(&bytes, grid_path, Some(n))?;
    if grid.partial.level() != crate::levels::FULL_LEVEL {
        return Err(refuse(format!("a level-{} partial, not a full grid", grid.partial.level())));
    }
    let evaluation = crate::validation::evaluate(&hex, &grid.partial);
    if !evaluation.is_valid() {
        return Err(refuse(format!("not a valid grid: {} cells lack support", evaluation.violations.len())));
    }
    let penalty = evaluation.penalty;
    let claims = claims_beside(&dir, n)?;
    if let Some(&(level, below)) = claims.iter().find(|&&(_, below)| below > penalty) {
        return Err(refuse(format!("its penalty {penalty} contradicts the claim level{level}-below{below}: check the claim with --regenerate")));
    }
    let Some(&(level, _)) = claims.iter().filter(|&&(_, below)| below == penalty).min() else {
        let strongest = claims.iter().map(|&(_, below)| below).max().unwrap_or(0);
        return Err(refuse(format!("penalty {penalty}, but no claim under {} bounds the penalty below {penalty} (the strongest: below {strongest}); prove it first", dir.display())));
    };
    let claim_path = Claim::directory(root, n, level, penalty).join("claim.json");
    let mut run = super::check::CheckRun::new(None);
    let claim_report = run.check(&claim_path);
    if claim_report.status == Status::Failed {
        let why = claim_report.messages.last().cloned().unwrap_or_default();
        return Err(refuse(format!("its lower-bound claim {} fails its check: {why}", claim_path.display())));
    }
    let mut level_minima = Vec::new();
    let mut unreached = Vec::new();
    for k in 1..=crate::levels::FULL_LEVEL {
        if k >= level {
            level_minima.push(penalty);
            continue;
        }
        // A level-j claim bounds every level from j on.
        let minimum = claims.iter().filter(|&&(j, _)| j <= k).map(|&(_, below)| below).max().unwrap_or(0);
        let witnessed = Claim::directory(root, n, k, minimum).join(super::witness::LEVEL_WITNESS).is_file();
        if minimum > 0 && !witnessed && super::witness::penalty_at_level(&grid.partial, k)? != minimum {
            unreached.push(k);
        }
        level_minima.push(minimum);
    }
    let (kind, comments) = match grid.format {
        crate::formats::Format::Hexcert => (WitnessSource::GRID_FILE, comment_lines(&bytes)),
        crate::formats::Format::Published => (WitnessSource::PUBLISHED, Vec::new()),
    };
    let source = WitnessSource {
        kind: kind.into(),
        path: Some(grid_path.to_string_lossy().into_owned()),
        sha256: Some(sha256_hex(&bytes)),
        comments,
    };
    let found = Provenance { source, level_minima, unreached, attested: Vec::new() };
    let report = write_optimum(&dir, n, (level, penalty), &grid.partial, found, start)?;
    Ok((report, run.check(&record_path)))
}

/// `(level, below)` of every claim directory in `dir` whose record states
/// side n and those numbers (a directory named otherwise is `check`'s to fail).
fn claims_beside(dir: &Path, n: usize) -> Result<Vec<(u8, usize)>, HexError> {
    let entries = std::fs::read_dir(dir).map_err(|source| HexError::Io { path: dir.into(), source })?;
    let mut claims = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(numbers) = crate::records::ranges::claim_directory_numbers(&name) else { continue };
        let path = entry.path().join("claim.json");
        if !path.is_file() {
            continue;
        }
        let record = Record::read(&path)?;
        match record.claim_numbers() {
            Some((side, level, below, _)) if side == n && (level, below) == numbers => claims.push(numbers),
            _ => return Err(crate::error::RecordError::Header(format!("not the claim its directory names (n = {n}, {name})")).at(&path)),
        }
    }
    claims.sort();
    Ok(claims)
}

/// A hexcert grid file's `#` lines, without the `#`.
fn comment_lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes).lines().filter_map(|line| line.trim_start().strip_prefix('#')).map(|c| c.trim().to_string()).collect()
}

fn relative(path: &Path, base: &Path) -> String {
    path.strip_prefix(base).unwrap_or(path).to_string_lossy().into_owned()
}

fn resumed_report(record_path: &Path) -> Result<OptimumReport, HexError> {
    let record: Optimum = read_json(record_path)?;
    let claim_dir = record_path.parent().unwrap_or(Path::new(".")).join(&record.lower_bound);
    let claim = ClaimFigures::read(&claim_dir.join("claim.json"))?;
    let dir = record_path.parent().unwrap_or(Path::new("."));
    Ok(OptimumReport::new(record, &claim, claim_dir, dir, true))
}

/// The claims beside an optimum in `dir` that bound one of its level
/// minima from below and record a statement -> CNF derivation, when VeriPB
/// is not on PATH: `check` calls each unverified (`statement`), whatever it
/// recorded when it was written.
fn derivations_unchecked(dir: &Path, level_minima: &[usize]) -> Vec<String> {
    if crate::proofs::veripb::Veripb::find().is_some() {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let (level, below) = crate::records::ranges::claim_directory_numbers(&name)?;
            let bounds_a_minimum = level_minima.get(usize::from(level).checked_sub(1)?..)?.contains(&below);
            let derivation = match Record::read(&entry.path().join("claim.json")).ok()? {
                Record::Claim(claim) => claim.statement_to_cnf,
                Record::CubeClaim(claim) => claim.statement_to_cnf,
                _ => None,
            };
            (bounds_a_minimum && derivation.is_some_and(|d| d.statement.is_some())).then_some(name)
        })
        .collect();
    names.sort();
    names
}

/// What the report says of the claim under an optimum, either kind.
struct ClaimFigures {
    solve_seconds: f64,
    check_seconds: f64,
    proof_bytes: u64,
    proof_stored: bool,
}

impl ClaimFigures {
    fn read(path: &Path) -> Result<ClaimFigures, HexError> {
        let record = Record::read(path)?;
        if let Record::CubeClaim(claim) = record {
            let stored = claim.cubes.iter().all(|c| c.lrat_proof.as_ref().is_some_and(|f| f.stored_as.is_some()));
            let bytes = claim.cubes.iter().filter_map(|c| c.lrat_proof.as_ref()).map(|f| f.compressed_bytes.unwrap_or(f.bytes)).sum();
            return Ok(ClaimFigures { solve_seconds: claim.solve_seconds, check_seconds: claim.lrat_cpu_seconds, proof_bytes: bytes, proof_stored: stored });
        }
        let Record::Claim(claim) = record else {
            return Err(crate::error::RecordError::Header("the lower bound is not a claim this build reads".into()).at(path));
        };
        Ok(ClaimFigures {
            solve_seconds: claim.solver.seconds,
            check_seconds: claim.lrat.seconds_after_solve,
            proof_bytes: claim.proof.compressed_bytes.unwrap_or(claim.proof.bytes),
            proof_stored: claim.proof.stored_as.is_some(),
        })
    }
}

impl OptimumReport {
    fn new(record: Optimum, claim: &ClaimFigures, directory: PathBuf, dir: &Path, resumed: bool) -> OptimumReport {
        OptimumReport {
            derivation_unchecked: derivations_unchecked(dir, &record.level_minima),
            n: record.n,
            optimum: record.optimum,
            level: record.lower_bound_level,
            level_minima: record.level_minima,
            seconds: record.seconds,
            solve_seconds: claim.solve_seconds,
            check_seconds: claim.check_seconds,
            proof_bytes: claim.proof_bytes,
            proof_stored: claim.proof_stored,
            directory,
            attested: record.attested.unwrap_or_default(),
            resumed,
        }
    }
}
