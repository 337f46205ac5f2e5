//! Certificates, their checkers and the records they live in: one test binary
//! for the area, whose modules are the files of tests/ named below (autotests
//! is off in Cargo.toml), so the suite links hexcert and CaDiCaL once per area
//! and the long tests of its files share the test threads.

mod certificates;
mod check;
mod common;
mod derivation;
mod export;
mod hostile_inputs;
mod lrat;
mod profiles;
mod records;
mod split_derivation;
mod statement;
mod tie_break;
mod verifier;
