//! `--logger=zap`: the same events as the capnslog lines, as etcd 3.4's zap
//! logger writes them: one JSON object per line with `level`, `ts`, `caller`,
//! `msg` and the event's fields, in etcd's key order.
//!
//! The server always logs capnslog text; a server started with `--logger=zap`
//! has each line turned into its zap form here ([`to_zap`]). raft's lines keep
//! their text as `msg` (etcd hands raft a sugared zap logger) with raft's caller;
//! the server's lines are matched against the rules below, each with etcd's message and
//! fields, recorded from real etcd 3.4.23 (`tests/reference-run-b/zap/`). A line
//! without a rule keeps its text as `msg`.
//!
//! A 3.5.1 server's lines are 3.4.23's turned into 3.5.1's by its `v35` module.

mod v35;

use super::config::{ClusterState, EtcdConfig};
use super::version::EtcdVersion;

/// Who is logging: the fields etcd adds to most server lines, and what some
/// zap lines carry that their capnslog form leaves out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ZapCtx {
    pub local: u64,
    pub cluster: u64,
    pub heartbeat_ms: u64,
    pub election_ms: u64,
    /// `--snapshot-count`.
    pub snapshot_count: u64,
    /// The transport's peers and their URLs.
    pub peers: Vec<(u64, Vec<String>)>,
    /// The server's release: 3.5 writes 3.5.1's lines.
    pub version: EtcdVersion,
    /// The key-value store's revision (3.5's `kvstore restored`).
    pub revision: i64,
}

/// A JSON value of a field.
#[derive(Debug, Clone)]
pub(super) enum Val {
    Str(String),
    Num(String),
    List(Vec<String>),
}

