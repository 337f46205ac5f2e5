//! Clauses for "a valid level-k partial of the side-n hexagon with level-k
//! penalty at most B".
//!
//! Variables, numbered in this order (the numbering is part of the encoder
//! version):
//! - `ge(c, j)` for every cell `c` and `j` in `2..=k+1`: "value of `c` >= j";
//!   `ge(c, k+1)` means `c` is `+`. Order clauses `ge(c, j+1) -> ge(c, j)`.
//! - `eq(c, a)` for `a` in `2..=k`: "value of `c` == a", defined by full
//!   equivalence with `ge(c, a) & !ge(c, a+1)`; `eq(c, 1)` is the literal
//!   `!ge(c, 2)`.
//! - `pen(e)` for every edge `e`: forced true when the edge is a penalty edge.
//! - auxiliary variables of the cardinality encoding.
//!
//! Invariant relied on by decoding: in every model the `ge(c, .)` form a
//! prefix, so the value of `c` is `1 +` the number of true `ge(c, .)`.
//! Invariant relied on by the bound: every penalty edge of the decoded partial
//! has its `pen` variable forced true, so `penalty <= #true pen <= B`. The
//! converse is not encoded (`pen` may be true spuriously); the cardinality
//! constraint makes that harmless for "penalty <= B".

use super::cardinality::Cardinality;
use super::symmetry::{add_lex_chains, ring1_cells, SymmetryBreaking, ValueLiterals};
use crate::formula::Cnf;
use crate::geometry::Hexagon;
use crate::levels::Partial;

/// What to encode besides the hexagon and the level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Upper bound on the level-k penalty; `None` leaves it free.
    pub max_penalty: Option<usize>,
    pub cardinality: Cardinality,
    /// Only constraints that keep a member of every symmetry class.
    pub symmetry: SymmetryBreaking,
}

impl EncodeOptions {
    /// Bound `max_penalty`, default cardinality encoding, no symmetry breaking.
    pub fn bounded(max_penalty: Option<usize>) -> EncodeOptions {
        EncodeOptions { max_penalty, cardinality: Cardinality::default(), symmetry: SymmetryBreaking::None }
    }
}

/// Which edge a duplicate support is charged to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Charging {
    /// The edges to all but the highest-indexed neighbour (as the validator).
    LowestIndex,
    /// Any `m - 1` of the `m` edges, as the solver chooses.
    EitherEdge,
}

/// A built formula together with the variable map needed to decode models.
#[derive(Debug, Clone)]
pub struct LevelEncoding {
    n: usize,
    level: u8,
    pub options: EncodeOptions,
    pub cnf: Cnf,
    /// `ge[c][j - 2]` is `ge(c, j)`.
    ge: Vec<Vec<i32>>,
    /// `eq[c][a - 1]` is the literal for "value of c == a", `a` in `1..=k`.
    eq: Vec<Vec<i32>>,
    /// `penalty[e]` for each edge index `e`.
    penalty: Vec<i32>,
    /// The sequential counter over `penalty`, when the bound is encoded by one.
    counter: Option<Counter>,
    /// The cardinality encoding's inputs: `penalty` in its order.
    counter_inputs: Vec<i32>,
}

/// Where the sequential counter's variables lie: `count(i, j)`, "at least
/// `j + 1` of the first `i + 1` penalty variables are true", is variable
/// `first + i * bound + j` for `i` in `0..inputs - 1` and `j` in `0..bound`
/// (the order `cardinality::sequential_counter` allocates them in). Only the
/// forcing direction is encoded: a true count may be spurious.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counter {
    pub first: i32,
    pub inputs: usize,
    pub bound: usize,
}

impl Counter {
    /// `count(i, j)`, if the counter has it.
    pub fn count(&self, i: usize, j: usize) -> Option<i32> {
        (i + 1 < self.inputs && j < self.bound).then(|| self.first + (i * self.bound + j) as i32)
    }
}

impl LevelEncoding {
    /// Builds the formula. Deterministic: same arguments, same clauses in the same order.
    pub fn new(hex: &Hexagon, level: u8, options: EncodeOptions) -> LevelEncoding {
        LevelEncoding::charged(hex, level, options, Charging::LowestIndex)
    }

    /// `new`, with duplicate support charged as `charging` says. Only the
    /// grid search's restricted formula (`restricted`) asks for anything but
    /// the lowest index, which every claim is stated with.
    pub(super) fn charged(hex: &Hexagon, level: u8, options: EncodeOptions, charging: Charging) -> LevelEncoding {
        let k = level as usize;
        let mut cnf = Cnf::new();
        let cells = hex.cell_count();
        let ge: Vec<Vec<i32>> = (0..cells).map(|_| (0..k).map(|_| cnf.new_var()).collect()).collect();
        let eq: Vec<Vec<i32>> =
            (0..cells).map(|c| std::iter::once(-ge[c][0]).chain((2..=k).map(|_| cnf.new_var())).collect()).collect();
        let penalty: Vec<i32> = hex.edges().iter().map(|_| cnf.new_var()).collect();
        let mut enc = LevelEncoding {
            n: hex.side(),
            level,
            options,
            cnf,
            ge,
            eq,
            penalty,
            counter: None,
            counter_inputs: Vec::new(),
        };
        enc.describe();
        enc.value_clauses(hex);
        enc.support_clauses(hex);
        enc.equal_value_penalties(hex);
        enc.duplicate_support_penalties(hex, charging);
        if options.symmetry == SymmetryBreaking::Ring1LexLeader {
            enc.symmetry_clauses(hex);
        }
        if let Some(bound) = options.max_penalty {
            let pen = options.cardinality.inputs(hex, &enc.penalty);
            let first = enc.cnf.num_vars() as i32 + 1;
            options.cardinality.encode_at_most(&pen, bound, &mut enc.cnf);
            if options.cardinality.is_counter() && (1..pen.len()).contains(&bound) {
                enc.counter = Some(Counter { first, inputs: pen.len(), bound });
            }
            enc.counter_inputs = pen;
        }
        enc
    }

