//! The page under the work budget (`sim::budget`), in headless Chromium: a
//! run is opened in parts (the page renders between them, says how far it
//! got, and can stop), lines from outside wait until it is whole, a typed
//! command and a paste are bounded, and the attacks of issue 20
//! (`tests/attacks/`) each end with a notice that names the limit.
#![cfg(target_arch = "wasm32")]

use quorum_playground::link::Run;
use quorum_playground::shell::parse;
use quorum_playground::sim::budget;
use quorum_playground::ui::{Model, Msg, Start};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[path = "common/page.rs"]
mod page;
use page::{replay_out, run_of, send};

/// Opens a run as the page does: in parts until it is whole; returns the
/// model and how many parts it took.
fn open_in_parts(run: &Run) -> (Model, usize) {
    replay_out(Model::begin_replay(run, String::new()))
}

#[wasm_bindgen_test]
fn a_run_opened_in_parts_is_the_run_replayed_at_once() {
    let mut script = String::from("machine add n1\nn1$ etcd --name n1\n");
    for i in 0..40 {
        script.push_str(&format!("etcdctl put k{i} v{i}\nsleep 5m\n"));
    }
    let run = run_of(&script);
    let whole = Model::replay_run(&run);
    let (parts, n) = open_in_parts(&run);
    assert!(n > 1, "a long run takes more than one part ({n})");
    assert_eq!(parts.terminal_text(), whole.terminal_text());
    assert_eq!(parts.shown_ms, whole.shown_ms);
    assert_eq!(parts.notice, None);
    assert!(!parts.playing, "a link opens paused");
}

#[wasm_bindgen_test]
fn a_replay_can_be_stopped_where_it_got() {
    let mut script = String::from("machine add n1\nn1$ etcd --name n1\n");
    for _ in 0..20 {
        script.push_str("sleep 1h\n");
    }
    let run = run_of(&script);
    let m = Model::begin_replay(&run, String::new());
    let m = send(m, Msg::ReplayMore);
    let got = m
        .replaying_run
        .as_ref()
        .map(|j| j.next)
        .expect("still replaying");
    assert!(got < run.steps.len());
    // The clock's own moves wait; a line from a host waits too.
    let before = m.shown_ms;
    let m = send(m, Msg::Step);
    assert_eq!(m.shown_ms, before);
    let m = send(m, Msg::Run("echo from the host".into()));
    let m = send(m, Msg::ReplayCancel);
    assert!(m.replaying_run.is_none());
    assert_eq!(
        m.notice.as_deref(),
        Some(
            format!("You stopped opening this run: it shows its first {got} of 22 commands.")
                .as_str()
        )
    );
    assert!(m
        .terminal_text()
        .ends_with("n1$ echo from the host\nfrom the host\n"));
    assert_eq!(m.run.steps.len(), got + 1);
}

#[wasm_bindgen_test]
fn autoplay_starts_the_clock_once_the_run_is_whole() {
    let run = run_of("machine add n1\nn1$ etcd --name n1\nsleep 2\n");
    let mut m = Model::begin_replay(&run, String::new());
    m.set_playing(true);
    assert!(!m.playing, "not while the run replays");
    let (m, _) = {
        let mut m = m;
        while m.replaying_run.is_some() {
            m = send(m, Msg::ReplayMore);
        }
        (m, ())
    };
    assert!(m.playing);
}

fn attack(name: &str) -> &'static str {
    match name {
        "exponential-variables" => include_str!("attacks/exponential-variables.sh"),
        "machines-1200" => include_str!("attacks/machines-1200.sh"),
        "clusters-100-day" => include_str!("attacks/clusters-100-day.sh"),
        "servers-790-two-days" => include_str!("attacks/servers-790-two-days.sh"),
        "three-days" => include_str!("attacks/three-days.sh"),
        _ => include_str!("attacks/continuations-2000.sh"),
    }
}

