//! A VeriPB derivation (proof format 3.0) from the OPB statement
//! (`src/statement.rs`) to hexcert's level CNF, so that trusting the CNF's
//! meaning reduces to trusting the statement and the checker.
//!
//! What it derives, today: every clause of the level formula built without
//! symmetry breaking and without the penalty bound (`EncodeOptions` with
//! `max_penalty: None`): value order, value definitions, degree units,
//! support, equal-value and duplicate-support clauses. The cardinality
//! encoding of the bound is not derived yet (docs/STATEMENT.md says what it
//! needs). VeriPB checks the result as `output DERIVABLE FILE` against the
//! target file, the same clauses as OPB with DIMACS variable `i` named `x<i>`
//! (VeriPB's own reading of DIMACS): at the end its core holds exactly those
//! clauses, each obtained from the statement by steps that keep a solution.
//!
//! How each CNF variable enters (all by redundance, `red`, with a witness):
//! - `ge(c, j)` is defined as "c holds j, ..., k or +": one clause for "ge
//!   implies one of them" (witness ge -> 0), one per value for the converse
//!   (witness ge -> 1);
//! - `eq(c, a)`, `a >= 2`, is defined equal to `x_cC_va` (two clauses);
//! - `pen(e)` is introduced by the clauses that force it (witness pen -> 1):
//!   in the formula without a bound nothing else constrains it.
//!
//! Every other clause follows by reverse unit propagation (`rup`), with two
//! kinds of helper facts derived first: `ge(c, j)` excludes each value below
//! `j` (rup), and a cell with `d` neighbours holds no value above `d + 1`
//! (the sum of its support constraints for `1..=d+1` and its neighbours'
//! "at most one value" halves, `pol`). Invariant of the writer: constraint
//! ids are counted exactly as VeriPB numbers them (an OPB equality loads as
//! two constraints, `>=` then `<=`; every `red`, `rup` and `pol` adds one).

use std::io::{self, Write};

use crate::encoding::{EncodeOptions, LevelEncoding};
use crate::formula::Cnf;
use crate::geometry::Hexagon;
use crate::statement::{Family, Relation, Statement, Variable};

/// What a written derivation covers, for reports.
#[derive(Debug, Clone, serde::Serialize)]
pub struct DerivationSummary {
    /// Constraints VeriPB loads from the statement.
    pub statement_constraints: usize,
    /// Clauses of the target CNF (all derived).
    pub target_clauses: usize,
    /// Variables of the target CNF.
    pub target_variables: u32,
    /// Proof steps that add a constraint.
    pub steps: usize,
}

/// The formula the derivation reaches: the level CNF without symmetry
/// breaking and without the penalty bound.
pub fn target_formula(hex: &Hexagon, level: u8) -> Cnf {
    LevelEncoding::new(hex, level, EncodeOptions::bounded(None)).cnf
}

