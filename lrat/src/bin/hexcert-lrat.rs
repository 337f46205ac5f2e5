//! `hexcert-lrat FORMULA.cnf PROOF.lrat`: checks one LRAT proof.
//! `hexcert-lrat --text PROOF.lrat`: writes it as text LRAT on stdout, for
//! checkers that read only text (cake_lpr, lrat-check).
//!
//! Invariant: the exit code is the verdict: 0 verified, 1 not verified
//! (with the checker's one-line reason), 2 usage or unreadable files.

use std::fs::File;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, proof_path] = args.as_slice() {
        if flag == "--text" {
            return to_text(proof_path);
        }
    }
    let [formula_path, proof_path] = args.as_slice() else {
        eprintln!("usage: hexcert-lrat FORMULA.cnf PROOF.lrat | hexcert-lrat --text PROOF.lrat");
        eprintln!("Checks an LRAT proof (text or binary, RUP steps only) of FORMULA's unsatisfiability.");
        eprintln!("Prints 's VERIFIED' and exits 0, or 's NOT VERIFIED' and the reason and exits 1.");
        return ExitCode::from(2);
    };
    let formula = match std::fs::read(formula_path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("hexcert-lrat: cannot read {formula_path}: {e}");
            return ExitCode::from(2);
        }
    };
    let proof = match File::open(proof_path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("hexcert-lrat: cannot read {proof_path}: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    match hexcert_lrat::check(&formula, proof) {
        Ok(summary) => {
            println!("s VERIFIED");
            println!(
                "c {} original, {} added, {} deleted, {} hints, empty clause {}, {:.3} s",
                summary.original,
                summary.added,
                summary.deleted,
                summary.hints,
                summary.empty_clause_id,
                start.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e @ hexcert_lrat::CheckError::Io { .. }) => {
            eprintln!("hexcert-lrat: cannot read {proof_path}: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            println!("s NOT VERIFIED");
            println!("c {e}");
            ExitCode::from(1)
        }
    }
}

/// Rewrites a proof (binary or text) as text LRAT on stdout. A deletion line
/// starts with the id of the latest addition, as solvers write it.
fn to_text(proof_path: &str) -> ExitCode {
    let proof = match File::open(proof_path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("hexcert-lrat: cannot read {proof_path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut reader = hexcert_lrat::Reader::new(std::io::BufReader::new(proof));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (mut step, mut line, mut latest) = (hexcert_lrat::StepBuf::default(), Vec::new(), 0);
    loop {
        match reader.read_step(&mut step) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                eprintln!("hexcert-lrat: {proof_path}: {e}");
                return ExitCode::from(1);
            }
        }
        line.clear();
        if step.delete {
            hexcert_lrat::format::write_text_delete(&mut line, latest, &step.ids);
        } else {
            latest = step.id;
            hexcert_lrat::format::write_text_add(&mut line, step.id, &step.lits, &step.hints);
        }
        if out.write_all(&line).is_err() {
            return ExitCode::from(2);
        }
    }
    match out.flush() {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(2),
    }
}
