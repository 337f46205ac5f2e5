//! `cubes run --sample` and `cubes estimate`: a seeded random sample of a
//! plan's cubes is solved, and the claim's cost extrapolated from it. Why:
//! the cost table of the open claims rests on these two commands, so the
//! sample must be the one the seed names (the same cubes on every machine),
//! the estimate must count exactly the sampled records, and a sample with
//! cubes still unsolved must not pass as a finished estimate.

use std::process::Command;

use crate::common::Scratch;
use hexcert::cubes::estimate::{grade, graded_sample, sample};
use hexcert::cubes::Plan;

fn run_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hexcert")).current_dir(dir).args(args).output().unwrap()
}

/// A scratch directory holding the plan of n = 6's level 3 below 13 at depth 2 (476 cubes of 13 grades).
fn n6_plan(name: &str) -> (Scratch, Plan) {
    let scratch = Scratch::new(name);
    let planned = run_in(
        &scratch.0,
        &["cubes", "plan", "--n", "6", "--level", "3", "--below", "13", "--depth", "2", "-o", "plan.json", "-q"],
    );
    assert!(planned.status.success(), "{}", String::from_utf8_lossy(&planned.stderr));
    let plan = Plan::read(&scratch.0.join("plan.json")).unwrap();
    (scratch, plan)
}

