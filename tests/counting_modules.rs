//! The files of each directory of src/counting/ import each other without a
//! circle.
//!
//! Why a test: a circle between files means neither can be read, changed or
//! tested without the other, and nothing in the compiler stops one. The graph
//! is read from the sources themselves, one directory at a time: a file
//! depends on each sibling it names through `super::NAME` or
//! `crate::counting::DIR::NAME` (in `use` lines and in paths inside code
//! alike), and on mod.rs when it names one of mod.rs's own items that way;
//! mod.rs depends on every child it declares. A name that is a
//! sub-directory (a group such as `tables`) is that directory's business;
//! circles across directories are `tests/module_graph.rs`'s. The paths are
//! read by the reader that test shares (tests/common/imports.rs), which
//! leaves out comments and `#[cfg(test)]` items: unit tests may reach
//! anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::common::imports::{circles, module_of, named_paths, rust_files, shipped, src};

/// The files of the directory `dir` of src/ (`dir`'s own, not its
/// sub-directories'): stem ("mod" for mod.rs) -> source.
fn sources(dir: &Path) -> BTreeMap<String, String> {
    let files = rust_files(&src().join(dir)).into_iter().filter(|f| f.parent() == Some(src().join(dir).as_path()));
    files
        .map(|f| {
            (
                f.file_stem().expect("a file name").to_string_lossy().into_owned(),
                std::fs::read_to_string(&f).expect("a source file"),
            )
        })
        .collect()
}

/// The first segments after `module` of the paths `file` (under src/)
/// names in `text`: in `counting/a.rs`, `super::b::x` gives `b` when
/// `module` is [counting].
fn named_in(module: &[String], file: &Path, text: &str) -> BTreeSet<String> {
    named_paths(file, text)
        .into_iter()
        .filter_map(|path| path.strip_prefix(module).and_then(|rest| rest.first()).cloned())
        .collect()
}

/// File -> the files it depends on (see the header), for src/counting/
/// itself without sub-directories.
fn graph(files: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    graph_in(Path::new("counting"), files, &BTreeSet::new())
}

/// As `graph`, for the directory `dir` of src/ whose sub-directories are `groups`.
fn graph_in(
    dir: &Path,
    files: &BTreeMap<String, String>,
    groups: &BTreeSet<String>,
) -> BTreeMap<String, BTreeSet<String>> {
    let module = module_of(&dir.join("mod.rs"));
    let mut edges = BTreeMap::new();
    for (name, text) in files {
        let mut to = BTreeSet::new();
        if name == "mod" {
            for line in shipped(text).lines().map(str::trim) {
                let declared = ["pub(super) ", "pub(crate) ", "pub "]
                    .iter()
                    .find_map(|p| line.strip_prefix(p))
                    .unwrap_or(line)
                    .strip_prefix("mod ")
                    .and_then(|m| m.strip_suffix(';'));
                to.extend(declared.filter(|d| files.contains_key(*d)).map(str::to_string));
            }
        } else {
            for named in named_in(&module, &dir.join(format!("{name}.rs")), text) {
                if !groups.contains(&named) {
                    to.insert(if files.contains_key(&named) { named } else { "mod".to_string() });
                }
            }
        }
        to.remove(name);
        edges.insert(name.clone(), to);
    }
    edges
}

/// A circle of the graph, as the files around it, if there is one.
fn circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    circles(edges).into_iter().next()
}

fn files(list: &[(&str, &str)]) -> BTreeMap<String, String> {
    list.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect()
}

/// The directories of src/counting/ that hold files, each with its path
/// from there ("" for src/counting itself) and from src/.
fn directories() -> BTreeMap<String, PathBuf> {
    let dirs = rust_files(&src().join("counting"))
        .into_iter()
        .filter_map(|f| f.parent()?.strip_prefix(src()).ok().map(Path::to_path_buf));
    dirs.map(|dir| (dir.strip_prefix("counting").expect("under counting").to_string_lossy().replace('/', "::"), dir))
        .collect()
}

/// The sub-directories of the directory `dir` of src/ that hold files.
fn groups(dir: &Path) -> BTreeSet<String> {
    let below = rust_files(&src().join(dir))
        .into_iter()
        .filter_map(|f| f.strip_prefix(src().join(dir)).ok().map(Path::to_path_buf));
    below
        .filter(|f| f.components().count() > 1)
        .map(|f| f.iter().next().expect("a first part").to_string_lossy().into_owned())
        .collect()
}

#[test]
fn counting_files_import_each_other_without_a_circle() {
    let mut all = BTreeMap::new();
    for (name, dir) in directories() {
        let edges = graph_in(&dir, &sources(&dir), &groups(&dir));
        if let Some(found) = circle(&edges) {
            panic!("import circle between files of src/counting/{}: {}", name.replace("::", "/"), found.join(" -> "));
        }
        all.insert(name, edges);
    }
    // The reader sees the imports it must see, or an empty graph would pass.
    for (dir, from, to) in [
        ("", "query", "roads"),
        ("", "mod", "query"),
        ("sweep", "mod", "enumerate"),
        ("tables", "reference", "reach"),
        ("tables", "ladder", "checkpoint"),
        ("layers", "spill", "sorted"),
        ("extension", "mod", "refinements"),
    ] {
        assert!(all[dir][from].contains(to), "{dir}/{from} -> {to} not seen; edges: {:?}", all[dir]);
    }
}

