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
//! Here each sender keeps, per connection (target machine and [`Conn`]), the
//! raft messages waiting, oldest first. A message waits when its connection
//! already has messages waiting, or when the NIC's queue has no room for it
//! (`backlog + bytes > limit` with a backlog). As the queue drains, the NIC
//! takes the oldest waiting message at the head of its connection that fits
//! (an [`Event::NicRoom`] at the moment the first one fits), so a heartbeat on
//! the `Message` stream waits behind the queue, not behind the whole catch-up
//! queued on the `MsgApp` stream. What it then meets (the NIC's time, the
//! link's latency, jitter and loss) is [`World::transmit`]'s, from then on.
//! A message whose connection is gone by then (a cut link, a process that
//! ended) is lost with it; and when a sender's dial no longer finds the
//! process its streams were dialled to (`dial`: the link was cut, the process
//! ended), what waits for them is lost at once, as rafthttp's stream writer
//! drops its buffer when its connection closes (so nothing held crosses a
//! link that was cut and healed meanwhile). (The sockets' own buffers are not
//! counted: they only move where bytes wait.)
//!
//! **A stream that outlives a cut** (3.5: `dial`) takes what is sent on it,
//! and TCP holds it: the connection stalls. Its messages wait here, in
//! order, and TCP retransmits the first unacknowledged one after
//! [`first_rto_ms`], then after twice as long each time (up to
//! [`MAX_RTO_MS`]); the first retransmission that finds the link healed
//! delivers what waits, through the NIC as usual. So a cut of 36 s sends
//! what it held about 17 s after the heal (200 ms × 255 after the first
//! send into the cut), as 3.5.1 did in `09-partitions-01`: the old leader
//! and both followers got everything sent since the cut at one moment,
//! 17.6 s after the heal. When the keepalive ends the stream first, what
//! waits is lost with it. A stream with nothing to send still writes its
//! link heartbeat every 1.67 s (`dial::link_heartbeat`), so every stream
//! across the cut stalls within 1.67 s of it, each on its own timer; and
//! while a connection stalls, even a message sent after the heal waits for
//! its retransmission (3.5.1's cut learner, in `09-partitions-05`, answered
//! the leader's catch-up only at its own connection's retransmission, 0.66 to
//! 0.75 s after it had caught up (1.2 to 1.7 s when the cut fell just after a
//! link heartbeat), and the leader refused to promote it until then; measured
//! on real 3.5.1 with `ss` and `tcpdump` in namespaces:
//! `tests/reference-run-b/3.5/experiments/promote-after-heal/`).
//!
//! **A snapshot POST** (rafthttp's snapshot sender: the MsgSnap and the bbolt
//! file behind it, one HTTP body on its own connection) waits here too, on its
//! own [`Conn::Snapshot`], but it enters the NIC a chunk of
//! [`POST_CHUNK_BYTES`] at a time, each only when it fits, as
//! `tools/netproxy.py` reads a connection into the machine's queue (it reads
//! 16 KiB and admits them while `backlog + chunk <= limit`; otherwise it stops
//! reading that socket, and TCP holds the sender's write). After each chunk the
//! POST's turn goes behind the messages already waiting, so the snapshot keeps
//! the queue at its limit and a heartbeat competes for room as it drains: it
//! waits about one queue (4 MB at 10 mbit: 3.2 s), not the whole snapshot.
//! The follower's handler gets the POST ([`Rare::Snapshot`]) when its last
//! byte arrives, and logs how long its bytes took since the first arrived.
//! A POST whose connection is gone when its next chunk would leave (a cut
//! link, a peer process that ended) fails, and its sender hears it at once;
//! one whose chunk TCP gave up on (every try lost) fails when TCP gives up
//! ([`GIVE_UP_MS`]).

use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use crate::sim::etcd::parcel::Parcel;

use super::super::clock::{Event, Rare};
use super::super::World;
use super::nic::{first_rto_ms, Conn, GIVE_UP_MS, MAX_RTO_MS};
use crate::sim::etcd::rafthttp::STREAM_BUF_MSGS;

/// What a snapshot POST puts on its NIC at a time, and so the most a NIC's
/// queue holds beyond its limit: `tools/netproxy.py`'s read size (`CHUNK =
/// 16384`, `src.read(CHUNK)` in `pump`), the unit in which real etcd's
/// snapshot bytes entered the shaped queue in the recordings (however the
/// sender wrote them, the proxy's reads set what its queue admits).
pub const POST_CHUNK_BYTES: u64 = 16_384;

