//! Regeneration handed to `check` by its caller: a proof rebuilt by
//! re-solving, sent as a trace that `check` judges with its own LRAT
//! checker. The trait lives apart from both sides so that `check` (which
//! uses it) and `prove` (which implements it with CaDiCaL) import neither.

use crate::cubes::Split;
use crate::encoding::LevelEncoding;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::records::leaders::CubeLeaders;
use crate::formula::Cnf;
use crate::proofs::trace::TraceSender;
use crate::proofs::verified::VerifiedChecker;
use crate::records::Claim;

/// Rebuilds the proof of a claim whose proof is not stored: re-solves the
/// claim's formula and sends every proof step, with its antecedents, to
/// `trace`; returns the solve seconds. It is trusted with nothing: `check`
/// feeds the trace to its own LRAT checker, built from the CNF it encoded
/// itself (so a solve of another formula fails), and requires the DRAT twin
/// written from that trace to hash to the claim's record.
pub trait Regenerate {
    fn regenerate(&self, claim: &Claim, trace: TraceSender) -> Result<f64, HexError>;
    /// The same for any formula that must be unsatisfiable (a cube's), named
    /// by `what`, solved with the solver profile its record names (`None`:
    /// the record predates profiles, solved with the solver's defaults).
    /// An unknown profile is refused before any solving.
    fn regenerate_formula(&self, cnf: &Cnf, profile: Option<&str>, what: &str, trace: TraceSender) -> Result<f64, HexError>;
    /// Lists one cube of a certified count again (`certification::listing`):
    /// the new record, whose leaders and formula hash the caller compares
    /// with the stored ones, its trace checked by hexcert-lrat in this run.
    fn relist(&self, hex: &Hexagon, cube: (&LevelEncoding, &Split, &[u8])) -> Result<CubeLeaders, HexError> {
        let _ = (hex, cube);
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
}
