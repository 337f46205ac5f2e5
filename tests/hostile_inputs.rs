//! The command line on the hostile inputs of the third audit (issue 36):
//! files that are not files, a gzip bomb under a record that vouches for
//! it, a stored proof named outside its claim, crafted plan literals, a
//! record that forges report lines, shell text in a path, a checker found
//! off PATH, a full disk, a read-only certificate. Each gets one line, the
//! exit code docs/CLI.md gives, and no output file; none hangs or panics.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{copy_dir, edit_json, Scratch};

/// Long enough for any of these commands on a loaded machine; a reader
/// that waits on a fifo or reads `/dev/zero` never ends within it.
const HANG: Duration = Duration::from_secs(120);

fn hexcert() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hexcert"))
}

/// Runs `command`, killed (and the test failed) if it has not ended within [`HANG`].
fn run(command: &mut Command) -> Output {
    let mut child =
        command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("run hexcert");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} did not end within {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("output")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exit `code`, one stderr line containing `needle`, no panic.
fn refused(out: &Output, code: i32, needle: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stdout: {}\nstderr: {err}", text(&out.stdout));
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "{err}");
}

fn fifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn verify_and_render_refuse_a_fifo_and_dev_zero_without_waiting() {
    let dir = Scratch::new("hostile-fifo");
    let pipe = dir.0.join("grid.txt");
    fifo(&pipe);
    let zero = dir.0.join("zero.txt");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let svg = dir.0.join("out.svg");
    for input in [&pipe, &zero] {
        refused(&run(hexcert().arg("verify").arg(input)), 2, "not a regular file");
        refused(&run(hexcert().arg("render").arg(input).arg("-o").arg(&svg)), 2, "not a regular file");
        assert!(!svg.exists(), "no picture of a refused input");
    }
}

/// `certify` reads `.resume/levelK.txt` as a hint: a fifo there is set
/// aside with a line saying so, and the run goes on.
#[test]
fn certify_goes_on_past_a_fifo_in_its_resume_directory() {
    let dir = Scratch::new("hostile-resume");
    let resume = dir.0.join("n3/.resume");
    std::fs::create_dir_all(&resume).unwrap();
    fifo(&resume.join("level1.txt"));
    std::os::unix::fs::symlink("/dev/zero", resume.join("level2.txt")).unwrap();
    let out = run(hexcert().args(["certify", "--n", "3", "-q", "--proofs"]).arg(&dir.0).env("PATH", "/nonexistent"));
    let err = text(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 4)), "{}{err}", text(&out.stdout));
    assert!(err.contains("level1.txt") && err.contains("not a regular file"), "{err}");
    assert!(dir.0.join("n3/optimum.json").exists());
}

/// A copy of `proofs/n3/level2-below3` under `root`, returned with its claim.
fn n3_claim(root: &Path) -> PathBuf {
    let claim_dir = root.join("n3/level2-below3");
    copy_dir(&repo("proofs/n3/level2-below3"), &claim_dir);
    claim_dir.join("claim.json")
}

fn check(path: &Path) -> (Option<i32>, String) {
    let out = run(hexcert().arg("check").arg(path).env("PATH", "/nonexistent"));
    (out.status.code(), text(&out.stdout) + text(&out.stderr).as_str())
}

/// 50 MB of zeros gzip to about 50 kB: the record says 2^40 bytes, so only
/// a cap of hexcert's own stops the decompression early.
#[test]
fn a_gzip_bomb_stops_at_a_cap_the_record_does_not_set() {
    let dir = Scratch::new("hostile-bomb");
    let claim = n3_claim(&dir.0);
    let gz = claim.with_file_name("proof.lrat.gz");
    let mut encoder = flate2::write::GzEncoder::new(std::fs::File::create(&gz).unwrap(), flate2::Compression::best());
    let block = vec![0u8; 1 << 20];
    for _ in 0..50 {
        encoder.write_all(&block).unwrap();
    }
    encoder.finish().unwrap();
    edit_json(&claim, |c| c["lrat_proof"]["bytes"] = (1u64 << 40).into());
    let (code, report) = check(&claim);
    assert_eq!(code, Some(1), "{report}");
    assert!(report.contains("decompresses to more than"), "{report}");
    assert!(report.contains("its compressed size"), "the cap named is hexcert's own: {report}");
}

