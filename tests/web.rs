//! In headless Chromium (wasm-bindgen-test): the same scripts give byte for byte
//! the transcripts the native runner wrote to `tests/golden/` (with server logs,
//! including runs with cut links), and the page's model boots its cluster and
//! answers commands.
#![cfg(target_arch = "wasm32")]

use quorum_playground::shell::runner::{run_source, RunOptions};
use quorum_playground::ui::{Model, TermKind};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn check(script: &str, golden: &str) {
    let got = run_source(
        script,
        RunOptions {
            seed: 1,
            logs: true,
            ..Default::default()
        },
    )
    .expect("parses");
    if got == golden {
        return;
    }
    let line = got
        .lines()
        .zip(golden.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    panic!(
        "wasm transcript differs from the native golden file at line {}:\n  wasm:   {:?}\n  native: {:?}",
        line + 1,
        got.lines().nth(line).unwrap_or(""),
        golden.lines().nth(line).unwrap_or("")
    );
}

#[wasm_bindgen_test]
fn seed_000_matches_native() {
    check(
        include_str!("scripts/seed-000.sh"),
        include_str!("golden/seed-000.out"),
    );
}

/// Faults with logs: a leader cut off from both followers, elections on each
/// side, the heal, the streams reconnecting (the rafthttp lines) and a retry loop.
#[wasm_bindgen_test]
fn leader_isolated_with_logs_matches_native() {
    check(
        include_str!("scripts/09-partitions-01-leader-isolated.sh"),
        include_str!("golden/09-partitions-01-leader-isolated.out"),
    );
}

/// One-way cuts: the case where the streams' reads time out on one side only.
#[wasm_bindgen_test]
fn one_way_cuts_with_logs_match_native() {
    check(
        include_str!("scripts/09-partitions-04-one-way.sh"),
        include_str!("golden/09-partitions-04-one-way.out"),
    );
}

#[wasm_bindgen_test]
fn shell_md_example_matches_native() {
    check(
        include_str!("scripts/shell-md-example.sh"),
        include_str!("golden/shell-md-example.out"),
    );
}

#[wasm_bindgen_test]
fn the_model_boots_and_runs_commands() {
    let mut m = Model::boot(1);
    // Paused: a command answers at once (playing, it would be pending on the page's clock).
    m.playing = false;
    assert_eq!(m.prompt, "node01$");
    assert!(m.view.machines.iter().all(|x| x.process.is_some()));
    let m = m.run("etcdctl member list");
    assert!(m.terminal_text().contains("started, node02"));
    let m = m.run("etcdctl bogus");
    let last = m.lines.last().expect("a line");
    assert_eq!(last.kind, TermKind::Stderr);
    assert_eq!(m.history.len(), 2);
}
