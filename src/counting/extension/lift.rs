//! Levels 4 to 6 from one partial of a lower level (the base, 3 or 4): how
//! many refinements add each penalty, by a dynamic program over its `+`
//! cells, for refinements too many to meet one by one (n = 11 level 6: some
//! 10^16 per level-4 partial); apart from the sweep and `chains`.
//!
//! Invariants relied on (docs/PROBLEM.md, section 4; `extension`'s header), for
//! a valid partial of the base level `b` refined to level `k > b`:
//! - each `+` cell becomes one of `b+1..=k` or, below level 6, the level's
//!   `+`; cells of value `<= b` keep their terms, and a former `+` cell keeps
//!   its terms for the values `1..=b`, since those only look at lower values,
//!   which did not change;
//! - so the refinement adds only terms on edges between two former `+` cells:
//!   equal values (two level-k `+` cells excepted: their edge is not decided
//!   yet), and a cell seeing a lower value for the second time;
//! - a former `+` cell already sees `1..=b`, so it is valid when its label `v`
//!   sees, among the former `+` cells, every value from `b+1` to `v - 1`
//!   (`v - 1 = k` for the level's `+`).
//!
//! The program places the former `+` cells one by one; its state is the
//! label and what it has seen of each placed cell that still has a neighbour
//! to come, with a count per penalty added so far. A cell is judged when its
//! last neighbour is placed. The program counts the same in any order of the
//! cells (each edge is charged once, when its later end is placed, and each
//! cell is judged once, when it has all its neighbours); the order is a
//! matter of speed only, and the tests compare orders. In index order a row
//! of `+` cells is open at once; the `+` cells of a level-4 partial (paths
//! and cycles) are placed breadth first instead, which keeps at most three
//! open (n = 8 level 6 from level 4: the program went from most of the
//! road's time to under 1 % of it). `refinements` has the validator re-judge refinements drawn back
//! from the program's layers (`witness`), so a wrong charge here is caught.

use std::ops::Range;

use num_bigint::BigUint;

use crate::counting::extension::layer::LiftLayer;
use crate::counting::extension::order;
use crate::counting::extension::trail::{Reached, Trail, TRAIL_BYTES};
use crate::counting::tally::{Overflow, Tally};
use crate::error::HexError;
use crate::geometry::Hexagon;

/// Bits of one open cell in a state: the label's index (0 for `b+1`, 1 for
/// `b+2`, ...) in two bits, then whether it has seen `b+1`, `b+2`, `b+3`.
const SLOT_BITS: u32 = 5;

/// The base levels a lift starts from: with `b >= 3` a refinement has at most
/// four labels (`b+1..=7`), two bits of a slot.
const BASES: std::ops::RangeInclusive<u8> = 3..=4;

/// Open cells a `u128` state holds.
const MAX_OPEN: usize = (128 / SLOT_BITS) as usize;

/// A refinement as `(cell, value)` pairs.
pub type Filling = Vec<(usize, u8)>;

/// The former `+` cells of one partial and the order they are placed in.
pub struct Lift {
    /// The level of the partial refined; its `+` is `base + 1`.
    base: u8,
    level: u8,
    /// The cells in the order they are placed (position `i` is `cells[i]`).
    cells: Vec<usize>,
    steps: Vec<Step>,
    /// The slot lists of every step end to end: one allocation, not three a
    /// step, since there are millions of partials.
    slots: Vec<usize>,
    /// The `left` lists of every step end to end.
    left: Vec<u8>,
}

/// Placing position `i`: its slot lists, as ranges of `Lift::slots`.
struct Step {
    /// Slots (in the state before) of its placed neighbours.
    earlier: Range<usize>,
    /// Slots of the extended state (the state before, then `i`) that stay open, in order.
    staying: Range<usize>,
    /// Slots of the extended state judged now: their last neighbour is `i`.
    closing: Range<usize>,
    /// Per slot of `staying`, in `Lift::left`: its cell's neighbours still to
    /// be placed, each of which can show it one value at most.
    left: Range<usize>,
    /// Slots in the state before.
    before: usize,
}

