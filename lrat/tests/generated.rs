//! Larger proofs made by the test generator (pigeonhole, random 3-SAT), in
//! both formats, and tampered copies of them.
//!
//! Invariant: the generator's proofs are valid by construction, so an
//! untampered proof must verify and text and binary must agree.

mod common;

use common::{dimacs, dpll_proof, last_add, pigeonhole, to_binary, to_text, unsat_3sat};
use hexcert_lrat::{check, CheckError, Checker, Step, Summary};

fn verify_both(clauses: &[Vec<i32>], steps: &[Step]) -> Summary {
    let formula = dimacs(clauses);
    let text = check(&formula, &to_text(steps)[..]).unwrap();
    let binary = check(&formula, &to_binary(steps)[..]).unwrap();
    assert_eq!(text, binary);
    assert_eq!(text.original, clauses.len() as u64);
    text
}

#[test]
fn pigeonhole_3_into_2_is_verified() {
    let php = pigeonhole(3, 2);
    let steps = dpll_proof(&php).unwrap();
    verify_both(&php, &steps);
}

#[test]
fn pigeonhole_5_into_4_is_verified() {
    let php = pigeonhole(5, 4);
    let steps = dpll_proof(&php).unwrap();
    let summary = verify_both(&php, &steps);
    assert!(summary.added > 100, "{summary:?}");
}

#[test]
fn random_3sat_50_vars_is_verified() {
    let (formula, steps) = unsat_3sat(50, 300, 1);
    let summary = verify_both(&formula, &steps);
    assert_eq!(summary.deleted, 2 * (summary.added - summary.added.div_ceil(2)));
}

#[test]
fn dropping_the_conflict_hint_is_a_missing_hint_at_that_step() {
    let php = pigeonhole(4, 3);
    let mut steps = dpll_proof(&php).unwrap();
    let target = steps.len() / 2;
    let ordinal = match &mut steps[target..].iter_mut().enumerate().find(|(_, s)| matches!(s, Step::Add { .. })) {
        Some((offset, Step::Add { hints, .. })) => {
            hints.pop();
            target + *offset + 1
        }
        _ => unreachable!(),
    };
    let formula = dimacs(&php);
    for proof in [to_text(&steps), to_binary(&steps)] {
        let err = check(&formula, &proof[..]).unwrap_err();
        assert!(matches!(err, CheckError::MissingHint { step, .. } if step == ordinal as u64), "{err}");
    }
}

#[test]
fn proof_checked_against_another_formula_fails() {
    let php = pigeonhole(4, 3);
    let steps = dpll_proof(&php).unwrap();
    // Same shape, one clause weakened by an extra literal: no longer UNSAT
    // by the same chains.
    let mut other = php.clone();
    other[0].push(-1);
    let mut other_text = dimacs(&other);
    assert!(check(&other_text, &to_text(&steps)[..]).is_err());
    other_text = dimacs(&pigeonhole(4, 4));
    assert!(check(&other_text, &to_binary(&steps)[..]).is_err());
}

#[test]
fn flipping_any_literal_of_the_final_chain_fails() {
    let php = pigeonhole(3, 2);
    let steps = dpll_proof(&php).unwrap();
    let formula = dimacs(&php);
    // Every derived clause with a literal flipped: the checker must reject
    // the proof somewhere (the flip changes what later hints see).
    let mut rejected = 0;
    let mut tried = 0;
    for index in 0..steps.len() {
        let Step::Add { lits, .. } = &steps[index] else { continue };
        for position in 0..lits.len() {
            let mut tampered = steps.clone();
            if let Step::Add { lits, .. } = &mut tampered[index] {
                lits[position] = -lits[position];
            }
            tried += 1;
            rejected += check(&formula, &to_binary(&tampered)[..]).is_err() as usize;
        }
    }
    assert!(tried > 0);
    assert_eq!(rejected, tried);
}

#[test]
fn last_add_is_the_empty_clause() {
    let php = pigeonhole(3, 2);
    let steps = dpll_proof(&php).unwrap();
    let summary = verify_both(&php, &steps);
    let Step::Add { id, lits, .. } = &steps[last_add(&steps) - 1] else { unreachable!() };
    assert!(lits.is_empty());
    assert_eq!(summary.empty_clause_id, *id);
}

#[test]
fn compaction_keeps_live_clauses_intact() {
    let mut checker = Checker::from_dimacs(common::FOUR).unwrap();
    // Tautologies need no hints: a cheap way to fill and empty the arena.
    let mut id = 5;
    for round in 0..50 {
        let first = id;
        for _ in 0..200 {
            let lits: Vec<i32> = (1..=20).chain([-1]).collect();
            checker.add(id, &lits, &[]).unwrap();
            id += 1;
        }
        checker.delete_all(&(first..id).collect::<Vec<_>>()).unwrap();
        assert!(checker.arena_len() < 200 * 21, "round {round}: arena {}", checker.arena_len());
    }
    checker.add(id, &[1], &[1, 2]).unwrap();
    checker.add(id + 1, &[], &[id as i64, 3, 4]).unwrap();
    assert!(checker.finish().is_ok());
}

#[test]
fn implication_chains_are_verified() {
    let (clauses, steps) = common::implication_chain(500, 2000, 30, 7);
    let summary = verify_both(&clauses, &steps);
    assert_eq!(summary.added, 2001);
    assert_eq!(summary.hints, 2000 * 30 + 501);
}
