//! Exact counts: the frontier sweep, the extension road, the SAT road of lex-
//! leaders, their checkpoints and the counting wing's module map: one test
//! binary for the area, whose modules are the files of tests/ named below
//! (autotests is off in Cargo.toml), so the suite links hexcert and CaDiCaL
//! once per area and the long tests of its files share the test threads.

mod bounded_listings;
mod certified_counts;
mod checkpoints;
mod common;
mod counting;
mod counting_modules;
mod leaders;
mod recount;
mod refinement;
