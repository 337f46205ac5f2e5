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
use std::time::Instant;

use super::record::leaders_record;
use crate::cubes::Split;
use crate::encoding::model::{accept_model, Found};
use crate::encoding::LevelEncoding;
use crate::error::{HexError, RecordError};
use crate::geometry::Hexagon;
use crate::proofs::online::{Against, OnlineCheck};
use crate::proofs::verified::VerifiedChecker;
use crate::records::leaders::{blocking_clause, leaf_units, listing_formula, CubeLeaders, ListingProof};
use crate::solving::profile::{self, Profile};
use crate::solving::{Answer, Cadical, SatSolver};

/// The profile certified listings run with: the refutation profile, since
/// the last call (the one the certificate rests on) is a refutation.
pub const LISTING_PROFILE: Profile = profile::CURRENT;

/// Lists `cube` of `split`, or the leaf `path` of it (literals added as
/// units; empty for the whole cube), with a traced solver; the DRAT twin is
/// written to `work` while the run lasts and removed after it. `stop` is
/// polled by the solver (Ctrl-C, a time limit): a stopped cube writes
/// nothing; `listed`, when given, holds the leaders found so far, so that
/// a caller can say how far a stopped listing got.
pub fn certified_cube(
    hex: &Hexagon,
    (encoding, split, cube): (&LevelEncoding, &Split, &[u8]),
    path: &[i32],
    (work, verified): (&Path, Option<&VerifiedChecker>),
    (stop, listed): (impl Fn() -> bool + 'static, Option<&std::sync::atomic::AtomicUsize>),
) -> Result<(CubeLeaders, Vec<Found>), HexError> {
    let (started, cpu_started) = (Instant::now(), crate::run::thread_cpu_seconds());
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
    let (outcome, found) = leaders_until_refuted(hex, encoding, &mut solver, (&name, listed));
    // The solver runs on this thread, so its clock is the solver's CPU (the checker's threads are not in it).
    let (solve_seconds, cpu_seconds) =
        (started.elapsed().as_secs_f64(), crate::run::thread_cpu_seconds() - cpu_started);
    drop(solver); // ends the trace
    let finished = online.finish(Instant::now());
    let _ = std::fs::remove_file(&drat);
    let lrat_file = drat.with_extension("lrat");
    let removed = RemovedOnDrop(&lrat_file);
    outcome?;
    let finished = finished?;
    if !finished.lrat.verified {
        let what = format!("the listing of cube {name}");
        return Err(HexError::Rejected(RecordError::LratRejected { what, verdict: finished.lrat.verdict }));
    }
    let expected: Vec<Vec<i32>> = found.iter().map(|f| blocking_clause(encoding, &f.partial)).collect();
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
    record.cpu_seconds = Some(cpu_seconds);
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

/// Solves, blocks the leader found and solves again until the formula is
/// refuted (the outcome) or the leader limit is passed; the leaders found.
fn leaders_until_refuted(
    hex: &Hexagon,
    encoding: &LevelEncoding,
    solver: &mut Cadical,
    (name, listed): (&str, Option<&std::sync::atomic::AtomicUsize>),
) -> (Result<(), HexError>, Vec<Found>) {
    let limit = crate::options::SAT_ROAD_LEADERS.default;
    let mut found: Vec<Found> = Vec::new();
    let outcome = (|| loop {
        let Answer::Sat(model) = solver.solve()? else { return Ok(()) };
        let next = accept_model(hex, encoding, &model)?;
        let mut block = crate::formula::Cnf::new();
        block.reserve_vars_up_to(encoding.cnf.num_vars());
        block.add_clause(&blocking_clause(encoding, &next.partial));
        solver.add_cnf(&block)?;
        found.push(next);
        listed.inspect(|l| l.store(found.len(), std::sync::atomic::Ordering::Relaxed));
        if found.len() > limit {
            return Err(HexError::Usage(format!("more than {limit} leaders in cube {name}; listing stopped")));
        }
    })();
    (outcome, found)
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
fn verified_verdict(
    checker: &VerifiedChecker,
    refuted: &[u8],
    lrat: &Path,
    name: &str,
) -> Result<crate::records::CheckerRecord, HexError> {
    let cnf = lrat.with_extension("cnf");
    let _removed = RemovedOnDrop(&cnf);
    crate::files::write_atomic(&cnf, refuted)?;
    let verdict = checker.check_file(&cnf, lrat)?;
    if !verdict.verified_acceptance() {
        return Err(verdict.refusal(&format!("the listing of cube {name}")));
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
    seen.len() == expected.len() && seen.iter().zip(expected).all(|(a, b)| sorted(a) == sorted(b))
}
