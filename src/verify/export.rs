//! `hexcert export`: a claim's, or one cube's, exact CNF with its LRAT and
//! DRAT proofs, for any checker.
//!
//! Invariant: nothing appears under the output directory unless the CNF
//! re-encoded from the record hashes to the record, the proof rebuilt by
//! re-solving was accepted by hexcert-lrat as it was written (on the plan's
//! split formula, for a cube), and its DRAT twin hashes to the record (and
//! the LRAT proof too, where the record holds its hash). The directory is
//! built under a temporary sibling name and renamed whole, so a refusal or
//! a stop leaves nothing. The solving is the caller's (`Regenerate`), as
//! for `check --regenerate`, whose rebuild this is
//! (`check::rebuild_claim`, `check_cubes::rebuild_cube`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::check::rebuild_claim;
use super::cube_claims::rebuild_cube;
use super::regenerate::Regenerate;
use crate::digest::sha256_hex;
use crate::encoding::{SymmetryBreaking, TieBreak};
use crate::error::{AtPath, HexError, RecordError};
use crate::proofs::online::Finished;
use crate::records::claim::{this_build, BuildRecord};
use crate::records::read::{expect_hash, read_bounded, MAX_RECORD_BYTES};
use crate::records::{CheckerRecord, LratRecord, Record};

/// The manifest's format.
pub const EXPORT_FORMAT: &str = "hexcert-export/1";
/// The files of an export, as they are named in it.
pub const CNF_FILE: &str = "formula.cnf";
pub const LRAT_FILE: &str = "proof.lrat";
pub const DRAT_FILE: &str = "proof.drat";
pub const MANIFEST_FILE: &str = "manifest.json";
/// The files' SHA-256 sums in `sha256sum` format (`sha256sum -c SHA256SUMS`).
pub const SUMS_FILE: &str = "SHA256SUMS";

/// `manifest.json` of an export (docs/RECORDS.md).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportManifest {
    pub format: String,
    pub statement: String,
    /// The record exported, as it was named, and the SHA-256 of its bytes.
    pub record: String,
    pub record_sha256: String,
    /// The cube exported, for a cube claim: its index in the plan, its cells' values and its path.
    pub cube: Option<ExportedCube>,
    pub files: Vec<ExportedFile>,
    /// hexcert-lrat's verdict on the trace as the solver wrote it.
    pub lrat: LratRecord,
    /// What the proof was re-solved with, as the record names it: a cube's
    /// solver profile (`None`: CaDiCaL's defaults), a claim's solver options.
    pub solver: Option<String>,
    pub solve_seconds: f64,
    /// How formula.cnf differs from the statement's plain formula (symmetry
    /// breaking, a cube's units and tie-break), and where the argument is that
    /// its refutation still proves the statement: what another checker's
    /// verdict on the files does not cover.
    #[serde(default)]
    pub reduction: String,
    /// How to check the files with other checkers, run in the export directory.
    pub commands: Vec<String>,
    pub hexcert: BuildRecord,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportedCube {
    pub index: usize,
    pub cells: Vec<usize>,
    pub depth: u8,
    pub values: Vec<u8>,
    pub literals: Vec<i32>,
}

/// One file of an export: its SHA-256 and size, and the hash the record
/// holds of it (equal, or the export was refused; `None`: the record holds none).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportedFile {
    pub name: String,
    pub what: String,
    pub sha256: String,
    pub bytes: u64,
    pub recorded_sha256: Option<String>,
}

/// The commands of the manifest, run in the export directory.
pub fn checker_commands() -> Vec<String> {
    vec![
        format!("sha256sum -c {SUMS_FILE}"),
        format!("cake_lpr {CNF_FILE} {LRAT_FILE}   # prints `s VERIFIED UNSAT`"),
        format!("drat-trim {CNF_FILE} {DRAT_FILE}   # prints `s VERIFIED`"),
        format!("hexcert-lrat {CNF_FILE} {LRAT_FILE}   # prints `s VERIFIED`"),
    ]
}

/// The manifest's `reduction` for a whole claim encoded with `symmetry`.
fn claim_reduction(symmetry: SymmetryBreaking) -> String {
    match symmetry {
        SymmetryBreaking::None => {
            "none: formula.cnf is the statement's plain level formula (docs/SOUNDNESS.md section 1)".into()
        }
        reduced => format!(
            "{}: formula.cnf is the statement's level formula with symmetry-breaking clauses ({}); \
             its refutation proves the statement only with that argument, docs/SOUNDNESS.md section 3, \
             which `hexcert check --veripb` checks as a derivation from the plain formula",
            reduced.name(),
            reduced.soundness()
        ),
    }
}

