//! The page in headless Chromium (wasm-bindgen-test): the reducer (clock, pending
//! commands and the lines typed behind them, speed and seed checks, continuation
//! lines, timeline markers and announcements) and the mounted app (the automation
//! contract's test IDs and states, a link clicked on the map, a learner's buttons).
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use quorum_playground::link::Run;
use quorum_playground::shell::parse;
use quorum_playground::shell::runner::{run_source, RunOptions};
use quorum_playground::sim::quorum::Change;
use quorum_playground::ui::{
    embed, report, EtcdVersion, EventKind, ExportKind, MarkerKind, Model, Msg, PauseOn, Start,
    TermKind,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use yew::Reducible;

wasm_bindgen_test_configure!(run_in_browser);

#[path = "common/page.rs"]
mod page;
use page::{by_testid, click, document, mount, paused, play, send, until};

#[wasm_bindgen_test]
fn a_paused_page_runs_a_typed_script_as_the_runner_does() {
    let script = include_str!("scripts/shell-md-example.sh");
    let expected = run_source(
        script,
        RunOptions {
            seed: 1,
            logs: false,
            ..Default::default()
        },
    )
    .expect("parses");
    let mut m = paused(Model::new(1, Start::Empty));
    for line in script.lines() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        m = send(m, Msg::Run(line.to_string()));
    }
    assert!(m.pending.is_none());
    assert_eq!(m.terminal_text(), expected);
}

#[wasm_bindgen_test]
fn a_command_that_takes_time_is_pending_while_the_clock_plays() {
    let m = play(Model::boot(1), 100);
    let start = m.shown_ms;
    let m = send(m, Msg::Run("sleep 2".into()));
    let p = m.pending.clone().expect("pending");
    assert_eq!(p.end_ms, start + 2000);
    assert_eq!(m.shown_ms, start);
    assert_eq!(m.lines.last().map(|l| l.kind), Some(TermKind::Echo));
    // Typed meanwhile: waits behind it.
    let m = send(m, Msg::Run("echo after".into()));
    assert_eq!(m.queue.len(), 1);
    let m = play(m, 1000);
    assert!(m.pending.is_some(), "still running after 1 s");
    assert!(m.shown_ms >= start + 1000 && m.shown_ms < start + 2000);
    let m = play(m, 1100);
    assert!(m.pending.is_none());
    assert!(m.queue.is_empty());
    assert!(m.terminal_text().ends_with("node01$ echo after\nafter\n"));
    assert!(m.shown_ms >= start + 2000);
}

#[wasm_bindgen_test]
fn a_pending_put_shows_the_world_moving_before_its_error() {
    // Two members stopped: the put cannot commit and times out after 5 s,
    // while the frames show the leader stepping down on the way.
    let m = paused(Model::boot(1));
    let m = send(m, Msg::Run("node02$ kill -9 etcd".into()));
    let m = send(m, Msg::Run("node03$ kill -9 etcd".into()));
    let m = play(m, 50);
    let m = send(m, Msg::Run("node01$ etcdctl put foo bar".into()));
    let p = m.pending.clone().expect("pending");
    assert!(
        p.end_ms - p.start_ms >= 4500,
        "about the 5 s request timeout"
    );
    let m = play(m, 3000);
    assert!(
        m.pending.is_some(),
        "still pending after 3 s: the page shows frames, not the end"
    );
    let node01 = m
        .view
        .machines
        .iter()
        .find(|x| x.name == "node01")
        .expect("node01");
    let role = node01.process.as_ref().map(|p| p.role.name());
    assert_ne!(role, Some("leader"), "the frames show node01 stepping down");
    let m = play(m, 2500);
    assert!(m.pending.is_none());
    let last = m.lines.last().expect("a line");
    assert_eq!(last.kind, TermKind::Stderr);
    assert!(last.text.starts_with("Error:"), "{}", last.text);
}

#[wasm_bindgen_test]
fn pausing_finishes_a_pending_command_and_runs_what_waits() {
    let m = play(Model::boot(1), 100);
    let m = send(m, Msg::Run("sleep 5".into()));
    let m = send(m, Msg::Run("echo next".into()));
    assert!(m.pending.is_some());
    let m = send(m, Msg::TogglePlay);
    assert!(m.pending.is_none() && m.queue.is_empty());
    assert!(m.terminal_text().ends_with("node01$ echo next\nnext\n"));
}

#[wasm_bindgen_test]
fn the_report_replays_the_time_the_clock_ran() {
    let m = play(Model::boot(1), 1000);
    let m = send(m, Msg::TogglePlay);
    let m = send(m, Msg::Run("etcdctl member list".into()));
    // What the page's effect hands the report after each render.
    report::keep(m.run.clone());
    let r = report::text("x");
    assert!(r.contains("sleep 10"), "{r}");
}

