//! cubes plan, run, refine and merge: one claim split over many solvers.
//! (status and estimate, which only read a campaign, are in `campaign.rs`.)

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::report::Reported;
use hexcert::certify::cube_run::{run_all, run_cube, RunLimits};
use hexcert::certify::merge::merge;
use hexcert::context::RunContext;
use hexcert::cubes::{Cover, Plan};
use hexcert::error::HexError;
use hexcert::outcome::Outcome;
use hexcert::records::cube::{CubeResult, CubeVerdict};
use hexcert::verify::cube_status::{plan_hash, progress};

/// `cubes plan` (and `cubes refine`): the plan written and its job list.
#[derive(Serialize)]
pub struct PlanReport {
    plan: PathBuf,
    jobs: PathBuf,
    sha256: String,
    cubes: usize,
    cells: usize,
    cover: Cover,
    #[serde(skip)]
    statement: String,
    #[serde(skip)]
    split: (usize, u8),
}

impl fmt::Display for PlanReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let ((radius, depth), cover) = (self.split, &self.cover);
        writeln!(f, "{}: {} cubes for `{}`", self.plan.display(), self.cubes, self.statement)?;
        writeln!(
            f,
            "  split: {} cells within radius {radius} of the centre, values 1..={depth} and more; {} projections, {} refuted locally, {} covered by the cubes and their images",
            self.cells, cover.projections, cover.refuted, cover.covered
        )?;
        writeln!(f, "  plan sha256 {}", self.sha256)?;
        writeln!(f, "  job list {} (one `cubes run --index I` per line; recipes/ runs it with GNU parallel, Slurm or Kubernetes)", self.jobs.display())
    }
}

pub fn cubes_plan(plan: &Plan, output: &Path, results: &Path, hexcert: &str) -> Result<Reported, HexError> {
    Ok(Reported::new(write_plan(plan, output, results, hexcert)?, Outcome::Done))
}

fn write_plan(plan: &Plan, output: &Path, results: &Path, hexcert: &str) -> Result<PlanReport, HexError> {
    // The file is written only once the cover holds, checked from the cube list alone.
    plan.check_cover().map_err(|e| HexError::Internal(format!("the planned cubes do not cover the split: {e}")))?;
    let jobs = plan.write(output, results, hexcert)?;
    Ok(PlanReport {
        plan: output.into(),
        jobs,
        sha256: plan_hash(output)?,
        cubes: plan.cubes.len(),
        cells: plan.cells.len(),
        cover: plan.cover,
        statement: plan.statement.clone(),
        split: (plan.radius, plan.depth),
    })
}

/// Which cubes `cubes run` solves.
pub enum Selection {
    One(usize),
    All,
    /// The sample `cubes::estimate::Sample` draws.
    Sample(hexcert::cubes::estimate::Sample),
    /// Every cube, round after round, the unfinished ones split (`certify::refine`).
    Refining {
        strategy: hexcert::certify::refine::Strategy,
        output: PathBuf,
        rounds: usize,
        hexcert: String,
    },
}

/// `cubes run`: how many cubes this run solved, and any counterexample.
#[derive(Serialize)]
pub struct RunReport {
    solved: usize,
    unfinished: usize,
    results: PathBuf,
    counterexample: Option<usize>,
    /// The plan the records answer: the refined one after refining rounds.
    plan: PathBuf,
    rounds: usize,
    #[serde(skip)]
    seconds: f64,
    #[serde(skip)]
    refined: bool,
    #[serde(skip)]
    counterexample_grid: String,
}

impl fmt::Display for RunReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let (results, plan) = (self.results.display(), self.plan.display());
        writeln!(
            f,
            "{} cube(s) run in this run ({:.1} s of solving, {} stopped by the time limit); records in {results}",
            self.solved, self.seconds, self.unfinished
        )?;
        if self.refined {
            writeln!(
                f,
                "{} round(s); the refined plan is {plan}: `cubes status {plan}` says what is left",
                self.rounds
            )?;
        }
        if let Some(index) = self.counterexample {
            writeln!(f, "cube {index} has a counterexample: the claim is false")?;
            write!(f, "{}", self.counterexample_grid)?;
        }
        Ok(())
    }
}