#[test]
fn a_stored_file_outside_the_claim_directory_is_refused() {
    let dir = Scratch::new("hostile-outside");
    let claim = n3_claim(&dir.0);
    let outside = dir.0.join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::rename(claim.with_file_name("proof.lrat.gz"), outside.join("proof.lrat.gz")).unwrap();
    let absolute = outside.join("proof.lrat.gz").to_str().unwrap().to_string();
    std::os::unix::fs::symlink(&absolute, claim.with_file_name("link.lrat.gz")).unwrap();
    for name in ["../../elsewhere/proof.lrat.gz", absolute.as_str(), "link.lrat.gz"] {
        edit_json(&claim, |c| c["lrat_proof"]["stored_as"] = name.into());
        let (code, report) = check(&claim);
        assert_eq!(code, Some(1), "{name}: {report}");
        assert!(report.contains("outside the claim directory"), "{name}: {report}");
    }
}

/// A change made to a plan's JSON.
type Edit = fn(&mut serde_json::Value);

/// A true claim's plan (n = 4, level 2, below 2) in `dir`.
fn plan(dir: &Path) -> PathBuf {
    let path = dir.join("plan.json");
    let out =
        run(hexcert().args(["cubes", "plan", "--n", "4", "--level", "2", "--below", "2", "-q", "--output"]).arg(&path));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    path
}

#[test]
fn cubes_run_and_statement_refuse_crafted_plans_before_solving() {
    let dir = Scratch::new("hostile-plan");
    let good = plan(&dir.0);
    let bad = dir.0.join("bad.json");
    let results = dir.0.join("results");
    let crafted: [(&str, Edit); 5] = [
        ("literal 99999", |p| p["cubes"][0]["literals"] = serde_json::json!([99999])),
        ("literal 0", |p| p["cubes"][0]["literals"] = serde_json::json!([0])),
        ("literal -2147483648", |p| p["cubes"][0]["literals"] = serde_json::json!([i32::MIN])),
        ("cube 0 is not a projection", |p| p["cubes"][0]["values"] = serde_json::json!([9, 1])),
        ("cube 0 is not a projection", |p| p["cubes"][0]["depth"] = 0.into()),
    ];
    for (needle, change) in crafted {
        std::fs::copy(&good, &bad).unwrap();
        edit_json(&bad, change);
        let out = run(hexcert().args(["cubes", "run", "-q", "--index", "0", "--results"]).arg(&results).arg(&bad));
        refused(&out, 2, needle);
        assert!(!results.exists() || std::fs::read_dir(&results).unwrap().next().is_none(), "{needle}: nothing solved");
    }
    // A plan whose cubes no longer cover the split (the last projection's
    // two leaves dropped): `statement --plan` refuses it before writing any
    // of its three files.
    std::fs::copy(&good, &bad).unwrap();
    edit_json(&bad, |p| {
        let cubes = p["cubes"].as_array_mut().unwrap();
        cubes.truncate(cubes.len() - 2);
    });
    let files: Vec<PathBuf> = ["s.opb", "d.pbp", "t.opb"].iter().map(|f| dir.0.join(f)).collect();
    let out = run(hexcert()
        .args(["statement", "--n", "4", "--level", "2", "--below", "2", "--plan"])
        .arg(&bad)
        .arg("-o")
        .arg(&files[0])
        .arg("--derivation")
        .arg(&files[1])
        .arg("--target")
        .arg(&files[2]));
    refused(&out, 2, "cover");
    assert!(files.iter().all(|f| !f.exists()), "no file of a refused plan");
}

/// A record's `written_by` is printed in reports: a newline in it would
/// print a line the record's author chose.
#[test]
fn a_written_by_with_a_newline_is_refused_not_printed() {
    let dir = Scratch::new("hostile-written-by");
    let leaders = dir.0.join("leaders");
    let count = || {
        run(hexcert()
            .args(["count", "--n", "4", "--level", "2", "--road", "sat", "--max-penalty", "3", "-q", "--leaders-dir"])
            .arg(&leaders))
    };
    assert_eq!(count().status.code(), Some(0));
    edit_json(&leaders.join("cube-0.json"), |r| r["written_by"] = "x)\nverified: forged (".into());
    let out = count();
    let all = text(&out.stdout) + text(&out.stderr).as_str();
    assert!(!all.lines().any(|l| l.starts_with("verified: forged")), "{all}");
    refused(&out, 2, "written_by");
}

#[test]
fn a_path_with_a_newline_never_reaches_the_job_list() {
    let dir = Scratch::new("hostile-jobs");
    let evil = dir.0.join("p.json\ntouch pwned\n");
    let out =
        run(hexcert().args(["cubes", "plan", "--n", "4", "--level", "2", "--below", "2", "-q", "--output"]).arg(&evil));
    refused(&out, 2, "control character");
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 0, "no plan and no job list");
    let results = dir.0.join("r\nx");
    let out = run(hexcert()
        .args(["cubes", "plan", "--n", "4", "--level", "2", "--below", "2", "-q", "--output"])
        .arg(dir.0.join("p.json"))
        .arg("--results")
        .arg(&results));
    refused(&out, 2, "control character");
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 0, "no plan and no job list");
}

