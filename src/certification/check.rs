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

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::cubes::{all_lifted, check_stored_lrat_with, cube_trust_base, judge, CubeClaim, CubeVerdict, CUBE_CLAIM_FORMAT};
use super::statement;
use super::WorkDir;
use crate::cubes::{cube_formula, split_formula};
use crate::encoding::LevelEncoding;
use crate::error::HexError;
use crate::formats::read_grid_file;
use crate::formula::Cnf;
use crate::geometry::Hexagon;
use crate::levels::FULL_LEVEL;
use crate::proofs::claim::read_json;
use crate::proofs::ranges::{check_claim_directory, check_claim_ranges, check_n_directory, check_optimum_ranges};
use crate::proofs::online::{Against, OnlineCheck};
use crate::proofs::trace::TraceSender;
use crate::proofs::{compress, sha256_file, sha256_hex, Checker, Claim, Optimum};
use crate::validation::evaluate;

/// What a run established about one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Everything the record states was checked in this run.
    Verified,
    /// Something the record states is false, inconsistent or unreadable.
    Failed,
    /// Nothing was found wrong, but not everything was checked (a proof not stored).
    Unverified,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Verified => "verified",
            Status::Failed => "failed",
            Status::Unverified => "unverified",
        }
    }

    /// The status of a record resting on two parts: the weaker of the two.
    fn and(self, other: Status) -> Status {
        match (self, other) {
            (Status::Failed, _) | (_, Status::Failed) => Status::Failed,
            (Status::Unverified, _) | (_, Status::Unverified) => Status::Unverified,
            _ => Status::Verified,
        }
    }
}

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
pub const EXIT_VERIFIED: u8 = 0;
pub const EXIT_FAILED: u8 = 1;
pub const EXIT_UNVERIFIED: u8 = 4;

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

    /// 0 only when every record was verified; 1 when any failed; else 4.
    pub fn exit_code(&self) -> u8 {
        if self.failed > 0 {
            EXIT_FAILED
        } else if self.unverified > 0 {
            EXIT_UNVERIFIED
        } else {
            EXIT_VERIFIED
        }
    }
}

/// Rebuilds the proof of a claim whose proof is not stored: re-solves the
/// claim's formula and sends every proof step, with its antecedents, to
/// `trace`; returns the solve seconds. It is trusted with nothing: `check`
/// feeds the trace to its own LRAT checker, built from the CNF it encoded
/// itself (so a solve of another formula fails), and requires the DRAT twin
/// written from that trace to hash to the claim's record.
pub trait Regenerate {
    fn regenerate(&self, claim: &Claim, trace: TraceSender) -> Result<f64, HexError>;
    /// The same for any formula that must be unsatisfiable (a cube's), named by `what`.
    fn regenerate_formula(&self, cnf: &Cnf, what: &str, trace: TraceSender) -> Result<f64, HexError>;
}

/// Claims written before proofs were traced with LRAT (CaDiCaL 2.2.1, a
/// DRAT proof checked by rate). This build cannot reproduce their proofs
/// byte for byte, so nothing here can verify them: they are reported, never
/// passed, until `certify` replaces them.
pub const LEGACY_CLAIM_FORMAT: &str = "hexcert-claim/1";
pub const LEGACY: &str = "a claim of the earlier pipeline (hexcert-claim/1: CaDiCaL 2.2.1, DRAT checked by rate); \
     this build cannot regenerate its proof: re-certify it with `hexcert certify`";

/// The message of a claim-only certificate checked without regeneration.
pub const NOT_STORED: &str = "proof not stored; run with --regenerate to re-solve and check it";

/// Every `claim.json` and `optimum.json` under the given paths (files or directories).
pub fn find_records(paths: &[PathBuf]) -> Result<Vec<PathBuf>, HexError> {
    let mut found = Vec::new();
    for path in paths {
        collect(path, &mut found)?;
    }
    found.sort();
    Ok(found)
}

