//! Behaviours a person meets in the terminal, each checked against what etcd 3.4
//! does: listen addresses, flag checks, recovery paths, clients with several
//! endpoints, leadership moves and data dirs.
#![cfg(not(target_arch = "wasm32"))]

use quorum_playground::shell::parse;
use quorum_playground::shell::runner::run_one;
use quorum_playground::shell::session::Session;

const BOOT: &str = include_str!("../src/ui/boot.sh");

fn run(s: &mut Session, lines: &str) -> String {
    let mut out = String::new();
    for c in parse::parse_script(lines).expect("parses") {
        run_one(s, &c, false, &mut out);
    }
    out
}

fn booted() -> Session {
    let mut s = Session::new(1);
    run(&mut s, BOOT);
    s
}

fn log_of(s: &Session, machine: &str) -> String {
    s.world
        .logs
        .iter()
        .filter(|l| l.machine == machine)
        .map(|l| format!("{}\n", l.text))
        .collect()
}

#[test]
fn etcds_default_listen_urls_are_local_only() {
    // Without --listen-*-urls etcd listens on localhost: other machines are refused.
    let mut s = Session::new(1);
    let out = run(
        &mut s,
        "machine add a 10.0.0.1\nmachine add b 10.0.0.2\n\
         a$ etcd --name a --initial-advertise-peer-urls http://10.0.0.1:2380 \
         --initial-cluster a=http://10.0.0.1:2380 --advertise-client-urls http://10.0.0.1:2379\n\
         $ sleep 2\na$ etcdctl put k v\nb$ etcdctl --endpoints=http://10.0.0.1:2379 put k v\n",
    );
    assert!(out.contains("a$ etcdctl put k v\nOK\n"), "{out}");
    assert!(
        out.contains("all SubConns are in TransientFailure"),
        "a client on b is refused: {out}"
    );
}

#[test]
fn zero_intervals_fail_as_etcd_does() {
    let mut s = Session::new(1);
    run(
        &mut s,
        "machine add a\na$ etcd --heartbeat-interval 0\n$ sleep 1\n",
    );
    assert!(log_of(&s, "a").contains(
        "E | etcdmain: error verifying flags, --heartbeat-interval must be >0 (set to 0ms). See 'etcd --help'."
    ));
    run(&mut s, "a$ etcd --heartbeat-interval 300\n");
    assert!(log_of(&s, "a").contains(
        "error verifying flags, --election-timeout[1000ms] should be at least as 5 times as --heartbeat-interval[300ms]. See 'etcd --help'."
    ));
    let v = s.world.view();
    let a = v.machines.iter().find(|m| m.name == "a").expect("a");
    assert!(a.process.is_none());
    assert_eq!(a.last_exit.as_ref().map(|e| e.status), Some(1));
}

