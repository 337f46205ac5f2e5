//! LRAT proof files, text and binary: the streaming `Reader` and the writers.
//!
//! Text: `id lit* 0 hint* 0` per addition line, `id d id* 0` per deletion
//! line (that leading id is ignored); a step must end on its own line.
//! Binary: `a` id lit* 0 hint* 0, or `d` id* 0, each number a little-endian
//! base-128 varint of 2*|x| + (x < 0).
//! Invariant: the format is fixed by the first non-whitespace byte ('a' or
//! 'd' means binary: a text step always starts with a digit), and the reader
//! numbers steps 1, 2, ... in file order, so its errors and the checker's
//! name the same step.

use std::io::Read;

use crate::error::{CheckError, Position};

/// One proof step, owning its numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Add { id: u64, lits: Vec<i32>, hints: Vec<i64> },
    Delete { ids: Vec<u64> },
}

/// A reusable step buffer, so reading a long proof allocates nothing per
/// step: `delete` tells which fields hold the step.
#[derive(Debug, Clone, Default)]
pub struct StepBuf {
    pub delete: bool,
    /// The added clause's id (additions only).
    pub id: u64,
    pub lits: Vec<i32>,
    pub hints: Vec<i64>,
    /// The deleted ids (deletions only).
    pub ids: Vec<u64>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Undecided,
    Text,
    Binary,
}

const BUFFER: usize = 1 << 16;

/// Streams steps out of a text or binary LRAT proof.
pub struct Reader<R: Read> {
    input: R,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    /// File offset of `buf[0]`.
    base: u64,
    line: u64,
    steps: u64,
    mode: Mode,
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t' || b == b'\r'
}

impl<R: Read> Reader<R> {
    pub fn new(input: R) -> Self {
        Reader {
            input,
            buf: vec![0; BUFFER].into_boxed_slice(),
            pos: 0,
            end: 0,
            base: 0,
            line: 1,
            steps: 0,
            mode: Mode::Undecided,
        }
    }

    /// Steps read so far.
    pub fn steps_read(&self) -> u64 {
        self.steps
    }

    /// Whether the proof is binary; None until the first step is read.
    pub fn is_binary(&self) -> Option<bool> {
        match self.mode {
            Mode::Undecided => None,
            mode => Some(mode == Mode::Binary),
        }
    }

    /// The next step, allocating its vectors; `read_step` reuses a buffer.
    pub fn next_step(&mut self) -> Result<Option<Step>, CheckError> {
        let mut buf = StepBuf::default();
        Ok(self.read_step(&mut buf)?.then(|| {
            if buf.delete {
                Step::Delete { ids: buf.ids }
            } else {
                Step::Add { id: buf.id, lits: buf.lits, hints: buf.hints }
            }
        }))
    }

    /// Reads the next step into `step`; false at the end of the proof.
    pub fn read_step(&mut self, step: &mut StepBuf) -> Result<bool, CheckError> {
        if self.mode == Mode::Undecided {
            self.mode = match self.skip_whitespace()? {
                Some(b'a' | b'd') => Mode::Binary,
                _ => Mode::Text,
            };
        }
        let more = match self.mode {
            Mode::Binary => self.binary_step(step)?,
            _ => self.text_step(step)?,
        };
        self.steps += more as u64;
        Ok(more)
    }

    /// The next byte without consuming it; None at the end of the input.
    #[inline]
    fn peek(&mut self) -> Result<Option<u8>, CheckError> {
        if self.pos == self.end && !self.refill()? {
            return Ok(None);
        }
        Ok(Some(self.buf[self.pos]))
    }

    #[cold]
    fn refill(&mut self) -> Result<bool, CheckError> {
        self.base += self.end as u64;
        self.pos = 0;
        self.end = 0;
        loop {
            match self.input.read(&mut self.buf) {
                Ok(n) => {
                    self.end = n;
                    return Ok(n > 0);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(source) => return Err(CheckError::Io { step: self.steps + 1, source }),
            }
        }
    }

    fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    fn position(&self) -> Position {
        match self.mode {
            Mode::Binary => Position::Byte(self.offset()),
            _ => Position::Line(self.line),
        }
    }

    fn syntax(&self, reason: &'static str) -> CheckError {
        CheckError::Syntax { step: self.steps + 1, at: self.position(), reason }
    }

    fn truncated(&self) -> CheckError {
        CheckError::Truncated { step: self.steps + 1, at: self.position() }
    }

    /// Skips whitespace, newlines included, and text comment lines.
    fn skip_whitespace(&mut self) -> Result<Option<u8>, CheckError> {
        let mut in_comment = false;
        while let Some(b) = self.peek()? {
            if b == b'\n' {
                self.line += 1;
                in_comment = false;
            } else if self.mode == Mode::Text && b == b'c' {
                in_comment = true;
            } else if !in_comment && !is_blank(b) {
                return Ok(Some(b));
            }
            self.pos += 1;
        }
        Ok(None)
    }

    // ---- binary ----

    #[inline]
    fn varint(&mut self) -> Result<u64, CheckError> {
        // Fast path: a whole varint (at most 10 bytes) is in the buffer, so
        // no per-byte refill check.
        if let Some(bytes) = self.buf[..self.end].get(self.pos..self.pos + 10) {
            let mut value = 0u64;
            for (i, &b) in bytes.iter().enumerate() {
                value |= ((b & 0x7f) as u64) << (7 * i);
                if b & 0x80 == 0 {
                    if i == 9 && b > 1 {
                        break;
                    }
                    self.pos += i + 1;
                    return Ok(value);
                }
            }
            return Err(self.syntax("varint overflows 64 bits"));
        }
        self.varint_slow()
    }

    fn varint_slow(&mut self) -> Result<u64, CheckError> {
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let b = self.peek()?.ok_or_else(|| self.truncated())?;
            if shift == 63 && b > 1 || shift > 63 {
                return Err(self.syntax("varint overflows 64 bits"));
            }
            self.pos += 1;
            value |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
        }
    }

