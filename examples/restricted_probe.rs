//! Probe: one member of the grid search (band, inner allowance, centre
//! placement) solved once by CaDiCaL with a chosen configuration and
//! initial phases, to measure what speeds finding a model.
//!   cargo run --release --example restricted_probe -- N LEVEL BOUND BAND X CENTRE PHASES CONFIG SECONDS
//! CENTRE: at-centre | beside-centre | none. PHASES: default | tiling (the
//! 7-colouring (x + 3y) mod 7 with the placement's 1-cells as class 1,
//! value 1 + class offset) | ones (only the 1-cells of that tiling).
//! CONFIG: default | sat | plain (CaDiCaL's configurations).
mod probe;

use std::time::Instant;

use cadical_sys::{CaDiCal, Status};
use hexcert::encoding::restricted::{Centre, RestrictedEncoding, Restrictions};
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;
use hexcert::validation::evaluate;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: usize = a[1].parse().unwrap();
    let level: u8 = a[2].parse().unwrap();
    let bound: usize = a[3].parse().unwrap();
    let band: usize = a[4].parse().unwrap();
    let inner: usize = a[5].parse().unwrap();
    let centre = match a[6].as_str() {
        "at-centre" => Some(Centre::AtCentre),
        "beside-centre" => Some(Centre::BesideCentre),
        _ => None,
    };
    let hex = Hexagon::new(n).unwrap();
    let enc =
        RestrictedEncoding::new(&hex, level, bound, Restrictions { band, inner, centre, singles: Default::default() })
            .unwrap();
    let mut solver = CaDiCal::new();
    if a[8] != "default" {
        assert!(solver.configure(&a[8]), "configuration {}", a[8]);
    }
    let seconds: f64 = a[9].parse().unwrap();
    for clause in enc.encoding.cnf.clauses() {
        for &l in clause {
            solver.add(l);
        }
        solver.add(0);
    }
    let class = |(x, y, _): (i32, i32, i32)| (x + 3 * y).rem_euclid(7);
    let c0 = class(match centre {
        Some(Centre::BesideCentre) => (1, -1, 0),
        _ => (0, 0, 0),
    });
    if a[7] != "default" {
        let plus = level + 1;
        let values: Vec<u8> = (0..hex.cell_count())
            .map(|c| {
                let v = 1 + (class(hex.cube(c)) - c0).rem_euclid(7) as u8;
                if a[7] == "ones" {
                    if v == 1 {
                        1
                    } else {
                        plus
                    }
                } else {
                    v.min(plus)
                }
            })
            .collect();
        let tiling = Partial::new(n, level, values).unwrap();
        for l in enc.encoding.hint_literals(&tiling) {
            solver.phase(l);
        }
    }
    let start = Instant::now();
    struct Stop(Instant, f64);
    impl cadical_sys::Terminator for Stop {
        fn terminated(&mut self) -> bool {
            self.0.elapsed().as_secs_f64() > self.1
        }
    }
    solver.connect_terminator(Stop(start, seconds));
    let status = solver.solve();
    let wall = start.elapsed().as_secs_f64();
    match status {
        Status::SATISFIABLE => {
            let model: Vec<bool> =
                (0..=enc.encoding.cnf.num_vars() as i32).map(|v| v > 0 && solver.val(v) > 0).collect();
            let partial = enc.encoding.decode(&model);
            let full = if level >= 4 {
                hexcert::counting::cheapest_completion(&hex, &partial).unwrap()
            } else {
                partial.clone()
            };
            let e = evaluate(&hex, &full);
            println!(
                "SAT level-{level} {} full {} valid {} wall {wall:.1} cpu {:.1}",
                evaluate(&hex, &partial).penalty,
                e.penalty,
                e.is_valid(),
                probe::user_cpu()
            );
            println!("{}", hexcert::formats::to_hexcert_text(&full));
        }
        Status::UNSATISFIABLE => println!("UNSAT wall {wall:.1} cpu {:.1}", probe::user_cpu()),
        _ => println!("UNKNOWN (stopped) wall {wall:.1} cpu {:.1}", probe::user_cpu()),
    }
}
