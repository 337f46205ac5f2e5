//! The refinements of one partial to the level above, counted by the
//! penalty they add: met one by one by a search over the former `+` cells
//! (levels 2 and 3; at levels 5 and 6 with `--via chains`, their `+`
//! components tallied for the chain polynomials), or counted by the program
//! of `lift` (levels 4 to 6). The road's entry (`super`) lists the partials
//! and sums these counts; the reasoning that makes the search exact is in
//! its header.
//!
//! Invariant relied on: whatever counts a refinement is checked against the
//! plain validator for the picks `Judged` names, so a search or program that
//! miscounts its own charges is caught by a re-judged refinement, not
//! trusted.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use num_bigint::BigUint;

use crate::counting::basics::Via;
use crate::counting::chains::components::{combine, Shape, Walk, PLUS};
use crate::counting::extension::covers::Covers;
use crate::counting::extension::lift::Lift;
use crate::counting::hashing::KeyHasher;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::validation::evaluate;

/// The level whose partials are refined to `level` (2..=6): the level below
/// up to level 3, level 3 for levels 4 to 6 (`lift`). Lifted from level 3
/// with the cells grown greedily (`order::fewest_open`), the levels above cost
/// the level-3 listing and a program per class (n = 12 level 6: 800 classes
/// lifted in 70 s); from level 4 they list every level-4 partial (n = 11:
/// 16.3 M; n = 12: 18.3 G) and measured slower wherever both ran
/// (docs/RESULTS.md, "Levels 4 to 6 by lifting").
pub fn source(level: u8) -> u8 {
    (level - 1).min(3)
}

/// Which refinements the validator re-judges. At levels 2 and 3 (the
/// search): every one, or (by penalty, where n = 8 level 3 at the minimum + 2
/// has 518,442, and judging each would cost many times the search) one in
/// `SAMPLE`, with the first one of every partial. At levels 4..6 (the lift,
/// which does not meet refinements one by one): one drawn back from every
/// partial, or from one partial in `SAMPLE`. The sample is there to catch a
/// program that miscounts its own charges; the counts themselves are
/// confirmed by the level's sweep or the chains, the other road.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Judged {
    Every,
    Sample,
}

pub(super) const SAMPLE: u64 = crate::options::EXTENSION_SAMPLE.default;

/// The refinements to level k of a partial of level `from` (`source(k)`,
/// or 4 for levels 5 and 6 by `lift`) of penalty `p` to partials of penalty
/// at most `bound`, counted by the penalty they add (index `0..=bound -
/// p`); as they are met, those `judged` picks are re-judged by the
/// validator.
pub(super) fn refinements(
    hex: &Hexagon,
    (from, level): (u8, u8),
    values: &[u8],
    p: usize,
    bound: usize,
    (judged, via): (Judged, Via),
) -> Result<Vec<BigUint>, HexError> {
    match (level, via) {
        (5.., Via::Chains) if from == 3 => chained(hex, level, values, (p, bound - p)),
        (5.., Via::Chains) => {
            Err(HexError::Usage(format!("--via chains refines level-3 partials, not level-{from} ones")))
        }
        (4.., _) => lifted(hex, (from, level), values, (p, bound - p), judged),
        _ => {
            let mut added = vec![0u64; bound - p + 1];
            let former = FormerPlus::new(hex, level, values);
            searched(hex, level, (values, &former), (p, bound - p), judged, |_, extra| added[extra] += 1)?;
            Ok(added.into_iter().map(BigUint::from).collect())
        }
    }
}

/// The refinements to `level` (2..=4) of a partial of the level below of
/// penalty `p` that add at most `allowance`, met one by one by the search:
/// `each(labels, added)` for every one, `labels[i]` the label of the `i`-th
/// former `+` cell (`former`, built from `values` by the caller, who may
/// need it too); those `judged` picks are re-judged by the validator as
/// they are met.
fn searched(
    hex: &Hexagon,
    level: u8,
    (values, former): (&[u8], &FormerPlus),
    (p, allowance): (usize, usize),
    judged: Judged,
    mut each: impl FnMut(&[u8], usize),
) -> Result<(), HexError> {
    let (mut met, mut wrong) = (0u64, None);
    let mut meet = |labels: &[u8], extra: usize| {
        met += 1;
        if judged == Judged::Every || met % SAMPLE == 1 {
            let mut refined = values.to_vec();
            for (&cell, &label) in former.cells.iter().zip(labels) {
                refined[cell] = label;
            }
            let judged = Partial::new(hex.side(), level, refined).map(|partial| evaluate(hex, &partial));
            if !matches!(judged, Ok(j) if j.is_valid() && j.penalty == p + extra) {
                wrong = Some(p + extra);
            }
        }
        each(labels, extra);
    };
    // Adding nothing, the refinements are exact covers (`covers`), which
    // that search finds with far fewer dead ends than this one.
    if allowance == 0 {
        Covers::new(&former.neighbours, level, level + 1).each(&mut |labels| meet(labels, 0));
    } else {
        Search::new(former, level, allowance).descend(0, 0, &mut meet);
    }
    match wrong {
        Some(q) => Err(HexError::Internal(format!("a refinement the search counted is not valid with penalty {q}"))),
        None => Ok(()),
    }
}

