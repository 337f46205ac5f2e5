//! Records the git commit the engine is built from, for certificates.
//! A build from a tree whose source differs from the commit is marked `-dirty`.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty = git(&["status", "--porcelain", "--", "src", "Cargo.toml", "Cargo.lock", "build.rs"])
        .is_some_and(|s| !s.is_empty());
    let suffix = if dirty { "-dirty" } else { "" };
    println!("cargo:rustc-env=HEXCERT_GIT_COMMIT={commit}{suffix}");
    // Not `.git/index`: the `git status` above refreshes it in a fresh clone,
    // so every later cargo call saw it changed and compiled hexcert again
    // (2 min 43 s of a CI run). The commit moves with HEAD and the ref it
    // names (a missing path would rerun this script on every build); the
    // dirty mark moves with the watched sources.
    let branch = git(&["symbolic-ref", "-q", "HEAD"]);
    let refs = ["HEAD", "packed-refs"].into_iter().chain(branch.as_deref());
    for path in refs.filter_map(|name| git(&["rev-parse", "--git-path", name])) {
        if std::path::Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    for source in ["src", "Cargo.toml", "Cargo.lock", "build.rs"] {
        println!("cargo:rerun-if-changed={source}");
    }
}
