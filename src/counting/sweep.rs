//! The forward sweep: layer `t` maps (frontier state, penalty so far) after
//! placing cells `0..t` to the number of ways to get there.
//!
//! Invariants relied on (pruning is exact): charges are never negative (see
//! `transfer`), so a key is dropped only when its penalty so far plus a valid
//! lower bound on what is still to come exceeds the bound. Two lower bounds
//! are used, the larger wins:
//! - the lower level's exact cost-to-finish table (`guide`), when given;
//! - the layer minima: the row-major order reversed is the order of the
//!   hexagon rotated by 180 degrees, so the cells still to place after `t`
//!   cells form, up to that rotation, the first `N - t` cells; what is still to
//!   come includes the penalty among them, at least the smallest penalty so far
//!   of any surviving layer-`(N - t)` key. The minima grow with the layer, so
//!   before layer `N - t` is reached the latest minimum is a weaker valid bound.

use super::frontier::Schedule;
use super::guide::Guide;
use super::hashing::KeyMap;
use super::tally::{Overflow, Tally};
use super::transfer::{for_each_successor, join_key, split_key};

/// What a sweep returns.
#[derive(Debug, Clone)]
pub struct Sweep<T> {
    /// `by_penalty[p]`: valid assignments of penalty `p`, for `p <= bound`.
    pub by_penalty: Vec<T>,
    /// Largest number of (state, penalty) keys in one layer.
    pub peak_keys: usize,
}

/// Runs the sweep with penalty bound `bound`, pruned by a lower-level table
/// when one is given.
pub fn sweep<T: Tally>(
    schedule: &Schedule,
    bound: usize,
    guide: Option<&Guide>,
) -> Result<Sweep<T>, Overflow> {
    let cells = schedule.cells;
    let mut layer: KeyMap<T> = KeyMap::default();
    layer.insert(0, T::one());
    let mut minima = vec![Some(0)];
    let mut peak_keys = 1;
    for t in 0..cells {
        let still_to_come = minimum_bound(&minima, cells, t + 1);
        let limit = bound.checked_sub(still_to_come);
        let mut next: KeyMap<T> = KeyMap::default();
        if let Some(limit) = limit {
            next.reserve(layer.len());
            for (key, count) in &layer {
                let (state, penalty) = split_key(*key);
                let mut failure = Ok(());
                for_each_successor(schedule, t, state, |_, next_state, charge| {
                    let total = penalty + charge;
                    let guided = match guide {
                        Some(g) => match g.still_to_come(schedule, t + 1, next_state) {
                            Some(to_come) => total + to_come <= bound,
                            None => false,
                        },
                        None => true,
                    };
                    if total <= limit && guided {
                        let slot = next.entry(join_key(next_state, total)).or_insert_with(T::zero);
                        if slot.try_add(count).is_err() {
                            failure = Err(Overflow);
                        }
                    }
                });
                failure?;
            }
        }
        minima.push(next.keys().map(|&k| split_key(k).1).min());
        peak_keys = peak_keys.max(next.len());
        layer = next;
    }
    let mut by_penalty = vec![T::zero(); bound + 1];
    for (key, count) in layer {
        by_penalty[split_key(key).1].try_add(&count)?;
    }
    Ok(Sweep { by_penalty, peak_keys })
}

/// Lower bound on the penalty charged after `placed` cells, from the layer
/// minima computed so far (see the module header).
pub(super) fn minimum_bound(minima: &[Option<usize>], cells: usize, placed: usize) -> usize {
    let mirror = cells - placed;
    let known = mirror.min(minima.len() - 1);
    // An empty layer means nothing survives; any bound is then valid, but the
    // sweep is over anyway, so the weakest one (0) is used.
    minima[known].unwrap_or(0)
}
