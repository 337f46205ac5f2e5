//! The record of one cube of the SAT road's listing (`listing::list`,
//! `listing::refute`): the ring-1 lex-leaders of penalty <= P whose
//! projection is the cube, and, for a certified listing, the proof that
//! the list is complete.
//!
//! Invariant: a certified cube's `formula_sha256` is the SHA-256 of
//! `listing_formula` of its leaders (the cube's lex-leader CNF with the
//! cube's units, then one blocking clause per listed leader, in order), and
//! its `lrat` verdict says that formula was refuted. So a leader removed
//! from the record, or one added, changes the formula the verdict names:
//! the judge (`count_check`) recomputes the hash from the leaders and
//! refuses the cube. An uncertified cube (no `certificate`) is its
//! writer's word that the list is complete.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::claim::{LratRecord, StatementRecord};
use crate::encoding::{EncodeOptions, LevelEncoding, SymmetryBreaking};
use crate::error::HexError;
use crate::formula::Cnf;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::validation::{evaluate, Evaluation};

/// Format tag of a cube's record.
pub const LEADERS_FORMAT: &str = "hexcert-leaders/1";

/// One finished cube: the lex-leaders of penalty <= `max_penalty` whose
/// projection is `cube`, every one of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CubeLeaders {
    pub format: String,
    pub n: usize,
    pub level: u8,
    pub max_penalty: usize,
    pub encoder: String,
    pub cells: Vec<usize>,
    pub cube: Vec<u8>,
    /// The leaf of the cube's decision tree this record lists: literals over
    /// the listing formula's variables, added as units (empty: the whole cube).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<i32>,
    /// Each leader's cell values, one digit per cell (`k + 1` is `+`); of a
    /// cube listed leaf by leaf, the union of its leaves', each once.
    pub leaders: Vec<String>,
    /// Wall seconds of the listing.
    pub seconds: f64,
    /// The solver thread's CPU seconds, the clock `--leaf-time-limit`
    /// reads (on a shared core, less than `seconds`); of a cube listed
    /// leaf by leaf, its leaves' sum. Absent in records written before
    /// listings measured it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<f64>,
    /// Host, run and hexcert build that listed the cube (and so attest it is
    /// complete when there is no certificate).
    #[serde(deserialize_with = "crate::records::ledger::writer")]
    pub written_by: String,
    /// The refutation of the cube's formula with a blocking clause per
    /// leader: the listing proven complete (absent in records of an
    /// uncertified listing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<ListingProof>,
    /// A cube listed leaf by leaf (`count --leaf-depth`): the leaves of a
    /// complete decision tree, each listed and proven complete on its own;
    /// the cube's `certificate` is then absent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leaves: Vec<LeafListing>,
}

/// One leaf of a cube listed leaf by leaf: the leaders of the cube's
/// formula with the leaf's path added as units, and the proof that they
/// are all of them. Leaves may share a leader (the counter's variables
/// are only forced one way, so a partial can extend into two leaves); the
/// cube's leaders are the union.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeafListing {
    pub path: Vec<i32>,
    pub leaders: Vec<String>,
    pub seconds: f64,
    /// As `CubeLeaders::cpu_seconds`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<f64>,
    pub certificate: ListingProof,
}

/// One proof of a cube's list: the path of its leaf (empty for the whole
/// cube), the leaders its formula blocks, and its certificate.
pub type LeafProof<'a> = (&'a [i32], &'a [String], &'a ListingProof);

