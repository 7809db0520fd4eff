//! The app shell: the page's layout, the clock's animation-frame loop, the global
//! keys (space plays or pauses, `.` runs one tick), the screen-reader live region
//! and the notice for bad input. Panels live in their own modules; they read the
//! `Model` and send `Msg`s, and every button sends the command it stands for.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{request_animation_frame, AnimationFrame};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::controls::Controls;
use super::lesson::{self, LessonPanel};
use super::logs::Logs;
use super::machine::MachinePanel;
use super::map::ClusterMap;
use super::quorum::QuorumPanel;
use super::state::{Model, Msg, Start};
use super::tables::Tables;
use super::terminal::Terminal;
use super::timeline::TimelineChart;
use crate::sim::quorum::Change;

/// The page's query string, decoded into (key, value) pairs.
fn query() -> Vec<(String, String)> {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let decode = |s: &str| {
                js_sys::decode_uri_component(&s.replace('+', " "))
                    .ok()
                    .and_then(|v| v.as_string())
            };
            Some((decode(k)?, decode(v)?))
        })
        .collect()
}

/// What the page opens on: `?start=empty` gives an empty world, `?seed=N` a seed.
fn initial_model() -> Model {
    let mut seed = 1;
    let mut start = Start::Cluster;
    let mut notice = None;
    for (k, v) in query() {
        match (k.as_str(), v.as_str()) {
            ("start", "empty") => start = Start::Empty,
            ("seed", s) => match super::state::parse_seed(s) {
                Ok(n) => seed = n,
                Err(e) => notice = Some(e),
            },
            _ => {}
        }
    }
    let mut m = Model::new(seed, start);
    m.notice = notice;
    m
}

/// The whole page.
#[function_component(App)]
pub fn app() -> Html {
    let model = use_reducer(initial_model);
    let selected = use_state(|| None::<String>);
    let forecast = use_state(|| None::<Change>);
    let animate = use_state(|| !prefers_reduced_motion());
    use_clock(&model);
    use_keys(&model);
    {
        // `?lesson=NAME` (or a path on this site) opens a lesson.
        let d = model.dispatcher();
        use_effect_with((), move |_| {
            if let Some((_, spec)) = query().into_iter().find(|(k, _)| k == "lesson") {
                lesson::open(spec, Callback::from(move |m: Msg| d.dispatch(m)));
            }
        });
    }

    let on_run = {
        let d = model.dispatcher();
        Callback::from(move |line: String| d.dispatch(Msg::Button(line)))
    };
    let on_type = {
        let d = model.dispatcher();
        Callback::from(move |line: String| d.dispatch(Msg::Run(line)))
    };
    let on_msg = {
        let d = model.dispatcher();
        Callback::from(move |m: Msg| d.dispatch(m))
    };
    let on_select = {
        let selected = selected.clone();
        Callback::from(move |name: Option<String>| selected.set(name))
    };
    let on_forecast = {
        let forecast = forecast.clone();
        Callback::from(move |c: Option<Change>| forecast.set(c))
    };
    let on_animate = {
        let animate = animate.clone();
        Callback::from(move |on: bool| animate.set(on))
    };
    let notice = model.notice.clone().map(|n| {
        let d = model.dispatcher();
        html! {
            <div class="notice" role="alert" data-testid="notice">
                <span>{ n }</span>
                <button onclick={Callback::from(move |_| d.dispatch(Msg::Dismiss))}>{ "dismiss" }</button>
            </div>
        }
    });
    html! {
        <div class="app">
            <Controls model={(*model).clone()} on_msg={on_msg.clone()} animate={*animate} {on_animate} />
            { for notice }
            <p class="hint muted">
                { "Three etcd 3.4 servers on real raft-rs nodes. Click a machine for its actions, click a link to cut it (shift-click: one way), or type " }
                <code>{ "etcdctl member list -w table" }</code>{ ", " }
                <code>{ "node02$ kill etcd" }</code>{ " or " }
                <code>{ "net isolate node01" }</code>{ ". Space plays or pauses; “.” runs one tick." }
            </p>
            <div class="sr-only" aria-live="polite" data-testid="announce">{ &model.announce }</div>
            <main class="grid">
                <section class="panel side" aria-label="Lesson, actions and quorum">
                    <LessonPanel model={(*model).clone()} on_msg={on_msg.clone()} />
                    <MachinePanel view={model.view.clone()} selected={(*selected).clone()}
                        on_run={on_run.clone()} on_forecast={on_forecast.clone()} on_select={on_select.clone()} />
                    <QuorumPanel view={model.view.clone()} forecast={(*forecast).clone()} />
                </section>
                <section class="panel map-panel" aria-label="Cluster map">
                    <h2>{ "Cluster" }</h2>
                    <ClusterMap view={model.view.clone()} selected={(*selected).clone()} animate={*animate}
                        on_run={on_run.clone()} {on_select} on_forecast={on_forecast.clone()} />
                </section>
                <Terminal model={(*model).clone()} on_run={on_type} on_forecast={on_forecast.clone()} />
                <section class="panel wide" aria-label="Members and status">
                    <Tables view={model.view.clone()} />
                </section>
                <section class="panel wide" aria-label="Timeline">
                    <TimelineChart timeline={model.timeline.clone()} now_ms={model.shown_ms} />
                </section>
                <Logs model={(*model).clone()} />
            </main>
        </div>
    }
}

