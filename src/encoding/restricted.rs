//! The restricted formula of the grid search: "a valid level-k partial with
//! penalty <= B whose penalty edges lie near the boundary", after the
//! report's `-r d -I x -b c` runs (reference report, "Bounds on Penalties in
//! Rings" and "Breaking Symmetry").
//!
//! Rings count from the boundary (ring 1 is the perimeter, ring n the
//! centre) and an edge's distance is the sum of its cells' rings. Edges of
//! distance below the band `d` carry at most `B - x` penalties, the others at
//! most `x`: two small cardinality constraints instead of one over every
//! edge. A centre placement fixes two 1-cells near the centre. Listed
//! distances at or beyond the band (`Singles`, the report's `-O`) may each
//! hold one penalty edge besides the allowance: an at-most-one per listed
//! distance, and each listed distance used counts against `B - x` with the
//! band's edges.
//!
//! Invariant: these restrictions lose solutions. A `RestrictedEncoding` is
//! its own type, built from `Restrictions` that `EncodeOptions` cannot
//! carry, so no claim, cube or proof can be stated with it; the files that
//! judge or write certificates do not import this one (tests/module_graph.rs).
//! Duplicate support is charged to either edge (`Charging::EitherEdge`), so
//! the solver may put a charge on the outer edge, as the report's edge order
//! did; the plain validator's count is the same.

use std::collections::BTreeSet;

use super::cardinality::Cardinality;
use super::level_formula::{Charging, EncodeOptions, LevelEncoding};
use super::wedges::wedge_order;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;

/// Two 1-cells fixed near the centre, the second a step of the 7-cell
/// tiling (whose 1-cells form the lattice spanned by the cube vectors
/// `(1, 2, -3)` and its rotations, hex distance 3) away from the first.
/// Every grid has a 1 at the centre or beside it; which tiling step follows
/// is a guess, so a placement is a search heuristic, never a proof.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Centre {
    /// The report's `-b 1`: a 1 at the centre and at `(1, 2, -3)`. The 12
    /// tiling steps from the centre form one orbit of the symmetries, so
    /// among grids with a 1 at the centre and one a tiling step away, none
    /// is lost up to symmetry.
    AtCentre,
    /// The report's `-b 2`: a 1 at the neighbour `(1, -1, 0)` of the centre
    /// and at `(-1, 2, -1)`, the step `(-2, 3, -1)` from it that lands
    /// nearest the centre (hex distance 2).
    BesideCentre,
}

impl Centre {
    /// The two cells (cube coordinates) that hold a 1.
    fn ones(self) -> [(i32, i32, i32); 2] {
        match self {
            Centre::AtCentre => [(0, 0, 0), (1, 2, -3)],
            Centre::BesideCentre => [(1, -1, 0), (-1, 2, -1)],
        }
    }

    /// Whether both 1-cells lie in the hexagon (`AtCentre` needs a side of 4).
    pub fn fits(self, hex: &Hexagon) -> bool {
        self.ones().into_iter().all(|cube| hex.cell_at_cube(cube).is_some())
    }

    /// Stable name, as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Centre::AtCentre => "at-centre",
            Centre::BesideCentre => "beside-centre",
        }
    }
}

/// Ring distances that may each hold one penalty edge, the report's `-O`
/// (a set of distances below 128; serialized as the sorted list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Singles(u128);

impl Singles {
    /// The set of `distances`; errors on one of 128 or more.
    pub fn new(distances: impl IntoIterator<Item = usize>) -> Result<Singles, HexError> {
        distances.into_iter().try_fold(Singles(0), |set, d| match d < 128 {
            true => Ok(Singles(set.0 | 1 << d)),
            false => Err(HexError::Usage(format!("single-penalty distance {d}: no hexagon has edges that far in"))),
        })
    }

    pub fn contains(self, distance: usize) -> bool {
        distance < 128 && self.0 >> distance & 1 == 1
    }

