//! The commands: call the library and hand back a typed report with the
//! outcome its exit code comes from (`report::Reported`); `main.rs` only
//! parses arguments, dispatches here and prints the result once.
//!
//! One file per family of commands; `report.rs` is what they share.

mod campaign;
mod counts;
mod cubes;
mod formulas;
mod grids;
mod proofs;
pub mod report;
mod search;

pub use campaign::*;
pub use counts::*;
pub use cubes::*;
pub use formulas::*;
pub use grids::*;
pub use proofs::*;
pub use search::*;
