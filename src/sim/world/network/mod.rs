//! The network room: directed links between machines and what crosses
//! them. A link is up while both machines are and it is not cut. What
//! crosses it leaves through its machine's NIC and takes the link's time
//! (`nic`: rate, queue, latency, jitter, loss; 1 ms and a 10 gbit NIC unless
//! `net delay|loss|rate` say otherwise), by its size in bytes (`size`). Raft
//! messages and snapshot POSTs travel as events; a raft message that finds
//! the NIC's queue full waits in its writer's buffer, and a snapshot POST
//! enters the queue in chunks as it has room (`buffer`); `dial` says what a
//! connection finds at the far end, and keeps rafthttp's streams.

mod buffer;
mod dial;
mod nic;
mod size;

use std::collections::BTreeMap;
use std::rc::Rc;

use raft::eraftpb::Message;

use super::clock::{Event, Rare};
use super::names::ByName;
use super::World;
use crate::sim::drop_unused;
use crate::sim::etcd::parcel::Parcel;
use crate::sim::etcd::rafthttp::Flight;
use crate::sim::etcd::server::Reach;
pub(super) use dial::PeerHttp;
pub(super) use nic::Conn;
use nic::{Dropped, Link, Nic};
pub use nic::{
    LinkSetting, LinkSpec, NicSpec, DEFAULT_LATENCY_MS, DEFAULT_LIMIT_BYTES, DEFAULT_RATE_BPS,
};
pub(super) use size::{request_bytes, response_bytes, HTTP_OVERHEAD};

/// The network's state: only this room changes it. (Which links are cut is
/// [`World::cut`], public for the shell and the view to read.)
#[derive(Default)]
pub(super) struct Network {
    /// Links by (from, to), only those whose settings are not the defaults.
    links: BTreeMap<(String, String), Link>,
    /// Each machine's NIC, from its first message or `net rate` on.
    nics: ByName<Nic>,
    /// rafthttp streams: machine, then peer ID, to the machine and process
    /// they reach.
    streams: ByName<BTreeMap<u64, dial::Stream>>,
    /// Counts the world's changes that can change what a dial finds: the
    /// actions that can (`Action::changes_reach`), a cut's ageing, every
    /// process start and end, and every step that changed its server's
    /// `reach_signature` (peers, their URLs, removed members, IDs).
    topo_gen: u64,
    /// Each machine's last [`World::peer_reach`], with the `topo_gen` it was
    /// computed under: a pure function of that state, so it is reused until
    /// the generation moves.
    reach_cache: ByName<(u64, dial::Dialled)>,
    /// Each sender's rafthttp writer buffers (`buffer`).
    buffers: BTreeMap<String, buffer::Buffers>,
    /// When each cut link was cut (`World::cut` says which are): a stream
    /// outlives a cut only so long (`dial`).
    cut_at: BTreeMap<(String, String), u64>,
    /// Snapshot POSTs whose last byte is on its way, by (receiving machine,
    /// its process, the sending member): the ms from their first byte's
    /// arrival to their last's.
    transfers: BTreeMap<(String, u64, u64), u64>,
}

impl Network {
    /// Something changed that can change what a dial between machines finds.
    pub(super) fn topology_changed(&mut self) {
        self.topo_gen += 1;
    }

    /// `machine`'s process ended: its streams end with it (the peers'
    /// streams to it notice by pid).
    pub(super) fn close_streams_of(&mut self, machine: &str) {
        self.streams.remove(machine);
        self.buffers.remove(machine);
    }
}

impl World {
    // ----- links -----

    /// `cut`: the link from `from` to `to` drops everything. A stream that
    /// outlives the cut (`dial`) dies when TCP's keepalive gives up: the
    /// world looks again then.
    pub(super) fn cut_link(&mut self, from: String, to: String) {
        let now = self.now_ms();
        let key = (from, to);
        if !self.net.cut_at.contains_key(&key) {
            self.net.cut_at.insert(key.clone(), now);
            self.schedule(nic::KEEPALIVE_GIVE_UP_MS, Event::CutAged);
        }
        self.cut.insert(key);
    }

    /// `heal`: one pair's links both ways, or every link.
    pub(super) fn heal(&mut self, pair: Option<(String, String)>) {
        match pair {
            Some((a, b)) => {
                let (ab, ba) = ((a.clone(), b.clone()), (b, a));
                for key in [ab, ba] {
                    self.net.cut_at.remove(&key);
                    self.cut.remove(&key);
                }
            }
            None => {
                self.net.cut_at.clear();
                self.cut.clear();
            }
        }
    }

