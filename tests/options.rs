//! The options table is where the command line gets its defaults, ranges
//! and help: every entry of the table (`options::TABLE`, walked here, so a
//! new entry is covered without a line in this file) has its default in its
//! range; every flag that bears an entry's name shows that entry's help and
//! default in every command's `--help`; and every `Opt` declared in
//! src/options.rs is a row of the table.

use std::process::Command;

use hexcert::options::{self, TABLE};

fn help(command: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert")).args(command).arg("--help").output().unwrap();
    assert!(out.status.success(), "{command:?} --help");
    String::from_utf8(out.stdout).unwrap()
}

/// Every command, from the `## \`hexcert ...\`` sections of docs/CLI.md
/// (tests/cli_doc.rs holds those to the binary's own list).
fn commands() -> Vec<Vec<String>> {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/CLI.md")).unwrap();
    let commands: Vec<Vec<String>> = doc
        .lines()
        .filter_map(|line| line.strip_prefix("## `hexcert "))
        .map(|rest| rest.trim_end_matches('`').split_whitespace().map(String::from).collect())
        .collect();
    assert!(commands.len() > 10, "{commands:?}");
    commands
}

/// The `--help` paragraph of each flag `--name <...>` in `text`, whitespace folded.
fn paragraphs(text: &str, name: &str) -> Vec<String> {
    let flag = format!("--{name} <");
    text.match_indices(&flag)
        .map(|(start, _)| {
            let rest = &text[start..];
            folded(&rest[..rest[1..].find("\n  -").map_or(rest.len(), |end| end + 1)])
        })
        .collect()
}

fn folded(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_flag_of_the_table_shows_its_entrys_help_and_default() {
    let flagged: Vec<_> = TABLE.iter().map(|(_, entry)| *entry).filter(|e| !e.name().is_empty()).collect();
    let mut shown = vec![0; flagged.len()];
    for command in commands() {
        let words: Vec<&str> = command.iter().map(String::as_str).collect();
        let text = help(&words);
        let names: std::collections::BTreeSet<&str> = flagged.iter().map(|e| e.name()).collect();
        for name in names {
            for paragraph in paragraphs(&text, name) {
                // Entries may share a flag name (`--store-limit`): the help tells them apart.
                let entry = flagged.iter().position(|e| e.name() == name && paragraph.contains(&folded(e.help())));
                let entry =
                    entry.unwrap_or_else(|| panic!("{command:?} --{name}: help not from the table:\n{paragraph}"));
                let default = format!("[default: {}]", flagged[entry].default_text());
                assert!(
                    paragraph.contains(&default),
                    "{command:?} --{name}: default not the table's {default}:\n{paragraph}"
                );
                shown[entry] += 1;
            }
        }
    }
    for (entry, times) in flagged.iter().zip(shown) {
        assert!(times > 0, "no command has the flag of {entry:?}");
    }
}

#[test]
fn every_default_lies_in_its_range() {
    assert!(!TABLE.is_empty());
    for (name, entry) in TABLE {
        assert!(entry.default_in_range(), "{name}: {entry:?}");
        assert!(!entry.help().is_empty(), "{name} has no help");
    }
}

/// An `Opt` declared in src/options.rs but left out of `TABLE` would be
/// left out of the tests above.
#[test]
fn every_option_declared_is_a_row_of_the_table() {
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/options.rs")).unwrap();
    let declared: Vec<&str> = source
        .lines()
        .filter_map(|line| line.strip_prefix("pub const "))
        .filter(|rest| rest.contains(": Opt<"))
        .map(|rest| rest.split(':').next().unwrap())
        .collect();
    let rows: Vec<&str> = TABLE.iter().map(|(name, _)| *name).collect();
    assert_eq!(declared, rows, "src/options.rs declares these entries; TABLE lists those");
}

#[test]
fn a_value_outside_an_options_range_is_refused_in_one_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert"))
        .args(["cubes", "refine", "plan.json", "-o", "x.json", "--tree-depth"])
        .arg((options::TREE_DEPTH.max + 1).to_string())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("--tree-depth must lie in {}..={}", options::TREE_DEPTH.min, options::TREE_DEPTH.max)),
        "{stderr}"
    );
    let parse = |text: &str| options::JOBS.parse(text).map_err(|e| e.to_string());
    assert_eq!(parse("0"), Err("--jobs must lie in 1..=4096".into()));
    assert_eq!(parse("two"), Err("`two` is not a number".into()));
    assert_eq!(parse("3"), Ok(3));
}

/// The record layer refuses a claim over the encoding budget with a value
/// of its own (its file is being changed elsewhere, so it is not yet made
/// to read the table's entry): the two must stay one value.
#[test]
fn the_record_layer_refuses_at_the_tables_encoding_budget() {
    assert_eq!(hexcert::records::ranges::ENCODING_BUDGET_MB, options::ENCODING_BUDGET_MB.default);
}

/// docs/SOUNDNESS.md's "Bounded reading" states the decompression cap: it
/// must be the one `compress` applies (it once stated the record's size
/// alone, after the cap of `MAX_EXPANSION` times the compressed size came).
#[test]
fn the_soundness_page_states_the_decompression_cap_the_code_applies() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/SOUNDNESS.md")).unwrap();
    let page = folded(&page);
    let stated = format!(
        "the smaller of the size its record states and {} times its compressed size",
        hexcert::compress::MAX_EXPANSION
    );
    assert!(page.contains(&stated), "docs/SOUNDNESS.md does not say: {stated}");
}
