//! Helpers shared by the native tests that compare logs and outputs with
//! etcd's (`tests/log_excerpts.rs`, `tests/lesson_quotes.rs`), and seed
//! 001's Figure 1 set-up (`tests/figure1.rs`, `tests/catchup.rs`). Not a test of its
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

/// Seed 001's Figure 1 set-up, as lesson 001 step 22 and the real runs
/// (`tests/reference-run-b/net-03-figure1-*.txt`) have it: four machines,
/// three start a cluster, `check datascale --load=s` fills it, and node01's
/// NIC is limited to 10 mbit with a 4 MB queue.
pub const FIGURE1_BOOT: &str = "\
$ machine add node01 10.200.0.1
$ machine add node02 10.200.0.2
$ machine add node03 10.200.0.3
$ machine add node04 10.200.0.4
node01$ etcd --name node01 --initial-advertise-peer-urls http://10.200.0.1:2380 --listen-peer-urls http://10.200.0.1:2380 --advertise-client-urls http://10.200.0.1:2379 --listen-client-urls http://10.200.0.1:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380
node02$ etcd --name node02 --initial-advertise-peer-urls http://10.200.0.2:2380 --listen-peer-urls http://10.200.0.2:2380 --advertise-client-urls http://10.200.0.2:2379 --listen-client-urls http://10.200.0.2:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380
node03$ etcd --name node03 --initial-advertise-peer-urls http://10.200.0.3:2380 --listen-peer-urls http://10.200.0.3:2380 --advertise-client-urls http://10.200.0.3:2379 --listen-client-urls http://10.200.0.3:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380
$ sleep 3
node01$ etcdctl --endpoints=http://10.200.0.1:2379 check datascale --load=s
$ sleep 5
$ net rate node01 10mbit limit 4mb";
