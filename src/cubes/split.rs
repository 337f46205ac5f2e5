//! The split: a set of cells closed under the hexagon's 12 symmetries, and
//! the projections of a level-k partial onto it.
//!
//! A *projection* gives each split cell a value in `1..=j` or `j + 1`
//! ("more than j"), where `j <= k` is the split's depth in values (for a
//! plan, the deepest of its cubes' depths). The
//! projection of a level-k partial replaces every value above `j` by `j + 1`.
//! Invariant relied on by the cover argument: the split cells are exactly the
//! cells within `radius` of the centre, so every symmetry (all fix the
//! centre) maps the split onto itself, and the image of a partial's
//! projection is the projection of the partial's image.

use crate::error::HexError;
use crate::geometry::Hexagon;

/// Largest number of projections a split may have (options table).
pub const MAX_PROJECTIONS: u64 = crate::options::MAX_PROJECTIONS.default;

/// The split cells and the values a projection gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// Cells within this distance of the centre.
    pub radius: usize,
    /// Projected values are `1..=depth` and `depth + 1` ("more than depth").
    pub depth: u8,
    /// The split cells, in increasing cell index.
    pub cells: Vec<usize>,
    /// `images[g][i]`: position in `cells` of the image of `cells[i]` under symmetry `g`.
    pub images: Vec<Vec<usize>>,
}

impl Split {
    /// The SAT road's listing cubes: the centre and its six neighbours each
    /// `1` or "more than 1", 128 cubes that partition every formula's models
    /// (each model projects to exactly one).
    pub fn listing(hex: &Hexagon, level: u8) -> Result<Split, HexError> {
        Split::new(hex, level, 1, 1)
    }

    /// The cells within `radius` of the centre, projected at `depth`.
    pub fn new(hex: &Hexagon, level: u8, radius: usize, depth: u8) -> Result<Split, HexError> {
        if radius >= hex.side() {
            return Err(HexError::Usage(format!(
                "a split radius of {radius} leaves the side-{} hexagon (use 0..={})",
                hex.side(),
                hex.side() - 1
            )));
        }
        if depth == 0 || depth > level {
            return Err(HexError::Usage(format!("split depth {depth} must lie in 1..={level} (the level)")));
        }
        let cells = hex.cells_within(radius);
        let projections = u64::from(depth + 1).checked_pow(cells.len() as u32).unwrap_or(u64::MAX);
        if projections > MAX_PROJECTIONS {
            return Err(HexError::Usage(format!(
                "a split of {} cells at depth {depth} has {projections} projections, more than {MAX_PROJECTIONS}: lower the radius or the depth",
                cells.len()
            )));
        }
        let position = |cell: usize| cells.binary_search(&cell).expect("symmetries map the split onto itself");
        let images = hex.symmetries().iter().map(|perm| cells.iter().map(|&c| position(perm[c])).collect()).collect();
        Ok(Split { radius, depth, cells, images })
    }

    /// The value standing for "more than `depth`".
    pub fn above(&self) -> u8 {
        self.depth + 1
    }

    /// Number of projections, `(depth + 1) ^ cells`.
    pub fn projection_count(&self) -> u64 {
        u64::from(self.above()).pow(self.cells.len() as u32)
    }

    /// The projection with this index (base `depth + 1`, first cell most significant).
    pub fn projection(&self, mut index: u64) -> Vec<u8> {
        let base = u64::from(self.above());
        let mut values = vec![0u8; self.cells.len()];
        for slot in values.iter_mut().rev() {
            *slot = (index % base) as u8 + 1;
            index /= base;
        }
        values
    }

    /// The index of a projection: `projection`'s inverse.
    pub fn index(&self, values: &[u8]) -> u64 {
        values.iter().fold(0, |index, &v| index * u64::from(self.above()) + u64::from(v - 1))
    }

    /// The image of a projection under symmetry `g`.
    pub fn image(&self, g: usize, values: &[u8]) -> Vec<u8> {
        let mut image = vec![0u8; values.len()];
        for (i, &target) in self.images[g].iter().enumerate() {
            image[target] = values[i];
        }
        image
    }

    /// The representative of a projection's orbit: the image whose
    /// readings at depths 1, 2, ..., `depth`, one after the other, are
    /// lexicographically least (`reading_key`). At one depth this is the
    /// lexicographically least image; reading every shallower depth first
    /// makes the representative read, at each shallower depth, as the
    /// representative there, which mixed-depth plans and the VeriPB
    /// derivation of their cover rely on (src/derivation/cubes.rs).
    pub fn representative(&self, values: &[u8]) -> Vec<u8> {
        (0..self.images.len())
            .map(|g| self.image(g, values))
            .min_by_key(|image| self.reading_key(image))
            .expect("12 symmetries")
    }

    /// A projection read at depths 1, 2, ..., `depth`, one after the other.
    pub fn reading_key(&self, values: &[u8]) -> Vec<u8> {
        (1..=self.depth).flat_map(|d| Split::coarsen(values, d)).collect()
    }

    /// A projection at this split's depth, read at a depth `d` no deeper:
    /// every value above `d` becomes `d + 1`. The projection of a partial at
    /// depth `d` is the coarsening of its projection at any greater depth.
    pub fn coarsen(values: &[u8], d: u8) -> Vec<u8> {
        values.iter().map(|&v| v.min(d + 1)).collect()
    }

    /// The projection of a level-k partial's values onto the split.
    pub fn project(&self, values: &[u8]) -> Vec<u8> {
        self.cells.iter().map(|&c| values[c].min(self.above())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_inverts_projection() {
        let split = Split::new(&Hexagon::new(5).unwrap(), 3, 1, 2).unwrap();
        for index in 0..split.projection_count() {
            assert_eq!(split.index(&split.projection(index)), index);
        }
    }
}
