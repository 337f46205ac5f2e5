//! The exact minimum of the owned penalty over one window, by a frontier
//! dynamic programme.
//!
//! A window is a set `W` of cells that must be valid; its reach `S` is `W`
//! and every neighbour of `W`. `B(W)` is the least sum of `own(c)`
//! (`bound::own`) over `c` in `W`, over all assignments of `1..=k, +` to `S`
//! with every cell of `W` valid (cells of `S` outside `W` are free). Since
//! every owned term is non-negative and a valid partial restricted to `S` is
//! one such assignment, every valid partial has penalty at least the sum of
//! `B` over pairwise disjoint windows.
//!
//! The programme assigns `S` in the window's order. Its state holds, for each
//! assigned cell that still has an unassigned neighbour it shares a counted
//! edge with (one end in `W`), the cell's value and, for a cell of `W`, the
//! set of lower decided values it has seen so far. A second sighting of a
//! value adds 1; an equal decided edge adds 1 when its second end is assigned
//! and its lower-indexed end lies in `W`; a cell of `W` is judged valid when
//! it leaves the frontier. tests/bound.rs checks it against brute force.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::error::HexError;
use crate::geometry::Hexagon;

/// One window: the cells that must be valid, the order its reach is
/// assigned in, and the values some cells are restricted to.
#[derive(Debug, Clone)]
pub struct Window {
    /// `W`: cells that must be valid and whose owned penalty is counted.
    pub inner: Vec<usize>,
    /// Every cell of the reach (`W` and its neighbours), each once.
    pub order: Vec<usize>,
    /// `(cell, allowed)`: bit `v` of `allowed` set when value `v` may stand there.
    pub allowed: Vec<(usize, u16)>,
}

/// The frontier holds at most this many cells' worth of bits.
const KEY_BITS: usize = 128;

/// Multiply-rotate hash of the packed states: they are our own keys, not
/// input, so spreading the bits is all it needs.
#[derive(Default, Clone, Copy)]
struct StateHasher(u64);

impl Hasher for StateHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.write_u64(u64::from(b)));
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(26) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
        self.0 ^= self.0 >> 29;
    }
}

type States = HashMap<u128, u32, BuildHasherDefault<StateHasher>>;

/// What assigning one cell does to the frontier, worked out once.
struct Step {
    in_window: bool,
    /// The new cell's validity is judged: it is in `W` and every neighbour
    /// of it is linked to it in this sweep.
    judged: bool,
    allowed: u16,
    /// Old frontier slots of the cell's assigned neighbours: (slot, the
    /// neighbour is in `W`, the equal edge's lower end is in `W`).
    touching: Vec<(usize, bool, bool)>,
    /// Old slots that leave the frontier now, with whether they are judged.
    leaving: Vec<(usize, bool)>,
    /// The new cell leaves at once (all its neighbours were assigned before).
    leaves_at_once: bool,
    /// The new frontier: each slot taken from an old slot, or the new cell (`None`).
    sources: Vec<Option<usize>>,
}

/// The programme's plan: its steps and the widest frontier.
struct Sweep {
    steps: Vec<Step>,
    width: usize,
}

/// The cells of `S` sharing a counted edge with `cell` (one end in `W`).
fn counted_neighbours(hex: &Hexagon, in_w: &[bool], in_s: &[bool], cell: usize) -> Vec<usize> {
    hex.neighbours(cell).iter().copied().filter(|&u| in_s[u] && (in_w[cell] || in_w[u])).collect()
}

/// The sweep of `window.order`, every counted edge of `W` linked.
fn plan(hex: &Hexagon, window: &Window) -> Result<Sweep, HexError> {
    plan_linked(hex, window, &|_, _| true)
}

