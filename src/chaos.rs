//! Randomized runs: from a seed, a three-member cluster on five machines and a
//! list of random shell lines (puts, gets and deletes from any machine,
//! graceful stops, crashes, restarts, power cuts, wiped data dirs, cut and
//! healed links, partitions, member add and remove, learner add and promote,
//! time passing), with `sim::invariants` checked after every event and the
//! clients' history checked for linearizability (`sim::history`). A run that
//! breaks a promise is shrunk to a shorter list of lines that still breaks one,
//! printed as a script the runner replays (`quorum-playground run`).
//!
//! Lines are chosen while the run goes (member IDs are read from `member list`),
//! so a failing run's lines are a plain script: replaying them, or any subset,
//! needs no generator.

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

/// A run in progress: the session, the lines so far, and how each machine's
/// member was last started (to restart it the same way).
struct Run {
    s: Session,
    lines: Vec<String>,
    started: Vec<Option<String>>,
}

impl Run {
    fn new(seed: u64) -> Run {
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
        };
        for l in boot {
            r.run(l);
        }
        r
    }

    /// Runs one line; its standard output.
    fn run(&mut self, line: String) -> String {
        let mut out = String::new();
        if let Ok(cmds) = parse::parse_script(&line) {
            for c in cmds {
                out = self.s.run(&c.prompt, &c.text).output.stdout;
            }
        }
        self.lines.push(line);
        out
    }

    /// The members as `member list` on machine `i` prints them: (ID, name).
    fn members(&mut self, i: usize) -> Vec<(String, String)> {
        let out = self.run(format!("{}$ etcdctl {} member list", name(i), endpoint(i)));
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
        let line = match rng.gen_range(0..100) {
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
            _ => return self.promote(j),
        };
        self.run(line);
    }

    /// `member add` (sometimes as a learner) of machine `i`, then its start.
    fn add_member(&mut self, rng: &mut ChaCha8Rng, i: usize) {
        let via = rng.gen_range(0..3);
        let learner = if rng.gen_bool(0.5) { " --learner" } else { "" };
        let out = self.run(format!(
            "{}$ etcdctl {} member add {}{learner} --peer-urls=http://{}:2380",
            name(via),
            endpoint(via),
            name(i),
            ip(i)
        ));
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
        self.run(format!(
            "{}$ etcdctl {} member remove {id}",
            name(via),
            endpoint(via)
        ));
    }

    /// `member promote` of the learner, if there is one.
    fn promote(&mut self, via: usize) {
        let out = self.run(format!(
            "{}$ etcdctl {} member list",
            name(via),
            endpoint(via)
        ));
        if let Some(id) = out
            .lines()
            .find(|l| l.ends_with(", true"))
            .and_then(|l| l.split(", ").next())
        {
            self.run(format!(
                "{}$ etcdctl {} member promote {id}",
                name(via),
                endpoint(via)
            ));
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
}

/// `actions` random actions from `seed`.
pub fn run(seed: u64, actions: usize) -> Outcome {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_c4a0_5000_0000);
    let mut r = Run::new(seed);
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
    let violations = broken(&r.s);
    let history = r.s.world.history();
    let (ops, answered) = (
        history.len(),
        history.iter().filter(|o| o.complete.is_some()).count(),
    );
    Outcome {
        ops,
        answered,
        seed,
        lines: r.lines,
        violations,
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
