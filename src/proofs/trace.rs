//! A clausal proof in flight: batches of steps (original clauses, derived
//! clauses with their LRAT hints, deletions) passed from a solver's tracer
//! to whoever checks and stores the proof.
//!
//! This is a data format, not solver code: the solver side fills batches
//! (`solving::tracer`), the checking side (`online`) reads them, and neither
//! sees the other. Steps keep the solver's order within and across batches.

use std::sync::mpsc::SyncSender;

/// Where a tracer sends its batches.
pub type TraceSender = SyncSender<Batch>;

pub const ORIGINAL: i32 = 0;
pub const DERIVED: i32 = 1;
pub const DELETED: i32 = 2;
/// A batch is sent once it holds this many literals and kinds.
pub const BATCH_INTS: usize = 1 << 20;

/// A batch of steps: `ints` holds, per step, its kind, its literal count and
/// its literals (then, for derived clauses, the hint count); `ids` holds its
/// clause id (then, for derived clauses, its hints).
#[derive(Debug, Default)]
pub struct Batch {
    ints: Vec<i32>,
    ids: Vec<i64>,
}

/// One step of the proof, borrowed from its batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofStep<'a> {
    Original { id: u64, lits: &'a [i32] },
    Derived { id: u64, lits: &'a [i32], hints: &'a [i64] },
    Deleted { id: u64, lits: &'a [i32] },
}

impl Batch {
    /// Appends an original clause or a deletion (`kind` ORIGINAL or DELETED).
    pub fn push(&mut self, kind: i32, id: i64, lits: &[i32]) {
        self.ints.push(kind);
        self.ints.push(lits.len() as i32);
        self.ints.extend_from_slice(lits);
        self.ids.push(id);
    }

    /// Calls `visit` on each step in order; stops at the first error.
    pub fn for_each<E>(&self, mut visit: impl FnMut(ProofStep) -> Result<(), E>) -> Result<(), E> {
        let (mut i, mut j) = (0, 0);
        while i < self.ints.len() {
            let kind = self.ints[i];
            let count = self.ints[i + 1] as usize;
            let lits = &self.ints[i + 2..i + 2 + count];
            let id = self.ids[j] as u64;
            i += 2 + count;
            j += 1;
            let step = match kind {
                ORIGINAL => ProofStep::Original { id, lits },
                DELETED => ProofStep::Deleted { id, lits },
                _ => {
                    let hints = self.ints[i] as usize;
                    i += 1;
                    let hints_slice = &self.ids[j..j + hints];
                    j += hints;
                    ProofStep::Derived { id, lits, hints: hints_slice }
                }
            };
            visit(step)?;
        }
        Ok(())
    }

    /// Appends a derived clause with its hints.
    pub fn push_derived(&mut self, id: i64, lits: &[i32], hints: &[i64]) {
        self.push(DERIVED, id, lits);
        self.ints.push(hints.len() as i32);
        self.ids.extend_from_slice(hints);
    }

    /// Literals and kinds held (the measure of a full batch).
    pub fn len(&self) -> usize {
        self.ints.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ints.is_empty()
    }
}
