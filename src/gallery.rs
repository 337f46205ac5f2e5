//! The gallery: every certified optimum (`proofs/nN/optimum.json` and its
//! witness) and every best grid (`grids/nN-pP.txt`) drawn by
//! `rendering::render_svg` into one Markdown page with its pictures
//! (`hexcert render --gallery docs/GALLERY.md`).
//!
//! Invariant: nothing on the page is taken on trust from a file name or
//! written by hand. Each penalty is the plain validator's; an optimum is
//! called certified only when its record stands as far as can be judged
//! without re-checking proofs (the record reads as an optimum of its
//! directory's side, its witness hashes to the record and the validator
//! accepts it at exactly the optimum, and its lower bound is a claim stating
//! exactly that bound), and otherwise the page says why not; a best grid is
//! "not proven optimal" unless such an optimum of its side has its penalty.
//! The same inputs give the same bytes, so a test can hold the committed page
//! to the records (tests/rendering.rs).

use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::error::AtPath;
use crate::error::HexError;
use crate::formats::read_grid_file;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::records::Record;
use crate::rendering::render_svg;
use crate::validation::evaluate;
use crate::verify::witness::{check_optimum_witness, lower_bound_statement};

/// The one command that writes the gallery (from the repository's root), as the page names it.
pub const COMMAND: &str = "hexcert render --gallery docs/GALLERY.md";

/// The folder, beside the page, that holds its pictures.
pub const PICTURES: &str = "gallery";

/// What one picture shows and what the records say of it.
#[derive(Debug, Clone, PartialEq)]
pub struct GalleryEntry {
    pub n: usize,
    /// The plain validator's penalty of the grid drawn.
    pub penalty: usize,
    /// The grid file drawn, as found under the directory given.
    pub source: PathBuf,
    /// The picture's file name in the pictures folder.
    pub picture: String,
    pub status: Standing,
    partial: Partial,
}

/// The status of an entry, computed from the records.
#[derive(Debug, Clone, PartialEq)]
pub enum Standing {
    /// An optimum whose record stands: its lower-bound claim and its statement.
    Certified { record: PathBuf, claim: PathBuf, statement: String },
    /// An optimum record that does not stand, and why.
    Refused { record: PathBuf, why: String },
    /// A best grid at the penalty of a certified optimum of its side.
    AtOptimum { record: PathBuf },
    /// A best grid with no certified optimum of its penalty: not proven optimal.
    BestKnown,
    /// A grid file the validator rejects.
    Invalid { why: String },
}

impl Standing {
    /// A few words for the page's summary table.
    pub fn short(&self) -> String {
        match self {
            Standing::Certified { claim, .. } => format!("certified optimum; lower bound `{}`", claim.display()),
            Standing::Refused { .. } => "NOT certified: the optimum's record does not stand".into(),
            Standing::AtOptimum { .. } => "best grid found by search, at the certified optimum".into(),
            Standing::BestKnown => "best known grid, not proven optimal".into(),
            Standing::Invalid { .. } => "INVALID grid".into(),
        }
    }

    /// One line for the page and the report.
    pub fn describe(&self) -> String {
        match self {
            Standing::Certified { record, claim, statement } => format!(
                "certified optimum: `{}` stands (witness hash and penalty match); lower bound `{}`: {statement}",
                record.display(),
                claim.display()
            ),
            Standing::Refused { record, why } => format!("NOT certified: `{}` does not stand: {why}", record.display()),
            Standing::AtOptimum { record } => {
                format!("best grid found by search, at the certified optimum of `{}`", record.display())
            }
            Standing::BestKnown => "best known grid, not proven optimal".into(),
            Standing::Invalid { why } => format!("INVALID grid: {why}"),
        }
    }
}

/// Every entry: per side, its optimum (if `proofs` holds one) then its best
/// grid (if `grids` holds one), sides in increasing order.
pub fn collect(proofs: &Path, grids: &Path) -> Result<Vec<GalleryEntry>, HexError> {
    let mut optima = side_files(proofs, |name| name.strip_prefix('n')?.parse().ok())?;
    let mut best =
        side_files(grids, |name| name.strip_prefix('n')?.strip_suffix(".txt")?.split_once("-p")?.0.parse().ok())?;
    optima.retain(|(_, path)| path.join("optimum.json").is_file());
    let mut sides: Vec<usize> = optima.iter().chain(&best).map(|&(n, _)| n).collect();
    sides.sort_unstable();
    sides.dedup();
    best.sort();
    let mut entries = Vec::new();
    for n in sides {
        let optimum =
            optima.iter().find(|o| o.0 == n).map(|(_, dir)| optimum_entry(n, &dir.join("optimum.json"))).transpose()?;
        let certified = optimum.as_ref().filter(|e| matches!(e.status, Standing::Certified { .. }));
        let at = certified.map(|e| (e.penalty, e.source.with_file_name("optimum.json")));
        entries.extend(optimum);
        for (_, path) in best.iter().filter(|b| b.0 == n) {
            entries.push(grid_entry(n, path, at.clone())?);
        }
    }
    Ok(entries)
}

/// The entries of `dir` whose names give a side, sorted by side then name
/// (the results table reads `proofs/` and `grids/` by it too).
pub(crate) fn side_files(dir: &Path, side: impl Fn(&str) -> Option<usize>) -> Result<Vec<(usize, PathBuf)>, HexError> {
    let mut found = Vec::new();
    for item in std::fs::read_dir(dir).at_path(dir)? {
        let name = item.at_path(dir)?.file_name();
        if let Some(n) = name.to_str().and_then(&side) {
            found.push((n, dir.join(name)));
        }
    }
    found.sort();
    Ok(found)
}

