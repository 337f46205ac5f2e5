//! `claim.json` and `optimum.json`: what a certificate states and how it was
//! obtained. Everything a third party needs to re-check it with drat-trim is
//! in the record: the statement, the encoder and its options, the hashes of
//! the exact CNF and proof bytes, and the trust base.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::encoding::{Cardinality, EncodeOptions, SymmetryBreaking, ENCODER_VERSION};
use crate::error::HexError;

/// Format tag of `claim.json`.
pub const CLAIM_FORMAT: &str = "hexcert-claim/2";
/// Format tag of `optimum.json`.
pub const OPTIMUM_FORMAT: &str = "hexcert-optimum/1";

/// "No valid level-k partial of the side-n hexagon has penalty below B."
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    pub format: String,
    pub statement: String,
    pub n: usize,
    pub level: u8,
    pub below: usize,
    pub encoder: EncoderRecord,
    pub hexcert: BuildRecord,
    pub cnf: FileRecord,
    /// The binary DRAT proof (always recorded; stored when small).
    pub proof: FileRecord,
    /// The binary LRAT proof of the same solve, when it was small enough to
    /// keep (then `hexcert check` re-checks it without a solver).
    pub lrat_proof: Option<FileRecord>,
    pub solver: SolverRecord,
    /// The LRAT checker's verdict on the solve that produced `proof`.
    pub lrat: LratRecord,
    /// External DRAT checkers run on (CNF, proof): drat-trim or rate, when
    /// on PATH. Empty when none ran (`not_checked_externally` says why).
    pub drat_checks: Vec<CheckerRecord>,
    pub not_checked_externally: Option<String>,
    pub trust_base: Vec<String>,
}

/// How the CNF was produced: enough to re-encode it byte for byte.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EncoderRecord {
    pub version: String,
    /// The CNF says "penalty <= max_penalty", i.e. `below - 1`.
    pub max_penalty: usize,
    pub cardinality: Cardinality,
    pub symmetry_breaking: SymmetryBreaking,
    pub symmetry_soundness: String,
}

/// The engine build that wrote the certificate.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BuildRecord {
    pub version: String,
    pub git_commit: String,
}

/// A CNF or proof file: where it is stored (if it is) and what its
/// uncompressed bytes hash to.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FileRecord {
    /// File name inside the certificate directory; `None` when not stored
    /// (regenerate it with `hexcert check --regenerate`).
    pub stored_as: Option<String>,
    pub sha256: String,
    pub bytes: u64,
    pub compressed_bytes: Option<u64>,
    pub description: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SolverRecord {
    pub name: String,
    pub version: String,
    pub options: String,
    pub seconds: f64,
    pub peak_memory_kb: u64,
}

/// The verdict of hexcert's own LRAT checker (`lrat/`), run on the solver's
/// trace with the antecedents of every derived clause.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LratRecord {
    pub checker: String,
    pub version: String,
    pub how: String,
    pub verified: bool,
    /// `s VERIFIED`, or `s NOT VERIFIED: ` and the step that failed.
    pub verdict: String,
    /// Steps of the trace: original clauses, additions and deletions.
    pub steps: u64,
    pub added: u64,
    pub deleted: u64,
    pub hints: u64,
    /// CPU time of the checking thread.
    pub cpu_seconds: f64,
    /// From the solver's answer to the verdict.
    pub seconds_after_solve: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CheckerRecord {
    pub name: String,
    pub version: String,
    pub command: String,
    pub verdict: String,
    pub seconds: f64,
    pub peak_memory_kb: u64,
}

impl Claim {
    /// The sentence the certificate proves.
    pub fn statement_for(n: usize, level: u8, below: usize) -> String {
        format!("no valid level-{level} partial of the side-{n} hexagon has penalty below {below}")
    }

    /// The encoder options that reproduce the CNF.
    pub fn encode_options(&self) -> EncodeOptions {
        EncodeOptions {
            max_penalty: Some(self.encoder.max_penalty),
            cardinality: self.encoder.cardinality,
            symmetry: self.encoder.symmetry_breaking,
        }
    }

    /// Checks the record is self-consistent and made by an encoder we have.
    pub fn check_consistency(&self, origin: &Path) -> Result<(), HexError> {
        let fail = |message: String| Err(HexError::Input { file: origin.into(), line: 0, message });
        if self.format != CLAIM_FORMAT {
            return fail(format!("unknown claim format `{}`", self.format));
        }
        if self.encoder.version != ENCODER_VERSION {
            return fail(format!("made by encoder `{}`, this build has `{ENCODER_VERSION}`", self.encoder.version));
        }
        if self.below == 0 || self.encoder.max_penalty + 1 != self.below {
            return fail(format!("bound mismatch: below {} but the CNF bounds penalty <= {}", self.below, self.encoder.max_penalty));
        }
        if self.statement != Claim::statement_for(self.n, self.level, self.below) {
            return fail("statement does not match n, level and bound".into());
        }
        Ok(())
    }

    /// Certificate directory of a claim under `root` (usually `proofs/`).
    pub fn directory(root: &Path, n: usize, level: u8, below: usize) -> PathBuf {
        root.join(format!("n{n}")).join(format!("level{level}-below{below}"))
    }
}

/// "The minimum penalty of the side-n hexagon is B": a witness grid and the
/// lower-bound claim.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Optimum {
    pub format: String,
    pub n: usize,
    pub optimum: usize,
    /// Witness grid file (hexcert format) beside this record, and its hash.
    pub witness: String,
    pub witness_sha256: String,
    /// Certificate directory of the lower bound, relative to this record.
    pub lower_bound: String,
    /// Lowest level whose minimum already equals the optimum.
    pub lower_bound_level: u8,
    /// Minimum penalty found at each level 1..=6 on the way (the witness of
    /// each is validated; only the final lower bound is certified).
    pub level_minima: Vec<usize>,
    pub seconds: f64,
    pub hexcert: BuildRecord,
}

impl Optimum {
    pub fn new_format() -> String {
        OPTIMUM_FORMAT.to_string()
    }
}

/// Reads and parses a JSON record, naming the file on error.
pub fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, HexError> {
    let bytes = std::fs::read(path).map_err(|source| HexError::Io { path: path.into(), source })?;
    serde_json::from_slice(&bytes).map_err(|e| HexError::Input {
        file: path.into(),
        line: e.line(),
        message: format!("not a valid record: {e}"),
    })
}

/// The build running now.
pub fn this_build() -> BuildRecord {
    BuildRecord { version: env!("CARGO_PKG_VERSION").to_string(), git_commit: env!("HEXCERT_GIT_COMMIT").to_string() }
}
