//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod imports;

use std::path::{Path, PathBuf};

use hexcert::formats::read_grid_file;
use hexcert::levels::Partial;

/// The published grids shipped beside the repository, `(n, path)`, sorted by n.
pub fn published_grids() -> Vec<(usize, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/published");
    let mut grids: Vec<(usize, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            let n = name.strip_prefix("CLEAN-")?.split('-').next()?.parse().ok()?;
            Some((n, p))
        })
        .collect();
    grids.sort();
    grids
}

pub fn published(n: usize) -> Partial {
    let (_, path) = published_grids().into_iter().find(|(m, _)| *m == n).expect("published grid");
    read_grid_file(&path, Some(n)).unwrap().partial
}

/// Whether this run has VeriPB (a `veripb` on PATH, or the library of the
/// default feature `veripb`); when it has none, says so (and fails under
/// CI, which has both).
pub fn veripb_present() -> bool {
    let present = hexcert::proofs::veripb::Veripb::find().is_some();
    if !present {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but this run has no VeriPB: {}",
            hexcert::proofs::veripb::Veripb::missing()
        );
        eprintln!(
            "note: {}: claims that record a derivation are expected unverified here",
            hexcert::proofs::veripb::Veripb::missing()
        );
    }
    present
}

/// This run's VeriPB (hexcert's: a `veripb` on PATH, else the library
/// linked in) on the three files: `Ok` when it accepted, else where and why
/// it rejected.
pub fn veripb_verdict(statement: &Path, derivation: &Path, target: &Path) -> Result<(), String> {
    let veripb = hexcert::proofs::veripb::Veripb::find().expect("this run has VeriPB (common::veripb_present)");
    let verdict = veripb.check(statement, derivation, target).unwrap();
    if verdict.verified {
        Ok(())
    } else {
        Err(verdict.line)
    }
}

/// A `veripb` program on PATH, for the tests that run the program itself.
pub fn veripb_program_present() -> bool {
    let present =
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()).any(|dir| dir.join("veripb").is_file());
    if !present {
        assert!(std::env::var_os("CI").is_none(), "CI is set but veripb is not on PATH (.ci/run puts it there)");
        eprintln!("note: no veripb program on PATH: the test that runs it by hand checks nothing");
    }
    present
}

/// A command of hexcert's that runs no VeriPB: neither a program (PATH
/// without the directories that hold a `veripb`) nor the library.
pub fn without_veripb(command: &mut std::process::Command) -> &mut std::process::Command {
    command.env("PATH", path_without_veripb()).env(hexcert::proofs::veripb::CHOICE, "none")
}

/// The status of a record whose every other part verifies: VeriPB decides.
pub fn verified_if_veripb() -> hexcert::verify::check::Status {
    if veripb_present() {
        hexcert::verify::check::Status::Verified
    } else {
        hexcert::verify::check::Status::Unverified
    }
}

/// PATH without the directories that hold a `veripb`.
pub fn path_without_veripb() -> std::ffi::OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::env::split_paths(&path).filter(|dir| !dir.join("veripb").exists())).unwrap()
}

/// A scratch directory under the system's temporary directory, named by
/// `name` and this process, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hexcert-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// A test's scratch directory reads as the path it is, and goes with the test.
impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

/// Copies the tree `from` to `to` (files and directories only).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// Rewrites the JSON record `path` through its type, as `edit` leaves it.
pub fn rewrite_json<T>(path: &Path, edit: impl FnOnce(&mut T))
where
    T: serde::Serialize + for<'de> serde::Deserialize<'de> + hexcert::records::read::Checked,
{
    let mut value: T = hexcert::records::read_json(path).unwrap();
    edit(&mut value);
    std::fs::write(path, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
}

/// Rewrites the JSON file `path` as `change` leaves it.
pub fn edit_json(path: &Path, change: impl FnOnce(&mut serde_json::Value)) {
    let mut value: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    change(&mut value);
    std::fs::write(path, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
}

/// cake_lpr on PATH (CI builds it from the shared tools); none elsewhere,
/// said so, and a failure under CI.
pub fn cake_lpr() -> Option<PathBuf> {
    let found = hexcert::proofs::verified::VerifiedChecker::find(None).unwrap().map(|c| c.program);
    if found.is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI is set but cake_lpr is not on PATH (.ci/run builds it)");
        eprintln!("note: cake_lpr is not on PATH: the tests that need it check nothing");
    }
    found
}

/// The exact model counter of `hexcert recount` (tools/ganak-count.py),
/// when its Python package `pyganak` imports (CI installs it); none
/// elsewhere, said so, and a failure under CI.
pub fn ganak_counter() -> Option<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/ganak-count.py");
    let imports = std::process::Command::new("python3").args(["-c", "import pyganak"]).output();
    if !imports.is_ok_and(|out| out.status.success()) {
        assert!(std::env::var_os("CI").is_none(), "CI is set but pyganak does not import (.ci/run installs it)");
        eprintln!("note: pyganak does not import: the recount tests check nothing");
        return None;
    }
    Some(script)
}