impl CubeLeaders {
    /// What proves the list complete: the whole cube's certificate (empty
    /// path) or each leaf's, with the leaders its formula blocks; `None`
    /// for an uncertified record.
    pub fn proofs(&self) -> Option<Vec<LeafProof<'_>>> {
        match (&self.certificate, self.leaves.as_slice()) {
            (Some(proof), []) => Some(vec![(self.path.as_slice(), self.leaders.as_slice(), proof)]),
            (None, []) | (Some(_), _) => None,
            (None, leaves) => {
                Some(leaves.iter().map(|l| (l.path.as_slice(), l.leaders.as_slice(), &l.certificate)).collect())
            }
        }
    }

    /// Why a certificate of the record at `path` names no solver hexcert
    /// ran, if one does (`ranges::unknown_solver`): the count's check is
    /// then unverified.
    pub fn unknown_solver(&self, path: &Path) -> Option<String> {
        let proofs = self.proofs().unwrap_or_default();
        let why =
            proofs.iter().find_map(|(.., proof)| super::ranges::unknown_solver("certificate.solver", &proof.solver));
        why.map(|why| format!("{}: {why}", path.display()))
    }
}

/// Why a cube's list is complete: its last solver call refuted the cube's
/// formula with every listed leader blocked, and the trace of the whole
/// incremental run was checked as it was written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListingProof {
    /// The CaDiCaL version and option profile of the run (regeneration
    /// replays it).
    pub solver: String,
    pub profile: String,
    /// SHA-256 of `listing_formula`'s DIMACS: what the proof refutes.
    pub formula_sha256: String,
    /// Clauses of that formula: the cube's, then one per leader.
    pub formula_clauses: usize,
    /// hexcert-lrat's verdict on the trace (`records::claim::ONLINE_LISTING`).
    pub lrat: LratRecord,
    /// The verified checker's verdict on the same proof, read as a file
    /// against the refuted formula written out (`listing::refute`): bound
    /// to `formula_sha256`. Absent when the listing ran without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified_lrat: Option<super::CheckerRecord>,
}

impl super::ledger::LedgerRecord for CubeLeaders {
    const FORMAT: &'static str = LEADERS_FORMAT;
    const WHAT: &'static str = "lex-leader record";
    const LIMIT: u64 = crate::options::LEADERS_RECORD_BYTES.default;
    /// The count (n, level, P, encoder), the cube (its cells and values),
    /// the leaf's path (empty for a whole cube), and whether the listing is
    /// certified: a certified run never takes an uncertified cube as done.
    type Identity = (usize, u8, usize, String, Vec<usize>, Vec<u8>, Vec<i32>, bool);

    fn identity(&self) -> Self::Identity {
        (
            self.n,
            self.level,
            self.max_penalty,
            self.encoder.clone(),
            self.cells.clone(),
            self.cube.clone(),
            self.path.clone(),
            self.proofs().is_some(),
        )
    }

    fn written_by(&self) -> Option<&str> {
        Some(&self.written_by)
    }
}

/// The formula a listing of penalty <= `max_penalty` lists: the ring-1
/// lex-leader CNF (before a cube's units).
pub fn listing_encoding(hex: &Hexagon, level: u8, max_penalty: usize) -> LevelEncoding {
    let options =
        EncodeOptions { symmetry: SymmetryBreaking::Ring1LexLeader, ..EncodeOptions::bounded(Some(max_penalty)) };
    LevelEncoding::new(hex, level, options)
}

/// The formula a certified cube's proof refutes: the lex-leader CNF of
/// `encoding`, the cube's `units`, then the blocking clause of each leader
/// in `leaders` (the negation of its cell literals), in order. The listing
/// writes it, the judge rebuilds it from the record: one definition.
pub fn listing_formula<'a>(
    encoding: &LevelEncoding,
    units: &[i32],
    leaders: impl IntoIterator<Item = &'a Partial>,
) -> Cnf {
    let mut cnf = encoding.cnf.clone();
    for &unit in units {
        cnf.add_clause(&[unit]);
    }
    for leader in leaders {
        cnf.add_clause(&blocking_clause(encoding, leader));
    }
    cnf
}

