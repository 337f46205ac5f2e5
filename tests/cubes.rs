//! The value cubes of a claim against independent facts: the cover check on
//! the planner's output and on damaged cube lists, the local refutation
//! rules against every optimal partial the solver finds, and the orbit sums
//! of the kept cubes against the known counts.

use std::collections::HashMap;

use hexcert::cubes::{check_cover, cube_formula, refute, value_cubes, Split};
use hexcert::encoding::{EncodeOptions, LevelEncoding};
use hexcert::geometry::Hexagon;
use hexcert::solving::search::{accept_model, enumerate};
use hexcert::solving::{Cadical, Outcome, SatSolver};

/// (n, level, minimum penalty, number of partials at the minimum), from the published table.
const CASES: [(usize, u8, usize, usize); 5] = [(4, 2, 2, 6), (4, 3, 3, 28), (5, 2, 8, 48), (5, 3, 9, 360), (6, 3, 13, 276)];

fn splits(n: usize, level: u8) -> Vec<(usize, u8)> {
    let mut splits = vec![(0, level), (1, 1)];
    if level >= 2 {
        splits.push((1, 2));
    }
    if n >= 5 {
        splits.push((2, 1));
    }
    splits
}

#[test]
fn every_projection_is_refuted_or_the_image_of_a_kept_cube_n4_to_n7() {
    for n in 4..=7 {
        let hex = Hexagon::new(n).unwrap();
        for (level, below) in [(2, 3 * n), (3, 3 * n)] {
            for (radius, depth) in splits(n, level) {
                let plan = value_cubes(&hex, level, below, radius, depth).unwrap();
                let cover = check_cover(&hex, &plan.split, below, &plan.cubes)
                    .unwrap_or_else(|e| panic!("n={n} L{level} r{radius} d{depth}: {e}"));
                assert_eq!(cover.projections, plan.split.projection_count());
                assert_eq!(cover.refuted, plan.refuted, "n={n} L{level} r{radius} d{depth}");
                assert_eq!(cover.refuted + cover.covered, cover.projections);
                // One cube per orbit: no two kept cubes are images of each other.
                for cube in &plan.cubes {
                    for g in 1..12 {
                        let image = plan.split.image(g, cube);
                        assert!(image == *cube || !plan.cubes.contains(&image), "n={n}: two cubes of one orbit");
                    }
                }
                // Twelve symmetries bound the reduction: at least a twelfth of the unrefuted projections stay.
                assert!(12 * plan.cubes.len() as u64 >= cover.covered, "n={n}: more reduction than 12 symmetries allow");
            }
        }
    }
}

#[test]
fn a_damaged_cube_list_fails_the_cover_check() {
    let hex = Hexagon::new(6).unwrap();
    let plan = value_cubes(&hex, 3, 13, 1, 2).unwrap();
    assert!(plan.cubes.len() > 10);
    let mut dropped = plan.cubes.clone();
    dropped.remove(plan.cubes.len() / 2);
    let error = check_cover(&hex, &plan.split, 13, &dropped).unwrap_err();
    assert!(error.contains("neither refuted nor the image of a cube"), "{error}");
    let mut doubled = plan.cubes.clone();
    doubled.push(plan.cubes[0].clone());
    assert!(check_cover(&hex, &plan.split, 13, &doubled).unwrap_err().contains("twice"));
    let mut out_of_range = plan.cubes.clone();
    out_of_range[0][0] = plan.split.above() + 1;
    assert!(check_cover(&hex, &plan.split, 13, &out_of_range).unwrap_err().contains("not a projection"));
    // Another member of the same orbit covers just as well.
    let mut moved = plan.cubes.clone();
    let other = (1..12).map(|g| plan.split.image(g, &moved[3])).find(|image| *image != moved[3]).unwrap();
    moved[3] = other;
    assert!(check_cover(&hex, &plan.split, 13, &moved).is_ok());
}