#[wasm_bindgen_test]
fn one_tick_and_the_clock() {
    let m = paused(Model::boot(1));
    let t = m.shown_ms;
    let m = send(m, Msg::Step);
    assert_eq!(m.shown_ms, t + 100);
    let m = send(m, Msg::Frame(1000.0));
    assert_eq!(m.shown_ms, t + 100, "paused: frames do not move the clock");
    let m = send(m, Msg::SetSpeed("10x".into()));
    let m = play(m, 160);
    assert!(m.shown_ms >= t + 100 + 1600);
}

#[wasm_bindgen_test]
fn a_late_frame_plays_no_time() {
    // A page that was not drawn for a while (a background tab or window) goes on
    // from where its clock stood instead of jumping.
    let m = send(paused(Model::boot(1)), Msg::SetSpeed("100".into()));
    let m = send(m, Msg::TogglePlay);
    let t = m.shown_ms;
    let m = send(m, Msg::Frame(5_000.0));
    assert_eq!(m.shown_ms, t, "five seconds away play nothing");
    let m = send(m, Msg::Frame(300.0));
    assert_eq!(m.shown_ms, t, "nor does a frame later than 250 ms");
    let m = send(m, Msg::Frame(16.0));
    assert_eq!(m.shown_ms, t + 1600, "the next frame plays at 100x");
}

#[wasm_bindgen_test]
fn a_frame_without_a_simulated_millisecond_shows_nothing_new() {
    // At 0.1x a 6 ms frame is 0.6 simulated ms: no new view and no new version
    // (the page does not render it); the time is carried to the next frame.
    let m = send(paused(Model::boot(1)), Msg::SetSpeed("0.1".into()));
    let m = send(m, Msg::TogglePlay);
    let (t, v) = (m.shown_ms, m.version);
    let next = send(m.clone(), Msg::Frame(6.0));
    assert_eq!((next.shown_ms, next.version), (t, v));
    assert!(Rc::ptr_eq(&m.view, &next.view));
    let next = send(next, Msg::Frame(6.0));
    assert_eq!(next.shown_ms, t + 1, "0.6 + 0.6 simulated ms: one whole");
    assert!(next.version > v);
}

#[wasm_bindgen_test]
fn a_frame_shares_what_it_did_not_change() {
    // The panels skip a render when their part of the model is the same value,
    // so a frame must not copy what it did not change; a paused frame is no
    // change at all (the page does not re-render).
    let m = play(Model::boot(1), 3000);
    let next = send(m.clone(), Msg::Frame(16.0));
    assert!(next.shown_ms > m.shown_ms);
    assert!(!Rc::ptr_eq(&m.view, &next.view), "a new frame of the world");
    assert!(Rc::ptr_eq(&m.lines, &next.lines));
    assert!(Rc::ptr_eq(&m.history, &next.history));
    assert!(Rc::ptr_eq(&m.queue, &next.queue));
    assert!(Rc::ptr_eq(&m.timeline, &next.timeline));
    assert!(
        Rc::ptr_eq(&m.quorum, &next.quorum),
        "a healthy cluster's quorum analysis says the same: {:?}",
        next.quorum
    );
    let copy = next.clone();
    assert!(
        Rc::ptr_eq(&copy.view, &next.view),
        "cloning the model copies no machines"
    );
    let still = Rc::new(paused(next));
    let after = still.clone().reduce(Msg::Frame(16.0));
    assert!(Rc::ptr_eq(&still, &after), "a paused frame changes nothing");
}

#[wasm_bindgen_test]
fn bad_speed_and_seed_change_nothing() {
    let m = Model::boot(1);
    let id = m.world_id;
    for bad in ["fast", "0", "1000", "NaN", "-1", ""] {
        let n = send(m.clone(), Msg::SetSpeed(bad.into()));
        assert_eq!(n.speed, 1.0, "{bad}");
        assert!(
            n.notice.as_deref().is_some_and(|t| t.starts_with("speed:")),
            "{bad}"
        );
    }
    for bad in ["abc", "-3", "1.5", "18446744073709551616"] {
        let n = send(
            m.clone(),
            Msg::Reset {
                seed: bad.into(),
                start: Start::Cluster,
                etcd: EtcdVersion::V3_4,
            },
        );
        assert_eq!(n.world_id, id, "{bad}");
        assert!(
            n.notice.as_deref().is_some_and(|t| t.starts_with("seed:")),
            "{bad}"
        );
    }
    let n = send(
        m.clone(),
        Msg::Reset {
            seed: " 7 ".into(),
            start: Start::Empty,
            etcd: EtcdVersion::V3_4,
        },
    );
    assert_eq!(n.seed, 7);
    assert_ne!(n.world_id, id);
    assert!(n.view.machines.is_empty());
}

