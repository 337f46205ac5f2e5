//! Every public function of the record and verify layers that returns a
//! `Result` says in a `# Errors` section of its doc comment when it fails
//! and with which error: callers of the record and verify API must know
//! what failures to expect without reading the body (issue 49). The reader
//! is textual, as rustdoc's convention is: a `pub fn` whose signature (up
//! to its first `{` or `;`) names `Result<`, and the `///` and `#[` lines
//! right above it. And no function outside the binary fails with a
//! `String` (issue 79): a failure that crosses a module is typed.

use std::path::Path;

use crate::common::imports::{rust_files, src};

/// The fallible `pub fn`s of `text` whose doc comment has no `# Errors`
/// section, as (1-based line, name).
fn undocumented(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("pub fn ") else { continue };
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let mut signature = String::new();
        for next in &lines[i..] {
            signature.push_str(next);
            signature.push('\n');
            if next.contains(['{', ';']) {
                break;
            }
        }
        let end = signature.find(['{', ';']).unwrap_or(signature.len());
        if !signature[..end].contains("Result<") {
            continue;
        }
        let mut above =
            lines[..i].iter().rev().map(|l| l.trim_start()).take_while(|l| l.starts_with("///") || l.starts_with("#["));
        if !above.any(|l| l.contains("# Errors")) {
            found.push((i + 1, name));
        }
    }
    found
}

#[test]
fn every_public_fallible_function_of_records_and_verify_documents_its_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    for dir in ["records", "verify"] {
        for file in rust_files(&src().join(dir)) {
            let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let shown = file.strip_prefix(root).unwrap_or(&file).display().to_string();
            missing.extend(undocumented(&text).into_iter().map(|(line, name)| format!("{shown}:{line} {name}")));
        }
    }
    assert!(
        missing.is_empty(),
        "public functions returning a Result with no `# Errors` section in their doc comment:\n{}",
        missing.join("\n")
    );
}

/// The reader is what the rule rests on: one that found nothing would let
/// the test above pass on any source.
#[test]
fn the_reader_catches_an_undocumented_fallible_function() {
    let text = "\
/// Reads it.
///
/// # Errors
///
/// `HexError::Io` when it cannot be read.
pub fn read(path: &Path) -> Result<Vec<u8>, HexError> {
    todo!()
}

/// Writes it.
#[must_use]
pub fn write(
    path: &Path,
) -> Result<(), HexError> {
    todo!()
}

/// Counts them: a `Result` in the body is no failure of the function.
pub fn count() -> usize { let parsed: Result<usize, ()> = Ok(1); parsed.unwrap_or(0) }

impl Record {
    /// Parses it.
    pub fn parse(bytes: &[u8]) -> Result<Record, String> {
        todo!()
    }
}
";
    assert_eq!(undocumented(text), vec![(12, "write".to_string()), (23, "parse".to_string())]);
}

/// The 1-based lines of `text` whose signature names a `Result` with a
/// `String` error (`Result<T, String>` on one line, as `grep -n
/// 'Result<[^>]*, String>'` reads it).
fn string_errors(text: &str) -> Vec<usize> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let hit = line.match_indices("Result<").any(|(at, _)| {
            let rest = &line[at + "Result<".len()..];
            rest.find('>').is_some_and(|end| rest[..end].ends_with(", String"))
        });
        if hit {
            found.push(i + 1);
        }
    }
    found
}

/// A failure that crosses a module is typed (`HexError`, `RecordError`,
/// or a module's own enum converted at its edge): a `Result<_, String>`
/// lives only in the binary, where clap's value parsers want text
/// (issue 79).
#[test]
fn no_library_function_fails_with_a_string() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for file in rust_files(&src()).into_iter().filter(|f| !f.starts_with(src().join("cli"))) {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let shown = file.strip_prefix(root).unwrap_or(&file).display().to_string();
        found.extend(string_errors(&text).into_iter().map(|line| format!("{shown}:{line}")));
    }
    assert!(found.is_empty(), "a `Result<_, String>` outside src/cli/ (give it a typed error):\n{}", found.join("\n"));
}

/// The reader behind the rule sees the spellings a signature takes, and
/// not a `String` that is the success type or inside another type.
#[test]
fn the_reader_catches_a_string_error() {
    let text = "\
fn a(x: &str) -> Result<u8, String> {
fn b() -> Result<Result<(), String>, HexError> {
fn c() -> Result<String, HexError> {
fn d() -> Result<(u64, u64), String> {
fn e() -> Result<Vec<String>, HexError> {
fn f(rescue: impl Fn(&Path) -> Result<(), String>) {
";
    assert_eq!(string_errors(text), vec![1, 2, 4, 6]);
}
