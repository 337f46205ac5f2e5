//! Probe: the claim's cube "centre 1, every centre neighbour above 1" (its
//! projection is fixed by all 12 symmetries, so orbit cubes break none of
//! them) solved untraced with no symmetry breaking, with the lex-leader on
//! ring 1's values, or with the lex-leader on rings 1 and 2.
//!   cargo run --release --example symmetric_cube_probe -- N LEVEL BELOW none|ring1|ring12
//! PROBE_OPTIONS=stabilize=0,walk=0 sets CaDiCaL options.
use std::time::Instant;

use cadical_sys::{CaDiCal, Status};
use hexcert::encoding::{EncodeOptions, LevelEncoding, SymmetryBreaking};
use hexcert::geometry::Hexagon;

/// Cells at ring distance `r` from the centre, in angular order.
fn ring_cells(hex: &Hexagon, r: i32) -> Vec<usize> {
    let dirs = [(1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1)];
    let mut cells = Vec::new();
    let mut at = (dirs[4].0 * r, dirs[4].1 * r, dirs[4].2 * r);
    for d in dirs {
        for _ in 0..r {
            cells.push(hex.cell_at_cube(at).unwrap());
            at = (at.0 + d.0, at.1 + d.1, at.2 + d.2);
        }
    }
    cells
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (n, level, below): (usize, u8, usize) =
        (args[1].parse().unwrap(), args[2].parse().unwrap(), args[3].parse().unwrap());
    let mode = args[4].as_str();
    let hex = Hexagon::new(n).unwrap();
    let enc =
        LevelEncoding::new(&hex, level, EncodeOptions { max_penalty: Some(below - 1), ..EncodeOptions::bounded(None) });
    let _ = SymmetryBreaking::None;
    let k = level as usize;
    let centre = hex.centre();
    let ring1 = ring_cells(&hex, 1);
    let mut units = vec![-enc.ge_var(centre, 2)];
    units.extend(ring1.iter().map(|&c| enc.ge_var(c, 2)));
    let key: Vec<usize> = match mode {
        "none" => vec![],
        "ring1" => ring1.clone(),
        "ring12" => ring1.iter().copied().chain(ring_cells(&hex, 2)).collect(),
        "ring2" => ring_cells(&hex, 2),
        other => panic!("unknown mode {other}"),
    };
    let ge = |c: usize, j: usize| enc.ge_var(c, j);
    let eq = |c: usize, a: usize| if a == k + 1 { enc.ge_var(c, k + 1) } else { enc.eq_literal(c, a) };
    let mut extra: Vec<Vec<i32>> = Vec::new();
    let mut next = enc.cnf.num_vars() as i32 + 1;
    for perm in hex.symmetries().iter().skip(1) {
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
    for option in std::env::var("PROBE_OPTIONS").unwrap_or_default().split(',').filter(|o| !o.is_empty()) {
        let (name, value) = option.split_once('=').unwrap();
        assert!(solver.set(name, value.parse().unwrap()));
    }
    for clause in enc.cnf.clauses().iter().chain(&extra) {
        clause.iter().for_each(|&l| solver.add(l));
        solver.add(0);
    }
    for u in units {
        solver.add(u);
        solver.add(0);
    }
    let t = Instant::now();
    let status = solver.solve();
    assert!(matches!(status, Status::UNSATISFIABLE), "expected UNSAT");
    println!("{n} {level} {below} symmetric cube, lex {mode}: solve {:.2} s", t.elapsed().as_secs_f64());
}