/// A raft message waiting in its writer's buffer.
struct Held {
    msg: Parcel,
    /// The machine and process it goes to (as the dial found them).
    target: Rc<str>,
    pid: u64,
    bytes: u64,
    /// Orders messages across connections: the oldest that fits goes first
    /// (`Buffers::push` sets it).
    seq: u64,
    /// A snapshot POST's progress (`None`: a stream message, which goes whole).
    post: Option<Post>,
}

/// A snapshot POST on its way out.
#[derive(Debug, Clone, Copy)]
struct Post {
    /// Its bytes not on the NIC yet.
    left: u64,
    /// The sending process, which hears how the POST ended.
    from_pid: u64,
    /// When its first chunk arrives (the handler starts then).
    first_arrival_ms: Option<u64>,
}

impl Held {
    /// The bytes it puts on the NIC next: a stream message whole, a POST's
    /// next chunk.
    fn piece(&self) -> u64 {
        match self.post {
            Some(p) => p.left.min(POST_CHUNK_BYTES),
            None => self.bytes,
        }
    }
}

/// One sender's writer buffers.
#[derive(Default)]
pub(super) struct Buffers {
    /// By (target machine, connection): the messages waiting, oldest first.
    conns: BTreeMap<(String, Conn), VecDeque<Held>>,
    /// When an [`Event::NicRoom`] is due for this sender, if one is.
    room_at_ms: Option<u64>,
    seq: u64,
    /// Connections a cut stalled, by (target machine, connection): their
    /// messages wait for TCP's next retransmission.
    stalls: BTreeMap<(String, Conn), Stall>,
}

/// A stalled connection's retransmission timer.
#[derive(Debug, Clone, Copy)]
struct Stall {
    /// The timeout that runs now (it doubles after each try).
    rto_ms: u64,
    /// When the next retransmission goes.
    next_try_ms: u64,
}

impl Buffers {
    fn stalled(&self, target: &str, conn: Conn) -> bool {
        let mut stalls = self.stalls.keys();
        stalls.any(|(t, c)| t == target && *c == conn)
    }

    fn conn(&self, target: &str, conn: Conn) -> Option<&VecDeque<Held>> {
        let mut conns = self.conns.iter();
        conns
            .find(|((t, c), _)| t == target && *c == conn)
            .map(|(_, q)| q)
    }

    /// `h` waits on its connection `conn`, after every message already
    /// waiting (at the back of its own connection's queue, or at the front:
    /// a POST whose chunk just left keeps its place there).
    fn push(&mut self, conn: Conn, mut h: Held, front: bool) {
        h.seq = self.seq;
        self.seq += 1;
        let q = self.conns.entry((h.target.to_string(), conn)).or_default();
        match front {
            true => q.push_front(h),
            false => q.push_back(h),
        }
    }
}

impl World {
    /// How many raft messages from `from` to machine `to` wait in `from`'s
    /// writer buffers now (a snapshot POST counts once).
    pub fn held(&self, from: &str, to: &str) -> usize {
        let Some(bufs) = self.net.buffers.get(from) else {
            return 0;
        };
        let conns = bufs.conns.iter().filter(|((t, _), _)| t == to);
        conns.map(|(_, q)| q.len()).sum()
    }

    /// Whether a raft message from `from` to `target` on `conn` must wait
    /// in its writer's buffer whatever room the NIC has (its stream stands:
    /// a link down means a cut it outlives, and the connection stalls; a
    /// stalled connection holds it until TCP's retransmission, even once
    /// healed). Asked only once a dial found `target`, so both machines are
    /// up: only a cut can hold the link down. (A NIC without room for it
    /// holds it too: `World::transmit_on` says so as it looks.)
    pub(super) fn writer_waits(&self, from: &str, target: &str, conn: Conn) -> bool {
        let bufs = self.net.buffers.get(from);
        let waiting = bufs.and_then(|b| b.conn(target, conn));
        waiting.is_some_and(|q| !q.is_empty())
            || bufs.is_some_and(|b| b.stalled(target, conn))
            || self.is_cut(from, target)
            || self.is_cut(target, from)
    }

    /// The message waits in its writer's buffer, or, the buffer full, is
    /// dropped and its sender's server hears of it.
    pub(super) fn hold(&mut self, from: &str, target: Rc<str>, pid: u64, msg: Parcel, bytes: u64) {
        let conn = Conn::of(msg.get_msg_type());
        let cut = !self.links_up(from, &target);
        let bufs = self.net.buffers.entry(from.to_string()).or_default();
        if bufs.conn(&target, conn).map_or(0, VecDeque::len) >= STREAM_BUF_MSGS {
            self.count_traffic(from, &target, None);
            self.record_wire(from, &target, &msg, None);
            self.with_server(from, |s, ctx| s.send_buffer_full(ctx, &msg));
            return;
        }
        let h = Held {
            msg,
            target,
            pid,
            bytes,
            seq: 0,
            post: None,
        };
        let target = h.target.clone();
        bufs.push(conn, h, false);
        if cut {
            self.stall(from, &target, conn);
        }
        self.schedule_room(from);
    }

