//! `hexcert check` on a claim merged from cubes: the plan's cover
//! enumerated again, every cube's record judged against its re-encoded
//! formula, and every cube's proof checked in this run (stored, read on the
//! split formula; or re-solved and its trace checked). A cube whose proof
//! is neither stored nor regenerated is attested, not checked: the claim is
//! then unverified, whatever its records say.

use std::path::{Path, PathBuf};

use super::cube_proofs::{regenerate_cubes, Books, ClaimCubes, ProofTally};
use super::regenerate::{ProofChecks, Regenerate};
use crate::cubes::split_formula;
use crate::digest::sha256_hex;
use crate::encoding::LevelEncoding;
use crate::error::HexError;
use crate::error::RecordError;
use crate::options;
use crate::proofs::online::Finished;
use crate::proofs::verified::write_formula;
use crate::records::cube::{attested_cubes, check_stored_lrat_with};
use crate::records::header::Stated;
use crate::records::ranges::{check_claim_directory, check_encoding_budget, check_n_directory};
use crate::records::read::stored_path;
use crate::records::read::Checked;
use crate::records::reproduction::{self, reproductions, Reproduction};
use crate::records::trust::{trust_base, Basis};
use crate::records::{CheckerRecord, CubeClaim, CubeResult, FileRecord, Status};
use crate::run::WorkDir;

/// What a cube claim states, before any proof: its header and place, its
/// plan (format, numbers, cover enumerated again, formula re-encoded to its
/// hash), the attested cubes it lists and its trust base. Returns the plan's
/// formula.
fn check_statement_and_plan(
    path: &Path,
    claim: &CubeClaim,
    messages: &mut Vec<String>,
) -> Result<LevelEncoding, HexError> {
    // Its format, numbers and fields were judged as it was read (`records::cube`).
    check_n_directory(path, claim.n)?;
    check_claim_directory(path, claim.level, claim.below)?;
    let plan = &claim.plan;
    plan.validate(path)?;
    if !plan.header().same_claim(&claim.header()) {
        return Err(
            RecordError::Header(format!("the plan is for `{}`, not the claim's statement", plan.statement)).at(path)
        );
    }
    if claim.attested.as_ref().is_some_and(|listed| *listed != attested_cubes(&claim.cubes)) {
        return Err(
            RecordError::Header("the attested cubes listed are not those whose proofs are not stored".into()).at(path)
        );
    }
    if claim.trust_base != trust_base(Basis::of_cube_claim(claim)) {
        return Err(
            RecordError::Header("the trust base is not the one this build states for a cube claim".into()).at(path)
        );
    }
    let encoding = plan.encoding()?;
    if sha256_hex(&encoding.cnf.to_dimacs()) != plan.formula_sha256 {
        return Err(RecordError::Header(
            "the formula re-encoded from the plan does not match the recorded hash".into(),
        )
        .at(path));
    }
    messages.push("re-encoded formula matches the plan's hash".into());
    let cover =
        plan.check_cover().map_err(|e| RecordError::Header(format!("the plan's cover does not hold: {e}")).at(path))?;
    messages.push(format!(
        "cover enumerated: {} projections, {} refuted locally, {} images of the {} cubes",
        cover.projections,
        cover.refuted,
        cover.covered,
        plan.cubes.len()
    ));
    if claim.cubes.len() != plan.cubes.len() {
        return Err(RecordError::Header(format!(
            "{} cube records for the plan's {} cubes",
            claim.cubes.len(),
            plan.cubes.len()
        ))
        .at(path));
    }
    Ok(encoding)
}

