//! A cube listed leaf by leaf: the leaves of a decision tree on the
//! listing formula's penalty counter, each listed and proven complete on its
//! own (`refute::certified_cube`) and recorded as it finishes, so that a
//! cube longer than a session resumes per leaf; a leaf past its CPU limit
//! is split in two down the same tree (docs/SOUNDNESS.md, section 9).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::plan::LeafSplit;
use super::record::{judge_leaders, leaders_record};
use super::refute::certified_cube;
use crate::cubes::Split;
use crate::encoding::model::Found;
use crate::encoding::LevelEncoding;
use crate::error::AtPath;
use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::proofs::verified::VerifiedChecker;
use crate::records::leaders::{CubeLeaders, LeafListing};
use crate::records::ledger::{Ledger, Resumed};

/// What became of one leaf of a cube listed leaf by leaf (progress).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LeafNews {
    /// Listed and recorded in this run, with its leaders, wall seconds and
    /// the solver's CPU seconds.
    Listed { leaders: usize, seconds: f64, cpu_seconds: f64 },
    /// Read back from its record.
    Resumed,
    /// Stopped past its CPU limit (seconds) with that many leaders listed
    /// (an enumeration that splitting the budget cannot shorten, or not);
    /// its two halves follow.
    Split { limit: f64, leaders: usize },
}

impl std::fmt::Display for LeafNews {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LeafNews::Listed { leaders, seconds, cpu_seconds } => {
                write!(f, "listed, {leaders} leaders in {seconds:.1} s ({cpu_seconds:.1} s CPU)")
            }
            LeafNews::Resumed => write!(f, "read back from its record"),
            LeafNews::Split { limit, leaders } => {
                write!(f, "past its limit of {limit:.0} s, {leaders} leaders listed by then: split in two")
            }
        }
    }
}

/// Hears of each leaf of the cube of the index given, by its path.
pub type OnLeaf<'a> = &'a (dyn Fn(u64, &[i32], LeafNews) + Sync);

/// A leaf record's name: its path, so that a record found at any depth of
/// the tree is read back whatever depth a later run asks for.
fn leaf_name(path: &[i32]) -> String {
    std::iter::once("leaf".to_string()).chain(path.iter().map(i32::to_string)).collect::<Vec<_>>().join("_")
}

/// What a cube's leaves directory holds (`recorded_leaves`).
#[derive(Default)]
struct Recorded {
    /// The paths of its leaf records.
    leaves: Vec<Vec<i32>>,
    /// The paths of the nodes a run stopped past their limit.
    stopped: Vec<Vec<i32>>,
}

/// The paths of the leaf records in `dir`, and of the nodes a run stopped
/// past `--leaf-time-limit` (an empty `leaf_<path>.split` each, so that a
/// resumed run splits them at once instead of spending the limit again);
/// an error naming a file there that is neither (a record it would
/// silently pass over).
fn recorded_leaves(dir: &Path) -> Result<Recorded, HexError> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(Default::default()) };
    let (mut leaves, mut stopped) = (Vec::new(), Vec::new());
    for entry in entries {
        let file = entry.at_path(dir)?.path();
        let Some(name) = file.file_name().and_then(|n| n.to_str()) else { continue };
        let (stem, into) = match (name.strip_suffix(".json"), name.strip_suffix(".split")) {
            (Some(stem), _) => (stem, &mut leaves),
            (None, Some(stem)) => (stem, &mut stopped),
            (None, None) => continue,
        };
        let path: Option<Vec<i32>> =
            stem.strip_prefix("leaf").and_then(|rest| rest.split('_').skip(1).map(|l| l.parse().ok()).collect());
        match path {
            Some(path) if leaf_name(&path) == stem => into.push(path),
            _ => {
                return Err(HexError::Input {
                    file,
                    line: 0,
                    message: "not a leaf record's name (leaf_<literal>_<literal>....json, or .split)".into(),
                })
            }
        }
    }
    Ok(Recorded { leaves, stopped })
}

