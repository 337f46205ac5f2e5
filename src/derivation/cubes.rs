//! The orbit reduction of a cube plan, derived in VeriPB: from the statement
//! to the plan's split formula T (`cubes::split_formula`: the plain formula,
//! one selector per kept cube implying the cube's literals, and "some
//! selector holds").
//!
//! Three parts, each checked by VeriPB rather than argued:
//! - **Dominance.** The order compares the split cells' projections read
//!   at depths 1, 2, ..., D (the plan's), one after the other, each
//!   lexicographically with cells in index order: the order
//!   `Split::representative` minimises. (Reading at every depth makes the
//!   least member of an orbit read, at each shallower depth, as the least
//!   member of its orbit there, which plain lex at depth D does not: ties
//!   made by coarsening let later cells decide.) For each non-identity symmetry `s`,
//!   `dom` adds "the projection is not above its image under `s`", with `s`
//!   as the witness, while the core is the statement alone (it is invariant
//!   under `s`). Those constraints are then rewritten over the CNF's `ge`
//!   literals (`symmetry::rewrite_over_ge`).
//! - **Tie-break.** A plan with one (`encoding::TieBreak`) extends the
//!   order's key past the split: the same readings, then a tail of further
//!   cells at full values, each digit outweighing all later ones. The
//!   dominance steps are the same with the longer key, so the least member
//!   of an orbit in it is still least in its split readings (it reads as a
//!   kept cube) and, among the images under its projection's stabiliser,
//!   least in the tail. The formula's chains over that key ("equal so far"
//!   variables, as the ring-1 lex-leader's) are then defined and derived
//!   from the rewritten constraints (`over_ge`); the cover's dominated
//!   leaves still close, the split digits outweighing the whole tail.
//! - **Selectors.** `s_i` is defined by redundance as the conjunction of
//!   cube `i`'s literals (the units of its cube formula), both ways.
//! - **Trees.** Where the plan splits a projection further into the leaves
//!   of a decision tree over the formula's variables (`cubes::tree`),
//!   "the projection implies one of its leaves' selectors" is derived leaf
//!   to root by reverse unit propagation, one step per inner node.
//! - **Cover.** A decision tree over the split cells' projected values
//!   (depth D, cells in index order) derives, leaf to root, "this prefix
//!   implies some selector" by reverse unit propagation. A leaf is closed by
//!   a lex constraint (its projection is not its orbit's least), by a
//!   selector's definition (it reads at the cube's depth as a kept cube), or
//!   by the statement (a projection `cubes::local` refutes); the writer
//!   refuses a plan with a leaf none of these closes. The root is the
//!   clause "some selector holds". Every kept cube must be the least member
//!   of its orbit at its depth in this order, which `cubes plan` and `cubes
//!   refine` ensure (a refinement of a least cube that is least among its
//!   stabiliser's images is least among all images: any other symmetry
//!   moves the cube, so the image's shallower readings are already larger).

use std::io::{self, Write};

use super::proof::{cnf_literal, Proof};
use super::symmetry::{self, GeIds, Key, Lex};
use super::StatementIds;
use std::collections::HashMap;

use crate::cubes::{refute, Cube, LocalRefutation, Split};
use crate::encoding::LevelEncoding;
use crate::geometry::Hexagon;
use crate::statement::Statement;

/// Which fact closes a leaf of the cover tree.
enum Closed {
    /// A lex constraint: the projection is not its orbit's least.
    Dominated,
    /// A selector's definition: it reads as a kept cube.
    Cube,
    /// The statement: a local rule refutes it.
    Local(LocalRefutation),
}

/// A plan's split and kept cubes, and the first selector variable (one past
/// the variables of the formula every cube extends).
pub struct SplitTarget<'a> {
    pub split: &'a Split,
    pub cubes: &'a [Cube],
    pub below: usize,
    pub first_selector: i32,
    /// The plan's tie-break, if it has one.
    pub tie_break: Option<TieBreakTarget<'a>>,
}

