//! SAT solving behind a small trait. The searches that use it (`search`)
//! live above this module and see only the trait; what is specific to
//! CaDiCaL (proof tracing, the race of two formulations, proof-prefix
//! statistics) stays here.
//!
//! The engine only needs "add these clauses, answer SAT with a model or
//! UNSAT". Proof tracing is an extra ability of the CaDiCaL backend and must
//! be switched on before the first clause (`Cadical::with_trace`), so that the
//! trace covers every clause the solver ever saw.
//!
//! CaDiCaL comes through `cadical-sys` (CaDiCaL 3.0.1 bound with cxx), which
//! builds with cargo and a C++ compiler alone: no bindgen, no libclang.

/// The `cadical_sys::ProofTracer` steps a proof consumer here ignores:
/// weakening (such a clause stays alive in the proof, as in CaDiCaL's own
/// DRAT and LRAT writers), assumptions and conclusions (a refutation ends in
/// its empty clause).
macro_rules! ignore_other_steps {
    () => {
        fn weaken_minus(&mut self, _id: i64, _clause: &[i32]) {}
        fn strengthen(&mut self, _id: i64) {}
        fn finalize_clause(&mut self, _id: i64, _clause: &[i32]) {}
        fn add_assumption(&mut self, _lit: i32) {}
        fn add_constraint(&mut self, _clause: &[i32]) {}
        fn reset_assumptions(&mut self) {}
        fn add_assumption_clause(&mut self, _id: i64, _clause: &[i32], _antecedents: &[i64]) {}
        fn conclude_sat(&mut self, _conclusion_type: i32, _model: &[i32]) {}
        fn conclude_unsat(&mut self, _conclusion_type: i32, _clause_ids: &[i64]) {}
        fn conclude_unknown(&mut self, _trail: &[i32]) {}
    };
}
use ignore_other_steps;

mod cadical;
mod pivots;
pub mod prefix;
pub mod profile;
pub mod race;
pub mod tracer;

pub use cadical::{solve_traced, Cadical, Configuration, MAX_SEED};

use crate::error::HexError;
use crate::formula::Cnf;
pub use crate::proofs::trace::TraceSender;

/// The answer of one solver call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A model, indexed by variable (entry 0 unused).
    Sat(Vec<bool>),
    Unsat,
}

/// What the searches need from a SAT solver. A model it returns is never
/// trusted: the searches re-check it against the formula and the plain
/// validator (`encoding::model::accept_model`), so a wrong backend yields an error,
/// not a result.
pub trait SatSolver {
    fn add_cnf(&mut self, cnf: &Cnf) -> Result<(), HexError>;
    /// Prefers each literal's value when deciding its variable. Only steers
    /// the search: a backend may ignore it.
    fn hint_phases(&mut self, _literals: &[i32]) -> Result<(), HexError> {
        Ok(())
    }
    fn solve(&mut self) -> Result<Answer, HexError>;
}
