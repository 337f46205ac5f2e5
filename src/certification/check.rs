//! `hexcert check`: says, for every record, what this run verified.
//!
//! Invariant: a record is `Verified` only when everything it states was
//! checked in this run. For a claim: its numbers are in range and agree with
//! its directory; the CNF re-encoded from its parameters hashes to the
//! recorded value (a changed bound or encoder is caught); the CNF and proofs,
//! stored or regenerated, hash to the recorded values; and a checker run in
//! this run verified the proof: the LRAT checker of `lrat/` on the stored
//! LRAT proof or on the regenerated trace, and every DRAT checker on PATH
//! on the DRAT twin (`external_drat_checks`). A claim whose proof is not stored and
//! not regenerated is `Unverified`, never passed: its hash agreeing proves
//! nothing about its proof. For an optimum: its witness validates with
//! exactly the optimum penalty, and its lower-bound claim, which must state
//! exactly the bound the optimum needs, was itself verified in this run (an
//! optimum is never stronger than its claim).
//!
//! A claim that records a statement -> CNF derivation (`statement_to_cnf`)
//! is `Verified` only when, besides, the OPB statement and the derivation
//! written again hash to the record and VeriPB accepted them in this run
//! (src/certification/statement.rs): `Unverified` when VeriPB is not on
//! PATH, `Failed` on a hash mismatch or a rejection. A claim that records
//! none, or records that no derivation covers it (cube claims, the
//! totalizer), is judged on the trust base it states, which names the
//! encoder; with `derivations` (`check --veripb`) it is `Unverified` unless
//! a derivation is checked on the spot. With `record` (`check --veripb
//! --record`) the verdict of this run is written into the claim instead,
//! atomically and only when VeriPB accepted and nothing else failed.
//!
//! This module owns no solver code. Regeneration is handed in by the caller
//! as a `&dyn Regenerate` (`prove::SolveAgain` re-solves with CaDiCaL) that
//! only emits a trace; `check` judges it with its own LRAT checker, so what
//! `check` verifies does not depend on the code that found the proofs.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::statement;
use super::WorkDir;
use crate::encoding::LevelEncoding;
use crate::error::HexError;
use crate::outcome::Outcome;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::proofs::online::{Against, OnlineCheck};
use crate::proofs::verified::VerifiedChecker;
use crate::compress;
use crate::digest::sha256_hex;
use crate::proofs::Checker;
use super::regenerate::ProofChecks;
use crate::error::RecordError;
use crate::records::claim::{check_claim_ranges, check_optimum_ranges};
use crate::records::ranges::{check_claim_directory, check_n_directory};
use crate::records::read::{expect_hash, stored_path};
use crate::records::Record;
use crate::records::trust::{trust_base, Basis};
use crate::records::{CheckerRecord, Claim, CubeClaim, Optimum};

pub use super::regenerate::Regenerate;
pub use crate::records::Status;

/// The result of checking one record.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CheckReport {
    pub path: PathBuf,
    pub status: Status,
    pub messages: Vec<String>,
    /// Unverified only because VeriPB, not on PATH, could not check a
    /// recorded statement -> CNF derivation (for an optimum: its claim's).
    /// `certify` then reuses the record: proving it again would not help.
    pub needs_veripb: bool,
}

/// Exit codes of `hexcert check` (2 remains bad arguments, as everywhere).
pub const EXIT_VERIFIED: u8 = Outcome::Done.code();
pub const EXIT_FAILED: u8 = Outcome::Negative.code();
pub const EXIT_UNVERIFIED: u8 = Outcome::Unverified.code();

/// How many records of a run ended in each status.
#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct Summary {
    pub verified: usize,
    pub failed: usize,
    pub unverified: usize,
}

impl Summary {
    pub fn of(reports: &[CheckReport]) -> Summary {
        let count = |s: Status| reports.iter().filter(|r| r.status == s).count();
        Summary { verified: count(Status::Verified), failed: count(Status::Failed), unverified: count(Status::Unverified) }
    }

