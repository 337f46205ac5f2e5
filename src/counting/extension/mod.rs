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

pub(super) mod classes;
pub(super) mod covers;
pub(super) mod layer;
pub(super) mod lift;
pub(super) mod order;
pub(super) mod pieces;
pub(super) mod refinements;
pub(super) mod trail;

use num_bigint::BigUint;
use rayon::prelude::*;

use crate::counting::basics::{check_bound, check_stop, report_piece, settled, CountSettings};
use crate::counting::extension::classes::Classes;
use crate::counting::extension::pieces::PiecesCount;
use crate::counting::extension::refinements::{refinements, source, Judged};
use crate::counting::frontier::schedule::Schedule;
use crate::counting::sweep::enumerate::fold_partials;
use crate::counting::tables::ladder::Ladder;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::records::ledger::{Resumed, Unit};
use crate::validation::evaluate;

/// What the extension road found at a level's minimum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extended {
    /// The least level-k penalty.
    pub minimum: usize,
    /// Level-k partials of that penalty.
    pub count: BigUint,
    /// Level-(k-1) partials of penalty at most the minimum that were listed.
    pub refined: usize,
    /// Their symmetry classes, each refined through its least member.
    pub classes: usize,
    /// How the listing was cut, and what of it was read back from records.
    pub pieces: Pieces,
}

/// The pieces of a listing, and those read back from an earlier run's
/// records (`CountSettings::records`) instead of being refined in this one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pieces {
    pub total: usize,
    /// The pieces resumed and who wrote them (they attest those counts).
    pub resumed: Resumed,
}

/// What the extension road found up to a bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtendedByPenalty {
    /// `counts[p]`: level-k partials of penalty `p`, for `p <= bound`.
    pub counts: Vec<BigUint>,
    /// Level-(k-1) partials of penalty at most the bound that were listed.
    pub refined: usize,
    /// Their symmetry classes, each refined through its least member.
    pub classes: usize,
    pub pieces: Pieces,
    /// Each class's refinements, in the order of their least members' values;
    /// `None` when a piece was read back from a record (which keeps its sum
    /// only).
    pub by_class: Option<Vec<ClassCount>>,
}

/// One class's refinements: its least member (the partial lifted), their
/// penalty, how many members, and the refinements of the least member by
/// the penalty they add (`counts[a]`: adding `a`, up to the bound).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassCount {
    pub values: Vec<u8>,
    pub penalty: usize,
    pub members: u128,
    pub counts: Vec<BigUint>,
}

/// The levels this road counts.
fn check_refined_level(level: u8) -> Result<(), HexError> {
    match level {
        2..=6 => Ok(()),
        _ => Err(HexError::Usage(format!("the extension road counts levels 2 to 6 (not level {level})"))),
    }
}

/// The level-k minimum and its count: bounds from the level-(k-1) minimum
/// up are tried until some refinement reaches one (the level-k minimum is at
/// least the level-(k-1) one, so none below it is skipped).
pub fn level_by_extension(hex: &Hexagon, level: u8, settings: &CountSettings) -> Result<Extended, HexError> {
    check_refined_level(level)?;
    let (ladder, bound) = Ladder::to_minimum(hex, source(level), settings)?;
    let (_, minimum, mut found) = minimum_from(ladder, level, bound, 0)?;
    Ok(Extended {
        minimum,
        count: found.counts.swap_remove(minimum),
        refined: found.refined,
        classes: found.classes,
        pieces: found.pieces,
    })
}

/// The level-k minimum, known to be at least `from`, and the counts of
/// every penalty up to at least that minimum + `above`, with the ladder's
/// tables (rebuilt when the bound passes theirs); the ladder is handed back,
/// so that a row counts level 6 on the tables level 5 used.
pub(super) fn minimum_from(
    mut ladder: Ladder<'_>,
    level: u8,
    from: usize,
    above: usize,
) -> Result<(Ladder<'_>, usize, ExtendedByPenalty), HexError> {
    check_refined_level(level)?;
    let (hex, settings) = (ladder.hex(), ladder.settings());
    let mut bound = from + above;
    loop {
        check_bound(bound)?;
        if bound > ladder.bound() {
            ladder = ladder.rebuilt(source(level), bound)?;
        }
        let found = refine_listed(hex, level, &ladder, bound, (Judged::Every, settings))?;
        match settled(found.counts.iter().position(|c| *c != BigUint::ZERO), above, bound) {
            Ok(minimum) => return Ok((ladder, minimum, found)),
            Err(next) => bound = next,
        }
    }
}

/// The level-k partials of every penalty `0..=bound`, by refinement of the
/// level-(k-1) partials of penalty at most `bound`.
pub fn extended_by_penalty(
    hex: &Hexagon,
    level: u8,
    bound: usize,
    settings: &CountSettings,
) -> Result<ExtendedByPenalty, HexError> {
    check_refined_level(level)?;
    check_bound(bound)?;
    refine_listed(hex, level, &Ladder::up_to(hex, source(level), bound, settings)?, bound, (Judged::Sample, settings))
}

