//! Checking a refutation while the solver writes it.
//!
//! One thread consumes a solver's trace (`trace`): every derived
//! clause goes through the LRAT checker of `lrat/` (hexcert-lrat, which
//! shares no code with the solver, the search or the encoder) and into the
//! binary DRAT file kept for drat-trim. The checker is built from the exact
//! DIMACS bytes of the claim, and every original clause the solver reports
//! must be the formula's clause of that id, so a proof of another formula
//! fails. The verdict is `verified` only when the stream ended with a checked
//! derivation of the empty clause; a trace cut short (a race lost, Ctrl-C)
//! is never accepted.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Instant;

use hexcert_lrat::{Checker as LratChecker, CubeCheck, Lifted};

use super::drat::DratWriter;
use super::lrat_file::{ListingIds, LratFile};
use super::trace::{Batch, ProofStep, TraceSender};
use super::verified::Stream;
use crate::error::HexError;
use crate::records::claim::{ONLINE, ONLINE_LIFTED, ONLINE_LISTING};
use crate::records::{CheckerRecord, LratRecord};

/// The LRAT file beside the DRAT one is kept only while it stays under this
/// many bytes (options table: why).
pub const LRAT_FILE_CAP: u64 = crate::options::LRAT_FILE_CAP.default;

/// Batches in flight between the solver and the checker; beyond this the
/// solver waits, so a slow checker costs time, never unbounded memory.
const QUEUE: usize = 8;

/// A checking thread waiting for a solver's trace.
pub struct OnlineCheck {
    send: Option<TraceSender>,
    handle: JoinHandle<Result<Consumed, HexError>>,
    drat: PathBuf,
}

impl OnlineCheck {
    /// Starts the checker on the formula `dimacs`; the DRAT twin of the
    /// proof is written to `drat`, and the binary LRAT proof to `drat` with
    /// the extension `lrat` unless it outgrows `LRAT_FILE_CAP`.
    pub fn start(dimacs: Vec<u8>, drat: &Path) -> Result<OnlineCheck, HexError> {
        OnlineCheck::start_against(Against::Formula(dimacs), drat)
    }

    /// `start`, checking the trace against `against`.
    pub fn start_against(against: Against, drat: &Path) -> Result<OnlineCheck, HexError> {
        OnlineCheck::start_with(against, drat, None)
    }

    /// `start_against`, also piping the LRAT proof, as it is written, to the
    /// verified checker's `stream` (started on the solved formula's CNF).
    pub fn start_with(against: Against, drat: &Path, verified: Option<Stream>) -> Result<OnlineCheck, HexError> {
        OnlineCheck::start_capped(against, drat, verified, LRAT_FILE_CAP)
    }

    /// `start_with`, keeping the LRAT file while it stays under `lrat_cap`
    /// bytes (`u64::MAX`: whole, as an export of the proof wants it).
    pub fn start_capped(
        against: Against,
        drat: &Path,
        verified: Option<Stream>,
        lrat_cap: u64,
    ) -> Result<OnlineCheck, HexError> {
        let writer = DratWriter::create(drat)?;
        let mut lrat = LratFile::create(&drat.with_extension("lrat"), lrat_cap)?;
        lrat.verified = verified;
        if lrat_cap == 0 {
            lrat.abandon();
        }
        let (send, receive) = mpsc::sync_channel::<Batch>(QUEUE);
        let handle = std::thread::Builder::new()
            .name("lrat-check".into())
            .spawn(move || match against {
                Against::Formula(dimacs) => {
                    let checker = LratChecker::from_dimacs(&dimacs)
                        .map_err(|e| HexError::Internal(format!("the claim's own CNF: {e}")))?;
                    let originals = checker.original_count();
                    consume(checker, originals, ONLINE, receive, writer, lrat)
                }
                Against::Split { split, base, cube, units } => {
                    let internal =
                        |e: hexcert_lrat::CheckError| HexError::Internal(format!("the plan's split formula: {e}"));
                    let mut lifted = Lifted::from_dimacs(&split, base).map_err(internal)?;
                    let check = lifted.cube(cube, &units).map_err(internal)?;
                    consume(check, (base + units.len()) as u64, ONLINE_LIFTED, receive, writer, lrat)
                }
                Against::Listing(dimacs) => {
                    let checker = LratChecker::from_dimacs(&dimacs)
                        .map_err(|e| HexError::Internal(format!("the listing's own CNF: {e}")))?;
                    let originals = checker.original_count();
                    lrat.listing = Some(ListingIds::new(originals));
                    consume(Appendable(checker), originals, ONLINE_LISTING, receive, writer, lrat)
                }
            })
            .map_err(|e| HexError::Internal(format!("cannot start the LRAT checker thread: {e}")))?;
        Ok(OnlineCheck { send: Some(send), handle, drat: drat.into() })
    }

