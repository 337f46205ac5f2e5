//! The command line as a user meets it: exit codes, one-line errors, and no
//! output file left behind when the input is bad.

use std::path::PathBuf;
use std::process::{Command, Output};

fn hexcert(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexcert")).args(args).output().expect("run hexcert")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hexcert-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn published(n: usize, sum: usize) -> String {
    format!("{}/tests/data/published/CLEAN-{n}-{sum}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn verify_accepts_a_published_grid() {
    let out = hexcert(&["verify", &published(8, 611)]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("n=8 level=6 valid penalty 20 score 442"), "{text}");
    let out = hexcert(&["verify", &published(8, 611), "--level", "2", "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["level"], 2);
    assert_eq!(doc["valid"], true);
}

#[test]
fn verify_rejects_an_invalid_grid_with_exit_1() {
    let dir = scratch("invalid");
    let file = dir.join("bad.txt");
    std::fs::write(&file, "hexcert n=2 level=6\n1 1\n1 3 1\n1 1\n").unwrap();
    let out = hexcert(&["verify", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stdout).unwrap().contains("does not see [2]"));
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    let dir = scratch("bad");
    let file = dir.join("bad.txt");
    std::fs::write(&file, "hexcert n=2 level=2\n+ 2\n2 1 + 2\n+ 2\n").unwrap();
    let out = hexcert(&["verify", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("bad.txt:3: row 2 has 4 cells"), "{err}");
    let out = hexcert(&["verify", file.to_str().unwrap(), "--n", "3"]);
    assert_eq!(out.status.code(), Some(2));
    let missing = dir.join("missing.txt");
    assert_eq!(hexcert(&["verify", missing.to_str().unwrap()]).status.code(), Some(2));
}

#[test]
fn bad_arguments_exit_2_without_output_files() {
    let dir = scratch("args");
    let out_file = dir.join("formula.cnf");
    let out_path = out_file.to_str().unwrap();
    for args in [
        vec!["encode", "--n", "3", "--level", "7", "--max-penalty", "2", "-o", out_path],
        vec!["encode", "--n", "3", "--level", "0", "--max-penalty", "2", "-o", out_path],
        vec!["encode", "--n", "3", "--level", "2", "--max-penalty", "-1", "-o", out_path],
        vec!["encode", "--n", "0", "--level", "2", "--max-penalty", "2", "-o", out_path],
        vec!["encode", "--n", "41", "--level", "2", "--max-penalty", "2", "-o", out_path],
    ] {
        let out = hexcert(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out_file.exists(), "{args:?} left an output file");
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "no temporary files either");
}

#[test]
fn encode_is_byte_identical_across_runs() {
    let dir = scratch("encode");
    let a = dir.join("a.cnf");
    let b = dir.join("b.cnf");
    for path in [&a, &b] {
        let out = hexcert(&["encode", "--n", "4", "--level", "3", "--max-penalty", "2", "-o", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0));
    }
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes, std::fs::read(&b).unwrap());
    assert!(String::from_utf8_lossy(&bytes).contains("p cnf "));
}

#[test]
fn solve_prints_a_valid_grid_and_reports_unsat_with_exit_1() {
    let dir = scratch("solve");
    let grid = dir.join("grid.txt");
    let out = hexcert(&["solve", "--n", "3", "--level", "6", "--max-penalty", "3", "-o", grid.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let check = hexcert(&["verify", grid.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(0), "{}", String::from_utf8_lossy(&check.stdout));
    let out = hexcert(&["solve", "--n", "3", "--level", "2", "--max-penalty", "2"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn render_writes_the_readme_picture_byte_for_byte() {
    let dir = scratch("render");
    let svg = dir.join("optimum.svg");
    let out = hexcert(&["render", &published(8, 611), "-o", svg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let committed = std::fs::read(format!("{}/docs/optimum-n8.svg", env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert_eq!(std::fs::read(&svg).unwrap(), committed, "README picture is what the command draws");
}

#[test]
fn count_and_table_commands_print_exact_counts() {
    let out = hexcert(&["count", "--n", "4", "--level", "6", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["penalty"], 3);
    assert_eq!(doc["count"], "1152");
    let out = hexcert(&["table", "penalties", "--n", "3..=4", "-q"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("| 4 | 0 | 2 | 3 | 3 | 3 | 3 |"), "{text}");
    let out = hexcert(&["count", "--n", "4", "--level", "9"]);
    assert_eq!(out.status.code(), Some(2));
}
