//! The listing itself: the solver lists the ring-1 lex-leaders of
//! penalty `<= P` (each model validated and blocked), and the 12
//! symmetries close them into every partial of penalty `<= P`. `run`
//! takes the way the plan names: by one solver (`orbit_count`), or cube by
//! cube, in parallel and resumable, one small record per finished cube
//! (`list_by_cubes`, with a plain lister, `plain_cube`, or a certified one:
//! refute.rs's, or leaves.rs's leaf by leaf).
//!
//! Invariants relied on:
//! - the ring-1 lex-leader constraints keep at least one member of every
//!   symmetry class (docs/SOUNDNESS.md, section 3; `tests/symmetry.rs`
//!   checks it by enumeration on small hexagons);
//! - a symmetry maps a valid partial onto a valid partial of the same penalty
//!   (the validator is re-run on every image, so this is checked, not assumed).
//!
//! So the union of the orbits of the listed leaders is exactly the set of
//! valid partials of penalty `<= P`. No counting code is used: this is the
//! second road beside the frontier sweep (`counting`).
//!
//! The cubes: the formula is split on the projection of the centre and its
//! six neighbours at depth 1 (each cell `1` or "more than 1"): the 128
//! cubes partition its models, so the union of the cubes' listings is the
//! whole listing `orbit_count` makes in one solver, and no partial is
//! listed twice. Splitting pays twice: the cubes run on every core, and the
//! last call of each cube (the one that shows its listing is complete) is a
//! fraction of the one last call of a single listing, which is as hard as
//! certifying the bound below.
//!
//! A finished cube is written as `DIR/cube-<index>.json`, whole or not at
//! all (`records::ledger`), so a run stopped at any point (Ctrl-C, a session's end) resumes
//! from the cubes it finished. Trust: a resumed cube's leaders are
//! validated again (valid, penalty <= P, in the cube), but that the list is
//! *complete* rests on the run that wrote it; the count reports how many
//! cubes it resumed and who wrote them, and remains one road until a
//! second one agrees (docs/COUNTING.md).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::leaves::{certified_in_leaves, leaves_dir, OnLeaf};
use super::plan::{LeafSplit, ListingMode, ListingPlan};
use super::record::{judge_leaders, leaders_record};
use super::refute::certified_cube;
use crate::cubes::Split;
use crate::encoding::model::Found;
use crate::encoding::{EncodeOptions, LevelEncoding, SymmetryBreaking};
use crate::error::{AtPath, HexError};
use crate::geometry::Hexagon;
use crate::proofs::verified::VerifiedChecker;
use crate::records::leaders::{listing_encoding, CubeLeaders};
use crate::records::ledger::{resume_or_do, Ledger, Resumed, Unit};
use crate::search::{enumerate, enumerate_under};
use crate::solving::{Cadical, SatSolver};
use rayon::prelude::*;

/// What a listing found: the count its leaders close into, and, for a
/// listing cube by cube, how its cubes went.
#[derive(Debug, Clone)]
pub struct Listed {
    pub count: OrbitCount,
    pub cubes: Option<Listing>,
}

impl Listed {
    /// Whether a cube or a leaf was read back from an earlier run's record
    /// (its completeness was not checked in this run).
    pub fn resumed(&self) -> bool {
        self.cubes.as_ref().is_some_and(|c| c.resumed.units + c.resumed_leaves.units > 0)
    }
}

/// What a listing heeds and tells as it runs: the stop flag (Ctrl-C), a
/// cube done (`on_cube(done, total)`) and a leaf's news.
pub struct ListingEvents<'a> {
    pub stop: &'a Arc<AtomicBool>,
    pub on_cube: &'a (dyn Fn(usize, usize) + Sync),
    pub on_leaf: OnLeaf<'a>,
}

/// Lists the lex-leaders as `plan` asks, in one of its three ways, and
/// counts them.
pub fn run(plan: &ListingPlan, events: &ListingEvents<'_>) -> Result<Listed, HexError> {
    let hex = &plan.hex;
    let (level, bound) = (plan.request.level, plan.bound());
    let (count, cubes) = match &plan.request.mode {
        ListingMode::Whole => {
            (orbit_count::<Cadical>(hex, level, bound, crate::options::SAT_ROAD_LEADERS.default)?, None)
        }
        ListingMode::ByCubes { dir } => {
            let (count, cubes) =
                orbit_count_by_cubes::<Cadical>(hex, level, bound, Some(dir), events.stop, events.on_cube)?;
            (count, Some(cubes))
        }
        ListingMode::Certified { dir, verified, leaves } => {
            let (count, cubes) = certified(hex, (level, bound), (dir, verified.as_ref(), *leaves), events)?;
            (count, Some(cubes))
        }
    };
    Ok(Listed { count, cubes })
}

/// Partials of penalty `<= max_penalty`, counted through their orbits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrbitCount {
    /// `by_penalty[p]`: distinct valid partials of penalty exactly `p`.
    pub by_penalty: Vec<u64>,
    /// Lex-leaders the solver listed (one solver call each, plus the last UNSAT).
    pub leaders: usize,
}

