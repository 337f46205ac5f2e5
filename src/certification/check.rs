//! `hexcert check`: re-checks stored certificates from scratch.
//!
//! For a claim: the record is self-consistent; the CNF re-encoded from the
//! recorded parameters hashes to the recorded value (so a changed bound or a
//! changed encoder is caught); stored files decompress to the recorded
//! hashes (so an edited clause or proof is caught); and the checker prints
//! `s VERIFIED` on the pair. For an optimum: the witness hashes to the
//! record, the plain validator accepts it with exactly the optimum penalty,
//! and the lower-bound claim it names is for the same n and bound.

use std::path::{Path, PathBuf};

use super::{prove::regenerate_proof, WorkDir};
use crate::encoding::LevelEncoding;
use crate::error::HexError;
use crate::formats::read_grid_file;
use crate::geometry::Hexagon;
use crate::levels::FULL_LEVEL;
use crate::proofs::claim::read_json;
use crate::proofs::{compress, sha256_file, sha256_hex, Checker, Claim, Optimum};
use crate::validation::evaluate;

/// The result of checking one record.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CheckReport {
    pub path: PathBuf,
    /// `Some(true)` passed, `Some(false)` failed, `None` skipped (proof not stored).
    pub passed: Option<bool>,
    pub messages: Vec<String>,
}

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

/// Checks one record file.
pub fn check_record(path: &Path, regenerate: bool) -> CheckReport {
    let mut report = CheckReport { path: path.to_path_buf(), passed: Some(true), messages: Vec::new() };
    let result = if path.file_name().is_some_and(|n| n == "optimum.json") {
        check_optimum(path, &mut report)
    } else {
        check_claim(path, regenerate, &mut report)
    };
    if let Err(e) = result {
        report.passed = Some(false);
        report.messages.push(e.to_string());
    }
    report
}

fn mismatch(path: &Path, message: String) -> HexError {
    HexError::Input { file: path.into(), line: 0, message }
}

fn check_claim(path: &Path, regenerate: bool, report: &mut CheckReport) -> Result<(), HexError> {
    let claim: Claim = read_json(path)?;
    claim.check_consistency(path)?;
    let hex = Hexagon::new(claim.n)?;
    let dimacs = LevelEncoding::new(&hex, claim.level, claim.encode_options()).cnf.to_dimacs();
    if sha256_hex(&dimacs) != claim.cnf.sha256 {
        return Err(mismatch(path, "the CNF re-encoded from the claim's parameters does not match the recorded hash".into()));
    }
    report.messages.push("re-encoded CNF matches the recorded hash".into());
    let dir = path.parent().unwrap_or(Path::new("."));
    let work = WorkDir::create(dir.join(format!(".check-{}", std::process::id())))?;
    let (cnf_path, proof_path) = match (&claim.cnf.stored_as, &claim.proof.stored_as) {
        (Some(cnf_name), Some(proof_name)) => {
            let cnf_path = work.0.join("formula.cnf");
            let proof_path = work.0.join("proof.drat");
            compress::gunzip_file(&dir.join(cnf_name), &cnf_path)?;
            compress::gunzip_file(&dir.join(proof_name), &proof_path)?;
            expect_hash(&cnf_path, &claim.cnf.sha256, "stored CNF")?;
            expect_hash(&proof_path, &claim.proof.sha256, "stored proof")?;
            report.messages.push("stored CNF and proof match their recorded hashes".into());
            (cnf_path, proof_path)
        }
        _ if regenerate => {
            let hex = Hexagon::new(claim.n)?;
            let (cnf_path, proof_path, lrat, seconds) = regenerate_proof(&hex, &claim, &work.0)?;
            if !lrat.verified {
                return Err(mismatch(path, format!("the regenerated proof was rejected: {}", lrat.verdict)));
            }
            expect_hash(&proof_path, &claim.proof.sha256, "regenerated proof")?;
            report.messages.push(format!("regenerated the proof in {seconds:.1} s; it matches the recorded hash"));
            (cnf_path, proof_path)
        }
        _ => {
            report.passed = None;
            report.messages.push("proof not stored (over the size limit): run `hexcert check --regenerate` to rebuild and check it".into());
            return Ok(());
        }
    };
    let checker = Checker::find()?;
    let verdict = checker.check(&cnf_path, &proof_path)?;
    if !verdict.verified {
        return Err(mismatch(path, format!("{} did not verify the proof: {}", checker.name, verdict.line)));
    }
    report.messages.push(format!("{}: {} ({:.1} s)", checker.name, verdict.line, verdict.seconds));
    Ok(())
}

fn expect_hash(file: &Path, expected: &str, what: &str) -> Result<(), HexError> {
    let actual = sha256_file(file).map_err(|source| HexError::Io { path: file.into(), source })?;
    if actual != expected {
        return Err(mismatch(file, format!("{what} has sha256 {actual}, the claim records {expected}")));
    }
    Ok(())
}

fn check_optimum(path: &Path, report: &mut CheckReport) -> Result<(), HexError> {
    let optimum: Optimum = read_json(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
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
    report.messages.push(format!("witness valid with penalty {}", evaluation.penalty));
    let claim_path = dir.join(&optimum.lower_bound).join("claim.json");
    let claim: Claim = read_json(&claim_path)?;
    if claim.n != optimum.n || claim.below != optimum.optimum || claim.level != optimum.lower_bound_level {
        return Err(mismatch(&claim_path, format!(
            "the lower bound proves `{}`, not the bound the optimum needs", claim.statement)));
    }
    report.messages.push(format!("lower bound: {}", claim.statement));
    Ok(())
}
