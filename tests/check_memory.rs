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
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
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

/// One test, so that the counts of the two parts do not mix.
#[test]
fn generated_data_stays_small() {
    a_gigabyte_data_set_stays_small();
    a_datascale_m_run_in_three_members_peaks_small();
}

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

/// A whole `--load=m` run (100,000 keys, 100 MB) in a 3-member cluster (each
/// member holds the data set, and its raft log the entries since the last
/// compaction): the peak of memory the process held. The bound also holds the
/// event queue to account: it held 117 MB here while every request's three
/// deadline wakes stayed queued one event each (59 MB with one a moment).
fn a_datascale_m_run_in_three_members_peaks_small() {
    use quorum_playground::shell::session::Session;
    let mut s = Session::new(7);
    for m in 1..=3 {
        s.run_typed(&format!("machine add node0{m} 192.168.0.6{m}"));
    }
    let cluster = "node01=http://192.168.0.61:2380,node02=http://192.168.0.62:2380,node03=http://192.168.0.63:2380";
    for m in 1..=3 {
        s.run_typed(&format!(
            "node0{m}$ etcd --name node0{m} --initial-advertise-peer-urls http://192.168.0.6{m}:2380 --listen-peer-urls http://192.168.0.6{m}:2380 --advertise-client-urls http://192.168.0.6{m}:2379 --listen-client-urls http://192.168.0.6{m}:2379,http://127.0.0.1:2379 --initial-cluster {cluster}"
        ));
    }
    s.run_typed("sleep 3");
    let base = HELD.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let ex = s.run_typed("node01$ etcdctl check datascale --load=m");
    let peak = (PEAK.load(Ordering::Relaxed) - base) as f64 / 1e6;
    let status = s.run_typed("node01$ etcdctl endpoint status --cluster -w table");
    println!(
        "{}{}peak {peak:.1} MB over the idle cluster",
        ex.output.stdout, status.output.stdout,
    );
    assert_eq!(ex.output.status, 0, "{}", ex.output.stderr);
    assert!(ex.output.stdout.contains("PASS: Approximate"));
    assert!(peak < 80.0, "{peak} MB");
}
