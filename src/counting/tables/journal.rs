//! The layers of a table build kept beside the checkpoint tables, one file
//! per finished forward layer and one per finished backward table, so that a
//! build stopped mid-pass (Ctrl-C, the end of a session, a killed machine)
//! resumes at its last finished layer of either pass instead of from cell 0
//! or from the last cell. A table of many hours is then lost by at most one
//! layer's work.
//!
//! Invariants relied on:
//! - **A layer resumed is a layer the pass could have made.** A forward
//!   layer is the set of states kept at one step with their least penalty so
//!   far; the backward pass is exact over any forward layers that hold every
//!   state of a valid assignment within the bound with its least penalty so
//!   far (`guide`'s header), and every pass that wrote a journal prunes only
//!   by valid lower bounds. So the table built from resumed layers is the
//!   table built in one run (`reach`'s tests compare them byte for byte).
//! - **A backward table resumed is the table the pass would make.** The
//!   backward table of step `t` is a function of the forward layers `t..` and
//!   the bound alone, and those are the same in every build of one identity
//!   (above); so tables `t..cells` found in the journal stand for the ones
//!   the pass would compute, and it goes on from `t - 1`.
//! - **Whole or refused.** Each layer is written to a temporary name and
//!   renamed (`files::write_atomic_with`); it ends with the SHA-256 of
//!   everything before it, and its header repeats side, level, bound, cells,
//!   its step, its length and its least penalty so far (a backward table:
//!   its least cost to finish), under a first line that says which pass
//!   wrote it, so a file under the other pass's name is refused. A file that exists
//!   is complete; one damaged or misfiled since is an error naming it, never
//!   used. A stop mid-write leaves only a hidden temporary, which is ignored.
//! - **Consecutive.** A build resumes after the longest run of layers
//!   `1..=t` present, and the backward pass after the longest run of tables
//!   `t..cells`; a file with a gap before it is rebuilt over.
//!
//! The hash guards against damage, not against edits: a count that resumed a
//! journal names it among the files it loaded (docs/COUNTING.md).

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::counting::basics::SweepError;
use crate::counting::varint::{get_canonical, put_varint};
use crate::files::write_atomic_with;

/// Which pass wrote a file: its name's prefix and its first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// A forward layer: states packed with their least penalty so far.
    Forward,
    /// A backward table: the states kept, packed with their least cost to finish.
    Backward,
}

impl Pass {
    fn prefix(self) -> &'static str {
        match self {
            Pass::Forward => "layer",
            Pass::Backward => "future",
        }
    }

    fn format(self) -> &'static [u8] {
        match self {
            Pass::Forward => b"hexcert-forward/1\n",
            Pass::Backward => b"hexcert-backward/1\n",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Pass::Forward => "forward layer",
            Pass::Backward => "backward table",
        }
    }
}

/// What identifies a journal: a layer file must repeat all of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    pub side: usize,
    pub level: u8,
    pub bound: usize,
    pub cells: usize,
}

/// A file found in the journal: which pass and step, where, how many
/// states, their least penalty (`None` for an empty layer).
#[derive(Debug, Clone)]
pub struct JournalEntry {
    pub pass: Pass,
    pub t: usize,
    pub path: PathBuf,
    pub len: usize,
    pub minimum: Option<usize>,
}

/// The journal directory of one table build.
pub struct Journal {
    dir: PathBuf,
    id: Identity,
}

/// The journal of (side, level, bound) beside the tables in `dir` (named
/// `.forward` since it first held only the forward layers).
pub fn dir(checkpoints: &Path, side: usize, level: u8, bound: usize) -> PathBuf {
    checkpoints.join(format!("n{side}-level{level}-bound{bound}.forward"))
}

fn invalid(pass: Pass, why: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{} refused: {why}", pass.what()))
}

impl Journal {
    pub fn new(dir: PathBuf, id: Identity) -> Journal {
        Journal { dir, id }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn path(&self, pass: Pass, t: usize) -> PathBuf {
        self.dir.join(format!("{}-{t}", pass.prefix()))
    }

    /// The forward layers `1..=t` already written, in order, each read whole
    /// and checked; empty when the journal is new.
    pub fn resumable(&self) -> Result<Vec<JournalEntry>, SweepError> {
        self.run(Pass::Forward, 1..=self.id.cells)
    }

    /// The backward tables `t..cells` already written, from `cells - 1` down,
    /// each read whole and checked; empty when the backward pass has not begun.
    pub fn resumable_backward(&self) -> Result<Vec<JournalEntry>, SweepError> {
        self.run(Pass::Backward, (0..self.id.cells).rev())
    }

    /// The files of `pass` at the steps `steps` up to the first missing one.
    fn run(&self, pass: Pass, steps: impl Iterator<Item = usize>) -> Result<Vec<JournalEntry>, SweepError> {
        let mut found = Vec::new();
        for t in steps {
            let path = self.path(pass, t);
            if !path.is_file() {
                break;
            }
            let (len, minimum) = self.scan(pass, &path, t, |_| ())?;
            found.push(JournalEntry { pass, t, path, len, minimum });
        }
        Ok(found)
    }

    /// Writes step `t` of `pass` (its packed states, increasing) whole or not at all.
    pub fn write<'a>(
        &self,
        (pass, t): (Pass, usize),
        states: impl Iterator<Item = &'a u128> + Clone,
        minimum: Option<usize>,
    ) -> Result<JournalEntry, SweepError> {
        let path = self.path(pass, t);
        let len = states.clone().count();
        let header = self.header(pass, t, len, minimum);
        write_atomic_with(&path, |out| {
            let mut hashed = Hashing { out, hash: Sha256::new() };
            hashed.write_all(&header)?;
            let mut previous = 0u128;
            for &r in states {
                put_varint(&mut hashed, r - previous)?;
                previous = r;
            }
            let digest = hashed.hash.finalize();
            hashed.out.write_all(&digest)
        })
        .map_err(|e| match e {
            crate::error::HexError::Io { path, source } => SweepError::Scratch { path, source },
            other => SweepError::scratch(&path, std::io::Error::other(other.to_string())),
        })?;
        Ok(JournalEntry { pass, t, path, len, minimum })
    }

