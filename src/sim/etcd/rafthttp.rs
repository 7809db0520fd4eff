//! etcd 3.4's peer transport (`rafthttp`) as its logs and the membership rules
//! see it: for each peer a pipeline, two stream writers and two stream readers
//! (`stream MsgApp v2` and `stream Message`), the peer's active status, and the
//! two probers whose failures print `health check for peer … could not connect`
//! and whose late answers print `the clock difference against peer … is too
//! high` (etcd's `probing` library: `Probing`).
//!
//! The world decides what a dial finds ([`Reach`]); this module decides what the
//! transport does about it and which lines etcd prints, in etcd's order:
//! starting and stopping peers, streams established, lost and closed, `peer …
//! became active/inactive`, cluster-ID mismatches and removed senders. Message
//! routing stays with the world; a stream here only tracks what the logs and the
//! 5-second rules (`member add`/`remove`, the transferee of a graceful stop) need.

use super::version::EtcdVersion;
use std::collections::BTreeMap;
use std::rc::Rc;

use super::logfmt::go_duration;
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
/// `proberInterval`: `ConnReadTimeout` less a second; a probe is sent on
/// each tick of this ticker (a tick that finds a probe still out waits for it).
const PROBE_INTERVAL_MS: u64 = 4000;
/// `time.Second`: a larger clock difference is warned about.
const CLOCK_DIFF_LIMIT_US: i64 = 1_000_000;
/// `streamBufSize`: the messages a stream writer's buffer holds while its
/// connection cannot take them; a message beyond them is dropped.
pub const STREAM_BUF_MSGS: usize = 4096;
/// `pkg/logutil`'s merge logger: a repeated line within this period of its
/// first is counted, and the count printed when the period is over (its
/// output loop looks every second).
const MERGE_PERIOD_MS: u64 = 1000;

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

    /// The name `peer.pick` gives the writer's buffer (`streamAppV2`, `streamMsg`).
    fn buffer_name(self) -> &'static str {
        match self {
            Kind::MsgApp => "streamMsgAppV2",
            Kind::Message => "streamMsg",
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
    /// The expected member answers: its process ID, and the etcd release it
    /// runs (what its `/version` says).
    Ok { pid: u64, version: EtcdVersion },
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

/// How long a probe's request and its answer take (µs), as the world times
/// them when the probe leaves: each waits behind its sender's NIC queue, then
/// takes its link's latency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flight {
    pub there_us: u64,
    pub back_us: u64,
}

/// The `probing` library's status of a peer (etcd 3.4.23 vendors
/// `xiang90/probing@43a291a`): a `GET /raft/probing` every
/// [`PROBE_INTERVAL_MS`]; each answer records its round trip into the
/// smoothed one, `srtt = 0.875 srtt + 0.125 rtt` (from 0: that version does
/// not seed it with the first sample), and the clock difference, `now -
/// answer's Now - srtt / 2`, which with every clock in step is the answer's
/// time in flight less half the srtt. Health is false until the first probe
/// ends: a check before then reports `could not connect: <nil>`. The two
/// probers (pipeline and stream round trippers) probe alike; one status
/// stands for both and each of their lines prints twice.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Probing {
    /// When the ticker fires next (at the peer's add plus multiples of the interval).
    next_ms: u64,
    /// When the ticker started.
    base_ms: u64,
    /// A probe out: when its answer arrives, its round trip and the answer's
    /// own time in flight (µs).
    flight: Option<(u64, u64, u64)>,
    /// No probe has ended since the peer was added.
    fresh: bool,
    /// The smoothed round trip (µs).
    srtt_us: u64,
    /// The clock difference (µs).
    clock_diff_us: i64,
}

impl Probing {
    fn new(now: u64) -> Probing {
        Probing {
            next_ms: now + PROBE_INTERVAL_MS,
            base_ms: now,
            flight: None,
            fresh: true,
            srtt_us: 0,
            clock_diff_us: 0,
        }
    }

    /// Whether a probe leaves at `now`.
    fn due(&self, now: u64) -> bool {
        now >= self.due_at()
    }

