//! `search`: good full grids by the restricted portfolio (`search::grids`).
//! The grid is validated by the library before it reaches this file; the
//! report and the grid file say which restrictions found it, and that a
//! member's UNSAT speaks of its restricted space only.

use std::fmt;
use std::path::Path;

use serde::Serialize;

use super::report::Reported;
use hexcert::context::RunContext;
use hexcert::encoding::restricted::Restrictions;
use hexcert::error::HexError;
use hexcert::formats::to_hexcert_text;
use hexcert::outcome::Outcome;
use hexcert::search::grids::{search as run_portfolio, Event, GridSearch, Member};
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
    #[serde(skip_serializing_if = "Option::is_none")]
    penalty: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<u64>,
    /// The restrictions of the member that found the grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    found_by: Option<Restrictions>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grid: Option<String>,
    members: Vec<Member>,
    timed_out: bool,
    seconds: f64,
    cpu_seconds: f64,
    /// Why an exhausted member proves nothing.
    note: &'static str,
}

const NOTE: &str = "restricted search: a member's UNSAT says only that its restricted space holds no grid at that bound; it is no claim about the hexagon";

impl fmt::Display for SearchReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match (&self.grid, self.penalty, &self.found_by) {
            (Some(grid), Some(penalty), Some(by)) => {
                write!(f, "{grid}")?;
                writeln!(f, "penalty {penalty}, found with {}", by.describe())?;
            }
            _ => writeln!(f, "no grid found{}", if self.timed_out { " within the time limit" } else { " in the restricted spaces" })?,
        }
        for m in &self.members {
            let end = match (m.exhausted_at, m.calls) {
                (Some(b), _) => format!("no grid <= {b} in its space"),
                (None, 0) => "not started".into(),
                (None, _) => "open".into(),
            };
            writeln!(f, "  {}: {end} ({} calls, {:.1} s)", m.restrictions.describe(), m.calls, m.seconds)?;
        }
        writeln!(f, "{:.1} s, {:.1} CPU s; {NOTE}", self.seconds, self.cpu_seconds)
    }
}

pub fn search(context: &RunContext, spec: &GridSearch, output: Option<&Path>) -> Result<Reported, HexError> {
    let start = std::time::Instant::now();
    let new_solver = |stop: Box<dyn Fn() -> bool>| -> Box<dyn SatSolver> {
        let mut solver = Cadical::new();
        solver.stop_when_any(stop);
        Box::new(solver)
    };
    let on_event = |event: Event| {
        if !context.progress() {
            return;
        }
        match event {
            Event::Found { restrictions, penalty, seconds } => eprintln!("[{seconds:8.1} s] penalty {penalty} with {}", restrictions.describe()),
            Event::Exhausted { restrictions, bound, seconds } => eprintln!("[{seconds:8.1} s] no grid <= {bound} with {}", restrictions.describe()),
        }
    };
    let searched = run_portfolio(context, spec, &new_solver, &on_event)?;
    let best = searched.best.as_ref();
    let grid = best.map(|b| grid_file(spec, b));
    if let (Some(path), Some(text)) = (output, &grid) {
        hexcert::files::write_atomic(path, text.as_bytes())?;
    }
    let report = SearchReport {
        n: spec.n,
        level: spec.level,
        partial: spec.partial,
        band: spec.band,
        max_penalty: spec.max_penalty,
        descend: spec.descend,
        penalty: best.map(|b| b.evaluation.penalty),
        score: best.and_then(|b| b.evaluation.score),
        found_by: best.map(|b| b.restrictions),
        grid,
        members: searched.members,
        timed_out: searched.timed_out,
        seconds: start.elapsed().as_secs_f64(),
        cpu_seconds: hexcert::run::process_cpu_seconds(),
        note: NOTE,
    };
    let outcome = if best.is_some() { Outcome::Done } else { Outcome::Negative };
    Ok(Reported::new(report, outcome))
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
        best.restrictions.describe(),
        to_hexcert_text(&best.grid)
    )
}
