//! The network room: directed links between machines and what crosses
//! them. A link is up while both machines are and it is not cut; it takes
//! its latency to cross (1 ms unless `net delay` says otherwise). Raft
//! messages and snapshot POSTs travel as events; `dial` says what a
//! connection finds at the far end, and keeps rafthttp's streams.
//!
//! The room is where the network model grows: a [`Link`] holds a directed
//! link's settings, and a NIC's rate and queue would sit beside it.

mod dial;

use std::collections::BTreeMap;
use std::rc::Rc;

use raft::eraftpb::Message;

use super::clock::Event;
use super::World;
use crate::sim::etcd::rafthttp::Reaches;
use crate::sim::etcd::server::Reach;

/// One-way latency of a link unless `net delay` says otherwise.
const DEFAULT_LATENCY_MS: u64 = 1;

/// A directed link's settings, where they differ from the defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Link {
    /// One-way latency.
    latency_ms: u64,
}

/// The network's state: only this room changes it. (Which links are cut is
/// [`World::cut`], public for the shell and the view to read.)
#[derive(Default)]
pub(super) struct Network {
    /// Links by (from, to), only those whose settings are not the defaults.
    links: BTreeMap<(String, String), Link>,
    /// rafthttp streams: machine, then peer ID, to the (machine, pid) they reach.
    streams: BTreeMap<String, BTreeMap<u64, (String, u64)>>,
    /// Counts the world's changes that can change what a dial finds: every
    /// action, every process start and end.
    topo_gen: u64,
    /// Each machine's last [`World::peer_reach`], with the key it was
    /// computed under: a pure function of that state, so it is reused until
    /// the key changes.
    reach_cache: BTreeMap<String, (dial::ReachKey, Rc<Reaches>)>,
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
    }
}

impl World {
    // ----- links -----

    /// `cut`: the link from `from` to `to` drops everything.
    pub(super) fn cut_link(&mut self, from: String, to: String) {
        self.cut.insert((from, to));
    }

    /// `heal`: one pair's links both ways, or every link.
    pub(super) fn heal(&mut self, pair: Option<(String, String)>) {
        match pair {
            Some((a, b)) => {
                self.cut.remove(&(a.clone(), b.clone()));
                self.cut.remove(&(b, a));
            }
            None => self.cut.clear(),
        }
    }

    /// `delay`: both links between `a` and `b` take `ms` (0: the default).
    pub(super) fn set_delay(&mut self, a: String, b: String, ms: u64) {
        for key in [(a.clone(), b.clone()), (b, a)] {
            if ms == 0 {
                self.net.links.remove(&key);
            } else {
                self.net.links.insert(key, Link { latency_ms: ms });
            }
        }
    }

    /// Machine `name` is gone: its links and streams go with it.
    pub(super) fn forget_links(&mut self, name: &str) {
        self.cut.retain(|(a, b)| *a != name && *b != name);
        let net = &mut self.net;
        net.links.retain(|(a, b), _| *a != name && *b != name);
        net.streams.remove(name);
        for to in net.streams.values_mut() {
            to.retain(|_, (b, _)| *b != name);
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
    fn is_cut(&self, a: &str, b: &str) -> bool {
        self.cut.iter().any(|(x, y)| x == a && y == b)
    }

    pub(super) fn latency(&self, a: &str, b: &str) -> u64 {
        if a == b {
            return 0;
        }
        self.net
            .links
            .iter()
            .find(|((x, y), _)| x == a && y == b)
            .map_or(DEFAULT_LATENCY_MS, |(_, l)| l.latency_ms)
    }

    // ----- raft messages -----

    /// Puts a raft message from `from`'s server on the wire (to the peer URL
    /// `url`, or as the transport knows member `m.to`), or drops it.
    pub(super) fn send_raft(&mut self, from: &str, m: Message, url: Option<String>) {
        let snapshot = m.get_msg_type() == raft::eraftpb::MessageType::MsgSnapshot;
        let (target, pid) = match self.dial_url(from, m.to, url.clone()) {
            Ok(found) => found,
            Err(reach) => {
                if let Some(target) = self.raft_target(from, m.to, url) {
                    self.count_traffic(from, &target, None);
                    self.record_wire(from, &target, &m, None);
                }
                if snapshot {
                    self.snapshot_undelivered(from, m.to, &reach);
                }
                return;
            }
        };
        // a dial only succeeds over links up both ways
        self.count_traffic(from, &target, Some(&m));
        let lat = self.latency(from, &target);
        self.record_wire(from, &target, &m, Some(lat));
        let msg = Box::new(m);
        let ev = match self.pid_of(from).filter(|_| snapshot) {
            Some(from_pid) => Event::Snapshot {
                machine: target,
                pid,
                msg,
                from: from.to_string(),
                from_pid,
            },
            None => Event::Raft {
                machine: target,
                pid,
                msg,
            },
        };
        self.schedule(lat, ev);
    }

    /// The machine a raft message to member `id` was meant for: the one its URL
    /// names (`None` when no machine answers to the host).
    fn raft_target(&self, from: &str, id: u64, url: Option<String>) -> Option<String> {
        let url = url.or_else(|| self.peer_url(from, id))?;
        self.target_of(from, &url)
            .map(|(target, _)| target.to_string())
    }

    pub(super) fn on_raft(&mut self, machine: &str, pid: u64, msg: Message) {
        // etcd answers a removed member's messages with 410 Gone; the sender
        // learns it was removed when its stream readers redial (rafthttp)
        if self.accepts(machine, pid, msg.from) {
            self.step_raft(machine, msg);
        }
    }

    /// Whether process `pid` on `machine` still runs and takes messages from `from`.
    fn accepts(&self, machine: &str, pid: u64, from: u64) -> bool {
        self.machines
            .get(machine)
            .and_then(|m| m.process.as_ref())
            .is_some_and(|p| p.pid == pid && !p.server.backend.members.removed.contains(&from))
    }

    /// Hands a message to `machine`'s server, and stops a server that ends on it.
    fn step_raft(&mut self, machine: &str, msg: Message) {
        let stopping = self.with_server(machine, |s, ctx| {
            s.step(ctx, msg);
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
    pub(super) fn on_snapshot(&mut self, machine: &str, pid: u64, msg: Message, from: (&str, u64)) {
        let to = msg.to;
        let error = if self.accepts(machine, pid, msg.from) {
            self.step_raft(machine, msg);
            None
        } else {
            Some(self.post_error(from.0, to))
        };
        let lat = self.latency(machine, from.0);
        let done = Event::SnapshotDone {
            machine: from.0.to_string(),
            pid: from.1,
            to,
            error,
        };
        self.schedule(lat, done);
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
            for (target, _) in to.values() {
                debug_assert!(
                    self.machines.contains_key(target),
                    "{from} streams to {target}"
                );
            }
        }
    }
}
