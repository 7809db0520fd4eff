//! One etcd 3.4 server process above a raft-rs `RawNode`: its raft configuration,
//! the Ready loop, applying entries (key-value operations, publish, cluster
//! version, membership changes), client requests with their propose-time checks,
//! linearizable reads through etcd's read loop (one ReadIndex per round),
//! peer activity as rafthttp tracks it, and stopping.

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use super::datadir::SimStorage;
use bytes::Bytes;
use protobuf::Message as _;
use raft::eraftpb::{ConfChange, ConfChangeType, Entry, EntryType, Message, MessageType};
use raft::{Config, RawNode, StateRole, Storage};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::config::EtcdConfig;
use super::datadir::{Backend, DataDir};
use super::ids;
use super::logfmt::{self, RaftRecord, RecordSink};
use super::membership::{ChangeKind, Member};
use super::parcel::{Parcel, Parcels};
pub use super::rafthttp::Reach;
use super::rafthttp::{Handler, Kind, Reaches, StreamRequest, Transport};
use super::request::{Header, Reply, Request, Response, ServerError, SnapshotData, StatusInfo};
use super::snapshot_transfer::{self, Transfer};
use super::version::EtcdVersion;
use crate::sim::drop_unused;

/// The release a capnslog-logging server is (3.5 logs zap only; a server's
/// own release is `cfg.version`).
pub const VERSION: &str = "3.4.23";
/// etcd's `HealthInterval`: peers must be connected this long for reconfiguration.
pub const HEALTH_INTERVAL_MS: u64 = 5000;
/// etcd's `readyPercent` for promoting a learner.
pub const READY_PERCENT: f64 = 0.9;

/// What a server asks the world to do.
#[derive(Debug, Clone)]
pub enum Out {
    /// Send a raft message to a peer, at the URL the transport knew when raft
    /// handed the message over (before this step applied any removal).
    Raft {
        /// Boxed here (a box the world keeps for reuse: `parcel`), and the
        /// box travels to the receiver's raft: a message is 296 bytes,
        /// moved through many hands.
        msg: Parcel,
        /// `None`: the world reads the URL from the transport when it needs
        /// one (a message over a standing stream never does), as the
        /// transport is then still as it was when the message was sent. A
        /// step that changes the transport's peers first pins the URL of
        /// every message it sent so far (`Transport::pin_urls`).
        url: Option<std::rc::Rc<str>>,
        /// The URL the transport knew on sending, kept in test builds: the
        /// world checks that what it reads, or the pinned URL, is that one.
        #[cfg(debug_assertions)]
        sent_url: Option<std::rc::Rc<str>>,
    },
    /// Answer client request `req` (boxed: the answer is large and rare,
    /// and every output moves at the size of its largest kind).
    Reply {
        req: u64,
        result: Box<Result<Response, ServerError>>,
    },
    /// Hand a request to another member (the leader), as promote does over
    /// peer HTTP (boxed, as an answer is).
    Forward {
        to: u64,
        req: u64,
        request: Box<Request>,
    },
    /// Call `wake` at this simulated time (a request's deadline).
    WakeAt(u64),
    /// The transport closed its stream connections to this member: the peer's
    /// readers see EOF at once.
    StreamsClosed { peer: u64 },
    /// A stream writer wrote its link heartbeat (`linkHeartbeatMessage`, every
    /// `ConnReadTimeout / 3`) to the peer's reader: even an idle stream writes
    /// it, so across a cut that the stream outlives, its connection stalls
    /// within 1.67 s.
    LinkHeartbeat {
        peer: u64,
        kind: super::rafthttp::Kind,
    },
}

/// Orders a Ready's outputs by recipient, each one's in the order raft
/// gave them: a stable insertion sort (a Ready holds a handful, and std's
/// stable sort would bring all of its machinery to the page for them).
fn sort_by_recipient(outs: &mut [Out]) {
    for i in 1..outs.len() {
        let mut j = i;
        while j > 0 && outs[j - 1].raft_to() > outs[j].raft_to() {
            outs.swap(j - 1, j);
            j -= 1;
        }
    }
}

impl Out {
    /// The member a raft message goes to (0 for any other output): what
    /// [`Server::send`] orders its messages by.
    fn raft_to(&self) -> u64 {
        match self {
            Out::Raft { msg, .. } => msg.to,
            _ => 0,
        }
    }
}

/// Why a server stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// It applied its own removal (etcd exits with status 0).
    Removed,
    /// A graceful stop finished.
    Stopped,
    /// etcd's raft panicked (an invalid configuration change); Go exits with 2.
    Panic,
    /// A fatal log line (`plog.Fatalf`, zap's `Fatal`): the process exits with 1.
    Fatal,
}

/// The world's view given to a server for one step: time, and where its output goes.
pub struct Ctx<'a> {
    pub now_ms: u64,
    pub wall_ms: i64,
    pub out: &'a mut Vec<Out>,
    /// The world's spare message boxes: a message sent takes one, a
    /// message stepped gives its box back.
    pub parcels: &'a mut Parcels,
    pub log: &'a mut Vec<String>,
    /// The server logs with `--logger=zap` (its capnslog lines are converted
    /// later; a line whose zap form needs more than its text is written here).
    pub zap: bool,
}

impl Ctx<'_> {
    pub fn stamp(&self) -> logfmt::Stamp {
        logfmt::Stamp::from_unix_ms(self.wall_ms)
    }

    /// A capnslog line: `2021-03-03 16:25:57.005589 I | pkg: text`.
    pub fn server(&mut self, level: char, pkg: &str, text: &str) {
        let line = format!("{} {level} | {pkg}: {text}", self.stamp().capnslog());
        self.log.push(line);
    }

    /// A raft line: `raft2021/03/03 16:25:57 INFO: text`.
    pub fn raft_line(&mut self, level: &str, text: &str) {
        let line = format!("raft{} {level}: {text}", self.stamp().go_log());
        self.log.push(line);
    }
}

/// What a raft snapshot carries: the backend's keys and member table.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct BackendImage {
    kvs: Vec<super::kv::KeyValue>,
    #[serde(default)]
    generated: super::kv::GenStore,
    revision: i64,
    members: Vec<Member>,
    removed: Vec<u64>,
    version: Option<String>,
    consistent_index: u64,
}

impl BackendImage {
    fn of(b: &Backend) -> BackendImage {
        BackendImage {
            kvs: b.kv.iter().cloned().collect(),
            generated: b.kv.generated().clone(),
            revision: b.kv.revision(),
            members: b.members.members.values().cloned().collect(),
            removed: b.members.removed.iter().copied().collect(),
            version: b.members.version.clone(),
            consistent_index: b.consistent_index,
        }
    }

    fn restore_into(self, b: &mut Backend) {
        b.kv = super::kv::Kv::restored_with(self.kvs, self.generated, self.revision);
        b.members.members = self.members.into_iter().map(|m| (m.id, m)).collect();
        b.members.removed = self.removed.into_iter().collect();
        b.members.version = self.version;
        b.consistent_index = self.consistent_index;
    }
}

/// A normal entry's payload.
#[derive(Debug, Clone, Serialize, Deserialize)]
enum Op {
    Put {
        key: String,
        value: String,
    },
    Delete {
        key: String,
        prefix: bool,
    },
    Publish {
        id: u64,
        name: String,
        client_urls: Vec<String>,
    },
    Version(String),
    /// An `Alarm` GET: applied without a change, it answers the alarms.
    AlarmList,
    PutGenerated(super::kv::Generated),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Proposal {
    req: u64,
    op: Op,
}

/// How many decoded proposals [`decode_proposal`] keeps.
const DECODED_KEPT: usize = 8;

thread_local! {
    /// The proposals decoded last, with their bytes (see [`decode_proposal`]).
    static DECODED: RefCell<VecDeque<(Bytes, Rc<Proposal>)>> =
        const { RefCell::new(VecDeque::new()) };
}

/// An entry's proposal. Every member applies the same entry, so a member
/// that applies it within 8 proposals of the first finds it among the last
/// ones decoded (usually the same buffer: the log's entries share it). A memo
/// of a pure function (the same bytes decode to the same proposal), so the
/// worlds on a thread share it.
fn decode_proposal(data: &Bytes) -> Option<Rc<Proposal>> {
    let same = |b: &Bytes| (b.as_ptr() == data.as_ptr() && b.len() == data.len()) || b == data;
    DECODED.with_borrow_mut(|kept| {
        if let Some((_, p)) = kept.iter().find(|(b, _)| same(b)) {
            return Some(Rc::clone(p));
        }
        let p = Rc::new(serde_json::from_slice::<Proposal>(data).ok()?);
        if kept.len() == DECODED_KEPT {
            kept.pop_front();
        }
        kept.push_back((data.clone(), Rc::clone(&p)));
        Some(p)
    })
}

/// How a generated put's proposal starts (`{"req":N,"op":{"PutGenerated":…`).
const GENERATED_MARK: &[u8] = b"\"op\":{\"PutGenerated\"";

/// etcd's `InternalRaftRequest` around a put: its header (the request ID) and
/// the field tags and lengths of the key and the value.
pub const PUT_REQUEST_OVERHEAD: u64 = 16;

/// What a normal entry's payload weighs on the wire when the simulation keeps
/// it shorter than etcd does. A generated put (`etcdctl check perf|datascale`)
/// is kept as its key's shape and its value's length, while etcd ships the key
/// and the value: `Some(prefix + key + value + the request's overhead)`.
/// `None` for every other entry, which weighs what its data weighs.
pub fn generated_entry_bytes(data: &[u8]) -> Option<u64> {
    let head = &data[..data.len().min(48)];
    // the first byte first: a comparison is a call to memcmp in wasm
    if !head
        .windows(GENERATED_MARK.len())
        .any(|w| w[0] == b'"' && w == GENERATED_MARK)
    {
        return None;
    }
    match serde_json::from_slice::<Proposal>(data) {
        Ok(Proposal {
            op: Op::PutGenerated(g),
            ..
        }) => Some(
            g.prefix.len() as u64
                + u64::from(g.key_len)
                + u64::from(g.value_len)
                + PUT_REQUEST_OVERHEAD,
        ),
        _ => None,
    }
}

/// A membership change's context, carried in the ConfChange.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChangeCtx {
    pub req: u64,
    pub kind: ChangeKind,
    pub member: Member,
}

/// Something waiting for a leader before it can be proposed.
#[derive(Debug, Clone)]
enum Pending {
    Normal(Proposal),
    Conf(ConfChange),
}

/// A request that has been handed to raft (or waits to be).
#[derive(Debug, Clone)]
struct Waiter {
    request: Request,
    start_ms: u64,
    /// The server's own limit, `ReqTimeout` after the request arrived.
    deadline_ms: u64,
    /// The client's gRPC deadline.
    client_deadline_ms: u64,
    proposed: bool,
    /// Proposed while this server led, so the entry is in its own log.
    appended_here: bool,
}

impl Waiter {
    /// Whether the request is over at `now`: past the server's limit, or at the
    /// client's deadline.
    fn expired(&self, now: u64, leading: bool) -> bool {
        now >= self.deadline_ms
            || self.answers_first(now, leading)
            || now >= self.client_deadline_ms
    }

    /// Observed in real etcd: a put that a leader appended and then lost its
    /// leadership over gets `etcdserver: request timed out` just before the
    /// client's deadline (09-partitions-01, P2); one a follower forwarded (03
    /// A.2), one a leader still holds (07 7.4a), or one that never reached raft
    /// ends with the client's own `context deadline exceeded`.
    fn answers_first(&self, now: u64, leading: bool) -> bool {
        self.appended_here && !leading && now + 1 >= self.client_deadline_ms
    }
}

/// One running etcd server.
pub struct Server {
    pub cfg: EtcdConfig,
    pub id: u64,
    pub cluster_id: u64,
    node: RawNode<SimStorage>,
    sink: RecordSink,
    pub backend: Backend,
    rng: ChaCha8Rng,
    /// Published and serving clients.
    pub ready: bool,
    publish_req: Option<u64>,
    publish_at: u64,
    queue: Vec<(u64, Pending)>,
    /// Client requests that arrived before the server was ready.
    early: Vec<(u64, Request, u64)>,
    /// Merged snapshots sent and not yet released (etcd's `inflightSnapshots`).
    inflight: Vec<Inflight>,
    waiters: BTreeMap<u64, Waiter>,
    pub transport: Transport,
    last_leader: u64,
    /// etcd's `s.Term()`: the term of the last applied entry.
    applied_term: u64,
    last_role: (u64, StateRole),
    lead_elected_ms: u64,
    after_timeout_now: bool,
    version_proposed: bool,
    /// The cluster version request this server proposed (`updateClusterVersionV2`'s
    /// `Do`): its apply here logs `cluster version is updated` (zap only).
    version_req: Option<u64>,
    /// What dials of the peers found at the last tick: their `/version` is
    /// what a fresh dial of a peer's URL answered (shared with the world's
    /// cache: nothing is copied per tick).
    peer_reach: Rc<Reaches>,
    /// When this leader proposed a newer cluster version (until it applies).
    version_update_at: Option<u64>,
    pub stop_at: Option<(u64, Exit)>,
    transferring: bool,
    /// When a graceful stop began handing over leadership.
    transfer_started_ms: u64,
    next_internal_req: u64,
    /// etcd's request ID generator (`idutil.Generator`).
    req_ids: ReqIds,
    /// The linearizable read loop (`linearizableReadLoop`).
    read_loop: ReadLoop,
    /// When `monitorVersions` next looks at the members.
    version_check_at: u64,
    started_ms: u64,
    ticks_fast_forwarded: bool,
    /// The raft log's compaction point as etcd's MemoryStorage keeps it (its
    /// dummy entry): a compaction at or below it changes nothing and logs nothing.
    raft_compacted: u64,
}