#[wasm_bindgen_test]
fn continuation_lines_join_as_in_scripts() {
    let m = paused(Model::boot(1));
    let m = send(m, Msg::Run("etcdctl put \\".into()));
    assert!(!m.partial.is_empty(), "waits for the rest");
    // A button's command is a whole line of its own, whatever is being typed.
    let m = send(m, Msg::Button("echo button".into()));
    assert!(m.terminal_text().ends_with("node01$ echo button\nbutton\n"));
    let m = send(m, Msg::Run("   key \\".into()));
    let m = send(m, Msg::Run("  value".into()));
    assert!(m.partial.is_empty());
    assert!(m
        .terminal_text()
        .ends_with("node01$ etcdctl put key value\nOK\n"));
    // As in scripts: `foo\` + `bar` is one word, and comments run nothing.
    let m = send(m, Msg::Run("echo foo\\".into()));
    let m = send(m, Msg::Run("bar".into()));
    assert!(
        m.terminal_text().ends_with("node01$ echo foobar\nfoobar\n"),
        "{}",
        m.terminal_text()
    );
    let before = m.lines.len();
    let m = send(m, Msg::Run("# a comment".into()));
    assert_eq!(m.lines.len(), before);
}

#[wasm_bindgen_test]
fn the_timeline_marks_faults_and_quorum_and_the_live_region_says_so() {
    let m = play(Model::boot(1), 500);
    let m = send(m, Msg::Run("net cut node01 node02".into()));
    let m = send(m, Msg::Run("net cut node01 node03".into()));
    let m = send(m, Msg::Run("net cut node02 node03".into()));
    let mut m = play(m, 200);
    let mut heard = Vec::new();
    for _ in 0..40 {
        m = play(m, 250);
        heard.push(m.announce.clone());
    }
    let kinds: Vec<MarkerKind> = m.timeline.markers.iter().map(|x| x.kind).collect();
    assert_eq!(kinds.iter().filter(|k| **k == MarkerKind::Fault).count(), 3);
    assert!(kinds.contains(&MarkerKind::QuorumLost), "{kinds:?}");
    assert!(heard.iter().any(|a| a.contains("quorum lost")), "{heard:?}");
    let m = send(m, Msg::Run("net heal".into()));
    let m = play(m, 5000);
    assert!(m
        .timeline
        .markers
        .iter()
        .any(|x| x.kind == MarkerKind::QuorumRegained));
    assert!(m.timeline.samples.len() >= 3);
}

#[wasm_bindgen_test]
fn the_report_names_the_seed_and_the_commands() {
    let m = paused(Model::new(42, Start::Cluster));
    let m = send(m, Msg::Run("etcdctl member list".into()));
    report::keep(m.run.clone());
    let r = report::text("boom");
    assert!(r.contains("seed: 42"), "{r}");
    assert!(r.ends_with("etcdctl member list\n"), "{r}");
    assert!(parse::parse_script(&r.lines().skip(4).collect::<Vec<_>>().join("\n")).is_ok());
}

#[wasm_bindgen_test]
fn the_panic_banner_shows_the_report_as_text() {
    let mut run = (*paused(Model::new(9, Start::Empty)).run).clone();
    run.steps.push(quorum_playground::link::Step {
        wait_ms: 0,
        line: "<b>not html</b>".into(),
    });
    report::keep(std::rc::Rc::new(run));
    report::show_banner(&report::text("a test panic"));
    let banner = by_testid(
        &document().document_element().expect("root"),
        "panic-banner",
    )
    .expect("a banner");
    let text = banner.text_content().unwrap_or_default();
    assert!(text.contains("seed: 9"), "{text}");
    assert!(text.contains("<b>not html</b>"), "shown as text: {text}");
    assert!(
        banner.query_selector("b").ok().flatten().is_none(),
        "never inserted as HTML"
    );
    banner.remove();
}

// ---- the mounted app -------------------------------------------------------

