//! Probe: one cube of a stored plan solved untraced (profile hexcert-2), with
//! or without lex-leader constraints for the symmetries that fix the cube's
//! projection (its stabiliser) over a tail key past the split cells.
//!   cargo run --release --example stabiliser_probe -- PLAN INDEX none|ring1|ring2|ring12|ring23
//! ring1: the split's ring-1 cells' full values (index order); ring2: the 12
//! cells at distance 2 (index order); ring12 both; ring23 rings 2 and 3.
//! Prints the stabiliser's order, solve seconds and process CPU seconds.
use std::time::Instant;

use cadical_sys::{CaDiCal, Status};
use hexcert::cubes::{Plan, Split};
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
    let mode = args[3].as_str();
    let hex = Hexagon::new(plan.n).unwrap();
    let enc = plan.encoding().unwrap();
    let cube = &plan.cubes[index];
    let split = Split::new(&hex, plan.level, plan.radius, cube.depth).unwrap();
    let k = plan.level as usize;
    let distance = |c: usize| plan.n - hex.ring(c);
    let ring = |r: usize| (0..hex.cell_count()).filter(move |&c| distance(c) == r);
    let key: Vec<usize> = match mode {
        "none" => vec![],
        "ring1" => ring(1).collect(),
        "ring2" => ring(2).collect(),
        "ring12" => ring(1).chain(ring(2)).collect(),
        "ring23" => ring(2).chain(ring(3)).collect(),
        other => panic!("unknown mode {other}"),
    };
    let symmetries = hex.symmetries();
    let stabiliser: Vec<&Vec<usize>> =
        symmetries.iter().enumerate().skip(1).filter(|(g, _)| split.image(*g, &cube.values) == cube.values).map(|(_, p)| p).collect();
    let ge = |c: usize, j: usize| enc.ge_var(c, j);
    let eq = |c: usize, a: usize| if a == k + 1 { enc.ge_var(c, k + 1) } else { enc.eq_literal(c, a) };
    let mut extra: Vec<Vec<i32>> = Vec::new();
    let mut next = enc.cnf.num_vars() as i32 + 1;
    for perm in &stabiliser {
        let pairs: Vec<(usize, usize)> = key.iter().map(|&c| (c, perm[c])).filter(|(c, i)| c != i).collect();
        let mut equal: Option<i32> = None;
        for (i, &(x, y)) in pairs.iter().enumerate() {
            let guard: Vec<i32> = equal.map(|e| -e).into_iter().collect();
            for j in 2..=k + 1 {
                extra.push([guard.as_slice(), &[-ge(x, j), ge(y, j)]].concat());
            }
            if i + 1 == pairs.len() {
                break;
            }
            let e = next;
            next += 1;
            for a in 1..=k + 1 {
                extra.push([guard.as_slice(), &[-eq(x, a), -eq(y, a), e]].concat());
            }
            equal = Some(e);
        }
    }
    let mut solver = CaDiCal::new();
    for (name, value) in [("stabilize", 0), ("walk", 0)] {
        assert!(solver.set(name, value));
    }
    for clause in enc.cnf.clauses().iter().chain(&extra) {
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
        "n{} L{} <{} cube {index} {:?} {:?} stabiliser {} lex {mode} ({} clauses): solve {:.2} s, cpu {:.2} s",
        plan.n,
        plan.level,
        plan.below,
        cube.values,
        cube.literals,
        stabiliser.len() + 1,
        extra.len(),
        t.elapsed().as_secs_f64(),
        cpu_seconds() - cpu
    );
}
