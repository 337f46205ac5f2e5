//! A cube of the SAT road's listing, certified: the listing proven
//! complete by the same solver run that made it.
//!
//! One CaDiCaL instance, traced from its first clause, lists the cube's
//! lex-leaders: each model is decoded and judged by the validator, and its
//! blocking clause is added as a new original clause; the last call answers
//! UNSAT. Its trace is therefore a refutation of the cube's formula *with*
//! every blocking clause (`records::leaders::listing_formula`), and the
//! LRAT checker of `lrat/` reads it as it is written
//! (`proofs::online::Against::Listing`), taking each appended original as
//! it comes. The record is written only after the checker accepted the
//! trace and the clauses it saw appended are exactly the blocking clauses
//! of the listed leaders, in order; it names the SHA-256 of that formula,
//! so that a judge rebuilding the formula from the record's leaders finds
//! any leader removed or added.
//!
//! The cells' value variables are frozen: a clause added between calls on
//! an eliminated variable would make CaDiCaL restore eliminated clauses,
//! which no checker of the trace could accept.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::cubes::Split;
use crate::encoding::LevelEncoding;
use crate::error::{HexError, RecordError};
use crate::geometry::Hexagon;
use crate::proofs::online::{Against, OnlineCheck};
use crate::proofs::verified::VerifiedChecker;
use crate::records::leaders::{blocking_clause, leaf_units, listing_formula, CountRecord, CubeLeaders, LeafListing, ListingProof, COUNT_FORMAT};
use crate::records::ledger::{Ledger, Parsed, Resumed};
use crate::search::leaders::{judge_leaders, leaders_record, Listing};
use crate::search::orbits::{orbit_count_listed, OrbitCount};
use crate::encoding::model::{accept_model, Found};
use crate::solving::profile::{self, Profile};
use crate::solving::{Cadical, Answer, SatSolver};

/// The profile certified listings run with: the refutation profile, since
/// the last call (the one the certificate rests on) is a refutation.
pub const LISTING_PROFILE: Profile = profile::CURRENT;

/// Lists `cube` of `split`, or the leaf `path` of it (literals added as
/// units; empty for the whole cube), with a traced solver; the DRAT twin is
/// written to `work` while the run lasts and removed after it. `stop` is
/// polled by the solver (Ctrl-C): a stopped cube writes nothing.
pub fn certified_cube(
    hex: &Hexagon,
    (encoding, split, cube): (&LevelEncoding, &Split, &[u8]),
    path: &[i32],
    (work, verified): (&Path, Option<&VerifiedChecker>),
    stop: impl Fn() -> bool + 'static,
) -> Result<(CubeLeaders, Vec<Found>), HexError> {
    let started = Instant::now();
    let units = leaf_units(encoding, (&split.cells, cube, split.depth), path);
    let formula = listing_formula(encoding, &units, []);
    let leaf: String = path.iter().map(|l| format!("_{l}")).collect();
    let name: String = cube.iter().map(|v| char::from(b'0' + v)).chain(leaf.chars()).collect();
    let drat = work.join(format!("listing-{}-{name}.drat", std::process::id()));
    // The LRAT file is kept whole only for the verified checker, which reads it once the listing ends.
    let keep = if verified.is_some() { u64::MAX } else { 0 };
    let mut online = OnlineCheck::start_capped(Against::Listing(formula.to_dimacs()), &drat, None, keep)?;
    let mut solver = Cadical::with_profile(LISTING_PROFILE, Some(online.sender()))?;
    solver.stop_when_any(stop);
    solver.freeze(encoding.value_variables());
    solver.add_cnf(&formula)?;
    let limit = crate::options::SAT_ROAD_LEADERS.default;
    let mut found: Vec<Found> = Vec::new();
    let outcome = loop {
        match solver.solve() {
            Ok(Answer::Sat(model)) => {
                let next = accept_model(hex, encoding, &model)?;
                let mut block = crate::formula::Cnf::new();
                block.reserve_vars_up_to(encoding.cnf.num_vars());
                block.add_clause(&blocking_clause(encoding, &next.partial));
                solver.add_cnf(&block)?;
                found.push(next);
                if found.len() > limit {
                    break Err(HexError::Usage(format!(
                        "more than {limit} leaders in cube {name}; listing stopped"
                    )));
                }
            }
            Ok(Answer::Unsat) => break Ok(()),
            Err(e) => break Err(e),
        }
    };
    let solve_seconds = started.elapsed().as_secs_f64();
    drop(solver); // ends the trace
    let finished = online.finish(Instant::now());
    let _ = std::fs::remove_file(&drat);
    let lrat_file = drat.with_extension("lrat");
    let removed = RemovedOnDrop(&lrat_file);
    outcome?;
    let finished = finished?;
    if !finished.lrat.verified {
        let what = format!("the listing of cube {name}");
        return Err(HexError::Internal(RecordError::LratRejected { what, verdict: finished.lrat.verdict }.to_string()));
    }
    let expected: Vec<Vec<i32>> = found
        .iter()
        .map(|f| blocking_clause(encoding, &f.partial))
        .collect();
    if !same_clauses(&finished.appended, &expected) {
        return Err(HexError::Internal(format!(
            "the trace of cube {name} appended other clauses than the leaders' blocking clauses"
        )));
    }
    let refuted_cnf = listing_formula(encoding, &units, found.iter().map(|f| &f.partial));
    let refuted = refuted_cnf.to_dimacs();
    let verified_lrat = verified.map(|checker| verified_verdict(checker, &refuted, removed.0, &name)).transpose()?;
    let mut record = leaders_record(hex, encoding, split, cube, &found, solve_seconds)?;
    record.path = path.to_vec();
    record.certificate = Some(ListingProof {
        solver: Cadical::version(),
        profile: LISTING_PROFILE.name.into(),
        formula_sha256: crate::digest::sha256_hex(&refuted),
        formula_clauses: refuted_cnf.clauses().len(),
        lrat: finished.lrat,
        verified_lrat,
    });
    Ok((record, found))
}

