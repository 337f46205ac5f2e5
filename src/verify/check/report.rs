//! What `check` says: a report per record, the run's summary and exit
//! codes, and the messages other code matches on.

use std::path::PathBuf;

use crate::outcome::Outcome;
use crate::records::Status;

/// The result of checking one record.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CheckReport {
    pub path: PathBuf,
    pub status: Status,
    pub messages: Vec<String>,
    /// Unverified only because VeriPB, not on PATH, could not check a
    /// recorded statement -> CNF derivation (for an optimum: its claim's).
    /// `certify` then reuses the record: proving it again would not help.
    pub needs_veripb: bool,
}

/// Exit codes of `hexcert check` (2 remains bad arguments, as everywhere).
pub const EXIT_VERIFIED: u8 = Outcome::Done.code();
pub const EXIT_FAILED: u8 = Outcome::Negative.code();
pub const EXIT_UNVERIFIED: u8 = Outcome::Unverified.code();

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
        Summary {
            verified: count(Status::Verified),
            failed: count(Status::Failed),
            unverified: count(Status::Unverified),
        }
    }

    /// Done only when every record was verified; negative when any failed.
    pub fn outcome(&self) -> Outcome {
        if self.failed > 0 {
            Outcome::Negative
        } else if self.unverified > 0 {
            Outcome::Unverified
        } else {
            Outcome::Done
        }
    }

    pub fn exit_code(&self) -> u8 {
        self.outcome().code()
    }
}

/// Claims written before proofs were traced with LRAT (CaDiCaL 2.2.1, a
/// DRAT proof checked by rate). This build cannot reproduce their proofs
/// byte for byte, so nothing here can verify them: they are reported, never
/// passed, until `certify` replaces them.
pub const LEGACY: &str = "a claim of the earlier pipeline (hexcert-claim/1: CaDiCaL 2.2.1, DRAT checked by rate); \
     this build cannot regenerate its proof: re-certify it with `hexcert certify`";

/// The message of a claim-only certificate checked without regeneration.
pub const NOT_STORED: &str = "proof not stored; run with --regenerate to re-solve and check it";
