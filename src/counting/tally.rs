//! Counters for the dynamic programs: exact, or loudly failing.
//!
//! Invariant relied on: a `Tally` never wraps. The fast `u128` tally reports
//! `Overflow` instead of wrapping, and the caller then reruns the same
//! computation with `BigUint`, which cannot overflow. So every count that
//! leaves this module is exact.

use num_bigint::BigUint;

/// A count that would not fit the fast counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

/// An exact, non-negative counter.
pub trait Tally: Clone + Send + Sync {
    fn zero() -> Self;
    fn one() -> Self;
    /// `self += other`, or `Overflow` if the result is not representable.
    fn try_add(&mut self, other: &Self) -> Result<(), Overflow>;
}

impl Tally for u128 {
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
    fn try_add(&mut self, other: &Self) -> Result<(), Overflow> {
        *self = self.checked_add(*other).ok_or(Overflow)?;
        Ok(())
    }
}

impl Tally for BigUint {
    fn zero() -> Self {
        BigUint::ZERO
    }
    fn one() -> Self {
        BigUint::from(1u8)
    }
    fn try_add(&mut self, other: &Self) -> Result<(), Overflow> {
        *self += other;
        Ok(())
    }
}
