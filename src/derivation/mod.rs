//! A VeriPB derivation (proof format 3.0) from the OPB statement
//! (`src/statement.rs`) to hexcert's level CNF, so that trusting the CNF's
//! meaning reduces to trusting the statement and the checker.
//!
//! The target is either CNF `hexcert prove` races for "below B":
//! `EncodeOptions { max_penalty: Some(B - 1), cardinality, symmetry }` with
//! a sequential counter over the edges in either order (index or wedge:
//! the derivation takes the inputs in the encoder's order) and `symmetry`
//! none or ring1-lex-leader
//! (the one whose proof `prove` keeps; its lex-leader constraints come from
//! VeriPB's dominance rule, `symmetry.rs`, not from a paper argument). VeriPB checks the
//! result as `output DERIVABLE FILE` against the target file, the same
//! clauses as OPB with DIMACS variable `i` named `x<i>` (VeriPB's own reading
//! of DIMACS): at the end its core holds exactly those clauses, each obtained
//! from the statement by steps that keep a solution, so the CNF has a model
//! whenever the statement has a solution.
//!
//! How each CNF variable enters (by redundance, `red`, with a witness):
//! - `ge(c, j)` is "c holds j, ..., k or +": one clause for "ge implies one
//!   of them" (witness ge -> 0), one per value for the converse (ge -> 1);
//! - `eq(c, a)`, `a >= 2`, is `x_cC_va` (two clauses);
//! - `pen(e)` gets an upper definition in terms of the statement's charges
//!   (`penalty.rs`), then the clauses that force it (witness pen -> 1);
//! - the counter's variables as in `counter.rs`;
//! - the lex-leader's "equal so far" variables as in `symmetry.rs`.
//!
//! Every clause of the CNF then follows by reverse unit propagation (`rup`)
//! from the definitions and helper facts derived first: `ge(c, j)` excludes
//! each value below `j` (rup), and a cell with `d` neighbours holds no value
//! above `d + 1` (the sum of its support constraints for `1..=d+1` and its
//! neighbours' "at most one value" halves, `pol`). Constraint ids are
//! counted as VeriPB numbers them (`proof.rs`; an OPB equality loads as two
//! constraints, `>=` then `<=`).

use std::io::{self, Write};

use crate::cubes::{split_formula, Plan};
use crate::encoding::{Cardinality, EncodeOptions, LevelEncoding, SymmetryBreaking};
use crate::error::HexError;
use crate::formula::Cnf;
use crate::geometry::Hexagon;
use crate::statement::{Family, Relation, Statement, Variable};

mod counter;
mod cubes;
mod penalty;
mod proof;
mod symmetry;

use proof::{cnf_literal, Proof};

pub use cubes::{SplitTarget, TieBreakTarget};

/// The derivation writer, named in every statement record: the same writer
/// writes the same derivation byte for byte, so `check` compares its hash;
/// a record of another writer is checked on the derivation written now.
/// 2: the counter's long sums deleted once used, its orderings and
/// increments summed rather than propagated (VeriPB's check 3.5x faster at
/// n = 14, docs/MEASUREMENTS.md).
pub const WRITER: &str = "hexcert-derivation/2";

/// What a written derivation covers, for reports.
#[derive(Debug, Clone, serde::Serialize)]
pub struct DerivationSummary {
    /// Constraints VeriPB loads from the statement.
    pub statement_constraints: usize,
    /// Clauses of the target CNF (all derived).
    pub target_clauses: usize,
    /// Variables of the target CNF.
    pub target_variables: u32,
    /// Proof rules that add a constraint.
    pub steps: usize,
}

/// The formula the derivation reaches: the level CNF for "penalty below
/// `below`" with this counter and `symmetry`; another cardinality
/// encoding than a counter is refused.
pub fn target_formula(
    hex: &Hexagon,
    level: u8,
    below: usize,
    symmetry: SymmetryBreaking,
    cardinality: Cardinality,
) -> Result<Cnf, HexError> {
    if hex.side() < 2 {
        return Err(HexError::Usage("a derivation needs --n 2 or more (the side-1 hexagon has no edge)".into()));
    }
    if !cardinality.is_counter() {
        return Err(HexError::Usage(format!(
            "a derivation reaches a sequential counter only, not the {}",
            cardinality.name()
        )));
    }
    let max_penalty =
        below.checked_sub(1).ok_or_else(|| HexError::Usage("a derivation needs --below 1 or more".into()))?;
    Ok(LevelEncoding::new(hex, level, EncodeOptions { symmetry, cardinality, max_penalty: Some(max_penalty) }).cnf)
}

/// What a derivation reaches from the statement.
#[derive(Clone, Copy)]
pub enum Reach<'a> {
    /// The claim's whole formula with this symmetry breaking and this
    /// counter (`target_formula`).
    Formula(SymmetryBreaking, Cardinality),
    /// A cube plan's split formula (`cubes::split_formula`): the orbit
    /// reduction and the cover derived too (`cubes.rs`).
    Split(&'a Plan),
}

