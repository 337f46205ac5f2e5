//! Searches over level-k formulas: one bounded call, the minimisation loop
//! and the enumeration of solutions. They sit above `solving` and reach a
//! solver only through its trait (`SatSolver`): the caller names the backend
//! (a type parameter, or the oracle's `fresh_solver`).
//!
//! Every model is decoded and handed to the plain validator before anything
//! is returned; a model the validator rejects is an internal error, never a
//! result.

pub mod explain;
mod grid_completion;
pub mod grids;
pub mod hunt;

use std::time::Instant;

use crate::encoding::model::{accept_model, Found};
use crate::encoding::{EncodeOptions, LevelEncoding};
use crate::error::HexError;
use crate::formula::Cnf;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::options;
use crate::solving::{Answer, SatSolver};
use crate::validation::evaluate;

/// One solver call of a search, for progress and reports.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SearchStep {
    /// False when the call starts (for progress displays), true once answered.
    pub answered: bool,
    pub level: u8,
    /// The bound tried; `None` for an unbounded call.
    pub max_penalty: Option<usize>,
    pub satisfiable: bool,
    /// Penalty of the validated model, when satisfiable.
    pub found_penalty: Option<usize>,
    pub seconds: f64,
    pub via: StepMethod,
}

/// How a step was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepMethod {
    /// The oracle's call on the whole formula (under `certify`, an UNSAT
    /// answer is a checked certificate).
    Oracle,
    /// No solver: the level-4 witness below completed chain by chain
    /// (`counting::cheapest_completion`), for levels 5 and 6.
    Completion,
    /// A plain SAT call on the formula with the witness of the level below
    /// fixed (`refinement_literals`): a quick start for the search, never a
    /// lower bound.
    Refinement,
}

/// Solves "valid level-k partial with penalty <= max_penalty" once.
/// Returns the validated partial, or `None` when the formula is unsatisfiable.
pub fn solve_at_bound<S: SatSolver + Default>(
    hex: &Hexagon,
    level: u8,
    options: EncodeOptions,
) -> Result<Option<Found>, HexError> {
    solve_hinted(&mut S::default(), hex, level, options, None)
}

/// `solve_at_bound`, with the solver's phases set towards `hint` (a partial
/// of any level). The hint changes where the search looks first, never what
/// the formula says.
pub fn solve_hinted(
    solver: &mut dyn SatSolver,
    hex: &Hexagon,
    level: u8,
    options: EncodeOptions,
    hint: Option<&Partial>,
) -> Result<Option<Found>, HexError> {
    let encoding = LevelEncoding::new(hex, level, options);
    solver.add_cnf(&encoding.cnf)?;
    if let Some(partial) = hint {
        solver.hint_phases(&encoding.hint_literals(partial))?;
    }
    match solver.solve()? {
        Answer::Unsat => Ok(None),
        Answer::Sat(model) => accept_model(hex, &encoding, &model).map(Some),
    }
}

/// Why the minimum is a lower bound.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum LowerBoundProof {
    /// "penalty <= min-1" is UNSAT at this level.
    UnsatAtLevel { level: u8, max_penalty: usize },
    /// A lower level already has this minimum; refinement never lowers the penalty.
    InheritedFromLevel { level: u8 },
    /// The minimum is 0.
    Zero,
}

/// The minimum level-k penalty with a witness and the reason it is minimal.
#[derive(Debug, Clone)]
pub struct Minimum {
    pub level: u8,
    pub penalty: usize,
    pub witness: Found,
    pub proof: LowerBoundProof,
    pub steps: Vec<SearchStep>,
}

/// How a search answers "a valid level-k partial with penalty <= bound?".
/// The plain oracle solves one formula; the certifying one races
/// formulations and keeps DRAT proofs of its UNSAT answers.
pub trait Oracle {
    /// `None` when no such partial exists; `hint` only steers the search.
    fn query(
        &mut self,
        hex: &Hexagon,
        level: u8,
        max_penalty: Option<usize>,
        hint: Option<&Partial>,
    ) -> Result<Option<Found>, HexError>;

    /// A solver for the search's own small calls (quick starts from the
    /// level below), which are never bounds and need no proof.
    fn fresh_solver(&self) -> Box<dyn SatSolver>;
}