    /// When the next probe leaves: at the ticker, once the one out was answered.
    fn due_at(&self) -> u64 {
        let answered = self.flight.map_or(0, |(done, _, _)| done);
        self.next_ms.max(answered)
    }

    /// An answer that has arrived by `now` is recorded (`status.record`).
    fn settle(&mut self, now: u64) {
        let Some((done, rtt, back)) = self.flight else {
            return;
        };
        if done > now {
            return;
        }
        self.flight = None;
        self.fresh = false;
        self.srtt_us = crate::sim::mul_sat(self.srtt_us, 7).saturating_add(rtt) / 8;
        self.clock_diff_us = back as i64 - (self.srtt_us / 2) as i64;
    }

    /// The ticker's probe leaves: timed by `flight`, or failed at once
    /// (`None`: the peer does not answer; the failure is [`Peer::probe_err`]'s).
    /// It leaves at its tick, or when the probe before it was answered (Go's
    /// ticker keeps one tick waiting); the next tick is the ticker's next after that.
    fn send(&mut self, now: u64, flight: Option<Flight>) {
        let answered = self.flight.map_or(0, |(done, _, _)| done);
        self.settle(now);
        let sent = self.next_ms.max(answered);
        let ticks = (now - self.base_ms) / PROBE_INTERVAL_MS + 1;
        self.next_ms = self.base_ms + ticks * PROBE_INTERVAL_MS;
        match flight {
            Some(f) => {
                let rtt = f.there_us + f.back_us;
                self.flight = Some((sent + rtt.div_ceil(1000), rtt, f.back_us));
            }
            None => {
                self.flight = None;
                self.fresh = false;
            }
        }
        self.settle(now);
    }
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
    /// The probers' timing (see [`Probing`]).
    probing: Probing,
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
            probing: Probing::new(now),
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
    /// Whether stream readers time out ([`EtcdVersion::stream_deadlines`]:
    /// 3.4 only).
    pub deadlines: bool,
    /// The peers, by member ID. Read them from outside; change them only
    /// through the methods here, which forget when the peers sleep (`Quiet`).
    pub peers: BTreeMap<u64, Peer>,
    /// The local address used as the source of reader connections.
    pub local_host: String,
    next_port: u16,
    /// Counts changes to `peers`' membership and URLs, so the world knows when
    /// what a dial finds may have changed.
    pub epoch: u64,
    /// The merge logger's lines: when each was first printed in its period,
    /// and how many repeats it has counted since.
    merged: BTreeMap<String, (u64, u64)>,
    /// When the merge logger's output loop looks next.
    merge_output_ms: u64,
    /// Until when each peer's goroutines sleep (see [`Quiet`]).
    quiet: Quiet,
}

/// When rafthttp's goroutines for each peer sleep until a timer, as the last
/// tick under the same reaches left them (the same `Rc`: the world computes
/// new ones whenever what a dial finds may have changed). A peer sleeps when
/// every stream is up to the process its dial found and both dials find it;
/// then until its first timer: a link heartbeat, a probe's answer, the
/// probing monitor. A tick passes a sleeping peer by (it would change
/// nothing), and a tick with every peer asleep is skipped whole. It also
/// knows, after a tick, before when no probe is due. Any change
/// to the peers' state forgets it all, but for a reader's last receipt
/// ([`Transport::received`]): a tick reads it only when its peer is silent,
/// and then the reaches are others. A cache, not state: two transports are
/// equal whatever theirs hold.
#[derive(Debug, Clone, Default)]
struct Quiet {
    /// The reaches the times below were computed under (`None`: forgotten).
    under: Option<Rc<Reaches>>,
    /// Until when each peer sleeps, in the order of [`Transport::peers`]
    /// (0: it may have work at any tick; `u64::MAX`: the reaches do not
    /// name it, so a tick passes it by).
    asleep_until: Vec<u64>,
    /// The first of those moments.
    until: u64,
    /// Before when no probe is due (0: unknown).
    probes_at: u64,
}

