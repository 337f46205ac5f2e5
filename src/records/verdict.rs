//! A checker's verdict as a record keeps it (`CheckerRecord`: an external
//! DRAT checker's, or the formally verified LRAT checker cake_lpr's), and
//! what binds a verified checker's verdict to the claim it is recorded in:
//! the hashes of the formula and proof it read and of the binary that ran
//! (`VerdictInputs`), and the builds of cake_lpr whose verdicts count
//! (`KNOWN_VERIFIED_BUILDS`). Imports nothing of the other record files.

use serde::{Deserialize, Serialize};

use crate::error::{HexError, RecordError};

/// The formally verified checker's name as recorded (`proofs::verified` runs it).
pub const VERIFIED_CHECKER: &str = "cake_lpr";
/// How its records name the binary that ran (`version`), its SHA-256 after.
pub const VERIFIED_VERSION_PREFIX: &str = "cake_lpr binary sha256 ";
/// The only line of it that accepts a refutation.
pub const VERIFIED_ACCEPTED: &str = "s VERIFIED UNSAT";

/// The cake_lpr builds whose verdict counts as the formally verified
/// checker's, by the SHA-256 of the binary, each with what it is. How an
/// entry is obtained: build cake_lpr from the files CI gets in
/// ../shared/tools/cake_lpr (tanyongkiam/cake_lpr at commit
/// a4323b203cc9ecd584ba7da9e3fff08135a09d5f, `cake_lpr.S` and `basis_ffi.c`
/// unchanged) with `make -C ../shared/tools/cake_lpr OUT=DIR`, run
/// `sha256sum DIR/cake_lpr`, and add the hash with the compiler that built
/// it (the build is deterministic for one compiler: two builds on the
/// project's machine, 2026-11-27, gave the same hash, the one every
/// committed verdict names). Any other binary given as cake_lpr
/// (another compiler, a wrapper script) is an "unknown build": its verdict
/// is recorded and reported as such, never counted in a trust base.
pub const KNOWN_VERIFIED_BUILDS: &[(&str, &str)] = &[(
    "1029a96e41b22a4d81eb2f3c5eb81802c3fe4347b14baf9d419d699a2ce4a801",
    "cake_lpr of tanyongkiam/cake_lpr a4323b20, built by `make -C ../shared/tools/cake_lpr` with gcc 12.2.0 (Debian 12.2.0-14+deb12u1)",
)];

/// How a verdict names a binary that is not in `KNOWN_VERIFIED_BUILDS`.
pub const UNKNOWN_BUILD: &str = "unknown build";

/// The entry of `KNOWN_VERIFIED_BUILDS` for a binary's SHA-256, or `UNKNOWN_BUILD`.
pub fn verified_build(binary_sha256: &str) -> &'static str {
    KNOWN_VERIFIED_BUILDS.iter().find(|(hash, _)| *hash == binary_sha256).map_or(UNKNOWN_BUILD, |(_, build)| build)
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
    /// For the verified checker: what the verdict was reached on and by
    /// which binary. Absent in DRAT checkers' records and in verdicts
    /// recorded before it existed (those are attested only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<VerdictInputs>,
}

/// The SHA-256 of what a verified checker read, and of the binary that ran:
/// a verdict is bound to the formula and proof whose hashes its claim
/// records (`check` refuses one that is not), and counts as the verified
/// checker's only when the binary is a known build.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct VerdictInputs {
    /// The DIMACS formula the checker was given (a claim's CNF, a cube's own formula).
    pub formula_sha256: String,
    /// The binary LRAT proof it read, every byte of it.
    pub lrat_sha256: String,
    pub checker_sha256: String,
    /// `KNOWN_VERIFIED_BUILDS`' entry for the binary, or `UNKNOWN_BUILD`.
    pub build: String,
}

impl CheckerRecord {
    /// Whether the verdict is an acceptance by the verified checker.
    pub fn verified_acceptance(&self) -> bool {
        self.name == VERIFIED_CHECKER && self.verdict == VERIFIED_ACCEPTED
    }

