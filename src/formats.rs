//! Grid files: hexcert's own text format and the published (Rokicki) format.
//!
//! hexcert format, one header line then the hexagon drawn row by row:
//!
//! ```text
//! hexcert n=3 level=6
//!   3 1 4
//!  4 2 3 2
//! 1 6 5 1 4
//!  3 7 4 3
//!   2 1 2
//! ```
//!
//! Lines starting with `#` are comments. Row `i` holds the cells of skewed row
//! `i` in column order, separated by blanks (leading blanks are ignored). A
//! token is a digit `1..=k` or `+` ("more than k"); at level 6 `7` and `+` are
//! the same.
//!
//! Published format: solver log lines (`c ...`, `s ...`, `SAT`), then `2n-1`
//! rows of `2n-1` characters with `.` outside the hexagon, then `Score <sum>`.

use std::path::Path;

use crate::error::HexError;
use crate::geometry::Hexagon;
use crate::levels::{check_level, Partial, FULL_LEVEL};

/// Which of the two formats a file is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Hexcert,
    Published,
}

/// A parsed grid file: the partial and, for published files, the stated score.
#[derive(Debug, Clone)]
pub struct GridFile {
    pub format: Format,
    pub partial: Partial,
    pub stated_score: Option<u64>,
}

/// Bounds the read of a grid file (options table).
pub const MAX_GRID_BYTES: u64 = crate::options::GRID_BYTES.default;

/// Reads a grid file in either format (a regular file of at most
/// `MAX_GRID_BYTES`); `expected_n` rejects a different size.
pub fn read_grid_file(path: &Path, expected_n: Option<usize>) -> Result<GridFile, HexError> {
    let bytes = crate::files::read_regular(path, MAX_GRID_BYTES, "grid file")?;
    parse_grid(&bytes, path, expected_n)
}

/// Parses grid-file contents; `origin` names the file in error messages.
pub fn parse_grid(bytes: &[u8], origin: &Path, expected_n: Option<usize>) -> Result<GridFile, HexError> {
    let fail = |line: usize, message: String| HexError::Input { file: origin.into(), line, message };
    let text = std::str::from_utf8(bytes).map_err(|_| fail(0, "not a text file (invalid UTF-8)".into()))?;
    if text.contains('\0') {
        return Err(fail(0, "not a text file (contains NUL bytes)".into()));
    }
    let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end())).collect();
    let first = lines.iter().find(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let grid = match first {
        None => return Err(fail(0, "empty file: no grid in it".into())),
        Some((_, l)) if l.trim_start().starts_with("hexcert") => parse_hexcert(&lines, &fail)?,
        Some(_) => parse_published(&lines, &fail)?,
    };
    if let Some(n) = expected_n {
        if grid.partial.side() != n {
            return Err(fail(0, format!("grid has side {} but --n {n} was given", grid.partial.side())));
        }
    }
    Ok(grid)
}

type Fail<'a> = dyn Fn(usize, String) -> HexError + 'a;

fn parse_hexcert(lines: &[(usize, &str)], fail: &Fail) -> Result<GridFile, HexError> {
    let mut body = lines.iter().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let (header_line, header) = body.next().expect("caller found a header");
    let fail_at = |line: usize| move |message: String| fail(line, message);
    let (n, level) = parse_header(header, &fail_at(*header_line))?;
    let hex = Hexagon::new(n).map_err(|e| fail(*header_line, e.to_string()))?;
    let plus = level + 1;
    let mut values = Vec::with_capacity(hex.cell_count());
    let mut last_line = *header_line;
    for row in 0..hex.width() {
        let Some((line_no, line)) = body.next() else {
            return Err(fail(last_line, format!("expected {} rows for n={n}, found {row}", hex.width())));
        };
        last_line = *line_no;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let want = row_length(n, row);
        if tokens.len() != want {
            return Err(fail(*line_no, format!("row {} has {} cells, expected {want}", row + 1, tokens.len())));
        }
        for token in tokens {
            values.push(parse_token(token, (level, plus), &fail_at(*line_no))?);
        }
    }
    if let Some((line_no, _)) = body.next() {
        return Err(fail(*line_no, format!("unexpected text after the {} rows of the grid", hex.width())));
    }
    let partial = Partial::new(n, level, values).map_err(|e| fail(0, e.to_string()))?;
    Ok(GridFile { format: Format::Hexcert, partial, stated_score: None })
}

/// The side and level of a `hexcert n=.. level=..` header; a fault is
/// `fail`'s error (naming the header's line).
fn parse_header(header: &str, fail: &dyn Fn(String) -> HexError) -> Result<(usize, u8), HexError> {
    let expected = "expected a header like `hexcert n=5 level=6`";
    let mut words = header.split_whitespace();
    if words.next() != Some("hexcert") {
        return Err(fail(expected.into()));
    }
    let (mut n, mut level) = (None, None);
    for word in words {
        match word.split_once('=') {
            Some(("n", v)) => n = Some(v.parse::<usize>().map_err(|_| fail(format!("bad side `{v}` in header")))?),
            Some(("level", v)) => {
                let k = v.parse::<u8>().map_err(|_| fail(format!("bad level `{v}` in header")))?;
                level = Some(check_level(k).map_err(|e| fail(e.to_string()))?);
            }
            _ => return Err(fail(format!("unknown header field `{word}`; {expected}"))),
        }
    }
    match (n, level) {
        (Some(n), Some(level)) => Ok((n, level)),
        _ => Err(fail(format!("header lacks n= or level=; {expected}"))),
    }
}

