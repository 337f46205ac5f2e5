//! Certification: proving claims with traced LRAT-checked proofs, certifying
//! optima, running and merging cubes, and re-checking stored certificates.
//!
//! This layer joins the solver (`solving`) and the records (`records`,
//! `proofs`), which never see the solver; `check` and `check_cubes` do not
//! either (they take regeneration as a `regenerate::Regenerate`). Nothing is
//! written to a certificate directory before the LRAT checker of `lrat/`
//! accepted the proof, and, for the proofs `--external-check` hands them
//! (stored ones by default), before drat-trim or rate (those on PATH)
//! printed `s VERIFIED`; the trust base is docs/SOUNDNESS.md's list, whose
//! CNF checker is the LRAT checker (or an external or verified one). A
//! directory appears whole or not at all (built under a temporary name,
//! then renamed).

pub mod budget;
pub mod check;
pub mod check_counts;
pub mod check_cubes;
#[cfg(feature = "solver")]
pub mod contradiction;
pub mod deadline;
pub mod export;
#[cfg(feature = "solver")]
pub mod listing;
pub mod merge;
#[cfg(feature = "solver")]
pub mod cubes;
#[cfg(feature = "solver")]
pub mod optimum;
#[cfg(feature = "solver")]
pub mod prove;
#[cfg(feature = "solver")]
pub mod refine;
pub mod regenerate;
#[cfg(feature = "solver")]
pub mod resume;
pub mod statement;
#[cfg(feature = "solver")]
pub mod verifier;
pub mod witness;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::encoding::Cardinality;
use crate::records::cube::CERTIFICATE_FILES;
pub use crate::run::WorkDir;

/// Removes the stale work directories under `dir`
/// (`run::remove_stale_work_dirs`), after moving back what a
/// killed claim replacement of an earlier build left in one (`rescue_strays`).
pub fn remove_stale_work_dirs(dir: &Path) {
    crate::run::remove_stale_work_dirs_with(dir, rescue_strays);
}

/// Proofs whose compressed CNF, DRAT and LRAT files together exceed this are
/// not stored; `claim.json` alone is committed and `hexcert check
/// --regenerate` rebuilds them. (The LRAT file is about 3.3 times the DRAT
/// one under gzip; 6 MiB keeps every claim up to n = 6 whole.)
pub const DEFAULT_STORE_LIMIT: u64 = crate::options::STORE_LIMIT.default;

/// Settings shared by `prove`, `certify` and `check`.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Root of the certificate tree, usually `proofs/`.
    pub root: PathBuf,
    pub cardinality: Cardinality,
    /// Race the plain formula against the symmetry-broken one on two threads.
    pub race: bool,
    pub store_limit: u64,
    /// When to run drat-trim or rate on a proof beside the LRAT checker.
    pub external_check: ExternalCheck,
    /// Set by Ctrl-C: solver calls stop, nothing half-written is left behind.
    pub abort: Arc<AtomicBool>,
    /// When `certify` splits a bounded query into cubes.
    pub cubes: CubeUse,
    /// Cubes solved at once when it does.
    pub jobs: usize,
    /// Seconds a splittable query runs whole before it is split.
    pub cubes_after: f64,
}

impl Settings {
    pub fn new(root: PathBuf) -> Settings {
        Settings {
            root,
            cardinality: Cardinality::default(),
            race: true,
            store_limit: DEFAULT_STORE_LIMIT,
            external_check: ExternalCheck::default(),
            abort: Arc::new(AtomicBool::new(false)),
            cubes: CubeUse::default(),
            jobs: crate::options::JOBS.default,
            cubes_after: crate::options::CUBES_AFTER.default,
        }
    }
}

/// When `certify` answers a bounded query with cubes (`cubes`: ring-1
/// value cubes, one per orbit, run on `jobs` cores and merged into a cube
/// claim) instead of one CaDiCaL call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CubeUse {
    /// Always one call.
    Never,
    /// Queries predicted long: level 2 and up from n = 12 (n = 11's longest
    /// query, level 2, took 13 minutes as one call; n = 12's are past what
    /// was measured as one call), and only once they have run whole for
    /// `cubes_after` seconds without an answer.
    #[default]
    Auto,
    /// Every bounded query.
    Always,
}

impl CubeUse {
    pub fn applies(self, n: usize, level: u8) -> bool {
        match self {
            CubeUse::Never => false,
            CubeUse::Auto => n >= crate::options::AUTO_SPLIT_FROM_SIDE.default && level >= crate::options::AUTO_SPLIT_FROM_LEVEL.default,
            CubeUse::Always => true,
        }
    }
}

