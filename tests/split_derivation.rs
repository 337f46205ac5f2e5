//! The VeriPB derivation from the OPB statement to a cube plan's split
//! formula (src/derivation/cubes.rs): the orbit reduction by dominance and
//! the cover by a decision tree, checked by VeriPB. Accepted for plans at
//! several depths and for refined (mixed-depth) plans; the writer refuses a
//! plan that does not cover the split with its orbits' least members, and
//! VeriPB rejects a target missing a selector clause or a derivation that
//! leaves a selector half-defined (the leaves of its cube stay open).
//!
//! Needs `veripb` on PATH (`cargo install veripb --locked`; CI installs it);
//! without it the VeriPB checks print a note and pass, except under CI
//! (`CI` set), where a missing VeriPB fails the test.

use crate::common::{self, Scratch};

use std::path::{Path, PathBuf};

use hexcert::cubes::{split_formula, Cube, Plan};
use hexcert::derivation::{write_cnf_as_opb, Reach};
use hexcert::geometry::Hexagon;
use hexcert::statement::Statement;

/// VeriPB on PATH (under CI it must be: `common::veripb_present` fails there without it).
fn veripb_on_path() -> bool {
    common::veripb_present()
}

struct Files {
    /// Held so the directory lives as long as the files.
    _dir: Scratch,
    statement: PathBuf,
    proof: PathBuf,
    target: PathBuf,
}

/// Statement, split derivation and split formula of `plan`, or the writer's refusal.
fn write(name: &str, plan: &Plan) -> Result<Files, String> {
    let dir = Scratch::new(&format!("split-derivation-{name}"));
    let hex = Hexagon::new(plan.n).unwrap();
    let files = Files { statement: dir.join("s.opb"), proof: dir.join("d.pbp"), target: dir.join("t.opb"), _dir: dir };
    let reach = Reach::Split(plan);
    let mut proof = Vec::new();
    reach.write(&hex, plan.level, plan.below, &mut proof).map_err(|e| e.to_string())?;
    std::fs::write(&files.proof, proof).unwrap();
    std::fs::write(&files.statement, Statement::new(&hex, plan.level, plan.below).to_opb(&hex)).unwrap();
    let mut target = Vec::new();
    write_cnf_as_opb(&reach.target(&hex, plan.level, plan.below).unwrap(), &mut target).unwrap();
    std::fs::write(&files.target, target).unwrap();
    Ok(files)
}

fn veripb(files: &Files) -> Result<(), String> {
    common::veripb_verdict(&files.statement, &files.proof, &files.target)
}

fn plan(n: usize, level: u8, below: usize, depth: u8) -> Plan {
    Plan::new(n, level, below, 1, depth, Default::default()).unwrap()
}

#[test]
fn the_split_formula_is_the_plain_formula_then_selectors() {
    let plan = plan(4, 3, 3, 2);
    let encoding = plan.encoding().unwrap();
    let split = plan.split().unwrap();
    let t = split_formula(&encoding, &split, &plan.cubes);
    let base = encoding.cnf.clauses().len();
    assert_eq!(&t.clauses()[..base], encoding.cnf.clauses());
    let mut at = base;
    for (i, cube) in plan.cubes.iter().enumerate() {
        let s = encoding.cnf.num_vars() as i32 + 1 + i as i32;
        for lit in encoding.projection_literals(&split.cells, &cube.values, cube.depth) {
            assert_eq!(t.clauses()[at], vec![-s, lit]);
            at += 1;
        }
    }
    assert_eq!(t.clauses()[at].len(), plan.cubes.len());
    assert_eq!(at + 1, t.clauses().len());
}

#[test]
fn veripb_accepts_the_split_derivations_of_plans_and_refined_plans() {
    // Every other cube refined, then one of the refinements again: depths 1, 2 and 3.
    let refined = {
        let coarse = plan(6, 3, 13, 1);
        let every_other: Vec<usize> = (0..coarse.cubes.len()).step_by(2).collect();
        let once = coarse.refine(&every_other).unwrap().0;
        let deeper = once.cubes.iter().position(|c| c.depth == 2).unwrap();
        once.refine(&[deeper]).unwrap().0
    };
    for depth in 1..=3 {
        assert!(refined.cubes.iter().any(|c| c.depth == depth), "no cube at depth {depth}");
    }
    // (n, level, below) at depths 1 and 2, a bound low enough for the local
    // penalty rule, and a refined plan of mixed depths.
    let plans = [plan(4, 3, 3, 1), plan(4, 3, 3, 2), plan(4, 3, 2, 1), plan(3, 4, 2, 2), refined];
    let on_path = veripb_on_path();
    for (i, plan) in plans.iter().enumerate() {
        let files =
            write(&format!("accept-{i}"), plan).unwrap_or_else(|e| panic!("plan {i} ({}): {e}", plan.statement));
        if on_path {
            veripb(&files).unwrap_or_else(|e| panic!("plan {i} ({}): VeriPB rejected:\n{e}", plan.statement));
        }
    }
}

#[test]
fn the_writer_refuses_a_plan_without_a_cube_or_with_a_cube_not_least() {
    let plan = plan(4, 3, 3, 1);
    let mut dropped = plan.clone();
    dropped.cubes.remove(plan.cubes.len() / 2);
    let error = write("dropped", &dropped).err().expect("a dropped cube leaves a leaf open");
    assert!(error.contains("reads as no kept cube"), "{error}");

    let split = plan.split().unwrap();
    let (index, image) = plan
        .cubes
        .iter()
        .enumerate()
        .find_map(|(i, cube)| {
            let image =
                (0..split.images.len()).map(|g| split.image(g, &cube.values)).find(|image| *image != cube.values)?;
            Some((i, image))
        })
        .expect("some cube is moved by a symmetry");
    let mut moved = plan.clone();
    moved.cubes[index] = Cube::values(plan.cubes[index].depth, image);
    let error =
        write("moved", &moved).err().expect("a cube that is not its orbit's least covers nothing the tree reaches");
    assert!(error.contains("least"), "{error}");
}

fn edit(path: &Path, pick: impl Fn(&str) -> bool, change: impl Fn(&str) -> Option<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut done = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if !done && pick(line) {
            done = true;
            lines.extend(change(line));
        } else {
            lines.push(line.to_string());
        }
    }
    assert!(done, "no line to change in {}", path.display());
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn veripb_rejects_a_target_without_a_selector_clause_or_a_selector_left_undefined() {
    if !veripb_on_path() {
        return;
    }
    let plan = plan(4, 3, 3, 1);
    let files = write("reject-target", &plan).unwrap();
    let encoding = plan.encoding().unwrap();
    let first_selector = format!("~x{} ", encoding.cnf.num_vars() + 1);
    edit(&files.target, |l| l.contains(&first_selector), |_| None);
    assert!(veripb(&files).is_err(), "a target without a selector clause was accepted");

    let files = write("reject-tree", &plan).unwrap();
    // The converse definition of the last selector becomes a tautology (one
    // constraint all the same, so every later id still names its step); its
    // cube, the one most open, is refuted by no propagation of its own.
    let s = encoding.cnf.num_vars() as usize + plan.cubes.len();
    let definition = format!("red +1 x{s} ");
    edit(&files.proof, |l| l.starts_with(&definition), |_| Some(format!("rup +1 x{s} +1 ~x{s} >= 1;")));
    let error = veripb(&files).expect_err("a selector left half-defined was accepted");
    assert!(error.contains("RUP") || error.contains("not implied"), "{error}");
}
