//! The ring-1 lex-leader constraints of `src/encoding/symmetry.rs`, derived
//! by VeriPB's dominance rule instead of the paper argument.
//!
//! The order: `f(x) = sum_i W^(5-i) val(c_i)` over the centre's neighbours
//! `c_0..c_5` in key order, `val(c) = sum_v v x_cC_v` (`+` counts as `k+1`)
//! and `W = k + 1`, so comparing `f` is comparing keys lexicographically
//! (a position outweighs every later one: `W^p > k (W^(p-1) + ... + 1)`).
//! For each non-identity symmetry `s`, `dom` adds `f(x) <= f(x o s)` with
//! the witness `s` (every statement variable renamed by `s`): the statement is
//! invariant under `s` (tests/statement.rs), and an assignment violating the
//! constraint maps to one strictly smaller in the order. The dominance steps
//! come first, while the core is the statement alone.
//!
//! The CNF states (LL_s) over `ge` literals with "equal so far" variables
//! `e_i`. So each dominance constraint is rewritten over `ge`
//! (`val(c) = 1 + sum_j ge(c, j)`, from the definitions of `ge` and
//! "exactly one value"), each `e_i` is defined by "the first i+1 positions
//! of the key, weighted, are not below their images" (witness e -> 0), and
//! then the CNF's clauses follow: the ones forcing `e_i` by redundance, the
//! comparisons by rup after adding the rewritten constraint and `e_{i-1}`'s
//! definition.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::proof::{cnf_literal, Proof};
use super::StatementIds;
use crate::encoding::symmetry::ring1_cells;
use crate::encoding::LevelEncoding;
use crate::geometry::Hexagon;
use crate::statement::{Statement, Variable};

/// The key a dominance order compares: its digits in order, each a cell
/// of `cells` (by position) read at a depth `d`, as its value capped at
/// `d + 1` (`+` counts as `k + 1`). Comparing keys is comparing digits
/// lexicographically. Ring 1 reads full values once; a cube split reads
/// its projections at every depth up to the plan's, depth after depth, so
/// that a key's least member reads, at every depth, as the least member of
/// its orbit there (`Split::representative`); a plan's tie-break reads a
/// tail of further cells after them (`encoding::TieBreak`).
pub struct Key {
    /// The order's name in the proof.
    pub name: &'static str,
    /// The key's cells, each once, in order of first reading.
    pub cells: Vec<usize>,
    /// `(position in cells, depth)`, most significant first.
    pub digits: Vec<(usize, usize)>,
}

impl Key {
    /// The key reading `(cell, depth)` digits in this order.
    pub fn from_digits(name: &'static str, digits: &[(usize, u8)]) -> Key {
        let mut cells: Vec<usize> = Vec::new();
        let mut positions = Vec::with_capacity(digits.len());
        for &(c, d) in digits {
            let position = cells.iter().position(|&x| x == c).unwrap_or_else(|| {
                cells.push(c);
                cells.len() - 1
            });
            positions.push((position, d as usize));
        }
        Key { name, cells, digits: positions }
    }

    /// The ring-1 lex-leader's key: the centre's neighbours, full values.
    pub fn ring1(hex: &Hexagon, level: u8) -> Key {
        let digits: Vec<(usize, u8)> = ring1_cells(hex).into_iter().map(|c| (c, level)).collect();
        Key::from_digits("ring1", &digits)
    }

    /// The deepest reading: digits are read in base one more.
    fn deepest(&self) -> usize {
        self.digits.iter().map(|&(_, d)| d).max().expect("a digit")
    }

    /// `W^p`, `p` the digits after digit `t`, `W` one more than the deepest
    /// reading: a digit outweighs every later one, since digits differ by
    /// at most their depth.
    fn weight(&self, t: usize) -> i128 {
        (self.deepest() as i128 + 1).pow((self.digits.len() - 1 - t) as u32)
    }

    /// What value `v` at `position` adds to the key.
    fn coefficient(&self, position: usize, v: usize) -> i128 {
        self.readings(position).map(|(t, depth)| self.weight(t) * v.min(depth + 1) as i128).sum()
    }

    /// The digits `(t, depth)` that read the cell at `position`.
    fn readings(&self, position: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.digits.iter().enumerate().filter(move |(_, &(p, _))| p == position).map(|(t, &(_, d))| (t, d))
    }
}

