//! count and table: exact counts and the tables printed from them.
//!
//! `table` streams its text rows as each n is counted (a row can take
//! hours at large n, and the rows printed so far are results); its report
//! is one typed value, printed whole at the end with `--json`.

use std::fmt;
use std::path::Path;

use serde::Serialize;

use super::report::{Reported, Rows};
use hexcert::context::RunContext;
use hexcert::error::HexError;
use hexcert::geometry::Hexagon;
use hexcert::outcome::Outcome;
#[cfg(feature = "solver")]
use hexcert::solving::Cadical;

/// Which table `hexcert table` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TableKind {
    /// Number of minimum-penalty partials at each level.
    Counts,
    /// Minimum penalty at each level.
    Penalties,
}

/// `count`: what was counted, by which road, and in how long. One shape
/// for every road, so a script reads `counts` whatever road it asked for.
#[derive(Serialize)]
pub struct CountReport {
    n: usize,
    level: u8,
    road: Road,
    /// The minimum penalty when this count established it: null after
    /// `--penalty P`, or when no penalty up to the bound has a partial.
    minimum: Option<usize>,
    counts: Vec<PenaltyCount>,
    seconds: f64,
    /// Checkpoint tables read instead of built (the sat road reads none).
    tables_loaded: Vec<String>,
    /// Lex-leaders the solver listed (sat road only).
    leaders: Option<usize>,
    /// Partials of the level below listed (extension road only).
    refined_partials: Option<usize>,
    /// Their symmetry classes, each refined through one member (extension road only).
    #[serde(skip_serializing_if = "Option::is_none")]
    refined_classes: Option<usize>,
    /// How levels 5 and 6 were counted on the extension road (`lift` or `chains`).
    #[serde(skip_serializing_if = "Option::is_none")]
    refined_via: Option<&'static str>,
    /// The count's record, written by a certified listing at its minimum
    /// (`--certify --penalty P`, with `proofs/nN/levelK-belowP/claim.json`).
    #[serde(skip_serializing_if = "Option::is_none")]
    count_record: Option<std::path::PathBuf>,
    /// How a cube-by-cube listing went (sat road with --leaders-dir only).
    #[serde(skip_serializing_if = "Option::is_none")]
    cubes: Option<CubeListing>,
    /// The pieces of a refinement read back from records (extension road with --pieces-dir only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pieces: Option<PieceListing>,
    /// Every penalty up to a bound was asked for (`--max-penalty`).
    #[serde(skip)]
    up_to: bool,
}

/// The cubes of a sat-road count listed in this run and resumed from
/// records, and the leaves resumed of cubes listed leaf by leaf (whose
/// completeness rests on the runs that wrote them).
#[derive(Serialize)]
struct CubeListing {
    listed: usize,
    resumed: usize,
    leaves_resumed: usize,
    resumed_from: Vec<String>,
    solve_seconds: f64,
    slowest: f64,
}

/// The pieces of an extension-road count, and those resumed from records
/// (whose counts rest on the runs that wrote them).
#[derive(Serialize)]
struct PieceListing {
    total: usize,
    resumed: usize,
    resumed_from: Vec<String>,
}

/// The number of partials of one penalty (a string: counts outgrow JSON's numbers).
#[derive(Serialize)]
struct PenaltyCount {
    penalty: usize,
    count: String,
}

impl CountReport {
    /// What an extension count refined: partials and classes, how levels 5
    /// and 6 were counted, and its pieces when they were recorded.
    fn refined(
        &mut self,
        (partials, classes): (usize, usize),
        settings: &hexcert::counting::CountSettings,
        pieces: hexcert::counting::Pieces,
    ) {
        (self.refined_partials, self.refined_classes) = (Some(partials), Some(classes));
        self.refined_via = (self.level >= 5).then(|| settings.via.name());
        self.pieces = settings.records.is_some().then(|| PieceListing {
            total: pieces.total,
            resumed: pieces.resumed.units,
            resumed_from: pieces.resumed.writers,
        });
    }

