//! The command line as a user meets it: exit codes, one-line errors, and no
//! output file left behind when the input is bad.

use crate::common::Scratch;
use std::path::Path;
use std::process::{Command, Output};

fn hexcert(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexcert")).args(args).output().expect("run hexcert")
}

/// A scratch directory for this test, removed when it goes out of scope.
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("cli-{name}"))
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
    assert_eq!((&doc["road"], &doc["minimum"]), (&serde_json::json!("sweep"), &serde_json::json!(3)));
    assert_eq!(doc["counts"], serde_json::json!([{"penalty": 3, "count": "1152"}]));
    let out = hexcert(&["table", "penalties", "--n", "3..=4", "-q"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("| 4 | 0 | 2 | 3 | 3 | 3 | 3 |"), "{text}");
    // --verbose reaches the counting tables through the run's context: a
    // line per table built, none without it.
    let logged = hexcert(&["count", "--n", "4", "--level", "2", "-v", "-q"]);
    assert!(
        String::from_utf8_lossy(&logged.stderr).contains("table level 1 bound"),
        "{}",
        String::from_utf8_lossy(&logged.stderr)
    );
    assert!(hexcert(&["count", "--n", "4", "--level", "2", "-q"]).stderr.is_empty());
    let out = hexcert(&["count", "--n", "4", "--level", "9"]);
    assert_eq!(out.status.code(), Some(2));
    // Near the minima: each cell's counts at the minimum and one above it,
    // the second the sweep's count at that penalty.
    let near = json(&["table", "counts", "--n", "4", "--above", "1", "--json", "-q"]);
    let level3 = &near["rows"][0]["levels"][2];
    let above = json(&["count", "--n", "4", "--level", "3", "--penalty", "4", "--json", "-q"]);
    assert_eq!((&level3["minimum"], &level3["count"]), (&serde_json::json!(3), &serde_json::json!("28")));
    assert_eq!(serde_json::json!([{"penalty": 4, "count": level3["above"][0]}]), above["counts"]);
    let out = hexcert(&["table", "penalties", "--n", "4", "--above", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--above"));
}

/// The JSON report of a command that must succeed.
fn json(args: &[&str]) -> serde_json::Value {
    let out = hexcert(args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Levels 5 and 6 on two roads from the command line: the sweep road's chain
/// products over level 4 against the frontier road's sweep at the level
/// itself, at n = 6 (both under two seconds); the frontier road refuses the
/// levels where it would be the sweep road again, and a count with no penalty.
#[test]
fn the_frontier_road_counts_levels_five_and_six_as_the_chain_products_do() {
    for level in ["5", "6"] {
        let sweep = json(&["count", "--n", "6", "--level", level, "--json", "-q"]);
        let minimum = sweep["minimum"].as_u64().expect("the sweep finds the minimum").to_string();
        let frontier =
            json(&["count", "--n", "6", "--level", level, "--road", "frontier", "--penalty", &minimum, "--json", "-q"]);
        assert_eq!(frontier["road"], serde_json::json!("frontier"));
        assert_eq!(frontier["counts"], sweep["counts"], "level {level}");
    }
    for refused in [
        &["count", "--n", "6", "--level", "3", "--road", "frontier", "--penalty", "13"][..],
        &["count", "--n", "6", "--level", "6", "--road", "frontier"],
    ] {
        let out = hexcert(refused);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("--road frontier"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The extension road through the command line: levels 2, 3 and 5 up to
/// a bound give the sweep's counts penalty by penalty (n = 5, under two
/// seconds each; level 5 against the chain products), and level 1 is
/// refused in one line. `--road refine`, the road's old name, still runs
/// it (a hidden alias: the help lists `extension` only), and `--json` still
/// reports it as `refine`, which scripts read.
#[test]
fn the_extension_road_counts_by_penalty_as_the_sweep_does() {
    for (level, bound) in [("2", "10"), ("3", "10"), ("5", "10")] {
        let sweep = json(&["count", "--n", "5", "--level", level, "--max-penalty", bound, "--json", "-q"]);
        let extended = json(&[
            "count",
            "--n",
            "5",
            "--level",
            level,
            "--road",
            "extension",
            "--max-penalty",
            bound,
            "--json",
            "-q",
        ]);
        assert_eq!(extended["road"], serde_json::json!("refine"));
        assert_eq!(extended["counts"], sweep["counts"], "level {level}");
        assert_eq!(extended["minimum"], sweep["minimum"], "level {level}");
        assert!(extended["refined_partials"].as_u64().is_some_and(|r| r > 0));
    }
    let old_name =
        json(&["count", "--n", "5", "--level", "2", "--road", "refine", "--max-penalty", "10", "--json", "-q"]);
    let new_name =
        json(&["count", "--n", "5", "--level", "2", "--road", "extension", "--max-penalty", "10", "--json", "-q"]);
    assert_eq!((&old_name["road"], &old_name["counts"]), (&new_name["road"], &new_name["counts"]));
    let help = String::from_utf8(hexcert(&["count", "--help"]).stdout).unwrap();
    assert!(help.contains("- extension:") && !help.contains("- refine"), "{help}");
    let out = hexcert(&["count", "--n", "5", "--level", "1", "--road", "extension"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("levels 2 to 6") && stderr.lines().count() == 1, "{stderr}");
}

/// Records whose numbers are out of range, or that disagree with their
/// directories, each fail with one line naming the file, and the run goes
/// on to the next record (a level-0 claim used to panic the encoder and stop
/// the whole run). The good record is claim-only here, so this test needs
/// no DRAT checker: it is reported `unverified`, which shows the run reached it.
#[test]
fn check_rejects_out_of_range_records_one_line_each_and_goes_on() {
    let root = scratch("ranges");
    let _ = std::fs::remove_dir_all(&root);
    let source = format!("{}/proofs/n3/level2-below3/claim.json", env!("CARGO_MANIFEST_DIR"));
    let mut good: serde_json::Value = serde_json::from_slice(&std::fs::read(&source).unwrap()).unwrap();
    good["cnf"]["stored_as"] = serde_json::Value::Null;
    good["proof"]["stored_as"] = serde_json::Value::Null;
    let place = |dir: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut claim = good.clone();
        edit(&mut claim);
        let path = root.join(dir).join("claim.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, serde_json::to_vec_pretty(&claim).unwrap()).unwrap();
        path
    };
    let ok = place("n3/level2-below3", &|_| {});
    let bad = [
        (place("n3/level0-below3", &|c| c["level"] = 0.into()), "level 0 is out of range 1..=6"),
        (place("n41/level2-below3", &|c| c["n"] = 41.into()), "hexagon side 41 is out of range"),
        (place("n3/level2-below0", &|c| c["below"] = 0.into()), "below 0 is out of range"),
        (place("n4/level2-below3", &|_| {}), "the record states n = 3 but lies in the directory n4"),
        (place("n3/level2-below4", &|_| {}), "lies in the directory level2-below4, not level2-below3"),
    ];
    let out = hexcert(&["check", root.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}{err}");
    assert!(!err.contains("panicked"), "{err}");
    let lines: Vec<&str> = text.lines().collect();
    for (path, problem) in &bad {
        let shown = path.display().to_string();
        let at = lines
            .iter()
            .position(|l| *l == format!("failed: {shown}"))
            .unwrap_or_else(|| panic!("{shown} not failed:\n{text}"));
        let message = lines[at + 1].trim();
        assert!(message.starts_with(&shown) && message.contains(problem), "{message}");
        assert!(!lines.get(at + 2).is_some_and(|l| l.starts_with("    ")), "one line per error:\n{text}");
    }
    assert!(lines.contains(&format!("unverified: {}", ok.display()).as_str()), "{text}");
    assert!(text.contains("6 records: 0 verified, 5 failed, 1 unverified"), "{text}");
}

/// Ctrl-C over a range of sides stops the side being counted, whichever it
/// is: one stop flag for the whole process (ctrlc takes one handler per
/// process; a flag per side left every side after the first deaf to it).
/// The rows already printed stay as they were, and the exit is 130.
#[test]
fn ctrl_c_stops_a_table_after_its_first_row() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    let mut child = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .args(["table", "counts", "--n", "3..=9", "-q"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hexcert runs");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let mut printed = String::new();
    while !printed.contains("| 3 |") {
        assert!(stdout.read_line(&mut printed).expect("reads stdout") > 0, "no n = 3 row:\n{printed}");
    }
    // SAFETY: sending a signal to our own child process.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let status = exit_within_20_s(&mut child, &format!("still counting 20 s after Ctrl-C; printed so far:\n{printed}"));
    assert_eq!(status.code(), Some(130), "the interrupted exit code");
    std::io::Read::read_to_string(&mut stdout, &mut printed).expect("reads the rest");
    let rows: Vec<&str> = printed.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| n ")).collect();
    assert!(rows[0].starts_with("| 3 | 6 | 48 | 36 | 24 | 72 | 144 |"), "{printed}");
    assert!(rows.len() < 7, "the range ran to its end:\n{printed}");
    assert!(rows.iter().all(|row| row.matches('|').count() == 9), "a row cut short:\n{printed}");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("piped"), &mut stderr).expect("reads stderr");
    assert!(stderr.to_lowercase().contains("interrupt"), "{stderr}");
}

/// `search` polls the run's stop flag: Ctrl-C stops every member of the
/// portfolio, none of them is reported exhausted (a member stopped is not a
/// member whose space is empty), no grid file is written, the hunt's ledger
/// keeps the seconds spent with the member still open, and the exit is
/// 130. n = 10 at penalty 28 is a search the portfolio does not finish in
/// minutes (docs/RESULTS.md); its one member here neither finds nor exhausts
/// in seconds, so any "no grid" line is the stopped member misreported.
#[test]
fn ctrl_c_stops_a_grid_search() {
    let dir = scratch("interrupted-search");
    let (grid, ledger) = (dir.join("grid.txt"), dir.join("hunt.json"));
    let args =
        ["search", "--n", "10", "--max-penalty", "28", "--jobs", "1", "--inner", "3", "--centre", "beside-centre"];
    let args = [&args[..], &["--ledger", ledger.to_str().unwrap(), "-o"]].concat();
    let (status, _, stderr) = interrupted_after_3_s(&args, &grid, "still searching 20 s after Ctrl-C");
    assert_eq!(status.code(), Some(130), "the interrupted exit code; stderr:\n{stderr}");
    assert!(!stderr.contains("no grid"), "a stopped member reported exhausted:\n{stderr}");
    assert!(stderr.to_lowercase().contains("interrupt"), "{stderr}");
    assert!(!grid.exists(), "a grid file written by an interrupted search");
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&ledger).expect("the ledger written on Ctrl-C")).unwrap();
    let member = &written["members"][0];
    assert_eq!((member["state"].as_str(), member["runs"].as_u64()), (Some("open"), Some(1)), "{written}");
    assert!(member["cpu_seconds"].as_f64().unwrap() > 0.0, "the stopped member's seconds were not kept: {written}");
}

/// `solve` polls the run's stop flag: Ctrl-C stops the solver, the call is
/// not reported unsatisfiable (it did not answer), no file is written, and
/// the exit is 130. n = 9 level 3 at penalty 23 is UNSAT (its minimum is
/// 24) and took some 290 s to refute (docs/RESULTS.md), so 3 s in, the call
/// is still running; a process deaf to the flag dies by the signal instead.
#[test]
fn ctrl_c_stops_a_solve() {
    let dir = scratch("interrupted-solve");
    let partial = dir.join("partial.txt");
    let args = ["solve", "--n", "9", "--level", "3", "--max-penalty", "23", "-o"];
    let (status, stdout, stderr) = interrupted_after_3_s(&args, &partial, "still solving 20 s after Ctrl-C");
    assert_eq!(status.code(), Some(130), "the interrupted exit code; stderr:\n{stderr}");
    assert!(!stdout.contains("unsatisfiable"), "a stopped call reported unsatisfiable:\n{stdout}");
    assert!(stderr.to_lowercase().contains("interrupt"), "{stderr}");
    assert!(!partial.exists(), "a partial written by an interrupted solve");
}

/// `check --regenerate` polls the run's stop flag: Ctrl-C stops the
/// re-solve, a claim cut short and the optimum resting on it are reported
/// unverified (neither verified nor failed: nothing was found wrong with
/// them), so are the claims checked before the signal (an interrupted run
/// never prints verified: `check --keep-verdicts` stopped after its last
/// cube did), the records are left as they were, and the exit is 130. n = 8
/// stores no proof; its level-3 claim took some 50 s to refute, so 3 s in,
/// it is not done.
#[test]
fn ctrl_c_stops_a_regenerating_check() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/n8");
    let dir = scratch("interrupted-check");
    let copy = dir.join("n8");
    std::fs::create_dir_all(&copy).unwrap();
    let files = [
        "optimum.json",
        "witness.txt",
        "level1-below14/claim.json",
        "level2-below18/claim.json",
        "level3-below20/claim.json",
    ];
    for file in files {
        std::fs::create_dir_all(copy.join(file).parent().unwrap()).unwrap();
        std::fs::copy(source.join(file), copy.join(file)).unwrap();
    }
    let (status, stdout, stderr) =
        interrupted_after_3_s(&["check", "--regenerate"], &copy, "still checking 20 s after Ctrl-C");
    assert_eq!(status.code(), Some(130), "the interrupted exit code; stderr:\n{stderr}");
    for cut_short in ["level3-below20/claim.json", "optimum.json"] {
        assert!(stdout.contains(&format!("unverified: {}", copy.join(cut_short).display())), "{stdout}");
    }
    assert!(stdout.contains(", 0 failed, "), "{stdout}");
    // Levels 1 and 2 re-solve within the 3 s: checked, yet an interrupted run says verified of nothing.
    assert!(stdout.contains(" 0 verified, ") && !stdout.lines().any(|l| l.starts_with("verified")), "{stdout}");
    assert!(stderr.to_lowercase().contains("interrupt"), "{stderr}");
    for file in files {
        assert_eq!(
            std::fs::read(copy.join(file)).unwrap(),
            std::fs::read(source.join(file)).unwrap(),
            "{file} was changed"
        );
    }
}

/// The audit case (round 5, F4): under a file-size limit (`ulimit -f`, a
/// batch system's) `check` died of SIGXFSZ (exit 153, not a word) and left
/// its work directory in TMPDIR. A file-size limit is no room, as a full
/// disk is: one line, exit 2, nothing left.
#[test]
fn a_file_size_limit_ends_a_check_with_one_line_not_a_signal() {
    let scratch = scratch("fsize");
    let tmp = scratch.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let claim = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/n5/level3-below9");
    let script = format!("ulimit -f 64; exec '{}' check -q '{}'", env!("CARGO_BIN_EXE_hexcert"), claim.display());
    let out = Command::new("sh").args(["-c", &script]).env("TMPDIR", &tmp).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{:?}: {stderr}", out.status);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(left.is_empty(), "scratch left behind: {left:?}");
}

/// The audit case (round 5, F4): a check killed outright (SIGKILL, the OOM
/// killer) left `hexcert-check-*` in TMPDIR (23 MB for n = 7 level 3) and
/// no run reaped it. The next run that makes one reaps those of this host
/// whose run is gone and whose lock is free; another host's, a live
/// process's, and anything not hexcert's are left alone.
#[test]
fn a_killed_checks_scratch_in_tmpdir_is_reaped_by_the_next_run() {
    let scratch = scratch("tmp-reap");
    let tmp = scratch.join("tmp");
    let host = hexcert::run::host();
    let dead_pid = 4_194_400; // above the kernel's default maximum: no process has it
    let made = |name: String, lock: &str| {
        let path = tmp.join(name);
        std::fs::create_dir_all(&path).unwrap();
        std::fs::write(path.join(lock), b"").unwrap();
        std::fs::write(path.join("formula.cnf"), b"a killed run's").unwrap();
        path
    };
    let dead = made(format!("hexcert-check-{host}-00112233aabbccdd-{dead_pid}-0"), ".lock");
    let unnamed =
        made(format!(".new-hexcert-veripb-n5-level3-below9-{host}-00112233aabbccdd-{dead_pid}-1"), ".lock.new");
    let alive = made(format!("hexcert-check-{host}-00112233aabbccdd-{}-0", std::process::id()), ".lock");
    let elsewhere = made(format!("hexcert-check-otherhost-00112233aabbccdd-{dead_pid}-0"), ".lock");
    let foreign = made(format!("other-tool-{host}-00112233aabbccdd-{dead_pid}-0"), ".lock");
    let claim = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/n5/level3-below9");
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .args(["check", "-q", claim.to_str().unwrap()])
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let kept = [&dead, &unnamed, &alive, &elsewhere, &foreign].map(|p| p.exists());
    assert_eq!(kept, [false, false, true, true, true], "(dead, dead unnamed, alive, another host's, not hexcert's)");
}

/// SIGTERM (`timeout`, Slurm's time limit) stops a run as Ctrl-C does: a
/// `check --regenerate` ends with exit 130, its records as they were, and
/// its scratch directory (`hexcert-check-*` in TMPDIR, 93 MB for one n = 12
/// cube) is removed on the way out, where SIGTERM used to kill it outright
/// and leave the directory behind.
#[test]
fn sigterm_stops_a_regenerating_check_as_ctrl_c_does() {
    let scratch = scratch("terminated-check");
    let (copy, tmp) = (scratch.join("n8"), scratch.join("tmp"));
    std::fs::create_dir_all(copy.join("level3-below20")).unwrap();
    std::fs::create_dir_all(&tmp).unwrap();
    let claim = "level3-below20/claim.json";
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/n8").join(claim), copy.join(claim)).unwrap();
    let (status, _, stderr) = signalled_after_3_s(
        libc::SIGTERM,
        &["check", "--regenerate"],
        &copy,
        Some(&tmp),
        "still checking 20 s after SIGTERM",
    );
    assert_eq!(status.code(), Some(130), "the interrupted exit code; stderr:\n{stderr}");
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(left.is_empty(), "scratch left behind: {left:?}");
}

/// Runs hexcert with `args` and then `path`, sends it SIGINT (Ctrl-C) 3 s
/// in, and returns its exit status, stdout and stderr; fails with `deaf`
/// if it is still running 20 s later.
fn interrupted_after_3_s(args: &[&str], path: &Path, deaf: &str) -> (std::process::ExitStatus, String, String) {
    signalled_after_3_s(libc::SIGINT, args, path, None, deaf)
}

/// `interrupted_after_3_s` with `signal`, and TMPDIR set to `tmp` when given.
fn signalled_after_3_s(
    signal: libc::c_int,
    args: &[&str],
    path: &Path,
    tmp: Option<&Path>,
    deaf: &str,
) -> (std::process::ExitStatus, String, String) {
    use std::process::Stdio;

    let mut command = Command::new(env!("CARGO_BIN_EXE_hexcert"));
    if let Some(tmp) = tmp {
        command.env("TMPDIR", tmp);
    }
    let mut child =
        command.args(args).arg(path).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("hexcert runs");
    std::thread::sleep(std::time::Duration::from_secs(3));
    // SAFETY: sending a signal to our own child process.
    unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    let status = exit_within_20_s(&mut child, deaf);
    let (mut stdout, mut stderr) = (String::new(), String::new());
    std::io::Read::read_to_string(&mut child.stdout.take().expect("piped"), &mut stdout).expect("reads stdout");
    std::io::Read::read_to_string(&mut child.stderr.take().expect("piped"), &mut stderr).expect("reads stderr");
    (status, stdout, stderr)
}

/// The child's exit status, once it exits; kills it and fails with `deaf`
/// if it is still running 20 s on.
fn exit_within_20_s(child: &mut std::process::Child, deaf: &str) -> std::process::ExitStatus {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            return status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().expect("kills the deaf child");
            child.wait().expect("reaps it");
            panic!("{deaf}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
