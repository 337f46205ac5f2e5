//! The problem statement as a pseudo-Boolean (OPB) file: the text a reader
//! audits in place of the CNF encoder.
//!
//! Each constraint family is one definition of docs/PROBLEM.md written as a
//! linear constraint over 0/1 variables; docs/STATEMENT.md sets each family
//! beside the definition it encodes. Invariants the certificates rely on:
//! - with bound `B`, the statement has a solution iff some valid level-k
//!   partial has level-k penalty at most `B - 1`: the penalty indicators are
//!   only bounded from below, so a solution can always lower them to the true
//!   charges (tests/statement.rs compares it with the plain validator);
//! - it is invariant under the 12 symmetries of the hexagon: variables are
//!   named after cells, values and edges only, and duplicate support is
//!   charged per cell and value (the count `m - 1`), never to chosen edges, so
//!   a symmetry maps the constraint set onto itself;
//! - the text is deterministic: same arguments, same bytes.
//!
//! The file uses VeriPB's OPB extension of named variables (letters, digits,
//! `_`); otherwise it is plain OPB, `<=` included.

use std::fmt;
use std::io::{self, Write};

use crate::geometry::Hexagon;

/// Bumped whenever the constraints written for the same arguments change.
pub const STATEMENT_VERSION: &str = "hexcert-statement/1";

/// A 0/1 variable of the statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variable {
    /// Cell `cell` holds `value` (`1..=level`).
    Value { cell: usize, value: u8 },
    /// Cell `cell` holds more than the level (`+`; the value 7 at level 6).
    Plus { cell: usize },
    /// The edge `u - v` (`u < v`) is charged for joining two equal decided values.
    EqualEdge { u: usize, v: usize },
    /// The `unit`-th penalty edge (`1..degree`) charged to `cell` for seeing
    /// `value` more than once.
    Duplicate { cell: usize, value: u8, unit: usize },
}

impl fmt::Display for Variable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Variable::Value { cell, value } => write!(f, "x_c{cell}_v{value}"),
            Variable::Plus { cell } => write!(f, "x_c{cell}_plus"),
            Variable::EqualEdge { u, v } => write!(f, "eq_c{u}_c{v}"),
            Variable::Duplicate { cell, value, unit } => write!(f, "dup_c{cell}_v{value}_{unit}"),
        }
    }
}

/// `coefficient * variable`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Term {
    pub coefficient: i64,
    pub variable: Variable,
}

/// How the left-hand side compares with the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    AtLeast,
    AtMost,
    Equal,
}

impl Relation {
    fn symbol(self) -> &'static str {
        match self {
            Relation::AtLeast => ">=",
            Relation::AtMost => "<=",
            Relation::Equal => "=",
        }
    }
}

/// The definition of docs/PROBLEM.md a constraint encodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    OneValue,
    Support,
    EqualValues,
    DuplicateSupport,
    PenaltyBound,
}

impl Family {
    /// The comment written before the family's constraints.
    fn explanation(self) -> &'static [&'static str] {
        match self {
            Family::OneValue => &[
                "[values] every cell holds exactly one of 1..k and + (docs/PROBLEM.md, section 4):",
                "  x_cC_v1 + ... + x_cC_vk + x_cC_plus = 1",
            ],
            Family::Support => &[
                "[support] for each cell C and value a in 1..k: if C holds a value above a (a decided",
                "value or +), some neighbour of C holds a (sections 2 and 4):",
                "  (neighbours of C holding a) - (C holds a+1, ..., k or +) >= 0",
            ],
            Family::EqualValues => &[
                "[equal] for each edge U-V and value a in 1..k: two decided equal ends charge the edge",
                "(sections 3 and 4; + next to + is not charged):",
                "  eq_cU_cV - x_cU_va - x_cV_va >= -1",
            ],
            Family::DuplicateSupport => &[
                "[duplicate] for each cell C of degree d >= 2 and value a in 1..k: if C holds a value",
                "above a and sees a m times, at least m - 1 of the units dup_cC_va_1..d-1 are charged",
                "(sections 3 and 4); when C is not above a the constraint is void, as m <= d:",
                "  (dup_cC_va_*) - (neighbours of C holding a) - (d-1) (C holds a+1, ..., k or +) >= -d",
            ],
            Family::PenaltyBound => &[
                "[bound] the level-k penalty, every charged equal edge and duplicate support unit,",
                "is below B (section 4):",
                "  (all eq_*) + (all dup_*) <= B - 1",
            ],
        }
    }
}

