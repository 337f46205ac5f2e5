//! The binary LRAT file an online check writes beside the DRAT twin: kept
//! while it stays under its cap, piped uncapped to the verified checker,
//! and, for a listing, numbered as a proof of the refuted formula written
//! as a file (`ListingIds`).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use hexcert_lrat::format;

use super::trace::ProofStep;
use super::verified::Stream;
use crate::error::AtPath;
use crate::error::HexError;
use crate::records::CheckerRecord;

/// The binary LRAT file, abandoned (deleted) once it outgrows `cap`, and
/// the same bytes, uncapped, piped to the verified checker when one runs.
pub(super) struct LratFile {
    path: PathBuf,
    out: Option<BufWriter<std::fs::File>>,
    bytes: u64,
    cap: u64,
    step: Vec<u8>,
    pub(super) verified: Option<Stream>,
    /// A listing's numbering for the file (`ListingIds`).
    pub(super) listing: Option<ListingIds>,
}

/// Where a listing's LRAT file puts its clauses, so that it is a proof of
/// the refuted formula as a file states it: the formula's `m` clauses,
/// then the appended ones (the blocking clauses) as `m + 1, m + 2, ...` in
/// the order the solver added them, then every derived clause, its id
/// raised by `APPENDED_ROOM`. In the trace the appended clauses take ids
/// between derived ones, which no formula file can say. Every derived id
/// is above `m`, so the raised ids stay increasing and above the appended
/// ones; a listing holds at most `SAT_ROAD_LEADERS` blocking clauses.
pub(super) struct ListingIds {
    formula: u64,
    /// The appended clauses' trace ids and their ids in the file.
    appended: std::collections::HashMap<u64, u64>,
}

/// Room left for the appended clauses' ids: one more than the leaders a
/// listing may hold.
const APPENDED_ROOM: u64 = crate::options::SAT_ROAD_LEADERS.default as u64 + 1;

impl ListingIds {
    /// The numbering of a listing whose formula has `formula` clauses.
    pub(super) fn new(formula: u64) -> ListingIds {
        ListingIds { formula, appended: Default::default() }
    }

    fn append(&mut self, id: u64) {
        let next = self.formula + self.appended.len() as u64 + 1;
        self.appended.insert(id, next);
    }

    fn file_id(&self, id: u64) -> u64 {
        if id <= self.formula {
            return id;
        }
        self.appended.get(&id).copied().unwrap_or(id + APPENDED_ROOM)
    }
}

impl LratFile {
    pub(super) fn create(path: &Path, cap: u64) -> Result<LratFile, HexError> {
        let file = std::fs::File::create(path).at_path(path)?;
        Ok(LratFile {
            path: path.into(),
            out: Some(BufWriter::with_capacity(1 << 20, file)),
            bytes: 0,
            cap,
            step: Vec::new(),
            verified: None,
            listing: None,
        })
    }

    pub(super) fn write(&mut self, step: ProofStep) -> Result<(), HexError> {
        if self.out.is_none() && self.verified.is_none() {
            return Ok(());
        }
        self.step.clear();
        match (step, self.listing.as_mut()) {
            (ProofStep::Original { id, .. }, Some(listing)) => {
                listing.append(id);
                return Ok(());
            }
            (ProofStep::Original { .. }, None) => return Ok(()),
            (ProofStep::Derived { id, lits, hints }, Some(listing)) => {
                let hints: Vec<i64> =
                    hints.iter().map(|&h| h.signum() * listing.file_id(h.unsigned_abs()) as i64).collect();
                format::write_binary_add(&mut self.step, listing.file_id(id), lits, &hints)
            }
            (ProofStep::Derived { id, lits, hints }, None) => format::write_binary_add(&mut self.step, id, lits, hints),
            (ProofStep::Deleted { id, .. }, listing) => {
                format::write_binary_delete(&mut self.step, &[listing.map_or(id, |l| l.file_id(id))])
            }
        }
        if let Some(verified) = self.verified.as_mut() {
            verified.write(&self.step);
        }
        if self.out.is_none() {
            return Ok(());
        }
        self.bytes += self.step.len() as u64;
        if self.bytes > self.cap {
            self.abandon();
            return Ok(());
        }
        let out = self.out.as_mut().expect("open");
        out.write_all(&self.step).at_path(&self.path)
    }

    /// Stops writing the file and removes it.
    pub(super) fn abandon(&mut self) {
        self.out = None;
        let _ = std::fs::remove_file(&self.path);
    }

    /// Flushes the file; returns the verified checker's verdict, if it ran.
    pub(super) fn finish(self) -> Result<Option<CheckerRecord>, HexError> {
        if let Some(mut out) = self.out {
            out.flush().at_path(&self.path)?;
        }
        self.verified.map(Stream::finish).transpose()
    }
}
