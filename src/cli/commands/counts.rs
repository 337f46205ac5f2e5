//! count: exact counts, by the sweep, frontier, extension and sat roads,
//! each reported as one `CountReport` (count_report.rs); `table` (table.rs)
//! prints rows of them.

use std::path::Path;

use super::count_report::{CountReport, CubeListing, Road};
use super::report::Reported;
use hexcert::context::RunContext;
use hexcert::error::HexError;
use hexcert::geometry::Hexagon;
use hexcert::outcome::Outcome;

/// Done, or unverified when part of the result is an earlier run's word
/// (loaded tables, resumed pieces or cubes).
pub(super) fn outcome(earlier_runs: bool) -> Outcome {
    if earlier_runs {
        Outcome::Unverified
    } else {
        Outcome::Done
    }
}

/// `count` on the sweep road, or (`road` frontier) on the sweep at levels 5
/// and 6 themselves instead of the chain products over level 4.
pub fn count(
    context: &RunContext,
    (n, level, road): (usize, u8, Road),
    penalty: Option<usize>,
    max_penalty: Option<usize>,
    settings: &hexcert::counting::CountSettings,
) -> Result<Reported, HexError> {
    use hexcert::counting::{Count, Method};
    let method = match road {
        Road::Frontier if level < 5 => {
            return Err(HexError::Usage(format!(
                "--road frontier counts levels 5 and 6 (level {level} is the sweep road already)"
            )));
        }
        Road::Frontier if penalty.or(max_penalty).is_none() => {
            return Err(HexError::Usage("--road frontier needs --penalty P or --max-penalty B".into()));
        }
        Road::Frontier => Method::Frontier,
        _ => Method::default_for(level),
    };
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::new(context);
    progress.working(format!("n={n}: counting level-{level} partials"));
    let started = std::time::Instant::now();
    let query = Count::new(&hex, level).with_method(method).with_settings(settings.clone());
    let (counts, minimum_known) = match penalty.or(max_penalty) {
        Some(bound) => (asked(&query.by_penalty(bound)?.counts, penalty), false),
        None => {
            let (p, count) = query.minimum_and_count()?;
            (vec![(p, count.to_string())], true)
        }
    };
    drop(progress);
    let mut report = CountReport::new(n, level, road, counts, started.elapsed().as_secs_f64());
    report.up_to = max_penalty.is_some();
    report.minimum = if report.up_to || minimum_known { report.first_found() } else { None };
    report.tables_loaded = tables_loaded(settings);
    let outcome = outcome(!report.tables_loaded.is_empty());
    Ok(Reported::new(report, outcome))
}

/// The checkpoint tables a count used instead of building them.
pub(super) fn tables_loaded(settings: &hexcert::counting::CountSettings) -> Vec<String> {
    settings.tables_loaded().iter().map(|p| p.display().to_string()).collect()
}

/// `count --road extension`: level-2..6 counts by refinement of the partials
/// of the level below: the minimum and its count, or (`--penalty P`,
/// `--max-penalty B`) the counts up to a bound (counting::extension).
pub fn count_extension(
    context: &RunContext,
    (n, level): (usize, u8),
    (penalty, max_penalty): (Option<usize>, Option<usize>),
    settings: &hexcert::counting::CountSettings,
) -> Result<Reported, HexError> {
    let hex = Hexagon::new(n)?;
    let progress = crate::progress::Progress::new(context);
    progress.working(format!("n={n}: refining the level-{} partials to level {level}", level.saturating_sub(1)));
    let started = std::time::Instant::now();
    let (counts, minimum, refined, pieces) = match penalty.or(max_penalty) {
        None => {
            let found = hexcert::counting::Count::new(&hex, level).with_settings(settings.clone()).extended()?;
            (
                vec![(found.minimum, found.count.to_string())],
                Some(found.minimum),
                (found.refined, found.classes),
                found.pieces,
            )
        }
        Some(bound) => {
            let found = hexcert::counting::Count::new(&hex, level)
                .with_settings(settings.clone())
                .extended_by_penalty(bound)?;
            (asked(&found.counts, penalty), None, (found.refined, found.classes), found.pieces)
        }
    };
    drop(progress);
    let mut report = CountReport::new(n, level, Road::Extension, counts, started.elapsed().as_secs_f64());
    report.up_to = max_penalty.is_some();
    report.minimum = if report.up_to { report.first_found() } else { minimum };
    report.tables_loaded = tables_loaded(settings);
    let outcome = outcome(pieces.resumed.units > 0 || !report.tables_loaded.is_empty());
    report.refined(refined, settings, pieces);
    Ok(Reported::new(report, outcome))
}

