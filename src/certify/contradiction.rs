//! Contradictions between a validated model and a claim on disk: the
//! claim is false, so it is set aside (moved to `.quarantine/`, never kept,
//! never silently replaced), with the attested cube records it was merged
//! from, and the run stops with an error naming it.

use std::path::Path;

use crate::cubes::Plan;
use crate::error::HexError;
use crate::records::ledger::set_aside;
use crate::records::ranges::claim_directory_numbers;
use crate::verify::cube_status::progress;

/// A claim found false: which, and the error that names it.
pub struct Contradicted {
    pub level: u8,
    pub below: usize,
    pub error: HexError,
}

/// A validated model of penalty `penalty` at `level` refutes every claim
/// "level k <= `level` below B > `penalty`" (a level-`level` partial reads
/// as a level-k one of no greater penalty): such a claim under `root` is
/// false. It is set aside, with the cube records it was merged from that
/// kept no proof, and the error names it.
pub fn set_aside_contradicted(root: &Path, n: usize, level: u8, penalty: usize) -> Result<(), Contradicted> {
    let dir = root.join(format!("n{n}"));
    let Ok(entries) = std::fs::read_dir(&dir) else { return Ok(()) };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((k, b)) = claim_directory_numbers(&name) else { continue };
        // Without a claim the directory states nothing (a campaign in progress).
        if k > level || b <= penalty || !entry.path().join("claim.json").exists() {
            continue;
        }
        let plan_path = dir.join(".cubes").join(format!("level{k}-below{b}.plan.json"));
        let cubes = set_aside_attested_records(&plan_path, &dir.join(".cubes"));
        let moved = cubes.and_then(|()| set_aside(&entry.path())).map_err(|error| Contradicted {
            level: k,
            below: b,
            error,
        })?;
        let message = format!(
            "{}: claims no level-{k} partial has penalty below {b}, but a validated level-{level} partial has penalty {penalty}; set aside as {}",
            entry.path().join("claim.json").display(),
            moved.display()
        );
        return Err(Contradicted { level: k, below: b, error: HexError::Contradiction(message) });
    }
    Ok(())
}

/// Sets aside the records of the plan at `plan_path` whose refutations were
/// attested (no proof kept): one of them is false, and which one no record says.
fn set_aside_attested_records(plan_path: &Path, results: &Path) -> Result<(), HexError> {
    let Ok(plan) = Plan::read(plan_path) else { return Ok(()) };
    let found = progress(&plan, results)?;
    for index in found.attested {
        let moved = set_aside(&crate::records::cube::result_path(results, &plan, index))?;
        eprintln!(
            "cube {index} of {}: its attested refutation is set aside as {}",
            plan_path.display(),
            moved.display()
        );
    }
    Ok(())
}
