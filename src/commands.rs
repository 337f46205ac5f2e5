//! The commands: call the library, print text or one JSON document, pick
//! the exit code. `main.rs` only parses arguments and dispatches here.

use std::path::{Path, PathBuf};

use hexcert::certification::check::{check_paths_with, Regenerate, Summary};
use hexcert::outcome::Outcome;
use hexcert::certification::optimum::{certify_optimum_queued, OnReport, OptimumReport};
use hexcert::certification::verifier::Verifier;
use std::sync::{Arc, Mutex};
use hexcert::certification::prove::{prove as prove_claim, ProveOutcome, SolveAgain};
use hexcert::certification::Settings;
use hexcert::certification::cubes::{merge, plan_hash, progress, run_all, run_cube, CubeResult, CubeVerdict, RunLimits};
use hexcert::cubes::Plan;
use hexcert::error::HexError;
use hexcert::formats::{read_grid_file, to_hexcert_text};
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::search::Step;
use hexcert::derivation::Reach;
use hexcert::encoding::{Cardinality, EncodeOptions, LevelEncoding, SymmetryBreaking};
use hexcert::search::{minimize_through, solve_at_bound, LowerBoundProof, PlainOracle};
use hexcert::solving::Cadical;
use hexcert::validation::evaluate;
use hexcert::statement::Statement;

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

pub fn render(json: bool, file: &Path, output: &Path, level: Option<u8>) -> Result<Outcome, HexError> {
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
    Ok(Outcome::Done)
}

/// A partial read from `file`, optionally seen at a lower level.
pub fn at_level(file: &Path, partial: &Partial, level: Option<u8>) -> Result<Partial, HexError> {
    match level {
        Some(k) => partial.truncate(k).map_err(|e| HexError::Input { file: file.into(), line: 0, message: e.to_string() }),
        None => Ok(partial.clone()),
    }
}

/// Which table `hexcert table` prints.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum TableKind {
    /// Number of minimum-penalty partials at each level.
    Counts,
    /// Minimum penalty at each level.
    Penalties,
}

pub fn count(
    json: bool,
    quiet: bool,
    n: usize,
    level: u8,
    penalty: Option<usize>,
    max_penalty: Option<usize>,
    settings: &hexcert::counting::Settings,
) -> Result<Outcome, HexError> {
    use hexcert::counting::{count_at_in, count_by_penalty_in, minimum_and_count_in, Method};
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::new(quiet || json);
    progress.working(format!("n={n}: counting level-{level} partials"));
    let started = std::time::Instant::now();
    if let Some(bound) = max_penalty {
        let counts = count_by_penalty_in(&hex, level, bound, Method::default_for(level), settings)?;
        drop(progress);
        let seconds = started.elapsed().as_secs_f64();
        let list: Vec<String> = counts.counts.iter().map(|c| c.to_string()).collect();
        if json {
            println!("{}", serde_json::json!({"n": n, "level": level, "counts_by_penalty": list, "minimum": counts.minimum(), "seconds": seconds,
                "tables_loaded": tables_loaded_json(settings)}));
        } else {
            for (p, c) in list.iter().enumerate() {
                println!("n={n} level={level} penalty {p}: {c}");
            }
            tables_loaded_line(settings).into_iter().for_each(|line| println!("{line}"));
        }
        return Ok(Outcome::Done);
    }
    let at_minimum = penalty.is_none();
    let (penalty, count) = match penalty {
        Some(p) => (p, count_at_in(&hex, level, p, settings)?),
        None => minimum_and_count_in(&hex, level, settings)?,
    };
    drop(progress);
    let seconds = started.elapsed().as_secs_f64();
    if json {
        println!("{}", serde_json::json!({"n": n, "level": level, "penalty": penalty, "is_minimum": at_minimum,
            "count": count.to_string(), "seconds": seconds, "tables_loaded": tables_loaded_json(settings)}));
    } else {
        let what = if at_minimum { "minimum penalty" } else { "penalty" };
        println!("n={n} level={level} {what} {penalty}: {count} partials ({seconds:.2} s)");
        tables_loaded_line(settings).into_iter().for_each(|line| println!("{line}"));
    }
    Ok(Outcome::Done)
}

