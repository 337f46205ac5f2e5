//! Two formulations of one claim raced on the two cores.
//!
//! Symmetry breaking speeds up refutation but slows down the search for a
//! model; the plain formula is the reverse. Racing them gives each answer at
//! the speed of the better formulation. Both formulas mean the same thing for
//! satisfiability (the lex-leader argument in `encoding::symmetry`), so
//! whichever answers first answers for both. An entrant may trace its proof
//! (`tracer`); the trace of an entrant that was stopped ends without the
//! empty clause, so its consumer rejects it (only a winner's trace is whole).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use super::{Answer, Cadical, SatSolver, TraceSender};
use crate::encoding::LevelEncoding;
use crate::error::HexError;

/// One formulation in a race.
pub struct Entrant<'a> {
    pub encoding: &'a LevelEncoding,
    /// Where to send the proof trace, if anywhere.
    pub trace: Option<TraceSender>,
    /// Phase hints (literals to prefer).
    pub phases: Vec<i32>,
}

/// The first answer of a race.
pub struct Finish {
    /// Index of the entrant that answered.
    pub winner: usize,
    pub outcome: Answer,
    pub seconds: f64,
}

/// Runs every entrant on its own thread; returns the first answer and stops
/// the rest. `abort` (e.g. set by Ctrl-C) stops everyone and yields `Interrupted`.
pub fn race(entrants: Vec<Entrant>, abort: &Arc<AtomicBool>) -> Result<Finish, HexError> {
    let start = Instant::now();
    let done = Arc::new(AtomicBool::new(false));
    let (send, receive) = mpsc::channel();
    std::thread::scope(|scope| {
        for (index, entrant) in entrants.into_iter().enumerate() {
            let (send, done, abort) = (send.clone(), done.clone(), abort.clone());
            scope.spawn(move || {
                let result = run_entrant(entrant, &done, &abort);
                let _ = send.send((index, result));
            });
        }
        drop(send);
        let mut first_error = None;
        for (winner, result) in receive.iter() {
            match result {
                Ok(outcome) => {
                    done.store(true, Ordering::Relaxed);
                    return Ok(Finish { winner, outcome, seconds: start.elapsed().as_secs_f64() });
                }
                Err(HexError::Interrupted) => {}
                Err(e) => {
                    done.store(true, Ordering::Relaxed);
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(first_error.unwrap_or(HexError::Interrupted))
    })
}

fn run_entrant(entrant: Entrant, done: &Arc<AtomicBool>, abort: &Arc<AtomicBool>) -> Result<Answer, HexError> {
    // The profile of new proofs: `prove` records it as the claim's options.
    let mut solver = Cadical::with_profile(super::profile::CURRENT, entrant.trace)?;
    let (done, abort) = (done.clone(), abort.clone());
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = stop.clone();
    solver.stop_when_any(move || {
        done.load(Ordering::Relaxed) || abort.load(Ordering::Relaxed) || watcher.load(Ordering::Relaxed)
    });
    solver.add_cnf(&entrant.encoding.cnf)?;
    solver.hint_phases(&entrant.phases)?;
    let outcome = solver.solve();
    // Dropping the solver ends its proof trace.
    drop(solver);
    outcome
}
