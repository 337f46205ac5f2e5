//! Exact counts of level-k partials, checked against independent paths:
//! brute force with the plain validator (n = 2), the validator on every
//! enumerated partial, the frontier sweep against the chain-and-cycle method
//! (levels 5 and 6), an insta snapshot of the n = 3..6 table, and (ignored,
//! slow) the published n = 7, 8 rows (docs/PROBLEM.md, section 6).
//!
//! Run: `cargo test --release --test counts counting::`;
//! the slow rows: add `-- --ignored`.

use std::collections::{BTreeMap, HashSet};

use hexcert::counting::{shape_polynomial, Count, CountSettings, Layers, Method, Shape};
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::validation::evaluate;
use num_bigint::BigUint;

fn hexagon(n: usize) -> Hexagon {
    Hexagon::new(n).expect("valid side")
}

fn big(x: u64) -> BigUint {
    BigUint::from(x)
}

/// Penalty -> number of valid level-k partials, over every assignment of the hexagon.
fn brute_force(hex: &Hexagon, level: u8) -> BTreeMap<usize, u64> {
    let cells = hex.cell_count();
    let base = u64::from(level) + 1;
    let mut tally = BTreeMap::new();
    for code in 0..base.pow(cells as u32) {
        let values: Vec<u8> = (0..cells).map(|c| (code / base.pow(c as u32) % base) as u8 + 1).collect();
        let partial = Partial::new(hex.side(), level, values).expect("values in range");
        let evaluation = evaluate(hex, &partial);
        if evaluation.is_valid() {
            *tally.entry(evaluation.penalty).or_insert(0) += 1;
        }
    }
    tally
}

/// The brute-force tally as a dense vector `0..=bound`.
fn dense(tally: &BTreeMap<usize, u64>, bound: usize) -> Vec<BigUint> {
    (0..=bound).map(|p| big(tally.get(&p).copied().unwrap_or(0))).collect()
}

#[test]
fn brute_force_matches_every_method_for_side_two() {
    let hex = hexagon(2);
    for level in 1..=6u8 {
        let expected = brute_force(&hex, level);
        let bound = *expected.keys().max().expect("some partial is valid");
        assert!(expected.len() > 1, "level {level}: the check needs several penalties");
        let methods: &[Method] = if level >= 5 { &[Method::Frontier, Method::Chains] } else { &[Method::Frontier] };
        for &method in methods {
            let counted = Count::new(&hex, level).with_method(method).by_penalty(bound).expect("counts");
            assert_eq!(counted.counts, dense(&expected, bound), "level {level} by {method:?}");
        }
    }
}

#[test]
fn enumeration_lists_exactly_the_valid_partials_for_side_two() {
    let hex = hexagon(2);
    for level in 1..=6u8 {
        let expected = brute_force(&hex, level);
        let bound = expected.keys().copied().nth(1).expect("two penalties");
        let mut listed = HashSet::new();
        let mut by_penalty = BTreeMap::new();
        Count::new(&hex, level)
            .for_each_partial(bound, |values, penalty| {
                assert!(listed.insert(values.to_vec()), "listed twice: {values:?}");
                *by_penalty.entry(penalty).or_insert(0u64) += 1;
            })
            .expect("enumerates");
        let wanted: BTreeMap<usize, u64> = expected.into_iter().filter(|&(p, _)| p <= bound).collect();
        assert_eq!(by_penalty, wanted, "level {level}");
    }
}

/// Every listed partial is valid for the plain validator, with the penalty
/// the sweep charged, and the listing agrees with the counts.
#[test]
fn enumerated_partials_pass_the_validator() {
    for (n, level, slack) in [(3, 2, 2), (3, 4, 1), (4, 3, 1), (4, 6, 0), (5, 4, 0)] {
        let hex = hexagon(n);
        let bound = Count::new(&hex, level).minimum_and_count().expect("minimum").0 + slack;
        let mut listed = vec![0u64; bound + 1];
        Count::new(&hex, level)
            .for_each_partial(bound, |values, penalty| {
                let partial = Partial::new(n, level, values.to_vec()).expect("values in range");
                let evaluation = evaluate(&hex, &partial);
                assert!(evaluation.is_valid(), "n={n} level={level}: invalid {values:?}");
                assert_eq!(evaluation.penalty, penalty, "n={n} level={level}: {values:?}");
                listed[penalty] += 1;
            })
            .expect("enumerates");
        let counted = Count::new(&hex, level).with_method(Method::Frontier).by_penalty(bound).expect("counts");
        let listed: Vec<BigUint> = listed.into_iter().map(big).collect();
        assert_eq!(counted.counts, listed, "n={n} level={level}");
    }
}

