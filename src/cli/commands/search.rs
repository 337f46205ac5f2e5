//! `search`: good full grids by the restricted portfolio (`search::grids`).
//! The grid is validated by the library before it reaches this file; the
//! report and the grid file say which restrictions found it, and that a
//! member's UNSAT speaks of its restricted space only. With `--ledger` the
//! hunt's record of effort (`search::hunt`) is read before the search and
//! written after it, even when time or Ctrl-C stopped it.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::report::Reported;
use hexcert::context::RunContext;
use hexcert::encoding::restricted::Restrictions;
use hexcert::error::HexError;
use hexcert::formats::to_hexcert_text;
use hexcert::outcome::Outcome;
use hexcert::search::explain::{explain, Explained};
use hexcert::search::grids::{search as run_portfolio, Event, GridSearch, Member, MemberId, Searched};
use hexcert::search::hunt::{HuntEntry, HuntLedger};
use hexcert::solving::{Cadical, SatSolver};

/// What the search found, how long it took, and how each member ended.
#[derive(Serialize)]
pub struct SearchReport {
    n: usize,
    level: u8,
    /// The result is a level-`level` partial, not a full grid.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    partial: bool,
    band: usize,
    max_penalty: Option<usize>,
    descend: bool,
    solver_configuration: hexcert::solving::Configuration,
    #[serde(skip_serializing_if = "Option::is_none")]
    penalty: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<u64>,
    /// The member that found the grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    found_by: Option<FoundBy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grid: Option<String>,
    members: Vec<Member>,
    timed_out: bool,
    /// Ctrl-C stopped it (never in a JSON document: the error is the document then).
    #[serde(skip)]
    interrupted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    ledger: Option<LedgerReport>,
    seconds: f64,
    cpu_seconds: f64,
    /// Why an exhausted member proves nothing.
    note: &'static str,
}

/// A member as `found_by` names it: its restrictions' fields beside its
/// seed, where readers of the report found the restrictions before seeds.
#[derive(Serialize)]
struct FoundBy {
    #[serde(flatten)]
    restrictions: Restrictions,
    seed: u32,
}

/// The ledger after this run: the members it skipped and every member's totals.
#[derive(Serialize)]
struct LedgerReport {
    file: PathBuf,
    /// Members not run: an earlier run exhausted them at or above the bound.
    skipped: Vec<String>,
    /// This run's portfolio, totals over every run so far.
    members: Vec<HuntEntry>,
}

const NOTE: &str = "restricted search: a member's UNSAT is the solver's answer, unchecked (no proof is kept), and speaks only of its restricted space; it is no claim about the hexagon";

impl fmt::Display for SearchReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match (&self.grid, self.penalty, &self.found_by) {
            (Some(grid), Some(penalty), Some(by)) => {
                write!(f, "{grid}")?;
                writeln!(
                    f,
                    "penalty {penalty}, found with {}",
                    MemberId { restrictions: by.restrictions, seed: by.seed }.describe()
                )?;
            }
            _ => {
                let when = match (self.interrupted, self.timed_out) {
                    (true, _) => " before Ctrl-C",
                    (false, true) => " within the time limit",
                    (false, false) => " in the restricted spaces",
                };
                let skipped = self.members.iter().filter(|m| m.skipped_at.is_some()).count();
                let word = match skipped {
                    0 => String::new(),
                    k => format!(" ({k} of them skipped on the ledger's word, not searched in this run: unverified)"),
                };
                writeln!(f, "no grid found{when}{word}")?
            }
        }
        for m in &self.members {
            let end = match (m.exhausted_at, m.skipped_at, m.calls) {
                (Some(b), _, _) => format!("UNSAT at {b} in its space (the solver's answer, unchecked)"),
                (None, Some(b), _) => {
                    format!("skipped by the ledger: UNSAT at {b} in its space (an earlier run's unchecked answer)")
                }
                (None, None, 0) => "not started".into(),
                (None, None, _) => "open".into(),
            };
            writeln!(
                f,
                "  {}: {end} ({} calls, {:.1} s, {:.1} CPU s)",
                m.id.describe(),
                m.calls,
                m.seconds,
                m.cpu_seconds
            )?;
        }
        if let Some(ledger) = &self.ledger {
            write!(f, "{ledger}")?;
        }
        writeln!(f, "{:.1} s, {:.1} CPU s; {NOTE}", self.seconds, self.cpu_seconds)
    }
}

impl fmt::Display for LedgerReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(
            f,
            "ledger {}: {} members skipped; totals over every run so far:",
            self.file.display(),
            self.skipped.len()
        )?;
        for e in &self.members {
            writeln!(f, "  {}: {} runs, {:.1} CPU s, {}", e.restrictions, e.runs, e.cpu_seconds, e.state.describe())?;
        }
        Ok(())
    }
}

