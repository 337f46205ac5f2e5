//! The VeriPB derivation from the OPB statement to the level CNF
//! (src/derivation/), checked by VeriPB itself: accepted for every level at
//! n = 3 and several bounds, rejected when the statement, the target or the
//! derivation is changed. The target is compared with the formula `prove`
//! builds for the claim (without symmetry breaking), so what VeriPB accepts
//! is the CNF hexcert solves.
//!
//! Needs `veripb` on PATH (`cargo install veripb --locked`; CI installs it);
//! without it the checks print a note and pass, except under CI (`CI` set),
//! where a missing VeriPB fails the test.

use crate::common::{self, Scratch};

use std::path::{Path, PathBuf};
use std::process::Command;

use hexcert::derivation::{target_formula, write_cnf_as_opb, write_derivation};
use hexcert::encoding::{Cardinality, EncodeOptions, LevelEncoding, SymmetryBreaking};
use hexcert::geometry::Hexagon;
use hexcert::statement::Statement;

/// VeriPB on PATH or linked in (under CI it must be: `common::veripb_present` fails there without it).
fn veripb_on_path() -> bool {
    common::veripb_present()
}

/// Statement, derivation and target of (n, level, below) in a fresh directory.
struct Files {
    dir: Scratch,
    statement: PathBuf,
    proof: PathBuf,
    target: PathBuf,
}

fn write_files(name: &str, n: usize, level: u8, below: usize) -> Files {
    write_files_with(name, n, level, below, SymmetryBreaking::None)
}

fn write_files_with(name: &str, n: usize, level: u8, below: usize, symmetry: SymmetryBreaking) -> Files {
    write_files_as(name, n, level, below, (symmetry, Cardinality::default()))
}

fn write_files_as(
    name: &str,
    n: usize,
    level: u8,
    below: usize,
    (symmetry, cardinality): (SymmetryBreaking, Cardinality),
) -> Files {
    let dir = Scratch::new(&format!("derivation-{name}"));
    let hex = Hexagon::new(n).unwrap();
    let files = Files { statement: dir.join("s.opb"), proof: dir.join("d.pbp"), target: dir.join("t.opb"), dir };
    std::fs::write(&files.statement, Statement::new(&hex, level, below).to_opb(&hex)).unwrap();
    let mut proof = Vec::new();
    write_derivation(&hex, level, below, (symmetry, cardinality), &mut proof).unwrap();
    std::fs::write(&files.proof, proof).unwrap();
    let mut target = Vec::new();
    write_cnf_as_opb(&target_formula(&hex, level, below, symmetry, cardinality).unwrap(), &mut target).unwrap();
    std::fs::write(&files.target, target).unwrap();
    files
}

/// VeriPB's verdict: `Ok` with its output on `s VERIFIED OUTPUT DERIVABLE`, else its complaint.
fn veripb(statement: &Path, proof: &Path, target: &Path) -> Result<(), String> {
    common::veripb_verdict(statement, proof, target)
}

#[test]
fn the_targets_are_the_formulas_prove_races() {
    for (n, level, below) in [(3, 1, 2), (3, 4, 3), (4, 2, 2), (4, 1, 1), (3, 2, 100)] {
        let hex = Hexagon::new(n).unwrap();
        let settings = hexcert::certify::Settings::new("unused".into());
        let raced = hexcert::certify::prove::formulations(&settings, below - 1);
        assert_eq!(raced.len(), 2, "prove races the symmetry-broken and the plain formula");
        for options in raced {
            assert_eq!(
                options,
                EncodeOptions { symmetry: options.symmetry, ..EncodeOptions::bounded(Some(below - 1)) }
            );
            let solved = LevelEncoding::new(&hex, level, options).cnf;
            let target = target_formula(&hex, level, below, options.symmetry, options.cardinality).unwrap();
            assert_eq!(solved.to_dimacs(), target.to_dimacs(), "n={n} level={level} below={below} {options:?}");
        }
        let target =
            target_formula(&hex, level, below, SymmetryBreaking::Ring1LexLeader, Cardinality::default()).unwrap();
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
                        if negated {
                            -var
                        } else {
                            var
                        }
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
        for symmetry in [SymmetryBreaking::None, SymmetryBreaking::Ring1LexLeader] {
            let files = write_files_with(&format!("ok-{n}-{level}-{below}-{symmetry:?}"), n, level, below, symmetry);
            if let Err(why) = veripb(&files.statement, &files.proof, &files.target) {
                panic!("n={n} level={level} below={below} {symmetry:?}: {why}");
            }
            std::fs::remove_dir_all(&files.dir).unwrap();
        }
    }
}

