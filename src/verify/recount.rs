//! `hexcert check` of a lifted count's classes: `classes.json` (the lift's
//! count of each class) held to the listing and to `lift.json`, and
//! `recount.json` (the classes a second road counted again,
//! `hexcert recount`) held to `classes.json`, class by class.
//!
//! What each proves. The classes: their least members are distinct
//! partials of the listing, each the least of its images under the 12
//! symmetries and with as many members as it has images, and the members
//! add up to the listing's count, so the classes are the listing's
//! partials, each once; the members times the counts add up to the lift's
//! count. The recount: each class it names counts, by the model counter
//! on the class's CNF (`recount::cnf`), what the lift counts; the classes
//! it has not recounted are reported as such, never as agreeing.

use std::collections::HashSet;
use std::path::Path;

use num_bigint::BigUint;

use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::Partial;
use crate::records::lift::LiftRecord;
use crate::records::recount::{LiftClasses, RecountRecord, RECOUNT_ENCODING};
use crate::recount::chosen;

/// Judges `classes.json` and `recount.json` beside the lift record at
/// `path`, when they are there, against the listing's partials `listed`
/// (as `verify::counts::listed_partials` reads them); says what it found.
///
/// # Errors
///
/// `HexError::Input` naming the file when its numbers are not the lift's,
/// a class is not one of the listing's (see the header), the sums are not
/// the lift's counts, a recounted class is not among those the recount was
/// to count, or a recount differs from the lift's count of its class;
/// `HexError::Record`/`Io` when a file cannot be read.
pub fn check_classes(
    path: &Path,
    record: &LiftRecord,
    (listed, floor): (&[(Partial, usize)], Option<&str>),
    messages: &mut Vec<String>,
) -> Result<(), HexError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let file = dir.join(LiftClasses::FILE);
    if !file.is_file() {
        messages
            .push("classes: no classes.json: the lift's count of each class is not recorded, none is recounted".into());
        return Ok(());
    }
    let classes: LiftClasses = crate::records::read_json(&file)?;
    check_class_rows(&file, &classes, record, listed)?;
    messages.push(format!(
        "classes: {} classes, each the least of its images in the listing, sum to the lift's count",
        classes.counts.len()
    ));
    let recount = dir.join(RecountRecord::FILE);
    if !recount.is_file() {
        messages.push(format!("recount: none (0 of {} classes recounted)", classes.counts.len()));
        return Ok(());
    }
    let recounted: RecountRecord = crate::records::read_json(&recount)?;
    let refined = match recounted.refined.is_empty() {
        true => None,
        false => Some(check_refined(dir, (&recount, &recounted), (record, &classes), floor)?),
    };
    let said = check_recount(&recount, &recounted, &classes, refined.as_ref().is_some_and(|(_, held)| *held))?;
    messages.extend(refined.map(|(said, _)| said));
    messages.push(said);
    Ok(())
}

/// The classes' rows against the listing and the lift's record.
fn check_class_rows(
    file: &Path,
    classes: &LiftClasses,
    record: &LiftRecord,
    listed: &[(Partial, usize)],
) -> Result<(), HexError> {
    let bad = |why: String| HexError::Input { file: file.to_path_buf(), line: 0, message: why };
    // Its format and columns were judged as it was read (`records::recount`).
    if (classes.n, classes.level, classes.penalty) != (record.n, record.level, record.penalty) {
        return Err(bad(format!("not the classes of n = {} level {} at {}", record.n, record.level, record.penalty)));
    }
    let rows = classes.leaders.len();
    if rows != record.classes {
        return Err(bad(format!("its columns are not {} rows each, one per class the lift counted", record.classes)));
    }
    let hex = Hexagon::new(record.n)?;
    let symmetries = hex.symmetries();
    let (mut seen, mut members, mut total) = (HashSet::new(), 0u128, BigUint::ZERO);
    for row in 0..rows {
        let index = classes.leaders[row];
        let (partial, penalty) =
            listed.get(index).ok_or_else(|| bad(format!("row {row}: no partial {index} in the listing")))?;
        let images: HashSet<Vec<u8>> = symmetries
            .iter()
            .map(|perm| {
                let mut image = vec![0; perm.len()];
                partial.values().iter().enumerate().for_each(|(c, &v)| image[perm[c]] = v);
                image
            })
            .collect();
        if !seen.insert(index) || images.iter().any(|image| image.as_slice() < partial.values()) {
            return Err(bad(format!("row {row}: partial {index} is named twice or is not the least of its images")));
        }
        if images.len() != classes.members[row] as usize || *penalty != classes.penalties[row] {
            return Err(bad(format!("row {row}: partial {index} has {} images and penalty {penalty}", images.len())));
        }
        let count: BigUint = classes.counts[row]
            .parse()
            .map_err(|_| bad(format!("row {row}: {:?} is no count", classes.counts[row])))?;
        members += u128::from(classes.members[row]);
        total += count * classes.members[row];
    }
    if members != listed.len() as u128 || total.to_string() != record.count {
        return Err(bad(format!(
            "the classes hold {members} partials of the listing's {} and count {total}, the lift {}",
            listed.len(),
            record.count
        )));
    }
    Ok(())
}

