//! The import graph of src/, read from the source: the record layer and the
//! checker are solver-free, and the files of the certification and record
//! layers import each other without circles.
//!
//! Why a test over the source: `check` judges proofs, and what it verifies
//! must not depend on the code that found them. The compiler does not see
//! that rule; this test does, so a `use crate::solving` slipped into
//! `records/` (or into a file it imports) fails CI. Paths are resolved to
//! files: `crate::a::b` to src/a/b.rs or src/a/b/mod.rs (the longest prefix
//! that is a file), `super::` and `self::` from the file's own module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Module path of a file under src/ (`certification/check/mod.rs` -> [certification, check]).
fn module_of(file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src()).unwrap().with_extension("");
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib" || p == "main") {
        parts.pop();
    }
    parts
}

/// The file holding module `path`, or the nearest ancestor's.
fn file_of(path: &[String]) -> Option<PathBuf> {
    for len in (1..=path.len()).rev() {
        let base = path[..len].iter().fold(src(), |p, s| p.join(s));
        for candidate in [base.with_extension("rs"), base.join("mod.rs")] {
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// Expands `a::{b, c::{d, e}}` (after the root) into full segment lists.
fn expand(prefix: &[String], text: &str, out: &mut Vec<Vec<String>>) {
    let text = text.trim();
    if let Some(open) = text.find('{') {
        let head: Vec<String> = text[..open].split("::").map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect();
        let inner = &text[open + 1..text.rfind('}').unwrap_or(text.len())];
        let mut depth = 0;
        let mut start = 0;
        let base: Vec<String> = prefix.iter().cloned().chain(head).collect();
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&base, &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(&base, &inner[start..], out);
    } else {
        let segments = text.split("::").map(|s| s.split_whitespace().next().unwrap_or("").to_string()).filter(|s| !s.is_empty() && s != "self");
        out.push(prefix.iter().cloned().chain(segments).collect());
    }
}

/// The files `file` refers to through `crate::`, `super::` and `self::` paths.
fn imports(file: &Path) -> BTreeSet<PathBuf> {
    imports_in(file, &std::fs::read_to_string(file).unwrap())
}

/// The files `whole`, the text of `file`, refers to.
fn imports_in(file: &Path, whole: &str) -> BTreeSet<PathBuf> {
    // Unit tests (a `#[cfg(test)] mod tests` closing the file) may use the
    // layers above their file to build fixtures; the layering is a rule for
    // the code that ships, so the reader stops where they begin.
    let text = whole.split("#[cfg(test)]\nmod tests").next().unwrap();
    let module = module_of(file);
    let is_mod = file.file_name().is_some_and(|n| n == "mod.rs" || n == "lib.rs");
    let mut found = BTreeSet::new();
    for root in ["crate::", "super::", "self::"] {
        let mut rest = text;
        while let Some(at) = rest.find(root) {
            let before = rest[..at].chars().last();
            rest = &rest[at + root.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            // The path: identifiers, `::`, and one braced group (which may nest).
            let mut end = 0;
            let mut depth = 0;
            for (i, c) in rest.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth > 0 => depth -= 1,
                    c if depth > 0 || c.is_alphanumeric() || c == '_' || c == ':' => {}
                    c if c.is_whitespace() && depth > 0 => {}
                    _ => {
                        end = i;
                        break;
                    }
                }
                end = i + c.len_utf8();
                if depth == 0 && c == '}' {
                    break;
                }
            }
            let mut base: Vec<String> = match root {
                "crate::" => Vec::new(),
                "super::" => module[..module.len().saturating_sub(1)].to_vec(),
                _ if is_mod => module.clone(),
                _ => module[..module.len().saturating_sub(1)].to_vec(),
            };
            // `super::super::x`: each further `super` is one module up.
            let mut path = &rest[..end];
            while root == "super::" && path.starts_with("super::") {
                path = &path["super::".len()..];
                base.pop();
            }
            let mut paths = Vec::new();
            expand(&base, path, &mut paths);
            for path in paths {
                if let Some(target) = file_of(&path).filter(|t| t != file) {
                    found.insert(target);
                }
            }
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn graph() -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.into_iter().map(|f| (f.clone(), imports(&f))).collect()
}

/// A chain of imports from `start` to a file under src/solving/, if any.
fn path_to_solving(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>, start: &Path) -> Option<Vec<PathBuf>> {
    path_to(graph, start, &[src().join("solving")])
}

/// A chain of imports from `start` to a file under one of `targets`, if any.
fn path_to(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>, start: &Path, targets: &[PathBuf]) -> Option<Vec<PathBuf>> {
    let mut parent: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.to_path_buf()]);
    let mut seen = BTreeSet::from([start.to_path_buf()]);
    while let Some(file) = queue.pop_front() {
        if targets.iter().any(|t| file.starts_with(t)) {
            let mut chain = vec![file.clone()];
            while let Some(p) = parent.get(chain.last().unwrap()) {
                chain.push(p.clone());
            }
            chain.reverse();
            return Some(chain);
        }
        for next in graph.get(&file).into_iter().flatten() {
            if seen.insert(next.clone()) {
                parent.insert(next.clone(), file.clone());
                queue.push_back(next.clone());
            }
        }
    }
    None
}

fn shown(chain: &[PathBuf]) -> String {
    chain.iter().map(|p| p.strip_prefix(src()).unwrap().display().to_string()).collect::<Vec<_>>().join(" -> ")
}

#[test]
fn the_record_layer_and_the_checker_reach_no_solver_code() {
    let graph = graph();
    let mut starts: Vec<PathBuf> = graph.keys().filter(|f| f.starts_with(src().join("records"))).cloned().collect();
    // Every file of the checker's folder is a start: its mod.rs names them
    // without `self::`, which the reader does not follow.
    let checker: Vec<PathBuf> = graph.keys().filter(|f| f.starts_with(src().join("certification/check"))).cloned().collect();
    assert!(checker.len() > 1, "the checker's files were not found");
    starts.extend(checker);
    starts.push(src().join("certification/check_cubes.rs"));
    for start in &starts {
        assert!(graph.contains_key(start), "{} is not a source file", start.display());
        if let Some(chain) = path_to_solving(&graph, start) {
            panic!("solver code reachable from a solver-free file: {}", shown(&chain));
        }
    }
    // The reader sees imports: from the prover, the solver is reachable.
    let prove = src().join("certification/prove.rs");
    assert!(path_to_solving(&graph, &prove).is_some(), "the import reader missed prove.rs -> solving");
}

/// The layers above the records: they run checkers, make plans, solve,
/// search, count and print. The record layer judges what they write, so it
/// imports none of them, directly or through another file; run identity,
/// hashing and compression sit below it (src/run.rs, src/digest.rs,
/// src/compress.rs).
const ABOVE_RECORDS: [&str; 7] = ["proofs", "cubes", "certification", "solving", "search", "counting", "commands"];

/// The first chain from a file of `records/` to a layer above it, in `graph`.
fn records_reaching_above(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Option<Vec<PathBuf>> {
    let above: Vec<PathBuf> = ABOVE_RECORDS.iter().map(|m| src().join(m)).collect();
    graph.keys().filter(|f| f.starts_with(src().join("records"))).find_map(|start| path_to(graph, start, &above))
}

#[test]
fn the_record_layer_imports_nothing_above_it() {
    let graph = graph();
    assert!(graph.keys().filter(|f| f.starts_with(src().join("records"))).count() >= 8, "the record files were not found");
    if let Some(chain) = records_reaching_above(&graph) {
        panic!("the record layer reaches a layer above it: {}", shown(&chain));
    }
    // The rule bites: each way of writing the import back into a record
    // file, read by the same reader, is caught.
    let cube = src().join("records/cube.rs");
    let text = std::fs::read_to_string(&cube).unwrap();
    for added in ["use crate::proofs::verified::NAME;", "use crate::cubes::{Split, Plan};", "fn f() { super::super::counting::Count; }", "use crate::certification::cubes::run_cube;"] {
        let mut broken = graph.clone();
        broken.insert(cube.clone(), imports_in(&cube, &format!("{added}\n{text}")));
        assert!(records_reaching_above(&broken).is_some(), "`{added}` in records/cube.rs went unnoticed");
    }
}

#[test]
fn the_lrat_checker_crate_depends_on_thiserror_alone() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("lrat/Cargo.toml")).unwrap();
    let dependencies = manifest.split("[dependencies]").nth(1).unwrap().split("\n[").next().unwrap();
    let names: Vec<&str> = dependencies.lines().filter_map(|l| l.split('=').next()).map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    assert_eq!(names, vec!["thiserror"], "lrat/ must not depend on the engine or a solver");
}

/// Circles among the files of src/, the library's and the binary's: every
/// one found is named, shortest first from each file.
#[test]
fn no_file_imports_itself_through_others() {
    let graph = graph();
    let mut circles = BTreeMap::new();
    for start in graph.keys() {
        // Breadth-first from `start`: the first way back to it is its shortest circle.
        let mut parent: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start.clone()]);
        'search: while let Some(file) = queue.pop_front() {
            for next in graph.get(&file).into_iter().flatten() {
                if next == start {
                    let mut circle = vec![file.clone()];
                    while let Some(p) = parent.get(circle.last().unwrap()) {
                        circle.push(p.clone());
                    }
                    circle.reverse();
                    // One name per circle, whichever file it was found from.
                    let mut key = circle.clone();
                    key.sort();
                    circles.entry(key).or_insert_with(|| shown(&[circle, vec![start.clone()]].concat()));
                    break 'search;
                }
                if next != start && !parent.contains_key(next) {
                    parent.insert(next.clone(), file.clone());
                    queue.push_back(next.clone());
                }
            }
        }
    }
    let named: Vec<String> = circles.into_values().collect();
    assert!(named.is_empty(), "import circles:\n{}", named.join("\n"));
}

