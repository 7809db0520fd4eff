//! The simulated world: machines with addresses and disks, a network of directed
//! links, a clock in milliseconds, one seeded RNG, and etcd servers on raft-rs.
//! No web crates and no wall-clock time: the same seed and actions give the same
//! bytes natively and in wasm.

pub mod budget;
pub mod etcd;
pub mod glossary;
pub mod history;
pub mod invariants;
pub mod lost;
pub mod quorum;
pub mod url;
pub mod view;
pub mod wire;
pub mod world;

/// Drops a buffer, without the call to its drop when it never allocated:
/// most steps log nothing and most of raft's Ready lists are empty, and the
/// size-optimised build calls a vector's drop out of line even then (about
/// 1 M instructions of `make bench`'s 60 simulated seconds). Forgetting a
/// vector that never allocated frees nothing there was to free.
#[inline(always)]
pub(crate) fn drop_unused<T>(v: Vec<T>) {
    if v.capacity() == 0 {
        std::mem::forget(v);
    }
}
