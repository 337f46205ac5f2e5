//! `hexcert certify`: the optimum of a side-n hexagon, with a witness grid
//! the engine found itself and a checked lower-bound certificate.
//!
//! The levels are minimised in turn (each from the bound of the one below).
//! Every bounded query races the plain formula against the symmetry-broken
//! one; every UNSAT answer becomes a checked certificate (so each level's
//! minimum is certified, not only the optimum's), checked on the verifier
//! thread while the search goes on. A rerun resumes from the certificates on
//! disk and from `.resume/` (see `resume`), each re-checked before it is
//! used; it skips an n whose `optimum.json` exists and verifies.

mod grid;
mod oracle;
mod record;
mod report;

pub use grid::certify_from_grid;
pub use oracle::{certify_optimum, certify_optimum_queued, OnReport};
pub use report::OptimumReport;
