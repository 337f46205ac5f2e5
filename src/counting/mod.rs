//! Exact counts of valid level-k partials by level-k penalty.
//!
//! Invariant relied on: a count is the number of valid level-k partials (cell
//! values only, not reduced by symmetry) with exactly that level-k penalty, as
//! defined by `validation` (docs/PROBLEM.md, section 4). Two independent methods produce it:
//! - `frontier` (any level): a transfer-matrix sweep over the cells in
//!   row-major order (`sweep`, `transfer`, `frontier`), pruned by the exact
//!   cost-to-finish tables of the levels below (`guide`, built by `tables`
//!   or `reach`, stacked in a `ladder`, all built for the same penalty bound;
//!   kept on disk by `checkpoint`);
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

mod basics;
mod chains;
mod checkpoint;
mod classes;
mod completion;
mod covers;
mod enumerate;
mod frontier;
mod guide;
mod hashing;
mod hint;
mod journal;
mod ladder;
mod layer;
mod lift;
mod reach;
mod refine;
mod refine_records;
mod spill;
mod sweep;
mod tables;
mod tally;
mod transfer;
mod varint;

use std::collections::HashMap;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::check_level;

pub use chains::{components, shape_polynomial, Shape};
pub use completion::{cheapest_completion, cheapest_labels};
pub use frontier::Schedule;
pub use hint::start_hint;
pub use refine::{level_by_refinement, refined_by_penalty, source as refined_from, Pieces, Refined, RefinedByPenalty};
use ladder::Ladder;
use basics::check_bound;
pub use basics::{Layers, Settings, Upper, Via, DEFAULT_MEMORY_LIMIT, MAX_PENALTY_BOUND};


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
    count_by_penalty_in(hex, level, max_penalty, method, &Settings::default())
}

/// As `count_by_penalty_with`, with the settings chosen.
pub fn count_by_penalty_in(
    hex: &Hexagon,
    level: u8,
    max_penalty: usize,
    method: Method,
    settings: &Settings,
) -> Result<PenaltyCounts, HexError> {
    check_level(level)?;
    check_bound(max_penalty)?;
    let counts = match method {
        Method::Frontier => {
            // A side too wide for this level's states is refused before the
            // tables below it are built (n = 10 level 6 took 4 minutes to say so).
            Schedule::new(hex, level)?;
            let ladder = Ladder::up_to(hex, level - 1, max_penalty, settings)?;
            frontier_counts(&ladder, level, max_penalty)?
        }
        Method::Chains => {
            if level < 5 {
                return Err(HexError::Usage(format!(
                    "the chain-and-cycle method counts levels 5 and 6, not {level}"
                )));
            }
            let ladder = Ladder::up_to(hex, 4, max_penalty, settings)?;
            chain_counts(&ladder, level, max_penalty)?
        }
    };
    Ok(PenaltyCounts { side: hex.side(), level, counts })
}

/// The minimum level-k penalty and the number of partials that reach it.
pub fn minimum_and_count(hex: &Hexagon, level: u8) -> Result<(usize, BigUint), HexError> {
    minimum_and_count_in(hex, level, &Settings::default())
}

/// As `minimum_and_count`, with the settings chosen (see `count_row_in` on
/// the start bound).
pub fn minimum_and_count_in(hex: &Hexagon, level: u8, settings: &Settings) -> Result<(usize, BigUint), HexError> {
    check_level(level)?;
    let (mut ladder, minimum) = Ladder::to_minimum(hex, level.min(4), settings)?;
    if level <= 4 {
        return Ok((minimum, counts_from_minimum(&ladder, level, (minimum, 0))?.swap_remove(0)));
    }
    let (minimum, mut counts) = chain_search(&mut ladder, level, (minimum, 0), &mut None)?;
    Ok((minimum, counts.swap_remove(0)))
}

