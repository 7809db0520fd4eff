//! Raft's and etcd's promises (`sim::invariants`) hold after every event of
//! every scenario script in `tests/scripts/` (and `tests/scripts/3.5/` on
//! etcd 3.5) and every lesson, with several
//! seeds: faults, elections, membership changes, restores and forced clusters
//! included.
#![cfg(not(target_arch = "wasm32"))]

use quorum_playground::lessons;
use quorum_playground::shell::parse;
use quorum_playground::shell::runner::run_one;
use quorum_playground::shell::session::Session;
use quorum_playground::sim::etcd::version::EtcdVersion;

/// Runs `script` with the checker on; the violations, one per line.
fn violations(seed: u64, script: &str) -> String {
    violations_on(seed, script, EtcdVersion::V3_4)
}

/// The same, with `etcd` what `machine add` installs.
fn violations_on(seed: u64, script: &str, etcd: EtcdVersion) -> String {
    let mut s = Session::new(seed);
    s.default_etcd = etcd;
    s.world.check_invariants();
    let mut sink = String::new();
    for c in parse::parse_script(script).expect("parses") {
        run_one(&mut s, &c, false, &mut sink);
    }
    s.world
        .violations()
        .iter()
        .map(|v| format!("{v}\n"))
        .collect()
}

#[test]
fn every_scenario_script_keeps_the_promises() {
    let mut bad = String::new();
    let mut n = 0;
    // the 3.5.1 recordings' scripts run on etcd 3.5
    let dirs = [
        ("tests/scripts", EtcdVersion::V3_4),
        ("tests/scripts/3.5", EtcdVersion::V3_5),
    ];
    let scripts = dirs.iter().flat_map(|(dir, etcd)| {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir}: {e}"));
        let paths = entries.map(|e| e.expect("an entry").path());
        paths
            .filter(|p| p.extension().is_some_and(|x| x == "sh"))
            .map(move |p| (p, *etcd))
    });
    for (path, etcd) in scripts {
        let script = std::fs::read_to_string(&path).expect("readable");
        for seed in 1..=3 {
            n += 1;
            let v = violations_on(seed, &script, etcd);
            if !v.is_empty() {
                bad.push_str(&format!("{} (seed {seed}):\n{v}", path.display()));
            }
        }
    }
    assert!(n >= 85, "ran {n} scripts");
    assert_eq!(bad, "");
}

#[test]
fn every_lesson_keeps_the_promises() {
    let mut bad = String::new();
    let mut n = 0;
    for entry in std::fs::read_dir("static/lessons").expect("static/lessons") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|x| x != "lesson") {
            continue;
        }
        n += 1;
        let text = std::fs::read_to_string(&path).expect("readable");
        let name = path.display().to_string();
        let lesson = lessons::parse(&name, &text).expect("a lesson");
        let v = violations(lesson.seed, &lessons::script(&lesson));
        if !v.is_empty() {
            bad.push_str(&format!("{name}:\n{v}"));
        }
    }
    // `tests/lessons.rs` counts the lessons too; at least today's six.
    assert!(n >= 6, "ran {n} lessons");
    assert_eq!(bad, "");
}

/// A person can lose acknowledged writes (forcing a new cluster from a member
/// that missed them): the clients' history then has no linearization, and the
/// checker names the key and the write that was lost.
#[test]
fn forcing_a_new_cluster_from_a_stale_member_loses_an_acknowledged_write() {
    let mut s = Session::new(1);
    s.world.record_history();
    let boot = quorum_playground::chaos::boot();
    let node03 = boot[7].clone();
    let mut script = boot.join("\n");
    script.push_str(
        "\n$ net isolate node03\n$ sleep 2\n\
         node01$ etcdctl --endpoints=http://10.9.0.1:2379 put a 1\n\
         node01$ kill -9 etcd\nnode02$ kill -9 etcd\n$ net heal\n\
         node03$ kill etcd\nnode03$ wait\n",
    );
    script.push_str(&format!("{node03} --force-new-cluster\n$ sleep 3\n"));
    let mut out = String::new();
    for c in parse::parse_script(&script).expect("parses") {
        run_one(&mut s, &c, false, &mut out);
    }
    // Before anyone reads it, the write is named as lost.
    let lost = quorum_playground::sim::lost::lost_writes(&s.world);
    assert_eq!(lost.len(), 1, "{lost:?}");
    assert_eq!(
        (
            lost[0].key.as_str(),
            lost[0].value.as_deref(),
            lost[0].machine.as_str(),
            lost[0].now.as_deref()
        ),
        ("a", Some("1"), "node03", None)
    );
    assert!(
        lost[0].to_string().starts_with("put a 1 (acknowledged at "),
        "{}",
        lost[0]
    );
    let get = "node03$ etcdctl --endpoints=http://10.9.0.3:2379 get a\n";
    for c in parse::parse_script(get).expect("parses") {
        run_one(&mut s, &c, false, &mut out);
    }
    assert!(
        out.contains("put a 1\nOK\n"),
        "the write was acknowledged:\n{out}"
    );
    let e = quorum_playground::sim::history::check(s.world.history()).expect_err("lost");
    assert_eq!(e.key, "a");
    assert!(e.to_string().contains("put 1"), "{e}");
    assert!(e.to_string().contains("get -> (none)"), "{e}");
}