    /// A clause id: 2*id, so odd codes are negative ids.
    fn binary_id(&mut self) -> Result<u64, CheckError> {
        let code = self.varint()?;
        if code & 1 == 1 {
            return Err(self.syntax("negative clause id"));
        }
        Ok(code >> 1)
    }

    fn binary_step(&mut self, step: &mut StepBuf) -> Result<bool, CheckError> {
        let kind = match self.peek()? {
            None => return Ok(false),
            Some(kind) => kind,
        };
        self.pos += 1;
        step.delete = kind == b'd';
        match kind {
            b'a' => {
                step.id = self.binary_id()?;
                if step.id == 0 {
                    return Err(self.syntax("clause id 0"));
                }
                step.lits.clear();
                loop {
                    match self.varint()? {
                        0 => break,
                        code if code >> 1 > i32::MAX as u64 || code == 1 => {
                            return Err(self.syntax("literal out of range"))
                        }
                        code => {
                            let var = (code >> 1) as i32;
                            step.lits.push(if code & 1 == 1 { -var } else { var });
                        }
                    }
                }
                step.hints.clear();
                loop {
                    match self.varint()? {
                        0 => break,
                        code => {
                            let id = (code >> 1) as i64;
                            step.hints.push(if code & 1 == 1 { -id } else { id });
                        }
                    }
                }
            }
            b'd' => {
                step.ids.clear();
                loop {
                    match self.binary_id()? {
                        0 => break,
                        id => step.ids.push(id),
                    }
                }
            }
            _ => {
                self.pos -= 1;
                return Err(self.syntax("expected 'a' or 'd' at the start of a binary step"));
            }
        }
        Ok(true)
    }

    // ---- text ----

    /// The next number on the current line: a step that meets the end of
    /// its line or of the file before its final 0 is truncated.
    fn text_number(&mut self) -> Result<i64, CheckError> {
        while let Some(b) = self.peek()? {
            if !is_blank(b) {
                break;
            }
            self.pos += 1;
        }
        let negative = self.peek()? == Some(b'-');
        self.pos += negative as usize;
        let mut value: i64 = 0;
        let mut digits = 0;
        while let Some(b) = self.peek()? {
            if !b.is_ascii_digit() {
                break;
            }
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add((b - b'0') as i64))
                .ok_or_else(|| self.syntax("number out of range"))?;
            digits += 1;
            self.pos += 1;
        }
        match (digits, self.peek()?) {
            (0, None | Some(b'\n')) if !negative => Err(self.truncated()),
            (0, _) => Err(self.syntax("expected a number")),
            (_, Some(b)) if !(is_blank(b) || b == b'\n') => Err(self.syntax("expected a number")),
            _ => Ok(if negative { -value } else { value }),
        }
    }

    fn text_id(&mut self) -> Result<u64, CheckError> {
        match self.text_number()? {
            id if id < 0 => Err(self.syntax("negative clause id")),
            id => Ok(id as u64),
        }
    }

    fn text_step(&mut self, step: &mut StepBuf) -> Result<bool, CheckError> {
        if self.skip_whitespace()?.is_none() {
            return Ok(false);
        }
        step.id = self.text_id()?;
        while self.peek()?.is_some_and(is_blank) {
            self.pos += 1;
        }
        step.delete = self.peek()? == Some(b'd');
        if step.delete {
            self.pos += 1;
            step.ids.clear();
            loop {
                match self.text_id()? {
                    0 => break,
                    id => step.ids.push(id),
                }
            }
        } else {
            if step.id == 0 {
                return Err(self.syntax("clause id 0"));
            }
            step.lits.clear();
            loop {
                match self.text_number()? {
                    0 => break,
                    lit if lit > i32::MAX as i64 || lit < -(i32::MAX as i64) => {
                        return Err(self.syntax("literal out of range"))
                    }
                    lit => step.lits.push(lit as i32),
                }
            }
            step.hints.clear();
            loop {
                match self.text_number()? {
                    0 => break,
                    hint => step.hints.push(hint),
                }
            }
        }
        // The rest of the line must be empty: a second step on the same
        // line would hide a lost newline.
        while let Some(b) = self.peek()? {
            match b {
                b'\n' => break,
                b if is_blank(b) => self.pos += 1,
                _ => return Err(self.syntax("text after the step's final 0")),
            }
        }
        Ok(true)
    }
}

// ---- writers ----

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
