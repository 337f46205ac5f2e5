//! The house rules: the module graph, the options table, the command line and
//! its reference, the printed reports: one test binary for the area, whose
//! modules are the files of tests/ named below (autotests is off in
//! Cargo.toml), so the suite links hexcert and CaDiCaL once per area and the
//! long tests of its files share the test threads.

mod cli;
mod cli_doc;
mod common;
mod docs_commands;
mod errors_docs;
mod module_graph;
mod names;
mod options;
mod reports;
mod results_table;
