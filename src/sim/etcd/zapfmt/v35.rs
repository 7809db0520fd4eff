//! etcd 3.5.1's zap lines: each of 3.4.23's zap lines (as [`super::to_zap`]
//! writes them) turned into what 3.5.1 prints for the same event, from a
//! table keyed by the 3.4 kind, plus the lines 3.5.1 prints that 3.4.23 did
//! not (`tests/reference-run-b/3.5/ZAP-CATALOG.txt`, and etcd's source at
//! v3.5.1, where a zap `caller` is the line of the `lg.Info(` call).
//!
//! raft's lines keep their text; 3.5 writes them through its zap raft logger
//! with `"logger":"raft"` after `ts` and that logger's caller.

use serde_json::{Map, Value};

use super::ZapCtx;

/// A 3.4.23 line kind's 3.5.1 form: its 3.4 caller (and message where the
/// caller alone is ambiguous), then 3.5's caller, level and message ("": as
/// in 3.4).
struct Move {
    from: &'static str,
    msg: &'static str,
    to: &'static str,
    level: &'static str,
    new_msg: &'static str,
}

const fn mv(from: &'static str, to: &'static str) -> Move {
    Move {
        from,
        msg: "",
        to,
        level: "",
        new_msg: "",
    }
}

/// [`mv`] with 3.5's level.
const fn at(from: &'static str, to: &'static str, level: &'static str) -> Move {
    Move {
        from,
        msg: "",
        to,
        level,
        new_msg: "",
    }
}

