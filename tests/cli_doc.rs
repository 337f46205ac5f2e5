//! docs/CLI.md shows each command's `--help` as the binary prints it: every
//! `## \`hexcert ...\`` section's first text block is compared with the help
//! of that command. Regenerate the blocks with
//! `UPDATE_CLI_DOC=1 cargo test --release --test cli_doc`.

use std::path::Path;
use std::process::Command;

fn help(words: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert")).args(words).arg("--help").output().unwrap();
    assert!(out.status.success(), "{words:?} --help failed");
    String::from_utf8(out.stdout).unwrap()
}

/// The document with each section's first ```text block replaced by the
/// help of the section's command; also the commands seen.
fn regenerated(doc: &str) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut commands = Vec::new();
    let mut pending: Option<Vec<String>> = None;
    let mut lines = doc.split_inclusive('\n');
    while let Some(line) = lines.next() {
        if let Some(rest) = line.strip_prefix("## `hexcert ") {
            let words: Vec<String> = rest.trim_end().trim_end_matches('`').split_whitespace().map(String::from).collect();
            commands.push(words.join(" "));
            pending = Some(words);
        }
        out.push_str(line);
        if line.trim_end() == "```text" {
            if let Some(words) = pending.take() {
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                out.push_str(&help(&words));
                for skipped in lines.by_ref() {
                    if skipped.trim_end() == "```" {
                        out.push_str(skipped);
                        break;
                    }
                }
            }
        }
    }
    (out, commands)
}

#[test]
fn the_cli_document_shows_every_commands_current_help() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/CLI.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (fresh, commands) = regenerated(&doc);
    for command in ["verify", "prove", "certify", "check", "count", "cubes plan", "cubes run", "cubes refine", "cubes status", "cubes merge"] {
        assert!(commands.iter().any(|c| c == command), "docs/CLI.md has no section for `hexcert {command}`");
    }
    if std::env::var_os("UPDATE_CLI_DOC").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    } else {
        assert!(fresh == doc, "docs/CLI.md is out of date: UPDATE_CLI_DOC=1 cargo test --release --test cli_doc");
    }
}