/// The line that names the checkpoint tables a count used instead of building them.
fn tables_loaded_line(settings: &hexcert::counting::Settings) -> Option<String> {
    let loaded = settings.tables_loaded();
    (!loaded.is_empty()).then(|| {
        let names: Vec<String> = loaded.iter().map(|p| p.display().to_string()).collect();
        format!("checkpoint tables loaded (this machine's cache, checked by hash only; docs/COUNTING.md): {}", names.join(", "))
    })
}

fn tables_loaded_json(settings: &hexcert::counting::Settings) -> Vec<String> {
    settings.tables_loaded().iter().map(|p| p.display().to_string()).collect()
}

/// How `count` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Road {
    Sweep,
    Sat,
    /// Level 4 at its minimum: the level-3 partials refined one by one.
    Refine,
}

/// `count --road refine`: the level-4 minimum and its count by refinement of
/// the level-3 partials (counting::level4_by_refinement).
pub fn count_refine(json: bool, quiet: bool, (n, level): (usize, u8), at: Option<usize>, settings: &hexcert::counting::Settings) -> Result<Outcome, HexError> {
    if level != 4 || at.is_some() {
        return Err(HexError::Usage("--road refine counts level 4 at its minimum (no --penalty or --max-penalty)".into()));
    }
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::new(quiet || json);
    progress.working(format!("n={n}: refining the level-3 partials to level 4"));
    let started = std::time::Instant::now();
    let found = hexcert::counting::level4_by_refinement(&hex, settings)?;
    drop(progress);
    let seconds = started.elapsed().as_secs_f64();
    if json {
        println!("{}", serde_json::json!({"n": n, "level": 4, "road": "refine", "penalty": found.minimum, "is_minimum": true,
            "count": found.count.to_string(), "level3_partials": found.level3_partials, "seconds": seconds,
            "tables_loaded": tables_loaded_json(settings)}));
    } else {
        println!("n={n} level=4 minimum penalty {}: {} partials (refine road: {} level-3 partials refined, {seconds:.2} s)",
            found.minimum, found.count, found.level3_partials);
        tables_loaded_line(settings).into_iter().for_each(|line| println!("{line}"));
    }
    Ok(Outcome::Done)
}


/// `count --road sat`: partials of penalty P (or of every penalty up to B)
/// through the lex-leaders the solver lists.
pub fn count_sat(json: bool, quiet: bool, n: usize, level: u8, penalty: Option<usize>, max_penalty: Option<usize>) -> Result<Outcome, HexError> {
    let Some(bound) = penalty.or(max_penalty) else {
        return Err(HexError::Usage("--road sat needs --penalty P or --max-penalty B".into()));
    };
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::new(quiet || json);
    progress.working(format!("n={n}: listing level-{level} lex-leaders of penalty <= {bound}"));
    let started = std::time::Instant::now();
    let found = hexcert::search::orbits::orbit_count::<Cadical>(&hex, level, bound, hexcert::options::SAT_ROAD_LEADERS.default)?;
    drop(progress);
    let seconds = started.elapsed().as_secs_f64();
    let shown: Vec<usize> = match penalty {
        Some(p) => vec![p],
        None => (0..=bound).collect(),
    };
    if json {
        let counts: Vec<String> = shown.iter().map(|&p| found.by_penalty[p].to_string()).collect();
        println!("{}", serde_json::json!({"n": n, "level": level, "road": "sat", "penalties": shown, "counts": counts,
            "leaders": found.leaders, "seconds": seconds}));
    } else {
        for &p in &shown {
            println!("n={n} level={level} penalty {p}: {} partials (sat road: {} lex-leaders, {seconds:.2} s)", found.by_penalty[p], found.leaders);
        }
    }
    Ok(Outcome::Done)
}

