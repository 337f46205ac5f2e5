//! The value cubes of a claim against independent facts: the cover check on
//! the planner's output and on damaged cube lists, the local refutation
//! rules against every optimal partial the solver finds, and the orbit sums
//! of the kept cubes against the known counts.

use std::collections::HashMap;

use crate::common;

use crate::common::Scratch;

use hexcert::cubes::{check_cover, cube_formula, refute, value_cubes, Cube, Split};
use hexcert::encoding::model::accept_model;
use hexcert::encoding::{EncodeOptions, LevelEncoding};
use hexcert::geometry::Hexagon;
use hexcert::search::enumerate;
use hexcert::solving::{Answer, Cadical, SatSolver};

/// (n, level, minimum penalty, number of partials at the minimum), from the published table.
const CASES: [(usize, u8, usize, usize); 5] =
    [(4, 2, 2, 6), (4, 3, 3, 28), (5, 2, 8, 48), (5, 3, 9, 360), (6, 3, 13, 276)];

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
                        let image = Cube::values(depth, plan.split.image(g, &cube.values));
                        assert!(image == *cube || !plan.cubes.contains(&image), "n={n}: two cubes of one orbit");
                    }
                }
                // Twelve symmetries bound the reduction: at least a twelfth of the unrefuted projections stay.
                assert!(
                    12 * plan.cubes.len() as u64 >= cover.covered,
                    "n={n}: more reduction than 12 symmetries allow"
                );
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
    let error = check_cover(&hex, &plan.split, 13, &dropped).unwrap_err().to_string();
    assert!(error.contains("neither refuted nor the image of a cube"), "{error}");
    let mut doubled = plan.cubes.clone();
    doubled.push(plan.cubes[0].clone());
    assert!(check_cover(&hex, &plan.split, 13, &doubled).unwrap_err().to_string().contains("twice"));
    let mut out_of_range = plan.cubes.clone();
    out_of_range[0].values[0] = plan.split.above() + 1;
    assert!(check_cover(&hex, &plan.split, 13, &out_of_range).unwrap_err().to_string().contains("not a projection"));
    let mut too_deep = plan.cubes.clone();
    too_deep[0].depth = plan.split.depth + 1;
    assert!(check_cover(&hex, &plan.split, 13, &too_deep).unwrap_err().to_string().contains("not a projection"));
    // Another member of the same orbit covers just as well.
    let mut moved = plan.cubes.clone();
    let other = (1..12).map(|g| plan.split.image(g, &moved[3].values)).find(|image| *image != moved[3].values).unwrap();
    moved[3].values = other;
    assert!(check_cover(&hex, &plan.split, 13, &moved).is_ok());
    // A cube at depth 1 stands for all its depth-2 readings: a coarser cube covers them.
    let coarse = value_cubes(&hex, 3, 13, 1, 1).unwrap();
    assert!(check_cover(&hex, &plan.split, 13, &coarse.cubes).is_ok());
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
        let optimal = enumerate::<Cadical>(&hex, level, EncodeOptions::bounded(Some(minimum)), count).unwrap();
        assert_eq!(optimal.len(), count, "n={n} L{level}");
        for (radius, depth) in splits(n, level) {
            let plan = value_cubes(&hex, level, minimum + 1, radius, depth).unwrap();
            let mut per_projection: HashMap<Vec<u8>, usize> = HashMap::new();
            for found in &optimal {
                let projection = plan.split.project(found.partial.values());
                assert_eq!(
                    refute(&hex, &plan.split, minimum + 1, &projection),
                    None,
                    "n={n}: a local rule refutes an optimal partial"
                );
                *per_projection.entry(projection).or_default() += 1;
            }
            let weighted: usize = plan
                .cubes
                .iter()
                .map(|cube| {
                    let orbit: std::collections::HashSet<Vec<u8>> =
                        (0..12).map(|g| plan.split.image(g, &cube.values)).collect();
                    per_projection.get(&cube.values).copied().unwrap_or(0) * orbit.len()
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
            if let Answer::Sat(model) = solver.solve().unwrap() {
                let found = accept_model(&hex, &encoding, &model).unwrap();
                assert!(found.evaluation.penalty < below);
                assert_eq!(plan.split.project(found.partial.values()), cube.values, "the model ignores its cube");
                satisfiable += 1;
            }
        }
        assert_eq!(satisfiable == 0, holds, "below {below}: {satisfiable} satisfiable cubes of {}", plan.cubes.len());
    }
}

