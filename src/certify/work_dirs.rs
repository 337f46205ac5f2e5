//! The work directories a certify, merge or cube run leaves when it is
//! stopped: reaped at the next run, after what a killed replacement had
//! moved into one is moved back (a claim and its verdicts are never lost to
//! the reaper).

use std::path::{Path, PathBuf};

use crate::error::{AtPath, HexError, RecordError};
use crate::records::cube::CERTIFICATE_FILES;

/// Removes the stale work directories under `dir`
/// (`run::remove_stale_work_dirs`), after moving back what a
/// killed claim replacement of an earlier build left in one (`rescue_strays`).
pub fn remove_stale_work_dirs(dir: &Path) {
    crate::run::remove_stale_work_dirs_with(dir, rescue_strays);
}

/// Builds before this one replaced a claim directory by moving what else it
/// held (a campaign, a witness) into the staged certificate (a directory of
/// the work directory holding `claim.json`): killed then, they left it
/// there. Moves such entries back into the claim's directory beside `work`
/// (named by the staged claim), never over anything; the error says what
/// stayed. And a replacement (`certificate_dir::replace_directory`) killed after it
/// moved the old certificate out (to `<staged>.retired`) and before the
/// new `claim.json` went in (it goes last) left the claim's directory with
/// no claim: the old certificate is moved back (`recover_retired`), so a
/// claim and the verdicts kept in it are never lost to a reaper.
///
/// # Errors
///
/// `HexError::Io` naming the place a move failed, or an entry already
/// standing where a stray would go back (`AlreadyExists`); `HexError::Record`
/// when a staged `claim.json` is no claim.
pub fn rescue_strays(work: &Path) -> Result<(), HexError> {
    let dir = work.parent().unwrap_or(Path::new("."));
    let Ok(entries) = std::fs::read_dir(work) else { return Ok(()) };
    for staged in entries.flatten().map(|e| e.path()).filter(|p| p.join("claim.json").is_file()) {
        if staged.extension().is_some_and(|e| e == "retired") {
            recover_retired(&staged, &claim_home(dir, &staged)?)?;
            continue;
        }
        let Ok(children) = std::fs::read_dir(&staged) else { continue };
        let strays: Vec<PathBuf> = children
            .flatten()
            .filter(|c| !CERTIFICATE_FILES.iter().any(|f| c.file_name() == *f))
            .map(|c| c.path())
            .collect();
        if strays.is_empty() {
            continue;
        }
        let home = claim_home(dir, &staged)?;
        std::fs::create_dir_all(&home).at_path(&home)?;
        for stray in strays {
            let back = home.join(stray.file_name().expect("a directory entry has a name"));
            if std::fs::symlink_metadata(&back).is_ok() {
                // Never over anything: the entry in the way is named, the stray stays.
                return Err(HexError::io(&back, std::io::ErrorKind::AlreadyExists.into()));
            }
            std::fs::rename(&stray, &back).at_path(&stray)?;
            eprintln!("{}: moved back from a stopped run's work directory", back.display());
        }
    }
    Ok(())
}

/// The claim directory in `dir` of the claim staged in `staged`.
fn claim_home(dir: &Path, staged: &Path) -> Result<PathBuf, HexError> {
    let claim = staged.join("claim.json");
    let record = crate::records::Record::read(&claim)?;
    let (_, level, below, _) = record
        .claim_numbers()
        .ok_or_else(|| RecordError::Malformed("a staged claim names no claim".into()).at(&claim))?;
    Ok(dir.join(format!("level{level}-below{below}")))
}

/// Moves the certificate retired into `retired` back into `home` when
/// `home` has no `claim.json` (the new one never arrived): each retired
/// file replaces what of the unfinished new certificate stands in its
/// place. With a `claim.json` in `home` the replacement finished, and the
/// retired certificate is left to the reaper.
fn recover_retired(retired: &Path, home: &Path) -> Result<(), HexError> {
    if std::fs::symlink_metadata(home.join("claim.json")).is_ok() {
        return Ok(());
    }
    std::fs::create_dir_all(home).at_path(home)?;
    for name in CERTIFICATE_FILES {
        let (old, place) = (retired.join(name), home.join(name));
        if std::fs::symlink_metadata(&old).is_err() {
            continue;
        }
        match std::fs::symlink_metadata(&place) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&place).at_path(&place)?,
            Ok(_) => std::fs::remove_file(&place).at_path(&place)?,
            Err(_) => {}
        }
        std::fs::rename(&old, &place).at_path(&old)?;
    }
    eprintln!("{}: recovered from a replacement that was stopped", home.join("claim.json").display());
    Ok(())
}
