//! A learner's catch-up as the learner panel measures it (`sim::quorum`'s
//! `LearnerInfo` and `CatchUpMeter`), over time, in the two ways etcd catches
//! a learner up: entries from the log (lesson 001 step 23: ~10 MB of log, the
//! leader's NIC at 10 mbit), and a snapshot of the store (lesson 005 step 4:
//! ~20 MB of bbolt file at 10 mbit). In both, the bar and the bytes pass
//! through values between 0 % and 100 % as simulated time passes, the time
//! left becomes known from the observed rate, and `member promote` is refused
//! until etcd's rule (match at 90 % of the leader's) holds.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use quorum_playground::shell::session::Session;
use quorum_playground::sim::quorum::{self, CatchUpMeter, LearnerInfo};

/// Figure 1's set-up, then node04 added as a learner and started.
const LEARNER_JOINS: &str = "\
node01$ etcdctl --endpoints=http://10.200.0.1:2379 member add node04 --peer-urls=http://10.200.0.4:2380 --learner
node04$ etcd --name node04 --initial-advertise-peer-urls http://10.200.0.4:2380 --listen-peer-urls http://10.200.0.4:2380 --advertise-client-urls http://10.200.0.4:2379 --listen-client-urls http://10.200.0.4:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380,node04=http://10.200.0.4:2380 --initial-cluster-state existing";

const SNAPSHOT_CATCH_UP: &str = "\
$ machine add node01 10.0.5.1
$ machine add node02 10.0.5.2
node01$ etcd --name node01 --initial-advertise-peer-urls http://10.0.5.1:2380 --listen-peer-urls http://10.0.5.1:2380 --advertise-client-urls http://10.0.5.1:2379 --listen-client-urls http://10.0.5.1:2379 --initial-cluster node01=http://10.0.5.1:2380 --snapshot-count 5000
$ sleep 1
node01$ etcdctl --endpoints=http://10.0.5.1:2379 check datascale --load=s
$ net rate node01 10mbit limit 4mb
node01$ etcdctl --endpoints=http://10.0.5.1:2379 member add node02 --learner --peer-urls=http://10.0.5.2:2380
node02$ etcd --name node02 --initial-advertise-peer-urls http://10.0.5.2:2380 --listen-peer-urls http://10.0.5.2:2380 --advertise-client-urls http://10.0.5.2:2379 --listen-client-urls http://10.0.5.2:2379 --initial-cluster node01=http://10.0.5.1:2380,node02=http://10.0.5.2:2380 --initial-cluster-state existing --snapshot-count 5000";

/// One sample of the panel's numbers.
#[derive(Debug)]
struct Sample {
    at_ms: u64,
    bar: f64,
    bytes: f64,
    snapshot: Option<(u64, u64)>,
    left: u64,
    seconds_left: Option<f64>,
    promote_ok: bool,
}

/// Runs `script`, then samples the (only) learner every `step_ms` for `n` steps.
fn samples(script: &str, step_ms: u64, n: usize) -> Vec<Sample> {
    let mut s = Session::new(1);
    for line in script.lines() {
        let out = s.run_typed(line);
        assert!(out.output.status == 0, "{line}: {}", out.output.merged());
    }
    let mut meter = CatchUpMeter::default();
    let mut out = Vec::new();
    for _ in 0..n {
        s.run_typed(&format!("$ sleep {}", step_ms as f64 / 1000.0));
        let ls: Vec<LearnerInfo> = quorum::learners(&s.world.view());
        meter.observe(&ls);
        let l = ls.first().expect("one learner");
        let b = l.bytes.expect("a leader measures the learner");
        out.push(Sample {
            at_ms: l.at_ms,
            bar: l.fraction,
            bytes: b.fraction(),
            snapshot: b.snapshot,
            left: b.left,
            seconds_left: meter.seconds_left(l),
            promote_ok: l.promote.is_ok(),
        });
    }
    out
}

fn between(x: f64) -> bool {
    x > 0.01 && x < 0.99
}

#[test]
fn a_log_catch_up_moves_through_intermediate_values() {
    let script = format!("{}\n{LEARNER_JOINS}", common::FIGURE1_BOOT);
    let s = samples(&script, 250, 16);
    for x in &s {
        println!("{x:?}");
    }
    let mid: Vec<&Sample> = s.iter().filter(|x| between(x.bar)).collect();
    assert!(mid.len() >= 3, "the bar stops between 0 and 100 %: {s:?}");
    assert!(s.iter().any(|x| between(x.bytes)), "{s:?}");
    assert!(
        mid.iter().all(|x| !x.promote_ok),
        "refused while behind: {s:?}"
    );
    assert!(
        mid.iter().any(|x| x.seconds_left.is_some_and(|t| t > 0.5)),
        "a time left once observed: {s:?}"
    );
    assert!(
        s.first().is_some_and(|x| x.seconds_left.is_none()),
        "unknown at first: {s:?}"
    );
    let last = s.last().expect("samples");
    assert_eq!((last.bar, last.left), (1.0, 0), "{s:?}");
    assert!(last.promote_ok, "{s:?}");
}

#[test]
fn a_snapshot_on_a_slow_nic_is_counted_as_its_bytes_leave() {
    let s = samples(SNAPSHOT_CATCH_UP, 1000, 25);
    for x in &s {
        println!("{x:?}");
    }
    let sending: Vec<&Sample> = s.iter().filter(|x| x.snapshot.is_some()).collect();
    assert!(
        sending.len() >= 5,
        "the snapshot takes seconds at 10 mbit: {s:?}"
    );
    let sent: Vec<u64> = sending
        .iter()
        .filter_map(|x| x.snapshot.map(|(sent, _)| sent))
        .collect();
    assert!(
        sent.windows(2).all(|w| w[0] < w[1]),
        "its bytes leave steadily: {sent:?}"
    );
    assert!(sending.iter().any(|x| between(x.bytes)), "{s:?}");
    assert!(
        sending.iter().all(|x| x.bar == 0.0 && !x.promote_ok),
        "refused until it is taken: {s:?}"
    );
    assert!(sending.iter().any(|x| x.seconds_left.is_some()), "{s:?}");
    let last = s.last().expect("samples");
    assert_eq!(
        (last.bar, last.left, last.snapshot),
        (1.0, 0, None),
        "{s:?}"
    );
    assert!(last.promote_ok && last.at_ms > sending[0].at_ms, "{s:?}");
}
