//! The sequential counter of `src/encoding/cardinality.rs` derived from
//! `sum pen <= M` (`1 <= M < m` inputs `p_0..p_{m-1}`).
//!
//! `c(i, j)` ("at least j+1 of p_0..p_i") is defined by its upper clauses
//! `c(i,j) -> c(i-1,j) | p_i` and `c(i,j) -> c(i-1,j) | c(i-1,j-1)`
//! (`c(0,0) -> p_0`, `c(0,j) -> false`), then the encoder's clauses that force
//! it (witness `c(i,j) -> 1`). Ordering `c(i,j) -> c(i,j-1)` and
//! `c(i,j) -> c(i-1,j-1)` follow by rup. Writing `U_i = sum_j c(i,j)`:
//! - `U_i <= U_{i-1} + p_i` (a `pbc`: the upper clauses summed force `p_i`,
//!   the second family summed forbids it);
//! - chained, `U_i <= p_0 + ... + p_i`, and with the ordering
//!   `U_i >= M c(i,M-1)`; with `sum pen <= M` this gives
//!   `M ~c(i-1,M-1) + (p_i + ... + p_{m-1} false) >= m - i`, from which the
//!   encoder's `!p_i | !c(i-1,M-1)` follows by rup.
//!
//! Every constraint written is short (O(M) terms), so the proof grows as m M.

use std::io::{self, Write};

use super::proof::{cnf_literal, sum, weighted_sum, Proof};

/// Writes the counter's definitions and the helper facts its clauses need;
/// the clauses themselves then follow by rup. `first_var` is the counter's
/// first variable, `pens` the inputs, `bound` the id of `sum pen <= M`.
pub fn derive_counter<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    pens: &[i32],
    max: usize,
    first_var: i32,
    bound: usize,
) -> io::Result<()> {
    let m = pens.len();
    debug_assert!(max >= 1 && max < m);
    let c = |i: usize, j: usize| cnf_literal(first_var + (i * max + j) as i32);
    let p = |i: usize| cnf_literal(pens[i]);
    proof.line("% the sequential counter: definitions, ordering, running sums")?;
    // order[j] of the previous row: id of `c(i,j) -> c(i,j-1)` (j >= 1).
    let mut order: Vec<usize> = vec![0; max];
    let mut running = 0;
    for i in 0..m - 1 {
        let mut upper = Vec::new();
        let mut second = Vec::new();
        if i == 0 {
            upper.push(proof.step(&format!("red +1 ~{} +1 {} >= 1 : {} -> 0;", c(0, 0), p(0), c(0, 0)))?);
            for j in 1..max {
                upper.push(proof.step(&format!("red +1 ~{} >= 1 : {} -> 0;", c(0, j), c(0, j)))?);
            }
            proof.step(&format!("red +1 ~{} +1 {} >= 1 : {} -> 1;", p(0), c(0, 0), c(0, 0)))?;
        } else {
            for j in 0..max {
                upper.push(proof.step(&format!("red +1 ~{} +1 {} +1 {} >= 1 : {} -> 0;", c(i, j), c(i - 1, j), p(i), c(i, j)))?);
                if j >= 1 {
                    proof.step(&format!(
                        "red +1 ~{} +1 {} +1 {} >= 1 : {} -> 0;",
                        c(i, j),
                        c(i - 1, j),
                        c(i - 1, j - 1),
                        c(i, j)
                    ))?;
                }
            }
            proof.step(&format!("red +1 ~{} +1 {} >= 1 : {} -> 1;", p(i), c(i, 0), c(i, 0)))?;
            for j in 0..max {
                proof.step(&format!("red +1 ~{} +1 {} >= 1 : {} -> 1;", c(i - 1, j), c(i, j), c(i, j)))?;
                if j >= 1 {
                    proof.step(&format!(
                        "red +1 ~{} +1 ~{} +1 {} >= 1 : {} -> 1;",
                        p(i),
                        c(i - 1, j - 1),
                        c(i, j),
                        c(i, j)
                    ))?;
                }
            }
            for j in 1..max {
                second.push(proof.step(&format!("rup +1 ~{} +1 {} >= 1;", c(i, j), c(i - 1, j - 1)))?);
            }
        }
        for (j, slot) in order.iter_mut().enumerate().skip(1) {
            *slot = proof.step(&format!("rup +1 ~{} +1 {} >= 1;", c(i, j), c(i, j - 1)))?;
        }
        running = if i == 0 {
            proof.step(&sum(&upper))?
        } else {
            let mut terms: String = (0..max).map(|j| format!("-1 {} +1 {} ", c(i, j), c(i - 1, j))).collect();
            terms.push_str(&format!("+1 {} >= 0", p(i)));
            let increment = proof.pbc(&terms, |negation| {
                let with = |ids: &[usize]| sum(&[&[negation][..], ids].concat());
                vec![with(&upper), with(&second), "rup >= 1;".into()]
            })?;
            proof.step(&sum(&[running, increment]))?
        };
        // For the encoder's clause `!p_{i+1} | !c(i, M-1)`.
        let mut parts: Vec<(usize, usize)> = vec![(running, 1)];
        parts.extend((1..max).map(|j| (order[j], j)));
        parts.push((bound, 1));
        proof.step(&weighted_sum(&parts))?;
    }
    Ok(())
}
