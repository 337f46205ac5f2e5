//! The `hexcert` command line: parses arguments, runs the command, and
//! prints its report (or its error) once, as text or as one JSON document.

use std::{path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};
use hexcert::context::RunContext;
use hexcert::encoding::EncodeOptions;
use hexcert::error::HexError;
use hexcert::options;

// VeriPB checks the statement -> CNF step in this process; on the system
// allocator it ran 1.5x slower than its own binary, which uses this one.
#[cfg(feature = "veripb")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// Without the solver (cargo feature `solver`) the arguments, choices and
// progress lines of the commands that solve are left unused.
#[cfg_attr(not(feature = "solver"), allow(unused_imports, dead_code))]
mod args;
#[cfg_attr(not(feature = "solver"), allow(dead_code))]
mod choices;
mod commands;
mod count_args;
#[cfg(feature = "solver")]
mod cubes_args;
#[cfg_attr(not(feature = "solver"), allow(dead_code))]
mod progress;
#[cfg(feature = "solver")]
mod search_args;

use args::*;
use choices::*;
use count_args::{CountArgs, RecountArgs, TableArgs};
#[cfg(feature = "solver")]
use cubes_args::CubesCommand;

#[derive(Parser)]
#[command(name = "hexcert", version, about = "Certified minimum penalties and exact counts for Hexagonal Neighbors")]
struct Cli {
    /// Print one JSON document on stdout instead of text.
    #[arg(long, global = true)]
    json: bool,
    /// No progress display on stderr.
    #[arg(long, short, global = true)]
    quiet: bool,
    /// For logs: one stderr line per solver call (with its answer and time)
    /// in certify and optimize, per counting table built or loaded in count
    /// and table, per leaf of a cube listed leaf by leaf (count
    /// --leaf-depth); the other commands have no such lines to add.
    #[arg(long, short, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

/// Side of the hexagon, 1..=40.
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
        /// breaking (the default counter, in wedge order); needs --below 1 or
        /// more.
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
        /// OUTPUT DERIVABLE`), 1 rejected, 4 no VeriPB in this run (unverified).
        #[arg(long, requires_all = ["derivation", "output"])]
        check: bool,
        #[command(flatten)]
        veripb: VeripbArgs,
    },
    #[cfg(feature = "solver")]
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
    #[cfg(feature = "solver")]
    /// Find good full grids by a portfolio of restricted searches (penalties
    /// near the boundary, 1-cells placed near the centre): a heuristic for
    /// finding grids, never a proof; every grid passes the plain validator.
    Search {
        #[command(flatten)]
        args: search_args::SearchArgs,
    },
    #[cfg(feature = "solver")]
    /// Prove "no valid level-k partial has penalty below B": the solver's LRAT proof is checked as it is written; its DRAT twin and the claim go to the certificate tree.
    Prove {
        #[command(flatten)]
        claim: StatementArgs,
        #[command(flatten)]
        store: StoreArgs,
        #[command(flatten)]
        veripb: VeripbArgs,
    },
    #[cfg(feature = "solver")]
    /// Find, prove and check the optimum for each n; certificates go to the proofs directory.
    Certify {
        /// A side or an inclusive range: 7, 3..=11, 3-11.
        #[arg(long, value_parser = side_range)]
        n: (usize, usize),
        /// Search nothing: write the optimum of one side from this grid file (either format), which the plain validator must accept with penalty exactly the bound of a claim already under --proofs; the claims are checked as `check` does, never solved again, and the record names the file it rests on
        #[arg(long, value_name = "GRID")]
        witness: Option<PathBuf>,
        #[command(flatten)]
        store: StoreArgs,
        #[command(flatten)]
        veripb: VeripbArgs,
    },
    /// Re-check certificates (default: everything under proofs/); each record
    /// is reported `verified`, `failed` or `unverified`.
    ///
    /// A claim is verified only when its proof was checked in this run; a
    /// claim whose proof is not stored is unverified unless --regenerate
    /// re-solves it. A claim that records a statement -> CNF derivation is
    /// verified only when VeriPB accepted it in this run too (unverified
    /// when this run has no VeriPB: none on PATH, and a build without the
    /// VeriPB library). An optimum is verified only when its witness validates
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
        /// cube claims are recorded as not covered). Needs VeriPB.
        #[arg(long, requires = "veripb")]
        record: bool,
        #[command(flatten)]
        verified: VerifiedArgs,
        /// With a verified checker: write each cube's verdict into its
        /// claim.json (a count's: into its cube record) as it is reached
        /// (atomically), and skip the cubes that already hold this checker
        /// binary's acceptance, so a long `--regenerate` re-check or
        /// relisting resumes per cube. Skipped cubes were checked by an
        /// earlier run, so such a run reports the claim or count unverified
        /// (exit 4); the run that checks every cube itself, verified.
        #[arg(long, conflicts_with = "record")]
        keep_verdicts: bool,
        /// With --regenerate: spread a cube claim's re-check over runs. Each
        /// cube re-solved and matched is kept as a record in `reproduced/`
        /// beside its claim.json (with the verified checker's verdict when
        /// there is one), and only the cubes no record holds are re-solved;
        /// the run that finds every cube reproduced says so and names the
        /// runs that did which cubes. Cubes reproduced by earlier runs were
        /// not checked in this one, so such a run reports the claim
        /// unverified (exit 4); one that re-solved every cube, verified.
        #[arg(long, requires = "regenerate", conflicts_with = "keep_verdicts")]
        across_runs: bool,
        #[arg(long, default_value_t = options::CHECK_JOBS.default, help = options::CHECK_JOBS.help, value_parser = within(options::CHECK_JOBS), requires = "regenerate")]
        jobs: usize,
        #[command(flatten)]
        program: VeripbArgs,
    },
    #[cfg(feature = "solver")]
    /// Write a claim's (or one cube's) exact CNF with its LRAT and DRAT
    /// proofs, for any checker: re-solved, checked by hexcert-lrat as it is
    /// written, and refused (nothing written) unless the CNF and the DRAT
    /// proof hash to the record. A new directory with formula.cnf,
    /// proof.lrat, proof.drat, SHA256SUMS and manifest.json (docs/RECORDS.md).
    Export {
        /// The claim: its claim.json, or the directory holding it.
        claim: PathBuf,
        /// For a cube claim: the index of the cube to export (its plan's order).
        #[arg(long)]
        cube: Option<usize>,
        /// The directory to write (must not exist yet).
        #[arg(long)]
        out: PathBuf,
    },
    /// Count valid level-k partials exactly: at the minimum penalty (default),
    /// at one penalty, or every penalty up to a bound.
    Count(CountArgs),
    /// Recount a lifted cell's classes by an external exact model counter into recount.json; `check` compares them.
    Recount(RecountArgs),
    /// Print the minimum-penalty or solution-count table as Markdown (or JSON),
    /// computed; or, with `results`, the results as the records state them.
    Table(TableArgs),
    /// A lower bound on the level-k penalty: the outer rings' least owned penalty, found exactly (no solver).
    Bound(commands::BoundArgs),
    /// Draw a grid or partial as an SVG picture (penalty edges marked), or,
    /// with --gallery, every certified optimum and best grid into one page.
    Render {
        /// The grid or partial file to draw.
        #[arg(required_unless_present = "gallery")]
        file: Option<PathBuf>,
        /// Output SVG file.
        #[arg(long, short, required_unless_present = "gallery")]
        output: Option<PathBuf>,
        /// Draw the grid at this (lower) level: values above it become grey `+` cells.
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
        level: Option<u8>,
        /// Write the gallery page here (docs/GALLERY.md), its pictures in
        /// `gallery/` beside it: every optimum under --proofs and every best
        /// grid under --grids, each with its penalty and its status computed
        /// from the records (certified optimum, or best known grid).
        #[arg(long, value_name = "PAGE", conflicts_with_all = ["file", "output", "level"])]
        gallery: Option<PathBuf>,
        /// With --gallery: the certificate tree holding nN/optimum.json.
        #[arg(long, default_value = "proofs", requires = "gallery")]
        proofs: PathBuf,
        /// With --gallery: the folder of best grids, nN-pP.txt.
        #[arg(long, default_value = "grids", requires = "gallery")]
        grids: PathBuf,
    },
    #[cfg(feature = "solver")]
    /// Split one claim into cubes (plan), solve them (run), anywhere and in any order.
    Cubes {
        #[command(subcommand)]
        action: CubesCommand,
    },
    #[cfg(feature = "solver")]
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

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`hexcert table ... | head`), like other Unix tools.
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    // A file-size limit (`ulimit -f`, a batch system's) is no room like a full disk: ignored, the
    // write fails with EFBIG, which ends the run with one line (exit 2), not a silent death by signal.
    // SAFETY: as above, before any thread starts. Children inherit it: their writes fail, they do not die.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    let cli = Cli::parse();
    ExitCode::from(commands::report::print(run(&cli), cli.json))
}

