//! Range and place checks of the records: the ranges every record type's
//! `read::Checked` runs as it is read, so before any field reaches the
//! encoder or the validator; the places (`check_n_directory`,
//! `check_claim_directory`, `check_cell_directory`) and the solvers a record
//! names (`unknown_solver`), which its judge (`verify`) holds it to.
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

use crate::error::HexError;
use crate::geometry::{cell_count, edge_count, Hexagon};
use crate::levels::FULL_LEVEL;

fn reject(origin: &Path, message: String) -> HexError {
    HexError::Input { file: origin.into(), line: 0, message }
}

/// The side must make a hexagon; returns its edge count.
pub(crate) fn edges_of(n: usize, origin: &Path) -> Result<usize, HexError> {
    Hexagon::new(n).map_err(|e| reject(origin, format!("n: {e}")))?;
    Ok(edge_count(n))
}

pub(crate) fn level_in_range(field: &str, level: u8, origin: &Path) -> Result<(), HexError> {
    if !(1..=FULL_LEVEL).contains(&level) {
        return Err(reject(origin, format!("{field} {level} is out of range 1..={FULL_LEVEL}")));
    }
    Ok(())
}

/// A penalty can never exceed the number of edges.
pub(crate) fn penalty_in_range(field: &str, value: usize, edges: usize, origin: &Path) -> Result<(), HexError> {
    if value > edges {
        return Err(reject(origin, format!("{field} {value} is out of range: the hexagon has {edges} edges")));
    }
    Ok(())
}

pub(crate) fn seconds_in_range(field: &str, seconds: f64, origin: &Path) -> Result<(), HexError> {
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(reject(origin, format!("{field} {seconds} is not a duration")));
    }
    Ok(())
}

/// The solvers hexcert's records were ever written with, as they name
/// them (`solving::Cadical::version`; the claims' `solver.name` is
/// `SOLVER_NAME`). A record's solver is informational (a regeneration
/// replays the recorded profile with this build's CaDiCaL), so its check
/// holds it to this list, and a record naming another (text such as
/// "(formally verified)", or a newer build's CaDiCaL) is unverified, not
/// unreadable. A build that changes CaDiCaL adds its name here (tests hold
/// this build's to the list).
pub const KNOWN_SOLVERS: &[&str] = &["CaDiCaL 3.0.1 (cadical-sys 0.8)"];
pub const SOLVER_NAME: &str = "CaDiCaL (cadical-sys)";

/// Why a record's solver `text` is not one of `KNOWN_SOLVERS`, if it is
/// not. Judged by the record's check, not when it is read: a record naming
/// a solver this build does not know still reads, and is unverified.
pub fn unknown_solver(field: &str, text: &str) -> Option<String> {
    let known = KNOWN_SOLVERS.contains(&text);
    (!known).then(|| format!("{field} {:?} is no solver hexcert ran: {}", text, KNOWN_SOLVERS.join(", ")))
}

/// A record's build: a version, and the commit as `build.rs` writes it (40
/// hex digits, `-dirty` when the tree differed from it, or `unknown`
/// outside git), so a report line naming it says nothing else.
pub(crate) fn build_in_range((version, git_commit): (&str, &str), origin: &Path) -> Result<(), HexError> {
    let commit = git_commit.strip_suffix("-dirty").unwrap_or(git_commit);
    let hex = commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
    if !(hex || git_commit == "unknown") {
        return Err(reject(origin, format!("hexcert.git_commit {git_commit:?} is not a commit")));
    }
    name_in_range("hexcert.version", version, origin)
}

/// A name a report prints (a solver's, a version): one line of at most 200
/// characters, not empty.
pub(crate) fn name_in_range(field: &str, text: &str, origin: &Path) -> Result<(), HexError> {
    if text.is_empty() || text.chars().count() > 200 || text.chars().any(char::is_control) {
        return Err(reject(origin, format!("{field} {text:?} is not a name: one line of 1 to 200 characters")));
    }
    Ok(())
}

/// The numbers of a statement "no valid level-k partial of the side-n
/// hexagon has penalty below B" (a claim's, a cube plan's).
///
/// # Errors
///
/// `HexError::Input` naming `origin` when n is not a hexagon side
/// (1..=`MAX_SIDE`), the level is outside 1..=6, or `below` is outside
/// 1..=edges+1.
pub fn check_statement_numbers(n: usize, level: u8, below: usize, origin: &Path) -> Result<(), HexError> {
    let edges = edges_of(n, origin)?;
    level_in_range("level", level, origin)?;
    if below == 0 || below > edges + 1 {
        return Err(reject(origin, format!("below {below} is out of range 1..={}", edges + 1)));
    }
    Ok(())
}

