//! Output files that cannot be left half-written: write a temporary sibling,
//! flush it to disk, then rename it over the target (rename is atomic within
//! a directory on POSIX file systems).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::AtPath;
use crate::error::HexError;

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), HexError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).at_path(path)?;
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
    result.at_path(path)
}

/// Writes `bytes` over `path` as `write_atomic` does, but only if `path`
/// still holds what the writer last read: compare before replace. The new
/// bytes go to a temporary sibling first (the slow part, synced); then the
/// target is read again and handed to `unchanged`, and only if it says so is
/// the sibling renamed over it. Otherwise nothing is replaced (the sibling
/// is removed) and the answer is `Ok(false)`: another command wrote the file
/// meanwhile, and a copy read before that must not revert it. A file gone
/// (moved out by a writer mid-replace) counts as changed.
pub fn replace_if_unchanged(
    path: &Path,
    bytes: &[u8],
    limit: u64,
    unchanged: impl FnOnce(&[u8]) -> bool,
) -> Result<bool, HexError> {
    let temp = temporary_name(path);
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        let now = read_bounded_bytes(path, limit);
        if !now.is_ok_and(|now| unchanged(&now)) {
            std::fs::remove_file(&temp)?;
            return Ok(false);
        }
        std::fs::rename(&temp, path).map(|()| true)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result.at_path(path)
}

/// `dir/.name.<run id>.tmp`: hidden, unique per run on every host sharing
/// the directory (a pid alone repeats across hosts and PID namespaces), in
/// the target's directory.
pub fn temporary_name(path: &Path) -> PathBuf {
    let name = path.file_name().map_or("out".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.tmp", crate::run::run_id()))
}

/// Streams `write` into a temporary sibling of `path`, then renames it over
/// `path`: a reader never sees a half-written file, and a failed write leaves
/// no file at all.
pub fn write_atomic_with<F>(path: &Path, write: F) -> Result<(), HexError>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).at_path(path)?;
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
    result.at_path(path)
}

/// Why a bounded read refused a file.
#[derive(Debug)]
pub enum Refused {
    Io(std::io::Error),
    /// A FIFO, a device, a directory: nothing a record or a table can be.
    NotRegular,
    /// More bytes than the limit (at open, or grown while read).
    TooLarge {
        bytes: u64,
    },
}

/// `path` opened for reading, which must be a regular file. It is opened
/// without blocking and judged on the opened handle, so a FIFO, a device or
/// a directory put in its place is refused, not waited on or read forever.
/// Every reader of an input file opens it through this one.
pub fn open_regular(path: &Path) -> Result<std::fs::File, Refused> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path).map_err(Refused::Io)?;
    if !file.metadata().map_err(Refused::Io)?.is_file() {
        return Err(Refused::NotRegular);
    }
    Ok(file)
}

/// The bytes of `path`, which must be a regular file (`open_regular`) of at
/// most `limit` bytes. Every bounded reader is built on this one.
pub fn read_bounded_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, Refused> {
    use std::io::Read;
    let file = open_regular(path)?;
    let len = file.metadata().map_err(Refused::Io)?.len();
    if len > limit {
        return Err(Refused::TooLarge { bytes: len });
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(Refused::Io)?;
    if bytes.len() as u64 > limit {
        return Err(Refused::TooLarge { bytes: bytes.len() as u64 });
    }
    Ok(bytes)
}

impl Refused {
    /// The refusal as an I/O error, for readers that report those.
    pub fn into_io(self) -> std::io::Error {
        match self {
            Refused::Io(source) => source,
            Refused::NotRegular => std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file"),
            Refused::TooLarge { bytes } => {
                std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{bytes} bytes, more than the limit"))
            }
        }
    }

    /// A one-line error naming `path` and `what` it is.
    fn at(self, path: &Path, what: &str, limit: u64) -> HexError {
        let refuse = |why: String| HexError::Input {
            file: path.to_path_buf(),
            line: 0,
            message: format!("{what} refused: {why}"),
        };
        match self {
            Refused::Io(source) => HexError::io(path, source),
            Refused::NotRegular => refuse("not a regular file".into()),
            Refused::TooLarge { bytes } => refuse(format!("{bytes} bytes, more than the limit of {limit}")),
        }
    }
}

/// `read_bounded_bytes` with a one-line refusal naming the file and `what` it is.
pub fn read_regular(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, HexError> {
    read_bounded_bytes(path, limit).map_err(|refused| refused.at(path, what, limit))
}

/// `open_regular` with a one-line refusal naming the file and `what` it is,
/// for a reader that bounds what it reads itself (a stream).
pub fn open_regular_or_refuse(path: &Path, what: &str) -> Result<std::fs::File, HexError> {
    open_regular(path).map_err(|refused| refused.at(path, what, u64::MAX))
}

/// `path` with its `.` and `..` resolved by name, as a record's relative
/// paths are meant (`a/b/../c` is `a/c`); a `..` with nothing left to undo
/// stays.
pub fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    path.components().fold(PathBuf::new(), |mut acc, c| {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match acc.components().next_back() {
                Some(Component::Normal(_)) => drop(acc.pop()),
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => acc.push(".."),
            },
            other => acc.push(other),
        }
        acc
    })
}

/// `target` as a path relative to directory `from`, both made absolute
/// and their `.` and `..` resolved by name (neither need exist yet).
///
/// # Errors
///
/// `HexError::Io` when the current directory cannot be read.
pub fn relative_to(from: &Path, target: &Path) -> Result<String, HexError> {
    let absolute =
        |p: &Path| -> Result<PathBuf, HexError> { std::path::absolute(p).map(|full| lexical(&full)).at_path(p) };
    let (from, target) = (absolute(from)?, absolute(target)?);
    let common = from.components().zip(target.components()).take_while(|(a, b)| a == b).count();
    let up = from.components().count() - common;
    let path: PathBuf = std::iter::repeat_n(std::path::Component::ParentDir.as_os_str(), up)
        .chain(target.components().skip(common).map(|c| c.as_os_str()))
        .collect();
    Ok(path.to_string_lossy().into_owned())
}