    /// The sender for the solver's tracer (once).
    pub fn sender(&mut self) -> TraceSender {
        self.send.take().expect("one solver per online check")
    }

    /// Waits for the end of the trace and returns the checker's record
    /// (its `verified` field false when the proof was rejected or cut short),
    /// the DRAT file, and the verified checker's verdict when it was given
    /// the proof. `solved` is when the solver answered: the record says how
    /// long after it the verdict came.
    pub fn finish(mut self, solved: Instant) -> Result<Finished, HexError> {
        drop(self.send.take());
        let Consumed { mut lrat, verified, appended } =
            self.handle.join().map_err(|_| HexError::Internal("the LRAT checker thread panicked".into()))??;
        lrat.seconds_after_solve = solved.elapsed().as_secs_f64();
        Ok(Finished { lrat, drat: self.drat, verified, appended })
    }
}

/// What an online check ends with.
pub struct Finished {
    /// hexcert-lrat's verdict.
    pub lrat: LratRecord,
    /// The DRAT twin of the proof.
    pub drat: PathBuf,
    /// The verified checker's verdict, when the proof was piped to it.
    pub verified: Option<CheckerRecord>,
    /// The original clauses appended after the formula, in order (a
    /// listing's blocking clauses; empty for a claim or a cube).
    pub appended: Vec<Vec<i32>>,
}

/// What the checking thread hands back.
struct Consumed {
    lrat: LratRecord,
    verified: Option<CheckerRecord>,
    appended: Vec<Vec<i32>>,
}

/// Why the checking thread stopped reading a trace.
enum Failure {
    /// The checker rejected a step: the proof's verdict.
    Rejected(hexcert_lrat::CheckError),
    /// A proof file could not be written.
    Io(HexError),
}

impl Failure {
    fn rejected(error: hexcert_lrat::CheckError) -> Failure {
        Failure::Rejected(error)
    }
}

/// What the checking thread checks a trace against.
pub enum Against {
    /// The solved formula's DIMACS bytes.
    Formula(Vec<u8>),
    /// A cube plan's split formula (`cubes::split_formula`): the trace of
    /// cube `cube`'s formula (its first `base` clauses then `units`) read as
    /// a derivation of the cube's negated selector (`hexcert_lrat::Lifted`).
    Split { split: Vec<u8>, base: usize, cube: usize, units: Vec<i32> },
    /// The DIMACS bytes of a listing's formula, to which the solver appends
    /// original clauses between its calls (the blocking clause of each
    /// listed model): the trace is then a refutation of the formula and
    /// every appended clause, and `Finished::appended` names them.
    Listing(Vec<u8>),
}

/// The checker a trace streams into: the plain LRAT checker, or one cube's lifted check.
trait Steps {
    fn confirm_original(&mut self, id: u64, lits: &[i32]) -> Result<(), hexcert_lrat::CheckError>;
    /// An original clause beyond the formula: refused unless the trace is a
    /// listing's (`Appendable`), where it is one of the appended clauses.
    fn append_original(&mut self, id: u64, _lits: &[i32]) -> Result<(), hexcert_lrat::CheckError> {
        Err(hexcert_lrat::CheckError::OriginalMismatch { id, reason: "an original clause beyond the formula".into() })
    }
    fn add(&mut self, id: u64, lits: &[i32], hints: &[i64]) -> Result<(), hexcert_lrat::CheckError>;
    fn delete(&mut self, id: u64) -> Result<(), hexcert_lrat::CheckError>;
    /// Added, deleted and hints of an accepted proof.
    fn finish(self) -> Result<(u64, u64, u64), hexcert_lrat::CheckError>;
}

