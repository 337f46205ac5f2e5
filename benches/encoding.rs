//! Encoding cost and the cardinality choice: building the n=7 level-2 formula,
//! and one small UNSAT claim (n=5, level 3, penalty <= 8) solved with each
//! cardinality encoding.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use hexcert::encoding::{Cardinality, EncodeOptions, LevelEncoding};
use hexcert::geometry::Hexagon;
use hexcert::search::solve_at_bound;
use hexcert::solving::Cadical;

const CHOICES: [Cardinality; 2] = [Cardinality::SequentialCounter, Cardinality::Totalizer];

fn encode(c: &mut Criterion) {
    let hex = Hexagon::new(7).unwrap();
    let mut group = c.benchmark_group("encode n7 level2 bound14");
    for cardinality in CHOICES {
        let options = EncodeOptions { cardinality, ..EncodeOptions::bounded(Some(14)) };
        group.bench_function(BenchmarkId::from_parameter(cardinality.name()), |b| {
            b.iter(|| LevelEncoding::new(&hex, 2, options).cnf.clauses().len())
        });
    }
    group.finish();
}

fn small_unsat(c: &mut Criterion) {
    let hex = Hexagon::new(5).unwrap();
    let mut group = c.benchmark_group("unsat n5 level3 bound8");
    group.sample_size(10);
    for cardinality in CHOICES {
        group.bench_function(BenchmarkId::from_parameter(cardinality.name()), |b| {
            b.iter(|| {
                assert!(solve_at_bound::<Cadical>(
                    &hex,
                    3,
                    EncodeOptions { cardinality, ..EncodeOptions::bounded(Some(8)) }
                )
                .unwrap()
                .is_none())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, encode, small_unsat);
criterion_main!(benches);
