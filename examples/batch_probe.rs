//! Probe: a plan's cubes solved one after another by ONE CaDiCaL under
//! assumptions (learned clauses kept from cube to cube), against a fresh
//! solver per cube. No proof; prints per-cube seconds and the total.
//!   cargo run --release --example batch_probe -- PLAN [batch|fresh|units|mono] [reverse]
//! `fresh`: a new solver per cube under assumptions; `units`: the cube as unit clauses.
//! `mono` solves the claim whole (the ring-1 lex-leader formula) instead.
//! PROBE_OPTIONS=stabilize=0,walk=0 sets CaDiCaL options on every solver.
mod probe;

use std::time::Instant;

use cadical_sys::Status;
use hexcert::cubes::Plan;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let plan = Plan::read(std::path::Path::new(&args[1])).unwrap();
    let mode = args.get(2).map(String::as_str).unwrap_or("batch");
    let fresh = mode == "fresh" || mode == "units";
    let reverse = args.get(3).is_some_and(|m| m == "reverse");
    let encoding = plan.encoding().unwrap();
    let split = plan.split().unwrap();
    let mut order: Vec<usize> = (0..plan.cubes.len()).collect();
    if reverse {
        order.reverse();
    }
    if args.get(2).is_some_and(|m| m == "mono") {
        // The claim whole: the plain formula with the ring-1 lex-leader, as `prove` solves it.
        let options = hexcert::encoding::EncodeOptions {
            symmetry: hexcert::encoding::SymmetryBreaking::Ring1LexLeader,
            ..encoding.options
        };
        let whole = hexcert::encoding::LevelEncoding::new(
            &hexcert::geometry::Hexagon::new(plan.n).unwrap(),
            plan.level,
            options,
        );
        let t = Instant::now();
        let mut solver = probe::new_solver();
        probe::load(&mut solver, &whole.cnf);
        assert!(matches!(solver.solve(), Status::UNSATISFIABLE));
        println!("total {:.2} s (mono)", t.elapsed().as_secs_f64());
        return;
    }
    let start = Instant::now();
    let mut shared = probe::new_solver();
    probe::load(&mut shared, &encoding.cnf);
    for i in order {
        let units = plan.cubes[i].units(&encoding, &split);
        let t = Instant::now();
        let status = if fresh {
            let mut solver = probe::new_solver();
            probe::load(&mut solver, &encoding.cnf);
            for &l in &units {
                // `units`: the cube as unit clauses, as `cubes run` solves it.
                if mode == "units" {
                    solver.add(l);
                    solver.add(0);
                } else {
                    solver.assume(l);
                }
            }
            solver.solve()
        } else {
            for &l in &units {
                shared.assume(l);
            }
            shared.solve()
        };
        assert!(matches!(status, Status::UNSATISFIABLE));
        println!("cube {i:3} {:8.2} s", t.elapsed().as_secs_f64());
    }
    println!("total {:.2} s ({})", start.elapsed().as_secs_f64(), mode);
}
