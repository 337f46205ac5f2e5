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

/// `dir/.name.<pid>.tmp`: hidden, unique per process, in the target's directory.
pub fn temporary_name(path: &Path) -> PathBuf {
    let name = path.file_name().map_or("out".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
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

/// The bytes of `path`, which must be a regular file of at most `limit`
/// bytes; `what` names it in the one-line refusal. The file is opened without
/// blocking and judged on the opened handle, so a FIFO, a device or a
/// directory put in its place is refused, not waited on or read forever.
pub fn read_regular(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, HexError> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let io = |source| HexError::Io { path: path.to_path_buf(), source };
    let refuse = |why: String| HexError::Input { file: path.to_path_buf(), line: 0, message: format!("{what} refused: {why}") };
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(refuse("not a regular file".into()));
    }
    if meta.len() > limit {
        return Err(refuse(format!("{} bytes, more than the limit of {limit}", meta.len())));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(refuse(format!("grew past the limit of {limit} bytes while read")));
    }
    Ok(bytes)
}
