//! Certificates end to end: prove, store, re-check; every committed
//! certificate re-checks; tampering with any part of a certificate is caught;
//! a regenerated proof is byte-identical (CaDiCaL is deterministic).
//!
//! Needs a DRAT checker (drat-trim on PATH, or `cargo install rate`) and
//! VeriPB (`cargo install veripb --locked`); CI installs both. Without
//! VeriPB the claims written here record that it did not run, and `check`
//! reports them `unverified` instead of `verified` (a printed note says so;
//! with CI set, its absence is a failure).

use crate::common::{copy_dir, rewrite_json, verified_if_veripb, veripb_present, Scratch};
use std::path::{Path, PathBuf};
use std::process::Command;

use hexcert::certify::optimum::certify_optimum;
use hexcert::certify::prove::{certify_refutation, prove, refute, ProveOutcome, SolveAgain};
use hexcert::certify::resume::ResumeDir;
use hexcert::certify::Settings;
use hexcert::compress;
use hexcert::digest::sha256_hex;
use hexcert::geometry::Hexagon;
use hexcert::proofs::Checker;
use hexcert::records::{read_json, Claim, Optimum};
use hexcert::verify::check::{check_record, Status};

/// A scratch directory for this test, removed when it goes out of scope.
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("cert-{name}"))
}

fn prove_into(root: &Path, n: usize, level: u8, below: usize, store_limit: u64) -> PathBuf {
    let mut settings = Settings::new(root.to_path_buf());
    settings.store_limit = store_limit;
    settings.race = false;
    match prove(&Hexagon::new(n).unwrap(), level, below, &settings).unwrap() {
        ProveOutcome::Certified { directory, .. } => directory,
        ProveOutcome::Counterexample(_) => panic!("n={n} level={level} below={below} is true"),
    }
}

fn status_of(record: &Path) -> Status {
    check_record(record, None).status
}

/// Decompresses a stored file, edits its bytes, stores it again; returns the new plain hash.
fn edit_stored(path: &Path, edit: impl FnOnce(&mut Vec<u8>)) -> String {
    let mut bytes = compress::gunzip_bytes(&std::fs::read(path).unwrap(), path).unwrap();
    edit(&mut bytes);
    std::fs::write(path, compress::gzip_bytes(&bytes)).unwrap();
    sha256_hex(&bytes)
}

/// Byte offsets of the first literal of each added lemma in a binary DRAT proof.
fn lemma_literal_offsets(proof: &[u8]) -> Vec<usize> {
    let mut offsets = Vec::new();
    let mut i = 0;
    while i < proof.len() {
        let added = proof[i] == b'a';
        i += 1;
        if added && proof[i] != 0 {
            offsets.push(i);
        }
        while proof[i] != 0 {
            i += 1; // continuation bytes have the high bit set; a literal ends on a byte without it
        }
        i += 1;
    }
    offsets
}