impl Command {
    /// The commands that poll the stop flag, so Ctrl-C stops them cleanly;
    /// the others keep Ctrl-C's default (the process ends at once; their
    /// outputs are written to a temporary name and renamed, so nothing is
    /// left half-written).
    fn stops_on_ctrl_c(&self) -> bool {
        match self {
            Command::Table(_) => true,
            #[cfg(feature = "solver")]
            Command::Solve { .. }
            | Command::Optimize { .. }
            | Command::Prove { .. }
            | Command::Certify { .. }
            | Command::Search { .. }
            | Command::Export { .. } => true,
            #[cfg(feature = "solver")]
            Command::Cubes { action: CubesCommand::Run { .. } } => true,
            Command::Check { regenerate, .. } => *regenerate,
            Command::Count(count) => count.stops_on_ctrl_c(),
            _ => false,
        }
    }

    /// The VeriPB choice of the commands that run VeriPB.
    fn veripb(&self) -> Option<&VeripbArgs> {
        match self {
            Command::Statement { veripb, .. } => Some(veripb),
            Command::Check { program, .. } => Some(program),
            #[cfg(feature = "solver")]
            Command::Prove { veripb, .. } | Command::Certify { veripb, .. } => Some(veripb),
            #[cfg(feature = "solver")]
            Command::Cubes { action: CubesCommand::Merge { veripb, .. } | CubesCommand::Status { veripb, .. } } => {
                Some(veripb)
            }
            _ => None,
        }
    }
}

