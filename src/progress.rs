//! Progress on stderr for long commands: a spinner with the running solver
//! call and its elapsed time on a terminal, one line per answered call
//! otherwise, nothing with `--quiet` or `--json`.

use std::io::IsTerminal;
use std::time::Duration;

use hexcert::solving::search::Step;
use indicatif::{ProgressBar, ProgressStyle};

pub struct Progress {
    spinner: Option<ProgressBar>,
    quiet: bool,
}

impl Progress {
    pub fn new(quiet: bool) -> Progress {
        let spinner = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("valid template"));
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress { spinner, quiet }
    }

    /// Shows what a long single task is doing (the spinner's elapsed time runs).
    pub fn working(&self, message: String) {
        if let Some(bar) = &self.spinner {
            bar.set_message(message);
            bar.reset_elapsed();
        }
    }

    /// Reports one solver call of the search for side `n`.
    pub fn step(&self, n: usize, step: &Step) {
        if self.quiet {
            return;
        }
        let bound = step.max_penalty.map_or("free".into(), |b| b.to_string());
        if !step.answered {
            if let Some(bar) = &self.spinner {
                bar.set_message(format!("n={n} level {} penalty <= {bound}: solving", step.level));
                bar.reset_elapsed();
            }
            return;
        }
        let answer = step.found_penalty.map_or("UNSAT".into(), |p| format!("SAT, penalty {p}"));
        let line = format!("  n={n} level {} bound {bound}: {answer} ({:.2} s)", step.level, step.seconds);
        match &self.spinner {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.spinner {
            bar.finish_and_clear();
        }
    }
}
