//! The wedge order of the edges: by the angle of each edge's midpoint
//! around the centre, then outwards.
//!
//! Why an order matters: a sequential counter's partial sums are the
//! penalty of a prefix of its inputs, and what CDCL learns about them is
//! only as local as those prefixes. Over the edges in index order (row by
//! row) a prefix is a band of rows, whose open border is a whole row; in
//! wedge order it is a sector, whose open border is two radii, and the
//! budget splits of `cubes::cardinality` become splits between sectors.
//! n = 8 level 3 below 20 refutes 2.4x faster this way through `prove`
//! (22.5 s against 53.3 s of CPU, the median of two runs each; docs/MEASUREMENTS.md,
//! "A faster refutation: the counter in wedge order").
//!
//! The order is computed exactly, in integers, so every machine builds the
//! same formula: a point with cube coordinates `(x, y, z)` lies at
//! `(2x + y, sqrt(3) y) / 2` in the plane, so with `u = 2x + y` and
//! `v = y` its half-plane is the sign of `v` (then of `u`), angles compare
//! by the sign of the cross product `u1 v2 - v1 u2` (the common factor
//! `sqrt(3)` is positive), and squared distances by `u^2 + 3 v^2`. Midpoints
//! are taken doubled (the sum of the two ends), which scales every point
//! alike. No two edges share a midpoint, so the order is total.

use std::cmp::Ordering;

use crate::geometry::Hexagon;

/// A doubled edge midpoint in the `(u, v)` coordinates above.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Point {
    u: i64,
    v: i64,
}

impl Point {
    fn of_edge(hex: &Hexagon, (a, b): (usize, usize)) -> Point {
        let (xa, ya, _) = hex.cube(a);
        let (xb, yb, _) = hex.cube(b);
        let (x, y) = (i64::from(xa + xb), i64::from(ya + yb));
        Point { u: 2 * x + y, v: y }
    }

    /// 0 for angles in [0, pi), 1 for [pi, 2 pi): counter-clockwise from the
    /// positive first axis.
    fn half(self) -> u8 {
        u8::from(self.v < 0 || (self.v == 0 && self.u < 0))
    }

    fn squared_distance(self) -> i64 {
        self.u * self.u + 3 * self.v * self.v
    }

    /// By angle in [0, 2 pi), then by distance from the centre.
    fn cmp_around(self, other: Point) -> Ordering {
        self.half().cmp(&other.half()).then_with(|| {
            // Within a half-plane, `other` lies counter-clockwise of `self`
            // (a larger angle) exactly when the cross product is positive.
            let cross = self.u * other.v - self.v * other.u;
            0.cmp(&cross).then_with(|| self.squared_distance().cmp(&other.squared_distance()))
        })
    }
}

/// The edge indices of `hex` in wedge order.
pub fn wedge_order(hex: &Hexagon) -> Vec<usize> {
    let points: Vec<Point> = hex.edges().iter().map(|&e| Point::of_edge(hex, e)).collect();
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| points[a].cmp_around(points[b]));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_is_a_permutation_that_sweeps_once_around() {
        for n in 2..=9 {
            let hex = Hexagon::new(n).unwrap();
            let order = wedge_order(&hex);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..hex.edges().len()).collect::<Vec<_>>(), "n={n}");
            // Strictly increasing: no two edges tie, so the order is total.
            for w in order.windows(2) {
                let (a, b) = (Point::of_edge(&hex, hex.edges()[w[0]]), Point::of_edge(&hex, hex.edges()[w[1]]));
                assert_eq!(a.cmp_around(b), Ordering::Less, "n={n}: {a:?} then {b:?}");
            }
        }
    }

    #[test]
    fn the_first_half_of_the_order_is_the_upper_half_plane() {
        // Half the edges of the hexagon have their midpoint in [0, pi) up to
        // the edges on the axis itself; the order puts them first.
        let hex = Hexagon::new(6).unwrap();
        let order = wedge_order(&hex);
        let halves: Vec<u8> = order.iter().map(|&e| Point::of_edge(&hex, hex.edges()[e]).half()).collect();
        let first_lower = halves.iter().position(|&h| h == 1).unwrap();
        assert!(halves[first_lower..].iter().all(|&h| h == 1));
        let m = order.len();
        assert!(first_lower.abs_diff(m / 2) <= hex.side(), "{first_lower} of {m}");
    }
}
