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
//!
//! The tables are built by `tables` (one core, the reference) or `reach`
//! (every core); this module holds what both build and how a sweep reads it.

use crate::counting::frontier::schedule::{code_value, Schedule};
use crate::counting::frontier::transfer::unpack;
use crate::counting::hashing::KeyMap;

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
