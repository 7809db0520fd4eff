//! etcd 3.4's peer transport (`rafthttp`) as its logs and the membership rules
//! see it: for each peer a pipeline, two stream writers and two stream readers
//! (`stream MsgApp v2` and `stream Message`), the peer's active status, and the
//! two probers whose failures print `health check for peer … could not connect`.
//!
//! The world decides what a dial finds ([`Reach`]); this module decides what the
//! transport does about it and which lines etcd prints, in etcd's order:
//! starting and stopping peers, streams established, lost and closed, `peer …
//! became active/inactive`, cluster-ID mismatches and removed senders. Message
//! routing stays with the world; a stream here only tracks what the logs and the
//! 5-second rules (`member add`/`remove`, the transferee of a graceful stop) need.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::server::{Ctx, Out};
use crate::sim::url::host_port;

/// rafthttp's `ConnReadTimeout`: a stream reader that reads nothing for this long
/// gives up the connection.
pub const STREAM_READ_TIMEOUT_MS: u64 = 5000;
/// Stream writers send a link heartbeat every `ConnReadTimeout / 3`.
const LINK_HEARTBEAT_MS: u64 = 1666;
/// `statusErrorInterval`: how often a failing prober reports.
const PROBE_ERROR_INTERVAL_MS: u64 = 5000;
/// `statusMonitoringInterval`: how often a healthy prober is looked at.
const PROBE_OK_INTERVAL_MS: u64 = 30_000;
/// Linux retransmits an unanswered SYN after 1 s.
const SYN_RETRY_MS: u64 = 1000;

/// The two stream types of etcd 3.4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// `stream MsgApp v2`: log appends.
    MsgApp,
    /// `stream Message`: everything else (heartbeats, votes, responses).
    Message,
}

impl Kind {
    pub const ALL: [Kind; 2] = [Kind::MsgApp, Kind::Message];

    fn name(self) -> &'static str {
        match self {
            Kind::MsgApp => "stream MsgApp v2",
            Kind::Message => "stream Message",
        }
    }

    fn index(self) -> usize {
        match self {
            Kind::MsgApp => 0,
            Kind::Message => 1,
        }
    }

    /// The stream a raft message travels on.
    pub fn of(msg_type: raft::eraftpb::MessageType) -> Kind {
        if msg_type == raft::eraftpb::MessageType::MsgAppend {
            Kind::MsgApp
        } else {
            Kind::Message
        }
    }
}

/// What dialling a peer finds, as the world sees it at this moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// The expected member answers; its process ID.
    Ok { pid: u64 },
    /// Nothing listens there: the dial error text (`dial tcp …: connect:
    /// connection refused`, `dial tcp: lookup …: no such host`).
    Refused(String),
    /// Packets vanish (a cut link, a machine powered off): the `host:port` dialled.
    Silent(String),
    /// A member of another cluster answers: its cluster ID.
    Mismatch { remote_cluster: u64 },
    /// The peer knows this member as removed (HTTP 410 Gone).
    Removed,
    /// The peer does not know this member (HTTP 404).
    Unknown,
}

impl Reach {
    /// The error a failed dial reports, or `None` when the stream connects.
    pub fn dial_error(&self, local: u64, peer: u64) -> Option<String> {
        match self {
            Reach::Ok { .. } => None,
            Reach::Refused(e) => Some(e.clone()),
            Reach::Silent(addr) => Some(format!("dial tcp {addr}: i/o timeout")),
            Reach::Mismatch { .. } => Some("cluster ID mismatch".into()),
            Reach::Removed => {
                Some("the member has been permanently removed from the cluster".into())
            }
            Reach::Unknown => Some(format!("peer {peer:x} failed to find local node {local:x}")),
        }
    }

    /// The prober's error, if this reach makes the peer unhealthy.
    fn probe_error(&self) -> Option<String> {
        match self {
            Reach::Refused(e) => Some(e.clone()),
            Reach::Silent(addr) => Some(format!("dial tcp {addr}: i/o timeout")),
            _ => None,
        }
    }
}

