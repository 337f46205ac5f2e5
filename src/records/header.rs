//! The statement every claim, cube claim and plan carries:
//! `{format, statement, n, level, below}`, and its one consistency check.
//!
//! The three record types keep these fields on disk as they always did (the
//! committed certificates must keep reading); `Header` borrows them, so the
//! check is written once and a record cannot state one thing in `statement`
//! and another in its numbers.

use std::path::Path;

use super::ranges::check_statement_numbers;
use crate::error::HexError;
use crate::error::RecordError;

/// The statement part of a record, borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header<'a> {
    pub format: &'a str,
    pub statement: &'a str,
    pub n: usize,
    pub level: u8,
    pub below: usize,
}

/// The sentence a claim proves.
pub fn statement_for(n: usize, level: u8, below: usize) -> String {
    format!("no valid level-{level} partial of the side-{n} hexagon has penalty below {below}")
}

impl Header<'_> {
    /// The format is `format`, the numbers are in range (before anything
    /// reaches the encoder) and the sentence is the one they make.
    ///
    /// # Errors
    ///
    /// `HexError::Record` (`RecordError::UnknownFormat`) when the format is not
    /// `format`; `HexError::Input` when n is not a hexagon side, the level is
    /// outside 1..=6 or `below` outside 1..=edges+1; `HexError::Record`
    /// (`RecordError::Header`) when the statement is not the sentence of the
    /// numbers (`statement_for`).
    pub fn check(&self, format: &str, origin: &Path) -> Result<(), HexError> {
        if self.format != format {
            return Err(RecordError::UnknownFormat(self.format.to_string()).at(origin));
        }
        check_statement_numbers(self.n, self.level, self.below, origin)?;
        if self.statement != statement_for(self.n, self.level, self.below) {
            return Err(RecordError::Header("statement does not match n, level and bound".into()).at(origin));
        }
        Ok(())
    }

    /// Both state the same claim (a cube claim and its plan).
    pub fn same_claim(&self, other: &Header<'_>) -> bool {
        (self.n, self.level, self.below) == (other.n, other.level, other.below)
    }
}

/// A record that states a claim.
pub trait Stated {
    fn header(&self) -> Header<'_>;
}