/// etcd's `SnapshotCatchUpEntries`: entries kept behind a snapshot for slow followers.
const SNAPSHOT_CATCH_UP_ENTRIES: u64 = 5000;

/// A merged snapshot sent to a follower and not yet released: while any is,
/// etcd compacts no raft log.
#[derive(Debug, Clone, Copy)]
struct Inflight {
    transfer: Transfer,
    started_ms: u64,
    /// Once the follower took it: when it leaves the in-flight count.
    release_at: Option<u64>,
}

/// etcd's `idutil.Generator`: the member ID's low 16 bits, then the low 40 bits
/// of the Unix milliseconds at start and an 8-bit counter, incremented per ID.
#[derive(Debug, Clone, Copy)]
struct ReqIds {
    prefix: u64,
    suffix: u64,
}

impl ReqIds {
    const SUFFIX_BITS: u32 = 48;

    fn new(member: u64, wall_ms: i64) -> ReqIds {
        let ms = (wall_ms.max(0) as u64) & ((1 << 40) - 1);
        ReqIds {
            prefix: (member & 0xffff) << Self::SUFFIX_BITS,
            suffix: ms << 8,
        }
    }

    fn next(&mut self) -> u64 {
        self.suffix = self.suffix.wrapping_add(1);
        self.prefix | (self.suffix & ((1 << Self::SUFFIX_BITS) - 1))
    }
}

/// etcd's `linearizableReadLoop` (etcdserver/v3_server.go, 3.4.23): every
/// linearizable read waits on one shared notifier; the loop sends ONE ReadIndex
/// for all of them, whose context is a request ID drawn at the top of the loop.
#[derive(Debug, Clone, Default)]
struct ReadLoop {
    /// The ID the next round sends (`reqIDGen.Next()` at the loop's top).
    next_id: u64,
    /// `readwaitc`: a read signalled the loop (a buffer of one).
    signalled: bool,
    /// The reads waiting on the current `readNotifier`.
    waiting: Vec<u64>,
    /// The round under way, if any.
    round: Option<ReadRound>,
    /// `readStateC`: one ReadState the loop has not taken yet (a buffer of one).
    slot: Option<ReadAnswer>,
    /// ReadStates whose send waits for the slot: etcd's raft goroutine waits
    /// up to `internalTimeout` (1 s) each, then drops it with a warning.
    blocked: std::collections::VecDeque<(ReadAnswer, u64)>,
    /// An empty entry of a new term was applied (`notifyAboutFirstCommitInTerm`).
    first_commit: bool,
}

/// One ReadState: the request ID raft carried back and the read index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ReadAnswer {
    id: u64,
    index: u64,
}

/// One round of the read loop: the notifier it took (`nr`) and its state.
#[derive(Debug, Clone)]
struct ReadRound {
    id: u64,
    batch: Vec<u64>,
    phase: ReadPhase,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReadPhase {
    /// `requestCurrentIndex`: waiting for the ReadState with the round's ID.
    Asking {
        retry_at_ms: u64,
        give_up_at_ms: u64,
    },
    /// Waiting for the applied index to reach the confirmed read index.
    Applying { index: u64 },
}

/// `internalTimeout`: how long etcd's raft goroutine waits to hand over a ReadState.
const READ_STATE_SEND_MS: u64 = 1000;

/// `monitorVersionInterval` (rafthttp's ConnWriteTimeout - 1 s).
const VERSION_MONITOR_MS: u64 = 4000;
/// How long a version request to an unreachable peer waits before it fails.
const VERSION_TIMEOUT_MS: u64 = 2000;

/// `readIndexRetryTime`.
const READ_INDEX_RETRY_MS: u64 = 500;

/// The protobuf text of a range request, as etcd's slow-request warning quotes it.
fn range_text(key: &str, prefix: bool) -> String {
    if !prefix {
        return format!("key:\"{key}\" ");
    }
    let mut end = key.as_bytes().to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            break;
        }
    }
    let end = String::from_utf8_lossy(&end).into_owned();
    if key.is_empty() || end.is_empty() {
        return "key:\"\\000\" range_end:\"\\000\" ".to_string();
    }
    format!("key:\"{key}\" range_end:\"{end}\" ")
}

/// raft's configuration as etcd 3.4 sets it: election ticks from the flags,
/// heartbeat 1 tick, CheckQuorum on, PreVote from `--pre-vote`.
fn raft_config(cfg: &EtcdConfig, dir: &DataDir) -> Config {
    Config {
        id: dir.id,
        election_tick: cfg.election_ticks(),
        heartbeat_tick: 1,
        check_quorum: true,
        pre_vote: cfg.pre_vote,
        applied: dir.backend.applied,
        max_size_per_msg: 1024 * 1024,
        max_inflight_msgs: 256,
        ..Default::default()
    }
}

/// Internal requests (publish, version) use IDs above this; client IDs stay below.
const INTERNAL_REQ_BASE: u64 = 1 << 62;

impl Server {
    /// Starts a server on an already-prepared data dir (see `bootstrap`).
    pub fn start(
        cfg: EtcdConfig,
        booted: super::bootstrap::Booted,
        rng: ChaCha8Rng,
        ctx: &mut Ctx,
    ) -> Result<Server, String> {
        let super::bootstrap::Booted {
            dir,
            peers,
            members_at_start,
        } = booted;
        let sink = RecordSink::default();
        let logger = logfmt::raft_logger(sink.clone());
        let rcfg = raft_config(&cfg, &dir);
        let storage = SimStorage::new(dir.storage.clone());
        let raft_compacted = dir.storage.rl().first_index().saturating_sub(1);
        let node = RawNode::new(&rcfg, storage, &logger).map_err(|e| e.to_string())?;
        let mut s = Server::fresh(cfg, dir, node, sink, rng, raft_compacted, ctx);
        s.discard_records();
        s.last_role = (s.node.raft.term, s.node.raft.state);
        s.reseed_election_timeout();
        s.open_transport();
        ctx.server('W', "auth", "simple token is not cryptographically signed");
        for (id, urls) in peers {
            s.add_peer(ctx, id, urls);
        }
        log_server_start(ctx, &format!("{}/member", s.cfg.data_dir()));
        if members_at_start == 1 {
            s.fast_forward_single(ctx);
        }
        s.drive(ctx);
        // a data dir whose cluster version is already newer than this release
        // (applied before it stopped): `Recover`'s mustDetectDowngrade
        if let Some(v) = s.backend.members.version.clone() {
            if s.cfg.version.name() < v.as_str() && s.stop_at.is_none() {
                s.downgrade_refused(ctx, &v);
            }
        }
        let exiting = matches!(s.stop_at, Some((_, Exit::Fatal)));
        for u in s.cfg.listen_peer_urls.iter().filter(|_| !exiting) {
            ctx.server(
                'I',
                "embed",
                &format!("listening for peers on {}", listen_address(u)),
            );
        }
        Ok(s)
    }

    /// A server as it is before raft has said anything: its data dir's
    /// member, backend and raft node, nothing in flight.
    fn fresh(
        cfg: EtcdConfig,
        dir: DataDir,
        node: RawNode<SimStorage>,
        sink: RecordSink,
        rng: ChaCha8Rng,
        raft_compacted: u64,
        ctx: &Ctx,
    ) -> Server {
        let mut req_ids = ReqIds::new(dir.id, ctx.wall_ms);
        // the read loop draws its first round's ID as it starts
        let read_loop = ReadLoop {
            next_id: req_ids.next(),
            ..ReadLoop::default()
        };
        Server {
            id: dir.id,
            cluster_id: dir.cluster_id,
            node,
            sink,
            backend: dir.backend,
            rng,
            ready: false,
            publish_req: None,
            publish_at: 0,
            queue: Vec::new(),
            early: Vec::new(),
            inflight: Vec::new(),
            waiters: BTreeMap::new(),
            transport: Transport::default(),
            last_leader: 0,
            applied_term: 0,
            last_role: (0, StateRole::Follower),
            lead_elected_ms: 0,
            after_timeout_now: false,
            version_proposed: false,
            version_req: None,
            peer_reach: Rc::default(),
            version_update_at: None,
            stop_at: None,
            transferring: false,
            transfer_started_ms: 0,
            next_internal_req: INTERNAL_REQ_BASE,
            req_ids,
            read_loop,
            version_check_at: ctx.now_ms + VERSION_MONITOR_MS,
            raft_compacted,
            started_ms: ctx.now_ms,
            ticks_fast_forwarded: false,
            cfg,
        }
    }

    /// The peer transport, listening on the advertised peer host.
    fn open_transport(&mut self) {
        let host = self
            .cfg
            .initial_advertise_peer_urls
            .first()
            .and_then(|u| crate::sim::url::split_url(u))
            .map(|(h, _)| h.to_string())
            .unwrap_or_default();
        // ephemeral ports are the kernel's business: derived from the ID, so
        // they draw nothing from the election-timeout RNG
        let first_port = 32768 + (self.id % 28_000) as u16;
        let dial_timeout = 1000 + self.cfg.election_ms;
        let etcd = self.cfg.version;
        self.transport = Transport::new(
            self.id,
            self.cluster_id,
            dial_timeout,
            host,
            first_port,
            etcd,
        );
    }

    /// The data dir to put back on disk when the process ends.
    pub fn into_data_dir(self) -> DataDir {
        DataDir {
            storage: self.node.store().mem.clone(),
            id: self.id,
            cluster_id: self.cluster_id,
            backend: self.backend,
            has_wal: true,
        }
    }

    /// A copy of the data dir as it is on disk now (`cp -a` of a running member's dir).
    pub fn data_dir_copy(&self) -> DataDir {
        DataDir {
            storage: self.node.store().mem.clone(),
            id: self.id,
            cluster_id: self.cluster_id,
            backend: self.backend.clone(),
            has_wal: true,
        }
        .deep_copy()
    }

    // ----- raft plumbing -----

    fn discard_records(&mut self) {
        self.sink.take();
    }

    fn take_records(&mut self) -> Vec<RaftRecord> {
        self.sink.take()
    }

    fn reseed_election_timeout(&mut self) {
        // Draw as u64: rand samples usize differently on 32- and 64-bit targets.
        let et = self.node.raft.election_timeout() as u64;
        let t = self.rng.gen_range(et..2 * et);
        self.node.raft.set_randomized_election_timeout(t as usize);
    }

    /// The etcd text of the current raft configuration.
    pub fn conf_text(&self) -> String {
        let cs = self.node.raft.prs().conf().to_conf_state();
        logfmt::conf_string(cs.get_voters(), cs.get_learners())
    }

    /// Turns captured raft records into log lines, and re-seeds the election timer.
    #[inline(always)]
    fn flush_raft(&mut self, ctx: &mut Ctx) {
        let now = (self.node.raft.term, self.node.raft.state);
        if now == self.last_role && !self.sink.any() {
            return; // most steps: raft said nothing and kept its role
        }
        self.flush_raft_now(ctx);
    }

    /// [`Self::flush_raft`] when raft logged or changed role or term.
    fn flush_raft_now(&mut self, ctx: &mut Ctx) {
        if self.sink.any() {
            self.log_records(ctx);
        }
        // raft-rs draws a new election timeout from thread_rng whenever it resets
        // (every change of role or term); replace it with a seeded one.
        let now = (self.node.raft.term, self.node.raft.state);
        if now != self.last_role {
            self.last_role = now;
            self.reseed_election_timeout();
        }
    }

    /// The log lines of the raft records captured since the last look.
    fn log_records(&mut self, ctx: &mut Ctx) {
        let records = self.take_records();
        for rec in &records {
            if rec.msg == "starting a new election" && self.after_timeout_now {
                self.after_timeout_now = false;
                continue;
            }
            if rec.msg.contains("received MsgTimeoutNow") {
                self.after_timeout_now = true;
            }
            let conf = self.conf_text();
            for (level, text) in logfmt::etcd_raft_lines(self.id, rec, &conf) {
                ctx.raft_line(level, &text);
            }
            if rec.msg.starts_with("became candidate") {
                let t = self.node.raft.term;
                ctx.raft_line(
                    "INFO",
                    &format!(
                        "{:x} received MsgVoteResp from {:x} at term {t}",
                        self.id, self.id
                    ),
                );
            } else if rec.msg.starts_with("became pre-candidate") {
                let t = self.node.raft.term;
                ctx.raft_line(
                    "INFO",
                    &format!(
                        "{:x} received MsgPreVoteResp from {:x} at term {t}",
                        self.id, self.id
                    ),
                );
            }
        }
    }

    /// Logs leader changes as etcd's `raft.node` does, after the step's raft lines.
    #[inline(always)]
    fn note_leader(&mut self, ctx: &mut Ctx) {
        let lead = self.node.raft.leader_id;
        if lead != self.last_leader {
            self.leader_changed(ctx, lead);
        }
    }

