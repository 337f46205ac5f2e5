//! `recipes/slurm-array.sh` on a Slurm cluster (CI starts a one-node one
//! with `recipes/slurm/single-node.sh`): a plan's job list as one array
//! job, then a campaign stopped midway with `scancel` and resumed with
//! `recipes/pending.sh`, which submits only the cubes without a record.

use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use super::{engine_present, job_index, recipe, succeed, Campaign};

/// Held by each test that submits jobs: the one-node cluster is shared, and
/// one test's `scancel` leaves the node `completing` while the other test
/// probes or submits (a flake once seen in CI), so they take turns.
static CLUSTER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The cluster, held for this test, when a Slurm controller answers and
/// its nodes take jobs.
fn slurm_cluster() -> Option<std::sync::MutexGuard<'static, ()>> {
    let held = CLUSTER.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    slurm_present().then_some(held)
}

/// A Slurm controller answers and its nodes take jobs.
fn slurm_present() -> bool {
    let probe = match Command::new("sinfo").args(["-h", "-o", "%T"]).output() {
        Err(e) => Err(format!("sinfo: {e}")),
        // Its last line says why (the ones before it, which lookups failed).
        Ok(out) if !out.status.success() => Err(format!(
            "sinfo: {}",
            String::from_utf8_lossy(&out.stderr).trim().lines().last().unwrap_or("no message")
        )),
        Ok(out) => {
            let states = String::from_utf8_lossy(&out.stdout).into_owned();
            // A node still `completing` the jobs another test cancelled takes
            // the next ones once it is done: sbatch queues them meanwhile.
            let takes_jobs = |s: &str| ["idle", "mix", "alloc", "completing"].iter().any(|state| s.starts_with(state));
            match states.lines().any(takes_jobs) {
                true => Ok(()),
                false => Err(format!("no node takes jobs (sinfo: {})", states.trim())),
            }
        }
    };
    engine_present("a Slurm cluster (recipes/slurm/single-node.sh start, then export its SLURM_CONF)", probe)
}

