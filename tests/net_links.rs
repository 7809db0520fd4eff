//! The network model against real etcd 3.4.23 behind a shaping proxy
//! (`tests/reference-run-b/net-01-200ms-link.txt`): a 200 ms link between the
//! leader and one follower. The recording's puts and gets, from each member's
//! host, run here in the same order on the page's cluster (node01 leads in
//! both); each must print what real etcdctl printed, exit as it did, and take
//! as long, within what the recording's own spread and etcdctl's start-up
//! (~20 ms of each wall time, absent here) allow. No election happens in
//! either.
#![cfg(not(target_arch = "wasm32"))]

use quorum_playground::lessons::CLUSTER_SCRIPT;
use quorum_playground::shell::parse;
use quorum_playground::shell::runner::run_one;
use quorum_playground::shell::session::Session;

const RECORDING: &str = include_str!("reference-run-b/net-01-200ms-link.txt");

/// One etcdctl call the recording made during the delay.
struct Call {
    host: String,
    args: String,
    status: i32,
    wall_ms: u64,
    output: String,
}

/// `put k1-from-2 from node02's host: exit=0 wall=0.422s t=…: OK`, during the delay.
fn calls() -> Vec<Call> {
    let start = RECORDING.find("### during the delay").expect("the delay");
    let end = RECORDING.find("### CLEAR").expect("the clear");
    let mut calls = Vec::new();
    for line in RECORDING[start..end].lines() {
        let Some((what, rest)) = line.split_once("'s host: exit=") else {
            continue;
        };
        let Some((args, host)) = what.rsplit_once(" from ") else {
            continue;
        };
        let (status, rest) = rest
            .split_once("  ")
            .or(rest.split_once(' '))
            .expect("exit");
        let wall = rest.trim_start_matches("wall=");
        let (wall, rest) = wall.split_once("s t=").expect("wall");
        let (_, output) = rest.split_once(": ").expect("output");
        // a round's puts write `rN` (the gets print it) in key `kN-from-M`
        let round = args
            .split('-')
            .next()
            .and_then(|k| k.rsplit_once('k'))
            .map(|(_, n)| n);
        let args = match args.strip_prefix("put ") {
            Some(key) => format!("put {key} r{}", round.expect("a round")),
            None => format!("{args} --print-value-only"),
        };
        calls.push(Call {
            host: host.to_string(),
            args,
            status: status.parse().expect("status"),
            wall_ms: (wall.parse::<f64>().expect("wall") * 1000.0).round() as u64,
            output: format!("{output}\n"),
        });
    }
    calls
}

fn booted() -> Session {
    let mut s = Session::new(1);
    for c in &parse::parse_script(CLUSTER_SCRIPT).expect("the boot script") {
        run_one(&mut s, c, false, &mut String::new());
    }
    s
}