pub fn table(
    json: bool,
    quiet: bool,
    kind: TableKind,
    (first, last): (usize, usize),
    settings: &dyn Fn(usize) -> Result<hexcert::counting::Settings, HexError>,
) -> Result<Outcome, HexError> {
    use hexcert::counting::count_row_in;
    let mut rows = Vec::new();
    if !json {
        println!("| n | L1 | L2 | L3 | L4 | L5 | L6 | seconds per level |");
        println!("|---|---|---|---|---|---|---|---|");
    }
    let progress = crate::progress::Progress::new(quiet || json);
    for n in first..=last {
        progress.working(format!("n={n}: counting levels 1..6"));
        let row = count_row_in(&Hexagon::new(n)?, 6, &settings(n)?)?;
        progress.working(String::new());
        let cells: Vec<String> = row
            .iter()
            .map(|e| match kind {
                TableKind::Counts => e.count.to_string(),
                TableKind::Penalties => e.minimum.to_string(),
            })
            .collect();
        let times: Vec<String> = row.iter().map(|e| format!("{:.2}", e.elapsed.as_secs_f64())).collect();
        if json {
            rows.push(serde_json::json!({"n": n, "levels": row.iter().map(|e| serde_json::json!({
                "level": e.level, "minimum": e.minimum, "count": e.count.to_string(),
                "seconds": e.elapsed.as_secs_f64()})).collect::<Vec<_>>()}));
        } else {
            println!("| {n} | {} | {} |", cells.join(" | "), times.join(" "));
        }
    }
    if json {
        println!("{}", serde_json::json!({"table": match kind { TableKind::Counts => "counts", TableKind::Penalties => "penalties" }, "rows": rows}));
    }
    Ok(Outcome::Done)
}

pub fn encode(json: bool, n: usize, level: u8, options: EncodeOptions, output: Option<&Path>) -> Result<Outcome, HexError> {
    if json && output.is_none() {
        return Err(HexError::Usage("--json describes the formula on stdout: give the DIMACS file with -o".into()));
    }
    let hex = Hexagon::new(n)?;
    let cnf = LevelEncoding::new(&hex, level, options).cnf;
    let dimacs = cnf.to_dimacs();
    emit(output, &dimacs)?;
    if json {
        println!("{}", serde_json::json!({"n": n, "level": level, "max_penalty": options.max_penalty,
            "cardinality": options.cardinality, "symmetry": options.symmetry, "variables": cnf.num_vars(),
            "clauses": cnf.clauses().len(), "output": output, "sha256": hexcert::proofs::sha256_hex(&dimacs)}));
    }
    Ok(Outcome::Done)
}

pub fn statement(
    json: bool,
    n: usize,
    level: u8,
    below: usize,
    output: Option<&Path>,
    derivation: Option<(&Path, &Path, Reach)>,
    check: bool,
) -> Result<Outcome, HexError> {
    if json && output.is_none() {
        return Err(HexError::Usage("--json describes the statement on stdout: give the OPB file with -o".into()));
    }
    let hex = Hexagon::new(n)?;
    let statement = Statement::new(&hex, level, below);
    // Built before anything is written: a bad bound leaves no file behind.
    let target = derivation.map(|(_, _, reach)| reach.target(&hex, level, below)).transpose()?;
    match output {
        Some(path) => hexcert::files::write_atomic_with(path, |out| statement.write(&hex, out))?,
        None => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let to_stdout = |source| HexError::Io { path: "<stdout>".into(), source };
            statement.write(&hex, &mut out).map_err(to_stdout)?;
            std::io::Write::flush(&mut out).map_err(to_stdout)?;
        }
    }
    let mut summary = None;
    if let (Some((proof, target_path, reach)), Some(cnf)) = (derivation, &target) {
        hexcert::files::write_atomic_with(proof, |out| {
            summary = Some(reach.write(&hex, level, below, out)?);
            Ok(())
        })?;
        hexcert::files::write_atomic_with(target_path, |out| hexcert::derivation::write_cnf_as_opb(cnf, out))?;
    }
    // VeriPB's verdict: `None` when asked for but not on PATH (unverified, exit 4).
    let mut verdict = None;
    let mut outcome = Outcome::Done;
    if let (true, Some((proof, target_path, _)), Some(statement_path)) = (check, derivation, output) {
        match hexcert::proofs::veripb::Veripb::find() {
            Some(veripb) => {
                let found = veripb.check(statement_path, proof, target_path)?;
                outcome = if found.verified { Outcome::Done } else { Outcome::Negative };
                verdict = Some(found);
            }
            None => outcome = Outcome::Unverified,
        }
    }
    if let (true, Some(path)) = (json, output) {
        println!("{}", serde_json::json!({"n": n, "level": level, "below": below,
            "version": hexcert::statement::STATEMENT_VERSION, "variables": statement.variables.len(),
            "constraints": statement.constraints.len(), "output": path,
            "sha256": hexcert::proofs::sha256_file(path).map_err(|source| HexError::Io { path: path.to_path_buf(), source })?,
            "derivation": summary,
            "target_cnf_sha256": target.as_ref().map(|cnf| hexcert::proofs::sha256_hex(&cnf.to_dimacs())),
            "veripb": verdict, "exit_code": outcome.code()}));
    } else if check {
        match &verdict {
            Some(v) => println!("{}: `{}` in {:.1} s ({})", v.version, v.line, v.seconds, v.command),
            None => println!("unverified: veripb is not on PATH (cargo install veripb --locked)"),
        }
    }
    Ok(outcome)
}

