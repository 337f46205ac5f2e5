//! The proof pipeline: CaDiCaL's trace is checked by the LRAT checker while
//! it is written, and its DRAT twin is what drat-trim and rate read.
//!
//! Why here and not in `lrat/`: these tests need the solver, which the
//! checker's own crate must never import. They show that (1) the DRAT file
//! hexcert writes from the trace is byte for byte the file CaDiCaL's own DRAT
//! writer produces in the same solve; (2) the LRAT checker's verdicts agree
//! with rate's on the DRAT twin, on the committed claims n = 3..7 and on a
//! proof of another formula; (3) tampering with a real LRAT proof is caught
//! and the message names the step; (4) the verified checker cake_lpr is
//! given every proof (stored, streamed while solving, regenerated) and
//! believed only on its exact acceptance.

use crate::common::{self, Scratch};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use hexcert::encoding::{EncodeOptions, LevelEncoding, SymmetryBreaking};
use hexcert::geometry::Hexagon;
use hexcert::proofs::online::OnlineCheck;
use hexcert::proofs::Checker;
use hexcert::solving::{Answer, Cadical, SatSolver};
use hexcert_lrat::format::{self, Step};

/// A scratch directory for this test, removed when it goes out of scope.
pub(crate) fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("lrat-{name}"))
}

fn claim_encoding(n: usize, level: u8, below: usize) -> LevelEncoding {
    let options =
        EncodeOptions { symmetry: SymmetryBreaking::Ring1LexLeader, ..EncodeOptions::bounded(Some(below - 1)) };
    LevelEncoding::new(&Hexagon::new(n).unwrap(), level, options)
}

