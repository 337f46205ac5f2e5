//! What every command hands back to `main`: a typed report (`Serialize` for
//! `--json`, `Display` for text) and the outcome its exit code comes from.
//! `main` prints it once, so no command can print two documents, or a
//! document and then an error, by accident.
//!
//! The report is boxed behind `Report` so that `run` has one return type
//! for twenty commands; a value is turned into JSON only when `--json` asks.

use std::fmt::Display;

use hexcert::error::HexError;
use hexcert::outcome::{exit_code, Outcome};

/// A command's report: text through `Display`, JSON through `serde`.
pub trait Report: Display {
    fn json(&self) -> serde_json::Value;
}

impl<T: serde::Serialize + Display> Report for T {
    fn json(&self) -> serde_json::Value {
        // Through a `Value`, as the documents always went: its keys come out
        // sorted, whatever order a report's fields are declared in.
        serde_json::to_value(self).expect("a report is plain data")
    }
}

/// A finished command: its report and how it ended.
pub struct Reported {
    report: Box<dyn Report>,
    outcome: Outcome,
    /// The text was already printed as it came (certify's table rows):
    /// printing it again at the end would show every row twice.
    streamed: bool,
    /// Stopped early (interrupted) after work worth reporting in text.
    stopped: Option<HexError>,
}

impl Reported {
    pub fn new(report: impl Report + 'static, outcome: Outcome) -> Reported {
        Reported { report: Box::new(report), outcome, streamed: false, stopped: None }
    }

    /// A report whose text went out row by row while the command ran.
    pub fn streamed(mut self) -> Reported {
        self.streamed = true;
        self
    }

    /// The report of work done before `error` stopped the command: its text
    /// is shown, then the error; with `--json` the error is the document.
    pub fn stopped_by(mut self, error: HexError) -> Reported {
        self.stopped = Some(error);
        self
    }
}

/// Prints a command's result once, in the chosen format, and returns its
/// exit code (from `outcome::exit_code`, the one table).
pub fn print(result: Result<Reported, HexError>, json: bool) -> u8 {
    let (reported, error) = match result {
        Ok(mut reported) => {
            let stopped = reported.stopped.take();
            (Some(reported), stopped)
        }
        Err(error) => (None, Some(error)),
    };
    let Some(error) = error else {
        let reported = reported.expect("a result is a report or an error");
        if json {
            println!("{}", reported.report.json());
        } else if !reported.streamed {
            print!("{}", reported.report);
        }
        return exit_code(Ok(reported.outcome));
    };
    if let Some(reported) = reported.filter(|r| !json && !r.streamed) {
        print!("{}", reported.report);
    }
    let code = exit_code(Err(&error));
    eprintln!("hexcert: {error}");
    // With --json the error is the command's one document, so a script
    // reading stdout sees why there is no report.
    if json {
        println!("{}", serde_json::json!({"error": error.to_string(), "exit_code": code}));
    }
    code
}

/// A table whose text rows are printed as they come (nothing until the
/// end with `--json`, whose document is the whole report).
#[derive(Clone, Copy)]
pub struct Rows {
    text: bool,
}

impl Rows {
    pub fn start(json: bool, header: &str) -> Rows {
        if !json {
            println!("{header}");
        }
        Rows { text: !json }
    }

    pub fn row(self, row: impl Display) {
        if self.text {
            println!("{row}");
        }
    }

    /// Lines after the rows (text as it is, ending in its own newline).
    pub fn after(self, text: impl Display) {
        if self.text {
            print!("{text}");
        }
    }

    /// The finished report, marked streamed when its text is already out.
    pub fn finish(self, reported: Reported) -> Reported {
        if self.text {
            reported.streamed()
        } else {
            reported
        }
    }
}
