//! `hexcert check` of a lifted count (`lift.json`, `records::lift`): the
//! record held to its cell, the listing it lifted judged by its own check,
//! its penalty held to the level's certified minimum, its partials read as
//! the lift read them, and, with `--regenerate`, the lift counted again.
//!
//! What a lift can be: a computation on certified inputs. Its inputs are
//! the listing's partials (a certificate, section 9 of docs/SOUNDNESS.md);
//! its program is `counting::extension`'s lift, cross-checked against the
//! sweep and the chains wherever they reach (n <= 12). So a plain check
//! attests the recorded count (exit 4), and `--regenerate` verifies that
//! this build's lift gives it again from the listing as it now stands.
//!
//! A lift is only ever of a level's minimum, the count of a table cell: the
//! minimum certified in proofs/ by the optimum of its side (`optimum.json`
//! beside the claim the listing rests on), whose check holds each level's
//! minimum to a claim below it and a stored witness at it (for a level
//! between two certified ones of equal value, the order of the levels;
//! `check::run`'s `check_level_minima`). The listing alone cannot make it
//! one: it bounds level 3 (or 4), and no level-K partial at the penalty is
//! stored in it.

use std::path::{Path, PathBuf};

use crate::counting::{extended_from_listed, CountSettings, Via};
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::records::leaders::CountRecord;
use crate::records::lift::LiftRecord;
use crate::records::{Record, Status};

/// What the caller's check says of a record: its status, and the leaders
/// a count's check read (`None` when it failed, or for another record).
pub type CheckedRecord = (Status, Option<Vec<Partial>>);

/// Judges the lift record at `path`; `check_record` checks a record (the
/// caller's `check`: the listing's `count.json`, the optimum that
/// certifies the minimum) and hands back the leaders a count's check read;
/// `recount` lifts them again.
///
/// # Errors
///
/// `HexError::Input` when the record is not in its cell's directory
/// (`LiftRecord::check_cell`), the listing is not a level-3 or level-4
/// listing (below the record's level) of the record's side and penalty, its
/// count is not the one the record lifted, it failed its check, the
/// penalty is not the level's certified minimum (`certifying_optimum`; the
/// lift counted again finding a partial below it or none at it), the record
/// names an unknown `via`, or the lift counted again differs;
/// `HexError::Record` when the listing's `count.json` or the optimum cannot
/// be read as their records; the errors of the lift.
pub fn check_lift(
    path: &Path,
    record: &LiftRecord,
    recount: bool,
    check_record: &mut dyn FnMut(&Path) -> CheckedRecord,
    messages: &mut Vec<String>,
) -> Result<Status, HexError> {
    let bad = |why: String| HexError::Input { file: path.to_path_buf(), line: 0, message: why };
    record.check_cell(path)?;
    let listing =
        crate::files::lexical(&path.parent().unwrap_or(Path::new(".")).join(&record.listing).join("count.json"));
    let Record::Count(count) = Record::read(&listing)? else {
        return Err(bad(format!("{} is not a count record (hexcert-count/1)", listing.display())));
    };
    if (count.n, count.penalty) != (record.n, record.penalty)
        || !(3..=4).contains(&count.level)
        || count.level >= record.level
    {
        return Err(bad(format!(
            "{} is not a level-3 or level-4 listing of n = {} at {} below level {}",
            listing.display(),
            record.n,
            record.penalty,
            record.level
        )));
    }
    if count.count != record.listing_count {
        return Err(bad(format!("the listing counts {}, the lift lifted {}", count.count, record.listing_count)));
    }
    if record.count == "0" {
        return Err(bad(format!("no level-{} partial at {}: it is no minimum", record.level, record.penalty)));
    }
    let optimum_status = minimum_status(&listing, (&count, record), recount, check_record, messages)?;
    let (listing_status, leaders) = check_record(&listing);
    messages.push(format!("listing: {} ({} partials at {})", listing_status.name(), count.count, count.penalty));
    let leaders = leaders
        .ok_or_else(|| bad(format!("the listing {} failed its check: there is nothing to lift", listing.display())))?;
    let hex = Hexagon::new(record.n)?;
    let listed = crate::orbits::orbit_members(&hex, count.level, count.penalty, &leaders)?;
    let floor = level_below_floor(&listing, &count, record);
    super::recount::check_classes(path, record, (&listed, floor.as_deref()), messages)?;
    let lift = if recount {
        let via = Via::named(&record.via)
            .ok_or_else(|| bad(format!("via {}: the lift counts by `lift` or `chains`", record.via)))?;
        let settings = CountSettings { via, ..CountSettings::default() };
        let found = extended_from_listed(&hex, (count.level, record.level), &listed, record.penalty, &settings)?;
        let again = found.counts[record.penalty].to_string();
        if again != record.count || found.classes != record.classes {
            return Err(bad(format!(
                "lifted again: {again} partials from {} classes, the record says {} from {}",
                found.classes, record.count, record.classes
            )));
        }
        messages.push(format!(
            "lift: level {} counted again in this run from the listing's {} classes: {again} partials",
            record.level, found.classes
        ));
        // The listing holds every level-3 (or 4) partial up to the penalty, and each below it refines one of them.
        if let Some(why) = off_minimum(record.level, record.penalty, &found.counts) {
            return Err(bad(why));
        }
        messages.push(format!(
            "minimum: no level-{} partial lies below {} (none in the lift of a listing of every partial up to it)",
            record.level, record.penalty
        ));
        Status::Verified
    } else {
        messages.push(format!(
            "lift: {} partials at level {}, as recorded (`check --regenerate` lifts again)",
            record.count, record.level
        ));
        Status::Unverified
    };
    Ok(optimum_status.and(listing_status).and(lift))
}

