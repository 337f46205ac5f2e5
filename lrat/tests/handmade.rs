//! Hand-made formulas and proofs, and tampered copies that must be rejected
//! with the right error variant naming the right step.
//!
//! Invariant: every tampered proof differs from a proof the checker accepts
//! (asserted first) by the one change the test names.

mod common;

use common::{FOUR, FOUR_PROOF};
use hexcert_lrat::{check, CheckError, Checker, Position, Summary};

fn check_text(formula: &[u8], proof: &str) -> Result<Summary, CheckError> {
    check(formula, proof.as_bytes())
}

/// Asserts that `err` names `step` in both its field and its message.
fn assert_step(err: &CheckError, step: u64) {
    assert_eq!(err.step(), Some(step), "{err}");
    assert!(err.to_string().starts_with(&format!("LRAT step {step}")), "{err}");
}

#[test]
fn four_clause_proof_is_verified() {
    let summary = check_text(FOUR, FOUR_PROOF).unwrap();
    assert_eq!(summary, Summary { original: 4, appended: 0, added: 2, deleted: 2, empty_clause_id: 6, hints: 5 });
}

#[test]
fn four_clause_proof_by_hand_in_binary_is_verified() {
    // 'a' 2*5 | 2*1 0 | 2*1 2*2 0, 'd' 2*1 2*2 0, 'a' 2*6 0 | 2*5 2*3 2*4 0
    let proof = [b'a', 10, 2, 0, 2, 4, 0, b'd', 2, 4, 0, b'a', 12, 0, 10, 6, 8, 0];
    assert_eq!(check(FOUR, &proof[..]).unwrap(), check_text(FOUR, FOUR_PROOF).unwrap());
}

#[test]
fn flipped_literal_in_derived_clause_is_rejected() {
    let err = check_text(FOUR, "5 -1 0 1 2 0\n6 0 5 3 4 0\n").unwrap_err();
    assert!(matches!(err, CheckError::HintSatisfied { id: 5, hint: 1, .. }), "{err}");
    assert_step(&err, 1);
}

#[test]
fn wrong_hint_is_rejected_as_not_unit() {
    let err = check_text(FOUR, "5 1 0 1 2 0\n6 0 3 4 0\n").unwrap_err();
    assert!(matches!(err, CheckError::HintNotUnit { id: 6, hint: 3, unassigned: 2, .. }), "{err}");
    assert_step(&err, 2);
    assert!(err.to_string().contains("hint 3 is not unit (2 literals unassigned)"), "{err}");
}

#[test]
fn hint_to_unknown_clause_is_rejected() {
    let err = check_text(FOUR, "5 1 0 1 2 0\n6 0 5 3 99 0\n").unwrap_err();
    assert!(matches!(err, CheckError::UnknownHint { id: 6, hint: 99, .. }), "{err}");
    assert_step(&err, 2);
}

#[test]
fn missing_hint_is_rejected() {
    let err = check_text(FOUR, "5 1 0 1 0\n").unwrap_err();
    assert!(matches!(err, CheckError::MissingHint { id: 5, .. }), "{err}");
    assert_step(&err, 1);
}

#[test]
fn hint_to_deleted_original_is_rejected() {
    let err = check_text(FOUR, "5 1 0 1 2 0\n5 d 3 0\n6 0 5 3 4 0\n").unwrap_err();
    assert!(matches!(err, CheckError::DeletedHint { id: 6, hint: 3, .. }), "{err}");
    assert_step(&err, 3);
}

#[test]
fn using_a_derived_clause_after_its_deletion_is_rejected() {
    let err = check_text(FOUR, "5 1 0 1 2 0\n5 d 5 0\n6 0 5 3 4 0\n").unwrap_err();
    assert!(matches!(err, CheckError::DeletedHint { id: 6, hint: 5, .. }), "{err}");
    assert_step(&err, 3);
}

#[test]
fn empty_clause_without_hints_is_rejected() {
    let err = check_text(FOUR, "5 0 0\n").unwrap_err();
    assert!(matches!(err, CheckError::MissingHint { id: 5, .. }), "{err}");
    assert_step(&err, 1);
}

#[test]
fn rat_hint_is_rejected() {
    let err = check_text(FOUR, "5 1 0 1 -2 0\n").unwrap_err();
    assert!(matches!(err, CheckError::RatUnsupported { id: 5, hint: -2, .. }), "{err}");
    assert!(err.to_string().contains("RAT steps are not supported"), "{err}");
    assert_step(&err, 1);
}

