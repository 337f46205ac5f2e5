//! Witnesses: the grid or partial that shows a minimum is reached.
//!
//! A refutation says "nothing below B"; only a witness of penalty exactly B,
//! accepted by the plain validator (no SAT code), makes B the minimum. An
//! optimum names its full grid (hashed in `optimum.json`); a claim directory
//! may hold `witness.txt`, a partial at the claim's level with penalty
//! exactly the claim's bound, which makes the claim a level minimum. Both are
//! read as plain files beside their record, bounded, and judged from scratch
//! in every run.

use std::path::Path;

use crate::error::HexError;
use crate::formats::{read_grid_file, MAX_GRID_BYTES};
use crate::geometry::Hexagon;
use crate::levels::{Partial, FULL_LEVEL};
use crate::records::read::{expect_hash, read_bounded};
use crate::records::{Optimum, RecordError};
use crate::validation::evaluate;

/// Name of a level minimum's witness beside its claim.
pub const LEVEL_WITNESS: &str = "witness.txt";

/// Where `certify` keeps, beside an optimum, the witness of a level below
/// the lower bound's that the optimum's grid does not reach: `nN/witness-level<K>.txt`.
pub fn optimum_level_witness(dir: &Path, level: u8) -> std::path::PathBuf {
    dir.join(format!("witness-level{level}.txt"))
}

/// Whether the level witness beside the optimum in `dir` reaches `minimum`
/// at `level`: absent is no; present, it must be a valid level-`level`
/// partial of exactly that penalty, or the optimum fails.
///
/// # Errors
///
/// When the file is present: `HexError::Io` or `HexError::Input` when it cannot
/// be read as a grid of side `n` (not a regular file, over `MAX_GRID_BYTES`,
/// not a grid); `HexError::Record` (`RecordError::Header`) when it is not a
/// valid level-`level` partial of penalty exactly `minimum`.
pub fn optimum_level_witness_reaches(dir: &Path, n: usize, level: u8, minimum: usize) -> Result<bool, HexError> {
    let path = optimum_level_witness(dir, level);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(false);
    }
    check_grid(&path, n, level, minimum)?;
    Ok(true)
}

/// The grid at `path` is a valid level-`level` partial of the side-`n`
/// hexagon with exactly `penalty`; the error says which of these fails.
fn check_grid(path: &Path, n: usize, level: u8, penalty: usize) -> Result<Partial, HexError> {
    let grid = read_grid_file(path, Some(n))?;
    let wrong = |why: String| RecordError::Header(why).at(path);
    if grid.partial.level() != level {
        return Err(wrong(format!(
            "the witness is a level-{} partial, the record is about level {level}",
            grid.partial.level()
        )));
    }
    let evaluation = evaluate(&Hexagon::new(n)?, &grid.partial);
    if !evaluation.is_valid() {
        return Err(wrong(format!("the witness is invalid: {} cells lack support", evaluation.violations.len())));
    }
    if evaluation.penalty != penalty {
        return Err(wrong(format!("the witness has penalty {}, the record claims {penalty}", evaluation.penalty)));
    }
    Ok(grid.partial)
}

/// The optimum's witness hashes to the record, is a full grid, and the
/// plain validator accepts it with exactly the optimum penalty. Returns the
/// grid, whose coarser levels may show lower levels' minima.
///
/// # Errors
///
/// `HexError::Record` (`RecordError::Header`) when `witness` is not a plain
/// file name, or the grid is not a valid full-level partial of penalty exactly
/// the optimum; `HexError::Io` or `HexError::Record`
/// (`RecordError::NotRegularFile`, `RecordError::TooLarge`) when it cannot be
/// read; `HexError::Record` (`RecordError::HashMismatch`) when it does not hash
/// to `witness_sha256`; `HexError::Input` when it is not a grid of side
/// `optimum.n`.
pub fn check_optimum_witness(dir: &Path, optimum: &Optimum, messages: &mut Vec<String>) -> Result<Partial, HexError> {
    // A plain name beside the record: `/dev/zero` or `../x` is no witness.
    let plain_name = Path::new(&optimum.witness).file_name().is_some_and(|n| n == optimum.witness.as_str());
    if !plain_name {
        return Err(RecordError::Header(format!(
            "the witness `{}` is not a file name beside the record",
            optimum.witness
        ))
        .at(&dir.join("optimum.json")));
    }
    let witness_path = dir.join(&optimum.witness);
    read_bounded(&witness_path, MAX_GRID_BYTES, "witness grid")?;
    expect_hash(&witness_path, &optimum.witness_sha256, "witness grid")?;
    let grid = check_grid(&witness_path, optimum.n, FULL_LEVEL, optimum.optimum)?;
    messages.push(format!("witness valid with penalty {}", optimum.optimum));
    if let Some(source) = &optimum.witness_source {
        messages.push(format!("witness from {}", source.describe()));
    }
    Ok(grid)
}

