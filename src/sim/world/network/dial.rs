//! Dialling: what a connection from one machine to a URL finds at the far
//! end (no such host, silence over a cut link, a refused port, a listening
//! etcd and what its handler answers), and rafthttp's streams, which stay
//! up while their process lives and the links hold. A 3.5 stream also
//! outlives a cut: its reader has no read deadline
//! ([`EtcdVersion::stream_deadlines`]), so it waits on its TCP connection
//! until the keepalive gives up ([`KEEPALIVE_GIVE_UP_MS`]); what is sent on
//! it meanwhile waits for TCP's retransmissions (`buffer`).

use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

use super::super::clock::Event;
use super::super::{host_port, split_url, Machine, World};
use super::nic::{Conn, KEEPALIVE_GIVE_UP_MS};
use crate::sim::drop_unused;
use crate::sim::etcd::rafthttp::{Kind, Reaches, StreamRequest};
use crate::sim::etcd::server::{Reach, Server};
use crate::sim::etcd::version::EtcdVersion;

/// The machine and the process a dial reaches.
pub(in crate::sim::world) type End = (Rc<str>, u64);

/// What [`World::peer_reach`] found for a machine's peers: each one's
/// reaches, and the machine a new dial of its peer URL reaches when a member
/// answers there (what [`World::fresh_dial`] would find: where a probe goes).
#[derive(Debug, Clone, Default)]
pub(in crate::sim::world) struct Dialled {
    pub reaches: Rc<Reaches>,
    pub url_targets: Rc<BTreeMap<u64, Rc<str>>>,
}

/// A rafthttp stream the world keeps: the machine and the process it
/// reaches, and the reach generation (`Network::topo_gen`) at which a
/// message last found it standing, its peer's handler accepting. Until the
/// generation moves, nothing that check read has changed, so a message
/// takes the stream without checking again ([`World::dial_url`]).
#[derive(Debug, Clone)]
pub(in crate::sim::world) struct Stream {
    pub target: Rc<str>,
    pub pid: u64,
    standing_at: Cell<Option<u64>>,
    /// Where the traffic counters of the pair (this machine, `target`) are
    /// (`World::traffic_slot`).
    traffic: usize,
}

impl Stream {
    fn new(target: Rc<str>, pid: u64, traffic: usize) -> Stream {
        Stream {
            target,
            pid,
            standing_at: Cell::new(None),
            traffic,
        }
    }

    /// The machine and the process it reaches.
    fn end(&self) -> End {
        (Rc::clone(&self.target), self.pid)
    }
}

/// What an HTTP request to a peer URL finds (a joining member's
/// `/downgrade/enabled`).
pub(in crate::sim::world) enum PeerHttp {
    /// A server listens there: the machine it runs on.
    Server(String),
    /// Packets vanish: the `host:port` dialled (the dial times out).
    Silent(String),
    /// The dial fails at once: Go's error text.
    Refused(String),
}

impl World {
    // ----- what a dial finds -----

    /// What an HTTP request from `from` to peer URL `url` finds.
    pub(in crate::sim::world) fn peer_http(&self, from: &str, url: &str) -> PeerHttp {
        let host = split_url(url).map(|(h, _)| h).unwrap_or_default();
        let Some((target, _)) = self.target_of(from, url) else {
            return PeerHttp::Refused(format!("dial tcp: lookup {host}: no such host"));
        };
        if !self.links_up(from, target) {
            return PeerHttp::Silent(host_port(url));
        }
        if self.peer_server(from, url).is_none() {
            return PeerHttp::Refused(format!(
                "dial tcp {}: connect: connection refused",
                host_port(url)
            ));
        }
        PeerHttp::Server(target.to_string())
    }

    /// The server listening on a peer URL, reachable from `from` both ways.
    pub(in crate::sim::world) fn peer_server(&self, from: &str, url: &str) -> Option<&Server> {
        let (target, port) = self.target_of(from, url)?;
        let (host, _) = split_url(url)?;
        if !self.links_up(from, target) {
            return None;
        }
        let m = self.machines.get(target)?;
        let p = m.process.as_ref()?;
        self.listens(target, &p.server.cfg.listen_peer_urls, from, host, port)
            .then_some(&p.server)
    }

