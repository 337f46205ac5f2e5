//! Proof files and their checkers: compression, the online LRAT check of a
//! solver's trace, the external DRAT checkers and VeriPB. The records that
//! name these files live in `records`.
//!
//! This module imports nothing from `solving`: what a certificate proves must
//! not depend on the code that found the proof. A certificate directory
//! `proofs/n<N>/level<K>-below<B>/` holds `claim.json`, and when small enough
//! `formula.cnf.gz`, `proof.drat.gz` and `proof.lrat.gz`.

pub mod checker;
pub mod compress;
pub mod drat;
pub mod online;
pub mod trace;
pub mod verified;
pub mod veripb;

pub use checker::{Checker, Verdict};

use sha2::{Digest, Sha256};

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a regular file, streamed (a fifo or a device is refused).
pub fn sha256_file(path: &std::path::Path) -> std::io::Result<String> {
    let mut file = crate::files::open_regular(path).map_err(crate::files::Refused::into_io)?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher)?;
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Peak resident memory of this process so far, in KiB (Linux; 0 elsewhere).
pub fn own_peak_memory_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}
