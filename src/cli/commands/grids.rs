//! The commands that read one grid: verify, render (`solve.rs` finds
//! grids). Each returns its report; `report::print` shows it as text or JSON.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::report::Reported;
use hexcert::error::HexError;
use hexcert::formats::read_grid_file;
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::outcome::Outcome;
use hexcert::validation::{evaluate, PenaltyEdge, Violation};

/// `render`: the picture written and what the grid scores.
#[derive(Serialize)]
pub struct RenderReport {
    file: PathBuf,
    output: PathBuf,
    n: usize,
    level: u8,
    valid: bool,
    penalty: usize,
    score: Option<u64>,
}

impl fmt::Display for RenderReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let (file, output) = (self.file.display(), self.output.display());
        writeln!(
            f,
            "{file}: n={} level={} penalty {}{} -> {output}",
            self.n,
            self.level,
            self.penalty,
            show_score(self.score)
        )
    }
}

fn show_score(score: Option<u64>) -> String {
    score.map_or(String::new(), |s| format!(" score {s}"))
}

pub fn render(file: &Path, output: &Path, level: Option<u8>) -> Result<Reported, HexError> {
    let partial = at_level(file, &read_grid_file(file, None)?.partial, level)?;
    let hex = Hexagon::new(partial.side())?;
    hexcert::files::write_atomic(output, hexcert::rendering::render_svg(&hex, &partial).as_bytes())?;
    let evaluation = evaluate(&hex, &partial);
    let report = RenderReport {
        file: file.into(),
        output: output.into(),
        n: partial.side(),
        level: partial.level(),
        valid: evaluation.is_valid(),
        penalty: evaluation.penalty,
        score: evaluation.score,
    };
    Ok(Reported::new(report, Outcome::Done))
}

/// `render --gallery`: the page written, and each entry's side, penalty and status.
#[derive(Serialize)]
pub struct GalleryReport {
    page: PathBuf,
    entries: Vec<GalleryEntry>,
}

#[derive(Serialize)]
struct GalleryEntry {
    n: usize,
    penalty: usize,
    grid: PathBuf,
    picture: String,
    status: String,
}

impl fmt::Display for GalleryReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for e in &self.entries {
            writeln!(f, "n={} penalty {} {}: {}", e.n, e.penalty, e.grid.display(), e.status)?;
        }
        writeln!(f, "{} pictures -> {}", self.entries.len(), self.page.display())
    }
}

pub fn gallery(page: &Path, proofs: &Path, grids: &Path) -> Result<Reported, HexError> {
    let entries = hexcert::gallery::write(page, proofs, grids)?;
    let entries = entries
        .into_iter()
        .map(|e| GalleryEntry {
            n: e.n,
            penalty: e.penalty,
            status: e.status.describe(),
            grid: e.source,
            picture: e.picture,
        })
        .collect();
    Ok(Reported::new(GalleryReport { page: page.into(), entries }, Outcome::Done))
}

/// A partial read from `file`, optionally seen at a lower level.
pub fn at_level(file: &Path, partial: &Partial, level: Option<u8>) -> Result<Partial, HexError> {
    match level {
        Some(k) => {
            partial.truncate(k).map_err(|e| HexError::Input { file: file.into(), line: 0, message: e.to_string() })
        }
        None => Ok(partial.clone()),
    }
}

/// `verify`: the verdict on a grid file, with every violation and penalty edge.
#[derive(Serialize)]
pub struct VerifyReport {
    file: PathBuf,
    n: usize,
    level: u8,
    valid: bool,
    penalty: usize,
    score: Option<u64>,
    stated_sum: Option<u64>,
    sum: u64,
    violations: Vec<Violation>,
    penalty_edges: Vec<PenaltyEdge>,
}

impl fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for v in &self.violations {
            writeln!(
                f,
                "violation: cell ({}, {}) value {} does not see {:?}",
                v.row,
                v.column,
                show_value(v.value, self.level),
                v.missing
            )?;
        }
        if let Some(stated) = self.stated_sum.filter(|&s| s != self.sum) {
            writeln!(f, "stated score {stated} differs from the sum of values {}", self.sum)?;
        }
        let verdict = if self.valid { "valid" } else { "INVALID" };
        let file = self.file.display();
        writeln!(
            f,
            "{file}: n={} level={} {verdict} penalty {}{}",
            self.n,
            self.level,
            self.penalty,
            show_score(self.score)
        )
    }
}

pub fn verify(file: &Path, level: Option<u8>, n: Option<usize>) -> Result<Reported, HexError> {
    let grid = read_grid_file(file, n)?;
    let partial = at_level(file, &grid.partial, level)?;
    let hex = Hexagon::new(partial.side())?;
    let evaluation = evaluate(&hex, &partial);
    let sum: u64 = grid.partial.values().iter().map(|&v| u64::from(v)).sum();
    let score_ok = grid.stated_score.is_none_or(|s| s == sum);
    let valid = evaluation.is_valid() && score_ok;
    let report = VerifyReport {
        file: file.into(),
        n: partial.side(),
        level: partial.level(),
        valid,
        penalty: evaluation.penalty,
        score: evaluation.score,
        stated_sum: grid.stated_score,
        sum,
        violations: evaluation.violations,
        penalty_edges: evaluation.penalty_edges,
    };
    Ok(Reported::new(report, if valid { Outcome::Done } else { Outcome::Negative }))
}

fn show_value(value: u8, level: u8) -> String {
    if value == level + 1 && level < 6 {
        "+".into()
    } else {
        value.to_string()
    }
}
