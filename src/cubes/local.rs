//! Refuting a projection without a solver: what its split cells alone force.
//!
//! Both rules read docs/PROBLEM.md directly (like `validation`) and hold for
//! every valid level-k partial whose projection this is, whatever the cells
//! outside the split hold:
//! - **support**: a cell of projected value `p` needs every value `a < p`
//!   (with `a <= depth`) among its neighbours. A split neighbour supplies `a`
//!   exactly when its projected value is `a` (a neighbour projected above the
//!   depth holds more than `depth >= a`). Each neighbour outside the split
//!   supplies at most one value, so more missing values than outside
//!   neighbours make the partial invalid.
//! - **penalty**: an edge inside the split whose ends are projected to the
//!   same value `<= depth` is an equal-value penalty edge (both ends are
//!   decided at level `k >= depth`); a cell that sees a value `a <= depth`
//!   on `m > 1` split neighbours, all below its own value, has at least
//!   `m - 1` duplicate-support penalty edges, charged to it alone (the higher
//!   end). These edges are distinct, so their number is a lower bound on the
//!   level-k penalty; reaching `below` refutes "penalty below `below`".

use super::split::Split;
use crate::geometry::Hexagon;

/// Why no valid level-k partial with penalty below the bound has this projection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LocalRefutation {
    /// This split cell misses more values than it has neighbours outside the split.
    Unsupported { cell: usize },
    /// The split's own penalty edges number at least the bound.
    Penalty { at_least: usize },
}

/// A reason the projection cannot extend to a valid partial with penalty below `below`, if one is local.
pub fn refute(hex: &Hexagon, split: &Split, below: usize, values: &[u8]) -> Option<LocalRefutation> {
    let position = |cell: usize| split.cells.binary_search(&cell).ok();
    let mut penalty = 0;
    for (i, &cell) in split.cells.iter().enumerate() {
        let own = values[i];
        // seen[a]: split neighbours projected to value a.
        let mut seen = [0usize; 9];
        let mut outside = 0;
        for &u in hex.neighbours(cell) {
            match position(u) {
                Some(j) => seen[values[j] as usize] += 1,
                None => outside += 1,
            }
        }
        let needed = (own - 1).min(split.depth) as usize;
        let missing = (1..=needed).filter(|&a| seen[a] == 0).count();
        if missing > outside {
            return Some(LocalRefutation::Unsupported { cell });
        }
        penalty += (1..=needed).map(|a| seen[a].saturating_sub(1)).sum::<usize>();
        if own <= split.depth {
            // Each equal edge once, from its lower-indexed end.
            penalty += hex
                .neighbours(cell)
                .iter()
                .filter(|&&u| u > cell && position(u).is_some_and(|j| values[j] == own))
                .count();
        }
    }
    (penalty >= below).then_some(LocalRefutation::Penalty { at_least: penalty })
}