    /// `from`'s connection `conn` to `target` stalls (unless it already
    /// has): TCP's retransmission timer starts.
    pub(super) fn stall(&mut self, from: &str, target: &str, conn: Conn) {
        let now = self.now_ms();
        let rto_ms = first_rto_ms(self.link_spec(from, target).latency_ms);
        let bufs = self.net.buffers.entry(from.to_string()).or_default();
        if bufs.stalled(target, conn) {
            return;
        }
        let stall = Stall {
            rto_ms,
            next_try_ms: now + rto_ms,
        };
        bufs.stalls.insert((target.to_string(), conn), stall);
        let ev = Rare::Retransmit {
            machine: from.to_string(),
            target: target.to_string(),
            conn,
        };
        self.schedule(rto_ms, ev.into());
    }

    /// TCP retransmits on `from`'s stalled connection `conn` to `target`:
    /// through a healed link what waits goes out; else the timeout doubles.
    pub(in crate::sim::world) fn on_retransmit(&mut self, from: &str, target: &str, conn: Conn) {
        let now = self.now_ms();
        let up = self.links_up(from, target);
        let Some(bufs) = self.net.buffers.get_mut(from) else {
            return;
        };
        let key = (target.to_string(), conn);
        let Some(stall) = bufs.stalls.get_mut(&key) else {
            return;
        };
        // the timer of this stall, not one of a stall that ended and began
        // again meanwhile (its event still comes, at another moment)
        if now != stall.next_try_ms {
            return;
        }
        if up {
            bufs.stalls.remove(&key);
            self.pump(from);
            return;
        }
        stall.rto_ms = (stall.rto_ms * 2).min(MAX_RTO_MS);
        stall.next_try_ms = now + stall.rto_ms;
        let rto = stall.rto_ms;
        let ev = Rare::Retransmit {
            machine: from.to_string(),
            target: target.to_string(),
            conn,
        };
        self.schedule(rto, ev.into());
    }

    /// A snapshot POST of `bytes` starts: its chunks enter the NIC as they
    /// fit, after the messages already waiting.
    pub(super) fn post(&mut self, from: &str, target: Rc<str>, pid: u64, msg: Parcel, bytes: u64) {
        let Some(from_pid) = self.pid_of(from) else {
            return;
        };
        let h = Held {
            msg,
            target,
            pid,
            bytes,
            seq: 0,
            post: Some(Post {
                left: bytes,
                from_pid,
                first_arrival_ms: None,
            }),
        };
        let bufs = self.net.buffers.entry(from.to_string()).or_default();
        bufs.push(Conn::Snapshot, h, false);
        self.pump(from);
    }

    /// The NIC of `machine` has drained: it takes what fits now, oldest first.
    pub(in crate::sim::world) fn on_nic_room(&mut self, machine: &str) {
        let Some(bufs) = self.net.buffers.get_mut(machine) else {
            return;
        };
        bufs.room_at_ms = None;
        self.pump(machine);
    }

