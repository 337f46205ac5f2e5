//! Listing every valid level-k partial with penalty at most a bound.
//!
//! Invariant relied on: after the forward sweep has kept every layer's keys,
//! a backward pass keeps only the keys from which some step sequence reaches
//! the last layer within the bound ("alive" keys). A depth-first walk from the
//! start that only enters alive keys then never backtracks out of a dead end,
//! so it costs O(partials x cells x values), and it meets every partial exactly
//! once because a partial determines its key sequence.

use super::frontier::Schedule;
use super::hashing::KeySet;
use super::sweep::sweep;
use super::transfer::{for_each_successor, join_key, split_key};

/// Calls `visit(values, penalty)` for every valid level-k partial of penalty
/// `<= bound`; values are by cell index, `k + 1` standing for `+`.
pub fn for_each_partial(schedule: &Schedule, bound: usize, mut visit: impl FnMut(&[u8], usize)) {
    // Only the key sets are needed; u128 counts are never added here beyond
    // small numbers, and an overflow would only lose the (unused) counts.
    let layers = match sweep::<u128>(schedule, bound, None, true) {
        Ok(done) => done.layers.expect("layers were kept"),
        Err(_) => sweep::<num_bigint::BigUint>(schedule, bound, None, true)
            .expect("big integers do not overflow")
            .layers
            .expect("layers were kept"),
    };
    let alive = keep_alive(schedule, layers);
    let mut values = vec![0u8; schedule.cells];
    walk(schedule, &alive, 0, 0, &mut values, &mut visit);
}

/// Removes the keys with no way to the end.
fn keep_alive(schedule: &Schedule, mut layers: Vec<KeySet>) -> Vec<KeySet> {
    for t in (0..schedule.cells).rev() {
        let (head, tail) = layers.split_at_mut(t + 1);
        let next = &tail[0];
        head[t].retain(|&key| {
            let (state, penalty) = split_key(key);
            let mut reaches = false;
            for_each_successor(schedule, t, state, |_, s, charge| {
                reaches |= next.contains(&join_key(s, penalty + charge));
            });
            reaches
        });
    }
    layers
}

fn walk(
    schedule: &Schedule,
    alive: &[KeySet],
    t: usize,
    key: u128,
    values: &mut [u8],
    visit: &mut impl FnMut(&[u8], usize),
) {
    let (state, penalty) = split_key(key);
    if t == schedule.cells {
        visit(values, penalty);
        return;
    }
    let mut children: Vec<(u8, u128)> = Vec::with_capacity(8);
    for_each_successor(schedule, t, state, |value, s, charge| {
        let child = join_key(s, penalty + charge);
        if alive[t + 1].contains(&child) {
            children.push((value, child));
        }
    });
    for (value, child) in children {
        values[t] = value;
        walk(schedule, alive, t + 1, child, values, visit);
    }
}
