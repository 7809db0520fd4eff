//! The workloads `make bench` times, shared by the native benchmark
//! (`src/bin/bench.rs`) and the same figures in headless Chromium
//! (`tests/bench_ratio.rs`, `tests/bench_web.rs`): a five-member cluster
//! with one put per simulated second, bare raft-rs in the same shape, a
//! ten-minute run with faults and membership changes to replay, a day of
//! puts, and a learner caught up on 100 MB over a 10 mbit NIC. Nothing here
//! reads a clock: the callers time these functions with their own.
//!
//! The page never calls this module, so the release site does not carry it
//! (wasm-bindgen exports nothing from here, and unused code is dropped).

use crate::shell::parse;
use crate::shell::runner::run_one;
use crate::shell::session::Session;

/// Machines of the five-member cluster: `node01`..`node05` on 192.168.0.61..65.
const FIVE: [(&str, &str); 5] = [
    ("node01", "192.168.0.61"),
    ("node02", "192.168.0.62"),
    ("node03", "192.168.0.63"),
    ("node04", "192.168.0.64"),
    ("node05", "192.168.0.65"),
];

/// The `etcd` command line that starts `name` on `ip` as a member of `cluster`.
fn etcd_line(name: &str, ip: &str, cluster: &str, state: &str) -> String {
    format!(
        "{name}$ etcd --name {name} --initial-advertise-peer-urls http://{ip}:2380 \
         --listen-peer-urls http://0.0.0.0:2380 --advertise-client-urls http://{ip}:2379 \
         --listen-client-urls http://0.0.0.0:2379 --initial-cluster {cluster} \
         --initial-cluster-state {state}"
    )
}

/// `--initial-cluster` entries (`name=http://ip:2380`) of `machines`.
fn peers(machines: &[(&str, &str)]) -> Vec<String> {
    machines
        .iter()
        .map(|(n, ip)| format!("{n}=http://{ip}:2380"))
        .collect()
}

/// The script that boots the five-member cluster and lets it elect a leader,
/// as the page's boot script starts three.
pub fn five_member_boot() -> String {
    let cluster = peers(&FIVE).join(",");
    let mut script = String::new();
    for (n, ip) in FIVE {
        script.push_str(&format!("machine add {n} {ip}\n"));
    }
    for (n, ip) in FIVE {
        script.push_str(&etcd_line(n, ip, &cluster, "new"));
        script.push('\n');
    }
    script.push_str("node01$ sleep 3\n");
    script
}

/// A session that ran `script` (a runner script: prompts, `\` continuations).
pub fn session_after(seed: u64, script: &str) -> Session {
    let mut s = Session::new(seed);
    let mut sink = String::new();
    for c in parse::parse_script(script).unwrap_or_default() {
        run_one(&mut s, &c, false, &mut sink);
    }
    s
}

/// `secs` simulated seconds of `s` with one `etcdctl put` per simulated second
/// (from the session's current machine), each to a new key. Returns how many
/// puts failed.
pub fn puts_for(s: &mut Session, secs: u64) -> u64 {
    puts_over(s, secs, u64::MAX)
}

/// The keys the day-long workload writes in turn: a put per second rewrites
/// each about every 17 minutes, so the key-value store stays the same size and
/// the memory figure shows what the simulation keeps (the raft log, above all).
pub const DAY_KEYS: u64 = 1000;

/// [`puts_for`] cycling over `keys` keys (`key0`..): the store stops growing
/// once each was written, and what grows is the raft log.
#[inline(never)]
pub fn puts_over(s: &mut Session, secs: u64, keys: u64) -> u64 {
    let start_ms = s.world.now_ms();
    let mut failed = 0;
    let mut i = 0;
    while s.world.now_ms() < start_ms + secs * 1000 {
        let put = s.run_typed(&format!("etcdctl put key{} value{i}", i % keys.max(1)));
        if put.output.status != 0 {
            failed += 1;
        }
        let now = s.world.now_ms();
        let next = start_ms + (i + 1) * 1000;
        if next > now {
            s.run_typed(&format!("sleep {}ms", next - now));
        }
        i += 1;
    }
    failed
}

