//! The memory a `check datascale --load=l` (and `xl`) data set holds in one
//! member's store: 1,000,000 (3,000,000) generated keys of 1 KiB, a 1 GB (3 GB)
//! data set, counted by a counting allocator. Alone in its binary so that no
//! other test's allocations are counted.
#![cfg(not(target_arch = "wasm32"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use quorum_playground::sim::etcd::kv::{Generated, Kv};

struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HELD.fetch_add(layout.size(), Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// A store after `n` generated puts of datascale's shape (random varint heads).
fn store(n: u64) -> Kv {
    let mut kv = Kv::default();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut head = [0u8; 10];
        head[..8].copy_from_slice(&x.to_le_bytes());
        kv.put_generated(&Generated {
            prefix: "/etcdctl-check-datascale/".into(),
            head,
            key_len: 512,
            value_len: 512,
        });
    }
    kv
}

#[test]
fn a_gigabyte_data_set_stays_small() {
    for (load, n, max_mb) in [("l", 1_000_000u64, 64.0), ("xl", 3_000_000, 192.0)] {
        let before = HELD.load(Ordering::Relaxed);
        let kv = store(n);
        let held = HELD.load(Ordering::Relaxed) - before;
        let data = kv.live_bytes();
        let mb = held as f64 / 1e6;
        println!(
            "--load={load}: {n} keys, {:.0} MB of keys and values, held in {mb:.1} MB ({:.1} bytes a key); DB SIZE {} bytes",
            data as f64 / 1e6,
            held as f64 / n as f64,
            kv.db_size()
        );
        assert_eq!(kv.generated().len() as u64, n);
        assert!(data >= n * 1024);
        assert!(mb < max_mb, "{mb} MB");
        drop(kv);
    }
}
