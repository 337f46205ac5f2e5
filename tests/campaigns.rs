//! Cube plans, runs, merges and estimates, on one machine or many: one test
//! binary for the area, whose modules are the files of tests/ named below
//! (autotests is off in Cargo.toml), so the suite links hexcert and CaDiCaL
//! once per area and the long tests of its files share the test threads.

mod campaign;
mod common;
mod cubes;
mod estimate;
mod shared_dirs;
mod trees;