/// The sweep of `window.order` seeing only the counted edges `linked` keeps:
/// an unlinked edge pays nothing and its ends are not judged valid, so the
/// sweep's minimum is a relaxation of `B(W)` (at most it).
fn plan_linked(hex: &Hexagon, window: &Window, linked: &dyn Fn(usize, usize) -> bool) -> Result<Sweep, HexError> {
    let cells = hex.cell_count();
    let (mut in_w, mut in_s, mut pos) = (vec![false; cells], vec![false; cells], vec![usize::MAX; cells]);
    window.inner.iter().for_each(|&c| in_w[c] = true);
    for (t, &c) in window.order.iter().enumerate() {
        if pos[c] != usize::MAX {
            return Err(HexError::Internal(format!("window order lists cell {c} twice")));
        }
        pos[c] = t;
        in_s[c] = true;
    }
    let reach_missing =
        window.inner.iter().flat_map(|&c| hex.neighbours(c).iter().copied().chain([c])).find(|&u| !in_s[u]);
    if let Some(u) = reach_missing {
        return Err(HexError::Internal(format!("window order misses cell {u} of the window's reach")));
    }
    let neighbours: Vec<Vec<usize>> = (0..cells)
        .map(|c| counted_neighbours(hex, &in_w, &in_s, c).into_iter().filter(|&u| linked(c, u)).collect())
        .collect();
    let judged: Vec<bool> = (0..cells).map(|c| in_w[c] && hex.neighbours(c).iter().all(|&u| linked(c, u))).collect();
    let last: Vec<usize> = (0..cells).map(|c| neighbours[c].iter().map(|&u| pos[u]).fold(pos[c], usize::max)).collect();
    let mut allowed = vec![u16::MAX; cells];
    window.allowed.iter().for_each(|&(c, a)| allowed[c] &= a);
    let (mut frontier, mut steps, mut width): (Vec<usize>, Vec<Step>, usize) = (Vec::new(), Vec::new(), 0);
    for (t, &x) in window.order.iter().enumerate() {
        let slot = |u: usize| frontier.iter().position(|&f| f == u);
        let touching = neighbours[x]
            .iter()
            .copied()
            .filter(|&u| pos[u] < t)
            .map(|u| (slot(u).expect("an assigned neighbour waits in the frontier"), in_w[u], in_w[u.min(x)]))
            .collect();
        let leaving =
            (0..frontier.len()).filter(|&s| last[frontier[s]] == t).map(|s| (s, judged[frontier[s]])).collect();
        let mut next: Vec<usize> = frontier.iter().copied().filter(|&f| last[f] > t).collect();
        let mut sources: Vec<Option<usize>> = next.iter().map(|&f| slot(f)).collect();
        if last[x] > t {
            next.push(x);
            sources.push(None);
        }
        width = width.max(next.len());
        steps.push(Step {
            in_window: in_w[x],
            judged: judged[x],
            allowed: allowed[x],
            touching,
            leaving,
            leaves_at_once: last[x] == t,
            sources,
        });
        frontier = next;
    }
    Ok(Sweep { steps, width })
}

/// `B(W)` at `level`: the least owned penalty of `W` over its valid
/// assignments, or `None` when the restrictions leave none.
///
/// # Errors
///
/// `HexError::Usage` when the level is outside `1..=6` or the frontier is too
/// wide to pack; `HexError::Internal` when the order is not the window's reach.
pub fn window_bound(hex: &Hexagon, level: u8, window: &Window) -> Result<Option<u32>, HexError> {
    window_bound_within(hex, level, window, u32::MAX)
}

/// `B(W)` when it is at most `cap`, else `None`: states that have paid more
/// than `cap` are dropped as they arise (every term is non-negative, so none
/// of them could end at or below it), which is what makes the wide levels
/// affordable when a lower bound on `B(W)` is known to start the cap from.
///
/// # Errors
///
/// `window_bound`'s.
pub fn window_bound_within(hex: &Hexagon, level: u8, window: &Window, cap: u32) -> Result<Option<u32>, HexError> {
    crate::levels::check_level(level)?;
    let sweep = plan(hex, window)?;
    let floors = if cap == u32::MAX { vec![0; sweep.steps.len() + 1] } else { floors(hex, level, window, cap)? };
    Ok(run(&sweep, level, cap, &floors)?.and_then(|states| states.values().copied().min()))
}

/// The states left after every step of `sweep` (`None` when none is), each
/// dropped as soon as what it paid plus the floor of the steps still to come
/// exceeds `cap`.
fn run(sweep: &Sweep, level: u8, cap: u32, floors: &[u32]) -> Result<Option<States>, HexError> {
    let bits = packed_bits(sweep, level)?;
    let mut states = States::default();
    states.insert(0, 0);
    for (step, &floor) in sweep.steps.iter().zip(&floors[1..]) {
        states = advance(&states, step, level, bits, cap.saturating_sub(floor));
        if states.is_empty() {
            return Ok(None);
        }
    }
    Ok(Some(states))
}

