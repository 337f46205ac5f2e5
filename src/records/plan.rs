//! The plan file as stored: one claim, the plain formula its cubes extend,
//! its split and its kept cubes, and what can be checked of it from what
//! it states (`Plan::validate`). Making plans (splitting, refining,
//! growing trees) and the cover check by enumeration are `cubes`'.
//!
//! Invariant: a plan passed on by `read` or `validate` names this build's
//! encoder and cover argument, the cells within its radius, cubes that are
//! projections onto them at depths of its split, and below each projection
//! the leaves of one complete decision tree over the formula's variables:
//! what the encoder and the solver are handed cannot make them panic, and
//! the cover argument copied into a cube claim's trust base is this
//! build's text.
//!
//! The trees (`check_tree`): a plan may replace a value cube `C` by the
//! leaves of a binary decision tree over the plain formula's variables; for
//! every projection, the paths of the cubes below it must be exactly the
//! leaves of one complete tree (a single empty path being the trivial
//! tree). Then every assignment that reads as `C` follows exactly one path
//! to a leaf, so the leaves cover `C` whatever the formula says, and the
//! orbit cover of the projections is untouched by the trees. The VeriPB
//! derivation of the split formula derives the same fact leaf to root
//! (`derivation::cubes`), so this check is a guard for early, readable
//! errors, not a link of the trust chain. How a cube list fails these
//! checks and the cover's is typed here (`CoverError`, `TreeError`), beside
//! the `Cover` figures it names.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::header::{Header, Stated};
use super::ranges;
use crate::encoding::{Cardinality, EncodeOptions, LevelEncoding, SymmetryBreaking, TieBreak, ENCODER_VERSION};
use crate::error::HexError;
use crate::geometry::Hexagon;

/// Format tag of a plan file.
pub const PLAN_FORMAT: &str = "hexcert-cube-plan/2";

/// Why solving the kept cubes decides the claim; copied into every plan.
pub const COVER_ARGUMENT: &str =
    "every projection of the split cells (values 1..=depth, depth+1 for more, at the deepest cube's \
     depth) is either refuted by the local rules of src/cubes/local.rs or has an image under one of the 12 hexagon \
     symmetries that reads, at some kept cube's depth, as that cube (checked by enumeration, src/cubes/cover.rs); a \
     symmetry maps valid partials to valid partials of the same penalty, so a partial below the bound would give a \
     model of some kept cube's formula (docs/SOUNDNESS.md, section 7)";

/// A plan as stored.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    pub format: String,
    pub statement: String,
    pub n: usize,
    pub level: u8,
    pub below: usize,
    /// The plain formula every cube extends (no symmetry breaking).
    pub encoder: String,
    pub cardinality: Cardinality,
    pub formula_sha256: String,
    pub radius: usize,
    /// The deepest cube's depth: the cover is enumerated at it.
    pub depth: u8,
    pub cells: Vec<usize>,
    /// The planner's enumeration, re-done by `check_cover`.
    pub cover: Cover,
    pub cover_argument: String,
    /// Kept cubes: projected values of `cells`, one cube per orbit.
    pub cubes: Vec<Cube>,
    /// Lex-leader clauses past the split appended to the plain formula
    /// (`encoding::TieBreak`); absent in every plan made without one, so
    /// those read, hash and merge as before.
    #[serde(default, skip_serializing_if = "TieBreak::is_none")]
    pub tie_break: TieBreak,
}

impl Stated for Plan {
    fn header(&self) -> Header<'_> {
        Header { format: &self.format, statement: &self.statement, n: self.n, level: self.level, below: self.below }
    }
}

impl Plan {
    /// Reads (bounded) and range-checks a plan file.
    ///
    /// # Errors
    ///
    /// `HexError::Io` when the file cannot be read; `HexError::Record`
    /// (`RecordError::NotRegularFile`, `RecordError::TooLarge`,
    /// `RecordError::Malformed`) when it is not a regular file, is over
    /// `MAX_RECORD_BYTES`, or is not a plan's JSON; then `validate`'s errors
    /// (run as it is read: `Checked`).
    pub fn read(path: &Path) -> Result<Plan, HexError> {
        crate::records::read_json(path)
    }

