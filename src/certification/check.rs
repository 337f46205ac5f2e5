//! `hexcert check`: says, for every record, what this run verified.
//!
//! Invariant: a record is `Verified` only when everything it states was
//! checked in this run. For a claim: its numbers are in range and agree with
//! its directory; the CNF re-encoded from its parameters hashes to the
//! recorded value (a changed bound or encoder is caught); the CNF and proof,
//! stored or regenerated, hash to the recorded values; and the checker
//! verifies the pair (`verify_pair`). A claim whose proof is not stored and
//! not regenerated is `Unverified`, never passed: its hash agreeing proves
//! nothing about its proof. For an optimum: its witness validates with
//! exactly the optimum penalty, and its lower-bound claim, which must state
//! exactly the bound the optimum needs, was itself verified in this run (an
//! optimum is never stronger than its claim).
//!
//! This module owns no solver code. Regeneration is handed in by the caller
//! as a `&dyn Regenerate` (`prove::SolveAgain` re-solves with CaDiCaL), so
//! what `check` verifies does not depend on the code that found the proofs.

use std::path::{Path, PathBuf};

use super::WorkDir;
use crate::encoding::LevelEncoding;
use crate::error::HexError;
use crate::formats::read_grid_file;
use crate::geometry::Hexagon;
use crate::levels::FULL_LEVEL;
use crate::proofs::claim::read_json;
use crate::proofs::ranges::{check_claim_directory, check_claim_ranges, check_n_directory, check_optimum_ranges};
use crate::proofs::{compress, sha256_file, sha256_hex, Checker, Claim, Optimum};
use crate::validation::evaluate;

/// What a run established about one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Everything the record states was checked in this run.
    Verified,
    /// Something the record states is false, inconsistent or unreadable.
    Failed,
    /// Nothing was found wrong, but not everything was checked (a proof not stored).
    Unverified,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Verified => "verified",
            Status::Failed => "failed",
            Status::Unverified => "unverified",
        }
    }

    /// The status of a record resting on two parts: the weaker of the two.
    fn and(self, other: Status) -> Status {
        match (self, other) {
            (Status::Failed, _) | (_, Status::Failed) => Status::Failed,
            (Status::Unverified, _) | (_, Status::Unverified) => Status::Unverified,
            _ => Status::Verified,
        }
    }
}

/// The result of checking one record.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CheckReport {
    pub path: PathBuf,
    pub status: Status,
    pub messages: Vec<String>,
}

/// Exit codes of `hexcert check` (2 remains bad arguments, as everywhere).
pub const EXIT_VERIFIED: u8 = 0;
pub const EXIT_FAILED: u8 = 1;
pub const EXIT_UNVERIFIED: u8 = 4;

/// How many records of a run ended in each status.
#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct Summary {
    pub verified: usize,
    pub failed: usize,
    pub unverified: usize,
}

impl Summary {
    pub fn of(reports: &[CheckReport]) -> Summary {
        let count = |s: Status| reports.iter().filter(|r| r.status == s).count();
        Summary { verified: count(Status::Verified), failed: count(Status::Failed), unverified: count(Status::Unverified) }
    }

    /// 0 only when every record was verified; 1 when any failed; else 4.
    pub fn exit_code(&self) -> u8 {
        if self.failed > 0 {
            EXIT_FAILED
        } else if self.unverified > 0 {
            EXIT_UNVERIFIED
        } else {
            EXIT_VERIFIED
        }
    }
}

/// What a regeneration wrote: the claim's CNF and a fresh proof of it.
#[derive(Debug, Clone)]
pub struct Regenerated {
    pub cnf: PathBuf,
    pub proof: PathBuf,
    pub seconds: f64,
}

/// Rebuilds the proof of a claim whose proof is not stored, in `work`.
/// Its output is trusted no more than a stored proof: both files must hash
/// to the claim's record and the checker must verify them.
pub trait Regenerate {
    fn regenerate(&self, claim: &Claim, work: &Path) -> Result<Regenerated, HexError>;
}

/// The message of a claim-only certificate checked without regeneration.
pub const NOT_STORED: &str = "proof not stored; run with --regenerate to re-solve and check it";

