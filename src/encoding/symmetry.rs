//! Lex-leader symmetry breaking on ring 1 (the six neighbours of the centre).
//!
//! Soundness argument (also in docs/SOUNDNESS.md, named in every certificate
//! that uses it). Let `G` be the 12 symmetries of the hexagon. For a partial
//! `P` and `s` in `G`, `(s.P)(c) = P(s^-1(c))` is again a partial; `s` is a
//! graph automorphism, so `s.P` is valid iff `P` is, with the same penalty
//! (equal-value edges map to equal-value edges; a cell sees value `a` `m`
//! times iff its image does). Let `c1..c6` be the centre's neighbours in a
//! fixed order; every `s` maps this set onto itself. Write
//! `key(P) = (P(c1), ..., P(c6))`. In the orbit `{s.P}` pick `Q` with the
//! lexicographically smallest key. For every `s`, `s.Q` is in the orbit, so
//! `key(Q) <=lex key(s.Q) = (Q(s^-1(c1)), ..., Q(s^-1(c6)))`; as `s` runs
//! over `G` so does `s^-1`. Hence `Q` satisfies, for every `s` in `G`:
//!
//! `(Q(c1), ..., Q(c6)) <=lex (Q(s(c1)), ..., Q(s(c6)))`  (LL_s)
//!
//! and `Q` is valid with the same penalty as `P`. So if the formula without
//! these constraints has a model, the formula with them has one too (the
//! encoder is complete for valid partials: tests/sat.rs checks it), and
//! UNSAT with the constraints implies UNSAT without them.
//!
//! Clauses for (LL_s), with `x_i = Q(c_i)`, `y_i = Q(s(c_i))` and fresh
//! `e_i` ("equal on the first i positions"; `e_0` is true):
//! - `e_{i-1} -> x_i <= y_i`: for each threshold j, `!e_{i-1} | !ge(x_i,j) | ge(y_i,j)`;
//! - `e_{i-1} & x_i = y_i -> e_i`: for each value a, `!e_{i-1} | !eq(x_i,a) | !eq(y_i,a) | e_i`.
//!
//! A model can set an `e_i` true needlessly, which only adds constraints; the
//! lex-leader `Q` satisfies them with `e_i` true exactly when the prefixes
//! agree. Positions where `s(c_i) = c_i` are skipped (`x_i = y_i` always).

use crate::formula::Cnf;
use crate::geometry::Hexagon;

/// Symmetry breaking the encoder can add.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SymmetryBreaking {
    #[default]
    None,
    /// Lex-leader over the 12 symmetries on the centre's six neighbours.
    Ring1LexLeader,
}

impl SymmetryBreaking {
    /// Stable name recorded in certificates.
    pub fn name(self) -> &'static str {
        match self {
            SymmetryBreaking::None => "none",
            SymmetryBreaking::Ring1LexLeader => "ring1-lex-leader",
        }
    }

    /// Why it keeps a member of every symmetry class (for certificates).
    pub fn soundness(self) -> &'static str {
        match self {
            SymmetryBreaking::None => "no symmetry breaking",
            SymmetryBreaking::Ring1LexLeader => {
                "lex-leader on the centre's 6 neighbours over all 12 hexagon symmetries: the \
                 orbit member with the smallest ring-1 key satisfies every constraint and has \
                 the same validity and penalty (docs/SOUNDNESS.md, src/encoding/symmetry.rs)"
            }
        }
    }
}

/// Symmetry breaking inside the cubes of a plan (`cubes plan
/// --tie-break`). The orbit reduction keeps, of each orbit of split
/// projections, the least; a cube whose projection p some symmetries fix
/// (its stabiliser) still holds every partial together with its images
/// under them. A tie-break extends the order past the split: the key reads
/// the split cells at depths 1..=D, the order the orbit reduction minimises
/// (`Split::reading_key`), then a tail of further cells at their full
/// values. Its lex-leader constraints for all 11 symmetries are appended to
/// the plan's plain formula; the split's digits outweigh the tail's, so
/// inside a cube only those of p's stabiliser constrain anything, and the
/// member of each orbit least in the extended order satisfies all of them
/// and projects onto a kept cube. VeriPB derives them by dominance
/// (`derivation::cubes`), as it derives the split's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TieBreak {
    /// None: the plain formula alone (every plan made before tie-breaks).
    #[default]
    None,
    /// The tail is the ring just outside the split (cells at distance
    /// radius + 1, in index order), full values.
    NextRing,
}

