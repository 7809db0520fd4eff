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

/// `x * k`, saturating at `u64::MAX`: overflow is told by comparing `x`
/// with `u64::MAX / k` (a constant where `k` is one), not by
/// `u64::saturating_mul`, which checks a 128-bit product that wasm32
/// computes by calling `__multi3` (1.3 % of the simulation's time in V8
/// when every message and tick did).
#[inline(always)]
pub(crate) fn mul_sat(x: u64, k: u64) -> u64 {
    if k != 0 && x > u64::MAX / k {
        u64::MAX
    } else {
        x.wrapping_mul(k)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::{drop_unused, mul_sat};

    #[test]
    fn mul_sat_is_saturating_mul() {
        let xs = [
            0,
            1,
            2,
            999,
            1000,
            1001,
            u64::MAX / 1000,
            u64::MAX / 1000 + 1,
            u64::MAX,
        ];
        let ks = [0, 1, 7, 1000, 8_000_000, u64::MAX];
        let mut n = 0;
        for x in xs {
            for k in ks {
                assert_eq!(mul_sat(x, k), x.saturating_mul(k), "{x} * {k}");
                n += 1;
            }
        }
        assert_eq!(n, xs.len() * ks.len());
    }

    /// Counts its drops.
    struct Counted<'a>(&'a Cell<u32>);

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }

    #[test]
    fn drop_unused_drops_what_a_buffer_holds_and_skips_an_empty_one() {
        let drops = Cell::new(0);
        drop_unused(vec![Counted(&drops), Counted(&drops)]);
        assert_eq!(drops.get(), 2);
        let mut emptied = vec![Counted(&drops)];
        emptied.clear();
        assert_eq!(drops.get(), 3);
        drop_unused(emptied); // allocated once: freed as a vector is
        drop_unused(Vec::<Counted>::new());
        assert_eq!(drops.get(), 3);
    }
}