/// Writes `cnf` as OPB, variable `i` named `x<i>`: the output file VeriPB
/// compares its final core with.
pub fn write_cnf_as_opb<W: Write + ?Sized>(cnf: &Cnf, out: &mut W) -> io::Result<()> {
    writeln!(out, "* #variable= {} #constraint= {}", cnf.num_vars(), cnf.clauses().len())?;
    let mut line = String::new();
    for clause in cnf.clauses() {
        line.clear();
        for &lit in clause {
            push_literal(&mut line, lit);
        }
        line.push_str(">= 1 ;\n");
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

fn push_literal(line: &mut String, lit: i32) {
    use std::fmt::Write as _;
    let _ = write!(line, "+1 {}x{} ", if lit < 0 { "~" } else { "" }, lit.unsigned_abs());
}

/// VeriPB ids of the statement's constraints that the helper steps cite.
struct StatementIds {
    loaded: usize,
    /// `support[c][a - 1]`.
    support: Vec<Vec<usize>>,
    /// The `<=` half of cell `c`'s "exactly one value".
    at_most_one: Vec<usize>,
}

impl StatementIds {
    fn new(statement: &Statement, cells: usize) -> StatementIds {
        let mut ids = StatementIds { loaded: 0, support: vec![Vec::new(); cells], at_most_one: vec![0; cells] };
        for constraint in &statement.constraints {
            let first = ids.loaded + 1;
            ids.loaded += if constraint.relation == Relation::Equal { 2 } else { 1 };
            let cell = |v: &Variable| match *v {
                Variable::Value { cell, .. } | Variable::Plus { cell } => cell,
                _ => unreachable!("value constraints name cells"),
            };
            match constraint.family {
                Family::OneValue => ids.at_most_one[cell(&constraint.terms[0].variable)] = first + 1,
                // The support constraint of (c, a) ends with c's values above a.
                Family::Support => ids.support[cell(&constraint.terms.last().expect("terms").variable)].push(first),
                _ => {}
            }
        }
        ids
    }
}

/// Writes the derivation from `Statement::new(hex, level, below)` to
/// `target_formula(hex, level)`. `below` only fixes which statement file
/// the proof is checked against (the bound constraint is not used yet).
pub fn write_derivation<W: Write + ?Sized>(hex: &Hexagon, level: u8, below: usize, out: &mut W) -> io::Result<DerivationSummary> {
    let k = level as usize;
    let cells = hex.cell_count();
    let statement = Statement::new(hex, level, below);
    let ids = StatementIds::new(&statement, cells);
    let encoding = LevelEncoding::new(hex, level, EncodeOptions::bounded(None));
    let holds = |c: usize, v: usize| -> String {
        if v > k {
            Variable::Plus { cell: c }.to_string()
        } else {
            Variable::Value { cell: c, value: v as u8 }.to_string()
        }
    };
    let mut proof = Proof { out, next_id: ids.loaded + 1, steps: 0 };
    proof.line("pseudo-Boolean proof version 3.0")?;
    proof.line(&format!("f {};", ids.loaded))?;

    proof.line("% ge(c, j) is \"c holds j, ..., k or +\"; eq(c, a) is x_cC_va")?;
    for c in 0..cells {
        for j in 2..=k + 1 {
            let g = encoding.ge_var(c, j);
            let some: Vec<String> = (j..=k + 1).map(|v| format!("+1 {}", holds(c, v))).collect();
            proof.step(&format!("red +1 ~x{g} {} >= 1 : x{g} -> 0;", some.join(" ")))?;
            for v in j..=k + 1 {
                proof.step(&format!("red +1 x{g} +1 ~{} >= 1 : x{g} -> 1;", holds(c, v)))?;
            }
        }
        for a in 2..=k {
            let e = encoding.eq_literal(c, a);
            proof.step(&format!("red +1 ~x{e} +1 {} >= 1 : x{e} -> 0;", holds(c, a)))?;
            proof.step(&format!("red +1 x{e} +1 ~{} >= 1 : x{e} -> 1;", holds(c, a)))?;
        }
    }

    proof.line("% helpers: ge(c, j) excludes the values below j; no cell holds more than its degree + 1")?;
    for c in 0..cells {
        for j in 2..=k + 1 {
            let g = encoding.ge_var(c, j);
            for v in 1..j {
                proof.step(&format!("rup +1 ~x{g} +1 ~{} >= 1;", holds(c, v)))?;
            }
        }
        let degree = hex.neighbours(c).len();
        if degree + 1 < k + 1 {
            let mut terms: Vec<String> = ids.support[c][..=degree].iter().map(|id| id.to_string()).collect();
            terms.extend(hex.neighbours(c).iter().map(|&u| ids.at_most_one[u].to_string()));
            let mut rpn = terms[0].clone();
            for t in &terms[1..] {
                rpn.push_str(&format!(" {t} +"));
            }
            proof.step(&format!("pol {rpn};"))?;
        }
    }

    proof.line("% the clauses of the formula, in its order")?;
    let penalty: std::collections::HashSet<i32> = encoding.penalty_vars().iter().copied().collect();
    let first = proof.next_id;
    let mut line = String::new();
    for clause in encoding.cnf.clauses() {
        line.clear();
        for &lit in clause {
            push_literal(&mut line, lit);
        }
        match clause.iter().find(|&&lit| penalty.contains(&lit)) {
            Some(&pen) => proof.step(&format!("red {line}>= 1 : x{pen} -> 1;"))?,
            None => proof.step(&format!("rup {line}>= 1;"))?,
        }
    }
    let last = proof.next_id;
    proof.line("% the formula's clauses are the core; the statement leaves it")?;
    proof.line(&format!("core range {first} {last};"))?;
    proof.line(&format!("del range 1 {};", ids.loaded + 1))?;
    proof.line("output DERIVABLE FILE;")?;
    proof.line("conclusion NONE;")?;
    proof.line("end pseudo-Boolean proof;")?;
    Ok(DerivationSummary {
        statement_constraints: ids.loaded,
        target_clauses: encoding.cnf.clauses().len(),
        target_variables: encoding.cnf.num_vars(),
        steps: proof.steps,
    })
}

/// The proof being written, with the id the next added constraint gets.
struct Proof<'a, W: Write + ?Sized> {
    out: &'a mut W,
    next_id: usize,
    steps: usize,
}

impl<W: Write + ?Sized> Proof<'_, W> {
    fn line(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.out.write_all(b"\n")
    }

    /// A rule that adds one constraint.
    fn step(&mut self, text: &str) -> io::Result<()> {
        self.next_id += 1;
        self.steps += 1;
        self.line(text)
    }
}
