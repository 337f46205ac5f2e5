//! One `check` run: its options, its entry points, and the walker that
//! judges each record once by its kind, handing a claim's proof to `claim`
//! and an optimum, with the claims it rests on, to `optimum`.

use std::path::{Path, PathBuf};

use super::claim::check_claim;
use super::find::find_records;
use super::report::{CheckReport, LEGACY};
use crate::error::{HexError, RecordError};
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::proofs::verified::VerifiedChecker;
use crate::records::read::replace_record;
use crate::records::trust::{trust_base, Basis};
use crate::records::{Claim, CubeClaim, Record, Status};
use crate::verify::regenerate::{ProofChecks, Regenerate};
use crate::verify::statement_to_cnf as statement;
use crate::verify::witness::check_level_witness as level_witness;

/// Checks every record under `paths` and every record they depend on (an
/// optimum's lower-bound claim), each once. The reports list a dependency
/// before the optimum that needs it.
///
/// # Errors
///
/// `HexError::Io` when a given path cannot be walked (`find_records`), or when
/// a write had no room (full disk, file-size limit, quota:
/// `HexError::is_no_room`). A record that fails its check is no error: its
/// report says `Failed`.
pub fn check_paths(paths: &[PathBuf], regenerate: Option<&dyn Regenerate>) -> Result<Vec<CheckReport>, HexError> {
    check_paths_with(paths, regenerate, &CheckOptions::default())
}

/// What one `check` run asks beyond the default.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Require a VeriPB verdict of every claim a derivation can cover.
    pub derivations: bool,
    /// Write this run's statement -> CNF verdict into each claim.
    pub record: bool,
    /// The verified LRAT checker every proof read in this run is also given to.
    pub verified: Option<VerifiedChecker>,
    /// Write each cube's verified-checker verdict into its claim as it is
    /// reached, skipping cubes that already hold one (`ProofChecks::keep`).
    pub keep: bool,
    /// A line on stderr per cube re-solved.
    pub progress: bool,
    /// Cubes of one cube claim re-solved at once (`ProofChecks::jobs`).
    pub jobs: usize,
    /// A cube claim's re-check spread over runs (`ProofChecks::across_runs`).
    pub across_runs: bool,
}

impl CheckOptions {
    /// How this run checks proofs, re-solving them with `regenerate`.
    fn proof_checks<'a>(&'a self, regenerate: Option<&'a dyn Regenerate>) -> ProofChecks<'a> {
        ProofChecks {
            regenerate,
            verified: self.verified.as_ref(),
            keep: self.keep,
            progress: self.progress,
            jobs: self.jobs,
            across_runs: self.across_runs,
        }
    }
}

/// `check_paths` with `options` (see the module header).
///
/// # Errors
///
/// `HexError::Io` when a given path cannot be walked (`find_records`), or when
/// a write had no room (full disk, file-size limit, quota:
/// `HexError::is_no_room`), the run stopping there. A record that fails its
/// check is no error: its report says `Failed`.
pub fn check_paths_with(
    paths: &[PathBuf],
    regenerate: Option<&dyn Regenerate>,
    options: &CheckOptions,
) -> Result<Vec<CheckReport>, HexError> {
    let mut run = CheckRun::new(regenerate);
    run.options = options.clone();
    let records = find_records(paths)?;
    // Claims depend on nothing else, and their checks (VeriPB above all: the
    // n = 14 split derivation alone takes minutes) are independent
    // processes, so without a regeneration they run on every core first;
    // the pass in order then takes each report where it falls.
    if regenerate.is_none() {
        use rayon::prelude::*;
        let claims: Vec<&PathBuf> =
            records.iter().filter(|p| p.file_name().is_some_and(|n| n == "claim.json")).collect();
        let checked: Vec<Result<(PathBuf, CheckReport), HexError>> = claims
            .par_iter()
            .map(|path| {
                let mut alone = CheckRun::new(None);
                alone.options = options.clone();
                let report = alone.check(path);
                match alone.stopped {
                    Some(error) => Err(error),
                    None => Ok((alone.keys.pop().expect("one record checked"), report)),
                }
            })
            .collect();
        for claim in checked {
            let (key, report) = claim?;
            run.ready.insert(key, report);
        }
    }
    for record in records {
        run.check(&record);
        if let Some(error) = run.stopped.take() {
            return Err(error);
        }
    }
    Ok(run.reports)
}

/// Checks one record (for an optimum, its lower-bound claim too).
pub fn check_record(path: &Path, regenerate: Option<&dyn Regenerate>) -> CheckReport {
    CheckRun::new(regenerate).check(path)
}