pub fn solve(json: bool, n: usize, level: u8, options: EncodeOptions, output: Option<&Path>) -> Result<Outcome, HexError> {
    let hex = Hexagon::new(n)?;
    let Some(found) = solve_at_bound::<Cadical>(&hex, level, options)? else {
        if json {
            println!("{}", serde_json::json!({"n": n, "level": level, "satisfiable": false}));
        } else {
            println!("unsatisfiable: no valid level-{level} partial with penalty <= {}", options.max_penalty.unwrap_or(0));
        }
        return Ok(Outcome::Negative);
    };
    let text = to_hexcert_text(&found.partial);
    if let Some(path) = output {
        hexcert::files::write_atomic(path, text.as_bytes())?;
    }
    if json {
        println!("{}", serde_json::json!({"n": n, "level": level, "satisfiable": true,
            "penalty": found.evaluation.penalty, "grid": text}));
    } else {
        print!("{text}");
        println!("penalty {}", found.evaluation.penalty);
    }
    Ok(Outcome::Done)
}

pub fn verify(json: bool, file: &Path, level: Option<u8>, n: Option<usize>) -> Result<Outcome, HexError> {
    let grid = read_grid_file(file, n)?;
    let partial = at_level(file, &grid.partial, level)?;
    let hex = Hexagon::new(partial.side())?;
    let evaluation = evaluate(&hex, &partial);
    let sum: u64 = grid.partial.values().iter().map(|&v| u64::from(v)).sum();
    let score_ok = grid.stated_score.is_none_or(|s| s == sum);
    let ok = evaluation.is_valid() && score_ok;
    if json {
        let doc = serde_json::json!({
            "file": file, "n": partial.side(), "level": partial.level(), "valid": ok,
            "penalty": evaluation.penalty, "score": evaluation.score,
            "stated_sum": grid.stated_score, "sum": sum,
            "violations": evaluation.violations, "penalty_edges": evaluation.penalty_edges,
        });
        println!("{doc}");
    } else {
        for v in &evaluation.violations {
            println!("violation: cell ({}, {}) value {} does not see {:?}", v.row, v.column, show_value(v.value, partial.level()), v.missing);
        }
        if !score_ok {
            println!("stated score {} differs from the sum of values {sum}", grid.stated_score.unwrap_or(0));
        }
        let verdict = if ok { "valid" } else { "INVALID" };
        let score = evaluation.score.map_or(String::new(), |s| format!(" score {s}"));
        println!("{}: n={} level={} {verdict} penalty {}{score}", file.display(), partial.side(), partial.level(), evaluation.penalty);
    }
    Ok(if ok { Outcome::Done } else { Outcome::Negative })
}

