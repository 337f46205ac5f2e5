//! Checking refutations on a second thread while the search goes on.
//!
//! A DRAT check costs about as much as the solve that produced the proof
//! (n=11 level 2: 695 s solve, 602 s `rate`). Run in line, every check
//! stalls the search; here the search hands each refutation to a worker and
//! moves on, so a check overlaps with the next queries (and with the next n
//! of a `certify` range).
//!
//! Soundness does not depend on the overlap. A refutation answers its query
//! at once, but nothing is written under `proofs/` before the checker said
//! `s VERIFIED` (`certify_refutation`), and an `optimum.json` is written by a
//! task queued after the checks of its claims. Tasks run one at a time in
//! submission order (one worker, one FIFO queue), so when that task runs the
//! earlier checks have finished; after the first failure every later task is
//! skipped, so no optimum is recorded on top of a rejected proof.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use crate::error::HexError;

/// Work for the verifier thread.
pub type Task = Box<dyn FnOnce() -> Result<(), HexError> + Send>;

#[derive(Default)]
struct State {
    pending: usize,
    failure: Option<HexError>,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

/// A FIFO queue of tasks run on one background thread.
pub struct Verifier {
    queue: Option<Sender<Task>>,
    worker: Option<JoinHandle<()>>,
    shared: Arc<Shared>,
}

impl Verifier {
    /// Once `abort` is set (Ctrl-C), queued tasks are dropped unrun.
    pub fn start(abort: Arc<AtomicBool>) -> Verifier {
        let (queue, tasks) = channel::<Task>();
        let shared = Arc::new(Shared::default());
        let worker_shared = Arc::clone(&shared);
        let worker = std::thread::spawn(move || {
            for task in tasks {
                let failed_before = worker_shared.state.lock().expect("verifier state").failure.is_some();
                let outcome = if failed_before {
                    Ok(())
                } else if abort.load(Ordering::Relaxed) {
                    Err(HexError::Interrupted)
                } else {
                    task()
                };
                let mut state = worker_shared.state.lock().expect("verifier state");
                if let Err(error) = outcome {
                    state.failure.get_or_insert(error);
                }
                state.pending -= 1;
                worker_shared.changed.notify_all();
            }
        });
        Verifier { queue: Some(queue), worker: Some(worker), shared }
    }

    /// Queues `task` behind every task submitted before it.
    pub fn submit(&self, task: Task) {
        self.shared.state.lock().expect("verifier state").pending += 1;
        self.queue.as_ref().expect("open until finish").send(task).expect("the worker outlives the queue");
    }

    /// Tasks submitted and not yet finished.
    pub fn pending(&self) -> usize {
        self.shared.state.lock().expect("verifier state").pending
    }

    /// The first failure so far, as a message (the error itself is kept for `finish`).
    pub fn failure(&self) -> Option<String> {
        self.shared.state.lock().expect("verifier state").failure.as_ref().map(|e| e.to_string())
    }

    /// Blocks until every submitted task has run.
    pub fn wait(&self) {
        let mut state = self.shared.state.lock().expect("verifier state");
        while state.pending > 0 {
            state = self.shared.changed.wait(state).expect("verifier state");
        }
    }

    /// Runs the queue dry, stops the thread, and returns the first failure.
    pub fn finish(mut self) -> Result<(), HexError> {
        self.stop();
        match self.shared.state.lock().expect("verifier state").failure.take() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// Finishes after the search stopped with `error`: the verifier's own
    /// failure, when it had one, is what went wrong (the search's "an earlier
    /// certificate failed" only points at it, and would make a full disk an
    /// internal error); otherwise `error`.
    pub fn finish_after(self, error: HexError) -> HexError {
        self.finish().err().unwrap_or(error)
    }

    fn stop(&mut self) {
        drop(self.queue.take());
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

impl Drop for Verifier {
    /// Also on errors and Ctrl-C: a running check ends (the checker sees the
    /// interrupt too, and `certify_refutation` then stores nothing).
    fn drop(&mut self) {
        self.stop();
    }
}
