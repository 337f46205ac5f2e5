//! What `hexcert check` reports: a record is `verified` only when this run
//! checked everything it states. A claim-only fraud (bound raised
//! consistently, a worse witness) is `unverified`, never passed; the
//! committed tree is verified where its proofs are stored and unverified
//! where they are not; a gzip file of two members is rejected.
//!
//! Needs a DRAT checker (drat-trim on PATH, or `cargo install rate`) and
//! VeriPB (`cargo install veripb --locked`); CI installs both. Without
//! VeriPB, the committed claims (which record a derivation) are expected
//! `unverified` instead of `verified`, with a printed note; with CI set, its
//! absence is a failure.
//!
//! What CI checks of the committed tree does not grow with it: every record's
//! hashes, stored proofs and witnesses, every derivation written again and
//! hashed, and VeriPB on the fixed set `VERIPB_IN_CI` only. VeriPB on every
//! derivation is `hexcert check --veripb proofs` (docs/RESULTS.md), run by
//! the ignored `every_committed_derivation_verifies_with_veripb`.

use crate::common::{copy_dir, path_without_veripb, rewrite_json, verified_if_veripb, veripb_present, Scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hexcert::compress;
use hexcert::derivation::write_derivation;
use hexcert::digest::sha256_hex;
use hexcert::encoding::LevelEncoding;
use hexcert::formats::{read_grid_file, to_hexcert_text};
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::records::trust::{trust_base, Basis};
use hexcert::records::{read_json, Claim, Optimum};
use hexcert::statement::Statement;
use hexcert::validation::evaluate;
use hexcert::verify::check::{check_record, Status, EXIT_FAILED, EXIT_UNVERIFIED};

/// A scratch directory for this test, removed when it goes out of scope.
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("check-{name}"))
}

fn committed(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

fn hexcert_check(args: &[&str]) -> (Option<i32>, String) {
    let out: Output = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .arg("check")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

/// The status `hexcert check` printed for the record whose path ends with `suffix`.
fn printed_status<'t>(text: &'t str, suffix: &str) -> Vec<&'t str> {
    text.lines()
        .filter_map(|l| l.split_once(": "))
        .filter(|(status, path)| ["verified", "failed", "unverified"].contains(status) && path.ends_with(suffix))
        .map(|(status, _)| status)
        .collect()
}

/// A valid full grid of exactly `penalty`, one cell away from `start` (the
/// validator alone decides; no solver involved).
fn one_change_to_penalty(hex: &Hexagon, start: &Partial, penalty: usize) -> Partial {
    for cell in 0..start.values().len() {
        for value in 1..=7 {
            let mut values = start.values().to_vec();
            values[cell] = value;
            let grid = Partial::new(hex.side(), 6, values).unwrap();
            let evaluation = evaluate(hex, &grid);
            if evaluation.is_valid() && evaluation.penalty == penalty {
                return grid;
            }
        }
    }
    panic!("no single change reaches penalty {penalty}");
}

