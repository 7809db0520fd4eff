//! The network model against real etcd 3.4.23 behind a shaping proxy
//! (`tests/reference-run-b/net-01-200ms-link.txt`): a 200 ms link between the
//! leader and one follower. The recording's puts and gets, from each member's
//! host, run here in the same order on the page's cluster (node01 leads in
//! both); each must print what real etcdctl printed, exit as it did, and take
//! as long, within what the recording's own spread and etcdctl's start-up
//! (~20 ms of each wall time, absent here) allow. No election happens in
//! either (the raft term, field 7 of `endpoint status`, stays).
//!
//! A member behind 10 % loss on all its links (`net-02-loss.txt`: a follower
//! 30 s, then the leader 30 s; `net-02b-loss-follower-90s.txt`: a follower
//! 90 s): the recordings' calls replayed at their recorded times, with
//! several seeds since loss is random; outputs and exits the same, the mean
//! times and shares of slow calls of the lossy member's clients and the
//! others' within what the two real runs differ by, elections about as often.
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
        .map(|l| l.split(", ").nth(6).unwrap_or_default().to_string())
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

// ---- net-02: a member behind 10 % loss -------------------------------------

/// One etcdctl call of a loss recording, `start_ms` after its phase's loss began.
struct Timed {
    call: Call,
    start_ms: u64,
}

/// One phase of a loss recording: who was behind the loss, who led, the
/// calls, and when the loss was cleared (ms after it began).
struct Phase {
    label: String,
    lossy: String,
    leader: String,
    calls: Vec<Timed>,
    clear_ms: u64,
}

/// `02:54:00.533` as ms of the day.
fn clock_ms(t: &str) -> u64 {
    let mut f = t.split(':');
    let (h, m, s) = (f.next(), f.next(), f.next());
    let n = |x: Option<&str>| x.and_then(|x| x.parse::<f64>().ok()).expect("a clock");
    ((n(h) * 3600.0 + n(m) * 60.0 + n(s)) * 1000.0).round() as u64
}

/// `[T_LOSS_A=02:54:00.533]` as ms of the day.
fn marker(text: &str, name: &str) -> u64 {
    let at = text.find(&format!("[{name}=")).expect("a marker") + name.len() + 2;
    clock_ms(&text[at..at + 12])
}

/// The phases of a recording made by `tools/record-net/net-02-loss.sh`.
fn phases(recording: &str) -> Vec<Phase> {
    let mut out = Vec::new();
    for part in recording.split("\n### PHASE ").skip(1) {
        // `A: node02 (the follower; leader now node01) behind 10 % loss …`
        let Some((label, rest)) = part.split_once(": ") else {
            continue;
        };
        if label.contains(' ') {
            continue; // `A COUNTS`, `A client latency`…
        }
        let lossy = rest[..6].to_string();
        let leader = rest
            .split_once("leader now ")
            .map(|(_, l)| l[..6].to_string())
            .expect("the leader");
        let t0 = marker(part, &format!("T_LOSS_{label}"));
        let clear_ms = marker(part, &format!("T_CLEAR_{label}")) - t0;
        let mut calls = Vec::new();
        for line in part.lines() {
            let Some((what, rest)) = line.split_once("'s host: exit=") else {
                continue;
            };
            let Some((args, host)) = what.rsplit_once(" from ") else {
                continue;
            };
            let (status, rest) = rest.split_once(' ').expect("exit");
            let (wall, rest) = rest
                .trim_start_matches("wall=")
                .split_once("s t=")
                .expect("wall");
            let (t, output) = rest.split_once(": ").expect("output");
            let wall_ms = (wall.parse::<f64>().expect("wall") * 1000.0).round() as u64;
            // a round's puts write `rN` (`A-k3-from-2`), the puts after it `vN` (`A-after-2`)
            let args = match args.strip_prefix("put ") {
                Some(key) => {
                    let (_, tail) = key.split_once('-').expect("a key");
                    let value = match tail.strip_prefix("after-") {
                        Some(n) => format!("v{n}"),
                        None => format!("r{}", &tail[1..tail.find('-').expect("a round")]),
                    };
                    format!("put {key} {value}")
                }
                None => format!("{args} --print-value-only"),
            };
            calls.push(Timed {
                start_ms: (clock_ms(t) - wall_ms).saturating_sub(t0),
                call: Call {
                    host: host.to_string(),
                    args,
                    status: status.parse().expect("status"),
                    wall_ms,
                    output: format!("{output}\n"),
                },
            });
        }
        out.push(Phase {
            label: label.to_string(),
            lossy,
            leader,
            calls,
            clear_ms,
        });
    }
    out
}

