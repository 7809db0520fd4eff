//! Embed mode and the host page's bridge.
//!
//! `?embed=1` shows the page for an `<iframe>` in course material: only the
//! panels `panels=` names, no hint line, and the options below. Whether or
//! not `embed=1` is given, a framed page talks to its host with `postMessage`
//! (documented in `static/embed-example.html`, which drives it):
//!
//! - host to page, `{type: "quorum-playground:run", line: "etcdctl put a 1"}`
//!   types a command as a button does; `…:play`, `…:pause`,
//!   `…:speed` (`speed: 10`) and `…:seek` (`ms: 12000`) move the clock;
//! - page to host, `{source: "quorum-playground", type, …}`: `ready`,
//!   `leader-changed` (`leader`, `term`), `quorum-lost`, `quorum-regained`,
//!   and `output` (`command`, `lines`) when a command has printed its output.
//!
//! A message is read only from the page's parent (and only from `origin=`'s
//! origin when that is given); anything else is ignored. Commands go through
//! the shell like typed ones, and text is never inserted as HTML.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use super::state::{Model, Msg, TermKind, TermLine};

/// The panels a page can show, by their `panels=` names.
pub const PANELS: [&str; 9] = [
    "controls", "lesson", "machine", "quorum", "map", "terminal", "tables", "timeline", "logs",
];

/// The panels an embedded page shows when `panels=` is not given.
const EMBED_DEFAULT: [&str; 4] = ["controls", "map", "terminal", "quorum"];

/// The longest command a host may send.
const MAX_LINE: usize = 4096;

/// What the query string asks of the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub embed: bool,
    /// Which of [`PANELS`] show.
    pub panels: Vec<&'static str>,
    /// `lesson=NAME` and `step=N` (1 is the first step).
    pub lesson: Option<String>,
    pub step: usize,
    /// `autoplay=0|1`: whether the clock plays (a link opens paused unless 1).
    pub autoplay: Option<bool>,
    /// `speed=X`, as the speed field reads it.
    pub speed: Option<String>,
    /// `origin=`: the only origin whose messages are read, and where events go.
    pub origin: Option<String>,
    /// What could not be read, for the notice.
    pub problems: Vec<String>,
}

impl Options {
    /// Reads the page's decoded query pairs; unknown keys are left to others.
    pub fn parse(pairs: &[(String, String)]) -> Options {
        let mut o = Options {
            embed: false,
            panels: PANELS.to_vec(),
            lesson: None,
            step: 1,
            autoplay: None,
            speed: None,
            origin: None,
            problems: Vec::new(),
        };
        let mut panels = None;
        for (k, v) in pairs {
            match k.as_str() {
                "embed" => o.embed = v != "0",
                "panels" => panels = Some(o.read_panels(v)),
                "lesson" => o.lesson = Some(v.clone()),
                "step" => match v.parse::<usize>() {
                    Ok(n) if n >= 1 => o.step = n,
                    _ => o
                        .problems
                        .push(format!("step: {v:?} is not a step number (1, 2, …)")),
                },
                "autoplay" => o.autoplay = Some(v != "0"),
                "speed" => o.speed = Some(v.clone()),
                "origin" => o.origin = Some(v.clone()),
                _ => {}
            }
        }
        o.panels = match panels {
            Some(p) => p,
            None if o.embed => EMBED_DEFAULT.to_vec(),
            None => PANELS.to_vec(),
        };
        o
    }

    fn read_panels(&mut self, list: &str) -> Vec<&'static str> {
        let mut out = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match PANELS.iter().find(|p| **p == name) {
                Some(p) => out.push(*p),
                None => self.problems.push(format!(
                    "panels: {name:?} is not a panel (one of {})",
                    PANELS.join(", ")
                )),
            }
        }
        out
    }

    /// Whether a panel shows.
    pub fn shows(&self, panel: &str) -> bool {
        self.panels.contains(&panel)
    }
}

/// A command from the host, checked.
#[derive(Debug, Clone, PartialEq)]
pub enum HostCommand {
    Run(String),
    Play,
    Pause,
    Speed(String),
    Seek(u64),
}

/// Reads a host's message: `None` for anything that is not one of ours.
pub fn read_message(data: &JsValue) -> Option<HostCommand> {
    let field = |name: &str| js_sys::Reflect::get(data, &JsValue::from_str(name)).ok();
    let kind = field("type")?.as_string()?;
    let kind = kind.strip_prefix("quorum-playground:")?;
    match kind {
        "run" => {
            let line = field("line")?.as_string()?;
            (line.len() <= MAX_LINE && !line.contains(['\n', '\r']))
                .then_some(HostCommand::Run(line))
        }
        "play" => Some(HostCommand::Play),
        "pause" => Some(HostCommand::Pause),
        "speed" => {
            let v = field("speed")?;
            let text = v
                .as_string()
                .or_else(|| v.as_f64().map(|f| f.to_string()))?;
            Some(HostCommand::Speed(text))
        }
        "seek" => {
            let ms = field("ms")?.as_f64()?;
            (ms.is_finite() && ms >= 0.0).then_some(HostCommand::Seek(ms as u64))
        }
        _ => None,
    }
}

fn to_msg(c: HostCommand, playing: bool) -> Option<Msg> {
    match c {
        HostCommand::Run(line) => Some(Msg::Button(line)),
        HostCommand::Play => (!playing).then_some(Msg::TogglePlay),
        HostCommand::Pause => playing.then_some(Msg::TogglePlay),
        HostCommand::Speed(s) => Some(Msg::SetSpeed(s)),
        HostCommand::Seek(ms) => Some(Msg::Seek(ms)),
    }
}

