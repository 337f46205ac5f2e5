//! The verifier queue: tasks run in submission order, a failure stops every
//! later task (so no optimum is recorded on top of a rejected proof), and
//! after Ctrl-C queued tasks are dropped unrun.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use hexcert::certify::check_queue::Verifier;
use hexcert::HexError;

fn recorder(verifier: &Verifier, log: &Arc<Mutex<Vec<usize>>>, i: usize, fail: bool) {
    let log = Arc::clone(log);
    verifier.submit(Box::new(move || {
        std::thread::sleep(std::time::Duration::from_millis(2));
        log.lock().unwrap().push(i);
        if fail {
            Err(HexError::Internal(format!("task {i} failed")))
        } else {
            Ok(())
        }
    }));
}

#[test]
fn tasks_run_in_submission_order() {
    let verifier = Verifier::start(Arc::new(AtomicBool::new(false)));
    let log = Arc::new(Mutex::new(Vec::new()));
    for i in 0..20 {
        recorder(&verifier, &log, i, false);
    }
    verifier.wait();
    assert_eq!(verifier.pending(), 0);
    verifier.finish().unwrap();
    assert_eq!(*log.lock().unwrap(), (0..20).collect::<Vec<_>>());
}

#[test]
fn a_failure_skips_every_later_task_and_is_returned() {
    let verifier = Verifier::start(Arc::new(AtomicBool::new(false)));
    let log = Arc::new(Mutex::new(Vec::new()));
    for i in 0..6 {
        recorder(&verifier, &log, i, i == 2);
    }
    verifier.wait();
    assert!(verifier.failure().unwrap().contains("task 2 failed"));
    let error = verifier.finish().unwrap_err();
    assert!(error.to_string().contains("task 2 failed"), "{error}");
    assert_eq!(*log.lock().unwrap(), vec![0, 1, 2]);
}

#[test]
fn after_an_interrupt_queued_tasks_do_not_run() {
    let abort = Arc::new(AtomicBool::new(false));
    let verifier = Verifier::start(Arc::clone(&abort));
    let log = Arc::new(Mutex::new(Vec::new()));
    recorder(&verifier, &log, 0, false);
    verifier.wait();
    abort.store(true, Ordering::Relaxed);
    for i in 1..5 {
        recorder(&verifier, &log, i, false);
    }
    assert!(matches!(verifier.finish(), Err(HexError::Interrupted)));
    assert_eq!(*log.lock().unwrap(), vec![0]);
}