const MEMBERS: [(&str, &str); 3] = [
    ("node01", "4eee438bb97e1153"),
    ("node02", "a315e8a0962df2c5"),
    ("node03", "bc324463a6b82505"),
];

/// The member `endpoint status` on node03 names as leader.
fn leader(s: &mut Session) -> String {
    let out = s.run_typed(
        "node03$ etcdctl --endpoints=http://192.168.0.61:2379,http://192.168.0.62:2379,http://192.168.0.63:2379 endpoint status",
    );
    let lines = out.output.stdout.lines();
    lines
        .filter(|l| l.split(", ").nth(4) == Some("true"))
        .filter_map(|l| {
            let id = l.split(", ").nth(1)?;
            MEMBERS
                .iter()
                .find(|(_, i)| *i == id)
                .map(|(n, _)| n.to_string())
        })
        .collect()
}

/// What one phase did in the simulation.
struct Replayed {
    /// (call, simulated ms, merged output, status)
    runs: Vec<(usize, u64, String, i32)>,
    /// Elections (term changes) during the phase.
    elections: usize,
}

/// Replays `phase` on `s`: its leader made the leader as the recording had it,
/// `net loss` on the lossy member's links, each call at its recorded start,
/// then the clear.
fn replay_phase(s: &mut Session, phase: &Phase, loss: &str) -> Replayed {
    if leader(s) != phase.leader {
        let id = MEMBERS
            .iter()
            .find(|(n, _)| *n == phase.leader)
            .expect("a member")
            .1;
        let cur = leader(s);
        let out = s.run_typed(&format!("{cur}$ etcdctl move-leader {id}"));
        assert_eq!(out.output.status, 0, "{}", out.output.merged());
        assert_eq!(s.run_typed("sleep 1").output.status, 0);
        assert_eq!(leader(s), phase.leader);
    }
    let term = terms(s);
    for (peer, _) in MEMBERS.iter().filter(|(n, _)| *n != phase.lossy) {
        let line = format!("net loss {} {peer} {loss}", phase.lossy);
        assert_eq!(s.run_typed(&line).output.status, 0);
    }
    let t0 = s.world.now_ms();
    let mut runs = Vec::new();
    let mut elections = 0;
    let mut last_term = term;
    let mut cleared = false;
    for (n, c) in phase.calls.iter().enumerate() {
        if !cleared && c.start_ms >= phase.clear_ms {
            for (peer, _) in MEMBERS.iter().filter(|(n, _)| *n != phase.lossy) {
                let line = format!("net clear {} {peer}", phase.lossy);
                assert_eq!(s.run_typed(&line).output.status, 0);
            }
            cleared = true;
        }
        let due = t0 + c.start_ms;
        if s.world.now_ms() < due {
            let wait = due - s.world.now_ms();
            assert_eq!(s.run_typed(&format!("sleep {wait}ms")).output.status, 0);
        }
        let before = s.world.now_ms();
        let ex = s.run_typed(&format!("{}$ etcdctl {}", c.call.host, c.call.args));
        let took = s.world.now_ms() - before;
        runs.push((n, took, ex.output.merged(), ex.output.status));
        let now = terms(s);
        if now != last_term {
            elections += 1;
            last_term = now;
        }
    }
    Replayed { runs, elections }
}

/// The seeds each loss recording is replayed with: loss is random, so one
/// run is one draw; the comparison is of what many draws do on average.
const LOSS_SEEDS: u64 = 8;