/// Bare raft-rs in the same shape: five RawNodes on MemStorage, 100 ms ticks,
/// one proposal per simulated second, every message delivered in order at
/// once, the logger discarding: the plain Ready loop of raft-rs's examples.
/// Returns the number of committed entries the nodes applied. Never inlined,
/// as [`puts_over`]: `tools/profile_sim.sh` counts the instructions inside each.
#[inline(never)]
pub fn bare_raft(secs: u64) -> u64 {
    use raft::eraftpb::ConfState;
    use raft::storage::MemStorage;
    use raft::{Config, RawNode};

    let logger = slog::Logger::root(slog::Discard, slog::o!());
    let ids: Vec<u64> = (1..=5).collect();
    let mut nodes: Vec<RawNode<MemStorage>> = ids
        .iter()
        .filter_map(|&id| {
            let storage = MemStorage::new_with_conf_state(ConfState::from((ids.clone(), vec![])));
            let cfg = Config {
                id,
                election_tick: 10,
                heartbeat_tick: 1,
                check_quorum: true,
                ..Default::default()
            };
            RawNode::new(&cfg, storage, &logger).ok()
        })
        .collect();
    if let Some(first) = nodes.first_mut() {
        let _ = first.campaign();
    }
    let mut applied = 0u64;
    for tick in 0..secs * 10 {
        for n in nodes.iter_mut() {
            n.tick();
        }
        if tick % 10 == 0 {
            if let Some(leader) = nodes
                .iter_mut()
                .find(|n| n.raft.state == raft::StateRole::Leader)
            {
                let _ = leader.propose(vec![], format!("key{tick}=value").into_bytes());
            }
        }
        applied += deliver_until_quiet(&mut nodes);
    }
    applied
}

/// Simulated seconds of each run of the sim-against-bare-raft-rs workload
/// ([`sim_and_bare`]), natively, in Chromium and in Node alike.
pub const RATIO_SECS: u64 = 60;

/// Best times of the five-member simulation with a put per simulated second
/// and of bare raft-rs, `runs` runs of `secs` simulated seconds each,
/// interleaved so a busy moment of the machine hits both alike, after
/// `warmups` untimed runs of each. A browser compiles a function's optimised
/// code only once it has run a while, in the background: in Chromium on two
/// cores the simulation's larger code took more than ten runs to get there
/// (best of ten, cold: 21.8 ms a run; the next ten: 6.9-7.7 ms), so a figure
/// taken sooner measures the compiler. `now` is the caller's clock (any
/// unit; the times come back in it). An error says which workload did not do
/// its work.
pub fn sim_and_bare(
    warmups: usize,
    runs: usize,
    secs: u64,
    now: impl Fn() -> f64,
) -> Result<(f64, f64), String> {
    let boot = five_member_boot();
    let (mut sim, mut bare) = (f64::MAX, f64::MAX);
    for run in 0..warmups + runs {
        let mut s = session_after(1, &boot);
        let t = now();
        let failed = puts_for(&mut s, secs);
        let sim_time = now() - t;
        if failed > 0 {
            return Err(format!("{failed} puts failed"));
        }
        let t = now();
        let applied = bare_raft(secs);
        let bare_time = now() - t;
        if applied < 5 * secs {
            return Err(format!("bare raft-rs applied only {applied} entries"));
        }
        if run >= warmups {
            sim = sim.min(sim_time);
            bare = bare.min(bare_time);
        }
    }
    Ok((sim, bare))
}

