//! Writing VeriPB proof lines (format 3.0) while counting constraint ids.
//!
//! Invariant: `next_id` is the id VeriPB gives the next constraint a rule
//! adds. Every `red`, `rup` and `pol` adds one; a `pbc` adds its negation,
//! one per rule of its subproof, and then the proved constraint (VeriPB
//! deletes the first ones when the subproof closes, but their ids are used).

use std::io::{self, Write};

/// The proof being written.
pub struct Proof<'a, W: Write + ?Sized> {
    out: &'a mut W,
    next_id: usize,
    steps: usize,
}

impl<'a, W: Write + ?Sized> Proof<'a, W> {
    /// A proof over a formula that loads `loaded` constraints.
    pub fn new(out: &'a mut W, loaded: usize) -> Proof<'a, W> {
        Proof { out, next_id: loaded + 1, steps: 0 }
    }

    /// The id the next added constraint gets.
    pub fn next_id(&self) -> usize {
        self.next_id
    }

    /// Rules that added constraints so far (a `pbc` counts once).
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// A line that adds no constraint (header, comment, `core`, `del`, ...).
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.out.write_all(b"\n")
    }

    /// A rule that adds one constraint; returns its id.
    pub fn step(&mut self, text: &str) -> io::Result<usize> {
        self.line(text)?;
        self.steps += 1;
        self.next_id += 1;
        Ok(self.next_id - 1)
    }

    /// `pbc constraint` with a subproof: `body` gets the id of the negated
    /// constraint and returns the subproof's rules, one constraint each.
    /// Returns the id of the proved constraint.
    pub fn pbc(&mut self, constraint: &str, body: impl FnOnce(usize) -> Vec<String>) -> io::Result<usize> {
        let negation = self.next_id;
        let rules = body(negation);
        self.line(&format!("pbc {constraint} : subproof"))?;
        for rule in &rules {
            self.line(&format!("  {rule}"))?;
        }
        self.line("qed;")?;
        self.steps += 1;
        self.next_id += rules.len() + 2;
        Ok(self.next_id - 1)
    }
}

impl<W: Write + ?Sized> Proof<'_, W> {
    /// A `dom` rule with a subproof of one proof goal that adds one
    /// constraint: the rule's negation, the goal's, the goal's step, then
    /// the constraint (ids as VeriPB numbers them). Returns its id.
    pub fn dominance(&mut self, head: &str, subproof: &[&str]) -> io::Result<usize> {
        self.line(head)?;
        for line in subproof {
            self.line(&format!("  {line}"))?;
        }
        self.line("qed dom;")?;
        self.steps += 1;
        self.next_id += 4;
        Ok(self.next_id - 1)
    }
}

/// `pol` in reverse Polish notation: the sum of `ids`, each times its factor.
pub fn weighted_sum(ids: &[(usize, usize)]) -> String {
    let mut rpn = String::from("pol");
    for (i, &(id, factor)) in ids.iter().enumerate() {
        rpn.push_str(&format!(" {id}"));
        if factor != 1 {
            rpn.push_str(&format!(" {factor} *"));
        }
        if i > 0 {
            rpn.push_str(" +");
        }
    }
    rpn.push(';');
    rpn
}

/// `pol` summing `ids`.
pub fn sum(ids: &[usize]) -> String {
    let weighted: Vec<(usize, usize)> = ids.iter().map(|&id| (id, 1)).collect();
    weighted_sum(&weighted)
}

/// An OPB term list `+1 a +1 ~b ...` (with a trailing blank) from literals.
pub fn clause_terms(literals: &[String]) -> String {
    literals.iter().map(|l| format!("+1 {l} ")).collect()
}

/// The name VeriPB gives DIMACS literal `lit`: `x<i>` or `~x<i>`.
pub fn cnf_literal(lit: i32) -> String {
    format!("{}x{}", if lit < 0 { "~" } else { "" }, lit.unsigned_abs())
}

/// The negation of a literal name.
pub fn negate(literal: &str) -> String {
    match literal.strip_prefix('~') {
        Some(var) => var.to_string(),
        None => format!("~{literal}"),
    }
}