/// What the world shows a transport at one step, per peer: what its streams
/// find (an established connection stays up while its process lives), and what
/// a fresh dial of the peer's current URL finds (the probers; etcd's version
/// monitor). They differ after `member update` moves a live peer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reaches {
    pub stream: BTreeMap<u64, Reach>,
    pub url: BTreeMap<u64, Reach>,
}

/// A connected stream reader.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ReaderConn {
    pid: u64,
    /// The local end's ephemeral port (`read tcp A:port->B:2380`).
    port: u16,
    last_recv_ms: u64,
    next_beat_ms: u64,
}

/// A stream writer holding a peer's reader connection.
#[derive(Debug, Clone, PartialEq, Eq)]
struct WriterConn {
    pid: u64,
    next_beat_ms: u64,
}

/// rafthttp's view of one peer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    pub urls: Vec<String>,
    /// `urls`' first, shared: every raft message to the peer carries it.
    first_url: Option<Rc<str>>,
    /// Since when the peer has been active (`peerStatus.since`), if it is.
    pub active_since: Option<u64>,
    readers: [Option<ReaderConn>; 2],
    /// An idle reader's dial into a silent network: when it began, and whether
    /// its one SYN retry (after 1 s) was lost too, so it can only time out.
    dialing: [Option<(u64, bool)>; 2],
    writers: [Option<WriterConn>; 2],
    /// When the probers' status is next looked at.
    monitor_at_ms: u64,
    /// Since when the probes have gone unanswered (a cut link).
    silent_since: Option<u64>,
    /// The probers' last recorded error (`None`: healthy). It lags the network:
    /// after a cut it keeps a refused dial's text, or, if the peer was healthy,
    /// goes unhealthy with no error (`<nil>`); only a probe that has waited out
    /// its dial records `i/o timeout` (09-partitions-03 and -05).
    probe_err: Option<String>,
}

impl Peer {
    fn new(urls: Vec<String>, now: u64) -> Peer {
        Peer {
            first_url: urls.first().map(|u| Rc::from(u.as_str())),
            urls,
            active_since: None,
            readers: [None, None],
            dialing: [None, None],
            writers: [None, None],
            monitor_at_ms: now + PROBE_ERROR_INTERVAL_MS,
            silent_since: None,
            probe_err: None,
        }
    }
}

/// A stream request that reached a peer's handler: the world hands it to the
/// peer's server ([`Transport::on_stream_request`] there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamRequest {
    pub to: u64,
    pub kind: Kind,
}

/// One member's transport.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Transport {
    /// This member's ID and cluster ID.
    pub local: u64,
    pub cluster: u64,
    /// etcd's `PeerDialTimeout`: 1 s plus the election timeout.
    pub dial_timeout_ms: u64,
    pub peers: BTreeMap<u64, Peer>,
    /// The local address used as the source of reader connections.
    pub local_host: String,
    next_port: u16,
    /// Counts changes to `peers`' membership and URLs, so the world knows when
    /// what a dial finds may have changed.
    pub epoch: u64,
}

impl Transport {
    pub fn new(
        local: u64,
        cluster: u64,
        dial_timeout_ms: u64,
        local_host: String,
        first_port: u16,
    ) -> Transport {
        Transport {
            local,
            cluster,
            dial_timeout_ms,
            peers: BTreeMap::new(),
            local_host,
            next_port: first_port,
            epoch: 0,
        }
    }

