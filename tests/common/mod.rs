//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use hexcert::formats::read_grid_file;
use hexcert::levels::Partial;

/// The published grids shipped beside the repository, `(n, path)`, sorted by n.
pub fn published_grids() -> Vec<(usize, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/published");
    let mut grids: Vec<(usize, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            let n = name.strip_prefix("CLEAN-")?.split('-').next()?.parse().ok()?;
            Some((n, p))
        })
        .collect();
    grids.sort();
    grids
}

pub fn published(n: usize) -> Partial {
    let (_, path) = published_grids().into_iter().find(|(m, _)| *m == n).expect("published grid");
    read_grid_file(&path, Some(n)).unwrap().partial
}
