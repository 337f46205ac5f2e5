//! Grid files: round trips through both formats, and a clear error naming
//! the file, the line and the problem for every kind of bad input.

use crate::common;

use std::path::Path;

use hexcert::error::HexError;
use hexcert::formats::{parse_grid, to_hexcert_text, to_published_text, Format};

fn parse(text: &str, n: Option<usize>) -> Result<hexcert::formats::GridFile, HexError> {
    parse_grid(text.as_bytes(), Path::new("input.txt"), n)
}

fn error_of(text: &[u8], n: Option<usize>) -> String {
    match parse_grid(text, Path::new("input.txt"), n) {
        Ok(_) => panic!("accepted bad input: {:?}", String::from_utf8_lossy(text)),
        Err(e) => e.to_string(),
    }
}

#[test]
fn published_grids_round_trip_through_both_formats() {
    for (n, _) in common::published_grids() {
        let full = common::published(n);
        let ours = parse(&to_hexcert_text(&full), Some(n)).unwrap();
        assert_eq!(ours.format, Format::Hexcert);
        assert_eq!(ours.partial, full);
        let theirs = parse(&to_published_text(&full).unwrap(), Some(n)).unwrap();
        assert_eq!(theirs.format, Format::Published);
        assert_eq!(theirs.partial, full);
        for k in 1..=5 {
            let partial = full.truncate(k).unwrap();
            assert_eq!(parse(&to_hexcert_text(&partial), Some(n)).unwrap().partial, partial);
        }
    }
}

#[test]
fn hexcert_format_accepts_comments_and_blank_lines() {
    let text = "# an n=2 level-1 partial\n\nhexcert n=2 level=1\n + +\n+ 1 +\n + +\n";
    let p = parse(text, None).unwrap().partial;
    assert_eq!(p.level(), 1);
    assert_eq!(p.values(), &[2, 2, 2, 1, 2, 2, 2]);
}

const GOOD: &str = "hexcert n=2 level=2\n+ 2\n2 1 +\n+ 2\n";

#[test]
fn wrong_row_length_names_the_line() {
    let msg = error_of(b"hexcert n=2 level=2\n+ 2\n2 1 + 2\n+ 2\n", None);
    assert_eq!(msg, "input.txt:3: row 2 has 4 cells, expected 3");
}

#[test]
fn bad_characters_and_values_are_rejected() {
    assert!(parse(GOOD, None).is_ok());
    let msg = error_of(b"hexcert n=2 level=2\n+ 2\n2 x +\n+ 2\n", None);
    assert_eq!(msg, "input.txt:3: `x` is not a cell value: use 1..2 or +");
    for bad in ["0", "8", "9"] {
        let text = format!("hexcert n=2 level=6\n1 2\n2 {bad} 3\n3 1\n");
        let msg = error_of(text.as_bytes(), None);
        assert!(msg.starts_with("input.txt:3: value"), "{msg}");
    }
    let msg = error_of(b"hexcert n=2 level=2\n+ 2\n2 3 +\n+ 2\n", None);
    assert!(msg.contains("value 3 exceeds level 2"), "{msg}");
}

#[test]
fn size_mismatch_with_expected_side() {
    let msg = error_of(GOOD.as_bytes(), Some(3));
    assert_eq!(msg, "input.txt: grid has side 2 but --n 3 was given");
}

#[test]
fn empty_and_binary_files() {
    assert_eq!(error_of(b"", None), "input.txt: empty file: no grid in it");
    assert_eq!(error_of(b"\n# only a comment\n", None), "input.txt: empty file: no grid in it");
    assert!(error_of(&[0xff, 0xfe, 0x00, 0x12], None).contains("not a text file"));
    assert!(error_of(b"hexcert n=2 level=2\n\0\n", None).contains("not a text file"));
}

#[test]
fn header_errors() {
    assert!(error_of(b"hexcert n=2 level=7\n", None).contains("level 7 is out of range"));
    assert!(error_of(b"hexcert n=2 level=0\n", None).contains("level 0 is out of range"));
    assert!(error_of(b"hexcert n=2\n", None).contains("header lacks"));
    assert!(error_of(b"hexcert n=41 level=1\n", None).contains("out of range"));
    assert!(error_of(b"hexcert n=-1 level=1\n", None).contains("bad side"));
    assert!(error_of(b"hexcert n=2 level=2 colour=red\n", None).contains("unknown header field"));
}

#[test]
fn missing_and_extra_rows() {
    assert_eq!(error_of(b"hexcert n=2 level=2\n+ 2\n2 1 +\n", None), "input.txt:3: expected 3 rows for n=2, found 2");
    let msg = error_of(format!("{GOOD}1 1\n").as_bytes(), None);
    assert_eq!(msg, "input.txt:5: unexpected text after the 3 rows of the grid");
}

#[test]
fn published_format_errors() {
    let good = "c log\ns SATISFIABLE\nSAT\n43.\n214\n.12\nScore 17\n";
    // 2n-1 = 3: side 2; this is not a valid grid but it parses.
    assert_eq!(parse(good, None).unwrap().stated_score, Some(17));
    assert!(error_of(b"SAT\n43.\n2141\n.12\n", None).starts_with("input.txt:3: row has 4 characters"));
    assert!(error_of(b"SAT\n43.\n2x4\n.12\n", None).contains("`x` is not a cell value"));
    assert!(error_of(b"SAT\n43.\n204\n.12\n", None).contains("`0` is not a cell value"));
    assert!(error_of(b"SAT\n439\n214\n.12\n", None).contains("lies outside the hexagon"));
    assert!(error_of(b"SAT\n43.\n214\n", None).contains("found 2 rows"));
    assert!(error_of(b"SAT\n43\n21\n", None).contains("2n-1"));
    assert!(error_of(b"43.\n214\n.12\nScore abc\n", None).contains("bad score"));
}
