//! check: the command that judges certificates. It needs no solver, except
//! to regenerate proofs that are not stored (`--regenerate`, cargo feature
//! `solver`).

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;

use super::report::Reported;
use hexcert::context::RunContext;
use hexcert::error::HexError;
use hexcert::verify::check::{check_paths_with, CheckOptions, CheckReport, Regenerate, Status, Summary};

/// `check`: each record's verdict and the tally.
#[derive(Serialize)]
pub struct CheckedReport {
    reports: Vec<CheckReport>,
    verified: usize,
    failed: usize,
    unverified: usize,
    exit_code: u8,
}

impl fmt::Display for CheckedReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for r in &self.reports {
            writeln!(f, "{}: {}", r.status.name(), r.path.display())?;
            for m in &r.messages {
                writeln!(f, "    {m}")?;
            }
        }
        writeln!(
            f,
            "{} records: {} verified, {} failed, {} unverified",
            self.reports.len(),
            self.verified,
            self.failed,
            self.unverified
        )
    }
}

/// `check`. With `regenerate`, re-solving polls the run's stop flag: after
/// Ctrl-C a cube claim keeps the cube verdicts written so far, every record
/// is reported unverified (an interrupted run never says verified, even of
/// a record whose check ended before the signal: a failure is still
/// reported), and the run ends interrupted (exit 130).
pub fn check(
    context: &RunContext,
    paths: &[PathBuf],
    regenerate: bool,
    options: CheckOptions,
) -> Result<Reported, HexError> {
    let paths = if paths.is_empty() { vec![PathBuf::from("proofs")] } else { paths.to_vec() };
    if options.record && hexcert::proofs::veripb::Veripb::find().is_none() {
        return Err(HexError::Usage(format!("--record needs VeriPB: {}", hexcert::proofs::veripb::Veripb::missing())));
    }
    // The solver enters the check only here, and only when asked for.
    #[cfg(feature = "solver")]
    let solve_again = hexcert::certify::prove::SolveAgainUntil(context.stop_flag().clone());
    #[cfg(feature = "solver")]
    let regenerator: Option<&dyn Regenerate> = if regenerate { Some(&solve_again) } else { None };
    #[cfg(not(feature = "solver"))]
    let regenerator: Option<&dyn Regenerate> = match regenerate {
        true => {
            return Err(HexError::Usage(
                "--regenerate re-solves: this hexcert is built without the solver (cargo feature `solver`)".into(),
            ))
        }
        false => None,
    };
    let mut reports = check_paths_with(&paths, regenerator, &options)?;
    if reports.is_empty() {
        return Err(HexError::Usage(format!("no claim.json or optimum.json under {}", show(&paths))));
    }
    if context.stopped() {
        mark_cut_short(&mut reports);
        for report in reports.iter_mut().filter(|r| r.status == Status::Verified) {
            report.status = Status::Unverified;
            report.messages.push("checked, but this run was interrupted (Ctrl-C): not reported verified".into());
        }
    }
    let summary = Summary::of(&reports);
    let report = CheckedReport {
        verified: summary.verified,
        failed: summary.failed,
        unverified: summary.unverified,
        exit_code: summary.exit_code(),
        reports,
    };
    let reported = Reported::new(report, summary.outcome());
    Ok(if context.stopped() { reported.stopped_by(HexError::Interrupted) } else { reported })
}

/// `check` marks a record whose check ended in an error failed; when that
/// error is the interruption (or the record rests on one that was cut
/// short, as an optimum on its claim), nothing was found wrong with it: it
/// is unverified.
fn mark_cut_short(reports: &mut [CheckReport]) {
    let (interrupted, why) =
        (HexError::Interrupted.to_string(), "interrupted (Ctrl-C) before its check was done: not verified");
    let mut cut: Vec<String> = Vec::new();
    for report in reports.iter_mut().filter(|r| r.status == Status::Failed) {
        let stopped_here = report.messages.iter().position(|m| *m == interrupted);
        if let Some(at) = stopped_here {
            report.messages[at] = why.into();
        } else if report.messages.iter().any(|m| names_any(m, &cut)) {
            // The line naming the record it rests on gave that record's status as check judged it.
            for m in report.messages.iter_mut().filter(|m| names_any(m, &cut)) {
                if let Some(line) = m.strip_suffix(Status::Failed.name()) {
                    *m = format!("{line}{}", Status::Unverified.name());
                }
            }
            report.messages.push(why.into());
        } else {
            continue;
        }
        report.status = Status::Unverified;
        cut.push(report.path.display().to_string());
    }
}

fn names_any(message: &str, paths: &[String]) -> bool {
    paths.iter().any(|path| message.contains(path.as_str()))
}

fn show(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}