/// The minimum level-k penalty. For `k <= 4` it comes from the cost-to-finish
/// tables alone (no counting).
pub fn minimum_penalty(hex: &Hexagon, level: u8) -> Result<usize, HexError> {
    check_level(level)?;
    if level > 4 {
        return minimum_and_count(hex, level).map(|(minimum, _)| minimum);
    }
    Ok(Ladder::to_minimum(hex, level, &Settings::default())?.1)
}

/// One cell of a table row: a level's minimum, its count, the counts just
/// above it when asked for (`count_row_near_in`), and the time spent on this
/// level (the work shared with lower levels is charged to them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowEntry {
    pub level: u8,
    pub minimum: usize,
    pub count: BigUint,
    /// Partials of penalty `minimum + 1`, `minimum + 2`, ...
    pub above: Vec<BigUint>,
    pub elapsed: std::time::Duration,
}

/// Minimum and count at every level `1..=top`, sharing the tables between
/// levels (cheaper than `top` calls of `minimum_and_count`).
pub fn count_row(hex: &Hexagon, top: u8) -> Result<Vec<RowEntry>, HexError> {
    count_row_in(hex, top, &Settings::default())
}

/// As `count_row`, with the settings chosen. The tables are first built for
/// penalty bound `settings.start`; the result does not depend on it: a table built for a bound at or above a level's minimum gives
/// that minimum exactly, and a bound below it is raised one at a time (each
/// raise rebuilds every table below). So a `start` at the top level's minimum,
/// or just above, builds each table once instead of once per bound.
pub fn count_row_in(hex: &Hexagon, top: u8, settings: &Settings) -> Result<Vec<RowEntry>, HexError> {
    count_row_near_in(hex, top, 0, settings)
}

/// As `count_row_in`, each level counted also at its minimum + 1, ...,
/// minimum + `above` (the near-optimal partials, `RowEntry::above`). The
/// tables are built for the bound `settings.start + above` and raised as
/// `count_row_in`'s are, then once more where a level's minimum + `above`
/// passes their bound; so a start at the top level's minimum builds each
/// table once, for that minimum + `above`.
pub fn count_row_near_in(hex: &Hexagon, top: u8, above: usize, settings: &Settings) -> Result<Vec<RowEntry>, HexError> {
    check_level(top)?;
    check_bound(settings.start.saturating_add(above))?;
    let mut row = Vec::new();
    let mut ladder = Ladder::new(hex, settings.start + above, settings);
    let mut minimum = 0;
    let entry = |level, minimum, mut counts: Vec<BigUint>, started: std::time::Instant| {
        let above = counts.split_off(1);
        RowEntry { level, minimum, count: counts.swap_remove(0), above, elapsed: started.elapsed() }
    };
    for level in 1..=top.min(4) {
        let started = std::time::Instant::now();
        (ladder, minimum) = ladder.raised_to_minimum(level)?;
        if minimum + above > ladder.bound() {
            check_bound(minimum + above)?;
            ladder = ladder.rebuilt(level, minimum + above)?;
        }
        row.push(entry(level, minimum, counts_from_minimum(&ladder, level, (minimum, above))?, started));
    }
    let mut listed = None;
    for level in 5..=top {
        let started = std::time::Instant::now();
        // The level-6 minimum is at least the level-5 one: search from there.
        let counts;
        (minimum, counts) = match settings.upper {
            Upper::Chains => chain_search(&mut ladder, level, (minimum, above), &mut listed)?,
            Upper::Lift => {
                let found;
                (ladder, minimum, found) = refine::minimum_from(ladder, level, minimum, above)?;
                (minimum, found.counts[minimum..=minimum + above].iter().map(|&c| BigUint::from(c)).collect())
            }
        };
        row.push(entry(level, minimum, counts, started));
    }
    Ok(row)
}

/// The number of valid level-k partials of penalty exactly `penalty`.
pub fn count_at(hex: &Hexagon, level: u8, penalty: usize) -> Result<BigUint, HexError> {
    count_at_in(hex, level, penalty, &Settings::default())
}

