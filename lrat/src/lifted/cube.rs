//! `CubeCheck`: one cube's proof replayed on T through the id mapping.
//!
//! The cube formula F_i's ids `1..=base` are T's; its units' ids
//! `base+1..=base+k` are T's selector clauses `group`; a lemma id `id` is T
//! id `offset + id - (base + k)`, where `offset` was T's last id when the
//! cube began. Invariants: every T id above `offset` is this cube's, so a
//! hint cannot reach another cube's lemmas; T's clauses are never deleted
//! (the cube's deletion of an original or unit, or of its empty clause, is
//! recorded in `kept_deleted`/`empty_deleted` and refused as a hint from
//! then on, as the plain checker would); errors are restated on the
//! proof's own step ordinals and ids (`relabel`), and the id bound is the
//! plain checker's on those ids, so a cube proof gets the plain verdict on
//! F_i, save a lemma on a selector, refused here.

use std::ops::Range;

use super::{CubeSummary, Lifted};
use crate::clauses::ID_SLACK;
use crate::error::CheckError;

/// One cube's proof in progress; dropping it forgets its lemmas.
pub struct CubeCheck<'a> {
    lifted: &'a mut Lifted,
    cube: usize,
    selector: i32,
    base: u64,
    units: Vec<i32>,
    /// T ids of the cube's selector clauses (its units' ids, lifted).
    group: Range<u64>,
    /// `base + k`: the cube formula's clause count.
    originals: u64,
    /// A lemma id `id` of the cube's proof is T id `offset + id - originals`.
    offset: u64,
    last_id: u64,
    /// The cube formula's clauses the proof deleted (T keeps them).
    kept_deleted: Vec<bool>,
    /// The first empty clause: its id in the proof, and T id of `{-s}`.
    empty: Option<(u64, u64)>,
    /// T keeps `{-s}` also when the proof deletes its empty clause.
    empty_deleted: bool,
    steps: u64,
    added: u64,
    deleted: u64,
    hints: u64,
    lits: Vec<i32>,
    lifted_hints: Vec<i64>,
}

