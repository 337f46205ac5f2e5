//! Levels 2 to 6 by refinement: a second road to a level's counts, apart
//! from that level's table and sweep (and, at levels 5 and 6, from `chains`).
//! Levels 2 and 3 refine the level below by a search that meets each
//! refinement; levels 4 to 6 refine the level-3 partials (`source`) and
//! count the refinements by the program of `lift`, since they are too many
//! to meet one by one (n = 12: 9600 level-3 partials at the minimum refine
//! to 18 G level-4 ones, and one of them to some 10^26 level-6 ones).
//!
//! Invariants relied on (docs/PROBLEM.md, section 4), for level `k` in 2..=3
//! (`lift` states the same for the levels it counts):
//! - every valid level-k partial of penalty `B` truncates to a valid
//!   level-(k-1) partial of penalty `P <= B` (refining never lowers a
//!   penalty), and a level-(k-1) partial has one refinement per labelling of
//!   its `+` cells with `k` or `+`; so the level-k partials of penalty `B`
//!   are, without repeats, the refinements adding exactly `B - P` of the
//!   level-(k-1) partials of penalty `P <= B`;
//! - a refinement keeps every term of the level-(k-1) penalty and adds only
//!   terms on edges between two former `+` cells: a `k`-`k` edge costs 1, and
//!   a new `+` cell with `m` neighbours labelled `k` costs `m - 1` and is
//!   valid only when `m >= 1` (a `k` already sees `1..k-1`, as a `+` did).
//!
//! So a depth-first search over the former `+` cells, in index order, that
//! charges those terms as soon as both ends of an edge are labelled and cuts a
//! branch once the added penalty passes what is allowed, or once a new `+`
//! cell has all its neighbours labelled and none of them is a `k`, meets each
//! refinement within the allowance once; tallied by the penalty it adds, the
//! refinements of every partial of penalty `P <= B` give the level-k counts
//! of every penalty up to `B` (`--max-penalty`), the minimum's among them.
//! That reasoning is not trusted on its own: every listed level-(k-1)
//! partial is re-judged by the plain validator (`validation::evaluate`), and
//! so is every refinement counted at the minimum (by penalty, where they
//! run to hundreds of millions, a sample: `Judged`); the counts are
//! compared with the level-k sweep in `tests/refinement.rs`. The
//! level-(k-1) partials are listed with the level-(k-1) table (`enumerate`);
//! nothing of level k is shared.
//!
//! Every listed partial is judged, but only the least member of each
//! symmetry class is refined, its counts taken once per member (`classes`:
//! a symmetry maps the refinements of a partial onto those of its image,
//! penalty for penalty). That is the sat road's reduction too, and it makes
//! the road twelve times cheaper where refining, not listing, is the cost
//! (n = 12 level 5: 9600 level-3 partials, 800 classes).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use rayon::prelude::*;

use super::basics::{check_bound, check_stop, report_piece, settled, Settings, Via};
use super::chains::{combine, Shape, Walk, PLUS};
use super::classes::Classes;
use super::covers::Covers;
use super::enumerate::fold_partials;
use super::refine_records::{self, Count};
use super::frontier::Schedule;
use super::hashing::KeyHasher;
use super::ladder::Ladder;
use super::lift::Lift;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::records::ledger::Resumed;
use crate::validation::evaluate;

/// What the refinement road found at a level's minimum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refined {
    /// The least level-k penalty.
    pub minimum: usize,
    /// Level-k partials of that penalty.
    pub count: u128,
    /// Level-(k-1) partials of penalty at most the minimum that were listed.
    pub refined: usize,
    /// Their symmetry classes, each refined through its least member.
    pub classes: usize,
    /// How the listing was cut, and what of it was read back from records.
    pub pieces: Pieces,
}

/// The pieces of a listing, and those read back from an earlier run's
/// records (`Settings::records`) instead of being refined in this one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pieces {
    pub total: usize,
    /// The pieces resumed and who wrote them (they attest those counts).
    pub resumed: Resumed,
}

/// What the refinement road found up to a bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefinedByPenalty {
    /// `counts[p]`: level-k partials of penalty `p`, for `p <= bound`.
    pub counts: Vec<u128>,
    /// Level-(k-1) partials of penalty at most the bound that were listed.
    pub refined: usize,
    /// Their symmetry classes, each refined through its least member.
    pub classes: usize,
    pub pieces: Pieces,
}

