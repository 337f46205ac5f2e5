//! The finished forward layers of a table build (`reach`): their shape,
//! and where each waits for the backward pass: in memory up to a budget,
//! then in scratch files (sorted, delta-coded, read back exactly), or in
//! the build's journal.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};

use crate::counting::basics::SweepError;
use crate::counting::layers::spill::Scratch;
use crate::counting::tables::journal::{Journal, JournalEntry};
use crate::counting::varint::{get_varint, put_varint};

/// A forward layer: parts over disjoint, increasing state ranges, each sorted,
/// each state once, packed with its least penalty so far.
pub(super) type Parts = Vec<Vec<u128>>;

/// A finished forward layer, in memory, in a scratch file, or in the journal.
pub(super) enum HeldLayer {
    Memory(Parts),
    Disk { path: std::path::PathBuf, len: usize },
    Journal(JournalEntry),
}

/// Where finished forward layers go: memory up to a budget, then scratch
/// files; or all to the journal when there is one.
pub(super) struct Holding<'a> {
    pub(super) budget: usize,
    pub(super) journal: Option<&'a Journal>,
}

/// The bytes a layer takes in memory.
pub(super) fn bytes(parts: &Parts) -> usize {
    parts.iter().map(|p| p.len() * std::mem::size_of::<u128>()).sum()
}

/// Writes a finished layer to a scratch file: the count, then each packed
/// state as the LEB128 varint of its difference from the one before (states
/// increase, so differences are positive and small).
pub(super) fn store(scratch: &mut Scratch, parts: &Parts) -> Result<HeldLayer, SweepError> {
    let path = scratch.next_path()?;
    let fail = |e| SweepError::scratch(&path, e);
    let mut out = BufWriter::with_capacity(1 << 16, File::create(&path).map_err(fail)?);
    let mut previous = 0u128;
    let mut len = 0;
    for &r in parts.iter().flatten() {
        put_varint(&mut out, r - previous).map_err(fail)?;
        previous = r;
        len += 1;
    }
    out.flush().map_err(fail)?;
    Ok(HeldLayer::Disk { path, len })
}

/// A held layer back in memory; scratch files are removed once read, the
/// journal's stay until the table is saved.
pub(super) fn load(held: HeldLayer, journal: Option<&Journal>) -> Result<Parts, SweepError> {
    let (path, len) = match held {
        HeldLayer::Memory(parts) => return Ok(parts),
        HeldLayer::Journal(entry) => {
            return Ok(vec![journal.expect("journal layers come from a journal").read(&entry)?])
        }
        HeldLayer::Disk { path, len } => (path, len),
    };
    let fail = |e| SweepError::scratch(&path, e);
    let mut input = BufReader::with_capacity(1 << 16, File::open(&path).map_err(fail)?);
    let mut states = Vec::with_capacity(len);
    let mut previous = 0u128;
    for _ in 0..len {
        previous += get_varint(&mut input).map_err(fail)?;
        states.push(previous);
    }
    std::fs::remove_file(&path).map_err(fail)?;
    Ok(vec![states])
}
