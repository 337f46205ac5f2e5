//! The options table: every number that sets how hard the engine searches
//! or how a claim is split and stored, with its default, the values it may
//! take and what it does, in one place (as CaDiCaL keeps its options in one
//! table). The command line takes its defaults, ranges and help from here
//! (`src/main.rs`), and the library's settings and searches read the same
//! entries, so a default is never written twice.
//!
//! Entries without a `name` have no flag: they are fixed policy, listed here
//! so that every threshold the engine acts on is found in one file.

mod entry;
pub use entry::{Opt, OptionEntry};

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
/// and `cubes plan` alike: depth 2 cost 7x more CPU on n = 8 (docs/MEASUREMENTS.md, "Cubes").
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
    help: "With --strategy prefix or pivots: conflicts of the prefix run at each tree node",
};

/// Trees of `cubes refine --strategy prefix`.
pub const TREE_DEPTH: Opt<u64> = Opt {
    name: "tree-depth",
    default: 4,
    min: 1,
    max: 16,
    help: "With --strategy prefix, pivots or cardinality: deepest tree below a cube (up to 2^D leaves)",
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
pub const AUTO_SPLIT_FROM_SIDE: Opt<usize> =
    Opt { name: "", default: 12, min: 1, max: 40, help: "Side from which certify --cubes auto splits long queries" };

/// ... and from this level on (level 1 is always quick).
pub const AUTO_SPLIT_FROM_LEVEL: Opt<u8> =
    Opt { name: "", default: 2, min: 1, max: 6, help: "Level from which certify --cubes auto splits long queries" };

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

/// The extension road splits its symmetry classes into this many pieces: a
/// fixed number, so that an index names the same piece on any machine and
/// in any run (`counting::extension::pieces`).
pub const EXTENSION_PIECES: Opt<usize> = Opt {
    name: "",
    default: 256,
    min: 1,
    max: 1 << 20,
    help: "Pieces the extension road's listing is split into (one record each with --pieces-dir)",
};

/// The extension road re-judges one partial in this many by the validator
/// (every one at the minimum): the sample catches a program that
/// miscounts its own charges; the counts themselves are confirmed by the
/// other road.
pub const EXTENSION_SAMPLE: Opt<u64> = Opt {
    name: "",
    default: 1 << 10,
    min: 1,
    max: u64::MAX,
    help: "The extension road re-judges one partial in this many by the validator",
};

/// Raw proof bytes beyond this multiple of the store limit are not even
/// compressed: binary proofs shrink about 2.6 times under gzip, so they
/// could not be stored anyway, and compressing gigabytes costs minutes.
pub const HOPELESS_RATIO: Opt<u64> = Opt {
    name: "",
    default: 8,
    min: 1,
    max: 1 << 20,
    help: "Proofs larger than this many times the store limit are not compressed for storing",
};

/// The LRAT file beside the DRAT one is kept only while it stays under this
/// many bytes: small proofs are stored with their certificate (checked again
/// by `hexcert check` without a solver); large ones are checked online only.
pub const LRAT_FILE_CAP: Opt<u64> = Opt {
    name: "",
    default: 256 << 20,
    min: 0,
    max: u64::MAX,
    help: "Bytes of LRAT proof kept on disk beside the DRAT one, at most",
};

/// How many times its compressed size a stored file may decompress to.
/// The stored CNFs and proofs come out at 1.2 to 4.1 times; deflate can
/// reach about 1000, which only a crafted file (a gzip bomb) needs.
pub const MAX_EXPANSION: Opt<u64> =
    Opt { name: "", default: 64, min: 1, max: 1032, help: "Times its compressed size a stored file may decompress to" };

/// Largest JSON record read: a plan or a cube claim of about a million
/// cubes (some 40 bytes each); a claim or an optimum is a few kilobytes.
pub const RECORD_BYTES: Opt<u64> = Opt {
    name: "",
    default: 64 << 20,
    min: 1 << 10,
    max: u64::MAX,
    help: "Bytes of a JSON record (claim, plan, cube record, optimum) read at most",
};

/// A grid is a few characters a cell; this bounds the read of a grid file.
pub const GRID_BYTES: Opt<u64> =
    Opt { name: "", default: 1 << 20, min: 1 << 10, max: u64::MAX, help: "Bytes of a grid file read at most" };

/// Largest lex-leader record read back (a cube of n = 13 level 1 lists a
/// few hundred leaders).
pub const LEADERS_RECORD_BYTES: Opt<u64> = Opt {
    name: "",
    default: 64 << 20,
    min: 1 << 10,
    max: u64::MAX,
    help: "Bytes of a lex-leader record (count --leaders-dir) read at most",
};

/// Largest refined-piece record read back (a prefix and a few dozen counts).
pub const PIECE_RECORD_BYTES: Opt<u64> = Opt {
    name: "",
    default: 1 << 20,
    min: 1 << 10,
    max: u64::MAX,
    help: "Bytes of a refined-piece record (count --pieces-dir) read at most",
};

/// Largest optimum.json (or witness) read for a start-bound hint.
pub const HINT_FILE_BYTES: Opt<u64> = Opt {
    name: "",
    default: 1 << 20,
    min: 1 << 10,
    max: u64::MAX,
    help: "Bytes of an optimum.json or witness read for --start-from at most",
};

/// Largest number of projections a split may have (they are enumerated one
/// by one to check the cover).
pub const MAX_PROJECTIONS: Opt<u64> =
    Opt { name: "", default: 1 << 26, min: 1, max: u64::MAX, help: "Projections a cube plan's split may have at most" };

/// Most spilled runs the counting sweep merges at once: keeps open files
/// and their buffers bounded.
pub const SPILL_FAN_IN: Opt<usize> = Opt {
    name: "",
    default: 64,
    min: 2,
    max: 1 << 16,
    help: "Spilled runs the counting sweep merges at once, at most",
};

/// Shards of a layer the counting sweep expands in one wave, per core: a
/// wave's sorted runs are buffered before the memory budget is checked, so
/// more shards a wave keep the cores busier and let the buffer overshoot
/// the budget by more.
pub const SHARDS_PER_CORE: Opt<usize> = Opt {
    name: "",
    default: 2,
    min: 1,
    max: 1 << 10,
    help: "Shards of a layer the counting sweep expands at once per core, before it checks the memory budget",
};

/// Fewest keys of a layer one shard of the counting sweep expands: a tiny
/// memory budget still spills in runs of at least this many.
pub const SHARD_MIN_KEYS: Opt<usize> = Opt {
    name: "",
    default: 64,
    min: 1,
    max: 1 << 16,
    help: "Keys of a layer one shard of the counting sweep expands, at the fewest",
};

/// Most keys of a layer one shard of the counting sweep expands: large
/// enough that sorting, not bookkeeping, is the work.
pub const SHARD_MAX_KEYS: Opt<usize> = Opt {
    name: "",
    default: 1 << 16,
    min: 1,
    max: 1 << 30,
    help: "Keys of a layer one shard of the counting sweep expands, at the most",
};

/// Memory a run may spend re-encoding the formulas of the claims it checks
/// at once (the formula, its DIMACS text and its hash), in MB: a claim whose
/// formula alone would pass it is refused before the encoder allocates.
pub const ENCODING_BUDGET_MB: Opt<u64> = Opt {
    name: "",
    default: 4096,
    min: 1,
    max: u64::MAX,
    help: "MB the formulas re-encoded by one check run may hold at once",
};

/// Copies of the formula a cube claim's check holds at its peak (the plain
/// formula, the split formula's DIMACS, the lifted checker's, a cube's):
/// measured about 2.3 times the plain formula's estimate, rounded up.
pub const CUBE_CLAIM_COPIES: Opt<u64> = Opt {
    name: "",
    default: 3,
    min: 1,
    max: 64,
    help: "Times a cube claim's check counts its formula against the encoding budget",
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
    name: "formula-level",
    default: 5,
    min: 3,
    max: 6,
    help: "Level of the restricted formula (3 to 6); the levels above it are filled in along the chains of `+` cells, a level-4 model whose completion costs more is blocked and solved again; a level-3 model is first refined to level 5 by the unrestricted formula with its cells fixed (exhaustively: one that no grid within the bound refines is blocked)",
};

/// `check --regenerate`'s cubes of one claim re-solved at once.
pub const CHECK_JOBS: Opt<usize> = Opt {
    name: "jobs",
    default: 1,
    min: 1,
    max: 4096,
    help: "With --regenerate: cubes of one cube claim re-solved at once, the dearest first, each a solver, its LRAT checker and (with a verified checker) a cake_lpr with its own heap; one run that checks every cube is what verifies a cube claim, so this is how a claim of more CPU than a session allows is verified",
};

/// `search`'s members solved at once.
pub const GRID_JOBS: Opt<usize> = Opt {
    name: "jobs",
    default: 2,
    min: 1,
    max: 4096,
    help: "Members of the portfolio solved at once, one solver each",
};

/// Writes `TABLE` from the names of its entries, so an entry's Rust name
/// and its row cannot disagree.
macro_rules! table {
    ($($entry:ident),* $(,)?) => {
        /// Every entry, in the order of this file, with its Rust name.
        pub const TABLE: &[(&str, &dyn OptionEntry)] = &[$((stringify!($entry), &$entry)),*];
    };
}

table![
    JOBS,
    CUBES_AFTER,
    STORE_LIMIT,
    CUBE_STORE_LIMIT,
    SPLIT_RADIUS,
    SPLIT_DEPTH,
    PREFIX_CONFLICTS,
    TREE_DEPTH,
    BUDGET_SPLIT,
    ROUNDS,
    MACHINES,
    MEMORY_LIMIT,
    AUTO_SPLIT_FROM_SIDE,
    AUTO_SPLIT_FROM_LEVEL,
    ASK_INHERITED_FROM_LEVEL,
    COMPLETE_FROM_LEVEL,
    SAT_ROAD_LEADERS,
    EXTENSION_PIECES,
    EXTENSION_SAMPLE,
    HOPELESS_RATIO,
    LRAT_FILE_CAP,
    MAX_EXPANSION,
    RECORD_BYTES,
    GRID_BYTES,
    LEADERS_RECORD_BYTES,
    PIECE_RECORD_BYTES,
    HINT_FILE_BYTES,
    MAX_PROJECTIONS,
    SPILL_FAN_IN,
    SHARDS_PER_CORE,
    SHARD_MIN_KEYS,
    SHARD_MAX_KEYS,
    ENCODING_BUDGET_MB,
    CUBE_CLAIM_COPIES,
    GRID_BAND,
    GRID_LEVEL,
    CHECK_JOBS,
    GRID_JOBS,
];
