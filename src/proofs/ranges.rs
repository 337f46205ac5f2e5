//! Range and place checks of `claim.json` and `optimum.json`, run before any
//! field of a record reaches the encoder or the validator.
//!
//! Invariant: a record that passes these checks has every number in the range
//! its meaning allows (n in `1..=MAX_SIDE`, levels in `1..=6`, bounds and
//! penalties within the hexagon's edge count), and it sits where its numbers
//! say: under the nearest directory `n<N>` of its own n, and a claim in the
//! directory `level<K>-below<B>` of its own level and bound. The encoder
//! indexes tables by level and sizes counters by bound, so an out-of-range
//! record would otherwise panic there (level 0) or build an absurd formula;
//! and a record whose place disagrees with its content is how an optimum
//! could be made to lean on a claim about something else.

use std::path::Path;

use super::{Claim, Optimum};
use crate::error::HexError;
use crate::geometry::{edge_count, Hexagon};
use crate::levels::FULL_LEVEL;

fn reject(origin: &Path, message: String) -> HexError {
    HexError::Input { file: origin.into(), line: 0, message }
}

/// The side must make a hexagon; returns its edge count.
fn edges_of(n: usize, origin: &Path) -> Result<usize, HexError> {
    Hexagon::new(n).map_err(|e| reject(origin, format!("n: {e}")))?;
    Ok(edge_count(n))
}

fn level_in_range(field: &str, level: u8, origin: &Path) -> Result<(), HexError> {
    if !(1..=FULL_LEVEL).contains(&level) {
        return Err(reject(origin, format!("{field} {level} is out of range 1..={FULL_LEVEL}")));
    }
    Ok(())
}

/// A penalty can never exceed the number of edges.
fn penalty_in_range(field: &str, value: usize, edges: usize, origin: &Path) -> Result<(), HexError> {
    if value > edges {
        return Err(reject(origin, format!("{field} {value} is out of range: the hexagon has {edges} edges")));
    }
    Ok(())
}

fn seconds_in_range(field: &str, seconds: f64, origin: &Path) -> Result<(), HexError> {
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(reject(origin, format!("{field} {seconds} is not a duration")));
    }
    Ok(())
}

/// Every numeric field of a claim: n, level, below (1..=edges+1: "below
/// edges+1" is the largest bound with any content) and the recorded times.
/// (max_penalty = below-1 is `Claim::check_consistency`'s.)
pub fn check_claim_ranges(claim: &Claim, origin: &Path) -> Result<(), HexError> {
    check_statement_numbers(claim.n, claim.level, claim.below, origin)?;
    seconds_in_range("solver seconds", claim.solver.seconds, origin)?;
    seconds_in_range("LRAT checker CPU seconds", claim.lrat.cpu_seconds, origin)?;
    seconds_in_range("LRAT verdict seconds", claim.lrat.seconds_after_solve, origin)?;
    for check in &claim.drat_checks {
        seconds_in_range("DRAT checker seconds", check.seconds, origin)?;
    }
    Ok(())
}

/// The numbers of a statement "no valid level-k partial of the side-n
/// hexagon has penalty below B" (a claim's, a cube plan's).
pub fn check_statement_numbers(n: usize, level: u8, below: usize, origin: &Path) -> Result<(), HexError> {
    let edges = edges_of(n, origin)?;
    level_in_range("level", level, origin)?;
    if below == 0 || below > edges + 1 {
        return Err(reject(origin, format!("below {below} is out of range 1..={}", edges + 1)));
    }
    Ok(())
}

/// Every numeric field of an optimum: n, optimum, lower_bound_level, and six
/// level minima, each a possible penalty.
pub fn check_optimum_ranges(optimum: &Optimum, origin: &Path) -> Result<(), HexError> {
    let edges = edges_of(optimum.n, origin)?;
    penalty_in_range("optimum", optimum.optimum, edges, origin)?;
    level_in_range("lower_bound_level", optimum.lower_bound_level, origin)?;
    if optimum.level_minima.len() != usize::from(FULL_LEVEL) {
        return Err(reject(origin, format!("level_minima has {} entries, not {FULL_LEVEL}", optimum.level_minima.len())));
    }
    for &minimum in &optimum.level_minima {
        penalty_in_range("a level minimum", minimum, edges, origin)?;
    }
    seconds_in_range("seconds", optimum.seconds, origin)
}

/// The nearest ancestor directory named `n<digits>` (if any) names this n.
/// Only the nearest: that is the record's `proofs/n<N>/`; directories
/// further up belong to the user's machine, not to the certificate tree.
pub fn check_n_directory(path: &Path, n: usize) -> Result<(), HexError> {
    let absolute = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let stated = absolute
        .ancestors()
        .skip(1)
        .filter_map(|dir| n_directory(dir.file_name()?.to_str()?))
        .next();
    match stated {
        Some(dir_n) if dir_n != n => Err(reject(path, format!("the record states n = {n} but lies in the directory n{dir_n}"))),
        _ => Ok(()),
    }
}

/// `n<digits>` and nothing else (`usize::from_str` alone would take `n+5`).
fn n_directory(name: &str) -> Option<usize> {
    let digits = name.strip_prefix('n')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// A claim lives in `level<K>-below<B>/` of its own level and bound (the name
/// an optimum's `lower_bound` refers to it by).
pub fn check_claim_directory(path: &Path, level: u8, below: usize) -> Result<(), HexError> {
    let expected = format!("level{level}-below{below}");
    let absolute = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let actual = absolute.parent().and_then(|d| d.file_name()).map(|s| s.to_string_lossy().into_owned());
    if actual.as_deref() != Some(expected.as_str()) {
        let shown = actual.unwrap_or_else(|| "(none)".into());
        return Err(reject(path, format!("the claim states level {level} below {below} but lies in the directory {shown}, not {expected}")));
    }
    Ok(())
}