impl Val {
    fn json(&self) -> String {
        match self {
            Val::Str(s) => json_str(s),
            Val::Num(n) => n.clone(),
            Val::List(v) => format!(
                "[{}]",
                v.iter().map(|s| json_str(s)).collect::<Vec<_>>().join(",")
            ),
        }
    }
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// What a template's `{}` holes matched, in order.
type Caps = Vec<String>;

/// One rule: capnslog's `pkg: text` as a template (`{}` matches up to the
/// text that follows it), then zap's caller, message and fields (built from
/// the holes and the logger's context). An empty `msg`: zap does not print it.
struct Rule {
    said: &'static str,
    caller: &'static str,
    msg: &'static str,
    /// See [`fields`].
    fields: &'static str,
}

const fn rule(
    said: &'static str,
    caller: &'static str,
    msg: &'static str,
    fields: &'static str,
) -> Rule {
    Rule {
        said,
        caller,
        msg,
        fields,
    }
}

/// Matches `text` against a template; the holes' texts, or `None`.
fn captures(template: &str, text: &str) -> Option<Caps> {
    let parts: Vec<&str> = template.split("{}").collect();
    let mut rest = text.strip_prefix(parts[0])?;
    let mut caps = Vec::new();
    for (i, lit) in parts.iter().enumerate().skip(1) {
        let last = i == parts.len() - 1;
        let end = if last {
            rest.strip_suffix(lit)?.len()
        } else {
            rest.find(lit)?
        };
        caps.push(rest[..end].to_string());
        rest = &rest[end + lit.len()..];
    }
    rest.is_empty().then_some(caps)
}

fn hex(v: u64) -> Val {
    Val::Str(format!("{v:x}"))
}

fn text(v: &str) -> Val {
    Val::Str(v.to_string())
}

/// A rule's fields, in zap's order: space-separated `key=value`s, each value
/// one of
/// - `$n`: hole n's text; `#n`: hole n as a number; `urls$n`: the URLs in
///   hole n; `peer-urls$n`: the URLs of the peer hole n names; `ticks$n`: how
///   long hole n's ticks last; `version$n`: peer URL n's `/version`;
///   `unquoted$n`: hole n without capnslog's escaping of quotes;
/// - `local`, `cluster`, `election-timeout`, `peer-count`, `snapshot-count`:
///   from the logger's context; `attributes` and `attributes-path`: what
///   etcd publishes (holes 1 and 2);
/// - `'text'`: that text.
///
/// `None` for a spec out of this grammar (a test checks every rule's).
fn fields(spec: &'static str, c: &Caps, z: &ZapCtx) -> Option<Vec<(&'static str, Val)>> {
    let mut out = Vec::new();
    let mut rest = spec;
    while !rest.is_empty() {
        let (key, after) = rest.split_once('=')?;
        let (value, tail) = match after.strip_prefix('\'') {
            Some(quoted) => {
                let (t, tail) = quoted.split_once('\'')?;
                (text(t), tail)
            }
            None => {
                let (v, tail) = after.split_once(' ').unwrap_or((after, ""));
                (field(v, c, z)?, tail)
            }
        };
        out.push((key, value));
        rest = tail.trim_start();
    }
    Some(out)
}

/// One unquoted value of [`fields`].
fn field(value: &str, c: &Caps, z: &ZapCtx) -> Option<Val> {
    let hole = |i: usize| c.get(i.checked_sub(1)?).map(String::as_str);
    let ms = |v: u64| text(&super::logfmt::go_duration(v * 1_000_000));
    Some(match value {
        "local" => hex(z.local),
        "cluster" => hex(z.cluster),
        "election-timeout" => ms(z.election_ms),
        "peer-count" => Val::Num(z.peers.len().to_string()),
        "snapshot-count" => Val::Num(z.snapshot_count.to_string()),
        "attributes" => Val::Str(format!("{{Name:{} ClientURLs:[{}]}}", hole(1)?, hole(2)?)),
        "attributes-path" => Val::Str(format!("/0/members/{:x}/attributes", z.local)),
        _ => {
            let (kind, n) = value
                .split_once('$')
                .or_else(|| Some(("#", value.strip_prefix('#')?)))?;
            let h = hole(n.parse().ok()?)?;
            match kind {
                "" => text(h),
                "#" => Val::Num(h.to_string()),
                "urls" => Val::List(
                    h.split([' ', ','])
                        .filter(|u| !u.is_empty())
                        .map(str::to_string)
                        .collect(),
                ),
                "peer-urls" => peer_urls(z, h),
                "ticks" => ms(h.parse::<u64>().unwrap_or(0) * z.heartbeat_ms),
                "version" => Val::Str(format!("{h}/version")),
                "unquoted" => Val::Str(h.replace("\\\"", "\"")),
                _ => return None,
            }
        }
    })
}

fn peer_urls(z: &ZapCtx, id: &str) -> Val {
    let urls = z
        .peers
        .iter()
        .find(|(p, _)| format!("{p:x}") == id)
        .map(|(_, u)| u.clone())
        .unwrap_or_default();
    Val::List(urls)
}

/// The server's lines that have a zap form (the first match wins): capnslog's
/// text and zap's caller, then zap's message and fields.
#[rustfmt::skip]
const RULES: &[Rule] = &[
    rule("etcdserver: starting member {} in cluster {}", "etcdserver/raft.go:536",
        "starting local member", "local-member-id=$1 cluster-id=$2"),
    rule("auth: simple token is not cryptographically signed", "auth/store.go:1380",
        "simple token is not cryptographically signed", ""),
    rule("etcdserver: starting server... [version: {}, cluster version: {}]", "etcdserver/server.go:816",
        "starting etcd server", "local-member-id=local local-server-version=$1 cluster-version=$2"),
    rule("pkg/fileutil: started to purge file, dir: {}, suffix: {}, max: {}, interval: {}", "fileutil/purge.go:42",
        "started to purge file", "dir=$1 suffix=$2 max=#3 interval=$4"),
    rule("etcdserver: {} as single-node; fast-forwarding {} ticks (election ticks {})", "etcdserver/server.go:682",
        "started as single-node; fast-forwarding election ticks", "local-member-id=$1 forward-ticks=#2 forward-duration=ticks$2 election-ticks=#3 election-timeout=election-timeout"),
    // before the plain `added member`, whose last hole would take " from store"
    rule("etcdserver/membership: added member {} [{}] to cluster {} from store", "membership/cluster.go:256",
        "recovered/added member from store", "cluster-id=$3 local-member-id=local recovered-remote-peer-id=$1 recovered-remote-peer-urls=urls$2"),
    rule("etcdserver/membership: added member {} [{}] to cluster {}", "membership/cluster.go:392",
        "added member", "cluster-id=$3 local-member-id=local added-peer-id=$1 added-peer-peer-urls=urls$2"),
    rule("etcdserver: published {Name:{} ClientURLs:[{}]} to cluster {}", "etcdserver/server.go:2069",
        "published local member to cluster through raft", "local-member-id=local local-member-attributes=attributes request-path=attributes-path cluster-id=$3 publish-timeout='7s'"),
    rule("etcdserver: setting up the initial cluster version to {}", "etcdserver/server.go:2567",
        "setting up initial cluster version", "cluster-version=$1"),
    rule("etcdserver/membership: set the initial cluster version to {}", "membership/cluster.go:558",
        "set initial cluster version", "cluster-id=cluster local-member-id=local cluster-version=$1"),
    rule("etcdserver: updating the cluster version from {} to {}", "etcdserver/server.go:2576",
        "updating cluster version", "from=$1 to=$2"),
    rule("etcdserver/membership: updated the cluster version from {} to {}", "membership/cluster.go:546",
        "updated cluster version", "cluster-id=cluster local-member-id=local from=$1 to=$2"),
    rule("etcdserver/api: enabled capabilities for version {}", "api/capability.go:76",
        "enabled capabilities for version", "cluster-version=$1"),
    rule("embed: serving insecure client requests on {}, this is strongly discouraged!", "embed/serve.go:145",
        "serving client traffic insecurely; this is strongly discouraged!", "address=$1"),
    rule("embed: listening for peers on {}", "embed/etcd.go:587",
        "serving peer traffic", "address=$1"),
    rule("pkg/osutil: received terminated signal, shutting down...", "osutil/interrupt_unix.go:64",
        "received signal; shutting down", "signal='terminated'"),
    rule("etcdserver: skipped leadership transfer for single voting member cluster", "etcdserver/server.go:1507",
        "skipped leadership transfer for single voting member cluster", "local-member-id=local current-leader-member-id=local"),
    rule("etcdserver: {} initialized peer connection; fast-forwarding {} ticks (election ticks {}) with {} active peer(s)", "etcdserver/server.go:729",
        "initialized peer connections; fast-forwarding election ticks", "local-member-id=$1 forward-ticks=#2 forward-duration=ticks$2 election-ticks=#3 election-timeout=election-timeout active-remote-members=#4"),
    rule("etcdserver: not healthy for reconfigure, rejecting member add {}", "etcdserver/server.go:1660",
        "rejecting member add request; local member has not been connected to all peers, reconfigure breaks active quorum", "local-member-id=local requested-member-add=$1 error='etcdserver: unhealthy cluster'"),
    rule("rafthttp: starting peer {}...", "rafthttp/peer.go:128",
        "starting remote peer", "remote-peer-id=$1"),
    rule("rafthttp: started HTTP pipelining with peer {}", "rafthttp/pipeline.go:71",
        "started HTTP pipelining with remote peer", "local-member-id=local remote-peer-id=$1"),
    rule("rafthttp: started streaming with peer {} (writer)", "rafthttp/stream.go:166",
        "started stream writer with remote peer", "local-member-id=local remote-peer-id=$1"),
    rule("rafthttp: started peer {}", "rafthttp/peer.go:134",
        "started remote peer", "remote-peer-id=$1"),
    rule("rafthttp: added peer {}", "rafthttp/transport.go:327",
        "added remote peer", "local-member-id=local remote-peer-id=$1 remote-peer-urls=peer-urls$1"),
    rule("rafthttp: started streaming with peer {} ({} reader)", "rafthttp/stream.go:406",
        "started stream reader with remote peer", "stream-reader-type=$2 local-member-id=local remote-peer-id=$1"),
    rule("rafthttp: peer {} became active", "rafthttp/peer_status.go:51",
        "peer became active", "peer-id=$1"),
    rule("rafthttp: established a TCP streaming connection with peer {} ({} writer)", "rafthttp/stream.go:277",
        "established TCP streaming connection with remote peer", "stream-writer-type=$2 local-member-id=local remote-peer-id=$1"),
    rule("rafthttp: established a TCP streaming connection with peer {} ({} reader)", "rafthttp/stream.go:425",
        "established TCP streaming connection with remote peer", "stream-reader-type=$2 local-member-id=local remote-peer-id=$1"),
    rule("rafthttp: closed an existing TCP streaming connection with peer {} ({} writer)", "rafthttp/stream.go:266",
        "closed TCP streaming connection with remote peer", "stream-writer-type=$2 local-member-id=local remote-peer-id=$1"),
    rule("rafthttp: lost the TCP streaming connection with peer {} ({} reader)", "rafthttp/stream.go:436",
        "lost TCP streaming connection with remote peer", "stream-reader-type=$2 local-member-id=local remote-peer-id=$1 error='EOF'"),
    rule("rafthttp: lost the TCP streaming connection with peer {} ({} writer)", "rafthttp/stream.go:224",
        "lost TCP streaming connection with remote peer", "stream-writer-type=$2 local-member-id=local remote-peer-id=$1"),
    rule("rafthttp: stopping peer {}...", "rafthttp/peer.go:333",
        "stopping remote peer", "remote-peer-id=$1"),
    rule("rafthttp: closed the TCP streaming connection with peer {} ({} writer)", "rafthttp/stream.go:291",
        "closed TCP streaming connection with remote peer", "stream-writer-type=$2 remote-peer-id=$1"),
    rule("rafthttp: stopped HTTP pipelining with peer {}", "rafthttp/pipeline.go:86",
        "stopped HTTP pipelining with remote peer", "local-member-id=local remote-peer-id=$1"),
    rule("rafthttp: stopped streaming with peer {} ({} reader)", "rafthttp/stream.go:459",
        "stopped stream reader with remote peer", "stream-reader-type=$2 local-member-id=local remote-peer-id=$1"),
    rule("rafthttp: stopped peer {}", "rafthttp/peer.go:340",
        "stopped remote peer", "remote-peer-id=$1"),
    rule("rafthttp: removed peer {}", "rafthttp/transport.go:369",
        "removed remote peer", "local-member-id=local removed-remote-peer-id=$1"),
    rule("rafthttp: failed to find member {} in cluster {}", "rafthttp/http.go:448",
        "failed to find remote peer in cluster", "local-member-id=local remote-peer-id-stream-handler=local remote-peer-id-from=$1 cluster-id=$2"),
    rule("rafthttp: request sent was ignored (cluster ID mismatch: peer[{}]={}, local={})", "rafthttp/stream.go:682",
        "request sent was ignored by remote peer due to cluster ID mismatch", "remote-peer-id=$1 remote-peer-cluster-id=$2 local-member-id=local local-member-cluster-id=$3 error='cluster ID mismatch'"),
    rule("etcdserver: failed to reach the peerURL({}) of member {} ({})", "etcdserver/cluster_util.go:315",
        "failed to reach the peer URL", "address=version$1 remote-member-id=$2 error=$3"),
    rule("etcdserver: cannot get the version of member {} ({})", "etcdserver/cluster_util.go:168",
        "failed to get version", "remote-member-id=$1 error=$2"),
    rule("etcdserver: the member has been permanently removed from the cluster", "etcdserver/server.go:1078",
        "server error", "error='the member has been permanently removed from the cluster'"),
    rule("etcdserver: the data-dir used by this member must be removed.", "etcdserver/server.go:1079",
        "data-dir used by this member must be removed", ""),
    rule("etcdserver: restarting member {} in cluster {} at commit index {}", "etcdserver/raft.go:586",
        "restarting local member", "cluster-id=$2 local-member-id=$1 commit-index=#3"),
    rule("etcdserver: forcing restart of member {} in cluster {} at commit index {}", "etcdserver/raft.go:682",
        "forcing restart member", "cluster-id=$2 local-member-id=$1 commit-index=#3"),
    rule("etcdserver: recovered store from snapshot at index {}", "etcdserver/server.go:462",
        "recovered v2 store from snapshot", "snapshot-index=#1 snapshot-size='20 kB'"),
    rule("etcdserver/membership: removed member {} from cluster {}", "membership/cluster.go:422",
        "removed member", "cluster-id=$2 local-member-id=local removed-remote-peer-id=$1 removed-remote-peer-urls=peer-urls$1"),
    rule("etcdserver/membership: updated member {} [{}] in cluster {}", "membership/cluster.go:520",
        "updated member", "cluster-id=$3 local-member-id=local updated-remote-peer-id=$1 updated-remote-peer-urls=urls$2"),
    rule("etcdserver/membership: promote member {} in cluster {}", "membership/cluster.go:497",
        "promote member", "cluster-id=$2 local-member-id=local"),
    rule("etcdserver/membership: Reject add member request: the number of started member ({}) will be less than the quorum number of the cluster ({})", "membership/cluster.go:609",
        "rejecting member add; started member will be less than quorum", "number-of-started-member=#1 quorum=#2 cluster-id=cluster local-member-id=local"),
    rule("etcdserver/membership: Reject remove member request: the number of started member ({}) will be less than the quorum number of the cluster ({})", "membership/cluster.go:643",
        "rejecting member remove; started member will be less than quorum", "number-of-started-member=#1 quorum=#2 cluster-id=cluster local-member-id=local"),
    rule("etcdserver: not enough started members, rejecting member add {}", "etcdserver/server.go:1646",
        "rejecting member add request; not enough healthy members", "local-member-id=local requested-member-add=$1 error='etcdserver: re-configuration failed due to not enough started members'"),
    rule("etcdserver: not enough started members, rejecting remove member {}", "etcdserver/server.go:1844",
        "rejecting member remove request; not enough healthy members", "local-member-id=local requested-member-remove-id=$1 error='etcdserver: re-configuration failed due to not enough started members'"),
    rule("etcdserver: reconfigure breaks active quorum, rejecting remove member {}", "etcdserver/server.go:1866",
        "rejecting member remove request; local member has not been connected to all peers, reconfigure breaks active quorum", "local-member-id=local requested-member-remove=$1 active-peers=peer-count error='etcdserver: unhealthy cluster'"),
    rule("etcdserver/api/etcdhttp: error promoting member {} ({})", "etcdhttp/peer.go:148",
        "failed to promote a member", "member-id=$1 error=$2"),
    rule("etcdserver: start to snapshot (applied: {}, lastsnap: {})", "etcdserver/server.go:1423",
        "triggering snapshot", "local-member-id=local local-member-applied-index=#1 local-member-snapshot-index=#2 local-member-snapshot-count=snapshot-count"),
    rule("etcdserver: saved snapshot at index {}", "etcdserver/server.go:2430",
        "saved snapshot", "snapshot-index=#1"),
    rule("etcdserver: compacted raft log at {}", "etcdserver/server.go:2479",
        "compacted Raft logs", "compact-index=#1"),
    rule("etcdserver: skip compaction since there is an inflight snapshot", "etcdserver/server.go:2452",
        "skip compaction since there is an inflight snapshot", ""),
    rule("etcdserver: raft applied incoming snapshot at index {}", "etcdserver/raft.go:294",
        "applied incoming Raft snapshot", "snapshot-index=#1"),
    rule("etcdserver/membership: set the cluster version to {} from store", "membership/cluster.go:269",
        "set cluster version from store", "cluster-version=$1"),
    rule("etcdserver: {} starts leadership transfer from {} to {}", "etcdserver/server.go:1456",
        "leadership transfer starting", "local-member-id=$1 current-leader-member-id=$2 transferee-member-id=$3"),
    rule("etcdserver: {} finished leadership transfer from {} to {} (took {})", "etcdserver/server.go:1477",
        "leadership transfer finished", "local-member-id=$1 old-leader-member-id=$2 new-leader-member-id=$3 took=$4"),
    rule("etcdserver: read-only range request \"{}\" with result \"error:{}\" took too long ({}) to execute", "etcdserver/util.go:167",
        "apply request took too long", "took=$3 expected-duration='100ms' prefix='read-only range ' request=unquoted$1 response='' error=$2"),
    rule("etcdserver: read-only range request \"{}\" with result \"{}\" took too long ({}) to execute", "etcdserver/util.go:167",
        "apply request took too long", "took=$3 expected-duration='100ms' prefix='read-only range ' request=unquoted$1 response=$2"),
    rule("etcdserver: timed out waiting for read index response (local node might have slow network) timeout: {}", "etcdserver/v3_server.go:830",
        "timed out waiting for read index response (local node might have slow network)", "timeout=$1"),
    rule("etcdserver: waiting for ReadIndex response took too long, retrying (sent-request-id: {}, retry-timeout: {})", "etcdserver/v3_server.go:814",
        "waiting for ReadIndex response took too long, retrying", "sent-request-id=#1 retry-timeout=$2"),
    rule("etcdserver: ignored out-of-date read index response; local node read indexes queueing up and waiting to be in sync with leader (request ID want {}, got {})", "etcdserver/v3_server.go:783",
        "ignored out-of-date read index response; local node read indexes queueing up and waiting to be in sync with leader", "sent-request-id=#1 received-request-id=#2"),
    rule("etcdserver: first commit in current term: resending ReadIndex request", "etcdserver/v3_server.go:802",
        "first commit in current term: resending ReadIndex request", ""),
    rule("etcdserver: timed out sending read state", "etcdserver/raft.go:202",
        "timed out sending read state", "timeout='1s'"),
    rule("rafthttp: updated peer {}", "rafthttp/transport.go:402",
        "updated remote peer", "local-member-id=local updated-remote-peer-id=$1 updated-remote-peer-urls=peer-urls$1"),
    rule("rafthttp: rejected the stream from peer {} since it was removed", "rafthttp/http.go:425",
        "rejected stream from remote peer because it was removed", "local-member-id=local remote-peer-id-stream-handler=local remote-peer-id-from=$1"),
    rule("embed: ready to serve client requests", "",
        "", ""),
];

/// zap's level where it differs from capnslog's, by the rule's caller.
const LEVELS: &[(&str, &str)] = &[
    ("rafthttp/stream.go:277", "warn"),
    ("rafthttp/stream.go:266", "warn"),
    ("rafthttp/stream.go:291", "warn"),
    ("rafthttp/http.go:448", "warn"),
    ("rafthttp/stream.go:682", "warn"),
    ("etcdserver/server.go:1078", "warn"),
    ("etcdserver/server.go:1079", "warn"),
    ("membership/cluster.go:520", "info"),
    ("membership/cluster.go:497", "info"),
    ("etcdhttp/peer.go:148", "warn"),
];

/// etcd's `applySnapshot` steps (capnslog text), with their line in
/// `etcdserver/server.go` and how zap words them: no
/// fields (`tests/reference-run-b/zap/zx-snapshot-send-and-recover.log`).
#[rustfmt::skip]
const RECOVERY: &[(&str, u32, &str)] = &[
    ("recovering lessor...", 1220, "restoring lease store"),
    ("finished recovering lessor", 1228, "restored lease store"),
    ("restoring mvcc store...", 1235, "restoring mvcc store"),
    ("finished restoring mvcc store", 1250, "restored mvcc store"),
    ("closing old backend...", 1262, "closing old backend file"),
    ("finished closing old backend", 1268, "closed old backend file"),
    ("recovering alarms...", 1286, "restoring alarm store"),
    ("finished recovering alarms", 1300, "restored alarm store"),
    ("recovering auth store...", 1307, "restoring auth store"),
    ("finished recovering auth store", 1315, "restored auth store"),
    ("recovering store v2...", 1322, "restoring v2 store"),
    ("finished recovering store v2", 1335, "restored v2 store"),
    ("recovering cluster configuration...", 1343, "restoring cluster configuration"),
    ("finished recovering cluster configuration", 1351, "restored cluster configuration"),
    ("removing old peers from network...", 1352, "removing old peers from network"),
    ("finished removing old peers from network", 1362, "removed old peers from network"),
    ("adding peers from new cluster configuration into network...", 1363, "adding peers from new cluster configuration"),
    ("finished adding peers from new cluster configuration into network...", 1377, "added peers from new cluster configuration"),
];

/// raft's caller for a raft line (etcd's `raft/raft.go` and `raft/node.go`).
fn raft_caller(text: &str) -> &'static str {
    if text.contains(" restored snapshot [") {
        // handleSnapshot's line, or restore's with the log's last index
        return if text.contains(", lastindex: ") {
            "raft/raft.go:1479"
        } else {
            "raft/raft.go:1396"
        };
    }
    if text.starts_with("raft.node: ") && text.contains(" lost leader ") {
        return "raft/node.go:333";
    }
    if text.starts_with("raft.node: ") && text.contains(" changed leader ") {
        return "raft/node.go:329";
    }
    // as recorded in tests/reference-run-b/zap/

