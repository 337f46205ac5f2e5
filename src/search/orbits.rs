//! The SAT road to a count: the solver lists the ring-1 lex-leaders of
//! penalty `<= P` (each model validated and blocked), and the 12 symmetries
//! close them into every partial of penalty `<= P`.
//!
//! Invariants relied on:
//! - the ring-1 lex-leader constraints keep at least one member of every
//!   symmetry class (docs/SOUNDNESS.md, section 3; `tests/symmetry.rs`
//!   checks it by enumeration on small hexagons);
//! - a symmetry maps a valid partial onto a valid partial of the same penalty
//!   (the validator is re-run on every image, so this is checked, not assumed).
//!
//! So the union of the orbits of the listed leaders is exactly the set of
//! valid partials of penalty `<= P`. This module uses no counting code: it is
//! the second road beside the frontier sweep (`counting`).

use super::enumerate;
use super::leaders::{list_by_cubes, plain_cube, CubeLister, Listing};
use crate::encoding::model::Found;
use crate::encoding::{EncodeOptions, SymmetryBreaking};
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::solving::SatSolver;

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
