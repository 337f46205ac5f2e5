//! The container image, tested without an image engine: CI runs the
//! Containerfile's one build step, `recipes/container/build.sh PREFIX`, on
//! the host and names PREFIX in HEXCERT_IMAGE_PREFIX. The installed
//! binaries need no library beyond the slim runtime's, and the Kubernetes
//! recipe's pod command, run once per completion index with only PREFIX/bin
//! and the system on PATH, fills the results directory, stopped halfway and
//! resumed with the installed `pending.sh`; the claim merges and `check`,
//! with the installed VeriPB, verifies it.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{engine_present, job_index, recipe, succeed, Campaign};

/// The libraries debian:bookworm-slim, the runtime stage, ships.
const RUNTIME_LIBRARIES: [&str; 6] =
    ["linux-vdso.so.1", "libstdc++.so.6", "libgcc_s.so.1", "libm.so.6", "libc.so.6", "ld-linux-x86-64.so.2"];

fn image_prefix() -> Option<PathBuf> {
    let prefix = std::env::var_os("HEXCERT_IMAGE_PREFIX").map(PathBuf::from);
    let probe = match &prefix {
        None => Err("HEXCERT_IMAGE_PREFIX is not set".to_string()),
        Some(p) => ["hexcert", "veripb", "pending.sh"]
            .into_iter()
            .find(|b| !p.join("bin").join(b).exists())
            .map_or(Ok(()), |b| Err(format!("no {b} in {}/bin", p.display()))),
    };
    engine_present("the image's binaries (recipes/container/build.sh PREFIX, then HEXCERT_IMAGE_PREFIX=PREFIX)", probe)
        .then(|| prefix.unwrap())
}

/// The pod command of the Kubernetes recipe: its `command:` line, a YAML
/// flow sequence of double-quoted strings, which reads as JSON.
fn pod_command() -> Vec<String> {
    let yaml = std::fs::read_to_string(recipe("kubernetes-indexed-job.yaml")).unwrap();
    let line = yaml.lines().map(str::trim).find_map(|l| l.strip_prefix("command:")).expect("a command: line");
    serde_json::from_str(line.trim()).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn libraries(binary: &Path) -> Vec<String> {
    let out = succeed(Command::new("ldd").arg(binary));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(|l| l.rsplit('/').next().unwrap().to_string())
        .collect()
}

#[test]
fn the_image_build_steps_install_binaries_that_run_the_kubernetes_recipe_to_a_checked_claim() {
    let Some(prefix) = image_prefix() else { return };
    let bin = prefix.join("bin");
    for binary in ["hexcert", "veripb"] {
        let needed = libraries(&bin.join(binary));
        assert!(needed.iter().all(|l| RUNTIME_LIBRARIES.contains(&l.as_str())), "{binary} needs {needed:?}");
    }
    let campaign = Campaign::plan("image", &bin.join("hexcert"), "hexcert".as_ref(), 6, 13);
    let command = pod_command();
    let path = std::env::join_paths([bin.clone(), "/usr/bin".into(), "/bin".into()]).unwrap();
    let pod = |list: &str, index: usize| {
        let mut pod = Command::new(&command[0]);
        pod.args(&command[1..])
            .current_dir(&campaign.dir)
            .env_clear()
            .env("PATH", &path)
            .env("JOB_COMPLETION_INDEX", index.to_string());
        pod.env("JOB_LIST", list).output().unwrap()
    };
    let run_pods = |list: &str, count: usize| {
        for index in 0..count {
            let out = pod(list, index);
            assert!(out.status.success(), "pod {index} of {list}: {}", String::from_utf8_lossy(&out.stderr));
        }
    };
    // An index past the job list (completions set too high) fails, not passes.
    let past_the_end_fails =
        |list: &str, lines: usize| assert!(!pod(list, lines).status.success(), "pod {lines} of {list} passed");
    // A Job stopped after half its indices, then resumed, as the recipe
    // says: the image's pending.sh lists the rest, a second Job runs them.
    let cubes = campaign.plan.cubes.len();
    run_pods("plan.json.jobs", cubes / 2);
    succeed(
        Command::new("bash")
            .args(["-c", "pending.sh plan.json.jobs > plan.json.pending"])
            .current_dir(&campaign.dir)
            .env_clear()
            .env("PATH", &path),
    );
    let listed = std::fs::read_to_string(campaign.dir.join("plan.json.pending")).unwrap();
    assert_eq!(listed.lines().map(job_index).collect::<Vec<_>>(), (cubes / 2..cubes).collect::<Vec<_>>(), "{listed}");
    run_pods("plan.json.pending", cubes - cubes / 2);
    past_the_end_fails("plan.json.jobs", cubes);
    past_the_end_fails("plan.json.pending", cubes - cubes / 2);
    campaign.assert_one_run_per_cube();
    let text = campaign.merge_and_check(Some(&bin));
    // The derivation was checked by the image's VeriPB, not another on PATH.
    let said = String::from_utf8(succeed(Command::new(bin.join("veripb")).arg("--version")).stdout).unwrap();
    let version = said.split_whitespace().last().expect("veripb --version names a version");
    assert!(text.contains(&format!("veripb {version} `s VERIFIED OUTPUT DERIVABLE`")), "{said}{text}");
}