    const CALLERS: &[(&str, &str)] = &[
        ("raft.node: ", "raft/node.go:327"),
        (" switched to configuration ", "raft/raft.go:1523"),
        ("newRaft ", "raft/raft.go:389"),
        (" became follower at term ", "raft/raft.go:706"),
        (" became candidate at term ", "raft/raft.go:719"),
        (" became pre-candidate at term ", "raft/raft.go:735"),
        (" became leader at term ", "raft/raft.go:771"),
        (" is starting a new election at term ", "raft/raft.go:929"),
        (" rejection from ", "raft/raft.go:832"),
        (" received MsgVoteResp from ", "raft/raft.go:830"),
        (" received MsgPreVoteResp from ", "raft/raft.go:830"),
        (" sent MsgVote request to ", "raft/raft.go:817"),
        (" sent MsgPreVote request to ", "raft/raft.go:817"),
        (" has received ", "raft/raft.go:1295"),
        (
            " stepped down to follower since quorum is not active",
            "raft/raft.go:1017",
        ),
        (" message with higher term from ", "raft/raft.go:865"),
        (" message with lower term from ", "raft/raft.go:907"),
        (" cast Msg", "raft/raft.go:966"),
        (" rejected Msg", "raft/raft.go:984"),
        (" lease is not expired ", "raft/raft.go:850"),
        (" starts to transfer leadership to ", "raft/raft.go:1254"),
        (" sends MsgTimeoutNow to ", "raft/raft.go:1260"),
        (" received MsgTimeoutNow from ", "raft/raft.go:1348"),
        (" starts to restore snapshot [", "raft/log.go:300"),
    ];
    CALLERS
        .iter()
        .find(|(key, _)| text.contains(key))
        .map(|(_, caller)| *caller)
        .unwrap_or("raft/raft.go:1523")
}

