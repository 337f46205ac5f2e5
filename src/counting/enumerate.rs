//! Listing every valid level-k partial with penalty at most a bound.
//!
//! Invariant relied on: the level-k cost-to-finish table (`guide`) is exact on
//! every state of a valid assignment of penalty `<= bound`. A depth-first walk
//! from the start that only enters states whose penalty so far plus cost to
//! finish is within the bound therefore never meets a dead end: it costs
//! O(partials x cells x values), and it meets every partial exactly once
//! because a partial determines its sequence of states.

use rayon::prelude::*;

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

/// A subtree of the walk: cells `0..t` placed with `values[..t]`, in
/// `state`, with `penalty` so far; its partials are those that begin so.
#[derive(Clone)]
pub struct Piece {
    t: usize,
    state: u128,
    penalty: usize,
    values: Vec<u8>,
}

impl Piece {
    /// The values its partials begin with.
    pub fn prefix(&self) -> &[u8] {
        &self.values[..self.t]
    }

    /// Folds the piece's partials into `acc`.
    pub fn fold<A>(mut self, schedule: &Schedule, table: &Guide, bound: usize, acc: &mut A, visit: &impl Fn(&mut A, &[u8], usize)) {
        walk(schedule, table, bound, self.t, self.state, self.penalty, &mut self.values, &mut |values, penalty| visit(acc, values, penalty));
    }
}

/// The walk cut, breadth first, into at least `pieces` independent subtrees
/// (each partial lies in exactly one, since a partial determines its walk),
/// in an order that depends only on the table and the bound, so that a
/// piece can be named by its index (`refine`'s records); none when the
/// table admits no partial.
pub fn cut(schedule: &Schedule, table: &Guide, bound: usize, pieces: usize) -> Vec<Piece> {
    assert_eq!(table.level, schedule.level, "the guide must be of the enumerated level");
    if !table.future[0].contains_key(&0) {
        return Vec::new();
    }
    let mut nodes = vec![Piece { t: 0, state: 0, penalty: 0, values: vec![0u8; schedule.cells] }];
    while nodes.len() < pieces && nodes.iter().all(|n| n.t < schedule.cells) {
        nodes = nodes
            .into_iter()
            .flat_map(|node| {
                let mut children = Vec::new();
                for_each_successor(schedule, node.t, node.state, |value, s, charge| {
                    let fits = table.future[node.t + 1].get(&s).is_some_and(|&g| node.penalty + charge + usize::from(g) <= bound);
                    if fits {
                        let mut values = node.values.clone();
                        values[node.t] = value;
                        children.push(Piece { t: node.t + 1, state: s, penalty: node.penalty + charge, values });
                    }
                });
                children
            })
            .collect();
    }
    nodes
}

/// As `for_each_partial`, on every core: the walk is `cut` into at least
/// `pieces` subtrees; each folds its partials into its own accumulator
/// (`start`, `visit`), and the accumulators are combined with `join`, so
/// the result does not depend on the cut.
pub fn fold_partials<A: Send>(
    schedule: &Schedule,
    table: &Guide,
    bound: usize,
    pieces: usize,
    start: impl Fn() -> A + Sync,
    visit: impl Fn(&mut A, &[u8], usize) + Sync,
    join: impl Fn(A, A) -> A + Sync + Send,
) -> A {
    cut(schedule, table, bound, pieces)
        .into_par_iter()
        .map(|piece| {
            let mut acc = start();
            piece.fold(schedule, table, bound, &mut acc, &visit);
            acc
        })
        .reduce(&start, &join)
}