/// Every `claim.json` and `optimum.json` under the given paths (files or directories).
pub fn find_records(paths: &[PathBuf]) -> Result<Vec<PathBuf>, HexError> {
    let mut found = Vec::new();
    for path in paths {
        collect(path, &mut found)?;
    }
    found.sort();
    Ok(found)
}

fn collect(path: &Path, found: &mut Vec<PathBuf>) -> Result<(), HexError> {
    let meta = std::fs::metadata(path).map_err(|source| HexError::Io { path: path.into(), source })?;
    if meta.is_file() {
        found.push(path.to_path_buf());
        return Ok(());
    }
    let entries = std::fs::read_dir(path).map_err(|source| HexError::Io { path: path.into(), source })?;
    for entry in entries.flatten() {
        let p = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue; // work directories and temporaries
        }
        if p.is_dir() {
            collect(&p, found)?;
        } else if name == "claim.json" || name == "optimum.json" {
            found.push(p);
        }
    }
    Ok(())
}

/// Checks every record under `paths` and every record they depend on (an
/// optimum's lower-bound claim), each once. The reports list a dependency
/// before the optimum that needs it.
pub fn check_paths(paths: &[PathBuf], regenerate: Option<&dyn Regenerate>) -> Result<Vec<CheckReport>, HexError> {
    let mut run = CheckRun::new(regenerate);
    for record in find_records(paths)? {
        run.check(&record);
    }
    Ok(run.reports)
}

/// Checks one record (for an optimum, its lower-bound claim too).
pub fn check_record(path: &Path, regenerate: Option<&dyn Regenerate>) -> CheckReport {
    CheckRun::new(regenerate).check(path)
}

/// One run of checks. A record reached twice (an optimum's claim that was
/// also given by itself) is checked once: re-checking would cost a second
/// regeneration and could not change the answer.
pub struct CheckRun<'a> {
    regenerate: Option<&'a dyn Regenerate>,
    reports: Vec<CheckReport>,
    /// Canonical path of each report, to recognise a record reached again.
    keys: Vec<PathBuf>,
}

