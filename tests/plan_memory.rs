//! A plan's memory is known before it is built: the heap that building a
//! plan takes at its peak, and that it holds with a shard's owners dealt,
//! is under `Plan::build_memory_estimate`, for every N and both methods.
//! The heap is measured by this test binary's own allocator, which counts
//! what is allocated and freed.

mod common;

use common::counting::{Counting, MEASURING, peak_growth};
use queens_simd::kernel::Method;
use queens_simd::plan::{Plan, Shard, Subproblem};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn every_plan_is_built_in_the_memory_estimated_before() {
    for method in [Method::Symmetric, Method::Join] {
        for n in 0..=32 {
            let estimate = Plan::build_memory_estimate(method, n).unwrap();
            let (peak, plan) = {
                let _one = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
                peak_growth(|| {
                    let plan = Plan::with_method(method, n).unwrap();
                    let _ = plan.shard(Shard::new(0, 1000).unwrap());
                    plan
                })
            };
            let peak = peak as u64;
            assert!(
                peak <= estimate,
                "N = {n}, {method}: {peak} bytes at the peak, estimated {estimate}"
            );
            // Close, not a bound of anything: within 2 MiB and twice the plan.
            let held = plan.len() as u64 * std::mem::size_of::<Subproblem>() as u64;
            assert!(estimate <= 2 * held + (2 << 20), "N = {n}, {method}");
        }
    }
}

#[test]
fn a_plan_too_large_for_the_size_is_refused_before_it_is_built() {
    for method in [Method::Symmetric, Method::Join] {
        assert!(Plan::build_memory_estimate(method, 33).is_err());
    }
}