/// A claim merged from cubes (`cubes merge`): the plan's cover enumerated
/// again, every cube's record checked against its re-encoded formula, and
/// every cube's proof checked in this run: its stored LRAT proof by the LRAT
/// checker, or (with `--regenerate`) the cube re-solved, its trace checked
/// and its DRAT twin required to hash to the record; and by the verified
/// checker too when one is given. A cube whose proof is neither stored nor
/// regenerated leaves the claim unverified.
/// With `checks.keep`, each verdict is written into the file as it is
/// reached, and `claim` becomes what the file then holds.
///
/// # Errors
///
/// `HexError::Record` (`RecordError::OverBudget`), before anything is encoded,
/// when the formula held `CUBE_CLAIM_COPIES` times is over budget;
/// `HexError::Input` or `HexError::Record` (`RecordError::Header`) when the
/// statement, its place, the plan (its hash, its cover), the attested list, the
/// trust base or a cube's record does not hold, or a cube's stored proof lies
/// outside the claim directory, is mis-hashed or rejected (the verified
/// checker's rejection is `RecordError::LratRejected`); with
/// `checks.regenerate`, `rebuild_checked`'s errors; `RecordError::Changed` when
/// `checks.keep` finds the file rewritten meanwhile; `HexError::Io` for the
/// work directory.
pub fn check_cube_claim(
    path: &Path,
    claim: &mut CubeClaim,
    checks: ProofChecks<'_>,
    messages: &mut Vec<String>,
) -> Result<Status, HexError> {
    let copies = options::CUBE_CLAIM_COPIES.default;
    check_encoding_budget(claim.plan.n, claim.plan.level, claim.plan.below, copies, path)?;
    let _share = super::budget::reserve(claim.plan.n, claim.plan.level, claim.plan.below, copies);
    let encoding = check_statement_and_plan(path, claim, messages)?;
    let mut cubes = CubeProofs::new(path, claim, encoding)?;
    let mut queue = Vec::new();
    for index in 0..claim.plan.cubes.len() {
        cubes.check(index, checks, &mut queue)?;
    }
    if let (Some(regenerate), false) = (checks.regenerate, queue.is_empty()) {
        let work = cubes.work_dir()?;
        // Each worker holds a cube formula and a copy of the split formula.
        let jobs = fitting_jobs(&claim.plan, checks.jobs, copies);
        let _more = (jobs > 1)
            .then(|| super::budget::reserve(claim.plan.n, claim.plan.level, claim.plan.below, 2 * (jobs as u64 - 1)));
        let done =
            regenerate_cubes(&cubes.cubes, &mut cubes.books, queue, &work, regenerate, ProofChecks { jobs, ..checks });
        if let Err(error) = done {
            // A run stopped part-way keeps its reproductions: say what they come to before the stop's line.
            if checks.across_runs {
                let (count, earlier) = (claim.plan.cubes.len(), cubes.books.tally.reproduced_earlier);
                messages.extend(CubeProofs::reproduced_lines(&cubes.books.reproductions, count, earlier));
            }
            return Err(error);
        }
    }
    let (status, kept) = cubes.conclude(checks, messages)?;
    *claim = kept;
    Ok(status.and(solver_judged(claim.unknown_solver(), messages)))
}

/// A record naming a solver hexcert never ran (`ranges::unknown_solver`)
/// still reads and is checked, but its word on the solver is not this
/// build's to vouch for: unverified, and said why.
pub(crate) fn solver_judged(unknown: Option<String>, messages: &mut Vec<String>) -> Status {
    match unknown {
        Some(why) => {
            messages.push(format!("{why}: the record's solver is not one this build knows (unverified)"));
            Status::Unverified
        }
        None => Status::Verified,
    }
}

