//! The VeriPB derivation from the OPB statement to the level CNF
//! (src/derivation/), checked by VeriPB itself: accepted for every level at
//! n = 3 and several bounds, rejected when the statement, the target or the
//! derivation is changed. The target is compared with the formula `prove`
//! builds for the claim (without symmetry breaking), so what VeriPB accepts
//! is the CNF hexcert solves.
//!
//! Needs `veripb` on PATH (`cargo install veripb --locked`; CI installs it);
//! without it the checks print a note and pass.

use std::path::{Path, PathBuf};
use std::process::Command;

use hexcert::derivation::{target_formula, write_cnf_as_opb, write_derivation};
use hexcert::encoding::{EncodeOptions, LevelEncoding, SymmetryBreaking};
use hexcert::geometry::Hexagon;
use hexcert::statement::Statement;

fn veripb_on_path() -> bool {
    let found = Command::new("veripb").arg("--version").output().is_ok();
    if !found {
        eprintln!("note: veripb is not on PATH (cargo install veripb --locked); the VeriPB checks did not run");
    }
    found
}

/// Statement, derivation and target of (n, level, below) in a fresh directory.
struct Files {
    dir: PathBuf,
    statement: PathBuf,
    proof: PathBuf,
    target: PathBuf,
}

fn write_files(name: &str, n: usize, level: u8, below: usize) -> Files {
    let dir = std::env::temp_dir().join(format!("hexcert-derivation-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hex = Hexagon::new(n).unwrap();
    let files = Files { statement: dir.join("s.opb"), proof: dir.join("d.pbp"), target: dir.join("t.opb"), dir };
    std::fs::write(&files.statement, Statement::new(&hex, level, below).to_opb(&hex)).unwrap();
    let mut proof = Vec::new();
    write_derivation(&hex, level, below, &mut proof).unwrap();
    std::fs::write(&files.proof, proof).unwrap();
    let mut target = Vec::new();
    write_cnf_as_opb(&target_formula(&hex, level, below).unwrap(), &mut target).unwrap();
    std::fs::write(&files.target, target).unwrap();
    files
}

/// VeriPB's verdict: `Ok` with its output on `s VERIFIED OUTPUT DERIVABLE`, else its complaint.
fn veripb(statement: &Path, proof: &Path, target: &Path) -> Result<String, String> {
    let out = Command::new("veripb").arg(statement).arg(proof).arg(target).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    if out.status.success() && stdout.lines().any(|l| l == "s VERIFIED OUTPUT DERIVABLE") {
        Ok(stdout)
    } else {
        Err(format!("{stdout}{}", String::from_utf8_lossy(&out.stderr)))
    }
}

#[test]
fn the_target_is_the_formula_prove_solves_without_symmetry_breaking() {
    for (n, level, below) in [(3, 1, 2), (3, 4, 3), (4, 2, 2), (4, 1, 1), (3, 2, 100)] {
        let hex = Hexagon::new(n).unwrap();
        let target = target_formula(&hex, level, below).unwrap();
        let settings = hexcert::certification::Settings::new("unused".into());
        let plain = hexcert::certification::prove::formulations(&settings, below - 1)
            .into_iter()
            .find(|o| o.symmetry == SymmetryBreaking::None)
            .expect("prove offers the formula without symmetry breaking");
        assert_eq!(plain, EncodeOptions::bounded(Some(below - 1)), "prove's default cardinality is the derived one");
        let solved = LevelEncoding::new(&hex, level, plain).cnf;
        assert_eq!(solved.to_dimacs(), target.to_dimacs(), "n={n} level={level} below={below}");
        let mut text = Vec::new();
        write_cnf_as_opb(&target, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let read: Vec<Vec<i32>> = text
            .lines()
            .skip(1)
            .map(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                assert_eq!(&words[words.len() - 3..], [">=", "1", ";"], "{line}");
                words[..words.len() - 3]
                    .chunks(2)
                    .map(|pair| {
                        assert_eq!(pair[0], "+1");
                        let (negated, var) = match pair[1].strip_prefix('~') {
                            Some(rest) => (true, rest),
                            None => (false, pair[1]),
                        };
                        let var: i32 = var.strip_prefix('x').unwrap().parse().unwrap();
                        if negated { -var } else { var }
                    })
                    .collect()
            })
            .collect();
        assert_eq!(read, target.clauses(), "the OPB target reads back as the same clauses");
    }
}

#[test]
fn veripb_accepts_the_derivation_at_every_level() {
    if !veripb_on_path() {
        return;
    }
    let cases = [(3, 1, 2), (3, 2, 3), (3, 3, 3), (3, 4, 1), (3, 5, 4), (3, 6, 3), (4, 2, 2), (2, 3, 100)];
    for (n, level, below) in cases {
        let files = write_files(&format!("ok-{n}-{level}-{below}"), n, level, below);
        if let Err(why) = veripb(&files.statement, &files.proof, &files.target) {
            panic!("n={n} level={level} below={below}: {why}");
        }
        std::fs::remove_dir_all(&files.dir).unwrap();
    }
}

/// Replaces the first line of `path` that satisfies `pick` by `change(line)`.
fn edit(path: &Path, pick: impl Fn(&str) -> bool, change: impl Fn(&str) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut done = false;
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            if !done && pick(l) {
                done = true;
                change(l)
            } else {
                l.to_string()
            }
        })
        .collect();
    assert!(done, "no line to change in {}", path.display());
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn veripb_rejects_a_changed_statement_target_or_derivation() {
    if !veripb_on_path() {
        return;
    }
    // A support constraint made void: the support clauses no longer follow.
    let files = write_files("weak-support", 3, 2, 3);
    edit(&files.statement, |l| l.ends_with("x_c0_plus >= 0 ;"), |l| l.replace(">= 0 ;", ">= -1 ;"));
    assert!(veripb(&files.statement, &files.proof, &files.target).is_err(), "weakened support accepted");
    std::fs::remove_dir_all(&files.dir).unwrap();

    // A target clause with one literal more than the derived one.
    let files = write_files("weak-target", 3, 2, 3);
    edit(&files.target, |l| l.starts_with("+1 ~x"), |l| l.replace(">= 1 ;", "+1 x1 >= 1 ;"));
    assert!(veripb(&files.statement, &files.proof, &files.target).is_err(), "changed target accepted");
    std::fs::remove_dir_all(&files.dir).unwrap();

    // A target missing one clause: the core then holds a clause it does not list.
    let files = write_files("short-target", 3, 2, 3);
    edit(&files.target, |l| l.starts_with("+1 ~x"), |_| "* dropped".to_string());
    assert!(veripb(&files.statement, &files.proof, &files.target).is_err(), "shortened target accepted");
    std::fs::remove_dir_all(&files.dir).unwrap();

    // A derivation written for another level: the statement's constraint count differs.
    let files = write_files("other-level", 3, 2, 3);
    let other = write_files("other-level-3", 3, 3, 3);
    assert!(veripb(&files.statement, &other.proof, &other.target).is_err(), "level-3 proof accepted for level 2");
    std::fs::remove_dir_all(&files.dir).unwrap();
    std::fs::remove_dir_all(&other.dir).unwrap();

    // A derivation for another bound: the statement allows one penalty more
    // than the counter's clauses claim.
    let files = write_files("other-bound", 3, 2, 4);
    let other = write_files("other-bound-3", 3, 2, 3);
    assert!(veripb(&files.statement, &other.proof, &other.target).is_err(), "below-3 proof accepted for below 4");
    std::fs::remove_dir_all(&files.dir).unwrap();
    std::fs::remove_dir_all(&other.dir).unwrap();

    // A derivation step that claims a clause the statement does not imply.
    let files = write_files("bad-step", 3, 2, 3);
    edit(&files.proof, |l| l.starts_with("rup "), |l| {
        let words: Vec<&str> = l.split_whitespace().collect();
        format!("rup {}", words[3..].join(" "))
    });
    assert!(veripb(&files.statement, &files.proof, &files.target).is_err(), "a stronger rup step accepted");
    std::fs::remove_dir_all(&files.dir).unwrap();
}
