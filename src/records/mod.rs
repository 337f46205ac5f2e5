//! The record layer: every record hexcert writes or judges (claim, cube
//! claim, plan, cube record, optimum, the units of resumable runs), read
//! once and judged in one place, with no solver code.
//!
//! Invariants (enforced by tests/module_graph.rs): nothing in this module,
//! in `verify` or in `lrat/` imports, directly or through other files,
//! anything that imports `solving`. What a record proves must
//! not depend on the code that found its proof. And this module imports
//! nothing of the layers above it (`proofs`, `cubes`, `counting`,
//! `verify`, `solving`, `search`, `certify`, the binary): they write what
//! it judges;
//! run identity (`run`), hashing (`digest`) and compression (`compress`)
//! sit below it.
//!
//! - `header`: the statement `{format, statement, n, level, below}` shared
//!   by claims, cube claims and plans, and its one consistency check;
//! - `read`: the bounded reader (regular files only, size-limited), and
//!   `Checked`, each record type's judgement of its own fields, which every
//!   read runs: a record that reads is in range;
//! - `record`: the one `Record` enum, tagged on `format`;
//! - `claim`, `cube`, `plan`, `optimum`: the record types; `ranges`: their numbers;
//! - `verdict`: a checker's verdict as recorded, and what binds the
//!   verified checker's to its claim (hashes, known builds);
//! - `trust`: the trust base, derived from what a record states;
//! - `RecordError` (in `crate::error`, the bottom layer, so that `HexError`
//!   carries it typed): one variant per way a record or a proof can fail;
//! - `status`: what a run established about a record;
//! - `table`: a computed count table (`table counts --record`), the counts
//!   of the sides no listing holds;
//! - `reproduction`: a cube of a cube claim re-solved and matched by one
//!   run of a re-check spread over several (`check --across-runs`);
//! - `ledger`: the records of resumable units (cubes, leader cubes, refined
//!   pieces): written once, read back bounded and matched to the run
//!   reading them, their writers counted.

pub mod claim;
pub mod cube;
pub mod header;
pub mod leaders;
pub mod ledger;
pub mod lift;
pub mod optimum;
pub mod plan;
pub mod ranges;
pub mod read;
pub mod record;
pub mod recount;
pub mod reproduction;
pub mod status;
pub mod table;
pub mod trust;
pub mod verdict;

pub use crate::error::RecordError;
pub use claim::{
    this_build, BuildRecord, CheckerRecord, Claim, EncoderRecord, FileRecord, LratRecord, SolverRecord,
    StatementRecord, VeripbRecord, CLAIM_FORMAT,
};
pub use cube::{CubeClaim, CubeResult, CubeVerdict, CUBE_CLAIM_FORMAT, RESULT_FORMAT};
pub use header::Header;
pub use optimum::{Optimum, WitnessSource, OPTIMUM_FORMAT};
pub use read::read_json;
pub use record::Record;
pub use status::Status;
