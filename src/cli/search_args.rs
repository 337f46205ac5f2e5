//! The arguments of `search`, the restricted grid search. They resolve to
//! `search::grids::GridSearch`, which no claim-stating command takes.

use std::path::PathBuf;
use std::time::Duration;

use crate::choices::SolverConfiguration;
use hexcert::encoding::restricted::{Centre, Singles};
use hexcert::options;
use hexcert::search::grids::GridSearch;
use hexcert::solving::MAX_SEED;

use crate::args::{positive_seconds, side, within};

#[derive(clap::Args, Debug)]
pub(crate) struct SearchArgs {
    /// Side of the hexagon (1..=40).
    #[arg(long, value_parser = side)]
    pub n: usize,
    /// Stop at the first grid of penalty <= B (with --descend, start there
    /// and go lower); without it the search starts from a free call and descends.
    #[arg(long)]
    pub max_penalty: Option<usize>,
    /// After each grid found, look for one a penalty lower, until every member
    /// of the portfolio is UNSAT (in its restricted space) or time runs out.
    #[arg(long)]
    pub descend: bool,
    #[arg(long, default_value_t = options::GRID_BAND.default, help = options::GRID_BAND.help, value_parser = within(options::GRID_BAND))]
    pub band: usize,
    /// Inner allowances of the portfolio: at most X penalty edges at ring
    /// distance --band or more, one member per X (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "0,1,2,3")]
    pub inner: Vec<usize>,
    /// Ring distances (--band or more, comma-separated) that may each hold
    /// one penalty edge besides the inner allowance, in every member (the
    /// report's -O): each listed distance at most one, the other distances >=
    /// --band at most X together, and the penalties below the band plus
    /// the listed distances used at most B - X.
    #[arg(long, value_name = "D", value_delimiter = ',', value_parser = clap::value_parser!(u8).range(2..=79))]
    pub single_at: Vec<u8>,
    /// Centre placements of the portfolio (comma-separated, tried in this
    /// order): `beside-centre` (a 1 beside the centre and one a 7-cell-tiling
    /// step away, the report's -b 2, which 11 of its 15 runs with -b used),
    /// `at-centre` (a 1 at the centre and one a tiling step away, -b 1), `none`.
    #[arg(long, value_delimiter = ',', default_value = "beside-centre,at-centre")]
    pub centre: Vec<CentreArg>,
    // Not `--level`: in every other command that names the claim's level.
    #[arg(long = "formula-level", default_value_t = options::GRID_LEVEL.default, help = options::GRID_LEVEL.help, value_parser = within(options::GRID_LEVEL))]
    pub level: u8,
    /// Find a level-K partial (1 to 5) instead of a full grid: the restricted
    /// formula at level K, a validated model of it the result, nothing
    /// refined or filled in (a witness for a level-K claim, which `check`
    /// validates as any other).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(1..=5), conflicts_with = "level")]
    pub partial_level: Option<u8>,
    #[arg(long, default_value_t = options::GRID_JOBS.default, help = options::GRID_JOBS.help, value_parser = within(options::GRID_JOBS))]
    pub jobs: usize,
    /// Stop after this many seconds (wall clock), reporting the best grid so far.
    #[arg(long, value_parser = positive_seconds)]
    pub time_limit: Option<f64>,
    /// Write the best grid (hexcert format, its restrictions in `#` comments) to this file.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The hunt's ledger (JSON; created if missing): each member's CPU
    /// seconds and runs so far, and whether it found a grid or was
    /// exhausted (the solver's unchecked UNSAT in its restricted space) at a
    /// bound. Members exhausted at or above the search's bound are skipped;
    /// this run's figures are added when it ends, also on --time-limit or
    /// Ctrl-C. A ledger holding what no run writes (negative seconds, an
    /// exhaustion no run made) is refused. A record of effort, not a claim.
    #[arg(long, value_name = "FILE")]
    pub ledger: Option<PathBuf>,
    /// CaDiCaL's option set for the search's solvers: `sat` (its
    /// configuration for satisfiable formulas, faster on every side measured,
    /// docs/MEASUREMENTS.md) or `default`. It changes how soon a grid comes,
    /// never whether a grid is valid (the validator judges every one).
    #[arg(long, value_enum, default_value = "sat")]
    pub solver_configuration: SolverConfiguration,
    /// Solver seeds (comma-separated, 0 to 2000000000): each one a copy of
    /// the portfolio. A member's time to a grid varies wildly with the
    /// solver's search order (n = 17's band 4, inner 5, beside-centre ran
    /// 5,430 CPU s at 55 without a grid; the report found one there in
    /// 3,326 s), so runs of one member under several orders are the
    /// standard remedy. A seed s > 0 sets CaDiCaL's seed=s, shuffle=1 and
    /// shufflerandom=1; seed 0 leaves its order as it is.
    #[arg(long, value_delimiter = ',', default_value = "0", value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_SEED)))]
    pub seeds: Vec<u32>,
    /// Search nothing: say which members of this portfolio admit the grid
    /// in FILE (either format, side --n), cut to the formula's level, at
    /// --max-penalty or else at its own penalty: how many of its penalty
    /// edges lie at ring distance --band or more, and whether each member's
    /// restrictions (allowance, single distances, centre placement in some
    /// symmetric image) hold. Whether a search could find a grid at all,
    /// before CPU hours go to a member that cannot; no solver runs.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["descend", "output", "ledger", "time_limit"])]
    pub explain: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(crate) enum CentreArg {
    AtCentre,
    BesideCentre,
    None,
}

impl SearchArgs {
    pub fn spec(&self) -> GridSearch {
        let centres = self
            .centre
            .iter()
            .map(|c| match c {
                CentreArg::AtCentre => Some(Centre::AtCentre),
                CentreArg::BesideCentre => Some(Centre::BesideCentre),
                CentreArg::None => None,
            })
            .collect();
        GridSearch {
            n: self.n,
            level: self.partial_level.unwrap_or(self.level),
            partial: self.partial_level.is_some(),
            band: self.band,
            inners: self.inner.clone(),
            singles: Singles::new(self.single_at.iter().map(|&d| usize::from(d))).expect("distances below 80"),
            centres,
            max_penalty: self.max_penalty,
            descend: self.descend || self.max_penalty.is_none(),
            jobs: self.jobs,
            time_limit: self.time_limit.map(Duration::from_secs_f64),
            seeds: self.seeds.clone(),
            known_exhausted: Vec::new(),
            configuration: self.solver_configuration.into(),
        }
    }
}
