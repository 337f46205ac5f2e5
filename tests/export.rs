//! `hexcert export`: a claim's, or one cube's, exact CNF with its LRAT and
//! DRAT proofs. The files' hashes are the record's (the CNF's and the DRAT
//! proof's, rebuilt by re-solving), hexcert-lrat accepts the LRAT proof read
//! from the exported files, cake_lpr does too when it is on PATH (under CI,
//! where it always is), and a record whose hash was tampered with is
//! refused with one line and nothing written.

use std::path::{Path, PathBuf};

use crate::common;
use crate::lrat::{cake_lpr, edit_claim, hexcert, merged_cube_claim, scratch, text};
use hexcert::digest::sha256_hex;
use hexcert::verify::export::{ExportManifest, CNF_FILE, DRAT_FILE, LRAT_FILE, MANIFEST_FILE, SUMS_FILE};

/// The export's manifest, each file's bytes hashing to the SHA-256 it
/// names, and the SHA256SUMS file listing the same.
fn read_export(out: &Path) -> ExportManifest {
    let manifest: ExportManifest = serde_json::from_slice(&std::fs::read(out.join(MANIFEST_FILE)).unwrap()).unwrap();
    let sums = std::fs::read_to_string(out.join(SUMS_FILE)).unwrap();
    for file in &manifest.files {
        let bytes = std::fs::read(out.join(&file.name)).unwrap();
        assert_eq!(sha256_hex(&bytes), file.sha256, "{}", file.name);
        assert_eq!(bytes.len() as u64, file.bytes, "{}", file.name);
        assert!(sums.contains(&format!("{}  {}\n", file.sha256, file.name)), "{sums}");
    }
    manifest
}

fn sha_of(out: &Path, name: &str) -> String {
    sha256_hex(&std::fs::read(out.join(name)).unwrap())
}

/// The LRAT proof read from the exported files by hexcert-lrat, and by
/// cake_lpr when there is one.
fn checkers_accept(out: &Path) {
    let formula = std::fs::read(out.join(CNF_FILE)).unwrap();
    let proof = std::fs::File::open(out.join(LRAT_FILE)).unwrap();
    let summary = hexcert_lrat::check(&formula, std::io::BufReader::new(proof))
        .unwrap_or_else(|e| panic!("hexcert-lrat rejected the export: {e}"));
    assert!(summary.added > 0);
    if let Some(program) = cake_lpr() {
        let checker = hexcert::proofs::verified::VerifiedChecker::find(Some(&program)).unwrap().unwrap();
        let verdict = checker.check_file(&out.join(CNF_FILE), &out.join(LRAT_FILE)).unwrap();
        assert!(verdict.verified_acceptance(), "cake_lpr: {}", verdict.verdict);
    }
}

/// What `dir` holds: a refused export adds nothing to it, not even a temporary sibling.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    all.sort();
    all
}

