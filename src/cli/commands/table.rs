//! table: one row per n of each level's minimum (or its count), from the
//! counts of `count`'s sweep road.
//!
//! `table` streams its text rows as each n is counted (a row can take
//! hours at large n, and the rows printed so far are results); its report
//! is one typed value, printed whole at the end with `--json`.

use std::fmt;

use serde::Serialize;

use super::count_report::Loaded;
use super::counts::{outcome, tables_loaded};
use super::report::{Reported, Rows};
use hexcert::context::RunContext;
use hexcert::error::HexError;
use hexcert::geometry::Hexagon;

/// Which table `hexcert table` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TableKind {
    /// Number of minimum-penalty partials at each level.
    Counts,
    /// Minimum penalty at each level.
    Penalties,
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
