//! The `hexcert` command line: parses arguments and calls the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use hexcert::counting::Layers;
use hexcert::encoding::{Cardinality, EncodeOptions, SymmetryBreaking};
use hexcert::error::HexError;
use hexcert::geometry::Hexagon;
use hexcert::certification::Settings;
use hexcert::options;

mod commands;
mod progress;

#[derive(Parser)]
#[command(name = "hexcert", version, about = "Certified minimum penalties and exact counts for Hexagonal Neighbors")]
struct Cli {
    /// Print one JSON document on stdout instead of text.
    #[arg(long, global = true)]
    json: bool,
    /// No progress display on stderr.
    #[arg(long, short, global = true)]
    quiet: bool,
    /// One stderr line per solver call (with its answer and time), for logs.
    #[arg(long, short, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

/// Side of the hexagon, 1..=40.
fn side(s: &str) -> Result<usize, String> {
    let n: usize = s.parse().map_err(|_| format!("`{s}` is not a hexagon side"))?;
    Hexagon::new(n).map(|_| n).map_err(|e| e.to_string())
}

#[derive(Subcommand)]
enum Command {
    /// Validate a grid or partial file; exit 0 only when it is valid.
    Verify {
        file: PathBuf,
        /// Read the grid at this (lower) level: values above it become `+`.
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
        level: Option<u8>,
        /// Reject the file unless its side is this.
        #[arg(long, value_parser = side)]
        n: Option<usize>,
    },
    /// Write the DIMACS CNF of "valid level-k partial with penalty <= B".
    Encode {
        /// Side of the hexagon (1..=40).
        #[arg(long, value_parser = side)]
        n: usize,
        /// Level k (1..=6): values above k are `+`; level 6 is the full problem.
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
        level: u8,
        /// Penalty bound B of the formula (penalty <= B).
        #[arg(long)]
        max_penalty: usize,
        /// Cardinality encoding of the penalty bound.
        #[arg(long, value_enum, default_value_t)]
        cardinality: Cardinality,
        /// Symmetry breaking that provably keeps a member of every symmetry class.
        #[arg(long, value_enum, default_value_t)]
        symmetry: SymmetryBreaking,
        /// Output file (default: stdout).
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Write the problem as a pseudo-Boolean (OPB) statement for VeriPB: it
    /// has a solution iff some valid level-k partial has penalty below B
    /// (docs/STATEMENT.md explains each constraint).
    Statement {
        #[command(flatten)]
        claim: StatementArgs,
        /// Output file (default: stdout).
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Also write a VeriPB proof (format 3.0) that derives, from the
        /// statement, the CNF `prove` solves for this claim without symmetry
        /// breaking (sequential-counter bound); needs --below 1 or more.
        #[arg(long, requires = "target")]
        derivation: Option<PathBuf>,
        /// The CNF the derivation reaches, as OPB (DIMACS variable i is named
        /// x<i>): check with `veripb STATEMENT DERIVATION TARGET`.
        #[arg(long, requires = "derivation")]
        target: Option<PathBuf>,
        /// Symmetry breaking of the derived CNF (ring1-lex-leader is what
        /// `prove` keeps the proof of; it is derived by VeriPB's dominance rule).
        #[arg(long, value_enum, default_value_t)]
        symmetry: SymmetryBreaking,
        /// Derive instead the split formula of this cube plan (`cubes plan`):
        /// the plain CNF, one selector per kept cube, "some selector holds";
        /// the plan's orbit reduction by dominance and its cover by a
        /// decision tree (docs/SOUNDNESS.md, section 7).
        #[arg(long, requires = "derivation", conflicts_with = "symmetry")]
        plan: Option<PathBuf>,
        /// Run VeriPB on the three files. Exit code: 0 accepted (`s VERIFIED
        /// OUTPUT DERIVABLE`), 1 rejected, 4 VeriPB not on PATH (unverified).
        #[arg(long, requires_all = ["derivation", "output"])]
        check: bool,
    },
    /// Find a valid level-k partial (with penalty <= B when given).
    Solve {
        /// Side of the hexagon (1..=40).
        #[arg(long, value_parser = side)]
        n: usize,
        /// Level k (1..=6): values above k are `+`; level 6 is the full problem.
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
        level: u8,
        /// Penalty bound B of the formula (penalty <= B).
        #[arg(long)]
        max_penalty: Option<usize>,
        /// Cardinality encoding of the penalty bound.
        #[arg(long, value_enum, default_value_t)]
        cardinality: Cardinality,
        /// Also write the partial to this file.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Prove "no valid level-k partial has penalty below B": the solver's LRAT proof is checked as it is written; its DRAT twin and the claim go to the certificate tree.
    Prove {
        #[command(flatten)]
        claim: StatementArgs,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Find, prove and check the optimum for each n; certificates go to the proofs directory.
    Certify {
        /// A side or an inclusive range: 7, 3..=11, 3-11.
        #[arg(long, value_parser = side_range)]
        n: (usize, usize),
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Re-check certificates (default: everything under proofs/); each record
    /// is reported `verified`, `failed` or `unverified`.
    ///
    /// A claim is verified only when its proof was checked in this run; a
    /// claim whose proof is not stored is unverified unless --regenerate
    /// re-solves it. A claim that records a statement -> CNF derivation is
    /// verified only when VeriPB accepted it in this run too (unverified
    /// when VeriPB is not on PATH). An optimum is verified only when its witness validates
    /// and its lower-bound claim (always checked with it) was verified.
    ///
    /// Exit code: 0 every record verified; 1 some record failed; 4 none
    /// failed but some are unverified; 2 bad arguments.
    Check {
        /// Record files, or directories searched for claim.json and optimum.json.
        paths: Vec<PathBuf>,
        /// Rebuild proofs that are not stored (re-solves; deterministic) and check them.
        #[arg(long)]
        regenerate: bool,
        /// Require a VeriPB verdict of every claim: claims that record no
        /// statement -> CNF derivation get one derived and checked now, and a
        /// claim no derivation covers yet (cube claims) is unverified. (A
        /// claim that records a derivation has it checked in every run.)
        #[arg(long)]
        veripb: bool,
        /// With --veripb: write this run's VeriPB verdict, the statement and
        /// derivation hashes and the shorter trust base into each claim.json
        /// (atomically; only when VeriPB accepted and the claim did not fail;
        /// cube claims are recorded as not covered). Needs VeriPB on PATH.
        #[arg(long, requires = "veripb")]
        record: bool,
    },
    /// Count valid level-k partials exactly: at the minimum penalty (default),
    /// at one penalty, or every penalty up to a bound.
    Count {
        /// Side of the hexagon (1..=40).
        #[arg(long, value_parser = side)]
        n: usize,
        /// Level k (1..=6): values above k are `+`; level 6 is the full problem.
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
        level: u8,
        /// Count the partials of exactly this penalty.
        #[arg(long, conflicts_with = "max_penalty")]
        penalty: Option<usize>,
        /// Print the count of every penalty 0..=B.
        #[arg(long)]
        max_penalty: Option<usize>,
        /// How to count: `sweep` (the frontier sweep), `sat` (the solver lists the
        /// ring-1 lex-leaders, each validated, and the 12 symmetries close them;
        /// needs --penalty or --max-penalty; for small counts) or `refine` (level 4
        /// at its minimum: each level-3 partial refined by a search of its own).
        #[arg(long, value_enum, default_value = "sweep")]
        road: commands::Road,
        #[command(flatten)]
        counting: CountingArgs,
    },
    /// Print the minimum-penalty or solution-count table as Markdown (or JSON).
    Table {
        /// Which table: `counts` (solutions at the minimum) or `penalties` (minimum per level).
        #[arg(value_enum)]
        kind: commands::TableKind,
        /// A side or an inclusive range: 3..=8.
        #[arg(long, value_parser = side_range)]
        n: (usize, usize),
        #[command(flatten)]
        counting: CountingArgs,
    },
    /// Draw a grid or partial as an SVG picture (penalty edges marked).
    Render {
        file: PathBuf,
        /// Output SVG file.
        #[arg(long, short)]
        output: PathBuf,
        /// Draw the grid at this (lower) level: values above it become grey `+` cells.
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
        level: Option<u8>,
    },
    /// Split one claim into cubes (plan), solve them (run), anywhere and in any order.
    Cubes {
        #[command(subcommand)]
        action: CubesCommand,
    },
    /// Minimum penalty at levels 1..=K, each shown minimal by an UNSAT call or
    /// by the bound of a lower level.
    Optimize {
        /// Side of the hexagon (1..=40).
        #[arg(long, value_parser = side)]
        n: usize,
        /// Level k (1..=6): values above k are `+`; level 6 is the full problem.
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6), default_value_t = 6)]
        level: u8,
        /// Cardinality encoding of the penalty bound.
        #[arg(long, value_enum, default_value_t)]
        cardinality: Cardinality,
        /// Write the witness of the top level to this file.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum CubesCommand {
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
        /// Cardinality encoding of the penalty bound.
        #[arg(long, value_enum, default_value_t)]
        cardinality: Cardinality,
        /// The plan file to write; its job list goes beside it as PLAN.jobs.
        #[arg(long, short)]
        output: PathBuf,
        /// Results directory the job list's commands write to.
        #[arg(long, default_value = "cube-results")]
        results: PathBuf,
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
        #[arg(long, conflicts_with = "all", required_unless_present = "all")]
        index: Option<usize>,
        /// Solve every cube that has no record yet.
        #[arg(long)]
        all: bool,
        #[arg(long, default_value_t = options::JOBS.default, help = options::JOBS.help, value_parser = within(options::JOBS))]
        jobs: usize,
        /// Directory of result records (shared by every run of the plan).
        #[arg(long, default_value = "cube-results")]
        results: PathBuf,
        /// Stop a cube after this many seconds and record it as unfinished
        /// (`cubes refine` then splits it); --all skips cubes already
        /// unfinished under at least this limit.
        #[arg(long, value_parser = positive_seconds)]
        time_limit: Option<f64>,
        #[arg(long, default_value_t = options::CUBE_STORE_LIMIT.default, help = options::CUBE_STORE_LIMIT.help, value_parser = within(options::CUBE_STORE_LIMIT))]
        store_limit: u64,
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
        /// Directory of result records.
        #[arg(long, default_value = "cube-results")]
        results: PathBuf,
        /// The refined plan to write; its job list goes beside it as OUTPUT.jobs.
        #[arg(long, short)]
        output: PathBuf,
        /// How the job list's commands call hexcert (a path, or a name on PATH).
        #[arg(long, default_value = "hexcert")]
        hexcert: String,
        /// How to split: `value` (the split cells one value deeper) or
        /// `prefix` (a decision tree on the variables CaDiCaL learns about
        /// most in short prefix runs; the tree's leaves become cubes).
        #[arg(long, value_enum, default_value = "value")]
        strategy: commands::Strategy,
        #[arg(long, default_value_t = options::PREFIX_CONFLICTS.default, help = options::PREFIX_CONFLICTS.help, value_parser = within(options::PREFIX_CONFLICTS))]
        prefix_conflicts: i32,
        #[arg(long, default_value_t = options::TREE_DEPTH.default, help = options::TREE_DEPTH.help, value_parser = within(options::TREE_DEPTH))]
        tree_depth: u64,
    },
    /// Check a finished plan (its cover and every cube's record, stored
    /// proofs re-checked) and write its claim.json, which `hexcert check`
    /// verifies like any other claim.
    Merge {
        /// The plan file.
        plan: PathBuf,
        /// Directory of result records.
        #[arg(long, default_value = "cube-results")]
        results: PathBuf,
        /// Certificate root: the claim goes to PROOFS/nN/levelK-belowB/claim.json.
        #[arg(long, default_value = "proofs")]
        proofs: PathBuf,
    },
    /// Check a plan's cover and every cube record in the results directory;
    /// report what is done, what remains, and the time distribution.
    ///
    /// Exit code: 0 every cube refuted with a checked record; 1 a record
    /// failed a check or holds a counterexample; 4 cubes still unsolved.
    Status {
        /// The plan file.
        plan: PathBuf,
        /// Directory of result records.
        #[arg(long, default_value = "cube-results")]
        results: PathBuf,
        #[arg(long, default_value_t = options::MACHINES.default, help = options::MACHINES.help, value_parser = within(options::MACHINES))]
        machines: usize,
    },
}

/// The value parser of an entry of the options table: its range, one-line errors.
fn within<T>(option: options::Opt<T>) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: PartialOrd + Copy + std::fmt::Display + std::str::FromStr + Send + Sync + 'static,
{
    move |text| option.parse(text)
}

fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err(format!("`{text}` is not a positive number of seconds")),
    }
}

