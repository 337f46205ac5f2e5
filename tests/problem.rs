//! The problem itself: geometry, the plain validator, symmetry, the encoder
//! against brute force, grids and their files: one test binary for the area,
//! whose modules are the files of tests/ named below (autotests is off in
//! Cargo.toml), so the suite links hexcert and CaDiCaL once per area and the
//! long tests of its files share the test threads.

mod bound;
mod common;
mod formats;
mod fuzz;
mod geometry;
mod grids;
mod rendering;
mod sat;
mod symmetry;
mod validation;
