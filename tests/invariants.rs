//! Raft's and etcd's promises (`sim::invariants`) hold after every event of
//! every scenario script in `tests/scripts/` and every lesson, with several
//! seeds: faults, elections, membership changes, restores and forced clusters
//! included.
#![cfg(not(target_arch = "wasm32"))]

use quorum_playground::lessons;
use quorum_playground::shell::parse;
use quorum_playground::shell::runner::run_one;
use quorum_playground::shell::session::Session;

/// Runs `script` with the checker on; the violations, one per line.
fn violations(seed: u64, script: &str) -> String {
    let mut s = Session::new(seed);
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
    for entry in std::fs::read_dir("tests/scripts").expect("tests/scripts") {
        let path = entry.expect("an entry").path();
        let script = std::fs::read_to_string(&path).expect("readable");
        for seed in 1..=3 {
            n += 1;
            let v = violations(seed, &script);
            if !v.is_empty() {
                bad.push_str(&format!("{} (seed {seed}):\n{v}", path.display()));
            }
        }
    }
    assert!(n >= 60, "ran {n} scripts");
    assert_eq!(bad, "");
}

#[test]
fn every_lesson_keeps_the_promises() {
    let mut bad = String::new();
    for entry in std::fs::read_dir("static/lessons").expect("static/lessons") {
        let path = entry.expect("an entry").path();
        let text = std::fs::read_to_string(&path).expect("readable");
        let name = path.display().to_string();
        let lesson = lessons::parse(&name, &text).expect("a lesson");
        let v = violations(lesson.seed, &lessons::script(&lesson));
        if !v.is_empty() {
            bad.push_str(&format!("{name}:\n{v}"));
        }
    }
    assert_eq!(bad, "");
}
