//! Binary DRAT, written from a clausal proof stream, for drat-trim and rate.
//!
//! The bytes are exactly what CaDiCaL's own binary DRAT writer produces for
//! the same steps ('a' or 'd', each literal as the variable-length number
//! 2*var + sign, then 0), so a DRAT file follows from an LRAT stream by
//! dropping the hints and writing each deletion with its clause's literals.
//! Original clauses are not part of a DRAT proof: the checker reads them
//! from the CNF.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::AtPath;
use crate::error::HexError;

/// A binary DRAT file being written.
pub struct DratWriter {
    out: BufWriter<std::fs::File>,
    path: PathBuf,
    scratch: Vec<u8>,
}

impl DratWriter {
    pub fn create(path: &Path) -> Result<DratWriter, HexError> {
        let file = std::fs::File::create(path).at_path(path)?;
        Ok(DratWriter {
            out: BufWriter::with_capacity(1 << 20, file),
            path: path.into(),
            scratch: Vec::with_capacity(256),
        })
    }

    pub fn add(&mut self, lits: &[i32]) -> Result<(), HexError> {
        self.step(b'a', lits)
    }

    pub fn delete(&mut self, lits: &[i32]) -> Result<(), HexError> {
        self.step(b'd', lits)
    }

    fn step(&mut self, tag: u8, lits: &[i32]) -> Result<(), HexError> {
        self.scratch.clear();
        self.scratch.push(tag);
        for &lit in lits {
            put_number(&mut self.scratch, 2 * lit.unsigned_abs() as u64 + (lit < 0) as u64);
        }
        self.scratch.push(0);
        self.out.write_all(&self.scratch).at_path(&self.path)
    }

    /// Flushes and closes the file.
    pub fn finish(mut self) -> Result<(), HexError> {
        self.out.flush().at_path(&self.path)
    }
}

/// Seven bits per byte, low bits first, high bit set on all but the last.
fn put_number(out: &mut Vec<u8>, mut x: u64) {
    while x > 0x7f {
        out.push((x & 0x7f) as u8 | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}