impl<'a> CubeCheck<'a> {
    /// The check of cube `cube`'s proof, once `units` are found to be T's
    /// units for it.
    pub(super) fn start(lifted: &'a mut Lifted, cube: usize, units: &[i32]) -> Result<CubeCheck<'a>, CheckError> {
        let cubes = lifted.cubes();
        if cube >= cubes {
            return Err(CheckError::NoSuchCube { cube, cubes });
        }
        if lifted.derived[cube].is_some() {
            return Err(CheckError::CubeAgain { cube });
        }
        let group = lifted.split.groups[cube].clone();
        if group.end - group.start != units.len() as u64 {
            return Err(CheckError::UnitCount { cube, split: (group.end - group.start) as usize, given: units.len() });
        }
        let selector = lifted.split.selectors[cube];
        for (unit, (&given, id)) in units.iter().zip(group.clone()).enumerate() {
            let clause = lifted.checker.clause(id).expect("T's clauses are never deleted");
            // The clause is {-s, u} (split.rs), so this says u == given.
            if given == -selector || !clause.contains(&given) {
                return Err(CheckError::UnitMismatch { cube, unit: unit + 1, id, given, clause: clause.to_vec() });
            }
        }
        let base = lifted.split.base;
        let originals = base + units.len() as u64;
        let offset = lifted.checker.last_id();
        Ok(CubeCheck {
            cube,
            selector,
            base,
            units: units.to_vec(),
            group,
            originals,
            offset,
            last_id: originals,
            kept_deleted: vec![false; originals as usize + 1],
            empty: None,
            empty_deleted: false,
            steps: 0,
            added: 0,
            deleted: 0,
            hints: 0,
            lits: Vec::new(),
            lifted_hints: Vec::new(),
            lifted,
        })
    }

    /// Steps replayed so far (accepted or not).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// T id of lemma id `id` (> originals), if it can be one.
    fn lift(&self, id: u64) -> Option<u64> {
        (id - self.originals).checked_add(self.offset)
    }

    /// The proof's id for T id `t` (inverse of the id mapping).
    fn lower(&self, t: u64) -> u64 {
        if t <= self.base {
            t
        } else if self.group.contains(&t) {
            self.base + 1 + (t - self.group.start)
        } else if t > self.offset {
            t - self.offset + self.originals
        } else {
            t
        }
    }

    /// Asserts that the proof's original clause `id` is the cube formula's
    /// clause `id` (a unit, or T's clause), compared as sets.
    pub fn confirm_original(&mut self, id: u64, lits: &[i32]) -> Result<(), CheckError> {
        let mismatch = |reason: String| CheckError::OriginalMismatch { id, reason };
        if id == 0 || id > self.originals {
            return Err(mismatch(format!("not an original clause (the cube formula has {})", self.originals)));
        }
        if self.kept_deleted[id as usize] {
            return Err(mismatch("the clause was already deleted".to_string()));
        }
        if id <= self.base {
            return self.lifted.checker.confirm_original(id, lits);
        }
        let unit = self.units[(id - self.base - 1) as usize];
        if lits.is_empty() || lits.iter().any(|&lit| lit != unit) {
            return Err(mismatch(format!("the cube formula has [{unit}], the proof stream has {lits:?}")));
        }
        Ok(())
    }

    /// T id of hint `hint` (> 0), or the error the plain checker would give
    /// on reaching it: a clause the cube deleted but T keeps, or no clause.
    fn lift_hint(&self, step: u64, id: u64, hint: u64) -> Result<i64, CheckError> {
        if hint <= self.originals && self.kept_deleted[hint as usize]
            || self.empty_deleted && self.empty.is_some_and(|(empty, _)| empty == hint)
        {
            return Err(CheckError::DeletedHint { step, id, hint });
        }
        let t = match hint {
            h if h <= self.base => Some(h),
            h if h <= self.originals => Some(self.group.start + h - self.base - 1),
            h => self.lift(h),
        };
        t.and_then(|t| i64::try_from(t).ok()).ok_or(CheckError::UnknownHint { step, id, hint: hint as i64 })
    }

    /// An addition step of the cube's proof, checked as its lifted lemma.
    pub fn add(&mut self, id: u64, lits: &[i32], hints: &[i64]) -> Result<(), CheckError> {
        self.steps += 1;
        let step = self.steps;
        if id <= self.last_id {
            return Err(CheckError::IdNotIncreasing { step, id, previous: self.last_id });
        }
        if let Some(&lit) = lits.iter().find(|&&lit| self.lifted.split.cube_of(lit).is_some()) {
            return Err(CheckError::SelectorInProof { step, id, lit });
        }
        // The plain checker's bound, on the proof's own ids; T's bound is
        // looser (T's table is longer by `offset - originals`).
        let limit = (self.last_id + 1).saturating_mul(2).saturating_add(ID_SLACK);
        let Some(t) = self.lift(id).filter(|_| id <= limit) else {
            return Err(CheckError::TooLarge { step, id, what: "clause id", limit });
        };
        // The chain is cut before a hint T cannot take as is: if the checker
        // then finds the chain short, the plain checker would have reached
        // that hint and refused it; if not, it would have ignored it.
        let mut cut = None;
        let mut lifted_hints = std::mem::take(&mut self.lifted_hints);
        lifted_hints.clear();
        for &hint in hints {
            match if hint > 0 { self.lift_hint(step, id, hint as u64) } else { Ok(hint) } {
                Ok(t) => lifted_hints.push(t),
                Err(e) => {
                    cut = Some(e);
                    break;
                }
            }
        }
        self.lits.clear();
        self.lits.extend_from_slice(lits);
        self.lits.push(-self.selector);
        let checked = self.lifted.checker.add(t, &self.lits, &lifted_hints);
        self.lifted_hints = lifted_hints;
        match (checked, cut) {
            (Ok(()), _) => {}
            (Err(CheckError::MissingHint { .. }), Some(e)) => return Err(e),
            (Err(e), _) => return Err(self.relabel(e, step)),
        }
        self.last_id = id;
        self.added += 1;
        self.hints += hints.len() as u64;
        if lits.is_empty() && self.empty.is_none() {
            self.empty = Some((id, t));
        }
        Ok(())
    }

    /// Deletes clause `id`; one proof step.
    pub fn delete(&mut self, id: u64) -> Result<(), CheckError> {
        self.delete_all(&[id])
    }

    /// A deletion step. Originals and units stay in T; the empty clause's
    /// `{-s}` too, as the cube's result.
    pub fn delete_all(&mut self, ids: &[u64]) -> Result<(), CheckError> {
        self.steps += 1;
        let step = self.steps;
        for &id in ids {
            let kept = if (1..=self.originals).contains(&id) {
                Some(&mut self.kept_deleted[id as usize])
            } else if self.empty.is_some_and(|(empty, _)| empty == id) {
                Some(&mut self.empty_deleted)
            } else {
                None
            };
            match kept {
                Some(&mut true) => return Err(CheckError::DeleteTwice { step, id }),
                Some(flag) => *flag = true,
                None => match (id > self.originals).then(|| self.lift(id)).flatten() {
                    None => return Err(CheckError::DeleteUnknown { step, id }),
                    Some(t) => self.lifted.checker.delete(t).map_err(|e| self.relabel(e, step))?,
                },
            }
            self.deleted += 1;
        }
        Ok(())
    }

    /// Accepts only if the proof derived the empty clause by a checked step:
    /// T implies `-s`, which stays in T for `conclude`.
    pub fn finish(mut self) -> Result<CubeSummary, CheckError> {
        let (empty_clause_id, unit) = self.empty.ok_or(CheckError::NoEmptyClause { steps: self.steps })?;
        let unit_id = self.retire(Some(unit)).expect("the unit {-s} is never deleted");
        Ok(CubeSummary {
            cube: self.cube,
            selector: self.selector,
            unit_id,
            empty_clause_id,
            steps: self.steps,
            added: self.added,
            deleted: self.deleted,
            hints: self.hints,
        })
    }

    /// Forgets the cube's lemmas, keeping `unit` (a T id) as its result.
    fn retire(&mut self, unit: Option<u64>) -> Option<u64> {
        let lifted = &mut *self.lifted;
        let kept = lifted.checker.retire(self.offset + 1, unit);
        if let Some(id) = kept {
            lifted.derived[self.cube] = Some(id);
        }
        self.offset = lifted.checker.last_id();
        kept
    }

    /// A checker error on T ids, restated with the proof's step and ids.
    fn relabel(&self, e: CheckError, step: u64) -> CheckError {
        use CheckError::*;
        let low = |t: u64| self.lower(t);
        match e {
            InvalidLiteral { id, lit, .. } => InvalidLiteral { step, id: low(id), lit },
            TooLarge { id, what, limit, .. } => TooLarge { step, id: low(id), what, limit },
            IdNotIncreasing { id, previous, .. } => IdNotIncreasing { step, id: low(id), previous: low(previous) },
            UnknownHint { id, hint, .. } => {
                UnknownHint { step, id: low(id), hint: if hint > 0 { low(hint as u64) as i64 } else { hint } }
            }
            DeletedHint { id, hint, .. } => DeletedHint { step, id: low(id), hint: low(hint) },
            HintNotUnit { id, hint, unassigned, .. } => HintNotUnit { step, id: low(id), hint: low(hint), unassigned },
            HintSatisfied { id, hint, .. } => HintSatisfied { step, id: low(id), hint: low(hint) },
            MissingHint { id, .. } => MissingHint { step, id: low(id) },
            RatUnsupported { id, hint, .. } => RatUnsupported { step, id: low(id), hint },
            DeleteUnknown { id, .. } => DeleteUnknown { step, id: low(id) },
            DeleteTwice { id, .. } => DeleteTwice { step, id: low(id) },
            other => other,
        }
    }
}

impl Drop for CubeCheck<'_> {
    /// A cube left unfinished (refused or abandoned) derives nothing.
    fn drop(&mut self) {
        if self.offset < self.lifted.checker.last_id() {
            self.retire(None);
        }
    }
}
