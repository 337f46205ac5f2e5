//! The grid search: good full grids for large sides, found by a portfolio of
//! restricted formulas (`encoding::restricted`) run on rayon's pool, as the
//! report recreated its best grids: penalties confined to a band near the
//! boundary, a small allowance farther in, two 1-cells placed near the
//! centre, the penalty bound iterated down.
//!
//! Every member of the portfolio (one inner allowance, centre placement and
//! solver seed) works at the bound all members share: one below the best
//! grid found so far. A member whose formula is UNSAT at a bound is finished
//! (a lower bound only shrinks its space), and so are the other seeds of
//! its space, since they solve the same formula; a member still solving when
//! another one lowers the bound is stopped and starts again at the new bound.
//!
//! Invariant: nothing here is a claim. An UNSAT answer says only that this
//! member's restricted space holds no grid at that bound; the outcome
//! reports it as such, and no certification code imports this file. Every
//! grid is completed to level 6 and passed by the plain validator before it
//! is published.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::grid_completion::{block, complete, refine, RefinedGrid};
use crate::context::RunContext;
use crate::encoding::model::accept_model;
use crate::encoding::restricted::{Centre, RestrictedEncoding, Restrictions, Singles};
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::solving::{Answer, Configuration, SatSolver};
use crate::validation::{evaluate, Evaluation};

/// What to search: the portfolio is every inner allowance with every centre
/// placement and every seed, in that order (allowance first, as the report
/// raised it; seed last, so that the seeds of one space run side by side).
#[derive(Debug, Clone)]
pub struct GridSearch {
    pub n: usize,
    /// Level of the restricted formula (3 to 6); levels above it are filled
    /// in by the chains (`counting::cheapest_completion`), from level 3 after
    /// a refinement to level 5 (`refine`).
    pub level: u8,
    /// Stop at the formula's level: a validated model is the result (a
    /// level-`level` partial, as a witness for a level claim), nothing is
    /// refined or filled in.
    pub partial: bool,
    pub band: usize,
    pub inners: Vec<usize>,
    /// Distances (at or beyond the band) where every member may put one
    /// penalty edge besides its allowance (`Restrictions::singles`).
    pub singles: Singles,
    pub centres: Vec<Option<Centre>>,
    /// The first bound; `None` starts from a free call.
    pub max_penalty: Option<usize>,
    /// Keep looking below each grid found, until every member is UNSAT.
    pub descend: bool,
    /// Members solved at once.
    pub jobs: usize,
    pub time_limit: Option<Duration>,
    /// The solvers' seeds (handed to the `SolverFactory`; 0 is the
    /// backend's own order): each one a copy of the portfolio, since a
    /// satisfiable member's run time varies wildly with the search order.
    pub seeds: Vec<u32>,
    /// Restricted spaces an earlier run found exhausted (with any seed),
    /// with the bound: no member of one is run while the search's bound is
    /// at or below it, since it holds nothing there (the hunt's ledger,
    /// `search::hunt`, fills this).
    pub known_exhausted: Vec<(Restrictions, usize)>,
    /// The solver's option set: how fast a model comes, never which.
    pub configuration: Configuration,
}

impl GridSearch {
    /// The members, in the order they are run: every inner allowance with
    /// every centre placement that fits the hexagon, each with every seed.
    pub fn portfolio(&self) -> Result<Vec<MemberId>, HexError> {
        let hex = Hexagon::new(self.n)?;
        // The solver is deterministic: a value named twice is one run twice.
        named_once("seed", &self.seeds)?;
        named_once("inner allowance", &self.inners)?;
        named_once(
            "centre placement",
            &self.centres.iter().map(|c| c.map_or("none", Centre::name)).collect::<Vec<_>>(),
        )?;
        let portfolio: Vec<MemberId> = self
            .inners
            .iter()
            .flat_map(|&inner| {
                self.centres.iter().map(move |&centre| Restrictions {
                    band: self.band,
                    inner,
                    singles: self.singles,
                    centre,
                })
            })
            .filter(|r| r.centre.is_none_or(|c| c.fits(&hex)))
            .flat_map(|restrictions| self.seeds.iter().map(move |&seed| MemberId { restrictions, seed }))
            .collect();
        match portfolio.is_empty() {
            true => {
                Err(HexError::Usage(format!("no centre placement of the portfolio fits a hexagon of side {}", self.n)))
            }
            false => Ok(portfolio),
        }
    }
}

