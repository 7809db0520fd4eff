//! The host's clock for the wasm benchmarks (`tests/bench_*.rs`), in
//! Chromium and in Node alike: each test file includes this module.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`: milliseconds, sub-millisecond resolution.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    pub fn performance_now() -> f64;
}