/// The levels this road counts.
fn check_refined_level(level: u8) -> Result<(), HexError> {
    match level {
        2..=6 => Ok(()),
        _ => Err(HexError::Usage(format!("the refinement road counts levels 2 to 6 (not level {level})"))),
    }
}

/// The level whose partials are refined to `level` (2..=6): the level below
/// up to level 3, level 3 for levels 4 to 6 (`lift`). Lifted from level 3
/// with the cells grown greedily (`lift::fewest_open`), the levels above cost
/// the level-3 listing and a program per class (n = 12 level 6: 800 classes
/// lifted in 70 s); from level 4 they list every level-4 partial (n = 11:
/// 16.3 M; n = 12: 18.3 G) and measured slower wherever both ran
/// (docs/RESULTS.md, "Levels 4 to 6 by lifting").
pub fn source(level: u8) -> u8 {
    (level - 1).min(3)
}

/// The level-k minimum and its count: bounds from the level-(k-1) minimum
/// up are tried until some refinement reaches one (the level-k minimum is at
/// least the level-(k-1) one, so none below it is skipped).
pub fn level_by_refinement(hex: &Hexagon, level: u8, settings: &Settings) -> Result<Refined, HexError> {
    check_refined_level(level)?;
    let (ladder, bound) = Ladder::to_minimum(hex, source(level), settings)?;
    let (_, minimum, found) = minimum_from(ladder, level, bound, 0)?;
    Ok(Refined { minimum, count: found.counts[minimum], refined: found.refined, classes: found.classes, pieces: found.pieces })
}

/// The level-k minimum, known to be at least `from`, and the counts of
/// every penalty up to at least that minimum + `above`, with the ladder's
/// tables (rebuilt when the bound passes theirs); the ladder is handed back,
/// so that a row counts level 6 on the tables level 5 used.
pub(super) fn minimum_from(mut ladder: Ladder<'_>, level: u8, from: usize, above: usize) -> Result<(Ladder<'_>, usize, RefinedByPenalty), HexError> {
    check_refined_level(level)?;
    let (hex, settings) = (ladder.hex(), ladder.settings());
    let mut bound = from + above;
    loop {
        check_bound(bound)?;
        if bound > ladder.bound() {
            ladder = ladder.rebuilt(source(level), bound)?;
        }
        let found = refine_listed(hex, level, &ladder, bound, (Judged::Every, settings))?;
        match settled(found.counts.iter().position(|&c| c > 0), above, bound) {
            Ok(minimum) => return Ok((ladder, minimum, found)),
            Err(next) => bound = next,
        }
    }
}

/// The level-k partials of every penalty `0..=bound`, by refinement of the
/// level-(k-1) partials of penalty at most `bound`.
pub fn refined_by_penalty(hex: &Hexagon, level: u8, bound: usize, settings: &Settings) -> Result<RefinedByPenalty, HexError> {
    check_refined_level(level)?;
    check_bound(bound)?;
    refine_listed(hex, level, &Ladder::up_to(hex, source(level), bound, settings)?, bound, (Judged::Sample, settings))
}

/// Pieces the classes are split into (the options table says why it is fixed).
const PIECES: usize = crate::options::REFINE_PIECES.default;

/// A piece's counts, and who wrote them when they were read back.
type PieceCounts = (Vec<u128>, Option<String>);

/// A class to refine: its least member, their penalty and how many members.
struct Class {
    values: Vec<u8>,
    penalty: usize,
    members: u128,
}

