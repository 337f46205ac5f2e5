//! Who this run is (host, run id, the attestation a record's writer
//! signs with), and the scratch directories it owns: run machinery, not a
//! record, so it sits below the record layer and the files it writes
//! (temporary names are made from the run id).
//!
//! A results directory may be shared by many machines (NFS, GNU parallel
//! over SSH), so neither a pid nor a host name alone names a run: two hosts
//! reuse pids, and two PID namespaces on one host see different pids. A run
//! is named by its host and a random token (`run_id`), and a scratch
//! directory is owned through an exclusive `flock` on the `.lock` file
//! inside it, held for the directory's life. Invariant: a directory is
//! reaped only when its lock can be taken, which no live owner allows on any
//! host (Linux maps `flock` on NFS to byte-range locks the server arbitrates).
//! A directory without a lock file (an older build's) is never reaped. Where
//! a lock cannot decide alone (a lock not yet under its name, `$TMPDIR`
//! shared with everyone), the run's name decides too: its host must be this
//! one and its pid gone.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::error::AtPath;
use crate::error::HexError;

/// Overrides the host name a run records (tests stand in for two hosts with it).
pub const HOST_VARIABLE: &str = "HEXCERT_HOST";

const LOCK_FILE: &str = ".lock";

/// This machine's name: `HEXCERT_HOST` if set, else the kernel's host name,
/// kept to characters safe in a file name.
pub fn host() -> String {
    let raw = std::env::var(HOST_VARIABLE)
        .ok()
        .or_else(|| std::fs::read_to_string("/proc/sys/kernel/hostname").ok())
        .unwrap_or_default();
    let safe: String =
        raw.trim().chars().filter(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-').take(64).collect();
    if safe.is_empty() {
        "unknown-host".into()
    } else {
        safe
    }
}

/// This run's name, fixed for the process: host, random token, pid.
pub fn run_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| format!("{}-{}-{}", host(), random_token(), std::process::id()))
}

/// Who wrote a record whose contents are its writer's word (a resumed
/// piece or cube of a count): host, run and the hexcert build, so that a
/// campaign written by several builds says which build wrote what.
pub fn attestation() -> String {
    format!("{} run {} (hexcert {})", host(), run_id(), env!("HEXCERT_GIT_COMMIT"))
}

