//! Fuzzing the reader and checker with random and mutated bytes: every
//! input ends in Ok or a CheckError, never a panic.
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

proptest! {
    #[test]
    fn random_bytes_never_panic(proof in proofish()) {
        let _ = check(FOUR, &proof[..]);
    }

    #[test]
    fn mutated_proofs_never_panic(
        which in 0usize..3,
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let php = pigeonhole(3, 2);
        let steps = dpll_proof(&php).unwrap();
        let (formula, proof) = match which {
            0 => (FOUR.to_vec(), FOUR_PROOF.as_bytes().to_vec()),
            1 => (dimacs(&php), to_text(&steps)),
            _ => (dimacs(&php), to_binary(&steps)),
        };
        let _ = check(&formula, &mutate(proof, &mutations)[..]);
    }

    #[test]
    fn mutated_formulas_never_panic(mutations in prop::collection::vec(mutation(), 1..6)) {
        if let Ok(mut checker) = Checker::from_dimacs(&mutate(FOUR.to_vec(), &mutations)) {
            let _ = checker.confirm_original(1, &[1, 2]);
            let _ = checker.add(5, &[1], &[1, 2]);
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
