//! The blocks of a document that `hexcert table results` writes: between
//! `<!-- table results: NAME begin -->` and `<!-- table results: NAME end -->`,
//! NAME one of `markdown::BLOCKS`. Everything outside the markers is the
//! document's own and is never touched.

use std::path::Path;

use super::Results;
use crate::error::HexError;

fn begin(name: &str) -> String {
    format!("<!-- table results: {name} begin -->\n")
}

fn end(name: &str) -> String {
    format!("<!-- table results: {name} end -->")
}

/// `document` (read from `origin`) with every marked block's content
/// replaced by the block of that name, and the names replaced.
///
/// # Errors
///
/// `HexError::Input` naming `origin` when the markers are broken: a begin
/// marker not alone on its line, an unknown name, a begin without its end.
pub fn embed(document: &str, results: &Results, origin: &Path) -> Result<(String, Vec<String>), HexError> {
    let input = |message: String| HexError::Input { file: origin.into(), line: 0, message };
    let mut out = String::new();
    let mut rest = document;
    let mut names = Vec::new();
    while let Some(at) = rest.find("<!-- table results: ") {
        let line_end = rest[at..].find('\n').map_or(rest.len(), |i| at + i + 1);
        let marker = &rest[at..line_end];
        let name = marker.trim_end().strip_prefix("<!-- table results: ").and_then(|m| m.strip_suffix(" begin -->"));
        let Some(name) = name.filter(|n| marker == begin(n)) else {
            return Err(input(format!("{:?} is no begin marker `{}`", marker.trim_end(), begin("NAME").trim_end())));
        };
        let block =
            super::markdown::block(results, name).ok_or_else(|| input(format!("no block is named {name:?}")))?;
        let close =
            rest[line_end..].find(&end(name)).ok_or_else(|| input(format!("block {name:?} has no `{}`", end(name))))?;
        out.push_str(&rest[..line_end]);
        out.push_str(&block);
        out.push_str(&end(name));
        rest = &rest[line_end + close + end(name).len()..];
        names.push(name.to_string());
    }
    out.push_str(rest);
    Ok((out, names))
}

/// Rewrites the marked blocks of the file at `path`, whole or not at all;
/// the names of the blocks written.
///
/// # Errors
///
/// `HexError::Io` when the file cannot be read or written;
/// `HexError::Input` when its markers are broken or it has none.
pub fn write(path: &Path, results: &Results) -> Result<Vec<String>, HexError> {
    let text = std::fs::read_to_string(path).map_err(|source| HexError::Io { path: path.into(), source })?;
    let (new, names) = embed(&text, results, path)?;
    if names.is_empty() {
        return Err(HexError::Input {
            file: path.into(),
            line: 0,
            message: format!("no block to write: mark one with `{}`", begin("table").trim_end()),
        });
    }
    if new != text {
        crate::files::write_atomic(path, new.as_bytes())?;
    }
    Ok(names)
}
