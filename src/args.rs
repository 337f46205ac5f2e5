//! The argument types the commands share (a claim, where certificates go,
//! how counts hold their layers), the `cubes` subcommands, and the value
//! parsers, whose ranges come from the options table.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use hexcert::certification::Settings;
use hexcert::context::RunContext;
use hexcert::counting::Layers;
use hexcert::error::HexError;
use hexcert::geometry::Hexagon;
use hexcert::options;

use crate::choices::{Cardinality, CubeUse, ExternalCheck, TieBreak};
use crate::commands;

pub(crate) fn side(s: &str) -> Result<usize, String> {
    let n: usize = s.parse().map_err(|_| format!("`{s}` is not a hexagon side"))?;
    Hexagon::new(n).map(|_| n).map_err(|e| e.to_string())
}


/// The formally verified LRAT checker, for the commands that read proofs.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct VerifiedArgs {
    /// The cake_lpr binary (the CakeML-verified LRAT checker) to give every
    /// proof to as well, its verdict recorded beside hexcert-lrat's; default:
    /// `cake_lpr` on PATH, else none (build it with `make -C
    /// ../shared/tools/cake_lpr OUT=DIR`, see docs/SOUNDNESS.md).
    #[arg(long, value_name = "PATH")]
    pub cake_lpr: Option<PathBuf>,
}

impl VerifiedArgs {
    pub fn checker(&self) -> Result<Option<hexcert::proofs::verified::VerifiedChecker>, HexError> {
        hexcert::proofs::verified::VerifiedChecker::find(self.cake_lpr.as_deref())
    }
}

/// The VeriPB that checks statement -> CNF derivations, for the commands that run it.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct VeripbArgs {
    /// The veripb program to check statement -> CNF derivations with;
    /// default: `veripb` on PATH, else the VeriPB library built into hexcert
    /// (cargo feature `veripb`). The environment variable HEXCERT_VERIPB
    /// does the same, and takes `library` or `none` too.
    #[arg(long, value_name = "PATH")]
    pub veripb_program: Option<PathBuf>,
}

impl VeripbArgs {
    /// Makes the named program this run's VeriPB (`proofs::veripb`), before
    /// any thread starts. Errors: it is not a file.
    pub fn choose(&self) -> Result<(), HexError> {
        let Some(program) = &self.veripb_program else { return Ok(()) };
        let absolute = std::fs::canonicalize(program)
            .ok()
            .filter(|p| p.is_file())
            .ok_or_else(|| HexError::Usage(format!("--veripb-program {}: no such program", program.display())))?;
        // SAFETY (edition 2021: safe, but only sound single-threaded): main
        // calls this before starting any thread.
        std::env::set_var(hexcert::proofs::veripb::CHOICE, absolute);
        Ok(())
    }
}

#[cfg(feature = "solver")]
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
        /// Solve this cube only (what one job of a job engine runs).
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
        #[arg(long, default_value_t = options::JOBS.default, help = options::JOBS.help, value_parser = within(options::JOBS))]
        jobs: usize,
        /// Directory of result records, shared by every run of the plan
        /// [default: results/ beside PLAN].
        #[arg(long)]
        results: Option<PathBuf>,
        /// Stop a cube after this many seconds and record it as unfinished
        /// (`cubes refine` then splits it); --all skips cubes already
        /// unfinished under at least this limit.
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
        refine: Option<commands::Strategy>,
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
        /// most in short prefix runs; the tree's leaves become cubes) or
        /// `value` (the split cells one value deeper; only for value cubes).
        #[arg(long, value_enum, default_value = "cardinality")]
        strategy: commands::Strategy,
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
    /// Exit code: 0 every cube refuted with a checked record; 1 a record
    /// failed a check or holds a counterexample; 4 cubes still unsolved.
    Status {
        /// The plan file.
        plan: PathBuf,
        /// Directory of result records [default: results/ beside PLAN].
        #[arg(long)]
        results: Option<PathBuf>,
        #[arg(long, default_value_t = options::MACHINES.default, help = options::MACHINES.help, value_parser = within(options::MACHINES))]
        machines: usize,
    },
    /// Extrapolate the claim's solving cost from the records of a random
    /// sample of its cubes: min, median and max per cube, and the total
    /// with its 95 % interval (a lower bound when a sampled cube was
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
    },
}

