//! Verification: everything that judges records without a solver. The
//! stored certificates re-checked (`check`, `cube_claims`, `counts`; a cube
//! claim's cubes re-solved, several at once: `cube_proofs`), lifted
//! counts (`lift`), what a
//! plan's results directory says (`cube_status`), the statement -> CNF link
//! checked by VeriPB (`statement_to_cnf`), the judging half of regeneration
//! (`regenerate`: a proof rebuilt by whatever solver the caller hands in is
//! judged here), witnesses (`witness`), the memory budget of parallel
//! checks (`budget`), and certificates exported for outside checkers
//! (`export`).
//!
//! Nothing here names the solver: `cargo check --lib --no-default-features`
//! builds it, and tests/module_graph.rs holds that no file it imports
//! reaches `solving` or `search`. The solving side (`certify`) builds on
//! this one, so a certificate is judged by the same code on the machine
//! that proved it and on one that never solves.

pub mod budget;
pub mod check;
pub mod counts;
pub mod cube_claims;
pub mod cube_proofs;
pub mod cube_status;
pub mod export;
pub mod lift;
pub mod recount;
pub mod regenerate;
pub mod statement_to_cnf;
pub mod witness;
