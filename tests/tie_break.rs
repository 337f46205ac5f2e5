//! A plan's tie-break (`cubes plan --tie-break next-ring`): lex-leader
//! clauses over the split's readings and then the next ring, appended to
//! the plain formula every cube extends (src/encoding/symmetry.rs,
//! `TieBreak`) and derived from the statement by VeriPB's dominance rule
//! with the orbit reduction (src/derivation/cubes.rs). Plans without one
//! read, hash and derive as before; a plan with one gets another formula,
//! VeriPB accepts its derivation and rejects a tail clause turned round,
//! and its cubes merge into a claim that `check` verifies.

use crate::common::{self, Scratch};

use std::process::Command;

use hexcert::cubes::Plan;
use hexcert::derivation::{write_cnf_as_opb, Reach};
use hexcert::encoding::TieBreak;
use hexcert::geometry::Hexagon;
use hexcert::statement::Statement;

fn plan(n: usize, level: u8, below: usize, depth: u8, tie_break: TieBreak) -> Plan {
    Plan::new(n, level, below, 1, depth, Default::default()).unwrap().with_tie_break(tie_break).unwrap()
}

/// Writes statement, derivation and target of `plan`'s split formula into
/// `dir`; `turn` may edit the derivation's and the target's text first.
fn veripb(dir: &std::path::Path, plan: &Plan, turn: impl Fn(String) -> String) -> Result<(), String> {
    let hex = Hexagon::new(plan.n).unwrap();
    let reach = Reach::Split(plan);
    let mut proof = Vec::new();
    reach.write(&hex, plan.level, plan.below, &mut proof).unwrap();
    let mut target = Vec::new();
    write_cnf_as_opb(&reach.target(&hex, plan.level, plan.below).unwrap(), &mut target).unwrap();
    let (s, d, t) = (dir.join("s.opb"), dir.join("d.pbp"), dir.join("t.opb"));
    std::fs::write(&s, Statement::new(&hex, plan.level, plan.below).to_opb(&hex)).unwrap();
    std::fs::write(&d, turn(String::from_utf8(proof).unwrap())).unwrap();
    std::fs::write(&t, turn(String::from_utf8(target).unwrap())).unwrap();
    common::veripb_verdict(&s, &d, &t)
}

#[test]
fn a_tie_break_appends_lex_clauses_to_the_plain_formula_and_plans_without_one_are_unchanged() {
    let plain = plan(5, 3, 9, 1, TieBreak::None);
    let text = serde_json::to_string(&plain).unwrap();
    assert!(!text.contains("tie_break"), "a plan without a tie-break names none: {text}");
    let tied = plan(5, 3, 9, 1, TieBreak::NextRing);
    assert_eq!(tied.cubes, plain.cubes, "the tie-break leaves the cubes as they are");
    assert_ne!(tied.formula_sha256, plain.formula_sha256);
    let (formula, extended) = (plain.encoding().unwrap().cnf, tied.encoding().unwrap().cnf);
    assert_eq!(&extended.clauses()[..formula.clauses().len()], formula.clauses(), "the plain formula comes first");
    assert!(extended.clauses().len() > formula.clauses().len());
    let read: Plan = serde_json::from_str(&serde_json::to_string(&tied).unwrap()).unwrap();
    assert_eq!(read, tied);
    // A committed plan reads with no tie-break and still hashes to its formula.
    let committed = Plan::read(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/proofs/n14/level2-below40/wedge/plan.json"
    )))
    .unwrap();
    assert_eq!(committed.tie_break, TieBreak::None);
    assert_eq!(hexcert::digest::sha256_hex(&committed.encoding().unwrap().cnf.to_dimacs()), committed.formula_sha256);
    // Deepening the split would change the formula under every record.
    let error = tied.refine(&[0]).expect_err("a value refinement of a tie-break plan is refused").to_string();
    assert!(error.contains("tie-break"), "{error}");
}

