//! `hexcert check` of a lifted count (`lift.json`, `records::lift`): the
//! listing it lifted judged by its own check, its partials read as the
//! lift read them, and, with `--regenerate`, the lift counted again.
//!
//! What a lift can be: a computation on certified inputs. Its inputs are
//! the listing's partials (a certificate, section 9 of docs/SOUNDNESS.md);
//! its program is `counting::extension`'s lift, cross-checked against the
//! sweep and the chains wherever they reach (n <= 12). So a plain check
//! attests the recorded count (exit 4), and `--regenerate` verifies that
//! this build's lift gives it again from the listing as it now stands.

use std::path::Path;

use crate::counting::{extended_from_listed, CountSettings, Via};
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::records::lift::LiftRecord;
use crate::records::{Record, Status};

/// What the caller's check says of a record: its status, and the leaders
/// a count's check read (`None` when it failed).
pub type CheckedRecord = (Status, Option<Vec<Partial>>);

/// Judges the lift record at `path`; `check_listing` checks the listing's
/// `count.json` (the caller's `check`) and hands back the leaders that check
/// read (`None` when it failed); `recount` lifts them again.
///
/// # Errors
///
/// `HexError::Input` when the listing is not a level-3 or level-4 listing
/// (below the record's level) of the record's side and penalty, its count is
/// not the one the record lifted, it failed its check, the record names an
/// unknown `via`, or the lift counted again differs; `HexError::Record` when
/// the listing's `count.json` cannot be read as a count record; the errors
/// of the lift.
pub fn check_lift(
    path: &Path,
    record: &LiftRecord,
    recount: bool,
    check_listing: &mut dyn FnMut(&Path) -> CheckedRecord,
    messages: &mut Vec<String>,
) -> Result<Status, HexError> {
    let bad = |why: String| HexError::Input { file: path.to_path_buf(), line: 0, message: why };
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
    let (listing_status, leaders) = check_listing(&listing);
    messages.push(format!("listing: {} ({} partials at {})", listing_status.name(), count.count, count.penalty));
    let leaders = leaders
        .ok_or_else(|| bad(format!("the listing {} failed its check: there is nothing to lift", listing.display())))?;
    let lift = if recount {
        let via = Via::named(&record.via)
            .ok_or_else(|| bad(format!("via {}: the lift counts by `lift` or `chains`", record.via)))?;
        let settings = CountSettings { via, ..CountSettings::default() };
        let hex = Hexagon::new(record.n)?;
        let listed = crate::orbits::orbit_members(&hex, count.level, count.penalty, &leaders)?;
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
        let below: usize =
            found.counts[..record.penalty].iter().filter(|c| **c > num_bigint::BigUint::default()).count();
        messages.push(match below {
            0 => format!(
                "minimum: no level-{} partial lies below {} (none in the lift of a listing of every partial up to it)",
                record.level, record.penalty
            ),
            _ => format!(
                "minimum: not {}: the lift finds level-{} partials at {below} penalties below it",
                record.penalty, record.level
            ),
        });
        Status::Verified
    } else {
        messages.push(format!(
            "lift: {} partials at level {}, as recorded (`check --regenerate` lifts again)",
            record.count, record.level
        ));
        Status::Unverified
    };
    Ok(listing_status.and(lift))
}
