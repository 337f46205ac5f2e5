//! The proof pipeline: CaDiCaL's trace is checked by the LRAT checker while
//! it is written, and its DRAT twin is what drat-trim and rate read.
//!
//! Why here and not in `lrat/`: these tests need the solver, which the
//! checker's own crate must never import. They show that (1) the DRAT file
//! hexcert writes from the trace is byte for byte the file CaDiCaL's own DRAT
//! writer produces in the same solve; (2) the LRAT checker's verdicts agree
//! with rate's on the DRAT twin, on the committed claims n = 3..7 and on a
//! proof of another formula; (3) tampering with a real LRAT proof is caught
//! and the message names the step.

use std::path::{Path, PathBuf};
use std::time::Instant;

use hexcert::proofs::online::OnlineCheck;
use hexcert::encoding::{EncodeOptions, LevelEncoding, SymmetryBreaking};
use hexcert::geometry::Hexagon;
use hexcert::proofs::Checker;
use hexcert::solving::{Cadical, Outcome, SatSolver};
use hexcert_lrat::format::{self, Step};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hexcert-lrat-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn claim_encoding(n: usize, level: u8, below: usize) -> LevelEncoding {
    let options = EncodeOptions { symmetry: SymmetryBreaking::Ring1LexLeader, ..EncodeOptions::bounded(Some(below - 1)) };
    LevelEncoding::new(&Hexagon::new(n).unwrap(), level, options)
}

/// Solves the claim with the online check; returns (verified, CNF, DRAT, LRAT).
fn solve_checked(dir: &Path, encoding: &LevelEncoding, also_cadical_drat: Option<&Path>) -> (bool, PathBuf, PathBuf, PathBuf) {
    let dimacs = encoding.cnf.to_dimacs();
    let cnf = dir.join("formula.cnf");
    std::fs::write(&cnf, &dimacs).unwrap();
    let mut online = OnlineCheck::start(dimacs, &dir.join("proof.drat")).unwrap();
    let mut solver = Cadical::with_trace(online.sender());
    if let Some(path) = also_cadical_drat {
        solver.also_trace_drat_file(path).unwrap();
    }
    solver.add_cnf(&encoding.cnf).unwrap();
    assert_eq!(solver.solve().unwrap(), Outcome::Unsat);
    drop(solver);
    let (record, drat) = online.finish(Instant::now()).unwrap();
    (record.verified, cnf, drat.clone(), drat.with_extension("lrat"))
}

#[test]
fn the_drat_twin_is_byte_for_byte_cadicals_own_drat_of_the_same_solve() {
    let dir = scratch("twin");
    let cadical_drat = dir.join("cadical.drat");
    let (verified, _, drat, _) = solve_checked(&dir, &claim_encoding(5, 3, 9), Some(&cadical_drat));
    assert!(verified);
    let ours = std::fs::read(&drat).unwrap();
    let theirs = std::fs::read(&cadical_drat).unwrap();
    assert!(ours.len() > 1000, "a real proof");
    assert!(ours == theirs, "hexcert's DRAT ({} bytes) differs from CaDiCaL's ({} bytes)", ours.len(), theirs.len());
}

/// The first DRAT checker on PATH. Under CI (which installs rate) a missing
/// checker fails the test instead of leaving the comparison silently undone.
fn rate_verdict(cnf: &Path, drat: &Path) -> Option<bool> {
    let Some(checker) = Checker::present().into_iter().next() else {
        assert!(std::env::var_os("CI").is_none(), "CI is set but no DRAT checker (rate, drat-trim) is on PATH");
        return None;
    };
    Some(checker.check(cnf, drat).unwrap().verified)
}

