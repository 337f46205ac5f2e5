//! What `count` reports (counts.rs): one shape for every road, printed as
//! text or, with `--json`, as it is.

use std::fmt;

use serde::Serialize;

/// How `count` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Road {
    Sweep,
    Sat,
    /// Levels 2..6: the partials of the level below (of level 3 for levels 4..6) extended one by one.
    // `refine`, its name before "refine" was left to the cubes, is kept as a
    // hidden alias on the command line and as the name `--json` reports,
    // which scripts and snapshots read.
    #[value(alias = "refine")]
    #[serde(rename = "refine")]
    Extension,
    /// Levels 5 and 6: the sweep at the level itself, not the chain products
    /// over the level-4 partials (the sweep road's default there).
    Frontier,
}

/// `count`: what was counted, by which road, and in how long. One shape
/// for every road, so a script reads `counts` whatever road it asked for.
#[derive(Serialize)]
pub struct CountReport {
    n: usize,
    level: u8,
    road: Road,
    /// The minimum penalty when this count established it: null after
    /// `--penalty P`, or when no penalty up to the bound has a partial.
    pub(super) minimum: Option<usize>,
    counts: Vec<PenaltyCount>,
    pub(super) seconds: f64,
    /// Checkpoint tables read instead of built (the sat road reads none).
    pub(super) tables_loaded: Vec<String>,
    /// Lex-leaders the solver listed (sat road only).
    pub(super) leaders: Option<usize>,
    /// Partials of the level below listed (extension road only).
    refined_partials: Option<usize>,
    /// Their symmetry classes, each refined through one member (extension road only).
    #[serde(skip_serializing_if = "Option::is_none")]
    refined_classes: Option<usize>,
    /// How levels 5 and 6 were counted on the extension road (`lift` or `chains`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) refined_via: Option<&'static str>,
    /// The count's record, written by a certified listing at its minimum
    /// (`--certify --penalty P`, with `proofs/nN/levelK-belowP/claim.json`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) count_record: Option<std::path::PathBuf>,
    /// How a cube-by-cube listing went (sat road with --leaders-dir only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) cubes: Option<CubeListing>,
    /// The pieces of a refinement read back from records (extension road with --pieces-dir only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pieces: Option<PieceListing>,
    /// Every penalty up to a bound was asked for (`--max-penalty`).
    #[serde(skip)]
    pub(super) up_to: bool,
}

/// The cubes of a sat-road count listed in this run and resumed from
/// records, and the leaves resumed of cubes listed leaf by leaf (whose
/// completeness rests on the runs that wrote them).
#[derive(Serialize)]
pub(super) struct CubeListing {
    listed: usize,
    resumed: usize,
    leaves_resumed: usize,
    resumed_from: Vec<String>,
    solve_seconds: f64,
    solve_cpu_seconds: f64,
    slowest: f64,
}

/// The pieces of an extension-road count, and those resumed from records
/// (whose counts rest on the runs that wrote them).
#[derive(Serialize)]
struct PieceListing {
    total: usize,
    resumed: usize,
    resumed_from: Vec<String>,
}

/// The number of partials of one penalty (a string: counts outgrow JSON's numbers).
#[derive(Serialize)]
struct PenaltyCount {
    penalty: usize,
    count: String,
}

impl CountReport {
    /// What an extension count refined: partials and classes, how levels 5
    /// and 6 were counted, and its pieces when they were recorded.
    pub(super) fn refined(
        &mut self,
        (partials, classes): (usize, usize),
        settings: &hexcert::counting::CountSettings,
        pieces: hexcert::counting::Pieces,
    ) {
        (self.refined_partials, self.refined_classes) = (Some(partials), Some(classes));
        self.refined_via = (self.level >= 5).then(|| settings.via.name());
        self.pieces = settings.records.is_some().then_some(PieceListing {
            total: pieces.total,
            resumed: pieces.resumed.units,
            resumed_from: pieces.resumed.writers,
        });
    }

    pub(super) fn new(n: usize, level: u8, road: Road, counts: Vec<(usize, String)>, seconds: f64) -> CountReport {
        let counts = counts.into_iter().map(|(penalty, count)| PenaltyCount { penalty, count }).collect();
        CountReport {
            n,
            level,
            road,
            minimum: None,
            counts,
            seconds,
            tables_loaded: Vec::new(),
            leaders: None,
            refined_partials: None,
            refined_classes: None,
            refined_via: None,
            count_record: None,
            cubes: None,
            pieces: None,
            up_to: false,
        }
    }