/// The claim an optimum's lower bound names (`claim_path`), read, must state
/// exactly the bound the optimum needs; returns its statement. Only what it
/// states is judged here: its own check judges its proof.
///
/// # Errors
///
/// `HexError::Io` or `HexError::Record` when `claim_path` cannot be read as a
/// record (`Record::read`); `HexError::Record` (`RecordError::Header`) when it
/// is no claim, or states another n, level or bound than the optimum needs.
pub fn lower_bound_statement(claim_path: &Path, optimum: &Optimum) -> Result<String, HexError> {
    let claim = crate::records::Record::read(claim_path)?;
    let Some((n, level, below, statement)) = claim.claim_numbers() else {
        return Err(RecordError::Header("the lower bound is not a claim".into()).at(claim_path));
    };
    if (n, below, level) != (optimum.n, optimum.optimum, optimum.lower_bound_level) {
        return Err(RecordError::Header(format!(
            "the lower bound proves `{statement}`, not the bound the optimum needs"
        ))
        .at(claim_path));
    }
    Ok(statement.to_string())
}

/// The penalty of `grid` read as a level-`level` partial (refining never
/// lowers a penalty, so it bounds that level's minimum from above).
///
/// # Errors
///
/// `HexError::Usage` when `level` is outside 1..=6 or above the grid's own
/// level.
pub fn penalty_at_level(grid: &Partial, level: u8) -> Result<usize, HexError> {
    Ok(evaluate(&Hexagon::new(grid.side())?, &grid.truncate(level)?).penalty)
}

/// When the claim's directory holds `witness.txt`, it must be a valid
/// partial at the claim's level with penalty exactly the claim's bound: with
/// the claim, the level's minimum. No witness is no fault (a claim alone
/// bounds the minimum from below). Returns whether there is one; what it
/// makes of the minimum is `level_minimum_line`'s, once the claim's status
/// is known.
///
/// # Errors
///
/// When `witness.txt` is present: `HexError::Io` or `HexError::Input` when it
/// cannot be read as a grid of side `n` (not a regular file, over
/// `MAX_GRID_BYTES`, not a grid); `HexError::Record` (`RecordError::Header`)
/// when it is not a valid level-`level` partial of penalty exactly `below`.
pub fn check_level_witness(claim_path: &Path, (n, level, below): (usize, u8, usize)) -> Result<bool, HexError> {
    let path = claim_path.with_file_name(LEVEL_WITNESS);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(false);
    }
    check_grid(&path, n, level, below)?;
    Ok(true)
}

/// What a valid level witness at `below` makes of the level's minimum: the
/// minimum only beside a claim verified in this run; otherwise at most
/// `below`, and `below` only if the claim is verified.
pub fn level_minimum_line(level: u8, below: usize, claim_verified: bool) -> String {
    let what = format!("{LEVEL_WITNESS}: a valid level-{level} partial with penalty {below}");
    if claim_verified {
        format!("{what}, so with this claim the level-{level} minimum is {below}")
    } else {
        format!(
            "{what}, so the level-{level} minimum is at most {below}, and would be {below} if this claim were verified"
        )
    }
}
