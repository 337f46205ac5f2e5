//! `hexcert recount`: a lifted cell's classes counted again by an external
//! exact model counter (`hexcert::recount`), into `recount.json` beside
//! `lift.json`; and the lift's own count of each class (`classes.json`),
//! which `count --record-to` writes and the recount reads.

use std::path::Path;
use std::time::Instant;

use hexcert::counting::ClassCount;
use hexcert::error::HexError;
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::outcome::Outcome;
use hexcert::records::lift::LiftRecord;
use hexcert::records::recount::{
    write_into, LiftClasses, RecountRecord, CLASSES_FORMAT, RECOUNT_ENCODING, RECOUNT_FORMAT,
};
use hexcert::records::Record;
use hexcert::recount::{chosen, recount_class, zeros_below, ExternalCounter};

use super::report::Reported;

/// The lift's classes as `classes.json` holds them: each least member by
/// its index in `listed` (the listing as `listed_partials` reads it).
///
/// # Errors
///
/// `HexError::Internal` when a class's least member is not in `listed`.
pub fn lift_classes(
    record: &LiftRecord,
    listed: &[(Partial, usize)],
    by_class: &[ClassCount],
) -> Result<LiftClasses, HexError> {
    let index: std::collections::HashMap<&[u8], usize> =
        listed.iter().enumerate().map(|(i, (partial, _))| (partial.values(), i)).collect();
    let leaders = by_class
        .iter()
        .map(|class| index.get(class.values.as_slice()).copied())
        .collect::<Option<Vec<usize>>>()
        .ok_or_else(|| HexError::Internal("a lifted class's least member is not in the listing".into()))?;
    Ok(LiftClasses {
        format: CLASSES_FORMAT.into(),
        n: record.n,
        level: record.level,
        penalty: record.penalty,
        leaders,
        members: by_class.iter().map(|class| class.members as u32).collect(),
        penalties: by_class.iter().map(|class| class.penalty).collect(),
        counts: by_class.iter().map(|class| class.counts[record.penalty - class.penalty].to_string()).collect(),
    })
}

/// Writes a lift's record into `cell`, and beside it each class's count
/// (`classes.json`), for a class checked or recounted alone; a run that
/// read pieces back from records (`by_class` none) has their sums only,
/// and leaves any earlier classes.json alone.
///
/// # Errors
///
/// `lift_classes`'s, and `HexError::Io` when a file cannot be written.
pub fn write_lift(
    record: &LiftRecord,
    cell: &Path,
    listed: &[(Partial, usize)],
    by_class: Option<&[ClassCount]>,
) -> Result<(), HexError> {
    let classes = by_class.map(|by| lift_classes(record, listed, by)).transpose()?;
    record.write_into(cell)?;
    classes.map_or(Ok(()), |classes| write_into(&classes, cell, LiftClasses::FILE))
}

/// What a recount did.
#[derive(serde::Serialize)]
pub struct RecountReport {
    cell: String,
    counter: String,
    /// Classes recounted (this run and the runs it resumed), of `classes`:
    /// by the counter, or known to count nothing from the level below.
    recounted: usize,
    /// Of those, the ones the recount of the level below counted nothing.
    refined: usize,
    classes: usize,
    /// Classes the recount is to count (every one, or the sample's).
    wanted: usize,
    /// Rows of classes.json whose recount differs from the lift's count.
    disagree: Vec<usize>,
    seconds: f64,
}

impl std::fmt::Display for RecountReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{}: {} of {} classes recounted, {} by {}{} ({} to recount), {} disagreeing with the lift{}; {:.1} s",
            self.cell,
            self.recounted,
            self.classes,
            self.recounted - self.refined,
            self.counter,
            match self.refined {
                0 => String::new(),
                refined => format!(" and {refined} counting nothing at the level below"),
            },
            self.wanted,
            self.disagree.len(),
            if self.disagree.is_empty() { String::new() } else { format!(" (rows {:?})", self.disagree) },
            self.seconds
        )
    }
}

/// Seconds between two writes of the record during a run.
const SAVE_EVERY: f64 = 30.0;

