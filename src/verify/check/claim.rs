//! A claim's proof judged in this run: its CNF re-encoded and hashed, its
//! proofs read from the claim directory or regenerated, and every checker's
//! verdict on them turned into a line of the report.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::report::NOT_STORED;
use crate::compress;
use crate::digest::sha256_hex;
use crate::encoding::LevelEncoding;
use crate::error::{AtPath, HexError, RecordError};
use crate::geometry::Hexagon;
use crate::proofs::online::{Against, Finished, LRAT_FILE_CAP};
use crate::proofs::verified::VerifiedChecker;
use crate::proofs::Checker;
use crate::records::ranges::{check_claim_directory, check_n_directory};
use crate::records::read::{expect_hash, stored_path};
use crate::records::trust::{trust_base, Basis};
use crate::records::{CheckerRecord, Claim, Status};
use crate::run::WorkDir;
use crate::verify::budget::Reservation;
use crate::verify::regenerate::{rebuild_checked, ProofChecks, Rebuild, Regenerate};

/// Judges `claim` (read from `path`); with `checks.keep`, the verified
/// checker's verdict of this run is written into the file and `claim`
/// becomes what the file now holds.
pub(super) fn check_claim(
    path: &Path,
    claim: &mut Claim,
    checks: ProofChecks<'_>,
    messages: &mut Vec<String>,
) -> Result<Status, HexError> {
    let (regenerate, verified) = (checks.regenerate, checks.verified);
    let (dimacs, _share) = judged_formula(path, claim, messages)?;
    if let Some(recorded) = &claim.verified_lrat {
        // Bound to this claim's CNF and LRAT proof, or refused; either way the record's word, not this run's check.
        if let Some(why) =
            recorded.binding_fault(&claim.cnf.sha256, claim.lrat_proof.as_ref().map(|f| f.sha256.as_str()))
        {
            return Err(RecordError::Header(why).at(path));
        }
        messages.push(recorded.recorded_line());
    }
    if checks.keep && verified.is_some_and(|v| claim.verified_lrat.as_ref().is_some_and(|r| r.resumes(&v.version))) {
        messages.push(format!("{} accepted the proof in an earlier run (recorded); not checked in this one: rerun without --keep-verdicts to check it", crate::proofs::verified::NAME));
        return Ok(Status::Unverified);
    }
    // Outside the claim directory: check only reads a certificate, so a
    // read-only copy checks as the original does.
    let work = || WorkDir::create_temp("hexcert-check");
    let stored = claim.cnf.stored_as.as_ref().zip(claim.proof.stored_as.as_ref());
    let proofs = if let Some(names) = stored {
        read_stored(path, claim, names, work()?, verified, messages)?
    } else if let Some(regenerate) = regenerate {
        regenerate_proof(path, claim, regenerate, dimacs, work()?, verified, messages)?
    } else {
        messages.push(NOT_STORED.into());
        return Ok(Status::Unverified);
    };
    if let Some(verdict) = proofs.seen {
        messages.push(verified_line(&verdict, path)?);
        if checks.keep && !verdict.may_replace(claim.verified_lrat.as_ref()) {
            let recorded = claim.verified_lrat.as_ref().expect("may_replace refuses only over a verdict");
            messages.push(recorded.kept_line(&verdict, "the claim"));
        } else if checks.keep {
            let mut kept = claim.clone();
            kept.verified_lrat = Some(verdict);
            kept.trust_base = trust_base(Basis::of_claim(&kept, &kept.encode_options()));
            crate::records::read::replace_record(path, claim, &kept)?;
            *claim = kept;
            messages.push("its verdict recorded in the claim".into());
        }
    }
    let external = external_drat_checks(&proofs.cnf, &proofs.drat, path)?;
    let verified = proofs.lrat.is_some() || !external.is_empty();
    messages.extend(proofs.lrat);
    messages.extend(external);
    if !verified {
        messages.push(
            "no LRAT proof stored and no DRAT checker (drat-trim, rate) on PATH: nothing checked the proof".into(),
        );
        return Ok(Status::Unverified);
    }
    Ok(crate::verify::cube_claims::solver_judged(claim.unknown_solver(), messages))
}

