//! The cover check: the kept cubes, with their symmetric images and the
//! locally refuted projections, account for every projection of the split.
//!
//! This is the whole argument that solving only the kept cubes decides the
//! claim (docs/SOUNDNESS.md, section 7), so it is checked from the plan's
//! cube list alone, by enumeration, sharing nothing with the planner but the
//! split's geometry and the local rules: every projection is either refuted
//! by `local::refute` or has some image (under one of the 12 symmetries) that
//! is a kept cube. It never calls a solver and never computes an orbit
//! representative, so a planner that drops, merges or mislabels an orbit is
//! caught.

use std::collections::HashSet;

use super::local::refute;
use super::split::Split;
use crate::geometry::Hexagon;

/// What the enumeration saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cover {
    /// Projections of the split, `(depth + 1) ^ cells`.
    pub projections: u64,
    /// Projections refuted by the local rules.
    pub refuted: u64,
    /// Projections that are the image of a kept cube.
    pub covered: u64,
}

/// Checks that `cubes` cover the split; the error names the first projection left out.
pub fn check_cover(hex: &Hexagon, split: &Split, below: usize, cubes: &[Vec<u8>]) -> Result<Cover, String> {
    let mut kept = HashSet::with_capacity(cubes.len());
    for (index, cube) in cubes.iter().enumerate() {
        if cube.len() != split.cells.len() || cube.iter().any(|&v| v == 0 || v > split.above()) {
            return Err(format!("cube {index} is not a projection onto the {} split cells", split.cells.len()));
        }
        if !kept.insert(cube.as_slice()) {
            return Err(format!("cube {index} appears twice"));
        }
    }
    let mut cover = Cover { projections: split.projection_count(), refuted: 0, covered: 0 };
    for index in 0..cover.projections {
        let values = split.projection(index);
        if refute(hex, split, below, &values).is_some() {
            cover.refuted += 1;
        } else if (0..split.images.len()).any(|g| kept.contains(split.image(g, &values).as_slice())) {
            cover.covered += 1;
        } else {
            return Err(format!("projection {values:?} of the split cells {:?} is neither refuted nor the image of a cube", split.cells));
        }
    }
    Ok(cover)
}
