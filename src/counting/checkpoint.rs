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

use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::guide::Guide;
use super::hashing::KeyMap;
use super::spill::{get_varint, put_varint};
use crate::error::HexError;
use crate::files::write_atomic;

const FORMAT: &[u8] = b"hexcert-table/1\n";

/// Where the table of (side, level, bound) lives in `dir`.
pub fn path(dir: &Path, side: usize, level: u8, bound: usize) -> PathBuf {
    dir.join(format!("n{side}-level{level}-bound{bound}.table"))
}

/// Writes a table: header, then per layer its size and its states in
/// increasing order (delta varints) each with its charge, then the hash.
pub fn save(path: &Path, side: usize, bound: usize, guide: &Guide) -> Result<(), HexError> {
    let mut bytes = FORMAT.to_vec();
    let header = [side as u128, u128::from(guide.level), bound as u128, guide.future.len() as u128];
    let io = |source| HexError::Io { path: path.to_path_buf(), source };
    for field in header {
        put_varint(&mut bytes, field).map_err(io)?;
    }
    for layer in &guide.future {
        let mut entries: Vec<(u128, u8)> = layer.iter().map(|(&s, &g)| (s, g)).collect();
        entries.sort_unstable();
        put_varint(&mut bytes, entries.len() as u128).map_err(io)?;
        let mut previous = 0u128;
        for (state, charge) in entries {
            put_varint(&mut bytes, state - previous).map_err(io)?;
            bytes.push(charge);
            previous = state;
        }
    }
    let digest = Sha256::digest(&bytes);
    bytes.extend_from_slice(&digest);
    write_atomic(path, &bytes)
}

/// Reads the table of (side, level, bound) from `path`, refusing a file
/// whose hash, header or layout does not match.
pub fn load(path: &Path, side: usize, level: u8, bound: usize) -> Result<Guide, HexError> {
    let bytes = std::fs::read(path).map_err(|source| HexError::Io { path: path.to_path_buf(), source })?;
    let refuse = |why: &str| HexError::Usage(format!("{}: checkpoint table refused: {why}", path.display()));
    if bytes.len() < FORMAT.len() + 32 || !bytes.starts_with(FORMAT) {
        return Err(refuse("not a hexcert-table/1 file"));
    }
    let (body, digest) = bytes.split_at(bytes.len() - 32);
    if Sha256::digest(body).as_slice() != digest {
        return Err(refuse("its SHA-256 does not match its contents"));
    }
    let mut input = &body[FORMAT.len()..];
    let next = |input: &mut &[u8]| get_varint(input).map_err(|_| refuse("truncated"));
    let header = [next(&mut input)?, next(&mut input)?, next(&mut input)?];
    if header != [side as u128, u128::from(level), bound as u128] {
        return Err(refuse(&format!(
            "it holds side {}, level {}, bound {} (expected {side}, {level}, {bound})",
            header[0], header[1], header[2]
        )));
    }
    let layers = next(&mut input)? as usize;
    let mut future = Vec::with_capacity(layers);
    for _ in 0..layers {
        let len = next(&mut input)? as usize;
        let mut layer = KeyMap::default();
        layer.reserve(len);
        let mut state = 0u128;
        for _ in 0..len {
            state += next(&mut input)?;
            let mut charge = [0u8];
            input.read_exact(&mut charge).map_err(|_| refuse("truncated"))?;
            layer.insert(state, charge[0]);
        }
        future.push(layer);
    }
    if !input.is_empty() {
        return Err(refuse("bytes after the last layer"));
    }
    Ok(Guide { level, future })
}

#[cfg(test)]
mod tests {
    use super::super::ladder::Ladder;
    use super::super::Settings;
    use super::*;
    use crate::geometry::Hexagon;

    /// A saved table reads back equal; a flipped byte, a wrong name and a
    /// truncated file are each refused with the file named.
    #[test]
    fn tables_round_trip_and_damage_is_refused() {
        let hex = Hexagon::new(5).expect("hexagon");
        let settings = Settings::default();
        let ladder = Ladder::up_to(&hex, 2, 11, &settings).expect("ladder");
        let table = ladder.guide(2).expect("built");
        assert!(table.size() > 0);
        let dir = tempfile::tempdir().expect("temporary directory");
        let file = path(dir.path(), 5, 2, 11);
        save(&file, 5, 11, table).expect("saved");
        assert_eq!(load(&file, 5, 2, 11).expect("loaded").future, table.future);
        let wrong = load(&file, 5, 2, 12).expect_err("another bound");
        assert!(wrong.to_string().contains("bound 11"), "{wrong}");
        let mut bytes = std::fs::read(&file).expect("read");
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        std::fs::write(&file, &bytes).expect("write");
        let damaged = load(&file, 5, 2, 11).expect_err("damaged");
        assert!(damaged.to_string().contains("SHA-256") && damaged.to_string().contains(".table"), "{damaged}");
        std::fs::write(&file, &bytes[..middle]).expect("write");
        assert!(load(&file, 5, 2, 11).is_err(), "a truncated file was accepted");
    }
}
