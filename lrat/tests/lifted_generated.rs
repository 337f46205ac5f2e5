//! Lifted checks of generated cube proofs, with the plain checker on each
//! cube formula as the reference.
//!
//! The split: pigeonhole, cut on pigeon 0's hole (one cube per hole, and one
//! for "no hole"). Invariant: the generator's proofs are valid by
//! construction, and on cube formula F_i the plain checker's verdict is the
//! one the lifted check must give on T, also for mutated proofs and random
//! steps: same acceptance, same error message. Two exceptions, both the
//! lifted check's own: a lemma on a selector variable (which F_i lacks) is
//! refused, and a variable "too large" is judged against T's larger table.

mod common;

use common::{dimacs, dpll_proof, mutate, mutation, pigeonhole, to_binary, to_text};
use hexcert_lrat::{check, check_lifted, CheckError, Checker, CubeSummary, Lifted, Step, Summary};
use proptest::prelude::*;

struct Split {
    base: usize,
    cubes: Vec<Vec<i32>>,
    t: Vec<Vec<i32>>,
    proofs: Vec<Vec<Step>>,
}

impl Split {
    fn pigeonhole(pigeons: i32, holes: i32) -> Split {
        let f = pigeonhole(pigeons, holes);
        // Pigeon 0 in hole h is variable h + 1.
        let mut cubes: Vec<Vec<i32>> = (1..=holes).map(|h| vec![h]).collect();
        cubes.push((1..=holes).map(|h| -h).collect());
        let selector = |i: usize| pigeons * holes + 1 + i as i32;
        let mut t = f.clone();
        for (i, cube) in cubes.iter().enumerate() {
            t.extend(cube.iter().map(|&u| vec![-selector(i), u]));
        }
        t.push((0..cubes.len()).map(selector).collect());
        let proofs = (0..cubes.len()).map(|i| dpll_proof(&Split::formula(&f, &cubes[i])).unwrap()).collect();
        Split { base: f.len(), cubes, t, proofs }
    }

    fn formula(f: &[Vec<i32>], units: &[i32]) -> Vec<Vec<i32>> {
        f.iter().cloned().chain(units.iter().map(|&u| vec![u])).collect()
    }

    /// Cube `i`'s formula F_i.
    fn cube(&self, i: usize) -> Vec<Vec<i32>> {
        Split::formula(&self.t[..self.base], &self.cubes[i])
    }
}

/// What the plain and the lifted summaries both count.
fn plain_counts(s: &Summary) -> (u64, u64, u64, u64) {
    (s.added, s.deleted, s.hints, s.empty_clause_id)
}

fn lifted_counts(s: &CubeSummary) -> (u64, u64, u64, u64) {
    (s.added, s.deleted, s.hints, s.empty_clause_id)
}

/// An error as compared across the two checkers.
fn comparable(e: &CheckError) -> String {
    match e {
        CheckError::TooLarge { step, id, what: "variable", .. } => {
            format!("variable too large: step {step}, clause {id}")
        }
        e => e.to_string(),
    }
}

#[test]
fn pigeonhole_split_is_refuted_through_its_cubes_in_both_formats() {
    // 6 into 5: proofs of hundreds of steps, whose deletions compact T's arena.
    for ((pigeons, holes), binary) in [((4, 3), false), ((4, 3), true), ((6, 5), true)] {
        let split = Split::pigeonhole(pigeons, holes);
        let text = dimacs(&split.t);
        let mut lifted = Lifted::from_dimacs(&text, split.base).unwrap();
        let mut added = 0;
        let mut order: Vec<usize> = (0..split.cubes.len()).collect();
        if binary {
            order.reverse();
        }
        for (n, &i) in order.iter().enumerate() {
            let proof = if binary { to_binary(&split.proofs[i]) } else { to_text(&split.proofs[i]) };
            let plain = check(&dimacs(&split.cube(i)), &proof[..]).unwrap();
            let summary = lifted.check_proof(i, &split.cubes[i], &proof[..]).unwrap();
            assert_eq!(lifted_counts(&summary), plain_counts(&plain));
            // Each finished cube's lemmas are forgotten; its unit follows the previous ones.
            assert_eq!(summary.unit_id, (split.t.len() + n + 1) as u64);
            added += summary.added;
        }
        let refuted = lifted.conclude().unwrap();
        assert_eq!(refuted.original, split.t.len() as u64);
        // Every cube's lemmas, then the empty clause from the units.
        assert_eq!(refuted.added, added + 1);
        assert_eq!(refuted.empty_clause_id, (split.t.len() + split.cubes.len() + 1) as u64);
    }
}

