//! The terminal's machine in the page's reducer (headless Chromium): a
//! button's `HOST$ cmd` runs on HOST and leaves the terminal where it was,
//! while a typed prompt, `ssh NAME` (the machine panel's "Use NAME's
//! terminal") and runs recorded before this behaviour still switch; live runs,
//! their share links, rewinds and the runner's transcript agree.
#![cfg(target_arch = "wasm32")]

use quorum_playground::link::{self, Run, Step};
use quorum_playground::ui::{Model, Msg, Start, TermKind};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[path = "common/page.rs"]
mod page;
use page::{paused, play, send};

fn echoes(m: &Model) -> Vec<String> {
    m.lines
        .iter()
        .filter(|l| l.kind == TermKind::Echo)
        .map(|l| l.text.clone())
        .collect()
}

fn last_echo(m: &Model) -> String {
    echoes(m).pop().unwrap_or_default()
}

/// The learner's story of issue 15: stop two members with buttons, then type
/// a put, expecting quorum loss.
fn two_stopped_by_buttons() -> Model {
    let m = paused(Model::boot(1));
    assert_eq!(m.prompt, "node01$");
    let m = send(m, Msg::Button("node02$ kill etcd".into()));
    assert_eq!(
        last_echo(&m),
        "node02$ kill etcd",
        "the echo names the button's machine"
    );
    assert_eq!(
        m.prompt, "node01$",
        "a button leaves the terminal's machine"
    );
    let m = send(m, Msg::Button("node03$ kill etcd".into()));
    assert_eq!(last_echo(&m), "node03$ kill etcd");
    assert_eq!(m.prompt, "node01$");
    send(m, Msg::Run("etcdctl put a 1".into()))
}

#[wasm_bindgen_test]
fn a_buttons_command_runs_on_its_machine_and_the_terminal_stays() {
    let m = two_stopped_by_buttons();
    assert_eq!(last_echo(&m), "node01$ etcdctl put a 1");
    let text = m.terminal_text();
    assert!(
        text.contains("etcdserver: request timed out"),
        "the put reached the live node01 and timed out without quorum: {text}"
    );
    assert!(!text.contains("TransientFailure"), "{text}");
    assert_eq!(m.prompt, "node01$");
    // What the history keeps: the buttons' lines with their machine, the
    // typed line as typed.
    assert_eq!(
        m.history.as_slice(),
        ["node02$ kill etcd", "node03$ kill etcd", "etcdctl put a 1"]
    );
}

#[wasm_bindgen_test]
fn typed_prompts_and_ssh_still_switch() {
    let m = paused(Model::boot(1));
    let m = send(m, Msg::Run("node02$ echo hi".into()));
    assert_eq!(
        m.prompt, "node02$",
        "a typed prompt switches, as a shell does"
    );
    let m = send(m, Msg::Run("ssh node03".into()));
    assert_eq!(m.prompt, "node03$");
    // The machine panel's "Use node01's terminal" types `ssh node01` as a button.
    let m = send(m, Msg::Button("ssh node01".into()));
    assert_eq!(last_echo(&m), "node03$ ssh node01");
    assert_eq!(m.prompt, "node01$");
    // A button on the terminal's own machine, and on an unknown one.
    let m = send(m, Msg::Button("node01$ echo here".into()));
    assert_eq!(last_echo(&m), "node01$ echo here");
    let m = send(m, Msg::Button("node09$ echo nowhere".into()));
    assert!(m
        .terminal_text()
        .ends_with("ssh: Could not resolve hostname node09: Name or service not known\n"));
    assert_eq!(m.prompt, "node01$");
}

