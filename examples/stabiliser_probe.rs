//! Probe: one cube of a stored plan solved untraced (profile hexcert-2), on
//! the plan's formula as it is, or with a tie-break added (`cubes plan
//! --tie-break`: lex-leader clauses over the split's readings and then the
//! next ring, which inside the cube constrain only the symmetries fixing its
//! projection, its stabiliser).
//!   cargo run --release --example stabiliser_probe -- PLAN INDEX none|next-ring
//! Prints the stabiliser's order, solve seconds and process CPU seconds.
//! PROBE_OPTIONS=name=value,... sets further CaDiCaL options after the profile's.
use std::time::Instant;

use cadical_sys::{CaDiCal, Status};
use hexcert::cubes::{Plan, Split};
use hexcert::encoding::TieBreak;
use hexcert::geometry::Hexagon;

fn cpu_seconds() -> f64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_utime.tv_sec as f64 + usage.ru_utime.tv_usec as f64 * 1e-6
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let plan = Plan::read(std::path::Path::new(&args[1])).unwrap();
    let index: usize = args[2].parse().unwrap();
    let tie_break = match args[3].as_str() {
        "none" => TieBreak::None,
        "next-ring" => TieBreak::NextRing,
        other => panic!("unknown tie-break {other}"),
    };
    let hex = Hexagon::new(plan.n).unwrap();
    let plan = plan.with_tie_break(tie_break).unwrap();
    let enc = plan.encoding().unwrap();
    let cube = &plan.cubes[index];
    let split = Split::new(&hex, plan.level, plan.radius, cube.depth).unwrap();
    let stabiliser = (0..12).filter(|&g| split.image(g, &cube.values) == cube.values).count();
    let mut solver = CaDiCal::new();
    for (name, value) in [("stabilize", 0), ("walk", 0)] {
        assert!(solver.set(name, value));
    }
    let extra = std::env::var("PROBE_OPTIONS").unwrap_or_default();
    for option in extra.split(',').filter(|o| !o.is_empty()) {
        let (name, value) = option.split_once('=').expect("PROBE_OPTIONS holds name=value pairs");
        assert!(solver.set(name, value.parse().unwrap()), "CaDiCaL rejects {option}");
    }
    for clause in enc.cnf.clauses() {
        clause.iter().for_each(|&l| solver.add(l));
        solver.add(0);
    }
    for u in cube.units(&enc, &split) {
        solver.add(u);
        solver.add(0);
    }
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let status = solver.solve();
    assert!(matches!(status, Status::UNSATISFIABLE), "expected UNSAT");
    println!(
        "n{} L{} <{} cube {index} {:?} {:?} stabiliser {stabiliser} tie-break {} options [{extra}] ({} clauses): solve {:.2} s, cpu {:.2} s",
        plan.n,
        plan.level,
        plan.below,
        cube.values,
        cube.literals,
        tie_break.name(),
        enc.cnf.clauses().len(),
        t.elapsed().as_secs_f64(),
        cpu_seconds() - cpu
    );
}