/// One call of a fresh `S` on the formula `template` describes.
pub struct PlainOracle<S> {
    pub template: EncodeOptions,
    /// Makes the solver of each call: the caller may have it give up when
    /// the run stops (its `Interrupted` then ends the search, never read as UNSAT).
    make: Box<dyn Fn() -> S>,
}

impl<S: Default + 'static> PlainOracle<S> {
    pub fn new(template: EncodeOptions) -> PlainOracle<S> {
        PlainOracle::made_by(template, S::default)
    }
}

impl<S> PlainOracle<S> {
    /// An oracle whose solvers come from `make`.
    pub fn made_by(template: EncodeOptions, make: impl Fn() -> S + 'static) -> PlainOracle<S> {
        PlainOracle { template, make: Box::new(make) }
    }
}

impl<S: SatSolver + 'static> Oracle for PlainOracle<S> {
    fn query(
        &mut self,
        hex: &Hexagon,
        level: u8,
        max_penalty: Option<usize>,
        hint: Option<&Partial>,
    ) -> Result<Option<Found>, HexError> {
        solve_hinted(&mut (self.make)(), hex, level, EncodeOptions { max_penalty, ..self.template }, hint)
    }

    fn fresh_solver(&self) -> Box<dyn SatSolver> {
        Box::new((self.make)())
    }
}

/// Finds the minimum level-k penalty.
///
/// With an inherited lower bound L (a lower level's minimum; refinement
/// never lowers the penalty), levels 4..6 first ask for penalty <= L, usually
/// satisfiable, and are then done. Otherwise a level descends from a first
/// model, one SAT call per improvement, until a bound is UNSAT or a model
/// reaches L. So a level costs at most one refutation (two from level 4 on),
/// however far its minimum lies above L; climbing from L one bound at a time
/// cost n=9 level 2 three extra refutations (490 s).
/// Each call's phases are set towards the best partial known so far (from
/// this level or the one below, `hint`). Before any oracle call, a level
/// tries a quick start from the witness below (`quick_start`), which may
/// settle it or give the descent its first model.
pub fn minimize(
    hex: &Hexagon,
    level: u8,
    inherited: Option<Inherited>,
    oracle: &mut dyn Oracle,
    hint: Option<&Partial>,
    on_step: &mut dyn FnMut(&SearchStep),
) -> Result<Minimum, HexError> {
    let mut steps = Vec::new();
    let mut inherited_refuted = None;
    let finish = |witness: Found, proof, steps| {
        let penalty = witness.evaluation.penalty;
        let proof = if penalty == 0 { LowerBoundProof::Zero } else { proof };
        Ok(Minimum { level, penalty, witness, proof, steps })
    };
    let mut start_from = None;
    if let Some(lower_witness) = hint.filter(|h| h.level() < level) {
        if let Some(found) = quick_start(&*oracle, hex, level, inherited.is_some(), lower_witness, on_step, &mut steps)?
        {
            if let Some(lower) = inherited.filter(|l| found.evaluation.penalty <= l.penalty) {
                return finish(found, LowerBoundProof::InheritedFromLevel { level: lower.level }, steps);
            }
            start_from = Some(found);
        }
    }
    let mut call = |bound: Option<usize>, hint: Option<&Partial>, steps: &mut Vec<SearchStep>| {
        timed(on_step, steps, level, StepMethod::Oracle, bound, || oracle.query(hex, level, bound, hint))
    };
    // From level 4 on the minimum almost always equals the inherited bound
    // (SPEC table: levels 4..6 are identical, level 4 differs from level 3
    // once), so one SAT call settles it. At levels 2 and 3 it almost never
    // does, and asking would waste a refutation: descend instead, stopping
    // if a model reaches the bound.
    if let Some(lower) = inherited.filter(|_| level >= options::ASK_INHERITED_FROM_LEVEL.default) {
        match call(Some(lower.penalty), hint, &mut steps)? {
            Some(found) => return finish(found, LowerBoundProof::InheritedFromLevel { level: lower.level }, steps),
            None if lower.penalty == 0 => {}
            None => inherited_refuted = Some(lower.penalty),
        }
    }
    let first = match start_from {
        Some(found) => Some(found),
        None => call(None, hint, &mut steps)?,
    };
    let mut best = first.ok_or_else(|| HexError::Internal(format!("no valid level-{level} partial exists")))?;
    while best.evaluation.penalty > 0 {
        if let Some(lower) = inherited.filter(|l| l.penalty == best.evaluation.penalty) {
            return finish(best, LowerBoundProof::InheritedFromLevel { level: lower.level }, steps);
        }
        if inherited_refuted == Some(best.evaluation.penalty - 1) {
            let proof = LowerBoundProof::UnsatAtLevel { level, max_penalty: best.evaluation.penalty - 1 };
            return finish(best, proof, steps);
        }
        let bound = best.evaluation.penalty - 1;
        match call(Some(bound), Some(&best.partial), &mut steps)? {
            Some(better) => best = better,
            None => return finish(best, LowerBoundProof::UnsatAtLevel { level, max_penalty: bound }, steps),
        }
    }
    finish(best, LowerBoundProof::Zero, steps)
}

