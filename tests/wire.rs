//! What the map draws of raft, read from the world natively: the wire log's
//! records (kinds, fields, dropped messages), the election timers (reset by
//! heartbeats, running down without a leader) and a candidate's vote tally,
//! and each record's time on the way: its link's latency and its wait on a
//! slow NIC (what the map flies a dot for).
//! The log is an observation: keeping it changes nothing in the world.

use quorum_playground::shell::session::Session;
use quorum_playground::sim::etcd::request::Request;
use quorum_playground::sim::view::WorldView;
use quorum_playground::sim::wire::WireKind;
use quorum_playground::sim::world::Action;

fn cluster(wire: bool) -> Session {
    let mut s = Session::new(1);
    s.world.set_wire_log(wire);
    for line in quorum_playground::lessons::CLUSTER_SCRIPT.lines() {
        if !line.trim().is_empty() && !line.starts_with('#') {
            s.run_typed(line);
        }
    }
    s
}

fn advance(s: &mut Session, ms: u64) {
    s.world.apply(Action::Advance { ms }).expect("time passes");
}

fn timer_left(v: &WorldView, machine: &str) -> f64 {
    let t = v
        .timers
        .iter()
        .find(|t| t.machine == machine)
        .expect("a timer");
    assert!(t.timeout_ms > 0);
    1.0 - t.elapsed_ms as f64 / t.timeout_ms as f64
}

#[test]
fn a_healthy_cluster_sends_heartbeats_and_replies_with_their_fields() {
    let mut s = cluster(true);
    advance(&mut s, 1000);
    let v = s.world.view();
    assert!(!v.wire.is_empty());
    assert!(v.wire.windows(2).all(|w| w[1].seq == w[0].seq + 1));
    let hb = v
        .wire
        .iter()
        .find(|w| w.kind == WireKind::Heartbeat)
        .expect("a heartbeat");
    assert_eq!(hb.type_name, "MsgHeartbeat");
    assert_eq!(&*hb.from, "node01");
    assert!(hb.term >= 2 && !hb.dropped && hb.arrive_ms > hb.sent_ms);
    assert!(v
        .wire
        .iter()
        .any(|w| w.kind == WireKind::HeartbeatResponse && &*w.to == "node01"));
    // followers' timers are reset by each heartbeat: never near their end
    for m in ["node02", "node03"] {
        assert!(timer_left(&v, m) > 0.7, "{m}: {}", timer_left(&v, m));
    }
}

#[test]
fn a_cut_link_drops_and_the_log_says_so() {
    let mut s = cluster(true);
    s.run_typed("net cut node01 node02");
    advance(&mut s, 500);
    let v = s.world.view();
    let dropped: Vec<_> = v.wire.iter().filter(|w| w.dropped).collect();
    assert!(!dropped.is_empty());
    assert!(dropped
        .iter()
        .all(|w| (&*w.from, &*w.to) == ("node01", "node02")
            || (&*w.from, &*w.to) == ("node02", "node01")));
}

#[test]
fn without_a_leader_timers_run_down_and_a_candidate_counts_votes() {
    let mut s = cluster(true);
    s.run_typed("node01$ kill -9 etcd");
    advance(&mut s, 300);
    let early = s.world.view();
    let (a, b) = (timer_left(&early, "node02"), timer_left(&early, "node03"));
    advance(&mut s, 300);
    let later = s.world.view();
    assert!(timer_left(&later, "node02") < a && timer_left(&later, "node03") < b);
    // step until someone campaigns: its tally counts its own vote of 3 voters
    let mut tally = None;
    for _ in 0..60 {
        advance(&mut s, 20);
        let v = s.world.view();
        if let Some(t) = v.timers.iter().find(|t| t.votes.is_some()) {
            tally = Some((t.machine.clone(), t.votes));
            break;
        }
    }
    let (who, votes) = tally.expect("a candidate");
    let (granted, _, voters) = votes.expect("votes");
    assert!(granted >= 1 && voters == 3, "{who}: {votes:?}");
    advance(&mut s, 2000);
    let v = s.world.view();
    assert!(v.wire.iter().any(|w| matches!(
        w.kind,
        WireKind::Vote | WireKind::PreVote | WireKind::VoteResponse | WireKind::PreVoteResponse
    )));
}