/// Refining cubes (one value deeper, one per orbit of the cube's
/// stabilizer): the refined plan still covers the split, every optimal
/// partial still reaches a kept cube through some symmetry, and dropping a
/// refinement breaks the cover.
#[test]
fn refined_plans_cover_the_split_and_every_optimal_partial() {
    for (n, level, minimum, count) in CASES {
        let hex = Hexagon::new(n).unwrap();
        let plan = hexcert::cubes::Plan::new(n, level, minimum + 1, 1, 1, Default::default()).unwrap();
        let optimal = enumerate::<Cadical>(&hex, level, EncodeOptions::bounded(Some(minimum)), count).unwrap();
        // Refine every other cube, then the first refinement again where the level allows.
        let which: Vec<usize> = (0..plan.cubes.len()).step_by(2).collect();
        let (mut refined, _) = plan.refine(&which).unwrap();
        if level >= 3 {
            let deeper = refined.cubes.iter().position(|c| c.depth == 2 && c.values.contains(&3)).unwrap();
            refined = refined.refine(&[deeper]).unwrap().0;
        }
        let cover = refined.check_cover().unwrap_or_else(|e| panic!("n={n} L{level}: {e}"));
        assert_eq!(cover.projections, refined.split().unwrap().projection_count());
        let split = refined.split().unwrap();
        for found in &optimal {
            let projection = split.project(found.partial.values());
            let reached = (0..12).any(|g| {
                let image = split.image(g, &projection);
                refined.cubes.iter().any(|c| Split::coarsen(&image, c.depth) == c.values)
            });
            assert!(reached, "n={n} L{level}: an optimal partial reaches no kept cube");
        }
        // The refinements of one cube are all needed: dropping any breaks the cover.
        let first_deep = refined.cubes.iter().position(|c| c.depth > 1).unwrap();
        let mut dropped = refined.clone();
        dropped.cubes.remove(first_deep);
        assert!(dropped.check_cover().is_err(), "n={n} L{level}: a refinement was not needed");
        // A cube at the level's depth cannot be refined by value.
        let at_level = hexcert::cubes::Plan::new(n, level, minimum + 1, 1, level, Default::default()).unwrap();
        assert!(at_level.refine(&[0]).is_err());
    }
}

/// `cubes run`: every cube of a true claim refuted with an LRAT-checked
/// proof (a cube's units make CaDiCaL derive clauses while the formula is
/// still being added; their ids are renumbered into standard LRAT), one
/// record per cube, and a rerun skips what is recorded.
#[test]
fn every_cube_of_a_true_claim_is_refuted_with_a_checked_proof_and_recorded_once() {
    use hexcert::certify::cube_run::{run_all, RunLimits};
    use hexcert::records::cube::{result_path, CubeVerdict};
    use hexcert::verify::cube_status::progress;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let scratch = Scratch::new("cubes-run");
    let dir = &scratch.0;
    let plan = hexcert::cubes::Plan::new(5, 3, 9, 1, 1, Default::default()).unwrap();
    plan.check_cover().unwrap();
    let abort = Arc::new(AtomicBool::new(false));
    let limits = RunLimits { time_limit: None, store_limit: 0, verified: None };
    let results = run_all(&plan, None, dir, 2, limits, &abort, &|_, _, _| {}).unwrap();
    assert_eq!(results.len(), plan.cubes.len());
    for (index, result) in &results {
        assert_eq!(result.verdict, CubeVerdict::Refuted);
        let lrat = result.lrat.as_ref().unwrap();
        assert!(lrat.verified, "cube {index}: {}", lrat.verdict);
        assert!(result_path(dir, &plan, *index).exists());
    }
    let again = run_all(&plan, None, dir, 2, limits, &abort, &|_, _, _| {}).unwrap();
    assert!(again.is_empty(), "a rerun solved recorded cubes again");

    // Every record re-checked: all refuted; then each kind of damage is seen.
    let all = progress(&plan, dir).unwrap();
    assert_eq!((all.records.len(), all.missing.len(), all.rejected.len()), (plan.cubes.len(), 0, 0));
    // No proof kept (store limit 0): every refutation is attested, none checked by this run.
    assert_eq!((all.checked.len(), all.attested.len()), (0, plan.cubes.len()));
    let record = |i: usize| result_path(dir, &plan, i);
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
    let damaged = progress(&plan, dir).unwrap();
    assert_eq!(damaged.missing, vec![0]);
    let rejected: Vec<usize> = damaged.rejected.iter().map(|(i, _)| *i).collect();
    assert_eq!(rejected, vec![1, 2, 3, 4], "{:?}", damaged.rejected);
    // A plan with a cube dropped no longer covers the split.
    let mut dropped = plan.clone();
    dropped.cubes.pop();
    assert!(dropped.check_cover().is_err());
}

