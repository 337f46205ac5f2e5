//! `optimum.json`: "the minimum penalty of the side-n hexagon is B", the
//! witness grid and the lower-bound claim it rests on, and the range checks
//! of its numbers.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::claim::{one_line, BuildRecord};
use super::ranges::{build_in_range, edges_of, level_in_range, penalty_in_range, seconds_in_range};
use crate::error::HexError;
use crate::levels::FULL_LEVEL;

/// Format tag of `optimum.json`.
pub const OPTIMUM_FORMAT: &str = "hexcert-optimum/1";

/// "The minimum penalty of the side-n hexagon is B": a witness grid and the
/// lower-bound claim.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Optimum {
    pub format: String,
    pub n: usize,
    pub optimum: usize,
    /// Witness grid file (hexcert format) beside this record, and its hash.
    pub witness: String,
    pub witness_sha256: String,
    /// Certificate directory of the lower bound, relative to this record.
    pub lower_bound: String,
    /// Lowest level whose minimum already equals the optimum.
    pub lower_bound_level: u8,
    /// Minimum penalty found at each level 1..=6 on the way (the witness of
    /// each is validated; only the final lower bound is certified).
    pub level_minima: Vec<usize>,
    pub seconds: f64,
    pub hexcert: BuildRecord,
    /// The claims (`level<K>-below<B>`) the search relied on without
    /// checking them in its run: cube claims with attested cubes. Absent
    /// when every claim was checked; `check` judges the claim either way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attested: Option<Vec<String>>,
    /// Where the witness grid came from. Absent in records written before
    /// grids could be given (`certify --witness`): certify's own search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness_source: Option<WitnessSource>,
    /// Levels (below `lower_bound_level`) whose `level_minima` entry is only
    /// proved from below: no witness of that level known to the writer
    /// reaches it, so the minimum is at least the entry. Absent: every entry
    /// was reached (by the search, a level witness or the grid).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unreached: Option<Vec<u8>>,
}

/// The grid an optimum rests on, as it was given: `witness.txt` is that
/// grid rewritten in hexcert's format, so the file's own hash is kept too.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WitnessSource {
    /// `certify` (its own search found the grid), `grid file` (hexcert
    /// format) or `published file` (the published format).
    pub kind: String,
    /// The file as named to `certify --witness`, and its SHA-256.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// The file's `#` lines: for an engine-found grid, the search
    /// restrictions that found it (restrictions, not claims).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
}

impl WitnessSource {
    pub const SEARCH: &'static str = "certify";
    pub const GRID_FILE: &'static str = "grid file";
    pub const PUBLISHED: &'static str = "published file";

    /// Certify's own search found the grid.
    pub fn search() -> WitnessSource {
        WitnessSource { kind: WitnessSource::SEARCH.into(), path: None, sha256: None, comments: Vec::new() }
    }

    /// A one-line description, for reports: the record's strings with
    /// their control characters escaped (`\n` as the two characters), so
    /// that a path with a newline cannot print a line of its own.
    pub fn describe(&self) -> String {
        let mut line = one_line(&self.kind);
        if let Some(path) = &self.path {
            line.push_str(&format!(" {}", one_line(path)));
        }
        if let Some(sha256) = &self.sha256 {
            line.push_str(&format!(" (sha256 {})", one_line(sha256)));
        }
        line
    }
}

impl Optimum {
    pub fn new_format() -> String {
        OPTIMUM_FORMAT.to_string()
    }
}

/// Every numeric field of an optimum: n, optimum, lower_bound_level, and six
/// level minima, each a possible penalty.
///
/// # Errors
///
/// `HexError::Input` when n is not a hexagon side, the optimum or a level
/// minimum exceeds the edge count, `lower_bound_level` is outside 1..=6, the
/// build is out of range (as a claim's) or `seconds` is not a
/// duration; `HexError::Record` (`RecordError::Header`) when `level_minima`
/// does not have six entries, decreases, is not the optimum from
/// `lower_bound_level` on or already reaches it at the level before, or
/// `unreached` names level 0 or a level from `lower_bound_level` on.
impl super::read::Checked for Optimum {
    fn check_read(&self, origin: &Path) -> Result<(), HexError> {
        check_optimum_ranges(self, origin)
    }
}

fn check_optimum_ranges(optimum: &Optimum, origin: &Path) -> Result<(), HexError> {
    let edges = edges_of(optimum.n, origin)?;
    penalty_in_range("optimum", optimum.optimum, edges, origin)?;
    level_in_range("lower_bound_level", optimum.lower_bound_level, origin)?;
    if optimum.level_minima.len() != usize::from(FULL_LEVEL) {
        return Err(crate::error::RecordError::Header(format!(
            "level_minima has {} entries, not {FULL_LEVEL}",
            optimum.level_minima.len()
        ))
        .at(origin));
    }
    for &minimum in &optimum.level_minima {
        penalty_in_range("a level minimum", minimum, edges, origin)?;
    }
    check_level_minima(optimum, origin)?;
    // The grid reaches every level from the lower bound's on.
    for &level in optimum.unreached.iter().flatten() {
        if level == 0 || level >= optimum.lower_bound_level {
            return Err(crate::error::RecordError::Header(format!(
                "unreached names level {level}, not a level below lower_bound_level {}",
                optimum.lower_bound_level
            ))
            .at(origin));
        }
    }
    build_in_range((&optimum.hexcert.version, &optimum.hexcert.git_commit), origin)?;
    seconds_in_range("seconds", optimum.seconds, origin)
}

/// The level minima an optimum states agree with what it rests on: they
/// never decrease (refining never lowers a penalty), the lower bound's
/// level and every level after it reach exactly the optimum, and the level
/// before it stays below it (the lower bound's level is the lowest to reach
/// it). Only the optimum's own level is proved; the others are the search's
/// record, so they must at least be possible.
fn check_level_minima(optimum: &Optimum, path: &Path) -> Result<(), HexError> {
    let minima = &optimum.level_minima;
    let from = usize::from(optimum.lower_bound_level) - 1;
    let bad = |why: &str| Err(crate::error::RecordError::Header(format!("level_minima {minima:?}: {why}")).at(path));
    if minima.windows(2).any(|w| w[0] > w[1]) {
        return bad("a level minimum below the one before it (refining never lowers a penalty)");
    }
    if minima[from..].iter().any(|&m| m != optimum.optimum) {
        return bad(&format!(
            "from level {} on, every minimum is the optimum {}",
            optimum.lower_bound_level, optimum.optimum
        ));
    }
    if from > 0 && minima[from - 1] >= optimum.optimum {
        return bad(&format!("level {} is not the lowest level to reach the optimum", optimum.lower_bound_level));
    }
    Ok(())
}
