//! Two records beside a lifted count's `lift.json`: `classes.json`, the
//! lift's count of each class (so one class can be checked alone), and
//! `recount.json`, the classes a second road (`hexcert recount`: an exact
//! model counter on a plain CNF of one class's refinements) counted again.
//! `check` holds the first to the lift's record and the second to the first.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::read::Checked;
use crate::error::{HexError, RecordError};

/// Format tag of a lift's classes.
pub const CLASSES_FORMAT: &str = "hexcert-lift-classes/1";

/// Format tag of a recount.
pub const RECOUNT_FORMAT: &str = "hexcert-recount/1";

/// The CNF a recount counts (`recount::cnf`); a new encoding is a new tag.
pub const RECOUNT_ENCODING: &str = "hexcert-refinements-cnf/1";

/// The lift's classes, in the order of their least members' values: four
/// columns of one row per class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LiftClasses {
    pub format: String,
    pub n: usize,
    pub level: u8,
    pub penalty: usize,
    /// Each class's least member, as its index among the listing's partials
    /// in the order `verify::counts::listed_partials` reads them.
    pub leaders: Vec<usize>,
    /// The members of each class.
    pub members: Vec<u32>,
    /// The level-3 penalty of each class's partials.
    pub penalties: Vec<usize>,
    /// The refinements of each class's least member at `penalty`, in decimal.
    pub counts: Vec<String>,
}

/// What a recount counted: some of the lift's classes (by their row in
/// `classes.json`), each with the counter's count and seconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecountRecord {
    pub format: String,
    pub n: usize,
    pub level: u8,
    pub penalty: usize,
    /// `RECOUNT_ENCODING`: the CNF the counter was given.
    pub encoding: String,
    /// The counter, as it names itself (`pyganak 2.9.0`).
    pub counter: String,
    /// `None`: every class is to be recounted. `Some`: every class the lift
    /// counts some refinement of, and `sample` of the others, drawn by
    /// `seed` (`recount::chosen`).
    pub seed: Option<u64>,
    pub sample: Option<usize>,
    /// The classes recounted so far (rows of `classes.json`), their counts
    /// in decimal and their seconds.
    pub rows: Vec<usize>,
    pub counts: Vec<String>,
    pub seconds: Vec<f64>,
    /// Classes known to count nothing without the counter (rows of
    /// `classes.json`, increasing, none among `rows`): the recount of the
    /// level below at the same penalty, beside this cell, counted them
    /// nothing (`zero_rows`), and a refinement at this level coarsens to
    /// one at the level below of no more penalty (docs/PROBLEM.md,
    /// section 4), of no less when no partial of that level lies below the
    /// penalty; so a class with none there has none here. Empty at level 4.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refined: Vec<usize>,
    #[serde(deserialize_with = "crate::records::ledger::writer")]
    pub written_by: String,
}

/// Writes `value` as `cell/name`, whole or not at all (one line of JSON:
/// the columns run to tens of thousands of rows).
///
/// # Errors
///
/// `HexError::Io` when the file cannot be written.
pub fn write_into<T: Serialize>(value: &T, cell: &Path, name: &str) -> Result<(), HexError> {
    crate::files::write_atomic(&cell.join(name), &serde_json::to_vec(value).expect("records serialise"))
}

impl LiftClasses {
    /// The file name beside `lift.json`.
    pub const FILE: &'static str = "classes.json";
}

impl RecountRecord {
    /// The file name beside `lift.json`.
    pub const FILE: &'static str = "recount.json";
}

impl RecountRecord {
    /// The classes this recount knows to count nothing: those the counter
    /// counted nothing, and those refined from the level below.
    pub fn zero_rows(&self) -> std::collections::HashSet<usize> {
        let counted = self.rows.iter().zip(&self.counts).filter(|(_, count)| *count == "0").map(|(&row, _)| row);
        counted.chain(self.refined.iter().copied()).collect()
    }
}

/// The cell beside `cell` that holds the lift of the level below
/// `level`, at the same side and penalty: where a recount at `level` finds
/// the classes it need not count (`RecountRecord::refined`).
pub fn cell_below(cell: &Path, n: usize, level: u8, penalty: usize) -> std::path::PathBuf {
    let name = crate::records::leaders::count_cell(n, level - 1, penalty, None);
    cell.parent().unwrap_or(Path::new(".")).join(name)
}

fn bad(origin: &Path, message: &str) -> HexError {
    HexError::Input { file: origin.into(), line: 0, message: message.into() }
}

/// Its format, and four columns of one length. (That they are the lift's
/// classes is judged against the lift: `verify::recount`.)
///
/// # Errors
///
/// `HexError::Record` (`RecordError::UnknownFormat`) for another format;
/// `HexError::Input` when the columns differ in length.
impl Checked for LiftClasses {
    fn check_read(&self, origin: &Path) -> Result<(), HexError> {
        if self.format != CLASSES_FORMAT {
            return Err(RecordError::UnknownFormat(self.format.clone()).at(origin));
        }
        let rows = self.leaders.len();
        if [self.members.len(), self.penalties.len(), self.counts.len()].iter().any(|&l| l != rows) {
            return Err(bad(origin, "its columns are not of one length"));
        }
        Ok(())
    }
}

/// Its format and encoding, increasing rows, columns of one length, a
/// sample with its seed, every time a duration, the counter one line.
/// (That its rows are those the classes draw, counted as the lift counts
/// them, is judged against the classes: `verify::recount`.)
///
/// # Errors
///
/// `HexError::Record` (`RecordError::UnknownFormat`) for another format or
/// encoding; `HexError::Input` naming the first field out of range.
impl Checked for RecountRecord {
    fn check_read(&self, origin: &Path) -> Result<(), HexError> {
        for (tag, this) in [(RECOUNT_FORMAT, &self.format), (RECOUNT_ENCODING, &self.encoding)] {
            if this != tag {
                return Err(RecordError::UnknownFormat(this.clone()).at(origin));
            }
        }
        let done = self.rows.len();
        if self.counts.len() != done || self.seconds.len() != done || self.rows.windows(2).any(|w| w[0] >= w[1]) {
            return Err(bad(origin, "its rows are not increasing, or its columns not of one length"));
        }
        let counted: std::collections::HashSet<usize> = self.rows.iter().copied().collect();
        if self.refined.windows(2).any(|w| w[0] >= w[1]) || self.refined.iter().any(|row| counted.contains(row)) {
            return Err(bad(origin, "its refined rows are not increasing, or counted too"));
        }
        if self.sample.is_some() != self.seed.is_some() {
            return Err(bad(origin, "a sample needs its seed, and a seed its sample"));
        }
        for &seconds in &self.seconds {
            super::ranges::seconds_in_range("seconds", seconds, origin)?;
        }
        super::ranges::name_in_range("counter", &self.counter, origin)
    }
}
