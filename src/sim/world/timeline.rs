//! [`Timeline`]: the order of the clock's queued events, by (time, then the
//! order they were scheduled in). Most events are due within a second (a
//! message in a millisecond, a tick in a heartbeat), so they go on a timing
//! wheel: one first-in-first-out bucket per millisecond of the next
//! [`SPAN`] ms, with a bitmap of the buckets that hold something. A bucket
//! is a list threaded through the events' slots (`next`), so nothing is
//! allocated once the slots exist. Scheduling one is a push, taking the
//! next is a scan of a few bitmap words and a pop.
//! Events due later wait in a heap and move onto the wheel, in their order,
//! as soon as the wheel's window reaches them: before anything else can be
//! scheduled for their moment, so a bucket's order is always the order of
//! scheduling. The answers are a binary heap's over (time, sequence
//! number), which the tests check against one.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Milliseconds the wheel covers (a power of two: a bucket is `time % SPAN`).
const SPAN: u64 = 1024;
/// Bitmap words, one bit per bucket.
const WORDS: usize = (SPAN / 64) as usize;
/// The end of a bucket's list.
const NONE: usize = usize::MAX;

/// A bucket: the first and the last slot of its list (`NONE`: empty).
#[derive(Debug, Clone, Copy)]
struct Bucket {
    head: usize,
    tail: usize,
}

/// Queued events (each named by the slot that holds it) in the order they
/// are due. See the module doc.
#[derive(Debug, Clone)]
pub(super) struct Timeline {
    /// The wheel's first moment: everything on the wheel is due in
    /// `start..start + SPAN`, everything in `far` at `start + SPAN` or
    /// later. Never after now (it moves to what [`Timeline::pop`] takes).
    start: u64,
    /// One bucket per moment of the window, at `time % SPAN`.
    wheel: Vec<Bucket>,
    /// The slot after each slot in its bucket's list (`NONE`: the last).
    next: Vec<usize>,
    /// Which buckets hold something: bucket `i` is bit `i % 64` of word `i / 64`.
    occupied: [u64; WORDS],
    /// Events due beyond the window, by (time, sequence number, slot).
    far: BinaryHeap<Reverse<(u64, u64, usize)>>,
    /// Sequence numbers for `far` (the wheel's buckets keep their order).
    seq: u64,
    len: usize,
}

impl Default for Timeline {
    fn default() -> Self {
        Timeline {
            start: 0,
            wheel: vec![
                Bucket {
                    head: NONE,
                    tail: NONE
                };
                SPAN as usize
            ],
            next: Vec::new(),
            occupied: [0; WORDS],
            far: BinaryHeap::new(),
            seq: 0,
            len: 0,
        }
    }
}

impl Timeline {
    /// How many events are queued.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Queues the event in `slot`, due at `time` (not before the last
    /// event taken: nothing is scheduled in the past).
    #[inline]
    pub(super) fn push(&mut self, time: u64, slot: usize) {
        debug_assert!(time >= self.start, "{time} ms is before {} ms", self.start);
        self.len += 1;
        if time < self.start.saturating_add(SPAN) {
            self.put_on_wheel(time, slot);
            return;
        }
        self.seq += 1;
        self.far.push(Reverse((time, self.seq, slot)));
    }

    /// When the next event is due.
    pub(super) fn peek_time(&self) -> Option<u64> {
        match self.first_bucket() {
            Some(i) => Some(self.time_of(i)),
            None => self.far.peek().map(|Reverse((time, _, _))| *time),
        }
    }

    /// Takes the next event: when it is due, and its slot.
    #[cfg(test)]
    fn pop(&mut self) -> Option<(u64, usize)> {
        self.pop_due(u64::MAX)
    }

    /// Takes the next event if it is due by `until`.
    #[inline]
    pub(super) fn pop_due(&mut self, until: u64) -> Option<(u64, usize)> {
        let (time, slot) = match self.first_bucket() {
            Some(i) => {
                let time = self.time_of(i);
                if time > until {
                    return None;
                }
                (time, self.take_head(i))
            }
            None => {
                let Reverse((time, _, slot)) = *self.far.peek()?;
                if time > until {
                    return None;
                }
                self.far.pop();
                (time, slot)
            }
        };
        self.len -= 1;
        self.advance(time);
        Some((time, slot))
    }

    /// Takes the first slot of bucket `i`, which holds something.
    fn take_head(&mut self, i: usize) -> usize {
        let bucket = &mut self.wheel[i];
        let slot = bucket.head;
        bucket.head = self.next[slot];
        if bucket.head == NONE {
            bucket.tail = NONE;
            self.occupied[i / 64] &= !(1 << (i % 64));
        }
        slot
    }

