//! The grids the engine found (grids/), and the search that finds them.
//!
//! Why: a committed grid is a result others will quote, so each one is read
//! back and judged by the plain validator alone (no SAT code), and its
//! penalty must be the one its file name and the report's table state; the
//! search itself is exercised on a side small enough for CI (about a second),
//! through the binary, so that its restrictions, its validation and its
//! grid file are what a user gets.

use std::path::{Path, PathBuf};
use std::process::Command;

use hexcert::formats::read_grid_file;
use hexcert::geometry::Hexagon;
use hexcert::validation::evaluate;

/// The report's best penalties, n = 3..27 (its table of arguments and times).
const REPORT_BEST: [usize; 25] =
    [3, 3, 9, 13, 17, 20, 24, 28, 28, 32, 40, 43, 45, 47, 55, 50, 60, 66, 65, 71, 76, 75, 81, 87, 85];

/// `grids/nN-pP.txt` files, with the N and P of their names.
fn committed_grids() -> Vec<(usize, usize, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("grids");
    let mut grids = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".txt") else { continue };
        let (n, p) = stem.strip_prefix('n').and_then(|s| s.split_once("-p")).unwrap_or_else(|| panic!("grids/{name}: not nN-pP.txt"));
        grids.push((n.parse().unwrap(), p.parse().unwrap(), entry.path()));
    }
    grids.sort();
    grids
}

#[test]
fn every_committed_grid_is_valid_with_the_penalty_its_name_and_the_report_state() {
    let grids = committed_grids();
    let sides: Vec<usize> = grids.iter().map(|g| g.0).collect();
    assert!((3..=16).filter(|&n| n != 10).all(|n| sides.contains(&n)), "grids/ holds the engine's grids for n = 3..16 but 10: {sides:?}");
    for (n, penalty, path) in grids {
        let file = read_grid_file(&path, Some(n)).unwrap();
        assert_eq!(file.partial.level(), 6, "{}: a full grid", path.display());
        let evaluation = evaluate(&Hexagon::new(n).unwrap(), &file.partial);
        assert!(evaluation.is_valid(), "{}: {:?}", path.display(), evaluation.violations.first());
        assert_eq!(evaluation.penalty, penalty, "{}: penalty", path.display());
        assert_eq!(penalty, REPORT_BEST[n - 3], "{}: the report's best for n = {n}", path.display());
    }
}

#[test]
fn the_band_search_finds_n7s_best_grid_and_says_how() {
    let dir = std::env::temp_dir().join(format!("hexcert-grids-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let output = dir.join("n7.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .args(["--json", "search", "--n", "7", "--max-penalty", "17", "--band", "4", "--jobs", "1", "-o"])
        .arg(&output)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["penalty"], 17);
    assert_eq!(report["found_by"]["band"], 4);
    let text = std::fs::read_to_string(&output).unwrap();
    assert!(text.starts_with("# penalty 17") && text.contains("not a claim"), "{text}");
    let file = read_grid_file(&output, Some(7)).unwrap();
    let evaluation = evaluate(&Hexagon::new(7).unwrap(), &file.partial);
    assert!(evaluation.is_valid() && evaluation.penalty == 17);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_hexagon_too_small_for_every_placement_is_refused_in_one_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert")).args(["search", "--n", "3", "--centre", "at-centre"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}