/// One cell's value (`+` reads as `plus`, one above the level); a fault is
/// `fail`'s error (naming the row's line).
fn parse_token(token: &str, (level, plus): (u8, u8), fail: &dyn Fn(String) -> HexError) -> Result<u8, HexError> {
    match token.as_bytes() {
        [b'+'] => Ok(plus),
        [d @ b'0'..=b'9'] => {
            let v = d - b'0';
            if v == 0 || v > 7 {
                Err(fail(format!("value {v} is not a cell value (1..7)")))
            } else if v > level && !(level == FULL_LEVEL && v == 7) {
                Err(fail(format!("value {v} exceeds level {level}; write `+` for values above the level")))
            } else {
                Ok(v)
            }
        }
        _ => Err(fail(format!("`{token}` is not a cell value: use 1..{level} or +"))),
    }
}

/// Cells in skewed row `row` of the side-`n` hexagon.
fn row_length(n: usize, row: usize) -> usize {
    let w = 2 * n - 1;
    w - row.abs_diff(n - 1)
}

fn parse_published(lines: &[(usize, &str)], fail: &Fail) -> Result<GridFile, HexError> {
    let is_log = |l: &str| l.is_empty() || l.starts_with("c ") || l == "c" || l.starts_with("s ") || l == "SAT";
    let rows: Vec<(usize, &str)> = lines
        .iter()
        .copied()
        .skip_while(|(_, l)| is_log(l) || l.starts_with('#'))
        .take_while(|(_, l)| !l.starts_with("Score") && !l.is_empty())
        .collect();
    let Some(&(first_line, first)) = rows.first() else {
        return Err(fail(0, "no grid rows found".into()));
    };
    let w = first.len();
    if w % 2 == 0 || w > 2 * crate::geometry::MAX_SIDE - 1 {
        return Err(fail(first_line, format!("row of {w} characters: a side-n grid has 2n-1 (odd, at most 79)")));
    }
    let n = w.div_ceil(2);
    if rows.len() != w {
        let line = rows.last().map_or(first_line, |r| r.0);
        return Err(fail(line, format!("found {} rows, a side-{n} grid needs {w}", rows.len())));
    }
    let mut values = Vec::with_capacity(crate::geometry::cell_count(n));
    for (i, &(line_no, row)) in rows.iter().enumerate() {
        if row.len() != w {
            return Err(fail(line_no, format!("row has {} characters, expected {w}", row.len())));
        }
        for (j, ch) in row.chars().enumerate() {
            let inside = i.abs_diff(j) < n;
            match (inside, ch) {
                (true, '1'..='7') => values.push(ch as u8 - b'0'),
                (false, '.') => {}
                (true, _) => return Err(fail(line_no, format!("column {}: `{ch}` is not a cell value 1..7", j + 1))),
                (false, _) => {
                    return Err(fail(
                        line_no,
                        format!("column {}: `{ch}` lies outside the hexagon, expected `.`", j + 1),
                    ))
                }
            }
        }
    }
    let after = lines.iter().find(|(no, _)| *no > rows.last().unwrap().0 && !lines[*no - 1].1.is_empty());
    let stated_score = match after {
        Some((no, l)) => match l.strip_prefix("Score ") {
            Some(s) => Some(s.trim().parse::<u64>().map_err(|_| fail(*no, format!("bad score `{}`", s.trim())))?),
            None => return Err(fail(*no, format!("unexpected line `{l}` after the grid"))),
        },
        None => None,
    };
    let partial = Partial::new(n, FULL_LEVEL, values).map_err(|e| fail(0, e.to_string()))?;
    Ok(GridFile { format: Format::Published, partial, stated_score })
}

/// Writes a partial in hexcert's own format.
pub fn to_hexcert_text(partial: &Partial) -> String {
    let n = partial.side();
    let hex = Hexagon::new(n).expect("a partial has a valid side");
    let mut out = format!("hexcert n={n} level={}\n", partial.level());
    let plus = partial.plus();
    let mut cells = partial.values().iter();
    for row in 0..hex.width() {
        let len = row_length(n, row);
        out.push_str(&" ".repeat(row.abs_diff(n - 1)));
        let tokens: Vec<String> = cells
            .by_ref()
            .take(len)
            .map(|&v| if v == plus && partial.level() < FULL_LEVEL { "+".into() } else { v.to_string() })
            .collect();
        out.push_str(&tokens.join(" "));
        out.push('\n');
    }
    out
}

/// Writes a full grid in the published format (rows, then `Score <sum>`).
pub fn to_published_text(partial: &Partial) -> Result<String, HexError> {
    if partial.level() != FULL_LEVEL {
        return Err(HexError::Usage("the published format holds full grids (level 6) only".into()));
    }
    let n = partial.side();
    let hex = Hexagon::new(n)?;
    let mut out = String::new();
    for i in 0..hex.width() as i32 {
        for j in 0..hex.width() as i32 {
            match hex.cell_at(i, j) {
                Some(c) => out.push((b'0' + partial.values()[c]) as char),
                None => out.push('.'),
            }
        }
        out.push('\n');
    }
    let sum: u64 = partial.values().iter().map(|&v| u64::from(v)).sum();
    out.push_str(&format!("Score {sum}\n"));
    Ok(out)
}
