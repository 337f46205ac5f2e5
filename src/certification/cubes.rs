//! `hexcert cubes run` and `cubes merge`: the cubes of a plan solved one by
//! one, each proof checked by the LRAT checker while CaDiCaL writes it, each
//! answer written as one result record; and the records of a finished plan
//! merged into one claim that `hexcert check` verifies.
//!
//! The results directory is the only state shared between runs, processes
//! and machines: a record is written atomically (temporary name, rename)
//! under a name made from the cube and the formula it extends
//! (`Plan::cube_key`), so a stopped run loses only its cubes in flight, a
//! rerun skips every cube whose record exists, and a refined plan keeps the
//! records of the cubes it did not refine. Any job engine that runs
//! `hexcert cubes run PLAN --index I` for each index fills the same directory.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::prove::solve_traced;
use super::WorkDir;
use crate::cubes::{cube_formula, split_formula, Cube, Plan};
use crate::encoding::LevelEncoding;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::proofs::claim::{BuildRecord, FileRecord, LratRecord, StatementRecord};
use crate::proofs::online::{Against, OnlineCheck, ONLINE_LIFTED};
use crate::proofs::{compress, own_peak_memory_kb, sha256_file, sha256_hex};
use crate::solving::search::accept_model;
use crate::solving::{Cadical, Outcome};

/// Format tag of a cube's result record.
pub const RESULT_FORMAT: &str = "hexcert-cube-result/2";
/// Format tag of a claim merged from cubes (a `claim.json` like any other).
pub const CUBE_CLAIM_FORMAT: &str = "hexcert-cube-claim/1";

/// What a cube's formula turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CubeVerdict {
    /// Unsatisfiable, the proof accepted by the LRAT checker.
    Refuted,
    /// Satisfiable: the claim is false (the counterexample is validated).
    Counterexample,
    /// Not decided within the run's time limit: a cube to refine.
    Unfinished,
}

/// One cube's answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CubeResult {
    pub format: String,
    /// SHA-256 of the claim's plain formula, which the cube extends.
    pub formula_sha256: String,
    /// The split cells the cube gives values to.
    pub cells: Vec<usize>,
    pub cube: Cube,
    /// SHA-256 of the cube's DIMACS formula (the plain formula and the cube's units).
    pub cnf_sha256: String,
    pub verdict: CubeVerdict,
    /// SHA-256 of the binary DRAT twin of the checked proof (regenerable by solving the cube again).
    pub proof_sha256: Option<String>,
    pub lrat: Option<LratRecord>,
    /// The binary LRAT proof, gzipped beside the record when it was small
    /// enough to keep (`--store-limit`): checked again by `cubes merge` and `check`.
    pub lrat_proof: Option<FileRecord>,
    /// The validated counterexample, in hexcert format.
    pub counterexample: Option<String>,
    /// Seconds of solving (for an unfinished cube: until the time limit stopped it).
    pub solve_seconds: f64,
    /// Peak resident memory of the process that solved it (all cubes it ran so far).
    pub peak_memory_kb: u64,
}

/// How `cubes run` solves its cubes.
#[derive(Debug, Clone, Copy)]
pub struct RunLimits {
    /// Stop a cube after this many seconds and record it as unfinished.
    pub time_limit: Option<f64>,
    /// Keep a cube's gzipped LRAT proof when it is at most this many bytes.
    pub store_limit: u64,
}

/// Where the record of cube `index` of `plan` lies.
pub fn result_path(results: &Path, plan: &Plan, index: usize) -> PathBuf {
    results.join(format!("{}.json", plan.cube_key(index)))
}

/// The plan file's hash (reported, so runs can tell which plan they served).
pub fn plan_hash(plan_path: &Path) -> Result<String, HexError> {
    sha256_file(plan_path).map_err(|source| HexError::Io { path: plan_path.into(), source })
}