/// What a plan's tie-break adds to its plain formula: lex-leader chains
/// over `digits` (`encoding::TieBreak::digits`), their "equal so far"
/// variables numbered from `first_equal`, written as `clauses`.
pub struct TieBreakTarget<'a> {
    pub digits: Vec<(usize, u8)>,
    pub first_equal: i32,
    pub clauses: &'a [Vec<i32>],
}

impl SplitTarget<'_> {
    /// The split's readings at depths 1..=D, depth after depth; then the
    /// tie-break's tail, if any, whose digits all weigh less.
    fn key(&self) -> Key {
        match &self.tie_break {
            Some(tie_break) => Key::from_digits("split", &tie_break.digits),
            None => {
                let cells = &self.split.cells;
                let digits: Vec<(usize, u8)> =
                    (1..=self.split.depth).flat_map(|d| cells.iter().map(move |&c| (c, d))).collect();
                Key::from_digits("split", &digits)
            }
        }
    }

    /// How the tree closes the leaf with projection `values` (depth D), if it can.
    fn closes(&self, hex: &Hexagon, values: &[u8]) -> Option<Closed> {
        if self.split.representative(values) != values {
            Some(Closed::Dominated)
        } else if self.cubes.iter().any(|c| Split::coarsen(values, c.depth) == c.values) {
            Some(Closed::Cube)
        } else {
            refute(hex, self.split, self.below, values).map(Closed::Local)
        }
    }
}

/// The dominance steps; they must come first, while the core is the statement.
pub fn dominance<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    hex: &Hexagon,
    statement: &Statement,
    target: &SplitTarget,
) -> io::Result<Vec<Lex>> {
    symmetry::lex_dominance(proof, hex, statement, &target.key())
}

/// The dominance constraints over `ge`, once `ge` is defined; with a
/// tie-break, then its chains as the ring-1 lex-leader's: "equal so far"
/// defined by redundance, the clauses forcing them, and the sums the
/// comparison clauses follow from by reverse unit propagation.
pub fn over_ge<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    (level, encoding): (u8, &LevelEncoding),
    ids: &StatementIds,
    ge: &GeIds,
    target: &SplitTarget,
    mut lexes: Vec<Lex>,
) -> io::Result<()> {
    let key = target.key();
    proof.line("% the split cells' projected values over ge, both ways; each lex constraint over ge")?;
    let values = symmetry::value_over_ge(proof, &key, level, ids, ge)?;
    for lex in lexes.iter_mut() {
        symmetry::rewrite_over_ge(proof, &key, &values, ids, lex)?;
    }
    let Some(tie_break) = &target.tie_break else { return Ok(()) };
    proof.line("% the tie-break's chains: equal-so-far variables, the clauses forcing them, the comparisons' sums")?;
    // A reading "more than d" below the level is ge(c, d + 1) alone: the
    // forcing clauses need it to imply ge(c, 2..=d) by propagation.
    for &c in &key.cells {
        for j in 2..=level as usize {
            proof.step(&format!(
                "rup +1 {} +1 {} >= 1;",
                cnf_literal(-encoding.ge_var(c, j + 1)),
                cnf_literal(encoding.ge_var(c, j))
            ))?;
        }
    }
    let mut chains = symmetry::chains(&key, lexes, tie_break.first_equal);
    for chain in chains.iter_mut() {
        symmetry::define_equal(proof, &key, encoding, chain)?;
    }
    let forced: std::collections::HashSet<i32> = symmetry::equal_vars(&chains).collect();
    super::force_by_redundance(proof, tie_break.clauses, &forced)?;
    symmetry::comparison_helpers(proof, &chains)
}

