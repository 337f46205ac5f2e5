//! `hexcert cubes run`: the cubes of a plan solved one by one, each proof
//! checked by the LRAT checker while CaDiCaL writes it, each answer written
//! as one result record (merged into a claim by `merge`).
//!
//! The results directory is the only state shared between runs, processes
//! and machines: a record is written atomically (temporary name, rename)
//! under a name made from the cube and the formula it extends
//! (`Plan::cube_key`), so a stopped run loses only its cubes in flight, a
//! rerun skips every cube whose record exists, and a refined plan keeps the
//! records of the cubes it did not refine. Any job engine that runs
//! `hexcert cubes run PLAN --index I` for each index fills the same directory.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::compress;
use crate::cubes::{cube_formula, split_formula, Plan, Split};
use crate::digest::{sha256_file, sha256_hex};
use crate::encoding::model::accept_model;
use crate::encoding::LevelEncoding;
use crate::error::AtPath;
use crate::error::HexError;
use crate::error::RecordError;
use crate::formula::Cnf;
use crate::geometry::Hexagon;
use crate::proofs::online::{Against, Finished, OnlineCheck};
use crate::proofs::own_peak_memory_kb;
use crate::proofs::verified::{write_formula, VerifiedChecker};
use crate::records::ledger::{resume_or_do, set_aside, Unit};
use crate::records::{CheckerRecord, FileRecord, LratRecord};
use crate::run::WorkDir;
use crate::solving::{solve_traced, Answer};

use crate::records::cube::{judge, read_result, result_path, CubeResult, CubeVerdict, Held, RESULT_FORMAT};

/// How `cubes run` solves its cubes.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunLimits<'a> {
    /// Stop a cube after this many seconds and record it as unfinished.
    pub time_limit: Option<f64>,
    /// Keep a cube's gzipped LRAT proof when it is at most this many bytes.
    pub store_limit: u64,
    /// The verified checker each cube's proof is piped to as it is written
    /// (its verdict recorded beside hexcert-lrat's; a rejection writes no record).
    pub verified: Option<&'a VerifiedChecker>,
}

/// Cube `index` of `plan`: read back when `results` holds a record that
/// settles it (judged against the plan, `settles`), else solved and its
/// record written (`solve_cube`). Errors (and Ctrl-C) leave no record; a
/// record its judge rejects is set aside, saying so, and the cube solved
/// again.
///
/// # Errors
///
/// `HexError::Usage` for an index outside the plan or a record another
/// build wrote; the ledger's errors (`HexError::Record`) for a record of
/// another unit; `solve_cube`'s.
pub fn run_cube(
    plan: &Plan,
    index: usize,
    results: &Path,
    limits: RunLimits<'_>,
    abort: &Arc<AtomicBool>,
) -> Result<Unit<CubeResult>, HexError> {
    let cube = plan
        .cubes
        .get(index)
        .ok_or_else(|| {
            HexError::Usage(format!("cube index {index} is out of range: the plan has {} cubes", plan.cubes.len()))
        })?
        .clone();
    // A job engine runs a campaign one cube a job: a killed job's scratch
    // (its LRAT, hundreds of MB) goes at the next job, not at the next `--all`.
    super::work_dirs::remove_stale_work_dirs(results);
    let encoding = plan.encoding()?;
    let split = plan.split()?;
    let cnf = cube_formula(&encoding, &split, &cube);
    let dimacs = cnf.to_dimacs();
    let identity = (plan.formula_sha256.clone(), plan.cells.clone(), cube.clone());
    let read_back = |path: &Path, record: CubeResult| match judge(plan, index, &dimacs, record) {
        Ok(record) => Ok(settles(&record, limits).then_some(record)),
        Err(why) => report_set_aside(index, path, &why.to_string()).map(|()| None),
    };
    let work = || {
        solve_cube(plan, index, (&encoding, &split, &cnf, &dimacs), results, limits, abort)
            .map(|record| (record.clone(), record))
    };
    resume_or_do(Some(&crate::records::cube::results(results)), (&plan.cube_key(index), &identity), read_back, work)
}