/// What the replays of one recording did, and how they compare with it.
#[derive(Default)]
struct LossReport {
    /// Calls replayed (all seeds), and those whose output and exit matched.
    calls: usize,
    same: usize,
    /// Per group (`A lossy put`…): real walls, simulated times.
    groups: std::collections::BTreeMap<String, (Vec<u64>, Vec<u64>)>,
    /// Elections while a follower, and while the leader, was behind the
    /// loss, and the simulated seconds of each.
    follower: (usize, u64),
    leader: (usize, u64),
    /// What differs beyond the tolerances, in words.
    failures: Vec<String>,
}

/// etcdctl's start-up, in every real wall time (15 to 30 ms, absent here).
const STARTUP_MS: u64 = 17;

/// Replays every phase of `recording` with `LOSS_SEEDS` seeds and the lossy
/// member's links at `loss`, and compares: each call's output and exit, ≥ 95 %
/// the same; per phase, host (the lossy member's or another's) and verb, the
/// mean time and the share of slow calls (> 100 ms: a retransmission's RTO is
/// 200 ms), within what two real recordings of the same scenario differ by
/// (below); and elections, as often as the real runs had them.
fn compare_loss(recording: &str, loss: &str) -> LossReport {
    let mut report = LossReport::default();
    for seed in 1..=LOSS_SEEDS {
        let mut s = Session::new(seed);
        for c in &parse::parse_script(CLUSTER_SCRIPT).expect("the boot script") {
            run_one(&mut s, c, false, &mut String::new());
        }
        for phase in phases(recording) {
            let r = replay_phase(&mut s, &phase, loss);
            let tally = match phase.lossy == phase.leader {
                true => &mut report.leader,
                false => &mut report.follower,
            };
            tally.0 += r.elections;
            tally.1 += phase.clear_ms / 1000;
            for (n, took, out, status) in r.runs {
                let c = &phase.calls[n].call;
                report.calls += 1;
                if (&out, status) == (&c.output, c.status) {
                    report.same += 1;
                }
                // the rounds during the loss (not the puts after the clear)
                if c.args.contains("-after-") {
                    continue;
                }
                let who = match c.host == phase.lossy {
                    true => "lossy",
                    false => "other",
                };
                let verb = &c.args[..3];
                let key = format!("{} {who} {verb}", phase.label);
                let group = report.groups.entry(key).or_default();
                if seed == 1 {
                    group.0.push(c.wall_ms);
                }
                group.1.push(took + STARTUP_MS);
            }
        }
    }
    if report.same * 100 < report.calls * 95 {
        let (same, calls) = (report.same, report.calls);
        report.failures.push(format!(
            "{same} of {calls} calls printed and exited as real etcdctl"
        ));
    }
    let mean = |v: &[u64]| v.iter().sum::<u64>() as f64 / v.len().max(1) as f64;
    let slow = |v: &[u64]| v.iter().filter(|&&t| t > 100).count() as f64 / v.len().max(1) as f64;
    // A call that crossed an election (net-02 A's 2.7 s get: its first try
    // failed with `etcdserver: leader changed`, recording line 250) measures
    // the election, which `elections_as_real` bounds; the means compare the
    // calls that did not.
    let calm = |v: &[u64]| -> Vec<u64> { v.iter().copied().filter(|&t| t < 2000).collect() };
    for (key, (real, sim)) in &report.groups {
        let (real, sim) = (&calm(real), &calm(sim));
        let (rm, sm) = (mean(real), mean(sim));
        let (rs, ss) = (slow(real), slow(sim));
        // The two real recordings of a follower behind 10 % loss (net-02's
        // phase A, 16 rounds; net-02b, 58 rounds) differ in the lossy host's
        // means by 33 ms (puts: 152, 119 ms) and 98 ms (gets: 319, 221; one
        // 2.7 s get across an election), in its shares of slow calls by up to
        // 20 points (puts: 56 %, 36 %): a mean may differ by 60 ms or 35 %,
        // a share by 25 points (15 over 58 rounds).
        let share = if real.len() >= 50 { 0.15 } else { 0.25 };
        if (rm - sm).abs() > 60f64.max(rm * 0.35) || (rs - ss).abs() > share {
            report.failures.push(format!(
                "{key}: mean {sm:.0} ms, {:.0} % slow; real {rm:.0} ms, {:.0} % slow",
                ss * 100.0,
                rs * 100.0
            ));
        }
    }
    report
}