fn show_value(value: u8, level: u8) -> String {
    if value == level + 1 && level < 6 { "+".into() } else { value.to_string() }
}

pub fn optimize(json: bool, quiet: bool, verbose: bool, n: usize, level: u8, cardinality: Cardinality, output: Option<&Path>) -> Result<Outcome, HexError> {
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::with_lines(quiet || json, verbose);
    let mut on_step = |s: &Step| progress.step(n, s);
    let template = EncodeOptions { max_penalty: None, cardinality, symmetry: SymmetryBreaking::None };
    let minima = minimize_through(&hex, level, &mut PlainOracle::<Cadical>::new(template), &mut on_step)?;
    let top = minima.last().expect("at least level 1");
    if let Some(path) = output {
        hexcert::files::write_atomic(path, to_hexcert_text(&top.witness.partial).as_bytes())?;
    }
    if json {
        let levels: Vec<_> = minima
            .iter()
            .map(|m| serde_json::json!({"level": m.level, "minimum": m.penalty, "proof": m.proof,
                "seconds": m.steps.iter().map(|s| s.seconds).sum::<f64>(), "steps": m.steps,
                "witness": to_hexcert_text(&m.witness.partial)}))
            .collect();
        println!("{}", serde_json::json!({"n": n, "levels": levels}));
        return Ok(Outcome::Done);
    }
    println!("n={n}");
    println!("| level | minimum | shown minimal by | seconds |");
    println!("|---|---|---|---|");
    for m in &minima {
        let why = match &m.proof {
            LowerBoundProof::UnsatAtLevel { level, max_penalty } => format!("level {level}, penalty <= {max_penalty} UNSAT"),
            LowerBoundProof::InheritedFromLevel { level } => format!("bound of level {level}"),
            LowerBoundProof::Zero => "penalty 0".into(),
        };
        let secs: f64 = m.steps.iter().map(|s| s.seconds).sum();
        println!("| {} | {} | {why} | {secs:.2} |", m.level, m.penalty);
    }
    print!("{}", to_hexcert_text(&top.witness.partial));
    Ok(Outcome::Done)
}

fn emit(output: Option<&Path>, bytes: &[u8]) -> Result<(), HexError> {
    match output {
        Some(path) => hexcert::files::write_atomic(path, bytes),
        None => {
            use std::io::Write;
            std::io::stdout().write_all(bytes).map_err(|source| HexError::Io { path: "<stdout>".into(), source })
        }
    }
}

pub fn cubes_plan(json: bool, plan: &Plan, output: &Path, results: &Path, hexcert: &str) -> Result<Outcome, HexError> {
    // The file is written only once the cover holds, checked from the cube list alone.
    plan.check_cover().map_err(|e| HexError::Internal(format!("the planned cubes do not cover the split: {e}")))?;
    let jobs = plan.write(output, results, hexcert)?;
    let hash = plan_hash(output)?;
    let (radius, depth) = (plan.radius, plan.depth);
    if json {
        println!("{}", serde_json::json!({"plan": output, "jobs": jobs, "sha256": hash, "cubes": plan.cubes.len(), "cells": plan.cells.len(), "cover": plan.cover}));
    } else {
        println!("{}: {} cubes for `{}`", output.display(), plan.cubes.len(), plan.statement);
        println!(
            "  split: {} cells within radius {radius} of the centre, values 1..={depth} and more; {} projections, {} refuted locally, {} covered by the cubes and their images",
            plan.cells.len(), plan.cover.projections, plan.cover.refuted, plan.cover.covered
        );
        println!("  plan sha256 {hash}");
        println!("  job list {} (one `cubes run --index I` per line; recipes/ runs it with GNU parallel, Slurm or Kubernetes)", jobs.display());
    }
    Ok(Outcome::Done)
}