    pub(super) fn target_of<'a>(&'a self, from: &'a str, url: &str) -> Option<(&'a str, u16)> {
        let (host, port) = split_url(url)?;
        Some((self.resolve(host, from)?, port))
    }

    /// Whether a process on `target` listening on `urls` accepts a connection from
    /// `from` to `dialed:port`. `0.0.0.0` accepts everything; a loopback address no
    /// machine owns (`localhost`, `127.0.0.1`) accepts only the machine itself
    /// dialling loopback (etcd's default listen URLs, and the classic mistake of
    /// forgetting `--listen-peer-urls`); any other address of the target accepts
    /// connections to the target's addresses.
    pub(in crate::sim::world) fn listens(
        &self,
        target: &str,
        urls: &[String],
        from: &str,
        dialed: &str,
        port: u16,
    ) -> bool {
        let dialed_loopback = self.is_local_alias(dialed);
        urls.iter().any(|u| {
            split_url(u).is_some_and(|(h, p)| {
                if p != port {
                    return false;
                }
                if h == "0.0.0.0" || h == "[::]" {
                    return true;
                }
                if self.is_local_alias(h) {
                    return dialed_loopback && from == target;
                }
                !dialed_loopback && self.resolve(h, target) == Some(target)
            })
        })
    }

    /// `localhost`, `127.0.0.1` or `::1` when no machine owns it: "this machine".
    fn is_local_alias(&self, host: &str) -> bool {
        let host = self.hosts.get(host).map(|s| s.as_str()).unwrap_or(host);
        matches!(host, "localhost" | "127.0.0.1" | "::1" | "[::1]") && self.owner_of(host).is_none()
    }

    /// What dialling `url` from `from`'s server (member `local` of `cluster_id`)
    /// finds, expecting member `id` there.
    fn reach(&self, from: &str, url: &str, cluster_id: u64, local: u64, id: u64) -> Reach {
        let host = split_url(url).map(|(h, _)| h).unwrap_or_default();
        let Some((target, port)) = self.target_of(from, url) else {
            return Reach::Refused(format!("dial tcp: lookup {host}: no such host"));
        };
        if !self.links_up(from, target) {
            return Reach::Silent(host_port(url));
        }
        let refused = || {
            Reach::Refused(format!(
                "dial tcp {}: connect: connection refused",
                host_port(url)
            ))
        };
        let Some(p) = self.machines.get(target).and_then(|m| m.process.as_ref()) else {
            return refused();
        };
        if !self.listens(target, &p.server.cfg.listen_peer_urls, from, host, port) {
            return refused();
        }
        let ok = Reach::Ok {
            pid: p.pid,
            version: p.server.cfg.version,
        };
        Self::handler_verdict(&p.server, cluster_id, local, id).unwrap_or(ok)
    }

    /// What a peer's stream handler answers member `local` of `cluster_id`
    /// asking for member `id`: `None` when it accepts.
    fn handler_verdict(s: &Server, cluster_id: u64, local: u64, id: u64) -> Option<Reach> {
        if s.cluster_id != cluster_id {
            return Some(Reach::Mismatch {
                remote_cluster: s.cluster_id,
            });
        }
        if s.backend.members.removed.contains(&local) {
            return Some(Reach::Removed);
        }
        if s.id != id || !s.transport.peers.contains_key(&local) {
            return Some(Reach::Unknown);
        }
        None
    }

    /// A peer's first URL as `from`'s transport knows it.
    pub(super) fn peer_url(&self, from: &str, id: u64) -> Option<String> {
        self.server(from)?.peer_url(id)
    }

    /// Where a message from `from`'s server to member `id` goes: over the stream
    /// rafthttp already holds to that process, or else by dialling the peer URL.
    pub(in crate::sim::world) fn dial(&self, from: &str, id: u64) -> Result<End, Reach> {
        self.dial_url(from, id, None)
    }

    /// [`Self::dial`] with the peer's URL given (`None`: as the transport knows it now).
    #[inline]
    pub(super) fn dial_url(&self, from: &str, id: u64, url: Option<&str>) -> Result<End, Reach> {
        self.dial_counted(from, id, url).map(|(end, _)| end)
    }

    /// [`Self::dial_url`], and where the pair's traffic counters are when a
    /// stream found standing carries the message (`None` otherwise: they are
    /// found by name).
    pub(super) fn dial_counted(
        &self,
        from: &str,
        id: u64,
        url: Option<&str>,
    ) -> Result<(End, Option<usize>), Reach> {
        if let Some(stream) = self.net.streams.get(from).and_then(|to| to.get(&id)) {
            // this runs for every raft message: a stream found standing at
            // this generation still stands
            if stream.standing_at.get() == Some(self.net.topo_gen) {
                debug_assert_eq!(
                    self.stream_dial(from, id, stream),
                    Some(Ok(stream.end())),
                    "{from}'s stream to {id:x} stands at generation {}",
                    self.net.topo_gen
                );
                debug_assert_eq!(
                    self.traffic_slot_of(from, &stream.target),
                    Some(stream.traffic),
                    "{from}'s stream to {id:x} counts its pair's traffic"
                );
                return Ok((stream.end(), Some(stream.traffic)));
            }
            if let Some(found) = self.stream_dial(from, id, stream) {
                return found.map(|end| (end, None));
            }
        }
        self.fresh_dial(from, id, url).map(|end| (end, None))
    }

    /// What a message from `from`'s server to member `id` finds over
    /// `stream`, checked in full: the connection stands and the handler
    /// accepts or refuses; `None` when the stream is gone (a new dial
    /// decides). A stream that stands, uncut, is marked standing at this
    /// generation.
    fn stream_dial(&self, from: &str, id: u64, stream: &Stream) -> Option<Result<End, Reach>> {
        let sender = self.machines.get(from);
        let (cid, local) = Self::dialler_on(sender);
        let target = &*stream.target;
        let peer = self.machines.get(target);
        let live = peer
            .and_then(|m| m.process.as_ref())
            .filter(|p| p.pid == stream.pid);
        let up = sender.is_some_and(|m| m.up) && peer.is_some_and(|m| m.up);
        let p = live.filter(|_| up)?;
        let cut = self.is_cut(from, target) || self.is_cut(target, from);
        if !cut {
            // the connection stands; the handler still has its say
            if let Some(r) = Self::handler_verdict(&p.server, cid, local, id) {
                return Some(Err(r));
            }
            stream.standing_at.set(Some(self.net.topo_gen));
            return Some(Ok(stream.end()));
        }
        // it stands, and nothing crosses it: TCP retransmits (not kept: a
        // cut ages by the clock, and `CutAged` comes after the moment's messages)
        self.outlives_cut(from, target, p.server.cfg.version)
            .then(|| Ok(stream.end()))
    }

    /// What a new connection from `from`'s server to member `id` finds (at
    /// `url`, or the peer URL its transport knows), streams aside: a
    /// snapshot POST, a stream reader dialling. (A probe's dial is the one
    /// [`Self::peer_reach`] keeps: [`Dialled::url_targets`].)
    pub(super) fn fresh_dial(&self, from: &str, id: u64, url: Option<&str>) -> Result<End, Reach> {
        let (cid, local) = self.dialler(from);
        let url = url.map_or_else(
            || self.peer_url(from, id).unwrap_or_default(),
            str::to_string,
        );
        match self.reach(from, &url, cid, local, id) {
            Reach::Ok { pid, .. } => {
                let (target, _) = self
                    .target_of(from, &url)
                    .ok_or_else(|| Reach::Silent(host_port(&url)))?;
                Ok((Rc::from(target), pid))
            }
            other => Err(other),
        }
    }

    /// The cluster ID and member ID of `from`'s server, which a peer's
    /// handler checks (0 and 0 when nothing runs there).
    fn dialler(&self, from: &str) -> (u64, u64) {
        Self::dialler_on(self.machines.get(from))
    }

    /// [`Self::dialler`] of a machine already looked up.
    fn dialler_on(machine: Option<&Machine>) -> (u64, u64) {
        let process = machine.and_then(|m| m.process.as_ref());
        process.map_or((0, 0), |p| (p.server.cluster_id, p.server.id))
    }

    /// Whether a stream from `from` to `target` still stands across the cut
    /// between them (either way): its reader, on `target`, runs `reader`'s
    /// etcd; without deadlines it waits until TCP's keepalive gives up,
    /// counted from the cut's first link. (A 3.4 reader's read timeout ends
    /// the stream, and the world drops it at the cut; the reader's own log
    /// lines come 5 s later, `rafthttp`.) Both ends are taken to agree: in a
    /// mixed cluster a 3.4 reader's stream is dropped at the cut, a 3.5
    /// one's kept, whatever the writer runs.
    fn outlives_cut(&self, from: &str, target: &str, reader: EtcdVersion) -> bool {
        if reader.stream_deadlines() {
            return false;
        }
        let between =
            |(a, b): &(String, String)| (a == from && b == target) || (a == target && b == from);
        let cuts = self.net.cut_at.iter().filter(|(k, _)| between(k));
        let since = cuts.map(|(_, at)| *at).min();
        since.is_some_and(|at| self.now_ms() < at + KEEPALIVE_GIVE_UP_MS)
    }

    // ----- rafthttp's streams -----

    /// What a dial from `machine`'s server to each of its peers finds; keeps
    /// rafthttp's streams: one stays up while its process lives and the links
    /// hold, even if the peer's URLs change (`member update`).
    pub(in crate::sim::world) fn peer_reach(&mut self, machine: &str) -> Dialled {
        let gen = self.net.topo_gen;
        if let Some((at, d)) = self.net.reach_cache.get(machine) {
            if *at == gen {
                return d.clone();
            }
        }
        let d = self.dial_peers_now(machine);
        // kept under the generation it began at: were it to move meanwhile,
        // the next look computes afresh
        self.net
            .reach_cache
            .insert(machine.to_string(), (gen, d.clone()));
        d
    }

    /// [`Self::peer_reach`] computed afresh.
    fn dial_peers_now(&mut self, machine: &str) -> Dialled {
        let Some((ids, cid, local)) = self.server(machine).map(|s| {
            let ids: Vec<u64> = s.transport.peers.keys().copied().collect();
            (ids, s.cluster_id, s.id)
        }) else {
            return Dialled::default();
        };
        let mut out = Reaches::default();
        let mut url_targets = BTreeMap::new();
        for id in ids {
            match self.dial(machine, id) {
                Ok(stream) => {
                    let pid = stream.1;
                    let version = self.server(&stream.0).map(|s| s.cfg.version);
                    self.keep_stream(machine, id, stream);
                    let version = version.unwrap_or_default();
                    out.stream.insert(id, Reach::Ok { pid, version });
                }
                Err(r) => {
                    let gone = self
                        .net
                        .streams
                        .get_mut(machine)
                        .and_then(|to| to.remove(&id));
                    if let Some(stream) = gone {
                        self.streams_broke(machine, &stream.target);
                    }
                    out.stream.insert(id, r);
                }
            }
            let url = self.peer_url(machine, id).unwrap_or_default();
            let reach = self.reach(machine, &url, cid, local, id);
            if matches!(reach, Reach::Ok { .. }) {
                // a member answered there, so the URL names a machine
                if let Some((target, _)) = self.target_of(machine, &url) {
                    url_targets.insert(id, Rc::from(target));
                }
            }
            out.url.insert(id, reach);
        }
        Dialled {
            reaches: Rc::new(out),
            url_targets: Rc::new(url_targets),
        }
    }

    /// Keeps `machine`'s stream to member `id` (one to another process
    /// replaces it: the old one broke).
    fn keep_stream(&mut self, machine: &str, id: u64, (target, pid): End) {
        let to = self.net.streams.get_or_insert_with(machine, BTreeMap::new);
        if let Some(old) = to.get(&id) {
            if old.target == target && old.pid == pid {
                return; // the same stream, and what it knows
            }
        }
        let traffic = self.traffic_slot(machine, &target);
        let to = self.net.streams.get_or_insert_with(machine, BTreeMap::new);
        if let Some(old) = to.insert(id, Stream::new(target, pid, traffic)) {
            self.streams_broke(machine, &old.target);
        }
    }

    /// Hands the stream requests `machine`'s server made to the servers they
    /// reached (a tick's, mostly none: the gate is inline).
    #[inline(always)]
    pub(in crate::sim::world) fn deliver_stream_requests(
        &mut self,
        machine: &str,
        requests: Vec<StreamRequest>,
    ) {
        if requests.is_empty() {
            drop_unused(requests);
            return;
        }
        self.deliver_stream_requests_now(machine, requests);
    }

    /// [`Self::deliver_stream_requests`] with some to deliver.
    #[inline(never)]
    fn deliver_stream_requests_now(&mut self, machine: &str, requests: Vec<StreamRequest>) {
        let Some((local, cluster, pid, version)) = self
            .machines
            .get(machine)
            .and_then(|m| m.process.as_ref())
            .map(|p| {
                (
                    p.server.id,
                    p.server.cluster_id,
                    p.pid,
                    p.server.cfg.version,
                )
            })
        else {
            return;
        };
        for r in requests {
            let url = self.peer_url(machine, r.to).unwrap_or_default();
            let Some(target) = self.target_of(machine, &url).map(|(t, _)| t.to_string()) else {
                continue;
            };
            self.with_server(&target, |s, ctx| {
                s.stream_request(ctx, local, cluster, version, r.kind, pid)
            });
        }
    }

    /// `machine`'s transport closed its streams to member `peer`: that member's
    /// readers notice the EOF as soon as the FIN arrives.
    pub(in crate::sim::world) fn streams_closed(&mut self, machine: &str, peer: u64) {
        let target = self.machines.iter().find_map(|(name, m)| {
            let p = m.process.as_ref()?;
            (p.server.id == peer && name != machine).then(|| (name.clone(), p.pid))
        });
        let Some((target, pid)) = target else {
            return;
        };
        if self.links_up(machine, &target) {
            // a FIN: no payload, the link's time (one lost for good: never noticed)
            let Some(lat) = self.transmit(machine, &target, 0, false) else {
                return;
            };
            self.schedule(
                lat,
                Event::StreamCheck {
                    machine: target,
                    pid,
                },
            );
        }
    }

    /// `machine`'s stream writer of `kind` wrote a link heartbeat to member
    /// `peer`: on a stream that stands through a cut, TCP holds it, and the
    /// connection stalls until a retransmission finds the link healed (so
    /// what the writer sends after the heal waits for that retransmission
    /// too: 3.5.1's learner, cut off, answered the leader's catch-up only at
    /// its own connection's retransmission, and the leader refused to promote
    /// it until then). Nothing to do without a cut.
    pub(in crate::sim::world) fn link_heartbeat(&mut self, machine: &str, peer: u64, kind: Kind) {
        if self.net.cut_at.is_empty() {
            return;
        }
        // the stream the heartbeat went on, if it still stands to the process
        // it was dialled to (a peer restarted meanwhile has a stream of its own
        // to come)
        let stream = self.net.streams.get(machine).and_then(|to| to.get(&peer));
        let Some((target, pid)) = stream.map(|s| (s.target.to_string(), s.pid)) else {
            return;
        };
        let process = self.machines.get(&target).and_then(|m| m.process.as_ref());
        let Some(reader) = process
            .filter(|p| p.pid == pid)
            .map(|p| p.server.cfg.version)
        else {
            return;
        };
        if !self.links_up(machine, &target) && self.outlives_cut(machine, &target, reader) {
            self.stall(machine, &target, Conn::of_stream(kind));
        }
    }

    /// A transport-only step: the readers notice closed streams and redial.
    pub(in crate::sim::world) fn stream_check(&mut self, machine: &str, pid: u64) {
        if self.pid_of(machine) != Some(pid) {
            return;
        }
        let reach = self.peer_reach(machine).reaches;
        let requests = self.with_server(machine, |s, ctx| s.dial_peers(ctx, &reach));
        self.deliver_stream_requests(machine, requests.unwrap_or_default());
        self.check_stop(machine);
    }
}
