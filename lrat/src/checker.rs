//! `Checker`: replays LRAT addition and deletion steps against the clause
//! store and accepts each addition only if its RUP hint chain holds.
//!
//! Invariants: the assignment is empty between calls (every step undoes its
//! trail, also when it fails); stored clauses hold no repeated literal, so a
//! hint clause's unassigned count is a count of distinct literals; the step
//! counter advances once per `add`, `delete` or `delete_all` call, so it is
//! the step's ordinal in the proof when the caller replays a proof in order.
//!
//! Semantics chosen where LRAT leaves room:
//! - a tautology (some l and -l) is accepted without looking at its hints;
//! - hints after the one that yields the conflict are ignored, as
//!   CaDiCaL's and lrat-check's proofs may carry them;
//! - an empty hint chain is a missing hint unless the clause is a tautology.

use crate::assignment::{Assignment, LitRefusal};
use crate::clauses::{ClauseStore, DeleteRefusal, Lookup};
use crate::dimacs;
use crate::error::CheckError;

/// Counts of a checked proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub original: u64,
    /// Original clauses appended after the formula (`append_original`).
    pub appended: u64,
    pub added: u64,
    pub deleted: u64,
    pub empty_clause_id: u64,
    /// Hints listed by the accepted addition steps.
    pub hints: u64,
}

pub struct Checker {
    store: ClauseStore,
    assignment: Assignment,
    original: u64,
    steps: u64,
    added: u64,
    deleted: u64,
    hints: u64,
    empty_clause_id: Option<u64>,
    /// Original clauses appended after the formula (`append_original`).
    appended: u64,
    /// The step's clause without repeats, reused across steps.
    clause: Vec<i32>,
}

/// Turns a refused literal of clause `id` at `step` into the error.
fn literal_error(step: u64, id: u64, (lit, refusal): (i32, LitRefusal)) -> CheckError {
    match refusal {
        LitRefusal::Invalid => CheckError::InvalidLiteral { step, id, lit: lit as i64 },
        LitRefusal::TooLarge { limit } => CheckError::TooLarge { step, id, what: "variable", limit },
    }
}

impl Checker {
    fn empty(vars: u32, clauses: usize, literals: usize) -> Checker {
        Checker {
            store: ClauseStore::with_capacity(clauses, literals),
            assignment: Assignment::new(vars),
            original: 0,
            steps: 0,
            added: 0,
            deleted: 0,
            hints: 0,
            empty_clause_id: None,
            appended: 0,
            clause: Vec::new(),
        }
    }

    /// Stores the next original clause (id = count so far + 1).
    fn push_original(&mut self, lits: &[i32]) -> Result<(), CheckError> {
        let id = self.original + 1;
        let outcome = self.assignment.assume_negation(lits, &mut self.clause);
        self.assignment.undo();
        if let Err((lit, _)) = outcome {
            return Err(CheckError::OriginalMismatch { id, reason: format!("literal {lit} is not a valid literal") });
        }
        self.store.push(id, &self.clause);
        self.original = id;
        Ok(())
    }

    /// Reads a DIMACS CNF ("p cnf V C" header, comments 'c', clauses ending
    /// in 0, may span lines). Clause i (1-based, in file order) gets id i.
    pub fn from_dimacs(bytes: &[u8]) -> Result<Checker, CheckError> {
        let mut formula = dimacs::Dimacs::new(bytes)?;
        let mut checker = Checker::empty(formula.vars(), formula.clauses() as usize, bytes.len() / 2);
        let mut lits = Vec::new();
        while formula.next_clause(&mut lits)? {
            checker.push_original(&lits)?;
        }
        Ok(checker)
    }

    /// Checker for the given original clauses (ids 1..=len).
    ///
    /// # Panics
    /// If a literal is 0 or `i32::MIN`; `try_from_clauses` reports it instead.
    pub fn from_clauses(clauses: &[Vec<i32>]) -> Checker {
        match Checker::try_from_clauses(clauses) {
            Ok(checker) => checker,
            Err(e) => panic!("Checker::from_clauses: {e}"),
        }
    }

