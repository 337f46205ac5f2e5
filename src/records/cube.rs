//! Cube records: one cube's answer (`cubes run` writes it), the claim
//! merged from a finished plan's records (`cubes merge`), and how a record
//! is judged against the plan (`judge`).
//!
//! Invariant: a cube's refutation counts as checked only in a run that read
//! its proof with the LRAT checker (a stored proof, or a re-solve traced and
//! checked as it is written). A record that only says `verified` is
//! attested by the run that wrote it (`written_by`), and is reported so.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::claim::{BuildRecord, CheckerRecord, FileRecord, LratRecord, StatementRecord, ONLINE_LIFTED};
use super::header::{Header, Stated};
use super::ledger::{Ledger, LedgerRecord, Parsed};
use super::plan::{Cube, Plan};
use super::read::{Checked, MAX_RECORD_BYTES};
use crate::compress;
use crate::digest::{sha256_file, sha256_hex};
use crate::error::{AtPath, HexError, RecordError};
use crate::geometry::Hexagon;

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
    /// Seconds of solving (for an unfinished cube: until the time limit stopped it), wall clock.
    pub solve_seconds: f64,
    /// CPU seconds of the solver's thread over the same span: what the cube
    /// cost on a loaded machine, where the wall clock also counts the time
    /// it waited for a core. Absent in records written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solve_cpu_seconds: Option<f64>,
    /// Peak resident memory of the process that solved it (all cubes it ran so far).
    pub peak_memory_kb: u64,
    /// The host and run that wrote the record (`run::run_id`): where a cube
    /// whose proof is not stored was attested. Absent in older records.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::ledger::optional_writer")]
    pub written_by: Option<String>,
    /// The solver profile the cube was solved with (`solving::profile`);
    /// absent in records solved with CaDiCaL's defaults before cubes had one.
    /// Speed only: the verdict rests on the checked proof, whatever the options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver_profile: Option<String>,
    /// The formally verified checker's verdict on this cube's proof, read on
    /// the cube's own CNF (`proofs::verified`): written by the run that
    /// piped the proof to it (`cubes run`, or `check --regenerate --keep`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified_lrat: Option<CheckerRecord>,
}

impl CubeResult {
    /// The solving this cube cost: its solver's CPU where recorded, else the
    /// wall clock (an upper bound). What estimates and time limits compare,
    /// since `--time-limit` counts the solver's CPU.
    pub fn cost_seconds(&self) -> f64 {
        self.solve_cpu_seconds.unwrap_or(self.solve_seconds)
    }

    /// Every duration the record states (wall, and CPU where recorded).
    fn durations(&self) -> impl Iterator<Item = f64> {
        std::iter::once(self.solve_seconds).chain(self.solve_cpu_seconds)
    }
}

/// A cube record's times are durations (alone, or inside its cube claim).
impl Checked for CubeResult {
    fn check_read(&self, origin: &Path) -> Result<(), crate::error::HexError> {
        self.durations()
            .try_for_each(|seconds| super::ranges::seconds_in_range("a cube's solve seconds", seconds, origin))
    }
}

impl LedgerRecord for CubeResult {
    const FORMAT: &'static str = RESULT_FORMAT;
    const WHAT: &'static str = "cube record";
    const LIMIT: u64 = MAX_RECORD_BYTES;
    /// The plain formula, the split cells and the cube.
    type Identity = (String, Vec<usize>, Cube);

    fn identity(&self) -> Self::Identity {
        (self.formula_sha256.clone(), self.cells.clone(), self.cube.clone())
    }

    fn written_by(&self) -> Option<&str> {
        self.written_by.as_deref()
    }
}

/// The results directory's ledger of cube records, named by `Plan::cube_key`.
pub fn results(dir: &Path) -> Ledger<'_, CubeResult> {
    Ledger::at(dir)
}

/// Where the record of cube `index` of `plan` lies.
pub fn result_path(dir: &Path, plan: &Plan, index: usize) -> PathBuf {
    results(dir).path(&plan.cube_key(index))
}

/// What a results directory holds for one cube of a plan.
#[derive(Debug)]
pub enum Held {
    /// No run recorded the cube.
    Missing,
    /// Its record, which passed `judge`.
    Judged(Box<CubeResult>),
    /// A record that is damaged or fails `judge`, with why: set it aside.
    Rejected(String),
}

