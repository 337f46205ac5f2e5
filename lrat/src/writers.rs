//! Writers of LRAT steps, text and binary, in the exact syntax `format::Reader`
//! reads, so a solver's proof stream can be saved and checked later.
//!
//! Invariant: every step written here reads back as the same step, for ids
//! below 2^62 (text ids are read as i64; binary ids are coded as 2*id) and
//! hints other than i64::MIN; the round-trip proptest holds the two in step.

fn push_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn push_signed_varint(out: &mut Vec<u8>, value: i64) {
    push_varint(out, (value.unsigned_abs() << 1) | (value < 0) as u64);
}

/// Appends a binary addition step.
pub fn write_binary_add(out: &mut Vec<u8>, id: u64, lits: &[i32], hints: &[i64]) {
    out.push(b'a');
    push_varint(out, id << 1);
    for &lit in lits {
        push_signed_varint(out, lit as i64);
    }
    out.push(0);
    for &hint in hints {
        push_signed_varint(out, hint);
    }
    out.push(0);
}

/// Appends a binary deletion step.
pub fn write_binary_delete(out: &mut Vec<u8>, ids: &[u64]) {
    out.push(b'd');
    for &id in ids {
        push_varint(out, id << 1);
    }
    out.push(0);
}

/// Appends `magnitude` in decimal, after a '-' if `negative`, then a space.
fn push_decimal(out: &mut Vec<u8>, negative: bool, magnitude: u64) {
    if negative {
        out.push(b'-');
    }
    let mut digits = [0u8; 20];
    let mut rest = magnitude;
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
    out.push(b' ');
}

fn push_signed_decimal(out: &mut Vec<u8>, value: i64) {
    push_decimal(out, value < 0, value.unsigned_abs());
}

/// Appends a text addition line.
pub fn write_text_add(out: &mut Vec<u8>, id: u64, lits: &[i32], hints: &[i64]) {
    push_decimal(out, false, id);
    for &lit in lits {
        push_signed_decimal(out, lit as i64);
    }
    out.extend_from_slice(b"0 ");
    for &hint in hints {
        push_signed_decimal(out, hint);
    }
    out.extend_from_slice(b"0\n");
}

/// Appends a text deletion line. `id` is the line's leading number, which
/// readers ignore; CaDiCaL writes the latest clause id there.
pub fn write_text_delete(out: &mut Vec<u8>, id: u64, ids: &[u64]) {
    push_decimal(out, false, id);
    out.extend_from_slice(b"d ");
    for &deleted in ids {
        push_decimal(out, false, deleted);
    }
    out.extend_from_slice(b"0\n");
}
