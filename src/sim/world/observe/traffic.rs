//! Traffic: raft messages counted per directed pair of machines, and (when
//! the page asks) a record of each (`sim::wire`).

use raft::eraftpb::Message;

use crate::sim::wire::WireLog;
use crate::sim::world::names::ByName;
use crate::sim::world::World;

/// Raft messages from one machine to another, cumulative.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Put on the wire (they may still find the process gone on arrival).
    pub sent: u64,
    /// Lost at the sender: the link is cut, or the peer unreachable or refusing.
    pub dropped: u64,
    /// When the last reply (an append, heartbeat or vote response) was sent:
    /// raft-rs clears a leader's `recent_active` flags at each quorum check, and
    /// this bridges the gap until the answers to its next heartbeat arrive.
    pub last_reply_ms: Option<u64>,
}

/// The traffic counters of every pair that carried a message (counters are
/// never dropped: they are cumulative).
#[derive(Default)]
pub(in crate::sim::world) struct TrafficTable {
    /// The pairs' counters, in the order the pairs first came.
    counts: Vec<Traffic>,
    /// Where each pair's counters are in `counts`: by sender, then receiver.
    slots: ByName<ByName<usize>>,
}

impl World {
    /// Where the counters of the pair from `from` to `to` are, if it has any.
    pub(in crate::sim::world) fn traffic_slot_of(&self, from: &str, to: &str) -> Option<usize> {
        self.observe.traffic.slots.get(from)?.get(to).copied()
    }

    /// Where the counters of the pair from `from` to `to` are (made now if
    /// the pair is new). A stream keeps its pair's (`dial::Stream`), so a
    /// message over it is counted without a lookup by name.
    pub(in crate::sim::world) fn traffic_slot(&mut self, from: &str, to: &str) -> usize {
        let table = &mut self.observe.traffic;
        let row = table.slots.get_or_insert_with(from, ByName::new);
        let counts = &mut table.counts;
        *row.get_or_insert_with(to, || {
            counts.push(Traffic::default());
            counts.len() - 1
        })
    }

    /// Counts a message `sent` (`None`: dropped) from one machine to another.
    pub(in crate::sim::world) fn count_traffic(
        &mut self,
        from: &str,
        to: &str,
        sent: Option<&Message>,
    ) {
        let slot = self.traffic_slot(from, to);
        self.count_at(slot, sent);
    }

    /// [`Self::count_traffic`] for the pair whose counters are at `slot`.
    pub(in crate::sim::world) fn count_at(&mut self, slot: usize, sent: Option<&Message>) {
        let now = self.now_ms();
        let Some(t) = self.observe.traffic.counts.get_mut(slot) else {
            debug_assert!(false, "traffic slot {slot} was never made");
            return;
        };
        let Some(m) = sent else {
            t.dropped += 1;
            return;
        };
        t.sent += 1;
        use raft::eraftpb::MessageType::*;
        if matches!(
            m.get_msg_type(),
            MsgAppendResponse
                | MsgHeartbeatResponse
                | MsgRequestVoteResponse
                | MsgRequestPreVoteResponse
        ) {
            t.last_reply_ms = Some(now);
        }
    }

    /// Records a raft message in the wire log (`latency`: `None` when
    /// dropped). Every raft message comes here, and only the page keeps a
    /// record: the gate is inline.
    #[inline(always)]
    pub(in crate::sim::world) fn record_wire(
        &mut self,
        from: &str,
        to: &str,
        m: &Message,
        latency: Option<u64>,
    ) {
        if self.observe.wire.is_on() {
            let now = self.now_ms();
            self.observe.wire.record(from, to, m, now, latency);
        }
    }

    /// Raft messages per directed pair of machines (from, to), cumulative, in
    /// map order.
    pub fn traffic(&self) -> Vec<(String, String, Traffic)> {
        let table = &self.observe.traffic;
        let count = |i: &usize| table.counts.get(*i).copied().unwrap_or_default();
        table
            .slots
            .iter()
            .flat_map(|(a, row)| {
                row.iter()
                    .map(move |(b, i)| (a.clone(), b.clone(), count(i)))
            })
            .collect()
    }

    /// Starts or stops keeping a record of each raft message (`sim::wire`):
    /// the page keeps one to draw and inspect messages; nothing else reads it.
    pub fn set_wire_log(&mut self, on: bool) {
        self.observe.wire.set_on(on);
    }

    /// The recent raft messages (empty unless [`Self::set_wire_log`] is on).
    pub fn wire_log(&self) -> &WireLog {
        &self.observe.wire
    }
}