pub fn cubes_run(
    context: &RunContext,
    plan_path: &Path,
    selection: Selection,
    jobs: usize,
    results: &Path,
    limits: RunLimits<'_>,
) -> Result<Reported, HexError> {
    let plan = Plan::read(plan_path)?;
    let abort = context.stop_flag();
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let report = |index: usize, result: &CubeResult, pending: usize| {
        let count = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if context.progress() {
            eprintln!(
                "cube {index} ({count}/{pending} of this run): {:?} in {:.2} s",
                result.verdict, result.solve_seconds
            );
        }
    };
    let mut last_plan = plan_path.to_path_buf();
    let mut rounds_run = 1;
    let done: Vec<(usize, CubeResult)> = match selection {
        Selection::One(index) => {
            let unit = run_cube(&plan, index, results, limits, abort)?;
            match unit.read_back_from {
                // A job engine's retry of a finished job: nothing to do.
                Some(writer) => {
                    eprintln!(
                        "cube {index}: already recorded ({:?}, by {writer}); not solved again",
                        unit.value.verdict
                    );
                    Vec::new()
                }
                None => vec![(index, unit.value)],
            }
        }
        Selection::All => run_all(&plan, None, results, jobs, limits, abort, &report)?,
        Selection::Sample(sample) => {
            let drawn = sample.draw(&plan).map_err(HexError::Usage)?;
            run_all(&plan, Some(&drawn), results, jobs, limits, abort, &report)?
        }
        Selection::Refining { strategy, output, rounds, hexcert } => {
            let mut on_round = |round: &hexcert::certify::refine::Round| {
                rounds_run = round.number;
                if round.split.is_some() {
                    last_plan = output.clone();
                }
                if context.progress() {
                    let split = round.split.as_deref().map_or(String::new(), |s| format!("; {s}"));
                    eprintln!(
                        "round {}: {} cube(s) solved, {} stopped by the time limit{split}",
                        round.number, round.solved, round.unfinished
                    );
                }
            };
            let refining = hexcert::certify::refine::run_refining;
            refining(plan, &output, results, &hexcert, jobs, limits, strategy, rounds, abort, &report, &mut on_round)?.1
        }
    };
    let counterexample = done.iter().find(|(_, r)| r.verdict == CubeVerdict::Counterexample);
    let report = RunReport {
        solved: done.len(),
        unfinished: done.iter().filter(|(_, r)| r.verdict == CubeVerdict::Unfinished).count(),
        results: results.into(),
        counterexample: counterexample.map(|(i, _)| *i),
        refined: last_plan != plan_path,
        plan: last_plan,
        rounds: rounds_run,
        seconds: done.iter().map(|(_, r)| r.solve_seconds).sum(),
        counterexample_grid: counterexample.and_then(|(_, r)| r.counterexample.clone()).unwrap_or_default(),
    };
    let reported = Reported::new(report, if counterexample.is_some() { Outcome::Negative } else { Outcome::Done });
    if context.stopped() && counterexample.is_none() {
        return Ok(reported.stopped_by(HexError::Interrupted));
    }
    Ok(reported)
}

/// How `cubes refine` and `cubes run --refine` split a hard cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RefineArg {
    /// Its split cells one value deeper, one cube per orbit.
    Value,
    /// A decision tree on the variables its proof prefixes learn about most.
    Prefix,
    /// A decision tree on the variables its proof prefixes' derivations
    /// resolve on most, a short lemma weighing more.
    Pivots,
    /// A bisection of the penalty budget between the two halves of the
    /// hexagon, on the sequential counter's variables.
    Cardinality,
}