/// docs/PROBLEM.md, sections 4 and 5: refining never lowers the penalty, and after level 4 (5)
/// the `+` cells induce maximum degree 2 (1).
#[test]
fn refinement_never_lowers_the_penalty_and_plus_degrees_shrink() {
    let hex = hexagon(4);
    for level in 2..=6u8 {
        let bound = Count::new(&hex, level).minimum_and_count().expect("minimum").0 + 1;
        let mut seen = 0;
        Count::new(&hex, level)
            .for_each_partial(bound, |values, penalty| {
                seen += 1;
                let partial = Partial::new(4, level, values.to_vec()).expect("values in range");
                let lower = partial.truncate(level - 1).expect("lower level");
                let lower_eval = evaluate(&hex, &lower);
                assert!(lower_eval.is_valid());
                assert!(lower_eval.penalty <= penalty, "level {level}: {values:?}");
                let max_plus_degree = (0..hex.cell_count())
                    .filter(|&c| partial.is_plus(c))
                    .map(|c| hex.neighbours(c).iter().filter(|&&u| partial.is_plus(u)).count())
                    .max()
                    .unwrap_or(0);
                if level >= 4 {
                    assert!(max_plus_degree <= 6 - usize::from(level), "level {level}: {values:?}");
                }
            })
            .expect("enumerates");
        assert!(seen > 0);
    }
}

/// The chain-and-cycle analysis against the direct level-5/6 sweep, for
/// every penalty up to two above the minimum, on sides `sides`.
fn chains_agree_with_the_direct_sweep_on(sides: std::ops::RangeInclusive<usize>) {
    for n in sides {
        let hex = hexagon(n);
        let minimum = Count::new(&hex, 4).minimum().expect("level-4 minimum");
        for level in [5u8, 6] {
            let bound = minimum + 2;
            let direct = Count::new(&hex, level).with_method(Method::Frontier).by_penalty(bound).expect("sweep");
            let chains = Count::new(&hex, level).with_method(Method::Chains).by_penalty(bound).expect("chains");
            assert_eq!(direct, chains, "n={n} level={level}");
            assert!(chains.counts[bound] > big(0), "n={n} level={level}: the check needs counts");
        }
    }
}

#[test]
fn chains_agree_with_the_direct_sweep() {
    chains_agree_with_the_direct_sweep_on(3..=5);
}

/// The same past the published table's reach, for the near-optimal counts.
#[test]
#[ignore = "slow: n = 6..8 at levels 5 and 6 up to two above the minimum"]
fn chains_agree_with_the_direct_sweep_for_sides_six_to_eight() {
    chains_agree_with_the_direct_sweep_on(6..=8);
}

/// The remarks of docs/PROBLEM.md, section 5, which the code does not assume: chains complete at
/// no cost, cycles of length divisible by 3 at no cost, others at cost 1; a
/// 3-cycle takes 5, 6, 7 in 6 ways.
#[test]
fn component_polynomials_match_the_remarks_on_components() {
    for len in 1..=12 {
        let path = shape_polynomial(6, Shape::Path(len), 3);
        assert!(path[0] > big(0), "path {len}");
        if len >= 3 {
            let cycle = shape_polynomial(6, Shape::Cycle(len), 3);
            let cheapest = cycle.iter().position(|c| *c > big(0));
            assert_eq!(cheapest, Some(usize::from(len % 3 != 0)), "cycle {len}");
        }
    }
    assert_eq!(shape_polynomial(6, Shape::Cycle(3), 0), vec![big(6)]);
    // Level 5, two cells: 5-+ and +-5 are free, 5-5 costs one equal edge.
    assert_eq!(shape_polynomial(5, Shape::Path(2), 2), vec![big(2), big(1), big(0)]);
}

/// A row by `count_row` (shared tables); `known_rows_*` below take the other
/// path, `minimum_and_count` level by level.
fn table_row(n: usize) -> String {
    let hex = hexagon(n);
    let row = Count::new(&hex, 6).row(0).expect("counts");
    assert_eq!(row.iter().map(|e| e.level).collect::<Vec<_>>(), vec![1, 2, 3, 4, 5, 6]);
    let cells: Vec<String> = row.iter().map(|e| format!("{}: {}", e.minimum, e.count)).collect();
    format!("| {n} | {} |", cells.join(" | "))
}

