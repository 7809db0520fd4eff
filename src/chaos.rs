//! Randomized runs: from a seed, a three-member cluster on five machines and a
//! list of random shell lines (puts, gets and deletes from any machine,
//! graceful stops, crashes, restarts, power cuts, wiped data dirs, cut and
//! healed links, partitions, member add and remove, learner add and promote,
//! time passing, and the network's physics: links' latency with jitter and
//! loss, NICs' rates and queues, and their clearing), with `sim::invariants` checked after every event and the
//! clients' history checked for linearizability (`sim::history`). A run that
//! breaks a promise is shrunk to a shorter list of lines that still breaks one,
//! printed as a script the runner replays (`quorum-playground run`).
//!
//! Lines are chosen while the run goes (member IDs are read from `member list`),
//! so a failing run's lines are a plain script: replaying them, or any subset,
//! needs no generator.

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::shell::parse;
use crate::shell::runner::run_one;
use crate::shell::session::Session;

/// The machines: node01..node05 on 10.9.0.1..5.
const MACHINES: usize = 5;

fn name(i: usize) -> String {
    format!("node0{}", i + 1)
}

fn ip(i: usize) -> String {
    format!("10.9.0.{}", i + 1)
}

fn endpoint(i: usize) -> String {
    format!("--endpoints=http://{}:2379", ip(i))
}

/// `etcdctl ARGS` on machine `i`, to its own etcd.
fn etcdctl_on(i: usize, args: &str) -> String {
    format!("{}$ etcdctl {} {args}", name(i), endpoint(i))
}

/// The `etcd` line that starts machine `i`'s member.
fn etcd_line(i: usize, cluster: &str, state: &str) -> String {
    let (n, a) = (name(i), ip(i));
    format!(
        "{n}$ etcd --name {n} --initial-advertise-peer-urls http://{a}:2380 \
         --listen-peer-urls http://{a}:2380 --advertise-client-urls http://{a}:2379 \
         --listen-client-urls http://{a}:2379 --initial-cluster {cluster} \
         --initial-cluster-state {state}"
    )
}

/// The boot lines: five machines, node01..node03 a static cluster.
pub fn boot() -> Vec<String> {
    let cluster: Vec<String> = (0..3)
        .map(|i| format!("{}=http://{}:2380", name(i), ip(i)))
        .collect();
    let mut lines: Vec<String> = (0..MACHINES)
        .map(|i| format!("machine add {} {}", name(i), ip(i)))
        .collect();
    lines.extend((0..3).map(|i| etcd_line(i, &cluster.join(","), "new")));
    lines.push("$ sleep 3".to_string());
    lines
}

/// Which actions a run picks from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mix {
    /// Faults, membership and client actions, on a LAN of default links
    /// (the runs as they were before the network had physics: a seed's run
    /// stays the run that once found something).
    Lan,
    /// `Lan`'s actions, and about one in nine an action on the network's
    /// physics: `net delay` (0–300 ms, sometimes with jitter, sometimes one
    /// way), `net loss` (0–30 %), `net rate` (1 to 100 mbit, sometimes a
    /// small queue), and `net clear` of a link or NIC set earlier.
    Network,
}

impl Mix {
    /// The range of the roll that picks an action: `Lan`'s actions take
    /// 0..100, the network's 100..112.
    fn rolls(self) -> u32 {
        match self {
            Mix::Lan => 100,
            Mix::Network => 112,
        }
    }
}

/// A run in progress: the session, the lines so far, how each machine's
/// member was last started (to restart it the same way), and which links
/// and NICs have settings a `net clear` can take back.
struct Run {
    s: Session,
    lines: Vec<String>,
    started: Vec<Option<String>>,
    mix: Mix,
    /// Machine pairs (lower index first) whose links have settings.
    shaped: BTreeSet<(usize, usize)>,
    /// Machines whose NIC has a rate.
    slowed: BTreeSet<usize>,
    /// `net delay|loss|rate|clear` lines the shell accepted.
    shaped_lines: usize,
}