/// A one-line usage error for the first of `values` named twice.
fn named_once<T: PartialEq + std::fmt::Display>(what: &str, values: &[T]) -> Result<(), HexError> {
    match values.iter().enumerate().find_map(|(i, v)| values[..i].contains(v).then_some(v)) {
        Some(value) => Err(HexError::Usage(format!("{what} {value} is named twice"))),
        None => Ok(()),
    }
}

/// A member of the portfolio: its restricted space, and the seed its
/// solvers search that space with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct MemberId {
    pub restrictions: Restrictions,
    pub seed: u32,
}

impl MemberId {
    /// One line for logs and grid-file comments: `Restrictions::describe`,
    /// and the seed unless it is 0, so that what seed 0 finds reads as
    /// before there were seeds.
    pub fn describe(&self) -> String {
        match self.seed {
            0 => self.restrictions.describe(),
            seed => format!("{}, solver seed {seed}", self.restrictions.describe()),
        }
    }
}

/// A full grid found by `member`, passed by the plain validator.
#[derive(Debug, Clone)]
pub struct Grid {
    pub grid: Partial,
    pub evaluation: Evaluation,
    pub member: MemberId,
    /// Seconds from the start of the search.
    pub seconds: f64,
}

/// How one member of the portfolio ended.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Member {
    #[serde(flatten)]
    pub id: MemberId,
    /// Penalty of the best grid this member found.
    pub found: Option<usize>,
    /// The bound at which its formula was UNSAT (no grid <= it in its
    /// restricted space); `None` while open.
    pub exhausted_at: Option<usize>,
    pub calls: usize,
    pub seconds: f64,
    /// CPU seconds of the thread that ran it (its solver calls run there).
    pub cpu_seconds: f64,
    /// Not run: an earlier run found it exhausted at this bound, at or
    /// above the search's (`GridSearch::known_exhausted`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped_at: Option<usize>,
}

/// What the search ended with.
#[derive(Debug, Clone)]
pub struct Searched {
    pub best: Option<Grid>,
    pub members: Vec<Member>,
    /// The time limit stopped some member before it was done.
    pub timed_out: bool,
    /// The run's stop flag (Ctrl-C) ended it; every member's figures are
    /// those up to then, and none stopped is called exhausted.
    pub interrupted: bool,
}

/// Progress of the search, for stderr.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    Found { member: &'a MemberId, penalty: usize, seconds: f64 },
    Exhausted { member: &'a MemberId, bound: usize, seconds: f64 },
}

/// Builds a solver that searches in the order of the seed it is handed and
/// gives up (answers `HexError::Interrupted`) once the closure it is handed
/// returns true. The caller names the backend.
pub type SolverFactory<'a> = dyn Fn(u32, Box<dyn Fn() -> bool>) -> Box<dyn SatSolver> + Sync + 'a;

struct Shared {
    /// The bound every member works at: one below the best grid so far.
    bound: AtomicUsize,
    done: AtomicBool,
    /// The run's stop flag (Ctrl-C): a member stopped by it is not exhausted.
    interrupt: Arc<AtomicBool>,
    deadline: Option<Instant>,
    start: Instant,
    best: Mutex<Option<Grid>>,
    queue: Mutex<VecDeque<usize>>,
    members: Mutex<Vec<Member>>,
    /// Per member, 1 + the bound at which its formula was UNSAT (0: none yet).
    exhausted: Vec<AtomicUsize>,
    error: Mutex<Option<HexError>>,
}

