//! The cover check: the kept cubes, with their symmetric images and the
//! locally refuted projections, account for every projection of the split.
//!
//! This is the whole argument that solving only the kept cubes decides the
//! claim (docs/SOUNDNESS.md, section 7), so it is checked from the plan's
//! cube list alone, by enumeration, sharing nothing with the planner but the
//! split's geometry and the local rules: every projection at the split's
//! depth (the deepest cube's) is either refuted by `local::refute` or has
//! some image, under one of the 12 symmetries, whose coarsening to some kept
//! cube's depth is that cube. It never calls a solver and never computes an
//! orbit representative, so a planner that drops, merges or mislabels an
//! orbit, or refines a cube into too few, is caught.

use std::collections::HashSet;

use super::local::refute;
use super::split::Split;
use crate::geometry::Hexagon;
use crate::records::plan::{check_projections, Cover, CoverError, Cube};

/// Checks that `cubes` cover the split; the error names the first projection left out.
///
/// # Errors
///
/// `CoverError::NotAProjection` (`check_projections`), `CoverError::Twice`
/// for a cube listed twice, `CoverError::Uncovered` naming the first
/// projection neither refuted nor the image of a cube.
pub fn check_cover(hex: &Hexagon, split: &Split, below: usize, cubes: &[Cube]) -> Result<Cover, CoverError> {
    let mut kept = HashSet::with_capacity(cubes.len());
    let mut whole = HashSet::with_capacity(cubes.len());
    check_projections(split.cells.len(), split.depth, cubes)?;
    for (index, cube) in cubes.iter().enumerate() {
        if !whole.insert(cube) {
            return Err(CoverError::Twice { index });
        }
        // The leaves of a tree below one projection share it: the orbit
        // cover is about projections, the trees are checked by `tree`.
        kept.insert(cube.projection());
    }
    let mut depths: Vec<u8> = cubes.iter().map(|c| c.depth).collect();
    depths.sort_unstable();
    depths.dedup();
    let covers = |image: &[u8]| depths.iter().any(|&d| kept.contains(&Cube::values(d, Split::coarsen(image, d))));
    let mut cover = Cover { projections: split.projection_count(), refuted: 0, covered: 0 };
    for index in 0..cover.projections {
        let values = split.projection(index);
        if refute(hex, split, below, &values).is_some() {
            cover.refuted += 1;
        } else if (0..split.images.len()).any(|g| covers(&split.image(g, &values))) {
            cover.covered += 1;
        } else {
            return Err(CoverError::Uncovered { values, depth: split.depth, cells: split.cells.clone() });
        }
    }
    Ok(cover)
}