/// One symmetry's lex constraint, added by dominance.
pub struct Lex {
    /// `(key position, c, s(c))` for the positions `s` moves.
    pub pairs: Vec<(usize, usize, usize)>,
    /// Id of the constraint added by dominance, over the statement's variables.
    pub dominance: usize,
    /// The same constraint over the CNF's `ge` literals (`rewrite_over_ge`).
    pub over_ge: usize,
}

/// One symmetry's lex constraint and what its CNF clauses need.
pub struct Chain {
    lex: Lex,
    /// `(digit, c, s(c), depth)` for the digits whose cell `s` moves, in
    /// key order: the positions of the CNF's chain.
    digits: Vec<(usize, usize, usize, usize)>,
    /// The CNF's "equal so far" variables, one per pair but the last.
    equal: Vec<i32>,
    /// The definitions of `equal`.
    definitions: Vec<usize>,
}

fn value_name(k: usize, cell: usize, v: usize) -> String {
    if v > k {
        Variable::Plus { cell }.to_string()
    } else {
        Variable::Value { cell, value: v as u8 }.to_string()
    }
}

/// `+3 a -2 b ... ` from summed coefficients (zero ones dropped).
fn terms(coefficients: &BTreeMap<String, i128>) -> String {
    coefficients.iter().filter(|(_, &c)| c != 0).map(|(name, c)| format!("{c:+} {name} ")).collect()
}

/// The ring-1 lex-leader's dominance steps; `first_equal_var` is the CNF's
/// first "equal so far" variable.
pub fn dominance<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    hex: &Hexagon,
    statement: &Statement,
    first_equal_var: i32,
) -> io::Result<Vec<Chain>> {
    let key = Key::ring1(hex, statement.level);
    let lexes = lex_dominance(proof, hex, statement, &key)?;
    Ok(chains(&key, lexes, first_equal_var))
}

/// Each lex constraint with its CNF chain: the digits its symmetry moves
/// and one "equal so far" variable per digit but the last, numbered from
/// `first_equal_var` symmetry after symmetry (as `add_lex_chains` does).
pub fn chains(key: &Key, lexes: Vec<Lex>, first_equal_var: i32) -> Vec<Chain> {
    let mut next_equal = first_equal_var;
    lexes
        .into_iter()
        .map(|lex| {
            let digits: Vec<(usize, usize, usize, usize)> = key
                .digits
                .iter()
                .enumerate()
                .filter_map(|(t, &(p, d))| lex.pairs.iter().find(|pair| pair.0 == p).map(|&(_, x, y)| (t, x, y, d)))
                .collect();
            let equal: Vec<i32> = (1..digits.len())
                .map(|_| {
                    next_equal += 1;
                    next_equal - 1
                })
                .collect();
            Chain { lex, digits, equal, definitions: Vec::new() }
        })
        .collect()
}