/// Counts the valid level-k partials of each penalty `<= max_penalty` from
/// the lex-leaders; fails when more than `limit` leaders exist.
pub fn orbit_count<S: SatSolver + Default>(
    hex: &Hexagon,
    level: u8,
    max_penalty: usize,
    limit: usize,
) -> Result<OrbitCount, HexError> {
    let options =
        EncodeOptions { symmetry: SymmetryBreaking::Ring1LexLeader, ..EncodeOptions::bounded(Some(max_penalty)) };
    let leaders = enumerate::<S>(hex, level, options, limit)?;
    close_orbits(hex, level, max_penalty, &leaders)
}

/// The same count from leaders listed cube by cube (`leaders`, untraced),
/// resumable from the cube records in `dir`.
pub fn orbit_count_by_cubes<S: SatSolver + Default>(
    hex: &Hexagon,
    level: u8,
    max_penalty: usize,
    dir: Option<&std::path::Path>,
    stop: &std::sync::atomic::AtomicBool,
    on_cube: &(dyn Fn(usize, usize) + Sync),
) -> Result<(OrbitCount, Listing), HexError> {
    let plain = |encoding: &crate::encoding::LevelEncoding, split: &crate::cubes::Split, cube: &[u8]| {
        plain_cube::<S>(hex, encoding, split, cube)
    };
    orbit_count_listed(hex, (level, max_penalty), dir, (stop, on_cube), (&plain, false))
}

/// The count of `hex`'s level-`level` partials of penalty <= `bound`,
/// every cube of the listing certified (`certified_cube`; with `leaf_split`,
/// each cube not yet recorded leaf by leaf, `certified_in_leaves`),
/// resumable from the cube and leaf records in `dir`. `stop` (Ctrl-C) ends
/// it between cubes and stops the solver of a cube in flight, which then
/// writes nothing.
fn certified(
    hex: &Hexagon,
    (level, bound): (u8, usize),
    (dir, verified, leaf_split): (&Path, Option<&VerifiedChecker>, Option<LeafSplit>),
    events: &ListingEvents<'_>,
) -> Result<(OrbitCount, Listing), HexError> {
    let stop = events.stop;
    // The DRAT twins of the cubes' traces, removed with the directory.
    let scratch = tempfile::tempdir().at_path(std::env::temp_dir())?;
    let resumed_leaves = Mutex::new(Resumed::default());
    let lister = |encoding: &LevelEncoding, split: &Split, cube: &[u8]| match leaf_split {
        Some(leaf_split) => certified_in_leaves(
            hex,
            (encoding, split, cube),
            (leaf_split, &leaves_dir(dir, split, cube)),
            (scratch.path(), verified),
            (stop, &resumed_leaves, events.on_leaf),
        ),
        None => {
            let stop = Arc::clone(stop);
            certified_cube(
                hex,
                (encoding, split, cube),
                &[],
                (scratch.path(), verified),
                (move || stop.load(Ordering::Relaxed), None),
            )
        }
    };
    let counted = orbit_count_listed(hex, (level, bound), Some(dir), (stop, events.on_cube), (&lister, true));
    // A cube's leaf records are its record's parts: once it is written they are copies.
    let split = Split::listing(hex, level)?;
    for index in 0..split.projection_count() {
        let leaves = leaves_dir(dir, &split, &split.projection(index));
        if leaves.is_dir() && Ledger::<CubeLeaders>::at(dir).path(&format!("cube-{index}")).is_file() {
            std::fs::remove_dir_all(&leaves).at_path(&leaves)?;
        }
    }
    let (count, mut listing) = counted?;
    listing.resumed_leaves = resumed_leaves.into_inner().expect("no panic while noting");
    Ok((count, listing))
}

/// The count from leaders listed cube by cube by `lister` (certified when
/// the flag says so: the ledger keeps the two kinds of record apart).
pub fn orbit_count_listed(
    hex: &Hexagon,
    (level, max_penalty): (u8, usize),
    dir: Option<&std::path::Path>,
    progress: (&std::sync::atomic::AtomicBool, &(dyn Fn(usize, usize) + Sync)),
    lister: (&CubeLister, bool),
) -> Result<(OrbitCount, Listing), HexError> {
    let listing = list_by_cubes(hex, (level, max_penalty), dir, progress, lister)?;
    Ok((close_orbits(hex, level, max_penalty, &listing.leaders)?, listing))
}

/// Every partial of penalty `<= max_penalty` as the union of the leaders'
/// orbits (`crate::orbits`).
fn close_orbits(hex: &Hexagon, level: u8, max_penalty: usize, leaders: &[Found]) -> Result<OrbitCount, HexError> {
    let by_penalty = crate::orbits::close_orbits(hex, level, max_penalty, leaders.iter().map(|f| &f.partial))?;
    Ok(OrbitCount { by_penalty, leaders: leaders.len() })
}

