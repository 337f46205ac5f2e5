//! The `hexcert` command line: parses arguments and calls the library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use hexcert::encoding::{Cardinality, EncodeOptions, LevelEncoding, SymmetryBreaking};
use hexcert::error::HexError;
use hexcert::formats::{read_grid_file, to_hexcert_text};
use hexcert::geometry::Hexagon;
use hexcert::solving::search::{minimize_through, solve_at_bound, LowerBoundProof, PlainOracle, Step};
use hexcert::certification::Settings;
use hexcert::validation::evaluate;

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
        #[arg(long, value_parser = side)]
        n: usize,
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
        level: u8,
        #[arg(long)]
        max_penalty: usize,
        #[arg(long, value_enum, default_value_t)]
        cardinality: Cardinality,
        /// Symmetry breaking that provably keeps a member of every symmetry class.
        #[arg(long, value_enum, default_value_t)]
        symmetry: SymmetryBreaking,
        /// Output file (default: stdout).
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Find a valid level-k partial (with penalty <= B when given).
    Solve {
        #[arg(long, value_parser = side)]
        n: usize,
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
        level: u8,
        #[arg(long)]
        max_penalty: Option<usize>,
        #[arg(long, value_enum, default_value_t)]
        cardinality: Cardinality,
        /// Also write the partial to this file.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Prove "no valid level-k partial has penalty below B" with a checked DRAT certificate.
    Prove {
        #[arg(long, value_parser = side)]
        n: usize,
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
        level: u8,
        #[arg(long)]
        below: usize,
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
    /// Re-check certificates (default: everything under proofs/).
    Check {
        paths: Vec<PathBuf>,
        /// Rebuild proofs that are not stored (re-solves; deterministic) and check them.
        #[arg(long)]
        regenerate: bool,
    },
    /// Count valid level-k partials exactly: at the minimum penalty (default),
    /// at one penalty, or every penalty up to a bound.
    Count {
        #[arg(long, value_parser = side)]
        n: usize,
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
        level: u8,
        /// Count the partials of exactly this penalty.
        #[arg(long, conflicts_with = "max_penalty")]
        penalty: Option<usize>,
        /// Print the count of every penalty 0..=B.
        #[arg(long)]
        max_penalty: Option<usize>,
    },
    /// Print the minimum-penalty or solution-count table as Markdown (or JSON).
    Table {
        #[arg(value_enum)]
        kind: commands::TableKind,
        /// A side or an inclusive range: 3..=8.
        #[arg(long, value_parser = side_range)]
        n: (usize, usize),
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
    /// Minimum penalty at levels 1..=K, each shown minimal by an UNSAT call or
    /// by the bound of a lower level.
    Optimize {
        #[arg(long, value_parser = side)]
        n: usize,
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6), default_value_t = 6)]
        level: u8,
        #[arg(long, value_enum, default_value_t)]
        cardinality: Cardinality,
        /// Write the witness of the top level to this file.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
}

/// Where certificates go and how they are made.
#[derive(clap::Args)]
struct StoreArgs {
    /// Root of the certificate tree.
    #[arg(long, default_value = "proofs")]
    proofs: PathBuf,
    /// Store proofs up to this many compressed bytes (CNF + proof); larger ones keep claim.json only.
    #[arg(long, default_value_t = hexcert::certification::DEFAULT_STORE_LIMIT)]
    store_limit: u64,
    /// Solve only the symmetry-broken formula instead of racing it against the plain one.
    #[arg(long)]
    no_race: bool,
    #[arg(long, value_enum, default_value_t)]
    cardinality: Cardinality,
}

impl StoreArgs {
    fn settings(&self) -> Settings {
        let mut settings = Settings::new(self.proofs.clone());
        settings.store_limit = self.store_limit;
        settings.race = !self.no_race;
        settings.cardinality = self.cardinality;
        let abort = settings.abort.clone();
        // Ctrl-C stops the solvers; work directories are removed on the way out.
        let _ = ctrlc::set_handler(move || abort.store(true, std::sync::atomic::Ordering::Relaxed));
        settings
    }
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
    match run(&cli) {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("hexcert: {err}");
            ExitCode::from(err.exit_code() as u8)
        }
    }
}

