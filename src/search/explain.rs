//! Which members of a search's portfolio admit a given grid, and why: its
//! penalty at the formula's level, how many of its penalty edges lie at ring
//! distance `band` or more, and whether each member's restrictions hold for
//! it or a symmetric image (`Restrictions::admits`, the formula's models
//! stated without the solver). This answers "could this search have found
//! that grid?" for a grid from anywhere (the report's, another program's)
//! before anyone spends CPU hours on a member that cannot.

use serde::Serialize;

use super::grids::GridSearch;
use crate::encoding::restricted::{BandProfile, Restrictions};
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::validation::evaluate;

/// A grid held against every member of a portfolio.
#[derive(Debug, Clone, Serialize)]
pub struct Explained {
    pub n: usize,
    /// The formula's level the grid was cut to.
    pub level: u8,
    /// The cut grid's penalty, which the plain validator computed.
    pub penalty: usize,
    /// The bound each member was asked at: the search's, or the penalty.
    pub bound: usize,
    pub band: usize,
    /// The fewest and the most of the penalty edges at ring distance `band`
    /// or more, over the ways to charge duplicate support.
    pub inner_min: usize,
    pub inner_max: usize,
    /// Each restricted space once (seeds search the same space).
    pub members: Vec<Admitted>,
}

/// One member's answer.
#[derive(Debug, Clone, Serialize)]
pub struct Admitted {
    #[serde(flatten)]
    pub restrictions: Restrictions,
    pub admits: bool,
}

/// `grid` (any level at or above the spec's) cut to the formula's level and
/// held against every member of `spec`'s portfolio at `spec.max_penalty`,
/// or at the cut grid's own penalty when the spec names no bound. A grid the
/// plain validator rejects is an input error, not an answer.
pub fn explain(spec: &GridSearch, grid: &Partial) -> Result<Explained, HexError> {
    if grid.side() != spec.n {
        return Err(HexError::Usage(format!("the grid has side {}, the search --n {}", grid.side(), spec.n)));
    }
    let hex = Hexagon::new(spec.n)?;
    let cut = grid.truncate(spec.level)?;
    let evaluation = evaluate(&hex, &cut);
    if !evaluation.is_valid() {
        return Err(HexError::Usage(format!(
            "the grid is not valid at level {}: {} violations",
            spec.level,
            evaluation.violations.len()
        )));
    }
    let bound = spec.max_penalty.unwrap_or(evaluation.penalty);
    let profile = BandProfile::of(&hex, &cut, spec.band);
    let mut spaces: Vec<Restrictions> = spec.portfolio()?.into_iter().map(|member| member.restrictions).collect();
    spaces.dedup();
    let members = spaces
        .into_iter()
        .map(|restrictions| Admitted { restrictions, admits: restrictions.admits(&hex, &cut, bound) })
        .collect();
    Ok(Explained {
        n: spec.n,
        level: spec.level,
        penalty: evaluation.penalty,
        bound,
        band: spec.band,
        inner_min: profile.inner_min,
        inner_max: profile.inner_max,
        members,
    })
}