/// The Ready loop of every node, delivering messages until none is left.
fn deliver_until_quiet(nodes: &mut [raft::RawNode<raft::storage::MemStorage>]) -> u64 {
    let mut applied = 0u64;
    loop {
        let mut msgs = Vec::new();
        for n in nodes.iter_mut() {
            if !n.has_ready() {
                continue;
            }
            let store = n.raft.raft_log.store.clone();
            let mut ready = n.ready();
            msgs.extend(ready.take_messages());
            if !ready.snapshot().is_empty() {
                let _ = store.wl().apply_snapshot(ready.snapshot().clone());
            }
            applied += ready.take_committed_entries().len() as u64;
            if !ready.entries().is_empty() {
                let _ = store.wl().append(ready.entries());
            }
            if let Some(hs) = ready.hs() {
                store.wl().set_hardstate(hs.clone());
            }
            msgs.extend(ready.take_persisted_messages());
            let mut light = n.advance(ready);
            if let Some(commit) = light.commit_index() {
                store.wl().mut_hard_state().set_commit(commit);
            }
            msgs.extend(light.take_messages());
            applied += light.take_committed_entries().len() as u64;
            n.advance_apply();
        }
        if msgs.is_empty() {
            return applied;
        }
        for m in msgs {
            let to = m.to as usize;
            if let Some(n) = to.checked_sub(1).and_then(|i| nodes.get_mut(i)) {
                let _ = n.step(m);
            }
        }
    }
}

/// The member ID `etcdctl member add` printed (`Member <hex> added to cluster ...`).
fn added_id(stdout: &str) -> Option<String> {
    let rest = stdout.split("Member ").nth(1)?;
    rest.split_whitespace().next().map(str::to_string)
}

/// Ten simulated minutes of five members with faults and membership changes:
/// a put every 10 s; the leader cut off and healed; a member killed, removed,
/// its machine replaced by a new member; a learner added, started and promoted;
/// a machine powered off and on. The lines are made by running them (member IDs
/// added at runtime are read from `member add`), so [`replay`] of the result
/// takes exactly this run again. Each line is a runner script line.
pub fn ten_minute_run(seed: u64) -> Vec<String> {
    let mut r = Recorder {
        lines: five_member_boot().lines().map(str::to_string).collect(),
        s: session_after(seed, &five_member_boot()),
    };
    r.puts(6);
    // the leader (or whoever node01 is) cut off for 30 s, then healed
    r.run("$ net isolate node01");
    r.run("$ sleep 30");
    r.run("$ net heal");
    r.puts(6);
    let mut cluster = r.replace_node05();
    r.puts(6);
    r.add_learner(&mut cluster);
    // a machine loses power for a minute
    r.run("$ machine down node03");
    r.run("$ sleep 60");
    r.run("$ machine up node03");
    // restarted as it was first started: etcd reads its data dir, not the flags
    let first = peers(&FIVE).join(",");
    r.run(&etcd_line("node03", "192.168.0.63", &first, "new"));
    while r.s.world.now_ms() < 600_000 {
        r.puts(1);
    }
    r.lines
}

/// The ten-minute run's session and the lines it ran so far.
struct Recorder {
    s: Session,
    lines: Vec<String>,
}

/// node01's client endpoint, which every etcdctl of the ten-minute run names.
const EP: &str = "--endpoints=http://192.168.0.61:2379";

impl Recorder {
    /// Runs a line and keeps it; returns what it printed.
    fn run(&mut self, line: &str) -> String {
        let out = self.s.run_typed(line).output.stdout;
        self.lines.push(line.to_string());
        out
    }

    /// `n` times: a put of the simulated time, then 10 s.
    fn puts(&mut self, n: usize) {
        for _ in 0..n {
            let t = self.s.world.now_ms();
            self.run(&format!("node01$ etcdctl {EP} put k{t} v{t}"));
            self.run("node01$ sleep 10");
        }
    }

