//! Proof-prefix splitting: decision trees below hard cubes, chosen by what
//! the solver learns in a short prefix of its run.
//!
//! At a node (a cube and a path of literals below it) CaDiCaL runs on the
//! cube's formula with the path as units for a budget of conflicts, and every
//! learned clause is read (the `Learner` hook, no proof needed). A node the
//! prefix refutes is a leaf: its cube is easy. Otherwise the node splits on
//! the variable that occurs most often in the learned clauses: variables a
//! proof keeps returning to early are the ones it keeps returning to later,
//! so splitting on them cuts the proof where its work is. With
//! `PrefixScore::Pivots` the prefix is traced instead and the node splits on
//! the variable its derivations resolve on most (`pivots`). Both branches
//! are grown the same way, to a depth limit.
//!
//! Nothing here is trusted: the tree is only a choice of cubes. The plan's
//! cover check and the VeriPB derivation of its split formula see that the
//! leaves cover the cube (`cubes::tree`), and every leaf is refuted by a
//! checked proof of its own.

use std::collections::VecDeque;

use cadical_sys::{CaDiCal, Learner, Status};
use rayon::prelude::*;

use crate::cubes::{cube_formula, Plan};
use crate::error::HexError;

/// How far a tree grows, and what it splits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrefixSettings {
    /// Conflicts of the prefix run at each node.
    pub conflicts: i32,
    /// Deepest path below the cube.
    pub depth: usize,
    pub score: PrefixScore,
}

/// What makes a variable the one a node splits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrefixScore {
    /// It occurs most often in the clauses the prefix learned.
    Learned,
    /// The prefix's derivations resolve on it most, a short lemma weighing
    /// more (`pivots`).
    Pivots,
}

/// The tree grown below one cube.
#[derive(Debug, Clone)]
pub struct Grown {
    /// The leaves' paths, in the order the tree was read (breadth first).
    pub leaves: Vec<Vec<i32>>,
    /// Leaves whose prefix run already refuted them.
    pub settled: usize,
    /// Prefix runs made (one per node).
    pub runs: usize,
}

/// Counts the variables of every learned clause.
struct Frequency {
    counts: std::rc::Rc<std::cell::RefCell<Vec<u64>>>,
}

impl Learner for Frequency {
    fn learning(&mut self, _size: i32) -> bool {
        true
    }

    fn learn(&mut self, lit: i32) {
        if lit != 0 {
            let var = lit.unsigned_abs() as usize;
            let mut counts = self.counts.borrow_mut();
            if counts.len() <= var {
                counts.resize(var + 1, 0);
            }
            counts[var] += 1;
        }
    }
}

/// What one prefix run says about a node.
enum Prefix {
    /// Refuted (or satisfied: `cubes run` finds and validates the model) within the budget.
    Settled,
    /// Still open: the variable learned clauses mention most, if any.
    Open(Option<i32>),
}

fn prefix_run(clauses: &[Vec<i32>], path: &[i32], settings: PrefixSettings) -> Prefix {
    let mut solver = CaDiCal::new();
    let learned = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let pivots: super::pivots::Weights = Default::default();
    match settings.score {
        PrefixScore::Learned => solver.connect_learner(Frequency { counts: learned.clone() }),
        // Antecedents on, finalisation off: only the derivations are read.
        PrefixScore::Pivots => solver.connect_proof_tracer1(super::pivots::Pivots::new(pivots.clone()), true, false),
    }
    for clause in clauses {
        solver.clause6(clause);
    }
    for &lit in path {
        solver.clause1(lit);
    }
    solver.limit("conflicts", settings.conflicts);
    if !matches!(solver.solve(), Status::UNKNOWN) {
        return Prefix::Settled;
    }
    let scores: Vec<f64> = match settings.score {
        PrefixScore::Learned => learned.borrow().iter().map(|&c| c as f64).collect(),
        PrefixScore::Pivots => pivots.borrow().clone(),
    };
    let open = |var: usize| !path.iter().any(|l| l.unsigned_abs() as usize == var) && solver.fixed(var as i32) == 0;
    let best = (1..scores.len())
        .filter(|&v| scores[v] > 0.0 && open(v))
        .max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a)));
    Prefix::Open(best.map(|v| v as i32))
}

/// Grows a tree below cube `index` of `plan`.
pub fn grow(plan: &Plan, index: usize, settings: PrefixSettings) -> Result<Grown, HexError> {
    let encoding = plan.encoding()?;
    let split = plan.split()?;
    let cube = plan.cubes.get(index).ok_or_else(|| {
        HexError::Usage(format!("cube index {index} is out of range: the plan has {} cubes", plan.cubes.len()))
    })?;
    let cnf = cube_formula(&encoding, &split, cube);
    let mut grown = Grown { leaves: Vec::new(), settled: 0, runs: 0 };
    let mut open = VecDeque::from([Vec::new()]);
    while let Some(path) = open.pop_front() {
        grown.runs += 1;
        match prefix_run(cnf.clauses(), &path, settings) {
            Prefix::Open(Some(var)) if path.len() < settings.depth => {
                for lit in [var, -var] {
                    let mut child = path.clone();
                    child.push(lit);
                    open.push_back(child);
                }
            }
            Prefix::Settled => {
                grown.settled += 1;
                grown.leaves.push(path);
            }
            Prefix::Open(_) => grown.leaves.push(path),
        }
    }
    Ok(grown)
}

/// Grows a tree below each cube of `which`, on every core.
pub fn grow_all(plan: &Plan, which: &[usize], settings: PrefixSettings) -> Result<Vec<(usize, Grown)>, HexError> {
    which.par_iter().map(|&i| grow(plan, i, settings).map(|g| (i, g))).collect()
}