#[test]
fn the_split_cells_are_closed_under_the_symmetries() {
    let hex = Hexagon::new(7).unwrap();
    for (radius, size) in [(0, 1), (1, 7), (2, 19)] {
        let split = Split::new(&hex, 1, radius, 1).unwrap();
        assert_eq!(split.cells.len(), size);
        for images in &split.images {
            let mut sorted = images.clone();
            sorted.sort();
            assert_eq!(sorted, (0..size).collect::<Vec<_>>(), "radius {radius}: not a permutation of the split");
        }
    }
    assert!(Split::new(&hex, 1, 3, 1).unwrap_err().to_string().contains("projections"), "2^37 projections are refused");
    assert!(Split::new(&hex, 3, 7, 1).is_err());
    assert!(Split::new(&hex, 3, 1, 4).is_err());
    assert!(Split::new(&hex, 3, 1, 0).is_err());
}

/// Every partial at the minimum, its projection never refuted; and the kept
/// cubes, each weighted by its orbit's size, account for all of them.
#[test]
fn kept_cubes_weighted_by_their_orbits_count_every_optimal_partial() {
    for (n, level, minimum, count) in CASES {
        let hex = Hexagon::new(n).unwrap();
        let optimal = enumerate(&hex, level, EncodeOptions::bounded(Some(minimum)), count).unwrap();
        assert_eq!(optimal.len(), count, "n={n} L{level}");
        for (radius, depth) in splits(n, level) {
            let plan = value_cubes(&hex, level, minimum + 1, radius, depth).unwrap();
            let mut per_projection: HashMap<Vec<u8>, usize> = HashMap::new();
            for found in &optimal {
                let projection = plan.split.project(found.partial.values());
                assert_eq!(refute(&hex, &plan.split, minimum + 1, &projection), None, "n={n}: a local rule refutes an optimal partial");
                *per_projection.entry(projection).or_default() += 1;
            }
            let weighted: usize = plan
                .cubes
                .iter()
                .map(|cube| {
                    let orbit: std::collections::HashSet<Vec<u8>> = (0..12).map(|g| plan.split.image(g, cube)).collect();
                    per_projection.get(cube).copied().unwrap_or(0) * orbit.len()
                })
                .sum();
            assert_eq!(weighted, count, "n={n} L{level} r{radius} d{depth}");
        }
    }
}

/// The claim at its true bound: every kept cube's formula is unsatisfiable;
/// one below the truth, some cube has a model, and it validates.
#[test]
fn cubes_decide_the_claim_as_the_whole_formula_does() {
    let hex = Hexagon::new(5).unwrap();
    for (below, holds) in [(9, true), (10, false)] {
        let plan = value_cubes(&hex, 3, below, 1, 2).unwrap();
        let encoding = LevelEncoding::new(&hex, 3, EncodeOptions::bounded(Some(below - 1)));
        let mut satisfiable = 0;
        for cube in &plan.cubes {
            let mut solver = Cadical::new();
            solver.add_cnf(&cube_formula(&encoding, &plan.split, cube)).unwrap();
            if let Outcome::Sat(model) = solver.solve().unwrap() {
                let found = accept_model(&hex, &encoding, &model).unwrap();
                assert!(found.evaluation.penalty < below);
                assert_eq!(plan.split.project(found.partial.values()), *cube, "the model ignores its cube");
                satisfiable += 1;
            }
        }
        assert_eq!(satisfiable == 0, holds, "below {below}: {satisfiable} satisfiable cubes of {}", plan.cubes.len());
    }
}