impl Quiet {
    /// Forgets when the peers sleep: their state changed.
    fn forget(&mut self) {
        self.under = None;
        self.probes_at = 0;
    }

    /// Whether the times were computed under `reaches`.
    fn under(&self, reaches: &Rc<Reaches>) -> bool {
        self.under.as_ref().is_some_and(|r| Rc::ptr_eq(r, reaches))
    }
}

impl PartialEq for Quiet {
    fn eq(&self, _: &Quiet) -> bool {
        true
    }
}

impl Eq for Quiet {}

impl Transport {
    pub fn new(
        local: u64,
        cluster: u64,
        dial_timeout_ms: u64,
        local_host: String,
        first_port: u16,
        etcd: EtcdVersion,
    ) -> Transport {
        Transport {
            local,
            cluster,
            dial_timeout_ms,
            deadlines: etcd.stream_deadlines(),
            peers: BTreeMap::new(),
            local_host,
            next_port: first_port,
            epoch: 0,
            merged: BTreeMap::new(),
            merge_output_ms: 0,
            quiet: Quiet::default(),
        }
    }

    /// `AddPeer`: the pipeline, the writers and the readers start.
    pub fn add_peer(&mut self, ctx: &mut Ctx, id: u64, urls: Vec<String>) {
        self.pin_urls(ctx);
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
        self.quiet.forget();
    }

    /// `UpdatePeer`.
    pub fn update_peer(&mut self, ctx: &mut Ctx, id: u64, urls: Vec<String>) {
        self.pin_urls(ctx);
        self.quiet.forget();
        if let Some(p) = self.peers.get_mut(&id) {
            p.first_url = urls.first().map(|u| Rc::from(u.as_str()));
            p.urls = urls;
            // the probers forget the peer and add it again: a fresh status,
            // and a new monitor whose first look is 5 s away
            p.probing = Probing::new(ctx.now_ms);
            p.monitor_at_ms = ctx.now_ms + PROBE_ERROR_INTERVAL_MS;
            self.epoch += 1;
            ctx.server('I', "rafthttp", &format!("updated peer {id:x}"));
        }
    }

    /// `RemovePeer`: the peer stops, then is forgotten.
    pub fn remove_peer(&mut self, ctx: &mut Ctx, id: u64) {
        self.pin_urls(ctx);
        self.quiet.forget();
        if let Some(p) = self.peers.remove(&id) {
            self.epoch += 1;
            stop_peer(ctx, id, p);
            ctx.server('I', "rafthttp", &format!("removed peer {id:x}"));
        }
    }

    /// `Stop`: every peer stops (the server is exiting).
    pub fn stop(&mut self, ctx: &mut Ctx) {
        self.pin_urls(ctx);
        let peers = std::mem::take(&mut self.peers);
        self.epoch += 1;
        self.quiet.forget();
        for (id, p) in peers {
            stop_peer(ctx, id, p);
        }
    }

