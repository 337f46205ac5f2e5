//! What a listing is asked (`ListingRequest`: the side, the level, the
//! penalty and how to list) and what is settled before any solver runs
//! (`ListingPlan`): a certified listing's claim below the minimum, and the
//! cell its directory must be, asked for before the listing, never found
//! missing after hours of it.

use std::path::{Path, PathBuf};

use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::proofs::verified::VerifiedChecker;

/// One `count --road sat`: what is listed and how.
#[derive(Debug, Clone)]
pub struct ListingRequest {
    pub n: usize,
    pub level: u8,
    pub penalty: ListingBound,
    pub mode: ListingMode,
}

/// The penalties a listing counts: every leader up to the bound is
/// listed either way; `At` reports the one count at it, `UpTo` every count
/// from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListingBound {
    /// `--penalty P`.
    At(usize),
    /// `--max-penalty B`.
    UpTo(usize),
}

impl ListingBound {
    /// The highest penalty listed.
    pub fn bound(self) -> usize {
        match self {
            ListingBound::At(p) | ListingBound::UpTo(p) => p,
        }
    }

    /// The one penalty asked for, when one is.
    pub fn exact(self) -> Option<usize> {
        match self {
            ListingBound::At(p) => Some(p),
            ListingBound::UpTo(_) => None,
        }
    }
}

/// How the lex-leaders are listed: the three entry points of the road.
#[derive(Debug, Clone)]
pub enum ListingMode {
    /// By one solver, in memory (`list::orbit_count`).
    Whole,
    /// Cube by cube into `dir`, one record per finished cube, resumable
    /// (`list::orbit_count_by_cubes`).
    ByCubes { dir: PathBuf },
    /// Cube by cube into `dir`, each cube's list proven complete by its
    /// own traced solver (`refute`), leaf by leaf with `leaves`
    /// (`leaves`), each proof also read by `verified` when named.
    Certified { dir: PathBuf, verified: Option<VerifiedChecker>, leaves: Option<LeafSplit> },
}

/// How a cube is listed leaf by leaf: the leaves of a bisection tree of
/// `depth` levels on the listing formula's penalty counter, and a leaf
/// that runs past `time_limit` stopped and split in two (its record
/// would be the union of theirs), down the same tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafSplit {
    pub depth: usize,
    pub time_limit: Option<std::time::Duration>,
}

impl LeafSplit {
    /// The CPU limit of a leaf below `splits` nodes stopped past their
    /// own: `time_limit` doubled at each, so that a hard corner which
    /// splitting does not make easier (n = 16's level-4 cube 119: at each
    /// split one half listed in minutes, the other past the limit again)
    /// costs about twice its last leaf at most, not the limit once more
    /// at every level of an ever deeper chain.
    pub fn limit_below(&self, splits: u32) -> Option<std::time::Duration> {
        self.time_limit.map(|t| t.saturating_mul(1u32.checked_shl(splits).unwrap_or(u32::MAX)))
    }
}

/// A request made ready to list: its hexagon, and for a certified listing
/// the claim it rests on with the minimum that claim names.
#[derive(Debug, Clone)]
pub struct ListingPlan {
    pub request: ListingRequest,
    pub hex: Hexagon,
    pub claim: Option<(PathBuf, usize)>,
}

/// The plan of `request`, the claims read under `proofs`: a certified
/// listing needs its claim (`listing_claim`) and, when it has one, a
/// directory named as the record will name its cell
/// (`check_listing_cell`).
pub fn make(request: ListingRequest, proofs: &Path) -> Result<ListingPlan, HexError> {
    let hex = Hexagon::new(request.n)?;
    let (n, level, bound) = (request.n, request.level, request.penalty.bound());
    let claim = match &request.mode {
        ListingMode::Certified { dir, .. } => {
            let claim = listing_claim(proofs, n, level, (request.penalty.exact(), bound))?;
            if let Some((_, minimum)) = &claim {
                check_listing_cell(dir, n, level, (bound, *minimum))?;
            }
            claim
        }
        ListingMode::Whole | ListingMode::ByCubes { .. } => None,
    };
    Ok(ListingPlan { request, hex, claim })
}

