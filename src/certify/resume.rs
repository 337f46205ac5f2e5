//! What a `certify` run leaves behind for the next one when it is stopped
//! (Ctrl-C, or killed outright at the end of a session): under
//! `proofs/n<N>/.resume/`
//!
//! - `level<K>.txt`: the best level-K partial found so far. A rerun starts
//!   that level's descent from it instead of from a fresh model. It is only
//!   a starting point: it is re-validated by the plain validator when read,
//!   and the search re-derives everything it claims.
//!
//! Refutations are not kept here: their proofs are checked while the solver
//! writes them, so a refutation is either stored as a certificate moments
//! after its UNSAT answer or solved again by the next run. A parked proof
//! with a verdict recorded in a file would be a verdict nobody re-checked.
//!
//! Every file is written under a temporary name and renamed, so a stop
//! never leaves a half-written one; the directory goes once `optimum.json`
//! exists.

use std::path::{Path, PathBuf};

use crate::encoding::model::Found;
use crate::error::AtPath;
use crate::error::HexError;
use crate::formats::{read_grid_file, to_hexcert_text};
use crate::geometry::Hexagon;
use crate::validation::evaluate;

/// The `.resume` directory of one n.
#[derive(Debug, Clone)]
pub struct ResumeDir {
    path: PathBuf,
}

impl ResumeDir {
    /// `proofs/n<N>/.resume` for the n whose directory is `n_dir`.
    pub fn new(n_dir: &Path) -> ResumeDir {
        ResumeDir { path: n_dir.join(".resume") }
    }

    fn create(&self) -> Result<(), HexError> {
        std::fs::create_dir_all(&self.path).at_path(&self.path)
    }

    fn best_path(&self, level: u8) -> PathBuf {
        self.path.join(format!("level{level}.txt"))
    }

    /// The saved best level-k partial, if one is there and the validator
    /// accepts it; anything unreadable is ignored (the search starts afresh),
    /// and said so on stderr when it is not merely missing: a fifo or a
    /// device there is refused by the reader, never waited on.
    pub fn best(&self, hex: &Hexagon, level: u8) -> Option<Found> {
        match self.saved(hex, level) {
            Ok(found) => found,
            Err(HexError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => {
                eprintln!("{error}; the search starts afresh");
                None
            }
        }
    }

    fn saved(&self, hex: &Hexagon, level: u8) -> Result<Option<Found>, HexError> {
        let grid = read_grid_file(&self.best_path(level), Some(hex.side()))?;
        let evaluation = evaluate(hex, &grid.partial);
        Ok((grid.partial.level() == level && evaluation.is_valid())
            .then_some(Found { partial: grid.partial, evaluation }))
    }

    /// Saves `found` as the level's best unless a saved one is at least as good.
    pub fn offer(&self, hex: &Hexagon, found: &Found) -> Result<(), HexError> {
        let level = found.partial.level();
        if self.saved(hex, level).ok().flatten().is_some_and(|b| b.evaluation.penalty <= found.evaluation.penalty) {
            return Ok(());
        }
        self.create()?;
        crate::files::write_atomic(&self.best_path(level), to_hexcert_text(&found.partial).as_bytes())
    }

    /// Removes the directory (the n is done).
    pub fn remove(&self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