/// Defines the order on `key`, adds one lex constraint `key(x) <= key(x o s)`
/// per non-identity symmetry `s` by dominance, and unloads the order.
pub fn lex_dominance<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    hex: &Hexagon,
    statement: &Statement,
    key: &Key,
) -> io::Result<Vec<Lex>> {
    let k = statement.level as usize;
    let slot = |side: &str, i: usize, v: usize| format!("{side}_{i}_{v}");
    let positions = key.cells.len();
    let vector = |side: &str| -> String {
        (0..positions)
            .flat_map(|i| (1..=k + 1).map(move |v| (i, v)))
            .map(|(i, v)| slot(side, i, v))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut order = BTreeMap::new();
    for i in 0..positions {
        for v in 1..=k + 1 {
            let w = key.coefficient(i, v);
            order.insert(slot("rgt", i, v), w);
            order.insert(slot("lft", i, v), -w);
        }
    }
    proof.line("% symmetry breaking: keys compared by a weighted sum, one dominance step per symmetry")?;
    proof.line(&format!("def_order {}", key.name))?;
    proof.line(&format!("  vars\n    left {};\n    right {};\n  end vars;", vector("lft"), vector("rgt")))?;
    proof.line(&format!("  def\n    {}>= 0;\n  end def;", terms(&order)))?;
    proof.line(&format!("  transitivity\n    vars\n      fresh_right {};\n    end vars;", vector("frs")))?;
    proof.line("    proof\n      proofgoal #1\n        pol 1 2 + 3 +;\n      qed #1 : -1;\n    qed proof;\n  end transitivity;")?;
    proof.line("end def_order;")?;
    let instance: Vec<String> = key.cells.iter().flat_map(|&c| (1..=k + 1).map(move |v| value_name(k, c, v))).collect();
    proof.line(&format!("load_order {} {};", key.name, instance.join(" ")))?;

    let mut constraints = Vec::new();
    for perm in hex.symmetries().iter().skip(1) {
        let pairs: Vec<(usize, usize, usize)> =
            key.cells.iter().enumerate().filter(|(_, &c)| perm[c] != c).map(|(i, &c)| (i, c, perm[c])).collect();
        let mut lex = BTreeMap::new();
        for &(i, x, y) in &pairs {
            for v in 1..=k + 1 {
                *lex.entry(value_name(k, y, v)).or_insert(0) += key.coefficient(i, v);
                *lex.entry(value_name(k, x, v)).or_insert(0) -= key.coefficient(i, v);
            }
        }
        let witness: Vec<String> = statement
            .variables
            .iter()
            .map(|&var| (var, image(var, perm)))
            .filter(|(var, img)| var != img)
            .map(|(var, img)| format!("{var} -> {img}"))
            .collect();
        // Strictness (goal #2): the constraint and its negation, the premise, add up to 0 >= 1.
        let dominance = proof.dominance(
            &format!("dom {}>= 0 : {} : subproof", terms(&lex), witness.join(" ")),
            &["proofgoal #2", "  pol -1 -2 +;", "qed #2 : -1;"],
        )?;
        constraints.push(Lex { pairs, dominance, over_ge: 0 });
    }
    proof.line("load_order;")?;
    Ok(constraints)
}

/// The statement variable `var` renamed by the cell permutation `perm`.
fn image(var: Variable, perm: &[usize]) -> Variable {
    match var {
        Variable::Value { cell, value } => Variable::Value { cell: perm[cell], value },
        Variable::Plus { cell } => Variable::Plus { cell: perm[cell] },
        Variable::EqualEdge { u, v } => Variable::EqualEdge { u: perm[u].min(perm[v]), v: perm[u].max(perm[v]) },
        Variable::Duplicate { cell, value, unit } => Variable::Duplicate { cell: perm[cell], value, unit },
    }
}

/// Ids the rewriting over `ge` cites, from the definitions of `ge`.
pub struct GeIds<'a> {
    /// `upper[c][j - 2]`: `ge(c, j)` implies one of the values `j..`.
    pub upper: &'a [Vec<usize>],
    /// `lower[c][j - 2][v - j]`: value `v` implies `ge(c, j)`.
    pub lower: &'a [Vec<Vec<usize>>],
}

/// `val(c) = 1 + sum_j ge(c, j)`, both ways, for the key's cells, with
/// values read at each of its digits' depths `d` (thresholds `j` in `2..=d+1`).
pub struct ValueOverGe {
    /// `below[(c, d)]`: `sum_j ge(c,j) <= sum_v (min(v, d+1)-1) x_v`.
    below: BTreeMap<(usize, usize), usize>,
    /// `above[(c, d)]`: the converse.
    above: BTreeMap<(usize, usize), usize>,
}

/// Derives `ValueOverGe` for every cell of `key`.
pub fn value_over_ge<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    key: &Key,
    level: u8,
    ids: &StatementIds,
    ge: &GeIds,
) -> io::Result<ValueOverGe> {
    let k = level as usize;
    let deepest = key.deepest();
    let mut values = ValueOverGe { below: BTreeMap::new(), above: BTreeMap::new() };
    for (position, &c) in key.cells.iter().enumerate() {
        for (_, depth) in key.readings(position) {
            let ids_up: Vec<String> = ge.upper[c][..depth].iter().map(|id| id.to_string()).collect();
            values.below.insert((c, depth), proof.step(&rpn_sum(&ids_up))?);
        }
        let mut per_threshold = Vec::new();
        for j in 2..=deepest + 1 {
            // ge(c, j) >= sum_{v >= j} x_v: its m clauses "x_v -> ge(c, j)"
            // summed, "at most one value" and the literal axioms of the
            // values below j (m - 1 times each), divided by m.
            let m = k + 2 - j;
            let mut parts: Vec<String> = ge.lower[c][j - 2].iter().map(|id| id.to_string()).collect();
            if m > 1 {
                parts.push(format!("{} {} *", ids.at_most_one[c], m - 1));
                parts.extend((1..j).map(|v| format!("{} {} *", value_name(k, c, v), m - 1)));
            }
            let mut text = rpn_sum(&parts);
            if m > 1 {
                text = format!("{} {m} d;", text.trim_end_matches(';'));
            }
            per_threshold.push(proof.step(&text)?.to_string());
        }
        for (_, depth) in key.readings(position) {
            values.above.insert((c, depth), proof.step(&rpn_sum(&per_threshold[..depth]))?);
        }
    }
    Ok(values)
}

