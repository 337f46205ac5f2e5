//! Cardinality splitting: decision trees on the penalty counter below a cube.
//!
//! The bound "penalty < B" is a sequential counter over the edges in their
//! sorted order, so the first half of the edges lies in the top half of the
//! hexagon. Its variable `count(h, j - 1)` is forced true when at least `j`
//! of the first `h + 1` edges are penalty edges, and once true it forces
//! the edges after `h` to hold at most `B - 1 - j` more. Deciding it splits
//! the budget between the two halves: with `-count(h, j - 1)` the first half
//! holds at most `j - 1`, with `count(h, j - 1)` the second half at most
//! `B - 1 - j`. Each leaf of a bisection over `j` thus carries two
//! cardinality constraints of half the size, both tight near the middle,
//! where a CDCL solver on the one long counter learns slowly.
//!
//! Only the forcing direction of the counter is encoded, so a true `count`
//! may be spurious and two leaves may share models; that costs work, never
//! soundness. Nothing here is trusted: the tree's leaves are checked to be
//! a complete decision tree (`tree`), the VeriPB derivation of the split
//! formula derives the cover again, and every leaf is refuted by a checked
//! proof of its own.

use crate::encoding::Counter;

/// The edge position the trees split at: the last edge of the first half.
pub fn split_position(counter: &Counter) -> usize {
    counter.inputs / 2 - 1
}

/// The range `lo..=hi` of the first half's penalty that `path` leaves open:
/// its decisions on the counter at `split_position`, read as bounds.
fn open_range(counter: &Counter, path: &[i32]) -> (usize, usize) {
    let h = split_position(counter);
    let (mut lo, mut hi) = (0, counter.bound);
    for j in 1..=counter.bound {
        let var = counter.count(h, j - 1).expect("j - 1 < bound");
        if path.contains(&var) {
            lo = lo.max(j);
        }
        if path.contains(&-var) {
            hi = hi.min(j - 1);
        }
    }
    (lo, hi)
}

/// The leaves (paths) of a bisection tree of at most `depth` levels over
/// the first half's penalty, below a cube whose own path is `path`; the
/// range the path already fixes is bisected further, so a leaf refines.
pub fn bisection_tree(counter: &Counter, path: &[i32], depth: usize) -> Vec<Vec<i32>> {
    let mut leaves = Vec::new();
    let (lo, hi) = open_range(counter, path);
    bisect(counter, lo, hi, depth, &mut Vec::new(), &mut leaves);
    leaves
}

fn bisect(counter: &Counter, lo: usize, hi: usize, depth: usize, path: &mut Vec<i32>, leaves: &mut Vec<Vec<i32>>) {
    if depth == 0 || lo >= hi {
        leaves.push(path.clone());
        return;
    }
    let j = (lo + hi + 1) / 2;
    let var = counter.count(split_position(counter), j - 1).expect("1 <= j <= bound");
    for (lit, lo, hi) in [(-var, lo, j - 1), (var, j, hi)] {
        path.push(lit);
        bisect(counter, lo, hi, depth - 1, path, leaves);
        path.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bisection_halves_the_range_and_refines_a_leaf() {
        let counter = Counter { first: 101, inputs: 10, bound: 8 };
        // h = 4; count(4, j - 1) = 101 + 4 * 8 + j - 1 = 132 + j.
        let leaves = bisection_tree(&counter, &[], 2);
        assert_eq!(leaves, vec![vec![-136, -134], vec![-136, 134], vec![136, -138], vec![136, 138]]);
        let paths: Vec<&[i32]> = leaves.iter().map(Vec::as_slice).collect();
        assert_eq!(crate::cubes::tree::check_tree(&paths, 200), Ok(()));
        assert_eq!(open_range(&counter, &[136, -138]), (4, 5));
        assert_eq!(bisection_tree(&counter, &[136, -138], 3), vec![vec![-137], vec![137]]);
        assert_eq!(bisection_tree(&counter, &[-133], 3), vec![Vec::<i32>::new()]);
    }
}