    /// Checks the format, the statement's numbers and that the cells are the
    /// split's (a plan read from a file or inside a merged claim at `origin`).
    ///
    /// # Errors
    ///
    /// `Header::check`'s against `PLAN_FORMAT` (`HexError::Record` for the
    /// format or the statement, `HexError::Input` for numbers out of range);
    /// `HexError::Record` (`RecordError::OverBudget`) when its formula, held
    /// `CUBE_CLAIM_COPIES` times, exceeds the encoding budget;
    /// `HexError::Input` when the encoder or cover argument is not this
    /// build's, the radius leaves the hexagon, the depth is outside 1..=level,
    /// the cells are not those within the radius, a cube is not a projection of
    /// the split, the tie-break's ring lies outside the hexagon, or the trees
    /// below a projection are not complete (`check_trees`).
    pub fn validate(&self, origin: &Path) -> Result<(), HexError> {
        let bad = |message: String| HexError::Input { file: origin.to_path_buf(), line: 0, message };
        self.header().check(PLAN_FORMAT, origin)?;
        ranges::check_encoding_budget(
            self.n,
            self.level,
            self.below,
            crate::options::CUBE_CLAIM_COPIES.default,
            origin,
        )?;
        if self.encoder != ENCODER_VERSION {
            return Err(bad(format!(
                "the plan was made by encoder `{}`, this build has `{ENCODER_VERSION}`",
                self.encoder
            )));
        }
        // The argument is copied into a cube claim's trust base: free text
        // there would let a record state what a reader is asked to trust.
        if self.cover_argument != COVER_ARGUMENT {
            return Err(bad(
                "the plan's cover argument is not the one this build checks (src/records/plan.rs, COVER_ARGUMENT)"
                    .into(),
            ));
        }
        let hex = Hexagon::new(self.n)?;
        if self.radius >= self.n {
            return Err(bad(format!(
                "a split radius of {} leaves the side-{} hexagon (use 0..={})",
                self.radius,
                self.n,
                self.n - 1
            )));
        }
        if self.depth == 0 || self.depth > self.level {
            return Err(bad(format!("split depth {} must lie in 1..={} (the level)", self.depth, self.level)));
        }
        if hex.cells_within(self.radius) != self.cells {
            return Err(bad(format!(
                "the cells {:?} are not those within radius {} of the centre",
                self.cells, self.radius
            )));
        }
        // What the encoder and the solver are handed: a value out of range
        // would panic the one, a literal out of range abort the other.
        check_projections(self.cells.len(), self.depth, &self.cubes).map_err(|e| bad(e.to_string()))?;
        self.tie_break.digits(&hex, self.radius, self.depth, self.level).map_err(|e| bad(e.to_string()))?;
        self.check_trees().map_err(|e| bad(e.to_string()))
    }

    /// The name of cube `index`'s result record: the cube and the formula
    /// it extends, hashed, so that a record answers that cube whatever plan
    /// (refined or not) lists it.
    pub fn cube_key(&self, index: usize) -> String {
        let cube = &self.cubes[index];
        let mut text =
            format!("{} cells {:?} depth {} values {:?}", self.formula_sha256, self.cells, cube.depth, cube.values);
        if !cube.literals.is_empty() {
            text.push_str(&format!(" path {:?}", cube.literals));
        }
        crate::digest::sha256_hex(text.as_bytes())[..16].to_string()
    }

    /// The plain formula "valid level-k partial with penalty <= below - 1".
    ///
    /// # Errors
    ///
    /// `HexError::Usage` when n is not a hexagon side (1..=`MAX_SIDE`).
    pub fn plain_encoding(&self) -> Result<LevelEncoding, HexError> {
        let options = EncodeOptions {
            max_penalty: Some(self.below - 1),
            cardinality: self.cardinality,
            symmetry: SymmetryBreaking::None,
        };
        Ok(LevelEncoding::new(&Hexagon::new(self.n)?, self.level, options))
    }

    /// The formula every cube extends: "valid level-k partial with penalty
    /// <= below - 1", then the tie-break's lex-leader clauses, if any.
    ///
    /// # Errors
    ///
    /// `HexError::Usage` when n is not a hexagon side, or the plan has a
    /// tie-break and the ring at distance `radius + 1` lies outside the
    /// hexagon.
    pub fn encoding(&self) -> Result<LevelEncoding, HexError> {
        let hex = Hexagon::new(self.n)?;
        let mut encoding = self.plain_encoding()?;
        let digits = self.tie_break.digits(&hex, self.radius, self.depth, self.level)?;
        if !digits.is_empty() {
            encoding.add_lex_chains(&hex, &digits);
        }
        Ok(encoding)
    }

