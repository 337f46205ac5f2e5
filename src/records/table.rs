//! The record of a computed count table (`counts/table.json`): each
//! level's minimum and its count for a range of sides, as `hexcert table
//! counts --record FILE` computed them with the frontier sweep (levels 5
//! and 6 by the chains or the lift). A computation, not a certificate: it
//! is what `hexcert table results` prints for the sides no listing holds,
//! and `table counts` over the same sides computes it again.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::claim::BuildRecord;
use super::ranges::{build_in_range, edges_of, penalty_in_range, seconds_in_range};
use crate::error::HexError;
use crate::levels::FULL_LEVEL;

/// Format tag of a count table's record.
pub const COUNT_TABLE_FORMAT: &str = "hexcert-count-table/1";

/// One run of `table counts`, its rows as computed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountTable {
    pub format: String,
    /// The command that computed it, as a reader would type it again.
    pub command: String,
    /// How levels 5 and 6 were counted (`chains`, `lift`).
    pub upper: String,
    pub rows: Vec<CountRow>,
    /// Wall seconds of the whole run.
    pub seconds: f64,
    /// Checkpoint tables the run loaded instead of building (`--checkpoints`):
    /// their counts are an earlier run's tables, checked by hash only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables_loaded: Vec<String>,
    pub hexcert: BuildRecord,
    #[serde(deserialize_with = "crate::records::ledger::writer")]
    pub written_by: String,
}

/// One side: level 1..6's minimum penalty and the partials reaching it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountRow {
    pub n: usize,
    pub minima: Vec<usize>,
    /// In decimal (past 64 bits from n = 10 on).
    pub counts: Vec<String>,
}

impl CountTable {
    /// Reads the record at `path`, its numbers judged as it is read.
    ///
    /// # Errors
    ///
    /// `HexError::Io` or `HexError::Record` when `path` cannot be read as a
    /// count table; then `check_read`'s.
    pub fn read(path: &Path) -> Result<CountTable, HexError> {
        super::read::read_json(path)
    }

    /// Writes the record whole or not at all.
    ///
    /// # Errors
    ///
    /// `HexError::Io` when the file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), HexError> {
        crate::files::write_atomic(path, &serde_json::to_vec_pretty(self).expect("records serialise"))
    }

    /// The row of side `n`, if the table has one.
    pub fn row(&self, n: usize) -> Option<&CountRow> {
        self.rows.iter().find(|r| r.n == n)
    }
}

/// The format is this one, each row a side with six minima that never
/// decrease (refining never lowers a penalty), each within the side's
/// edges, and six decimal counts; the sides increase; the build and
/// the seconds are in range.
///
/// # Errors
///
/// `HexError::Record` (`RecordError::UnknownFormat`, `RecordError::Header`)
/// for another format or a row that breaks the above; `HexError::Input`
/// for a number out of range.
impl super::read::Checked for CountTable {
    fn check_read(&self, origin: &Path) -> Result<(), HexError> {
        use crate::error::RecordError;
        if self.format != COUNT_TABLE_FORMAT {
            return Err(RecordError::UnknownFormat(self.format.clone()).at(origin));
        }
        let bad = |why: String| Err(RecordError::Header(why).at(origin));
        if self.rows.windows(2).any(|w| w[0].n >= w[1].n) {
            return bad("the rows' sides do not increase".into());
        }
        for row in &self.rows {
            let edges = edges_of(row.n, origin)?;
            let six = usize::from(FULL_LEVEL);
            if row.minima.len() != six || row.counts.len() != six {
                return bad(format!("n = {}: not {six} minima and {six} counts", row.n));
            }
            if row.minima.windows(2).any(|w| w[0] > w[1]) {
                return bad(format!("n = {}: minima {:?} decrease", row.n, row.minima));
            }
            for &minimum in &row.minima {
                penalty_in_range("a minimum", minimum, edges, origin)?;
            }
            if let Some(count) = row.counts.iter().find(|c| c.is_empty() || !c.bytes().all(|b| b.is_ascii_digit())) {
                return bad(format!("n = {}: count {count:?} is not a decimal number", row.n));
            }
        }
        build_in_range((&self.hexcert.version, &self.hexcert.git_commit), origin)?;
        seconds_in_range("seconds", self.seconds, origin)
    }
}
