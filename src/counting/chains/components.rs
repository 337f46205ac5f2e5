//! Levels 5 and 6 from level 4: the chain-and-cycle analysis.
//!
//! Let `Q` be a valid level-4 partial of penalty `P4` and `G` the graph the `+`
//! cells of `Q` induce. The rules below follow from docs/PROBLEM.md, section 4, alone.
//!
//! 1. **`G` has maximum degree 2.** A `+` cell must see 1, 2, 3 and 4, so at
//!    least four of its at most six neighbours are decided: at most two are `+`.
//!    (Border cells have four neighbours and so no `+` neighbour; corners, with
//!    three, cannot be `+` at all.) `G` is a disjoint union of paths (a single
//!    cell is a path of length 1) and cycles (length >= 3).
//! 2. **Refining only adds terms inside components.** A level-5 (level-6)
//!    refinement of `Q` relabels each `+` cell as 5 or `+` (as 5, 6 or 7). Cells
//!    of value `<= 4` keep their penalty terms, since those only look at lower
//!    values, which did not change. A former `+` cell keeps its terms for the
//!    values 1..4. The new terms are: edges between two equal new labels that
//!    are decided (5-5 at level 5; 5-5 and 6-6 at level 6; never `+`-`+`), and
//!    for a cell labelled `L`, for each new value `a` with `5 <= a < L`,
//!    `max(0, m_a - 1)` where `m_a` counts its neighbours labelled `a`. A
//!    neighbour labelled 5 or more was `+` in `Q`, so both kinds of terms only
//!    involve edges of `G`.
//! 3. **Validity is also local.** A cell labelled `L` must see every value
//!    `5..L` (`L` = 6 at level 5 for `+`; `L` = 6 or 7 at level 6); those
//!    neighbours are its neighbours in `G`.
//!
//! Hence the refinements of `Q` are the products of independent labellings of
//! the components, and the added penalty is the sum over components. With
//! `W_C(x) = sum over valid labellings of C of x^(added penalty)`:
//!
//! `count_k(p) = [x^p] sum over Q with P4 <= p of x^P4 * prod over C of W_C(x)`.
//!
//! `W_C` depends only on the level, on whether `C` is a path or a cycle, and on
//! its length: it is computed by a transfer over the labels along the
//! component (no closed forms are assumed). Since added penalties are never
//! negative, every level-k partial of penalty `<= B` refines a level-4 partial
//! of penalty `<= B`: enumerating those is enough for the exact counts `<= B`.
//!
//! Consequences that the tests cross-check against direct enumeration (they
//! are not used by the code): at level 6 a `7` needs one 5 and one 6 among two
//! `G`-neighbours, and the remarks of docs/PROBLEM.md, section 5 (paths complete at no cost, cycles
//! of length divisible by 3 at no cost, other cycles at cost 1).

use std::collections::HashMap;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::error::HexError;
use crate::geometry::Hexagon;

/// A truncated polynomial `sum c_p x^p`, `p <= cap`.
pub type Poly = Vec<BigUint>;

/// The shape of a component of the `+` graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Shape {
    Path(usize),
    Cycle(usize),
}

/// `+` at level 4, as partials store it (`k + 1`).
pub(in crate::counting) const PLUS: u8 = 5;

/// The shapes of the components of the `+` cells of a level-4 partial, sorted.
pub fn components(hex: &Hexagon, values: &[u8]) -> Result<Vec<Shape>, HexError> {
    let mut shapes: Vec<Shape> = plus_components(hex, values)?.into_iter().map(|(_, shape)| shape).collect();
    shapes.sort_unstable();
    Ok(shapes)
}

