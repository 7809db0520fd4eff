//! The lesson player's reducer in headless Chromium (wasm-bindgen-test): Run
//! plays a step on the clock at the step's speed and pauses at its end, with
//! the terminal and clock a paused replay of the same step gives (the golden
//! outputs); a learner's command is waited for, recognised when typed (and not
//! for another command), or typed by "Do it for me"; Next waits for the step;
//! a question is answered before the step only; a lesson runs on its
//! header's etcd, and on the other one when the learner asks.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use quorum_playground::lessons::{self, Lesson};
use quorum_playground::ui::{EtcdVersion, Model, Msg, Start};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[path = "common/page.rs"]
mod page;
use page::{replay_out, run_of, send};

fn lesson() -> Rc<Lesson> {
    let src = include_str!("../static/lessons/001-learner-design.lesson");
    Rc::new(lessons::parse("001-learner-design", src).expect("the lesson parses"))
}

/// The model opened at `step` (0 is the first), the steps before it replayed.
fn at(step: usize) -> Model {
    send(
        Model::new(1, Start::Cluster),
        Msg::OpenLessonAt {
            lesson: Ok(lesson()),
            step,
        },
    )
}

/// Frames of 16 ms until the step's clock paused again; how many it took.
fn play_out(mut m: Model) -> (Model, usize) {
    let mut frames = 0;
    while m.playing || !m.idle() {
        m = send(m, Msg::Frame(16.0));
        frames += 1;
        assert!(frames < 20_000, "the step never ended");
    }
    (m, frames)
}

fn state(m: &Model) -> &quorum_playground::ui::LessonState {
    m.lesson.as_deref().expect("a lesson is open")
}

#[wasm_bindgen_test]
fn run_plays_the_step_at_its_speed_and_pauses_where_a_paused_run_ends() {
    let m = at(0);
    assert!(!m.playing, "a lesson opens paused");
    let start_ms = m.shown_ms;
    let m = send(m, Msg::LessonRun);
    assert!(m.playing, "Run starts the clock");
    assert_eq!(m.speed, 1.0, "step 1's `speed: 1`");
    assert!(m.pending.is_some(), "the step's time is played, not jumped");
    let next = send(m.clone(), Msg::LessonNext);
    assert_eq!(state(&next).step, 0, "Next waits until the step finished");
    let (m, frames) = play_out(m);
    // `sleep 3` and the put at 1x: about 190 frames of 16 ms.
    assert!(frames > 150, "{frames} frames");
    assert!(m.shown_ms >= start_ms + 3000);
    // A paused replay of the same step: same terminal, same moment.
    let replayed = send(at(1), Msg::LessonBack);
    assert!(state(&replayed).done && state(&replayed).step == 0);
    assert_eq!(m.terminal_text(), replayed.terminal_text());
    assert_eq!(m.shown_ms, replayed.shown_ms);
    // The step's checks hold, and Next goes on.
    let step = &state(&m).lesson.steps[0];
    for c in &step.checks {
        assert!(lessons::evaluate(&m.view, c).is_ok(), "{c}");
    }
    let m = send(m, Msg::LessonNext);
    assert_eq!((state(&m).step, state(&m).done), (1, false));
}

#[wasm_bindgen_test]
fn the_learners_command_is_waited_for_and_recognised_when_typed() {
    let m = at(1);
    // Predict before Run.
    let m = send(m, Msg::LessonAnswer(2));
    assert_eq!(state(&m).picked, Some(2));
    let m = send(m, Msg::LessonAnswer(9));
    assert_eq!(state(&m).picked, Some(2), "no such choice");
    let before = m.run.steps.len();
    let m = send(m, Msg::LessonRun);
    assert!(state(&m).awaiting && !state(&m).done);
    assert_eq!(
        m.run.steps.len(),
        before,
        "Run types nothing before the learner's command"
    );
    assert!(!m.playing, "the clock waits with the page");
    // Another command is not the step's.
    let m = send(
        m,
        Msg::Run("node01$ etcdctl --endpoints=http://10.200.0.1:2379 get foo".into()),
    );
    assert!(state(&m).awaiting);
    // The step's command, typed with other blanks on another machine (net runs anywhere).
    let m = send(m, Msg::Run("node02$ net   isolate 'node03'".into()));
    assert_eq!(state(&m).performed, Some(true));
    assert!(state(&m).done && !state(&m).awaiting);
    assert!(m.playing, "the rest of the step plays");
    let m = send(m, Msg::LessonAnswer(0));
    assert_eq!(
        state(&m).picked,
        Some(2),
        "the answer is given before the step runs"
    );
    let (m, _) = play_out(m);
    for c in &state(&m).lesson.steps[1].checks {
        assert!(lessons::evaluate(&m.view, c).is_ok(), "{c}");
    }
}