/// How the counting commands hold their layers and where their tables start.
#[derive(clap::Args, Debug)]
struct CountingArgs {
    #[arg(long, default_value_t = options::MEMORY_LIMIT.default, help = options::MEMORY_LIMIT.help, value_parser = within(options::MEMORY_LIMIT))]
    memory_limit: u64,
    /// Penalty bound the cost-to-finish tables are first built for. Counts and
    /// minima do not depend on it (a table built at or above a level's minimum
    /// finds it exactly; below, the bound is raised one step at a time, rebuilding
    /// the tables each time); a value at the top level's minimum (e.g. from a
    /// certified optimum.json) builds each table once. With a range of sides,
    /// every side starts there.
    #[arg(long, default_value_t = 0, conflicts_with = "start_from")]
    start_bound: usize,
    /// Take the start bound of side N from DIR/nN/optimum.json (its level minimum
    /// at the top level counted, at most 4), when that file exists; 0 otherwise.
    /// Only a hint: counts and minima are the tables' own.
    #[arg(long, value_name = "DIR")]
    start_from: Option<PathBuf>,
    /// Directory for finished cost-to-finish tables, one file per side, level and
    /// bound (written atomically, checked by hash when read): a rerun loads them
    /// instead of rebuilding, so a long count stopped by Ctrl-C resumes there.
    #[arg(long)]
    checkpoints: Option<PathBuf>,
}