/// Lists `cube` leaf by leaf (`LeafSplit`), a complete decision tree on
/// the penalty counter (`cubes::cardinality`), each leaf listed and proven
/// complete by `certified_cube` and recorded in `leaves_dir` as it
/// finishes, so that a cube longer than a session resumes per leaf. The
/// tree is walked from the root, the two halves of a node at once (rayon:
/// a cube whose leaders all lie in one hard corner keeps every thread
/// busy): a recorded leaf is read back at whatever depth it lies, a node
/// with records below it, above `depth` or stopped past the time limit
/// before (its `.split` mark) is split, any other is listed. The cube's
/// record holds every leaf, in the tree's order whatever finished first,
/// and the union of their leaders; the leaves read back from records are
/// noted in `resumed`.
pub fn certified_in_leaves(
    hex: &Hexagon,
    listed: (&LevelEncoding, &Split, &[u8]),
    (leaf_split, leaves_dir): (LeafSplit, &Path),
    (work, verified): (&Path, Option<&VerifiedChecker>),
    (stop, resumed, on_leaf): (&Arc<AtomicBool>, &Mutex<Resumed>, OnLeaf<'_>),
) -> Result<(CubeLeaders, Vec<Found>), HexError> {
    let (encoding, split, cube) = listed;
    let counter = encoding
        .counter()
        .ok_or_else(|| HexError::Usage("the listing's penalty bound has no counter to split a cube on".into()))?;
    let Recorded { leaves: recorded, stopped } = recorded_leaves(leaves_dir)?;
    let tree = LeafTree {
        hex,
        listed,
        counter,
        leaf_split,
        leaves_dir,
        recorded,
        stopped,
        work,
        verified,
        stop,
        resumed,
        on_leaf,
    };
    let (mut leaves, mut found, mut seen) = (Vec::new(), Vec::<Found>::new(), std::collections::HashSet::new());
    for (leaf, listing) in tree.walk(Vec::new(), 0)? {
        found.extend(leaf.into_iter().filter(|f| seen.insert(f.partial.values().to_vec())));
        leaves.push(listing);
    }
    let seconds = leaves.iter().map(|l| l.seconds).sum();
    let mut record = leaders_record(hex, encoding, split, cube, &found, seconds)?;
    record.cpu_seconds = leaves.iter().map(|l| l.cpu_seconds).sum();
    record.leaves = leaves;
    Ok((record, found))
}

/// One cube's leaf tree as `certified_in_leaves` walks it.
struct LeafTree<'a> {
    hex: &'a Hexagon,
    listed: (&'a LevelEncoding, &'a Split, &'a [u8]),
    counter: crate::encoding::Counter,
    leaf_split: LeafSplit,
    leaves_dir: &'a Path,
    recorded: Vec<Vec<i32>>,
    stopped: Vec<Vec<i32>>,
    work: &'a Path,
    verified: Option<&'a VerifiedChecker>,
    stop: &'a Arc<AtomicBool>,
    resumed: &'a Mutex<Resumed>,
    on_leaf: OnLeaf<'a>,
}

impl LeafTree<'_> {
    /// The leaves below `path`, each with its leaders, in the tree's order;
    /// `splits` nodes above it were stopped past their limit.
    fn walk(&self, path: Vec<i32>, splits: u32) -> Result<Vec<(Vec<Found>, LeafListing)>, HexError> {
        use rayon::prelude::*;
        if self.stop.load(Ordering::Relaxed) {
            return Err(HexError::Interrupted);
        }
        let (encoding, split, cube) = self.listed;
        let name = leaf_name(&path);
        let ledger = Ledger::<CubeLeaders>::at(self.leaves_dir);
        let children = self.children(&path);
        let halves = |splits: u32| -> Result<Vec<_>, HexError> {
            let each: Vec<Vec<_>> =
                children.par_iter().map(|child| self.walk(child.clone(), splits)).collect::<Result<_, _>>()?;
            Ok(each.concat())
        };
        let below = self.recorded.iter().any(|r| r.len() > path.len() && r.starts_with(&path))
            || self.stopped.iter().any(|s| s.starts_with(&path));
        if !children.is_empty() && !ledger.path(&name).is_file() && (path.len() < self.leaf_split.depth || below) {
            return halves(splits + u32::from(self.stopped.contains(&path)));
        }
        let max_penalty = encoding.options.max_penalty.unwrap_or(usize::MAX);
        let expected = (
            self.hex.side(),
            encoding.level(),
            max_penalty,
            crate::encoding::ENCODER_VERSION.to_string(),
            split.cells.clone(),
            cube.to_vec(),
            path.clone(),
            true,
        );
        let time_limit = self.leaf_split.limit_below(splits).filter(|_| !children.is_empty());
        let so_far = std::sync::atomic::AtomicUsize::new(0);
        let listed = crate::records::ledger::resume_or_do(
            Some(&ledger),
            (&name, &expected),
            |file, record| {
                Ok(Some((judge_leaders(file, self.hex, (record.level, record.max_penalty), split, &record)?, record)))
            },
            || {
                let (stop, limit) =
                    (Arc::clone(self.stop), time_limit.map(|d| crate::run::CpuLimit::start(d.as_secs_f64())));
                let stopped = move || stop.load(Ordering::Relaxed) || limit.is_some_and(|l| l.spent());
                let (record, leaf) =
                    certified_cube(self.hex, self.listed, &path, (self.work, self.verified), (stopped, Some(&so_far)))?;
                Ok((record.clone(), (leaf, record)))
            },
        );
        let unit = match listed {
            // Past its time: its two halves are listed instead.
            Err(HexError::Interrupted) if time_limit.is_some() && !self.stop.load(Ordering::Relaxed) => {
                crate::files::write_atomic(&self.leaves_dir.join(format!("{name}.split")), b"")?;
                let (limit, leaders) = (time_limit.map_or(0.0, |t| t.as_secs_f64()), so_far.load(Ordering::Relaxed));
                (self.on_leaf)(split.index(cube), &path, LeafNews::Split { limit, leaders });
                return halves(splits + 1);
            }
            other => other?,
        };
        let read_back = self.resumed.lock().expect("no panic while noting").note_unit(&unit);
        let (leaf, record) = unit.value;
        let news = if read_back { LeafNews::Resumed } else { LeafNews::listed(leaf.len(), &record) };
        (self.on_leaf)(split.index(cube), &path, news);
        Ok(vec![(leaf, leaf_listing(path, record)?)])
    }

    /// The two halves of the leaf at `path` (none past the tree's last split).
    fn children(&self, path: &[i32]) -> Vec<Vec<i32>> {
        crate::cubes::cardinality::bisection_tree(&self.counter, path, 1)
            .into_iter()
            .filter(|c| !c.is_empty())
            .map(|c| [path, &c].concat())
            .collect()
    }
}

impl LeafNews {
    /// A leaf listed in this run, as its record tells it.
    fn listed(leaders: usize, record: &CubeLeaders) -> LeafNews {
        LeafNews::Listed { leaders, seconds: record.seconds, cpu_seconds: record.cpu_seconds.unwrap_or(0.0) }
    }
}

/// The entry a certified leaf's record makes in its cube's record.
fn leaf_listing(path: Vec<i32>, record: CubeLeaders) -> Result<LeafListing, HexError> {
    let certificate =
        record.certificate.ok_or_else(|| HexError::Internal("a certified leaf without its certificate".into()))?;
    Ok(LeafListing {
        path,
        leaders: record.leaders,
        seconds: record.seconds,
        cpu_seconds: record.cpu_seconds,
        certificate,
    })
}

/// Where the leaf records of a cube listed leaf by leaf wait for the cube's record.
pub fn leaves_dir(dir: &Path, split: &Split, cube: &[u8]) -> PathBuf {
    dir.join(format!("cube-{}-leaves", split.index(cube)))
}
