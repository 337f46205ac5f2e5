//! cubes status and cubes estimate: what a campaign's records say so far,
//! and what the rest should cost. Both only read the plan and its records.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::report::Reported;
use hexcert::cubes::estimate::{Estimate, Sample};
use hexcert::cubes::{Cover, Plan};
use hexcert::error::HexError;
use hexcert::outcome::Outcome;
use hexcert::verify::cube_status::{plan_hash, progress, CubeProgress};

/// A plan's cover as `cubes status` found it: verified, or why not.
#[derive(Serialize)]
#[serde(untagged)]
enum CoverCheck {
    Verified(Cover),
    Failed { error: String },
}

/// `cubes status`: the cover, every cube's state, and the times so far.
#[derive(Serialize)]
pub struct StatusReport {
    plan: PathBuf,
    sha256: String,
    cover: CoverCheck,
    progress: CubeProgress,
    solve_seconds_total: f64,
    median: f64,
    p90: f64,
    p99: f64,
    slowest: f64,
    machines: usize,
    predicted_wall_seconds: f64,
    /// The unsolved cubes in `predicted_wall_seconds` were forecast from
    /// their grades (else at the solved cubes' mean).
    forecast_along_grades: bool,
    /// The statement -> split formula step, judged once every cube is refuted and checked.
    statement: Option<String>,
}

impl fmt::Display for StatusReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let found = &self.progress;
        match &self.cover {
            CoverCheck::Verified(c) => writeln!(
                f,
                "cover: verified ({} projections: {} refuted locally, {} images of the {} cubes)",
                c.projections, c.refuted, c.covered, found.cubes
            )?,
            CoverCheck::Failed { error } => writeln!(f, "cover: FAILED: {error}")?,
        }
        writeln!(f, "cubes: {} refuted and checked in this run, {} refuted and attested (no proof stored), {} without a record, {} unfinished, {} rejected, {} with a counterexample (of {})",
            found.checked.len(), found.attested.len(), found.missing.len(), found.unfinished.len(), found.rejected.len(), found.counterexamples.len(), found.cubes)?;
        for index in &found.attested {
            writeln!(f, "  cube {index}: attested by the run that wrote it, not checked here")?;
        }
        if !found.unfinished.is_empty() {
            writeln!(f, "  unfinished (stopped by a time limit; `cubes refine` splits them): {:?}", found.unfinished)?;
        }
        for (index, why) in &found.rejected {
            writeln!(f, "  cube {index}: rejected: {why}")?;
        }
        for index in &found.counterexamples {
            writeln!(f, "  cube {index}: counterexample (the claim is false)")?;
        }
        writeln!(f, "solve seconds (the solver's CPU where recorded, else wall): total {:.1}, median {:.2}, p90 {:.2}, p99 {:.2}, slowest {:.2}", self.solve_seconds_total, self.median, self.p90, self.p99, self.slowest)?;
        let at_mean = match (found.missing.is_empty() && found.unfinished.is_empty(), self.forecast_along_grades) {
            (true, _) => "",
            (false, true) => {
                " (unsolved cubes forecast along the grades of the solved ones, `cubes estimate --graded`)"
            }
            (false, false) => " (unsolved cubes at the mean so far)",
        };
        writeln!(f, "predicted wall on {} machines: {:.0} s{at_mean}", self.machines, self.predicted_wall_seconds)?;
        match &self.statement {
            Some(statement) => writeln!(f, "statement -> split formula: {statement}"),
            None => Ok(()),
        }
    }
}

pub fn cubes_status(plan_path: &Path, results: &Path, machines: usize) -> Result<Reported, HexError> {
    let plan = Plan::read(plan_path)?;
    let cover = plan.check_cover();
    let hash = plan_hash(plan_path)?;
    let found = progress(&plan, results)?;
    let mut sorted = found.seconds.clone();
    sorted.sort_by(f64::total_cmp);
    // A fold from +0.0: `sum` of no f64 is -0.0, printed "total -0.0".
    let total: f64 = sorted.iter().fold(0.0, |sum, s| sum + s);
    let percentile =
        |p: f64| if sorted.is_empty() { 0.0 } else { sorted[((sorted.len() - 1) as f64 * p).round() as usize] };
    let slowest = sorted.last().copied().unwrap_or(0.0);
    // Unsolved cubes forecast along the grades of the solved ones where they fix a line, else at their mean;
    // a machine never does less than the slowest cube.
    let unsolved = found.missing.len() + found.unfinished.len();
    let along_grades =
        if unsolved == 0 { None } else { Estimate::graded(&grades(&plan), &timed(&found, |_| true, false)).ok() };
    let mean = if sorted.is_empty() { 0.0 } else { total / sorted.len() as f64 };
    let remaining = along_grades.as_ref().map_or(unsolved as f64 * mean, |e| e.total - e.measured);
    let predicted = ((total + remaining) / machines.max(1) as f64).max(slowest);
    let mut failed = cover.is_err() || !found.rejected.is_empty() || !found.counterexamples.is_empty();
    let mut open = !found.missing.is_empty() || !found.unfinished.is_empty() || !found.attested.is_empty();
    // Every cube done: the claim also rests on the statement -> split formula step, checked as merge checks it.
    let statement =
        (!failed && !open).then(|| match hexcert::verify::statement_to_cnf::derive_and_check_split(&plan, plan_path) {
            Ok(record) if record.veripb.is_some() => "checked by VeriPB in this run".to_string(),
            Ok(record) => {
                open = true;
                format!("not checked: {}", record.not_checked.unwrap_or_default())
            }
            Err(e) => {
                failed = true;
                format!("FAILED: {e}")
            }
        });
    let report = StatusReport {
        plan: plan_path.into(),
        sha256: hash,
        cover: cover.map_or_else(|e| CoverCheck::Failed { error: e.to_string() }, CoverCheck::Verified),
        solve_seconds_total: total,
        median: percentile(0.5),
        p90: percentile(0.9),
        p99: percentile(0.99),
        slowest,
        machines,
        predicted_wall_seconds: predicted,
        forecast_along_grades: along_grades.is_some(),
        progress: found,
        statement,
    };
    Ok(Reported::new(
        report,
        if failed {
            Outcome::Negative
        } else if open {
            Outcome::Unverified
        } else {
            Outcome::Done
        },
    ))
}