/// Why no partial of any level between the listing's and the lift's lies
/// below the lift's penalty, if anything here says so (a recount's
/// `refined` classes rest on it, at every level they were refined
/// through): the listing's own minimum (none of its level below it, so
/// none of a higher one either, docs/PROBLEM.md section 4) or the side's
/// optimum stating it for each of those levels. Judged by the listing's and
/// the optimum's own checks.
fn level_below_floor(listing: &Path, count: &CountRecord, record: &LiftRecord) -> Option<String> {
    if count.minimum() == record.penalty {
        return Some(format!("no level-{} partial lies below {} (the listing's minimum)", count.level, record.penalty));
    }
    let levels = count.level + 1..record.level;
    let optimum = levels
        .clone()
        .map(|level| certifying_optimum(listing, count, (level, record.penalty)).ok().flatten())
        .collect::<Option<Vec<_>>>()?;
    let shown = optimum.first().map_or_else(String::new, |path| path.display().to_string());
    Some(format!("levels {} to {} have minimum {} ({shown})", levels.start, levels.end - 1, record.penalty))
}

/// What certifies the lift's penalty as its level's minimum, in this run:
/// the side's optimum as its check judges it, or, with no optimum yet, the
/// lift itself when it is lifted again (`recount`), else only the record.
fn minimum_status(
    listing: &Path,
    (count, record): (&CountRecord, &LiftRecord),
    recount: bool,
    check_record: &mut dyn FnMut(&Path) -> CheckedRecord,
    messages: &mut Vec<String>,
) -> Result<Status, HexError> {
    // Without an optimum of the side the lift proves its minimum itself, but only when it is lifted again.
    Ok(match certifying_optimum(listing, count, (record.level, record.penalty))? {
        Some(optimum) => {
            let (status, _) = check_record(&optimum);
            messages.push(format!(
                "minimum: level {}'s minimum {}, certified by {} (a claim below it, a stored witness at it): {}",
                record.level,
                record.penalty,
                optimum.display(),
                status.name()
            ));
            status
        }
        None if recount => Status::Verified,
        None => {
            messages.push(format!(
                "minimum: no optimum of n = {} states level {}'s minimum: {} as recorded (`check --regenerate` proves it by lifting again)",
                record.n, record.level, record.penalty
            ));
            Status::Unverified
        }
    })
}

/// The optimum that certifies `penalty` as level `level`'s minimum for a
/// lift of the listing whose record `count` is read from `listing`: the
/// `optimum.json` of the side's directory, beside the claim the listing
/// rests on, whose `level_minima` states exactly `penalty` at `level`. What
/// it states is judged here; its own check (run by `check`) judges whether
/// the claims and witnesses beside it certify it. `None` when the side has
/// no optimum yet: then only the lift itself can show `penalty` is the
/// minimum (`off_minimum` on a lift of a listing of every partial up to
/// it: one below would refine to a listed one). `count --record-to`
/// refuses a lift this refuses.
///
/// # Errors
///
/// `HexError::Input` naming the optimum's path when it states another
/// minimum for the level;
/// `HexError::Io` or `HexError::Record` when it cannot be read as an optimum.
pub fn certifying_optimum(
    listing: &Path,
    count: &CountRecord,
    (level, penalty): (u8, usize),
) -> Result<Option<PathBuf>, HexError> {
    let claim = crate::files::lexical(&listing.parent().unwrap_or(Path::new(".")).join(&count.minimum_claim));
    // The claim lives in n<N>/level<K>-below<B>/claim.json: the optimum of the side is n<N>/optimum.json.
    let side = claim.parent().and_then(Path::parent).unwrap_or(Path::new("."));
    let path = side.join("optimum.json");
    let bad = |why: String| HexError::Input { file: path.clone(), line: 0, message: why };
    if !path.is_file() {
        return Ok(None);
    }
    let Record::Optimum(optimum) = Record::read(&path)? else {
        return Err(bad("not an optimum record (hexcert-optimum/1)".into()));
    };
    let stated = optimum.level_minima.get(usize::from(level) - 1).copied();
    if optimum.n != count.n || stated != Some(penalty) {
        let stated = stated.map_or_else(|| "none".to_string(), |m| m.to_string());
        return Err(bad(format!(
            "the optimum of n = {} states level {level}'s minimum {stated}: a lift of n = {} to level {level} at {penalty} is not its count at the minimum",
            optimum.n, count.n
        )));
    }
    Ok(Some(path))
}

/// Why a lift's counts (`counts[p]`: level-`level` partials of penalty `p`,
/// every one up to `penalty`) say `penalty` is not the level's minimum: a
/// partial below it, or none at it. `None` when they agree it is.
pub fn off_minimum(level: u8, penalty: usize, counts: &[num_bigint::BigUint]) -> Option<String> {
    let zero = num_bigint::BigUint::default();
    if let Some(below) = counts.iter().take(penalty).position(|c| *c > zero) {
        return Some(format!(
            "{penalty} is not level {level}'s minimum: the lift finds level-{level} partials at {below}, below it"
        ));
    }
    (counts.get(penalty).is_none_or(|c| *c == zero))
        .then(|| format!("{penalty} is not level {level}'s minimum: the lift finds no level-{level} partial at it"))
}