    /// Done only when every record was verified; negative when any failed.
    pub fn outcome(&self) -> Outcome {
        if self.failed > 0 {
            Outcome::Negative
        } else if self.unverified > 0 {
            Outcome::Unverified
        } else {
            Outcome::Done
        }
    }

    pub fn exit_code(&self) -> u8 {
        self.outcome().code()
    }
}

/// Claims written before proofs were traced with LRAT (CaDiCaL 2.2.1, a
/// DRAT proof checked by rate). This build cannot reproduce their proofs
/// byte for byte, so nothing here can verify them: they are reported, never
/// passed, until `certify` replaces them.
pub const LEGACY: &str = "a claim of the earlier pipeline (hexcert-claim/1: CaDiCaL 2.2.1, DRAT checked by rate); \
     this build cannot regenerate its proof: re-certify it with `hexcert certify`";

/// The message of a claim-only certificate checked without regeneration.
pub const NOT_STORED: &str = "proof not stored; run with --regenerate to re-solve and check it";

/// Every `claim.json` and `optimum.json` under the given paths (files or
/// directories). A directory is entered once, by its canonical path, so
/// symlink loops end; only regular files are listed by name.
pub fn find_records(paths: &[PathBuf]) -> Result<Vec<PathBuf>, HexError> {
    let mut found = Vec::new();
    let mut visited = HashSet::new();
    for path in paths {
        collect(path, &mut found, &mut visited)?;
    }
    found.sort();
    found.dedup();
    Ok(found)
}

fn collect(path: &Path, found: &mut Vec<PathBuf>, visited: &mut HashSet<PathBuf>) -> Result<(), HexError> {
    let meta = std::fs::metadata(path).map_err(|source| HexError::Io { path: path.into(), source })?;
    if !meta.is_dir() {
        found.push(path.to_path_buf()); // named on the command line: judged, whatever it is
        return Ok(());
    }
    let canonical = path.canonicalize().map_err(|source| HexError::Io { path: path.into(), source })?;
    if !visited.insert(canonical) {
        return Ok(());
    }
    let entries = std::fs::read_dir(path).map_err(|source| HexError::Io { path: path.into(), source })?;
    for entry in entries.flatten() {
        let p = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue; // work directories, temporaries and records set aside
        }
        let Ok(meta) = std::fs::metadata(&p) else { continue }; // a dangling link
        if meta.is_dir() {
            collect(&p, found, visited)?;
        } else if name == "claim.json" || name == "optimum.json" {
            found.push(p);
        }
    }
    Ok(())
}

/// Checks every record under `paths` and every record they depend on (an
/// optimum's lower-bound claim), each once. The reports list a dependency
/// before the optimum that needs it.
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
}

/// `check_paths` with `options` (see the module header).
pub fn check_paths_with(paths: &[PathBuf], regenerate: Option<&dyn Regenerate>, options: &CheckOptions) -> Result<Vec<CheckReport>, HexError> {
    let mut run = CheckRun::new(regenerate);
    run.options = options.clone();
    let records = find_records(paths)?;
    // Claims depend on nothing else, and their checks (VeriPB above all: the
    // n = 14 split derivation alone takes minutes) are independent
    // processes, so without a regeneration they run on every core first;
    // the pass in order then takes each report where it falls.
    if regenerate.is_none() {
        use rayon::prelude::*;
        let claims: Vec<&PathBuf> = records.iter().filter(|p| p.file_name().is_some_and(|n| n == "claim.json")).collect();
        let checked: Vec<(PathBuf, CheckReport)> = claims
            .par_iter()
            .map(|path| {
                let mut alone = CheckRun::new(None);
                alone.options = options.clone();
                let report = alone.check(path);
                (alone.keys.pop().expect("one record checked"), report)
            })
            .collect();
        run.ready.extend(checked);
    }
    for record in records {
        run.check(&record);
    }
    Ok(run.reports)
}

/// Checks one record (for an optimum, its lower-bound claim too).
pub fn check_record(path: &Path, regenerate: Option<&dyn Regenerate>) -> CheckReport {
    CheckRun::new(regenerate).check(path)
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
}

