//! The statement -> CNF step of a claim: the OPB statement
//! (docs/STATEMENT.md) and the VeriPB derivation of the claim's exact CNF
//! from it (src/derivation/), written, hashed, checked by VeriPB and recorded
//! in `claim.json` (`statement_to_cnf`).
//!
//! Invariant: a record carries a VeriPB verdict only when VeriPB accepted
//! (exit 0 and `s VERIFIED OUTPUT DERIVABLE`) the derivation whose target
//! hashes to the claim's `cnf.sha256`; a rejection is an error and nothing
//! is recorded. The files are deterministic, so `hexcert check` writes them
//! again, requires the recorded hashes, and runs VeriPB itself: a recorded
//! verdict is never taken on trust.

use std::path::Path;

use crate::cubes::Plan;
use crate::derivation::Reach;
use crate::digest::sha256_file;
use crate::encoding::{EncodeOptions, SymmetryBreaking};
use crate::error::AtPath;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::proofs::veripb::Veripb;
use crate::records::trust::{trust_base, Basis};
use crate::records::Status;
use crate::records::{Claim, FileRecord, StatementRecord, VeripbRecord};
use crate::run::WorkDir;
use crate::statement::{Statement, STATEMENT_VERSION};

const TOTALIZER_NOT_COVERED: &str =
    "no derivation of the totalizer bound yet; the claim rests on the encoder (its trust base)";

/// The three files of one derivation, in a scratch directory removed on drop.
struct Written {
    work: WorkDir,
    statement: FileRecord,
    derivation: FileRecord,
    target: FileRecord,
}

impl Written {
    fn path(&self, name: &str) -> std::path::PathBuf {
        self.work.0.join(name)
    }
}

/// Writes statement, derivation and target for the claim "level-`level`
/// partials of `hex` below `below`", reaching `reach`, into a fresh scratch
/// directory (the system's: a read-only checkout can still be checked).
/// Errors: the target does not hash to `cnf_sha256` when given (the
/// derivation would reach another formula than the claim's), a plan the
/// derivation cannot cover, and write failures.
fn write(
    hex: &Hexagon,
    level: u8,
    below: usize,
    reach: Reach,
    cnf_sha256: Option<&str>,
    origin: &Path,
) -> Result<Written, HexError> {
    let work = WorkDir::create_temp(&format!("hexcert-veripb-n{}-level{level}-below{below}", hex.side()))?;
    let cnf = reach.target(hex, level, below)?;
    if cnf_sha256.is_some_and(|hash| crate::digest::sha256_hex(&cnf.to_dimacs()) != hash) {
        return Err(HexError::Input {
            file: origin.into(),
            line: 0,
            message: "the derivation's target is not the claim's CNF (its hash differs)".into(),
        });
    }
    let (statement, derivation, target) =
        (work.0.join("statement.opb"), work.0.join("derivation.pbp"), work.0.join("target.opb"));
    let written = Statement::new(hex, level, below);
    crate::files::write_atomic_with(&statement, |out| written.write(hex, out))?;
    crate::files::write_atomic_with(&derivation, |out| reach.write(hex, level, below, out).map(|_| ()))
        .map_err(|e| HexError::Input { file: origin.into(), line: 0, message: format!("no derivation: {e}") })?;
    crate::files::write_atomic_with(&target, |out| crate::derivation::write_cnf_as_opb(&cnf, out))?;
    let statement = file_record(&statement, "OPB statement (docs/STATEMENT.md), as written by `hexcert statement`")?;
    let derivation = file_record(
        &derivation,
        "VeriPB 3.0 proof deriving the claim's CNF from the statement, as written by `hexcert statement --derivation`",
    )?;
    let target = file_record(
        &target,
        "the CNF reached, as OPB (DIMACS variable i named xi), as written by `hexcert statement --target`",
    )?;
    Ok(Written { work, statement, derivation, target })
}

fn file_record(path: &Path, description: &str) -> Result<FileRecord, HexError> {
    Ok(FileRecord {
        stored_as: None,
        sha256: sha256_file(path).at_path(path)?,
        bytes: std::fs::metadata(path).at_path(path)?.len(),
        compressed_bytes: None,
        description: description.into(),
    })
}