impl CountingArgs {
    /// The settings for side `n` counted up to `level`.
    fn settings(&self, n: usize, level: u8) -> Result<hexcert::counting::Settings, HexError> {
        let hinted = match self.start_from.as_deref() {
            Some(dir) => hexcert::counting::start_hint(dir, n, level.min(4))?,
            None => None,
        };
        Ok(hexcert::counting::Settings {
            layers: Layers::Sorted { memory_limit: self.memory_limit },
            start: hinted.unwrap_or(self.start_bound),
            checkpoints: self.checkpoints.clone(),
            stop: interrupt_flag(),
            loaded: Default::default(),
        })
    }
}

/// The statement "no valid level-k partial of the side-n hexagon has penalty below B".
#[derive(clap::Args)]
struct StatementArgs {
    /// Side of the hexagon (1..=40).
    #[arg(long, value_parser = side)]
    n: usize,
    /// Level k (1..=6): values above k are `+`; level 6 is the full problem.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
    level: u8,
    /// The claim: no valid partial has penalty below this bound.
    #[arg(long)]
    below: usize,
}

/// Where certificates go and how they are made.
#[derive(clap::Args)]
struct StoreArgs {
    /// Root of the certificate tree.
    #[arg(long, default_value = "proofs")]
    proofs: PathBuf,
    #[arg(long, default_value_t = options::STORE_LIMIT.default, help = options::STORE_LIMIT.help, value_parser = within(options::STORE_LIMIT))]
    store_limit: u64,
    /// When drat-trim or rate (those on PATH) also check a new proof; the LRAT checker checks every one.
    #[arg(long, value_enum, default_value_t)]
    external_check: hexcert::certification::ExternalCheck,
    /// Solve only the symmetry-broken formula instead of racing it against the plain one.
    #[arg(long)]
    no_race: bool,
    /// Cardinality encoding of the penalty bound.
    #[arg(long, value_enum, default_value_t)]
    cardinality: Cardinality,
    /// When a bounded query is split into symmetry-reduced cubes (solved on
    /// --jobs cores, resumable by cube, merged into a cube claim).
    #[arg(long, value_enum, default_value_t)]
    cubes: hexcert::certification::CubeUse,
    #[arg(long, default_value_t = options::JOBS.default, help = options::JOBS.help, value_parser = within(options::JOBS))]
    jobs: usize,
    #[arg(long, default_value_t = options::CUBES_AFTER.default, help = options::CUBES_AFTER.help, value_parser = within(options::CUBES_AFTER))]
    cubes_after: f64,
}