#[test]
fn count_table_for_sides_three_to_six() {
    let mut table = String::from("| n | L1 | L2 | L3 | L4 | L5 | L6 |\n|---|---|---|---|---|---|---|\n");
    for n in 3..=6 {
        table.push_str(&table_row(n));
        table.push('\n');
    }
    insta::with_settings!({snapshot_path => "../snapshots"}, {
        insta::assert_snapshot!("count_table_3_to_6", table);
    });
}

/// The published table (docs/PROBLEM.md, section 6): minimum penalties and counts, n = 3..8.
const KNOWN: [(usize, [(usize, u64); 6]); 6] = [
    (3, [(2, 6), (3, 48), (3, 36), (3, 24), (3, 72), (3, 144)]),
    (4, [(0, 2), (2, 6), (3, 28), (3, 48), (3, 288), (3, 1152)]),
    (5, [(7, 84), (8, 48), (9, 360), (9, 948), (9, 17820), (9, 468864)]),
    (6, [(10, 36), (12, 58), (13, 276), (13, 4128), (13, 16992), (13, 2506752)]),
    (7, [(12, 96), (15, 432), (16, 360), (17, 410832), (17, 63132480), (17, 135214596096)]),
    (8, [(14, 48), (18, 24), (20, 468), (20, 30720), (20, 11197440), (20, 733835427840)]),
];

fn check_known_row(n: usize) {
    let (_, row) = KNOWN.iter().find(|(side, _)| *side == n).expect("known row");
    let hex = hexagon(n);
    for (level, &(minimum, count)) in (1..=6u8).zip(row) {
        assert_eq!(
            Count::new(&hex, level).minimum_and_count().expect("counts"),
            (minimum, big(count)),
            "n={n} level={level}"
        );
    }
}

#[test]
fn known_rows_for_sides_three_to_six() {
    for n in 3..=6 {
        check_known_row(n);
    }
}

#[test]
#[ignore = "slow: about a minute for n = 7 and a few for n = 8 (release build)"]
fn known_row_for_side_seven() {
    check_known_row(7);
}

#[test]
#[ignore = "slow: a few minutes (release build)"]
fn known_row_for_side_eight() {
    check_known_row(8);
}

#[test]
fn count_at_is_one_entry_of_the_distribution() {
    let hex = hexagon(4);
    let all = Count::new(&hex, 3).by_penalty(5).expect("counts");
    for p in 0..=5 {
        assert_eq!(&Count::new(&hex, 3).at(p).expect("count"), all.at(p).expect("in range"));
    }
}

/// The completion's labelling of each shape costs exactly the lowest degree
/// of the shape's transfer polynomial, and matches the remark of docs/PROBLEM.md, section 5:
/// paths complete for free, cycles for free when their length is a multiple
/// of 3 and at cost 1 otherwise.
#[test]
fn cheapest_labels_cost_the_lowest_degree_of_the_shape_polynomial() {
    use hexcert::counting::cheapest_labels;
    let shapes = (1..=14).map(Shape::Path).chain((3..=14).map(Shape::Cycle));
    for shape in shapes {
        let (cost, labels) = cheapest_labels(shape).expect("every shape has a labelling");
        let poly = shape_polynomial(6, shape, 4);
        let lowest = poly.iter().position(|c| *c != BigUint::from(0u8)).expect("a term within degree 4");
        assert_eq!(cost, lowest, "{shape:?}: labels {labels:?}");
        let remark = match shape {
            Shape::Path(_) => 0,
            Shape::Cycle(len) => usize::from(len % 3 != 0),
        };
        assert_eq!(cost, remark, "{shape:?}");
    }
}

/// Completing every optimal level-4 partial gives a valid full grid (plain
/// validator) costing the level-4 penalty plus its cycles' surcharges, and
/// the cheapest completion reaches the level-6 minimum of the sweep.
#[test]
fn completions_of_level_four_partials_are_valid_and_reach_the_optimum() {
    use hexcert::counting::{cheapest_completion, cheapest_labels, components, Count};
    for n in 3..=5 {
        let hex = hexagon(n);
        let (minimum4, _) = Count::new(&hex, 4).minimum_and_count().expect("counts");
        let mut best = usize::MAX;
        Count::new(&hex, 4)
            .for_each_partial(minimum4 + 1, |values, penalty| {
                let partial = Partial::new(n, 4, values.to_vec()).expect("values in range");
                let full = cheapest_completion(&hex, &partial).expect("completes");
                assert_eq!(full.truncate(4).expect("truncates").values(), values, "a refinement of the partial");
                let e = evaluate(&hex, &full);
                let surcharge: usize = components(&hex, values)
                    .expect("paths and cycles")
                    .into_iter()
                    .map(|shape| cheapest_labels(shape).expect("labelling").0)
                    .sum();
                assert!(e.is_valid(), "n={n}: completion invalid");
                assert_eq!(e.penalty, penalty + surcharge, "n={n}");
                best = best.min(e.penalty);
            })
            .expect("enumerates");
        assert_eq!(best, Count::new(&hex, 6).minimum().expect("minimum"), "n={n}");
    }
}

