//! Helpers shared by the native tests that compare logs and outputs with
//! etcd's (`tests/log_excerpts.rs`, `tests/lesson_quotes.rs`). Not a test of its
//! own: each test file includes it with `mod common;`.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use regex::Regex;

/// A pattern compiled once per test binary (the checks run it on every line).
pub fn re(pat: &'static str) -> &'static Regex {
    static CACHE: LazyLock<Mutex<HashMap<&'static str, &'static Regex>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(pat)
        .or_insert_with(|| Box::leak(Box::new(Regex::new(pat).expect("a valid pattern"))))
}

/// The IDs of members added at runtime, in the order `Member X added to cluster`
/// first prints them.
pub fn added_ids(text: &str) -> Vec<u64> {
    let mut ids = Vec::new();
    for c in re(r"Member +([0-9a-f]{1,16}) added to cluster").captures_iter(text) {
        if let Ok(id) = u64::from_str_radix(&c[1], 16) {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    ids
}