/// A recount against the classes: what `check` says of it.
fn check_recount(
    file: &Path,
    recount: &RecountRecord,
    classes: &LiftClasses,
    refined_held: bool,
) -> Result<String, HexError> {
    let bad = |why: String| HexError::Input { file: file.to_path_buf(), line: 0, message: why };
    // Its format, columns and sample were judged as it was read (`records::recount`).
    if (recount.n, recount.level, recount.penalty) != (classes.n, classes.level, classes.penalty) {
        return Err(bad(format!("not a recount of n = {} level {} at {}", classes.n, classes.level, classes.penalty)));
    }
    let done = recount.rows.len();
    let zero: Vec<bool> = classes.counts.iter().map(|c| c == "0").collect();
    let sample = recount.sample.zip(recount.seed);
    let wanted: HashSet<usize> = chosen(&zero, sample).into_iter().collect();
    if let Some(row) = recount.refined.iter().find(|&row| classes.counts.get(*row).is_none_or(|c| c != "0")) {
        return Err(bad(format!("row {row}: counts nothing at the level below, the lift counts some here")));
    }
    for (k, &row) in recount.rows.iter().chain(&recount.refined).enumerate() {
        if !wanted.contains(&row) {
            return Err(bad(format!("row {row} is not among the classes this recount draws")));
        }
        if k >= done {
            continue;
        }
        if recount.counts[k] != classes.counts[row] {
            return Err(bad(format!(
                "row {row} (partial {}): recounted {}, the lift counts {}",
                classes.leaders[row], recount.counts[k], classes.counts[row]
            )));
        }
    }
    let which = match sample {
        None => "of every class".to_string(),
        Some((sample, seed)) => format!(
            "of the {} classes the lift counts some refinement of and {} of the {} others drawn by seed {seed}",
            zero.iter().filter(|z| !**z).count(),
            sample.min(zero.iter().filter(|z| **z).count()),
            zero.iter().filter(|z| **z).count()
        ),
    };
    let refined = if refined_held { recount.refined.len() } else { 0 };
    let by_below = match refined {
        0 => String::new(),
        r => format!(" and {r} counting nothing at the level below"),
    };
    Ok(format!(
        "recount: {} of {} classes recounted, {done} by {} ({RECOUNT_ENCODING}){by_below}, each as the lift counts it; {} of the {} to recount ({which}) not recounted",
        done + refined,
        classes.counts.len(),
        recount.counter,
        wanted.len() - done - refined,
        wanted.len()
    ))
}

/// The recount's `refined` classes against the cell of the level below
/// (`recount::zeros_below`: both its roads count them nothing) and `floor`
/// (why no partial of the levels between lies below the penalty, as the
/// lift's check found it, `verify::lift`): what `check` says of them, and
/// whether they hold as recounted. Held only when both do: a class with a
/// refinement at this level and penalty has one at each level below of no
/// more penalty (docs/PROBLEM.md, section 4), and no less with the floor.
fn check_refined(
    dir: &Path,
    (file, recount): (&Path, &RecountRecord),
    (record, classes): (&LiftRecord, &LiftClasses),
    floor: Option<&str>,
) -> Result<(String, bool), HexError> {
    let refined = recount.refined.len();
    let below = record.level - 1;
    let Some((cell, zeros)) = crate::recount::zeros_below(dir, record, classes)? else {
        return Ok((
            format!("refined: {refined} classes said to count nothing at level {below}, with no lift, classes and recount of this listing at level {below} beside it: not recounted"),
            false,
        ));
    };
    if let Some(row) = recount.refined.iter().find(|row| !zeros.contains(row)) {
        return Err(HexError::Input {
            file: file.to_path_buf(),
            line: 0,
            message: format!(
                "row {row}: said to count nothing at level {below}, which {} does not say on both roads",
                cell.display()
            ),
        });
    }
    Ok(match floor {
        Some(floor) => (
            format!("refined: {refined} classes count nothing at level {below} on both roads ({}), and {floor}: none at level {}", cell.display(), record.level),
            true,
        ),
        None => (
            format!("refined: {refined} classes count nothing at level {below} ({}), but nothing here says no partial of the levels below lies under {}: not recounted", cell.display(), record.penalty),
            false,
        ),
    })
}
