//! count and table: exact counts and the tables printed from them.

use hexcert::outcome::Outcome;
use hexcert::error::HexError;
use hexcert::geometry::Hexagon;
use hexcert::solving::Cadical;

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
