//! A snapshot POST behind a slow NIC, paced as TCP paces it (issue 16).
//!
//! Three voters hold ~20 MB of bbolt file (`check datascale --load=s` with
//! `--snapshot-count 5000`, so the leader compacts its log); the leader's
//! NIC is limited to 10 mbit with a 4 MB queue; a fourth member joins as a
//! learner and needs the whole store as a snapshot.
//!
//! Real etcd behind `tools/netproxy.py` gets TCP's backpressure: the proxy
//! reads a connection's bytes into the machine's FIFO queue only while they
//! fit (`backlog + chunk <= limit`), so the snapshot's connection keeps the
//! queue full and a heartbeat competes for room as it drains: it waits about
//! one queue (4 MiB at 10 mbit: 3.4 s), not the whole snapshot. The
//! simulation must show the same: the queue never holds more than its limit
//! and one chunk, heartbeats to the other voters keep arriving (no gap longer
//! than one queue's drain and a margin), and the snapshot arrives once its
//! bytes have left at the NIC's rate (size × 8 / rate after it started),
//! and the follower's handler logs that transfer as its `took` (etcd's
//! `http.go` times it from the POST's head to the file saved).
#![cfg(not(target_arch = "wasm32"))]

use quorum_playground::shell::session::Session;
use quorum_playground::sim::world::Action;

const RATE_BPS: u64 = 10_000_000;
/// `tc`'s `4mb` (and the shell's): 4 MiB.
const LIMIT_BYTES: u64 = 4 << 20;
/// `tools/netproxy.py`'s read size: what may stand above the limit.
const CHUNK_BYTES: u64 = 16_384;

fn etcd(n: u32, state: &str) -> String {
    let cluster =
        "node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380";
    let cluster = match state {
        "new" => cluster.to_string(),
        _ => format!("{cluster},node04=http://10.200.0.4:2380"),
    };
    format!(
        "node0{n}$ etcd --name node0{n} --initial-advertise-peer-urls http://10.200.0.{n}:2380 \
         --listen-peer-urls http://10.200.0.{n}:2380 --advertise-client-urls http://10.200.0.{n}:2379 \
         --listen-client-urls http://10.200.0.{n}:2379 --initial-cluster {cluster} \
         --initial-cluster-state {state} --snapshot-count 5000 --election-timeout 5000"
    )
}

/// The cluster with its data, the leader's NIC limited, node04 added and
/// started (its snapshot on its way).
fn joined() -> Session {
    let mut s = Session::new(1);
    let mut script = vec![];
    for n in 1..=4 {
        script.push(format!("$ machine add node0{n} 10.200.0.{n}"));
    }
    for n in 1..=3 {
        script.push(etcd(n, "new"));
    }
    script.push("$ sleep 8".into());
    script
        .push("node01$ etcdctl --endpoints=http://10.200.0.1:2379 check datascale --load=s".into());
    script.push("$ sleep 5".into());
    script.push("$ net rate node01 10mbit limit 4mb".into());
    script.push("node01$ etcdctl --endpoints=http://10.200.0.1:2379 member add node04 --learner --peer-urls=http://10.200.0.4:2380".into());
    for line in &script {
        let out = s.run_typed(line);
        assert_eq!(out.output.status, 0, "{line}: {}", out.output.merged());
    }
    let leader = s.run_typed("node01$ etcdctl --endpoints=http://10.200.0.1:2379 endpoint status");
    assert!(
        leader.output.merged().contains(", true, false,"),
        "node01 leads: {}",
        leader.output.merged()
    );
    s.run_typed(&etcd(4, "existing"));
    s.world.set_wire_log(true);
    s
}

/// What the transfer showed, millisecond by millisecond.
#[derive(Debug, Default)]
struct Seen {
    /// The most bytes node01's NIC queue held.
    backlog_max: u64,
    /// When the POST started and its size (the leader's wire record).
    post: Option<(u64, u64)>,
    /// When node04 had the snapshot (its handler's line).
    received_ms: Option<u64>,
    /// The handler's `took` on that line (ms).
    took_ms: Option<f64>,
    /// Each heartbeat from node01 to node02 and node03: when it arrives.
    heartbeats: Vec<(String, u64)>,
}

fn watch(s: &mut Session) -> Seen {
    let mut seen = Seen::default();
    let mut last_seq = None;
    let start = s.world.now_ms();
    let mut logs_seen = s.world.logs().len();
    while seen.received_ms.is_none() && s.world.now_ms() < start + 60_000 {
        assert!(s.world.apply(Action::Advance { ms: 1 }).is_ok());
        seen.backlog_max = seen.backlog_max.max(s.world.nic("node01").1);
        for w in s.world.wire_log().newest(256) {
            if last_seq.is_some_and(|l| w.seq <= l) {
                continue;
            }
            last_seq = Some(w.seq);
            if &*w.from == "node01" && w.type_name == "MsgHeartbeat" && &*w.to != "node04" {
                seen.heartbeats.push((w.to.to_string(), w.arrive_ms));
            }
            if w.type_name == "MsgSnapshot" && seen.post.is_none() {
                seen.post = Some((w.sent_ms, 0));
            }
        }
        let logs = &s.world.logs()[logs_seen..];
        logs_seen += logs.len();
        let got = logs.iter().find(|l| {
            l.machine == "node04"
                && l.text
                    .contains("successfully received and saved database snapshot")
        });
        if let Some(l) = got {
            seen.received_ms = Some(l.ms);
            seen.took_ms = took_ms(&l.text);
        }
    }
    // the file's exact bytes (`wrote database snapshot out [total bytes: N]`)
    let size = s.world.logs().iter().find_map(|l| {
        let rest = l
            .text
            .split("wrote database snapshot out [total bytes: ")
            .nth(1)?;
        rest.split(']').next()?.parse::<u64>().ok()
    });
    if let (Some((at, _)), Some(size)) = (seen.post, size) {
        seen.post = Some((at, size));
    }
    seen
}