    fn put_on_wheel(&mut self, time: u64, slot: usize) {
        if slot >= self.next.len() {
            self.next.resize(slot + 1, NONE);
        }
        self.next[slot] = NONE;
        let i = (time % SPAN) as usize;
        let bucket = &mut self.wheel[i];
        match bucket.tail {
            NONE => {
                bucket.head = slot;
                self.occupied[i / 64] |= 1 << (i % 64);
            }
            tail => self.next[tail] = slot,
        }
        bucket.tail = slot;
    }

    /// The window starts at `time` (the moment just taken): what it now
    /// reaches moves from `far` onto the wheel, in order, before anything
    /// else can be scheduled for those moments.
    fn advance(&mut self, time: u64) {
        if time == self.start {
            return;
        }
        self.start = time;
        let end = time.saturating_add(SPAN);
        while let Some(&Reverse((t, _, slot))) = self.far.peek() {
            if t >= end {
                break;
            }
            self.far.pop();
            self.put_on_wheel(t, slot);
        }
    }

    /// The moment of bucket `i`, which holds something.
    fn time_of(&self, i: usize) -> u64 {
        let from = self.start % SPAN;
        self.start + (i as u64 + SPAN - from) % SPAN
    }

    /// The first bucket from the window's start on that holds something.
    #[inline]
    fn first_bucket(&self) -> Option<usize> {
        let from = (self.start % SPAN) as usize;
        let (word, bit) = (from / 64, from % 64);
        // the start's own word, from its bit on
        let here = self.occupied[word] & (u64::MAX << bit);
        if here != 0 {
            return Some(word * 64 + here.trailing_zeros() as usize);
        }
        // the words after it, around the ring, then the start's word's first bits
        for k in 1..=WORDS {
            let w = (word + k) % WORDS;
            let mut bits = self.occupied[w];
            if k == WORDS {
                bits &= !(u64::MAX << bit);
            }
            if bits != 0 {
                return Some(w * 64 + bits.trailing_zeros() as usize);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// A binary heap over (time, sequence number): the order to keep.
    #[derive(Default)]
    struct Model {
        heap: BinaryHeap<Reverse<(u64, u64, usize)>>,
        seq: u64,
    }

    impl Model {
        fn push(&mut self, time: u64, slot: usize) {
            self.seq += 1;
            self.heap.push(Reverse((time, self.seq, slot)));
        }

        fn pop(&mut self) -> Option<(u64, usize)> {
            self.heap.pop().map(|Reverse((t, _, s))| (t, s))
        }
    }

    #[test]
    fn takes_events_in_a_heaps_order_over_many_random_runs() {
        let mut checked = 0;
        for seed in 0..200u64 {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let (mut t, mut m) = (Timeline::default(), Model::default());
            let mut now = 0u64;
            let mut slot = 0usize;
            for _ in 0..2000 {
                if rng.gen_bool(0.55) {
                    // the delays the world uses, and the edges of the window
                    let after = match rng.gen_range(0..10) {
                        0 => 0,
                        1..=3 => 1,
                        4 => 100,
                        5 => SPAN - 1,
                        6 => SPAN,
                        7 => SPAN + 1,
                        8 => rng.gen_range(0..5000),
                        _ => rng.gen_range(0..3 * SPAN),
                    };
                    slot += 1;
                    t.push(now + after, slot);
                    m.push(now + after, slot);
                } else {
                    assert_eq!(t.peek_time(), m.heap.peek().map(|r| r.0 .0));
                    let got = t.pop();
                    assert_eq!(got, m.pop(), "seed {seed}");
                    if let Some((time, _)) = got {
                        now = time;
                        checked += 1;
                    }
                    // the clock may also move on with nothing due
                    if rng.gen_bool(0.05) {
                        now = t.peek_time().unwrap_or(now + 3 * SPAN).min(now + 2 * SPAN);
                    }
                }
                assert_eq!(t.len(), m.heap.len());
            }
            while let Some(got) = t.pop() {
                assert_eq!(Some(got), m.pop());
                checked += 1;
            }
            assert_eq!(m.pop(), None);
        }
        assert!(checked > 200 * 800, "{checked} events taken");
    }

    #[test]
    fn same_moment_keeps_the_order_of_scheduling_across_the_window() {
        let mut t = Timeline::default();
        // scheduled from afar first, then from within the window
        t.push(5000, 1);
        t.push(10, 2);
        assert_eq!(t.pop(), Some((10, 2)));
        t.push(4500, 3); // beyond the window, as 5000 is
        t.push(4000, 4);
        // taking 4000 moves the window over 4500 and 5000
        assert_eq!(t.pop(), Some((4000, 4)));
        t.push(5000, 5); // on the wheel, behind the one scheduled from afar
        assert_eq!(t.pop(), Some((4500, 3)));
        assert_eq!(t.pop(), Some((5000, 1)));
        assert_eq!(t.pop(), Some((5000, 5)));
        assert_eq!(t.pop(), None);
        assert_eq!(t.len(), 0);
    }
}
