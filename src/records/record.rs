//! The one `Record` enum every command dispatches on, tagged on `format`
//! and read once through the bounded reader (`read`).

use std::path::Path;

use serde::Deserialize;

use super::claim::{Claim, CLAIM_FORMAT};
use super::cube::{CubeClaim, CubeResult, CUBE_CLAIM_FORMAT, RESULT_FORMAT};
use super::optimum::{Optimum, OPTIMUM_FORMAT};
use super::read::{parse_json, read_bounded, Checked, MAX_RECORD_BYTES};
use crate::error::HexError;
use crate::error::RecordError;

/// Format tag of the claims of the earlier pipeline (CaDiCaL 2.2.1, DRAT
/// checked by rate): read for their statement only, never verified.
pub const LEGACY_CLAIM_FORMAT: &str = "hexcert-claim/1";

/// The statement of a legacy claim: all this build reads of it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct LegacyClaim {
    pub statement: String,
    pub n: usize,
    pub level: u8,
    pub below: usize,
}

/// Any record hexcert judges, by its `format`.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    Claim(Box<Claim>),
    CubeClaim(Box<CubeClaim>),
    Legacy(LegacyClaim),
    Optimum(Box<Optimum>),
    CubeResult(Box<CubeResult>),
    Count(Box<super::leaders::CountRecord>),
    Lift(Box<super::lift::LiftRecord>),
}

/// The numbers of the statement a legacy claim makes are in range.
impl Checked for LegacyClaim {
    fn check_read(&self, origin: &Path) -> Result<(), HexError> {
        super::ranges::check_statement_numbers(self.n, self.level, self.below, origin)
    }
}

#[derive(Deserialize)]
struct Tag {
    format: String,
}

impl Checked for Tag {}

impl Record {
    /// Reads `path` once and parses it as the record its `format` names.
    ///
    /// # Errors
    ///
    /// `HexError::Io` when `path` cannot be read; `HexError::Record`
    /// (`RecordError::NotRegularFile`, `RecordError::TooLarge`) when it is not
    /// a regular file or is over `MAX_RECORD_BYTES`; then `parse`'s errors.
    pub fn read(path: &Path) -> Result<Record, HexError> {
        Record::parse(&read_bounded(path, MAX_RECORD_BYTES, "record")?, path)
    }

    /// Parses bytes read from `path`.
    ///
    /// # Errors
    ///
    /// `HexError::Record` with `RecordError::Malformed` when the bytes are not
    /// JSON with a string `format`, or not of the shape that format names;
    /// `RecordError::UnknownFormat` for a format this build does not read;
    /// then the record type's own judgement of its fields (`read::Checked`):
    /// a record that parses is in range.
    pub fn parse(bytes: &[u8], path: &Path) -> Result<Record, HexError> {
        let tag: Tag = parse_json(bytes, path)?;
        Ok(match tag.format.as_str() {
            CLAIM_FORMAT => Record::Claim(Box::new(parse_json(bytes, path)?)),
            CUBE_CLAIM_FORMAT => Record::CubeClaim(Box::new(parse_json(bytes, path)?)),
            LEGACY_CLAIM_FORMAT => Record::Legacy(parse_json(bytes, path)?),
            OPTIMUM_FORMAT => Record::Optimum(Box::new(parse_json(bytes, path)?)),
            RESULT_FORMAT => Record::CubeResult(Box::new(parse_json(bytes, path)?)),
            super::leaders::COUNT_FORMAT => Record::Count(Box::new(parse_json(bytes, path)?)),
            super::lift::LIFT_FORMAT => Record::Lift(Box::new(parse_json(bytes, path)?)),
            other => return Err(RecordError::UnknownFormat(other.to_string()).at(path)),
        })
    }

    /// What every report line of a count's check begins with: its n, level
    /// and penalty (`None` for a record that is no count).
    pub fn count_label(&self) -> Option<String> {
        match self {
            Record::Count(c) => Some(c.label()),
            Record::Lift(l) => Some(l.label()),
            _ => None,
        }
    }

    /// `(n, level, below, statement)` of a record that states a claim.
    pub fn claim_numbers(&self) -> Option<(usize, u8, usize, &str)> {
        match self {
            Record::Claim(c) => Some((c.n, c.level, c.below, &c.statement)),
            Record::CubeClaim(c) => Some((c.n, c.level, c.below, &c.statement)),
            Record::Legacy(c) => Some((c.n, c.level, c.below, &c.statement)),
            Record::Optimum(_) | Record::CubeResult(_) | Record::Count(_) | Record::Lift(_) => None,
        }
    }
}