/// The `took: …]` of the handler's line, as Go prints a duration (`16.4s`,
/// `52.2ms`), in ms.
fn took_ms(line: &str) -> Option<f64> {
    let took = line.split("took: ").nth(1)?.trim_end_matches(']');
    match took.strip_suffix("ms") {
        Some(ms) => ms.parse().ok(),
        None => took
            .strip_suffix('s')?
            .parse::<f64>()
            .ok()
            .map(|s| s * 1000.0),
    }
}

/// The longest time between `start` and the first heartbeat to `to`
/// arriving after it, and between two heartbeats to `to` arriving, up to `end`.
fn longest_gap(seen: &Seen, to: &str, start: u64, end: u64) -> u64 {
    let mut arrivals: Vec<u64> = seen
        .heartbeats
        .iter()
        .filter(|(t, at)| t == to && *at >= start && *at <= end)
        .map(|(_, at)| *at)
        .collect();
    arrivals.sort_unstable();
    let mut prev = start;
    let mut gap = 0;
    for at in arrivals.into_iter().chain([end]) {
        gap = gap.max(at - prev);
        prev = at;
    }
    gap
}

#[test]
fn a_snapshot_fills_the_queue_to_its_limit_and_heartbeats_wait_one_queue() {
    let mut s = joined();
    let seen = watch(&mut s);
    let (post_ms, size) = seen.post.expect("the leader sent a snapshot");
    let received = seen.received_ms.expect("node04 took the snapshot");
    let took = received - post_ms;
    let drain_ms = LIMIT_BYTES * 8 * 1000 / RATE_BPS;
    let gaps: Vec<u64> = ["node02", "node03"]
        .iter()
        .map(|to| longest_gap(&seen, to, post_ms, received))
        .collect();
    println!(
        "snapshot {size} bytes, started {post_ms} ms, taken {took} ms later; \
         backlog max {} bytes; longest heartbeat gaps {gaps:?} ms; one queue drains in {drain_ms} ms; \
         the handler's took: {:?} ms",
        seen.backlog_max, seen.took_ms
    );
    assert!(size > 14_000_000, "a big snapshot: {size}");
    assert!(
        seen.backlog_max <= LIMIT_BYTES + CHUNK_BYTES,
        "the queue holds at most its limit and one chunk: {}",
        seen.backlog_max
    );
    assert!(
        seen.backlog_max > LIMIT_BYTES - 2 * CHUNK_BYTES,
        "the snapshot fills the queue: {}",
        seen.backlog_max
    );
    for gap in &gaps {
        assert!(
            *gap < drain_ms + 500,
            "heartbeats wait about one queue, not the snapshot: {gaps:?}"
        );
    }
    // the handler's `took` is the transfer: from its first bytes to its last
    let logged = seen.took_ms.expect("the handler's took");
    assert!(
        logged > took as f64 - 500.0 && logged <= took as f64 + 100.0,
        "took {logged} ms, the POST {took} ms"
    );
    let serial_ms = size * 8 * 1000 / RATE_BPS;
    assert!(
        took >= serial_ms && took < serial_ms + 2_000,
        "the snapshot arrives once its bytes left at the rate: {took} ms for {serial_ms} ms of bytes"
    );
}

/// A POST whose link is cut while its chunks still wait fails (its sender
/// logs it and raft hears `SnapshotFailure`); once the link is back, raft
/// sends a new snapshot, which arrives whole.
#[test]
fn a_snapshot_cut_midway_fails_and_is_sent_again() {
    let mut s = joined();
    let out = s.run_typed("$ sleep 5");
    assert_eq!(out.output.status, 0);
    s.run_typed("$ net cut node01 node04");
    s.run_typed("$ sleep 1");
    s.run_typed("$ net heal node01 node04");
    s.run_typed("$ sleep 40");
    let lines = |machine: &str, text: &str| -> Vec<u64> {
        let logs = s.world.logs().iter();
        logs.filter(|l| l.machine == machine && l.text.contains(text))
            .map(|l| l.ms)
            .collect()
    };
    let started = lines("node01", "start to send database snapshot");
    let failed = lines("node01", "failed to be sent out");
    let received = lines(
        "node04",
        "successfully received and saved database snapshot",
    );
    println!("started {started:?}, failed {failed:?}, received {received:?}");
    for l in s
        .world
        .logs()
        .iter()
        .filter(|l| l.text.contains("failed to be sent out"))
    {
        println!("{}", l.text);
    }
    assert_eq!(failed.len(), 1, "the cut POST fails");
    assert!(started.len() >= 2, "raft sends it again");
    assert_eq!(received.len(), 1, "the second one arrives");
    assert!(received[0] > started[1], "{received:?} {started:?}");
}