/// The grid search's restrictions lose solutions, so no claim may be
/// stated with them: no file that states, proves, splits, stores or judges
/// a claim reaches the restricted formula, the portfolio or the hunt's
/// ledger of what the portfolio searched.
#[test]
fn no_claim_path_reaches_the_restricted_search() {
    let graph = graph();
    let restricted = [src().join("encoding/restricted.rs"), src().join("search/grids.rs"), src().join("search/hunt.rs")];
    let claim_side = ["certification", "records", "proofs", "derivation", "cubes", "counting", "statement.rs", "encoding/level_formula.rs"];
    let starts: Vec<&PathBuf> = graph.keys().filter(|f| claim_side.iter().any(|c| f.starts_with(src().join(c)))).collect();
    assert!(starts.len() > 30, "the claim side's files were not found");
    for start in starts {
        for target in &restricted {
            assert!(graph.contains_key(target), "{} is not a source file", target.display());
            if let Some(chain) = path_to(&graph, start, std::slice::from_ref(target)) {
                panic!("a claim path reaches the restricted search: {}", shown(&chain));
            }
        }
    }
    // The reader sees imports: from the portfolio, the restricted formula is reachable.
    assert!(path_to(&graph, &restricted[1], std::slice::from_ref(&restricted[0])).is_some(), "the import reader missed search/grids.rs -> encoding/restricted.rs");
}