/// Solves cube `index` and writes its record; returns it. Errors (and
/// Ctrl-C) leave no record.
pub fn run_cube(plan: &Plan, index: usize, results: &Path, limits: RunLimits, abort: &Arc<AtomicBool>) -> Result<CubeResult, HexError> {
    let cube = plan
        .cubes
        .get(index)
        .ok_or_else(|| HexError::Usage(format!("cube index {index} is out of range: the plan has {} cubes", plan.cubes.len())))?
        .clone();
    let hex = Hexagon::new(plan.n)?;
    let encoding = plan.encoding()?;
    let split = plan.split()?;
    let cnf = cube_formula(&encoding, &split, &cube);
    let cnf_sha256 = sha256_hex(&cnf.to_dimacs());
    // The trace is checked on the split formula itself, so the verdict says
    // "T |- -s_i" and the split step needs no trust (docs/SOUNDNESS.md, 7).
    let against = Against::Split {
        split: split_formula(&encoding, &split, &plan.cubes).to_dimacs(),
        base: encoding.cnf.clauses().len(),
        cube: index,
        units: cube.units(&encoding, &split),
    };
    std::fs::create_dir_all(results).map_err(|source| HexError::Io { path: results.into(), source })?;
    let key = plan.cube_key(index);
    // Named by cube and process: the pid last, so `remove_stale_work_dirs` finds those of dead runs.
    let work = WorkDir::create(results.join(format!(".work-{key}-{}", std::process::id())))?;
    let mut online = OnlineCheck::start_against(against, &work.0.join("cube.drat"))?;
    let start = Instant::now();
    let timed_out = {
        let limit = limits.time_limit;
        move || limit.is_some_and(|l| start.elapsed().as_secs_f64() > l)
    };
    let flag = Arc::clone(abort);
    let outcome = solve_traced(&cnf, online.sender(), move || flag.load(Ordering::Relaxed) || timed_out());
    let solve_seconds = start.elapsed().as_secs_f64();
    let (lrat, proof) = online.finish(Instant::now())?;
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
        peak_memory_kb: own_peak_memory_kb(),
    };
    match outcome {
        Ok((Outcome::Unsat, _)) => {
            if !lrat.verified {
                return Err(HexError::Internal(format!("the LRAT checker rejected the proof of cube {index}: {}", lrat.verdict)));
            }
            result.proof_sha256 = Some(sha256_file(&proof).map_err(|source| HexError::Io { path: proof.clone(), source })?);
            result.lrat = Some(lrat);
            result.lrat_proof = store_lrat(&proof.with_extension("lrat"), results, &key, limits.store_limit)?;
        }
        Ok((Outcome::Sat(model), _)) => {
            let found = accept_model(&hex, &encoding, &model)?;
            result.verdict = CubeVerdict::Counterexample;
            result.counterexample = Some(crate::formats::to_hexcert_text(&found.partial));
        }
        Err(HexError::Interrupted) if !abort.load(Ordering::Relaxed) && limits.time_limit.is_some() => {
            result.verdict = CubeVerdict::Unfinished;
        }
        Err(e) => return Err(e),
    }
    let json = serde_json::to_vec_pretty(&result).expect("results serialise");
    crate::files::write_atomic(&result_path(results, plan, index), &json)?;
    Ok(result)
}

/// Gzips the LRAT proof beside the record when it fits in `limit` bytes.
fn store_lrat(lrat: &Path, results: &Path, key: &str, limit: u64) -> Result<Option<FileRecord>, HexError> {
    if limit == 0 || !lrat.exists() {
        return Ok(None); // not asked for, or abandoned by the online check for its size
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| HexError::Io { path, source }
    };
    let name = format!("{key}.lrat.gz");
    let staged = lrat.with_extension("lrat.gz");
    compress::gzip_file(lrat, &staged)?;
    let compressed = std::fs::metadata(&staged).map_err(io(&staged))?.len();
    if compressed > limit {
        return Ok(None);
    }
    let record = FileRecord {
        stored_as: Some(name.clone()),
        sha256: sha256_file(lrat).map_err(io(lrat))?,
        bytes: std::fs::metadata(lrat).map_err(io(lrat))?.len(),
        compressed_bytes: Some(compressed),
        description: "binary LRAT proof of the cube's formula, gzipped".into(),
    };
    std::fs::rename(&staged, results.join(&name)).map_err(io(&staged))?;
    Ok(Some(record))
}