/// Where the 3.4 kinds the simulation logs are in 3.5.1 (the catalog's
/// pairs, the ambiguous ones read in `rafthttp/stream.go` at both tags).
#[rustfmt::skip]
const MOVES: &[Move] = &[
    // start
    mv("embed/etcd.go:117", "embed/etcd.go:131"),
    mv("embed/etcd.go:127", "embed/etcd.go:139"),
    mv("embed/etcd.go:305", "embed/etcd.go:307"),
    mv("etcdserver/backend.go:80", "etcdserver/backend.go:81"),
    mv("etcdserver/raft.go:536", "etcdserver/raft.go:448"),
    mv("etcdserver/raft.go:586", "etcdserver/raft.go:483"),
    mv("etcdserver/raft.go:644", "etcdserver/raft.go:526"),
    mv("etcdserver/raft.go:682", "etcdserver/raft.go:556"),
    mv("auth/store.go:1380", "auth/store.go:1220"),
    mv("etcdserver/server.go:816", "etcdserver/server.go:843"),
    mv("etcdserver/server.go:682", "etcdserver/server.go:728"),
    mv("etcdserver/server.go:729", "etcdserver/server.go:767"),
    mv("etcdserver/server.go:462", "etcdserver/server.go:508"),
    mv("membership/cluster.go:256", "membership/cluster.go:278"),
    mv("membership/cluster.go:269", "membership/cluster.go:287"),
    mv("embed/etcd.go:587", "embed/etcd.go:580"),
    mv("embed/serve.go:145", "embed/serve.go:140"),
    mv("etcdmain/etcd.go:176", "etcdmain/etcd.go:145"),
    mv("etcdmain/etcd.go:271", "etcdmain/etcd.go:203"),
    // publish, version, membership
    mv("etcdserver/server.go:2069", "etcdserver/server.go:2027"),
    mv("etcdserver/server.go:2599", "etcdserver/server.go:2500"),
    Move { from: "etcdserver/server.go:2567", msg: "", to: "etcdserver/server.go:2476", level: "",
        new_msg: "setting up initial cluster version using v2 API" },
    mv("membership/cluster.go:558", "membership/cluster.go:584"),
    Move { from: "etcdserver/server.go:2576", msg: "", to: "etcdserver/server.go:2481", level: "",
        new_msg: "updating cluster version using v2 API" },
    mv("membership/cluster.go:546", "membership/cluster.go:576"),
    mv("api/capability.go:76", "api/capability.go:75"),
    mv("membership/cluster.go:392", "membership/cluster.go:421"),
    mv("membership/cluster.go:422", "membership/cluster.go:472"),
    mv("membership/cluster.go:497", "membership/cluster.go:535"),
    mv("membership/cluster.go:520", "membership/cluster.go:554"),
    mv("membership/cluster.go:609", "membership/cluster.go:627"),
    mv("membership/cluster.go:643", "membership/cluster.go:657"),
    mv("etcdserver/server.go:1646", "etcdserver/server.go:1575"),
    mv("etcdserver/server.go:1660", "etcdserver/server.go:1585"),
    mv("etcdserver/server.go:1844", "etcdserver/server.go:1763"),
    mv("etcdserver/server.go:1866", "etcdserver/server.go:1781"),
    mv("etcdhttp/peer.go:148", "etcdhttp/peer.go:150"),
    mv("etcdserver/server.go:1078", "etcdserver/server.go:1142"),
    mv("etcdserver/server.go:1079", "etcdserver/server.go:1143"),
    mv("etcdserver/cluster_util.go:315", "etcdserver/cluster_util.go:288"),
    mv("etcdserver/cluster_util.go:168", "etcdserver/cluster_util.go:155"),
    // stop, leadership
    mv("osutil/interrupt_unix.go:64", "osutil/interrupt_unix.go:64"),
    mv("etcdserver/server.go:1507", "etcdserver/server.go:1438"),
    mv("etcdserver/server.go:1456", "etcdserver/server.go:1398"),
    mv("etcdserver/server.go:1477", "etcdserver/server.go:1415"),
    // reads
    mv("etcdserver/util.go:167", "etcdserver/util.go:166"),
    mv("etcdserver/v3_server.go:830", "etcdserver/v3_server.go:827"),
    mv("etcdserver/v3_server.go:814", "etcdserver/v3_server.go:815"),
    mv("etcdserver/v3_server.go:783", "etcdserver/v3_server.go:792"),
    mv("etcdserver/v3_server.go:802", "etcdserver/v3_server.go:807"),
    mv("etcdserver/raft.go:202", "etcdserver/raft.go:205"),
    // snapshots
    mv("etcdserver/server.go:1423", "etcdserver/server.go:1368"),
    mv("etcdserver/server.go:2430", "etcdserver/server.go:2363"),
    mv("etcdserver/server.go:2479", "etcdserver/server.go:2393"),
    mv("etcdserver/server.go:2452", "etcdserver/server.go:2374"),
    mv("etcdserver/raft.go:294", "etcdserver/raft.go:267"),
    mv("etcdserver/server.go:1164", "etcdserver/server.go:1206"),
    mv("etcdserver/server.go:1176", "etcdserver/server.go:1214"),
    mv("etcdserver/server.go:1220", "etcdserver/server.go:1245"),
    mv("etcdserver/server.go:1228", "etcdserver/server.go:1249"),
    mv("etcdserver/server.go:1235", "etcdserver/server.go:1252"),
    mv("etcdserver/server.go:1250", "etcdserver/server.go:1259"),
    mv("etcdserver/server.go:1262", "etcdserver/server.go:1267"),
    mv("etcdserver/server.go:1268", "etcdserver/server.go:1269"),
    mv("etcdserver/server.go:1286", "etcdserver/server.go:1279"),
    mv("etcdserver/server.go:1300", "etcdserver/server.go:1285"),
    mv("etcdserver/server.go:1307", "etcdserver/server.go:1288"),
    mv("etcdserver/server.go:1315", "etcdserver/server.go:1292"),
    mv("etcdserver/server.go:1322", "etcdserver/server.go:1295"),
    mv("etcdserver/server.go:1335", "etcdserver/server.go:1304"),
    mv("etcdserver/server.go:1343", "etcdserver/server.go:1308"),
    mv("etcdserver/server.go:1351", "etcdserver/server.go:1312"),
    mv("etcdserver/server.go:1352", "etcdserver/server.go:1313"),
    mv("etcdserver/server.go:1362", "etcdserver/server.go:1318"),
    mv("etcdserver/server.go:1363", "etcdserver/server.go:1319"),
    mv("etcdserver/server.go:1377", "etcdserver/server.go:1328"),
    mv("etcdserver/server.go:2127", "etcdserver/server.go:2073"),
    mv("etcdserver/server.go:2147", "etcdserver/server.go:2091"),
    mv("etcdserver/snapshot_merge.go:70", "etcdserver/snapshot_merge.go:66"),
    mv("rafthttp/snapshot_sender.go:84", "rafthttp/snapshot_sender.go:84"),
    mv("rafthttp/snapshot_sender.go:137", "rafthttp/snapshot_sender.go:133"),
    mv("rafthttp/http.go:268", "rafthttp/http.go:257"),
    mv("rafthttp/http.go:305", "rafthttp/http.go:286"),
    mv("snap/db.go:67", "snap/db.go:66"),
    // rafthttp
    mv("rafthttp/peer.go:128", "rafthttp/peer.go:133"),
    mv("rafthttp/peer.go:134", "rafthttp/peer.go:137"),
    mv("rafthttp/peer.go:333", "rafthttp/peer.go:330"),
    mv("rafthttp/peer.go:340", "rafthttp/peer.go:335"),
    mv("rafthttp/peer.go:254", "rafthttp/peer.go:255"),
    mv("rafthttp/peer.go:267", "rafthttp/peer.go:267"),
    mv("rafthttp/pipeline.go:71", "rafthttp/pipeline.go:72"),
    mv("rafthttp/pipeline.go:86", "rafthttp/pipeline.go:85"),
    mv("rafthttp/transport.go:327", "rafthttp/transport.go:317"),
    mv("rafthttp/transport.go:369", "rafthttp/transport.go:355"),
    mv("rafthttp/transport.go:402", "rafthttp/transport.go:384"),
    mv("rafthttp/peer_status.go:51", "rafthttp/peer_status.go:53"),
    mv("rafthttp/peer_status.go:68", "rafthttp/peer_status.go:66"),
    mv("rafthttp/probing_status.go:70", "rafthttp/probing_status.go:68"),
    mv("rafthttp/probing_status.go:86", "rafthttp/probing_status.go:82"),
    mv("rafthttp/stream.go:166", "rafthttp/stream.go:169"),
    mv("rafthttp/stream.go:193", "rafthttp/stream.go:194"),
    mv("rafthttp/stream.go:224", "rafthttp/stream.go:223"),
    mv("rafthttp/stream.go:266", "rafthttp/stream.go:265"),
    at("rafthttp/stream.go:277", "rafthttp/stream.go:274", "info"),
    mv("rafthttp/stream.go:291", "rafthttp/stream.go:286"),
    at("rafthttp/stream.go:301", "rafthttp/stream.go:294", "info"),
    mv("rafthttp/stream.go:406", "rafthttp/stream.go:395"),
    mv("rafthttp/stream.go:425", "rafthttp/stream.go:412"),
    mv("rafthttp/stream.go:436", "rafthttp/stream.go:421"),
    mv("rafthttp/stream.go:459", "rafthttp/stream.go:442"),
    mv("rafthttp/stream.go:682", "rafthttp/stream.go:653"),
    mv("rafthttp/http.go:425", "rafthttp/http.go:394"),
    mv("rafthttp/http.go:448", "rafthttp/http.go:413"),
    mv("rafthttp/http.go:547", "rafthttp/http.go:500"),
];

