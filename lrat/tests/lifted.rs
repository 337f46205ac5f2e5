//! The lifted check on a hand-made split formula: cube proofs read as
//! derivations of `-s_i` from T, T's shape checked, and tampering refused.
//!
//! F (ids 1..5) is satisfiable (x1 false, x2 false, x3 true) but each cube
//! formula is not: cube 0 is F + (x1), cube 1 is F + (¬x1) + (¬x3). The
//! cubes need not cover F's models: T is refuted exactly when every cube
//! formula is. Invariant: every refused proof or formula differs from an
//! accepted one (asserted in `both_cubes_and_conclude_refute_t`) by the one
//! change the test names.

use hexcert_lrat::{check, check_lifted, CheckError, Lifted};

const F: &str = "-1 2 0\n-1 3 0\n-2 -3 -1 0\n1 -2 0\n1 2 3 0\n";
/// T: F, then {¬s0, x1} (6), {¬s1, ¬x1} (7), {¬s1, ¬x3} (8), {s0, s1} (9);
/// s0 is variable 4, s1 variable 5.
const T: &str = "-4 1 0\n-5 -1 0\n-5 -3 0\n4 5 0\n";
const BASE: usize = 5;
const UNITS: [&[i32]; 2] = [&[1], &[-1, -3]];
/// x1 (6) gives x2 (1) and x3 (2), which clash in 3.
const PROOF_0: &str = "7 0 6 1 2 3 0\n";
/// ¬x1 (6) and ¬x3 (7) give ¬x2 (4), and 5 is false.
const PROOF_1: &str = "8 0 6 7 4 5 0\n";

fn split() -> Vec<u8> {
    format!("p cnf 5 9\n{F}{T}").into_bytes()
}

/// Cube `cube`'s own formula, for the plain checker.
fn cube_formula(cube: usize) -> Vec<u8> {
    let units: String = UNITS[cube].iter().map(|u| format!("{u} 0\n")).collect();
    format!("p cnf 3 {}\n{F}{units}", BASE + UNITS[cube].len()).into_bytes()
}

fn lifted() -> Lifted {
    Lifted::from_dimacs(&split(), BASE).unwrap()
}

#[test]
fn both_cubes_and_conclude_refute_t() {
    let mut lifted = lifted();
    assert_eq!((lifted.cubes(), lifted.selector(0), lifted.selector(1)), (2, Some(4), Some(5)));
    assert_eq!(lifted.units(1), Some(vec![-1, -3]));
    let zero = lifted.check_proof(0, UNITS[0], PROOF_0.as_bytes()).unwrap();
    assert_eq!((zero.selector, zero.unit_id, zero.empty_clause_id, zero.steps, zero.hints), (4, 10, 7, 1, 4));
    let one = lifted.check_proof(1, UNITS[1], PROOF_1.as_bytes()).unwrap();
    assert_eq!((one.selector, one.unit_id, one.empty_clause_id), (5, 11, 8));
    let summary = lifted.conclude().unwrap();
    assert_eq!((summary.original, summary.empty_clause_id), (9, 12));
    // The plain checker agrees on the cube formulas themselves.
    check(&cube_formula(0), PROOF_0.as_bytes()).unwrap();
    check(&cube_formula(1), PROOF_1.as_bytes()).unwrap();
}

#[test]
fn cubes_may_be_checked_in_any_order_and_singly() {
    let mut lifted = lifted();
    lifted.check_proof(1, UNITS[1], PROOF_1.as_bytes()).unwrap();
    lifted.check_proof(0, UNITS[0], PROOF_0.as_bytes()).unwrap();
    lifted.conclude().unwrap();
    let single = check_lifted(&split(), BASE, 1, UNITS[1], PROOF_1.as_bytes()).unwrap();
    assert_eq!((single.cube, single.selector, single.unit_id), (1, 5, 10));
}

#[test]
fn conclude_with_a_cube_missing_is_refused() {
    let mut lifted = lifted();
    lifted.check_proof(0, UNITS[0], PROOF_0.as_bytes()).unwrap();
    let err = lifted.conclude().unwrap_err();
    assert!(matches!(err, CheckError::SelectorsMissing { missing: 1, cubes: 2, first: 1 }), "{err}");
    assert!(err.to_string().contains("1 of 2 cubes have no derived selector unit"), "{err}");
    // A refused cube proof derives nothing either.
    let err = lifted.check_proof(1, UNITS[1], "8 0 6 7 4 0\n".as_bytes()).unwrap_err();
    assert!(matches!(err, CheckError::MissingHint { id: 8, .. }), "{err}");
    assert!(!lifted.is_derived(1));
    assert!(matches!(lifted.conclude(), Err(CheckError::SelectorsMissing { first: 1, .. })));
}