    /// [`Self::note_leader`] when the leader changed: rare, and out of the
    /// way of the Ready loop's code (the hot path's instructions stay close).
    #[cold]
    fn leader_changed(&mut self, ctx: &mut Ctx, lead: u64) {
        let (id, term) = (self.id, self.node.raft.term);
        let text = match (self.last_leader, lead) {
            (0, l) => format!("raft.node: {id:x} elected leader {l:x} at term {term}"),
            (p, 0) => format!("raft.node: {id:x} lost leader {p:x} at term {term}"),
            (p, l) => {
                format!("raft.node: {id:x} changed leader from {p:x} to {l:x} at term {term}")
            }
        };
        ctx.raft_line("INFO", &text);
        if lead != 0 {
            self.lead_elected_ms = ctx.now_ms;
        }
        self.last_leader = lead;
        if lead != 0 {
            self.read_loop_leader_changed(ctx);
        }
    }

    /// Runs the Ready loop until raft has nothing more to say.
    fn drive(&mut self, ctx: &mut Ctx) {
        self.flush_raft(ctx);
        while self.node.has_ready() {
            let mut rd = self.node.ready();
            self.send(ctx, rd.take_messages());
            if !rd.snapshot().is_empty() {
                let snap = rd.snapshot().clone();
                self.apply_snapshot(ctx, snap);
            }
            if !rd.entries().is_empty() {
                self.node
                    .mut_store()
                    .mem
                    .wl()
                    .append(rd.entries())
                    .expect("raft's unstable entries follow the stored log: they start after its snapshot and past the commit index, and compaction never passes the applied index");
            }
            if let Some(hs) = rd.hs() {
                self.node.mut_store().mem.wl().set_hardstate(hs.clone());
            }
            let persisted = rd.take_persisted_messages();
            self.send(ctx, persisted);
            let committed = rd.take_committed_entries();
            let read_states = rd.take_read_states();
            self.apply_entries(ctx, committed);
            let mut light = self.node.advance(rd);
            if let Some(c) = light.commit_index() {
                self.node
                    .mut_store()
                    .mem
                    .wl()
                    .mut_hard_state()
                    .set_commit(c);
            }
            self.send(ctx, light.take_messages());
            let more = light.take_committed_entries();
            self.apply_entries(ctx, more);
            self.maybe_snapshot(ctx);
            self.node.advance_apply();
            self.on_read_states(ctx, &read_states);
            drop_unused(read_states);
            self.flush_raft(ctx);
        }
        // no flush here: the loop flushed last, and `has_ready` only reads
        self.note_leader(ctx);
        if self.node.store().take_request() {
            let snap = self.make_snapshot();
            self.node.store().offer(snap);
        }
        self.submit_queued(ctx);
        self.step_read_loop(ctx);
        if self.node.raft.leader_id != 0 {
            self.maybe_publish(ctx);
            self.maybe_set_version(ctx);
        }
        if self.ready && !self.early.is_empty() {
            self.handle_early(ctx);
        }
    }

    /// The requests that came before the server was ready, handled once it
    /// is (out of the Ready loop's way).
    #[cold]
    fn handle_early(&mut self, ctx: &mut Ctx) {
        for (req, request, deadline) in std::mem::take(&mut self.early) {
            if deadline > ctx.now_ms {
                self.handle(ctx, req, request, deadline);
            }
        }
    }

    /// etcd's `triggerSnapshot`: once more than `--snapshot-count` entries were
    /// applied since the last snapshot, save one at the applied index, then
    /// compact the raft log, keeping 5,000 entries for slow followers (a
    /// follower further behind gets a snapshot).
    #[inline(always)]
    fn maybe_snapshot(&mut self, ctx: &mut Ctx) {
        let snapi = self.backend.snapshot.as_ref().map_or(0, |s| s.index);
        let applied = self.backend.applied;
        if applied.saturating_sub(snapi) > self.cfg.snapshot_count {
            self.snapshot(ctx, snapi, applied);
        }
    }

    /// [`Self::maybe_snapshot`] once one is due (rare: out of line).
    #[cold]
    fn snapshot(&mut self, ctx: &mut Ctx, snapi: u64, applied: u64) {
        ctx.server(
            'I',
            "etcdserver",
            &format!("start to snapshot (applied: {applied}, lastsnap: {snapi})"),
        );
        self.backend.snapshot = Some(super::datadir::SavedSnapshot {
            index: applied,
            conf: self.backend.conf.clone(),
            members: self.backend.members.clone(),
        });
        ctx.server(
            'I',
            "etcdserver",
            &format!("saved snapshot at index {applied}"),
        );
        if !self.inflight.is_empty() {
            let text = "skip compaction since there is an inflight snapshot";
            ctx.server('I', "etcdserver", text);
            return;
        }
        let compacti = applied.saturating_sub(SNAPSHOT_CATCH_UP_ENTRIES).max(1);
        if compacti <= self.raft_compacted {
            return; // raft.ErrCompacted: etcd says nothing
        }
        // etcd's MemoryStorage.Compact(i) keeps entry i only as its dummy
        // (its index and term): the log then starts at i + 1
        if self.node.mut_store().mem.wl().compact(compacti + 1).is_ok() {
            self.raft_compacted = compacti;
            ctx.server(
                'I',
                "etcdserver",
                &format!("compacted raft log at {compacti}"),
            );
        }
    }

    /// The snapshot a lagging follower gets: the backend at the applied index.
    #[cold]
    fn make_snapshot(&self) -> raft::eraftpb::Snapshot {
        let mut snap = raft::eraftpb::Snapshot::default();
        let applied = self.backend.applied;
        let term = self.node.store().term(applied).unwrap_or(self.applied_term);
        let meta = snap.mut_metadata();
        meta.index = applied;
        meta.term = term;
        meta.set_conf_state(self.backend.conf.clone());
        let image = BackendImage::of(&self.backend);
        snap.data = serde_json::to_vec(&image).unwrap_or_default().into();
        snap
    }

    /// What a snapshot message carries, as the transfer's sizes: the bbolt
    /// file of its keys, and the raft message of its v2 store (members).
    fn transfer_of(&self, m: &Message) -> Option<Transfer> {
        let image = serde_json::from_slice::<BackendImage>(&m.get_snapshot().data).ok()?;
        Some(Transfer {
            index: m.get_snapshot().get_metadata().index,
            from: m.from,
            to: m.to,
            db_bytes: super::kv::db_size_of(image.kvs.iter()) + image.generated.db_bytes(),
            message_bytes: snapshot_transfer::message_bytes(
                image.members.len(),
                image.removed.len(),
            ),
        })
    }

    /// The bytes a merged snapshot POST carries (the message and the bbolt
    /// file), for the network to take its time over.
    pub fn merged_snapshot_bytes(&self, m: &Message) -> Option<u64> {
        self.transfer_of(m).map(|t| t.total_bytes())
    }

    /// The snapshot POST to `to` ended (`error`: how it failed): raft hears
    /// it (etcd's `ReportSnapshot`), and a snapshot the follower took stays
    /// in flight a while longer.
    pub fn snapshot_done(&mut self, ctx: &mut Ctx, to: u64, error: Option<String>) {
        let Some(i) = self
            .inflight
            .iter()
            .position(|f| f.transfer.to == to && f.release_at.is_none())
        else {
            return;
        };
        let f = self.inflight[i];
        let Some(error) = error else {
            f.transfer.log_sent(ctx);
            self.node.report_snapshot(to, raft::SnapshotStatus::Finish);
            let at = ctx.now_ms + snapshot_transfer::RELEASE_DELAY_MS;
            self.inflight[i].release_at = Some(at);
            ctx.out.push(Out::WakeAt(at));
            return;
        };
        f.transfer.log_failed(ctx, &error);
        self.node.report_unreachable(to);
        self.node.report_snapshot(to, raft::SnapshotStatus::Failure);
        self.inflight.remove(i);
        f.transfer.log_released(ctx, ctx.now_ms - f.started_ms);
    }

    /// Snapshots whose release delay is over leave the in-flight count (the
    /// server is woken when one is due).
    fn release_snapshots(&mut self, ctx: &mut Ctx) {
        let now = ctx.now_ms;
        let (done, keep): (Vec<Inflight>, Vec<Inflight>) = self
            .inflight
            .iter()
            .partition(|f| f.release_at.is_some_and(|at| at <= now));
        self.inflight = keep;
        for f in done {
            f.transfer.log_released(ctx, now - f.started_ms);
        }
    }

    /// The server stops: snapshots the followers took are released at once,
    /// those still on their way are given up.
    fn stop_snapshots(&mut self, ctx: &mut Ctx) {
        for f in std::mem::take(&mut self.inflight) {
            if f.release_at.is_some() {
                f.transfer.log_released(ctx, ctx.now_ms - f.started_ms);
            } else {
                f.transfer.log_canceled(ctx);
            }
        }
    }

    /// A follower installs the leader's snapshot: log, backend and peers.
    #[cold]
    fn apply_snapshot(&mut self, ctx: &mut Ctx, snap: raft::eraftpb::Snapshot) {
        let index = snap.get_metadata().index;
        let Ok(image) = serde_json::from_slice::<BackendImage>(&snap.data) else {
            return;
        };
        let progress = super::zapfmt::SnapshotProgress {
            current_snapshot: self.backend.snapshot.as_ref().map_or(0, |s| s.index),
            current_applied: self.backend.applied,
            incoming_index: index,
            incoming_term: snap.get_metadata().term,
        };
        if ctx.zap {
            let ts = ctx.stamp().zap();
            ctx.log.push(progress.zap(&ts, false));
        } else {
            ctx.server(
                'I',
                "etcdserver",
                &format!(
                    "applying snapshot at index {}...",
                    progress.current_snapshot
                ),
            );
        }
        let conf = snap.get_metadata().get_conf_state().clone();
        if self.node.mut_store().mem.wl().apply_snapshot(snap).is_err() {
            return;
        }
        let known_version = self.backend.members.version.clone();
        image.restore_into(&mut self.backend);
        self.raft_compacted = index;
        self.backend.applied = index;
        self.backend.conf = conf.clone();
        self.backend.snapshot = Some(super::datadir::SavedSnapshot {
            index,
            conf,
            members: self.backend.members.clone(),
        });
        ctx.server(
            'I',
            "etcdserver",
            &format!("raft applied incoming snapshot at index {index}"),
        );
        self.recover_from_snapshot(ctx, known_version);
        if ctx.zap {
            let ts = ctx.stamp().zap();
            ctx.log.push(progress.zap(&ts, true));
        } else {
            ctx.server(
                'I',
                "etcdserver",
                &format!("finished applying incoming snapshot at index {index}"),
            );
        }
    }

    /// etcd 3.4's `applySnapshot` after raft took the snapshot: the stores
    /// are recovered from it, then the transport drops every peer and adds the
    /// snapshot's members (in ID order: etcd's maps have none). zap prints the
    /// same steps in its words (`zapfmt`), after reopening the backend file.
    fn recover_from_snapshot(&mut self, ctx: &mut Ctx, known_version: Option<String>) {
        let say = |ctx: &mut Ctx, text: &str| ctx.server('I', "etcdserver", text);
        if ctx.zap {
            let (ts, dir) = (ctx.stamp().zap(), self.cfg.data_dir());
            ctx.log.push(super::zapfmt::opened_backend(&ts, &dir));
        }
        for text in [
            "recovering lessor...",
            "finished recovering lessor",
            "restoring mvcc store...",
            "finished restoring mvcc store",
            "recovering alarms...",
            "closing old backend...",
            "finished recovering alarms",
            "recovering auth store...",
            "finished recovering auth store",
            "recovering store v2...",
            "finished recovering store v2",
            "recovering cluster configuration...",
        ] {
            say(ctx, text);
        }
        self.recover_cluster(ctx, known_version);
        say(ctx, "finished recovering cluster configuration");
        self.renew_peers(ctx);
    }

    /// etcd's `RaftCluster.Recover`: the version's capabilities (when this
    /// process had not enabled them yet), each member, the version.
    fn recover_cluster(&mut self, ctx: &mut Ctx, known_version: Option<String>) {
        let version = self.backend.members.version.clone();
        if let Some(v) = version
            .as_ref()
            .filter(|v| known_version.as_ref() < Some(*v))
        {
            let text = format!("enabled capabilities for version {v}");
            ctx.server('I', "etcdserver/api", &text);
        }
        let members: Vec<Member> = self.backend.members.members.values().cloned().collect();
        let cid = self.cluster_id;
        for m in &members {
            let text = format!(
                "added member {:x} [{}] to cluster {cid:x} from store",
                m.id,
                m.peer_urls.join(" ")
            );
            ctx.server('I', "etcdserver/membership", &text);
        }
        if let Some(v) = version {
            let text = format!("set the cluster version to {v} from store");
            ctx.server('I', "etcdserver/membership", &text);
            if self.cfg.version.name() < v.as_str() {
                self.downgrade_refused(ctx, &v);
            }
        }
    }

