//! Every command's `--json` document, pinned by an insta snapshot on a small
//! input: a change of shape (a field renamed, dropped or moved) fails here
//! and is reviewed with `cargo insta review`. What varies between runs and
//! machines (times, paths, hosts, run ids, build commits, tool versions and
//! memory) is replaced by a placeholder first; everything the engine derives
//! (penalties, counts, verdicts, hashes of formulas and proofs) is kept.

use crate::common::{self, Scratch};

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// A scratch directory for this test, removed when it goes out of scope.
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("reports-{name}"))
}

/// Keys whose values depend on the run, the machine or the tools installed.
/// (`messages` name the external checkers found on PATH and their times.)
const VOLATILE: &[&str] = &[
    "messages",
    "seconds",
    "second",
    "time",
    "memory",
    "host",
    "run",
    "commit",
    "written_by",
    "version",
    "command",
    "path",
    "directory",
    "output",
    "proofs",
    "plan",
    "results",
    "root",
    "started",
    "pid",
];

fn redact(value: &mut Value, dir: &str) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if VOLATILE.iter().any(|w| key.contains(w)) && !v.is_object() {
                    *v = Value::String(format!("[{key}]"));
                } else {
                    redact(v, dir);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact(v, dir)),
        Value::String(s) if s.contains(dir) => *s = s.replace(dir, "[dir]"),
        Value::Number(n) if n.is_f64() => *value = Value::String("[float]".into()),
        _ => {}
    }
}

/// Runs `hexcert --json ARGS` in `dir`; its stdout as one redacted JSON
/// document, with the exit code beside it.
fn report(dir: &Path, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .current_dir(dir)
        .arg("--json")
        .arg("-q")
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut value: Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!("{args:?}: not one JSON document ({e}):\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr))
    });
    redact(&mut value, dir.to_str().unwrap());
    serde_json::json!({"exit_code": out.status.code(), "report": value})
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

#[test]
fn the_grid_commands_reports() {
    let dir = scratch("grid");
    insta::assert_json_snapshot!(
        "solve",
        report(&dir, &["solve", "--n", "3", "--level", "2", "--max-penalty", "3", "-o", "grid.txt"])
    );
    insta::assert_json_snapshot!("verify", report(&dir, &["verify", "grid.txt"]));
    write(&dir, "bad.txt", "hexcert n=3 level=2\nnot a grid\n");
    insta::assert_json_snapshot!("verify_bad_input", report(&dir, &["verify", "bad.txt"]));
    insta::assert_json_snapshot!("render", report(&dir, &["render", "grid.txt", "-o", "grid.svg"]));
    insta::assert_json_snapshot!(
        "encode",
        report(&dir, &["encode", "--n", "3", "--level", "2", "--max-penalty", "2", "-o", "f.cnf"])
    );
    insta::assert_json_snapshot!("optimize", report(&dir, &["optimize", "--n", "4", "--level", "3"]));
    // One job: the members run in order, so which one finds the grid is fixed.
    insta::assert_json_snapshot!(
        "search",
        report(
            &dir,
            &["search", "--n", "5", "--max-penalty", "9", "--jobs", "1", "-o", "n5.txt", "--ledger", "hunt.json"]
        )
    );
}

/// Proof commands run VeriPB on the statement -> CNF step, so their reports
/// are pinned where VeriPB is (under CI it must be); no DRAT checker runs
/// (`--external-check never`), so whether rate is installed does not matter.
#[test]
fn the_proof_commands_reports() {
    if !common::veripb_present() {
        return;
    }
    let dir = scratch("proof");
    insta::assert_json_snapshot!(
        "prove",
        report(
            &dir,
            &[
                "prove",
                "--n",
                "4",
                "--level",
                "2",
                "--below",
                "2",
                "--no-race",
                "--proofs",
                "p",
                "--external-check",
                "never"
            ]
        )
    );
    // The claim's bytes hold its times: the hash of what export read varies.
    let mut exported = report(&dir, &["export", "p/n4/level2-below2", "--out", "exported"]);
    exported["report"]["manifest"]["record_sha256"] = "[record_sha256]".into();
    insta::assert_json_snapshot!("export", exported);
    insta::assert_json_snapshot!(
        "prove_false_claim",
        report(&dir, &["prove", "--n", "4", "--level", "2", "--below", "3", "--no-race", "--proofs", "p"])
    );
    insta::assert_json_snapshot!(
        "certify",
        report(&dir, &["certify", "--n", "3", "--no-race", "--proofs", "c", "--external-check", "never"])
    );
    insta::assert_json_snapshot!("certify_bad_range", report(&dir, &["certify", "--n", "1..=2", "--proofs", "c"]));
    insta::assert_json_snapshot!("check", report(&dir, &["check", "c/n3/optimum.json"]));
    insta::assert_json_snapshot!(
        "statement",
        report(&dir, &["statement", "--n", "3", "--level", "2", "--below", "3", "-o", "s.opb"])
    );
}

#[test]
fn the_count_commands_reports() {
    let dir = scratch("count");
    insta::assert_json_snapshot!("count_sweep", report(&dir, &["count", "--n", "4", "--level", "3"]));
    insta::assert_json_snapshot!("count_sat", report(&dir, &["count", "--n", "4", "--level", "3", "--road", "sat"]));
    insta::assert_json_snapshot!(
        "count_sat_listed",
        report(&dir, &["count", "--n", "4", "--level", "3", "--road", "sat", "--max-penalty", "3"])
    );
    insta::assert_json_snapshot!(
        "count_up_to",
        report(&dir, &["count", "--n", "4", "--level", "3", "--max-penalty", "3"])
    );
    insta::assert_json_snapshot!(
        "count_refine",
        report(&dir, &["count", "--n", "4", "--level", "4", "--road", "refine"])
    );
    insta::assert_json_snapshot!("table_minima", report(&dir, &["table", "--n", "3..=4", "penalties"]));
}

#[test]
fn the_cube_commands_reports() {
    if !common::veripb_present() {
        return;
    }
    let dir = scratch("cubes");
    let claim = ["--n", "5", "--level", "3", "--below", "9", "--radius", "1", "--depth", "1"];
    insta::assert_json_snapshot!(
        "cubes_plan",
        report(&dir, &[&["cubes", "plan"][..], &claim, &["-o", "plan.json", "--results", "results"]].concat())
    );
    insta::assert_json_snapshot!(
        "cubes_status_open",
        report(&dir, &["cubes", "status", "plan.json", "--results", "results"])
    );
    insta::assert_json_snapshot!(
        "cubes_run",
        report(
            &dir,
            &[
                "cubes",
                "run",
                "plan.json",
                "--all",
                "--jobs",
                "1",
                "--results",
                "results",
                "--store-limit",
                "100000000"
            ]
        )
    );
    insta::assert_json_snapshot!(
        "cubes_status_done",
        report(&dir, &["cubes", "status", "plan.json", "--results", "results"])
    );
    insta::assert_json_snapshot!(
        "cubes_refine",
        report(
            &dir,
            &[
                "cubes",
                "refine",
                "plan.json",
                "--cube",
                "0",
                "--results",
                "results",
                "-o",
                "refined.json",
                "--strategy",
                "cardinality"
            ]
        )
    );
    insta::assert_json_snapshot!(
        "cubes_merge",
        report(&dir, &["cubes", "merge", "plan.json", "--results", "results", "--proofs", "p"])
    );
}
