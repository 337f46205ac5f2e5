//! Certification: proving claims with traced DRAT proofs, certifying optima,
//! and re-checking stored certificates.
//!
//! This layer joins the solver (`solving`) and the certificate records
//! (`proofs`); `proofs` itself never sees the solver. Nothing is written to a
//! certificate directory before the external checker printed `s VERIFIED`,
//! and a directory appears whole or not at all (built under a temporary name,
//! then renamed).

pub mod check;
pub mod cubes;
pub mod optimum;
pub mod prove;
pub mod resume;
pub mod statement;
pub mod verifier;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::encoding::Cardinality;

/// Proofs whose compressed CNF, DRAT and LRAT files together exceed this are
/// not stored; `claim.json` alone is committed and `hexcert check
/// --regenerate` rebuilds them. (The LRAT file is about 3.3 times the DRAT
/// one under gzip; 6 MiB keeps every claim up to n = 6 whole.)
pub const DEFAULT_STORE_LIMIT: u64 = 6 * 1024 * 1024;

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
            jobs: 2,
            cubes_after: 300.0,
        }
    }
}

/// When `certify` answers a bounded query with cubes (`cubes`: ring-1
/// value cubes, one per orbit, run on `jobs` cores and merged into a cube
/// claim) instead of one CaDiCaL call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
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
            CubeUse::Auto => n >= 12 && level >= 2,
            CubeUse::Always => true,
        }
    }
}

/// When a new proof is also checked by an external DRAT checker (drat-trim
/// or rate, those on PATH). The LRAT checker judges every proof as it is
/// written; a DRAT check costs about the solve time again, so by default it
/// runs only on proofs small enough to be stored, where it is cheap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
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

/// A scratch directory removed when dropped (also on errors and Ctrl-C).
pub struct WorkDir(pub PathBuf);

impl WorkDir {
    pub fn create(path: PathBuf) -> Result<WorkDir, crate::HexError> {
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).map_err(|source| crate::HexError::Io { path: path.clone(), source })?;
        Ok(WorkDir(path))
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Removes `.work-*` and `.check-*` scratch directories under `dir` left by
/// runs that were killed outright (a session's end, SIGKILL): their owner,
/// named by the pid that ends the name, is no longer running. Directories of
/// live processes are left alone.
pub fn remove_stale_work_dirs(dir: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with(".work-") || name.starts_with(".check-")) {
            continue;
        }
        let owner = name.rsplit('-').next().and_then(|pid| pid.parse::<u32>().ok());
        if owner.is_some_and(|pid| !std::path::Path::new(&format!("/proc/{pid}")).exists()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
