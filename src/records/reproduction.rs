//! The record of one cube of a cube claim reproduced by `check --regenerate
//! --across-runs`: re-solved with the profile its record names, its trace
//! verified by hexcert-lrat on the split formula, its DRAT twin hashing to
//! the claim's record, and its LRAT proof's verdict from the verified
//! checker when one was given. One file per cube in `reproduced/` beside
//! the claim, so that a re-check of more CPU than a session (n = 17's level
//! 3, about 20,000 s) runs as a campaign: each run re-solves the cubes no
//! record holds yet, and the run that finds every cube reproduced says so,
//! naming the runs that did which cubes.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::ledger::{Ledger, LedgerRecord};
use super::read::{Checked, MAX_RECORD_BYTES};
use super::{CheckerRecord, CubeResult, LratRecord};
use crate::error::{HexError, RecordError};

/// Format tag of a reproduction record.
pub const REPRODUCTION_FORMAT: &str = "hexcert-reproduction/1";

/// The directory of a claim's reproduction records, beside its claim.json.
pub const DIR: &str = "reproduced";

/// One cube reproduced: what was re-solved, what it came to, who did it and when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reproduction {
    pub format: String,
    /// The claim's statement, and the cube's index in its plan.
    pub statement: String,
    pub cube: usize,
    /// The cube formula's SHA-256 and its proof's DRAT hash, both the claim's record's.
    pub cnf_sha256: String,
    pub proof_sha256: String,
    /// Wall-clock seconds of the re-solve.
    pub solve_seconds: f64,
    /// hexcert-lrat's verdict on the re-solve's trace, read on the split formula.
    pub lrat: LratRecord,
    /// The verified checker's verdict on the re-solved LRAT proof, read on
    /// the cube's own CNF; absent when the run had none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified_lrat: Option<CheckerRecord>,
    /// When the cube was reproduced (RFC 3339, UTC, seconds).
    pub finished_at: String,
    /// The host, run and hexcert build that reproduced it (`run::attestation`).
    #[serde(deserialize_with = "super::ledger::writer")]
    pub written_by: String,
}

impl LedgerRecord for Reproduction {
    const FORMAT: &'static str = REPRODUCTION_FORMAT;
    const WHAT: &'static str = "reproduction record";
    const LIMIT: u64 = MAX_RECORD_BYTES;
    /// The statement, the cube, its formula's and its proof's hashes.
    type Identity = (String, usize, String, String);

    fn identity(&self) -> Self::Identity {
        (self.statement.clone(), self.cube, self.cnf_sha256.clone(), self.proof_sha256.clone())
    }

    fn written_by(&self) -> Option<&str> {
        Some(&self.written_by)
    }
}

/// Its seconds are a duration, and hexcert-lrat accepted what it records:
/// a record of a reproduction that failed is no reproduction.
///
/// # Errors
///
/// `HexError::Record`: `RecordError::Header` when hexcert-lrat's verdict is
/// not an acceptance; `RecordError::LratRejected` when the verified
/// checker's recorded verdict is not one; the seconds' range error.
impl Checked for Reproduction {
    fn check_read(&self, origin: &Path) -> Result<(), HexError> {
        super::ranges::seconds_in_range("a reproduction's solve seconds", self.solve_seconds, origin)?;
        if !self.lrat.verified {
            return Err(RecordError::Header(format!(
                "cube {} is recorded reproduced with hexcert-lrat's verdict {:?}, not an acceptance",
                self.cube, self.lrat.verdict
            ))
            .at(origin));
        }
        match &self.verified_lrat {
            Some(verdict) if !verdict.verified_acceptance() => Err(RecordError::LratRejected {
                what: format!("the reproduced proof of cube {} (by {})", self.cube, verdict.name),
                verdict: verdict.verdict.clone(),
            }
            .at(origin)),
            _ => Ok(()),
        }
    }
}

/// The ledger of the claim at `claim_dir`'s reproductions, one per cube.
pub fn reproductions(claim_dir: &Path) -> Ledger<'_, Reproduction> {
    Ledger::at(claim_dir)
}

/// The name of cube `index`'s record under `DIR`.
pub fn unit_name(index: usize) -> String {
    format!("{DIR}/cube-{index}")
}

impl Reproduction {
    /// What a reproduction of cube `index` of the claim stating `statement`,
    /// whose record is `record`, must be of.
    pub fn expected(statement: &str, index: usize, record: &CubeResult) -> (String, usize, String, String) {
        let proof = record.proof_sha256.clone().unwrap_or_default();
        (statement.to_string(), index, record.cnf_sha256.clone(), proof)
    }

    /// The record of cube `index` (its claim's record `record`) reproduced
    /// in this run now: re-solved in `solve_seconds`, its trace's verdict
    /// `lrat`, the verified checker's `verified`.
    pub fn now(
        statement: &str,
        (index, record): (usize, &CubeResult),
        solve_seconds: f64,
        lrat: LratRecord,
        verified_lrat: Option<CheckerRecord>,
    ) -> Reproduction {
        let (statement, cube, cnf_sha256, proof_sha256) = Self::expected(statement, index, record);
        Reproduction {
            format: REPRODUCTION_FORMAT.into(),
            statement,
            cube,
            cnf_sha256,
            proof_sha256,
            solve_seconds,
            lrat,
            verified_lrat,
            finished_at: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            written_by: crate::run::attestation(),
        }
    }
}

/// Which runs reproduced which cubes, one line each in the order of their
/// first cube: the writer, its cubes as ranges, the span of its dates,
/// its solve seconds and how many of its cubes the verified checker accepted.
pub fn by_run(reproductions: &[Reproduction]) -> Vec<String> {
    let mut runs: Vec<(&str, Vec<&Reproduction>)> = Vec::new();
    let mut sorted: Vec<&Reproduction> = reproductions.iter().collect();
    sorted.sort_by_key(|r| r.cube);
    for record in sorted {
        match runs.iter_mut().find(|(writer, _)| *writer == record.written_by) {
            Some((_, cubes)) => cubes.push(record),
            None => runs.push((&record.written_by, vec![record])),
        }
    }
    runs.into_iter()
        .map(|(writer, records)| {
            let cubes: Vec<usize> = records.iter().map(|r| r.cube).collect();
            let first = records.iter().map(|r| r.finished_at.as_str()).min().unwrap_or_default();
            let last = records.iter().map(|r| r.finished_at.as_str()).max().unwrap_or_default();
            let seconds: f64 = records.iter().map(|r| r.solve_seconds).sum();
            let verified = records.iter().filter(|r| r.verified_lrat.is_some()).count();
            format!(
                "{writer}: {} cube{} ({}), {first} to {last}, {seconds:.1} s of solving, {verified} accepted by the verified checker",
                cubes.len(),
                if cubes.len() == 1 { "" } else { "s" },
                spans(&cubes)
            )
        })
        .collect()
}

/// Increasing indices as ranges: `0-3, 7, 9-10`.
fn spans(sorted: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        parts.push(if i == j { sorted[i].to_string() } else { format!("{}-{}", sorted[i], sorted[j]) });
        i = j + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::spans;

    #[test]
    fn indices_print_as_ranges() {
        assert_eq!(spans(&[0, 1, 2, 3, 7, 9, 10]), "0-3, 7, 9-10");
        assert_eq!(spans(&[5]), "5");
        assert_eq!(spans(&[]), "");
    }
}