#[wasm_bindgen_test]
async fn the_app_honours_the_automation_contract() {
    let (root, handle) = mount();
    until(&root, "machines", |r| {
        by_testid(r, "machine-node03").is_some()
    })
    .await;
    for id in [
        "terminal-input",
        "terminal-output",
        "quorum-status",
        "play-pause",
        "clock-time",
        "link-node01-node02",
    ] {
        assert!(by_testid(&root, id).is_some(), "{id}");
    }
    let state = |r: &web_sys::Element, id: &str| {
        by_testid(r, id).and_then(|e| e.get_attribute("data-state"))
    };
    for n in ["node01", "node02", "node03"] {
        let s = state(&root, &format!("machine-{n}")).unwrap_or_default();
        assert!(
            [
                "leader",
                "follower",
                "candidate",
                "learner",
                "stopped",
                "exited"
            ]
            .contains(&s.as_str()),
            "{s}"
        );
    }
    let q = by_testid(&root, "quorum-status")
        .and_then(|e| e.text_content())
        .unwrap_or_default();
    assert!(q.contains("quorum ok") || q.contains("quorum lost"), "{q}");
    assert_eq!(state(&root, "link-node01-node02").as_deref(), Some("up"));
    let rows = |r: &web_sys::Element, id: &str| {
        by_testid(r, id)
            .and_then(|t| t.query_selector_all("tbody tr").ok())
            .map(|l| l.length())
            .unwrap_or(0)
    };
    assert_eq!(rows(&root, "member-table"), 3);
    assert_eq!(rows(&root, "status-table"), 3);
    until(&root, "log rows", |r| by_testid(r, "log-row").is_some()).await;
    until(&root, "quorum ok", |r| {
        by_testid(r, "quorum-status")
            .and_then(|e| e.text_content())
            .is_some_and(|t| t.contains("quorum ok"))
    })
    .await;
    // The timeline says the term and leader; the logs filter by level.
    let tl = by_testid(&root, "timeline")
        .and_then(|e| e.get_attribute("aria-label"))
        .unwrap_or_default();
    assert!(tl.contains("term") && tl.contains("quorum ok"), "{tl}");
    let count = |r: &web_sys::Element| {
        by_testid(r, "logs-count")
            .and_then(|e| e.text_content())
            .unwrap_or_default()
    };
    let all = count(&root);
    let level = by_testid(&root, "logs-level").expect("level select");
    let select = level
        .dyn_ref::<web_sys::HtmlSelectElement>()
        .expect("a select");
    select.set_value("error");
    select
        .dispatch_event(&web_sys::Event::new("change").expect("event"))
        .expect("dispatch");
    until(&root, "the level filter", |r| count(r) != all).await;
    assert!(
        count(&root).starts_with("0 of"),
        "no errors in a healthy start: {}",
        count(&root)
    );
    // Focusing a link forecasts its cut.
    let link = by_testid(&root, "link-node01-node02").expect("link");
    let focus = web_sys::FocusEvent::new("focus").expect("event");
    link.dispatch_event(&focus).expect("dispatch");
    until(&root, "a forecast", |r| {
        by_testid(r, "forecast")
            .and_then(|e| e.text_content())
            .is_some_and(|t| t.contains("cutting"))
    })
    .await;

    // A click on the link cuts it and types the command.
    let link = by_testid(&root, "link-node01-node02").expect("link");
    let ev = web_sys::MouseEvent::new("click").expect("event");
    link.dispatch_event(&ev).expect("dispatch");
    until(&root, "the cut", |r| {
        state(r, "link-node01-node02").as_deref() == Some("cut")
    })
    .await;
    let out = by_testid(&root, "terminal-output")
        .and_then(|e| e.text_content())
        .unwrap_or_default();
    assert!(out.contains("net cut node01 node02"), "{out}");

    // Selecting node02 shows its actions; "Stop etcd" types `kill etcd` there.
    let node = by_testid(&root, "machine-node02").expect("node02");
    node.dispatch_event(&web_sys::MouseEvent::new("click").expect("event"))
        .expect("dispatch");
    until(&root, "the actions", |r| {
        by_testid(r, "action-stop").is_some()
    })
    .await;
    click(&by_testid(&root, "action-stop").expect("stop"));
    until(&root, "node02 stopped", |r| {
        state(r, "machine-node02").as_deref() == Some("stopped")
    })
    .await;
    let out = by_testid(&root, "terminal-output")
        .and_then(|e| e.text_content())
        .unwrap_or_default();
    assert!(out.contains("node02$ kill etcd"), "{out}");
    handle.destroy();
    root.remove();
}

// ---- runs: share links, rewind and fork --------------------------------------

/// Every log line the world wrote, as `[machine] text` at its moment.
fn log_text(m: &Model) -> String {
    m.session()
        .world
        .logs()
        .iter()
        .map(|l| format!("{} [{}] {}\n", l.ms, l.machine, l.text))
        .collect()
}

/// A run played live at 1x, with faults and membership changes, then paused.
fn live_run() -> Model {
    let mut m = play(Model::boot(5), 1500);
    for (line, then_ms) in [
        ("etcdctl put a 1", 800),
        (
            "etcdctl member add node04 --peer-urls=http://192.168.0.64:2380",
            3000,
        ),
        ("node02$ kill etcd", 2500),
        ("node01$ etcdctl put b 2", 7000),
        ("net isolate node03", 1200),
        ("etcdctl member list", 400),
    ] {
        m = send(m, Msg::Run(line.into()));
        m = play(m, then_ms);
    }
    paused(m)
}

#[wasm_bindgen_test]
fn a_share_link_replays_the_same_page() {
    let m = live_run();
    assert!(
        m.terminal_text().contains("context deadline exceeded"),
        "quorum was lost: {}",
        m.terminal_text()
    );
    let link = m.to_run().to_link().expect("fits in a link");
    let run = Run::from_link(&link).expect("opens");
    assert_eq!(run.steps.len(), 6);
    let r = Model::replay_run(&run);
    assert_eq!(r.terminal_text(), m.terminal_text());
    assert_eq!(r.shown_ms, m.shown_ms);
    same_logs(&r, &m);
    assert_eq!(r.quorum, m.quorum);
    assert_eq!(r.history, m.history);
    assert!(!r.playing, "a link opens paused on its moment");
}