impl<'a> CheckRun<'a> {
    pub fn new(regenerate: Option<&'a dyn Regenerate>) -> CheckRun<'a> {
        CheckRun { regenerate, options: CheckOptions::default(), reports: Vec::new(), keys: Vec::new(), ready: Default::default() }
    }

    /// The report of `path`, checking it unless this run already did. A
    /// record reached through a symbolic link is reported under its own
    /// (canonical) path: the place its numbers are checked against.
    pub fn check(&mut self, path: &Path) -> CheckReport {
        let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
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
        let mut report = CheckReport { path: shown, status: Status::Verified, messages: Vec::new(), needs_veripb: false };
        let outcome = Record::read(path).and_then(|record| self.check_read(path, record, &mut report));
        report.status = outcome.unwrap_or_else(|error| {
            report.messages.push(error.to_string());
            Status::Failed
        });
        report.needs_veripb &= report.status == Status::Unverified;
        self.keys.push(key);
        self.reports.push(report.clone());
        report
    }

    /// Judges a record read once, by its kind.
    fn check_read(&mut self, path: &Path, record: Record, report: &mut CheckReport) -> Result<Status, HexError> {
        let messages = &mut report.messages;
        let (status, statement) = match record {
            Record::Optimum(optimum) => return self.check_optimum(path, &optimum, messages, &mut report.needs_veripb),
            Record::Legacy(_) => {
                messages.push(LEGACY.into());
                return Ok(Status::Unverified);
            }
            Record::CubeResult(_) => return Err(RecordError::Header("a cube's record, not a claim: `hexcert cubes merge` its plan".into()).at(path)),
            Record::Claim(claim) => {
                let status = check_claim(path, &claim, self.proof_checks(), messages)?;
                super::witness::check_level_witness(path, (claim.n, claim.level, claim.below), messages)?;
                let statement = if self.options.record {
                    record_statement(*claim, path, messages)?
                } else {
                    statement::check_recorded(&claim, path, self.options.derivations, messages)?
                };
                (status, statement)
            }
            Record::CubeClaim(claim) => {
                let status = super::check_cubes::check_cube_claim(path, &claim, self.proof_checks(), messages)?;
                super::witness::check_level_witness(path, (claim.plan.n, claim.plan.level, claim.plan.below), messages)?;
                (status, self.check_cube_statement(path, *claim, messages)?)
            }
        };
        report.needs_veripb =
            status == Status::Verified && statement == Status::Unverified && !self.options.derivations && crate::proofs::veripb::Veripb::find().is_none();
        Ok(status.and(statement))
    }

    fn proof_checks(&self) -> ProofChecks<'_> {
        ProofChecks { regenerate: self.regenerate, verified: self.options.verified.as_ref(), keep: self.options.keep, progress: self.options.progress }
    }

    fn check_cube_statement(&self, path: &Path, mut claim: CubeClaim, messages: &mut Vec<String>) -> Result<Status, HexError> {
        if self.options.record {
            let record = statement::derive_and_check_split(&claim.plan, path)?;
            if !record.accepted() {
                let why = record.not_checked.as_deref().unwrap_or("VeriPB did not run");
                messages.push(format!("statement -> split formula: unverified, nothing recorded: {why}"));
                return Ok(Status::Unverified);
            }
            let verdict = record.veripb.as_ref().map(|v| format!("{} `{}` in {:.1} s", v.version, v.verdict, v.seconds)).unwrap_or_default();
            claim.statement_to_cnf = Some(record);
            claim.trust_base = trust_base(Basis::of_cube_claim(&claim));
            crate::files::write_atomic(path, &serde_json::to_vec_pretty(&claim).expect("claims serialise"))?;
            messages.push(format!("statement -> split formula: recorded {verdict}"));
            return Ok(Status::Verified);
        }
        statement::check_recorded_split(&claim.plan, claim.statement_to_cnf.as_ref(), &claim.trust_base, path, self.options.derivations, messages)
    }

