//! table: one row per n of each level's minimum (or its count), from the
//! counts of `count`'s sweep road.
//!
//! `table` streams its text rows as each n is counted (a row can take
//! hours at large n, and the rows printed so far are results); its report
//! is one typed value, printed whole at the end with `--json`.

use std::fmt;
use std::path::{Path, PathBuf};

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
    /// The results as the records state them (`results::markdown`).
    Results,
    /// docs/CLI.md: the prose of src/cli/doc.md and every command's help.
    Cli,
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
                TableKind::Penalties | TableKind::Results | TableKind::Cli => e.minimum.to_string(),
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

/// How `table` counts each side, and the record it writes (`--record`) with how levels 5 and 6 were counted.
pub type TableSettings<'a> =
    (&'a dyn Fn(usize) -> Result<hexcert::counting::CountSettings, HexError>, Option<&'a Path>, &'a str);

pub fn table(
    json: bool,
    context: &RunContext,
    (kind, above): (TableKind, usize),
    (first, last): (usize, usize),
    (settings, record, upper): TableSettings,
) -> Result<Reported, HexError> {
    use hexcert::counting::Count;
    if above > 0 && kind == TableKind::Penalties {
        return Err(HexError::Usage(
            "--above counts the partials near each minimum: use it with `table counts`".into(),
        ));
    }
    if record.is_some() && (kind != TableKind::Counts || above > 0) {
        return Err(HexError::Usage("--record writes the counts at the minima: use it with `table counts`".into()));
    }
    let started = std::time::Instant::now();
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
    if let Some(path) = record {
        count_table(&rows, upper, started.elapsed().as_secs_f64(), &loaded).write(path)?;
    }
    let report = TableReport { table: kind, rows, tables_loaded: loaded };
    stream.after(Loaded(&report.tables_loaded));
    let outcome = outcome(!report.tables_loaded.is_empty());
    Ok(stream.finish(Reported::new(report, outcome)))
}

/// The rows as a count table record: the command as typed, the rows as computed.
fn count_table(rows: &[TableRow], upper: &str, seconds: f64, loaded: &[String]) -> hexcert::records::table::CountTable {
    use hexcert::records::table::{CountRow, CountTable, COUNT_TABLE_FORMAT};
    let command: Vec<String> = std::iter::once("hexcert".to_string()).chain(std::env::args().skip(1)).collect();
    CountTable {
        format: COUNT_TABLE_FORMAT.into(),
        command: command.join(" "),
        upper: upper.into(),
        rows: rows
            .iter()
            .map(|row| CountRow {
                n: row.n,
                minima: row.levels.iter().map(|e| e.minimum).collect(),
                counts: row.levels.iter().map(|e| e.count.clone()).collect(),
            })
            .collect(),
        seconds,
        tables_loaded: loaded.to_vec(),
        hexcert: hexcert::records::this_build(),
        written_by: hexcert::run::attestation(),
    }
}

/// `table results`: the results the records under `root` state, printed, or
/// written into the marked blocks of each file of `write`.
pub struct ResultsReport {
    text: String,
    written: Vec<(String, Vec<String>)>,
}

impl Serialize for ResultsReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1))?;
        if self.written.is_empty() {
            map.serialize_entry("markdown", &self.text)?;
        } else {
            map.serialize_entry("written", &self.written)?;
        }
        map.end()
    }
}

impl fmt::Display for ResultsReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.written.is_empty() {
            return write!(f, "{}", self.text);
        }
        for (file, blocks) in &self.written {
            writeln!(f, "{file}: blocks {} written from the records", blocks.join(", "))?;
        }
        Ok(())
    }
}

/// The outcome is `Done`: a plain read of what the records state, no verdict of its own.
pub fn results(root: &Path, write: &[PathBuf]) -> Result<Reported, HexError> {
    let results = hexcert::results::collect(&hexcert::results::Sources::under(root))?;
    let mut written = Vec::new();
    for file in write {
        written.push((file.display().to_string(), hexcert::results::embed::write(file, &results)?));
    }
    let text = hexcert::results::markdown::all(&results);
    Ok(Reported::new(ResultsReport { text, written }, hexcert::outcome::Outcome::Done))
}