#[wasm_bindgen_test]
fn dragging_back_shows_the_past_and_acting_forks_it() {
    let m = live_run();
    let end = m.shown_ms;
    let times = m.times.clone();
    // A second after node02 was killed.
    let t = times[2].1 + 1000;
    let back = send(m.clone(), Msg::Seek(t));
    assert_eq!(back.shown_ms, t);
    assert_eq!(back.future.as_ref().map(|f| f.end_ms), Some(end));
    assert_eq!(back.run.steps.len(), 3);
    assert!(m.terminal_text().starts_with(&back.terminal_text()));
    assert!(!back.terminal_text().contains("put b 2"));
    assert!(log_text(&m).starts_with(&log_text(&back)));
    // Forward again before acting: the kept future is all there.
    let again = send(back.clone(), Msg::Seek(end));
    assert!(again.future.is_none());
    assert_eq!(again.terminal_text(), m.terminal_text());
    // Acting forks: the future is gone, and a different one follows. (A model
    // shares its world with its clones, as the page keeps one model: what
    // `back` shows is read before acting on it.)
    let (past_terminal, past_logs) = (back.terminal_text(), log_text(&back));
    let forked = send(back, Msg::Run("etcdctl put c 3".into()));
    assert!(forked.future.is_none());
    assert_eq!(forked.run.steps.len(), 4);
    assert!(forked.terminal_text().contains("put c 3"));
    assert!(!forked.terminal_text().contains("put b 2"));
    // Back at the fork point, the original past is still there.
    let fork_point = send(forked, Msg::Seek(t));
    assert_eq!(fork_point.terminal_text(), past_terminal);
    assert!(
        log_text(&fork_point) == past_logs,
        "the logs at the fork point differ"
    );
}

/// Compares two models' logs, naming the first line that differs (the whole
/// text is too long for a message).
fn same_logs(a: &Model, b: &Model) {
    let (a, b) = (log_text(a), log_text(b));
    let first = a.lines().zip(b.lines()).position(|(x, y)| x != y);
    assert!(
        first.is_none() && a.len() == b.len(),
        "logs differ at line {first:?}: {:?} / {:?} ({} / {} lines)",
        first.and_then(|i| a.lines().nth(i)),
        first.and_then(|i| b.lines().nth(i)),
        a.lines().count(),
        b.lines().count()
    );
}

#[wasm_bindgen_test]
fn a_moment_inside_a_command_shows_when_it_was_typed() {
    let m = live_run();
    // `etcdctl put b 2` ran the clock until its timeout (quorum was lost).
    let (start, end) = m.times[3];
    assert!(end - start >= 5000, "{start}..{end}");
    let back = send(m, Msg::Seek(start + 2000));
    assert_eq!(back.shown_ms, start);
    assert_eq!(back.run.steps.len(), 3);
}

#[wasm_bindgen_test]
fn bad_seeks_and_links_change_nothing() {
    let m = live_run();
    let text = m.terminal_text();
    let back = send(m.clone(), Msg::Seek(0));
    assert_eq!(back.shown_ms, m.origin_ms);
    assert!(back.run.steps.is_empty());
    let back = send(
        back,
        Msg::Reset {
            seed: "nope".into(),
            start: Start::Cluster,
            etcd: EtcdVersion::V3_4,
        },
    );
    assert!(back.future.is_some(), "a bad seed keeps the future");
    let end = send(back, Msg::Seek(u64::MAX));
    assert_eq!(end.terminal_text(), text);
}

// ---- embed mode and the host bridge ----------------------------------------------

fn pairs(q: &[(&str, &str)]) -> Vec<(String, String)> {
    q.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[wasm_bindgen_test]
fn embed_options_read_the_query_and_name_what_they_cannot() {
    let o = embed::Options::parse(&pairs(&[]));
    assert!(!o.embed);
    assert_eq!(
        o.panels.len(),
        embed::PANELS.len(),
        "a plain page shows all"
    );
    let o = embed::Options::parse(&pairs(&[("embed", "1")]));
    assert!(o.embed && o.shows("map") && o.shows("terminal") && !o.shows("logs"));
    let o = embed::Options::parse(&pairs(&[
        ("embed", "1"),
        ("panels", "logs,<b>x</b>,map"),
        ("lesson", "001-learner-design"),
        ("step", "3"),
        ("autoplay", "0"),
        ("speed", "10"),
        ("origin", "https://course.example"),
    ]));
    assert_eq!(o.panels, ["logs", "map"]);
    assert_eq!(o.problems.len(), 1, "{:?}", o.problems);
    assert!(o.problems[0].contains("\"<b>x</b>\" is not a panel"));
    assert_eq!(
        (o.lesson.as_deref(), o.step, o.autoplay),
        (Some("001-learner-design"), 3, Some(false))
    );
    let o = embed::Options::parse(&pairs(&[("step", "0")]));
    assert_eq!(o.step, 1);
    assert_eq!(o.problems.len(), 1);
}

fn js(pairs: &[(&str, wasm_bindgen::JsValue)]) -> wasm_bindgen::JsValue {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        js_sys::Reflect::set(&o, &(*k).into(), v).expect("set");
    }
    o.into()
}

