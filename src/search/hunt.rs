//! The hunt's ledger (`hexcert search --ledger`): what the grid search has
//! spent on each member of its portfolio over every run, and how far each
//! got, so that a hunt of many CPU-hours over many sessions resumes where it
//! stood and its searched space stays on record (`grids/hunt/nN-pB.json`).
//!
//! Invariant: the ledger is a record of search effort, never a claim. A
//! member `exhausted` at a bound says only that its restricted space holds
//! no grid at or below it, as the member's UNSAT said; the restrictions lose
//! solutions, so nothing that states, proves or judges a claim may import
//! this file (it reaches `encoding::restricted`, which
//! tests/module_graph.rs keeps from every claim path), and the record layer
//! does not read it. The one thing a ledger changes is which members a
//! later search runs. It is defined, read and written here only.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::grids::{GridSearch, MemberId, Searched};
use crate::encoding::restricted::{Centre, Restrictions};
use crate::error::HexError;

/// The format tag: another version is another build's ledger, refused.
pub const FORMAT: &str = "hexcert-hunt-ledger/1";

/// Said in every ledger, for whoever opens one.
const NOTE: &str = "a record of restricted-search effort, not a claim: `exhausted` is the solver's unchecked UNSAT answer, about that member's restricted space only";

/// The most bytes a ledger is read with (a member is some 300 bytes).
const LIMIT: u64 = 16 << 20;

/// One hunt's ledger: a side, and its members in the order first run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HuntLedger {
    pub format: String,
    pub note: String,
    pub n: usize,
    pub members: Vec<HuntEntry>,
}

/// One member over every run so far.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HuntEntry {
    /// Stable across runs and builds (`key`): what a later run looks up,
    /// with `seed`.
    pub key: String,
    /// The solvers' seed. Ledgers from before seeds ran seed 0 only and
    /// do not name it; a seed-0 entry still does not, so that they read
    /// and stay as they were.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub seed: u32,
    /// `MemberId::describe`, for the reader.
    pub restrictions: String,
    /// Runs that started it (a run that skipped it, or stopped before it
    /// began, does not count).
    pub runs: usize,
    pub cpu_seconds: f64,
    pub state: State,
}

/// How far a member has got.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum State {
    /// Neither a grid nor an UNSAT answer yet.
    Open,
    /// Its best grid so far; grids below it may lie in its space.
    Found(Best),
    /// The solver answered UNSAT at `bound`: no grid at or below it in its
    /// space, if that answer is right (no proof of it is kept or checked). A
    /// grid it found above the bound is kept beside.
    Exhausted {
        bound: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        found: Option<Best>,
    },
}

/// A grid a member found.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Best {
    pub penalty: usize,
    /// The file `-o` wrote it to, when it was that run's best grid (as the
    /// command line named it); otherwise it was not kept.
    pub grid: Option<PathBuf>,
}

fn is_zero(seed: &u32) -> bool {
    *seed == 0
}

impl State {
    fn exhausted_at(&self) -> Option<usize> {
        match self {
            State::Exhausted { bound, .. } => Some(*bound),
            _ => None,
        }
    }

    fn best(&self) -> Option<&Best> {
        match self {
            State::Found(best) | State::Exhausted { found: Some(best), .. } => Some(best),
            _ => None,
        }
    }

    /// This state after a run that ended with `exhausted` and `found`: an
    /// UNSAT at a bound covers every lower one, so the highest bound and
    /// the lowest grid are kept (the newer grid on a tie: its file is the
    /// one just written).
    fn after(&self, exhausted: Option<usize>, found: Option<Best>) -> State {
        let bound = self.exhausted_at().into_iter().chain(exhausted).max();
        let best = found.into_iter().chain(self.best().cloned()).min_by_key(|b| b.penalty);
        match (bound, best) {
            (Some(bound), found) => State::Exhausted { bound, found },
            (None, Some(best)) => State::Found(best),
            (None, None) => State::Open,
        }
    }