/// A cube listed or read back: its solver's wall and CPU seconds in this
/// run (0 when read back) and its leaders, and who wrote the record it was
/// read back from.
type CubeOutcome = Unit<((f64, f64), Vec<Found>)>;

/// Lists one cube: its record and its leaders as judged. `list_by_cubes`
/// takes the plain one (`plain_cube::<S>`) or the certified one
/// (`refute::certified_cube`).
pub type CubeLister<'a> =
    dyn Fn(&LevelEncoding, &Split, &[u8]) -> Result<(CubeLeaders, Vec<Found>), HexError> + Sync + 'a;

/// What a cube-by-cube listing found and how much of it was resumed.
#[derive(Debug, Clone)]
pub struct Listing {
    pub leaders: Vec<Found>,
    /// Cubes listed in this run.
    pub listed: usize,
    /// Cubes read back from earlier runs' records, and who wrote them.
    pub resumed: Resumed,
    /// Leaves of cubes listed leaf by leaf read back from earlier runs'
    /// records (`leaves`), and who wrote them.
    pub resumed_leaves: Resumed,
    /// Solver seconds of the cubes listed in this run (wall clock), and the
    /// slowest one.
    pub seconds: f64,
    pub slowest: f64,
    /// The solver's CPU seconds of the cubes listed in this run: on a shared
    /// core less than `seconds`, and what the records and forecasts sum.
    pub cpu_seconds: f64,
}

impl Listing {
    /// Who wrote the cubes and leaves read back, each once.
    pub fn writers(&self) -> Vec<String> {
        let mut writers = self.resumed.writers.clone();
        writers.extend(self.resumed_leaves.writers.iter().filter(|w| !self.resumed.writers.contains(w)).cloned());
        writers
    }
}

/// Lists the ring-1 lex-leaders of penalty <= `max_penalty`, one cube per
/// task on rayon's pool; with `dir`, finished cubes are read from and
/// written to it. `on_cube(done, total)` reports progress; `stop` ends the
/// run between cubes (what is finished stays written).
pub fn list_by_cubes(
    hex: &Hexagon,
    (level, max_penalty): (u8, usize),
    dir: Option<&Path>,
    (stop, on_cube): (&AtomicBool, &(dyn Fn(usize, usize) + Sync)),
    (lister, certified): (&CubeLister, bool),
) -> Result<Listing, HexError> {
    let encoding = listing_encoding(hex, level, max_penalty);
    let split = Split::listing(hex, level)?;
    let total = split.projection_count() as usize;
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Result<CubeOutcome, HexError>> = (0..total)
        .into_par_iter()
        .map(|index| {
            if stop.load(Ordering::Relaxed) {
                return Err(HexError::Interrupted);
            }
            let cube = split.projection(index as u64);
            let ledger = dir.map(Ledger::<CubeLeaders>::at);
            let expected = (
                hex.side(),
                level,
                max_penalty,
                crate::encoding::ENCODER_VERSION.to_string(),
                split.cells.clone(),
                cube.clone(),
                Vec::new(),
                certified,
            );
            let unit = resume_or_do(
                ledger.as_ref(),
                (&format!("cube-{index}"), &expected),
                |path, record| Ok(Some(((0.0, 0.0), judge_leaders(path, hex, (level, max_penalty), &split, &record)?))),
                || {
                    lister(&encoding, &split, &cube).map(|(record, leaders)| {
                        let seconds = (record.seconds, record.cpu_seconds.unwrap_or(0.0));
                        (record, (seconds, leaders))
                    })
                },
            )?;
            on_cube(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            Ok(unit)
        })
        .collect();
    let mut listing = Listing {
        leaders: Vec::new(),
        listed: 0,
        resumed: Resumed::default(),
        resumed_leaves: Resumed::default(),
        seconds: 0.0,
        slowest: 0.0,
        cpu_seconds: 0.0,
    };
    for result in results {
        let unit = result?;
        if !listing.resumed.note_unit(&unit) {
            listing.listed += 1;
        }
        let ((seconds, cpu_seconds), leaders) = unit.value;
        listing.seconds += seconds;
        listing.slowest = listing.slowest.max(seconds);
        listing.cpu_seconds += cpu_seconds;
        listing.leaders.extend(leaders);
    }
    Ok(listing)
}

/// One cube's listing, by a solver of its own (untraced): its record, and
/// its leaders as `enumerate_under` judged them.
pub fn plain_cube<S: SatSolver + Default>(
    hex: &Hexagon,
    encoding: &LevelEncoding,
    split: &Split,
    cube: &[u8],
) -> Result<(CubeLeaders, Vec<Found>), HexError> {
    let started = Instant::now();
    let units = encoding.projection_literals(&split.cells, cube, split.depth);
    let found = enumerate_under::<S>(hex, encoding, &units, crate::options::SAT_ROAD_LEADERS.default)?;
    let record = leaders_record(hex, encoding, split, cube, &found, started.elapsed().as_secs_f64())?;
    Ok((record, found))
}
