//! The `hexcert-lrat` binary: verdict lines and exit codes 0, 1 and 2.
//!
//! Invariant: each test writes its files in its own temporary directory.

mod common;

use std::path::PathBuf;
use std::process::Command;

fn scratch(name: &str, formula: &[u8], proof: &[u8]) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("hexcert-lrat-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (f, p) = (dir.join("f.cnf"), dir.join("p.lrat"));
    std::fs::write(&f, formula).unwrap();
    std::fs::write(&p, proof).unwrap();
    (f, p)
}

fn run(args: &[&std::ffi::OsStr]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert-lrat")).args(args).output().unwrap();
    (out.status.code().unwrap(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn valid_proof_is_verified() {
    let (f, p) = scratch("ok", common::FOUR, common::FOUR_PROOF.as_bytes());
    let (code, stdout) = run(&[f.as_os_str(), p.as_os_str()]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.starts_with("s VERIFIED\n"), "{stdout}");
    assert!(stdout.contains("2 added"), "{stdout}");
}

#[test]
fn invalid_proof_is_not_verified() {
    let (f, p) = scratch("bad", common::FOUR, b"5 1 0 1 0\n");
    let (code, stdout) = run(&[f.as_os_str(), p.as_os_str()]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.starts_with("s NOT VERIFIED\n"), "{stdout}");
    assert!(stdout.contains("LRAT step 1 (clause 5): the hint chain ends without a conflict"), "{stdout}");
}

#[test]
fn unreadable_files_and_bad_usage_exit_2() {
    let (f, _) = scratch("missing", common::FOUR, b"");
    let missing = f.with_file_name("absent.lrat");
    assert_eq!(run(&[f.as_os_str(), missing.as_os_str()]).0, 2);
    assert_eq!(run(&[missing.as_os_str(), f.as_os_str()]).0, 2);
    assert_eq!(run(&[f.as_os_str()]).0, 2);
}

/// `--text` turns the binary proof into text LRAT that checks the same way,
/// and the text form of a text proof is the same text.
#[test]
fn binary_proof_rewritten_as_text_still_verifies() {
    let binary = [b'a', 10, 2, 0, 2, 4, 0, b'd', 2, 4, 0, b'a', 12, 0, 10, 6, 8, 0];
    let (f, p) = scratch("text", common::FOUR, &binary);
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert-lrat")).arg("--text").arg(&p).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, "5 1 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4 0\n");
    let (f2, p2) = scratch("text2", common::FOUR, text.as_bytes());
    let (code, stdout) = run(&[f2.as_os_str(), p2.as_os_str()]);
    assert_eq!(code, 0, "{stdout}");
    let _ = f;
}