/// The raft term every member reports.
fn terms(s: &mut Session) -> String {
    let out = s.run_typed(
        "node03$ etcdctl --endpoints=http://192.168.0.61:2379,http://192.168.0.62:2379,http://192.168.0.63:2379 endpoint status",
    );
    let lines = out.output.stdout.lines();
    lines
        .map(|l| l.split(", ").nth(5).unwrap_or_default().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_200ms_link_slows_the_far_follower_s_clients_and_elects_no_one() {
    let calls = calls();
    assert_eq!(calls.len(), 63, "9 rounds of 7 calls");
    let mut s = booted();
    let before = terms(&mut s);
    let delay_start = s.world.now_ms();
    assert_eq!(
        s.run_typed("net delay node01 node02 200ms").output.status,
        0
    );
    let mut failures = Vec::new();
    let mut rounds = 0;
    for c in &calls {
        let t0 = s.world.now_ms();
        let ex = s.run_typed(&format!("{}$ etcdctl {}", c.host, c.args));
        let took = s.world.now_ms() - t0;
        let out = &ex.output;
        if (out.status, &out.merged()) != (c.status, &c.output) {
            failures.push(format!(
                "{} {}: {:?} != {:?}",
                c.host,
                c.args,
                out.merged(),
                c.output
            ));
        }
        // etcdctl's start-up is 15 to 30 ms of the real wall time
        let real = c.wall_ms.saturating_sub(15);
        if took > real + 15 || took + 30 < real {
            failures.push(format!(
                "{} {}: {took} ms, real {} ms",
                c.host, c.args, c.wall_ms
            ));
        }
        // the recording's rounds are ~3 s apart; after round 2 it asks for
        // the cluster's status and health
        if c.args.contains("consistency=s") {
            rounds += 1;
            if rounds == 2 {
                for cmd in [
                    "node02$ etcdctl --endpoints=http://192.168.0.62:2379 endpoint status --cluster -w table",
                    "node03$ etcdctl --endpoints=http://192.168.0.63:2379 endpoint health --cluster -w table",
                ] {
                    assert_eq!(s.run_typed(cmd).output.status, 0, "{cmd}");
                }
            }
            assert_eq!(s.run_typed("sleep 2").output.status, 0);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(terms(&mut s), before, "no election");
    assert!(!before.is_empty());
    the_delay_s_log_lines_are_the_recording_s(&s, delay_start);
}

/// The recording's log excerpt of the delay phase for `node`: its lines (the
/// recorder's filter, `EXRE` in tools/record-net/net-lib.sh), stamps dropped.
fn recorded_excerpt(node: &str) -> Vec<String> {
    let start = RECORDING
        .find("### LOG EXCERPTS: delay phase")
        .expect("the excerpts");
    let end = RECORDING
        .find("### LOG EXCERPTS: after the clear")
        .expect("the end");
    let title = format!("----- log excerpt: {node}.log ");
    let block = &RECORDING[start..end];
    let from = block.find(&title).expect("the node's excerpt");
    let block = &block[from..];
    let block = &block[..block.find("----- end excerpt").expect("its end")];
    block.lines().skip(1).map(normalise).collect()
}

/// The recorder's filter of excerpt lines (`EXRE`).
fn excerpted(line: &str) -> bool {
    [
        "raft20",
        "rafthttp",
        "etcdserver",
        "membership",
        "W |",
        "E |",
        "C |",
        "N |",
    ]
    .iter()
    .chain(&["took too long", "heartbeat", "prober"])
    .any(|p| line.contains(p))
}

/// A log line without its stamps and with its durations as `D` (real etcd
/// measures in ns, the simulation in ms).
fn normalise(line: &str) -> String {
    let line = line.split_once("| ").map_or(
        line,
        |(stamp, rest)| {
            if stamp.len() == 12 {
                rest
            } else {
                line
            }
        },
    );
    // capnslog's `2026-11-26 02:48:11.486294 `
    let line = if line.as_bytes().get(4) == Some(&b'-') {
        line.get(27..).unwrap_or(line)
    } else {
        line
    };
    let dur = regex::Regex::new(r"\(\d+(\.\d+)?(ms|s|µs)\)").expect("regex");
    dur.replace_all(line, "(D)").into_owned()
}

/// The simulation's lines of the delay, node by node, against the recording's
/// excerpts, in order: node02, whose linearizable gets wait a 400 ms round trip
/// for the leader's read index, warns of each (10 lines: 9 gets and endpoint
/// health's `health` key); the leader and node03 print nothing.
fn the_delay_s_log_lines_are_the_recording_s(s: &Session, from_ms: u64) {
    let mut counts = Vec::new();
    for node in ["node01", "node02", "node03"] {
        let want = recorded_excerpt(node);
        let have: Vec<String> = s
            .world
            .logs()
            .iter()
            .filter(|l| l.machine == node && l.ms >= from_ms)
            .flat_map(|l| l.text.lines())
            .filter(|l| excerpted(l))
            .map(normalise)
            .collect();
        counts.push(format!("{node}: sim {} real {}", have.len(), want.len()));
        assert_eq!(have, want, "{node}'s lines during the delay");
    }
    println!("{}", counts.join("; "));
}