impl Run {
    fn new(seed: u64, mix: Mix) -> Run {
        let mut s = Session::new(seed);
        s.world.check_invariants();
        s.world.record_history();
        let boot = boot();
        let mut started = vec![None; MACHINES];
        for (i, slot) in started.iter_mut().enumerate().take(3) {
            *slot = boot.get(MACHINES + i).cloned();
        }
        let mut r = Run {
            s,
            lines: Vec::new(),
            started,
            mix,
            shaped: BTreeSet::new(),
            slowed: BTreeSet::new(),
            shaped_lines: 0,
        };
        for l in boot {
            r.run(l);
        }
        r
    }

    /// Runs one line; its standard output.
    fn run(&mut self, line: String) -> String {
        self.run_status(line).0
    }

    /// Runs one line; its last command's standard output and exit status
    /// (2 when the line does not parse).
    fn run_status(&mut self, line: String) -> (String, i32) {
        let (mut out, mut status) = (String::new(), 2);
        if let Ok(cmds) = parse::parse_script(&line) {
            for c in cmds {
                let o = self.s.run(&c.prompt, &c.text).output;
                (out, status) = (o.stdout, o.status);
            }
        }
        self.lines.push(line);
        (out, status)
    }

    /// Runs a `net` line that must be accepted; counts it.
    fn run_net(&mut self, line: String) {
        let (_, status) = self.run_status(line);
        if status == 0 {
            self.shaped_lines += 1;
        }
    }

    /// The members as `member list` on machine `i` prints them: (ID, name).
    fn members(&mut self, i: usize) -> Vec<(String, String)> {
        let out = self.run(etcdctl_on(i, "member list"));
        out.lines()
            .filter_map(|l| {
                let mut f = l.split(", ");
                Some((f.next()?.to_string(), f.nth(1)?.to_string()))
            })
            .collect()
    }

    /// One random action.
    fn step(&mut self, rng: &mut ChaCha8Rng) {
        let i = rng.gen_range(0..MACHINES);
        let j = rng.gen_range(0..MACHINES);
        let (n, ep) = (name(i), endpoint(j));
        let key = rng.gen_range(0..8);
        let line = match rng.gen_range(0..self.mix.rolls()) {
            0..=24 => format!(
                "{n}$ etcdctl {ep} --command-timeout=2s put k{key} v{}",
                rng.gen::<u16>()
            ),
            25..=34 => format!("{n}$ etcdctl {ep} --command-timeout=2s get k{key}"),
            35..=37 => format!("{n}$ etcdctl {ep} --command-timeout=2s del k{key}"),
            38..=49 => format!("$ sleep {}ms", rng.gen_range(50..3000)),
            50..=52 => format!("{n}$ kill etcd"),
            53..=54 => format!("{n}$ kill -9 etcd"),
            // faults heal more often than they strike, so the cluster keeps
            // coming back and most runs spend most of their time serving
            55..=69 => match self.started.get(i).cloned().flatten() {
                Some(l) => format!("$ machine up {n}\n{l}"),
                None => format!("$ sleep {}ms", rng.gen_range(50..500)),
            },
            70 => format!("$ machine down {n}"),
            71..=72 => format!("$ net isolate {n}"),
            73..=79 => "$ net heal".to_string(),
            80..=81 => format!("$ net cut '{n}->{}'", name(j)),
            82 => {
                // a wiped member comes back only as a new member (member
                // add): restarting it with its old ID is a separate question
                self.started[i] = None;
                format!("{n}$ kill -9 etcd\n{n}$ rm -rf {n}.etcd")
            }
            83..=90 => return self.add_member(rng, i),
            91..=93 => return self.remove_member(rng, j),
            94..=99 => return self.promote(j),
            roll => return self.shape(rng, roll, i, j),
        };
        self.run(line);
    }