impl Steps for LratChecker {
    fn confirm_original(&mut self, id: u64, lits: &[i32]) -> Result<(), hexcert_lrat::CheckError> {
        LratChecker::confirm_original(self, id, lits)
    }
    fn add(&mut self, id: u64, lits: &[i32], hints: &[i64]) -> Result<(), hexcert_lrat::CheckError> {
        LratChecker::add(self, id, lits, hints)
    }
    fn delete(&mut self, id: u64) -> Result<(), hexcert_lrat::CheckError> {
        LratChecker::delete(self, id)
    }
    fn finish(self) -> Result<(u64, u64, u64), hexcert_lrat::CheckError> {
        LratChecker::finish(&self).map(|s| (s.added, s.deleted, s.hints))
    }
}

/// The plain checker of a listing's trace, which accepts appended originals.
struct Appendable(LratChecker);

impl Steps for Appendable {
    fn confirm_original(&mut self, id: u64, lits: &[i32]) -> Result<(), hexcert_lrat::CheckError> {
        self.0.confirm_original(id, lits)
    }
    fn append_original(&mut self, id: u64, lits: &[i32]) -> Result<(), hexcert_lrat::CheckError> {
        self.0.append_original(id, lits)
    }
    fn add(&mut self, id: u64, lits: &[i32], hints: &[i64]) -> Result<(), hexcert_lrat::CheckError> {
        self.0.add(id, lits, hints)
    }
    fn delete(&mut self, id: u64) -> Result<(), hexcert_lrat::CheckError> {
        self.0.delete(id)
    }
    fn finish(self) -> Result<(u64, u64, u64), hexcert_lrat::CheckError> {
        Steps::finish(self.0)
    }
}

impl Steps for CubeCheck<'_> {
    fn confirm_original(&mut self, id: u64, lits: &[i32]) -> Result<(), hexcert_lrat::CheckError> {
        CubeCheck::confirm_original(self, id, lits)
    }
    fn add(&mut self, id: u64, lits: &[i32], hints: &[i64]) -> Result<(), hexcert_lrat::CheckError> {
        CubeCheck::add(self, id, lits, hints)
    }
    fn delete(&mut self, id: u64) -> Result<(), hexcert_lrat::CheckError> {
        CubeCheck::delete(self, id)
    }
    fn finish(self) -> Result<(u64, u64, u64), hexcert_lrat::CheckError> {
        CubeCheck::finish(self).map(|s| (s.added, s.deleted, s.hints))
    }
}

fn consume(
    mut checker: impl Steps,
    originals: u64,
    how: &str,
    receive: mpsc::Receiver<Batch>,
    mut drat: DratWriter,
    mut lrat: LratFile,
) -> Result<Consumed, HexError> {
    let cpu_start = crate::run::thread_cpu_seconds();
    // A rejected step is the proof's failure, a failed write the disk's:
    // the one is a verdict, the other an I/O error (a full disk is no bug).
    let mut failure: Option<hexcert_lrat::CheckError> = None;
    let mut io_failure: Option<HexError> = None;
    let mut steps = 0u64;
    let mut ids = StandardIds::new(originals);
    let mut hints_buffer = Vec::new();
    let mut appended: Vec<Vec<i32>> = Vec::new();
    for batch in receive.iter() {
        if failure.is_some() || io_failure.is_some() {
            continue; // drain, so the solver is never blocked by a dead consumer
        }
        let result = batch.for_each(|step| {
            steps += 1;
            one_step(&mut checker, step, (&mut ids, &mut hints_buffer), (&mut lrat, &mut drat), &mut appended)
        });
        match result {
            Ok(()) => {}
            Err(Failure::Rejected(error)) => failure = Some(error),
            Err(Failure::Io(error)) => io_failure = Some(error),
        }
    }
    if let Some(error) = io_failure {
        return Err(error);
    }
    drat.finish()?;
    let streamed = lrat.finish()?;
    let verdict = match failure {
        Some(error) => Err(error),
        None => checker.finish(),
    };
    let cpu_seconds = crate::run::thread_cpu_seconds() - cpu_start;
    let (verified, line, summary) = match verdict {
        Ok(summary) => (true, "s VERIFIED".to_string(), Some(summary)),
        Err(message) => (false, format!("s NOT VERIFIED: {message}"), None),
    };
    let record = LratRecord {
        checker: "hexcert-lrat".into(),
        version: hexcert_lrat::VERSION.into(),
        how: how.into(),
        verified,
        verdict: line,
        steps,
        added: summary.map_or(0, |s| s.0),
        deleted: summary.map_or(0, |s| s.1),
        hints: summary.map_or(0, |s| s.2),
        cpu_seconds,
        seconds_after_solve: 0.0,
    };
    Ok(Consumed { lrat: record, verified: streamed, appended })
}

