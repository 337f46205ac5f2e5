//! DIMACS CNF reading: the "p cnf V C" header, then clauses ending in 0.
//!
//! Invariant: the formula is the trusted side of a check, so it is read
//! strictly: exactly C clauses, every variable within 1..=V, the last clause
//! closed by its 0. Comments ('c' lines) may appear anywhere, clauses may
//! span lines, and a SATLIB-style '%' line ends the formula.

use crate::error::CheckError;
use crate::format::append_digit;

pub(crate) struct Dimacs<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: u64,
    vars: u32,
    clauses: u64,
    read: u64,
}

fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t' || b == b'\n' || b == b'\r'
}

impl<'a> Dimacs<'a> {
    /// Reads up to and including the header.
    pub(crate) fn new(bytes: &'a [u8]) -> Result<Self, CheckError> {
        let mut dimacs = Dimacs { bytes, pos: 0, line: 1, vars: 0, clauses: 0, read: 0 };
        match dimacs.next_token_start() {
            Some(b'p') => {}
            _ => return Err(dimacs.error("expected the header \"p cnf VARIABLES CLAUSES\"")),
        }
        dimacs.pos += 1;
        dimacs.skip_blanks();
        if !dimacs.bytes[dimacs.pos..].starts_with(b"cnf") {
            return Err(dimacs.error("the header must read \"p cnf VARIABLES CLAUSES\""));
        }
        dimacs.pos += 3;
        let vars = dimacs.header_number()?;
        dimacs.vars = u32::try_from(vars)
            .ok()
            .filter(|&v| v <= i32::MAX as u32)
            .ok_or_else(|| dimacs.error("the variable count exceeds 2^31 - 1"))?;
        dimacs.clauses = dimacs.header_number()?;
        // The header ends its line: "p cnf 2 4 1 2 0" reads as four clauses
        // to a token reader and as three to a line reader, and a checker
        // must not pick one of two formulas.
        dimacs.skip_blanks();
        if !matches!(dimacs.bytes.get(dimacs.pos), None | Some(b'\n' | b'\r')) {
            return Err(dimacs.error("the header \"p cnf VARIABLES CLAUSES\" must end its line"));
        }
        Ok(dimacs)
    }

    pub(crate) fn vars(&self) -> u32 {
        self.vars
    }

    pub(crate) fn clauses(&self) -> u64 {
        self.clauses
    }

    fn error(&self, reason: impl Into<String>) -> CheckError {
        CheckError::Dimacs { line: self.line, reason: reason.into() }
    }

    /// Skips spaces and tabs, not newlines: header fields share a line.
    fn skip_blanks(&mut self) {
        while self.pos < self.bytes.len() && (self.bytes[self.pos] == b' ' || self.bytes[self.pos] == b'\t') {
            self.pos += 1;
        }
    }

    fn header_number(&mut self) -> Result<u64, CheckError> {
        self.skip_blanks();
        match self.number()? {
            Some(n) if n >= 0 => Ok(n as u64),
            _ => Err(self.error("the header must read \"p cnf VARIABLES CLAUSES\"")),
        }
    }

    /// Skips whitespace and comment lines; the first byte of the next
    /// token, or None at the end of the input or at a '%' line.
    fn next_token_start(&mut self) -> Option<u8> {
        while let Some(&b) = self.bytes.get(self.pos) {
            if b == b'\n' {
                self.line += 1;
                self.pos += 1;
            } else if is_space(b) {
                self.pos += 1;
            } else if b == b'c' {
                while self.pos < self.bytes.len() && self.bytes[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else if b == b'%' {
                self.pos = self.bytes.len();
                return None;
            } else {
                return Some(b);
            }
        }
        None
    }

    /// A signed decimal at `pos`, which must end at whitespace or the end.
    fn number(&mut self) -> Result<Option<i64>, CheckError> {
        let negative = self.bytes.get(self.pos) == Some(&b'-');
        let digits_start = self.pos + negative as usize;
        let mut end = digits_start;
        let mut value: i64 = 0;
        while let Some(&b) = self.bytes.get(end) {
            if !b.is_ascii_digit() {
                break;
            }
            value = append_digit(value, b).ok_or_else(|| self.error("number out of range"))?;
            end += 1;
        }
        if end == digits_start || self.bytes.get(end).is_some_and(|&b| !is_space(b)) {
            return Ok(None);
        }
        self.pos = end;
        Ok(Some(if negative { -value } else { value }))
    }

    /// Reads the next clause into `lits`; false once all C clauses are read.
    pub(crate) fn next_clause(&mut self, lits: &mut Vec<i32>) -> Result<bool, CheckError> {
        lits.clear();
        loop {
            if self.next_token_start().is_none() {
                if !lits.is_empty() {
                    return Err(self.error("the last clause has no final 0"));
                }
                if self.read != self.clauses {
                    let reason = format!("the header announces {} clauses, the file has {}", self.clauses, self.read);
                    return Err(self.error(reason));
                }
                return Ok(false);
            }
            let lit = match self.number()? {
                Some(lit) => lit,
                None => return Err(self.error("expected a literal")),
            };
            if lit == 0 {
                self.read += 1;
                if self.read > self.clauses {
                    return Err(self.error(format!("more clauses than the header's {}", self.clauses)));
                }
                return Ok(true);
            }
            if lit.unsigned_abs() > self.vars as u64 {
                return Err(self.error(format!("literal {lit} exceeds the header's {} variables", self.vars)));
            }
            lits.push(lit as i32);
        }
    }
}
