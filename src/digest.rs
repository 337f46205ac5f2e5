//! SHA-256 of bytes and of files: how every record names the files it
//! vouches for. Below the records and the proofs, which both hash.

use sha2::{Digest, Sha256};

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a regular file, streamed (a fifo or a device is refused).
pub fn sha256_file(path: &std::path::Path) -> std::io::Result<String> {
    let mut file = crate::files::open_regular(path).map_err(crate::files::Refused::into_io)?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher)?;
    Ok(finish_hex(hasher))
}

/// The SHA-256 of everything fed to `hasher`, in lower-case hex.
pub fn finish_hex(hasher: Sha256) -> String {
    hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
