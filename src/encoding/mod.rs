//! The CNF encoder: "a valid level-k partial with level-k penalty <= B".
//!
//! `level_formula` builds the formula over cell and penalty variables;
//! `cardinality` bounds the number of true penalty variables, over them in
//! index order or in the `wedges` order. The encoder is
//! deterministic and versioned (`ENCODER_VERSION`): certificates name the
//! version and pin the CNF bytes by hash.

pub mod cardinality;
pub mod level_formula;
pub mod model;
pub mod restricted;
pub mod symmetry;
pub mod wedges;

pub use cardinality::Cardinality;
pub use level_formula::{Counter, EncodeOptions, LevelEncoding};
pub use symmetry::{SymmetryBreaking, TieBreak};

/// Bumped whenever the clauses produced for the same arguments change.
pub const ENCODER_VERSION: &str = "hexcert-level-cnf/2";
