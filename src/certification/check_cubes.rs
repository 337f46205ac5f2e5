//! `hexcert check` on a claim merged from cubes: the plan's cover
//! enumerated again, every cube's record judged against its re-encoded
//! formula, and every cube's proof checked in this run (stored, read on the
//! split formula; or re-solved and its trace checked). A cube whose proof
//! is neither stored nor regenerated is attested, not checked: the claim is
//! then unverified, whatever its records say.

use std::path::Path;
use std::time::Instant;

use super::regenerate::ProofChecks;
use super::WorkDir;
use crate::cubes::{cube_formula, split_formula};
use crate::encoding::LevelEncoding;
use crate::error::HexError;
use crate::proofs::online::{Against, Finished, OnlineCheck};
use crate::proofs::verified::write_formula;
use crate::digest::sha256_hex;
use crate::records::cube::{attested_cubes, check_stored_lrat_with, judge};
use crate::error::RecordError;
use crate::records::read::{expect_hash, stored_path};
use crate::records::header::Stated;
use crate::records::ranges::{check_claim_directory, check_encoding_budget, check_n_directory};
use crate::records::trust::{trust_base, Basis};
use crate::records::{CubeClaim, CubeResult, CubeVerdict, Status, CUBE_CLAIM_FORMAT};

/// What a cube claim states, before any proof: its header and place, its
/// plan (format, numbers, cover enumerated again, formula re-encoded to its
/// hash), the attested cubes it lists and its trust base. Returns the plan's
/// formula.
fn check_statement_and_plan(path: &Path, claim: &CubeClaim, messages: &mut Vec<String>) -> Result<LevelEncoding, HexError> {
    claim.header().check(CUBE_CLAIM_FORMAT, path)?;
    check_n_directory(path, claim.n)?;
    check_claim_directory(path, claim.level, claim.below)?;
    let plan = &claim.plan;
    plan.validate(path)?;
    if !plan.header().same_claim(&claim.header()) {
        return Err(RecordError::Header(format!("the plan is for `{}`, not the claim's statement", plan.statement)).at(path));
    }
    if claim.attested.as_ref().is_some_and(|listed| *listed != attested_cubes(&claim.cubes)) {
        return Err(RecordError::Header("the attested cubes listed are not those whose proofs are not stored".into()).at(path));
    }
    if claim.trust_base != trust_base(Basis::of_cube_claim(claim)) {
        return Err(RecordError::Header("the trust base is not the one this build states for a cube claim".into()).at(path));
    }
    let encoding = plan.encoding()?;
    if sha256_hex(&encoding.cnf.to_dimacs()) != plan.formula_sha256 {
        return Err(RecordError::Header("the formula re-encoded from the plan does not match the recorded hash".into()).at(path));
    }
    messages.push("re-encoded formula matches the plan's hash".into());
    let cover = plan.check_cover().map_err(|e| RecordError::Header(format!("the plan's cover does not hold: {e}")).at(path))?;
    messages.push(format!(
        "cover enumerated: {} projections, {} refuted locally, {} images of the {} cubes",
        cover.projections, cover.refuted, cover.covered, plan.cubes.len()
    ));
    if claim.cubes.len() != plan.cubes.len() {
        return Err(RecordError::Header(format!("{} cube records for the plan's {} cubes", claim.cubes.len(), plan.cubes.len())).at(path));
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
pub fn check_cube_claim(path: &Path, claim: &CubeClaim, checks: ProofChecks<'_>, messages: &mut Vec<String>) -> Result<Status, HexError> {
    check_encoding_budget(claim.plan.n, claim.plan.level, claim.plan.below, path)?;
    let _share = super::budget::reserve(claim.plan.n, claim.plan.level, claim.plan.below, crate::options::CUBE_CLAIM_COPIES.default);
    let (plan, encoding) = (&claim.plan, check_statement_and_plan(path, claim, messages)?);
    let split = plan.split()?;
    // Stored cube proofs are read on the split formula T (each a derivation
    // of its selector's negation), so that T's refutation is seen by the
    // checker, not inferred from the cube formulas' hashes.
    let split_dimacs = split_formula(&encoding, &split, &plan.cubes).to_dimacs();
    let mut lifted = hexcert_lrat::Lifted::from_dimacs(&split_dimacs, encoding.cnf.clauses().len())
        .map_err(|e| RecordError::Header(format!("the split formula is not read as one by the LRAT checker: {e}")).at(path))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut work = None;
    let mut kept = claim.clone();
    let (mut stored, mut regenerated, mut unchecked, mut earlier, mut by_verified) = (0, 0, 0, 0, 0);
    for (index, (cube, record)) in plan.cubes.iter().zip(&claim.cubes).enumerate() {
        let bad = |why: String| RecordError::Header(format!("cube {index}: {why}")).at(path);
        let cnf = cube_formula(&encoding, &split, cube);
        let dimacs = cnf.to_dimacs();
        let record = judge(plan, index, &dimacs, record.clone()).map_err(bad)?;
        let Some(proof_sha256) = record.proof_sha256.as_deref().filter(|_| record.verdict == CubeVerdict::Refuted) else {
            return Err(bad("not a refutation".into()));
        };
        let stored_proof = record.lrat_proof.as_ref().and_then(|f| f.stored_as.as_ref().map(|name| (f, name)));
        let resumed = checks.keep
            && checks.verified.is_some_and(|v| record.verified_lrat.as_ref().is_some_and(|r| r.verified_acceptance() && r.version == v.version));
        if resumed {
            earlier += 1;
            unchecked += 1;
            continue;
        }
        if stored_proof.is_none() && checks.regenerate.is_none() {
            unchecked += 1;
            continue;
        }
        if work.is_none() {
            // Outside the claim directory, which check only reads.
            work = Some(WorkDir::create(&std::env::temp_dir(), "hexcert-check")?);
        }
        let work_dir = &work.as_ref().expect("created").0;
        let verdict = if let Some((file, name)) = stored_proof {
            let units = cube.units(&encoding, &split);
            let gz = stored_path(dir, name, "claim").map_err(|e| bad(e.to_string()))?;
            check_stored_lrat_with(&gz, file, work_dir, |proof| {
                lifted.check_proof(index, &units, proof).map(|s| (s.added, s.hints))
            })
            .map_err(bad)?;
            stored += 1;
            match checks.verified {
                Some(checker) => Some(checker.check_gz(&write_formula(work_dir, &dimacs)?, &dir.join(name))?),
                None => None,
            }
        } else if let Some(regenerate) = checks.regenerate {
            let against = Against::Split {
                split: split_dimacs.clone(),
                base: encoding.cnf.clauses().len(),
                cube: index,
                units: cube.units(&encoding, &split),
            };
            let stream = checks.verified.map(|checker| checker.stream(&write_formula(work_dir, &dimacs)?)).transpose()?;
            let mut online = OnlineCheck::start_with(against, &work_dir.join("cube.drat"), stream)?;
            let what = format!("cube {index} of `{}`", claim.statement);
            let seconds = regenerate.regenerate_formula(&cnf, record.solver_profile.as_deref(), &what, online.sender())?;
            let Finished { lrat, drat, verified } = online.finish(Instant::now())?;
            if !lrat.verified {
                return Err(RecordError::LratRejected { what: format!("the regenerated proof of cube {index}"), verdict: lrat.verdict }.at(path));
            }
            expect_hash(&drat, proof_sha256, &format!("cube {index}'s regenerated DRAT proof"))?;
            regenerated += 1;
            if checks.progress {
                let by = verified.as_ref().map(|v| format!(", {}: {} in {:.1} s", v.name, v.verdict, v.seconds)).unwrap_or_default();
                eprintln!("check: cube {index} of {}: re-solved, hexcert-lrat {} after {seconds:.1} s of solving{by}", plan.cubes.len(), lrat.verdict);
            }
            verified
        } else {
            None
        };
        if let Some(verdict) = verdict {
            if !verdict.verified_acceptance() {
                return Err(RecordError::LratRejected { what: format!("the proof of cube {index} (by {})", verdict.name), verdict: verdict.verdict }.at(path));
            }
            by_verified += 1;
            if checks.keep {
                kept.cubes[index].verified_lrat = Some(verdict);
                kept.trust_base = trust_base(Basis::of_cube_claim(&kept));
                crate::files::write_atomic(path, &serde_json::to_vec_pretty(&kept).expect("claims serialise"))?;
            }
        }
    }
    messages.push(format!(
        "{} cubes: {stored} stored LRAT proofs verified by hexcert-lrat {}, {regenerated} re-solved with their traces verified and DRAT hashes matched, {unchecked} not checked",
        plan.cubes.len(),
        hexcert_lrat::VERSION
    ));
    if let Some(checker) = checks.verified {
        messages.push(format!("{by_verified} cube proofs verified by {} in this run ({})", crate::proofs::verified::NAME, checker.version));
    }
    let recorded: Vec<&CubeResult> = kept.cubes.iter().filter(|c| c.verified_lrat.as_ref().is_some_and(crate::records::CheckerRecord::verified_acceptance)).collect();
    if !recorded.is_empty() {
        messages.push(format!(
            "{} of {} cubes record a {} acceptance of their proof{}",
            recorded.len(),
            plan.cubes.len(),
            crate::proofs::verified::NAME,
            if earlier > 0 { format!(" ({earlier} by earlier runs, not re-checked in this one)") } else { String::new() }
        ));
    }
    if stored == plan.cubes.len() {
        let summary = lifted.conclude().map_err(|e| RecordError::Header(format!("the lifted cube proofs do not refute the split formula: {e}")).at(path))?;
        messages.push(format!(
            "split formula refuted by hexcert-lrat: every stored cube proof read on it derives its selector's negation, then the empty clause ({} additions)",
            summary.added
        ));
    } else if stored + regenerated == plan.cubes.len() {
        messages.push("split formula refuted: every cube's proof (stored, or re-solved and traced) read on it by hexcert-lrat derives its selector's negation, and its last clause is the disjunction of the selectors".into());
    } else if stored + regenerated > 0 {
        messages.push(format!("{} cube proofs read on the split formula derive their selectors' negations", stored + regenerated));
    }
    if unchecked > earlier {
        messages.push(format!("{} cube proofs not checked in this run; run with --regenerate to re-solve and check them", unchecked - earlier));
    }
    if earlier > 0 {
        messages.push(format!("{earlier} cube proofs checked by earlier runs (their recorded verdicts), not in this one: rerun without --keep-verdicts to check them all"));
    }
    if unchecked > 0 {
        return Ok(Status::Unverified);
    }
    Ok(Status::Verified)
}