pub fn cubes_run(
    json: bool,
    quiet: bool,
    plan_path: &Path,
    index: Option<usize>,
    jobs: usize,
    results: &Path,
    limits: RunLimits,
    abort: Arc<std::sync::atomic::AtomicBool>,
) -> Result<Outcome, HexError> {
    let plan = Plan::read(plan_path)?;
    let done: Vec<(usize, CubeResult)> = match index {
        Some(index) => vec![(index, run_cube(&plan, index, results, limits, &abort)?)],
        None => {
            let finished = std::sync::atomic::AtomicUsize::new(0);
            let report = |index: usize, result: &CubeResult, pending: usize| {
                let count = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                if !quiet && !json {
                    eprintln!("cube {index} ({count}/{pending} of this run): {:?} in {:.2} s", result.verdict, result.solve_seconds);
                }
            };
            run_all(&plan, results, jobs, limits, &abort, &report)?
        }
    };
    let counterexample = done.iter().find(|(_, r)| r.verdict == CubeVerdict::Counterexample);
    let unfinished = done.iter().filter(|(_, r)| r.verdict == CubeVerdict::Unfinished).count();
    if json {
        println!("{}", serde_json::json!({"solved": done.len(), "unfinished": unfinished, "results": results, "counterexample": counterexample.map(|(i, _)| i)}));
    } else {
        let seconds: f64 = done.iter().map(|(_, r)| r.solve_seconds).sum();
        println!("{} cube(s) run in this run ({seconds:.1} s of solving, {unfinished} stopped by the time limit); records in {}", done.len(), results.display());
        if let Some((index, found)) = counterexample {
            println!("cube {index} has a counterexample: the claim is false");
            print!("{}", found.counterexample.as_deref().unwrap_or(""));
        }
    }
    if abort.load(std::sync::atomic::Ordering::Relaxed) && counterexample.is_none() {
        return Err(HexError::Interrupted);
    }
    Ok(if counterexample.is_some() { Outcome::Negative } else { Outcome::Done })
}

/// Writes `plan` refined at `which` (or at every unfinished cube) to `output`, with its job list.
/// How `cubes refine` splits a hard cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Strategy {
    /// Its split cells one value deeper, one cube per orbit.
    Value,
    /// A decision tree on the variables its proof prefixes learn about most.
    Prefix,
}

pub fn cubes_refine(
    json: bool,
    plan_path: &Path,
    which: &[usize],
    results: &Path,
    output: &Path,
    hexcert: &str,
    strategy: Strategy,
    prefix: hexcert::solving::prefix::PrefixSettings,
) -> Result<Outcome, HexError> {
    let plan = Plan::read(plan_path)?;
    let which = if which.is_empty() { progress(&plan, results)?.unfinished } else { which.to_vec() };
    if which.is_empty() {
        return Err(HexError::Usage(format!("no cube of {} is unfinished in {}: name cubes with --cube", plan_path.display(), results.display())));
    }
    let refined = match strategy {
        Strategy::Value => {
            let (refined, refuted) = plan.refine(&which)?;
            if !json {
                println!("refined {} cube(s) one value deeper ({refuted} refinements refuted locally): {} cubes become {}", which.len(), plan.cubes.len(), refined.cubes.len());
            }
            refined
        }
        Strategy::Prefix => {
            let grown = hexcert::solving::prefix::grow_all(&plan, &which, prefix)?;
            if !json {
                for (i, tree) in &grown {
                    println!("cube {i}: {} leaves ({} settled by their prefix), {} prefix runs of {} conflicts", tree.leaves.len(), tree.settled, tree.runs, prefix.conflicts);
                }
            }
            let trees: Vec<(usize, Vec<Vec<i32>>)> = grown.into_iter().map(|(i, g)| (i, g.leaves)).collect();
            plan.grow_trees(&trees)?
        }
    };
    cubes_plan(json, &refined, output, results, hexcert)
}