impl<'a> CheckRun<'a> {
    pub fn new(regenerate: Option<&'a dyn Regenerate>) -> CheckRun<'a> {
        CheckRun { regenerate, reports: Vec::new(), keys: Vec::new() }
    }

    /// The report of `path`, checking it unless this run already did.
    pub fn check(&mut self, path: &Path) -> CheckReport {
        let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if let Some(i) = self.keys.iter().position(|k| *k == key) {
            return self.reports[i].clone();
        }
        let mut report = CheckReport { path: path.to_path_buf(), status: Status::Verified, messages: Vec::new() };
        let outcome = if path.file_name().is_some_and(|n| n == "optimum.json") {
            self.check_optimum(path, &mut report.messages)
        } else {
            check_claim(path, self.regenerate, &mut report.messages)
        };
        report.status = outcome.unwrap_or_else(|error| {
            report.messages.push(error.to_string());
            Status::Failed
        });
        self.keys.push(key);
        self.reports.push(report.clone());
        report
    }

    fn check_optimum(&mut self, path: &Path, messages: &mut Vec<String>) -> Result<Status, HexError> {
        let optimum: Optimum = read_json(path)?;
        check_optimum_ranges(&optimum, path)?;
        check_n_directory(path, optimum.n)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        // The claim is checked (and reported) whatever the witness turns out to be.
        let claim_path = dir.join(&optimum.lower_bound).join("claim.json");
        let claim_status = self.check(&claim_path).status;
        check_witness(dir, &optimum, messages)?;
        let claim: Claim = read_json(&claim_path)?;
        if claim.n != optimum.n || claim.below != optimum.optimum || claim.level != optimum.lower_bound_level {
            return Err(mismatch(&claim_path, format!("the lower bound proves `{}`, not the bound the optimum needs", claim.statement)));
        }
        messages.push(format!("lower bound {} ({}): {}", claim_path.display(), claim.statement, claim_status.name()));
        Ok(Status::Verified.and(claim_status))
    }
}

fn mismatch(path: &Path, message: String) -> HexError {
    HexError::Input { file: path.into(), line: 0, message }
}

fn check_claim(path: &Path, regenerate: Option<&dyn Regenerate>, messages: &mut Vec<String>) -> Result<Status, HexError> {
    let claim: Claim = read_json(path)?;
    // Ranges first: nothing out of range may reach the encoder.
    check_claim_ranges(&claim, path)?;
    claim.check_consistency(path)?;
    check_n_directory(path, claim.n)?;
    check_claim_directory(path, &claim)?;
    let hex = Hexagon::new(claim.n)?;
    let dimacs = LevelEncoding::new(&hex, claim.level, claim.encode_options()).cnf.to_dimacs();
    if sha256_hex(&dimacs) != claim.cnf.sha256 {
        return Err(mismatch(path, "the CNF re-encoded from the claim's parameters does not match the recorded hash".into()));
    }
    messages.push("re-encoded CNF matches the recorded hash".into());
    let dir = path.parent().unwrap_or(Path::new("."));
    let stored = claim.cnf.stored_as.as_ref().zip(claim.proof.stored_as.as_ref());
    // Created only when there is something to check: a claim-only record in a
    // read-only checkout is then still reported as unverified, not failed.
    let work = || WorkDir::create(dir.join(format!(".check-{}", std::process::id())));
    let (_work, cnf_path, proof_path, origin) = if let Some((cnf_name, proof_name)) = stored {
        let work = work()?;
        let (cnf_path, proof_path) = (work.0.join("formula.cnf"), work.0.join("proof.drat"));
        compress::gunzip_file(&dir.join(cnf_name), &cnf_path)?;
        compress::gunzip_file(&dir.join(proof_name), &proof_path)?;
        (work, cnf_path, proof_path, "stored")
    } else if let Some(regenerate) = regenerate {
        let work = work()?;
        let regenerated = regenerate.regenerate(&claim, &work.0)?;
        messages.push(format!("regenerated the proof in {:.1} s", regenerated.seconds));
        (work, regenerated.cnf, regenerated.proof, "regenerated")
    } else {
        messages.push(NOT_STORED.into());
        return Ok(Status::Unverified);
    };
    expect_hash(&cnf_path, &claim.cnf.sha256, &format!("{origin} CNF"))?;
    expect_hash(&proof_path, &claim.proof.sha256, &format!("{origin} proof"))?;
    messages.push(format!("{origin} CNF and proof match their recorded hashes"));
    messages.push(verify_pair(&cnf_path, &proof_path, path)?);
    Ok(Status::Verified)
}

/// The one place where `check` runs the external checker on (CNF, proof)
/// and requires its verdict; returns the line to report. A proof that is
/// not verified is an error naming `claim_path`.
pub fn verify_pair(cnf: &Path, proof: &Path, claim_path: &Path) -> Result<String, HexError> {
    let checker = Checker::find()?;
    let verdict = checker.check(cnf, proof)?;
    if !verdict.verified {
        return Err(mismatch(claim_path, format!("{} did not verify the proof: {}", checker.name, verdict.line)));
    }
    Ok(format!("{}: {} ({:.1} s)", checker.name, verdict.line, verdict.seconds))
}

fn expect_hash(file: &Path, expected: &str, what: &str) -> Result<(), HexError> {
    let actual = sha256_file(file).map_err(|source| HexError::Io { path: file.into(), source })?;
    if actual != expected {
        return Err(mismatch(file, format!("{what} has sha256 {actual}, the claim records {expected}")));
    }
    Ok(())
}

/// The witness hashes to the record, is a full grid, and the plain validator
/// accepts it with exactly the optimum penalty.
fn check_witness(dir: &Path, optimum: &Optimum, messages: &mut Vec<String>) -> Result<(), HexError> {
    let witness_path = dir.join(&optimum.witness);
    expect_hash(&witness_path, &optimum.witness_sha256, "witness grid")?;
    let grid = read_grid_file(&witness_path, Some(optimum.n))?;
    if grid.partial.level() != FULL_LEVEL {
        return Err(mismatch(&witness_path, "the witness is not a full grid".into()));
    }
    let evaluation = evaluate(&Hexagon::new(optimum.n)?, &grid.partial);
    if !evaluation.is_valid() {
        return Err(mismatch(&witness_path, format!("the witness is invalid: {} cells lack support", evaluation.violations.len())));
    }
    if evaluation.penalty != optimum.optimum {
        return Err(mismatch(&witness_path, format!("the witness has penalty {}, the record claims {}", evaluation.penalty, optimum.optimum)));
    }
    messages.push(format!("witness valid with penalty {}", evaluation.penalty));
    Ok(())
}
