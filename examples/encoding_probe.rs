//! Probe: one claim's ring-1 lex-leader formula, its penalty bound encoded
//! over the penalty variables in a chosen order or by a chosen encoding,
//! solved untraced by one CaDiCaL. Prints the solve's seconds and the
//! process's user CPU, for paired comparisons of encoding variants.
//!   cargo run --release --example encoding_probe -- N LEVEL BELOW ORDER [CARD]
//! ORDER: `rows` (edge index order, what `encode` writes), `inside-out`
//! (by ring from the centre, then by angle), `outside-in`, `sectors` (by
//! angle around the centre, then by ring). CARD: `seq` (default) or `tot`.
//! PROBE_OPTIONS=stabilize=0,walk=0 sets CaDiCaL options.
mod probe;

use std::time::Instant;

use cadical_sys::Status;
use hexcert::encoding::{Cardinality, EncodeOptions, LevelEncoding, SymmetryBreaking};
use hexcert::geometry::Hexagon;

/// A cell's centre in the plane, the hexagon's centre at the origin.
fn point(hex: &Hexagon, cell: usize) -> (f64, f64) {
    let (x, y, _) = hex.cube(cell);
    (x as f64 + y as f64 / 2.0, y as f64 * 3f64.sqrt() / 2.0)
}

/// Angle of a point around the centre in [0, 2 pi).
fn angle_of((px, py): (f64, f64)) -> f64 {
    let a = py.atan2(px);
    if a < 0.0 {
        a + std::f64::consts::TAU
    } else {
        a
    }
}

fn angle(hex: &Hexagon, cell: usize) -> f64 {
    angle_of(point(hex, cell))
}

fn edge_order(hex: &Hexagon, order: &str) -> Vec<usize> {
    let edges = hex.edges();
    let key = |e: usize| {
        let (u, v) = edges[e];
        let depth = hex.ring(u).min(hex.ring(v)) as f64; // n at the centre
        let turn = (angle(hex, u) + angle(hex, v)) / 2.0;
        (depth, turn)
    };
    let mut ids: Vec<usize> = (0..edges.len()).collect();
    match order {
        "rows" => {}
        "inside-out" => ids.sort_by(|&a, &b| {
            let (ka, kb) = (key(a), key(b));
            kb.0.partial_cmp(&ka.0).unwrap().then(ka.1.partial_cmp(&kb.1).unwrap())
        }),
        "outside-in" => ids.sort_by(|&a, &b| {
            let (ka, kb) = (key(a), key(b));
            ka.0.partial_cmp(&kb.0).unwrap().then(ka.1.partial_cmp(&kb.1).unwrap())
        }),
        "wedges" => {
            // By the angle of the edge's midpoint, then outwards.
            let mid = |e: usize| {
                let (a, b) = (point(hex, edges[e].0), point(hex, edges[e].1));
                ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
            };
            let k = |e: usize| {
                let m = mid(e);
                (angle_of(m), m.0.hypot(m.1))
            };
            ids.sort_by(|&a, &b| k(a).partial_cmp(&k(b)).unwrap())
        }
        "sectors" => ids.sort_by(|&a, &b| {
            let (ka, kb) = (key(a), key(b));
            ka.1.partial_cmp(&kb.1).unwrap().then(kb.0.partial_cmp(&ka.0).unwrap())
        }),
        other => panic!("unknown order {other}"),
    }
    ids
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (n, level, below): (usize, u8, usize) =
        (args[1].parse().unwrap(), args[2].parse().unwrap(), args[3].parse().unwrap());
    let order = args.get(4).map(String::as_str).unwrap_or("rows");
    let card = match args.get(5).map(String::as_str).unwrap_or("seq") {
        "seq" => Cardinality::SequentialCounter,
        "tot" => Cardinality::Totalizer,
        other => panic!("unknown cardinality {other}"),
    };
    let hex = Hexagon::new(n).unwrap();
    let options = EncodeOptions { max_penalty: None, cardinality: card, symmetry: SymmetryBreaking::Ring1LexLeader };
    let mut encoding = LevelEncoding::new(&hex, level, options);
    let pen: Vec<i32> = edge_order(&hex, order).into_iter().map(|e| encoding.penalty_vars()[e]).collect();
    card.encode_at_most(&pen, below - 1, &mut encoding.cnf);
    let mut solver = probe::new_solver();
    probe::load(&mut solver, &encoding.cnf);
    let t = Instant::now();
    let status = solver.solve();
    assert!(matches!(status, Status::UNSATISFIABLE), "expected UNSAT");
    println!(
        "{n} {level} {below} {order} {} opts={} solve {:.2} s user {:.2} s",
        card.name(),
        probe::options(),
        t.elapsed().as_secs_f64(),
        probe::user_cpu()
    );
}