#[test]
fn keeping_the_log_changes_nothing_in_the_world() {
    let mut with = cluster(true);
    let mut without = cluster(false);
    for s in [&mut with, &mut without] {
        s.run_typed("etcdctl put a 1");
        s.run_typed("node02$ kill -9 etcd");
        advance(s, 5000);
    }
    assert_eq!(with.world.view(), without.world.view());
    assert_eq!(with.world.logs().len(), without.world.logs().len());
    assert!(without.world.view().wire.is_empty());
}

/// Each record's time on the way (arrive - sent) from `from` to `to`, of
/// `kind`, sent from `since` on.
fn times(v: &WorldView, from: &str, to: &str, kind: WireKind, since: u64) -> Vec<u64> {
    v.wire
        .iter()
        .filter(|w| &*w.from == from && &*w.to == to && w.kind == kind && !w.dropped)
        .filter(|w| w.sent_ms >= since)
        .map(|w| w.arrive_ms - w.sent_ms)
        .collect()
}

#[test]
fn a_record_arrives_after_its_links_latency() {
    let mut s = cluster(true);
    assert_eq!(
        s.run_typed("net delay node01 node02 200ms").output.status,
        0
    );
    // what was sent in the same millisecond, before the command, took 1 ms
    let since = s.world.now_ms() + 1;
    advance(&mut s, 1000);
    let v = s.world.view();
    let slow = times(&v, "node01", "node02", WireKind::Heartbeat, since);
    let fast = times(&v, "node01", "node03", WireKind::Heartbeat, since);
    assert!(!slow.is_empty() && !fast.is_empty());
    assert!(slow.iter().all(|&t| t == 200), "{slow:?}");
    assert!(fast.iter().all(|&t| t == 1), "{fast:?}");
    let back = times(&v, "node02", "node01", WireKind::HeartbeatResponse, since);
    assert!(
        !back.is_empty() && back.iter().all(|&t| t == 200),
        "{back:?}"
    );
}

#[test]
fn a_record_includes_its_wait_on_a_slow_nic() {
    let mut s = cluster(true);
    // 100 kbit: 12.5 bytes a millisecond
    assert_eq!(s.run_typed("net rate node01 100kbit").output.status, 0);
    advance(&mut s, 500);
    let put = Request::Put {
        key: "big".into(),
        value: "v".repeat(10_000),
    };
    let _ = s.world.call("node01", "192.168.0.61:2379", put, 20_000);
    let v = s.world.view();
    // the 10 kB append leaves node01 in at least 800 ms; the second follower's
    // waits behind the first's
    let mut appends: Vec<(u64, u64)> = v
        .wire
        .iter()
        .filter(|w| &*w.from == "node01" && w.kind == WireKind::Append && w.entries > 0)
        .filter(|w| !w.dropped)
        .map(|w| (w.sent_ms, w.arrive_ms - w.sent_ms))
        .collect();
    appends.sort();
    let big: Vec<u64> = appends.iter().map(|a| a.1).filter(|&t| t >= 800).collect();
    assert!(big.len() >= 2, "{appends:?}");
    assert!(
        big.iter().any(|&t| t >= 1600),
        "one waits for the other: {appends:?}"
    );
    // the followers' NICs are fast: their replies take the link's 1 ms
    let replies = times(&v, "node02", "node01", WireKind::AppendResponse, 0);
    assert!(
        !replies.is_empty() && replies.iter().all(|&t| t == 1),
        "{replies:?}"
    );
}