/// When a new proof is also checked by an external DRAT checker (drat-trim
/// or rate, those on PATH). The LRAT checker judges every proof as it is
/// written; a DRAT check costs about the solve time again, so by default it
/// runs only on proofs small enough to be stored, where it is cheap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ExternalCheck {
    /// Never.
    Never,
    /// Proofs under the store limit (committed with their CNF).
    #[default]
    Stored,
    /// Every proof.
    Always,
}

impl ExternalCheck {
    pub fn name(self) -> &'static str {
        match self {
            ExternalCheck::Never => "never",
            ExternalCheck::Stored => "stored",
            ExternalCheck::Always => "always",
        }
    }
}

/// Builds before this one replaced a claim directory by moving what else it
/// held (a campaign, a witness) into the staged certificate (a directory of
/// the work directory holding `claim.json`): killed then, they left it
/// there. Moves such entries back into the claim's directory beside `work`
/// (named by the staged claim), never over anything; the error says what
/// stayed. And a replacement (`prove::replace_directory`) killed after it
/// moved the old certificate out (to `<staged>.retired`) and before the
/// new `claim.json` went in (it goes last) left the claim's directory with
/// no claim: the old certificate is moved back (`recover_retired`), so a
/// claim and the verdicts kept in it are never lost to a reaper.
pub fn rescue_strays(work: &Path) -> Result<(), String> {
    let dir = work.parent().unwrap_or(Path::new("."));
    let Ok(entries) = std::fs::read_dir(work) else { return Ok(()) };
    for staged in entries.flatten().map(|e| e.path()).filter(|p| p.join("claim.json").is_file()) {
        if staged.extension().is_some_and(|e| e == "retired") {
            recover_retired(&staged, &claim_home(dir, &staged)?)?;
            continue;
        }
        let Ok(children) = std::fs::read_dir(&staged) else { continue };
        let strays: Vec<PathBuf> =
            children.flatten().filter(|c| !CERTIFICATE_FILES.iter().any(|f| c.file_name() == *f)).map(|c| c.path()).collect();
        if strays.is_empty() {
            continue;
        }
        let home = claim_home(dir, &staged)?;
        std::fs::create_dir_all(&home).map_err(|e| format!("{}: {e}", home.display()))?;
        for stray in strays {
            let back = home.join(stray.file_name().expect("a directory entry has a name"));
            if std::fs::symlink_metadata(&back).is_ok() {
                return Err(format!("{} would replace {}", stray.display(), back.display()));
            }
            std::fs::rename(&stray, &back).map_err(|e| format!("{}: {e}", stray.display()))?;
            eprintln!("{}: moved back from a stopped run's work directory", back.display());
        }
    }
    Ok(())
}

/// The claim directory in `dir` of the claim staged in `staged`.
fn claim_home(dir: &Path, staged: &Path) -> Result<PathBuf, String> {
    let record = crate::records::Record::read(&staged.join("claim.json")).map_err(|e| format!("a staged claim names no claim: {e}"))?;
    let (_, level, below, _) = record.claim_numbers().ok_or("a staged claim.json is no claim")?;
    Ok(dir.join(format!("level{level}-below{below}")))
}

/// Moves the certificate retired into `retired` back into `home` when
/// `home` has no `claim.json` (the new one never arrived): each retired
/// file replaces what of the unfinished new certificate stands in its
/// place. With a `claim.json` in `home` the replacement finished, and the
/// retired certificate is left to the reaper.
fn recover_retired(retired: &Path, home: &Path) -> Result<(), String> {
    if std::fs::symlink_metadata(home.join("claim.json")).is_ok() {
        return Ok(());
    }
    let fail = |path: &Path, e: std::io::Error| format!("{}: {e}", path.display());
    std::fs::create_dir_all(home).map_err(|e| fail(home, e))?;
    for name in CERTIFICATE_FILES {
        let (old, place) = (retired.join(name), home.join(name));
        if std::fs::symlink_metadata(&old).is_err() {
            continue;
        }
        match std::fs::symlink_metadata(&place) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&place).map_err(|e| fail(&place, e))?,
            Ok(_) => std::fs::remove_file(&place).map_err(|e| fail(&place, e))?,
            Err(_) => {}
        }
        std::fs::rename(&old, &place).map_err(|e| fail(&old, e))?;
    }
    eprintln!("{}: recovered from a replacement that was stopped", home.join("claim.json").display());
    Ok(())
}
