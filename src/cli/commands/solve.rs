//! The commands that ask the solver for grids: solve, optimize (cargo
//! feature `solver`). Each returns its report; `report::print` shows it as
//! text or JSON.

use std::fmt;
use std::path::Path;

use serde::Serialize;

use super::report::Reported;
use hexcert::context::RunContext;
use hexcert::encoding::{Cardinality, EncodeOptions, SymmetryBreaking};
use hexcert::error::HexError;
use hexcert::formats::to_hexcert_text;
use hexcert::geometry::Hexagon;
use hexcert::outcome::Outcome;
use hexcert::search::{minimize_through, solve_hinted, LowerBoundProof, PlainOracle, SearchStep};
use hexcert::solving::Cadical;

/// `solve`: the partial found, or none within the bound.
#[derive(Serialize)]
pub struct SolveReport {
    n: usize,
    level: u8,
    satisfiable: bool,
    #[serde(skip)]
    max_penalty: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    penalty: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grid: Option<String>,
}

impl fmt::Display for SolveReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match (&self.grid, self.penalty) {
            (Some(grid), Some(penalty)) => writeln!(f, "{grid}penalty {penalty}"),
            _ => writeln!(
                f,
                "unsatisfiable: no valid level-{} partial with penalty <= {}",
                self.level,
                self.max_penalty.unwrap_or(0)
            ),
        }
    }
}

/// `solve`: one call, stopped by Ctrl-C (its `Interrupted` is an error, so
/// a stopped call is never reported unsatisfiable and writes no file).
pub fn solve(
    context: &RunContext,
    n: usize,
    level: u8,
    options: EncodeOptions,
    output: Option<&Path>,
) -> Result<Reported, HexError> {
    let hex = Hexagon::new(n)?;
    let mut report =
        SolveReport { n, level, satisfiable: false, max_penalty: options.max_penalty, penalty: None, grid: None };
    let mut solver = Cadical::stopping_on(context.stop_flag());
    let Some(found) = solve_hinted(&mut solver, &hex, level, options, None)? else {
        return Ok(Reported::new(report, Outcome::Negative));
    };
    let text = to_hexcert_text(&found.partial);
    if let Some(path) = output {
        hexcert::files::write_atomic(path, text.as_bytes())?;
    }
    (report.satisfiable, report.penalty, report.grid) = (true, Some(found.evaluation.penalty), Some(text));
    Ok(Reported::new(report, Outcome::Done))
}

/// `optimize`: the minimum of each level, why it is minimal, and a witness.
#[derive(Serialize)]
pub struct OptimizeReport {
    n: usize,
    levels: Vec<LevelMinimum>,
}

#[derive(Serialize)]
struct LevelMinimum {
    level: u8,
    minimum: usize,
    proof: LowerBoundProof,
    seconds: f64,
    steps: Vec<SearchStep>,
    witness: String,
}

impl fmt::Display for OptimizeReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "n={}", self.n)?;
        writeln!(f, "| level | minimum | shown minimal by | seconds |")?;
        writeln!(f, "|---|---|---|---|")?;
        for m in &self.levels {
            let why = match &m.proof {
                LowerBoundProof::UnsatAtLevel { level, max_penalty } => {
                    format!("level {level}, penalty <= {max_penalty} UNSAT")
                }
                LowerBoundProof::InheritedFromLevel { level } => format!("bound of level {level}"),
                LowerBoundProof::Zero => "penalty 0".into(),
            };
            writeln!(f, "| {} | {} | {why} | {:.2} |", m.level, m.minimum, m.seconds)?;
        }
        write!(f, "{}", self.levels.last().map_or("", |m| &m.witness))
    }
}

/// `optimize`: every call stopped by Ctrl-C, whose `Interrupted` ends the
/// search, so no level is reported minimal on a call that did not answer.
pub fn optimize(
    context: &RunContext,
    n: usize,
    level: u8,
    cardinality: Cardinality,
    output: Option<&Path>,
) -> Result<Reported, HexError> {
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::new(context);
    let mut on_step = |s: &SearchStep| progress.step(n, s);
    let template = EncodeOptions { max_penalty: None, cardinality, symmetry: SymmetryBreaking::None };
    let stop = context.stop_flag().clone();
    let mut oracle = PlainOracle::made_by(template, move || Cadical::stopping_on(&stop));
    let minima = minimize_through(&hex, level, &mut oracle, &mut on_step)?;
    let levels: Vec<LevelMinimum> = minima
        .into_iter()
        .map(|m| LevelMinimum {
            level: m.level,
            minimum: m.penalty,
            seconds: m.steps.iter().map(|s| s.seconds).sum(),
            proof: m.proof,
            steps: m.steps,
            witness: to_hexcert_text(&m.witness.partial),
        })
        .collect();
    if let Some(path) = output {
        let top = levels.last().expect("at least level 1");
        hexcert::files::write_atomic(path, top.witness.as_bytes())?;
    }
    Ok(Reported::new(OptimizeReport { n, levels }, Outcome::Done))
}
