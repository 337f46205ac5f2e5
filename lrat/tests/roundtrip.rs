//! Round trips: steps written by the writers read back identically, and a
//! proof gets the same verdict in text and in binary.
//!
//! Invariant: cases come from proptest's default config, so PROPTEST_CASES
//! sets how many (256 unless told).

mod common;

use common::{dimacs, dpll_proof, pigeonhole, to_binary, to_text};
use hexcert_lrat::{check, Reader, Step};
use proptest::prelude::*;

/// Ids up to 2^62 fit both formats (text numbers are read as i64).
fn id() -> impl Strategy<Value = u64> {
    prop_oneof![1u64..100, 1u64..(1 << 62)]
}

fn lit() -> impl Strategy<Value = i32> {
    prop_oneof![1i32..50, 1i32..=i32::MAX].prop_flat_map(|v| prop_oneof![Just(v), Just(-v)])
}

fn hint() -> impl Strategy<Value = i64> {
    prop_oneof![1i64..100, 1i64..i64::MAX].prop_flat_map(|v| prop_oneof![Just(v), Just(-v)])
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (id(), prop::collection::vec(lit(), 0..8), prop::collection::vec(hint(), 0..8))
            .prop_map(|(id, lits, hints)| Step::Add { id, lits, hints }),
        prop::collection::vec(id(), 0..8).prop_map(|ids| Step::Delete { ids }),
    ]
}

fn read_all(bytes: &[u8]) -> Vec<Step> {
    let mut reader = Reader::new(bytes);
    let mut steps = Vec::new();
    while let Some(step) = reader.next_step().unwrap() {
        steps.push(step);
    }
    assert_eq!(reader.steps_read(), steps.len() as u64);
    steps
}

proptest! {
    #[test]
    fn written_steps_read_back(steps in prop::collection::vec(step(), 0..20)) {
        prop_assert_eq!(read_all(&to_binary(&steps)), steps.clone());
        prop_assert_eq!(read_all(&to_text(&steps)), steps);
    }

    #[test]
    fn text_and_binary_agree_on_tampered_proofs(
        picks in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), 0u8..4), 1..3)
    ) {
        let php = pigeonhole(4, 3);
        let mut steps = dpll_proof(&php).unwrap();
        for (which, position, how) in picks {
            let index = which.index(steps.len());
            if let Step::Add { lits, hints, .. } = &mut steps[index] {
                match how {
                    0 if !lits.is_empty() => { let i = position.index(lits.len()); lits[i] = -lits[i]; }
                    1 if !hints.is_empty() => { hints.remove(position.index(hints.len())); }
                    2 if hints.len() > 1 => { let i = position.index(hints.len() - 1); hints.swap(i, i + 1); }
                    _ => { steps.remove(index); }
                }
            }
        }
        let formula = dimacs(&php);
        let text = check(&formula, &to_text(&steps)[..]).map_err(|e| e.to_string());
        let binary = check(&formula, &to_binary(&steps)[..]).map_err(|e| e.to_string());
        prop_assert_eq!(text, binary);
    }
}
