//! The cheapest full grid refining a level-4 partial, without a solver.
//!
//! By the rules in `chains` (module header), the `+` cells of a valid
//! level-4 partial form paths and cycles, a refinement labels each component
//! with 5, 6 and 7 independently, and the added penalty is the sum of the
//! components' added penalties. So the cheapest refinement labels every
//! component with a cheapest valid labelling of its shape, found here by
//! dynamic programming along the component (state: the last two labels).
//!
//! The search uses this to settle levels 5 and 6 from a level-4 witness when
//! the completion costs nothing extra; whatever it builds is re-checked by
//! the plain validator before it is used.

use std::collections::{BTreeMap, HashMap};

use crate::counting::chains::components::{cell_cost, edge_cost, plus_components, Shape};
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::{Partial, FULL_LEVEL};

const LABELS: [u8; 3] = [5, 6, 7];

/// A cheapest valid labelling of a component of this shape at level 6, and
/// its added penalty; `None` when the shape has no valid labelling.
pub fn cheapest_labels(shape: Shape) -> Option<(usize, Vec<u8>)> {
    let (len, cyclic) = match shape {
        Shape::Path(len) => (len, false),
        Shape::Cycle(len) => (len, true),
    };
    if len == 1 {
        // A lone `+` cell has no component neighbours: only 5 is valid.
        return LABELS.iter().find_map(|&l| cell_cost(l, &[]).map(|c| (c, vec![l])));
    }
    let mut best: Option<(usize, Vec<u8>)> = None;
    for &first in &LABELS {
        for &second in &LABELS {
            if let Some(found) = cheapest_from(len, cyclic, first, second) {
                if best.as_ref().is_none_or(|(cost, _)| found.0 < *cost) {
                    best = Some(found);
                }
            }
        }
    }
    best
}

/// The cheapest labelling starting `first, second`. Invariant of `layers[i]`
/// (keyed by the labels of cells `i-1, i`): the cost counts every component
/// edge among cells `0..=i` and every cell whose neighbours are all labelled
/// (cells `1..i-1`, and cell 0 on a path); a cycle's cells 0 and `len-1` and
/// its closing edge are added at the end.
fn cheapest_from(len: usize, cyclic: bool, first: u8, second: u8) -> Option<(usize, Vec<u8>)> {
    let mut start = edge_cost(first, second, FULL_LEVEL);
    if !cyclic {
        start += cell_cost(first, &[second])?;
    }
    // Each entry: cost so far and the label of cell i-2 (for the traceback).
    // Ordered maps: ties between equal costs go the same way in every run,
    // so the same partial always completes to the same grid.
    let mut layers: Vec<BTreeMap<(u8, u8), (usize, u8)>> = vec![BTreeMap::from([((first, second), (start, 0))])];
    for _ in 2..len {
        let mut next: BTreeMap<(u8, u8), (usize, u8)> = BTreeMap::new();
        for (&(before, last), &(cost, _)) in layers.last().expect("at least one layer") {
            for &label in &LABELS {
                let Some(middle) = cell_cost(last, &[before, label]) else { continue };
                let total = cost + middle + edge_cost(last, label, FULL_LEVEL);
                let slot = next.entry((last, label)).or_insert((usize::MAX, before));
                if total < slot.0 {
                    *slot = (total, before);
                }
            }
        }
        layers.push(next);
    }
    let (mut state, cost) = layers
        .last()
        .expect("at least one layer")
        .iter()
        .filter_map(|(&(before, last), &(cost, _))| {
            let end = if cyclic {
                cell_cost(last, &[before, first])?
                    + cell_cost(first, &[last, second])?
                    + edge_cost(last, first, FULL_LEVEL)
            } else {
                cell_cost(last, &[before])?
            };
            Some(((before, last), cost + end))
        })
        .min_by_key(|&(state, cost)| (cost, state))?;
    let mut labels = vec![state.1, state.0];
    for layer in layers.iter().skip(1).rev() {
        let before = layer[&state].1;
        state = (before, state.0);
        labels.push(before);
    }
    labels.reverse();
    debug_assert_eq!(labels.len(), len);
    Some((cost, labels))
}

/// The cheapest full grid refining `partial` (of level 4 or above; higher
/// levels are first truncated to level 4). Errors when a `+` cell has more
/// than two `+` neighbours or a component has no valid labelling, which a
/// valid level-4 partial never has.
pub fn cheapest_completion(hex: &Hexagon, partial: &Partial) -> Result<Partial, HexError> {
    if partial.level() < 4 {
        return Err(HexError::Usage(format!("completion starts from level 4, not {}", partial.level())));
    }
    let base = partial.truncate(4)?;
    let mut values = base.values().to_vec();
    let mut labelled: HashMap<Shape, Vec<u8>> = HashMap::new();
    for (cells, shape) in plus_components(hex, base.values())? {
        let labels = match labelled.entry(shape) {
            std::collections::hash_map::Entry::Occupied(known) => known.into_mut(),
            std::collections::hash_map::Entry::Vacant(slot) => {
                let (_, labels) = cheapest_labels(shape)
                    .ok_or_else(|| HexError::Internal(format!("no valid labelling of {shape:?}")))?;
                slot.insert(labels)
            }
        };
        for (&cell, &label) in cells.iter().zip(labels.iter()) {
            values[cell] = label;
        }
    }
    Partial::new(hex.side(), FULL_LEVEL, values)
}
