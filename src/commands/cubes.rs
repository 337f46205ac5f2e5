//! cubes plan, run, refine, merge and status: one claim split over many solvers.

use std::path::Path;

use hexcert::outcome::Outcome;
use std::sync::Arc;
use hexcert::certification::cubes::{merge, plan_hash, progress, run_all, run_cube, CubeResult, CubeVerdict, RunLimits};
use hexcert::cubes::Plan;
use hexcert::error::HexError;

pub fn cubes_plan(json: bool, plan: &Plan, output: &Path, results: &Path, hexcert: &str) -> Result<Outcome, HexError> {
    // The file is written only once the cover holds, checked from the cube list alone.
    plan.check_cover().map_err(|e| HexError::Internal(format!("the planned cubes do not cover the split: {e}")))?;
    let jobs = plan.write(output, results, hexcert)?;
    let hash = plan_hash(output)?;
    let (radius, depth) = (plan.radius, plan.depth);
    if json {
        println!("{}", serde_json::json!({"plan": output, "jobs": jobs, "sha256": hash, "cubes": plan.cubes.len(), "cells": plan.cells.len(), "cover": plan.cover}));
    } else {
        println!("{}: {} cubes for `{}`", output.display(), plan.cubes.len(), plan.statement);
        println!(
            "  split: {} cells within radius {radius} of the centre, values 1..={depth} and more; {} projections, {} refuted locally, {} covered by the cubes and their images",
            plan.cells.len(), plan.cover.projections, plan.cover.refuted, plan.cover.covered
        );
        println!("  plan sha256 {hash}");
        println!("  job list {} (one `cubes run --index I` per line; recipes/ runs it with GNU parallel, Slurm or Kubernetes)", jobs.display());
    }
    Ok(Outcome::Done)
}

/// Which cubes `cubes run` solves.
pub enum Selection {
    One(usize),
    All,
    /// The sample `cubes::estimate::sample` draws: this many cubes, this seed.
    Sample(usize, u64),
    /// Every cube, round after round, the unfinished ones split (`certification::refine`).
    Refining { strategy: hexcert::certification::refine::Strategy, output: std::path::PathBuf, rounds: usize, hexcert: String },
}

pub fn cubes_run(
    json: bool,
    quiet: bool,
    plan_path: &Path,
    selection: Selection,
    jobs: usize,
    results: &Path,
    limits: RunLimits,
    abort: Arc<std::sync::atomic::AtomicBool>,
) -> Result<Outcome, HexError> {
    let plan = Plan::read(plan_path)?;
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let report = |index: usize, result: &CubeResult, pending: usize| {
        let count = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if !quiet && !json {
            eprintln!("cube {index} ({count}/{pending} of this run): {:?} in {:.2} s", result.verdict, result.solve_seconds);
        }
    };
    let mut last_plan = plan_path.to_path_buf();
    let mut rounds_run = 1;
    let done: Vec<(usize, CubeResult)> = match selection {
        Selection::One(index) => vec![(index, run_cube(&plan, index, results, limits, &abort)?)],
        Selection::All => run_all(&plan, None, results, jobs, limits, &abort, &report)?,
        Selection::Sample(size, seed) => run_all(&plan, Some(&hexcert::cubes::estimate::sample(&plan, size, seed)), results, jobs, limits, &abort, &report)?,
        Selection::Refining { strategy, output, rounds, hexcert } => {
            let mut on_round = |round: &hexcert::certification::refine::Round| {
                rounds_run = round.number;
                if round.split.is_some() {
                    last_plan = output.clone();
                }
                if !quiet && !json {
                    let split = round.split.as_deref().map_or(String::new(), |s| format!("; {s}"));
                    eprintln!("round {}: {} cube(s) solved, {} stopped by the time limit{split}", round.number, round.solved, round.unfinished);
                }
            };
            let refining = hexcert::certification::refine::run_refining;
            refining(plan, &output, results, &hexcert, jobs, limits, strategy, rounds, &abort, &report, &mut on_round)?.1
        }
    };
    let counterexample = done.iter().find(|(_, r)| r.verdict == CubeVerdict::Counterexample);
    let unfinished = done.iter().filter(|(_, r)| r.verdict == CubeVerdict::Unfinished).count();
    if json {
        println!("{}", serde_json::json!({"solved": done.len(), "unfinished": unfinished, "results": results, "counterexample": counterexample.map(|(i, _)| i), "plan": last_plan, "rounds": rounds_run}));
    } else {
        let seconds: f64 = done.iter().map(|(_, r)| r.solve_seconds).sum();
        println!("{} cube(s) run in this run ({seconds:.1} s of solving, {unfinished} stopped by the time limit); records in {}", done.len(), results.display());
        if last_plan != plan_path {
            println!("{rounds_run} round(s); the refined plan is {}: `cubes status {}` says what is left", last_plan.display(), last_plan.display());
        }
        if let Some((index, found)) = counterexample {
            println!("cube {index} has a counterexample: the claim is false");
            print!("{}", found.counterexample.as_deref().unwrap_or(""));
        }
    }
    if abort.load(std::sync::atomic::Ordering::Relaxed) && counterexample.is_none() {
        return Err(HexError::Interrupted);
    }
    Ok(if counterexample.is_some() { Outcome::Negative } else { Outcome::Done })
}

