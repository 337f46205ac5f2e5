//! The VeriPB checker (`cargo install veripb --locked`), for derivations
//! from the OPB statement to a claim's CNF (src/derivation/). A derivation
//! is accepted only when VeriPB exits 0 and prints the exact line
//! `s VERIFIED OUTPUT DERIVABLE`: that line is VeriPB's word that its final
//! core is the target file's clauses; `s VERIFIED` alone would only say that
//! no rule failed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use super::checker::on_path;
use crate::error::HexError;

/// The line that accepts a derivation.
pub const ACCEPTED: &str = "s VERIFIED OUTPUT DERIVABLE";

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

/// VeriPB as found on this machine.
#[derive(Debug, Clone)]
pub struct Veripb {
    pub program: PathBuf,
    /// `veripb 3.0.2`, as the program states it.
    pub version: String,
}

impl Veripb {
    /// VeriPB on PATH, if any.
    pub fn find() -> Option<Veripb> {
        let program = on_path("veripb")?;
        let answer = Command::new(&program).arg("--version").stdin(Stdio::null()).output().ok()?;
        let text = String::from_utf8_lossy(&answer.stdout).to_string();
        let version = text.lines().find(|l| l.starts_with("veripb ")).unwrap_or("veripb (unknown version)").trim().to_string();
        Some(Veripb { program, version })
    }

    /// Checks that `derivation` derives `target` from `statement`.
    /// Errors: VeriPB could not be started.
    pub fn check(&self, statement: &Path, derivation: &Path, target: &Path) -> Result<VeripbVerdict, HexError> {
        let start = Instant::now();
        let out = Command::new(&self.program)
            .arg(statement)
            .arg(derivation)
            .arg(target)
            .stdin(Stdio::null())
            .output()
            .map_err(|source| HexError::Io { path: self.program.clone(), source })?;
        let seconds = start.elapsed().as_secs_f64();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let verified = out.status.success() && stdout.lines().any(|l| l.trim() == ACCEPTED);
        // On a rejection VeriPB names the step ("Error: Verification error at
        // FILE:LINE") and the reason (the line after "Caused by:") on stderr.
        let stderr = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = stderr.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        let line = if verified {
            ACCEPTED.to_string()
        } else {
            let place = lines.iter().find(|l| l.starts_with("Error:")).or(lines.first()).copied().unwrap_or("(no output)");
            match lines.iter().position(|l| *l == "Caused by:") {
                Some(i) if i + 1 < lines.len() => format!("{place}: {}", lines[i + 1]),
                _ => place.to_string(),
            }
        };
        let command = format!("veripb {} {} {}", name(statement), name(derivation), name(target));
        Ok(VeripbVerdict { verified, line, command, version: self.version.clone(), seconds })
    }
}

fn name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}