/// A capnslog line's level letter, package and text.
fn split_capnslog(line: &str) -> Option<(&str, &str, &str)> {
    // `2021-03-03 16:25:57.005589 I | pkg: text`
    let rest = line.get(27..)?;
    let (lvl, rest) = rest.split_once(" | ")?;
    let (pkg, text) = rest.split_once(": ")?;
    let stamped = line.as_bytes().get(4) == Some(&b'-') && line.as_bytes().get(26) == Some(&b' ');
    (stamped && lvl.len() == 1).then_some((lvl, pkg, text))
}

/// A raft line's level and text: `raft2021/03/03 16:25:57 INFO: text`.
fn split_raft(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix("raft")?.get(20..)?;
    let (lvl, text) = rest.split_once(": ")?;
    matches!(lvl, "INFO" | "WARN" | "ERROR" | "DEBUG").then_some((lvl, text))
}

/// zap's level for a capnslog or raft level: etcd's zap lines are info, warn
/// or fatal (capnslog's notices are info, its errors warn).
fn level(capnslog: &str) -> &'static str {
    match capnslog {
        "D" | "DEBUG" => "debug",
        "W" | "WARN" | "E" | "ERROR" => "warn",
        "C" => "fatal",
        _ => "info",
    }
}

/// One zap line: `level`, `ts`, `caller`, `msg`, then the fields in order.
pub(super) fn object(
    level: &str,
    ts: &str,
    caller: &str,
    msg: &str,
    fields: &[(&str, Val)],
) -> String {
    let mut out = format!(
        "{{\"level\":{},\"ts\":{},\"caller\":{},\"msg\":{}",
        json_str(level),
        json_str(ts),
        json_str(caller),
        json_str(msg)
    );
    for (k, v) in fields {
        out.push_str(&format!(",{}:{}", json_str(k), v.json()));
    }
    out.push('}');
    out
}

/// The zap forms of a batch of capnslog and raft lines, written at `ts` (zap's
/// `2006-01-02T15:04:05.000Z`). rafthttp's `failed to … on …` error line and
/// the `became inactive` line after it are one zap line, whose `error` is the
/// first. Lines that are neither form (a panic's text, a zap line) stay.
pub fn to_zap(lines: Vec<String>, ts: &str, z: &ZapCtx) -> Vec<String> {
    let mut batch = Batch::default();
    if z.version == EtcdVersion::V3_4 {
        return lines
            .iter()
            .filter_map(|line| batch.convert(line, ts, z))
            .collect();
    }
    let mut out = Vec::with_capacity(lines.len());
    for line in &lines {
        if split_capnslog(line).map(|(_, pkg, text)| (pkg, text))
            == Some(("embed", "ready to serve client requests"))
        {
            out.extend(v35::ready(ts));
        } else {
            out.extend(batch.convert(line, ts, z));
        }
    }
    v35::rewrite(out, z)
}

