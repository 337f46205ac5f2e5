//! Exact counts of valid level-k partials by level-k penalty.
//!
//! Invariant relied on: a count is the number of valid level-k partials (cell
//! values only, not reduced by symmetry) with exactly that level-k penalty, as
//! defined by `validation` (SPEC section 2). Two independent methods produce it:
//! - `frontier` (any level): a transfer-matrix sweep over the cells in
//!   row-major order (`sweep`, `transfer`, `frontier`);
//! - `chains` (levels 5 and 6): the level-4 partials of penalty `<= B`, listed
//!   by the same sweep (`enumerate`), each refined by the chain-and-cycle
//!   analysis of its `+` cells (`chains`).
//!
//! Counts are `BigUint` at the interface; the sweeps count in `u128` and rerun
//! in `BigUint` if a sum would overflow (`tally`).
//!
//! Minimum search relies on monotonicity: refining a level-k partial to level
//! `k + 1` only adds penalty terms, so the level-(k+1) minimum is at least the
//! level-k minimum, and the search at level `k + 1` starts there.

mod chains;
mod enumerate;
mod frontier;
mod guide;
mod hashing;
mod sweep;
mod tally;
mod transfer;

use std::collections::HashMap;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::check_level;

pub use chains::{components, shape_polynomial, Shape};
pub use frontier::Schedule;

/// Largest penalty bound the packed sweep keys can hold.
pub const MAX_PENALTY_BOUND: usize = 255;

/// How to count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The frontier sweep at the requested level itself.
    Frontier,
    /// Levels 5 and 6 only: level-4 partials refined component by component.
    Chains,
}

impl Method {
    /// The method `count_by_penalty` uses for a level.
    pub fn default_for(level: u8) -> Method {
        if level >= 5 {
            Method::Chains
        } else {
            Method::Frontier
        }
    }
}

/// Counts of valid level-k partials by penalty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PenaltyCounts {
    pub side: usize,
    pub level: u8,
    /// `counts[p]`: partials of penalty exactly `p`, for `p <= max_penalty`.
    pub counts: Vec<BigUint>,
}

impl PenaltyCounts {
    /// The largest penalty counted.
    pub fn max_penalty(&self) -> usize {
        self.counts.len() - 1
    }

    /// The smallest penalty with a non-zero count, if any is `<= max_penalty`.
    pub fn minimum(&self) -> Option<usize> {
        self.counts.iter().position(|c| !c.is_zero())
    }

    /// The count at `penalty`, if `penalty <= max_penalty`.
    pub fn at(&self, penalty: usize) -> Option<&BigUint> {
        self.counts.get(penalty)
    }
}

/// Exact counts of valid level-k partials for every penalty `0..=max_penalty`,
/// by the default method of the level.
pub fn count_by_penalty(
    hex: &Hexagon,
    level: u8,
    max_penalty: usize,
) -> Result<PenaltyCounts, HexError> {
    count_by_penalty_with(hex, level, max_penalty, Method::default_for(level))
}

/// As `count_by_penalty`, with the method chosen.
pub fn count_by_penalty_with(
    hex: &Hexagon,
    level: u8,
    max_penalty: usize,
    method: Method,
) -> Result<PenaltyCounts, HexError> {
    check_level(level)?;
    check_bound(max_penalty)?;
    let counts = match method {
        Method::Frontier => frontier_counts(hex, level, max_penalty)?,
        Method::Chains => chain_counts(hex, level, max_penalty)?,
    };
    Ok(PenaltyCounts { side: hex.side(), level, counts })
}

/// The minimum level-k penalty and the number of partials that reach it.
pub fn minimum_and_count(hex: &Hexagon, level: u8) -> Result<(usize, BigUint), HexError> {
    check_level(level)?;
    let mut bound = match level {
        1 => 0,
        _ => minimum_penalty(hex, (level - 1).min(4))?,
    };
    loop {
        check_bound(bound)?;
        let counts = count_by_penalty(hex, level, bound)?;
        if let Some(minimum) = counts.minimum() {
            return Ok((minimum, counts.counts[minimum].clone()));
        }
        bound += 1;
    }
}

/// The minimum level-k penalty for `k <= 4`, from the cost-to-finish tables
/// alone (no counting): the table's entry for the empty start state is the
/// least penalty of a complete assignment, when it is within the bound.
pub fn minimum_penalty(hex: &Hexagon, level: u8) -> Result<usize, HexError> {
    check_level(level)?;
    if level > 4 {
        return minimum_and_count(hex, level).map(|(minimum, _)| minimum);
    }
    let mut bound = match level {
        1 => 0,
        _ => minimum_penalty(hex, level - 1)?,
    };
    loop {
        check_bound(bound)?;
        let table = guide_for(hex, level, bound)?.expect("levels start at 1");
        if let Some(&minimum) = table.future[0].get(&0) {
            return Ok(usize::from(minimum));
        }
        bound += 1;
    }
}

