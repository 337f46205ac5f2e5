//! The results as the records state them: each side's minimum per level,
//! its optimum (or best grid) and each level's count at its minimum, and
//! the facts every claim and count record holds (`hexcert table results`,
//! embedded in README.md and docs/RESULTS.md between markers, `embed`).
//!
//! Invariant: nothing here re-checks a proof or a listing (`hexcert check`
//! does); a figure is printed only when a record states it, through the
//! record layer's readers, and the same records give the same bytes. A
//! minimum is certified when a claim at its level or below refutes every
//! lower penalty and a partial of its level reaches it (an optimum's level
//! minima, or a claim directory's `witness.txt`); a best grid's penalty is
//! the validator's, not its file name's.

pub mod embed;
pub mod markdown;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::HexError;
use crate::gallery::side_files;
use crate::levels::FULL_LEVEL;
use crate::records::leaders::{count_cell, CountRecord};
use crate::records::lift::LiftRecord;
use crate::records::optimum::Optimum;
use crate::records::table::CountTable;
use crate::records::{Claim, CubeClaim, Record};

/// The computed count table of the sides no listing holds, under the counts folder.
pub const COUNT_TABLE: &str = "table.json";

/// Levels whose minimum the table shows (4..6 equal the optimum on every side so far).
const SHOWN_LEVELS: u8 = 3;

/// Where the records lie: the repository's `proofs/`, `counts/` and `grids/`.
#[derive(Debug, Clone)]
pub struct Sources {
    pub proofs: PathBuf,
    pub counts: PathBuf,
    pub grids: PathBuf,
}

impl Sources {
    /// The folders under `root`, as the repository names them.
    pub fn under(root: &Path) -> Sources {
        Sources { proofs: root.join("proofs"), counts: root.join("counts"), grids: root.join("grids") }
    }
}

/// A claim as read: its directory name (relative to the proofs folder) and record.
#[derive(Debug, Clone)]
pub struct ClaimEntry {
    pub dir: String,
    pub stated: ClaimRecord,
    /// A partial of its level at its bound lies beside it (`witness.txt`).
    pub reached: bool,
}

/// The two kinds of claim record.
#[derive(Debug, Clone)]
pub enum ClaimRecord {
    Whole(Box<Claim>),
    Cubes(Box<CubeClaim>),
}

impl ClaimRecord {
    fn numbers(&self) -> (usize, u8, usize) {
        match self {
            ClaimRecord::Whole(c) => (c.n, c.level, c.below),
            ClaimRecord::Cubes(c) => (c.n, c.level, c.below),
        }
    }

    /// cake_lpr's acceptance is recorded for the claim's proof (every cube's, for a cube claim).
    pub fn verified(&self) -> bool {
        match self {
            ClaimRecord::Whole(c) => c.verified_lrat.as_ref().is_some_and(|v| v.verified_acceptance()),
            ClaimRecord::Cubes(c) => {
                c.cubes.iter().all(|r| r.verified_lrat.as_ref().is_some_and(|v| v.verified_acceptance()))
            }
        }
    }
}

/// A count as recorded: a certified listing or a lift.
#[derive(Debug, Clone)]
pub enum CountEntry {
    Listing {
        dir: String,
        record: Box<CountRecord>,
    },
    Lift {
        dir: String,
        record: Box<LiftRecord>,
        /// Its classes all recounted by the second road (`recount::covers`).
        recounted: bool,
    },
    /// A row of the computed count table (`COUNT_TABLE`).
    Computed(String),
}

/// One side's records.
#[derive(Debug, Clone, Default)]
pub struct Side {
    pub n: usize,
    pub optimum: Option<Optimum>,
    pub claims: Vec<ClaimEntry>,
    /// The lowest penalty of a valid grid under `grids/`, and its file.
    pub best_grid: Option<(usize, String)>,
    /// Level 1..6's count at its minimum, where a record holds it.
    pub counts: BTreeMap<u8, CountEntry>,
}

/// Everything the results table and the facts print.
#[derive(Debug, Clone)]
pub struct Results {
    pub sides: Vec<Side>,
    pub table: Option<(String, CountTable)>,
}