/// The key a record is known by in a run: its canonical path.
fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// One run of checks. A record reached twice (an optimum's claim that was
/// also given by itself) is checked once: re-checking would cost a second
/// regeneration and could not change the answer.
pub struct CheckRun<'a> {
    regenerate: Option<&'a dyn Regenerate>,
    pub options: CheckOptions,
    reports: Vec<CheckReport>,
    /// Canonical path of each report, to recognise a record reached again.
    keys: Vec<PathBuf>,
    /// Reports made ahead of the pass in order (claims, on every core), by
    /// canonical path: taken, not made again, when the pass reaches them.
    ready: std::collections::HashMap<PathBuf, CheckReport>,
    /// The first write this run had no room for: what the run ends with.
    stopped: Option<HexError>,
    /// The leaders of each count record judged in this run, by canonical
    /// path: a lift of it lifts what the count's check read, not a second read.
    listings: std::collections::HashMap<PathBuf, Vec<Partial>>,
}

impl<'a> CheckRun<'a> {
    pub fn new(regenerate: Option<&'a dyn Regenerate>) -> CheckRun<'a> {
        CheckRun {
            regenerate,
            options: CheckOptions::default(),
            reports: Vec::new(),
            keys: Vec::new(),
            ready: Default::default(),
            stopped: None,
            listings: Default::default(),
        }
    }

    /// The report of `path`, checking it unless this run already did. A
    /// record reached through a symbolic link is reported under its own
    /// (canonical) path: the place its numbers are checked against.
    pub fn check(&mut self, path: &Path) -> CheckReport {
        let key = canonical(path);
        if let Some(i) = self.keys.iter().position(|k| *k == key) {
            return self.reports[i].clone();
        }
        if let Some(report) = self.ready.remove(&key) {
            self.keys.push(key);
            self.reports.push(report.clone());
            return report;
        }
        let through_link = std::path::absolute(path).is_ok_and(|a| a != key);
        let shown = if through_link { key.clone() } else { path.to_path_buf() };
        let mut report =
            CheckReport { path: shown, status: Status::Verified, messages: Vec::new(), needs_veripb: false };
        // A count's lines each name its numbers: a report read alone still says which cell it is of.
        let mut label = None;
        let outcome = Record::read(path).and_then(|record| {
            label = record.count_label();
            self.check_read(path, record, &mut report)
        });
        let labelled = |line: String| match &label {
            Some(numbers) => format!("{numbers}: {line}"),
            None => line,
        };
        report.messages = report.messages.drain(..).map(labelled).collect();
        report.status = outcome.unwrap_or_else(|error| {
            // The interruption's line is matched as it is (`check`'s `mark_cut_short`).
            let line = error.to_string();
            report.messages.push(if matches!(error, HexError::Interrupted) { line } else { labelled(line) });
            match error {
                // Another command wrote the record while this run judged its
                // earlier copy: nothing was found wrong, nothing is concluded.
                HexError::Record { error: RecordError::Changed, .. } => Status::Unverified,
                // No room to write: the run stops with the I/O error.
                error if error.is_no_room() => {
                    self.stopped.get_or_insert(error);
                    Status::Unverified
                }
                _ => Status::Failed,
            }
        });
        report.needs_veripb &= report.status == Status::Unverified;
        self.keys.push(key);
        self.reports.push(report.clone());
        report
    }

    /// Judges a record read once, by its kind.
    fn check_read(&mut self, path: &Path, record: Record, report: &mut CheckReport) -> Result<Status, HexError> {
        let messages = &mut report.messages;
        // A level witness beside the claim, as (level, bound): what it makes of the minimum waits for the claim's status.
        let witness;
        let (status, statement) = match record {
            Record::Optimum(optimum) => return self.check_optimum(path, &optimum, messages, &mut report.needs_veripb),
            Record::Legacy(_) => {
                messages.push(LEGACY.into());
                return Ok(Status::Unverified);
            }
            Record::Count(count) => {
                // The checker is cloned so that the claim's check below may borrow the run.
                let verified = self.options.verified.clone();
                let options = &self.options;
                let checks = ProofChecks {
                    regenerate: self.regenerate,
                    verified: verified.as_ref(),
                    keep: options.keep,
                    progress: options.progress,
                    jobs: options.jobs,
                    across_runs: false,
                };
                let (status, leaders) = crate::verify::counts::check_count(
                    path,
                    &count,
                    checks,
                    &mut |claim| self.check(claim).status,
                    messages,
                )?;
                self.listings.insert(canonical(path), leaders);
                return Ok(status);
            }
            Record::Lift(lift) => {
                let recount = self.regenerate.is_some();
                let mut check_record =
                    |record: &Path| (self.check(record).status, self.listings.get(&canonical(record)).cloned());
                return crate::verify::lift::check_lift(path, &lift, recount, &mut check_record, messages);
            }
            Record::CubeResult(_) => {
                return Err(
                    RecordError::Header("a cube's record, not a claim: `hexcert cubes merge` its plan".into()).at(path)
                )
            }
            Record::Claim(mut claim) => {
                // With the verdicts this run kept in it: the claim as now on disk.
                let status = check_claim(path, &mut claim, self.proof_checks(), messages)?;
                let numbers = (claim.n, claim.level, claim.below);
                witness = level_witness(path, numbers)?.then_some((numbers.1, numbers.2));
                let statement = if self.options.record {
                    record_statement(*claim, path, messages)?
                } else {
                    statement::check_recorded(&claim, path, self.options.derivations, messages)?
                };
                (status, statement)
            }
            Record::CubeClaim(mut claim) => {
                let status =
                    crate::verify::cube_claims::check_cube_claim(path, &mut claim, self.proof_checks(), messages)?;
                let numbers = (claim.plan.n, claim.plan.level, claim.plan.below);
                witness = level_witness(path, numbers)?.then_some((numbers.1, numbers.2));
                (status, self.check_cube_statement(path, *claim, messages)?)
            }
        };
        report.needs_veripb = status == Status::Verified
            && statement == Status::Unverified
            && !self.options.derivations
            && crate::proofs::veripb::Veripb::find().is_none();
        let status = status.and(statement);
        if let Some((level, below)) = witness {
            messages.push(crate::verify::witness::level_minimum_line(level, below, status == Status::Verified));
        }
        Ok(status)
    }

    fn proof_checks(&self) -> ProofChecks<'_> {
        self.options.proof_checks(self.regenerate)
    }