/// The one reader of a plan's cube records (`cubes status`, `cubes merge`,
/// `cubes run`): cube `index`'s record in `results`, judged against the
/// plan and the cube's formula `dimacs` (`judge`). A stored proof is not
/// read here: whoever counts the cube as checked reads it.
///
/// # Errors
///
/// `HexError::Usage` naming the file when another hexcert build wrote the
/// record (another version of the format, or a field this build does not
/// know): set aside and solved again it would be lost work.
pub fn read_result(plan: &Plan, results: &Path, index: usize, dimacs: &[u8]) -> Result<Held, crate::error::HexError> {
    let ledger = self::results(results);
    let key = plan.cube_key(index);
    Ok(match ledger.read(&key) {
        None => Held::Missing,
        Some(Parsed::Record(record)) => judge(plan, index, dimacs, *record)
            .map_or_else(|e| Held::Rejected(e.to_string()), |r| Held::Judged(Box::new(r))),
        Some(Parsed::Damaged(why)) => Held::Rejected(why),
        Some(Parsed::Foreign(why)) => {
            let shown = ledger.path(&key);
            return Err(crate::error::HexError::Usage(format!(
                "{}: written by another hexcert build ({why}); run the plan with that build, or move the record aside yourself",
                shown.display()
            )));
        }
    })
}

/// One record of cube `index` of `plan`, checked against the cube's formula
/// `dimacs` (re-encoded by the caller); the error says which check failed.
///
/// # Errors
///
/// `RecordError::Header` (the reason, as one line) when the format is not `RESULT_FORMAT`; the record
/// answers another formula, split or cube than cube `index` of `plan`; its
/// `cnf_sha256` is not that of `dimacs`; its solve seconds are not a duration;
/// a refutation lacks a verified LRAT verdict or a proof hash, or records a
/// verified-checker verdict that is not an acceptance or is bound to another
/// CNF or proof; a counterexample is absent, not a grid of the plan's side, or
/// not a valid partial of the plan's level below its bound.
pub fn judge(plan: &Plan, index: usize, dimacs: &[u8], record: CubeResult) -> Result<CubeResult, RecordError> {
    if record.format != RESULT_FORMAT {
        return Err(RecordError::Header(format!("format `{}` is not {RESULT_FORMAT}", record.format)));
    }
    if record.identity() != (plan.formula_sha256.clone(), plan.cells.clone(), plan.cubes[index].clone()) {
        return Err(RecordError::Header("the record answers another formula or cube".into()));
    }
    if record.cnf_sha256 != sha256_hex(dimacs) {
        return Err(RecordError::Header("the record's formula hash is not that of the cube's formula".into()));
    }
    for seconds in record.durations() {
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(RecordError::Header(format!("solve seconds {seconds} is not a duration")));
        }
    }
    match record.verdict {
        CubeVerdict::Refuted => {
            let verified = record.lrat.as_ref().is_some_and(|l| l.verified && l.verdict == "s VERIFIED");
            if !verified || record.proof_sha256.is_none() {
                return Err(RecordError::Header(
                    "a refutation without a verified LRAT verdict and a proof hash".into(),
                ));
            }
            if let Some(verdict) = &record.verified_lrat {
                if !verdict.verified_acceptance() {
                    return Err(RecordError::Header(
                        "a refutation whose recorded verified-checker verdict is not an acceptance".into(),
                    ));
                }
                // On this cube's own formula, and on its stored proof when it keeps one.
                let lrat = record.lrat_proof.as_ref().map(|f| f.sha256.as_str());
                if let Some(why) = verdict.binding_fault(&record.cnf_sha256, lrat) {
                    return Err(RecordError::Header(why));
                }
            }
        }
        CubeVerdict::Counterexample => {
            let text = record
                .counterexample
                .as_deref()
                .ok_or_else(|| RecordError::Header("a counterexample without its grid".into()))?;
            let partial = crate::formats::parse_grid(text.as_bytes(), Path::new("counterexample"), Some(plan.n))
                .map_err(|e| RecordError::Header(e.to_string()))?
                .partial;
            let hex = Hexagon::new(plan.n).map_err(|e| RecordError::Header(e.to_string()))?;
            let evaluation = crate::validation::evaluate(&hex, &partial);
            if partial.level() != plan.level || !evaluation.is_valid() || evaluation.penalty >= plan.below {
                return Err(RecordError::Header("the counterexample does not validate below the bound".into()));
            }
        }
        CubeVerdict::Unfinished => {}
    }
    Ok(record)
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
    /// The cubes whose refutation the merging run did not check (no proof
    /// stored beside the record): attested by the run that wrote the record,
    /// named with where it ran. Absent in claims merged before it was
    /// recorded; when present it must name exactly the cubes without a
    /// stored proof (`attested_cubes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attested: Option<Vec<Attested>>,
    pub trust_base: Vec<String>,
}

