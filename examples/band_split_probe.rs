//! Probe: the report's lever made sound, for refutations (issue 37 item 4).
//! The claim "no level-K partial with penalty < B" split by where the
//! penalties lie: band edges (ring distance < D, rings from the boundary)
//! and inner ones (distance >= D). Cube j, j = 0..B-1: at most j inner
//! penalties and at most B-1-j band ones, each bound a sequential counter
//! over its edges in wedge order. The cubes cover the claim (a partial with
//! i inner and b <= B-1-i band penalties lies in cube i), so refuting every
//! cube refutes the claim. Each cube is solved untraced by its own CaDiCaL,
//! beside the monolithic formula (one wedge counter over all edges).
//!   cargo run --release --example band_split_probe -- N LEVEL BELOW D [mono|cubes|J1,J2,..]
//! Prints each solve's seconds and the process's user CPU.
//! PROBE_OPTIONS=stabilize=0,walk=0 sets CaDiCaL options.
mod probe;

use std::time::Instant;

use cadical_sys::Status;
use hexcert::encoding::restricted::edge_distance;
use hexcert::encoding::wedges::wedge_order;
use hexcert::encoding::{Cardinality, EncodeOptions, LevelEncoding, SymmetryBreaking};
use hexcert::geometry::Hexagon;

/// Solves the formula with the bounds `(inputs, bound)`; returns seconds.
fn solve(hex: &Hexagon, level: u8, bounds: &[(&[i32], usize)]) -> f64 {
    let options = EncodeOptions {
        max_penalty: None,
        cardinality: Cardinality::WedgeCounter,
        symmetry: SymmetryBreaking::Ring1LexLeader,
    };
    let mut encoding = LevelEncoding::new(hex, level, options);
    for &(inputs, bound) in bounds {
        Cardinality::WedgeCounter.encode_at_most(inputs, bound, &mut encoding.cnf);
    }
    let mut solver = probe::new_solver();
    probe::load(&mut solver, &encoding.cnf);
    let t = Instant::now();
    let status = solver.solve();
    assert!(matches!(status, Status::UNSATISFIABLE), "expected UNSAT");
    t.elapsed().as_secs_f64()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (n, level, below, d): (usize, u8, usize, usize) =
        (args[1].parse().unwrap(), args[2].parse().unwrap(), args[3].parse().unwrap(), args[4].parse().unwrap());
    let mode = args.get(5).map(String::as_str).unwrap_or("cubes");
    let hex = Hexagon::new(n).unwrap();
    // The penalty variables are the first ones after the cells' (the
    // encoder's layout), one per edge; read them from a throwaway encoding.
    let options = EncodeOptions {
        max_penalty: None,
        cardinality: Cardinality::WedgeCounter,
        symmetry: SymmetryBreaking::Ring1LexLeader,
    };
    let penalty = LevelEncoding::new(&hex, level, options).penalty_vars().to_vec();
    let order = wedge_order(&hex);
    let all: Vec<i32> = order.iter().map(|&e| penalty[e]).collect();
    let band: Vec<i32> = order.iter().filter(|&&e| edge_distance(&hex, e) < d).map(|&e| penalty[e]).collect();
    let inner: Vec<i32> = order.iter().filter(|&&e| edge_distance(&hex, e) >= d).map(|&e| penalty[e]).collect();
    println!("n {n} level {level} below {below} band {d}: {} band edges, {} inner", band.len(), inner.len());
    let opts = probe::options();
    if mode == "mono" {
        let s = solve(&hex, level, &[(&all, below - 1)]);
        println!("mono opts={opts} solve {s:.2} s user {:.2} s", probe::user_cpu());
        return;
    }
    let cubes: Vec<usize> = match mode {
        "cubes" => (0..below).collect(),
        list => list.split(',').map(|j| j.parse().unwrap()).collect(),
    };
    let mut sum = 0.0;
    for j in cubes {
        let s = solve(&hex, level, &[(&inner, j), (&band, below - 1 - j)]);
        sum += s;
        println!("cube j={j} (inner <= {j}, band <= {}) solve {s:.2} s", below - 1 - j);
    }
    println!("cubes opts={opts} sum {sum:.2} s user {:.2} s", probe::user_cpu());
}
