//! A time limit for one query of `certify`: the flag the solver polls,
//! raised by Ctrl-C or when the query has run whole for its time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// An abort flag for one query: raised by Ctrl-C (the outer flag) or once
/// `seconds` have passed, whichever comes first.
pub struct Deadline {
    /// Raised when the query must stop.
    pub flag: Arc<AtomicBool>,
    expired: Arc<AtomicBool>,
    done: Arc<AtomicBool>,
    watcher: std::thread::JoinHandle<()>,
}

impl Deadline {
    pub fn start(outer: &Arc<AtomicBool>, seconds: f64) -> Deadline {
        let (flag, expired, done) =
            (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
        let (outer, f, e, d) = (Arc::clone(outer), Arc::clone(&flag), Arc::clone(&expired), Arc::clone(&done));
        let start = Instant::now();
        let watcher = std::thread::spawn(move || {
            while !d.load(Ordering::Relaxed) {
                if outer.load(Ordering::Relaxed) {
                    f.store(true, Ordering::Relaxed);
                    return;
                }
                if start.elapsed().as_secs_f64() > seconds {
                    e.store(true, Ordering::Relaxed);
                    f.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        });
        Deadline { flag, expired, done, watcher }
    }

    /// Ends the watch; true when the time ran out (not Ctrl-C).
    pub fn stop(self) -> bool {
        self.done.store(true, Ordering::Relaxed);
        let _ = self.watcher.join();
        self.expired.load(Ordering::Relaxed)
    }
}