#[test]
fn one_cube_alone_says_t_implies_its_selectors_negation() {
    let split = Split::pigeonhole(4, 3);
    let t = dimacs(&split.t);
    for i in 0..split.cubes.len() {
        let summary = check_lifted(&t, split.base, i, &split.cubes[i], &to_text(&split.proofs[i])[..]).unwrap();
        assert_eq!((summary.cube, summary.selector), (i, 13 + i as i32));
        // Another cube's proof does not carry over.
        let other = (i + 1) % split.cubes.len();
        assert!(check_lifted(&t, split.base, i, &split.cubes[i], &to_text(&split.proofs[other])[..]).is_err());
    }
}

#[test]
fn a_checker_of_the_clause_list_agrees_with_one_of_the_dimacs() {
    let split = Split::pigeonhole(3, 2);
    let mut from_clauses = Lifted::from_clauses(&split.t, split.base).unwrap();
    let mut from_dimacs = Lifted::from_dimacs(&dimacs(&split.t), split.base).unwrap();
    for i in 0..split.cubes.len() {
        let proof = to_binary(&split.proofs[i]);
        let a = from_clauses.check_proof(i, &split.cubes[i], &proof[..]).unwrap();
        assert_eq!(a, from_dimacs.check_proof(i, &split.cubes[i], &proof[..]).unwrap());
    }
    assert_eq!(from_clauses.conclude().unwrap(), from_dimacs.conclude().unwrap());
}

/// A step-level edit of a valid proof: the edited proofs keep most steps
/// valid, so hints to deleted lemmas, originals and units come up often.
#[derive(Debug, Clone)]
enum Edit {
    /// A deletion of one of the ids `1..=last` before step `at`.
    Delete {
        at: prop::sample::Index,
        id: prop::sample::Index,
    },
    DropHint {
        step: prop::sample::Index,
        hint: prop::sample::Index,
    },
    BumpHint {
        step: prop::sample::Index,
        hint: prop::sample::Index,
        by: i64,
    },
}

fn edit() -> impl Strategy<Value = Edit> {
    use prop::sample::Index;
    prop_oneof![
        (any::<Index>(), any::<Index>()).prop_map(|(at, id)| Edit::Delete { at, id }),
        (any::<Index>(), any::<Index>()).prop_map(|(step, hint)| Edit::DropHint { step, hint }),
        (any::<Index>(), any::<Index>(), -3i64..=3).prop_map(|(step, hint, by)| Edit::BumpHint { step, hint, by }),
    ]
}

/// The hints of the addition step `step` picks, if it has any.
fn hints_mut<'a>(steps: &'a mut [Step], step: &prop::sample::Index) -> Option<&'a mut Vec<i64>> {
    let len = steps.len();
    match &mut steps[step.index(len)] {
        Step::Add { hints, .. } if !hints.is_empty() => Some(hints),
        _ => None,
    }
}