/// One linear constraint `sum of terms <relation> bound`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    pub family: Family,
    pub terms: Vec<Term>,
    pub relation: Relation,
    pub bound: i64,
}

/// "Some valid level-`level` partial of the side-`n` hexagon has level-k
/// penalty at most `below - 1`", as a list of constraints.
#[derive(Debug, Clone)]
pub struct Statement {
    pub n: usize,
    pub level: u8,
    pub below: usize,
    /// Every variable once, in the order the header counts them.
    pub variables: Vec<Variable>,
    /// In file order, grouped by family.
    pub constraints: Vec<Constraint>,
}

impl Statement {
    /// Builds the statement. Deterministic.
    pub fn new(hex: &Hexagon, level: u8, below: usize) -> Statement {
        let k = level;
        let cells = hex.cell_count();
        let variables = variables(hex, k);
        let term = |coefficient: i64, variable: Variable| Term { coefficient, variable };
        let holds = |cell: usize, value: u8| {
            if value > k {
                Variable::Plus { cell }
            } else {
                Variable::Value { cell, value }
            }
        };
        // "C holds a value above a": the values a+1..=k and `+`, exactly one of which is possible.
        let above =
            |cell: usize, a: u8, coefficient: i64| (a + 1..=k + 1).map(move |v| term(coefficient, holds(cell, v)));
        let sees = |cell: usize, a: u8, coefficient: i64| {
            hex.neighbours(cell).iter().map(move |&u| term(coefficient, holds(u, a)))
        };

        let mut constraints = Vec::new();
        for cell in 0..cells {
            constraints.push(Constraint {
                family: Family::OneValue,
                terms: (1..=k + 1).map(|v| term(1, holds(cell, v))).collect(),
                relation: Relation::Equal,
                bound: 1,
            });
        }
        for cell in 0..cells {
            for a in 1..=k {
                let mut terms: Vec<Term> = sees(cell, a, 1).collect();
                terms.extend(above(cell, a, -1));
                constraints.push(Constraint { family: Family::Support, terms, relation: Relation::AtLeast, bound: 0 });
            }
        }
        for &(u, v) in hex.edges() {
            for a in 1..=k {
                constraints.push(Constraint {
                    family: Family::EqualValues,
                    terms: vec![term(1, Variable::EqualEdge { u, v }), term(-1, holds(u, a)), term(-1, holds(v, a))],
                    relation: Relation::AtLeast,
                    bound: -1,
                });
            }
        }
        for cell in 0..cells {
            let degree = hex.neighbours(cell).len() as i64;
            for a in 1..=k {
                let units: Vec<Term> = duplicate_units(hex, cell, a).map(|d| term(1, d)).collect();
                if units.is_empty() {
                    continue;
                }
                let mut terms = units;
                terms.extend(sees(cell, a, -1));
                terms.extend(above(cell, a, -(degree - 1)));
                constraints.push(Constraint {
                    family: Family::DuplicateSupport,
                    terms,
                    relation: Relation::AtLeast,
                    bound: -degree,
                });
            }
        }
        let charges = variables
            .iter()
            .filter(|v| matches!(v, Variable::EqualEdge { .. } | Variable::Duplicate { .. }))
            .map(|&v| term(1, v))
            .collect();
        constraints.push(Constraint {
            family: Family::PenaltyBound,
            terms: charges,
            relation: Relation::AtMost,
            bound: below as i64 - 1,
        });
        Statement { n: hex.side(), level, below, variables, constraints }
    }

