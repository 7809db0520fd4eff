//! `etcdctl check perf` and `check datascale` (issue 16): their output against
//! real etcdctl 3.4.23's (tests/reference-run-b/check-*.txt, made by
//! tools/record-check/record.sh), line by line with numbers normalised; their
//! puts go through the simulated cluster (the revision moves by one per key,
//! the keys are gone after the cleanup); parse and usage errors from the table;
//! bbolt's DB size against real `endpoint status` figures; and the memory a
//! large generated data set holds.
#![cfg(not(target_arch = "wasm32"))]

use quorum_playground::shell::session::Session;

const CLUSTER: &[&str] = &[
    "machine add node01 192.168.0.61",
    "machine add node02 192.168.0.62",
    "machine add node03 192.168.0.63",
    "node01$ etcd --name node01 --initial-advertise-peer-urls http://192.168.0.61:2380 --listen-peer-urls http://192.168.0.61:2380 --advertise-client-urls http://192.168.0.61:2379 --listen-client-urls http://192.168.0.61:2379,http://127.0.0.1:2379 --initial-cluster node01=http://192.168.0.61:2380,node02=http://192.168.0.62:2380,node03=http://192.168.0.63:2380",
    "node02$ etcd --name node02 --initial-advertise-peer-urls http://192.168.0.62:2380 --listen-peer-urls http://192.168.0.62:2380 --advertise-client-urls http://192.168.0.62:2379 --listen-client-urls http://192.168.0.62:2379,http://127.0.0.1:2379 --initial-cluster node01=http://192.168.0.61:2380,node02=http://192.168.0.62:2380,node03=http://192.168.0.63:2380",
    "node03$ etcd --name node03 --initial-advertise-peer-urls http://192.168.0.63:2380 --listen-peer-urls http://192.168.0.63:2380 --advertise-client-urls http://192.168.0.63:2379 --listen-client-urls http://192.168.0.63:2379,http://127.0.0.1:2379 --initial-cluster node01=http://192.168.0.61:2380,node02=http://192.168.0.62:2380,node03=http://192.168.0.63:2380",
    "sleep 3",
];

fn cluster() -> Session {
    let mut s = Session::new(7);
    for l in CLUSTER {
        s.run_typed(l);
    }
    s
}

fn out(s: &mut Session, line: &str) -> (String, String, i32) {
    let ex = s.run_typed(line);
    (ex.output.stdout, ex.output.stderr, ex.output.status)
}

/// A line with its numbers as `N` and its runs of blanks as one.
fn shape(line: &str) -> String {
    let digits = regex::Regex::new(r"\d+").expect("regex");
    let blanks = regex::Regex::new(r" +").expect("regex");
    blanks
        .replace_all(&digits.replace_all(line, "N"), " ")
        .to_string()
}

/// etcdctl's stdout in a recording: each line's last `\r` state (what a
/// terminal shows at the end), normalised.
fn real_lines(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(file).expect("recording");
    text.lines()
        .skip_while(|l| !l.starts_with("$ etcdctl"))
        .skip(1)
        .take_while(|l| !l.starts_with("# exit="))
        .map(|l| shape(l.rsplit('\r').next().unwrap_or(l)))
        .collect()
}

fn sim_lines(stdout: &str) -> Vec<String> {
    stdout.lines().map(shape).collect()
}

/// The store's revision, from a `get`'s header.
fn revision(s: &mut Session, machine: &str) -> i64 {
    let (o, _, _) = out(s, &format!("{machine}$ etcdctl get nothing -w json"));
    let v: serde_json::Value = serde_json::from_str(&o).expect("json");
    v["header"]["revision"].as_i64().expect("revision")
}

fn db_size(s: &mut Session, machine: &str) -> u64 {
    let (o, _, _) = out(s, &format!("{machine}$ etcdctl endpoint status -w json"));
    let v: serde_json::Value = serde_json::from_str(&o).expect("json");
    v[0]["Status"]["dbSize"].as_u64().expect("dbSize")
}

#[test]
fn datascale_matches_a_real_run_and_writes_through_raft() {
    let mut s = cluster();
    let before = revision(&mut s, "node03");
    let (o, e, status) = out(&mut s, "node01$ etcdctl check datascale --load=s");
    assert_eq!((e.as_str(), status), ("", 0), "{o}");
    assert_eq!(
        sim_lines(&o),
        real_lines("tests/reference-run-b/check-datascale-s.txt")
    );
    // 10,000 puts and the cleanup's delete, each a revision, seen on a follower
    assert_eq!(revision(&mut s, "node03"), before + 10_001);
    let (left, _, _) = out(
        &mut s,
        "node02$ etcdctl get --prefix /etcdctl-check-datascale/ --consistency=s",
    );
    assert_eq!(left, "");
    // every member's bbolt grew as the real one did (20709376 bytes)
    for m in ["node01", "node02", "node03"] {
        let size = db_size(&mut s, m);
        assert!(
            (size as f64 / 20_709_376.0 - 1.0).abs() < 0.03,
            "{m}: {size}"
        );
    }
}