/// Cube `index` of the cube claim `claim` (read from `path`) rebuilt for
/// export: the claim's statement and plan checked as `check` does them
/// (the cover enumerated again), the cube's record judged against its
/// re-encoded formula, the cube re-solved with the profile its record names,
/// its trace read by hexcert-lrat on the split formula, and its DRAT twin
/// (written to `drat`, the whole LRAT proof beside it) required to hash to
/// the record. Returns the cube's DIMACS bytes, its record and the solve.
///
/// # Errors
///
/// `HexError::Usage` when `index` is not a cube of the plan; the budget,
/// statement and plan errors of `check_cube_claim` (`HexError::Input`,
/// `HexError::Record`); `HexError::Record` (`RecordError::Header`) when cube
/// `index`'s record fails `judge` or is not a refutation; then
/// `rebuild_checked`'s errors: the solve's own, `HexError::Record`
/// (`RecordError::LratRejected`, `RecordError::HashMismatch`) for a rejected
/// trace or a DRAT twin of another hash, `HexError::Io` and
/// `HexError::Internal` for the proof files and the checker thread.
pub fn rebuild_cube(
    path: &Path,
    claim: &CubeClaim,
    index: usize,
    regenerate: &dyn Regenerate,
    drat: &Path,
    messages: &mut Vec<String>,
) -> Result<(Vec<u8>, CubeResult, Finished, f64), HexError> {
    if index >= claim.plan.cubes.len() {
        return Err(HexError::Usage(format!("--cube {index}: the plan has cubes 0..{}", claim.plan.cubes.len())));
    }
    check_encoding_budget(claim.plan.n, claim.plan.level, claim.plan.below, options::CUBE_CLAIM_COPIES.default, path)?;
    let encoding = check_statement_and_plan(path, claim, messages)?;
    let cubes = CubeProofs::new(path, claim, encoding)?.cubes;
    let (cnf, dimacs, record) = cubes.judged(index)?;
    let proof_sha256 = record.proof_sha256.as_deref().expect("judged a refutation");
    let (finished, seconds) = cubes.rebuild(
        index,
        regenerate,
        (&cnf, record.solver_profile.as_deref(), proof_sha256),
        (drat, u64::MAX),
        None,
    )?;
    Ok((dimacs, record, finished, seconds))
}

/// Cube claim `plan`'s re-solves at once that the encoding budget holds,
/// at most `jobs`: each beyond the first holds two more copies of the
/// formula (its cube formula, its split formula) beside the check's `copies`.
fn fitting_jobs(plan: &crate::cubes::Plan, jobs: usize, copies: u64) -> usize {
    let one = crate::records::ranges::encoding_estimate_mb(plan.n, plan.level, plan.below);
    let fits = |j: usize| one.saturating_mul(copies + 2 * (j as u64 - 1)) <= options::ENCODING_BUDGET_MB.default;
    (1..=jobs.max(1)).rev().find(|&j| fits(j)).unwrap_or(1)
}

/// The cube proofs of one claim, checked one by one against its split
/// formula (the re-solves queued for `regenerate_cubes`).
struct CubeProofs<'a> {
    cubes: ClaimCubes<'a>,
    /// Stored cube proofs are read on the split formula T (each a derivation
    /// of its selector's negation), so that T's refutation is seen by the
    /// checker, not inferred from the cube formulas' hashes.
    lifted: hexcert_lrat::Lifted,
    /// Made on the first proof checked, outside the claim directory, which check only reads.
    work: Option<WorkDir>,
    books: Books,
}