impl RefineArg {
    /// The library's strategy, with the tree settings it uses.
    pub fn with(self, prefix: hexcert::solving::prefix::PrefixSettings) -> hexcert::certify::refine::Strategy {
        use hexcert::certify::refine::Strategy as S;
        match self {
            RefineArg::Value => S::Value,
            RefineArg::Prefix => S::Prefix(prefix),
            RefineArg::Pivots => S::Prefix(hexcert::solving::prefix::PrefixSettings {
                score: hexcert::solving::prefix::PrefixScore::Pivots,
                ..prefix
            }),
            RefineArg::Cardinality => S::Cardinality(prefix.depth),
        }
    }
}

/// `cubes refine`: how the cubes were split, then the refined plan's report.
#[derive(Serialize)]
pub struct RefineReport {
    #[serde(skip)]
    summary: String,
    #[serde(flatten)]
    plan: PlanReport,
}

impl fmt::Display for RefineReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "{}", self.summary)?;
        write!(f, "{}", self.plan)
    }
}

/// Writes `plan` refined at `which` (or at every unfinished cube) to `output`, with its job list.
pub fn cubes_refine(
    plan_path: &Path,
    which: &[usize],
    results: &Path,
    output: &Path,
    hexcert: &str,
    strategy: hexcert::certify::refine::Strategy,
) -> Result<Reported, HexError> {
    let plan = Plan::read(plan_path)?;
    let which = if which.is_empty() { progress(&plan, results)?.unfinished } else { which.to_vec() };
    if which.is_empty() {
        return Err(HexError::Usage(format!(
            "no cube of {} is unfinished in {}: name cubes with --cube",
            plan_path.display(),
            results.display()
        )));
    }
    let refined = hexcert::certify::refine::refine_with(&plan, &which, strategy)?;
    let report = RefineReport { plan: write_plan(&refined.plan, output, results, hexcert)?, summary: refined.summary };
    Ok(Reported::new(report, Outcome::Done))
}

/// `cubes merge`: the claim written from a finished plan.
#[derive(Serialize)]
pub struct MergeReport {
    claim: PathBuf,
    cubes: usize,
    checked: usize,
    attested: usize,
    /// The statement -> split formula step: VeriPB's acceptance in this
    /// run, or why it was not checked (then the merge is not verified).
    derivation: String,
    #[serde(skip)]
    statement: String,
}

impl fmt::Display for MergeReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let claim = self.claim.display();
        writeln!(f, "{claim}: `{}` from {} refuted cubes: {} checked in this run, {} attested (no proof stored); statement -> split formula: {}; check it with `hexcert check {claim}`",
            self.statement, self.cubes, self.checked, self.attested, self.derivation)
    }
}

/// Checks a finished plan and writes its claim.
pub fn cubes_merge(plan_path: &Path, results: &Path, root: &Path) -> Result<Reported, HexError> {
    let plan = Plan::read(plan_path)?;
    let claim = merge(&plan, results, root)?;
    let merged: hexcert::records::CubeClaim = hexcert::records::read_json(&claim)?;
    let attested = merged.attested.as_ref().map_or(0, Vec::len);
    let step = merged.statement_to_cnf.as_ref();
    let accepted = step.is_some_and(hexcert::records::claim::StatementRecord::accepted);
    let derivation = match step.and_then(|s| s.not_checked.as_deref()) {
        _ if accepted => "accepted by VeriPB in this run".to_string(),
        Some(why) => format!("unverified ({why})"),
        None => "unverified (no VeriPB verdict)".to_string(),
    };
    let report = MergeReport {
        claim,
        cubes: plan.cubes.len(),
        checked: plan.cubes.len() - attested,
        attested,
        derivation,
        statement: plan.statement,
    };
    // Merged, but resting on attested cubes or on a derivation VeriPB did
    // not check here: not verified (4, as `check` says).
    Ok(Reported::new(report, if attested == 0 && accepted { Outcome::Done } else { Outcome::Unverified }))
}