/// For each step `t` of the window's sweep, a floor on what the steps from
/// `t` on pay, whatever came before: the least paid over the cells swept from
/// `t` on alone (every term the sweep pays from `t` on, over an edge with both
/// ends swept there, is among them), swept backwards with the edges across
/// the closing seam unlinked, so that its frontier is one side's, not two.
/// `floors[len]` is 0.
fn floors(hex: &Hexagon, level: u8, window: &Window, cap: u32) -> Result<Vec<u32>, HexError> {
    let len = window.order.len();
    let mut pos = vec![usize::MAX; hex.cell_count()];
    window.order.iter().enumerate().for_each(|(t, &c)| pos[c] = t);
    let backwards = Window { order: window.order.iter().rev().copied().collect(), ..window.clone() };
    let sweep = plan_linked(hex, &backwards, &|c, u| pos[c].abs_diff(pos[u]) <= len / 2)?;
    let bits = packed_bits(&sweep, level)?;
    let mut floors = vec![0; len + 1];
    let mut states = States::default();
    states.insert(0, 0);
    for (i, step) in sweep.steps.iter().enumerate() {
        states = advance(&states, step, level, bits, cap);
        // Nothing at or below the cap: every state is dropped forwards too.
        floors[len - 1 - i] = states.values().copied().min().unwrap_or(u32::MAX);
    }
    Ok(floors)
}

/// The bits one frontier cell takes at `level` (its value and seen set),
/// when the sweep's widest frontier fits the packed key.
fn packed_bits(sweep: &Sweep, level: u8) -> Result<usize, HexError> {
    let bits = 3 + usize::from(level);
    if sweep.width * bits > KEY_BITS {
        return Err(HexError::Usage(format!(
            "a window's frontier of {} cells at level {level} is too wide to pack in {KEY_BITS} bits",
            sweep.width
        )));
    }
    Ok(bits)
}

/// The values (low 3 bits) and seen sets of a packed frontier.
fn unpack(key: u128, len: usize, bits: usize) -> ([u8; 32], [u8; 32]) {
    let (mut value, mut seen) = ([0u8; 32], [0u8; 32]);
    for s in 0..len {
        let field = (key >> (s * bits)) as u16 & ((1 << bits) - 1);
        value[s] = (field & 7) as u8;
        seen[s] = (field >> 3) as u8;
    }
    (value, seen)
}

/// Bit of decided value `a` in a seen set.
fn bit(a: u8) -> u8 {
    1 << (a - 1)
}

/// Valid: a cell of value `v` has seen every value `1..v` (`+` is `level + 1`).
fn satisfied(value: u8, seen: u8) -> bool {
    seen == bit(value) - 1
}

fn advance(states: &States, step: &Step, level: u8, bits: usize, cap: u32) -> States {
    let mut next = States::default();
    let old_len = step.sources.iter().flatten().count() + step.leaving.len();
    for (&key, &cost) in states {
        let (value, seen) = unpack(key, old_len, bits);
        'values: for v in (1..=level + 1).filter(|&v| step.allowed & (1 << v) != 0) {
            let (mut seen, mut own_seen, mut cost) = (seen, 0u8, cost);
            for &(s, their_window, owner_in_window) in &step.touching {
                let w = value[s];
                if w == v && v <= level && owner_in_window {
                    cost += 1;
                }
                if their_window && v < w {
                    cost += u32::from(seen[s] & bit(v) != 0);
                    seen[s] |= bit(v);
                }
                if step.in_window && w < v {
                    cost += u32::from(own_seen & bit(w) != 0);
                    own_seen |= bit(w);
                }
            }
            for &(s, judged) in &step.leaving {
                if judged && !satisfied(value[s], seen[s]) {
                    continue 'values;
                }
            }
            if cost > cap || step.leaves_at_once && step.judged && !satisfied(v, own_seen) {
                continue;
            }
            let mut packed = 0u128;
            for (slot, source) in step.sources.iter().enumerate() {
                let (val, set) = source.map_or((v, own_seen), |s| (value[s], seen[s]));
                packed |= (u128::from(val) | u128::from(set) << 3) << (slot * bits);
            }
            next.entry(packed).and_modify(|c| *c = (*c).min(cost)).or_insert(cost);
        }
    }
    next
}