impl<'a> CubeProofs<'a> {
    fn new(path: &'a Path, claim: &'a CubeClaim, encoding: LevelEncoding) -> Result<CubeProofs<'a>, HexError> {
        let split = claim.plan.split()?;
        let split_dimacs = split_formula(&encoding, &split, &claim.plan.cubes).to_dimacs();
        let lifted = hexcert_lrat::Lifted::from_dimacs(&split_dimacs, encoding.cnf.clauses().len()).map_err(|e| {
            RecordError::Header(format!("the split formula is not read as one by the LRAT checker: {e}")).at(path)
        })?;
        let books = Books { kept: claim.clone(), tally: ProofTally::default(), reproductions: Vec::new() };
        Ok(CubeProofs { cubes: ClaimCubes { path, claim, encoding, split, split_dimacs }, lifted, work: None, books })
    }

    fn work_dir(&mut self) -> Result<PathBuf, HexError> {
        if self.work.is_none() {
            self.work = Some(WorkDir::create_temp("hexcert-check")?);
        }
        Ok(self.work.as_ref().expect("created").0.clone())
    }

    /// Cube `index`: its record judged, then its proof checked (stored),
    /// queued to be re-solved, or counted as not checked in this run.
    fn check(&mut self, index: usize, checks: ProofChecks<'_>, queue: &mut Vec<usize>) -> Result<(), HexError> {
        let (_, dimacs, record) = self.cubes.judged(index)?;
        let stored_proof = record.lrat_proof.as_ref().and_then(|f| f.stored_as.as_ref().map(|name| (f, name)));
        let resumed = checks.keep
            && checks.verified.is_some_and(|v| record.verified_lrat.as_ref().is_some_and(|r| r.resumes(&v.version)));
        if resumed {
            self.books.tally.earlier += 1;
            self.books.tally.unchecked += 1;
        } else if let Some((file, name)) = stored_proof {
            if let Some(verdict) = self.check_stored(index, (file, name), &dimacs, checks)? {
                self.books.take_verdict(self.cubes.path, index, verdict, checks.keep)?;
            }
        } else if checks.regenerate.is_some() {
            match self.reproduced(index, &record, checks)? {
                Some(earlier) => {
                    self.books.tally.unchecked += 1;
                    self.books.tally.reproduced_earlier += 1;
                    self.books.reproductions.push(earlier);
                }
                None => queue.push(index),
            }
        } else {
            self.books.tally.unchecked += 1;
        }
        Ok(())
    }

    /// Cube `index`'s reproduction by an earlier run, when this run spreads
    /// its re-check over runs (`checks.across_runs`) and one is recorded:
    /// of this claim's cube and its proof's hash, and an acceptance.
    fn reproduced(
        &self,
        index: usize,
        record: &CubeResult,
        checks: ProofChecks<'_>,
    ) -> Result<Option<Reproduction>, HexError> {
        if !checks.across_runs {
            return Ok(None);
        }
        let ledger = reproductions(self.cubes.path.parent().unwrap_or(Path::new(".")));
        let name = reproduction::unit_name(index);
        let found = ledger.resume(&name, &Reproduction::expected(&self.cubes.claim.statement, index, record))?;
        if let Some(earlier) = &found {
            earlier.check_read(&ledger.path(&name))?;
        }
        Ok(found)
    }

    /// A stored cube proof, read by the LRAT checker on the split formula
    /// and given to the verified checker too when there is one.
    fn check_stored(
        &mut self,
        index: usize,
        (file, name): (&FileRecord, &String),
        dimacs: &[u8],
        checks: ProofChecks<'_>,
    ) -> Result<Option<CheckerRecord>, HexError> {
        let work_dir = self.work_dir()?;
        let dir = self.cubes.path.parent().unwrap_or(Path::new("."));
        let units = self.cubes.claim.plan.cubes[index].units(&self.cubes.encoding, &self.cubes.split);
        let gz = stored_path(dir, name, "claim").map_err(|e| self.cubes.bad(index, e.to_string()))?;
        let lifted = &mut self.lifted;
        check_stored_lrat_with(&gz, file, &work_dir, |proof| {
            lifted.check_proof(index, &units, proof).map(|s| (s.added, s.hints))
        })
        .map_err(|why| self.cubes.bad(index, why.to_string()))?;
        self.books.tally.stored += 1;
        match checks.verified {
            Some(checker) => Ok(Some(checker.check_gz(&write_formula(&work_dir, dimacs)?, &dir.join(name))?)),
            None => Ok(None),
        }
    }

    /// What the cubes' proofs came to: the split formula refuted when every
    /// proof was checked in this run, unverified otherwise.
    fn conclude(
        mut self,
        checks: ProofChecks<'_>,
        messages: &mut Vec<String>,
    ) -> Result<(Status, CubeClaim), HexError> {
        let (
            ProofTally { stored, regenerated, unchecked, earlier, reproduced_earlier, by_verified, held, held_line },
            count,
        ) = (self.books.tally, self.cubes.claim.plan.cubes.len());
        messages.push(format!(
            "{count} cubes: {stored} stored LRAT proofs verified by hexcert-lrat {}, {regenerated} re-solved with their traces verified and DRAT hashes matched, {unchecked} not checked",
            hexcert_lrat::VERSION
        ));
        if let Some(checker) = checks.verified {
            messages.push(format!(
                "{by_verified} cube proofs verified by {} in this run ({}, {})",
                crate::proofs::verified::NAME,
                checker.version,
                checker.build
            ));
        }
        if let Some((recorded, new)) = held_line {
            messages.push(recorded.kept_line(&new, &format!("{held} of {count} cubes")));
        }
        messages.extend(Self::recorded_verdicts_line(&self.books.kept, (count, earlier, by_verified)));
        if stored == count {
            let summary = self.lifted.conclude().map_err(|e| {
                RecordError::Header(format!("the lifted cube proofs do not refute the split formula: {e}"))
                    .at(self.cubes.path)
            })?;
            messages.push(format!(
                "split formula refuted by hexcert-lrat: every stored cube proof read on it derives its selector's negation, then the empty clause ({} additions)",
                summary.added
            ));
        } else if stored + regenerated == count {
            messages.push("split formula refuted: every cube's proof (stored, or re-solved and traced) read on it by hexcert-lrat derives its selector's negation, and its last clause is the disjunction of the selectors".into());
        } else if stored + regenerated > 0 {
            messages.push(format!(
                "{} cube proofs read on the split formula derive their selectors' negations",
                stored + regenerated
            ));
        }
        if unchecked > earlier + reproduced_earlier {
            messages.push(format!(
                "{} cube proofs not checked in this run; run with --regenerate to re-solve and check them",
                unchecked - earlier - reproduced_earlier
            ));
        }
        if checks.across_runs && checks.regenerate.is_some() {
            messages.extend(Self::reproduced_lines(&self.books.reproductions, count, reproduced_earlier));
        }
        if earlier > 0 {
            messages.push(format!("{earlier} cube proofs checked by earlier runs (their recorded verdicts), not in this one: rerun without --keep-verdicts to check them all"));
        }
        Ok((if unchecked > 0 { Status::Unverified } else { Status::Verified }, self.books.kept))
    }

    /// What a re-check spread over runs has come to: how many cubes are
    /// reproduced, by this run and by earlier ones, and which run did which.
    fn reproduced_lines(reproductions: &[Reproduction], count: usize, earlier: usize) -> Vec<String> {
        let done = reproductions.len();
        let mut lines = vec![if done == count {
            format!(
                "every cube reproduced ({} in this run, {earlier} by earlier runs): re-solved, its trace verified by hexcert-lrat on the split formula and its DRAT hash matched to the claim's record",
                done - earlier
            )
        } else {
            format!(
                "{done} of {count} cubes reproduced ({} in this run, {earlier} by earlier runs); run again with --regenerate --across-runs for the other {}",
                done - earlier,
                count - done
            )
        }];
        lines.extend(reproduction::by_run(reproductions).into_iter().map(|run| format!("reproduced by {run}")));
        lines
    }

    /// The line on the verified checker's acceptances the cubes' records
    /// hold (`None` when none does): how many, and which count.
    fn recorded_verdicts_line(
        kept: &CubeClaim,
        (count, earlier, by_verified): (usize, usize, usize),
    ) -> Option<String> {
        let verdicts: Vec<&CheckerRecord> =
            kept.cubes.iter().filter_map(|c| c.verified_lrat.as_ref().filter(|v| v.verified_acceptance())).collect();
        if verdicts.is_empty() {
            return None;
        }
        let by_earlier = if earlier > 0 {
            format!(" ({earlier} by earlier runs, not re-checked in this one)")
        } else {
            String::new()
        };
        let unbound = verdicts.iter().filter(|v| v.read.is_none()).count();
        let unknown = verdicts.iter().filter(|v| v.read.is_some() && !v.counts_as_verified()).count();
        let mut how = vec![format!(
            "recorded{}",
            if by_verified > 0 { ", this run's among them" } else { ", not checked in this run" }
        )];
        if unbound > 0 {
            how.push(format!("{unbound} without the hashes of what they read: attested only"));
        }
        if unknown > 0 {
            how.push(format!("{unknown} by an unknown build, not counted as the verified checker"));
        }
        Some(format!(
            "{} of {count} cubes record a {} acceptance of their proof{by_earlier} ({})",
            verdicts.len(),
            crate::proofs::verified::NAME,
            how.join("; ")
        ))
    }
}