impl Reach<'_> {
    /// The CNF reached for "level-`level` partials of `hex` below `below`".
    /// Errors: those of `target_formula`, and a plan for another claim or
    /// another cardinality encoding than the sequential counter.
    pub fn target(&self, hex: &Hexagon, level: u8, below: usize) -> Result<Cnf, HexError> {
        match *self {
            Reach::Formula(symmetry, cardinality) => target_formula(hex, level, below, symmetry, cardinality),
            Reach::Split(plan) => {
                if (plan.n, plan.level, plan.below) != (hex.side(), level, below) {
                    return Err(HexError::Usage(format!(
                        "the plan is for n = {}, level {}, below {}, not n = {}, level {level}, below {below}",
                        plan.n,
                        plan.level,
                        plan.below,
                        hex.side()
                    )));
                }
                target_formula(hex, level, below, SymmetryBreaking::None, plan.cardinality)?;
                Ok(split_formula(&plan.encoding()?, &plan.split()?, &plan.cubes))
            }
        }
    }

    /// Symmetry breaking in the formula reached (the split's orbit reduction is not one).
    pub fn symmetry(&self) -> SymmetryBreaking {
        match *self {
            Reach::Formula(symmetry, _) => symmetry,
            Reach::Split(_) => SymmetryBreaking::None,
        }
    }

    /// Writes the derivation from `Statement::new(hex, level, below)` to
    /// `self.target(..)`. Errors (`InvalidInput`): those of `target`, and a
    /// plan whose kept cubes are not the least members of orbits covering
    /// the split (`cubes::cover`); and write failures.
    pub fn write<W: Write + ?Sized>(
        &self,
        hex: &Hexagon,
        level: u8,
        below: usize,
        out: &mut W,
    ) -> io::Result<DerivationSummary> {
        let invalid = |e: HexError| io::Error::new(io::ErrorKind::InvalidInput, e.to_string());
        let cnf = self.target(hex, level, below).map_err(invalid)?;
        match *self {
            Reach::Formula(symmetry, cardinality) => {
                derive(hex, level, below, (symmetry, cardinality), None, &cnf, out)
            }
            Reach::Split(plan) => {
                let split = plan.split().map_err(invalid)?;
                let (plain, extended) =
                    (plan.plain_encoding().map_err(invalid)?.cnf, plan.encoding().map_err(invalid)?.cnf);
                let first_selector = extended.num_vars() as i32 + 1;
                let digits = plan.tie_break.digits(hex, plan.radius, plan.depth, level).map_err(invalid)?;
                let tie_break = (!digits.is_empty()).then(|| cubes::TieBreakTarget {
                    digits,
                    first_equal: plain.num_vars() as i32 + 1,
                    clauses: &extended.clauses()[plain.clauses().len()..],
                });
                let target = SplitTarget { split: &split, cubes: &plan.cubes, below, first_selector, tie_break };
                derive(hex, level, below, (SymmetryBreaking::None, plan.cardinality), Some(&target), &cnf, out)
            }
        }
    }
}

