//! hexcert: proofs and exact counts for the Hexagonal Neighbors problem.
//!
//! The modules, from the ground up (the order of docs/ARCHITECTURE.md's
//! layers, which tests/module_graph.rs holds both lists and the imports to):
//! - `error`: the engine's one error type;
//! - `outcome`: what a command ended with, and its exit code;
//! - `context`: the run's stop flag and log switches, made once by `main`;
//! - `options`: the options table (defaults, ranges, help) of every search
//!   and campaign policy;
//! - `geometry`: the hexagon, its cells, edges, rings and symmetries;
//! - `levels`: level-k partials;
//! - `validation`: the plain validator (no SAT code);
//! - `bound`: a lower bound on the penalty from owned terms over windows,
//!   computed exactly (no SAT code);
//! - `orbits`: the 12 symmetries close listed leaders into every partial;
//! - `statement`: the problem as a pseudo-Boolean (OPB) file, for VeriPB (no SAT code);
//! - `formula`: CNF and DIMACS;
//! - `encoding`: the level-k CNF encoder;
//! - `run`: who this run is, and the scratch directories it owns;
//! - `files`: outputs written whole or not at all, bounded reads;
//! - `digest`: SHA-256 of bytes and files, below the records and proofs;
//! - `compress`: gzip of stored CNFs and proofs, below the records and proofs;
//! - `formats`: grid files (hexcert and published formats);
//! - `records`: every record (claim, cube claim, plan, cube record,
//!   optimum, trust base), read once and judged in one place, and the
//!   ledger of resumable units (no SAT code, and nothing of the layers
//!   above it: tests/module_graph.rs keeps it so);
//! - `proofs`: the proof trace, the online LRAT check, the proof writers;
//! - `cubes`: split cells, cube plans and their cover check;
//! - `derivation`: a VeriPB proof from the statement to the level CNF;
//! - `recount`: a lift's classes recounted by an external model counter;
//! - `counting`: exact counts, asked through one query (`Count`): the
//!   frontier sweep, the chain products and the extension road;
//! - `verify`: everything that judges records without a solver: check,
//!   cube status, the statement -> CNF check, regeneration's judging;
//! - `solving`: the `SatSolver` trait and its CaDiCaL backend;
//! - `search`: the searches, which see the solver through its trait only;
//! - `listing`: the SAT road's listing of lex-leaders (`count --road sat`):
//!   plan, list, refute, record (behind the feature `solver`);
//! - `certify`: everything else that solves: prove, optimum, cube runs and
//!   merges, refinement (behind the feature `solver`);
//! - `rendering`: pictures of grids;
//! - `gallery`: every certified optimum and best grid drawn into one page;
//! - `results`: the results table and each record's facts, as the records state them.
//!
//! tests/module_graph.rs holds the files to this: no import circle, no
//! solver code reachable from the checking side.

pub mod bound;
#[cfg(feature = "solver")]
pub mod certify;
pub mod compress;
pub mod context;
pub mod counting;
pub mod cubes;
pub mod derivation;
pub mod digest;
pub mod encoding;
pub mod error;
pub mod files;
pub mod formats;
pub mod formula;
pub mod gallery;
pub mod geometry;
pub mod levels;
#[cfg(feature = "solver")]
pub mod listing;
pub mod options;
pub mod orbits;
pub mod outcome;
pub mod proofs;
pub mod records;
pub mod recount;
pub mod rendering;
pub mod results;
pub mod run;
#[cfg(feature = "solver")]
pub mod search;
#[cfg(feature = "solver")]
pub mod solving;
pub mod statement;
pub mod validation;
pub mod verify;

pub use error::HexError;
