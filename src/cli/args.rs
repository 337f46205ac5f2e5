//! The argument types the commands share (a claim, where certificates go,
//! how counts hold their layers), the `cubes` subcommands, and the value
//! parsers, whose ranges come from the options table.

use std::path::PathBuf;

#[cfg(feature = "solver")]
use hexcert::certify::Settings;
use hexcert::context::RunContext;
use hexcert::counting::Layers;
use hexcert::error::HexError;
use hexcert::geometry::Hexagon;
use hexcert::options;

use crate::choices::Cardinality;
#[cfg(feature = "solver")]
use crate::choices::{CubeUse, ExternalCheck};

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

/// What `statement --derivation` derives the statement's CNF as: the
/// plan's split formula, or without a plan the whole formula.
pub(crate) fn reach(
    plan: Option<&hexcert::cubes::Plan>,
    symmetry: crate::choices::SymmetryBreaking,
) -> hexcert::derivation::Reach<'_> {
    match plan {
        Some(plan) => hexcert::derivation::Reach::Split(plan),
        None => hexcert::derivation::Reach::Formula(symmetry.into(), hexcert::encoding::Cardinality::default()),
    }
}

/// `check`'s options; a verdict kept needs a checker to keep it from.
pub(crate) fn check_options(
    context: &RunContext,
    (veripb, record): (bool, bool),
    verified: &VerifiedArgs,
    (keep, across_runs): (bool, bool),
    jobs: usize,
) -> Result<hexcert::verify::check::CheckOptions, HexError> {
    let options = hexcert::verify::check::CheckOptions {
        derivations: veripb,
        record,
        verified: verified.checker()?,
        keep,
        progress: context.progress(),
        jobs,
        across_runs,
    };
    if options.keep && options.verified.is_none() {
        return Err(HexError::Usage(
            "--keep-verdicts needs a verified checker: cake_lpr on PATH, or --cake-lpr PATH".into(),
        ));
    }
    Ok(options)
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

/// The value parser of an entry of the options table: its range, one-line errors.
pub(crate) fn within<T>(option: options::Opt<T>) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: PartialOrd + Copy + std::fmt::Display + std::str::FromStr + Send + Sync + 'static,
{
    move |text| option.parse(text).map_err(|e| e.to_string())
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
    pub(crate) fn settings(
        &self,
        n: usize,
        level: u8,
        context: &RunContext,
    ) -> Result<hexcert::counting::CountSettings, HexError> {
        let hinted = match self.start_from.as_deref() {
            Some(dir) => hexcert::counting::start_hint(dir, n, level.min(4))?,
            None => None,
        };
        Ok(hexcert::counting::CountSettings {
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
#[cfg(feature = "solver")]
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

#[cfg(feature = "solver")]
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
/// layers, work directories are removed on the way out (exit 130). SIGTERM
/// (`timeout`, a batch system's time limit) and SIGHUP do the same (ctrlc's
/// `termination` feature). A second signal ends the process at once, for a
/// stop that takes too long.
/// ctrlc takes one handler per process: `main` calls this once, and a
/// failure is an error, not a flag that nothing raises.
pub(crate) fn stop_on_ctrl_c(context: &RunContext) -> Result<(), HexError> {
    let context = context.clone();
    ctrlc::set_handler(move || {
        if context.stop() {
            std::process::exit(i32::from(hexcert::outcome::exit_code(Err(&HexError::Interrupted))));
        }
    })
    .map_err(|e| HexError::Internal(format!("cannot catch Ctrl-C and SIGTERM: {e}")))
}

/// A level (1..=6) or an inclusive range of levels: `3`, `1..=4`, `1-4`.
pub(crate) fn level_range(s: &str) -> Result<(u8, u8), String> {
    let level = |t: &str| match t.parse::<u8>() {
        Ok(k) if (1..=6).contains(&k) => Ok(k),
        _ => Err(format!("`{t}` is not a level in 1..=6")),
    };
    let (a, b) = match s.split_once("..=").or_else(|| s.split_once('-')) {
        Some((a, b)) => (level(a)?, level(b)?),
        None => (level(s)?, level(s)?),
    };
    if a > b {
        return Err(format!("empty range `{s}`"));
    }
    Ok((a, b))
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