    /// `machine`'s NIC takes what fits now, oldest first, and the next look
    /// is scheduled for what waits still.
    fn pump(&mut self, machine: &str) {
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

    /// Schedules the moment the smallest piece at the head of a connection
    /// fits in `machine`'s NIC queue (unless an earlier look is due).
    fn schedule_room(&mut self, machine: &str) {
        let now = self.now_ms();
        let Some(bufs) = self.net.buffers.get(machine) else {
            return;
        };
        let open = bufs
            .conns
            .iter()
            .filter(|(k, _)| !bufs.stalls.contains_key(k));
        let heads = open.filter_map(|(_, q)| q.front());
        let Some(bytes) = heads.map(Held::piece).min() else {
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

    /// The oldest message at the head of its connection whose next piece
    /// fits now.
    fn next_fitting(&mut self, machine: &str) -> Option<Held> {
        let bufs = self.net.buffers.get(machine)?;
        let heads = bufs
            .conns
            .iter()
            .filter(|(k, _)| !bufs.stalls.contains_key(k))
            .filter_map(|(k, q)| q.front().map(|h| (k, h)));
        let fitting = heads.filter(|(_, h)| self.nic_has_room(machine, h.piece()));
        let key = fitting.min_by_key(|(_, h)| h.seq).map(|(k, _)| k.clone())?;
        let bufs = self.net.buffers.get_mut(machine)?;
        let q = bufs.conns.get_mut(&key)?;
        let h = q.pop_front();
        if q.is_empty() {
            bufs.conns.remove(&key);
        }
        h
    }

    /// Whether the connection a waiting message was dialled on is still
    /// there: the links up both ways and its process the same.
    fn conn_holds(&self, from: &str, h: &Held) -> bool {
        self.links_up(from, &h.target) && self.pid_of(&h.target) == Some(h.pid)
    }

    /// Whether the stream a waiting message was dialled on still stands
    /// (across a cut it outlives: `dial`).
    fn stream_stands(&self, from: &str, h: &Held) -> bool {
        let found = self.dial_url(from, h.msg.to, None);
        found.is_ok_and(|(t, pid)| t == h.target && pid == h.pid)
    }

    /// A waiting message goes on the wire, if its connection is still there
    /// (a POST: its next chunk).
    fn admit(&mut self, from: &str, h: Held) {
        if let Some(post) = h.post {
            self.admit_chunk(from, h, post);
            return;
        }
        if !self.conn_holds(from, &h) && self.stream_stands(from, &h) {
            // a cut the stream outlives: TCP holds it
            let (target, conn) = (h.target.clone(), Conn::of(h.msg.get_msg_type()));
            if let Some(bufs) = self.net.buffers.get_mut(from) {
                bufs.push(conn, h, true);
            }
            self.stall(from, &target, conn);
            return;
        }
        let lat = match self.conn_holds(from, &h) {
            false => None,
            true => {
                let conn = Conn::of(h.msg.get_msg_type());
                self.transmit_on(from, &h.target, h.bytes, false, conn).ok()
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

    /// A POST's next chunk leaves; after its last, the follower's handler
    /// gets the POST when that chunk arrives. A connection gone fails it.
    fn admit_chunk(&mut self, from: &str, mut h: Held, mut post: Post) {
        let chunk = h.piece();
        if !self.conn_holds(from, &h) {
            self.post_failed(from, &h, post, 0);
            return;
        }
        let Ok(lat) = self.transmit_on(from, &h.target, chunk, false, Conn::Snapshot) else {
            self.post_failed(from, &h, post, GIVE_UP_MS);
            return;
        };
        let arrival_ms = self.now_ms() + lat;
        let first_ms = *post.first_arrival_ms.get_or_insert(arrival_ms);
        post.left -= chunk;
        if post.left > 0 {
            h.post = Some(post);
            if let Some(bufs) = self.net.buffers.get_mut(from) {
                bufs.push(Conn::Snapshot, h, true);
            }
            return;
        }
        let key = (h.target.to_string(), h.pid, h.msg.from);
        self.net.transfers.insert(key, arrival_ms - first_ms);
        let ev = Rare::Snapshot {
            machine: h.target,
            pid: h.pid,
            msg: h.msg,
            from: from.to_string(),
            from_pid: post.from_pid,
        };
        self.schedule(lat, ev.into());
    }

    /// `from`'s streams to `to` broke (`dial`: a dial no longer finds the
    /// process they were dialled to): what waited in those writer buffers is
    /// lost with them, as rafthttp's `streamWriter.closeUnlocked` drops its
    /// buffer and tells raft the peer is unreachable when it held anything.
    /// (A snapshot POST has its own connection: its next chunk finds out.)
    pub(super) fn streams_broke(&mut self, from: &str, to: &str) {
        let Some(bufs) = self.net.buffers.get_mut(from) else {
            return;
        };
        let broken: Vec<(String, Conn)> = bufs
            .conns
            .keys()
            .filter(|(t, c)| t == to && *c != Conn::Snapshot)
            .cloned()
            .collect();
        bufs.stalls.retain(|(t, _), _| t != to);
        let lost: Vec<Held> = broken
            .iter()
            .filter_map(|k| bufs.conns.remove(k))
            .flatten()
            .collect();
        let mut peers = Vec::new();
        for h in lost {
            self.count_traffic(from, &h.target, None);
            self.record_wire(from, &h.target, &h.msg, None);
            if !peers.contains(&h.msg.to) {
                peers.push(h.msg.to);
            }
        }
        for peer in peers {
            self.with_server(from, |s, _| s.report_unreachable(peer));
        }
    }

    /// A POST's connection broke (`after_ms`: when its sender notices): the
    /// sender hears how, as [`World::on_snapshot`] would have answered.
    fn post_failed(&mut self, from: &str, h: &Held, post: Post, after_ms: u64) {
        let to = h.msg.to;
        let error = Some(self.post_error(from, to));
        let done = Rare::SnapshotDone {
            machine: from.to_string(),
            pid: post.from_pid,
            to,
            error,
        };
        self.schedule(after_ms, done.into());
    }
}