#[inline]
fn code(state: u128, slot: usize) -> u8 {
    ((state >> (slot as u32 * SLOT_BITS)) & 0x1f) as u8
}

/// Whether a cell of this code sees every value from `b+1` to below its own.
#[inline]
fn supported(code: u8) -> bool {
    unseen(code) == 0
}

/// How many of the values from `b+1` to below its own a cell of this code has not seen.
#[inline]
fn unseen(code: u8) -> u32 {
    let needs = (1u8 << (code & 3)) - 1;
    (needs & !(code >> 2)).count_ones()
}

impl Lift {
    /// The program for the `+` cells (value `base + 1`) of a valid partial of
    /// level `base` (3 or 4), refined to `level` (above it, at most 6);
    /// `refinements::source` says which base serves which level, and why.
    pub fn new(hex: &Hexagon, base: u8, level: u8, values: &[u8]) -> Result<Lift, HexError> {
        if !BASES.contains(&base) || level <= base || level > 6 {
            return Err(HexError::Internal(format!("no lift from level {base} to level {level}")));
        }
        let order = order::for_lift(hex, values, base);
        Lift::in_order(hex, base, level, values, order)
    }

    /// The program placing the `+` cells of `values` in the order `cells`,
    /// which must hold each of them once.
    fn in_order(hex: &Hexagon, base: u8, level: u8, values: &[u8], cells: Vec<usize>) -> Result<Lift, HexError> {
        let mut by_cell: Vec<(usize, usize)> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        by_cell.sort_unstable();
        if !by_cell.iter().map(|&(c, _)| c).eq((0..values.len()).filter(|&c| values[c] == base + 1)) {
            return Err(HexError::Internal("the lift's order is not the `+` cells, each once".into()));
        }
        let position = |c: usize| by_cell.binary_search_by_key(&c, |&(cell, _)| cell).ok().map(|k| by_cell[k].1);
        let neighbours = |i: usize| hex.neighbours(cells[i]).iter().filter_map(|&u| position(u));
        let last: Vec<usize> = (0..cells.len()).map(|i| neighbours(i).max().unwrap_or(i).max(i)).collect();
        let mut open: Vec<usize> = Vec::with_capacity(MAX_OPEN + 1);
        let mut steps = Vec::with_capacity(cells.len());
        let mut slots = Vec::with_capacity(cells.len() * 4);
        let mut left = Vec::with_capacity(cells.len() * 2);
        for i in 0..cells.len() {
            let range = |slots: &mut Vec<usize>, from: &mut dyn Iterator<Item = usize>| {
                let start = slots.len();
                slots.extend(from);
                start..slots.len()
            };
            let earlier = range(
                &mut slots,
                &mut open.iter().enumerate().filter(|(_, &j)| neighbours(i).any(|u| u == j)).map(|(slot, _)| slot),
            );
            let before = open.len();
            open.push(i);
            let closing = range(&mut slots, &mut (0..=before).filter(|&s| last[open[s]] <= i));
            let staying = range(&mut slots, &mut (0..=before).filter(|&s| last[open[s]] > i));
            let start = left.len();
            left.extend(slots[staying.clone()].iter().map(|&s| neighbours(open[s]).filter(|&u| u > i).count() as u8));
            open.retain(|&j| last[j] > i);
            if open.len() > MAX_OPEN {
                return Err(HexError::Internal(format!(
                    "more than {MAX_OPEN} open `+` cells in one level-{base} partial"
                )));
            }
            steps.push(Step { earlier, staying, closing, left: start..left.len(), before });
        }
        Ok(Lift { base, level, cells, steps, slots, left })
    }

    /// Labels a cell can take: `b+1..=k` and the level's `+` (`k + 1`; at
    /// level 6 that is 7, decided).
    fn labels(&self) -> u8 {
        self.level - self.base + 1
    }