/// Whether the person asked for less motion.
fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|q| q.matches())
}

/// While playing and the page is visible, one `Msg::Frame` per animation frame
/// with the real time since the last one. A hidden page (`visibilitychange`)
/// stops the loop, so it uses no CPU and its clock stands still; when it shows
/// again the loop starts afresh, so the time it was hidden is not played.
#[hook]
fn use_clock(model: &UseReducerHandle<Model>) {
    let playing = model.playing;
    let visible = use_visible();
    let d = model.dispatcher();
    use_effect_with((playing, visible), move |&(playing, visible)| {
        let handle: Rc<RefCell<Option<AnimationFrame>>> = Rc::new(RefCell::new(None));
        if playing && visible {
            schedule(handle.clone(), d, None);
        }
        move || {
            handle.borrow_mut().take();
        }
    });
}

/// Whether the page is visible, following `visibilitychange`.
#[hook]
fn use_visible() -> bool {
    let visible = use_state(page_visible);
    {
        let visible = visible.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().and_then(|w| w.document()).map(|doc| {
                EventListener::new(&doc, "visibilitychange", move |_| {
                    visible.set(page_visible())
                })
            });
            move || drop(listener)
        });
    }
    *visible
}

fn page_visible() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .is_none_or(|doc| !doc.hidden())
}

fn schedule(
    handle: Rc<RefCell<Option<AnimationFrame>>>,
    d: UseReducerDispatcher<Model>,
    last: Option<f64>,
) {
    let next = handle.clone();
    let frame = request_animation_frame(move |now| {
        if let Some(last) = last {
            d.dispatch(Msg::Frame(now - last));
        }
        schedule(next, d, Some(now));
    });
    *handle.borrow_mut() = Some(frame);
}

/// Space and `.` anywhere but in a text field.
#[hook]
fn use_keys(model: &UseReducerHandle<Model>) {
    let d = model.dispatcher();
    use_effect_with((), move |_| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|doc| {
            let opts = EventListenerOptions::enable_prevent_default();
            EventListener::new_with_options(&doc, "keydown", opts, move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                if e.ctrl_key() || e.meta_key() || e.alt_key() || in_field(e) {
                    return;
                }
                match e.key().as_str() {
                    " " => {
                        e.prevent_default();
                        d.dispatch(Msg::TogglePlay);
                    }
                    "." => {
                        e.prevent_default();
                        d.dispatch(Msg::Step);
                    }
                    _ => {}
                }
            })
        });
        move || drop(listener)
    });
}

/// Whether a key event comes from a text field, a select or a button (whose own
/// space key must keep working).
fn in_field(e: &KeyboardEvent) -> bool {
    let Some(el) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    matches!(
        el.tag_name().to_ascii_lowercase().as_str(),
        "input" | "textarea" | "select" | "button"
    ) || el.get_attribute("role").as_deref() == Some("button")
}