/// Reads every record under `sources`: each side's claims, optimum, best
/// grid and counts at its minima.
///
/// # Errors
///
/// `HexError::Io` when a folder cannot be listed; the record readers'
/// errors for a record that cannot be read or judged; `HexError::Input`
/// when the count table disagrees with a certified minimum.
pub fn collect(sources: &Sources) -> Result<Results, HexError> {
    let mut sides: BTreeMap<usize, Side> = BTreeMap::new();
    for (n, dir) in side_files(&sources.proofs, |name| name.strip_prefix('n')?.parse().ok())? {
        let side = sides.entry(n).or_insert_with(|| Side { n, ..Side::default() });
        read_side(side, &dir)?;
    }
    let grid_side = |name: &str| name.strip_prefix('n')?.strip_suffix(".txt")?.split_once("-p")?.0.parse().ok();
    for (n, file) in side_files(&sources.grids, grid_side)? {
        let side = sides.entry(n).or_insert_with(|| Side { n, ..Side::default() });
        read_grid(side, &file, &sources.grids)?;
    }
    let table_path = sources.counts.join(COUNT_TABLE);
    let table = table_path.is_file().then(|| CountTable::read(&table_path)).transpose()?;
    for side in sides.values_mut() {
        read_counts(side, &sources.counts, table.as_ref().map(|t| (t, table_path.as_path())))?;
    }
    let table = table.map(|t| (format!("counts/{COUNT_TABLE}"), t));
    Ok(Results { sides: sides.into_values().collect(), table })
}

/// A side's optimum and claims (a claim directory without `claim.json` is
/// a campaign under way, no claim yet).
fn read_side(side: &mut Side, dir: &Path) -> Result<(), HexError> {
    let optimum = dir.join("optimum.json");
    if optimum.is_file() {
        match Record::read(&optimum)? {
            Record::Optimum(o) => side.optimum = Some(*o),
            _ => return Err(not_a(&optimum, "an optimum")),
        }
    }
    let claim_dir = |name: &str| crate::records::ranges::claim_directory_numbers(name).map(|_| 0);
    for (_, claim) in side_files(dir, claim_dir)? {
        let path = claim.join("claim.json");
        if !path.is_file() {
            continue;
        }
        let stated = match Record::read(&path)? {
            Record::Claim(c) => ClaimRecord::Whole(c),
            Record::CubeClaim(c) => ClaimRecord::Cubes(c),
            _ => return Err(not_a(&path, "a claim")),
        };
        let name = claim.file_name().unwrap_or_default().to_string_lossy();
        let dir = format!("n{}/{name}", side.n);
        side.claims.push(ClaimEntry { dir, stated, reached: claim.join("witness.txt").is_file() });
    }
    side.claims.sort_by_key(|c| c.stated.numbers());
    Ok(())
}

fn not_a(path: &Path, what: &str) -> HexError {
    HexError::Input { file: path.into(), line: 0, message: format!("not {what}") }
}

/// A best grid: kept when the validator accepts it and it is the side's lowest.
fn read_grid(side: &mut Side, file: &Path, grids: &Path) -> Result<(), HexError> {
    let partial = crate::formats::read_grid_file(file, Some(side.n))?.partial;
    let evaluation = crate::validation::evaluate(&crate::geometry::Hexagon::new(side.n)?, &partial);
    if !evaluation.is_valid() || evaluation.score.is_none() {
        return Ok(());
    }
    let name = file.strip_prefix(grids).unwrap_or(file).display().to_string();
    if side.best_grid.as_ref().is_none_or(|(p, _)| evaluation.penalty < *p) {
        side.best_grid = Some((evaluation.penalty, format!("grids/{name}")));
    }
    Ok(())
}

