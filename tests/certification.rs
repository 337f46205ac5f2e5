//! Certificates, their checkers and the records they live in: one test binary
//! for the area, whose modules are the files of tests/ named below (autotests
//! is off in Cargo.toml), so the suite links hexcert and CaDiCaL once per area
//! and the long tests of its files share the test threads.

mod common;
mod check;
mod certificates;
mod derivation;
mod split_derivation;
mod tie_break;
mod statement;
mod verifier;
mod records;
mod hostile_inputs;
mod profiles;
mod lrat;
mod export;
