//! The frontier: the cell schedule every table and sweep walks (`schedule`:
//! row-major cells, the open frontier, its packed state codes) and one step
//! of the dynamic program over it (`transfer`).
//!
//! Invariant relied on: a state code names exactly the frontier's labels and
//! the values each open cell has seen, and `transfer` moves between the codes
//! of one schedule only; tables, sweeps and listings built on the same
//! schedule therefore speak of the same states.

pub(super) mod schedule;
pub(super) mod transfer;
