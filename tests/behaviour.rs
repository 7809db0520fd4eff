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
}