    /// Why the verified checker stopped before judging the proof, when a
    /// limit of the run stopped it: its own heap or stack ran out
    /// (`CML_HEAP_SIZE`, `CML_STACK_SIZE`, in MB), or a signal killed it (9
    /// is what the kernel's out-of-memory killer sends). Either says
    /// nothing of the proof. `(what happened, what to do)`.
    pub fn cut_short(&self) -> Option<(&'static str, &'static str)> {
        if self.name != VERIFIED_CHECKER {
            return None;
        }
        if ["heap space exhausted", "stack space exhausted"].iter().any(|m| self.verdict.contains(m)) {
            return Some(("ran out of memory", "run again with more (CML_HEAP_SIZE, CML_STACK_SIZE, in MB)"));
        }
        // `proofs::verified` appends how a checker that did not exit ended;
        // only the end of the line is ours, the rest is the checker's output.
        let signalled = self.verdict.strip_suffix(')').and_then(|v| v.rsplit_once(" (killed by signal "));
        if signalled.is_some_and(|(_, number)| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())) {
            return Some((
                "was killed by a signal",
                "if it was 9, the kernel's out-of-memory killer's, run again with more memory free",
            ));
        }
        None
    }

    /// What a run that made the proof of `what` reports when this verdict
    /// is not an acceptance: unverified (`HexError::Open`, exit 4) when a
    /// limit of the run cut the checker short (`cut_short`), so that a run
    /// stopped is never read as a proof rejected; else the rejection (exit 3).
    pub fn refusal(&self, what: &str) -> HexError {
        if let Some((happened, remedy)) = self.cut_short() {
            return HexError::Open(format!(
                "not verified: {} {happened} on {what} ({}), so nothing is recorded for it; {remedy}",
                self.name, self.verdict
            ));
        }
        let what = format!("{what} (by {})", self.name);
        HexError::Rejected(RecordError::LratRejected { what, verdict: self.verdict.clone() })
    }

    /// Whether a re-check that keeps verdicts (`check --keep-verdicts`) may
    /// skip the proof this verdict is recorded for: an acceptance by the
    /// binary named `version` that records what it read. One recorded before
    /// verdicts were bound is attested only, so its proof is checked again
    /// and the new verdict bound (skipping it left it attested for good).
    pub fn resumes(&self, version: &str) -> bool {
        self.verified_acceptance() && self.version == version && self.read.is_some()
    }

    /// Whether a run that keeps verdicts may write this verdict, its own,
    /// over `recorded`: never an acceptance that does not count as the
    /// verified checker's over one that does. Doing so would take cake_lpr
    /// out of the trust base, and binding the known build's verdict again
    /// costs a full re-solve (hours for the largest claims).
    pub fn may_replace(&self, recorded: Option<&CheckerRecord>) -> bool {
        self.counts_as_verified() || !recorded.is_some_and(CheckerRecord::counts_as_verified)
    }

    /// What a run that keeps verdicts says when `may_replace` refused this
    /// run's verdict `new` over the recorded `self` (for `what`: "the claim", "3 cubes").
    pub fn kept_line(&self, new: &CheckerRecord, what: &str) -> String {
        let known = self.read.as_ref().map_or_else(
            || self.checker_sha256().map_or(UNKNOWN_BUILD, verified_build).to_string(),
            |read| read.build.clone(),
        );
        format!(
            "{what} kept the {} acceptance recorded by {known}: this run's binary (sha256 {}) is an unknown build, \
             whose verdict counts in no trust base, so it was not written over it",
            self.name,
            new.checker_sha256().unwrap_or("not named")
        )
    }

    /// The SHA-256 of the binary that ran: recorded, or (older verdicts)
    /// read from `version`, which names it.
    pub fn checker_sha256(&self) -> Option<&str> {
        match &self.read {
            Some(read) => Some(&read.checker_sha256),
            None => self.version.strip_prefix(VERIFIED_VERSION_PREFIX),
        }
    }

    /// An acceptance by a known build of the verified checker: the verdicts
    /// a trust base may name. A recorded verdict says which build it was
    /// (`check` holds the word to the table, `binding_fault`); an older one
    /// is judged by the hash its version names.
    pub fn counts_as_verified(&self) -> bool {
        let known = match &self.read {
            Some(read) => read.build != UNKNOWN_BUILD,
            None => self.checker_sha256().is_some_and(|hash| verified_build(hash) != UNKNOWN_BUILD),
        };
        self.verified_acceptance() && known
    }

    /// Why this verified checker's verdict is not one on the formula and
    /// proof whose hashes the claim records (`lrat_sha256`, when it records
    /// one), or names a build the table does not: `None` when it is, or
    /// when it records no inputs (an older verdict, attested only).
    pub fn binding_fault(&self, formula_sha256: &str, lrat_sha256: Option<&str>) -> Option<String> {
        let read = self.read.as_ref()?;
        if read.formula_sha256 != formula_sha256 {
            return Some(format!(
                "the recorded {} verdict read the formula {}, not this one ({formula_sha256})",
                self.name, read.formula_sha256
            ));
        }
        if lrat_sha256.is_some_and(|lrat| lrat != read.lrat_sha256) {
            return Some(format!(
                "the recorded {} verdict read the LRAT proof {}, not the one recorded here",
                self.name, read.lrat_sha256
            ));
        }
        if self.version != format!("{VERIFIED_VERSION_PREFIX}{}", read.checker_sha256) {
            return Some(format!(
                "the recorded {} verdict names the binary {} and the version `{}`",
                self.name, read.checker_sha256, self.version
            ));
        }
        let build = verified_build(&read.checker_sha256);
        if read.build != UNKNOWN_BUILD && read.build != build {
            return Some(format!(
                "the recorded {} verdict calls its binary {} `{}`; this build knows it as `{build}`",
                self.name, read.checker_sha256, read.build
            ));
        }
        None
    }

    /// How `check` words a recorded verified-checker verdict it did not
    /// reach itself: recorded, never checked in this run.
    pub fn recorded_line(&self) -> String {
        let by = match (&self.read, self.checker_sha256()) {
            (Some(read), _) => format!(
                "by {} (binary sha256 {}), on the formula and LRAT proof whose hashes it records",
                read.build, read.checker_sha256
            ),
            (None, Some(hash)) => format!(
                "by {} (binary sha256 {hash}), recorded without the hashes of what it read: attested only",
                verified_build(hash)
            ),
            (None, None) => "recorded without the hashes of what it read: attested only".into(),
        };
        format!("{}: `{}` recorded {by}; not checked in this run", self.name, self.verdict)
    }
}
