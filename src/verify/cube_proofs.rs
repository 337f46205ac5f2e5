//! A cube claim's cube proofs re-solved (`check --regenerate`): each cube
//! solved again with the profile its record names, its trace read by
//! hexcert-lrat on the split formula, its DRAT twin required to hash to the
//! record, and its LRAT proof piped to the verified checker when one is
//! given; several cubes at once with `check --jobs`.
//!
//! Why in parallel: a claim is verified only by a run that checked every
//! cube itself, so a claim whose cubes took 17,000 CPU s (n = 17's level 3)
//! could never be verified by one run on a machine stopped every three
//! hours, one cube at a time. The cubes are independent (each its own
//! formula, solver, checker thread and work directory); only the books
//! (the tally, the verdicts kept in the claim) are shared, and they are kept
//! by the calling thread as the results arrive, in the order they finish.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use super::regenerate::{rebuild_checked, ProofChecks, Rebuild, Regenerate};
use crate::cubes::{cube_formula, Split};
use crate::encoding::LevelEncoding;
use crate::error::{AtPath, HexError, RecordError};
use crate::formula::Cnf;
use crate::proofs::online::{Against, Finished, LRAT_FILE_CAP};
use crate::proofs::verified::{write_formula, Stream};
use crate::records::cube::judge;
use crate::records::reproduction::{self, reproductions, Reproduction};
use crate::records::trust::{trust_base, Basis};
use crate::records::{CheckerRecord, CubeClaim, CubeResult, CubeVerdict};

/// How the cubes' proofs were checked in this run.
#[derive(Default)]
pub struct ProofTally {
    /// Stored LRAT proofs read on the split formula.
    pub stored: usize,
    /// Re-solved, their traces read on the split formula.
    pub regenerated: usize,
    /// Not checked in this run (`earlier` of them by an earlier run's verdict).
    pub unchecked: usize,
    pub earlier: usize,
    /// Of `unchecked`, reproduced by an earlier run of a re-check spread over runs.
    pub reproduced_earlier: usize,
    /// Accepted by the verified checker in this run.
    pub by_verified: usize,
    /// Kept verdicts this run's could not replace (`CheckerRecord::may_replace`), the first of them.
    pub held: usize,
    pub held_line: Option<(CheckerRecord, CheckerRecord)>,
}

/// What every cube's check reads and none writes: the claim, its formula
/// and split (shared by the threads that re-solve cubes at once).
pub struct ClaimCubes<'a> {
    pub path: &'a Path,
    pub claim: &'a CubeClaim,
    pub encoding: LevelEncoding,
    pub split: Split,
    pub split_dimacs: Vec<u8>,
}

