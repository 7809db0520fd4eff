//! `make bench`, the headline figure in headless Chromium: the simulation's
//! member ticks per second against bare raft-rs's on the same workload
//! (`quorum_playground::bench::sim_and_bare`), as wasm (release profile, as
//! the site is), timed with `performance.now()`.
//!
//! A test file of its own, so it runs in a page of its own: in
//! `tests/bench_web.rs` it ran after the day-long and replay workloads in the
//! same wasm instance, on the heap and the machine they left behind, and
//! gave 0.37 and 0.40 where a fresh page gave 0.40 to 0.46. Here both sides
//! start from the same fresh heap; `tools/ratio_pages.sh` runs it in three
//! pages.
//!
//! Not part of `make test`: it needs `--features bench-web` (see Cargo.toml)
//! and `--nocapture` to show its lines.
#![cfg(all(target_arch = "wasm32", feature = "bench-web"))]

use quorum_playground::bench as work;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod bench_host;
use bench_host::performance_now;

/// Timed runs of each side, alternating; the best counts (the least
/// disturbed). More than the other figures take, as one run takes only a
/// few ms (see `THROUGHPUT_RUNS` in `src/bin/bench.rs`).
const RUNS: usize = 30;
/// Untimed runs before them: until Chromium has optimised the simulation's
/// code, which it does in the background. With 30 (about 0.2 s) one page
/// in four or so timed code not yet optimised: 0.28 once, against 0.40 to
/// 0.44 in the pages around it; with 100 (and 30 timed runs), four pages
/// gave 0.43 to 0.47.
const WARMUPS: usize = 100;
/// Simulated seconds of each run.
const SECS: u64 = work::RATIO_SECS;

#[wasm_bindgen_test]
fn sim_and_bare_raft_ticks_per_second() {
    let (sim, bare) = work::sim_and_bare(WARMUPS, RUNS, SECS, performance_now)
        .expect("the workloads do their work");
    let ticks = work::member_ticks(5, SECS * 1000) as f64;
    console_log!(
        "sim_5_members_wasm: {:.0} ticks/s ({SECS} simulated s, one put per s, best of {RUNS} after {WARMUPS} warm-up runs, a fresh page) (goal: >= 0.5 of bare raft-rs)",
        ticks / (sim / 1000.0)
    );
    console_log!(
        "bare_raft_5_nodes_wasm: {:.0} ticks/s (same shape, raft-rs alone) (goal: reference)",
        ticks / (bare / 1000.0)
    );
    console_log!("sim_over_bare_raft_wasm: {:.2} (goal: >= 0.5)", bare / sim);
}
