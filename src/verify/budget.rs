//! One memory budget for all the encodings a `check` holds at once.
//!
//! `records::ranges::check_encoding_budget` refuses a claim whose formula,
//! counted as many times as its check holds it, would pass
//! `options::ENCODING_BUDGET_MB`; but `check` judges claims on every
//! core at once, and a cube claim holds its formula several times over (the
//! plain formula, the split formula's DIMACS, the lifted checker's copy, the
//! cube formula), so the budget has to bound the sum of what is held. Each
//! check reserves its share before it encodes and gives it back when done;
//! a check that does not fit waits for the others.

use std::sync::{Condvar, Mutex};

use crate::records::ranges::encoding_estimate_mb;

const ENCODING_BUDGET_MB: u64 = crate::options::ENCODING_BUDGET_MB.default;

static HELD_MB: Mutex<u64> = Mutex::new(0);
static RELEASED: Condvar = Condvar::new();

/// A share of the budget, given back when dropped.
#[must_use = "the share is given back when this is dropped"]
pub struct Reservation(u64);

/// Reserves what re-encoding "level `level` below `below`" of side `n`
/// holds, `copies` times over; waits while other checks hold too much. A
/// share larger than the whole budget waits until it is alone.
pub fn reserve(n: usize, level: u8, below: usize, copies: u64) -> Reservation {
    reserve_mb(encoding_estimate_mb(n, level, below).saturating_mul(copies).max(1))
}

fn reserve_mb(mb: u64) -> Reservation {
    let mut held = HELD_MB.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    while *held > 0 && *held + mb > ENCODING_BUDGET_MB {
        held = RELEASED.wait(held).unwrap_or_else(|poisoned| poisoned.into_inner());
    }
    *held += mb;
    Reservation(mb)
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut held = HELD_MB.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *held -= self.0;
        RELEASED.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    /// Shares that together pass the budget are never held at once, and a
    /// share over the whole budget is still granted, alone.
    #[test]
    fn shares_held_at_once_stay_within_the_budget() {
        let (now, most) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let sizes =
            [ENCODING_BUDGET_MB / 2 + 1, ENCODING_BUDGET_MB / 3, ENCODING_BUDGET_MB * 2, 7, ENCODING_BUDGET_MB / 2 + 1];
        let workers: Vec<_> = sizes
            .into_iter()
            .cycle()
            .take(20)
            .map(|mb| {
                let (now, most) = (Arc::clone(&now), Arc::clone(&most));
                std::thread::spawn(move || {
                    let share = reserve_mb(mb);
                    let total = now.fetch_add(mb, Ordering::SeqCst) + mb;
                    most.fetch_max(if mb > ENCODING_BUDGET_MB { total - mb } else { total }, Ordering::SeqCst);
                    if mb > ENCODING_BUDGET_MB {
                        assert_eq!(total, mb, "an oversized share was granted beside others");
                    }
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    now.fetch_sub(mb, Ordering::SeqCst);
                    drop(share);
                })
            })
            .collect();
        workers.into_iter().for_each(|w| w.join().unwrap());
        assert!(most.load(Ordering::SeqCst) <= ENCODING_BUDGET_MB, "{} MB held at once", most.load(Ordering::SeqCst));
    }
}
