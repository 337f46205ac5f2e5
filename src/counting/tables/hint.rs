//! The start bound of a count, hinted by a certified optimum.json.
//!
//! Invariant relied on: the hint only chooses the bound the first tables are
//! built for; counts and minima are the tables' own (`count_row_in`). So it
//! needs no proof, only bounds: a hint above a level's minimum costs tables
//! built for a larger bound, which can exhaust memory. Every level's minimum
//! is at most the penalty of any valid full grid (refining never lowers a
//! penalty), so a hint is taken only up to the penalty of the witness beside
//! the record, a grid the validator accepts here.

use std::path::Path;

use crate::counting::basics::MAX_PENALTY_BOUND;
use crate::error::{HexError, RecordError};
use crate::files::read_regular;
use crate::formats::parse_grid;
use crate::geometry::{edge_count, Hexagon};
use crate::levels::FULL_LEVEL;
use crate::records::OPTIMUM_FORMAT;
use crate::validation::evaluate;

/// Largest optimum.json or witness read for a start-bound hint (options table).
const HINT_FILE_BYTES: u64 = crate::options::HINT_FILE_BYTES.default;

/// The start bound of side `n` at `level` from `dir/nN/optimum.json`: `None`
/// when the file is absent. Only a hint (counts and minima are the tables'
/// own), but an inflated one costs memory, so the files are read bounded,
/// it must be an optimum record (its `format`), `level_minima` six non-decreasing penalties, none above the
/// hexagon's edges nor the counter's limit, the last equal to `optimum`, and
/// `optimum` must be the penalty of the witness beside it, a full grid the
/// validator accepts: no level's minimum is above a valid grid's penalty.
pub fn start_hint(dir: &Path, n: usize, level: u8) -> Result<Option<usize>, HexError> {
    let folder = dir.join(format!("n{n}"));
    let path = folder.join("optimum.json");
    if !path.exists() {
        return Ok(None);
    }
    let bytes = read_regular(&path, HINT_FILE_BYTES, "start-bound hint")?;
    let refuse = |why: String| HexError::Input {
        file: path.clone(),
        line: 0,
        message: format!("start-bound hint refused: {why}"),
    };
    let record: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| refuse(format!("not JSON ({e})")))?;
    // Another record's numbers (a claim's, a count's) would read as a hint
    // of another meaning: only an optimum's format is taken.
    match record.get("format").and_then(|f| f.as_str()) {
        Some(OPTIMUM_FORMAT) => {}
        Some(other) => return Err(RecordError::UnknownFormat(other.into()).at(&path)),
        None => return Err(RecordError::Malformed(format!("no `format`: not a {OPTIMUM_FORMAT} record")).at(&path)),
    }
    let most = edge_count(n).min(MAX_PENALTY_BOUND);
    let minima: Vec<usize> = record
        .get("level_minima")
        .and_then(|m| m.as_array())
        .filter(|m| m.len() == 6)
        .and_then(|m| m.iter().map(|x| x.as_u64().and_then(|x| usize::try_from(x).ok())).collect::<Option<Vec<_>>>())
        .ok_or_else(|| refuse("`level_minima` is not six penalties".into()))?;
    if minima.windows(2).any(|w| w[0] > w[1]) || minima[5] > most {
        return Err(refuse(format!(
            "`level_minima` {minima:?} is not non-decreasing within {most} (the bound for n = {n})"
        )));
    }
    if record.get("optimum").and_then(|o| o.as_u64()) != Some(minima[5] as u64) {
        return Err(refuse("`optimum` is not the last of `level_minima`".into()));
    }
    let witness = record
        .get("witness")
        .and_then(|w| w.as_str())
        .filter(|w| Path::new(w).file_name() == Some(std::ffi::OsStr::new(w)));
    let witness = folder.join(witness.ok_or_else(|| refuse("`witness` is not a file name beside it".into()))?);
    let grid = parse_grid(&read_regular(&witness, HINT_FILE_BYTES, "witness")?, &witness, Some(n))?;
    let judged = evaluate(&Hexagon::new(n)?, &grid.partial);
    if grid.partial.level() != FULL_LEVEL || !judged.is_valid() || judged.penalty != minima[5] {
        return Err(refuse(format!("its witness is not a valid full grid of penalty {}", minima[5])));
    }
    Ok(Some(minima[usize::from(level.clamp(1, 6)) - 1]))
}
