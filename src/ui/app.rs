//! The app shell: the page's layout, the clock's animation-frame loop, the global
//! keys (space plays or pauses, `.` runs one tick), the screen-reader live region
//! and the notice for bad input. Panels live in their own modules; they read the
//! `Model` and send `Msg`s, and every button sends the command it stands for.
//!
//! The layout (`styles/app.css`): under the top bar and the hint, a *stage*
//! that fills the rest of the window: the lesson (its Run/Next always in view),
//! the quorum line and the promises on the left; the map with the selected
//! machine's actions right under it in the middle; the terminal on the right;
//! the timeline strip under the map and the terminal. Each part scrolls inside itself, so
//! the page never scrolls to reach any of them; the tables, share and logs
//! follow below the stage. On a phone the stage is one column in the page's
//! own scroll (lesson, map and actions, quorum, terminal, timeline); embedded
//! (`?embed=1`) the map and quorum sit left of the terminal.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{request_animation_frame, AnimationFrame};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::sim::view::{count, elapsed_text, visible_string, visible_text};

use super::controls::Controls;
use super::embed::{use_bridge, Options};
use super::lesson::{self, LessonPanel};
use super::logs::Logs;
use super::machine::{self, MachinePanel};
use super::map::ClusterMap;
use super::promises::{LostBanner, PromisesPanel};
use super::quorum::QuorumPanel;
use super::share::SharePanel;
use super::state::{Model, Msg, Replaying, Shared};
use super::tables::{MachinesOf, Tables};
use super::terminal::{Terminal, Words};
use super::timeline::TimelineChart;
use crate::link::{LinkError, Run};
use crate::sim::quorum::Change;

