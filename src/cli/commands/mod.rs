//! The commands: call the library and hand back a typed report with the
//! outcome its exit code comes from (`report::Reported`); `main.rs` only
//! parses arguments, dispatches here and prints the result once.
//!
//! One file per family of commands; `report.rs` is what they share. The
//! families that solve are compiled with the cargo feature `solver` only
//! (this list, and the subcommands of `main.rs`, are where that is decided):
//! without it the binary is the verifier (check, verify, render, count and
//! table without the solver's road, encode, statement).

mod bound;
#[cfg(feature = "solver")]
mod campaign;
mod check;
mod cli_doc;
mod count_report;
// count_sat, the solver's road, is the file's one item that needs it.
#[cfg_attr(not(feature = "solver"), allow(unused_imports))]
mod counts;
#[cfg(feature = "solver")]
mod cubes;
mod formulas;
mod grids;
#[cfg(feature = "solver")]
mod proofs;
mod recount;
pub mod report;
#[cfg(feature = "solver")]
mod search;
#[cfg(feature = "solver")]
mod solve;
mod table;

pub use bound::*;
#[cfg(feature = "solver")]
pub use campaign::*;
pub use check::*;
pub use cli_doc::cli_doc;
pub use count_report::Road;
pub use counts::*;
#[cfg(feature = "solver")]
pub use cubes::*;
pub use formulas::*;
pub use grids::*;
#[cfg(feature = "solver")]
pub use proofs::*;
pub use recount::*;
#[cfg(feature = "solver")]
pub use search::*;
#[cfg(feature = "solver")]
pub use solve::*;
pub use table::*;