/// As `count_at`, with the settings chosen.
pub fn count_at_in(hex: &Hexagon, level: u8, penalty: usize, settings: &Settings) -> Result<BigUint, HexError> {
    let method = Method::default_for(level);
    Ok(count_by_penalty_in(hex, level, penalty, method, settings)?.counts.swap_remove(penalty))
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
    let settings = Settings::default();
    let ladder = Ladder::up_to(hex, level, max_penalty, &settings)?;
    let schedule = Schedule::new(hex, level)?;
    let table = ladder.guide(level).expect("the ladder reaches the level");
    enumerate::for_each_partial(&schedule, table, max_penalty, visit);
    Ok(())
}

/// The least level-5 or level-6 penalty `>= from` and the counts at it and
/// at the `above` penalties above it, by chains: the level-4 partials are
/// listed at bound `from + above`, then one more, ..., until some refinement
/// is within the bound (and then at that minimum + `above`, when it passes
/// the bound); the ladder is rebuilt only
/// when the bound passes its own. `listed` keeps the last listing (and its
/// bound) for the next level.
fn chain_search(
    ladder: &mut Ladder<'_>,
    level: u8,
    (from, above): (usize, usize),
    listed: &mut Option<(usize, ChainGroups)>,
) -> Result<(usize, Vec<BigUint>), HexError> {
    let mut bound = from + above;
    loop {
        check_bound(bound)?;
        if bound > ladder.bound() {
            *ladder = ladder.rebuilt(4, bound)?;
        }
        let groups = match listed.take() {
            Some((at, groups)) if at == bound => groups,
            _ => chain_groups(ladder, bound)?,
        };
        let mut counts = chains::combine(level, bound, &groups);
        *listed = Some((bound, groups));
        match basics::settled(counts.iter().position(|c| !c.is_zero()), above, bound) {
            Ok(minimum) => {
                counts.truncate(minimum + above + 1);
                return Ok((minimum, counts.split_off(minimum)));
            }
            Err(next) => bound = next,
        }
    }
}

/// The numbers of level-k partials at the minimum the ladder's tables give
/// and at each of the `above` penalties above it (the ladder's bound at
/// least the minimum + `above`). Consistent tables give at least one at the minimum (the minimum is the penalty of a
/// partial they keep), so zero means a table contradicts the sweep: an error
/// that names the checkpoint tables loaded, never a count.
fn counts_from_minimum(ladder: &Ladder<'_>, level: u8, (minimum, above): (usize, usize)) -> Result<Vec<BigUint>, HexError> {
    let counts = frontier_counts(ladder, level, minimum + above)?.split_off(minimum);
    if counts[0].is_zero() {
        let loaded: Vec<String> = ladder.settings().tables_loaded().iter().map(|p| p.display().to_string()).collect();
        let loaded = if loaded.is_empty() { "none".to_string() } else { loaded.join(", ") };
        return Err(HexError::Internal(format!(
            "n={} level {level}: the cost-to-finish tables give minimum penalty {minimum}, but no partial reaches it: \
             the tables are inconsistent (checkpoint tables loaded: {loaded})",
            ladder.hex().side()
        )));
    }
    Ok(counts)
}

/// Level-k counts `0..=bound` by the frontier sweep, pruned by the ladder's
/// highest table at or below `level` (the ladder's bound must be `>= bound`).
fn frontier_counts(ladder: &Ladder<'_>, level: u8, bound: usize) -> Result<Vec<BigUint>, HexError> {
    let schedule = Schedule::new(ladder.hex(), level)?;
    let table = ladder.guide(ladder.top().min(level));
    Ok(exact_sweep(&schedule, bound, table, ladder.settings())?.by_penalty)
}