    /// The transport drops every peer and adds the recovered members.
    fn renew_peers(&mut self, ctx: &mut Ctx) {
        let say = |ctx: &mut Ctx, text: &str| ctx.server('I', "etcdserver", text);
        say(ctx, "removing old peers from network...");
        let old: Vec<u64> = self.transport.peers.keys().copied().collect();
        for (i, id) in old.into_iter().enumerate() {
            self.transport.remove_peer(ctx, id);
            if i == 0 {
                // the old backend closes in its own goroutine meanwhile
                say(ctx, "finished closing old backend");
            }
        }
        say(ctx, "finished removing old peers from network");
        say(
            ctx,
            "adding peers from new cluster configuration into network...",
        );
        let members: Vec<Member> = self.backend.members.members.values().cloned().collect();
        for m in members {
            self.add_peer(ctx, m.id, m.peer_urls);
        }
        say(
            ctx,
            "finished adding peers from new cluster configuration into network...",
        );
    }

    /// Hands raft's messages to the world. Most Readys carry none in one
    /// of their three lists: that is seen here, inline, without a call.
    #[inline(always)]
    fn send(&mut self, ctx: &mut Ctx, msgs: Vec<Message>) {
        if msgs.is_empty() {
            drop_unused(msgs);
        } else {
            self.send_some(ctx, msgs);
        }
    }

    #[inline(never)]
    fn send_some(&mut self, ctx: &mut Ctx, mut msgs: Vec<Message>) {
        let snapshots = msgs
            .iter()
            .any(|m| m.get_msg_type() == MessageType::MsgSnapshot);
        let first = ctx.out.len();
        for m in msgs.drain(..) {
            self.push_raft(ctx, m);
        }
        self.recycle(msgs);
        // raft-rs fills a Ready from hash maps whose order depends on the word
        // size; a canonical order (by recipient, stable) keeps native and wasm
        // runs identical. The outputs are sorted, not the larger messages.
        sort_by_recipient(&mut ctx.out[first..]);
        if snapshots {
            self.start_snapshot_sends(ctx, first);
        }
    }

    /// The snapshot transfers among the messages sent from output `first`
    /// on start (and log), in the order the messages go: etcd hands a
    /// MsgSnap to `sendMergedSnap`, which starts the POST.
    fn start_snapshot_sends(&mut self, ctx: &mut Ctx, first: usize) {
        let transfers: Vec<_> = ctx.out[first..]
            .iter()
            .filter_map(|o| match o {
                Out::Raft { msg, .. } if msg.get_msg_type() == MessageType::MsgSnapshot => {
                    self.transfer_of(msg)
                }
                _ => None,
            })
            .collect();
        for transfer in transfers {
            transfer.log_sending(ctx);
            self.inflight.push(Inflight {
                transfer,
                started_ms: ctx.now_ms,
                release_at: None,
            });
        }
    }

    /// Hands an emptied message buffer back to raft, if raft holds none with
    /// room: its next messages fill it, where raft would grow a new one
    /// from nothing (an allocation and a few reallocations per Ready).
    #[inline(always)]
    fn recycle(&mut self, msgs: Vec<Message>) {
        debug_assert!(msgs.is_empty(), "only an emptied buffer goes back");
        let raft = &mut self.node.raft.msgs;
        if raft.capacity() == 0 {
            // raft's own is empty: nothing to drop
            drop_unused(std::mem::replace(raft, msgs));
        }
    }

    /// Hands a raft message to the world; the peer URL is read when needed
    /// (see [`Out::Raft`]).
    #[inline(always)]
    fn push_raft(&self, ctx: &mut Ctx, m: Message) {
        #[cfg(debug_assertions)]
        let sent_url = self.transport.first_url(m.to);
        let msg = ctx.parcels.wrap(m);
        ctx.out.push(Out::Raft {
            #[cfg(debug_assertions)]
            sent_url,
            msg,
            url: None,
        });
    }

    // ----- applying -----

    /// Applies committed entries; as [`Self::send`], an empty list (the
    /// most common) is seen inline.
    #[inline(always)]
    fn apply_entries(&mut self, ctx: &mut Ctx, entries: Vec<Entry>) {
        if entries.is_empty() {
            drop_unused(entries);
        } else {
            self.apply_some(ctx, entries);
        }
    }

    #[inline(never)]
    fn apply_some(&mut self, ctx: &mut Ctx, entries: Vec<Entry>) {
        for e in entries {
            if e.index <= self.backend.applied {
                continue;
            }
            if matches!(self.stop_at, Some((_, Exit::Fatal))) {
                return; // the process is exiting: nothing more is applied
            }
            self.applied_term = e.term;
            self.backend.meta_35 |= self.cfg.version == EtcdVersion::V3_5;
            match e.get_entry_type() {
                EntryType::EntryNormal => self.apply_normal(ctx, &e),
                EntryType::EntryConfChange => self.apply_conf(ctx, &e),
                EntryType::EntryConfChangeV2 => {}
            }
            self.backend.applied = e.index;
        }
    }

    fn apply_normal(&mut self, ctx: &mut Ctx, e: &Entry) {
        if e.data.is_empty() {
            self.read_loop_first_commit();
            return;
        }
        let Some(p) = decode_proposal(&e.data) else {
            return;
        };
        // the v3 requests (InternalRaftRequest), the alarm request among them
        let v3_op = matches!(
            p.op,
            Op::Put { .. } | Op::Delete { .. } | Op::PutGenerated(_) | Op::AlarmList
        );
        if v3_op {
            // etcd's applyEntryNormal: the v3 applier skips what the backend
            // has already applied, and then nobody is told the request
            // finished (a backend copied from another member's data dir:
            // 3.5.1's health checks time out until the raft index passes
            // the copied consistent index, tests/reference-run-b/3.5/07).
            if e.index <= self.backend.consistent_index {
                return;
            }
            self.backend.consistent_index = e.index;
        }
        let result = match &p.op {
            Op::Put { key, value } => {
                self.backend.kv.put(key, value);
                Reply::Put
            }
            Op::PutGenerated(g) => {
                self.backend.kv.put_generated(g);
                Reply::Put
            }
            Op::Delete { key, prefix } => Reply::Delete(self.backend.kv.delete(key, *prefix)),
            Op::Publish {
                id,
                name,
                client_urls,
            } => {
                if let Some(m) = self.backend.members.members.get_mut(id) {
                    m.name = name.clone();
                    m.client_urls = client_urls.clone();
                }
                Reply::Put
            }
            Op::Version(v) => {
                self.apply_version(ctx, v);
                // its proposer's `Do` returns: zap says so (capnslog does not)
                if self.version_req == Some(p.req) {
                    self.version_req = None;
                    if ctx.zap {
                        let ts = ctx.stamp().zap();
                        ctx.log.push(super::zapfmt::cluster_version_updated(&ts, v));
                    }
                }
                Reply::Put
            }
            Op::AlarmList => Reply::Alarms(Vec::new()),
        };
        self.finish(ctx, p.req, Ok(result));
    }

    /// `RaftCluster.SetVersion`: the first version, or a newer one.
    fn apply_version(&mut self, ctx: &mut Ctx, v: &str) {
        let text = match self.backend.members.version.as_deref() {
            None => format!("set the initial cluster version to {v}"),
            Some(old) if old != v => format!("updated the cluster version from {old} to {v}"),
            Some(_) => return,
        };
        ctx.server('N', "etcdserver/membership", &text);
        if self.cfg.version.name() < v {
            self.downgrade_refused(ctx, v);
            return;
        }
        let text = format!("enabled capabilities for version {v}");
        ctx.server('I', "etcdserver/api", &text);
        self.backend.members.version = Some(v.to_string());
        self.version_update_at = None;
    }

    /// `mustDetectDowngrade` (membership/cluster.go at v3.4.23): a server
    /// older than the cluster version it applies exits, its data dir untouched.
    fn downgrade_refused(&mut self, ctx: &mut Ctx, cluster: &str) {
        let text = format!(
            "cluster cannot be downgraded (current version: {} is lower than determined cluster version: {cluster}).",
            self.cfg.version.release()
        );
        ctx.server('C', "etcdserver/membership", &text);
        self.stop_at = Some((ctx.now_ms, Exit::Fatal));
    }

    fn apply_conf(&mut self, ctx: &mut Ctx, e: &Entry) {
        let mut cc = ConfChange::default();
        if cc.merge_from_bytes(&e.data).is_err() {
            return;
        }
        let Ok(change) = serde_json::from_slice::<ChangeCtx>(cc.get_context()) else {
            return;
        };
        let verdict = self.backend.members.validate(change.kind, &change.member);
        if verdict.is_err() || change.kind == ChangeKind::Update {
            cc.node_id = 0;
        }
        let applied = self.node.apply_conf_change(&cc);
        self.flush_raft(ctx);
        match applied {
            Ok(cs) => self.backend.conf = cs,
            Err(e) => {
                // etcd 3.4's raft panics where raft-rs returns the error.
                ctx.log.push(format!("panic: {e}"));
                self.stop_at = Some((ctx.now_ms, Exit::Panic));
                return;
            }
        }
        if let Err(err) = verdict {
            self.finish(ctx, change.req, Err(ServerError::Member(err)));
            return;
        }
        self.backend.members.apply(change.kind, &change.member);
        self.log_member_change(ctx, &change);
        let members = self.backend.members.members.values().cloned().collect();
        let reply = Reply::Members {
            member: Some(change.member.clone()),
            members,
        };
        self.finish(ctx, change.req, Ok(reply));
        self.after_member_change(ctx, &change);
    }

    fn log_member_change(&mut self, ctx: &mut Ctx, c: &ChangeCtx) {
        let cid = self.cluster_id;
        let id = c.member.id;
        let urls = c.member.peer_urls.join(" ");
        let (level, text) = match c.kind {
            ChangeKind::Add => (
                'I',
                format!("added member {id:x} [{urls}] to cluster {cid:x}"),
            ),
            ChangeKind::Remove => ('I', format!("removed member {id:x} from cluster {cid:x}")),
            ChangeKind::Update => (
                'N',
                format!("updated member {id:x} [{urls}] in cluster {cid:x}"),
            ),
            ChangeKind::Promote => ('N', format!("promote member {id:x} in cluster {cid:x}")),
        };
        ctx.server(level, "etcdserver/membership", &text);
    }

    fn after_member_change(&mut self, ctx: &mut Ctx, c: &ChangeCtx) {
        let id = c.member.id;
        match c.kind {
            ChangeKind::Add if id != self.id => {
                self.add_peer(ctx, id, c.member.peer_urls.clone());
            }
            ChangeKind::Update if id != self.id => {
                self.transport
                    .update_peer(ctx, id, c.member.peer_urls.clone());
            }
            ChangeKind::Remove if id == self.id => {
                // etcd: stopWithDelay(10 * 100ms, "the member has been permanently removed")
                self.stop_at = Some((ctx.now_ms + 1000, Exit::Removed));
            }
            ChangeKind::Remove => self.transport.remove_peer(ctx, id),
            _ => {}
        }
    }

    /// rafthttp's `AddPeer`: starts the streams to a peer.
    fn add_peer(&mut self, ctx: &mut Ctx, id: u64, urls: Vec<String>) {
        if id != self.id {
            self.transport.add_peer(ctx, id, urls);
        }
    }

    /// The server exits: its transport stops every peer.
    pub fn shutdown(&mut self, ctx: &mut Ctx) {
        self.stop_snapshots(ctx);
        self.transport.stop(ctx);
    }

    /// A peer's stream request reached this server's handler.
    pub fn stream_request(
        &mut self,
        ctx: &mut Ctx,
        from: u64,
        from_cluster: u64,
        from_version: EtcdVersion,
        kind: Kind,
        pid: u64,
    ) {
        let h = if from_cluster != self.cluster_id {
            Handler::Mismatch {
                got: from_cluster,
                versions: (self.cfg.version, from_version),
            }
        } else if self.backend.members.removed.contains(&from) {
            Handler::Removed
        } else if !self.transport.peers.contains_key(&from) {
            Handler::Unknown
        } else {
            Handler::Accept { pid }
        };
        self.transport.on_stream_request(ctx, from, kind, h);
    }

    /// rafthttp's buffer for `m`'s peer was full and dropped it (`peer.send`):
    /// raft hears the peer is unreachable, the transport warns.
    pub fn send_buffer_full(&mut self, ctx: &mut Ctx, m: &raft::eraftpb::Message) {
        self.node.report_unreachable(m.to);
        let name = format!("{:?}", m.get_msg_type());
        let kind = Kind::of(m.get_msg_type());
        let msg_type = super::logfmt::msg_type_name(&name);
        self.transport.dropped(ctx, m.to, kind, msg_type);
    }

    /// A stream writer's connection to `peer` closed with messages in its
    /// buffer (rafthttp's `closeUnlocked`): raft hears the peer is unreachable.
    pub fn report_unreachable(&mut self, peer: u64) {
        self.node.report_unreachable(peer);
    }