#[test]
fn the_seeded_sample_is_solved_and_estimated_and_an_unsolved_sample_is_unverified() {
    let (scratch, plan) = n6_plan("estimate");
    let dir = &scratch.0;
    let hexcert = |args: &[&str]| run_in(dir, args);
    assert!(plan.cubes.len() > 20, "the plan must be larger than the samples for the test to show anything");
    let (drawn, other) = (sample(&plan, 6, 7), sample(&plan, 6, 8));
    assert_eq!(drawn, sample(&plan, 6, 7), "the same seed draws the same cubes");
    assert_ne!(drawn, other, "another seed draws other cubes");
    assert!(drawn.iter().all(|&i| i < plan.cubes.len()) && drawn.len() == 6);

    let run =
        hexcert(&["cubes", "run", "plan.json", "--sample", "6", "--seed", "7", "--results", "res", "-q", "--json"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let ran: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(ran["solved"], 6, "{ran}");
    let records = std::fs::read_dir(dir.join("res"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "json"))
        .count();
    assert_eq!(records, 6, "exactly the sampled cubes were solved");

    let estimate = |seed: &str| {
        let out =
            hexcert(&["cubes", "estimate", "plan.json", "--results", "res", "--sample", "6", "--seed", seed, "--json"]);
        (out.status.code(), serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap())
    };
    let (code, found) = estimate("7");
    assert_eq!(code, Some(0), "{found}");
    let e = &found["estimate"];
    assert_eq!(
        (e["cubes"].as_u64(), e["sampled"].as_u64(), e["censored"].as_u64()),
        (Some(plan.cubes.len() as u64), Some(6), Some(0)),
        "{found}"
    );
    let (min, median, max, total) = (
        e["min"].as_f64().unwrap(),
        e["median"].as_f64().unwrap(),
        e["max"].as_f64().unwrap(),
        e["total"].as_f64().unwrap(),
    );
    assert!(min <= median && median <= max && total >= max && e["low"].as_f64().unwrap() <= total, "{found}");
    // Counted at the solver's CPU, which every new record keeps beside the wall clock.
    let paths: Vec<_> = std::fs::read_dir(dir.join("res"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    let read = |p: &std::path::Path| serde_json::from_slice::<serde_json::Value>(&std::fs::read(p).unwrap()).unwrap();
    let cpu: Vec<f64> =
        paths.iter().map(|p| read(p)["solve_cpu_seconds"].as_f64().expect("the solver's CPU recorded")).collect();
    assert!(
        paths
            .iter()
            .all(|p| read(p)["solve_cpu_seconds"].as_f64() <= read(p)["solve_seconds"].as_f64().map(|w| w + 0.01)),
        "CPU above the wall clock"
    );
    assert_eq!(max, cpu.iter().copied().fold(0.0, f64::max), "{found}");
    assert_eq!(found["wall_clock_only"], 0, "{found}");
    // A record from before the CPU was kept counts at its wall clock, and is counted as such.
    let mut old = read(&paths[0]);
    old.as_object_mut().unwrap().remove("solve_cpu_seconds");
    old["solve_seconds"] = serde_json::json!(1000.0);
    std::fs::write(&paths[0], serde_json::to_vec_pretty(&old).unwrap()).unwrap();
    let (code, found) = estimate("7");
    assert_eq!(
        (code, found["wall_clock_only"].as_u64(), found["estimate"]["max"].as_f64()),
        (Some(0), Some(1), Some(1000.0)),
        "{found}"
    );
    // Another seed's sample shares at most some cubes with this one: the rest have no record.
    let (code, found) = estimate("8");
    let without = found["sample_without_record"].as_array().unwrap().len();
    assert_eq!(without, other.iter().filter(|i| !drawn.contains(i)).count(), "{found}");
    assert!(without > 0 && code == Some(4), "an unsolved sample is unverified: {found}");
}

/// `cubes run --refine`: cubes the time limit stops are split and their
/// pieces solved, round after round; the refined plan is written, keeps the
/// records of every cube it did not split, and once its last cubes are
/// solved it merges into a claim that `check` verifies.
#[test]
fn the_refining_run_splits_what_the_limit_stops_and_its_plan_merges_into_a_checked_claim() {
    let scratch = Scratch::new("refining");
    let dir = &scratch.0;
    let hexcert =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_hexcert")).current_dir(dir).args(args).output().unwrap();
    let said = |out: &std::process::Output| {
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    };
    // n = 5 (34 cubes, 289 after the rounds): n = 6's 3 rounds took 3 CPU
    // minutes of CI's 20 to show the same.
    let planned = hexcert(&["cubes", "plan", "--n", "5", "--level", "3", "--below", "9", "-o", "plan.json", "-q"]);
    assert!(planned.status.success(), "{}", said(&planned));
    // A limit no cube meets: every round splits, and the bisections run out
    // of budget to split before the rounds do.
    let run = hexcert(&[
        "cubes",
        "run",
        "plan.json",
        "--all",
        "--time-limit",
        "0.000001",
        "--refine",
        "cardinality",
        "--tree-depth",
        "2",
        "--rounds",
        "3",
        "-o",
        "refined.json",
        "--results",
        "res",
        "--store-limit",
        "100000000",
        "--json",
        "-q",
    ]);
    assert!(run.status.success(), "{}", said(&run));
    let ran: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!((ran["rounds"].as_u64(), ran["plan"].as_str()), (Some(3), Some("refined.json")), "{ran}");
    let (plan, refined) = (Plan::read(&dir.join("plan.json")).unwrap(), Plan::read(&dir.join("refined.json")).unwrap());
    assert!(
        refined.cubes.len() > plan.cubes.len() && refined.cubes.iter().any(|c| c.literals.len() >= 4),
        "two splits of depth 2 below some cube"
    );
    refined.check_cover().expect("the refined plan covers");
    // Solved without a limit, the refined plan's cubes are all refuted, with stored proofs.
    let finish =
        hexcert(&["cubes", "run", "refined.json", "--all", "--results", "res", "--store-limit", "100000000", "-q"]);
    assert!(finish.status.success(), "{}", said(&finish));
    // Verified (0) only where VeriPB checks the statement -> split formula step.
    let expected = Some(if crate::common::veripb_present() { 0 } else { 4 });
    let merged = hexcert(&["cubes", "merge", "refined.json", "--results", "res", "--proofs", "proofs"]);
    assert_eq!(merged.status.code(), expected, "{}", said(&merged));
    let checked = hexcert(&["check", "proofs"]);
    assert_eq!(checked.status.code(), expected, "{}", said(&checked));
}

/// `cubes run --sample --graded` and `cubes estimate --graded`: one cube per
/// grade, the second most open grade first, and the line through their
/// costs forecasts the rest. Why: the open claims' cost table is chosen by
/// these estimates, and a random sample of three misses the dear cubes.
#[test]
fn a_graded_sample_takes_one_cube_per_grade_and_its_estimate_fits_a_line() {
    let (scratch, plan) = n6_plan("graded");
    let dir = &scratch.0;
    let hexcert = |args: &[&str]| run_in(dir, args);
    let mut grades: Vec<u32> = (0..plan.cubes.len()).map(|i| grade(&plan, i)).collect();
    grades.sort_unstable();
    grades.dedup();
    let drawn = graded_sample(&plan, 4, 1).unwrap();
    let drawn_grades: Vec<u32> = drawn.iter().map(|&i| grade(&plan, i)).collect();
    let top = grades.len() - 1;
    assert_eq!(
        drawn_grades,
        vec![grades[top - 1], grades[top - 2], grades[top - 3], grades[top - 4]],
        "one cube per grade, the most open left out"
    );
    assert_ne!(graded_sample(&plan, 4, 1), graded_sample(&plan, 4, 2), "the seed draws within a grade");

    let run = hexcert(&["cubes", "run", "plan.json", "--sample", "4", "--graded", "--results", "res", "-q", "--json"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let recorded = || {
        std::fs::read_dir(dir.join("res"))
            .map_or(0, |d| d.filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "json")).count())
    };
    assert_eq!(recorded(), 4, "exactly the graded sample was solved");
    let out = hexcert(&["cubes", "estimate", "plan.json", "--results", "res", "--sample", "4", "--graded", "--json"]);
    let found: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{found}");
    let e = &found["estimate"];
    assert_eq!((e["sampled"].as_u64(), e["fit"]["grades"].as_u64()), (Some(4), Some(4)), "{found}");
    assert!(
        e["fit"]["factor_per_grade"].as_f64().unwrap() > 0.0
            && e["low"].as_f64() <= e["total"].as_f64()
            && e["total"].as_f64() <= e["high"].as_f64(),
        "{found}"
    );
    assert!(e["total"].as_f64().unwrap() >= e["measured"].as_f64().unwrap(), "{found}");
    // `cubes status` forecasts the unsolved cubes the same way: on one machine, the graded total.
    let status = hexcert(&["cubes", "status", "plan.json", "--results", "res", "--machines", "1", "--json"]);
    let status: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["forecast_along_grades"], true, "{status}");
    let predicted = status["predicted_wall_seconds"].as_f64().unwrap();
    assert!((predicted - e["total"].as_f64().unwrap()).abs() <= 1e-6 * predicted.max(1.0), "{status} against {found}");

    // More cubes than grades: refused in one line, nothing solved.
    let refused = hexcert(&[
        "cubes",
        "run",
        "plan.json",
        "--sample",
        &(grades.len() + 1).to_string(),
        "--graded",
        "--results",
        "res",
        "-q",
    ]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert_eq!((refused.status.code(), said.trim().lines().count()), (Some(2), 1), "{said}");
    assert!(said.contains("one cube per grade"), "{said}");
    assert_eq!(recorded(), 4);
    // Two cubes fix no line with a residual: the estimate says so.
    let short = hexcert(&["cubes", "estimate", "plan.json", "--results", "res", "--sample", "2", "--graded"]);
    assert_eq!(short.status.code(), Some(2), "{}", String::from_utf8_lossy(&short.stderr));
}