/// Solves the claim with the online check; returns (verified, CNF, DRAT, LRAT).
fn solve_checked(
    dir: &Path,
    encoding: &LevelEncoding,
    also_cadical_drat: Option<&Path>,
) -> (bool, PathBuf, PathBuf, PathBuf) {
    let dimacs = encoding.cnf.to_dimacs();
    let cnf = dir.join("formula.cnf");
    std::fs::write(&cnf, &dimacs).unwrap();
    let mut online = OnlineCheck::start(dimacs, &dir.join("proof.drat")).unwrap();
    let mut solver = Cadical::with_trace(online.sender());
    if let Some(path) = also_cadical_drat {
        solver.also_trace_drat_file(path).unwrap();
    }
    solver.add_cnf(&encoding.cnf).unwrap();
    assert_eq!(solver.solve().unwrap(), Answer::Unsat);
    drop(solver);
    let finished = online.finish(Instant::now()).unwrap();
    (finished.lrat.verified, cnf, finished.drat.clone(), finished.drat.with_extension("lrat"))
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

/// One claim per side, the largest n = 7's level-1 minimum (n = 7 level 4,
/// which this test ran until 2026-11-28, took a minute of CI's twenty: its
/// size adds nothing the others do not show).
#[test]
fn lrat_verdicts_agree_with_rate_on_the_drat_twin_for_n3_to_n7() {
    for (n, level, below) in [(3, 2, 3), (4, 3, 3), (5, 3, 9), (6, 3, 13), (7, 1, 12)] {
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

    let empty_at =
        steps.iter().position(|s| matches!(s, Step::Add { lits, .. } if lits.is_empty())).expect("empty clause");
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
    let record = online.finish(Instant::now()).unwrap().lrat;
    assert!(!record.verified, "{}", record.verdict);
    assert!(record.verdict.contains("NOT VERIFIED"), "{}", record.verdict);
}

pub(crate) use crate::common::cake_lpr;

pub(crate) fn hexcert(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexcert")).current_dir(dir).args(args).output().unwrap()
}

pub(crate) fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Every stored LRAT proof under proofs/ is accepted by cake_lpr on its
/// formula, and a proof with one hint removed is not.
#[test]
fn cake_lpr_accepts_every_stored_lrat_proof_and_rejects_a_damaged_one() {
    let Some(program) = cake_lpr() else { return };
    let checker = hexcert::proofs::verified::VerifiedChecker::find(Some(&program)).unwrap().unwrap();
    let dir = scratch("cake-stored");
    let mut seen = 0;
    for n_dir in std::fs::read_dir("proofs").unwrap() {
        for claim in std::fs::read_dir(n_dir.unwrap().path()).unwrap() {
            let claim = claim.unwrap().path();
            let gz = claim.join("proof.lrat.gz");
            if !gz.exists() {
                continue;
            }
            let cnf = dir.join("formula.cnf");
            hexcert::compress::gunzip_file_limited(&claim.join("formula.cnf.gz"), &cnf, 1 << 30).unwrap();
            let verdict = checker.check_gz(&cnf, &gz).unwrap();
            assert!(verdict.verified_acceptance(), "{}: {}", claim.display(), verdict.verdict);
            seen += 1;
        }
    }
    assert!(seen >= 10, "only {seen} stored LRAT proofs found under proofs/");
    let (formula, mut steps) = real_proof();
    let at = addition_with(&steps, 2);
    if let Step::Add { hints, .. } = &mut steps[at] {
        hints.pop();
    }
    let (cnf, proof) = (dir.join("damaged.cnf"), dir.join("damaged.lrat"));
    std::fs::write(&cnf, &formula).unwrap();
    std::fs::write(&proof, binary(&steps)).unwrap();
    let verdict = checker.check_file(&cnf, &proof).unwrap();
    assert!(!verdict.verified_acceptance(), "cake_lpr accepted a proof with a hint removed");
    assert!(verdict.verdict.starts_with("s NOT VERIFIED"), "{}", verdict.verdict);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `check --cake-lpr` believes the program only on the exact line
/// `s VERIFIED UNSAT` with exit status 0, and says which.
#[test]
fn a_verified_checker_is_believed_only_on_its_exact_line_and_exit_0() {
    let dir = scratch("cake-fakes");
    let claim = std::fs::canonicalize("proofs/n5/level3-below9/claim.json").unwrap();
    let claim = claim.to_str().unwrap();
    // It reads the whole proof, as the real checker does, then answers.
    let fake = |name: &str, body: &str| checker_script(&dir, name, body);
    for (name, body) in [
        ("exit1", "echo 's VERIFIED UNSAT'; exit 1"),
        ("other-line", "echo 's VERIFIED'; exit 0"),
        ("silent", "exit 0"),
    ] {
        let out = hexcert(&dir, &["check", claim, "--cake-lpr", &fake(name, body)]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out));
        assert!(text(&out).contains("cake_lpr") && text(&out).contains("NOT VERIFIED"), "{name}: {}", text(&out));
    }
    let out = hexcert(&dir, &["check", claim, "--cake-lpr", &fake("yes", "echo 's VERIFIED UNSAT'; exit 0")]);
    assert!(text(&out).contains("cake_lpr: s VERIFIED UNSAT"), "{}", text(&out));
    assert_ne!(out.status.code(), Some(1), "{}", text(&out));
    let missing = hexcert(&dir, &["check", claim, "--cake-lpr", "/no/such/cake_lpr"]);
    assert_eq!(missing.status.code(), Some(2), "{}", text(&missing));
    assert_eq!(String::from_utf8_lossy(&missing.stderr).trim().lines().count(), 1, "{}", text(&missing));
    let keep = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .args(["check", claim, "--keep-verdicts"])
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert_eq!(keep.status.code(), Some(2), "--keep-verdicts without a checker: {}", text(&keep));
    let _ = std::fs::remove_dir_all(&dir);
}

/// cake_lpr killed while a cube's proof still streams into it (what the
/// kernel does to one that outgrows the memory) ends the run with a message
/// that says so and leaves the cube unverified (exit 4: the checker judged
/// nothing, so the proof is not rejected), never a death of the closed pipe
/// without a word (SIGPIPE, exit 141 in a shell). `cubes run`, not `check`:
/// the VeriPB library's Python ignores SIGPIPE in the runs that load it.
#[test]
fn a_checker_killed_mid_proof_is_reported_not_died_of() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("cake-killed");
    let killed = dir.join("killed");
    // It reads nothing: the proof's first megabyte meets a closed pipe.
    std::fs::write(&killed, "#!/bin/sh\nkill -9 $$\n").unwrap();
    std::fs::set_permissions(&killed, std::fs::Permissions::from_mode(0o755)).unwrap();
    let plan = dir.join("plan.json");
    let plan = plan.to_str().unwrap();
    assert!(hexcert(&dir, &["cubes", "plan", "--n", "7", "--level", "3", "--below", "16", "-o", plan, "-q"])
        .status
        .success());
    let out = hexcert(&dir, &["cubes", "run", plan, "--index", "0", "--cake-lpr", killed.to_str().unwrap()]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(4), "{said}");
    assert!(said.contains("was killed by a signal") && said.contains("killed by signal 9"), "{said}");
    assert!(!said.contains("rejected"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A plan of n = 6 level 3 below 13 solved as cubes, merged in `dir`; returns the claim's path.
pub(crate) fn merged_cube_claim(dir: &Path, cake: Option<&str>) -> PathBuf {
    let claim_dir = dir.join("proofs/n6/level3-below13");
    std::fs::create_dir_all(&claim_dir).unwrap();
    let plan = claim_dir.join("plan.json");
    let plan = plan.to_str().unwrap();
    assert!(hexcert(dir, &["cubes", "plan", "--n", "6", "--level", "3", "--below", "13", "-o", plan]).status.success());
    let mut run = vec!["-q", "cubes", "run", plan, "--all"];
    if let Some(program) = cake {
        run.extend(["--cake-lpr", program]);
    }
    let out = hexcert(dir, &run);
    assert!(out.status.success(), "{}", text(&out));
    // Exit 4: the merged cubes keep no proof, so they are attested until checked.
    let out = hexcert(dir, &["cubes", "merge", plan]);
    assert!(matches!(out.status.code(), Some(0 | 4)), "{}", text(&out));
    claim_dir.join("claim.json")
}

pub(crate) fn edit_claim(path: &Path, edit: impl FnOnce(&mut hexcert::records::CubeClaim)) {
    let mut claim: hexcert::records::CubeClaim = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    edit(&mut claim);
    claim.trust_base = hexcert::records::trust::trust_base(hexcert::records::trust::Basis::of_cube_claim(&claim));
    std::fs::write(path, serde_json::to_vec_pretty(&claim).unwrap()).unwrap();
}

/// `cubes run --cake-lpr` pipes each cube's proof to cake_lpr while it is
/// written and records its verdict; the merged claim names cake_lpr in its
/// trust base; `check --regenerate --keep-verdicts` re-checks only the cubes
/// without a verdict and writes theirs back (unverified: the rest are an
/// earlier run's word), and a plain `--regenerate` checks every cube itself.
#[test]
fn cube_proofs_piped_to_cake_lpr_are_recorded_and_a_recheck_resumes_per_cube() {
    let Some(program) = cake_lpr() else { return };
    let program = program.to_str().unwrap();
    let dir = scratch("cake-cubes");
    let path = merged_cube_claim(&dir, Some(program));
    let claim: hexcert::records::CubeClaim = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert!(claim
        .cubes
        .iter()
        .all(|c| c.verified_lrat.as_ref().is_some_and(hexcert::records::CheckerRecord::verified_acceptance)));
    assert!(claim.trust_base.iter().any(|item| item.contains("cake_lpr")), "{:#?}", claim.trust_base);
    edit_claim(&path, |claim| {
        claim.cubes[0].verified_lrat = None;
        claim.cubes[7].verified_lrat = None;
    });
    let shown = path.to_str().unwrap();
    let resumed = hexcert(&dir, &["check", "--regenerate", "--keep-verdicts", "--cake-lpr", program, shown]);
    assert_eq!(resumed.status.code(), Some(4), "{}", text(&resumed));
    assert!(text(&resumed).contains("2 cube proofs verified by cake_lpr in this run"), "{}", text(&resumed));
    assert!(text(&resumed).contains("48 cube proofs checked by earlier runs"), "{}", text(&resumed));
    let claim: hexcert::records::CubeClaim = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert!(claim.cubes.iter().all(|c| c.verified_lrat.is_some()), "the two verdicts were not written back");
    assert!(claim.trust_base.iter().any(|item| item.contains("cake_lpr")));
    // Two cubes at once, each piped to a cake_lpr of its own.
    let whole = hexcert(&dir, &["check", "--regenerate", "--jobs", "2", "--cake-lpr", program, shown]);
    assert_ne!(whole.status.code(), Some(1), "{}", text(&whole));
    assert!(text(&whole).contains("50 cube proofs verified by cake_lpr in this run"), "{}", text(&whole));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `check --regenerate --across-runs` spreads a cube claim's re-check over
/// runs: each cube re-solved and matched leaves a record in `reproduced/`;
/// a later run re-solves only the cubes no record holds, reports the claim
/// unverified (exit 4: not every cube was checked by it) and names the runs
/// that did which cubes; a record of another proof fails the claim; the
/// flag asks for --regenerate and refuses --keep-verdicts.
#[test]
fn a_recheck_spread_over_runs_reproduces_each_cube_once_and_names_the_runs() {
    let dir = scratch("across-runs");
    let path = merged_cube_claim(&dir, None);
    let shown = path.to_str().unwrap();
    let records = path.parent().unwrap().join("reproduced");
    let first = hexcert(&dir, &["check", "--regenerate", "--across-runs", shown]);
    let plain = hexcert(&dir, &["check", "--regenerate", shown]);
    assert_eq!(first.status.code(), plain.status.code(), "{}", text(&first));
    assert!(text(&first).contains("every cube reproduced (50 in this run, 0 by earlier runs)"), "{}", text(&first));
    assert_eq!(std::fs::read_dir(&records).unwrap().count(), 50);
    for cube in [0, 7] {
        std::fs::remove_file(records.join(format!("cube-{cube}.json"))).unwrap();
    }
    let second = hexcert(&dir, &["check", "--regenerate", "--across-runs", shown]);
    let said = text(&second);
    assert_eq!(second.status.code(), Some(4), "{said}");
    assert!(said.contains("2 re-solved with their traces verified and DRAT hashes matched, 48 not checked"), "{said}");
    assert!(said.contains("every cube reproduced (2 in this run, 48 by earlier runs)"), "{said}");
    assert!(!said.contains("run with --regenerate to re-solve"), "{said}");
    let runs: Vec<&str> = said.lines().filter(|l| l.contains("reproduced by ")).collect();
    assert_eq!(runs.len(), 2, "{said}");
    assert!(runs.iter().any(|l| l.contains(": 2 cubes (0, 7), ")), "{said}");
    assert!(runs.iter().any(|l| l.contains(": 48 cubes (1-6, 8-49), ")), "{said}");
    let third = records.join("cube-3.json");
    let mut record: serde_json::Value = serde_json::from_slice(&std::fs::read(&third).unwrap()).unwrap();
    record["proof_sha256"] = serde_json::Value::String("0".repeat(64));
    std::fs::write(&third, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
    let other = hexcert(&dir, &["check", "--regenerate", "--across-runs", shown]);
    assert_eq!(other.status.code(), Some(1), "{}", text(&other));
    assert!(text(&other).contains("cube-3.json"), "{}", text(&other));
    let alone = hexcert(&dir, &["check", "--across-runs", shown]);
    assert_eq!(alone.status.code(), Some(2), "{}", text(&alone));
    let both = hexcert(&dir, &["check", "--regenerate", "--across-runs", "--keep-verdicts", shown]);
    assert_eq!(both.status.code(), Some(2), "{}", text(&both));
    assert!(text(&both).contains("cannot be used with"), "{}", text(&both));
    // A run stopped part-way (here by cube 5's unknown profile) still says what it reproduced.
    std::fs::remove_dir_all(&records).unwrap();
    edit_claim(&path, |claim| claim.cubes[5].solver_profile = Some("no-such-profile".into()));
    let stopped = hexcert(&dir, &["check", "--regenerate", "--across-runs", shown]);
    assert_eq!(stopped.status.code(), Some(1), "{}", text(&stopped));
    assert!(text(&stopped).contains("no-such-profile"), "{}", text(&stopped));
    assert!(
        text(&stopped).contains("5 of 50 cubes reproduced (5 in this run, 0 by earlier runs)"),
        "{}",
        text(&stopped)
    );
    assert_eq!(std::fs::read_dir(&records).unwrap().count(), 5);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `check --regenerate --jobs 3` re-solves the cubes of a claim three at a
/// time and says what one at a time says; a cube that fails on one worker
/// fails the claim (the others' books kept), and `--jobs` asks for
/// `--regenerate`.
#[test]
fn cubes_regenerated_at_once_verify_as_one_at_a_time() {
    let dir = scratch("jobs");
    let path = merged_cube_claim(&dir, None);
    let shown = path.to_str().unwrap();
    let said = |out: &std::process::Output| {
        text(out)
            .lines()
            .filter(|l| !l.contains(" s") && !l.starts_with("check: cube"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let one = hexcert(&dir, &["check", "--regenerate", shown]);
    let three = hexcert(&dir, &["check", "--regenerate", "--jobs", "3", shown]);
    assert_ne!(three.status.code(), Some(1), "{}", text(&three));
    assert_eq!(three.status.code(), one.status.code(), "{}", text(&three));
    assert!(
        text(&three).contains("50 re-solved with their traces verified and DRAT hashes matched, 0 not checked"),
        "{}",
        text(&three)
    );
    assert_eq!(said(&three), said(&one));
    edit_claim(&path, |claim| claim.cubes[5].solver_profile = Some("no-such-profile".into()));
    let failed = hexcert(&dir, &["check", "--regenerate", "--jobs", "3", shown]);
    assert_eq!(failed.status.code(), Some(1), "{}", text(&failed));
    assert!(text(&failed).contains("no-such-profile"), "{}", text(&failed));
    let alone = hexcert(&dir, &["check", "--jobs", "2", shown]);
    assert_eq!(alone.status.code(), Some(2), "{}", text(&alone));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A cube is re-solved with the profile its record names, and one that
/// names none with the solver's defaults (it predates profiles): so
/// records stripped of their profile no longer regenerate (some cube's
/// trace differs under the defaults), and an unknown profile is refused.
#[test]
fn cube_regeneration_solves_with_the_profile_each_record_names() {
    let dir = scratch("profiles");
    let path = merged_cube_claim(&dir, None);
    let shown = path.to_str().unwrap();
    let named = hexcert(&dir, &["check", "--regenerate", shown]);
    assert_ne!(named.status.code(), Some(1), "{}", text(&named));
    let original = std::fs::read(&path).unwrap();
    edit_claim(&path, |claim| claim.cubes.iter_mut().for_each(|c| c.solver_profile = None));
    let defaults = hexcert(&dir, &["check", "--regenerate", shown]);
    assert_eq!(defaults.status.code(), Some(1), "{}", text(&defaults));
    assert!(text(&defaults).contains("regenerated DRAT proof has sha256"), "{}", text(&defaults));
    std::fs::write(&path, &original).unwrap();
    edit_claim(&path, |claim| claim.cubes[0].solver_profile = Some("no-such-profile".into()));
    let unknown = hexcert(&dir, &["check", "--regenerate", shown]);
    assert_eq!(unknown.status.code(), Some(1), "{}", text(&unknown));
    assert!(text(&unknown).contains("unknown solver profile `no-such-profile`"), "{}", text(&unknown));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A copy of proofs/n5 in `dir` whose level-3 claim holds no verified
/// checker's verdict (the committed one may); its path and the claim.
fn n5_level3_without_verdict(dir: &Path) -> (PathBuf, hexcert::records::Claim) {
    common::copy_dir(Path::new("proofs/n5"), &dir.join("proofs/n5"));
    let claim = dir.join("proofs/n5/level3-below9/claim.json");
    let mut bare: hexcert::records::Claim = serde_json::from_slice(&std::fs::read(&claim).unwrap()).unwrap();
    bare.verified_lrat = None;
    bare.trust_base =
        hexcert::records::trust::trust_base(hexcert::records::trust::Basis::of_claim(&bare, &bare.encode_options()));
    std::fs::write(&claim, serde_json::to_vec_pretty(&bare).unwrap()).unwrap();
    (claim, bare)
}

/// `check --keep-verdicts` on a whole claim with a stored proof records
/// cake_lpr's acceptance in the claim (and the trust base item it allows);
/// the next such run takes it as an earlier run's word (exit 4), a plain
/// `check` still verifies the claim as before.
#[test]
fn a_claims_cake_lpr_verdict_is_kept_and_named_in_its_trust_base() {
    let Some(program) = cake_lpr() else { return };
    let program = program.to_str().unwrap();
    let dir = scratch("cake-keep");
    let (claim, _) = n5_level3_without_verdict(&dir);
    let shown = claim.to_str().unwrap();
    let first = hexcert(&dir, &["check", "--keep-verdicts", "--cake-lpr", program, shown]);
    assert!(text(&first).contains("its verdict recorded in the claim"), "{}", text(&first));
    assert_ne!(first.status.code(), Some(1), "{}", text(&first));
    let kept: hexcert::records::Claim = serde_json::from_slice(&std::fs::read(&claim).unwrap()).unwrap();
    assert!(kept.verified_lrat.as_ref().is_some_and(hexcert::records::CheckerRecord::verified_acceptance));
    assert!(kept.trust_base.iter().any(|item| item.contains("cake_lpr")), "{:#?}", kept.trust_base);
    let again = hexcert(&dir, &["check", "--keep-verdicts", "--cake-lpr", program, shown]);
    assert_eq!(again.status.code(), Some(4), "{}", text(&again));
    assert!(text(&again).contains("accepted the proof in an earlier run"), "{}", text(&again));
    let plain = hexcert(&dir, &["check", shown]);
    assert_ne!(plain.status.code(), Some(1), "{}", text(&plain));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dir/name`, an executable that reads its proof (its second argument)
/// to the end, as cake_lpr does, then runs `body`; returns its path.
fn checker_script(dir: &Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\ncat \"$2\" > /dev/null\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_string()
}

/// A program standing in for cake_lpr that, while it reads its proof, has
/// `claim` replaced by `variant` (another command's write landing mid-run,
/// as a `cubes merge` of the same claim), then accepts.
fn accepting_checker_that_replaces(dir: &Path, claim: &Path, variant: &Path) -> String {
    let body = format!("cp '{}' '{}'\necho 's VERIFIED UNSAT'\nexit 0", variant.display(), claim.display());
    checker_script(dir, "cake_lpr-and-a-merge", &body)
}

/// The audit case: `check --keep-verdicts` wrote back the copy of
/// claim.json it read at its start, so a `cubes merge` of the same claim
/// that landed meanwhile was silently reverted. No command writes back a
/// record it did not re-read: the file is compared before it is replaced,
/// and a changed one is left as the other command wrote it (the record
/// reported unverified, exit 4, with a line saying why), for a whole claim
/// and for a cube claim alike.
#[test]
fn keep_verdicts_never_reverts_a_claim_written_meanwhile() {
    let dir = scratch("keep-vs-merge");
    let (whole, mut bare) = n5_level3_without_verdict(&dir);
    bare.solver.seconds += 1.0;
    let whole_variant = dir.join("whole-variant.json");
    std::fs::write(&whole_variant, serde_json::to_vec_pretty(&bare).unwrap()).unwrap();

    let cubes = dir.join("cubes");
    std::fs::create_dir_all(&cubes).unwrap();
    let ok = |out: Output| assert!(matches!(out.status.code(), Some(0 | 4)), "{}", text(&out));
    ok(hexcert(&cubes, &["-q", "cubes", "plan", "--n", "5", "--level", "3", "--below", "9", "-o", "plan.json"]));
    ok(hexcert(&cubes, &["-q", "cubes", "run", "plan.json", "--all", "--store-limit", "100000000"]));
    ok(hexcert(&cubes, &["-q", "cubes", "merge", "plan.json", "--proofs", "proofs"]));
    let merged = cubes.join("proofs/n5/level3-below9/claim.json");
    // With cake_lpr on PATH the cubes hold a known build's verdicts, which the script's never replaces.
    edit_claim(&merged, |claim| claim.cubes.iter_mut().for_each(|cube| cube.verified_lrat = None));
    let mut again: hexcert::records::CubeClaim = serde_json::from_slice(&std::fs::read(&merged).unwrap()).unwrap();
    again.solve_seconds += 1.0;
    let cube_variant = dir.join("cube-variant.json");
    std::fs::write(&cube_variant, serde_json::to_vec_pretty(&again).unwrap()).unwrap();

    for (claim, variant) in [(&whole, &whole_variant), (&merged, &cube_variant)] {
        let checker = accepting_checker_that_replaces(&dir, claim, variant);
        let out = hexcert(&dir, &["check", "--keep-verdicts", "--cake-lpr", &checker, claim.to_str().unwrap()]);
        assert_eq!(
            std::fs::read(claim).unwrap(),
            std::fs::read(variant).unwrap(),
            "the claim written meanwhile was reverted: {}",
            text(&out)
        );
        assert!(text(&out).contains("changed on disk since this run read it"), "{}", text(&out));
        assert_eq!(out.status.code(), Some(4), "{}", text(&out));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program that answers as cake_lpr would, after reading its proof: what
/// `--cake-lpr` was once believed on (a two-line shell script).
fn script_posing_as_cake_lpr(dir: &Path) -> String {
    checker_script(dir, "not-cake_lpr", "echo 's VERIFIED UNSAT'")
}

/// The audit case: a two-line shell script given as `--cake-lpr` was
/// recorded as the formally verified checker (its trust base item and
/// all), and a verdict copied from another claim passed `check`. Now a
/// verdict records the SHA-256 of the formula and the LRAT proof it read
/// and of the binary that ran: an unknown binary's is recorded as an
/// "unknown build" and counts in no trust base; one copied onto a claim
/// whose formula it did not read is refused; and plain `check` reports a
/// recorded verdict as recorded, not checked in its run (one that predates
/// the hashes, as attested only).
#[test]
fn a_verified_checkers_verdict_is_bound_to_its_formula_proof_and_build() {
    let dir = scratch("cake-bound");
    let (three, _) = n5_level3_without_verdict(&dir);
    let two = dir.join("proofs/n5/level2-below8/claim.json");
    // A verdict as recorded before verdicts were bound: without `read`.
    let mut older: hexcert::records::Claim = serde_json::from_slice(&std::fs::read(&two).unwrap()).unwrap();
    older.verified_lrat.as_mut().expect("the committed claim holds a cake_lpr verdict").read = None;
    std::fs::write(&two, serde_json::to_vec_pretty(&older).unwrap()).unwrap();
    let plain = hexcert(&dir, &["check", two.to_str().unwrap()]);
    assert!(
        text(&plain).contains("recorded without the hashes of what it read: attested only; not checked in this run"),
        "{}",
        text(&plain)
    );

    let script = script_posing_as_cake_lpr(&dir);
    let kept = hexcert(&dir, &["check", "--keep-verdicts", "--cake-lpr", &script, three.to_str().unwrap()]);
    assert!(
        text(&kept).contains("its verdict recorded in the claim") && text(&kept).contains("unknown build"),
        "{}",
        text(&kept)
    );
    let claim: hexcert::records::Claim = serde_json::from_slice(&std::fs::read(&three).unwrap()).unwrap();
    let verdict = claim.verified_lrat.clone().expect("the verdict was recorded");
    let read = verdict.read.clone().expect("with what it read");
    assert_eq!(read.build, "unknown build");
    assert_eq!(read.formula_sha256, claim.cnf.sha256);
    assert_eq!(Some(&read.lrat_sha256), claim.lrat_proof.as_ref().map(|f| &f.sha256));
    assert_eq!(read.checker_sha256, hexcert::digest::sha256_file(Path::new(&script)).unwrap());
    assert!(
        !claim.trust_base.iter().any(|item| item.contains("cake_lpr")),
        "a script named in the trust base: {:#?}",
        claim.trust_base
    );
    let plain = hexcert(&dir, &["check", three.to_str().unwrap()]);
    assert!(text(&plain).contains("recorded by unknown build"), "{}", text(&plain));
    assert_ne!(plain.status.code(), Some(1), "{}", text(&plain));

    // The same verdict copied onto the level-2 claim, whose CNF it never read.
    let mut other: hexcert::records::Claim = serde_json::from_slice(&std::fs::read(&two).unwrap()).unwrap();
    other.verified_lrat = Some(verdict.clone());
    other.trust_base =
        hexcert::records::trust::trust_base(hexcert::records::trust::Basis::of_claim(&other, &other.encode_options()));
    std::fs::write(&two, serde_json::to_vec_pretty(&other).unwrap()).unwrap();
    let copied = hexcert(&dir, &["check", two.to_str().unwrap()]);
    assert_eq!(copied.status.code(), Some(1), "{}", text(&copied));
    assert!(text(&copied).contains("read the formula"), "{}", text(&copied));
    // Named a known build it is not: refused too.
    let mut forged = verdict;
    forged.read.as_mut().unwrap().build = hexcert::records::claim::KNOWN_VERIFIED_BUILDS[0].1.into();
    let mut claim = claim;
    claim.verified_lrat = Some(forged);
    claim.trust_base =
        hexcert::records::trust::trust_base(hexcert::records::trust::Basis::of_claim(&claim, &claim.encode_options()));
    std::fs::write(&three, serde_json::to_vec_pretty(&claim).unwrap()).unwrap();
    let forged = hexcert(&dir, &["check", three.to_str().unwrap()]);
    assert_eq!(forged.status.code(), Some(1), "{}", text(&forged));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The cake_lpr this machine builds from ../shared/tools/cake_lpr (and CI
/// puts on PATH) is a known build, and its verdicts say so.
#[test]
fn the_cake_lpr_built_here_is_a_known_build() {
    let Some(program) = cake_lpr() else { return };
    let checker = hexcert::proofs::verified::VerifiedChecker::find(Some(&program)).unwrap().unwrap();
    assert_ne!(
        checker.build,
        "unknown build",
        "{} (sha256 {}) is not in KNOWN_VERIFIED_BUILDS",
        program.display(),
        checker.sha256
    );
}

/// The audit case: `check --keep-verdicts --cake-lpr OTHER` wrote OTHER's
/// acceptance (an unknown build's) over the one a known build recorded,
/// taking cake_lpr out of the trust base, exit 0 and no word: in a whole
/// claim and in every cube of a cube claim. A known build's verdict is never
/// replaced by one that counts in no trust base, and the run says what it
/// kept and why.
#[test]
fn keep_verdicts_never_replaces_a_known_builds_acceptance_with_an_unknown_ones() {
    let dir = scratch("keep-known");
    common::copy_dir(Path::new("proofs/n5"), &dir.join("proofs/n5"));
    let whole = dir.join("proofs/n5/level3-below9/claim.json");
    let before = std::fs::read(&whole).unwrap();
    let read =
        |path: &Path| -> hexcert::records::Claim { serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap() };
    assert!(
        read(&whole).verified_lrat.as_ref().is_some_and(hexcert::records::CheckerRecord::counts_as_verified),
        "the committed claim holds a known build's acceptance"
    );
    let script = script_posing_as_cake_lpr(&dir);
    let out = hexcert(&dir, &["check", "--keep-verdicts", "--cake-lpr", &script, whole.to_str().unwrap()]);
    assert_ne!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(std::fs::read(&whole).unwrap(), before, "the known build's verdict was replaced: {}", text(&out));
    assert!(text(&out).contains("the claim kept the cake_lpr acceptance recorded by cake_lpr of"), "{}", text(&out));
    assert!(!text(&out).contains("its verdict recorded in the claim"), "{}", text(&out));

    let Some(program) = cake_lpr() else { return };
    let cubes = merged_cube_claim(&dir, Some(program.to_str().unwrap()));
    let before = std::fs::read(&cubes).unwrap();
    let out =
        hexcert(&dir, &["check", "--regenerate", "--keep-verdicts", "--cake-lpr", &script, cubes.to_str().unwrap()]);
    assert_ne!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(std::fs::read(&cubes).unwrap(), before, "the known build's verdicts were replaced: {}", text(&out));
    assert!(
        text(&out).contains("50 of 50 cubes kept the cake_lpr acceptance recorded by cake_lpr of"),
        "{}",
        text(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