/// How a cube is listed leaf by leaf: the leaves of a bisection tree of
/// `depth` levels on the listing formula's penalty counter, and a leaf
/// that runs past `time_limit` stopped and split in two (its record
/// would be the union of theirs), down the same tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafSplit {
    pub depth: usize,
    pub time_limit: Option<std::time::Duration>,
}

/// What became of one leaf of a cube listed leaf by leaf (progress).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LeafNews {
    /// Listed and recorded in this run, with its leaders and seconds.
    Listed { leaders: usize, seconds: f64 },
    /// Read back from its record.
    Resumed,
    /// Stopped past its time; its two halves follow.
    Split,
}

impl std::fmt::Display for LeafNews {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LeafNews::Listed { leaders, seconds } => write!(f, "listed, {leaders} leaders in {seconds:.1} s"),
            LeafNews::Resumed => write!(f, "read back from its record"),
            LeafNews::Split => write!(f, "past --leaf-time-limit: split in two"),
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

/// The paths of the leaf records in `dir`, and of the nodes a run stopped
/// past `--leaf-time-limit` (an empty `leaf_<path>.split` each, so that a
/// resumed run splits them at once instead of spending the limit again);
/// an error naming a file there that is neither (a record it would
/// silently pass over).
fn recorded_leaves(dir: &Path) -> Result<(Vec<Vec<i32>>, Vec<Vec<i32>>), HexError> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(Default::default()) };
    let (mut leaves, mut stopped) = (Vec::new(), Vec::new());
    for entry in entries {
        let file = entry.map_err(|source| HexError::Io { path: dir.to_path_buf(), source })?.path();
        let Some(name) = file.file_name().and_then(|n| n.to_str()) else { continue };
        let (stem, into) = match (name.strip_suffix(".json"), name.strip_suffix(".split")) {
            (Some(stem), _) => (stem, &mut leaves),
            (None, Some(stem)) => (stem, &mut stopped),
            (None, None) => continue,
        };
        let path: Option<Vec<i32>> = stem.strip_prefix("leaf").and_then(|rest| rest.split('_').skip(1).map(|l| l.parse().ok()).collect());
        match path {
            Some(path) if leaf_name(&path) == stem => into.push(path),
            _ => return Err(HexError::Input { file, line: 0, message: "not a leaf record's name (leaf_<literal>_<literal>....json, or .split)".into() }),
        }
    }
    Ok((leaves, stopped))
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
    let counter = encoding.counter().ok_or_else(|| HexError::Usage("the listing's penalty bound has no counter to split a cube on".into()))?;
    let (recorded, stopped) = recorded_leaves(leaves_dir)?;
    let tree = LeafTree { hex, listed, counter, leaf_split, leaves_dir, recorded, stopped, work, verified, stop, resumed, on_leaf };
    let (mut leaves, mut found, mut seen) = (Vec::new(), Vec::<Found>::new(), std::collections::HashSet::new());
    for (leaf, listing) in tree.walk(Vec::new())? {
        found.extend(leaf.into_iter().filter(|f| seen.insert(f.partial.values().to_vec())));
        leaves.push(listing);
    }
    let seconds = leaves.iter().map(|l| l.seconds).sum();
    let mut record = leaders_record(hex, encoding, split, cube, &found, seconds)?;
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
    /// The leaves below `path`, each with its leaders, in the tree's order.
    fn walk(&self, path: Vec<i32>) -> Result<Vec<(Vec<Found>, LeafListing)>, HexError> {
        use rayon::prelude::*;
        if self.stop.load(Ordering::Relaxed) {
            return Err(HexError::Interrupted);
        }
        let (encoding, split, cube) = self.listed;
        let name = leaf_name(&path);
        let ledger = Ledger::<CubeLeaders>::at(self.leaves_dir);
        let children: Vec<Vec<i32>> = crate::cubes::cardinality::bisection_tree(&self.counter, &path, 1).into_iter().filter(|c| !c.is_empty()).map(|c| [path.as_slice(), &c].concat()).collect();
        let halves = || -> Result<Vec<_>, HexError> {
            let each: Vec<Vec<_>> = children.par_iter().map(|child| self.walk(child.clone())).collect::<Result<_, _>>()?;
            Ok(each.concat())
        };
        let below = self.recorded.iter().any(|r| r.len() > path.len() && r.starts_with(&path)) || self.stopped.iter().any(|s| s.starts_with(&path));
        if !children.is_empty() && !ledger.path(&name).is_file() && (path.len() < self.leaf_split.depth || below) {
            return halves();
        }
        let max_penalty = encoding.options.max_penalty.unwrap_or(usize::MAX);
        let expected = (self.hex.side(), encoding.level(), max_penalty, crate::encoding::ENCODER_VERSION.to_string(), split.cells.clone(), cube.to_vec(), path.clone(), true);
        let time_limit = self.leaf_split.time_limit.filter(|_| !children.is_empty());
        let listed = crate::records::ledger::resume_or_do(
            Some(&ledger),
            (&name, &expected),
            |file, record| Ok(Some((judge_leaders(file, self.hex, (record.level, record.max_penalty), split, &record)?, record))),
            || {
                let (stop, limit) = (Arc::clone(self.stop), time_limit.map(|d| crate::run::CpuLimit::start(d.as_secs_f64())));
                let stopped = move || stop.load(Ordering::Relaxed) || limit.is_some_and(|l| l.spent());
                let (record, leaf) = certified_cube(self.hex, self.listed, &path, (self.work, self.verified), stopped)?;
                Ok((record.clone(), (leaf, record)))
            },
        );
        let unit = match listed {
            // Past its time: its two halves are listed instead.
            Err(HexError::Interrupted) if time_limit.is_some() && !self.stop.load(Ordering::Relaxed) => {
                crate::files::write_atomic(&self.leaves_dir.join(format!("{name}.split")), b"")?;
                (self.on_leaf)(split.index(cube), &path, LeafNews::Split);
                return halves();
            }
            other => other?,
        };
        let read_back = self.resumed.lock().expect("no panic while noting").note_unit(&unit);
        let (leaf, record) = unit.value;
        (self.on_leaf)(split.index(cube), &path, if read_back { LeafNews::Resumed } else { LeafNews::Listed { leaders: leaf.len(), seconds: record.seconds } });
        let certificate = record.certificate.ok_or_else(|| HexError::Internal("a certified leaf without its certificate".into()))?;
        Ok(vec![(leaf, LeafListing { path, leaders: record.leaders, seconds: record.seconds, certificate })])
    }
}

