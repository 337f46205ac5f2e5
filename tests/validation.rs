//! The plain validator against the published grids, the worked n=3 example,
//! and the level facts of docs/PROBLEM.md, section 4, as properties.

use crate::common;

use hexcert::formats::{parse_grid, read_grid_file};
use hexcert::geometry::{edge_count, Hexagon};
use hexcert::levels::Partial;
use hexcert::validation::{evaluate, PenaltyKind};
use proptest::prelude::*;
use std::path::Path;

/// Penalties of the published grids, n = 3..27 (tests/data/published, docs/PROBLEM.md section 6).
const REPORT_PENALTIES: [usize; 25] =
    [3, 3, 9, 13, 17, 20, 24, 28, 28, 32, 40, 43, 45, 47, 55, 50, 60, 66, 65, 71, 76, 75, 81, 87, 85];

#[test]
fn all_published_grids_have_the_reports_penalties() {
    let grids = common::published_grids();
    assert_eq!(grids.len(), 25);
    for (n, path) in grids {
        let file = read_grid_file(&path, Some(n)).unwrap();
        let hex = Hexagon::new(n).unwrap();
        let eval = evaluate(&hex, &file.partial);
        assert!(eval.is_valid(), "{}: {:?}", path.display(), eval.violations);
        assert_eq!(eval.penalty, REPORT_PENALTIES[n - 3], "n={n}");
        let score = eval.score.unwrap();
        assert_eq!(score + eval.penalty as u64, edge_count(n) as u64, "score + penalty = edges");
        let sum: u64 = file.partial.values().iter().map(|&v| u64::from(v)).sum();
        assert_eq!(file.stated_score, Some(sum), "stated sum of values");
    }
}

fn grid(text: &str) -> Partial {
    parse_grid(text.as_bytes(), Path::new("inline"), None).unwrap().partial
}

#[test]
fn the_reports_n3_example_level_by_level() {
    let hex = Hexagon::new(3).unwrap();
    let level1 = grid("hexcert n=3 level=1\n + 1 +\n+ + + +\n1 + + 1 +\n+ + + +\n+ 1 +\n");
    let e1 = evaluate(&hex, &level1);
    assert!(e1.is_valid());
    assert_eq!(e1.penalty, 2);
    assert!(e1.penalty_edges.iter().all(|p| p.kind == PenaltyKind::DuplicateSupport));
    let level2 = grid("hexcert n=3 level=2\n + 1 +\n+ 2 + 2\n1 + + 1 +\n+ + + +\n2 1 2\n");
    assert_eq!(evaluate(&hex, &level2).penalty, 3);
    let full = grid("hexcert n=3 level=6\n3 1 4\n4 2 3 2\n1 6 5 1 4\n3 7 4 3\n2 1 2\n");
    let e6 = evaluate(&hex, &full);
    assert!(e6.is_valid());
    assert_eq!(e6.penalty, 3);
    assert_eq!(full.truncate(2).unwrap(), level2);
    assert_eq!(full.truncate(1).unwrap(), level1);
}

#[test]
fn violations_name_the_cell_and_missing_values() {
    let hex = Hexagon::new(2).unwrap();
    // Centre 3 sees only 1s: it lacks a 2. Every other cell is 1.
    let p = Partial::new(2, 6, vec![1, 1, 1, 3, 1, 1, 1]).unwrap();
    let e = evaluate(&hex, &p);
    assert_eq!(e.violations.len(), 1);
    assert_eq!(e.violations[0].cell, 3);
    assert_eq!(e.violations[0].missing, vec![2]);
    // Six 1-1 edges around the rim are equal-value penalties, and the centre
    // sees six 1s: five duplicate supports.
    assert_eq!(e.penalty, 6 + 5);
}

#[test]
fn plus_plus_edges_are_not_charged() {
    let hex = Hexagon::new(2).unwrap();
    // Level 1: centre 1, rim all +: every + sees one 1; + + edges are free.
    let p = Partial::new(2, 1, vec![2, 2, 2, 1, 2, 2, 2]).unwrap();
    let e = evaluate(&hex, &p);
    assert!(e.is_valid());
    assert_eq!(e.penalty, 0);
}

/// Degree of the `+` cells in the graph they induce.
fn max_plus_degree(hex: &Hexagon, p: &Partial) -> usize {
    (0..hex.cell_count())
        .filter(|&c| p.is_plus(c))
        .map(|c| hex.neighbours(c).iter().filter(|&&u| p.is_plus(u)).count())
        .max()
        .unwrap_or(0)
}

#[test]
fn plus_cells_form_paths_and_cycles_after_level_4_and_a_matching_after_5() {
    for (n, _) in common::published_grids() {
        let hex = Hexagon::new(n).unwrap();
        let full = common::published(n);
        assert!(max_plus_degree(&hex, &full.truncate(4).unwrap()) <= 2);
        assert!(max_plus_degree(&hex, &full.truncate(5).unwrap()) <= 1);
    }
}

fn any_full_grid() -> impl Strategy<Value = Partial> {
    (2usize..=5).prop_flat_map(|n| {
        proptest::collection::vec(1u8..=7, hexcert::geometry::cell_count(n))
            .prop_map(move |values| Partial::new(n, 6, values).unwrap())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Refining a level-k partial to level k+1 never lowers the penalty, and
    /// validity at level k+1 implies validity at level k (docs/PROBLEM.md, section 4).
    #[test]
    fn refinement_never_lowers_the_penalty(full in any_full_grid()) {
        let hex = Hexagon::new(full.side()).unwrap();
        let mut previous: Option<(usize, bool)> = None;
        for k in 1..=6 {
            let e = evaluate(&hex, &full.truncate(k).unwrap());
            if let Some((penalty, valid)) = previous {
                prop_assert!(e.penalty >= penalty, "level {k}: {} < {penalty}", e.penalty);
                prop_assert!(!e.is_valid() || valid, "valid at level {k} but not below");
            }
            previous = Some((e.penalty, e.is_valid()));
        }
    }
}

/// The same refinement fact on real grids: the published optima truncated.
#[test]
fn published_grids_penalties_grow_with_the_level() {
    for (n, _) in common::published_grids().into_iter().take(9) {
        let hex = Hexagon::new(n).unwrap();
        let full = common::published(n);
        let penalties: Vec<usize> = (1..=6).map(|k| evaluate(&hex, &full.truncate(k).unwrap()).penalty).collect();
        assert!(penalties.windows(2).all(|w| w[0] <= w[1]), "n={n}: {penalties:?}");
    }
}
