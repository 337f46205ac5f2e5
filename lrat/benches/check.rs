//! Criterion bench of the checker's hot loop: a long proof of implication
//! chains (every hint a unit propagation), read from memory in binary and
//! text, and replayed through the `Checker` API without parsing.
//!
//! Invariant: the proofs are generated once, outside the timed closures.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hexcert_lrat::{check, Checker, Step};

fn bench(c: &mut Criterion) {
    let (clauses, steps) = common::implication_chain(2000, 100_000, 40, 11);
    let formula = common::dimacs(&clauses);
    let binary = common::to_binary(&steps);
    let text = common::to_text(&steps);
    let hints: u64 = check(&formula, &binary[..]).unwrap().hints;

    let mut group = c.benchmark_group("lrat");
    group.sample_size(10);
    group.throughput(Throughput::Elements(hints));
    group.bench_function("binary 100k steps x 40 hints", |b| b.iter(|| check(&formula, &binary[..]).unwrap()));
    group.bench_function("text 100k steps x 40 hints", |b| b.iter(|| check(&formula, &text[..]).unwrap()));
    group.bench_function("api 100k steps x 40 hints", |b| {
        b.iter(|| {
            let mut checker = Checker::from_clauses(&clauses);
            for step in &steps {
                match step {
                    Step::Add { id, lits, hints } => checker.add(*id, lits, hints).unwrap(),
                    Step::Delete { ids } => checker.delete_all(ids).unwrap(),
                }
            }
            checker.finish().unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
