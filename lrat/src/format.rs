//! LRAT proof files, text and binary: the streaming `Reader` (the writers
//! live in `writers.rs` and are re-exported here).
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

pub use crate::writers::{write_binary_add, write_binary_delete, write_text_add, write_text_delete};

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
        if !self.read_step(&mut buf)? {
            return Ok(None);
        }
        Ok(Some(if buf.delete {
            Step::Delete { ids: buf.ids }
        } else {
            Step::Add { id: buf.id, lits: buf.lits, hints: buf.hints }
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

    fn binary_step(&mut self, step: &mut StepBuf) -> Result<bool, CheckError> {
        let kind = match self.peek()? {
            None => return Ok(false),
            Some(kind) => kind,
        };
        if kind != b'a' && kind != b'd' {
            return Err(self.syntax("expected 'a' or 'd' at the start of a binary step"));
        }
        self.pos += 1;
        step.delete = kind == b'd';
        if !step.delete {
            step.id = self.id()?;
        }
        self.step_body(step)?;
        Ok(true)
    }

    // ---- both ----

    /// The next signed number of a step: in binary a varint of
    /// 2*|x| + (x < 0), in text a decimal on the current line.
    #[inline]
    fn number(&mut self) -> Result<i64, CheckError> {
        if self.mode != Mode::Binary {
            return self.text_number();
        }
        let code = self.varint()?;
        let magnitude = (code >> 1) as i64;
        match (code & 1, magnitude) {
            (0, _) => Ok(magnitude),
            (_, 0) => Err(self.syntax("negative zero")),
            _ => Ok(-magnitude),
        }
    }

    fn id(&mut self) -> Result<u64, CheckError> {
        match self.number()? {
            id if id < 0 => Err(self.syntax("negative clause id")),
            id => Ok(id as u64),
        }
    }

    /// What follows the id (and the 'd' of a deletion): the deleted ids,
    /// or the literals and hints, each list ending in 0.
    fn step_body(&mut self, step: &mut StepBuf) -> Result<(), CheckError> {
        if step.delete {
            step.ids.clear();
            loop {
                match self.id()? {
                    0 => return Ok(()),
                    id => step.ids.push(id),
                }
            }
        }
        if step.id == 0 {
            return Err(self.syntax("clause id 0"));
        }
        step.lits.clear();
        loop {
            match self.number()? {
                0 => break,
                lit if lit.unsigned_abs() > i32::MAX as u64 => return Err(self.syntax("literal out of range")),
                lit => step.lits.push(lit as i32),
            }
        }
        step.hints.clear();
        loop {
            match self.number()? {
                0 => return Ok(()),
                hint => step.hints.push(hint),
            }
        }
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
            value = append_digit(value, b).ok_or_else(|| self.syntax("number out of range"))?;
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

    fn text_step(&mut self, step: &mut StepBuf) -> Result<bool, CheckError> {
        if self.skip_whitespace()?.is_none() {
            return Ok(false);
        }
        step.id = self.id()?;
        while self.peek()?.is_some_and(is_blank) {
            self.pos += 1;
        }
        step.delete = self.peek()? == Some(b'd');
        self.pos += step.delete as usize;
        self.step_body(step)?;
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

/// `value` with decimal digit `b` appended; None on overflow.
#[inline]
pub(crate) fn append_digit(value: i64, b: u8) -> Option<i64> {
    value.checked_mul(10)?.checked_add((b - b'0') as i64)
}