/// Every partial of the source level of penalty `<= bound` that the ladder
/// lists, judged, and its classes refined piece by piece on every core;
/// with `settings.records`, finished pieces are read from and written to
/// that directory. The pieces are runs of the classes in the order of their
/// values, of equal size (the walk's own subtrees would not do: the least
/// members of the classes crowd into its first few). A table built for a
/// larger bound serves any smaller one (`ladder`).
fn refine_listed(hex: &Hexagon, level: u8, ladder: &Ladder<'_>, bound: usize, (judged, settings): (Judged, &Settings)) -> Result<RefinedByPenalty, HexError> {
    let schedule = Schedule::new(hex, source(level))?;
    let table = ladder.guide(source(level)).expect("the ladder reaches the level below");
    let classes = Classes::new(hex);
    let keep = |acc: &mut Result<(usize, Vec<Class>), HexError>, values: &[u8], penalty: usize| {
        let Ok((listed, kept)) = acc else { return };
        let judged = match Partial::new(hex.side(), source(level), values.to_vec()) {
            Ok(partial) => evaluate(hex, &partial),
            Err(e) => return *acc = Err(e),
        };
        if !judged.is_valid() || judged.penalty != penalty {
            return *acc = Err(HexError::Internal(format!("a listed level-{} partial is not valid with penalty {penalty}", source(level))));
        }
        *listed += 1;
        if let Some(members) = classes.members(values) {
            kept.push(Class { values: values.to_vec(), penalty, members });
        }
    };
    let join = |a: Result<(usize, Vec<Class>), HexError>, b: Result<(usize, Vec<Class>), HexError>| {
        let ((listed, mut kept), (more, other)) = (a?, b?);
        kept.extend(other);
        Ok((listed + more, kept))
    };
    let (listed, mut kept) = fold_partials(&schedule, table, bound, rayon::current_num_threads() * 64, || Ok((0, Vec::new())), keep, join)?;
    kept.sort_unstable_by(|a, b| a.values.cmp(&b.values));
    let pieces: Vec<&[Class]> = kept.chunks(kept.len().div_ceil(PIECES).max(1)).collect();
    let count = Count { n: hex.side(), level, source: source(level), via: settings.via.name(), bound, pieces: pieces.len() };
    let refine_piece = |piece: &[Class]| -> Result<Vec<u128>, HexError> {
        let mut counts = vec![0u128; bound + 1];
        for class in piece {
            check_stop(&settings.context)?;
            let added = refinements(hex, level, &class.values, class.penalty, bound, (judged, settings.via))?;
            for (extra, c) in added.into_iter().enumerate() {
                let total = &mut counts[class.penalty + extra];
                *total = c.checked_mul(class.members).and_then(|c| total.checked_add(c)).ok_or_else(overflow)?;
            }
        }
        Ok(counts)
    };
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Result<PieceCounts, HexError>> = pieces
        .par_iter()
        .enumerate()
        .map(|(index, piece)| {
            let first = &piece[0].values;
            let resumed = match &settings.records {
                Some(dir) => refine_records::read(dir, &count, (index, first, piece.len()))?,
                None => None,
            };
            let (counts, writer, seconds) = match resumed {
                Some((counts, writer)) => (counts, Some(writer), 0.0),
                None => {
                    let started = std::time::Instant::now();
                    let counts = refine_piece(piece)?;
                    let seconds = started.elapsed().as_secs_f64();
                    if let Some(dir) = &settings.records {
                        refine_records::write(dir, &count, (index, first, piece.len()), &counts, seconds)?;
                    }
                    (counts, None, seconds)
                }
            };
            let done = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            report_piece(&settings.context, level, (index, done, count.pieces), piece.len(), writer.is_some(), seconds);
            Ok((counts, writer))
        })
        .collect();
    let pieces = Pieces { total: count.pieces, ..Pieces::default() };
    let mut total = RefinedByPenalty { counts: vec![0; bound + 1], refined: listed, classes: kept.len(), pieces };
    for result in results {
        let (counts, writer) = result?;
        for (sum, c) in total.counts.iter_mut().zip(&counts) {
            *sum = sum.checked_add(*c).ok_or_else(overflow)?;
        }
        if let Some(writer) = writer {
            total.pieces.resumed.note(&writer);
        }
    }
    Ok(total)
}