/// The fraud of issue 9: a copy of proofs/n5 made claim-only, its bound
/// raised to 10 everywhere (statement, max_penalty, directory name, CNF hash
/// of the re-encoded formula), and a valid penalty-10 witness recorded as the
/// optimum. Once its bound cake_lpr verdict is dropped every hash agrees, so
/// only the unchecked proof stands between it and a false optimum: `check`
/// must not pass it.
#[test]
fn a_claim_only_fraud_with_a_consistent_bound_is_not_verified() {
    let root = scratch("fraud");
    let n5 = root.join("n5");
    copy_dir(&committed("proofs/n5"), &n5);
    let claim_dir = n5.join("level3-below10");
    std::fs::rename(n5.join("level3-below9"), &claim_dir).unwrap();
    std::fs::remove_file(claim_dir.join("formula.cnf.gz")).unwrap();
    std::fs::remove_file(claim_dir.join("proof.drat.gz")).unwrap();
    std::fs::remove_file(claim_dir.join("proof.lrat.gz")).unwrap();
    let hex = Hexagon::new(5).unwrap();
    rewrite_json::<Claim>(&claim_dir.join("claim.json"), |c| {
        c.below = 10;
        c.encoder.max_penalty = 9;
        c.statement = Claim::statement_for(5, 3, 10);
        c.cnf.stored_as = None;
        c.proof.stored_as = None;
        if let Some(lrat) = &mut c.lrat_proof {
            lrat.stored_as = None;
        }
        c.cnf.sha256 = sha256_hex(&LevelEncoding::new(&hex, 3, c.encode_options()).cnf.to_dimacs());
        // The statement and its derivation for the raised bound: both are
        // deterministic, so a forger can hash them too (and VeriPB accepts
        // them: the derivation says nothing about whether the CNF is UNSAT).
        let record = c.statement_to_cnf.as_mut().unwrap();
        let statement = Statement::new(&hex, 3, 10).to_opb(&hex);
        let mut derivation = Vec::new();
        write_derivation(&hex, 3, 10, (c.encoder.symmetry_breaking, c.encoder.cardinality), &mut derivation).unwrap();
        for (file, bytes) in
            [(record.statement.as_mut().unwrap(), statement), (record.derivation.as_mut().unwrap(), derivation)]
        {
            file.sha256 = sha256_hex(&bytes);
            file.bytes = bytes.len() as u64;
        }
    });
    let optimal = read_grid_file(&n5.join("witness.txt"), Some(5)).unwrap().partial;
    let worse = to_hexcert_text(&one_change_to_penalty(&hex, &optimal, 10));
    std::fs::write(n5.join("witness.txt"), &worse).unwrap();
    rewrite_json::<Optimum>(&n5.join("optimum.json"), |o| {
        o.optimum = 10;
        o.witness_sha256 = sha256_hex(worse.as_bytes());
        o.lower_bound = "level3-below10".into();
        o.level_minima = vec![7, 8, 10, 10, 10, 10];
    });

    // The committed claim's cake_lpr verdict is bound to the formula it
    // read, so kept as it is it gives the fraud away.
    let (code, text) = hexcert_check(&[n5.to_str().unwrap()]);
    assert_eq!(code, Some(i32::from(EXIT_FAILED)), "{text}");
    assert!(text.contains("read the formula"), "{text}");
    // A forger drops it; then only the missing proof is left to say no.
    rewrite_json::<Claim>(&claim_dir.join("claim.json"), |c| {
        c.verified_lrat = None;
        c.trust_base = trust_base(Basis::of_claim(c, &c.encode_options()));
    });

    let report = check_record(&n5.join("optimum.json"), None);
    assert_eq!(report.status, Status::Unverified, "{:?}", report.messages);
    let (code, text) = hexcert_check(&[n5.to_str().unwrap()]);
    assert_eq!(code, Some(i32::from(EXIT_UNVERIFIED)), "{text}");
    assert_eq!(printed_status(&text, "level3-below10/claim.json"), ["unverified"], "{text}");
    assert_eq!(printed_status(&text, "optimum.json"), ["unverified"], "{text}");
    assert!(text.contains("proof not stored; run with --regenerate"), "{text}");
    // The honest lower-level claims beside it still verify (with VeriPB).
    let expected = if veripb_present() { "0 failed, 2 unverified" } else { "0 verified, 0 failed, 4 unverified" };
    assert!(text.contains(expected), "{text}");

    // Regenerating re-solves the formula: it is satisfiable, so the claim fails.
    let (code, text) = hexcert_check(&["--regenerate", n5.to_str().unwrap()]);
    assert_eq!(code, Some(i32::from(EXIT_FAILED)), "{text}");
    assert_eq!(printed_status(&text, "optimum.json"), ["failed"], "{text}");
}

/// The committed records whose statement -> CNF derivations VeriPB checks
/// in CI: the sides whose proofs are all stored. A fixed set, so CI's VeriPB
/// time does not grow as claims land; the committed-tree test writes every
/// other derivation again and compares its hashes without VeriPB.
const VERIPB_IN_CI: [&str; 4] = ["proofs/n3", "proofs/n4", "proofs/n5", "proofs/n6"];

/// Where proofs are stored (n = 3..6, `VERIPB_IN_CI`) everything verifies,
/// VeriPB included, and check exits 0.
#[test]
fn the_committed_stored_certificates_verify() {
    let (code, text) = hexcert_check(&VERIPB_IN_CI);
    assert!(text.contains("hexcert-lrat") && text.contains("s VERIFIED on the stored LRAT proof"), "{text}");
    if veripb_present() {
        assert_eq!(code, Some(0), "{text}");
        assert!(text.contains(" verified, 0 failed, 0 unverified"), "{text}");
        // Every claim's statement -> CNF step was checked in this run.
        let claims = text.lines().filter(|l| l.ends_with("claim.json")).count();
        // By the program (`veripb 3.0.2`) or the library (`veripb 3.0.2 (library)`).
        let checked = |l: &&str| {
            l.contains("match their recorded hashes; veripb 3.0.2") && l.contains(" `s VERIFIED OUTPUT DERIVABLE` in ")
        };
        assert_eq!(text.lines().filter(checked).count(), claims, "{text}");
    } else {
        assert_eq!(code, Some(i32::from(EXIT_UNVERIFIED)), "{text}");
        assert!(text.contains("but VeriPB is not on PATH") && text.contains(" 0 verified, 0 failed"), "{text}");
    }
}