/// The sorted sweep on every core, the same sweep spilling to scratch files
/// under a tiny memory limit, and the hash-map reference give the same counts,
/// and each path is really taken: several shards per layer, runs spilled.
/// (n = 7 to level 3 was here too until 2026-11-28: 40 s of CI's CPU for
/// paths n = 5 and 6 already take.)
#[test]
fn sorted_spilled_and_hashed_sweeps_agree() {
    let spilling = Layers::Sorted { memory_limit: 64 << 10 };
    for (n, top) in [(5, 4), (6, 4)] {
        let hex = hexagon(n);
        for level in 1..=top {
            // One penalty above the minimum, so the counts are a distribution.
            let bound = Count::new(&hex, level).minimum().expect("minimum") + 1;
            let hashed = Count::new(&hex, level)
                .with_settings(CountSettings::from(Layers::Hashed))
                .sweep_stats(bound)
                .expect("hashed");
            let sorted = Count::new(&hex, level)
                .with_settings(CountSettings::from(Layers::default()))
                .sweep_stats(bound)
                .expect("sorted");
            let spilled = Count::new(&hex, level)
                .with_settings(CountSettings::from(spilling))
                .sweep_stats(bound)
                .expect("spilled");
            assert!(hashed.counts.iter().any(|c| *c > big(0)), "n={n} level={level}: nothing counted");
            assert_eq!(sorted.counts, hashed.counts, "n={n} level={level}: sorted");
            assert_eq!(spilled.counts, hashed.counts, "n={n} level={level}: spilled");
            assert_eq!((sorted.peak_keys, spilled.peak_keys), (hashed.peak_keys, hashed.peak_keys));
            assert!(sorted.shards > 1, "n={n} level={level}: one shard");
            assert_eq!(sorted.spilled_runs, 0, "n={n} level={level}: spilled within 16 GiB");
            assert!(spilled.spilled_runs > 0, "n={n} level={level}: nothing spilled");
        }
    }
}

/// The spilling sweep reproduces a whole table row (the minima found level by
/// level, each level pruned by its own table).
#[test]
fn spilled_row_matches_the_reference_row() {
    let hex = hexagon(6);
    let spilled = Count::new(&hex, 4)
        .with_settings(CountSettings::from(Layers::Sorted { memory_limit: 64 << 10 }))
        .row(0)
        .expect("spilled");
    let hashed = Count::new(&hex, 4).with_settings(CountSettings::from(Layers::Hashed)).row(0).expect("hashed");
    assert_eq!(row_key(&spilled), row_key(&hashed));
}

fn row_key(row: &[hexcert::counting::RowEntry]) -> Vec<(usize, BigUint)> {
    row.iter().map(|e| (e.minimum, e.count.clone())).collect()
}

/// The start bound changes what is built, never what is counted: starting
/// at, below or above the minima gives the same row, levels 1..6.
#[test]
fn the_start_bound_does_not_change_the_row() {
    for n in [4, 5] {
        let hex = hexagon(n);
        let from_zero = Count::new(&hex, 6).with_settings(CountSettings::default()).row(0).expect("row");
        let top = from_zero[3].minimum;
        for start in [top - 1, top, top + 2] {
            let settings = CountSettings { start, ..CountSettings::default() };
            let row = Count::new(&hex, 6).with_settings(settings.clone()).row(0).expect("row");
            assert_eq!(row_key(&row), row_key(&from_zero), "n={n} start {start}");
        }
        for level in [2, 4, 5] {
            let (minimum, count) = Count::new(&hex, level)
                .with_settings(CountSettings { start: top + 2, ..CountSettings::default() })
                .minimum_and_count()
                .expect("count");
            assert_eq!((minimum, count), row_key(&from_zero)[usize::from(level) - 1], "n={n} level {level}");
        }
    }
}