impl StoreArgs {
    fn settings(&self) -> Settings {
        let mut settings = Settings::new(self.proofs.clone());
        settings.store_limit = self.store_limit;
        settings.race = !self.no_race;
        settings.external_check = self.external_check;
        settings.cardinality = self.cardinality;
        settings.cubes = self.cubes;
        settings.jobs = self.jobs;
        settings.cubes_after = self.cubes_after;
        settings.abort = interrupt_flag();
        settings
    }
}

/// A flag Ctrl-C sets: solvers stop, work directories are removed on the way out.
fn interrupt_flag() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    let abort = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = abort.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::Relaxed));
    abort
}

/// `7`, `3..=11`, `3-11` (inclusive) or `3..11` (exclusive, as in Rust).
fn side_range(s: &str) -> Result<(usize, usize), String> {
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

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`hexcert table ... | head`), like other Unix tools.
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let cli = Cli::parse();
    let result = run(&cli);
    let code = hexcert::outcome::exit_code(result.as_ref().copied());
    if let Err(err) = result {
        eprintln!("hexcert: {err}");
        // With --json the error is also the command's one document, so a
        // script reading stdout sees why there is no report.
        if cli.json {
            println!("{}", serde_json::json!({"error": err.to_string(), "exit_code": code}));
        }
    }
    ExitCode::from(code)
}

