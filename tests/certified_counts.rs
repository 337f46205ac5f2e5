//! Counts as certificates (`count --road sat --certify`, `check` of
//! `count.json`): the certified listing gives the sweep's count at every
//! level's minimum, and every way of tampering with its records makes
//! `check` fail, or at least never exit 0.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hexcert::counting::Count;
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::records::leaders::{listing_encoding, listing_formula};

pub(crate) fn hexcert(args: &[&str]) -> Output {
    // The count's record names the claim below the minimum under proofs/.
    Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("run hexcert")
}

/// A count's cell: the directory `nN-levelK-penaltyP` its record must lie
/// in, in a temporary directory of its own.
pub(crate) struct Cell {
    _parent: tempfile::TempDir,
    path: PathBuf,
}

impl Cell {
    pub(crate) fn new(name: &str) -> Cell {
        let parent = tempfile::tempdir().unwrap();
        let path = parent.path().join(name);
        Cell { _parent: parent, path }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

/// A certified listing of side `n`, level `level` at `penalty`, into a
/// fresh cell; its `--json` report.
fn certified(n: usize, level: u8, penalty: usize) -> (Cell, serde_json::Value) {
    certified_with(n, level, penalty, &[])
}

/// The same with `extra` flags.
fn certified_with(n: usize, level: u8, penalty: usize, extra: &[&str]) -> (Cell, serde_json::Value) {
    let dir = Cell::new(&format!("n{n}-level{level}-penalty{penalty}"));
    let (n, level, penalty) = (n.to_string(), level.to_string(), penalty.to_string());
    let leaders = dir.path().to_str().unwrap();
    let args = [
        "--json",
        "count",
        "--n",
        &n,
        "--level",
        &level,
        "--penalty",
        &penalty,
        "--road",
        "sat",
        "--leaders-dir",
        leaders,
        "--certify",
    ];
    let out = hexcert(&[&args[..], extra].concat());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    (dir, serde_json::from_slice(&out.stdout).unwrap())
}

fn check(dir: &Path, regenerate: bool) -> Output {
    let record = dir.join("count.json");
    let mut args = vec!["check", record.to_str().unwrap()];
    if regenerate {
        args.insert(1, "--regenerate");
    }
    hexcert(&args)
}

#[test]
fn certified_listings_equal_the_sweep_at_every_minimum() {
    listings_equal_the_sweep(&[(5, 1), (5, 2), (5, 3), (6, 1), (6, 2), (6, 3), (7, 1), (7, 2)]);
}

/// The rest of n = 5..9's listed levels (minutes of solving each; run with
/// `cargo test --release --test counts -- --ignored listings_to_nine`).
#[test]
#[ignore = "minutes per cell: run on demand, figures in docs/RESULTS.md"]
fn certified_listings_to_nine_equal_the_sweep() {
    listings_equal_the_sweep(&[(7, 3), (8, 1), (8, 2), (8, 3), (9, 1), (9, 2), (9, 3)]);
}

/// Lists each (n, level) at its minimum, certified, and compares the count
/// (reported and in count.json) with the sweep's.
fn listings_equal_the_sweep(cells: &[(usize, u8)]) {
    for &(n, level) in cells {
        let hex = Hexagon::new(n).unwrap();
        let (minimum, swept) = Count::new(&hex, level).minimum_and_count().unwrap();
        let (dir, report) = certified(n, level, minimum);
        assert_eq!(
            report["counts"][0]["count"].as_str().unwrap(),
            swept.to_string(),
            "n={n} level={level} at {minimum}"
        );
        let record: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("count.json")).unwrap()).unwrap();
        assert_eq!(record["count"].as_str().unwrap(), swept.to_string(), "n={n} level={level}: count.json");
        let cubes = std::fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().starts_with("cube-"))
            .count();
        assert_eq!(cubes, 128);
    }
}

#[test]
fn a_plain_check_reports_the_listing_attested_and_a_regenerating_one_verifies_it() {
    let (dir, _) = certified(5, 2, 8);
    let plain = check(dir.path(), false);
    let text = String::from_utf8_lossy(&plain.stdout);
    assert_eq!(plain.status.code(), Some(4), "{text}");
    assert!(text.contains("recorded when it was listed"), "{text}");
    let again = check(dir.path(), true);
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(text.contains("every cube listed again in this run"), "{text}");
    assert_eq!(again.status.code(), Some(if crate::common::veripb_present() { 0 } else { 4 }), "{text}");
}

/// A cube record of the listing in `dir` that holds at least one leader.
fn cube_with_leaders(dir: &Path) -> PathBuf {
    let mut cubes: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    cubes.sort();
    cubes
        .into_iter()
        .find(|p| json(p)["leaders"].as_array().is_some_and(|l| !l.is_empty()))
        .expect("a cube with leaders")
}

pub(crate) fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

pub(crate) fn edit(path: &Path, change: impl FnOnce(&mut serde_json::Value)) {
    let mut value = json(path);
    change(&mut value);
    std::fs::write(path, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
}

/// The listing of n = 5 level 2 at 8, copied (into a cell of the same
/// name) for one tampering.
fn tampered(original: &Path, change: impl FnOnce(&Path)) -> Cell {
    let copy = Cell::new(&original.file_name().unwrap().to_string_lossy());
    std::fs::create_dir(copy.path()).unwrap();
    for entry in std::fs::read_dir(original).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), copy.path().join(entry.file_name())).unwrap();
    }
    change(copy.path());
    copy
}

