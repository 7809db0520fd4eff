#![cfg(not(target_arch = "wasm32"))]
//! etcd 3.5.1's zap lines: the playground's 3.5 servers against real 3.5.1's.
//!
//! `tests/reference-run-b/3.5/logs/SCENARIO/**/nodeNN.log` are the whole logs
//! of real etcd 3.5.1 running the reference scenarios (the partition
//! scenarios prefix each line with a receive time `HH:MM:SS.mmm| `). The
//! playground runs the same scripts (`tests/scripts/NN-*.sh`) with every
//! machine on 3.5: every zap line it prints must be a JSON object starting
//! `level`, `ts`, `caller`, `msg` (raft's with `logger` after `ts`, as 3.5
//! writes them), whose (caller, message) real 3.5.1 printed in one of the
//! recorded logs, with the same field names in the same order as one of real
//! etcd's lines of that kind. raft's messages are compared without their IDs
//! and numbers.
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use quorum_playground::shell::runner::{run_source, RunOptions};
use quorum_playground::sim::etcd::version::EtcdVersion;
use serde_json::{Map, Value};

const LOGS: &str = "tests/reference-run-b/3.5/logs";

/// The scripts run here, each with its recorded scenario's directory.
const RUNS: &[&str] = &[
    "01-single-node",
    "02-add-voter-quorum-loss",
    "03-remove-leader-follower",
    "04-learner",
    "06-clustering-step-by-step",
];

/// A line kind: caller and message (raft's without IDs and numbers).
type Kind = (String, String);

/// Every `*.log` under `dir`, depth first, in name order.
fn log_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            log_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "log") {
            out.push(path);
        }
    }
}

/// A recorded line without the partition scenarios' `HH:MM:SS.mmm| ` prefix.
fn strip_receive_time(line: &str) -> &str {
    match line.split_once("| ") {
        Some((t, rest)) if t.len() == 12 && t.as_bytes()[2] == b':' => rest,
        _ => line,
    }
}

/// Real zap lines by kind, with their field names in order; `scenarios`
/// limits them to those directories (`None`: every recording).
fn real_lines(scenarios: Option<&[&str]>) -> BTreeMap<Kind, BTreeSet<Vec<String>>> {
    let root = Path::new(LOGS);
    assert!(
        root.is_dir(),
        "{LOGS} is missing: the recordings are the reference"
    );
    let mut files = Vec::new();
    log_files(root, &mut files);
    let mut out: BTreeMap<Kind, BTreeSet<Vec<String>>> = BTreeMap::new();
    for path in files {
        let rel = path.strip_prefix(root).unwrap_or(&path);
        let scenario = rel.iter().next().and_then(|s| s.to_str()).unwrap_or("");
        if scenarios.is_some_and(|s| !s.contains(&scenario)) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for line in text.lines() {
            if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(strip_receive_time(line)) {
                out.entry(key(&o)).or_default().insert(fields(&o));
            }
        }
    }
    out
}

fn key(o: &Map<String, Value>) -> Kind {
    let get = |k: &str| o.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let (caller, msg) = (get("caller"), get("msg"));
    if o.get("logger").and_then(Value::as_str) == Some("raft") {
        return (caller, raft_kind(&msg));
    }
    if msg.starts_with("trace[") {
        // a trace's number is its own
        return (caller, raft_kind(&msg));
    }
    (caller, msg)
}

/// A message without its IDs and numbers: `became leader at term`.
/// A raft line's kind: its words without numbers, and the message type of
/// raft's one format `%x [term: %d] received a %s message with higher term
/// from %x [term: %d]` (raft.go's Step, the same line for every type: a
/// rejected `MsgPreVoteResp` prints it as a `MsgVote` does).
fn raft_kind(msg: &str) -> String {
    msg.split_whitespace()
        .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
        .map(
            |w| match w.starts_with("Msg") && msg.contains(" message with higher term") {
                true => "<MSG>",
                false => w,
            },
        )
        .collect::<Vec<_>>()
        .join(" ")
}

fn fields(o: &Map<String, Value>) -> Vec<String> {
    o.keys()
        .filter(|k| !matches!(k.as_str(), "level" | "ts" | "caller" | "msg"))
        .cloned()
        .collect()
}

