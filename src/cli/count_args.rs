//! `count`'s arguments and dispatch: the roads, and the flags that belong
//! to one road only (refused with any other). Without the solver (cargo
//! feature `solver`) `--road sat` is refused too.

use std::path::PathBuf;

use crate::args::side_range;
use crate::choices;

use hexcert::context::RunContext;
use hexcert::error::HexError;

use crate::args::{side, CountingArgs};
use crate::choices::Via;
use crate::commands::{self, report::Reported, Road};

// `count`'s flags (the subcommand's help is the doc comment of `Command::Count`).
#[derive(clap::Args)]
pub(crate) struct CountArgs {
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
    /// How to count: `sweep` (the frontier sweep; levels 5 and 6 as chain
    /// products over the level-4 partials), `sat` (the solver lists the
    /// ring-1 lex-leaders, each validated, and the 12 symmetries close them;
    /// needs --penalty or --max-penalty; for small counts), `extension`
    /// (levels 2..6: each partial of the level below, of level 3 for levels
    /// 4..6, extended by a search or a program of its own; at the minimum,
    /// or at --penalty or up to --max-penalty; `refine` is its old name)
    /// or `frontier` (levels 5 and 6 by the sweep at the level itself, the
    /// chain products' second road; needs --penalty or --max-penalty).
    #[arg(long, value_enum, default_value = "sweep")]
    road: Road,
    /// With --road sat: list the lex-leaders cube by cube (the 128
    /// projections of the centre and its neighbours) on every core, one
    /// record per finished cube in this directory, so that a stopped
    /// count resumes where it stopped (a count that resumed cubes exits 4:
    /// their completeness was not checked in this run).
    #[arg(long)]
    leaders_dir: Option<PathBuf>,
    /// With --road sat --leaders-dir: prove each cube's list complete. One
    /// traced solver lists the cube, each leader's blocking clause added to
    /// its formula, and its last call refutes the formula with all of them;
    /// the LRAT checker reads the whole trace as it is written, and the
    /// cube's record names the refuted formula's hash and the verdict.
    /// With --penalty P it needs the claim below P of the level, or of a
    /// lower one, under proofs/ (`count.json` names it); with --max-penalty
    /// B it writes `count.json` when the highest such claim at or below B,
    /// below M, meets the least penalty listed (a listing past the minimum
    /// M, up to a higher level's minimum B, for the lift there). DIR must be
    /// the cell the record names, nN-levelK-penaltyP (nN-levelK-uptoB past
    /// the minimum): another name is refused before listing.
    #[arg(long, requires = "leaders_dir")]
    certify: bool,
    /// With --certify: each cube's listing proof is also read by cake_lpr,
    /// as a file against the refuted formula, once the cube is listed.
    #[command(flatten)]
    verified: crate::args::VerifiedArgs,
    /// With --certify: list each cube not yet recorded as the 2^D leaves of
    /// a decision tree on the penalty counter (the budget split between
    /// halves, quarters, eighths of the edges), each leaf listed and proven
    /// complete on its own and recorded in DIR/cube-<i>-leaves/ as it
    /// finishes, so that a cube longer than a session resumes per leaf; the
    /// cube's record holds its leaves, and `check` judges their tree; the
    /// two halves of a node are listed at once (RAYON_NUM_THREADS threads).
    /// 0: each cube whole, as the root leaf, split only past
    /// --leaf-time-limit (every leaf pays the solver's setup once, so a
    /// fixed depth costs the many cheap cubes more than it saves)
    #[arg(long, value_name = "D", requires = "certify", value_parser = clap::value_parser!(u8).range(0..=12))]
    leaf_depth: Option<u8>,
    /// With --leaf-depth: a leaf still listing after this many seconds of
    /// its solver's CPU time (waiting for a busy core does not count) is
    /// stopped and its two halves (one level deeper in the same tree) are
    /// listed instead, as far as the counter splits, with twice its limit
    /// (a corner that splitting does not make easier costs at most about
    /// twice its last leaf, not the limit at every level); leaf records are named
    /// by their path, so a later run with any depth reads them back, and a
    /// stopped leaf is marked (`leaf_<path>.split`) so that a later run
    /// splits it at once (0: every leaf split as far as the counter splits).
    #[arg(long, value_name = "SECONDS", requires = "leaf_depth")]
    leaf_time_limit: Option<u64>,
    /// With --road extension (also with --from-listing): extend the listed
    /// symmetry classes piece by piece (256 runs of them), one record per
    /// finished piece in this directory, so that a stopped count resumes
    /// where it stopped (a count that resumed pieces exits 4: their counts
    /// were not recomputed in this run).
    #[arg(long)]
    pieces_dir: Option<PathBuf>,
    /// With --road extension at levels 4..6: lift the level-3 partials of a
    /// certified listing (DIR holds its count.json and cube records, written
    /// by `count --road sat --certify`) instead of the sweep's, and count at
    /// the listing's penalty; at levels 5 and 6 a level-4 listing serves
    /// too (exit 4: the listing's cube verdicts are recorded ones; `check
    /// --regenerate DIR` checks them).
    #[arg(long)]
    from_listing: Option<PathBuf>,
    /// With --from-listing: write the lifted count's record, `lift.json`,
    /// into CELL (created if missing; the listing named relative to it), for
    /// `hexcert check` (which judges the listing, and with --regenerate
    /// lifts again). CELL must be named nN-levelK-penaltyP, P the listing's
    /// penalty and the level's minimum as the optimum beside the listing's
    /// claim states it (proofs/nN/optimum.json); otherwise, or when the lift
    /// finds a partial below P, nothing is written
    #[arg(long, value_name = "CELL", requires = "from_listing")]
    record_to: Option<PathBuf>,
    /// With --road extension at levels 5 and 6: count each level-3 partial's
    /// refinements by `lift` (a program over its `+` cells, every label at
    /// once) or by `chains` (its level-4 refinements met one by one, each
    /// one's `+` components counted by the chain polynomials: none of
    /// lift's code, and far slower).
    #[arg(long, value_enum, default_value = "lift")]
    via: Via,
    #[command(flatten)]
    counting: CountingArgs,
}

