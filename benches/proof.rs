//! One small certificate end to end: n=5, "no level-3 partial below 9"
//! (encode, solve with a traced DRAT proof, check with the external checker,
//! store), without and with racing the plain formulation.

use criterion::{criterion_group, criterion_main, Criterion};
use hexcert::certify::prove::{prove, ProveOutcome};
use hexcert::certify::Settings;
use hexcert::geometry::Hexagon;

fn small_certificate(c: &mut Criterion) {
    let hex = Hexagon::new(5).unwrap();
    let root = std::env::temp_dir().join(format!("hexcert-bench-{}", std::process::id()));
    let mut group = c.benchmark_group("prove n5 level3 below9");
    group.sample_size(10);
    for race in [false, true] {
        let mut settings = Settings::new(root.clone());
        settings.race = race;
        group.bench_function(if race { "raced" } else { "lex-leader only" }, |b| {
            b.iter(|| assert!(matches!(prove(&hex, 3, 9, &settings).unwrap(), ProveOutcome::Certified { .. })))
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(root);
}

criterion_group!(benches, small_certificate);
criterion_main!(benches);
