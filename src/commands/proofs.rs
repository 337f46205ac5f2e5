//! prove, certify and check: the commands that make or judge certificates.

use std::path::PathBuf;

use hexcert::certification::check::{check_paths_with, Regenerate, Summary};
use hexcert::outcome::Outcome;
use hexcert::certification::optimum::{certify_optimum_queued, OnReport, OptimumReport};
use hexcert::certification::verifier::Verifier;
use std::sync::{Arc, Mutex};
use hexcert::certification::prove::{prove as prove_claim, ProveOutcome, SolveAgain};
use hexcert::certification::Settings;
use hexcert::error::HexError;
use hexcert::formats::to_hexcert_text;
use hexcert::geometry::Hexagon;
use hexcert::search::Step;

pub fn prove(json: bool, quiet: bool, n: usize, level: u8, below: usize, settings: &Settings) -> Result<Outcome, HexError> {
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::new(quiet || json);
    progress.working(format!("n={n}: proving no level-{level} partial below {below}, then checking"));
    let outcome = prove_claim(&hex, level, below, settings)?;
    drop(progress);
    match outcome {
        ProveOutcome::Certified { directory, claim } => {
            if json {
                println!("{}", serde_json::json!({"certified": true, "directory": directory, "claim": claim}));
            } else {
                println!("proved: {}", claim.statement);
                println!(
                    "  solver {:.2} s; {} `{}` {:.2} s after the solver's answer ({:.2} s of CPU)",
                    claim.solver.seconds, claim.lrat.checker, claim.lrat.verdict, claim.lrat.seconds_after_solve, claim.lrat.cpu_seconds
                );
                for check in &claim.drat_checks {
                    println!("  {} `{}` in {:.2} s", check.name, check.verdict, check.seconds);
                }
                let stored = if claim.proof.stored_as.is_some() { "stored" } else { "not stored (over the limit; regenerable)" };
                println!("  proof {} bytes compressed, {stored}; certificate in {}", claim.proof.compressed_bytes.unwrap_or(0), directory.display());
            }
            Ok(Outcome::Done)
        }
        ProveOutcome::Counterexample(found) => {
            let text = to_hexcert_text(&found.partial);
            if json {
                println!("{}", serde_json::json!({"certified": false, "penalty": found.evaluation.penalty, "counterexample": text}));
            } else {
                println!("the claim is false: a valid level-{level} partial with penalty {} exists", found.evaluation.penalty);
                print!("{text}");
            }
            Ok(Outcome::Negative)
        }
    }
}

pub fn certify(json: bool, quiet: bool, verbose: bool, (first, last): (usize, usize), settings: &Settings) -> Result<Outcome, HexError> {
    if first < 3 {
        // Checked before any work, so a range is rejected whole rather than stopping at its first n.
        return Err(HexError::Usage(format!("certify takes n >= 3 (asked for {first}..={last}): sides 1 and 2 are outside the certified range")));
    }
    if !json {
        println!("| n | optimum | level | level minima | wall s | final solve s | verdict after solve s | proof bytes (gz) | stored |");
        println!("|---|---|---|---|---|---|---|---|---|");
    }
    // Checks run on the verifier thread while the search goes on; each n's
    // row is printed when its optimum record has been written.
    let verifier = Verifier::start(settings.abort.clone());
    let reports = Arc::new(Mutex::new(Vec::new()));
    for n in first..=last {
        let progress = crate::progress::Progress::with_lines(quiet || json, verbose);
        let mut on_step = |s: &Step| progress.step(n, s);
        let collected = Arc::clone(&reports);
        let on_report: OnReport = Box::new(move |report: OptimumReport| {
            if !json {
                print_certify_row(&report);
            }
            collected.lock().expect("reports").push(report);
        });
        certify_optimum_queued(n, settings, &verifier, &mut on_step, on_report)?;
    }
    if verifier.pending() > 0 && !quiet && !json {
        eprintln!("waiting for {} queued task(s): proof checks and optimum records...", verifier.pending());
    }
    verifier.finish()?;
    let reports = reports.lock().expect("reports");
    if json {
        println!("{}", serde_json::json!({"optima": *reports}));
    }
    // An optimum resting on attested cubes is not verified: 4, as `check` says.
    let attested: Vec<&OptimumReport> = reports.iter().filter(|r| !r.attested.is_empty()).collect();
    for report in &attested {
        eprintln!("n={}: optimum {} is attested, not verified: it rests on {} (cubes whose proofs this run did not check; `hexcert check --regenerate` checks them)",
            report.n, report.optimum, report.attested.join(", "));
    }
    Ok(if attested.is_empty() { Outcome::Done } else { Outcome::Unverified })
}

fn print_certify_row(report: &OptimumReport) {
    let minima: Vec<String> = report.level_minima.iter().map(|m| m.to_string()).collect();
    let resumed = if report.resumed { " (earlier run)" } else { "" };
    println!(
        "| {} | {} | {} | {} | {:.1}{resumed} | {:.1} | {:.2} | {} | {} |",
        report.n, report.optimum, report.level, minima.join(" "), report.seconds,
        report.solve_seconds, report.check_seconds, report.proof_bytes, if report.proof_stored { "yes" } else { "claim only" }
    );
}

pub fn check(json: bool, paths: &[PathBuf], regenerate: bool, veripb: bool, record: bool) -> Result<Outcome, HexError> {
    let paths = if paths.is_empty() { vec![PathBuf::from("proofs")] } else { paths.to_vec() };
    if record && hexcert::proofs::veripb::Veripb::find().is_none() {
        return Err(HexError::Usage("--record needs VeriPB on PATH (cargo install veripb --locked)".into()));
    }
    // The solver enters the check only here, and only when asked for.
    let regenerator: Option<&dyn Regenerate> = if regenerate { Some(&SolveAgain) } else { None };
    let reports = check_paths_with(&paths, regenerator, veripb, record)?;
    if reports.is_empty() {
        return Err(HexError::Usage(format!("no claim.json or optimum.json under {}", show(&paths))));
    }
    let summary = Summary::of(&reports);
    if json {
        println!("{}", serde_json::json!({"reports": reports, "verified": summary.verified,
            "failed": summary.failed, "unverified": summary.unverified, "exit_code": summary.exit_code()}));
    } else {
        for r in &reports {
            println!("{}: {}", r.status.name(), r.path.display());
            for m in &r.messages {
                println!("    {m}");
            }
        }
        println!("{} records: {} verified, {} failed, {} unverified", reports.len(), summary.verified, summary.failed, summary.unverified);
    }
    Ok(summary.outcome())
}

fn show(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}