/// An event for the host.
#[derive(Debug, Clone, PartialEq)]
pub enum HostEvent {
    Ready,
    LeaderChanged { leader: Option<String>, term: u64 },
    QuorumLost,
    QuorumRegained,
    Output { command: String, lines: Vec<String> },
}

/// What the host has been told so far.
#[derive(Debug, Default)]
pub struct Told {
    /// Terminal lines already looked at.
    lines: usize,
    leader: Option<(Option<String>, u64)>,
    quorum: Option<bool>,
    world_id: u64,
}

/// The events a model's change gives, given what the host was told. The first
/// call (and a new world) tells the current leader and quorum but no output
/// from before.
pub fn events(told: &mut Told, m: &Model) -> Vec<HostEvent> {
    let mut out = Vec::new();
    if told.world_id != m.world_id {
        told.world_id = m.world_id;
        told.lines = finished_lines(m);
    }
    let leader = m
        .quorum
        .leader
        .as_ref()
        .map(|l| (Some(l.name.clone()), l.term));
    let leader = leader.unwrap_or((None, m.timeline.samples.last().map_or(0, |s| s.term)));
    if told.leader.as_ref() != Some(&leader) {
        told.leader = Some(leader.clone());
        out.push(HostEvent::LeaderChanged {
            leader: leader.0,
            term: leader.1,
        });
    }
    let quorum = m.quorum.can_commit;
    match told.quorum.replace(quorum) {
        Some(true) if !quorum => out.push(HostEvent::QuorumLost),
        Some(false) if quorum => out.push(HostEvent::QuorumRegained),
        _ => {}
    }
    let upto = finished_lines(m);
    if upto > told.lines {
        out.extend(outputs(&m.lines[told.lines..upto]));
        told.lines = upto;
    }
    out
}

/// Terminal lines of commands that finished: all of them, except a pending
/// command's echo.
fn finished_lines(m: &Model) -> usize {
    match m.pending {
        Some(_) => m
            .lines
            .iter()
            .rposition(|l| l.kind == TermKind::Echo)
            .unwrap_or(m.lines.len()),
        None => m.lines.len(),
    }
}

/// Output events for finished lines: each echo and the lines after it.
fn outputs(lines: &[TermLine]) -> Vec<HostEvent> {
    let mut out: Vec<HostEvent> = Vec::new();
    for l in lines {
        match (l.kind, out.last_mut()) {
            (TermKind::Echo, _) => out.push(HostEvent::Output {
                command: l.text.clone(),
                lines: Vec::new(),
            }),
            (_, Some(HostEvent::Output { lines, .. })) => lines.push(l.text.clone()),
            _ => {}
        }
    }
    out
}

fn to_js(e: &HostEvent) -> JsValue {
    let o = js_sys::Object::new();
    let set = |k: &str, v: JsValue| {
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), &v);
    };
    set("source", "quorum-playground".into());
    match e {
        HostEvent::Ready => set("type", "ready".into()),
        HostEvent::LeaderChanged { leader, term } => {
            set("type", "leader-changed".into());
            set(
                "leader",
                leader.as_deref().map_or(JsValue::NULL, JsValue::from_str),
            );
            set("term", JsValue::from_f64(*term as f64));
        }
        HostEvent::QuorumLost => set("type", "quorum-lost".into()),
        HostEvent::QuorumRegained => set("type", "quorum-regained".into()),
        HostEvent::Output { command, lines } => {
            set("type", "output".into());
            set("command", command.as_str().into());
            let arr = js_sys::Array::new();
            for l in lines {
                arr.push(&JsValue::from_str(l));
            }
            set("lines", arr.into());
        }
    }
    o.into()
}

/// The page's parent window, when the page is framed.
fn parent() -> Option<web_sys::Window> {
    let w = web_sys::window()?;
    let p = w.parent().ok().flatten()?;
    (!js_sys::Object::is(&p, &w)).then_some(p)
}

fn post(e: &HostEvent, origin: Option<&str>) {
    if let Some(p) = parent() {
        let _ = p.post_message(&to_js(e), origin.unwrap_or("*"));
    }
}

/// The bridge: reads the host's messages into `Msg`s and tells the host what
/// changed after every render. Does nothing in a page that is not framed.
#[hook]
pub fn use_bridge(model: &UseReducerHandle<Model>, origin: Option<String>) {
    let told = use_mut_ref(Told::default);
    let playing = use_mut_ref(|| model.playing);
    *playing.borrow_mut() = model.playing;
    {
        let d = model.dispatcher();
        let origin = origin.clone();
        use_effect_with((), move |_| {
            let listener = listen(d, origin.clone(), playing);
            post(&HostEvent::Ready, origin.as_deref());
            move || drop(listener)
        });
    }
    // After each render, not during it: what changed is told once.
    let latest = (**model).clone();
    use_effect(move || {
        for e in &events(&mut told.borrow_mut(), &latest) {
            post(e, origin.as_deref());
        }
    });
}

fn listen(
    d: UseReducerDispatcher<Model>,
    origin: Option<String>,
    playing: Rc<RefCell<bool>>,
) -> Option<EventListener> {
    let parent = parent()?;
    let w = web_sys::window()?;
    Some(EventListener::new(&w, "message", move |e| {
        let Some(e) = e.dyn_ref::<web_sys::MessageEvent>() else {
            return;
        };
        let from_parent = e.source().is_some_and(|s| js_sys::Object::is(&s, &parent));
        let origin_ok = origin.as_deref().is_none_or(|o| e.origin() == o);
        if !(from_parent && origin_ok) {
            return;
        }
        if let Some(msg) = read_message(&e.data()).and_then(|c| to_msg(c, *playing.borrow())) {
            d.dispatch(msg);
        }
    }))
}