/// The page's query string, decoded into (key, value) pairs. A part that is
/// not valid percent-encoding is kept as written, so it is named in a notice
/// (`Options::parse`) rather than dropped.
fn query() -> Vec<(String, String)> {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let decode = |s: &str| {
        js_sys::decode_uri_component(&s.replace('+', " "))
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_else(|| s.to_string())
    };
    search
        .trim_start_matches('?')
        .split('&')
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// The run a share link holds in the page's fragment (after `#`), if the
/// page was opened with one: `None` without `run=` in the fragment, else the
/// run or why it cannot be opened.
fn linked_run() -> Option<Result<Run, LinkError>> {
    let fragment = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let fragment = fragment.trim_start_matches('#');
    let has_run = fragment.split('&').any(|f| f.starts_with("run="));
    has_run.then(|| Run::from_link(fragment))
}

/// What the page opens on: a share link's run (`#run=1.…`, `#run=2.…`),
/// replayed to its moment and paused; else `?start=empty` gives an empty
/// world, `?seed=N` a seed, `?etcd=3.5` machines on etcd 3.5.1. A link that cannot be opened gives the default world and says why.
/// Then the embed options: `autoplay=` and `speed=`.
fn initial_model(options: &Options) -> Model {
    let (mut m, link_error) = match linked_run() {
        // Replayed in parts after the first paint (`use_replay`).
        Some(Ok(run)) => (Model::begin_replay(&run, String::new()), None),
        Some(Err(e)) => (query_model(), Some(e.to_string())),
        None => (query_model(), None),
    };
    if let Some(play) = options.autoplay {
        m.set_playing(play);
    }
    // A bad speed is among the options' problems, said below.
    if let Some(Ok(s)) = options.speed.as_deref().map(super::state::parse_speed) {
        m.speed = s;
    }
    let said: Vec<String> = link_error.into_iter().chain(options.notice()).collect();
    m.notice = (!said.is_empty()).then(|| said.join(" "));
    m
}

/// `?start=empty`, `?seed=N` and `?etcd=3.5` (what could not be read is among the
/// options' problems, `Options::notice`).
fn query_model() -> Model {
    let o = Options::parse(&query());
    Model::on_etcd(o.seed, o.start, o.etcd)
}

/// The whole page. It renders on every change of the model (every frame while
/// the clock plays), but hands each panel only what that panel shows, with
/// callbacks that stay the same from render to render, so a panel whose
/// content did not change is skipped (Yew compares props).
#[function_component(App)]
pub fn app() -> Html {
    let options = use_memo((), |_| Options::parse(&query()));
    // Re-rendered when the model's version changes (see `Msg::Frame`).
    let model = {
        let options = options.clone();
        use_reducer_eq(move || initial_model(&options))
    };
    let selected = use_state(|| None::<String>);
    let animate = use_state(|| !prefers_reduced_motion());
    use_report(&model);
    use_clock(&model);
    use_keys(&model);
    use_bridge(&model, options.origin.clone());
    use_hash_links(&model);
    use_replay(&model);
    use_lesson_from_address(&model, &options);
    use_reveal_selected(&selected);
    use_map_centred(model.view.machines.len());
    let d = model.dispatcher();
    let on_run = use_callback(d.clone(), |line: String, d| d.dispatch(Msg::Button(line)));
    let on_type = use_callback(d.clone(), |line: String, d| d.dispatch(Msg::Run(line)));
    let on_seek = use_callback(d.clone(), |ms: u64, d| d.dispatch(Msg::Seek(ms)));
    let on_msg = use_callback(d.clone(), |m: Msg, d| d.dispatch(m));
    let on_select = use_callback(selected.setter(), |name: Option<String>, s| s.set(name));
    let on_forecast = use_callback(d.clone(), |c: Option<Change>, d| {
        d.dispatch(Msg::Forecast(c))
    });
    let on_typed = use_callback(d.clone(), |line: Option<String>, d| {
        d.dispatch(line.map_or(Msg::Forecast(None), Msg::ForecastLine))
    });
    let on_animate = use_callback(animate.setter(), |on: bool, s| s.set(on));
    let notice = model.notice.clone().map(|n| {
        let d = model.dispatcher();
        html! {
            <div class="notice" role="alert" data-testid="notice">
                <span>{ visible_string(n) }</span>
                <button onclick={Callback::from(move |_| d.dispatch(Msg::Dismiss))}>{ "dismiss" }</button>
            </div>
        }
    });
    let m = &*model;
    let o = &*options;
    let quorum_forecast = m
        .forecast
        .as_ref()
        .map(|c| crate::sim::quorum::forecast(&m.view, c));
    let upto = m.log().lines().partition_point(|l| l.ms <= m.shown_ms);
    html! {
        <div class={classes!("app", o.embed.then_some("embed"), m.lesson.is_some().then_some("lesson-open"))}>
            if o.shows("controls") {
                <Controls playing={m.playing} speed={m.speed} seed={m.seed} etcd={m.etcd()} world_id={m.world_id}
                    notice={m.notice.clone()} pending={m.pending.as_ref().map(|p| p.echo.clone())}
                    clock={m.clock_text()} elapsed={elapsed_text(m.shown_ms)}
                    on_msg={on_msg.clone()} animate={*animate} {on_animate} world={o.controls.clone()} />
            }
            <aside class="messages" aria-label="Notices and what to try">
                { for notice }
                <LostBanner promises={m.promises.clone()} on_msg={on_msg.clone()} />
                if !o.embed {
                    <Hint machines={m.view.machines.len()} running={m.view.machines.iter().filter(|x| x.process.is_some()).count()}
                        example={hint_example(&m.view)} releases={running_releases(&m.view)} />
                }
                <div class="sr-only" aria-live="polite" data-testid="announce">{ visible_text(&m.announce).into_owned() }</div>
            </aside>
            if let Some(job) = m.replaying_run.as_ref().map(Shared::new) {
                <ReplayProgress {job} elapsed_ms={m.shown_ms} on_msg={on_msg.clone()} />
            } else {
                <main class="grid">
                    <div class="stage">
                        if o.shows("lesson") || o.shows("quorum") || o.shows("promises") {
                            <section class="panel side" aria-label="Lesson and quorum">
                                if o.shows("lesson") {
                                    <LessonPanel lesson={m.lesson.as_ref().map(Shared::new)} error={m.lesson_error.clone()}
                                        idle={m.idle()} checks={lesson::checks(m)} etcd={m.etcd()}
                                        installed={lesson::installed(&m.view)} on_msg={on_msg.clone()} />
                                }
                                if o.shows("quorum") || o.shows("promises") {
                                    <div class="side-rest">
                                        if o.shows("quorum") {
                                            <QuorumPanel quorum={m.quorum.clone()} learners={crate::sim::quorum::learners(&m.view)}
                                                forecast={quorum_forecast} />
                                        }
                                        if o.shows("promises") {
                                            <PromisesPanel promises={m.promises.clone()} />
                                        }
                                    </div>
                                }
                            </section>
                        }
                        if o.shows("map") || o.shows("machine") {
                            <section class="panel map-panel" aria-label="Cluster map and actions">
                                if o.shows("map") {
                                    <h2>{ "Cluster" }</h2>
                                    <div class="map-scroll" style={format!("--map-w:{}", map_width(m.view.machines.len()))}>
                                        <ClusterMap view={m.view.clone()} selected={(*selected).clone()} animate={*animate}
                                            playing={m.playing} now_ms={m.shown_ms} speed={m.speed} event={m.event.clone()} quorum={m.quorum.clone()}
                                            pause_on={m.pause_on} on_pause_on={on_msg.reform(Msg::PauseOn)}
                                            on_run={on_run.clone()} on_select={on_select.clone()} on_forecast={on_forecast.clone()} />
                                    </div>
                                }
                                if o.shows("machine") {
                                    <MachinePanel data={machine::panel(&m.view, selected.as_deref())}
                                        on_run={on_run.clone()} on_forecast={on_forecast.clone()} on_select={on_select.clone()} />
                                }
                            </section>
                        }
                        if o.shows("timeline") {
                            <section class="panel timeline-panel" aria-label="Timeline">
                                <TimelineChart timeline={m.future.as_ref().map_or_else(|| m.timeline.clone(), |f| f.timeline.clone())}
                                    now_ms={m.shown_ms} origin_ms={m.origin_ms} future_end_ms={m.future.as_ref().map(|f| f.end_ms)}
                                    {on_seek} />
                            </section>
                        }
                        if o.shows("terminal") {
                            <Terminal lines={Shared::new(&m.lines)} pending={m.pending.as_ref().map(Shared::new)}
                                running_ms={m.pending.as_ref().map(|p| m.shown_ms.saturating_sub(p.start_ms))}
                                queue={Shared::new(&m.queue)} partial={m.partial.clone()} prompt={m.prompt.clone()}
                                history={Shared::new(&m.history)} words={terminal_words(m)}
                                on_run={on_type} {on_typed} />
                        }
                    </div>
                    if o.shows("tables") {
                        // The section scrolls a wide table sideways (a phone), so it takes focus for the keys.
                        <section class="panel wide tables-panel" aria-label="Members and status" tabindex="0">
                            <Tables view={MachinesOf(m.view.clone())} />
                        </section>
                    }
                    if o.shows("timeline") && !o.embed {
                        <section class="panel wide" aria-label="Share and export">
                            <SharePanel export={m.export.as_ref().map(Shared::new)} on_msg={on_msg.clone()} />
                        </section>
                    }
                    if o.shows("logs") {
                        <Logs world_id={m.world_id} {upto} machines={m.view.machines.iter().map(|x| x.name.clone()).collect::<Vec<_>>()}
                            log={m.log()} />
                    }
                </main>
            }
        </div>
    }
}

/// `?lesson=NAME` (or a path on this site) opens a lesson, at `step=N` if
/// given; a share link's lesson is shown at the link's step, over the
/// link's world, and the query's world is ignored. What the page opened with
/// is said again once a lesson has opened (a lesson's world starts without a
/// notice), with what was ignored. Once, after the first render.
#[hook]
fn use_lesson_from_address(model: &UseReducerHandle<Model>, options: &Rc<Options>) {
    let d = model.dispatcher();
    let options = options.clone();
    let said = model.notice.clone();
    use_effect_with((), move |_| {
        let on_msg = Callback::from(move |m: Msg| d.dispatch(m));
        if let Some(Ok(run)) = linked_run() {
            if let Some(at) = run.lesson {
                lesson::attach(at, on_msg.clone());
            }
            if let Some(ignored) = options.link_notice() {
                let text = said.map_or(ignored.clone(), |s| format!("{s} {ignored}"));
                on_msg.emit(Msg::Notice(text));
            }
        } else if let Some(spec) = options.lesson.clone() {
            let unseen = !options.shows("lesson");
            lesson::open_from_query(spec, options.step, said, unseen, on_msg);
        }
    });
}

/// A machine picked on the map: its actions (right under the map) are
/// brought into view, on a phone below a map wider than the screen.
#[hook]
fn use_reveal_selected(selected: &UseStateHandle<Option<String>>) {
    use_effect_with((**selected).clone(), |selected| {
        if selected.is_some() {
            let actions = web_sys::window().and_then(|w| w.document()).and_then(|d| {
                d.query_selector("[data-testid=\"selected-machine\"]")
                    .ok()
                    .flatten()
            });
            if let Some(el) = actions {
                scroll_into_view_nearest(&el);
            }
        }
    });
}

/// On a phone the map is wider than the screen: it opens on its middle
/// (again when the number of machines changes).
#[hook]
fn use_map_centred(machines: usize) {
    use_effect_with(machines, |_| {
        let scroller = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(".map-scroll").ok().flatten());
        if let Some(el) = scroller {
            let extra = el.scroll_width() - el.client_width();
            if extra > 0 {
                el.set_scroll_left(extra / 2);
            }
        }
    });
}

