#![cfg(not(target_arch = "wasm32"))]
//! `etcd --logger=zap`: the playground's zap lines against real etcd 3.4.23's.
//!
//! `tests/reference-run-b/zap/*.log` are zap logs of real etcd 3.4.23 runs
//! (the reference scenarios 01–07, 09-01, -02, -05 recorded again with
//! `--logger=zap`, start-up errors, snapshots, pre-vote, and small loopback
//! runs; `ZAP-MAPPING.md` there maps each capnslog line kind to its zap form). `tests/scripts/zap-logger.sh` runs the same kind
//! of cluster in the playground. Every zap line the playground prints must be a
//! JSON object starting `level`, `ts`, `caller`, `msg`, with a message real etcd
//! printed from the same `caller`, and (for the server's lines) the same field
//! names in the same order. A snapshot sent to a new member
//! (`snapshot-new-member.sh`, real: `zx-snapshot-new-member.log`) logs the same
//! transfer, restore and recovery lines as real etcd, in the same order.
use std::collections::BTreeMap;

use quorum_playground::shell::runner::{run_source, RunOptions};
use serde_json::{Map, Value};

/// Real zap lines by (caller, msg): their field names, in order.
fn real_lines() -> BTreeMap<(String, String), Vec<Vec<String>>> {
    let mut out: BTreeMap<(String, String), Vec<Vec<String>>> = BTreeMap::new();
    let dir = std::fs::read_dir("tests/reference-run-b/zap").expect("zap logs recorded");
    for entry in dir.filter_map(Result::ok) {
        if entry.path().extension().is_none_or(|e| e != "log") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        for line in text.lines() {
            // some recordings prefix each line with its member: `[node01] {…}`
            let line = match line.strip_prefix('[').and_then(|l| l.split_once("] ")) {
                Some((_, rest)) => rest,
                None => line,
            };
            if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(line) {
                let (caller, msg) = key(&o);
                out.entry((caller, msg)).or_default().push(fields(&o));
            }
        }
    }
    out
}

fn key(o: &Map<String, Value>) -> (String, String) {
    let get = |k: &str| o.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let caller = get("caller");
    let msg = get("msg");
    // raft's lines carry their text as msg: compare the kind of line
    if caller.starts_with("raft/") {
        return (caller, raft_kind(&msg));
    }
    (caller, msg)
}

/// A raft message without its IDs and numbers: `became leader at term`.
fn raft_kind(msg: &str) -> String {
    msg.split_whitespace()
        .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn fields(o: &Map<String, Value>) -> Vec<String> {
    o.keys()
        .filter(|k| !matches!(k.as_str(), "level" | "ts" | "caller" | "msg"))
        .cloned()
        .collect()
}

/// The scripts whose real runs were recorded again with `--logger=zap`: run
/// here with `--logger=zap` added to every etcd, and `zap-logger.sh`.
const ZAP_RUNS: &[&str] = &[
    "zap-logger",
    "01-single-node",
    "02-add-voter-quorum-loss",
    "03-remove-leader-follower",
    "04-learner",
    "05-reconfig-errors",
    "05d-strict-reconfig-off",
    "06-clustering-step-by-step",
    "07-learner-standby-failover",
    "09-partitions-01-leader-isolated",
    "09-partitions-02-follower-isolated",
    "09-partitions-05-learner",
    "snapshot-new-member",
];

fn playground_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for name in ZAP_RUNS {
        let src = std::fs::read_to_string(format!("tests/scripts/{name}.sh")).expect("script");
        let src = src.replace("$ etcd --name", "$ etcd --logger=zap --name");
        let opts = RunOptions {
            seed: 20,
            logs: true,
            ..Default::default()
        };
        let out = run_source(&src, opts).expect("parses");
        lines.extend(
            out.lines()
                .filter_map(|l| l.strip_prefix('[').and_then(|l| l.split_once("] ")))
                .map(|(_, text)| text.to_string())
                // a panic's Go stack is plain text with either logger
                .filter(|text| text.starts_with('{')),
        );
    }
    lines
}

#[test]
fn zap_lines_are_real_etcds() {
    let real = real_lines();
    let lines = playground_lines();
    assert!(
        lines.len() > 100,
        "the cluster logged ({} lines)",
        lines.len()
    );
    let mut unknown = Vec::new();
    let mut unrecorded = Vec::new();
    for line in &lines {
        let Ok(Value::Object(o)) = serde_json::from_str::<Value>(line) else {
            panic!("not a zap JSON line: {line}");
        };
        let first: Vec<&str> = o.keys().take(4).map(String::as_str).collect();
        assert_eq!(first, ["level", "ts", "caller", "msg"], "{line}");
        let ts = o.get("ts").and_then(Value::as_str).unwrap_or("");
        assert!(
            ts.len() == 24 && ts.ends_with('Z') && &ts[10..11] == "T",
            "zap's time stamp: {ts}"
        );
        let raft_kind_recorded = real.keys().any(|(_, m)| *m == key(&o).1);
        match real.get(&key(&o)) {
            // a raft line of a kind the recorded runs never printed: its caller
            // is taken from raft.go near the recorded ones (listed, not failed)
            None if key(&o).0.starts_with("raft/") && !raft_kind_recorded => {
                unrecorded.push(format!("{} | {}", key(&o).0, key(&o).1))
            }
            None => unknown.push(format!("{} | {}", key(&o).0, key(&o).1)),
            Some(seen) => {
                let ours = fields(&o);
                assert!(
                    key(&o).0.starts_with("raft/") || seen.contains(&ours),
                    "{line}\nfields {ours:?}, real etcd: {seen:?}"
                );
            }
        }
    }
    unrecorded.sort();
    unrecorded.dedup();
    println!(
        "raft line kinds not in the recorded runs:\n{}",
        unrecorded.join("\n")
    );
    unknown.sort();
    unknown.dedup();
    assert!(
        unknown.is_empty(),
        "zap lines real etcd did not print in the recorded runs:\n{}",
        unknown.join("\n")
    );
}

