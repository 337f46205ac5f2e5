//! The files of src/counting/ import each other without a circle.
//!
//! Why a test: a circle between files means neither can be read, changed or
//! tested without the other, and nothing in the compiler stops one. The graph
//! is read from the sources themselves: a file depends on each sibling it
//! names through `super::NAME` or `crate::counting::NAME` (in `use` lines and
//! in paths inside code alike), and on mod.rs when it names one of mod.rs's
//! own items that way; mod.rs depends on every child it declares. Code from
//! the first `#[cfg(test)]` on is left out: unit tests may reach anywhere.

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
    let mut edges = BTreeMap::new();
    for (name, text) in files {
        let code = code(text);
        let mut to = BTreeSet::new();
        if name == "mod" {
            for line in code.lines().map(str::trim) {
                let declared = line.strip_prefix("pub ").unwrap_or(line).strip_prefix("mod ").and_then(|m| m.strip_suffix(';'));
                to.extend(declared.filter(|d| files.contains_key(*d)).map(str::to_string));
            }
        } else {
            for named in named_after(&code, "super::").into_iter().chain(named_after(&code, "crate::counting::")) {
                // `super::super::...` leaves the directory.
                if named != "super" {
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

#[test]
fn counting_files_import_each_other_without_a_circle() {
    let files = sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/counting"));
    let edges = graph(&files);
    // The reader sees the imports it must see, or an empty graph would pass.
    for (from, to) in [("sweep", "layer"), ("reach", "guide"), ("tables", "reach"), ("ladder", "checkpoint"), ("mod", "ladder")] {
        assert!(edges[from].contains(to), "{from} -> {to} not seen; edges: {edges:?}");
    }
    if let Some(found) = circle(&edges) {
        panic!("import circle between files of src/counting: {}", found.join(" -> "));
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
