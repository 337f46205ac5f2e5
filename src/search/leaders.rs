//! The SAT road's lex-leaders listed cube by cube: in parallel, and
//! resumable, one small record per finished cube.
//!
//! The ring-1 lex-leader formula of "penalty <= P" is split on the
//! projection of the centre and its six neighbours at depth 1 (each cell
//! `1` or "more than 1"): the 128 cubes partition its models, so the union
//! of the cubes' listings is the whole listing `orbits::orbit_count` makes
//! in one solver, and no partial is listed twice. Splitting pays twice: the
//! cubes run on every core, and the last call of each cube (the one that
//! shows its listing is complete) is a fraction of the one last call of a
//! single listing, which is as hard as certifying the bound below.
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
use std::time::Instant;

use super::enumerate_under;
use crate::cubes::Split;
use crate::encoding::model::Found;
use crate::encoding::LevelEncoding;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::digits;
use crate::records::leaders::{listing_encoding, CubeLeaders, LEADERS_FORMAT};
use crate::records::ledger::{resume_or_do, Ledger, Resumed, Unit};
use crate::solving::SatSolver;
use rayon::prelude::*;

/// A cube listed or read back: its solver seconds in this run (0 when read
/// back) and its leaders, and who wrote the record it was read back from.
type CubeOutcome = Unit<(f64, Vec<Found>)>;

/// Lists one cube: its record and its leaders as judged. `list_by_cubes`
/// takes the plain one (`plain_cube::<S>`) or the certified one
/// (`certify::listing`).
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
    /// records (`certify::listing`), and who wrote them.
    pub resumed_leaves: Resumed,
    /// Solver seconds of the cubes listed in this run, and the slowest one.
    pub seconds: f64,
    pub slowest: f64,
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
                |path, record| Ok(Some((0.0, judge_leaders(path, hex, (level, max_penalty), &split, &record)?))),
                || {
                    lister(&encoding, &split, &cube).map(|(record, leaders)| {
                        let seconds = record.seconds;
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
    };
    for result in results {
        let unit = result?;
        if !listing.resumed.note_unit(&unit) {
            listing.listed += 1;
        }
        let (seconds, leaders) = unit.value;
        listing.seconds += seconds;
        listing.slowest = listing.slowest.max(seconds);
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

/// The record of a cube whose leaders are `found` (no certificate yet): every
/// leader's penalty, as the validator judged it, within the bound.
pub fn leaders_record(
    hex: &Hexagon,
    encoding: &LevelEncoding,
    split: &Split,
    cube: &[u8],
    found: &[Found],
    seconds: f64,
) -> Result<CubeLeaders, HexError> {
    let (level, max_penalty) = (encoding.level(), encoding.options.max_penalty.unwrap_or(usize::MAX));
    // The validator's penalty, not the formula's bound, keeps a leader.
    if let Some(over) = found.iter().find(|f| f.evaluation.penalty > max_penalty) {
        return Err(HexError::Internal(format!(
            "leader {} has penalty {} > {max_penalty}",
            digits(over.partial.values()),
            over.evaluation.penalty
        )));
    }
    Ok(CubeLeaders {
        format: LEADERS_FORMAT.into(),
        n: hex.side(),
        level,
        max_penalty,
        encoder: crate::encoding::ENCODER_VERSION.into(),
        cells: split.cells.clone(),
        cube: cube.to_vec(),
        path: Vec::new(),
        leaders: found.iter().map(|f| digits(f.partial.values())).collect(),
        seconds,
        cpu_seconds: None,
        written_by: crate::run::attestation(),
        certificate: None,
        leaves: Vec::new(),
    })
}

/// A record written by an earlier run, of this count and cube or leaf (the
/// ledger matched it), judged by `records::leaders::judge_leaders`; its
/// completeness is its certificate's or its writer's word (see the header).
pub fn judge_leaders(
    path: &Path,
    hex: &Hexagon,
    bound: (u8, usize),
    split: &Split,
    record: &CubeLeaders,
) -> Result<Vec<Found>, HexError> {
    let judged = crate::records::leaders::judge_leaders(path, hex, bound, &|values| split.project(values), record)?;
    Ok(judged.into_iter().map(|(partial, evaluation)| Found { partial, evaluation }).collect())
}