/// How `cubes refine` and `cubes run --refine` split a hard cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Strategy {
    /// Its split cells one value deeper, one cube per orbit.
    Value,
    /// A decision tree on the variables its proof prefixes learn about most.
    Prefix,
    /// A bisection of the penalty budget between the two halves of the
    /// hexagon, on the sequential counter's variables.
    Cardinality,
}

impl Strategy {
    /// The library's strategy, with the tree settings it uses.
    pub fn with(self, prefix: hexcert::solving::prefix::PrefixSettings) -> hexcert::certification::refine::Strategy {
        use hexcert::certification::refine::Strategy as S;
        match self {
            Strategy::Value => S::Value,
            Strategy::Prefix => S::Prefix(prefix),
            Strategy::Cardinality => S::Cardinality(prefix.depth),
        }
    }
}

/// Writes `plan` refined at `which` (or at every unfinished cube) to `output`, with its job list.
pub fn cubes_refine(json: bool, plan_path: &Path, which: &[usize], results: &Path, output: &Path, hexcert: &str, strategy: hexcert::certification::refine::Strategy) -> Result<Outcome, HexError> {
    let plan = Plan::read(plan_path)?;
    let which = if which.is_empty() { progress(&plan, results)?.unfinished } else { which.to_vec() };
    if which.is_empty() {
        return Err(HexError::Usage(format!("no cube of {} is unfinished in {}: name cubes with --cube", plan_path.display(), results.display())));
    }
    let refined = hexcert::certification::refine::refine_with(&plan, &which, strategy)?;
    if !json {
        println!("{}", refined.summary);
    }
    cubes_plan(json, &refined.plan, output, results, hexcert)
}

/// Checks a finished plan and writes its claim.
pub fn cubes_merge(json: bool, plan_path: &Path, results: &Path, root: &Path) -> Result<Outcome, HexError> {
    let plan = Plan::read(plan_path)?;
    let claim = merge(&plan, results, root)?;
    let merged: hexcert::records::CubeClaim = hexcert::records::read_json(&claim)?;
    let attested = merged.attested.as_ref().map_or(0, Vec::len);
    let checked = plan.cubes.len() - attested;
    if json {
        println!("{}", serde_json::json!({"claim": claim, "cubes": plan.cubes.len(), "checked": checked, "attested": attested}));
    } else {
        println!("{}: `{}` from {} refuted cubes: {checked} checked in this run, {attested} attested (no proof stored); check it with `hexcert check {}`",
            claim.display(), plan.statement, plan.cubes.len(), claim.display());
    }
    // Merged, but resting on attested cubes: not verified (4, as `check` says).
    Ok(if attested == 0 { Outcome::Done } else { Outcome::Unverified })
}