/// Runs VeriPB on the written files; a rejection is an error naming `origin`.
fn run(veripb: &Veripb, written: &Written, origin: &Path) -> Result<VeripbRecord, HexError> {
    let verdict =
        veripb.check(&written.path("statement.opb"), &written.path("derivation.pbp"), &written.path("target.opb"))?;
    if !verdict.verified {
        return Err(HexError::Input {
            file: origin.into(),
            line: 0,
            message: format!("VeriPB rejected the statement-to-CNF derivation: {}", verdict.line),
        });
    }
    Ok(VeripbRecord {
        version: verdict.version,
        command: verdict.command,
        verified: true,
        verdict: verdict.line,
        seconds: verdict.seconds,
    })
}

/// The record of a claim with CNF hash `cnf_sha256`: the files written and
/// hashed, and VeriPB's verdict when this run has VeriPB (a program or the
/// linked library, `proofs::veripb`; else `not_checked` says why not).
///
/// # Errors
///
/// `HexError::Input` naming `origin` when VeriPB rejects (the derivation is
/// wrong: the refutation may be fine, but nothing false is recorded), the
/// target does not hash to `cnf_sha256`, or the derivation cannot be written;
/// `HexError::Usage` for a side-1 hexagon or `below` 0; `HexError::Io` when the
/// scratch files cannot be written or hashed, or VeriPB cannot be started. A
/// claim no derivation covers (a totalizer) is no error: its record says so.
pub fn derive_and_check(
    hex: &Hexagon,
    level: u8,
    below: usize,
    options: &EncodeOptions,
    cnf_sha256: &str,
    origin: &Path,
) -> Result<StatementRecord, HexError> {
    if !options.cardinality.is_counter() {
        return Ok(StatementRecord::not_covered(options.symmetry, TOTALIZER_NOT_COVERED));
    }
    let written =
        write(hex, level, below, Reach::Formula(options.symmetry, options.cardinality), Some(cnf_sha256), origin)?;
    record(written, options.symmetry, None, origin)
}

/// `derive_and_check` for a cube plan: the derivation reaches the plan's
/// split formula (`cubes::split_formula`), whose OPB the record hashes too.
///
/// # Errors
///
/// As `derive_and_check` (no hash to match: the target is the split formula),
/// and `HexError::Usage` when n is not a hexagon side, or the plan's split or
/// tie-break does not fit the hexagon.
pub fn derive_and_check_split(plan: &Plan, origin: &Path) -> Result<StatementRecord, HexError> {
    if !plan.cardinality.is_counter() {
        return Ok(StatementRecord::not_covered(SymmetryBreaking::None, TOTALIZER_NOT_COVERED));
    }
    let written = write(&Hexagon::new(plan.n)?, plan.level, plan.below, Reach::Split(plan), None, origin)?;
    let target = written.target.clone();
    record(written, SymmetryBreaking::None, Some(target), origin)
}

fn record(
    written: Written,
    symmetry: SymmetryBreaking,
    target: Option<FileRecord>,
    origin: &Path,
) -> Result<StatementRecord, HexError> {
    let veripb = match Veripb::find() {
        Some(veripb) => Some(run(&veripb, &written, origin)?),
        None => None,
    };
    Ok(StatementRecord {
        version: STATEMENT_VERSION.into(),
        not_checked: veripb.is_none().then(Veripb::missing),
        statement: Some(written.statement.clone()),
        derivation: Some(written.derivation.clone()),
        symmetry,
        veripb,
        target,
        derivation_writer: Some(crate::derivation::WRITER.into()),
    })
}

