//! The `cubes` family's arguments and dispatch (cargo feature `solver`):
//! plan, run, estimate, refine, merge, status, each calling `commands`.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use hexcert::context::RunContext;
use hexcert::cubes::estimate::Sample;
use hexcert::error::HexError;
use hexcert::options;

use crate::args::{positive_seconds, within, StatementArgs, VerifiedArgs, VeripbArgs};
use crate::choices::{Cardinality, TieBreak};
use crate::commands;

#[derive(Subcommand)]
pub(crate) enum CubesCommand {
    /// Write the plan of "no valid level-k partial below B": the values of the
    /// cells around the centre, one cube per symmetry orbit, locally refuted
    /// ones dropped; the cover is checked before the file is written.
    Plan {
        #[command(flatten)]
        claim: StatementArgs,
        #[arg(long, default_value_t = options::SPLIT_RADIUS.default, help = options::SPLIT_RADIUS.help, value_parser = within(options::SPLIT_RADIUS))]
        radius: usize,
        #[arg(long, default_value_t = options::SPLIT_DEPTH.default, help = options::SPLIT_DEPTH.help, value_parser = within(options::SPLIT_DEPTH))]
        depth: u8,
        #[arg(long, default_value_t = options::BUDGET_SPLIT.default, help = options::BUDGET_SPLIT.help, value_parser = within(options::BUDGET_SPLIT))]
        budget_split: usize,
        /// Cardinality encoding of the penalty bound.
        #[arg(long, value_enum, default_value_t)]
        cardinality: Cardinality,
        /// Symmetry breaking inside the cubes: lex-leader clauses over the
        /// split's readings and then a tail of further cells, derived by
        /// VeriPB's dominance rule like the orbit reduction. Breaks the
        /// symmetries that fix a cube's projection; recorded in the plan.
        #[arg(long, value_enum, default_value_t)]
        tie_break: TieBreak,
        /// The plan file to write; its job list goes beside it as PLAN.jobs.
        #[arg(long, short)]
        output: PathBuf,
        /// Results directory the job list's commands write to [default:
        /// results/ beside OUTPUT].
        #[arg(long)]
        results: Option<PathBuf>,
        /// How the job list's commands call hexcert (a path, or a name on PATH).
        #[arg(long, default_value = "hexcert")]
        hexcert: String,
    },
    /// Solve cubes of a plan, each proof checked by the LRAT checker as it is
    /// written; one result record per cube in the results directory.
    Run {
        /// The plan file.
        plan: PathBuf,
        /// Solve this cube only (what one job of a job engine runs); a cube
        /// whose record settles it already is not solved again.
        #[arg(long, conflicts_with_all = ["all", "sample"], required_unless_present_any = ["all", "sample"])]
        index: Option<usize>,
        /// Solve every cube that has no record yet.
        #[arg(long, conflicts_with = "sample")]
        all: bool,
        /// Solve the cubes of a random sample of this size that have no
        /// record yet (drawn by --seed; `cubes estimate` extrapolates from it).
        #[arg(long)]
        sample: Option<usize>,
        /// The sample's seed: the same plan and seed draw the same cubes.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// With --sample: one cube per grade (how open the cube leaves the
        /// split cells), from the second most open grade down, which `cubes
        /// estimate --graded` extrapolates along its grades; a random
        /// sample of three usually misses the few dear cubes.
        #[arg(long, requires = "sample")]
        graded: bool,
        #[arg(long, default_value_t = options::JOBS.default, help = options::JOBS.help, value_parser = within(options::JOBS))]
        jobs: usize,
        /// Directory of result records, shared by every run of the plan
        /// [default: results/ beside PLAN].
        #[arg(long)]
        results: Option<PathBuf>,
        /// Stop a cube after this many seconds of its solver's CPU time
        /// (time spent waiting for a busy core does not count) and record it
        /// as unfinished (`cubes refine` then splits it); --all skips cubes
        /// already unfinished under at least this limit.
        #[arg(long, value_parser = positive_seconds)]
        time_limit: Option<f64>,
        #[arg(long, default_value_t = options::CUBE_STORE_LIMIT.default, help = options::CUBE_STORE_LIMIT.help, value_parser = within(options::CUBE_STORE_LIMIT))]
        store_limit: u64,
        #[command(flatten)]
        verified: VerifiedArgs,
        /// With --all and --time-limit: split the cubes the limit stops by
        /// this strategy (as `cubes refine` does), write the refined plan to
        /// --output and solve its new cubes, round after round, until every
        /// cube is decided or --rounds have run.
        #[arg(long, value_enum, requires_all = ["all", "time_limit", "output"])]
        refine: Option<commands::RefineArg>,
        /// With --refine: the refined plan to write (its job list beside it).
        #[arg(long, short, requires = "refine")]
        output: Option<PathBuf>,
        #[arg(long, default_value_t = options::ROUNDS.default, help = options::ROUNDS.help, value_parser = within(options::ROUNDS))]
        rounds: usize,
        #[command(flatten)]
        trees: TreeArgs,
        /// With --refine: how the job list's commands call hexcert.
        #[arg(long, default_value = "hexcert")]
        hexcert: String,
    },
    /// Replace hard cubes by their cubes one value deeper (one per orbit
    /// under the symmetries that fix the cube, locally refuted ones
    /// dropped); the cover is checked again and the records of the other
    /// cubes stay valid.
    Refine {
        /// The plan file.
        plan: PathBuf,
        /// Refine these cubes (indices in PLAN); default: every cube unfinished in --results.
        #[arg(long = "cube")]
        cubes: Vec<usize>,
        /// Directory of result records [default: results/ beside PLAN].
        #[arg(long)]
        results: Option<PathBuf>,
        /// The refined plan to write; its job list goes beside it as OUTPUT.jobs.
        #[arg(long, short)]
        output: PathBuf,
        /// How the job list's commands call hexcert (a path, or a name on PATH).
        #[arg(long, default_value = "hexcert")]
        hexcert: String,
        /// How to split: `cardinality` (a bisection, --tree-depth deep, of
        /// the penalty budget between the hexagon's two halves; a cube whose
        /// budget is split as far as it goes falls back to `prefix`),
        /// `prefix` (a decision tree on the variables CaDiCaL learns about
        /// most in short prefix runs; the tree's leaves become cubes),
        /// `pivots` (the same tree on the variables the prefix runs'
        /// derivations resolve on most, short lemmas weighing more) or
        /// `value` (the split cells one value deeper; only for value cubes).
        #[arg(long, value_enum, default_value = "cardinality")]
        strategy: commands::RefineArg,
        #[command(flatten)]
        trees: TreeArgs,
    },
    /// Check a finished plan (its cover and every cube's record, stored
    /// proofs re-checked, and with VeriPB the statement -> split formula
    /// step) and write its claim.json, which `hexcert check`
    /// verifies like any other claim. Exit 0 only when all of it was checked
    /// in this run; 4 when a cube is only attested or VeriPB is missing.
    Merge {
        /// The plan file.
        plan: PathBuf,
        /// Directory of result records [default: results/ beside PLAN].
        #[arg(long)]
        results: Option<PathBuf>,
        /// Certificate root: the claim goes to PROOFS/nN/levelK-belowB/claim.json.
        #[arg(long, default_value = "proofs")]
        proofs: PathBuf,
        #[command(flatten)]
        veripb: VeripbArgs,
    },
    /// Check a plan's cover and every cube record in the results directory;
    /// report what is done, what remains, and the time distribution.
    ///
    /// Once every cube is refuted with a checked record, the statement ->
    /// split formula step is derived and checked with VeriPB, as `cubes
    /// merge` does.
    ///
    /// Exit code: 0 every cube refuted with a checked record and the
    /// statement step checked by VeriPB; 1 a record failed a check or holds a
    /// counterexample, or VeriPB rejected the step; 4 cubes still unsolved,
    /// or no VeriPB in this run to check the step.
    Status {
        /// The plan file.
        plan: PathBuf,
        /// Directory of result records [default: results/ beside PLAN].
        #[arg(long)]
        results: Option<PathBuf>,
        #[arg(long, default_value_t = options::MACHINES.default, help = options::MACHINES.help, value_parser = within(options::MACHINES))]
        machines: usize,
        #[command(flatten)]
        veripb: VeripbArgs,
    },
    /// Extrapolate the claim's solving cost from the records of a sample of
    /// its cubes (random, or graded): min, median and max per cube, and the
    /// total with its 95 % interval (a lower bound when a sampled cube was
    /// stopped by a time limit).
    ///
    /// Exit code: 0 every sampled cube has a record; 4 otherwise.
    Estimate {
        /// The plan file.
        plan: PathBuf,
        /// Directory of result records [default: results/ beside PLAN].
        #[arg(long)]
        results: Option<PathBuf>,
        /// Count only the sample of this size drawn by --seed (what `cubes
        /// run --sample` solved); without it every record counts.
        #[arg(long)]
        sample: Option<usize>,
        /// The sample's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Fit the logarithm of a cube's cost as a line in its grade and
        /// forecast every cube not counted from its grade (with --sample:
        /// the graded sample `cubes run --sample --graded` solved); without
        /// it, the counted cubes' mean.
        #[arg(long)]
        graded: bool,
    },
}