/// A row that lifts levels 5 and 6 from the level-3 partials finds the same
/// minima and counts as the one that multiplies chains over the level-4
/// partials, from any start bound (the lift starts at the level-4 minimum
/// and raises its bound itself).
#[test]
fn a_row_lifted_at_levels_5_and_6_is_the_chained_row() {
    for n in [4, 5, 6] {
        let hex = hexagon(n);
        let chained = Count::new(&hex, 6).with_settings(CountSettings::default()).row(0).expect("row");
        for start in [0, chained[5].minimum + 1] {
            let lifted = Count::new(&hex, 6)
                .with_settings(CountSettings {
                    upper: hexcert::counting::Upper::Lift,
                    start,
                    ..CountSettings::default()
                })
                .row(0)
                .expect("row");
            assert_eq!(row_key(&lifted), row_key(&chained), "n={n} start {start}");
        }
    }
}

/// A row counted up to two above each minimum gives, level by level, what
/// `count_by_penalty_with` gives at those penalties (its own tables, built
/// for that level and bound alone; levels 5 and 6 by the sweep at the level
/// itself, not chains), with the
/// chained and the lifted levels 5 and 6 and from start bounds below, at
/// and above the minima; the counts at the minima are the plain row's.
#[test]
fn a_row_above_the_minima_is_the_count_by_penalty_of_each_level() {
    use hexcert::counting::{Count, Upper};
    for n in [3, 4, 5] {
        let hex = hexagon(n);
        let plain = Count::new(&hex, 6).with_settings(CountSettings::default()).row(0).expect("row");
        let top = plain[5].minimum;
        let by_penalty: Vec<Vec<BigUint>> = plain
            .iter()
            .map(|e| {
                Count::new(&hex, e.level).with_method(Method::Frontier).by_penalty(e.minimum + 2).expect("count").counts
                    [e.minimum..]
                    .to_vec()
            })
            .collect();
        for (upper, start) in
            [(Upper::Chains, 0), (Upper::Lift, top), (Upper::Lift, top.saturating_sub(2)), (Upper::Chains, top + 1)]
        {
            let near = Count::new(&hex, 6)
                .with_settings(CountSettings { upper, start, ..CountSettings::default() })
                .row(2)
                .expect("row");
            assert_eq!(row_key(&near), row_key(&plain), "n={n} {upper:?} from {start}");
            for (entry, expected) in near.iter().zip(&by_penalty) {
                let counted: Vec<BigUint> = std::iter::once(entry.count.clone()).chain(entry.above.clone()).collect();
                assert_eq!(&counted, expected, "n={n} level {} {upper:?} from {start}", entry.level);
            }
        }
    }
}
/// A count stopped by its stop flag (what Ctrl-C raises) returns
/// `Interrupted` and leaves no file; a finished count leaves one complete
/// table per level, which a rerun loads (same row, files untouched).
#[test]
fn checkpoints_resume_and_a_stop_leaves_nothing_half_written() {
    let hex = hexagon(6);
    let dir = tempfile::tempdir().expect("temporary directory");
    let stopped = CountSettings { checkpoints: Some(dir.path().to_path_buf()), start: 13, ..CountSettings::default() };
    stopped.context.stop();
    let error = Count::new(&hex, 4).with_settings(stopped.clone()).row(0).expect_err("stopped");
    assert!(matches!(error, hexcert::error::HexError::Interrupted), "{error}");
    assert_eq!(std::fs::read_dir(dir.path()).expect("listed").count(), 0, "a stopped count wrote files");

    let settings = CountSettings { checkpoints: Some(dir.path().to_path_buf()), start: 13, ..CountSettings::default() };
    let first = Count::new(&hex, 4).with_settings(settings.clone()).row(0).expect("row");
    let mut files: Vec<_> = std::fs::read_dir(dir.path()).expect("listed").map(|e| e.expect("entry").path()).collect();
    files.sort();
    let names: Vec<String> = files.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(
        names,
        ["n6-level1-bound13.table", "n6-level2-bound13.table", "n6-level3-bound13.table", "n6-level4-bound13.table"]
    );
    let written: Vec<_> =
        files.iter().map(|p| std::fs::metadata(p).and_then(|m| m.modified()).expect("mtime")).collect();
    let again = Count::new(&hex, 4).with_settings(settings.clone()).row(0).expect("row from checkpoints");
    assert_eq!(row_key(&again), row_key(&first));
    assert_eq!(
        row_key(&first),
        row_key(&Count::new(&hex, 4).with_settings(CountSettings::default()).row(0).expect("row"))
    );
    let after: Vec<_> = files.iter().map(|p| std::fs::metadata(p).and_then(|m| m.modified()).expect("mtime")).collect();
    assert_eq!(written, after, "a rerun rewrote its checkpoints instead of loading them");
}