/// Whether `run --all` still has to solve cube `index`: it has no record,
/// or its record is unfinished under a shorter limit than this run's.
fn pending(plan: &Plan, index: usize, results: &Path, limits: RunLimits) -> bool {
    let Ok(bytes) = std::fs::read(result_path(results, plan, index)) else { return true };
    match serde_json::from_slice::<CubeResult>(&bytes) {
        Ok(record) if record.verdict == CubeVerdict::Unfinished => limits.time_limit.is_none_or(|l| record.solve_seconds < l),
        _ => false, // decided, or damaged: `status` reports it, a rerun does not overwrite it
    }
}

/// Runs every pending cube, `threads` at a time (rayon workers), the
/// hardest-looking first (`predicted_hard_first`); `on_done` hears of each
/// finished cube. Stops starting new cubes after Ctrl-C or a counterexample.
/// Returns the records written by this run, with their cubes' indices.
pub fn run_all(
    plan: &Plan,
    results: &Path,
    threads: usize,
    limits: RunLimits,
    abort: &Arc<AtomicBool>,
    on_done: &(dyn Fn(usize, &CubeResult, usize) + Sync),
) -> Result<Vec<(usize, CubeResult)>, HexError> {
    super::remove_stale_work_dirs(results);
    let mut pending: Vec<usize> = (0..plan.cubes.len()).filter(|&i| pending(plan, i, results, limits)).collect();
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
                if !self::pending(plan, index, results, limits) {
                    continue; // recorded meanwhile by another process sharing `results`
                }
                let outcome = run_cube(plan, index, results, limits, abort);
                match &outcome {
                    Ok(result) => {
                        if result.verdict == CubeVerdict::Counterexample {
                            decided.store(true, Ordering::Relaxed);
                        }
                        on_done(index, result, pending.len());
                    }
                    Err(HexError::Interrupted) => return,
                    Err(_) => {}
                }
                outcomes.lock().expect("no panic while held").push(outcome.map(|result| (index, result)));
            });
        }
    });
    let mut outcomes: Vec<(usize, CubeResult)> = outcomes.into_inner().expect("workers joined").into_iter().collect::<Result<_, _>>()?;
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

/// What the results directory says about a plan, every record re-checked.
#[derive(Debug, Clone, Serialize)]
pub struct Progress {
    pub cubes: usize,
    /// Cubes refuted by a record that passed every check.
    pub refuted: Vec<usize>,
    /// Cubes without a record.
    pub missing: Vec<usize>,
    /// Cubes stopped by a time limit: refine them (`cubes refine`) or run them longer.
    pub unfinished: Vec<usize>,
    /// Records that fail a check, with why.
    pub rejected: Vec<(usize, String)>,
    /// Cubes with a validated counterexample.
    pub counterexamples: Vec<usize>,
    /// Solve seconds of the refuted cubes, in index order.
    pub seconds: Vec<f64>,
    /// The refuted cubes' checked records, in index order.
    #[serde(skip)]
    pub records: Vec<CubeResult>,
}

/// The plan's formula, encoded by this build and required to hash to the
/// plan's record (another encoder would make every cube another formula).
fn plan_encoding(plan: &Plan) -> Result<LevelEncoding, HexError> {
    let encoding = plan.encoding()?;
    if sha256_hex(&encoding.cnf.to_dimacs()) != plan.formula_sha256 {
        return Err(HexError::Internal(format!(
            "the plan's formula hash is not that of `{}` as this build encodes it (another encoder version?)",
            plan.statement
        )));
    }
    Ok(encoding)
}

