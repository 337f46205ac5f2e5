//! `Lifted`: each cube's LRAT refutation, checked against the split formula
//! T as a derivation of the unit `-s_i`; then T's refutation from those units.
//!
//! Cube `i`'s formula F_i is T's base F (ids `1..=base`) followed by the
//! units `u_1..u_k` (ids `base+1..=base+k`); T has `{-s_i, u_j}` instead of
//! each unit (`split.rs` reads and checks T's shape). A refutation of F_i is
//! read as one of T plus the assumption `s_i`: every lemma `C` becomes
//! `C ∨ -s_i`, a hint to unit `j` becomes a hint to `{-s_i, u_j}`, a hint to
//! F or to a lemma keeps naming the same clause (lifted). Assuming the lifted
//! lemma false makes `s_i` true, so `{-s_i, u_j}` propagates `u_j` as the
//! unit did, every lifted lemma acts as its lemma did, and each hint leaves
//! as many literals open as before: every RUP chain still holds, and the
//! empty clause becomes `{-s_i}`. That is the completeness side; soundness
//! does not lean on it, since every lifted step goes through the ordinary
//! RUP check against T's clauses. Read back, an accepted cube says F_i is
//! unsatisfiable: a model of F_i with `s_i` true and the other selectors
//! false would satisfy T (selectors are fresh, `split.rs` checks it), yet T
//! implies `-s_i`.
//!
//! Invariants: T's clauses are never deleted, so every cube sees all of
//! them; a cube's lemmas are forgotten when it ends (`Checker::retire`),
//! and its unit `{-s_i}`, if its proof derived the empty clause by a checked
//! step, is renumbered just after the previous cubes' units, so T's id table
//! grows by one per cube, not by the sum of the proofs' lengths; `derived`
//! names those units, and `conclude` accepts only when it names all.

mod cube;

use std::io::Read;

use crate::checker::{Checker, Summary};
use crate::error::CheckError;
use crate::format::{Reader, StepBuf};
use crate::split::Split;

pub use cube::CubeCheck;

/// A split formula T and the selector units `-s_i` derived on it so far.
pub struct Lifted {
    checker: Checker,
    split: Split,
    /// T id of `{-s_i}` once cube `i`'s proof was accepted.
    derived: Vec<Option<u64>>,
}

/// What an accepted cube proof established: T implies `-selector`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CubeSummary {
    pub cube: usize,
    pub selector: i32,
    /// T id of the unit `{-selector}` (in the `Lifted` that checked it).
    pub unit_id: u64,
    /// Id of the empty clause in the cube's own proof.
    pub empty_clause_id: u64,
    /// Addition and deletion steps, as the plain checker counts them.
    pub steps: u64,
    pub added: u64,
    pub deleted: u64,
    pub hints: u64,
}

impl Lifted {
    /// T from DIMACS bytes; its first `base` clauses are F.
    pub fn from_dimacs(split: &[u8], base: usize) -> Result<Lifted, CheckError> {
        Lifted::new(Checker::from_dimacs(split)?, base)
    }

    /// T from its clauses (ids `1..=len`); its first `base` clauses are F.
    pub fn from_clauses(split: &[Vec<i32>], base: usize) -> Result<Lifted, CheckError> {
        Lifted::new(Checker::try_from_clauses(split)?, base)
    }

    fn new(checker: Checker, base: usize) -> Result<Lifted, CheckError> {
        let split = Split::read(&checker, base as u64)?;
        Ok(Lifted { derived: vec![None; split.selectors.len()], checker, split })
    }

    /// Number of cubes (selectors in T's final clause).
    pub fn cubes(&self) -> usize {
        self.split.selectors.len()
    }

    /// Cube `cube`'s selector `s` (T's clauses for it are `-s u`).
    pub fn selector(&self, cube: usize) -> Option<i32> {
        self.split.selectors.get(cube).copied()
    }

    /// The units T gives cube `cube`, in order.
    pub fn units(&self, cube: usize) -> Option<Vec<i32>> {
        (cube < self.cubes()).then(|| self.split.units(&self.checker, cube))
    }

    /// Whether `-s` of cube `cube` has been derived by an accepted proof.
    pub fn is_derived(&self, cube: usize) -> bool {
        self.derived.get(cube).is_some_and(Option::is_some)
    }

    /// Starts checking cube `cube`'s proof, whose formula is F and `units`
    /// as unit clauses in this order: they must be T's clauses for the cube.
    pub fn cube(&mut self, cube: usize, units: &[i32]) -> Result<CubeCheck<'_>, CheckError> {
        CubeCheck::start(self, cube, units)
    }

    /// Checks a whole LRAT proof (text or binary) of cube `cube`'s formula.
    pub fn check_proof(&mut self, cube: usize, units: &[i32], proof: impl Read) -> Result<CubeSummary, CheckError> {
        let mut check = self.cube(cube, units)?;
        let mut reader = Reader::new(proof);
        let mut step = StepBuf::default();
        while reader.read_step(&mut step)? {
            if step.delete {
                check.delete_all(&step.ids)?;
            } else {
                check.add(step.id, &step.lits, &step.hints)?;
            }
        }
        check.finish()
    }

    /// Derives the empty clause from every cube's unit `-s_i` and T's final
    /// clause `s_0 ... s_{m-1}`, by an ordinary RUP step: T is refuted.
    pub fn conclude(&mut self) -> Result<Summary, CheckError> {
        let missing: Vec<usize> = (0..self.cubes()).filter(|&cube| !self.is_derived(cube)).collect();
        if let Some(&first) = missing.first() {
            return Err(CheckError::SelectorsMissing { missing: missing.len(), cubes: self.cubes(), first });
        }
        let mut hints: Vec<i64> = self.derived.iter().map(|id| id.expect("all derived") as i64).collect();
        hints.push(self.split.clauses as i64);
        let id = self.checker.last_id() + 1;
        self.checker.add(id, &[], &hints)?;
        self.checker.finish()
    }
}