#[test]
fn perf_matches_a_real_run_and_writes_through_raft() {
    let mut s = cluster();
    let (t0, before) = (s.world.now_ms(), revision(&mut s, "node02"));
    let (o, e, status) = out(&mut s, "node01$ etcdctl check perf --load=s");
    assert_eq!((e.as_str(), status), ("", 0), "{o}");
    assert_eq!(
        sim_lines(&o),
        real_lines("tests/reference-run-b/check-perf-s.txt")
    );
    // 150 writes a second for the 60 simulated seconds, then the delete
    let puts = revision(&mut s, "node02") - before - 1;
    assert!((8_950..=9_050).contains(&puts), "{puts} puts");
    assert!(s.world.now_ms() - t0 >= 60_000);
    let (left, _, _) = out(&mut s, "node03$ etcdctl get --prefix /etcdctl-check-perf/");
    assert_eq!(left, "");
}

#[test]
fn check_refuses_as_etcdctl_does() {
    let mut s = cluster();
    let (_, e, st) = out(&mut s, "node01$ etcdctl check perf --load=xxl");
    assert_eq!((e.as_str(), st), ("Error: unknown load option xxl\n", 4));
    let (_, e, st) = out(&mut s, "node01$ etcdctl check datascale --prefix");
    assert_eq!(
        (e.as_str(), st),
        ("Error: flag needs an argument: --prefix\n", 1)
    );
    out(&mut s, "node01$ etcdctl put /mine/a b");
    let (_, e, st) = out(&mut s, "node01$ etcdctl check datascale --prefix /mine/");
    assert_eq!(
        (e.as_str(), st),
        (
            "Error: prefix \"/mine/\" has keys. Delete with etcdctl del --prefix /mine/ first\n",
            3
        )
    );
    // `--prefix VALUE` is check's string flag, not get's boolean
    let (o, _, st) = out(
        &mut s,
        "node01$ etcdctl check datascale --prefix /other/ --load small",
    );
    assert_eq!(st, 0, "{o}");
    let (o, _, _) = out(&mut s, "node01$ etcdctl get /mine/a --print-value-only");
    assert_eq!(o, "b\n");
}

/// The real figures: `puts=N dbSize=B` lines of check-dbsize.txt.
fn real_db_sizes() -> Vec<(u64, u64)> {
    let text =
        std::fs::read_to_string("tests/reference-run-b/check-dbsize.txt").expect("recording");
    text.lines()
        .filter_map(|l| {
            let (p, d) = l.strip_prefix("puts=")?.split_once(" dbSize=")?;
            Some((p.parse().ok()?, d.parse().ok()?))
        })
        .collect()
}

#[test]
fn db_size_grows_as_bbolt_did() {
    use quorum_playground::sim::etcd::kv::{Generated, Kv};
    let mut kv = Kv::default();
    let mut done = 0u64;
    for (puts, real) in real_db_sizes() {
        while done < puts {
            let mut head = [0u8; 10];
            head[..8].copy_from_slice(format!("{done:08}").as_bytes());
            kv.put_generated(&Generated {
                prefix: "/dbsize/".into(),
                head,
                key_len: 8,
                value_len: 1024,
            });
            done += 1;
        }
        let sim = kv.db_size();
        println!(
            "puts={puts} real={real} sim={sim} ({:+.2}%)",
            (sim as f64 / real as f64 - 1.0) * 100.0
        );
        assert!(
            (sim as f64 / real as f64 - 1.0).abs() < 0.03,
            "{puts}: {sim} vs {real}"
        );
    }
    // bbolt keeps its pages after a delete: the file grows by the tombstones
    let grown = kv.db_size();
    assert_eq!(kv.delete("/dbsize/", true), 100_000);
    let real_after_del = 144_224_256f64;
    let sim = kv.db_size();
    assert!(sim > grown);
    assert!((sim as f64 / real_after_del - 1.0).abs() < 0.03, "{sim}");
}

/// A stranger's link stays bounded: in a replay, `check datascale --load=l`
/// (1,000,000 puts, ~6.2 M events when typed: `bench --datascale-l`) stops at
/// the replay's budget and says so, though a typed one may run whole
/// (`sim::budget::CHECK_EVENTS`).
#[test]
fn a_replayed_large_check_stops_at_the_replay_budget() {
    use quorum_playground::sim::budget;
    let mut s = cluster();
    s.start_replay();
    let before = s.world.events();
    let (_, err, status) = out(&mut s, "node01$ etcdctl check datascale --load=l");
    // 124 (as `timeout`), unless the cut-off clients failed it first
    assert_ne!(status, 0, "{err}");
    assert!(
        err.contains(&format!(
            "a replay handles at most {} simulated events",
            budget::REPLAY_EVENTS
        )),
        "{err}"
    );
    assert!(s.world.events() - before <= budget::REPLAY_EVENTS);
    const { assert!(budget::CHECK_EVENTS > 6_300_000 && budget::COMMAND_EVENTS < 6_300_000) };
}