/// The wasm memory the page holds, in bytes: the end-to-end tests' memory
/// bound for hostile links (`e2e/share.test.mjs`) reads it through
/// `window.wasmBindings`. It only reads a number.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = quorumPlaygroundMemoryBytes)]
pub fn memory_bytes() -> f64 {
    (core::arch::wasm32::memory_size(0) as f64) * 65536.0
}

/// Hands the model's run to the panic report ([`super::report::keep`])
/// whenever it changed: after the render, outside the reducer. The run is
/// shared, not copied, and compared by pointer, so this costs nothing on the
/// clock's frames.
#[hook]
fn use_report(model: &UseReducerHandle<Model>) {
    use_effect_with(Shared::new(&model.run), |run| {
        super::report::keep(run.0.clone())
    });
}

/// While a run is being opened, one part of it per message, each after the
/// page has painted the last: the page shows how far it got and stays
/// responsive (Cancel works between parts).
#[hook]
fn use_replay(model: &UseReducerHandle<Model>) {
    let busy = model.replaying_run.is_some();
    let d = model.dispatcher();
    use_effect_with((busy, model.version), move |&(busy, _)| {
        // An animation frame runs just before the browser paints; a timeout
        // set from it runs after that paint. So each part starts once the
        // last one's progress is on the screen.
        let timer: Rc<RefCell<Option<gloo::timers::callback::Timeout>>> = Rc::default();
        let frame = busy.then(|| {
            let timer = timer.clone();
            request_animation_frame(move |_| {
                let t =
                    gloo::timers::callback::Timeout::new(0, move || d.dispatch(Msg::ReplayMore));
                *timer.borrow_mut() = Some(t);
            })
        });
        move || {
            drop(frame);
            timer.borrow_mut().take();
        }
    });
}

