//! The record of a lifted count (`lift.json`): levels 4..6 at a certified
//! level-3 listing's penalty, counted by the lift over the listing's
//! partials (`count --road extension --from-listing DIR --record-to CELL`).
//! A computation on certified inputs, not a certificate: `check` judges the
//! listing it names and, with `--regenerate`, counts the lift again.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::AtPath;
use crate::error::HexError;

/// Format tag of a lifted count's record.
pub const LIFT_FORMAT: &str = "hexcert-lift/1";

/// One lifted cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LiftRecord {
    pub format: String,
    pub n: usize,
    /// 4, 5 or 6.
    pub level: u8,
    /// The listing's penalty: the level-3 (or 4) minimum, at or below this
    /// level's, or the bound of a listing past it (every partial up to it).
    pub penalty: usize,
    /// The listing's directory (its `count.json` and cube records), relative
    /// to this record's directory.
    pub listing: String,
    /// The listing's count, as its record states it when the lift ran.
    pub listing_count: String,
    /// How levels 5 and 6 were counted (`lift`, `chains`); `lift` at level 4.
    pub via: String,
    /// Symmetry classes of the listing's partials that were lifted.
    pub classes: usize,
    /// The partials of this level of penalty exactly `penalty`, in decimal.
    pub count: String,
    /// Seconds of the run that lifted it.
    pub seconds: f64,
    #[serde(deserialize_with = "crate::records::ledger::writer")]
    pub written_by: String,
}

impl LiftRecord {
    /// Writes the record as `cell/lift.json`, whole or not at all.
    ///
    /// # Errors
    ///
    /// `HexError::Io` when `cell` cannot be created or the file written.
    pub fn write_into(&self, cell: &Path) -> Result<(), HexError> {
        std::fs::create_dir_all(cell).at_path(cell)?;
        crate::files::write_atomic(
            &cell.join("lift.json"),
            &serde_json::to_vec_pretty(self).expect("records serialise"),
        )
    }

    /// The name of the directory the record lives in: the cell of the
    /// level's count at its minimum, `n<N>-level<K>-penalty<P>` (a lift is
    /// only ever of a minimum).
    pub fn cell(&self) -> String {
        super::leaders::count_cell(self.n, self.level, self.penalty, None)
    }

    /// The numbers every line `check` says of the record begins with.
    pub fn label(&self) -> String {
        format!("n = {}, level {}, penalty {}", self.n, self.level, self.penalty)
    }

    /// The record at `path` lies in the directory its numbers name.
    ///
    /// # Errors
    ///
    /// `HexError::Input` naming `path` when it does not
    /// (`ranges::check_cell_directory`).
    pub fn check_cell(&self, path: &Path) -> Result<(), HexError> {
        let what = format!("the lifted count of n = {} level {} at {}", self.n, self.level, self.penalty);
        super::ranges::check_cell_directory(path, &self.cell(), &what)
    }
}

/// The numbers, judged when the record is read (the lift builds the
/// side's grid from them).
///
/// # Errors
///
/// `HexError::Input` naming `origin` when n is not a hexagon side, the
/// level is outside 4..=6, the penalty exceeds the side's edges, `via`
/// names no way of counting this level (`chains` counts levels 5 and 6
/// only: at level 4 the lift ran) or `seconds` is no duration.
impl super::read::Checked for LiftRecord {
    fn check_read(&self, origin: &Path) -> Result<(), HexError> {
        use super::ranges::{edges_of, penalty_in_range, seconds_in_range};
        let edges = edges_of(self.n, origin)?;
        let ways: &[&str] = if self.level == 4 { &["lift"] } else { &["lift", "chains"] };
        if !ways.contains(&self.via.as_str()) {
            return Err(HexError::Input {
                file: origin.to_path_buf(),
                line: 0,
                message: format!("via {:?}: level {} is counted by {}", self.via, self.level, ways.join(" or ")),
            });
        }
        seconds_in_range("seconds", self.seconds, origin)?;
        if !(4..=6).contains(&self.level) {
            return Err(HexError::Input {
                file: origin.to_path_buf(),
                line: 0,
                message: format!("level {}: a lift reaches levels 4 to 6", self.level),
            });
        }
        penalty_in_range("penalty", self.penalty, edges, origin)
    }
}
