//! SAT solving behind a small trait, and the searches built on it.
//!
//! The engine only needs "add these clauses, answer SAT with a model or
//! UNSAT". Proof tracing is an extra ability of the CaDiCaL backend and must
//! be switched on before the first clause (`Cadical::with_proof`), so that the
//! trace covers every clause the solver ever saw.

pub mod race;
pub mod search;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rustsat::solvers::{ControlSignal, PhaseLit, Solve, SolverResult, Terminate};
use rustsat::types::{Lit, TernaryVal, Var};
use rustsat_cadical::{CaDiCaL, ProofFormat};

use crate::error::HexError;
use crate::formula::Cnf;

/// The answer of one solver call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A model, indexed by variable (entry 0 unused).
    Sat(Vec<bool>),
    Unsat,
}

/// What the searches need from a SAT solver.
pub trait SatSolver {
    fn add_cnf(&mut self, cnf: &Cnf) -> Result<(), HexError>;
    fn solve(&mut self) -> Result<Outcome, HexError>;
}

/// CaDiCaL through RustSAT, single-threaded and with fixed options, hence
/// deterministic for a given clause sequence.
pub struct Cadical {
    solver: CaDiCaL<'static, 'static>,
    num_vars: u32,
}

impl Cadical {
    /// A fresh solver with default options.
    pub fn new() -> Cadical {
        Cadical { solver: CaDiCaL::default(), num_vars: 0 }
    }

    /// A fresh solver that writes a binary DRAT proof to `path` from its first clause on.
    pub fn with_proof(path: &Path, binary: bool) -> Result<Cadical, HexError> {
        let mut cadical = Cadical::new();
        cadical
            .solver
            .trace_proof(path, ProofFormat::Drat { binary })
            .map_err(|e| HexError::Solver(format!("cannot trace proof to {}: {e}", path.display())))?;
        Ok(cadical)
    }

    /// Sets the default decision phase of each literal's variable to make the
    /// literal true. Phases steer the search only: the formula, and so any
    /// UNSAT answer and its proof, is unaffected.
    pub fn hint_phases(&mut self, lits: &[i32]) -> Result<(), HexError> {
        for &l in lits {
            let lit = Lit::from_ipasir(l).expect("nonzero literal");
            self.solver.phase_lit(lit).map_err(|e| HexError::Solver(e.to_string()))?;
        }
        Ok(())
    }

    /// Makes `solve` give up (with `HexError::Interrupted`) once `flag` is set.
    pub fn stop_when(&mut self, flag: Arc<AtomicBool>) {
        self.stop_when_any(move || flag.load(Ordering::Relaxed));
    }

    /// Makes `solve` give up once `should_stop` returns true (polled regularly).
    pub fn stop_when_any(&mut self, should_stop: impl Fn() -> bool + 'static) {
        self.solver.attach_terminator(move || {
            if should_stop() {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
    }

    /// The CaDiCaL version compiled in.
    pub fn version() -> String {
        CaDiCaL::default().signature().to_string()
    }
}

impl Default for Cadical {
    fn default() -> Self {
        Cadical::new()
    }
}

impl SatSolver for Cadical {
    fn add_cnf(&mut self, cnf: &Cnf) -> Result<(), HexError> {
        for clause in cnf.clauses() {
            let lits: rustsat::types::Clause =
                clause.iter().map(|&l| Lit::from_ipasir(l).expect("nonzero literal")).collect();
            self.solver.add_clause(lits).map_err(|e| HexError::Solver(e.to_string()))?;
        }
        self.num_vars = self.num_vars.max(cnf.num_vars());
        Ok(())
    }

    fn solve(&mut self) -> Result<Outcome, HexError> {
        match self.solver.solve().map_err(|e| HexError::Solver(e.to_string()))? {
            SolverResult::Unsat => Ok(Outcome::Unsat),
            SolverResult::Sat => {
                let mut model = vec![false; self.num_vars as usize + 1];
                for (v, slot) in model.iter_mut().enumerate().skip(1) {
                    let var = Var::new(v as u32 - 1);
                    let value = self.solver.var_val(var).map_err(|e| HexError::Solver(e.to_string()))?;
                    *slot = value == TernaryVal::True;
                }
                Ok(Outcome::Sat(model))
            }
            SolverResult::Interrupted => Err(HexError::Interrupted),
        }
    }
}
