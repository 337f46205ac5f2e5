//! The formally verified LRAT checker: cake_lpr (CakeML, its correctness
//! proved in HOL4), run as an outside program the way drat-trim is.
//!
//! It is optional: when it is on PATH, or named by `--cake-lpr`, every LRAT
//! proof hexcert stores or produces is also handed to it, on the formula the
//! proof refutes (a cube's own CNF: the plain formula plus the cube's
//! units). A proof being written is piped to it step by step (`Stream`), so
//! a proof of hundreds of gigabytes never touches the disk. Its verdict is
//! accepted only on the exact line `s VERIFIED UNSAT` with exit status 0,
//! and is recorded with the SHA-256 of the formula and of the LRAT bytes it
//! was given and of the binary that ran (`VerdictInputs`): a binary not in
//! `records::claim::KNOWN_VERIFIED_BUILDS` is an "unknown build", whose
//! verdict no trust base counts.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread::JoinHandle;
use std::time::Instant;

use sha2::{Digest, Sha256};

use crate::error::AtPath;
use crate::error::HexError;
use crate::records::claim::{verified_build, VerdictInputs, VERIFIED_VERSION_PREFIX};
use crate::records::CheckerRecord;

/// The program's name, on PATH or as the flag names it (as its records name it).
pub const NAME: &str = crate::records::claim::VERIFIED_CHECKER;
/// The only line that accepts a refutation.
pub const ACCEPTED: &str = crate::records::claim::VERIFIED_ACCEPTED;

/// A cake_lpr binary found on this machine.
#[derive(Debug, Clone)]
pub struct VerifiedChecker {
    pub program: PathBuf,
    /// cake_lpr prints no version: its binary's SHA-256 names it.
    pub version: String,
    /// That SHA-256, and the build it is (`verified_build`: a known one, or "unknown build").
    pub sha256: String,
    pub build: &'static str,
}

impl VerifiedChecker {
    /// The checker `named` (a path, refused with one line when it is not an
    /// executable file), else `cake_lpr` on PATH, else none.
    pub fn find(named: Option<&Path>) -> Result<Option<VerifiedChecker>, HexError> {
        let program = match named {
            Some(path) if super::checker::is_executable(path) => path.to_path_buf(),
            Some(path) => {
                return Err(HexError::Usage(format!("--cake-lpr {}: not an executable file", path.display())))
            }
            None => match super::checker::on_path(NAME) {
                Some(program) => program,
                None => return Ok(None),
            },
        };
        let hash = crate::digest::sha256_file(&program).at_path(&program)?;
        let version = format!("{VERIFIED_VERSION_PREFIX}{hash}");
        Ok(Some(VerifiedChecker { program, version, build: verified_build(&hash), sha256: hash }))
    }

    /// Checks the LRAT proof file `proof` (text or binary) against `cnf`.
    pub fn check_file(&self, cnf: &Path, proof: &Path) -> Result<CheckerRecord, HexError> {
        let start = Instant::now();
        let formula = hash_of(cnf)?;
        let lrat = hash_of(proof)?;
        let child = self.spawn(cnf, proof.as_os_str(), Stdio::null())?;
        self.verdict(child, start, "cake_lpr formula.cnf proof.lrat", (formula, lrat))
    }

    /// Starts a check of the proof that will be written to the returned
    /// stream, against `cnf` (which must stay in place until `finish`).
    pub fn stream(&self, cnf: &Path) -> Result<Stream, HexError> {
        let start = Instant::now();
        let formula = hash_of(cnf)?;
        // cake_lpr opens its proof by name and reads it front to back, so
        // the pipe it inherits as stdin serves as the file.
        let mut child = self.spawn(cnf, "/dev/stdin".as_ref(), Stdio::piped())?;
        let input = std::io::BufWriter::with_capacity(1 << 20, child.stdin.take().expect("piped"));
        Ok(Stream {
            checker: self.clone(),
            child: Some(child),
            input: Some(input),
            start,
            bytes: 0,
            formula,
            lrat: Sha256::new(),
        })
    }

    fn spawn(&self, cnf: &Path, proof: &std::ffi::OsStr, stdin: Stdio) -> Result<Child, HexError> {
        Command::new(&self.program)
            .arg(cnf)
            .arg(proof)
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .at_path(&self.program)
    }

    /// The verdict of `child`, given the formula and LRAT proof with the SHA-256s `read`.
    fn verdict(
        &self,
        mut child: Child,
        start: Instant,
        command: &str,
        read: (String, String),
    ) -> Result<CheckerRecord, HexError> {
        let errors = drain(child.stderr.take().expect("piped"));
        let mut output = Vec::new();
        let _ = child.stdout.take().expect("piped").read_to_end(&mut output);
        output.extend(errors.join().unwrap_or_default());
        let (failure, peak_memory_kb) = super::checker::reap(child)?;
        let text = String::from_utf8_lossy(&output);
        let accepted = failure.is_none() && text.lines().any(|l| l.trim() == ACCEPTED);
        let line = if accepted {
            ACCEPTED.to_string()
        } else {
            let last = text.lines().rev().map(str::trim).find(|l| !l.is_empty()).unwrap_or("(no output)");
            let ended = failure.map(|how| format!(" ({how})")).unwrap_or_default();
            format!("s NOT VERIFIED: {}{ended}", last.chars().take(200).collect::<String>())
        };
        Ok(CheckerRecord {
            name: NAME.into(),
            version: self.version.clone(),
            command: command.into(),
            verdict: line,
            seconds: start.elapsed().as_secs_f64(),
            peak_memory_kb,
            read: Some(VerdictInputs {
                formula_sha256: read.0,
                lrat_sha256: read.1,
                checker_sha256: self.sha256.clone(),
                build: self.build.into(),
            }),
        })
    }
}

