//! The frontier schedule of the transfer-matrix dynamic program.
//!
//! Cells are placed one at a time in the geometry's row-major order. Before
//! cell `t` is placed, the *frontier* is the list of placed cells (`< t`) that
//! still have an unplaced neighbour (`>= t`). Invariant relied on: a cell's
//! value and everything it sees are final once all its neighbours are placed,
//! so a cell can be checked (is every value below its own seen?) exactly when
//! it leaves the frontier, and no later step ever needs it again.
//!
//! Every placed frontier cell is stored as one *code*: `(1 << (v - 1)) | seen`
//! where `v` is its value in `1..=k+1` (`k+1` is `+`) and `seen` is the
//! bitmask of the values below `v` that it already sees (bit `a - 1` for value
//! `a`). The highest set bit gives `v`; a cell sees everything it needs exactly
//! when its code is `(1 << v) - 1`, all ones. Codes fit `k + 1` bits.

use crate::error::HexError;
use crate::geometry::Hexagon;

/// Bits of a packed state reserved for the frontier codes; the bits above
/// hold the penalty so far (see `transfer`).
pub const STATE_BITS: u32 = 120;

/// What happens when cell `t` is placed.
#[derive(Debug, Clone)]
pub struct Step {
    /// Slots (in the frontier before the step) of the new cell's placed neighbours.
    pub earlier: Vec<usize>,
    /// Slots of the extended frontier (old frontier, then the new cell at its
    /// end) that leave after this step, because all their neighbours are placed.
    pub retiring: Vec<usize>,
    /// Slots of the extended frontier that stay, in their new order.
    pub staying: Vec<usize>,
    /// `unplaced[s]`: neighbours of extended-frontier slot `s` still unplaced
    /// after this step. A cell missing more values than this is already dead.
    pub unplaced: Vec<u32>,
}

/// The whole schedule for one hexagon and level.
#[derive(Debug, Clone)]
pub struct Schedule {
    pub level: u8,
    pub cells: usize,
    /// Bits per frontier slot, `level + 1`.
    pub slot_bits: u32,
    pub steps: Vec<Step>,
}

impl Schedule {
    /// The schedule, or a usage error when the widest frontier does not fit a state.
    pub fn new(hex: &Hexagon, level: u8) -> Result<Schedule, HexError> {
        let slot_bits = u32::from(level) + 1;
        let cells = hex.cell_count();
        let last_neighbour: Vec<usize> =
            (0..cells).map(|c| hex.neighbours(c).iter().copied().max().unwrap_or(c).max(c)).collect();
        let mut frontier: Vec<usize> = Vec::new();
        let mut steps = Vec::with_capacity(cells);
        for t in 0..cells {
            let earlier = frontier
                .iter()
                .enumerate()
                .filter(|(_, &c)| hex.neighbours(t).contains(&c))
                .map(|(slot, _)| slot)
                .collect();
            let mut extended = frontier.clone();
            extended.push(t);
            let (retiring, staying): (Vec<usize>, Vec<usize>) =
                (0..extended.len()).partition(|&s| last_neighbour[extended[s]] <= t);
            let unplaced =
                extended.iter().map(|&c| hex.neighbours(c).iter().filter(|&&u| u > t).count() as u32).collect();
            frontier = staying.iter().map(|&s| extended[s]).collect();
            if (frontier.len() as u32) * slot_bits > STATE_BITS {
                return Err(HexError::Usage(format!(
                    "side {} is too wide for the level-{level} frontier counter",
                    hex.side()
                )));
            }
            steps.push(Step { earlier, retiring, staying, unplaced });
        }
        Ok(Schedule { level, cells, slot_bits, steps })
    }

    /// The stored value of `+`.
    pub fn plus(&self) -> u8 {
        self.level + 1
    }

    /// Largest frontier size over all steps.
    pub fn width(&self) -> usize {
        self.steps.iter().map(|s| s.staying.len()).max().unwrap_or(0)
    }
}

/// The value `1..=k+1` held by a cell code.
#[inline]
pub fn code_value(code: u8) -> u8 {
    8 - code.leading_zeros() as u8
}

/// The code of a freshly placed cell of value `v` that has seen `seen`.
#[inline]
pub fn make_code(value: u8, seen: u8) -> u8 {
    (1u8 << (value - 1)) | seen
}

/// How many values below its own the cell of this code has not seen yet.
#[inline]
pub fn missing_count(code: u8) -> u32 {
    u32::from(code_value(code)) - code.count_ones()
}

/// Lower bound on the penalty still to be charged after `placed` cells, from
/// the least penalty so far of each forward layer computed yet (`minima[t]`
/// after `t` cells, `None` for an empty layer).
///
/// Invariant relied on: the row-major order reversed is the order of the
/// hexagon rotated by 180 degrees, so the cells still to place after `placed`
/// cells form, up to that rotation, the first `cells - placed` cells; what is
/// still to come includes the penalty among them, at least the least penalty
/// so far of any surviving layer-`(cells - placed)` state. The minima grow
/// with the layer, so before that layer is reached the latest minimum is a
/// weaker valid bound.
pub fn minimum_bound(minima: &[Option<usize>], cells: usize, placed: usize) -> usize {
    let mirror = cells - placed;
    let known = mirror.min(minima.len() - 1);
    // An empty layer means nothing survives; any bound is then valid, but the
    // sweep is over anyway, so the weakest one (0) is used.
    minima[known].unwrap_or(0)
}