    /// One line for the report.
    pub fn describe(&self) -> String {
        let grid = |b: &Best| b.grid.as_ref().map_or(String::new(), |g| format!(" ({})", g.display()));
        match self {
            State::Open => "open".into(),
            State::Found(best) => format!("found {}{}", best.penalty, grid(best)),
            State::Exhausted { bound, found: None } => format!("exhausted at {bound} (the solver's UNSAT, unchecked)"),
            State::Exhausted { bound, found: Some(best) } => {
                format!("exhausted at {bound} (the solver's UNSAT, unchecked), found {}{}", best.penalty, grid(best))
            }
        }
    }
}

/// A member's name in the ledger, besides its seed: its formula (a full
/// grid from level K, or a level-K partial) and its restrictions, since a
/// member's space depends on both.
pub fn key(spec: &GridSearch, restrictions: &Restrictions) -> String {
    let formula = if spec.partial { "partial" } else { "level" };
    let centre = restrictions.centre.map_or("none", Centre::name);
    let Restrictions { band, inner, singles, .. } = restrictions;
    format!("{formula}{}/band{band}/inner{inner}/singles[{}]/{centre}", spec.level, singles.list())
}

impl HuntLedger {
    /// The ledger at `path` for side `n`; no file is an empty ledger. A
    /// malformed one, or another side's or format's, is a one-line error
    /// naming the file.
    pub fn read(path: &Path, n: usize) -> Result<HuntLedger, HexError> {
        if std::fs::symlink_metadata(path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
            return Ok(HuntLedger { format: FORMAT.into(), note: NOTE.into(), n, members: Vec::new() });
        }
        let bytes = crate::files::read_regular(path, LIMIT, "hunt ledger")?;
        let refuse = |message: String| HexError::Input { file: path.into(), line: 0, message };
        let ledger: HuntLedger =
            serde_json::from_slice(&bytes).map_err(|e| refuse(format!("not a hunt ledger: {e}")))?;
        if ledger.format != FORMAT {
            return Err(refuse(format!("format {:?}, not {FORMAT:?}", ledger.format)));
        }
        if ledger.n != n {
            return Err(refuse(format!("a ledger of side {}, not {n}", ledger.n)));
        }
        ledger.check(crate::geometry::Hexagon::new(n)?.edges().len(), &refuse)?;
        Ok(ledger)
    }

    /// What a ledger written by `record` always holds, so that a damaged or
    /// forged one is refused rather than believed (and written back): each
    /// member once, CPU seconds finite and not negative, penalties and bounds
    /// within the side's `edges`, a grid found only by a run, no grid of a
    /// space at or below a bound that space was exhausted at, and every
    /// space's highest exhaustion held by a member that ran (a member
    /// skipped for a sibling's UNSAT inherits its bound, never exceeds it).
    /// A fault is `refuse`'s error (naming the ledger).
    fn check(&self, edges: usize, refuse: &impl Fn(String) -> HexError) -> Result<(), HexError> {
        for (i, e) in self.members.iter().enumerate() {
            let who = format!("member {} seed {}", e.key, e.seed);
            if self.members[..i].iter().any(|d| d.key == e.key && d.seed == e.seed) {
                return Err(refuse(format!("{who} is listed twice")));
            }
            if !e.cpu_seconds.is_finite() || e.cpu_seconds < 0.0 {
                return Err(refuse(format!("{who}: cpu_seconds {} is not a time spent", e.cpu_seconds)));
            }
            let (bound, best) = (e.state.exhausted_at(), e.state.best());
            if let Some(b) = bound.filter(|&b| b > edges).or(best.map(|b| b.penalty).filter(|&p| p > edges)) {
                return Err(refuse(format!("{who}: {b} is beyond the side's {edges} edges")));
            }
            if best.is_some() && e.runs == 0 {
                return Err(refuse(format!("{who}: a grid found in no run")));
            }
            let space = || self.members.iter().filter(|d| d.key == e.key);
            if let (Some(b), Some(found)) = (bound, space().filter_map(|d| d.state.best()).map(|f| f.penalty).min()) {
                if found <= b {
                    return Err(refuse(format!(
                        "{who}: exhausted at {b}, yet a grid of {found} was found in its space"
                    )));
                }
            }
            let ran = space().filter(|d| d.runs > 0).filter_map(|d| d.state.exhausted_at()).max();
            if bound.is_some_and(|b| ran.is_none_or(|r| r < b)) {
                return Err(refuse(format!(
                    "{who}: exhausted at {} by no run of its space",
                    bound.unwrap_or_default()
                )));
            }
        }
        Ok(())
    }