#[wasm_bindgen_test]
fn the_bridge_reads_only_its_own_messages() {
    use embed::{read_message, HostCommand};
    let run = js(&[
        ("type", "quorum-playground:run".into()),
        ("line", "etcdctl put a 1".into()),
    ]);
    assert_eq!(
        read_message(&run),
        Some(HostCommand::Run("etcdctl put a 1".into()))
    );
    let speed = js(&[
        ("type", "quorum-playground:speed".into()),
        ("speed", 10.0.into()),
    ]);
    assert_eq!(read_message(&speed), Some(HostCommand::Speed("10".into())));
    for bad in [
        "just a string".into(),
        js(&[("type", "run".into()), ("line", "x".into())]),
        js(&[("type", "quorum-playground:run".into())]),
        js(&[
            ("type", "quorum-playground:run".into()),
            ("line", "etcdctl put a 1\nrm -rf node01.etcd".into()),
        ]),
        js(&[
            ("type", "quorum-playground:seek".into()),
            ("ms", (-5.0).into()),
        ]),
        js(&[("type", "quorum-playground:eval".into())]),
    ] {
        assert_eq!(read_message(&bad), None);
    }
}

#[wasm_bindgen_test]
fn the_bridge_tells_leader_quorum_and_finished_output() {
    use embed::{events, HostEvent, Told};
    let mut told = Told::default();
    let m = paused(Model::boot(1));
    let first = events(&mut told, &m);
    assert!(
        matches!(
            &first[..],
            [HostEvent::LeaderChanged {
                leader: Some(_),
                ..
            }]
        ),
        "{first:?}"
    );
    let m = send(m, Msg::Run("etcdctl put a 1".into()));
    assert_eq!(
        events(&mut told, &m),
        [HostEvent::Output {
            command: "node01$ etcdctl put a 1".into(),
            lines: vec!["OK".into()],
        }]
    );
    assert_eq!(events(&mut told, &m), [], "told once");
    // Playing: a command that runs the clock is told when it has finished.
    let m = send(m, Msg::Run("node02$ kill etcd".into()));
    let m = send(m, Msg::Run("node03$ kill etcd".into()));
    let m = play(m, 100);
    let m = send(m, Msg::Run("node01$ etcdctl put b 2".into()));
    let during = events(&mut told, &m);
    assert!(
        !during
            .iter()
            .any(|e| matches!(e, HostEvent::Output { command, .. } if command.contains("put b"))),
        "{during:?}"
    );
    let m = play(m, 7000);
    let after = events(&mut told, &m);
    assert!(
        during.contains(&HostEvent::QuorumLost) || after.contains(&HostEvent::QuorumLost),
        "{during:?} {after:?}"
    );
    assert!(
        after.iter().any(|e| matches!(e, HostEvent::Output { command, lines }
            if command.contains("put b") && lines.last().is_some_and(|l| l.starts_with("Error: ")))),
        "{after:?}"
    );
}

// ---- promises: live badges and lost writes ------------------------------------------

#[wasm_bindgen_test]
fn the_page_keeps_its_promises_and_names_writes_a_person_lost() {
    let node03 = quorum_playground::lessons::CLUSTER_SCRIPT
        .lines()
        .find(|l| l.starts_with("node03$ etcd"))
        .expect("the boot script starts node03");
    let mut m = paused(Model::boot(1));
    for line in [
        "net isolate node03",
        "sleep 2",
        "node01$ etcdctl put a 1",
        "node01$ kill -9 etcd",
        "node02$ kill -9 etcd",
        "net heal",
        "node03$ kill etcd",
        "sleep 1",
    ] {
        m = send(m, Msg::Run(line.into()));
    }
    assert!(m.terminal_text().contains("put a 1\nOK\n"));
    assert!(m.promises.broken.is_empty(), "{:?}", m.promises.broken);
    assert!(m.promises.lost.is_empty());
    let forced = format!("{node03} --force-new-cluster");
    m = send(m, Msg::Run(forced.clone()));
    m = send(m, Msg::Run("sleep 3".into()));
    let p = m.promises.clone();
    assert!(
        p.broken.is_empty(),
        "forcing is the person's doing: {:?}",
        p.broken
    );
    assert_eq!(p.lost.len(), 1, "{:?}", p.lost);
    assert_eq!(p.lost[0].key, "a");
    assert_eq!(p.cause.as_deref(), Some(forced.as_str()));
    // Reading the key shows it; the history has no linearization, and the
    // page says the person's action is why.
    m = send(m, Msg::Run("node03$ etcdctl get a".into()));
    assert!(m.promises.not_linearizable.is_some());
    let m = send(m, Msg::DismissLost);
    assert!(m.promises.lost.is_empty());
}

#[wasm_bindgen_test]
fn an_instant_command_at_the_fork_point_is_not_its_past() {
    let m = live_run();
    let t = m.times[2].1 + 1000;
    let back = send(m, Msg::Seek(t));
    let past = back.terminal_text();
    let forked = send(back, Msg::Run("echo forked".into()));
    assert_eq!(
        forked.times.last().map(|x| x.0),
        Some(t),
        "typed at the fork point"
    );
    // (At the run's end the slider shows the run's present; a moment later
    // the fork point is in the past.)
    let forked = send(forked, Msg::Run("sleep 1".into()));
    let again = send(forked, Msg::Seek(t));
    assert_eq!(again.terminal_text(), past);
    assert!(again.future.is_some());
}

