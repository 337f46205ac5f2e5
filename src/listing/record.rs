//! What a listing writes, and how it takes back what it wrote: a cube's
//! record made from its judged leaders (`leaders_record`), an earlier
//! run's cube record read back through the record layer's judge
//! (`judge_leaders`), and a certified listing's `count.json`
//! (`write`). The records' types, their reading and their
//! judging are the record layer's (`records::leaders`); this file only
//! fills them in.

use std::path::{Path, PathBuf};

use super::plan::{ListingMode, ListingPlan};
use crate::cubes::Split;
use crate::encoding::model::Found;
use crate::encoding::LevelEncoding;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::digits;
use crate::records::leaders::{CountRecord, CubeLeaders, COUNT_FORMAT, LEADERS_FORMAT};
use crate::records::ledger::{Ledger, Parsed};

/// The record of a cube whose leaders are `found` (no certificate yet): every
/// leader's penalty, as the validator judged it, within the bound.
pub fn leaders_record(
    hex: &Hexagon,
    encoding: &LevelEncoding,
    split: &Split,
    cube: &[u8],
    found: &[Found],
    seconds: f64,
) -> Result<CubeLeaders, HexError> {
    let (level, max_penalty) = (encoding.level(), encoding.options.max_penalty.unwrap_or(usize::MAX));
    // The validator's penalty, not the formula's bound, keeps a leader.
    if let Some(over) = found.iter().find(|f| f.evaluation.penalty > max_penalty) {
        return Err(HexError::Internal(format!(
            "leader {} has penalty {} > {max_penalty}",
            digits(over.partial.values()),
            over.evaluation.penalty
        )));
    }
    Ok(CubeLeaders {
        format: LEADERS_FORMAT.into(),
        n: hex.side(),
        level,
        max_penalty,
        encoder: crate::encoding::ENCODER_VERSION.into(),
        cells: split.cells.clone(),
        cube: cube.to_vec(),
        path: Vec::new(),
        leaders: found.iter().map(|f| digits(f.partial.values())).collect(),
        seconds,
        cpu_seconds: None,
        written_by: crate::run::attestation(),
        certificate: None,
        leaves: Vec::new(),
    })
}

/// A record written by an earlier run, of this count and cube or leaf (the
/// ledger matched it), judged by `records::leaders::judge_leaders`; its
/// completeness is its certificate's or its writer's word (list.rs says
/// what a resumed cube rests on).
pub fn judge_leaders(
    path: &Path,
    hex: &Hexagon,
    bound: (u8, usize),
    split: &Split,
    record: &CubeLeaders,
) -> Result<Vec<Found>, HexError> {
    let judged = crate::records::leaders::judge_leaders(path, hex, bound, &|values| split.project(values), record)?;
    Ok(judged.into_iter().map(|(partial, evaluation)| Found { partial, evaluation }).collect())
}

/// The record a finished listing of `plan` leaves: for a certified one
/// resting on a claim (`ListingPlan::claim`), `count.json` in its
/// directory (`write_count_record`), `by_penalty` its counts; for any
/// other, none.
pub fn write(plan: &ListingPlan, by_penalty: &[u64]) -> Result<Option<PathBuf>, HexError> {
    match (&plan.request.mode, &plan.claim) {
        (ListingMode::Certified { dir, .. }, Some((claim, minimum))) => {
            write_count_record(dir, &plan.hex, (plan.request.level, plan.bound()), by_penalty, (claim, *minimum))
        }
        _ => Ok(None),
    }
}

/// Writes `dir/count.json` for a finished certified listing of every
/// partial up to `penalty` (`by_penalty` from its leaders), whose least
/// penalty is `minimum`, naming `claim`, the claim below `minimum` (a path,
/// made relative to `dir`), and, when VeriPB is on PATH, its check of the
/// statement -> listing CNF step. Nothing is written (`Ok(None)`) when a
/// leader lies below `minimum` or none reaches it: then `minimum` is not the
/// level's minimum. A listing past the minimum (`minimum < penalty`) records
/// it, for the lift to a higher level's minimum. Returns the record's path.
pub fn write_count_record(
    dir: &Path,
    hex: &Hexagon,
    (level, penalty): (u8, usize),
    by_penalty: &[u64],
    (claim, minimum): (&Path, usize),
) -> Result<Option<PathBuf>, HexError> {
    let count = by_penalty.get(penalty).copied().unwrap_or(0);
    if by_penalty.iter().position(|&c| c > 0) != Some(minimum) {
        return Ok(None);
    }
    let split = Split::listing(hex, level)?;
    let ledger = Ledger::<CubeLeaders>::at(dir);
    let (mut leaders, mut seconds, mut cpu_seconds) = (0, 0.0, Some(0.0));
    for index in 0..split.projection_count() {
        if let Some(Parsed::Record(cube)) = ledger.read(&format!("cube-{index}")) {
            leaders += cube.leaders.len();
            seconds += cube.seconds;
            cpu_seconds = cpu_seconds.zip(cube.cpu_seconds).map(|(sum, cpu)| sum + cpu);
        }
    }
    let encoding = crate::records::leaders::listing_encoding(hex, level, penalty);
    let hash = crate::digest::sha256_hex(&encoding.cnf.to_dimacs());
    let path = dir.join("count.json");
    let derived =
        crate::verify::statement_to_cnf::derive_and_check(hex, level, penalty + 1, &encoding.options, &hash, &path)?;
    let record = CountRecord {
        format: COUNT_FORMAT.into(),
        n: hex.side(),
        level,
        penalty,
        minimum: (minimum < penalty).then_some(minimum),
        count: count.to_string(),
        leaders,
        cubes: split.projection_count() as usize,
        minimum_claim: crate::files::relative_to(dir, claim)?,
        statement_to_cnf: Some(derived),
        solve_seconds: seconds,
        solve_cpu_seconds: cpu_seconds,
        written_by: crate::run::attestation(),
    };
    crate::files::write_atomic(&path, &serde_json::to_vec_pretty(&record).expect("records serialise"))?;
    Ok(Some(path))
}