/// The searches sit above the solver and call it through `SatSolver` only:
/// no file under src/search/ names the CaDiCaL backend (the caller picks the
/// backend), so a second backend, or a lying one in tests/sat.rs, runs the
/// same searches.
#[test]
fn the_searches_name_no_solver_backend() {
    let mut files = Vec::new();
    rust_files(&src().join("search"), &mut files);
    assert!(files.len() >= 2, "src/search/ holds the searches");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for backend in ["Cadical", "cadical_sys", "CaDiCal"] {
            assert!(!text.contains(backend), "{} names the backend `{backend}`", file.display());
        }
    }
}

/// clap stays in the binary (main.rs, args.rs, choices.rs, search_args.rs,
/// cubes_args.rs, count_args.rs, commands/, progress.rs): the library's
/// types know nothing of the command line.
#[test]
fn the_library_does_not_use_clap() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let binary = ["main.rs", "args.rs", "choices.rs", "search_args.rs", "cubes_args.rs", "count_args.rs", "progress.rs", "commands"].map(|p| src().join(p));
    let library: Vec<_> = files.into_iter().filter(|f| !binary.iter().any(|b| f.starts_with(b))).collect();
    assert!(library.len() > 50, "the library's files were not found");
    for file in library {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(!text.contains("clap"), "{} uses clap", file.display());
    }
}

