//! Every command the documents show runs on today's binary: each
//! `hexcert ...` (or `cargo run --release -- ...`) in README.md and docs/,
//! in a code block or an inline code span, names a subcommand the binary
//! has and only flags that subcommand's `--help` lists; each `cargo test
//! --test NAME` names a test target of Cargo.toml. A flag renamed, a
//! subcommand removed or a test binary merged away fails here, naming the
//! file, the command and what is missing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The subcommands that take a second word (`hexcert cubes run`).
const FAMILIES: &[&str] = &["cubes"];

/// Flags every subcommand takes (clap's and the global ones).
const GLOBAL: &[&str] = &["--help", "--json", "--quiet", "--verbose", "--version"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn documents() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md"), root().join("grids/README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files.retain(|path| path.is_file());
    files
}

/// The document's code: each line of a fenced block, and each inline code
/// span of the prose (a paragraph's lines joined, as Markdown joins them).
/// ```text blocks are left out: they show output (docs/CLI.md's `--help`
/// texts, checked by cli_doc), not commands.
fn code_pieces(text: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut paragraph = String::new();
    let (mut fenced, mut help_text) = (false, false);
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            help_text = fenced && line.trim() == "```text";
            continue;
        }
        if help_text {
            continue;
        }
        if fenced {
            pieces.push(line.to_string());
        } else if line.trim().is_empty() {
            pieces.extend(inline_spans(&std::mem::take(&mut paragraph)));
        } else {
            paragraph.push(' ');
            paragraph.push_str(line);
        }
    }
    pieces.extend(inline_spans(&paragraph));
    pieces
}

fn inline_spans(paragraph: &str) -> Vec<String> {
    paragraph.split('`').skip(1).step_by(2).map(String::from).collect()
}

/// The commands of one piece of code: the words after each `hexcert ` or
/// `cargo run --release -- `, up to the end of the shell command.
fn commands(piece: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (start, _) in piece.match_indices("hexcert ").chain(piece.match_indices("cargo run --release -- ")) {
        let preceded = piece[..start].chars().last();
        if preceded.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '/' || c == '_' || c == '.') {
            continue;
        }
        let rest = &piece[start..];
        let rest = rest.strip_prefix("cargo run --release -- ").or_else(|| rest.strip_prefix("hexcert ")).unwrap();
        let words: Vec<String> = rest
            .split_whitespace()
            .take_while(|w| !matches!(*w, "|" | "&&" | ";" | "||" | "#") && !w.starts_with('>') && !w.starts_with("2>"))
            .map(|w| w.trim_end_matches([',', ';', ')']).to_string())
            .collect();
        if words.first().is_some_and(|w| w.chars().all(|c| c.is_ascii_lowercase())) {
            found.push(words);
        }
    }
    found
}

fn help(words: &[&str]) -> Option<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert")).args(words).arg("--help").output().unwrap();
    out.status.success().then(|| String::from_utf8(out.stdout).unwrap())
}

