//! The options table is where the command line gets its defaults, ranges
//! and help: each named entry's default is what `--help` shows, its range is
//! what the parser accepts, and every default lies in its range.

use std::process::Command;

use hexcert::options::{self, Opt};

fn help(command: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert")).args(command).arg("--help").output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// The `--help` paragraph of `--name` in `text`.
fn paragraph<'a>(text: &'a str, name: &str) -> &'a str {
    let flag = format!("--{name} <");
    let start = text.find(&flag).unwrap_or_else(|| panic!("no {flag} in\n{text}"));
    let rest = &text[start..];
    &rest[..rest[1..].find("\n  -").map_or(rest.len(), |end| end + 1)]
}

fn shows<T: std::fmt::Display>(option: &Opt<T>, command: &[&str]) {
    let text = help(command);
    let entry = paragraph(&text, option.name);
    let first_words: String = option.help.split_whitespace().take(6).collect::<Vec<_>>().join(" ");
    assert!(entry.split_whitespace().collect::<Vec<_>>().join(" ").contains(&first_words), "{command:?} --{}: help not from the table:\n{entry}", option.name);
    assert!(entry.contains(&format!("[default: {}]", option.default)), "{command:?} --{}: default not the table's:\n{entry}", option.name);
}

#[test]
fn the_command_line_shows_the_tables_defaults_and_help() {
    shows(&options::JOBS, &["certify"]);
    shows(&options::JOBS, &["cubes", "run"]);
    shows(&options::CUBES_AFTER, &["certify"]);
    shows(&options::STORE_LIMIT, &["prove"]);
    shows(&options::CUBE_STORE_LIMIT, &["cubes", "run"]);
    shows(&options::SPLIT_RADIUS, &["cubes", "plan"]);
    shows(&options::SPLIT_DEPTH, &["cubes", "plan"]);
    shows(&options::PREFIX_CONFLICTS, &["cubes", "refine"]);
    shows(&options::TREE_DEPTH, &["cubes", "refine"]);
    shows(&options::MACHINES, &["cubes", "status"]);
    shows(&options::MEMORY_LIMIT, &["count"]);
}

#[test]
fn a_value_outside_an_options_range_is_refused_in_one_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_hexcert")).args(["cubes", "refine", "plan.json", "-o", "x.json", "--tree-depth"]).arg((options::TREE_DEPTH.max + 1).to_string()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("--tree-depth must lie in {}..={}", options::TREE_DEPTH.min, options::TREE_DEPTH.max)), "{stderr}");
    assert_eq!(options::JOBS.parse("0"), Err("--jobs must lie in 1..=4096".into()));
    assert_eq!(options::JOBS.parse("two"), Err("`two` is not a number".into()));
    assert_eq!(options::JOBS.parse("3"), Ok(3));
}

#[test]
fn every_default_lies_in_its_range() {
    fn within<T: PartialOrd + std::fmt::Debug>(option: &Opt<T>) {
        assert!(option.min <= option.default && option.default <= option.max, "{option:?}");
        assert!(!option.help.is_empty());
    }
    within(&options::JOBS);
    within(&options::CUBES_AFTER);
    within(&options::STORE_LIMIT);
    within(&options::CUBE_STORE_LIMIT);
    within(&options::SPLIT_RADIUS);
    within(&options::SPLIT_DEPTH);
    within(&options::PREFIX_CONFLICTS);
    within(&options::TREE_DEPTH);
    within(&options::MACHINES);
    within(&options::MEMORY_LIMIT);
    within(&options::AUTO_SPLIT_FROM_SIDE);
    within(&options::AUTO_SPLIT_FROM_LEVEL);
    within(&options::ASK_INHERITED_FROM_LEVEL);
    within(&options::COMPLETE_FROM_LEVEL);
    within(&options::SAT_ROAD_LEADERS);
}