/// Recounts the classes of the lifted cell `cell` with the counter
/// `program`: every class, or with `sample` every class the lift counts
/// some refinement of and a sample of the others; a `recount.json` of the
/// same choice is resumed, and the record is written every 30 s and at the end.
///
/// # Errors
///
/// `HexError::Usage` when the cell has no lift record or no classes.json;
/// the record readers', the listing's and the counter's errors.
pub fn recount(cell: &Path, sample: Option<(usize, u64)>, program: &Path) -> Result<Reported, HexError> {
    let started = Instant::now();
    let Record::Lift(record) = Record::read(&cell.join("lift.json"))? else {
        return Err(HexError::Usage(format!("{}: no lifted count (lift.json) to recount", cell.display())));
    };
    let classes_file = cell.join(LiftClasses::FILE);
    if !classes_file.is_file() {
        return Err(HexError::Usage(format!(
            "{}: no classes.json (count --road extension --from-listing DIR --record-to CELL writes it)",
            cell.display()
        )));
    }
    let classes: LiftClasses = hexcert::records::read_json(&classes_file)?;
    if [classes.leaders.len(), classes.penalties.len()] != [classes.counts.len(); 2] {
        return Err(HexError::Input {
            file: classes_file,
            line: 0,
            message: "its columns are not of one length".into(),
        });
    }
    let (_, listed) = hexcert::verify::counts::listed_partials(&cell.join(&record.listing))?;
    let hex = Hexagon::new(record.n)?;
    let mut counter = ExternalCounter::start(program)?;
    let zero: Vec<bool> = classes.counts.iter().map(|c| c == "0").collect();
    let wanted = chosen(&zero, sample);
    let mut done = resumed(cell, &record, &counter.name, sample);
    let mut saved = Instant::now();
    let kept = take_refined(cell, (&record, &classes), &wanted, &mut done)?;
    for &row in wanted.iter().filter(|row| !kept.contains(row)) {
        let values = listed
            .get(classes.leaders[row])
            .ok_or_else(|| {
                HexError::Usage(format!("{}: row {row} names no partial of the listing", classes_file.display()))
            })?
            .0
            .values();
        let added = record.penalty.checked_sub(classes.penalties[row]).ok_or_else(|| {
            HexError::Usage(format!("{}: row {row} is above the cell's penalty", classes_file.display()))
        })?;
        let (count, seconds) = recount_class(&mut counter, &hex, values, (record.level, added))?;
        let at = done.rows.partition_point(|&r| r < row);
        done.rows.insert(at, row);
        done.counts.insert(at, count.to_string());
        done.seconds.insert(at, seconds);
        if saved.elapsed().as_secs_f64() > SAVE_EVERY {
            write_into(&done, cell, RecountRecord::FILE)?;
            eprintln!("recount {}: {} of {} classes", cell.display(), done.rows.len(), wanted.len());
            saved = Instant::now();
        }
    }
    write_into(&done, cell, RecountRecord::FILE)?;
    let disagree: Vec<usize> = done
        .rows
        .iter()
        .zip(&done.counts)
        .filter(|&(&row, count)| *count != classes.counts[row])
        .map(|(&row, _)| row)
        .chain(done.refined.iter().copied().filter(|&row| classes.counts[row] != "0"))
        .collect();
    let outcome = if disagree.is_empty() { Outcome::Done } else { Outcome::Negative };
    let report = RecountReport {
        cell: cell.display().to_string(),
        counter: counter.name.clone(),
        recounted: done.rows.len() + done.refined.len(),
        refined: done.refined.len(),
        classes: classes.counts.len(),
        wanted: wanted.len(),
        disagree,
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok(Reported::new(report, outcome))
}

/// Takes into `done.refined` the `wanted` classes that the cell of the
/// level below counts nothing on both roads (`recount::zeros_below`): a
/// class with no refinement there has none here, so it is not counted
/// again. The classes `done` holds now, counted or refined.
///
/// # Errors
///
/// `zeros_below`'s.
fn take_refined(
    cell: &Path,
    (record, classes): (&LiftRecord, &LiftClasses),
    wanted: &[usize],
    done: &mut RecountRecord,
) -> Result<std::collections::HashSet<usize>, HexError> {
    let mut kept: std::collections::HashSet<usize> = done.rows.iter().chain(&done.refined).copied().collect();
    if let Some((below, zeros)) = zeros_below(cell, record, classes)? {
        let before = done.refined.len();
        done.refined.extend(wanted.iter().filter(|row| zeros.contains(row) && !kept.contains(row)));
        done.refined.sort_unstable();
        kept.extend(done.refined.iter().copied());
        eprintln!(
            "recount {}: {} classes count nothing at level {} ({})",
            cell.display(),
            done.refined.len() - before,
            record.level - 1,
            below.display()
        );
    }
    Ok(kept)
}

/// The cell's `recount.json` when it is of this choice and counter (its
/// rows are kept), else an empty record of them.
fn resumed(cell: &Path, record: &LiftRecord, counter: &str, sample: Option<(usize, u64)>) -> RecountRecord {
    let fresh = RecountRecord {
        format: RECOUNT_FORMAT.into(),
        n: record.n,
        level: record.level,
        penalty: record.penalty,
        encoding: RECOUNT_ENCODING.into(),
        counter: counter.into(),
        seed: sample.map(|(_, seed)| seed),
        sample: sample.map(|(sample, _)| sample),
        rows: Vec::new(),
        counts: Vec::new(),
        seconds: Vec::new(),
        refined: Vec::new(),
        written_by: hexcert::run::attestation(),
    };
    match hexcert::records::read_json::<RecountRecord>(&cell.join(RecountRecord::FILE)) {
        Ok(old)
            if (RecountRecord {
                rows: Vec::new(),
                counts: Vec::new(),
                seconds: Vec::new(),
                refined: Vec::new(),
                written_by: fresh.written_by.clone(),
                ..old.clone()
            }) == fresh =>
        {
            RecountRecord { written_by: fresh.written_by, ..old }
        }
        _ => fresh,
    }
}