/// `count --road extension --from-listing DIR`: levels 4..6 at a certified
/// level-3 listing's penalty (5 and 6 at a level-4 one's), each class of its partials lifted
/// (`counting::extended_from_listed`), its record written into `record_to`
/// when given. Unverified (exit 4): the listing's cube verdicts are
/// recorded ones.
pub fn count_lifted(
    context: &RunContext,
    (n, level): (usize, u8),
    (dir, record_to): (&Path, Option<&Path>),
    settings: &hexcert::counting::CountSettings,
) -> Result<Reported, HexError> {
    let started = std::time::Instant::now();
    let (record, listed) = hexcert::verify::counts::listed_partials(dir)?;
    if record.n != n {
        return Err(HexError::Usage(format!(
            "--from-listing needs a listing of n = {n}; {} is of n = {}",
            dir.display(),
            record.n
        )));
    }
    // Refused before the lift (hours at large n): a record `check` would fail is not written.
    if let Some(cell) = record_to {
        let cell_name = hexcert::records::leaders::count_cell(n, level, record.penalty, None);
        if cell.file_name().is_none_or(|name| name.to_string_lossy() != cell_name) {
            return Err(HexError::Usage(format!(
                "--record-to {}: the lift of n = {n} level {level} at {} is kept in a directory named {cell_name}",
                cell.display(),
                record.penalty
            )));
        }
        hexcert::verify::lift::certifying_optimum(&dir.join("count.json"), &record, (level, record.penalty))
            .map_err(|why| HexError::Usage(format!("--record-to: {why}")))?;
    }
    let progress = crate::progress::Progress::new(context);
    progress.working(format!(
        "n={n}: lifting the {} level-{} partials of penalty {} to level {level}",
        listed.len(),
        record.level,
        record.penalty
    ));
    let found = hexcert::counting::extended_from_listed(
        &Hexagon::new(n)?,
        (record.level, level),
        &listed,
        record.penalty,
        settings,
    )?;
    drop(progress);
    let mut report = CountReport::new(
        n,
        level,
        Road::Extension,
        asked(&found.counts, Some(record.penalty)),
        started.elapsed().as_secs_f64(),
    );
    report.refined((found.refined, found.classes), settings, found.pieces);
    if let Some(why) = record_to.and_then(|_| hexcert::verify::lift::off_minimum(level, record.penalty, &found.counts))
    {
        return Err(HexError::Usage(format!("--record-to: nothing written: {why}")));
    }
    if let Some(cell) = record_to {
        use hexcert::records::lift::{LiftRecord, LIFT_FORMAT};
        let (listing, penalty) = (hexcert::files::relative_to(cell, dir)?, record.penalty);
        let (count, seconds, via) =
            (found.counts[penalty].to_string(), report.seconds, report.refined_via.unwrap_or("lift").into());
        let (listing_count, written_by) = (record.count.clone(), hexcert::run::attestation());
        let record = LiftRecord {
            format: LIFT_FORMAT.into(),
            n,
            level,
            penalty,
            listing,
            listing_count,
            via,
            classes: found.classes,
            count,
            seconds,
            written_by,
        };
        super::recount::write_lift(&record, cell, &listed, found.by_class.as_deref())?;
    }
    Ok(Reported::new(report, Outcome::Unverified))
}

/// The counts a user asked for: the one at `penalty`, or else every one
/// (the counts run from penalty 0).
fn asked<T: ToString>(counts: &[T], penalty: Option<usize>) -> Vec<(usize, String)> {
    match penalty {
        Some(p) => vec![(p, counts[p].to_string())],
        None => counts.iter().map(T::to_string).enumerate().collect(),
    }
}

/// `count --road sat`: the request planned (a certified listing's claim
/// and directory checked before any solving), listed (the lex-leaders of
/// penalty <= P, closed under the symmetries), and, certified, recorded
/// (`hexcert::listing`).
#[cfg(feature = "solver")]
pub fn count_sat(context: &RunContext, request: hexcert::listing::ListingRequest) -> Result<Reported, HexError> {
    use hexcert::listing::{list, plan, record, ListingEvents};
    let plan = plan::make(request, Path::new("proofs"))?;
    let (n, level, bound) = (plan.request.n, plan.request.level, plan.bound());
    let progress = crate::progress::Progress::new(context);
    progress.working(format!("n={n}: listing level-{level} lex-leaders of penalty <= {bound}"));
    let started = std::time::Instant::now();
    let on_cube = |done: usize, total: usize| {
        progress.working(format!("n={n}: level-{level} lex-leaders of penalty <= {bound}, cube {done} of {total} done"))
    };
    let on_leaf = |cube: u64, path: &[i32], news| progress.event(format!("cube {cube}, leaf {path:?}: {news}"));
    let events = ListingEvents { stop: context.stop_flag(), on_cube: &on_cube, on_leaf: &on_leaf };
    let listed = list::run(&plan, &events)?;
    drop(progress);
    let penalty = plan.request.penalty.exact();
    let counts = asked(&listed.count.by_penalty, penalty);
    let mut report = CountReport::new(n, level, Road::Sat, counts, started.elapsed().as_secs_f64());
    report.leaders = Some(listed.count.leaders);
    report.minimum = if penalty.is_none() { report.first_found() } else { None };
    report.count_record = record::write(&plan, &listed.count.by_penalty)?;
    let resumed = listed.resumed();
    report.cubes = listed.cubes.map(CubeListing::of);
    Ok(Reported::new(report, outcome(resumed)))
}