/// Checks a finished plan and writes its claim.
pub fn cubes_merge(json: bool, plan_path: &Path, results: &Path, root: &Path) -> Result<Outcome, HexError> {
    let plan = Plan::read(plan_path)?;
    let claim = merge(&plan, results, root)?;
    let merged: hexcert::records::CubeClaim = hexcert::records::read_json(&claim)?;
    let attested = merged.attested.as_ref().map_or(0, Vec::len);
    let checked = plan.cubes.len() - attested;
    if json {
        println!("{}", serde_json::json!({"claim": claim, "cubes": plan.cubes.len(), "checked": checked, "attested": attested}));
    } else {
        println!("{}: `{}` from {} refuted cubes: {checked} checked in this run, {attested} attested (no proof stored); check it with `hexcert check {}`",
            claim.display(), plan.statement, plan.cubes.len(), claim.display());
    }
    // Merged, but resting on attested cubes: not verified (4, as `check` says).
    Ok(if attested == 0 { Outcome::Done } else { Outcome::Unverified })
}

pub fn cubes_status(json: bool, plan_path: &Path, results: &Path, machines: usize) -> Result<Outcome, HexError> {
    let plan = Plan::read(plan_path)?;
    let cover = plan.check_cover();
    let hash = plan_hash(plan_path)?;
    let found = progress(&plan, results)?;
    let mut sorted = found.seconds.clone();
    sorted.sort_by(f64::total_cmp);
    let total: f64 = sorted.iter().sum();
    let percentile = |p: f64| if sorted.is_empty() { 0.0 } else { sorted[((sorted.len() - 1) as f64 * p).round() as usize] };
    let slowest = sorted.last().copied().unwrap_or(0.0);
    // Remaining cubes estimated at the mean so far; a machine never does less than the slowest cube.
    let mean = if sorted.is_empty() { 0.0 } else { total / sorted.len() as f64 };
    let remaining = (found.missing.len() + found.unfinished.len()) as f64 * mean;
    let predicted = ((total + remaining) / machines.max(1) as f64).max(slowest);
    let failed = cover.is_err() || !found.rejected.is_empty() || !found.counterexamples.is_empty();
    if json {
        println!("{}", serde_json::json!({
            "plan": plan_path, "sha256": hash, "cover": cover.as_ref().map(|c| serde_json::json!(c)).unwrap_or_else(|e| serde_json::json!({"error": e})),
            "progress": found, "solve_seconds_total": total, "median": percentile(0.5), "p90": percentile(0.9), "p99": percentile(0.99),
            "slowest": slowest, "machines": machines, "predicted_wall_seconds": predicted,
        }));
    } else {
        match &cover {
            Ok(c) => println!("cover: verified ({} projections: {} refuted locally, {} images of the {} cubes)", c.projections, c.refuted, c.covered, plan.cubes.len()),
            Err(e) => println!("cover: FAILED: {e}"),
        }
        println!("cubes: {} refuted and checked in this run, {} refuted and attested (no proof stored), {} without a record, {} unfinished, {} rejected, {} with a counterexample (of {})",
            found.checked.len(), found.attested.len(), found.missing.len(), found.unfinished.len(), found.rejected.len(), found.counterexamples.len(), found.cubes);
        for index in &found.attested {
            println!("  cube {index}: attested by the run that wrote it, not checked here");
        }
        if !found.unfinished.is_empty() {
            println!("  unfinished (stopped by a time limit; `cubes refine` splits them): {:?}", found.unfinished);
        }
        for (index, why) in &found.rejected {
            println!("  cube {index}: rejected: {why}");
        }
        for index in &found.counterexamples {
            println!("  cube {index}: counterexample (the claim is false)");
        }
        println!("solve seconds: total {total:.1}, median {:.2}, p90 {:.2}, p99 {:.2}, slowest {slowest:.2}", percentile(0.5), percentile(0.9), percentile(0.99));
        println!("predicted wall on {machines} machines: {predicted:.0} s{}", if found.missing.is_empty() { "" } else { " (unsolved cubes at the mean so far)" });
    }
    let open = !found.missing.is_empty() || !found.unfinished.is_empty() || !found.attested.is_empty();
    Ok(if failed { Outcome::Negative } else if open { Outcome::Unverified } else { Outcome::Done })
}
