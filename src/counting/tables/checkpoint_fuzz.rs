//! Property tests of the checkpoint reader: whatever the bytes, it either
//! refuses them with one line or returns the one table that `serialise`
//! writes back byte for byte, without allocating past what the bytes can
//! hold (a huge length allocated would abort the test process, so refusing
//! it is the check; no wall clock is asserted: speed lives in benches/). Bytes are random, mutated from real tables, or real
//! tables with a crafted length; each gets a recomputed SHA-256 trailer
//! (what an adversary would write), so the checks behind the hash are tried.

use proptest::prelude::*;
use sha2::{Digest, Sha256};

use crate::counting::basics::CountSettings;
use crate::counting::frontier::schedule::Schedule;
use crate::counting::tables::checkpoint::{parse, serialise};
use crate::counting::tables::ladder::Ladder;
use crate::counting::varint::put_varint;
use crate::geometry::Hexagon;

/// A real table: side, level, bound and its bytes.
type RealTable = (usize, u8, usize, Vec<u8>);

/// A few small real tables.
fn real_tables() -> &'static [RealTable] {
    static TABLES: std::sync::OnceLock<Vec<RealTable>> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut tables = Vec::new();
        for (side, top, bound) in [(2, 2, 3), (3, 2, 4)] {
            let hex = Hexagon::new(side).expect("hexagon");
            let settings = CountSettings::default();
            let ladder = Ladder::up_to(&hex, top, bound, &settings).expect("ladder");
            for level in 1..=top {
                let table = ladder.guide(level).expect("built");
                tables.push((side, level, bound, serialise(side, bound, table)));
            }
        }
        tables
    })
}

/// `body` with its SHA-256 trailer recomputed.
fn with_trailer(mut body: Vec<u8>) -> Vec<u8> {
    let digest = Sha256::digest(&body);
    body.extend_from_slice(&digest);
    body
}

/// The reader's contract on `bytes`.
fn judge(bytes: &[u8], side: usize, level: u8, bound: usize) -> Result<(), TestCaseError> {
    let schedule = Schedule::new(&Hexagon::new(side).expect("hexagon"), level).expect("schedule");
    let read = parse(bytes, &schedule, side, bound);
    match read {
        Err(why) => {
            let why = why.to_string();
            prop_assert!(!why.is_empty() && !why.contains('\n'), "not one line: {why:?}")
        }
        Ok(table) => prop_assert_eq!(serialise(side, bound, &table), bytes, "accepted bytes that do not round-trip"),
    }
    Ok(())
}

/// One edit of a byte string: overwrite, insert or delete at a position.
#[derive(Debug, Clone)]
enum Edit {
    Set(usize, u8),
    Insert(usize, u8),
    Delete(usize, usize),
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let at = |i: usize, len: usize| if len == 0 { 0 } else { i % len };
    match *edit {
        Edit::Set(i, b) if !bytes.is_empty() => {
            let i = at(i, bytes.len());
            bytes[i] = b;
        }
        Edit::Set(..) => {}
        Edit::Insert(i, b) => {
            let i = at(i, bytes.len() + 1);
            bytes.insert(i, b);
        }
        Edit::Delete(i, n) => {
            let i = at(i, bytes.len() + 1);
            bytes.drain(i..(i + n).min(bytes.len()));
        }
    }
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Set(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Insert(i, b)),
        (any::<usize>(), 1usize..8).prop_map(|(i, n)| Edit::Delete(i, n)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Random bytes, bare or behind a valid format line and trailer.
    #[test]
    fn random_bytes_are_refused_in_one_line(body in proptest::collection::vec(any::<u8>(), 0..512), framed in any::<bool>()) {
        let bytes = if framed { with_trailer([b"hexcert-table/1\n".as_slice(), &body].concat()) } else { body };
        judge(&bytes, 3, 2, 4)?;
    }

    /// Real tables with a few edits and the trailer recomputed.
    #[test]
    fn mutated_tables_are_refused_or_round_trip(which in 0usize..4, edits in proptest::collection::vec(edit(), 1..4)) {
        let (side, level, bound, real) = &real_tables()[which];
        let mut body = real[..real.len() - 32].to_vec();
        for e in &edits {
            apply(&mut body, e);
        }
        judge(&with_trailer(body), *side, *level, *bound)?;
    }

    /// A real table whose layer count, or one layer's length, is replaced by
    /// a huge number: refused before anything of that size is allocated.
    #[test]
    fn crafted_huge_lengths_are_refused(which in 0usize..4, layer in 0usize..40, exponent in 20u32..128) {
        let (side, level, bound, real) = &real_tables()[which];
        let huge = (1u128 << exponent) | 1;
        let bytes = crafted(*side, *level, *bound, real, layer, huge);
        let schedule = Schedule::new(&Hexagon::new(*side).expect("hexagon"), *level).expect("schedule");
        let refused = parse(&bytes, &schedule, *side, *bound).expect_err("a huge length was accepted").to_string();
        prop_assert!(refused.contains("layer") && !refused.contains('\n'), "{}", refused);
    }
}

/// `real` with `huge` in place of the layer count (`layer` past the last
/// layer) or of the length of layer `layer`, the trailer recomputed.
fn crafted(side: usize, level: u8, bound: usize, real: &[u8], layer: usize, huge: u128) -> Vec<u8> {
    let schedule = Schedule::new(&Hexagon::new(side).expect("hexagon"), level).expect("schedule");
    let table = parse(real, &schedule, side, bound).expect("a real table");
    let mut body = b"hexcert-table/1\n".to_vec();
    let put = |out: &mut Vec<u8>, x: u128| put_varint(out, x).expect("writes to memory");
    for field in [side as u128, u128::from(level), bound as u128] {
        put(&mut body, field);
    }
    put(&mut body, if layer >= table.future.len() { huge } else { table.future.len() as u128 });
    for (t, map) in table.future.iter().enumerate() {
        let mut entries: Vec<(u128, u8)> = map.iter().map(|(&s, &g)| (s, g)).collect();
        entries.sort_unstable();
        put(&mut body, if t == layer { huge } else { entries.len() as u128 });
        let mut previous = 0;
        for (state, charge) in entries {
            put(&mut body, state - previous);
            body.push(charge);
            previous = state;
        }
    }
    with_trailer(body)
}

/// The case of the audit: a correct trailer over a huge first layer length
/// once aborted on allocation; and the real tables themselves round-trip.
#[test]
fn the_audited_huge_length_is_refused_and_real_tables_round_trip() {
    for (side, level, bound, real) in real_tables() {
        let schedule = Schedule::new(&Hexagon::new(*side).expect("hexagon"), *level).expect("schedule");
        let table = parse(real, &schedule, *side, *bound).expect("a real table is read");
        assert!(table.size() > 0);
        assert_eq!(&serialise(*side, *bound, &table), real);
        let refused = parse(&crafted(*side, *level, *bound, real, 0, u128::from(u64::MAX)), &schedule, *side, *bound)
            .expect_err("huge")
            .to_string();
        assert!(refused.starts_with("layer 0 claims"), "{refused}");
    }
}
