//! A certified listing past its level's minimum (`count --road sat --certify
//! --max-penalty B`): every partial up to B listed, its record naming the
//! minimum and the claim below it, and lifted to a higher level at B, the
//! road of a level whose minimum lies above level 3's (n = 16's level 4 at 47
//! over level 3's 46).

use std::path::{Path, PathBuf};

use hexcert::counting::Count;
use hexcert::geometry::Hexagon;

use super::certified_counts::{edit, hexcert, json, Cell};

/// n = 5's level 3 listed up to `bound`, certified, in `n5-level3-upto<bound>`
/// of a temporary directory (held by the caller).
fn listing_up_to(bound: usize) -> (tempfile::TempDir, PathBuf) {
    let cells = tempfile::tempdir().unwrap();
    let listing = cells.path().join(format!("n5-level3-upto{bound}"));
    let out = hexcert(&[
        "count",
        "--n",
        "5",
        "--level",
        "3",
        "--max-penalty",
        &bound.to_string(),
        "--road",
        "sat",
        "--leaders-dir",
        listing.to_str().unwrap(),
        "--certify",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    (cells, listing)
}

fn check(record: &Path, regenerate: bool) -> (Option<i32>, String) {
    let mut args = vec!["check", record.to_str().unwrap()];
    if regenerate {
        args.insert(1, "--regenerate");
    }
    let out = hexcert(&args);
    (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// n = 5's level 3 up to 10 (its minimum is 9): the record names 9 and the
/// claim below it, counts 10 as the sweep does, and lifts level 4 at 10 to
/// the sweep's count there; but 10 is not level 4's minimum (9, by
/// proofs/n5/optimum.json), so `--record-to` writes no lift record of it,
/// and one made by hand (as the writer once wrote it, which `check
/// --regenerate` verified, exit 0) fails the check; a minimum edited out of
/// the listing's record, or to another value, fails the check.
#[test]
fn a_listing_past_the_minimum_records_it_and_lifts_to_the_sweeps_count() {
    let hex = Hexagon::new(5).unwrap();
    let (cells, listing) = listing_up_to(10);
    let record = listing.join("count.json");
    let count = json(&record);
    assert_eq!((count["penalty"].as_u64(), count["minimum"].as_u64()), (Some(10), Some(9)), "{count}");
    assert_eq!(count["count"].as_str().unwrap(), Count::new(&hex, 3).at(10).unwrap().to_string());
    assert!(
        count["minimum_claim"].as_str().is_some_and(|c| c.ends_with("proofs/n5/level3-below9/claim.json")),
        "{count}"
    );
    let (code, text) = check(&record, false);
    assert!(code == Some(4) && text.contains("every partial up to 10 listed: 360 at 9"), "{text}");
    assert!(text.contains("n = 5, level 3, every penalty up to 10 (minimum 9): count: "), "{text}");
    let cell = cells.path().join("n5-level4-penalty10");
    let lift = |record_to: bool| {
        let mut args = vec![
            "--json",
            "count",
            "--n",
            "5",
            "--level",
            "4",
            "--road",
            "extension",
            "--from-listing",
            listing.to_str().unwrap(),
        ];
        if record_to {
            args.extend(["--record-to", cell.to_str().unwrap()]);
        }
        hexcert(&args)
    };
    let out = lift(true);
    let error = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.code() == Some(2) && error.contains("states level 4's minimum 9") && !cell.exists(), "{error}");
    let out = lift(false);
    assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let at_ten = Count::new(&hex, 4).at(10).unwrap().to_string();
    assert_eq!(report["counts"][0]["count"].as_str(), Some(at_ten.as_str()), "{report}");
    std::fs::create_dir(&cell).unwrap();
    let by_hand = serde_json::json!({
        "format": "hexcert-lift/1",
        "n": 5,
        "level": 4,
        "penalty": 10,
        "listing": "../n5-level3-upto10",
        "listing_count": count["count"],
        "via": "lift",
        "classes": report["refined_classes"],
        "count": at_ten,
        "seconds": report["seconds"],
        "written_by": "a test's hand",
    });
    std::fs::write(cell.join("lift.json"), serde_json::to_vec_pretty(&by_hand).unwrap()).unwrap();
    for regenerate in [false, true] {
        let (code, text) = check(&cell.join("lift.json"), regenerate);
        assert!(
            code == Some(1)
                && text.contains("n = 5, level 4, penalty 10: ")
                && text.contains("states level 4's minimum 9"),
            "regenerate {regenerate}: {text}"
        );
    }
    for minimum in [serde_json::Value::Null, serde_json::json!(10), serde_json::json!(8), serde_json::json!(11)] {
        let original = std::fs::read(&record).unwrap();
        edit(&record, |v| match &minimum {
            serde_json::Value::Null => drop(v.as_object_mut().unwrap().remove("minimum")),
            m => v["minimum"] = m.clone(),
        });
        let (code, text) = check(&record, false);
        std::fs::write(&record, original).unwrap();
        assert_eq!(code, Some(1), "minimum {minimum}: {text}");
    }
}

/// n = 7's level 3 (minimum 16) up to 17, level 4's minimum: the lift gives
/// levels 4 to 6 at 17 as the sweep counts them, each its level's minimum.
#[test]
#[ignore = "minutes of solving: run on demand, figures in docs/RESULTS.md"]
fn a_listing_up_to_the_next_minimum_lifts_levels_four_to_six_of_n7() {
    let cells = tempfile::tempdir().unwrap();
    let listing = cells.path().join("n7-level3-upto17");
    let out = hexcert(&[
        "count",
        "--n",
        "7",
        "--level",
        "3",
        "--max-penalty",
        "17",
        "--road",
        "sat",
        "--leaders-dir",
        listing.to_str().unwrap(),
        "--certify",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&listing.join("count.json"))["minimum"].as_u64(), Some(16));
    let hex = Hexagon::new(7).unwrap();
    for level in 4..=6u8 {
        let (minimum, swept) = Count::new(&hex, level).minimum_and_count().unwrap();
        assert_eq!(minimum, 17, "level {level}");
        let cell = cells.path().join(format!("n7-level{level}-penalty17"));
        let out = hexcert(&[
            "count",
            "--n",
            "7",
            "--level",
            &level.to_string(),
            "--road",
            "extension",
            "--from-listing",
            listing.to_str().unwrap(),
            "--record-to",
            cell.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(json(&cell.join("lift.json"))["count"].as_str().unwrap(), swept.to_string(), "level {level}");
        let (code, text) = check(&cell.join("lift.json"), true);
        assert!(
            code != Some(1) && text.contains(&format!("minimum: no level-{level} partial lies below 17")),
            "{text}"
        );
    }
}

/// `--leaf-depth 0`: a cube is listed whole, as one leaf at the root of its
/// tree, and split only past its time (the campaign's mode: a tree of
/// fixed depth costs a cheap cube its setup once per leaf); both ways the
/// count is the sweep's and `check` judges the trees.
#[test]
fn a_cube_is_listed_whole_until_it_runs_past_its_limit() {
    let hex = Hexagon::new(4).unwrap();
    let (minimum, swept) = Count::new(&hex, 3).minimum_and_count().unwrap();
    for (limit, split) in [("3600", false), ("0", true)] {
        let dir = Cell::new(&format!("n4-level3-penalty{minimum}"));
        let args = [
            "count",
            "--n",
            "4",
            "--level",
            "3",
            "--penalty",
            &minimum.to_string(),
            "--road",
            "sat",
            "--leaders-dir",
            dir.path().to_str().unwrap(),
        ];
        let out = hexcert(&[&args[..], &["--certify", "--leaf-depth", "0", "--leaf-time-limit", limit]].concat());
        assert!(matches!(out.status.code(), Some(0)), "{}", String::from_utf8_lossy(&out.stderr));
        let record = dir.path().join("count.json");
        assert_eq!(json(&record)["count"].as_str().unwrap(), swept.to_string());
        let depths: Vec<usize> = (0..128)
            .flat_map(|i| {
                json(&dir.path().join(format!("cube-{i}.json")))["leaves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| l["path"].as_array().unwrap().len())
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(depths.iter().any(|&d| d > 0), split, "limit {limit}: leaf depths {depths:?}");
        let (code, text) = check(&record, false);
        assert!(matches!(code, Some(0 | 4)), "limit {limit}: {text}");
        let cubes: Vec<serde_json::Value> =
            (0..128).map(|i| json(&dir.path().join(format!("cube-{i}.json")))).collect();
        assert_eq!(
            json(&record)["solve_cpu_seconds"].as_f64(),
            Some(cubes.iter().map(cpu_of).sum::<f64>()),
            "limit {limit}: the count's CPU is its cubes'"
        );
        for cube in &cubes {
            let leaves: f64 = cube["leaves"].as_array().unwrap().iter().map(cpu_of).sum();
            assert!(
                (cpu_of(cube) - leaves).abs() < 1e-9 && cpu_of(cube) <= cube["seconds"].as_f64().unwrap() + 0.05,
                "limit {limit}: {cube}"
            );
        }
    }
}

/// A record's solver CPU seconds, which every listing from this build records.
fn cpu_of(record: &serde_json::Value) -> f64 {
    record["cpu_seconds"].as_f64().filter(|s| *s >= 0.0).unwrap_or_else(|| panic!("no CPU seconds in {record}"))
}
