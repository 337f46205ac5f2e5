//! The OPB statement (`hexcert statement`, src/statement.rs) read back from
//! its text by a small evaluator written here, and held against the two
//! things it claims: it is invariant under the 12 symmetries of the hexagon,
//! and it has a solution exactly when the plain validator finds a valid
//! partial below the bound. The evaluator shares no code with the writer:
//! it knows the variable names only as text (`x_cC_va`, `x_cC_plus`,
//! `eq_cU_cV`, `dup_cC_va_j`).

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::statement::Statement;
use hexcert::validation::evaluate;

/// One parsed OPB line: `terms relation bound`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Line {
    terms: Vec<(String, i64)>,
    relation: String,
    bound: i64,
}

/// The constraints of an OPB text, after checking its header counts.
fn parse_opb(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut header = None;
    let mut names = BTreeSet::new();
    for raw in text.lines() {
        if let Some(comment) = raw.strip_prefix('*') {
            if header.is_none() {
                let words: Vec<&str> = comment.split_whitespace().collect();
                assert_eq!(words[0], "#variable=", "the first line is the OPB header");
                header = Some((words[1].parse::<usize>().unwrap(), words[3].parse::<usize>().unwrap()));
            }
            continue;
        }
        let body = raw.strip_suffix(" ;").unwrap_or_else(|| panic!("no terminator: {raw}"));
        let words: Vec<&str> = body.split_whitespace().collect();
        let (relation, bound) = (words[words.len() - 2], words[words.len() - 1].parse().unwrap());
        assert!(matches!(relation, ">=" | "<=" | "="), "{raw}");
        let terms: Vec<(String, i64)> = words[..words.len() - 2]
            .chunks(2)
            .map(|pair| {
                assert!(pair[0].starts_with('+') || pair[0].starts_with('-'), "signed coefficient: {raw}");
                (pair[1].to_string(), pair[0].parse().unwrap())
            })
            .collect();
        names.extend(terms.iter().map(|(name, _)| name.clone()));
        lines.push(Line { terms, relation: relation.to_string(), bound });
    }
    let (variables, constraints) = header.expect("header");
    assert_eq!(constraints, lines.len(), "#constraint= counts the lines");
    assert_eq!(variables, names.len(), "#variable= counts the names used");
    lines
}

fn statement_text(n: usize, level: u8, below: usize) -> String {
    let hex = Hexagon::new(n).unwrap();
    String::from_utf8(Statement::new(&hex, level, below).to_opb(&hex)).unwrap()
}

/// The image of a variable name under a cell permutation.
fn rename(name: &str, perm: &[usize]) -> String {
    let cell = |text: &str| -> usize { text.strip_prefix('c').expect("cell").parse().unwrap() };
    let parts: Vec<&str> = name.split('_').collect();
    match parts[0] {
        "x" | "dup" => {
            let mut out = vec![parts[0].to_string(), format!("c{}", perm[cell(parts[1])])];
            out.extend(parts[2..].iter().map(|p| p.to_string()));
            out.join("_")
        }
        "eq" => {
            let (u, v) = (perm[cell(parts[1])], perm[cell(parts[2])]);
            format!("eq_c{}_c{}", u.min(v), u.max(v))
        }
        other => panic!("unknown variable family {other} in {name}"),
    }
}

/// A constraint with its terms sorted: equal constraints compare equal.
fn normalised(line: &Line, perm: &[usize]) -> Line {
    let mut terms: Vec<(String, i64)> = line.terms.iter().map(|(n, c)| (rename(n, perm), *c)).collect();
    terms.sort();
    Line { terms, relation: line.relation.clone(), bound: line.bound }
}

#[test]
fn every_symmetry_maps_the_statement_onto_itself() {
    for n in 3..=5 {
        let hex = Hexagon::new(n).unwrap();
        let identity: Vec<usize> = (0..hex.cell_count()).collect();
        for level in 1..=6 {
            let lines = parse_opb(&statement_text(n, level, 7));
            let original: BTreeSet<Line> = lines.iter().map(|l| normalised(l, &identity)).collect();
            assert_eq!(original.len(), lines.len(), "n={n} level={level}: no constraint is written twice");
            for (s, perm) in hex.symmetries().iter().enumerate() {
                let image: BTreeSet<Line> = lines.iter().map(|l| normalised(l, perm)).collect();
                assert!(image == original, "n={n} level={level}: symmetry {s} changes the statement");
            }
        }
    }
}