    fn symmetry_clauses(&mut self, hex: &Hexagon) {
        if hex.side() >= 2 {
            let digits: Vec<(usize, u8)> = ring1_cells(hex).into_iter().map(|c| (c, self.level)).collect();
            self.add_lex_chains(hex, &digits);
        }
    }

    /// Appends the lex-leader clauses of the key `digits` (cells read at
    /// depths) for every non-identity symmetry (`symmetry::add_lex_chains`),
    /// their "equal so far" variables numbered after the formula's: the
    /// ring-1 lex-leader, and a cube plan's tie-break after its plain formula.
    pub fn add_lex_chains(&mut self, hex: &Hexagon, digits: &[(usize, u8)]) {
        let k = self.level as usize;
        let (ge, eq) = (self.ge.clone(), self.eq.clone());
        let ge_lit = move |c: usize, j: usize| ge[c][j - 2];
        let eq_lit = {
            let ge_lit = ge_lit.clone();
            move |c: usize, a: usize| if a == k + 1 { ge_lit(c, k + 1) } else { eq[c][a - 1] }
        };
        let lits = ValueLiterals { level: self.level, ge: &ge_lit, eq: &eq_lit };
        add_lex_chains(hex, digits, &lits, &mut self.cnf);
    }

    fn describe(&mut self) {
        let bound = self.options.max_penalty.map_or("none".to_string(), |b| b.to_string());
        let line = format!(
            "{} n={} level={} max-penalty={bound} cardinality={} symmetry={}",
            super::ENCODER_VERSION,
            self.n,
            self.level,
            self.options.cardinality.name(),
            self.options.symmetry.name()
        );
        self.cnf.add_comment(line);
    }

    /// `ge(c, j+1) -> ge(c, j)`; `eq` definitions; values above `degree + 1`
    /// are impossible (a cell of value v needs v-1 distinct neighbours), which
    /// we state as units: implied by the support clauses, so sound.
    fn value_clauses(&mut self, hex: &Hexagon) {
        let k = self.level as usize;
        for c in 0..hex.cell_count() {
            for j in 1..k {
                self.cnf.add_clause(&[-self.ge[c][j], self.ge[c][j - 1]]);
            }
            for a in 2..=k {
                let (eq, at_least, above) = (self.eq[c][a - 1], self.ge[c][a - 2], self.ge_lit(c, a + 1));
                self.cnf.add_clause(&[-eq, at_least]);
                self.cnf.add_clause(&[-eq, -above]);
                self.cnf.add_clause(&[-at_least, above, eq]);
            }
            let max_value = hex.neighbours(c).len() + 1;
            if max_value < k + 1 {
                self.cnf.add_clause(&[-self.ge[c][max_value - 1]]);
            }
        }
    }

    /// `ge(c, j)` for `j` in `2..=k+1`.
    fn ge_lit(&self, c: usize, j: usize) -> i32 {
        self.ge[c][j - 2]
    }

    /// A cell above `a` (a decided value or `+`) sees a neighbour of value `a`.
    fn support_clauses(&mut self, hex: &Hexagon) {
        let k = self.level as usize;
        for c in 0..hex.cell_count() {
            for a in 1..=k {
                let mut clause = vec![-self.ge_lit(c, a + 1)];
                clause.extend(hex.neighbours(c).iter().map(|&u| self.eq[u][a - 1]));
                self.cnf.add_clause(&clause);
            }
        }
    }

    /// Both ends decided and equal: penalty. (`+`/`+` edges are not charged.)
    fn equal_value_penalties(&mut self, hex: &Hexagon) {
        let k = self.level as usize;
        for (e, &(u, v)) in hex.edges().iter().enumerate() {
            for a in 1..=k {
                self.cnf.add_clause(&[-self.eq[u][a - 1], -self.eq[v][a - 1], self.penalty[e]]);
            }
        }
    }