/// `cubes run`: every cube of a true claim refuted with an LRAT-checked
/// proof (a cube's units make CaDiCaL derive clauses while the formula is
/// still being added; their ids are renumbered into standard LRAT), one
/// record per cube, and a rerun skips what is recorded.
#[test]
fn every_cube_of_a_true_claim_is_refuted_with_a_checked_proof_and_recorded_once() {
    use hexcert::certification::cubes::{progress, result_path, run_all, CubeVerdict};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let dir = std::env::temp_dir().join(format!("hexcert-cubes-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let plan = hexcert::cubes::Plan::new(5, 3, 9, 1, 1, Default::default()).unwrap();
    plan.check_cover().unwrap();
    let abort = Arc::new(AtomicBool::new(false));
    let results = run_all(&plan, "0123456789abcdef-test", &dir, 2, &abort, &|_, _| {}).unwrap();
    assert_eq!(results.len(), plan.cubes.len());
    for result in &results {
        assert_eq!(result.verdict, CubeVerdict::Refuted);
        let lrat = result.lrat.as_ref().unwrap();
        assert!(lrat.verified, "cube {}: {}", result.index, lrat.verdict);
        assert!(result_path(&dir, "0123456789abcdef-test", result.index).exists());
    }
    let again = run_all(&plan, "0123456789abcdef-test", &dir, 2, &abort, &|_, _| {}).unwrap();
    assert!(again.is_empty(), "a rerun solved recorded cubes again");

    // Every record re-checked: all refuted; then each kind of damage is seen.
    let hash = "0123456789abcdef-test";
    let all = progress(&plan, hash, &dir).unwrap();
    assert_eq!((all.refuted.len(), all.missing.len(), all.rejected.len()), (plan.cubes.len(), 0, 0));
    let record = |i: usize| result_path(&dir, hash, i);
    let edit = |i: usize, change: &dyn Fn(&mut serde_json::Value)| {
        let mut value: serde_json::Value = serde_json::from_slice(&std::fs::read(record(i)).unwrap()).unwrap();
        change(&mut value);
        std::fs::write(record(i), serde_json::to_vec(&value).unwrap()).unwrap();
    };
    std::fs::remove_file(record(0)).unwrap();
    edit(1, &|v| v["cnf_sha256"] = "00".into());
    edit(2, &|v| v["lrat"]["verified"] = false.into());
    let other_cube = serde_json::json!(plan.cubes[5]);
    edit(3, &|v| v["cube"] = other_cube.clone());
    edit(4, &|v| v["proof_sha256"] = serde_json::Value::Null);
    let damaged = progress(&plan, hash, &dir).unwrap();
    assert_eq!(damaged.missing, vec![0]);
    let rejected: Vec<usize> = damaged.rejected.iter().map(|(i, _)| *i).collect();
    assert_eq!(rejected, vec![1, 2, 3, 4], "{:?}", damaged.rejected);
    // A plan with a cube dropped no longer covers the split.
    let mut dropped = plan.clone();
    dropped.cubes.pop();
    assert!(dropped.check_cover().is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The plan's job list, run unchanged by GNU parallel (CI installs it), fills
/// the results directory with one refuted, LRAT-verified record per cube.
#[test]
fn the_job_list_runs_under_gnu_parallel() {
    use hexcert::certification::cubes::{plan_hash, result_path, CubeResult, CubeVerdict};
    use std::process::Command;
    if Command::new("parallel").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "CI is set but GNU parallel is not on PATH");
        eprintln!("GNU parallel not on PATH: the job-list test is not exercised here");
        return;
    }
    let dir = std::env::temp_dir().join(format!("hexcert-cubes-parallel-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let hexcert = env!("CARGO_BIN_EXE_hexcert");
    let planned = Command::new(hexcert)
        .current_dir(&dir)
        .args(["cubes", "plan", "--n", "5", "--level", "3", "--below", "9", "--radius", "1", "--depth", "1", "-o", "plan.json", "--hexcert", hexcert])
        .output()
        .unwrap();
    assert!(planned.status.success(), "{}", String::from_utf8_lossy(&planned.stderr));
    let jobs = std::fs::read_to_string(dir.join("plan.json.jobs")).unwrap();
    let plan = hexcert::cubes::Plan::read(&dir.join("plan.json")).unwrap();
    assert_eq!(jobs.lines().count(), plan.cubes.len());
    let recipe = concat!(env!("CARGO_MANIFEST_DIR"), "/recipes/parallel.sh");
    let ran = Command::new("bash").current_dir(&dir).args([recipe, "plan.json.jobs", "2"]).output().unwrap();
    assert!(ran.status.success(), "parallel: {}", String::from_utf8_lossy(&ran.stderr));
    let hash = plan_hash(&dir.join("plan.json")).unwrap();
    for index in 0..plan.cubes.len() {
        let record: CubeResult = serde_json::from_slice(&std::fs::read(result_path(&dir.join("cube-results"), &hash, index)).unwrap()).unwrap();
        assert_eq!((record.index, record.verdict), (index, CubeVerdict::Refuted));
        assert!(record.lrat.unwrap().verified);
        assert_eq!(record.plan_sha256, hash);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