/// 64 random bits, hex; from the kernel, else from the clock and the pid.
fn random_token() -> String {
    let mut bytes = [0u8; 8];
    let read = File::open("/dev/urandom").and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes));
    if read.is_err() {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        bytes = (nanos ^ (u64::from(std::process::id()) << 32)).to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Takes an exclusive lock on `file` without waiting; false when held elsewhere.
fn try_lock(file: &File) -> bool {
    // SAFETY: flock on an open descriptor we own; no memory is shared.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// A scratch directory owned by this run: locked while it lives, removed
/// when dropped (also on errors and Ctrl-C).
// The file is never read: holding it open holds the lock.
pub struct WorkDir(pub PathBuf, #[allow(dead_code)] File);

impl WorkDir {
    /// Creates `parent/<prefix>-<run id>-<number>`, locked before it gets its name
    /// (created under a `.new-` name, locked, then renamed), so a reaper
    /// never sees it unlocked. The lock file too is locked before it gets
    /// its name (`.lock.new`, renamed to `.lock`), so a `.new-` directory's
    /// lock is free only when its run ended, and the reaper may take those
    /// too (a run killed before its first rename left one).
    pub fn create(parent: &Path, prefix: &str) -> Result<WorkDir, HexError> {
        // Numbered within the run: threads of one run (tests, `check` of
        // one claim reached twice at once) never share a directory.
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let number = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("{prefix}-{}-{number}", run_id());
        let path = parent.join(&name);
        let fresh = parent.join(format!(".new-{}", name.trim_start_matches('.')));
        std::fs::create_dir_all(&fresh).at_path(&fresh)?;
        let unnamed = fresh.join(format!("{LOCK_FILE}.new"));
        let lock = File::create(&unnamed).at_path(&fresh)?;
        if !try_lock(&lock) {
            return Err(HexError::Internal(format!("{}: cannot lock a directory this run just made", fresh.display())));
        }
        std::fs::rename(&unnamed, fresh.join(LOCK_FILE)).at_path(&fresh)?;
        std::fs::rename(&fresh, &path).at_path(&path)?;
        Ok(WorkDir(path, lock))
    }

    /// `create` in the temporary directory (`$TMPDIR`), where this process
    /// first reaps, once, what hexcert runs killed outright (SIGKILL, the
    /// OOM killer) left there (`remove_stale_temp_dirs`).
    pub fn create_temp(prefix: &str) -> Result<WorkDir, HexError> {
        static REAPED: OnceLock<()> = OnceLock::new();
        let parent = std::env::temp_dir();
        REAPED.get_or_init(|| remove_stale_temp_dirs(&parent));
        WorkDir::create(&parent, prefix)
    }
}

/// The prefix of every scratch directory hexcert makes in `$TMPDIR`.
pub const TEMP_PREFIX: &str = "hexcert-";

/// Removes the scratch directories hexcert's runs left in `tmp`: those
/// named `hexcert-*` (or still `.new-hexcert-*`) by a run of this host
/// whose process is gone and whose lock can be taken. `$TMPDIR` is shared
/// with every program and user, so both are asked: the name, then the lock.
fn remove_stale_temp_dirs(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let bare = name.strip_prefix(".new-").unwrap_or(&name);
        if !bare.starts_with(TEMP_PREFIX) || !ended_on_this_host(bare) {
            continue;
        }
        if let Some(_held) = take_lock(&entry.path()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether the run that named a scratch directory `name`
/// (`<prefix>-<host>-<token>-<pid>-<number>`, `WorkDir::create`) ran on
/// this host and its process is gone. Asked only where a lock alone cannot
/// decide: a directory killed before its lock got its name, one in `$TMPDIR`.
fn ended_on_this_host(name: &str) -> bool {
    let mut parts = name.rsplitn(4, '-');
    let (Some(number), Some(pid), Some(token), Some(rest)) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let (Ok(_), Ok(pid)) = (number.parse::<u64>(), pid.parse::<libc::pid_t>()) else { return false };
    if token.len() != 16 || !token.bytes().all(|b| b.is_ascii_hexdigit()) || pid <= 0 {
        return false;
    }
    if !rest.ends_with(&format!("-{}", host())) || pid == std::process::id() as libc::pid_t {
        return false;
    }
    // SAFETY: signal 0 sends nothing; it asks whether the process exists.
    let answer = unsafe { libc::kill(pid, 0) };
    answer != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
}

/// The lock of scratch directory `dir`, taken (its owner is gone; held
/// while the directory is reaped): `.lock`, or, in a directory killed
/// before its first rename, `.lock.new`. A directory with neither (an
/// older build's) is never taken.
fn take_lock(dir: &Path) -> Option<File> {
    [LOCK_FILE.to_string(), format!("{LOCK_FILE}.new")].iter().find_map(|name| {
        // Opened for writing: an exclusive lock over NFS needs it.
        let lock = std::fs::OpenOptions::new().read(true).write(true).open(dir.join(name)).ok()?;
        try_lock(&lock).then_some(lock)
    })
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Removes the `.work-*` and `.check-*` directories under `dir` whose lock
/// can be taken, and those still under their `.new-` name: their run ended
/// without removing them (killed outright). Directories of live runs, on
/// this host or any other, are left alone.
pub fn remove_stale_work_dirs(dir: &Path) {
    remove_stale_work_dirs_with(dir, |_| Ok(()));
}

/// `remove_stale_work_dirs`, first handing each stale directory to
/// `rescue`, which moves out whatever of the user's it holds; one it could
/// not empty of that is kept after saying so: a reaper removes only a run's
/// own files.
pub fn remove_stale_work_dirs_with(dir: &Path, rescue: impl Fn(&Path) -> Result<(), HexError>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        // `.new-work-x` is `.work-x` before its first rename.
        let scratch = name.strip_prefix(".new-").map_or(name.clone(), |rest| format!(".{rest}"));
        if !(scratch.starts_with(".work-") || scratch.starts_with(".check-")) {
            continue;
        }
        // A run killed at its first rename left its lock under `.lock.new`, which a live run holds
        // from just after creating it: that one is taken only when its run, by its name, is gone.
        let unnamed_lock = !entry.path().join(LOCK_FILE).exists() && name.starts_with(".new-");
        if unnamed_lock && !ended_on_this_host(&scratch) {
            continue;
        }
        let Some(_held) = take_lock(&entry.path()) else { continue };
        match rescue(&entry.path()) {
            Ok(()) => {
                let _ = std::fs::remove_dir_all(entry.path());
            }
            Err(why) => eprintln!("{}: left in place: {why}", entry.path().display()),
        }
    }
}

/// CPU time of the calling thread, in seconds (Linux; 0 elsewhere): what
/// one solver call or one checker thread cost, whatever else shares the
/// machine.
pub fn thread_cpu_seconds() -> f64 {
    cpu_seconds(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// A time limit in CPU seconds of the thread that starts it. A solver's
/// terminator runs on the solver's own thread, so a cube or leaf starved by
/// a busy machine (a campaign at `nice` beside others) is stopped for the
/// time it solved, not for the time it waited for a core.
#[derive(Clone, Copy, Debug)]
pub struct CpuLimit {
    started: f64,
    seconds: f64,
}

impl CpuLimit {
    pub fn start(seconds: f64) -> CpuLimit {
        CpuLimit { started: thread_cpu_seconds(), seconds }
    }

    /// Whether this thread has spent the limit since `start`: ask it on
    /// the thread that started it (another thread's clock says nothing).
    pub fn spent(&self) -> bool {
        thread_cpu_seconds() - self.started > self.seconds
    }
}

/// CPU time of this process, every thread (Linux; 0 elsewhere).
pub fn process_cpu_seconds() -> f64 {
    cpu_seconds(libc::CLOCK_PROCESS_CPUTIME_ID)
}

fn cpu_seconds(clock: libc::clockid_t) -> f64 {
    // SAFETY: timespec is plain data, filled by the kernel.
    let mut t: libc::timespec = unsafe { std::mem::zeroed() };
    if unsafe { libc::clock_gettime(clock, &mut t) } != 0 {
        return 0.0;
    }
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

#[cfg(test)]
mod tests {
    use super::CpuLimit;

    /// The limit counts work, not waiting: a wall clock would call a
    /// 50 ms limit spent after 200 ms of sleep.
    #[test]
    fn a_cpu_limit_is_spent_by_work_not_by_waiting() {
        let limit = CpuLimit::start(0.05);
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(!limit.spent(), "200 ms of sleep spent a 50 ms CPU limit");
        let mut x = 0u64;
        while !limit.spent() {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}