/// Checks in this run what a claim records about its statement -> CNF step:
/// the statement and derivation written again must hash to the record, and
/// VeriPB (when this run has it) must accept them. `strict` (`check --veripb`) asks
/// for a VeriPB verdict even where none is recorded (derived on the spot)
/// and reports a claim no derivation covers as unverified; otherwise such a
/// claim is judged on the trust base it states, which names the encoder.
///
/// # Errors
///
/// `HexError::Input` naming `path` when the trust base is not the one this
/// build derives from the claim (or names VeriPB without an accepted
/// derivation), the record is of another statement version or symmetry
/// breaking, holds neither an accepting verdict nor why none ran, its files
/// written again do not hash to it, or VeriPB rejects them; `HexError::Usage`
/// when n is not a hexagon side; `derive_and_check`'s errors for writing the
/// files.
pub fn check_recorded(
    claim: &Claim,
    path: &Path,
    strict: bool,
    messages: &mut Vec<String>,
) -> Result<Status, HexError> {
    let fail = |message: String| Err(HexError::Input { file: path.into(), line: 0, message });
    let mut say = |line: String| messages.push(format!("statement -> CNF: {line}"));
    let options = claim.encode_options();
    let recorded = claim.statement_to_cnf.as_ref();
    // Only a checked derivation may shorten the trust base; older claims keep
    // the wording of the build that wrote them.
    if recorded.is_some_and(StatementRecord::accepted) {
        if claim.trust_base != trust_base(Basis::of_claim(claim, &options)) {
            return fail(
                "the trust base is not the one this build states for a claim with a checked derivation".into(),
            );
        }
    } else if claim.trust_base.iter().any(|item| item.contains("VeriPB")) {
        return fail("the trust base names VeriPB, but no derivation accepted by VeriPB is recorded".into());
    } else if claim.trust_base != trust_base(Basis::of_claim(claim, &options)) {
        // Derived from what the claim states (encoder, symmetry, checkers), never taken as free text.
        return fail(
            "the trust base is not the one this build derives from the claim (an item left out or changed)".into(),
        );
    }
    let Some(record) = recorded.filter(|r| r.statement.is_some()) else {
        let why = match recorded {
            Some(record) => record.not_checked.clone().unwrap_or_else(|| "not covered".into()),
            None => "not recorded (`hexcert check --veripb --record` adds it)".into(),
        };
        if !strict || !options.cardinality.is_counter() {
            say(format!("{why}; judged on the trust base the claim states"));
            return Ok(if strict { Status::Unverified } else { Status::Verified });
        }
        // Strict and derivable: derive and check now, as a record would be.
        let hex = Hexagon::new(claim.n)?;
        let written = write(
            &hex,
            claim.level,
            claim.below,
            Reach::Formula(options.symmetry, options.cardinality),
            Some(&claim.cnf.sha256),
            path,
        )?;
        return verdict_now(&written, path, "derived now (nothing recorded)", &mut say);
    };
    if record.version != STATEMENT_VERSION {
        return fail(format!("the statement is `{}`, this build writes `{STATEMENT_VERSION}`", record.version));
    }
    if record.symmetry != options.symmetry {
        return fail("the derivation's symmetry breaking is not the claim's".into());
    }
    if record.veripb.as_ref().is_some_and(|v| !v.verified) || (record.veripb.is_none() == record.not_checked.is_none())
    {
        return fail("the record must hold either an accepting VeriPB verdict or why none was run".into());
    }
    let hex = Hexagon::new(claim.n)?;
    let written = write(
        &hex,
        claim.level,
        claim.below,
        Reach::Formula(options.symmetry, options.cardinality),
        Some(&claim.cnf.sha256),
        path,
    )?;
    let matched = matches_record(&written, record, false, path)?;
    verdict_now(&written, path, &matched, &mut say)
}

/// The files written again hash to the record (and the target too,
/// `split`); the derivation only when this build's writer wrote the
/// recorded one. Returns what matched, for the report.
fn matches_record(written: &Written, record: &StatementRecord, split: bool, path: &Path) -> Result<String, HexError> {
    let same_writer = record.derivation_writer() == crate::derivation::WRITER;
    let mut files = vec![("statement", record.statement.as_ref(), &written.statement)];
    if same_writer {
        files.push(("derivation", record.derivation.as_ref(), &written.derivation));
    }
    if split {
        files.push(("split formula", record.target.as_ref(), &written.target));
    }
    for &(what, recorded, now) in &files {
        let recorded = recorded.map(|r| (r.sha256.as_str(), r.bytes));
        if recorded != Some((now.sha256.as_str(), now.bytes)) {
            return Err(HexError::Input {
                file: path.into(),
                line: 0,
                message: format!(
                    "the {what} written again has sha256 {} ({} bytes), not the recorded one",
                    now.sha256, now.bytes
                ),
            });
        }
    }
    let names: Vec<&str> = files.iter().map(|f| f.0).collect();
    let matched = match names.as_slice() {
        [one] => format!("{one} written again matches its recorded hash"),
        [init @ .., last] => format!("{} and {last} written again match their recorded hashes", init.join(", ")),
        [] => unreachable!("the statement is always compared"),
    };
    if same_writer {
        return Ok(matched);
    }
    Ok(format!(
        "{matched}; the derivation recorded is {}'s, this build writes {}'s, so the one written now is the one checked",
        record.derivation_writer(),
        crate::derivation::WRITER
    ))
}

