//! The shape of a split formula T, read off T itself rather than trusted.
//!
//! T is a base formula F (clauses `1..=base`), then for each cube `i`, in
//! order, the clauses `-s_i u` (one per unit `u` of cube `i`, consecutive),
//! then the final clause `s_0 ... s_{m-1}`, whose literals name the
//! selectors and their order. Invariant, once `Split::read` accepts: the
//! selector variables are distinct and occur nowhere in F nor as a unit,
//! every clause between F and the final clause is exactly `{-s_i, u}` for
//! one cube `i`, and cube `i`'s clauses are the ids `groups[i]`. Freshness
//! is what makes T unsatisfiable exactly when every cube formula F + units
//! is: a model of a cube formula extends to T by its selector alone.

use std::ops::Range;

use crate::checker::Checker;
use crate::error::CheckError;

/// Marks a variable that is no selector in `Split::index`.
const NONE: u32 = u32::MAX;

pub(crate) struct Split {
    pub(crate) base: u64,
    /// T's clause count; the final clause's id.
    pub(crate) clauses: u64,
    /// The final clause's literals: cube `i`'s selector is `selectors[i]`.
    pub(crate) selectors: Vec<i32>,
    /// The cube of each selector variable, `NONE` for other variables.
    index: Vec<u32>,
    /// T ids of each cube's selector clauses.
    pub(crate) groups: Vec<Range<u64>>,
}

fn shape(reason: String) -> CheckError {
    CheckError::SplitShape { reason }
}

impl Split {
    /// The cube whose selector variable is `lit`'s, if any.
    pub(crate) fn cube_of(&self, lit: i32) -> Option<usize> {
        match self.index.get(lit.unsigned_abs() as usize) {
            Some(&cube) if cube != NONE => Some(cube as usize),
            _ => None,
        }
    }

    /// Reads the shape of the formula held by `checker` (no step replayed
    /// yet), refusing any T that does not have it.
    pub(crate) fn read(checker: &Checker, base: u64) -> Result<Split, CheckError> {
        let clauses = checker.original_count();
        if clauses <= base {
            return Err(shape(format!("{clauses} clauses, not more than the {base} base clauses: no final clause")));
        }
        let last = checker.clause(clauses).expect("original clauses are live before any step");
        if last.is_empty() {
            return Err(shape(format!("the final clause {clauses} is empty: no selectors")));
        }
        let mut split = Split { base, clauses, selectors: last.to_vec(), index: Vec::new(), groups: Vec::new() };
        for (cube, &s) in last.iter().enumerate() {
            let var = s.unsigned_abs() as usize;
            if split.index.len() <= var {
                split.index.resize(var + 1, NONE);
            }
            if split.index[var] != NONE {
                return Err(shape(format!("the final clause {clauses} has both polarities of variable {var}")));
            }
            split.index[var] = cube as u32;
        }
        for id in 1..=base {
            let clause = checker.clause(id).expect("live");
            if let Some(&lit) = clause.iter().find(|&&lit| split.cube_of(lit).is_some()) {
                return Err(shape(format!("base clause {id} mentions selector literal {lit}")));
            }
        }
        split.groups = vec![clauses..clauses; split.selectors.len()];
        // Cubes never decreasing from clause to clause is exactly "each
        // cube's clauses consecutive, cubes in the final clause's order".
        let mut previous = 0;
        for id in base + 1..clauses {
            let cube = split.selector_clause(id, checker.clause(id).expect("live"))?;
            if cube < previous {
                return Err(shape(format!(
                    "clause {id} belongs to cube {cube} but follows a clause of cube {previous}: \
                     each cube's clauses must be consecutive, in the final clause's order"
                )));
            }
            if split.groups[cube].start == clauses {
                split.groups[cube].start = id;
            }
            split.groups[cube].end = id + 1;
            previous = cube;
        }
        Ok(split)
    }

    /// The cube of selector clause `id`, which must be `{-s, u}` for a
    /// selector `s` and a literal `u` on another variable than a selector's.
    fn selector_clause(&self, id: u64, clause: &[i32]) -> Result<usize, CheckError> {
        let &[a, b] = clause else {
            return Err(shape(format!("clause {id} {clause:?} between the base and the final clause is not binary")));
        };
        let (cube, unit) = match (self.cube_of(a), self.cube_of(b)) {
            (Some(cube), None) => (cube, b),
            (None, Some(cube)) => (cube, a),
            _ => return Err(shape(format!("clause {id} {clause:?} does not have exactly one selector literal"))),
        };
        let s = self.selectors[cube];
        if !clause.contains(&-s) {
            return Err(shape(format!("clause {id} {clause:?} has selector {s} of cube {cube} unnegated")));
        }
        debug_assert!(clause.contains(&unit));
        Ok(cube)
    }

    /// The units T gives cube `cube`, in clause order.
    pub(crate) fn units(&self, checker: &Checker, cube: usize) -> Vec<i32> {
        let s = self.selectors[cube];
        let unit = |id| *checker.clause(id).expect("live").iter().find(|&&lit| lit != -s).expect("binary");
        self.groups[cube].clone().map(unit).collect()
    }
}
