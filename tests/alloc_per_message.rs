//! The "no allocation per message on the hot path": a five-member
//! cluster's raft messages, counted against the allocations the simulation
//! makes while they flow, by a counting allocator. Alone in its binary so
//! that no other test's allocations are counted.
#![cfg(not(target_arch = "wasm32"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use quorum_playground::bench::{five_member_boot, puts_for, session_after};
use quorum_playground::shell::session::Session;

struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Raft messages put on the wire so far, over every pair of machines.
fn sent(s: &Session) -> u64 {
    s.world.traffic().iter().map(|(_, _, t)| t.sent).sum()
}

/// Allocations and messages while `f` runs.
fn counted(s: &mut Session, f: impl FnOnce(&mut Session)) -> (u64, u64) {
    let (a, m) = (ALLOCS.load(Ordering::Relaxed), sent(s));
    f(s);
    (ALLOCS.load(Ordering::Relaxed) - a, sent(s) - m)
}

/// 30 simulated seconds with nothing asked of the cluster: only raft's
/// heartbeats and rafthttp's probes flow.
fn idle(s: &mut Session) {
    s.run_typed("sleep 30");
}

/// The binary's one test: no other test's allocations are counted with it.
#[test]
fn raft_messages_allocate_nothing() {
    let mut s = session_after(1, &five_member_boot());
    // the first puts grow what is kept (buffers, the spare boxes)
    assert_eq!(puts_for(&mut s, 10), 0);
    let (allocs, msgs) = counted(&mut s, idle);
    println!("idle, 30 simulated s: {msgs} raft messages, {allocs} allocations");
    assert!(msgs >= 2_000, "the heartbeats flow: {msgs}");
    // What allocates is on timers of its own, not per message: the leader's
    // version monitor (every 4 s it copies the member list: 175 of them in
    // these 30 s), rafthttp's probes (every 4 s, to each peer: 70),
    // raft-rs's quorum check (every election timeout: 30), and the `sleep`
    // command itself. A box per message, as before the spare boxes
    // (`sim::etcd::parcel`), made it 2,747.
    assert!(
        allocs * 5 <= msgs,
        "{allocs} allocations for {msgs} messages"
    );
}