impl ClaimCubes<'_> {
    pub fn bad(&self, index: usize, why: String) -> HexError {
        RecordError::Header(format!("cube {index}: {why}")).at(self.path)
    }

    /// Cube `index`'s formula (and its DIMACS bytes) and its record, judged
    /// against it: a refutation with a DRAT hash, or an error.
    ///
    /// # Errors
    ///
    /// `HexError::Record` (`RecordError::Header`) when the record fails
    /// `judge` or is not a refutation with a DRAT hash.
    pub fn judged(&self, index: usize) -> Result<(Cnf, Vec<u8>, CubeResult), HexError> {
        let plan = &self.claim.plan;
        let cnf = cube_formula(&self.encoding, &self.split, &plan.cubes[index]);
        let dimacs = cnf.to_dimacs();
        let record = judge(plan, index, &dimacs, self.claim.cubes[index].clone())
            .map_err(|why| self.bad(index, why.to_string()))?;
        if record.verdict != CubeVerdict::Refuted || record.proof_sha256.is_none() {
            return Err(self.bad(index, "not a refutation".into()));
        }
        Ok((cnf, dimacs, record))
    }

    /// Cube `index` (its formula `cnf`) re-solved with `profile`, its trace
    /// read on the split formula, its DRAT twin written to `drat` (the LRAT
    /// proof beside it, kept under `lrat_cap` bytes) and required to hash to
    /// `proof_sha256`.
    ///
    /// # Errors
    ///
    /// `rebuild_checked`'s: the solve's own, `HexError::Record`
    /// (`RecordError::LratRejected`, `RecordError::HashMismatch`) for a
    /// rejected trace or a DRAT twin of another hash, `HexError::Io` and
    /// `HexError::Internal` for the proof files and the checker thread.
    pub fn rebuild(
        &self,
        index: usize,
        regenerate: &dyn Regenerate,
        (cnf, profile, proof_sha256): (&Cnf, Option<&str>, &str),
        (drat, lrat_cap): (&Path, u64),
        verified: Option<Stream>,
    ) -> Result<(Finished, f64), HexError> {
        let units = self.claim.plan.cubes[index].units(&self.encoding, &self.split);
        let against = Against::Split {
            split: self.split_dimacs.clone(),
            base: self.encoding.cnf.clauses().len(),
            cube: index,
            units,
        };
        let rebuild = Rebuild {
            against,
            drat,
            verified,
            lrat_cap,
            drat_sha256: proof_sha256,
            record: self.path,
            cube: Some(index),
        };
        let what = format!("cube {index} of `{}`", self.claim.statement);
        rebuild_checked(rebuild, |trace| regenerate.regenerate_formula(cnf, profile, &what, trace))
    }

    /// Cube `index` re-solved in its own directory under `work` (removed
    /// after), its proof piped to the verified checker when there is one.
    fn regenerate(
        &self,
        index: usize,
        regenerate: &dyn Regenerate,
        checks: ProofChecks<'_>,
        work: &Path,
    ) -> Result<(Finished, f64), HexError> {
        let (cnf, dimacs, record) = self.judged(index)?;
        let dir = work.join(format!("cube-{index}"));
        std::fs::create_dir_all(&dir).at_path(&dir)?;
        let stream = checks.verified.map(|checker| checker.stream(&write_formula(&dir, &dimacs)?)).transpose()?;
        let proof_sha256 = record.proof_sha256.as_deref().expect("judged a refutation");
        let rebuilt = self.rebuild(
            index,
            regenerate,
            (&cnf, record.solver_profile.as_deref(), proof_sha256),
            (&dir.join("cube.drat"), LRAT_FILE_CAP),
            stream,
        );
        let _ = std::fs::remove_dir_all(&dir);
        rebuilt
    }
}

/// What this run found of the cubes: the tally, and the claim with the
/// verified checker's verdicts of this run (`checks.keep`).
pub struct Books {
    pub kept: CubeClaim,
    pub tally: ProofTally,
    /// With `ProofChecks::across_runs`: the cubes reproduced so far, by
    /// earlier runs (read back) and by this one (written as they finish).
    pub reproductions: Vec<Reproduction>,
}

impl Books {
    /// The verified checker's verdict on cube `index`: a rejection fails the
    /// claim; with `keep`, an acceptance is written into it (at `path`) at
    /// once, so a stopped run loses none.
    ///
    /// # Errors
    ///
    /// `HexError::Record` (`RecordError::LratRejected`) for a verdict that
    /// is no acceptance; `replace_record`'s (`RecordError::Changed` when the
    /// file was rewritten meanwhile, `HexError::Io`) for the one kept.
    pub fn take_verdict(
        &mut self,
        path: &Path,
        index: usize,
        verdict: CheckerRecord,
        keep: bool,
    ) -> Result<(), HexError> {
        if !verdict.verified_acceptance() {
            return Err(RecordError::LratRejected {
                what: format!("the proof of cube {index} (by {})", verdict.name),
                verdict: verdict.verdict,
            }
            .at(path));
        }
        self.tally.by_verified += 1;
        if keep && !verdict.may_replace(self.kept.cubes[index].verified_lrat.as_ref()) {
            self.tally.held += 1;
            let recorded = self.kept.cubes[index].verified_lrat.clone().expect("refused only over a verdict");
            self.tally.held_line.get_or_insert((recorded, verdict));
        } else if keep {
            // On disk: the claim as read, with this run's verdicts so far.
            let written = self.kept.clone();
            self.kept.cubes[index].verified_lrat = Some(verdict);
            self.kept.trust_base = trust_base(Basis::of_cube_claim(&self.kept));
            crate::records::read::replace_record(path, &written, &self.kept)?;
        }
        Ok(())
    }