/// 3.4 lines 3.5.1 does not print: its purgers start without a word
/// (`client/pkg/fileutil/purge.go` at v3.5.1 logs only what it purged).
const GONE: &[&str] = &["fileutil/purge.go:42"];

/// raft's caller in 3.5: the zap raft logger's method for the level
/// (`server/etcdserver/zap_raft.go` at v3.5.1).
fn raft_caller(level: &str) -> &'static str {
    match level {
        "debug" => "etcdserver/zap_raft.go:61",
        "warn" => "etcdserver/zap_raft.go:85",
        "error" => "etcdserver/zap_raft.go:69",
        "panic" => "etcdserver/zap_raft.go:101",
        "fatal" => "etcdserver/zap_raft.go:93",
        _ => "etcdserver/zap_raft.go:77",
    }
}

/// What a batch carries from one line to the next.
#[derive(Default)]
struct State {
    /// The snapshot being applied (`applying snapshot`'s incoming index):
    /// 3.5's `restored mvcc store` names it as the consistent index.
    incoming: Option<Value>,
    /// A restart recovered its v2 store from a snapshot in this batch.
    recovered: bool,
    /// The start's banner (`starting an etcd server`): its URLs are what
    /// `now serving peer/client/metrics` lists.
    banner: Option<Map<String, Value>>,
}

