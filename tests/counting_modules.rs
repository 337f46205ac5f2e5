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
//! circles across directories are `tests/module_graph.rs`'s. Code from the
//! first `#[cfg(test)]` on is left out: unit tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The files of a module directory: stem ("mod" for mod.rs) -> source.
fn sources(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("src/counting is readable") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            let stem = path.file_stem().expect("a file name").to_string_lossy().into_owned();
            files.insert(stem, std::fs::read_to_string(&path).expect("a source file"));
        }
    }
    files
}

/// The source without comments and without its test code.
fn code(text: &str) -> String {
    let mut kept = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        kept.push_str(line.split("//").next().unwrap_or(""));
        kept.push('\n');
    }
    kept
}

/// The first path segments named after `prefix` in `code`: `prefix::a::x`
/// gives `a`, `prefix::{a, b::x}` gives `a` and `b`.
fn named_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let mut names = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        // Only a path's first segment: not `super::` inside `super::super::`
        // or `x::super::`, nor the tail of a longer name.
        let before = &code[..at];
        if before.ends_with("::") || before.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inside = &group[..group.find('}').unwrap_or(group.len())];
            names.extend(inside.split(',').map(|item| ident(item.trim())).filter(|n| !n.is_empty()));
        } else {
            names.insert(ident(rest));
        }
    }
    names.remove("");
    names
}

/// File -> the files it depends on (see the header).
fn graph(files: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    graph_in(files, "crate::counting::", &BTreeSet::new())
}

