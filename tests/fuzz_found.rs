//! Inputs that once broke something stay as regression tests: every file in
//! `tests/fuzz-found/` (written by `make fuzz`, named after its target) goes
//! through its target again and must give a result or an error, not a panic.
//! A few hand-made nasty inputs go through every target too.
#![cfg(not(target_arch = "wasm32"))]

use quorum_playground::shell::parse;
use quorum_playground::shell::runner::{run_source, RunOptions};
use quorum_playground::{lessons, link};

fn through(target: &str, input: &str) {
    match target {
        "parse" => {
            let _ = parse::parse_script(input);
        }
        "lesson" => {
            let _ = lessons::parse("found", input);
        }
        "link" => {
            let _ = link::Run::from_link(input);
            let _ = link::Run::from_link(&link::pack(input.as_bytes()));
            let _ = link::import_with_report(input).map(|i| i.report.to_string());
        }
        _ => {
            let kept: Vec<&str> = input
                .lines()
                .filter(|l| parse::parse_script(l).is_ok())
                .collect();
            for script in [input.to_string(), kept.join("\n")] {
                let _ = run_source(
                    &script,
                    RunOptions {
                        seed: 1,
                        logs: true,
                        ..Default::default()
                    },
                );
            }
        }
    }
}

const NASTY: &[&str] = &[
    "",
    "\\",
    "node01$ \\\n",
    "(x$ etcd",
    "machine add a\na$ etcd --name a --initial-cluster a=http://\u{0}:2380",
    "machine add a 10.0.0.1\na$ etcdctl --endpoints=http://10.0.0.1:99999 put k v",
    "machine add a\na$ etcd --heartbeat-interval 18446744073709551616",
    "title: x\n## \n$ \n| \n? leader \u{e9}",
    "seed: -1\nstart: cluster\n## a\n$ net cut 'a->'",
    // the network's physics at their extremes: a NIC of one bit per second
    // (its queue drains for centuries), then cleared; delays of a day and
    // past u64
    "machine add a 10.0.0.1\nmachine add b 10.0.0.2\n\
     a$ etcd --name a --listen-client-urls http://10.0.0.1:2379 --advertise-client-urls http://10.0.0.1:2379\n\
     $ net rate a 1bit limit 1\n$ net loss a b 100%\n\
     b$ etcdctl --endpoints=http://10.0.0.1:2379 --command-timeout=1s put k v\n\
     $ net clear a\n$ net clear a b\n$ net show",
    "machine add a\nmachine add b\n$ net delay a b 18446744073709551615ms 18446744073709551615ms\n\
     $ net delay a b 24h 24h\na$ etcd --name a\n$ sleep 1\n\
     $ net delay 'a->a' 1ms\n$ net loss a b 1e-300%\n$ net rate a 99999999999999999999tbit",
];

#[test]
fn kept_and_nasty_inputs_give_results_or_errors() {
    let mut n = 0;
    if let Ok(dir) = std::fs::read_dir("tests/fuzz-found") {
        for e in dir.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            let target = name.split('-').next().unwrap_or("run").to_string();
            let input = std::fs::read_to_string(e.path()).unwrap_or_default();
            through(&target, &input);
            n += 1;
        }
    }
    for input in NASTY {
        for target in ["parse", "lesson", "run", "link"] {
            through(target, input);
            n += 1;
        }
    }
    // The attacks of issue 20 (`tests/attacks/`), through every target.
    let mut attacks = 0;
    for e in std::fs::read_dir("tests/attacks")
        .into_iter()
        .flatten()
        .flatten()
    {
        let input = std::fs::read_to_string(e.path()).unwrap_or_default();
        for target in ["parse", "lesson", "run", "link"] {
            through(target, &input);
        }
        attacks += 1;
    }
    assert_eq!(attacks, 6, "every attack is kept");
    assert!(n >= NASTY.len() * 3);
}