/// A file removed when this goes out of scope (the listing's LRAT proof,
/// however the cube ends).
struct RemovedOnDrop<'a>(&'a Path);

impl Drop for RemovedOnDrop<'_> {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(self.0);
    }
}

/// The verified checker's verdict on cube `name`'s listing proof `lrat`,
/// read against the refuted formula `refuted` written beside it; an
/// error when it does not accept it (no record is written then).
fn verified_verdict(checker: &VerifiedChecker, refuted: &[u8], lrat: &Path, name: &str) -> Result<crate::records::CheckerRecord, HexError> {
    let cnf = lrat.with_extension("cnf");
    let _removed = RemovedOnDrop(&cnf);
    crate::files::write_atomic(&cnf, refuted)?;
    let verdict = checker.check_file(&cnf, lrat)?;
    if !verdict.verified_acceptance() {
        let what = format!("the listing of cube {name} (by {})", verdict.name);
        return Err(HexError::Internal(RecordError::LratRejected { what, verdict: verdict.verdict }.to_string()));
    }
    Ok(verdict)
}

/// The same clauses in the same order, each compared as a set of literals.
fn same_clauses(seen: &[Vec<i32>], expected: &[Vec<i32>]) -> bool {
    let sorted = |c: &Vec<i32>| {
        let mut c = c.clone();
        c.sort_unstable();
        c.dedup();
        c
    };
    seen.len() == expected.len()
        && seen
            .iter()
            .zip(expected)
            .all(|(a, b)| sorted(a) == sorted(b))
}

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
    let scratch = tempfile::tempdir().map_err(|source| HexError::Io { path: std::env::temp_dir(), source })?;
    let resumed_leaves = Mutex::new(Resumed::default());
    let lister = |encoding: &LevelEncoding, split: &Split, cube: &[u8]| match leaf_split {
        Some(leaf_split) => certified_in_leaves(hex, (encoding, split, cube), (leaf_split, &leaves_dir(dir, split, cube)), (scratch.path(), verified), (stop, &resumed_leaves, on_leaf)),
        None => {
            let stop = Arc::clone(stop);
            certified_cube(hex, (encoding, split, cube), &[], (scratch.path(), verified), move || stop.load(Ordering::Relaxed))
        }
    };
    let counted = orbit_count_listed(hex, (level, bound), Some(dir), (stop, on_cube), (&lister, true));
    // A cube's leaf records are its record's parts: once it is written they are copies.
    let split = Split::listing(hex, level)?;
    for index in 0..split.projection_count() {
        let leaves = leaves_dir(dir, &split, &split.projection(index));
        if leaves.is_dir() && Ledger::<CubeLeaders>::at(dir).path(&format!("cube-{index}")).is_file() {
            std::fs::remove_dir_all(&leaves).map_err(|source| HexError::Io { path: leaves, source })?;
        }
    }
    let (count, mut listing) = counted?;
    listing.resumed_leaves = resumed_leaves.into_inner().expect("no panic while noting");
    Ok((count, listing))
}

