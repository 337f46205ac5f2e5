//! `recipes/parallel.sh` in its SSH mode: an `sshd` on 127.0.0.1 with a
//! throw-away host key and login key, reached as two "hosts" (by address and
//! by name), runs a plan's job list into one results directory at the same
//! path on both, so two logins write records into it at once.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use hexcert::run::HOST_VARIABLE;

use super::{common, engine_present, job_index, recipe, succeed, Campaign};

const SSHD: &str = "/usr/sbin/sshd";

/// An `sshd` in the foreground, stopped when dropped (also when a test fails).
struct Sshd {
    child: Child,
}

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ssh_present() -> bool {
    let missing = [SSHD, "/run/sshd"].into_iter().find(|p| !Path::new(p).exists());
    let probe = match missing {
        Some(path) => Err(format!("no {path} (Debian's openssh-server; mkdir /run/sshd)")),
        None => ["ssh", "ssh-keygen", "parallel"]
            .into_iter()
            .find(|tool| {
                Command::new("sh")
                    .args(["-c", &format!("command -v {tool}")])
                    .output()
                    .map_or(true, |o| !o.status.success())
            })
            .map_or(Ok(()), |tool| Err(format!("no {tool} on PATH"))),
    };
    engine_present("sshd and GNU parallel", probe)
}

/// Starts an `sshd` on a free port of 127.0.0.1 that accepts only a fresh
/// key, and writes an ssh_config naming it `hexcert-a` (127.0.0.1) and
/// `hexcert-b` (localhost); returns the daemon and that config's path.
fn start_sshd(dir: &Path) -> (Sshd, PathBuf) {
    for key in ["host_key", "login_key"] {
        succeed(Command::new("ssh-keygen").args(["-q", "-t", "ed25519", "-N", "", "-f"]).arg(dir.join(key)));
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let d = dir.display();
    let sshd_config = format!(
        "ListenAddress 127.0.0.1\nPort {port}\nHostKey {d}/host_key\nAuthorizedKeysFile {d}/login_key.pub\n\
         StrictModes no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\n\
         PermitRootLogin prohibit-password\nPidFile {d}/sshd.pid\nAcceptEnv {HOST_VARIABLE}\n"
    );
    std::fs::write(dir.join("sshd_config"), sshd_config).unwrap();
    let log = std::fs::File::create(dir.join("sshd.log")).unwrap();
    let child =
        Command::new(SSHD).arg("-D").arg("-e").arg("-f").arg(dir.join("sshd_config")).stderr(log).spawn().unwrap();
    let sshd = Sshd { child };
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        let log = std::fs::read_to_string(dir.join("sshd.log")).unwrap_or_default();
        assert!(start.elapsed() < Duration::from_secs(10), "sshd does not listen on port {port}: {log}");
        std::thread::sleep(Duration::from_millis(50));
    }
    let user = String::from_utf8(succeed(Command::new("id").arg("-un")).stdout).unwrap();
    let host_key = std::fs::read_to_string(dir.join("host_key.pub")).unwrap();
    std::fs::write(dir.join("known_hosts"), format!("hexcert-test-sshd {host_key}")).unwrap();
    let common = [
        format!("Port {port}"),
        format!("User {}", user.trim()),
        format!("IdentityFile {d}/login_key"),
        "IdentitiesOnly yes".into(),
        "HostKeyAlias hexcert-test-sshd".into(),
        format!("UserKnownHostsFile {d}/known_hosts"),
        "StrictHostKeyChecking yes".into(),
        "BatchMode yes".into(),
        "AddressFamily inet".into(),
        "LogLevel ERROR".into(),
    ];
    // Each login names its runs after itself, so the records say which
    // "host" solved each cube.
    let host =
        |name: &str, address: &str| format!("Host {name}\n  HostName {address}\n  SetEnv {HOST_VARIABLE}={name}\n");
    let ssh_config = format!(
        "{}{}Host *\n  {}\n",
        host("hexcert-a", "127.0.0.1"),
        host("hexcert-b", "localhost"),
        common.join("\n  ")
    );
    std::fs::write(dir.join("ssh_config"), ssh_config).unwrap();
    (sshd, dir.join("ssh_config"))
}

#[test]
fn the_parallel_recipe_runs_a_plan_over_ssh_on_two_logins_and_merges_into_a_checked_claim() {
    if !ssh_present() {
        return;
    }
    let hexcert: &Path = env!("CARGO_BIN_EXE_hexcert").as_ref();
    let campaign = Campaign::plan("ssh", hexcert, hexcert, 6, 13);
    // Keep every cube's proof beside its record (docs/CAMPAIGN.md: edit the
    // job list), so the merged claim is checkable without re-solving.
    let jobs = std::fs::read_to_string(campaign.dir.join("plan.json.jobs")).unwrap();
    let stored: String =
        jobs.lines().map(|l| l.replace(" --index ", " --store-limit 100000000 --index ") + "\n").collect();
    std::fs::write(campaign.dir.join("plan.json.jobs"), stored).unwrap();
    let keys = campaign.dir.join("ssh");
    std::fs::create_dir_all(&keys).unwrap();
    let (_sshd, config) = start_sshd(&keys);
    let joblog = campaign.dir.join("joblog");
    let ran = Command::new("bash")
        .current_dir(&campaign.dir)
        .arg(recipe("parallel.sh"))
        .arg("plan.json.jobs")
        .env("SSHLOGIN", "1/hexcert-a,1/hexcert-b")
        .env("PARALLEL_SSH", format!("ssh -F {}", config.display()))
        .env("PARALLEL", format!("--joblog {}", joblog.display()))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let log = std::fs::read_to_string(keys.join("sshd.log")).unwrap_or_default();
    assert!(ran.status.success(), "parallel: {}\nsshd: {log}", String::from_utf8_lossy(&ran.stderr));
    // One job-log row per cube (after the header), exit 0, and the record
    // of each cube written by a run on the login the row names.
    let rows: Vec<Vec<String>> = std::fs::read_to_string(&joblog)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), campaign.plan.cubes.len());
    assert!(rows.iter().all(|row| row[6] == "0"), "{rows:?}");
    let writers = campaign.assert_one_run_per_cube();
    for row in &rows {
        let index = job_index(&row[8]);
        assert!(
            writers[index].starts_with(&format!("{}-", row[1])),
            "cube {index} ran on {} but was written by {}",
            row[1],
            writers[index]
        );
    }
    for host in ["hexcert-a", "hexcert-b"] {
        assert!(rows.iter().any(|row| row[1] == host), "no job ran on {host}: {rows:?}");
    }
    campaign.merge_and_check(None);
    // The claim directory alone is the evidence: moved away from the plan
    // and the results, it still checks, every proof read from its copy.
    let elsewhere = campaign.dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::rename(campaign.dir.join("proofs"), elsewhere.join("proofs")).unwrap();
    std::fs::remove_dir_all(campaign.dir.join("results")).unwrap();
    let checked = Command::new(hexcert).current_dir(&elsewhere).args(["check", "proofs"]).output().unwrap();
    let text = String::from_utf8_lossy(&checked.stdout);
    let code = if common::veripb_present() { 0 } else { 4 };
    assert_eq!(checked.status.code(), Some(code), "{text}{}", String::from_utf8_lossy(&checked.stderr));
    let cubes = campaign.plan.cubes.len();
    assert!(text.contains(&format!("{cubes} cubes: {cubes} stored LRAT proofs verified")), "{text}");
}
