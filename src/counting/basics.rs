//! What every counting module shares: how layers are held, the settings of a
//! count (with the run's context), the stop check, why a sweep stops, and the `--verbose` lines.
//!
//! Invariant relied on: this module is a leaf of `counting` (it imports only
//! `tally`), so the sweeps, the table builders and the ladder can all use it
//! without importing each other; `tests/counting_modules.rs` keeps the
//! module graph free of circles.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::context::RunContext;
use crate::counting::tally::Overflow;
use crate::error::HexError;

/// Largest penalty bound the packed sweep keys can hold.
pub const MAX_PENALTY_BOUND: usize = 255;

/// A penalty bound the packed keys can hold, or a usage error.
pub fn check_bound(max_penalty: usize) -> Result<(), HexError> {
    if max_penalty > MAX_PENALTY_BOUND {
        return Err(HexError::Usage(format!(
            "penalty bound {max_penalty} is above the counter's limit {MAX_PENALTY_BOUND}"
        )));
    }
    Ok(())
}

/// One step of a search for a level's minimum and the `above` penalties
/// over it, after counting every penalty up to `bound`: `Ok(minimum)` when
/// the first penalty counted, `first`, has its `above` within the bound,
/// else `Err(the bound to count up to next)`.
pub(super) fn settled(first: Option<usize>, above: usize, bound: usize) -> Result<usize, usize> {
    match first {
        Some(minimum) if minimum + above <= bound => Ok(minimum),
        Some(minimum) => Err(minimum + above),
        None => Err(bound + 1),
    }
}

/// Default of `Layers::Sorted`'s memory limit (`options::MEMORY_LIMIT`).
pub const DEFAULT_MEMORY_LIMIT: u64 = crate::options::MEMORY_LIMIT.default;

/// How a sweep holds its layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layers {
    /// One hash map per layer, filled on one core: the reference path.
    Hashed,
    /// Sorted runs built on every core. When a layer plus the successors
    /// buffered for the next one pass `memory_limit` bytes, the buffered runs
    /// are merged to a scratch file (in `TMPDIR`) and merged back at the end.
    Sorted { memory_limit: u64 },
}

impl Default for Layers {
    fn default() -> Layers {
        Layers::Sorted { memory_limit: DEFAULT_MEMORY_LIMIT }
    }
}

/// How a count is carried out; never what it counts.
#[derive(Debug, Clone, Default)]
pub struct CountSettings {
    /// How sweeps and tables hold their layers.
    pub layers: Layers,
    /// Penalty bound the tables are first built for (see `count_row_in`).
    pub start: usize,
    /// Directory of finished cost-to-finish tables (`checkpoint`): a table
    /// found there is loaded, checked, and used instead of being rebuilt, and
    /// every table built is written there.
    pub checkpoints: Option<PathBuf>,
    /// The run's stop flag (raised by Ctrl-C: the count stops between two
    /// layers, scratch files are removed, finished checkpoint tables stay, the
    /// count returns `Interrupted`) and its `--verbose` switch.
    pub context: RunContext,
    /// Directory of the extension road's records (`extension::pieces`): a finished
    /// piece of a listing found there is read back instead of refined, and
    /// every piece refined is written there.
    pub records: Option<PathBuf>,
    /// How the extension road counts levels 5 and 6.
    pub via: Via,
    /// How a row (`count_row_in`) counts levels 5 and 6.
    pub upper: Upper,
    /// The checkpoint tables this count loaded instead of building, so that
    /// its report can name what it trusted (docs/COUNTING.md).
    pub loaded: Arc<Mutex<Vec<PathBuf>>>,
}

impl From<Layers> for CountSettings {
    fn from(layers: Layers) -> CountSettings {
        CountSettings { layers, ..CountSettings::default() }
    }
}

impl CountSettings {
    /// The checkpoint tables loaded so far, in the order they were loaded.
    pub fn tables_loaded(&self) -> Vec<PathBuf> {
        self.loaded.lock().map(|list| list.clone()).unwrap_or_default()
    }

    pub(super) fn note_loaded(&self, path: &Path) {
        if let Ok(mut list) = self.loaded.lock() {
            list.push(path.to_path_buf());
        }
    }
}

/// How the extension road counts the level-5 and level-6 refinements of a
/// level-3 partial.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Via {
    /// The program of `lift` over its `+` cells, every label at once.
    #[default]
    Lift,
    /// Its level-4 refinements met one by one, each one's `+` components
    /// counted by the chain polynomials: none of `lift`'s code, so a second
    /// road where the level-4 partials are too many to list from the tables.
    Chains,
}

impl Via {
    /// The name records and reports use.
    pub fn name(self) -> &'static str {
        match self {
            Via::Lift => "lift",
            Via::Chains => "chains",
        }
    }

    /// The way `name` names (`None`: no way of this build).
    pub fn named(name: &str) -> Option<Via> {
        [Via::Lift, Via::Chains].into_iter().find(|via| via.name() == name)
    }
}