    /// `from_clauses` that reports an invalid literal instead of panicking.
    pub fn try_from_clauses(clauses: &[Vec<i32>]) -> Result<Checker, CheckError> {
        let literals = clauses.iter().map(Vec::len).sum();
        let vars = clauses.iter().flatten().map(|lit| lit.unsigned_abs()).max().unwrap_or(0);
        // i32::MIN's magnitude is not a variable; push_original refuses it.
        let mut checker = Checker::empty(vars.min(i32::MAX as u32), clauses.len(), literals);
        for lits in clauses {
            checker.push_original(lits)?;
        }
        Ok(checker)
    }

    /// Number of original clauses.
    pub fn original_count(&self) -> u64 {
        self.original
    }

    /// Steps replayed so far (accepted or not).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Asserts that original clause `id` has exactly the literals `lits`,
    /// compared as sets. Catches a proof stream made for another formula.
    pub fn confirm_original(&mut self, id: u64, lits: &[i32]) -> Result<(), CheckError> {
        let mismatch = |reason: String| CheckError::OriginalMismatch { id, reason };
        if id == 0 || id > self.original {
            return Err(mismatch(format!("not an original clause (the formula has {})", self.original)));
        }
        let stored = match self.store.get(id) {
            Lookup::Live(stored) => stored,
            _ => return Err(mismatch("the clause was already deleted".to_string())),
        };
        let mut expected = stored.to_vec();
        expected.sort_unstable();
        let mut given = lits.to_vec();
        given.sort_unstable();
        given.dedup();
        if expected != given {
            return Err(mismatch(format!("the formula has {expected:?}, the proof stream has {given:?}")));
        }
        Ok(())
    }

    /// An original clause added after the formula was read (an incremental
    /// solver's later input: the blocking clause of a listed model). It gets
    /// `id`, above every id so far, and counts as an original: the proof is
    /// then a refutation of the formula *and* every appended clause, which
    /// the caller must name (it is what was refuted, so its hash is part of
    /// the verdict). Not a proof step.
    pub fn append_original(&mut self, id: u64, lits: &[i32]) -> Result<(), CheckError> {
        let previous = self.store.last_id();
        let mismatch = |reason: String| CheckError::OriginalMismatch { id, reason };
        if id <= previous {
            return Err(mismatch(format!("an appended original clause must come after id {previous}")));
        }
        if id > self.store.id_limit() {
            return Err(mismatch(format!("id beyond {}", self.store.id_limit())));
        }
        if self.empty_clause_id.is_some() {
            return Err(mismatch("appended after the empty clause".to_string()));
        }
        let outcome = self.assignment.assume_negation(lits, &mut self.clause);
        self.assignment.undo();
        if let Err((lit, _)) = outcome {
            return Err(mismatch(format!("literal {lit} is not a valid literal")));
        }
        if !self.store.push(id, &self.clause) {
            return Err(mismatch("the clause arena is full".to_string()));
        }
        self.appended += 1;
        Ok(())
    }

    /// An addition step: clause `lits` with id `id`, justified by the RUP
    /// chain `hints` (clause ids, in order). Negative (RAT) hints are refused.
    pub fn add(&mut self, id: u64, lits: &[i32], hints: &[i64]) -> Result<(), CheckError> {
        self.steps += 1;
        let step = self.steps;
        let previous = self.store.last_id();
        if id <= previous {
            return Err(CheckError::IdNotIncreasing { step, id, previous });
        }
        let limit = self.store.id_limit();
        if id > limit {
            return Err(CheckError::TooLarge { step, id, what: "clause id", limit });
        }
        let outcome = self.check_rup(step, id, lits, hints);
        self.assignment.undo();
        outcome?;
        if !self.store.push(id, &self.clause) {
            return Err(CheckError::TooLarge { step, id, what: "clause arena", limit: u32::MAX as u64 });
        }
        if self.clause.is_empty() && self.empty_clause_id.is_none() {
            self.empty_clause_id = Some(id);
        }
        self.added += 1;
        self.hints += hints.len() as u64;
        Ok(())
    }