#[wasm_bindgen_test]
fn the_run_records_buttons_so_a_link_and_a_script_replay_them_alike() {
    let m = two_stopped_by_buttons();
    let m = send(m, Msg::Run("echo done".into()));
    let run = m.to_run();
    let lines: Vec<&str> = run.steps.iter().map(|s| s.line.as_str()).collect();
    assert_eq!(
        lines,
        [
            "(node02)$ kill etcd",
            "(node03)$ kill etcd",
            "(node01)$ etcdctl put a 1",
            "echo done",
        ],
        "a button on another machine is recorded as (HOST)$, and the next line typed without a prompt names the terminal's machine"
    );
    let link = run.to_link().expect("fits in a link");
    let r = Model::replay_run(&Run::from_link(&link).expect("opens"));
    assert_eq!(r.terminal_text(), m.terminal_text());
    assert_eq!(r.prompt, m.prompt);
    assert_eq!(r.history, m.history);
    assert_eq!(r.quorum, m.quorum);
    // The runner (where a prompt switches) prints the same commands and outputs.
    let transcript = link::transcript(&run);
    let page = m.terminal_text();
    let tail = page
        .split_once("node02$ kill etcd\n")
        .map(|(_, t)| t)
        .unwrap_or_default();
    assert!(
        transcript.ends_with(tail),
        "transcript:\n{transcript}\npage:\n{page}"
    );
}

#[wasm_bindgen_test]
fn a_button_after_the_last_typed_line_replays_with_the_same_prompt() {
    let m = paused(Model::boot(1));
    let m = send(m, Msg::Run("ssh node02".into()));
    let m = paused(play(m, 300));
    let m = send(m, Msg::Button("node03$ kill -9 etcd".into()));
    let m = play(m, 500);
    let m = paused(m);
    let r = Model::replay_run(&m.to_run());
    assert_eq!(r.prompt, "node02$");
    assert_eq!(r.terminal_text(), m.terminal_text());
    assert_eq!(r.shown_ms, m.shown_ms);
    // Back to the moment between the two commands (a rewind replays the cut run).
    let at = m.times[1].0;
    let back = send(m.clone(), Msg::Seek(at));
    assert_eq!(back.prompt, "node02$");
    let forward = send(back, Msg::Seek(u64::MAX));
    assert_eq!(forward.terminal_text(), m.terminal_text());
}

#[wasm_bindgen_test]
fn a_run_recorded_before_buttons_kept_the_terminal_replays_as_it_ran() {
    // A link made by the page before this change: a button's `node03$ kill
    // etcd` switched the terminal to node03, so the next put went there.
    let mut run = Run::new(1, Start::Cluster);
    run.steps = ["node03$ kill etcd", "etcdctl put a 1"]
        .iter()
        .map(|l| Step {
            wait_ms: 0,
            line: l.to_string(),
        })
        .collect();
    let r = Model::replay_run(&run);
    assert_eq!(last_echo(&r), "node03$ etcdctl put a 1");
    // No etcd answers on node03: the client gives up on its endpoint.
    assert!(r
        .terminal_text()
        .contains("all SubConns are in TransientFailure"));
    assert_eq!(r.prompt, "node03$");
}

#[wasm_bindgen_test]
fn a_button_pressed_while_a_command_is_pending_waits_and_keeps_the_terminal() {
    let m = play(Model::boot(1), 100);
    let m = send(m, Msg::Run("sleep 2".into()));
    assert!(m.pending.is_some());
    let m = send(m, Msg::Button("node02$ echo from node02".into()));
    let m = send(m, Msg::Run("echo after".into()));
    assert_eq!(m.queue.len(), 2);
    let m = play(m, 2100);
    assert!(m.pending.is_none() && m.queue.is_empty());
    assert_eq!(
        echoes(&m).iter().rev().take(2).rev().collect::<Vec<_>>(),
        ["node02$ echo from node02", "node01$ echo after"]
    );
    assert_eq!(m.prompt, "node01$");
    let r = Model::replay_run(&paused(m.clone()).to_run());
    assert_eq!(r.terminal_text(), m.terminal_text());
}

#[wasm_bindgen_test]
fn bad_button_lines_never_panic() {
    let mut m = paused(Model::boot(1));
    for line in [
        "",
        "(",
        "()$ x",
        "(node02)$ echo 'open",
        "node02$ echo \\",
        "node02$\nnode03$ echo two",
        "(node02)$",
        "node02$",
        "$ echo current",
    ] {
        m = send(m, Msg::Button(line.into()));
        let r = Model::replay_run(&m.to_run());
        assert_eq!(r.terminal_text(), m.terminal_text(), "after {line:?}");
        assert_eq!(r.prompt, m.prompt, "after {line:?}");
    }
}