    fn new(n: usize, level: u8, road: Road, counts: Vec<(usize, String)>, seconds: f64) -> CountReport {
        let counts = counts.into_iter().map(|(penalty, count)| PenaltyCount { penalty, count }).collect();
        CountReport {
            n,
            level,
            road,
            minimum: None,
            counts,
            seconds,
            tables_loaded: Vec::new(),
            leaders: None,
            refined_partials: None,
            refined_classes: None,
            refined_via: None,
            count_record: None,
            cubes: None,
            pieces: None,
            up_to: false,
        }
    }

    /// The first penalty with a partial, when every penalty below it was counted.
    fn first_found(&self) -> Option<usize> {
        self.counts.iter().find(|c| c.count != "0").map(|c| c.penalty)
    }
}

impl fmt::Display for CountReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let (n, level, seconds) = (self.n, self.level, self.seconds);
        for PenaltyCount { penalty, count } in &self.counts {
            match self.road {
                Road::Sat => {
                    let leaders = self.leaders.unwrap_or(0);
                    writeln!(f, "n={n} level={level} penalty {penalty}: {count} partials (sat road: {leaders} lex-leaders, {seconds:.2} s)")?
                }
                Road::Extension => {
                    let (refined, classes, below) = (self.refined_partials.unwrap_or(0), self.refined_classes.unwrap_or(0), hexcert::counting::extension_source(level));
                    let what = if self.minimum == Some(*penalty) && !self.up_to { "minimum penalty" } else { "penalty" };
                    let via = self.refined_via.map(|v| format!(" by {v}")).unwrap_or_default();
                    writeln!(f, "n={n} level={level} {what} {penalty}: {count} partials (extension road: {refined} level-{below} partials in {classes} symmetry classes refined{via}, {seconds:.2} s)")?
                }
                Road::Sweep | Road::Frontier if self.up_to => writeln!(f, "n={n} level={level} penalty {penalty}: {count}")?,
                Road::Frontier => writeln!(f, "n={n} level={level} penalty {penalty}: {count} partials (frontier road: the sweep at level {level} itself, {seconds:.2} s)")?,
                Road::Sweep => {
                    let what = if self.minimum == Some(*penalty) { "minimum penalty" } else { "penalty" };
                    writeln!(f, "n={n} level={level} {what} {penalty}: {count} partials ({seconds:.2} s)")?
                }
            }
        }
        if let Some(c) = &self.cubes {
            writeln!(
                f,
                "cubes: {} listed in this run ({:.1} s of solving, slowest {:.1} s), {} resumed from records",
                c.listed, c.solve_seconds, c.slowest, c.resumed
            )?;
            if c.resumed + c.leaves_resumed > 0 {
                let leaves = if c.leaves_resumed > 0 {
                    format!(" and {} leaves of cubes listed leaf by leaf", c.leaves_resumed)
                } else {
                    String::new()
                };
                writeln!(f, "unverified: the resumed cubes'{leaves} listings were validated, not proved complete, in this run (written by {})", c.resumed_from.join(", "))?;
            }
        }
        if let Some(p) = &self.pieces {
            writeln!(f, "pieces: {} refined in this run, {} resumed from records", p.total - p.resumed, p.resumed)?;
            if p.resumed > 0 {
                writeln!(f, "unverified: the resumed pieces' counts were read back, not recomputed, in this run (written by {})", p.resumed_from.join(", "))?;
            }
        }
        write_loaded(f, &self.tables_loaded)
    }
}

/// The lines of a count resting on checkpoint tables (or journalled layers)
/// an earlier run built: named, and the result marked unverified.
fn write_loaded(f: &mut fmt::Formatter, loaded: &[String]) -> fmt::Result {
    if loaded.is_empty() {
        return Ok(());
    }
    writeln!(
        f,
        "checkpoint tables loaded (this machine's cache, checked by hash only; docs/COUNTING.md): {}",
        loaded.join(", ")
    )?;
    writeln!(f, "unverified: the loaded tables were built by an earlier run, not in this one")
}