    fn check_optimum(&mut self, path: &Path, optimum: &Optimum, messages: &mut Vec<String>, needs_veripb: &mut bool) -> Result<Status, HexError> {
        check_optimum_ranges(optimum, path)?;
        check_n_directory(path, optimum.n)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        // The claim is checked (and reported) whatever the witness turns out to be.
        let claim_path = dir.join(&optimum.lower_bound).join("claim.json");
        let claim_report = self.check(&claim_path);
        let claim_status = claim_report.status;
        *needs_veripb = claim_report.needs_veripb;
        let grid = super::witness::check_optimum_witness(dir, optimum, messages)?;
        // The claim's own check judged its format; here only what it states
        // matters (a legacy claim is unverified, not failed).
        let claim = Record::read(&claim_path)?;
        let Some((n, level, below, statement)) = claim.claim_numbers() else {
            return Err(RecordError::Header("the lower bound is not a claim".into()).at(&claim_path));
        };
        if (n, below, level) != (optimum.n, optimum.optimum, optimum.lower_bound_level) {
            return Err(RecordError::Header(format!("the lower bound proves `{statement}`, not the bound the optimum needs")).at(&claim_path));
        }
        messages.push(format!("lower bound {} ({statement}): {}", claim_path.display(), claim_status.name()));
        let minima = self.check_level_minima(path, optimum, &grid, messages)?;
        let rests_on = [(claim_report.status, claim_report.needs_veripb), (minima.status, minima.needs_veripb)];
        *needs_veripb = rests_on.iter().filter(|(status, _)| *status == Status::Unverified).all(|&(_, veripb)| veripb);
        Ok(Status::Verified.and(claim_status).and(minima.status))
    }

    /// Holds every level minimum the optimum states against the claims
    /// beside it, each checked in this run. A claim "no level-j partial
    /// below B" bounds every level k >= j from below (a level-k partial
    /// reads as a level-j one of no greater penalty): a stated minimum below
    /// the bound of a claim verified here fails. A minimum is verified only
    /// when such a claim proves it from below (or it is 0). From above, the
    /// optimum's witness reaches the optimum at every level; the minima
    /// below it are reached by the search's models, shown on disk by a
    /// level witness beside their claim (`witness::check_level_witness`) or
    /// by the witness grid read at their level. A level the record calls
    /// `unreached` states only its lower bound, and is reported so.
    fn check_level_minima(&mut self, path: &Path, optimum: &Optimum, grid: &Partial, messages: &mut Vec<String>) -> Result<MinimaVerdict, HexError> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let minima = &optimum.level_minima;
        let mut claims = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(|source| HexError::Io { path: dir.into(), source })?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some((level, below)) = crate::records::ranges::claim_directory_numbers(&name) else { continue };
            // A claim below its level's stated minimum bounds nothing stated: not checked.
            let claim_path = entry.path().join("claim.json");
            if !(1..=6).contains(&level) || below < minima[usize::from(level) - 1] || !claim_path.is_file() {
                continue;
            }
            let report = self.check(&claim_path);
            if report.status != Status::Failed {
                let witness = entry.path().join(super::witness::LEVEL_WITNESS).is_file();
                claims.push(StatedBound { name, level, below, status: report.status, needs_veripb: report.needs_veripb, witness });
            }
        }
        // Verified claims first: the one a minimum is held against is the strongest word.
        claims.sort_by_key(|c| (c.status != Status::Verified, std::cmp::Reverse(c.below)));
        let mut verdict = MinimaVerdict { status: Status::Verified, needs_veripb: true };
        let (mut searched, mut resting, mut at_least) = (Vec::new(), Vec::new(), Vec::new());
        let unreached = optimum.unreached.as_deref().unwrap_or_default();
        for (k, &minimum) in (1u8..).zip(minima) {
            let bounding = |c: &&StatedBound| c.level <= k;
            if let Some(c) = claims.iter().filter(bounding).find(|c| c.below > minimum) {
                let why = format!("level_minima: level {k} is stated {minimum}, but {} ({}) says no level-{k} partial has penalty below {}", c.name, c.status.name(), c.below);
                // A claim whose proof was checked here (its derivation aside, for lack of VeriPB) outweighs the search's record.
                if c.status == Status::Verified || c.needs_veripb {
                    return Err(RecordError::Header(why).at(path));
                }
                messages.push(why);
                verdict.unverified(false);
                continue;
            }
            let from_below = claims.iter().filter(bounding).find(|c| c.below == minimum);
            match from_below {
                _ if minimum == 0 => {}
                None => {
                    messages.push(format!("level_minima: no claim beside the optimum proves the level-{k} minimum {minimum} from below: unverified"));
                    verdict.unverified(false);
                }
                Some(c) if c.status != Status::Verified => {
                    if !resting.contains(&c.name) {
                        resting.push(c.name.clone());
                    }
                    verdict.unverified(c.needs_veripb);
                }
                Some(_) => {}
            }
            let shown = from_below.is_some_and(|c| c.level == k && c.witness) || super::witness::penalty_at_level(grid, k)? == minimum;
            if unreached.contains(&k) {
                at_least.push(format!("level {k} at least {minimum}"));
            } else if k < optimum.lower_bound_level && !shown {
                searched.push(k.to_string());
            }
        }
        if !resting.is_empty() {
            messages.push(format!("level minima from below ({}): unverified", resting.join(", ")));
        }
        if verdict.status == Status::Verified {
            let mut reached = Vec::new();
            if !searched.is_empty() {
                reached.push(format!("level {} reached by the search's models (no level witness stored)", searched.join(", ")));
            }
            if !at_least.is_empty() {
                reached.push(format!("{} (no witness of that level reaches it)", at_least.join(", ")));
            }
            let reached = if reached.is_empty() { "each reached by a witness".into() } else { reached.join("; ") };
            let shown: Vec<String> = minima.iter().map(usize::to_string).collect();
            messages.push(format!("level minima {}: each proved from below by a claim verified in this run; {reached}", shown.join(" ")));
        }
        Ok(verdict)
    }
}