    /// The transport alone takes a step: at start-up the readers dial at once.
    pub fn dial_peers(&mut self, ctx: &mut Ctx, reach: &Rc<Reaches>) -> Vec<StreamRequest> {
        let requests = self.transport.tick(ctx, reach);
        // the reaches of the last tick were read then (`tick` keeps them): a
        // 410 seen then set the server to stop, and nothing more is to do
        if Rc::ptr_eq(reach, &self.peer_reach) {
            return requests;
        }
        let later = self.stop_at.is_none_or(|(at, _)| at > ctx.now_ms);
        if reach.stream.values().any(|r| *r == Reach::Removed) && later {
            // a peer answered 410 Gone: rafthttp reports ErrMemberRemoved, and
            // the server stops at once (not after its own removal's 1 s delay)
            self.stop_at = Some((ctx.now_ms, Exit::Removed));
        }
        requests
    }

    /// What a zap logger adds to this server's lines.
    pub fn zap_ctx(&self) -> super::zapfmt::ZapCtx {
        super::zapfmt::ZapCtx {
            local: self.id,
            cluster: self.cluster_id,
            heartbeat_ms: self.cfg.heartbeat_ms,
            election_ms: self.cfg.election_ms,
            snapshot_count: self.cfg.snapshot_count,
            peers: self
                .transport
                .peers
                .iter()
                .map(|(&id, p)| (id, p.urls.clone()))
                .collect(),
            version: self.cfg.version,
            revision: self.backend.kv.revision(),
        }
    }

    /// What a step can change of all that a dial to or from this server
    /// finds: its IDs, its transport's peers and their URLs (the epoch only
    /// grows) and the members it knows removed (a set that only grows while
    /// it runs). The world compares it around every step, so that what it
    /// keeps of earlier dials (`World::peer_reach`, a stream's last check)
    /// stands exactly while this does not change.
    #[inline(always)]
    pub fn reach_signature(&self) -> (u64, u64, u64, usize) {
        let removed = self.backend.members.removed.len();
        (self.cluster_id, self.id, self.transport.epoch, removed)
    }

    /// A peer's first URL as this server's transport knows it.
    pub fn peer_url(&self, id: u64) -> Option<String> {
        self.transport.peers.get(&id)?.urls.first().cloned()
    }

    /// Completes a waiter (client or internal) with a result.
    fn finish(&mut self, ctx: &mut Ctx, req: u64, result: Result<Reply, ServerError>) {
        if Some(req) == self.publish_req {
            self.on_published(ctx);
            return;
        }
        let Some(w) = self.waiters.remove(&req) else {
            return;
        };
        self.warn_slow_range(ctx, &w, &result);
        let result = result.map(|reply| Response {
            header: self.header(),
            reply,
        });
        ctx.out.push(Out::Reply {
            req,
            result: Box::new(result),
        });
    }

    /// `warnOfExpensiveReadOnlyRangeRequest`: a range answered (or failed)
    /// more than `WarningApplyDuration` after it arrived is logged, with its
    /// result's count and size or its error.
    fn warn_slow_range(&self, ctx: &mut Ctx, w: &Waiter, result: &Result<Reply, ServerError>) {
        let Request::Range { key, prefix, .. } = &w.request else {
            return;
        };
        let took = ctx.now_ms.saturating_sub(w.start_ms);
        if took <= logfmt::WARNING_APPLY_MS {
            return;
        }
        let result = match result {
            Ok(Reply::Range(kvs)) => {
                let sizes: Vec<logfmt::KvSize> = kvs
                    .iter()
                    .map(|kv| logfmt::KvSize {
                        key: kv.key.as_bytes(),
                        value_len: kv.value.len() as u64,
                        create_revision: kv.create_revision,
                        mod_revision: kv.mod_revision,
                        version: kv.version,
                    })
                    .collect();
                let size = logfmt::range_response_size(&sizes, self.backend.kv.revision());
                format!("range_response_count:{} size:{size}", kvs.len())
            }
            Ok(_) => return,
            Err(e) => format!("error:{}", e.status().1),
        };
        let line = logfmt::slow_range_line(&range_text(key, *prefix), &result, took);
        ctx.server('W', "etcdserver", &line);
    }

    fn on_published(&mut self, ctx: &mut Ctx) {
        self.publish_req = None;
        self.ready = true;
        let urls = self.cfg.advertise_client_urls.join(" ");
        ctx.server(
            'I',
            "etcdserver",
            &format!(
                "published {{Name:{} ClientURLs:[{urls}]}} to cluster {:x}",
                self.cfg.name, self.cluster_id
            ),
        );
        ctx.server('I', "embed", "ready to serve client requests");
        for u in &self.cfg.listen_client_urls {
            ctx.server(
                'N',
                "embed",
                &format!(
                    "serving insecure client requests on {}, this is strongly discouraged!",
                    listen_address(u)
                ),
            );
        }
    }

    // ----- proposing -----

    fn internal_req(&mut self) -> u64 {
        self.next_internal_req += 1;
        self.next_internal_req
    }

    /// Queues a proposal; it enters raft once there is a leader (etcd's node loop
    /// reads proposals only while a leader is known).
    fn enqueue(&mut self, req: u64, p: Pending) {
        // every proposal takes an ID from the generator, as in etcd
        self.req_ids.next();
        self.queue.push((req, p));
    }

    #[inline(always)]
    fn submit_queued(&mut self, ctx: &mut Ctx) {
        if self.node.raft.leader_id == 0 || self.queue.is_empty() {
            return;
        }
        self.submit(ctx);
    }

    /// [`Self::submit_queued`] with a leader known and proposals waiting.
    fn submit(&mut self, ctx: &mut Ctx) {
        let queue = std::mem::take(&mut self.queue);
        for (req, p) in queue {
            let ok = match p {
                Pending::Normal(prop) => {
                    let data = serde_json::to_vec(&prop).unwrap_or_default();
                    self.node.propose(Vec::new(), data).is_ok()
                }
                Pending::Conf(cc) => self.node.propose_conf_change(Vec::new(), cc).is_ok(),
            };
            let leading = self.is_leader();
            if let Some(w) = self.waiters.get_mut(&req) {
                w.proposed = ok;
                w.appended_here = ok && leading;
            }
        }
        self.drive(ctx);
    }

    fn propose_op(&mut self, ctx: &mut Ctx, req: u64, op: Op) {
        self.enqueue(req, Pending::Normal(Proposal { req, op }));
        self.submit_queued(ctx);
    }

    fn propose_change(&mut self, ctx: &mut Ctx, req: u64, kind: ChangeKind, member: Member) {
        let node_id = if kind == ChangeKind::Update {
            0
        } else {
            member.id
        };
        let change_type = match (kind, member.is_learner) {
            (ChangeKind::Add, true) => ConfChangeType::AddLearnerNode,
            (ChangeKind::Remove, _) => ConfChangeType::RemoveNode,
            _ => ConfChangeType::AddNode,
        };
        let context = serde_json::to_vec(&ChangeCtx { req, kind, member }).unwrap_or_default();
        let mut cc = ConfChange::default();
        cc.set_change_type(change_type);
        cc.node_id = node_id;
        cc.set_context(context);
        self.enqueue(req, Pending::Conf(cc));
        self.submit_queued(ctx);
    }

    // ----- time -----

    /// One heartbeat interval passed.
    pub fn tick(&mut self, ctx: &mut Ctx, reach: &Rc<Reaches>) -> Vec<StreamRequest> {
        let requests = self.dial_peers(ctx, reach);
        self.peer_reach = Rc::clone(reach);
        self.monitor_versions(ctx, &reach.url);
        self.maybe_fast_forward(ctx);
        self.node.tick();
        self.drive(ctx);
        self.maybe_publish(ctx);
        self.maybe_set_version(ctx);
        self.expire_waiters(ctx);
        self.check_transfer(ctx);
        requests
    }

    /// `monitorVersions`: every 4 s the leader asks each member's peer URL for
    /// its version; one it cannot reach gets two warnings (a timeout costs 2 s).
    fn monitor_versions(&mut self, ctx: &mut Ctx, reach: &BTreeMap<u64, Reach>) {
        if ctx.now_ms < self.version_check_at {
            return;
        }
        self.version_check_at = ctx.now_ms + VERSION_MONITOR_MS;
        if !self.is_leader() {
            return;
        }
        self.maybe_update_version(ctx);
        let members: Vec<Member> = self.backend.members.members.values().cloned().collect();
        for m in members.iter().filter(|m| m.id != self.id) {
            let Some(url) = m.peer_urls.first() else {
                continue;
            };
            let err = match reach.get(&m.id) {
                Some(Reach::Refused(e)) => e.clone(),
                Some(Reach::Silent(addr)) => {
                    self.version_check_at += VERSION_TIMEOUT_MS;
                    format!("dial tcp {addr}: i/o timeout")
                }
                _ => continue,
            };
            let err = format!("Get \"{url}/version\": {err}");
            let id = m.id;
            ctx.server(
                'W',
                "etcdserver",
                &format!("failed to reach the peerURL({url}) of member {id:x} ({err})"),
            );
            ctx.server(
                'W',
                "etcdserver",
                &format!("cannot get the version of member {id:x} ({err})"),
            );
        }
    }

    /// etcd's `adjustTicks`: a lone member fast-forwards to one tick before its
    /// election; a member of a larger cluster advances once two peers are active.
    fn maybe_fast_forward(&mut self, ctx: &mut Ctx) {
        if self.ticks_fast_forwarded {
            return;
        }
        let et = self.cfg.election_ticks();
        let active = self.transport.active_peers().len();
        if active > 1 {
            self.ticks_fast_forwarded = true;
            ctx.server(
                'I',
                "etcdserver",
                &format!(
                    "{:x} initialized peer connection; fast-forwarding {} ticks (election ticks {et}) with {active} active peer(s)",
                    self.id,
                    et - 2
                ),
            );
            for _ in 0..et - 2 {
                self.node.tick();
            }
        } else if ctx.now_ms >= self.started_ms + 5000 {
            self.ticks_fast_forwarded = true;
        }
    }

    /// `adjustTicks` for a cluster of one (known at start): one tick short of an election.
    fn fast_forward_single(&mut self, ctx: &mut Ctx) {
        self.ticks_fast_forwarded = true;
        let et = self.cfg.election_ticks();
        ctx.server(
            'I',
            "etcdserver",
            &format!(
                "{:x} as single-node; fast-forwarding {} ticks (election ticks {et})",
                self.id,
                et - 1
            ),
        );
        for _ in 0..et - 1 {
            self.node.tick();
        }
    }

    #[inline(always)]
    fn maybe_publish(&mut self, ctx: &mut Ctx) {
        if self.ready || self.publish_req.is_some() {
            return;
        }
        self.publish(ctx);
    }

    /// [`Self::maybe_publish`] once the server is neither published nor publishing.
    fn publish(&mut self, ctx: &mut Ctx) {
        if !self.is_member() {
            return;
        }
        let req = self.internal_req();
        self.publish_req = Some(req);
        self.publish_at = ctx.now_ms;
        let op = Op::Publish {
            id: self.id,
            name: self.cfg.name.clone(),
            client_urls: self.cfg.advertise_client_urls.clone(),
        };
        self.propose_op(ctx, req, op);
    }

    /// `decideClusterVersion`: the lowest major.minor the members run, as
    /// each one's `/version` says; `None` while one does not answer.
    fn decided_version(&self) -> Option<EtcdVersion> {
        let others = self
            .backend
            .members
            .members
            .keys()
            .filter(|id| **id != self.id);
        others
            .map(|id| match self.peer_reach.url.get(id) {
                Some(Reach::Ok { version, .. }) => Some(*version),
                _ => None,
            })
            .try_fold(self.cfg.version, |low, v| v.map(|v| low.min(v)))
    }

    /// The leader sets the first cluster version once every member has
    /// published itself: the lowest release among them (the leader's own while
    /// one does not answer).
    #[inline(always)]
    fn maybe_set_version(&mut self, ctx: &mut Ctx) {
        if self.version_proposed || self.backend.members.version.is_some() {
            return;
        }
        self.set_version(ctx);
    }

    /// [`Self::maybe_set_version`] while no cluster version is set or proposed.
    fn set_version(&mut self, ctx: &mut Ctx) {
        let members = &self.backend.members.members;
        if !self.is_leader() || !members.values().all(|m| m.is_started()) {
            return;
        }
        self.version_proposed = true;
        let version = self.decided_version().unwrap_or(self.cfg.version);
        let version = version.name();
        ctx.server(
            'I',
            "etcdserver",
            &format!("setting up the initial cluster version to {version}"),
        );
        let req = self.internal_req();
        self.version_req = Some(req);
        self.propose_op(ctx, req, Op::Version(version.into()));
    }

    /// `monitorVersions`' update: once every member runs a newer release than
    /// the cluster version, the leader raises it (3.4 to 3.5 in a rolling
    /// upgrade; only ever up, one minor at a time).
    fn maybe_update_version(&mut self, ctx: &mut Ctx) {
        let Some(current) = self.backend.members.version.clone() else {
            return;
        };
        let Some(decided) = self.decided_version() else {
            return;
        };
        if decided.name() <= current.as_str() || self.version_update_at.is_some() {
            return;
        }
        self.version_update_at = Some(ctx.now_ms);
        let to = decided.name();
        ctx.server(
            'I',
            "etcdserver",
            &format!("updating the cluster version from {current} to {to}"),
        );
        let req = self.internal_req();
        self.version_req = Some(req);
        self.propose_op(ctx, req, Op::Version(to.into()));
    }

