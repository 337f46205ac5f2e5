//! The options table: every number that sets how hard the engine searches
//! or how a claim is split and stored, with its default, the values it may
//! take and what it does, in one place (as CaDiCaL keeps its options in one
//! table). The command line takes its defaults, ranges and help from here
//! (`src/main.rs`), and the library's settings and searches read the same
//! entries, so a default is never written twice.
//!
//! Entries without a `name` have no flag: they are fixed policy, listed here
//! so that every threshold the engine acts on is found in one file.

/// One entry of the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Opt<T: 'static> {
    /// The command-line flag (without `--`), or "" for fixed policy.
    pub name: &'static str,
    pub default: T,
    /// Least and greatest values accepted.
    pub min: T,
    pub max: T,
    pub help: &'static str,
}

impl<T: PartialOrd + Copy + std::fmt::Display + std::str::FromStr> Opt<T> {
    /// `text` as a value of this option, or a one-line error naming it.
    pub fn parse(&self, text: &str) -> Result<T, String> {
        let value: T = text.trim().parse().map_err(|_| format!("`{text}` is not a number"))?;
        if value < self.min || value > self.max {
            return Err(format!("{} must lie in {}..={}", self.shown_name(), self.min, self.max));
        }
        Ok(value)
    }

    fn shown_name(&self) -> String {
        if self.name.is_empty() {
            "the value".into()
        } else {
            format!("--{}", self.name)
        }
    }
}

/// Cubes solved at once: by `certify` when it splits a query, by `cubes run --all`.
pub const JOBS: Opt<usize> = Opt {
    name: "jobs",
    default: 2,
    min: 1,
    max: 4096,
    help: "Cubes solved at once, one solver each (certify when it splits a query; cubes run --all)",
};

/// When `certify` splits a query it may split.
pub const CUBES_AFTER: Opt<f64> = Opt {
    name: "cubes-after",
    default: 300.0,
    min: 0.0,
    max: 1e9,
    help: "Seconds a splittable query runs as one call before it is split (satisfiable queries mostly answer by then; 0 splits at once)",
};

/// Proofs of `prove` and `certify` kept in the certificate tree. The LRAT
/// file is about 3.3 times the DRAT one under gzip; 6 MiB keeps every claim
/// up to n = 6 whole.
pub const STORE_LIMIT: Opt<u64> = Opt {
    name: "store-limit",
    default: 6 * 1024 * 1024,
    min: 0,
    max: u64::MAX,
    help: "Store proofs up to this many compressed bytes (CNF + DRAT + LRAT); larger ones keep claim.json only",
};

/// Proofs of `cubes run` kept beside the records: none by default, since a
/// campaign's proofs are large and its records are committed.
pub const CUBE_STORE_LIMIT: Opt<u64> = Opt {
    name: "store-limit",
    default: 0,
    min: 0,
    max: u64::MAX,
    help: "Keep a cube's gzipped LRAT proof beside its record when it is at most this many bytes (0: keep none); merged claims carry them, and `check` verifies them without a solver",
};

/// The split cells of a plan: those within this distance of the centre.
pub const SPLIT_RADIUS: Opt<usize> = Opt {
    name: "radius",
    default: 1,
    min: 0,
    max: 40,
    help: "Split the cells within this distance of the centre (1: the centre and its 6 neighbours)",
};

/// How many values a split cell is told apart by. Depth 1 for `certify`
/// and `cubes plan` alike: depth 2 cost 7x more CPU on n = 12 (docs/RESULTS.md).
pub const SPLIT_DEPTH: Opt<u8> = Opt {
    name: "depth",
    default: 1,
    min: 1,
    max: 6,
    help: "Cube values 1..=D and \"more than D\" (D at most the level)",
};

/// Prefix runs of `cubes refine --strategy prefix`.
pub const PREFIX_CONFLICTS: Opt<i32> = Opt {
    name: "prefix-conflicts",
    default: 5000,
    min: 1,
    max: i32::MAX,
    help: "With --strategy prefix: conflicts of the prefix run at each tree node",
};

/// Trees of `cubes refine --strategy prefix`.
pub const TREE_DEPTH: Opt<u64> = Opt {
    name: "tree-depth",
    default: 4,
    min: 1,
    max: 16,
    help: "With --strategy prefix or cardinality: deepest tree below a cube (up to 2^D leaves)",
};