    /// The distances, increasing.
    pub fn distances(self) -> impl Iterator<Item = usize> {
        (0..128).filter(move |&d| self.contains(d))
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Comma-separated, as the command line takes them.
    pub fn list(self) -> String {
        self.distances().map(|d| d.to_string()).collect::<Vec<_>>().join(",")
    }
}

impl serde::Serialize for Singles {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.distances())
    }
}

/// What a restricted search allows; nothing here is a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Restrictions {
    /// Penalties on edges of distance below this only (save `inner` and `singles`).
    pub band: usize,
    /// At most this many penalty edges at distance `band` or more, not
    /// counting the listed distances of `singles`.
    pub inner: usize,
    /// Distances (each `band` or more) that may hold one penalty edge each,
    /// besides the allowance; each one used counts, with the penalties
    /// below the band, against `B - inner`.
    pub singles: Singles,
    pub centre: Option<Centre>,
}

impl Restrictions {
    /// One line for logs and grid-file comments.
    pub fn describe(&self) -> String {
        let centre = self.centre.map_or("none", Centre::name);
        let singles = match self.singles.is_empty() {
            true => String::new(),
            false => format!(
                ", at most one penalty edge at each of distances {} (besides the allowance)",
                self.singles.list()
            ),
        };
        format!(
            "band {} (penalties on edges of ring distance < {}), inner allowance {}{singles}, centre {centre}",
            self.band, self.band, self.inner
        )
    }
}

/// How a partial's penalty edges lie against a band: its level-k penalty
/// and the least and greatest number of them at ring distance `band` or more
/// over the ways to charge duplicate support (any `m - 1` of the `m` edges to
/// supporters of one value, as `Charging::EitherEdge` lets the formula
/// choose). Every count in between is reached too (each cell's charge moves
/// one edge at a time). `Restrictions::admits` looks at the charges one
/// distance at a time, as single-penalty distances need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BandProfile {
    pub penalty: usize,
    pub inner_min: usize,
    pub inner_max: usize,
}

impl BandProfile {
    pub fn of(hex: &Hexagon, partial: &Partial, band: usize) -> BandProfile {
        let charges = Charges::of(hex, partial);
        let inner = |d: &usize| usize::from(*d >= band);
        let fixed: usize = charges.fixed.iter().map(inner).sum();
        let mut profile = BandProfile { penalty: charges.penalty(), inner_min: fixed, inner_max: fixed };
        for group in &charges.groups {
            // k of the m edges lie at distance `band` or more; the one
            // useful edge is among them (fewest charged there) or not (most).
            let k: usize = group.iter().map(inner).sum();
            profile.inner_min += k.saturating_sub(1);
            profile.inner_max += k.min(group.len() - 1);
        }
        profile
    }
}

/// The ring distances of a partial's penalty edges: those charged whatever
/// the charging (equal values), and per cell and smaller value with `m >= 2`
/// supporters the `m` supporter edges, any `m - 1` of them charged
/// (`Charging::EitherEdge`).
struct Charges {
    fixed: Vec<usize>,
    groups: Vec<Vec<usize>>,
}

impl Charges {
    fn of(hex: &Hexagon, partial: &Partial) -> Charges {
        let values = partial.values();
        let distance = |u: usize, v: usize| hex.ring(u) + hex.ring(v);
        let fixed = hex
            .edges()
            .iter()
            .filter(|&&(u, v)| values[u] == values[v] && !partial.is_plus(u))
            .map(|&(u, v)| distance(u, v))
            .collect();
        let mut groups = Vec::new();
        for cell in 0..hex.cell_count() {
            for a in 1..values[cell] {
                let group: Vec<usize> =
                    hex.neighbours(cell).iter().filter(|&&u| values[u] == a).map(|&u| distance(u, cell)).collect();
                if group.len() >= 2 {
                    groups.push(group);
                }
            }
        }
        Charges { fixed, groups }
    }

    fn penalty(&self) -> usize {
        self.fixed.len() + self.groups.iter().map(|g| g.len() - 1).sum::<usize>()
    }
}