/// What the statement says about one partial: `None` when no choice of the
/// penalty indicators satisfies the non-bound constraints, else the least
/// total charge (the bound then holds iff that total is at most B - 1).
fn least_charge(lines: &[Line], values: &[u8], level: u8) -> Option<i64> {
    let holds = |name: &str| -> Option<bool> {
        let rest = name.strip_prefix("x_c")?;
        let (cell, value) = rest.split_once('_').unwrap();
        let v = values[cell.parse::<usize>().unwrap()];
        Some(if value == "plus" { v == level + 1 } else { value[1..].parse::<u8>().unwrap() == v })
    };
    // Indicators only appear with coefficient +1 in lower bounds and in the
    // upper bound on their sum, so setting, constraint by constraint, as few
    // as each lower bound needs gives the least total.
    let mut charged: BTreeMap<String, bool> = BTreeMap::new();
    let (bound_lines, others): (Vec<&Line>, Vec<&Line>) = lines.iter().partition(|l| l.relation == "<=");
    assert_eq!(bound_lines.len(), 1, "one penalty bound");
    for line in &others {
        let fixed: i64 = line.terms.iter().filter_map(|(n, c)| holds(n).map(|b| c * i64::from(b))).sum();
        let indicators: Vec<&String> = line
            .terms
            .iter()
            .filter(|(n, _)| holds(n).is_none())
            .map(|(n, c)| {
                assert_eq!((*c, line.relation.as_str()), (1, ">="), "indicators only in lower bounds");
                n
            })
            .collect();
        for name in &indicators {
            charged.entry(name.to_string()).or_insert(false);
        }
        let have = indicators.iter().filter(|n| charged[n.as_str()]).count() as i64;
        let mut need = match line.relation.as_str() {
            "=" => {
                if fixed != line.bound {
                    return None;
                }
                0
            }
            _ => line.bound - fixed - have,
        };
        for name in &indicators {
            if need <= 0 {
                break;
            }
            if !charged[name.as_str()] {
                charged.insert(name.to_string(), true);
                need -= 1;
            }
        }
        if need > 0 {
            return None;
        }
    }
    let bound = bound_lines[0];
    assert!(bound.terms.iter().all(|(n, c)| *c == 1 && holds(n).is_none()), "the bound sums indicators");
    Some(bound.terms.iter().filter(|(n, _)| charged.get(n.as_str()).copied().unwrap_or(false)).count() as i64)
}

/// The bound constant of the statement with `below`, read from its text (cached).
struct Bounds {
    n: usize,
    level: u8,
    known: BTreeMap<usize, i64>,
}

impl Bounds {
    fn new(n: usize, level: u8) -> Bounds {
        Bounds { n, level, known: BTreeMap::new() }
    }

    fn of(&mut self, below: usize) -> i64 {
        let (n, level) = (self.n, self.level);
        *self.known.entry(below).or_insert_with(|| {
            let lines = parse_opb(&statement_text(n, level, below));
            let bound: Vec<&Line> = lines.iter().filter(|l| l.relation == "<=").collect();
            assert_eq!(bound.len(), 1, "one penalty bound");
            bound[0].bound
        })
    }
}

/// One partial: the statement's verdict is the validator's "valid with
/// penalty below B", for B = 0 and the two bounds around the penalty.
fn agrees(lines: &[Line], bounds: &mut Bounds, hex: &Hexagon, partial: &Partial) -> bool {
    let eval = evaluate(hex, partial);
    let least = least_charge(lines, partial.values(), partial.level());
    assert_eq!(least.is_some(), eval.is_valid(), "validity of {:?}", partial.values());
    if let Some(charge) = least {
        assert_eq!(charge, eval.penalty as i64, "least charge of {:?}", partial.values());
        for below in [0, eval.penalty, eval.penalty + 1] {
            assert_eq!(charge <= bounds.of(below), eval.penalty < below, "B={below} on {:?}", partial.values());
        }
    }
    eval.is_valid()
}

#[test]
fn brute_force_at_side_two_agrees_with_the_validator() {
    let hex = Hexagon::new(2).unwrap();
    for level in 1..=3u8 {
        let lines = parse_opb(&statement_text(2, level, 0));
        let mut bounds = Bounds::new(2, level);
        let base = u32::from(level) + 1;
        let (mut valid, mut total) = (0, 0);
        for code in 0..base.pow(7) {
            let values: Vec<u8> = (0..7).map(|i| (code / base.pow(i) % base) as u8 + 1).collect();
            let partial = Partial::new(2, level, values).unwrap();
            valid += usize::from(agrees(&lines, &mut bounds, &hex, &partial));
            total += 1;
        }
        assert!(valid > 0 && valid < total, "level {level}: both valid and invalid partials were met");
    }
}

