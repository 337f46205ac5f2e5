//! CaDiCaL's proof, as a stream of clause steps with their antecedents
//! (the batches of `proofs::trace`).
//!
//! The tracer runs inside the solver's thread and must cost little: it only
//! copies each step into a flat batch and hands full batches to whoever
//! checks and stores the proof, on another thread, through a bounded channel
//! (a slow consumer holds the solver back rather than letting memory grow).
//! Batches arrive in the solver's order, and the stream ends when the solver
//! (and with it the tracer, which flushes its last batch) is dropped.
//!
//! Only the three steps that make up a clausal proof are kept: original
//! clauses (so a consumer can confirm the solver refutes the formula it was
//! meant to), derived clauses with their LRAT hints, and deletions. Like
//! CaDiCaL's own DRAT and LRAT writers, the tracer ignores clauses moved to
//! the reconstruction stack (`weaken_minus`): they stay alive in the proof.

use crate::proofs::trace::{Batch, TraceSender, BATCH_INTS, DELETED, ORIGINAL};

/// The `cadical_sys::ProofTracer` that fills batches.
pub(super) struct Tracer {
    batch: Batch,
    send: Option<TraceSender>,
}

impl Tracer {
    pub(super) fn new(send: TraceSender) -> Tracer {
        Tracer { batch: Batch::default(), send: Some(send) }
    }

    fn sent_if_full(&mut self) {
        if self.batch.len() >= BATCH_INTS {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        let full = std::mem::take(&mut self.batch);
        if let Some(send) = &self.send {
            // A consumer that hung up has given up on this proof (the solve
            // was abandoned); the solver just goes on without it.
            if send.send(full).is_err() {
                self.send = None;
            }
        }
    }
}

impl Drop for Tracer {
    fn drop(&mut self) {
        self.flush();
    }
}

impl cadical_sys::ProofTracer for Tracer {
    fn add_original_clause(&mut self, id: i64, _redundant: bool, clause: &[i32], _restored: bool) {
        self.batch.push(ORIGINAL, id, clause);
        self.sent_if_full();
    }

    fn add_derived_clause(&mut self, id: i64, _redundant: bool, _witness: i32, clause: &[i32], antecedents: &[i64]) {
        self.batch.push_derived(id, clause, antecedents);
        self.sent_if_full();
    }

    fn delete_clause(&mut self, id: i64, _redundant: bool, clause: &[i32]) {
        self.batch.push(DELETED, id, clause);
        self.sent_if_full();
    }

    super::ignore_other_steps!();
}