    /// The RUP check proper; leaves the assignment for the caller to undo.
    fn check_rup(&mut self, step: u64, id: u64, lits: &[i32], hints: &[i64]) -> Result<(), CheckError> {
        let tautology = self
            .assignment
            .assume_negation(lits, &mut self.clause)
            .map_err(|refused| literal_error(step, id, refused))?;
        if tautology {
            return Ok(());
        }
        for &hint in hints {
            if hint <= 0 {
                return Err(if hint < 0 {
                    CheckError::RatUnsupported { step, id, hint }
                } else {
                    CheckError::UnknownHint { step, id, hint }
                });
            }
            let h = hint as u64;
            let clause = match self.store.get(h) {
                Lookup::Live(clause) => clause,
                Lookup::Deleted => return Err(CheckError::DeletedHint { step, id, hint: h }),
                Lookup::Absent => return Err(CheckError::UnknownHint { step, id, hint }),
            };
            // A hint must have at most one literal that is not false. That
            // literal may already be true (CaDiCaL's chains contain such
            // hints, and its own LRAT checker accepts them): the hint then
            // adds nothing, which is harmless.
            let mut unit = 0;
            let mut open = 0usize;
            for &lit in clause {
                if self.assignment.value(lit) >= 0 {
                    open += 1;
                    unit = lit;
                    if open > 1 {
                        break;
                    }
                }
            }
            match open {
                0 => return Ok(()),
                1 => {
                    if self.assignment.value(unit) == 0 {
                        self.assignment.set_true(unit);
                    }
                }
                _ => return Err(self.not_unit(step, id, h, clause)),
            }
        }
        Err(CheckError::MissingHint { step, id })
    }

    /// Cold path: the full diagnosis of a hint with several unassigned
    /// literals (the scan stopped early at the second one).
    fn not_unit(&self, step: u64, id: u64, hint: u64, clause: &[i32]) -> CheckError {
        let values = clause.iter().map(|&lit| self.assignment.value(lit));
        if values.clone().any(|v| v > 0) {
            return CheckError::HintSatisfied { step, id, hint };
        }
        let unassigned = values.filter(|&v| v == 0).count();
        CheckError::HintNotUnit { step, id, hint, unassigned }
    }

    /// Deletes clause `id` (original or derived); one proof step.
    pub fn delete(&mut self, id: u64) -> Result<(), CheckError> {
        self.delete_all(&[id])
    }

    /// Deletes every clause of `ids`, as one proof step (one deletion line).
    pub fn delete_all(&mut self, ids: &[u64]) -> Result<(), CheckError> {
        self.steps += 1;
        let step = self.steps;
        for &id in ids {
            match self.store.delete(id) {
                Ok(()) => self.deleted += 1,
                Err(DeleteRefusal::Unknown) => return Err(CheckError::DeleteUnknown { step, id }),
                Err(DeleteRefusal::AlreadyDeleted) => return Err(CheckError::DeleteTwice { step, id }),
            }
        }
        Ok(())
    }

    /// True once the empty clause has been derived by a checked step.
    pub fn refuted(&self) -> bool {
        self.empty_clause_id.is_some()
    }

    /// Accepts only if the empty clause has been derived; returns counts.
    pub fn finish(&self) -> Result<Summary, CheckError> {
        let empty_clause_id = self.empty_clause_id.ok_or(CheckError::NoEmptyClause { steps: self.steps })?;
        Ok(Summary {
            original: self.original,
            appended: self.appended,
            added: self.added,
            deleted: self.deleted,
            empty_clause_id,
            hints: self.hints,
        })
    }

    /// Literals in the clause arena, live or awaiting compaction.
    pub fn arena_len(&self) -> usize {
        self.store.arena_len()
    }

    /// Clause `id`'s literals (repeats removed) while it is live.
    pub(crate) fn clause(&self, id: u64) -> Option<&[i32]> {
        match self.store.get(id) {
            Lookup::Live(clause) => Some(clause),
            _ => None,
        }
    }

    /// The largest clause id added so far, original or derived.
    pub(crate) fn last_id(&self) -> u64 {
        self.store.last_id()
    }

    /// Forgets every clause id from `first` on, keeping live clause `keep`
    /// (if given) renumbered `first`: the clause set only shrinks, as by
    /// deletions, so nothing derivable afterwards was underivable before.
    /// The lifted check reuses a finished cube's ids this way.
    pub(crate) fn retire(&mut self, first: u64, keep: Option<u64>) -> Option<u64> {
        self.store.retire(first, keep)
    }
}
