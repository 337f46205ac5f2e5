//! What the solver probes share: a CaDiCaL with `PROBE_OPTIONS` set, a
//! formula loaded into it, and the process's user CPU, so that paired
//! figures from different probes are taken the same way.
#![allow(dead_code)] // each probe uses part of it

use cadical_sys::CaDiCal;

/// `PROBE_OPTIONS` as given (`name=value,...`), for the printed line.
pub fn options() -> String {
    std::env::var("PROBE_OPTIONS").unwrap_or_default()
}

/// A solver with the options of `PROBE_OPTIONS` set.
pub fn new_solver() -> CaDiCal {
    new_solver_over(&[])
}

/// A solver with `base` set, then the options of `PROBE_OPTIONS` on top.
pub fn new_solver_over(base: &[(&str, i32)]) -> CaDiCal {
    let mut solver = CaDiCal::new();
    for &(name, value) in base {
        assert!(solver.set(name, value), "CaDiCaL rejects {name}={value}");
    }
    for option in options().split(',').filter(|o| !o.is_empty()) {
        let (name, value) = option.split_once('=').expect("PROBE_OPTIONS holds name=value pairs");
        assert!(solver.set(name, value.parse().unwrap()), "CaDiCaL rejects {option}");
    }
    solver
}

/// Adds every clause of `cnf` to `solver`.
pub fn load(solver: &mut CaDiCal, cnf: &hexcert::formula::Cnf) {
    for clause in cnf.clauses() {
        clause.iter().for_each(|&l| solver.add(l));
        solver.add(0);
    }
}

/// The process's user CPU seconds so far.
pub fn user_cpu() -> f64 {
    // SAFETY: getrusage writes into the struct we own.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_utime.tv_sec as f64 + usage.ru_utime.tv_usec as f64 / 1e6
}