/// Reads every cube's record and checks it against the plan: the formula
/// and cube it answers, the hash of the cube's formula (re-encoded here), a
/// refutation with the LRAT checker's `verified` verdict and a proof hash.
/// The plan's cover is the caller's to check (`Plan::check_cover`).
pub fn progress(plan: &Plan, results: &Path) -> Result<Progress, HexError> {
    // Encoded once: every cube's formula is this one plus the cube's units.
    let encoding = plan_encoding(plan)?;
    let split = plan.split()?;
    let mut progress = Progress {
        cubes: plan.cubes.len(),
        refuted: Vec::new(),
        missing: Vec::new(),
        unfinished: Vec::new(),
        rejected: Vec::new(),
        counterexamples: Vec::new(),
        seconds: Vec::new(),
        records: Vec::new(),
    };
    for index in 0..plan.cubes.len() {
        let path = result_path(results, plan, index);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                progress.missing.push(index);
                continue;
            }
            Err(source) => return Err(HexError::Io { path, source }),
        };
        let record = serde_json::from_slice(&bytes).map_err(|e| format!("not a cube record: {e}"));
        let dimacs = cube_formula(&encoding, &split, &plan.cubes[index]).to_dimacs();
        match record.and_then(|r| judge(plan, index, &dimacs, r)) {
            Ok(record) => match record.verdict {
                CubeVerdict::Counterexample => progress.counterexamples.push(index),
                CubeVerdict::Unfinished => progress.unfinished.push(index),
                CubeVerdict::Refuted => {
                    progress.refuted.push(index);
                    progress.seconds.push(record.solve_seconds);
                    progress.records.push(record);
                }
            },
            Err(why) => progress.rejected.push((index, why)),
        }
    }
    Ok(progress)
}

/// One record of cube `index` of `plan`, checked against the cube's formula
/// `dimacs` (re-encoded by the caller); the error says which check failed.
pub fn judge(plan: &Plan, index: usize, dimacs: &[u8], record: CubeResult) -> Result<CubeResult, String> {
    if record.format != RESULT_FORMAT {
        return Err(format!("format `{}` is not {RESULT_FORMAT}", record.format));
    }
    if record.formula_sha256 != plan.formula_sha256 || record.cells != plan.cells || record.cube != plan.cubes[index] {
        return Err("the record answers another formula or cube".into());
    }
    if record.cnf_sha256 != sha256_hex(dimacs) {
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
        CubeVerdict::Unfinished => {}
    }
    Ok(record)
}

/// The validated counterexample recorded for cube `index`.
pub fn read_counterexample(plan: &Plan, results: &Path, index: usize) -> Result<crate::levels::Partial, HexError> {
    let path = result_path(results, plan, index);
    let bytes = std::fs::read(&path).map_err(|source| HexError::Io { path: path.clone(), source })?;
    let record: CubeResult = serde_json::from_slice(&bytes).map_err(|e| HexError::Input { file: path.clone(), line: e.line(), message: e.to_string() })?;
    let text = record.counterexample.unwrap_or_default();
    Ok(crate::formats::parse_grid(text.as_bytes(), &path, Some(plan.n))?.partial)
}

/// A claim proved as cubes: the plan (its cover re-checked by `check`) and
/// one refutation record per cube, in the plan's order.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CubeClaim {
    pub format: String,
    pub statement: String,
    pub n: usize,
    pub level: u8,
    pub below: usize,
    pub plan: Plan,
    /// Each cube's record; a stored LRAT proof lies in `cubes/` beside the claim.
    pub cubes: Vec<CubeResult>,
    pub solver: String,
    /// Sum of the cubes' solve seconds, and the slowest cube's.
    pub solve_seconds: f64,
    pub slowest_cube_seconds: f64,
    /// Sum of the LRAT checker's CPU seconds over the cubes.
    pub lrat_cpu_seconds: f64,
    pub hexcert: BuildRecord,
    /// The statement -> split formula step (`statement::derive_and_check_split`);
    /// absent in claims merged before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement_to_cnf: Option<StatementRecord>,
    pub trust_base: Vec<String>,
}

/// Where a merged claim keeps its cubes' stored LRAT proofs.
pub const CUBE_PROOFS: &str = "cubes";

/// Whether every cube's recorded LRAT verdict was reached on the split
/// formula (`ONLINE_LIFTED`): then the split step is the LRAT checker's.
pub fn all_lifted(cubes: &[CubeResult]) -> bool {
    cubes.iter().all(|c| c.lrat.as_ref().is_some_and(|l| l.verified && l.how == ONLINE_LIFTED))
}

