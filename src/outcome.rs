//! What a command ended with, and the one table from that (or from the
//! error it stopped with) to its exit code. docs/CLI.md prints the table.

use crate::error::HexError;

/// How a command that ran to its end ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Done; everything it reports was verified in this run.
    Done,
    /// A negative result: an invalid grid, a claim found false (with a
    /// validated counterexample), a record that failed its check.
    Negative,
    /// Nothing failed, but something could not be verified in this run.
    Unverified,
}

impl Outcome {
    /// The exit code of a command that ended this way.
    pub const fn code(self) -> u8 {
        match self {
            Outcome::Done => 0,
            Outcome::Negative => 1,
            Outcome::Unverified => 4,
        }
    }
}

/// The exit code of a command's result: its outcome's, or its error's.
pub fn exit_code(result: Result<Outcome, &HexError>) -> u8 {
    match result {
        Ok(outcome) => outcome.code(),
        Err(HexError::Usage(_) | HexError::Input { .. } | HexError::Record { .. } | HexError::Io { .. }) => 2,
        Err(HexError::Solver(_) | HexError::Internal(_) | HexError::Rejected(_)) => 3,
        Err(HexError::Interrupted) => 130,
        Err(HexError::Open(_)) => Outcome::Unverified.code(),
        Err(HexError::Contradiction(_)) => Outcome::Negative.code(),
    }
}
