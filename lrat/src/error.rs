//! `CheckError`: every way a formula or an LRAT proof can be rejected, also
//! in a lifted check of cube proofs against a split formula (`lifted.rs`).
//!
//! Invariant: each proof-step variant carries the step's ordinal (1-based,
//! counting addition and deletion steps in proof order) and, where the step
//! names one, the clause id, so the one-line message points at the culprit.

use std::fmt;

/// Where in a proof file a syntax problem was found: text proofs are
/// line-based, binary proofs have only byte offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// 1-based line of a text proof.
    Line(u64),
    /// 0-based byte offset in a binary proof.
    Byte(u64),
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Line(line) => write!(f, "line {line}"),
            Position::Byte(offset) => write!(f, "byte {offset}"),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("DIMACS line {line}: {reason}")]
    Dimacs { line: u64, reason: String },

    #[error("LRAT step {step}: syntax error at {at}: {reason}")]
    Syntax { step: u64, at: Position, reason: &'static str },

    #[error("LRAT step {step}: truncated proof at {at}: the step has no final 0")]
    Truncated { step: u64, at: Position },

    #[error("LRAT step {step}: reading the proof failed: {source}")]
    Io { step: u64, source: std::io::Error },

    #[error("LRAT step {step} (clause {id}): literal {lit} is not a valid literal")]
    InvalidLiteral { step: u64, id: u64, lit: i64 },

    #[error("LRAT step {step} (clause {id}): {what} is too far beyond the largest one so far ({limit} allowed)")]
    TooLarge { step: u64, id: u64, what: &'static str, limit: u64 },

    #[error("LRAT step {step} (clause {id}): id is not greater than the previous id {previous} (ids must increase)")]
    IdNotIncreasing { step: u64, id: u64, previous: u64 },

    #[error("LRAT step {step} (clause {id}): hint {hint} names no clause")]
    UnknownHint { step: u64, id: u64, hint: i64 },

    #[error("LRAT step {step} (clause {id}): hint {hint} names a deleted clause")]
    DeletedHint { step: u64, id: u64, hint: u64 },

    #[error("LRAT step {step} (clause {id}): hint {hint} is not unit ({unassigned} literals unassigned)")]
    HintNotUnit { step: u64, id: u64, hint: u64, unassigned: usize },

    #[error("LRAT step {step} (clause {id}): hint {hint} is already satisfied")]
    HintSatisfied { step: u64, id: u64, hint: u64 },

    #[error("LRAT step {step} (clause {id}): the hint chain ends without a conflict (missing hint)")]
    MissingHint { step: u64, id: u64 },

    #[error("LRAT step {step} (clause {id}): RAT steps are not supported (negative hint {hint})")]
    RatUnsupported { step: u64, id: u64, hint: i64 },

    #[error("LRAT step {step} (clause {id}): deletion of a clause id that was never added")]
    DeleteUnknown { step: u64, id: u64 },

    #[error("LRAT step {step} (clause {id}): deletion of an already deleted clause")]
    DeleteTwice { step: u64, id: u64 },

    #[error("original clause {id}: {reason}")]
    OriginalMismatch { id: u64, reason: String },

    #[error("LRAT proof ends without the empty clause ({steps} steps checked)")]
    NoEmptyClause { steps: u64 },

    #[error("LRAT step {step} (clause {id}): literal {lit} is on a selector variable of the split formula")]
    SelectorInProof { step: u64, id: u64, lit: i32 },

    #[error("split formula: {reason}")]
    SplitShape { reason: String },

    #[error("cube {cube}: the split formula has {cubes} cubes (numbered from 0)")]
    NoSuchCube { cube: usize, cubes: usize },

    #[error("cube {cube}: the split formula has {split} selector clauses for it, the cube formula {given} units")]
    UnitCount { cube: usize, split: usize, given: usize },

    #[error("cube {cube}: unit {unit} of the cube formula is {given}, the split formula's clause {id} is {clause:?}")]
    UnitMismatch { cube: usize, unit: usize, id: u64, given: i32, clause: Vec<i32> },

    #[error("cube {cube}: its selector's negation is already derived on this split formula")]
    CubeAgain { cube: usize },

    #[error("conclude: {missing} of {cubes} cubes have no derived selector unit (the first is cube {first})")]
    SelectorsMissing { missing: usize, cubes: usize, first: usize },
}

impl CheckError {
    /// The proof step the error names, if it names one.
    pub fn step(&self) -> Option<u64> {
        use CheckError::*;
        match self {
            Syntax { step, .. }
            | Truncated { step, .. }
            | Io { step, .. }
            | InvalidLiteral { step, .. }
            | TooLarge { step, .. }
            | IdNotIncreasing { step, .. }
            | UnknownHint { step, .. }
            | DeletedHint { step, .. }
            | HintNotUnit { step, .. }
            | HintSatisfied { step, .. }
            | MissingHint { step, .. }
            | RatUnsupported { step, .. }
            | DeleteUnknown { step, .. }
            | DeleteTwice { step, .. }
            | SelectorInProof { step, .. } => Some(*step),
            Dimacs { .. }
            | OriginalMismatch { .. }
            | NoEmptyClause { .. }
            | SplitShape { .. }
            | NoSuchCube { .. }
            | UnitCount { .. }
            | UnitMismatch { .. }
            | CubeAgain { .. }
            | SelectorsMissing { .. } => None,
        }
    }
}
