//! `hexcert count` on checkpoint tables and start hints an adversary wrote:
//! each crafted input gives a one-line error and a non-zero exit within
//! seconds, a table that contradicts the sweep is an error naming it, and a
//! count names the tables it loaded. The table format is written here from
//! its description (docs/COUNTING.md), independently of the engine's writer.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

/// Most time a refusal may take.
const QUICK: Duration = Duration::from_secs(20);

fn hexcert(args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_hexcert")).args(args).output().expect("hexcert runs");
    (output, started.elapsed())
}

fn varint(out: &mut Vec<u8>, mut x: u128) {
    loop {
        let byte = (x & 0x7f) as u8;
        x >>= 7;
        if x == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// A table file: format line, side, level, bound, layer count, then `rest`,
/// then the SHA-256 of all that (recomputed, as an adversary would).
fn table(side: u128, level: u128, bound: u128, layers: u128, rest: &[u8]) -> Vec<u8> {
    let mut bytes = b"hexcert-table/1\n".to_vec();
    for x in [side, level, bound, layers] {
        varint(&mut bytes, x);
    }
    bytes.extend_from_slice(rest);
    let digest = Sha256::digest(&bytes);
    bytes.extend_from_slice(&digest);
    bytes
}

/// The run failed with exit `code` and one line of stderr holding `needle`, quickly.
fn refused(output: &Output, took: Duration, code: i32, needle: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(code), "stderr: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "not one line: {stderr}");
    assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    assert!(took < QUICK, "took {took:?}");
    // Nothing but, under --json, the error as one document.
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !stdout.is_empty() {
        let error: serde_json::Value =
            serde_json::from_str(stdout.trim()).unwrap_or_else(|_| panic!("a refused count printed {stdout}"));
        assert_eq!(
            (error["exit_code"].as_i64(), error["error"].as_str().is_some_and(|e| e.contains(needle))),
            (Some(code.into()), true),
            "{stdout}"
        );
    }
}

/// A correct trailer over a huge layer length once panicked ("capacity
/// overflow") or aborted on allocation.
#[test]
fn a_huge_layer_length_behind_a_correct_hash_is_refused() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut rest = Vec::new();
    varint(&mut rest, u128::from(u64::MAX));
    // n = 3 has 19 cells, so 20 layers; the count starts at bound 0.
    std::fs::write(dir.path().join("n3-level1-bound0.table"), table(3, 1, 0, 20, &rest)).expect("write");
    let (output, took) = hexcert(&["count", "--n", "3", "--level", "1", "--checkpoints", path(dir.path())]);
    refused(&output, took, 2, "n3-level1-bound0.table: checkpoint table refused: layer 0 claims");
    let (output, took) = hexcert(&["count", "--n", "3", "--level", "1", "--checkpoints", path(dir.path()), "--json"]);
    refused(&output, took, 2, "layer 0 claims");
}

/// A FIFO or a directory in a table's place is refused, not waited on.
#[test]
fn a_table_that_is_not_a_regular_file_is_refused() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let fifo = dir.path().join("n3-level1-bound0.table");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs").success());
    let (output, took) = hexcert(&["count", "--n", "3", "--level", "1", "--checkpoints", path(dir.path())]);
    refused(&output, took, 2, "not a regular file");
    std::fs::remove_file(&fifo).expect("remove");
    std::fs::create_dir(&fifo).expect("a directory in its place");
    let (output, took) = hexcert(&["count", "--n", "3", "--level", "1", "--checkpoints", path(dir.path())]);
    refused(&output, took, 2, "not a regular file");
}

