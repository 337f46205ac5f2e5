//! The plan file: one claim, its formula, its split and its kept cubes.
//!
//! A plan is data only; `cubes run` solves its cubes one by one, and the
//! cover is re-checked from the file (never trusted from the planner) by
//! `Plan::check_cover` before any result is merged.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{check_cover, refine, tree, value_cubes, Cover, Cube, Split};
use crate::encoding::{Cardinality, EncodeOptions, LevelEncoding, SymmetryBreaking, ENCODER_VERSION};
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::records::header::{Header, Stated};
use crate::records::ranges;

/// Format tag of a plan file.
pub const PLAN_FORMAT: &str = "hexcert-cube-plan/2";

/// Why solving the kept cubes decides the claim; copied into every plan.
pub const COVER_ARGUMENT: &str = "every projection of the split cells (values 1..=depth, depth+1 for more, at the deepest cube's \
     depth) is either refuted by the local rules of src/cubes/local.rs or has an image under one of the 12 hexagon \
     symmetries that reads, at some kept cube's depth, as that cube (checked by enumeration, src/cubes/cover.rs); a \
     symmetry maps valid partials to valid partials of the same penalty, so a partial below the bound would give a \
     model of some kept cube's formula (docs/SOUNDNESS.md, section 7)";

impl Stated for Plan {
    fn header(&self) -> Header<'_> {
        Header { format: &self.format, statement: &self.statement, n: self.n, level: self.level, below: self.below }
    }
}

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
}

impl Plan {
    /// Plans the claim "no valid level-`level` partial has penalty below `below`".
    pub fn new(n: usize, level: u8, below: usize, radius: usize, depth: u8, cardinality: Cardinality) -> Result<Plan, HexError> {
        ranges::check_statement_numbers(n, level, below, Path::new("--n/--level/--below"))?;
        ranges::check_encoding_budget(n, level, below, Path::new("--n/--level/--below"))?;
        let hex = Hexagon::new(n)?;
        let planned = value_cubes(&hex, level, below, radius, depth)?;
        let covered = planned.split.projection_count() - planned.refuted;
        let plan = Plan {
            format: PLAN_FORMAT.into(),
            statement: crate::records::header::statement_for(n, level, below),
            n,
            level,
            below,
            encoder: ENCODER_VERSION.into(),
            cardinality,
            formula_sha256: String::new(),
            radius,
            depth,
            cells: planned.split.cells.clone(),
            cover: Cover { projections: planned.split.projection_count(), refuted: planned.refuted, covered },
            cover_argument: COVER_ARGUMENT.into(),
            cubes: planned.cubes,
        };
        let formula_sha256 = crate::digest::sha256_hex(&plan.encoding()?.cnf.to_dimacs());
        Ok(Plan { formula_sha256, ..plan })
    }

    /// Reads (bounded) and range-checks a plan file.
    pub fn read(path: &Path) -> Result<Plan, HexError> {
        let plan: Plan = crate::records::read_json(path)?;
        plan.validate(path)?;
        Ok(plan)
    }

    /// Checks the format, the statement's numbers and that the cells are the
    /// split's (a plan read from a file or inside a merged claim at `origin`).
    pub fn validate(&self, origin: &Path) -> Result<(), HexError> {
        let bad = |message: String| HexError::Input { file: origin.to_path_buf(), line: 0, message };
        self.header().check(PLAN_FORMAT, origin)?;
        ranges::check_encoding_budget(self.n, self.level, self.below, origin)?;
        if self.encoder != ENCODER_VERSION {
            return Err(bad(format!("the plan was made by encoder `{}`, this build has `{ENCODER_VERSION}`", self.encoder)));
        }
        // The argument is copied into a cube claim's trust base: free text
        // there would let a record state what a reader is asked to trust.
        if self.cover_argument != COVER_ARGUMENT {
            return Err(bad("the plan's cover argument is not the one this build checks (src/cubes/plan.rs, COVER_ARGUMENT)".into()));
        }
        let split = self.split().map_err(|e| bad(e.to_string()))?;
        if split.cells != self.cells {
            return Err(bad(format!("the cells {:?} are not those within radius {} of the centre", self.cells, self.radius)));
        }
        // What the encoder and the solver are handed: a value out of range
        // would panic the one, a literal out of range abort the other.
        super::check_projections(&split, &self.cubes).map_err(bad)?;
        self.check_trees().map_err(bad)
    }

