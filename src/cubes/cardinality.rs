//! Cardinality splitting: decision trees on the penalty counter below a cube.
//!
//! The bound "penalty < B" is a sequential counter over the edges in the
//! counter's input order: by default the wedge order (`encoding::wedges`:
//! by angle around the centre), so the first half of the edges is one half
//! of the hexagon, cut along a line through the centre; with
//! `--cardinality sequential-counter` the edge index order, so the first
//! half is the top half, rows down to the middle. Its variable
//! `count(h, j - 1)` is forced true when at least `j` of the first `h + 1`
//! edges are penalty edges, and once true it forces the edges after `h` to
//! hold at most `B - 1 - j` more. Deciding it splits the budget between the
//! two halves: with `-count(h, j - 1)` the first half holds at most `j - 1`,
//! with `count(h, j - 1)` the second half at most `B - 1 - j`. Each leaf of a bisection over `j` thus carries two
//! cardinality constraints of half the size, both tight near the middle,
//! where a CDCL solver on the one long counter learns slowly.
//!
//! Once the first half's penalty is down to one value, the tree goes on at
//! the quarter positions (the penalty of the first quarter, and of the first
//! three quarters), then at the eighths: each decision fixes a prefix sum of
//! the penalty over the edge order more tightly, so a deep tree spreads the
//! budget over eight sectors (eight bands of rows in index order) instead
//! of ending, as it did with one
//! position, at a leaf no narrower than "the top half holds exactly j".
//! Prefix sums only grow, and grow by at most one an edge, so a decision at
//! one position narrows what is left open at the others; a position whose
//! range is closed is not split again.
//!
//! Only the forcing direction of the counter is encoded, so a true `count`
//! may be spurious and two leaves may share models; that costs work, never
//! soundness. Nothing here is trusted: the tree's leaves are checked to be
//! a complete decision tree (`tree`), the VeriPB derivation of the split
//! formula derives the cover again, and every leaf is refuted by a checked
//! proof of its own.

use crate::encoding::Counter;

/// The edge position the trees split at first: the last edge of the first half.
pub fn split_position(counter: &Counter) -> usize {
    counter.inputs / 2 - 1
}

/// The positions the trees split at, in the order they are used: the
/// middle, the quarters, the eighths (the last edge of each part).
fn positions(counter: &Counter) -> Vec<usize> {
    let m = counter.inputs;
    let mut out: Vec<usize> = Vec::new();
    for parts in [2, 4, 8] {
        for k in (1..parts).step_by(2) {
            let p = (m * k / parts).saturating_sub(1);
            if p + 1 < m && !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// What `path` decides of the prefix sum at `p` alone: `count(p, j - 1)`
/// read as "at least j", its negation as "at most j - 1".
fn own_range(counter: &Counter, path: &[i32], p: usize) -> (usize, usize) {
    let (mut lo, mut hi) = (0, counter.bound);
    for j in 1..=counter.bound {
        let var = counter.count(p, j - 1).expect("p + 1 < inputs and j - 1 < bound");
        if path.contains(&var) {
            lo = lo.max(j);
        }
        if path.contains(&-var) {
            hi = hi.min(j - 1);
        }
    }
    (lo, hi)
}

/// The range `lo..=hi` of the penalty of the edges up to `p` that `path`
/// leaves open, given its decisions at every tree position: a prefix sum is
/// at least any earlier one and at most any later one, and grows by at most
/// one an edge.
fn open_range(counter: &Counter, path: &[i32], p: usize, at: &[usize]) -> (usize, usize) {
    let (mut lo, mut hi) = own_range(counter, path, p);
    for &q in at.iter().filter(|&&q| q != p) {
        let (q_lo, q_hi) = own_range(counter, path, q);
        if q < p {
            lo = lo.max(q_lo);
            hi = hi.min(q_hi + (p - q));
        } else {
            hi = hi.min(q_hi);
            lo = lo.max(q_lo.saturating_sub(q - p));
        }
    }
    (lo, hi)
}

/// The leaves (paths) of a bisection tree of at most `depth` levels below a
/// cube whose own path is `path`: at each node the first position (middle,
/// quarters, eighths) whose prefix sum is still open has its range halved,
/// so a leaf refines whatever the cube's path already fixes.
pub fn bisection_tree(counter: &Counter, path: &[i32], depth: usize) -> Vec<Vec<i32>> {
    let at = positions(counter);
    let mut leaves = Vec::new();
    let mut full = path.to_vec();
    bisect(counter, &at, depth, path.len(), &mut full, &mut leaves);
    leaves
}

/// `full` is the cube's path followed by the tree's decisions so far; the
/// leaves keep the tree's part only (`full[base..]`).
fn bisect(counter: &Counter, at: &[usize], depth: usize, base: usize, full: &mut Vec<i32>, leaves: &mut Vec<Vec<i32>>) {
    let open = at.iter().find_map(|&p| {
        let (lo, hi) = open_range(counter, full, p, at);
        (lo < hi).then_some((p, lo, hi))
    });
    let Some((p, lo, hi)) = open.filter(|_| depth > 0) else {
        leaves.push(full[base..].to_vec());
        return;
    };
    let j = (lo + hi).div_ceil(2);
    let var = counter.count(p, j - 1).expect("1 <= j <= bound");
    for lit in [-var, var] {
        full.push(lit);
        bisect(counter, at, depth - 1, base, full, leaves);
        full.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bisection_halves_the_middle_range_first_and_refines_a_leaf() {
        let counter = Counter { first: 101, inputs: 10, bound: 8 };
        assert_eq!(positions(&counter), vec![4, 1, 6, 0, 2, 5, 7]);
        // h = 4; count(4, j - 1) = 101 + 4 * 8 + j - 1 = 132 + j.
        let leaves = bisection_tree(&counter, &[], 2);
        assert_eq!(leaves, vec![vec![-136, -134], vec![-136, 134], vec![136, -138], vec![136, 138]]);
        let paths: Vec<&[i32]> = leaves.iter().map(Vec::as_slice).collect();
        assert_eq!(crate::records::plan::check_tree(&paths, 200), Ok(()));
        assert_eq!(open_range(&counter, &[136, -138], 4, &positions(&counter)), (4, 5));
        assert_eq!(bisection_tree(&counter, &[136, -138], 1), vec![vec![-137], vec![137]]);
    }

    #[test]
    fn a_closed_middle_moves_the_tree_to_the_quarters() {
        let counter = Counter { first: 101, inputs: 10, bound: 8 };
        let at = positions(&counter);
        // -133: nothing among the first five edges. Then the first two
        // (position 1) are closed too, and the first seven (position 6)
        // hold at most two: edges 5 and 6.
        assert_eq!(open_range(&counter, &[-133], 4, &at), (0, 0));
        assert_eq!(open_range(&counter, &[-133], 1, &at), (0, 0));
        assert_eq!(open_range(&counter, &[-133], 6, &at), (0, 2));
        // count(6, j - 1) = 101 + 6 * 8 + j - 1 = 148 + j: split at j = 1.
        assert_eq!(bisection_tree(&counter, &[-133], 1), vec![vec![-149], vec![149]]);
        // A path that closes every position is a leaf.
        let closed: Vec<i32> = at.iter().map(|&p| -counter.count(p, 0).unwrap()).collect();
        assert_eq!(bisection_tree(&counter, &closed, 3), vec![Vec::<i32>::new()]);
    }
}
