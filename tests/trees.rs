//! Literal-tree plans: value cubes split further by decision trees on the
//! formula's variables (proof-prefix splitting, `cubes refine --strategy
//! prefix`, and cardinality splitting, `--strategy cardinality`). Why these tests: the trees change what a plan's cubes are, so
//! each link of the claim is shown to hold for them: the cover check and
//! VeriPB's derivation of the split formula accept complete trees and reject
//! a tree with a missing branch; every optimal partial of a small claim lies
//! in some leaf (up to symmetry); a true claim refutes every leaf and a false
//! one yields a counterexample the validator accepts.

use crate::common::{self, Scratch};

use std::path::Path;
use std::process::Command;

use hexcert::cubes::cardinality::bisection_tree;
use hexcert::cubes::Plan;
use hexcert::derivation::{write_cnf_as_opb, Reach};
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::solving::prefix::{grow_all, PrefixScore, PrefixSettings};
use hexcert::statement::Statement;

/// A scratch directory for this test, removed when it goes out of scope.
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("trees-{name}"))
}

/// How the trees below the cubes are grown.
#[derive(Debug, Clone, Copy)]
enum Grow {
    /// Proof prefixes of this many conflicts, to this depth, scored so.
    Prefix(i32, usize, PrefixScore),
    /// A bisection of the penalty budget, this deep.
    Cardinality(usize),
}

const STRATEGIES: [fn(usize) -> Grow; 3] = [
    |depth| Grow::Prefix(40, depth, PrefixScore::Learned),
    |depth| Grow::Prefix(40, depth, PrefixScore::Pivots),
    Grow::Cardinality,
];

/// The ring-1 plan of the claim with a tree grown below every cube.
fn tree_plan(n: usize, level: u8, below: usize, grow: Grow) -> Plan {
    let plan = Plan::new(n, level, below, 1, 1, Default::default()).unwrap();
    let every: Vec<usize> = (0..plan.cubes.len()).collect();
    let trees: Vec<(usize, Vec<Vec<i32>>)> = match grow {
        Grow::Prefix(conflicts, depth, score) => {
            let grown = grow_all(&plan, &every, PrefixSettings { conflicts, depth, score }).unwrap();
            grown.into_iter().map(|(i, g)| (i, g.leaves)).collect()
        }
        Grow::Cardinality(depth) => {
            let counter =
                plan.encoding().unwrap().counter().expect("the default cardinality is the sequential counter");
            every.iter().map(|&i| (i, bisection_tree(&counter, &plan.cubes[i].literals, depth))).collect()
        }
    };
    let grown = plan.grow_trees(&trees).unwrap();
    assert!(
        grown.cubes.iter().any(|c| c.literals.len() >= 2),
        "{grow:?}: no tree of depth 2 grew: the test would show nothing"
    );
    grown
}

/// Statement, derivation and split formula of `plan` in `dir`; VeriPB's verdict (Ok when accepted).
fn veripb(dir: &Path, plan: &Plan) -> Result<(), String> {
    let hex = Hexagon::new(plan.n).unwrap();
    let reach = Reach::Split(plan);
    let mut proof = Vec::new();
    reach.write(&hex, plan.level, plan.below, &mut proof).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("d.pbp"), proof).unwrap();
    std::fs::write(dir.join("s.opb"), Statement::new(&hex, plan.level, plan.below).to_opb(&hex)).unwrap();
    let mut target = Vec::new();
    write_cnf_as_opb(&reach.target(&hex, plan.level, plan.below).unwrap(), &mut target).unwrap();
    std::fs::write(dir.join("t.opb"), target).unwrap();
    common::veripb_verdict(&dir.join("s.opb"), &dir.join("d.pbp"), &dir.join("t.opb"))
}

#[test]
fn complete_trees_are_accepted_and_a_missing_branch_is_rejected() {
    for strategy in STRATEGIES {
        complete_tree_accepted_missing_branch_rejected(strategy(2));
    }
}

fn complete_tree_accepted_missing_branch_rejected(grow: Grow) {
    let plan = tree_plan(5, 3, 9, grow);
    plan.check_cover().expect("a grown plan covers");
    let dir = scratch("accept");
    if common::veripb_present() {
        veripb(&dir, &plan).unwrap_or_else(|e| panic!("VeriPB rejected the tree plan's derivation:\n{e}"));
    }
    // Drop one leaf of the deepest tree: the branch it stood for is open.
    let deepest = (0..plan.cubes.len()).max_by_key(|&i| plan.cubes[i].literals.len()).unwrap();
    let mut missing = plan.clone();
    missing.cubes.remove(deepest);
    let error = missing.check_cover().expect_err("a tree with a missing branch passed the cover check").to_string();
    assert!(error.contains("empty branch") || error.contains("below"), "{error}");
    if common::veripb_present() {
        let verdict = veripb(&scratch("reject"), &missing);
        assert!(verdict.is_err(), "VeriPB accepted the derivation of a tree with a missing branch");
    }
}