    /// One action on the network's physics (`roll` in 100..112): delays and
    /// losses of the links between `i` and `j`, a rate on `i`'s NIC, or a
    /// clear of something set before. Clears come about as often as
    /// settings, so a run's network keeps coming back to the LAN.
    fn shape(&mut self, rng: &mut ChaCha8Rng, roll: u32, i: usize, j: usize) {
        // a link joins two different machines
        let j = if i == j { (i + 1) % MACHINES } else { j };
        let (a, b) = (name(i), name(j));
        // one way (quoted: `>` is the shell's) or both
        let links = if rng.gen_bool(0.3) {
            format!("'{a}->{b}'")
        } else {
            format!("{a} {b}")
        };
        let line = match roll {
            100..=102 => {
                let ms = rng.gen_range(0..=300u64);
                let jitter = match rng.gen_bool(0.5) {
                    true => format!(" {}ms", rng.gen_range(0..=ms / 3)),
                    false => String::new(),
                };
                format!("$ net delay {links} {ms}ms{jitter}")
            }
            103..=105 => {
                let tenths = rng.gen_range(0..=300u32);
                format!("$ net loss {links} {}.{}%", tenths / 10, tenths % 10)
            }
            106..=107 => {
                let mbit = [1, 2, 5, 10, 100][rng.gen_range(0..5)];
                let limit = match rng.gen_range(0..3) {
                    0 => format!(" limit {}kb", [64, 256, 1024][rng.gen_range(0..3)]),
                    _ => String::new(),
                };
                self.slowed.insert(i);
                format!("$ net rate {a} {mbit}mbit{limit}")
            }
            _ => return self.clear(rng),
        };
        if roll < 106 {
            self.shaped.insert((i.min(j), i.max(j)));
        }
        self.run_net(line);
    }

    /// `net clear` of a link pair or NIC that has settings (a random pair
    /// when none has).
    fn clear(&mut self, rng: &mut ChaCha8Rng) {
        let pairs: Vec<(usize, usize)> = self.shaped.iter().copied().collect();
        let nics: Vec<usize> = self.slowed.iter().copied().collect();
        let pick = rng.gen_range(0..(pairs.len() + nics.len()).max(1));
        let line = if let Some(&(i, j)) = pairs.get(pick) {
            self.shaped.remove(&(i, j));
            format!("$ net clear {} {}", name(i), name(j))
        } else if let Some(&i) = nics.get(pick - pairs.len()) {
            self.slowed.remove(&i);
            format!("$ net clear {}", name(i))
        } else {
            format!("$ net clear {} {}", name(0), name(1))
        };
        self.run_net(line);
    }

    /// `member add` (sometimes as a learner) of machine `i`, then its start.
    fn add_member(&mut self, rng: &mut ChaCha8Rng, i: usize) {
        let via = rng.gen_range(0..3);
        let learner = if rng.gen_bool(0.5) { " --learner" } else { "" };
        let add = format!(
            "member add {}{learner} --peer-urls=http://{}:2380",
            name(i),
            ip(i)
        );
        let out = self.run(etcdctl_on(via, &add));
        let Some(cluster) = out
            .lines()
            .find_map(|l| l.strip_prefix("ETCD_INITIAL_CLUSTER=\""))
            .map(|c| c.trim_end_matches('"').to_string())
        else {
            return;
        };
        self.run(format!("{}$ rm -rf {}.etcd", name(i), name(i)));
        let start = etcd_line(i, &cluster, "existing");
        self.started[i] = Some(start.clone());
        self.run(start);
    }

    /// `member remove` of a random member, asked on machine `via`.
    fn remove_member(&mut self, rng: &mut ChaCha8Rng, via: usize) {
        let members = self.members(via);
        if members.is_empty() {
            return;
        }
        let (id, _) = &members[rng.gen_range(0..members.len())];
        self.run(etcdctl_on(via, &format!("member remove {id}")));
    }

