//! `hexcert check` of a count record (`count.json`, `records::leaders`):
//! the count rebuilt from its cubes' records and judged, without solver code.
//!
//! A count at the minimum P of level k is certified when (a) the claim
//! "no partial below P" is verified (its own check, run here) and a leader
//! reaches P; (b) every listed leader is a valid partial of penalty P,
//! judged by the validator; (c) every cube's list is complete: its record's
//! certificate names the hash of the formula it refuted, which this check
//! rebuilds from the cube and the record's leaders (so a leader removed or
//! added is a different formula), and the LRAT verdict says it was refuted;
//! the 128 cubes are every projection of the listing's split, a partition
//! by construction; (d) the 12 symmetries close the leaders into the count
//! (`orbits`). The cubes' verdicts were reached when they were listed: a
//! plain check reports them as recorded (the count unverified, exit 4);
//! with `--regenerate` each cube is listed again, its trace checked in this
//! run, and its leaders and formula must be the record's.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::cubes::Split;
use crate::encoding::LevelEncoding;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::proofs::verified::VerifiedChecker;
use crate::records::claim::ONLINE_LISTING;
use crate::records::leaders::{
    judge_leaders, leaf_units, listing_encoding, listing_formula, CountRecord, CubeLeaders, LeafProof, ListingProof,
};
use crate::records::ledger::Ledger;
use crate::records::plan::check_tree;
use crate::records::{CheckerRecord, Record, Status};

use super::regenerate::{ProofChecks, Regenerate};

/// Judges the count record at `path`. `check_claim` checks the minimum's
/// claim (the caller's `check`, so a claim checked twice is judged once);
/// `checks.regenerate` lists every cube again when given, its proof also
/// given to `checks.verified`; with `checks.keep` a cube whose record holds
/// that checker's acceptance is not listed again, and each new acceptance
/// is written into its cube's record (a re-check resumable per cube).
/// Returns the status and the leaders the cubes hold (each judged), which
/// a lift of the listing lifts.
///
/// # Errors
///
/// `HexError::Input` when the rebuilt count contradicts the record (a cube
/// record missing, uncertified or tampered with: a leader invalid, outside its
/// cube, removed or added; an edited count or leader total; a leader below the
/// minimum, or none at it) or its `minimum_claim` states another claim;
/// `HexError::Record` for a cube record or that claim unreadable, another
/// build's or another unit's; `HexError::Usage` or `HexError::Internal` for a
/// listing that cannot be split or closed under the symmetries; and the errors
/// of `statement_to_cnf::derive_and_check` and, with `regenerate`, of the
/// relisting.
pub fn check_count(
    path: &Path,
    record: &CountRecord,
    checks: ProofChecks<'_>,
    check_claim: &mut dyn FnMut(&Path) -> Status,
    messages: &mut Vec<String>,
) -> Result<(Status, Vec<Partial>), HexError> {
    let bad = |why: String| HexError::Input { file: path.to_path_buf(), line: 0, message: why };
    record.check_cell(path)?;
    let hex = Hexagon::new(record.n)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let Cubes { leaders, listed_here, verified_recorded, verified_here, total, held, held_line, unknown_solver } =
        read_cubes(dir, &hex, record, checks)?;
    let by_penalty = crate::orbits::close_orbits(&hex, record.level, record.penalty, &leaders)?;
    let minimum = record.minimum();
    match by_penalty.iter().position(|&c| c > 0) {
        Some(p) if p < minimum => {
            return Err(bad(format!("a listed partial has penalty {p}, below the count's minimum {minimum}")))
        }
        Some(p) if p == minimum => {}
        _ => return Err(bad(format!("no listed partial reaches penalty {minimum}: it is not the minimum"))),
    }
    let count = by_penalty[record.penalty];
    if count.to_string() != record.count || leaders.len() != record.leaders {
        return Err(bad(format!(
            "the cubes' leaders ({}) close into {count} partials, the record says {} leaders and {}",
            leaders.len(),
            record.leaders,
            record.count
        )));
    }
    let past = if minimum < record.penalty {
        let each: Vec<String> = (minimum..=record.penalty).map(|p| format!("{} at {p}", by_penalty[p])).collect();
        format!("; every partial up to {} listed: {}", record.penalty, each.join(", "))
    } else {
        String::new()
    };
    messages.push(format!(
        "count: {count} partials of penalty {} (the 12 symmetries close {} leaders, each judged by the validator){past}",
        record.penalty,
        leaders.len()
    ));
    let listing = if listed_here == total {
        messages.push("listing: every cube listed again in this run, its trace checked by hexcert-lrat, leaders and formula the record's".into());
        Status::Verified
    } else if checks.regenerate.is_some() {
        messages.push(format!(
            "listing: {listed_here} of {total} cubes listed again in this run; the other {} hold this cake_lpr's acceptance from an earlier run \
             (--keep-verdicts: not listed in this run)",
            total - listed_here
        ));
        Status::Unverified
    } else {
        messages.push(
            "listing: every cube's formula hash matches its leaders, its LRAT verdict recorded when it was listed (not checked in this run: \
             `check --regenerate` lists the cubes again)"
                .into(),
        );
        Status::Unverified
    };
    if let Some(checker) = checks.verified.filter(|_| verified_here > 0) {
        messages.push(format!(
            "cake_lpr accepted the listing proofs of {verified_here} of {total} cubes in this run ({}, {}), each read against its refuted formula",
            checker.version, checker.build
        ));
    }
    if let Some((recorded, new)) = held_line {
        messages.push(recorded.kept_line(&new, &format!("{held} of {total} cubes")));
    }
    if verified_recorded > 0 {
        messages.push(format!("{verified_recorded} of {total} cubes record a cake_lpr acceptance of their listing proof, on the refuted formula they name (recorded before this run)"));
    }
    let claim = minimum_claim(path, dir, record, check_claim, messages)?;
    let statement = statement(path, record, messages)?;
    let solver = crate::verify::cube_claims::solver_judged(unknown_solver, messages);
    Ok((listing.and(claim).and(statement).and(solver), leaders))
}

