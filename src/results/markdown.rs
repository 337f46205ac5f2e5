//! The one printer of the results: Markdown blocks in a fixed order (sides
//! increasing, a side's claims by level then bound), each a block that
//! README.md or docs/RESULTS.md embeds by name (`embed`).

use std::fmt::Write;

use super::{ClaimEntry, ClaimRecord, CountEntry, Results, Side};
use crate::levels::FULL_LEVEL;
use crate::records::claim::one_line;
use crate::records::CheckerRecord;

/// The blocks, by the name their markers carry.
pub const BLOCKS: [&str; 3] = ["table", "claims", "counts"];

/// The block named `name` (one of `BLOCKS`).
pub fn block(results: &Results, name: &str) -> Option<String> {
    match name {
        "table" => Some(table(results)),
        "claims" => Some(claims(results)),
        "counts" => Some(counts(results)),
        _ => None,
    }
}

/// Every block, each under a heading naming it: what `hexcert table results` prints.
pub fn all(results: &Results) -> String {
    BLOCKS
        .iter()
        .map(|name| format!("## {name}\n\n{}", block(results, name).unwrap_or_default()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The results table: per side, levels 1..3's minima, the optimum (or best
/// grid), and each level's count at its minimum.
pub fn table(results: &Results) -> String {
    let mut out = String::from("| n | L1 | L2 | L3 | optimum | count L1 | L2 | L3 | L4 | L5 | L6 |\n");
    out.push_str("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for side in &results.sides {
        let mut cells: Vec<String> = Side::shown_levels().map(|level| level_cell(side, level)).collect();
        cells.push(optimum_cell(side));
        cells.extend((1..=FULL_LEVEL).map(|level| side.counts.get(&level).map_or_else(String::new, count_cell)));
        let _ = writeln!(out, "| {} | {} |", side.n, cells.join(" | "));
    }
    out
}

fn mark(value: usize, certified: bool, verified: bool) -> String {
    match (certified, verified) {
        (true, true) => format!("**{value}**ᵛ"),
        (true, false) => format!("**{value}**"),
        (false, _) => format!("≤{value}"),
    }
}

fn level_cell(side: &Side, level: u8) -> String {
    let Some(minimum) = side.minimum(level) else { return String::new() };
    let claim = side.lower_claim(level).filter(|_| minimum.certified);
    let mut cell = mark(minimum.value, minimum.certified, claim.is_some_and(|c| c.stated.verified()));
    if let Some(c) = claim.filter(|c| matches!(c.stated, ClaimRecord::Cubes(_))) {
        let _ = write!(cell, " ([cubes](proofs/{}))", c.dir);
    }
    cell
}

fn optimum_cell(side: &Side) -> String {
    if let Some(optimum) = &side.optimum {
        let bound = side.claims.iter().find(|c| c.dir == format!("n{}/{}", side.n, optimum.lower_bound));
        let cell = mark(optimum.optimum, bound.is_some(), bound.is_some_and(|c| c.stated.verified()));
        return format!("{cell} ([n{n}](proofs/n{n}))", n = side.n);
    }
    side.best_grid.as_ref().map_or_else(String::new, |(penalty, file)| format!("≤{penalty} ([grid]({file}))"))
}

fn count_cell(entry: &CountEntry) -> String {
    match entry {
        CountEntry::Listing { record, .. } => format!("{}ᶜ", record.count),
        CountEntry::Lift { record, recounted, .. } => format!("{}ˡ{}", record.count, if *recounted { "ʳ" } else { "" }),
        CountEntry::Computed(count) => count.clone(),
    }
}

/// One row per claim: what proved it and what checked it, as recorded.
pub fn claims(results: &Results) -> String {
    let mut out = String::from(
        "| claim | proof | hexcert | solver | solving s | LRAT checker | DRAT checkers | VeriPB (statement -> CNF) | cake_lpr | runs |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|---|---|\n");
    for claim in results.sides.iter().flat_map(|s| &s.claims) {
        let _ = writeln!(out, "| `{}` | {} |", claim.dir, claim_facts(claim).join(" | "));
    }
    out
}

fn claim_facts(claim: &ClaimEntry) -> Vec<String> {
    match &claim.stated {
        ClaimRecord::Whole(c) => vec![
            "one formula".into(),
            short_commit(&c.hexcert.git_commit),
            one_line(profile(&c.solver.options)),
            seconds(c.solver.seconds),
            lrat(c.lrat.verified, c.lrat.cpu_seconds),
            drat(&c.drat_checks),
            veripb(c.statement_to_cnf.as_ref()),
            verified(c.verified_lrat.iter()),
            "not recorded".into(),
        ],
        ClaimRecord::Cubes(c) => {
            let mut profiles: Vec<&str> =
                c.cubes.iter().map(|r| r.solver_profile.as_deref().unwrap_or("default options")).collect();
            profiles.sort_unstable();
            profiles.dedup();
            let mut hosts: Vec<&str> = c.cubes.iter().filter_map(|r| r.written_by.as_deref()).map(host).collect();
            hosts.sort_unstable();
            hosts.dedup();
            let attested = c.attested.as_ref().map_or(0, Vec::len);
            let checked = c.cubes.iter().all(|r| r.lrat.as_ref().is_some_and(|l| l.verified));
            vec![
                format!(
                    "{} cubes, slowest {} s{}",
                    c.cubes.len(),
                    seconds(c.slowest_cube_seconds),
                    attested_note(attested)
                ),
                short_commit(&c.hexcert.git_commit),
                one_line(&profiles.join(", ")),
                seconds(c.solve_seconds),
                lrat(checked, c.lrat_cpu_seconds),
                "none (cubes)".into(),
                veripb(c.statement_to_cnf.as_ref()),
                verified_cubes(c),
                if hosts.is_empty() { "not recorded".into() } else { one_line(&hosts.join(", ")) },
            ]
        }
    }
}

/// A solver's options as a record states them, to the profile's name
/// (`profile hexcert-2 (stabilize=0, walk=0)` -> `profile hexcert-2`).
fn profile(options: &str) -> &str {
    let end = [" (", ",", ";"].iter().filter_map(|cut| options.find(cut)).min().unwrap_or(options.len());
    &options[..end]
}

fn attested_note(attested: usize) -> String {
    if attested == 0 {
        String::new()
    } else {
        format!(", {attested} attested")
    }
}

fn short_commit(commit: &str) -> String {
    one_line(commit.get(..7).unwrap_or(commit))
}

/// Seconds as a reader compares them: whole seconds from 100 on, one decimal below.
fn seconds(s: f64) -> String {
    if s >= 100.0 {
        format!("{s:.0}")
    } else {
        format!("{s:.1}")
    }
}

fn lrat(verified: bool, cpu: f64) -> String {
    if verified {
        format!("verified, {} s CPU", seconds(cpu))
    } else {
        "NOT verified".into()
    }
}

fn drat(checks: &[CheckerRecord]) -> String {
    if checks.is_empty() {
        return "none".into();
    }
    checks.iter().map(|c| format!("{} ({} s)", one_line(&c.name), seconds(c.seconds))).collect::<Vec<_>>().join(", ")
}

fn veripb(step: Option<&crate::records::claim::StatementRecord>) -> String {
    match step.and_then(|s| s.veripb.as_ref().filter(|v| v.verified)) {
        Some(v) => format!("accepted ({} s)", seconds(v.seconds)),
        None => "not run".into(),
    }
}

/// cake_lpr's acceptances among `verdicts`: their seconds, and whether each is bound to what it read.
fn verified<'a>(verdicts: impl Iterator<Item = &'a CheckerRecord>) -> String {
    let accepted: Vec<&CheckerRecord> = verdicts.filter(|v| v.verified_acceptance()).collect();
    match accepted.as_slice() {
        [] => "none".into(),
        [one] => format!("accepted ({} s{})", seconds(one.seconds), if one.read.is_some() { "" } else { ", unbound" }),
        many => format!("{} accepted", many.len()),
    }
}

fn verified_cubes(claim: &crate::records::CubeClaim) -> String {
    let verdicts: Vec<&CheckerRecord> =
        claim.cubes.iter().filter_map(|r| r.verified_lrat.as_ref()).filter(|v| v.verified_acceptance()).collect();
    if verdicts.is_empty() {
        return "none".into();
    }
    let unbound = verdicts.iter().filter(|v| v.read.is_none()).count();
    let total: f64 = verdicts.iter().map(|v| v.seconds).sum();
    let unbound = if unbound == 0 { String::new() } else { format!(", {unbound} unbound") };
    format!("{} of {} cubes ({} s{unbound})", verdicts.len(), claim.cubes.len(), seconds(total))
}

/// The machine of a `written_by`: an attestation's host (`HOST run ID ...`),
/// or a run id's (`HOST-TOKEN-PID`).
fn host(written_by: &str) -> &str {
    match written_by.split_once(" run ") {
        Some((host, _)) => host,
        None => written_by.rsplitn(3, '-').last().unwrap_or(written_by),
    }
}

/// One row per count record at a minimum, and the computed table's run.
pub fn counts(results: &Results) -> String {
    let mut out =
        String::from("| count | road | partials | what was listed or lifted | solving s | VeriPB | run on |\n");
    out.push_str("|---|---|---|---|---|---|---|\n");
    for side in &results.sides {
        for entry in side.counts.values() {
            match entry {
                CountEntry::Listing { dir, record } => {
                    let _ = writeln!(
                        out,
                        "| `{dir}` | certified listing | {} | {} lex-leaders in {} cubes | {} | {} | {} |",
                        record.count,
                        record.leaders,
                        record.cubes,
                        seconds(record.solve_cpu_seconds.unwrap_or(record.solve_seconds)),
                        veripb(record.statement_to_cnf.as_ref()),
                        one_line(host(&record.written_by)),
                    );
                }
                CountEntry::Lift { dir, record, .. } => {
                    let _ = writeln!(
                        out,
                        "| `{dir}` | lift (`{}`) | {} | {} classes of `{}` ({} partials) | {} | - | {} |",
                        one_line(&record.via),
                        record.count,
                        record.classes,
                        one_line(&record.listing),
                        record.listing_count,
                        seconds(record.seconds),
                        one_line(host(&record.written_by)),
                    );
                }
                CountEntry::Computed(_) => {}
            }
        }
    }
    if let Some((path, table)) = &results.table {
        let sides: Vec<String> = table.rows.iter().map(|r| r.n.to_string()).collect();
        let _ = writeln!(
            out,
            "\nThe counts of n = {} (unmarked in the table) are `{path}`, computed by `{}` in {} s (hexcert {}, on {}{}).",
            sides.join(", "),
            one_line(&table.command),
            seconds(table.seconds),
            short_commit(&table.hexcert.git_commit),
            one_line(host(&table.written_by)),
            if table.tables_loaded.is_empty() {
                String::new()
            } else {
                format!(", from {} checkpoint tables an earlier run built", table.tables_loaded.len())
            },
        );
    }
    out
}