fn overflow() -> HexError {
    HexError::Internal("a refinement-road count passed 2^128".into())
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
enum Judged {
    Every,
    Sample,
}

const SAMPLE: u64 = crate::options::REFINE_SAMPLE.default;

/// The refinements to level k of a level-(k-1) partial of penalty `p` to
/// partials of penalty at most `bound`, counted by the penalty they add
/// (index `0..=bound - p`); as they are met, those `judged` picks are
/// re-judged by the validator.
fn refinements(hex: &Hexagon, level: u8, values: &[u8], p: usize, bound: usize, (judged, via): (Judged, Via)) -> Result<Vec<u128>, HexError> {
    match (level, via) {
        (5.., Via::Chains) => chained(hex, level, values, (p, bound - p)),
        (4.., _) => lifted(hex, level, values, (p, bound - p), judged),
        _ => {
            let mut added = vec![0u128; bound - p + 1];
            let former = FormerPlus::new(hex, level, values);
            searched(hex, level, (values, &former), (p, bound - p), judged, |_, extra| added[extra] += 1)?;
            Ok(added)
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
fn chained(hex: &Hexagon, level: u8, values: &[u8], (p, allowance): (usize, usize)) -> Result<Vec<u128>, HexError> {
    let former = FormerPlus::new(hex, 4, values);
    let mut walk = Walk::new(former.cells.len());
    let (mut plus, mut shapes) = (Vec::new(), Vec::new());
    let mut tallies: Vec<HashMap<Vec<Shape>, u64, BuildHasherDefault<KeyHasher>>> = vec![HashMap::default(); allowance + 1];
    let mut failed = None;
    searched(hex, 4, (values, &former), (p, allowance), Judged::Sample, |labels, extra| {
        plus.clear();
        plus.extend((0..labels.len()).filter(|&i| labels[i] == PLUS));
        shapes.clear();
        let walked = walk.components(&plus, |i| former.neighbours[i].iter().copied().filter(|&j| labels[j] == PLUS), |_, shape| shapes.push(shape));
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
    let groups: HashMap<(usize, Vec<Shape>), u64> =
        tallies.into_iter().enumerate().flat_map(|(extra, tally)| tally.into_iter().map(move |(shapes, n)| ((p + extra, shapes), n))).collect();
    combine(level, p + allowance, &groups)[p..].iter().map(|c| u128::try_from(c).map_err(|_| overflow())).collect()
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
        let neighbours = cells.iter().map(|&c| hex.neighbours(c).iter().filter_map(|&u| position(u)).collect()).collect();
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
        let earlier = neighbours.iter().enumerate().map(|(i, ns)| ns.iter().copied().filter(|&j| j < i).collect()).collect();
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

/// Levels 4 to 6: the refinements of a level-3 partial (level 4) or a level-4
/// partial (levels 5 and 6) of penalty `p` by the penalty they add, counted by `lift`; for the partials `judged` picks (at
/// the minimum every one, else one in `SAMPLE`, by a hash of the partial so
/// that the pick does not depend on how the listing was split), one
/// refinement of the least penalty added is drawn back and re-judged.
fn lifted(hex: &Hexagon, level: u8, values: &[u8], (p, allowance): (usize, usize), judged: Judged) -> Result<Vec<u128>, HexError> {
    let lift = Lift::new(hex, source(level), level, values)?;
    let mut hash = KeyHasher::default();
    hash.write(values);
    let picked = judged == Judged::Every || hash.finish() % SAMPLE == 0;
    if !picked {
        return lift.counts(allowance);
    }
    let (counts, drawn) = lift.witness(allowance)?;
    if let Some(labels) = drawn {
        let extra = counts.iter().position(|&c| c > 0).expect("drawn from a count");
        let mut refined = values.to_vec();
        for (cell, value) in labels {
            refined[cell] = value;
        }
        let judged = Partial::new(hex.side(), level, refined).map(|partial| evaluate(hex, &partial));
        if !matches!(judged, Ok(j) if j.is_valid() && j.penalty == p + extra) {
            return Err(HexError::Internal(format!("a level-{level} refinement the program counted is not valid with penalty {}", p + extra)));
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counting::for_each_partial;

    /// At allowance 0 the exact covers (`covers`) are the labellings the
    /// index-order search meets, one for one, for every partial of the level
    /// below up to two above its minimum (n = 4..6, levels 2..4).
    #[test]
    fn the_covers_are_the_labellings_that_add_nothing() {
        let mut compared = 0;
        for n in 4..=6 {
            let hex = Hexagon::new(n).unwrap();
            for level in 2..=4u8 {
                let bound = crate::counting::minimum_penalty(&hex, level - 1).unwrap() + 2;
                for_each_partial(&hex, level - 1, bound, |values, _| {
                    let former = FormerPlus::new(&hex, level, values);
                    let mut searched = Vec::new();
                    Search::new(&former, level, 0).descend(0, 0, &mut |labels, _| searched.push(labels.to_vec()));
                    let mut covered = Vec::new();
                    Covers::new(&former.neighbours, level, level + 1).each(&mut |labels| covered.push(labels.to_vec()));
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