/// The counter over the edges in wedge order is derived like the one in
/// index order (the derivation takes its inputs in the encoder's order).
#[test]
fn veripb_accepts_the_derivation_of_the_wedge_counter() {
    if !veripb_on_path() {
        return;
    }
    for (n, level, below) in [(3, 2, 3), (4, 3, 3), (4, 1, 2)] {
        for symmetry in [SymmetryBreaking::None, SymmetryBreaking::Ring1LexLeader] {
            let form = (symmetry, Cardinality::WedgeCounter);
            let files = write_files_as(&format!("wedge-{n}-{level}-{below}-{symmetry:?}"), n, level, below, form);
            if let Err(why) = veripb(&files.statement, &files.proof, &files.target) {
                panic!("n={n} level={level} below={below} {symmetry:?} wedge counter: {why}");
            }
            std::fs::remove_dir_all(&files.dir).unwrap();
        }
    }
    // The derivation of one order does not reach the other's formula.
    let files = write_files_as("wedge-mismatch", 4, 3, 3, (SymmetryBreaking::None, Cardinality::WedgeCounter));
    let rows = target_formula(&Hexagon::new(4).unwrap(), 3, 3, SymmetryBreaking::None, Cardinality::SequentialCounter)
        .unwrap();
    let mut text = Vec::new();
    write_cnf_as_opb(&rows, &mut text).unwrap();
    std::fs::write(&files.target, text).unwrap();
    assert!(
        veripb(&files.statement, &files.proof, &files.target).is_err(),
        "VeriPB accepted a derivation of the other order"
    );
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

    // A statement with one constraint dropped: it is no longer invariant
    // under the symmetries, and the dominance steps fail.
    let files = write_files_with("dropped", 3, 2, 3, SymmetryBreaking::Ring1LexLeader);
    let statement = std::fs::read_to_string(&files.statement).unwrap();
    let dropped = statement.replacen("+1 eq_c0_c1 -1 x_c0_v1 -1 x_c1_v1 >= -1 ;\n", "", 1);
    assert_ne!(dropped, statement, "a constraint was dropped");
    let count = statement.lines().filter(|l| !l.starts_with('*')).count();
    std::fs::write(
        &files.statement,
        dropped.replacen(&format!("#constraint= {count}"), &format!("#constraint= {}", count - 1), 1),
    )
    .unwrap();
    let proof = std::fs::read_to_string(&files.proof).unwrap();
    let loaded: usize = proof.lines().nth(1).unwrap().trim_start_matches("f ").trim_end_matches(';').parse().unwrap();
    // The ids that follow shift by one, but the dominance steps come first
    // and cite none: the first one fails, on the image of a constraint
    // whose own image was dropped.
    std::fs::write(&files.proof, proof.replacen(&format!("f {loaded};"), &format!("f {};", loaded - 1), 1)).unwrap();
    let verdict = veripb(&files.statement, &files.proof, &files.target);
    assert!(verdict.as_ref().is_err_and(|why| why.contains("could not be autoproven")), "{verdict:?}");
    std::fs::remove_dir_all(&files.dir).unwrap();

    // A lex-leader constraint that removes whole orbits ("the first key
    // cell is not 1": no member of the orbit of a grid with 1 all around the
    // centre survives), claimed by dominance with a symmetry as witness.
    let files = write_files_with("orbit", 3, 2, 3, SymmetryBreaking::Ring1LexLeader);
    let hex = Hexagon::new(3).unwrap();
    let first = hexcert::encoding::symmetry::ring1_cells(&hex)[0];
    let proof = std::fs::read_to_string(&files.proof).unwrap();
    let dom = proof.lines().find(|l| l.starts_with("dom ")).unwrap();
    let witness = dom.split(" : ").nth(1).unwrap();
    let bad = format!("dom +1 ~x_c{first}_v1 >= 1 : {witness};\n{dom}");
    std::fs::write(&files.proof, proof.replacen(dom, &bad, 1)).unwrap();
    let verdict = veripb(&files.statement, &files.proof, &files.target);
    assert!(verdict.as_ref().is_err_and(|why| why.contains("could not be autoproven")), "{verdict:?}");
    std::fs::remove_dir_all(&files.dir).unwrap();

    // A derivation step that claims a clause the statement does not imply.
    let files = write_files("bad-step", 3, 2, 3);
    edit(
        &files.proof,
        |l| l.starts_with("rup "),
        |l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            format!("rup {}", words[3..].join(" "))
        },
    );
    assert!(veripb(&files.statement, &files.proof, &files.target).is_err(), "a stronger rup step accepted");
    std::fs::remove_dir_all(&files.dir).unwrap();
}