    /// `delay`: both links between `a` and `b` take `ms` (0: the default),
    /// keeping their other settings.
    pub(super) fn set_delay(&mut self, a: String, b: String, ms: u64) {
        let ms = if ms == 0 { DEFAULT_LATENCY_MS } else { ms };
        for (from, to) in [(a.clone(), b.clone()), (b, a)] {
            let spec = LinkSpec {
                latency_ms: ms,
                ..self.link_spec(&from, &to)
            };
            self.set_link(from, to, spec);
        }
    }

    /// The link from `from` to `to` gets `spec` (the defaults: forgotten).
    pub(super) fn set_link(&mut self, from: String, to: String, spec: LinkSpec) {
        let key = (from, to);
        if spec == LinkSpec::default() {
            self.net.links.remove(&key);
            return;
        }
        match self.net.links.get_mut(&key) {
            Some(link) => link.spec = spec,
            None => {
                self.net.links.insert(key, Link::new(spec));
            }
        }
    }

    /// Machine `machine`'s NIC gets `spec`; what it queued stays queued,
    /// and drains at the new rate.
    pub(super) fn set_nic(&mut self, machine: String, spec: NicSpec) {
        let now_us = crate::sim::mul_sat(self.now_ms(), 1000);
        self.net
            .nics
            .get_or_insert_with(&machine, Nic::default)
            .respec(now_us, spec);
        self.nic_changed(&machine);
    }

    /// The settings of the link from `from` to `to`.
    pub fn link_spec(&self, from: &str, to: &str) -> LinkSpec {
        self.net
            .links
            .iter()
            .find(|((x, y), _)| x == from && y == to)
            .map_or_else(LinkSpec::default, |(_, l)| l.spec)
    }

    /// Every link whose settings are not the defaults, by (from, to).
    pub fn link_specs(&self) -> Vec<(&str, &str, LinkSpec)> {
        let links = self.net.links.iter();
        links
            .map(|((a, b), l)| (a.as_str(), b.as_str(), l.spec))
            .collect()
    }

    /// A machine's NIC settings and the bytes in its queue now.
    pub fn nic(&self, machine: &str) -> (NicSpec, u64) {
        let now_us = crate::sim::mul_sat(self.now_ms(), 1000);
        self.net
            .nics
            .get(machine)
            .map_or((NicSpec::default(), 0), |n| {
                (n.spec, n.backlog_bytes(now_us))
            })
    }

    /// Machine `name` is gone: its links, NIC and streams go with it.
    pub(super) fn forget_links(&mut self, name: &str) {
        self.cut.retain(|(a, b)| *a != name && *b != name);
        let net = &mut self.net;
        net.cut_at.retain(|(a, b), _| *a != name && *b != name);
        net.links.retain(|(a, b), _| *a != name && *b != name);
        net.nics.remove(name);
        net.streams.remove(name);
        net.buffers.remove(name);
        net.transfers.retain(|(m, _, _), _| m != name);
        for to in net.streams.values_mut() {
            to.retain(|_, stream| *stream.target != *name);
        }
    }

    pub(super) fn links_up(&self, a: &str, b: &str) -> bool {
        self.link_up(a, b) && !self.is_cut(b, a)
    }

    pub(super) fn link_up(&self, a: &str, b: &str) -> bool {
        let up = |m: &str| self.machines.get(m).is_some_and(|m| m.up);
        up(a) && up(b) && !self.is_cut(a, b)
    }

    /// Whether the link from `a` to `b` is cut (a scan: the set is small, and
    /// a lookup by `(String, String)` would allocate on every message).
    #[inline]
    fn is_cut(&self, a: &str, b: &str) -> bool {
        !self.cut.is_empty() && self.cut.iter().any(|(x, y)| x == a && y == b)
    }

    // ----- probes -----

    /// The probes `machine`'s transport sends now (`due`, as its
    /// `probes_due` named them), each timed as its request
    /// and answer would cross the network now (`None`: the peer does not
    /// answer). `targets`: the machine a dial of each peer URL reaches, for
    /// the peers where a member answers ([`World::peer_reach`] under the
    /// current key). Empty, and nothing computed, between the probers' ticks.
    pub(super) fn probe_flights(
        &self,
        machine: &str,
        due: Vec<u64>,
        targets: &BTreeMap<u64, Rc<str>>,
    ) -> Vec<(u64, Option<Flight>)> {
        let now_ms = self.now_ms();
        if due.is_empty() {
            // most ticks: nothing to collect, nothing to free
            drop_unused(due);
            return Vec::new();
        }
        let now_us = crate::sim::mul_sat(now_ms, 1000);
        let flight = |id| {
            // a probe dials anew (the dial `peer_reach` keeps for the current
            // key), not over a stream: one outliving a cut carries nothing for it
            let target = targets.get(&id)?;
            let there_us = self.one_way_us(machine, target, HTTP_OVERHEAD, now_us);
            let back_us = self.one_way_us(target, machine, HTTP_OVERHEAD, now_us + there_us);
            Some(Flight { there_us, back_us })
        };
        due.into_iter().map(|id| (id, flight(id))).collect()
    }

