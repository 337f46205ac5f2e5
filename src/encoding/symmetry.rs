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

/// Adds (LL_s) for every non-identity symmetry `s`.
pub fn add_ring1_lex_leader(hex: &Hexagon, lits: &ValueLiterals, cnf: &mut Cnf) {
    if hex.side() < 2 {
        return;
    }
    let key = ring1_cells(hex);
    let top = lits.level as usize + 1;
    for perm in hex.symmetries().iter().skip(1) {
        let mut equal_so_far: Option<i32> = None; // None stands for the constant true
        let pairs: Vec<(usize, usize)> =
            key.iter().map(|&c| (c, perm[c])).filter(|(c, image)| c != image).collect();
        for (i, &(x, y)) in pairs.iter().enumerate() {
            let guard: Vec<i32> = equal_so_far.map(|e| -e).into_iter().collect();
            for j in 2..=top {
                cnf.add_clause(&[guard.as_slice(), &[-(lits.ge)(x, j), (lits.ge)(y, j)]].concat());
            }
            if i + 1 == pairs.len() {
                break;
            }
            let next = cnf.new_var();
            for a in 1..=top {
                cnf.add_clause(&[guard.as_slice(), &[-(lits.eq)(x, a), -(lits.eq)(y, a), next]].concat());
            }
            equal_so_far = Some(next);
        }
    }
}
