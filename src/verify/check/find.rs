//! Which files a `check` run judges, found under the paths it was given.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::error::AtPath;
use crate::error::HexError;

/// Every `claim.json`, `optimum.json`, `count.json` and `lift.json` under the given paths (files or
/// directories). A directory is entered once, by its canonical path, so
/// symlink loops end; only regular files are listed by name.
///
/// # Errors
///
/// `HexError::Io` when a given path, or a directory met below it, cannot be
/// stat'ed, canonicalized or listed (entries that vanish or dangle below a
/// directory are skipped).
pub fn find_records(paths: &[PathBuf]) -> Result<Vec<PathBuf>, HexError> {
    let mut found = Vec::new();
    let mut visited = HashSet::new();
    for path in paths {
        collect(path, &mut found, &mut visited)?;
    }
    found.sort();
    found.dedup();
    Ok(found)
}

fn collect(path: &Path, found: &mut Vec<PathBuf>, visited: &mut HashSet<PathBuf>) -> Result<(), HexError> {
    let meta = std::fs::metadata(path).at_path(path)?;
    if !meta.is_dir() {
        found.push(path.to_path_buf()); // named on the command line: judged, whatever it is
        return Ok(());
    }
    let canonical = path.canonicalize().at_path(path)?;
    if !visited.insert(canonical) {
        return Ok(());
    }
    let entries = std::fs::read_dir(path).at_path(path)?;
    for entry in entries.flatten() {
        let p = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue; // work directories, temporaries and records set aside
        }
        let Ok(meta) = std::fs::metadata(&p) else { continue }; // a dangling link
        if meta.is_dir() {
            collect(&p, found, visited)?;
        } else if matches!(name.as_str(), "claim.json" | "optimum.json" | "count.json" | "lift.json") {
            found.push(p);
        }
    }
    Ok(())
}