/// The nearest ancestor directory named `n<digits>` (if any) names this n.
/// Only the nearest: that is the record's `proofs/n<N>/`; directories
/// further up belong to the user's machine, not to the certificate tree.
///
/// # Errors
///
/// `HexError::Input` when the nearest ancestor named `n<digits>` names another
/// n (a path that cannot be canonicalized is judged as given).
pub fn check_n_directory(path: &Path, n: usize) -> Result<(), HexError> {
    let absolute = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let stated = absolute.ancestors().skip(1).filter_map(|dir| n_directory(dir.file_name()?.to_str()?)).next();
    match stated {
        Some(dir_n) if dir_n != n => {
            Err(reject(path, format!("the record states n = {n} but lies in the directory n{dir_n}")))
        }
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

/// `level<K>-below<B>`, the name of a claim's directory: (K, B).
pub fn claim_directory_numbers(name: &str) -> Option<(u8, usize)> {
    let (level, below) = name.strip_prefix("level")?.split_once("-below")?;
    Some((level.parse().ok()?, below.parse().ok()?))
}

/// A claim lives in `level<K>-below<B>/` of its own level and bound (the name
/// an optimum's `lower_bound` refers to it by).
///
/// # Errors
///
/// `HexError::Input` when the record's directory is not named
/// `level<level>-below<below>`, or it has none.
pub fn check_claim_directory(path: &Path, level: u8, below: usize) -> Result<(), HexError> {
    let expected = format!("level{level}-below{below}");
    let absolute = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let actual = absolute.parent().and_then(|d| d.file_name()).map(|s| s.to_string_lossy().into_owned());
    if actual.as_deref() != Some(expected.as_str()) {
        let shown = actual.unwrap_or_else(|| "(none)".into());
        return Err(reject(
            path,
            format!("the claim states level {level} below {below} but lies in the directory {shown}, not {expected}"),
        ));
    }
    Ok(())
}

/// A count lives in the cell directory its numbers name (`counts/<cell>/`,
/// `cell` as the record type names it: `records::leaders::count_cell`,
/// `LiftRecord::cell`), as a claim lives in `level<K>-below<B>/`: the
/// directory is how the count is found and shown, so a record copied under
/// another cell's name would stand for a count it is not.
///
/// # Errors
///
/// `HexError::Input` when the record's directory is not named `cell`, or it
/// has none.
pub fn check_cell_directory(path: &Path, cell: &str, what: &str) -> Result<(), HexError> {
    let absolute = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let actual = absolute.parent().and_then(|d| d.file_name()).map(|s| s.to_string_lossy().into_owned());
    if actual.as_deref() != Some(cell) {
        let shown = actual.unwrap_or_else(|| "(none)".into());
        return Err(reject(path, format!("the record is {what}, kept in the directory {cell}, not {shown}")));
    }
    Ok(())
}

/// Memory a run may spend re-encoding a claim's formula (the formula, its
/// DIMACS text and its hash), in MB.
pub const ENCODING_BUDGET_MB: u64 = 4096;

/// Estimated MB to re-encode "level `level`, penalty below `below`": the
/// cardinality counter dominates, `edges * below` auxiliary clauses of a
/// few literals, beside the cells' and edges' own clauses (`CLAUSE_BYTES`
/// measured on this encoder, tests/records.rs).
pub fn encoding_estimate_mb(n: usize, level: u8, below: usize) -> u64 {
    let (cells, edges) = (cell_count(n) as u64, edge_count(n) as u64);
    let clauses = edges * (below as u64 + 1) * 2 + (cells + edges) * u64::from(level) * 16;
    clauses.saturating_mul(CLAUSE_BYTES) >> 20
}

/// Bytes a clause costs while encoded, written as DIMACS and hashed.
const CLAUSE_BYTES: u64 = 96;

/// Refuses a claim whose re-encoding, held `copies` times over (a cube
/// claim's check holds its formula `options::CUBE_CLAIM_COPIES` times),
/// would exceed `ENCODING_BUDGET_MB`, with a one-line error, before the
/// encoder allocates anything; so no share `check` reserves is over the
/// whole budget.
///
/// # Errors
///
/// `HexError::Record` (`RecordError::OverBudget`) naming `origin` when `copies`
/// times the estimate exceeds `ENCODING_BUDGET_MB`.
pub fn check_encoding_budget(n: usize, level: u8, below: usize, copies: u64, origin: &Path) -> Result<(), HexError> {
    let estimate_mb = encoding_estimate_mb(n, level, below).saturating_mul(copies);
    if estimate_mb > ENCODING_BUDGET_MB {
        return Err(crate::error::RecordError::OverBudget { estimate_mb, budget_mb: ENCODING_BUDGET_MB }.at(origin));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cube claim's check holds its formula `CUBE_CLAIM_COPIES` times: a
    /// claim whose one copy fits the budget but whose copies do not is
    /// refused, where it was admitted (and then run alone, over the budget).
    #[test]
    fn the_budget_refusal_counts_every_copy_held() {
        let copies = crate::options::CUBE_CLAIM_COPIES.default;
        let (n, level) = (40, 6);
        let below =
            (1..=edge_count(n)).find(|&b| encoding_estimate_mb(n, level, b) * copies > ENCODING_BUDGET_MB).unwrap();
        assert!(encoding_estimate_mb(n, level, below) <= ENCODING_BUDGET_MB, "one copy fits");
        let origin = Path::new("claim.json");
        assert!(check_encoding_budget(n, level, below, 1, origin).is_ok());
        let refused = check_encoding_budget(n, level, below, copies, origin).unwrap_err().to_string();
        assert!(refused.contains("claim.json"), "{refused}");
    }
}