/// The level-`level` partials (4..6) of every penalty `0..=bound` that refine
/// `listed`, which must hold every partial of level `from` (3, or 4 below
/// level 5 and 6) of penalty `<= bound`, each once with its penalty (a
/// certified listing's orbits, `orbits::orbit_members`): each class is
/// lifted through its least member, piece by piece on every core, as the
/// road lifts its own listing (with `settings.records`, finished pieces are
/// written and read back there). Errors: levels the lift does not join, a
/// malformed piece record.
pub fn extended_from_listed(
    hex: &Hexagon,
    (from, level): (u8, u8),
    listed: &[(Partial, usize)],
    bound: usize,
    settings: &CountSettings,
) -> Result<ExtendedByPenalty, HexError> {
    if !(3..=4).contains(&from) || level <= from || level > 6 {
        return Err(HexError::Usage(format!("the lift reaches levels 4 to 6 from a level-3 listing, levels 5 and 6 from a level-4 one (not level {level} from level {from})")));
    }
    let classes = Classes::new(hex);
    let kept: Vec<Class> = listed
        .iter()
        .filter_map(|(partial, penalty)| {
            classes.members(partial.values()).map(|members| Class {
                values: partial.values().to_vec(),
                penalty: *penalty,
                members,
            })
        })
        .collect();
    refine_classes(hex, (from, level), (listed.len(), kept), bound, (Judged::Every, settings))
}

/// Pieces the classes are split into (the options table says why it is fixed).
const PIECES: usize = crate::options::EXTENSION_PIECES.default;

/// A piece's counts and their seconds in this run, and who wrote them when
/// they were read back.
type PieceCounts = Unit<(Vec<BigUint>, f64)>;

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
fn refine_listed(
    hex: &Hexagon,
    level: u8,
    ladder: &Ladder<'_>,
    bound: usize,
    (judged, settings): (Judged, &CountSettings),
) -> Result<ExtendedByPenalty, HexError> {
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
            return *acc = Err(HexError::Internal(format!(
                "a listed level-{} partial is not valid with penalty {penalty}",
                source(level)
            )));
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
    let listed =
        fold_partials(&schedule, table, bound, rayon::current_num_threads() * 64, || Ok((0, Vec::new())), keep, join)?;
    refine_classes(hex, (source(level), level), listed, bound, (judged, settings))
}

/// The classes of `listed` (how many partials of level `from` were listed,
/// and their classes, in any order) refined to `level`, piece by piece on
/// every core; with `settings.records`, finished pieces are read from and
/// written to that directory.
fn refine_classes(
    hex: &Hexagon,
    (from, level): (u8, u8),
    (listed, mut kept): (usize, Vec<Class>),
    bound: usize,
    (judged, settings): (Judged, &CountSettings),
) -> Result<ExtendedByPenalty, HexError> {
    kept.sort_unstable_by(|a, b| a.values.cmp(&b.values));
    let pieces: Vec<&[Class]> = kept.chunks(kept.len().div_ceil(PIECES).max(1)).collect();
    let count =
        PiecesCount { n: hex.side(), level, source: from, via: settings.via.name(), bound, pieces: pieces.len() };
    // Each class's counts, by its index in `kept`, as the pieces counted them.
    let by_class = std::sync::Mutex::new(vec![None; kept.len()]);
    let refine_piece = |(index, piece): (usize, &[Class])| -> Result<Vec<BigUint>, HexError> {
        let mut counts = vec![BigUint::ZERO; bound + 1];
        let first = index * pieces[0].len();
        for (k, class) in piece.iter().enumerate() {
            check_stop(&settings.context)?;
            let added = refinements(hex, (from, level), &class.values, class.penalty, bound, (judged, settings.via))?;
            for (extra, c) in added.iter().enumerate() {
                counts[class.penalty + extra] += c * BigUint::from(class.members);
            }
            by_class.lock().expect("no piece panics holding it")[first + k] = Some(added);
        }
        Ok(counts)
    };
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Result<PieceCounts, HexError>> = pieces
        .par_iter()
        .enumerate()
        .map(|(index, piece)| {
            let unit = pieces::resume_or_count(
                settings.records.as_deref(),
                &count,
                (index, &piece[0].values, piece.len()),
                || refine_piece((index, piece)),
            )?;
            let done = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            report_piece(
                &settings.context,
                level,
                (index, done, count.pieces),
                piece.len(),
                unit.read_back_from.is_some(),
                unit.value.1,
            );
            Ok(unit)
        })
        .collect();
    let pieces = Pieces { total: count.pieces, ..Pieces::default() };
    let by_class = by_class.into_inner().expect("no piece panics holding it").into_iter().zip(kept.iter());
    let by_class = by_class
        .map(|(counts, class)| {
            counts.map(|counts| ClassCount {
                values: class.values.clone(),
                penalty: class.penalty,
                members: class.members,
                counts,
            })
        })
        .collect();
    let mut total = ExtendedByPenalty {
        counts: vec![BigUint::ZERO; bound + 1],
        refined: listed,
        classes: kept.len(),
        pieces,
        by_class,
    };
    for result in results {
        let unit = result?;
        total.pieces.resumed.note_unit(&unit);
        for (sum, c) in total.counts.iter_mut().zip(&unit.value.0) {
            *sum += c;
        }
    }
    Ok(total)
}
