//! The import graph of src/, read from the source: the record layer and the
//! verifier are solver-free, and the files of src/ (the library's and the
//! binary's, src/cli/) import each other without circles.
//!
//! Why a test over the source: `check` judges proofs, and what it verifies
//! must not depend on the code that found them. The compiler does not see
//! that rule; this test does, so a `use crate::solving` slipped into
//! `records/` (or into a file it imports) fails CI. Paths are resolved to
//! files: `crate::a::b` to src/a/b.rs or src/a/b/mod.rs (the longest prefix
//! that is a file), `super::` and `self::` from the file's own module, by
//! the reader tests/counting_modules.rs shares (tests/common/imports.rs).
//! Unit tests (`#[cfg(test)]` items) may use the layers above their file to
//! build fixtures; the layering is a rule for the code that ships, so the
//! reader leaves them out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::common::imports::{chain, circles, code_only, imports_in, module_of, rust_files, src};

fn graph() -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    rust_files(&src()).into_iter().map(|f| (f.clone(), imports_in(&f, &std::fs::read_to_string(&f).unwrap()))).collect()
}

/// A chain of imports from `start` to a file under src/solving/, if any.
fn path_to_solving(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>, start: &Path) -> Option<Vec<PathBuf>> {
    path_to(graph, start, &[src().join("solving")])
}

/// A chain of imports from `start` to a file under one of `targets`, if any.
fn path_to(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>, start: &Path, targets: &[PathBuf]) -> Option<Vec<PathBuf>> {
    chain(graph, &start.to_path_buf(), |file| targets.iter().any(|t| file.starts_with(t)))
}

fn shown(chain: &[PathBuf]) -> String {
    chain.iter().map(|p| p.strip_prefix(src()).unwrap().display().to_string()).collect::<Vec<_>>().join(" -> ")
}

#[test]
fn the_record_layer_and_the_checker_reach_no_solver_code() {
    let graph = graph();
    let mut starts: Vec<PathBuf> = graph.keys().filter(|f| f.starts_with(src().join("records"))).cloned().collect();
    // Every file of the verifier's folder is a start: its mod.rs names them
    // without `self::`, which the reader does not follow.
    let verifier: Vec<PathBuf> = graph.keys().filter(|f| f.starts_with(src().join("verify"))).cloned().collect();
    assert!(verifier.len() > 5, "the verifier's files were not found");
    starts.extend(verifier);
    for start in &starts {
        assert!(graph.contains_key(start), "{} is not a source file", start.display());
        if let Some(chain) = path_to_solving(&graph, start) {
            panic!("solver code reachable from a solver-free file: {}", shown(&chain));
        }
    }
    // The reader sees imports: from the prover, the solver is reachable.
    let prove = src().join("certify/prove.rs");
    assert!(path_to_solving(&graph, &prove).is_some(), "the import reader missed prove.rs -> solving");
}

/// Running a cube (`cubes run`, the unit of every campaign) needs the
/// solver, the proof checkers, the records and the plan, nothing more: not
/// the status module or the claim check of verify/, not the searches. A
/// cube runner that reached them would pull the verifier's judging (or a
/// search's policy) into what a job engine runs on every machine.
#[test]
fn running_a_cube_reaches_neither_the_verifier_nor_the_searches() {
    let graph = graph();
    let run = src().join("certify/cube_run.rs");
    assert!(graph.contains_key(&run), "certify/cube_run.rs is not a source file");
    let forbidden = [src().join("verify"), src().join("search"), src().join("cli")];
    if let Some(chain) = path_to(&graph, &run, &forbidden) {
        panic!("running a cube reaches {}", shown(&chain));
    }
    // The reader sees these imports: merging a plan reads its status.
    assert!(
        path_to(&graph, &src().join("certify/merge.rs"), &forbidden).is_some(),
        "the import reader missed merge.rs -> verify"
    );
}

/// The layers above the records: they run checkers, make plans, solve,
/// search, list, count and print. The record layer judges what they write, so it
/// imports none of them, directly or through another file; run identity,
/// hashing and compression sit below it (src/run.rs, src/digest.rs,
/// src/compress.rs).
const ABOVE_RECORDS: [&str; 9] =
    ["proofs", "cubes", "verify", "certify", "listing", "solving", "search", "counting", "cli"];