/// The optimum of `record`: drawn from its witness, its standing judged.
fn optimum_entry(n: usize, record: &Path) -> Result<GalleryEntry, HexError> {
    let dir = record.parent().unwrap_or(Path::new("."));
    let refused = |why: String| Standing::Refused { record: record.into(), why };
    let (status, witness) = match Record::read(record) {
        Ok(Record::Optimum(optimum)) if optimum.n == n => {
            let witness = dir.join(Path::new(&optimum.witness).file_name().unwrap_or_default());
            let status = match check_optimum_witness(dir, &optimum, &mut Vec::new()) {
                Ok(_) => lower_bound(record, &optimum).unwrap_or_else(|e| refused(one_line(&e))),
                Err(e) => refused(one_line(&e)),
            };
            (status, witness)
        }
        Ok(_) => (refused(format!("not an optimum of side {n}")), dir.join("witness.txt")),
        Err(e) => (refused(one_line(&e)), dir.join("witness.txt")),
    };
    // The witness check judged validity and penalty: a witness the validator rejects is refused there.
    let mut entry = grid_entry(n, &witness, None)?;
    entry.picture = format!("n{n}-optimum.svg");
    entry.status = status;
    Ok(entry)
}

/// The optimum's lower-bound claim, which must state exactly the bound it needs.
fn lower_bound(record: &Path, optimum: &crate::records::Optimum) -> Result<Standing, HexError> {
    let claim = record.with_file_name(&optimum.lower_bound).join("claim.json");
    let statement = crate::records::claim::one_line(&lower_bound_statement(&claim, optimum)?);
    Ok(Standing::Certified { record: record.into(), claim, statement })
}

/// A best grid: its penalty by the validator; at the optimum `at` when one of its side stands.
fn grid_entry(n: usize, path: &Path, at: Option<(usize, PathBuf)>) -> Result<GalleryEntry, HexError> {
    let partial = read_grid_file(path, Some(n))?.partial;
    let evaluation = evaluate(&Hexagon::new(n)?, &partial);
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("grid");
    let status = if !evaluation.is_valid() || evaluation.score.is_none() {
        Standing::Invalid {
            why: format!("{} cells lack support, or the grid is not full", evaluation.violations.len()),
        }
    } else {
        match at {
            Some((optimum, record)) if optimum == evaluation.penalty => Standing::AtOptimum { record },
            _ => Standing::BestKnown,
        }
    };
    let picture = format!("{stem}.svg");
    Ok(GalleryEntry { n, penalty: evaluation.penalty, source: path.into(), picture, status, partial })
}

fn one_line(error: &HexError) -> String {
    crate::records::claim::one_line(&error.to_string())
}

/// The Markdown page: a summary table, then each side's pictures.
pub fn page(entries: &[GalleryEntry]) -> String {
    let mut page = String::from("# Gallery: certified optima and best grids\n\n");
    let _ = writeln!(
        page,
        "Written by `{COMMAND}` from the records (never by hand); \
         `tests/rendering.rs` fails when this page or a picture is stale. \
         Each penalty is the plain validator's; red sides join equal values, \
         orange sides are charged for duplicate support. An optimum is called \
         certified when its record stands (witness hash and penalty match, and \
         its lower-bound claim states exactly the bound); `hexcert check` \
         re-checks the claim's proof.\n"
    );
    page.push_str("| n | penalty | grid | status |\n|---|---|---|---|\n");
    for e in entries {
        let _ = writeln!(page, "| {} | {} | `{}` | {} |", e.n, e.penalty, e.source.display(), e.status.short());
    }
    let mut side = 0;
    for e in entries {
        if e.n != side {
            side = e.n;
            let _ = writeln!(page, "\n## n = {side}");
        }
        let _ = writeln!(page, "\n`{}`, penalty {}: {}.\n", e.source.display(), e.penalty, e.status.describe());
        let _ = writeln!(
            page,
            r#"<img src="{PICTURES}/{}" width="420" alt="n = {}, penalty {}">"#,
            e.picture, e.n, e.penalty
        );
    }
    page
}

/// Writes the page at `page_path` and its pictures in the folder
/// `PICTURES` beside it, each file whole or not at all; pictures of earlier
/// runs that no entry draws any more are removed. Returns the entries.
pub fn write(page_path: &Path, proofs: &Path, grids: &Path) -> Result<Vec<GalleryEntry>, HexError> {
    let entries = collect(proofs, grids)?;
    let folder = page_path.parent().unwrap_or(Path::new(".")).join(PICTURES);
    for e in &entries {
        let svg = render_svg(&Hexagon::new(e.n)?, &e.partial);
        crate::files::write_atomic(&folder.join(&e.picture), svg.as_bytes())?;
    }
    for item in std::fs::read_dir(&folder).at_path(&folder)? {
        let name = item.at_path(&folder)?.file_name();
        let ours = name.to_str().is_some_and(|s| s.starts_with('n') && s.ends_with(".svg"));
        if ours && !entries.iter().any(|e| name == e.picture.as_str()) {
            std::fs::remove_file(folder.join(&name)).at_path(&folder)?;
        }
    }
    crate::files::write_atomic(page_path, page(&entries).as_bytes())?;
    Ok(entries)
}