/// Writes `cnf` as OPB, variable `i` named `x<i>`: the output file VeriPB
/// compares its final core with.
pub fn write_cnf_as_opb<W: Write + ?Sized>(cnf: &Cnf, out: &mut W) -> io::Result<()> {
    writeln!(out, "* #variable= {} #constraint= {}", cnf.num_vars(), cnf.clauses().len())?;
    let mut line = String::new();
    for clause in cnf.clauses() {
        line.clear();
        push_clause(&mut line, clause);
        line.push_str(" ;\n");
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// `+1 x3 +1 ~x5 >= 1`.
fn push_clause(line: &mut String, clause: &[i32]) {
    for &lit in clause {
        line.push_str("+1 ");
        line.push_str(&cnf_literal(lit));
        line.push(' ');
    }
    line.push_str(">= 1");
}

/// VeriPB ids of the statement's constraints that the derivation cites.
pub(crate) struct StatementIds {
    loaded: usize,
    /// `support[c][a - 1]`.
    support: Vec<Vec<usize>>,
    /// The `<=` half of cell `c`'s "exactly one value".
    at_most_one: Vec<usize>,
    /// `duplicate[c][a - 1]`.
    duplicate: Vec<Vec<usize>>,
    /// The penalty bound.
    bound: usize,
}

impl StatementIds {
    fn new(statement: &Statement, cells: usize) -> StatementIds {
        let mut ids = StatementIds {
            loaded: 0,
            support: vec![Vec::new(); cells],
            at_most_one: vec![0; cells],
            duplicate: vec![Vec::new(); cells],
            bound: 0,
        };
        for constraint in &statement.constraints {
            let first = ids.loaded + 1;
            ids.loaded += if constraint.relation == Relation::Equal { 2 } else { 1 };
            let cell = |v: &Variable| match *v {
                Variable::Value { cell, .. } | Variable::Plus { cell } | Variable::Duplicate { cell, .. } => cell,
                Variable::EqualEdge { .. } => unreachable!("cell constraints start or end with a cell's variable"),
            };
            let head = || cell(&constraint.terms[0].variable);
            match constraint.family {
                Family::OneValue => ids.at_most_one[head()] = first + 1,
                // Support of (c, a) ends with c's values above a, and lists a in order.
                Family::Support => ids.support[cell(&constraint.terms.last().expect("terms").variable)].push(first),
                Family::DuplicateSupport => ids.duplicate[head()].push(first),
                Family::PenaltyBound => ids.bound = first,
                Family::EqualValues => {}
            }
        }
        ids
    }
}

/// Writes the derivation from `Statement::new(hex, level, below)` to
/// `target_formula(hex, level, below, symmetry, cardinality)`. Errors:
/// `below == 0` (no formula to reach: `target_formula` says so), a
/// cardinality encoding that is not a counter, and write failures.
pub fn write_derivation<W: Write + ?Sized>(
    hex: &Hexagon,
    level: u8,
    below: usize,
    (symmetry, cardinality): (SymmetryBreaking, Cardinality),
    out: &mut W,
) -> io::Result<DerivationSummary> {
    Reach::Formula(symmetry, cardinality).write(hex, level, below, out)
}

fn derive<W: Write + ?Sized>(
    hex: &Hexagon,
    level: u8,
    below: usize,
    (symmetry, cardinality): (SymmetryBreaking, Cardinality),
    split: Option<&SplitTarget>,
    target: &Cnf,
    out: &mut W,
) -> io::Result<DerivationSummary> {
    let k = level as usize;
    let cells = hex.cell_count();
    let max_penalty = below - 1;
    let statement = Statement::new(hex, level, below);
    let ids = StatementIds::new(&statement, cells);
    let encoding = LevelEncoding::new(hex, level, EncodeOptions { symmetry, ..EncodeOptions::bounded(None) });
    let mut proof = Proof::new(out, ids.loaded);
    proof.line("pseudo-Boolean proof version 3.0")?;
    proof.line(&format!("f {};", ids.loaded))?;
    let mut chains = Vec::new();
    if symmetry == SymmetryBreaking::Ring1LexLeader && hex.side() >= 2 {
        let first_equal = LevelEncoding::new(hex, level, EncodeOptions::bounded(None)).cnf.num_vars() as i32 + 1;
        chains = symmetry::dominance(&mut proof, hex, &statement, first_equal)?;
    }
    let lexes = match split {
        Some(split) => cubes::dominance(&mut proof, hex, &statement, split)?,
        None => Vec::new(),
    };
    let (ge_upper, ge_lower) = define_ge(&mut proof, &encoding, cells, k)?;
    value_helpers(&mut proof, hex, &encoding, &ids, k)?;
    if !chains.is_empty() {
        let ge = symmetry::GeIds { upper: &ge_upper, lower: &ge_lower };
        symmetry::define_chains(&mut proof, hex, level, &encoding, &ids, &ge, &mut chains)?;
    }
    if let Some(split) = split {
        let ge = symmetry::GeIds { upper: &ge_upper, lower: &ge_lower };
        cubes::over_ge(&mut proof, (level, &encoding), &ids, &ge, split, lexes)?;
    }
    let (pen_upper, lemmas) = penalty::define_penalties(&mut proof, hex, level, &encoding, &ids, &ge_upper)?;
    let pens = encoding.penalty_vars();
    forcing_clauses(&mut proof, &encoding, &chains)?;
    symmetry::comparison_helpers(&mut proof, &chains)?;
    if max_penalty < pens.len() {
        let bound = penalty::bound_penalties(&mut proof, &pen_upper, &lemmas, &ids)?;
        if max_penalty >= 1 {
            let first_var = encoding.cnf.num_vars() as i32 + 1;
            counter::derive_counter(&mut proof, &cardinality.inputs(hex, pens), max_penalty, first_var, bound)?;
        }
    }

    if let Some(split) = split {
        cubes::cover(&mut proof, hex, &encoding, &ids, split)?;
    }

    reach_target(&mut proof, target, ids.loaded)?;
    Ok(DerivationSummary {
        statement_constraints: ids.loaded,
        target_clauses: target.clauses().len(),
        target_variables: target.num_vars(),
        steps: proof.steps(),
    })
}

/// The statement's name for "cell `c` holds `v`" at level `k` (`v = k + 1` is `+`).
fn holds(k: usize, c: usize, v: usize) -> String {
    if v > k {
        Variable::Plus { cell: c }.to_string()
    } else {
        Variable::Value { cell: c, value: v as u8 }.to_string()
    }
}

/// Reifies the encoder's order (`ge`) and equality (`eq`) variables over the
/// statement's value variables; returns the ids the later steps cite.
#[allow(clippy::type_complexity)]
fn define_ge<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    encoding: &LevelEncoding,
    cells: usize,
    k: usize,
) -> io::Result<(Vec<Vec<usize>>, Vec<Vec<Vec<usize>>>)> {
    let holds = |c: usize, v: usize| holds(k, c, v);
    proof.line("% ge(c, j) is \"c holds j, ..., k or +\"; eq(c, a) is x_cC_va")?;
    // ge_upper[c][j - 2]: id of "ge(c, j) implies c holds j, ..., k or +";
    // ge_lower[c][j - 2][v - j]: id of "c holds v implies ge(c, j)".
    let mut ge_upper = vec![Vec::new(); cells];
    let mut ge_lower = vec![Vec::new(); cells];
    for c in 0..cells {
        for j in 2..=k + 1 {
            let g = encoding.ge_var(c, j);
            let some: Vec<String> = (j..=k + 1).map(|v| format!("+1 {}", holds(c, v))).collect();
            ge_upper[c].push(proof.step(&format!("red +1 ~x{g} {} >= 1 : x{g} -> 0;", some.join(" ")))?);
            let mut lower = Vec::new();
            for v in j..=k + 1 {
                lower.push(proof.step(&format!("red +1 x{g} +1 ~{} >= 1 : x{g} -> 1;", holds(c, v)))?);
            }
            ge_lower[c].push(lower);
        }
        for a in 2..=k {
            let e = encoding.eq_literal(c, a);
            proof.step(&format!("red +1 ~x{e} +1 {} >= 1 : x{e} -> 0;", holds(c, a)))?;
            proof.step(&format!("red +1 x{e} +1 ~{} >= 1 : x{e} -> 1;", holds(c, a)))?;
        }
    }

    Ok((ge_upper, ge_lower))
}

/// Facts every later step leans on: `ge(c, j)` excludes the values below
/// `j`, and no cell holds more than its degree + 1.
fn value_helpers<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    hex: &Hexagon,
    encoding: &LevelEncoding,
    ids: &StatementIds,
    k: usize,
) -> io::Result<()> {
    let holds = |c: usize, v: usize| holds(k, c, v);
    let cells = hex.cell_count();
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
            let mut terms: Vec<usize> = ids.support[c][..=degree].to_vec();
            terms.extend(hex.neighbours(c).iter().map(|&u| ids.at_most_one[u]));
            proof.step(&proof::sum(&terms))?;
        }
    }

    Ok(())
}

