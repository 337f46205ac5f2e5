//! CNF formulas and DIMACS output.
//!
//! Literals are DIMACS integers: variable `v >= 1`, negation `-v`. The writer
//! is deterministic: the same formula always gives the same bytes, which is
//! what lets a certificate pin its CNF by hash.

use std::io::{self, Write};

/// A CNF formula under construction.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cnf {
    num_vars: u32,
    clauses: Vec<Vec<i32>>,
    comments: Vec<String>,
}

impl Cnf {
    /// An empty formula.
    pub fn new() -> Cnf {
        Cnf::default()
    }

    /// A fresh variable, numbered after every variable handed out so far.
    pub fn new_var(&mut self) -> i32 {
        self.num_vars += 1;
        self.num_vars as i32
    }

    /// Declares that variables up to `max_var` are in use.
    pub fn reserve_vars_up_to(&mut self, max_var: u32) {
        self.num_vars = self.num_vars.max(max_var);
    }

    /// Adds a clause. Invariant: every literal names a declared variable.
    pub fn add_clause(&mut self, clause: &[i32]) {
        debug_assert!(clause.iter().all(|&l| l != 0 && l.unsigned_abs() <= self.num_vars));
        self.clauses.push(clause.to_vec());
    }

    /// Adds a comment line written before the header.
    pub fn add_comment(&mut self, line: impl Into<String>) {
        self.comments.push(line.into());
    }

    pub fn num_vars(&self) -> u32 {
        self.num_vars
    }

    pub fn clauses(&self) -> &[Vec<i32>] {
        &self.clauses
    }

    /// Writes DIMACS: comments, `p cnf V C`, one clause a line.
    pub fn write_dimacs<W: Write>(&self, out: &mut W) -> io::Result<()> {
        for line in &self.comments {
            writeln!(out, "c {line}")?;
        }
        writeln!(out, "p cnf {} {}", self.num_vars, self.clauses.len())?;
        let mut buf = String::new();
        for clause in &self.clauses {
            buf.clear();
            for lit in clause {
                buf.push_str(&lit.to_string());
                buf.push(' ');
            }
            buf.push_str("0\n");
            out.write_all(buf.as_bytes())?;
        }
        Ok(())
    }

    /// The DIMACS text as bytes.
    pub fn to_dimacs(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        self.write_dimacs(&mut bytes).expect("writing to memory cannot fail");
        bytes
    }

    /// Whether `assignment` (indexed by variable, entry 0 unused) satisfies every clause.
    pub fn is_satisfied_by(&self, assignment: &[bool]) -> bool {
        self.clauses.iter().all(|c| c.iter().any(|&l| assignment[l.unsigned_abs() as usize] == (l > 0)))
    }
}
