//! The CaDiCaL backend of `SatSolver`, with its extra abilities: a proof
//! tracer attached before the first clause, phase hints and a terminator.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use cadical_sys::{CaDiCal, Status, Terminator};

use super::profile::Profile;
use super::{tracer, Answer, SatSolver, TraceSender};
use crate::error::HexError;
use crate::formula::Cnf;

/// CaDiCaL, single-threaded and with fixed options, hence deterministic for
/// a given clause sequence (and so is its proof trace).
pub struct Cadical {
    solver: CaDiCal,
    num_vars: u32,
}

/// Polls a closure for CaDiCaL's terminate callback.
struct StopWhen(Box<dyn Fn() -> bool>);

impl Terminator for StopWhen {
    fn terminated(&mut self) -> bool {
        (self.0)()
    }
}

/// CaDiCaL's named option sets a search may run with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Configuration {
    /// CaDiCaL's `sat`: stable mode only, for formulas expected satisfiable
    /// (docs/MEASUREMENTS.md: 1.05x to 2.8x faster than the defaults on the grid
    /// searches measured).
    #[default]
    Sat,
    /// CaDiCaL's defaults.
    Default,
}

/// The options a search seed s > 0 sets (`Cadical::seeded`). `seed` alone
/// moves only CaDiCaL's random rephasing, walks and sweeps; `shuffle`
/// reorders the decision queue and scores at every rephase, and
/// `shufflerandom` makes that order a random one drawn from `seed` rather
/// than a reversal, so two seeds search the same formula in different
/// orders: the standard remedy for heavy-tailed SAT run times (options.hpp
/// of CaDiCaL 3).
fn seed_options(seed: u32) -> [(&'static str, i32); 3] {
    let seed = i32::try_from(seed).expect("a seed within CaDiCaL's range (MAX_SEED)");
    [("seed", seed), ("shuffle", 1), ("shufflerandom", 1)]
}

/// CaDiCaL's greatest `seed`.
pub const MAX_SEED: u32 = 2_000_000_000;

impl Configuration {
    /// CaDiCaL's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Configuration::Sat => "sat",
            Configuration::Default => "default",
        }
    }
}

impl Cadical {
    /// A fresh solver with default options.
    pub fn new() -> Cadical {
        Cadical { solver: CaDiCal::new(), num_vars: 0 }
    }

    /// A fresh solver whose every proof step, with the antecedents of each
    /// derived clause (LRAT hints), goes to `trace` from its first clause on.
    /// The stream ends (the sender is dropped) when the solver is dropped.
    pub fn with_trace(trace: TraceSender) -> Cadical {
        let mut cadical = Cadical::new();
        cadical.trace_to(trace);
        cadical
    }

    fn trace_to(&mut self, trace: TraceSender) {
        self.solver.connect_proof_tracer1(tracer::Tracer::new(trace), true, false);
    }

    /// A fresh solver with `profile`'s options set and, given `trace`, traced
    /// as by `with_trace`. Options come first: CaDiCaL accepts them only
    /// before anything else touches the solver.
    pub fn with_profile(profile: Profile, trace: Option<TraceSender>) -> Result<Cadical, HexError> {
        let mut cadical = Cadical::new();
        for option in profile.options {
            if !CaDiCal::is_valid_option(option.name) || !cadical.solver.set(option.name, option.value) {
                return Err(HexError::Usage(format!("CaDiCaL rejects option {}={}", option.name, option.value)));
            }
        }
        if let Some(trace) = trace {
            cadical.trace_to(trace);
        }
        Ok(cadical)
    }

    /// A fresh solver in one of CaDiCaL's named configurations: for
    /// searches, whose answers are models checked by the validator and never
    /// proofs (a proof's options are its `Profile`).
    pub fn configured(configuration: Configuration) -> Cadical {
        let mut cadical = Cadical::new();
        let name = configuration.name();
        assert!(name == "default" || cadical.solver.configure(name), "CaDiCaL 3 has the `{name}` configuration");
        cadical
    }

    /// `configured`, with its search order drawn from `seed` (`seed_options`).
    /// Seed 0 sets nothing: it is the solver every search ran before seeds,
    /// so its figures stay comparable.
    pub fn seeded(configuration: Configuration, seed: u32) -> Cadical {
        let mut cadical = Cadical::configured(configuration);
        if seed != 0 {
            for (name, value) in seed_options(seed) {
                assert!(cadical.solver.set(name, value), "CaDiCaL 3 takes {name}={value}");
            }
        }
        cadical
    }

