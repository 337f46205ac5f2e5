//! Test support: small UNSAT formulas, an LRAT proof generator, and byte
//! mutations for fuzzing.
//!
//! The generator refutes a formula by a DPLL tree without learning: at a
//! node with decisions D, unit propagation over the original clauses either
//! hits a conflict, and the clause "not D" follows by RUP with the reason
//! clauses in propagation order as hints (the checker replays exactly that
//! propagation), or it branches on x and derives "not D" from the two
//! children's "not D or not x" and "not D or x", then deletes them.
//! Invariant: the proofs are valid by construction, so every rejection in a
//! test is the checker's doing (or the tampering's).

#![allow(dead_code)]

use hexcert_lrat::format::{write_binary_add, write_binary_delete, write_text_add, write_text_delete};
use hexcert_lrat::Step;
use proptest::prelude::*;

/// {a∨b, a∨¬b, ¬a∨b, ¬a∨¬b} and a hand-made refutation of it (3 steps:
/// derive (a), delete 1 and 2, derive the empty clause).
pub const FOUR: &[u8] = b"c all four clauses over two variables\np cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n";
pub const FOUR_PROOF: &str = "5 1 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4 0\n";

/// A small deterministic generator (xorshift64*), so tests need no crate.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Pigeonhole: `pigeons` pigeons in `holes` holes, none shared.
pub fn pigeonhole(pigeons: i32, holes: i32) -> Vec<Vec<i32>> {
    let var = |p: i32, h: i32| p * holes + h + 1;
    let mut clauses: Vec<Vec<i32>> = (0..pigeons).map(|p| (0..holes).map(|h| var(p, h)).collect()).collect();
    for h in 0..holes {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                clauses.push(vec![-var(p, h), -var(q, h)]);
            }
        }
    }
    clauses
}

/// Random 3-SAT with distinct variables per clause.
pub fn random_3sat(vars: i32, clauses: usize, seed: u64) -> Vec<Vec<i32>> {
    let mut rng = Rng::new(seed);
    (0..clauses)
        .map(|_| {
            let mut clause: Vec<i32> = Vec::new();
            while clause.len() < 3 {
                let v = 1 + rng.below(vars as u64) as i32;
                if clause.iter().all(|l| l.abs() != v) {
                    clause.push(if rng.below(2) == 0 { v } else { -v });
                }
            }
            clause
        })
        .collect()
}

pub fn dimacs(clauses: &[Vec<i32>]) -> Vec<u8> {
    let vars = clauses.iter().flatten().map(|l| l.abs()).max().unwrap_or(0);
    let mut out = format!("p cnf {vars} {}\n", clauses.len());
    for clause in clauses {
        for lit in clause {
            out.push_str(&format!("{lit} "));
        }
        out.push_str("0\n");
    }
    out.into_bytes()
}

struct Generator<'a> {
    clauses: &'a [Vec<i32>],
    vars: usize,
    next_id: u64,
    steps: Vec<Step>,
}

impl Generator<'_> {
    /// Derives "not decisions"; None if the decisions extend to a model.
    fn refute(&mut self, decisions: &mut Vec<i32>) -> Option<u64> {
        let mut value = vec![0i8; self.vars + 1];
        let val = |value: &[i8], lit: i32| value[lit.unsigned_abs() as usize] * lit.signum() as i8;
        for &d in decisions.iter() {
            value[d.unsigned_abs() as usize] = d.signum() as i8;
        }
        let mut hints = Vec::new();
        let mut conflict = false;
        let mut changed = true;
        while changed && !conflict {
            changed = false;
            for (i, clause) in self.clauses.iter().enumerate() {
                if clause.iter().any(|&l| val(&value, l) > 0) {
                    continue;
                }
                let open: Vec<i32> = clause.iter().copied().filter(|&l| val(&value, l) == 0).collect();
                match open.len() {
                    0 => conflict = true,
                    1 => {
                        value[open[0].unsigned_abs() as usize] = open[0].signum() as i8;
                        changed = true;
                    }
                    _ => continue,
                }
                hints.push(i as i64 + 1);
                if conflict {
                    break;
                }
            }
        }
        let negated: Vec<i32> = decisions.iter().map(|d| -d).collect();
        if conflict {
            return Some(self.emit(negated, hints));
        }
        let branch = (1..=self.vars as i32).find(|&v| value[v as usize] == 0)?;
        decisions.push(branch);
        let positive = self.refute(decisions);
        decisions.pop();
        let positive = positive?;
        decisions.push(-branch);
        let negative = self.refute(decisions);
        decisions.pop();
        let negative = negative?;
        let id = self.emit(negated, vec![positive as i64, negative as i64]);
        self.steps.push(Step::Delete { ids: vec![positive, negative] });
        Some(id)
    }

    fn emit(&mut self, lits: Vec<i32>, hints: Vec<i64>) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.steps.push(Step::Add { id, lits, hints });
        id
    }
}