impl Shared {
    fn stopped(&self) -> bool {
        self.done.load(Ordering::Relaxed)
            || self.interrupt.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The highest bound at which one of `members` was UNSAT.
    fn exhausted_among(&self, members: &[usize]) -> Option<usize> {
        members.iter().map(|&i| self.exhausted[i].load(Ordering::Relaxed)).max().and_then(|b| b.checked_sub(1))
    }

    /// A member's call at `bound` is moot: the search stopped, a grid
    /// lowered the bound, or one of its `siblings` found its space empty.
    /// Its answer then is no UNSAT of its own.
    fn moot(&self, bound: usize, siblings: &[usize]) -> bool {
        self.stopped() || self.bound.load(Ordering::Relaxed) < bound || self.exhausted_among(siblings) >= Some(bound)
    }
}

/// Runs the portfolio. Errors on a model the validator rejects (a bug) or a
/// restriction the hexagon cannot hold. A run stopped by the run's stop
/// flag still returns what it did (`Searched::interrupted`), so that the
/// caller can keep its record of effort before it reports the interruption.
pub fn search(
    context: &RunContext,
    spec: &GridSearch,
    new_solver: &SolverFactory,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Searched, HexError> {
    let hex = Hexagon::new(spec.n)?;
    let portfolio = spec.portfolio()?;
    let start = Instant::now();
    let shared = Arc::new(Shared {
        bound: AtomicUsize::new(spec.max_penalty.unwrap_or(hex.edges().len())),
        done: AtomicBool::new(false),
        interrupt: Arc::clone(context.stop_flag()),
        deadline: spec.time_limit.map(|t| start + t),
        start,
        best: Mutex::new(None),
        queue: Mutex::new((0..portfolio.len()).collect()),
        members: Mutex::new(
            portfolio
                .iter()
                .map(|&id| Member {
                    id,
                    found: None,
                    exhausted_at: None,
                    calls: 0,
                    seconds: 0.0,
                    cpu_seconds: 0.0,
                    skipped_at: None,
                })
                .collect(),
        ),
        exhausted: portfolio.iter().map(|_| AtomicUsize::new(0)).collect(),
        error: Mutex::new(None),
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(spec.jobs.max(1))
        .build()
        .map_err(|e| HexError::Internal(format!("thread pool: {e}")))?;
    // The queue's lock must be let go before the member runs: held by the
    // `while let` scrutinee it would last the whole body, one member at a time.
    let next = || shared.queue.lock().unwrap().pop_front();
    let worker = || {
        while let Some(index) = next() {
            if let Err(e) = run_member(spec, &hex, &shared, index, new_solver, on_event) {
                shared.error.lock().unwrap().get_or_insert(e);
                shared.done.store(true, Ordering::Relaxed);
            }
        }
    };
    pool.scope(|s| (0..spec.jobs.max(1)).for_each(|_| s.spawn(|_| worker())));
    let shared = Arc::into_inner(shared).expect("the workers are done");
    if let Some(e) = shared.error.into_inner().unwrap() {
        return Err(e);
    }
    let members = shared.members.into_inner().unwrap();
    let timed_out =
        members.iter().any(|m| m.exhausted_at.is_none()) && shared.deadline.is_some_and(|d| Instant::now() >= d);
    Ok(Searched { best: shared.best.into_inner().unwrap(), members, timed_out, interrupted: context.stopped() })
}

/// Solves one member at the shared bound until it is UNSAT there, the
/// search is done, or time runs out.
fn run_member(
    spec: &GridSearch,
    hex: &Hexagon,
    shared: &Arc<Shared>,
    index: usize,
    new_solver: &SolverFactory,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<(), HexError> {
    let id = shared.members.lock().unwrap()[index].id;
    let known = spec.known_exhausted.iter().filter(|k| k.0 == id.restrictions).map(|k| k.1).max();
    // The other seeds of its space solve the same formulas: an UNSAT answer
    // of one at a bound is every one's, and the rest stop there.
    let siblings: Vec<usize> = shared
        .members
        .lock()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|&(i, m)| i != index && m.id.restrictions == id.restrictions)
        .map(|(i, _)| i)
        .collect();
    let (began, cpu_began) = (Instant::now(), crate::run::thread_cpu_seconds());
    let mut calls = 0;
    let (mut exhausted, mut found, mut skipped) = (None, None::<usize>, None);
    while !shared.stopped() {
        let bound = shared.bound.load(Ordering::Relaxed);
        if known.is_some_and(|k| k >= bound) {
            // Checked at each bound, not once: a grid found by another
            // member may lower the bound into the space already searched.
            skipped = known;
            break;
        }
        if let Some(b) = shared.exhausted_among(&siblings).filter(|&b| b >= bound) {
            exhausted = Some(b);
            break;
        }
        let encoding = RestrictedEncoding::new(hex, spec.level, bound, id.restrictions)?;
        // Every solver of the member, the refiner's too, searches in its seed's order.
        let solver_at_bound = || {
            new_solver(
                id.seed,
                Box::new({
                    let (watched, siblings) = (Arc::clone(shared), siblings.clone());
                    move || watched.moot(bound, &siblings)
                }),
            )
        };
        let mut solver = solver_at_bound();
        solver.add_cnf(&encoding.encoding.cnf)?;
        calls += 1;
        match solve_completed(hex, &encoding, &mut *solver, &solver_at_bound, bound, spec.partial)? {
            Some((grid, evaluation)) => {
                found = Some(found.map_or(evaluation.penalty, |f| f.min(evaluation.penalty)));
                publish(
                    spec,
                    shared,
                    Grid { grid, evaluation, member: id, seconds: shared.start.elapsed().as_secs_f64() },
                    on_event,
                );
            }
            None if shared.moot(bound, &siblings) => {}
            None => {
                exhausted = Some(bound);
                shared.exhausted[index].store(bound + 1, Ordering::Relaxed);
                on_event(Event::Exhausted { member: &id, bound, seconds: shared.start.elapsed().as_secs_f64() });
                break;
            }
        }
    }
    let mut members = shared.members.lock().unwrap();
    let member = &mut members[index];
    (member.found, member.exhausted_at, member.calls, member.skipped_at) = (found, exhausted, calls, skipped);
    (member.seconds, member.cpu_seconds) =
        (began.elapsed().as_secs_f64(), crate::run::thread_cpu_seconds() - cpu_began);
    Ok(())
}

/// A full grid of penalty <= `bound` from the solver's models (with
/// `partial`, the validated model itself): each model is validated,
/// completed (by the chains from level 4 on, by `refine` below) and
/// validated again; a model whose completion costs more, or
/// (below level 4) that no grid within the bound refines, is blocked and
/// the solver asked again. `None` when UNSAT or stopped (told apart by the
/// caller).
fn solve_completed(
    hex: &Hexagon,
    encoding: &RestrictedEncoding,
    solver: &mut dyn SatSolver,
    refiner: &dyn Fn() -> Box<dyn SatSolver>,
    bound: usize,
    partial: bool,
) -> Result<Option<(Partial, Evaluation)>, HexError> {
    let level_encoding = &encoding.encoding;
    loop {
        let model = match solver.solve() {
            Ok(Answer::Sat(model)) => model,
            Ok(Answer::Unsat) | Err(HexError::Interrupted) => return Ok(None),
            Err(e) => return Err(e),
        };
        let found = accept_model(hex, level_encoding, &model)?;
        let grid = match found.partial.level() {
            _ if partial => found.partial.clone(),
            4.. => complete(hex, &found.partial)?,
            _ => match refine(hex, &found.partial, bound, refiner())? {
                RefinedGrid::Grid(grid) => grid,
                RefinedGrid::Stopped => return Ok(None),
                RefinedGrid::None => {
                    // No full grid within the bound refines this partial: never ask for it again.
                    block(solver, level_encoding, &found.partial)?;
                    continue;
                }
            },
        };
        let evaluation = evaluate(hex, &grid);
        if !evaluation.is_valid() {
            return Err(HexError::Internal(format!("completed grid is invalid: {:?}", evaluation.violations.first())));
        }
        if evaluation.penalty <= bound {
            return Ok(Some((grid, evaluation)));
        }
        block(solver, level_encoding, &found.partial)?;
    }
}

/// Keeps `grid` if it beats the best so far, lowers the shared bound below
/// it, and ends the search when it need not go lower.
fn publish(spec: &GridSearch, shared: &Shared, grid: Grid, on_event: &(dyn Fn(Event) + Sync)) {
    let mut best = shared.best.lock().unwrap();
    let penalty = grid.evaluation.penalty;
    if best.as_ref().is_some_and(|b| b.evaluation.penalty <= penalty) {
        return;
    }
    on_event(Event::Found { member: &grid.member, penalty, seconds: grid.seconds });
    let reached = spec.max_penalty.is_some_and(|b| penalty <= b) && !spec.descend;
    if reached || penalty == 0 {
        shared.done.store(true, Ordering::Relaxed);
    }
    shared.bound.fetch_min(penalty.saturating_sub(1), Ordering::Relaxed);
    *best = Some(grid);
}
