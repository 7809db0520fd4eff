//! `make bench`, the wasm figure no browser test can take: the 1 GB
//! `etcdctl check datascale --load=l` data set (`quorum_playground::bench::
//! datascale_l`) built as wasm and run in Node. In the page it is one
//! command of about a minute, and chromedriver ends a page whose main
//! thread is blocked for 30 s, so this runs where nothing watches the
//! thread. The allocator and the linear memory are the page's (wasm32's
//! dlmalloc, the same build), so the memory it prints is what the page
//! would hold.
//!
//! Not part of `make test`: it needs `--features bench-web` and
//! `--nocapture`, and must run without `WASM_BINDGEN_USE_BROWSER` (it has
//! no `run_in_browser`).
#![cfg(all(target_arch = "wasm32", feature = "bench-web"))]

use quorum_playground::bench as work;
use wasm_bindgen_test::*;

mod bench_host;
use bench_host::performance_now;

/// The wasm module's linear memory now, in MB (it only ever grows, so this is
/// also its peak).
fn linear_memory_mb() -> f64 {
    core::arch::wasm32::memory_size(0) as f64 * 65536.0 / (1024.0 * 1024.0)
}

#[wasm_bindgen_test]
fn memory_of_a_1gb_datascale_data_set() {
    let before = linear_memory_mb();
    let t = performance_now();
    let (s, out) = work::datascale_l(1);
    let secs = (performance_now() - t) / 1000.0;
    let pass = out.stdout.lines().find(|l| l.starts_with("PASS"));
    assert!(
        out.status == 0 && pass.is_some(),
        "the data set was built: {}",
        out.stdout
    );
    console_log!(
        "datascale_l_3_members_memory_wasm: {:.1} MB linear memory ({before:.1} MB at start; 1,000,000 puts of 1 KiB in 3 members, {} events, {:?}, {secs:.1} s to run in Node) (goal: < 256 MB)",
        linear_memory_mb(),
        s.world.events(),
        pass.unwrap_or_default()
    );
}