/// What a cube claim rests on: with a derivation VeriPB accepted
/// (`statement`), the statement, VeriPB and the LRAT checker, plus the split
/// step unless every cube's verdict was `lifted` onto the split formula
/// (docs/SOUNDNESS.md, section 7); else the encoder and the cover argument.
pub fn cube_trust_base(plan: &Plan, statement: Option<&StatementRecord>, lifted: bool) -> Vec<String> {
    if statement.is_some_and(StatementRecord::accepted) {
        let mut items = super::statement::checked_trust_base(&[]);
        items[1] = "the VeriPB checker and its verdict `s VERIFIED OUTPUT DERIVABLE` on the derivation of the plan's split \
             formula from the statement (statement_to_cnf): the encoder, the orbit reduction by dominance and the cover are \
             checked, not trusted"
            .into();
        items[2] = if lifted {
            "the CNF checker: the LRAT checker hexcert-lrat (lrat/ in this repository, which imports nothing from the \
             solver, the encoder or the search) and its verdict on every cube's refutation read on the split formula, each \
             deriving the cube's negated selector (with the split formula's last clause, its refutation)"
        } else {
            "the CNF checker: the LRAT checker hexcert-lrat (lrat/ in this repository, which imports nothing from the \
             solver, the encoder or the search) and its verdict on every cube's formula"
        }
        .into();
        if !lifted {
            items.push(
                "the split step: each cube's formula is the split formula's first clauses (the plain CNF) plus, as units, the \
                 literals its selector implies there, so a model of the split formula is a model of the formula of a cube whose \
                 selector it sets (src/cubes/mod.rs, split_formula and cube_formula; `hexcert check` rebuilds both from the plan \
                 and compares hashes, and checks a stored cube proof lifted onto the split formula, hexcert_lrat::Lifted)"
                    .into(),
            );
        }
        return items;
    }
    vec![
        format!("the encoder {} (src/encoding), without symmetry breaking: the CNF says 'valid level-k partial with penalty <= B-1' (docs/PROBLEM.md); cross-checked against the independent validator and brute force (tests/sat.rs)", plan.encoder),
        "each cube's formula is that CNF plus the unit clauses of the cube's projected values (src/cubes/mod.rs, cube_formula); its hash is re-computed by `hexcert check`".into(),
        format!("the cover: {} (re-checked by `hexcert check`)", plan.cover_argument),
        "the LRAT checker hexcert-lrat (lrat/ in this repository, which imports nothing from the solver, the encoder or the search) and its verdict on every cube".into(),
    ]
}