    // ----- raft messages -----

    /// Puts a raft message from `from`'s server on the wire (to the peer URL
    /// `url`, or as the transport knows member `m.to`), or drops it.
    pub(super) fn send_raft(&mut self, from: &str, m: Parcel, url: Option<Rc<str>>) {
        // read through the parcel once (each read checks that it holds its message)
        let msg: &Message = &m;
        let (to, kind) = (msg.to, msg.get_msg_type());
        let snapshot = kind == raft::eraftpb::MessageType::MsgSnapshot;
        // a snapshot POST dials its own connection; a message takes the stream
        let found = match snapshot {
            true => self
                .fresh_dial(from, to, url.as_deref())
                .map(|end| (end, None)),
            false => self.dial_counted(from, to, url.as_deref()),
        };
        let ((target, pid), counters) = match found {
            Ok(found) => found,
            Err(reach) => {
                if let Some(target) = self.raft_target(from, to, url.as_deref()) {
                    self.count_traffic(from, &target, None);
                    self.record_wire(from, &target, msg, None);
                }
                if snapshot {
                    self.snapshot_undelivered(from, to, &reach);
                }
                return;
            }
        };
        // a dial only succeeds over links up both ways
        if snapshot {
            self.start_post(from, target, pid, m);
            return;
        }
        let conn = Conn::of(kind);
        // `None`: it waits behind what its writer holds, or on a stalled or cut link
        let sent = (!self.writer_waits(from, &target, conn)).then(|| {
            // a heartbeat's size changes nothing on a fast NIC: not computed
            let max = size::small_raft_bound(msg);
            let unweighed = max.and_then(|max| self.transmit_unweighed(from, &target, max));
            debug_assert!(unweighed.is_none() || size::raft_bytes(msg) <= size::SMALL_RAFT_MAX);
            match unweighed {
                Some(lat) => Ok(lat),
                None => self.transmit_on(from, &target, size::raft_bytes(msg), true, conn),
            }
        });
        let lat = match sent {
            Some(Ok(lat)) => lat,
            None | Some(Err(Dropped::NicFull)) => {
                // backpressure: it waits in its writer's buffer
                let bytes = size::raft_bytes(msg);
                self.hold(from, target, pid, m, bytes);
                return;
            }
            Some(Err(Dropped::Lost)) => {
                // a link losing everything drops the message
                self.count_traffic(from, &target, None);
                self.record_wire(from, &target, msg, None);
                return;
            }
        };
        match counters {
            Some(slot) => self.count_at(slot, Some(msg)),
            None => self.count_traffic(from, &target, Some(msg)),
        }
        self.record_wire(from, &target, msg, Some(lat));
        let ev = Event::Raft {
            machine: target,
            pid,
            msg: m,
        };
        self.schedule(lat, ev);
    }

    /// A snapshot POST starts (`buffer`: its chunks enter the NIC as they
    /// fit). The message record shows it leaving now and arriving when its
    /// bytes would have left behind the queue as it stands, at the NIC's
    /// rate, then crossed the link (the handler gets it when its last chunk
    /// arrives, a little later when other messages take turns with it).
    fn start_post(&mut self, from: &str, target: Rc<str>, pid: u64, m: Parcel) {
        let merged = self.server(from).and_then(|s| s.merged_snapshot_bytes(&m));
        let bytes = merged.map_or_else(|| size::raft_bytes(&m), |b| b + HTTP_OVERHEAD);
        let now_us = crate::sim::mul_sat(self.now_ms(), 1000);
        let eta_ms = self.one_way_us(from, &target, bytes, now_us) / 1000;
        self.count_traffic(from, &target, Some(&m));
        self.record_wire(from, &target, &m, Some(eta_ms));
        self.post(from, target, pid, m, bytes);
    }

