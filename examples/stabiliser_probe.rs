//! Probe: one cube of a stored plan solved untraced (profile hexcert-2), on
//! the plan's formula as it is, or with a tie-break added (`cubes plan
//! --tie-break`: lex-leader clauses over the split's readings and then the
//! next ring, which inside the cube constrain only the symmetries fixing its
//! projection, its stabiliser).
//!   cargo run --release --example stabiliser_probe -- PLAN INDEX none|next-ring
//! Prints the stabiliser's order, solve seconds and process CPU seconds.
//! PROBE_OPTIONS=name=value,... sets further CaDiCaL options after the profile's.
mod probe;

use std::time::Instant;

use cadical_sys::Status;
use hexcert::cubes::{Plan, Split};
use hexcert::encoding::TieBreak;
use hexcert::geometry::Hexagon;

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
    let mut solver = probe::new_solver_over(&[("stabilize", 0), ("walk", 0)]);
    probe::load(&mut solver, &enc.cnf);
    for u in cube.units(&enc, &split) {
        solver.add(u);
        solver.add(0);
    }
    let (t, cpu) = (Instant::now(), probe::user_cpu());
    let status = solver.solve();
    assert!(matches!(status, Status::UNSATISFIABLE), "expected UNSAT");
    println!(
        "n{} L{} <{} cube {index} {:?} {:?} stabiliser {stabiliser} tie-break {} options [{}] ({} clauses): solve {:.2} s, cpu {:.2} s",
        plan.n,
        plan.level,
        plan.below,
        cube.values,
        cube.literals,
        tie_break.name(),
        probe::options(),
        enc.cnf.clauses().len(),
        t.elapsed().as_secs_f64(),
        probe::user_cpu() - cpu
    );
}