/// A tree-resolution LRAT refutation of `clauses`, or None if satisfiable.
pub fn dpll_proof(clauses: &[Vec<i32>]) -> Option<Vec<Step>> {
    let vars = clauses.iter().flatten().map(|l| l.unsigned_abs() as usize).max().unwrap_or(0);
    let mut generator = Generator { clauses, vars, next_id: clauses.len() as u64 + 1, steps: Vec::new() };
    generator.refute(&mut Vec::new())?;
    Some(generator.steps)
}

/// The first UNSAT random 3-SAT formula from `seed` on.
pub fn unsat_3sat(vars: i32, clauses: usize, seed: u64) -> (Vec<Vec<i32>>, Vec<Step>) {
    (seed..)
        .find_map(|s| {
            let formula = random_3sat(vars, clauses, s);
            dpll_proof(&formula).map(|proof| (formula, proof))
        })
        .unwrap()
}

pub fn to_text(steps: &[Step]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut last = 0;
    for step in steps {
        match step {
            Step::Add { id, lits, hints } => {
                write_text_add(&mut out, *id, lits, hints);
                last = *id;
            }
            Step::Delete { ids } => write_text_delete(&mut out, last, ids),
        }
    }
    out
}

pub fn to_binary(steps: &[Step]) -> Vec<u8> {
    let mut out = Vec::new();
    for step in steps {
        match step {
            Step::Add { id, lits, hints } => write_binary_add(&mut out, *id, lits, hints),
            Step::Delete { ids } => write_binary_delete(&mut out, ids),
        }
    }
    out
}

/// The 1-based ordinal of the last addition step (the empty clause).
pub fn last_add(steps: &[Step]) -> usize {
    steps.iter().rposition(|s| matches!(s, Step::Add { .. })).unwrap() + 1
}

/// Implications x_i → x_{i+1} for i < n, then (x_1) and (¬x_n): clause i
/// is the i-th implication, n is (x_1), n+1 is (¬x_n). The proof derives
/// `steps` random shortcuts x_i → x_{i+span} (each a chain of `span`
/// hints), deletes each one a few steps later, and ends with the empty
/// clause from the whole chain. A stand-in for the checker's hot loop.
pub fn implication_chain(n: i32, steps: usize, span: i32, seed: u64) -> (Vec<Vec<i32>>, Vec<Step>) {
    let mut clauses: Vec<Vec<i32>> = (1..n).map(|i| vec![-i, i + 1]).collect();
    clauses.push(vec![1]);
    clauses.push(vec![-n]);
    let mut rng = Rng::new(seed);
    let mut proof = Vec::new();
    let mut id = clauses.len() as u64;
    let mut pending = std::collections::VecDeque::new();
    for _ in 0..steps {
        let i = 1 + rng.below((n - span) as u64) as i32;
        id += 1;
        let hints = (i..i + span).map(|k| k as i64).collect();
        proof.push(Step::Add { id, lits: vec![-i, i + span], hints });
        pending.push_back(id);
        if pending.len() > 8 {
            proof.push(Step::Delete { ids: vec![pending.pop_front().unwrap()] });
        }
    }
    let mut hints: Vec<i64> = vec![n as i64];
    hints.extend(1..n as i64);
    hints.push(n as i64 + 1);
    proof.push(Step::Add { id: id + 1, lits: vec![], hints });
    (clauses, proof)
}

/// One random edit of a byte string, for mutated proofs.
#[derive(Debug, Clone)]
pub enum Mutation {
    Set(prop::sample::Index, u8),
    Insert(prop::sample::Index, u8),
    Remove(prop::sample::Index),
    Truncate(prop::sample::Index),
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Set(i, b)),
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<prop::sample::Index>().prop_map(Mutation::Remove),
        any::<prop::sample::Index>().prop_map(Mutation::Truncate),
    ]
}

pub fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        if bytes.is_empty() {
            break;
        }
        match *m {
            Mutation::Set(ref i, b) => {
                let i = i.index(bytes.len());
                bytes[i] = b;
            }
            Mutation::Insert(ref i, b) => bytes.insert(i.index(bytes.len() + 1), b),
            Mutation::Remove(ref i) => {
                bytes.remove(i.index(bytes.len()));
            }
            Mutation::Truncate(ref i) => bytes.truncate(i.index(bytes.len())),
        }
    }
    bytes
}