/// Selector definitions and the cover tree, ending in "some selector holds".
/// Errors (`InvalidInput`): a leaf that neither a lex constraint, a kept cube
/// nor a local rule closes.
pub fn cover<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    hex: &Hexagon,
    encoding: &LevelEncoding,
    ids: &StatementIds,
    target: &SplitTarget,
) -> io::Result<()> {
    let split = target.split;
    let selectors: Vec<String> =
        (0..target.cubes.len()).map(|i| cnf_literal(target.first_selector + i as i32)).collect();
    proof.line("% selector i is the conjunction of kept cube i's literals")?;
    for (cube, s) in target.cubes.iter().zip(&selectors) {
        let lits: Vec<String> = cube.units(encoding, split).into_iter().map(cnf_literal).collect();
        for l in &lits {
            proof.step(&format!("red +1 ~{s} +1 {l} >= 1 : {s} -> 0;"))?;
        }
        let negated: String = lits.iter().map(|l| format!("+1 {} ", super::proof::negate(l))).collect();
        proof.step(&format!("red +1 {s} {negated}>= 1 : {s} -> 1;"))?;
    }
    trees(proof, encoding, target, &selectors)?;
    proof.line("% the cover: every projection of the split cells implies some selector, leaves first")?;
    let some: String = selectors.iter().map(|s| format!("+1 {s} ")).collect();
    let mut tree =
        Tree { hex, encoding, ids, target, some, prefix: Vec::new(), values: Vec::new(), lemmas: HashMap::new() };
    tree.node(proof)
}

/// For each projection the plan splits further by a decision tree: "the
/// projection and a node's path imply one of the node's leaves", for every
/// inner node, children first, each by reverse unit propagation from the
/// two children's (a leaf's is its selector's definition). The root's is
/// what the cover tree then uses where a value cube uses its selector.
fn trees<W: Write + ?Sized>(
    proof: &mut Proof<W>,
    encoding: &LevelEncoding,
    target: &SplitTarget,
    selectors: &[String],
) -> io::Result<()> {
    let mut groups: std::collections::BTreeMap<Cube, Vec<usize>> = std::collections::BTreeMap::new();
    for (i, cube) in target.cubes.iter().enumerate() {
        groups.entry(cube.projection()).or_default().push(i);
    }
    for (projection, members) in groups.iter().filter(|(_, m)| m.len() > 1) {
        proof.line(&format!(
            "% the decision tree below projection {:?} (depth {}), leaves first",
            projection.values, projection.depth
        ))?;
        let negated: String = encoding
            .projection_literals(&target.split.cells, &projection.values, projection.depth)
            .into_iter()
            .map(|l| format!("+1 {} ", cnf_literal(-l)))
            .collect();
        let paths: Vec<&[i32]> = members.iter().map(|&i| target.cubes[i].literals.as_slice()).collect();
        for (path, leaves) in crate::cubes::tree::inner_nodes_leaves_first(&paths) {
            let path: String = path.iter().map(|&l| format!("+1 {} ", cnf_literal(-l))).collect();
            let some: String = leaves.iter().map(|&j| format!("+1 {} ", selectors[members[j]])).collect();
            proof.step(&format!("rup {negated}{path}{some}>= 1;"))?;
        }
    }
    Ok(())
}

struct Tree<'a> {
    hex: &'a Hexagon,
    encoding: &'a LevelEncoding,
    ids: &'a StatementIds,
    target: &'a SplitTarget<'a>,
    /// `+1 s_1 +1 s_2 ...` with a trailing blank.
    some: String,
    /// The negated literals of the projected values so far, as terms.
    prefix: Vec<String>,
    values: Vec<u8>,
    /// Cutting-plane lemmas already derived for local refutations, by what they say.
    lemmas: HashMap<(usize, Vec<u8>), usize>,
}