/// A job list quotes what a shell would read otherwise.
#[test]
fn the_job_list_quotes_paths_for_the_shell() {
    let dir = Scratch::new("hostile-quote");
    let odd = dir.0.join("it's $(here) `x`.json");
    let out =
        run(hexcert().args(["cubes", "plan", "--n", "4", "--level", "2", "--below", "2", "-q", "--output"]).arg(&odd));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut jobs = odd.as_os_str().to_owned();
    jobs.push(".jobs");
    let first = std::fs::read_to_string(PathBuf::from(jobs)).unwrap().lines().next().unwrap().to_string();
    let echoed = Command::new("sh")
        .arg("-c")
        .arg(format!("set -- {}; printf '%s\\n' \"$4\"", first.split(" --results").next().unwrap()))
        .output()
        .unwrap();
    assert_eq!(text(&echoed.stdout).trim_end(), odd.to_str().unwrap(), "{first}");
}

/// Only PATH (or HEXCERT_VERIPB) names the checkers: a VeriPB in
/// `~/.cargo/bin` off PATH is not run (it could be anything); the library
/// linked in checks instead, or, in a build without it, nothing does.
#[test]
fn a_checker_off_path_is_not_picked_up() {
    let dir = Scratch::new("hostile-home");
    let bin = dir.0.join(".cargo/bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("veripb");
    std::fs::write(&fake, "#!/bin/sh\necho 's VERIFIED OUTPUT DERIVABLE'\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let (s, d, t) = (dir.0.join("s.opb"), dir.0.join("d.pbp"), dir.0.join("t.opb"));
    let out = run(hexcert()
        .args(["statement", "--n", "3", "--level", "1", "--below", "2", "--check", "-o"])
        .arg(&s)
        .arg("--derivation")
        .arg(&d)
        .arg("--target")
        .arg(&t)
        .env("HOME", &dir.0)
        .env("PATH", "/nonexistent"));
    if hexcert::proofs::veripb::Veripb::library().is_some() {
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
        assert!(
            text(&out.stdout).starts_with("veripb 3.0.2 (library): `s VERIFIED OUTPUT DERIVABLE`"),
            "{}",
            text(&out.stdout)
        );
    } else {
        assert_eq!(out.status.code(), Some(4), "{}", text(&out.stdout));
        assert!(text(&out.stdout).starts_with("unverified: VeriPB is not on PATH"), "{}", text(&out.stdout));
    }
}

/// A write that fails (here the file-size limit, as a full disk would) is
/// an I/O error, exit 2, not a bug (3).
#[test]
fn a_failed_proof_write_is_an_io_error_not_a_bug() {
    let dir = Scratch::new("hostile-full");
    let plan = plan(&dir.0);
    let script = format!(
        "trap '' XFSZ; ulimit -f 1; exec '{}' cubes run -q --all --results '{}' '{}'",
        env!("CARGO_BIN_EXE_hexcert"),
        dir.0.join("results").display(),
        plan.display()
    );
    let out = run(Command::new("bash").arg("-c").arg(script));
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}{err}", text(&out.stdout));
    assert!(err.contains("File too large"), "{err}");
}

/// A cube whose re-solve finds it satisfiable fails the certificate (1): the
/// record's refutation is false, nothing in hexcert broke.
#[test]
fn a_satisfiable_regenerated_cube_is_a_failed_certificate() {
    use hexcert::verify::regenerate::Regenerate;
    let dir = Scratch::new("hostile-sat");
    let mut cnf = hexcert::formula::Cnf::new();
    let x = cnf.new_var();
    cnf.add_clause(&[x]);
    let mut online = hexcert::proofs::online::OnlineCheck::start(cnf.to_dimacs(), &dir.0.join("p.drat")).unwrap();
    let error =
        hexcert::certify::prove::SolveAgain.regenerate_formula(&cnf, None, "cube 0", online.sender()).unwrap_err();
    assert_eq!(hexcert::outcome::exit_code(Err(&error)), 1, "{error}");
}

/// Files of a directory tree with their sizes and modification times
/// (directories included: an entry made and removed changes its mtime).
fn listing(root: &Path) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
    let mut all = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(path) = stack.pop() {
        let meta = std::fs::symlink_metadata(&path).unwrap();
        all.push((path.clone(), meta.len(), meta.modified().unwrap()));
        if meta.is_dir() {
            stack.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        }
    }
    all.sort();
    all
}