/// Each level's count at its certified minimum: a certified listing or a
/// lift in its cell, else the computed table's row.
fn read_counts(side: &mut Side, counts: &Path, table: Option<(&CountTable, &Path)>) -> Result<(), HexError> {
    for level in 1..=FULL_LEVEL {
        let Some(minimum) = side.minimum(level).filter(|m| m.certified).map(|m| m.value) else { continue };
        let cell = count_cell(side.n, level, minimum, None);
        let dir = counts.join(&cell);
        let entry = if dir.join("count.json").is_file() {
            match Record::read(&dir.join("count.json"))? {
                Record::Count(record) => Some(CountEntry::Listing { dir: format!("counts/{cell}"), record }),
                _ => return Err(not_a(&dir.join("count.json"), "a count")),
            }
        } else if dir.join("lift.json").is_file() {
            match Record::read(&dir.join("lift.json"))? {
                Record::Lift(record) => {
                    Some(CountEntry::Lift { dir: format!("counts/{cell}"), record, recounted: recounted(&dir)? })
                }
                _ => return Err(not_a(&dir.join("lift.json"), "a lift")),
            }
        } else {
            computed(side.n, level, minimum, table)?
        };
        side.counts.extend(entry.map(|e| (level, e)));
    }
    Ok(())
}

/// Whether the lift in `cell` has its classes recounted to the last one
/// it was to count (a recount stopped part way is not).
fn recounted(cell: &Path) -> Result<bool, HexError> {
    use crate::records::recount::{LiftClasses, RecountRecord};
    let (classes, recount) = (cell.join(LiftClasses::FILE), cell.join(RecountRecord::FILE));
    if !classes.is_file() || !recount.is_file() {
        return Ok(false);
    }
    let classes: LiftClasses = crate::records::read_json(&classes)?;
    Ok(crate::recount::covers(&classes, &crate::records::read_json(&recount)?))
}

/// The computed table's count of `level` of side `n`, which must be at the certified minimum.
fn computed(
    n: usize,
    level: u8,
    minimum: usize,
    table: Option<(&CountTable, &Path)>,
) -> Result<Option<CountEntry>, HexError> {
    let Some((table, path)) = table else { return Ok(None) };
    let Some(row) = table.row(n) else { return Ok(None) };
    let index = usize::from(level) - 1;
    if row.minima[index] != minimum {
        let message = format!(
            "n = {n} level {level}: the table counts at penalty {}, the certified minimum is {minimum}",
            row.minima[index]
        );
        return Err(HexError::Input { file: path.into(), line: 0, message });
    }
    Ok(Some(CountEntry::Computed(row.counts[index].clone())))
}

/// A level's minimum as the records bound it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LevelMinimum {
    /// The lowest penalty a partial of the level is known to reach.
    pub value: usize,
    /// A claim at this level or below refutes every penalty under `value`.
    pub certified: bool,
}

impl Side {
    /// The claim that bounds `level` from below: the highest bound among the
    /// claims of this level and the levels under it (refining a partial
    /// never lowers its penalty), if any.
    pub fn lower_claim(&self, level: u8) -> Option<&ClaimEntry> {
        self.claims
            .iter()
            .filter(|c| c.stated.numbers().1 <= level)
            .max_by_key(|c| (c.stated.numbers().2, c.stated.numbers().1))
    }

    /// The lowest penalty a partial of `level` reaches, as recorded: the
    /// optimum's level minima (levels it reached), else a claim of the level
    /// with its witness beside it; certified when the lower bound meets it.
    pub fn minimum(&self, level: u8) -> Option<LevelMinimum> {
        let from_optimum = self.optimum.as_ref().filter(|o| !o.unreached.iter().flatten().any(|&l| l == level));
        let reached = from_optimum.map(|o| o.level_minima[usize::from(level) - 1]).or_else(|| {
            let witnessed = self.claims.iter().filter(|c| c.reached && c.stated.numbers().1 == level);
            witnessed.map(|c| c.stated.numbers().2).min()
        })?;
        let lower = self.lower_claim(level).map_or(0, |c| c.stated.numbers().2);
        Some(LevelMinimum { value: reached, certified: lower == reached })
    }

    /// Levels shown in the table's minimum columns.
    pub fn shown_levels() -> impl Iterator<Item = u8> {
        1..=SHOWN_LEVELS
    }
}
