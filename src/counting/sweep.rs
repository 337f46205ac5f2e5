//! The forward sweep: layer `t` maps (frontier state, penalty so far) after
//! placing cells `0..t` to the number of ways to get there.
//!
//! Invariant relied on (pruning by a lower bound on the future): the
//! row-major order reversed is the order of the hexagon rotated by 180
//! degrees, so the cells still to place after `t` cells form, up to that
//! rotation, the *first* `N - t` cells. Everything charged after step `t`
//! includes the penalty of the edges among those cells, which is at least the
//! smallest penalty so far of any surviving layer-`(N - t)` state
//! (`layer_minimum[N - t]`, see `transfer`: charges are never negative and a
//! solution's prefix state always survives). The minima also grow with `t`, so
//! before layer `N - t` is reached, `layer_minimum[t']` for any computed
//! `t' <= N - t` is a weaker but still valid bound.

use super::frontier::Schedule;
use super::hashing::{KeyMap, KeySet};
use super::tally::{Overflow, Tally};
use super::transfer::{for_each_successor, join_key, split_key};

/// What a sweep returns.
#[derive(Debug, Clone)]
pub struct Sweep<T> {
    /// `by_penalty[p]`: valid assignments of penalty `p`, for `p <= bound`.
    pub by_penalty: Vec<T>,
    /// Smallest penalty so far among the surviving states of each layer
    /// (`None` once a layer is empty).
    pub layer_minimum: Vec<Option<usize>>,
    /// Largest number of (state, penalty) keys in one layer.
    pub peak_keys: usize,
    /// The keys of every layer, when asked for (for enumeration).
    pub layers: Option<Vec<KeySet>>,
}

/// Runs the sweep with penalty bound `bound`. `future[t]`, when given, is a
/// lower bound on what is charged after `t` cells are placed (length `N + 1`).
pub fn sweep<T: Tally>(
    schedule: &Schedule,
    bound: usize,
    future: Option<&[usize]>,
    keep_layers: bool,
) -> Result<Sweep<T>, Overflow> {
    let cells = schedule.cells;
    let mut layer: KeyMap<T> = KeyMap::default();
    layer.insert(0, T::one());
    let mut minima = vec![Some(0)];
    let mut layers = keep_layers.then(Vec::new);
    let mut peak_keys = 1;
    for t in 0..cells {
        if let Some(kept) = layers.as_mut() {
            kept.push(layer.keys().copied().collect());
        }
        let still_to_come = future_bound(&minima, future, cells, t + 1);
        let limit = bound.checked_sub(still_to_come);
        let mut next: KeyMap<T> = KeyMap::default();
        if let Some(limit) = limit {
            next.reserve(layer.len());
            for (key, count) in &layer {
                let (state, penalty) = split_key(*key);
                let mut failure = Ok(());
                for_each_successor(schedule, t, state, |_, next_state, charge| {
                    let total = penalty + charge;
                    if total <= limit {
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
    if let Some(kept) = layers.as_mut() {
        kept.push(layer.keys().copied().collect());
    }
    let mut by_penalty = vec![T::zero(); bound + 1];
    for (key, count) in layer {
        by_penalty[split_key(key).1].try_add(&count)?;
    }
    Ok(Sweep { by_penalty, layer_minimum: minima, peak_keys, layers })
}

/// Lower bound on the penalty charged after `placed` cells, from the given
/// array and from the layer minima computed so far (see the module header).
fn future_bound(
    minima: &[Option<usize>],
    future: Option<&[usize]>,
    cells: usize,
    placed: usize,
) -> usize {
    let given = future.map_or(0, |f| f[placed]);
    let mirror = cells - placed;
    let known = mirror.min(minima.len() - 1);
    // An empty layer means nothing survives; any bound is then valid, but the
    // sweep is over anyway, so the weakest one (0) is used.
    let from_minima = minima[known].unwrap_or(0);
    given.max(from_minima)
}