    /// The paths below each projection form a complete tree over the plain
    /// formula's variables (`check_tree`).
    ///
    /// # Errors
    ///
    /// The first fault: `CoverError::Geometry` when the formula cannot be
    /// encoded (`encoding`'s errors), `CoverError::Tree` when the paths below
    /// a projection, named, are not the leaves of one complete tree over the
    /// formula's variables (`check_tree`).
    pub fn check_trees(&self) -> Result<(), CoverError> {
        if self.cubes.iter().all(|c| c.literals.is_empty()) {
            return Ok(());
        }
        let num_vars = self.encoding()?.cnf.num_vars() as i32;
        for (projection, paths) in paths_by_projection(&self.cubes) {
            check_tree(&paths, num_vars).map_err(|fault| CoverError::Tree {
                values: projection.values.clone(),
                depth: projection.depth,
                fault,
            })?;
        }
        Ok(())
    }
}

/// One cube: the split cells' values projected at `depth` (values
/// `1..=depth`, and `depth + 1` for "more than `depth`"), then the literals
/// of a path in a decision tree below that projection (`cubes::tree`). A plan may
/// mix depths: a cube found hard is replaced by its cubes one value deeper,
/// or by the leaves of a decision tree over the formula's variables.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cube {
    pub depth: u8,
    pub values: Vec<u8>,
    /// The path below the projection, root first (`-x` for the `x = false`
    /// branch); empty for a plain value cube, and then not written, so value
    /// plans read and hash as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub literals: Vec<i32>,
}

impl Cube {
    /// A value cube (no decision-tree path).
    pub fn values(depth: u8, values: Vec<u8>) -> Cube {
        Cube { depth, values, literals: Vec::new() }
    }

    /// The projection this cube lies under (its path dropped).
    pub fn projection(&self) -> Cube {
        Cube::values(self.depth, self.values.clone())
    }
}

/// What the cover enumeration saw (`cubes::cover`), as a plan records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cover {
    /// Projections of the split, `(depth + 1) ^ cells`.
    pub projections: u64,
    /// Projections refuted by the local rules.
    pub refuted: u64,
    /// Projections whose image, read at a kept cube's depth, is that cube.
    pub covered: u64,
}

/// Why a plan's cubes do not cover its split.
#[derive(Debug, thiserror::Error)]
pub enum CoverError {
    /// A cube is no projection onto the split cells at a depth of the split.
    #[error("cube {index} is not a projection onto the {cells} split cells at a depth in 1..={depth}")]
    NotAProjection { index: usize, cells: usize, depth: u8 },
    /// The same cube listed twice.
    #[error("cube {index} appears twice")]
    Twice { index: usize },
    /// A projection neither refuted by the local rules nor the image of a kept cube.
    #[error(
        "projection {values:?} (depth {depth}) of the split cells {cells:?} is neither refuted nor the image of a cube"
    )]
    Uncovered { values: Vec<u8>, depth: u8, cells: Vec<usize> },
    /// The paths below projection `values` are not one complete tree.
    #[error("the cubes below projection {values:?} (depth {depth}): {fault}")]
    Tree { values: Vec<u8>, depth: u8, fault: TreeError },
    /// The enumeration's figures are not the plan's.
    #[error("the plan records {recorded:?} but the enumeration finds {found:?}")]
    Figures { recorded: Cover, found: Cover },
    /// The plan's side, split or formula cannot be built (a plan that
    /// `validate` passed always can).
    #[error("{0}")]
    Geometry(Box<HexError>),
}

impl From<HexError> for CoverError {
    fn from(error: HexError) -> CoverError {
        CoverError::Geometry(Box::new(error))
    }
}