/// The whole road on a small claim: cubes stopped by a time limit are
/// recorded as unfinished, refined, the refined plan keeps the other cubes'
/// records, the rest are solved with their LRAT proofs stored, and the
/// merged claim is verified by `check`, which rejects each tampering: a
/// cube's record removed, a cube's proof swapped, a cube dropped from the
/// plan, the plan's cover edited.
#[test]
fn unfinished_cubes_are_refined_and_the_merged_claim_checks_and_resists_tampering() {
    use hexcert::certify::cube_run::{run_all, RunLimits};
    use hexcert::certify::merge::merge;
    use hexcert::records::cube::CubeVerdict;
    use hexcert::verify::check::{check_record, Status};
    use hexcert::verify::cube_status::progress;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let scratch = Scratch::new("cubes-merge");
    let (results, proofs) = (scratch.0.join("results"), scratch.0.join("proofs"));
    let plan = hexcert::cubes::Plan::new(6, 3, 13, 1, 1, Default::default()).unwrap();
    let abort = Arc::new(AtomicBool::new(false));
    let hurried = RunLimits { time_limit: Some(1e-6), store_limit: 0, verified: None };
    let first = run_all(&plan, None, &results, 2, hurried, &abort, &|_, _, _| {}).unwrap();
    let unfinished: Vec<usize> =
        first.iter().filter(|(_, r)| r.verdict == CubeVerdict::Unfinished).map(|(i, _)| *i).collect();
    assert!(!unfinished.is_empty(), "no cube was stopped by a limit of a microsecond");
    assert!(merge(&plan, &results, &proofs).unwrap_err().to_string().contains("not refuted yet"));
    let status = progress(&plan, &results).unwrap();
    assert_eq!(status.unfinished, unfinished);
    // Refine only the first unfinished cube; the others are run to the end below.
    let (refined, _) = plan.refine(&unfinished[..1]).unwrap();
    refined.check_cover().unwrap();
    let kept = progress(&refined, &results).unwrap();
    assert_eq!(kept.records.len(), status.records.len(), "the refined plan lost records of cubes it did not refine");
    let patient = RunLimits { time_limit: None, store_limit: u64::MAX, verified: None };
    run_all(&refined, None, &results, 2, patient, &abort, &|_, _, _| {}).unwrap();
    let done = progress(&refined, &results).unwrap();
    assert_eq!((done.records.len(), done.missing.len(), done.unfinished.len()), (refined.cubes.len(), 0, 0));

    // Merged: verified when every proof is stored (those of the first,
    // hurried run were not: store them by solving those cubes again).
    let unstored: Vec<usize> = done.records.iter().filter(|(_, r)| r.lrat_proof.is_none()).map(|(i, _)| *i).collect();
    assert_eq!(done.attested, unstored, "a record without its proof counted as checked");
    let claim_path = merge(&refined, &results, &proofs).unwrap();
    let report = check_record(&claim_path, None);
    if unstored.is_empty() {
        assert_eq!(report.status, common::verified_if_veripb(), "{:?}", report.messages);
    } else {
        assert_eq!(report.status, Status::Unverified, "{:?}", report.messages);
        let regenerated = check_record(&claim_path, Some(&hexcert::certify::prove::SolveAgain));
        assert_eq!(regenerated.status, common::verified_if_veripb(), "{:?}", regenerated.messages);
        for index in unstored {
            std::fs::remove_file(hexcert::records::cube::result_path(&results, &refined, index)).unwrap();
        }
        run_all(&refined, None, &results, 2, patient, &abort, &|_, _, _| {}).unwrap();
        let claim_path = merge(&refined, &results, &proofs).unwrap();
        let report = check_record(&claim_path, None);
        assert_eq!(report.status, common::verified_if_veripb(), "{:?}", report.messages);
    }
    let original = std::fs::read(&claim_path).unwrap();
    let claim_dir = claim_path.parent().unwrap().to_path_buf();
    let tamper = |change: &dyn Fn(&mut serde_json::Value)| {
        let mut value: serde_json::Value = serde_json::from_slice(&original).unwrap();
        change(&mut value);
        std::fs::write(&claim_path, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
        let report = check_record(&claim_path, None);
        std::fs::write(&claim_path, &original).unwrap();
        assert_eq!(report.status, Status::Failed, "{:?}", report.messages);
        report.messages.join(" | ")
    };
    // A cube's record removed from the claim.
    let why = tamper(&|v| {
        v["cubes"].as_array_mut().unwrap().remove(1);
    });
    assert!(why.contains("cube records for the plan's"), "{why}");
    // A cube dropped from the plan (and its record with it).
    let why = tamper(&|v| {
        v["plan"]["cubes"].as_array_mut().unwrap().remove(1);
        v["cubes"].as_array_mut().unwrap().remove(1);
    });
    // Caught by the cover, or first by the claim's totals, which no longer add up to its cubes'.
    assert!(why.contains("cover") || why.contains("of its cubes"), "{why}");
    // The plan's cover edited.
    let why = tamper(&|v| {
        let covered = v["plan"]["cover"]["covered"].as_u64().unwrap();
        v["plan"]["cover"]["covered"] = (covered + 1).into();
    });
    assert!(why.contains("cover"), "{why}");
    // A cube's proof swapped with another's: the files, then the records' hashes.
    let value: serde_json::Value = serde_json::from_slice(&original).unwrap();
    let stored = |i: usize| claim_dir.join(value["cubes"][i]["lrat_proof"]["stored_as"].as_str().unwrap());
    let (a, b) = (stored(2), stored(3));
    let (bytes_a, bytes_b) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    std::fs::write(&a, &bytes_b).unwrap();
    std::fs::write(&b, &bytes_a).unwrap();
    let report = check_record(&claim_path, None);
    assert_eq!(report.status, Status::Failed, "{:?}", report.messages);
    // Caught by the size its record states when larger, else by its hash.
    let why = report.messages.join(" ");
    assert!(why.contains("sha256") || why.contains("bytes its record states"), "{why}");
    std::fs::write(&a, &bytes_a).unwrap();
    std::fs::write(&b, &bytes_b).unwrap();
    let why = tamper(&|v| {
        let (ha, hb) = (v["cubes"][2]["lrat_proof"].clone(), v["cubes"][3]["lrat_proof"].clone());
        v["cubes"][2]["lrat_proof"] = hb;
        v["cubes"][3]["lrat_proof"] = ha;
    });
    assert!(why.contains("LRAT checker rejected"), "{why}");
    // The statement -> split formula step: recorded with VeriPB's verdict
    // (or why none ran), re-derived by `check`, and a record whose files do
    // not hash as written again, or a trust base that does not match the
    // record, fails.
    let value: serde_json::Value = serde_json::from_slice(&original).unwrap();
    let veripb = common::veripb_present();
    if veripb {
        assert_eq!(value["statement_to_cnf"]["veripb"]["verdict"], "s VERIFIED OUTPUT DERIVABLE", "{value}");
        // Every cube verdict was reached on the split formula: three items, no split step.
        assert!(
            value["cubes"][0]["lrat"]["how"]
                .as_str()
                .unwrap()
                .starts_with("online, lifted onto the plan's split formula"),
            "{value}"
        );
        assert_eq!(value["trust_base"].as_array().unwrap().len(), 3, "{value}");
        assert!(value["trust_base"].to_string().contains("read on the split formula"), "{value}");
        let report = check_record(&claim_path, None);
        let said = report.messages.join(" | ");
        assert!(said.contains("split formula written again match"), "{said}");
        assert!(said.contains("split formula refuted by hexcert-lrat"), "{said}");
    } else {
        assert!(
            value["statement_to_cnf"]["not_checked"].as_str().unwrap().contains("VeriPB is not on PATH"),
            "{value}"
        );
    }
    let why = tamper(&|v| v["statement_to_cnf"]["target"]["sha256"] = "0".repeat(64).into());
    assert!(why.contains("written again") || why.contains("trust base"), "{why}");
    if veripb {
        let why = tamper(&|v| {
            let items = v["trust_base"].as_array_mut().unwrap();
            items.pop();
        });
        assert!(why.contains("trust base"), "{why}");
        // A cube verdict not reached on the split formula cannot keep the three-item base.
        let why = tamper(&|v| v["cubes"][0]["lrat"]["how"] = hexcert::records::claim::ONLINE.into());
        assert!(why.contains("trust base"), "{why}");
    }
}

/// The plan's job list, run unchanged by GNU parallel (CI installs it), fills
/// the results directory with one refuted, LRAT-verified record per cube;
/// `cubes merge` makes the claim, and `check --regenerate` verifies it.
#[test]
fn the_job_list_runs_under_gnu_parallel_and_merges_into_a_checked_claim() {
    use hexcert::records::cube::{result_path, CubeResult, CubeVerdict};
    use std::process::Command;
    if Command::new("parallel").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "CI is set but GNU parallel is not on PATH");
        eprintln!("GNU parallel not on PATH: the job-list test is not exercised here");
        return;
    }
    let scratch = Scratch::new("cubes-parallel");
    let dir = &scratch.0;
    let hexcert = env!("CARGO_BIN_EXE_hexcert");
    let run = |args: &[&str]| {
        let out = Command::new(hexcert).current_dir(dir).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "hexcert {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    run(&[
        "cubes",
        "plan",
        "--n",
        "5",
        "--level",
        "3",
        "--below",
        "9",
        "--radius",
        "1",
        "--depth",
        "1",
        "-o",
        "plan.json",
        "--hexcert",
        hexcert,
    ]);
    let jobs = std::fs::read_to_string(dir.join("plan.json.jobs")).unwrap();
    let plan = hexcert::cubes::Plan::read(&dir.join("plan.json")).unwrap();
    assert_eq!(jobs.lines().count(), plan.cubes.len());
    let recipe = concat!(env!("CARGO_MANIFEST_DIR"), "/recipes/parallel.sh");
    let ran = Command::new("bash").current_dir(dir).args([recipe, "plan.json.jobs", "2"]).output().unwrap();
    assert!(ran.status.success(), "parallel: {}", String::from_utf8_lossy(&ran.stderr));
    for index in 0..plan.cubes.len() {
        let record: CubeResult =
            serde_json::from_slice(&std::fs::read(result_path(&dir.join("results"), &plan, index)).unwrap()).unwrap();
        assert_eq!((&record.cube, record.verdict), (&plan.cubes[index], CubeVerdict::Refuted));
        assert!(record.lrat.unwrap().verified);
    }
    // The jobs keep no proofs: merged, every cube attested by its job, so not verified (4) until re-solved.
    let merged = Command::new(hexcert)
        .current_dir(dir)
        .args(["cubes", "merge", "plan.json", "--proofs", "proofs"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&merged.stdout);
    assert_eq!(merged.status.code(), Some(4), "{said}{}", String::from_utf8_lossy(&merged.stderr));
    assert!(said.contains(&format!("0 checked in this run, {} attested", plan.cubes.len())), "{said}");
    let checked = Command::new(hexcert).current_dir(dir).args(["check", "--regenerate", "proofs"]).output().unwrap();
    let text = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(checked.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&checked.stderr));
    assert!(text.contains("re-solved"), "{text}");
}