/// The formula's clauses that force a penalty or an equal-so-far variable,
/// each by redundance with that variable as witness.
fn forcing_clauses<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    encoding: &LevelEncoding,
    chains: &[symmetry::Chain],
) -> io::Result<()> {
    proof.line("% the clauses that force pen(e) and the equal-so-far variables")?;
    let pens = encoding.penalty_vars();
    let forced: std::collections::HashSet<i32> = pens.iter().copied().chain(symmetry::equal_vars(chains)).collect();
    force_by_redundance(proof, encoding.cnf.clauses(), &forced)
}

/// Each of `clauses` that holds a variable of `forced` positively, by
/// redundance with that variable set true as witness.
fn force_by_redundance<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    clauses: &[Vec<i32>],
    forced: &std::collections::HashSet<i32>,
) -> io::Result<()> {
    let mut line = String::new();
    for clause in clauses {
        if let Some(&var) = clause.iter().find(|&&lit| forced.contains(&lit)) {
            line.clear();
            push_clause(&mut line, clause);
            proof.step(&format!("red {line} : {} -> 1;", cnf_literal(var)))?;
        }
    }
    Ok(())
}

/// Every clause of `target`, in its order, by RUP; then the target is the
/// core and the statement's `loaded` constraints leave it.
fn reach_target<W: Write + ?Sized>(proof: &mut Proof<W>, target: &Cnf, loaded: usize) -> io::Result<()> {
    let mut line = String::new();
    proof.line("% the clauses of the formula, in its order")?;
    let first = proof.next_id();
    for clause in target.clauses() {
        line.clear();
        push_clause(&mut line, clause);
        proof.step(&format!("rup {line};"))?;
    }
    let last = proof.next_id();
    proof.line("% the formula's clauses are the core; the statement leaves it")?;
    proof.line(&format!("core range {first} {last};"))?;
    proof.line(&format!("del range 1 {};", loaded + 1))?;
    proof.line("output DERIVABLE FILE;")?;
    proof.line("conclusion NONE;")?;
    proof.line("end pseudo-Boolean proof;")?;
    Ok(())
}