/// xorshift64: reproducible partials without a dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, m: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % m
    }
}

#[test]
fn random_partials_at_sides_three_to_six_agree_with_the_validator() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut valid, mut invalid) = (0, 0);
    for n in 3..=6 {
        let hex = Hexagon::new(n).unwrap();
        let grid = published_grid(n);
        for level in 1..=6u8 {
            let lines = parse_opb(&statement_text(n, level, 0));
            let mut bounds = Bounds::new(n, level);
            let start = grid.truncate(level).unwrap();
            for round in 0..40 {
                // Valid partials come from the published grid with a few
                // cells changed; fully random ones are almost always invalid.
                let mut values = start.values().to_vec();
                if round % 4 == 3 {
                    values.iter_mut().for_each(|v| *v = rng.below(u64::from(level) + 1) as u8 + 1);
                } else {
                    for _ in 0..round % 4 {
                        let cell = rng.below(values.len() as u64) as usize;
                        values[cell] = rng.below(u64::from(level) + 1) as u8 + 1;
                    }
                }
                let partial = Partial::new(n, level, values).unwrap();
                if agrees(&lines, &mut bounds, &hex, &partial) {
                    valid += 1;
                } else {
                    invalid += 1;
                }
            }
        }
    }
    assert!(valid > 100 && invalid > 100, "{valid} valid and {invalid} invalid partials checked");
}

fn published_grid(n: usize) -> Partial {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/published");
    let path = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(&format!("CLEAN-{n}-")))
        .expect("published grid");
    hexcert::formats::read_grid_file(&path, Some(n)).unwrap().partial
}

#[test]
fn the_side_two_level_one_statement_text() {
    insta::with_settings!({snapshot_path => "../snapshots"}, {
        insta::assert_snapshot!("statement_n2_level1_below3", statement_text(2, 1, 3));
    });
}

#[test]
fn the_command_writes_the_library_text_and_rejects_bad_input_in_one_line() {
    let dir = std::env::temp_dir().join(format!("hexcert-statement-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("n3.opb");
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_hexcert")).args(args).output().unwrap();
    let out = run(&["statement", "--n", "3", "--level", "2", "--below", "3", "-o", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), statement_text(3, 2, 3));
    let bad = dir.join("bad.opb");
    for args in [["--n", "0", "--level", "2"], ["--n", "3", "--level", "7"]] {
        let mut all = vec!["statement"];
        all.extend(args);
        all.extend(["--below", "3", "-o", bad.to_str().unwrap()]);
        let out = run(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let first = String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or_default().to_string();
        assert!(first.starts_with("error:"), "{first}");
        assert!(!bad.exists(), "no output file for bad input");
    }
    let (proof, target) = (dir.join("bad.pbp"), dir.join("bad-target.opb"));
    let (bad_s, proof_s, target_s) = (bad.to_str().unwrap(), proof.to_str().unwrap(), target.to_str().unwrap());
    let out = run(&[
        "statement",
        "--n",
        "3",
        "--level",
        "2",
        "--below",
        "0",
        "-o",
        bad_s,
        "--derivation",
        proof_s,
        "--target",
        target_s,
    ]);
    assert_eq!(out.status.code(), Some(2), "a derivation for --below 0");
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "one line");
    assert!(!bad.exists() && !proof.exists() && !target.exists(), "no file for a bad bound");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// VeriPB reads the file and loads the expected number of constraints
/// (equalities count twice). Skipped, with a note, where no `veripb`
/// program is on PATH (the proof has no output section for the library's
/// runner to accept).
#[test]
fn veripb_reads_the_statement() {
    if !common::veripb_program_present() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("hexcert-statement-veripb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (n, level) in [(2, 1), (3, 2), (4, 6)] {
        let text = statement_text(n, level, 5);
        let lines = parse_opb(&text);
        let loaded = lines.len() + lines.iter().filter(|l| l.relation == "=").count();
        let (opb, proof) = (dir.join("s.opb"), dir.join("s.pbp"));
        std::fs::write(&opb, &text).unwrap();
        std::fs::write(
            &proof,
            format!("pseudo-Boolean proof version 3.0\nf {loaded};\noutput NONE;\nconclusion NONE;\nend pseudo-Boolean proof;\n"),
        )
        .unwrap();
        let out = Command::new("veripb").arg(&opb).arg(&proof).output().unwrap();
        assert!(out.status.success(), "n={n} level={level}: {}", String::from_utf8_lossy(&out.stderr));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