fn apply(mut steps: Vec<Step>, edits: &[Edit]) -> Vec<Step> {
    let last = steps.iter().filter_map(|s| if let Step::Add { id, .. } = s { Some(*id) } else { None }).max().unwrap();
    for e in edits {
        match e {
            Edit::Delete { at, id } => {
                let at = at.index(steps.len() + 1);
                steps.insert(at, Step::Delete { ids: vec![1 + id.index(last as usize) as u64] });
            }
            Edit::DropHint { step, hint } => {
                if let Some(hints) = hints_mut(&mut steps, step) {
                    hints.remove(hint.index(hints.len()));
                }
            }
            Edit::BumpHint { step, hint, by } => {
                if let Some(hints) = hints_mut(&mut steps, step) {
                    let i = hint.index(hints.len());
                    hints[i] += by;
                }
            }
        }
    }
    steps
}

proptest! {
    #[test]
    fn mutated_cube_proofs_get_the_plain_verdict(
        cube in 0usize..3,
        binary in any::<bool>(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let split = Split::pigeonhole(3, 2);
        let steps = &split.proofs[cube];
        let proof = mutate(if binary { to_binary(steps) } else { to_text(steps) }, &mutations);
        let plain = check(&dimacs(&split.cube(cube)), &proof[..]);
        let lifted = check_lifted(&dimacs(&split.t), split.base, cube, &split.cubes[cube], &proof[..]);
        match (plain, lifted) {
            (_, Err(CheckError::SelectorInProof { .. })) => {}
            (Ok(p), Ok(l)) => {
                prop_assert_eq!(plain_counts(&p), lifted_counts(&l));
            }
            (Err(p), Err(l)) => prop_assert_eq!(comparable(&p), comparable(&l)),
            (p, l) => prop_assert!(false, "plain {:?}, lifted {:?}", p, l),
        }
    }

    #[test]
    fn edited_cube_proofs_get_the_plain_verdict(
        cube in 0usize..4,
        edits in prop::collection::vec(edit(), 1..8),
    ) {
        let split = Split::pigeonhole(4, 3);
        let proof = to_text(&apply(split.proofs[cube].clone(), &edits));
        let plain = check(&dimacs(&split.cube(cube)), &proof[..]);
        let lifted = check_lifted(&dimacs(&split.t), split.base, cube, &split.cubes[cube], &proof[..]);
        match (plain, lifted) {
            (Ok(p), Ok(l)) => {
                prop_assert_eq!(plain_counts(&p), lifted_counts(&l));
            }
            (p, l) => {
                prop_assert_eq!(p.map(|_| ()).map_err(|e| e.to_string()), l.map(|_| ()).map_err(|e| e.to_string()))
            }
        }
    }

    #[test]
    fn random_cube_steps_get_the_plain_verdict(
        cube in 0usize..3,
        calls in prop::collection::vec(
            (
                any::<bool>(),
                0u64..16,
                prop::collection::vec(-6i32..=6, 0..4),
                prop::collection::vec(-2i64..16, 0..6),
            ),
            0..16,
        )
    ) {
        // Ids 1..6 are F's, then the cube's units: deletions and hints hit
        // originals, units and lemmas alike.
        let split = Split::pigeonhole(3, 2);
        let mut plain = Checker::from_clauses(&split.cube(cube));
        let mut lifted = Lifted::from_clauses(&split.t, split.base).unwrap();
        let mut cube_check = lifted.cube(cube, &split.cubes[cube]).unwrap();
        for (delete, id, lits, hints) in calls {
            let (p, l) = if delete {
                (plain.delete(id), cube_check.delete(id))
            } else {
                (plain.add(id, &lits, &hints), cube_check.add(id, &lits, &hints))
            };
            prop_assert_eq!(p.map_err(|e| e.to_string()), l.map_err(|e| e.to_string()));
        }
        match (plain.finish(), cube_check.finish()) {
            (Ok(p), Ok(l)) => {
                prop_assert_eq!(plain_counts(&p), lifted_counts(&l));
                prop_assert!(lifted.is_derived(cube));
            }
            (Err(p), Err(l)) => {
                prop_assert_eq!(p.to_string(), l.to_string());
                prop_assert!(!lifted.is_derived(cube));
            }
            (p, l) => prop_assert!(false, "plain {:?}, lifted {:?}", p, l),
        }
    }
}
