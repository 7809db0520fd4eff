//! rafthttp's writer buffers, as the network sees them: backpressure.
//!
//! etcd hands a raft message to its peer's stream writer through a buffer of
//! [`STREAM_BUF_MSGS`] messages (`streamBufSize`); the writer writes it to
//! its TCP connection, whose bytes leave through the machine's NIC. When the
//! NIC's queue is full the connection takes nothing more (TCP does not drop
//! bytes: the socket's write waits), so messages wait in the writer's buffer,
//! and only a message that finds that buffer full is dropped, with etcd's
//! warning (`dropped internal raft message to … since streamMsg's sending
//! buffer is full`, `peer.send`).
//!
//! Here each sender keeps, per connection (target machine and stream), the
//! raft messages waiting, oldest first. A message waits when its connection
//! already has messages waiting, or when the NIC's queue has no room for it
//! (`backlog + bytes > limit` with a backlog). As the queue drains, the NIC
//! takes the oldest waiting message at the head of its connection that fits
//! (an [`Event::NicRoom`] at the moment the first one fits), so a heartbeat on
//! the `Message` stream waits behind the queue, not behind the whole catch-up
//! queued on the `MsgApp` stream. What it then meets (the NIC's time, the
//! link's latency, jitter and loss) is [`World::transmit`]'s, from then on.
//! A message whose connection is gone by then (a cut link, a process that
//! ended) is lost with it. (The sockets' own buffers are not counted: they
//! only move where bytes wait.)

use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use raft::eraftpb::Message;

use super::super::clock::Event;
use super::super::World;
use crate::sim::etcd::rafthttp::{Kind, STREAM_BUF_MSGS};

/// A raft message waiting in its writer's buffer.
struct Held {
    msg: Box<Message>,
    /// The machine and process it goes to (as the dial found them).
    target: Rc<str>,
    pid: u64,
    bytes: u64,
    /// Orders messages across connections: the oldest that fits goes first.
    seq: u64,
}

/// One sender's writer buffers.
#[derive(Default)]
pub(super) struct Buffers {
    /// By (target machine, stream): the messages waiting, oldest first.
    conns: BTreeMap<(String, Kind), VecDeque<Held>>,
    /// When an [`Event::NicRoom`] is due for this sender, if one is.
    room_at_ms: Option<u64>,
    seq: u64,
}

impl Buffers {
    fn conn(&self, target: &str, kind: Kind) -> Option<&VecDeque<Held>> {
        let mut conns = self.conns.iter();
        conns
            .find(|((t, k), _)| t == target && *k == kind)
            .map(|(_, q)| q)
    }
}

impl World {
    /// Whether a raft message of `bytes` from `from` to `target` on `kind`
    /// must wait in its writer's buffer.
    pub(super) fn must_wait(&self, from: &str, target: &str, kind: Kind, bytes: u64) -> bool {
        let waiting = self
            .net
            .buffers
            .get(from)
            .and_then(|b| b.conn(target, kind));
        waiting.is_some_and(|q| !q.is_empty()) || !self.nic_has_room(from, bytes)
    }

    /// The message waits in its writer's buffer, or, the buffer full, is
    /// dropped and its sender's server hears of it.
    pub(super) fn hold(
        &mut self,
        from: &str,
        target: Rc<str>,
        pid: u64,
        msg: Box<Message>,
        bytes: u64,
    ) {
        let kind = Kind::of(msg.get_msg_type());
        let bufs = self.net.buffers.entry(from.to_string()).or_default();
        let seq = bufs.seq;
        let q = bufs.conns.entry((target.to_string(), kind)).or_default();
        if q.len() >= STREAM_BUF_MSGS {
            self.count_traffic(from, &target, None);
            self.record_wire(from, &target, &msg, None);
            self.with_server(from, |s, ctx| s.send_buffer_full(ctx, &msg));
            return;
        }
        q.push_back(Held {
            msg,
            target,
            pid,
            bytes,
            seq,
        });
        bufs.seq += 1;
        self.schedule_room(from);
    }

    /// The NIC of `machine` has drained: it takes what fits now, oldest first.
    pub(in crate::sim::world) fn on_nic_room(&mut self, machine: &str) {
        let Some(bufs) = self.net.buffers.get_mut(machine) else {
            return;
        };
        bufs.room_at_ms = None;
        while let Some(h) = self.next_fitting(machine) {
            self.admit(machine, h);
        }
        self.schedule_room(machine);
    }

    /// `machine`'s NIC settings changed: what waits is looked at again now.
    pub(super) fn nic_changed(&mut self, machine: &str) {
        if let Some(bufs) = self.net.buffers.get_mut(machine) {
            bufs.room_at_ms = None;
            self.schedule_room(machine);
        }
    }

    /// Schedules the moment the smallest message at the head of a connection
    /// fits in `machine`'s NIC queue (unless an earlier look is due).
    fn schedule_room(&mut self, machine: &str) {
        let now = self.now_ms();
        let Some(bufs) = self.net.buffers.get(machine) else {
            return;
        };
        let heads = bufs.conns.values().filter_map(VecDeque::front);
        let Some(bytes) = heads.map(|h| h.bytes).min() else {
            return;
        };
        let at = self.room_at_ms(machine, bytes).max(now);
        let Some(bufs) = self.net.buffers.get_mut(machine) else {
            return;
        };
        if bufs.room_at_ms.is_some_and(|due| due <= at) {
            return;
        }
        bufs.room_at_ms = Some(at);
        let machine = machine.to_string();
        self.schedule(at - now, Event::NicRoom { machine });
    }

    /// The oldest message at the head of its connection that fits now.
    fn next_fitting(&mut self, machine: &str) -> Option<Held> {
        let bufs = self.net.buffers.get(machine)?;
        let heads = bufs
            .conns
            .iter()
            .filter_map(|(k, q)| q.front().map(|h| (k, h)));
        let fitting = heads.filter(|(_, h)| self.nic_has_room(machine, h.bytes));
        let key = fitting.min_by_key(|(_, h)| h.seq).map(|(k, _)| k.clone())?;
        let bufs = self.net.buffers.get_mut(machine)?;
        let q = bufs.conns.get_mut(&key)?;
        let h = q.pop_front();
        if q.is_empty() {
            bufs.conns.remove(&key);
        }
        h
    }

    /// A waiting message goes on the wire, if its connection is still there.
    fn admit(&mut self, from: &str, h: Held) {
        let gone = !self.links_up(from, &h.target) || self.pid_of(&h.target) != Some(h.pid);
        let lat = match gone {
            true => None,
            false => {
                let conn = super::nic::Conn::of(h.msg.get_msg_type());
                self.transmit_on(from, &h.target, h.bytes, false, conn)
            }
        };
        let Some(lat) = lat else {
            self.count_traffic(from, &h.target, None);
            self.record_wire(from, &h.target, &h.msg, None);
            return;
        };
        self.count_traffic(from, &h.target, Some(&h.msg));
        self.record_wire(from, &h.target, &h.msg, Some(lat));
        let ev = Event::Raft {
            machine: h.target,
            pid: h.pid,
            msg: h.msg,
        };
        self.schedule(lat, ev);
    }
}
