//! The order `lift` places a partial's `+` cells in. The program counts the
//! same in any order (`lift`'s header and tests), so the order is a matter of
//! speed only, but of orders of magnitude: a layer holds up to some 16 codes
//! per open cell (a label and the values it has seen), so the cells open at
//! once set the cost.
//!
//! The `+` cells of a level-4 partial form paths and cycles, walked breadth
//! first (at most three open). Those of a level-3 one form a denser graph
//! with holes, grown greedily so that few are open; where the greedy choice
//! ties, the tie is broken along a direction of the hexagon, and which
//! direction suits a partial depends on where its `+` cells lie. So the
//! greedy order is grown with ties broken in index order (by rows) and along
//! each of the six directions of the cube coordinates, and the order whose
//! open cells cost least is kept, index order on a tie. (n = 14 level 3 at
//! 43, 60 partials of the listing: the cost below summed, 4.1 × 10^16 in
//! index order, 1.9 × 10^13 the least of the directions; the widest step 13
//! open cells against 10.)

use std::collections::VecDeque;

use crate::geometry::Hexagon;

/// Codes a layer can hold per open cell, for `open_cost`: a label (four at
/// most above level 3) and the lower labels it has seen.
const CODES_PER_OPEN: u128 = 16;

/// The order `Lift::new` places the `+` cells (value `base + 1`) of a valid
/// level-`base` partial in.
pub(super) fn for_lift(hex: &Hexagon, values: &[u8], base: u8) -> Vec<usize> {
    let plus = base + 1;
    match base {
        4.. => breadth_first(hex, values, plus),
        _ => least_costly_fewest_open(hex, values, plus),
    }
}

/// One of the six directions of the cube coordinates, as a cell's position along it.
type Axis = fn((i32, i32, i32)) -> i32;

/// The fewest-open order, its ties broken in index order or along one of
/// the six directions, whichever `open_cost` finds cheapest.
pub(super) fn least_costly_fewest_open(hex: &Hexagon, values: &[u8], plus: u8) -> Vec<usize> {
    let axes: [Axis; 6] = [|c| c.0, |c| -c.0, |c| c.1, |c| -c.1, |c| c.2, |c| -c.2];
    let cells = hex.cell_count() as i64;
    let by_axis = axes
        .into_iter()
        .map(|axis| fewest_open(hex, values, plus, move |c| i64::from(axis(hex.cube(c))) * cells + c as i64));
    // `min_by_key` keeps the first of equals: index order on a tie.
    std::iter::once(fewest_open(hex, values, plus, |c| c as i64))
        .chain(by_axis)
        .min_by_key(|order| open_cost(hex, values, plus, order))
        .expect("seven orders")
}

/// What the program's layers cost in `order`, roughly: `CODES_PER_OPEN` to
/// the power of the cells open after each step, summed (saturating).
pub(super) fn open_cost(hex: &Hexagon, values: &[u8], plus: u8, order: &[usize]) -> u128 {
    let mut position = vec![usize::MAX; values.len()];
    for (i, &c) in order.iter().enumerate() {
        position[c] = i;
    }
    // A cell is open from its own step until the step of its last `+` neighbour.
    let last: Vec<usize> = order
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            hex.neighbours(c).iter().filter(|&&u| values[u] == plus).map(|&u| position[u]).fold(i, usize::max)
        })
        .collect();
    let mut closes_at = vec![0usize; order.len()];
    last.iter().enumerate().filter(|&(i, &l)| l > i).for_each(|(_, &l)| closes_at[l] += 1);
    let (mut open, mut cost) = (0usize, 0u128);
    for (i, &l) in last.iter().enumerate() {
        open = open - closes_at[i] + usize::from(l > i);
        cost = cost.saturating_add(CODES_PER_OPEN.saturating_pow(open as u32));
    }
    cost
}

/// The cells of value `plus`, each next one the cell next to those placed
/// that leaves the fewest open (placed with a neighbour still to come; ties:
/// the most placed neighbours, then the least `rank`), a part's first cell
/// its least by `rank`. A greedy order, not an optimal one: it keeps the open
/// cells near the boundary of a compact placed region instead of along a
/// whole row.
pub(super) fn fewest_open(hex: &Hexagon, values: &[u8], plus: u8, rank: impl Fn(usize) -> i64) -> Vec<usize> {
    let cells: Vec<usize> = (0..values.len()).filter(|&c| values[c] == plus).collect();
    let mut placed = vec![false; values.len()];
    // Neighbours of value `plus` not yet placed, per cell.
    let mut to_come: Vec<usize> =
        (0..values.len()).map(|c| hex.neighbours(c).iter().filter(|&&u| values[u] == plus).count()).collect();
    let mut touched = vec![false; values.len()];
    let mut order = Vec::with_capacity(cells.len());
    while order.len() < cells.len() {
        let key = |c: usize| {
            let placed_next = hex.neighbours(c).iter().filter(|&&u| values[u] == plus && placed[u]);
            let closing = placed_next.clone().filter(|&&u| to_come[u] == 1).count();
            let opening = usize::from(to_come[c] > 0);
            (opening as isize - closing as isize, std::cmp::Reverse(placed_next.count()), rank(c))
        };
        let next = cells
            .iter()
            .copied()
            .filter(|&c| !placed[c] && touched[c])
            .min_by_key(|&c| key(c))
            .or_else(|| cells.iter().copied().filter(|&c| !placed[c]).min_by_key(|&c| rank(c)))
            .expect("a cell is left");
        placed[next] = true;
        order.push(next);
        for &u in hex.neighbours(next) {
            if values[u] == plus {
                to_come[u] -= 1;
                touched[u] = true;
            }
        }
    }
    order
}

/// The cells of value `plus`, breadth first over the graph they induce
/// (each part from its least cell, neighbours in index order).
pub(super) fn breadth_first(hex: &Hexagon, values: &[u8], plus: u8) -> Vec<usize> {
    let mut placed = vec![false; values.len()];
    let mut order = Vec::new();
    let mut queue = VecDeque::new();
    for start in 0..values.len() {
        if values[start] != plus || placed[start] {
            continue;
        }
        placed[start] = true;
        queue.push_back(start);
        while let Some(c) = queue.pop_front() {
            order.push(c);
            for &u in hex.neighbours(c) {
                if values[u] == plus && !placed[u] {
                    placed[u] = true;
                    queue.push_back(u);
                }
            }
        }
    }
    order
}
