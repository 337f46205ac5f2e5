//! Hostile input: the grid parsers (both formats) and the certificate
//! reader, on random bytes and on mutations of valid files, answer with an
//! error that names the file, or (the parser) with a grid that reads back as
//! itself; a mutated claim is never verified.
//!
//! CI runs the default case count; the documented long run is
//! `PROPTEST_CASES=100000 cargo test --release --test problem fuzz::` (see README).

use crate::common::{self, Scratch};

use std::path::Path;

use hexcert::formats::{parse_grid, to_hexcert_text, to_published_text};
use hexcert::verify::check::{check_record, Status};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(3000);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

/// Valid files of both formats to mutate.
fn seeds() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for n in [3, 4, 8] {
        let full = common::published(n);
        seeds.push(to_hexcert_text(&full).into_bytes());
        seeds.push(to_published_text(&full).unwrap().into_bytes());
        seeds.push(to_hexcert_text(&full.truncate(2).unwrap()).into_bytes());
    }
    seeds
}

#[derive(Debug, Clone)]
enum Mutation {
    Set(usize, u8),
    Delete(usize),
    Insert(usize, u8),
    Truncate(usize),
    Duplicate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let interesting = prop_oneof![
        Just(b'+'),
        Just(b'.'),
        Just(b'\n'),
        Just(b' '),
        Just(b'0'),
        Just(b'7'),
        Just(b'8'),
        Just(b'='),
        Just(b'#'),
        Just(0u8),
        Just(0xff),
        any::<u8>()
    ];
    prop_oneof![
        (any::<usize>(), interesting.clone()).prop_map(|(i, b)| Mutation::Set(i, b)),
        any::<usize>().prop_map(Mutation::Delete),
        (any::<usize>(), interesting).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::Duplicate(i, j)),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    if bytes.is_empty() {
        return;
    }
    let at = |i: usize| i % bytes.len();
    match *m {
        Mutation::Set(i, b) => {
            let i = at(i);
            bytes[i] = b;
        }
        Mutation::Delete(i) => {
            let i = at(i);
            bytes.remove(i);
        }
        Mutation::Insert(i, b) => {
            let i = at(i);
            bytes.insert(i, b);
        }
        Mutation::Truncate(i) => {
            let i = at(i);
            bytes.truncate(i);
        }
        Mutation::Duplicate(i, j) => {
            let (i, j) = (at(i), at(j));
            let (lo, hi) = (i.min(j), i.max(j));
            let chunk = bytes[lo..hi].to_vec();
            bytes.splice(hi..hi, chunk);
        }
    }
}

/// The parser's verdict on `bytes`: an error, one line naming the file; or a
/// grid that hexcert's own format writes back and reads again as the same
/// grid (so what was accepted was read as something definite).
fn parse_or_name_the_file(bytes: &[u8]) -> Result<(), TestCaseError> {
    let origin = Path::new("fuzz.txt");
    match parse_grid(bytes, origin, None) {
        Err(e) => {
            let message = e.to_string();
            prop_assert!(message.starts_with("fuzz.txt"), "error does not name the file: {}", message);
            prop_assert!(!message.contains('\n'), "error is not one line: {}", message);
        }
        Ok(grid) => {
            let written = to_hexcert_text(&grid.partial);
            let again = parse_grid(written.as_bytes(), origin, Some(grid.partial.side()));
            prop_assert_eq!(again.map(|g| g.partial).ok(), Some(grid.partial), "accepted grid does not read back");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_bytes_are_rejected_by_name_or_read_back(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        parse_or_name_the_file(&bytes)?;
    }

    #[test]
    fn mutated_grid_files_are_rejected_by_name_or_read_back(seed in 0usize..9, mutations in proptest::collection::vec(mutation(), 1..6)) {
        let mut bytes = seeds()[seed].clone();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        parse_or_name_the_file(&bytes)?;
    }

    #[test]
    fn mutated_claims_never_panic_the_certificate_checker(mutations in proptest::collection::vec(mutation(), 1..4)) {
        let claim = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/n3/level2-below3/claim.json");
        let mut bytes = std::fs::read(&claim).unwrap();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        // In a directory named as the claim's: the mutations reach past the place checks.
        let scratch = Scratch::new("fuzz");
        let dir = scratch.join("n3/level2-below3");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("claim.json");
        std::fs::write(&path, &bytes).unwrap();
        // The stored CNF and proof are not copied beside it, so no claim can
        // pass here; what matters is an orderly failure with a message.
        let report = check_record(&path, None);
        prop_assert_ne!(report.status, Status::Verified);
        prop_assert!(!report.messages.is_empty());
    }
}