/// Checks the plan's cover and every cube's record (each must be a checked
/// refutation; stored LRAT proofs are checked again here) and writes the
/// claim to `root/nN/levelK-belowB/claim.json`, replacing an older one.
pub fn merge(plan: &Plan, results: &Path, root: &Path) -> Result<PathBuf, HexError> {
    let fail = |message: String| HexError::Input { file: results.to_path_buf(), line: 0, message };
    plan.check_cover().map_err(|e| fail(format!("the plan's cover does not hold: {e}")))?;
    let found = progress(plan, results)?;
    if let Some((index, why)) = found.rejected.first() {
        return Err(fail(format!("the record of cube {index} is rejected: {why}")));
    }
    if let Some(index) = found.counterexamples.first() {
        return Err(fail(format!("cube {index} has a counterexample: the claim is false")));
    }
    let open: Vec<usize> = found.missing.iter().chain(&found.unfinished).copied().collect();
    if !open.is_empty() {
        return Err(fail(format!("{} of {} cubes are not refuted yet (first: cube {})", open.len(), plan.cubes.len(), open[0])));
    }
    let directory = crate::proofs::Claim::directory(root, plan.n, plan.level, plan.below);
    let parent = directory.parent().expect("a claim directory has a parent");
    std::fs::create_dir_all(parent).map_err(|source| HexError::Io { path: parent.into(), source })?;
    let staging = WorkDir::create(parent.join(format!(".work-merge-{}", std::process::id())))?;
    let stored_dir = staging.0.join(CUBE_PROOFS);
    std::fs::create_dir_all(&stored_dir).map_err(|source| HexError::Io { path: stored_dir.clone(), source })?;
    let encoding = plan_encoding(plan)?;
    let split = plan.split()?;
    let mut cubes = Vec::with_capacity(found.records.len());
    for (index, mut record) in found.refuted.iter().copied().zip(found.records) {
        if let Some(file) = record.lrat_proof.as_mut().filter(|f| f.stored_as.is_some()) {
            let source = results.join(file.stored_as.as_deref().expect("stored"));
            let dimacs = cube_formula(&encoding, &split, &plan.cubes[index]).to_dimacs();
            check_stored_lrat(&dimacs, &source, &file.sha256, &staging.0).map_err(|e| fail(format!("cube {index}: {e}")))?;
            let name = format!("{CUBE_PROOFS}/{}", source.file_name().and_then(|n| n.to_str()).unwrap_or("cube.lrat.gz"));
            std::fs::copy(&source, staging.0.join(&name)).map_err(|s| HexError::Io { path: source.clone(), source: s })?;
            file.stored_as = Some(name);
        }
        cubes.push(record);
    }
    let seconds: Vec<f64> = cubes.iter().map(|c| c.solve_seconds).collect();
    let statement_to_cnf = super::statement::derive_and_check_split(plan, results)?;
    let lifted = all_lifted(&cubes);
    let claim = CubeClaim {
        format: CUBE_CLAIM_FORMAT.into(),
        statement: plan.statement.clone(),
        n: plan.n,
        level: plan.level,
        below: plan.below,
        plan: plan.clone(),
        solver: Cadical::version(),
        solve_seconds: seconds.iter().sum(),
        slowest_cube_seconds: seconds.iter().copied().fold(0.0, f64::max),
        lrat_cpu_seconds: cubes.iter().filter_map(|c| c.lrat.as_ref()).map(|l| l.cpu_seconds).sum(),
        cubes,
        hexcert: crate::proofs::claim::this_build(),
        trust_base: cube_trust_base(plan, Some(&statement_to_cnf), lifted),
        statement_to_cnf: Some(statement_to_cnf),
    };
    let json = serde_json::to_vec_pretty(&claim).expect("claims serialise");
    crate::files::write_atomic(&staging.0.join("claim.json"), &json)?;
    super::prove::replace_directory(&staging.0, &directory)?;
    Ok(directory.join("claim.json"))
}

/// Unzips a stored LRAT proof into `work`, checks its hash and has the LRAT
/// checker verify it against the cube's formula; the error says what failed.
pub fn check_stored_lrat(dimacs: &[u8], gz: &Path, sha256: &str, work: &Path) -> Result<(u64, u64), String> {
    check_stored_lrat_with(gz, sha256, work, |proof| hexcert_lrat::check(dimacs, proof).map(|s| (s.added, s.hints)))
}

/// Unzips a stored LRAT proof into `work`, checks its hash and hands it to
/// `verify` (a checker of it); the error says what failed.
pub fn check_stored_lrat_with(
    gz: &Path,
    sha256: &str,
    work: &Path,
    verify: impl FnOnce(std::io::BufReader<std::fs::File>) -> Result<(u64, u64), hexcert_lrat::CheckError>,
) -> Result<(u64, u64), String> {
    let plain = work.join("cube.lrat");
    compress::gunzip_file(gz, &plain).map_err(|e| e.to_string())?;
    let actual = sha256_file(&plain).map_err(|e| format!("{}: {e}", plain.display()))?;
    if actual != sha256 {
        let _ = std::fs::remove_file(&plain);
        return Err(format!("the stored LRAT proof {} has sha256 {actual}, the record says {sha256}", gz.display()));
    }
    let file = std::fs::File::open(&plain).map_err(|e| format!("{}: {e}", plain.display()))?;
    let verdict = verify(std::io::BufReader::new(file));
    let _ = std::fs::remove_file(&plain);
    verdict.map_err(|e| format!("the LRAT checker rejected the stored proof {}: {e}", gz.display()))
}
