//! Levels and level-k partials.
//!
//! A level-k partial gives every cell a value in `1..=k` or `+` ("more than k").
//! We store `+` as the value `k + 1`. Invariant relied on by validation,
//! encoding and counting: every stored value lies in `1..=k+1`, so a `+` cell
//! needs support from all of `1..k` exactly like a decided cell of value `k+1`
//! would, and no decided value ever equals a `+`. At level 6, `+` is 7: a
//! level-6 partial is a full grid.

use crate::error::HexError;

/// The highest level; a level-6 partial is a complete grid.
pub const FULL_LEVEL: u8 = 6;

/// Checks that a level lies in `1..=6`.
pub fn check_level(level: u8) -> Result<u8, HexError> {
    if (1..=FULL_LEVEL).contains(&level) {
        Ok(level)
    } else {
        Err(HexError::Usage(format!("level {level} is out of range: use 1..={FULL_LEVEL}")))
    }
}

/// A level-k partial on the hexagon of side `n` (level 6: a full grid).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Partial {
    n: usize,
    level: u8,
    values: Vec<u8>,
}

impl Partial {
    /// Builds a partial; every value must lie in `1..=level+1` (`level+1` is `+`).
    pub fn new(n: usize, level: u8, values: Vec<u8>) -> Result<Partial, HexError> {
        check_level(level)?;
        if values.len() != crate::geometry::cell_count(n) {
            return Err(HexError::Usage(format!(
                "{} values given for a side-{n} hexagon of {} cells",
                values.len(),
                crate::geometry::cell_count(n)
            )));
        }
        if let Some(bad) = values.iter().find(|&&v| v == 0 || v > level + 1) {
            return Err(HexError::Usage(format!("value {bad} is not allowed at level {level}")));
        }
        Ok(Partial { n, level, values })
    }

    /// Side of the hexagon.
    pub fn side(&self) -> usize {
        self.n
    }

    /// The level k.
    pub fn level(&self) -> u8 {
        self.level
    }

    /// Values by cell index; `level + 1` stands for `+`.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// Whether a cell is `+` (undecided above the level).
    pub fn is_plus(&self, cell: usize) -> bool {
        self.values[cell] == self.plus()
    }

    /// The stored value of `+` at this level.
    pub fn plus(&self) -> u8 {
        self.level + 1
    }

    /// The same grid seen at a lower (or equal) level: values above `level` become `+`.
    pub fn truncate(&self, level: u8) -> Result<Partial, HexError> {
        check_level(level)?;
        if level > self.level {
            return Err(HexError::Usage(format!(
                "a level-{} partial cannot be read at the higher level {level}",
                self.level
            )));
        }
        let values = self.values.iter().map(|&v| v.min(level + 1)).collect();
        Ok(Partial { n: self.n, level, values })
    }
}

/// A partial's values as one digit per cell (`k + 1` is `+`): how count
/// records store partials.
pub fn digits(values: &[u8]) -> String {
    values.iter().map(|v| char::from(b'0' + v)).collect()
}