/// A wiped member restarted under its old ID makes members diverge, on real
/// etcd too (`tests/findings/`): the badge says it broke after the person's
/// `rm`, not that the simulation broke it.
#[wasm_bindgen_test]
fn a_promise_broken_after_a_wipe_is_the_persons_doing() {
    let script = include_str!("findings/wiped-member-restarted-as-new.sh");
    let mut m = paused(Model::new(38, Start::Empty));
    for c in parse::parse_script(script).expect("parses") {
        m = send(m, Msg::Run(quorum_playground::ui::command_line(&c)));
    }
    let broken = &m.promises.broken;
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert_eq!(
        broken[0].promise,
        quorum_playground::sim::invariants::Promise::SameAppliedState
    );
    assert_eq!(
        broken[0].after.as_deref(),
        Some("node01$ rm -rf node01.etcd")
    );
}

/// A link's commands can run the clock themselves: a replay stops after a
/// simulated day (not a step later), so no link holds the page for long.
#[wasm_bindgen_test]
fn a_replay_stops_after_a_simulated_day() {
    let mut run = Run::new(1, Start::Empty);
    run.steps = (0..5)
        .map(|_| quorum_playground::link::Step {
            wait_ms: 0,
            line: "sleep 20h".into(),
        })
        .collect();
    let m = Model::replay_run(&run);
    assert_eq!(
        m.run.steps.len(),
        2,
        "20 h, then 4 h of the next, then it stops"
    );
    assert_eq!(m.shown_ms, m.origin_ms + 24 * 3_600_000);
    let notice = m.notice.as_deref().unwrap_or_default();
    assert!(
        notice.contains("more than 24 simulated hours")
            && notice.contains("after 2 of its 5 commands"),
        "{notice}"
    );
    assert!(m
        .terminal_text()
        .contains("sh: stopped here: a replay runs at most 24 simulated hours"));
}

#[wasm_bindgen_test]
fn a_run_too_long_for_a_link_says_what_to_do_instead() {
    let mut run = Run::new(1, Start::Empty);
    let mut x: u64 = 7;
    for _ in 0..2000 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        run.steps.push(quorum_playground::link::Step {
            wait_ms: x % 1000,
            line: format!("etcdctl put k{x} v{}", x >> 7),
        });
    }
    let e = quorum_playground::ui::share_url(&run).expect_err("too long");
    assert!(
        e.starts_with("This run does not fit in a link: it is "),
        "{e}"
    );
    assert!(
        e.ends_with("Export it as a script and Import it instead."),
        "{e}"
    );
    let short = quorum_playground::ui::share_url(&Run::new(1, Start::Cluster)).expect("fits");
    assert!(short.contains("#run=1."), "{short}");
}

#[wasm_bindgen_test]
fn leader_and_quorum_changes_are_announced_and_can_pause_the_clock() {
    let m = play(Model::boot(1), 500);
    assert!(m.event.is_none(), "the boot's own election is not news");
    // without "pause on", the clock plays through a quorum loss
    let lost = play(send(m, Msg::Run("node02$ kill -9 etcd".into())), 0);
    let lost = play(send(lost, Msg::Run("node03$ kill -9 etcd".into())), 3000);
    // quorum lost, then (the leader's quorum check) no leader: the latest shows
    let e = lost.event.clone().expect("an event");
    assert_eq!(
        (e.kind, e.paused, lost.playing),
        (EventKind::NoLeader, false, true)
    );
    assert!(e.text.starts_with("No leader (term "), "{}", e.text);
    assert!(e.seq >= 1, "two events: {}", e.seq);
    // with it, the clock stops on the frame that lost quorum (a new world:
    // a model's clones share theirs)
    let m = play(Model::boot(1), 500);
    let m = send(
        m,
        Msg::PauseOn(PauseOn {
            leader: false,
            quorum: true,
        }),
    );
    let m = send(m, Msg::Run("node02$ kill -9 etcd".into()));
    let m = play(send(m, Msg::Run("node03$ kill -9 etcd".into())), 3000);
    let e = m.event.clone().expect("an event");
    assert_eq!(
        (e.kind, e.paused, m.playing),
        (EventKind::QuorumLost, true, false)
    );
    // the option outlives a new world
    let m = send(
        m,
        Msg::Reset {
            seed: "2".into(),
            start: Start::Cluster,
            etcd: EtcdVersion::V3_4,
        },
    );
    assert_eq!(
        m.pause_on,
        PauseOn {
            leader: false,
            quorum: true
        }
    );
}

