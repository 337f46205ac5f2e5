//! Exact counts of valid level-k partials by level-k penalty.
//!
//! Invariant relied on: a count is the number of valid level-k partials (cell
//! values only, not reduced by symmetry) with exactly that level-k penalty, as
//! defined by `validation` (docs/PROBLEM.md, section 4). Two independent methods produce it:
//! - `Method::Frontier` (any level): a transfer-matrix sweep over the cells
//!   in row-major order (`sweep`, `frontier::transfer`, `frontier::schedule`),
//!   pruned by the exact cost-to-finish tables of the levels below
//!   (`tables::guide`, built by `tables::reach` or `tables::reference`,
//!   stacked in a `tables::ladder`, all built for the same penalty bound;
//!   kept on disk by `tables::checkpoint`);
//! - `Method::Chains` (levels 5 and 6): the level-4 partials of penalty
//!   `<= B`, listed by the same sweep (`sweep::enumerate`), each refined by
//!   the chain-and-cycle analysis of its `+` cells (`chains`).
//!
//! A third road, `extension`, counts levels 2..6 from the partials of a
//! lower level (docs/COUNTING.md).
//!
//! Counts are `BigUint` at the interface; the sweeps count in `u128` and rerun
//! in `BigUint` if a sum would overflow (`tally`).
//!
//! Minimum search relies on monotonicity: refining a level-k partial to level
//! `k + 1` only adds penalty terms, so the level-(k+1) minimum is at least the
//! level-k minimum, and the search at level `k + 1` starts there.
//!
//! The files are grouped by what they are (docs/COUNTING.md, "The module
//! map"): `frontier` (the cell schedule and one step), `layers` (sorted runs
//! and their spills), `tables` (cost-to-finish tables: built, stored,
//! journalled, stacked), `sweep` (the counting sweep and the listing),
//! `chains` (levels 5 and 6 from level 4), `extension` (the second road:
//! levels 2..6 from the partials below), `roads` (the sweep and chains
//! roads over a ladder) and `query` (the one entry, `Count`).

mod basics;
mod chains;
mod extension;
mod frontier;
mod hashing;
mod layers;
mod query;
mod roads;
mod sweep;
mod tables;
mod tally;
mod varint;

pub use basics::{CountSettings, Layers, Upper, Via, DEFAULT_MEMORY_LIMIT, MAX_PENALTY_BOUND};
pub use chains::completion::{cheapest_completion, cheapest_labels};
pub use chains::components::{components, shape_polynomial, Shape};
pub use extension::refinements::source as extension_source;
pub use extension::{extended_from_listed, ClassCount, Extended, ExtendedByPenalty, Pieces};
pub use frontier::schedule::Schedule;
pub use query::{Count, Method, PenaltyCounts, RowEntry, SweepStats};
pub use tables::hint::start_hint;
