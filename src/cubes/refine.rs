//! Refining a cube found hard: its cubes one value deeper.
//!
//! A cube at depth `d` stands for every projection at depth `d + 1` that
//! reads as it at depth `d`: each cell it puts above `d` holds `d + 1` or
//! more. Those are its refinements; the locally refuted ones are dropped,
//! and of those that one symmetry fixing the cube maps onto each other only
//! one is kept (a symmetry moving the cube maps its refinements to those of
//! another orbit member, which the plan does not hold). The plan's cover is
//! re-checked by enumeration after every refinement, so none of this is
//! trusted.

use super::local::refute;
use super::split::Split;
use super::Cube;
use crate::error::HexError;
use crate::geometry::Hexagon;

/// The kept refinements of one cube.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refined {
    pub cubes: Vec<Cube>,
    /// Refinements refuted by the local rules.
    pub refuted: u64,
}

/// The cubes one value deeper than `cube`, for the split of `radius` at `level`.
pub fn refine(hex: &Hexagon, level: u8, radius: usize, below: usize, cube: &Cube) -> Result<Refined, HexError> {
    if !cube.literals.is_empty() {
        return Err(HexError::Usage(format!(
            "cube {:?} with path {:?} lies in a decision tree: split it further by the tree strategy, not by value",
            cube.values, cube.literals
        )));
    }
    let d = cube.depth;
    if d >= level {
        return Err(HexError::Usage(format!(
            "cube {:?} is at depth {d}, the level: its cells' values are all decided, so it cannot be refined by value",
            cube.values
        )));
    }
    let split = Split::new(hex, level, radius, d + 1)?;
    if cube.values.len() != split.cells.len() {
        return Err(HexError::Usage(format!(
            "cube {:?} does not give the {} split cells a value each",
            cube.values,
            split.cells.len()
        )));
    }
    let stabilizer: Vec<usize> =
        (0..split.images.len()).filter(|&g| split.image(g, &cube.values) == cube.values).collect();
    let open: Vec<usize> = (0..cube.values.len()).filter(|&i| cube.values[i] == d + 1).collect();
    let mut refined = Refined { cubes: Vec::new(), refuted: 0 };
    for choice in 0u64..1 << open.len() {
        let mut values = cube.values.clone();
        for (bit, &i) in open.iter().enumerate() {
            values[i] = d + 1 + ((choice >> bit) & 1) as u8;
        }
        if refute(hex, &split, below, &values).is_some() {
            refined.refuted += 1;
        } else if stabilizer.iter().map(|&g| split.image(g, &values)).min().is_some_and(|least| least == values) {
            refined.cubes.push(Cube::values(d + 1, values));
        }
    }
    refined.cubes.sort();
    Ok(refined)
}
