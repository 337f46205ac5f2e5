//! The cost-to-finish tables (`guide`) built on every core, from compact
//! layers that go to disk when they outgrow the memory budget.
//!
//! Invariants relied on:
//! - **Packing keeps the least penalty.** A reached state is one `u128`,
//!   `state << 8 | so_far` (states fit `STATE_BITS` = 120 bits, penalties
//!   `MAX_PENALTY_BOUND` = 255). Sorting packed values sorts by state, then by
//!   penalty so far, so keeping the first of each state keeps the least
//!   penalty so far: what the reference forward pass (`tables::forward`) keeps.
//! - **Same states, same tables.** A successor is kept by the same rule
//!   (`guide::Admits`) whichever shard produced it, and "least" does not
//!   depend on order or grouping; so the forward layers are the reference's,
//!   and the backward pass, which applies the reference's rule state by state,
//!   gives the same tables. Tests compare the two builds map for map.
//! - **Forward layers are read once more, backwards.** Only the backward pass
//!   needs a finished forward layer again, so once the layers held pass the
//!   budget they are written to scratch files (sorted, delta-coded, read back
//!   exactly) and read back one at a time: memory follows the widest layer
//!   and the tables, not the sum of all layers.
//! - **A journal holds what memory would.** With a journal (`journal`), every
//!   finished layer is written there instead and read back in the backward
//!   pass; a build that finds layers `1..=t` there starts from layer `t` with
//!   their minima, which is where the stopped build stood. The backward pass
//!   writes each table it finishes there too, and one that finds tables
//!   `t..cells` reads them back and goes on from `t - 1`, never reading the
//!   forward layers those tables replace.

use std::time::Instant;

use rayon::prelude::*;

use crate::context::RunContext;
use crate::counting::basics::{check_stop, report_backward_step, report_resumed, report_step, BuildStats, SweepError};
use crate::counting::frontier::schedule::{minimum_bound, Schedule};
use crate::counting::frontier::transfer::for_each_successor;
use crate::counting::hashing::KeyMap;
use crate::counting::layers::sorted::merge_in_pieces;
use crate::counting::layers::spill::Scratch;
use crate::counting::tables::forward_layers::{bytes, load, store, HeldLayer, Holding, Parts};
use crate::counting::tables::guide::{Admits, Guide};
use crate::counting::tables::journal::{Journal, JournalEntry, Pass};

#[inline]
fn packed(state: u128, so_far: usize) -> u128 {
    (state << 8) | so_far as u128
}

#[inline]
fn unpacked(reached: u128) -> (u128, usize) {
    (reached >> 8, (reached & 0xff) as usize)
}

/// Builds the level-`schedule.level` table for penalty `<= bound` on every
/// core, holding at most about `memory_limit` bytes of forward layers, or,
/// with a journal, every finished layer there (resuming what it holds).
pub fn build(
    schedule: &Schedule,
    bound: usize,
    lower: Option<&Guide>,
    (memory_limit, journal): (u64, Option<&Journal>),
    context: &RunContext,
) -> Result<(Guide, BuildStats), SweepError> {
    let mut stats = BuildStats { level: schedule.level, bound, ..BuildStats::default() };
    let started = Instant::now();
    let mut scratch = Scratch::default();
    let held = Holding { budget: usize::try_from(memory_limit).unwrap_or(usize::MAX), journal };
    let layers = forward(schedule, bound, lower, (&held, context), &mut scratch, &mut stats)?;
    stats.forward_seconds = started.elapsed().as_secs_f64();
    let future = backward(schedule, bound, layers, (journal, context), &mut stats)?;
    stats.backward_seconds = started.elapsed().as_secs_f64() - stats.forward_seconds;
    stats.table_states = future.iter().map(KeyMap::len).sum();
    Ok((Guide { level: schedule.level, future }, stats))
}

/// The layer the pass resumes from, with the layers before it and their minima.
struct Start {
    held: Vec<HeldLayer>,
    layer: Parts,
    /// The journal's copy of `layer` (none for layer 0, never written).
    entry: Option<JournalEntry>,
    minima: Vec<Option<usize>>,
}