/// With cake_lpr on PATH (as in CI), a certified listing also hands each
/// cube's proof to it, against the refuted formula the cube's record names,
/// and records its acceptance there; `check` reports the acceptances, and
/// one moved to another formula fails it.
#[test]
fn cake_lpr_reads_every_listing_proof_and_its_verdicts_are_bound_to_their_formulas() {
    let Some(_) = crate::common::cake_lpr() else { return };
    let (dir, _) = certified(5, 2, 8);
    let cubes: Vec<serde_json::Value> = (0..128).map(|i| json(&dir.path().join(format!("cube-{i}.json")))).collect();
    for cube in &cubes {
        let verdict = &cube["certificate"]["verified_lrat"];
        assert_eq!(verdict["verdict"], "s VERIFIED UNSAT", "{cube}");
        assert_eq!(verdict["read"]["formula_sha256"], cube["certificate"]["formula_sha256"], "{cube}");
    }
    let out = check(dir.path(), false);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("128 of 128 cubes record a cake_lpr acceptance"), "{text}");
    let moved = tampered(dir.path(), |d| {
        edit(&cube_with_leaders(d), |v| {
            v["certificate"]["verified_lrat"]["read"]["formula_sha256"] = "0".repeat(64).into()
        })
    });
    let out = check(moved.path(), false);
    assert_eq!(out.status.code(), Some(1), "a verdict on another formula: {}", String::from_utf8_lossy(&out.stdout));
}

/// A listing made without cake_lpr gets its verdicts from `check --regenerate
/// --keep-verdicts`: every cube listed again, its proof given to cake_lpr,
/// each acceptance written into its cube's record; a second such run lists
/// nothing again and says the listing is the earlier run's word (exit 4).
#[test]
fn a_relisting_with_kept_verdicts_gives_an_older_listing_its_cake_lpr_acceptances() {
    let Some(_) = crate::common::cake_lpr() else { return };
    let (dir, _) = certified(5, 2, 8);
    let bare = tampered(dir.path(), |d| {
        for i in 0..128 {
            edit(&d.join(format!("cube-{i}.json")), |v| {
                drop(v["certificate"].as_object_mut().unwrap().remove("verified_lrat"))
            });
        }
    });
    let record = bare.path().join("count.json");
    let keep = || hexcert(&["check", "--regenerate", "--keep-verdicts", record.to_str().unwrap()]);
    let first = keep();
    let text = String::from_utf8_lossy(&first.stdout);
    assert_ne!(first.status.code(), Some(1), "{text}");
    assert!(
        text.contains("every cube listed again in this run")
            && text.contains("accepted the listing proofs of 128 of 128 cubes in this run"),
        "{text}"
    );
    for i in 0..128 {
        let cube = json(&bare.path().join(format!("cube-{i}.json")));
        assert_eq!(
            cube["certificate"]["verified_lrat"]["read"]["formula_sha256"], cube["certificate"]["formula_sha256"],
            "{cube}"
        );
    }
    let second = keep();
    let text = String::from_utf8_lossy(&second.stdout);
    assert_eq!(second.status.code(), Some(4), "{text}");
    assert!(
        text.contains("0 of 128 cubes listed again in this run")
            && text.contains("128 of 128 cubes record a cake_lpr acceptance"),
        "{text}"
    );
    // An acceptance recorded before verdicts were bound (no `read`) is attested only: kept verdicts
    // do not skip its cube, which is listed again and its verdict bound.
    let unbound = cube_with_leaders(bare.path());
    edit(&unbound, |v| drop(v["certificate"]["verified_lrat"].as_object_mut().unwrap().remove("read")));
    let third = keep();
    let text = String::from_utf8_lossy(&third.stdout);
    assert_eq!(third.status.code(), Some(4), "{text}");
    assert!(text.contains("1 of 128 cubes listed again in this run"), "an unbound acceptance skipped: {text}");
    let cube = json(&unbound);
    assert_eq!(
        cube["certificate"]["verified_lrat"]["read"]["formula_sha256"], cube["certificate"]["formula_sha256"],
        "{cube}"
    );
}