/// Solves cube `index` (its formula `cnf`, whose DIMACS text is `dimacs`),
/// its proof checked as it is written, and returns its record, which the
/// caller (`resume_or_do`) writes.
fn solve_cube(
    plan: &Plan,
    index: usize,
    (encoding, split, cnf, dimacs): (&LevelEncoding, &Split, &Cnf, &[u8]),
    results: &Path,
    limits: RunLimits<'_>,
    abort: &Arc<AtomicBool>,
) -> Result<CubeResult, HexError> {
    let cube = plan.cubes[index].clone();
    let hex = Hexagon::new(plan.n)?;
    let cnf_sha256 = sha256_hex(dimacs);
    // The trace is checked on the split formula itself, so the verdict says
    // "T |- -s_i" and the split step needs no trust (docs/SOUNDNESS.md, 7).
    let against = Against::Split {
        split: split_formula(encoding, split, &plan.cubes).to_dimacs(),
        base: encoding.cnf.clauses().len(),
        cube: index,
        units: cube.units(encoding, split),
    };
    std::fs::create_dir_all(results).at_path(results)?;
    let key = plan.cube_key(index);
    // Named by cube and run, and locked while it lives (`run`).
    let work = WorkDir::create(results, &format!(".work-{key}"))?;
    let verified = limits.verified.map(|checker| checker.stream(&write_formula(&work.0, dimacs)?)).transpose()?;
    let mut online = OnlineCheck::start_with(against, &work.0.join("cube.drat"), verified)?;
    let (start, cpu_start) = (Instant::now(), crate::run::thread_cpu_seconds());
    let limit = limits.time_limit.map(crate::run::CpuLimit::start);
    let timed_out = move || limit.is_some_and(|l| l.spent());
    let flag = Arc::clone(abort);
    let outcome = solve_traced(cnf, crate::solving::profile::CURRENT, online.sender(), move || {
        flag.load(Ordering::Relaxed) || timed_out()
    });
    // The solver ran on this thread (its terminator reads this thread's clock too).
    let (solve_seconds, solve_cpu_seconds) =
        (start.elapsed().as_secs_f64(), crate::run::thread_cpu_seconds() - cpu_start);
    let Finished { lrat, drat: proof, verified, .. } = online.finish(Instant::now())?;
    let mut result = CubeResult {
        format: RESULT_FORMAT.into(),
        formula_sha256: plan.formula_sha256.clone(),
        cells: plan.cells.clone(),
        cube,
        cnf_sha256,
        verdict: CubeVerdict::Refuted,
        proof_sha256: None,
        lrat: None,
        lrat_proof: None,
        counterexample: None,
        solve_seconds,
        solve_cpu_seconds: Some(solve_cpu_seconds),
        peak_memory_kb: own_peak_memory_kb(),
        written_by: Some(crate::run::run_id().to_string()),
        solver_profile: Some(crate::solving::profile::CURRENT.name.to_string()),
        verified_lrat: None,
    };
    match outcome {
        Ok((Answer::Unsat, _)) => {
            both_checkers_accepted(index, &lrat, verified.as_ref())?;
            result.proof_sha256 = Some(sha256_file(&proof).at_path(&proof)?);
            result.lrat = Some(lrat);
            result.verified_lrat = verified;
            result.lrat_proof = store_lrat(&proof.with_extension("lrat"), results, &key, limits.store_limit)?;
        }
        Ok((Answer::Sat(model), _)) => {
            let found = accept_model(&hex, encoding, &model)?;
            result.verdict = CubeVerdict::Counterexample;
            result.counterexample = Some(crate::formats::to_hexcert_text(&found.partial));
        }
        Err(HexError::Interrupted) if !abort.load(Ordering::Relaxed) && limits.time_limit.is_some() => {
            result.verdict = CubeVerdict::Unfinished;
        }
        Err(e) => return Err(e),
    }
    Ok(result)
}

/// The proof of cube `index` was accepted by hexcert-lrat and, when one
/// ran, by the verified checker: a refutation either rejected is a fault of
/// hexcert's, never a record.
fn both_checkers_accepted(index: usize, lrat: &LratRecord, verified: Option<&CheckerRecord>) -> Result<(), HexError> {
    if !lrat.verified {
        let what = format!("the proof of cube {index}");
        return Err(HexError::Rejected(RecordError::LratRejected { what, verdict: lrat.verdict.clone() }));
    }
    if let Some(verdict) = verified.filter(|v| !v.verified_acceptance()) {
        return Err(verdict.refusal(&format!("the proof of cube {index}")));
    }
    Ok(())
}

/// Gzips the LRAT proof beside the record when it fits in `limit` bytes.
fn store_lrat(lrat: &Path, results: &Path, key: &str, limit: u64) -> Result<Option<FileRecord>, HexError> {
    if limit == 0 || !lrat.exists() {
        return Ok(None); // not asked for, or abandoned by the online check for its size
    }
    let name = format!("{key}.lrat.gz");
    let staged = lrat.with_extension("lrat.gz");
    compress::gzip_file(lrat, &staged)?;
    let compressed = std::fs::metadata(&staged).at_path(&staged)?.len();
    if compressed > limit {
        return Ok(None);
    }
    let record = FileRecord {
        stored_as: Some(name.clone()),
        sha256: sha256_file(lrat).at_path(lrat)?,
        bytes: std::fs::metadata(lrat).at_path(lrat)?.len(),
        compressed_bytes: Some(compressed),
        description: "binary LRAT proof of the cube's formula, gzipped".into(),
    };
    std::fs::rename(&staged, results.join(&name)).at_path(&staged)?;
    Ok(Some(record))
}

/// Whether a judged record settles its cube for a run under `limits`: a
/// decided cube's does; an unfinished cube's only when this run's limit is
/// no longer than the one that stopped it.
fn settles(record: &CubeResult, limits: RunLimits<'_>) -> bool {
    record.verdict != CubeVerdict::Unfinished || limits.time_limit.is_some_and(|l| record.cost_seconds() >= l)
}