    /// Writes the OPB text: the header, what the variables and families
    /// mean, the cell map, then the constraints family by family.
    pub fn write<W: Write + ?Sized>(&self, hex: &Hexagon, out: &mut W) -> io::Result<()> {
        let k = self.level;
        writeln!(out, "* #variable= {} #constraint= {}", self.variables.len(), self.constraints.len())?;
        writeln!(out, "* {STATEMENT_VERSION} n={} level={k} below={}", self.n, self.below)?;
        writeln!(
            out,
            "* A solution is a valid level-{k} partial of the side-{} hexagon with level-{k} penalty below {}:",
            self.n, self.below
        )?;
        writeln!(out, "* infeasible means no such partial exists. docs/STATEMENT.md explains every line.")?;
        writeln!(out, "* Variables (C, U, V: cells; a: a value in 1..{k}; j: a unit):")?;
        writeln!(out, "*   x_cC_va      cell C holds a")?;
        let plus = if k == crate::levels::FULL_LEVEL { "the value 7" } else { "a value above k, not yet decided" };
        writeln!(out, "*   x_cC_plus    cell C holds + ({plus})")?;
        writeln!(out, "*   eq_cU_cV     the edge U-V (U < V) is charged: both ends hold the same a")?;
        writeln!(out, "*   dup_cC_va_j  the j-th penalty edge charged to C for seeing a more than once")?;
        writeln!(
            out,
            "* Cells, row by row in skewed coordinates (docs/PROBLEM.md, section 1): cell (row, column): neighbours"
        )?;
        for cell in 0..hex.cell_count() {
            let (i, j) = hex.coords(cell);
            let ns: Vec<String> = hex.neighbours(cell).iter().map(|u| format!("c{u}")).collect();
            writeln!(out, "*   c{cell} ({i}, {j}): {}", ns.join(" "))?;
        }
        let mut family = None;
        let mut line = String::new();
        for constraint in &self.constraints {
            if family != Some(constraint.family) {
                family = Some(constraint.family);
                for text in constraint.family.explanation() {
                    writeln!(out, "* {text}")?;
                }
            }
            line.clear();
            constraint.push_opb(&mut line);
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// The OPB text as bytes.
    pub fn to_opb(&self, hex: &Hexagon) -> Vec<u8> {
        let mut bytes = Vec::new();
        self.write(hex, &mut bytes).expect("writing to memory cannot fail");
        bytes
    }
}

impl Constraint {
    /// Appends the OPB line, without its newline: `+1 x -2 y >= 3 ;`.
    pub fn push_opb(&self, line: &mut String) {
        use std::fmt::Write as _;
        for t in &self.terms {
            let _ = write!(line, "{:+} {} ", t.coefficient, t.variable);
        }
        let _ = write!(line, "{} {} ;", self.relation.symbol(), self.bound);
    }
}

/// Every variable of the level-`k` statement once, in the header's order:
/// each cell's values `1..=k` and `+`, one per edge, then the
/// duplicate-support units cell by cell, value by value.
fn variables(hex: &Hexagon, k: u8) -> Vec<Variable> {
    let cells = hex.cell_count();
    let mut variables = Vec::new();
    for cell in 0..cells {
        variables.extend((1..=k).map(|value| Variable::Value { cell, value }));
        variables.push(Variable::Plus { cell });
    }
    variables.extend(hex.edges().iter().map(|&(u, v)| Variable::EqualEdge { u, v }));
    for cell in 0..cells {
        for value in 1..=k {
            variables.extend(duplicate_units(hex, cell, value));
        }
    }
    variables
}

/// The duplicate-support units of `cell` and `value`: one fewer than its
/// neighbours, as a cell seeing `value` `m` times is charged `m - 1`.
fn duplicate_units(hex: &Hexagon, cell: usize, value: u8) -> impl Iterator<Item = Variable> {
    let degree = hex.neighbours(cell).len();
    (1..degree).map(move |unit| Variable::Duplicate { cell, value, unit })
}