/// A plan's results directory: `--results`, or `results/` in the plan's
/// own directory, so a campaign's plan and records travel together (as in
/// proofs/n13/*/campaign/) whatever directory the commands run from.
pub(crate) fn results_of(plan: &Path, results: &Option<PathBuf>) -> PathBuf {
    results.clone().unwrap_or_else(|| plan.parent().unwrap_or(Path::new("")).join("results"))
}

/// The value parser of an entry of the options table: its range, one-line errors.
pub(crate) fn within<T>(option: options::Opt<T>) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: PartialOrd + Copy + std::fmt::Display + std::str::FromStr + Send + Sync + 'static,
{
    move |text| option.parse(text)
}

pub(crate) fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err(format!("`{text}` is not a positive number of seconds")),
    }
}

/// How the counting commands hold their layers and where their tables start.
#[derive(clap::Args, Debug)]
pub(crate) struct CountingArgs {
    #[arg(long, default_value_t = options::MEMORY_LIMIT.default, help = options::MEMORY_LIMIT.help, value_parser = within(options::MEMORY_LIMIT))]
    pub(crate) memory_limit: u64,
    /// Penalty bound the cost-to-finish tables are first built for. Counts and
    /// minima do not depend on it (a table built at or above a level's minimum
    /// finds it exactly; below, the bound is raised one step at a time, rebuilding
    /// the tables each time); a value at the top level's minimum (e.g. from a
    /// certified optimum.json) builds each table once. With a range of sides,
    /// every side starts there.
    #[arg(long, default_value_t = 0, conflicts_with = "start_from")]
    pub(crate) start_bound: usize,
    /// Take the start bound of side N from DIR/nN/optimum.json (its level minimum
    /// at the top level counted, at most 4), when that file exists; 0 otherwise.
    /// Only a hint: counts and minima are the tables' own.
    #[arg(long, value_name = "DIR")]
    pub(crate) start_from: Option<PathBuf>,
    /// Directory for finished cost-to-finish tables, one file per side, level and
    /// bound (written atomically, checked by hash when read), and for the finished
    /// layers of both passes of the table being built: a rerun loads the tables
    /// and resumes a stopped table at its last finished layer, forward or
    /// backward, so a long count stopped by Ctrl-C loses at most one layer (a
    /// count that loaded any of them exits 4: they are an earlier run's word).
    #[arg(long)]
    pub(crate) checkpoints: Option<PathBuf>,
}

impl CountingArgs {
    /// The settings for side `n` counted up to `level`, under the run's context.
    pub(crate) fn settings(&self, n: usize, level: u8, context: &RunContext) -> Result<hexcert::counting::Settings, HexError> {
        let hinted = match self.start_from.as_deref() {
            Some(dir) => hexcert::counting::start_hint(dir, n, level.min(4))?,
            None => None,
        };
        Ok(hexcert::counting::Settings {
            layers: Layers::Sorted { memory_limit: self.memory_limit },
            start: hinted.unwrap_or(self.start_bound),
            checkpoints: self.checkpoints.clone(),
            records: None,
            via: Default::default(),
            upper: Default::default(),
            context: context.clone(),
            loaded: Default::default(),
        })
    }
}

/// The statement "no valid level-k partial of the side-n hexagon has penalty below B".
/// How deep the trees of `--strategy prefix` and `cardinality` grow.
#[cfg(feature = "solver")]
#[derive(clap::Args, Debug)]
pub(crate) struct TreeArgs {
    #[arg(long, default_value_t = options::PREFIX_CONFLICTS.default, help = options::PREFIX_CONFLICTS.help, value_parser = within(options::PREFIX_CONFLICTS))]
    pub prefix_conflicts: i32,
    #[arg(long, default_value_t = options::TREE_DEPTH.default, help = options::TREE_DEPTH.help, value_parser = within(options::TREE_DEPTH))]
    pub tree_depth: u64,
}