    /// Reads a plan (`read`) and checks its cover, for a command that builds
    /// on the cover without `check_cover` after it (`statement --plan`).
    pub fn read_covering(path: &Path) -> Result<Plan, HexError> {
        let plan = Plan::read(path)?;
        plan.check_cover().map_err(|e| HexError::Input { file: path.to_path_buf(), line: 0, message: format!("the plan's cover does not hold: {e}") })?;
        Ok(plan)
    }

    /// Writes the plan to `path` and its job list beside it (`PLAN.jobs`,
    /// one `cubes run` per cube writing to `results`, hexcert called as
    /// `hexcert`); returns the job list's path. A path a job line cannot
    /// hold is refused before anything is written.
    pub fn write(&self, path: &Path, results: &Path, hexcert: &str) -> Result<std::path::PathBuf, HexError> {
        let words = [shell_word(hexcert.as_ref())?, shell_word(path)?, shell_word(results)?];
        crate::files::write_atomic(path, &serde_json::to_vec_pretty(self).expect("plans serialise"))?;
        let mut name = path.as_os_str().to_owned();
        name.push(".jobs");
        let jobs = std::path::PathBuf::from(name);
        let [hexcert, path, results] = words;
        let prefix = format!("{hexcert} cubes run {path} --results {results} -q --index");
        let lines: String = (0..self.cubes.len()).map(|i| format!("{prefix} {i}\n")).collect();
        crate::files::write_atomic(&jobs, lines.as_bytes())?;
        Ok(jobs)
    }

    /// The plan with cubes `which` replaced by their refinements one value
    /// deeper (`refine`); the other cubes keep their place and, since a
    /// cube's record is named by the cube (`cube_key`), their results.
    pub fn refine(&self, which: &[usize]) -> Result<(Plan, u64), HexError> {
        let hex = Hexagon::new(self.n)?;
        let mut cubes = Vec::with_capacity(self.cubes.len());
        let mut refuted = 0;
        for (index, cube) in self.cubes.iter().enumerate() {
            if which.contains(&index) {
                let refined = refine(&hex, self.level, self.radius, self.below, cube)?;
                refuted += refined.refuted;
                cubes.extend(refined.cubes);
            } else {
                cubes.push(cube.clone());
            }
        }
        if let Some(&bad) = which.iter().find(|&&i| i >= self.cubes.len()) {
            return Err(HexError::Usage(format!("cube index {bad} is out of range: the plan has {} cubes", self.cubes.len())));
        }
        let depth = cubes.iter().map(|c| c.depth).max().unwrap_or(self.depth).max(self.depth);
        let mut plan = Plan { depth, cubes, ..self.clone() };
        plan.cover = plan.enumerate_cover().map_err(|e| HexError::Internal(format!("the refined cubes do not cover the split: {e}")))?;
        Ok((plan, refuted))
    }

    /// The plan with each cube `i` of `trees` replaced by the leaves of a
    /// decision tree below it: cube `i` with each path appended, in the
    /// order given. The cover (trees included) is checked again.
    pub fn grow_trees(&self, trees: &[(usize, Vec<Vec<i32>>)]) -> Result<Plan, HexError> {
        if let Some((bad, _)) = trees.iter().find(|(i, _)| *i >= self.cubes.len()) {
            return Err(HexError::Usage(format!("cube index {bad} is out of range: the plan has {} cubes", self.cubes.len())));
        }
        let mut cubes = Vec::with_capacity(self.cubes.len());
        for (index, cube) in self.cubes.iter().enumerate() {
            match trees.iter().find(|(i, _)| *i == index) {
                Some((_, leaves)) => cubes.extend(leaves.iter().map(|path| {
                    let mut literals = cube.literals.clone();
                    literals.extend_from_slice(path);
                    Cube { literals, ..cube.clone() }
                })),
                None => cubes.push(cube.clone()),
            }
        }
        let mut plan = Plan { cubes, ..self.clone() };
        plan.cover = plan.enumerate_cover().map_err(|e| HexError::Internal(format!("the grown trees do not cover the split: {e}")))?;
        Ok(plan)
    }