impl Tree<'_> {
    fn node<W: Write + ?Sized>(&mut self, proof: &mut Proof<W>) -> io::Result<()> {
        let split = self.target.split;
        let position = self.values.len();
        if position == split.cells.len() {
            let closed = self.target.closes(self.hex, &self.values);
            if let Some(Closed::Local(refutation)) = closed {
                self.local_lemmas(proof, refutation)?;
            }
            if closed.is_none() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "projection {:?} of the split cells {:?} is the least of its orbit, reads as no kept cube and no local rule refutes it: the plan's cubes do not cover it as their orbits' least members",
                        self.values, split.cells
                    ),
                ));
            }
        } else {
            let cell = split.cells[position];
            for value in 1..=split.above() {
                let lits = self.projected(cell, value);
                let kept = self.prefix.len();
                self.prefix.extend(lits.iter().map(|&l| format!("+1 {} ", cnf_literal(-l))));
                self.values.push(value);
                self.node(proof)?;
                self.values.pop();
                self.prefix.truncate(kept);
            }
        }
        proof.step(&format!("rup {}{}>= 1;", self.prefix.concat(), self.some))?;
        Ok(())
    }

    /// The `ge` literals that say cell `c` projects to `value` at depth D:
    /// `ge(c, 2..=value)`, and `!ge(c, value + 1)` unless `value` is D + 1.
    fn projected(&self, cell: usize, value: u8) -> Vec<i32> {
        let value = value as usize;
        let mut lits: Vec<i32> = (2..=value).map(|j| self.encoding.ge_var(cell, j)).collect();
        if value <= self.target.split.depth as usize {
            lits.push(-self.encoding.ge_var(cell, value + 1));
        }
        lits
    }

    /// What reverse unit propagation needs beside the statement to see a
    /// local refutation; propagation alone does not count.
    /// - A cell missing values `A` among its split neighbours, more than
    ///   its outside neighbours `U`: the support constraints of `A`, the
    ///   "at most one value" of each cell of `U`, and `|A|` times the cell's
    ///   "at least one value" add up to a constraint that the leaf falsifies.
    /// - Duplicate support at a cell projected above the depth: its
    ///   duplicate constraint for `a` plus `d - 1` times its "at least one
    ///   value" charges the units whatever value above the depth it holds.
    fn local_lemmas<W: Write + ?Sized>(&mut self, proof: &mut Proof<W>, refutation: LocalRefutation) -> io::Result<()> {
        let split = self.target.split;
        let position = |cell: usize| split.cells.binary_search(&cell).ok();
        match refutation {
            LocalRefutation::Unsupported { cell } => {
                let own = self.values[position(cell).expect("a split cell")];
                let needed = (own - 1).min(split.depth);
                let seen =
                    |a: u8| self.hex.neighbours(cell).iter().any(|&u| position(u).is_some_and(|j| self.values[j] == a));
                let missing: Vec<u8> = (1..=needed).filter(|&a| !seen(a)).collect();
                let outside: Vec<usize> =
                    self.hex.neighbours(cell).iter().copied().filter(|&u| position(u).is_none()).collect();
                if !self.lemmas.contains_key(&(cell, missing.clone())) {
                    let mut terms: Vec<(usize, usize)> =
                        missing.iter().map(|&a| (self.ids.support[cell][a as usize - 1], 1)).collect();
                    terms.extend(outside.iter().map(|&u| (self.ids.at_most_one[u], 1)));
                    terms.push((self.ids.at_most_one[cell] - 1, missing.len()));
                    let id = proof.step(&super::proof::weighted_sum(&terms))?;
                    self.lemmas.insert((cell, missing), id);
                }
            }
            LocalRefutation::Penalty { .. } => {
                for (i, &cell) in split.cells.iter().enumerate() {
                    if self.values[i] != split.above() {
                        continue;
                    }
                    let degree = self.hex.neighbours(cell).len();
                    for a in 1..=split.depth {
                        if self.lemmas.contains_key(&(cell, vec![0, a])) {
                            continue;
                        }
                        let terms = [
                            (self.ids.duplicate[cell][a as usize - 1], 1),
                            (self.ids.at_most_one[cell] - 1, degree - 1),
                        ];
                        let id = proof.step(&super::proof::weighted_sum(&terms))?;
                        self.lemmas.insert((cell, vec![0, a]), id);
                    }
                }
            }
        }
        Ok(())
    }
}