    fn check_cube_statement(
        &self,
        path: &Path,
        mut claim: CubeClaim,
        messages: &mut Vec<String>,
    ) -> Result<Status, HexError> {
        if self.options.record {
            let read = claim.clone();
            let record = statement::derive_and_check_split(&claim.plan, path)?;
            if !record.accepted() {
                let why = record.not_checked.as_deref().unwrap_or("VeriPB did not run");
                messages.push(format!("statement -> split formula: unverified, nothing recorded: {why}"));
                return Ok(Status::Unverified);
            }
            let verdict = record
                .veripb
                .as_ref()
                .map(|v| format!("{} `{}` in {:.1} s", v.version, v.verdict, v.seconds))
                .unwrap_or_default();
            claim.statement_to_cnf = Some(record);
            claim.trust_base = trust_base(Basis::of_cube_claim(&claim));
            replace_record(path, &read, &claim)?;
            messages.push(format!("statement -> split formula: recorded {verdict}"));
            return Ok(Status::Verified);
        }
        statement::check_recorded_split(
            &claim.plan,
            claim.statement_to_cnf.as_ref(),
            &claim.trust_base,
            path,
            self.options.derivations,
            messages,
        )
    }
}

/// `check --veripb --record` on a whole-formula claim: derives and checks
/// its CNF from the statement now and writes the record (and the trust base
/// it allows) into `claim.json`, atomically. Nothing else in the claim
/// changes. VeriPB not on PATH leaves the claim as it was, unverified.
fn record_statement(mut claim: Claim, path: &Path, messages: &mut Vec<String>) -> Result<Status, HexError> {
    let read = claim.clone();
    let hex = Hexagon::new(claim.n)?;
    let options = claim.encode_options();
    let record = statement::derive_and_check(&hex, claim.level, claim.below, &options, &claim.cnf.sha256, path)?;
    if record.statement.is_some() && !record.accepted() {
        messages.push(format!(
            "statement -> CNF: unverified, nothing recorded: {}",
            record.not_checked.as_deref().unwrap_or("VeriPB did not run")
        ));
        return Ok(Status::Unverified);
    }
    let line = match &record.veripb {
        Some(v) => format!("statement -> CNF: recorded {} `{}` in {:.1} s", v.version, v.verdict, v.seconds),
        None => format!("statement -> CNF: recorded as {}", record.not_checked.as_deref().unwrap_or("not covered")),
    };
    claim.statement_to_cnf = Some(record);
    claim.trust_base = trust_base(Basis::of_claim(&claim, &options));
    replace_record(path, &read, &claim)?;
    messages.push(line);
    Ok(Status::Verified)
}
