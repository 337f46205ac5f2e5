//! The 12 symmetries close a list of lex-leaders into every partial: the
//! step that turns a listing (the SAT road's, certified or not) into a
//! count.
//!
//! Invariants relied on:
//! - the ring-1 lex-leader constraints keep at least one member of every
//!   symmetry class (docs/SOUNDNESS.md, section 3; `tests/symmetry.rs`
//!   checks it by enumeration on small hexagons);
//! - a symmetry maps a valid partial onto a valid partial of the same
//!   penalty: the validator judges every image again, so this is checked,
//!   not assumed.
//!
//! It uses no counting and no solver code: the writer of a count and its
//! judge (`hexcert check`) close the same leaders with this one function.

use std::collections::HashSet;

use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::validation::evaluate;

/// The image of a partial's values under a cell permutation: `perm[c]` is
/// the image of cell `c`, so the image holds at `perm[c]` what `values` holds at `c`.
pub fn image(perm: &[usize], values: &[u8]) -> Vec<u8> {
    let mut moved = vec![0; values.len()];
    for (c, &v) in values.iter().enumerate() {
        moved[perm[c]] = v;
    }
    moved
}

/// `by_penalty[p]`: the distinct valid partials of penalty exactly `p` in
/// the union of the orbits of `leaders`, for `p <= max_penalty`. Errors: a
/// leader or an image that is not a valid level-`level` partial of penalty
/// `<= max_penalty`.
pub fn close_orbits<'a>(
    hex: &Hexagon,
    level: u8,
    max_penalty: usize,
    leaders: impl IntoIterator<Item = &'a Partial>,
) -> Result<Vec<u64>, HexError> {
    let mut by_penalty = vec![0u64; max_penalty + 1];
    for_each_member(hex, level, max_penalty, leaders, |_, penalty| by_penalty[penalty] += 1)?;
    Ok(by_penalty)
}

/// Every distinct partial of the union of the orbits of `leaders`, with its
/// penalty, judged as `close_orbits` judges them.
pub fn orbit_members<'a>(
    hex: &Hexagon,
    level: u8,
    max_penalty: usize,
    leaders: impl IntoIterator<Item = &'a Partial>,
) -> Result<Vec<(Partial, usize)>, HexError> {
    let mut members = Vec::new();
    for_each_member(hex, level, max_penalty, leaders, |partial, penalty| members.push((partial, penalty)))?;
    Ok(members)
}

/// Calls `visit` once on each distinct image of the leaders, judged.
fn for_each_member<'a>(
    hex: &Hexagon,
    level: u8,
    max_penalty: usize,
    leaders: impl IntoIterator<Item = &'a Partial>,
    mut visit: impl FnMut(Partial, usize),
) -> Result<(), HexError> {
    let symmetries = hex.symmetries();
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    for leader in leaders {
        let penalty = evaluate(hex, leader).penalty;
        for perm in &symmetries {
            let values = image(perm, leader.values());
            if seen.contains(&values) {
                continue;
            }
            let moved = Partial::new(hex.side(), level, values.clone())?;
            let e = evaluate(hex, &moved);
            if !e.is_valid() || e.penalty != penalty || e.penalty > max_penalty {
                return Err(HexError::Internal(format!(
                    "a symmetry image of a listed partial is not valid with penalty {penalty} <= {max_penalty}"
                )));
            }
            seen.insert(values);
            visit(moved, e.penalty);
        }
    }
    Ok(())
}
