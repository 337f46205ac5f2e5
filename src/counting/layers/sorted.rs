//! A sweep layer held as sorted vectors of (packed key, count).
//!
//! Invariants relied on:
//! - a `Run` lists each key once, in increasing order (equal keys had their
//!   counts added when it was built);
//! - the parts of a `Layer` are runs over disjoint key ranges, so a layer
//!   holds each key once and its counts are exactly the layer's.
//!
//! A layer costs its entries and the slack of at most one growth step per
//! part, not the empty buckets and doubling of a hash table, which is what lets
//! the sweep's memory follow what it must keep.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rayon::prelude::*;

use crate::counting::tally::{Overflow, Tally};

/// A packed (frontier state, penalty) key and its count.
pub type Keyed<T> = (u128, T);

/// Entries with distinct keys in increasing order.
pub type Run<T> = Vec<Keyed<T>>;

/// A stream of entries in increasing key order (keys may repeat across streams).
pub type Source<'a, T, E> = Box<dyn Iterator<Item = Result<Keyed<T>, E>> + Send + 'a>;

/// Bytes of entries a run holds, counting big-integer digits too.
pub fn run_bytes<T: Tally>(run: &[Keyed<T>]) -> usize {
    std::mem::size_of_val(run) + run.iter().map(|e| e.1.heap_bytes()).sum::<usize>()
}

/// Sorts entries into a run, adding the counts of equal keys.
pub fn sorted_run<T: Tally>(mut entries: Vec<Keyed<T>>) -> Result<Run<T>, Overflow> {
    entries.sort_unstable_by_key(|e| e.0);
    let mut failure = Ok(());
    entries.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same && kept.1.try_add(&later.1).is_err() {
            failure = Err(Overflow);
        }
        same
    });
    failure?;
    entries.shrink_to_fit();
    Ok(entries)
}

/// A run read in place, as a merge source.
pub fn borrowed<T: Tally, E: 'static>(run: &[Keyed<T>]) -> Source<'_, T, E> {
    Box::new(run.iter().cloned().map(Ok))
}

/// K-way merge: emits every key of the sources once, in increasing order,
/// with the sum of its counts.
pub fn merge<T: Tally, E: From<Overflow>>(
    mut sources: Vec<Source<'_, T, E>>,
    mut emit: impl FnMut(Keyed<T>) -> Result<(), E>,
) -> Result<(), E> {
    let mut heads: Vec<Option<T>> = vec![None; sources.len()];
    let mut queue = BinaryHeap::with_capacity(sources.len());
    for (i, source) in sources.iter_mut().enumerate() {
        if let Some(first) = source.next() {
            let (key, count) = first?;
            heads[i] = Some(count);
            queue.push(Reverse((key, i)));
        }
    }
    let mut current: Option<Keyed<T>> = None;
    while let Some(Reverse((key, i))) = queue.pop() {
        let count = heads[i].take().expect("a queued source holds its head");
        if let Some(next) = sources[i].next() {
            let (next_key, next_count) = next?;
            heads[i] = Some(next_count);
            queue.push(Reverse((next_key, i)));
        }
        match current.as_mut() {
            Some((open, sum)) if *open == key => sum.try_add(&count)?,
            _ => {
                if let Some(done) = current.replace((key, count)) {
                    emit(done)?;
                }
            }
        }
    }
    current.map_or(Ok(()), emit)
}

/// The merge of `sources` as one run in memory.
pub fn merged_run<T: Tally, E: From<Overflow>>(sources: Vec<Source<'_, T, E>>) -> Result<Run<T>, E> {
    let mut run = Vec::new();
    merge(sources, |entry| {
        run.push(entry);
        Ok(())
    })?;
    run.shrink_to_fit();
    Ok(run)
}

/// One layer of the sweep.
#[derive(Debug, Clone)]
pub struct Layer<T> {
    pub parts: Vec<Run<T>>,
}

impl<T: Tally> Layer<T> {
    /// The layer of one key.
    pub fn single(key: u128, count: T) -> Layer<T> {
        Layer { parts: vec![vec![(key, count)]] }
    }

    pub fn len(&self) -> usize {
        self.parts.iter().map(Vec::len).sum()
    }

    pub fn bytes(&self) -> usize {
        self.parts.iter().map(|part| run_bytes(part)).sum()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Keyed<T>> {
        self.parts.iter().flatten()
    }

    /// Merges runs held in memory into a layer on every core (`merge_in_pieces`).
    pub fn merged(runs: &[Run<T>], pieces: usize) -> Result<Layer<T>, Overflow> {
        let parts =
            merge_in_pieces(runs, pieces, |e| e.0, |slices| merged_run(slices.into_iter().map(borrowed).collect()));
        Ok(Layer { parts: parts.into_iter().collect::<Result<Vec<Run<T>>, Overflow>>()? })
    }
}

/// Merges runs sorted by `key` on every core: the key range is cut at keys
/// sampled from the runs (`cut_keys`) and `merge_piece` gets, piece by piece,
/// the slice of every run that falls in it. Exact whatever the merge, since
/// equal keys always fall in the same piece; the pieces come back in key order.
pub fn merge_in_pieces<E: Sync, R: Send>(
    runs: &[Vec<E>],
    pieces: usize,
    key: impl Fn(&E) -> u128 + Sync,
    merge_piece: impl Fn(Vec<&[E]>) -> R + Sync,
) -> Vec<R> {
    let cuts = cut_keys(runs, pieces, &key);
    (0..=cuts.len())
        .into_par_iter()
        .map(|piece| {
            let from = piece.checked_sub(1).map(|c| cuts[c]);
            let to = cuts.get(piece).copied();
            let slices = runs
                .iter()
                .map(|run| {
                    let start = from.map_or(0, |k| run.partition_point(|e| key(e) < k));
                    let end = to.map_or(run.len(), |k| run.partition_point(|e| key(e) < k));
                    &run[start..end]
                })
                .collect();
            merge_piece(slices)
        })
        .collect()
}

/// Up to `pieces - 1` increasing keys that cut the runs' keys into pieces of
/// about equal size, from a sample of every run (runs sorted by `key`).
fn cut_keys<E>(runs: &[Vec<E>], pieces: usize, key: impl Fn(&E) -> u128) -> Vec<u128> {
    let total: usize = runs.iter().map(Vec::len).sum();
    let stride = (total / (pieces * 16).max(1)).max(1);
    let mut sample: Vec<u128> = runs.iter().flat_map(|run| run.iter().step_by(stride).map(&key)).collect();
    sample.sort_unstable();
    let mut cuts: Vec<u128> = (1..pieces).filter_map(|i| sample.get(i * sample.len() / pieces).copied()).collect();
    cuts.dedup();
    cuts
}