impl ListingPlan {
    /// The highest penalty listed.
    pub fn bound(&self) -> usize {
        self.request.penalty.bound()
    }
}

/// The claim "no level-`level` partial below `penalty`" under `root`, which
/// a certified count at `penalty` rests on. A claim of a lower level with
/// that bound serves as well (the highest there is): refining never lowers
/// a penalty (docs/PROBLEM.md, section 4), so none of the higher level lies
/// below it either.
pub fn minimum_claim(root: &Path, n: usize, level: u8, penalty: usize) -> Result<PathBuf, HexError> {
    claim_below(root, n, level, penalty).ok_or_else(|| {
        let how = format!("hexcert prove --n {n} --level {level} --below {penalty}");
        let path = root.join(format!("n{n}/level{level}-below{penalty}/claim.json"));
        HexError::Usage(format!("--certify --penalty {penalty} needs the claim below it, {} ({how})", path.display()))
    })
}

/// The claim a certified listing rests on, and the minimum it names: at
/// `penalty` (`--penalty`), `minimum_claim`'s; up to `bound` alone
/// (`--max-penalty`), the claim under `root` of the highest bound at most
/// `bound` (of `level` or a lower one), or none: the listing is then written
/// cube by cube, but no count record.
pub fn listing_claim(
    root: &Path,
    n: usize,
    level: u8,
    (penalty, bound): (Option<usize>, usize),
) -> Result<Option<(PathBuf, usize)>, HexError> {
    match penalty {
        Some(p) => Ok(Some((minimum_claim(root, n, level, p)?, p))),
        None => Ok((0..=bound).rev().find_map(|below| claim_below(root, n, level, below).map(|claim| (claim, below)))),
    }
}

/// A certified listing's directory is the cell its count record will name
/// (`records::leaders::count_cell`): `n<N>-level<K>-penalty<P>` at the
/// minimum, `n<N>-level<K>-upto<B>` past it (`minimum` below `bound`).
/// Asked before the listing, so that hours of it never end in a record
/// `check` refuses.
///
/// # Errors
///
/// `HexError::Usage` when `dir` is named otherwise.
pub fn check_listing_cell(dir: &Path, n: usize, level: u8, (bound, minimum): (usize, usize)) -> Result<(), HexError> {
    let cell = crate::records::leaders::count_cell(n, level, bound, (minimum < bound).then_some(minimum));
    if dir.file_name().is_some_and(|name| name.to_string_lossy() == cell) {
        return Ok(());
    }
    let what =
        if minimum < bound { format!("up to {bound} (past its minimum {minimum})") } else { format!("at {bound}") };
    Err(HexError::Usage(format!(
        "--leaders-dir {}: the certified listing of n = {n} level {level} {what} is kept in a directory named {cell}",
        dir.display()
    )))
}

fn claim_below(root: &Path, n: usize, level: u8, below: usize) -> Option<PathBuf> {
    (1..=level).rev().map(|k| root.join(format!("n{n}/level{k}-below{below}/claim.json"))).find(|path| path.is_file())
}

#[cfg(test)]
mod tests {
    use super::LeafSplit;
    use std::time::Duration;

    #[test]
    fn a_leaf_limit_doubles_below_each_split_and_saturates() {
        let split = LeafSplit { depth: 4, time_limit: Some(Duration::from_secs(600)) };
        assert_eq!(split.limit_below(0), Some(Duration::from_secs(600)));
        assert_eq!(split.limit_below(3), Some(Duration::from_secs(4800)));
        assert!(
            split.limit_below(40).is_some_and(|t| t >= Duration::from_secs(600 << 31)),
            "a deep chain must not wrap round to a short limit"
        );
        assert_eq!(LeafSplit { depth: 4, time_limit: None }.limit_below(5), None);
    }
}
