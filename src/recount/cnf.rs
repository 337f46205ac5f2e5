//! One level-3 partial's refinements to level k adding exactly `d` to its
//! penalty, as a plain CNF whose models over the label variables are those
//! refinements, one each: what an exact model counter counts to recount a
//! lifted class. Written from docs/PROBLEM.md, section 4, alone.
//!
//! Invariants relied on (section 4): refining a level-3 partial changes only
//! its `+` cells (the former `+` cells, `F`), each to a value `4..=k` or to
//! the level's `+`, written here `k + 1` (at level 6 that is the value 7).
//! A cell outside `F` holds a value of `1..=3` and sees what it saw, so
//! its validity and its penalty terms do not change; a cell of `F` still
//! sees `1..=3` (a level-3 `+` must) and keeps its terms for those values,
//! which only look at lower neighbours. What changes is what the cells of
//! `F` see of each other:
//! - validity: a cell of value `v` in `F` sees each of `4..v` on a
//!   neighbour in `F` (for the level's `+`, `v = k + 1`, every one of
//!   `4..=k`);
//! - penalty added: an edge of `F` whose two ends hold the same value (two
//!   level's `+` cells below level 6 excepted: that edge is not decided
//!   yet), and, for a cell of `F` of value `v` and each `a` of `4..v` that
//!   it sees `m > 1` times in `F`, `m - 1`.
//!
//! Each term is a 0/1 indicator over the labels, an auxiliary variable
//! defined as the conjunction it stands for (both directions), so every
//! labelling extends to exactly one model; the sum of the indicators is held
//! to exactly `d` by a sequential counter whose variables are likewise
//! defined ("at least j of the first i"). The label variables are one-hot,
//! one per cell of `F` and value, and they are the projection (`c p show`),
//! which changes nothing here but lets a counter skip the defined ones.

use crate::geometry::Hexagon;

/// A CNF in DIMACS terms: clauses over variables `1..=vars`, and the
/// variables a projected count is over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefinementsCnf {
    pub vars: u32,
    pub clauses: Vec<Vec<i32>>,
    pub show: Vec<i32>,
}

impl RefinementsCnf {
    /// The formula in DIMACS, its projection on a `c p show` line before
    /// the header (where a formula of no clause still has it).
    pub fn dimacs(&self) -> String {
        use std::fmt::Write;
        let mut out = String::from("c p show");
        self.show.iter().for_each(|v| write!(out, " {v}").expect("a string takes writes"));
        write!(out, " 0\np cnf {} {}\n", self.vars, self.clauses.len()).expect("a string takes writes");
        for clause in &self.clauses {
            clause.iter().for_each(|l| write!(out, "{l} ").expect("a string takes writes"));
            out.push_str("0\n");
        }
        out
    }

    fn fresh(&mut self) -> i32 {
        self.vars += 1;
        self.vars as i32
    }

    /// A new variable that is true exactly when every literal of `all` is.
    fn and(&mut self, all: &[i32]) -> i32 {
        let t = self.fresh();
        all.iter().for_each(|&l| self.clauses.push(vec![-t, l]));
        self.clauses.push(std::iter::once(t).chain(all.iter().map(|&l| -l)).collect());
        t
    }

    /// A new variable that is true exactly when some literal of `any` is.
    fn or(&mut self, any: &[i32]) -> i32 {
        let t = self.fresh();
        any.iter().for_each(|&l| self.clauses.push(vec![t, -l]));
        self.clauses.push(std::iter::once(-t).chain(any.iter().copied()).collect());
        t
    }
}