#[test]
fn every_optimal_partial_lies_in_some_leaf_up_to_symmetry() {
    for strategy in STRATEGIES {
        every_optimal_partial_in_a_leaf(strategy(3));
    }
}

fn every_optimal_partial_in_a_leaf(grow: Grow) {
    // n = 5 level 3: minimum 9. The claim "below 10" is false, and its
    // formula's models include every optimal partial.
    let (n, level, minimum) = (5, 3, 9);
    let plan = tree_plan(n, level, minimum + 1, grow);
    let hex = Hexagon::new(n).unwrap();
    let encoding = plan.encoding().unwrap();
    let split = plan.split().unwrap();
    // One incremental solver on the plain formula: every partial of penalty
    // <= minimum listed by blocking each model (then the blocks are lifted by
    // their activation literal), and "partial and leaf" is an assumption set.
    let mut solver = cadical_sys::CaDiCal::new();
    for clause in encoding.cnf.clauses() {
        solver.clause6(clause);
    }
    let active = encoding.cnf.num_vars() as i32 + 1;
    let mut optimal: Vec<Partial> = Vec::new();
    solver.assume(active);
    while matches!(solver.solve(), cadical_sys::Status::SATISFIABLE) {
        let model: Vec<bool> = (0..=encoding.cnf.num_vars() as i32).map(|v| v > 0 && solver.val(v) > 0).collect();
        let partial = encoding.decode(&model);
        let mut block: Vec<i32> = encoding.cell_literals(&partial).iter().map(|l| -l).collect();
        block.push(-active);
        solver.clause6(&block);
        optimal.push(partial);
        solver.assume(active);
    }
    assert_eq!(optimal.len(), 360, "the published count of n = 5 level-3 optima");
    let mut in_leaf = |partial: &Partial, cube: &hexcert::cubes::Cube| {
        for lit in encoding.cell_literals(partial).into_iter().chain(cube.units(&encoding, &split)) {
            solver.assume(lit);
        }
        matches!(solver.solve(), cadical_sys::Status::SATISFIABLE)
    };
    for partial in &optimal {
        let reached = hex.symmetries().iter().any(|perm| {
            let moved = Partial::new(n, level, hexcert::orbits::image(perm, partial.values())).unwrap();
            let projection = split.project(moved.values());
            plan.cubes
                .iter()
                .filter(|c| hexcert::cubes::Split::coarsen(&projection, c.depth) == c.values)
                .any(|cube| in_leaf(&moved, cube))
        });
        assert!(reached, "{grow:?}: optimal partial {:?} lies in no leaf under any symmetry", partial.values());
    }
}

fn hexcert(args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hexcert")).current_dir(dir).args(args).output().unwrap()
}

#[test]
fn a_true_claim_refutes_every_leaf_and_a_false_one_yields_a_validated_counterexample() {
    for (below, refuted, strategy) in [(9, true, 0), (10, false, 0), (9, true, 1), (10, false, 1)] {
        let dir = scratch(&format!("run-{below}-{strategy}"));
        let plan = tree_plan(5, 3, below, STRATEGIES[strategy](2));
        plan.write(&dir.join("plan.json"), Path::new("res"), "hexcert").unwrap();
        // Proofs kept beside the records, so that `status` checks them in its run
        // (a record without its proof is only attested, exit 4).
        let run = hexcert(
            &[
                "cubes",
                "run",
                "plan.json",
                "--all",
                "--jobs",
                "2",
                "--results",
                "res",
                "--store-limit",
                "100000000",
                "-q",
            ],
            &dir,
        );
        let status = hexcert(&["cubes", "status", "plan.json", "--results", "res"], &dir);
        let text = format!("{}{}", String::from_utf8_lossy(&status.stdout), String::from_utf8_lossy(&status.stderr));
        if refuted {
            assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
            assert_eq!(status.status.code(), Some(0), "{text}");
            assert!(text.contains(&format!("{} refuted and checked in this run", plan.cubes.len())), "{text}");
        } else {
            assert_eq!(run.status.code(), Some(1), "a false claim must end in a counterexample");
            assert_eq!(status.status.code(), Some(1), "{text}");
            assert!(!text.contains(" 0 with a counterexample"), "{text}");
        }
    }
}
