//! gzip for stored CNFs and proofs. drat-trim reads plain files only, so
//! checking always decompresses to a temporary file first.
//!
//! Invariant: a stored file is exactly one gzip member and nothing after it.
//! `gunzip` tools concatenate members, while a reader that stops after the
//! first (flate2's decoder) would hash and check only part of the file: two
//! tools would then see two different formulas or proofs in the same bytes.
//! So trailing bytes or a second member are an error, not ignored.

use std::io::{BufRead, Write};
use std::path::Path;

use flate2::bufread::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

use crate::error::HexError;

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> HexError + '_ {
    move |source| HexError::Io { path: path.into(), source }
}

fn not_gzip(origin: &Path, problem: String) -> HexError {
    HexError::Input { file: origin.into(), line: 0, message: problem }
}

/// Compresses `source` into `target` (gzip, best compression).
pub fn gzip_file(source: &Path, target: &Path) -> Result<(), HexError> {
    let mut input = std::fs::File::open(source).map_err(io_error(source))?;
    let output = std::fs::File::create(target).map_err(io_error(target))?;
    let mut encoder = GzEncoder::new(std::io::BufWriter::new(output), Compression::best());
    std::io::copy(&mut input, &mut encoder).map_err(io_error(source))?;
    let mut writer = encoder.finish().map_err(io_error(target))?;
    writer.flush().map_err(io_error(target))?;
    Ok(())
}

/// Copies the one gzip member of `input` into `output`, then requires that
/// nothing follows it. `bufread::GzDecoder` consumes exactly the member from
/// our buffered reader, so what is left in it is what follows the member.
fn gunzip_one_member<R: BufRead>(input: R, output: &mut impl Write, origin: &Path) -> Result<(), HexError> {
    let mut decoder = GzDecoder::new(input);
    std::io::copy(&mut decoder, output).map_err(|e| not_gzip(origin, format!("not a valid gzip file: {e}")))?;
    let mut rest = decoder.into_inner();
    let trailing = rest.fill_buf().map_err(io_error(origin))?;
    if !trailing.is_empty() {
        return Err(not_gzip(origin, "not a single gzip member: bytes follow the first member".into()));
    }
    Ok(())
}

/// Decompresses gzip `source` (exactly one member) into `target`.
pub fn gunzip_file(source: &Path, target: &Path) -> Result<(), HexError> {
    let input = std::fs::File::open(source).map_err(io_error(source))?;
    let mut output = std::io::BufWriter::new(std::fs::File::create(target).map_err(io_error(target))?);
    gunzip_one_member(std::io::BufReader::new(input), &mut output, source)?;
    output.flush().map_err(io_error(target))?;
    Ok(())
}

/// Decompresses gzip `source` into `target`, writing at most `limit` bytes:
/// the size a record states caps the decompression, so a gzip bomb stops
/// after `limit + 1` bytes with an error instead of filling the disk.
pub fn gunzip_file_limited(source: &Path, target: &Path, limit: u64) -> Result<(), HexError> {
    let meta = std::fs::metadata(source).map_err(io_error(source))?;
    if !meta.file_type().is_file() {
        return Err(not_gzip(source, "not a regular file".into()));
    }
    let input = std::fs::File::open(source).map_err(io_error(source))?;
    let output = std::io::BufWriter::new(std::fs::File::create(target).map_err(io_error(target))?);
    let mut capped = Capped { inner: output, left: limit, over: false };
    let result = gunzip_one_member(std::io::BufReader::new(input), &mut capped, source);
    if result.is_err() {
        let _ = std::fs::remove_file(target);
        if capped.over {
            return Err(not_gzip(source, format!("decompresses to more than the {limit} bytes its record states")));
        }
    }
    result?;
    capped.inner.flush().map_err(io_error(target))
}

/// A writer that refuses bytes past `left`.
struct Capped<W: Write> {
    inner: W,
    left: u64,
    over: bool,
}

impl<W: Write> Write for Capped<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() as u64 > self.left {
            self.over = true;
            self.left = 0;
            return Err(std::io::Error::other("more bytes than the record states"));
        }
        let written = self.inner.write(buf)?;
        self.left -= written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Compresses bytes in memory.
pub fn gzip_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes).expect("writing to memory cannot fail");
    encoder.finish().expect("writing to memory cannot fail")
}

/// Decompresses bytes in memory (exactly one gzip member).
pub fn gunzip_bytes(bytes: &[u8], origin: &Path) -> Result<Vec<u8>, HexError> {
    let mut out = Vec::new();
    gunzip_one_member(bytes, &mut out, origin)?;
    Ok(out)
}
