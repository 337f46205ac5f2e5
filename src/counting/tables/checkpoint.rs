//! Finished cost-to-finish tables kept on disk, so that a long count resumes
//! after Ctrl-C (or on another machine) from the tables already built.
//!
//! Invariants relied on:
//! - **A table is a function of side, level and bound.** The states it keeps
//!   are those on a valid assignment of penalty `<= bound`, each with its
//!   least charge to finish (`guide`'s header); how the forward pass was
//!   pruned or held does not change them (`reach`'s tests compare builds map
//!   for map). So a file named by those three is the table, whatever run,
//!   layer mode or machine wrote it.
//! - **Whole or refused.** A file is written to a temporary name and renamed
//!   (`files::write_atomic`), and it ends with the SHA-256 of everything
//!   before it; its header repeats side, level and bound. A file that exists
//!   is complete, and one damaged or misnamed since is an error naming it,
//!   never silently used.
//! - **Bounded and in one spelling.** Only a regular file of at most
//!   `MAX_TABLE_BYTES` is read; every length is checked against the bytes
//!   left before anything is allocated; the layer count, state widths,
//!   charges, key order and varint spellings are those `save` writes, so a
//!   file is either refused with one line or read into the one table that
//!   `save` writes back byte for byte.
//!
//! The hash guards against damage, not against someone who edits a table and
//! recomputes it: docs/COUNTING.md says what the tables are trusted for.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::counting::basics::DEFAULT_MEMORY_LIMIT;
use crate::counting::frontier::schedule::Schedule;
use crate::counting::hashing::KeyMap;
use crate::counting::tables::guide::{frontier_len, Guide};
use crate::counting::varint::{get_canonical, put_varint};
use crate::error::HexError;
use crate::files::{read_regular, write_atomic};

const FORMAT: &[u8] = b"hexcert-table/1\n";

/// Largest table file read. A table's map takes several times its file's
/// bytes, so a larger file could not be used within the sweep's default
/// memory budget anyway; refusing it up front gives a message, not an abort.
pub const MAX_TABLE_BYTES: u64 = DEFAULT_MEMORY_LIMIT;

/// Fewest bytes one entry takes: a one-byte varint and its charge.
const ENTRY_BYTES: usize = 2;

/// Why a table file is refused: one variant per way `parse` finds it is
/// not what `save` writes. Each reads as one line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TableError {
    #[error("not a hexcert-table/1 file")]
    NotATable,
    #[error("its SHA-256 does not match its contents")]
    Damaged,
    /// A varint cut short or spelled longer than needed (`layer` when inside one).
    #[error("{}truncated or malformed ({why})", layer.map_or(String::new(), |t| format!("layer {t}: ")))]
    Malformed { layer: Option<usize>, why: String },
    #[error("it holds side {}, level {}, bound {} (expected {}, {}, {})", found[0], found[1], found[2], expected[0], expected[1], expected[2])]
    OtherTable { found: [u128; 3], expected: [u128; 3] },
    #[error("{layers} layers for a hexagon of {cells} cells (expected {})", cells + 1)]
    Layers { layers: u128, cells: usize },
    #[error("bytes after the last layer")]
    Trailing,
    #[error("layer {layer} claims {len} entries, more than its {left} bytes left can hold")]
    TooLong { layer: usize, len: u128, left: usize },
    #[error("layer {layer}: a state listed twice")]
    Twice { layer: usize },
    #[error("layer {layer}: a state wider than its {width}-bit frontier")]
    TooWide { layer: usize, width: u32 },
    #[error("layer {layer}: truncated")]
    Truncated { layer: usize },
    #[error("layer {layer}: charge {charge} above {most}")]
    Charge { layer: usize, charge: u8, most: usize },
}

/// Where the table of (side, level, bound) lives in `dir`.
pub fn path(dir: &Path, side: usize, level: u8, bound: usize) -> PathBuf {
    dir.join(format!("n{side}-level{level}-bound{bound}.table"))
}

/// The bytes of a table file: header, then per layer its size and its states
/// in increasing order (delta varints) each with its charge, then the hash.
pub fn serialise(side: usize, bound: usize, guide: &Guide) -> Vec<u8> {
    let mut bytes = FORMAT.to_vec();
    let header = [side as u128, u128::from(guide.level), bound as u128, guide.future.len() as u128];
    // Writing to a vector cannot fail.
    let put = |bytes: &mut Vec<u8>, x: u128| put_varint(bytes, x).expect("writes to memory");
    for field in header {
        put(&mut bytes, field);
    }
    for layer in &guide.future {
        let mut entries: Vec<(u128, u8)> = layer.iter().map(|(&s, &g)| (s, g)).collect();
        entries.sort_unstable();
        put(&mut bytes, entries.len() as u128);
        let mut previous = 0u128;
        for (state, charge) in entries {
            put(&mut bytes, state - previous);
            bytes.push(charge);
            previous = state;
        }
    }
    let digest = Sha256::digest(&bytes);
    bytes.extend_from_slice(&digest);
    bytes
}

/// Writes a table atomically (see `serialise`).
pub fn save(path: &Path, side: usize, bound: usize, guide: &Guide) -> Result<(), HexError> {
    write_atomic(path, &serialise(side, bound, guide))
}