fn run(cli: &Cli) -> Result<hexcert::outcome::Outcome, HexError> {
    match &cli.command {
        Command::Verify { file, level, n } => commands::verify(cli.json, file, *level, *n),
        Command::Encode { n, level, max_penalty, cardinality, symmetry, output } => {
            let options = EncodeOptions { max_penalty: Some(*max_penalty), cardinality: *cardinality, symmetry: *symmetry };
            commands::encode(cli.json, *n, *level, options, output.as_deref())
        }
        Command::Statement { claim, output, derivation, target, symmetry, plan, check } => {
            let plan = plan.as_deref().map(hexcert::cubes::Plan::read).transpose()?;
            let reach = match &plan {
                Some(plan) => hexcert::derivation::Reach::Split(plan),
                None => hexcert::derivation::Reach::Formula(*symmetry),
            };
            let proof = derivation.as_deref().zip(target.as_deref()).map(|(d, t)| (d, t, reach));
            commands::statement(cli.json, claim.n, claim.level, claim.below, output.as_deref(), proof, *check)
        }
        Command::Solve { n, level, max_penalty, cardinality, output } => {
            let options = EncodeOptions { max_penalty: *max_penalty, cardinality: *cardinality, symmetry: SymmetryBreaking::None };
            commands::solve(cli.json, *n, *level, options, output.as_deref())
        }
        Command::Prove { claim, store } => commands::prove(cli.json, cli.quiet, claim.n, claim.level, claim.below, &store.settings()),
        Command::Certify { n, store } => commands::certify(cli.json, cli.quiet, cli.verbose, *n, &store.settings()),
        Command::Check { paths, regenerate, veripb, record } => commands::check(cli.json, paths, *regenerate, *veripb, *record),
        Command::Count { n, level, penalty, max_penalty, counting, road: commands::Road::Sweep } => {
            hexcert::counting::set_verbose(cli.verbose);
            commands::count(cli.json, cli.quiet, *n, *level, *penalty, *max_penalty, &counting.settings(*n, *level)?)
        }
        Command::Count { n, level, penalty, max_penalty, counting, road: commands::Road::Refine } => {
            hexcert::counting::set_verbose(cli.verbose);
            commands::count_refine(cli.json, cli.quiet, (*n, *level), penalty.or(*max_penalty), &counting.settings(*n, 3)?)
        }
        Command::Count { n, level, penalty, max_penalty, road: commands::Road::Sat, .. } => {
            commands::count_sat(cli.json, cli.quiet, *n, *level, *penalty, *max_penalty)
        }
        Command::Table { kind, n, counting } => {
            hexcert::counting::set_verbose(cli.verbose);
            commands::table(cli.json, cli.quiet, *kind, *n, &|n| counting.settings(n, 6))
        }
        Command::Render { file, output, level } => commands::render(cli.json, file, output, *level),
        Command::Cubes { action: CubesCommand::Plan { claim, radius, depth, cardinality, output, results, hexcert } } => {
            let plan = hexcert::cubes::Plan::new(claim.n, claim.level, claim.below, *radius, *depth, *cardinality)?;
            commands::cubes_plan(cli.json, &plan, output, results, hexcert)
        }
        Command::Cubes { action: CubesCommand::Run { plan, index, all: _, jobs, results, time_limit, store_limit } } => {
            let limits = hexcert::certification::cubes::RunLimits { time_limit: *time_limit, store_limit: *store_limit };
            commands::cubes_run(cli.json, cli.quiet, plan, *index, *jobs, results, limits, interrupt_flag())
        }
        Command::Cubes { action: CubesCommand::Refine { plan, cubes, results, output, hexcert, strategy, prefix_conflicts, tree_depth } } => {
            let prefix = hexcert::solving::prefix::PrefixSettings { conflicts: *prefix_conflicts, depth: *tree_depth as usize };
            commands::cubes_refine(cli.json, plan, cubes, results, output, hexcert, *strategy, prefix)
        }
        Command::Cubes { action: CubesCommand::Merge { plan, results, proofs } } => commands::cubes_merge(cli.json, plan, results, proofs),
        Command::Cubes { action: CubesCommand::Status { plan, results, machines } } => commands::cubes_status(cli.json, plan, results, *machines),
        Command::Optimize { n, level, cardinality, output } => {
            commands::optimize(cli.json, cli.quiet, cli.verbose, *n, *level, *cardinality, output.as_deref())
        }
    }
}

