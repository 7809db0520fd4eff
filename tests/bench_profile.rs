//! The workload of `make bench`'s ratio (`quorum_playground::bench::
//! sim_and_bare`) as wasm in Node, for a profiler: `tools/profile_wasm.sh`
//! runs it under `perf` with V8's code map and splits the samples between
//! the simulation and bare raft-rs. It prints the ratio Node measured too,
//! but the goal's figure is Chromium's (`tests/bench_ratio.rs`).
//!
//! Not part of `make test` nor of `make bench`: it needs `--features
//! bench-web`, and it has no `run_in_browser`.
#![cfg(all(target_arch = "wasm32", feature = "bench-web"))]

use quorum_playground::bench as work;
use wasm_bindgen_test::*;

mod bench_host;
use bench_host::performance_now;

/// Untimed runs first (Node on its own optimises sooner than a page on
/// a busy machine; `tests/bench_ratio.rs` takes 100).
const WARMUPS: usize = 30;
/// Timed runs of each side: many more than Chromium's 30, so that the
/// samples of the profile come mostly from optimised code.
const RUNS: usize = 200;
/// Simulated seconds of each run.
const SECS: u64 = work::RATIO_SECS;

#[wasm_bindgen_test]
fn sim_and_bare_raft_in_node() {
    let (sim, bare) = work::sim_and_bare(WARMUPS, RUNS, SECS, performance_now)
        .expect("the workloads do their work");
    console_log!(
        "sim_over_bare_raft_node: {:.3} (simulation {sim:.2} ms, bare raft-rs {bare:.2} ms a run, best of {RUNS} after {WARMUPS} warm-up runs)",
        bare / sim
    );
}