    /// The state after position `i` labelled `label` from `state`, and the
    /// penalty that adds; `None` when a cell judged now lacks support.
    fn place(&self, i: usize, state: u128, label: u8) -> Option<(u128, usize)> {
        let step = &self.steps[i];
        let mut codes = [0u8; MAX_OPEN + 1];
        for (slot, c) in codes.iter_mut().enumerate().take(step.before) {
            *c = code(state, slot);
        }
        let mut own_seen = 0u8;
        let mut charge = 0;
        // Two of the level's `+` cells: their edge is decided at a later level.
        let plus = (self.level < 6).then(|| self.level - self.base);
        let undecided = |a: u8, b: u8| a == b && Some(a) == plus;
        for &slot in &self.slots[step.earlier.clone()] {
            let other = codes[slot] & 3;
            if other == label && !undecided(other, label) {
                charge += 1;
            } else if other < label {
                charge += usize::from(own_seen & (1 << other) != 0);
                own_seen |= 1 << other;
            } else if label < other {
                let bit = 1u8 << (label + 2);
                charge += usize::from(codes[slot] & bit != 0);
                codes[slot] |= bit;
            }
        }
        codes[step.before] = label | (own_seen << 2);
        if !self.slots[step.closing.clone()].iter().all(|&slot| supported(codes[slot])) {
            return None;
        }
        // A cell that lacks more values than it has neighbours to come can
        // never be supported: its states are dropped now, not when it closes
        // (every refinement they lead to is one the closing check refuses).
        if !self.slots[step.staying.clone()]
            .iter()
            .zip(&self.left[step.left.clone()])
            .all(|(&slot, &left)| unseen(codes[slot]) <= u32::from(left))
        {
            return None;
        }
        let next = self.slots[step.staying.clone()]
            .iter()
            .enumerate()
            .fold(0u128, |acc, (s, &slot)| acc | (u128::from(codes[slot]) << (s as u32 * SLOT_BITS)));
        Some((next, charge))
    }

    /// The layer after position `i` from the one before it, into `next`.
    fn step<T: Tally>(
        &self,
        i: usize,
        layer: &LiftLayer<T>,
        allowance: usize,
        next: &mut LiftLayer<T>,
    ) -> Result<(), Overflow> {
        let width = allowance + 1;
        next.clear();
        for (state, counts) in layer.iter(width) {
            for label in 0..self.labels() {
                let Some((s, charge)) = self.place(i, state, label).filter(|&(_, charge)| charge <= allowance) else {
                    continue;
                };
                // A state none of whose counts stays within the allowance is not made: it would
                // only carry zeros to the end.
                if counts[..width - charge].iter().all(Tally::is_zero) {
                    continue;
                }
                let tally = next.slot(s, width);
                for added in 0..width - charge {
                    tally[added + charge].try_add(&counts[added])?;
                }
            }
        }
        Ok(())
    }

    /// The program's last layer, from the empty state; with a `trail`, what
    /// the layers it wants reached, for the draw-back.
    fn run<T: Tally + PartialEq>(
        &self,
        allowance: usize,
        mut trail: Option<&mut Trail>,
    ) -> Result<LiftLayer<T>, Overflow> {
        let width = allowance + 1;
        let (mut layer, mut spare) = (LiftLayer::start(width), LiftLayer::default());
        for i in 0..self.cells.len() {
            if let Some(trail) = trail.as_deref_mut().filter(|t| t.wants(i)) {
                trail.keep(layer.reached(width));
            }
            self.step(i, &layer, allowance, &mut spare)?;
            std::mem::swap(&mut layer, &mut spare);
            if layer.states.is_empty() {
                break;
            }
        }
        Ok(layer)
    }

    /// What the layers before positions `from + 1..end` reached, replayed
    /// on flags from `kept`, the layer before `from` (empty for a trail
    /// that kept every layer).
    fn replayed(&self, kept: &Reached, Range { start: from, end }: Range<usize>, allowance: usize) -> Vec<Reached> {
        let width = allowance + 1;
        let mut layer = LiftLayer::<bool>::default();
        if end > from + 1 {
            for (k, &state) in kept.states.iter().enumerate() {
                let flags = layer.slot(state, width);
                (0..width).filter(|&added| kept.reached(k, added)).for_each(|added| flags[added] = true);
            }
        }
        let (mut segment, mut spare) = (Vec::with_capacity(end - from), LiftLayer::default());
        for i in from..end.saturating_sub(1) {
            self.step(i, &layer, allowance, &mut spare).expect("flags do not overflow");
            std::mem::swap(&mut layer, &mut spare);
            segment.push(layer.reached(width));
        }
        segment
    }

