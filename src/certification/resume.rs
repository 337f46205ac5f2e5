//! What a `certify` run leaves behind for the next one when it is stopped
//! (Ctrl-C, or killed outright at the end of a session): under
//! `proofs/n<N>/.resume/`
//!
//! - `level<K>.txt`: the best level-K partial found so far. A rerun starts
//!   that level's descent from it instead of from a fresh model. It is only
//!   a starting point: it is re-validated by the plain validator when read,
//!   and the search re-derives everything it claims.
//! - `level<K>-below<B>.drat` and `.json`: a refutation whose solve finished
//!   but whose check had not. A rerun checks the parked proof instead of
//!   solving again (the hours of an n=10 solve survive a stop). The proof is
//!   trusted no more than a fresh one: the certificate is written only on the
//!   checker's `s VERIFIED` against the re-encoded CNF.
//!
//! Every file is written under a temporary name and renamed, so a stop
//! never leaves a half-written one; the directory goes once `optimum.json`
//! exists.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::prove::Refutation;
use crate::encoding::{Cardinality, EncodeOptions, SymmetryBreaking};
use crate::error::HexError;
use crate::formats::{read_grid_file, to_hexcert_text};
use crate::geometry::Hexagon;
use crate::solving::search::Found;
use crate::validation::evaluate;

/// The `.resume` directory of one n.
#[derive(Debug, Clone)]
pub struct ResumeDir {
    path: PathBuf,
}

/// A parked refutation: enough to rebuild the `Refutation` around its proof.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ParkedRefutation {
    level: u8,
    below: usize,
    cardinality: Cardinality,
    symmetry: SymmetryBreaking,
    solve_seconds: f64,
}

impl ResumeDir {
    /// `proofs/n<N>/.resume` for the n whose directory is `n_dir`.
    pub fn new(n_dir: &Path) -> ResumeDir {
        ResumeDir { path: n_dir.join(".resume") }
    }

    fn create(&self) -> Result<(), HexError> {
        std::fs::create_dir_all(&self.path).map_err(|source| HexError::Io { path: self.path.clone(), source })
    }

    fn best_path(&self, level: u8) -> PathBuf {
        self.path.join(format!("level{level}.txt"))
    }

    fn parked_paths(&self, level: u8, below: usize) -> (PathBuf, PathBuf) {
        let stem = format!("level{level}-below{below}");
        (self.path.join(format!("{stem}.json")), self.path.join(format!("{stem}.drat")))
    }

    /// The saved best level-k partial, if one is there and the validator
    /// accepts it; anything unreadable is ignored (the search starts afresh).
    pub fn best(&self, hex: &Hexagon, level: u8) -> Option<Found> {
        let grid = read_grid_file(&self.best_path(level), Some(hex.side())).ok()?;
        let evaluation = evaluate(hex, &grid.partial);
        (grid.partial.level() == level && evaluation.is_valid()).then_some(Found { partial: grid.partial, evaluation })
    }

    /// Saves `found` as the level's best unless a saved one is at least as good.
    pub fn offer(&self, hex: &Hexagon, found: &Found) -> Result<(), HexError> {
        let level = found.partial.level();
        if self.best(hex, level).is_some_and(|b| b.evaluation.penalty <= found.evaluation.penalty) {
            return Ok(());
        }
        self.create()?;
        crate::files::write_atomic(&self.best_path(level), to_hexcert_text(&found.partial).as_bytes())
    }

    /// Moves the refutation's proof here and records it; returns the
    /// refutation with its proof at the new place.
    pub fn park(&self, refutation: Refutation) -> Result<Refutation, HexError> {
        self.create()?;
        let (record, proof) = self.parked_paths(refutation.level, refutation.below);
        std::fs::rename(&refutation.proof, &proof).map_err(|source| HexError::Io { path: proof.clone(), source })?;
        let parked = ParkedRefutation {
            level: refutation.level,
            below: refutation.below,
            cardinality: refutation.options.cardinality,
            symmetry: refutation.options.symmetry,
            solve_seconds: refutation.solve_seconds,
        };
        // The record is written after the proof is in place: a record always
        // names a complete proof.
        crate::files::write_atomic(&record, &serde_json::to_vec_pretty(&parked).expect("serialises"))?;
        Ok(Refutation { proof, ..refutation })
    }

    /// A refutation of this claim parked by an earlier run.
    pub fn parked(&self, level: u8, below: usize) -> Option<Refutation> {
        let (record, proof) = self.parked_paths(level, below);
        let parked: ParkedRefutation = serde_json::from_slice(&std::fs::read(&record).ok()?).ok()?;
        if parked.level != level || parked.below != below || below == 0 || !proof.exists() {
            return None;
        }
        let options = EncodeOptions { cardinality: parked.cardinality, symmetry: parked.symmetry, ..EncodeOptions::bounded(Some(below - 1)) };
        Some(Refutation { level, below, options, proof, solve_seconds: parked.solve_seconds })
    }

    /// Forgets a parked refutation (checked and stored, or rejected).
    pub fn unpark(&self, level: u8, below: usize) {
        let (record, proof) = self.parked_paths(level, below);
        let _ = std::fs::remove_file(record);
        let _ = std::fs::remove_file(proof);
    }

    /// Removes the directory (the n is done).
    pub fn remove(&self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