/// How far the run being opened has got, with a way to stop it.
#[derive(Properties, PartialEq)]
struct ReplayProgressProps {
    job: Shared<Replaying>,
    /// The world's clock, simulated ms since it began.
    elapsed_ms: u64,
    on_msg: Callback<Msg>,
}

#[function_component(ReplayProgress)]
fn replay_progress(props: &ReplayProgressProps) -> Html {
    let total = props.job.run.steps.len();
    let done = props.job.next;
    let cancel = props.on_msg.reform(|_| Msg::ReplayCancel);
    html! {
        <section class="panel replay-progress" role="status" aria-live="polite" data-testid="replay-progress">
            <h2>{ match props.job.lesson_step {
                Some(n) => format!("Replaying the lesson to step {n}"),
                None => "Opening the run".to_string(),
            } }</h2>
            <p>{ format!("Replaying command {done} of {total}; {} of simulated time so far.", duration_words(props.elapsed_ms)) }</p>
            <progress max={total.max(1).to_string()} value={done.to_string()} />
            <p class="small muted">{ "A long run is replayed a part at a time, at most a simulated day and a bounded amount of work." }</p>
            <button onclick={cancel} data-testid="replay-cancel">{ "Stop here and show it" }</button>
        </section>
    }
}

/// What the line under the top bar says of the world shown.
#[derive(Properties, PartialEq)]
struct HintProps {
    /// Machines in the world.
    machines: usize,
    /// Machines whose etcd runs.
    running: usize,
    /// A machine to name in the examples (one whose etcd runs, else the first).
    example: Option<String>,
    /// The etcd the running servers run: `etcd 3.4.23`, or for a mix each
    /// release's count, `etcd, mixed: 2 × 3.4.23, 1 × 3.5.1`.
    releases: String,
}

/// What the terminal's Tab completes, on the session's current machine.
fn terminal_words(m: &Model) -> Words {
    let here = m.session().current().unwrap_or_default().to_string();
    Words::of(&m.view, &here)
}

/// The releases of the running servers, oldest first, as the hint says them
/// (a mix with how many of each, as the map's badge says it).
fn running_releases(view: &crate::sim::view::WorldView) -> String {
    let mut counts = std::collections::BTreeMap::new();
    for p in view.machines.iter().filter_map(|x| x.process.as_ref()) {
        *counts.entry(p.etcd).or_insert(0usize) += 1;
    }
    match counts.len() {
        0 | 1 => counts
            .keys()
            .map(|v| format!("etcd {}", v.release()))
            .collect(),
        _ => {
            let each: Vec<String> = counts
                .iter()
                .map(|(v, n)| format!("{n} × {}", v.release()))
                .collect();
            format!("etcd, mixed: {}", each.join(", "))
        }
    }
}

