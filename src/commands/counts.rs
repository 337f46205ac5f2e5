//! count and table: exact counts and the tables printed from them.
//!
//! `table` streams its text rows as each n is counted (a row can take
//! hours at large n, and the rows printed so far are results); its report
//! is one typed value, printed whole at the end with `--json`.

use std::fmt;

use serde::Serialize;

use super::report::{Reported, Rows};
use hexcert::error::HexError;
use hexcert::geometry::Hexagon;
use hexcert::outcome::Outcome;
use hexcert::solving::Cadical;

/// Which table `hexcert table` prints.
#[derive(Debug, Clone, Copy, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TableKind {
    /// Number of minimum-penalty partials at each level.
    Counts,
    /// Minimum penalty at each level.
    Penalties,
}

/// `count`: what was counted, by which road, and in how long.
#[derive(Serialize)]
#[serde(untagged)]
pub enum CountReport {
    /// The sweep's count of every penalty up to a bound.
    ByPenalty { n: usize, level: u8, counts_by_penalty: Vec<String>, minimum: Option<usize>, seconds: f64, tables_loaded: Vec<String> },
    /// The sweep's count of one penalty (the minimum unless one was named).
    AtPenalty { n: usize, level: u8, penalty: usize, is_minimum: bool, count: String, seconds: f64, tables_loaded: Vec<String> },
    /// The refine road's level-4 minimum and count.
    Refined {
        n: usize,
        level: u8,
        road: Road,
        penalty: usize,
        is_minimum: bool,
        count: String,
        level3_partials: usize,
        seconds: f64,
        tables_loaded: Vec<String>,
    },
    /// The sat road's counts of the penalties asked for.
    Listed { n: usize, level: u8, road: Road, penalties: Vec<usize>, counts: Vec<String>, leaders: usize, seconds: f64 },
}

impl fmt::Display for CountReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let tables = match self {
            CountReport::ByPenalty { n, level, counts_by_penalty, tables_loaded, .. } => {
                for (p, c) in counts_by_penalty.iter().enumerate() {
                    writeln!(f, "n={n} level={level} penalty {p}: {c}")?;
                }
                tables_loaded
            }
            CountReport::AtPenalty { n, level, penalty, is_minimum, count, seconds, tables_loaded } => {
                let what = if *is_minimum { "minimum penalty" } else { "penalty" };
                writeln!(f, "n={n} level={level} {what} {penalty}: {count} partials ({seconds:.2} s)")?;
                tables_loaded
            }
            CountReport::Refined { n, penalty, count, level3_partials, seconds, tables_loaded, .. } => {
                writeln!(f, "n={n} level=4 minimum penalty {penalty}: {count} partials (refine road: {level3_partials} level-3 partials refined, {seconds:.2} s)")?;
                tables_loaded
            }
            CountReport::Listed { n, level, penalties, counts, leaders, seconds, .. } => {
                for (p, c) in penalties.iter().zip(counts) {
                    writeln!(f, "n={n} level={level} penalty {p}: {c} partials (sat road: {leaders} lex-leaders, {seconds:.2} s)")?;
                }
                return Ok(());
            }
        };
        if !tables.is_empty() {
            writeln!(f, "checkpoint tables loaded (this machine's cache, checked by hash only; docs/COUNTING.md): {}", tables.join(", "))?;
        }
        Ok(())
    }
}