/// What a batch of rafthttp lines carries from one line to the next in zap.
#[derive(Default)]
struct Batch {
    /// A `failed to … on stream …` line waiting for its `became inactive`.
    failure: Option<String>,
    /// Prober reports so far: the two probers report one after the other.
    probes: u32,
    /// The stream type of the writer just closed (a writer that never had a
    /// connection stops as `unknown stream`).
    closed_writer: Option<String>,
}

impl Batch {
    fn convert(&mut self, line: &str, ts: &str, z: &ZapCtx) -> Option<String> {
        if let Some((_, "rafthttp", said)) = split_capnslog(line) {
            if let Some(done) = self.rafthttp(said, ts) {
                return done;
            }
        }
        self.failure = None;
        line_to_zap(line, ts, z)
    }

    /// The rafthttp lines whose zap form depends on their neighbours: `Some`
    /// with the zap line (or `None` when it folds into a later one).
    fn rafthttp(&mut self, said: &str, ts: &str) -> Option<Option<String>> {
        if let Some(rest) = said.strip_prefix("closed the TCP streaming connection with peer ") {
            self.closed_writer = rest
                .split_once(" (")
                .and_then(|(_, k)| k.strip_suffix(" writer)"))
                .map(str::to_string);
            return None;
        }
        if let Some(id) = said
            .strip_prefix("stopped streaming with peer ")
            .and_then(|t| t.strip_suffix(" (writer)"))
        {
            return Some(Some(self.stopped_writer(id, ts)));
        }
        if let Some((id, err)) = said
            .strip_prefix("health check for peer ")
            .and_then(|t| t.split_once(" could not connect: "))
        {
            return Some(Some(self.prober(id, err, ts)));
        }
        if said.starts_with("failed to ") && said.contains(" on stream ") {
            self.failure = Some(said.to_string());
            return Some(None);
        }
        let id = said
            .strip_prefix("peer ")
            .and_then(|t| t.strip_suffix(" became inactive (message send to peer failed)"))?;
        let error = self.failure.take().unwrap_or_default();
        Some(Some(object(
            "warn",
            ts,
            "rafthttp/peer_status.go:68",
            "peer became inactive (message send to peer failed)",
            &[("peer-id", text(id)), ("error", text(&error))],
        )))
    }

    fn stopped_writer(&mut self, id: &str, ts: &str) -> String {
        let kind = self
            .closed_writer
            .take()
            .unwrap_or_else(|| "unknown stream".into());
        object(
            "warn",
            ts,
            "rafthttp/stream.go:301",
            "stopped TCP streaming connection with remote peer",
            &[
                ("stream-writer-type", text(&kind)),
                ("remote-peer-id", text(id)),
            ],
        )
    }

    fn prober(&mut self, id: &str, err: &str, ts: &str) -> String {
        self.probes += 1;
        let name = if self.probes % 2 == 1 {
            "ROUND_TRIPPER_SNAPSHOT"
        } else {
            "ROUND_TRIPPER_RAFT_MESSAGE"
        };
        let mut fields = vec![
            ("round-tripper-name", text(name)),
            ("remote-peer-id", text(id)),
            ("rtt", text("0s")),
        ];
        // zap leaves out a nil error
        if err != "<nil>" {
            fields.push(("error", text(err)));
        }
        object(
            "warn",
            ts,
            "rafthttp/probing_status.go:70",
            "prober detected unhealthy status",
            &fields,
        )
    }
}

/// `prober found high clock drift` (`rafthttp/probing_status.go:86`, the
/// zap form of `the clock difference against peer … is too high`): the drift
/// and the smoothed round trip (ns); a healthy prober's nil error is left out.
pub fn clock_drift(ts: &str, round_tripper: &str, id: u64, drift_ns: u64, rtt_ns: u64) -> String {
    let fields = [
        ("round-tripper-name", text(round_tripper)),
        ("remote-peer-id", hex(id)),
        ("clock-drift", text(&super::logfmt::go_duration(drift_ns))),
        ("rtt", text(&super::logfmt::go_duration(rtt_ns))),
    ];
    object(
        "warn",
        ts,
        "rafthttp/probing_status.go:86",
        "prober found high clock drift",
        &fields,
    )
}

/// `request cluster ID mismatch` (`rafthttp/http.go:547` at v3.4.23, `:500`
/// at v3.5.1, which `v35::rewrite` moves it to): a stream request from
/// another cluster. `ids` are (local member, local cluster, sender,
/// sender's cluster); `versions` the releases of this server and the
/// sender, from the request's `X-Server-Version` (both name 3.0.0 as the
/// minimum cluster version).
pub fn cluster_id_mismatch(
    ts: &str,
    (local, cluster, from, got): (u64, u64, u64, u64),
    (mine, theirs): (EtcdVersion, EtcdVersion),
) -> String {
    let fields = [
        ("local-member-id", hex(local)),
        ("local-member-cluster-id", hex(cluster)),
        ("local-member-server-version", text(mine.release())),
        ("local-member-server-minimum-cluster-version", text("3.0.0")),
        ("remote-peer-server-name", hex(from)),
        ("remote-peer-server-version", text(theirs.release())),
        ("remote-peer-server-minimum-cluster-version", text("3.0.0")),
        ("remote-peer-cluster-id", hex(got)),
    ];
    object(
        "warn",
        ts,
        "rafthttp/http.go:547",
        "request cluster ID mismatch",
        &fields,
    )
}

/// `cluster version is updated` (`etcdserver/server.go:2599` at v3.4.23,
/// `:2500` at v3.5.1): the member that proposed the cluster version saw it
/// applied. Only zap says it.
pub fn cluster_version_updated(ts: &str, version: &str) -> String {
    object(
        "info",
        ts,
        "etcdserver/server.go:2599",
        "cluster version is updated",
        &[("cluster-version", text(version))],
    )
}

/// A joining 3.5 member could not reach a peer URL for `/downgrade/enabled`
/// (`etcdserver/cluster_util.go:406` at v3.5.1).
pub fn downgrade_unreachable(ts: &str, address: &str, id: u64, error: &str) -> String {
    downgrade_url_line(
        ts,
        "etcdserver/cluster_util.go:406",
        "failed to reach the peer URL",
        address,
        id,
        error,
    )
}

/// A peer's `/downgrade/enabled` answer was not a bool: a failed
/// linearizable read, or 3.4's 404 page (`etcdserver/cluster_util.go:428`).
pub fn downgrade_unconvertible(ts: &str, address: &str, id: u64, error: &str) -> String {
    downgrade_url_line(
        ts,
        "etcdserver/cluster_util.go:428",
        "failed to convert response",
        address,
        id,
        error,
    )
}

fn downgrade_url_line(
    ts: &str,
    caller: &str,
    msg: &str,
    address: &str,
    id: u64,
    error: &str,
) -> String {
    let fields = [
        ("address", text(address)),
        ("remote-member-id", hex(id)),
        ("error", text(error)),
    ];
    object("warn", ts, caller, msg, &fields)
}

/// No peer URL of member `id` told its downgrade status
/// (`etcdserver/cluster_util.go:381`): its last error.
pub fn downgrade_status_failed(ts: &str, id: u64, error: &str) -> String {
    let fields = [("remote-member-id", hex(id)), ("error", text(error))];
    object(
        "warn",
        ts,
        "etcdserver/cluster_util.go:381",
        "failed to get downgrade enabled status",
        &fields,
    )
}

