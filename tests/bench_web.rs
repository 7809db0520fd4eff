//! `make bench`, the figures measured in headless Chromium: the workloads of
//! `quorum_playground::bench` built as wasm (release profile, as the site is)
//! and timed with `performance.now()`. Each prints one line,
//! `name: value unit (goal: ...)`, through the test runner's console capture.
//!
//! Not part of `make test`: it needs `--features bench-web` (see Cargo.toml)
//! and `--nocapture` to show its lines. Every test also checks its workload
//! did its work, so a broken workload fails here rather than printing a number.
//! The simulation against bare raft-rs runs first, in a page of its own
//! (`tests/bench_ratio.rs`).
#![cfg(all(target_arch = "wasm32", feature = "bench-web"))]

use quorum_playground::bench as work;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod bench_host;
use bench_host::performance_now;

/// Runs of each timed workload; the best counts (the least disturbed).
const RUNS: usize = 5;

/// Milliseconds `f` took.
fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let t = performance_now();
    let r = f();
    (performance_now() - t, r)
}

/// The wasm module's linear memory now, in MB (it only ever grows, so this is
/// also its peak).
fn linear_memory_mb() -> f64 {
    (core::arch::wasm32::memory_size(0) * 65536) as f64 / (1024.0 * 1024.0)
}

#[wasm_bindgen_test]
fn replay_of_ten_minutes() {
    let lines = work::ten_minute_run(1);
    let mut best = f64::MAX;
    for _ in 0..RUNS {
        let (t, s) = timed(|| work::replay(1, &lines));
        assert!(
            s.world.now_ms() >= 600_000,
            "the replay reached ten minutes"
        );
        best = best.min(t);
    }
    console_log!(
        "replay_10_min_wasm: {best:.1} ms ({} commands, 5 members, faults and membership changes, best of {RUNS}) (goal: < 100 ms)",
        lines.len()
    );
}

/// The same run opened as the page opens a share link (or rewinds): the
/// page's model replayed, with the invariants checked after every event, the
/// clients' history, the timeline's samples and the lost-writes check.
#[wasm_bindgen_test]
fn page_replay_of_ten_minutes() {
    use quorum_playground::link::{Run, Step};
    use quorum_playground::ui::{Model, Start};
    let lines = work::ten_minute_run(1);
    let mut run = Run::new(1, Start::Empty);
    run.steps = lines
        .iter()
        .map(|l| Step {
            wait_ms: 0,
            line: l.clone(),
        })
        .collect();
    let link = run.to_link().expect("fits in a link");
    let mut best = f64::MAX;
    for _ in 0..RUNS {
        let (t, m) = timed(|| Model::replay_run(&run));
        assert!(m.shown_ms >= 600_000, "the replay reached ten minutes");
        assert!(m.promises.broken.is_empty());
        best = best.min(t);
    }
    console_log!(
        "page_replay_10_min_wasm: {best:.1} ms (a share link or rewind of the same run: the page's model with invariants, history and timeline, best of {RUNS}) (goal: < 100 ms)"
    );
    console_log!(
        "link_chars_10_min: {} characters for {} commands (limit: {})",
        link.len(),
        lines.len(),
        quorum_playground::link::MAX_LINK_CHARS
    );
}

#[wasm_bindgen_test]
fn memory_after_a_day_of_puts() {
    let before = linear_memory_mb();
    let mut s = work::session_after(1, &work::five_member_boot());
    let (t, failed) = timed(|| work::puts_over(&mut s, 24 * 3600, work::DAY_KEYS));
    assert!(s.world.now_ms() >= 24 * 3600 * 1000);
    console_log!(
        "day_5_members_memory_wasm: {:.1} MB linear memory ({before:.1} MB at start; 24 simulated h, one put per s over {} keys, {failed} failed, {:.1} s to run) (goal: < 64 MB)",
        linear_memory_mb(),
        work::DAY_KEYS,
        t / 1000.0
    );
}