/// A rerun loads the tables the first run wrote, names them, counts the
/// same and exits 4 (the tables are an earlier run's word); a table edited to claim a lower minimum (trailer recomputed) passes
/// the hash but meets the sweep, which finds no partial there: an error
/// naming the table, never "0 partials".
#[test]
fn loaded_tables_are_named_and_an_edited_minimum_is_an_error() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let args = ["count", "--n", "5", "--level", "1", "--checkpoints", path(dir.path())];
    let (first, _) = hexcert(&args);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let first = String::from_utf8_lossy(&first.stdout).into_owned();
    assert!(first.starts_with("n=5 level=1 minimum penalty 7: 84 partials") && !first.contains("loaded"), "{first}");
    let (again, _) = hexcert(&[&args[..], &["--json"]].concat());
    assert_eq!(again.status.code(), Some(4), "a count from loaded tables is unverified");
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).expect("JSON");
    assert_eq!((again["minimum"].as_u64(), again["counts"][0]["count"].as_str()), (Some(7), Some("84")));
    let loaded: Vec<&str> =
        again["tables_loaded"].as_array().expect("a list").iter().filter_map(|p| p.as_str()).collect();
    assert_eq!(loaded.len(), 8, "bounds 0..=7 of level 1: {loaded:?}");
    assert!(loaded.iter().all(|p| p.ends_with(".table")));

    // The minimum of the bound-7 table sits in its first layer: one entry,
    // state 0 (delta 0), then its charge, right after the header and the length.
    let file = dir.path().join("n5-level1-bound7.table");
    let bytes = std::fs::read(&file).expect("read");
    let header = b"hexcert-table/1\n".len() + 4;
    assert_eq!(&bytes[header..header + 3], &[1, 0, 7], "layer 0 is (state 0, charge 7)");
    let mut body = bytes[..bytes.len() - 32].to_vec();
    body[header + 2] = 6;
    let digest = Sha256::digest(&body);
    body.extend_from_slice(&digest);
    std::fs::write(&file, &body).expect("write");
    let (output, took) = hexcert(&args);
    refused(&output, took, 3, "no partial reaches it");
    assert!(String::from_utf8_lossy(&output.stderr).contains("n5-level1-bound7.table"));
}

/// `table counts` says the same of a row made from loaded tables: it names
/// them after the table (and in `tables_loaded`), says the row is
/// unverified, and exits 4; the run that built them exits 0 and names none.
#[test]
fn a_table_from_loaded_tables_names_them_and_exits_4() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let args = ["table", "counts", "--n", "4", "--checkpoints", path(dir.path())];
    let (first, _) = hexcert(&args);
    let text = String::from_utf8_lossy(&first.stdout).into_owned();
    assert_eq!(first.status.code(), Some(0), "{text}");
    assert!(!text.contains("loaded") && !text.contains("unverified"), "{text}");
    let (again, _) = hexcert(&args);
    let again_text = String::from_utf8_lossy(&again.stdout).into_owned();
    assert_eq!(again.status.code(), Some(4), "{again_text}");
    assert!(again_text.starts_with(text.lines().next().expect("a header")), "{again_text}");
    assert!(
        again_text.contains("checkpoint tables loaded") && again_text.contains("unverified: the loaded tables"),
        "{again_text}"
    );
    let (json, _) = hexcert(&[&args[..], &["--json"]].concat());
    assert_eq!(json.status.code(), Some(4));
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let loaded = json["tables_loaded"].as_array().expect("a list");
    assert!(
        !loaded.is_empty() && loaded.iter().all(|p| p.as_str().is_some_and(|p| p.ends_with(".table"))),
        "{loaded:?}"
    );
    assert_eq!(json["rows"][0]["levels"][0]["count"], "2", "n = 4 level 1: 2 partials");
}