    fn position(&self, spec: &GridSearch, member: &MemberId) -> Option<usize> {
        let key = key(spec, &member.restrictions);
        self.members.iter().position(|e| e.key == key && e.seed == member.seed)
    }

    fn entry(&self, spec: &GridSearch, member: &MemberId) -> Option<&HuntEntry> {
        self.position(spec, member).map(|i| &self.members[i])
    }

    /// The restrictions of `spec`'s portfolio exhausted in earlier runs,
    /// with their highest bounds, for `GridSearch::known_exhausted`. The
    /// seed of the member that ran out does not matter: every seed of a
    /// space solves the same formula.
    pub fn known_exhausted(&self, spec: &GridSearch) -> Result<Vec<(Restrictions, usize)>, HexError> {
        let portfolio = spec.portfolio()?;
        Ok(portfolio
            .into_iter()
            .filter_map(|m| {
                let key = key(spec, &m.restrictions);
                Some((
                    m.restrictions,
                    self.members.iter().filter(|e| e.key == key).filter_map(|e| e.state.exhausted_at()).max()?,
                ))
            })
            .collect())
    }

    /// Adds a run's effort and answers: each member's CPU seconds, a run
    /// for each member it started, and its state after what it found or
    /// exhausted. `grid` is the file the run's best grid was written to.
    pub fn record(&mut self, spec: &GridSearch, searched: &Searched, grid: Option<&Path>) {
        let best = searched.best.as_ref().map(|b| (b.member, b.evaluation.penalty));
        for member in &searched.members {
            let index = match self.position(spec, &member.id) {
                Some(index) => index,
                None => {
                    let (key, seed, restrictions) =
                        (key(spec, &member.id.restrictions), member.id.seed, member.id.describe());
                    self.members.push(HuntEntry {
                        key,
                        seed,
                        restrictions,
                        runs: 0,
                        cpu_seconds: 0.0,
                        state: State::Open,
                    });
                    self.members.len() - 1
                }
            };
            let entry = &mut self.members[index];
            let written = best == member.found.map(|p| (member.id, p));
            let found =
                member.found.map(|penalty| Best { penalty, grid: grid.filter(|_| written).map(Path::to_path_buf) });
            // A member that made no call spent only the check that skipped it.
            if member.calls > 0 {
                entry.runs += 1;
                entry.cpu_seconds += member.cpu_seconds;
            }
            // A member skipped for its space's earlier UNSAT has that bound too.
            entry.state = entry.state.after(member.exhausted_at.or(member.skipped_at), found);
        }
    }

    /// The entries of `spec`'s portfolio, in its order (the report's totals).
    pub fn totals(&self, spec: &GridSearch) -> Vec<HuntEntry> {
        let portfolio = spec.portfolio().unwrap_or_default();
        portfolio.iter().filter_map(|m| self.entry(spec, m).cloned()).collect()
    }

    /// Writes the ledger whole or not at all.
    pub fn write(&self, path: &Path) -> Result<(), HexError> {
        let mut text = serde_json::to_string_pretty(&HuntLedger { note: NOTE.into(), ..self.clone() })
            .expect("a ledger is plain data");
        text.push('\n');
        crate::files::write_atomic(path, text.as_bytes())
    }
}