/// The units of a cube's leaf: the cube's projection literals on the
/// split's cells at its depth, then the leaf's path (empty for a whole cube). The
/// listing writes its formula from them, the judge rebuilds it.
pub fn leaf_units(encoding: &LevelEncoding, (cells, cube, depth): (&[usize], &[u8], u8), path: &[i32]) -> Vec<i32> {
    let mut units = encoding.projection_literals(cells, cube, depth);
    units.extend_from_slice(path);
    units
}

/// The clause that excludes exactly `leader`'s cell values.
pub fn blocking_clause(encoding: &LevelEncoding, leader: &Partial) -> Vec<i32> {
    encoding.cell_literals(leader).iter().map(|l| -l).collect()
}

/// The leaders of a cube's record, judged: each a valid level-`level`
/// partial of penalty `<= max_penalty` lying in the record's cube
/// (`project` maps values to their cube). Returned as judged, so they are
/// judged once.
///
/// # Errors
///
/// `HexError::Input` naming `path` and the first leader that is none of these:
/// not one value per cell, a value out of the level's range, not a valid
/// partial of penalty `<= max_penalty`, or not in the record's cube.
pub fn judge_leaders(
    path: &Path,
    hex: &Hexagon,
    (level, max_penalty): (u8, usize),
    project: &dyn Fn(&[u8]) -> Vec<u8>,
    record: &CubeLeaders,
) -> Result<Vec<(Partial, Evaluation)>, HexError> {
    let bad = |why: String| HexError::Input { file: path.to_path_buf(), line: 0, message: why };
    let mut leaders = Vec::with_capacity(record.leaders.len());
    for text in &record.leaders {
        let values: Vec<u8> = text.bytes().map(|b| b.wrapping_sub(b'0')).collect();
        if values.len() != hex.cell_count() {
            return Err(bad(format!("leader {text} has {} cells, not {}", values.len(), hex.cell_count())));
        }
        let partial = Partial::new(hex.side(), level, values).map_err(|e| bad(format!("leader {text}: {e}")))?;
        let evaluation = evaluate(hex, &partial);
        if !evaluation.is_valid() || evaluation.penalty > max_penalty {
            return Err(bad(format!("leader {text} is not a valid partial of penalty <= {max_penalty}")));
        }
        if project(partial.values()) != record.cube {
            return Err(bad(format!("leader {text} does not lie in the cube")));
        }
        leaders.push((partial, evaluation));
    }
    Ok(leaders)
}

/// Format tag of a count's record (`count.json` beside its cubes' records).
pub const COUNT_FORMAT: &str = "hexcert-count/1";

/// A count at the minimum of a level, from a certified listing: every
/// valid level-`level` partial of penalty exactly `penalty`, not reduced by
/// symmetry. Written by `count --road sat --certify` once every cube of the
/// listing is certified; `hexcert check` rebuilds the count from the cubes'
/// records and judges it (`verify::counts`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountRecord {
    pub format: String,
    pub n: usize,
    pub level: u8,
    /// The listing's bound: every partial of penalty <= `penalty` is listed.
    pub penalty: usize,
    /// The level's minimum, when the listing runs past it (a listing up to
    /// a higher level's minimum, for the lift to it: n = 16's level 3 up to
    /// level 4's 47); absent, `penalty` is the minimum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<usize>,
    /// The partials of penalty exactly `penalty`, in decimal.
    pub count: String,
    /// Lex-leaders listed, over all cubes.
    pub leaders: usize,
    /// Cube records of the listing, all certified (`cube-<index>.json`).
    pub cubes: usize,
    /// The claim that no partial of the level has penalty below its
    /// minimum, relative to this record's directory: with a leader at the
    /// minimum it makes it the level's minimum.
    pub minimum_claim: String,
    /// The statement -> listing CNF step (the lex-leader formula of
    /// "penalty <= `penalty`"), checked by VeriPB when it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement_to_cnf: Option<StatementRecord>,
    /// Solver seconds of the listing, over all cubes (as the cubes recorded).
    pub solve_seconds: f64,
    /// The solver's CPU seconds over all cubes, when every cube recorded
    /// them (`CubeLeaders::cpu_seconds`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solve_cpu_seconds: Option<f64>,
    #[serde(deserialize_with = "crate::records::ledger::writer")]
    pub written_by: String,
}