/// One refusal: a non-zero exit, one line on stderr naming `why`, nothing written.
fn refused(dir: &Path, args: &[&str], why: &str) {
    let before = entries(dir);
    let out = hexcert(dir, args);
    assert!(!out.status.success(), "{args:?}: {}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(why), "{args:?}: {stderr}");
    assert_eq!(entries(dir), before, "{args:?}: a refused export left files behind");
}

/// A cube of a merged n = 6 claim: its exported CNF and DRAT proof hash to
/// its record, both LRAT checkers accept the files; a second export into
/// the same directory, a claim without --cube and a tampered DRAT hash are
/// refused with nothing written.
#[test]
fn a_cube_is_exported_with_the_records_hashes_and_checked_and_a_tampered_record_is_refused() {
    let dir = scratch("export-cube");
    let claim_path = merged_cube_claim(&dir, None);
    let claim: hexcert::records::CubeClaim = serde_json::from_slice(&std::fs::read(&claim_path).unwrap()).unwrap();
    let shown = claim_path.to_str().unwrap();
    let index = 7;
    let out = hexcert(&dir, &["-q", "export", shown, "--cube", "7", "--out", "cube7"]);
    assert!(out.status.success(), "{}", text(&out));
    let export = dir.join("cube7");
    let manifest = read_export(&export);
    let record = &claim.cubes[index];
    assert_eq!(sha_of(&export, CNF_FILE), record.cnf_sha256);
    assert_eq!(Some(sha_of(&export, DRAT_FILE)), record.proof_sha256);
    assert_eq!(manifest.cube.as_ref().map(|c| (c.index, &c.values)), Some((index, &claim.plan.cubes[index].values)));
    assert!(manifest.reduction.starts_with("cube: ") && manifest.reduction.contains("sections 7 and 10"));
    assert_eq!(manifest.record_sha256, sha256_hex(&std::fs::read(&claim_path).unwrap()));
    assert!(manifest.lrat.verified, "{}", manifest.lrat.verdict);
    assert!(
        manifest.commands.iter().any(|c| c.starts_with("cake_lpr formula.cnf proof.lrat")),
        "{:?}",
        manifest.commands
    );
    checkers_accept(&export);
    // The directory names its claim.json as well.
    let by_dir = hexcert(
        &dir,
        &["-q", "export", claim_path.parent().unwrap().to_str().unwrap(), "--cube", "7", "--out", "again"],
    );
    assert!(by_dir.status.success(), "{}", text(&by_dir));
    assert_eq!(
        std::fs::read(dir.join("again").join(LRAT_FILE)).unwrap(),
        std::fs::read(export.join(LRAT_FILE)).unwrap(),
        "re-solving is deterministic"
    );
    refused(&dir, &["-q", "export", shown, "--cube", "7", "--out", "cube7"], "already exists");
    refused(&dir, &["-q", "export", shown, "--out", "whole"], "--cube");
    refused(&dir, &["-q", "export", shown, "--cube", "50", "--out", "past"], "--cube 50");
    edit_claim(&claim_path, |claim| {
        let recorded = claim.cubes[index].proof_sha256.as_mut().unwrap();
        let flipped = if recorded.starts_with('0') { "1" } else { "0" };
        recorded.replace_range(0..1, flipped);
    });
    refused(&dir, &["-q", "export", shown, "--cube", "7", "--out", "tampered"], "regenerated DRAT proof has sha256");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A plain claim (n = 5, level 3 below 9): its exported CNF, DRAT and LRAT
/// proofs hash to the claim's records of them, the checkers accept the
/// files; a tampered CNF hash is refused with nothing written.
#[test]
fn a_claim_is_exported_with_the_records_hashes_and_a_tampered_one_is_refused() {
    let dir = scratch("export-claim");
    common::copy_dir(Path::new("proofs/n5"), &dir.join("proofs/n5"));
    let claim_path = dir.join("proofs/n5/level3-below9/claim.json");
    let claim: hexcert::records::Claim = serde_json::from_slice(&std::fs::read(&claim_path).unwrap()).unwrap();
    let shown = claim_path.to_str().unwrap();
    let out = hexcert(&dir, &["-q", "export", shown, "--out", "n5"]);
    assert!(out.status.success(), "{}", text(&out));
    let export = dir.join("n5");
    let manifest = read_export(&export);
    assert!(manifest.cube.is_none());
    assert_eq!(sha_of(&export, CNF_FILE), claim.cnf.sha256);
    assert_eq!(sha_of(&export, DRAT_FILE), claim.proof.sha256);
    let lrat = claim.lrat_proof.as_ref().expect("the committed n = 5 claim records its LRAT proof");
    assert_eq!(sha_of(&export, LRAT_FILE), lrat.sha256);
    checkers_accept(&export);
    refused(&dir, &["-q", "export", shown, "--cube", "0", "--out", "cube"], "not a cube claim");
    common::edit_json(&claim_path, |claim| {
        let recorded = claim["cnf"]["sha256"].as_str().unwrap().to_string();
        let flipped = if recorded.starts_with('0') { "1" } else { "0" };
        claim["cnf"]["sha256"] = format!("{flipped}{}", &recorded[1..]).into();
    });
    refused(&dir, &["-q", "export", shown, "--out", "tampered"], "does not match the recorded hash");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The audit case (round 5, F5): the exported CNF of a claim is the
/// symmetry-reduced formula (ring-1 lex-leader), and a tie-break cube's
/// carries the tie-break's clauses, but the manifest named neither the
/// reduction nor the argument another checker's verdict on the files still
/// needs. Its `reduction` now names both.
#[test]
fn the_manifest_names_the_reduction_and_its_argument() {
    let dir = scratch("export-reduction");
    common::copy_dir(Path::new("proofs/n5"), &dir.join("proofs/n5"));
    let claim = dir.join("proofs/n5/level3-below9/claim.json");
    let out = hexcert(&dir, &["-q", "export", claim.to_str().unwrap(), "--out", "whole"]);
    assert!(out.status.success(), "{}", text(&out));
    let reduction = read_export(&dir.join("whole")).reduction;
    assert!(reduction.starts_with("ring1-lex-leader: ") && reduction.contains("section 3"), "{reduction}");

    let tied = dir.join("tied");
    std::fs::create_dir_all(&tied).unwrap();
    let planned = ["-q", "cubes", "plan", "--n", "5", "--level", "3", "--below", "9", "--tie-break", "next-ring"];
    for args in [&[&planned[..], &["-o", "plan.json"]].concat()[..], &["-q", "cubes", "run", "plan.json", "--all"]] {
        let out = hexcert(&tied, args);
        assert!(out.status.success(), "{args:?}: {}", text(&out));
    }
    let out = hexcert(&tied, &["-q", "cubes", "merge", "plan.json", "--proofs", "proofs"]);
    assert!(matches!(out.status.code(), Some(0 | 4)), "{}", text(&out));
    let out = hexcert(&tied, &["-q", "export", "proofs/n5/level3-below9", "--cube", "0", "--out", "cube0"]);
    assert!(out.status.success(), "{}", text(&out));
    let reduction = read_export(&tied.join("cube0")).reduction;
    assert!(reduction.starts_with("cube with tie-break next-ring: ") && reduction.contains("section 7"), "{reduction}");
    let _ = std::fs::remove_dir_all(&dir);
}