/// One step of a trace: an original clause confirmed (or, past the
/// formula, appended and kept in `appended`), a derived clause checked and
/// written, a deletion applied and written.
fn one_step(
    checker: &mut impl Steps,
    step: ProofStep,
    (ids, hints_buffer): (&mut StandardIds, &mut Vec<i64>),
    (lrat, drat): (&mut LratFile, &mut DratWriter),
    appended: &mut Vec<Vec<i32>>,
) -> Result<(), Failure> {
    match step {
        ProofStep::Original { id, lits } if ids.formula_read() => {
            appended.push(lits.to_vec());
            let id = ids.get(id);
            lrat.write(ProofStep::Original { id, lits }).map_err(Failure::Io)?;
            checker.append_original(id, lits).map_err(Failure::rejected)
        }
        ProofStep::Original { id, lits } => checker.confirm_original(ids.original(id), lits).map_err(Failure::rejected),
        ProofStep::Derived { id, lits, hints } => {
            let id = ids.derived(id);
            ids.translate(hints, hints_buffer);
            let step = ProofStep::Derived { id, lits, hints: hints_buffer };
            lrat.write(step).map_err(Failure::Io)?;
            drat.add(lits).map_err(Failure::Io)?;
            checker.add(id, lits, hints_buffer).map_err(Failure::rejected)
        }
        ProofStep::Deleted { id, lits } => {
            let id = ids.get(id);
            lrat.write(ProofStep::Deleted { id, lits }).map_err(Failure::Io)?;
            drat.delete(lits).map_err(Failure::Io)?;
            checker.delete(id).map_err(Failure::rejected)
        }
    }
}

/// Clause ids as LRAT files have them: originals `1..=m` in formula order,
/// derived clauses after them.
///
/// CaDiCaL numbers clauses as it meets them, and it propagates a unit clause
/// as soon as it is added, so clauses it derives while the formula is still
/// being added (a formula with units among its last clauses: a cube) take ids
/// between the originals'. Those are renumbered: the k-th original becomes
/// `k`, the d-th clause derived while adding becomes `m + d`. CaDiCaL has
/// used exactly `m + d` ids when adding ends, so every later id keeps its
/// number, and only ids met while adding sit in the map.
struct StandardIds {
    /// Original clauses of the formula, `m`.
    formula: u64,
    originals: u64,
    derived_while_adding: u64,
    /// Solver ids that differ from their standard number.
    moved: std::collections::HashMap<u64, u64>,
}

impl StandardIds {
    fn new(formula: u64) -> StandardIds {
        StandardIds { formula, originals: 0, derived_while_adding: 0, moved: Default::default() }
    }

    fn original(&mut self, solver_id: u64) -> u64 {
        self.originals += 1;
        self.record(solver_id, self.originals)
    }

    /// True once every original clause of the formula has been met: a later
    /// original is appended (a listing's blocking clause) and keeps the
    /// solver's id, which is above every id so far.
    fn formula_read(&self) -> bool {
        self.originals >= self.formula
    }

    fn derived(&mut self, solver_id: u64) -> u64 {
        if self.formula_read() {
            return self.get(solver_id);
        }
        self.derived_while_adding += 1;
        self.record(solver_id, self.formula + self.derived_while_adding)
    }

    fn record(&mut self, solver_id: u64, standard: u64) -> u64 {
        if solver_id != standard {
            self.moved.insert(solver_id, standard);
        }
        standard
    }

    fn get(&self, solver_id: u64) -> u64 {
        self.moved.get(&solver_id).copied().unwrap_or(solver_id)
    }

    fn translate(&self, hints: &[i64], out: &mut Vec<i64>) {
        out.clear();
        out.extend(hints.iter().map(|&h| {
            if h > 0 {
                self.get(h as u64) as i64
            } else {
                -(self.get(h.unsigned_abs()) as i64)
            }
        }));
    }
}
