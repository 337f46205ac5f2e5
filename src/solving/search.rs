//! Searches over level-k formulas: one bounded call, and the minimisation loop.
//!
//! Every model is decoded and handed to the plain validator before anything
//! is returned; a model the validator rejects is an internal error, never a
//! result.

use std::time::Instant;

use super::{Cadical, Outcome, SatSolver};
use crate::encoding::{Cardinality, EncodeOptions, LevelEncoding};
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::validation::{evaluate, Evaluation};

/// A partial found by the solver and accepted by the validator.
#[derive(Debug, Clone)]
pub struct Found {
    pub partial: Partial,
    pub evaluation: Evaluation,
}

/// One solver call of a search, for progress and reports.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Step {
    pub level: u8,
    /// The bound tried; `None` for an unbounded call.
    pub max_penalty: Option<usize>,
    pub satisfiable: bool,
    /// Penalty of the validated model, when satisfiable.
    pub found_penalty: Option<usize>,
    pub seconds: f64,
}

/// Solves "valid level-k partial with penalty <= max_penalty" once.
/// Returns the validated partial, or `None` when the formula is unsatisfiable.
pub fn solve_at_bound(
    hex: &Hexagon,
    level: u8,
    max_penalty: Option<usize>,
    cardinality: Cardinality,
) -> Result<Option<Found>, HexError> {
    let encoding = LevelEncoding::new(hex, level, EncodeOptions { max_penalty, cardinality });
    let mut solver = Cadical::new();
    solver.add_cnf(&encoding.cnf)?;
    match solver.solve()? {
        Outcome::Unsat => Ok(None),
        Outcome::Sat(model) => accept_model(hex, &encoding, &model).map(Some),
    }
}

/// Decodes a model and checks it with the validator (and the CNF itself).
pub fn accept_model(hex: &Hexagon, encoding: &LevelEncoding, model: &[bool]) -> Result<Found, HexError> {
    if !encoding.cnf.is_satisfied_by(model) {
        return Err(HexError::Internal("solver model does not satisfy the formula".into()));
    }
    let partial = encoding.decode(model);
    let evaluation = evaluate(hex, &partial);
    if !evaluation.is_valid() {
        return Err(HexError::Internal(format!(
            "decoded partial is invalid: {:?}",
            evaluation.violations.first()
        )));
    }
    if evaluation.penalty > encoding.penalty_in_model(model) {
        return Err(HexError::Internal(format!(
            "validator penalty {} exceeds the {} penalty variables set in the model",
            evaluation.penalty,
            encoding.penalty_in_model(model)
        )));
    }
    Ok(Found { partial, evaluation })
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
    pub steps: Vec<Step>,
}

/// A lower bound inherited from a lower level: "no level-j partial below `penalty`".
#[derive(Debug, Clone, Copy)]
pub struct Inherited {
    pub level: u8,
    pub penalty: usize,
}

/// Finds the minimum level-k penalty. With `inherited`, first tries to meet
/// that lower bound; otherwise descends from a first model, one SAT call per
/// improvement, until a bound is UNSAT.
pub fn minimize(
    hex: &Hexagon,
    level: u8,
    inherited: Option<Inherited>,
    cardinality: Cardinality,
    on_step: &mut dyn FnMut(&Step),
) -> Result<Minimum, HexError> {
    let mut steps = Vec::new();
    let mut call = |bound: Option<usize>, steps: &mut Vec<Step>| -> Result<Option<Found>, HexError> {
        let start = Instant::now();
        let found = solve_at_bound(hex, level, bound, cardinality)?;
        let step = Step {
            level,
            max_penalty: bound,
            satisfiable: found.is_some(),
            found_penalty: found.as_ref().map(|f| f.evaluation.penalty),
            seconds: start.elapsed().as_secs_f64(),
        };
        on_step(&step);
        steps.push(step);
        Ok(found)
    };
    // Largest bound known UNSAT at this level.
    let mut refuted: Option<usize> = None;
    if let Some(lower) = inherited {
        match call(Some(lower.penalty), &mut steps)? {
            Some(witness) => {
                let proof = if lower.penalty == 0 {
                    LowerBoundProof::Zero
                } else {
                    LowerBoundProof::InheritedFromLevel { level: lower.level }
                };
                return Ok(Minimum { level, penalty: witness.evaluation.penalty, witness, proof, steps });
            }
            None => refuted = Some(lower.penalty),
        }
    }
    let mut best = call(None, &mut steps)?
        .ok_or_else(|| HexError::Internal(format!("no valid level-{level} partial exists")))?;
    loop {
        let penalty = best.evaluation.penalty;
        if penalty == 0 {
            return Ok(Minimum { level, penalty, witness: best, proof: LowerBoundProof::Zero, steps });
        }
        if refuted == Some(penalty - 1) {
            let proof = LowerBoundProof::UnsatAtLevel { level, max_penalty: penalty - 1 };
            return Ok(Minimum { level, penalty, witness: best, proof, steps });
        }
        match call(Some(penalty - 1), &mut steps)? {
            Some(better) => best = better,
            None => refuted = Some(penalty - 1),
        }
    }
}

/// Minimises levels `1..=level` in turn, each starting from the lower bound
/// the previous level proved. The returned list holds one minimum per level.
pub fn minimize_through(
    hex: &Hexagon,
    level: u8,
    cardinality: Cardinality,
    on_step: &mut dyn FnMut(&Step),
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
        minima.push(minimize(hex, k, inherited, cardinality, on_step)?);
    }
    Ok(minima)
}
