//! Randomized runs (`quorum_playground::chaos`): 200 seeds of 200 random
//! actions each (faults, restarts, wiped data dirs, partitions, membership and
//! learner changes, puts, gets and deletes, links' latency, jitter and loss,
//! NICs' rates and queues), with Raft's and etcd's promises
//! checked after every event and no panic. A failing seed prints the shortest
//! script found that still fails, for `quorum-playground run --seed N`.
//! `make soak` runs many more (`src/bin/soak.rs`).
#![cfg(not(target_arch = "wasm32"))]

use quorum_playground::chaos;

const SEEDS: u64 = 200;
const ACTIONS: usize = 200;

#[test]
fn two_hundred_random_runs_keep_every_promise() {
    let mut failures = String::new();
    let (mut lines, mut ops, mut answered, mut shaped) = (0, 0, 0, 0);
    let mut ran = 0;
    for seed in 1..=SEEDS {
        let out = chaos::run(seed, ACTIONS);
        // a seed counts when it ran its actions (a run of no lines checks nothing)
        ran += u64::from(out.lines.len() >= ACTIONS);
        lines += out.lines.len();
        ops += out.ops;
        answered += out.answered;
        shaped += out.shaped;
        if !out.violations.is_empty() {
            let short = chaos::shrink(seed, &out.lines);
            let still = chaos::replay(seed, &short);
            failures.push_str(&chaos::script(seed, &short, &still));
        }
    }
    assert_eq!(ran, SEEDS, "seeds that ran their {ACTIONS} actions");
    assert!(lines as u64 >= SEEDS * ACTIONS as u64, "ran {lines} lines");
    // about one action in nine is on the network's physics, and the shell
    // took them (a refused line would shape nothing)
    let expected = SEEDS as usize * ACTIONS * 12 / 112;
    assert!(
        shaped > expected * 3 / 4,
        "{shaped} network actions taken, ~{expected} expected"
    );
    // the histories the checker judged are real: thousands of key-value
    // operations were answered, and faults left others unanswered
    assert!(
        ops > 8_000 && answered > ops / 4 && answered < ops,
        "{answered} of {ops} answered"
    );
    println!(
        "{lines} lines, {shaped} network actions, {ops} key-value operations, {answered} answered"
    );
    assert_eq!(failures, "", "failing runs, shrunk");
}

/// The shrinker keeps a failing list failing and makes it shorter: the
/// finding in `tests/findings/wiped-member-restarted-as-new.sh` (a run the
/// checker flags), padded with harmless lines, shrinks back to no more lines
/// than it had, and still fails.
#[test]
fn a_failing_run_shrinks_to_a_script_that_still_fails() {
    let finding = include_str!("findings/wiped-member-restarted-as-new.sh");
    let core: Vec<String> = finding
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    assert!(!chaos::replay(38, &core).is_empty(), "the finding fails");
    let mut padded = Vec::new();
    for (n, l) in core.iter().enumerate() {
        padded.push(l.clone());
        if n > 8 {
            padded.push(
                "node04$ etcdctl --endpoints=http://10.9.0.4:2379 --command-timeout=1s get k1"
                    .into(),
            );
            padded.push("$ sleep 10ms".into());
        }
    }
    let short = chaos::shrink(38, &padded);
    assert!(
        short.len() <= core.len(),
        "{} lines from {}",
        short.len(),
        padded.len()
    );
    assert!(!chaos::replay(38, &short).is_empty());
    // the script form names the seed and what broke
    let text = chaos::script(38, &short, &chaos::replay(38, &short));
    assert!(text.starts_with("# quorum-playground run --seed 38"));
    assert!(text.contains("# broke: "));
}

/// `make soak` found it: an old leader cut off by `net isolate` still believes
/// it leads for a moment after a new one was elected, and was taken for the
/// cluster when asking for lost writes (`sim::lost` now asks only a leader no
/// member has a later term than). The run as it was found: LAN actions only.
#[test]
fn seed_7572_a_cut_off_old_leader_is_not_the_cluster() {
    let outcome = chaos::run_mix(7572, 200, chaos::Mix::Lan);
    assert!(outcome.lines.iter().any(|l| l.contains("net isolate")));
    assert_eq!(outcome.violations, Vec::<String>::new());
}
