//! What a long command runs under: one stop flag, whether it logs, whether
//! it shows progress. `main` makes one `RunContext` per process and hands it
//! down to every command; the library reads it, never makes its own.
//!
//! Invariant relied on: a process has one stop flag. ctrlc takes one
//! handler per process (a second registration fails), so a flag made after
//! the first would never be raised: `table counts --n 3..=9` once made a
//! flag per side and every side after the first ignored Ctrl-C
//! (`tests/cli.rs`, `ctrl_c_stops_a_table_after_its_first_row`). Whatever
//! stops on Ctrl-C clones this flag (`stop_flag`) or asks `stopped`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The run's stop flag, log switch and progress switch. Cloning shares the flag.
#[derive(Debug, Clone, Default)]
pub struct RunContext {
    stop: Arc<AtomicBool>,
    verbose: bool,
    progress: bool,
}

impl RunContext {
    /// `verbose`: a stderr line per solver call or table (`--verbose`);
    /// `progress`: a progress display on stderr (off with `--quiet`, `--json`).
    pub fn new(verbose: bool, progress: bool) -> RunContext {
        RunContext { stop: Arc::default(), verbose, progress }
    }

    /// The flag Ctrl-C raises, for the code that polls it (solvers' terminate callbacks, sweeps between layers).
    pub fn stop_flag(&self) -> &Arc<AtomicBool> {
        &self.stop
    }

    /// Raises the stop flag (what Ctrl-C does); returns whether it was up already.
    pub fn stop(&self) -> bool {
        self.stop.swap(true, Ordering::Relaxed)
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn verbose(&self) -> bool {
        self.verbose
    }

    pub fn progress(&self) -> bool {
        self.progress
    }

    /// Prints `line()` on stderr when the run logs (`--verbose`); builds no
    /// string otherwise, since a sweep reports every tenth of its layers.
    pub fn log(&self, line: impl FnOnce() -> String) {
        if self.verbose {
            eprintln!("{}", line());
        }
    }
}