/// Real etcd 3.4.23, recorded for this test: listen client URLs set (by flag
/// or by `ETCD_LISTEN_CLIENT_URLS`) without advertised ones is refused, after
/// the timing checks, with a second line saying why (zap: `etcdmain/etcd.go:73`).
#[test]
fn listen_client_urls_without_advertised_ones_fail_as_etcd_does() {
    let mut s = Session::new(1);
    run(
        &mut s,
        "machine add a 127.0.0.77
         a$ etcd --name x --listen-client-urls http://127.0.0.77:2379 --listen-peer-urls http://127.0.0.77:2380
",
    );
    let log = log_of(&s, "a");
    assert!(log.contains(
        "E | etcdmain: error verifying flags, --advertise-client-urls is required when --listen-client-urls is set explicitly. See 'etcd --help'.
"
    ), "{log}");
    assert!(log.contains(
        "E | etcdmain: When listening on specific address(es), this etcd process must advertise accessible url(s) to each connected client.
"
    ));
    let out = run(
        &mut s,
        "a$ etcdctl --endpoints=127.0.0.77:2379 put a b
",
    );
    assert!(out.ends_with("Error: context deadline exceeded\n"), "{out}");
    // By variable too; the timing checks come first.
    run(
        &mut s,
        "a$ export ETCD_LISTEN_CLIENT_URLS=http://127.0.0.77:2379
a$ etcd --heartbeat-interval 0
",
    );
    assert!(log_of(&s, "a").ends_with(
        "error verifying flags, --heartbeat-interval must be >0 (set to 0ms). See 'etcd --help'.
"
    ));
    run(
        &mut s,
        "a$ etcd --logger zap
",
    );
    let log = log_of(&s, "a");
    let last: Vec<&str> = log.lines().rev().take(2).collect();
    assert!(last[1].contains(r#""caller":"etcdmain/etcd.go:66","msg":"failed to verify flags","error":"--advertise-client-urls is required when --listen-client-urls is set explicitly"}"#), "{log}");
    assert!(last[0].contains(r#""caller":"etcdmain/etcd.go:73","msg":"advertise client URLs are not set","error":"--advertise-client-urls is required when --listen-client-urls is set explicitly"}"#), "{log}");
    // Advertised URLs given: it starts.
    run(
        &mut s,
        "a$ etcd --advertise-client-urls http://127.0.0.77:2379
$ sleep 2
",
    );
    let out = run(
        &mut s,
        "a$ etcdctl --endpoints=127.0.0.77:2379 put a b
",
    );
    assert_eq!(out.lines().last(), Some("OK"), "{out}");
}

#[test]
fn force_new_cluster_after_a_restore() {
    let mut s = booted();
    let out = run(
        &mut s,
        "node01$ etcdctl put k v\nnode01$ etcdctl snapshot save snap.db\n\
         node01$ kill -9 etcd\nnode02$ kill -9 etcd\nnode03$ kill -9 etcd\n\
         node01$ etcdctl snapshot restore snap.db --name node01 \
         --initial-cluster node01=http://192.168.0.61:2380 \
         --initial-advertise-peer-urls http://192.168.0.61:2380 --data-dir r.etcd\n\
         node01$ etcd --name node01 --data-dir r.etcd --force-new-cluster \
         --listen-client-urls http://0.0.0.0:2379 --advertise-client-urls http://192.168.0.61:2379\n\
         $ sleep 3\nnode01$ etcdctl get k\n",
    );
    assert!(out.ends_with("node01$ etcdctl get k\nk\nv\n"), "{out}");
}

#[test]
fn clients_fail_over_to_a_live_endpoint() {
    let mut s = booted();
    let out = run(
        &mut s,
        "node01$ kill -9 etcd\n$ sleep 3\n\
         node02$ etcdctl --endpoints=http://192.168.0.61:2379,http://192.168.0.62:2379 put k v\n",
    );
    assert!(out.ends_with("put k v\nOK\n"), "{out}");
}

#[test]
fn move_leader_to_itself_and_to_a_follower() {
    let mut s = booted();
    let leader = s
        .world
        .view()
        .machines
        .into_iter()
        .filter_map(|m| m.process)
        .find(|p| p.role == quorum_playground::sim::view::Role::Leader)
        .expect("a leader");
    let id = format!("{:x}", leader.id);
    let ep =
        "--endpoints=http://192.168.0.61:2379,http://192.168.0.62:2379,http://192.168.0.63:2379";
    let out = run(&mut s, &format!("$ etcdctl {ep} move-leader {id}\n"));
    assert!(
        out.contains(&format!("Leadership transferred from {id} to {id}")),
        "{out}"
    );
    let other = leader
        .members
        .iter()
        .find(|m| m.id != leader.id)
        .expect("a follower");
    let out = run(
        &mut s,
        &format!("$ etcdctl {ep} move-leader {:x}\n", other.id),
    );
    assert!(
        out.contains(&format!(
            "Leadership transferred from {id} to {:x}",
            other.id
        )),
        "{out}"
    );
}

#[test]
fn a_running_members_data_dir_is_on_its_disk() {
    let mut s = booted();
    let out = run(
        &mut s,
        "node01$ ls\nnode01$ cp -a node01.etcd backup\nnode01$ ls\n\
         node01$ etcdctl snapshot restore backup/member/snap/db --data-dir node01.etcd\n",
    );
    assert!(out.contains("node01$ ls\nnode01.etcd/\n"), "{out}");
    assert!(out.contains("backup/\nnode01.etcd/\n"), "{out}");
    assert!(
        out.contains("Error: data-dir \"node01.etcd\" exists"),
        "{out}"
    );
}

#[test]
fn machine_names_ignore_case_and_rm_forgets_links() {
    let mut s = Session::new(1);
    let out = run(
        &mut s,
        "machine add node01\nmachine add Node01\nmachine add b\nnet cut node01 b\n\
         machine rm b\nmachine add b\nnet\n",
    );
    assert!(out.contains("machine: Node01: already exists"), "{out}");
    assert!(out.ends_with("net\nb <-> node01: up\n"), "{out}");
}

/// `--snapshot-count`: a server saves a snapshot once more entries than that
/// were applied since the last, and compacts its raft log keeping 5,000
/// entries (etcd 3.4's `SnapshotCatchUpEntries`); a member that was down for
/// longer than that catches up from a snapshot, and the logs say so.
#[test]
fn snapshots_compact_the_log_and_a_member_far_behind_catches_up_from_one() {
    let cluster =
        "node01=http://10.0.0.1:2380,node02=http://10.0.0.2:2380,node03=http://10.0.0.3:2380";
    let etcd = |n: u32| {
        format!(
            "node0{n}$ etcd --name node0{n} --snapshot-count 1000 \
             --initial-advertise-peer-urls http://10.0.0.{n}:2380 --listen-peer-urls http://10.0.0.{n}:2380 \
             --advertise-client-urls http://10.0.0.{n}:2379 --listen-client-urls http://10.0.0.{n}:2379 \
             --initial-cluster {cluster}\n"
        )
    };
    let mut s = Session::new(1);
    let mut script = String::new();
    for n in 1..=3 {
        script.push_str(&format!("machine add node0{n} 10.0.0.{n}\n"));
    }
    for n in 1..=3 {
        script.push_str(&etcd(n));
    }
    script.push_str("$ sleep 3\nnode03$ kill etcd\nnode03$ wait\n");
    for i in 0..6100 {
        script.push_str(&format!(
            "node01$ etcdctl --endpoints=http://10.0.0.1:2379 put k{i} v{i}\n"
        ));
    }
    run(&mut s, &script);
    let leader = log_of(&s, "node01") + &log_of(&s, "node02");
    for line in [
        "I | etcdserver: start to snapshot (applied: 1001, lastsnap: 0)",
        "I | etcdserver: saved snapshot at index 1001",
        "I | etcdserver: compacted raft log at 1",
        "I | etcdserver: saved snapshot at index 5005",
        "I | etcdserver: compacted raft log at 5\n",
        "I | etcdserver: saved snapshot at index 6006",
        "I | etcdserver: compacted raft log at 1006\n",
    ] {
        assert!(leader.contains(line), "{line}\n{leader}");
    }
    let before = log_of(&s, "node03");
    let out = run(
        &mut s,
        &format!(
            "{}$ sleep 5\nnode03$ etcdctl --endpoints=http://10.0.0.3:2379 get k6099\n",
            etcd(3)
        ),
    );
    assert!(out.ends_with("k6099\nv6099\n"), "{out}");
    let after = log_of(&s, "node03")[before.len()..].to_string();
    for line in [
        "I | etcdserver: applying snapshot at index",
        "I | etcdserver: raft applied incoming snapshot at index",
        // etcd's applySnapshot: the stores, then the transport's peers anew
        "I | etcdserver: restoring mvcc store...",
        "I | etcdserver: recovering cluster configuration...",
        "I | etcdserver/membership: set the cluster version to 3.4 from store",
        "I | etcdserver: removing old peers from network...",
        "I | rafthttp: removed peer",
        "I | etcdserver: adding peers from new cluster configuration into network...",
        "I | etcdserver: finished applying incoming snapshot at index",
    ] {
        assert!(after.contains(line), "{line}\n{after}");
    }
    // the transfer's own lines, as the real run printed them (n2 sent, n3
    // took it), time stamps, IDs and numbers aside
    let real = |name: &str| {
        std::fs::read_to_string(format!(
            "tests/reference-run-b/snapshot-catch-up/{name}.log"
        ))
        .expect("the real run is in the repository")
    };
    let leader = log_of(&s, "node01") + &log_of(&s, "node02");
    assert_eq!(sent_lines(&leader), sent_lines(&real("n2")), "{leader}");
    assert_eq!(
        received_lines(&after),
        received_lines(&real("n3")),
        "{after}"
    );
    assert_eq!(sent_lines(&leader).len(), 3);
    assert_eq!(received_lines(&after).len(), 8);
}

/// The sender's transfer lines: `start to send`, `wrote … out`, `sent out`.
fn sent_lines(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains("database snapshot"))
        .map(shape)
        .collect()
}

/// The receiver's lines from `receiving database snapshot` to etcd's
/// `applying snapshot`: the handler's, then raft's restore (other
/// goroutines' lines in between left out).
fn received_lines(log: &str) -> Vec<String> {
    let lines: Vec<&str> = log.lines().collect();
    let Some(start) = lines
        .iter()
        .position(|l| l.contains("receiving database snapshot"))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for l in &lines[start..] {
        if l.contains("snapshot") || l.contains("switched to configuration") {
            out.push(shape(l));
        }
        if l.contains("applying snapshot at index") {
            break;
        }
    }
    out
}

/// A log line without its time stamp, with member IDs (hex, or decimal in
/// `voters=(…)`) as `ID` and every other number (indexes, terms, sizes,
/// durations) as `N`.
fn shape(line: &str) -> String {
    // `2026-11-23 22:49:52.113867 I | …` and `raft2026/11/23 22:49:52 INFO: …`
    let stamped = line.starts_with(|c: char| c.is_ascii_digit()) || line.starts_with("raft2");
    let text = match line.splitn(3, ' ').nth(2) {
        Some(rest) if stamped => rest,
        _ => line,
    };
    let mut out = String::new();
    for word in text.split(' ') {
        let core = word.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        let id = core.len() >= 13 && core.chars().all(|c| c.is_ascii_hexdigit());
        if !out.is_empty() {
            out.push(' ');
        }
        if id {
            out.push_str(&word.replace(core, "ID"));
            continue;
        }
        let mut last_digit = false;
        for c in word.chars() {
            let digit = c.is_ascii_digit() || (last_digit && c == '.');
            if !digit {
                out.push(c);
            } else if !last_digit {
                out.push('N');
            }
            last_digit = digit;
        }
    }
    out
}

/// A member added after the leader compacted its log (`--snapshot-count 5`)
/// gets the leader's snapshot; puts within the 30 s it stays in flight skip
/// compaction. Every snapshot line both members print is the real run's
/// (`tests/reference-run-b/snapshot-catch-up/new-member-n*.log`, recorded
/// with `run-new-member.sh`), in the same order, time stamps, IDs and numbers
/// aside.
#[test]
fn a_new_member_catches_up_from_a_snapshot_as_real_etcd_logs_it() {
    let script = std::fs::read_to_string("tests/scripts/snapshot-new-member.sh").expect("script");
    let mut s = Session::new(1);
    let out = run(&mut s, &script);
    assert!(out.contains("get k19\nk19\nv19\n"), "{out}");
    for n in ["n1", "n2"] {
        let real = std::fs::read_to_string(format!(
            "tests/reference-run-b/snapshot-catch-up/new-member-{n}.log"
        ))
        .expect("the real run is in the repository");
        let ours = log_of(&s, n);
        assert_eq!(snapshot_story(&ours), snapshot_story(&real), "{n}:\n{ours}");
    }
    let skipped = "I | etcdserver: skip compaction since there is an inflight snapshot";
    assert!(log_of(&s, "n1").contains(skipped));
}

/// Every line about snapshots, compaction and the recovery from one, shaped.
fn snapshot_story(log: &str) -> Vec<String> {
    const WORDS: [&str; 6] = [
        "snapshot",
        "compact",
        "restor",
        "recover",
        "from store",
        "capabilities",
    ];
    log.lines()
        .filter(|l| !l.starts_with("==="))
        .filter(|l| WORDS.iter().any(|w| l.contains(w)))
        .map(shape)
        .collect()
}

/// A follower's data dir wiped and the member started again with its old
/// flags, as real etcd 3.4.23 answered
/// (`tests/findings/wiped-member-restarted-as-new.real.sh`, scenarios A and
/// D): with `--initial-cluster-state new` its peers say it was already
/// bootstrapped and it exits with 1; with `existing` it joins under its old
/// ID, the leader's first heartbeat commits past its empty log, and raft
/// panics (exit status 2) while the others go on.
#[test]
fn a_wiped_follower_started_again_under_its_old_id() {
    const CLUSTER: &str =
        "n1=http://127.0.0.71:2380,n2=http://127.0.0.72:2380,n3=http://127.0.0.73:2380";
    let etcd = |n: &str, state: &str, logger: &str| {
        let ip = format!("127.0.0.7{}", &n[1..]);
        format!(
            "{n}$ etcd --name {n} --data-dir {n}.etcd {logger} --initial-advertise-peer-urls http://{ip}:2380 \
             --listen-peer-urls http://{ip}:2380 --advertise-client-urls http://{ip}:2379 \
             --listen-client-urls http://{ip}:2379 --initial-cluster {CLUSTER} --initial-cluster-state {state}\n"
        )
    };
    for logger in ["", "--logger=zap"] {
        let mut s = Session::new(1);
        let mut script = String::from(
            "machine add n1 127.0.0.71\nmachine add n2 127.0.0.72\nmachine add n3 127.0.0.73\n",
        );
        for n in ["n1", "n2", "n3"] {
            script.push_str(&etcd(n, "new", logger));
        }
        script.push_str("$ sleep 3\nn1$ etcdctl --endpoints=http://127.0.0.71:2379 put a1 v1\n");
        run(&mut s, &script);
        let follower = ["n1", "n2", "n3"]
            .into_iter()
            .find(|n| s.world.server(n).is_some_and(|x| !x.is_leader()))
            .expect("a follower");
        let wipe = format!("{follower}$ kill -9 etcd\n{follower}$ rm -rf {follower}.etcd\n");
        run(
            &mut s,
            &(wipe + &etcd(follower, "new", logger) + "$ sleep 1\n"),
        );
        let log = log_of(&s, follower);
        let refused = if logger.is_empty() {
            "C | etcdmain: member {} has already been bootstrapped"
        } else {
            r#""msg":"discovery failed","error":"member {} has already been bootstrapped""#
        };
        let refused_here = refused.split("{}").all(|part| log.contains(part));
        assert!(refused_here, "{logger}: {log}");
        assert_eq!(exit_status(&s, follower), Some(1));
        run(
            &mut s,
            &(etcd(follower, "existing", logger) + "$ sleep 2\n"),
        );
        assert_eq!(
            exit_status(&s, follower),
            Some(2),
            "{}",
            log_of(&s, follower)
        );
        let log = log_of(&s, follower);
        let last: Vec<&str> = log.lines().rev().take(4).collect();
        if logger.is_empty() {
            let got: Vec<String> = last.iter().rev().map(|l| shape(l)).collect();
            let want: Vec<String> = real_panic_lines().iter().map(|l| shape(l)).collect();
            assert_eq!(got, want, "{log}");
        } else {
            let real = std::fs::read_to_string(
                "tests/reference-run-b/zap/zx-wiped-follower-existing-panic.log",
            )
            .expect("recorded");
            let panic = |text: &str| {
                text.lines()
                    .find(|l| l.contains(r#""level":"panic""#))
                    .map(|l| shape(&l[l.find(r#""caller""#).unwrap_or(0)..]))
            };
            assert!(panic(&real).is_some());
            assert_eq!(panic(&log), panic(&real), "{log}");
            let last = log.lines().last().unwrap_or("");
            assert_eq!(shape(last), shape(&real_panic_lines()[3]), "{log}");
        }
        let all = "http://127.0.0.71:2379,http://127.0.0.72:2379,http://127.0.0.73:2379";
        let put = run(
            &mut s,
            &format!("n2$ etcdctl --endpoints={all} put b1 w1\n"),
        );
        assert!(put.ends_with("OK\n"), "the others go on: {put}");
    }
}

/// The wiped follower's last lines in the real run (scenario D of
/// `tests/findings/wiped-member-restarted-as-new.real.sh`): the heartbeat's
/// higher term, the new term, raft's panic and Go's.
fn real_panic_lines() -> Vec<String> {
    let text = std::fs::read_to_string("tests/findings/wiped-member-restarted-as-new.real.txt")
        .expect("the real run is in the repository");
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("raft") && l.contains(" tocommit("))
        .expect("the real run panicked");
    lines[at.saturating_sub(2)..(at + 2).min(lines.len())]
        .iter()
        .map(|l| l.to_string())
        .collect()
}

fn exit_status(s: &Session, machine: &str) -> Option<i32> {
    let v = s.world.view();
    let m = v.machines.iter().find(|m| m.name == machine)?;
    m.last_exit.as_ref().map(|e| e.status)
}