/// `--start-from` reads a hint from optimum.json; an inflated or malformed
/// one is refused (it once ran out of memory at n = 7), a true one counts.
#[test]
fn an_inflated_start_hint_is_refused() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let n5 = dir.path().join("n5");
    std::fs::create_dir(&n5).expect("mkdir");
    let witness = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/n5/witness.txt");
    std::fs::copy(&witness, n5.join("witness.txt")).expect("copy the witness");
    let write = |minima: &str, optimum: u64| {
        let record = format!(
            "{{\"format\": \"hexcert-optimum/1\", \"optimum\": {optimum}, \"witness\": \"witness.txt\", \"level_minima\": {minima}}}"
        );
        std::fs::write(n5.join("optimum.json"), record).expect("write");
    };
    let count = || hexcert(&["count", "--n", "5", "--level", "3", "--start-from", path(dir.path())]);
    write("[7, 8, 9, 9, 9, 9]", 9);
    let (output, _) = count();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("n=5 level=3 minimum penalty 9: 360 partials"));
    for (minima, optimum, why) in [
        ("[7, 8, 200, 200, 200, 200]", 200, "not non-decreasing within"),
        ("[7, 8, 40, 40, 40, 40]", 40, "its witness is not a valid full grid of penalty 40"),
        ("[7, 8, 9, 9, 9, 9]", 10, "`optimum` is not the last"),
        ("[9, 8, 9, 9, 9, 9]", 9, "not non-decreasing"),
        ("\"many\"", 9, "not six penalties"),
    ] {
        write(minima, optimum);
        let (output, took) = count();
        refused(&output, took, 2, why);
    }
    // Only an optimum record is a hint: another format, or none, is refused by name.
    let good = r#""optimum": 9, "witness": "witness.txt", "level_minima": [7, 8, 9, 9, 9, 9]"#;
    for (record, why) in [
        (format!(r#"{{"format": "hexcert-claim/3", {good}}}"#), "unknown record format `hexcert-claim/3`"),
        (format!("{{{good}}}"), "no `format`: not a hexcert-optimum/1 record"),
    ] {
        std::fs::write(n5.join("optimum.json"), record).expect("write");
        let (output, took) = count();
        refused(&output, took, 2, why);
    }
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Ctrl-C in the middle of a table leaves its finished forward layers in the
/// checkpoint directory (exit 130); the rerun resumes from them, names them
/// among the files it loaded (exit 4), counts what an uninterrupted run counts, and
/// removes them once the table is saved.
#[test]
fn a_table_stopped_mid_pass_resumes_from_its_forward_layers() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let args =
        ["count", "--n", "8", "--level", "1", "--start-bound", "20", "--json", "--checkpoints", path(dir.path())];
    let journal = dir.path().join("n8-level1-bound20.forward");
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("hexcert runs");
    let deadline = Instant::now() + Duration::from_secs(120);
    while !journal.join("layer-40").exists() {
        assert!(Instant::now() < deadline, "no 40 forward layers within 2 minutes");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: sending a signal to our own child process.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(child.wait().expect("waits").code(), Some(130), "stopped by Ctrl-C");
    let kept = std::fs::read_dir(&journal).expect("the forward layers stay").flatten().count();
    assert!((40..169).contains(&kept), "{kept} layers kept");
    assert!(!dir.path().join("n8-level1-bound20.table").exists(), "no table from a stopped pass");

    let (rerun, _) = hexcert(&args);
    assert_eq!(
        rerun.status.code(),
        Some(4),
        "resumed layers are an earlier run's word: {}",
        String::from_utf8_lossy(&rerun.stderr)
    );
    let rerun: serde_json::Value = serde_json::from_slice(&rerun.stdout).expect("JSON");
    let fresh = tempfile::tempdir().expect("temporary directory");
    let (whole, _) = hexcert(&[
        "count",
        "--n",
        "8",
        "--level",
        "1",
        "--start-bound",
        "20",
        "--json",
        "--checkpoints",
        path(fresh.path()),
    ]);
    let whole: serde_json::Value = serde_json::from_slice(&whole.stdout).expect("JSON");
    assert_eq!((rerun["minimum"].as_u64(), rerun["counts"][0]["count"].as_str()), (Some(14), Some("48")));
    assert_eq!(rerun["counts"], whole["counts"]);
    let loaded: Vec<&str> =
        rerun["tables_loaded"].as_array().expect("a list").iter().filter_map(|p| p.as_str()).collect();
    assert_eq!(loaded, [journal.to_str().unwrap()], "the resumed layers are named");
    assert!(!journal.exists(), "the layers go once the table is saved");
    let table = |d: &Path| std::fs::read(d.join("n8-level1-bound20.table")).expect("table");
    assert!(table(dir.path()) == table(fresh.path()), "the resumed table differs from one built in one run");
}
