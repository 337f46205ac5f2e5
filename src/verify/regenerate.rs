//! Regeneration handed to `check` by its caller: a proof rebuilt by
//! re-solving, sent as a trace that `check` judges with its own LRAT
//! checker. The trait lives apart from both sides so that `check` (which
//! uses it) and `prove` (which implements it with CaDiCaL) import neither.

use std::path::Path;
use std::time::Instant;

use crate::cubes::Split;
use crate::encoding::LevelEncoding;
use crate::error::HexError;
use crate::error::RecordError;
use crate::formula::Cnf;
use crate::geometry::Hexagon;
use crate::proofs::online::{Against, Finished, OnlineCheck};
use crate::proofs::trace::TraceSender;
use crate::proofs::verified::{Stream, VerifiedChecker};
use crate::records::leaders::CubeLeaders;
use crate::records::read::expect_hash;
use crate::records::Claim;

/// Rebuilds the proof of a claim whose proof is not stored: re-solves the
/// claim's formula and sends every proof step, with its antecedents, to
/// `trace`; returns the solve seconds. It is trusted with nothing: `check`
/// feeds the trace to its own LRAT checker, built from the CNF it encoded
/// itself (so a solve of another formula fails), and requires the DRAT twin
/// written from that trace to hash to the claim's record.
// Sync: the cubes of one claim are re-solved on several threads at once (`check --jobs`).
pub trait Regenerate: Sync {
    fn regenerate(&self, claim: &Claim, trace: TraceSender) -> Result<f64, HexError>;
    /// The same for any formula that must be unsatisfiable (a cube's), named
    /// by `what`, solved with the solver profile its record names (`None`:
    /// the record predates profiles, solved with the solver's defaults).
    /// An unknown profile is refused before any solving.
    fn regenerate_formula(
        &self,
        cnf: &Cnf,
        profile: Option<&str>,
        what: &str,
        trace: TraceSender,
    ) -> Result<f64, HexError>;
    /// Lists one cube of a certified count again, or its leaf `path` (`listing::refute`):
    /// the new record, whose leaders and formula hash the caller compares
    /// with the stored ones, its trace checked by hexcert-lrat in this run
    /// and, when `verified` is given, its LRAT proof by that checker too
    /// (the record's `verified_lrat`; an error when it does not accept).
    fn relist(
        &self,
        hex: &Hexagon,
        cube: (&LevelEncoding, &Split, &[u8]),
        path: &[i32],
        verified: Option<&VerifiedChecker>,
    ) -> Result<CubeLeaders, HexError> {
        let _ = (hex, cube, path, verified);
        Err(HexError::Usage("this check cannot list cubes again (no solver)".into()))
    }
}

/// What one run checks proofs with (`check`, for claims and cube claims).
#[derive(Clone, Copy, Default)]
pub struct ProofChecks<'a> {
    /// Re-solves the proofs that are not stored.
    pub regenerate: Option<&'a dyn Regenerate>,
    /// The verified checker every proof read in this run is also given to.
    pub verified: Option<&'a VerifiedChecker>,
    /// Write each verified-checker verdict into the claim as it is reached,
    /// and skip the proofs (a claim's, a cube's) whose record already holds
    /// this checker's acceptance (a re-check resumable per cube: those are
    /// reported as checked by an earlier run, so the claim is unverified in
    /// this one).
    pub keep: bool,
    /// A line on stderr per cube re-solved (a re-check of hours must show it moves).
    pub progress: bool,
    /// Cubes of one cube claim re-solved at once (0 or 1: one at a time).
    pub jobs: usize,
    /// With `regenerate`: re-solve only the cubes of a cube claim that no
    /// reproduction record holds yet, and write one for each cube
    /// reproduced (`records::reproduction`), so that a re-check longer
    /// than a session is spread over runs.
    pub across_runs: bool,
}

/// Where a proof rebuilt by re-solving goes and what it must come to.
pub struct Rebuild<'a> {
    /// What the trace is checked against by hexcert-lrat as it is written.
    pub against: Against,
    /// The DRAT twin's path; the binary LRAT proof goes beside it (`lrat`).
    pub drat: &'a Path,
    /// The verified checker's stream the LRAT proof is piped to, if any.
    pub verified: Option<Stream>,
    /// Bytes of LRAT file kept (`u64::MAX`: whole).
    pub lrat_cap: u64,
    /// The SHA-256 the record holds of the DRAT proof.
    pub drat_sha256: &'a str,
    /// The record (for the error), and the cube rebuilt when it is one of a cube claim's.
    pub record: &'a Path,
    pub cube: Option<usize>,
}

/// Runs `solve` (which re-solves, sending its trace to the sender it is
/// given, and returns its solve seconds) with the trace checked online as
/// `rebuild` says; refuses a proof hexcert-lrat did not accept and a DRAT
/// twin that does not hash to the record. The one place where `check
/// --regenerate` and `export` rebuild a proof.
///
/// # Errors
///
/// Whatever `solve` returns (a solver failure, an interruption); `HexError::Io`
/// when the DRAT or LRAT file beside `rebuild.drat` cannot be created or
/// written, or the twin read back; `HexError::Internal` when the checker thread
/// cannot start, panics, or cannot read the formula it checks against;
/// `HexError::Record` naming `rebuild.record`: `RecordError::LratRejected` when
/// hexcert-lrat did not accept the trace, `RecordError::HashMismatch` when the
/// DRAT twin does not hash to `drat_sha256`.
pub fn rebuild_checked(
    rebuild: Rebuild<'_>,
    solve: impl FnOnce(TraceSender) -> Result<f64, HexError>,
) -> Result<(Finished, f64), HexError> {
    let Rebuild { against, drat, verified, lrat_cap, drat_sha256, record, cube } = rebuild;
    let mut online = OnlineCheck::start_capped(against, drat, verified, lrat_cap)?;
    let seconds = solve(online.sender())?;
    let finished = online.finish(Instant::now())?;
    let (proof, twin) = match cube {
        Some(index) => {
            (format!("the regenerated proof of cube {index}"), format!("cube {index}'s regenerated DRAT proof"))
        }
        None => ("the regenerated proof".to_string(), "regenerated DRAT proof".to_string()),
    };
    if !finished.lrat.verified {
        return Err(RecordError::LratRejected { what: proof, verdict: finished.lrat.verdict }.at(record));
    }
    expect_hash(&finished.drat, drat_sha256, &twin)?;
    Ok((finished, seconds))
}
