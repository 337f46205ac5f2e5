//! prove and certify: the commands that make certificates (`check.rs`
//! judges them).
//!
//! `certify` streams its text table: a row is printed as soon as its n's
//! optimum record is written, because one run can take hours and the rows
//! are its results so far (an interrupted run has shown every finished n).
//! Its report is still one typed value: printed whole at the end with
//! `--json`, and marked `streamed` for text so the table is not shown twice.

use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde::Serialize;

use super::report::{Reported, Rows};
use hexcert::certify::check_queue::Verifier;
use hexcert::certify::optimum::{certify_from_grid, certify_optimum_queued, OnReport, OptimumReport};
use hexcert::certify::prove::{prove as prove_claim, ProveOutcome};
use hexcert::certify::Settings;
use hexcert::context::RunContext;
use hexcert::error::HexError;
use hexcert::formats::to_hexcert_text;
use hexcert::geometry::Hexagon;
use hexcert::outcome::Outcome;
use hexcert::records::Claim;
use hexcert::search::SearchStep;
use hexcert::verify::check::{CheckReport, Status};

/// `prove`: the certified claim, or the counterexample that refutes it.
#[derive(Serialize)]
#[serde(untagged)]
pub enum ProveReport {
    Certified {
        certified: bool,
        directory: PathBuf,
        claim: Box<Claim>,
    },
    Counterexample {
        certified: bool,
        penalty: usize,
        counterexample: String,
        #[serde(skip)]
        level: u8,
    },
}

impl fmt::Display for ProveReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ProveReport::Certified { directory, claim, .. } => {
                writeln!(f, "proved: {}", claim.statement)?;
                let lrat = &claim.lrat;
                writeln!(
                    f,
                    "  solver {:.2} s; {} `{}` {:.2} s after the solver's answer ({:.2} s of CPU)",
                    claim.solver.seconds, lrat.checker, lrat.verdict, lrat.seconds_after_solve, lrat.cpu_seconds
                )?;
                for check in &claim.drat_checks {
                    writeln!(f, "  {} `{}` in {:.2} s", check.name, check.verdict, check.seconds)?;
                }
                let stored =
                    if claim.proof.stored_as.is_some() { "stored" } else { "not stored (over the limit; regenerable)" };
                // A proof far over the limit is never compressed, so it has no compressed size to show.
                let size = match claim.proof.compressed_bytes {
                    Some(bytes) => format!("{bytes} bytes compressed"),
                    None => format!("{} bytes (not compressed)", claim.proof.bytes),
                };
                writeln!(f, "  proof {size}, {stored}; certificate in {}", directory.display())
            }
            ProveReport::Counterexample { penalty, counterexample, level, .. } => {
                writeln!(f, "the claim is false: a valid level-{level} partial with penalty {penalty} exists")?;
                write!(f, "{counterexample}")
            }
        }
    }
}

pub fn prove(
    context: &RunContext,
    n: usize,
    level: u8,
    below: usize,
    settings: &Settings,
) -> Result<Reported, HexError> {
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::new(context);
    progress.working(format!("n={n}: proving no level-{level} partial below {below}, then checking"));
    let outcome = prove_claim(&hex, level, below, settings)?;
    drop(progress);
    Ok(match outcome {
        ProveOutcome::Certified { directory, claim } => {
            Reported::new(ProveReport::Certified { certified: true, directory, claim }, Outcome::Done)
        }
        ProveOutcome::Counterexample(found) => {
            let counterexample = to_hexcert_text(&found.partial);
            let report = ProveReport::Counterexample {
                certified: false,
                penalty: found.evaluation.penalty,
                counterexample,
                level,
            };
            Reported::new(report, Outcome::Negative)
        }
    })
}

/// `certify`: one optimum per n, in the order they were certified.
#[derive(Serialize)]
pub struct CertifyReport {
    optima: Vec<OptimumReport>,
}