#[test]
fn proof_without_empty_clause_is_rejected_by_finish() {
    let err = check_text(FOUR, "5 1 0 1 2 0\n5 d 1 2 0\n").unwrap_err();
    assert!(matches!(err, CheckError::NoEmptyClause { steps: 2 }), "{err}");
    let err = check_text(FOUR, "").unwrap_err();
    assert!(matches!(err, CheckError::NoEmptyClause { steps: 0 }), "{err}");
}

#[test]
fn proof_of_another_formula_is_rejected() {
    // The fourth clause becomes (¬a ∨ b), a duplicate: the formula is SAT.
    let other = b"p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 2 0\n";
    let err = check_text(other, FOUR_PROOF).unwrap_err();
    // Hint 4 is now (¬a ∨ b) with b already true: it adds nothing, and the
    // chain ends without a conflict.
    assert!(matches!(err, CheckError::MissingHint { id: 6, .. }), "{err}");
    assert_step(&err, 3);
}

#[test]
fn a_hint_whose_one_open_literal_is_already_true_adds_nothing() {
    // The second naming of hint 3 (¬a ∨ b), with a and b already true, is
    // redundant, as CaDiCaL's chains sometimes are; the chain goes on.
    let verified = check_text(FOUR, "5 1 0 1 2 0\n6 0 5 3 3 4 0\n");
    assert!(verified.is_ok(), "{verified:?}");
    // A true literal beside an open one is still not unit.
    let err = check_text(FOUR, "5 1 0 1 2 0\n6 0 5 1 3 4 0\n").unwrap_err();
    assert!(matches!(err, CheckError::HintSatisfied { id: 6, hint: 1, .. }), "{err}");
    assert_step(&err, 2);
}

#[test]
fn confirm_original_catches_another_formula() {
    let mut checker = Checker::from_dimacs(FOUR).unwrap();
    checker.confirm_original(2, &[-2, 1]).unwrap();
    checker.confirm_original(2, &[1, -2, 1]).unwrap();
    for (id, lits) in [(2, vec![1, 2]), (2, vec![1]), (2, vec![1, -2, 3]), (5, vec![1, 2]), (0, vec![])] {
        let err = checker.confirm_original(id, &lits).unwrap_err();
        assert!(matches!(err, CheckError::OriginalMismatch { id: i, .. } if i == id), "{err}");
        assert!(err.to_string().starts_with(&format!("original clause {id}:")), "{err}");
    }
    checker.delete(2).unwrap();
    assert!(checker.confirm_original(2, &[1, -2]).is_err());
}

#[test]
fn reused_or_decreasing_id_is_rejected() {
    let err = check_text(FOUR, "4 1 0 1 2 0\n").unwrap_err();
    assert!(matches!(err, CheckError::IdNotIncreasing { id: 4, previous: 4, .. }), "{err}");
    let err = check_text(FOUR, "5 1 0 1 2 0\n5 1 0 1 2 0\n").unwrap_err();
    assert!(matches!(err, CheckError::IdNotIncreasing { id: 5, previous: 5, .. }), "{err}");
    assert_step(&err, 2);
}

#[test]
fn deleting_unknown_or_deleted_ids_is_rejected() {
    let err = check_text(FOUR, "5 1 0 1 2 0\n5 d 1 1 0\n").unwrap_err();
    assert!(matches!(err, CheckError::DeleteTwice { id: 1, .. }), "{err}");
    assert_step(&err, 2);
    let err = check_text(FOUR, "4 d 7 0\n").unwrap_err();
    assert!(matches!(err, CheckError::DeleteUnknown { id: 7, .. }), "{err}");
    assert_step(&err, 1);
}

#[test]
fn truncated_text_is_rejected() {
    let err = check_text(FOUR, "5 1 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4").unwrap_err();
    assert!(matches!(err, CheckError::Truncated { step: 3, at: Position::Line(3) }), "{err}");
    // A line cut short in the middle of the file.
    let err = check_text(FOUR, "5 1 0 1\n5 d 1 2 0\n").unwrap_err();
    assert!(matches!(err, CheckError::Truncated { step: 1, at: Position::Line(1) }), "{err}");
    assert_step(&err, 1);
}

#[test]
fn truncated_binary_is_rejected_at_every_cut() {
    let proof = [b'a', 10, 2, 0, 2, 4, 0, b'd', 2, 4, 0, b'a', 12, 0, 10, 6, 8, 0];
    let step_ends = [7, 11, 18];
    for cut in 1..proof.len() {
        if step_ends.contains(&cut) {
            continue;
        }
        let step = 1 + step_ends.iter().filter(|&&end| end < cut).count() as u64;
        let err = check(FOUR, &proof[..cut]).unwrap_err();
        assert!(
            matches!(err, CheckError::Truncated { at: Position::Byte(at), .. } if at == cut as u64),
            "cut {cut}: {err}"
        );
        assert_step(&err, step);
    }
}