/// Sets a rejected record aside, saying so: the cube is solved again
/// rather than blocking the plan until someone deletes the file.
fn report_set_aside(index: usize, path: &Path, why: &str) -> Result<(), HexError> {
    let moved = set_aside(path)?;
    eprintln!("cube {index}: record rejected ({why}); set aside as {}, the cube will be solved again", moved.display());
    Ok(())
}

/// The cubes among `which` that a run still has to solve: those without a
/// record, those whose record does not settle them (`settles`), and those
/// whose record is rejected (`read_result`), which are set aside.
fn pending_cubes(plan: &Plan, which: &[usize], results: &Path, limits: RunLimits<'_>) -> Result<Vec<usize>, HexError> {
    let encoding = plan.encoding()?;
    let split = plan.split()?;
    let mut pending = Vec::new();
    for &index in which {
        let dimacs = cube_formula(&encoding, &split, &plan.cubes[index]).to_dimacs();
        let settled = match read_result(plan, results, index, &dimacs)? {
            Held::Missing => false,
            Held::Judged(record) => settles(&record, limits),
            Held::Rejected(why) => report_set_aside(index, &result_path(results, plan, index), &why).map(|()| false)?,
        };
        if !settled {
            pending.push(index);
        }
    }
    Ok(pending)
}

/// Runs the pending cubes among `which` (every cube when `None`), `threads` at a time (rayon
/// workers), the hardest-looking first (`predicted_hard_first`); `on_done`
/// hears of each finished cube. Stops starting new cubes after Ctrl-C or a
/// counterexample. Returns the records written by this run, with their
/// cubes' indices.
pub fn run_all(
    plan: &Plan,
    which: Option<&[usize]>,
    results: &Path,
    threads: usize,
    limits: RunLimits<'_>,
    abort: &Arc<AtomicBool>,
    on_done: &(dyn Fn(usize, &CubeResult, usize) + Sync),
) -> Result<Vec<(usize, CubeResult)>, HexError> {
    let every: Vec<usize> = (0..plan.cubes.len()).collect();
    let which = which.unwrap_or(&every);
    if let Some(bad) = which.iter().find(|&&i| i >= plan.cubes.len()) {
        return Err(HexError::Usage(format!(
            "cube index {bad} is out of range: the plan has {} cubes",
            plan.cubes.len()
        )));
    }
    super::work_dirs::remove_stale_work_dirs(results);
    let mut pending = pending_cubes(plan, which, results, limits)?;
    predicted_hard_first(plan, &mut pending);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| HexError::Internal(format!("cannot start {threads} worker threads: {e}")))?;
    // Each worker takes the next cube in the order above, so the longest
    // cubes start first and the last ones to finish are short.
    let next = std::sync::atomic::AtomicUsize::new(0);
    // A counterexample decides the claim: no new cube starts after one (the
    // cubes in flight finish). Ctrl-C (`abort`) also stops those in flight.
    let decided = AtomicBool::new(false);
    let outcomes = std::sync::Mutex::new(Vec::new());
    pool.scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|_| loop {
                let Some(&index) = pending.get(next.fetch_add(1, Ordering::Relaxed)) else { return };
                if abort.load(Ordering::Relaxed) || decided.load(Ordering::Relaxed) {
                    return;
                }
                let outcome = run_cube(plan, index, results, limits, abort);
                match &outcome {
                    // Recorded meanwhile by another process sharing `results`.
                    Ok(unit) if unit.read_back_from.is_some() => continue,
                    Ok(Unit { value: result, .. }) => {
                        if result.verdict == CubeVerdict::Counterexample {
                            decided.store(true, Ordering::Relaxed);
                        }
                        on_done(index, result, pending.len());
                    }
                    Err(HexError::Interrupted) => return,
                    Err(_) => {}
                }
                outcomes.lock().expect("no panic while held").push(outcome.map(|unit| (index, unit.value)));
            });
        }
    });
    let mut outcomes: Vec<(usize, CubeResult)> =
        outcomes.into_inner().expect("workers joined").into_iter().collect::<Result<_, _>>()?;
    outcomes.sort_by_key(|(index, _)| *index);
    Ok(outcomes)
}

/// Orders cubes by how many split cells they leave open (at "more than the
/// depth"), most first, then by index: the fewer values a cube fixes, the
/// more partials it admits. On n = 10 level 3 below 28 the two slowest of 25
/// cubes (650 s and 384 s of 1,629 s) left six of their seven cells open.
pub fn predicted_hard_first(plan: &Plan, indices: &mut [usize]) {
    let open = |i: usize| {
        let cube = &plan.cubes[i];
        cube.values.iter().filter(|&&v| v > cube.depth).count()
    };
    indices.sort_by_key(|&i| (std::cmp::Reverse(open(i)), i));
}
