//! One results directory shared by several hosts: no run reaps another's
//! live work directory, and two "hosts" (PID namespaces, each with its own
//! host name) solving one plan together lose nothing. Why: pids repeat
//! across hosts and namespaces, so a run that judged liveness by
//! `/proc/<pid>` on its own machine deleted another host's live directory.

use std::path::Path;
use std::process::Command;

use crate::common::Scratch;

use hexcert::run::{remove_stale_work_dirs, WorkDir};

/// A pid no process has (above the kernel's default maximum).
const DEAD_PID: u32 = 4_194_400;

#[test]
fn only_directories_whose_lock_is_free_are_reaped() {
    let scratch = Scratch::new("shared-reap");
    let dir = &scratch.0;
    let mine = WorkDir::create(dir, ".work-mine").unwrap();
    // Another host's live run: its pid means nothing here, its lock is held.
    let foreign = dir.join(format!(".work-cube-otherhost-{DEAD_PID}"));
    std::fs::create_dir_all(&foreign).unwrap();
    let mut holder =
        Command::new("flock").arg("--close").arg(foreign.join(".lock")).args(["sleep", "30"]).spawn().unwrap();
    // A run that ended without cleaning up: its lock file is there, unheld.
    let dead = dir.join(format!(".work-cube-deadhost-{DEAD_PID}"));
    std::fs::create_dir_all(&dead).unwrap();
    std::fs::write(dead.join(".lock"), b"").unwrap();
    // An older build's directory (no lock file): never judged, never reaped.
    let legacy = dir.join(format!(".check-{DEAD_PID}"));
    std::fs::create_dir_all(&legacy).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300)); // let `flock` take its lock
    remove_stale_work_dirs(dir);
    let kept = (mine.0.exists(), foreign.exists(), dead.exists(), legacy.exists());
    holder.kill().unwrap();
    holder.wait().unwrap();
    assert_eq!(kept, (true, true, false, true), "(this run's, another host's live one, a dead one, a legacy one)");
    remove_stale_work_dirs(dir);
    assert!(!foreign.exists(), "a directory whose owner ended was kept");
    let path = mine.0.clone();
    drop(mine);
    assert!(!path.exists());
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Whether PID namespaces can be made here (root and `unshare`).
fn namespaces() -> bool {
    Command::new("unshare").args(["-p", "-f", "--mount-proc", "true"]).status().is_ok_and(|s| s.success())
}

/// Two hosts (their own PID namespaces and host names when this machine
/// allows it, else two processes with two host names) run every cube of
/// one plan into one results directory at once: every cube ends decided,
/// nothing is rejected or lost, and no work directory is left behind.
#[test]
fn two_hosts_sharing_a_results_directory_lose_nothing() {
    let scratch = Scratch::new("shared-two-hosts");
    let (plan, results) = (scratch.0.join("plan.json"), scratch.0.join("results"));
    let hexcert = env!("CARGO_BIN_EXE_hexcert");
    let planned = Command::new(hexcert)
        .args([
            "cubes",
            "plan",
            "--n",
            "6",
            "--level",
            "3",
            "--below",
            "13",
            "--radius",
            "1",
            "--depth",
            "1",
            "-o",
            s(&plan),
            "--results",
            s(&results),
        ])
        .output()
        .unwrap();
    assert!(planned.status.success(), "{}", String::from_utf8_lossy(&planned.stderr));
    let isolated = namespaces();
    if !isolated {
        eprintln!("no PID namespaces here (not root, or no unshare): two processes stand in for two hosts");
    }
    let run = |host: &str| {
        let mut command = if isolated {
            let mut c = Command::new("unshare");
            c.args(["-p", "-f", "--mount-proc", hexcert]);
            c
        } else {
            Command::new(hexcert)
        };
        command
            .env("HEXCERT_HOST", host)
            .args(["cubes", "run", s(&plan), "--all", "--jobs", "1", "--results", s(&results)])
            .spawn()
            .unwrap()
    };
    let (mut a, mut b) = (run("host-a"), run("host-b"));
    let (a, b) = (a.wait().unwrap(), b.wait().unwrap());
    assert!(a.success() && b.success(), "a run died: {a:?} {b:?}");
    let status = Command::new(hexcert).args(["cubes", "status", s(&plan), "--results", s(&results)]).output().unwrap();
    let text = String::from_utf8_lossy(&status.stdout);
    assert_eq!(status.status.code(), Some(4), "{text}"); // decided, attested (no proofs stored)
    assert!(text.contains("0 without a record, 0 unfinished, 0 rejected, 0 with a counterexample"), "{text}");
    let plan = hexcert::cubes::Plan::read(&plan).unwrap();
    let hosts: std::collections::BTreeSet<String> = (0..plan.cubes.len())
        .map(|i| {
            let record: hexcert::records::CubeResult =
                hexcert::records::read_json(&hexcert::records::cube::result_path(&results, &plan, i)).unwrap();
            record.written_by.unwrap().split('-').take(2).collect::<Vec<_>>().join("-")
        })
        .collect();
    assert!(hosts.iter().all(|h| h == "host-a" || h == "host-b"), "{hosts:?}");
    let left: Vec<_> = std::fs::read_dir(&results)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".work-"))
        .collect();
    assert!(left.is_empty(), "work directories left behind: {left:?}");
}

