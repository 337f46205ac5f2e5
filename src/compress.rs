//! gzip for stored CNFs and proofs. drat-trim reads plain files only, so
//! checking always decompresses to a temporary file first.
//!
//! Invariant: a stored file is exactly one gzip member and nothing after it.
//! `gunzip` tools concatenate members, while a reader that stops after the
//! first (flate2's decoder) would hash and check only part of the file: two
//! tools would then see two different formulas or proofs in the same bytes.
//! So trailing bytes or a second member are an error, not ignored.

use std::io::{BufRead, Read, Write};
use std::path::Path;

use flate2::bufread::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

use crate::error::AtPath;
use crate::error::HexError;

fn not_gzip(origin: &Path, problem: String) -> HexError {
    HexError::Input { file: origin.into(), line: 0, message: problem }
}

/// Compresses `source` into `target` (gzip, best compression).
pub fn gzip_file(source: &Path, target: &Path) -> Result<(), HexError> {
    let mut input = std::fs::File::open(source).at_path(source)?;
    let output = std::fs::File::create(target).at_path(target)?;
    let mut encoder = GzEncoder::new(std::io::BufWriter::new(output), Compression::best());
    std::io::copy(&mut input, &mut encoder).at_path(source)?;
    let mut writer = encoder.finish().at_path(target)?;
    writer.flush().at_path(target)?;
    Ok(())
}

/// Copies the one gzip member of `input` into `output`, then requires that
/// nothing follows it. `bufread::GzDecoder` consumes exactly the member from
/// our buffered reader, so what is left in it is what follows the member.
/// A failed read is the file's fault (not gzip); a failed write to `target`
/// is this machine's (an I/O error, as a full disk is).
fn gunzip_one_member<R: BufRead>(
    input: R,
    output: &mut impl Write,
    origin: &Path,
    target: &Path,
) -> Result<(), HexError> {
    let mut decoder = GzDecoder::new(input);
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let read = match decoder.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(not_gzip(origin, format!("not a valid gzip file: {e}"))),
        };
        output.write_all(&buffer[..read]).at_path(target)?;
    }
    let mut rest = decoder.into_inner();
    let trailing = rest.fill_buf().at_path(origin)?;
    if !trailing.is_empty() {
        return Err(not_gzip(origin, "not a single gzip member: bytes follow the first member".into()));
    }
    Ok(())
}

/// Decompresses gzip `source` (exactly one member) into `target`.
pub fn gunzip_file(source: &Path, target: &Path) -> Result<(), HexError> {
    let input = crate::files::open_regular_or_refuse(source, "gzip file")?;
    let mut output = std::io::BufWriter::new(std::fs::File::create(target).at_path(target)?);
    gunzip_one_member(std::io::BufReader::new(input), &mut output, source, target)?;
    output.flush().at_path(target)?;
    Ok(())
}

/// How many times its compressed size a stored file may decompress to (options table: why 64).
pub const MAX_EXPANSION: u64 = crate::options::MAX_EXPANSION.default;

/// Decompresses gzip `source` into `target`, stopping with an error at the
/// first byte past the smaller of two caps: the size its record `states`,
/// and `MAX_EXPANSION` times the compressed file's size. The second comes
/// from the file, not the record, so a record that vouches for a bomb (a
/// huge `bytes`) still cannot make it fill the disk.
pub fn gunzip_file_limited(source: &Path, target: &Path, states: u64) -> Result<(), HexError> {
    let input = crate::files::open_regular_or_refuse(source, "stored file")?;
    let compressed = input.metadata().at_path(source)?.len();
    let own = compressed.saturating_mul(MAX_EXPANSION);
    let limit = states.min(own);
    let output = std::io::BufWriter::new(std::fs::File::create(target).at_path(target)?);
    let mut capped = Capped { inner: output, left: limit, over: false };
    let result = gunzip_one_member(std::io::BufReader::new(input), &mut capped, source, target);
    if result.is_err() {
        let _ = std::fs::remove_file(target);
        if capped.over {
            let cap = if own < states {
                format!("that {MAX_EXPANSION} times its compressed size ({compressed} bytes) allows")
            } else {
                "its record states".to_string()
            };
            return Err(not_gzip(source, format!("decompresses to more than the {limit} bytes {cap}")));
        }
    }
    result?;
    capped.inner.flush().at_path(target)
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
    gunzip_one_member(bytes, &mut out, origin, origin)?;
    Ok(out)
}
