//! Writing an optimum's record: its witness, its numbers and where they
//! came from, `optimum.json` last.

use std::path::Path;
use std::time::Instant;

use super::report::{ClaimFigures, OptimumReport};
use crate::digest::sha256_hex;
use crate::error::HexError;
use crate::formats::to_hexcert_text;
use crate::levels::Partial;
use crate::records::{this_build, Claim, Optimum, WitnessSource};

/// What an optimum record says of where its numbers came from.
pub(super) struct Provenance {
    pub(super) source: WitnessSource,
    pub(super) level_minima: Vec<usize>,
    /// Levels whose minimum is stated from below only.
    pub(super) unreached: Vec<u8>,
    pub(super) attested: Vec<String>,
}

/// Writes the witness and `optimum.json` (last: its presence means n is
/// done). Runs after the checks of n's claims, so the claim it names exists.
pub(super) fn write_optimum(
    dir: &Path,
    n: usize,
    (level, below): (u8, usize),
    witness: &Partial,
    found: Provenance,
    start: Instant,
) -> Result<OptimumReport, HexError> {
    let Provenance { source, level_minima, unreached, attested } = found;
    let claim_dir = Claim::directory(dir.parent().unwrap_or(Path::new(".")), n, level, below);
    let claim = ClaimFigures::read(&claim_dir.join("claim.json"))?;
    let witness_text = to_hexcert_text(witness);
    crate::files::write_atomic(&dir.join("witness.txt"), witness_text.as_bytes())?;
    let record = Optimum {
        format: Optimum::new_format(),
        n,
        optimum: below,
        witness: "witness.txt".into(),
        witness_sha256: sha256_hex(witness_text.as_bytes()),
        lower_bound: relative(&claim_dir, dir),
        lower_bound_level: level,
        level_minima,
        seconds: start.elapsed().as_secs_f64(),
        hexcert: this_build(),
        attested: (!attested.is_empty()).then_some(attested),
        witness_source: Some(source),
        unreached: (!unreached.is_empty()).then_some(unreached),
    };
    crate::files::write_atomic(&dir.join("optimum.json"), &serde_json::to_vec_pretty(&record).expect("serialises"))?;
    Ok(OptimumReport::new(record, &claim, claim_dir, dir, false))
}

fn relative(path: &Path, base: &Path) -> String {
    path.strip_prefix(base).unwrap_or(path).to_string_lossy().into_owned()
}