    /// node05 dies; it is removed and a new machine, node06, joins in its
    /// place. Returns the cluster's peers after.
    fn replace_node05(&mut self) -> Vec<String> {
        self.run("node05$ kill -9 etcd");
        let list = self.run(&format!("node01$ etcdctl {EP} member list"));
        if let Some(id) = list
            .lines()
            .find(|l| l.contains("node05"))
            .and_then(|l| l.split(',').next())
        {
            self.run(&format!("node01$ etcdctl {EP} member remove {id}"));
        }
        let mut cluster = peers(&FIVE[..4]);
        self.join("node06", "192.168.0.66", false, &mut cluster);
        cluster
    }

    /// A new machine `name` at `addr` joins: added as a member (a learner
    /// when `learner`) and its etcd started with `cluster` plus itself.
    /// Returns what `member add` printed.
    fn join(&mut self, name: &str, addr: &str, learner: bool, cluster: &mut Vec<String>) -> String {
        self.run(&format!("$ machine add {name} {addr}"));
        let flag = if learner { " --learner" } else { "" };
        let added = self.run(&format!(
            "node01$ etcdctl {EP} member add {name}{flag} --peer-urls=http://{addr}:2380"
        ));
        cluster.push(format!("{name}=http://{addr}:2380"));
        self.run(&etcd_line(name, addr, &cluster.join(","), "existing"));
        added
    }

    /// A learner, node07, joins, catches up for 20 s and is promoted.
    fn add_learner(&mut self, cluster: &mut Vec<String>) {
        let learner = self.join("node07", "192.168.0.67", true, cluster);
        self.run("$ sleep 20");
        if let Some(id) = added_id(&learner) {
            self.run(&format!("node01$ etcdctl {EP} member promote {id}"));
        }
    }
}

/// A fresh session that ran `lines` (the page's replay of a run's commands).
pub fn replay(seed: u64, lines: &[String]) -> Session {
    session_after(seed, &lines.join("\n"))
}

/// The lesson in `dir` whose replay handles the most events, and how many.
pub fn lesson_events(dir: &str) -> (String, u64) {
    let mut most = (String::new(), 0);
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let Some(lesson) = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| crate::lessons::parse(&name, &text).ok())
        else {
            continue;
        };
        let mut s = crate::lessons::boot_session(&lesson);
        let mut sink = String::new();
        for step in &lesson.steps {
            for c in &step.commands {
                run_one(&mut s, &c.command, false, &mut sink);
            }
        }
        if s.world.events() > most.1 {
            most = (name, s.world.events());
        }
    }
    most
}

/// Lesson `path` replayed whole as the page opens it at its last step: the
/// world's invariants checked after every event (`World::check_invariants`,
/// as the page's world does). Returns the events handled, or `None` when the
/// file is not a lesson.
pub fn lesson_replay_checked(path: &str) -> Option<u64> {
    let name = std::path::Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let text = std::fs::read_to_string(path).ok()?;
    let lesson = crate::lessons::parse(&name, &text).ok()?;
    let mut s = crate::lessons::boot_session(&lesson);
    s.world.check_invariants();
    let mut sink = String::new();
    for c in lesson.steps.iter().flat_map(|step| &step.commands) {
        run_one(&mut s, &c.command, false, &mut sink);
    }
    Some(s.world.events())
}

/// A replay that spends its whole budget: sixteen one-member clusters
/// sleeping, as a hostile link would have them. Returns the events handled.
pub fn replay_budget_spent() -> u64 {
    let mut s = Session::new(1);
    s.start_replay();
    for i in 0..crate::sim::budget::MAX_MACHINES {
        s.run_typed(&format!("machine add c{i}"));
        s.run_typed(&format!("c{i}$ etcd --name c{i}"));
    }
    while s.replay_spent().is_none() {
        s.run_typed("sleep 24h");
    }
    s.world.events()
}

/// Machines of the catch-up workload: three voters and the learner.
const CATCH_UP: [(&str, &str); 4] = [
    ("node01", "192.168.0.61"),
    ("node02", "192.168.0.62"),
    ("node03", "192.168.0.63"),
    ("node04", "192.168.0.64"),
];