/// [`open_in_parts`], giving the browser its event loop between parts as the
/// page does (a timer between parts). The largest attacks take about 2 s a
/// part in `make test-wasm`'s optimised build (15 to 30 s unoptimised, which
/// starved chromedriver: it gives up on a page that blocks for 30 s); held
/// in one piece, the parts would add up.
async fn open_in_parts_yielding(run: &Run) -> Model {
    let mut m = Model::begin_replay(run, String::new());
    let mut parts = 0;
    while m.replaying_run.is_some() {
        gloo::timers::future::TimeoutFuture::new(0).await;
        m = send(m, Msg::ReplayMore);
        parts += 1;
        assert!(parts < 10_000, "the replay ends");
    }
    m
}

/// Opens an attack link in parts and checks that it ends within its bounds with
/// a notice (or terminal line) naming the limit it met.
async fn ends_within_its_bounds(name: &str, says: &str) {
    let m = open_in_parts_yielding(&run_of(attack(name))).await;
    let all = format!(
        "{}\n{}",
        m.notice.clone().unwrap_or_default(),
        m.terminal_text()
    );
    assert!(
        all.contains(says),
        "{name}: {}",
        m.notice.clone().unwrap_or_default()
    );
    assert!(m.view.machines.len() <= budget::MAX_MACHINES, "{name}");
    let longest = m.lines.iter().map(|l| l.text.len()).max().unwrap_or(0);
    assert!(
        longest <= parse::MAX_EXPANDED_CHARS + 1,
        "{name}: a line of {longest}"
    );
}

#[wasm_bindgen_test]
async fn exponential_variables_stop_at_the_expansion_limit() {
    ends_within_its_bounds("exponential-variables", "once its variables are expanded").await;
}

#[wasm_bindgen_test]
async fn twelve_hundred_machines_stop_at_the_machine_limit() {
    ends_within_its_bounds("machines-1200", "holds at most 16 machines").await;
}

#[wasm_bindgen_test]
async fn a_hundred_cluster_days_stop_at_one_commands_events() {
    ends_within_its_bounds(
        "clusters-100-day",
        "one command handles at most 1500000 simulated events",
    )
    .await;
}

#[wasm_bindgen_test]
async fn seven_hundred_ninety_servers_stop_at_the_runs_events() {
    ends_within_its_bounds(
        "servers-790-two-days",
        "more work than the page does for one run (3000000 simulated events)",
    )
    .await;
}

#[wasm_bindgen_test]
async fn three_days_stop_at_twenty_four_hours() {
    ends_within_its_bounds("three-days", "more than 24 simulated hours").await;
}

#[wasm_bindgen_test]
fn a_paste_of_two_thousand_continuation_lines_is_one_command() {
    let text = attack("continuations-2000");
    let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let m = Model::new(1, Start::Cluster);
    let m = send(m, Msg::TogglePlay);
    let m = send(m, Msg::Run(body.join("\n")));
    assert!(m.partial.is_empty());
    let out = m.terminal_text();
    assert!(
        out.contains("word0 word1 word2"),
        "{}",
        &out[out.len().saturating_sub(300)..]
    );
    assert!(out.trim_end().ends_with("word1998 end"));
}

#[wasm_bindgen_test]
fn a_typed_command_past_the_limit_is_refused_whole() {
    let m = send(Model::new(1, Start::Cluster), Msg::TogglePlay);
    let piece = format!("{} \\", "x".repeat(10_000));
    let mut m = send(m, Msg::Run("echo \\".into()));
    for _ in 0..7 {
        m = send(m, Msg::Run(piece.clone()));
    }
    assert!(m.partial.is_empty(), "refused and forgotten");
    assert!(m.terminal_text().contains(
        "sh: the command is longer than 65536 bytes (the playground's limit); nothing was run"
    ));
    // The terminal reads the next command afresh.
    let m = send(m, Msg::Run("echo fine".into()));
    assert!(m.terminal_text().ends_with("echo fine\nfine\n"));
}