    /// A deadline this server asked to be woken for.
    pub fn wake(&mut self, ctx: &mut Ctx) {
        self.expire_waiters(ctx);
        self.step_read_loop(ctx);
        self.release_snapshots(ctx);
    }

    fn expire_waiters(&mut self, ctx: &mut Ctx) {
        if self.waiters.is_empty() && self.publish_req.is_none() {
            return; // most ticks: nothing waits
        }
        let now = ctx.now_ms;
        let leading = self.is_leader();
        let expired: Vec<u64> = self
            .waiters
            .iter()
            .filter(|(_, w)| w.expired(now, leading))
            .map(|(&r, _)| r)
            .collect();
        for req in expired {
            let Some(w) = self.waiters.get(&req) else {
                continue;
            };
            self.queue.retain(|(r, _)| *r != req);
            let answers = now >= w.deadline_ms || w.answers_first(now, leading);
            if answers {
                let err = self.timeout_error(w);
                self.finish(ctx, req, Err(err));
            } else {
                // the client gave up; its request goes with it, unanswered
                if let Request::Range {
                    key,
                    prefix,
                    serializable: false,
                } = &w.request
                {
                    let took = (now - w.start_ms) * 1_000_000;
                    ctx.server(
                        'W',
                        "etcdserver",
                        &format!(
                            "read-only range request {:?} with result \"error:context canceled\" took too long ({}) to execute",
                            range_text(key, *prefix),
                            logfmt::go_duration(took)
                        ),
                    );
                }
                self.waiters.remove(&req);
            }
        }
        // etcd's publish gives an attempt ReqTimeout, then tries again.
        if self.publish_req.is_some() && now >= self.publish_at + self.cfg.request_timeout_ms() {
            let req = self.publish_req.take();
            self.queue.retain(|(r, _)| Some(*r) != req);
        }
    }

    /// `parseProposeCtxErr`.
    fn timeout_error(&self, w: &Waiter) -> ServerError {
        if matches!(w.request, Request::MoveLeader { .. }) {
            return ServerError::TimeoutLeaderTransfer;
        }
        if !w.proposed {
            return ServerError::ContextDeadline;
        }
        let window = 2 * self.cfg.election_ms;
        let elected = self.lead_elected_ms;
        if w.start_ms + window > elected && w.start_ms < elected {
            return ServerError::TimeoutDueToLeaderFail;
        }
        ServerError::Timeout
    }

    fn check_transfer(&mut self, ctx: &mut Ctx) {
        if !self.transferring {
            return;
        }
        let lead = self.node.raft.leader_id;
        if lead != self.id && lead != 0 {
            self.transferring = false;
            // etcd's MoveLeader waits until the transferee itself leads.
            let done: Vec<(u64, u64)> = self
                .waiters
                .iter()
                .filter_map(|(&r, w)| match w.request {
                    Request::MoveLeader { id } if id == lead => Some((r, id)),
                    _ => None,
                })
                .collect();
            for (req, to) in done {
                let from = self.id;
                self.finish(ctx, req, Ok(Reply::MoveLeader { from, to }));
            }
            if matches!(self.stop_at, Some((_, Exit::Stopped))) {
                ctx.server(
                    'I',
                    "etcdserver",
                    &format!(
                        "{:x} finished leadership transfer from {:x} to {lead:x} (took {})",
                        self.id,
                        self.id,
                        logfmt::go_duration((ctx.now_ms - self.transfer_started_ms) * 1_000_000)
                    ),
                );
                self.stop_at = Some((ctx.now_ms, Exit::Stopped));
            }
        }
    }

    // ----- messages -----

    /// rafthttp's snapshot handler: the POST's last byte arrived
    /// `transfer_ms` after its first; it saves the file before raft sees it.
    pub fn receive_snapshot(&mut self, ctx: &mut Ctx, m: Parcel, transfer_ms: u64) {
        if let Some(t) = self.transfer_of(&m) {
            t.log_received(ctx, &self.cfg.data_dir(), transfer_ms);
        }
        self.step(ctx, m);
    }

    /// A raft message from a peer arrives.
    pub fn step(&mut self, ctx: &mut Ctx, m: Parcel) {
        // read through the parcel once (each read checks that it holds its message)
        let msg: &Message = &m;
        let kind = msg.get_msg_type();
        self.transport
            .received(ctx.now_ms, msg.from, Kind::of(kind));
        if let Some(range) = self.commit_out_of_range(msg) {
            let m = ctx.parcels.open(m);
            self.panic_on_lost_log(ctx, m, range);
            return;
        }
        if self.removed_leader() && kind == MessageType::MsgAppendResponse {
            // A leader that applied its own removal leads on until etcd stops
            // it. etcd's raft then counts commits among the others; raft-rs
            // 0.7 unwraps the leader's own progress and panics, so the
            // replies are left unread (nothing new is proposed meanwhile).
            self.drive(ctx);
            return;
        }
        ctx.parcels.open_into(m, |m| self.step_peer(m));
        self.drive(ctx);
    }

    /// Steps a message from a peer into raft. raft-rs refuses three kinds,
    /// and etcd ignores each without a word: a response from a member raft
    /// keeps no progress for (etcd's `node.run` drops it), a local message
    /// type off the wire (etcd's `node.Step` returns nil), and a forwarded
    /// proposal dropped for want of a leader (raft logged it already; etcd's
    /// `node.run` ignores what `Step` returns).
    fn step_peer(&mut self, m: Message) {
        match self.node.step(m) {
            Ok(())
            | Err(raft::Error::StepPeerNotFound)
            | Err(raft::Error::StepLocalMsg)
            | Err(raft::Error::ProposalDropped) => {}
            Err(e) => panic!("raft-rs 0.7's step fails in no other way: {e}"),
        }
    }

    /// A heartbeat that would commit past the end of this member's log: its
    /// log was lost (a wiped data dir started again under its old member ID,
    /// while the leader still counts its old progress). The commit index
    /// asked for and the last index held.
    fn commit_out_of_range(&self, m: &Message) -> Option<(u64, u64)> {
        let r = &self.node.raft;
        let log = &r.raft_log;
        let beat = m.get_msg_type() == MessageType::MsgHeartbeat
            && (m.term > r.term || (m.term == r.term && r.state != StateRole::Leader));
        (beat && m.commit > log.committed && m.commit > log.last_index())
            .then(|| (m.commit, log.last_index()))
    }

    /// etcd's raft panics on such a heartbeat (`raftLog.commitTo`) and the
    /// process exits with status 2, after raft took the heartbeat's term and
    /// leader; raft-rs would panic the whole simulation, so the heartbeat is
    /// stepped without its commit and the panic is etcd's, in its words.
    fn panic_on_lost_log(&mut self, ctx: &mut Ctx, mut m: Message, (to, last): (u64, u64)) {
        m.commit = self.node.raft.raft_log.committed;
        self.step_peer(m);
        self.flush_raft(ctx);
        let text = format!(
            "tocommit({to}) is out of range [lastIndex({last})]. Was the raft log corrupted, truncated, or lost?"
        );
        if ctx.zap {
            let ts = ctx.stamp().zap();
            ctx.log.push(super::zapfmt::raft_commit_panic(&ts, &text));
        } else {
            // raft's default logger panics through Go's log: no level
            let line = format!("raft{} {text}", ctx.stamp().go_log());
            ctx.log.push(line);
        }
        ctx.log.push(format!("panic: {text}"));
        self.stop_at = Some((ctx.now_ms, Exit::Panic));
    }

    /// A leader no longer in its own configuration (it applied its removal).
    fn removed_leader(&self) -> bool {
        self.node.raft.state == StateRole::Leader && self.node.raft.prs().get(self.id).is_none()
    }

    // ----- client requests -----

    fn header(&self) -> Header {
        Header {
            cluster_id: self.cluster_id,
            member_id: self.id,
            revision: self.backend.kv.revision(),
            raft_term: self.applied_term,
        }
    }

    fn is_member(&self) -> bool {
        self.backend.members.members.contains_key(&self.id)
    }

    pub fn is_leader(&self) -> bool {
        self.node.raft.state == StateRole::Leader
    }

    pub fn is_learner(&self) -> bool {
        self.backend
            .members
            .get(self.id)
            .is_some_and(|m| m.is_learner)
    }

    pub fn role(&self) -> StateRole {
        self.node.raft.state
    }

    pub fn term(&self) -> u64 {
        self.node.raft.term
    }

    pub fn leader(&self) -> u64 {
        self.node.raft.leader_id
    }

    pub fn commit_index(&self) -> u64 {
        self.node.raft.raft_log.committed
    }

    /// The term of the entry at `index`, while the log holds it.
    pub fn log_term(&self, index: u64) -> Option<u64> {
        self.node.raft.raft_log.term(index).ok()
    }

    /// A request another member handed over on the peer port (`/members/promote`):
    /// etcd's peer HTTP handler logs a promotion it refuses.
    pub fn handle_from_peer(
        &mut self,
        ctx: &mut Ctx,
        req: u64,
        request: Request,
        client_deadline_ms: u64,
    ) {
        let promote = match request {
            Request::MemberPromote { id } => Some(id),
            _ => None,
        };
        let before = ctx.out.len();
        self.handle(ctx, req, request, client_deadline_ms);
        let Some(id) = promote else {
            return;
        };
        let refused = ctx.out[before..].iter().find_map(|o| match o {
            Out::Reply { req: r, result } if *r == req => match result.as_ref() {
                Err(e) => Some(e.status().1),
                Ok(_) => None,
            },
            _ => None,
        });
        if let Some(text) = refused {
            ctx.server(
                'E',
                "etcdserver/api/etcdhttp",
                &format!("error promoting member {id:x} ({text})"),
            );
        }
    }

    /// A client request arrives. Before the server has published, requests hang
    /// (etcd's gRPC server does not serve until it is ready).
    pub fn handle(&mut self, ctx: &mut Ctx, req: u64, request: Request, client_deadline_ms: u64) {
        if !self.ready {
            // The client's connection waits until the server serves (ReadyNotify);
            // a client that gives up first takes its request with it.
            self.early.push((req, request, client_deadline_ms));
            return;
        }
        if self.is_learner() && !request.allowed_on_learner(self.cfg.version) {
            let result = Box::new(Err(ServerError::NotSupportedForLearner));
            ctx.out.push(Out::Reply { req, result });
            return;
        }
        // a linearizable read waits for the read loop or its client, with no
        // limit of the server's own (etcd's Range has no ReqTimeout)
        let deadline_ms = match &request {
            Request::Range {
                serializable: false,
                ..
            }
            | Request::MemberList { linearizable: true } => u64::MAX,
            _ => ctx.now_ms + self.cfg.request_timeout_ms(),
        };
        let waiter = Waiter {
            request: request.clone(),
            start_ms: ctx.now_ms,
            deadline_ms,
            client_deadline_ms,
            proposed: false,
            appended_here: false,
        };
        for at in [
            client_deadline_ms.saturating_sub(1),
            client_deadline_ms,
            waiter.deadline_ms,
        ] {
            if at != u64::MAX {
                ctx.out.push(Out::WakeAt(at));
            }
        }
        self.waiters.insert(req, waiter);
        let result = self.dispatch(ctx, req, request);
        if let Some(result) = result {
            self.finish(ctx, req, result);
        }
    }

    /// One match for every request kind: `Some` answers now, `None` waits.
    fn dispatch(
        &mut self,
        ctx: &mut Ctx,
        req: u64,
        request: Request,
    ) -> Option<Result<Reply, ServerError>> {
        match request {
            Request::Status => Some(Ok(Reply::Status(self.status()))),
            Request::Version => Some(Ok(Reply::Version {
                server: self.cfg.version.release().into(),
                cluster: self.backend.members.version.clone(),
            })),
            Request::MemberList { linearizable }
                if linearizable && self.cfg.version.linearizable_member_list() =>
            {
                self.start_read(ctx, req);
                None
            }
            Request::MemberList { .. } => Some(Ok(self.members_reply(None))),
            Request::Range {
                key,
                prefix,
                serializable: true,
            } => Some(Ok(Reply::Range(self.backend.kv.range(&key, prefix)))),
            Request::Range { .. } => {
                self.start_read(ctx, req);
                None
            }
            Request::Snapshot => Some(Ok(Reply::Snapshot(self.snapshot_data()))),
            // 3.4's peer mux has no such path: Go's NotFound handler answers
            Request::DowngradeEnabled if self.cfg.version == EtcdVersion::V3_4 => {
                Some(Ok(Reply::DowngradeEnabled {
                    body: "404 page not found\n".into(),
                }))
            }
            // `downgradeEnabledHandler` (server.go:930 at v3.5.1): a
            // linearizable read under ReqTimeout, then the cluster's flag
            Request::DowngradeEnabled => {
                self.start_read(ctx, req);
                None
            }
            Request::Put { key, value } => {
                self.propose_op(ctx, req, Op::Put { key, value });
                None
            }
            Request::Delete { key, prefix } => {
                self.propose_op(ctx, req, Op::Delete { key, prefix });
                None
            }
            Request::PutGenerated(g) => {
                self.propose_op(ctx, req, Op::PutGenerated(g));
                None
            }
            Request::Metrics => Some(Ok(Reply::Metrics(self.resident_bytes()))),
            Request::AlarmList => {
                self.propose_op(ctx, req, Op::AlarmList);
                None
            }
            Request::MemberAdd { peer_urls, learner } => {
                self.member_add(ctx, req, peer_urls, learner).err().map(Err)
            }
            Request::MemberRemove { id } => self.member_remove(ctx, req, id).err().map(Err),
            Request::MemberUpdate { id, peer_urls } => {
                let member = Member {
                    id,
                    name: String::new(),
                    peer_urls,
                    client_urls: Vec::new(),
                    is_learner: false,
                };
                self.propose_change(ctx, req, ChangeKind::Update, member);
                None
            }
            Request::MemberPromote { id } => self.member_promote(ctx, req, id).err().map(Err),
            Request::MoveLeader { id } if id == self.id && self.is_leader() => {
                Some(Ok(Reply::MoveLeader { from: id, to: id }))
            }
            Request::MoveLeader { id } => self.move_leader(req, id).err().map(Err),
        }
    }