/// A claim beside an optimum, as this run judged it.
struct StatedBound {
    name: String,
    level: u8,
    below: usize,
    status: Status,
    needs_veripb: bool,
    /// A level witness beside it (checked with the claim).
    witness: bool,
}

/// What the level minima of an optimum came to.
struct MinimaVerdict {
    status: Status,
    /// Every reason they are unverified is VeriPB's absence.
    needs_veripb: bool,
}

impl MinimaVerdict {
    fn unverified(&mut self, for_lack_of_veripb: bool) {
        self.status = Status::Unverified;
        self.needs_veripb &= for_lack_of_veripb;
    }
}

/// `check --veripb --record` on a whole-formula claim: derives and checks
/// its CNF from the statement now and writes the record (and the trust base
/// it allows) into `claim.json`, atomically. Nothing else in the claim
/// changes. VeriPB not on PATH leaves the claim as it was, unverified.
fn record_statement(mut claim: Claim, path: &Path, messages: &mut Vec<String>) -> Result<Status, HexError> {
    let hex = Hexagon::new(claim.n)?;
    let options = claim.encode_options();
    let record = statement::derive_and_check(&hex, claim.level, claim.below, &options, &claim.cnf.sha256, path)?;
    if record.statement.is_some() && !record.accepted() {
        messages.push(format!("statement -> CNF: unverified, nothing recorded: {}", record.not_checked.as_deref().unwrap_or("VeriPB did not run")));
        return Ok(Status::Unverified);
    }
    let line = match &record.veripb {
        Some(v) => format!("statement -> CNF: recorded {} `{}` in {:.1} s", v.version, v.verdict, v.seconds),
        None => format!("statement -> CNF: recorded as {}", record.not_checked.as_deref().unwrap_or("not covered")),
    };
    claim.statement_to_cnf = Some(record);
    claim.trust_base = trust_base(Basis::of_claim(&claim, &options));
    crate::files::write_atomic(path, &serde_json::to_vec_pretty(&claim).expect("claims serialise"))?;
    messages.push(line);
    Ok(Status::Verified)
}

