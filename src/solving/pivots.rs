//! Resolution pivots of a proof prefix: the variables a refutation's first
//! derivations resolve on, weighted toward short lemmas.
//!
//! A split variable is good when the proof below each of its values is
//! smaller than the proof above it. Counting where a variable occurs in
//! learned clauses (`prefix`'s first score) sees what the solver keeps, not
//! what it reasons with; the pivots of the derivations see the reasoning
//! itself: each derived clause's LRAT hints replayed as a resolution chain
//! (last hint first, as a trail is unwound) name the variables eliminated
//! on the way, and a variable resolved on in many short lemmas is one the
//! proof keeps case-splitting on implicitly. Weighting a pivot by
//! `1 / len^1.5` of its lemma favours the lemmas that prune most (the score
//! proof-prefix partitioners use).
//!
//! Nothing here is trusted: the score only chooses which variable a tree
//! splits on; the tree's cover and every leaf's refutation are checked as
//! for any other split.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Pivot weights per variable (index = variable), filled by a `Pivots` tracer.
pub(super) type Weights = Rc<RefCell<Vec<f64>>>;

/// The `cadical_sys::ProofTracer` that replays every derivation's hints.
pub(super) struct Pivots {
    clauses: HashMap<i64, Vec<i32>>,
    weights: Weights,
}

impl Pivots {
    pub(super) fn new(weights: Weights) -> Pivots {
        Pivots { clauses: HashMap::new(), weights }
    }
}

impl cadical_sys::ProofTracer for Pivots {
    fn add_original_clause(&mut self, id: i64, _redundant: bool, clause: &[i32], _restored: bool) {
        self.clauses.insert(id, clause.to_vec());
    }

    fn add_derived_clause(&mut self, id: i64, _redundant: bool, _witness: i32, clause: &[i32], antecedents: &[i64]) {
        if !clause.is_empty() {
            let weight = 1.0 / (clause.len() as f64).powf(1.5);
            // Literals of the resolvent so far; a literal meeting its
            // complement is a pivot. Chains are short, so a vector serves.
            let mut open: Vec<i32> = Vec::new();
            let mut weights = self.weights.borrow_mut();
            for hint in antecedents.iter().rev() {
                for &lit in self.clauses.get(hint).map(Vec::as_slice).unwrap_or(&[]) {
                    if let Some(at) = open.iter().position(|&l| l == -lit) {
                        open.swap_remove(at);
                        let var = lit.unsigned_abs() as usize;
                        if weights.len() <= var {
                            weights.resize(var + 1, 0.0);
                        }
                        weights[var] += weight;
                    } else if !open.contains(&lit) {
                        open.push(lit);
                    }
                }
            }
        }
        self.clauses.insert(id, clause.to_vec());
    }

    fn delete_clause(&mut self, id: i64, _redundant: bool, _clause: &[i32]) {
        self.clauses.remove(&id);
    }

    super::ignore_other_steps!();
}