/// As `graph`, for a directory whose absolute prefix is `prefix` and whose
/// sub-directories are `groups`.
fn graph_in(files: &BTreeMap<String, String>, prefix: &str, groups: &BTreeSet<String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges = BTreeMap::new();
    for (name, text) in files {
        let code = code(text);
        let mut to = BTreeSet::new();
        if name == "mod" {
            for line in code.lines().map(str::trim) {
                let declared = ["pub(super) ", "pub(crate) ", "pub "].iter().find_map(|p| line.strip_prefix(p)).unwrap_or(line).strip_prefix("mod ").and_then(|m| m.strip_suffix(';'));
                to.extend(declared.filter(|d| files.contains_key(*d)).map(str::to_string));
            }
        } else {
            for named in named_after(&code, "super::").into_iter().chain(named_after(&code, prefix)) {
                // `super::super::...` leaves the directory.
                if named != "super" && !groups.contains(&named) {
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
    fn visit(node: &str, edges: &BTreeMap<String, BTreeSet<String>>, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut found = path[at..].to_vec();
            found.push(node.to_string());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, edges, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges.keys().find_map(|start| visit(start, edges, &mut Vec::new(), &mut done))
}

fn files(list: &[(&str, &str)]) -> BTreeMap<String, String> {
    list.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect()
}

/// The directories under src/counting/, each with its path from there ("" for src/counting itself).
fn directories() -> Vec<(String, std::path::PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/counting");
    let mut found = vec![(String::new(), root.clone())];
    let mut at = 0;
    while at < found.len() {
        let (name, dir) = found[at].clone();
        let mut subdirs: Vec<_> = std::fs::read_dir(&dir).expect("a readable directory").map(|e| e.expect("an entry").path()).filter(|p| p.is_dir()).collect();
        subdirs.sort();
        for sub in subdirs {
            let leaf = sub.file_name().expect("a name").to_string_lossy().into_owned();
            found.push((if name.is_empty() { leaf } else { format!("{name}::{leaf}") }, sub));
        }
        at += 1;
    }
    found
}

#[test]
fn counting_files_import_each_other_without_a_circle() {
    let mut all = BTreeMap::new();
    for (name, dir) in directories() {
        let files = sources(&dir);
        let groups: BTreeSet<String> = std::fs::read_dir(&dir).expect("readable").map(|e| e.expect("entry").path()).filter(|p| p.is_dir()).map(|p| p.file_name().expect("a name").to_string_lossy().into_owned()).collect();
        let prefix = if name.is_empty() { "crate::counting::".to_string() } else { format!("crate::counting::{name}::") };
        let edges = graph_in(&files, &prefix, &groups);
        if let Some(found) = circle(&edges) {
            panic!("import circle between files of src/counting/{}: {}", name.replace("::", "/"), found.join(" -> "));
        }
        all.insert(name, edges);
    }
    // The reader sees the imports it must see, or an empty graph would pass.
    for (dir, from, to) in [("", "query", "roads"), ("", "mod", "query"), ("sweep", "mod", "enumerate"), ("tables", "reference", "reach"), ("tables", "ladder", "checkpoint"), ("layers", "spill", "sorted"), ("extension", "mod", "refinements")] {
        assert!(all[dir][from].contains(to), "{dir}/{from} -> {to} not seen; edges: {:?}", all[dir]);
    }
}

/// The detector finds the circles this directory once had: two siblings
/// naming each other, in a `use` group or in a path inside code, and a
/// child naming an item of mod.rs; test code and comments do not count.
#[test]
fn the_circle_detector_finds_circles() {
    let siblings = files(&[("mod", "mod a;\nmod b;\n"), ("a", "use super::{b, tally::X};\n"), ("b", "fn f() { super::a::g(); }\n")]);
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
            names.split(',').map(|m| m.trim().trim_matches('`').trim_end_matches('/').to_string()).filter(|m| !m.is_empty()).collect()
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
/// `sources` holds each entry's files, each marked when it lies below its
/// folder's mod.rs (its way up to src/counting is `super::super::`, not
/// `super::`); a name that is no entry is an item of mod.rs, last of all.
fn against_the_map(rows: &[Vec<String>], sources: &BTreeMap<String, Vec<(bool, String)>>) -> Vec<String> {
    let mut wrong = Vec::new();
    for (entry, files) in sources {
        let Some(own) = rank(rows, entry) else { continue };
        for (in_folder, text) in files {
            let code = code(text);
            let ups = if *in_folder { "super::super::" } else { "super::" };
            for named in named_after(&code, "crate::counting::").into_iter().chain(named_after(&code, ups)) {
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
    let root = manifest.join("src/counting");
    let mut sources: BTreeMap<String, Vec<(bool, String)>> = BTreeMap::new();
    for entry in std::fs::read_dir(&root).expect("src/counting is readable") {
        let path = entry.expect("an entry").path();
        let name = path.file_stem().expect("a name").to_string_lossy().into_owned();
        if path.is_dir() {
            // A folder's mod.rs is the folder's module: its `super::` is src/counting's.
            let files = sources_of(&path).into_iter().map(|(file, text)| (file.file_name().is_some_and(|f| f != "mod.rs"), text));
            sources.insert(name, files.collect());
        } else if path.extension().is_some_and(|e| e == "rs") {
            sources.insert(name, vec![(false, std::fs::read_to_string(&path).expect("a source file"))]);
        }
    }
    let mut documented: Vec<&String> = rows.iter().flatten().collect();
    documented.sort();
    assert_eq!(documented, sources.keys().collect::<Vec<_>>(), "docs/COUNTING.md's module map against the entries of src/counting/");
    let wrong = against_the_map(&rows, &sources);
    assert!(wrong.is_empty(), "imports against docs/COUNTING.md's order:\n{}", wrong.join("\n"));
    // The rule bites: a table naming the query, a folder naming one below it, are caught.
    let row = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    let rows = [row(&["tally"]), row(&["tables"]), row(&["query", "mod"])];
    let sources = BTreeMap::from([
        ("tables".to_string(), vec![(true, "use crate::counting::query::Count;\nuse super::super::tally::Tally;\n".to_string())]),
        ("tally".to_string(), vec![(false, "fn f() { super::Settings::default(); }\n".to_string())]),
        ("query".to_string(), vec![(false, "use super::tables::Guide;\n#[cfg(test)]\nmod tests { use super::mod_only; }\n".to_string())]),
    ]);
    assert_eq!(against_the_map(&rows, &sources), ["tables names query", "tally names mod"]);
}

/// Every `.rs` file under `dir`, however deep: path -> source.
fn sources_of(dir: &Path) -> BTreeMap<std::path::PathBuf, String> {
    let mut found = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("a readable directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            found.extend(sources_of(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("a source file");
            found.insert(path, text);
        }
    }
    found
}
