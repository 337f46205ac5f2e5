//! Cube-and-conquer for one claim, "no valid level-k partial of the side-n
//! hexagon has penalty below B", split by the values of the cells around the
//! centre and reduced by the hexagon's 12 symmetries.
//!
//! - `split`: the split cells (closed under the symmetries) and projections;
//! - `local`: projections refuted by the split cells alone (no solver);
//! - `cover`: the check, by enumeration, that the kept cubes cover the split;
//! - `refine`: a hard cube replaced by its cubes one value deeper;
//! - `tree`: the decision trees of literal cubes below a projection;
//! - `cardinality`: trees that split the penalty budget between the halves,
//!   then the quarters and eighths, of the edge order;
//! - `estimate`: a claim's cost extrapolated from a random sample of its cubes.
//!
//! Why one cube per orbit is enough (docs/SOUNDNESS.md, section 7): if a
//! valid partial with penalty below B exists, so does its image under every
//! symmetry, with the same validity and penalty; its projection is refuted by
//! no local rule (the rules are sound), so the cover check has found a
//! symmetry mapping that projection onto a kept cube, and the image of the
//! partial under it is a model of that cube's formula. So if every kept cube's
//! formula (the plain level-k encoding, no symmetry breaking, plus the cube's
//! units) is unsatisfiable, the claim holds. A plan's tie-break
//! (`encoding::TieBreak`) adds lex-leader clauses that extend the same
//! order past the split; its argument is derived, not argued
//! (`derivation::cubes`).

pub mod cardinality;
pub mod cover;
pub mod estimate;
pub mod local;
pub mod plan;
pub mod refine;
pub mod split;
pub mod tree;

pub use crate::records::plan::{Cover, Cube, Plan};
pub use cover::check_cover;
pub use local::{refute, LocalRefutation};
pub use refine::{refine, Refined};
pub use split::Split;

use crate::error::HexError;
use crate::geometry::Hexagon;

/// What a plan's cube means for the formula: the split cells and the solver
/// see it through these literals.
impl Cube {
    /// The cube's literals over the plain formula: the projection's, then the path's.
    pub fn units(&self, encoding: &crate::encoding::LevelEncoding, split: &Split) -> Vec<i32> {
        let mut units = encoding.projection_literals(&split.cells, &self.values, self.depth);
        units.extend_from_slice(&self.literals);
        units
    }
}

/// The kept cubes of a split: one representative per orbit of projections
/// that no local rule refutes, in increasing order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cubes {
    pub split: Split,
    pub cubes: Vec<Cube>,
    /// Projections refuted by the local rules (dropped, with their orbits).
    pub refuted: u64,
}

/// Splits "level-`level` penalty below `below`" on the cells within `radius`
/// of the centre, projected at `depth`.
pub fn value_cubes(hex: &Hexagon, level: u8, below: usize, radius: usize, depth: u8) -> Result<Cubes, HexError> {
    let split = Split::new(hex, level, radius, depth)?;
    let mut cubes = Vec::new();
    let mut refuted = 0;
    for index in 0..split.projection_count() {
        let values = split.projection(index);
        if refute(hex, &split, below, &values).is_some() {
            refuted += 1;
        } else if split.representative(&values) == values {
            cubes.push(Cube::values(depth, values));
        }
    }
    Ok(Cubes { split, cubes, refuted })
}

/// The formula of one cube: the claim's plain formula (no symmetry
/// breaking: the orbit reduction already uses the symmetries) followed by one
/// unit clause per literal of the cube.
pub fn cube_formula(encoding: &crate::encoding::LevelEncoding, split: &Split, cube: &Cube) -> crate::formula::Cnf {
    debug_assert_eq!(encoding.options.symmetry, crate::encoding::SymmetryBreaking::None);
    let mut cnf = encoding.cnf.clone();
    cnf.add_comment(format!(
        "cube: cells {:?} projected at depth {} to {:?}{}",
        split.cells,
        cube.depth,
        cube.values,
        path_comment(cube)
    ));
    for lit in cube.units(encoding, split) {
        cnf.add_clause(&[lit]);
    }
    cnf
}

/// The comment text of a cube's tree path (nothing for a value cube, so
/// value cubes' formulas, and their hashes, are as before).
fn path_comment(cube: &Cube) -> String {
    if cube.literals.is_empty() {
        String::new()
    } else {
        format!(", path {:?}", cube.literals)
    }
}

/// The plan's *split formula* T: the claim's plain formula F (clauses
/// `1..=|F|`), then for each kept cube `i`, in plan order, one clause
/// `-s_i l` per literal `l` of the cube (the literals `cube_formula` adds as
/// units, in the same order), then `s_1 ... s_m`; the selector `s_i` is
/// variable `F.num_vars() + 1 + i`.
///
/// T is what the statement's VeriPB derivation reaches for a cube claim
/// (`derivation::cubes`), and it is unsatisfiable exactly when every cube's
/// formula is: a model of T sets some `s_i` and with it every literal of
/// cube `i`, so it is a model of cube `i`'s formula; conversely a model of
/// cube `i`'s formula extends to T by `s_i` true and the others false. The
/// lifted LRAT check (`hexcert_lrat::Lifted`) sees the first half: it reads
/// cube `i`'s refutation as a derivation of `-s_i` from T.
pub fn split_formula(encoding: &crate::encoding::LevelEncoding, split: &Split, cubes: &[Cube]) -> crate::formula::Cnf {
    debug_assert_eq!(encoding.options.symmetry, crate::encoding::SymmetryBreaking::None);
    let mut cnf = encoding.cnf.clone();
    cnf.add_comment(format!(
        "split: cells {:?}, {} cubes; selector of cube i is variable {} + i",
        split.cells,
        cubes.len(),
        encoding.cnf.num_vars() + 1
    ));
    let selectors: Vec<i32> = cubes.iter().map(|_| cnf.new_var()).collect();
    for (cube, &s) in cubes.iter().zip(&selectors) {
        for lit in cube.units(encoding, split) {
            cnf.add_clause(&[-s, lit]);
        }
    }
    cnf.add_clause(&selectors);
    cnf
}
