//! The SAT path against independent ones: brute force over every assignment
//! of the n=2 hexagon, the validator on every model, the encoder's semantics
//! on random partials, and the minimum-penalty table as a snapshot.

use crate::common;

use hexcert::counting::Count;
use hexcert::encoding::{Cardinality, EncodeOptions, LevelEncoding};
use hexcert::formula::Cnf;
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::search::{enumerate, minimize_through, solve_at_bound, PlainOracle};
use hexcert::solving::{Answer, Cadical, SatSolver};
use hexcert::validation::evaluate;
use proptest::prelude::*;

const CARDINALITIES: [Cardinality; 3] =
    [Cardinality::SequentialCounter, Cardinality::Totalizer, Cardinality::WedgeCounter];

fn with(cardinality: Cardinality, max_penalty: Option<usize>) -> EncodeOptions {
    EncodeOptions { cardinality, ..EncodeOptions::bounded(max_penalty) }
}

/// Every level-k assignment of the side-n hexagon: (k+1)^cells of them.
fn all_partials(n: usize, level: u8) -> impl Iterator<Item = Partial> {
    let cells = hexcert::geometry::cell_count(n);
    let base = u64::from(level) + 1;
    (0..base.pow(cells as u32)).map(move |mut code| {
        let values = (0..cells)
            .map(|_| {
                let v = (code % base) as u8 + 1;
                code /= base;
                v
            })
            .collect();
        Partial::new(n, level, values).unwrap()
    })
}

/// (minimum penalty, number of valid partials attaining it) by brute force.
fn brute_force_minimum(n: usize, level: u8) -> (usize, usize) {
    let hex = Hexagon::new(n).unwrap();
    let mut best = (usize::MAX, 0);
    for p in all_partials(n, level) {
        let e = evaluate(&hex, &p);
        if !e.is_valid() {
            continue;
        }
        if e.penalty < best.0 {
            best = (e.penalty, 0);
        }
        if e.penalty == best.0 {
            best.1 += 1;
        }
    }
    best
}

#[test]
fn n2_minimum_and_count_agree_with_brute_force_at_every_level() {
    let hex = Hexagon::new(2).unwrap();
    for cardinality in CARDINALITIES {
        let minima =
            minimize_through(&hex, 6, &mut PlainOracle::<Cadical>::new(with(cardinality, None)), &mut |_| {}).unwrap();
        for level in 1..=6u8 {
            let (min, count) = brute_force_minimum(2, level);
            assert_eq!(minima[level as usize - 1].penalty, min, "level {level}");
            let found = enumerate::<Cadical>(&hex, level, with(cardinality, Some(min)), 100_000).unwrap();
            let at_min = found.iter().filter(|f| f.evaluation.penalty == min).count();
            assert_eq!(at_min, count, "level {level} {cardinality:?}");
            assert_eq!(found.len(), count, "nothing below the minimum");
        }
    }
}

/// The whole n=2 level-2 space: for every bound B, the SAT path finds exactly
/// the valid partials of penalty <= B.
#[test]
fn n2_enumeration_matches_brute_force_for_every_bound() {
    let hex = Hexagon::new(2).unwrap();
    let evaluated: Vec<(Partial, usize)> = all_partials(2, 2)
        .map(|p| (evaluate(&hex, &p), p))
        .filter(|(e, _)| e.is_valid())
        .map(|(e, p)| (p, e.penalty))
        .collect();
    for bound in 0..=8 {
        let mut expected: Vec<Vec<u8>> =
            evaluated.iter().filter(|(_, pen)| *pen <= bound).map(|(p, _)| p.values().to_vec()).collect();
        let mut got: Vec<Vec<u8>> = enumerate::<Cadical>(&hex, 2, EncodeOptions::bounded(Some(bound)), 100_000)
            .unwrap()
            .into_iter()
            .map(|f| f.partial.values().to_vec())
            .collect();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "bound {bound}");
    }
}

/// Solves the level formula with every cell fixed to the values of `partial`.
fn formula_accepts(partial: &Partial, bound: usize, cardinality: Cardinality) -> bool {
    let hex = Hexagon::new(partial.side()).unwrap();
    let encoding =
        LevelEncoding::new(&hex, partial.level(), EncodeOptions { cardinality, ..EncodeOptions::bounded(Some(bound)) });
    let mut fixed = Cnf::new();
    fixed.reserve_vars_up_to(encoding.cnf.num_vars());
    for lit in encoding.cell_literals(partial) {
        fixed.add_clause(&[lit]);
    }
    let mut solver = Cadical::new();
    solver.add_cnf(&encoding.cnf).unwrap();
    solver.add_cnf(&fixed).unwrap();
    matches!(solver.solve().unwrap(), Answer::Sat(_))
}