#[test]
fn the_library_runner_names_where_veripb_rejects() {
    let Some(veripb) = hexcert::proofs::veripb::Veripb::find() else {
        eprintln!("note: veripb is not on PATH; the runner was not exercised");
        return;
    };
    // The runner found, and the library whichever that is (when linked in).
    for veripb in std::iter::once(veripb).chain(hexcert::proofs::veripb::Veripb::library()) {
        assert!(veripb.version.starts_with("veripb "), "{}", veripb.version);
        let files = write_files_with("runner", 3, 2, 3, SymmetryBreaking::Ring1LexLeader);
        let accepted = veripb.check(&files.statement, &files.proof, &files.target).unwrap();
        assert!(accepted.verified, "{accepted:?}");
        assert!(accepted.command.starts_with("veripb s.opb d.pbp t.opb"), "{}", accepted.command);
        edit(&files.target, |l| l.starts_with("+1 ~x"), |l| l.replace(">= 1 ;", "+1 x1 >= 1 ;"));
        let rejected = veripb.check(&files.statement, &files.proof, &files.target).unwrap();
        assert!(!rejected.verified);
        assert!(
            rejected.line.contains("Verification error at") && rejected.line.contains("not in the database"),
            "{}",
            rejected.line
        );
        std::fs::remove_dir_all(&files.dir).unwrap();
    }
}

/// The library's runner accepts what the program would print `s VERIFIED
/// OUTPUT DERIVABLE` for, and nothing else: VeriPB accepts a proof whose
/// output section is `NONE` (`s VERIFIED`), and the runner rejects it, as it
/// rejects a derivation that does not open with the 3.0 header; the program
/// agrees where it is on PATH.
#[test]
fn the_library_accepts_only_a_derivable_output() {
    let Some(library) = hexcert::proofs::veripb::Veripb::library() else {
        eprintln!("note: this build has no VeriPB library (cargo feature `veripb`)");
        return;
    };
    let files = write_files_with("library", 3, 2, 3, SymmetryBreaking::Ring1LexLeader);
    let accepted = library.check(&files.statement, &files.proof, &files.target).unwrap();
    assert!(
        accepted.verified
            && accepted.line == "s VERIFIED OUTPUT DERIVABLE"
            && accepted.version == "veripb 3.0.2 (library)",
        "{accepted:?}"
    );
    let program = common::veripb_program_present().then(|| hexcert::proofs::veripb::Veripb::find().unwrap());
    let original = std::fs::read_to_string(&files.proof).unwrap();
    let no_output = original.replace("output DERIVABLE FILE;\n", "output NONE;\n");
    let version_2 = original.replacen("pseudo-Boolean proof version 3.0\n", "pseudo-Boolean proof version 2.0\n", 1);
    for (what, text) in [("output NONE", no_output), ("version 2.0", version_2)] {
        std::fs::write(&files.proof, text).unwrap();
        let verdict = library.check(&files.statement, &files.proof, &files.target).unwrap();
        assert!(!verdict.verified, "{what}: {verdict:?}");
        if let Some(program) = &program {
            let verdict = program.check(&files.statement, &files.proof, &files.target).unwrap();
            assert!(!verdict.verified, "{what}, the program: {verdict:?}");
        }
    }
    std::fs::remove_dir_all(&files.dir).unwrap();
}