/// A first level-k partial built from the witness of the level below,
/// without touching the oracle. Levels 5 and 6 refine level 4 chain by
/// chain, so completing the witness often reaches the inherited bound with no
/// solver call; otherwise the best refinement of the witness (small SAT
/// calls with it fixed) is a far better first model than a free one (n=10
/// level 3: a free model had penalty 756, and fifteen descent steps, about
/// six minutes, went into leaving it behind).
fn quick_start(
    oracle: &dyn Oracle,
    hex: &Hexagon,
    level: u8,
    has_bound: bool,
    lower_witness: &Partial,
    on_step: &mut dyn FnMut(&SearchStep),
    steps: &mut Vec<SearchStep>,
) -> Result<Option<Found>, HexError> {
    if has_bound && level >= options::COMPLETE_FROM_LEVEL.default && lower_witness.level() >= 4 {
        let completed =
            timed(on_step, steps, level, StepMethod::Completion, None, || Ok(complete(hex, level, lower_witness)))?;
        if completed.is_some() {
            return Ok(completed);
        }
    }
    best_refinement(oracle, hex, level, lower_witness, on_step, steps)
}

/// Runs `answer` as one step of the search, reported when it starts (for
/// progress displays) and when it is answered.
fn timed(
    on_step: &mut dyn FnMut(&SearchStep),
    steps: &mut Vec<SearchStep>,
    level: u8,
    via: StepMethod,
    max_penalty: Option<usize>,
    answer: impl FnOnce() -> Result<Option<Found>, HexError>,
) -> Result<Option<Found>, HexError> {
    on_step(&SearchStep {
        answered: false,
        level,
        max_penalty,
        satisfiable: false,
        found_penalty: None,
        seconds: 0.0,
        via,
    });
    let start = Instant::now();
    let found = answer()?;
    let step = SearchStep {
        answered: true,
        level,
        max_penalty,
        satisfiable: found.is_some(),
        found_penalty: found.as_ref().map(|f| f.evaluation.penalty),
        seconds: start.elapsed().as_secs_f64(),
        via,
    };
    on_step(&step);
    steps.push(step);
    Ok(found)
}

/// The least-penalty level-k refinement of `lower` (a partial of a lower
/// level), by descending SAT calls on the formula with `lower` fixed. These
/// formulas leave only `lower`'s `+` cells free, so the calls are quick; an
/// UNSAT answer here says nothing about the level's minimum and is never
/// recorded as a bound. `None` when `lower` has no valid refinement.
fn best_refinement(
    oracle: &dyn Oracle,
    hex: &Hexagon,
    level: u8,
    lower: &Partial,
    on_step: &mut dyn FnMut(&SearchStep),
    steps: &mut Vec<SearchStep>,
) -> Result<Option<Found>, HexError> {
    let solve = |bound: Option<usize>| -> Result<Option<Found>, HexError> {
        let encoding = LevelEncoding::new(hex, level, EncodeOptions::bounded(bound));
        let mut solver = oracle.fresh_solver();
        solver.add_cnf(&encoding.cnf)?;
        let mut units = Cnf::new();
        units.reserve_vars_up_to(encoding.cnf.num_vars());
        for lit in encoding.refinement_literals(lower) {
            units.add_clause(&[lit]);
        }
        solver.add_cnf(&units)?;
        solver.hint_phases(&encoding.hint_literals(lower))?;
        match solver.solve()? {
            Answer::Unsat => Ok(None),
            Answer::Sat(model) => accept_model(hex, &encoding, &model).map(Some),
        }
    };
    let mut best = timed(on_step, steps, level, StepMethod::Refinement, None, || solve(None))?;
    while let Some(bound) = best.as_ref().and_then(|b| b.evaluation.penalty.checked_sub(1)) {
        match timed(on_step, steps, level, StepMethod::Refinement, Some(bound), || solve(Some(bound)))? {
            Some(better) => best = Some(better),
            None => break,
        }
    }
    Ok(best)
}