/// Heartbeat and election timeout of the catch-up workload's members (ms):
/// etcd's tuning guide raises them for slow networks, and at 10 mbit a full
/// 4 MB queue holds a heartbeat 3.4 s, so the default 1 s would hand the
/// leadership to a member whose NIC is idle (lesson 001 step 23) instead of
/// catching the learner up over the slow one.
const CATCH_UP_TIMING: (u64, u64) = (500, 5000);

/// The members snapshot (and compact their logs) less often than the data
/// set's 100,000 puts, so the learner gets them as log entries: a snapshot
/// would be the whole bbolt file (about 200 MB after `datascale`'s puts and
/// deletes), and the network sends a snapshot as one message ahead of every
/// heartbeat behind it.
const CATCH_UP_SNAPSHOT_COUNT: u64 = 200_000;

/// The catch-up workload up to the learner's start: three voters (tuned
/// for a slow network) with `etcdctl check datascale --load=m` behind them
/// (100,000 keys of 1 KiB, then deleted: a raft log of ~100 MB, which no
/// snapshot compacts), and the
/// leader's NIC limited to 10 mbit with a 4 MB queue.
pub fn catch_up_setup(seed: u64) -> Session {
    let (heartbeat, election) = CATCH_UP_TIMING;
    let cluster = peers(&CATCH_UP[..3]).join(",");
    let mut script = String::new();
    for (n, ip) in CATCH_UP {
        script.push_str(&format!("machine add {n} {ip}\n"));
    }
    for (n, ip) in &CATCH_UP[..3] {
        let line = etcd_line(n, ip, &cluster, "new");
        script.push_str(&format!(
            "{line} --heartbeat-interval {heartbeat} --election-timeout {election} --snapshot-count {CATCH_UP_SNAPSHOT_COUNT}\n"
        ));
    }
    script
        .push_str("node01$ sleep 10\nnode01$ etcdctl check datascale --load=m\nnode01$ sleep 5\n");
    let mut s = session_after(seed, &script);
    if let Some(leader) = crate::sim::quorum::analyze(&s.world.view()).leader {
        s.run_typed(&format!("net rate {} 10mbit limit 4mb", leader.machine));
    }
    s
}

/// What the catch-up workload measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CatchUp {
    /// Simulated ms from the learner's start until its match reached the
    /// leader's (`None`: not within ten simulated minutes).
    pub sim_ms: Option<u64>,
    /// The bytes it lacked when it started (`sim::quorum::LearnerInfo::bytes`).
    pub bytes: u64,
    /// Leaders elected meanwhile.
    pub elections: usize,
}

/// Adds node04 as a learner to [`catch_up_setup`]'s cluster, starts it, and
/// runs the clock a simulated second at a time until it has caught up.
pub fn catch_up(s: &mut Session) -> CatchUp {
    let (heartbeat, election) = CATCH_UP_TIMING;
    let (n, ip) = CATCH_UP[3];
    let cluster = peers(&CATCH_UP).join(",");
    let logs = s.world.logs().len();
    s.run_typed(&format!(
        "node01$ etcdctl member add {n} --peer-urls=http://{ip}:2380 --learner"
    ));
    let line = etcd_line(n, ip, &cluster, "existing");
    s.run_typed(&format!(
        "{line} --heartbeat-interval {heartbeat} --election-timeout {election} --snapshot-count {CATCH_UP_SNAPSHOT_COUNT}"
    ));
    let t0 = s.world.now_ms();
    let mut bytes = 0;
    let mut sim_ms = None;
    while s.world.now_ms() < t0 + 600_000 {
        s.run_typed("node01$ sleep 1");
        let view = s.world.view();
        let Some(l) = crate::sim::quorum::learners(&view).into_iter().next() else {
            break;
        };
        let b = l.bytes.unwrap_or(crate::sim::quorum::CatchUpBytes {
            received: 0,
            left: 0,
            snapshot: None,
            needs_snapshot: false,
        });
        bytes = bytes.max(b.received + b.left);
        if l.leader_matched > 0 && l.matched >= l.leader_matched {
            sim_ms = Some(s.world.now_ms() - t0);
            break;
        }
    }
    let elections = s.world.logs()[logs..]
        .iter()
        .filter(|l| l.text.contains(" became leader at term "))
        .count();
    CatchUp {
        sim_ms,
        bytes,
        elections,
    }
}