    /// Refinements adding each penalty `0..=allowance`: counted in `u128`,
    /// and again in `BigUint` when they outgrow it; with a `trail`, what each
    /// layer reached (of the run that finished).
    fn counted(&self, allowance: usize, mut trail: Option<&mut Trail>) -> Vec<BigUint> {
        // Most partials of n = 16's level 6 at 47 count nothing, though their counts outgrow
        // u128 midway: flags settle that first, a byte a state, before any count is paid for.
        let reached = self.run::<bool>(allowance, None).expect("flags do not overflow");
        if result(&reached, allowance).iter().all(Tally::is_zero) {
            return vec![BigUint::ZERO; allowance + 1];
        }
        match self.run::<u128>(allowance, trail.as_deref_mut()) {
            Ok(last) => result(&last, allowance).into_iter().map(BigUint::from).collect(),
            Err(Overflow) => {
                if let Some(trail) = trail.as_deref_mut() {
                    trail.clear();
                }
                result(&self.run::<BigUint>(allowance, trail).expect("a BigUint does not overflow"), allowance)
            }
        }
    }

    /// Refinements adding each penalty `0..=allowance`.
    pub fn counts(&self, allowance: usize) -> Vec<BigUint> {
        self.counted(allowance, None)
    }

    /// The counts, and one refinement adding the least penalty (as `(cell,
    /// value)` pairs, values `b+1..`, the level's `+` as `k + 1`) drawn back
    /// through the layers, for the validator to judge; `None` when there is
    /// none within the allowance. The counting run keeps of its layers
    /// (`trail`) only their states and which penalties reach them (every
    /// layer's counts in `BigUint` ran n = 15's level 6 out of memory).
    pub fn witness(&self, allowance: usize) -> Result<(Vec<BigUint>, Option<Filling>), HexError> {
        self.witness_kept(allowance, TRAIL_BYTES)
    }

    /// `witness` with the trail thinned past `budget` bytes.
    fn witness_kept(&self, allowance: usize, budget: usize) -> Result<(Vec<BigUint>, Option<Filling>), HexError> {
        let mut trail = Trail::new(self.cells.len(), budget);
        let counts = self.counted(allowance, Some(&mut trail));
        let Some(least) = counts.iter().position(|c| *c != BigUint::ZERO) else { return Ok((counts, None)) };
        Ok((counts, Some(self.drawn_back(&trail, least, allowance)?)))
    }

    /// One refinement adding exactly `added`, drawn back from the last
    /// layer's empty state through the kept layers, each segment between
    /// them replayed.
    fn drawn_back(&self, trail: &Trail, mut added: usize, allowance: usize) -> Result<Filling, HexError> {
        let mut state = 0u128;
        let mut labels = vec![0u8; self.cells.len()];
        for (positions, kept) in trail.segments().rev() {
            let replayed = self.replayed(kept, positions.clone(), allowance);
            let layers: Vec<&Reached> = std::iter::once(kept).chain(&replayed).collect();
            for (i, reached) in positions.zip(layers).rev() {
                let back = reached.states.iter().enumerate().find_map(|(k, &before)| {
                    (0..self.labels()).find_map(|label| match self.place(i, before, label) {
                        Some((s, charge)) if s == state && charge <= added && reached.reached(k, added - charge) => {
                            Some((before, label, charge))
                        }
                        _ => None,
                    })
                });
                let (before, label, charge) =
                    back.ok_or_else(|| HexError::Internal("a counted refinement cannot be drawn back".into()))?;
                (state, added, labels[i]) = (before, added - charge, label);
            }
        }
        Ok(self.cells.iter().zip(labels).map(|(&c, label)| (c, label + self.base + 1)).collect())
    }
}

