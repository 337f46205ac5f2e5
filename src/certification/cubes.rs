//! `hexcert cubes run`: the cubes of a plan solved one by one, each proof
//! checked by the LRAT checker while CaDiCaL writes it, each answer written
//! as one result record.
//!
//! The results directory is the only state shared between runs, processes
//! and machines: a record is written atomically (temporary name, rename)
//! under a name made of the plan's hash and the cube's index, so a stopped
//! run loses only its cubes in flight and a rerun skips every cube whose
//! record exists. Any job engine that runs `hexcert cubes run PLAN --index I`
//! for each index fills the same directory.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::WorkDir;
use crate::cubes::{cube_formula, Plan, Split};
use crate::encoding::LevelEncoding;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::proofs::claim::LratRecord;
use crate::proofs::online::OnlineCheck;
use crate::proofs::{own_peak_memory_kb, sha256_file, sha256_hex};
use crate::solving::search::accept_model;
use crate::solving::{Cadical, Outcome, SatSolver};

/// Format tag of a cube's result record.
pub const RESULT_FORMAT: &str = "hexcert-cube-result/1";

/// What a cube's formula turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CubeVerdict {
    /// Unsatisfiable, the proof accepted by the LRAT checker.
    Refuted,
    /// Satisfiable: the claim is false (the counterexample is validated).
    Counterexample,
}

/// One cube's answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CubeResult {
    pub format: String,
    pub plan_sha256: String,
    pub index: usize,
    pub cube: Vec<u8>,
    /// SHA-256 of the cube's DIMACS formula (the plan's formula and the cube's units).
    pub cnf_sha256: String,
    pub verdict: CubeVerdict,
    /// SHA-256 of the binary DRAT twin of the checked proof (regenerable by solving the cube again).
    pub proof_sha256: Option<String>,
    pub lrat: Option<LratRecord>,
    /// The validated counterexample, in hexcert format.
    pub counterexample: Option<String>,
    pub solve_seconds: f64,
    /// Peak resident memory of the process that solved it (all cubes it ran so far).
    pub peak_memory_kb: u64,
}

/// Where cube `index` of the plan with this hash records its answer.
pub fn result_path(results: &Path, plan_sha256: &str, index: usize) -> PathBuf {
    results.join(format!("{}-{index:06}.json", &plan_sha256[..16.min(plan_sha256.len())]))
}

/// The plan file's hash: results name the exact plan they answer.
pub fn plan_hash(plan_path: &Path) -> Result<String, HexError> {
    sha256_file(plan_path).map_err(|source| HexError::Io { path: plan_path.into(), source })
}

/// Solves cube `index` and writes its record; returns it. Errors leave no record.
pub fn run_cube(plan: &Plan, plan_sha256: &str, index: usize, results: &Path, abort: &Arc<AtomicBool>) -> Result<CubeResult, HexError> {
    let cube = plan
        .cubes
        .get(index)
        .ok_or_else(|| HexError::Usage(format!("cube index {index} is out of range: the plan has {} cubes", plan.cubes.len())))?
        .clone();
    let hex = Hexagon::new(plan.n)?;
    let encoding = plan.encoding()?;
    let cnf = cube_formula(&encoding, &plan.split()?, &cube);
    let dimacs = cnf.to_dimacs();
    let cnf_sha256 = sha256_hex(&dimacs);
    std::fs::create_dir_all(results).map_err(|source| HexError::Io { path: results.into(), source })?;
    // Named by cube and process: the pid last, so `remove_stale_work_dirs` finds those of dead runs.
    let work = WorkDir::create(results.join(format!(".work-cube{index}-{}", std::process::id())))?;
    let drat = work.0.join("cube.drat");
    let mut online = OnlineCheck::start(dimacs, &drat)?;
    let start = Instant::now();
    let outcome = {
        let mut solver = Cadical::with_trace(online.sender());
        let flag = Arc::clone(abort);
        solver.stop_when_any(move || flag.load(Ordering::Relaxed));
        solver.add_cnf(&cnf)?;
        solver.solve()
    };
    let solve_seconds = start.elapsed().as_secs_f64();
    let (lrat, proof) = online.finish(Instant::now())?;
    let mut result = CubeResult {
        format: RESULT_FORMAT.into(),
        plan_sha256: plan_sha256.into(),
        index,
        cube,
        cnf_sha256,
        verdict: CubeVerdict::Refuted,
        proof_sha256: None,
        lrat: None,
        counterexample: None,
        solve_seconds,
        peak_memory_kb: own_peak_memory_kb(),
    };
    match outcome? {
        Outcome::Unsat => {
            if !lrat.verified {
                return Err(HexError::Internal(format!("the LRAT checker rejected the proof of cube {index}: {}", lrat.verdict)));
            }
            result.proof_sha256 = Some(sha256_file(&proof).map_err(|source| HexError::Io { path: proof.clone(), source })?);
            result.lrat = Some(lrat);
        }
        Outcome::Sat(model) => {
            let found = accept_model(&hex, &encoding, &model)?;
            result.verdict = CubeVerdict::Counterexample;
            result.counterexample = Some(crate::formats::to_hexcert_text(&found.partial));
        }
    }
    let json = serde_json::to_vec_pretty(&result).expect("results serialise");
    crate::files::write_atomic(&result_path(results, plan_sha256, index), &json)?;
    Ok(result)
}

