//! Reading records: the one bounded reader every record is read through
//! (the `Record` enum, `record.rs`, and the ledger's units alike).
//!
//! Invariant: only regular files are opened (a fifo, `/dev/zero` or a
//! directory is refused before any byte is read), and never more than the
//! limit of the kind of file read: a crafted record cannot make a reader
//! hang or exhaust memory.

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::AtPath;
use crate::error::HexError;
use crate::error::RecordError;

/// Largest JSON record read (options table: why 64 MiB).
pub const MAX_RECORD_BYTES: u64 = crate::options::RECORD_BYTES.default;

/// Reads at most `limit` bytes of the regular file `path`; more is an error.
///
/// # Errors
///
/// `HexError::Io` when `path` cannot be opened or read; `HexError::Record` with
/// `RecordError::NotRegularFile` when it is not a regular file,
/// `RecordError::TooLarge` when it holds more than `limit` bytes.
pub fn read_bounded(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, HexError> {
    crate::files::read_bounded_bytes(path, limit).map_err(|refused| match refused {
        crate::files::Refused::Io(source) => HexError::io(path, source),
        crate::files::Refused::NotRegular => RecordError::NotRegularFile.at(path),
        crate::files::Refused::TooLarge { bytes } => RecordError::TooLarge { what, bytes, limit }.at(path),
    })
}

/// The file hashes to what the record names, `what` saying which file.
///
/// # Errors
///
/// `HexError::Io` when `file` cannot be opened (a file that is not regular
/// among them) or read; `HexError::Record` (`RecordError::HashMismatch`) when
/// its SHA-256 is not `expected`.
pub fn expect_hash(file: &Path, expected: &str, what: &str) -> Result<(), HexError> {
    let actual = crate::digest::sha256_file(file).at_path(file)?;
    if actual != expected {
        return Err(RecordError::HashMismatch { what: what.into(), actual, expected: expected.into() }.at(file));
    }
    Ok(())
}

/// The file a record stores as `name` in `dir` (the `place` directory:
/// claim, results): `name` is a relative path of plain names and, links
/// resolved, stays inside `dir`. A record cannot have a check read, or a
/// merge copy, a file of its author's choosing elsewhere.
///
/// # Errors
///
/// `RecordError::Outside` when `name` is empty or not plain relative names
/// (absolute, `.`, `..`), when it resolves outside `dir`, or when it is a link
/// that cannot be resolved.
pub fn stored_path(dir: &Path, name: &str, place: &'static str) -> Result<PathBuf, RecordError> {
    let outside = || RecordError::Outside { name: name.into(), place };
    let path = Path::new(name);
    if name.is_empty() || !path.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(outside());
    }
    let joined = dir.join(path);
    // A missing file is not outside: its read fails and says so.
    if let (Ok(base), Ok(resolved)) = (dir.canonicalize(), joined.canonicalize()) {
        if !resolved.starts_with(&base) {
            return Err(outside());
        }
    } else if joined.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(outside());
    }
    Ok(joined)
}

/// What a record type holds of its own fields, judged as it is read
/// (`parse_json`, `read_json`, `Record::parse` all run it): numbers in
/// their domains, durations non-negative, names one line, lengths and
/// totals consistent, a statement the sentence of its numbers. So a record
/// that reads is in range, and nothing after the read judges that again.
///
/// What a record alone cannot settle stays with its judge (`verify`): its
/// place (the directory its numbers name), whether the solver, encoder or
/// checker build it names is one this build knows, what a verdict is worth.
/// A record of another build still reads; it is judged, not refused.
pub trait Checked {
    /// # Errors
    ///
    /// `HexError::Input` or `HexError::Record` naming `origin` and the
    /// first field out of range.
    fn check_read(&self, origin: &Path) -> Result<(), HexError> {
        let _ = origin;
        Ok(())
    }
}

/// Parses a JSON record and judges its fields (`Checked`), naming the file
/// and line on error.
///
/// # Errors
///
/// `HexError::Record` (`RecordError::Malformed`, at serde's line) when `bytes`
/// are not JSON of `T`'s shape; then `T::check_read`'s.
pub fn parse_json<T: for<'de> Deserialize<'de> + Checked>(bytes: &[u8], path: &Path) -> Result<T, HexError> {
    let record: T = serde_json::from_slice(bytes).map_err(|e| HexError::Record {
        file: path.into(),
        line: e.line(),
        error: RecordError::Malformed(e.to_string()),
    })?;
    record.check_read(path)?;
    Ok(record)
}

/// Reads and parses a JSON record (bounded), naming the file on error.
///
/// # Errors
///
/// `HexError::Io` when `path` cannot be read; `HexError::Record` with
/// `RecordError::NotRegularFile`, `RecordError::TooLarge` (over
/// `MAX_RECORD_BYTES`) or `RecordError::Malformed` (not JSON of `T`'s shape);
/// then `T::check_read`'s.
pub fn read_json<T: for<'de> Deserialize<'de> + Checked>(path: &Path) -> Result<T, HexError> {
    parse_json(&read_bounded(path, MAX_RECORD_BYTES, "record")?, path)
}

/// Writes `new` over the record at `path` only if the file still holds
/// `read`, the record as this run last read (or wrote) it: no command
/// writes back a record it did not re-read. The file is read again just
/// before the rename (`files::replace_if_unchanged`), so a record another
/// command wrote meanwhile (a `cubes merge` of the same claim) is never
/// reverted; that is `RecordError::Changed`, and nothing is written.
///
/// # Errors
///
/// `HexError::Record` (`RecordError::Changed`) when the file no longer holds
/// `read` (rewritten, gone or unreadable), and nothing is written;
/// `HexError::Io` when the temporary sibling cannot be written, synced, removed
/// or renamed over `path`.
pub fn replace_record<T>(path: &Path, read: &T, new: &T) -> Result<(), HexError>
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq,
{
    let bytes = serde_json::to_vec_pretty(new).expect("records serialise");
    let same = |now: &[u8]| serde_json::from_slice::<T>(now).is_ok_and(|now| now == *read);
    if crate::files::replace_if_unchanged(path, &bytes, MAX_RECORD_BYTES, same)? {
        Ok(())
    } else {
        Err(RecordError::Changed.at(path))
    }
}
