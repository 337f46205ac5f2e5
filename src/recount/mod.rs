//! A second road to a lift's classes: each class's refinements recounted by
//! an exact model counter, an external program, on a plain CNF of them
//! (`cnf`), written apart from the lift (`counting::extension`), whose code
//! this module does not use (tests/module_graph.rs holds it to that).
//!
//! The counter is a program that reads DIMACS formulas on its standard input
//! and answers each with a line `COUNT SECONDS`, after a first line naming
//! itself (tools/ganak-count.py drives Ganak through `pyganak`). It runs as
//! cake_lpr does: apart, its answers read and recorded, its code no part of
//! hexcert.
//!
//! Which classes: every one, or (`--sample K --seed S`) every one the lift
//! counts some refinement of and `K` of the rest drawn by `S` (`chosen`), so
//! that a recount of a side whose classes mostly count nothing still
//! judges the classes that make the count and a fair share of the zeros.

pub mod cnf;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use num_bigint::BigUint;

use crate::error::HexError;
use crate::geometry::Hexagon;

/// An exact model counter running apart, fed one formula at a time.
pub struct ExternalCounter {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// The counter as it names itself.
    pub name: String,
}

impl ExternalCounter {
    /// Starts `program`, and reads the line that names it.
    ///
    /// # Errors
    ///
    /// `HexError::Usage` naming the program when it cannot be started or
    /// names itself with nothing.
    pub fn start(program: &Path) -> Result<ExternalCounter, HexError> {
        let failed = |why: String| HexError::Usage(format!("the counter {}: {why}", program.display()));
        let mut child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| failed(format!("cannot be started: {e}")))?;
        let input = child.stdin.take().expect("piped");
        let mut output = BufReader::new(child.stdout.take().expect("piped"));
        let mut name = String::new();
        output.read_line(&mut name).map_err(|e| failed(format!("unreadable: {e}")))?;
        let name = name.trim().to_string();
        if name.is_empty() {
            let _ = child.kill();
            return Err(failed("it did not name itself (is its Python package installed?)".into()));
        }
        Ok(ExternalCounter { child, input, output, name })
    }

    /// The models of `formula` over its projection, and the counter's seconds.
    ///
    /// # Errors
    ///
    /// `HexError::Internal` when the counter stops or answers anything but a
    /// count and seconds.
    pub fn count(&mut self, formula: &cnf::RefinementsCnf) -> Result<(BigUint, f64), HexError> {
        let name = self.name.clone();
        let failed = move |why: String| HexError::Internal(format!("the counter {name}: {why}"));
        self.input
            .write_all(formula.dimacs().as_bytes())
            .and_then(|()| self.input.flush())
            .map_err(|e| failed(format!("stopped taking formulas: {e}")))?;
        let mut line = String::new();
        self.output.read_line(&mut line).map_err(|e| failed(format!("unreadable answer: {e}")))?;
        let mut words = line.split_whitespace();
        match (words.next().map(str::parse::<BigUint>), words.next().map(str::parse::<f64>), words.next()) {
            (Some(Ok(count)), Some(Ok(seconds)), None) => Ok((count, seconds)),
            _ => Err(failed(format!("answered {:?}, not `COUNT SECONDS`", line.trim()))),
        }
    }
}

impl Drop for ExternalCounter {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The rows to recount among classes whose lift counts are `zero[row]` (or
/// not): every row, or with `Some((sample, seed))` every row not zero and
/// `sample` of the zero ones (all when there are fewer), drawn by a
/// partial shuffle on splitmix64 from `seed`; in increasing order.
pub fn chosen(zero: &[bool], sample: Option<(usize, u64)>) -> Vec<usize> {
    let Some((sample, seed)) = sample else { return (0..zero.len()).collect() };
    let mut zeros: Vec<usize> = (0..zero.len()).filter(|&r| zero[r]).collect();
    let mut state = seed;
    let take = sample.min(zeros.len());
    for k in 0..take {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        let pick = k + (z % (zeros.len() - k) as u64) as usize;
        zeros.swap(k, pick);
    }
    let mut rows: Vec<usize> = (0..zero.len()).filter(|&r| !zero[r]).chain(zeros[..take].iter().copied()).collect();
    rows.sort_unstable();
    rows
}

/// Whether `recount` has counted every row it was to count of `classes`
/// (all of them, or the nonzero ones and its drawn sample): what the
/// results table marks ʳ. Whether the counts agree is `check`'s question.
pub fn covers(
    classes: &crate::records::recount::LiftClasses,
    recount: &crate::records::recount::RecountRecord,
) -> bool {
    let zero: Vec<bool> = classes.counts.iter().map(|c| c == "0").collect();
    let done: std::collections::HashSet<usize> = recount.rows.iter().chain(&recount.refined).copied().collect();
    chosen(&zero, recount.sample.zip(recount.seed)).iter().all(|row| done.contains(row))
}

/// The classes of `classes` (the lift `record`'s, in `cell`) that the
/// cell of the level below (`records::recount::cell_below`) counts nothing
/// on both roads: its lift of the same listing at the same penalty, its
/// classes the same least members, and its recount (`RecountRecord::zero_rows`)
/// agreeing with its lift on each. `None` at level 4 and below, or when that
/// cell has no lift, classes or recount of this listing.
///
/// # Errors
///
/// `HexError::Record`/`Io` when a record of that cell is there but cannot be read.
pub fn zeros_below(
    cell: &Path,
    record: &crate::records::lift::LiftRecord,
    classes: &crate::records::recount::LiftClasses,
) -> Result<Option<(std::path::PathBuf, std::collections::HashSet<usize>)>, HexError> {
    use crate::records::recount::{cell_below, LiftClasses, RecountRecord};
    use crate::records::Record;
    if record.level < 5 {
        return Ok(None);
    }
    let below = cell_below(cell, record.n, record.level, record.penalty);
    let files = [below.join("lift.json"), below.join(LiftClasses::FILE), below.join(RecountRecord::FILE)];
    if !files.iter().all(|file| file.is_file()) {
        return Ok(None);
    }
    let Record::Lift(lifted) = Record::read(&files[0])? else { return Ok(None) };
    let theirs: LiftClasses = crate::records::read_json(&files[1])?;
    let recounted: RecountRecord = crate::records::read_json(&files[2])?;
    let same = (lifted.n, lifted.level + 1, lifted.penalty, &lifted.listing)
        == (record.n, record.level, record.penalty, &record.listing)
        && theirs.leaders == classes.leaders
        && (recounted.n, recounted.level, recounted.penalty) == (lifted.n, lifted.level, lifted.penalty);
    if !same {
        return Ok(None);
    }
    let zeros = recounted.zero_rows().into_iter().filter(|&row| theirs.counts.get(row).is_some_and(|c| c == "0"));
    Ok(Some((below, zeros.collect())))
}

/// One class recounted: its level-3 least member (`+` as 4), refined to
/// `level` adding exactly `added`.
///
/// # Errors
///
/// The counter's (`ExternalCounter::count`).
pub fn recount_class(
    counter: &mut ExternalCounter,
    hex: &Hexagon,
    values: &[u8],
    (level, added): (u8, usize),
) -> Result<(BigUint, f64), HexError> {
    counter.count(&cnf::refinements_cnf(hex, values, level, added))
}