/// The modules in the order of the first column of docs/ARCHITECTURE.md's
/// layers table (`formula`, `encoding` share a row, in that order).
fn architecture_order() -> Vec<String> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ARCHITECTURE.md")).unwrap();
    let table = doc.split("| module |").nth(1).expect("the layers table");
    let rows = table.lines().skip(2).take_while(|l| l.starts_with("| `"));
    rows.flat_map(|row| row.split('|').nth(1).unwrap().split(',').map(|m| m.trim().trim_matches('`').to_string()).collect::<Vec<_>>()).collect()
}

/// The modules in the order of src/lib.rs's `//! - \`name\`:` list.
fn lib_order() -> Vec<String> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    lib.lines().filter_map(|l| l.strip_prefix("//! - `")).map(|l| l.split('`').next().unwrap().to_string()).collect()
}

/// The top module of a file (`counting/sweep.rs` -> `counting`).
fn top_module(file: &Path) -> String {
    module_of(file).into_iter().next().unwrap_or_default()
}

/// docs/ARCHITECTURE.md states the layers' order and that each module
/// imports only those above it; src/lib.rs lists the modules in an order
/// of its own. Both lists name every `pub mod` of the library, in one
/// order, and no file imports a module below its own.
#[test]
fn the_layers_hold() {
    let order = architecture_order();
    assert_eq!(order, lib_order(), "docs/ARCHITECTURE.md's layers and src/lib.rs's list disagree");
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let mut declared: Vec<String> = lib.lines().filter_map(|l| l.strip_prefix("pub mod ")).map(|m| m.trim_end_matches(';').to_string()).collect();
    let mut listed = order.clone();
    declared.sort();
    listed.sort();
    assert_eq!(declared, listed, "src/lib.rs's modules against the layers table");
    let rank = |module: &str| order.iter().position(|m| m == module);
    let mut below = Vec::new();
    for (file, imported) in graph() {
        let from = top_module(&file);
        let Some(from_rank) = rank(&from) else { continue };
        for target in imported {
            let to = top_module(&target);
            if rank(&to).is_some_and(|r| r > from_rank) {
                below.push(shown(&[file.clone(), target]));
            }
        }
    }
    assert!(below.is_empty(), "imports of a module below the importer's layer (docs/ARCHITECTURE.md):\n{}", below.join("\n"));
}

/// docs/ARCHITECTURE.md names the files of src/commands/ (one per family of
/// commands, and `report`): the names are the files.
#[test]
fn the_command_families_named_are_the_files() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ARCHITECTURE.md")).unwrap();
    let sentence = doc.split("(one file per family: ").nth(1).and_then(|rest| rest.split(" is what they share)").next()).expect("docs/ARCHITECTURE.md names the command files");
    let mut named: Vec<&str> = sentence.split('`').skip(1).step_by(2).collect();
    let mut files = Vec::new();
    rust_files(&src().join("commands"), &mut files);
    let mut files: Vec<String> = files.iter().map(|f| f.file_stem().unwrap().to_string_lossy().into_owned()).filter(|f| f != "mod").collect();
    named.sort_unstable();
    files.sort();
    assert_eq!(named, files, "docs/ARCHITECTURE.md's command files against src/commands/");
}

/// A function of more lines than this has steps worth naming.
const MAX_FN_LINES: usize = 80;
/// A file of more lines than this holds more than one concern.
const MAX_FILE_LINES: usize = 450;