fn check_claim(path: &Path, claim: &Claim, checks: ProofChecks<'_>, messages: &mut Vec<String>) -> Result<Status, HexError> {
    let (regenerate, verified) = (checks.regenerate, checks.verified);
    // Ranges first: nothing out of range may reach the encoder.
    check_claim_ranges(claim, path)?;
    claim.check_consistency(path)?;
    crate::records::ranges::check_encoding_budget(claim.n, claim.level, claim.below, path)?;
    let _share = super::budget::reserve(claim.n, claim.level, claim.below, 1);
    check_n_directory(path, claim.n)?;
    check_claim_directory(path, claim.level, claim.below)?;
    let hex = Hexagon::new(claim.n)?;
    let dimacs = LevelEncoding::new(&hex, claim.level, claim.encode_options()).cnf.to_dimacs();
    if sha256_hex(&dimacs) != claim.cnf.sha256 {
        return Err(RecordError::Header("the CNF re-encoded from the claim's parameters does not match the recorded hash".into()).at(path));
    }
    messages.push("re-encoded CNF matches the recorded hash".into());
    if checks.keep && verified.is_some_and(|v| claim.verified_lrat.as_ref().is_some_and(|r| r.verified_acceptance() && r.version == v.version)) {
        messages.push(format!("{} accepted the proof in an earlier run (recorded); not checked in this one: rerun without --keep-verdicts to check it", crate::proofs::verified::NAME));
        return Ok(Status::Unverified);
    }
    let mut seen = None;
    let dir = path.parent().unwrap_or(Path::new("."));
    let inside = |dir: &Path, name: &str| stored_path(dir, name, "claim").map_err(|e| e.at(path));
    let stored = claim.cnf.stored_as.as_ref().zip(claim.proof.stored_as.as_ref());
    // Outside the claim directory: check only reads a certificate, so a
    // read-only copy checks as the original does.
    let work = || WorkDir::create(&std::env::temp_dir(), "hexcert-check");
    let (_work, cnf_path, proof_path, lrat) = if let Some((cnf_name, proof_name)) = stored {
        let work = work()?;
        let (cnf_path, proof_path) = (work.0.join("formula.cnf"), work.0.join("proof.drat"));
        compress::gunzip_file_limited(&inside(dir, cnf_name)?, &cnf_path, claim.cnf.bytes)?;
        compress::gunzip_file_limited(&inside(dir, proof_name)?, &proof_path, claim.proof.bytes)?;
        expect_hash(&cnf_path, &claim.cnf.sha256, "stored CNF")?;
        expect_hash(&proof_path, &claim.proof.sha256, "stored DRAT proof")?;
        messages.push("stored CNF and DRAT proof match their recorded hashes".into());
        let lrat = match claim.lrat_proof.as_ref().and_then(|r| r.stored_as.as_ref().map(|name| (r, name))) {
            Some((record, name)) => {
                let lrat_path = work.0.join("proof.lrat");
                compress::gunzip_file_limited(&inside(dir, name)?, &lrat_path, record.bytes)?;
                expect_hash(&lrat_path, &record.sha256, "stored LRAT proof")?;
                let checked = check_lrat_file(&cnf_path, &lrat_path, path)?;
                if let Some(checker) = verified {
                    seen = Some(checker.check_file(&cnf_path, &lrat_path)?);
                }
                Some(checked)
            }
            None => None,
        };
        (work, cnf_path, proof_path, lrat)
    } else if let Some(regenerate) = regenerate {
        let work = work()?;
        let cnf_path = work.0.join("formula.cnf");
        crate::files::write_atomic(&cnf_path, &dimacs)?;
        let stream = verified.map(|checker| checker.stream(&cnf_path)).transpose()?;
        let mut online = OnlineCheck::start_with(Against::Formula(dimacs), &work.0.join("proof.drat"), stream)?;
        let seconds = regenerate.regenerate(claim, online.sender())?;
        let crate::proofs::online::Finished { lrat: record, drat: proof_path, verified } = online.finish(Instant::now())?;
        seen = verified;
        if !record.verified {
            return Err(RecordError::LratRejected { what: "the regenerated proof".into(), verdict: record.verdict }.at(path));
        }
        expect_hash(&proof_path, &claim.proof.sha256, "regenerated DRAT proof")?;
        messages.push(format!("regenerated the proof in {seconds:.1} s; its DRAT twin matches the recorded hash"));
        let verdict = format!(
            "hexcert-lrat {}: {} on the regenerated trace ({} steps, {:.1} s of CPU)",
            record.version, record.verdict, record.steps, record.cpu_seconds
        );
        (work, cnf_path, proof_path, Some(verdict))
    } else {
        messages.push(NOT_STORED.into());
        return Ok(Status::Unverified);
    };
    if let Some(verdict) = seen {
        messages.push(verified_line(&verdict, path)?);
        if checks.keep {
            let mut kept = claim.clone();
            kept.verified_lrat = Some(verdict);
            kept.trust_base = trust_base(Basis::of_claim(&kept, &kept.encode_options()));
            crate::files::write_atomic(path, &serde_json::to_vec_pretty(&kept).expect("claims serialise"))?;
            messages.push("its verdict recorded in the claim".into());
        }
    }
    let external = external_drat_checks(&cnf_path, &proof_path, path)?;
    let verified = lrat.is_some() || !external.is_empty();
    messages.extend(lrat);
    messages.extend(external);
    if !verified {
        messages.push("no LRAT proof stored and no DRAT checker (drat-trim, rate) on PATH: nothing checked the proof".into());
        return Ok(Status::Unverified);
    }
    Ok(Status::Verified)
}