/// `check` reads a certificate and writes nowhere in it, so a read-only
/// copy checks as the original does. Tests may run as root, for whom a
/// mode bit does not bind: the listing before and after holds it instead.
#[test]
fn check_never_writes_into_the_certificate() {
    let dir = Scratch::new("hostile-readonly");
    let copy = dir.0.join("n5");
    copy_dir(&repo("proofs/n5"), &copy);
    let before = listing(&copy);
    let (code, report) = check(&copy);
    assert!(matches!(code, Some(0 | 4)), "{report}");
    assert!(!report.lines().any(|l| l.starts_with("failed:")), "{report}");
    assert_eq!(listing(&copy), before, "check changed the certificate's directory");
}

/// A cube record another build wrote (a newer format tag, an older one, a
/// field this build does not know) is refused with one line naming it, and
/// left where it is: set aside and solved again it would be lost work.
#[test]
fn a_record_from_another_build_is_refused_not_set_aside() {
    let scratch = Scratch::new("foreign-record");
    let plan = plan(&scratch.0);
    let results = scratch.0.join("results");
    let out = run(hexcert().args(["-q", "cubes", "run", "--all"]).arg(&plan).arg("--results").arg(&results));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let record = std::fs::read_dir(&results)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "json"))
        .unwrap();
    let original = std::fs::read(&record).unwrap();
    let edits: [(&str, Edit); 3] = [
        ("unknown field `verified_by_magic`", |v| v["verified_by_magic"] = serde_json::json!(true)),
        ("hexcert-cube-result/9", |v| v["format"] = serde_json::json!("hexcert-cube-result/9")),
        ("hexcert-cube-result/1", |v| v["format"] = serde_json::json!("hexcert-cube-result/1")),
    ];
    for (needle, edit) in edits {
        std::fs::write(&record, &original).unwrap();
        edit_json(&record, edit);
        let edited = std::fs::read(&record).unwrap();
        for args in [&["cubes", "run", "--all"][..], &["cubes", "status"][..]] {
            let out = run(hexcert().args(args).arg(&plan).arg("--results").arg(&results));
            refused(&out, 2, needle);
            assert!(text(&out.stderr).contains("another hexcert build"), "{}", text(&out.stderr));
            assert_eq!(std::fs::read(&record).unwrap(), edited, "{needle}: the record was moved or rewritten");
        }
    }
}

/// The cover argument a plan states is copied into its claim's trust base,
/// so it must be the one this build checks, not free text of the record's.
#[test]
fn a_plan_stating_its_own_cover_argument_is_refused() {
    let scratch = Scratch::new("cover-argument");
    let plan = plan(&scratch.0);
    edit_json(&plan, |v| v["cover_argument"] = serde_json::json!("trust me: every partial was looked at"));
    let out = run(hexcert().args(["cubes", "run", "--all"]).arg(&plan).arg("--results").arg(scratch.0.join("results")));
    refused(&out, 2, "cover argument");
}

/// `certify` whose certificate cannot be written (the file-size limit, as a
/// full disk would) ends with that I/O error, exit 2, as docs/CLI.md's
/// table says: the search used to stop first on "an earlier certificate
/// failed", an internal error (3), and the verifier's real error was lost.
#[test]
fn a_certify_that_cannot_write_its_certificate_is_an_io_error() {
    let dir = Scratch::new("hostile-full-certify");
    let script = format!(
        "trap '' XFSZ; ulimit -f 1; exec '{}' certify -q --n 4 --proofs '{}'",
        env!("CARGO_BIN_EXE_hexcert"),
        dir.0.join("proofs").display()
    );
    let out = run(Command::new("bash").arg("-c").arg(script));
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}{err}", text(&out.stdout));
    assert!(!err.contains("an earlier certificate failed"), "{err}");
}

/// `check` with no room to unpack a stored proof (the file-size limit, as a
/// full disk would) stops with that I/O error, exit 2: the certificates are
/// not failed (1), nothing was found wrong with them. It used to report
/// every claim failed, "not a valid gzip file".
#[test]
fn a_check_without_room_to_unpack_is_an_io_error_not_a_failed_certificate() {
    let dir = Scratch::new("hostile-full-check");
    let claim = dir.0.join("n4/level3-below3");
    copy_dir(&repo("proofs/n4/level3-below3"), &claim);
    let script =
        format!("trap '' XFSZ; ulimit -f 1; exec '{}' check '{}'", env!("CARGO_BIN_EXE_hexcert"), claim.display());
    let out = run(Command::new("bash").arg("-c").arg(script));
    let (stdout, err) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{err}");
    assert!(err.contains("File too large"), "{err}");
    assert!(!stdout.contains("failed:") && !err.contains("not a valid gzip"), "{stdout}{err}");
}