/// The number of valid level-k partials of penalty exactly `penalty`.
pub fn count_at(hex: &Hexagon, level: u8, penalty: usize) -> Result<BigUint, HexError> {
    Ok(count_by_penalty(hex, level, penalty)?.counts.swap_remove(penalty))
}

/// Calls `visit(values, penalty)` for every valid level-k partial of penalty
/// `<= max_penalty` (values by cell index, `level + 1` for `+`).
pub fn for_each_partial(
    hex: &Hexagon,
    level: u8,
    max_penalty: usize,
    visit: impl FnMut(&[u8], usize),
) -> Result<(), HexError> {
    check_level(level)?;
    check_bound(max_penalty)?;
    let schedule = Schedule::new(hex, level)?;
    let table = guide_for(hex, level, max_penalty)?.expect("levels start at 1");
    enumerate::for_each_partial(&schedule, &table, max_penalty, visit);
    Ok(())
}

fn check_bound(max_penalty: usize) -> Result<(), HexError> {
    if max_penalty > MAX_PENALTY_BOUND {
        return Err(HexError::Usage(format!(
            "penalty bound {max_penalty} is above the counter's limit {MAX_PENALTY_BOUND}"
        )));
    }
    Ok(())
}

/// The exact cost-to-finish table of `level` (built on those of the levels
/// below), or `None` at level 0.
fn guide_for(hex: &Hexagon, level: u8, bound: usize) -> Result<Option<guide::Guide>, HexError> {
    let mut table = None;
    for j in 1..=level {
        let schedule = Schedule::new(hex, j)?;
        table = Some(guide::build(&schedule, bound, table.as_ref()));
    }
    Ok(table)
}

fn frontier_counts(hex: &Hexagon, level: u8, bound: usize) -> Result<Vec<BigUint>, HexError> {
    let schedule = Schedule::new(hex, level)?;
    let lower = guide_for(hex, level - 1, bound)?;
    let counts = match sweep::sweep::<u128>(&schedule, bound, lower.as_ref()) {
        Ok(done) => done.by_penalty.into_iter().map(BigUint::from).collect(),
        Err(tally::Overflow) => sweep::sweep::<BigUint>(&schedule, bound, lower.as_ref())
            .map_err(|_| HexError::Internal("big-integer count overflowed".into()))?
            .by_penalty,
    };
    Ok(counts)
}

fn chain_counts(hex: &Hexagon, level: u8, bound: usize) -> Result<Vec<BigUint>, HexError> {
    if level < 5 {
        return Err(HexError::Usage(format!(
            "the chain-and-cycle method refines level 4 and counts levels 5 and 6, not {level}"
        )));
    }
    // One enumerated partial adds 1, so a u64 cannot overflow here.
    let mut groups: HashMap<(usize, Vec<Shape>), u64> = HashMap::new();
    let mut failure = None;
    for_each_partial(hex, 4, bound, |values, penalty| match components(hex, values) {
        Ok(shapes) => *groups.entry((penalty, shapes)).or_insert(0) += 1,
        Err(e) => failure = Some(e),
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(chains::combine(level, bound, &groups))
}

/// Statistics of one frontier sweep, for benchmarks and reports.
#[derive(Debug, Clone)]
pub struct SweepStats {
    /// Largest number of cells in the frontier.
    pub frontier_width: usize,
    /// States in the lower level's cost-to-finish table, over all layers.
    pub guide_states: usize,
    /// Largest number of (state, penalty) keys in one layer of the sweep.
    pub peak_keys: usize,
}

/// Runs the frontier sweep and reports its size.
pub fn sweep_stats(hex: &Hexagon, level: u8, bound: usize) -> Result<SweepStats, HexError> {
    check_level(level)?;
    check_bound(bound)?;
    let schedule = Schedule::new(hex, level)?;
    let lower = guide_for(hex, level - 1, bound)?;
    let peak_keys = match sweep::sweep::<u128>(&schedule, bound, lower.as_ref()) {
        Ok(done) => done.peak_keys,
        Err(tally::Overflow) => sweep::sweep::<BigUint>(&schedule, bound, lower.as_ref())
            .map_err(|_| HexError::Internal("big-integer count overflowed".into()))?
            .peak_keys,
    };
    let guide_states = lower.as_ref().map_or(0, guide::Guide::size);
    Ok(SweepStats { frontier_width: schedule.width(), guide_states, peak_keys })
}