/// `cubes estimate`: the claim's cost extrapolated from the records counted.
#[derive(Serialize)]
pub struct EstimateReport {
    plan: PathBuf,
    statement: String,
    estimate: Option<Estimate>,
    /// Counted records that give the wall clock only (written before the
    /// solver's CPU was kept): on a loaded machine they inflate the estimate.
    wall_clock_only: usize,
    sample_without_record: Vec<usize>,
}

impl fmt::Display for EstimateReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &self.estimate {
            Some(e) => {
                let at_least = if e.lower_bound { "at least " } else { "" };
                writeln!(
                    f,
                    "{}: {} cubes; {} sampled ({} stopped by a time limit, counted at it)",
                    self.statement, e.cubes, e.sampled, e.censored
                )?;
                let wall = if self.wall_clock_only == 0 {
                    String::new()
                } else {
                    format!("; {} record(s) give only the wall clock, counted as it", self.wall_clock_only)
                };
                writeln!(
                    f,
                    "  solve seconds per cube (the solver's CPU{wall}): min {:.1}, median {:.1}, max {:.1}",
                    e.min, e.median, e.max
                )?;
                if let Some(fit) = &e.fit {
                    writeln!(f, "  along the grades ({} counted): each grade more open costs {:.2} times as much (residual sd {:.2} in ln s)", fit.grades, fit.factor_per_grade, fit.residual_sd)?;
                }
                writeln!(
                    f,
                    "  extrapolated total: {at_least}{:.0} s of solving (95 % interval {:.0} to {:.0} s)",
                    e.total, e.low, e.high
                )?;
            }
            None => writeln!(f, "{}: no sampled cube has a record yet", self.statement)?,
        }
        if !self.sample_without_record.is_empty() {
            writeln!(
                f,
                "  sampled cubes without a record: {:?} (solve them with `cubes run --sample`)",
                self.sample_without_record
            )?;
        }
        Ok(())
    }
}

/// The claim's cost extrapolated from its records: every record, or those
/// of a sample (random or graded, so the only honest ones to extrapolate
/// from unless the cubes were run in a random order); at the counted
/// cubes' mean, or `graded` along the line of their grades.
pub fn cubes_estimate(
    plan_path: &Path,
    results: &Path,
    sample: Option<Sample>,
    graded: bool,
) -> Result<Reported, HexError> {
    let plan = Plan::read(plan_path)?;
    let found = progress(&plan, results)?;
    let drawn: Option<Vec<usize>> = sample.map(|s| s.draw(&plan)).transpose().map_err(HexError::Usage)?;
    let counted = |i: &usize| drawn.as_ref().is_none_or(|d| d.contains(i));
    let wall_clock_only = found.records.iter().filter(|(i, r)| counted(i) && r.solve_cpu_seconds.is_none()).count();
    let timed = timed(&found, counted, true);
    let without_record: Vec<usize> =
        drawn.as_ref().map_or(Vec::new(), |d| d.iter().copied().filter(|i| found.missing.contains(i)).collect());
    let estimate = if graded {
        Some(Estimate::graded(&grades(&plan), &timed)?)
    } else {
        let seconds = |censored: bool| timed.iter().filter(|t| t.2 == censored).map(|t| t.1).collect::<Vec<f64>>();
        Estimate::new(plan.cubes.len(), &seconds(false), &seconds(true))
    };
    let outcome = if estimate.is_some() && without_record.is_empty() { Outcome::Done } else { Outcome::Unverified };
    let report = EstimateReport {
        plan: plan_path.into(),
        statement: plan.statement,
        estimate,
        wall_clock_only,
        sample_without_record: without_record,
    };
    Ok(Reported::new(report, outcome))
}

/// Every plan cube's grade (`cubes::estimate::grade`).
fn grades(plan: &Plan) -> Vec<u32> {
    (0..plan.cubes.len()).map(|i| hexcert::cubes::estimate::grade(plan, i)).collect()
}

/// The counted cubes' seconds as an estimate takes them: (index, seconds,
/// censored), the refuted ones at their cost and, with `unfinished`, the
/// ones a time limit stopped at the seconds they ran.
fn timed(found: &CubeProgress, counted: impl Fn(&usize) -> bool, unfinished: bool) -> Vec<(usize, f64, bool)> {
    let finished = found.records.iter().filter(|(i, _)| counted(i)).map(|(i, r)| (*i, r.cost_seconds(), false));
    let stopped = found
        .unfinished
        .iter()
        .zip(&found.unfinished_seconds)
        .filter(|(i, _)| unfinished && counted(i))
        .map(|(&i, &s)| (i, s, true));
    finished.chain(stopped).collect()
}