const CERTIFY_HEADER: &str = "| n | optimum | level | level minima | wall s | final solve s | verdict after solve s | proof bytes (gz) | stored |\n|---|---|---|---|---|---|---|---|---|";

fn certify_row(report: &OptimumReport) -> String {
    // A level no stored witness reaches is "at least" its entry.
    let at_least = |level: usize| if report.unreached.contains(&(level as u8 + 1)) { ">=" } else { "" };
    let minima: Vec<String> =
        report.level_minima.iter().enumerate().map(|(i, m)| format!("{}{m}", at_least(i))).collect();
    let resumed = if report.resumed { " (earlier run)" } else { "" };
    format!(
        "| {} | {} | {} | {} | {:.1}{resumed} | {:.1} | {:.2} | {} | {} |",
        report.n,
        report.optimum,
        report.level,
        minima.join(" "),
        report.seconds,
        report.solve_seconds,
        report.check_seconds,
        report.proof_bytes,
        if report.proof_stored { "yes" } else { "claim only" }
    )
}

impl fmt::Display for CertifyReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "{CERTIFY_HEADER}")?;
        self.optima.iter().try_for_each(|report| writeln!(f, "{}", certify_row(report)))
    }
}

pub fn certify(
    json: bool,
    context: &RunContext,
    (first, last): (usize, usize),
    settings: &Settings,
) -> Result<Reported, HexError> {
    if first < 3 {
        // Checked before any work, so a range is rejected whole rather than stopping at its first n.
        return Err(HexError::Usage(format!(
            "certify takes n >= 3 (asked for {first}..={last}): sides 1 and 2 are outside the certified range"
        )));
    }
    let rows = Rows::start(json, CERTIFY_HEADER);
    // Checks run on the verifier thread while the search goes on; each n's
    // row is printed when its optimum record has been written.
    let verifier = Verifier::start(settings.abort.clone());
    let reports = Arc::new(Mutex::new(Vec::new()));
    for n in first..=last {
        let progress = crate::progress::Progress::new(context);
        let mut on_step = |s: &SearchStep| progress.step(n, s);
        let collected = Arc::clone(&reports);
        let on_report: OnReport = Box::new(move |report: OptimumReport| {
            rows.row(certify_row(&report));
            collected.lock().expect("reports").push(report);
        });
        if let Err(error) = certify_optimum_queued(n, settings, &verifier, &mut on_step, on_report) {
            return Err(verifier.finish_after(error));
        }
    }
    if verifier.pending() > 0 && context.progress() {
        eprintln!("waiting for {} queued task(s): proof checks and optimum records...", verifier.pending());
    }
    verifier.finish()?;
    let optima = std::mem::take(&mut *reports.lock().expect("reports"));
    // An optimum resting on attested cubes or on derivations VeriPB did not
    // check is not verified: 4, as `check` says.
    let attested: Vec<&OptimumReport> = optima.iter().filter(|r| !r.attested.is_empty()).collect();
    for report in &attested {
        eprintln!("n={}: optimum {} is attested, not verified: it rests on {} (cubes whose proofs this run did not check; `hexcert check --regenerate` checks them)",
            report.n, report.optimum, report.attested.join(", "));
    }
    let unchecked: Vec<&OptimumReport> = optima.iter().filter(|r| !r.derivation_unchecked.is_empty()).collect();
    for report in &unchecked {
        eprintln!("n={}: optimum {} is unverified in this run: {}, so the statement -> CNF derivations of {} were not checked (`hexcert check` says the same)",
            report.n, report.optimum, hexcert::proofs::veripb::Veripb::missing(), report.derivation_unchecked.join(", "));
    }
    let unreached: Vec<&OptimumReport> = optima.iter().filter(|r| !r.unreached.is_empty()).collect();
    for report in &unreached {
        let levels: Vec<String> = report.unreached.iter().map(u8::to_string).collect();
        eprintln!("n={}: optimum {} is unverified: no stored witness reaches the minimum of level {} (at least the value shown)",
            report.n, report.optimum, levels.join(", "));
    }
    let outcome = if attested.is_empty() && unchecked.is_empty() && unreached.is_empty() {
        Outcome::Done
    } else {
        Outcome::Unverified
    };
    Ok(rows.finish(Reported::new(CertifyReport { optima }, outcome)))
}

