//! Counters for the dynamic programs: exact, or loudly failing.
//!
//! Invariant relied on: a `Tally` never wraps. The fast `u128` tally reports
//! `Overflow` instead of wrapping, and the caller then reruns the same
//! computation with `BigUint`, which cannot overflow. So every count that
//! leaves this module is exact. A count written to a scratch file and read
//! back is the same count: the encodings below are lossless.

use std::io::{self, Read, Write};

use num_bigint::BigUint;

/// A count that would not fit the fast counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

/// An exact, non-negative counter.
pub trait Tally: Clone + Send + Sync {
    fn zero() -> Self;
    fn one() -> Self;
    fn is_zero(&self) -> bool;
    /// `self += other`, or `Overflow` if the result is not representable.
    fn try_add(&mut self, other: &Self) -> Result<(), Overflow>;
    /// Heap bytes held beyond the value itself, for the sweep's memory budget.
    fn heap_bytes(&self) -> usize;
    /// Writes the count to a scratch file.
    fn write_to(&self, out: &mut impl Write) -> io::Result<()>;
    /// Reads back a count written by `write_to`.
    fn read_from(input: &mut impl Read) -> io::Result<Self>;
}

impl Tally for u128 {
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
    fn is_zero(&self) -> bool {
        *self == 0
    }
    fn try_add(&mut self, other: &Self) -> Result<(), Overflow> {
        *self = self.checked_add(*other).ok_or(Overflow)?;
        Ok(())
    }
    fn heap_bytes(&self) -> usize {
        0
    }
    fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(&self.to_le_bytes())
    }
    fn read_from(input: &mut impl Read) -> io::Result<Self> {
        let mut bytes = [0u8; 16];
        input.read_exact(&mut bytes)?;
        Ok(u128::from_le_bytes(bytes))
    }
}

/// Whether any is counted: the flags the lift replays between its kept
/// layers to draw one counted member back (`extension::lift`), a byte a
/// state instead of a count's width.
impl Tally for bool {
    fn zero() -> Self {
        false
    }
    fn one() -> Self {
        true
    }
    fn is_zero(&self) -> bool {
        !*self
    }
    fn try_add(&mut self, other: &Self) -> Result<(), Overflow> {
        *self |= *other;
        Ok(())
    }
    fn heap_bytes(&self) -> usize {
        0
    }
    fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(&[u8::from(*self)])
    }
    fn read_from(input: &mut impl Read) -> io::Result<Self> {
        let mut byte = [0u8; 1];
        input.read_exact(&mut byte)?;
        Ok(byte[0] != 0)
    }
}

impl Tally for BigUint {
    fn zero() -> Self {
        BigUint::ZERO
    }
    fn one() -> Self {
        BigUint::from(1u8)
    }
    fn is_zero(&self) -> bool {
        num_traits::Zero::is_zero(self)
    }
    fn try_add(&mut self, other: &Self) -> Result<(), Overflow> {
        *self += other;
        Ok(())
    }
    fn heap_bytes(&self) -> usize {
        self.bits().div_ceil(64) as usize * 8
    }
    fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let bytes = self.to_bytes_le();
        out.write_all(&(bytes.len() as u32).to_le_bytes())?;
        out.write_all(&bytes)
    }
    fn read_from(input: &mut impl Read) -> io::Result<Self> {
        let mut len = [0u8; 4];
        input.read_exact(&mut len)?;
        let mut bytes = vec![0u8; u32::from_le_bytes(len) as usize];
        input.read_exact(&mut bytes)?;
        Ok(BigUint::from_bytes_le(&bytes))
    }
}
