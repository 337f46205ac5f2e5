//! The independent DRAT checker: drat-trim when it is on PATH, otherwise
//! `rate` (`cargo install rate`, run with `-d`, drat-trim's treatment of unit
//! deletions). A proof is accepted only on the exact line `s VERIFIED` and no
//! `s NOT VERIFIED`: drat-trim exits 0 on some failures (time-outs, memory),
//! so the exit code alone proves nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::error::AtPath;
use crate::error::HexError;

/// A checker program found on this machine.
#[derive(Debug, Clone)]
pub struct Checker {
    /// `drat-trim` or `rate`.
    pub name: String,
    pub program: PathBuf,
    /// What the program says of its version, or the binary's SHA-256 when it says nothing.
    pub version: String,
}

/// What a checker run said.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Verdict {
    pub verified: bool,
    /// The checker's `s ...` line (or its last line when it printed none).
    pub line: String,
    pub command: String,
    pub seconds: f64,
    pub peak_memory_kb: u64,
}

impl Checker {
    /// drat-trim if on PATH, else rate; `HEXCERT_CHECKER=rate|drat-trim` forces one.
    pub fn find() -> Result<Checker, HexError> {
        let wanted = std::env::var("HEXCERT_CHECKER").ok();
        let order: Vec<&str> = match wanted.as_deref() {
            Some(name) => vec![name],
            None => vec!["drat-trim", "rate"],
        };
        for name in order {
            if let Some(program) = on_path(name) {
                let version = version_of(name, &program);
                return Ok(Checker { name: name.to_string(), program, version });
            }
        }
        Err(HexError::Usage("no DRAT checker found: put drat-trim on PATH, or run `cargo install rate`".into()))
    }

    /// Every DRAT checker on this machine, drat-trim first;
    /// `HEXCERT_CHECKER=rate|drat-trim` keeps only that one.
    pub fn present() -> Vec<Checker> {
        let wanted = std::env::var("HEXCERT_CHECKER").ok();
        ["drat-trim", "rate"]
            .into_iter()
            .filter(|name| wanted.as_deref().is_none_or(|w| w == *name))
            .filter_map(|name| {
                let program = on_path(name)?;
                let version = version_of(name, &program);
                Some(Checker { name: name.to_string(), program, version })
            })
            .collect()
    }

    /// Checks `proof` (DRAT, text or binary) against the plain DIMACS `cnf`.
    pub fn check(&self, cnf: &Path, proof: &Path) -> Result<Verdict, HexError> {
        let mut command = Command::new(&self.program);
        if self.name == "rate" {
            command.arg("-d");
        }
        command.arg(cnf).arg(proof).stdout(Stdio::piped()).stderr(Stdio::piped());
        // Recorded with bare file names: the command as a reader re-runs it
        // on the decompressed `formula.cnf` and `proof.drat` of a certificate.
        let flags = if self.name == "rate" { "-d " } else { "" };
        let shown = format!("{} {flags}formula.cnf proof.drat", self.name);
        let start = Instant::now();
        let child = command.spawn().at_path(&self.program)?;
        let (output, peak_memory_kb) = wait_with_peak_memory(child)?;
        let seconds = start.elapsed().as_secs_f64();
        let text = String::from_utf8_lossy(&output);
        let status_lines: Vec<&str> = text.lines().map(str::trim).filter(|l| l.starts_with("s ")).collect();
        let verified = status_lines.contains(&"s VERIFIED") && !status_lines.contains(&"s NOT VERIFIED");
        let line = status_lines
            .last()
            .copied()
            .or_else(|| text.lines().rev().find(|l| !l.trim().is_empty()))
            .unwrap_or("(no output)")
            .to_string();
        Ok(Verdict { verified, line, command: shown, seconds, peak_memory_kb })
    }
}

/// The program `name` in a directory of PATH, and only there: a checker's
/// verdict is only as good as the program, so hexcert runs the one the
/// user's shell would (`~/.cargo/bin` counts when PATH names it). Relative
/// entries are skipped: they would name whatever the working directory holds.
pub(crate) fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).filter(|d| d.is_absolute()).map(|d| d.join(name)).find(|p| is_executable(p))
}

pub(crate) fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

fn version_of(name: &str, program: &Path) -> String {
    let answer = Command::new(program).arg("--version").stdin(Stdio::null()).output();
    match answer {
        Ok(out) if name == "rate" && out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_string(),
        _ => match crate::digest::sha256_file(program) {
            Ok(hash) => format!("{name} binary sha256 {hash}"),
            Err(_) => format!("{name} (unknown version)"),
        },
    }
}

/// Reads the child's stdout and stderr to the end, reaps it with `wait4` to
/// learn its own peak resident memory (KiB).
fn wait_with_peak_memory(mut child: std::process::Child) -> Result<(Vec<u8>, u64), HexError> {
    use std::io::Read;
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        buf
    });
    let mut output = Vec::new();
    let _ = stdout.read_to_end(&mut output);
    output.extend(err_reader.join().unwrap_or_default());
    let (_, peak) = reap(child)?;
    Ok((output, peak))
}

/// Waits for a child with `wait4`: how it ended unless it exited with
/// status 0 (`exit status 3`, `killed by signal 9`: the kernel's answer to
/// a checker that outgrew the memory), and its own peak resident memory
/// (KiB), which `Child::wait` does not tell.
pub(crate) fn reap(child: std::process::Child) -> Result<(Option<String>, u64), HexError> {
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child, which
    // std has not reaped (we never call child.wait()).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if reaped != pid {
        return Err(HexError::Solver(format!("could not wait for the checker: {}", std::io::Error::last_os_error())));
    }
    let failure = match (libc::WIFEXITED(status), libc::WIFSIGNALED(status)) {
        (true, _) if libc::WEXITSTATUS(status) == 0 => None,
        (true, _) => Some(format!("exit status {}", libc::WEXITSTATUS(status))),
        (_, true) => Some(format!("killed by signal {}", libc::WTERMSIG(status))),
        _ => Some(format!("wait status {status}")),
    };
    Ok((failure, usage.ru_maxrss.max(0) as u64))
}
