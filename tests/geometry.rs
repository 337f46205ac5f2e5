//! The hexagon's shape and its 12 symmetries: sizes match the closed forms,
//! the symmetries form a group of order 12 and preserve adjacency and rings.

use std::collections::HashSet;

use hexcert::geometry::{cell_count, edge_count, Hexagon};

#[test]
fn sizes_match_closed_forms() {
    for n in 1..=12 {
        let hex = Hexagon::new(n).unwrap();
        assert_eq!(hex.cell_count(), cell_count(n), "cells n={n}");
        assert_eq!(hex.edges().len(), edge_count(n), "edges n={n}");
        let degree_sum: usize = (0..hex.cell_count()).map(|c| hex.neighbours(c).len()).sum();
        assert_eq!(degree_sum, 2 * edge_count(n));
    }
}

#[test]
fn sides_outside_range_are_errors() {
    assert!(Hexagon::new(0).is_err());
    assert!(Hexagon::new(41).is_err());
    assert!(Hexagon::new(40).is_ok());
}

#[test]
fn corners_have_three_neighbours_and_border_four() {
    let hex = Hexagon::new(5).unwrap();
    let mut degrees = [0usize; 7];
    for c in 0..hex.cell_count() {
        degrees[hex.neighbours(c).len()] += 1;
    }
    assert_eq!(degrees[3], 6);
    assert_eq!(degrees[4], 6 * (5 - 2));
    assert_eq!(degrees[6], cell_count(4));
}

#[test]
fn rings_partition_the_cells() {
    let hex = Hexagon::new(6).unwrap();
    for r in 1..=6 {
        let size = (0..hex.cell_count()).filter(|&c| hex.ring(c) == r).count();
        let expected = if r == 6 { 1 } else { 6 * (6 - r) };
        assert_eq!(size, expected, "ring {r}");
    }
    assert_eq!(hex.ring(hex.centre()), 6);
}

fn compose(a: &[usize], b: &[usize]) -> Vec<usize> {
    // (a after b)[c] = a[b[c]]
    b.iter().map(|&x| a[x]).collect()
}

#[test]
fn symmetries_form_a_group_of_order_12() {
    for n in 1..=5 {
        let hex = Hexagon::new(n).unwrap();
        let syms = hex.symmetries();
        assert_eq!(syms.len(), 12);
        let identity: Vec<usize> = (0..hex.cell_count()).collect();
        assert_eq!(syms[0], identity);
        let set: HashSet<Vec<usize>> = syms.iter().cloned().collect();
        if n >= 2 {
            assert_eq!(set.len(), 12, "distinct symmetries for n={n}");
        }
        for a in &syms {
            let mut seen = a.clone();
            seen.sort_unstable();
            assert_eq!(seen, identity, "a symmetry is a permutation");
            for b in &syms {
                assert!(set.contains(&compose(a, b)), "closed under composition");
            }
        }
    }
}

#[test]
fn symmetries_preserve_adjacency_and_rings() {
    let hex = Hexagon::new(5).unwrap();
    let edges: HashSet<(usize, usize)> = hex.edges().iter().copied().collect();
    for perm in hex.symmetries() {
        for &(u, v) in hex.edges() {
            let (a, b) = (perm[u], perm[v]);
            assert!(edges.contains(&(a.min(b), a.max(b))));
        }
        for (c, &image) in perm.iter().enumerate() {
            assert_eq!(hex.ring(image), hex.ring(c));
        }
    }
}

#[test]
fn neighbours_are_symmetric_and_sorted() {
    let hex = Hexagon::new(4).unwrap();
    for c in 0..hex.cell_count() {
        let ns = hex.neighbours(c);
        assert!(ns.windows(2).all(|w| w[0] < w[1]));
        for &u in ns {
            assert!(hex.neighbours(u).contains(&c));
        }
        for (i, &e) in hex.incident_edges(c).iter().enumerate() {
            let (a, b) = hex.edges()[e];
            assert!((a, b) == (c.min(ns[i]), c.max(ns[i])));
        }
    }
}