/// The partials of a certified listing (`dir/count.json` and its cubes),
/// every one, not reduced by symmetry, with their penalty: the cubes'
/// records judged as `check` judges them (leaders, formula hashes,
/// verdicts as recorded), for the lift of levels 4..6.
///
/// # Errors
///
/// `HexError::Io` or `HexError::Record` when `dir/count.json` cannot be read as
/// a record; `HexError::Input` when it is not a count record or its cubes do
/// not hold, and the other cube errors of `check_count` (`HexError::Record`,
/// `HexError::Usage`, `HexError::Internal`).
pub fn listed_partials(dir: &Path) -> Result<(CountRecord, Vec<(Partial, usize)>), HexError> {
    let path = dir.join("count.json");
    let Record::Count(record) = Record::read(&path)? else {
        return Err(HexError::Input { file: path, line: 0, message: "not a count record (hexcert-count/1)".into() });
    };
    let hex = Hexagon::new(record.n)?;
    let leaders = read_cubes(dir, &hex, &record, ProofChecks::default())?.leaders;
    let members = crate::orbits::orbit_members(&hex, record.level, record.penalty, &leaders)?;
    Ok((*record, members))
}

/// Every cube's record, judged (see the header), and listed again when
/// `checks` regenerates.
fn read_cubes(dir: &Path, hex: &Hexagon, record: &CountRecord, checks: ProofChecks<'_>) -> Result<Cubes, HexError> {
    let encoding = listing_encoding(hex, record.level, record.penalty);
    let split = Split::listing(hex, record.level)?;
    let total = split.projection_count() as usize;
    if record.cubes != total {
        let message = format!("{} cubes recorded, the listing has {total}", record.cubes);
        return Err(HexError::Input { file: dir.join("count.json"), line: 0, message });
    }
    let ledger = Ledger::<CubeLeaders>::at(dir);
    let mut cubes = Cubes { total, ..Cubes::default() };
    for index in 0..total {
        let name = format!("cube-{index}");
        let cube = split.projection(index as u64);
        let expected = (
            hex.side(),
            record.level,
            record.penalty,
            crate::encoding::ENCODER_VERSION.to_string(),
            split.cells.clone(),
            cube.clone(),
            Vec::new(),
            true,
        );
        let file = ledger.path(&name);
        let bad = |why: String| HexError::Input { file: file.clone(), line: 0, message: why };
        let cube_record = ledger
            .resume(&name, &expected)?
            .ok_or_else(|| bad("missing: the listing is incomplete without this cube".into()))?;
        let judged =
            judge_leaders(&file, hex, (record.level, record.penalty), &|values| split.project(values), &cube_record)?;
        let partials: Vec<Partial> = judged.into_iter().map(|(partial, _)| partial).collect();
        cubes.unknown_solver = cubes.unknown_solver.take().or_else(|| cube_record.unknown_solver(&file));
        let proofs = cube_record.proofs().ok_or_else(|| bad("no certificate".into()))?;
        let by_text: HashMap<&str, &Partial> = cube_record.leaders.iter().map(String::as_str).zip(&partials).collect();
        if by_text.len() != partials.len() {
            return Err(bad("a leader is listed twice".into()));
        }
        if !cube_record.leaves.is_empty() {
            check_leaves(&proofs, &by_text, encoding.cnf.num_vars() as i32, &bad)?;
        }
        let mut verified = 0;
        for (path, leaders, proof) in &proofs {
            let blocked = leaders.iter().map(|text| by_text[text.as_str()]);
            let formula =
                listing_formula(&encoding, &leaf_units(&encoding, (&split.cells, &cube, split.depth), path), blocked);
            verified += usize::from(judge_proof(&formula, proof, &bad)?);
        }
        cubes.verified_recorded += usize::from(verified == proofs.len());
        // Kept verdicts resume a re-check: this checker binary's bound acceptance stands for the cube.
        let resumed = checks.keep
            && checks.verified.is_some_and(|v| {
                proofs.iter().all(|(.., p)| p.verified_lrat.as_ref().is_some_and(|r| r.resumes(&v.version)))
            });
        if let Some(regenerate) = checks.regenerate.filter(|_| !resumed) {
            if checks.progress {
                eprintln!("listing cube {index} of {total} again ({})", file.display());
            }
            let mut kept = cube_record.clone();
            let cube = (&encoding, &split, cube.as_slice());
            let (accepted, held) =
                relist_cube(regenerate, hex, cube, &proofs, (checks.verified, checks.keep), &file, &mut kept)?;
            cubes.listed_here += 1;
            if let Some(pair) = held {
                cubes.held += 1;
                cubes.held_line.get_or_insert(pair);
            }
            if accepted == proofs.len() {
                cubes.verified_here += 1;
                if checks.keep {
                    // Compare before replace: a cube record another command rewrote meanwhile is not reverted.
                    crate::records::read::replace_record(&file, &cube_record, &kept)?;
                }
            }
        }
        cubes.leaders.extend(partials);
    }
    Ok(cubes)
}