/// Reads the table of `schedule`'s level for (side, bound) from `path`,
/// refusing with one line naming the file anything `save` would not write.
pub fn load(path: &Path, schedule: &Schedule, side: usize, bound: usize) -> Result<Guide, HexError> {
    let bytes = read_regular(path, MAX_TABLE_BYTES, "checkpoint table")?;
    parse(&bytes, schedule, side, bound).map_err(|why| HexError::Input {
        file: path.to_path_buf(),
        line: 0,
        message: format!("checkpoint table refused: {why}"),
    })
}

/// The table in `bytes`, or why it is refused.
///
/// # Errors
///
/// The `TableError` naming the first thing `save` would not have written.
pub fn parse(bytes: &[u8], schedule: &Schedule, side: usize, bound: usize) -> Result<Guide, TableError> {
    let level = schedule.level;
    if bytes.len() < FORMAT.len() + 32 || !bytes.starts_with(FORMAT) {
        return Err(TableError::NotATable);
    }
    let (body, digest) = bytes.split_at(bytes.len() - 32);
    if Sha256::digest(body).as_slice() != digest {
        return Err(TableError::Damaged);
    }
    let mut input = &body[FORMAT.len()..];
    let next =
        |input: &mut &[u8]| get_canonical(input).map_err(|e| TableError::Malformed { layer: None, why: e.to_string() });
    let found = [next(&mut input)?, next(&mut input)?, next(&mut input)?];
    let expected = [side as u128, u128::from(level), bound as u128];
    if found != expected {
        return Err(TableError::OtherTable { found, expected });
    }
    let layers = next(&mut input)?;
    if layers != schedule.cells as u128 + 1 {
        return Err(TableError::Layers { layers, cells: schedule.cells });
    }
    let mut future = Vec::with_capacity(schedule.cells + 1);
    for t in 0..=schedule.cells {
        future.push(parse_layer(&mut input, schedule, t, bound)?);
    }
    if !input.is_empty() {
        return Err(TableError::Trailing);
    }
    Ok(Guide { level, future })
}

/// Layer `t`: its length (at most what the bytes left can hold), then its
/// states, strictly increasing and as wide as the frontier after `t` cells,
/// each with a charge within the bound (0 for the last layer: nothing is
/// left to charge).
fn parse_layer(input: &mut &[u8], schedule: &Schedule, t: usize, bound: usize) -> Result<KeyMap<u8>, TableError> {
    let next = |input: &mut &[u8]| {
        get_canonical(input).map_err(|e| TableError::Malformed { layer: Some(t), why: e.to_string() })
    };
    let len = next(input)?;
    if len > (input.len() / ENTRY_BYTES) as u128 {
        return Err(TableError::TooLong { layer: t, len, left: input.len() });
    }
    let len = len as usize;
    let width = frontier_len(schedule, t) as u32 * schedule.slot_bits;
    let most_charged = if t == schedule.cells { 0 } else { bound };
    let mut layer = KeyMap::default();
    layer.reserve(len);
    let mut state = 0u128;
    for i in 0..len {
        let delta = next(input)?;
        if i > 0 && delta == 0 {
            return Err(TableError::Twice { layer: t });
        }
        state = state.checked_add(delta).filter(|s| s >> width == 0).ok_or(TableError::TooWide { layer: t, width })?;
        let Some((&charge, rest)) = input.split_first() else {
            return Err(TableError::Truncated { layer: t });
        };
        if usize::from(charge) > most_charged {
            return Err(TableError::Charge { layer: t, charge, most: most_charged });
        }
        *input = rest;
        layer.insert(state, charge);
    }
    Ok(layer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counting::basics::CountSettings;
    use crate::counting::tables::ladder::Ladder;
    use crate::geometry::Hexagon;

    /// A saved table reads back equal; a flipped byte, a wrong name and a
    /// truncated file are each refused with the file named.
    #[test]
    fn tables_round_trip_and_damage_is_refused() {
        let hex = Hexagon::new(5).expect("hexagon");
        let schedule = Schedule::new(&hex, 2).expect("schedule");
        let settings = CountSettings::default();
        let ladder = Ladder::up_to(&hex, 2, 11, &settings).expect("ladder");
        let table = ladder.guide(2).expect("built");
        assert!(table.size() > 0);
        let dir = tempfile::tempdir().expect("temporary directory");
        let file = path(dir.path(), 5, 2, 11);
        save(&file, 5, 11, table).expect("saved");
        assert_eq!(load(&file, &schedule, 5, 11).expect("loaded").future, table.future);
        let wrong = load(&file, &schedule, 5, 12).expect_err("another bound");
        assert!(wrong.to_string().contains("bound 11"), "{wrong}");
        let mut bytes = std::fs::read(&file).expect("read");
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        std::fs::write(&file, &bytes).expect("write");
        let damaged = load(&file, &schedule, 5, 11).expect_err("damaged");
        assert!(damaged.to_string().contains("SHA-256") && damaged.to_string().contains(".table"), "{damaged}");
        std::fs::write(&file, &bytes[..middle]).expect("write");
        assert!(load(&file, &schedule, 5, 11).is_err(), "a truncated file was accepted");
    }
}