/// The machine the hint's examples name: the first whose etcd runs, else the first.
fn hint_example(view: &crate::sim::view::WorldView) -> Option<String> {
    let ms = &view.machines;
    ms.iter()
        .find(|x| x.process.is_some())
        .or_else(|| ms.first())
        .map(|x| visible_string(x.name.clone()))
}

/// A stretch of simulated time in words: `7 h 03 min`, `4 min 12 s`, `9 s`.
fn duration_words(ms: u64) -> String {
    let s = ms / 1000;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, sec) => format!("{sec} s"),
        (0, min, sec) => format!("{min} min {sec:02} s"),
        (h, min, _) => format!("{h} h {min:02} min"),
    }
}

/// The line under the top bar: what the world shown holds (machines, etcd
/// servers running) and a first step that fits it.
#[function_component(Hint)]
fn hint(props: &HintProps) -> Html {
    let keys = "Space plays or pauses; “.” runs one tick.";
    let ex = props
        .example
        .clone()
        .unwrap_or_else(|| "node01".to_string());
    let (n, r) = (props.machines, props.running);
    if n == 0 {
        return html! {
            <p class="hint muted" data-testid="hint">
                { "An empty world: no machines yet. First step: type " }
                <code>{ "machine add node01 192.168.0.61" }</code>{ " or use “Add machine”. " }{ keys }
            </p>
        };
    }
    if r == 0 {
        return html! {
            <p class="hint muted" data-testid="hint">
                { format!("{}, no etcd running yet. Click a machine and start etcd, or type an ", count(n, "machine")) }
                <code>{ format!("{ex}$ etcd --name {ex} …") }</code>{ " command. " }{ keys }
            </p>
        };
    }
    let how_many = match (n, r) {
        (1, _) => String::new(),
        (n, r) if n == r => "all ".to_string(),
        (_, r) => format!("{r} "),
    };
    let nodes = if r == 1 {
        "a real raft-rs node"
    } else {
        "real raft-rs nodes"
    };
    let servers = format!(
        "{}, {how_many}running {} ({nodes}).",
        count(n, "machine"),
        props.releases
    );
    let links = if n > 1 {
        " click a link to cut it (shift-click: one way),"
    } else {
        ""
    };
    html! {
        <p class="hint muted" data-testid="hint">
            { format!("{servers} Click a machine for its actions,{links} or type ") }
            <code>{ "etcdctl member list -w table" }</code>{ ", " }
            <code>{ format!("{ex}$ kill etcd") }</code>{ " or " }
            <code>{ format!("net isolate {ex}") }</code>{ format!(". {keys}") }
        </p>
    }
}

/// The width of the compact map's viewBox for `n` machines (`map::Geometry`,
/// what a phone draws): on a phone the map is drawn at 0.8 px per unit, so
/// its 14.5-unit text is 11 px or more, and pans sideways when wider than the
/// screen (`.map-scroll` in the style sheet; `e2e/layout.test.mjs` measures
/// the text as rendered).
fn map_width(n: usize) -> f64 {
    super::map::Geometry::of(n, true).w
}

/// `el.scrollIntoView({block: "nearest"})`: the least scrolling that shows it.
fn scroll_into_view_nearest(el: &web_sys::Element) {
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"block".into(), &"nearest".into());
    if let Some(f) = js_sys::Reflect::get(el, &"scrollIntoView".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    {
        let _ = f.call1(el, &opts);
    }
}

/// Whether the person asked for less motion.
pub(crate) fn prefers_reduced_motion() -> bool {
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

/// A share link opened in a tab that already shows the page changes only the
/// fragment, so the page does not load again: the run is replayed here (or
/// the notice says why it cannot be).
#[hook]
fn use_hash_links(model: &UseReducerHandle<Model>) {
    let d = model.dispatcher();
    use_effect_with((), move |_| {
        let listener = web_sys::window().map(|w| {
            EventListener::new(&w, "hashchange", move |_| match linked_run() {
                Some(Ok(run)) => {
                    let lesson = run.lesson.clone();
                    d.dispatch(Msg::Load(Rc::new(run)));
                    if let Some(at) = lesson {
                        let d = d.clone();
                        lesson::attach(at, Callback::from(move |m: Msg| d.dispatch(m)));
                    }
                }
                Some(Err(e)) => d.dispatch(Msg::Notice(e.to_string())),
                None => {}
            })
        });
        move || drop(listener)
    });
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
                let msg = match e.key().as_str() {
                    " " => Msg::TogglePlay,
                    "." => Msg::Step,
                    _ => return,
                };
                e.prevent_default();
                d.dispatch(msg);
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