/// A cube listed leaf by leaf: its leaves' paths are a complete decision
/// tree over the formula's `vars` variables, and its leaders (`leaders`, by
/// their text) are the union of its leaves'. A fault is `bad`'s error
/// (the cube record's, naming it).
fn check_leaves(
    proofs: &[LeafProof<'_>],
    leaders: &HashMap<&str, &Partial>,
    vars: i32,
    bad: &impl Fn(String) -> HexError,
) -> Result<(), HexError> {
    let paths: Vec<&[i32]> = proofs.iter().map(|(path, ..)| *path).collect();
    check_tree(&paths, vars).map_err(|why| bad(format!("the leaves are not a complete decision tree: {why}")))?;
    let listed: HashSet<&str> = proofs.iter().flat_map(|(_, leaders, _)| leaders.iter().map(String::as_str)).collect();
    if listed != leaders.keys().copied().collect() {
        return Err(bad("the cube's leaders are not the union of its leaves'".into()));
    }
    Ok(())
}

/// Lists each proof of the cube at `file` again (`check --regenerate`):
/// each must give the recorded leaders under a certificate of the same
/// formula. Returns how many the verified checker accepted, each verdict
/// written into `kept` (the cube's record as it will be kept) unless `keep`
/// holds a known build's recorded acceptance against it: then the pair
/// (recorded, new) comes back, for the report to say what was kept.
fn relist_cube(
    regenerate: &dyn Regenerate,
    hex: &Hexagon,
    cube: (&LevelEncoding, &Split, &[u8]),
    proofs: &[LeafProof<'_>],
    (verified, keep): (Option<&VerifiedChecker>, bool),
    file: &Path,
    kept: &mut CubeLeaders,
) -> Result<(usize, Option<(CheckerRecord, CheckerRecord)>), HexError> {
    let (mut accepted, mut held) = (0, None);
    for (j, (path, leaders, proof)) in proofs.iter().enumerate() {
        let again = regenerate.relist(hex, cube, path, verified)?;
        let certificate = again.certificate.filter(|c| c.formula_sha256 == proof.formula_sha256);
        if again.leaders != *leaders || certificate.is_none() {
            let message = "listed again, the cube gives other leaders than its record".into();
            return Err(HexError::Input { file: file.to_path_buf(), line: 0, message });
        }
        if let Some(verdict) = certificate.and_then(|c| c.verified_lrat) {
            accepted += 1;
            // With --keep-verdicts a known build's acceptance is never written over (records::verdict).
            if keep && !verdict.may_replace(proof.verified_lrat.as_ref()) {
                held = proof.verified_lrat.clone().map(|recorded| (recorded, verdict));
                continue;
            }
            match kept.leaves.get_mut(j) {
                Some(leaf) => leaf.certificate.verified_lrat = Some(verdict),
                None => kept.certificate.as_mut().expect("judged above").verified_lrat = Some(verdict),
            }
        }
    }
    Ok((accepted, held))
}

/// One listing proof judged against the formula rebuilt from its record:
/// the hash it names is that formula's (a leader removed or added is
/// another formula), hexcert-lrat accepted it online, and a recorded
/// verified checker's verdict is an acceptance bound to the same formula.
/// Whether that verdict counts as verified is handed back; a fault is
/// `bad`'s error (the cube record's, naming it).
fn judge_proof(
    formula: &crate::formula::Cnf,
    proof: &ListingProof,
    bad: &impl Fn(String) -> HexError,
) -> Result<bool, HexError> {
    if crate::digest::sha256_hex(&formula.to_dimacs()) != proof.formula_sha256
        || formula.clauses().len() != proof.formula_clauses
    {
        return Err(bad("the refuted formula's hash is not that of the cube with its leaders blocked: a leader was removed or added".into()));
    }
    if !proof.lrat.verified || proof.lrat.how != ONLINE_LISTING || proof.lrat.verdict != "s VERIFIED" {
        return Err(bad(format!("the listing's proof was not accepted: {}", proof.lrat.verdict)));
    }
    let Some(verdict) = &proof.verified_lrat else { return Ok(false) };
    // On the refuted formula the record names (no stored proof to bind to).
    if !verdict.verified_acceptance() {
        return Err(bad(format!("the recorded {} verdict is not an acceptance: {}", verdict.name, verdict.verdict)));
    }
    if let Some(why) = verdict.binding_fault(&proof.formula_sha256, None) {
        return Err(bad(why));
    }
    Ok(verdict.counts_as_verified())
}

/// What a listing's cube records hold, judged.
#[derive(Default)]
struct Cubes {
    leaders: Vec<Partial>,
    /// Cubes listed again in this run (all of them, or those without a
    /// verified checker's acceptance when verdicts are kept).
    listed_here: usize,
    /// Cubes whose record holds an acceptance by a known build of the
    /// verified checker, as read (before this run).
    verified_recorded: usize,
    /// Cubes whose listing proof the verified checker accepted in this run.
    verified_here: usize,
    total: usize,
    /// Cubes that kept a recorded verdict this run's could not replace
    /// (`CheckerRecord::may_replace`), and the first such pair (recorded, this run's).
    held: usize,
    held_line: Option<(CheckerRecord, CheckerRecord)>,
    /// The first cube whose certificate names a solver this build does not
    /// know, and why (`CubeLeaders::unknown_solver`).
    unknown_solver: Option<String>,
}

/// The claim below the minimum, named by the record: of this side and
/// bound, of its level or a lower one (refining never lowers a penalty,
/// docs/PROBLEM.md section 4: none of a level lies below a bound that none
/// of a lower level lies below), and checked.
fn minimum_claim(
    path: &Path,
    dir: &Path,
    record: &CountRecord,
    check_claim: &mut dyn FnMut(&Path) -> Status,
    messages: &mut Vec<String>,
) -> Result<Status, HexError> {
    let claim_path = crate::files::lexical(&dir.join(&record.minimum_claim));
    let numbers = Record::read(&claim_path)?.claim_numbers().map(|(n, level, below, _)| (n, level, below));
    let p = record.minimum();
    if !numbers.is_some_and(|(n, level, below)| (n, below) == (record.n, p) && (1..=record.level).contains(&level)) {
        return Err(HexError::Input {
            file: path.to_path_buf(),
            line: 0,
            message: format!(
                "minimum_claim {} is not a claim \"level {} (or lower) below {p}\" of n = {}",
                record.minimum_claim, record.level, record.n
            ),
        });
    }
    let status = check_claim(&claim_path);
    let shown = claim_path.display();
    messages.push(match status {
        Status::Verified => format!("minimum: the claim {shown} is verified (with a leader at {p} it makes {p} the minimum)"),
        _ => format!("minimum: the claim {shown} is {} (with a leader at {p}, the minimum is at most {p}, and would be {p} if the claim were verified)", status.name()),
    });
    Ok(status)
}

/// The statement -> listing CNF step: VeriPB re-checks the derivation when
/// it is on PATH; otherwise the step is unverified in this run.
fn statement(path: &Path, record: &CountRecord, messages: &mut Vec<String>) -> Result<Status, HexError> {
    let hex = Hexagon::new(record.n)?;
    let encoding = listing_encoding(&hex, record.level, record.penalty);
    let hash = crate::digest::sha256_hex(&encoding.cnf.to_dimacs());
    let derived = super::statement_to_cnf::derive_and_check(
        &hex,
        record.level,
        record.penalty + 1,
        &encoding.options,
        &hash,
        path,
    )?;
    if derived.accepted() {
        messages.push("statement -> listing CNF: accepted by VeriPB in this run".into());
        return Ok(Status::Verified);
    }
    let why = derived.not_checked.as_deref().unwrap_or("VeriPB did not run");
    messages.push(format!("statement -> listing CNF: unverified in this run ({why})"));
    Ok(Status::Unverified)
}
