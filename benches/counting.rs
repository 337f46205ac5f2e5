//! Criterion benchmarks of the counting hot paths: the frontier sweep at
//! levels 1..4 (lower-level tables included) and the chain-and-cycle counts
//! at levels 5 and 6, at the known minimum penalty (found by the library, not
//! hard-coded), for sides small enough to sample repeatedly.
//!
//! Run: `CARGO_TARGET_DIR=/work/target-counting cargo bench --bench counting`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use hexcert::counting::{Count, Layers, Method, CountSettings};
use hexcert::geometry::Hexagon;

fn counts_at_the_minimum(c: &mut Criterion) {
    let mut group = c.benchmark_group("count_by_penalty");
    group.sample_size(10);
    for n in [5usize, 6] {
        let hex = Hexagon::new(n).expect("valid side");
        let minimum = Count::new(&hex, 4).minimum().expect("minimum");
        for level in 1..=6u8 {
            let bound = if level <= 4 {
                Count::new(&hex, level).minimum().expect("minimum")
            } else {
                minimum
            };
            group.bench_with_input(
                BenchmarkId::new(format!("n{n}"), format!("level{level}")),
                &(level, bound),
                |b, &(level, bound)| b.iter(|| Count::new(&hex, level).by_penalty(bound).expect("counts")),
            );
        }
    }
    group.finish();
}

/// The sweep's inner loop both ways, side by side: the cost-to-finish tables
/// and the sweep in hash maps on one core (`Hashed`, the reference) against
/// compact sorted layers on every core (`Sorted`), at the level-2 and level-3
/// minima of n = 7 (the level-1 and level-2 tables are built inside).
fn layers_side_by_side(c: &mut Criterion) {
    let mut group = c.benchmark_group("layers");
    group.sample_size(10);
    let hex = Hexagon::new(7).expect("valid side");
    for level in [2u8, 3] {
        let bound = Count::new(&hex, level).minimum().expect("minimum");
        for (name, layers) in [("hashed", Layers::Hashed), ("sorted", Layers::default())] {
            group.bench_with_input(BenchmarkId::new(format!("n7-level{level}"), name), &layers, |b, &layers| {
                b.iter(|| Count::new(&hex, level).with_method(Method::Frontier).with_settings(CountSettings::from(layers)).by_penalty(bound).expect("counts"))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, counts_at_the_minimum, layers_side_by_side);
criterion_main!(benches);
