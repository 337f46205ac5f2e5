//! A certificate directory's files: the CNF and proofs hashed, and stored
//! gzipped when they fit the store limit (`store_files`), and the finished
//! directory moved into place over an older one (`replace_directory`).

use std::path::Path;

use crate::compress;
use crate::digest::sha256_file;
use crate::error::AtPath;
use crate::error::HexError;
use crate::records::cube::CERTIFICATE_FILES;
use crate::records::FileRecord;

/// Raw bytes beyond this multiple of the store limit are not even compressed (options table).
const HOPELESS_RATIO: u64 = crate::options::HOPELESS_RATIO.default;

/// A certificate's files: the CNF, the DRAT proof, and the LRAT proof when
/// one was kept (`online::LRAT_FILE_CAP`).
pub struct Stored {
    pub cnf: FileRecord,
    pub proof: FileRecord,
    pub lrat_proof: Option<FileRecord>,
}

/// Hashes the plain CNF and proofs; stores gzip copies of all of them in
/// `staging` when together they stay within `limit`, else none.
pub(super) fn store_files(
    cnf: &Path,
    proof: &Path,
    lrat: Option<&Path>,
    staging: &Path,
    limit: u64,
) -> Result<Stored, HexError> {
    let mut files: Vec<(&Path, &str, &str)> = vec![
        (cnf, "formula.cnf.gz", "DIMACS CNF, as written by `hexcert encode` with the encoder options above"),
        (proof, "proof.drat.gz", "binary DRAT proof of unsatisfiability (drat-trim reads it directly): the LRAT trace of the solve without its hints"),
    ];
    if let Some(lrat) = lrat {
        files.push((
            lrat,
            "proof.lrat.gz",
            "binary LRAT proof of the same solve (hexcert-lrat, lrat-check, lrat-trim and cake_lpr read it)",
        ));
    }
    let mut records = Vec::new();
    for (path, _, description) in &files {
        records.push(FileRecord {
            stored_as: None,
            sha256: sha256_file(path).at_path(path)?,
            bytes: std::fs::metadata(path).at_path(path)?.len(),
            compressed_bytes: None,
            description: description.to_string(),
        });
    }
    let raw: u64 = records.iter().map(|r| r.bytes).sum();
    if raw <= HOPELESS_RATIO * limit {
        let mut total = 0;
        for ((path, name, _), record) in files.iter().zip(records.iter_mut()) {
            let gz = staging.join(name);
            compress::gzip_file(path, &gz)?;
            let size = std::fs::metadata(&gz).at_path(&gz)?.len();
            record.compressed_bytes = Some(size);
            total += size;
        }
        for ((_, name, _), record) in files.iter().zip(records.iter_mut()) {
            if total <= limit {
                record.stored_as = Some(name.to_string());
            } else {
                let _ = std::fs::remove_file(staging.join(name));
            }
        }
    }
    let mut records = records.into_iter();
    let (cnf, proof) = (records.next().expect("cnf"), records.next().expect("proof"));
    Ok(Stored { cnf, proof, lrat_proof: records.next() })
}

/// Moves the certificate finished in `staging` (inside this run's work
/// directory) into `target`, replacing an older certificate there. Only the
/// certificate's own files move (`CERTIFICATE_FILES`): whatever else
/// `target` holds (a witness, the campaign that produced the claim) never
/// leaves it, so a kill at any point leaves nothing of the user's inside a
/// work directory a reaper removes. The old `claim.json` goes first and the
/// new one comes last, so `target` never names files it lacks; a kill
/// midway leaves it without a claim, to be proved or merged again.
pub(super) fn replace_directory(staging: &Path, target: &Path) -> Result<(), HexError> {
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).at_path(parent)?;
    }
    if std::fs::symlink_metadata(target).is_err() {
        return std::fs::rename(staging, target).at_path(target);
    }
    // The old certificate's files go to the work directory, removed with it.
    let retired = staging.with_extension("retired");
    std::fs::create_dir_all(&retired).at_path(&retired)?;
    for name in CERTIFICATE_FILES {
        let old = target.join(name);
        if std::fs::symlink_metadata(&old).is_ok() {
            std::fs::rename(&old, retired.join(name)).at_path(&old)?;
        }
    }
    for name in CERTIFICATE_FILES.iter().rev() {
        let new = staging.join(name);
        if std::fs::symlink_metadata(&new).is_ok() {
            std::fs::rename(&new, target.join(name)).at_path(&new)?;
        }
    }
    Ok(())
}