/// The loaded-tables lines as a value to print after streamed rows.
struct Loaded<'a>(&'a [String]);

impl fmt::Display for Loaded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write_loaded(f, self.0)
    }
}

/// Done, or unverified when part of the result is an earlier run's word
/// (loaded tables, resumed pieces or cubes).
fn outcome(earlier_runs: bool) -> Outcome {
    if earlier_runs {
        Outcome::Unverified
    } else {
        Outcome::Done
    }
}

/// `count` on the sweep road, or (`road` frontier) on the sweep at levels 5
/// and 6 themselves instead of the chain products over level 4.
pub fn count(
    context: &RunContext,
    (n, level, road): (usize, u8, Road),
    penalty: Option<usize>,
    max_penalty: Option<usize>,
    settings: &hexcert::counting::CountSettings,
) -> Result<Reported, HexError> {
    use hexcert::counting::{Count, Method};
    let method = match road {
        Road::Frontier if level < 5 => {
            return Err(HexError::Usage(format!(
                "--road frontier counts levels 5 and 6 (level {level} is the sweep road already)"
            )));
        }
        Road::Frontier if penalty.or(max_penalty).is_none() => {
            return Err(HexError::Usage("--road frontier needs --penalty P or --max-penalty B".into()));
        }
        Road::Frontier => Method::Frontier,
        _ => Method::default_for(level),
    };
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::new(context);
    progress.working(format!("n={n}: counting level-{level} partials"));
    let started = std::time::Instant::now();
    let query = Count::new(&hex, level).with_method(method).with_settings(settings.clone());
    let (counts, minimum_known) = match penalty.or(max_penalty) {
        Some(bound) => (asked(&query.by_penalty(bound)?.counts, penalty), false),
        None => {
            let (p, count) = query.minimum_and_count()?;
            (vec![(p, count.to_string())], true)
        }
    };
    drop(progress);
    let mut report = CountReport::new(n, level, road, counts, started.elapsed().as_secs_f64());
    report.up_to = max_penalty.is_some();
    report.minimum = if report.up_to || minimum_known { report.first_found() } else { None };
    report.tables_loaded = tables_loaded(settings);
    let outcome = outcome(!report.tables_loaded.is_empty());
    Ok(Reported::new(report, outcome))
}

/// The checkpoint tables a count used instead of building them.
fn tables_loaded(settings: &hexcert::counting::CountSettings) -> Vec<String> {
    settings.tables_loaded().iter().map(|p| p.display().to_string()).collect()
}

/// How `count` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Road {
    Sweep,
    Sat,
    /// Levels 2..6: the partials of the level below (of level 3 for levels 4..6) extended one by one.
    // `refine`, its name before "refine" was left to the cubes, is kept as a
    // hidden alias on the command line and as the name `--json` reports,
    // which scripts and snapshots read.
    #[value(alias = "refine")]
    #[serde(rename = "refine")]
    Extension,
    /// Levels 5 and 6: the sweep at the level itself, not the chain products
    /// over the level-4 partials (the sweep road's default there).
    Frontier,
}

