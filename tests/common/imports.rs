//! One reader of the crate's imports, for the tests that hold src/ to its
//! layers (tests/module_graph.rs) and src/counting/ to its map
//! (tests/counting_modules.rs): it lists the `.rs` files, reads a file's
//! code (comments, literals and `#[cfg(test)]` items left out: unit tests
//! may reach anywhere), the module paths that code names through `crate::`,
//! `super::` and `self::` (in `use` lines and in paths inside code alike),
//! and the files those paths are; and it finds chains and circles in a
//! graph read so. It reads text, so a test can give it text of its own.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

/// The binary's folder under src/ (the crate root of `hexcert`'s main.rs).
pub const BINARY: &str = "cli";

pub fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, however deep, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// Module path of a file under src/, given from src/ or from the root
/// (`verify/check/mod.rs` -> [verify, check]; the binary's files keep
/// their folder: `cli/commands/mod.rs` -> [cli, commands]).
pub fn module_of(file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src()).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib" || p == "main") {
        parts.pop();
    }
    parts
}

/// The file holding module `path`, or the nearest ancestor's.
pub fn file_of(path: &[String]) -> Option<PathBuf> {
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

/// `text` with comments, string and character literals blanked (newlines
/// kept), so that the braces left are the code's own.
pub fn code_only(text: &str) -> String {
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
        } else if rest[0] == 'r'
            && rest.get(1).is_some_and(|&c| c == '"' || c == '#')
            && (i == 0 || !chars[i - 1].is_alphanumeric() && chars[i - 1] != '_')
        {
            let hashes = rest[1..].iter().take_while(|&&c| c == '#').count();
            let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let body = 2 + hashes;
            i + body
                + rest[body..]
                    .windows(close.len())
                    .position(|w| w == close.as_slice())
                    .map_or(rest.len() - body, |p| p + close.len())
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

/// The code of `text` that ships: `code_only`, without each item marked
/// `#[cfg(test)]` (up to its `;`, or the brace closing its body).
pub fn shipped(text: &str) -> String {
    let code = code_only(text);
    let mut kept = String::with_capacity(code.len());
    let mut rest = code.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        rest = &rest[at..];
        let mut depth = 0;
        let end = rest.char_indices().find(|&(_, c)| {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ';' => return depth == 0,
                _ => return false,
            }
            depth == 0
        });
        let end = end.map_or(rest.len(), |(i, _)| i + 1);
        kept.extend(rest[..end].chars().filter(|&c| c == '\n'));
        rest = &rest[end..];
    }
    kept.push_str(rest);
    kept
}

/// Expands `a::{b, c::{d, e}}` (after the root) into full segment lists.
fn expand(prefix: &[String], text: &str, out: &mut Vec<Vec<String>>) {
    let text = text.trim();
    if let Some(open) = text.find('{') {
        let head: Vec<String> =
            text[..open].split("::").map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect();
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
        let word = |s: &str| s.split_whitespace().next().unwrap_or("").to_string();
        let segments = text
            .split("::")
            .map(word)
            .filter(|s| s.starts_with(|c: char| c.is_alphabetic() || c == '_') && s != "self");
        out.push(prefix.iter().cloned().chain(segments).collect());
    }
}

/// The path text at the start of `rest`: identifiers, `::`, and one braced
/// group (which may nest).
fn path_text(rest: &str) -> &str {
    let mut depth = 0;
    for (i, c) in rest.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return &rest[..i + 1];
                }
            }
            c if depth > 0 || c.is_alphanumeric() || c == '_' || c == ':' => {}
            _ => return &rest[..i],
        }
    }
    rest
}

/// The module paths, from src/, that `text` (the source of `file`, a path
/// under src/) names through `crate::`, `super::` (each further `super`
/// one module up) and `self::`: `super::{a, b::C}` in `x/y.rs` names
/// [x, a] and [x, b, C]. The binary is a crate of its own rooted at
/// src/cli/ (its `crate::` is that folder), which names the library as
/// `hexcert::`.
pub fn named_paths(file: &Path, text: &str) -> BTreeSet<Vec<String>> {
    let code = shipped(text);
    let module = module_of(file);
    let mut found = Vec::new();
    let binary = module.first().is_some_and(|m| m == BINARY);
    for root in ["crate::", "super::", "self::", "hexcert::"] {
        if root == "hexcert::" && !binary {
            continue;
        }
        for (at, _) in code.match_indices(root) {
            // Only a path's first segment: not `super::` inside
            // `super::super::` or `x::super::`, nor the tail of a longer name.
            let before = &code[..at];
            if before.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut base = match root {
                "crate::" if binary => vec![BINARY.to_string()],
                "crate::" | "hexcert::" => Vec::new(),
                "super::" => module[..module.len().saturating_sub(1)].to_vec(),
                _ => module.clone(),
            };
            let mut path = path_text(&code[at + root.len()..]);
            while root == "super::" && path.starts_with("super::") {
                path = &path["super::".len()..];
                base.pop();
            }
            expand(&base, path, &mut found);
        }
    }
    found.into_iter().collect()
}

/// The files `text`, the source of `file` under src/, refers to.
pub fn imports_in(file: &Path, text: &str) -> BTreeSet<PathBuf> {
    named_paths(file, text).iter().filter_map(|path| file_of(path)).filter(|target| target != file).collect()
}

/// The shortest chain of edges of `graph` from `start` to a node `end`
/// accepts, if any.
pub fn chain<N: Ord + Clone>(graph: &BTreeMap<N, BTreeSet<N>>, start: &N, end: impl Fn(&N) -> bool) -> Option<Vec<N>> {
    let mut parent: BTreeMap<N, N> = BTreeMap::new();
    let mut queue = VecDeque::from([start.clone()]);
    let mut seen = BTreeSet::from([start.clone()]);
    while let Some(node) = queue.pop_front() {
        if end(&node) {
            let mut chain = vec![node];
            while let Some(p) = parent.get(chain.last().unwrap()) {
                chain.push(p.clone());
            }
            chain.reverse();
            return Some(chain);
        }
        for next in graph.get(&node).into_iter().flatten() {
            if seen.insert(next.clone()) {
                parent.insert(next.clone(), node.clone());
                queue.push_back(next.clone());
            }
        }
    }
    None
}

/// The circles of `graph`, each as the nodes around it back to the first:
/// from each node its shortest way back, each circle once (as first found),
/// in the order of their sorted nodes.
pub fn circles<N: Ord + Clone>(graph: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    let mut found = BTreeMap::new();
    for start in graph.keys() {
        let closes = |node: &N| graph.get(node).is_some_and(|next| next.contains(start));
        if let Some(mut circle) = chain(graph, start, closes) {
            circle.push(start.clone());
            let mut key = circle[1..].to_vec();
            key.sort();
            found.entry(key).or_insert(circle);
        }
    }
    found.into_values().collect()
}
