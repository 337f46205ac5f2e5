//! The SAT road cube by cube (`listing::list`): the same leaders as one
//! solver's listing, the same counts as the frontier sweep, and a run
//! stopped and resumed from its cube records gives the same count; a
//! record that does not hold what it names is refused by name.

use std::sync::atomic::AtomicBool;

use hexcert::counting::Count;
use hexcert::geometry::Hexagon;
use hexcert::listing::list::{orbit_count, orbit_count_by_cubes};
use hexcert::solving::Cadical;

fn quiet(_: usize, _: usize) {}

#[test]
fn cube_listing_agrees_with_one_solver_and_with_the_sweep() {
    for (n, level, above) in [(5, 3, 0), (5, 2, 1), (6, 2, 0)] {
        let hex = Hexagon::new(n).unwrap();
        let minimum = Count::new(&hex, level).minimum().unwrap();
        let bound = minimum + above;
        let whole = orbit_count::<Cadical>(&hex, level, bound, 1_000_000).unwrap();
        let (cubed, listing) =
            orbit_count_by_cubes::<Cadical>(&hex, level, bound, None, &AtomicBool::new(false), &quiet).unwrap();
        assert!(whole.leaders > 0, "n={n} level={level}: nothing listed, nothing compared");
        assert_eq!(cubed, whole, "n={n} level={level}: cubes against one solver");
        assert_eq!((listing.listed, listing.resumed.units), (128, 0));
        let swept = Count::new(&hex, level).by_penalty(bound).unwrap();
        for p in 0..=bound {
            assert_eq!(
                num_bigint::BigUint::from(cubed.by_penalty[p]),
                swept.counts[p],
                "n={n} level={level} penalty {p}"
            );
        }
    }
}

#[test]
fn a_run_resumed_from_its_records_counts_the_same() {
    let hex = Hexagon::new(5).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let (first, _) = orbit_count_by_cubes::<Cadical>(&hex, 3, 9, Some(dir.path()), &stop, &quiet).unwrap();
    let mut records: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(records.len(), 128, "one record per cube");
    records.sort();
    // As if the run had stopped after some cubes: drop every other record.
    for path in records.iter().step_by(2) {
        std::fs::remove_file(path).unwrap();
    }
    let (again, listing) = orbit_count_by_cubes::<Cadical>(&hex, 3, 9, Some(dir.path()), &stop, &quiet).unwrap();
    assert_eq!(again, first);
    assert_eq!((listing.listed, listing.resumed.units), (64, 64));
    assert_eq!(listing.resumed.writers.len(), 1, "one earlier run wrote them: {:?}", listing.resumed.writers);
    // A stopped run writes nothing it did not finish and reports the stop.
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let stopped =
        orbit_count_by_cubes::<Cadical>(&hex, 3, 10, Some(tempfile::tempdir().unwrap().path()), &stop, &quiet);
    assert!(matches!(stopped, Err(hexcert::HexError::Interrupted)));
}

#[test]
fn a_record_of_another_count_or_a_leader_outside_its_cube_is_refused() {
    let hex = Hexagon::new(5).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    orbit_count_by_cubes::<Cadical>(&hex, 3, 9, Some(dir.path()), &stop, &quiet).unwrap();
    // Another bound on the same directory: refused, naming the record.
    let other = orbit_count_by_cubes::<Cadical>(&hex, 3, 10, Some(dir.path()), &stop, &quiet).unwrap_err().to_string();
    assert!(other.contains("cube-") && other.contains("another directory"), "{other}");
    // A record whose leader was moved into another cube's file.
    let with_leader = (0..128)
        .map(|i| dir.path().join(format!("cube-{i}.json")))
        .find(|p| std::fs::read_to_string(p).unwrap().contains("\"leaders\": [\n    \""))
        .expect("some cube has a leader");
    let text = std::fs::read_to_string(&with_leader).unwrap();
    let victim = (0..128).map(|i| dir.path().join(format!("cube-{i}.json"))).find(|p| *p != with_leader).unwrap();
    let leaders = &text[text.find("\"leaders\"").unwrap()..text.find("\"seconds\"").unwrap()];
    let victim_text = std::fs::read_to_string(&victim).unwrap();
    let start = victim_text.find("\"leaders\"").unwrap();
    let end = victim_text.find("\"seconds\"").unwrap();
    std::fs::write(&victim, format!("{}{}{}", &victim_text[..start], leaders, &victim_text[end..])).unwrap();
    let refused = orbit_count_by_cubes::<Cadical>(&hex, 3, 9, Some(dir.path()), &stop, &quiet).unwrap_err().to_string();
    assert!(
        refused.contains(&victim.display().to_string()) && refused.contains("does not lie in the cube"),
        "{refused}"
    );
}

/// The command line: a count that lists every cube itself exits 0; one that
/// resumed cubes from records exits 4 and says so, in text and in JSON.
#[test]
fn count_with_a_leaders_dir_exits_4_when_it_resumed_cubes() {
    let dir = tempfile::tempdir().unwrap();
    let leaders = dir.path().join("leaders");
    let run = |json: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hexcert"));
        cmd.args(["count", "--n", "5", "--level", "3", "--penalty", "9", "--road", "sat", "--leaders-dir"])
            .arg(&leaders);
        if json {
            cmd.arg("--json");
        }
        cmd.output().unwrap()
    };
    let first = run(false);
    let text = String::from_utf8_lossy(&first.stdout);
    assert_eq!(first.status.code(), Some(0), "{text}");
    assert!(
        text.contains("penalty 9: 360 partials")
            && text.contains("128 listed in this run")
            && !text.contains("unverified"),
        "{text}"
    );
    std::fs::remove_file(leaders.join("cube-7.json")).unwrap();
    let second = run(true);
    let doc: serde_json::Value = serde_json::from_slice(&second.stdout).unwrap();
    assert_eq!(second.status.code(), Some(4), "{doc}");
    assert_eq!(doc["counts"][0]["count"], "360");
    assert_eq!((doc["cubes"]["listed"].as_u64(), doc["cubes"]["resumed"].as_u64()), (Some(1), Some(127)), "{doc}");
}