#[test]
fn a_certificate_passes_and_every_kind_of_tampering_fails() {
    let root = scratch("tamper");
    let dir = prove_into(&root, 4, 3, 3, u64::MAX);
    let claim_path = dir.join("claim.json");
    assert_eq!(status_of(&claim_path), verified_if_veripb());
    // The claim records its statement -> CNF step next to its refutation.
    let claim: Claim = read_json(&claim_path).unwrap();
    let record = claim.statement_to_cnf.as_ref().expect("a statement record");
    assert!(record.statement.is_some() && record.derivation.is_some());
    if veripb_present() {
        let veripb = record.veripb.as_ref().expect("VeriPB's verdict");
        assert!(
            veripb.verified && veripb.verdict == "s VERIFIED OUTPUT DERIVABLE" && veripb.version.starts_with("veripb ")
        );
        assert_eq!(claim.trust_base.len(), 3, "{:?}", claim.trust_base);
        assert!(
            claim.trust_base[0].starts_with("the OPB statement")
                && claim.trust_base[1].starts_with("the VeriPB checker")
        );
    } else {
        assert!(
            record.veripb.is_none() && record.not_checked.as_deref().unwrap().contains("not on PATH"),
            "{record:?}"
        );
        assert!(claim.trust_base[0].starts_with("the encoder"), "no VeriPB verdict: the encoder stays trusted");
    }
    let pristine = |name: &str| std::fs::read(dir.join(name)).unwrap();
    let files = ["claim.json", "formula.cnf.gz", "proof.drat.gz", "proof.lrat.gz"];
    let saved: Vec<Vec<u8>> = files.iter().map(|name| pristine(name)).collect();
    let restore = || {
        for (name, bytes) in files.iter().zip(&saved) {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
    };

    // One literal of either proof flipped: the recorded hash tells.
    edit_stored(&dir.join("proof.drat.gz"), |p| {
        let at = lemma_literal_offsets(p)[0];
        p[at] ^= 1;
    });
    assert_eq!(status_of(&claim_path), Status::Failed, "flipped DRAT literal");
    restore();
    edit_stored(&dir.join("proof.lrat.gz"), |p| *p.last_mut().unwrap() ^= 2);
    assert_eq!(status_of(&claim_path), Status::Failed, "changed LRAT byte");
    restore();

    // The LRAT proof cut short and the claim re-hashed to match: the LRAT
    // checker itself refuses, naming what is wrong.
    let new_hash = edit_stored(&dir.join("proof.lrat.gz"), |p| p.truncate(p.len() * 2 / 3));
    rewrite_json::<Claim>(&claim_path, |c| c.lrat_proof.as_mut().unwrap().sha256 = new_hash);
    let report = check_record(&claim_path, None);
    assert_eq!(report.status, Status::Failed, "truncated LRAT proof: {:?}", report.messages);
    assert!(report.messages.iter().any(|m| m.contains("the LRAT checker rejected")), "{:?}", report.messages);
    restore();

    // The DRAT proof cut short and re-hashed: the external checker refuses
    // (where one is on PATH; CI installs rate).
    if Checker::present().is_empty() {
        assert!(std::env::var_os("CI").is_none(), "CI is set but no DRAT checker (rate, drat-trim) is on PATH");
        eprintln!("no DRAT checker on PATH: the truncated-DRAT case is not exercised here");
    } else {
        let new_hash = edit_stored(&dir.join("proof.drat.gz"), |p| {
            let cut = lemma_literal_offsets(p)[2] - 1;
            p.truncate(cut);
        });
        rewrite_json::<Claim>(&claim_path, |c| c.proof.sha256 = new_hash);
        let report = check_record(&claim_path, None);
        assert_eq!(report.status, Status::Failed, "truncated DRAT proof: {:?}", report.messages);
        assert!(report.messages.iter().any(|m| m.contains("did not verify")), "{:?}", report.messages);
        restore();
    }

    // One clause of the CNF changed (the last literal of the first clause negated).
    edit_stored(&dir.join("formula.cnf.gz"), |cnf| {
        let text = String::from_utf8(cnf.clone()).unwrap();
        let header = text.find("p cnf").unwrap();
        let line_start = text[header..].find('\n').unwrap() + header + 1;
        let line_end = text[line_start..].find('\n').unwrap() + line_start;
        let clause: Vec<i64> = text[line_start..line_end].split_whitespace().map(|t| t.parse().unwrap()).collect();
        let mut changed = clause.clone();
        let last = changed.len() - 2;
        changed[last] = -changed[last];
        let line: Vec<String> = changed.iter().map(|l| l.to_string()).collect();
        *cnf = format!("{}{}{}", &text[..line_start], line.join(" "), &text[line_end..]).into_bytes();
    });
    assert_eq!(status_of(&claim_path), Status::Failed, "changed CNF clause");
    restore();

    // The bound in claim.json changed, consistently or not. Alone, the
    // claim no longer reads: its statement names the old bound.
    rewrite_json::<Claim>(&claim_path, |c| c.below = 4);
    assert_eq!(status_of(&claim_path), Status::Failed, "bound changed alone");
    let report = check_record(&claim_path, None);
    assert!(
        report.messages.iter().any(|m| m.contains("statement does not match n, level and bound")),
        "{:?}",
        report.messages
    );
    restore();
    // Consistently, directory name included: only the re-encoded CNF's hash tells.
    let moved = dir.with_file_name("level3-below4");
    copy_dir(&dir, &moved);
    rewrite_json::<Claim>(&moved.join("claim.json"), |c| {
        c.below = 4;
        c.encoder.max_penalty = 3;
        c.statement = Claim::statement_for(4, 3, 4);
    });
    let report = check_record(&moved.join("claim.json"), None);
    assert_eq!(report.status, Status::Failed, "bound changed everywhere");
    assert!(report.messages.iter().any(|m| m.contains("re-encoded")), "{:?}", report.messages);
    // In its old directory the raised bound contradicts the directory name.
    std::fs::copy(moved.join("claim.json"), &claim_path).unwrap();
    let report = check_record(&claim_path, None);
    assert!(
        report.messages.iter().any(|m| m.contains("lies in the directory level3-below3, not level3-below4")),
        "{:?}",
        report.messages
    );
    restore();

    assert_eq!(status_of(&claim_path), verified_if_veripb(), "restored certificate passes again");
}

#[test]
fn an_optimum_with_a_worse_witness_is_rejected() {
    let root = scratch("optimum");
    let report = certify_optimum(3, &Settings::new(root.clone()), &mut |_| {}).unwrap();
    assert_eq!(report.optimum, 3);
    let record = root.join("n3/optimum.json");
    assert_eq!(status_of(&record), verified_if_veripb());
    let lower: Optimum = read_json(&record).unwrap();
    assert_eq!(status_of(&root.join("n3").join(&lower.lower_bound).join("claim.json")), verified_if_veripb());

    // A valid grid with a higher penalty (the published n=3 grid with its 7 lowered to 1).
    let worse = "hexcert n=3 level=6\n  3 1 4\n 4 2 3 2\n1 6 5 1 4\n 3 1 4 3\n  2 1 2\n";
    let witness = root.join("n3/witness.txt");
    let original = std::fs::read(&witness).unwrap();
    std::fs::write(&witness, worse).unwrap();
    assert_eq!(status_of(&record), Status::Failed, "swapped witness, old hash");
    rewrite_json::<Optimum>(&record, |o| o.witness_sha256 = sha256_hex(worse.as_bytes()));
    let report = check_record(&record, None);
    assert_eq!(report.status, Status::Failed);
    assert!(report.messages.iter().any(|m| m.contains("the witness has penalty 9")), "{:?}", report.messages);
    std::fs::write(&witness, original).unwrap();
}

#[test]
fn regenerated_proofs_are_byte_identical() {
    let root = scratch("regenerate");
    let dir = prove_into(&root, 5, 3, 9, 0);
    let claim: Claim = read_json(&dir.join("claim.json")).unwrap();
    assert!(claim.proof.stored_as.is_none(), "limit 0 stores nothing");
    assert!(!dir.join("proof.drat.gz").exists());
    let report = check_record(&dir.join("claim.json"), None);
    assert_eq!(report.status, Status::Unverified, "not passed without --regenerate");
    assert!(report.messages.iter().any(|m| m.contains("proof not stored")), "{:?}", report.messages);
    for _ in 0..2 {
        let report = check_record(&dir.join("claim.json"), Some(&SolveAgain));
        assert_eq!(report.status, verified_if_veripb(), "{:?}", report.messages);
    }
}

/// The quickest committed claim-only certificate (n = 8, level 1 below 14:
/// 7 s of recorded solving, a 3.3 MB DRAT proof not in the repository) is
/// rebuilt byte for byte from its record on this machine, and the checker
/// accepts it: regeneration works on a claim whose proof was never stored,
/// not only on toy claims. The scratch copy keeps `proofs/` untouched.
#[test]
fn a_committed_claim_only_certificate_regenerates_and_checks() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/n8/level1-below14/claim.json");
    let claim: Claim = read_json(&source).unwrap();
    assert!(claim.proof.stored_as.is_none(), "n = 8's proof is over the size limit, so only its claim is committed");
    let root = scratch("regenerate-n8");
    let copy = root.join("n8/level1-below14/claim.json");
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::copy(&source, &copy).unwrap();
    let report = check_record(&copy, Some(&SolveAgain));
    assert_eq!(report.status, verified_if_veripb(), "{:?}", report.messages);
    assert!(report.messages.iter().any(|m| m.contains("matches the recorded hash")), "{:?}", report.messages);
}

