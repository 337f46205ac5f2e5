//! Listing every valid level-k partial with penalty at most a bound.
//!
//! Invariant relied on: the level-k cost-to-finish table (`guide`) is exact on
//! every state of a valid assignment of penalty `<= bound`. A depth-first walk
//! from the start that only enters states whose penalty so far plus cost to
//! finish is within the bound therefore never meets a dead end: it costs
//! O(partials x cells x values), and it meets every partial exactly once
//! because a partial determines its sequence of states.

use super::frontier::Schedule;
use super::guide::Guide;
use super::transfer::for_each_successor;

/// Calls `visit(values, penalty)` for every valid level-k partial of penalty
/// `<= bound`; `table` is the level-k guide for that bound. Values are by cell
/// index, `k + 1` standing for `+`.
pub fn for_each_partial(
    schedule: &Schedule,
    table: &Guide,
    bound: usize,
    mut visit: impl FnMut(&[u8], usize),
) {
    assert_eq!(table.level, schedule.level, "the guide must be of the enumerated level");
    let mut values = vec![0u8; schedule.cells];
    if table.future[0].contains_key(&0) {
        walk(schedule, table, bound, 0, 0, 0, &mut values, &mut visit);
    }
}

#[allow(clippy::too_many_arguments)]
fn walk(
    schedule: &Schedule,
    table: &Guide,
    bound: usize,
    t: usize,
    state: u128,
    penalty: usize,
    values: &mut [u8],
    visit: &mut impl FnMut(&[u8], usize),
) {
    if t == schedule.cells {
        visit(values, penalty);
        return;
    }
    let mut children: Vec<(u8, u128, usize)> = Vec::with_capacity(8);
    for_each_successor(schedule, t, state, |value, s, charge| {
        if let Some(&to_come) = table.future[t + 1].get(&s) {
            if penalty + charge + usize::from(to_come) <= bound {
                children.push((value, s, penalty + charge));
            }
        }
    });
    for (value, s, p) in children {
        values[t] = value;
        walk(schedule, table, bound, t + 1, s, p, values, visit);
    }
}