fn any_partial() -> impl Strategy<Value = Partial> {
    (2usize..=3, 1u8..=6).prop_flat_map(|(n, level)| {
        // Bias towards low values so that valid partials are not rare.
        let value = prop_oneof![3 => Just(1u8), 2 => Just(2u8), 2 => 1u8..=level + 1];
        proptest::collection::vec(value, hexcert::geometry::cell_count(n)).prop_map(move |values| {
            Partial::new(n, level, values.into_iter().map(|v| v.min(level + 1)).collect()).unwrap()
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The encoder means what the validator means: a fixed partial satisfies
    /// the formula with bound B exactly when it is valid with penalty <= B.
    #[test]
    fn encoder_and_validator_agree_on_every_partial(partial in any_partial(), pick in 0usize..3) {
        let hex = Hexagon::new(partial.side()).unwrap();
        let e = evaluate(&hex, &partial);
        let cardinality = CARDINALITIES[pick];
        if e.is_valid() {
            prop_assert!(formula_accepts(&partial, e.penalty, cardinality));
            if e.penalty > 0 {
                prop_assert!(!formula_accepts(&partial, e.penalty - 1, cardinality));
            }
        } else {
            prop_assert!(!formula_accepts(&partial, 100, cardinality));
        }
    }

    /// Every model's decoded partial is valid, within the bound, and its
    /// penalty equals the validator's at the optimum.
    #[test]
    fn models_decode_to_valid_partials_within_the_bound(n in 2usize..=4, level in 1u8..=6, bound in 0usize..=10) {
        let hex = Hexagon::new(n).unwrap();
        if let Some(found) = solve_at_bound::<Cadical>(&hex, level, EncodeOptions::bounded(Some(bound))).unwrap() {
            prop_assert!(found.evaluation.is_valid());
            prop_assert!(found.evaluation.penalty <= bound);
            let again = evaluate(&hex, &found.partial);
            prop_assert_eq!(again.penalty, found.evaluation.penalty);
        }
    }
}

/// Minimum penalty at each level for n = 3..6, recomputed by SAT, checked
/// against the frontier sweep (no SAT code), and compared with the committed
/// snapshot (which agrees with the table of docs/PROBLEM.md, section 6).
#[test]
fn minimum_penalty_table_n3_to_n6() {
    let mut table = String::from("| n | L1 | L2 | L3 | L4 | L5 | L6 |\n|---|---|---|---|---|---|---|\n");
    for n in 3..=6 {
        let hex = Hexagon::new(n).unwrap();
        let minima =
            minimize_through(&hex, 6, &mut PlainOracle::<Cadical>::new(EncodeOptions::bounded(None)), &mut |_| {})
                .unwrap();
        let row: Vec<String> = minima.iter().map(|m| m.penalty.to_string()).collect();
        // A second, independent path: the frontier sweep of the counting module.
        let swept: Vec<usize> = Count::new(&hex, 6).row(0).unwrap().iter().map(|e| e.minimum).collect();
        let solved: Vec<usize> = minima.iter().map(|m| m.penalty).collect();
        assert_eq!(solved, swept, "n={n}: SAT minima and frontier-sweep minima differ");
        table.push_str(&format!("| {n} | {} |\n", row.join(" | ")));
        for m in &minima {
            assert!(m.witness.evaluation.is_valid());
            assert_eq!(m.witness.evaluation.penalty, m.penalty);
        }
    }
    insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("minimum_penalties_n3_to_n6", table);
    });
}

#[test]
fn published_grids_are_models_of_their_own_bound() {
    // The encoder accepts the published optima (tests/data/published) at their penalty, and not below.
    for n in 3..=5 {
        let full = common::published(n);
        let hex = Hexagon::new(n).unwrap();
        let penalty = evaluate(&hex, &full).penalty;
        assert!(formula_accepts(&full, penalty, Cardinality::SequentialCounter));
        assert!(!formula_accepts(&full, penalty - 1, Cardinality::Totalizer));
    }
}

/// A backend that answers every call with a model it made up: it sets the
/// first `flips` variables of CaDiCaL's true model to the opposite value.
#[derive(Default)]
struct Liar<const FLIPS: usize> {
    inner: Cadical,
}

impl<const FLIPS: usize> SatSolver for Liar<FLIPS> {
    fn add_cnf(&mut self, cnf: &Cnf) -> Result<(), hexcert::HexError> {
        self.inner.add_cnf(cnf)
    }

    fn solve(&mut self) -> Result<Answer, hexcert::HexError> {
        Ok(match self.inner.solve()? {
            Answer::Sat(mut model) => {
                for value in model.iter_mut().skip(1).take(FLIPS) {
                    *value = !*value;
                }
                Answer::Sat(model)
            }
            Answer::Unsat => Answer::Unsat,
        })
    }
}

/// The searches see the solver only through its trait and believe none of
/// its models: a backend whose models are wrong makes every search fail
/// with an error (the model does not satisfy the formula), never return a
/// partial. The honest backend, through the same generic calls, succeeds.
#[test]
fn the_searches_reject_the_models_of_a_lying_backend() {
    let hex = Hexagon::new(3).unwrap();
    let options = EncodeOptions::bounded(None);
    assert!(solve_at_bound::<Cadical>(&hex, 2, options).unwrap().is_some());
    assert!(solve_at_bound::<Liar<0>>(&hex, 2, options).unwrap().is_some(), "flipping nothing is honest");
    for error in [
        solve_at_bound::<Liar<1>>(&hex, 2, options).map(|_| ()),
        solve_at_bound::<Liar<40>>(&hex, 2, options).map(|_| ()),
        enumerate::<Liar<40>>(&hex, 1, options, 100).map(|_| ()),
        minimize_through(&hex, 3, &mut PlainOracle::<Liar<40>>::new(options), &mut |_| {}).map(|_| ()),
    ] {
        let message = error.expect_err("a made-up model was accepted").to_string();
        assert!(message.contains("does not satisfy the formula"), "{message}");
    }
}