/// A plan's results directory: `--results`, or `results/` in the plan's
/// own directory, so a campaign's plan and records travel together (as in
/// proofs/n13/*/campaign/) whatever directory the commands run from.
/// The plan `cubes plan` makes of its options.
fn new_plan(
    claim: &StatementArgs,
    radius: usize,
    depth: u8,
    budget_split: usize,
    cardinality: Cardinality,
    tie_break: TieBreak,
) -> Result<hexcert::cubes::Plan, HexError> {
    hexcert::cubes::Plan::new(claim.n, claim.level, claim.below, radius, depth, cardinality.into())?
        .with_tie_break(tie_break.into())?
        .split_budget(budget_split)
}

pub(crate) fn results_of(plan: &Path, results: &Option<PathBuf>) -> PathBuf {
    results.clone().unwrap_or_else(|| plan.parent().unwrap_or(Path::new("")).join("results"))
}

/// How deep the trees of `--strategy prefix`, `pivots` and `cardinality` grow.
#[derive(clap::Args, Debug)]
pub(crate) struct TreeArgs {
    #[arg(long, default_value_t = options::PREFIX_CONFLICTS.default, help = options::PREFIX_CONFLICTS.help, value_parser = within(options::PREFIX_CONFLICTS))]
    pub prefix_conflicts: i32,
    #[arg(long, default_value_t = options::TREE_DEPTH.default, help = options::TREE_DEPTH.help, value_parser = within(options::TREE_DEPTH))]
    pub tree_depth: u64,
}