/// The manifest's `reduction` for one cube of a plan with `tie_break`.
fn cube_reduction(tie_break: TieBreak) -> String {
    let cube = "formula.cnf is one cube's formula: the statement's plain level formula (no symmetry \
                breaking) plus the cube's units; its refutation proves the statement only with every \
                other cube of the plan refuted and the plan's orbit reduction and cover \
                (docs/SOUNDNESS.md sections 7 and 10)";
    if tie_break.is_none() {
        return format!("cube: {cube}");
    }
    format!(
        "cube with tie-break {}: {cube}, and the tie-break's lex-leader clauses, sound only by the \
         argument of docs/SOUNDNESS.md section 7 (\"Tie-break\"), which `hexcert check --veripb` checks",
        tie_break.name()
    )
}

/// What one export rebuilt, before it is written: the CNF bytes, the online
/// check's files, and the hashes the record holds of the LRAT proof.
struct Rebuilt {
    statement: String,
    reduction: String,
    cube: Option<ExportedCube>,
    dimacs: Vec<u8>,
    hashes: Recorded,
    finished: Finished,
    profile: Option<String>,
    seconds: f64,
}

/// The hashes a record holds of an export's files.
struct Recorded {
    cnf: String,
    drat: String,
    /// The LRAT proof's (a stored one's, or the one a verified checker read).
    lrat: Option<String>,
}

impl Recorded {
    fn of(cnf: &str, drat: &str, lrat_file: Option<&str>, verified: Option<&CheckerRecord>) -> Recorded {
        let read = verified.and_then(|v| v.read.as_ref()).map(|r| r.lrat_sha256.clone());
        Recorded { cnf: cnf.into(), drat: drat.into(), lrat: lrat_file.map(String::from).or(read) }
    }
}

/// Exports the record at `path` (a claim, or with `cube` one cube of a cube
/// claim; a directory names its `claim.json`) into the new directory `out`;
/// returns its manifest.
///
/// # Errors
///
/// `HexError::Usage` when `out` already exists, or `cube` is given for a claim
/// or missing for a cube claim; `HexError::Io` or `HexError::Record` when the
/// record cannot be read or parsed, `HexError::Record` (`RecordError::Header`)
/// when it is no claim; `rebuild_claim`'s or `rebuild_cube`'s errors;
/// `HexError::Record` (`RecordError::HashMismatch`) when the exported CNF or
/// LRAT proof does not hash to the record; `HexError::Io` when the export's
/// files cannot be written, hashed or renamed into `out`.
pub fn export(
    path: &Path,
    cube: Option<usize>,
    out: &Path,
    regenerate: &dyn Regenerate,
) -> Result<ExportManifest, HexError> {
    if std::fs::symlink_metadata(out).is_ok() {
        return Err(HexError::Usage(format!("{}: already exists (export writes a new directory)", out.display())));
    }
    let named = path.join("claim.json");
    let path = if path.is_dir() { named.as_path() } else { path };
    let bytes = read_bounded(path, MAX_RECORD_BYTES, "record")?;
    let record = Record::parse(&bytes, path)?;
    let staging = Staging::create(out)?;
    let drat = staging.0.join(DRAT_FILE);
    let mut messages = Vec::new();
    let rebuilt = match (record, cube) {
        (Record::Claim(claim), None) => {
            let (dimacs, finished, seconds) = rebuild_claim(path, &claim, regenerate, &drat, &mut messages)?;
            let lrat = claim.lrat_proof.as_ref().map(|f| f.sha256.as_str());
            let hashes = Recorded::of(&claim.cnf.sha256, &claim.proof.sha256, lrat, claim.verified_lrat.as_ref());
            let profile = Some(claim.solver.options.clone());
            let reduction = claim_reduction(claim.encoder.symmetry_breaking);
            Rebuilt {
                statement: claim.statement.clone(),
                reduction,
                cube: None,
                dimacs,
                hashes,
                finished,
                profile,
                seconds,
            }
        }
        (Record::CubeClaim(claim), Some(index)) => {
            let (dimacs, result, finished, seconds) =
                rebuild_cube(path, &claim, index, regenerate, &drat, &mut messages)?;
            let lrat = result.lrat_proof.as_ref().map(|f| f.sha256.as_str());
            let hashes = Recorded::of(
                &result.cnf_sha256,
                result.proof_sha256.as_deref().unwrap_or_default(),
                lrat,
                result.verified_lrat.as_ref(),
            );
            let c = &claim.plan.cubes[index];
            let cube = ExportedCube {
                index,
                cells: claim.plan.cells.clone(),
                depth: c.depth,
                values: c.values.clone(),
                literals: c.literals.clone(),
            };
            Rebuilt {
                statement: claim.statement.clone(),
                reduction: cube_reduction(claim.plan.tie_break),
                cube: Some(cube),
                dimacs,
                hashes,
                finished,
                profile: result.solver_profile.clone(),
                seconds,
            }
        }
        (Record::CubeClaim(claim), None) => {
            return Err(HexError::Usage(format!(
                "{}: a cube claim: name one of its {} cubes with --cube",
                path.display(),
                claim.plan.cubes.len()
            )))
        }
        (Record::Claim(_), Some(_)) => {
            return Err(HexError::Usage(format!("{}: not a cube claim: --cube names a cube of one", path.display())))
        }
        _ => return Err(RecordError::Header("not a claim: export writes a claim's or a cube's proofs".into()).at(path)),
    };
    let manifest = staging.write(path, sha256_hex(&bytes), rebuilt)?;
    staging.finish(out)?;
    Ok(manifest)
}