/// The refinements of the level-3 partial `values` (`+` stored as 4) to
/// `level` (4..=6) that add exactly `added` to its penalty.
pub fn refinements_cnf(hex: &Hexagon, values: &[u8], level: u8, added: usize) -> RefinementsCnf {
    let top = level + 1;
    let former: Vec<usize> = (0..values.len()).filter(|&c| values[c] == 4).collect();
    let position = |c: usize| former.binary_search(&c).ok();
    let mut cnf = RefinementsCnf { vars: 0, clauses: Vec::new(), show: Vec::new() };
    // label[i][v - 4]: former `+` cell i holds value v.
    let label: Vec<Vec<i32>> = former.iter().map(|_| (4..=top).map(|_| cnf.fresh()).collect()).collect();
    cnf.show = label.iter().flatten().copied().collect();
    let x = |i: usize, v: u8| label[i][usize::from(v - 4)];
    let near: Vec<Vec<usize>> =
        former.iter().map(|&c| hex.neighbours(c).iter().filter_map(|&u| position(u)).collect()).collect();
    for (i, row) in label.iter().enumerate() {
        cnf.clauses.push(row.clone());
        for a in 0..row.len() {
            for b in a + 1..row.len() {
                cnf.clauses.push(vec![-row[a], -row[b]]);
            }
        }
        for v in 5..=top {
            for a in 4..v {
                cnf.clauses.push(std::iter::once(-x(i, v)).chain(near[i].iter().map(|&u| x(u, a))).collect());
            }
        }
    }
    // A term holds when each of its factors (a disjunction) does.
    let mut terms: Vec<Vec<Vec<i32>>> = Vec::new();
    for (i, others) in near.iter().enumerate() {
        for &u in others.iter().filter(|&&u| u > i) {
            for v in (4..=top).filter(|&v| v <= level || level == 6) {
                terms.push(vec![vec![x(i, v)], vec![x(u, v)]]);
            }
        }
        // The `m - 1` of a value `a` seen `m` times: one for each neighbour
        // holding `a` after the first one that does, in cell order.
        for a in 4..=level {
            let above: Vec<i32> = (a + 1..=top).map(|v| x(i, v)).collect();
            for j in 1..others.len() {
                let earlier: Vec<i32> = others[..j].iter().map(|&u| x(u, a)).collect();
                terms.push(vec![vec![x(others[j], a)], above.clone(), earlier]);
            }
        }
    }
    exactly(&mut cnf, &terms, added);
    cnf
}

/// Holds the number of `terms` that hold to exactly `d`: at `d = 0` each is
/// forbidden outright (a clause for each pick of one literal per factor);
/// above, each is defined by a variable and counted.
fn exactly(cnf: &mut RefinementsCnf, terms: &[Vec<Vec<i32>>], d: usize) {
    if d == 0 {
        for term in terms {
            let mut picks: Vec<Vec<i32>> = vec![Vec::new()];
            for factor in term {
                picks = picks
                    .iter()
                    .flat_map(|pick| {
                        factor.iter().map(move |&l| pick.iter().copied().chain(std::iter::once(-l)).collect())
                    })
                    .collect();
            }
            cnf.clauses.extend(picks);
        }
        return;
    }
    let terms: Vec<i32> = terms
        .iter()
        .map(|term| {
            let factors: Vec<i32> =
                term.iter().map(|f| if let [only] = f.as_slice() { *only } else { cnf.or(f) }).collect();
            cnf.and(&factors)
        })
        .collect();
    // at_least[j - 1]: at least j of the terms so far hold (j = 1..=d+1);
    // before any term, none does.
    let mut at_least: Vec<Option<i32>> = vec![None; d + 1];
    for &t in &terms {
        let mut next = Vec::with_capacity(d + 1);
        for j in 0..=d {
            let carried = if j == 0 { Some(t) } else { at_least[j - 1].map(|below| cnf.and(&[below, t])) };
            next.push(match (at_least[j], carried) {
                (Some(kept), Some(new)) => Some(cnf.or(&[kept, new])),
                (kept, new) => kept.or(new),
            });
        }
        at_least = next;
    }
    match at_least[d - 1] {
        Some(reached) => cnf.clauses.push(vec![reached]),
        // No term at all: no labelling adds `d > 0`.
        None => {
            let never = cnf.fresh();
            cnf.clauses.extend([vec![never], vec![-never]]);
        }
    }
    if let Some(over) = at_least[d] {
        cnf.clauses.push(vec![-over]);
    }
}
