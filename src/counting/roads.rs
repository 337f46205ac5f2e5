//! The sweep and chains roads over a ladder of tables: the frontier sweep's
//! counts at a level (in `u128`, rerun in `BigUint` on overflow), the
//! level-4 partials grouped for the chain polynomials, and the searches for
//! a level's minimum that both roads share with a table row.
//!
//! Invariant relied on: every count here is read from tables of one ladder,
//! built for a bound at least the one counted, so a table's pruning is exact
//! for it; a minimum the tables give that no partial reaches is an error
//! naming the loaded tables, never a count of 0.

use std::collections::HashMap;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::counting::basics::{check_bound, settled, CountSettings, SweepError};
use crate::counting::chains::components::{combine, components, Shape};
use crate::counting::frontier::schedule::Schedule;
use crate::counting::sweep::enumerate::fold_partials;
use crate::counting::sweep::{sweep, Sweep};
use crate::counting::tables::guide::Guide;
use crate::counting::tables::ladder::Ladder;
use crate::error::HexError;

/// The least level-5 or level-6 penalty `>= from` and the counts at it and
/// at the `above` penalties above it, by chains: the level-4 partials are
/// listed at bound `from + above`, then one more, ..., until some refinement
/// is within the bound (and then at that minimum + `above`, when it passes
/// the bound); the ladder is rebuilt only
/// when the bound passes its own. `listed` keeps the last listing (and its
/// bound) for the next level.
pub(super) fn chain_search(
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
        let mut counts = combine(level, bound, &groups);
        *listed = Some((bound, groups));
        match settled(counts.iter().position(|c| !c.is_zero()), above, bound) {
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
pub(super) fn counts_from_minimum(
    ladder: &Ladder<'_>,
    level: u8,
    (minimum, above): (usize, usize),
) -> Result<Vec<BigUint>, HexError> {
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
pub(super) fn frontier_counts(ladder: &Ladder<'_>, level: u8, bound: usize) -> Result<Vec<BigUint>, HexError> {
    let schedule = Schedule::new(ladder.hex(), level)?;
    let table = ladder.guide(ladder.top().min(level));
    Ok(exact_sweep(&schedule, bound, table, ladder.settings())?.by_penalty)
}

/// The sweep in `u128`, rerun in `BigUint` when a count overflows.
pub(super) fn exact_sweep(
    schedule: &Schedule,
    bound: usize,
    table: Option<&Guide>,
    settings: &CountSettings,
) -> Result<Sweep<BigUint>, HexError> {
    let (layers, context) = (settings.layers, &settings.context);
    match sweep::<u128>(schedule, bound, table, layers, context) {
        Ok(done) => {
            let Sweep { by_penalty, peak_keys, peak_bytes, shards, spilled_runs } = done;
            let by_penalty = by_penalty.into_iter().map(BigUint::from).collect();
            Ok(Sweep { by_penalty, peak_keys, peak_bytes, shards, spilled_runs })
        }
        Err(SweepError::Overflow) => Ok(sweep::<BigUint>(schedule, bound, table, layers, context)?),
        Err(e) => Err(e.into()),
    }
}

/// Level-5 or level-6 counts `0..=bound` by chains over the level-4 partials
/// listed with the ladder's level-4 table.
pub(super) fn chain_counts(ladder: &Ladder<'_>, level: u8, bound: usize) -> Result<Vec<BigUint>, HexError> {
    Ok(combine(level, bound, &chain_groups(ladder, bound)?))
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
    fold_partials(&schedule, table, bound, pieces, || Ok(HashMap::new()), visit, join)
}

/// Level-4 partials counted by (penalty, component shapes).
pub(super) type ChainGroups = HashMap<(usize, Vec<Shape>), u64>;
