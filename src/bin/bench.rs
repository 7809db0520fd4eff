//! `make bench`: benchmarks that print one line per figure, `name: value unit (goal: ...)`.
//! Native only; timing uses the host clock, never the simulation's.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    bench::run();
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
#[allow(clippy::disallowed_methods)] // a benchmark measures host time
mod bench {
    use std::time::Instant;

    use quorum_playground::shell::parse;
    use quorum_playground::shell::runner::run_one;
    use quorum_playground::shell::session::Session;

    const BOOT: &str = include_str!("../ui/boot.sh");

    fn booted(seed: u64) -> Session {
        let mut s = Session::new(seed);
        let mut sink = String::new();
        for c in parse::parse_script(BOOT).unwrap_or_default() {
            run_one(&mut s, &c, false, &mut sink);
        }
        s
    }

    /// A five-member cluster on the playground's machines, as the boot script
    /// starts three.
    fn booted5(seed: u64) -> Session {
        let names: Vec<String> = (1..=5).map(|i| format!("node0{i}")).collect();
        let cluster: Vec<String> = (1..=5)
            .map(|i| format!("node0{i}=http://192.168.0.6{i}:2380"))
            .collect();
        let mut script = String::new();
        for (i, n) in names.iter().enumerate() {
            script.push_str(&format!("machine add {n} 192.168.0.6{}\n", i + 1));
        }
        for (i, n) in names.iter().enumerate() {
            let ip = format!("192.168.0.6{}", i + 1);
            script.push_str(&format!(
                "{n}$ etcd --name {n} --initial-advertise-peer-urls http://{ip}:2380 \
                 --listen-peer-urls http://0.0.0.0:2380 --advertise-client-urls http://{ip}:2379 \
                 --listen-client-urls http://0.0.0.0:2379 --initial-cluster {}\n",
                cluster.join(",")
            ));
        }
        script.push_str("node01$ sleep 3\n");
        let mut s = Session::new(seed);
        let mut sink = String::new();
        for c in parse::parse_script(&script).unwrap_or_default() {
            run_one(&mut s, &c, false, &mut sink);
        }
        s
    }

    /// `secs` simulated seconds of `s` with one put per simulated second.
    fn puts_for(s: &mut Session, secs: u64) -> f64 {
        let start_ms = s.world.now_ms();
        let t = Instant::now();
        let mut i = 0;
        while s.world.now_ms() < start_ms + secs * 1000 {
            let put = s.run_typed(&format!("etcdctl put key{i} value{i}"));
            assert_eq!(put.output.status, 0, "put failed: {}", put.output.stderr);
            let now = s.world.now_ms();
            let next = start_ms + (i + 1) * 1000;
            if next > now {
                s.run_typed(&format!("sleep {}ms", next - now));
            }
            i += 1;
        }
        t.elapsed().as_secs_f64()
    }

    /// Bare raft-rs in the same shape: five RawNodes on MemStorage, 100 ms ticks,
    /// one proposal per simulated second, every message delivered in order at
    /// once, the logger discarding: the plain Ready loop of raft-rs's examples.
    fn bare_raft(secs: u64) -> f64 {
        use raft::eraftpb::{ConfState, Message};
        use raft::storage::MemStorage;
        use raft::{Config, RawNode};

        let logger = slog::Logger::root(slog::Discard, slog::o!());
        let ids: Vec<u64> = (1..=5).collect();
        let mut nodes: Vec<RawNode<MemStorage>> = ids
            .iter()
            .map(|&id| {
                let storage =
                    MemStorage::new_with_conf_state(ConfState::from((ids.clone(), vec![])));
                let cfg = Config {
                    id,
                    election_tick: 10,
                    heartbeat_tick: 1,
                    check_quorum: true,
                    ..Default::default()
                };
                RawNode::new(&cfg, storage, &logger).expect("a raw node")
            })
            .collect();
        let t = Instant::now();
        let _ = nodes[0].campaign();
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
            // Deliver until quiet.
            loop {
                let mut msgs: Vec<Message> = Vec::new();
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
                    break;
                }
                for m in msgs {
                    let to = m.to as usize;
                    if let Some(n) = nodes.get_mut(to - 1) {
                        let _ = n.step(m);
                    }
                }
            }
        }
        assert!(applied > secs, "bare raft-rs committed its proposals");
        t.elapsed().as_secs_f64()
    }

    /// Best of `runs` of `f` (seconds).
    fn best(runs: usize, mut f: impl FnMut() -> f64) -> f64 {
        (0..runs).map(|_| f()).fold(f64::MAX, f64::min)
    }

    pub fn run() {
        let secs = 60;
        let ticks = (5 * secs * 10) as f64;
        let sim = best(5, || puts_for(&mut booted5(1), secs));
        let bare = best(5, || bare_raft(secs));
        println!(
            "sim_5_members_ticks_per_s_native: {:.0} ticks/s ({secs} simulated s, one put per s, best of 5) (goal: at least 0.5 of bare raft-rs)",
            ticks / sim
        );
        println!(
            "bare_raft_5_nodes_ticks_per_s_native: {:.0} ticks/s (same shape, raft-rs alone) (goal: reference)",
            ticks / bare
        );
        println!(
            "sim_over_bare_raft_native: {:.2} (goal: >= 0.5)",
            bare / sim
        );
        let runs = 5;
        let best_ms = best(runs, || puts_for(&mut booted(1), 60)) * 1000.0;
        // Three servers each tick every 100 ms: 1,800 raft ticks in 60 s.
        let ticks_per_s = 1800.0 / (best_ms / 1000.0);
        println!("sim_3_members_60s_1_put_per_s: {best_ms:.1} ms (best of {runs}; 60 puts) (goal: none yet)");
        println!("sim_3_members_ticks_per_s: {ticks_per_s:.0} ticks/s (goal: none yet)");
    }
}
