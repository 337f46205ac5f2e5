//! A model of the grid search's restricted formula made a full grid
//! (`grids`): a level-4..6 partial completed along its chains, a lower one
//! refined by the unrestricted level-5 formula with its cells fixed; and
//! the blocking clause that keeps a model from coming back.

use crate::encoding::model::accept_model;
use crate::encoding::{EncodeOptions, LevelEncoding};
use crate::error::HexError;
use crate::formula::Cnf;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::solving::{Answer, SatSolver};
use crate::validation::evaluate;

/// Excludes `partial`'s cell values from the solver's models.
pub(super) fn block(solver: &mut dyn SatSolver, encoding: &LevelEncoding, partial: &Partial) -> Result<(), HexError> {
    let mut block = Cnf::new();
    block.reserve_vars_up_to(encoding.cnf.num_vars());
    block.add_clause(&encoding.cell_literals(partial).iter().map(|l| -l).collect::<Vec<i32>>());
    solver.add_cnf(&block)
}

/// What refining a low-level partial gave.
pub(super) enum RefinedGrid {
    Grid(Partial),
    /// No full grid of penalty <= the bound refines it.
    None,
    Stopped,
}

/// The level-by-level road (issue 38 item 1): a full grid of penalty <=
/// `bound` refining `partial` (a level-1..3 model of the restricted
/// formula), by the unrestricted level-5 formula with `partial`'s decided
/// cells fixed, each model completed by the chains (a completion that costs
/// more is blocked and the solver asked again). The search is exhaustive
/// over `partial`'s refinements: `None` means none has penalty <= `bound`.
pub(super) fn refine(
    hex: &Hexagon,
    partial: &Partial,
    bound: usize,
    mut solver: Box<dyn SatSolver>,
) -> Result<RefinedGrid, HexError> {
    let encoding = LevelEncoding::new(hex, 5, EncodeOptions::bounded(Some(bound)));
    solver.add_cnf(&encoding.cnf)?;
    let mut units = Cnf::new();
    units.reserve_vars_up_to(encoding.cnf.num_vars());
    encoding.refinement_literals(partial).into_iter().for_each(|l| units.add_clause(&[l]));
    solver.add_cnf(&units)?;
    loop {
        let model = match solver.solve() {
            Ok(Answer::Sat(model)) => model,
            Ok(Answer::Unsat) => return Ok(RefinedGrid::None),
            Err(HexError::Interrupted) => return Ok(RefinedGrid::Stopped),
            Err(e) => return Err(e),
        };
        let found = accept_model(hex, &encoding, &model)?;
        let grid = complete(hex, &found.partial)?;
        if evaluate(hex, &grid).penalty <= bound {
            return Ok(RefinedGrid::Grid(grid));
        }
        block(&mut *solver, &encoding, &found.partial)?;
    }
}

/// The full grid of a level-4..6 partial: itself at level 6, else its
/// cheapest completion along the chains of `+` cells.
pub(super) fn complete(hex: &Hexagon, partial: &Partial) -> Result<Partial, HexError> {
    match partial.level() {
        6 => Ok(partial.clone()),
        _ => crate::counting::cheapest_completion(hex, partial),
    }
}
