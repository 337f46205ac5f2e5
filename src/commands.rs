//! Output of the certificate and picture commands: call the library, print
//! text or one JSON document, pick the exit code.

use std::path::{Path, PathBuf};

use hexcert::certification::check::{check_record, find_records, CheckReport};
use hexcert::certification::optimum::certify_optimum;
use hexcert::certification::prove::{prove as prove_claim, ProveOutcome};
use hexcert::certification::Settings;
use hexcert::error::HexError;
use hexcert::formats::{read_grid_file, to_hexcert_text};
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::proofs::claim::read_json;
use hexcert::proofs::Optimum;
use hexcert::solving::search::Step;
use hexcert::validation::evaluate;

pub fn prove(json: bool, n: usize, level: u8, below: usize, settings: &Settings) -> Result<u8, HexError> {
    let hex = Hexagon::new(n)?;
    match prove_claim(&hex, level, below, settings)? {
        ProveOutcome::Certified { directory, claim } => {
            if json {
                println!("{}", serde_json::json!({"certified": true, "directory": directory, "claim": claim}));
            } else {
                println!("proved: {}", claim.statement);
                println!("  solver {:.2} s, {} `{}` in {:.2} s", claim.solver.seconds, claim.checker.name, claim.checker.verdict, claim.checker.seconds);
                let stored = if claim.proof.stored_as.is_some() { "stored" } else { "not stored (over the limit; regenerable)" };
                println!("  proof {} bytes compressed, {stored}; certificate in {}", claim.proof.compressed_bytes.unwrap_or(0), directory.display());
            }
            Ok(0)
        }
        ProveOutcome::Counterexample(found) => {
            let text = to_hexcert_text(&found.partial);
            if json {
                println!("{}", serde_json::json!({"certified": false, "penalty": found.evaluation.penalty, "counterexample": text}));
            } else {
                println!("the claim is false: a valid level-{level} partial with penalty {} exists", found.evaluation.penalty);
                print!("{text}");
            }
            Ok(1)
        }
    }
}

pub fn certify(json: bool, quiet: bool, (first, last): (usize, usize), settings: &Settings) -> Result<u8, HexError> {
    let mut reports = Vec::new();
    if !json {
        println!("| n | optimum | level | level minima | wall s | final check s | proof bytes (gz) | stored |");
        println!("|---|---|---|---|---|---|---|---|");
    }
    for n in first..=last {
        let mut on_step = |s: &Step| {
            if !quiet && !json {
                let bound = s.max_penalty.map_or("free".into(), |b| b.to_string());
                let answer = s.found_penalty.map_or("UNSAT".into(), |p| format!("SAT, penalty {p}"));
                eprintln!("  n={n} level {} bound {bound}: {answer} ({:.2} s)", s.level, s.seconds);
            }
        };
        let report = certify_optimum(n, settings, &mut on_step)?;
        if !json {
            let minima: Vec<String> = report.level_minima.iter().map(|m| m.to_string()).collect();
            let resumed = if report.resumed { " (earlier run)" } else { "" };
            println!(
                "| {} | {} | {} | {} | {:.1}{resumed} | {:.1} | {} | {} |",
                report.n, report.optimum, report.level, minima.join(" "), report.seconds,
                report.check_seconds, report.proof_bytes, if report.proof_stored { "yes" } else { "claim only" }
            );
        }
        reports.push(report);
    }
    if json {
        println!("{}", serde_json::json!({"optima": reports}));
    }
    Ok(0)
}

pub fn check(json: bool, paths: &[PathBuf], regenerate: bool) -> Result<u8, HexError> {
    let paths = if paths.is_empty() { vec![PathBuf::from("proofs")] } else { paths.to_vec() };
    let mut records = find_records(&paths)?;
    // An optimum is only as good as its lower bound: check that claim too.
    for record in records.clone() {
        if record.file_name().is_some_and(|n| n == "optimum.json") {
            if let Ok(optimum) = read_json::<Optimum>(&record) {
                let claim = record.parent().unwrap_or(Path::new(".")).join(&optimum.lower_bound).join("claim.json");
                if !records.iter().any(|r| same_file(r, &claim)) {
                    records.push(claim);
                }
            }
        }
    }
    if records.is_empty() {
        return Err(HexError::Usage(format!("no claim.json or optimum.json under {}", show(&paths))));
    }
    let reports: Vec<CheckReport> = records.iter().map(|r| check_record(r, regenerate)).collect();
    let failed = reports.iter().filter(|r| r.passed == Some(false)).count();
    let skipped = reports.iter().filter(|r| r.passed.is_none()).count();
    if json {
        println!("{}", serde_json::json!({"reports": reports, "failed": failed, "skipped": skipped}));
    } else {
        for r in &reports {
            let tag = match r.passed { Some(true) => "ok", Some(false) => "FAILED", None => "skipped" };
            println!("{tag}: {}", r.path.display());
            for m in &r.messages {
                println!("    {m}");
            }
        }
        println!("{} checked, {failed} failed, {skipped} skipped", reports.len());
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

fn show(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}

pub fn render(json: bool, file: &Path, output: &Path, level: Option<u8>) -> Result<u8, HexError> {
    let partial = at_level(file, &read_grid_file(file, None)?.partial, level)?;
    let hex = Hexagon::new(partial.side())?;
    hexcert::files::write_atomic(output, hexcert::rendering::render_svg(&hex, &partial).as_bytes())?;
    let evaluation = evaluate(&hex, &partial);
    if json {
        println!("{}", serde_json::json!({"file": file, "output": output, "n": partial.side(),
            "level": partial.level(), "valid": evaluation.is_valid(),
            "penalty": evaluation.penalty, "score": evaluation.score}));
    } else {
        let score = evaluation.score.map_or(String::new(), |s| format!(" score {s}"));
        println!("{}: n={} level={} penalty {}{score} -> {}", file.display(), partial.side(), partial.level(), evaluation.penalty, output.display());
    }
    Ok(0)
}

/// A partial read from `file`, optionally seen at a lower level.
pub fn at_level(file: &Path, partial: &Partial, level: Option<u8>) -> Result<Partial, HexError> {
    match level {
        Some(k) => partial.truncate(k).map_err(|e| HexError::Input { file: file.into(), line: 0, message: e.to_string() }),
        None => Ok(partial.clone()),
    }
}