#[test]
fn a_cube_proof_against_the_wrong_selector_is_refused() {
    let mut lifted = lifted();
    // Cube 1's proof for cube 0: its hint 7 (unit ¬x3) names no clause of cube 0.
    let err = lifted.check_proof(0, UNITS[0], PROOF_1.as_bytes()).unwrap_err();
    assert!(matches!(err, CheckError::UnknownHint { step: 1, id: 8, hint: 7 }), "{err}");
    // Cube 0's proof for cube 1: id 7 is cube 1's second unit.
    let err = lifted.check_proof(1, UNITS[1], PROOF_0.as_bytes()).unwrap_err();
    assert!(matches!(err, CheckError::IdNotIncreasing { step: 1, id: 7, previous: 7 }), "{err}");
    // The units must be T's for that cube, in order.
    let err = lifted.check_proof(1, UNITS[0], PROOF_0.as_bytes()).unwrap_err();
    assert!(matches!(err, CheckError::UnitCount { cube: 1, split: 2, given: 1 }), "{err}");
    let err = lifted.check_proof(1, &[-3, -1], PROOF_1.as_bytes()).unwrap_err();
    assert!(matches!(err, CheckError::UnitMismatch { cube: 1, unit: 1, id: 7, given: -3, .. }), "{err}");
    let err = lifted.check_proof(0, &[-4], PROOF_0.as_bytes()).unwrap_err();
    assert!(matches!(err, CheckError::UnitMismatch { cube: 0, unit: 1, id: 6, given: -4, .. }), "{err}");
    let err = lifted.check_proof(2, &[], PROOF_0.as_bytes()).unwrap_err();
    assert!(matches!(err, CheckError::NoSuchCube { cube: 2, cubes: 2 }), "{err}");
    assert!(!lifted.is_derived(0) && !lifted.is_derived(1));
}

#[test]
fn an_altered_split_formula_is_refused() {
    let altered = |from: &str, to: &str| {
        let t = T.replace(from, to);
        let count = F.lines().count() + t.lines().count();
        format!("p cnf 6 {count}\n{F}{t}").into_bytes()
    };
    // Cube 1's first selector clause now says x1: the cube formula's unit is ¬x1.
    let mut lifted = Lifted::from_dimacs(&altered("-5 -1 0", "-5 1 0"), BASE).unwrap();
    let err = lifted.check_proof(1, UNITS[1], PROOF_1.as_bytes()).unwrap_err();
    assert!(matches!(err, CheckError::UnitMismatch { cube: 1, unit: 1, id: 7, given: -1, .. }), "{err}");
    for (from, to, says) in [
        ("-5 -1 0", "-5 -1 2 0", "is not binary"),
        ("-5 -1 0", "5 -1 0", "unnegated"),
        ("-5 -1 0", "-5 -4 0", "exactly one selector literal"),
        ("-4 1 0\n-5 -1 0", "-5 -1 0\n-4 1 0", "must be consecutive"),
        // The final clause is no longer last: T's last clause names x1 a selector.
        ("-4 1 0\n-5 -1 0\n-5 -3 0\n4 5 0\n", "-4 1 0\n4 5 0\n-5 -1 0\n", "base clause 1 mentions selector"),
        ("4 5 0", "4 -4 0", "both polarities of variable 4"),
        ("4 5 0", "0", "is empty"),
    ] {
        let err = Lifted::from_dimacs(&altered(from, to), BASE).err().expect(to);
        assert!(matches!(&err, CheckError::SplitShape { reason } if reason.contains(says)), "{to}: {err}");
    }
    // A base that swallows a selector clause, or the whole formula.
    let err = Lifted::from_dimacs(&split(), BASE + 1).err().unwrap();
    assert!(err.to_string().contains("base clause 6 mentions selector literal -4"), "{err}");
    let err = Lifted::from_dimacs(&split(), 9).err().unwrap();
    assert!(err.to_string().contains("no final clause"), "{err}");
}

#[test]
fn a_cube_deleting_originals_and_units_leaves_them_for_the_next() {
    let mut lifted = lifted();
    // Cube 0 deletes F's clauses 4 and 5 (which cube 1 needs), its unit 6,
    // and its lemma 7; then derives the empty clause by another road.
    let proof_0 = "7 2 0 6 1 0\n7 d 1 4 5 0\n8 0 6 7 2 3 0\n8 d 6 7 0\n";
    check(&cube_formula(0), proof_0.as_bytes()).unwrap();
    let zero = lifted.check_proof(0, UNITS[0], proof_0.as_bytes()).unwrap();
    assert_eq!((zero.empty_clause_id, zero.deleted, zero.steps), (8, 5, 4));
    lifted.check_proof(1, UNITS[1], PROOF_1.as_bytes()).unwrap();
    lifted.conclude().unwrap();
}