/// The audit case: `check --regenerate --keep-verdicts --cake-lpr OTHER`
/// wrote OTHER's acceptance (an unknown build's) over the known build's in
/// every cube record of a listing, exit 0 and no word, and its report did
/// not name the build it ran. Now every record keeps the known build's
/// verdict, the run says so, and the line of this run's acceptances names
/// the binary and its build.
#[test]
fn kept_verdicts_of_a_listing_never_give_way_to_an_unknown_build() {
    use std::os::unix::fs::PermissionsExt;
    let Some(_) = crate::common::cake_lpr() else { return };
    let (dir, _) = certified(5, 2, 8);
    let scripts = tempfile::tempdir().unwrap();
    let other = scripts.path().join("other_cake");
    std::fs::write(&other, "#!/bin/sh\ncat \"$2\" > /dev/null\necho 's VERIFIED UNSAT'\n").unwrap();
    std::fs::set_permissions(&other, std::fs::Permissions::from_mode(0o755)).unwrap();
    let cubes = |dir: &Path| -> Vec<Vec<u8>> {
        (0..128).map(|i| std::fs::read(dir.join(format!("cube-{i}.json"))).unwrap()).collect()
    };
    let before = cubes(dir.path());
    let record = dir.path().join("count.json");
    let out = hexcert(&[
        "check",
        "--regenerate",
        "--keep-verdicts",
        "--cake-lpr",
        other.to_str().unwrap(),
        record.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_ne!(out.status.code(), Some(1), "{text}");
    assert!(cubes(dir.path()) == before, "a known build's verdict was replaced: {text}");
    assert!(text.contains("128 of 128 cubes kept the cake_lpr acceptance recorded by cake_lpr of"), "{text}");
    assert!(
        text.contains("accepted the listing proofs of 128 of 128 cubes in this run (cake_lpr binary sha256")
            && text.contains(", unknown build)"),
        "{text}"
    );
}

/// A listing certified by a cake_lpr that is the shell `script` (given the
/// formula and the proof): its exit code, its stderr, and whether a count
/// was written.
fn listing_checked_by(script: &str) -> (Option<i32>, String, bool) {
    use std::os::unix::fs::PermissionsExt;
    let scripts = tempfile::tempdir().unwrap();
    let checker = scripts.path().join("cake_lpr");
    std::fs::write(&checker, format!("#!/bin/sh\ncat \"$2\" > /dev/null\n{script}\n")).unwrap();
    std::fs::set_permissions(&checker, std::fs::Permissions::from_mode(0o755)).unwrap();
    let dir = Cell::new("n5-level2-penalty8");
    let leaders = dir.path().to_str().unwrap();
    let count = ["count", "--n", "5", "--level", "2", "--penalty", "8", "--road", "sat", "--leaders-dir", leaders];
    let out = hexcert(&[&count[..], &["--certify", "--cake-lpr", checker.to_str().unwrap()]].concat());
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned(), dir.path().join("count.json").exists())
}

/// cake_lpr stopped by its heap (`CakeML heap space exhausted.`, exit 1)
/// has judged nothing: the listing ends unverified (exit 4) with how to give
/// it more, never as a proof rejected (exit 3), and no count is written.
#[test]
fn a_checker_out_of_memory_leaves_a_listing_unverified_not_rejected() {
    let (code, text, counted) = listing_checked_by("echo 'CakeML heap space exhausted.'\nexit 1");
    assert_eq!(code, Some(4), "{text}");
    assert!(text.contains("ran out of memory") && text.contains("CML_HEAP_SIZE"), "{text}");
    assert!(!text.contains("rejected"), "{text}");
    assert!(!counted, "a count was written");
}

/// Nor has one killed by a signal (the kernel's out-of-memory killer sends
/// 9): unverified, not rejected, nothing written. One that exits non-zero
/// on its own has rejected the proof.
#[test]
fn a_checker_killed_by_a_signal_leaves_a_listing_unverified_but_one_that_exits_rejects_it() {
    let (code, text, counted) = listing_checked_by("kill -9 $$");
    assert_eq!(code, Some(4), "{text}");
    assert!(text.contains("killed by a signal") && text.contains("killed by signal 9"), "{text}");
    assert!(!text.contains("rejected"), "{text}");
    assert!(!counted, "a count was written");
    let (code, text, counted) = listing_checked_by("echo 's NOT VERIFIED'\nexit 1");
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("rejected"), "{text}");
    assert!(!counted, "a count was written");
}

#[test]
fn every_tampering_fails_the_check_or_leaves_it_unverified() {
    let (dir, _) = certified(5, 2, 8);
    let hex = Hexagon::new(5).unwrap();
    let failed = |copy: &Cell, what: &str| {
        let out = check(copy.path(), false);
        assert_eq!(out.status.code(), Some(1), "{what}: {}", String::from_utf8_lossy(&out.stdout));
    };
    let removed =
        tampered(dir.path(), |d| edit(&cube_with_leaders(d), |v| drop(v["leaders"].as_array_mut().unwrap().pop())));
    failed(&removed, "a leader removed");
    let image = tampered(dir.path(), |d| {
        edit(&cube_with_leaders(d), |v| {
            let first: Vec<u8> = v["leaders"][0].as_str().unwrap().bytes().map(|b| b - b'0').collect();
            let moved =
                hex.symmetries().iter().map(|perm| hexcert::orbits::image(perm, &first)).find(|m| *m != first).unwrap();
            v["leaders"].as_array_mut().unwrap().push(hexcert::levels::digits(&moved).into());
        })
    });
    failed(&image, "a leader's image added");
    let invalid = tampered(dir.path(), |d| {
        edit(&cube_with_leaders(d), |v| v["leaders"].as_array_mut().unwrap().push("1".repeat(61).into()))
    });
    failed(&invalid, "an invalid leader added");
    let deleted = tampered(dir.path(), |d| std::fs::remove_file(cube_with_leaders(d)).unwrap());
    failed(&deleted, "a cube record deleted");
    let edited = tampered(dir.path(), |d| edit(&d.join("count.json"), |v| v["count"] = "49".into()));
    failed(&edited, "the count edited");
    // Numbers no listing formula has are refused when the record is read,
    // in one line naming the field (a level of 0 once indexed the encoder
    // out of bounds: a panic, exit 101).
    for (field, value, named) in
        [("level", 0u64, "level 0"), ("level", 9, "level 9"), ("penalty", 1 << 40, "penalty"), ("n", 0, "n:")]
    {
        let out =
            check(tampered(dir.path(), |d| edit(&d.join("count.json"), |v| v[field] = value.into())).path(), false);
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(1), "{field} = {value}: {stdout}{stderr}");
        assert!(
            !stderr.contains("panicked") && format!("{stdout}{stderr}").contains(named),
            "{field} = {value}: {stdout}{stderr}"
        );
    }
    // A forger who drops a leader and its blocking clause, and rewrites the
    // formula's hash and the count to match: the recorded verdict no longer
    // belongs to the formula, which only re-listing can see.
    let forged = tampered(dir.path(), |d| forge_dropped_leader(d, &hex));
    let plain = check(forged.path(), false);
    assert_ne!(
        plain.status.code(),
        Some(0),
        "a forged cube must never verify: {}",
        String::from_utf8_lossy(&plain.stdout)
    );
    let again = check(forged.path(), true);
    assert_eq!(
        again.status.code(),
        Some(1),
        "re-listing finds the dropped leader: {}",
        String::from_utf8_lossy(&again.stdout)
    );
}