    /// Also lets CaDiCaL's own writer put its binary DRAT proof in `path`
    /// (before the first clause). Only tests use it: they compare its bytes
    /// with the DRAT file hexcert writes from the trace of the same solve.
    pub fn also_trace_drat_file(&mut self, path: &std::path::Path) -> Result<(), HexError> {
        let name = path.to_str().ok_or_else(|| HexError::Usage(format!("{}: not a UTF-8 path", path.display())))?;
        if self.solver.trace_proof2(name) {
            Ok(())
        } else {
            Err(HexError::Solver(format!("cannot trace a proof to {name}")))
        }
    }

    /// A fresh solver that gives up as `stop_when` says: what a command
    /// hands its searches so that Ctrl-C ends them.
    pub fn stopping_on(flag: &Arc<AtomicBool>) -> Cadical {
        let mut cadical = Cadical::new();
        cadical.stop_when(Arc::clone(flag));
        cadical
    }

    /// Makes `solve` give up (with `HexError::Interrupted`) once `flag` is set.
    pub fn stop_when(&mut self, flag: Arc<AtomicBool>) {
        self.stop_when_any(move || flag.load(Ordering::Relaxed));
    }

    /// Makes `solve` give up once `should_stop` returns true (polled regularly).
    pub fn stop_when_any(&mut self, should_stop: impl Fn() -> bool + 'static) {
        self.solver.connect_terminator(StopWhen(Box::new(should_stop)));
    }

    /// The CaDiCaL version compiled in.
    pub fn version() -> String {
        format!("CaDiCaL {} (cadical-sys 0.8)", CaDiCal::version())
    }
}

impl Cadical {
    /// Keeps the variables of `lits` out of elimination for the solver's
    /// life, so that clauses added between calls on them never make CaDiCaL
    /// restore clauses it eliminated (a restored original is no step a
    /// checker of the trace can accept).
    pub fn freeze(&mut self, lits: impl IntoIterator<Item = i32>) {
        for lit in lits {
            self.solver.freeze(lit);
        }
    }
}

/// Solves `cnf` with `profile`'s options, tracing every proof step to
/// `trace`; `stop` is polled by the solver (Ctrl-C, a time limit).
pub fn solve_traced(
    cnf: &Cnf,
    profile: Profile,
    trace: TraceSender,
    stop: impl Fn() -> bool + 'static,
) -> Result<(Answer, f64), HexError> {
    let start = Instant::now();
    let mut solver = Cadical::with_profile(profile, Some(trace))?;
    solver.stop_when_any(stop);
    solver.add_cnf(cnf)?;
    let outcome = solver.solve()?;
    Ok((outcome, start.elapsed().as_secs_f64()))
}

impl Default for Cadical {
    fn default() -> Self {
        Cadical::new()
    }
}

impl SatSolver for Cadical {
    /// Sets the default decision phase of each literal's variable to make the
    /// literal true. Phases steer the search only: the formula, and so any
    /// UNSAT answer and its proof, is unaffected.
    fn hint_phases(&mut self, lits: &[i32]) -> Result<(), HexError> {
        for &l in lits {
            if l == 0 {
                return Err(HexError::Internal("phase hint with literal 0".into()));
            }
            self.solver.phase(l);
        }
        Ok(())
    }

    fn add_cnf(&mut self, cnf: &Cnf) -> Result<(), HexError> {
        for clause in cnf.clauses() {
            if clause.contains(&0) {
                return Err(HexError::Internal("clause with literal 0".into()));
            }
            for &lit in clause {
                self.solver.add(lit);
            }
            self.solver.add(0);
        }
        self.num_vars = self.num_vars.max(cnf.num_vars());
        Ok(())
    }

    fn solve(&mut self) -> Result<Answer, HexError> {
        match self.solver.solve() {
            Status::UNSATISFIABLE => Ok(Answer::Unsat),
            Status::SATISFIABLE => {
                let known = self.solver.vars().max(0) as u32;
                let mut model = vec![false; self.num_vars as usize + 1];
                for (v, slot) in model.iter_mut().enumerate().skip(1) {
                    // A variable the solver never saw occurs in no clause:
                    // either value satisfies the formula.
                    *slot = v as u32 <= known && self.solver.val(v as i32) > 0;
                }
                Ok(Answer::Sat(model))
            }
            Status::UNKNOWN => Err(HexError::Interrupted),
        }
    }
}
