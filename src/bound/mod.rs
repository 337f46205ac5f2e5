//! A lower bound on the level-k penalty that no solver computes: the
//! penalty split into owned per-cell terms (`own`), each window's least owned
//! penalty computed exactly (`window`), over the border annulus and a centre
//! disc (`annulus`). Disjoint windows add up: every valid partial's penalty
//! is at least the sum (docs/MEASUREMENTS.md, "A border bound from owned
//! penalty", has the table and how far it falls short).

pub mod annulus;
pub mod own;
pub mod window;

use crate::error::HexError;
use crate::geometry::Hexagon;

/// The bound of the outer `depth` rings of the side-`n` hexagon at `level`.
///
/// # Errors
///
/// `HexError::Usage` for a side or level out of range, a depth of 0 or one
/// reaching the centre, or a frontier too wide to pack.
pub fn border_bound(n: usize, level: u8, depth: usize) -> Result<u32, HexError> {
    let hex = Hexagon::new(n)?;
    if depth == 0 || depth >= n {
        return Err(HexError::Usage(format!("depth {depth} must lie in 1..{n} for side {n}")));
    }
    let window = annulus::annulus(&hex, depth);
    if level <= 2 {
        let bound = window::window_bound(&hex, level, &window)?;
        return Ok(bound.expect("an unrestricted annulus has a valid assignment"));
    }
    // A window's bound never drops from one level to the next (docs/PROBLEM.md,
    // section 4: `+` written for the top value keeps every cell valid and owns
    // no more), so the level below's bound is where the capped search starts
    // (level 4's from level 3's saves its failed passes where 3 lies above 2).
    let mut cap = border_bound(n, level - 1, depth)?;
    loop {
        if let Some(bound) = window::window_bound_within(&hex, level, &window, cap)? {
            return Ok(bound);
        }
        cap += 1;
    }
}

/// The values a cell may hold under a cube's projection at `depth`
/// (records::plan's `Cube`): `v <= depth` is "is `v`", `depth + 1` is "more
/// than `depth`"; as `Window::allowed` bits, at `level`.
pub fn projected(level: u8, depth: u8, value: u8) -> u16 {
    if value <= depth {
        1 << value
    } else {
        (depth + 1..=level + 1).fold(0, |bits, v| bits | 1 << v)
    }
}

/// The bound of the centre disc of `radius` with some cells restricted
/// (`(cell, allowed bits)`), or `None` when no valid assignment obeys them.
///
/// # Errors
///
/// `window::window_bound`'s.
pub fn disc_bound(
    hex: &Hexagon,
    level: u8,
    radius: usize,
    allowed: Vec<(usize, u16)>,
) -> Result<Option<u32>, HexError> {
    window::window_bound(hex, level, &annulus::disc(hex, radius, allowed))
}
