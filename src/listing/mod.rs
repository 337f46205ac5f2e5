//! The SAT road's listing (`count --road sat`), top-down: one request
//! (`ListingRequest`: the side, the level, the penalty and which of three
//! ways lists, `ListingMode`) is planned (`plan::make`), listed
//! (`list::run`) and recorded (`record::write`).
//!
//! - `plan`: the request, and what is settled before any solver runs: a
//!   certified listing's claim below its minimum, and its directory's name;
//! - `list`: the lex-leaders listed, by one solver or cube by cube
//!   (resumable, or certified), and closed under the 12 symmetries into
//!   the count;
//! - `refute`: a certified cube, its list proven complete by the solver
//!   run that made it; `leaves`: a cube listed leaf by leaf, each leaf so;
//! - `record`: the cube records and `count.json` filled in (their types,
//!   reading and judging are the record layer's, `records::leaders`; their
//!   check, `verify::counts`).
//!
//! The files import each other downwards only: `list` the rest, `leaves`
//! `refute`, and all of them `record` and `plan`.

pub mod leaves;
pub mod list;
pub mod plan;
pub mod record;
pub mod refute;

pub use self::list::{Listed, ListingEvents};
pub use self::plan::{LeafSplit, ListingBound, ListingMode, ListingPlan, ListingRequest};