/// `count --road extension`: level-2..6 counts by refinement of the partials
/// of the level below: the minimum and its count, or (`--penalty P`,
/// `--max-penalty B`) the counts up to a bound (counting::extension).
pub fn count_extension(
    context: &RunContext,
    (n, level): (usize, u8),
    (penalty, max_penalty): (Option<usize>, Option<usize>),
    settings: &hexcert::counting::CountSettings,
) -> Result<Reported, HexError> {
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::new(context);
    progress.working(format!("n={n}: refining the level-{} partials to level {level}", level.saturating_sub(1)));
    let started = std::time::Instant::now();
    let (counts, minimum, refined, pieces) = match penalty.or(max_penalty) {
        None => {
            let found = hexcert::counting::Count::new(&hex, level).with_settings(settings.clone()).extended()?;
            (
                vec![(found.minimum, found.count.to_string())],
                Some(found.minimum),
                (found.refined, found.classes),
                found.pieces,
            )
        }
        Some(bound) => {
            let found = hexcert::counting::Count::new(&hex, level)
                .with_settings(settings.clone())
                .extended_by_penalty(bound)?;
            (asked(&found.counts, penalty), None, (found.refined, found.classes), found.pieces)
        }
    };
    drop(progress);
    let mut report = CountReport::new(n, level, Road::Extension, counts, started.elapsed().as_secs_f64());
    report.up_to = max_penalty.is_some();
    report.minimum = if report.up_to { report.first_found() } else { minimum };
    report.tables_loaded = tables_loaded(settings);
    let outcome = outcome(pieces.resumed.units > 0 || !report.tables_loaded.is_empty());
    report.refined(refined, settings, pieces);
    Ok(Reported::new(report, outcome))
}

/// `count --road extension --from-listing DIR`: levels 4..6 at a certified
/// level-3 listing's penalty (5 and 6 at a level-4 one's), each class of its partials lifted
/// (`counting::extended_from_listed`), its record written into `record_to`
/// when given. Unverified (exit 4): the listing's cube verdicts are
/// recorded ones.
pub fn count_lifted(
    context: &RunContext,
    (n, level): (usize, u8),
    (dir, record_to): (&Path, Option<&Path>),
    settings: &hexcert::counting::CountSettings,
) -> Result<Reported, HexError> {
    let started = std::time::Instant::now();
    let (record, listed) = hexcert::verify::counts::listed_partials(dir)?;
    if record.n != n {
        return Err(HexError::Usage(format!(
            "--from-listing needs a listing of n = {n}; {} is of n = {}",
            dir.display(),
            record.n
        )));
    }
    // Refused before the lift (hours at large n): a record `check` would fail is not written.
    if let Some(cell) = record_to {
        let cell_name = hexcert::records::leaders::count_cell(n, level, record.penalty, None);
        if cell.file_name().is_none_or(|name| name.to_string_lossy() != cell_name) {
            return Err(HexError::Usage(format!(
                "--record-to {}: the lift of n = {n} level {level} at {} is kept in a directory named {cell_name}",
                cell.display(),
                record.penalty
            )));
        }
        hexcert::verify::lift::certifying_optimum(&dir.join("count.json"), &record, (level, record.penalty))
            .map_err(|why| HexError::Usage(format!("--record-to: {why}")))?;
    }
    let progress = crate::progress::Progress::new(context);
    progress.working(format!(
        "n={n}: lifting the {} level-{} partials of penalty {} to level {level}",
        listed.len(),
        record.level,
        record.penalty
    ));
    let found = hexcert::counting::extended_from_listed(
        &Hexagon::new(n)?,
        (record.level, level),
        &listed,
        record.penalty,
        settings,
    )?;
    drop(progress);
    let mut report = CountReport::new(
        n,
        level,
        Road::Extension,
        asked(&found.counts, Some(record.penalty)),
        started.elapsed().as_secs_f64(),
    );
    report.refined((found.refined, found.classes), settings, found.pieces);
    if let Some(why) = record_to.and_then(|_| hexcert::verify::lift::off_minimum(level, record.penalty, &found.counts))
    {
        return Err(HexError::Usage(format!("--record-to: nothing written: {why}")));
    }
    if let Some(cell) = record_to {
        use hexcert::records::lift::{LiftRecord, LIFT_FORMAT};
        let (listing, penalty) = (hexcert::files::relative_to(cell, dir)?, record.penalty);
        let (count, seconds, via) =
            (found.counts[penalty].to_string(), report.seconds, report.refined_via.unwrap_or("lift").into());
        let (listing_count, written_by) = (record.count.clone(), hexcert::run::attestation());
        LiftRecord {
            format: LIFT_FORMAT.into(),
            n,
            level,
            penalty,
            listing,
            listing_count,
            via,
            classes: found.classes,
            count,
            seconds,
            written_by,
        }
        .write_into(cell)?;
    }
    Ok(Reported::new(report, Outcome::Unverified))
}

