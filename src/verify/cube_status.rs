//! What a results directory says about a plan (`hexcert cubes status`, and
//! the judging `cubes merge` relies on; the claim writer itself, which
//! names the solver, is `certify::merge`). Builds without the solver.
//!
//! One rule for both (docs/SOUNDNESS.md, section 8): a refuted cube is
//! *checked* only when this run read its stored proof with the LRAT checker;
//! a record that keeps no proof is *attested* by the run that wrote it
//! (`written_by`), counted apart and named in the merged claim, whose
//! `hexcert check` stays unverified until those cubes are re-solved.
//! Damaged records are set aside (`records::ledger::set_aside`), never
//! silently kept.

use std::path::Path;

use crate::cubes::{cube_formula, Plan};
use crate::digest::{sha256_file, sha256_hex};
use crate::encoding::LevelEncoding;
use crate::error::AtPath;
use crate::error::HexError;
use crate::records::cube::{check_stored_lrat, proof_stored, read_result, result_path, Held};
use crate::records::read::stored_path;
use crate::records::{CubeResult, CubeVerdict};
use crate::run::WorkDir;

/// What the results directory says about a plan, every record re-checked.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CubeProgress {
    pub cubes: usize,
    /// Refuted cubes whose stored LRAT proof the LRAT checker accepted in this run.
    pub checked: Vec<usize>,
    /// Refuted cubes whose record keeps no proof: attested by the run that wrote it.
    pub attested: Vec<usize>,
    /// Cubes without a record.
    pub missing: Vec<usize>,
    /// Cubes stopped by a time limit: refine them (`cubes refine`) or run them longer.
    pub unfinished: Vec<usize>,
    /// Records that fail a check, with why.
    pub rejected: Vec<(usize, String)>,
    /// Cubes with a validated counterexample.
    pub counterexamples: Vec<usize>,
    /// Solve seconds of the refuted cubes (checked or attested), in index
    /// order: `CubeResult::cost_seconds`, the solver's CPU where recorded.
    pub seconds: Vec<f64>,
    /// Seconds each unfinished cube ran before its limit stopped it (as
    /// `seconds`), in index order.
    #[serde(skip)]
    pub unfinished_seconds: Vec<f64>,
    /// The refuted cubes' records with their indices, in index order.
    #[serde(skip)]
    pub records: Vec<(usize, CubeResult)>,
}

impl CubeProgress {
    /// Every cube refuted, checked or attested.
    pub fn all_refuted(&self) -> bool {
        self.records.len() == self.cubes
    }
}

/// The plan file's hash (reported, so runs can tell which plan they served).
///
/// # Errors
///
/// `HexError::Io` when the plan file cannot be opened (a file that is not
/// regular among them) or read.
pub fn plan_hash(plan_path: &Path) -> Result<String, HexError> {
    sha256_file(plan_path).at_path(plan_path)
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

/// Reads every cube's record and checks it against the plan (`judge`: the
/// formula and cube it answers, its formula's hash re-encoded here) and,
/// for a refutation that keeps its proof, checks that proof with the LRAT
/// checker now. The plan's cover is the caller's (`Plan::check_cover`).
///
/// # Errors
///
/// `HexError::Usage` when the plan's numbers make no split (or its tie-break's
/// ring lies outside the hexagon), or a cube's record was written by another
/// hexcert build; `HexError::Internal` when this build's encoding of the plan
/// does not hash to `formula_sha256`; `HexError::Io` (or `HexError::Internal`,
/// a lock not taken) when the work directory cannot be made in `results`. A
/// record that fails its judge or its proof check is no error: it is listed in
/// `rejected`.
pub fn progress(plan: &Plan, results: &Path) -> Result<CubeProgress, HexError> {
    // Encoded once: every cube's formula is this one plus the cube's units.
    let encoding = plan_encoding(plan)?;
    let split = plan.split()?;
    let mut progress = CubeProgress {
        cubes: plan.cubes.len(),
        checked: Vec::new(),
        attested: Vec::new(),
        missing: Vec::new(),
        unfinished: Vec::new(),
        rejected: Vec::new(),
        counterexamples: Vec::new(),
        seconds: Vec::new(),
        unfinished_seconds: Vec::new(),
        records: Vec::new(),
    };
    let mut work = None;
    for index in 0..plan.cubes.len() {
        let dimacs = cube_formula(&encoding, &split, &plan.cubes[index]).to_dimacs();
        let record = match read_result(plan, results, index, &dimacs)? {
            Held::Missing => {
                progress.missing.push(index);
                continue;
            }
            Held::Rejected(why) => {
                progress.rejected.push((index, why));
                continue;
            }
            Held::Judged(record) => *record,
        };
        match record.verdict {
            CubeVerdict::Counterexample => progress.counterexamples.push(index),
            CubeVerdict::Unfinished => {
                progress.unfinished.push(index);
                progress.unfinished_seconds.push(record.cost_seconds());
            }
            CubeVerdict::Refuted if proof_stored(&record) => {
                if work.is_none() {
                    work = Some(WorkDir::create(results, ".check-status")?);
                }
                let file = record.lrat_proof.as_ref().expect("stored");
                let gz = stored_path(results, file.stored_as.as_deref().expect("stored"), "results")
                    .map_err(|e| e.to_string());
                let scratch = &work.as_ref().expect("created").0;
                match gz.and_then(|gz| check_stored_lrat(&dimacs, &gz, file, scratch).map_err(|e| e.to_string())) {
                    Ok(_) => progress.checked.push(index),
                    Err(why) => {
                        progress.rejected.push((index, why));
                        continue;
                    }
                }
                progress.seconds.push(record.cost_seconds());
                progress.records.push((index, record));
            }
            CubeVerdict::Refuted => {
                progress.attested.push(index);
                progress.seconds.push(record.cost_seconds());
                progress.records.push((index, record));
            }
        }
    }
    Ok(progress)
}

/// The counterexample recorded for cube `index`, parsed. It is judged
/// (valid, at the plan's level, below its bound) by `progress`, not here:
/// call this for a cube `progress` listed in `counterexamples` in this run.
///
/// # Errors
///
/// `HexError::Io` or `HexError::Record` (`RecordError::NotRegularFile`,
/// `RecordError::TooLarge`, `RecordError::Malformed`) when cube `index`'s
/// record cannot be read as a cube record; `HexError::Input` when its
/// counterexample is absent or is not a grid of side `plan.n`.
pub fn read_counterexample(plan: &Plan, results: &Path, index: usize) -> Result<crate::levels::Partial, HexError> {
    let path = result_path(results, plan, index);
    let record: CubeResult = crate::records::read_json(&path)?;
    let text = record.counterexample.unwrap_or_default();
    Ok(crate::formats::parse_grid(text.as_bytes(), &path, Some(plan.n))?.partial)
}