#[wasm_bindgen_test]
fn do_it_for_me_types_it_but_the_learner_did_not() {
    let m = send(at(1), Msg::LessonRun);
    assert!(state(&m).awaiting);
    let m = send(m, Msg::LessonDoIt);
    assert_eq!(state(&m).performed, Some(false));
    assert!(state(&m).done);
    let (m, _) = play_out(m);
    assert!(m.terminal_text().contains("$ net isolate node03"));
    // The same terminal as the lesson played paused.
    let replayed = send(at(2), Msg::LessonBack);
    assert_eq!(m.terminal_text(), replayed.terminal_text());
    assert_eq!(m.shown_ms, replayed.shown_ms);
}

/// The test lesson with `etcd: 3.5` (tests/lessons_etcd).
fn on_3_5() -> Rc<Lesson> {
    let src = include_str!("lessons_etcd/on-etcd-3.5.lesson");
    Rc::new(lessons::parse("on-etcd-3.5", src).expect("the lesson parses"))
}

fn machines_on(m: &Model) -> Vec<EtcdVersion> {
    m.view.machines.iter().map(|x| x.etcd_shown()).collect()
}

#[wasm_bindgen_test]
fn a_lesson_runs_on_its_headers_etcd_and_on_the_other_when_asked() {
    let m = send(
        Model::new(1, Start::Cluster),
        Msg::OpenLessonAt {
            lesson: Ok(on_3_5()),
            step: 1,
        },
    );
    assert_eq!(m.etcd(), EtcdVersion::V3_5);
    assert_eq!(machines_on(&m), [EtcdVersion::V3_5; 3]);
    assert!(m.terminal_text().contains("etcdctl version: 3.5.1\n"));
    // The other etcd: the same step, replayed on 3.4.23.
    let m = send(m, Msg::LessonEtcd(EtcdVersion::V3_4));
    assert_eq!((m.etcd(), state(&m).step), (EtcdVersion::V3_4, 1));
    assert_eq!(machines_on(&m), [EtcdVersion::V3_4; 3]);
    assert!(m.terminal_text().contains("etcdctl version: 3.4.23\n"));
    assert!(!m.terminal_text().contains("3.5.1"));
    // Back stays on the etcd chosen; a lesson opened anew is on its own.
    let m = send(m, Msg::LessonBack);
    assert_eq!((m.etcd(), state(&m).step), (EtcdVersion::V3_4, 0));
    let m = send(
        m,
        Msg::OpenLessonAt {
            lesson: Ok(lesson()),
            step: 0,
        },
    );
    assert_eq!(m.etcd(), EtcdVersion::V3_4);
    let m = send(
        m,
        Msg::OpenLessonAt {
            lesson: Ok(on_3_5()),
            step: 0,
        },
    );
    assert_eq!(m.etcd(), EtcdVersion::V3_5);
}

#[wasm_bindgen_test]
fn a_late_step_is_replayed_in_parts_to_the_same_world_and_can_be_stopped() {
    // Step 25 (index 24): figure 1 writes 20,000 keys twice before it.
    let m = at(24);
    assert!(m.replaying_run.is_some(), "more than one part");
    assert_eq!(state(&m).step, 24, "the lesson is at its step meanwhile");
    let (whole, parts) = replay_out(m.clone());
    assert!(parts >= 1);
    assert!(whole.idle() && !whole.playing, "whole, idle and paused");
    // Back from it replays the same commands (step 24 done): the same terminal.
    let back = replay_out(send(m.clone(), Msg::LessonBack)).0;
    assert_eq!(state(&back).step, 23);
    assert_eq!(
        back.terminal_text(),
        whole.terminal_text(),
        "what step 25 starts from"
    );
    // Stopped: the world stays where it got, and the notice says why.
    let stopped = send(m, Msg::ReplayCancel);
    assert!(stopped.replaying_run.is_none());
    assert_eq!(state(&stopped).step, 24);
    let notice = stopped.notice.clone().unwrap_or_default();
    assert!(
        notice.starts_with("You stopped replaying the lesson: the world shows the first ")
            && notice.ends_with("so it is not where step 25 expects it."),
        "{notice}"
    );
    assert!(stopped.terminal_text().len() < whole.terminal_text().len());
}

#[wasm_bindgen_test]
fn a_link_naming_a_lesson_is_opened_as_a_run_not_as_the_lesson() {
    // The progress and the stop notice speak of the lesson only when the
    // lesson's own steps are replayed.
    assert_eq!(
        at(24).replaying_run.as_ref().and_then(|j| j.lesson_step),
        Some(25)
    );
    let mut script = String::from("machine add n1\nn1$ etcd --name n1\n");
    for i in 0..20 {
        script.push_str(&format!("etcdctl put k{i} v{i}\nsleep 1m\n"));
    }
    let m = send(
        Model::begin_replay(&run_of(&script), String::new()),
        Msg::AttachLesson {
            lesson: Ok(lesson()),
            step: 24,
            done: false,
        },
    );
    assert_eq!(state(&m).step, 24, "the link's lesson is shown at its step");
    assert_eq!(m.replaying_run.as_ref().map(|j| j.lesson_step), Some(None));
    let stopped = send(m, Msg::ReplayCancel);
    let notice = stopped.notice.clone().unwrap_or_default();
    assert!(
        notice.starts_with("You stopped opening this run: it shows its first "),
        "{notice}"
    );
}
