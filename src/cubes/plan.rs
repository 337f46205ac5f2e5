//! Making plans: a claim split into cubes, refined one value deeper, grown
//! into decision trees or bisected budgets, and written with its job list;
//! the cover re-checked from the file (never trusted from the planner) by
//! `Plan::check_cover` before any result is merged. The plan as stored,
//! and what is checked of it on reading, is `records::plan`.

use std::path::Path;

use super::{check_cover, refine, value_cubes, Cover, Cube, Split};
use crate::encoding::{Cardinality, TieBreak, ENCODER_VERSION};
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::records::plan::{CoverError, Plan, COVER_ARGUMENT, PLAN_FORMAT};
use crate::records::ranges;

impl Plan {
    /// Plans the claim "no valid level-`level` partial has penalty below `below`".
    pub fn new(
        n: usize,
        level: u8,
        below: usize,
        radius: usize,
        depth: u8,
        cardinality: Cardinality,
    ) -> Result<Plan, HexError> {
        ranges::check_statement_numbers(n, level, below, Path::new("--n/--level/--below"))?;
        ranges::check_encoding_budget(
            n,
            level,
            below,
            crate::options::CUBE_CLAIM_COPIES.default,
            Path::new("--n/--level/--below"),
        )?;
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
            tie_break: TieBreak::None,
        };
        plan.with_tie_break(TieBreak::None)
    }

    /// The plan with `tie_break`'s lex-leader clauses in its formula (and
    /// the formula's hash recorded again); `TieBreak::None` keeps the plain
    /// formula. Only a fresh plan or one with the same tie-break: records
    /// solved against another formula would answer no cube of this one.
    pub fn with_tie_break(self, tie_break: TieBreak) -> Result<Plan, HexError> {
        let plan = Plan { tie_break, ..self };
        let formula_sha256 = crate::digest::sha256_hex(&plan.encoding()?.cnf.to_dimacs());
        Ok(Plan { formula_sha256, ..plan })
    }

    /// Reads a plan (`read`) and checks its cover, for a command that builds
    /// on the cover without `check_cover` after it (`statement --plan`).
    pub fn read_covering(path: &Path) -> Result<Plan, HexError> {
        let plan = Plan::read(path)?;
        plan.check_cover().map_err(|e| HexError::Input {
            file: path.to_path_buf(),
            line: 0,
            message: format!("the plan's cover does not hold: {e}"),
        })?;
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
            return Err(HexError::Usage(format!(
                "cube index {bad} is out of range: the plan has {} cubes",
                self.cubes.len()
            )));
        }
        let depth = cubes.iter().map(|c| c.depth).max().unwrap_or(self.depth).max(self.depth);
        if depth != self.depth && !self.tie_break.is_none() {
            // The tie-break's key reads the split at depths 1..=D: a deeper
            // split is another formula, which every record would miss.
            return Err(HexError::Usage(format!(
                "refining these cubes deepens the split to depth {depth}, which changes a {} tie-break's formula: plan again at depth {depth} instead (or refine by --strategy cardinality or prefix)",
                self.tie_break.name()
            )));
        }
        let mut plan = Plan { depth, cubes, ..self.clone() };
        plan.cover = plan
            .enumerate_cover()
            .map_err(|e| HexError::Internal(format!("the refined cubes do not cover the split: {e}")))?;
        Ok((plan, refuted))
    }

    /// The plan with each cube `i` of `trees` replaced by the leaves of a
    /// decision tree below it: cube `i` with each path appended, in the
    /// order given. The cover (trees included) is checked again.
    pub fn grow_trees(&self, trees: &[(usize, Vec<Vec<i32>>)]) -> Result<Plan, HexError> {
        if let Some((bad, _)) = trees.iter().find(|(i, _)| *i >= self.cubes.len()) {
            return Err(HexError::Usage(format!(
                "cube index {bad} is out of range: the plan has {} cubes",
                self.cubes.len()
            )));
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
        plan.cover = plan
            .enumerate_cover()
            .map_err(|e| HexError::Internal(format!("the grown trees do not cover the split: {e}")))?;
        Ok(plan)
    }

    /// The plan with every cube's penalty budget bisected `depth` times
    /// between the hexagon's halves (`cardinality::bisection_tree`); the
    /// plan itself when `depth` is 0 or the bound has no sequential
    /// counter to split on (a totalizer, or a bound of 0).
    pub fn split_budget(&self, depth: usize) -> Result<Plan, HexError> {
        let Some(counter) = self.encoding()?.counter().filter(|_| depth > 0) else { return Ok(self.clone()) };
        let trees: Vec<(usize, Vec<Vec<i32>>)> = self
            .cubes
            .iter()
            .enumerate()
            .map(|(i, c)| (i, super::cardinality::bisection_tree(&counter, &c.literals, depth)))
            .collect();
        self.grow_trees(&trees)
    }

    /// The split the plan names.
    pub fn split(&self) -> Result<Split, HexError> {
        Split::new(&Hexagon::new(self.n)?, self.level, self.radius, self.depth)
    }

    /// The cover enumeration of the plan's cubes (`cover::check_cover`).
    /// Trees below projections are checked first (`tree::check_tree`).
    fn enumerate_cover(&self) -> Result<Cover, CoverError> {
        let hex = Hexagon::new(self.n)?;
        let split = self.split()?;
        self.check_trees()?;
        check_cover(&hex, &split, self.below, &self.cubes)
    }

    /// Re-checks the cover from the cube list and requires the recorded
    /// enumeration figures to match; the error says what does not hold.
    ///
    /// # Errors
    ///
    /// `check_trees`' and `cubes::check_cover`'s, then `CoverError::Figures`
    /// when the enumeration's figures are not the recorded ones.
    pub fn check_cover(&self) -> Result<Cover, CoverError> {
        let cover = self.enumerate_cover()?;
        if cover != self.cover {
            return Err(CoverError::Figures { recorded: self.cover, found: cover });
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
    let refuse =
        |why: &str| HexError::Usage(format!("{:?}: {why}: a job list names it on a shell line", path.as_os_str()));
    let text = path.to_str().ok_or_else(|| refuse("not a UTF-8 path"))?;
    if text.chars().any(char::is_control) {
        return Err(refuse("a path with a control character (a newline, a tab)"));
    }
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:,".contains(c)) {
        return Ok(text.to_string());
    }
    Ok(format!("'{}'", text.replace('\'', "'\\''")))
}