/// A cube of a merged claim whose proof the merge did not check.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Attested {
    pub cube: usize,
    /// `written_by` of its record, or "unknown" for a record older than it.
    #[serde(deserialize_with = "super::ledger::writer")]
    pub written_by: String,
}

impl Stated for CubeClaim {
    fn header(&self) -> Header<'_> {
        Header { format: &self.format, statement: &self.statement, n: self.n, level: self.level, below: self.below }
    }
}

/// Whether the record keeps its proof beside it (then whoever judges it can check it).
pub fn proof_stored(record: &CubeResult) -> bool {
    record.lrat_proof.as_ref().is_some_and(|f| f.stored_as.is_some())
}

/// What a cube claim states besides its plan's cover and proofs, as
/// `cubes merge` writes it, judged as it is read: its format and statement
/// those of its numbers (and its plan's), its solver a name and its build a
/// commit, every time a duration, the totals those of its cubes (the sum of
/// their solve and LRAT seconds, the slowest cube's), and the list of
/// attested cubes present whenever its cube records are of the builds that
/// write one (a record naming its writer): a list removed would hide from
/// the trust base that some cubes were not checked when merged.
///
/// # Errors
///
/// `Header::check`'s for the claim and its plan; `HexError::Input` when the
/// build, the solver's name or a duration is out of range
/// (`records::ranges`); `HexError::Record` (`RecordError::Header`) when a
/// total is not that of its cubes (compared only when there is a record per
/// planned cube), or no attested list is given while the records name their
/// writers and some proof is not stored.
impl Checked for CubeClaim {
    fn check_read(&self, origin: &Path) -> Result<(), crate::error::HexError> {
        use super::ranges::{build_in_range, name_in_range, seconds_in_range};
        let header = |why: String| RecordError::Header(why).at(origin);
        self.header().check(CUBE_CLAIM_FORMAT, origin)?;
        self.plan.header().check(super::plan::PLAN_FORMAT, origin)?;
        build_in_range((&self.hexcert.version, &self.hexcert.git_commit), origin)?;
        name_in_range("solver", &self.solver, origin)?;
        for cube in &self.cubes {
            cube.check_read(origin)?;
        }
        let lrat = self.cubes.iter().filter_map(|c| c.lrat.as_ref()).map(|l| l.cpu_seconds);
        let totals = [
            ("solve_seconds", self.solve_seconds, self.cubes.iter().map(|c| c.solve_seconds).sum::<f64>()),
            (
                "slowest_cube_seconds",
                self.slowest_cube_seconds,
                self.cubes.iter().map(|c| c.solve_seconds).fold(0.0, f64::max),
            ),
            ("lrat_cpu_seconds", self.lrat_cpu_seconds, lrat.sum::<f64>()),
        ];
        // A record missing or extra is named by the plan's judge, more plainly than by the totals it shifts.
        let whole = self.cubes.len() == self.plan.cubes.len();
        for (field, stated, cubes) in totals {
            seconds_in_range(field, stated, origin)?;
            if whole && (stated - cubes).abs() > 1e-6 * cubes.max(1.0) {
                return Err(header(format!("{field} {stated} is not the {cubes} of its cubes")));
            }
        }
        if self.attested.is_none()
            && self.cubes.iter().any(|c| c.written_by.is_some())
            && !attested_cubes(&self.cubes).is_empty()
        {
            return Err(header(
                "no attested cubes are listed, yet cube proofs are not stored: the list was removed".into(),
            ));
        }
        Ok(())
    }
}

impl CubeClaim {
    /// Why the solver the claim names is not one hexcert ran, if it is not
    /// (`ranges::unknown_solver`): the claim is then unverified.
    pub fn unknown_solver(&self) -> Option<String> {
        super::ranges::unknown_solver("solver", &self.solver)
    }
}

