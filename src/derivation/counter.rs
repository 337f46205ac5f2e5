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
//! The running sums and the sums that reach the bound are not: they hold
//! O(m) terms, and VeriPB's propagation walks every such constraint whose
//! literals it touches, so kept to the end they made its check grow as m^2.
//! Each running sum is deleted once the next is derived, and each sum that
//! reaches the bound once the encoder's clause it gives is derived (right
//! after it); orderings and increments are sums (`pol`), not propagation
//! (docs/MEASUREMENTS.md, "VeriPB's check of the derivation, back under the
//! solve").

use std::io::{self, Write};

use super::proof::{cnf_literal, sum, weighted_sum, Proof};

/// The ids one row of the counter leaves for the chain of sums.
struct Row {
    /// The upper clauses of `c(i, 0..M)`.
    upper: Vec<usize>,
    /// `c(i,j) -> c(i-1,j-1)`, j >= 1.
    second: Vec<usize>,
    /// `c(i,j) -> c(i,j-1)` at index j (j >= 1; index 0 unused).
    order: Vec<usize>,
}

/// Writes the counter's definitions and the helper facts its clauses need;
/// the clauses themselves then follow by rup (the last family here already).
/// `first_var` is the counter's first variable, `pens` the inputs, `bound`
/// the id of `sum pen <= M`.
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
    let mut running = 0;
    let mut previous: Option<Row> = None;
    for i in 0..m - 1 {
        let row = define_row(proof, i, max, (&c, &p), previous.as_ref())?;
        running = if i == 0 {
            proof.step(&sum(&row.upper))?
        } else {
            let mut terms: String = (0..max).map(|j| format!("-1 {} +1 {} ", c(i, j), c(i - 1, j))).collect();
            terms.push_str(&format!("+1 {} >= 0", p(i)));
            let increment = proof.pbc(&terms, |negation| {
                let with = |ids: &[usize]| sum(&[&[negation][..], ids].concat());
                // With the negation, the upper clauses summed give (M-1) p_i >= 1
                // and the second family c(i,0) + ~c(i-1,M-1) + ~p_i >= 3; the
                // first plus M-1 times the second is (M-1)(c + ~c') >= 2M - 1,
                // beyond its 2M - 2: a contradiction by a sum, not by propagation.
                let contradiction = if max == 1 {
                    "rup >= 1;".to_string()
                } else {
                    format!("pol {} {} {} * +;", negation + 1, negation + 2, max - 1)
                };
                vec![with(&row.upper), with(&row.second), contradiction]
            })?;
            let next = proof.step(&sum(&[running, increment]))?;
            proof.line(&format!("deld {running} {increment};"))?;
            next
        };
        // The encoder's clause `!p_{i+1} | !c(i, M-1)`, by rup from a sum as
        // long as the bound, which is deleted right after.
        let mut parts: Vec<(usize, usize)> = vec![(running, 1)];
        parts.extend((1..max).map(|j| (row.order[j], j)));
        parts.push((bound, 1));
        let reach = proof.step(&weighted_sum(&parts))?;
        proof.step(&format!("rup +1 ~{} +1 ~{} >= 1;", p(i + 1), c(i, max - 1)))?;
        proof.line(&format!("deld {reach};"))?;
        previous = Some(row);
    }
    proof.line(&format!("deld {running};"))?;
    Ok(())
}

/// Row `i`'s definitions (upper clauses, then the encoder's that force
/// `c(i, j)`) and the orderings, each a sum of two clauses (`pol`); the
/// first row's orderings by rup (its `c(0, j)`, j >= 1, are false).
fn define_row<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    i: usize,
    max: usize,
    (c, p): (&impl Fn(usize, usize) -> String, &impl Fn(usize) -> String),
    previous: Option<&Row>,
) -> io::Result<Row> {
    let mut row = Row { upper: Vec::new(), second: Vec::new(), order: vec![0; max] };
    let Some(previous) = previous.filter(|_| i > 0) else {
        row.upper.push(proof.step(&format!("red +1 ~{} +1 {} >= 1 : {} -> 0;", c(0, 0), p(0), c(0, 0)))?);
        for j in 1..max {
            row.upper.push(proof.step(&format!("red +1 ~{} >= 1 : {} -> 0;", c(0, j), c(0, j)))?);
        }
        proof.step(&format!("red +1 ~{} +1 {} >= 1 : {} -> 1;", p(0), c(0, 0), c(0, 0)))?;
        for j in 1..max {
            row.order[j] = proof.step(&format!("rup +1 ~{} +1 {} >= 1;", c(0, j), c(0, j - 1)))?;
        }
        return Ok(row);
    };
    // through[j]: `c(i,j) -> c(i-1,j) | c(i-1,j-1)`; lower[j]: `c(i-1,j) -> c(i,j)`.
    let mut through = vec![0; max];
    for (j, through) in through.iter_mut().enumerate() {
        row.upper.push(proof.step(&format!(
            "red +1 ~{} +1 {} +1 {} >= 1 : {} -> 0;",
            c(i, j),
            c(i - 1, j),
            p(i),
            c(i, j)
        ))?);
        if j >= 1 {
            *through = proof.step(&format!(
                "red +1 ~{} +1 {} +1 {} >= 1 : {} -> 0;",
                c(i, j),
                c(i - 1, j),
                c(i - 1, j - 1),
                c(i, j)
            ))?;
        }
    }
    proof.step(&format!("red +1 ~{} +1 {} >= 1 : {} -> 1;", p(i), c(i, 0), c(i, 0)))?;
    let mut lower = vec![0; max];
    for (j, lower) in lower.iter_mut().enumerate() {
        *lower = proof.step(&format!("red +1 ~{} +1 {} >= 1 : {} -> 1;", c(i - 1, j), c(i, j), c(i, j)))?;
        if j >= 1 {
            proof.step(&format!("red +1 ~{} +1 ~{} +1 {} >= 1 : {} -> 1;", p(i), c(i - 1, j - 1), c(i, j), c(i, j)))?;
        }
    }
    for (through, above) in through.iter().zip(&previous.order).skip(1) {
        // `c(i,j) -> c(i-1,j-1)`: through[j] resolved with the row above's ordering, saturated.
        row.second.push(proof.step(&format!("pol {through} {above} + s;"))?);
    }
    for j in 1..max {
        // `c(i,j) -> c(i,j-1)`: that, resolved with lower[j-1].
        row.order[j] = proof.step(&format!("pol {} {} +;", row.second[j - 1], lower[j - 1]))?;
    }
    Ok(row)
}