/// Why the paths below one projection are not the leaves of one complete decision tree.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TreeError {
    /// A literal 0 or beyond the formula's variables.
    #[error("path {path:?} has literal {literal}, not a variable of the formula (1..={vars})")]
    NotAVariable { path: Vec<i32>, literal: i32, vars: i32 },
    /// One variable decided twice on a path.
    #[error("path {path:?} decides a variable twice")]
    DecidedTwice { path: Vec<i32> },
    /// A branch with no leaf below it.
    #[error("an empty branch: a subtree has no leaf")]
    EmptyBranch,
    /// A path that another extends.
    #[error("path {path:?} is a leaf and an inner node at once (another path extends it)")]
    LeafAndInner { path: Vec<i32> },
    /// Siblings deciding different variables.
    #[error("paths {first:?} and {other:?} split on different variables at depth {depth}")]
    SplitsDiffer { first: Vec<i32>, other: Vec<i32>, depth: usize },
    /// A fault below the node `prefix` then `literal`.
    #[error("below {prefix:?} then {literal}: {fault}")]
    Below { prefix: Vec<i32>, literal: i32, fault: Box<TreeError> },
}

/// Every cube is a projection onto the split cells at a depth of the split:
/// what encoding a cube's units relies on. The error names the first that is not.
///
/// # Errors
///
/// `CoverError::NotAProjection` naming the first cube whose depth is outside
/// `1..=depth`, whose values are not one per split cell, or one of whose
/// values lies outside `1..=cube.depth + 1`.
pub fn check_projections(cells: usize, depth: u8, cubes: &[Cube]) -> Result<(), CoverError> {
    for (index, cube) in cubes.iter().enumerate() {
        let fits = cube.depth >= 1
            && cube.depth <= depth
            && cube.values.len() == cells
            && cube.values.iter().all(|&v| v >= 1 && v <= cube.depth + 1);
        if !fits {
            return Err(CoverError::NotAProjection { index, cells, depth });
        }
    }
    Ok(())
}

/// The paths below each projection, in plan order of first appearance.
pub fn paths_by_projection(cubes: &[Cube]) -> BTreeMap<Cube, Vec<&[i32]>> {
    let mut trees: BTreeMap<Cube, Vec<&[i32]>> = BTreeMap::new();
    for cube in cubes {
        trees.entry(cube.projection()).or_default().push(&cube.literals);
    }
    trees
}

/// Checks that the paths are the leaves of one complete decision tree whose
/// variables lie in `1..=num_vars`, none twice on a path; the error names
/// the first fault.
///
/// # Errors
///
/// The first fault (`TreeError`): a literal 0 or beyond `num_vars`, a variable
/// decided twice on one path, an empty branch, a path that is a leaf and an
/// inner node at once, or sibling paths splitting on different variables.
pub fn check_tree(paths: &[&[i32]], num_vars: i32) -> Result<(), TreeError> {
    for path in paths {
        // `unsigned_abs`: `i32::MIN` has no `abs`, and must read as out of range.
        if let Some(&lit) = path.iter().find(|&&l| l == 0 || l.unsigned_abs() > num_vars.unsigned_abs()) {
            return Err(TreeError::NotAVariable { path: path.to_vec(), literal: lit, vars: num_vars });
        }
        let mut vars: Vec<i32> = path.iter().map(|l| l.abs()).collect();
        vars.sort_unstable();
        if vars.windows(2).any(|w| w[0] == w[1]) {
            return Err(TreeError::DecidedTwice { path: path.to_vec() });
        }
    }
    complete(paths, 0)
}

/// The paths, all agreeing on their first `depth` literals, are a complete tree below them.
fn complete(paths: &[&[i32]], depth: usize) -> Result<(), TreeError> {
    match paths {
        [] => Err(TreeError::EmptyBranch),
        [only] if only.len() == depth => Ok(()),
        _ => {
            if let Some(leaf) = paths.iter().find(|p| p.len() == depth) {
                return Err(TreeError::LeafAndInner { path: leaf.to_vec() });
            }
            let var = paths[0][depth].abs();
            if let Some(other) = paths.iter().find(|p| p[depth].abs() != var) {
                return Err(TreeError::SplitsDiffer { first: paths[0].to_vec(), other: other.to_vec(), depth });
            }
            let (high, low): (Vec<&[i32]>, Vec<&[i32]>) = paths.iter().partition(|p| p[depth] > 0);
            for (branch, lit) in [(&high, var), (&low, -var)] {
                complete(branch, depth + 1).map_err(|fault| TreeError::Below {
                    prefix: paths[0][..depth].to_vec(),
                    literal: lit,
                    fault: Box::new(fault),
                })?;
            }
            Ok(())
        }
    }
}

/// A plan file is judged whole as it is read (`Plan::validate`).
impl super::read::Checked for Plan {
    fn check_read(&self, origin: &Path) -> Result<(), HexError> {
        self.validate(origin)
    }
}