    /// A cube re-solved and its trace verified: counted, said, and its
    /// verified checker's verdict taken.
    fn regenerated(
        &mut self,
        cubes: &ClaimCubes<'_>,
        index: usize,
        (finished, seconds): (Finished, f64),
        checks: ProofChecks<'_>,
    ) -> Result<(), HexError> {
        self.tally.regenerated += 1;
        let Finished { lrat, verified, .. } = finished;
        if checks.progress {
            let by = verified
                .as_ref()
                .map(|v| format!(", {}: {} in {:.1} s", v.name, v.verdict, v.seconds))
                .unwrap_or_default();
            eprintln!(
                "check: cube {index} of {}: re-solved, hexcert-lrat {} after {seconds:.1} s of solving{by}",
                cubes.claim.plan.cubes.len(),
                lrat.verdict
            );
        }
        if let Some(verdict) = verified.clone() {
            self.take_verdict(cubes.path, index, verdict, checks.keep)?;
        }
        if checks.across_runs {
            // Written only now, the trace and every verdict accepted: a stopped run loses no cube it finished.
            let claim = cubes.claim;
            let record = Reproduction::now(&claim.statement, (index, &claim.cubes[index]), seconds, lrat, verified);
            reproductions(cubes.path.parent().unwrap_or(Path::new(".")))
                .write(&reproduction::unit_name(index), &record)?;
            self.reproductions.push(record);
        }
        Ok(())
    }
}

/// Re-solves the cubes `queue` of `cubes.claim`, `checks.jobs` at a time
/// (the dearest by their records first when more than one, so the last to
/// finish are short), each in a directory under `work`; the books are kept
/// here as each cube finishes. After an error no new cube starts, those in
/// flight finish (their verdicts kept), and the first error is returned.
///
/// # Errors
///
/// The first of the cubes' errors: `ClaimCubes::judged`'s, `HexError::Io`
/// for a cube's directory, the verified checker's start, `ClaimCubes::rebuild`'s,
/// `Books::take_verdict`'s.
pub fn regenerate_cubes(
    cubes: &ClaimCubes<'_>,
    books: &mut Books,
    mut queue: Vec<usize>,
    work: &Path,
    regenerate: &dyn Regenerate,
    checks: ProofChecks<'_>,
) -> Result<(), HexError> {
    let jobs = checks.jobs.clamp(1, queue.len().max(1));
    if jobs > 1 {
        let cost = |i: &usize| cubes.claim.cubes[*i].cost_seconds();
        queue.sort_by(|a, b| cost(b).total_cmp(&cost(a)));
    }
    let (next, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
    let (sender, finished) = mpsc::channel::<(usize, Result<(Finished, f64), HexError>)>();
    let mut first_error = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let sender = sender.clone();
            let (queue, next, stop) = (&queue, &next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let Some(&index) = queue.get(next.fetch_add(1, Ordering::Relaxed)) else { return };
                    let outcome = cubes.regenerate(index, regenerate, checks, work);
                    stop.fetch_or(outcome.is_err(), Ordering::Relaxed);
                    if sender.send((index, outcome)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        for (index, outcome) in finished {
            if let Err(e) = outcome.and_then(|done| books.regenerated(cubes, index, done, checks)) {
                stop.store(true, Ordering::Relaxed);
                first_error.get_or_insert(e);
            }
        }
    });
    first_error.map_or(Ok(()), Err)
}