/// `check_recorded` for a cube claim: its derivation reaches the plan's
/// split formula. A claim recording none (merged before derivations of
/// plans existed) is judged on the trust base it states, or, `strict`,
/// derived and checked now.
///
/// # Errors
///
/// `HexError::Input` naming `path` when the trust base names VeriPB without an
/// accepted derivation (or the converse), the record is of another statement
/// version or has symmetry breaking, holds neither an accepting verdict nor why
/// none ran, its files written again (the split formula too) do not hash to it,
/// or VeriPB rejects them; `HexError::Usage` when n, the split or the tie-break
/// does not fit; `derive_and_check`'s errors for writing the files.
pub fn check_recorded_split(
    plan: &Plan,
    record: Option<&StatementRecord>,
    trust_base: &[String],
    path: &Path,
    strict: bool,
    messages: &mut Vec<String>,
) -> Result<Status, HexError> {
    let mut say = |line: String| messages.push(format!("statement -> split formula: {line}"));
    let accepted = record.is_some_and(StatementRecord::accepted);
    if accepted != trust_base.iter().any(|item| item.contains("VeriPB")) {
        return Err(HexError::Input { file: path.into(), line: 0, message: "the trust base does not match the statement record (VeriPB named without an accepted derivation, or the converse)".into() });
    }
    let hex = Hexagon::new(plan.n)?;
    let Some(record) = record.filter(|r| r.statement.is_some()) else {
        let why = record
            .and_then(|r| r.not_checked.clone())
            .unwrap_or_else(|| "not recorded (`hexcert check --veripb --record` adds it)".into());
        if !strict || !plan.cardinality.is_counter() {
            // A tie-break's clauses are the derivation's to judge: no
            // argument stands in for it, so without one nothing is concluded.
            if !plan.tie_break.is_none() {
                say(format!(
                    "{why}; the plan's tie-break ({}) is judged only by VeriPB on its derivation: unverified",
                    plan.tie_break.name()
                ));
                return Ok(Status::Unverified);
            }
            say(format!("{why}; judged on the trust base the claim states"));
            return Ok(if strict { Status::Unverified } else { Status::Verified });
        }
        let written = write(&hex, plan.level, plan.below, Reach::Split(plan), None, path)?;
        return verdict_now(&written, path, "derived now (nothing recorded)", &mut say);
    };
    if record.version != STATEMENT_VERSION || record.symmetry != SymmetryBreaking::None {
        return Err(HexError::Input { file: path.into(), line: 0, message: format!("the record is of statement `{}` with symmetry breaking, this build writes `{STATEMENT_VERSION}` without", record.version) });
    }
    if record.veripb.as_ref().is_some_and(|v| !v.verified) || (record.veripb.is_none() == record.not_checked.is_none())
    {
        return Err(HexError::Input {
            file: path.into(),
            line: 0,
            message: "the record must hold either an accepting VeriPB verdict or why none was run".into(),
        });
    }
    let written = write(&hex, plan.level, plan.below, Reach::Split(plan), None, path)?;
    let matched = matches_record(&written, record, true, path)?;
    verdict_now(&written, path, &matched, &mut say)
}

fn verdict_now(written: &Written, path: &Path, what: &str, say: &mut impl FnMut(String)) -> Result<Status, HexError> {
    let Some(veripb) = Veripb::find() else {
        say(format!("unverified: {what}, but {}", Veripb::missing()));
        return Ok(Status::Unverified);
    };
    let verdict = run(&veripb, written, path)?;
    say(format!(
        "{what}; {} `{}` in {:.1} s (statement sha256 {})",
        verdict.version, verdict.verdict, verdict.seconds, written.statement.sha256
    ));
    Ok(Status::Verified)
}