/// `certify --cubes always --cubes-after 0`: every bounded query split into
/// cubes at once (satisfiable ones answered by a cube's model, the others
/// merged into cube claims); the optimum is the known one and `check`
/// verifies every record, the cubes' proofs from their stored LRAT files.
#[test]
fn certify_through_cubes_reaches_the_known_optimum_and_checks() {
    use std::process::Command;
    let scratch = Scratch::new("cubes-certify");
    let hexcert = env!("CARGO_BIN_EXE_hexcert");
    let proofs = scratch.0.join("proofs");
    let proofs_arg = proofs.to_str().unwrap();
    let certified = Command::new(hexcert)
        .args(["certify", "--n", "5", "--cubes", "always", "--cubes-after", "0", "--proofs", proofs_arg])
        .output()
        .unwrap();
    // Without VeriPB the derivations are not checked: certify and check both say 4.
    let expected = if common::veripb_present() { 0 } else { 4 };
    assert_eq!(certified.status.code(), Some(expected), "{}", String::from_utf8_lossy(&certified.stderr));
    let optimum: serde_json::Value =
        serde_json::from_slice(&std::fs::read(proofs.join("n5/optimum.json")).unwrap()).unwrap();
    assert_eq!(optimum["optimum"], 9);
    let claim: serde_json::Value =
        serde_json::from_slice(&std::fs::read(proofs.join("n5/level3-below9/claim.json")).unwrap()).unwrap();
    assert_eq!(claim["format"], "hexcert-cube-claim/1");
    let checked = Command::new(hexcert).args(["check", proofs_arg]).output().unwrap();
    let text = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(checked.status.code(), Some(expected), "{text}");
    assert!(text.contains("stored LRAT proofs verified"), "{text}");
}