/// Where the leaf records of a cube listed leaf by leaf wait for the cube's record.
fn leaves_dir(dir: &Path, split: &Split, cube: &[u8]) -> std::path::PathBuf {
    dir.join(format!("cube-{}-leaves", split.index(cube)))
}

/// The claim "no level-`level` partial below `penalty`" under `root`, which
/// a certified count at `penalty` rests on: asked for before the listing,
/// not found missing after hours of it. A claim of a lower level with that
/// bound serves as well (the highest there is): refining never lowers a
/// penalty (docs/PROBLEM.md, section 4), so none of the higher level lies
/// below it either.
pub fn minimum_claim(root: &Path, n: usize, level: u8, penalty: usize) -> Result<std::path::PathBuf, HexError> {
    let claim = |k: u8| root.join(format!("n{n}/level{k}-below{penalty}/claim.json"));
    (1..=level).rev().map(claim).find(|path| path.is_file()).ok_or_else(|| {
        let how = format!("hexcert prove --n {n} --level {level} --below {penalty}");
        HexError::Usage(format!("--certify --penalty {penalty} needs the claim below it, {} ({how})", claim(level).display()))
    })
}

/// Writes `dir/count.json` for a finished certified listing of penalty
/// exactly `penalty` (`by_penalty` from its leaders), naming the claim
/// `minimum_claim` (a path, made relative to `dir`) and, when VeriPB is on
/// PATH, its check of the statement -> listing CNF step. Nothing is written
/// (`Ok(None)`) when a leader lies below `penalty` or none reaches it: then
/// `penalty` is not the level's minimum. Returns the record's path.
pub fn write_count_record(dir: &Path, hex: &Hexagon, (level, penalty): (u8, usize), by_penalty: &[u64], minimum_claim: &Path) -> Result<Option<std::path::PathBuf>, HexError> {
    let count = by_penalty.get(penalty).copied().unwrap_or(0);
    if count == 0 || by_penalty[..penalty].iter().any(|&c| c > 0) {
        return Ok(None);
    }
    let split = Split::listing(hex, level)?;
    let ledger = Ledger::<CubeLeaders>::at(dir);
    let (mut leaders, mut seconds) = (0, 0.0);
    for index in 0..split.projection_count() {
        if let Some(Parsed::Record(cube)) = ledger.read(&format!("cube-{index}")) {
            leaders += cube.leaders.len();
            seconds += cube.seconds;
        }
    }
    let encoding = crate::records::leaders::listing_encoding(hex, level, penalty);
    let hash = crate::digest::sha256_hex(&encoding.cnf.to_dimacs());
    let path = dir.join("count.json");
    let derived = crate::verify::statement_to_cnf::derive_and_check(hex, level, penalty + 1, &encoding.options, &hash, &path)?;
    let record = CountRecord {
        format: COUNT_FORMAT.into(),
        n: hex.side(),
        level,
        penalty,
        count: count.to_string(),
        leaders,
        cubes: split.projection_count() as usize,
        minimum_claim: crate::files::relative_to(dir, minimum_claim)?,
        statement_to_cnf: Some(derived),
        solve_seconds: seconds,
        written_by: crate::run::attestation(),
    };
    crate::files::write_atomic(&path, &serde_json::to_vec_pretty(&record).expect("records serialise"))?;
    Ok(Some(path))
}

