//! A solver's model read back: decoded into a partial and judged by the
//! plain validator (and the CNF itself) before any search, proof or listing
//! may use it, so a wrong encoder or backend yields an error, never a
//! result. It sits with the encoder, below the solver: every caller that
//! holds a model (the searches, `certify`'s prove, cube runs and listings)
//! reaches it without passing through `search`.

use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::validation::{evaluate, Evaluation};

use super::LevelEncoding;

/// A partial found by the solver and accepted by the validator.
#[derive(Debug, Clone)]
pub struct Found {
    pub partial: Partial,
    pub evaluation: Evaluation,
}

/// Decodes a model and checks it with the validator (and the CNF itself).
pub fn accept_model(hex: &Hexagon, encoding: &LevelEncoding, model: &[bool]) -> Result<Found, HexError> {
    if !encoding.cnf.is_satisfied_by(model) {
        return Err(HexError::Internal("solver model does not satisfy the formula".into()));
    }
    let partial = encoding.decode(model);
    let evaluation = evaluate(hex, &partial);
    if !evaluation.is_valid() {
        return Err(HexError::Internal(format!("decoded partial is invalid: {:?}", evaluation.violations.first())));
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