/// Cardinality trees below the value cubes of a new plan (`cubes plan`, certify's splits).
pub const BUDGET_SPLIT: Opt<usize> = Opt {
    name: "budget-split",
    default: 1,
    min: 0,
    max: 8,
    help: "Bisect each value cube's penalty budget between the hexagon's halves this many times (cardinality splitting; 0: value cubes only). One bisection cut the total CPU of n = 9 level 3 below 24 by 30 %",
};

/// `cubes run --refine`: rounds of solving and splitting.
pub const ROUNDS: Opt<usize> = Opt {
    name: "rounds",
    default: 6,
    min: 1,
    max: 64,
    help: "With --refine: rounds of solving under the time limit and splitting what it stopped, at most",
};

/// `cubes status`' wall-time prediction.
pub const MACHINES: Opt<usize> = Opt {
    name: "machines",
    default: 100,
    min: 1,
    max: 1_000_000,
    help: "Machines to predict the remaining wall time for",
};

/// `count`'s memory for one sweep layer and its spill threshold: well inside
/// a 24 GB machine, leaving room for the finished tables and the allocator.
pub const MEMORY_LIMIT: Opt<u64> = Opt {
    name: "memory-limit",
    default: 16 << 30,
    min: 1 << 20,
    max: u64::MAX,
    help: "Bytes the counting sweep may hold in memory for one layer and the successors buffered for the next, and each cost-to-finish table for its forward layers; beyond it they go to a scratch directory in TMPDIR (removed when done). The finished tables themselves are extra",
};

/// `certify --cubes auto` splits queries from this side on (n = 11's longest
/// query, level 2, took 13 minutes as one call; n = 12's are past what was
/// measured as one call) ...
pub const AUTO_SPLIT_FROM_SIDE: Opt<usize> = Opt {
    name: "",
    default: 12,
    min: 1,
    max: 40,
    help: "Side from which certify --cubes auto splits long queries",
};

/// ... and from this level on (level 1 is always quick).
pub const AUTO_SPLIT_FROM_LEVEL: Opt<u8> = Opt {
    name: "",
    default: 2,
    min: 1,
    max: 6,
    help: "Level from which certify --cubes auto splits long queries",
};

/// The minimisation asks first for the inherited bound from this level on:
/// levels 4..6 almost always keep level 3's minimum (SPEC table), levels 2
/// and 3 almost never do, and asking would waste a refutation.
pub const ASK_INHERITED_FROM_LEVEL: Opt<u8> = Opt {
    name: "",
    default: 4,
    min: 1,
    max: 6,
    help: "Level from which the search first asks for the lower level's minimum",
};

/// Levels from which a witness of level 4 is completed chain by chain
/// (`counting::cheapest_completion`) before any solver call.
pub const COMPLETE_FROM_LEVEL: Opt<u8> = Opt {
    name: "",
    default: 5,
    min: 5,
    max: 6,
    help: "Level from which the search completes the level-4 witness before solving",
};

/// The SAT road of `count` stops beyond this many lex-leaders.
pub const SAT_ROAD_LEADERS: Opt<usize> = Opt {
    name: "",
    default: 1_000_000,
    min: 1,
    max: usize::MAX,
    help: "Lex-leaders the SAT road of count lists at most",
};

/// `search`'s band: penalties on edges of ring distance below it. The
/// report's runs used 4 for every side but n = 10 and 25 (5).
pub const GRID_BAND: Opt<usize> = Opt {
    name: "band",
    default: 4,
    min: 2,
    max: 80,
    help: "Penalty edges only at ring distance below this (rings from the boundary, ring 1 the perimeter; an edge's distance is the sum of its cells' rings), save --inner ones farther in",
};

/// `search`'s formula level; levels above it come from the chains.
pub const GRID_LEVEL: Opt<u8> = Opt {
    name: "level",
    default: 5,
    min: 4,
    max: 6,
    help: "Level of the restricted formula (4, 5 or 6); the levels above it are filled in along the chains of `+` cells, a level-4 model whose completion costs more is blocked and solved again",
};

/// `search`'s members solved at once.
pub const GRID_JOBS: Opt<usize> = Opt {
    name: "jobs",
    default: 2,
    min: 1,
    max: 4096,
    help: "Members of the portfolio solved at once, one solver each",
};