/// The sweep in `u128`, rerun in `BigUint` when a count overflows.
fn exact_sweep(schedule: &Schedule, bound: usize, table: Option<&guide::Guide>, settings: &Settings) -> Result<sweep::Sweep<BigUint>, HexError> {
    let (layers, context) = (settings.layers, &settings.context);
    match sweep::sweep::<u128>(schedule, bound, table, layers, context) {
        Ok(done) => {
            let sweep::Sweep { by_penalty, peak_keys, peak_bytes, shards, spilled_runs } = done;
            let by_penalty = by_penalty.into_iter().map(BigUint::from).collect();
            Ok(sweep::Sweep { by_penalty, peak_keys, peak_bytes, shards, spilled_runs })
        }
        Err(basics::SweepError::Overflow) => Ok(sweep::sweep::<BigUint>(schedule, bound, table, layers, context)?),
        Err(e) => Err(e.into()),
    }
}

/// Level-5 or level-6 counts `0..=bound` by chains over the level-4 partials
/// listed with the ladder's level-4 table.
fn chain_counts(ladder: &Ladder<'_>, level: u8, bound: usize) -> Result<Vec<BigUint>, HexError> {
    Ok(chains::combine(level, bound, &chain_groups(ladder, bound)?))
}

/// The level-4 partials of penalty `<= bound`, grouped by (penalty, shapes
/// of the components of their `+` cells).
fn chain_groups(ladder: &Ladder<'_>, bound: usize) -> Result<ChainGroups, HexError> {
    let hex = ladder.hex();
    let schedule = Schedule::new(hex, 4)?;
    let table = ladder.guide(4).expect("the ladder reaches level 4");
    // One listed partial adds 1, so a u64 cannot overflow here.
    let pieces = rayon::current_num_threads() * 64;
    let visit = |acc: &mut Result<ChainGroups, HexError>, values: &[u8], penalty: usize| {
        if let Ok(groups) = acc {
            match components(hex, values) {
                Ok(shapes) => *groups.entry((penalty, shapes)).or_insert(0) += 1,
                Err(e) => *acc = Err(e),
            }
        }
    };
    let join = |a: Result<ChainGroups, HexError>, b: Result<ChainGroups, HexError>| {
        let (mut a, b) = (a?, b?);
        for (key, n) in b {
            *a.entry(key).or_insert(0) += n;
        }
        Ok(a)
    };
    enumerate::fold_partials(&schedule, table, bound, pieces, || Ok(HashMap::new()), visit, join)
}

/// Level-4 partials counted by (penalty, component shapes).
type ChainGroups = HashMap<(usize, Vec<Shape>), u64>;

/// Statistics of one frontier sweep, for benchmarks and reports.
#[derive(Debug, Clone)]
pub struct SweepStats {
    /// Largest number of cells in the frontier.
    pub frontier_width: usize,
    /// States in the lower level's cost-to-finish table, over all layers.
    pub guide_states: usize,
    /// Largest number of (state, penalty) keys in one layer of the sweep.
    pub peak_keys: usize,
    /// Largest number of bytes of keys and counts the sweep held at once.
    pub peak_bytes: usize,
    /// Largest number of shards one layer was split into (1 for `Layers::Hashed`).
    pub shards: usize,
    /// Sorted runs the sweep wrote to scratch files.
    pub spilled_runs: usize,
    /// The counts by penalty `0..=bound`.
    pub counts: Vec<BigUint>,
}

/// Runs the frontier sweep (pruned by the lower level's table, as
/// `count_by_penalty_in` with `Method::Frontier`) and reports its size.
pub fn sweep_stats(hex: &Hexagon, level: u8, bound: usize, layers: Layers) -> Result<SweepStats, HexError> {
    check_level(level)?;
    check_bound(bound)?;
    let schedule = Schedule::new(hex, level)?;
    let settings = Settings::from(layers);
    let ladder = Ladder::up_to(hex, level - 1, bound, &settings)?;
    let lower = ladder.guide(level - 1);
    let done = exact_sweep(&schedule, bound, lower, &settings)?;
    Ok(SweepStats {
        frontier_width: schedule.width(),
        guide_states: lower.map_or(0, guide::Guide::size),
        peak_keys: done.peak_keys,
        peak_bytes: done.peak_bytes,
        shards: done.shards,
        spilled_runs: done.spilled_runs,
        counts: done.by_penalty,
    })
}

#[cfg(test)]
mod checkpoint_fuzz;