/// The record's numbers, judged when it is read: everything that reads
/// a count (check, the lift) builds the listing's formula from them, so
/// a side, level or penalty no formula has is refused here, in one
/// line, before an encoder indexes by it or allocates for it.
///
/// # Errors
///
/// `HexError::Input` naming `origin` when n is not a hexagon side, the
/// level is outside 1..=6, the penalty exceeds the side's edges or a solve time is no duration;
/// `HexError::Record` (`RecordError::OverBudget`) when the listing's
/// formula would not fit the encoding budget.
impl super::read::Checked for CountRecord {
    fn check_read(&self, origin: &Path) -> Result<(), HexError> {
        use super::ranges::{check_encoding_budget, edges_of, level_in_range, penalty_in_range, seconds_in_range};
        let edges = edges_of(self.n, origin)?;
        seconds_in_range("solve_seconds", self.solve_seconds, origin)?;
        if let Some(cpu) = self.solve_cpu_seconds {
            seconds_in_range("solve_cpu_seconds", cpu, origin)?;
        }
        level_in_range("level", self.level, origin)?;
        penalty_in_range("penalty", self.penalty, edges, origin)?;
        if self.minimum.is_some_and(|m| m > self.penalty) {
            let message =
                format!("minimum {} lies above the listing's bound {}", self.minimum.unwrap_or_default(), self.penalty);
            return Err(HexError::Input { file: origin.to_path_buf(), line: 0, message });
        }
        check_encoding_budget(self.n, self.level, self.penalty + 1, 1, origin)
    }
}

impl CountRecord {
    /// The level's minimum: `minimum` when the listing runs past it, else
    /// `penalty`.
    pub fn minimum(&self) -> usize {
        self.minimum.unwrap_or(self.penalty)
    }

    /// The name of the directory the record lives in (`count_cell`).
    pub fn cell(&self) -> String {
        count_cell(self.n, self.level, self.penalty, self.minimum)
    }

    /// The numbers every line `check` says of the record begins with.
    pub fn label(&self) -> String {
        match self.minimum {
            None => format!("n = {}, level {}, penalty {}", self.n, self.level, self.penalty),
            Some(m) => {
                format!("n = {}, level {}, every penalty up to {} (minimum {m})", self.n, self.level, self.penalty)
            }
        }
    }

    /// The record at `path` lies in the directory its numbers name.
    ///
    /// # Errors
    ///
    /// `HexError::Input` naming `path` when it does not
    /// (`ranges::check_cell_directory`).
    pub fn check_cell(&self, path: &Path) -> Result<(), HexError> {
        let what = match self.minimum {
            None => format!("the count of n = {} level {} at its minimum {}", self.n, self.level, self.penalty),
            Some(m) => format!(
                "a listing of n = {} level {} up to {} (its minimum {m}), no count at a minimum",
                self.n, self.level, self.penalty
            ),
        };
        super::ranges::check_cell_directory(path, &self.cell(), &what)
    }
}

/// The directory of a certified listing of side `n`, level `level`, every
/// partial up to `penalty` listed: `n<N>-level<K>-penalty<P>` when `penalty`
/// is the level's minimum (`minimum` absent), the count of a table cell;
/// `n<N>-level<K>-upto<P>` for a listing past the minimum, a lift's input
/// and no cell. (Other directories under counts/ hold no record `check`
/// judges: cube records of an uncertified listing, the piece records of
/// an extension count, `n<N>-level<K>-chains`.)
pub fn count_cell(n: usize, level: u8, penalty: usize, minimum: Option<usize>) -> String {
    match minimum {
        None => format!("n{n}-level{level}-penalty{penalty}"),
        Some(_) => format!("n{n}-level{level}-upto{penalty}"),
    }
}
