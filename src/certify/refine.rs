//! Splitting driven by measured difficulty: hard cubes split by a chosen
//! strategy, and the run-then-split loop of `cubes run --refine`.
//!
//! A cube is "hard" when it outlived the time limit of a run (its record
//! says unfinished). The loop solves every pending cube under the limit,
//! splits the unfinished ones, writes the refined plan and goes on, until
//! every cube is decided or the rounds run out. No cube's work is lost: a
//! record is named by its cube and formula (`Plan::cube_key`), so the
//! cubes a refinement keeps keep their records, and only the split ones are
//! solved again, as their pieces.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::cube_run::{run_all, RunLimits};
use crate::cubes::cardinality::bisection_tree;
use crate::cubes::Plan;
use crate::error::HexError;
use crate::records::{CubeResult, CubeVerdict};
use crate::solving::prefix::{grow_all, PrefixScore, PrefixSettings};
use crate::verify::cube_status::progress;

/// How a hard cube is split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Its split cells one value deeper, one cube per orbit (`cubes::refine`).
    Value,
    /// A decision tree on the variables short proof prefixes learn about
    /// most, or resolve on most (`PrefixSettings::score`).
    Prefix(PrefixSettings),
    /// A bisection of the penalty budget between the hexagon's halves, this deep.
    Cardinality(usize),
}

/// A plan with some cubes split, and what the split did, in words.
pub struct Refinement {
    pub plan: Plan,
    pub summary: String,
}

/// `plan` with cubes `which` split by `strategy`; the cover is checked again.
pub fn refine_with(plan: &Plan, which: &[usize], strategy: Strategy) -> Result<Refinement, HexError> {
    let before = plan.cubes.len();
    let (refined, how) = match strategy {
        Strategy::Value => {
            let (refined, refuted) = plan.refine(which)?;
            (refined, format!("one value deeper ({refuted} refinements refuted locally)"))
        }
        Strategy::Prefix(settings) => {
            let grown = grow_all(plan, which, settings)?;
            let settled: usize = grown.iter().map(|(_, g)| g.settled).sum();
            let runs: usize = grown.iter().map(|(_, g)| g.runs).sum();
            let trees: Vec<(usize, Vec<Vec<i32>>)> = grown.into_iter().map(|(i, g)| (i, g.leaves)).collect();
            (
                plan.grow_trees(&trees)?,
                format!(
                    "by proof prefixes ({runs} runs of {} conflicts, {settled} leaves settled by theirs)",
                    settings.conflicts
                ),
            )
        }
        Strategy::Cardinality(depth) => {
            let counter = plan.encoding()?.counter().ok_or_else(|| {
                HexError::Usage(format!(
                    "cardinality splitting needs the sequential counter; the plan encodes its bound by `{}`",
                    plan.cardinality.name()
                ))
            })?;
            // A cube whose budget is split as far as it goes (every prefix
            // sum the trees use closed) is split by proof prefixes instead.
            let mut trees = Vec::new();
            let mut exhausted = Vec::new();
            for &i in which {
                match plan.cubes.get(i).map(|c| bisection_tree(&counter, &c.literals, depth)) {
                    Some(leaves) if leaves.len() > 1 => trees.push((i, leaves)),
                    _ => exhausted.push(i),
                }
            }
            let settings = PrefixSettings {
                conflicts: crate::options::PREFIX_CONFLICTS.default,
                depth,
                score: PrefixScore::Learned,
            };
            trees.extend(grow_all(plan, &exhausted, settings)?.into_iter().map(|(i, g)| (i, g.leaves)));
            let fallback = if exhausted.is_empty() {
                String::new()
            } else {
                format!(", {} whose budget was split as far as it goes by proof prefixes", exhausted.len())
            };
            (plan.grow_trees(&trees)?, format!("by a bisection of depth {depth} of the penalty budget{fallback}"))
        }
    };
    let summary = format!("split {} cube(s) {how}: {before} cubes become {}", which.len(), refined.cubes.len());
    Ok(Refinement { plan: refined, summary })
}

/// What one round of `run_refining` did.
pub struct Round {
    pub number: usize,
    /// Cubes solved in this round (refuted, unfinished or satisfiable).
    pub solved: usize,
    pub unfinished: usize,
    /// The split of the unfinished cubes, if any were split.
    pub split: Option<String>,
}

/// Solves `plan`'s cubes under `limits` and splits the unfinished ones by
/// `strategy`, for at most `rounds` rounds; after each split the refined
/// plan is written to `output` (with its job list), and solving goes on
/// from it. Stops early when every cube is decided, on a counterexample,
/// or on Ctrl-C. Returns the last plan and every record this run wrote.
#[allow(clippy::too_many_arguments)]
pub fn run_refining(
    mut plan: Plan,
    output: &Path,
    results: &Path,
    hexcert: &str,
    threads: usize,
    limits: RunLimits<'_>,
    strategy: Strategy,
    rounds: usize,
    abort: &Arc<AtomicBool>,
    on_done: &(dyn Fn(usize, &CubeResult, usize) + Sync),
    on_round: &mut dyn FnMut(&Round),
) -> Result<(Plan, Vec<(usize, CubeResult)>), HexError> {
    let mut written = Vec::new();
    for number in 1..=rounds.max(1) {
        let done = run_all(&plan, None, results, threads, limits, abort, on_done)?;
        let stop = abort.load(std::sync::atomic::Ordering::Relaxed)
            || done.iter().any(|(_, r)| r.verdict == CubeVerdict::Counterexample);
        let solved = done.len();
        written.extend(done);
        let unfinished = progress(&plan, results)?.unfinished;
        let mut round = Round { number, solved, unfinished: unfinished.len(), split: None };
        if stop || unfinished.is_empty() || number == rounds {
            on_round(&round);
            break;
        }
        // `refine_with` enumerated the refined plan's cover from its cube list.
        let refined = refine_with(&plan, &unfinished, strategy)?;
        refined.plan.write(output, results, hexcert)?;
        round.split = Some(refined.summary);
        on_round(&round);
        plan = refined.plan;
    }
    Ok((plan, written))
}