#[test]
fn deleting_then_hinting_an_original_is_still_refused() {
    let mut lifted = lifted();
    for (proof, step, hint) in [("7 d 1 0\n7 0 6 1 2 3 0\n", 2, 1), ("7 d 6 0\n7 0 6 1 2 3 0\n", 2, 6)] {
        let plain = check(&cube_formula(0), proof.as_bytes()).unwrap_err();
        let err = lifted.check_proof(0, UNITS[0], proof.as_bytes()).unwrap_err();
        assert!(matches!(err, CheckError::DeletedHint { step: s, id: 7, hint: h } if s == step && h == hint), "{err}");
        assert_eq!(err.to_string(), plain.to_string());
    }
    // A deleted clause named after the conflict is ignored, as by the plain checker.
    let proof = "7 d 5 0\n7 0 6 1 2 3 5 0\n";
    check(&cube_formula(0), proof.as_bytes()).unwrap();
    lifted.check_proof(0, UNITS[0], proof.as_bytes()).unwrap();
}

#[test]
fn deleting_the_empty_clause_keeps_the_unit_in_t() {
    let mut lifted = lifted();
    let proof = "7 0 6 1 2 3 0\n7 d 7 0\n";
    lifted.check_proof(0, UNITS[0], proof.as_bytes()).unwrap();
    let err = lifted.check_proof(0, UNITS[0], PROOF_0.as_bytes()).unwrap_err();
    assert!(matches!(err, CheckError::CubeAgain { cube: 0 }), "{err}");
    lifted.check_proof(1, UNITS[1], PROOF_1.as_bytes()).unwrap();
    lifted.conclude().unwrap();
    // Within the cube's proof the empty clause is gone, as for the plain checker.
    let proof = "7 0 6 1 2 3 0\n7 d 7 0\n8 1 0 7 0\n";
    let plain = check(&cube_formula(0), proof.as_bytes()).unwrap_err();
    let err = check_lifted(&split(), BASE, 0, UNITS[0], proof.as_bytes()).unwrap_err();
    assert!(matches!(err, CheckError::DeletedHint { step: 3, id: 8, hint: 7 }), "{err}");
    assert_eq!(err.to_string(), plain.to_string());
}

#[test]
fn original_reports_are_confirmed_against_the_cube_formula() {
    let mut lifted = lifted();
    let mut cube = lifted.cube(1, UNITS[1]).unwrap();
    cube.confirm_original(3, &[-1, -3, -2]).unwrap();
    cube.confirm_original(6, &[-1]).unwrap();
    cube.confirm_original(7, &[-3, -3]).unwrap();
    for (id, lits) in [(6, vec![1]), (6, vec![-5, -1]), (7, vec![]), (8, vec![-3]), (0, vec![]), (3, vec![-1])] {
        let err = cube.confirm_original(id, &lits).unwrap_err();
        assert!(matches!(err, CheckError::OriginalMismatch { id: i, .. } if i == id), "{id} {lits:?}: {err}");
    }
    // Deleted in this cube's proof: no longer an original it may report.
    cube.delete_all(&[3, 6]).unwrap();
    assert!(cube.confirm_original(3, &[-1, -3, -2]).is_err());
    assert!(cube.confirm_original(6, &[-1]).is_err());
    let err = cube.delete(6).unwrap_err();
    assert!(matches!(err, CheckError::DeleteTwice { step: 2, id: 6 }), "{err}");
    drop(cube);
    // The next cube's formula has them all.
    let mut cube = lifted.cube(0, UNITS[0]).unwrap();
    cube.confirm_original(3, &[-1, -3, -2]).unwrap();
    cube.add(7, &[], &[6, 1, 2, 3]).unwrap();
    assert_eq!(cube.finish().unwrap().unit_id, 10);
}

#[test]
fn a_lemma_naming_a_selector_is_refused() {
    let err = check_lifted(&split(), BASE, 0, UNITS[0], "7 5 2 0 6 1 0\n".as_bytes()).unwrap_err();
    assert!(matches!(err, CheckError::SelectorInProof { step: 1, id: 7, lit: 5 }), "{err}");
    assert_eq!(err.step(), Some(1));
    let err = check_lifted(&split(), BASE, 0, UNITS[0], "7 -4 0 6 0\n".as_bytes()).unwrap_err();
    assert!(matches!(err, CheckError::SelectorInProof { lit: -4, .. }), "{err}");
}

#[test]
fn a_proof_without_the_empty_clause_derives_nothing() {
    let err = check_lifted(&split(), BASE, 0, UNITS[0], "7 2 0 6 1 0\n".as_bytes()).unwrap_err();
    assert!(matches!(err, CheckError::NoEmptyClause { steps: 1 }), "{err}");
}