impl TreeArgs {
    pub fn settings(&self) -> hexcert::solving::prefix::PrefixSettings {
        hexcert::solving::prefix::PrefixSettings {
            conflicts: self.prefix_conflicts,
            depth: self.tree_depth as usize,
            score: hexcert::solving::prefix::PrefixScore::Learned,
        }
    }
}

impl CubesCommand {
    /// Runs the subcommand.
    pub(crate) fn run(&self, context: &RunContext) -> Result<commands::report::Reported, HexError> {
        match self {
            CubesCommand::Plan {
                claim,
                radius,
                depth,
                budget_split,
                cardinality,
                tie_break,
                output,
                results,
                hexcert,
            } => {
                let plan = new_plan(claim, *radius, *depth, *budget_split, *cardinality, *tie_break)?;
                commands::cubes_plan(&plan, output, &results_of(output, results), hexcert)
            }
            CubesCommand::Run {
                plan,
                index,
                all: _,
                sample,
                seed,
                graded,
                jobs,
                results,
                time_limit,
                store_limit,
                verified,
                refine,
                output,
                rounds,
                trees,
                hexcert,
            } => {
                let checker = verified.checker()?;
                let limits = hexcert::certify::cube_run::RunLimits {
                    time_limit: *time_limit,
                    store_limit: *store_limit,
                    verified: checker.as_ref(),
                };
                let selection = match (index, sample, refine, output) {
                    (Some(i), ..) => commands::Selection::One(*i),
                    (None, Some(size), ..) => {
                        commands::Selection::Sample(Sample { size: *size, seed: *seed, graded: *graded })
                    }
                    (None, None, Some(strategy), Some(output)) => commands::Selection::Refining {
                        strategy: strategy.with(trees.settings()),
                        output: output.clone(),
                        rounds: *rounds,
                        hexcert: hexcert.clone(),
                    },
                    (None, None, ..) => commands::Selection::All,
                };
                commands::cubes_run(context, plan, selection, *jobs, &results_of(plan, results), limits)
            }
            CubesCommand::Estimate { plan, results, sample, seed, graded } => commands::cubes_estimate(
                plan,
                &results_of(plan, results),
                sample.map(|size| Sample { size, seed: *seed, graded: *graded }),
                *graded,
            ),
            CubesCommand::Refine { plan, cubes, results, output, hexcert, strategy, trees } => commands::cubes_refine(
                plan,
                cubes,
                &results_of(plan, results),
                output,
                hexcert,
                strategy.with(trees.settings()),
            ),
            CubesCommand::Merge { plan, results, proofs, .. } => {
                commands::cubes_merge(plan, &results_of(plan, results), proofs)
            }
            CubesCommand::Status { plan, results, machines, .. } => {
                commands::cubes_status(plan, &results_of(plan, results), *machines)
            }
        }
    }
}
