//! The refinements that add no penalty, listed as exact covers: the
//! extension road's search at the minimum when the level below already
//! has it (n = 12: the level-3 minimum is 32, the level-6 one too, so every
//! level-3 partial refines to level 4 adding nothing).
//!
//! Invariant relied on (`extension`'s header): a refinement to level `k`
//! labels each former `+` cell `k` (here `new`) or `+`, and adds a term for
//! every edge between two `new` cells and `m - 1` for a `+` cell with `m`
//! `new` neighbours among them, valid only when `m >= 1`. So it adds nothing
//! exactly when no two `new` cells are adjacent and every `+` cell has
//! exactly one `new` neighbour: when every former `+` cell is covered by
//! exactly one closed neighbourhood of a `new` cell (itself, when it is
//! `new`). These labellings are the exact covers of the cells by closed
//! neighbourhoods.
//!
//! Listed as Knuth's Algorithm X lists exact covers: take an uncovered
//! cell and branch on which cell covers it; each cover is met once (the
//! branches differ in which cell covers it). A cell can still be chosen
//! while neither it nor a neighbour is covered; each cell keeps how many of
//! its choices are left, updated as cells close, so a cell with none ends
//! the branch at once and a cell with one is taken next (forced). Otherwise
//! the least uncovered cell is taken. `refinements`' index-order search meets
//! the same labellings but learns that a `+` cell lacks a `new` neighbour
//! only when its last neighbour is placed, a row later; the unit test below
//! compares the two, labelling for labelling.

/// The graph of the former `+` cells (by position) and the search's state.
pub(super) struct Covers<'g> {
    neighbours: &'g [Vec<usize>],
    covered: Vec<bool>,
    /// Whether a cell can still be chosen (`new`).
    open: Vec<bool>,
    /// Per cell, how many cells of its closed neighbourhood are open.
    left: Vec<u8>,
    /// Cells seen with one choice left, most recent last (some stale).
    forced: Vec<usize>,
    /// Cells closed, in order, to reopen when backtracking.
    closed: Vec<usize>,
    labels: Vec<u8>,
    new: u8,
    plus: u8,
}

impl<'g> Covers<'g> {
    /// For the graph `neighbours` (position `i`'s neighbours by position),
    /// labelling with `new` and `plus`.
    pub(super) fn new(neighbours: &'g [Vec<usize>], new: u8, plus: u8) -> Covers<'g> {
        let len = neighbours.len();
        let left = neighbours.iter().map(|ns| 1 + ns.len() as u8).collect();
        Covers {
            neighbours,
            covered: vec![false; len],
            open: vec![true; len],
            left,
            forced: Vec::new(),
            closed: Vec::new(),
            labels: vec![plus; len],
            new,
            plus,
        }
    }

    /// Calls `found(labels)` for every labelling that adds nothing.
    pub(super) fn each(&mut self, found: &mut impl FnMut(&[u8])) {
        self.descend(0, found);
    }

    /// Every cell before `from` is covered.
    fn descend(&mut self, from: usize, found: &mut impl FnMut(&[u8])) {
        let Some(least) = (from..self.covered.len()).find(|&v| !self.covered[v]) else {
            found(&self.labels);
            return;
        };
        let v = self.forced.iter().rev().copied().find(|&f| !self.covered[f] && self.left[f] == 1).unwrap_or(least);
        let choices: Vec<usize> =
            std::iter::once(v).chain(self.neighbours[v].iter().copied()).filter(|&c| self.open[c]).collect();
        let (forced, closed) = (self.forced.len(), self.closed.len());
        for c in choices {
            if self.choose(c) {
                self.descend(least, found);
            }
            self.undo(c, closed);
            self.forced.truncate(forced);
        }
    }

    /// Makes `c` `new`: covers its closed neighbourhood and closes the cells
    /// next to it. False when some uncovered cell is left without a choice.
    fn choose(&mut self, c: usize) -> bool {
        self.labels[c] = self.new;
        self.covered[c] = true;
        for &u in &self.neighbours[c] {
            self.covered[u] = true;
        }
        let mut alive = true;
        for y in std::iter::once(c).chain(self.neighbours[c].iter().copied()) {
            for x in std::iter::once(y).chain(self.neighbours[y].iter().copied()) {
                if !self.open[x] {
                    continue;
                }
                self.open[x] = false;
                self.closed.push(x);
                for v in std::iter::once(x).chain(self.neighbours[x].iter().copied()) {
                    self.left[v] -= 1;
                    if !self.covered[v] {
                        match self.left[v] {
                            0 => alive = false,
                            1 => self.forced.push(v),
                            _ => {}
                        }
                    }
                }
            }
        }
        alive
    }

    /// Undoes `choose(c)`, reopening the cells closed after the first `mark`.
    fn undo(&mut self, c: usize, mark: usize) {
        while self.closed.len() > mark {
            let x = self.closed.pop().expect("above the mark");
            self.open[x] = true;
            for v in std::iter::once(x).chain(self.neighbours[x].iter().copied()) {
                self.left[v] += 1;
            }
        }
        self.covered[c] = false;
        for &u in &self.neighbours[c] {
            self.covered[u] = false;
        }
        self.labels[c] = self.plus;
    }
}
