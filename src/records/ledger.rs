//! The ledger of resumable units: one record per finished unit of a long
//! run (a cube of a plan, a cube of the SAT road's listing, a piece of the
//! extension road's), written once and read back by a later run instead of
//! doing the unit again. Cube records, leader cubes and refined pieces are
//! kept by this one implementation.
//!
//! Invariants: a unit's record is written only when the unit is finished,
//! whole or not at all (`files::write_atomic`), so a stopped run leaves the
//! record or nothing; it is read back only through the bounded reader, and
//! used only when it names the count and the unit of the run reading it
//! (`LedgerRecord::identity`). What a read-back record states is its writer's
//! word: `written_by` is one printable line (`writer`), and a run that
//! resumed units says how many and who wrote them (`Resumed`), so that its
//! command reports it unverified (exit 4) or, for cubes, the merged claim
//! names them (`cube::attested_cubes`).

use std::fmt::Debug;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::read::read_bounded;
use crate::error::AtPath;
use crate::error::HexError;
use crate::error::RecordError;

/// A kind of unit's record.
pub trait LedgerRecord: Serialize + DeserializeOwned {
    /// Its format tag, `<family>/<version>`: another version of the family
    /// is another build's record.
    const FORMAT: &'static str;
    /// What it is called in messages ("cube record").
    const WHAT: &'static str;
    /// The most bytes one is read with.
    const LIMIT: u64;
    /// The count a record belongs to and the unit it is, as compared when
    /// it is read back.
    type Identity: PartialEq + Debug;
    fn identity(&self) -> Self::Identity;
    /// The run that wrote it (absent in records older than the field).
    fn written_by(&self) -> Option<&str>;
}

/// A record's bytes, read: the record, or why not. A record another
/// hexcert build wrote (another version of the format, or a field this
/// build does not know) is `Foreign`: set aside and done again it would be
/// lost work, so it is refused with one line instead. Anything else
/// unreadable is `Damaged`.
pub enum Parsed<E> {
    Record(Box<E>),
    Foreign(String),
    Damaged(String),
}

/// Reads one record (see `Parsed`).
pub fn parse<E: LedgerRecord>(bytes: &[u8]) -> Parsed<E> {
    let what = E::WHAT;
    let value: serde_json::Value = match serde_json::from_slice(bytes) {
        Ok(value) => value,
        Err(e) => return Parsed::Damaged(format!("not a {what}: {e}")),
    };
    let family = &E::FORMAT[..=E::FORMAT.rfind('/').unwrap_or(0)];
    match value.get("format").and_then(|f| f.as_str()) {
        Some(format) if format == E::FORMAT => {}
        Some(other) if other.starts_with(family) => {
            let shown: String = other.chars().filter(|c| !c.is_control()).take(40).collect();
            return Parsed::Foreign(format!("format `{shown}` is another build's (this one reads {})", E::FORMAT));
        }
        _ => return Parsed::Damaged(format!("not a {what}: its format is not {}", E::FORMAT)),
    }
    match serde_json::from_value::<E>(value) {
        Ok(record) => Parsed::Record(Box::new(record)),
        // serde names the field: "unknown field `x`, expected one of ...".
        Err(e) if e.to_string().starts_with("unknown field") => {
            let field: String =
                e.to_string().split(',').next().unwrap_or("").chars().filter(|c| !c.is_control()).take(80).collect();
            Parsed::Foreign(format!("{field}: a field a newer build writes"))
        }
        Err(e) => Parsed::Damaged(format!("not a {what}: {e}")),
    }
}

/// The directory of one kind of unit's records, one file per unit.
pub struct Ledger<'a, E> {
    dir: &'a Path,
    kind: PhantomData<E>,
}

impl<'a, E: LedgerRecord> Ledger<'a, E> {
    pub fn at(dir: &'a Path) -> Ledger<'a, E> {
        Ledger { dir, kind: PhantomData }
    }

    /// Where the record of unit `name` lies.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.json"))
    }

    /// Writes a finished unit's record, whole or not at all.
    ///
    /// # Errors
    ///
    /// `HexError::Io` when the directory cannot be created, or the temporary
    /// sibling cannot be written, synced or renamed over the unit's path.
    pub fn write(&self, name: &str, record: &E) -> Result<(), HexError> {
        crate::files::write_atomic(&self.path(name), &serde_json::to_vec_pretty(record).expect("a record serialises"))
    }

    /// Unit `name`'s record as read, or `None` when no run wrote one.
    pub fn read(&self, name: &str) -> Option<Parsed<E>> {
        let path = self.path(name);
        if !path.exists() {
            return None;
        }
        Some(
            read_bounded(&path, E::LIMIT, E::WHAT)
                .map_or_else(|e| Parsed::Damaged(e.to_string()), |bytes| parse(&bytes)),
        )
    }

    /// Unit `name`'s record if an earlier run finished it; an error naming
    /// the file when it is unreadable, another build's, or not of the
    /// count and unit `expected` (a directory holds one count's units).
    ///
    /// # Errors
    ///
    /// `HexError::Record` naming the file: `RecordError::Unreadable` when it
    /// cannot be read (I/O, not a regular file, over `E::LIMIT`) or is not a
    /// record of `E::FORMAT`; `RecordError::Foreign` when another build wrote
    /// it (another version of the format, or a field this build does not know);
    /// `RecordError::OtherUnit` when its identity is not `expected`.
    pub fn resume(&self, name: &str, expected: &E::Identity) -> Result<Option<E>, HexError> {
        let refuse = |error: RecordError| error.at(&self.path(name));
        match self.read(name) {
            None => Ok(None),
            Some(Parsed::Damaged(why)) => Err(refuse(RecordError::Unreadable(why))),
            Some(Parsed::Foreign(why)) => Err(refuse(RecordError::Foreign(why))),
            Some(Parsed::Record(record)) if record.identity() != *expected => Err(refuse(RecordError::OtherUnit {
                found: format!("{:?}", record.identity()),
                expected: format!("{expected:?}"),
            })),
            Some(Parsed::Record(record)) => Ok(Some(*record)),
        }
    }
}