/// A campaign kept under its claim's directory (as docs/CAMPAIGN.md
/// suggests) and the witness beside the claim survive the merge that writes
/// the claim there, and a second merge: a certificate replaces only its own
/// files.
#[test]
fn merging_into_the_claim_directory_keeps_the_campaign_and_the_witness() {
    merge_twice_into_the_claim_directory("campaign");
}

/// The audit case: a campaign in a folder named `cubes/` (the name merged
/// claims once kept their cube proofs under) went from 28 files to 0 at the
/// merge. Merge's proofs now live under a reserved dot name.
#[test]
fn a_campaign_in_a_folder_named_cubes_survives_the_merge() {
    let (_scratch, dir) = merge_twice_into_the_claim_directory("cubes");
    let claim: hexcert::records::CubeClaim = hexcert::records::read_json(&dir.join("claim.json")).unwrap();
    let stored: Vec<&str> = claim.cubes.iter().filter_map(|c| c.lrat_proof.as_ref()?.stored_as.as_deref()).collect();
    assert!(
        !stored.is_empty()
            && stored.iter().all(|s| s.starts_with(&format!("{}/", hexcert::records::cube::CUBE_PROOFS))),
        "{stored:?}"
    );
    assert!(hexcert::records::cube::CUBE_PROOFS.starts_with('.'), "merge's proofs are not under a reserved (dot) name");
}