/// The components of the `+` cells of a level-4 partial, each as its cells
/// in walk order (a path from one end, a cycle around from any cell) with
/// its shape; an error when a `+` cell has more than two `+` neighbours,
/// which rule 1 rules out for a valid partial.
pub(in crate::counting) fn plus_components(hex: &Hexagon, values: &[u8]) -> Result<Vec<(Vec<usize>, Shape)>, HexError> {
    let plus: Vec<usize> = (0..values.len()).filter(|&c| values[c] == PLUS).collect();
    let mut found = Vec::new();
    Walk::new(values.len())
        .components(
            &plus,
            |c| hex.neighbours(c).iter().copied().filter(|&u| values[u] == PLUS),
            |cells, shape| found.push((cells.to_vec(), shape)),
        )
        .map_err(|c| HexError::Internal(format!("`+` cell {c} has more than two `+` neighbours")))?;
    Ok(found)
}

/// Scratch for walking the components of graphs of maximum degree 2 on the
/// vertices `0..size`, kept between walks: the extension road walks a billion
/// graphs at n = 12, and allocating per walk was a fifth of its time.
pub(in crate::counting) struct Walk {
    degree: Vec<u8>,
    seen: Vec<bool>,
    cells: Vec<usize>,
}

impl Walk {
    pub(in crate::counting) fn new(size: usize) -> Walk {
        Walk { degree: vec![0; size], seen: vec![false; size], cells: Vec::new() }
    }

    /// Calls `found(cells in walk order, shape)` for each component of the
    /// graph on `vertices` whose edges `neighbours` gives (a path walked from
    /// one end, a cycle around from any vertex); `Err(v)` when vertex `v` has
    /// more than two neighbours.
    pub(in crate::counting) fn components<I: Iterator<Item = usize>>(
        &mut self,
        vertices: &[usize],
        neighbours: impl Fn(usize) -> I,
        mut found: impl FnMut(&[usize], Shape),
    ) -> Result<(), usize> {
        for &v in vertices {
            let degree = neighbours(v).count();
            if degree > 2 {
                return Err(v);
            }
            self.degree[v] = degree as u8;
        }
        // Paths first, walked from an end; the vertices left over lie on cycles.
        for ends_only in [true, false] {
            for &start in vertices {
                if self.seen[start] || (ends_only && self.degree[start] == 2) {
                    continue;
                }
                self.cells.clear();
                self.cells.push(start);
                self.seen[start] = true;
                let mut last = start;
                while let Some(next) = neighbours(last).find(|&u| !self.seen[u]) {
                    self.seen[next] = true;
                    self.cells.push(next);
                    last = next;
                }
                let shape = if ends_only { Shape::Path(self.cells.len()) } else { Shape::Cycle(self.cells.len()) };
                found(&self.cells, shape);
            }
        }
        for &v in vertices {
            self.seen[v] = false;
        }
        Ok(())
    }
}

/// Added penalty of a cell labelled `label` whose component neighbours carry
/// `neighbours`, at `level` (5 or 6; `level + 1` is `+`), or `None` when the
/// cell lacks a required value (rules 2 and 3 of the module header).
pub(in crate::counting) fn cell_cost(label: u8, neighbours: &[u8]) -> Option<usize> {
    let mut cost = 0;
    for wanted in 5..label {
        let m = neighbours.iter().filter(|&&l| l == wanted).count();
        if m == 0 {
            return None;
        }
        cost += m - 1;
    }
    Some(cost)
}

/// Added penalty of a component edge: equal decided labels.
pub(in crate::counting) fn edge_cost(a: u8, b: u8, level: u8) -> usize {
    usize::from(a == b && a != level + 1)
}

/// Accumulates `count * x^shift` into `poly` (dropping degrees above its cap).
fn add_shifted(poly: &mut Poly, source: &Poly, shift: usize) {
    for (p, c) in source.iter().enumerate() {
        if let Some(slot) = poly.get_mut(p + shift) {
            *slot += c;
        }
    }
}

fn monomial(cap: usize, degree: usize) -> Poly {
    let mut poly = vec![BigUint::zero(); cap + 1];
    if degree <= cap {
        poly[degree] = BigUint::from(1u8);
    }
    poly
}

