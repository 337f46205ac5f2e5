//! Upper-bound cardinality encodings: "at most `bound` of these literals are true".
//!
//! Each encoding only needs to be *sound for the bound*: every assignment with
//! more than `bound` true inputs falsifies some clause, and every assignment
//! with at most `bound` true inputs extends to the auxiliary variables.

use crate::formula::Cnf;
use rustsat::encodings::card::{BoundUpper, Totalizer};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::{Lit, Var};

/// The cardinality encodings on offer (chosen by measurement, see `benches/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cardinality {
    /// Sinz's sequential counter, written here: `m * bound` auxiliary
    /// variables, its inputs the penalty variables in edge index order
    /// (every claim proved before 2026-11-25).
    SequentialCounter,
    /// The same counter over the penalty variables in wedge order
    /// (`wedges`: by angle around the centre, then outwards). The default:
    /// it refutes level-3 claims 2.4x (n = 8) to 8x (an n = 13 cube) faster
    /// than the counter in index order (docs/MEASUREMENTS.md, "A faster
    /// refutation: the counter in wedge order").
    #[default]
    WedgeCounter,
    /// RustSAT's totalizer (Bailleux and Boufkhad), restricted to the bound.
    Totalizer,
}

impl Cardinality {
    /// Stable name recorded in certificates.
    pub fn name(self) -> &'static str {
        match self {
            Cardinality::SequentialCounter => "sequential-counter",
            Cardinality::Totalizer => "totalizer",
            Cardinality::WedgeCounter => "wedge-counter",
        }
    }

    /// Whether the bound is a sequential counter (whatever its input order):
    /// what the VeriPB derivation and the budget splits know how to read.
    pub fn is_counter(self) -> bool {
        matches!(self, Cardinality::SequentialCounter | Cardinality::WedgeCounter)
    }

    /// The encoding's inputs: the penalty variables (by edge index) in the
    /// order this encoding takes them.
    pub fn inputs(self, hex: &crate::geometry::Hexagon, penalty: &[i32]) -> Vec<i32> {
        match self {
            Cardinality::WedgeCounter => super::wedges::wedge_order(hex).into_iter().map(|e| penalty[e]).collect(),
            Cardinality::SequentialCounter | Cardinality::Totalizer => penalty.to_vec(),
        }
    }

    /// Adds clauses forcing at most `bound` of `lits` to be true.
    pub fn encode_at_most(self, lits: &[i32], bound: usize, cnf: &mut Cnf) {
        if bound >= lits.len() {
            return;
        }
        if bound == 0 {
            lits.iter().for_each(|&l| cnf.add_clause(&[-l]));
            return;
        }
        match self {
            Cardinality::SequentialCounter | Cardinality::WedgeCounter => sequential_counter(lits, bound, cnf),
            Cardinality::Totalizer => rustsat_totalizer(lits, bound, cnf),
        }
    }
}

/// Sinz (CP 2005), LTseq. `count[i][j]` is forced true when at least `j + 1`
/// of `lits[0..=i]` are true; the clause `!lits[i] | !count[i-1][bound-1]`
/// forbids a `bound + 1`-th. Requires `1 <= bound < lits.len()`.
fn sequential_counter(lits: &[i32], bound: usize, cnf: &mut Cnf) {
    let mut previous: Vec<i32> = Vec::new();
    for (i, &x) in lits.iter().enumerate() {
        if i > 0 {
            cnf.add_clause(&[-x, -previous[bound - 1]]);
        }
        if i + 1 == lits.len() {
            break;
        }
        let count: Vec<i32> = (0..bound).map(|_| cnf.new_var()).collect();
        cnf.add_clause(&[-x, count[0]]);
        for j in 0..bound {
            if i > 0 {
                cnf.add_clause(&[-previous[j], count[j]]);
                if j > 0 {
                    cnf.add_clause(&[-x, -previous[j - 1], count[j]]);
                }
            }
        }
        previous = count;
    }
}

/// RustSAT's totalizer, encoded for exactly the bound we need, clauses copied
/// into our formula in the order RustSAT produces them (deterministic).
fn rustsat_totalizer(lits: &[i32], bound: usize, cnf: &mut Cnf) {
    let mut totalizer: Totalizer = lits.iter().map(|&l| Lit::from_ipasir(l).expect("nonzero literal")).collect();
    let mut vars = BasicVarManager::from_next_free(Var::new(cnf.num_vars()));
    let mut clauses = rustsat::instances::Cnf::new();
    totalizer.encode_ub(bound..=bound, &mut clauses, &mut vars).expect("in-memory clause collection");
    let enforce = totalizer.enforce_ub(bound).expect("bound was encoded");
    cnf.reserve_vars_up_to(vars.max_var().map_or(0, |v| v.idx32() + 1));
    for clause in clauses.iter() {
        let lits: Vec<i32> = clause.iter().map(|l| l.to_ipasir()).collect();
        cnf.add_clause(&lits);
    }
    for unit in enforce {
        cnf.add_clause(&[unit.to_ipasir()]);
    }
}
