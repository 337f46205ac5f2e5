//! Probe: where a grid's penalty edges lie, by ring distance, and which
//! centre placements it holds up to symmetry: what `hexcert search` members
//! (band d, inner allowance x, centre placement) can find it.
//!   cargo run --release --example ring_profile -- GRID_FILE [LEVEL]
//! Duplicate support is charged to all but the farthest-in supporter (the
//! charging that leaves fewest penalties inside a band).
use std::collections::BTreeMap;
use std::path::Path;

use hexcert::formats::read_grid_file;
use hexcert::geometry::Hexagon;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = read_grid_file(Path::new(&args[1]), None).expect("grid file");
    let level: u8 = args.get(2).map_or(5, |l| l.parse().unwrap());
    let partial = file.partial.truncate(level).unwrap();
    let n = partial.side();
    let hex = Hexagon::new(n).unwrap();
    let values = partial.values();
    let dist = |u: usize, v: usize| hex.ring(u) + hex.ring(v);
    let mut equal = BTreeMap::<usize, usize>::new();
    let mut dup = BTreeMap::<usize, usize>::new();
    for &(u, v) in hex.edges() {
        if values[u] == values[v] && !partial.is_plus(u) {
            *equal.entry(dist(u, v)).or_default() += 1;
        }
    }
    for cell in 0..hex.cell_count() {
        for a in 1..values[cell] {
            let mut ds: Vec<usize> = hex.neighbours(cell).iter().filter(|&&u| values[u] == a).map(|&u| dist(u, cell)).collect();
            ds.sort_unstable();
            ds.pop();
            for d in ds {
                *dup.entry(d).or_default() += 1;
            }
        }
    }
    let total: usize = equal.values().sum::<usize>() + dup.values().sum::<usize>();
    println!("n = {n}, level-{level} penalty {total}");
    println!("equal-value penalties by distance: {equal:?}");
    println!("duplicate-support penalties by distance (farthest-in supporter useful): {dup:?}");
    for d in 3..=6 {
        let inner: usize = equal.range(d..).map(|x| x.1).sum::<usize>() + dup.range(d..).map(|x| x.1).sum::<usize>();
        println!("band {d}: {} inside the band, {inner} at distance >= {d}", total - inner);
    }
    let placements = [("at-centre", [(0, 0, 0), (1, 2, -3)]), ("beside-centre", [(1, -1, 0), (-1, 2, -1)])];
    for (name, ones) in placements {
        let holds: Vec<usize> = hex
            .symmetries()
            .iter()
            .enumerate()
            .filter(|(_, perm)| ones.iter().all(|&c| hex.cell_at_cube(c).is_some_and(|cell| values[perm[cell]] == 1)))
            .map(|(i, _)| i)
            .collect();
        println!("{name}: held under symmetries {holds:?}");
    }
    let near: Vec<(i32, i32, i32)> = (0..hex.cell_count()).filter(|&c| values[c] == 1 && hex.ring(c) + 2 >= n).map(|c| hex.cube(c)).collect();
    println!("1-cells within distance 2 of the centre: {near:?}");
}