#[test]
fn a_false_claim_yields_a_validated_counterexample() {
    let root = scratch("false");
    let settings = Settings::new(root.clone());
    match prove(&Hexagon::new(4).unwrap(), 2, 3, &settings).unwrap() {
        ProveOutcome::Counterexample(found) => {
            assert!(found.evaluation.is_valid());
            assert!(found.evaluation.penalty <= 2);
        }
        ProveOutcome::Certified { .. } => panic!("n=4 level 2 reaches penalty 2"),
    }
    assert!(!root.join("n4/level2-below3").exists(), "no certificate for a false claim");
}

/// Ctrl-C during `certify` leaves only complete certificates (and the resume
/// state), and the rerun resumes from them (the level-1 claim is not proved
/// again) and finishes.
#[test]
fn an_interrupted_certify_resumes_from_its_certificates() {
    let root = scratch("interrupt");
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_hexcert"))
            // Every proof stored (64 MiB cap), so `check` verifies the
            // optimum from the files alone, without re-solving.
            .args(["certify", "--n", "6", "--proofs", root.to_str().unwrap(), "-q", "--store-limit", "67108864"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let first_claim = root.join("n6/level1-below10/claim.json");
    let mut child = run();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !first_claim.exists() {
        assert!(std::time::Instant::now() < deadline, "no level-1 certificate within 2 minutes");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: sending a signal to our own child process.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert!(!root.join("n6/optimum.json").exists() || status.success(), "interrupted run left an optimum record");
    let leftovers: Vec<_> = std::fs::read_dir(root.join("n6"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with('.') && e.file_name() != ".resume")
        .map(|e| e.path())
        .collect();
    assert!(leftovers.is_empty(), "work directories left behind: {leftovers:?}");
    assert!(root.join("n6/.resume/level1.txt").exists(), "the best level-1 partial is kept for the rerun");
    let stamp = std::fs::metadata(&first_claim).unwrap().modified().unwrap();
    assert_eq!(status_of(&first_claim), verified_if_veripb(), "the certificate written before Ctrl-C is complete");

    let rerun = run().wait_with_output().unwrap();
    // Exit 4 without VeriPB: the derivations were not checked, as `check` says.
    let expected = if veripb_present() { 0 } else { 4 };
    assert_eq!(rerun.status.code(), Some(expected), "{}", String::from_utf8_lossy(&rerun.stderr));
    assert_eq!(
        std::fs::metadata(&first_claim).unwrap().modified().unwrap(),
        stamp,
        "the rerun reused the level-1 certificate"
    );
    let optimum: Optimum = read_json(&root.join("n6/optimum.json")).unwrap();
    assert_eq!(optimum.optimum, 13);
    assert_eq!(status_of(&root.join("n6/optimum.json")), verified_if_veripb());
    assert!(!root.join("n6/.resume").exists(), "resume state is removed once the optimum is recorded");
}

/// Nothing is stored without the LRAT checker's verdict: a refutation whose
/// trace was not verified is refused by `certify_refutation`, and no
/// certificate directory appears.
#[test]
fn a_refutation_without_a_verified_trace_is_never_stored() {
    let hex = Hexagon::new(5).unwrap();
    let root = scratch("unverified-trace");
    let mut settings = Settings::new(root.clone());
    settings.race = false;
    let work = root.join("scratch");
    std::fs::create_dir_all(&work).unwrap();
    let Ok(mut refutation) = refute(&hex, 3, 9, &settings, &work, None).unwrap() else {
        panic!("n=5 level 3 below 9 is true")
    };
    assert!(refutation.lrat.verified);
    refutation.lrat.verified = false;
    let error = certify_refutation(&hex, &refutation, &settings, &work).unwrap_err();
    assert!(error.to_string().contains("unverified"), "{error}");
    assert!(!root.join("n5/level3-below9").exists());
}

/// `certify` re-checks what it builds on instead of trusting a `claim.json`
/// that parses: an existing claim whose proof the checker rejects (re-hashed,
/// so only the checker can tell) is proved again and replaced, and the
/// optimum resting on it, which no longer verifies, is certified afresh.
#[test]
fn certify_proves_again_an_existing_claim_that_does_not_verify() {
    let root = scratch("recheck");
    let mut settings = Settings::new(root.clone());
    settings.race = false;
    certify_optimum(4, &settings, &mut |_| {}).unwrap();
    let record = root.join("n4/optimum.json");
    let optimum: Optimum = read_json(&record).unwrap();
    let claim_dir = root.join("n4").join(&optimum.lower_bound);
    // The stored LRAT proof cut in half, re-hashed: only the checker can tell.
    let new_hash = edit_stored(&claim_dir.join("proof.lrat.gz"), |p| p.truncate(p.len() / 2));
    rewrite_json::<Claim>(&claim_dir.join("claim.json"), |c| {
        c.lrat_proof.as_mut().expect("a stored LRAT proof").sha256 = new_hash;
        c.solver.seconds = 4242.0; // a mark: gone once the claim is proved again
    });
    assert_eq!(status_of(&record), Status::Failed, "the damaged claim sinks its optimum");

    let report = certify_optimum(4, &settings, &mut |_| {}).unwrap();
    assert!(!report.resumed, "an optimum that does not verify is not reused");
    let claim: Claim = read_json(&claim_dir.join("claim.json")).unwrap();
    assert_ne!(claim.solver.seconds, 4242.0, "the claim was proved again");
    assert_eq!(status_of(&record), verified_if_veripb());
    // Every level minimum is reached by a stored witness: the grid, or the
    // search's level witness certify keeps beside the optimum.
    let report = hexcert::verify::check::check_record(&record, None);
    assert!(!report.messages.iter().any(|m| m.contains("at least")), "{:?}", report.messages);
    assert!(certify_optimum(4, &settings, &mut |_| {}).unwrap().resumed, "a verified optimum is reused");
}

/// The saved best partial of a level only ever improves, and a file that is
/// not a valid partial of that level is ignored.
#[test]
fn the_saved_best_partial_only_improves_and_is_validated() {
    let root = scratch("best");
    let hex = Hexagon::new(4).unwrap();
    let resume = ResumeDir::new(&root.join("n4"));
    let solve = |bound: Option<usize>| {
        hexcert::search::solve_at_bound::<hexcert::solving::Cadical>(
            &hex,
            2,
            hexcert::encoding::EncodeOptions::bounded(bound),
        )
        .unwrap()
        .unwrap()
    };
    let (good, bad) = (solve(Some(2)), solve(None));
    assert!(good.evaluation.penalty < bad.evaluation.penalty);
    resume.offer(&hex, &good).unwrap();
    resume.offer(&hex, &bad).unwrap();
    assert_eq!(resume.best(&hex, 2).unwrap().partial, good.partial);
    assert!(resume.best(&hex, 3).is_none());
    std::fs::write(root.join("n4/.resume/level2.txt"), "hexcert n=4 level=2\n not a grid\n").unwrap();
    assert!(resume.best(&hex, 2).is_none(), "an unreadable file is ignored");
}

/// A proof over the store limit is neither stored nor compressed: `prove`
/// names its size as it is, never as "0 bytes compressed".
#[test]
fn prove_reports_the_size_of_a_proof_it_did_not_compress() {
    let root = scratch("uncompressed");
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .args(["prove", "--n", "4", "--level", "2", "--below", "2", "--no-race", "-q", "--store-limit", "0"])
        .args(["--proofs", root.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().find(|l| l.trim_start().starts_with("proof ")).expect("a proof line");
    assert!(!line.contains(" 0 bytes"), "{line}");
    assert!(line.contains("bytes (not compressed), not stored"), "{line}");
}