/// The first chain from a file of `records/` to a layer above it, in `graph`.
fn records_reaching_above(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Option<Vec<PathBuf>> {
    let above: Vec<PathBuf> = ABOVE_RECORDS.iter().map(|m| src().join(m)).collect();
    graph.keys().filter(|f| f.starts_with(src().join("records"))).find_map(|start| path_to(graph, start, &above))
}

#[test]
fn the_record_layer_imports_nothing_above_it() {
    let graph = graph();
    assert!(
        graph.keys().filter(|f| f.starts_with(src().join("records"))).count() >= 8,
        "the record files were not found"
    );
    if let Some(chain) = records_reaching_above(&graph) {
        panic!("the record layer reaches a layer above it: {}", shown(&chain));
    }
    // The rule bites: each way of writing the import back into a record
    // file, read by the same reader, is caught.
    let cube = src().join("records/cube.rs");
    let text = std::fs::read_to_string(&cube).unwrap();
    for added in [
        "use crate::proofs::verified::NAME;",
        "use crate::cubes::{Split, Plan};",
        "fn f() { super::super::counting::Count; }",
        "use crate::certify::cube_run::run_cube;",
    ] {
        let mut broken = graph.clone();
        broken.insert(cube.clone(), imports_in(&cube, &format!("{added}\n{text}")));
        assert!(records_reaching_above(&broken).is_some(), "`{added}` in records/cube.rs went unnoticed");
    }
}

#[test]
fn the_lrat_checker_crate_depends_on_thiserror_alone() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("lrat/Cargo.toml")).unwrap();
    let dependencies = manifest.split("[dependencies]").nth(1).unwrap().split("\n[").next().unwrap();
    let names: Vec<&str> = dependencies
        .lines()
        .filter_map(|l| l.split('=').next())
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(names, vec!["thiserror"], "lrat/ must not depend on the engine or a solver");
}

/// Circles among the files of src/, the library's and the binary's: every
/// one found is named, shortest first from each file.
#[test]
fn no_file_imports_itself_through_others() {
    let named: Vec<String> = circles(&graph()).iter().map(|circle| shown(circle)).collect();
    assert!(named.is_empty(), "import circles:\n{}", named.join("\n"));
}

/// The grid search's restrictions lose solutions, so no claim may be
/// stated with them: no file that states, proves, splits, stores or judges
/// a claim, or lists a count, reaches the restricted formula, the portfolio
/// or the hunt's ledger of what the portfolio searched.
#[test]
fn no_claim_path_reaches_the_restricted_search() {
    let graph = graph();
    let restricted =
        [src().join("encoding/restricted.rs"), src().join("search/grids.rs"), src().join("search/hunt.rs")];
    let claim_side = [
        "verify",
        "certify",
        "listing",
        "records",
        "proofs",
        "derivation",
        "cubes",
        "counting",
        "statement.rs",
        "encoding/level_formula.rs",
    ];
    let starts: Vec<&PathBuf> =
        graph.keys().filter(|f| claim_side.iter().any(|c| f.starts_with(src().join(c)))).collect();
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
    assert!(
        path_to(&graph, &restricted[1], std::slice::from_ref(&restricted[0])).is_some(),
        "the import reader missed search/grids.rs -> encoding/restricted.rs"
    );
}

/// The searches sit above the solver and call it through `SatSolver` only:
/// no file under src/search/ names the CaDiCaL backend (the caller picks the
/// backend), so a second backend, or a lying one in tests/sat.rs, runs the
/// same searches.
#[test]
fn the_searches_name_no_solver_backend() {
    let files = rust_files(&src().join("search"));
    assert!(files.len() >= 2, "src/search/ holds the searches");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for backend in ["Cadical", "cadical_sys", "CaDiCal"] {
            assert!(!text.contains(backend), "{} names the backend `{backend}`", file.display());
        }
    }
}