/// Plans and runs n = 5 "level 3 below 9" with the campaign in `folder`
/// under the claim's directory, merges twice, and checks after each merge
/// that every campaign file and the witness are still there. Returns the
/// scratch directory and the claim directory in it.
fn merge_twice_into_the_claim_directory(folder: &str) -> (Scratch, std::path::PathBuf) {
    use std::process::Command;
    let scratch = Scratch::new(&format!("cubes-merge-keeps-{folder}"));
    let dir = &scratch.0;
    let hexcert = env!("CARGO_BIN_EXE_hexcert");
    let run = |args: &[&str]| Command::new(hexcert).current_dir(dir).args(args).output().unwrap();
    let claim_dir = "proofs/n5/level3-below9";
    let plan = format!("{claim_dir}/{folder}/plan.json");
    assert!(run(&[
        "cubes", "plan", "--n", "5", "--level", "3", "--below", "9", "--radius", "1", "--depth", "1", "-o", &plan
    ])
    .status
    .success());
    assert!(run(&["cubes", "run", &plan, "--all", "--jobs", "2", "--store-limit", "100000000"]).status.success());
    std::fs::write(dir.join(claim_dir).join("witness.txt"), "kept\n").unwrap();
    let campaign = files_under(&dir.join(claim_dir).join(folder));
    for round in 0..2 {
        let merged = run(&["cubes", "merge", &plan, "--proofs", "proofs"]);
        assert!(
            merged.status.code().is_some_and(|c| c == 0 || c == 4),
            "round {round}: {}",
            String::from_utf8_lossy(&merged.stderr)
        );
        for kept in ["witness.txt", "claim.json"] {
            assert!(dir.join(claim_dir).join(kept).exists(), "round {round}: {kept} is gone after the merge");
        }
        assert_eq!(
            files_under(&dir.join(claim_dir).join(folder)),
            campaign,
            "round {round}: the campaign's files changed"
        );
    }
    let kept = dir.join(claim_dir);
    (scratch, kept)
}