/// n = 8 is claim-only: its claim is unverified and so is its optimum, exit 4.
/// The claim is checked once although the optimum needs it and the path names it.
#[test]
fn a_committed_claim_only_optimum_is_unverified() {
    let (code, text) = hexcert_check(&["proofs/n8"]);
    assert_eq!(code, Some(i32::from(EXIT_UNVERIFIED)), "{text}");
    assert_eq!(printed_status(&text, "n8/level3-below20/claim.json"), ["unverified"], "{text}");
    assert_eq!(printed_status(&text, "n8/optimum.json"), ["unverified"], "{text}");
    // stdout alone: VeriPB linked in may warn on stderr.
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .args(["check", "--json", "proofs/n8"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let json = String::from_utf8_lossy(&out.stdout).into_owned();
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    // Every record of n8 is listed once: its three claim-only claims and the optimum.
    let records =
        std::fs::read_dir(committed("proofs/n8")).unwrap().flatten().filter(|e| e.path().is_dir()).count() + 1;
    assert_eq!(doc["unverified"], records, "{json}");
    assert_eq!(doc["exit_code"], 4, "{json}");
    assert!(doc["reports"].as_array().unwrap().iter().all(|r| r["status"] == "unverified"), "{json}");
}

/// The whole committed tree: nothing fails (every claim re-encodes to its
/// recorded hash, its statement and derivation are written again and match
/// theirs, every stored proof verifies, every witness validates), and what is
/// not verified is exactly what rests on a proof that is not stored, or on
/// VeriPB, kept off PATH here: VeriPB's time would grow with every claim
/// (`the_committed_stored_certificates_verify` runs it on `VERIPB_IN_CI`).
#[test]
fn the_committed_tree_has_no_failure_and_only_claim_only_records_unverified() {
    let doc = tree_has_no_failure(&["proofs"], false, &[], Some(&path_without_veripb()));
    // n = 13's optimum rests on the engine's own grid, and says so.
    let reports = doc["reports"].as_array().unwrap();
    let n13 = reports
        .iter()
        .find(|r| r["path"].as_str().unwrap().ends_with("n13/optimum.json"))
        .expect("n = 13's optimum is checked");
    let messages = n13["messages"].to_string();
    assert!(
        messages.contains("witness valid with penalty 40")
            && messages.contains("witness from grid file grids/n13-p40.txt"),
        "{n13}"
    );
    assert!(messages.contains("level3-below40/claim.json"), "{n13}");
}

/// `hexcert check --veripb proofs`: VeriPB on every committed derivation
/// (docs/RESULTS.md has its time; its cost grows with every claim, so it is
/// not a CI step).
#[test]
#[ignore = "long: VeriPB on every committed derivation (`hexcert check --veripb proofs`, docs/RESULTS.md)"]
fn every_committed_derivation_verifies_with_veripb() {
    assert!(veripb_present(), "veripb is not on PATH (cargo install veripb --locked)");
    tree_has_no_failure(&["proofs"], true, &["--veripb"], None);
}

/// Runs `hexcert check --json ARGS DIRS` (with `path` as PATH, and no
/// VeriPB library, when given) and holds its reports to the rule above.
fn tree_has_no_failure(
    dirs: &[&str],
    veripb: bool,
    args: &[&str],
    path: Option<&std::ffi::OsStr>,
) -> serde_json::Value {
    let mut command = Command::new(env!("CARGO_BIN_EXE_hexcert"));
    command.args(["check", "--json"]).args(args).args(dirs).current_dir(env!("CARGO_MANIFEST_DIR"));
    if let Some(path) = path {
        command.env("PATH", path).env(hexcert::proofs::veripb::CHOICE, "none");
    }
    let out = command.output().unwrap();
    let json = String::from_utf8_lossy(&out.stdout).into_owned();
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    assert_eq!(doc["failed"], 0, "{json}");
    let code = out.status.code();
    assert_eq!(code, Some(i32::from(if doc["unverified"] == 0 { 0 } else { EXIT_UNVERIFIED })), "{json}");
    for report in doc["reports"].as_array().unwrap() {
        let messages = report["messages"].to_string();
        let claim_only = messages.contains("proof not stored")
            || messages.contains("cube proofs not checked in this run")
            || messages.contains("): unverified\"")
            || messages.contains("hexcert-claim/1");
        // Unverified only because VeriPB is off PATH: everything else checked.
        let needs_veripb = report["needs_veripb"] == true;
        assert!(
            veripb || !messages.contains("`s VERIFIED OUTPUT DERIVABLE`"),
            "VeriPB ran although off PATH: {report}"
        );
        // Every claim says what became of its statement -> CNF step.
        if report["path"].as_str().unwrap().ends_with("claim.json") {
            // (A record of an older derivation writer compares the statement alone.)
            let derived = if veripb { "`s VERIFIED OUTPUT DERIVABLE`" } else { ", but VeriPB is not used in this run" };
            assert!(messages.contains(derived) && messages.contains("written again match"), "{report}");
        }
        assert_eq!(report["status"] == "unverified", claim_only || needs_veripb, "{report}");
    }
    doc
}

/// flate2 reads one gzip member; `gunzip` reads them all. A file of two
/// members (or with anything after the first) would be two different files
/// to two tools, so it is refused, in memory and in a certificate.
#[test]
fn a_gzip_file_of_two_members_is_rejected() {
    let origin = Path::new("test.gz");
    let mut two = compress::gzip_bytes(b"p cnf 1 1\n1 0\n");
    assert_eq!(compress::gunzip_bytes(&two, origin).unwrap(), b"p cnf 1 1\n1 0\n");
    two.extend(compress::gzip_bytes(b"-1 0\n"));
    let error = compress::gunzip_bytes(&two, origin).unwrap_err().to_string();
    assert!(error.contains("not a single gzip member"), "{error}");
    let mut trailing = compress::gzip_bytes(b"1 0\n");
    trailing.push(0);
    assert!(compress::gunzip_bytes(&trailing, origin).unwrap_err().to_string().contains("not a single gzip member"));

    let root = scratch("two-members");
    let dir = root.join("n3/level2-below3");
    copy_dir(&committed("proofs/n3/level2-below3"), &dir);
    assert_eq!(check_record(&dir.join("claim.json"), None).status, verified_if_veripb());
    let proof = dir.join("proof.drat.gz");
    let mut bytes = std::fs::read(&proof).unwrap();
    bytes.extend(compress::gzip_bytes(b"d 1 0\n"));
    std::fs::write(&proof, bytes).unwrap();
    let report = check_record(&dir.join("claim.json"), None);
    assert_eq!(report.status, Status::Failed);
    assert!(
        report.messages.iter().any(|m| m.contains("proof.drat.gz: not a single gzip member")),
        "{:?}",
        report.messages
    );
}

/// The statement -> CNF record: a changed hash or a VeriPB trust base
/// without the record fails; `check --veripb --record` writes the record
/// into a claim that lacks it, changing nothing else but the trust base.
#[test]
fn the_statement_record_is_checked_and_recorded() {
    let root = scratch("statement-record");
    let dir = root.join("n4/level3-below3");
    copy_dir(&committed("proofs/n4/level3-below3"), &dir);
    let path = dir.join("claim.json");
    let committed_claim: Claim = read_json(&path).unwrap();
    let restore = || std::fs::write(&path, serde_json::to_vec_pretty(&committed_claim).unwrap()).unwrap();
    let messages = |report: &hexcert::verify::check::CheckReport| report.messages.join("\n");

    rewrite_json::<Claim>(&path, |c| {
        c.statement_to_cnf.as_mut().unwrap().statement.as_mut().unwrap().sha256 = "0".repeat(64)
    });
    let report = check_record(&path, None);
    assert_eq!(report.status, Status::Failed, "{}", messages(&report));
    assert!(messages(&report).contains("the statement written again has sha256"), "{}", messages(&report));
    restore();

    rewrite_json::<Claim>(&path, |c| c.statement_to_cnf.as_mut().unwrap().derivation.as_mut().unwrap().bytes += 1);
    assert_eq!(check_record(&path, None).status, Status::Failed, "changed derivation size");
    restore();

    // A record of the first derivation writer (no `derivation_writer`): its
    // derivation is not this build's, so the one written now is checked instead.
    rewrite_json::<Claim>(&path, |c| {
        let record = c.statement_to_cnf.as_mut().unwrap();
        record.derivation_writer = None;
        record.derivation.as_mut().unwrap().sha256 = "0".repeat(64);
    });
    let report = check_record(&path, None);
    assert_eq!(report.status, verified_if_veripb(), "{}", messages(&report));
    assert!(
        messages(&report)
            .contains("the derivation recorded is hexcert-derivation/1's, this build writes hexcert-derivation/2's"),
        "{}",
        messages(&report)
    );
    restore();

    rewrite_json::<Claim>(&path, |c| {
        c.statement_to_cnf.as_mut().unwrap().symmetry = hexcert::encoding::SymmetryBreaking::None
    });
    assert_eq!(check_record(&path, None).status, Status::Failed, "other symmetry mode");
    restore();

    // The record dropped but its short trust base kept: the base names a
    // check nothing records.
    rewrite_json::<Claim>(&path, |c| c.statement_to_cnf = None);
    let report = check_record(&path, None);
    assert_eq!(report.status, Status::Failed, "{}", messages(&report));
    assert!(messages(&report).contains("names VeriPB"), "{}", messages(&report));

    // A claim of the earlier kind (no record, the encoder in its trust
    // base) verifies on its own trust base, is unverified under --veripb
    // unless VeriPB checks a derivation now, and --record upgrades it.
    rewrite_json::<Claim>(&path, |c| {
        let options = c.encode_options();
        // A verified checker's acceptance (cake_lpr's, recorded) stays in it.
        let verified = c.verified_lrat.as_ref().filter(|v| v.counts_as_verified()).map(|v| v.version.as_str());
        c.trust_base =
            trust_base(Basis::Claim { options: &options, drat_checks: &c.drat_checks, statement: None, verified });
    });
    let report = check_record(&path, None);
    assert_eq!(report.status, Status::Verified, "{}", messages(&report));
    assert!(messages(&report).contains("statement -> CNF: not recorded"), "{}", messages(&report));
    let dir_arg = root.to_str().unwrap();
    if !veripb_present() {
        let (code, text) = hexcert_check(&["--veripb", "--record", dir_arg]);
        assert_eq!(code, Some(2), "{text}");
        assert!(text.contains("--record needs VeriPB: "), "{text}");
        return;
    }
    let (code, text) = hexcert_check(&["--veripb", dir_arg]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("derived now (nothing recorded); veripb"), "{text}");
    let (code, text) = hexcert_check(&["--veripb", "--record", dir_arg]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("statement -> CNF: recorded veripb"), "{text}");
    let recorded: Claim = read_json(&path).unwrap();
    let (mut now, mut then) = (recorded.clone(), committed_claim.clone());
    // The time, and which VeriPB ran (a program on PATH or the library linked in), are the run's.
    for claim in [&mut now, &mut then] {
        let veripb = claim.statement_to_cnf.as_mut().unwrap().veripb.as_mut().unwrap();
        assert!(veripb.version.starts_with("veripb 3.") && veripb.verified, "{veripb:?}");
        (veripb.seconds, veripb.version, veripb.command) = (0.0, String::new(), String::new());
    }
    assert_eq!(now, then, "--record wrote something else than the committed record");
    assert_eq!(check_record(&path, None).status, Status::Verified);
}

/// Without VeriPB (none on PATH, the library switched off) a claim that
/// records a derivation is unverified (exit 4), never verified, and says why.
#[test]
fn without_veripb_a_recorded_derivation_is_unverified() {
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .args(["check", "proofs/n3/level2-below3"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", "/usr/bin:/bin")
        .env(hexcert::proofs::veripb::CHOICE, "none")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(i32::from(EXIT_UNVERIFIED)), "{text}");
    assert!(text.contains("statement -> CNF: unverified: statement and derivation written again match their recorded hashes, but VeriPB is not used in this run (HEXCERT_VERIPB=none)"), "{text}");
}

/// `hexcert solve` writes a level-`level` partial of penalty at most `max` (side `n`) to `path`.
fn solve_level_witness((n, level, max): (usize, u8, usize), path: &Path) {
    let solve = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .args(["solve", "--n", &n.to_string(), "--level", &level.to_string(), "--max-penalty", &max.to_string(), "-o"])
        .arg(path)
        .output()
        .unwrap();
    assert!(solve.status.success(), "{}", String::from_utf8_lossy(&solve.stderr));
}

/// A claim directory with `witness.txt` states a level minimum: the witness
/// must be a valid partial at the claim's level with exactly its bound, or
/// the claim fails (a witness at another level is no witness).
#[test]
fn a_level_witness_beside_a_claim_is_checked() {
    let root = scratch("level-witness");
    let dir = root.join("n5/level1-below7");
    copy_dir(&committed("proofs/n5/level1-below7"), &dir);
    solve_level_witness((5, 1, 7), &dir.join("witness.txt"));
    let claim = dir.join("claim.json");
    let (code, text) = hexcert_check(&[claim.to_str().unwrap()]);
    assert!(text.contains("the level-1 minimum is 7"), "{text}");
    assert_eq!(
        printed_status(&text, "level1-below7/claim.json"),
        [if veripb_present() { "verified" } else { "unverified" }],
        "{text}"
    );
    assert_ne!(code, Some(EXIT_FAILED as i32), "{text}");

    let witness = std::fs::read_to_string(dir.join("witness.txt")).unwrap();
    std::fs::write(dir.join("witness.txt"), witness.replacen("level=1", "level=2", 1)).unwrap();
    let (code, text) = hexcert_check(&[claim.to_str().unwrap()]);
    assert_eq!(printed_status(&text, "level1-below7/claim.json"), ["failed"], "{text}");
    assert!(text.contains("level-2 partial"), "{text}");
    assert_eq!(code, Some(EXIT_FAILED as i32), "{text}");
}

/// The audit case: `level_minima: [0, 1, 9, 9, 9, 9]` for n = 5 was reported
/// verified by `check` and printed by `certify` with exit 0, although the
/// level-1 claim verified in the same run says the level-1 minimum is at
/// least 7. Every stated minimum is held against the claims: one below a
/// bound they prove fails, with a line naming the claim, and `certify` does
/// not reuse such a record.
#[test]
fn level_minima_below_a_claimed_bound_fail_check_and_are_not_printed_by_certify() {
    let root = scratch("level-minima");
    copy_dir(&committed("proofs/n5"), &root.join("n5"));
    let optimum = root.join("n5/optimum.json");
    rewrite_json(&optimum, |o: &mut Optimum| o.level_minima = vec![0, 1, 9, 9, 9, 9]);
    let (code, text) = hexcert_check(&[root.to_str().unwrap()]);
    assert_eq!(code, Some(EXIT_FAILED as i32), "{text}");
    assert_eq!(printed_status(&text, "n5/optimum.json"), ["failed"], "{text}");
    assert!(text.contains("level 1") && text.contains("level1-below7"), "{text}");

    let out = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .args(["certify", "--n", "5", "-q", "--proofs"])
        .arg(&*root)
        .output()
        .unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!said.contains("| 0 1 9 9 9 9 |"), "certify printed the false minima: {said}");
    let written: Optimum = read_json(&optimum).unwrap();
    assert_eq!(written.level_minima, [7, 8, 9, 9, 9, 9], "{said}");
    let _ = std::fs::remove_dir_all(&root);
}

/// Whether a committed claim's trust base names cake_lpr (`check`, above,
/// holds every stored trust base to the one its record implies).
fn names_cake_lpr(claim_dir: &Path) -> bool {
    let text = std::fs::read_to_string(claim_dir.join("claim.json")).unwrap();
    let claim: serde_json::Value = serde_json::from_str(&text).unwrap();
    claim["trust_base"].as_array().unwrap().iter().any(|item| item.as_str().unwrap().contains("cake_lpr"))
}

/// README's results table says what the records say: a bold level minimum
/// B rests on a committed claim "below B" at that level or one beneath it
/// (or is 0) and on a partial of penalty B (the side's `optimum.json`
/// records the level's minimum, or the claim's `witness.txt` is a valid
/// partial of that level and penalty), a bold optimum on its
/// `optimum.json`, and ᵛ marks exactly the bold cells whose claim's every
/// proof cake_lpr accepted.
#[test]
fn the_readme_marks_are_the_committed_records() {
    let readme = std::fs::read_to_string(committed("README.md")).unwrap();
    let rows: Vec<Vec<&str>> = readme
        .lines()
        .filter(|line| line.starts_with("| "))
        .map(|line| line.split('|').map(str::trim).collect::<Vec<_>>())
        .filter(|cells| cells.len() > 6 && cells[1].parse::<usize>().is_ok_and(|n| (3..=40).contains(&n)))
        .collect();
    assert!(rows.len() >= 14, "README's results table has a row per n = 3..16");
    let mut marked = 0;
    for cells in rows {
        let n: usize = cells[1].parse().unwrap();
        for (column, cell) in cells[2..=5].iter().enumerate() {
            let verified_mark = cell.contains('ᵛ');
            let Some(value) = cell.split("**").nth(1).filter(|_| cell.starts_with("**")) else {
                assert!(!verified_mark, "n = {n}: {cell:?} is marked ᵛ but not certified (bold)");
                continue;
            };
            let value: usize = value.parse().unwrap_or_else(|_| panic!("n = {n}: bold {cell:?} is not a number"));
            let claim = if column == 3 {
                let optimum: Optimum = read_json(&committed(&format!("proofs/n{n}/optimum.json"))).unwrap();
                assert_eq!(optimum.optimum, value, "n = {n}: README's optimum is optimum.json's");
                Some(committed(&format!("proofs/n{n}")).join(&optimum.lower_bound))
            } else {
                let level = column + 1;
                (1..=level)
                    .rev()
                    .map(|j| committed(&format!("proofs/n{n}/level{j}-below{value}")))
                    .find(|dir| dir.is_dir())
            };
            if column < 3 {
                assert_level_minimum_reached(n, column as u8 + 1, value);
            }
            match claim {
                Some(dir) => {
                    assert_eq!(
                        verified_mark,
                        names_cake_lpr(&dir),
                        "n = {n}: {cell:?} and {}'s trust base disagree on cake_lpr",
                        dir.display()
                    );
                    marked += usize::from(verified_mark);
                }
                None => assert!(
                    value == 0 && !verified_mark,
                    "n = {n}: bold {cell:?} in column {} has no committed claim",
                    column + 1
                ),
            }
        }
    }
    assert!(marked > 0, "some cell carries ᵛ");
}

/// A partial of level `level` and penalty `value` is on record for side
/// `n`: the optimum's level minima, or else the witness beside the claim
/// "below `value`" at that level, read and judged by the plain validator.
fn assert_level_minimum_reached(n: usize, level: u8, value: usize) {
    let optimum = committed(&format!("proofs/n{n}/optimum.json"));
    if optimum.is_file() {
        let optimum: Optimum = read_json(&optimum).unwrap();
        assert_eq!(
            optimum.level_minima.get(level as usize - 1),
            Some(&value),
            "n = {n}: README's level-{level} minimum is optimum.json's"
        );
        return;
    }
    let witness = committed(&format!("proofs/n{n}/level{level}-below{value}/witness.txt"));
    assert!(
        witness.is_file(),
        "n = {n}: bold level-{level} minimum {value} has no witness ({} is missing)",
        witness.display()
    );
    let partial = read_grid_file(&witness, Some(n)).unwrap().partial;
    let evaluation = hexcert::validation::evaluate(&Hexagon::new(n).unwrap(), &partial);
    assert!(evaluation.is_valid(), "n = {n}: {} is not valid", witness.display());
    assert_eq!(
        (partial.level(), evaluation.penalty),
        (level, value),
        "n = {n}: {}'s level and penalty",
        witness.display()
    );
}

/// `hexcert certify --witness GRID --n N --proofs ROOT`, its exit code and
/// stdout + stderr.
fn certify_witness(n: usize, grid: &Path, root: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .args(["certify", "--n", &n.to_string(), "--witness"])
        .arg(grid)
        .arg("--proofs")
        .arg(root)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A copy of n = 5's claims without its optimum: the side whose optimum a
/// given grid settles.
fn n5_claims_only(name: &str) -> Scratch {
    let root = scratch(name);
    copy_dir(&committed("proofs/n5"), &root.join("n5"));
    for file in ["optimum.json", "witness.txt"] {
        std::fs::remove_file(root.join("n5").join(file)).unwrap();
    }
    root
}

/// `certify --witness` writes an optimum from an engine-found grid and the
/// claims already there: it names the grid (path, hash, its `#` lines), states
/// level 2's minimum from below only (no level-2 witness, and the grid reads
/// at level 2 above 8), so the optimum is unverified (exit 4) with level 2
/// "at least 8", and `check` judges the record as any other; a level witness
/// put beside the level-2 claim then reaches it. A published file is named
/// as one. An `unreached` level at or above the lower bound's is refused by
/// the reader.
#[test]
fn an_optimum_written_from_a_given_grid_names_it_and_checks() {
    let root = n5_claims_only("given-grid");
    let grid = committed("grids/n5-p9.txt");
    let (code, stdout, stderr) = certify_witness(5, &grid, &root);
    let expected = i32::from(EXIT_UNVERIFIED);
    assert_eq!(code, Some(expected), "{stdout}{stderr}");
    assert!(stdout.contains("| 5 | 9 | 3 | 7 >=8 9 9 9 9 |"), "{stdout}");
    let record_path = root.join("n5/optimum.json");
    let record: Optimum = read_json(&record_path).unwrap();
    let source = record.witness_source.clone().expect("the record names its grid");
    assert_eq!((source.kind.as_str(), source.path.as_deref()), ("grid file", Some(grid.to_str().unwrap())));
    assert_eq!(source.sha256.as_deref(), Some(sha256_hex(&std::fs::read(&grid).unwrap()).as_str()));
    assert!(source.comments.iter().any(|c| c.contains("a search restriction, not a claim")), "{source:?}");
    assert_eq!((record.lower_bound.as_str(), record.optimum), ("level3-below9", 9));
    assert_eq!(record.level_minima, [7, 8, 9, 9, 9, 9]);
    assert_eq!(record.unreached, Some(vec![2]));
    let report = check_record(&record_path, None);
    assert_eq!((report.status, report.needs_veripb), (Status::Unverified, false), "{:?}", report.messages);
    assert!(report.messages.iter().any(|m| m.contains("witness from grid file")), "{:?}", report.messages);
    assert!(report.messages.iter().any(|m| m.contains("level 2 at least 8")), "{:?}", report.messages);

    // A level-2 partial of penalty 8 beside the level-2 claim reaches it.
    solve_level_witness((5, 2, 8), &root.join("n5/level2-below8/witness.txt"));
    let report = check_record(&record_path, None);
    assert_eq!(report.status, verified_if_veripb(), "{:?}", report.messages);
    assert!(!report.messages.iter().any(|m| m.contains("at least")), "{:?}", report.messages);

    rewrite_json::<Optimum>(&record_path, |o| o.unreached = Some(vec![3]));
    let report = check_record(&record_path, None);
    assert_eq!(report.status, Status::Failed, "{:?}", report.messages);
    assert!(report.messages.iter().any(|m| m.contains("unreached names level 3")), "{:?}", report.messages);

    let root = n5_claims_only("given-published");
    let (code, stdout, stderr) = certify_witness(5, &committed("tests/data/published/CLEAN-5-208"), &root);
    assert_eq!(code, Some(expected), "{stdout}{stderr}");
    let record: Optimum = read_json(&root.join("n5/optimum.json")).unwrap();
    assert_eq!(record.witness_source.unwrap().kind, "published file");
}

/// The audit case: `certify --witness` on a directory holding only n = 5's
/// level-2 and level-3 claims wrote `level_minima [0, 8, 9, 9, 9, 9]`,
/// printed it with exit 0, and `check` verified the optimum with "level 1
/// reached by the search's models", though no search ran; deleting
/// `unreached` from an honest record did the same. A level minimum is
/// verified only when a claim proves it from below and a stored witness
/// reaches it: here level 1 is "at least 0" and level 2 "at least 8", the
/// optimum unverified (exit 4) for that reason (not VeriPB's absence),
/// whatever the record's `unreached` says.
#[test]
fn a_level_minimum_without_a_claim_and_a_witness_is_at_least_and_unverified() {
    let root = n5_claims_only("no-level-1");
    std::fs::remove_dir_all(root.join("n5/level1-below7")).unwrap();
    let (code, stdout, stderr) = certify_witness(5, &committed("grids/n5-p9.txt"), &root);
    assert_eq!(code, Some(i32::from(EXIT_UNVERIFIED)), "{stdout}{stderr}");
    assert!(stdout.contains("| 5 | 9 | 3 | >=0 >=8 9 9 9 9 |"), "{stdout}");
    let record_path = root.join("n5/optimum.json");
    let record: Optimum = read_json(&record_path).unwrap();
    assert_eq!((record.level_minima.clone(), record.unreached.clone()), (vec![0, 8, 9, 9, 9, 9], Some(vec![1, 2])));
    for unreached in [Some(vec![1, 2]), None] {
        rewrite_json::<Optimum>(&record_path, |o| o.unreached = unreached.clone());
        let (code, text) = hexcert_check(&[record_path.to_str().unwrap()]);
        assert_eq!(code, Some(i32::from(EXIT_UNVERIFIED)), "{text}");
        assert_eq!(printed_status(&text, "n5/optimum.json"), ["unverified"], "{text}");
        assert!(text.contains("level 1 at least 0, level 2 at least 8"), "{text}");
        assert!(!text.contains("search's models"), "{text}");
        let report = check_record(&record_path, None);
        assert!(!report.needs_veripb, "unverified for want of a witness, not of VeriPB: {:?}", report.messages);
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// The audit case: `witness_source.path` was printed raw, so a grid file
/// named with a newline forged a report line. The record's strings are
/// printed with their control characters escaped.
#[test]
fn a_witness_path_with_a_newline_prints_on_one_line() {
    let root = n5_claims_only("newline-path");
    let grid = root.join("grid\nverified: forged.txt");
    std::fs::copy(committed("grids/n5-p9.txt"), &grid).unwrap();
    let (_, stdout, stderr) = certify_witness(5, &grid, &root);
    assert!(root.join("n5/optimum.json").exists(), "{stdout}{stderr}");
    let (_, text) = hexcert_check(&[root.join("n5/optimum.json").to_str().unwrap()]);
    for said in [&stdout, &text] {
        assert!(!said.lines().any(|l| l.starts_with("verified: forged")), "{said}");
        assert!(said.contains("grid\\nverified: forged.txt"), "{said}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// A grid whose penalty no claim bounds, an invalid grid, and an existing
/// optimum are refused with one line and a non-zero exit, and nothing is written.
#[test]
fn certify_refuses_a_grid_that_is_not_the_optimum() {
    let hex = Hexagon::new(5).unwrap();
    let optimal = read_grid_file(&committed("grids/n5-p9.txt"), Some(5)).unwrap().partial;
    let root = n5_claims_only("refused-grid");
    let worse = root.join("worse.txt");
    std::fs::write(&worse, to_hexcert_text(&one_change_to_penalty(&hex, &optimal, 10))).unwrap();
    let invalid = root.join("invalid.txt");
    let twos = Partial::new(5, 6, vec![2; optimal.values().len()]).unwrap();
    std::fs::write(&invalid, to_hexcert_text(&twos)).unwrap();
    for (grid, why) in [(&worse, "penalty 10, but no claim"), (&invalid, "not a valid grid")] {
        let (code, stdout, stderr) = certify_witness(5, grid, &root);
        assert!(code.is_some_and(|c| c != 0), "{stdout}{stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        assert!(stderr.contains(why), "{stderr}");
        for file in ["optimum.json", "witness.txt"] {
            assert!(!root.join("n5").join(file).exists(), "{file} written for {}", grid.display());
        }
    }
    let (code, _, stderr) = certify_witness(5, &committed("grids/n5-p9.txt"), &committed("proofs"));
    assert!(code.is_some_and(|c| c != 0) && stderr.contains("exists already"), "{stderr}");
}

/// A level witness beside a claim makes the level's minimum only with the
/// claim verified: beside a claim this run could not verify (n = 10's level
/// 1, whose proof is not stored) `check` says "at most" and "would be",
/// never "the minimum is", as it did.
#[test]
fn an_unverified_claims_minimum_is_not_stated_as_a_fact() {
    let report = check_record(&committed("proofs/n10/level1-below22/claim.json"), None);
    assert_eq!(report.status, Status::Unverified, "{:?}", report.messages);
    let lines = report.messages.join("\n");
    assert!(
        lines.contains("the level-1 minimum is at most 22, and would be 22 if this claim were verified"),
        "{lines}"
    );
    assert!(!lines.contains("minimum is 22"), "{lines}");
}
