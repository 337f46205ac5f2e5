//! Progress on stderr for long commands: on a terminal, a spinner with the
//! running task and its elapsed time; nothing when stderr is not a terminal
//! or with `--quiet` / `--json`. `--verbose` adds one line per answered
//! solver call (on a terminal or not), for logs of long runs. Both switches
//! are the run's (`RunContext`), set once in `main`.

use std::io::IsTerminal;
use std::time::Duration;

use hexcert::context::RunContext;
#[cfg(feature = "solver")]
use hexcert::search::{SearchStep, StepMethod};
use indicatif::{ProgressBar, ProgressStyle};

pub struct Progress {
    spinner: Option<ProgressBar>,
    lines: bool,
}

impl Progress {
    pub fn new(context: &RunContext) -> Progress {
        let spinner = (context.progress() && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("valid template"));
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress { spinner, lines: context.verbose() }
    }

    /// Shows what a long single task is doing (the spinner's elapsed time runs).
    pub fn working(&self, message: String) {
        if let Some(bar) = &self.spinner {
            bar.set_message(message);
            bar.reset_elapsed();
        }
    }

    /// Reports an event of a long unit's parts: the spinner's message, and
    /// with `--verbose` a line of its own.
    pub fn event(&self, message: String) {
        if self.lines {
            self.line(format!("  {message}"));
        }
        self.working(message);
    }

    /// One line on stderr, above the spinner when there is one.
    fn line(&self, line: String) {
        match &self.spinner {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// Reports one solver call of the search for side `n`.
    #[cfg(feature = "solver")]
    pub fn step(&self, n: usize, step: &SearchStep) {
        let bound = step.max_penalty.map_or("free".into(), |b| b.to_string());
        if !step.answered {
            if let Some(bar) = &self.spinner {
                bar.set_message(format!("n={n} level {} penalty <= {bound}: solving", step.level));
                bar.reset_elapsed();
            }
            return;
        }
        if !self.lines {
            return;
        }
        let answer = match (step.found_penalty, step.via) {
            (Some(p), StepMethod::Completion) => format!("penalty {p} by completing level 4, no solver call"),
            (None, StepMethod::Completion) => "level-4 completion missed the bound".to_string(),
            (Some(p), StepMethod::Refinement) => format!("penalty {p} refining the level below"),
            (None, StepMethod::Refinement) => "no better refinement of the level below".to_string(),
            (Some(p), StepMethod::Oracle) => format!("SAT, penalty {p}"),
            (None, StepMethod::Oracle) => "UNSAT".to_string(),
        };
        self.line(format!("  n={n} level {} bound {bound}: {answer} ({:.2} s)", step.level, step.seconds));
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.spinner {
            bar.finish_and_clear();
        }
    }
}
