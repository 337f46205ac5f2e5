//! The engine's error type. Input problems carry the file and line they come
//! from, so the command line can print one line that names them.

use std::path::{Path, PathBuf};

mod record;
pub use record::RecordError;

/// Everything that can go wrong in the engine.
#[derive(Debug, thiserror::Error)]
pub enum HexError {
    /// A bad argument (size, level, bound out of range).
    #[error("{0}")]
    Usage(String),
    /// A malformed input file; `line` is 1-based, 0 when it concerns the whole file.
    #[error("{}{}: {message}", file.display(), if *line > 0 { format!(":{line}") } else { String::new() })]
    Input { file: PathBuf, line: usize, message: String },
    /// A record, or a proof it names, fails a check (one variant per way:
    /// `RecordError`); `line` as for `Input`.
    #[error("{}{}: {error}", file.display(), if *line > 0 { format!(":{line}") } else { String::new() })]
    Record { file: PathBuf, line: usize, error: RecordError },
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// The SAT solver failed (not UNSAT: an internal failure).
    #[error("solver: {0}")]
    Solver(String),
    /// A solver call was stopped before it answered (Ctrl-C, or a race lost).
    #[error("interrupted")]
    Interrupted,
    /// An internal consistency check failed: a model the validator rejects.
    #[error("internal check failed: {0}")]
    Internal(String),
    /// A checker rejected a proof made in this run, which no record names
    /// yet (prove, a cube run, a listing): a fault of the solver or the
    /// checker, reported as `Internal` is. The failure itself is the one
    /// `RecordError::LratRejected` a stored proof's rejection is.
    #[error("internal check failed: {0}")]
    Rejected(RecordError),
    /// Work still open (cubes not refuted yet): nothing wrong, nothing to conclude.
    #[error("{0}")]
    Open(String),
    /// A validated model contradicts a record that claims a proof, or a
    /// formula a record claims refuted is satisfiable: the record is false.
    #[error("contradiction: {0}")]
    Contradiction(String),
}

/// The one way an I/O failure becomes an engine error: with the path it
/// concerns, so the one line printed names the file (`std::fs::read(p).at_path(p)?`).
pub trait AtPath<T> {
    /// `HexError::Io` naming `path` (`HexError::io`) when `self` failed.
    ///
    /// # Errors
    ///
    /// `HexError::Io` when `self` is an error.
    fn at_path(self, path: impl AsRef<Path>) -> Result<T, HexError>;
}

impl<T> AtPath<T> for std::io::Result<T> {
    fn at_path(self, path: impl AsRef<Path>) -> Result<T, HexError> {
        self.map_err(|source| HexError::io(path, source))
    }
}

impl HexError {
    /// An I/O failure at `path`: what `AtPath::at_path` makes, for an
    /// error met outside an `io::Result` (a match arm, a converted error).
    pub fn io(path: impl AsRef<Path>, source: std::io::Error) -> HexError {
        HexError::Io { path: path.as_ref().to_path_buf(), source }
    }

    /// A write this machine had no room for (full disk, file-size limit,
    /// quota): the environment's failure, never a verdict on what was being
    /// checked, so a check that meets one stops with it instead of calling a
    /// certificate failed.
    pub fn is_no_room(&self) -> bool {
        use std::io::ErrorKind::{FileTooLarge, QuotaExceeded, StorageFull};
        matches!(self, HexError::Io { source, .. } if matches!(source.kind(), StorageFull | FileTooLarge | QuotaExceeded))
    }
}

// Here rather than beside `RecordError`, which `HexError` holds: the record
// layer's error file then imports nothing, and no file circle closes.
impl RecordError {
    /// The engine error naming the file.
    pub fn at(self, file: &Path) -> HexError {
        HexError::Record { file: file.into(), line: 0, error: self }
    }
}