/// `text` with comments, string and character literals blanked (newlines
/// kept), so that the braces left are the code's own.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let keep_newlines = |out: &mut String, span: &[char]| out.extend(span.iter().filter(|&&c| c == '\n'));
    while i < chars.len() {
        let rest = &chars[i..];
        let end = if rest.starts_with(&['/', '/']) {
            i + rest.iter().position(|&c| c == '\n').unwrap_or(rest.len())
        } else if rest.starts_with(&['/', '*']) {
            i + 2 + rest[2..].windows(2).position(|w| w == ['*', '/']).map_or(rest.len() - 2, |p| p + 2)
        } else if rest[0] == 'r' && rest.get(1).is_some_and(|&c| c == '"' || c == '#') && (i == 0 || !chars[i - 1].is_alphanumeric() && chars[i - 1] != '_') {
            let hashes = rest[1..].iter().take_while(|&&c| c == '#').count();
            let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let body = 2 + hashes;
            i + body + rest[body..].windows(close.len()).position(|w| w == close.as_slice()).map_or(rest.len() - body, |p| p + close.len())
        } else if rest[0] == '"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != '"' {
                j += if rest[j] == '\\' { 2 } else { 1 };
            }
            i + j + 1
        } else if rest[0] == '\'' && (rest.get(1) == Some(&'\\') || rest.get(2) == Some(&'\'')) {
            i + 1 + rest[1..].iter().skip(1).position(|&c| c == '\'').map_or(rest.len() - 1, |p| p + 2)
        } else {
            out.push(rest[0]);
            i += 1;
            continue;
        };
        let end = end.min(chars.len());
        keep_newlines(&mut out, &chars[i..end]);
        i = end;
    }
    out
}

/// The name and line count of every function with a body in `text` (a
/// declaration ending in `;`, a trait's required method, has none).
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let code = code_only(text);
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let word_start = |at: usize| at == 0 || !line[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        let Some(at) = line.match_indices("fn ").map(|(at, _)| at).find(|&at| word_start(at)) else { continue };
        let name: String = line[at + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            continue;
        }
        let (mut depth, mut opened) = (0usize, false);
        'scan: for (offset, text) in lines[start..].iter().enumerate() {
            let from = if offset == 0 { at } else { 0 };
            for c in text[from..].chars() {
                match c {
                    ';' if !opened => break 'scan,
                    '{' => (depth, opened) = (depth + 1, true),
                    '}' if opened => {
                        depth -= 1;
                        if depth == 0 {
                            found.push((name.clone(), offset + 1));
                            break 'scan;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    found
}

/// Short functions in short files, as the anchors keep them (docs/ARCHITECTURE.md):
/// every function of src/ and lrat/src/ under `MAX_FN_LINES` lines, every
/// file under `MAX_FILE_LINES`.
#[test]
fn functions_and_files_stay_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    rust_files(&root.join("lrat/src"), &mut files);
    assert!(files.len() > 100, "the source files were not found");
    let mut long = Vec::new();
    for file in files {
        let relative = file.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&file).unwrap();
        let file_lines = text.lines().count();
        if file_lines >= MAX_FILE_LINES {
            long.push(format!("{relative}: {file_lines} lines"));
        }
        for (name, lines) in function_lengths(&text) {
            if lines >= MAX_FN_LINES {
                long.push(format!("{relative}: fn {name}, {lines} lines"));
            }
        }
    }
    assert!(long.is_empty(), "over {MAX_FN_LINES} lines a function or {MAX_FILE_LINES} a file:\n{}", long.join("\n"));
}

/// The reader behind `functions_and_files_stay_short` counts a body's
/// lines, whatever braces its strings and comments hold, and skips
/// declarations without a body.
#[test]
fn the_length_reader_counts_bodies() {
    let text = "trait T {\n    fn declared(&self);\n}\nfn f() {\n    let s = \"}}{\";\n    let c = '}';\n    // }\n    let r = r#\"{\"#;\n}\nfn g<'a>(x: &'a str) -> &'a str { x }\n";
    assert_eq!(function_lengths(text), vec![("f".to_string(), 6), ("g".to_string(), 1)]);
}