/// 3.4.23's zap lines of one batch as 3.5.1 writes them.
pub(super) fn rewrite(lines: Vec<String>, z: &ZapCtx) -> Vec<String> {
    let mut state = State::default();
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let Ok(Value::Object(o)) = serde_json::from_str::<Value>(&line) else {
            out.push(line);
            continue;
        };
        out.extend(state.line(o, z));
    }
    out
}

fn get<'a>(o: &'a Map<String, Value>, k: &str) -> &'a str {
    o.get(k).and_then(Value::as_str).unwrap_or("")
}

fn render(o: &Map<String, Value>) -> String {
    serde_json::to_string(o).unwrap_or_default()
}

/// A zap object: `level`, `ts`, `caller`, `msg`, then the fields.
fn object(level: &str, ts: &str, caller: &str, msg: &str, fields: Vec<(&str, Value)>) -> String {
    let mut o = Map::new();
    o.insert("level".into(), level.into());
    o.insert("ts".into(), ts.into());
    o.insert("caller".into(), caller.into());
    o.insert("msg".into(), msg.into());
    for (k, v) in fields {
        o.insert(k.into(), v);
    }
    render(&o)
}

impl State {
    /// One line's 3.5 form, and the lines 3.5 prints right after it.
    fn line(&mut self, o: Map<String, Value>, z: &ZapCtx) -> Vec<String> {
        let caller = get(&o, "caller").to_string();
        if caller.starts_with("raft/") {
            return vec![raft(o)];
        }
        if GONE.contains(&caller.as_str()) {
            return Vec::new();
        }
        let msg = get(&o, "msg").to_string();
        let Some(m) = MOVES
            .iter()
            .find(|m| m.from == caller && (m.msg.is_empty() || m.msg == msg))
        else {
            return vec![render(&o)];
        };
        let mut o = o;
        o.insert("caller".into(), m.to.into());
        if !m.level.is_empty() {
            o.insert("level".into(), m.level.into());
        }
        if !m.new_msg.is_empty() {
            o.insert("msg".into(), m.new_msg.into());
        }
        self.fields(m.to, &mut o, z);
        let mut out = self.before(m.to, &o, z);
        out.push(render(&o));
        out.extend(after(m.to, &o, z));
        out
    }

    /// The lines 3.5.1 prints right before a line of `caller` that 3.4.23
    /// did not: a restart without a snapshot replays its WAL from the start
    /// (`etcdserver/server.go:526`), and embed says what it serves before
    /// its peer listener starts (`embed/etcd.go:276`). A stream writer that
    /// gets a connection sets its encoder before it says it is established
    /// (`rafthttp/stream.go:249`; 3.4.23 prints it too, at `stream.go:251`,
    /// which the 3.4 zap lines here still lack).
    fn before(&mut self, caller: &str, o: &Map<String, Value>, z: &ZapCtx) -> Vec<String> {
        match caller {
            "rafthttp/stream.go:274" => vec![object(
                "info",
                get(o, "ts"),
                "rafthttp/stream.go:249",
                "set message encoder",
                vec![
                    ("from", format!("{:x}", z.local).into()),
                    ("to", get(o, "remote-peer-id").into()),
                    ("stream-type", get(o, "stream-writer-type").into()),
                ],
            )],
            "etcdserver/server.go:508" => {
                self.recovered = true;
                Vec::new()
            }
            "embed/etcd.go:307" => {
                self.banner = Some(o.clone());
                Vec::new()
            }
            // embed, once the server runs (embed/etcd.go:276)
            "embed/etcd.go:580" => self.serving(o, z).into_iter().collect(),
            // restartNode or, with --force-new-cluster, restartAsStandaloneNode
            // (etcdserver/server.go:526-534 at v3.5.1)
            "etcdserver/raft.go:483" | "etcdserver/raft.go:556" if !self.recovered => vec![object(
                "info",
                get(o, "ts"),
                "etcdserver/server.go:526",
                "No snapshot found. Recovering WAL from scratch!",
                Vec::new(),
            )],
            _ => Vec::new(),
        }
    }