/// The cubes of `records` whose proof is not stored: attested, not checkable.
pub fn attested_cubes(records: &[CubeResult]) -> Vec<Attested> {
    let named = |r: &CubeResult| r.written_by.clone().unwrap_or_else(|| "unknown".into());
    records
        .iter()
        .enumerate()
        .filter(|(_, r)| !proof_stored(r))
        .map(|(cube, r)| Attested { cube, written_by: named(r) })
        .collect()
}

/// Where a merged claim keeps its cubes' stored LRAT proofs: a dot name, so
/// no campaign kept beside the claim can take it (one in `cubes/`, the name
/// used before, was once replaced by the merge's proofs).
pub const CUBE_PROOFS: &str = ".cube-proofs";

/// The files a claim directory's certificate consists of (a claim's or a
/// cube claim's), `claim.json` first: a newer certificate replaces these;
/// anything else there (a witness, the campaign that produced the claim) is
/// not the certificate's to move or remove.
pub const CERTIFICATE_FILES: &[&str] = &["claim.json", "formula.cnf.gz", "proof.drat.gz", "proof.lrat.gz", CUBE_PROOFS];

/// The verified checker's version when a known build of it accepted every
/// cube's proof (one version for all: a claim names one binary in its
/// trust base).
pub fn all_verified(cubes: &[CubeResult]) -> Option<&str> {
    let mut versions =
        cubes.iter().map(|c| c.verified_lrat.as_ref().filter(|v| v.counts_as_verified()).map(|v| v.version.as_str()));
    let first = versions.next()??;
    versions.all(|v| v == Some(first)).then_some(first)
}

/// Whether every cube's recorded LRAT verdict was reached on the split
/// formula (`ONLINE_LIFTED`): then the split step is the LRAT checker's.
pub fn all_lifted(cubes: &[CubeResult]) -> bool {
    cubes.iter().all(|c| c.lrat.as_ref().is_some_and(|l| l.verified && l.how == ONLINE_LIFTED))
}

/// Unzips a stored LRAT proof into `work`, checks its hash and has the LRAT
/// checker verify it against the cube's formula; the error says what failed.
///
/// # Errors
///
/// `HexError::Input` when `gz` cannot be read as gzip or expands past
/// `file.bytes` (or its expansion cap), `HexError::Io` when the unzipped
/// proof cannot be written, read or hashed in `work`, `HexError::Record`
/// naming `gz` when it does not hash to `file.sha256`
/// (`RecordError::HashMismatch`) or hexcert-lrat rejects it on `dimacs`
/// (`RecordError::LratRejected`).
pub fn check_stored_lrat(dimacs: &[u8], gz: &Path, file: &FileRecord, work: &Path) -> Result<(u64, u64), HexError> {
    check_stored_lrat_with(gz, file, work, |proof| hexcert_lrat::check(dimacs, proof).map(|s| (s.added, s.hints)))
}

/// Unzips a stored LRAT proof into `work`, checks its hash and hands it to
/// `verify` (a checker of it); the error says what failed.
///
/// # Errors
///
/// As `check_stored_lrat`, `verify`'s failure being the
/// `RecordError::LratRejected` naming `gz`.
pub fn check_stored_lrat_with(
    gz: &Path,
    file: &FileRecord,
    work: &Path,
    verify: impl FnOnce(std::io::BufReader<std::fs::File>) -> Result<(u64, u64), hexcert_lrat::CheckError>,
) -> Result<(u64, u64), HexError> {
    let plain = work.join("cube.lrat");
    // The recorded size caps the decompression: a gzip bomb stops there.
    compress::gunzip_file_limited(gz, &plain, file.bytes)?;
    let actual = sha256_file(&plain).at_path(&plain)?;
    if actual != file.sha256 {
        let _ = std::fs::remove_file(&plain);
        let what = "the stored LRAT proof".to_string();
        return Err(RecordError::HashMismatch { what, actual, expected: file.sha256.clone() }.at(gz));
    }
    let file = std::fs::File::open(&plain).at_path(&plain)?;
    let verdict = verify(std::io::BufReader::new(file));
    let _ = std::fs::remove_file(&plain);
    verdict.map_err(|e| RecordError::LratRejected { what: "the stored proof".into(), verdict: e.to_string() }.at(gz))
}