/// Runs the search; with `ledger_path`, skips what earlier runs exhausted
/// and adds this run to the ledger. A malformed ledger stops it before
/// anything is searched or written.
pub fn search(
    context: &RunContext,
    spec: &GridSearch,
    output: Option<&Path>,
    ledger_path: Option<&Path>,
) -> Result<Reported, HexError> {
    let start = std::time::Instant::now();
    let mut ledger = ledger_path.map(|path| HuntLedger::read(path, spec.n)).transpose()?;
    let mut spec = spec.clone();
    if let Some(ledger) = &ledger {
        spec.known_exhausted = ledger.known_exhausted(&spec)?;
    }
    let spec = &spec;
    let new_solver = |seed: u32, stop: Box<dyn Fn() -> bool>| -> Box<dyn SatSolver> {
        let mut solver = Cadical::seeded(spec.configuration, seed);
        solver.stop_when_any(stop);
        Box::new(solver)
    };
    let on_event = |event: Event| {
        if !context.progress() {
            return;
        }
        match event {
            Event::Found { member, penalty, seconds } => {
                eprintln!("[{seconds:8.1} s] penalty {penalty} with {}", member.describe())
            }
            Event::Exhausted { member, bound, seconds } => {
                eprintln!("[{seconds:8.1} s] no grid <= {bound} with {}", member.describe())
            }
        }
    };
    let searched = run_portfolio(context, spec, &new_solver, &on_event)?;
    let best = searched.best.as_ref();
    let grid = best.map(|b| grid_file(spec, b));
    if let (Some(path), Some(text)) = (output, &grid) {
        hexcert::files::write_atomic(path, text.as_bytes())?;
    }
    let ledger = match (ledger.as_mut(), ledger_path) {
        (Some(ledger), Some(path)) => Some(record(ledger, path, spec, &searched, output.filter(|_| grid.is_some()))?),
        _ => None,
    };
    let report = SearchReport {
        n: spec.n,
        level: spec.level,
        partial: spec.partial,
        band: spec.band,
        max_penalty: spec.max_penalty,
        descend: spec.descend,
        solver_configuration: spec.configuration,
        penalty: best.map(|b| b.evaluation.penalty),
        score: best.and_then(|b| b.evaluation.score),
        found_by: best.map(|b| FoundBy { restrictions: b.member.restrictions, seed: b.member.seed }),
        grid,
        members: searched.members,
        timed_out: searched.timed_out,
        interrupted: searched.interrupted,
        ledger,
        seconds: start.elapsed().as_secs_f64(),
        cpu_seconds: hexcert::run::process_cpu_seconds(),
        note: NOTE,
    };
    // A space skipped on the ledger's word was not searched in this run: "no grid" then rests on an earlier run.
    let outcome = match best {
        Some(_) => Outcome::Done,
        None if report.members.iter().any(|m| m.skipped_at.is_some()) => Outcome::Unverified,
        None => Outcome::Negative,
    };
    let reported = Reported::new(report, outcome);
    Ok(if searched.interrupted { reported.stopped_by(HexError::Interrupted) } else { reported })
}

/// Adds the run to the ledger and writes it, whole or not at all.
fn record(
    ledger: &mut HuntLedger,
    path: &Path,
    spec: &GridSearch,
    searched: &Searched,
    grid: Option<&Path>,
) -> Result<LedgerReport, HexError> {
    ledger.record(spec, searched, grid);
    ledger.write(path)?;
    let skipped = searched.members.iter().filter(|m| m.skipped_at.is_some()).map(|m| m.id.describe()).collect();
    Ok(LedgerReport { file: path.into(), skipped, members: ledger.totals(spec) })
}

/// The grid in hexcert's format, after comments saying how it was found.
fn grid_file(spec: &GridSearch, best: &hexcert::search::grids::Grid) -> String {
    format!(
        "# penalty {}{}, found by `hexcert search` ({} {}) with {}\n\
         # a search restriction, not a claim: grids outside it may exist\n{}",
        best.evaluation.penalty,
        best.evaluation.score.map_or(String::new(), |s| format!(" score {s}")),
        if spec.partial { "a partial of level" } else { "formula level" },
        spec.level,
        best.member.describe(),
        to_hexcert_text(&best.grid)
    )
}

/// `search --explain FILE`: the grid in FILE held against the portfolio.
#[derive(Serialize)]
pub struct ExplainReport {
    grid: PathBuf,
    #[serde(flatten)]
    explained: Explained,
}

impl fmt::Display for ExplainReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let e = &self.explained;
        writeln!(
            f,
            "{}: side {}, level-{} penalty {}, asked at bound {}",
            self.grid.display(),
            e.n,
            e.level,
            e.penalty,
            e.bound
        )?;
        let inner = match e.inner_min == e.inner_max {
            true => e.inner_min.to_string(),
            false => format!("{} to {} (as duplicate support is charged)", e.inner_min, e.inner_max),
        };
        writeln!(f, "penalty edges at ring distance {} or more: {inner}", e.band)?;
        for member in &e.members {
            let verdict = if member.admits { "admits it" } else { "does not" };
            writeln!(f, "  {verdict:<10} {}", member.restrictions.describe())?;
        }
        let admitting = e.members.iter().filter(|m| m.admits).count();
        writeln!(f, "{admitting} of {} restricted spaces admit it (no solver ran: what each formula's models are, stated without it)", e.members.len())
    }
}

/// Which members of `spec`'s portfolio admit the grid in `grid`.
pub fn explain_grid(spec: &GridSearch, grid: &Path) -> Result<Reported, HexError> {
    let file = hexcert::formats::read_grid_file(grid, Some(spec.n))?;
    let explained = explain(spec, &file.partial)?;
    Ok(Reported::new(ExplainReport { grid: grid.to_path_buf(), explained }, Outcome::Done))
}