#[test]
fn statement_check_exits_0_when_accepted_and_4_without_veripb() {
    let dir = Scratch::new("derivation-cli");
    let (s, d, t) = (dir.join("s.opb"), dir.join("d.pbp"), dir.join("t.opb"));
    let args = ["statement", "--n", "3", "--level", "1", "--below", "2", "--symmetry", "ring1-lex-leader", "--check"];
    let files = ["-o", s.to_str().unwrap(), "--derivation", d.to_str().unwrap(), "--target", t.to_str().unwrap()];
    let run = |env: Option<(&str, &str)>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hexcert"));
        command.args(args).args(files);
        if let Some((home, path)) = env {
            command.env_clear().env("HOME", home).env("PATH", path).env(hexcert::proofs::veripb::CHOICE, "none");
        }
        command.output().unwrap()
    };
    if veripb_on_path() {
        let out = run(None);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("`s VERIFIED OUTPUT DERIVABLE`"));
    }
    let out = run(Some((dir.to_str().unwrap(), "/nonexistent")));
    assert_eq!(out.status.code(), Some(4), "unverified without VeriPB, never silently passed");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("unverified: VeriPB is not used in this run"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--veripb-program` (or HEXCERT_VERIPB) names the VeriPB that runs, over
/// PATH's and the library; a name that is no file is refused (exit 2), and
/// `HEXCERT_VERIPB=library` takes the library over a program on PATH.
#[test]
fn the_veripb_named_is_the_one_that_runs() {
    let dir = Scratch::new("derivation-named");
    let named = dir.join("my-veripb");
    std::fs::write(
        &named,
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'veripb 9.9.9'; else echo 's VERIFIED OUTPUT DERIVABLE'; fi\n",
    )
    .unwrap();
    std::fs::set_permissions(&named, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let (s, d, t) = (dir.join("s.opb"), dir.join("d.pbp"), dir.join("t.opb"));
    let run = |extra: &[&str], choice: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hexcert"));
        command
            .args(["statement", "--n", "3", "--level", "1", "--below", "2", "--check", "-o"])
            .arg(&s)
            .arg("--derivation")
            .arg(&d)
            .arg("--target")
            .arg(&t)
            .args(extra);
        if let Some(choice) = choice {
            command.env(hexcert::proofs::veripb::CHOICE, choice);
        }
        let out = command.output().unwrap();
        (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    };
    let (code, text) = run(&["--veripb-program", named.to_str().unwrap()], None);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.starts_with("veripb 9.9.9: `s VERIFIED OUTPUT DERIVABLE`"), "{text}");
    let (code, text) = run(&[], Some(named.to_str().unwrap()));
    assert!(code == Some(0) && text.starts_with("veripb 9.9.9: "), "{text}");
    let (code, text) = run(&["--veripb-program", dir.join("absent").to_str().unwrap()], None);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("--veripb-program") && text.contains("no such program"), "{text}");
    if hexcert::proofs::veripb::Veripb::library().is_some() {
        let (code, text) = run(&[], Some("library"));
        assert!(code == Some(0) && text.starts_with("veripb 3.0.2 (library): `s VERIFIED OUTPUT DERIVABLE`"), "{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_with_veripb_verifies_a_committed_claims_derivation_or_reports_it_unverified() {
    let claim = format!("{}/proofs/n3/level2-below3/claim.json", env!("CARGO_MANIFEST_DIR"));
    let run = |cleared: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hexcert"));
        command.args(["check", "--veripb", &claim]);
        if cleared {
            command.env_clear().env("PATH", "/nonexistent").env(hexcert::proofs::veripb::CHOICE, "none");
        }
        command.output().unwrap()
    };
    if veripb_on_path() {
        let out = run(false);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(out.status.code(), Some(0), "{text}");
        assert!(
            text.contains("match their recorded hashes; veripb ") && text.contains("`s VERIFIED OUTPUT DERIVABLE`"),
            "{text}"
        );
    }
    // The stored LRAT proof still verifies; the derivation cannot be checked.
    let out = run(true);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(4), "{text}");
    assert!(
        text.contains("statement -> CNF: unverified: ") && text.contains("but VeriPB is not used in this run"),
        "{text}"
    );
}