/// A listing leaf by leaf (`--leaf-depth`) counts what the sweep counts;
/// a cube's record holds its leaves (their records, named by path, gone
/// once it is written; a stopped cube resumes them, at any depth, and a
/// leaf past `--leaf-time-limit` is split, and split at once when resumed), each proven on its own, and `check` judges them: a leaf
/// dropped (the tree incomplete), a leaf's leader dropped or the cube's
/// union edited each fail it; a regenerating check lists every leaf again.
#[test]
fn a_listing_leaf_by_leaf_counts_the_same_and_check_judges_its_leaves() {
    let (minimum, swept) = Count::new(&Hexagon::new(4).unwrap(), 3).minimum_and_count().unwrap();
    let (dir, _) = certified_with(4, 3, minimum, &["--leaf-depth", "1"]);
    assert_eq!(json(&dir.path().join("count.json"))["count"].as_str().unwrap(), swept.to_string());
    let names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| !n.ends_with("-leaves")), "{names:?}");
    let cube = cube_with_leaders(dir.path());
    let leaves = json(&cube)["leaves"].as_array().unwrap().len();
    assert!(leaves >= 2, "{leaves} leaves in {}", cube.display());
    let again = check(dir.path(), true);
    let text = String::from_utf8_lossy(&again.stdout);
    assert_eq!(again.status.code(), Some(if crate::common::veripb_present() { 0 } else { 4 }), "{text}");
    assert!(text.contains("every cube listed again in this run"), "{text}");
    let failed = |copy: &Cell, what: &str| {
        let out = check(copy.path(), false);
        assert_eq!(out.status.code(), Some(1), "{what}: {}", String::from_utf8_lossy(&out.stdout));
    };
    // A cube stopped after its leaves: the next run resumes them, says so (exit 4) and writes the same cube.
    let recorded = json(&cube);
    let leaves_dir = dir.path().join(format!("{}-leaves", cube.file_stem().unwrap().to_string_lossy()));
    std::fs::create_dir(&leaves_dir).unwrap();
    for (j, leaf) in recorded["leaves"].as_array().unwrap().iter().enumerate() {
        let mut record = recorded.clone();
        let fields = record.as_object_mut().unwrap();
        fields.remove("leaves");
        ["path", "leaders", "seconds", "cpu_seconds", "certificate"]
            .iter()
            .for_each(|f| drop(fields.insert(f.to_string(), leaf[*f].clone())));
        let name = std::iter::once("leaf".to_string())
            .chain(leaf["path"].as_array().unwrap().iter().map(|l| l.to_string()))
            .collect::<Vec<_>>()
            .join("_");
        std::fs::write(leaves_dir.join(format!("{name}.json")), serde_json::to_vec_pretty(&record).unwrap()).unwrap();
        if j == 0 {
            std::fs::copy(leaves_dir.join(format!("{name}.json")), dir.path().join("first-leaf.json")).unwrap();
        }
    }
    std::fs::remove_file(&cube).unwrap();
    let listing = dir.path().to_str().unwrap();
    let list = |extra: &[&str]| {
        let args = [
            "count",
            "--n",
            "4",
            "--level",
            "3",
            "--penalty",
            &minimum.to_string(),
            "--road",
            "sat",
            "--leaders-dir",
            listing,
            "--certify",
            "--leaf-depth",
            "1",
        ];
        let out = hexcert(&[&args[..], extra].concat());
        (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    };
    std::fs::write(leaves_dir.join("leaf-0.json"), b"{}").unwrap();
    let (code, text) = list(&[]);
    assert!(code == Some(2) && text.contains("not a leaf record's name"), "a stray name in the leaves: {text}");
    std::fs::remove_file(leaves_dir.join("leaf-0.json")).unwrap();
    let (code, text) = list(&[]);
    assert_eq!(code, Some(4), "{text}");
    assert!(
        text.contains(&format!("and {leaves} leaves of cubes listed leaf by leaf")) && !leaves_dir.exists(),
        "{text}"
    );
    assert_eq!(json(&cube)["leaders"], recorded["leaders"]);
    // A leaf past its time (0 s here) is split down the same tree, and a
    // recorded leaf is read back where it lies: the tree mixes depths.
    let whole = tempfile::tempdir().unwrap();
    let copied = |d: &Path| {
        std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("cube-"))
    };
    copied(dir.path()).for_each(|p| assert!(std::fs::copy(&p, whole.path().join(p.file_name().unwrap())).is_ok()));
    copied(dir.path()).for_each(|p| std::fs::remove_file(p).unwrap());
    std::fs::create_dir(&leaves_dir).unwrap();
    let first = json(&dir.path().join("first-leaf.json"));
    std::fs::rename(dir.path().join("first-leaf.json"), leaves_dir.join(format!("leaf_{}.json", first["path"][0])))
        .unwrap();
    let (code, text) = list(&["--leaf-time-limit", "0", "--verbose"]);
    assert_eq!(code, Some(4), "{text}");
    assert!(
        text.contains("past its limit of 0 s") && text.contains("leaders listed by then: split in two"),
        "a split's line: {text}"
    );
    assert!(text.contains("and 1 leaves of cubes listed leaf by leaf"), "{text}");
    assert_eq!(json(&dir.path().join("count.json"))["count"].as_str().unwrap(), swept.to_string());
    let depths: Vec<usize> = copied(dir.path())
        .flat_map(|p| {
            json(&p)["leaves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l["path"].as_array().unwrap().len())
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(depths.iter().any(|&d| d > 1), "no leaf was split past its time: {depths:?}");
    assert!(
        json(&cube)["leaves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["path"] == first["path"] && l["seconds"] == first["seconds"]),
        "the recorded leaf was listed again"
    );
    let out = check(dir.path(), false);
    assert!(
        matches!(out.status.code(), Some(0 | 4)),
        "a tree of mixed depths: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A node stopped past its time in an earlier run (its `.split` mark) is split at once, not listed again.
    copied(dir.path()).for_each(|p| std::fs::remove_file(p).unwrap());
    std::fs::create_dir(&leaves_dir).unwrap();
    std::fs::write(leaves_dir.join(format!("leaf_{}.split", first["path"][0])), b"").unwrap();
    let (code, text) = list(&[]);
    assert!(matches!(code, Some(0 | 4)) && !leaves_dir.exists(), "{text}");
    let below: Vec<usize> = json(&cube)["leaves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["path"][0] == first["path"][0])
        .map(|l| l["path"].as_array().unwrap().len())
        .collect();
    assert!(!below.is_empty() && below.iter().all(|&d| d > 1), "the marked node was listed whole: {below:?}");
    copied(dir.path()).for_each(|p| std::fs::remove_file(p).unwrap());
    copied(whole.path()).for_each(|p| assert!(std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).is_ok()));
    failed(
        &tampered(dir.path(), |d| edit(&cube_with_leaders(d), |v| drop(v["leaves"].as_array_mut().unwrap().pop()))),
        "a leaf dropped",
    );
    let leaf_leader = tampered(dir.path(), |d| {
        edit(&cube_with_leaders(d), |v| {
            let leaf = v["leaves"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .find(|l| !l["leaders"].as_array().unwrap().is_empty())
                .unwrap();
            leaf["leaders"].as_array_mut().unwrap().pop();
        })
    });
    failed(&leaf_leader, "a leaf's leader dropped");
    failed(
        &tampered(dir.path(), |d| edit(&cube_with_leaders(d), |v| drop(v["leaders"].as_array_mut().unwrap().pop()))),
        "the union edited",
    );
}

/// Drops the last leader of a cube and rewrites its certificate and the
/// count so that every hash and number is consistent with the loss.
fn forge_dropped_leader(dir: &Path, hex: &Hexagon) {
    let path = cube_with_leaders(dir);
    let mut cube = json(&path);
    cube["leaders"].as_array_mut().unwrap().pop();
    let level = cube["level"].as_u64().unwrap() as u8;
    let encoding = listing_encoding(hex, level, cube["max_penalty"].as_u64().unwrap() as usize);
    let split = hexcert::cubes::Split::listing(hex, level).unwrap();
    let values: Vec<u8> = cube["cube"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u8).collect();
    let units = encoding.projection_literals(&split.cells, &values, split.depth);
    let leaders: Vec<Partial> = cube["leaders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| Partial::new(5, level, l.as_str().unwrap().bytes().map(|b| b - b'0').collect()).unwrap())
        .collect();
    let formula = listing_formula(&encoding, &units, &leaders);
    cube["certificate"]["formula_sha256"] = hexcert::digest::sha256_hex(&formula.to_dimacs()).into();
    cube["certificate"]["formula_clauses"] = formula.clauses().len().into();
    std::fs::write(&path, serde_json::to_vec_pretty(&cube).unwrap()).unwrap();
    let mut all = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let record = json(&entry.unwrap().path());
        for leader in record["leaders"].as_array().into_iter().flatten() {
            all.push(Partial::new(5, level, leader.as_str().unwrap().bytes().map(|b| b - b'0').collect()).unwrap());
        }
    }
    let by_penalty = hexcert::orbits::close_orbits(hex, level, 8, &all).unwrap();
    edit(&dir.join("count.json"), |v| {
        v["count"] = by_penalty[8].to_string().into();
        v["leaders"] = all.len().into();
    });
}

#[test]
fn levels_four_to_six_lifted_from_a_certified_listing_equal_the_sweep_and_the_chains() {
    for n in [5, 6] {
        let hex = Hexagon::new(n).unwrap();
        let (minimum, _) = Count::new(&hex, 3).minimum_and_count().unwrap();
        let (dir, _) = certified(n, 3, minimum);
        for level in 4..=6u8 {
            let (at, swept) = Count::new(&hex, level).minimum_and_count().unwrap();
            assert_eq!(at, minimum, "n={n}: level {level}'s minimum is level 3's here");
            let out = hexcert(&[
                "--json",
                "count",
                "--n",
                &n.to_string(),
                "--level",
                &level.to_string(),
                "--road",
                "extension",
                "--from-listing",
                dir.path().to_str().unwrap(),
            ]);
            assert_eq!(
                out.status.code(),
                Some(4),
                "the listing's verdicts are recorded ones: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(report["counts"][0]["count"].as_str().unwrap(), swept.to_string(), "n={n} level={level}");
        }
    }
}

/// `count` lifting the certified listing of n = 5 (`level_three_listing`)
/// to `level`, its record written into `cell`.
fn lift_n5(listing: &Path, level: &str, cell: &Path) -> Output {
    let (listing, cell) = (listing.to_str().unwrap(), cell.to_str().unwrap());
    hexcert(&[
        "count",
        "--n",
        "5",
        "--level",
        level,
        "--road",
        "extension",
        "--from-listing",
        listing,
        "--record-to",
        cell,
    ])
}

/// The certified listing of n = 5 level 3 at 9, in `n5-level3-penalty9` of
/// a temporary directory (held by the caller).
fn level_three_listing() -> (tempfile::TempDir, std::path::PathBuf) {
    let cells = tempfile::tempdir().unwrap();
    let listing = cells.path().join("n5-level3-penalty9");
    let out = hexcert(&[
        "count",
        "--n",
        "5",
        "--level",
        "3",
        "--penalty",
        "9",
        "--road",
        "sat",
        "--leaders-dir",
        listing.to_str().unwrap(),
        "--certify",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    (cells, listing)
}

/// A lift written as a record (`--record-to`) is what `check` attests
/// (exit 4) and, with `--regenerate`, lifts again; a count, a listing count
/// or a level edited in it fails the check, never passes, and so does a
/// listing missing a cube.
#[test]
fn a_lifted_count_is_a_record_check_attests_and_lifts_again() {
    let (cells, listing) = level_three_listing();
    let cell = cells.path().join("n5-level6-penalty9");
    let out = hexcert(&[
        "count",
        "--n",
        "5",
        "--level",
        "6",
        "--road",
        "extension",
        "--from-listing",
        listing.to_str().unwrap(),
        "--record-to",
        cell.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stderr));
    let record = cell.join("lift.json");
    let lift = json(&record);
    assert_eq!(
        (lift["count"].as_str(), lift["listing"].as_str(), lift["classes"].as_u64()),
        (Some("468864"), Some("../n5-level3-penalty9"), Some(30)),
        "{lift}"
    );
    let run = |regenerate: bool| {
        let mut args = vec!["check", record.to_str().unwrap()];
        if regenerate {
            args.insert(1, "--regenerate");
        }
        let out = hexcert(&args);
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (code, text) = run(false);
    assert!(code == Some(4) && text.contains("468864 partials at level 6, as recorded"), "{text}");
    assert!(text.contains("n = 5, level 6, penalty 9: minimum: level 6's minimum 9, certified by"), "{text}");
    // The lift of level 6 copied into level 5's cell is no count of level 5.
    let misfiled = cells.path().join("n5-level5-penalty9");
    copy_cell(&cell, &misfiled);
    let out = hexcert(&["check", misfiled.join("lift.json").to_str().unwrap()]);
    let misfiled_text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.code() == Some(1) && misfiled_text.contains("kept in the directory n5-level6-penalty9"),
        "{misfiled_text}"
    );
    // The records' relative paths are named resolved, not as `cell/../listing/../../proofs`.
    assert!(text.contains("claim.json") && !text.contains("/../"), "{text}");
    let (code, text) = run(true);
    assert!(
        code != Some(1) && text.contains("counted again in this run from the listing's 30 classes: 468864"),
        "{text}"
    );
    assert!(text.contains("minimum: no level-6 partial lies below 9"), "{text}");
    for (field, value) in [
        ("count", serde_json::json!("468865")),
        ("listing_count", serde_json::json!("361")),
        ("level", serde_json::json!(3)),
    ] {
        let original = std::fs::read(&record).unwrap();
        edit(&record, |v| v[field] = value.clone());
        let (plain, regenerated) = (run(false), run(true));
        std::fs::write(&record, original).unwrap();
        assert_ne!(plain.0, Some(0), "{field} edited: {}", plain.1);
        assert_eq!(regenerated.0, Some(1), "{field} edited, lifted again: {}", regenerated.1);
    }
    // The lift lifts what the listing's check read: a listing that fails it leaves nothing to lift.
    std::fs::remove_file(listing.join("cube-5.json")).unwrap();
    let (code, text) = run(false);
    assert!(code == Some(1) && text.contains("failed its check: there is nothing to lift"), "{text}");
}

/// Copies the records of the cell `from` into a new directory `to`.
fn copy_cell(from: &Path, to: &Path) {
    std::fs::create_dir(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// A count is held to the cell its directory names: n = 5's level-3
/// listing at 9, copied whole under another level's, penalty's or side's
/// cell, under a listing's past the minimum or under no cell's name, fails
/// `check` (copied into the level-6 cell it was once verified there, exit
/// 0, a count of level 6 it is not); the listing writer refuses such a
/// directory before it lists; and every line `check` says of a count names
/// its n, level and penalty.
#[test]
fn a_count_is_held_to_the_cell_its_directory_names() {
    let (cells, listing) = level_three_listing();
    let run = |record: &Path, regenerate: bool| {
        let mut args = vec!["check", record.to_str().unwrap()];
        if regenerate {
            args.insert(1, "--regenerate");
        }
        let out = hexcert(&args);
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    // The lines under the count's own report (the claim it rests on has its own).
    let lines_name = |text: &str, numbers: &str| {
        let lines: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.ends_with("count.json"))
            .skip(1)
            .take_while(|l| l.starts_with("    "))
            .collect();
        !lines.is_empty() && lines.iter().all(|l| l.trim_start().starts_with(numbers))
    };
    let (code, text) = run(&listing.join("count.json"), false);
    assert_eq!(code, Some(4), "{text}");
    assert!(lines_name(&text, "n = 5, level 3, penalty 9: "), "{text}");
    for name in ["n5-level6-penalty9", "n5-level3-penalty10", "n6-level3-penalty9", "n5-level3-upto9", "listing"] {
        let copy = cells.path().join(name);
        copy_cell(&listing, &copy);
        let (code, text) = run(&copy.join("count.json"), name == "n5-level6-penalty9");
        assert_eq!(code, Some(1), "copied to {name}: {text}");
        assert!(text.contains(&format!("kept in the directory n5-level3-penalty9, not {name}")), "{name}: {text}");
        assert!(lines_name(&text, "n = 5, level 3, penalty 9: "), "{name}: {text}");
    }
    let elsewhere = tempfile::tempdir().unwrap();
    let misnamed = elsewhere.path().join("n5-level6-penalty9");
    let out = hexcert(&[
        "count",
        "--n",
        "5",
        "--level",
        "3",
        "--penalty",
        "9",
        "--road",
        "sat",
        "--leaders-dir",
        misnamed.to_str().unwrap(),
        "--certify",
    ]);
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.code() == Some(2) && error.contains("in a directory named n5-level3-penalty9") && !misnamed.exists(),
        "{error}"
    );
}

/// A level-4 listing lifts levels 5 and 6 as the level-3 listing does (n =
/// 5 at 9: level 6 468864 by both), its count resting on the level-3 claim
/// below 9 (no claim of level 4 is committed: a lower level's serves); a
/// level it does not lift to is refused by name.
#[test]
fn a_level_four_listing_lifts_levels_five_and_six() {
    let cells = tempfile::tempdir().unwrap();
    let listing = cells.path().join("n5-level4-penalty9");
    let out = hexcert(&[
        "count",
        "--n",
        "5",
        "--level",
        "4",
        "--penalty",
        "9",
        "--road",
        "sat",
        "--leaders-dir",
        listing.to_str().unwrap(),
        "--certify",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(json(&listing.join("count.json"))["minimum_claim"]
        .as_str()
        .is_some_and(|c| c.ends_with("proofs/n5/level3-below9/claim.json")));
    let lift = |level: &str, cell: &Path| lift_n5(&listing, level, cell);
    let cell = cells.path().join("n5-level6-penalty9");
    let out = lift("6", &cell);
    assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&cell.join("lift.json"))["count"].as_str(), Some("468864"));
    let out = hexcert(&["check", "--regenerate", cell.join("lift.json").to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.code() != Some(1)
            && text.contains("from the listing's 79 classes: 468864")
            && text.contains("level3-below9/claim.json is verified"),
        "{text}"
    );
    let other = tempfile::tempdir().unwrap();
    let out = lift("4", &other.path().join("n5-level4-penalty9"));
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code() == Some(2) && error.contains("not level 4 from level 4"), "{error}");
}

/// A lift with `--pieces-dir` records its pieces, and a second run reads
/// every one back (the count the same, the pieces named as resumed); a
/// piece record whose count is not a number stops the run, with no lift.
#[test]
fn a_lift_with_a_pieces_dir_resumes_its_pieces() {
    let (cells, listing) = level_three_listing();
    let pieces = cells.path().join("pieces");
    let lift = || {
        let out = hexcert(&[
            "--json",
            "count",
            "--n",
            "5",
            "--level",
            "5",
            "--road",
            "extension",
            "--from-listing",
            listing.to_str().unwrap(),
            "--pieces-dir",
            pieces.to_str().unwrap(),
        ]);
        (out.status.code(), serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap_or_default())
    };
    let (code, first) = lift();
    assert_eq!(code, Some(4), "{first}");
    let total = first["pieces"]["total"].as_u64().unwrap();
    assert!(total > 1 && first["pieces"]["resumed"] == 0, "{first}");
    let (code, second) = lift();
    assert_eq!(code, Some(4), "{second}");
    assert_eq!((&second["counts"], second["pieces"]["resumed"].as_u64()), (&first["counts"], Some(total)), "{second}");
    let record = std::fs::read_dir(&pieces).unwrap().next().unwrap().unwrap().path();
    edit(&record, |v| v["counts"][9] = serde_json::json!("12x"));
    let (code, third) = lift();
    assert_eq!(code, Some(2), "{third}");
    assert!(third["error"].as_str().is_some_and(|e| e.contains("is not a decimal number")), "{third}");
}

/// README's count cells marked ᶜ are exactly the committed count records
/// (`counts/*/count.json`), and those marked ˡ exactly the committed lift
/// records (`counts/*/lift.json`): each names the count it shows. (A
/// listing past its level's minimum, for a lift, is no cell.)
#[test]
fn the_readme_marks_certified_counts_by_their_records() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    for (mark, file) in [('ᶜ', "count.json"), ('ˡ', "lift.json")] {
        let mut marked = std::collections::BTreeSet::new();
        for line in readme.lines().filter(|l| l.starts_with("| ")) {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let Some(n) = cells.get(1).and_then(|c| c.parse::<usize>().ok()) else { continue };
            for (level, cell) in cells.iter().skip(6).take(6).enumerate() {
                // ʳ follows ˡ where the lift's classes are recounted (below).
                if let Some(count) = cell.trim_end_matches('ʳ').strip_suffix(mark) {
                    marked.insert((n, level + 1, count.to_string()));
                }
            }
        }
        let mut recorded = std::collections::BTreeSet::new();
        for entry in std::fs::read_dir(root.join("counts")).unwrap() {
            let record = entry.unwrap().path().join(file);
            // A listing past its minimum is the lift's input, not a cell of the table.
            if record.is_file() && json(&record).get("minimum").is_none() {
                let value = json(&record);
                recorded.insert((
                    value["n"].as_u64().unwrap() as usize,
                    value["level"].as_u64().unwrap() as usize,
                    value["count"].as_str().unwrap().to_string(),
                ));
            }
        }
        assert!(!recorded.is_empty(), "some {file} is committed");
        assert_eq!(marked, recorded, "README's {mark} cells against counts/*/{file}");
    }
    // A cell marked ʳ has a recount beside its lift (`check` says how much of it).
    for line in readme.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(n) = cells.get(1).and_then(|c| c.parse::<usize>().ok()) else { continue };
        for (level, _) in cells.iter().skip(6).take(6).enumerate().filter(|(_, c)| c.ends_with('ʳ')) {
            let recounted = std::fs::read_dir(root.join("counts")).unwrap().flatten().any(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.starts_with(&format!("n{n}-level{}-", level + 1)) && e.path().join("recount.json").is_file()
            });
            assert!(recounted, "README marks n = {n} level {} recounted, with no recount.json", level + 1);
        }
    }
}

/// A side with no `optimum.json` yet (a frontier side whose optimum is not
/// certified): its lift is written, and `check` attests it (exit 4) until
/// `--regenerate` lifts it again, which alone shows no partial lies below
/// its penalty (the listing holds every level-3 partial up to it).
#[test]
fn a_lift_of_a_side_without_an_optimum_is_proved_only_by_lifting_again() {
    let root = tempfile::tempdir().unwrap();
    let claim = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/n5/level3-below9");
    std::fs::create_dir_all(root.path().join("proofs/n5/level3-below9")).unwrap();
    for entry in std::fs::read_dir(&claim).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), root.path().join("proofs/n5/level3-below9").join(entry.file_name())).unwrap();
    }
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_hexcert"))
            .current_dir(root.path())
            .args(args)
            .output()
            .expect("run hexcert");
        (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    };
    let listing = ["count", "--n", "5", "--level", "3", "--penalty", "9", "--road", "sat", "--certify", "-q"];
    let (code, text) = run(&[&listing[..], &["--leaders-dir", "counts/n5-level3-penalty9"]].concat());
    assert_eq!(code, Some(0), "{text}");
    let lift = ["count", "--n", "5", "--level", "4", "--road", "extension", "-q"];
    let from = ["--from-listing", "counts/n5-level3-penalty9", "--record-to", "counts/n5-level4-penalty9"];
    let (code, text) = run(&[&lift[..], &from[..]].concat());
    assert_eq!(code, Some(4), "{text}");
    let (code, text) = run(&["check", "counts/n5-level4-penalty9"]);
    assert!(code == Some(4) && text.contains("no optimum of n = 5 states level 4's minimum"), "{text}");
    let (code, text) = run(&["check", "--regenerate", "counts/n5-level4-penalty9"]);
    assert!(code == Some(0) && text.contains("minimum: no level-4 partial lies below 9"), "{text}");
}

/// A lift written with `--record-to` keeps each class's count beside it
/// (`classes.json`); `recount` counts every class again with the external
/// counter (`recount.json`), and `check` compares them class by class: all
/// 30 classes of n = 5's level 5 at 9 recounted and agreeing, and a recount
/// altered in one class fails the check, naming it.
#[test]
fn a_recount_is_checked_class_by_class_against_the_lift() {
    let Some(counter) = crate::common::ganak_counter() else { return };
    let (cells, listing) = level_three_listing();
    let cell = cells.path().join("n5-level5-penalty9");
    let cell_text = cell.to_str().unwrap();
    let out = lift_n5(&listing, "5", &cell);
    assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&cell.join("classes.json"))["counts"].as_array().map(Vec::len), Some(30));
    let out = hexcert(&["recount", cell_text, "--counter", counter.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let check = || {
        let out = hexcert(&["check", cell.join("lift.json").to_str().unwrap()]);
        (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    };
    let (code, text) = check();
    assert!(code == Some(4) && text.contains("30 of 30 classes recounted"), "{code:?}: {text}");
    crate::common::edit_json(&cell.join("recount.json"), |v| v["counts"][3] = serde_json::json!("12345"));
    let (code, text) = check();
    assert!(code != Some(4) && code != Some(0) && text.contains("recounted 12345"), "{code:?}: {text}");
}

/// A recount at level 5 does not count again the classes that the recount
/// of level 4 beside it counted nothing (with the lift): a class with no
/// refinement at level 4 at the minimum has none at level 5. `check` says
/// how many it took from below and holds each to that cell: a level-4
/// recount altered to count one of them fails the level-5 check.
#[test]
fn a_recount_takes_the_classes_that_count_nothing_from_the_level_below() {
    let Some(counter) = crate::common::ganak_counter() else { return };
    let (cells, listing) = level_three_listing();
    let cell = |level: u8| cells.path().join(format!("n5-level{level}-penalty9"));
    for level in [4u8, 5] {
        let out = lift_n5(&listing, &level.to_string(), &cell(level));
        assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stderr));
        let out = hexcert(&["recount", cell(level).to_str().unwrap(), "--counter", counter.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let zero = json(&cell(4).join("classes.json"))["counts"].as_array().unwrap().iter().filter(|c| *c == "0").count();
    let refined = json(&cell(5).join("recount.json"))["refined"].as_array().map_or(0, Vec::len);
    assert!(zero > 0 && refined == zero, "{zero} classes count nothing at level 4, {refined} taken from there");
    let check = || {
        let out = hexcert(&["check", cell(5).join("lift.json").to_str().unwrap()]);
        (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    };
    let (code, text) = check();
    let said = format!("30 of 30 classes recounted, {} by", 30 - zero);
    assert!(code == Some(4) && text.contains(&said) && text.contains("counting nothing at the level below"), "{text}");
    let row = json(&cell(5).join("recount.json"))["refined"][0].as_u64().unwrap();
    crate::common::edit_json(&cell(4).join("recount.json"), |v| {
        let at = v["rows"].as_array().unwrap().iter().position(|r| r.as_u64() == Some(row)).unwrap();
        v["counts"][at] = serde_json::json!("7");
    });
    let (code, text) = check();
    assert!(
        code != Some(4) && code != Some(0) && text.contains("said to count nothing at level 4"),
        "{code:?}: {text}"
    );
}
