//! gzip for stored CNFs and proofs. drat-trim reads plain files only, so
//! checking always decompresses to a temporary file first.

use std::io::{Read, Write};
use std::path::Path;

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

use crate::error::HexError;

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> HexError + '_ {
    move |source| HexError::Io { path: path.into(), source }
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

/// Decompresses gzip `source` into `target`.
pub fn gunzip_file(source: &Path, target: &Path) -> Result<(), HexError> {
    let input = std::fs::File::open(source).map_err(io_error(source))?;
    let mut decoder = GzDecoder::new(std::io::BufReader::new(input));
    let mut output = std::io::BufWriter::new(std::fs::File::create(target).map_err(io_error(target))?);
    std::io::copy(&mut decoder, &mut output).map_err(|e| HexError::Input {
        file: source.into(),
        line: 0,
        message: format!("not a valid gzip file: {e}"),
    })?;
    output.flush().map_err(io_error(target))?;
    Ok(())
}

/// Compresses bytes in memory.
pub fn gzip_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes).expect("writing to memory cannot fail");
    encoder.finish().expect("writing to memory cannot fail")
}

/// Decompresses bytes in memory.
pub fn gunzip_bytes(bytes: &[u8], origin: &Path) -> Result<Vec<u8>, HexError> {
    let mut out = Vec::new();
    GzDecoder::new(bytes).read_to_end(&mut out).map_err(|e| HexError::Input {
        file: origin.into(),
        line: 0,
        message: format!("not a valid gzip file: {e}"),
    })?;
    Ok(out)
}