pub fn count(
    quiet: bool,
    n: usize,
    level: u8,
    penalty: Option<usize>,
    max_penalty: Option<usize>,
    settings: &hexcert::counting::Settings,
) -> Result<Reported, HexError> {
    use hexcert::counting::{count_at_in, count_by_penalty_in, minimum_and_count_in, Method};
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::new(quiet);
    progress.working(format!("n={n}: counting level-{level} partials"));
    let started = std::time::Instant::now();
    let report = if let Some(bound) = max_penalty {
        let counts = count_by_penalty_in(&hex, level, bound, Method::default_for(level), settings)?;
        let counts_by_penalty = counts.counts.iter().map(|c| c.to_string()).collect();
        let seconds = started.elapsed().as_secs_f64();
        CountReport::ByPenalty { n, level, counts_by_penalty, minimum: counts.minimum(), seconds, tables_loaded: tables_loaded(settings) }
    } else {
        let (penalty, count, is_minimum) = match penalty {
            Some(p) => (p, count_at_in(&hex, level, p, settings)?, false),
            None => {
                let (p, count) = minimum_and_count_in(&hex, level, settings)?;
                (p, count, true)
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        CountReport::AtPenalty { n, level, penalty, is_minimum, count: count.to_string(), seconds, tables_loaded: tables_loaded(settings) }
    };
    drop(progress);
    Ok(Reported::new(report, Outcome::Done))
}

/// The checkpoint tables a count used instead of building them.
fn tables_loaded(settings: &hexcert::counting::Settings) -> Vec<String> {
    settings.tables_loaded().iter().map(|p| p.display().to_string()).collect()
}

/// How `count` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Road {
    Sweep,
    Sat,
    /// Level 4 at its minimum: the level-3 partials refined one by one.
    Refine,
}

/// `count --road refine`: the level-4 minimum and its count by refinement of
/// the level-3 partials (counting::level4_by_refinement).
pub fn count_refine(quiet: bool, (n, level): (usize, u8), at: Option<usize>, settings: &hexcert::counting::Settings) -> Result<Reported, HexError> {
    if level != 4 || at.is_some() {
        return Err(HexError::Usage("--road refine counts level 4 at its minimum (no --penalty or --max-penalty)".into()));
    }
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::new(quiet);
    progress.working(format!("n={n}: refining the level-3 partials to level 4"));
    let started = std::time::Instant::now();
    let found = hexcert::counting::level4_by_refinement(&hex, settings)?;
    drop(progress);
    let report = CountReport::Refined {
        n,
        level: 4,
        road: Road::Refine,
        penalty: found.minimum,
        is_minimum: true,
        count: found.count.to_string(),
        level3_partials: found.level3_partials,
        seconds: started.elapsed().as_secs_f64(),
        tables_loaded: tables_loaded(settings),
    };
    Ok(Reported::new(report, Outcome::Done))
}

/// `count --road sat`: partials of penalty P (or of every penalty up to B)
/// through the lex-leaders the solver lists.
pub fn count_sat(quiet: bool, n: usize, level: u8, penalty: Option<usize>, max_penalty: Option<usize>) -> Result<Reported, HexError> {
    let Some(bound) = penalty.or(max_penalty) else {
        return Err(HexError::Usage("--road sat needs --penalty P or --max-penalty B".into()));
    };
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::new(quiet);
    progress.working(format!("n={n}: listing level-{level} lex-leaders of penalty <= {bound}"));
    let started = std::time::Instant::now();
    let found = hexcert::search::orbits::orbit_count::<Cadical>(&hex, level, bound, hexcert::options::SAT_ROAD_LEADERS.default)?;
    drop(progress);
    let seconds = started.elapsed().as_secs_f64();
    let penalties: Vec<usize> = match penalty {
        Some(p) => vec![p],
        None => (0..=bound).collect(),
    };
    let counts = penalties.iter().map(|&p| found.by_penalty[p].to_string()).collect();
    let report = CountReport::Listed { n, level, road: Road::Sat, penalties, counts, leaders: found.leaders, seconds };
    Ok(Reported::new(report, Outcome::Done))
}

/// `table`: one row per n, each level's minimum and count.
#[derive(Serialize)]
pub struct TableReport {
    table: TableKind,
    rows: Vec<TableRow>,
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
    seconds: f64,
}

const TABLE_HEADER: &str = "| n | L1 | L2 | L3 | L4 | L5 | L6 | seconds per level |\n|---|---|---|---|---|---|---|---|";

impl fmt::Display for TableRow {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let cells: Vec<String> = self
            .levels
            .iter()
            .map(|e| match self.kind {
                TableKind::Counts => e.count.clone(),
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
        self.rows.iter().try_for_each(|row| writeln!(f, "{row}"))
    }
}

pub fn table(
    json: bool,
    quiet: bool,
    kind: TableKind,
    (first, last): (usize, usize),
    settings: &dyn Fn(usize) -> Result<hexcert::counting::Settings, HexError>,
) -> Result<Reported, HexError> {
    use hexcert::counting::count_row_in;
    let stream = Rows::start(json, TABLE_HEADER);
    let mut rows = Vec::new();
    let progress = crate::progress::Progress::new(quiet);
    for n in first..=last {
        progress.working(format!("n={n}: counting levels 1..6"));
        let entries = count_row_in(&Hexagon::new(n)?, 6, &settings(n)?)?;
        progress.working(String::new());
        let levels = entries
            .iter()
            .map(|e| TableCell { level: e.level, minimum: e.minimum, count: e.count.to_string(), seconds: e.elapsed.as_secs_f64() })
            .collect();
        let row = TableRow { n, levels, kind };
        stream.row(&row);
        rows.push(row);
    }
    Ok(stream.finish(Reported::new(TableReport { table: kind, rows }, Outcome::Done)))
}
