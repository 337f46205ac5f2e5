//! docs/CLI.md is what `hexcert table cli` writes: the prose of
//! src/cli/doc.md with each command's `--help` as the binary prints it, the
//! whole file compared here. Regenerate it with
//! `cargo run --release -- table cli --write docs/CLI.md`. Other rules of
//! the code the docs state are read from both here: the exit-code table
//! against `outcome::exit_code`, the cube verdicts of docs/RECORDS.md
//! against what records hold (the module order: tests/module_graph.rs).

use std::path::Path;
use std::process::Command;

use hexcert::error::HexError;
use hexcert::outcome::{exit_code, Outcome};

#[test]
fn the_cli_document_is_what_table_cli_writes() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/CLI.md")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert")).args(["table", "cli"]).output().unwrap();
    assert!(out.status.success(), "table cli failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8(out.stdout).unwrap() == doc,
        "docs/CLI.md is out of date: cargo run --release -- table cli --write docs/CLI.md"
    );
}

/// docs/CLI.md's exit-code table: (code, meaning) per row.
fn documented_exit_codes() -> Vec<(u8, String)> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/CLI.md")).unwrap();
    let table = doc.split("| code | meaning |").nth(1).expect("docs/CLI.md has an exit-code table");
    let rows = table.lines().skip(2).take_while(|l| l.starts_with("| "));
    rows.map(|row| {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        (cells[1].parse().unwrap_or_else(|_| panic!("not a code: {row}")), cells[2].to_string())
    })
    .collect()
}

/// Every way a command ends, each with the words its row of docs/CLI.md
/// opens with. The matches have no wildcard: a new outcome or error kind
/// does not compile until it is given its row here.
fn every_ending() -> Vec<(Result<Outcome, HexError>, &'static str)> {
    use hexcert::error::HexError as E;
    let endings = vec![
        (Ok(Outcome::Done), "done"),
        (Ok(Outcome::Negative), "a result is negative"),
        (Ok(Outcome::Unverified), "nothing failed but"),
        (Err(E::Usage("x".into())), "bad input"),
        (Err(E::Input { file: "f".into(), line: 1, message: "x".into() }), "bad input"),
        (
            Err(E::Record { file: "f".into(), line: 0, error: hexcert::records::RecordError::NotRegularFile }),
            "bad input",
        ),
        (
            Err(E::Io { path: "f".into(), source: std::io::Error::other("x") }),
            "bad input or bad arguments, or an I/O error",
        ),
        (Err(E::Solver("x".into())), "internal error"),
        (Err(E::Internal("x".into())), "internal error"),
        (
            Err(E::Rejected(hexcert::records::RecordError::LratRejected { what: "p".into(), verdict: "x".into() })),
            "internal error",
        ),
        (Err(E::Interrupted), "interrupted"),
        (Err(E::Open("x".into())), "nothing failed but"),
        (Err(E::Contradiction("x".into())), "a result is negative"),
    ];
    for (ending, _) in &endings {
        match ending {
            Ok(Outcome::Done | Outcome::Negative | Outcome::Unverified) => {}
            Err(
                E::Usage(_)
                | E::Input { .. }
                | E::Record { .. }
                | E::Io { .. }
                | E::Solver(_)
                | E::Internal(_)
                | E::Rejected(_)
                | E::Interrupted
                | E::Open(_)
                | E::Contradiction(_),
            ) => {}
        }
    }
    endings
}

#[test]
fn the_exit_code_table_is_the_codes() {
    let documented = documented_exit_codes();
    let mut used = std::collections::BTreeSet::new();
    for (ending, opens) in every_ending() {
        let code = exit_code(ending.as_ref().copied());
        used.insert(code);
        let row = documented.iter().find(|(c, _)| *c == code);
        let (_, meaning) = row.unwrap_or_else(|| panic!("{ending:?} exits {code}, which docs/CLI.md's table lacks"));
        assert!(meaning.starts_with(opens), "{ending:?} exits {code}, documented as \"{meaning}\", not \"{opens}...\"");
    }
    let documented: std::collections::BTreeSet<u8> = documented.iter().map(|(c, _)| *c).collect();
    assert_eq!(documented, used, "docs/CLI.md documents codes no ending has (or misses some)");
}

/// docs/RECORDS.md names the verdicts a cube record holds: each one the
/// code writes, and no other in that sentence.
#[test]
fn the_records_doc_names_the_cube_verdicts_written() {
    use hexcert::records::cube::CubeVerdict;
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/RECORDS.md")).unwrap();
    let sentence = doc
        .split("the verdict (")
        .nth(1)
        .and_then(|rest| rest.split("), ").next())
        .expect("docs/RECORDS.md states the verdicts");
    let named: Vec<&str> = sentence.split('`').skip(1).step_by(2).collect();
    let written: Vec<String> = [CubeVerdict::Refuted, CubeVerdict::Unfinished, CubeVerdict::Counterexample]
        .iter()
        .map(|v| {
            // No wildcard: a new verdict does not compile until it is listed above.
            match v {
                CubeVerdict::Refuted | CubeVerdict::Unfinished | CubeVerdict::Counterexample => {}
            }
            serde_json::to_value(v).unwrap().as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(named, written, "docs/RECORDS.md: {sentence}");
}