/// How a row of the count table reaches levels 5 and 6 from the tables of
/// levels 1 to 4.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Upper {
    /// The chain products over the level-4 partials the level-4 table lists
    /// (n = 11: 16.3 M of them, 826 s; n = 12: 18.3 G, out of reach).
    #[default]
    Chains,
    /// The extension road's `lift` of the level-3 partials at the minimum
    /// (n = 12 level 6: 800 classes, 84 s).
    Lift,
}

/// Why a sweep stopped.
#[derive(Debug)]
pub enum SweepError {
    /// A count does not fit the tally: rerun with a wider one.
    Overflow,
    /// A scratch file could not be written or read.
    Scratch { path: PathBuf, source: std::io::Error },
    /// The stop flag was raised (Ctrl-C) between two layers.
    Interrupted,
}

impl SweepError {
    pub fn scratch(path: &Path, source: std::io::Error) -> SweepError {
        SweepError::Scratch { path: path.to_path_buf(), source }
    }
}

impl From<Overflow> for SweepError {
    fn from(_: Overflow) -> SweepError {
        SweepError::Overflow
    }
}

/// A sweep's failure as the engine's error; `Overflow` only reaches here
/// from a big-integer sweep, where it cannot happen.
impl From<SweepError> for HexError {
    fn from(e: SweepError) -> HexError {
        match e {
            SweepError::Overflow => HexError::Internal("big-integer count overflowed".into()),
            SweepError::Scratch { path, source } => HexError::io(path, source),
            SweepError::Interrupted => HexError::Interrupted,
        }
    }
}

/// The check made between layers: raised means stop, dropping scratch files.
pub fn check_stop(context: &RunContext) -> Result<(), SweepError> {
    if context.stopped() {
        return Err(SweepError::Interrupted);
    }
    Ok(())
}

/// What one table build held and did, for `--verbose` and the benchmarks.
#[derive(Debug, Clone, Default)]
pub struct BuildStats {
    pub level: u8,
    pub bound: usize,
    /// States kept by the forward pass, over all layers.
    pub forward_states: usize,
    /// Most states in one forward layer, and the step that held them.
    pub widest_layer: (usize, usize),
    /// Most bytes of forward states held in memory at once.
    pub peak_bytes: usize,
    /// Forward layers written to scratch files.
    pub spilled_layers: usize,
    /// Forward layers taken from a journal instead of being built (`journal`).
    pub resumed_layers: usize,
    /// Backward tables taken from a journal instead of being built.
    pub resumed_tables: usize,
    /// States left in the table.
    pub table_states: usize,
    pub forward_seconds: f64,
    pub backward_seconds: f64,
}

/// The line of a finished table build.
pub fn report_built(context: &RunContext, stats: &BuildStats) {
    let BuildStats {
        level,
        bound,
        forward_states,
        widest_layer,
        peak_bytes,
        spilled_layers,
        table_states,
        forward_seconds,
        backward_seconds,
        ..
    } = stats;
    context.log(|| {
        format!(
            "table level {level} bound {bound}: forward {forward_states} states (widest layer {} at step {}, peak {:.2} GB held, {spilled_layers} layers spilled) {forward_seconds:.2} s; backward -> {table_states} states {backward_seconds:.2} s",
            widest_layer.0, widest_layer.1, *peak_bytes as f64 / 1e9
        )
    });
}

/// A line every tenth of a long forward pass, so a log shows how far it is.
pub fn report_step(context: &RunContext, stats: &BuildStats, step: usize, cells: usize, layer: usize) {
    context.log(|| {
        format!(
            "table level {} bound {}: forward step {step}/{cells}, {layer} states in the layer, {} so far, {} layers spilled",
            stats.level, stats.bound, stats.forward_states, stats.spilled_layers
        )
    });
}

/// A line every tenth of a long backward pass.
pub fn report_backward_step(context: &RunContext, stats: &BuildStats, step: usize, cells: usize, kept: usize) {
    context.log(|| {
        format!(
            "table level {} bound {}: backward step {step}/{cells}, {kept} states kept at it",
            stats.level, stats.bound
        )
    });
}

/// The line of a table build that resumed a pass from a journal: `what`
/// names the forward layers or backward tables it found there.
pub fn report_resumed(context: &RunContext, stats: &BuildStats, what: &str, dir: &Path) {
    context.log(|| format!("table level {} bound {}: resumed {what} from {}", stats.level, stats.bound, dir.display()));
}

/// The line of a finished (or resumed) piece of the extension road's listing.
pub fn report_piece(
    context: &RunContext,
    level: u8,
    (index, done, pieces): (usize, usize, usize),
    classes: usize,
    resumed: bool,
    seconds: f64,
) {
    context.log(|| {
        let how = if resumed { "read back from its record".to_string() } else { format!("{seconds:.1} s") };
        format!("extension level {level}: piece {index} ({classes} classes, {how}); {done} of {pieces} pieces done")
    });
}

/// The line of a table loaded from a checkpoint file.
pub fn report_loaded(context: &RunContext, level: u8, bound: usize, path: &Path, states: usize) {
    context.log(|| format!("table level {level} bound {bound}: loaded {states} states from {}", path.display()));
}
