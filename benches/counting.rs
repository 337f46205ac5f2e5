//! Criterion benchmarks of the counting hot paths: the frontier sweep at
//! levels 1..4 (lower-level tables included), the chain-and-cycle counts
//! at levels 5 and 6, and the lift of level-3 partials to levels 4..6, at the
//! known minimum penalty (found by the library, not hard-coded), for sides
//! small enough to sample repeatedly.
//!
//! Run: `CARGO_TARGET_DIR=/work/target-counting cargo bench --bench counting`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use hexcert::counting::{extended_from_listed, Count, CountSettings, Layers, Method};
use hexcert::geometry::Hexagon;
use hexcert::levels::Partial;

fn counts_at_the_minimum(c: &mut Criterion) {
    let mut group = c.benchmark_group("count_by_penalty");
    group.sample_size(10);
    for n in [5usize, 6] {
        let hex = Hexagon::new(n).expect("valid side");
        let minimum = Count::new(&hex, 4).minimum().expect("minimum");
        for level in 1..=6u8 {
            let bound = if level <= 4 { Count::new(&hex, level).minimum().expect("minimum") } else { minimum };
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
                b.iter(|| {
                    Count::new(&hex, level)
                        .with_method(Method::Frontier)
                        .with_settings(CountSettings::from(layers))
                        .by_penalty(bound)
                        .expect("counts")
                })
            });
        }
    }
    group.finish();
}

/// The lift (`count --road extension --from-listing`'s program) of every
/// level-3 partial of n = 8 up to one above level 6's minimum (listed by the
/// sweep outside the timing) to levels 4, 5 and 6: the flags pass, the
/// counts and the validator's draw-back of one refinement per class.
fn lift_from_level_three(c: &mut Criterion) {
    let mut group = c.benchmark_group("lift");
    group.sample_size(10);
    let hex = Hexagon::new(8).expect("valid side");
    let bound = Count::new(&hex, 6).minimum().expect("minimum") + 1;
    let mut listed = Vec::new();
    Count::new(&hex, 3)
        .for_each_partial(bound, |values, penalty| {
            listed.push((Partial::new(8, 3, values.to_vec()).expect("a level-3 partial"), penalty))
        })
        .expect("the level-3 partials");
    for level in 4..=6u8 {
        group.bench_with_input(BenchmarkId::new("n8-from-level3", format!("level{level}")), &level, |b, &level| {
            b.iter(|| {
                extended_from_listed(&hex, (3, level), &listed, bound, &CountSettings::default()).expect("lifted")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, counts_at_the_minimum, layers_side_by_side, lift_from_level_three);
criterion_main!(benches);
