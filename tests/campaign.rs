//! A campaign's records judged as an adversary would leave them: forged cube
//! verdicts, a false claim merged from them, and two hosts sharing one
//! results directory. Why: `check` already refused to call forged records
//! verified, but `cubes status`, `cubes merge` and `certify` did not (an
//! audit made `certify` print a false optimum with exit 0); these tests
//! hold every command to the one rule of docs/SOUNDNESS.md, section 8.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{without_veripb, Scratch};

use hexcert::cubes::{cube_formula, Plan};
use hexcert::digest::sha256_hex;
use hexcert::records::{CubeResult, CubeVerdict, LratRecord};

/// Runs hexcert; returns (exit code, stdout and stderr).
fn hexcert(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert")).args(args).output().unwrap();
    (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Plans the claim (radius 1, depth 1: the plan `certify` makes) and runs its cubes.
fn plan_and_run(dir: &Path, level: u8, below: usize) -> (PathBuf, PathBuf) {
    let (plan, results) = (dir.join("plan.json"), dir.join("results"));
    let (level, below) = (level.to_string(), below.to_string());
    let args = ["cubes", "plan", "--n", "5", "--level", &level, "--below", &below, "--radius", "1", "--depth", "1"];
    let (code, text) = hexcert(&[&args[..], &["-o", s(&plan), "--results", s(&results)]].concat());
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = hexcert(&["cubes", "run", s(&plan), "--all", "--results", s(&results)]);
    assert!(matches!(code, Some(0) | Some(1)), "{text}");
    (plan, results)
}

/// Writes, for every cube not refuted, a record saying it was: the cube's
/// real formula hash (a forger can compute it), a made-up proof hash and an
/// LRAT block claiming `s VERIFIED`, no proof stored. Returns how many.
fn forge_refutations(plan_path: &Path, results: &Path) -> usize {
    let plan = Plan::read(plan_path).unwrap();
    let (encoding, split) = (plan.encoding().unwrap(), plan.split().unwrap());
    let lrat = LratRecord {
        checker: "hexcert-lrat".into(),
        version: "0.1.0".into(),
        how: hexcert::records::claim::ONLINE_LIFTED.into(),
        verified: true,
        verdict: "s VERIFIED".into(),
        steps: 10,
        added: 5,
        deleted: 0,
        hints: 9,
        cpu_seconds: 0.1,
        seconds_after_solve: 0.0,
    };
    let mut forged = 0;
    for (index, cube) in plan.cubes.iter().enumerate() {
        let path = hexcert::records::cube::result_path(results, &plan, index);
        let honest: Option<CubeResult> = std::fs::read(&path).ok().map(|b| serde_json::from_slice(&b).unwrap());
        if honest.as_ref().is_some_and(|r| r.verdict == CubeVerdict::Refuted) {
            continue;
        }
        let record = CubeResult {
            format: hexcert::records::RESULT_FORMAT.into(),
            formula_sha256: plan.formula_sha256.clone(),
            cells: plan.cells.clone(),
            cube: cube.clone(),
            cnf_sha256: sha256_hex(&cube_formula(&encoding, &split, cube).to_dimacs()),
            verdict: CubeVerdict::Refuted,
            proof_sha256: Some("ab".repeat(32)),
            lrat: Some(lrat.clone()),
            lrat_proof: None,
            counterexample: None,
            solve_seconds: 0.5,
            solve_cpu_seconds: None,
            peak_memory_kb: 1000,
            written_by: Some("forger".into()),
            solver_profile: None,
            verified_lrat: None,
        };
        std::fs::write(&path, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
        forged += 1;
    }
    forged
}

/// The audit case: n = 5 "level 1 below 11" is false (the minimum is 7).
/// With its satisfiable cubes' records forged to say refuted, `status` and
/// `merge` call no cube checked (exit 4), the merged claim names the
/// attested cubes, and `certify` does not end verified with optimum 11.
#[test]
fn forged_cube_verdicts_are_never_called_checked_and_certify_does_not_verify_a_false_optimum() {
    let scratch = Scratch::new("campaign-forged");
    let (plan, results) = plan_and_run(&scratch.0, 1, 11);
    assert!(forge_refutations(&plan, &results) > 0, "no cube of a false claim was satisfiable");
    let cubes = Plan::read(&plan).unwrap().cubes.len();

    let (code, text) = hexcert(&["cubes", "status", s(&plan), "--results", s(&results)]);
    assert_eq!(code, Some(4), "{text}");
    assert!(text.contains(&format!("0 refuted and checked in this run, {cubes} refuted and attested")), "{text}");

    let proofs = scratch.0.join("proofs");
    let (code, text) = hexcert(&["cubes", "merge", s(&plan), "--results", s(&results), "--proofs", s(&proofs)]);
    assert_eq!(code, Some(4), "{text}");
    assert!(text.contains(&format!("0 checked in this run, {cubes} attested")), "{text}");
    let claim_path = proofs.join("n5/level1-below11/claim.json");
    let claim: hexcert::records::CubeClaim = hexcert::records::read_json(&claim_path).unwrap();
    let attested = claim.attested.as_ref().unwrap();
    assert_eq!(attested.len(), cubes);
    assert!(attested.iter().any(|a| a.written_by == "forger"));
    assert!(claim.trust_base.last().unwrap().contains("cube 0 ("), "{:?}", claim.trust_base);
    let (code, text) = hexcert(&["check", s(&claim_path)]);
    assert_eq!(code, Some(4), "{text}");

    let (code, text) = hexcert(&["certify", "--n", "5", "--proofs", s(&proofs), "--no-race", "-q"]);
    assert_ne!(code, Some(0), "certify ended as if verified: {text}");
    let optimum_path = proofs.join("n5/optimum.json");
    if let Ok(bytes) = std::fs::read(&optimum_path) {
        let optimum: hexcert::records::Optimum = serde_json::from_slice(&bytes).unwrap();
        if optimum.optimum != 9 {
            assert!(
                optimum.attested.as_ref().is_some_and(|a| !a.is_empty()),
                "optimum {} written as verified: {text}",
                optimum.optimum
            );
            let (code, text) = hexcert(&["check", s(&optimum_path)]);
            assert_ne!(code, Some(0), "{text}");
        }
    }
}

/// A validated model below a bound some record claims proved stops
/// `certify`, names the record, and sets it aside (never kept, never
/// silently replaced): n = 5 "level 3 below 11" (the level-3 minimum is 9),
/// merged from forged records.
#[test]
fn a_model_below_a_claimed_bound_stops_certify_and_sets_the_claim_aside() {
    let scratch = Scratch::new("campaign-contradiction");
    let (plan, results) = plan_and_run(&scratch.0, 3, 11);
    forge_refutations(&plan, &results);
    let proofs = scratch.0.join("proofs");
    let (code, text) = hexcert(&["cubes", "merge", s(&plan), "--results", s(&results), "--proofs", s(&proofs)]);
    assert_eq!(code, Some(4), "{text}");
    let (code, text) = hexcert(&["certify", "--n", "5", "--proofs", s(&proofs), "--no-race", "-q"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("contradiction") && text.contains("level3-below11/claim.json"), "{text}");
    assert!(!proofs.join("n5/level3-below11").exists(), "the contradicted claim was kept");
    let aside: Vec<_> = std::fs::read_dir(proofs.join("n5/.quarantine")).unwrap().flatten().collect();
    assert!(aside.iter().any(|e| e.file_name().to_string_lossy().starts_with("level3-below11.")), "{text}");
    assert!(!proofs.join("n5/optimum.json").exists());
}

/// A job engine's retry of a finished job (`cubes run --index I` again)
/// reads the cube's record back and leaves it as it is; a record the plan
/// rejects is set aside and the cube solved again, by `--index` as by `--all`.
#[test]
fn a_finished_cube_is_not_solved_again_by_its_job() {
    let scratch = Scratch::new("campaign-retry");
    let (plan_path, results) = plan_and_run(&scratch.0, 3, 9);
    let plan = Plan::read(&plan_path).unwrap();
    let record = hexcert::records::cube::result_path(&results, &plan, 0);
    let before = std::fs::read(&record).unwrap();
    let (code, text) = hexcert(&["cubes", "run", s(&plan_path), "--index", "0", "--results", s(&results)]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("already recorded") && text.contains("not solved again"), "{text}");
    assert_eq!(std::fs::read(&record).unwrap(), before, "the record was rewritten");
    let mut edited: serde_json::Value = serde_json::from_slice(&before).unwrap();
    edited["cnf_sha256"] = serde_json::json!("0".repeat(64));
    std::fs::write(&record, serde_json::to_vec(&edited).unwrap()).unwrap();
    let (code, text) = hexcert(&["cubes", "run", s(&plan_path), "--index", "0", "--results", s(&results)]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("set aside") && !text.contains("already recorded"), "{text}");
    let solved: serde_json::Value = serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
    assert_eq!(solved["cnf_sha256"], serde_json::from_slice::<serde_json::Value>(&before).unwrap()["cnf_sha256"]);
}

/// A damaged record is set aside with a message, and the cube solved again.
#[test]
fn a_damaged_cube_record_is_set_aside_and_solved_again() {
    let scratch = Scratch::new("campaign-damaged");
    let (plan_path, results) = plan_and_run(&scratch.0, 3, 9);
    let plan = Plan::read(&plan_path).unwrap();
    let record = hexcert::records::cube::result_path(&results, &plan, 0);
    std::fs::write(&record, b"{\"format\": \"hexcert-cube-result/2\", \"truncated").unwrap();
    let (code, text) = hexcert(&["cubes", "status", s(&plan_path), "--results", s(&results)]);
    assert_eq!(code, Some(1), "{text}");
    let (code, text) = hexcert(&["cubes", "run", s(&plan_path), "--all", "--results", s(&results)]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("set aside"), "{text}");
    let (code, text) = hexcert(&["cubes", "status", s(&plan_path), "--results", s(&results)]);
    assert_eq!(code, Some(4), "attested, every cube decided: {text}");
    assert!(text.contains("0 rejected"), "{text}");
    assert_eq!(std::fs::read_dir(results.join(".quarantine")).unwrap().count(), 1);
}

/// Runs hexcert without VeriPB (neither on PATH nor the library); returns
/// (exit code, stdout and stderr).
fn hexcert_without_veripb(args: &[&str]) -> (Option<i32>, String) {
    let out = without_veripb(Command::new(env!("CARGO_BIN_EXE_hexcert")).args(args)).output().unwrap();
    (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// The audit case: without VeriPB, `certify --n 5` exited 0 on records that
/// `check` reports unverified (exit 4). certify reports what it verified in
/// its run: 4, and a line naming what is unverified and why, both when it
/// proves the claims and when it finds them from an earlier run.
#[test]
fn without_veripb_certify_exits_4_and_says_what_is_unverified() {
    let scratch = Scratch::new("campaign-no-veripb");
    let proofs = scratch.0.join("proofs");
    for round in ["proved", "resumed"] {
        let (code, text) = hexcert_without_veripb(&["certify", "--n", "5", "--proofs", s(&proofs), "-q"]);
        assert_eq!(code, Some(4), "{round}: {text}");
        assert!(
            text.contains("unverified") && text.contains("VeriPB") && text.contains("level3-below9"),
            "{round}: {text}"
        );
        let (code, text) = hexcert_without_veripb(&["check", s(&proofs)]);
        assert_eq!(code, Some(4), "{round}: {text}");
    }
}

/// The audit case: an optimum whose cube claims were unverified only for
/// lack of VeriPB was written with those claims as `attested` (cubes whose
/// proofs no run checked). Their proofs were checked; the optimum says so.
#[test]
fn claims_unverified_for_lack_of_veripb_are_not_called_attested() {
    let scratch = Scratch::new("campaign-not-attested");
    let proofs = scratch.0.join("proofs");
    let certify = ["certify", "--n", "5", "--cubes", "always", "--cubes-after", "0", "--proofs", s(&proofs), "-q"];
    let (code, text) = hexcert_without_veripb(&certify);
    assert!(matches!(code, Some(0) | Some(4)), "{text}");
    // A later run finds the cube claims on disk rather than merging them.
    std::fs::remove_file(proofs.join("n5/optimum.json")).unwrap();
    let (code, text) = hexcert_without_veripb(&certify);
    assert!(matches!(code, Some(0) | Some(4)), "{text}");
    let optimum: hexcert::records::Optimum = hexcert::records::read_json(&proofs.join("n5/optimum.json")).unwrap();
    assert_eq!(optimum.attested, None, "{text}");
    assert!(!text.contains("is attested"), "{text}");
}

/// The audit case: a campaign kept in `levelK-belowB/` before any claim is
/// merged there was moved to `.quarantine/` as "contradicted" once certify
/// found a model below B. With no claim there is nothing to contradict.
#[test]
fn a_campaign_directory_without_a_claim_is_not_set_aside() {
    let scratch = Scratch::new("campaign-no-claim");
    let proofs = scratch.0.join("proofs");
    let campaign = proofs.join("n5/level3-below10/campaign");
    std::fs::create_dir_all(&campaign).unwrap();
    std::fs::write(campaign.join("notes.txt"), "a campaign in progress\n").unwrap();
    let (code, text) = hexcert(&["certify", "--n", "5", "--proofs", s(&proofs), "-q"]);
    assert!(matches!(code, Some(0) | Some(4)), "{text}");
    assert!(campaign.join("notes.txt").exists(), "{text}");
    assert!(!text.contains("contradict"), "{text}");
}

/// The audit case: `cubes status` of a plan none of whose cubes has run yet
/// printed "total -0.0" (the sum of no f64 is -0.0).
#[test]
fn the_status_of_a_plan_with_no_results_prints_no_negative_zero() {
    let scratch = Scratch::new("campaign-status-empty");
    let (plan, results) = (scratch.0.join("plan.json"), scratch.0.join("results"));
    let args = ["cubes", "plan", "--n", "5", "--level", "3", "--below", "9", "-o", s(&plan), "--results", s(&results)];
    let (code, text) = hexcert(&args);
    assert_eq!(code, Some(0), "{text}");
    std::fs::create_dir_all(&results).unwrap();
    let (code, text) = hexcert(&["cubes", "status", s(&plan), "--results", s(&results)]);
    assert_eq!(code, Some(4), "{text}");
    assert!(text.contains("else wall): total 0.0,"), "{text}");
    assert!(!text.contains("-0.0"), "{text}");
}

/// `cubes status` of a plan whose every cube is refuted and checked exited
/// 0 with VeriPB absent, though the claim also rests on the statement ->
/// split formula step it had not checked: now that step is checked as merge
/// checks it, and without VeriPB the status is unverified (exit 4).
#[test]
fn the_status_of_a_finished_plan_without_veripb_is_unverified() {
    let scratch = Scratch::new("campaign-status-veripb");
    let (plan, results) = (scratch.0.join("plan.json"), scratch.0.join("results"));
    let (code, text) = hexcert(&[
        "cubes",
        "plan",
        "--n",
        "5",
        "--level",
        "3",
        "--below",
        "9",
        "-o",
        s(&plan),
        "--results",
        s(&results),
    ]);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = hexcert(&[
        "cubes",
        "run",
        s(&plan),
        "--all",
        "--jobs",
        "1",
        "--store-limit",
        "100000000",
        "--results",
        s(&results),
    ]);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = hexcert_without_veripb(&["cubes", "status", s(&plan), "--results", s(&results)]);
    assert_eq!(code, Some(4), "{text}");
    assert!(text.contains("statement -> split formula: not checked"), "{text}");
}