impl CountArgs {
    /// Whether the count polls the stop flag (`Command::stops_on_ctrl_c`).
    pub(crate) fn stops_on_ctrl_c(&self) -> bool {
        self.road != Road::Sat || self.leaders_dir.is_some()
    }

    /// Runs the count on the road asked for.
    pub(crate) fn run(&self, context: &RunContext) -> Result<Reported, HexError> {
        match self {
            CountArgs { leaders_dir: Some(_), road: Road::Sweep | Road::Extension | Road::Frontier, .. } => {
                Err(HexError::Usage("--leaders-dir lists lex-leaders: it needs --road sat".into()))
            }
            CountArgs { pieces_dir: Some(_), road: Road::Sweep | Road::Sat | Road::Frontier, .. } => {
                Err(HexError::Usage(
                    "--pieces-dir keeps the pieces of an extension count: it needs --road extension".into(),
                ))
            }
            CountArgs { from_listing: Some(_), road: Road::Sweep | Road::Sat | Road::Frontier, .. } => {
                Err(HexError::Usage("--from-listing lifts a listing: it needs --road extension".into()))
            }
            CountArgs { via: Via::Chains, road: Road::Sweep | Road::Sat | Road::Frontier, .. } => Err(HexError::Usage(
                "--via chains is how the extension road counts levels 5 and 6: it needs --road extension".into(),
            )),
            CountArgs {
                n, level, penalty, max_penalty, counting, road: road @ (Road::Sweep | Road::Frontier), ..
            } => commands::count(
                context,
                (*n, *level, *road),
                *penalty,
                *max_penalty,
                &counting.settings(*n, *level, context)?,
            ),
            CountArgs {
                n,
                level,
                counting,
                road: Road::Extension,
                via,
                from_listing: Some(dir),
                record_to,
                pieces_dir,
                ..
            } => {
                let settings = hexcert::counting::CountSettings {
                    records: pieces_dir.clone(),
                    via: (*via).into(),
                    ..counting.settings(*n, 3, context)?
                };
                commands::count_lifted(context, (*n, *level), (dir, record_to.as_deref()), &settings)
            }
            CountArgs { n, level, penalty, max_penalty, counting, road: Road::Extension, pieces_dir, via, .. } => {
                let settings = hexcert::counting::CountSettings {
                    records: pieces_dir.clone(),
                    via: (*via).into(),
                    ..counting.settings(*n, level.saturating_sub(1).max(1), context)?
                };
                commands::count_extension(context, (*n, *level), (*penalty, *max_penalty), &settings)
            }
            #[cfg(feature = "solver")]
            CountArgs { road: Road::Sat, .. } => commands::count_sat(context, self.listing_request()?),
            #[cfg(not(feature = "solver"))]
            CountArgs { road: Road::Sat, .. } => Err(without_solver("--road sat")),
        }
    }
}

#[cfg(feature = "solver")]
impl CountArgs {
    /// `count --road sat` as one request: its penalty, and which of the
    /// three ways lists it (in one solver; cube by cube into
    /// --leaders-dir; each cube proven complete, with --certify).
    fn listing_request(&self) -> Result<hexcert::listing::ListingRequest, HexError> {
        use hexcert::listing::{LeafSplit, ListingBound, ListingMode, ListingRequest};
        let mode = match (&self.leaders_dir, self.certify) {
            (Some(dir), true) => ListingMode::Certified {
                dir: dir.clone(),
                verified: self.verified.checker()?,
                leaves: self.leaf_depth.map(|depth| LeafSplit {
                    depth: depth.into(),
                    time_limit: self.leaf_time_limit.map(std::time::Duration::from_secs),
                }),
            },
            (Some(dir), false) => ListingMode::ByCubes { dir: dir.clone() },
            // clap: --certify requires --leaders-dir.
            (None, _) => ListingMode::Whole,
        };
        let penalty = match (self.penalty, self.max_penalty) {
            (Some(p), _) => ListingBound::At(p),
            (None, Some(b)) => ListingBound::UpTo(b),
            (None, None) => return Err(HexError::Usage("--road sat needs --penalty P or --max-penalty B".into())),
        };
        Ok(ListingRequest { n: self.n, level: self.level, penalty, mode })
    }
}