/// Three voters (the catch-up workload's machines, default settings) and a
/// typed `etcdctl check datascale --load=l`: 1,000,000 puts of 1 KiB, a 1 GB
/// data set, run whole (`sim::budget::CHECK_EVENTS`). Returns the session and
/// the check's output.
pub fn datascale_l(seed: u64) -> (Session, crate::shell::Output) {
    let cluster = peers(&CATCH_UP[..3]).join(",");
    let mut script = String::new();
    for (n, ip) in &CATCH_UP[..3] {
        script.push_str(&format!("machine add {n} {ip}\n"));
    }
    for (n, ip) in &CATCH_UP[..3] {
        script.push_str(&etcd_line(n, ip, &cluster, "new"));
        script.push('\n');
    }
    script.push_str("node01$ sleep 3\n");
    let mut s = session_after(seed, &script);
    let out = s
        .run_typed("node01$ etcdctl check datascale --load=l")
        .output;
    (s, out)
}

/// Simulated ticks a run took: each running member ticks every 100 ms.
pub fn member_ticks(members: u64, ms: u64) -> u64 {
    members * ms / 100
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ten-minute run does what it says: every membership change and
    /// fault took effect, and replaying its lines ends in the same state.
    #[test]
    fn ten_minute_run_changes_membership_and_replays() {
        let lines = ten_minute_run(1);
        let mut s = replay(1, &lines);
        assert!(s.world.now_ms() >= 600_000);
        let list = s
            .run_typed("node01$ etcdctl --endpoints=http://192.168.0.61:2379 member list")
            .output;
        assert_eq!(list.status, 0, "{}", list.stderr);
        let members: Vec<&str> = list.stdout.lines().collect();
        assert_eq!(members.len(), 6, "{}", list.stdout);
        assert!(!list.stdout.contains("node05"), "{}", list.stdout);
        for name in ["node06", "node07"] {
            let line = members.iter().find(|l| l.contains(name));
            assert!(
                line.is_some_and(|l| l.starts_with(|c: char| c.is_ascii_hexdigit())
                    && l.contains("started")
                    && l.ends_with("false")),
                "{name} is a started voter: {}",
                list.stdout
            );
        }
        let joined = lines.join("\n");
        for fault in ["net isolate node01", "kill -9 etcd", "machine down node03"] {
            assert!(joined.contains(fault), "{fault}");
        }
    }

    /// The catch-up workload catches its learner up over the slow NIC,
    /// without an election, in the simulated time 100 MB take at 10 mbit.
    #[test]
    fn a_learner_catches_up_over_the_slow_nic() {
        let mut s = catch_up_setup(1);
        let c = catch_up(&mut s);
        assert!(c.bytes > 90_000_000, "{c:?}");
        assert_eq!(c.elections, 0, "{c:?}");
        let ms = c.sim_ms.expect("caught up");
        // 100 MB at 10 mbit: 80 s and more
        assert!(ms >= 75_000, "{c:?}");
    }

    #[test]
    fn bare_raft_commits_one_entry_per_second() {
        // five nodes each apply the leader's empty entry and every proposal
        assert!(bare_raft(10) >= 5 * 10);
    }

    #[test]
    fn puts_for_puts_once_a_second() {
        let mut s = session_after(1, &five_member_boot());
        let t0 = s.world.now_ms();
        assert_eq!(puts_for(&mut s, 5), 0);
        assert!(s.world.now_ms() >= t0 + 5000);
    }
}
