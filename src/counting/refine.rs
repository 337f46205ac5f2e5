//! Level 4 by refinement: a second road to the level-4 minimum and its count,
//! apart from the level-4 table and the level-4 sweep.
//!
//! Invariants relied on (docs/PROBLEM.md, section 4):
//! - every valid level-4 partial of penalty `B` truncates to a valid level-3
//!   partial of penalty `P3 <= B` (refining never lowers a penalty), and a
//!   level-3 partial has one refinement per labelling of its `+` cells with
//!   4 or `+`; so the level-4 partials of penalty `B` are, without repeats,
//!   the refinements adding exactly `B - P3` of the level-3 partials of
//!   penalty `P3 <= B`;
//! - a refinement keeps every term of the level-3 penalty and adds only
//!   terms on edges between two former `+` cells: a 4-4 edge costs 1, and a
//!   new `+` cell with `m` neighbours labelled 4 costs `m - 1` and is valid
//!   only when `m >= 1` (a 4 already sees 1, 2 and 3, as a `+` did).
//!
//! So a depth-first search over the former `+` cells, in index order, that
//! charges those terms as soon as both ends of an edge are labelled and cuts a
//! branch once the added penalty passes what is allowed, or once a new `+`
//! cell has all its neighbours labelled and none of them is a 4, meets each
//! wanted refinement once. That reasoning is not trusted on its own: every
//! listed level-3 partial and every refinement counted is re-judged by the
//! plain validator (`validation::evaluate`), and the count is compared with
//! the level-4 sweep in `tests/refinement.rs`. The level-3 partials are
//! listed with the level-3 table (`enumerate`); nothing of level 4 is shared.

use super::basics::{check_bound, Settings};
use super::enumerate::for_each_partial;
use super::frontier::Schedule;
use super::ladder::Ladder;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::validation::evaluate;

/// The stored value of `+` at level 3, and the labels of a refinement.
const PLUS3: u8 = 4;
const FOUR: u8 = 4;
const PLUS4: u8 = 5;

/// What the refinement road found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refined {
    /// The least level-4 penalty.
    pub minimum: usize,
    /// Level-4 partials of that penalty.
    pub count: u64,
    /// Level-3 partials of penalty at most the minimum that were refined.
    pub level3_partials: usize,
}

/// The level-4 minimum and its count: bounds from the level-3 minimum up
/// are tried until some refinement reaches one (the level-4 minimum is at
/// least the level-3 one, so none below it is skipped).
pub fn level4_by_refinement(hex: &Hexagon, settings: &Settings) -> Result<Refined, HexError> {
    let schedule = Schedule::new(hex, 3)?;
    let (mut ladder, mut bound) = Ladder::to_minimum(hex, 3, settings)?;
    loop {
        if bound > ladder.bound() {
            check_bound(bound)?;
            ladder = ladder.rebuilt(3, bound)?;
        }
        // A table built for a larger bound serves any smaller one (`ladder`).
        let table = ladder.guide(3).expect("the ladder reaches level 3");
        let mut found = Ok(Refined { minimum: bound, count: 0, level3_partials: 0 });
        for_each_partial(&schedule, table, bound, |values, penalty| {
            if let Ok(refined) = found.as_mut() {
                match refinements(hex, values, penalty, bound) {
                    Ok(count) => {
                        refined.count += count;
                        refined.level3_partials += 1;
                    }
                    Err(e) => found = Err(e),
                }
            }
        });
        let found = found?;
        if found.count > 0 {
            return Ok(found);
        }
        bound += 1;
    }
}

/// The refinements of a level-3 partial of penalty `p3` to level-4 partials
/// of penalty exactly `bound`, each re-judged by the validator.
fn refinements(hex: &Hexagon, values: &[u8], p3: usize, bound: usize) -> Result<u64, HexError> {
    let judged = evaluate(hex, &Partial::new(hex.side(), 3, values.to_vec())?);
    if !judged.is_valid() || judged.penalty != p3 {
        return Err(HexError::Internal(format!("a listed level-3 partial is not valid with penalty {p3}")));
    }
    let mut search = Search::new(hex, values, bound - p3);
    search.descend(0, 0);
    let mut refined = values.to_vec();
    for labels in &search.found {
        for (&cell, &label) in search.cells.iter().zip(labels) {
            refined[cell] = label;
        }
        let judged = evaluate(hex, &Partial::new(hex.side(), 4, refined.clone())?);
        if !judged.is_valid() || judged.penalty != bound {
            return Err(HexError::Internal(format!("a refinement the search counted is not valid with penalty {bound}")));
        }
    }
    Ok(search.found.len() as u64)
}

/// The search over the labellings of the former `+` cells (positions in
/// index order; `earlier[i]` are the positions `< i` next to position `i`).
struct Search {
    cells: Vec<usize>,
    earlier: Vec<Vec<usize>>,
    /// `closes[i]`: positions whose last neighbour is position `i` (or that
    /// have no later neighbour, at their own position): checked there.
    closes: Vec<Vec<usize>>,
    allowed: usize,
    labels: Vec<u8>,
    /// Neighbours labelled 4 so far, per position.
    fours: Vec<usize>,
    found: Vec<Vec<u8>>,
}

impl Search {
    fn new(hex: &Hexagon, values: &[u8], allowed: usize) -> Search {
        let cells: Vec<usize> = (0..values.len()).filter(|&c| values[c] == PLUS3).collect();
        let position = |c: usize| cells.binary_search(&c).ok();
        let neighbours: Vec<Vec<usize>> = cells.iter().map(|&c| hex.neighbours(c).iter().filter_map(|&u| position(u)).collect()).collect();
        let earlier = neighbours.iter().enumerate().map(|(i, ns)| ns.iter().copied().filter(|&j| j < i).collect()).collect();
        let mut closes = vec![Vec::new(); cells.len()];
        for (i, ns) in neighbours.iter().enumerate() {
            closes[ns.iter().copied().max().unwrap_or(i).max(i)].push(i);
        }
        let len = cells.len();
        Search { cells, earlier, closes, allowed, labels: vec![0; len], fours: vec![0; len], found: Vec::new() }
    }

    fn descend(&mut self, i: usize, added: usize) {
        if i == self.cells.len() {
            if added == self.allowed {
                self.found.push(self.labels.clone());
            }
            return;
        }
        for label in [FOUR, PLUS4] {
            let mut cost = added;
            self.labels[i] = label;
            self.fours[i] = 0;
            for k in 0..self.earlier[i].len() {
                let j = self.earlier[i][k];
                match (label, self.labels[j]) {
                    (FOUR, FOUR) => cost += 1,
                    (FOUR, _) => {
                        self.fours[j] += 1;
                        cost += usize::from(self.fours[j] >= 2);
                    }
                    (_, FOUR) => {
                        self.fours[i] += 1;
                        cost += usize::from(self.fours[i] >= 2);
                    }
                    _ => {}
                }
            }
            let supported = self.closes[i].iter().all(|&j| self.labels[j] == FOUR || self.fours[j] >= 1);
            if cost <= self.allowed && supported {
                self.descend(i + 1, cost);
            }
            if label == FOUR {
                for k in 0..self.earlier[i].len() {
                    let j = self.earlier[i][k];
                    if self.labels[j] == PLUS4 {
                        self.fours[j] -= 1;
                    }
                }
            }
        }
    }
}