/// The program's result, from its last layer: refinements adding each penalty `0..=allowance`.
fn result<T: Tally>(last: &LiftLayer<T>, allowance: usize) -> Vec<T> {
    last.get(0, allowance + 1).map_or_else(|| vec![T::zero(); allowance + 1], <[T]>::to_vec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counting::extension::order::{breadth_first, fewest_open, least_costly_fewest_open};
    use crate::counting::Count;

    /// The order is a matter of speed: breadth first, fewest open (ties in
    /// index order, and the least costly tie-break), index order and its
    /// reverse count the same, penalty by penalty (and the
    /// program in `BigUint`, its fallback, as in `u128`; the refinement the
    /// trail draws back is valid and adds the least penalty, and a trail
    /// thinned at once draws back the same one), for every partial of the
    /// base level up to two (n = 4) or one (n = 5) above the level-3
    /// minimum, at every level above the base.
    #[test]
    fn every_order_counts_the_same() {
        for (side, bound) in [(4, 3 + 2), (5, 9 + 1)] {
            let hex = Hexagon::new(side).unwrap();
            for base in BASES {
                let mut partials = 0;
                Count::new(&hex, base).for_each_partial(bound, |values, penalty| {
                    let allowance = bound - penalty;
                    let index_order: Vec<usize> = (0..values.len()).filter(|&c| values[c] == base + 1).collect();
                    let orders = [breadth_first(&hex, values, base + 1), fewest_open(&hex, values, base + 1, |c| c as i64), least_costly_fewest_open(&hex, values, base + 1), index_order.iter().rev().copied().collect(), index_order];
                    for level in base + 1..=6 {
                        let counts: Vec<Vec<BigUint>> = orders.iter().map(|order| Lift::in_order(&hex, base, level, values, order.clone()).unwrap().counts(allowance)).collect();
                        assert!(counts.iter().all(|c| *c == counts[0]), "n={side} level {base} -> {level}: {values:?}: {counts:?}");
                        let lift = Lift::new(&hex, base, level, values).unwrap();
                        let wide = result(&lift.run::<BigUint>(allowance, None).unwrap(), allowance);
                        assert_eq!(wide, counts[0], "n={side} level {base} -> {level}: {values:?}: BigUint against u128");
                        let ((witnessed, drawn), least) = (lift.witness(allowance).unwrap(), counts[0].iter().position(|c| *c != BigUint::ZERO));
                        assert!(witnessed == counts[0] && drawn.is_some() == least.is_some(), "n={side} level {base} -> {level}: {values:?}");
                        let thinned = lift.witness_kept(allowance, 0).unwrap();
                        assert_eq!(thinned, (witnessed, drawn.clone()), "n={side} level {base} -> {level}: {values:?}: a thinned trail draws back another refinement");
                        let mut refined = values.to_vec();
                        drawn.unwrap_or_default().iter().for_each(|&(cell, value)| refined[cell] = value);
                        let judged = crate::validation::evaluate(&hex, &crate::levels::Partial::new(side, level, refined).unwrap());
                        assert!(least.is_none_or(|least| judged.is_valid() && judged.penalty == penalty + least), "{values:?}: drawn {judged:?}");
                    }
                    partials += 1;
                })
                .unwrap();
                assert!(partials > 20, "n={side} level {base}: {partials} partials");
            }
        }
    }

    /// An order that misses a `+` cell or repeats one is refused, and so is a
    /// lift from or to a level it does not serve.
    #[test]
    fn an_order_or_levels_it_does_not_serve_are_refused() {
        let hex = Hexagon::new(3).unwrap();
        let mut first = None;
        Count::new(&hex, 4)
            .for_each_partial(3, |values, _| {
                if first.is_none() && values.iter().filter(|&&v| v == 5).count() >= 2 {
                    first = Some(values.to_vec());
                }
            })
            .unwrap();
        let values = first.expect("a level-4 partial of n = 3 with two `+` cells");
        let plus: Vec<usize> = (0..values.len()).filter(|&c| values[c] == 5).collect();
        assert!(Lift::in_order(&hex, 4, 6, &values, plus[1..].to_vec()).is_err());
        assert!(Lift::in_order(&hex, 4, 6, &values, [plus.clone(), vec![plus[0]]].concat()).is_err());
        assert!(Lift::new(&hex, 4, 4, &values).is_err());
        assert!(Lift::new(&hex, 2, 5, &values).is_err());
        assert!(Lift::new(&hex, 4, 7, &values).is_err());
    }
}