    fn members_reply(&self, member: Option<Member>) -> Reply {
        Reply::Members {
            member,
            members: self.backend.members.members.values().cloned().collect(),
        }
    }

    pub fn status(&self) -> StatusInfo {
        let leader = self.node.raft.leader_id;
        StatusInfo {
            version: self.cfg.version.release().into(),
            db_size: self.db_size(),
            db_size_in_use: 16384,
            leader,
            raft_index: self.commit_index(),
            raft_term: self.applied_term,
            raft_applied_index: self.backend.applied,
            is_learner: self.is_learner(),
            errors: if leader == 0 {
                vec!["etcdserver: no leader".into()]
            } else {
                Vec::new()
            },
        }
    }

    /// bbolt's file: 20 KiB empty, growing by 4 KiB pages as keys are added.
    fn db_size(&self) -> u64 {
        self.backend.kv.db_size()
    }

    /// The simulated `process_resident_memory_bytes`: 30 MiB for an idle etcd,
    /// the bbolt file (mapped, and touched by every write), and the Go heap
    /// holding each live key and value about 3.5 times (the raft log's entry, the
    /// WAL's buffers, the key index, the garbage collector's headroom), a factor
    /// that reproduces a real `check datascale --load=s` run's 49.10 MB
    /// (tests/reference-run-b/check-datascale-s.txt).
    fn resident_bytes(&self) -> u64 {
        30 * 1024 * 1024 + self.db_size() + self.backend.kv.live_bytes() * 7 / 2
    }

    fn snapshot_data(&self) -> SnapshotData {
        SnapshotData {
            kvs: self.backend.kv.iter().cloned().collect(),
            revision: self.backend.kv.revision(),
            size: self.db_size(),
            members: self.backend.members.members.values().cloned().collect(),
            removed: self.backend.members.removed.len(),
            has_hash: true,
            consistent_index: self.backend.consistent_index,
            release: self.cfg.version,
        }
    }

    // ----- linearizable reads: etcd's linearizableReadLoop -----

    /// `linearizableReadNotify`: the read waits on the current notifier and
    /// signals the loop (a signal already buffered stays one).
    fn start_read(&mut self, ctx: &mut Ctx, req: u64) {
        self.read_loop.waiting.push(req);
        self.read_loop.signalled = true;
        self.step_read_loop(ctx);
    }

    /// One Ready's ReadStates: etcd's raft goroutine hands the last of them
    /// to `readStateC`, which holds one; while it is full the send waits up to
    /// `internalTimeout`. (etcd's whole raft goroutine waits meanwhile; here
    /// only that ReadState does.)
    #[inline(always)]
    fn on_read_states(&mut self, ctx: &mut Ctx, states: &[raft::ReadState]) {
        if let Some(rs) = states.last() {
            self.on_read_state(ctx, rs);
        }
    }

    /// [`Self::on_read_states`]' last ReadState (out of the Ready loop's way).
    #[cold]
    fn on_read_state(&mut self, ctx: &mut Ctx, rs: &raft::ReadState) {
        // a context that is not 8 bytes reads as ID 0, as in etcd
        let id = <[u8; 8]>::try_from(rs.request_ctx.as_slice()).map_or(0, u64::from_be_bytes);
        let answer = ReadAnswer {
            id,
            index: rs.index,
        };
        let l = &mut self.read_loop;
        if l.slot.is_none() {
            l.slot = Some(answer);
        } else {
            let after = l.blocked.back().map_or(ctx.now_ms, |b| b.1.max(ctx.now_ms));
            let until = after + READ_STATE_SEND_MS;
            l.blocked.push_back((answer, until));
            ctx.out.push(Out::WakeAt(until));
        }
        self.take_read_states(ctx);
    }

    /// `requestCurrentIndex` reading `readStateC`: while it waits, it takes
    /// every ReadState, ignoring (with a warning) those of older request IDs.
    fn take_read_states(&mut self, ctx: &mut Ctx) {
        loop {
            // a read state whose send timed out never reaches the loop
            self.expire_read_state_sends(ctx);
            let l = &mut self.read_loop;
            let Some(round) = l.round.as_mut() else {
                return;
            };
            if !matches!(round.phase, ReadPhase::Asking { .. }) {
                return;
            }
            let Some(answer) = l.slot.take() else {
                return;
            };
            l.slot = l.blocked.pop_front().map(|b| b.0);
            if answer.id == round.id {
                round.phase = ReadPhase::Applying {
                    index: answer.index,
                };
                return;
            }
            let want = round.id;
            ctx.server(
                'W',
                "etcdserver",
                &format!(
                    "ignored out-of-date read index response; local node read indexes queueing up and waiting to be in sync with leader (request ID want {want}, got {})",
                    answer.id
                ),
            );
        }
    }

    /// ReadStates whose wait for `readStateC` ran out are dropped.
    fn expire_read_state_sends(&mut self, ctx: &mut Ctx) {
        while let Some(&(_, until)) = self.read_loop.blocked.front() {
            if until > ctx.now_ms {
                return;
            }
            self.read_loop.blocked.pop_front();
            ctx.server('W', "etcdserver", "timed out sending read state");
        }
    }

    /// Runs the read loop until it waits for something: starts a round when
    /// a read signalled, re-sends or gives up on its timers, and releases the
    /// batch once the applied index reaches the read index.
    #[inline(always)]
    fn step_read_loop(&mut self, ctx: &mut Ctx) {
        // most steps find the loop idle: no call then
        let l = &self.read_loop;
        if l.round.is_none() && !l.signalled && l.blocked.is_empty() {
            return;
        }
        self.run_read_loop(ctx);
    }

    /// [`Self::step_read_loop`] past its check that the loop is idle.
    fn run_read_loop(&mut self, ctx: &mut Ctx) {
        let mut sent = false;
        loop {
            self.expire_read_state_sends(ctx);
            let Some(phase) = self.read_loop.round.as_ref().map(|r| r.phase) else {
                if !self.read_loop.signalled {
                    break;
                }
                self.begin_read_round(ctx);
                sent = true;
                continue;
            };
            match phase {
                ReadPhase::Asking {
                    retry_at_ms,
                    give_up_at_ms,
                } => {
                    if ctx.now_ms >= give_up_at_ms {
                        self.give_up_read_round(ctx);
                        continue;
                    }
                    sent |= self.maybe_resend_read_index(ctx, retry_at_ms);
                    self.take_read_states(ctx);
                    let still_asking = self
                        .read_loop
                        .round
                        .as_ref()
                        .is_some_and(|r| matches!(r.phase, ReadPhase::Asking { .. }));
                    if still_asking {
                        break;
                    }
                }
                ReadPhase::Applying { index } => {
                    if self.backend.applied < index {
                        break;
                    }
                    self.end_read_round(ctx, None);
                }
            }
        }
        if sent {
            self.drive(ctx);
        }
    }

    /// The loop's top, past `readwaitc`: the waiting reads become the round's
    /// batch, and the round's ID goes to raft.
    fn begin_read_round(&mut self, ctx: &mut Ctx) {
        let now = ctx.now_ms;
        let timeout = self.cfg.request_timeout_ms();
        let l = &mut self.read_loop;
        l.signalled = false;
        l.first_commit = false;
        let id = l.next_id;
        l.round = Some(ReadRound {
            id,
            batch: std::mem::take(&mut l.waiting),
            phase: ReadPhase::Asking {
                retry_at_ms: now + READ_INDEX_RETRY_MS,
                give_up_at_ms: now + timeout,
            },
        });
        ctx.out.push(Out::WakeAt(now + READ_INDEX_RETRY_MS));
        ctx.out.push(Out::WakeAt(now + timeout));
        self.node.read_index(id.to_be_bytes().to_vec());
    }

    /// The first commit of a new term or the 500 ms retry timer re-sends the
    /// round's ReadIndex, with the same ID. Whether it sent.
    fn maybe_resend_read_index(&mut self, ctx: &mut Ctx, retry_at_ms: u64) -> bool {
        let now = ctx.now_ms;
        let first_commit = std::mem::take(&mut self.read_loop.first_commit);
        let Some(round) = self.read_loop.round.as_mut() else {
            return false;
        };
        let id = round.id;
        if first_commit {
            let text = "first commit in current term: resending ReadIndex request";
            ctx.server('I', "etcdserver", text);
        } else if now >= retry_at_ms {
            ctx.server(
                'W',
                "etcdserver",
                &format!(
                    "waiting for ReadIndex response took too long, retrying (sent-request-id: {id}, retry-timeout: 500ms)"
                ),
            );
        } else {
            return false;
        }
        if let ReadPhase::Asking { retry_at_ms, .. } = &mut round.phase {
            *retry_at_ms = now + READ_INDEX_RETRY_MS;
        }
        ctx.out.push(Out::WakeAt(now + READ_INDEX_RETRY_MS));
        self.node.read_index(id.to_be_bytes().to_vec());
        true
    }

    /// `ReqTimeout` passed without the round's ReadState: its batch fails.
    fn give_up_read_round(&mut self, ctx: &mut Ctx) {
        let timeout = self.cfg.request_timeout_ms();
        ctx.server(
            'W',
            "etcdserver",
            &format!(
                "timed out waiting for read index response (local node might have slow network) timeout: {}",
                logfmt::go_duration(timeout * 1_000_000)
            ),
        );
        self.end_read_round(ctx, Some(ServerError::Timeout));
    }

    /// A round ends: its batch is served (`None`) or fails, and the loop's
    /// top draws the next round's ID.
    fn end_read_round(&mut self, ctx: &mut Ctx, error: Option<ServerError>) {
        let Some(round) = self.read_loop.round.take() else {
            return;
        };
        self.read_loop.first_commit = false;
        self.read_loop.next_id = self.req_ids.next();
        for req in round.batch {
            let result = match (error, self.waiters.get(&req).map(|w| &w.request)) {
                (_, None) => continue, // its client gave up
                (Some(e), _) => Err(e),
                (None, Some(Request::Range { key, prefix, .. })) => {
                    Ok(Reply::Range(self.backend.kv.range(key, *prefix)))
                }
                (None, Some(Request::DowngradeEnabled)) => Ok(Reply::DowngradeEnabled {
                    body: "false".into(),
                }),
                (None, Some(_)) => Ok(self.members_reply(None)),
            };
            self.finish(ctx, req, result);
        }
    }

    /// `leaderChangedNotify` (3.4.23): a new leader fails the round still
    /// waiting for its ReadIndex with `etcdserver: leader changed`; an idle
    /// loop goes round its top (drawing a new ID). A round waiting for the
    /// applied index does not watch.
    fn read_loop_leader_changed(&mut self, ctx: &mut Ctx) {
        match self.read_loop.round.as_ref().map(|r| r.phase) {
            Some(ReadPhase::Asking { .. }) => {
                self.end_read_round(ctx, Some(ServerError::LeaderChanged));
                self.step_read_loop(ctx);
            }
            Some(ReadPhase::Applying { .. }) => {}
            None => self.read_loop.next_id = self.req_ids.next(),
        }
    }

    /// `notifyAboutFirstCommitInTerm`: an empty entry applied. A round waiting
    /// for its ReadIndex re-sends it (the leader drops ReadIndex requests
    /// until it has committed an entry of its term).
    fn read_loop_first_commit(&mut self) {
        let asking = self
            .read_loop
            .round
            .as_ref()
            .is_some_and(|r| matches!(r.phase, ReadPhase::Asking { .. }));
        if asking {
            self.read_loop.first_commit = true;
        }
    }

    /// The read loop's timers, on ticks (its deadlines also wake the server).
    pub fn retry_reads(&mut self, ctx: &mut Ctx) {
        self.step_read_loop(ctx);
    }

    fn connected_since(&self, id: u64, since: u64) -> bool {
        self.transport.active_since(id).is_some_and(|t| t <= since)
    }