    /// `member promote` of the learner, if there is one.
    fn promote(&mut self, via: usize) {
        let out = self.run(etcdctl_on(via, "member list"));
        if let Some(id) = out
            .lines()
            .find(|l| l.ends_with(", true"))
            .and_then(|l| l.split(", ").next())
        {
            self.run(etcdctl_on(via, &format!("member promote {id}")));
        }
    }
}

/// What a randomized run found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub seed: u64,
    /// Every line the run executed, boot lines first.
    pub lines: Vec<String>,
    /// The broken promises, in words (empty: none).
    pub violations: Vec<String>,
    /// Key-value operations the history holds, and how many were answered.
    pub ops: usize,
    pub answered: usize,
    /// Actions on the network's physics (`net delay|loss|rate|clear`) the
    /// shell accepted.
    pub shaped: usize,
}

/// `actions` random actions from `seed`, the network's among them
/// ([`Mix::Network`]).
pub fn run(seed: u64, actions: usize) -> Outcome {
    run_mix(seed, actions, Mix::Network)
}

/// `actions` random actions of `mix` from `seed`.
pub fn run_mix(seed: u64, actions: usize, mix: Mix) -> Outcome {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_c4a0_5000_0000);
    let mut r = Run::new(seed, mix);
    for _ in 0..actions {
        r.step(&mut rng);
        // Lost writes are asked after every action too: a leader that
        // answers from a stale state for a moment would be a bug.
        if !r.s.world.violations().is_empty()
            || !crate::sim::lost::lost_writes(&r.s.world).is_empty()
        {
            break;
        }
    }
    let history = r.s.world.history();
    Outcome {
        seed,
        violations: broken(&r.s),
        ops: history.len(),
        answered: history.iter().filter(|o| o.complete.is_some()).count(),
        shaped: r.shaped_lines,
        lines: r.lines,
    }
}

/// Replays `lines` with `seed` and the checker on; the broken promises.
pub fn replay(seed: u64, lines: &[String]) -> Vec<String> {
    let mut s = Session::new(seed);
    s.world.check_invariants();
    s.world.record_history();
    let mut sink = String::new();
    if let Ok(cmds) = parse::parse_script(&lines.join("\n")) {
        for c in cmds {
            run_one(&mut s, &c, false, &mut sink);
        }
    }
    broken(&s)
}

/// The invariants broken so far, then the clients' history if it is not
/// linearizable, then acknowledged writes the serving leader no longer has
/// (no random action forces a new cluster or wipes a majority, so none may be).
fn broken(s: &Session) -> Vec<String> {
    let mut out: Vec<String> = s.world.violations().iter().map(|v| v.to_string()).collect();
    if let Err(e) = crate::sim::history::check(s.world.history()) {
        out.push(e.to_string());
    }
    let lost = crate::sim::lost::lost_writes(&s.world);
    out.extend(lost.iter().map(|l| format!("lost write: {l}")));
    out
}

/// The shortest list of `lines` found (removing chunks, then single lines,
/// while some promise still breaks) that still breaks a promise with `seed`.
pub fn shrink(seed: u64, lines: &[String]) -> Vec<String> {
    let mut best = lines.to_vec();
    let mut chunk = best.len() / 2;
    while chunk >= 1 {
        let mut start = 0;
        while start < best.len() {
            let end = (start + chunk).min(best.len());
            let candidate: Vec<String> =
                best[..start].iter().chain(&best[end..]).cloned().collect();
            if !replay(seed, &candidate).is_empty() {
                best = candidate;
            } else {
                start += chunk;
            }
        }
        chunk /= 2;
    }
    best
}

/// A failing run as a runner script: a comment with the seed and what broke,
/// then the lines.
pub fn script(seed: u64, lines: &[String], violations: &[String]) -> String {
    let mut out = format!("# quorum-playground run --seed {seed} (randomized run)\n");
    for v in violations {
        out.push_str(&format!("# broke: {v}\n"));
    }
    for l in lines {
        out.push_str(l);
        out.push('\n');
    }
    out
}