/// `sbatch` of the array recipe over `jobs`, one core per cube so the two
/// cores of a CI machine run two at once (the recipe asks for two).
fn sbatch(campaign: &Campaign, jobs: &str, count: usize, wait: bool) -> String {
    let mut command = Command::new("sbatch");
    command.current_dir(&campaign.dir).args(["--parsable", "--cpus-per-task=1", "--mem=1G"]);
    command.arg(format!("--array=0-{}", count - 1));
    if wait {
        command.arg("--wait");
    }
    let out = succeed(command.arg(recipe("slurm-array.sh")).arg(jobs));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Lines saying a cube was solved, in the array tasks' outputs named `prefix*`.
fn solved_lines(campaign: &Campaign, job: &str) -> usize {
    let prefix = format!("slurm-{job}_");
    std::fs::read_dir(&campaign.dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with(&prefix))
        .map(|p| std::fs::read_to_string(p).unwrap().matches("1 cube(s) run in this run").count())
        .sum()
}

#[test]
fn the_array_recipe_runs_a_plan_on_slurm_and_merges_into_a_checked_claim() {
    let Some(_cluster) = slurm_cluster() else { return };
    let hexcert: &Path = env!("CARGO_BIN_EXE_hexcert").as_ref();
    let campaign = Campaign::plan("slurm", hexcert, hexcert, 6, 13);
    let cubes = campaign.plan.cubes.len();
    let job = sbatch(&campaign, "plan.json.jobs", cubes, true);
    assert_eq!(solved_lines(&campaign, &job), cubes);
    campaign.assert_one_run_per_cube();
    campaign.merge_and_check(None);
}

#[test]
fn a_cancelled_slurm_array_resumes_with_its_pending_cubes_and_solves_none_twice() {
    let Some(_cluster) = slurm_cluster() else { return };
    let hexcert: &Path = env!("CARGO_BIN_EXE_hexcert").as_ref();
    let campaign = Campaign::plan("slurm-resume", hexcert, hexcert, 6, 13);
    let cubes = campaign.plan.cubes.len();
    let first = sbatch(&campaign, "plan.json.jobs", cubes, false);
    let start = Instant::now();
    while campaign.recorded() < cubes / 4 {
        assert!(start.elapsed() < Duration::from_secs(120), "the array wrote {} records in 120 s", campaign.recorded());
        std::thread::sleep(Duration::from_millis(20));
    }
    succeed(Command::new("scancel").arg(&first));
    loop {
        assert!(start.elapsed() < Duration::from_secs(180), "array job {first} still queued 180 s after it started");
        if succeed(Command::new("squeue").args(["-h", "-j", &first])).stdout.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let done: Vec<usize> = (0..cubes).filter(|&i| campaign.record_path(i).exists()).collect();
    assert!(done.len() < cubes, "every cube finished before scancel: the test stopped nothing");
    let stamp = |i: usize| {
        let meta = std::fs::metadata(campaign.record_path(i)).unwrap();
        (meta.ino(), meta.mtime(), meta.mtime_nsec(), std::fs::read(campaign.record_path(i)).unwrap())
    };
    let before: Vec<_> = done.iter().map(|&i| stamp(i)).collect();
    // What the resumed campaign submits: exactly the cubes without a record.
    let pending =
        succeed(Command::new("bash").current_dir(&campaign.dir).arg(recipe("pending.sh")).arg("plan.json.jobs")).stdout;
    let pending = String::from_utf8(pending).unwrap();
    let indices: Vec<usize> = pending.lines().map(job_index).collect();
    assert_eq!(indices, (0..cubes).filter(|i| !done.contains(i)).collect::<Vec<_>>(), "{pending}");
    std::fs::write(campaign.dir.join("plan.json.pending"), &pending).unwrap();
    let second = sbatch(&campaign, "plan.json.pending", indices.len(), true);
    // Each pending cube solved once by the second array, and no record of
    // the first one rewritten: nothing lost, nothing done twice.
    assert_eq!(solved_lines(&campaign, &second), indices.len());
    campaign.assert_one_run_per_cube();
    let after: Vec<_> = done.iter().map(|&i| stamp(i)).collect();
    assert!(before == after, "a record written before scancel was written again");
    let rest =
        succeed(Command::new("bash").current_dir(&campaign.dir).arg(recipe("pending.sh")).arg("plan.json.jobs")).stdout;
    assert!(rest.is_empty(), "{}", String::from_utf8_lossy(&rest));
    campaign.merge_and_check(None);
}

/// `single-node.sh stop` runs as root and kills the PIDs its state
/// directory names: it refuses a directory another user could have
/// written (not its own, or writable by others), and kills only a process
/// that is the daemon the pid file is for. A `sleep` stands in for the
/// process someone would have it kill. Needs no Slurm; root only (as a
/// user the script re-runs itself with sudo).
#[test]
fn stop_kills_only_its_own_daemons_named_in_its_own_directory() {
    // SAFETY: getuid reads this process's user id.
    if unsafe { libc::getuid() } != 0 {
        eprintln!("note: not root: single-node.sh would ask sudo for a password; its stop is not exercised here");
        return;
    }
    let scratch = crate::common::Scratch::new("slurm-stop");
    let stop = |state: &Path| {
        Command::new("bash")
            .arg(recipe("slurm/single-node.sh"))
            .arg("stop")
            .env("HEXCERT_SLURM_STATE", state)
            .output()
            .unwrap()
    };
    let mut victim = Command::new("sleep").arg("120").spawn().unwrap();
    let alive = |victim: &mut std::process::Child| victim.try_wait().unwrap().is_none();
    // Someone else's directory: world-writable.
    let shared = scratch.0.join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::set_permissions(&shared, std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    std::fs::write(shared.join("slurmd.pid"), format!("{}\n", victim.id())).unwrap();
    let out = stop(&shared);
    std::thread::sleep(Duration::from_millis(300));
    assert!(alive(&mut victim), "stop killed a pid named in a world-writable directory");
    assert_ne!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // Its own directory, but the pid is no slurmd.
    let own = scratch.0.join("own");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::set_permissions(&own, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    std::fs::write(own.join("slurmd.pid"), format!("{}\n", victim.id())).unwrap();
    let out = stop(&own);
    std::thread::sleep(Duration::from_millis(300));
    assert!(alive(&mut victim), "stop killed a process that is not slurmd");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not slurmd"), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::metadata(&own).unwrap().mode() & 0o777, 0o700);
    victim.kill().unwrap();
    victim.wait().unwrap();
}
