//! Named CaDiCaL option sets ("solver profiles") for the solves whose traces
//! become proofs.
//!
//! A profile is part of what reproduces a proof: the same formula, solver
//! version and options give the same trace step for step, so `check
//! --regenerate` must re-solve a stored claim with the profile the claim
//! recorded, not with today's. Hence every profile ever used for a committed
//! claim stays here under its name, and a new one gets a new name.

use crate::error::HexError;

/// One option of a profile: CaDiCaL's name, its value, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolverOption {
    pub name: &'static str,
    pub value: i32,
    pub why: &'static str,
}

/// A named option set applied to a fresh solver before its first clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    pub name: &'static str,
    pub options: &'static [SolverOption],
}

/// CaDiCaL's own defaults: every claim proved before profiles existed.
pub const DEFAULT: Profile = Profile { name: "default-3.0.1", options: &[] };

/// CaDiCaL's `unsat` configuration (docs/MEASUREMENTS.md has the
/// measurements): hexcert's proofs are refutations, so search is tuned for
/// proving, not for finding models.
pub const REFUTE: Profile = Profile {
    name: "hexcert-2",
    options: &[
        SolverOption {
            name: "stabilize",
            value: 0,
            why: "stable-mode phases (target phases, rare restarts) hunt for models; \
                  focused mode alone refuted n = 8 level 3 below 20 about 1.4x faster",
        },
        SolverOption { name: "walk", value: 0, why: "local search only ever finds models, never proof steps" },
    ],
};

/// `hexcert-2` with chronological backtracking and three of CaDiCaL 3's
/// inprocessing passes off: on eight medium cubes of the n = 14..16
/// campaigns (untraced) it refuted seven of eight faster, 1.33x in sum;
/// each option alone gained 1.07x to 1.25x (docs/MEASUREMENTS.md, "Solver
/// options on the campaigns' cubes").
pub const REFUTE_LEAN: Profile = Profile {
    name: "hexcert-3",
    options: &[
        REFUTE.options[0],
        REFUTE.options[1],
        SolverOption {
            name: "chrono",
            value: 0,
            why: "backjumping to the learned clause's level: chronological backtracking keeps \
                  long trails, which pays on satisfiable runs, not on these refutations (1.25x alone)",
        },
        SolverOption {
            name: "sweep",
            value: 0,
            why: "SAT sweeping (equivalences found by small SAT calls) cost more than it \
                  saved on every cube measured: 1.15x without it",
        },
        SolverOption {
            name: "backbone",
            value: 0,
            why: "binary-clause backbone search cost more than it saved on seven of eight \
                  cubes: 1.11x without it",
        },
        SolverOption {
            name: "probe",
            value: 0,
            why: "failed-literal probing: 1.07x without it alone, and part of the set's 1.33x",
        },
    ],
};

/// Every profile a committed claim or cube record may name, the current one first.
pub const PROFILES: &[Profile] = &[REFUTE_LEAN, REFUTE, DEFAULT];

/// The profile new proofs are solved with.
pub const CURRENT: Profile = PROFILES[0];

impl Profile {
    /// The profile called `name`, or a one-line error naming it.
    pub fn named(name: &str) -> Result<Profile, HexError> {
        PROFILES.iter().copied().find(|p| p.name == name).ok_or_else(|| {
            let known: Vec<&str> = PROFILES.iter().map(|p| p.name).collect();
            HexError::Usage(format!("unknown solver profile `{name}` (known: {})", known.join(", ")))
        })
    }

    /// The claim's solver options text. The default profile keeps the text
    /// every claim recorded before profiles existed, so those records, and
    /// the claims proved with it from now on, read the same.
    pub fn record_text(&self) -> String {
        if self.options.is_empty() {
            return DEFAULT_RECORD.into();
        }
        let set: Vec<String> = self.options.iter().map(|o| format!("{}={}", o.name, o.value)).collect();
        format!("profile {} ({}), single-threaded; {TRACED}", self.name, set.join(", "))
    }

    /// The profile a claim's solver options text names: what `check
    /// --regenerate` must solve with to get the recorded trace again.
    pub fn from_record(text: &str) -> Result<Profile, HexError> {
        PROFILES
            .iter()
            .copied()
            .find(|p| p.record_text() == text)
            .ok_or_else(|| HexError::Usage(format!("the claim's solver options name no known profile: `{text}`")))
    }
}

/// How every proof solve is traced (part of each record text).
const TRACED: &str = "every step traced with its antecedents (LRAT) from the first clause; \
     the binary DRAT proof is that trace without hints";

/// The record text of the default profile, as claims have always had it.
const DEFAULT_RECORD: &str = "default options, single-threaded; every step traced with its antecedents \
     (LRAT) from the first clause; the binary DRAT proof is that trace without hints";
