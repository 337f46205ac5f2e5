//! From the statement's symmetric charges to the CNF's penalty variables:
//! `pen(e)` gets an upper definition that the per-edge charging of the
//! encoder satisfies, and the sum of all `pen(e)` is bounded by the
//! statement's bound.
//!
//! The argument, per cell `c` and value `a` (neighbours `w_0 < ... < w_{d-1}`,
//! `X_i` = "w_i holds a", `G` = `ge(c, a+1)`, "c is above a"):
//! - `sfx_i` is "one of `w_i..w_{d-1}` holds a" (`sfx_{d-1}` is `X_{d-1}`);
//! - `chg_i` (i < d-1) is `G & X_i & sfx_{i+1}`: the edge to `w_i` carries
//!   duplicate support of `a` at `c` in the encoder's charging (a later
//!   neighbour also holds `a`);
//! - `chg_i + sfx_i <= X_i + sfx_{i+1}` (a `pbc` with two unit steps), and
//!   summed over `i` this telescopes to `sum chg <= m - sfx_0`, `m` the
//!   number of neighbours holding `a`;
//! - with the statement's [duplicate] constraint (`units >= m - 1` when `c`
//!   is above `a`) and `G -> c above a`, the sum of `chg` is at most the
//!   units: a `pbc` that first derives `G` and `sfx_0` (otherwise every
//!   `chg` is 0), then adds the four constraints.
//!
//! Per edge, `pen(e) -> eq_e or one of the chg of its two ends`; the sum
//! over edges of these, the per-cell lemmas and the statement's [bound]
//! give `sum pen <= B - 1`.

use std::collections::HashMap;
use std::io::{self, Write};

use super::proof::{clause_terms, cnf_literal, negate, sum, weighted_sum, Proof};
use super::StatementIds;
use crate::encoding::LevelEncoding;
use crate::geometry::Hexagon;
use crate::statement::Variable;

/// Introduces `sfx`, `chg` and the upper definitions of `pen(e)`; returns the
/// ids of the per-edge upper definitions and the per-cell lemmas.
pub fn define_penalties<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    hex: &Hexagon,
    level: u8,
    encoding: &LevelEncoding,
    ids: &StatementIds,
    ge_upper: &[Vec<usize>],
) -> io::Result<(Vec<usize>, Vec<usize>)> {
    let k = level as usize;
    // charges[(c, w)]: the chg literals of the edge c-w charged at c, one per value.
    let mut charges: HashMap<(usize, usize), Vec<String>> = HashMap::new();
    let mut lemmas = Vec::new();
    proof.line("% duplicate support in the encoder's charging, bounded by the statement's units")?;
    for (c, upper_of_c) in ge_upper.iter().enumerate() {
        let ns = hex.neighbours(c);
        let d = ns.len();
        if d < 2 {
            continue;
        }
        for a in 1..=k {
            let x = |i: usize| Variable::Value { cell: ns[i], value: a as u8 }.to_string();
            let sfx = |i: usize| if i == d - 1 { x(i) } else { format!("sfx_c{c}_v{a}_{i}") };
            let chg = |i: usize| format!("chg_c{c}_v{a}_{i}");
            let g = cnf_literal(encoding.ge_var(c, a + 1));
            for i in (0..d - 1).rev() {
                let s = sfx(i);
                proof.step(&format!("red {}>= 1 : {s} -> 0;", clause_terms(&[negate(&s), x(i), sfx(i + 1)])))?;
                proof.step(&format!("red {}>= 1 : {s} -> 1;", clause_terms(&[s.clone(), negate(&x(i))])))?;
                proof.step(&format!("red {}>= 1 : {s} -> 1;", clause_terms(&[s.clone(), negate(&sfx(i + 1))])))?;
            }
            let mut telescope = Vec::new();
            for (i, &w) in ns.iter().enumerate().take(d - 1) {
                let t = chg(i);
                for implied in [g.clone(), x(i), sfx(i + 1)] {
                    proof.step(&format!("red {}>= 1 : {t} -> 0;", clause_terms(&[negate(&t), implied])))?;
                }
                let all = [t.clone(), negate(&g), negate(&x(i)), negate(&sfx(i + 1))];
                proof.step(&format!("red {}>= 1 : {t} -> 1;", clause_terms(&all)))?;
                let step = clause_terms(&[negate(&t), negate(&sfx(i)), x(i), sfx(i + 1)]);
                let not_t = format!("rup +1 {} >= 1;", negate(&t));
                telescope.push(proof.pbc(&format!("{step}>= 2"), |_| vec![not_t, "rup >= 1;".into()])?);
                charges.entry((c, w)).or_default().push(t);
            }
            let units: Vec<String> =
                (1..d).map(|j| Variable::Duplicate { cell: c, value: a as u8, unit: j }.to_string()).collect();
            let lemma: Vec<String> = (0..d - 1).map(|i| negate(&chg(i))).chain(units).collect();
            let duplicate = ids.duplicate[c][a - 1];
            let upper = upper_of_c[a - 1];
            let lemma_id = proof.pbc(&format!("{}>= {}", clause_terms(&lemma), d - 1), |negation| {
                let mut parts: Vec<(usize, usize)> = vec![(negation, 1)];
                parts.extend(telescope.iter().map(|&id| (id, 1)));
                parts.push((duplicate, 1));
                parts.push((upper, d - 1));
                vec![
                    format!("rup +1 {g} >= 1;"),
                    format!("rup +1 {} >= 1;", sfx(0)),
                    weighted_sum(&parts),
                    "rup >= 1;".into(),
                ]
            })?;
            lemmas.push(lemma_id);
        }
    }
    proof.line("% pen(e) implies an equal-value charge or a duplicate-support charge at either end")?;
    let mut pen_upper = Vec::new();
    for (e, &(u, v)) in hex.edges().iter().enumerate() {
        let pen = cnf_literal(encoding.penalty_vars()[e]);
        let mut lits = vec![negate(&pen), Variable::EqualEdge { u, v }.to_string()];
        for key in [(u, v), (v, u)] {
            lits.extend(charges.get(&key).into_iter().flatten().cloned());
        }
        pen_upper.push(proof.step(&format!("red {}>= 1 : {pen} -> 0;", clause_terms(&lits)))?);
    }
    Ok((pen_upper, lemmas))
}

/// `sum pen <= bound`: the per-edge upper definitions, the per-cell lemmas
/// and the statement's [bound] added up. Returns its id.
pub fn bound_penalties<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    pen_upper: &[usize],
    lemmas: &[usize],
    ids: &StatementIds,
) -> io::Result<usize> {
    proof.line("% the number of true pen(e) is at most B - 1")?;
    let all: Vec<usize> = pen_upper.iter().chain(lemmas).copied().chain([ids.bound]).collect();
    proof.step(&sum(&all))
}
