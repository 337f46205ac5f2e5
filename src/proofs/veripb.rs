//! The VeriPB checker, for derivations from the OPB statement to a claim's
//! CNF (src/derivation/). A derivation is accepted only when VeriPB accepts
//! the whole proof and its output section is `output DERIVABLE FILE`, VeriPB's
//! word that its final core is the target file's clauses: the program exits
//! 0 and prints the exact line `s VERIFIED OUTPUT DERIVABLE` (`s VERIFIED`
//! alone would only say that no rule failed).
//!
//! VeriPB runs one of three ways (`Veripb::find`, in this order):
//! - the program `HEXCERT_VERIPB` names (`--veripb-program` sets it);
//! - `veripb` on PATH (`cargo install veripb --locked`);
//! - the VeriPB library linked into hexcert (cargo feature `veripb`, on by
//!   default): the crate that `cargo install veripb` builds, whose program is
//!   its `run_checker` behind a command line. It runs in this process on the
//!   same three files, and its verdict is recorded as
//!   `veripb 3.0.2 (library)`, the program's as `veripb 3.0.2`.
//!
//! `HEXCERT_VERIPB=library` takes the library even with a `veripb` on PATH;
//! `HEXCERT_VERIPB=none` runs no VeriPB (the derivations are then unverified).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use super::checker::on_path;
use crate::error::AtPath;
use crate::error::HexError;

/// The line that accepts a derivation.
pub const ACCEPTED: &str = "s VERIFIED OUTPUT DERIVABLE";

/// The environment variable that chooses VeriPB: a program's path,
/// `library` or `none`.
pub const CHOICE: &str = "HEXCERT_VERIPB";

/// The version of the VeriPB library linked in (Cargo.toml pins it exactly).
pub const LIBRARY_VERSION: &str = "3.0.2";

/// What a VeriPB run said.
#[derive(Debug, Clone, serde::Serialize)]
pub struct VeripbVerdict {
    pub verified: bool,
    /// `s VERIFIED OUTPUT DERIVABLE`, or where and why VeriPB rejected.
    pub line: String,
    /// The command, with bare file names.
    pub command: String,
    pub version: String,
    pub seconds: f64,
}

/// How VeriPB runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runner {
    /// A `veripb` program, as a child process.
    Program(PathBuf),
    /// The VeriPB library linked into this binary, in this process.
    Library,
}

/// VeriPB as found for this run.
#[derive(Debug, Clone)]
pub struct Veripb {
    pub runner: Runner,
    /// `veripb 3.0.2` as the program states it, or `veripb 3.0.2 (library)`.
    pub version: String,
}

/// What `HEXCERT_VERIPB` asks for.
enum Choice {
    Default,
    Program(PathBuf),
    Library,
    None,
}

fn choice() -> Choice {
    match std::env::var_os(CHOICE) {
        None => Choice::Default,
        Some(value) if value.is_empty() => Choice::Default,
        Some(value) if value == "library" => Choice::Library,
        Some(value) if value == "none" => Choice::None,
        Some(value) => Choice::Program(PathBuf::from(value)),
    }
}

impl Veripb {
    /// The VeriPB of this run (module documentation), if any.
    pub fn find() -> Option<Veripb> {
        match choice() {
            Choice::Program(program) => Veripb::program(program),
            Choice::Library => Veripb::library(),
            Choice::None => None,
            Choice::Default => on_path("veripb").and_then(Veripb::program).or_else(Veripb::library),
        }
    }

    /// The VeriPB library, when this build links it.
    pub fn library() -> Option<Veripb> {
        cfg!(feature = "veripb")
            .then(|| Veripb { runner: Runner::Library, version: format!("veripb {LIBRARY_VERSION} (library)") })
    }

    /// The program at `program`, if it starts.
    fn program(program: PathBuf) -> Option<Veripb> {
        let answer = Command::new(&program).arg("--version").stdin(Stdio::null()).output().ok()?;
        let text = String::from_utf8_lossy(&answer.stdout).to_string();
        let version =
            text.lines().find(|l| l.starts_with("veripb ")).unwrap_or("veripb (unknown version)").trim().to_string();
        Some(Veripb { runner: Runner::Program(program), version })
    }

    /// Why `find` found none, for the reports that say a derivation is unverified.
    pub fn missing() -> String {
        match choice() {
            Choice::None => format!("VeriPB is not used in this run ({CHOICE}=none)"),
            Choice::Program(program) => format!("VeriPB is not at {} ({CHOICE} names it), so it did not run", program.display()),
            Choice::Library => format!("this hexcert has no VeriPB library (built without the cargo feature `veripb`; {CHOICE}=library)"),
            Choice::Default => "VeriPB is not on PATH (cargo install veripb --locked), and this hexcert has no VeriPB library (built without the cargo feature `veripb`)".into(),
        }
    }

    /// Checks that `derivation` derives `target` from `statement`.
    /// Errors: VeriPB could not be started.
    pub fn check(&self, statement: &Path, derivation: &Path, target: &Path) -> Result<VeripbVerdict, HexError> {
        let start = Instant::now();
        let (verified, line) = match &self.runner {
            Runner::Program(program) => run_program(program, statement, derivation, target)?,
            Runner::Library => run_library(statement, derivation, target)?,
        };
        let seconds = start.elapsed().as_secs_f64();
        let command = format!("veripb {} {} {}", name(statement), name(derivation), name(target));
        let command = match self.runner {
            Runner::Program(_) => command,
            Runner::Library => format!("{command} (in-process: the veripb crate's run_checker)"),
        };
        Ok(VeripbVerdict { verified, line, command, version: self.version.clone(), seconds })
    }
}