#[test]
fn lrat_verdicts_agree_with_rate_on_the_drat_twin_for_n3_to_n7() {
    for (n, level, below) in [(3, 2, 3), (4, 3, 3), (5, 3, 9), (6, 3, 13), (7, 4, 17)] {
        let dir = scratch(&format!("agree-{n}"));
        let (verified, cnf, drat, lrat) = solve_checked(&dir, &claim_encoding(n, level, below), None);
        assert!(verified, "n={n}: the online LRAT check rejected CaDiCaL's proof");
        let offline = hexcert_lrat::check(&std::fs::read(&cnf).unwrap(), std::fs::File::open(&lrat).unwrap());
        assert!(offline.is_ok(), "n={n}: the stored LRAT file was rejected: {offline:?}");
        match rate_verdict(&cnf, &drat) {
            Some(external) => assert!(external, "n={n}: rate rejects the DRAT twin the LRAT checker accepted"),
            None => eprintln!("no DRAT checker on PATH: n={n} compared with nothing external"),
        }
        // Both must reject the proof against another formula (one bound higher).
        let other = dir.join("other.cnf");
        std::fs::write(&other, claim_encoding(n, level, below + 1).cnf.to_dimacs()).unwrap();
        let lrat_other = hexcert_lrat::check(&std::fs::read(&other).unwrap(), std::fs::File::open(&lrat).unwrap());
        assert!(lrat_other.is_err(), "n={n}: the LRAT proof passes for another formula");
        if let Some(external) = rate_verdict(&other, &drat) {
            assert!(!external, "n={n}: rate accepts the DRAT proof for another formula");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A real proof (n = 5, level 3 below 9) as steps, and its formula.
fn real_proof() -> (Vec<u8>, Vec<Step>) {
    let dir = scratch("real");
    let (_, cnf, _, lrat) = solve_checked(&dir, &claim_encoding(5, 3, 9), None);
    let mut reader = format::Reader::new(std::fs::File::open(&lrat).unwrap());
    let mut steps = Vec::new();
    while let Some(step) = reader.next_step().unwrap() {
        steps.push(step);
    }
    (std::fs::read(&cnf).unwrap(), steps)
}

fn binary(steps: &[Step]) -> Vec<u8> {
    let mut out = Vec::new();
    for step in steps {
        match step {
            Step::Add { id, lits, hints } => format::write_binary_add(&mut out, *id, lits, hints),
            Step::Delete { ids } => format::write_binary_delete(&mut out, ids),
        }
    }
    out
}

/// Checks the tampered proof and returns the error text.
fn rejected(formula: &[u8], steps: &[Step]) -> String {
    match hexcert_lrat::check(formula, binary(steps).as_slice()) {
        Ok(summary) => panic!("a tampered proof was accepted: {summary:?}"),
        Err(e) => e.to_string(),
    }
}

/// The first addition with at least `hints` hints and a non-empty clause.
fn addition_with(steps: &[Step], hints: usize) -> usize {
    steps
        .iter()
        .position(|s| matches!(s, Step::Add { lits, hints: h, .. } if h.len() >= hints && !lits.is_empty()))
        .expect("such a step")
}

#[test]
fn tampering_with_a_real_lrat_proof_is_caught_and_the_step_named() {
    let (formula, steps) = real_proof();
    assert!(hexcert_lrat::check(&formula, binary(&steps).as_slice()).is_ok(), "the untouched proof must pass");

    let at = addition_with(&steps, 3);
    let mut flipped = steps.clone();
    if let Step::Add { lits, .. } = &mut flipped[at] {
        lits[0] = -lits[0];
    }
    let message = rejected(&formula, &flipped);
    assert!(message.contains("step"), "flipped literal: {message}");

    let mut missing = steps.clone();
    if let Step::Add { hints, .. } = &mut missing[at] {
        hints.pop();
    }
    assert!(rejected(&formula, &missing).contains("step"));

    let mut wrong = steps.clone();
    if let Step::Add { hints, .. } = &mut wrong[at] {
        hints[0] = 1;
    }
    let message = rejected(&formula, &wrong);
    assert!(message.contains("step"), "wrong hint: {message}");

    // Delete the first hint's clause just before the step that uses it.
    let mut deleted = steps.clone();
    if let Step::Add { hints, .. } = &steps[at] {
        deleted.insert(at, Step::Delete { ids: vec![hints[0] as u64] });
    }
    assert!(rejected(&formula, &deleted).contains("step"));

    let truncated = binary(&steps);
    let cut = &truncated[..truncated.len() - 3];
    assert!(hexcert_lrat::check(&formula, cut).is_err(), "a truncated proof was accepted");

    let empty_at = steps.iter().position(|s| matches!(s, Step::Add { lits, .. } if lits.is_empty())).expect("empty clause");
    let mut underived = steps[..empty_at].to_vec();
    if let Step::Add { id, .. } = &steps[empty_at] {
        underived.push(Step::Add { id: *id, lits: Vec::new(), hints: Vec::new() });
    }
    assert!(rejected(&formula, &underived).contains("step"));

    assert!(!rejected(&formula, &steps[..empty_at]).is_empty(), "a proof without the empty clause");
}

/// A trace cut short (the solver stopped before its answer: a race lost,
/// Ctrl-C) never ends in a checked empty clause, so it is never verified.
#[test]
fn a_trace_cut_short_is_not_verified() {
    let dir = scratch("cut");
    let encoding = claim_encoding(6, 3, 13);
    let mut online = OnlineCheck::start(encoding.cnf.to_dimacs(), &dir.join("proof.drat")).unwrap();
    let mut solver = Cadical::with_trace(online.sender());
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = calls.clone();
    solver.stop_when_any(move || counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed) > 20);
    solver.add_cnf(&encoding.cnf).unwrap();
    assert!(solver.solve().is_err(), "the solver was stopped");
    drop(solver);
    let (record, _) = online.finish(Instant::now()).unwrap();
    assert!(!record.verified, "{}", record.verdict);
    assert!(record.verdict.contains("NOT VERIFIED"), "{}", record.verdict);
}
