//! `hexcert cubes merge`: the records of a finished plan, every one judged
//! again in this run (`verify::cube_status::progress`), merged into one
//! cube claim that `hexcert check` verifies. It names the solver that
//! answered the cubes, so it is on the solving side.

use std::path::{Path, PathBuf};

use crate::cubes::Plan;
use crate::error::AtPath;
use crate::error::HexError;
use crate::records::cube::{attested_cubes, CubeClaim, CUBE_CLAIM_FORMAT, CUBE_PROOFS};
use crate::records::trust::{trust_base, Basis};
use crate::records::Claim;
use crate::run::WorkDir;
use crate::verify::cube_status::progress;

/// Checks the plan's cover and every cube's record (each a refutation;
/// stored proofs checked in this run) and writes the claim to
/// `root/nN/levelK-belowB/claim.json`, replacing an older one. Cubes whose
/// records keep no proof are merged as attested: the claim names them and
/// the run that wrote each, in `attested` and in its trust base.
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
    if !found.all_refuted() {
        let open: Vec<usize> = found.missing.iter().chain(&found.unfinished).copied().collect();
        return Err(HexError::Open(format!(
            "{} of {} cubes are not refuted yet (first: cube {})",
            open.len(),
            plan.cubes.len(),
            open[0]
        )));
    }
    let directory = Claim::directory(root, plan.n, plan.level, plan.below);
    let parent = directory.parent().expect("a claim directory has a parent");
    std::fs::create_dir_all(parent).at_path(parent)?;
    // A merge or certify killed here before left scratch (and maybe a retired claim) to recover.
    super::work_dirs::remove_stale_work_dirs(parent);
    let work = WorkDir::create(parent, ".work-merge")?;
    let staging = work.0.join("claim");
    let stored_dir = staging.join(CUBE_PROOFS);
    std::fs::create_dir_all(&stored_dir).at_path(&stored_dir)?;
    let mut cubes = Vec::with_capacity(found.records.len());
    for (_, mut record) in found.records {
        // Checked by `progress` in this run; copied beside the claim.
        if let Some(file) = record.lrat_proof.as_mut().filter(|f| f.stored_as.is_some()) {
            // Judged inside `results` by `progress` in this run.
            let source = results.join(file.stored_as.as_deref().expect("stored"));
            let name =
                format!("{CUBE_PROOFS}/{}", source.file_name().and_then(|n| n.to_str()).unwrap_or("cube.lrat.gz"));
            std::fs::copy(&source, staging.join(&name)).at_path(&source)?;
            file.stored_as = Some(name);
        }
        cubes.push(record);
    }
    let seconds: Vec<f64> = cubes.iter().map(|c| c.solve_seconds).collect();
    let statement_to_cnf = crate::verify::statement_to_cnf::derive_and_check_split(plan, results)?;
    let mut claim = CubeClaim {
        format: CUBE_CLAIM_FORMAT.into(),
        statement: plan.statement.clone(),
        n: plan.n,
        level: plan.level,
        below: plan.below,
        plan: plan.clone(),
        solver: crate::solving::Cadical::version(),
        solve_seconds: seconds.iter().sum(),
        slowest_cube_seconds: seconds.iter().copied().fold(0.0, f64::max),
        lrat_cpu_seconds: cubes.iter().filter_map(|c| c.lrat.as_ref()).map(|l| l.cpu_seconds).sum(),
        attested: Some(attested_cubes(&cubes)),
        cubes,
        hexcert: crate::records::this_build(),
        statement_to_cnf: Some(statement_to_cnf),
        trust_base: Vec::new(),
    };
    claim.trust_base = trust_base(Basis::of_cube_claim(&claim));
    let json = serde_json::to_vec_pretty(&claim).expect("claims serialise");
    crate::files::write_atomic(&staging.join("claim.json"), &json)?;
    super::certificate_dir::replace_directory(&staging, &directory)?;
    Ok(directory.join("claim.json"))
}
