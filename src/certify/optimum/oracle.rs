//! The search for an optimum, run against an oracle that certifies every
//! UNSAT answer (or reuses a certificate that verifies now) while the
//! search goes on.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::record::{write_optimum, Provenance};
use super::report::{resumed_report, OptimumReport};
use crate::certify::check_queue::Verifier;
use crate::certify::contradiction::{set_aside_contradicted, Contradicted};
use crate::certify::cube_run::{run_all, RunLimits};
use crate::certify::deadline::Deadline;
use crate::certify::merge::merge;
use crate::certify::prove::{certify_refutation, refute, Refutation, SolveAgain};
use crate::certify::resume::ResumeDir;
use crate::certify::Settings;
use crate::cubes::Plan;
use crate::encoding::model::Found;
use crate::encoding::EncodeOptions;
use crate::error::AtPath;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::records::cube::CubeResult;
use crate::records::{Claim, Record, WitnessSource};
use crate::run::WorkDir;
use crate::search::{minimize_through, LowerBoundProof, Minimum, Oracle, PlainOracle, SearchStep};
use crate::solving::{Cadical, SatSolver};
use crate::verify::check::{check_record, CheckReport, Status};
use crate::verify::cube_status::{progress, read_counterexample};

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
        let plan = Plan::new(
            n,
            level,
            below,
            crate::options::SPLIT_RADIUS.default,
            crate::options::SPLIT_DEPTH.default,
            self.settings.cardinality,
        )?
        .split_budget(crate::options::BUDGET_SPLIT.default)?;
        let results = self.settings.root.join(format!("n{n}")).join(".cubes");
        // The plan and its job list, for other machines sharing `results`
        // to help: every cube one of them records is one this run skips.
        let plan_path = results.join(format!("level{level}-below{below}.plan.json"));
        std::fs::create_dir_all(&results).at_path(&results)?;
        let hexcert =
            std::env::current_exe().map(|p| p.to_string_lossy().into_owned()).unwrap_or_else(|_| "hexcert".into());
        let jobs = plan.write(&plan_path, &results, &hexcert)?;
        eprintln!(
            "  n={n} level {level} below {below}: split into {} cubes ({}); other machines can run lines of {}",
            plan.cubes.len(),
            plan_path.display(),
            jobs.display()
        );
        // The store limit is the whole claim's: shared among its cubes.
        let limits = RunLimits {
            time_limit: None,
            store_limit: self.settings.store_limit / plan.cubes.len().max(1) as u64,
            verified: None,
        };
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
    fn query(
        &mut self,
        hex: &Hexagon,
        level: u8,
        max_penalty: Option<usize>,
        hint: Option<&Partial>,
    ) -> Result<Option<Found>, HexError> {
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
    fn answer(
        &mut self,
        hex: &Hexagon,
        level: u8,
        max_penalty: Option<usize>,
        hint: Option<&Partial>,
    ) -> Result<Option<Found>, HexError> {
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
fn reusable(report: &CheckReport) -> bool {
    report.status == Status::Verified || report.needs_veripb
}

/// Certifies the optimum of the side-n hexagon under `settings.root`, with
/// the checks in line: returns once `optimum.json` is written.
pub fn certify_optimum(
    n: usize,
    settings: &Settings,
    on_step: &mut dyn FnMut(&SearchStep),
) -> Result<OptimumReport, HexError> {
    let verifier = Verifier::start(settings.abort.clone());
    let report = Arc::new(Mutex::new(None));
    let slot = Arc::clone(&report);
    if let Err(error) = certify_optimum_queued(
        n,
        settings,
        &verifier,
        on_step,
        Box::new(move |r| *slot.lock().expect("report slot") = Some(r)),
    ) {
        return Err(verifier.finish_after(error));
    }
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
    on_step: &mut dyn FnMut(&SearchStep),
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
    crate::certify::work_dirs::remove_stale_work_dirs(&dir);
    let work = WorkDir::create(&dir, ".work-certify")?;
    let resume = ResumeDir::new(&dir);
    let mut oracle = CertifyingOracle {
        settings,
        verifier,
        work: work.0.clone(),
        resume: resume.clone(),
        refuted: HashSet::new(),
        attested: HashSet::new(),
    };
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
    let below_lower_bound: Vec<Minimum> = minima.iter().filter(|m| m.level < level).cloned().collect();
    let mut attested: Vec<String> = oracle.attested.iter().map(|(k, b)| format!("level{k}-below{b}")).collect();
    attested.sort();
    verifier.submit(Box::new(move || {
        // Owning the scratch directory here keeps the queued proofs alive
        // until their checks ran; it is removed when this task ends.
        let _work = work;
        store_level_witnesses(&dir, &below_lower_bound, &witness)?;
        let found = Provenance { source: WitnessSource::search(), level_minima, unreached: Vec::new(), attested };
        let report = write_optimum(&dir, n, (level, below), &witness, found, start)?;
        resume.remove();
        on_report(report);
        Ok(())
    }));
    Ok(())
}

/// The search's witnesses of the levels below the lower bound's, kept on
/// disk where `check` reads them: for each level whose minimum the
/// optimum's grid does not reach, the search's partial of that level and
/// penalty beside the optimum (`witness::optimum_level_witness`), written
/// before `optimum.json`. Runs once the claims are stored.
fn store_level_witnesses(dir: &Path, minima: &[Minimum], grid: &Partial) -> Result<(), HexError> {
    use crate::verify::witness::{optimum_level_witness, penalty_at_level};
    for minimum in minima {
        let partial = &minimum.witness.partial;
        if penalty_at_level(grid, minimum.level)? == minimum.penalty || partial.level() != minimum.level {
            continue;
        }
        crate::files::write_atomic(
            &optimum_level_witness(dir, minimum.level),
            crate::formats::to_hexcert_text(partial).as_bytes(),
        )?;
    }
    Ok(())
}
