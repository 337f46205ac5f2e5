//! Listing every valid level-k partial with penalty at most a bound.
//!
//! Invariant relied on: the level-k cost-to-finish table (`guide`) is exact on
//! every state of a valid assignment of penalty `<= bound`. A depth-first walk
//! from the start that only enters states whose penalty so far plus cost to
//! finish is within the bound therefore never meets a dead end: it costs
//! O(partials x cells x values), and it meets every partial exactly once
//! because a partial determines its sequence of states.

use rayon::prelude::*;

use crate::counting::frontier::schedule::Schedule;
use crate::counting::frontier::transfer::for_each_successor;
use crate::counting::tables::guide::Guide;

/// Calls `visit(values, penalty)` for every valid level-k partial of penalty
/// `<= bound`; `table` is the level-k guide for that bound. Values are by cell
/// index, `k + 1` standing for `+`.
pub fn for_each_partial(schedule: &Schedule, table: &Guide, bound: usize, mut visit: impl FnMut(&[u8], usize)) {
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

/// A point of the walk: cells `0..t` placed with `values[..t]`, in `state`,
/// with `penalty` so far.
#[derive(Clone)]
struct Node {
    t: usize,
    state: u128,
    penalty: usize,
    values: Vec<u8>,
}

/// As `for_each_partial`, on every core: the walk is cut, breadth first, into
/// at least `pieces` independent subtrees (each partial lies in exactly one,
/// since a partial determines its walk); each subtree folds its partials
/// into its own accumulator (`start`, `visit`), and the accumulators are
/// combined with `join`, so the result does not depend on the cut.
pub fn fold_partials<A: Send>(
    schedule: &Schedule,
    table: &Guide,
    bound: usize,
    pieces: usize,
    start: impl Fn() -> A + Sync,
    visit: impl Fn(&mut A, &[u8], usize) + Sync,
    join: impl Fn(A, A) -> A + Sync + Send,
) -> A {
    assert_eq!(table.level, schedule.level, "the guide must be of the enumerated level");
    if !table.future[0].contains_key(&0) {
        return start();
    }
    let mut nodes = vec![Node { t: 0, state: 0, penalty: 0, values: vec![0u8; schedule.cells] }];
    while nodes.len() < pieces && nodes.iter().all(|n| n.t < schedule.cells) {
        nodes = nodes
            .into_iter()
            .flat_map(|node| {
                let mut children = Vec::new();
                for_each_successor(schedule, node.t, node.state, |value, s, charge| {
                    let fits = table.future[node.t + 1]
                        .get(&s)
                        .is_some_and(|&g| node.penalty + charge + usize::from(g) <= bound);
                    if fits {
                        let mut values = node.values.clone();
                        values[node.t] = value;
                        children.push(Node { t: node.t + 1, state: s, penalty: node.penalty + charge, values });
                    }
                });
                children
            })
            .collect();
    }
    nodes
        .into_par_iter()
        .map(|mut node| {
            let mut acc = start();
            walk(schedule, table, bound, node.t, node.state, node.penalty, &mut node.values, &mut |values, penalty| {
                visit(&mut acc, values, penalty)
            });
            acc
        })
        .reduce(&start, &join)
}