/// The playground's zap lines for the scripts, every machine on etcd 3.5.
fn playground_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for name in RUNS {
        let src = std::fs::read_to_string(format!("tests/scripts/{name}.sh")).expect("script");
        let opts = RunOptions {
            seed: 20,
            logs: true,
            etcd: EtcdVersion::V3_5,
        };
        let out = run_source(&src, opts).expect("parses");
        lines.extend(
            out.lines()
                .filter_map(|l| l.strip_prefix('[').and_then(|l| l.split_once("] ")))
                .map(|(_, text)| text.to_string())
                .filter(|text| text.starts_with('{')),
        );
    }
    lines
}

#[test]
fn zap_lines_are_real_etcd_3_5s() {
    let real = real_lines(None);
    let in_scenarios = real_lines(Some(RUNS));
    let lines = playground_lines();
    let mut wrong = Vec::new();
    let mut printed: BTreeSet<Kind> = BTreeSet::new();
    for line in &lines {
        let Ok(Value::Object(o)) = serde_json::from_str::<Value>(line) else {
            panic!("not a zap JSON line: {line}");
        };
        let first: Vec<&str> = o.keys().take(4).map(String::as_str).collect();
        let raft = o.get("logger").and_then(Value::as_str) == Some("raft");
        let want: &[&str] = if raft {
            &["level", "ts", "logger", "caller"]
        } else {
            &["level", "ts", "caller", "msg"]
        };
        assert_eq!(first, want, "{line}");
        let ts = o.get("ts").and_then(Value::as_str).unwrap_or("");
        assert!(
            ts.len() == 24 && ts.ends_with('Z') && &ts[10..11] == "T",
            "zap's time stamp: {ts}"
        );
        let kind = key(&o);
        match real.get(&kind) {
            None => wrong.push(format!("not printed by 3.5.1: {} | {}", kind.0, kind.1)),
            Some(seen) if !seen.contains(&fields(&o)) => wrong.push(format!(
                "fields {:?} of {} | {}, real 3.5.1: {:?}",
                fields(&o),
                kind.0,
                kind.1,
                seen
            )),
            Some(_) => {
                printed.insert(kind);
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    let covered = printed.iter().filter(|k| in_scenarios.contains_key(*k));
    let missing: Vec<String> = in_scenarios
        .keys()
        .filter(|k| !printed.contains(*k))
        .map(|(c, m)| format!("{c} | {m}"))
        .collect();
    println!(
        "checked {} zap lines of {} kinds; kinds covered: {} of the {} real 3.5.1 printed in {}",
        lines.len(),
        printed.len(),
        covered.count(),
        in_scenarios.len(),
        RUNS.join(", ")
    );
    println!(
        "real 3.5.1's kinds the playground did not print:\n{}",
        missing.join("\n")
    );
    assert!(
        wrong.is_empty(),
        "zap lines unlike real etcd 3.5.1's:\n{}",
        wrong.join("\n")
    );
    assert!(
        lines.len() > 1000,
        "the clusters logged ({} lines)",
        lines.len()
    );
    assert!(printed.len() > 60, "kinds checked: {}", printed.len());
}

/// `etcd --logger=capnslog` on 3.5: `Running: ` and the refusal, nothing else.
#[test]
fn a_capnslog_start_is_refused_before_the_banner() {
    let src = "machine add n1 127.0.0.1 --etcd-version 3.5\n\
               n1$ etcd --logger=capnslog --name n1\n";
    let opts = RunOptions {
        seed: 1,
        logs: true,
        ..Default::default()
    };
    let out = run_source(src, opts).expect("parses");
    let lines: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("[n1] "))
        .collect();
    let [running, refused] = lines.as_slice() else {
        panic!("two lines: {out}");
    };
    let running: Map<String, Value> = serde_json::from_str(running).expect("zap");
    assert_eq!(
        running.get("caller"),
        Some(&Value::from("etcdmain/etcd.go:72"))
    );
    assert_eq!(running.get("msg"), Some(&Value::from("Running: ")));
    assert_eq!(
        running.get("args"),
        Some(&serde_json::json!([
            "etcd",
            "--logger=capnslog",
            "--name",
            "n1"
        ]))
    );
    let refused: Map<String, Value> = serde_json::from_str(refused).expect("zap");
    let keys: Vec<&str> = refused.keys().map(String::as_str).collect();
    assert_eq!(keys, ["level", "ts", "caller", "msg", "error"]);
    assert_eq!(
        refused.get("caller"),
        Some(&Value::from("etcdmain/etcd.go:74"))
    );
    assert_eq!(
        refused.get("msg"),
        Some(&Value::from("failed to verify flags"))
    );
    assert_eq!(
        refused.get("error"),
        Some(&Value::from("--logger=capnslog is removed in v3.5"))
    );
}