    /// `AddPeer`: the pipeline, the writers and the readers start.
    pub fn add_peer(&mut self, ctx: &mut Ctx, id: u64, urls: Vec<String>) {
        if self.peers.contains_key(&id) {
            return;
        }
        let log = |ctx: &mut Ctx, text: String| ctx.server('I', "rafthttp", &text);
        log(ctx, format!("starting peer {id:x}..."));
        log(ctx, format!("started HTTP pipelining with peer {id:x}"));
        log(ctx, format!("started streaming with peer {id:x} (writer)"));
        log(ctx, format!("started streaming with peer {id:x} (writer)"));
        log(ctx, format!("started peer {id:x}"));
        log(ctx, format!("added peer {id:x}"));
        for k in Kind::ALL {
            log(
                ctx,
                format!("started streaming with peer {id:x} ({} reader)", k.name()),
            );
        }
        self.peers.insert(id, Peer::new(urls, ctx.now_ms));
        self.epoch += 1;
    }

    /// `UpdatePeer`.
    pub fn update_peer(&mut self, ctx: &mut Ctx, id: u64, urls: Vec<String>) {
        if let Some(p) = self.peers.get_mut(&id) {
            p.first_url = urls.first().map(|u| Rc::from(u.as_str()));
            p.urls = urls;
            self.epoch += 1;
            ctx.server('I', "rafthttp", &format!("updated peer {id:x}"));
        }
    }

    /// `RemovePeer`: the peer stops, then is forgotten.
    pub fn remove_peer(&mut self, ctx: &mut Ctx, id: u64) {
        if let Some(p) = self.peers.remove(&id) {
            self.epoch += 1;
            stop_peer(ctx, id, p);
            ctx.server('I', "rafthttp", &format!("removed peer {id:x}"));
        }
    }

    /// `Stop`: every peer stops (the server is exiting).
    pub fn stop(&mut self, ctx: &mut Ctx) {
        let peers = std::mem::take(&mut self.peers);
        self.epoch += 1;
        for (id, p) in peers {
            stop_peer(ctx, id, p);
        }
    }

    /// A peer's first URL, shared (no copy per message).
    pub fn first_url(&self, id: u64) -> Option<Rc<str>> {
        self.peers.get(&id)?.first_url.clone()
    }

    /// Since when a peer has been active, if it is.
    pub fn active_since(&self, id: u64) -> Option<u64> {
        self.peers.get(&id).and_then(|p| p.active_since)
    }

    /// The peers that are active now.
    pub fn active_peers(&self) -> Vec<u64> {
        self.peers
            .iter()
            .filter(|(_, p)| p.active_since.is_some())
            .map(|(&id, _)| id)
            .collect()
    }

    /// A message from `from` arrived on a stream of `kind`.
    pub fn received(&mut self, now: u64, from: u64, kind: Kind) {
        let Some(p) = self.peers.get_mut(&from) else {
            return;
        };
        if let Some(c) = p.readers[kind.index()].as_mut() {
            c.last_recv_ms = now;
        }
    }

    /// One step (a heartbeat interval): readers dial or time out, writers notice
    /// dead connections, probers report. Returns the stream requests that
    /// reached a peer's handler.
    pub fn tick(&mut self, ctx: &mut Ctx, reaches: &Reaches) -> Vec<StreamRequest> {
        let reach = &reaches.stream;
        let ends = Ends {
            local: self.local,
            cluster: self.cluster,
            host: &self.local_host,
            dial_timeout_ms: self.dial_timeout_ms,
        };
        let mut requests = Vec::new();
        let next_port = &mut self.next_port;
        for (&id, p) in self.peers.iter_mut() {
            let Some(r) = reach.get(&id) else {
                continue;
            };
            for k in Kind::ALL {
                // each connection gets its own ephemeral port
                let port = *next_port;
                if let Some(req) = tick_reader(ctx, &ends, id, p, k, r, port) {
                    requests.push(req);
                    *next_port = next_port.wrapping_add(1).max(32768);
                }
                tick_writer(ctx, id, p, k, r);
            }
            monitor(ctx, id, p, reaches.url.get(&id).unwrap_or(r));
        }
        requests
    }