/// clap stays in the binary (src/cli/): the library's types know nothing
/// of the command line.
#[test]
fn the_library_does_not_use_clap() {
    let files = rust_files(&src());
    let library: Vec<_> = files.into_iter().filter(|f| !f.starts_with(src().join("cli"))).collect();
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
    rows.flat_map(|row| {
        row.split('|').nth(1).unwrap().split(',').map(|m| m.trim().trim_matches('`').to_string()).collect::<Vec<_>>()
    })
    .collect()
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
    let mut declared: Vec<String> =
        lib.lines().filter_map(|l| l.strip_prefix("pub mod ")).map(|m| m.trim_end_matches(';').to_string()).collect();
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
    assert!(
        below.is_empty(),
        "imports of a module below the importer's layer (docs/ARCHITECTURE.md):\n{}",
        below.join("\n")
    );
}

/// docs/ARCHITECTURE.md names the files of src/cli/commands/ (one per family of
/// commands, and `report`): the names are the files.
#[test]
fn the_command_families_named_are_the_files() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ARCHITECTURE.md")).unwrap();
    let sentence = doc
        .split("(one file per family: ")
        .nth(1)
        .and_then(|rest| rest.split(" is what they share)").next())
        .expect("docs/ARCHITECTURE.md names the command files");
    let mut named: Vec<&str> = sentence.split('`').skip(1).step_by(2).collect();
    let mut files: Vec<String> = rust_files(&src().join("cli/commands"))
        .iter()
        .map(|f| f.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|f| f != "mod")
        .collect();
    named.sort_unstable();
    files.sort();
    assert_eq!(named, files, "docs/ARCHITECTURE.md's command files against src/cli/commands/");
}

/// The folder plan is the layers table: every entry of src/ but lib.rs
/// and the binary's folder (cli/) is a module the table names, and every
/// module it names is a file or folder there; the feature `solver` is
/// decided in lib.rs alone (it gates whole modules, never parts of one),
/// and it gates `certify` and `listing`, never `verify`.
#[test]
fn the_folder_plan_is_the_layers_table() {
    let order = architecture_order();
    let mut entries: Vec<String> = std::fs::read_dir(src())
        .unwrap()
        .flatten()
        .map(|e| e.path().file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|stem| stem != "lib" && stem != "cli")
        .collect();
    entries.sort();
    entries.dedup();
    let mut named = order.clone();
    named.sort();
    assert_eq!(entries, named, "src/'s files and folders against docs/ARCHITECTURE.md's layers table");
    let library = rust_files(&src()).into_iter().filter(|f| !f.starts_with(src().join("cli")));
    for file in library {
        let text = std::fs::read_to_string(&file).unwrap();
        if file != src().join("lib.rs") {
            assert!(
                !text.contains("feature = \"solver\""),
                "{} gates part of itself on the feature `solver` (lib.rs gates whole modules)",
                file.display()
            );
        }
    }
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let gated = |module: &str| lib.contains(&format!("#[cfg(feature = \"solver\")]\npub mod {module};"));
    assert!(
        gated("certify") && gated("listing") && gated("solving") && gated("search"),
        "lib.rs gates certify, listing, solving and search on the feature `solver`"
    );
    assert!(!gated("verify") && lib.contains("pub mod verify;"), "verify builds without the solver");
}

/// A function of more lines than this has steps worth naming.
const MAX_FN_LINES: usize = 80;
/// A file of more lines than this holds more than one concern.
const MAX_FILE_LINES: usize = 450;

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
    let files = [rust_files(&src()), rust_files(&root.join("lrat/src"))].concat();
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

/// The recount is a second road to the lift's classes: no file of
/// src/recount/ reaches the counting wing (the lift, `counting::extension`,
/// above all), directly or through another file.
#[test]
fn the_recount_shares_no_code_with_the_lift() {
    let graph = graph();
    let starts: Vec<&PathBuf> = graph.keys().filter(|f| f.starts_with(src().join("recount"))).collect();
    assert!(starts.len() >= 2, "the recount's files were not found");
    for start in starts {
        if let Some(chain) = path_to(&graph, start, &[src().join("counting"), src().join("validation")]) {
            panic!("the recount reaches {}", shown(&chain));
        }
    }
}
