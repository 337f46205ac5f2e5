//! The window shapes: the border annulus (the outer `depth` rings, one
//! window closed around the hexagon) and a centre disc, with the orders their
//! reaches are swept in.
//!
//! The annulus is swept by angle around the centre, deeper cells first at
//! one angle, so the frontier is a few cells across the annulus plus the
//! first cells swept, which wait for the last to close the cycle: the window
//! is the whole annulus, not six sides cut apart.

use crate::bound::window::Window;
use crate::geometry::Hexagon;

/// The cells of `inner` and their neighbours, without repeats.
fn reach(hex: &Hexagon, inner: &[usize]) -> Vec<usize> {
    let mut in_reach = vec![false; hex.cell_count()];
    for &c in inner {
        in_reach[c] = true;
        hex.neighbours(c).iter().for_each(|&u| in_reach[u] = true);
    }
    (0..hex.cell_count()).filter(|&c| in_reach[c]).collect()
}

/// The angle of a cell around the centre, in `(-pi, pi]`.
fn angle(hex: &Hexagon, cell: usize) -> f64 {
    let (x, y, _) = hex.cube(cell);
    // Skewed coordinates `(a, b)` = `(x, x + y)` laid out on the plane.
    let (a, b) = (f64::from(x), f64::from(x + y));
    let (px, py) = (b - a / 2.0, a * 3f64.sqrt() / 2.0);
    py.atan2(px)
}

/// The outer `depth` rings as one window, its reach swept by angle.
pub fn annulus(hex: &Hexagon, depth: usize) -> Window {
    let inner: Vec<usize> = (0..hex.cell_count()).filter(|&c| hex.ring(c) <= depth).collect();
    let mut order = reach(hex, &inner);
    order.sort_by(|&p, &q| angle(hex, p).total_cmp(&angle(hex, q)).then(hex.ring(q).cmp(&hex.ring(p))));
    Window { inner, order, allowed: Vec::new() }
}

/// The cells within `radius` of the centre as one window, its reach swept in
/// cell order (row by row), with `allowed` restricting some cells' values.
pub fn disc(hex: &Hexagon, radius: usize, allowed: Vec<(usize, u16)>) -> Window {
    let inner = hex.cells_within(radius);
    let order = reach(hex, &inner);
    Window { inner, order, allowed }
}

/// Whether the outer `depth` rings and the disc of `radius` share no cell.
pub fn apart(hex: &Hexagon, depth: usize, radius: usize) -> bool {
    radius + depth < hex.side()
}
