//! Output files that cannot be left half-written: write a temporary sibling,
//! flush it to disk, then rename it over the target (rename is atomic within
//! a directory on POSIX file systems).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::HexError;

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), HexError> {
    let io = |source| HexError::Io { path: path.to_path_buf(), source };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let temp = temporary_name(path);
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result.map_err(io)
}

/// `dir/.name.<run id>.tmp`: hidden, unique per run on every host sharing
/// the directory (a pid alone repeats across hosts and PID namespaces), in
/// the target's directory.
pub fn temporary_name(path: &Path) -> PathBuf {
    let name = path.file_name().map_or("out".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.tmp", crate::records::run::run_id()))
}

/// Streams `write` into a temporary sibling of `path`, then renames it over
/// `path`: a reader never sees a half-written file, and a failed write leaves
/// no file at all.
pub fn write_atomic_with<F>(path: &Path, write: F) -> Result<(), HexError>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    let io = |source| HexError::Io { path: path.to_path_buf(), source };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let temp = temporary_name(path);
    let result = (|| {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&temp)?);
        write(&mut out)?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result.map_err(io)
}