/// The DIMACS bytes of `claim`'s CNF, re-encoded from its parameters once
/// its numbers are in range and agree with its directory `path`, and held
/// to the recorded hash; with the share of the encoding budget it holds.
fn judged_formula(path: &Path, claim: &Claim, messages: &mut Vec<String>) -> Result<(Vec<u8>, Reservation), HexError> {
    // Its numbers were judged in range as it was read (`records::claim`).
    claim.check_encoder(path)?;
    crate::records::ranges::check_encoding_budget(claim.n, claim.level, claim.below, 1, path)?;
    let share = crate::verify::budget::reserve(claim.n, claim.level, claim.below, 1);
    check_n_directory(path, claim.n)?;
    check_claim_directory(path, claim.level, claim.below)?;
    let hex = Hexagon::new(claim.n)?;
    let dimacs = LevelEncoding::new(&hex, claim.level, claim.encode_options()).cnf.to_dimacs();
    if sha256_hex(&dimacs) != claim.cnf.sha256 {
        return Err(RecordError::Header(
            "the CNF re-encoded from the claim's parameters does not match the recorded hash".into(),
        )
        .at(path));
    }
    messages.push("re-encoded CNF matches the recorded hash".into());
    Ok((dimacs, share))
}

/// The claim `claim` (read from `path`) rebuilt for export: judged as
/// `check` judges it, its formula re-solved, the trace read by hexcert-lrat
/// as it is written and the DRAT twin (written to `drat`, the whole LRAT
/// proof beside it) required to hash to the record. Returns the CNF's
/// DIMACS bytes and the solve.
///
/// # Errors
///
/// `HexError::Input` when a number, the build, a name or a time of the claim is
/// out of range, its encoder or bound is inconsistent, or it lies outside its
/// `n<N>/level<K>-below<B>` directories; `HexError::Record` for another format
/// or statement, an encoding over budget (`RecordError::OverBudget`) or a CNF
/// re-encoded to another hash (`RecordError::Header`); then `rebuild_checked`'s
/// errors: the solve's own, `HexError::Record` (`RecordError::LratRejected`,
/// `RecordError::HashMismatch`) for a rejected trace or a DRAT twin of another
/// hash, `HexError::Io` and `HexError::Internal` for the proof files and the
/// checker thread.
pub fn rebuild_claim(
    path: &Path,
    claim: &Claim,
    regenerate: &dyn Regenerate,
    drat: &Path,
    messages: &mut Vec<String>,
) -> Result<(Vec<u8>, Finished, f64), HexError> {
    let (dimacs, _share) = judged_formula(path, claim, messages)?;
    let rebuild = Rebuild {
        against: Against::Formula(dimacs.clone()),
        drat,
        verified: None,
        lrat_cap: u64::MAX,
        drat_sha256: &claim.proof.sha256,
        record: path,
        cube: None,
    };
    let (finished, seconds) = rebuild_checked(rebuild, |trace| regenerate.regenerate(claim, trace))?;
    Ok((dimacs, finished, seconds))
}

/// A claim's CNF and DRAT proof as this run read or rebuilt them, and what
/// the LRAT checkers said of its proof.
struct Proofs {
    /// Holds the files below until the claim's check ends.
    _work: WorkDir,
    cnf: PathBuf,
    drat: PathBuf,
    /// The line of the LRAT checker of `lrat/`, when it ran.
    lrat: Option<String>,
    /// The verified checker's verdict, when it ran.
    seen: Option<CheckerRecord>,
}

/// The stored CNF and proofs of `claim` unpacked into `work` and held to
/// their recorded hashes; a stored LRAT proof is checked by both checkers.
fn read_stored(
    path: &Path,
    claim: &Claim,
    (cnf_name, proof_name): (&String, &String),
    work: WorkDir,
    verified: Option<&VerifiedChecker>,
    messages: &mut Vec<String>,
) -> Result<Proofs, HexError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let inside = |dir: &Path, name: &str| stored_path(dir, name, "claim").map_err(|e| e.at(path));
    let mut seen = None;
    let (cnf_path, proof_path) = (work.0.join("formula.cnf"), work.0.join("proof.drat"));
    compress::gunzip_file_limited(&inside(dir, cnf_name)?, &cnf_path, claim.cnf.bytes)?;
    compress::gunzip_file_limited(&inside(dir, proof_name)?, &proof_path, claim.proof.bytes)?;
    expect_hash(&cnf_path, &claim.cnf.sha256, "stored CNF")?;
    expect_hash(&proof_path, &claim.proof.sha256, "stored DRAT proof")?;
    messages.push("stored CNF and DRAT proof match their recorded hashes".into());
    let lrat = match claim.lrat_proof.as_ref().and_then(|r| r.stored_as.as_ref().map(|name| (r, name))) {
        Some((record, name)) => {
            let lrat_path = work.0.join("proof.lrat");
            compress::gunzip_file_limited(&inside(dir, name)?, &lrat_path, record.bytes)?;
            expect_hash(&lrat_path, &record.sha256, "stored LRAT proof")?;
            let checked = check_lrat_file(&cnf_path, &lrat_path, path)?;
            if let Some(checker) = verified {
                seen = Some(checker.check_file(&cnf_path, &lrat_path)?);
            }
            Some(checked)
        }
        None => None,
    };
    Ok(Proofs { _work: work, cnf: cnf_path, drat: proof_path, lrat, seen })
}