#[test]
fn veripb_accepts_tie_break_derivations_and_rejects_a_tail_clause_turned_round() {
    if !common::veripb_present() {
        return;
    }
    let scratch = Scratch::new("tie-break-veripb");
    let budget = plan(5, 3, 9, 1, TieBreak::NextRing).split_budget(1).unwrap();
    let plans = [
        plan(4, 3, 3, 1, TieBreak::NextRing),
        plan(4, 3, 3, 2, TieBreak::NextRing),
        plan(3, 4, 2, 2, TieBreak::NextRing),
        budget,
    ];
    for (i, plan) in plans.iter().enumerate() {
        veripb(&scratch.0, plan, |t| t)
            .unwrap_or_else(|e| panic!("plan {i} ({}): VeriPB rejected:\n{e}", plan.statement));
    }
    // The last tail clause of the formula, in the target and where the
    // derivation reaches it, compares a digit the other way round: "equal
    // so far" then the image's digit is not above the key's.
    let plan = &plans[0];
    let (plain, extended) = (plan.plain_encoding().unwrap().cnf, plan.encoding().unwrap().cnf);
    let last = extended.clauses().len() - 1;
    assert!(last >= plain.clauses().len());
    let clause = &extended.clauses()[last];
    let opb = |c: &[i32]| {
        c.iter().map(|&l| if l > 0 { format!("+1 x{l} ") } else { format!("+1 ~x{} ", -l) }).collect::<String>()
            + ">= 1"
    };
    let n = clause.len();
    let turned: Vec<i32> = clause.iter().enumerate().map(|(i, &l)| if i + 2 >= n { -l } else { l }).collect();
    let (was, now) = (opb(clause), opb(&turned));
    let error = veripb(&scratch.0, plan, |t| {
        assert!(t.contains(&was), "{was} is in neither file");
        t.replace(&format!("{was} ;"), &format!("{now} ;")).replace(&format!("rup {was};"), &format!("rup {now};"))
    })
    .expect_err("a tail clause turned round was accepted");
    assert!(error.contains("could not be") || error.contains("RUP") || error.contains("not implied"), "{error}");
}

#[test]
fn a_tie_break_plan_runs_merges_and_checks() {
    let scratch = Scratch::new("tie-break-merge");
    let dir = &scratch.0;
    let hexcert = env!("CARGO_BIN_EXE_hexcert");
    let run = |args: &[&str]| Command::new(hexcert).current_dir(dir).args(args).output().unwrap();
    let planned = run(&[
        "cubes",
        "plan",
        "--n",
        "5",
        "--level",
        "3",
        "--below",
        "9",
        "--tie-break",
        "next-ring",
        "-o",
        "plan.json",
        "-q",
    ]);
    assert!(planned.status.success(), "{}", String::from_utf8_lossy(&planned.stderr));
    let ran = run(&["cubes", "run", "plan.json", "--all", "--store-limit", "100000000", "-q"]);
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    let expected = if common::veripb_present() { 0 } else { 4 };
    let merged = run(&["cubes", "merge", "plan.json", "--proofs", "proofs", "-q"]);
    assert_eq!(
        merged.status.code(),
        Some(expected),
        "{}{}",
        String::from_utf8_lossy(&merged.stdout),
        String::from_utf8_lossy(&merged.stderr)
    );
    let checked = run(&["check", "proofs"]);
    let text = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(checked.status.code(), Some(expected), "{text}{}", String::from_utf8_lossy(&checked.stderr));
    let claim: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("proofs/n5/level3-below9/claim.json")).unwrap()).unwrap();
    assert_eq!(claim["plan"]["tie_break"], "next-ring");

    // The audit case: the claim's statement_to_cnf record removed (and the
    // trust base derived again without it) was verified, exit 0, on a trust
    // base saying "without symmetry breaking". A tie-break is never judged
    // without its VeriPB record: unverified, and its trust base says so.
    let path = dir.join("proofs/n5/level3-below9/claim.json");
    let mut claim: hexcert::records::CubeClaim = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    claim.statement_to_cnf = None;
    claim.trust_base = hexcert::records::trust::trust_base(hexcert::records::trust::Basis::of_cube_claim(&claim));
    assert!(claim.trust_base.iter().any(|item| item.contains("tie-break (next-ring)")), "{:#?}", claim.trust_base);
    std::fs::write(&path, serde_json::to_vec_pretty(&claim).unwrap()).unwrap();
    let checked = run(&["check", "proofs"]);
    let text = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(checked.status.code(), Some(4), "{text}{}", String::from_utf8_lossy(&checked.stderr));
    assert!(text.contains("tie-break (next-ring) is judged only by VeriPB"), "{text}");
}