    fn member_add(
        &mut self,
        ctx: &mut Ctx,
        req: u64,
        peer_urls: Vec<String>,
        learner: bool,
    ) -> Result<(), ServerError> {
        let now_unix = ctx.wall_ms.div_euclid(1000);
        let id = ids::member_id(&peer_urls, "", Some(now_unix));
        let member = Member {
            id,
            name: String::new(),
            peer_urls,
            client_urls: Vec::new(),
            is_learner: learner,
        };
        if self.cfg.strict_reconfig_check {
            if !learner {
                if let Err(short) = self.backend.members.ready_to_add_voter() {
                    ctx.server('W', "etcdserver/membership", &short.warning("add member"));
                    ctx.server(
                        'W',
                        "etcdserver",
                        &format!(
                            "not enough started members, rejecting member add {}",
                            member.go_text()
                        ),
                    );
                    return Err(ServerError::NotEnoughStartedMembers);
                }
            }
            let since = ctx.now_ms.saturating_sub(HEALTH_INTERVAL_MS);
            let healthy = self.backend.members.voters().iter().all(|&v| {
                v == self.id || (ctx.now_ms >= HEALTH_INTERVAL_MS && self.connected_since(v, since))
            });
            if !healthy {
                ctx.server(
                    'W',
                    "etcdserver",
                    &format!(
                        "not healthy for reconfigure, rejecting member add {}",
                        member.go_text()
                    ),
                );
                return Err(ServerError::Unhealthy);
            }
        }
        self.propose_change(ctx, req, ChangeKind::Add, member);
        Ok(())
    }

    fn member_remove(&mut self, ctx: &mut Ctx, req: u64, id: u64) -> Result<(), ServerError> {
        let target = self.backend.members.get(id).cloned();
        if self.cfg.strict_reconfig_check && !target.as_ref().is_some_and(|m| m.is_learner) {
            self.may_remove_voter(ctx, id)?;
        }
        let member = target.unwrap_or(Member::bare(id));
        self.propose_change(ctx, req, ChangeKind::Remove, member);
        Ok(())
    }

    /// `mayRemoveMember` for a voting (or unknown) target.
    fn may_remove_voter(&mut self, ctx: &mut Ctx, id: u64) -> Result<(), ServerError> {
        if let Err(short) = self.backend.members.ready_to_remove_voter(id) {
            ctx.server(
                'W',
                "etcdserver/membership",
                &short.warning("remove member"),
            );
            ctx.server(
                'W',
                "etcdserver",
                &format!("not enough started members, rejecting remove member {id:x}"),
            );
            return Err(ServerError::NotEnoughStartedMembers);
        }
        let target_active = self.transport.active_since(id);
        if id != self.id && target_active.is_none() {
            return Ok(());
        }
        let since = ctx.now_ms.saturating_sub(HEALTH_INTERVAL_MS);
        let voters = self.backend.members.voters();
        let active = voters
            .iter()
            .filter(|&&v| v == self.id || self.connected_since(v, since))
            .count();
        if active.saturating_sub(1) < 1 + (voters.len().saturating_sub(1)) / 2 {
            ctx.server(
                'W',
                "etcdserver",
                &format!("reconfigure breaks active quorum, rejecting remove member {id:x}"),
            );
            return Err(ServerError::Unhealthy);
        }
        Ok(())
    }

    fn member_promote(&mut self, ctx: &mut Ctx, req: u64, id: u64) -> Result<(), ServerError> {
        if !self.is_leader() {
            let lead = self.node.raft.leader_id;
            if lead != 0 {
                let request = self.waiters.remove(&req).map(|w| w.request);
                if let Some(request) = request {
                    ctx.out.push(Out::Forward {
                        to: lead,
                        req,
                        request: Box::new(request),
                    });
                }
            }
            return Ok(());
        }
        self.learner_ready(id)?;
        if self.cfg.strict_reconfig_check {
            if let Err(short) = self.backend.members.ready_to_promote() {
                ctx.server(
                    'W',
                    "etcdserver/membership",
                    &short.warning("promote member"),
                );
                ctx.server(
                    'W',
                    "etcdserver",
                    &format!("not enough started members, rejecting promote member {id:x}"),
                );
                return Err(ServerError::NotEnoughStartedMembers);
            }
        }
        let member = Member::bare(id);
        self.propose_change(ctx, req, ChangeKind::Promote, member);
        Ok(())
    }

    /// `isLearnerReady`: the learner's match must reach 90 % of the leader's.
    fn learner_ready(&self, id: u64) -> Result<(), ServerError> {
        let prs = self.node.raft.prs();
        let Some(learner) = prs.get(id) else {
            return Ok(());
        };
        let leader = prs.get(self.id).map(|p| p.matched).unwrap_or(0);
        if (learner.matched as f64) < (leader as f64) * READY_PERCENT {
            return Err(ServerError::LearnerNotReady);
        }
        Ok(())
    }

    // ----- read-only observations (for `sim::view`) -----

    /// The leader's progress tracker, ascending by ID: (ID, match,
    /// `recent_active`), the leader's own entry included; empty on a non-leader.
    pub fn progress_all(&self) -> Vec<(u64, u64, bool)> {
        if !self.is_leader() {
            return Vec::new();
        }
        let mut v: Vec<(u64, u64, bool)> = self
            .node
            .raft
            .prs()
            .iter()
            .map(|(&id, p)| (id, p.matched, p.recent_active))
            .collect();
        v.sort_unstable();
        v
    }

    /// raft's election timer, in ticks: how many passed since it was last
    /// reset (a heartbeat or append from the leader, a vote granted, a new
    /// term), and after how many this member campaigns (raft-rs draws it
    /// anew, from the seeded RNG, each time it resets). A leader's counts to
    /// its next quorum check instead.
    pub fn election_timer(&self) -> (usize, usize) {
        let r = &self.node.raft;
        (r.election_elapsed, r.randomized_election_timeout())
    }

    /// While campaigning (pre-vote or vote): (granted, rejected, voters) of
    /// the votes counted so far, its own included.
    pub fn votes(&self) -> Option<(usize, usize, usize)> {
        let r = &self.node.raft;
        if !matches!(r.state, StateRole::Candidate | StateRole::PreCandidate) {
            return None;
        }
        let (granted, rejected, _) = r.prs().tally_votes();
        Some((granted, rejected, self.backend.members.voters().len()))
    }

    /// The raft log's last index.
    pub fn last_index(&self) -> u64 {
        self.node.raft.raft_log.last_index()
    }

    /// A learner's catch-up in bytes, as this leader sees it (`None` off the
    /// leader, or for an ID that is not a learner here): see
    /// [`super::catchup::measure`].
    pub fn catch_up_bytes(&self, id: u64, matched: u64) -> Option<super::catchup::CatchUpBytes> {
        let learner = self.backend.members.get(id).is_some_and(|m| m.is_learner);
        if !self.is_leader() || !learner {
            return None;
        }
        let sending = self
            .inflight
            .iter()
            .find(|f| f.transfer.to == id && f.release_at.is_none())
            .map(|f| (f.transfer.index, f.transfer.total_bytes(), f.started_ms));
        Some(super::catchup::measure(
            &self.node.store().mem,
            matched,
            sending,
        ))
    }

    // ----- end of read-only observations -----

    fn move_leader(&mut self, req: u64, id: u64) -> Result<(), ServerError> {
        if !self.is_leader() {
            return Err(ServerError::NotLeader);
        }
        match self.backend.members.get(id) {
            Some(m) if !m.is_learner => {}
            _ => return Err(ServerError::BadLeaderTransferee),
        }
        if let Some(w) = self.waiters.get_mut(&req) {
            w.proposed = true;
        }
        self.transferring = true;
        self.node.transfer_leader(id);
        Ok(())
    }

    // ----- stopping -----

    /// SIGTERM: a leader of several voters hands leadership to the longest-connected
    /// voter first (`TransferLeadership`); then the server stops.
    pub fn begin_graceful_stop(&mut self, ctx: &mut Ctx) {
        ctx.server(
            'N',
            "pkg/osutil",
            "received terminated signal, shutting down...",
        );
        let voters = self.backend.members.voters();
        if !self.is_leader() || voters.len() <= 1 {
            if self.is_leader() {
                ctx.server(
                    'I',
                    "etcdserver",
                    "skipped leadership transfer for single voting member cluster",
                );
            }
            self.stop_at = Some((ctx.now_ms, Exit::Stopped));
            return;
        }
        let transferee = voters
            .iter()
            .filter(|&&v| v != self.id)
            .filter_map(|&v| self.transport.active_since(v).map(|t| (t, v)))
            .min();
        let Some((_, to)) = transferee else {
            self.stop_at = Some((ctx.now_ms, Exit::Stopped));
            return;
        };
        self.transferring = true;
        self.transfer_started_ms = ctx.now_ms;
        ctx.server(
            'I',
            "etcdserver",
            &format!(
                "{:x} starts leadership transfer from {:x} to {to:x}",
                self.id, self.id
            ),
        );
        self.stop_at = Some((ctx.now_ms + self.cfg.request_timeout_ms(), Exit::Stopped));
        self.node.transfer_leader(to);
        self.drive(ctx);
    }
}

/// A listener's address as Go prints it: `0.0.0.0:2380` listens on `[::]:2380`.
fn listen_address(url: &str) -> String {
    let host = url.trim_start_matches("http://");
    match host.strip_prefix("0.0.0.0") {
        Some(port) => format!("[::]{port}"),
        None => host.to_string(),
    }
}

/// The banner etcd 3.4 prints before it opens the data dir: etcdmain's version
/// lines, then embed's configuration. `initialized` is whether the data dir
/// already holds a member (a restart).
/// What etcd 3.4 prints first with its default logger (`--logger=capnslog`).
pub const DEPRECATED_CAPNSLOG: &str =
    "[WARNING] Deprecated '--logger=capnslog' flag is set; use '--logger=zap' flag instead";

pub fn log_start(ctx: &mut Ctx, cfg: &EtcdConfig, initialized: bool) {
    if cfg.zap() {
        let ts = ctx.stamp().zap();
        ctx.log.extend(super::zapfmt::banner(cfg, initialized, &ts));
        return;
    }
    const DEPRECATED: &str = DEPRECATED_CAPNSLOG;
    ctx.log.push(DEPRECATED.into());
    ctx.server('I', "etcdmain", &format!("etcd Version: {VERSION}"));
    ctx.server(
        'I',
        "etcdmain",
        "Git SHA: Not provided (use ./build instead of go build)",
    );
    ctx.server('I', "etcdmain", "Go Version: go1.19.8");
    ctx.server('I', "etcdmain", "Go OS/Arch: linux/amd64");
    ctx.server(
        'I',
        "etcdmain",
        "setting maximum number of CPUs to 2, total number of available CPUs is 2",
    );
    if initialized {
        ctx.server(
            'N',
            "etcdmain",
            "the server is already initialized as member before, starting as etcd member...",
        );
    }
    ctx.log.push(DEPRECATED.into());
    ctx.server('I', "embed", &format!("name = {}", cfg.name));
    if cfg.force_new_cluster {
        ctx.server('I', "embed", "force new cluster");
    }
    let dir = cfg.data_dir();
    ctx.server('I', "embed", &format!("data dir = {dir}"));
    ctx.server('I', "embed", &format!("member dir = {dir}/member"));
    ctx.server('I', "embed", &format!("heartbeat = {}ms", cfg.heartbeat_ms));
    ctx.server('I', "embed", &format!("election = {}ms", cfg.election_ms));
    ctx.server(
        'I',
        "embed",
        &format!("snapshot count = {}", cfg.snapshot_count),
    );
    if !cfg.advertise_client_urls.is_empty() {
        ctx.server(
            'I',
            "embed",
            &format!(
                "advertise client URLs = {}",
                cfg.advertise_client_urls.join(",")
            ),
        );
    }
    if initialized {
        ctx.server(
            'I',
            "embed",
            &format!(
                "initial advertise peer URLs = {}",
                cfg.initial_advertise_peer_urls.join(",")
            ),
        );
        ctx.server('I', "embed", "initial cluster = ");
    }
}

/// What `NewServer` and `Start` print once raft is up, before the first entry
/// is applied: the auth store, then (after the peers) the server and its purgers.
fn log_server_start(ctx: &mut Ctx, member_dir: &str) {
    ctx.server(
        'I',
        "etcdserver",
        &format!("starting server... [version: {VERSION}, cluster version: to_be_decided]"),
    );
    for (dir, suffix) in [("snap", "snap.db"), ("snap", "snap"), ("wal", "wal")] {
        ctx.server(
            'I',
            "pkg/fileutil",
            &format!(
                "started to purge file, dir: {member_dir}/{dir}, suffix: {suffix}, max: 5, interval: 30s"
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::etcd::kv::Generated;

    fn entry_of(op: Op) -> Vec<u8> {
        serde_json::to_vec(&Proposal { req: 12_345, op }).expect("a proposal serialises")
    }

    #[test]
    fn a_generated_put_weighs_what_etcd_ships() {
        let g = Generated {
            prefix: "/etcdctl-check-datascale/".into(),
            head: [1; 10],
            key_len: 8,
            value_len: 1024,
        };
        let data = entry_of(Op::PutGenerated(g));
        assert!(data.len() < 200, "kept short: {} bytes", data.len());
        assert_eq!(generated_entry_bytes(&data), Some(25 + 8 + 1024 + 16));
        let put = entry_of(Op::Put {
            key: "PutGenerated".into(),
            value: "\"op\":{\"PutGenerated\"".into(),
        });
        assert_eq!(
            generated_entry_bytes(&put),
            None,
            "a plain put weighs its data"
        );
        assert_eq!(generated_entry_bytes(b"not json"), None);
    }
}