#[test]
fn a_fatal_start_is_a_warning_then_a_fatal_zap_line() {
    let src = "machine add n1 127.0.0.1\n\
               n1$ etcd --logger=zap --name n1 --initial-cluster other=http://127.0.0.1:2380\n";
    let out = run_source(
        src,
        RunOptions {
            seed: 1,
            logs: true,
            ..Default::default()
        },
    )
    .expect("parses");
    let lines: Vec<&str> = out.lines().collect();
    let [.., warn, fatal] = lines.as_slice() else {
        panic!("{out}");
    };
    assert!(warn.contains(r#""msg":"failed to start etcd""#), "{out}");
    assert!(
        fatal.contains(r#""level":"fatal""#)
            && fatal.contains(r#""caller":"etcdmain/etcd.go:271""#),
        "{out}"
    );
}

/// The callers of the snapshot transfer's, raft's restore and etcd's
/// recovery zap lines, and of the snapshots around them (`closed old backend
/// file` is left out: its goroutine lands anywhere among the recovery's lines).
const SNAPSHOT_CALLERS: &[&str] = &[
    "etcdserver/server.go:2127",
    "rafthttp/snapshot_sender.go:84",
    "etcdserver/snapshot_merge.go:70",
    "rafthttp/snapshot_sender.go:137",
    "etcdserver/server.go:2147",
    "rafthttp/http.go:268",
    "snap/db.go:67",
    "rafthttp/http.go:305",
    "raft/log.go:300",
    "raft/raft.go:1479",
    "raft/raft.go:1396",
    "etcdserver/server.go:1164",
    "etcdserver/raft.go:294",
    "etcdserver/server.go:1220",
    "etcdserver/server.go:1228",
    "etcdserver/server.go:1235",
    "etcdserver/server.go:1250",
    "etcdserver/server.go:1262",
    "etcdserver/server.go:1286",
    "etcdserver/server.go:1300",
    "etcdserver/server.go:1307",
    "etcdserver/server.go:1315",
    "etcdserver/server.go:1322",
    "etcdserver/server.go:1335",
    "etcdserver/server.go:1343",
    "membership/cluster.go:256",
    "membership/cluster.go:269",
    "etcdserver/server.go:1351",
    "etcdserver/server.go:1352",
    "etcdserver/server.go:1362",
    "etcdserver/server.go:1363",
    "etcdserver/server.go:1377",
    "etcdserver/server.go:1176",
    "etcdserver/server.go:1423",
    "etcdserver/server.go:2430",
    "etcdserver/server.go:2452",
    "etcdserver/server.go:2479",
];

/// One member's snapshot lines, in order: caller, message (raft's without
/// numbers and IDs) and field names.
fn snapshot_lines(text: &str, member: &str) -> Vec<(String, String, Vec<String>)> {
    let prefix = format!("[{member}] ");
    text.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter_map(|l| match serde_json::from_str::<Value>(l) {
            Ok(Value::Object(o)) => Some(o),
            _ => None,
        })
        .filter(|o| SNAPSHOT_CALLERS.contains(&key(o).0.as_str()))
        .map(|o| {
            let (caller, msg) = key(&o);
            (caller, msg, fields(&o))
        })
        .collect()
}

/// `tests/scripts/snapshot-new-member.sh` with `--logger=zap`: both members'
/// snapshot lines are the real run's (`zx-snapshot-new-member.log`), in the
/// same order, with the same fields.
#[test]
fn a_snapshot_transfer_logs_as_real_etcd_with_zap() {
    let src = std::fs::read_to_string("tests/scripts/snapshot-new-member.sh").expect("script");
    let src = src.replace("$ etcd --name", "$ etcd --logger=zap --name");
    let opts = RunOptions {
        seed: 1,
        logs: true,
        ..Default::default()
    };
    let ours = run_source(&src, opts).expect("parses");
    let real = std::fs::read_to_string("tests/reference-run-b/zap/zx-snapshot-new-member.log")
        .expect("recorded");
    for member in ["n1", "n2"] {
        let want = snapshot_lines(&real, member);
        assert!(want.len() > 10, "{member}: {want:?}");
        assert_eq!(snapshot_lines(&ours, member), want, "{member}");
    }
}
