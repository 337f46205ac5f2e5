//! The extension road's records: one small file per finished piece of a
//! listing, so that a count of many CPU-hours (n = 12 level 6: 800 classes
//! of some 20 s each) survives a stop and resumes across sessions.
//!
//! A piece is a run of the symmetry classes listed (their least members, in
//! the order of their values), named by its index, its first class and its
//! length; the listing depends only on the source level's table and the
//! bound, so a later run cuts the same pieces, and a record names the count
//! it belongs to (n, level, source level, how levels 5 and 6 were counted,
//! bound, pieces) and its piece, which are checked before it is used. A
//! piece's record is written whole or not at all, when the piece is
//! finished.
//!
//! Trust: a resumed piece's counts are its writer's word (they are not
//! recomputed; that is the point); the count reports how many pieces it
//! resumed and who wrote them, and is reported unverified (exit 4), as the
//! sat road's resumed cubes are (docs/COUNTING.md).

use std::path::Path;

use num_bigint::BigUint;
use serde::{Deserialize, Serialize};

use crate::error::HexError;
use crate::levels::digits;
use crate::records::ledger::{resume_or_do, Ledger, LedgerRecord, Unit};

/// Format tag of a piece's record.
const FORMAT: &str = "hexcert-refined-piece/1";

/// Largest record read back (options table).
const RECORD_LIMIT: u64 = crate::options::PIECE_RECORD_BYTES.default;

/// One finished piece: the refinements of the members of a run of classes,
/// counted by the penalty they reach.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceRecord {
    format: String,
    n: usize,
    level: u8,
    source: u8,
    /// How levels 5 and 6 were counted (`lift` or `chains`).
    via: String,
    bound: usize,
    pieces: usize,
    piece: usize,
    /// The least member of the piece's first class, one digit per cell
    /// (`source + 1` is `+`), and the number of classes in the piece.
    first: String,
    classes: usize,
    /// Level-`level` partials of each penalty `0..=bound` that refine the
    /// piece's classes, every member counted (decimal strings: they
    /// outgrow JSON's numbers).
    counts: Vec<String>,
    seconds: f64,
    /// Host, run and hexcert build that refined the piece (and so attest its
    /// counts).
    #[serde(deserialize_with = "crate::records::ledger::writer")]
    written_by: String,
}

impl LedgerRecord for PieceRecord {
    const FORMAT: &'static str = FORMAT;
    const WHAT: &'static str = "refined-piece record";
    const LIMIT: u64 = RECORD_LIMIT;
    /// The count (n, level, source, via, bound, pieces) and the piece
    /// (index, first class, classes).
    type Identity = (usize, u8, u8, String, usize, usize, usize, String, usize);

    fn identity(&self) -> Self::Identity {
        let PieceRecord { n, level, source, bound, pieces, piece, classes, .. } = *self;
        (n, level, source, self.via.clone(), bound, pieces, piece, self.first.clone(), classes)
    }

    fn written_by(&self) -> Option<&str> {
        Some(&self.written_by)
    }
}

/// The count a directory of records belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PiecesCount {
    pub n: usize,
    pub level: u8,
    pub source: u8,
    pub via: &'static str,
    pub bound: usize,
    pub pieces: usize,
}

/// A piece: its index, its first class's least member and its number of classes.
pub type Piece<'a> = (usize, &'a [u8], usize);

/// The record's name in the ledger, and the identity it must have.
fn unit(count: &PiecesCount, (piece, first, classes): Piece<'_>) -> (String, <PieceRecord as LedgerRecord>::Identity) {
    let PiecesCount { n, level, source, via, bound, pieces } = *count;
    (
        format!("bound{bound}-piece-{piece}"),
        (n, level, source, via.to_string(), bound, pieces, piece, digits(first), classes),
    )
}

/// Piece `piece`'s counts (one per penalty `0..=bound`) and the seconds
/// they took in this run: with `dir`, read back when an earlier run wrote
/// its record (0 s; an error when the record belongs to another count or
/// piece, or is malformed), else `counted`'s, recorded there whole or not at
/// all once the piece is finished; without, `counted`'s.
pub fn resume_or_count(
    dir: Option<&Path>,
    count: &PiecesCount,
    piece: Piece<'_>,
    counted: impl FnOnce() -> Result<Vec<BigUint>, HexError>,
) -> Result<Unit<(Vec<BigUint>, f64)>, HexError> {
    let (name, expected) = unit(count, piece);
    let read_back = |path: &Path, record: PieceRecord| Ok(Some((counts_of(path, count, &record)?, 0.0)));
    let work = || {
        let started = std::time::Instant::now();
        let counts = counted()?;
        let seconds = started.elapsed().as_secs_f64();
        Ok((record(count, piece, &counts, seconds), (counts, seconds)))
    };
    resume_or_do(dir.map(Ledger::at).as_ref(), (&name, &expected), read_back, work)
}

/// The record of a finished piece.
fn record(count: &PiecesCount, (piece, first, classes): Piece<'_>, counts: &[BigUint], seconds: f64) -> PieceRecord {
    let PiecesCount { n, level, source, via, bound, pieces } = *count;
    PieceRecord {
        format: FORMAT.into(),
        n,
        level,
        source,
        via: via.into(),
        bound,
        pieces,
        piece,
        first: digits(first),
        classes,
        counts: counts.iter().map(BigUint::to_string).collect(),
        seconds,
        written_by: crate::run::attestation(),
    }
}

/// A read-back record's counts: one per penalty `0..=bound`, each a decimal number.
fn counts_of(path: &Path, count: &PiecesCount, record: &PieceRecord) -> Result<Vec<BigUint>, HexError> {
    let bad = |why: String| HexError::Input { file: path.to_path_buf(), line: 0, message: why };
    if record.counts.len() != count.bound + 1 {
        return Err(bad(format!("holds {} counts, not one per penalty 0..={}", record.counts.len(), count.bound)));
    }
    let number = |c: &String| c.bytes().all(|b| b.is_ascii_digit()).then(|| c.parse::<BigUint>().ok()).flatten();
    record.counts.iter().map(|c| number(c).ok_or_else(|| bad(format!("count {c:?} is not a decimal number")))).collect()
}
