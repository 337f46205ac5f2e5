//! Fuzzing the reader and checker with random and mutated bytes, against
//! verdicts known without the checker: no byte string proves a satisfiable
//! formula unsatisfiable, and a formula the checker was refuted on is
//! unsatisfiable by brute force.
//!
//! The satisfiable formulas are minimally unsatisfiable ones with one clause
//! swapped for a clause on a fresh variable: the same clause ids, the same
//! shape, so a mutated proof of the original cites them as before, yet no
//! proof of it can be right.
//!
//! Invariant: cases come from proptest's default config, so PROPTEST_CASES
//! sets how many (256 unless told); run long with PROPTEST_CASES=100000.

mod common;

use common::{dimacs, dpll_proof, mutate, mutation, pigeonhole, to_binary, to_text, FOUR, FOUR_PROOF};
use hexcert_lrat::{check, Checker};
use proptest::prelude::*;

/// Bytes that look like proofs more often than uniform noise does.
fn proofish() -> impl Strategy<Value = Vec<u8>> {
    let text = prop::sample::select(&b"0123456789 -d\n\nc"[..]);
    let binary = prop_oneof![Just(b'a'), Just(b'd'), Just(0u8), 1u8..16, 0x80u8..=0xff];
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        prop::collection::vec(text, 0..300),
        prop::collection::vec(binary, 0..300),
    ]
}

/// `clauses` with clause `which` (0-based) replaced by a unit on a fresh
/// variable. From a minimally unsatisfiable formula this is satisfiable.
fn weakened(clauses: &[Vec<i32>], which: usize) -> Vec<u8> {
    let fresh = clauses.iter().flatten().map(|l| l.abs()).max().unwrap_or(0) + 1;
    let mut clauses = clauses.to_vec();
    let which = which % clauses.len();
    clauses[which] = vec![fresh];
    dimacs(&clauses)
}

/// The clauses of a plain DIMACS text (header, comments, clauses each ending
/// in 0 on their own line), or `None` for anything less regular.
fn strict_dimacs(bytes: &[u8]) -> Option<Vec<Vec<i32>>> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut clauses = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('c') && !l.starts_with('p')) {
        let lits: Vec<i32> = line.split_whitespace().map(|t| t.parse().ok()).collect::<Option<_>>()?;
        let (last, clause) = lits.split_last()?;
        (*last == 0 && !clause.contains(&0)).then_some(())?;
        clauses.push(clause.to_vec());
    }
    Some(clauses)
}

/// Whether some assignment of the (at most 12) variables satisfies every clause.
fn satisfiable(clauses: &[Vec<i32>]) -> Option<bool> {
    let vars = clauses.iter().flatten().map(|l| l.unsigned_abs()).max().unwrap_or(0);
    (vars <= 12).then(|| {
        (0u32..1 << vars)
            .any(|bits| clauses.iter().all(|c| c.iter().any(|&l| (bits >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0))))
    })
}

fn four() -> Vec<Vec<i32>> {
    vec![vec![1, 2], vec![1, -2], vec![-1, 2], vec![-1, -2]]
}

proptest! {
    #[test]
    fn random_bytes_never_prove_a_satisfiable_formula(proof in proofish(), which in 0usize..4) {
        let _ = check(FOUR, &proof[..]);
        let formula = weakened(&four(), which);
        prop_assert!(check(&formula, &proof[..]).is_err(), "a proof of a satisfiable formula was accepted");
    }

    #[test]
    fn mutated_proofs_never_prove_a_satisfiable_formula(
        which in 0usize..3,
        clause in 0usize..64,
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let php = pigeonhole(3, 2);
        let steps = dpll_proof(&php).unwrap();
        let (clauses, proof) = match which {
            0 => (four(), FOUR_PROOF.as_bytes().to_vec()),
            1 => (php, to_text(&steps)),
            _ => (php, to_binary(&steps)),
        };
        prop_assert_eq!(satisfiable(&clauses), Some(false));
        let proof = mutate(proof, &mutations);
        let _ = check(&dimacs(&clauses), &proof[..]);
        let formula = weakened(&clauses, clause);
        prop_assert!(check(&formula, &proof[..]).is_err(), "a proof of a satisfiable formula was accepted");
    }

    #[test]
    fn a_mutated_formula_the_proof_refutes_is_unsatisfiable(mutations in prop::collection::vec(mutation(), 1..6)) {
        let formula = mutate(FOUR.to_vec(), &mutations);
        if check(&formula, FOUR_PROOF.as_bytes()).is_ok() {
            // Judged only where a plain reading of the bytes is unambiguous.
            if let Some(verdict) = strict_dimacs(&formula).and_then(|c| satisfiable(&c)) {
                prop_assert!(!verdict, "refuted a satisfiable formula: {:?}", String::from_utf8_lossy(&formula));
            }
        }
    }

    #[test]
    fn random_api_calls_never_panic(
        calls in prop::collection::vec(
            (any::<bool>(), 0u64..12, prop::collection::vec(-4i32..=4, 0..4), prop::collection::vec(-6i64..12, 0..5)),
            0..12,
        )
    ) {
        let mut checker = Checker::from_dimacs(FOUR).unwrap();
        for (delete, id, lits, hints) in calls {
            let outcome = if delete { checker.delete(id) } else { checker.add(id, &lits, &hints) };
            if let Err(e) = outcome {
                prop_assert_eq!(e.step(), Some(checker.steps()));
            }
        }
        let _ = checker.finish();
    }
}