/// `W_C(x)` truncated to degree `cap`, by a transfer along the component:
/// the state is the labels of the last two cells (and, for a cycle, of the
/// first two, fixed in the outer loop).
pub fn shape_polynomial(level: u8, shape: Shape, cap: usize) -> Poly {
    let labels: Vec<u8> = (5..=level + 1).collect();
    let mut total = vec![BigUint::zero(); cap + 1];
    match shape {
        Shape::Path(1) => {
            for &l in &labels {
                if let Some(c) = cell_cost(l, &[]) {
                    add_shifted(&mut total, &monomial(cap, 0), c);
                }
            }
        }
        Shape::Path(len) => {
            for &first in &labels {
                for &second in &labels {
                    let Some(c0) = cell_cost(first, &[second]) else { continue };
                    let start = monomial(cap, c0 + edge_cost(first, second, level));
                    let states = run_along(level, &labels, (first, second), start, len, cap);
                    for ((a, b), poly) in states {
                        if let Some(c) = cell_cost(b, &[a]) {
                            add_shifted(&mut total, &poly, c);
                        }
                    }
                }
            }
        }
        Shape::Cycle(len) => {
            for &first in &labels {
                for &second in &labels {
                    let start = monomial(cap, edge_cost(first, second, level));
                    let states = run_along(level, &labels, (first, second), start, len, cap);
                    for ((a, b), poly) in states {
                        let closing = cell_cost(b, &[a, first])
                            .zip(cell_cost(first, &[b, second]))
                            .map(|(x, y)| x + y + edge_cost(b, first, level));
                        if let Some(c) = closing {
                            add_shifted(&mut total, &poly, c);
                        }
                    }
                }
            }
        }
    }
    total
}

/// Extends a labelled prefix of two cells to `len` cells; each step charges
/// the new edge and the cell that now has both its component neighbours.
fn run_along(
    level: u8,
    labels: &[u8],
    first_two: (u8, u8),
    start: Poly,
    len: usize,
    cap: usize,
) -> HashMap<(u8, u8), Poly> {
    let mut states = HashMap::from([(first_two, start)]);
    for _ in 2..len {
        let mut next: HashMap<(u8, u8), Poly> = HashMap::new();
        for (&(a, b), poly) in &states {
            for &c in labels {
                if let Some(cost) = cell_cost(b, &[a, c]) {
                    let slot = next.entry((b, c)).or_insert_with(|| vec![BigUint::zero(); cap + 1]);
                    add_shifted(slot, poly, cost + edge_cost(b, c, level));
                }
            }
        }
        states = next;
    }
    states
}

/// Product of two truncated polynomials.
pub fn multiply(a: &Poly, b: &Poly) -> Poly {
    let cap = a.len().min(b.len()) - 1;
    let mut product = vec![BigUint::zero(); cap + 1];
    for (i, x) in a.iter().enumerate().filter(|(_, x)| !x.is_zero()) {
        for (j, y) in b.iter().enumerate().take(cap + 1 - i) {
            product[i + j] += x * y;
        }
    }
    product
}

/// Level-5 or level-6 counts by penalty `0..=bound`, from a list of level-4
/// partials grouped by (penalty, component shapes) with multiplicities.
pub fn combine(level: u8, bound: usize, groups: &HashMap<(usize, Vec<Shape>), u64>) -> Poly {
    let mut cache: HashMap<Shape, Poly> = HashMap::new();
    let mut total = vec![BigUint::zero(); bound + 1];
    for ((p4, shapes), &multiplicity) in groups {
        let cap = bound - p4;
        let mut product = monomial(cap, 0);
        for &shape in shapes {
            let w = cache.entry(shape).or_insert_with(|| shape_polynomial(level, shape, bound));
            product = multiply(&product, &w[..=cap].to_vec());
        }
        let scaled: Poly = product.into_iter().map(|c| c * multiplicity).collect();
        add_shifted(&mut total, &scaled, *p4);
    }
    total
}