/// The export's directory while it is written: a temporary sibling of the
/// output, removed on drop unless renamed into place.
struct Staging(PathBuf);

impl Staging {
    fn create(out: &Path) -> Result<Staging, HexError> {
        let temp = crate::files::temporary_name(out);
        std::fs::create_dir_all(&temp).at_path(&temp)?;
        Ok(Staging(temp))
    }

    /// The CNF, the sums and the manifest beside the proofs, every file held
    /// to the hash its record holds.
    fn write(&self, path: &Path, record_sha256: String, rebuilt: Rebuilt) -> Result<ExportManifest, HexError> {
        let Rebuilt { statement, reduction, cube, dimacs, hashes, finished, profile, seconds } = rebuilt;
        let cnf = self.0.join(CNF_FILE);
        std::fs::write(&cnf, &dimacs).at_path(&cnf)?;
        expect_hash(&cnf, &hashes.cnf, "exported CNF")?;
        let lrat = finished.drat.with_extension("lrat");
        if let Some(recorded) = &hashes.lrat {
            expect_hash(&lrat, recorded, "exported LRAT proof")?;
        }
        let mut files = Vec::new();
        for (name, what, recorded) in [
            (CNF_FILE, "the exact DIMACS CNF the record's hash names", Some(hashes.cnf)),
            (
                LRAT_FILE,
                "the binary LRAT proof, clause ids numbered on the CNF (originals 1..m in file order)",
                hashes.lrat,
            ),
            (DRAT_FILE, "the binary DRAT proof (its hash is the record's)", Some(hashes.drat)),
        ] {
            let file = self.0.join(name);
            let sha256 = crate::digest::sha256_file(&file).at_path(&file)?;
            let bytes = std::fs::metadata(&file).at_path(&file)?.len();
            files.push(ExportedFile { name: name.into(), what: what.into(), sha256, bytes, recorded_sha256: recorded });
        }
        let sums: String = files.iter().map(|f| format!("{}  {}\n", f.sha256, f.name)).collect();
        crate::files::write_atomic(&self.0.join(SUMS_FILE), sums.as_bytes())?;
        let manifest = ExportManifest {
            format: EXPORT_FORMAT.into(),
            statement,
            record: path.display().to_string(),
            record_sha256,
            cube,
            files,
            lrat: finished.lrat,
            solver: profile,
            solve_seconds: seconds,
            reduction,
            commands: checker_commands(),
            hexcert: this_build(),
        };
        let json = serde_json::to_vec_pretty(&manifest)
            .map_err(|e| HexError::Internal(format!("the export manifest: {e}")))?;
        crate::files::write_atomic(&self.0.join(MANIFEST_FILE), &json)?;
        Ok(manifest)
    }

    /// Renames the finished directory to `out`.
    fn finish(self, out: &Path) -> Result<(), HexError> {
        std::fs::rename(&self.0, out).at_path(out)
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