impl TieBreak {
    /// Stable name recorded in plans.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::None => "none",
            TieBreak::NextRing => "next-ring",
        }
    }

    pub fn is_none(&self) -> bool {
        *self == TieBreak::None
    }

    /// The key's digits `(cell, depth)`: the split cells (within `radius`,
    /// index order) read at depths 1..=`depth`, depth after depth, then the
    /// tail at the level. Empty for `None`; an error when the next ring
    /// leaves the hexagon.
    pub fn digits(
        self,
        hex: &Hexagon,
        radius: usize,
        depth: u8,
        level: u8,
    ) -> Result<Vec<(usize, u8)>, crate::error::HexError> {
        if self == TieBreak::None {
            return Ok(Vec::new());
        }
        if radius + 1 >= hex.side() {
            return Err(crate::error::HexError::Usage(format!(
                "--tie-break {} needs the ring at distance {} inside the side-{} hexagon: lower the radius",
                self.name(),
                radius + 1,
                hex.side()
            )));
        }
        let split = hex.cells_within(radius);
        let mut digits: Vec<(usize, u8)> = (1..=depth).flat_map(|d| split.iter().map(move |&c| (c, d))).collect();
        digits.extend(
            hex.cells_within(radius + 1).into_iter().filter(|c| split.binary_search(c).is_err()).map(|c| (c, level)),
        );
        Ok(digits)
    }
}

/// The centre's neighbours in angular order (one rotation step apart): the
/// lex key positions. Any fixed order is sound; this one is canonical.
pub fn ring1_cells(hex: &Hexagon) -> Vec<usize> {
    let mut direction = (1, -1, 0);
    (0..6)
        .map(|_| {
            let cell = hex.cell_at_cube(direction).expect("n >= 2 has a full first ring");
            let (x, y, z) = direction;
            direction = (-z, -x, -y);
            cell
        })
        .collect()
}

/// Literal access the clauses need: `ge(cell, j)` for `j` in `2..=k+1`,
/// `eq(cell, a)` for `a` in `1..=k+1` (`eq(cell, k+1)` is `ge(cell, k+1)`).
pub struct ValueLiterals<'a> {
    pub level: u8,
    pub ge: &'a dyn Fn(usize, usize) -> i32,
    pub eq: &'a dyn Fn(usize, usize) -> i32,
}

/// Adds, for every non-identity symmetry `s`, the clauses of "the key is
/// not above its image under `s`", the key being `digits`: a cell's value
/// read at a depth `d` (`min(value, d + 1)`), compared in order. Ring 1's
/// key reads each neighbour once at the level; a plan's tie-break reads the
/// split cells at every depth of its split, then the next ring
/// (`TieBreak::digits`). Digits whose cell `s` fixes are skipped (equal
/// always).
pub fn add_lex_chains(hex: &Hexagon, digits: &[(usize, u8)], lits: &ValueLiterals, cnf: &mut Cnf) {
    // A reading at depth d equals a (in 1..=d+1): eq(c, a), or ge(c, d+1) for "more than d".
    let reads = |c: usize, a: usize, d: usize| if a == d + 1 { (lits.ge)(c, a) } else { (lits.eq)(c, a) };
    for perm in hex.symmetries().iter().skip(1) {
        let mut equal_so_far: Option<i32> = None; // None stands for the constant true
        let pairs: Vec<(usize, usize, usize)> =
            digits.iter().map(|&(c, d)| (c, perm[c], d as usize)).filter(|(c, image, _)| c != image).collect();
        for (i, &(x, y, d)) in pairs.iter().enumerate() {
            let guard: Vec<i32> = equal_so_far.map(|e| -e).into_iter().collect();
            for j in 2..=d + 1 {
                cnf.add_clause(&[guard.as_slice(), &[-(lits.ge)(x, j), (lits.ge)(y, j)]].concat());
            }
            if i + 1 == pairs.len() {
                break;
            }
            let next = cnf.new_var();
            for a in 1..=d + 1 {
                cnf.add_clause(&[guard.as_slice(), &[-reads(x, a, d), -reads(y, a, d), next]].concat());
            }
            equal_so_far = Some(next);
        }
    }
}
