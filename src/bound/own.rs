//! The owned penalty: the level-k penalty of a partial split into one
//! non-negative term per cell, each read from the cell's closed neighbourhood
//! alone, so that a window of cells can be charged without the rest of the
//! hexagon (`bound::window`).
//!
//! Every penalty edge of docs/PROBLEM.md, section 4, is owned exactly once:
//! an edge between two equal decided values by its lower-indexed end; a
//! duplicate support (`m > 1` sightings of a decided value below the cell's
//! own) by the higher end, the one that sees the duplicates, for `m - 1`.
//! tests/bound.rs checks the sum against `validation::evaluate`'s penalty.

use crate::geometry::Hexagon;
use crate::levels::Partial;

/// The penalty `cell` owns at `level`, read from `values` (indexed by cell,
/// `level + 1` for `+`); only the cell's own value and its neighbours' are read.
pub fn owned(hex: &Hexagon, level: u8, values: &[u8], cell: usize) -> usize {
    let value = values[cell];
    let mut seen = [0usize; 8];
    let mut equal = 0;
    for &u in hex.neighbours(cell) {
        let w = values[u];
        if w == value && value <= level && cell < u {
            equal += 1;
        }
        if w < value {
            seen[usize::from(w)] += 1;
        }
    }
    equal + seen.iter().map(|&m| m.saturating_sub(1)).sum::<usize>()
}

/// The sum of every cell's owned penalty: the level-k penalty of `partial`.
pub fn owned_total(hex: &Hexagon, partial: &Partial) -> usize {
    (0..hex.cell_count()).map(|c| owned(hex, partial.level(), partial.values(), c)).sum()
}