    /// The fields 3.5 writes differently for the same event.
    fn fields(&mut self, caller: &str, o: &mut Map<String, Value>, z: &ZapCtx) {
        match caller {
            "etcdserver/server.go:843" => {
                o.insert("local-server-version".into(), z.version.release().into());
            }
            "etcdserver/server.go:1206" => {
                self.incoming = o.get("incoming-leader-snapshot-index").cloned();
            }
            "etcdserver/server.go:1259" => {
                if let Some(index) = self.incoming.clone() {
                    o.insert("consistent-index".into(), index);
                }
            }
            "rafthttp/peer.go:255" | "rafthttp/peer.go:267" => peer_name(o),
            "etcdmain/etcd.go:203" => {
                o.insert("stacktrace".into(), FATAL_STACK.into());
            }
            _ => {}
        }
    }
}

impl State {
    /// `now serving peer/client/metrics`, with the banner's URLs.
    fn serving(&self, o: &Map<String, Value>, z: &ZapCtx) -> Option<String> {
        let banner = self.banner.as_ref()?;
        let url = |k: &'static str| (k, banner.get(k).cloned().unwrap_or_default());
        Some(object(
            "info",
            get(o, "ts"),
            "embed/etcd.go:276",
            "now serving peer/client/metrics",
            vec![
                ("local-member-id", format!("{:x}", z.local).into()),
                url("initial-advertise-peer-urls"),
                url("listen-peer-urls"),
                url("advertise-client-urls"),
                url("listen-client-urls"),
                url("listen-metrics-urls"),
            ],
        ))
    }
}

/// A raft line through 3.5's zap raft logger.
fn raft(o: Map<String, Value>) -> String {
    let level = get(&o, "level").to_string();
    let mut out = Map::new();
    for (k, v) in o {
        if k == "caller" {
            out.insert("logger".into(), "raft".into());
            out.insert(k, raft_caller(&level).into());
        } else {
            out.insert(k, v);
        }
    }
    render(&out)
}

/// `remote-peer-name`, before `remote-peer-active`: the writer `peer.pick`
/// chose for the dropped message (an inactive peer has no stream writer
/// working, so it is the pipeline's; a snapshot always goes by pipeline).
fn peer_name(o: &mut Map<String, Value>) {
    let active = o.get("remote-peer-active").cloned().unwrap_or(false.into());
    let name = match (active.as_bool(), get(o, "message-type")) {
        (Some(true), "MsgApp") => "streamMsgAppV2",
        (Some(true), t) if t != "MsgSnap" => "streamMsg",
        _ => "pipeline",
    };
    o.shift_remove("remote-peer-active");
    o.insert("remote-peer-name".into(), name.into());
    o.insert("remote-peer-active".into(), active);
}