/// The detector finds the circles this directory once had: two siblings
/// naming each other, in a `use` group or in a path inside code, and a
/// child naming an item of mod.rs; test code and comments do not count.
#[test]
fn the_circle_detector_finds_circles() {
    let siblings = files(&[
        ("mod", "mod a;\nmod b;\n"),
        ("a", "use super::{b, tally::X};\n"),
        ("b", "fn f() { super::a::g(); }\n"),
    ]);
    assert_eq!(circle(&graph(&siblings)).expect("a <-> b"), ["a", "b", "a"]);
    let parent = files(&[("mod", "mod a;\npub fn report() {}\n"), ("a", "fn f() { super::report(); }\n")]);
    assert!(circle(&graph(&parent)).is_some(), "a child naming mod.rs's own item closes a circle");
    let harmless = files(&[
        ("mod", "mod a;\nmod b;\n"),
        ("a", "use super::b::Y; // super::c\nuse super::super::geometry::Hexagon;\n"),
        ("b", "fn g() {}\n#[cfg(test)]\nmod tests { use super::super::a::X; }\n"),
    ]);
    assert_eq!(circle(&graph(&harmless)), None);
}

/// The rows of docs/COUNTING.md's module map, in order, each as the names
/// in its first column (`` `frontier/` (`schedule`, ...) `` is `frontier`).
fn documented_rows(doc: &str) -> Vec<Vec<String>> {
    let table = doc.split("| path | holds |").nth(1).expect("docs/COUNTING.md's module map");
    table
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with("| `"))
        .map(|row| {
            let first = row.split('|').nth(1).expect("a first column");
            let names = first.split('(').next().expect("the names before a folder's file list");
            names
                .split(',')
                .map(|m| m.trim().trim_matches('`').trim_end_matches('/').to_string())
                .filter(|m| !m.is_empty())
                .collect()
        })
        .collect()
}

/// Where `rows` put a name: its row and its place in the whole list.
fn rank(rows: &[Vec<String>], name: &str) -> Option<(usize, usize)> {
    let place = rows.iter().flatten().position(|n| n == name)?;
    Some((rows.iter().position(|row| row.iter().any(|n| n == name))?, place))
}

/// The imports against the rule docs/COUNTING.md states: an entry of
/// src/counting/ (a file, or a folder and every file in it) names only
/// entries of rows above its own, or entries before it in its own row.
/// `sources` holds each entry's files, each as its path under src/ and its
/// text; a name that is no entry is an item of mod.rs, last of all.
fn against_the_map(rows: &[Vec<String>], sources: &BTreeMap<String, Vec<(PathBuf, String)>>) -> Vec<String> {
    let counting = ["counting".to_string()];
    let mut wrong = Vec::new();
    for (entry, files) in sources {
        let Some(own) = rank(rows, entry) else { continue };
        for (file, text) in files {
            for named in named_in(&counting, file, text) {
                let target = if rank(rows, &named).is_some() { named } else { "mod".to_string() };
                let Some(theirs) = rank(rows, &target) else { continue };
                if target != *entry && !(theirs.0 < own.0 || (theirs.0 == own.0 && theirs.1 < own.1)) {
                    wrong.push(format!("{entry} names {target}"));
                }
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    wrong
}

/// docs/COUNTING.md lists the entries of src/counting/ (its files and
/// folders) in an order in which each imports only those above it; the map
/// names every entry, and the imports keep to it.
#[test]
fn counting_entries_import_only_those_above_them_in_the_documented_map() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rows = documented_rows(&std::fs::read_to_string(manifest.join("docs/COUNTING.md")).expect("docs/COUNTING.md"));
    let mut sources: BTreeMap<String, Vec<(PathBuf, String)>> = BTreeMap::new();
    for file in rust_files(&src().join("counting")) {
        let file = file.strip_prefix(src()).expect("under src/").to_path_buf();
        // The entry: the file's name in src/counting/, or its folder's.
        let entry = file
            .iter()
            .nth(1)
            .map(|e| Path::new(e).file_stem().expect("a name").to_string_lossy().into_owned())
            .expect("an entry");
        let text = std::fs::read_to_string(src().join(&file)).expect("a source file");
        sources.entry(entry).or_default().push((file, text));
    }
    let mut documented: Vec<&String> = rows.iter().flatten().collect();
    documented.sort();
    assert_eq!(
        documented,
        sources.keys().collect::<Vec<_>>(),
        "docs/COUNTING.md's module map against the entries of src/counting/"
    );
    let wrong = against_the_map(&rows, &sources);
    assert!(wrong.is_empty(), "imports against docs/COUNTING.md's order:\n{}", wrong.join("\n"));
    // The rule bites: a table naming the query, a folder naming one below it, are caught.
    let row = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    let rows = [row(&["tally"]), row(&["tables"]), row(&["query", "mod"])];
    let file = |path: &str, text: &str| vec![(PathBuf::from(path), text.to_string())];
    let sources = BTreeMap::from([
        (
            "tables".to_string(),
            file("counting/tables/guide.rs", "use crate::counting::query::Count;\nuse super::super::tally::Tally;\n"),
        ),
        ("tally".to_string(), file("counting/tally.rs", "fn f() { super::Settings::default(); }\n")),
        (
            "query".to_string(),
            file("counting/query.rs", "use super::tables::Guide;\n#[cfg(test)]\nmod tests { use super::mod_only; }\n"),
        ),
    ]);
    assert_eq!(against_the_map(&rows, &sources), ["tables names query", "tally names mod"]);
}