#[wasm_bindgen_test]
fn a_typed_line_forecasts_its_change_from_the_typed_command_and_changes_nothing() {
    let m = paused(Model::boot(1));
    let (shown, lines) = (m.shown_ms, m.lines.len());
    let m = send(m, Msg::ForecastLine("node01$ kill -9 etcd".into()));
    assert_eq!(
        m.forecast,
        Some(Change::Stop {
            machine: "node01".into()
        })
    );
    assert_eq!((m.shown_ms, m.lines.len()), (shown, lines), "nothing ran");
    // Words that only look like a change are read as the command they are.
    let m = send(
        m,
        Msg::ForecastLine("etcdctl put k \"kill -9 etcd\"".into()),
    );
    assert_eq!(m.forecast, None);
    let m = send(m, Msg::ForecastLine("net cut node01 node02".into()));
    assert_eq!(
        m.forecast,
        Some(Change::Cut {
            a: "node01".into(),
            b: "node02".into()
        })
    );
    let m = send(m, Msg::Forecast(None));
    assert_eq!(m.forecast, None);
}

#[wasm_bindgen_test]
fn a_share_button_keeps_the_run_as_it_is_then_and_changes_nothing() {
    let m = paused(Model::boot(1));
    let m = send(m, Msg::Run("etcdctl put a 1".into()));
    let (shown, lines) = (m.shown_ms, m.lines.len());
    let m = send(m, Msg::Export(ExportKind::Link));
    let export = m.export.clone().expect("the run is kept");
    assert_eq!(export.kind, ExportKind::Link);
    assert_eq!(export.run, m.to_run());
    assert_eq!((m.shown_ms, m.lines.len()), (shown, lines), "nothing ran");
    // A later command is not in the run kept before it; a new press keeps a new one.
    let m = send(m, Msg::Run("etcdctl put b 2".into()));
    assert_ne!(export.run, m.to_run());
    let m = send(m, Msg::Export(ExportKind::Bash));
    let again = m.export.clone().expect("kept again");
    assert_eq!((again.kind, &again.run), (ExportKind::Bash, &m.to_run()));
}

// ---- etcd 3.4 and 3.5 (issue 18) --------------------------------------------

fn etcd_of(m: &Model) -> Vec<(String, EtcdVersion)> {
    m.view
        .machines
        .iter()
        .map(|x| (x.name.clone(), x.etcd_shown()))
        .collect()
}

#[wasm_bindgen_test]
fn a_reset_on_3_5_boots_the_cluster_on_3_5_and_its_link_reopens_on_it() {
    let m = send(
        paused(Model::boot(1)),
        Msg::Reset {
            seed: "4".into(),
            start: Start::Cluster,
            etcd: EtcdVersion::V3_5,
        },
    );
    assert_eq!(m.etcd(), EtcdVersion::V3_5);
    let names = ["node01", "node02", "node03"];
    let on = |v| names.iter().map(|n| (n.to_string(), v)).collect::<Vec<_>>();
    assert_eq!(etcd_of(&m), on(EtcdVersion::V3_5));
    assert!(m.view.machines.iter().all(|x| x.process.is_some()));
    // A machine added later installs the picked etcd too.
    let m = paused(send(m, Msg::Run("machine add node04 192.168.0.64".into())));
    let m = send(m, Msg::Run("node04$ etcdctl version".into()));
    assert!(
        m.terminal_text()
            .ends_with("node04$ etcdctl version\netcdctl version: 3.5.1\nAPI version: 3.5\n"),
        "{}",
        m.terminal_text()
    );
    let run = m.to_run();
    assert_eq!(run.etcd, EtcdVersion::V3_5);
    let link = run.to_link().expect("fits");
    assert!(link.starts_with("run=2."), "{link}");
    let back = Run::from_link(&link).expect("opens");
    let again = Model::replay_run(&back);
    assert_eq!(again.etcd(), EtcdVersion::V3_5);
    assert_eq!(etcd_of(&again), etcd_of(&m));
    assert_eq!(again.terminal_text(), m.terminal_text());
    // Reset without picking again: back on 3.4, as the picker says.
    let m = send(
        again,
        Msg::Reset {
            seed: "4".into(),
            start: Start::Cluster,
            etcd: EtcdVersion::V3_4,
        },
    );
    assert_eq!(etcd_of(&m), on(EtcdVersion::V3_4));
    assert!(m.to_run().to_link().expect("fits").starts_with("run=1."));
}

#[wasm_bindgen_test]
async fn the_map_and_the_picker_say_which_etcd_runs() {
    let (root, handle) = mount();
    until(&root, "machines", |r| by_testid(r, "etcd-node03").is_some()).await;
    for n in ["node01", "node02", "node03"] {
        let tag = by_testid(&root, &format!("etcd-{n}")).expect("a tag");
        assert_eq!(tag.get_attribute("data-etcd").as_deref(), Some("3.4.23"));
        assert_eq!(tag.text_content().as_deref(), Some("etcd 3.4.23"));
    }
    let line = by_testid(&root, "etcd-line").and_then(|e| e.text_content());
    assert_eq!(line.as_deref(), Some("etcd 3.4.23"));
    let picker = by_testid(&root, "etcd-version")
        .and_then(|e| e.dyn_into::<web_sys::HtmlSelectElement>().ok())
        .expect("the picker");
    assert_eq!(picker.value(), "3.4");
    handle.destroy();
    root.remove();
}