/// Why: a merge or certify killed at its work directory's first rename
/// left a `.new-work-*` that no reaper took; killed after it moved the old
/// claim out, the next reaper deleted the old claim (and the verdicts kept
/// in it) with the work directory. Both are now taken back: the `.new-`
/// directory reaped once its lock is free, the old claim moved home.
#[test]
fn a_killed_replacement_leaves_nothing_behind_and_loses_no_claim() {
    let scratch = Scratch::new("killed-replacement");
    let dir = &scratch.0;
    let unnamed = dir.join(format!(".new-work-merge-deadhost-{DEAD_PID}-0"));
    std::fs::create_dir_all(&unnamed).unwrap();
    std::fs::write(unnamed.join(".lock"), b"").unwrap();
    // Killed between moving claim.json out and moving the new one in.
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/n3/level2-below3");
    let home = dir.join("level2-below3");
    let work = dir.join(format!(".work-merge-deadhost-{DEAD_PID}-1"));
    let (retired, staged) = (work.join("claim.retired"), work.join("claim"));
    for d in [&home, &retired, &staged] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(work.join(".lock"), b"").unwrap();
    let old = std::fs::read(source.join("claim.json")).unwrap();
    std::fs::write(retired.join("claim.json"), &old).unwrap();
    std::fs::copy(source.join("formula.cnf.gz"), retired.join("formula.cnf.gz")).unwrap();
    std::fs::write(staged.join("claim.json"), &old).unwrap();
    std::fs::write(home.join("formula.cnf.gz"), b"the new certificate's, half moved in").unwrap();
    std::fs::write(home.join("notes.txt"), b"the user's").unwrap();
    hexcert::certify::work_dirs::remove_stale_work_dirs(dir);
    assert!(!unnamed.exists(), "a .new- work directory whose run ended was kept");
    assert!(!work.exists(), "the stopped replacement's work directory was kept");
    assert_eq!(std::fs::read(home.join("claim.json")).ok(), Some(old), "the old claim was lost");
    assert_eq!(
        std::fs::read(home.join("formula.cnf.gz")).unwrap(),
        std::fs::read(source.join("formula.cnf.gz")).unwrap()
    );
    assert!(home.join("notes.txt").exists());
    // A live run's directory under its `.new-` name is never taken.
    let live = WorkDir::create(dir, ".work-live").unwrap();
    let fresh = dir.join(".new-work-held");
    std::fs::create_dir_all(&fresh).unwrap();
    let mut holder =
        Command::new("flock").arg("--close").arg(fresh.join(".lock")).args(["sleep", "30"]).spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    remove_stale_work_dirs(dir);
    let kept = (live.0.exists(), fresh.exists());
    holder.kill().unwrap();
    holder.wait().unwrap();
    assert_eq!(kept, (true, true), "a live run's directory was reaped");
}

/// A campaign run one cube a job (`cubes run --index`, what a job engine
/// starts) reaps the scratch a killed job left, as `--all` does: a killed
/// cube's LRAT does not wait for a run of the whole plan to go.
#[test]
fn a_single_cube_run_reaps_a_killed_jobs_scratch() {
    let scratch = Scratch::new("shared-reap-one");
    let dir = &scratch.0;
    let hexcert =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_hexcert")).current_dir(dir).args(args).output().unwrap();
    assert!(hexcert(&["cubes", "plan", "--n", "4", "--level", "3", "--below", "3", "-o", "plan.json", "-q"])
        .status
        .success());
    let results = dir.join("results");
    let dead = results.join(format!(".work-cube-deadhost-{DEAD_PID}-0"));
    std::fs::create_dir_all(&dead).unwrap();
    std::fs::write(dead.join(".lock"), b"").unwrap();
    std::fs::write(dead.join("proof.lrat"), b"a killed job's proof").unwrap();
    let ran = hexcert(&["cubes", "run", "plan.json", "--index", "0", "-q"]);
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    assert!(!dead.exists(), "a killed job's work directory outlived the next single-cube run");
}

/// The audit case (round 5, R1): a merge killed at its first rename (the
/// lock file's, `.lock.new` to `.lock`) left `.new-work-merge-*` holding
/// only `.lock.new`, which no reaper took. Now it is taken when its run, by
/// its name, ran on this host and is gone, and its lock is free; never a
/// live run's (its pid alive, or its lock held) nor another host's.
#[test]
fn a_work_directory_killed_before_its_lock_was_named_is_reaped_by_pid_and_host() {
    let scratch = Scratch::new("killed-first-rename");
    let dir = &scratch.0;
    let here = hexcert::run::host();
    let unnamed = |host: &str, pid: u32| {
        let path = dir.join(format!(".new-work-merge-{host}-00112233aabbccdd-{pid}-0"));
        std::fs::create_dir_all(&path).unwrap();
        std::fs::write(path.join(".lock.new"), b"").unwrap();
        path
    };
    let dead = unnamed(&here, DEAD_PID);
    let alive = unnamed(&here, std::process::id());
    let elsewhere = unnamed("otherhost", DEAD_PID);
    let held = dir.join(format!(".new-work-merge-{here}-00112233aabbccdd-{}-1", DEAD_PID + 1));
    std::fs::create_dir_all(&held).unwrap();
    let mut holder =
        Command::new("flock").arg("--close").arg(held.join(".lock.new")).args(["sleep", "30"]).spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300)); // let `flock` take its lock
    hexcert::certify::work_dirs::remove_stale_work_dirs(dir);
    let kept = (dead.exists(), alive.exists(), elsewhere.exists(), held.exists());
    holder.kill().unwrap();
    holder.wait().unwrap();
    assert_eq!(kept, (false, true, true, true), "(dead here, alive here, another host's, lock held)");
}
