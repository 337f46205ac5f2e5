//! The hexagon of side `n`: cells, neighbours, edges, rings and its 12 symmetries.
//!
//! Cells use the skewed coordinates of the published grid files: row `i` and
//! column `j` in `0..2n-1`, a cell when `|i - j| < n`. Cells are numbered in
//! row-major order, and that numbering is the one every other module relies on:
//! - `neighbours(c)` is sorted by cell index (the encoder and the validator both
//!   charge duplicate support by this order);
//! - `edges()` lists each edge once as `(u, v)` with `u < v`, sorted, so the
//!   edge index of an edge is the same for every consumer.

use crate::error::HexError;

/// Largest side accepted anywhere in the engine.
pub const MAX_SIDE: usize = 40;

/// The six neighbour offsets `(di, dj)` in skewed coordinates.
const OFFSETS: [(i32, i32); 6] = [(1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0), (0, 1)];

/// A hexagon of side `n` with its adjacency precomputed.
#[derive(Debug, Clone)]
pub struct Hexagon {
    n: usize,
    coords: Vec<(i32, i32)>,
    /// `index[i * (2n-1) + j]` is the cell at `(i, j)`, if any.
    index: Vec<Option<usize>>,
    neighbours: Vec<Vec<usize>>,
    edges: Vec<(usize, usize)>,
    /// `edge_ids[c]` is parallel to `neighbours[c]`: the edge index of `(c, neighbour)`.
    edge_ids: Vec<Vec<usize>>,
}

impl Hexagon {
    /// The hexagon of side `n`, for `1 <= n <= MAX_SIDE`.
    pub fn new(n: usize) -> Result<Hexagon, HexError> {
        if !(1..=MAX_SIDE).contains(&n) {
            return Err(HexError::Usage(format!("hexagon side {n} is out of range: use 1..={MAX_SIDE}")));
        }
        let width = 2 * n - 1;
        let mut coords = Vec::new();
        let mut index = vec![None; width * width];
        for i in 0..width {
            for j in 0..width {
                if i.abs_diff(j) < n {
                    index[i * width + j] = Some(coords.len());
                    coords.push((i as i32, j as i32));
                }
            }
        }
        let mut hex = Hexagon { n, coords, index, neighbours: Vec::new(), edges: Vec::new(), edge_ids: Vec::new() };
        hex.neighbours = (0..hex.cell_count()).map(|c| hex.compute_neighbours(c)).collect();
        hex.edges = (0..hex.cell_count())
            .flat_map(|u| hex.neighbours[u].iter().filter(move |&&v| v > u).map(move |&v| (u, v)))
            .collect();
        hex.edge_ids = hex
            .neighbours
            .iter()
            .enumerate()
            .map(|(u, ns)| ns.iter().map(|&v| hex.edge_between(u, v)).collect())
            .collect();
        Ok(hex)
    }

    fn compute_neighbours(&self, c: usize) -> Vec<usize> {
        let (i, j) = self.coords[c];
        let mut ns: Vec<usize> = OFFSETS.iter().filter_map(|&(di, dj)| self.cell_at(i + di, j + dj)).collect();
        ns.sort_unstable();
        ns
    }

    fn edge_between(&self, u: usize, v: usize) -> usize {
        let key = (u.min(v), u.max(v));
        self.edges.binary_search(&key).expect("neighbours share an edge")
    }

    /// The side length.
    pub fn side(&self) -> usize {
        self.n
    }

    /// Number of cells, `3n(n-1)+1`.
    pub fn cell_count(&self) -> usize {
        self.coords.len()
    }

    /// Width of the skewed square that holds the hexagon, `2n-1`.
    pub fn width(&self) -> usize {
        2 * self.n - 1
    }

    /// The cell at skewed coordinates `(i, j)`, if it lies in the hexagon.
    pub fn cell_at(&self, i: i32, j: i32) -> Option<usize> {
        let w = self.width() as i32;
        if i < 0 || j < 0 || i >= w || j >= w {
            return None;
        }
        self.index[(i * w + j) as usize]
    }

    /// Skewed coordinates `(row, column)` of a cell.
    pub fn coords(&self, cell: usize) -> (i32, i32) {
        self.coords[cell]
    }

    /// Neighbours of a cell, sorted by index.
    pub fn neighbours(&self, cell: usize) -> &[usize] {
        &self.neighbours[cell]
    }

    /// Edge indices parallel to `neighbours(cell)`.
    pub fn incident_edges(&self, cell: usize) -> &[usize] {
        &self.edge_ids[cell]
    }

    /// Every edge once, `(u, v)` with `u < v`, sorted.
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.edges
    }

    /// Cube coordinates `(x, y, z)`, `x + y + z = 0`, centred on the middle cell.
    pub fn cube(&self, cell: usize) -> (i32, i32, i32) {
        let c = self.n as i32 - 1;
        let (i, j) = self.coords[cell];
        let (a, b) = (i - c, j - c);
        (a, b - a, -b)
    }

    /// The cell at cube coordinates `(x, y, z)` (centre at the origin), if any.
    pub fn cell_at_cube(&self, (x, y, z): (i32, i32, i32)) -> Option<usize> {
        if x + y + z != 0 {
            return None;
        }
        let c = self.n as i32 - 1;
        self.cell_at(x + c, -z + c)
    }

    fn cell_from_cube(&self, cube: (i32, i32, i32)) -> usize {
        self.cell_at_cube(cube).expect("symmetries map the hexagon onto itself")
    }

    /// Ring of a cell: 1 on the perimeter, `n` at the centre.
    pub fn ring(&self, cell: usize) -> usize {
        let (x, y, z) = self.cube(cell);
        self.n - x.abs().max(y.abs()).max(z.abs()) as usize
    }

    /// The cells within distance `radius` of the centre, in increasing
    /// index: a set every symmetry maps onto itself (all fix the centre).
    pub fn cells_within(&self, radius: usize) -> Vec<usize> {
        (0..self.cell_count()).filter(|&c| self.n - self.ring(c) <= radius).collect()
    }

    /// The centre cell.
    pub fn centre(&self) -> usize {
        self.cell_count() / 2
    }

    /// The 12 symmetries of the hexagon as cell permutations: `perm[c]` is the
    /// image of cell `c`. Index 0 is the identity, 0..6 are rotations by
    /// multiples of 60 degrees, 6..12 are those rotations after a reflection.
    pub fn symmetries(&self) -> Vec<Vec<usize>> {
        let rotate = |(x, y, z): (i32, i32, i32)| (-z, -x, -y);
        let reflect = |(x, y, z): (i32, i32, i32)| (x, z, y);
        let mut perms = Vec::with_capacity(12);
        for mirrored in [false, true] {
            for turns in 0..6 {
                let perm = (0..self.cell_count())
                    .map(|c| {
                        let mut p = self.cube(c);
                        if mirrored {
                            p = reflect(p);
                        }
                        for _ in 0..turns {
                            p = rotate(p);
                        }
                        self.cell_from_cube(p)
                    })
                    .collect();
                perms.push(perm);
            }
        }
        perms
    }
}

/// Number of cells of the side-`n` hexagon, `3n(n-1)+1`.
pub fn cell_count(n: usize) -> usize {
    3 * n * (n - 1) + 1
}

/// Number of edges of the side-`n` hexagon, `3(n-1)(3n-2)`.
pub fn edge_count(n: usize) -> usize {
    3 * (n - 1) * (3 * n - 2)
}