fn run(cli: &Cli) -> Result<u8, HexError> {
    match &cli.command {
        Command::Verify { file, level, n } => verify(cli, file, *level, *n),
        Command::Encode { n, level, max_penalty, cardinality, symmetry, output } => {
            if cli.json && output.is_none() {
                return Err(HexError::Usage("--json describes the formula on stdout: give the DIMACS file with -o".into()));
            }
            let hex = Hexagon::new(*n)?;
            let options = EncodeOptions { max_penalty: Some(*max_penalty), cardinality: *cardinality, symmetry: *symmetry };
            let cnf = LevelEncoding::new(&hex, *level, options).cnf;
            let dimacs = cnf.to_dimacs();
            emit(output.as_deref(), &dimacs)?;
            if cli.json {
                println!("{}", serde_json::json!({"n": n, "level": level, "max_penalty": max_penalty,
                    "cardinality": cardinality, "symmetry": symmetry, "variables": cnf.num_vars(),
                    "clauses": cnf.clauses().len(), "output": output, "sha256": hexcert::proofs::sha256_hex(&dimacs)}));
            }
            Ok(0)
        }
        Command::Solve { n, level, max_penalty, cardinality, output } => {
            let hex = Hexagon::new(*n)?;
            let options = EncodeOptions { max_penalty: *max_penalty, cardinality: *cardinality, symmetry: SymmetryBreaking::None };
            match solve_at_bound(&hex, *level, options)? {
                Some(found) => {
                    let text = to_hexcert_text(&found.partial);
                    if let Some(path) = output {
                        hexcert::files::write_atomic(path, text.as_bytes())?;
                    }
                    if cli.json {
                        let doc = serde_json::json!({"n": n, "level": level, "satisfiable": true,
                            "penalty": found.evaluation.penalty, "grid": text});
                        println!("{doc}");
                    } else {
                        print!("{text}");
                        println!("penalty {}", found.evaluation.penalty);
                    }
                    Ok(0)
                }
                None => {
                    if cli.json {
                        println!("{}", serde_json::json!({"n": n, "level": level, "satisfiable": false}));
                    } else {
                        println!("unsatisfiable: no valid level-{level} partial with penalty <= {}", max_penalty.unwrap_or(0));
                    }
                    Ok(1)
                }
            }
        }
        Command::Prove { n, level, below, store } => commands::prove(cli.json, cli.quiet, *n, *level, *below, &store.settings()),
        Command::Certify { n, store } => commands::certify(cli.json, cli.quiet, cli.verbose, *n, &store.settings()),
        Command::Check { paths, regenerate } => commands::check(cli.json, paths, *regenerate),
        Command::Count { n, level, penalty, max_penalty } => commands::count(cli.json, cli.quiet, *n, *level, *penalty, *max_penalty),
        Command::Table { kind, n } => commands::table(cli.json, cli.quiet, *kind, *n),
        Command::Render { file, output, level } => commands::render(cli.json, file, output, *level),
        Command::Optimize { n, level, cardinality, output } => optimize(cli, *n, *level, *cardinality, output.as_deref()),
    }
}

fn verify(cli: &Cli, file: &Path, level: Option<u8>, n: Option<usize>) -> Result<u8, HexError> {
    let grid = read_grid_file(file, n)?;
    let partial = commands::at_level(file, &grid.partial, level)?;
    let hex = Hexagon::new(partial.side())?;
    let evaluation = evaluate(&hex, &partial);
    let sum: u64 = grid.partial.values().iter().map(|&v| u64::from(v)).sum();
    let score_ok = grid.stated_score.is_none_or(|s| s == sum);
    let ok = evaluation.is_valid() && score_ok;
    if cli.json {
        let doc = serde_json::json!({
            "file": file, "n": partial.side(), "level": partial.level(), "valid": ok,
            "penalty": evaluation.penalty, "score": evaluation.score,
            "stated_sum": grid.stated_score, "sum": sum,
            "violations": evaluation.violations, "penalty_edges": evaluation.penalty_edges,
        });
        println!("{doc}");
    } else {
        for v in &evaluation.violations {
            println!("violation: cell ({}, {}) value {} does not see {:?}", v.row, v.column, show_value(v.value, partial.level()), v.missing);
        }
        if !score_ok {
            println!("stated score {} differs from the sum of values {sum}", grid.stated_score.unwrap_or(0));
        }
        let verdict = if ok { "valid" } else { "INVALID" };
        let score = evaluation.score.map_or(String::new(), |s| format!(" score {s}"));
        println!("{}: n={} level={} {verdict} penalty {}{score}", file.display(), partial.side(), partial.level(), evaluation.penalty);
    }
    Ok(if ok { 0 } else { 1 })
}

fn show_value(value: u8, level: u8) -> String {
    if value == level + 1 && level < 6 { "+".into() } else { value.to_string() }
}

fn optimize(cli: &Cli, n: usize, level: u8, cardinality: Cardinality, output: Option<&Path>) -> Result<u8, HexError> {
    let hex = Hexagon::new(n)?;
    let progress = progress::Progress::with_lines(cli.quiet || cli.json, cli.verbose);
    let mut on_step = |s: &Step| progress.step(n, s);
    let template = EncodeOptions { max_penalty: None, cardinality, symmetry: SymmetryBreaking::None };
    let minima = minimize_through(&hex, level, &mut PlainOracle { template }, &mut on_step)?;
    let top = minima.last().expect("at least level 1");
    if let Some(path) = output {
        hexcert::files::write_atomic(path, to_hexcert_text(&top.witness.partial).as_bytes())?;
    }
    if cli.json {
        let levels: Vec<_> = minima
            .iter()
            .map(|m| serde_json::json!({"level": m.level, "minimum": m.penalty, "proof": m.proof,
                "seconds": m.steps.iter().map(|s| s.seconds).sum::<f64>(), "steps": m.steps,
                "witness": to_hexcert_text(&m.witness.partial)}))
            .collect();
        println!("{}", serde_json::json!({"n": n, "levels": levels}));
        return Ok(0);
    }
    println!("n={n}");
    println!("| level | minimum | shown minimal by | seconds |");
    println!("|---|---|---|---|");
    for m in &minima {
        let why = match &m.proof {
            LowerBoundProof::UnsatAtLevel { level, max_penalty } => format!("level {level}, penalty <= {max_penalty} UNSAT"),
            LowerBoundProof::InheritedFromLevel { level } => format!("bound of level {level}"),
            LowerBoundProof::Zero => "penalty 0".into(),
        };
        let secs: f64 = m.steps.iter().map(|s| s.seconds).sum();
        println!("| {} | {} | {why} | {secs:.2} |", m.level, m.penalty);
    }
    print!("{}", to_hexcert_text(&top.witness.partial));
    Ok(0)
}

fn emit(output: Option<&Path>, bytes: &[u8]) -> Result<(), HexError> {
    match output {
        Some(path) => hexcert::files::write_atomic(path, bytes),
        None => {
            use std::io::Write;
            std::io::stdout().write_all(bytes).map_err(|source| HexError::Io { path: "<stdout>".into(), source })
        }
    }
}
