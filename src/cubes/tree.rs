//! Decision trees below a projection: literal cubes that cover by construction.
//!
//! A plan may replace a value cube `C` by the leaves of a binary decision
//! tree over the plain formula's variables: each internal node splits on a
//! variable `x` into `x` and `-x`, and each leaf is the cube "C and the
//! literals on the path to it". Invariant checked here, from the plan's cube
//! list alone: for every projection, the paths of the cubes below it are
//! exactly the leaves of one complete tree (a single empty path being the
//! trivial tree). Then every assignment that reads as `C` follows exactly
//! one path to a leaf, so the leaves cover `C` whatever the formula says,
//! and the orbit cover of the projections (`cover`) is untouched by the
//! trees. The VeriPB derivation of the split formula derives the same fact
//! leaf to root (`derivation::cubes`), so this check is a guard for early,
//! readable errors, not a link of the trust chain.

use std::collections::BTreeMap;

use super::Cube;

/// The paths below each projection, in plan order of first appearance.
pub fn paths_by_projection(cubes: &[Cube]) -> BTreeMap<Cube, Vec<&[i32]>> {
    let mut trees: BTreeMap<Cube, Vec<&[i32]>> = BTreeMap::new();
    for cube in cubes {
        trees.entry(cube.projection()).or_default().push(&cube.literals);
    }
    trees
}

/// Checks that the paths are the leaves of one complete decision tree whose
/// variables lie in `1..=num_vars`, none twice on a path; the error names
/// the first fault.
pub fn check_tree(paths: &[&[i32]], num_vars: i32) -> Result<(), String> {
    for path in paths {
        // `unsigned_abs`: `i32::MIN` has no `abs`, and must read as out of range.
        if let Some(&lit) = path.iter().find(|&&l| l == 0 || l.unsigned_abs() > num_vars.unsigned_abs()) {
            return Err(format!("path {path:?} has literal {lit}, not a variable of the formula (1..={num_vars})"));
        }
        let mut vars: Vec<i32> = path.iter().map(|l| l.abs()).collect();
        vars.sort_unstable();
        if vars.windows(2).any(|w| w[0] == w[1]) {
            return Err(format!("path {path:?} decides a variable twice"));
        }
    }
    complete(paths, 0)
}

/// The paths, all agreeing on their first `depth` literals, are a complete tree below them.
fn complete(paths: &[&[i32]], depth: usize) -> Result<(), String> {
    match paths {
        [] => Err("an empty branch: a subtree has no leaf".into()),
        [only] if only.len() == depth => Ok(()),
        _ => {
            if let Some(leaf) = paths.iter().find(|p| p.len() == depth) {
                return Err(format!("path {leaf:?} is a leaf and an inner node at once (another path extends it)"));
            }
            let var = paths[0][depth].abs();
            if let Some(other) = paths.iter().find(|p| p[depth].abs() != var) {
                return Err(format!("paths {:?} and {other:?} split on different variables at depth {depth}", paths[0]));
            }
            let (high, low): (Vec<&[i32]>, Vec<&[i32]>) = paths.iter().partition(|p| p[depth] > 0);
            for (branch, lit) in [(&high, var), (&low, -var)] {
                complete(branch, depth + 1).map_err(|e| format!("below {:?} then {lit}: {e}", &paths[0][..depth]))?;
            }
            Ok(())
        }
    }
}

/// The inner nodes of a complete tree, each with the indices (into `paths`)
/// of the leaves below it, children before parents: the order in which a
/// derivation can show, by unit propagation alone, that each node's path
/// implies one of its leaves.
pub fn inner_nodes_leaves_first(paths: &[&[i32]]) -> Vec<(Vec<i32>, Vec<usize>)> {
    let mut nodes = Vec::new();
    let all: Vec<usize> = (0..paths.len()).collect();
    collect(paths, &all, 0, &mut nodes);
    nodes
}

/// Total on any paths (a malformed tree only yields steps VeriPB rejects):
/// an empty branch or a path that ends here is no inner node.
fn collect(paths: &[&[i32]], below: &[usize], depth: usize, nodes: &mut Vec<(Vec<i32>, Vec<usize>)>) {
    if below.is_empty() || below.iter().any(|&i| paths[i].len() <= depth) {
        return;
    }
    let (high, low): (Vec<usize>, Vec<usize>) = below.iter().partition(|&&i| paths[i][depth] > 0);
    collect(paths, &high, depth + 1, nodes);
    collect(paths, &low, depth + 1, nodes);
    nodes.push((paths[below[0]][..depth].to_vec(), below.to_vec()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_trees_pass_and_missing_branches_fail() {
        let ok: Vec<&[i32]> = vec![&[3, 5], &[3, -5], &[-3]];
        assert_eq!(check_tree(&ok, 9), Ok(()));
        assert_eq!(check_tree(&[&[]], 9), Ok(()));
        let missing: Vec<&[i32]> = vec![&[3, 5], &[-3]];
        assert!(check_tree(&missing, 9).unwrap_err().contains("below [3] then -5"));
        let mixed: Vec<&[i32]> = vec![&[3, 5], &[3, -6], &[-3]];
        assert!(check_tree(&mixed, 9).unwrap_err().contains("different variables"));
        let nested: Vec<&[i32]> = vec![&[3], &[3, 5], &[-3]];
        assert!(check_tree(&nested, 9).unwrap_err().contains("leaf and an inner node"));
        assert!(check_tree(&[&[10], &[-10]], 9).unwrap_err().contains("not a variable"));
        assert!(check_tree(&[&[i32::MIN]], 9).unwrap_err().contains("not a variable"));
        assert!(check_tree(&[&[3, 3], &[3, -3], &[-3]], 9).unwrap_err().contains("twice"));
        let order = inner_nodes_leaves_first(&ok);
        assert_eq!(order, vec![(vec![3], vec![0, 1]), (vec![], vec![0, 1, 2])]);
    }
}