/// The lines 3.5.1 prints after a line of `caller` that 3.4.23 did not.
fn after(caller: &str, o: &Map<String, Value>, z: &ZapCtx) -> Vec<String> {
    let ts = get(o, "ts");
    match caller {
        // NewServer: the v3 store is opened after the auth store
        // (mvcc/kvstore.go:415), then the quota (etcdserver/quota.go:94)
        "auth/store.go:1220" => vec![
            object(
                "info",
                ts,
                "mvcc/kvstore.go:415",
                "kvstore restored",
                vec![("current-rev", z.revision.into())],
            ),
            object(
                "info",
                ts,
                "etcdserver/quota.go:94",
                "enabled backend quota with default value",
                vec![
                    ("quota-name", "v3-applier".into()),
                    ("quota-size-bytes", 2_147_483_648u64.into()),
                    ("quota-size", "2.1 GB".into()),
                ],
            ),
        ],
        // adjustTicks of a server with peers: the advance waits for them
        // (etcdserver/server.go:744)
        "etcdserver/server.go:843" if !z.peers.is_empty() => vec![object(
            "info",
            ts,
            "etcdserver/server.go:744",
            "starting initial election tick advance",
            vec![(
                "election-ticks",
                (z.election_ms / z.heartbeat_ms.max(1)).max(2).into(),
            )],
        )],
        // the peer listener's cmux starts serving (embed/etcd.go:552)
        "embed/etcd.go:580" => vec![object(
            "info",
            ts,
            "embed/etcd.go:552",
            "cmux::serve",
            vec![("address", o.get("address").cloned().unwrap_or_default())],
        )],
        _ => Vec::new(),
    }
}

/// What 3.5.1 prints once the server is ready (capnslog's `embed: ready to
/// serve client requests`, which 3.4's zap leaves out): embed's line, then
/// etcdmain's systemd notification (`etcdmain/main.go`).
pub(super) fn ready(ts: &str) -> Vec<String> {
    [
        ("embed/serve.go:98", "ready to serve client requests"),
        ("etcdmain/main.go:47", "notifying init daemon"),
        ("etcdmain/main.go:53", "successfully notified init daemon"),
    ]
    .iter()
    .map(|(caller, msg)| object("info", ts, caller, msg, Vec::new()))
    .collect()
}

/// `Running: ` (`etcdmain/etcd.go:72`): etcd's command line, first of all.
pub(super) fn running(ts: Value, args: &[String]) -> String {
    let mut o = Map::new();
    o.insert("level".into(), "info".into());
    o.insert("ts".into(), ts);
    o.insert("caller".into(), "etcdmain/etcd.go:72".into());
    o.insert("msg".into(), "Running: ".into());
    o.insert("args".into(), args.to_vec().into());
    render(&o)
}

/// The Go stack of 3.5.1's fatal start-up error (`etcdmain/etcd.go:203`), as
/// the recorded release build prints it.
const FATAL_STACK: &str = "go.etcd.io/etcd/server/v3/etcdmain.startEtcdOrProxyV2\n\t/tmp/etcd-release-3.5.1/etcd/release/etcd/server/etcdmain/etcd.go:203\ngo.etcd.io/etcd/server/v3/etcdmain.Main\n\t/tmp/etcd-release-3.5.1/etcd/release/etcd/server/etcdmain/main.go:40\nmain.main\n\t/tmp/etcd-release-3.5.1/etcd/release/etcd/server/main.go:32\nruntime.main\n\t/home/remote/sbatsche/.gvm/gos/go1.16.3/src/runtime/proc.go:225";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_3_4_caller_moves_once() {
        for (i, m) in MOVES.iter().enumerate() {
            let twice = MOVES[i + 1..]
                .iter()
                .any(|n| n.from == m.from && n.msg == m.msg);
            assert!(!twice, "{} twice", m.from);
        }
    }

    #[test]
    fn a_raft_line_goes_through_the_zap_raft_logger() {
        let line = r#"{"level":"info","ts":"2026-11-26T09:43:46.643Z","caller":"raft/raft.go:706","msg":"b71f75320dc06a6c became follower at term 0"}"#;
        let z = ZapCtx::default();
        assert_eq!(
            rewrite(vec![line.into()], &z),
            [
                r#"{"level":"info","ts":"2026-11-26T09:43:46.643Z","logger":"raft","caller":"etcdserver/zap_raft.go:77","msg":"b71f75320dc06a6c became follower at term 0"}"#
            ]
        );
    }
}
