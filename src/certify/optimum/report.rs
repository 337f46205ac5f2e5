//! What `certify` reports for an n: the optimum's numbers and the figures
//! of the claim under it, read back from the records.

use std::path::{Path, PathBuf};

use crate::error::HexError;
use crate::records::{read_json, Optimum, Record};

/// What `certify` reports for one n.
#[derive(Debug, Clone, serde::Serialize)]
pub struct OptimumReport {
    pub n: usize,
    pub optimum: usize,
    pub level: u8,
    pub level_minima: Vec<usize>,
    /// Levels whose minimum is stated from below only (the record's
    /// `unreached`): no stored witness reaches it, so it is "at least" that
    /// entry and the optimum is unverified (`certify` exits 4, as `check`).
    pub unreached: Vec<u8>,
    /// Wall time for this n (all queries, intermediate checks included).
    pub seconds: f64,
    /// Solve time of the claim the optimum rests on, and how long after the
    /// solver's answer its LRAT verdict came.
    pub solve_seconds: f64,
    pub check_seconds: f64,
    pub proof_bytes: u64,
    pub proof_stored: bool,
    pub directory: PathBuf,
    /// True when an earlier run had already certified this n.
    pub resumed: bool,
    /// Claims the search relied on that this run did not check (cube claims
    /// with attested cubes): the optimum is attested, not verified, and
    /// `certify` exits 4, as `check` would.
    pub attested: Vec<String>,
    /// Claims the level minima rest on whose statement -> CNF derivation
    /// VeriPB, not on PATH, could not check in this run: `check` reports
    /// them unverified, and `certify` exits 4 too.
    pub derivation_unchecked: Vec<String>,
}

pub(super) fn resumed_report(record_path: &Path) -> Result<OptimumReport, HexError> {
    let record: Optimum = read_json(record_path)?;
    let claim_dir = record_path.parent().unwrap_or(Path::new(".")).join(&record.lower_bound);
    let claim = ClaimFigures::read(&claim_dir.join("claim.json"))?;
    let dir = record_path.parent().unwrap_or(Path::new("."));
    Ok(OptimumReport::new(record, &claim, claim_dir, dir, true))
}

/// The claims beside an optimum in `dir` that bound one of its level
/// minima from below and record a statement -> CNF derivation, when VeriPB
/// is not on PATH: `check` calls each unverified (`statement`), whatever it
/// recorded when it was written.
fn derivations_unchecked(dir: &Path, level_minima: &[usize]) -> Vec<String> {
    if crate::proofs::veripb::Veripb::find().is_some() {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let (level, below) = crate::records::ranges::claim_directory_numbers(&name)?;
            let bounds_a_minimum = level_minima.get(usize::from(level).checked_sub(1)?..)?.contains(&below);
            let derivation = match Record::read(&entry.path().join("claim.json")).ok()? {
                Record::Claim(claim) => claim.statement_to_cnf,
                Record::CubeClaim(claim) => claim.statement_to_cnf,
                _ => None,
            };
            (bounds_a_minimum && derivation.is_some_and(|d| d.statement.is_some())).then_some(name)
        })
        .collect();
    names.sort();
    names
}

/// What the report says of the claim under an optimum, either kind.
pub(super) struct ClaimFigures {
    solve_seconds: f64,
    check_seconds: f64,
    proof_bytes: u64,
    proof_stored: bool,
}

impl ClaimFigures {
    pub(super) fn read(path: &Path) -> Result<ClaimFigures, HexError> {
        let record = Record::read(path)?;
        if let Record::CubeClaim(claim) = record {
            let stored = claim.cubes.iter().all(|c| c.lrat_proof.as_ref().is_some_and(|f| f.stored_as.is_some()));
            let bytes = claim
                .cubes
                .iter()
                .filter_map(|c| c.lrat_proof.as_ref())
                .map(|f| f.compressed_bytes.unwrap_or(f.bytes))
                .sum();
            return Ok(ClaimFigures {
                solve_seconds: claim.solve_seconds,
                check_seconds: claim.lrat_cpu_seconds,
                proof_bytes: bytes,
                proof_stored: stored,
            });
        }
        let Record::Claim(claim) = record else {
            return Err(
                crate::error::RecordError::Header("the lower bound is not a claim this build reads".into()).at(path)
            );
        };
        Ok(ClaimFigures {
            solve_seconds: claim.solver.seconds,
            check_seconds: claim.lrat.seconds_after_solve,
            proof_bytes: claim.proof.compressed_bytes.unwrap_or(claim.proof.bytes),
            proof_stored: claim.proof.stored_as.is_some(),
        })
    }
}

impl OptimumReport {
    pub(super) fn new(
        record: Optimum,
        claim: &ClaimFigures,
        directory: PathBuf,
        dir: &Path,
        resumed: bool,
    ) -> OptimumReport {
        OptimumReport {
            derivation_unchecked: derivations_unchecked(dir, &record.level_minima),
            n: record.n,
            optimum: record.optimum,
            level: record.lower_bound_level,
            level_minima: record.level_minima,
            unreached: record.unreached.unwrap_or_default(),
            seconds: record.seconds,
            solve_seconds: claim.solve_seconds,
            check_seconds: claim.check_seconds,
            proof_bytes: claim.proof_bytes,
            proof_stored: claim.proof_stored,
            directory,
            attested: record.attested.unwrap_or_default(),
            resumed,
        }
    }
}
