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

/// Module path of a file under src/ (`certification/check.rs` -> [certification, check]).
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
    let whole = std::fs::read_to_string(file).unwrap();
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
            let base: Vec<String> = match root {
                "crate::" => Vec::new(),
                "super::" if is_mod => module[..module.len().saturating_sub(1)].to_vec(),
                "super::" => module[..module.len().saturating_sub(1)].to_vec(),
                _ if is_mod => module.clone(),
                _ => module[..module.len().saturating_sub(1)].to_vec(),
            };
            let mut paths = Vec::new();
            expand(&base, &rest[..end], &mut paths);
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
    path_to(graph, start, &src().join("solving"))
}

/// A chain of imports from `start` to `target` (a file, or any file under a folder), if any.
fn path_to(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>, start: &Path, target: &Path) -> Option<Vec<PathBuf>> {
    let mut parent: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.to_path_buf()]);
    let mut seen = BTreeSet::from([start.to_path_buf()]);
    while let Some(file) = queue.pop_front() {
        if file.starts_with(target) {
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
    starts.push(src().join("certification/check.rs"));
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
/// a claim reaches the restricted formula or the portfolio.
#[test]
fn no_claim_path_reaches_the_restricted_search() {
    let graph = graph();
    let restricted = [src().join("encoding/restricted.rs"), src().join("search/grids.rs")];
    let claim_side = ["certification", "records", "proofs", "derivation", "cubes", "counting", "statement.rs", "encoding/level_formula.rs"];
    let starts: Vec<&PathBuf> = graph.keys().filter(|f| claim_side.iter().any(|c| f.starts_with(src().join(c)))).collect();
    assert!(starts.len() > 30, "the claim side's files were not found");
    for start in starts {
        for target in &restricted {
            assert!(graph.contains_key(target), "{} is not a source file", target.display());
            if let Some(chain) = path_to(&graph, start, target) {
                panic!("a claim path reaches the restricted search: {}", shown(&chain));
            }
        }
    }
    // The reader sees imports: from the portfolio, the restricted formula is reachable.
    assert!(path_to(&graph, &restricted[1], &restricted[0]).is_some(), "the import reader missed search/grids.rs -> encoding/restricted.rs");
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

/// clap stays in the binary (main.rs, args.rs, commands/, progress.rs): the
/// library's types know nothing of the command line.
#[test]
fn the_library_does_not_use_clap() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let binary = ["main.rs", "args.rs", "search_args.rs", "progress.rs", "commands"].map(|p| src().join(p));
    let library: Vec<_> = files.into_iter().filter(|f| !binary.iter().any(|b| f.starts_with(b))).collect();
    assert!(library.len() > 50, "the library's files were not found");
    for file in library {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(!text.contains("clap"), "{} uses clap", file.display());
    }
}
