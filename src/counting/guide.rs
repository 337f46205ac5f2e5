//! Exact "cost to finish" tables of a lower level, used to prune a sweep.
//!
//! Invariants relied on:
//! - **Projection.** Reading a level-k frontier state at level `j < k` (values
//!   above `j` become `+`, seen-bits above `j` are dropped) gives the level-j
//!   frontier state of the truncated assignment, in the same slots: the
//!   schedule's slot order does not depend on the level.
//! - **Charges only grow with the level.** Every unit the level-j sweep charges
//!   at a step (an equal edge of values `<= j`, a duplicate support of a value
//!   `<= j`) is charged by the level-k sweep at the same step for the same
//!   edge. So what a level-k state still has to pay is at least what its
//!   projection still has to pay at level j.
//! - **The table is exact where it is defined.** `future[t][f]` is the least
//!   level-j charge from state `f` after `t` cells to a complete valid
//!   assignment, computed backwards over every state the forward pass kept.
//!   The forward pass keeps every state on a valid level-j assignment of
//!   penalty `<= bound` (its own pruning is by valid lower bounds: the lower
//!   level's table and the layer minima of `sweep`), so a
//!   projection missing from the table cannot be completed within the bound.

use super::frontier::{code_value, Schedule};
use super::hashing::KeyMap;
pub use super::reach::BuildStats;
use super::reach;
use super::sweep::{minimum_bound, Layers, SweepError};
use super::transfer::{for_each_successor, unpack};

/// `future[t]`: level-j state after `t` placed cells -> least charge to finish.
#[derive(Debug, Clone)]
pub struct Guide {
    pub level: u8,
    pub future: Vec<KeyMap<u8>>,
}

impl Guide {
    /// Least charge still to come for a level-`schedule.level` state after
    /// `placed` cells, or `None` when no completion within the bound exists.
    pub fn still_to_come(&self, schedule: &Schedule, placed: usize, state: u128) -> Option<usize> {
        let key = project(schedule, placed, state, self.level);
        self.future[placed].get(&key).map(|&g| usize::from(g))
    }

    /// Total number of states held, over all layers.
    pub fn size(&self) -> usize {
        self.future.iter().map(|layer| layer.len()).sum()
    }
}

/// Number of frontier cells after `placed` cells.
pub fn frontier_len(schedule: &Schedule, placed: usize) -> usize {
    match placed {
        0 => 0,
        _ => schedule.steps[placed - 1].staying.len(),
    }
}

/// The level-`to` reading of a level-`schedule.level` state (see the header).
pub fn project(schedule: &Schedule, placed: usize, state: u128, to: u8) -> u128 {
    let len = frontier_len(schedule, placed);
    let codes = unpack(state, len, schedule.slot_bits);
    let bits = u32::from(to) + 1;
    let low = (1u8 << to) - 1;
    codes[..len].iter().enumerate().fold(0u128, |acc, (s, &code)| {
        let projected = if code_value(code) <= to { code } else { (1u8 << to) | (code & low) };
        acc | (u128::from(projected) << (s as u32 * bits))
    })
}

/// Builds the level-`schedule.level` table for penalty `<= bound`, pruning
/// the forward pass with the table of a lower level when one is given: on
/// one core in hash maps (`Layers::Hashed`, the reference), or on every core
/// in compact layers spilled past the memory limit (`reach`).
pub fn build(schedule: &Schedule, bound: usize, lower: Option<&Guide>, layers: Layers) -> Result<(Guide, BuildStats), SweepError> {
    match layers {
        Layers::Hashed => {
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
        Layers::Sorted { memory_limit } => reach::build(schedule, bound, lower, memory_limit),
    }
}

/// Which successors a forward pass keeps at step `t`: those whose penalty so
/// far plus a valid lower bound on what is still to come (the lower level's
/// table, the layer minima) is within the bound.
pub struct Admits<'a> {
    pub schedule: &'a Schedule,
    pub t: usize,
    pub bound: usize,
    /// The layer minima's bound on what is still to come after step `t`.
    pub by_minima: usize,
    pub lower: Option<&'a Guide>,
}

impl Admits<'_> {
    /// Whether the successor state `s` reached with penalty `total` is kept.
    #[inline]
    pub fn admits(&self, s: u128, total: usize) -> bool {
        if total > self.bound {
            return false;
        }
        let to_come = match self.lower {
            Some(guide) => match guide.still_to_come(self.schedule, self.t + 1, s) {
                Some(g) => g,
                None => return false,
            },
            None => 0,
        };
        total + to_come.max(self.by_minima) <= self.bound
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