/// `dropped internal Raft message since sending buffer is full (overloaded
/// network)` (`rafthttp/peer.go:254` for an active peer, `:267` for an
/// inactive one): the zap form of capnslog's merged `dropped internal raft
/// message to …` warning (active) or its debug line (inactive), printed for
/// every drop.
pub fn dropped(ts: &str, local: u64, to: u64, msg_type: &str, active: bool) -> String {
    let fields = [
        ("message-type", text(msg_type)),
        ("local-member-id", hex(local)),
        ("from", hex(local)),
        ("remote-peer-id", hex(to)),
        ("remote-peer-active", Val::Num(active.to_string())),
    ];
    let caller = if active {
        "rafthttp/peer.go:254"
    } else {
        "rafthttp/peer.go:267"
    };
    object(
        "warn",
        ts,
        caller,
        "dropped internal Raft message since sending buffer is full (overloaded network)",
        &fields,
    )
}

/// One line's zap form, or `None` for a line zap does not print.
fn line_to_zap(line: &str, ts: &str, z: &ZapCtx) -> Option<String> {
    if let Some((lvl, text)) = split_raft(line) {
        return Some(object(level(lvl), ts, raft_caller(text), text, &[]));
    }
    let Some((lvl, pkg, text)) = split_capnslog(line) else {
        return Some(line.to_string());
    };
    if let Some((_, line, msg)) = RECOVERY
        .iter()
        .find(|(said, _, _)| pkg == "etcdserver" && *said == text)
    {
        let caller = format!("etcdserver/server.go:{line}");
        return Some(object(level(lvl), ts, &caller, msg, &[]));
    }
    let said = format!("{pkg}: {text}");
    for rule in RULES {
        if let Some(c) = captures(rule.said, &said) {
            if rule.msg.is_empty() {
                return None;
            }
            let lvl = LEVELS
                .iter()
                .find(|(caller, _)| *caller == rule.caller)
                .map_or(level(lvl), |(_, l)| *l);
            let fields = fields(rule.fields, &c, z).unwrap_or_default();
            return Some(object(lvl, ts, rule.caller, rule.msg, &fields));
        }
    }
    // an event without a recorded zap form keeps its text
    let file = pkg.rsplit('/').next().unwrap_or(pkg);
    Some(object(
        level(lvl),
        ts,
        &format!("{pkg}/{file}.go"),
        text,
        &[],
    ))
}

/// The lines a zap-logging etcd prints before it opens the data dir, in order
/// (a real `etcd --logger=zap` start, `tests/reference-run-b/zap/`).
pub fn banner(cfg: &EtcdConfig, initialized: bool, ts: &str) -> Vec<String> {
    let list = |v: &[String]| Val::List(v.to_vec());
    let text = |v: &str| Val::Str(v.to_string());
    let dir = cfg.data_dir();
    let mut server = build_fields(cfg.version);
    server.extend(config_fields(cfg, initialized));
    let v35 = cfg.version == EtcdVersion::V3_5;
    let mut first = Vec::new();
    if v35 {
        first.push(v35::running(ts.into(), &cfg.args));
    }
    // etcdmain's look at the data dir (`etcdmain/etcd.go:115` at v3.5.1)
    if v35 && initialized {
        first.push(object(
            "info",
            ts,
            "etcdmain/etcd.go:115",
            "server has been already initialized",
            &[("data-dir", text(&dir)), ("dir-type", text("member"))],
        ));
    }
    let banner = [
        object(
            "info",
            ts,
            "embed/etcd.go:117",
            "configuring peer listeners",
            &[("listen-peer-urls", list(&cfg.listen_peer_urls))],
        ),
        object(
            "info",
            ts,
            "embed/etcd.go:127",
            "configuring client listeners",
            &[("listen-client-urls", list(&cfg.listen_client_urls))],
        ),
        object(
            "info",
            ts,
            "embed/etcd.go:305",
            "starting an etcd server",
            &server,
        ),
        object(
            "info",
            ts,
            "etcdserver/backend.go:80",
            "opened backend db",
            &[
                ("path", text(&format!("{dir}/member/snap/db"))),
                // the simulated disk takes no time
                ("took", text("0s")),
            ],
        ),
    ];
    first.into_iter().chain(banner).collect()
}

/// The build of etcd a start's banner names (`embed/etcd.go:305`).
fn build_fields(version: EtcdVersion) -> Vec<(&'static str, Val)> {
    let text = |v: &str| Val::Str(v.to_string());
    let num = |v: u64| Val::Num(v.to_string());
    let (sha, go) = match version {
        EtcdVersion::V3_4 => ("Not provided (use ./build instead of go build)", "go1.19.8"),
        EtcdVersion::V3_5 => ("e8732fb5f", "go1.16.3"),
    };
    vec![
        ("etcd-version", text(version.release())),
        ("git-sha", text(sha)),
        ("go-version", text(go)),
        ("go-os", text("linux")),
        ("go-arch", text("amd64")),
        ("max-cpu-set", num(2)),
        ("max-cpu-available", num(2)),
    ]
}

/// The configuration a start's banner shows (`embed/etcd.go:305`), after the build.
fn config_fields(cfg: &EtcdConfig, initialized: bool) -> Vec<(&'static str, Val)> {
    let list = |v: &[String]| Val::List(v.to_vec());
    let text = |v: &str| Val::Str(v.to_string());
    let num = |v: u64| Val::Num(v.to_string());
    let flag = |v: bool| Val::Num(v.to_string());
    let dir = cfg.data_dir();
    let cluster: Vec<String> = cfg
        .initial_cluster()
        .iter()
        .map(|(n, u)| format!("{n}={u}"))
        .collect();
    // a member already initialized takes neither the initial cluster nor its
    // token from its flags (`embed/etcd.go` StartEtcd at v3.4.23 and v3.5.1:
    // both stay "" unless `!isMemberInitialized`)
    let (cluster, token) = if initialized {
        (String::new(), String::new())
    } else {
        (cluster.join(","), cfg.initial_cluster_token.clone())
    };
    let state = match cfg.initial_cluster_state {
        ClusterState::New => "new",
        ClusterState::Existing => "existing",
    };
    let fields = vec![
        ("member-initialized", flag(initialized)),
        ("name", text(&cfg.name)),
        ("data-dir", text(&dir)),
        ("wal-dir", text("")),
        ("wal-dir-dedicated", text("")),
        ("member-dir", text(&format!("{dir}/member"))),
        ("force-new-cluster", flag(cfg.force_new_cluster)),
        (
            "heartbeat-interval",
            text(&format!("{}ms", cfg.heartbeat_ms)),
        ),
        (
            "election-timeout",
            text(&super::logfmt::go_duration(cfg.election_ms * 1_000_000)),
        ),
        ("initial-election-tick-advance", flag(true)),
        ("snapshot-count", num(cfg.snapshot_count)),
        ("max-wals", num(5)),
        ("max-snapshots", num(5)),
        ("snapshot-catchup-entries", num(5000)),
        (
            "initial-advertise-peer-urls",
            list(&cfg.initial_advertise_peer_urls),
        ),
        ("listen-peer-urls", list(&cfg.listen_peer_urls)),
        ("advertise-client-urls", list(&cfg.advertise_client_urls)),
        ("listen-client-urls", list(&cfg.listen_client_urls)),
        ("listen-metrics-urls", Val::List(Vec::new())),
        ("cors", Val::List(vec!["*".into()])),
        ("host-whitelist", Val::List(vec!["*".into()])),
        ("initial-cluster", text(&cluster)),
        ("initial-cluster-state", text(state)),
        ("initial-cluster-token", text(&token)),
        ("quota-backend-bytes", num(2_147_483_648)),
        ("max-request-bytes", num(1_572_864)),
        ("max-concurrent-streams", num(4_294_967_295)),
        ("pre-vote", flag(cfg.pre_vote)),
        ("initial-corrupt-check", flag(false)),
        ("corrupt-check-time-interval", text("0s")),
        ("auto-compaction-mode", text("periodic")),
        ("auto-compaction-retention", text("0s")),
        ("auto-compaction-interval", text("0s")),
        ("discovery-url", text("")),
        ("discovery-proxy", text("")),
    ];
    match cfg.version {
        EtcdVersion::V3_4 => fields,
        EtcdVersion::V3_5 => v35_config(fields),
    }
}