impl Restrictions {
    /// Whether a member with these restrictions, at penalty bound `bound`,
    /// admits `partial` (a partial of the formula's level) or one of its
    /// images under the hexagon's symmetries: its penalty is at most
    /// `bound`, some charging puts at most one penalty at each distance of
    /// `singles`, at most `inner` at the other distances `band` or more, and
    /// at most `bound - inner` below `band` and at the listed distances
    /// together, and the centre placement's 1-cells hold 1s. What the
    /// formula's models are, stated without the solver, so a published grid
    /// can show which member finds it.
    pub fn admits(&self, hex: &Hexagon, partial: &Partial, bound: usize) -> bool {
        let charges = Charges::of(hex, partial);
        let penalty = charges.penalty();
        let (inner_bound, outer_bound) = (self.inner.min(bound), bound.saturating_sub(self.inner));
        // A charging so far: the listed distances it uses, and its penalties at
        // the other distances `band` or more; `None` once it breaks either limit.
        let add = |(used, rest): (u128, usize), d: usize| match d {
            _ if d < self.band => Some((used, rest)),
            _ if self.singles.contains(d) => (used >> d & 1 == 0).then_some((used | 1 << d, rest)),
            _ => (rest < inner_bound).then_some((used, rest + 1)),
        };
        let add = &add;
        let mut states: BTreeSet<(u128, usize)> =
            charges.fixed.iter().try_fold((0, 0), |s, &d| add(s, d)).into_iter().collect();
        for group in &charges.groups {
            let charge =
                |s, useful| group.iter().enumerate().filter(|&(i, _)| i != useful).try_fold(s, |s, (_, &d)| add(s, d));
            states =
                states.iter().flat_map(|&s| (0..group.len()).filter_map(move |useful| charge(s, useful))).collect();
        }
        // The rest are below the band or at listed distances, each listed one once.
        let fits = penalty <= bound && states.iter().any(|&(_, rest)| penalty - rest <= outer_bound);
        let held = |centre: Centre| {
            hex.symmetries().iter().any(|perm| {
                centre.ones().into_iter().all(|cube| {
                    hex.cell_at_cube(cube).is_some_and(|c| partial.values()[perm[c]] == 1 && !partial.is_plus(perm[c]))
                })
            })
        };
        fits && self.centre.is_none_or(held)
    }
}

/// The restricted formula, with the level encoding that decodes its models.
pub struct RestrictedEncoding {
    pub encoding: LevelEncoding,
    pub restrictions: Restrictions,
}

impl RestrictedEncoding {
    /// "Valid level-`level` partial with penalty <= `bound`" under
    /// `restrictions`. Errors when the hexagon is too small for the centre
    /// placement.
    pub fn new(
        hex: &Hexagon,
        level: u8,
        bound: usize,
        restrictions: Restrictions,
    ) -> Result<RestrictedEncoding, HexError> {
        let mut encoding = LevelEncoding::charged(hex, level, EncodeOptions::bounded(None), Charging::EitherEdge);
        encoding.cnf.add_comment(format!("restricted search formula, penalty <= {bound}: {}", restrictions.describe()));
        // Wedge order, as the default counter of the claims takes it.
        let max_distance = 2 * hex.side() - 1;
        if let Some(d) = restrictions.singles.distances().find(|&d| d < restrictions.band || d > max_distance) {
            return Err(HexError::Usage(format!(
                "single-penalty distance {d}: not in {}..={max_distance} (the band {} to the centre's edges)",
                restrictions.band, restrictions.band
            )));
        }
        let (outer, inner): (Vec<usize>, Vec<usize>) =
            wedge_order(hex).into_iter().partition(|&e| edge_distance(hex, e) < restrictions.band);
        let (listed, inner): (Vec<usize>, Vec<usize>) =
            inner.into_iter().partition(|&e| restrictions.singles.contains(edge_distance(hex, e)));
        let vars = encoding.penalty_vars().to_vec();
        let pen = |edges: &[usize]| edges.iter().map(|&e| vars[e]).collect::<Vec<i32>>();
        let (mut outer, inner) = (pen(&outer), pen(&inner));
        // Each listed distance: at most one penalty edge, and a literal implied
        // by it that the band's counter counts.
        for d in restrictions.singles.distances() {
            let at_d = pen(&listed.iter().copied().filter(|&e| edge_distance(hex, e) == d).collect::<Vec<usize>>());
            Cardinality::WedgeCounter.encode_at_most(&at_d, 1, &mut encoding.cnf);
            let used = encoding.cnf.new_var();
            at_d.iter().for_each(|&p| encoding.cnf.add_clause(&[-p, used]));
            outer.push(used);
        }
        let outer_bound = bound.saturating_sub(restrictions.inner);
        Cardinality::WedgeCounter.encode_at_most(&outer, outer_bound, &mut encoding.cnf);
        Cardinality::WedgeCounter.encode_at_most(&inner, restrictions.inner.min(bound), &mut encoding.cnf);
        for cube in restrictions.centre.into_iter().flat_map(Centre::ones) {
            let cell = hex.cell_at_cube(cube).ok_or_else(|| {
                HexError::Usage(format!("the centre placement needs a side of at least 4, not {}", hex.side()))
            })?;
            let one = encoding.eq_literal(cell, 1);
            encoding.cnf.add_clause(&[one]);
        }
        Ok(RestrictedEncoding { encoding, restrictions })
    }
}

