//! hexcert-lrat: a standalone checker of LRAT proofs (RUP steps only).
//!
//! Invariant: this crate depends on nothing from hexcert, so a bug in the
//! solver, encoder or search cannot also hide in the checker of its proofs.
//! A proof is accepted only by `Checker::finish` after a checked step has
//! derived the empty clause; a cube's proof is accepted against a split
//! formula only by `CubeCheck::finish` after a checked lifted step has
//! derived the cube's unit `-s` (`lifted.rs`).

#![forbid(unsafe_code)]

mod assignment;
mod checker;
mod clauses;
mod dimacs;
mod error;
pub mod format;
mod lifted;
mod split;
mod writers;

use std::io::Read;

pub use checker::{Checker, Summary};
pub use error::{CheckError, Position};
pub use format::{Reader, Step, StepBuf};
pub use lifted::{CubeCheck, CubeSummary, Lifted};

/// This checker's version, recorded beside each verdict it gives.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Parses and checks a whole LRAT proof (text or binary, told apart by its
/// first bytes) against a DIMACS formula. Every step is checked, also those
/// after the empty clause.
pub fn check(formula: &[u8], proof: impl Read) -> Result<Summary, CheckError> {
    let mut checker = Checker::from_dimacs(formula)?;
    let mut reader = Reader::new(proof);
    let mut step = StepBuf::default();
    while reader.read_step(&mut step)? {
        if step.delete {
            checker.delete_all(&step.ids)?;
        } else {
            checker.add(step.id, &step.lits, &step.hints)?;
        }
    }
    checker.finish()
}

/// Checks a whole LRAT proof (text or binary) of cube `cube`'s formula, F
/// plus `units`, as a derivation of `-s_cube` from the split formula T whose
/// first `base` clauses are F. Accepted, it says "T implies -s_cube"; T is
/// refuted once that holds for every cube (`Lifted::conclude`).
pub fn check_lifted(
    split: &[u8],
    base: usize,
    cube: usize,
    units: &[i32],
    proof: impl Read,
) -> Result<CubeSummary, CheckError> {
    Lifted::from_dimacs(split, base)?.check_proof(cube, units, proof)
}
