//! `certify --witness`: an optimum rested on a grid already found and the
//! claims already proved, nothing solved again.

use std::path::Path;
use std::time::Instant;

use super::record::{write_optimum, Provenance};
use super::report::OptimumReport;
use crate::digest::sha256_hex;
use crate::error::AtPath;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::records::{Claim, Record, WitnessSource};
use crate::verify::check::{CheckReport, CheckRun, Status};

/// `certify --witness`: the optimum of side n from a grid already found
/// (the engine's search, a published file) and the claims already under
/// `root`, none of them solved again. The grid must be a full grid the
/// plain validator accepts, with penalty exactly the bound of a claim beside
/// (the lowest level's such claim is the lower bound); a claim it
/// contradicts (a bound above its penalty) refuses it. Below that level,
/// a minimum is the strongest bound the claims beside prove (0 where none
/// does), listed as `unreached` ("at least": `check` reports the optimum
/// unverified) unless a level witness or the grid itself reaches it. The
/// lower-bound claim is checked first, as `check` does (a failure refuses
/// the grid, nothing written); the record is then checked whole, and its
/// report says what this run verified.
pub fn certify_from_grid(n: usize, grid_path: &Path, root: &Path) -> Result<(OptimumReport, CheckReport), HexError> {
    let start = Instant::now();
    let hex = Hexagon::new(n)?;
    let dir = root.join(format!("n{n}"));
    let record_path = dir.join("optimum.json");
    let refuse = |message: String| HexError::Input { file: grid_path.to_path_buf(), line: 0, message };
    if std::fs::symlink_metadata(&record_path).is_ok() {
        return Err(refuse(format!(
            "{} exists already: remove it first to rest n = {n}'s optimum on this grid",
            record_path.display()
        )));
    }
    let bytes = crate::files::read_regular(grid_path, crate::formats::MAX_GRID_BYTES, "grid file")?;
    let grid = crate::formats::parse_grid(&bytes, grid_path, Some(n))?;
    if grid.partial.level() != crate::levels::FULL_LEVEL {
        return Err(refuse(format!("a level-{} partial, not a full grid", grid.partial.level())));
    }
    let evaluation = crate::validation::evaluate(&hex, &grid.partial);
    if !evaluation.is_valid() {
        return Err(refuse(format!("not a valid grid: {} cells lack support", evaluation.violations.len())));
    }
    let penalty = evaluation.penalty;
    let claims = claims_beside(&dir, n)?;
    if let Some(&(level, below)) = claims.iter().find(|&&(_, below)| below > penalty) {
        return Err(refuse(format!(
            "its penalty {penalty} contradicts the claim level{level}-below{below}: check the claim with --regenerate"
        )));
    }
    let Some(&(level, _)) = claims.iter().filter(|&&(_, below)| below == penalty).min() else {
        let strongest = claims.iter().map(|&(_, below)| below).max().unwrap_or(0);
        return Err(refuse(format!("penalty {penalty}, but no claim under {} bounds the penalty below {penalty} (the strongest: below {strongest}); prove it first", dir.display())));
    };
    let claim_path = Claim::directory(root, n, level, penalty).join("claim.json");
    let mut run = CheckRun::new(None);
    let claim_report = run.check(&claim_path);
    if claim_report.status == Status::Failed {
        let why = claim_report.messages.last().cloned().unwrap_or_default();
        return Err(refuse(format!("its lower-bound claim {} fails its check: {why}", claim_path.display())));
    }
    let mut level_minima = Vec::new();
    let mut unreached = Vec::new();
    for k in 1..=crate::levels::FULL_LEVEL {
        if k >= level {
            level_minima.push(penalty);
            continue;
        }
        // A level-j claim bounds every level from j on.
        let minimum = claims.iter().filter(|&&(j, _)| j <= k).map(|&(_, below)| below).max().unwrap_or(0);
        // No claim beside: 0 is all that is proved ("at least 0"), and it
        // is the minimum only where the grid reads 0 at that level.
        let witnessed = (minimum > 0
            && Claim::directory(root, n, k, minimum).join(crate::verify::witness::LEVEL_WITNESS).is_file())
            || crate::verify::witness::optimum_level_witness(&dir, k).is_file();
        if !witnessed && crate::verify::witness::penalty_at_level(&grid.partial, k)? != minimum {
            unreached.push(k);
        }
        level_minima.push(minimum);
    }
    let (kind, comments) = match grid.format {
        crate::formats::Format::Hexcert => (WitnessSource::GRID_FILE, comment_lines(&bytes)),
        crate::formats::Format::Published => (WitnessSource::PUBLISHED, Vec::new()),
    };
    let source = WitnessSource {
        kind: kind.into(),
        path: Some(grid_path.to_string_lossy().into_owned()),
        sha256: Some(sha256_hex(&bytes)),
        comments,
    };
    let found = Provenance { source, level_minima, unreached, attested: Vec::new() };
    let report = write_optimum(&dir, n, (level, penalty), &grid.partial, found, start)?;
    Ok((report, run.check(&record_path)))
}

/// `(level, below)` of every claim directory in `dir` whose record states
/// side n and those numbers (a directory named otherwise is `check`'s to fail).
fn claims_beside(dir: &Path, n: usize) -> Result<Vec<(u8, usize)>, HexError> {
    let entries = std::fs::read_dir(dir).at_path(dir)?;
    let mut claims = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(numbers) = crate::records::ranges::claim_directory_numbers(&name) else { continue };
        let path = entry.path().join("claim.json");
        if !path.is_file() {
            continue;
        }
        let record = Record::read(&path)?;
        match record.claim_numbers() {
            Some((side, level, below, _)) if side == n && (level, below) == numbers => claims.push(numbers),
            _ => {
                return Err(crate::error::RecordError::Header(format!(
                    "not the claim its directory names (n = {n}, {name})"
                ))
                .at(&path))
            }
        }
    }
    claims.sort();
    Ok(claims)
}

/// A hexcert grid file's `#` lines, without the `#`.
fn comment_lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix('#'))
        .map(|c| c.trim().to_string())
        .collect()
}
