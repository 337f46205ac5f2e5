//! The commands: call the library, print text or one JSON document, pick
//! the exit code. `main.rs` only parses arguments and dispatches here.
//!
//! One file per family of commands; they share the helpers below.

mod counts;
mod cubes;
mod grids;
mod proofs;

pub use counts::*;
pub use cubes::*;
pub use grids::*;
pub use proofs::*;
