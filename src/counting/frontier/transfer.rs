//! One step of the frontier dynamic program: placing cell `t` with each value.
//!
//! Invariant relied on (the incremental penalty): every penalty term of the
//! level-k penalty is charged exactly once, at the step that places the later
//! end of the edge that completes it:
//! - an edge between two equal decided values is charged when its later end
//!   is placed;
//! - for a cell `v` and a lower value `a`, the term `max(0, m - 1)` (`m` =
//!   neighbours of `v` of value `a`) is charged one unit per edge `v - u`
//!   (`u` of value `a`) that becomes known while `v` already sees `a`. Since
//!   the first such edge only sets the bit, exactly `m - 1` units are charged.
//!
//! So the penalty of a complete assignment is the sum of the step charges, and
//! a partial sum never decreases: pruning a state whose penalty so far (plus a
//! valid lower bound on what is still to come) exceeds the bound is exact.

use crate::counting::frontier::schedule::{code_value, make_code, missing_count, Schedule, STATE_BITS};

/// Frontier codes of a state, unpacked.
pub type Codes = [u8; 32];

/// Unpacks the `len` codes of a state.
#[inline]
pub fn unpack(state: u128, len: usize, bits: u32) -> Codes {
    let mut codes = [0u8; 32];
    let mask = (1u128 << bits) - 1;
    for (s, code) in codes.iter_mut().enumerate().take(len) {
        *code = ((state >> (s as u32 * bits)) & mask) as u8;
    }
    codes
}

/// Packs codes in the order given by `slots`.
#[inline]
fn pack(codes: &Codes, slots: &[usize], bits: u32) -> u128 {
    slots.iter().enumerate().fold(0u128, |acc, (s, &slot)| acc | (u128::from(codes[slot]) << (s as u32 * bits)))
}

/// Splits a key into (frontier state, penalty so far).
#[inline]
pub fn split_key(key: u128) -> (u128, usize) {
    (key & ((1u128 << STATE_BITS) - 1), (key >> STATE_BITS) as usize)
}

/// Joins a frontier state and a penalty into one key.
#[inline]
pub fn join_key(state: u128, penalty: usize) -> u128 {
    state | ((penalty as u128) << STATE_BITS)
}

/// Calls `emit(value, next_state, charge)` for every value of cell `t` that
/// keeps the state alive. `state` is the frontier before step `t`.
#[inline]
pub fn for_each_successor(schedule: &Schedule, t: usize, state: u128, mut emit: impl FnMut(u8, u128, usize)) {
    let step = &schedule.steps[t];
    let bits = schedule.slot_bits;
    let plus = schedule.plus();
    let len = step.staying.len() + step.retiring.len() - 1;
    let before = unpack(state, len, bits);
    'values: for value in 1..=plus {
        let mut codes = before;
        let mut seen = 0u8;
        let mut charge = 0usize;
        for &slot in &step.earlier {
            let other = codes[slot];
            let other_value = code_value(other);
            if other_value == value && value != plus {
                charge += 1;
            }
            if other_value < value {
                charge += see(&mut seen, other_value);
            } else if value < other_value {
                let mut other_seen = other;
                charge += see(&mut other_seen, value);
                codes[slot] = other_seen;
            }
        }
        codes[len] = make_code(value, seen);
        for &slot in &step.retiring {
            let code = codes[slot];
            if code & code.wrapping_add(1) != 0 {
                continue 'values; // leaves the frontier without all its support
            }
        }
        for &slot in step.earlier.iter().chain(std::iter::once(&len)) {
            if missing_count(codes[slot]) > step.unplaced[slot] {
                continue 'values; // too few neighbours left to see what it lacks
            }
        }
        emit(value, pack(&codes, &step.staying, bits), charge);
    }
}

/// Marks value `a` seen in `bits`; returns 1 when it was already seen
/// (a duplicate support), 0 otherwise.
#[inline]
fn see(bits: &mut u8, a: u8) -> usize {
    let bit = 1u8 << (a - 1);
    let dup = usize::from(*bits & bit != 0);
    *bits |= bit;
    dup
}