/// The proof of `claim` re-solved into `work`, its trace checked online as
/// it is written (by the verified checker too, when given) and its DRAT
/// twin held to the recorded hash.
fn regenerate_proof(
    path: &Path,
    claim: &Claim,
    regenerate: &dyn Regenerate,
    dimacs: Vec<u8>,
    work: WorkDir,
    verified: Option<&VerifiedChecker>,
    messages: &mut Vec<String>,
) -> Result<Proofs, HexError> {
    let cnf_path = work.0.join("formula.cnf");
    crate::files::write_atomic(&cnf_path, &dimacs)?;
    let stream = verified.map(|checker| checker.stream(&cnf_path)).transpose()?;
    let drat = work.0.join("proof.drat");
    let rebuild = Rebuild {
        against: Against::Formula(dimacs),
        drat: &drat,
        verified: stream,
        lrat_cap: LRAT_FILE_CAP,
        drat_sha256: &claim.proof.sha256,
        record: path,
        cube: None,
    };
    let (Finished { lrat: record, drat: proof_path, verified, .. }, seconds) =
        rebuild_checked(rebuild, |trace| regenerate.regenerate(claim, trace))?;
    messages.push(format!("regenerated the proof in {seconds:.1} s; its DRAT twin matches the recorded hash"));
    let verdict = format!(
        "hexcert-lrat {}: {} on the regenerated trace ({} steps, {:.1} s of CPU)",
        record.version, record.verdict, record.steps, record.cpu_seconds
    );
    Ok(Proofs { _work: work, cnf: cnf_path, drat: proof_path, lrat: Some(verdict), seen: verified })
}

/// The line reporting the verified checker's acceptance; its rejection is
/// an error naming `claim_path`.
fn verified_line(verdict: &CheckerRecord, claim_path: &Path) -> Result<String, HexError> {
    if !verdict.verified_acceptance() {
        return Err(RecordError::LratRejected {
            what: format!("the proof (by {})", verdict.name),
            verdict: verdict.verdict.clone(),
        }
        .at(claim_path));
    }
    let build = verdict.read.as_ref().map_or("", |read| read.build.as_str());
    Ok(format!(
        "{}: {} in this run ({}, {build}, {:.2} s, {} MB)",
        verdict.name,
        verdict.verdict,
        verdict.version,
        verdict.seconds,
        verdict.peak_memory_kb / 1024
    ))
}

/// Checks a stored LRAT proof with the LRAT checker of `lrat/`; returns the
/// line to report. A rejection is an error naming `claim_path` and the step.
fn check_lrat_file(cnf: &Path, lrat: &Path, claim_path: &Path) -> Result<String, HexError> {
    let formula = std::fs::read(cnf).at_path(cnf)?;
    let proof = std::fs::File::open(lrat).at_path(lrat)?;
    let start = Instant::now();
    match hexcert_lrat::check(&formula, std::io::BufReader::new(proof)) {
        Ok(summary) => Ok(format!(
            "hexcert-lrat {}: s VERIFIED on the stored LRAT proof ({} additions, {} hints, {:.2} s)",
            hexcert_lrat::VERSION,
            summary.added,
            summary.hints,
            start.elapsed().as_secs_f64()
        )),
        Err(e) => {
            Err(RecordError::LratRejected { what: "the stored LRAT proof".into(), verdict: e.to_string() }
                .at(claim_path))
        }
    }
}

/// The one place where `check` runs external DRAT checkers: every one on
/// PATH (drat-trim, rate) on (CNF, DRAT); returns the lines to report, none
/// when no checker is present. A rejection is an error naming `claim_path`.
///
/// # Errors
///
/// `HexError::Record` (`RecordError::Header`) naming `claim_path` when a
/// checker does not print `s VERIFIED`; `HexError::Io` when a checker cannot be
/// started, `HexError::Solver` when it cannot be waited for.
pub fn external_drat_checks(cnf: &Path, proof: &Path, claim_path: &Path) -> Result<Vec<String>, HexError> {
    let mut lines = Vec::new();
    for checker in Checker::present() {
        let verdict = checker.check(cnf, proof)?;
        if !verdict.verified {
            return Err(RecordError::Header(format!(
                "{} did not verify the DRAT proof: {}",
                checker.name, verdict.line
            ))
            .at(claim_path));
        }
        lines.push(format!("{}: {} on the DRAT proof ({:.1} s)", checker.name, verdict.line, verdict.seconds));
    }
    Ok(lines)
}
