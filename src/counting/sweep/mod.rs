//! The forward sweep: layer `t` maps (frontier state, penalty so far) after
//! placing cells `0..t` to the number of ways to get there.
//!
//! Invariants relied on (pruning is exact): charges are never negative (see
//! `transfer`), so a key is dropped only when its penalty so far plus a valid
//! lower bound on what is still to come exceeds the bound. Two lower bounds
//! are used, the larger wins:
//! - the lower level's exact cost-to-finish table (`guide`), when given;
//! - the layer minima (`frontier::minimum_bound`): what the first `N - t`
//!   cells cost is a lower bound on what the last `N - t` cells still cost.
//!
//! A layer is held either as a hash map filled on one core (`Layers::Hashed`,
//! the reference) or as sorted runs built shard by shard on every core and
//! merged (`Layers::Sorted`, see `layer` and `spill`). Both give the same
//! counts: a layer's count for a key is the sum, over the previous layer's
//! keys, of their counts times the successors reaching it, and addition does
//! not depend on the order or grouping the shards impose.

pub(super) mod enumerate;

use rayon::prelude::*;

use crate::context::RunContext;
use crate::counting::basics::{check_stop, Layers, SweepError};
use crate::counting::frontier::schedule::{minimum_bound, Schedule};
use crate::counting::frontier::transfer::{for_each_successor, join_key, split_key};
use crate::counting::hashing::KeyMap;
use crate::counting::layers::sorted::{borrowed, merged_run, run_bytes, sorted_run, Keyed, Layer, Run};
use crate::counting::layers::spill::{Scratch, Spilled};
use crate::counting::tables::guide::Guide;
use crate::counting::tally::{Overflow, Tally};

/// What a sweep returns.
#[derive(Debug, Clone)]
pub struct Sweep<T> {
    /// `by_penalty[p]`: valid assignments of penalty `p`, for `p <= bound`.
    pub by_penalty: Vec<T>,
    /// Largest number of (state, penalty) keys in one layer.
    pub peak_keys: usize,
    /// Largest number of bytes of keys and counts held at once: a layer with
    /// the successors buffered for the next (hash-table capacity for `Hashed`).
    pub peak_bytes: usize,
    /// Largest number of shards a layer was split into.
    pub shards: usize,
    /// Sorted runs written to scratch files.
    pub spilled_runs: usize,
}

/// Runs the sweep with penalty bound `bound`, pruned by a lower-level table
/// when one is given.
pub fn sweep<T: Tally>(
    schedule: &Schedule,
    bound: usize,
    guide: Option<&Guide>,
    layers: Layers,
    context: &RunContext,
) -> Result<Sweep<T>, SweepError> {
    let mut done = Sweep { by_penalty: Vec::new(), peak_keys: 1, peak_bytes: 0, shards: 1, spilled_runs: 0 };
    done.by_penalty = match layers {
        Layers::Hashed => {
            let start = KeyMap::from_iter([(0u128, T::one())]);
            let step = |pruning: Option<Pruning<'_>>, layer| {
                check_stop(context)?;
                hashed_step(pruning, layer, &mut done)
            };
            let last = run_layers(schedule, bound, guide, start, step, |map| least_penalty(map.keys()))?;
            by_penalty(last.iter(), bound)?
        }
        Layers::Sorted { memory_limit } => {
            let mut scratch = Scratch::default();
            let start = Layer::single(0, T::one());
            let step = |pruning: Option<Pruning<'_>>, layer| {
                check_stop(context)?;
                sorted_step(pruning, layer, memory_limit, &mut scratch, &mut done)
            };
            let last =
                run_layers(schedule, bound, guide, start, step, |layer| least_penalty(layer.iter().map(|e| &e.0)))?;
            done.spilled_runs = scratch.files();
            by_penalty(last.iter().map(|(key, count)| (key, count)), bound)?
        }
    };
    Ok(done)
}

/// What decides, at one step, which successors are kept.
#[derive(Clone, Copy)]
struct Pruning<'a> {
    schedule: &'a Schedule,
    t: usize,
    bound: usize,
    /// Largest penalty so far that the layer minima still allow.
    limit: usize,
    guide: Option<&'a Guide>,
}

impl Pruning<'_> {
    /// Calls `keep(next_key)` for every successor of `key` that may still
    /// finish within the bound.
    fn for_each_kept(&self, key: u128, mut keep: impl FnMut(u128)) {
        let (state, penalty) = split_key(key);
        for_each_successor(self.schedule, self.t, state, |_, next_state, charge| {
            let total = penalty + charge;
            let guided = match self.guide {
                Some(g) => {
                    g.still_to_come(self.schedule, self.t + 1, next_state).is_some_and(|c| total + c <= self.bound)
                }
                None => true,
            };
            if total <= self.limit && guided {
                keep(join_key(next_state, total));
            }
        });
    }
}

/// Drives the layers from `start` through every cell: `step` maps a layer to
/// the next under the step's pruning (`None` when nothing can survive), and
/// `minimum` gives a layer's least penalty so far.
fn run_layers<'a, L>(
    schedule: &'a Schedule,
    bound: usize,
    guide: Option<&'a Guide>,
    start: L,
    mut step: impl FnMut(Option<Pruning<'a>>, L) -> Result<L, SweepError>,
    minimum: impl Fn(&L) -> Option<usize>,
) -> Result<L, SweepError> {
    let cells = schedule.cells;
    let mut layer = start;
    let mut minima = vec![Some(0)];
    for t in 0..cells {
        let still_to_come = minimum_bound(&minima, cells, t + 1);
        let pruning = bound.checked_sub(still_to_come).map(|limit| Pruning { schedule, t, bound, limit, guide });
        layer = step(pruning, layer)?;
        minima.push(minimum(&layer));
    }
    Ok(layer)
}