/// The refusal of what needs the solver, in a build without it.
#[cfg(not(feature = "solver"))]
fn without_solver(what: &str) -> HexError {
    HexError::Usage(format!("{what} solves: this hexcert is built without the solver (cargo feature `solver`; `cargo install --path .` builds it)"))
}

/// `hexcert recount`'s arguments.
#[derive(clap::Args)]
pub struct RecountArgs {
    /// The lifted cell: the directory of its lift.json and classes.json.
    pub cell: PathBuf,
    /// Recount every class the lift counts some refinement of, and this
    /// many of the others drawn by --seed (default: every class).
    #[arg(long, requires = "seed")]
    pub sample: Option<usize>,
    /// The seed that draws the sample.
    #[arg(long, requires = "sample")]
    pub seed: Option<u64>,
    /// The counter: a program reading DIMACS formulas on stdin and
    /// answering each with `COUNT SECONDS` (tools/ganak-count.py drives
    /// Ganak through the Python package pyganak).
    #[arg(long, default_value = "tools/ganak-count.py")]
    pub counter: PathBuf,
}

impl RecountArgs {
    /// Runs `hexcert recount`.
    pub(crate) fn run(&self) -> Result<Reported, HexError> {
        commands::recount(&self.cell, self.sample.zip(self.seed), &self.counter)
    }
}

/// `hexcert table`: a computed table, or the results the records state.
#[derive(clap::Args)]
pub struct TableArgs {
    /// Which table: `counts` (solutions at the minimum) or `penalties`
    /// (minimum per level), computed by the sweep; `results` (README's
    /// table and each claim's and count's facts, read from proofs/,
    /// counts/ and grids/ under --root: a plain read that re-checks no
    /// proof and no listing; `hexcert check` does); `cli` (docs/CLI.md:
    /// the command line's reference, its prose and every command's help).
    #[arg(value_enum)]
    kind: commands::TableKind,
    /// A side or an inclusive range: 3..=8 (`counts` and `penalties`).
    #[arg(long, value_parser = side_range, required_if_eq_any = [("kind", "counts"), ("kind", "penalties")])]
    n: Option<(usize, usize)>,
    /// With `counts`: also write the table as a record (format
    /// `hexcert-count-table/1`, docs/RECORDS.md), whole or not at all;
    /// `counts/table.json` is the one `table results` prints.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// With `results`: rewrite the blocks of FILE between
    /// `<!-- table results: NAME begin -->` and `... NAME end -->` (NAME:
    /// table, claims, counts) with their current text, the rest of FILE
    /// untouched, whole or not at all (README.md docs/RESULTS.md). With
    /// `cli`: write FILE whole (docs/CLI.md).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    write: Vec<PathBuf>,
    /// With `results`: the repository whose proofs/, counts/ and grids/ are read.
    #[arg(long, value_name = "DIR", default_value = ".")]
    root: PathBuf,
    /// How levels 5 and 6 are counted from the tables of levels 1 to 4:
    /// `chains` (the chain products over every level-4 partial the tables
    /// list; n = 11 in 14 minutes, n = 12 out of reach) or `lift` (the
    /// extension road's program over the `+` cells of each level-3 partial
    /// at the minimum; n = 12 in under 2 minutes).
    #[arg(long, value_enum, default_value = "chains")]
    upper: choices::Upper,
    /// With `counts`: count each level also at its minimum + 1, ..., + K
    /// (the near-optimal partials), a cell printed as the counts at the
    /// minimum, one above, ..., K above, split by ` / `. The tables are
    /// built for the top level's minimum + K (with --start-from, once).
    #[arg(long, value_name = "K", default_value_t = 0)]
    above: usize,
    #[command(flatten)]
    counting: CountingArgs,
}

impl TableArgs {
    pub fn run(&self, json: bool, context: &RunContext) -> Result<Reported, HexError> {
        let TableArgs { kind, n, upper, above, counting, record, write, root } = self;
        if matches!(kind, commands::TableKind::Results | commands::TableKind::Cli) {
            if record.is_some() {
                return Err(HexError::Usage("--record writes a computed table: use it with `table counts`".into()));
            }
            if *kind == commands::TableKind::Cli {
                return commands::cli_doc(<crate::Cli as clap::CommandFactory>::command(), write);
            }
            return commands::results(root, write);
        }
        if !write.is_empty() {
            return Err(HexError::Usage(
                "--write embeds the results the records state or the reference: use it with `table results` or `table cli`"
                    .into(),
            ));
        }
        let settings =
            |n| Ok(hexcert::counting::CountSettings { upper: (*upper).into(), ..counting.settings(n, 6, context)? });
        let sides = n.expect("clap requires --n with counts and penalties");
        let upper_name = clap::ValueEnum::to_possible_value(upper).expect("a named choice");
        commands::table(json, context, (*kind, *above), sides, (&settings, record.as_deref(), upper_name.get_name()))
    }
}