/// The cheapest refinement of `partial` (level >= 4) at `level`, accepted
/// only if the plain validator passes it.
fn complete(hex: &Hexagon, level: u8, partial: &Partial) -> Option<Found> {
    let refined = crate::counting::cheapest_completion(hex, partial).ok()?.truncate(level).ok()?;
    let evaluation = evaluate(hex, &refined);
    evaluation.is_valid().then_some(Found { partial: refined, evaluation })
}

/// A lower bound inherited from a lower level: "no level-j partial below `penalty`".
#[derive(Debug, Clone, Copy)]
pub struct Inherited {
    pub level: u8,
    pub penalty: usize,
}

/// Minimises levels `1..=level` in turn, each starting from the lower bound
/// the previous level proved. The returned list holds one minimum per level.
pub fn minimize_through(
    hex: &Hexagon,
    level: u8,
    oracle: &mut dyn Oracle,
    on_step: &mut dyn FnMut(&SearchStep),
) -> Result<Vec<Minimum>, HexError> {
    let mut minima: Vec<Minimum> = Vec::new();
    for k in 1..=level {
        let inherited = minima.last().map(|m| Inherited {
            level: match m.proof {
                LowerBoundProof::InheritedFromLevel { level } => level,
                _ => m.level,
            },
            penalty: m.penalty,
        });
        let hint = minima.last().map(|m| m.witness.partial.clone());
        minima.push(minimize(hex, k, inherited, oracle, hint.as_ref(), on_step)?);
    }
    Ok(minima)
}

/// Every valid level-k partial with penalty <= `max_penalty`, by blocking
/// each decoded cell assignment and solving again (one incremental solver).
/// Meant for small cases and cross-checks: each solution costs a solver call.
/// Stops with an error after `limit` solutions.
pub fn enumerate<S: SatSolver + Default>(
    hex: &Hexagon,
    level: u8,
    options: EncodeOptions,
    limit: usize,
) -> Result<Vec<Found>, HexError> {
    enumerate_under::<S>(hex, &LevelEncoding::new(hex, level, options), &[], limit)
}

/// Every model of `encoding` with the `units` fixed, as `enumerate` lists
/// them (validated, blocked on the cells' values, at most `limit`).
pub fn enumerate_under<S: SatSolver + Default>(
    hex: &Hexagon,
    encoding: &LevelEncoding,
    units: &[i32],
    limit: usize,
) -> Result<Vec<Found>, HexError> {
    let mut solver = S::default();
    solver.add_cnf(&encoding.cnf)?;
    let mut fixed = Cnf::new();
    fixed.reserve_vars_up_to(encoding.cnf.num_vars());
    units.iter().for_each(|&u| fixed.add_clause(&[u]));
    solver.add_cnf(&fixed)?;
    let mut found = Vec::new();
    while let Answer::Sat(model) = solver.solve()? {
        let next = accept_model(hex, encoding, &model)?;
        // Projected onto cell values: the block mentions only `ge` variables,
        // so two models differing in auxiliary variables count once.
        let mut block = Cnf::new();
        block.reserve_vars_up_to(encoding.cnf.num_vars());
        let negated: Vec<i32> = encoding.cell_literals(&next.partial).iter().map(|l| -l).collect();
        block.add_clause(&negated);
        solver.add_cnf(&block)?;
        found.push(next);
        if found.len() > limit {
            return Err(HexError::Usage(format!("more than {limit} solutions; enumeration stopped")));
        }
    }
    Ok(found)
}