pub fn cubes_status(json: bool, plan_path: &Path, results: &Path, machines: usize) -> Result<Outcome, HexError> {
    let plan = Plan::read(plan_path)?;
    let cover = plan.check_cover();
    let hash = plan_hash(plan_path)?;
    let found = progress(&plan, results)?;
    let mut sorted = found.seconds.clone();
    sorted.sort_by(f64::total_cmp);
    let total: f64 = sorted.iter().sum();
    let percentile = |p: f64| if sorted.is_empty() { 0.0 } else { sorted[((sorted.len() - 1) as f64 * p).round() as usize] };
    let slowest = sorted.last().copied().unwrap_or(0.0);
    // Remaining cubes estimated at the mean so far; a machine never does less than the slowest cube.
    let mean = if sorted.is_empty() { 0.0 } else { total / sorted.len() as f64 };
    let remaining = (found.missing.len() + found.unfinished.len()) as f64 * mean;
    let predicted = ((total + remaining) / machines.max(1) as f64).max(slowest);
    let failed = cover.is_err() || !found.rejected.is_empty() || !found.counterexamples.is_empty();
    if json {
        println!("{}", serde_json::json!({
            "plan": plan_path, "sha256": hash, "cover": cover.as_ref().map(|c| serde_json::json!(c)).unwrap_or_else(|e| serde_json::json!({"error": e})),
            "progress": found, "solve_seconds_total": total, "median": percentile(0.5), "p90": percentile(0.9), "p99": percentile(0.99),
            "slowest": slowest, "machines": machines, "predicted_wall_seconds": predicted,
        }));
    } else {
        match &cover {
            Ok(c) => println!("cover: verified ({} projections: {} refuted locally, {} images of the {} cubes)", c.projections, c.refuted, c.covered, plan.cubes.len()),
            Err(e) => println!("cover: FAILED: {e}"),
        }
        println!("cubes: {} refuted and checked in this run, {} refuted and attested (no proof stored), {} without a record, {} unfinished, {} rejected, {} with a counterexample (of {})",
            found.checked.len(), found.attested.len(), found.missing.len(), found.unfinished.len(), found.rejected.len(), found.counterexamples.len(), found.cubes);
        for index in &found.attested {
            println!("  cube {index}: attested by the run that wrote it, not checked here");
        }
        if !found.unfinished.is_empty() {
            println!("  unfinished (stopped by a time limit; `cubes refine` splits them): {:?}", found.unfinished);
        }
        for (index, why) in &found.rejected {
            println!("  cube {index}: rejected: {why}");
        }
        for index in &found.counterexamples {
            println!("  cube {index}: counterexample (the claim is false)");
        }
        println!("solve seconds: total {total:.1}, median {:.2}, p90 {:.2}, p99 {:.2}, slowest {slowest:.2}", percentile(0.5), percentile(0.9), percentile(0.99));
        println!("predicted wall on {machines} machines: {predicted:.0} s{}", if found.missing.is_empty() { "" } else { " (unsolved cubes at the mean so far)" });
    }
    let open = !found.missing.is_empty() || !found.unfinished.is_empty() || !found.attested.is_empty();
    Ok(if failed { Outcome::Negative } else if open { Outcome::Unverified } else { Outcome::Done })
}

/// The claim's cost extrapolated from its records: every record, or those
/// of the sample `(size, seed)` (a random sample, so the only honest one to
/// extrapolate from unless the cubes were run in a random order).
pub fn cubes_estimate(json: bool, plan_path: &Path, results: &Path, sample: Option<(usize, u64)>) -> Result<Outcome, HexError> {
    let plan = Plan::read(plan_path)?;
    let found = progress(&plan, results)?;
    let drawn: Option<Vec<usize>> = sample.map(|(size, seed)| hexcert::cubes::estimate::sample(&plan, size, seed));
    let counted = |i: &usize| drawn.as_ref().is_none_or(|d| d.contains(i));
    let finished: Vec<f64> = found.records.iter().filter(|(i, _)| counted(i)).map(|(_, r)| r.solve_seconds).collect();
    let censored: Vec<f64> = found.unfinished.iter().zip(&found.unfinished_seconds).filter(|(i, _)| counted(i)).map(|(_, &s)| s).collect();
    let without_record: Vec<usize> = drawn.as_ref().map_or(Vec::new(), |d| d.iter().copied().filter(|i| found.missing.contains(i)).collect());
    let estimate = hexcert::cubes::estimate::Estimate::new(plan.cubes.len(), &finished, &censored);
    if json {
        println!("{}", serde_json::json!({"plan": plan_path, "statement": plan.statement, "estimate": estimate, "sample_without_record": without_record}));
    } else {
        match &estimate {
            Some(e) => {
                let at_least = if e.lower_bound { "at least " } else { "" };
                println!("{}: {} cubes; {} sampled ({} stopped by a time limit, counted at it)", plan.statement, e.cubes, e.sampled, e.censored);
                println!("  solve seconds per cube: min {:.1}, median {:.1}, max {:.1}", e.min, e.median, e.max);
                println!("  extrapolated total: {at_least}{:.0} s of solving (95 % interval {:.0} to {:.0} s)", e.total, e.low, e.high);
            }
            None => println!("{}: no sampled cube has a record yet", plan.statement),
        }
        if !without_record.is_empty() {
            println!("  sampled cubes without a record: {without_record:?} (solve them with `cubes run --sample`)");
        }
    }
    Ok(if estimate.is_some() && without_record.is_empty() { Outcome::Done } else { Outcome::Unverified })
}