fn run(cli: &Cli) -> Result<commands::report::Reported, HexError> {
    // The one context of the process; the progress display is off with
    // --json too: stderr stays for errors.
    let context = RunContext::new(cli.verbose, !(cli.quiet || cli.json));
    if let Some(veripb) = cli.command.veripb() {
        veripb.choose()?;
    }
    if cli.command.stops_on_ctrl_c() {
        stop_on_ctrl_c(&context)?;
    }
    let context = &context;
    match &cli.command {
        Command::Verify { file, level, n } => commands::verify(file, *level, *n),
        Command::Encode { n, level, max_penalty, cardinality, symmetry, output } => {
            let options = EncodeOptions {
                max_penalty: Some(*max_penalty),
                cardinality: (*cardinality).into(),
                symmetry: (*symmetry).into(),
            };
            commands::encode(cli.json, *n, *level, options, output.as_deref())
        }
        Command::Statement { claim, output, derivation, target, symmetry, plan, check, .. } => {
            // The derivation rests on the plan's cover: checked before any file is written.
            let plan = plan.as_deref().map(hexcert::cubes::Plan::read_covering).transpose()?;
            let reach = reach(plan.as_ref(), *symmetry);
            let proof = derivation.as_deref().zip(target.as_deref()).map(|(d, t)| (d, t, reach));
            commands::statement(cli.json, (claim.n, claim.level, claim.below), output.as_deref(), proof, *check)
        }
        #[cfg(feature = "solver")]
        Command::Solve { n, level, max_penalty, cardinality, output } => {
            let symmetry = hexcert::encoding::SymmetryBreaking::None;
            let options = EncodeOptions { max_penalty: *max_penalty, cardinality: (*cardinality).into(), symmetry };
            commands::solve(context, *n, *level, options, output.as_deref())
        }
        #[cfg(feature = "solver")]
        Command::Search { args } => match &args.explain {
            Some(grid) => commands::explain_grid(&args.spec(), grid),
            None => commands::search(context, &args.spec(), args.output.as_deref(), args.ledger.as_deref()),
        },
        #[cfg(feature = "solver")]
        Command::Prove { claim, store, .. } => {
            commands::prove(context, claim.n, claim.level, claim.below, &store.settings(context))
        }
        #[cfg(feature = "solver")]
        Command::Certify { n, witness: Some(grid), store, .. } => {
            commands::certify_witness(*n, grid, &store.settings(context))
        }
        #[cfg(feature = "solver")]
        Command::Certify { n, witness: None, store, .. } => {
            commands::certify(cli.json, context, *n, &store.settings(context))
        }
        Command::Check { paths, regenerate, veripb, record, verified, keep_verdicts, across_runs, jobs, .. } => {
            let options = check_options(context, (*veripb, *record), verified, (*keep_verdicts, *across_runs), *jobs)?;
            commands::check(context, paths, *regenerate, options)
        }
        #[cfg(feature = "solver")]
        Command::Export { claim, cube, out } => commands::export(context, claim, *cube, out),
        Command::Count(count) => count.run(context),
        Command::Recount(args) => args.run(),
        Command::Table(table) => table.run(cli.json, context),
        Command::Bound(bound) => bound.run(),
        Command::Render { gallery: Some(page), proofs, grids, .. } => commands::gallery(page, proofs, grids),
        Command::Render { file: Some(file), output: Some(output), level, .. } => commands::render(file, output, *level),
        Command::Render { .. } => unreachable!("clap requires a file and --output without --gallery"),
        #[cfg(feature = "solver")]
        Command::Cubes { action } => action.run(context),
        #[cfg(feature = "solver")]
        Command::Optimize { n, level, cardinality, output } => {
            commands::optimize(context, *n, *level, (*cardinality).into(), output.as_deref())
        }
    }
}