fn least_penalty<'a>(keys: impl Iterator<Item = &'a u128>) -> Option<usize> {
    keys.map(|&key| split_key(key).1).min()
}

/// The last layer's counts summed by penalty.
fn by_penalty<'a, T: Tally + 'a>(
    entries: impl Iterator<Item = (&'a u128, &'a T)>,
    bound: usize,
) -> Result<Vec<T>, Overflow> {
    let mut totals = vec![T::zero(); bound + 1];
    for (&key, count) in entries {
        totals[split_key(key).1].try_add(count)?;
    }
    Ok(totals)
}

impl<T> Sweep<T> {
    fn note_layer(&mut self, keys: usize, bytes: usize) {
        self.peak_keys = self.peak_keys.max(keys);
        self.peak_bytes = self.peak_bytes.max(bytes);
    }
}

/// One step of the reference path.
fn hashed_step<T: Tally>(
    pruning: Option<Pruning<'_>>,
    layer: KeyMap<T>,
    done: &mut Sweep<T>,
) -> Result<KeyMap<T>, SweepError> {
    let mut next: KeyMap<T> = KeyMap::default();
    if let Some(pruning) = pruning {
        next.reserve(layer.len());
        for (key, count) in &layer {
            let mut failure = Ok(());
            pruning.for_each_kept(*key, |next_key| {
                if next.entry(next_key).or_insert_with(T::zero).try_add(count).is_err() {
                    failure = Err(Overflow);
                }
            });
            failure?;
        }
    }
    // A hash table costs its capacity plus one control byte per slot.
    let table_bytes = |map: &KeyMap<T>| map.capacity() * (std::mem::size_of::<Keyed<T>>() + 1);
    done.note_layer(next.len(), table_bytes(&layer) + table_bytes(&next));
    Ok(next)
}

/// Smallest and largest number of a layer's keys one shard expands
/// (`options::SHARD_MIN_KEYS`, `SHARD_MAX_KEYS`): small enough that a tiny
/// budget still spills in small runs, large enough that sorting, not
/// bookkeeping, is the work.
const SHARD_KEYS: (usize, usize) = (crate::options::SHARD_MIN_KEYS.default, crate::options::SHARD_MAX_KEYS.default);

/// Shards per core in one wave (`options::SHARDS_PER_CORE`); a wave's runs
/// are buffered before the budget is checked.
const SHARDS_PER_CORE: usize = crate::options::SHARDS_PER_CORE.default;

/// One step of the sorted path: the layer is cut into shards expanded in
/// parallel, each into a sorted run; buffered runs are spilled whenever the
/// layer and the buffer pass the memory limit; the runs are then merged.
fn sorted_step<T: Tally>(
    pruning: Option<Pruning<'_>>,
    layer: Layer<T>,
    memory_limit: u64,
    scratch: &mut Scratch,
    done: &mut Sweep<T>,
) -> Result<Layer<T>, SweepError> {
    let Some(pruning) = pruning else {
        return Ok(Layer { parts: Vec::new() });
    };
    let cores = rayon::current_num_threads();
    let layer_bytes = layer.bytes();
    let budget = usize::try_from(memory_limit).unwrap_or(usize::MAX).saturating_sub(layer_bytes);
    let successors_per_key = usize::from(pruning.schedule.plus());
    let for_budget = budget / (std::mem::size_of::<Keyed<T>>() * successors_per_key * cores * SHARDS_PER_CORE).max(1);
    let for_cores = layer.len().div_ceil(cores * 8);
    let shard_keys = for_cores.min(for_budget).clamp(SHARD_KEYS.0, SHARD_KEYS.1);
    let mut buffered: Vec<Run<T>> = Vec::new();
    let mut buffered_bytes = 0;
    let mut spilled: Vec<Spilled> = Vec::new();
    {
        let shards: Vec<&[Keyed<T>]> = layer.parts.iter().flat_map(|part| part.chunks(shard_keys)).collect();
        done.shards = done.shards.max(shards.len());
        for wave in shards.chunks(cores * SHARDS_PER_CORE) {
            let runs = wave.par_iter().map(|shard| expand(&pruning, shard)).collect::<Result<Vec<_>, _>>()?;
            buffered_bytes += runs.iter().map(|run| run_bytes(run)).sum::<usize>();
            buffered.extend(runs);
            done.note_layer(0, layer_bytes + buffered_bytes);
            if buffered_bytes > budget {
                spilled.push(scratch.spill(buffered.iter().map(|run| borrowed(run)).collect())?);
                buffered.clear();
                buffered_bytes = 0;
                scratch.compact::<T>(&mut spilled)?;
            }
        }
    }
    // Every successor is in a run now: the layer is no longer needed.
    drop(layer);
    let next = if spilled.is_empty() {
        Layer::merged(&buffered, cores * 4)?
    } else {
        let mut sources = spilled.iter().map(Spilled::read::<T>).collect::<Result<Vec<_>, _>>()?;
        sources.extend(buffered.iter().map(|run| borrowed(run)));
        let part = merged_run(sources)?;
        for run in spilled {
            run.remove()?;
        }
        Layer { parts: vec![part] }
    };
    done.note_layer(next.len(), buffered_bytes + next.bytes());
    Ok(next)
}

/// The kept successors of one shard, as a sorted run.
fn expand<T: Tally>(pruning: &Pruning<'_>, shard: &[Keyed<T>]) -> Result<Run<T>, Overflow> {
    let mut successors = Vec::with_capacity(shard.len() * 2);
    for (key, count) in shard {
        pruning.for_each_kept(*key, |next_key| successors.push((next_key, count.clone())));
    }
    sorted_run(successors)
}