/// Levels 5 and 6 without `lift`: the level-4 refinements of a level-3
/// partial of penalty `p` met one by one (the search; the validator
/// re-judges one in `SAMPLE`, since they run to a billion at n = 12), each
/// one's `+` components tallied by shape, and the tallies counted by the
/// chain polynomials (`chains::combine`), as the chains road counts the
/// listed level-4 partials. The components are walked on the former `+`
/// cells alone, the only cells a refinement labels `+`.
fn chained(hex: &Hexagon, level: u8, values: &[u8], (p, allowance): (usize, usize)) -> Result<Vec<BigUint>, HexError> {
    let former = FormerPlus::new(hex, 4, values);
    let mut walk = Walk::new(former.cells.len());
    let (mut plus, mut shapes) = (Vec::new(), Vec::new());
    let mut tallies: Vec<HashMap<Vec<Shape>, u64, BuildHasherDefault<KeyHasher>>> =
        vec![HashMap::default(); allowance + 1];
    let mut failed = None;
    searched(hex, 4, (values, &former), (p, allowance), Judged::Sample, |labels, extra| {
        plus.clear();
        plus.extend((0..labels.len()).filter(|&i| labels[i] == PLUS));
        shapes.clear();
        let walked = walk.components(
            &plus,
            |i| former.neighbours[i].iter().copied().filter(|&j| labels[j] == PLUS),
            |_, shape| shapes.push(shape),
        );
        if let Err(i) = walked {
            failed = Some(HexError::Internal(format!("`+` cell {} has more than two `+` neighbours", former.cells[i])));
            return;
        }
        shapes.sort_unstable();
        match tallies[extra].get_mut(shapes.as_slice()) {
            Some(n) => *n += 1,
            None => drop(tallies[extra].insert(shapes.clone(), 1)),
        }
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    let groups: HashMap<(usize, Vec<Shape>), u64> = tallies
        .into_iter()
        .enumerate()
        .flat_map(|(extra, tally)| tally.into_iter().map(move |(shapes, n)| ((p + extra, shapes), n)))
        .collect();
    Ok(combine(level, p + allowance, &groups).split_off(p))
}

/// The cells a refinement to `level` may relabel, the level below's `+`
/// cells (stored as `level`), in index order, and each one's neighbours
/// among them by position.
struct FormerPlus {
    cells: Vec<usize>,
    neighbours: Vec<Vec<usize>>,
}

impl FormerPlus {
    fn new(hex: &Hexagon, level: u8, values: &[u8]) -> FormerPlus {
        let cells: Vec<usize> = (0..values.len()).filter(|&c| values[c] == level).collect();
        let position = |c: usize| cells.binary_search(&c).ok();
        let neighbours =
            cells.iter().map(|&c| hex.neighbours(c).iter().filter_map(|&u| position(u)).collect()).collect();
        FormerPlus { cells, neighbours }
    }
}

/// The search over the labellings of the former `+` cells (positions in
/// index order; `earlier[i]` are the positions `< i` next to position `i`)
/// with `new` (the level's own value, stored as the level below's `+`) or
/// `plus` (the level's `+`).
struct Search {
    new: u8,
    plus: u8,
    earlier: Vec<Vec<usize>>,
    /// `closes[i]`: positions whose last neighbour is position `i` (or that
    /// have no later neighbour, at their own position): checked there.
    closes: Vec<Vec<usize>>,
    allowed: usize,
    labels: Vec<u8>,
    /// Neighbours labelled `new` so far, per position.
    seen_new: Vec<usize>,
}

impl Search {
    fn new(former: &FormerPlus, level: u8, allowed: usize) -> Search {
        let (new, plus) = (level, level + 1);
        // Index order: grown greedily, as `lift` places them, measured no
        // faster (n = 11 level 6 `--via chains`: 9.1 s against 9.0 s); the
        // search meets every consistent labelling of the cells placed so
        // far, not one per state, so a narrow frontier buys it little.
        let neighbours = &former.neighbours;
        let earlier =
            neighbours.iter().enumerate().map(|(i, ns)| ns.iter().copied().filter(|&j| j < i).collect()).collect();
        let len = neighbours.len();
        let mut closes = vec![Vec::new(); len];
        for (i, ns) in neighbours.iter().enumerate() {
            closes[ns.iter().copied().max().unwrap_or(i).max(i)].push(i);
        }
        Search { new, plus, earlier, closes, allowed, labels: vec![0; len], seen_new: vec![0; len] }
    }

    /// Calls `found(labels, added)` for every labelling from position `i` on
    /// that adds at most `allowed` in all.
    fn descend(&mut self, i: usize, added: usize, found: &mut impl FnMut(&[u8], usize)) {
        if i == self.labels.len() {
            found(&self.labels, added);
            return;
        }
        for label in [self.new, self.plus] {
            let mut cost = added;
            self.labels[i] = label;
            self.seen_new[i] = 0;
            for k in 0..self.earlier[i].len() {
                let j = self.earlier[i][k];
                match (label == self.new, self.labels[j] == self.new) {
                    (true, true) => cost += 1,
                    (true, false) => {
                        self.seen_new[j] += 1;
                        cost += usize::from(self.seen_new[j] >= 2);
                    }
                    (false, true) => {
                        self.seen_new[i] += 1;
                        cost += usize::from(self.seen_new[i] >= 2);
                    }
                    (false, false) => {}
                }
            }
            let supported = self.closes[i].iter().all(|&j| self.labels[j] == self.new || self.seen_new[j] >= 1);
            if cost <= self.allowed && supported {
                self.descend(i + 1, cost, found);
            }
            if label == self.new {
                for k in 0..self.earlier[i].len() {
                    let j = self.earlier[i][k];
                    if self.labels[j] == self.plus {
                        self.seen_new[j] -= 1;
                    }
                }
            }
        }
    }
}

/// Levels 4 to 6: the refinements of a level-3 partial, or (levels 5 and 6) a level-4
/// one, of penalty `p` by the penalty they add, counted by `lift`; for the partials `judged` picks (at
/// the minimum every one, else one in `SAMPLE`, by a hash of the partial so
/// that the pick does not depend on how the listing was split), one
/// refinement of the least penalty added is drawn back and re-judged.
fn lifted(
    hex: &Hexagon,
    (from, level): (u8, u8),
    values: &[u8],
    (p, allowance): (usize, usize),
    judged: Judged,
) -> Result<Vec<BigUint>, HexError> {
    let lift = Lift::new(hex, from, level, values)?;
    let mut hash = KeyHasher::default();
    hash.write(values);
    let picked = judged == Judged::Every || hash.finish() % SAMPLE == 0;
    if !picked {
        return Ok(lift.counts(allowance));
    }
    let (counts, drawn) = lift.witness(allowance)?;
    if let Some(labels) = drawn {
        let extra = counts.iter().position(|c| *c != BigUint::ZERO).expect("drawn from a count");
        let mut refined = values.to_vec();
        for (cell, value) in labels {
            refined[cell] = value;
        }
        let judged = Partial::new(hex.side(), level, refined).map(|partial| evaluate(hex, &partial));
        if !matches!(judged, Ok(j) if j.is_valid() && j.penalty == p + extra) {
            return Err(HexError::Internal(format!(
                "a level-{level} refinement the program counted is not valid with penalty {}",
                p + extra
            )));
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counting::Count;

    /// At allowance 0 the exact covers (`covers`) are the labellings the
    /// index-order search meets, one for one, for every partial of the level
    /// below up to two above its minimum (n = 4..6, levels 2..4).
    #[test]
    fn the_covers_are_the_labellings_that_add_nothing() {
        let mut compared = 0;
        for n in 4..=6 {
            let hex = Hexagon::new(n).unwrap();
            for level in 2..=4u8 {
                let bound = Count::new(&hex, level - 1).minimum().unwrap() + 2;
                Count::new(&hex, level - 1)
                    .for_each_partial(bound, |values, _| {
                        let former = FormerPlus::new(&hex, level, values);
                        let mut searched = Vec::new();
                        Search::new(&former, level, 0).descend(0, 0, &mut |labels, _| searched.push(labels.to_vec()));
                        let mut covered = Vec::new();
                        Covers::new(&former.neighbours, level, level + 1)
                            .each(&mut |labels| covered.push(labels.to_vec()));
                        searched.sort();
                        covered.sort();
                        assert_eq!(covered, searched, "n={n} level {level}: {values:?}");
                        compared += usize::from(!covered.is_empty());
                    })
                    .unwrap();
            }
        }
        assert!(compared > 100, "only {compared} partials had a labelling to compare");
    }
}