/// The counts a user asked for: the one at `penalty`, or else every one
/// (the counts run from penalty 0).
fn asked<T: ToString>(counts: &[T], penalty: Option<usize>) -> Vec<(usize, String)> {
    match penalty {
        Some(p) => vec![(p, counts[p].to_string())],
        None => counts.iter().map(T::to_string).enumerate().collect(),
    }
}

/// `count --road sat`: partials of penalty P (or up to B) through the listed lex-leaders; with `leaders_dir`, cube by
/// cube, resumable; `certified` (verified checker, leaf split) proves each cube's list complete (`certify::listing`).
#[cfg(feature = "solver")]
pub fn count_sat(
    context: &RunContext,
    n: usize,
    level: u8,
    (penalty, max_penalty): (Option<usize>, Option<usize>),
    (leaders_dir, certified): (
        Option<&Path>,
        Option<(Option<&hexcert::proofs::verified::VerifiedChecker>, Option<hexcert::certify::leaf_tree::LeafSplit>)>,
    ),
) -> Result<Reported, HexError> {
    let certify = certified.is_some();
    let bound = penalty
        .or(max_penalty)
        .ok_or_else(|| HexError::Usage("--road sat needs --penalty P or --max-penalty B".into()))?;
    let hex = Hexagon::new(n)?;
    let minimum_claim = certify
        .then(|| hexcert::certify::count::listing_claim(Path::new("proofs"), n, level, (penalty, bound)))
        .transpose()?
        .flatten();
    if let (Some(dir), Some((_, minimum))) = (leaders_dir, &minimum_claim) {
        hexcert::certify::count::check_listing_cell(dir, n, level, (bound, *minimum))?;
    }
    let progress = crate::progress::Progress::new(context);
    progress.working(format!("n={n}: listing level-{level} lex-leaders of penalty <= {bound}"));
    let started = std::time::Instant::now();
    let (found, listing) = match leaders_dir {
        None => (
            hexcert::search::orbits::orbit_count::<Cadical>(
                &hex,
                level,
                bound,
                hexcert::options::SAT_ROAD_LEADERS.default,
            )?,
            None,
        ),
        Some(dir) => {
            let on_cube = |done: usize, total: usize| {
                progress.working(format!(
                    "n={n}: level-{level} lex-leaders of penalty <= {bound}, cube {done} of {total} done"
                ))
            };
            let (found, listing) = if let Some((verified, leaves)) = certified {
                let on_leaf =
                    |cube: u64, path: &[i32], news| progress.event(format!("cube {cube}, leaf {path:?}: {news}"));
                hexcert::certify::count::count_certified(
                    &hex,
                    (level, bound),
                    (dir, verified, leaves),
                    context.stop_flag(),
                    (&on_cube, &on_leaf),
                )?
            } else {
                hexcert::search::orbits::orbit_count_by_cubes::<Cadical>(
                    &hex,
                    level,
                    bound,
                    Some(dir),
                    context.stop_flag(),
                    &on_cube,
                )?
            };
            (found, Some(listing))
        }
    };
    drop(progress);
    let mut report =
        CountReport::new(n, level, Road::Sat, asked(&found.by_penalty, penalty), started.elapsed().as_secs_f64());
    report.leaders = Some(found.leaders);
    report.minimum = if penalty.is_none() { report.first_found() } else { None };
    if let (Some(dir), Some((claim, minimum))) = (leaders_dir, &minimum_claim) {
        report.count_record = hexcert::certify::count::write_count_record(
            dir,
            &hex,
            (level, bound),
            &found.by_penalty,
            (claim, *minimum),
        )?;
    }
    let resumed = listing.as_ref().is_some_and(|l| l.resumed.units + l.resumed_leaves.units > 0);
    report.cubes = listing.map(|l| CubeListing {
        listed: l.listed,
        resumed: l.resumed.units,
        leaves_resumed: l.resumed_leaves.units,
        resumed_from: l.writers(),
        solve_seconds: l.seconds,
        slowest: l.slowest,
    });
    Ok(Reported::new(report, outcome(resumed)))
}

