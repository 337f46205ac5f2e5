//! Level 4 on two roads: the refinement road (`counting::level4_by_refinement`:
//! the level-3 partials of penalty at most the minimum, each refined to level
//! 4 by a search of its own, every refinement re-judged by the validator)
//! against the level-4 sweep and against the report's table.
//!
//! Why: the level-4 counts past the report rest on the sweep; a second road
//! that shares none of its level-4 code must agree wherever both run.

use hexcert::counting::{level4_by_refinement, minimum_and_count, Settings};
use hexcert::geometry::Hexagon;

/// The report's level-4 minima and counts (docs/PROBLEM.md, section 6).
const REPORT: [(usize, usize, u64); 5] = [(3, 3, 24), (4, 3, 48), (5, 9, 948), (6, 13, 4128), (7, 17, 410_832)];

#[test]
fn refinement_agrees_with_the_level_four_sweep_and_the_report() {
    for (n, minimum, count) in REPORT {
        let hex = Hexagon::new(n).expect("hexagon");
        let refined = level4_by_refinement(&hex, &Settings::default()).expect("refinement road");
        let (swept_minimum, swept) = minimum_and_count(&hex, 4).expect("level-4 sweep");
        assert_eq!((refined.minimum, u128::from(refined.count)), (swept_minimum, u128::try_from(swept).expect("small")), "n={n}");
        assert_eq!((refined.minimum, refined.count), (minimum, count), "n={n}: the report");
        assert!(refined.level3_partials > 0);
    }
}

/// A start bound above the level-4 minimum (n = 7: 17, above the level-3
/// minimum 16) gives the same result: the level-3 table built for the larger
/// bound serves every bound tried (the start of 0 is the test above).
#[test]
fn a_start_bound_above_the_minimum_does_not_change_the_refinement_road() {
    let hex = Hexagon::new(7).expect("hexagon");
    let refined = level4_by_refinement(&hex, &Settings { start: 18, ..Settings::default() }).expect("refinement road");
    assert_eq!((refined.minimum, refined.count), (17, 410_832));
}
