//! The record readers on crafted and mutated input: each answers with a
//! verdict (a one-line error, or a record that states what the original
//! stated), without hanging and in bounded memory. The seeds are the committed
//! records and the cases of an audit: a witness at `/dev/zero`, a gzip bomb
//! under a correct record, a claim too large to re-encode, symlink loops,
//! an optimum with `level_minima` of zeros or a garbage format.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use crate::common::{copy_dir, edit_json};
use hexcert::records::header::Stated;
use hexcert::records::trust::{trust_base, Basis};
use hexcert::records::{Record, CLAIM_FORMAT};
use hexcert::verify::check::{check_paths, check_record, Status};
use proptest::prelude::*;

struct Scratch(PathBuf);

impl Scratch {
    /// A copy of proofs/n3 (claims with stored proofs, and the optimum) under `name`.
    fn n3(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hexcert-records-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/n3"), &dir.join("n3"));
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// How long a reader may take before the test calls it hung. The claim is
/// not speed (the message checks show the reader refused, not worked through
/// the input) but liveness: a reader that opens a fifo or reads `/dev/zero`
/// never answers, and a test must fail, not hang, when one does.
const HANG: Duration = Duration::from_secs(120);

/// `work`'s answer, or a failed test if it gives none within [`HANG`].
fn answered<T: Send + 'static>(what: &str, work: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || send.send(work()));
    receive.recv_timeout(HANG).unwrap_or_else(|_| panic!("no answer on {what} within {HANG:?}"))
}

/// Failed, with one message line naming the problem (`expect`).
fn fails_fast(path: &Path, expect: &str) {
    let owned = path.to_path_buf();
    let report = answered(&path.display().to_string(), move || check_record(&owned, None));
    assert_eq!(report.status, Status::Failed, "{:?}", report.messages);
    assert!(report.messages.iter().any(|m| m.contains(expect) && !m.contains('\n')), "{:?}", report.messages);
}

#[test]
fn a_witness_that_is_not_a_plain_file_beside_the_record_is_refused() {
    let scratch = Scratch::n3("dev-zero");
    let optimum = scratch.0.join("n3/optimum.json");
    edit_json(&optimum, |v| v["witness"] = "/dev/zero".into());
    fails_fast(&optimum, "is not a file name beside the record");
    // A fifo under the witness's own name: refused before a byte is read.
    let witness = scratch.0.join("n3/witness.txt");
    std::fs::remove_file(&witness).unwrap();
    edit_json(&optimum, |v| v["witness"] = "witness.txt".into());
    assert!(Command::new("mkfifo").arg(&witness).status().unwrap().success());
    fails_fast(&optimum, "not a regular file");
}

#[test]
fn an_optimum_whose_level_minima_or_format_is_wrong_fails() {
    let scratch = Scratch::n3("minima");
    let optimum = scratch.0.join("n3/optimum.json");
    let original = std::fs::read(&optimum).unwrap();
    assert_eq!(check_record(&optimum, None).status, common::verified_if_veripb());
    edit_json(&optimum, |v| v["level_minima"] = serde_json::json!([0, 0, 0, 0, 0, 0]));
    fails_fast(&optimum, "level_minima");
    std::fs::write(&optimum, &original).unwrap();
    edit_json(&optimum, |v| v["format"] = "garbage".into());
    fails_fast(&optimum, "unknown record format `garbage`");
}

/// What a claim states besides its statement and proofs is judged when
/// read (the third audit passed them unchecked): a build commit with a
/// forged report line in it, an empty solver name, a cube's negative
/// seconds, totals that are not its cubes', an attested list removed. Each
/// fails with one line naming the field.
#[test]
fn a_claims_build_solver_seconds_and_attested_list_are_judged_when_read() {
    let root = std::env::temp_dir().join(format!("hexcert-records-{}-fields", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let _clean = Scratch(root.clone());
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs");
    let claim = root.join("n4/level3-below3/claim.json");
    let cubes = root.join("n13/level2-below37/claim.json");
    copy_dir(&committed.join("n4/level3-below3"), claim.parent().unwrap());
    copy_dir(&committed.join("n13/level2-below37"), cubes.parent().unwrap());
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&Path, Edit, &str); 7] = [
        (&claim, |v| v["hexcert"]["git_commit"] = "0000000\nverified: everything".into(), "is not a commit"),
        (&claim, |v| v["solver"]["name"] = "".into(), "solver.name"),
        (&claim, |v| v["solver"]["version"] = "3.0.1\nverified".into(), "solver.version"),
        (&cubes, |v| v["cubes"][0]["solve_seconds"] = serde_json::json!(-4.0), "solve seconds"),
        (&cubes, |v| v["solve_seconds"] = serde_json::json!(1.0), "solve_seconds 1 is not the"),
        (&cubes, |v| v["hexcert"]["git_commit"] = "HEAD".into(), "is not a commit"),
        (&cubes, |v| drop(v.as_object_mut().unwrap().remove("attested")), "the list was removed"),
    ];
    for (record, edit, expect) in cases {
        let original = std::fs::read(record).unwrap();
        edit_json(record, edit);
        fails_fast(record, expect);
        std::fs::write(record, original).unwrap();
    }
}

/// The audit case (round 5, F6): fields a reader takes at their word
/// passed `check --regenerate`: a claim's or a listing cube's solver named
/// "(formally verified)", a level-4 lift `via` chains (chains count levels 5
/// and 6; the level-4 lift ran), a count's negative `solve_seconds`. A
/// field out of its range or format is refused as its record is read, in
/// one line naming it; a solver this build does not know is the check's
/// judgement: the record still reads, and its check is unverified, saying
/// why (a record of a newer build is judged, not refused).
#[test]
fn informational_fields_are_judged_when_read() {
    let root = std::env::temp_dir().join(format!("hexcert-records-{}-informational", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let _clean = Scratch(root.clone());
    let committed = Path::new(env!("CARGO_MANIFEST_DIR"));
    let claim = root.join("proofs/n4/level3-below3/claim.json");
    let cubes = root.join("proofs/n13/level2-below37/claim.json");
    copy_dir(&committed.join("proofs/n4/level3-below3"), claim.parent().unwrap());
    copy_dir(&committed.join("proofs/n13/level2-below37"), cubes.parent().unwrap());
    let (count, lift) = (root.join("count.json"), root.join("lift.json"));
    std::fs::copy(committed.join("counts/n14-level1-penalty32/count.json"), &count).unwrap();
    std::fs::copy(committed.join("counts/n13-level4-penalty40/lift.json"), &lift).unwrap();
    let forged = "CaDiCaL 9.9.9 (formally verified)";
    type Edit = fn(&mut serde_json::Value);
    let refused: [(&Path, Edit, &str); 5] = [
        (&count, |v| v["solve_seconds"] = serde_json::json!(-5.0), "solve_seconds -5 is not a duration"),
        (&lift, |v| v["via"] = "chains".into(), "level 4 is counted by lift"),
        (&lift, |v| v["seconds"] = serde_json::json!(-1.0), "seconds -1 is not a duration"),
        (&claim, |v| v["solver"]["version"] = "3.0.1\nverified".into(), "solver.version"),
        (&cubes, |v| v["cubes"][0]["solve_seconds"] = serde_json::json!(-4.0), "solve seconds"),
    ];
    for (record, edit, expect) in refused {
        let original = std::fs::read(record).unwrap();
        edit_json(record, edit);
        let error = Record::read(record).expect_err("an edited field read");
        assert!(
            error.to_string().contains(expect) && !error.to_string().contains('\n'),
            "{}: {error}",
            record.display()
        );
        std::fs::write(record, original).unwrap();
    }
    // A claim naming an unknown solver reads, and its whole check says so.
    let original = std::fs::read(&claim).unwrap();
    edit_json(&claim, |v| v["solver"]["version"] = "CaDiCaL 9.9.9 (formally verified)".into());
    Record::read(&claim).unwrap_or_else(|e| panic!("a claim naming an unknown solver is unreadable: {e}"));
    let owned = claim.clone();
    let report = answered(&claim.display().to_string(), move || check_record(&owned, None));
    assert_eq!(report.status, Status::Unverified, "{:?}", report.messages);
    let said =
        |m: &String| m.contains("solver.version") && m.contains("no solver hexcert ran") && m.contains("unverified");
    assert!(report.messages.iter().any(said), "{:?}", report.messages);
    std::fs::write(&claim, original).unwrap();
    // A cube claim's (its whole check re-checks every cube: judged here by the same call).
    edit_json(&cubes, |v| v["solver"] = forged.into());
    let Record::CubeClaim(read) = Record::read(&cubes).unwrap() else { panic!("not a cube claim") };
    assert!(read.unknown_solver().is_some_and(|why| why.contains("no solver hexcert ran")));
    // A listing cube's certificate: read and judged with its leaders, its solver named unknown.
    let path = committed.join("counts/n14-level1-penalty32/cube-0.json");
    let mut cube: hexcert::records::leaders::CubeLeaders =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(cube.unknown_solver(&path), None);
    match (cube.certificate.as_mut(), cube.leaves.first_mut()) {
        (Some(proof), _) => proof.solver = forged.into(),
        (None, Some(leaf)) => leaf.certificate.solver = forged.into(),
        (None, None) => panic!("an uncertified cube"),
    }
    let why = cube.unknown_solver(&path).expect("a forged solver passed");
    assert!(why.contains("certificate.solver"), "{why}");
    // Every record this build writes names a solver the list holds.
    assert!(hexcert::records::ranges::KNOWN_SOLVERS.contains(&hexcert::solving::Cadical::version().as_str()));
}

/// Every record committed under proofs/ and counts/ reads: its fields are
/// judged as it is read (`records::read::Checked`), so one of ours out of
/// range, or a judgement moved into the read that refuses one, fails here.
#[test]
fn every_committed_record_reads_with_its_fields_judged() {
    use hexcert::records::cube::CubeResult;
    use hexcert::records::leaders::CubeLeaders;
    use hexcert::records::ledger::{Ledger, Parsed};
    use hexcert::records::recount::{LiftClasses, RecountRecord};
    use hexcert::records::reproduction::{self, Reproduction};
    use hexcert::records::{read_json, table::CountTable};
    let parent_name = |file: &Path| {
        file.parent().and_then(|p| p.file_name()).and_then(|n| n.to_str()).unwrap_or_default().to_string()
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut read = 0;
    for file in walk(&root.join("proofs")).into_iter().chain(walk(&root.join("counts"))) {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let outcome = match name {
            "claim.json" | "optimum.json" | "count.json" | "lift.json" => Record::read(&file).map(drop),
            "plan.json" | "plan-refined.json" | "refined.json" => hexcert::cubes::Plan::read(&file).map(drop),
            "classes.json" => read_json::<LiftClasses>(&file).map(drop),
            "recount.json" => read_json::<RecountRecord>(&file).map(drop),
            "table.json" => CountTable::read(&file).map(drop),
            // The ledgers' units: a claim's cube records and reproductions, a listing's cubes.
            unit if unit.starts_with("cube-") && unit.ends_with(".json") => match parent_name(&file).as_str() {
                "results" => read_json::<CubeResult>(&file).map(drop),
                reproduction::DIR => read_json::<Reproduction>(&file).map(drop),
                _ if file.starts_with(root.join("counts")) => {
                    let stem = unit.trim_end_matches(".json");
                    match Ledger::<CubeLeaders>::at(file.parent().unwrap()).read(stem) {
                        Some(Parsed::Record(_)) => Ok(()),
                        Some(Parsed::Foreign(why) | Parsed::Damaged(why)) => panic!("{}: {why}", file.display()),
                        None => unreachable!("{} was listed", file.display()),
                    }
                }
                _ => continue,
            },
            _ => continue,
        };
        outcome.unwrap_or_else(|e| panic!("{e}"));
        read += 1;
    }
    assert!(read > 1000, "{read} records read");
}

#[test]
fn a_gzip_bomb_under_a_correct_record_stops_at_the_recorded_size() {
    let scratch = Scratch::n3("bomb");
    let claim = scratch.0.join("n3/level2-below3/claim.json");
    let value: serde_json::Value = serde_json::from_slice(&std::fs::read(&claim).unwrap()).unwrap();
    let stored = value["proof"]["stored_as"].as_str().unwrap().to_string();
    // 256 MiB of zeros, a quarter of a megabyte gzipped: the record says far less.
    let bomb = hexcert::compress::gzip_bytes(&vec![0u8; 256 << 20]);
    std::fs::write(claim.parent().unwrap().join(stored), bomb).unwrap();
    fails_fast(&claim, "more than the");
    let left: u64 = walk(&scratch.0).iter().map(|f| std::fs::metadata(f).map_or(0, |m| m.len())).sum();
    assert!(left < 8 << 20, "{left} bytes left on disk");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if entry.file_type().unwrap().is_dir() {
            out.extend(walk(&entry.path()));
        } else {
            out.push(entry.path());
        }
    }
    out
}

#[test]
fn a_claim_too_large_to_re_encode_is_refused_with_one_line() {
    let scratch = Scratch::n3("huge");
    let dir = scratch.0.join("n40/level6-below7000");
    std::fs::create_dir_all(&dir).unwrap();
    let claim = dir.join("claim.json");
    std::fs::copy(scratch.0.join("n3/level2-below3/claim.json"), &claim).unwrap();
    edit_json(&claim, |v| {
        v["n"] = 40.into();
        v["level"] = 6.into();
        v["below"] = 7000.into();
        v["encoder"]["max_penalty"] = 6999.into();
        v["statement"] = hexcert::records::Claim::statement_for(40, 6, 7000).into();
    });
    fails_fast(&claim, "budget");
}

#[test]
fn symlink_loops_end_and_a_linked_claim_is_reported_under_its_own_path() {
    let scratch = Scratch::n3("loops");
    let root = &scratch.0;
    std::os::unix::fs::symlink(root, root.join("n3/loop")).unwrap();
    std::os::unix::fs::symlink(root.join("n3"), root.join("n3/level1-below2/back")).unwrap();
    let tree = root.clone();
    let reports =
        answered("a tree with symlink loops", move || check_paths(std::slice::from_ref(&tree), None).unwrap());
    assert_eq!(reports.len(), 3, "{:?}", reports.iter().map(|r| &r.path).collect::<Vec<_>>());
    // A claim reached through a link into another n's directory: its own path is reported and judged.
    let other = root.join("n4/level2-below3");
    std::fs::create_dir_all(&other).unwrap();
    std::os::unix::fs::symlink(root.join("n3/level2-below3/claim.json"), other.join("claim.json")).unwrap();
    let report = check_record(&other.join("claim.json"), None);
    assert!(report.path.ends_with("n3/level2-below3/claim.json"), "{}", report.path.display());
}

#[test]
fn a_claim_with_a_free_text_trust_base_missing_an_item_fails() {
    let scratch = Scratch::n3("trust");
    let claim = scratch.0.join("n3/level2-below3/claim.json");
    let mut record: hexcert::records::Claim = hexcert::records::read_json(&claim).unwrap();
    record.statement_to_cnf = None;
    let options = record.encode_options();
    record.trust_base = trust_base(Basis::of_claim(&record, &options));
    std::fs::write(&claim, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
    assert_eq!(
        check_record(&claim, None).status,
        Status::Verified,
        "the derived trust base, no derivation: judged on it"
    );
    record.trust_base.remove(0); // the encoder left out
    std::fs::write(&claim, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
    fails_fast(&claim, "an item left out");
}

fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(cases);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

/// Committed records of every kind, with the path they were read from.
fn seeds() -> Vec<(PathBuf, Vec<u8>)> {
    let proofs = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs");
    ["n3/level2-below3/claim.json", "n12/level3-below32/claim.json", "n5/optimum.json", "n11/optimum.json"]
        .iter()
        .map(|p| (proofs.join(p), std::fs::read(proofs.join(p)).unwrap()))
        .collect()
}

/// What a record states: its claim's numbers, or an optimum's.
fn stated(record: &Record) -> (usize, u8, usize) {
    match record {
        Record::Optimum(o) => (o.n, o.lower_bound_level, o.optimum),
        other => other.claim_numbers().map(|(n, l, b, _)| (n, l, b)).unwrap_or_default(),
    }
}

/// The checks a record read back meets before anything uses it: the header
/// of a claim or cube claim, an optimum's ranges and its place.
fn header_holds(record: &Record, path: &Path) -> bool {
    match record {
        Record::Claim(c) => c.header().check(CLAIM_FORMAT, path).is_ok(),
        Record::CubeClaim(c) => {
            c.header().check(hexcert::records::CUBE_CLAIM_FORMAT, path).is_ok() && c.plan.validate(path).is_ok()
        }
        Record::Optimum(o) => {
            hexcert::records::read::Checked::check_read(o.as_ref(), path).is_ok()
                && hexcert::records::ranges::check_n_directory(path, o.n).is_ok()
        }
        _ => true,
    }
}

proptest! {
    #![proptest_config(config(2000))]

    /// A byte changed, deleted or inserted: the reader never panics, and a
    /// record it reads back either states what the original stated or
    /// fails its header check (one byte cannot change both `statement`
    /// and the numbers).
    #[test]
    fn a_mutated_record_is_rejected_or_states_the_same(seed in 0usize..4, at in any::<usize>(), byte in any::<u8>(), kind in 0u8..3) {
        let all = seeds();
        let (path, original) = &all[seed];
        let mut bytes = original.clone();
        let i = at % bytes.len();
        match kind {
            0 => bytes[i] = byte,
            1 => { bytes.remove(i); }
            _ => bytes.insert(i, byte),
        }
        let before = Record::parse(original, path).unwrap();
        if let Ok(after) = Record::parse(&bytes, path) {
            let same_kind = std::mem::discriminant(&before) == std::mem::discriminant(&after);
            prop_assert!(!same_kind || stated(&after) == stated(&before) || !header_holds(&after, path),
                "read back as {:?}", stated(&after));
        }
    }
}

proptest! {
    #![proptest_config(config(24))]

    /// The whole check on a mutated claim with stored proofs: verified only
    /// if it still states the original claim with the original hashes.
    #[test]
    fn check_verifies_a_mutated_claim_only_when_it_states_the_original(at in any::<usize>(), byte in any::<u8>()) {
        let scratch = Scratch::n3(&format!("mutate-{at}-{byte}"));
        let path = scratch.0.join("n3/level2-below3/claim.json");
        let original = std::fs::read(&path).unwrap();
        let mut bytes = original.clone();
        let i = at % bytes.len();
        bytes[i] = byte;
        std::fs::write(&path, &bytes).unwrap();
        let report = check_record(&path, None);
        if report.status == Status::Verified {
            let (before, after) = (Record::parse(&original, &path).unwrap(), Record::parse(&bytes, &path).unwrap());
            let (Record::Claim(a), Record::Claim(b)) = (&before, &after) else { panic!("not a claim") };
            prop_assert_eq!(stated(&before), stated(&after));
            prop_assert_eq!((&a.cnf.sha256, &a.proof.sha256), (&b.cnf.sha256, &b.proof.sha256));
        }
    }
}

/// A unit of a test count, kept by the ledger that keeps cube records, the
/// SAT road's leader cubes and the extension road's pieces.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Unit {
    format: String,
    count: u32,
    unit: u32,
    #[serde(deserialize_with = "hexcert::records::ledger::writer")]
    written_by: String,
}

impl hexcert::records::ledger::LedgerRecord for Unit {
    const FORMAT: &'static str = "test-unit/1";
    const WHAT: &'static str = "test unit";
    const LIMIT: u64 = 1 << 10;
    type Identity = (u32, u32);

    fn identity(&self) -> (u32, u32) {
        (self.count, self.unit)
    }

    fn written_by(&self) -> Option<&str> {
        Some(&self.written_by)
    }
}

/// The ledger resumes a unit only from a whole record of the same count and
/// unit; anything else is refused with one typed line naming the file
/// (another count, another build's format or field, a forged writer, a
/// record too large), never read as if it were the run's own, and the
/// writers of what a run resumed are counted once each.
#[test]
fn the_ledger_resumes_only_its_own_units() {
    use hexcert::records::ledger::{Ledger, Resumed};
    use hexcert::records::RecordError;
    let dir = tempfile::tempdir().unwrap();
    let ledger = Ledger::<Unit>::at(dir.path());
    assert!(ledger.resume("u-1", &(7, 1)).unwrap().is_none(), "no record, nothing resumed");
    let unit = Unit { format: "test-unit/1".into(), count: 7, unit: 1, written_by: "host-a run 1".into() };
    ledger.write("u-1", &unit).unwrap();
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "written whole under its own name, no temporary left"
    );
    assert_eq!(ledger.resume("u-1", &(7, 1)).unwrap(), Some(unit));
    let refused = |name: &str, text: &str| {
        std::fs::write(ledger.path(name), text).unwrap();
        match ledger.resume(name, &(7, 1)) {
            Err(hexcert::HexError::Record { file, error, .. }) => {
                assert_eq!(file, ledger.path(name));
                assert!(!error.to_string().contains('\n'), "{error}");
                error
            }
            other => panic!("{name}: {other:?}"),
        }
    };
    let other = refused("u-2", r#"{"format": "test-unit/1", "count": 8, "unit": 1, "written_by": "b"}"#);
    assert!(
        matches!(other, RecordError::OtherUnit { .. }) && other.to_string().contains("another directory"),
        "{other}"
    );
    let newer = refused("u-3", r#"{"format": "test-unit/2", "count": 7, "unit": 1, "written_by": "b"}"#);
    assert!(matches!(newer, RecordError::Foreign(_)), "{newer}");
    let field = refused("u-4", r#"{"format": "test-unit/1", "count": 7, "unit": 1, "written_by": "b", "new": 1}"#);
    assert!(matches!(field, RecordError::Foreign(_)) && field.to_string().contains("`new`"), "{field}");
    let forged = refused("u-5", r#"{"format": "test-unit/1", "count": 7, "unit": 1, "written_by": "b\ns VERIFIED"}"#);
    assert!(matches!(forged, RecordError::Unreadable(_)) && forged.to_string().contains("written_by"), "{forged}");
    let large = refused(
        "u-6",
        &format!(r#"{{"format": "test-unit/1", "count": 7, "unit": 1, "written_by": "{}"}}"#, "x".repeat(2000)),
    );
    assert!(large.to_string().contains("more than the 1024"), "{large}");
    let mut resumed = Resumed::default();
    for writer in ["host-a run 1", "host-b run 2", "host-a run 1"] {
        resumed.note(writer);
    }
    assert_eq!(resumed, Resumed { units: 3, writers: vec!["host-a run 1".into(), "host-b run 2".into()] });
}

/// Compare before replace (`records::read::replace_record`): a record is
/// written back only over the very record its writer read; one another
/// command changed (or moved out) meanwhile is left as it is, and the
/// answer is `RecordError::Changed`.
#[test]
fn a_record_is_written_back_only_over_the_record_it_was_read_as() {
    use hexcert::records::read::replace_record;
    use hexcert::records::{read_json, Claim, RecordError};
    let scratch = Scratch::n3("replace");
    let path = scratch.0.join("n3/level2-below3/claim.json");
    let read: Claim = read_json(&path).unwrap();
    let mut ours = read.clone();
    ours.solver.seconds += 1.0;
    let mut theirs = read.clone();
    theirs.solver.seconds += 2.0;
    std::fs::write(&path, serde_json::to_vec_pretty(&theirs).unwrap()).unwrap();
    let changed = replace_record(&path, &read, &ours).unwrap_err();
    assert!(matches!(changed, hexcert::error::HexError::Record { error: RecordError::Changed, .. }), "{changed}");
    assert_eq!(read_json::<Claim>(&path).unwrap(), theirs, "the other command's record was reverted");
    replace_record(&path, &theirs, &ours).unwrap();
    assert_eq!(read_json::<Claim>(&path).unwrap(), ours);
    std::fs::remove_file(&path).unwrap();
    assert!(replace_record(&path, &ours, &read).is_err(), "a record moved out is not written back");
    assert!(!path.exists());
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "a temporary file was left behind");
}
