//! LEB128 varints: the integers of scratch files and checkpoint tables.
//!
//! Invariant relied on: `put_varint` writes the shortest encoding, so a
//! reader that accepts only shortest encodings (`get_canonical`) reads each
//! file in exactly one way, and what it accepts is written back byte for byte.

use std::io::{Read, Write};

/// Writes `x` as a LEB128 varint: seven bits a byte, low bits first, the
/// high bit set on every byte but the last.
pub fn put_varint(out: &mut impl Write, mut x: u128) -> std::io::Result<()> {
    loop {
        let byte = (x & 0x7f) as u8;
        x >>= 7;
        if x == 0 {
            return out.write_all(&[byte]);
        }
        out.write_all(&[byte | 0x80])?;
    }
}

/// Reads a varint written by `put_varint`.
pub fn get_varint(input: &mut impl Read) -> std::io::Result<u128> {
    get(input, false)
}

/// As `get_varint`, refusing any encoding `put_varint` would not write: a
/// last byte of zero after others (a longer spelling of a smaller number) or
/// bits past the 128th.
pub fn get_canonical(input: &mut impl Read) -> std::io::Result<u128> {
    get(input, true)
}

fn get(input: &mut impl Read, canonical: bool) -> std::io::Result<u128> {
    let invalid = |why| std::io::Error::new(std::io::ErrorKind::InvalidData, why);
    let mut x = 0u128;
    for shift in (0..128).step_by(7) {
        let mut byte = [0u8];
        input.read_exact(&mut byte)?;
        let bits = u128::from(byte[0] & 0x7f);
        if canonical && (bits << shift) >> shift != bits {
            return Err(invalid("varint longer than 128 bits"));
        }
        x |= bits << shift;
        if byte[0] & 0x80 == 0 {
            if canonical && shift > 0 && bits == 0 {
                return Err(invalid("varint not in its shortest form"));
            }
            return Ok(x);
        }
    }
    Err(invalid("varint longer than 128 bits"))
}