    /// A peer's reader reached this member's stream handler: the writer takes the
    /// connection (closing one it already held). `pid` is the dialling process.
    pub fn accept(&mut self, ctx: &mut Ctx, from: u64, kind: Kind, pid: u64) {
        let now = ctx.now_ms;
        let Some(p) = self.peers.get_mut(&from) else {
            return;
        };
        if p.writers[kind.index()].is_some() {
            ctx.server(
                'W',
                "rafthttp",
                &format!(
                    "closed an existing TCP streaming connection with peer {from:x} ({} writer)",
                    kind.name()
                ),
            );
        }
        activate(ctx, from, p);
        ctx.server(
            'I',
            "rafthttp",
            &format!(
                "established a TCP streaming connection with peer {from:x} ({} writer)",
                kind.name()
            ),
        );
        p.writers[kind.index()] = Some(WriterConn {
            pid,
            next_beat_ms: now + LINK_HEARTBEAT_MS,
        });
    }
}

/// `peerStatus.activate`.
fn activate(ctx: &mut Ctx, id: u64, p: &mut Peer) {
    if p.active_since.is_none() {
        p.active_since = Some(ctx.now_ms);
        ctx.server('I', "rafthttp", &format!("peer {id:x} became active"));
    }
}

/// `peerStatus.deactivate`: the failure is printed only when it ends an active status.
fn deactivate(ctx: &mut Ctx, id: u64, p: &mut Peer, action: &str, kind: Kind, reason: &str) {
    if p.active_since.take().is_some() {
        ctx.server(
            'E',
            "rafthttp",
            &format!("failed to {action} {id:x} on {} ({reason})", kind.name()),
        );
        ctx.server(
            'I',
            "rafthttp",
            &format!("peer {id:x} became inactive (message send to peer failed)"),
        );
    }
}

fn lost(ctx: &mut Ctx, id: u64, kind: Kind, end: &str) {
    ctx.server(
        'W',
        "rafthttp",
        &format!(
            "lost the TCP streaming connection with peer {id:x} ({} {end})",
            kind.name()
        ),
    );
}

/// The local end of reader connections.
struct Ends<'a> {
    local: u64,
    cluster: u64,
    host: &'a str,
    dial_timeout_ms: u64,
}

/// A connected reader reads, or loses its connection; an idle one dials.
fn tick_reader(
    ctx: &mut Ctx,
    ends: &Ends,
    id: u64,
    p: &mut Peer,
    kind: Kind,
    r: &Reach,
    port: u16,
) -> Option<StreamRequest> {
    if keep_reading(ctx, ends, id, p, kind, r) || still_dialing(ctx, ends, id, p, kind, r) {
        return None;
    }
    connect_reader(ctx, ends, id, p, kind, r, port)
}

/// A connected reader reads on while its peer's process answers, or loses
/// its connection (a read timeout over a silent link, EOF from a process
/// that ended). Whether the tick is done (`false`: the reader, gone or
/// never there, may dial).
fn keep_reading(ctx: &mut Ctx, ends: &Ends, id: u64, p: &mut Peer, kind: Kind, r: &Reach) -> bool {
    let now = ctx.now_ms;
    let i = kind.index();
    let Some(c) = p.readers[i].as_mut() else {
        return false;
    };
    match r {
        Reach::Ok { pid } if *pid == c.pid => {
            // the writer's link heartbeat keeps an idle stream alive
            if now >= c.next_beat_ms {
                c.last_recv_ms = now;
                c.next_beat_ms = now + LINK_HEARTBEAT_MS;
            }
            return true;
        }
        Reach::Silent(addr) => {
            if now < c.last_recv_ms + STREAM_READ_TIMEOUT_MS {
                return true;
            }
            let reason = format!("read tcp {}:{}->{addr}: i/o timeout", ends.host, c.port);
            p.readers[i] = None;
            lost(ctx, id, kind, "reader");
            deactivate(ctx, id, p, "read", kind, &reason);
            return true;
        }
        // the peer's process ended (or another one answers): EOF
        _ => {
            p.readers[i] = None;
            lost(ctx, id, kind, "reader");
        }
    }
    false
}