/// Layer 0, or the last layer of the journal's consecutive run.
fn start(
    schedule: &Schedule,
    (journal, context): (Option<&Journal>, &RunContext),
    stats: &mut BuildStats,
) -> Result<Start, SweepError> {
    let fresh = Start {
        held: Vec::with_capacity(schedule.cells + 1),
        layer: vec![vec![packed(0, 0)]],
        entry: None,
        minima: vec![Some(0)],
    };
    let Some(journal) = journal else { return Ok(fresh) };
    let mut found = journal.resumable()?;
    let Some(last) = found.pop() else { return Ok(fresh) };
    let Start { mut held, layer, mut minima, .. } = fresh;
    held.push(HeldLayer::Memory(layer));
    for entry in found {
        note_layer(stats, entry.len, entry.t);
        minima.push(entry.minimum);
        held.push(HeldLayer::Journal(entry));
    }
    let t = held.len();
    note_layer(stats, last.len, t);
    minima.push(last.minimum);
    stats.resumed_layers = t;
    report_resumed(context, stats, &format!("forward layers 1..={t} ({} states)", stats.forward_states), journal.dir());
    Ok(Start { held, layer: vec![journal.read(&last)?], entry: Some(last), minima })
}

fn note_layer(stats: &mut BuildStats, len: usize, t: usize) {
    stats.forward_states += len;
    if len > stats.widest_layer.0 {
        stats.widest_layer = (len, t);
    }
}