    /// The machine a raft message to member `id` was meant for: the one its URL
    /// names (`None` when no machine answers to the host).
    fn raft_target(&self, from: &str, id: u64, url: Option<&str>) -> Option<String> {
        let url = url.map_or_else(|| self.peer_url(from, id), |u| Some(u.to_string()))?;
        self.target_of(from, &url)
            .map(|(target, _)| target.to_string())
    }

    pub(super) fn on_raft(&mut self, machine: &str, pid: u64, msg: Parcel) {
        // etcd answers a removed member's messages with 410 Gone; the sender
        // learns it was removed when its stream readers redial (rafthttp).
        // One lookup of the machine: what `accepts` and `receive_snapshot` do.
        let stopping = self.with_process(machine, |p, ctx| {
            let s = &mut p.server;
            if p.pid != pid || s.backend.members.removed.contains(&msg.from) {
                return false;
            }
            s.step(ctx, msg);
            s.stop_at.is_some()
        });
        if stopping == Some(true) {
            self.check_stop(machine);
        }
    }

    /// Whether process `pid` on `machine` still runs and takes messages from `from`.
    fn accepts(&self, machine: &str, pid: u64, from: u64) -> bool {
        self.machines
            .get(machine)
            .and_then(|m| m.process.as_ref())
            .is_some_and(|p| p.pid == pid && !p.server.backend.members.removed.contains(&from))
    }

    /// Hands a snapshot POST whose bytes took `transfer_ms` to `machine`'s
    /// server, and stops a server that ends on it.
    fn receive_snapshot(&mut self, machine: &str, msg: Parcel, transfer_ms: u64) {
        let stopping = self.with_server(machine, |s, ctx| {
            s.receive_snapshot(ctx, msg, transfer_ms);
            s.stop_at.is_some()
        });
        if stopping == Some(true) {
            self.check_stop(machine);
        }
    }

    // ----- snapshots -----

    /// A snapshot POST arrives: the follower's handler takes it and answers
    /// once raft has it; a process that is gone (or refuses a removed
    /// sender) fails the POST instead.
    pub(super) fn on_snapshot(&mut self, machine: &str, pid: u64, msg: Parcel, from: (&str, u64)) {
        let to = msg.to;
        let key = (machine.to_string(), pid, msg.from);
        let transfer_ms = self.net.transfers.remove(&key).unwrap_or(0);
        let error = if self.accepts(machine, pid, msg.from) {
            self.receive_snapshot(machine, msg, transfer_ms);
            None
        } else {
            Some(self.post_error(from.0, to))
        };
        let done: Event = Rare::SnapshotDone {
            machine: from.0.to_string(),
            pid: from.1,
            to,
            error,
        }
        .into();
        // the answer is a stream of bytes too: it waits, and is never dropped
        let lat = self
            .transmit_on(machine, from.0, HTTP_OVERHEAD, false, Conn::Snapshot)
            .ok();
        self.schedule(lat.unwrap_or(nic::GIVE_UP_MS), done);
    }

    /// The sender of a snapshot to member `to` hears how its POST ended.
    pub(super) fn on_snapshot_done(
        &mut self,
        machine: &str,
        pid: u64,
        to: u64,
        error: Option<String>,
    ) {
        if self.pid_of(machine) == Some(pid) {
            self.with_server(machine, |s, ctx| s.snapshot_done(ctx, to, error));
        }
    }

    /// Why a snapshot POST from `from` to member `to` failed: what a dial
    /// finds now (a process that ended mid-request leaves `EOF`).
    fn post_error(&self, from: &str, to: u64) -> String {
        let local = self.server(from).map_or(0, |s| s.id);
        match self.dial(from, to) {
            Ok(_) => "EOF".to_string(),
            Err(reach) => reach.dial_error(local, to).unwrap_or_default(),
        }
    }

    /// A snapshot to member `to` could not even be dialled: its sender learns
    /// at once.
    fn snapshot_undelivered(&mut self, from: &str, to: u64, reach: &Reach) {
        let local = self.server(from).map_or(0, |s| s.id);
        let error = reach.dial_error(local, to);
        self.with_server(from, |s, ctx| s.snapshot_done(ctx, to, error));
    }

    /// The network's promises, checked at the world's door (debug builds):
    /// only a machine that runs a process holds streams, and only to
    /// machines that exist.
    pub(super) fn debug_check_network(&self) {
        for (from, to) in &self.net.streams {
            debug_assert!(
                self.pid_of(from).is_some(),
                "{from} holds streams and runs nothing"
            );
            for stream in to.values() {
                let target = &stream.target;
                debug_assert!(
                    self.machines.contains_key(target),
                    "{from} streams to {target}"
                );
            }
        }
    }
}