/// Runs every cube without a record, `threads` at a time (rayon); `on_done`
/// hears of each finished cube. Stops starting new cubes after Ctrl-C or a
/// counterexample. Returns the records written by this run.
pub fn run_all(
    plan: &Plan,
    plan_sha256: &str,
    results: &Path,
    threads: usize,
    abort: &Arc<AtomicBool>,
    on_done: &(dyn Fn(&CubeResult, usize) + Sync),
) -> Result<Vec<CubeResult>, HexError> {
    super::remove_stale_work_dirs(results);
    let pending: Vec<usize> = (0..plan.cubes.len()).filter(|&i| !result_path(results, plan_sha256, i).exists()).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| HexError::Internal(format!("cannot start {threads} worker threads: {e}")))?;
    let outcomes: Vec<Result<CubeResult, HexError>> = pool.install(|| {
        pending
            .par_iter()
            .filter_map(|&index| {
                if abort.load(Ordering::Relaxed) {
                    return None;
                }
                let outcome = run_cube(plan, plan_sha256, index, results, abort);
                match &outcome {
                    Ok(result) => {
                        if result.verdict == CubeVerdict::Counterexample {
                            abort.store(true, Ordering::Relaxed);
                        }
                        on_done(result, pending.len());
                    }
                    Err(HexError::Interrupted) => return None,
                    Err(_) => {}
                }
                Some(outcome)
            })
            .collect()
    });
    outcomes.into_iter().collect()
}

/// What the results directory says about a plan, every record re-checked.
#[derive(Debug, Clone, Serialize)]
pub struct Progress {
    pub cubes: usize,
    /// Cubes refuted by a record that passed every check.
    pub refuted: Vec<usize>,
    /// Cubes without a record.
    pub missing: Vec<usize>,
    /// Records that fail a check, with why.
    pub rejected: Vec<(usize, String)>,
    /// Cubes with a validated counterexample.
    pub counterexamples: Vec<usize>,
    /// Solve seconds of the refuted cubes, in index order.
    pub seconds: Vec<f64>,
}

/// Reads every cube's record and checks it against the plan: the plan hash,
/// the cube, the hash of the cube's formula (re-encoded here), a refutation
/// with the LRAT checker's `verified` verdict and a proof hash. The plan's
/// cover is the caller's to check (`Plan::check_cover`).
pub fn progress(plan: &Plan, plan_sha256: &str, results: &Path) -> Result<Progress, HexError> {
    // Encoded once: every cube's formula is this one plus the cube's units.
    let encoding = plan.encoding()?;
    if sha256_hex(&encoding.cnf.to_dimacs()) != plan.formula_sha256 {
        return Err(HexError::Internal(format!(
            "the plan's formula hash is not that of `{}` as this build encodes it (another encoder version?)",
            plan.statement
        )));
    }
    let split = plan.split()?;
    let mut progress = Progress {
        cubes: plan.cubes.len(),
        refuted: Vec::new(),
        missing: Vec::new(),
        rejected: Vec::new(),
        counterexamples: Vec::new(),
        seconds: Vec::new(),
    };
    for index in 0..plan.cubes.len() {
        let path = result_path(results, plan_sha256, index);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                progress.missing.push(index);
                continue;
            }
            Err(source) => return Err(HexError::Io { path, source }),
        };
        match judge(plan, &encoding, &split, plan_sha256, index, &bytes) {
            Ok(record) if record.verdict == CubeVerdict::Counterexample => progress.counterexamples.push(index),
            Ok(record) => {
                progress.refuted.push(index);
                progress.seconds.push(record.solve_seconds);
            }
            Err(why) => progress.rejected.push((index, why)),
        }
    }
    Ok(progress)
}

/// One record, checked; the error says which check failed.
fn judge(plan: &Plan, encoding: &LevelEncoding, split: &Split, plan_sha256: &str, index: usize, bytes: &[u8]) -> Result<CubeResult, String> {
    let record: CubeResult = serde_json::from_slice(bytes).map_err(|e| format!("not a cube record: {e}"))?;
    if record.format != RESULT_FORMAT {
        return Err(format!("format `{}` is not {RESULT_FORMAT}", record.format));
    }
    if record.plan_sha256 != plan_sha256 || record.index != index {
        return Err("the record answers another plan or cube".into());
    }
    if record.cube != plan.cubes[index] {
        return Err("the record's cube is not the plan's".into());
    }
    let dimacs = cube_formula(encoding, split, &plan.cubes[index]).to_dimacs();
    if record.cnf_sha256 != sha256_hex(&dimacs) {
        return Err("the record's formula hash is not that of the cube's formula".into());
    }
    if !(record.solve_seconds.is_finite() && record.solve_seconds >= 0.0) {
        return Err(format!("solve seconds {} is not a duration", record.solve_seconds));
    }
    match record.verdict {
        CubeVerdict::Refuted => {
            let verified = record.lrat.as_ref().is_some_and(|l| l.verified && l.verdict == "s VERIFIED");
            if !verified || record.proof_sha256.is_none() {
                return Err("a refutation without a verified LRAT verdict and a proof hash".into());
            }
        }
        CubeVerdict::Counterexample => {
            let text = record.counterexample.as_deref().ok_or("a counterexample without its grid")?;
            let partial = crate::formats::parse_grid(text.as_bytes(), Path::new("counterexample"), Some(plan.n))
                .map_err(|e| e.to_string())?
                .partial;
            let hex = Hexagon::new(plan.n).map_err(|e| e.to_string())?;
            let evaluation = crate::validation::evaluate(&hex, &partial);
            if partial.level() != plan.level || !evaluation.is_valid() || evaluation.penalty >= plan.below {
                return Err("the counterexample does not validate below the bound".into());
            }
        }
    }
    Ok(record)
}