/// 3.5.1's banner fields from 3.4.23's: the WAL and snapshot counts and the
/// request limits are gone, the quota is `quota-size-bytes`, and the
/// downgrade check's interval comes last (`embed/etcd.go:307` at v3.5.1).
fn v35_config(fields: Vec<(&'static str, Val)>) -> Vec<(&'static str, Val)> {
    const GONE: &[&str] = &[
        "max-wals",
        "max-snapshots",
        "max-request-bytes",
        "max-concurrent-streams",
    ];
    let mut out: Vec<(&'static str, Val)> = fields
        .into_iter()
        .filter(|(k, _)| !GONE.contains(k))
        .map(|(k, v)| match k {
            "quota-backend-bytes" => ("quota-size-bytes", v),
            _ => (k, v),
        })
        .collect();
    out.push(("downgrade-check-interval", Val::Str("5s".into())));
    out
}

/// etcdmain's fatal start-up error, as zap writes it: a warning, then the fatal
/// line (seed 004, `tests/reference-run-b/zap/zx-fatal-startup-errors.log`).
pub fn fatal(ts: &str, error: &str) -> Vec<String> {
    const STACK: &str = "go.etcd.io/etcd/etcdmain.startEtcdOrProxyV2\n\tgo.etcd.io/etcd/etcdmain/etcd.go:271\ngo.etcd.io/etcd/etcdmain.Main\n\tgo.etcd.io/etcd/etcdmain/main.go:46\nmain.main\n\tgo.etcd.io/etcd/main.go:28\nruntime.main\n\truntime/proc.go:250";
    let err = || ("error", Val::Str(error.to_string()));
    vec![
        object(
            "warn",
            ts,
            "etcdmain/etcd.go:176",
            "failed to start etcd",
            &[err()],
        ),
        object(
            "fatal",
            ts,
            "etcdmain/etcd.go:271",
            "discovery failed",
            &[err(), ("stacktrace", Val::Str(STACK.into()))],
        ),
    ]
}

/// [`fatal`] as `version` writes it.
pub fn fatal_of(version: EtcdVersion, ts: &str, error: &str) -> Vec<String> {
    let lines = fatal(ts, error);
    match version {
        EtcdVersion::V3_4 => lines,
        EtcdVersion::V3_5 => v35::rewrite(
            lines,
            &ZapCtx {
                version,
                ..ZapCtx::default()
            },
        ),
    }
}

/// etcd 3.5's refused flags: `Running: ` with the command line, then the
/// error (`etcdmain/etcd.go:72`–`77` at v3.5.1), and the advertise hint when
/// the client URLs are missing. When the logging setup itself failed (no
/// logger yet), zap's production logger writes them with a Unix time stamp
/// in seconds (`epoch_ms`, as `tests/reference-run-b/3.5/00-versions-and-help.txt`).
pub fn flag_failure_v35(
    ts: &str,
    epoch_ms: Option<i64>,
    args: &[String],
    error: &str,
    unset: bool,
) -> Vec<String> {
    // Go's shortest float: whole seconds without a fraction
    let stamp = || match epoch_ms {
        Some(ms) if ms % 1000 == 0 => serde_json::Value::from(ms / 1000),
        Some(ms) => serde_json::Number::from_f64(ms as f64 / 1000.0)
            .map_or_else(|| serde_json::Value::from(ts), serde_json::Value::Number),
        None => serde_json::Value::from(ts),
    };
    let warn = |caller: &str, msg: &str| {
        let mut o = serde_json::Map::new();
        o.insert("level".into(), "warn".into());
        o.insert("ts".into(), stamp());
        o.insert("caller".into(), caller.into());
        o.insert("msg".into(), msg.into());
        o.insert("error".into(), error.into());
        serde_json::to_string(&o).unwrap_or_default()
    };
    let mut lines = vec![
        v35::running(stamp(), args),
        warn("etcdmain/etcd.go:74", "failed to verify flags"),
    ];
    if unset {
        lines.push(warn(
            "etcdmain/etcd.go:77",
            "advertise client URLs are not set",
        ));
    }
    lines
}

/// The backend file reopened from a received snapshot (zap only; the
/// simulated disk takes no time).
pub fn opened_backend(ts: &str, data_dir: &str) -> String {
    let path = Val::Str(format!("{data_dir}/member/snap/db"));
    let fields = [("path", path), ("took", Val::Str("0s".into()))];
    object(
        "info",
        ts,
        "etcdserver/backend.go:80",
        "opened backend db",
        &fields,
    )
}

/// raft's panic when a heartbeat commits past the end of the log, as zap
/// writes it before Go's panic (a real run: `tests/reference-run-b/zap/`
/// `zx-wiped-follower-existing-panic.log`).
pub fn raft_commit_panic(ts: &str, text: &str) -> String {
    const STACK: &str = "go.etcd.io/etcd/raft.(*raftLog).commitTo\n\tgo.etcd.io/etcd/raft/log.go:203\ngo.etcd.io/etcd/raft.(*raft).handleHeartbeat\n\tgo.etcd.io/etcd/raft/raft.go:1389\ngo.etcd.io/etcd/raft.stepFollower\n\tgo.etcd.io/etcd/raft/raft.go:1334\ngo.etcd.io/etcd/raft.(*raft).Step\n\tgo.etcd.io/etcd/raft/raft.go:990\ngo.etcd.io/etcd/raft.(*node).run\n\tgo.etcd.io/etcd/raft/node.go:354";
    let fields = [("stacktrace", Val::Str(STACK.into()))];
    object("panic", ts, "raft/log.go:203", text, &fields)
}

/// Where a follower stands when it installs a leader's snapshot: what etcd's
/// zap lines around it report (capnslog prints only one index).
#[derive(Debug, Clone, Copy)]
pub struct SnapshotProgress {
    pub current_snapshot: u64,
    pub current_applied: u64,
    pub incoming_index: u64,
    pub incoming_term: u64,
}

impl SnapshotProgress {
    /// The zap line before (`applying snapshot`) or after (`applied snapshot`).
    pub fn zap(&self, ts: &str, done: bool) -> String {
        let num = |v: u64| Val::Num(v.to_string());
        let (caller, msg, applied) = if done {
            (
                "etcdserver/server.go:1176",
                "applied snapshot",
                self.incoming_index,
            )
        } else {
            (
                "etcdserver/server.go:1164",
                "applying snapshot",
                self.current_applied,
            )
        };
        let current = if done {
            self.incoming_index
        } else {
            self.current_snapshot
        };
        object(
            "info",
            ts,
            caller,
            msg,
            &[
                ("current-snapshot-index", num(current)),
                ("current-applied-index", num(applied)),
                ("incoming-leader-snapshot-index", num(self.incoming_index)),
                ("incoming-leader-snapshot-term", num(self.incoming_term)),
            ],
        )
    }
}

/// `--force-new-cluster` drops the WAL's uncommitted tail: zap names the first
/// dropped entry and the WAL's commit index, which capnslog's text leaves out.
pub fn discarding(ts: &str, entry: u64, commit: u64, count: u64) -> String {
    let num = |v: u64| Val::Num(v.to_string());
    object(
        "info",
        ts,
        "etcdserver/raft.go:644",
        "discarding uncommitted WAL entries",
        &[
            ("entry-index", num(entry)),
            ("commit-index-from-wal", num(commit)),
            ("number-of-discarded-entries", num(count)),
        ],
    )
}

/// A flag error, as zap writes it: one warning, without etcd's `--help` hint.
pub fn flag_error(ts: &str, error: &str) -> String {
    object(
        "warn",
        ts,
        "etcdmain/etcd.go:66",
        "failed to verify flags",
        &[("error", Val::Str(error.to_string()))],
    )
}

/// What etcd adds after [`flag_error`] when the advertised client URLs are
/// missing (`etcdmain/etcd.go`, recorded on etcd 3.4.23).
pub fn advertise_unset(ts: &str, error: &str) -> String {
    object(
        "warn",
        ts,
        "etcdmain/etcd.go:73",
        "advertise client URLs are not set",
        &[("error", Val::Str(error.to_string()))],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn z() -> ZapCtx {
        ZapCtx {
            local: 0x21cef95c9ccf688e,
            cluster: 0x41d412a7add8b39a,
            heartbeat_ms: 100,
            election_ms: 1000,
            snapshot_count: 5,
            peers: Vec::new(),
            ..ZapCtx::default()
        }
    }

    fn one(line: &str) -> String {
        to_zap(vec![line.to_string()], TS, &z()).join("\n")
    }
    const TS: &str = "2026-11-22T06:05:19.493Z";

    /// Lines of a real `etcd --logger=zap` start (tests/reference-run-b/zap/).
    #[test]
    fn server_and_raft_lines_take_etcds_zap_form() {
        assert_eq!(
            one("2026-11-22 06:05:19.493000 I | etcdserver: starting member 21cef95c9ccf688e in cluster 41d412a7add8b39a"),
            r#"{"level":"info","ts":"2026-11-22T06:05:19.493Z","caller":"etcdserver/raft.go:536","msg":"starting local member","local-member-id":"21cef95c9ccf688e","cluster-id":"41d412a7add8b39a"}"#
        );
        assert_eq!(
            one("raft2026/11/22 06:05:19 INFO: 21cef95c9ccf688e became follower at term 0"),
            r#"{"level":"info","ts":"2026-11-22T06:05:19.493Z","caller":"raft/raft.go:706","msg":"21cef95c9ccf688e became follower at term 0"}"#
        );
        assert_eq!(
            one("2026-11-22 06:05:19.499000 I | etcdserver/membership: added member 21cef95c9ccf688e [http://127.0.0.9:12380] to cluster 41d412a7add8b39a"),
            r#"{"level":"info","ts":"2026-11-22T06:05:19.493Z","caller":"membership/cluster.go:392","msg":"added member","cluster-id":"41d412a7add8b39a","local-member-id":"21cef95c9ccf688e","added-peer-id":"21cef95c9ccf688e","added-peer-peer-urls":["http://127.0.0.9:12380"]}"#
        );
    }

    /// `warnOfExpensiveGenericRequest` (etcdserver/util.go:167): zap drops a
    /// nil error, and prints the result as `response`.
    #[test]
    fn a_slow_range_takes_etcds_zap_form() {
        assert_eq!(
            one(
                r#"2026-11-22 06:05:19.493000 W | etcdserver: read-only range request "key:\"k1-from-2\" " with result "range_response_count:1 size:29" took too long (402ms) to execute"#
            ),
            r#"{"level":"warn","ts":"2026-11-22T06:05:19.493Z","caller":"etcdserver/util.go:167","msg":"apply request took too long","took":"402ms","expected-duration":"100ms","prefix":"read-only range ","request":"key:\"k1-from-2\" ","response":"range_response_count:1 size:29"}"#
        );
        assert_eq!(
            one(
                r#"2026-11-22 06:05:19.493000 W | etcdserver: read-only range request "key:\"k\" " with result "error:etcdserver: leader changed" took too long (1.2s) to execute"#
            ),
            r#"{"level":"warn","ts":"2026-11-22T06:05:19.493Z","caller":"etcdserver/util.go:167","msg":"apply request took too long","took":"1.2s","expected-duration":"100ms","prefix":"read-only range ","request":"key:\"k\" ","response":"","error":"etcdserver: leader changed"}"#
        );
    }

    /// Every rule's fields are in [`fields`]'s grammar and name only holes
    /// its template has.
    #[test]
    fn every_rules_fields_parse() {
        for rule in RULES {
            let holes = rule.said.matches("{}").count();
            let caps: Caps = (1..=holes).map(|i| format!("2{i}")).collect();
            assert!(fields(rule.fields, &caps, &z()).is_some(), "{}", rule.said);
        }
    }

    /// A real `etcd --logger=zap --snapshot-count 5` (3.4.23, recorded for
    /// the snapshot lines): the capnslog text of the same events, in zap.
    #[test]
    fn snapshot_lines_take_etcds_zap_form() {
        let z = ZapCtx {
            local: 0x2e1259d415f2a040,
            ..z()
        };
        let one =
            |line: &str| to_zap(vec![line.to_string()], "2026-11-23T22:41:00.412Z", &z).join("\n");
        assert_eq!(
            one("2026-11-23 22:41:00.412000 I | etcdserver: start to snapshot (applied: 6, lastsnap: 0)"),
            r#"{"level":"info","ts":"2026-11-23T22:41:00.412Z","caller":"etcdserver/server.go:1423","msg":"triggering snapshot","local-member-id":"2e1259d415f2a040","local-member-applied-index":6,"local-member-snapshot-index":0,"local-member-snapshot-count":5}"#
        );
        assert_eq!(
            one("2026-11-23 22:41:00.412000 I | etcdserver: saved snapshot at index 6"),
            r#"{"level":"info","ts":"2026-11-23T22:41:00.412Z","caller":"etcdserver/server.go:2430","msg":"saved snapshot","snapshot-index":6}"#
        );
        assert_eq!(
            one("2026-11-23 22:41:00.412000 I | etcdserver: compacted raft log at 1"),
            r#"{"level":"info","ts":"2026-11-23T22:41:00.412Z","caller":"etcdserver/server.go:2479","msg":"compacted Raft logs","compact-index":1}"#
        );
    }

    #[test]
    fn a_high_clock_drift_takes_etcds_zap_form() {
        let line = clock_drift(
            "2026-11-26T03:39:14.835Z",
            "ROUND_TRIPPER_SNAPSHOT",
            0xd0f6bc55ba03a3ed,
            1_050_001_000,
            300_000_000,
        );
        assert_eq!(
            line,
            r#"{"level":"warn","ts":"2026-11-26T03:39:14.835Z","caller":"rafthttp/probing_status.go:86","msg":"prober found high clock drift","round-tripper-name":"ROUND_TRIPPER_SNAPSHOT","remote-peer-id":"d0f6bc55ba03a3ed","clock-drift":"1.050001s","rtt":"300ms"}"#
        );
    }
}
