//! `hexcert check`: says, for every record, what this run verified.
//!
//! Invariant: a record is `Verified` only when everything it states was
//! checked in this run. For a claim: its numbers are in range and agree with
//! its directory; the CNF re-encoded from its parameters hashes to the
//! recorded value (a changed bound or encoder is caught); the CNF and proofs,
//! stored or regenerated, hash to the recorded values; and a checker run in
//! this run verified the proof: the LRAT checker of `lrat/` on the stored
//! LRAT proof or on the regenerated trace, and every DRAT checker on PATH
//! on the DRAT twin (`external_drat_checks`). A claim whose proof is not stored and
//! not regenerated is `Unverified`, never passed: its hash agreeing proves
//! nothing about its proof. For an optimum: its witness validates with
//! exactly the optimum penalty, and its lower-bound claim, which must state
//! exactly the bound the optimum needs, was itself verified in this run (an
//! optimum is never stronger than its claim).
//!
//! A claim that records a statement -> CNF derivation (`statement_to_cnf`)
//! is `Verified` only when, besides, the OPB statement and the derivation
//! written again hash to the record and VeriPB accepted them in this run
//! (src/verify/statement_to_cnf.rs): `Unverified` when VeriPB is not on
//! PATH, `Failed` on a hash mismatch or a rejection. A claim that records
//! none, or records that no derivation covers it (cube claims, the
//! totalizer), is judged on the trust base it states, which names the
//! encoder; with `derivations` (`check --veripb`) it is `Unverified` unless
//! a derivation is checked on the spot. With `record` (`check --veripb
//! --record`) the verdict of this run is written into the claim instead,
//! atomically and only when VeriPB accepted and nothing else failed.
//!
//! This module owns no solver code. Regeneration is handed in by the caller
//! as a `&dyn Regenerate` (`prove::SolveAgain` re-solves with CaDiCaL) that
//! only emits a trace; `check` judges it with its own LRAT checker, so what
//! `check` verifies does not depend on the code that found the proofs.

mod claim;
mod find;
mod optimum;
mod report;
mod run;

pub use claim::{external_drat_checks, rebuild_claim};
pub use find::find_records;
pub use report::{CheckReport, Summary, EXIT_FAILED, EXIT_UNVERIFIED, EXIT_VERIFIED, LEGACY, NOT_STORED};
pub use run::{check_paths, check_paths_with, check_record, CheckOptions, CheckRun};

pub use super::regenerate::Regenerate;
pub use crate::records::Status;
