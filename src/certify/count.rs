//! A certified count: every cube of the listing certified
//! (`listing::certified_cube`, or leaf by leaf, `leaf_tree`), the symmetry
//! classes closed into the count, and its record `count.json` naming the
//! claim below the minimum that it rests on.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::leaf_tree::{certified_in_leaves, leaves_dir, LeafSplit, OnLeaf};
use super::listing::certified_cube;
use crate::cubes::Split;
use crate::encoding::LevelEncoding;
use crate::error::AtPath;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::proofs::verified::VerifiedChecker;
use crate::records::leaders::{CountRecord, CubeLeaders, COUNT_FORMAT};
use crate::records::ledger::{Ledger, Parsed, Resumed};
use crate::search::leaders::Listing;
use crate::search::orbits::{orbit_count_listed, OrbitCount};

/// The count of `hex`'s level-`level` partials of penalty <= `bound`,
/// every cube of the listing certified (`certified_cube`; with `leaf_split`,
/// each cube not yet recorded leaf by leaf, `certified_in_leaves`),
/// resumable from the cube and leaf records in `dir`. `stop` (Ctrl-C) ends
/// it between cubes and stops the solver of a cube in flight, which then
/// writes nothing.
pub fn count_certified(
    hex: &Hexagon,
    (level, bound): (u8, usize),
    (dir, verified, leaf_split): (&Path, Option<&VerifiedChecker>, Option<LeafSplit>),
    stop: &Arc<AtomicBool>,
    (on_cube, on_leaf): (&(dyn Fn(usize, usize) + Sync), OnLeaf<'_>),
) -> Result<(OrbitCount, Listing), HexError> {
    // The DRAT twins of the cubes' traces, removed with the directory.
    let scratch = tempfile::tempdir().at_path(std::env::temp_dir())?;
    let resumed_leaves = Mutex::new(Resumed::default());
    let lister = |encoding: &LevelEncoding, split: &Split, cube: &[u8]| match leaf_split {
        Some(leaf_split) => certified_in_leaves(
            hex,
            (encoding, split, cube),
            (leaf_split, &leaves_dir(dir, split, cube)),
            (scratch.path(), verified),
            (stop, &resumed_leaves, on_leaf),
        ),
        None => {
            let stop = Arc::clone(stop);
            certified_cube(
                hex,
                (encoding, split, cube),
                &[],
                (scratch.path(), verified),
                (move || stop.load(Ordering::Relaxed), None),
            )
        }
    };
    let counted = orbit_count_listed(hex, (level, bound), Some(dir), (stop, on_cube), (&lister, true));
    // A cube's leaf records are its record's parts: once it is written they are copies.
    let split = Split::listing(hex, level)?;
    for index in 0..split.projection_count() {
        let leaves = leaves_dir(dir, &split, &split.projection(index));
        if leaves.is_dir() && Ledger::<CubeLeaders>::at(dir).path(&format!("cube-{index}")).is_file() {
            std::fs::remove_dir_all(&leaves).at_path(&leaves)?;
        }
    }
    let (count, mut listing) = counted?;
    listing.resumed_leaves = resumed_leaves.into_inner().expect("no panic while noting");
    Ok((count, listing))
}

/// The claim "no level-`level` partial below `penalty`" under `root`, which
/// a certified count at `penalty` rests on: asked for before the listing,
/// not found missing after hours of it. A claim of a lower level with that
/// bound serves as well (the highest there is): refining never lowers a
/// penalty (docs/PROBLEM.md, section 4), so none of the higher level lies
/// below it either.
pub fn minimum_claim(root: &Path, n: usize, level: u8, penalty: usize) -> Result<std::path::PathBuf, HexError> {
    claim_below(root, n, level, penalty).ok_or_else(|| {
        let how = format!("hexcert prove --n {n} --level {level} --below {penalty}");
        let path = root.join(format!("n{n}/level{level}-below{penalty}/claim.json"));
        HexError::Usage(format!("--certify --penalty {penalty} needs the claim below it, {} ({how})", path.display()))
    })
}

/// The claim a certified listing rests on, and the minimum it names: at
/// `penalty` (`--penalty`), `minimum_claim`'s; up to `bound` alone
/// (`--max-penalty`), the claim under `root` of the highest bound at most
/// `bound` (of `level` or a lower one), or none: the listing is then written
/// cube by cube, but no count record.
pub fn listing_claim(
    root: &Path,
    n: usize,
    level: u8,
    (penalty, bound): (Option<usize>, usize),
) -> Result<Option<(std::path::PathBuf, usize)>, HexError> {
    match penalty {
        Some(p) => Ok(Some((minimum_claim(root, n, level, p)?, p))),
        None => Ok((0..=bound).rev().find_map(|below| claim_below(root, n, level, below).map(|claim| (claim, below)))),
    }
}

/// A certified listing's directory is the cell its count record will name
/// (`records::leaders::count_cell`): `n<N>-level<K>-penalty<P>` at the
/// minimum, `n<N>-level<K>-upto<B>` past it (`minimum` below `bound`).
/// Asked before the listing, so that hours of it never end in a record
/// `check` refuses.
///
/// # Errors
///
/// `HexError::Usage` when `dir` is named otherwise.
pub fn check_listing_cell(dir: &Path, n: usize, level: u8, (bound, minimum): (usize, usize)) -> Result<(), HexError> {
    let cell = crate::records::leaders::count_cell(n, level, bound, (minimum < bound).then_some(minimum));
    if dir.file_name().is_some_and(|name| name.to_string_lossy() == cell) {
        return Ok(());
    }
    let what =
        if minimum < bound { format!("up to {bound} (past its minimum {minimum})") } else { format!("at {bound}") };
    Err(HexError::Usage(format!(
        "--leaders-dir {}: the certified listing of n = {n} level {level} {what} is kept in a directory named {cell}",
        dir.display()
    )))
}

fn claim_below(root: &Path, n: usize, level: u8, below: usize) -> Option<std::path::PathBuf> {
    (1..=level).rev().map(|k| root.join(format!("n{n}/level{k}-below{below}/claim.json"))).find(|path| path.is_file())
}

/// Writes `dir/count.json` for a finished certified listing of every
/// partial up to `penalty` (`by_penalty` from its leaders), whose least
/// penalty is `minimum`, naming `claim`, the claim below `minimum` (a path,
/// made relative to `dir`), and, when VeriPB is on PATH, its check of the
/// statement -> listing CNF step. Nothing is written (`Ok(None)`) when a
/// leader lies below `minimum` or none reaches it: then `minimum` is not the
/// level's minimum. A listing past the minimum (`minimum < penalty`) records
/// it, for the lift to a higher level's minimum. Returns the record's path.
pub fn write_count_record(
    dir: &Path,
    hex: &Hexagon,
    (level, penalty): (u8, usize),
    by_penalty: &[u64],
    (claim, minimum): (&Path, usize),
) -> Result<Option<std::path::PathBuf>, HexError> {
    let count = by_penalty.get(penalty).copied().unwrap_or(0);
    if by_penalty.iter().position(|&c| c > 0) != Some(minimum) {
        return Ok(None);
    }
    let split = Split::listing(hex, level)?;
    let ledger = Ledger::<CubeLeaders>::at(dir);
    let (mut leaders, mut seconds, mut cpu_seconds) = (0, 0.0, Some(0.0));
    for index in 0..split.projection_count() {
        if let Some(Parsed::Record(cube)) = ledger.read(&format!("cube-{index}")) {
            leaders += cube.leaders.len();
            seconds += cube.seconds;
            cpu_seconds = cpu_seconds.zip(cube.cpu_seconds).map(|(sum, cpu)| sum + cpu);
        }
    }
    let encoding = crate::records::leaders::listing_encoding(hex, level, penalty);
    let hash = crate::digest::sha256_hex(&encoding.cnf.to_dimacs());
    let path = dir.join("count.json");
    let derived =
        crate::verify::statement_to_cnf::derive_and_check(hex, level, penalty + 1, &encoding.options, &hash, &path)?;
    let record = CountRecord {
        format: COUNT_FORMAT.into(),
        n: hex.side(),
        level,
        penalty,
        minimum: (minimum < penalty).then_some(minimum),
        count: count.to_string(),
        leaders,
        cubes: split.projection_count() as usize,
        minimum_claim: crate::files::relative_to(dir, claim)?,
        statement_to_cnf: Some(derived),
        solve_seconds: seconds,
        solve_cpu_seconds: cpu_seconds,
        written_by: crate::run::attestation(),
    };
    crate::files::write_atomic(&path, &serde_json::to_vec_pretty(&record).expect("records serialise"))?;
    Ok(Some(path))
}