/// Every file under `dir`, relative to it, sorted (none when it is absent).
fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            if entry.path().is_dir() {
                stack.push(entry.path());
            } else {
                found.push(entry.path().strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    found.sort();
    found
}

/// A merge killed between its last renames (the state an earlier build
/// left: the claim's directory renamed aside, its campaign moved into the
/// merge's staging under `.work-merge-*`, whose owner is dead) loses
/// nothing to the next `certify`, which reaps stale work directories: the
/// campaign is back under the claim's directory.
#[test]
fn a_campaign_caught_in_a_killed_merge_survives_the_next_certify() {
    use std::process::Command;
    let scratch = Scratch::new("cubes-merge-killed");
    let dir = &scratch.0;
    let hexcert = env!("CARGO_BIN_EXE_hexcert");
    let run = |args: &[&str]| Command::new(hexcert).current_dir(dir).args(args).output().unwrap();
    let n5 = dir.join("proofs/n5");
    let claim_dir = n5.join("level3-below9");
    let plan = "proofs/n5/level3-below9/campaign/plan.json";
    assert!(run(&[
        "cubes", "plan", "--n", "5", "--level", "3", "--below", "9", "--radius", "1", "--depth", "1", "-o", plan
    ])
    .status
    .success());
    assert!(run(&["cubes", "run", plan, "--all", "--jobs", "2", "--store-limit", "100000000"]).status.success());
    let merged = run(&["cubes", "merge", plan, "--proofs", "proofs"]);
    assert!(merged.status.code().is_some_and(|c| c == 0 || c == 4), "{}", String::from_utf8_lossy(&merged.stderr));
    let campaign = files_under(&claim_dir.join("campaign"));
    assert!(campaign.len() > 2, "{campaign:?}");
    // The kill: the claim's directory retired, everything it kept moved into the staging of a dead run's work directory.
    let work = n5.join(".work-merge-deadhost-0123456789abcdef-4194000-0");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join(".lock"), b"").unwrap();
    std::fs::rename(&claim_dir, work.join("claim")).unwrap();
    std::fs::create_dir_all(n5.join("level3-below9.old-deadhost-0123456789abcdef-4194000")).unwrap();

    let certified = run(&["certify", "--n", "5", "--proofs", "proofs", "-q"]);
    let said = format!("{}{}", String::from_utf8_lossy(&certified.stdout), String::from_utf8_lossy(&certified.stderr));
    assert!(certified.status.code().is_some_and(|c| c == 0 || c == 4), "{said}");
    assert_eq!(
        files_under(&claim_dir.join("campaign")),
        campaign,
        "the campaign was lost with the killed merge's work directory: {said}"
    );
}

/// A merge whose every cube proof it checked, but whose statement -> split
/// formula step VeriPB could not check (none on PATH, the library switched
/// off), is not verified: exit 4, and the report names the step it left
/// unchecked.
#[test]
fn merge_without_veripb_reports_the_derivation_unverified() {
    let scratch = Scratch::new("cubes-merge-no-veripb");
    let dir = &scratch.0;
    let hexcert = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_hexcert"))
            .current_dir(dir)
            .env("PATH", "/usr/bin:/bin")
            .env(hexcert::proofs::veripb::CHOICE, "none")
            .args(args)
            .output()
            .unwrap()
    };
    let said = |out: &std::process::Output| {
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    };
    assert!(hexcert(&["cubes", "plan", "--n", "4", "--level", "3", "--below", "3", "-o", "plan.json", "-q"])
        .status
        .success());
    let ran = hexcert(&["cubes", "run", "plan.json", "--all", "--store-limit", "100000000", "-q"]);
    assert!(ran.status.success(), "{}", said(&ran));
    let merged = hexcert(&["cubes", "merge", "plan.json", "--proofs", "proofs"]);
    let text = said(&merged);
    assert_eq!(merged.status.code(), Some(4), "{text}");
    assert!(
        text.contains("0 attested")
            && text.contains("statement -> split formula: unverified (VeriPB is not used in this run"),
        "{text}"
    );
}
