//! One query for every count: `Count` names the side, the level, the road
//! (`Method`) and the settings, and its methods ask for counts by penalty,
//! a minimum, a listing, a table row or the extension road's counts. The
//! look-alike entry points it replaced (`count_by_penalty`, `_with`, `_in`,
//! ...) differed only in which of these they defaulted.
//!
//! Invariant relied on: a query's answer does not depend on how it was
//! built; defaults are the level's default road and `CountSettings::default()`,
//! and the start bound in the settings changes which tables are built,
//! never a count or a minimum (`Count::row`).

use num_bigint::BigUint;
use num_traits::Zero;

use crate::counting::basics::{check_bound, CountSettings, Upper};
use crate::counting::extension::{self, Extended, ExtendedByPenalty};
use crate::counting::frontier::schedule::Schedule;
use crate::counting::roads::{chain_counts, chain_search, counts_from_minimum, exact_sweep, frontier_counts};
use crate::counting::sweep::enumerate;
use crate::counting::tables::guide::Guide;
use crate::counting::tables::ladder::Ladder;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::check_level;

/// How to count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The frontier sweep at the requested level itself.
    Frontier,
    /// Levels 5 and 6 only: level-4 partials refined component by component.
    Chains,
}

impl Method {
    /// The method `Count::new` picks for a level.
    pub fn default_for(level: u8) -> Method {
        if level >= 5 {
            Method::Chains
        } else {
            Method::Frontier
        }
    }
}

/// A count asked of one side at one level: which road, with which settings.
/// Built by `Count::new` (the level's default road, default settings) and
/// adjusted by `with_method` and `with_settings`.
#[derive(Debug, Clone)]
pub struct Count<'h> {
    pub hex: &'h Hexagon,
    pub level: u8,
    pub method: Method,
    pub settings: CountSettings,
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

/// One cell of a table row: a level's minimum, its count, the counts just
/// above it when asked for (`Count::row`), and the time spent on this
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

impl<'h> Count<'h> {
    pub fn new(hex: &'h Hexagon, level: u8) -> Count<'h> {
        Count { hex, level, method: Method::default_for(level), settings: CountSettings::default() }
    }

    pub fn with_method(self, method: Method) -> Count<'h> {
        Count { method, ..self }
    }

    pub fn with_settings(self, settings: CountSettings) -> Count<'h> {
        Count { settings, ..self }
    }

    /// Exact counts for every penalty `0..=max_penalty` by the query's road.
    pub fn by_penalty(&self, max_penalty: usize) -> Result<PenaltyCounts, HexError> {
        let (hex, level, settings) = (self.hex, self.level, &self.settings);
        check_level(level)?;
        check_bound(max_penalty)?;
        let counts = match self.method {
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

    /// The number of partials of penalty exactly `penalty`.
    pub fn at(&self, penalty: usize) -> Result<BigUint, HexError> {
        Ok(self.by_penalty(penalty)?.counts.swap_remove(penalty))
    }

    /// The minimum penalty and the number of partials that reach it (the
    /// sweep up to level 4, chains above it, whatever the query's method;
    /// see `row` on the start bound).
    pub fn minimum_and_count(&self) -> Result<(usize, BigUint), HexError> {
        let level = self.level;
        check_level(level)?;
        let (mut ladder, minimum) = Ladder::to_minimum(self.hex, level.min(4), &self.settings)?;
        if level <= 4 {
            return Ok((minimum, counts_from_minimum(&ladder, level, (minimum, 0))?.swap_remove(0)));
        }
        let (minimum, mut counts) = chain_search(&mut ladder, level, (minimum, 0), &mut None)?;
        Ok((minimum, counts.swap_remove(0)))
    }

    /// The minimum penalty. For `k <= 4` it comes from the cost-to-finish
    /// tables alone (no counting).
    pub fn minimum(&self) -> Result<usize, HexError> {
        check_level(self.level)?;
        if self.level > 4 {
            return self.minimum_and_count().map(|(minimum, _)| minimum);
        }
        Ok(Ladder::to_minimum(self.hex, self.level, &self.settings)?.1)
    }

    /// Calls `visit(values, penalty)` for every valid partial of penalty
    /// `<= max_penalty` (values by cell index, `level + 1` for `+`).
    pub fn for_each_partial(&self, max_penalty: usize, visit: impl FnMut(&[u8], usize)) -> Result<(), HexError> {
        let (hex, level) = (self.hex, self.level);
        check_level(level)?;
        check_bound(max_penalty)?;
        let ladder = Ladder::up_to(hex, level, max_penalty, &self.settings)?;
        let schedule = Schedule::new(hex, level)?;
        let table = ladder.guide(level).expect("the ladder reaches the level");
        enumerate::for_each_partial(&schedule, table, max_penalty, visit);
        Ok(())
    }

    /// Runs the frontier sweep (pruned by the lower level's table, as
    /// `by_penalty` with `Method::Frontier`) and reports its size.
    pub fn sweep_stats(&self, bound: usize) -> Result<SweepStats, HexError> {
        let (hex, level, settings) = (self.hex, self.level, &self.settings);
        check_level(level)?;
        check_bound(bound)?;
        let schedule = Schedule::new(hex, level)?;
        let ladder = Ladder::up_to(hex, level - 1, bound, settings)?;
        let lower = ladder.guide(level - 1);
        let done = exact_sweep(&schedule, bound, lower, settings)?;
        Ok(SweepStats {
            frontier_width: schedule.width(),
            guide_states: lower.map_or(0, Guide::size),
            peak_keys: done.peak_keys,
            peak_bytes: done.peak_bytes,
            shards: done.shards,
            spilled_runs: done.spilled_runs,
            counts: done.by_penalty,
        })
    }

    /// Minimum and count at every level `1..=self.level`, each counted also
    /// at its minimum + 1, ..., minimum + `above` (`RowEntry::above`), sharing
    /// the tables between levels. The tables are first built for the bound
    /// `settings.start + above`; the result does not depend on it: a table
    /// built for a bound at or above a level's minimum gives that minimum
    /// exactly, a bound below it is raised one at a time (each raise rebuilds
    /// every table below), and once more where a level's minimum + `above`
    /// passes it. So a start at the top level's minimum builds each table once.
    pub fn row(&self, above: usize) -> Result<Vec<RowEntry>, HexError> {
        let (top, settings) = (self.level, &self.settings);
        check_level(top)?;
        check_bound(settings.start.saturating_add(above))?;
        let mut row = Vec::new();
        let mut ladder = Ladder::new(self.hex, settings.start + above, settings);
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
                    (ladder, minimum, found) = extension::minimum_from(ladder, level, minimum, above)?;
                    (minimum, found.counts[minimum..=minimum + above].to_vec())
                }
            };
            row.push(entry(level, minimum, counts, started));
        }
        Ok(row)
    }

    /// The minimum and its count by the extension road (levels 2..=6;
    /// `extension`), whatever the query's method.
    pub fn extended(&self) -> Result<Extended, HexError> {
        extension::level_by_extension(self.hex, self.level, &self.settings)
    }

    /// The counts `0..=bound` by the extension road.
    pub fn extended_by_penalty(&self, bound: usize) -> Result<ExtendedByPenalty, HexError> {
        extension::extended_by_penalty(self.hex, self.level, bound, &self.settings)
    }
}