/// The dominance constraint `lex` rewritten over `ge`: its statement
/// variables cancel against `values` and "exactly one value".
pub fn rewrite_over_ge<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    key: &Key,
    values: &ValueOverGe,
    ids: &StatementIds,
    lex: &mut Lex,
) -> io::Result<()> {
    let mut parts = vec![lex.dominance.to_string()];
    for &(i, x, y) in &lex.pairs {
        for (t, depth) in key.readings(i) {
            let w = key.weight(t);
            for id in [values.above[&(y, depth)], values.below[&(x, depth)], ids.at_most_one[y], ids.at_most_one[x] - 1]
            {
                parts.push(format!("{id} {w} *"));
            }
        }
    }
    lex.over_ge = proof.step(&rpn_sum(&parts))?;
    Ok(())
}

/// Rewrites each ring-1 dominance constraint over `ge` and defines the
/// CNF's "equal so far" variables.
pub fn define_chains<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    hex: &Hexagon,
    level: u8,
    encoding: &LevelEncoding,
    ids: &StatementIds,
    ge: &GeIds,
    chains: &mut [Chain],
) -> io::Result<()> {
    let key = Key::ring1(hex, level);
    proof.line("% val(c) = 1 + sum_j ge(c, j) on the centre's neighbours, both ways")?;
    let values = value_over_ge(proof, &key, level, ids, ge)?;
    proof.line("% each lex constraint over ge; the CNF's equal-so-far variables")?;
    for chain in chains.iter_mut() {
        rewrite_over_ge(proof, &key, &values, ids, &mut chain.lex)?;
        define_equal(proof, &key, encoding, chain)?;
    }
    Ok(())
}

/// Defines a chain's "equal so far" variables over `ge`: `e_l` implies
/// that the key's first moved digits, up to the `l`-th, weighted, are not
/// below their images (witness `e_l -> 0`).
pub fn define_equal<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    key: &Key,
    encoding: &LevelEncoding,
    chain: &mut Chain,
) -> io::Result<()> {
    let ge_name = |c: usize, j: usize| cnf_literal(encoding.ge_var(c, j));
    let mut prefix = BTreeMap::new();
    let mut slack = 0;
    for (&e, &(t, x, y, d)) in chain.equal.iter().zip(&chain.digits) {
        let w = key.weight(t);
        for j in 2..=d + 1 {
            *prefix.entry(ge_name(x, j)).or_insert(0) += w;
            *prefix.entry(ge_name(y, j)).or_insert(0) -= w;
        }
        slack += w * d as i128;
        let e = cnf_literal(e);
        chain.definitions.push(proof.step(&format!("red {}{slack:+} ~{e} >= 0 : {e} -> 0;", terms(&prefix)))?);
    }
    Ok(())
}

/// For the comparison clauses at each position: the rewritten constraint
/// plus the definition of the previous "equal so far" variable.
pub fn comparison_helpers<W: Write + ?Sized>(proof: &mut Proof<W>, chains: &[Chain]) -> io::Result<()> {
    for chain in chains {
        for &definition in &chain.definitions {
            proof.step(&rpn_sum(&[chain.lex.over_ge.to_string(), definition.to_string()]))?;
        }
    }
    Ok(())
}

/// The CNF's "equal so far" variables (they are forced by redundance).
pub fn equal_vars(chains: &[Chain]) -> impl Iterator<Item = i32> + '_ {
    chains.iter().flat_map(|c| c.equal.iter().copied())
}

/// `pol a b + c + ...;` over RPN operands (ids, or `id f *` products).
fn rpn_sum(parts: &[String]) -> String {
    let mut text = String::from("pol");
    for (i, part) in parts.iter().enumerate() {
        text.push(' ');
        text.push_str(part);
        if i > 0 {
            text.push_str(" +");
        }
    }
    text.push(';');
    text
}