/// A dial in progress goes on, fails at its timeout, or is answered; a dial
/// into a silent network begins. Whether the tick is done (`false`: the
/// reader connects, or hears why it cannot).
fn still_dialing(ctx: &mut Ctx, ends: &Ends, id: u64, p: &mut Peer, kind: Kind, r: &Reach) -> bool {
    let now = ctx.now_ms;
    let i = kind.index();
    if let Some((started, doomed)) = p.dialing[i] {
        // a dial into a silent network: the SYN is retried once, after 1 s; if
        // that is lost too, the dial fails at the dial timeout
        let retried = now >= started + SYN_RETRY_MS;
        let answered = !doomed && retried && matches!(r, Reach::Ok { .. });
        if retried && !answered {
            p.dialing[i] = Some((started, true));
        }
        if !answered {
            if now >= started + ends.dial_timeout_ms {
                p.dialing[i] = None;
                let addr = match r {
                    Reach::Silent(addr) => addr.clone(),
                    _ => p.urls.first().map(|u| host_port(u)).unwrap_or_default(),
                };
                let reason = format!("dial tcp {addr}: i/o timeout");
                deactivate(ctx, id, p, "dial", kind, &reason);
            }
            return true;
        }
        p.dialing[i] = None;
    } else if matches!(r, Reach::Silent(_)) {
        p.dialing[i] = Some((now, false));
        return true;
    }
    false
}

/// The dial reached the peer: the stream is established, or the peer's
/// answer (or the dial's error) deactivates it.
fn connect_reader(
    ctx: &mut Ctx,
    ends: &Ends,
    id: u64,
    p: &mut Peer,
    kind: Kind,
    r: &Reach,
    port: u16,
) -> Option<StreamRequest> {
    let now = ctx.now_ms;
    let i = kind.index();
    match r {
        Reach::Ok { pid } => {
            activate(ctx, id, p);
            ctx.server(
                'I',
                "rafthttp",
                &format!(
                    "established a TCP streaming connection with peer {id:x} ({} reader)",
                    kind.name()
                ),
            );
            // the writer's heartbeat ticker has its own phase
            let phase = (ends.local ^ id.rotate_left(17) ^ i as u64) % LINK_HEARTBEAT_MS;
            p.readers[i] = Some(ReaderConn {
                pid: *pid,
                port,
                last_recv_ms: now,
                next_beat_ms: now + 1 + phase,
            });
            Some(StreamRequest { to: id, kind })
        }
        other => {
            if let Reach::Mismatch { remote_cluster } = other {
                ctx.server(
                    'E',
                    "rafthttp",
                    &format!(
                        "request sent was ignored (cluster ID mismatch: peer[{id:x}]={remote_cluster:x}, local={:x})",
                        ends.cluster
                    ),
                );
            }
            let reason = other.dial_error(ends.local, id).unwrap_or_default();
            deactivate(ctx, id, p, "dial", kind, &reason);
            let reached = matches!(
                other,
                Reach::Mismatch { .. } | Reach::Removed | Reach::Unknown
            );
            reached.then_some(StreamRequest { to: id, kind })
        }
    }
}

/// A writer whose peer process is gone notices at its next write.
fn tick_writer(ctx: &mut Ctx, id: u64, p: &mut Peer, kind: Kind, r: &Reach) {
    let now = ctx.now_ms;
    let i = kind.index();
    let Some(w) = p.writers[i].as_mut() else {
        return;
    };
    let alive = match r {
        Reach::Ok { pid } => *pid == w.pid,
        Reach::Silent(_) => true, // writes vanish into the socket buffer
        _ => false,
    };
    if now < w.next_beat_ms {
        return;
    }
    w.next_beat_ms = now + LINK_HEARTBEAT_MS;
    if !alive {
        p.writers[i] = None;
        lost(ctx, id, kind, "writer");
    }
}