    /// A cell above `a` with two neighbours `x < y` of value `a`: the edge to
    /// `x` is a penalty. By induction over pairs, with `m` such neighbours all
    /// but the highest-indexed are charged: exactly the `m - 1` the
    /// validator charges. With `Charging::EitherEdge` the clause charges `x`
    /// or `y`: a vertex cover of the `m`-clique, so again at least `m - 1`
    /// true, and the solver picks which (the band of the grid search wants
    /// the charge on the outer edge).
    fn duplicate_support_penalties(&mut self, hex: &Hexagon, charging: Charging) {
        let k = self.level as usize;
        for c in 0..hex.cell_count() {
            let (ns, es) = (hex.neighbours(c), hex.incident_edges(c));
            for a in 1..=k {
                for x in 0..ns.len() {
                    for y in x + 1..ns.len() {
                        let mut clause = vec![
                            -self.ge_lit(c, a + 1),
                            -self.eq[ns[x]][a - 1],
                            -self.eq[ns[y]][a - 1],
                            self.penalty[es[x]],
                        ];
                        if charging == Charging::EitherEdge {
                            clause.push(self.penalty[es[y]]);
                        }
                        self.cnf.add_clause(&clause);
                    }
                }
            }
        }
    }

    /// The partial a model describes. `model[v]` is the value of variable `v`
    /// (index 0 unused).
    pub fn decode(&self, model: &[bool]) -> Partial {
        let values =
            self.ge.iter().map(|vars| 1 + vars.iter().take_while(|&&v| model[v as usize]).count() as u8).collect();
        Partial::new(self.n, self.level, values).expect("decoded values lie in 1..=k+1")
    }

    /// The variable `ge(c, j)`, "value of `c` >= j", for `j` in `2..=k+1`
    /// (for proofs that name the formula's variables).
    pub fn ge_var(&self, c: usize, j: usize) -> i32 {
        self.ge_lit(c, j)
    }

    /// The level the formula is of.
    pub fn level(&self) -> u8 {
        self.level
    }

    /// Every `ge` variable: the cells' values, all a blocking clause of a
    /// listing names (a listing freezes them: `listing::refute`).
    pub fn value_variables(&self) -> impl Iterator<Item = i32> + '_ {
        self.ge.iter().flatten().copied()
    }

    /// The literal "value of `c` == a", for `a` in `1..=k` (`a = 1` is `!ge(c, 2)`).
    pub fn eq_literal(&self, c: usize, a: usize) -> i32 {
        self.eq[c][a - 1]
    }

    /// The sequential counter of the penalty bound, if the bound is encoded by one.
    pub fn counter(&self) -> Option<Counter> {
        self.counter
    }

    /// The penalty variables, by edge index.
    pub fn penalty_vars(&self) -> &[i32] {
        &self.penalty
    }

    /// The penalty variables in the order the cardinality encoding takes
    /// them (empty when the penalty is unbounded).
    pub fn counter_inputs(&self) -> &[i32] {
        &self.counter_inputs
    }

    /// Number of penalty variables a model sets true (at least the decoded penalty).
    pub fn penalty_in_model(&self, model: &[bool]) -> usize {
        self.penalty.iter().filter(|&&v| model[v as usize]).count()
    }

    /// Literals that fix the cells to the values of `partial` (for blocking
    /// clauses and for cubes): one `ge` literal per cell and threshold.
    /// A partial of this level has no cell above its `+`, so refining it
    /// fixes every `ge` literal.
    pub fn cell_literals(&self, partial: &Partial) -> Vec<i32> {
        debug_assert_eq!(partial.level(), self.level);
        self.refinement_literals(partial)
    }

    /// Units that make every model refine `lower` (a partial of a lower
    /// level): its decided values are fixed, its `+` cells stay above its
    /// level and are otherwise free.
    pub fn refinement_literals(&self, lower: &Partial) -> Vec<i32> {
        let mut lits = Vec::new();
        for (c, &value) in lower.values().iter().enumerate() {
            self.push_projected(c, value, lower.plus(), &mut lits);
        }
        lits
    }

    /// Units that fix `cells` to projected values (a cube): a value up to
    /// `depth` is decided, `depth + 1` means "more than `depth`".
    pub fn projection_literals(&self, cells: &[usize], values: &[u8], depth: u8) -> Vec<i32> {
        let mut lits = Vec::new();
        for (&c, &value) in cells.iter().zip(values) {
            self.push_projected(c, value, depth + 1, &mut lits);
        }
        lits
    }

    /// The `ge` literals of cell `c` implied by "value is `value`" when
    /// `above` stands for every value from `above` up.
    fn push_projected(&self, c: usize, value: u8, above: u8, lits: &mut Vec<i32>) {
        for (i, &var) in self.ge[c].iter().enumerate() {
            let threshold = i + 2;
            if threshold <= value as usize {
                lits.push(var);
            } else if value < above {
                lits.push(-var);
            }
        }
    }

    /// Phase hints that steer the solver towards `partial` (any level; values
    /// above this level read as `+`) and towards zero penalty.
    pub fn hint_literals(&self, partial: &Partial) -> Vec<i32> {
        let plus = self.level + 1;
        let values: Vec<u8> = partial.values().iter().map(|&v| v.min(plus)).collect();
        let lifted = Partial::new(self.n, self.level, values).expect("values capped at the level");
        let mut lits = self.cell_literals(&lifted);
        lits.extend(self.penalty.iter().map(|&p| -p));
        lits
    }
}