#[cfg(feature = "solver")]
impl TreeArgs {
    pub fn settings(&self) -> hexcert::solving::prefix::PrefixSettings {
        hexcert::solving::prefix::PrefixSettings { conflicts: self.prefix_conflicts, depth: self.tree_depth as usize }
    }
}

#[derive(clap::Args)]
pub(crate) struct StatementArgs {
    /// Side of the hexagon (1..=40).
    #[arg(long, value_parser = side)]
    pub(crate) n: usize,
    /// Level k (1..=6): values above k are `+`; level 6 is the full problem.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub(crate) level: u8,
    /// The claim: no valid partial has penalty below this bound.
    #[arg(long)]
    pub(crate) below: usize,
}

/// Where certificates go and how they are made.
#[derive(clap::Args)]
pub(crate) struct StoreArgs {
    /// Root of the certificate tree.
    #[arg(long, default_value = "proofs")]
    pub(crate) proofs: PathBuf,
    #[arg(long, default_value_t = options::STORE_LIMIT.default, help = options::STORE_LIMIT.help, value_parser = within(options::STORE_LIMIT))]
    pub(crate) store_limit: u64,
    /// When drat-trim or rate (those on PATH) also check a new proof; the LRAT checker checks every one.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) external_check: ExternalCheck,
    /// Solve only the symmetry-broken formula instead of racing it against the plain one.
    #[arg(long)]
    pub(crate) no_race: bool,
    /// Cardinality encoding of the penalty bound.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) cardinality: Cardinality,
    /// When a bounded query is split into symmetry-reduced cubes (solved on
    /// --jobs cores, resumable by cube, merged into a cube claim).
    #[arg(long, value_enum, default_value_t)]
    pub(crate) cubes: CubeUse,
    #[arg(long, default_value_t = options::JOBS.default, help = options::JOBS.help, value_parser = within(options::JOBS))]
    pub(crate) jobs: usize,
    #[arg(long, default_value_t = options::CUBES_AFTER.default, help = options::CUBES_AFTER.help, value_parser = within(options::CUBES_AFTER))]
    pub(crate) cubes_after: f64,
}

impl StoreArgs {
    pub(crate) fn settings(&self, context: &RunContext) -> Settings {
        let mut settings = Settings::new(self.proofs.clone());
        settings.store_limit = self.store_limit;
        settings.race = !self.no_race;
        settings.external_check = self.external_check.into();
        settings.cardinality = self.cardinality.into();
        settings.cubes = self.cubes.into();
        settings.jobs = self.jobs;
        settings.cubes_after = self.cubes_after;
        settings.abort = context.stop_flag().clone();
        settings
    }
}

/// Makes Ctrl-C raise the run's stop flag: solvers stop, sweeps stop between
/// layers, work directories are removed on the way out (exit 130). A second
/// Ctrl-C ends the process at once, for a stop that takes too long.
/// ctrlc takes one handler per process: `main` calls this once, and a
/// failure is an error, not a flag that nothing raises.
pub(crate) fn stop_on_ctrl_c(context: &RunContext) -> Result<(), HexError> {
    let context = context.clone();
    ctrlc::set_handler(move || {
        if context.stop() {
            std::process::exit(i32::from(hexcert::outcome::exit_code(Err(&HexError::Interrupted))));
        }
    })
    .map_err(|e| HexError::Internal(format!("cannot catch Ctrl-C: {e}")))
}

/// `7`, `3..=11`, `3-11` (inclusive) or `3..11` (exclusive, as in Rust).
pub(crate) fn side_range(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = if let Some((a, b)) = s.split_once("..=") {
        (side(a)?, side(b)?)
    } else if let Some((a, b)) = s.split_once("..") {
        let b = side(b)?;
        (side(a)?, b.checked_sub(1).ok_or("empty range")?)
    } else if let Some((a, b)) = s.split_once('-') {
        (side(a)?, side(b)?)
    } else {
        let n = side(s)?;
        (n, n)
    };
    if a > b {
        return Err(format!("empty range `{s}`"));
    }
    Ok((a, b))
}