fn collect(path: &Path, found: &mut Vec<PathBuf>) -> Result<(), HexError> {
    let meta = std::fs::metadata(path).map_err(|source| HexError::Io { path: path.into(), source })?;
    if meta.is_file() {
        found.push(path.to_path_buf());
        return Ok(());
    }
    let entries = std::fs::read_dir(path).map_err(|source| HexError::Io { path: path.into(), source })?;
    for entry in entries.flatten() {
        let p = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue; // work directories and temporaries
        }
        if p.is_dir() {
            collect(&p, found)?;
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
    check_paths_with(paths, regenerate, false, false)
}

/// `check_paths`, with `derivations` a VeriPB verdict required of every
/// claim a derivation can cover, and with `record` that verdict written into
/// each claim (see the module header).
pub fn check_paths_with(
    paths: &[PathBuf],
    regenerate: Option<&dyn Regenerate>,
    derivations: bool,
    record: bool,
) -> Result<Vec<CheckReport>, HexError> {
    let mut run = CheckRun::new(regenerate);
    run.derivations = derivations;
    run.record = record;
    for record in find_records(paths)? {
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
    /// Require a VeriPB verdict of every claim a derivation can cover.
    pub derivations: bool,
    /// Write this run's statement -> CNF verdict into each claim.
    pub record: bool,
    reports: Vec<CheckReport>,
    /// Canonical path of each report, to recognise a record reached again.
    keys: Vec<PathBuf>,
}

impl<'a> CheckRun<'a> {
    pub fn new(regenerate: Option<&'a dyn Regenerate>) -> CheckRun<'a> {
        CheckRun { regenerate, derivations: false, record: false, reports: Vec::new(), keys: Vec::new() }
    }

    /// The report of `path`, checking it unless this run already did.
    pub fn check(&mut self, path: &Path) -> CheckReport {
        let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if let Some(i) = self.keys.iter().position(|k| *k == key) {
            return self.reports[i].clone();
        }
        let mut report = CheckReport { path: path.to_path_buf(), status: Status::Verified, messages: Vec::new(), needs_veripb: false };
        let outcome = if path.file_name().is_some_and(|n| n == "optimum.json") {
            self.check_optimum(path, &mut report.messages, &mut report.needs_veripb)
        } else {
            check_claim(path, self.regenerate, &mut report.messages).and_then(|status| {
                let statement = self.check_statement(path, &mut report.messages)?;
                report.needs_veripb = status == Status::Verified
                    && statement == Status::Unverified
                    && !self.derivations
                    && crate::proofs::veripb::Veripb::find().is_none();
                Ok(status.and(statement))
            })
        };
        report.status = outcome.unwrap_or_else(|error| {
            report.messages.push(error.to_string());
            Status::Failed
        });
        report.needs_veripb &= report.status == Status::Unverified;
        self.keys.push(key);
        self.reports.push(report.clone());
        report
    }

    /// The statement -> CNF part of a claim whose CNF part did not fail.
    fn check_statement(&self, path: &Path, messages: &mut Vec<String>) -> Result<Status, HexError> {
        let format: serde_json::Value = read_json(path)?;
        match format.get("format").and_then(|f| f.as_str()) {
            Some(CUBE_CLAIM_FORMAT) => self.check_cube_statement(path, messages),
            // Already unverified, and its CNF is of an encoder this build lacks.
            Some(LEGACY_CLAIM_FORMAT) => Ok(Status::Verified),
            _ => {
                let claim: Claim = read_json(path)?;
                if self.record {
                    record_statement(claim, path, messages)
                } else {
                    statement::check_recorded(&claim, path, self.derivations, messages)
                }
            }
        }
    }

    fn check_cube_statement(&self, path: &Path, messages: &mut Vec<String>) -> Result<Status, HexError> {
        let mut claim: CubeClaim = read_json(path)?;
        if self.record {
            let record = statement::derive_and_check_split(&claim.plan, path)?;
            if !record.accepted() {
                let why = record.not_checked.as_deref().unwrap_or("VeriPB did not run");
                messages.push(format!("statement -> split formula: unverified, nothing recorded: {why}"));
                return Ok(Status::Unverified);
            }
            let verdict = record.veripb.as_ref().map(|v| format!("{} `{}` in {:.1} s", v.version, v.verdict, v.seconds)).unwrap_or_default();
            claim.trust_base = super::cubes::cube_trust_base(&claim.plan, Some(&record), super::cubes::all_lifted(&claim.cubes));
            claim.statement_to_cnf = Some(record);
            crate::files::write_atomic(path, &serde_json::to_vec_pretty(&claim).expect("claims serialise"))?;
            messages.push(format!("statement -> split formula: recorded {verdict}"));
            return Ok(Status::Verified);
        }
        statement::check_recorded_split(&claim.plan, claim.statement_to_cnf.as_ref(), &claim.trust_base, path, self.derivations, messages)
    }

    fn check_optimum(&mut self, path: &Path, messages: &mut Vec<String>, needs_veripb: &mut bool) -> Result<Status, HexError> {
        let optimum: Optimum = read_json(path)?;
        check_optimum_ranges(&optimum, path)?;
        check_n_directory(path, optimum.n)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        // The claim is checked (and reported) whatever the witness turns out to be.
        let claim_path = dir.join(&optimum.lower_bound).join("claim.json");
        let claim_report = self.check(&claim_path);
        let claim_status = claim_report.status;
        *needs_veripb = claim_report.needs_veripb;
        check_witness(dir, &optimum, messages)?;
        // Read loosely: the claim's own check judged its format; here only
        // what it states matters (a legacy claim is unverified, not failed).
        let claim: serde_json::Value = read_json(&claim_path)?;
        let field = |name: &str| claim.get(name).and_then(|v| v.as_u64());
        let statement = claim.get("statement").and_then(|v| v.as_str()).unwrap_or("(no statement)");
        let states = (field("n"), field("below"), field("level"));
        if states != (Some(optimum.n as u64), Some(optimum.optimum as u64), Some(u64::from(optimum.lower_bound_level))) {
            return Err(mismatch(&claim_path, format!("the lower bound proves `{statement}`, not the bound the optimum needs")));
        }
        messages.push(format!("lower bound {} ({statement}): {}", claim_path.display(), claim_status.name()));
        Ok(Status::Verified.and(claim_status))
    }
}

fn mismatch(path: &Path, message: String) -> HexError {
    HexError::Input { file: path.into(), line: 0, message }
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
    claim.trust_base = super::prove::trust_base(&options, &claim.drat_checks, Some(&record));
    claim.statement_to_cnf = Some(record);
    crate::files::write_atomic(path, &serde_json::to_vec_pretty(&claim).expect("claims serialise"))?;
    messages.push(line);
    Ok(Status::Verified)
}

fn check_claim(path: &Path, regenerate: Option<&dyn Regenerate>, messages: &mut Vec<String>) -> Result<Status, HexError> {
    let format: serde_json::Value = read_json(path)?;
    match format.get("format").and_then(|f| f.as_str()) {
        Some(LEGACY_CLAIM_FORMAT) => {
            messages.push(LEGACY.into());
            return Ok(Status::Unverified);
        }
        Some(CUBE_CLAIM_FORMAT) => return check_cube_claim(path, regenerate, messages),
        _ => {}
    }
    let claim: Claim = read_json(path)?;
    // Ranges first: nothing out of range may reach the encoder.
    check_claim_ranges(&claim, path)?;
    claim.check_consistency(path)?;
    check_n_directory(path, claim.n)?;
    check_claim_directory(path, claim.level, claim.below)?;
    let hex = Hexagon::new(claim.n)?;
    let dimacs = LevelEncoding::new(&hex, claim.level, claim.encode_options()).cnf.to_dimacs();
    if sha256_hex(&dimacs) != claim.cnf.sha256 {
        return Err(mismatch(path, "the CNF re-encoded from the claim's parameters does not match the recorded hash".into()));
    }
    messages.push("re-encoded CNF matches the recorded hash".into());
    let dir = path.parent().unwrap_or(Path::new("."));
    let stored = claim.cnf.stored_as.as_ref().zip(claim.proof.stored_as.as_ref());
    // Created only when there is something to check: a claim-only record in a
    // read-only checkout is then still reported as unverified, not failed.
    let work = || WorkDir::create(dir.join(format!(".check-{}", std::process::id())));
    let (_work, cnf_path, proof_path, lrat) = if let Some((cnf_name, proof_name)) = stored {
        let work = work()?;
        let (cnf_path, proof_path) = (work.0.join("formula.cnf"), work.0.join("proof.drat"));
        compress::gunzip_file(&dir.join(cnf_name), &cnf_path)?;
        compress::gunzip_file(&dir.join(proof_name), &proof_path)?;
        expect_hash(&cnf_path, &claim.cnf.sha256, "stored CNF")?;
        expect_hash(&proof_path, &claim.proof.sha256, "stored DRAT proof")?;
        messages.push("stored CNF and DRAT proof match their recorded hashes".into());
        let lrat = match claim.lrat_proof.as_ref().and_then(|r| r.stored_as.as_ref().map(|name| (r, name))) {
            Some((record, name)) => {
                let lrat_path = work.0.join("proof.lrat");
                compress::gunzip_file(&dir.join(name), &lrat_path)?;
                expect_hash(&lrat_path, &record.sha256, "stored LRAT proof")?;
                Some(check_lrat_file(&cnf_path, &lrat_path, path)?)
            }
            None => None,
        };
        (work, cnf_path, proof_path, lrat)
    } else if let Some(regenerate) = regenerate {
        let work = work()?;
        let cnf_path = work.0.join("formula.cnf");
        crate::files::write_atomic(&cnf_path, &dimacs)?;
        let mut online = OnlineCheck::start(dimacs, &work.0.join("proof.drat"))?;
        let seconds = regenerate.regenerate(&claim, online.sender())?;
        let (record, proof_path) = online.finish(Instant::now())?;
        if !record.verified {
            return Err(mismatch(path, format!("the LRAT checker rejected the regenerated proof: {}", record.verdict)));
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

/// A claim merged from cubes (`cubes merge`): the plan's cover enumerated
/// again, every cube's record checked against its re-encoded formula, and
/// every cube's proof checked in this run: its stored LRAT proof by the LRAT
/// checker, or (with `--regenerate`) the cube re-solved, its trace checked
/// and its DRAT twin required to hash to the record. A cube whose proof is
/// neither stored nor regenerated leaves the claim unverified.
fn check_cube_claim(path: &Path, regenerate: Option<&dyn Regenerate>, messages: &mut Vec<String>) -> Result<Status, HexError> {
    let claim: CubeClaim = read_json(path)?;
    crate::proofs::ranges::check_statement_numbers(claim.n, claim.level, claim.below, path)?;
    if claim.statement != Claim::statement_for(claim.n, claim.level, claim.below) {
        return Err(mismatch(path, "statement does not match n, level and bound".into()));
    }
    check_n_directory(path, claim.n)?;
    check_claim_directory(path, claim.level, claim.below)?;
    let plan = &claim.plan;
    plan.validate(path)?;
    if (plan.n, plan.level, plan.below) != (claim.n, claim.level, claim.below) {
        return Err(mismatch(path, format!("the plan is for `{}`, not the claim's statement", plan.statement)));
    }
    if claim.trust_base != cube_trust_base(plan, claim.statement_to_cnf.as_ref(), all_lifted(&claim.cubes)) {
        return Err(mismatch(path, "the trust base is not the one this build states for a cube claim".into()));
    }
    let encoding = plan.encoding()?;
    if sha256_hex(&encoding.cnf.to_dimacs()) != plan.formula_sha256 {
        return Err(mismatch(path, "the formula re-encoded from the plan does not match the recorded hash".into()));
    }
    messages.push("re-encoded formula matches the plan's hash".into());
    let cover = plan.check_cover().map_err(|e| mismatch(path, format!("the plan's cover does not hold: {e}")))?;
    messages.push(format!(
        "cover enumerated: {} projections, {} refuted locally, {} images of the {} cubes",
        cover.projections, cover.refuted, cover.covered, plan.cubes.len()
    ));
    if claim.cubes.len() != plan.cubes.len() {
        return Err(mismatch(path, format!("{} cube records for the plan's {} cubes", claim.cubes.len(), plan.cubes.len())));
    }
    let split = plan.split()?;
    // Stored cube proofs are read on the split formula T (each a derivation
    // of its selector's negation), so that T's refutation is seen by the
    // checker, not inferred from the cube formulas' hashes.
    let split_dimacs = split_formula(&encoding, &split, &plan.cubes).to_dimacs();
    let mut lifted = hexcert_lrat::Lifted::from_dimacs(&split_dimacs, encoding.cnf.clauses().len())
        .map_err(|e| mismatch(path, format!("the split formula is not read as one by the LRAT checker: {e}")))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut work = None;
    let (mut stored, mut regenerated, mut unchecked) = (0, 0, 0);
    for (index, (cube, record)) in plan.cubes.iter().zip(&claim.cubes).enumerate() {
        let bad = |why: String| mismatch(path, format!("cube {index}: {why}"));
        let cnf = cube_formula(&encoding, &split, cube);
        let dimacs = cnf.to_dimacs();
        let record = judge(plan, index, &dimacs, record.clone()).map_err(bad)?;
        let Some(proof_sha256) = record.proof_sha256.as_deref().filter(|_| record.verdict == CubeVerdict::Refuted) else {
            return Err(bad("not a refutation".into()));
        };
        let stored_proof = record.lrat_proof.as_ref().and_then(|f| f.stored_as.as_ref().map(|name| (f, name)));
        if stored_proof.is_none() && regenerate.is_none() {
            unchecked += 1;
            continue;
        }
        if work.is_none() {
            work = Some(WorkDir::create(dir.join(format!(".check-{}", std::process::id())))?);
        }
        let work_dir = &work.as_ref().expect("created").0;
        if let Some((file, name)) = stored_proof {
            let units = cube.units(&encoding, &split);
            check_stored_lrat_with(&dir.join(name), &file.sha256, work_dir, |proof| {
                lifted.check_proof(index, &units, proof).map(|s| (s.added, s.hints))
            })
            .map_err(bad)?;
            stored += 1;
        } else if let Some(regenerate) = regenerate {
            let against = Against::Split {
                split: split_dimacs.clone(),
                base: encoding.cnf.clauses().len(),
                cube: index,
                units: cube.units(&encoding, &split),
            };
            let mut online = OnlineCheck::start_against(against, &work_dir.join("cube.drat"))?;
            regenerate.regenerate_formula(&cnf, &format!("cube {index} of `{}`", claim.statement), online.sender())?;
            let (lrat, drat) = online.finish(Instant::now())?;
            if !lrat.verified {
                return Err(bad(format!("the LRAT checker rejected the regenerated proof: {}", lrat.verdict)));
            }
            expect_hash(&drat, proof_sha256, &format!("cube {index}'s regenerated DRAT proof"))?;
            regenerated += 1;
        }
    }
    messages.push(format!(
        "{} cubes: {stored} stored LRAT proofs verified by hexcert-lrat {}, {regenerated} re-solved with their traces verified and DRAT hashes matched, {unchecked} not checked",
        plan.cubes.len(),
        hexcert_lrat::VERSION
    ));
    if stored == plan.cubes.len() {
        let summary = lifted.conclude().map_err(|e| mismatch(path, format!("the lifted cube proofs do not refute the split formula: {e}")))?;
        messages.push(format!(
            "split formula refuted by hexcert-lrat: every stored cube proof read on it derives its selector's negation, then the empty clause ({} additions)",
            summary.added
        ));
    } else if stored + regenerated == plan.cubes.len() {
        messages.push("split formula refuted: every cube's proof (stored, or re-solved and traced) read on it by hexcert-lrat derives its selector's negation, and its last clause is the disjunction of the selectors".into());
    } else if stored + regenerated > 0 {
        messages.push(format!("{} cube proofs read on the split formula derive their selectors' negations", stored + regenerated));
    }
    if unchecked > 0 {
        messages.push(format!("{unchecked} cube proofs are not stored; run with --regenerate to re-solve and check them"));
        return Ok(Status::Unverified);
    }
    Ok(Status::Verified)
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
        Err(e) => Err(mismatch(claim_path, format!("the LRAT checker rejected the stored LRAT proof: {e}"))),
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
            return Err(mismatch(claim_path, format!("{} did not verify the DRAT proof: {}", checker.name, verdict.line)));
        }
        lines.push(format!("{}: {} on the DRAT proof ({:.1} s)", checker.name, verdict.line, verdict.seconds));
    }
    Ok(lines)
}

fn expect_hash(file: &Path, expected: &str, what: &str) -> Result<(), HexError> {
    let actual = sha256_file(file).map_err(|source| HexError::Io { path: file.into(), source })?;
    if actual != expected {
        return Err(mismatch(file, format!("{what} has sha256 {actual}, the claim records {expected}")));
    }
    Ok(())
}

/// The witness hashes to the record, is a full grid, and the plain validator
/// accepts it with exactly the optimum penalty.
fn check_witness(dir: &Path, optimum: &Optimum, messages: &mut Vec<String>) -> Result<(), HexError> {
    let witness_path = dir.join(&optimum.witness);
    expect_hash(&witness_path, &optimum.witness_sha256, "witness grid")?;
    let grid = read_grid_file(&witness_path, Some(optimum.n))?;
    if grid.partial.level() != FULL_LEVEL {
        return Err(mismatch(&witness_path, "the witness is not a full grid".into()));
    }
    let evaluation = evaluate(&Hexagon::new(optimum.n)?, &grid.partial);
    if !evaluation.is_valid() {
        return Err(mismatch(&witness_path, format!("the witness is invalid: {} cells lack support", evaluation.violations.len())));
    }
    if evaluation.penalty != optimum.optimum {
        return Err(mismatch(&witness_path, format!("the witness has penalty {}, the record claims {}", evaluation.penalty, optimum.optimum)));
    }
    messages.push(format!("witness valid with penalty {}", evaluation.penalty));
    Ok(())
}
