//! Helpers shared by the browser tests of the page's reducer (`tests/ui*.rs`):
//! send a message, pause, play simulated time a frame at a time. Not a test
//! of its own: each file includes it with `#[path = "common/page.rs"] mod page;`.
#![allow(dead_code)]

use std::rc::Rc;

use quorum_playground::ui::{Model, Msg};
use yew::Reducible;

/// The model after the reducer took `msg`.
pub fn send(m: Model, msg: Msg) -> Model {
    (*Rc::new(m).reduce(msg)).clone()
}

/// The model with its clock paused.
pub fn paused(m: Model) -> Model {
    if m.playing {
        send(m, Msg::TogglePlay)
    } else {
        m
    }
}

/// Plays `ms` simulated milliseconds at 1x, one 16 ms frame at a time.
pub fn play(mut m: Model, ms: u64) -> Model {
    if !m.playing {
        m = send(m, Msg::TogglePlay);
    }
    for _ in 0..ms.div_ceil(16) {
        m = send(m, Msg::Frame(16.0));
    }
    m
}