    /// The first penalty with a partial, when every penalty below it was counted.
    pub(super) fn first_found(&self) -> Option<usize> {
        self.counts.iter().find(|c| c.count != "0").map(|c| c.penalty)
    }
}

#[cfg(feature = "solver")]
impl CubeListing {
    /// How a cube-by-cube listing went, as reported.
    pub(super) fn of(listing: hexcert::listing::list::Listing) -> CubeListing {
        CubeListing {
            listed: listing.listed,
            resumed: listing.resumed.units,
            leaves_resumed: listing.resumed_leaves.units,
            resumed_from: listing.writers(),
            solve_seconds: listing.seconds,
            solve_cpu_seconds: listing.cpu_seconds,
            slowest: listing.slowest,
        }
    }
}

impl fmt::Display for CountReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let (n, level, seconds) = (self.n, self.level, self.seconds);
        for PenaltyCount { penalty, count } in &self.counts {
            match self.road {
                Road::Sat => {
                    let leaders = self.leaders.unwrap_or(0);
                    writeln!(f, "n={n} level={level} penalty {penalty}: {count} partials (sat road: {leaders} lex-leaders, {seconds:.2} s of this run's wall clock)")?
                }
                Road::Extension => {
                    let (refined, classes, below) = (self.refined_partials.unwrap_or(0), self.refined_classes.unwrap_or(0), hexcert::counting::extension_source(level));
                    let what = if self.minimum == Some(*penalty) && !self.up_to { "minimum penalty" } else { "penalty" };
                    let via = self.refined_via.map(|v| format!(" by {v}")).unwrap_or_default();
                    writeln!(f, "n={n} level={level} {what} {penalty}: {count} partials (extension road: {refined} level-{below} partials in {classes} symmetry classes refined{via}, {seconds:.2} s)")?
                }
                Road::Sweep | Road::Frontier if self.up_to => writeln!(f, "n={n} level={level} penalty {penalty}: {count}")?,
                Road::Frontier => writeln!(f, "n={n} level={level} penalty {penalty}: {count} partials (frontier road: the sweep at level {level} itself, {seconds:.2} s)")?,
                Road::Sweep => {
                    let what = if self.minimum == Some(*penalty) { "minimum penalty" } else { "penalty" };
                    writeln!(f, "n={n} level={level} {what} {penalty}: {count} partials ({seconds:.2} s)")?
                }
            }
        }
        if let Some(c) = &self.cubes {
            writeln!(
                f,
                "cubes: {} listed in this run ({:.1} s of solving, {:.1} s of it the solver's CPU; slowest {:.1} s), {} resumed from records",
                c.listed, c.solve_seconds, c.solve_cpu_seconds, c.slowest, c.resumed
            )?;
            if c.resumed + c.leaves_resumed > 0 {
                let leaves = if c.leaves_resumed > 0 {
                    format!(" and {} leaves of cubes listed leaf by leaf", c.leaves_resumed)
                } else {
                    String::new()
                };
                writeln!(f, "unverified: the resumed cubes'{leaves} listings were validated, not proved complete, in this run (written by {})", c.resumed_from.join(", "))?;
            }
        }
        if let Some(p) = &self.pieces {
            writeln!(f, "pieces: {} refined in this run, {} resumed from records", p.total - p.resumed, p.resumed)?;
            if p.resumed > 0 {
                writeln!(f, "unverified: the resumed pieces' counts were read back, not recomputed, in this run (written by {})", p.resumed_from.join(", "))?;
            }
        }
        write_loaded(f, &self.tables_loaded)
    }
}

/// The lines of a count resting on checkpoint tables (or journalled layers)
/// an earlier run built: named, and the result marked unverified.
fn write_loaded(f: &mut fmt::Formatter, loaded: &[String]) -> fmt::Result {
    if loaded.is_empty() {
        return Ok(());
    }
    writeln!(
        f,
        "checkpoint tables loaded (this machine's cache, checked by hash only; docs/COUNTING.md): {}",
        loaded.join(", ")
    )?;
    writeln!(f, "unverified: the loaded tables were built by an earlier run, not in this one")
}

/// The loaded-tables lines as a value to print after streamed rows.
pub(super) struct Loaded<'a>(pub(super) &'a [String]);

impl fmt::Display for Loaded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write_loaded(f, self.0)
    }
}
