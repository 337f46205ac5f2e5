//! The plain validator: validity of a level-k partial, its level-k penalty and
//! its score, with every violation and every penalty edge named.
//!
//! This module deliberately shares nothing with the encoder or the solver: it
//! reads the definitions of `docs/PROBLEM.md` (sections 2-4) directly, so that every model
//! the SAT path produces is checked by a second, independent path.
//!
//! Duplicate support is charged, for a cell `v` and a lower value `a` it sees
//! `m > 1` times, to the edges towards all but the highest-indexed of those
//! `m` neighbours. The choice of which edges is arbitrary (docs/PROBLEM.md,
//! section 3, defines only the count); the count `m - 1` is not.

use crate::geometry::Hexagon;
use crate::levels::Partial;

/// A cell that lacks support from some lower values.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Violation {
    pub cell: usize,
    /// Skewed coordinates `(row, column)` of the cell.
    pub row: i32,
    pub column: i32,
    /// The stored value (`level + 1` for `+`).
    pub value: u8,
    /// The values below `value` (and at most the level) it does not see.
    pub missing: Vec<u8>,
}

/// Why an edge is a penalty edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum PenaltyKind {
    /// Both ends hold the same decided value.
    Equal,
    /// The higher end already sees the lower value through another edge.
    DuplicateSupport,
}

/// An edge counted in the level-k penalty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PenaltyEdge {
    pub u: usize,
    pub v: usize,
    pub kind: PenaltyKind,
}

/// Everything the validator finds out about a partial.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Evaluation {
    pub level: u8,
    pub violations: Vec<Violation>,
    pub penalty_edges: Vec<PenaltyEdge>,
    /// The level-k penalty: the number of penalty edges.
    pub penalty: usize,
    /// Sum of `value - 1`, for a full grid (level 6) only.
    pub score: Option<u64>,
}

impl Evaluation {
    /// A partial is valid when no cell lacks support.
    pub fn is_valid(&self) -> bool {
        self.violations.is_empty()
    }
}

/// Validates a partial and computes its level-k penalty.
pub fn evaluate(hex: &Hexagon, partial: &Partial) -> Evaluation {
    assert_eq!(hex.side(), partial.side(), "partial and hexagon differ in size");
    let level = partial.level();
    let values = partial.values();
    let mut violations = Vec::new();
    let mut penalty_edges = Vec::new();
    for cell in 0..hex.cell_count() {
        if let Some(v) = missing_support(hex, partial, cell) {
            violations.push(v);
        }
        penalty_edges.extend(duplicate_support_edges(hex, partial, cell));
    }
    for &(u, v) in hex.edges() {
        if values[u] == values[v] && !partial.is_plus(u) {
            penalty_edges.push(PenaltyEdge { u, v, kind: PenaltyKind::Equal });
        }
    }
    let score = (level == crate::levels::FULL_LEVEL).then(|| values.iter().map(|&v| u64::from(v) - 1).sum());
    Evaluation { level, violations, penalty: penalty_edges.len(), penalty_edges, score }
}

/// The violation at `cell`, if it does not see every value below its own (up to the level).
fn missing_support(hex: &Hexagon, partial: &Partial, cell: usize) -> Option<Violation> {
    let value = partial.values()[cell];
    let seen = seen_values(hex, partial, cell);
    let missing: Vec<u8> = (1..value).filter(|&a| seen[a as usize] == 0).collect();
    if missing.is_empty() {
        return None;
    }
    let (row, column) = hex.coords(cell);
    Some(Violation { cell, row, column, value, missing })
}

/// `seen[a]` counts the neighbours of `cell` with stored value `a`.
fn seen_values(hex: &Hexagon, partial: &Partial, cell: usize) -> [u8; 9] {
    let mut seen = [0u8; 9];
    for &u in hex.neighbours(cell) {
        seen[partial.values()[u] as usize] += 1;
    }
    seen
}

/// Penalty edges charged to `cell` as the higher end of a duplicated support.
fn duplicate_support_edges<'a>(
    hex: &'a Hexagon,
    partial: &'a Partial,
    cell: usize,
) -> impl Iterator<Item = PenaltyEdge> + 'a {
    let value = partial.values()[cell];
    let values = partial.values();
    // `+` is stored as `level + 1`, so `1..value` is `1..=level` for a `+` cell.
    (1..value).flat_map(move |a| {
        let supporters: Vec<usize> = hex.neighbours(cell).iter().copied().filter(|&u| values[u] == a).collect();
        let charged = supporters.len().saturating_sub(1);
        supporters.into_iter().take(charged).map(move |u| PenaltyEdge {
            u: u.min(cell),
            v: u.max(cell),
            kind: PenaltyKind::DuplicateSupport,
        })
    })
}