fn hash_of(path: &Path) -> Result<String, HexError> {
    crate::digest::sha256_file(path).at_path(path)
}

/// Writes the formula a proof refutes into `work`, where the checker reads
/// it by name while the proof streams in; returns its path.
pub fn write_formula(work: &Path, dimacs: &[u8]) -> Result<PathBuf, HexError> {
    let path = work.join("formula.cnf");
    std::fs::write(&path, dimacs).at_path(&path)?;
    Ok(path)
}

fn drain(mut from: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = from.read_to_end(&mut buf);
        buf
    })
}

/// A proof being piped to cake_lpr as it is written.
pub struct Stream {
    checker: VerifiedChecker,
    /// Taken by `finish`; killed on drop when the proof was abandoned.
    child: Option<Child>,
    /// Closed once cake_lpr stops reading (it has decided), so the rest of
    /// the proof is not written into a pipe nobody reads.
    input: Option<std::io::BufWriter<ChildStdin>>,
    start: Instant,
    bytes: u64,
    /// SHA-256 of the formula, and of the proof bytes as they are written.
    formula: String,
    lrat: Sha256,
}

impl Stream {
    /// Hands the next bytes of the proof to the checker.
    pub fn write(&mut self, bytes: &[u8]) {
        // Hashed whether or not the checker still reads: the verdict names
        // the whole proof it was handed.
        self.lrat.update(bytes);
        self.bytes += bytes.len() as u64;
        let Some(input) = self.input.as_mut() else { return };
        // Only a write that reaches the pipe can meet a dead reader.
        let _pipe = (input.buffer().len() + bytes.len() > input.capacity()).then(PipeGuard::block);
        if input.write_all(bytes).is_err() {
            self.input = None; // it stopped reading: its verdict says why
        }
    }

    /// Ends the proof and waits for the verdict.
    pub fn finish(mut self) -> Result<CheckerRecord, HexError> {
        if let Some(mut input) = self.input.take() {
            let _pipe = PipeGuard::block();
            let _ = input.flush();
            drop(input); // the checker sees the end of its proof
        }
        let command =
            format!("cake_lpr formula.cnf /dev/stdin (binary LRAT piped as the solver wrote it, {} bytes)", self.bytes);
        let child = self.child.take().expect("finished once");
        let lrat = crate::digest::finish_hex(std::mem::take(&mut self.lrat));
        self.checker.verdict(child, self.start, &command, (std::mem::take(&mut self.formula), lrat))
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // A proof abandoned before `finish` (an error, Ctrl-C): no verdict
        // is wanted, and the checker must not outlive the run.
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        // Unflushed: what it holds would go to a reader just killed.
        if let Some(input) = self.input.take() {
            let _ = input.into_parts();
        }
    }
}

/// While alive, a write to a pipe whose reader is gone fails with `EPIPE`
/// on this thread instead of killing the process: `main` gives SIGPIPE its
/// default (a quiet end for `hexcert table | head`), but cake_lpr killed
/// mid-proof (out of memory) must end in a verdict that says so, not in a
/// run that dies without a word. Blocked on the writing thread only; a
/// SIGPIPE raised meanwhile is taken off the thread before it is unblocked.
struct PipeGuard(libc::sigset_t);

impl PipeGuard {
    fn block() -> PipeGuard {
        // SAFETY: sigset_t is plain data, filled by sigemptyset/pthread_sigmask.
        unsafe {
            let mut old: libc::sigset_t = std::mem::zeroed();
            libc::pthread_sigmask(libc::SIG_BLOCK, &sigpipe(), &mut old);
            PipeGuard(old)
        }
    }
}

impl Drop for PipeGuard {
    fn drop(&mut self) {
        // SAFETY: as above; a zero timeout never waits.
        unsafe {
            let mut pending: libc::sigset_t = std::mem::zeroed();
            libc::sigpending(&mut pending);
            if libc::sigismember(&pending, libc::SIGPIPE) == 1 {
                let now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
                libc::sigtimedwait(&sigpipe(), std::ptr::null_mut(), &now);
            }
            libc::pthread_sigmask(libc::SIG_SETMASK, &self.0, std::ptr::null_mut());
        }
    }
}

/// The set holding SIGPIPE alone.
fn sigpipe() -> libc::sigset_t {
    // SAFETY: sigemptyset initialises the set before sigaddset reads it.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        set
    }
}

impl VerifiedChecker {
    /// Checks a gzipped LRAT proof against `cnf`, decompressing it into the
    /// checker's pipe (nothing written to disk).
    pub fn check_gz(&self, cnf: &Path, gz: &Path) -> Result<CheckerRecord, HexError> {
        let file = std::fs::File::open(gz).at_path(gz)?;
        let mut proof = flate2::read::GzDecoder::new(std::io::BufReader::new(file));
        let mut stream = self.stream(cnf)?;
        let mut buffer = vec![0u8; 1 << 20];
        loop {
            match proof.read(&mut buffer) {
                Ok(0) => break,
                Ok(read) => stream.write(&buffer[..read]),
                Err(source) => return Err(HexError::io(gz, source)),
            }
        }
        let mut record = stream.finish()?;
        record.command = "cake_lpr formula.cnf proof.lrat (the stored proof, decompressed into its pipe)".into();
        Ok(record)
    }
}
