//! Levels 5 and 6 from level 4: the `+` components of a level-4 partial (one
//! walker) and the polynomials that count their completions (`components`),
//! and the cheapest completion of a partial built the same way
//! (`completion`).
//!
//! Invariant relied on: the `+` cells of a valid level-4 partial form paths
//! and cycles (no `+` cell has three `+` neighbours), and their completions
//! to levels 5 and 6 are independent component by component, so a partial's
//! counts are the product of its components' polynomials.

pub(super) mod completion;
pub(super) mod components;
