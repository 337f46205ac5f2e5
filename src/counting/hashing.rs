//! A fast hasher for the `u128` keys of the dynamic program (and the shape
//! lists the extension road tallies).
//!
//! Invariant relied on: keys are packed frontier states, not attacker input, so
//! a multiplicative hash (no DoS resistance) is fine; it only needs to spread
//! both halves of the key.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate hasher for integer keys.
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

impl Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(26) ^ x).wrapping_mul(MULTIPLIER);
    }
    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    #[inline]
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
        self.0 ^= self.0 >> 29;
    }
}

pub type KeyMap<V> = HashMap<u128, V, BuildHasherDefault<KeyHasher>>;