fn forward(
    schedule: &Schedule,
    bound: usize,
    lower: Option<&Guide>,
    (holding, context): (&Holding<'_>, &RunContext),
    scratch: &mut Scratch,
    stats: &mut BuildStats,
) -> Result<Vec<HeldLayer>, SweepError> {
    let cores = rayon::current_num_threads();
    let Start { mut held, mut layer, mut entry, mut minima } = start(schedule, (holding.journal, context), stats)?;
    let mut held_bytes = 0;
    let began = Instant::now();
    for t in held.len()..schedule.cells {
        check_stop(context)?;
        let admits = Admits { schedule, t, bound, by_minima: minimum_bound(&minima, schedule.cells, t + 1), lower };
        let len: usize = layer.iter().map(Vec::len).sum();
        let shard = len.div_ceil(cores * 8).clamp(1 << 10, 1 << 18);
        let shards: Vec<&[u128]> = layer.iter().flat_map(|part| part.chunks(shard)).collect();
        let runs: Vec<Vec<u128>> = shards.par_iter().map(|shard| expand(&admits, shard)).collect();
        let next = merged(&runs, cores * 4);
        let runs_bytes = bytes(&runs);
        drop(runs);
        let next_len: usize = next.iter().map(Vec::len).sum();
        let minimum = next.iter().flat_map(|part| part.iter()).map(|&r| unpacked(r).1).min();
        minima.push(minimum);
        note_layer(stats, next_len, t + 1);
        stats.peak_bytes = stats.peak_bytes.max(held_bytes + bytes(&layer) + runs_bytes + bytes(&next));
        let finished = std::mem::replace(&mut layer, next);
        let written = holding
            .journal
            .map(|journal| journal.write((Pass::Forward, t + 1), layer.iter().flatten(), minimum))
            .transpose()?;
        match std::mem::replace(&mut entry, written) {
            Some(entry) => held.push(HeldLayer::Journal(entry)),
            None => {
                held_bytes += bytes(&finished);
                held.push(HeldLayer::Memory(finished));
            }
        }
        // Only long passes report their steps: short ones print one line at the end.
        if (t + 1) % schedule.cells.div_ceil(10) == 0 && began.elapsed().as_secs() >= 10 {
            report_step(context, stats, t + 1, schedule.cells, next_len);
        }
        if held_bytes > holding.budget {
            for slot in held.iter_mut() {
                if let HeldLayer::Memory(parts) = slot {
                    *slot = store(scratch, parts)?;
                    stats.spilled_layers += 1;
                }
            }
            held_bytes = 0;
        }
    }
    held.push(HeldLayer::Memory(layer));
    Ok(held)
}

/// The admitted successors of one shard, sorted, each state once.
fn expand(admits: &Admits<'_>, shard: &[u128]) -> Vec<u128> {
    let mut out = Vec::with_capacity(shard.len() * 2);
    for &reached in shard {
        let (state, so_far) = unpacked(reached);
        for_each_successor(admits.schedule, admits.t, state, |_, s, charge| {
            let total = so_far + charge;
            if admits.admits(s, total) {
                out.push(packed(s, total));
            }
        });
    }
    least_first(out)
}

fn least_first(mut states: Vec<u128>) -> Vec<u128> {
    states.sort_unstable();
    states.dedup_by_key(|r| *r >> 8);
    states.shrink_to_fit();
    states
}

/// Sorted runs merged into parts on every core (`layer::merge_in_pieces`).
fn merged(runs: &[Vec<u128>], pieces: usize) -> Parts {
    let parts = merge_in_pieces(runs, pieces, |r| *r >> 8, |slices| least_first(slices.concat()));
    parts.into_iter().filter(|part| !part.is_empty()).collect()
}

/// Backward pass (the reference's rule, `tables::backward`), on every core;
/// with a journal, each table is written there and a run of tables found
/// there is taken instead of being rebuilt.
fn backward(
    schedule: &Schedule,
    bound: usize,
    mut held: Vec<HeldLayer>,
    (journal, context): (Option<&Journal>, &RunContext),
    stats: &mut BuildStats,
) -> Result<Vec<KeyMap<u8>>, SweepError> {
    let load = |held| load(held, journal);
    let mut future: Vec<KeyMap<u8>> = Vec::with_capacity(schedule.cells + 1);
    let last = load(held.pop().expect("the last layer is held"))?;
    future.push(last.iter().flatten().map(|&r| (unpacked(r).0, 0u8)).collect());
    if let Some(journal) = journal {
        for entry in journal.resumable_backward()? {
            held.pop().expect("one layer per step");
            future.push(journal.read(&entry)?.into_iter().map(|r| (unpacked(r).0, (r & 0xff) as u8)).collect());
            stats.resumed_tables += 1;
        }
        if stats.resumed_tables > 0 {
            let first = schedule.cells - stats.resumed_tables;
            report_resumed(context, stats, &format!("backward tables {first}..{}", schedule.cells), journal.dir());
        }
    }
    let began = Instant::now();
    for t in (0..schedule.cells - stats.resumed_tables).rev() {
        check_stop(context)?;
        let layer = load(held.pop().expect("one layer per step"))?;
        let next = future.last().expect("the later table is built");
        let kept: Vec<Vec<(u128, u8)>> = layer
            .par_iter()
            .flat_map(|part| part.par_chunks(1 << 14))
            .map(|chunk| {
                chunk
                    .iter()
                    .filter_map(|&r| {
                        let (state, so_far) = unpacked(r);
                        let mut best = usize::MAX;
                        for_each_successor(schedule, t, state, |_, s, charge| {
                            if let Some(&g) = next.get(&s) {
                                best = best.min(charge + usize::from(g));
                            }
                        });
                        (best != usize::MAX && so_far + best <= bound).then_some((state, best as u8))
                    })
                    .collect()
            })
            .collect();
        drop(layer);
        let mut table = KeyMap::default();
        table.reserve(kept.iter().map(Vec::len).sum());
        table.extend(kept.into_iter().flatten());
        if let Some(journal) = journal {
            let mut sorted: Vec<u128> = table.iter().map(|(&state, &g)| packed(state, usize::from(g))).collect();
            sorted.par_sort_unstable();
            let minimum = table.values().min().map(|&g| usize::from(g));
            journal.write((Pass::Backward, t), sorted.iter(), minimum)?;
        }
        if t % schedule.cells.div_ceil(10) == 0 && began.elapsed().as_secs() >= 10 {
            report_backward_step(context, stats, t, schedule.cells, table.len());
        }
        future.push(table);
    }
    future.reverse();
    Ok(future)
}

#[cfg(test)]
mod tests {
    use crate::counting::basics::{CountSettings, Layers};
    use crate::counting::tables::ladder::Ladder;
    use crate::geometry::Hexagon;

    /// The tables built on every core, in memory or with every forward layer
    /// spilled, equal the reference's map for map, level by level.
    fn compact_tables_equal_the_reference(n: usize, bound: usize, top: u8) {
        let hex = Hexagon::new(n).expect("hexagon");
        let hashed = CountSettings::from(Layers::Hashed);
        let reference = Ladder::up_to(&hex, top, bound, &hashed).expect("reference");
        for memory_limit in [0, 1 << 30] {
            let sorted = CountSettings::from(Layers::Sorted { memory_limit });
            let compact = Ladder::up_to(&hex, top, bound, &sorted).expect("compact");
            let spilled: usize = compact.builds().iter().map(|b| b.spilled_layers).sum();
            assert_eq!(spilled > 0, memory_limit == 0, "n={n}: spilled {spilled} layers under limit {memory_limit}");
            for level in 1..=top {
                let (a, b) = (reference.guide(level).expect("built"), compact.guide(level).expect("built"));
                assert!(a.size() > 0, "n={n} level {level}: an empty table compares nothing");
                assert_eq!(a.future, b.future, "n={n} level {level} bound {bound} limit {memory_limit}");
            }
        }
    }

    // Side 7 is most of the cost: a test of its own runs beside the rest.
    #[test]
    fn compact_tables_equal_the_reference_to_side_six() {
        for (n, bound) in [(4, 6), (5, 9), (5, 12), (6, 13)] {
            compact_tables_equal_the_reference(n, bound, 4);
        }
    }

    #[test]
    fn compact_tables_equal_the_reference_at_side_seven() {
        compact_tables_equal_the_reference(7, 17, 3);
    }
}

#[cfg(test)]
mod journal_tests {
    use super::{build, SweepError};
    use crate::context::RunContext;
    use crate::counting::frontier::schedule::Schedule;
    use crate::counting::tables::checkpoint::serialise;
    use crate::counting::tables::journal::{Identity, Journal, Pass};
    use crate::geometry::Hexagon;

    /// A build stopped after any layer of either pass (what a stop leaves:
    /// forward layers `1..=t`, or all of them and backward tables `t..cells`,
    /// and perhaps a hidden temporary) and resumed from its journal gives
    /// the table of one uninterrupted build without a journal, byte for
    /// byte; a damaged file is refused by name, not used.
    #[test]
    fn a_build_resumed_from_its_journal_gives_the_same_table() {
        let (side, bound) = (6, 13);
        let hex = Hexagon::new(side).expect("hexagon");
        let stop = RunContext::default();
        let first = Schedule::new(&hex, 1).expect("schedule");
        let (lower, _) = build(&first, bound, None, (1 << 30, None), &stop).expect("level 1");
        let schedule = Schedule::new(&hex, 2).expect("schedule");
        let (whole, _) = build(&schedule, bound, Some(&lower), (1 << 30, None), &stop).expect("one run");
        let expected = serialise(side, bound, &whole);
        let dir = tempfile::tempdir().expect("temporary directory");
        let id = Identity { side, level: 2, bound, cells: schedule.cells };
        let journal = Journal::new(dir.path().join("forward"), id);
        let cells = schedule.cells;
        let remove = |pass, steps: std::ops::Range<usize>| {
            for t in steps {
                let _ = std::fs::remove_file(journal.path(pass, t));
            }
        };
        for stopped_after in [0, 1, 2, cells / 3, cells / 2, cells - 1, cells] {
            remove(Pass::Forward, stopped_after + 1..cells + 1);
            remove(Pass::Backward, 0..cells);
            if stopped_after > 0 {
                std::fs::write(journal.dir().join(format!(".layer-{}.x.tmp", stopped_after + 1)), b"half")
                    .expect("stray");
            }
            let (resumed, stats) =
                build(&schedule, bound, Some(&lower), (1 << 30, Some(&journal)), &stop).expect("resumes");
            assert_eq!(stats.resumed_layers, stopped_after, "resumed where it stopped");
            assert!(serialise(side, bound, &resumed) == expected, "stopped after layer {stopped_after}: another table");
            assert!(journal.path(Pass::Forward, cells).is_file(), "every layer journalled");
            assert!(journal.path(Pass::Backward, 0).is_file(), "every backward table journalled");
        }
        for tables in [1, 2, cells / 2, cells - 1, cells] {
            remove(Pass::Backward, 0..cells - tables);
            if tables < cells {
                std::fs::write(journal.dir().join(format!(".future-{}.x.tmp", cells - tables - 1)), b"half")
                    .expect("stray");
            }
            let (resumed, stats) =
                build(&schedule, bound, Some(&lower), (1 << 30, Some(&journal)), &stop).expect("resumes");
            assert_eq!(
                (stats.resumed_layers, stats.resumed_tables),
                (cells, tables),
                "resumed where the backward pass stopped"
            );
            assert!(
                serialise(side, bound, &resumed) == expected,
                "stopped with {tables} backward tables: another table"
            );
        }
        // A forward layer filed as a backward table is refused, not read as one.
        let misfiled = journal.path(Pass::Backward, cells - 1);
        std::fs::copy(journal.path(Pass::Forward, cells - 1), &misfiled).expect("misfile");
        match build(&schedule, bound, Some(&lower), (1 << 30, Some(&journal)), &stop) {
            Err(SweepError::Scratch { path, source }) => {
                assert_eq!(path, misfiled);
                assert!(source.to_string().contains("backward table refused"), "{source}");
            }
            other => panic!("a misfiled layer was used: {:?}", other.map(|(_, stats)| stats)),
        }
        remove(Pass::Backward, 0..cells);
        let damaged = journal.path(Pass::Forward, 5);
        let mut bytes = std::fs::read(&damaged).expect("layer 5");
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        std::fs::write(&damaged, bytes).expect("damage");
        match build(&schedule, bound, Some(&lower), (1 << 30, Some(&journal)), &stop) {
            Err(SweepError::Scratch { path, source }) => {
                assert_eq!(path, damaged);
                assert!(source.to_string().contains("forward layer refused"), "{source}");
            }
            other => panic!("a damaged layer was used: {:?}", other.map(|(_, stats)| stats)),
        }
        journal.remove().expect("removed");
        assert!(!journal.dir().exists());
    }
}