    /// Gives each raft message this step sent so far the URL its peer has
    /// now, before the peers change: the world would otherwise read the
    /// changed ones (see `Out::Raft`).
    fn pin_urls(&self, ctx: &mut Ctx) {
        for o in ctx.out.iter_mut() {
            if let Out::Raft {
                msg,
                url: url @ None,
                ..
            } = o
            {
                *url = self.first_url(msg.to);
            }
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

    /// The peers whose probers send a probe at `now`.
    pub fn probes_due(&self, now: u64) -> Vec<u64> {
        if now < self.quiet.probes_at {
            return Vec::new();
        }
        let due = self.peers.iter().filter(|(_, p)| p.probing.due(now));
        due.map(|(&id, _)| id).collect()
    }

    /// The probes [`Self::probes_due`] named leave, each timed by the world
    /// (`None`: the peer does not answer).
    pub fn send_probes(&mut self, now: u64, flights: &[(u64, Option<Flight>)]) {
        if !flights.is_empty() {
            self.quiet.forget();
        }
        for (id, flight) in flights {
            if let Some(p) = self.peers.get_mut(id) {
                p.probing.send(now, *flight);
            }
        }
    }

    /// `peer.send` found the buffer of the writer for `kind` full: the message
    /// is dropped. An active peer's drop is a merged warning; an inactive
    /// one's is a debug line, not printed. zap warns of every drop.
    pub fn dropped(&mut self, ctx: &mut Ctx, to: u64, kind: Kind, msg_type: &str) {
        let active = self.active_since(to).is_some();
        if ctx.zap {
            let ts = ctx.stamp().zap();
            let line = super::zapfmt::dropped(&ts, self.local, to, msg_type, active);
            ctx.log.push(line);
            return;
        }
        if !active {
            return;
        }
        let text = format!(
            "dropped internal raft message to {to:x} since {}'s sending buffer is full (bad/overloaded network)",
            kind.buffer_name()
        );
        self.merge_warning(ctx, text);
    }

    /// `MergeLogger.merge`: a line is printed the first time; repeats within
    /// its period are counted.
    fn merge_warning(&mut self, ctx: &mut Ctx, text: String) {
        if let Some((_, count)) = self.merged.get_mut(&text) {
            *count += 1;
            return;
        }
        ctx.server('W', "rafthttp", &text);
        if self.merged.is_empty() {
            self.merge_output_ms = ctx.now_ms - ctx.now_ms % 1000 + 1000;
        }
        self.merged.insert(text, (ctx.now_ms, 0));
    }

    /// `MergeLogger.outputLoop`: each second, a line whose period is over
    /// prints its count of repeats (`[merged N repeated lines in 1.2s]`) and
    /// starts a new period, or is forgotten when it had none.
    fn flush_merged(&mut self, ctx: &mut Ctx) {
        let now = ctx.now_ms;
        if self.merged.is_empty() || now < self.merge_output_ms {
            return;
        }
        self.merge_output_ms = now - now % 1000 + 1000;
        let round = |ms: u64| (ms + 5) / 10 * 10;
        let mut out = Vec::new();
        self.merged.retain(|text, (start, count)| {
            if *start + MERGE_PERIOD_MS > now {
                return true;
            }
            if *count == 0 {
                return false;
            }
            let took = go_duration((round(now) - round(*start)) * 1_000_000);
            out.push(format!("{text} [merged {count} repeated lines in {took}]"));
            (*start, *count) = (now, 0);
            true
        });
        for line in out {
            ctx.server('W', "rafthttp", &line);
        }
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
    pub fn tick(&mut self, ctx: &mut Ctx, reaches: &Rc<Reaches>) -> Vec<StreamRequest> {
        let known = self.quiet.under(reaches) && self.quiet.asleep_until.len() == self.peers.len();
        if known && ctx.now_ms < self.quiet.until {
            self.flush_merged(ctx);
            return Vec::new();
        }
        let reach = &reaches.stream;
        let ends = Ends {
            local: self.local,
            cluster: self.cluster,
            host: &self.local_host,
            dial_timeout_ms: self.dial_timeout_ms,
            deadlines: self.deadlines,
        };
        let mut requests = Vec::new();
        let next_port = &mut self.next_port;
        let quiet = &mut self.quiet;
        if !known {
            quiet.asleep_until.clear();
            quiet.asleep_until.resize(self.peers.len(), 0);
        }
        for ((&id, p), asleep) in self.peers.iter_mut().zip(quiet.asleep_until.iter_mut()) {
            if known && ctx.now_ms < *asleep {
                continue;
            }
            let Some(r) = reach.get(&id) else {
                *asleep = u64::MAX; // a tick passes it by
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
            let url = reaches.url.get(&id).unwrap_or(r);
            monitor(ctx, id, p, url);
            *asleep = asleep_until(p, r, url).unwrap_or(0);
        }
        quiet.until = quiet.asleep_until.iter().copied().min().unwrap_or(u64::MAX);
        quiet.under = Some(Rc::clone(reaches));
        let probes = self.peers.values().map(|p| p.probing.due_at());
        quiet.probes_at = probes.min().unwrap_or(u64::MAX);
        self.flush_merged(ctx);
        requests
    }

    /// A peer's reader reached this member's stream handler: the writer takes the
    /// connection (closing one it already held). `pid` is the dialling process.
    pub fn accept(&mut self, ctx: &mut Ctx, from: u64, kind: Kind, pid: u64) {
        let now = ctx.now_ms;
        self.quiet.forget();
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
    deadlines: bool,
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
/// that ended). Without deadlines (3.5) the world keeps a stream through a
/// cut as long as TCP would (`network::dial`), so a silent peer means the
/// connection is already gone: TCP's keepalive gave up. Whether the tick is
/// done (`false`: the reader, gone or never there, may dial).
fn keep_reading(ctx: &mut Ctx, ends: &Ends, id: u64, p: &mut Peer, kind: Kind, r: &Reach) -> bool {
    let now = ctx.now_ms;
    let i = kind.index();
    let Some(c) = p.readers[i].as_mut() else {
        return false;
    };
    match r {
        Reach::Ok { pid, .. } if *pid == c.pid => {
            // the writer's link heartbeat keeps an idle stream alive
            if now >= c.next_beat_ms {
                c.last_recv_ms = now;
                c.next_beat_ms = now + LINK_HEARTBEAT_MS;
            }
            return true;
        }
        Reach::Silent(addr) => {
            if ends.deadlines && now < c.last_recv_ms + STREAM_READ_TIMEOUT_MS {
                return true;
            }
            let error = match ends.deadlines {
                true => "i/o timeout",
                false => "read: connection timed out",
            };
            let reason = format!("read tcp {}:{}->{addr}: {error}", ends.host, c.port);
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
        Reach::Ok { pid, .. } => {
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
        Reach::Ok { pid, .. } => *pid == w.pid,
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
        return;
    }
    ctx.out.push(Out::LinkHeartbeat { peer: id, kind });
}

/// After a tick: until when a peer's goroutines sleep, its stream reaching
/// `r` and a new dial `url` (see [`Quiet`]); `None` when it may have work at
/// any tick.
fn asleep_until(p: &Peer, r: &Reach, url: &Reach) -> Option<u64> {
    let (Reach::Ok { pid, .. }, Reach::Ok { .. }) = (r, url) else {
        return None;
    };
    let mut until = p.monitor_at_ms;
    for k in Kind::ALL {
        let c = p.readers[k.index()].as_ref().filter(|c| c.pid == *pid)?;
        until = until.min(c.next_beat_ms);
        if let Some(w) = &p.writers[k.index()] {
            until = until.min(w.next_beat_ms);
        }
    }
    if let Some((done, _, _)) = p.probing.flight {
        until = until.min(done);
    }
    Some(until)
}

/// `monitorProbingStatus`, for both probers of the peer: health first, then
/// the clock difference, each line once per prober.
fn monitor(ctx: &mut Ctx, id: u64, p: &mut Peer, r: &Reach) {
    let now = ctx.now_ms;
    record_probe(p, r, now);
    p.probing.settle(now);
    if !matches!(r, Reach::Ok { .. }) {
        // an answer still on its way is lost with the connection
        p.probing.flight = None;
    }
    if now < p.monitor_at_ms {
        return;
    }
    // health is false until the first probe ends, with no error yet
    let fresh = p.probing.fresh.then(|| "<nil>".to_string());
    match p.probe_err.clone().or(fresh) {
        Some(err) => {
            let line = format!("health check for peer {id:x} could not connect: {err}");
            ctx.server('W', "rafthttp", &line);
            ctx.server('W', "rafthttp", &line);
            p.monitor_at_ms += PROBE_ERROR_INTERVAL_MS;
        }
        None => p.monitor_at_ms += PROBE_OK_INTERVAL_MS,
    }
    if p.probing.clock_diff_us > CLOCK_DIFF_LIMIT_US {
        clock_drift(ctx, id, &p.probing);
    }
    // a long pause (a stopped clock) does not replay missed checks
    if p.monitor_at_ms <= ctx.now_ms {
        p.monitor_at_ms = ctx.now_ms + PROBE_ERROR_INTERVAL_MS;
    }
}

/// `the clock difference against peer … is too high`, from both probers
/// (zap: `prober found high clock drift`, with the srtt).
fn clock_drift(ctx: &mut Ctx, id: u64, probing: &Probing) {
    let drift_ns = crate::sim::mul_sat(probing.clock_diff_us.unsigned_abs(), 1000);
    let drift = go_duration(drift_ns);
    if ctx.zap {
        for name in ROUND_TRIPPERS {
            let ts = ctx.stamp().zap();
            let rtt = crate::sim::mul_sat(probing.srtt_us, 1000);
            let line = super::zapfmt::clock_drift(&ts, name, id, drift_ns, rtt);
            ctx.log.push(line);
        }
        return;
    }
    let line = format!("the clock difference against peer {id:x} is too high [{drift} > 1s]");
    ctx.server('W', "rafthttp", &line);
    ctx.server('W', "rafthttp", &line);
}

/// The probers' round trippers, in the order they were added (and report).
const ROUND_TRIPPERS: [&str; 2] = ["ROUND_TRIPPER_SNAPSHOT", "ROUND_TRIPPER_RAFT_MESSAGE"];

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
    /// The request carries another cluster's ID; the releases of this
    /// server and of the sender (its `X-Server-Version` header).
    Mismatch {
        got: u64,
        versions: (EtcdVersion, EtcdVersion),
    },
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
            // zap's form names the sender and both releases (the request's
            // headers), which capnslog's line leaves out
            Handler::Mismatch { got, versions } if ctx.zap => {
                let ts = ctx.stamp().zap();
                let ids = (self.local, self.cluster, from, got);
                ctx.log
                    .push(super::zapfmt::cluster_id_mismatch(&ts, ids, versions));
            }
            Handler::Mismatch { got, .. } => ctx.server(
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `f` with a context at `now` whose lines go to `log`.
    fn at<T>(now: u64, zap: bool, log: &mut Vec<String>, f: impl FnOnce(&mut Ctx) -> T) -> T {
        let mut out = Vec::new();
        let mut parcels = Default::default();
        let mut ctx = Ctx {
            now_ms: now,
            wall_ms: 1_700_000_000_000 + now as i64,
            out: &mut out,
            parcels: &mut parcels,
            log,
            zap,
        };
        f(&mut ctx)
    }

    fn transport(zap: bool, log: &mut Vec<String>) -> Transport {
        let mut t = Transport::new(1, 9, 2000, "10.0.0.1".into(), 40000, EtcdVersion::V3_4);
        let url = vec!["http://10.0.0.2:2380".to_string()];
        at(0, zap, log, |ctx| t.add_peer(ctx, 2, url));
        log.clear();
        t
    }

    /// A raft message put out for the world, its URL not read yet.
    fn unread(to: u64) -> Out {
        let m = raft::eraftpb::Message {
            to,
            ..Default::default()
        };
        Out::Raft {
            #[cfg(debug_assertions)]
            sent_url: None,
            msg: crate::sim::etcd::parcel::Parcel::new(m),
            url: None,
        }
    }

    fn url_of(o: &Out) -> Option<&str> {
        match o {
            Out::Raft { url, .. } => url.as_deref(),
            _ => None,
        }
    }

    #[test]
    fn a_peer_change_pins_the_urls_of_the_messages_sent_before_it() {
        let mut log = Vec::new();
        let mut t = transport(false, &mut log);
        let url = vec!["http://10.0.0.3:2380".to_string()];
        at(0, false, &mut log, |ctx| t.add_peer(ctx, 3, url));
        let mut out = vec![unread(2), unread(3), unread(4)];
        let mut parcels = Default::default();
        let mut ctx = Ctx {
            now_ms: 10,
            wall_ms: 1_700_000_000_010,
            out: &mut out,
            parcels: &mut parcels,
            log: &mut log,
            zap: false,
        };
        t.remove_peer(&mut ctx, 2);
        // sent after the change: the world reads the transport as it is then
        ctx.out.push(unread(2));
        let urls: Vec<_> = out.iter().map(url_of).collect();
        let pinned = [Some("http://10.0.0.2:2380"), Some("http://10.0.0.3:2380")];
        assert_eq!(urls, [pinned[0], pinned[1], None, None]);
    }

    const DROPPED: &str = "W | rafthttp: dropped internal raft message to 2 since streamMsg's sending buffer is full (bad/overloaded network)";

    #[test]
    fn a_full_buffer_is_a_merged_warning_for_an_active_peer_only() {
        let mut log = Vec::new();
        let mut t = transport(false, &mut log);
        let drop = |t: &mut Transport, now, log: &mut Vec<String>| {
            at(now, false, log, |ctx| {
                t.dropped(ctx, 2, Kind::Message, "MsgHeartbeat")
            });
        };
        let tick = |t: &mut Transport, now, log: &mut Vec<String>| {
            at(now, false, log, |ctx| t.tick(ctx, &Rc::default()));
        };
        // an inactive peer's drop is a debug line: not printed
        drop(&mut t, 100, &mut log);
        assert!(log.is_empty(), "{log:?}");
        at(200, false, &mut log, |ctx| {
            t.accept(ctx, 2, Kind::Message, 7)
        });
        log.clear();
        // the first is printed, the repeats in its second are counted
        for now in [300, 400, 500, 1250] {
            drop(&mut t, now, &mut log);
        }
        assert_eq!(log.len(), 1, "{log:?}");
        assert!(log[0].ends_with(DROPPED), "{}", log[0]);
        // the output loop looks each second; the period ends 1 s after 300
        tick(&mut t, 1000, &mut log);
        assert_eq!(log.len(), 1, "{log:?}");
        tick(&mut t, 2000, &mut log);
        assert_eq!(log.len(), 2, "{log:?}");
        let merged = format!("{DROPPED} [merged 3 repeated lines in 1.7s]");
        assert!(log[1].ends_with(&merged), "{}", log[1]);
        // a period without repeats ends the merge: the next drop prints again
        tick(&mut t, 3000, &mut log);
        assert_eq!(log.len(), 2, "{log:?}");
        drop(&mut t, 3100, &mut log);
        assert_eq!(log.len(), 3, "{log:?}");
        assert!(log[2].ends_with(DROPPED), "{}", log[2]);
    }

    #[test]
    fn under_zap_every_drop_is_warned_with_the_peers_status() {
        let mut log = Vec::new();
        let mut t = transport(true, &mut log);
        for now in [100, 200] {
            at(now, true, &mut log, |ctx| {
                t.dropped(ctx, 2, Kind::MsgApp, "MsgApp")
            });
        }
        assert_eq!(log.len(), 2, "{log:?}");
        let v: serde_json::Value = serde_json::from_str(&log[0]).expect("JSON");
        assert_eq!(v["caller"], "rafthttp/peer.go:267");
        assert_eq!(
            v["msg"],
            "dropped internal Raft message since sending buffer is full (overloaded network)"
        );
        assert_eq!(v["message-type"], "MsgApp");
        assert_eq!(v["local-member-id"], "1");
        assert_eq!(v["from"], "1");
        assert_eq!(v["remote-peer-id"], "2");
        assert_eq!(v["remote-peer-active"], false);
    }

    #[test]
    fn the_probing_status_smooths_from_zero_and_waits_for_an_answer() {
        let mut p = Probing::new(0);
        assert!(!p.due(3999) && p.due(4000));
        // sent at 4 s: 1.2 s there, 1.2 s back
        let flight = Flight {
            there_us: 1_200_000,
            back_us: 1_200_000,
        };
        p.send(4000, Some(flight));
        assert!(p.fresh && !p.due(6000));
        p.settle(6399);
        assert!(p.fresh, "the answer arrives at 6.4 s");
        p.settle(6400);
        assert!(!p.fresh);
        // srtt = 0.125 × 2.4 s; clock difference = 1.2 s - srtt / 2
        assert_eq!((p.srtt_us, p.clock_diff_us), (300_000, 1_050_000));
        assert_eq!(p.next_ms, 8000);
        // an answer later than a tick: the waiting tick fires as it arrives
        let slow = Flight {
            there_us: 1000,
            back_us: 5_000_000,
        };
        p.send(8000, Some(slow));
        assert!(!p.due(12_000) && p.due(13_001));
        p.send(13_001, None);
        assert_eq!(p.next_ms, 16_000);
    }

    /// A transport under the same reaches passes each peer by until its first
    /// timer, skips the ticks when all of them sleep, and does exactly what
    /// one that never skips does: the same lines, the same link heartbeats at
    /// the same moments, the same state. Three peers: two up (their timers
    /// apart), one whose links are cut (it has work at every tick).
    #[test]
    fn a_quiet_tick_is_skipped_and_changes_nothing() {
        let mut log = Vec::new();
        let mut skipping = transport(false, &mut log);
        let mut one_up = skipping.clone();
        let ok = |pid| Reach::Ok {
            pid,
            version: EtcdVersion::V3_4,
        };
        for t in [&mut skipping, &mut one_up] {
            at(50, false, &mut log, |ctx| {
                t.add_peer(ctx, 3, vec!["http://10.0.0.3:2380".into()]);
                t.add_peer(ctx, 4, vec!["http://10.0.0.4:2380".into()]);
            });
        }
        let mut reaches = Reaches::default();
        for (id, r) in [
            (2, ok(7)),
            (3, ok(8)),
            (4, Reach::Silent("10.0.0.4:2380".into())),
        ] {
            reaches.stream.insert(id, r.clone());
            reaches.url.insert(id, r);
        }
        let mut up = reaches.clone();
        for r in [&mut up.stream, &mut up.url] {
            r.remove(&3);
            r.remove(&4);
        }
        let (reaches, up) = (Rc::new(reaches), Rc::new(up));
        let mut full = skipping.clone();
        let mut full_up = one_up.clone();
        let (mut passed, mut skipped, mut seen) = (0, 0, Vec::new());
        for now in (100..30_000).step_by(100) {
            if skipping.quiet.under(&reaches) {
                passed += skipping
                    .quiet
                    .asleep_until
                    .iter()
                    .filter(|t| now < **t)
                    .count();
            }
            skipped += usize::from(one_up.quiet.under(&up) && now < one_up.quiet.until);
            // the others' reaches are never the same Rc: a full tick each time
            let fresh = Rc::new((*reaches).clone());
            let fresh_up = Rc::new((*up).clone());
            let one = |t: &mut Transport, r: &Rc<Reaches>| {
                let mut out = Vec::new();
                let mut lines = Vec::new();
                let mut parcels = Default::default();
                let mut ctx = Ctx {
                    now_ms: now,
                    wall_ms: 1_700_000_000_000 + now as i64,
                    out: &mut out,
                    parcels: &mut parcels,
                    log: &mut lines,
                    zap: false,
                };
                let requests = t.tick(&mut ctx, r);
                for req in &requests {
                    let pid = if req.to == 3 { 8 } else { 7 };
                    t.accept(&mut ctx, req.to, req.kind, pid);
                }
                format!("{requests:?} {out:?} {lines:?}")
            };
            let a = one(&mut skipping, &reaches);
            let b = one(&mut full, &fresh);
            assert_eq!(a, b, "at {now} ms");
            assert_eq!(skipping, full);
            let a = one(&mut one_up, &up);
            let b = one(&mut full_up, &fresh_up);
            assert_eq!(a, b, "at {now} ms, one peer");
            assert_eq!(one_up, full_up);
            if a.contains("LinkHeartbeat") {
                seen.push(now);
            }
        }
        // two peers up of three: most of their 598 ticks pass them by (515)
        assert!(passed >= 450, "{passed} of 598 peer ticks passed by");
        // one peer up, two passed by: most ticks are skipped (257)
        assert!(skipped >= 200, "{skipped} of 299 ticks skipped");
        // the writers' heartbeats every 1666 ms (the next 100 ms tick), skipped or not
        assert_eq!(seen.len(), 17, "{seen:?}");
        assert!(seen.windows(2).all(|w| w[1] - w[0] == 1700), "{seen:?}");
    }
}