/// The elections the real runs had: one in 150 s of a follower behind the
/// loss (net-02's phase A 30 s, net-02b 90 s), none in 29 s of the leader
/// behind it. A single event only bounds a rate loosely: Poisson's 95 %
/// interval for one event in 150 s is one per 27 s to one per 6000 s, and
/// for none in 29 s at most one per 8 s. The simulation's rates, over all its
/// seeds, must fall inside those.
fn elections_as_real(follower: (usize, u64), leader: (usize, u64)) -> Vec<String> {
    let mut out = Vec::new();
    let (n, secs) = follower;
    if n == 0 || n as u64 * 27 > secs || n as u64 * 6000 < secs {
        out.push(format!(
            "{n} elections in {secs} s with a follower behind the loss"
        ));
    }
    let (n, secs) = leader;
    if n as u64 * 8 > secs {
        out.push(format!(
            "{n} elections in {secs} s with the leader behind the loss"
        ));
    }
    out
}

const NET_02: &str = include_str!("reference-run-b/net-02-loss.txt");
const NET_02B: &str = include_str!("reference-run-b/net-02b-loss-follower-90s.txt");

fn print(name: &str, r: &LossReport) {
    println!("{name}: {} of {} calls the same", r.same, r.calls);
    let mean = |v: &[u64]| v.iter().sum::<u64>() as f64 / v.len().max(1) as f64;
    for (key, (real, sim)) in &r.groups {
        let calm = |v: &[u64]| -> Vec<u64> { v.iter().copied().filter(|&t| t < 2000).collect() };
        println!(
            "{name} {key}: real n={} mean {:.0} ms ({:.0} ms under 2 s); sim n={} mean {:.0} ms ({:.0} ms under 2 s)",
            real.len(),
            mean(real),
            mean(&calm(real)),
            sim.len(),
            mean(sim),
            mean(&calm(sim))
        );
    }
    println!(
        "{name}: elections {} in {} s (a follower lossy), {} in {} s (the leader)",
        r.follower.0, r.follower.1, r.leader.0, r.leader.1
    );
}

#[test]
fn a_member_behind_10_percent_loss_slows_its_clients_as_real_etcd_does() {
    let a = compare_loss(NET_02, "10%");
    let b = compare_loss(NET_02B, "10%");
    print("net-02", &a);
    print("net-02b", &b);
    // net-02: 16 rounds of 6 calls and 3 puts after the clear with a
    // follower lossy, 15 rounds and 3 with the leader; net-02b: 58 and 3
    let per_seed = LOSS_SEEDS as usize;
    assert_eq!((a.calls, b.calls), ((99 + 93) * per_seed, 351 * per_seed));
    assert_eq!(a.groups.len() + b.groups.len(), 8 + 4, "phase, host, verb");
    let elections = elections_as_real(
        (a.follower.0 + b.follower.0, a.follower.1 + b.follower.1),
        a.leader,
    );
    let failures: Vec<String> = a
        .failures
        .into_iter()
        .chain(b.failures)
        .chain(elections)
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The comparison can fail: without the loss, the lossy member's clients are
/// as fast as the others and no one is elected.
#[test]
fn without_the_loss_the_comparison_fails() {
    let a = compare_loss(NET_02, "0%");
    let b = compare_loss(NET_02B, "0%");
    assert!(
        a.failures.iter().any(|f| f.starts_with("A lossy get")),
        "{:?}",
        a.failures
    );
    assert!(
        b.failures.iter().any(|f| f.starts_with("A lossy put")),
        "{:?}",
        b.failures
    );
    let elections = elections_as_real(
        (a.follower.0 + b.follower.0, a.follower.1 + b.follower.1),
        a.leader,
    );
    assert!(!elections.is_empty());
}