/// The line reporting the verified checker's acceptance; its rejection is
/// an error naming `claim_path`.
fn verified_line(verdict: &CheckerRecord, claim_path: &Path) -> Result<String, HexError> {
    if !verdict.verified_acceptance() {
        return Err(RecordError::LratRejected { what: format!("the proof (by {})", verdict.name), verdict: verdict.verdict.clone() }.at(claim_path));
    }
    Ok(format!("{}: {} ({}, {:.2} s, {} MB)", verdict.name, verdict.verdict, verdict.version, verdict.seconds, verdict.peak_memory_kb / 1024))
}

/// Checks a stored LRAT proof with the LRAT checker of `lrat/`; returns the
/// line to report. A rejection is an error naming `claim_path` and the step.
fn check_lrat_file(cnf: &Path, lrat: &Path, claim_path: &Path) -> Result<String, HexError> {
    let formula = std::fs::read(cnf).map_err(|source| HexError::Io { path: cnf.into(), source })?;
    let proof = std::fs::File::open(lrat).map_err(|source| HexError::Io { path: lrat.into(), source })?;
    let start = Instant::now();
    match hexcert_lrat::check(&formula, std::io::BufReader::new(proof)) {
        Ok(summary) => Ok(format!(
            "hexcert-lrat {}: s VERIFIED on the stored LRAT proof ({} additions, {} hints, {:.2} s)",
            hexcert_lrat::VERSION,
            summary.added,
            summary.hints,
            start.elapsed().as_secs_f64()
        )),
        Err(e) => Err(RecordError::LratRejected { what: "the stored LRAT proof".into(), verdict: e.to_string() }.at(claim_path)),
    }
}

/// The one place where `check` runs external DRAT checkers: every one on
/// PATH (drat-trim, rate) on (CNF, DRAT); returns the lines to report, none
/// when no checker is present. A rejection is an error naming `claim_path`.
pub fn external_drat_checks(cnf: &Path, proof: &Path, claim_path: &Path) -> Result<Vec<String>, HexError> {
    let mut lines = Vec::new();
    for checker in Checker::present() {
        let verdict = checker.check(cnf, proof)?;
        if !verdict.verified {
            return Err(RecordError::Header(format!("{} did not verify the DRAT proof: {}", checker.name, verdict.line)).at(claim_path));
        }
        lines.push(format!("{}: {} on the DRAT proof ({:.1} s)", checker.name, verdict.line, verdict.seconds));
    }
    Ok(lines)
}