/// `table`: one row per n, each level's minimum and count.
#[derive(Serialize)]
pub struct TableReport {
    table: TableKind,
    rows: Vec<TableRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tables_loaded: Vec<String>,
}

#[derive(Serialize)]
struct TableRow {
    n: usize,
    levels: Vec<TableCell>,
    #[serde(skip)]
    kind: TableKind,
}

#[derive(Serialize)]
struct TableCell {
    level: u8,
    minimum: usize,
    count: String,
    /// Counts at the minimum + 1, + 2, ... (`table counts --above`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    above: Vec<String>,
    seconds: f64,
}

const TABLE_HEADER: &str = "| n | L1 | L2 | L3 | L4 | L5 | L6 | seconds per level |\n|---|---|---|---|---|---|---|---|";

impl fmt::Display for TableRow {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let cells: Vec<String> = self
            .levels
            .iter()
            .map(|e| match self.kind {
                TableKind::Counts => std::iter::once(&e.count).chain(&e.above).cloned().collect::<Vec<_>>().join(" / "),
                TableKind::Penalties => e.minimum.to_string(),
            })
            .collect();
        let times: Vec<String> = self.levels.iter().map(|e| format!("{:.2}", e.seconds)).collect();
        write!(f, "| {} | {} | {} |", self.n, cells.join(" | "), times.join(" "))
    }
}

impl fmt::Display for TableReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "{TABLE_HEADER}")?;
        self.rows.iter().try_for_each(|row| writeln!(f, "{row}"))?;
        write!(f, "{}", Loaded(&self.tables_loaded))
    }
}

pub fn table(
    json: bool,
    context: &RunContext,
    (kind, above): (TableKind, usize),
    (first, last): (usize, usize),
    settings: &dyn Fn(usize) -> Result<hexcert::counting::CountSettings, HexError>,
) -> Result<Reported, HexError> {
    use hexcert::counting::Count;
    if above > 0 && kind == TableKind::Penalties {
        return Err(HexError::Usage(
            "--above counts the partials near each minimum: use it with `table counts`".into(),
        ));
    }
    let stream = Rows::start(json, TABLE_HEADER);
    let mut rows = Vec::new();
    let mut loaded = Vec::new();
    let progress = crate::progress::Progress::new(context);
    for n in first..=last {
        progress.working(format!("n={n}: counting levels 1..6"));
        let settings = settings(n)?;
        let entries = Count::new(&Hexagon::new(n)?, 6).with_settings(settings.clone()).row(above)?;
        loaded.extend(tables_loaded(&settings));
        progress.working(String::new());
        let levels = entries
            .iter()
            .map(|e| TableCell {
                level: e.level,
                minimum: e.minimum,
                count: e.count.to_string(),
                above: e.above.iter().map(ToString::to_string).collect(),
                seconds: e.elapsed.as_secs_f64(),
            })
            .collect();
        let row = TableRow { n, levels, kind };
        stream.row(&row);
        rows.push(row);
    }
    let report = TableReport { table: kind, rows, tables_loaded: loaded };
    stream.after(Loaded(&report.tables_loaded));
    let outcome = outcome(!report.tables_loaded.is_empty());
    Ok(stream.finish(Reported::new(report, outcome)))
}