/// One unit of a long run, done in this run or read back: its value, and
/// who wrote the record it was read back from (`None`: done in this run).
#[derive(Debug)]
pub struct Unit<T> {
    pub value: T,
    pub read_back_from: Option<String>,
}

/// Unit `name` of a run whose records go to `ledger` (none: every unit is
/// done, nothing written): when an earlier run finished it (`resume`), its
/// record as `read_back` judges it; else `work`'s value, whose record is
/// written once the unit is finished. `read_back` answers `None` for a
/// record that does not settle the unit (a cube stopped by a shorter time
/// limit than this run's, a record its judge set aside): the unit is done
/// again and its new record replaces the old. The one road by which cube
/// records, the SAT road's leader cubes and the extension road's pieces
/// resume.
///
/// # Errors
///
/// `Ledger::resume`'s errors (`HexError::Record`) for a record that is
/// unreadable, another build's or another unit's; whatever `read_back` or
/// `work` returns; `HexError::Io` when the finished unit's record cannot be
/// written.
pub fn resume_or_do<E: LedgerRecord, T>(
    ledger: Option<&Ledger<'_, E>>,
    (name, expected): (&str, &E::Identity),
    read_back: impl FnOnce(&Path, E) -> Result<Option<T>, HexError>,
    work: impl FnOnce() -> Result<(E, T), HexError>,
) -> Result<Unit<T>, HexError> {
    if let Some(ledger) = ledger {
        if let Some(record) = ledger.resume(name, expected)? {
            let writer = record.written_by().unwrap_or("a run that did not sign its record").to_string();
            if let Some(value) = read_back(&ledger.path(name), record)? {
                return Ok(Unit { value, read_back_from: Some(writer) });
            }
        }
    }
    let (record, value) = work()?;
    if let Some(ledger) = ledger {
        ledger.write(name, &record)?;
    }
    Ok(Unit { value, read_back_from: None })
}

/// The units a run read back instead of doing, and who wrote them: what
/// its report names when it says the result rests on an earlier run's word.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resumed {
    pub units: usize,
    /// Each writer once, in the order met.
    pub writers: Vec<String>,
}

impl Resumed {
    /// Counts one unit resumed from a record `writer` wrote.
    pub fn note(&mut self, writer: &str) {
        self.units += 1;
        if !self.writers.iter().any(|w| w == writer) {
            self.writers.push(writer.to_string());
        }
    }

    /// Counts `unit` when it was read back; a unit done in this run is not
    /// counted. Whether it was is handed back.
    pub fn note_unit<T>(&mut self, unit: &Unit<T>) -> bool {
        if let Some(writer) = &unit.read_back_from {
            self.note(writer);
        }
        unit.read_back_from.is_some()
    }
}

/// Longest `written_by` read: `run::attestation()` is about 120 characters.
const MAX_WRITER: usize = 256;

/// Reads a record's `written_by`, which reports print as it is: one line
/// of at most `MAX_WRITER` printable characters, so a record cannot print a
/// line of its author's choosing (a forged verdict) or flood a report.
///
/// # Errors
///
/// `D::Error` when the value is not a string, is longer than `MAX_WRITER`
/// characters, or holds a control character (a newline among them).
pub fn writer<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let text = <String as serde::Deserialize>::deserialize(deserializer)?;
    if text.chars().count() > MAX_WRITER || text.chars().any(char::is_control) {
        return Err(serde::de::Error::custom(format!(
            "written_by must be one line of at most {MAX_WRITER} printable characters, not {:?}",
            text.chars().take(80).collect::<String>()
        )));
    }
    Ok(text)
}

/// `writer` for a record where `written_by` may be absent.
///
/// # Errors
///
/// `D::Error` when the field is present but not a string `writer` accepts.
pub fn optional_writer<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    #[derive(serde::Deserialize)]
    struct Checked(#[serde(deserialize_with = "writer")] String);
    Ok(<Option<Checked> as serde::Deserialize>::deserialize(deserializer)?.map(|c| c.0))
}

/// Moves a record (file or directory) aside to `.quarantine/` beside it,
/// under a name of its own and this run's: it no longer counts, and it is
/// kept for whoever wants to see what was wrong. Returns the new path.
///
/// # Errors
///
/// `HexError::Io` when `.quarantine/` cannot be created beside `path`, or
/// `path` cannot be renamed into it.
pub fn set_aside(path: &Path) -> Result<PathBuf, HexError> {
    let dir = path.parent().unwrap_or(Path::new(".")).join(".quarantine");
    std::fs::create_dir_all(&dir).at_path(&dir)?;
    let name = path.file_name().map_or("record".into(), |n| n.to_string_lossy().into_owned());
    let target = dir.join(format!("{name}.{}", crate::run::run_id()));
    std::fs::rename(path, &target).at_path(path)?;
    Ok(target)
}
