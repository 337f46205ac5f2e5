//! Proof files and their checkers: the online LRAT check of a solver's
//! trace, the external DRAT checkers and VeriPB. The records that
//! name these files live in `records`.
//!
//! This module imports nothing from `solving`: what a certificate proves must
//! not depend on the code that found the proof. A certificate directory
//! `proofs/n<N>/level<K>-below<B>/` holds `claim.json`, and when small enough
//! `formula.cnf.gz`, `proof.drat.gz` and `proof.lrat.gz`.

pub mod checker;
pub mod drat;
mod lrat_file;
pub mod online;
pub mod trace;
pub mod verified;
pub mod veripb;

pub use checker::{Checker, Verdict};

/// Peak resident memory of this process so far, in KiB (Linux; 0 elsewhere).
pub fn own_peak_memory_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}