/// The program's verdict: exit 0 and the line `ACCEPTED`; on a rejection,
/// where and why.
fn run_program(program: &Path, statement: &Path, derivation: &Path, target: &Path) -> Result<(bool, String), HexError> {
    let out = Command::new(program)
        .arg(statement)
        .arg(derivation)
        .arg(target)
        .stdin(Stdio::null())
        .output()
        .at_path(program)?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.success() && stdout.lines().any(|l| l.trim() == ACCEPTED) {
        return Ok((true, ACCEPTED.to_string()));
    }
    // On a rejection VeriPB names the step ("Error: Verification error at
    // FILE:LINE") and the reason (the line after "Caused by:") on stderr.
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let place = lines.iter().find(|l| l.starts_with("Error:")).or(lines.first()).copied().unwrap_or("(no output)");
    Ok((
        false,
        match lines.iter().position(|l| *l == "Caused by:") {
            Some(i) if i + 1 < lines.len() => format!("{place}: {}", lines[i + 1]),
            _ => place.to_string(),
        },
    ))
}

/// The header and the footer (output section, conclusion, end) of every
/// derivation hexcert writes (src/derivation/mod.rs, `output DERIVABLE FILE`).
const HEADER: &str = "pseudo-Boolean proof version 3.0\n";
const FOOTER: &str = "output DERIVABLE FILE;\nconclusion NONE;\nend pseudo-Boolean proof;\n";

/// The library's verdict. `run_checker` returns `Ok` when every step of the
/// proof checks, but prints its `s VERIFIED OUTPUT ...` line rather than
/// returning it; that line is what the footer asks for. So the derivation
/// must open with the 3.0 header (else VeriPB would fall back to its
/// version-2 reading) and end with hexcert's footer: VeriPB 3.0 reads the
/// footer as the proof's last statements and accepts nothing after it but
/// blank space, so the output section it checked against the target file is
/// `output DERIVABLE FILE`, the one whose acceptance the program prints as
/// `ACCEPTED`. Printing is switched off (stdout is the report's), and a
/// panic inside VeriPB is a rejection.
#[cfg(feature = "veripb")]
fn run_library(statement: &Path, derivation: &Path, target: &Path) -> Result<(bool, String), HexError> {
    if let Some(why) = unframed(derivation)? {
        return Ok((false, why));
    }
    let args = veripb::args::Args {
        formula: statement.into(),
        derivation: derivation.into(),
        output_formula: Some(target.into()),
        opb: true,
        print_verification_result: false,
        show_warnings: false,
        // The derivation ends by deleting the statement's constraints from
        // the core (its target is the core). `output DERIVABLE` asks nothing
        // of deletions: fewer constraints keep every solution. Checking each
        // deletion (VeriPB's default, which only EQUISATISFIABLE needs) cost
        // a third of the check at n = 14 (docs/MEASUREMENTS.md).
        checked_deletion: false,
        ..Default::default()
    };
    match std::panic::catch_unwind(|| veripb::run_checker(args)) {
        Ok(Ok(())) => Ok((true, ACCEPTED.to_string())),
        // As the program prints it: the step, then what caused the rejection.
        Ok(Err(error)) => Ok((false, format!("Error: {error:#}"))),
        Err(panic) => {
            let message =
                panic.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| panic.downcast_ref::<String>().cloned());
            Ok((false, format!("VeriPB panicked: {}", message.unwrap_or_else(|| "(no message)".into()))))
        }
    }
}

#[cfg(not(feature = "veripb"))]
fn run_library(_: &Path, _: &Path, _: &Path) -> Result<(bool, String), HexError> {
    Err(HexError::Usage("this hexcert has no VeriPB library (built without the cargo feature `veripb`)".into()))
}

/// Why the derivation is rejected unread, unless it opens with `HEADER` and
/// ends with `FOOTER` (read from the file itself): a verdict, not an error.
#[cfg_attr(not(feature = "veripb"), allow(dead_code))]
fn unframed(derivation: &Path) -> Result<Option<String>, HexError> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(derivation).at_path(derivation)?;
    let length = file.metadata().at_path(derivation)?.len();
    let mut head = vec![0; HEADER.len().min(length as usize)];
    file.read_exact(&mut head).at_path(derivation)?;
    if head != HEADER.as_bytes() {
        return Ok(Some(format!("the derivation does not open with `{}`", HEADER.trim_end())));
    }
    let tail_length = FOOTER.len().min(length as usize);
    file.seek(SeekFrom::Start(length - tail_length as u64)).at_path(derivation)?;
    let mut tail = vec![0; tail_length];
    file.read_exact(&mut tail).at_path(derivation)?;
    if tail != FOOTER.as_bytes() {
        return Ok(Some(
            "the derivation does not end with `output DERIVABLE FILE; conclusion NONE; end pseudo-Boolean proof;`"
                .into(),
        ));
    }
    Ok(None)
}

fn name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}
