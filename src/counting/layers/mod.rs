//! The layers of a sweep or a table build: sorted runs of (state, count)
//! and their one range-merge (`sorted`), and the runs written to scratch
//! files when a layer passes the memory limit (`spill`).
//!
//! Invariant relied on: every run is strictly increasing in its key, so a
//! merge of runs sums each key's counts once whether the runs were held in
//! memory or read back from disk.

pub(super) mod sorted;
pub(super) mod spill;
