//! The recipes of `recipes/` run on the engines they are written for: a
//! one-node Slurm cluster (`slurm.rs`), GNU parallel over SSH to two logins
//! on this machine (`ssh.rs`), and the container image's build script with
//! the Kubernetes recipe's pod command (`image.rs`). Each engine is set up
//! by CI (`.ci/run`); without it a test prints why it did not run, and under
//! `CI=true` it fails instead, so a green CI has exercised every recipe.

#[path = "../common/mod.rs"]
mod common;
mod image;
mod slurm;
mod ssh;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hexcert::cubes::Plan;
use hexcert::records::cube::{proof_stored, result_path};
use hexcert::records::{CubeResult, CubeVerdict};

/// The repository's copy of a recipe.
fn recipe(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("recipes").join(name)
}

/// Whether the engine `what` answered `probe`; when it did not, says so
/// and returns false, or fails under CI, which sets every engine up.
fn engine_present(what: &str, probe: Result<(), String>) -> bool {
    match probe {
        Ok(()) => true,
        Err(why) => {
            assert!(std::env::var_os("CI").is_none(), "CI is set but {what} is not available: {why}");
            eprintln!("note: {what} is not available ({why}): this recipe is not exercised here");
            false
        }
    }
}

/// Runs `command`, which must succeed; returns its output.
fn succeed(command: &mut Command) -> Output {
    let out = command.output().unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        out.status.success(),
        "{command:?}: {}\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A plan and its results directory in a scratch directory that is removed
/// when the campaign is dropped (also when a test fails).
struct Campaign {
    dir: PathBuf,
    hexcert: PathBuf,
    plan: Plan,
}

impl Campaign {
    /// Plans, with `hexcert`, "no level-3 partial of side `n` below
    /// `below`" at radius 1, depth 1; its job list calls `job_hexcert`.
    fn plan(name: &str, hexcert: &Path, job_hexcert: &Path, n: usize, below: usize) -> Campaign {
        let dir = std::env::temp_dir().join(format!("hexcert-recipes-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let args = ["cubes", "plan", "--level", "3", "--radius", "1", "--depth", "1", "-o", "plan.json", "-q"];
        let (n, below) = (n.to_string(), below.to_string());
        succeed(
            Command::new(hexcert)
                .current_dir(&dir)
                .args(args)
                .args(["--n", &n, "--below", &below, "--hexcert"])
                .arg(job_hexcert),
        );
        let plan = Plan::read(&dir.join("plan.json")).unwrap();
        let jobs = std::fs::read_to_string(dir.join("plan.json.jobs")).unwrap();
        assert_eq!(jobs.lines().count(), plan.cubes.len(), "{jobs}");
        Campaign { dir, hexcert: hexcert.to_path_buf(), plan }
    }

    fn hexcert(&self) -> Command {
        let mut command = Command::new(&self.hexcert);
        command.current_dir(&self.dir);
        command
    }

    fn record_path(&self, index: usize) -> PathBuf {
        result_path(&self.dir.join("results"), &self.plan, index)
    }

    /// How many cubes have a record.
    fn recorded(&self) -> usize {
        (0..self.plan.cubes.len()).filter(|&i| self.record_path(i).exists()).count()
    }

    /// Every cube has a record that answers it: refuted, LRAT-verified.
    /// Returns the records, in the plan's order.
    fn assert_every_cube_refuted(&self) -> Vec<CubeResult> {
        let records: Vec<CubeResult> = (0..self.plan.cubes.len())
            .map(|index| {
                let bytes = std::fs::read(self.record_path(index)).unwrap_or_else(|e| panic!("cube {index}: {e}"));
                serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("cube {index}: {e}"))
            })
            .collect();
        for (index, record) in records.iter().enumerate() {
            assert_eq!((&record.cube, record.verdict), (&self.plan.cubes[index], CubeVerdict::Refuted));
            assert!(record.lrat.as_ref().is_some_and(|l| l.verified), "cube {index}");
        }
        records
    }

    /// Every cube was solved by a run of its own: one job line, one run,
    /// one record (a cube solved twice, or two cubes by one run, shows as a
    /// repeated `written_by`). Returns each record's writer.
    fn assert_one_run_per_cube(&self) -> Vec<String> {
        let writers: Vec<String> = self
            .assert_every_cube_refuted()
            .into_iter()
            .map(|r| r.written_by.expect("a record names its run"))
            .collect();
        let distinct: std::collections::BTreeSet<&String> = writers.iter().collect();
        assert_eq!(distinct.len(), writers.len(), "{writers:?}");
        writers
    }

    /// `cubes merge` (exit 0 only when it checked every cube's stored
    /// proof, 4 while some cube is only attested), then `check --regenerate`
    /// of the claim, which re-solves the cubes whose proof is not stored.
    /// With `path`, PATH is that directory and the system's, so the VeriPB
    /// `check` runs is the one found there (it must be); without, VeriPB on
    /// PATH decides whether the claim can be verified.
    fn merge_and_check(&self, path: Option<&Path>) -> String {
        let veripb = path.is_some() || common::veripb_present();
        let mut merge = self.hexcert();
        let mut check = self.hexcert();
        if let Some(dir) = path {
            let joined = std::env::join_paths([dir.to_path_buf(), "/usr/bin".into(), "/bin".into()]).unwrap();
            merge.env("PATH", &joined);
            check.env("PATH", &joined);
        }
        let cubes = self.plan.cubes.len();
        let stored = self.assert_every_cube_refuted().iter().filter(|r| proof_stored(r)).count();
        let merged =
            merge.args(["--json", "cubes", "merge", "plan.json", "--proofs", "proofs", "-q"]).output().unwrap();
        let said = String::from_utf8_lossy(&merged.stdout).into_owned();
        assert_eq!(
            merged.status.code(),
            Some(if stored == cubes && veripb { 0 } else { 4 }),
            "{said}{}",
            String::from_utf8_lossy(&merged.stderr)
        );
        let said: serde_json::Value = serde_json::from_str(&said).unwrap_or_else(|e| panic!("{said}: {e}"));
        assert_eq!(
            (said["checked"].as_u64(), said["attested"].as_u64()),
            (Some(stored as u64), Some((cubes - stored) as u64)),
            "{said}"
        );
        let checked = check.args(["check", "--regenerate", "proofs"]).output().unwrap();
        let text = String::from_utf8_lossy(&checked.stdout).into_owned();
        let (code, verdict) = match veripb {
            true => (0, "1 records: 1 verified, 0 failed, 0 unverified"),
            false => (4, "1 records: 0 verified, 0 failed, 1 unverified"),
        };
        assert_eq!(checked.status.code(), Some(code), "{text}{}", String::from_utf8_lossy(&checked.stderr));
        assert!(text.contains(verdict), "{text}");
        let how = format!(
            "{cubes} cubes: {stored} stored LRAT proofs verified by hexcert-lrat {}, {} re-solved",
            hexcert_lrat::VERSION,
            cubes - stored
        );
        assert!(text.contains(&how), "{text}");
        text
    }
}

/// The cube a job line solves: the number after its `--index`.
fn job_index(line: &str) -> usize {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "--index").unwrap_or_else(|| panic!("no --index in `{line}`"));
    words[at + 1].parse().unwrap_or_else(|e| panic!("`{line}`: {e}"))
}

impl Drop for Campaign {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