/// `certify --witness`: the optimum written from a given grid, and the
/// check of the record (and of the claims it rests on) that followed.
#[derive(Serialize)]
pub struct GridOptimumReport {
    optimum: OptimumReport,
    check: CheckReport,
}

impl fmt::Display for GridOptimumReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "{CERTIFY_HEADER}")?;
        writeln!(f, "{}", certify_row(&self.optimum))?;
        writeln!(f, "{}: {}", self.check.status.name(), self.check.path.display())?;
        self.check.messages.iter().try_for_each(|m| writeln!(f, "    {m}"))
    }
}

pub fn certify_witness(
    (first, last): (usize, usize),
    grid: &std::path::Path,
    settings: &Settings,
) -> Result<Reported, HexError> {
    if first != last {
        return Err(HexError::Usage(format!(
            "--witness rests one side's optimum on one grid: give one n, not {first}..={last}"
        )));
    }
    let (optimum, check) = certify_from_grid(first, grid, &settings.root)?;
    // The record is written either way: it is as good as the claims it
    // names, and `check` (as here) says which of them this run verified.
    let outcome = match check.status {
        Status::Verified => Outcome::Done,
        Status::Unverified => Outcome::Unverified,
        Status::Failed => Outcome::Negative,
    };
    Ok(Reported::new(GridOptimumReport { optimum, check }, outcome))
}

/// `export`: the directory written and its manifest.
#[derive(Serialize)]
pub struct ExportReport {
    directory: PathBuf,
    manifest: hexcert::verify::export::ExportManifest,
}

impl fmt::Display for ExportReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let m = &self.manifest;
        let cube = m
            .cube
            .as_ref()
            .map(|c| format!(" cube {} (cells {:?} at {:?})", c.index, c.cells, c.values))
            .unwrap_or_default();
        writeln!(f, "exported{cube} of `{}` to {}", m.statement, self.directory.display())?;
        for file in &m.files {
            let recorded = if file.recorded_sha256.is_some() { "the record's" } else { "no hash recorded" };
            writeln!(f, "  {} {} bytes, sha256 {} ({recorded})", file.name, file.bytes, file.sha256)?;
        }
        let lrat = &m.lrat;
        writeln!(
            f,
            "  re-solved in {:.1} s; {} {}: {} ({} steps, {:.1} s of CPU)",
            m.solve_seconds, lrat.checker, lrat.version, lrat.verdict, lrat.steps, lrat.cpu_seconds
        )?;
        writeln!(f, "  check in {}:", self.directory.display())?;
        m.commands.iter().try_for_each(|c| writeln!(f, "    {c}"))
    }
}

/// `export`: re-solves the claim (or the cube) with the run's stop flag polled.
pub fn export(
    context: &RunContext,
    claim: &std::path::Path,
    cube: Option<usize>,
    out: &std::path::Path,
) -> Result<Reported, HexError> {
    let progress = crate::progress::Progress::new(context);
    let what = cube.map(|c| format!("cube {c} of ")).unwrap_or_default();
    progress.working(format!("re-solving {what}{} with its proof checked as it is written", claim.display()));
    let solve_again = hexcert::certify::prove::SolveAgainUntil(context.stop_flag().clone());
    let manifest = hexcert::verify::export::export(claim, cube, out, &solve_again)?;
    drop(progress);
    Ok(Reported::new(ExportReport { directory: out.to_path_buf(), manifest }, Outcome::Done))
}
