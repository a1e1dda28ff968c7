//! `cargo bench --bench simd`: solve time per kernel, called directly (not
//! through `auto`), with the count each solve returns checked against OEIS
//! A000170 so that a fast wrong answer fails the bench.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use queens_simd::kernel::Role;
use queens_simd::{Count, Kernel};

/// OEIS A000170, the oracle (never used by the solvers).
const SOLUTIONS: [Count; 13] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

fn fast_kernels() -> impl Iterator<Item = Kernel> {
    Kernel::ALL
        .iter()
        .copied()
        .filter(|k| k.role() == Role::Fast && k.is_available())
}

fn count(c: &mut Criterion) {
    let mut group = c.benchmark_group("simd/count");
    for (n, &expected) in SOLUTIONS.iter().enumerate().skip(4) {
        group.throughput(Throughput::Elements(expected as u64));
        for kernel in fast_kernels().filter(|k| k.sizes().contains(&n)) {
            let solver = kernel.solver(n).expect("kernel listed as available");
            assert_eq!(solver.count(n).unwrap(), expected, "{kernel} N={n}");
            // Named `simd/count/<N>/<kernel>` so that kernels sit side by side.
            let id = BenchmarkId::new(n.to_string(), kernel.name());
            group.bench_with_input(id, &n, |b, &n| {
                b.iter(|| solver.count(black_box(n)).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, count);
criterion_main!(benches);
