//! Building the cost-to-finish tables of `guide`: on one core in hash maps
//! (`Layers::Hashed`, the reference, here), or on every core in compact
//! layers spilled past the memory limit (`reach`).
//!
//! Invariant relied on: the forward pass keeps every state on a valid
//! assignment whose penalty so far plus a valid lower bound on what is still
//! to come (`guide::Admits`) is within the bound, each with its least penalty
//! so far; the backward pass replaces that by the least charge to finish over
//! the states kept one step later. Both builds apply these rules state by
//! state, so they give the same tables (`reach`'s tests compare them).

use crate::context::RunContext;
use crate::counting::basics::{check_stop, BuildStats, Layers, SweepError};
use crate::counting::frontier::schedule::{minimum_bound, Schedule};
use crate::counting::frontier::transfer::for_each_successor;
use crate::counting::hashing::KeyMap;
use crate::counting::tables::guide::{Admits, Guide};
use crate::counting::tables::journal::Journal;
use crate::counting::tables::reach;

/// Builds the level-`schedule.level` table for penalty `<= bound`, pruning
/// the forward pass with the table of a lower level when one is given: on
/// one core in hash maps (`Layers::Hashed`, the reference), or on every core
/// in compact layers spilled past the memory limit (`reach`), which keeps its
/// finished layers in `journal` when given (the reference has no journal).
pub fn build(
    schedule: &Schedule,
    bound: usize,
    lower: Option<&Guide>,
    (layers, journal): (Layers, Option<&Journal>),
    context: &RunContext,
) -> Result<(Guide, BuildStats), SweepError> {
    match layers {
        Layers::Hashed => {
            check_stop(context)?;
            let started = std::time::Instant::now();
            let forward_layers = forward(schedule, bound, lower);
            let forward_states = forward_layers.iter().map(KeyMap::len).sum();
            let forward_seconds = started.elapsed().as_secs_f64();
            let future = backward(schedule, bound, forward_layers);
            let stats = BuildStats {
                level: schedule.level,
                bound,
                forward_states,
                table_states: future.iter().map(KeyMap::len).sum(),
                forward_seconds,
                backward_seconds: started.elapsed().as_secs_f64() - forward_seconds,
                ..BuildStats::default()
            };
            Ok((Guide { level: schedule.level, future }, stats))
        }
        Layers::Sorted { memory_limit } => reach::build(schedule, bound, lower, (memory_limit, journal), context),
    }
}

/// Forward pass: state -> least penalty so far, for states that may still
/// finish within the bound.
fn forward(schedule: &Schedule, bound: usize, lower: Option<&Guide>) -> Vec<KeyMap<u8>> {
    let mut layers: Vec<KeyMap<u8>> = Vec::with_capacity(schedule.cells + 1);
    layers.push(KeyMap::from_iter([(0u128, 0u8)]));
    let mut minima = vec![Some(0)];
    for t in 0..schedule.cells {
        let admits = Admits { schedule, t, bound, by_minima: minimum_bound(&minima, schedule.cells, t + 1), lower };
        let mut next: KeyMap<u8> = KeyMap::default();
        for (&state, &so_far) in &layers[t] {
            for_each_successor(schedule, t, state, |_, s, charge| {
                let total = usize::from(so_far) + charge;
                if admits.admits(s, total) {
                    let slot = next.entry(s).or_insert(u8::MAX);
                    *slot = (*slot).min(total as u8);
                }
            });
        }
        minima.push(next.values().map(|&p| usize::from(p)).min());
        layers.push(next);
    }
    layers
}

/// Backward pass: replaces "least penalty so far" by "least charge to finish"
/// and drops the states that cannot finish within the bound.
fn backward(schedule: &Schedule, bound: usize, mut layers: Vec<KeyMap<u8>>) -> Vec<KeyMap<u8>> {
    for value in layers[schedule.cells].values_mut() {
        *value = 0;
    }
    for t in (0..schedule.cells).rev() {
        let (head, tail) = layers.split_at_mut(t + 1);
        let next = &tail[0];
        head[t].retain(|&state, so_far| {
            let mut best = usize::MAX;
            for_each_successor(schedule, t, state, |_, s, charge| {
                if let Some(&g) = next.get(&s) {
                    best = best.min(charge + usize::from(g));
                }
            });
            let keep = best != usize::MAX && usize::from(*so_far) + best <= bound;
            if keep {
                *so_far = best as u8;
            }
            keep
        });
    }
    layers
}