#[test]
fn syntax_errors_name_step_and_place() {
    let err = check_text(FOUR, "5 1 0 1 2 0\n6 x 0 5 3 4 0\n").unwrap_err();
    assert!(matches!(err, CheckError::Syntax { step: 2, at: Position::Line(2), .. }), "{err}");
    let err = check_text(FOUR, "5 1 0 1 2 0 6 0 5 3 4 0\n").unwrap_err();
    assert!(matches!(err, CheckError::Syntax { step: 1, .. }), "{err}");
    let err = check(FOUR, &[b'a', 10, 2, 0, 2, 4, 0, b'x'][..]).unwrap_err();
    assert!(matches!(err, CheckError::Syntax { step: 2, at: Position::Byte(7), .. }), "{err}");
}

#[test]
fn tautology_is_accepted_without_hints_and_steps_continue_after_refutation() {
    let proof = format!("{FOUR_PROOF}7 1 -1 2 0 0\n8 0 1 0\n");
    let err = check_text(FOUR, &proof).unwrap_err();
    // Steps after the empty clause are still checked: 8 uses deleted clause 1.
    assert!(matches!(err, CheckError::DeletedHint { id: 8, hint: 1, .. }), "{err}");
    assert_step(&err, 5);
}

#[test]
fn hints_after_the_conflict_are_ignored() {
    let summary = check_text(FOUR, "5 1 0 1 2 3 0\n6 0 5 3 4 1 0\n").unwrap();
    assert_eq!(summary.empty_clause_id, 6);
}

#[test]
fn dimacs_errors_name_the_line() {
    for (text, line) in [
        (&b"p cnf 2 2\n1 2 0\n"[..], 3),
        (b"p cnf 2 1\n1 3 0\n", 2),
        (b"p cnf 2 1\n1 2\n", 3),
        (b"c no header\n1 2 0\n", 2),
        (b"p cnf 2 1\n1 2 0\n-1 0\n", 3),
        (b"p cnf 2 1\n1 x 0\n", 2),
        // A clause on the header's line: three clauses to a line reader,
        // four to a token reader (found by the fuzz test, which judged it
        // the first way while the checker read it the second).
        (b"c all four\np cnf 2 4 1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n", 2),
    ] {
        let err = Checker::from_dimacs(text).err().expect("must be rejected");
        assert!(matches!(err, CheckError::Dimacs { line: l, .. } if l == line), "{err}");
    }
    let spans = Checker::from_dimacs(b"c x\np cnf 3 2\n1\n 2 c y\n3 0 -1\n0\n%\n0\n").unwrap();
    assert_eq!(spans.original_count(), 2);
}

#[test]
fn api_steps_count_like_the_file() {
    let mut checker = Checker::from_clauses(&[vec![1, 2], vec![1, -2], vec![-1, 2], vec![-1, -2]]);
    assert_eq!(checker.original_count(), 4);
    checker.add(5, &[1], &[1, 2]).unwrap();
    checker.delete(1).unwrap();
    assert!(!checker.refuted());
    let err = checker.add(6, &[], &[5, 3, 1]).unwrap_err();
    assert!(matches!(err, CheckError::DeletedHint { hint: 1, .. }), "{err}");
    assert_step(&err, 3);
    // A failed step leaves the checker usable, with an empty assignment.
    checker.add(6, &[], &[5, 3, 4]).unwrap();
    assert!(checker.refuted());
    let summary = checker.finish().unwrap();
    assert_eq!((summary.added, summary.deleted, summary.empty_clause_id), (2, 1, 6));
}

#[test]
fn invalid_literals_are_rejected() {
    let mut checker = Checker::from_dimacs(FOUR).unwrap();
    let err = checker.add(5, &[0], &[1]).unwrap_err();
    assert!(matches!(err, CheckError::InvalidLiteral { lit: 0, .. }), "{err}");
    let err = checker.add(5, &[i32::MIN], &[1]).unwrap_err();
    assert!(matches!(err, CheckError::InvalidLiteral { .. }), "{err}");
    let err = checker.add(5, &[2_000_000_000], &[1]).unwrap_err();
    assert!(matches!(err, CheckError::TooLarge { what: "variable", .. }), "{err}");
    let err = checker.add(1 << 40, &[1], &[1, 2]).unwrap_err();
    assert!(matches!(err, CheckError::TooLarge { what: "clause id", .. }), "{err}");
    assert!(Checker::try_from_clauses(&[vec![1, 0]]).is_err());
    // New variables within reach are fine, and their clauses are usable.
    checker.add(5, &[1, 7], &[1, 2]).unwrap();
    checker.add(6, &[7], &[5, 3, 4]).unwrap();
}
