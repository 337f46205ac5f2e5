//! The exact cost-to-finish tables that prune every sweep: how a sweep reads
//! one (`guide`), how one is built (on every core with spills, `reach`, its
//! finished forward layers held by `forward_layers`; the one-core
//! reference, `reference`), kept on disk (`checkpoint`), resumed mid-build
//! (`journal`), stacked for levels 1..k at one bound (`ladder`),
//! and the bound the first ones are built for (`hint`).
//!
//! Invariant relied on: a table built for bound `B` holds, for every state a
//! partial of penalty at most `B` can reach, the least penalty still to come;
//! so it serves any bound at most `B`, and a table read from disk is refused
//! unless it re-serialises to the bytes the writer makes (docs/COUNTING.md,
//! "Checkpoint tables").

pub(super) mod checkpoint;
#[cfg(test)]
mod checkpoint_fuzz;
mod forward_layers;
pub(super) mod guide;
pub(super) mod hint;
pub(super) mod journal;
pub(super) mod ladder;
pub(super) mod reach;
pub(super) mod reference;