/// Ring distance of edge `e`: the sum of its cells' rings (2 on the perimeter).
pub fn edge_distance(hex: &Hexagon, e: usize) -> usize {
    let (u, v) = hex.edges()[e];
    hex.ring(u) + hex.ring(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_placements_put_their_second_one_a_tiling_step_from_the_first() {
        let distance = |(a, b, c): (i32, i32, i32), (x, y, z): (i32, i32, i32)| {
            (a - x).abs().max((b - y).abs()).max((c - z).abs())
        };
        for centre in [Centre::AtCentre, Centre::BesideCentre] {
            let [first, second] = centre.ones();
            let step = (second.0 - first.0, second.1 - first.1, second.2 - first.2);
            let mut sorted = [step.0.abs(), step.1.abs(), step.2.abs()];
            sorted.sort_unstable();
            assert_eq!(sorted, [1, 2, 3], "{centre:?}: a step of the 7-cell tiling");
            assert!(distance(first, (0, 0, 0)) <= 1, "{centre:?}: the first 1 at or beside the centre");
        }
    }

    /// `admits` states without the solver what the formula's models are:
    /// each model of a member is admitted by it (tests/grids.rs shows the
    /// other side: grids outside a member are refused).
    #[test]
    fn the_members_models_are_what_admits_says() {
        use crate::solving::{Answer, Cadical, SatSolver};
        let hex = Hexagon::new(6).unwrap();
        let none: &[usize] = &[];
        for (band, inner, singles, bound) in [
            (4, 0, none, 20),
            (4, 3, none, 16),
            (5, 2, none, 13),
            (3, 12, none, 20),
            (4, 0, &[4, 5, 7][..], 16),
            (5, 1, &[5, 6, 8], 14),
        ] {
            let singles = Singles::new(singles.iter().copied()).unwrap();
            let restrictions = Restrictions { band, inner, singles, centre: Some(Centre::BesideCentre) };
            let encoding = RestrictedEncoding::new(&hex, 5, bound, restrictions).unwrap();
            let mut solver = Cadical::new();
            solver.add_cnf(&encoding.encoding.cnf).unwrap();
            let Answer::Sat(model) = solver.solve().unwrap() else {
                panic!("{}: UNSAT at {bound}", restrictions.describe())
            };
            let partial = encoding.encoding.decode(&model);
            assert!(restrictions.admits(&hex, &partial, bound), "{}", restrictions.describe());
        }
    }

    #[test]
    fn edge_distances_run_from_two_on_the_perimeter_to_two_n_minus_one() {
        let hex = Hexagon::new(5).unwrap();
        let distances: Vec<usize> = (0..hex.edges().len()).map(|e| edge_distance(&hex, e)).collect();
        assert_eq!(distances.iter().min(), Some(&2));
        assert_eq!(distances.iter().max(), Some(&9));
        assert_eq!(distances.iter().filter(|&&d| d == 2).count(), 6 * 4, "the perimeter's edges");
    }
}