    /// The states of a file written by `write`, checked against its hash.
    pub fn read(&self, entry: &JournalEntry) -> Result<Vec<u128>, SweepError> {
        let mut states = Vec::with_capacity(entry.len);
        self.scan(entry.pass, &entry.path, entry.t, |r| states.push(r))?;
        Ok(states)
    }

    /// Removes the journal once its table is saved: the table replaces it.
    pub fn remove(&self) -> Result<(), SweepError> {
        match std::fs::remove_dir_all(&self.dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(SweepError::scratch(&self.dir, e)),
            _ => Ok(()),
        }
    }

    fn header(&self, pass: Pass, t: usize, len: usize, minimum: Option<usize>) -> Vec<u8> {
        let Identity { side, level, bound, cells } = self.id;
        let mut bytes = pass.format().to_vec();
        let fields = [side, usize::from(level), bound, cells, t, len, minimum.map_or(0, |m| m + 1)];
        for field in fields {
            put_varint(&mut bytes, field as u128).expect("writes to memory");
        }
        bytes
    }

    /// Reads step `t` of `pass` at `path`, handing each packed state to
    /// `each`, and returns its length and least penalty once the hash has
    /// matched; any difference from what `write` makes is an error naming the file.
    fn scan(
        &self,
        pass: Pass,
        path: &Path,
        t: usize,
        mut each: impl FnMut(u128),
    ) -> Result<(usize, Option<usize>), SweepError> {
        let fail = |e: std::io::Error| SweepError::scratch(path, e);
        let invalid = |why| invalid(pass, why);
        let file = File::open(path).map_err(fail)?;
        let size = file.metadata().map_err(fail)?.len();
        let mut input = Hashing { out: BufReader::with_capacity(1 << 16, file), hash: Sha256::new() };
        let mut format = vec![0u8; pass.format().len()];
        input.read_exact(&mut format).map_err(fail)?;
        if format != pass.format() {
            let name = String::from_utf8_lossy(pass.format());
            return Err(fail(invalid(format!("not a {} file", name.trim_end()))));
        }
        let mut fields = [0u128; 7];
        for field in fields.iter_mut() {
            *field = get_canonical(&mut input).map_err(fail)?;
        }
        let Identity { side, level, bound, cells } = self.id;
        let expected = [side, usize::from(level), bound, cells, t].map(|x| x as u128);
        if fields[..5] != expected {
            return Err(fail(invalid(format!(
                "it holds side, level, bound, cells, step {:?} (expected {expected:?})",
                &fields[..5]
            ))));
        }
        // Every state takes at least one byte: a length past the file's size is damage, not a reason to allocate.
        if fields[5] > u128::from(size) {
            return Err(fail(invalid(format!("it claims {} states in {size} bytes", fields[5]))));
        }
        let (len, minimum) = (fields[5] as usize, fields[6].checked_sub(1).map(|m| m as usize));
        let mut previous = 0u128;
        let mut least = None;
        for i in 0..len {
            let step = get_canonical(&mut input).map_err(fail)?;
            if i > 0 && step == 0 {
                return Err(fail(invalid("states not strictly increasing".into())));
            }
            previous = previous.checked_add(step).ok_or_else(|| fail(invalid("a state past 128 bits".into())))?;
            let so_far = (previous & 0xff) as usize;
            least = Some(least.map_or(so_far, |m: usize| m.min(so_far)));
            each(previous);
        }
        let digest = input.hash.finalize();
        let mut stored = [0u8; 32];
        input.out.read_exact(&mut stored).map_err(fail)?;
        if digest.as_slice() != stored {
            return Err(fail(invalid("its SHA-256 does not match its contents".into())));
        }
        if input.out.read(&mut [0u8]).map_err(fail)? != 0 {
            return Err(fail(invalid("bytes after the hash".into())));
        }
        if least != minimum {
            return Err(fail(invalid(format!("its least penalty is {least:?}, its header says {minimum:?}"))));
        }
        Ok((len, minimum))
    }
}

/// A reader or writer that hashes every byte passing through it.
struct Hashing<T> {
    out: T,
    hash: Sha256,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(bytes)?;
        self.hash.update(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, bytes: &mut [u8]) -> std::io::Result<usize> {
        let n = self.out.read(bytes)?;
        self.hash.update(&bytes[..n]);
        Ok(n)
    }
}
