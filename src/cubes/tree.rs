//! Decision trees below a projection: literal cubes that cover by
//! construction. A plan may replace a value cube `C` by the leaves of a
//! binary decision tree over the plain formula's variables: each internal
//! node splits on a variable `x` into `x` and `-x`, and each leaf is the
//! cube "C and the literals on the path to it". That a plan's paths form
//! complete trees is checked where the plan is read
//! (`records::plan::check_tree`); this module walks such a tree for the
//! VeriPB derivation (`derivation::cubes`), which derives the cover leaf
//! to root.

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
    use crate::records::plan::check_tree;

    #[test]
    fn complete_trees_pass_and_missing_branches_fail() {
        let ok: Vec<&[i32]> = vec![&[3, 5], &[3, -5], &[-3]];
        assert_eq!(check_tree(&ok, 9), Ok(()));
        assert_eq!(check_tree(&[&[]], 9), Ok(()));
        let missing: Vec<&[i32]> = vec![&[3, 5], &[-3]];
        assert!(check_tree(&missing, 9).unwrap_err().to_string().contains("below [3] then -5"));
        let mixed: Vec<&[i32]> = vec![&[3, 5], &[3, -6], &[-3]];
        assert!(check_tree(&mixed, 9).unwrap_err().to_string().contains("different variables"));
        let nested: Vec<&[i32]> = vec![&[3], &[3, 5], &[-3]];
        assert!(check_tree(&nested, 9).unwrap_err().to_string().contains("leaf and an inner node"));
        assert!(check_tree(&[&[10], &[-10]], 9).unwrap_err().to_string().contains("not a variable"));
        assert!(check_tree(&[&[i32::MIN]], 9).unwrap_err().to_string().contains("not a variable"));
        assert!(check_tree(&[&[3, 3], &[3, -3], &[-3]], 9).unwrap_err().to_string().contains("twice"));
        let order = inner_nodes_leaves_first(&ok);
        assert_eq!(order, vec![(vec![3], vec![0, 1]), (vec![], vec![0, 1, 2])]);
    }
}
