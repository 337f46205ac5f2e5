//! Certification: what solves, the listing aside. Proving claims with traced,
//! LRAT-checked proofs (`prove`), certifying optima (`optimum`), running a
//! plan's cubes (`cube_run`) and merging their records into a claim
//! (`merge`), splitting hard cubes (`refine`), resuming searches
//! (`resume`). The SAT road's listing, which solves too, is a module of
//! its own (`listing`), below this one: `prove` lists a cube again for
//! `check --regenerate` through it.
//!
//! The whole module is behind the cargo feature `solver` (gated once, in
//! lib.rs). It builds on `verify`, never the other way round: every record
//! it writes is judged by the code that judges it on a machine without a
//! solver. Nothing is written to a certificate directory before the LRAT
//! checker of `lrat/` accepted the proof, and, for the proofs
//! `--external-check` hands them (stored ones by default), before drat-trim
//! or rate (those on PATH) printed `s VERIFIED`; the trust base is
//! docs/SOUNDNESS.md's list. A directory appears whole or not at all (built
//! under a temporary name, then renamed).

pub mod certificate_dir;
pub mod check_queue;
pub mod contradiction;
pub mod cube_run;
pub mod deadline;
pub mod merge;
pub mod optimum;
pub mod prove;
pub mod refine;
pub mod resume;
pub mod work_dirs;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::encoding::Cardinality;

/// Proofs whose compressed CNF, DRAT and LRAT files together exceed this are
/// not stored; `claim.json` alone is committed and `hexcert check
/// --regenerate` rebuilds them. (The LRAT file is about 3.3 times the DRAT
/// one under gzip; 6 MiB keeps every claim up to n = 6 whole.)
pub const DEFAULT_STORE_LIMIT: u64 = crate::options::STORE_LIMIT.default;

/// Settings shared by `prove` and `certify`.
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
            CubeUse::Auto => {
                n >= crate::options::AUTO_SPLIT_FROM_SIDE.default
                    && level >= crate::options::AUTO_SPLIT_FROM_LEVEL.default
            }
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