    /// The plan with every cube's penalty budget bisected `depth` times
    /// between the hexagon's halves (`cardinality::bisection_tree`); the
    /// plan itself when `depth` is 0 or the bound has no sequential
    /// counter to split on (a totalizer, or a bound of 0).
    pub fn split_budget(&self, depth: usize) -> Result<Plan, HexError> {
        let Some(counter) = self.encoding()?.counter().filter(|_| depth > 0) else { return Ok(self.clone()) };
        let trees: Vec<(usize, Vec<Vec<i32>>)> =
            self.cubes.iter().enumerate().map(|(i, c)| (i, super::cardinality::bisection_tree(&counter, &c.literals, depth))).collect();
        self.grow_trees(&trees)
    }

    /// The name of cube `index`'s result record: the cube and the formula
    /// it extends, hashed, so that a record answers that cube whatever plan
    /// (refined or not) lists it.
    pub fn cube_key(&self, index: usize) -> String {
        let cube = &self.cubes[index];
        let mut text = format!("{} cells {:?} depth {} values {:?}", self.formula_sha256, self.cells, cube.depth, cube.values);
        if !cube.literals.is_empty() {
            text.push_str(&format!(" path {:?}", cube.literals));
        }
        crate::digest::sha256_hex(text.as_bytes())[..16].to_string()
    }

    /// The split the plan names.
    pub fn split(&self) -> Result<Split, HexError> {
        Split::new(&Hexagon::new(self.n)?, self.level, self.radius, self.depth)
    }

    /// The plain formula "valid level-k partial with penalty <= below - 1".
    pub fn encoding(&self) -> Result<LevelEncoding, HexError> {
        let options = EncodeOptions { max_penalty: Some(self.below - 1), cardinality: self.cardinality, symmetry: SymmetryBreaking::None };
        Ok(LevelEncoding::new(&Hexagon::new(self.n)?, self.level, options))
    }

    /// The cover enumeration of the plan's cubes (`cover::check_cover`).
    /// Trees below projections are checked first (`tree::check_tree`).
    fn enumerate_cover(&self) -> Result<Cover, String> {
        let hex = Hexagon::new(self.n).map_err(|e| e.to_string())?;
        let split = self.split().map_err(|e| e.to_string())?;
        self.check_trees()?;
        check_cover(&hex, &split, self.below, &self.cubes)
    }

    /// The paths below each projection form a complete tree over the plain
    /// formula's variables (`tree::check_tree`).
    fn check_trees(&self) -> Result<(), String> {
        if self.cubes.iter().all(|c| c.literals.is_empty()) {
            return Ok(());
        }
        let num_vars = self.encoding().map_err(|e| e.to_string())?.cnf.num_vars() as i32;
        for (projection, paths) in tree::paths_by_projection(&self.cubes) {
            tree::check_tree(&paths, num_vars).map_err(|e| format!("the cubes below projection {:?} (depth {}): {e}", projection.values, projection.depth))?;
        }
        Ok(())
    }

    /// Re-checks the cover from the cube list and requires the recorded
    /// enumeration figures to match; the error says what does not hold.
    pub fn check_cover(&self) -> Result<Cover, String> {
        let cover = self.enumerate_cover()?;
        if cover != self.cover {
            return Err(format!("the plan records {:?} but the enumeration finds {cover:?}", self.cover));
        }
        Ok(cover)
    }
}

/// `path` as one word of a POSIX shell line: bare when it is made of
/// characters no shell reads specially, else single-quoted (a `'` inside
/// closed, escaped and reopened). A job list is read one line per job (GNU
/// parallel, `slurm-array.sh`), so a newline, which no quoting keeps inside
/// a line, or any other control character, is refused; so is a path that
/// is not UTF-8, which the list could only name approximately.
fn shell_word(path: &Path) -> Result<String, HexError> {
    let refuse = |why: &str| HexError::Usage(format!("{:?}: {why}: a job list names it on a shell line", path.as_os_str()));
    let text = path.to_str().ok_or_else(|| refuse("not a UTF-8 path"))?;
    if text.chars().any(char::is_control) {
        return Err(refuse("a path with a control character (a newline, a tab)"));
    }
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:,".contains(c)) {
        return Ok(text.to_string());
    }
    Ok(format!("'{}'", text.replace('\'', "'\\''")))
}