/// What is wrong with one documented command, if anything.
fn fault(words: &[String], helps: &mut BTreeMap<String, Option<String>>) -> Option<String> {
    let depth = if FAMILIES.contains(&words[0].as_str()) { 2 } else { 1 };
    if words.len() < depth {
        return None;
    }
    if let Some(alternatives) = words.get(depth - 1).filter(|w| w.contains('|')) {
        let mut words = words.to_vec();
        return alternatives.split('|').find_map(|one| {
            words[depth - 1] = one.to_string();
            fault(&words, helps)
        });
    }
    let name = words[..depth].join(" ");
    let text = helps
        .entry(name.clone())
        .or_insert_with(|| help(&words[..depth].iter().map(String::as_str).collect::<Vec<_>>()));
    let Some(text) = text else {
        return Some(format!("`hexcert {name}` is not a subcommand"));
    };
    let listed = |flag: &str| {
        GLOBAL.contains(&flag)
            || text
                .match_indices(flag)
                .any(|(i, _)| !text[i + flag.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-'))
    };
    words[depth..]
        .iter()
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| w.split('=').next().unwrap())
        .find(|flag| !listed(flag))
        .map(|flag| format!("`hexcert {name}` has no flag {flag}"))
}

/// The test targets of the workspace: hexcert's `[[test]]` entries (its
/// autotests are off) and the files of lrat/tests/ (lrat's are on).
fn test_targets() -> Vec<String> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(root().join("lrat/tests"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut in_test = false;
    for line in manifest.lines() {
        if line.starts_with('[') {
            in_test = line.trim() == "[[test]]";
        } else if let Some(value) = line.strip_prefix("name = ").filter(|_| in_test) {
            names.push(value.trim_matches('"').to_string());
        }
    }
    names
}

#[test]
fn every_command_in_the_docs_parses_on_todays_binary() {
    let targets = test_targets();
    assert!(targets.contains(&"house".to_string()), "Cargo.toml's [[test]] targets: {targets:?}");
    let mut helps = BTreeMap::new();
    let (mut faults, mut seen) = (Vec::new(), 0);
    for path in documents() {
        let text = std::fs::read_to_string(&path).unwrap();
        let shown = path.strip_prefix(root()).unwrap().display().to_string();
        for piece in code_pieces(&text) {
            for words in commands(&piece) {
                seen += 1;
                if let Some(why) = fault(&words, &mut helps) {
                    faults.push(format!("{shown}: `hexcert {}`: {why}", words.join(" ")));
                }
            }
            let mut tokens = piece.split_whitespace();
            while let Some(token) = tokens.next() {
                if token == "--test" {
                    let name = tokens.next().unwrap_or("").trim_matches('`');
                    if !name.starts_with('<') && !targets.iter().any(|t| t == name) {
                        faults.push(format!("{shown}: `--test {name}` names no test target of Cargo.toml"));
                    }
                }
            }
        }
    }
    assert!(seen > 50, "the docs show {seen} hexcert commands: the reader is broken");
    assert!(faults.is_empty(), "{} documented commands do not run today:\n{}", faults.len(), faults.join("\n"));
}

#[test]
fn the_reader_finds_a_renamed_flag() {
    let mut helps = BTreeMap::new();
    let pieces = code_pieces(
        "Run `hexcert check --regenerate\nproofs/n9` or\n\n```sh\nhexcert check --regenrate proofs | head\n```\n",
    );
    let found: Vec<Vec<String>> = pieces.iter().flat_map(|p| commands(p)).collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(fault(&found[0], &mut helps), None);
    assert_eq!(fault(&found[1], &mut helps), Some("`hexcert check` has no flag --regenrate".into()));
    assert!(fault(&["cubes".into(), "explode".into()], &mut helps).is_some());
    assert!(fault(&["cubes".into(), "run|explode".into()], &mut helps).is_some());
    assert!(code_pieces("```text\nhexcert format, as help prints it\n```\n").is_empty());
}

/// Every format tag a file of src/ writes (`"hexcert-NAME/V"`, a record's
/// `format` or a binary file's first line) is listed in docs/RECORDS.md:
/// a new format, or a version raised, fails here until the page says it.
#[test]
fn records_md_lists_every_format_written() {
    let records = std::fs::read_to_string(root().join("docs/RECORDS.md")).unwrap();
    let mut missing = Vec::new();
    let mut sources = vec![root().join("src")];
    while let Some(path) = sources.pop() {
        if path.is_dir() {
            sources.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for piece in text.split("\"hexcert-").skip(1) {
            let tag: String = piece
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-' || *c == '/' || c.is_ascii_digit())
                .collect();
            let written =
                tag.contains('/') && (piece[tag.len()..].starts_with('"') || piece[tag.len()..].starts_with("\\n\""));
            // The statement's and encoder's version tags name no file.
            let named = ["statement/", "level-cnf/", "claim/1"].iter().any(|not_a_file| tag.starts_with(not_a_file));
            if written && !named && !records.contains(&format!("hexcert-{tag}")) {
                missing.push(format!("hexcert-{tag} ({})", path.display()));
            }
        }
    }
    assert!(missing.is_empty(), "docs/RECORDS.md does not list: {missing:?}");
}
