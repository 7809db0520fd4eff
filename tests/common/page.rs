//! Helpers shared by the browser tests of the page's reducer (`tests/ui*.rs`):
//! send a message, pause, play simulated time a frame at a time. Not a test
//! of its own: each file includes it with `#[path = "common/page.rs"] mod page;`.
#![allow(dead_code)]

use std::rc::Rc;

use quorum_playground::link::{command_line, Run, Step};
use quorum_playground::shell::parse;
use quorum_playground::ui::{Model, Msg, Start};
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

/// A run of `script`'s commands (a runner script), seed 1, from an empty
/// world, each typed at once.
pub fn run_of(script: &str) -> Run {
    let mut run = Run::new(1, Start::Empty);
    run.steps = parse::parse_script(script)
        .expect("parses")
        .iter()
        .map(|c| Step {
            wait_ms: 0,
            line: command_line(c),
        })
        .collect();
    run
}

/// `m` with its replay (a link's or a lesson's, begun in parts) taken to
/// its end a part at a time, as the page's messages do; and how many parts
/// that took.
pub fn replay_out(mut m: Model) -> (Model, usize) {
    let mut parts = 0;
    while m.replaying_run.is_some() {
        m = send(m, Msg::ReplayMore);
        parts += 1;
        assert!(parts < 10_000, "the replay never ended");
    }
    (m, parts)
}

// ---- the mounted app -------------------------------------------------------

/// The page's document.
pub fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

/// The element under `root` with this `data-testid`.
pub fn by_testid(root: &web_sys::Element, id: &str) -> Option<web_sys::Element> {
    root.query_selector(&format!("[data-testid=\"{id}\"]"))
        .ok()
        .flatten()
}

/// Waits (25 ms at a time, 10 s at most) until `f` holds of `root`.
pub async fn until(root: &web_sys::Element, what: &str, f: impl Fn(&web_sys::Element) -> bool) {
    for _ in 0..400 {
        if f(root) {
            return;
        }
        gloo::timers::future::TimeoutFuture::new(25).await;
    }
    panic!("timed out waiting for {what}");
}

/// Clicks an element (an SVG one by a dispatched click event).
pub fn click(el: &web_sys::Element) {
    use wasm_bindgen::JsCast;
    el.dyn_ref::<web_sys::HtmlElement>()
        .map(|h| h.click())
        .unwrap_or_else(|| {
            let ev = web_sys::MouseEvent::new("click").expect("event");
            let _ = el.dispatch_event(&ev);
        });
}

/// A new, empty element at the end of the body, to mount a component on.
pub fn body_root() -> web_sys::Element {
    let root = document().create_element("div").expect("div");
    document()
        .body()
        .expect("body")
        .append_child(&root)
        .expect("append");
    root
}

/// The app mounted on a new element of the body.
pub fn mount() -> (web_sys::Element, yew::AppHandle<quorum_playground::ui::App>) {
    let root = body_root();
    let handle = yew::Renderer::<quorum_playground::ui::App>::with_root(root.clone()).render();
    (root, handle)
}