/// `monitorProbingStatus`, for both probers of the peer.
fn monitor(ctx: &mut Ctx, id: u64, p: &mut Peer, r: &Reach) {
    let now = ctx.now_ms;
    record_probe(p, r, now);
    if now < p.monitor_at_ms {
        return;
    }
    match p.probe_err.clone() {
        Some(err) => {
            let line = format!("health check for peer {id:x} could not connect: {err}");
            ctx.server('W', "rafthttp", &line);
            ctx.server('W', "rafthttp", &line);
            p.monitor_at_ms += PROBE_ERROR_INTERVAL_MS;
        }
        None => p.monitor_at_ms += PROBE_OK_INTERVAL_MS,
    }
    // a long pause (a stopped clock) does not replay missed checks
    if p.monitor_at_ms <= ctx.now_ms {
        p.monitor_at_ms = ctx.now_ms + PROBE_ERROR_INTERVAL_MS;
    }
}

/// What the probers have recorded by now (see [`Peer::probe_err`]).
fn record_probe(p: &mut Peer, r: &Reach, now: u64) {
    match r {
        Reach::Silent(addr) => {
            let since = *p.silent_since.get_or_insert(now);
            if now >= since + PROBE_ERROR_INTERVAL_MS {
                p.probe_err = Some(format!("dial tcp {addr}: i/o timeout"));
            } else if now >= since + SYN_RETRY_MS && p.probe_err.is_none() {
                p.probe_err = Some("<nil>".into());
            }
        }
        other => {
            p.silent_since = None;
            p.probe_err = other.probe_error();
        }
    }
}

/// `peer.stop`: writers, pipeline, then readers close, in etcd's order (a
/// reader's read is cancelled: `context canceled`).
fn stop_peer(ctx: &mut Ctx, id: u64, mut p: Peer) {
    let connected = p.readers.iter().any(Option::is_some) || p.writers.iter().any(Option::is_some);
    if connected {
        ctx.out.push(Out::StreamsClosed { peer: id });
    }
    let info = |ctx: &mut Ctx, text: String| ctx.server('I', "rafthttp", &text);
    info(ctx, format!("stopping peer {id:x}..."));
    for k in Kind::ALL {
        if p.writers[k.index()].take().is_some() {
            info(
                ctx,
                format!(
                    "closed the TCP streaming connection with peer {id:x} ({} writer)",
                    k.name()
                ),
            );
        }
        info(ctx, format!("stopped streaming with peer {id:x} (writer)"));
    }
    info(ctx, format!("stopped HTTP pipelining with peer {id:x}"));
    for k in Kind::ALL {
        if p.readers[k.index()].take().is_some() {
            lost(ctx, id, k, "reader");
            if k == Kind::MsgApp {
                deactivate(ctx, id, &mut p, "read", k, "context canceled");
            }
        }
        info(
            ctx,
            format!("stopped streaming with peer {id:x} ({} reader)", k.name()),
        );
    }
    info(ctx, format!("stopped peer {id:x}"));
}

/// What a server's stream handler says to a stream request from `from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handler {
    /// The request carries another cluster's ID.
    Mismatch { got: u64 },
    /// The sender was removed from the cluster.
    Removed,
    /// The sender is not a member this server knows.
    Unknown,
    /// The writer takes the connection.
    Accept { pid: u64 },
}

impl Transport {
    /// A stream request from member `from` reached this server's handler.
    pub fn on_stream_request(&mut self, ctx: &mut Ctx, from: u64, kind: Kind, h: Handler) {
        match h {
            Handler::Mismatch { got } => ctx.server(
                'E',
                "rafthttp",
                &format!(
                    "request cluster ID mismatch (got {got:x} want {:x})",
                    self.cluster
                ),
            ),
            Handler::Removed => ctx.server(
                'W',
                "rafthttp",
                &format!("rejected the stream from peer {from:x} since it was removed"),
            ),
            Handler::Unknown => ctx.server(
                'E',
                "rafthttp",
                &format!(
                    "failed to find member {from:x} in cluster {:x}",
                    self.cluster
                ),
            ),
            Handler::Accept { pid } => self.accept(ctx, from, kind, pid),
        }
    }
}
