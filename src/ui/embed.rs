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
//! origin when that is given; from nobody when `origin=` is not an origin);
//! anything else is ignored. Commands go through the shell like typed ones,
//! and text is never inserted as HTML.
//!
//! The parameters ([`PARAMS`]):
//!
//! - `embed=0|1`: embed mode (the panels `panels=` names, no hint line, the
//!   world's controls hidden unless `controls=` asks for them);
//! - `panels=` a comma list of [`PANELS`] (embedded: controls, map, terminal and quorum without it);
//! - `controls=` a comma list of the top bar's world controls an embedded page
//!   shows ([`WORLD_CONTROLS`]: `seed`, `etcd`, `reset`, `empty`; `none` for none,
//!   `all` for all four). Without embed mode all of them show and `controls=`
//!   is ignored (the notice says so). A student in a course page gets the clock,
//!   the speed and the theme, not a way to throw the course's world away;
//! - `lesson=NAME` and `step=N`, `autoplay=0|1`, `speed=0.1..100`, `origin=`,
//!   `start=cluster|empty`, `seed=N` and `etcd=3.4|3.5` (the etcd the
//!   world's machines install).
//!
//! [`Options::parse`] reads every query parameter the page knows and names each
//! unknown, repeated, ignored or bad one, with what the page does instead, for
//! the notice.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use super::state::{EtcdVersion, Model, Msg, Start, TermKind, TermLine};
use crate::sim::view::clipped;

/// The panels a page can show, by their `panels=` names.
pub const PANELS: [&str; 10] = [
    "controls", "lesson", "machine", "quorum", "promises", "map", "terminal", "tables", "timeline",
    "logs",
];

/// The panels an embedded page shows when `panels=` is not given.
const EMBED_DEFAULT: [&str; 4] = ["controls", "map", "terminal", "quorum"];

/// Every query parameter the page reads; any other is named in a notice.
pub const PARAMS: [&str; 11] = [
    "embed", "panels", "controls", "lesson", "step", "autoplay", "speed", "origin", "start",
    "seed", "etcd",
];

/// The top bar's world controls, by their `controls=` names: the seed field,
/// the etcd picker, **Reset** and **Empty world**. An embedded page shows
/// only those asked for.
pub const WORLD_CONTROLS: [&str; 4] = ["seed", "etcd", "reset", "empty"];

/// The parameters that choose the world, which a share link's run overrides.
const WORLD_PARAMS: [&str; 5] = ["seed", "start", "etcd", "lesson", "step"];

/// The most problems a notice lists one by one.
const NOTICE_PROBLEMS: usize = 4;

/// The longest part of a bad value a problem repeats.
const SHOWN_CHARS: usize = 60;

/// The longest command a host may send.
const MAX_LINE: usize = 4096;

/// Whose messages the bridge reads, from `origin=`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostOrigin {
    /// No `origin=`: the parent's, from any origin; events go to any origin.
    Any,
    /// Only this origin's (`https://example.org`), and events go only there.
    Only(String),
    /// `origin=` could not be read: no messages are read and none are sent.
    Nobody,
}

/// What the query string asks of the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub embed: bool,
    /// Which of [`PANELS`] show.
    pub panels: Vec<&'static str>,
    /// Which of [`WORLD_CONTROLS`] the top bar shows.
    pub controls: Vec<&'static str>,
    /// `lesson=NAME` and `step=N` (1 is the first step).
    pub lesson: Option<String>,
    pub step: usize,
    /// `autoplay=0|1`: whether the clock plays (a link opens paused unless 1).
    pub autoplay: Option<bool>,
    /// `speed=X`, checked as the speed field checks it.
    pub speed: Option<String>,
    /// `origin=`: the only origin whose messages are read, and where events go.
    pub origin: HostOrigin,
    /// `start=cluster|empty`.
    pub start: Start,
    /// `seed=N` (1 without it).
    pub seed: u64,
    /// `etcd=3.4|3.5` (3.4 without it).
    pub etcd: EtcdVersion,
    /// Which of the parameters that choose the world were given, for a share
    /// link, whose run overrides them ([`Options::link_notice`]).
    pub world_given: Vec<&'static str>,
    /// What could not be read, or was ignored, and what the page does instead:
    /// one sentence each.
    pub problems: Vec<String>,
}

impl Options {
    /// Reads the page's decoded query pairs. Every parameter that is unknown,
    /// given twice or cannot be read is named in [`Options::problems`], with
    /// what the page does instead.
    pub fn parse(pairs: &[(String, String)]) -> Options {
        let mut o = Options {
            embed: false,
            panels: PANELS.to_vec(),
            controls: WORLD_CONTROLS.to_vec(),
            lesson: None,
            step: 1,
            autoplay: None,
            speed: None,
            origin: HostOrigin::Any,
            start: Start::Cluster,
            seed: 1,
            etcd: EtcdVersion::default(),
            world_given: Vec::new(),
            problems: Vec::new(),
        };
        let mut panels = None;
        let mut controls = None;
        let mut seen: Vec<&str> = Vec::new();
        // Parameters whose last value could not be read (already said).
        let mut bad: Vec<&str> = Vec::new();
        for (k, v) in pairs {
            if k.is_empty() && v.is_empty() {
                continue;
            }
            if seen.contains(&k.as_str()) && PARAMS.contains(&k.as_str()) {
                o.problems.push(format!(
                    "{k}= is given more than once; the last one is used."
                ));
            }
            seen.push(k.as_str());
            let read = match k.as_str() {
                "panels" => {
                    panels = Some(o.read_panels(v));
                    Ok(())
                }
                "controls" => {
                    controls = Some(o.read_controls(v));
                    Ok(())
                }
                _ => o.read(k, v),
            };
            bad.retain(|b| b != k);
            if let Err(p) = read {
                o.problems.push(p);
                bad.push(k);
            }
        }
        o.panels = o.chosen_panels(panels);
        o.controls = o.chosen_controls(controls);
        let fine: Vec<&str> = seen.into_iter().filter(|k| !bad.contains(k)).collect();
        o.check_combinations(&fine);
        o
    }

    /// One parameter other than `panels=`: what could not be read, if anything.
    fn read(&mut self, k: &str, v: &str) -> Result<(), String> {
        if let Some(w) = WORLD_PARAMS.iter().find(|w| **w == k) {
            if !self.world_given.contains(w) {
                self.world_given.push(w);
            }
        }
        match k {
            "embed" => flag(v)
                .map(|b| self.embed = b)
                .map_err(|_| format!("embed: {} is not 0 or 1; it is ignored.", quoted(v))),
            "autoplay" => flag(v)
                .map(|b| self.autoplay = Some(b))
                .map_err(|_| format!("autoplay: {} is not 0 or 1; it is ignored.", quoted(v))),
            "lesson" if v.trim().is_empty() => {
                Err("lesson: no lesson is named; none opens.".to_string())
            }
            "lesson" => {
                self.lesson = Some(v.to_string());
                Ok(())
            }
            "step" => read_step(v).map(|n| self.step = n),
            "speed" => super::state::parse_speed(v).map(|_| self.speed = Some(v.to_string())),
            "origin" => self.read_origin(v),
            "start" => read_start(v).map(|s| self.start = s),
            "seed" => read_seed(v).map(|n| self.seed = n),
            "etcd" => read_etcd(v).map(|e| self.etcd = e),
            _ => Err(format!(
                "{} is not a parameter this page reads ({}); it is ignored.",
                quoted(k),
                PARAMS.join(", ")
            )),
        }
    }

    fn read_origin(&mut self, v: &str) -> Result<(), String> {
        match parse_origin(v) {
            Some(origin) => {
                self.origin = HostOrigin::Only(origin);
                Ok(())
            }
            None => {
                self.origin = HostOrigin::Nobody;
                Err(format!(
                    "origin: {} is not an origin such as https://example.org (scheme, host and port only); the page reads no messages from its host and sends it none.",
                    quoted(v)
                ))
            }
        }
    }

    fn read_panels(&mut self, list: &str) -> Vec<&'static str> {
        let mut out = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match PANELS.iter().find(|p| **p == name) {
                Some(p) => out.push(*p),
                None => self.problems.push(format!(
                    "panels: {} is not a panel (one of {}); it is left out.",
                    quoted(name),
                    PANELS.join(", ")
                )),
            }
        }
        out
    }

    /// `controls=`: the world controls named (`none`: none, `all`: all); an
    /// unknown name is left out and said.
    fn read_controls(&mut self, list: &str) -> Vec<&'static str> {
        let mut out = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "none" => {}
                "all" => out.extend(WORLD_CONTROLS),
                _ => match WORLD_CONTROLS.iter().find(|c| **c == name) {
                    Some(c) => out.push(*c),
                    None => self.problems.push(format!(
                        "controls: {} is not a control (one of {}, or none or all); it is left out.",
                        quoted(name),
                        WORLD_CONTROLS.join(", ")
                    )),
                },
            }
        }
        out.dedup();
        out
    }

    /// The world controls that show: all of them on the page itself (where
    /// `controls=` is ignored, and said); embedded, those `controls=` names,
    /// else none.
    fn chosen_controls(&mut self, asked: Option<Vec<&'static str>>) -> Vec<&'static str> {
        match (self.embed, asked) {
            (true, asked) => {
                let asked = asked.unwrap_or_default();
                WORLD_CONTROLS
                    .into_iter()
                    .filter(|c| asked.contains(c))
                    .collect()
            }
            (false, Some(_)) => {
                self.problems.push(
                    "controls: only an embedded page (embed=1) hides controls; all of them show."
                        .to_string(),
                );
                WORLD_CONTROLS.to_vec()
            }
            (false, None) => WORLD_CONTROLS.to_vec(),
        }
    }

    /// The panels that show: those `panels=` names, else the default ones
    /// (which an empty `panels=` gets too, with a problem saying so).
    fn chosen_panels(&mut self, asked: Option<Vec<&'static str>>) -> Vec<&'static str> {
        let default = if self.embed {
            EMBED_DEFAULT.to_vec()
        } else {
            PANELS.to_vec()
        };
        match asked {
            Some(p) if p.is_empty() => {
                self.problems.push(format!(
                    "panels: no known panel is named; the default ones show ({}).",
                    default.join(", ")
                ));
                default
            }
            Some(p) => p,
            None => default,
        }
    }

    /// Parameters that do nothing with the others given (`given`: those
    /// whose value could be read).
    fn check_combinations(&mut self, given: &[&str]) {
        if self.lesson.is_none() && given.contains(&"step") {
            self.problems
                .push("step: no lesson= is given, so it is ignored.".to_string());
        }
        if self.lesson.is_some() {
            let ignored: Vec<String> = ["seed", "start", "etcd"]
                .iter()
                .filter(|p| given.contains(p))
                .map(|p| format!("{p}="))
                .collect();
            if !ignored.is_empty() {
                self.problems.push(format!(
                    "{} ignored: the lesson starts its own world.",
                    said_list(&ignored)
                ));
            }
        }
    }

    /// Whether a panel shows.
    pub fn shows(&self, panel: &str) -> bool {
        self.panels.contains(&panel)
    }

    /// The notice for [`Options::problems`]: the first few, then how many more.
    pub fn notice(&self) -> Option<String> {
        let first = self.problems.iter().take(NOTICE_PROBLEMS);
        let mut text = first.cloned().collect::<Vec<_>>().join(" ");
        let more = self.problems.len().saturating_sub(NOTICE_PROBLEMS);
        if more > 0 {
            text.push_str(&format!(" (And {more} more.)"));
        }
        (!text.is_empty()).then_some(text)
    }

    /// What a share link's run overrides, said: `None` when nothing was given
    /// that it does.
    pub fn link_notice(&self) -> Option<String> {
        let given: Vec<String> = self.world_given.iter().map(|p| format!("{p}=")).collect();
        (!given.is_empty()).then(|| {
            format!(
                "{} ignored: the share link's run has its own world.",
                said_list(&given)
            )
        })
    }
}

/// `a= is`, `a= and b= are`, `a=, b= and c= are`.
fn said_list(items: &[String]) -> String {
    let verb = if items.len() == 1 { "is" } else { "are" };
    match items.split_last() {
        Some((last, [])) => format!("{last} {verb}"),
        Some((last, rest)) => format!("{} and {last} {verb}", rest.join(", ")),
        None => String::new(),
    }
}

/// A value as a problem repeats it: quoted, escaped, and cut short.
fn quoted(v: &str) -> String {
    format!("{:?}", clipped(v, SHOWN_CHARS))
}

/// `0` or `1`.
fn flag(v: &str) -> Result<bool, ()> {
    match v {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(()),
    }
}

fn read_step(v: &str) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "step: {} is not a step number (1, 2, …); the lesson opens at step 1.",
            quoted(v)
        )),
    }
}

fn read_start(v: &str) -> Result<Start, String> {
    Start::from_name(v).ok_or_else(|| {
        format!(
            "start: {} is not cluster or empty; the page starts with a three-member cluster.",
            quoted(v)
        )
    })
}

fn read_etcd(v: &str) -> Result<EtcdVersion, String> {
    EtcdVersion::from_name(v).ok_or_else(|| {
        format!(
            "etcd: {} is not 3.4 or 3.5; the page runs etcd {}.",
            quoted(v),
            EtcdVersion::default().release()
        )
    })
}

fn read_seed(v: &str) -> Result<u64, String> {
    super::state::parse_seed(v).map_err(|_| {
        format!(
            "seed: {} is not a whole number from 0 to {}; seed 1 is used.",
            quoted(v),
            u64::MAX
        )
    })
}

/// An origin as `MessageEvent.origin` gives it: `http` or `https`, a host
/// (ASCII letters, digits, `-` and `.`, or a bracketed IPv6 address) and an
/// optional port; a lone `/` after it is dropped, as are a default port and
/// upper case. `None` for anything else (a path, a query, user info, `null`).
pub fn parse_origin(text: &str) -> Option<String> {
    let (scheme, rest) = text.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => "80",
        "https" => "443",
        _ => return None,
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let (host, port) = split_port(rest)?;
    if !valid_host(host) {
        return None;
    }
    let host = host.to_ascii_lowercase();
    match port {
        Some(p) if p != default_port => Some(format!("{scheme}://{host}:{p}")),
        _ => Some(format!("{scheme}://{host}")),
    }
}

/// `host[:port]` with a port of 1 to 65535 (its digits as given, no leading 0).
fn split_port(hostport: &str) -> Option<(&str, Option<&str>)> {
    let colon = match hostport.strip_prefix('[') {
        Some(v6) => v6.find(']').map(|i| i + 2).filter(|&i| i < hostport.len()),
        None => hostport.rfind(':'),
    };
    let Some(at) = colon else {
        return Some((hostport, None));
    };
    let (host, port) = (&hostport[..at], hostport.get(at + 1..)?);
    let number = port.parse::<u16>().ok().filter(|&p| p > 0)?;
    (hostport.as_bytes().get(at) == Some(&b':') && number.to_string() == port)
        .then_some((host, Some(port)))
}

fn valid_host(host: &str) -> bool {
    match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => {
            !v6.is_empty()
                && v6
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
        }
        None => {
            !host.is_empty()
                && !host.starts_with(['.', '-'])
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
        }
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

fn post(e: &HostEvent, origin: &HostOrigin) {
    let target = match origin {
        HostOrigin::Any => "*",
        HostOrigin::Only(o) => o.as_str(),
        HostOrigin::Nobody => return,
    };
    if let Some(p) = parent() {
        let _ = p.post_message(&to_js(e), target);
    }
}

/// The bridge: reads the host's messages into `Msg`s and tells the host what
/// changed after every render. Does nothing in a page that is not framed, nor
/// after an `origin=` it could not read.
#[hook]
pub fn use_bridge(model: &UseReducerHandle<Model>, origin: HostOrigin) {
    let told = use_mut_ref(Told::default);
    let playing = use_mut_ref(|| model.playing);
    *playing.borrow_mut() = model.playing;
    {
        let d = model.dispatcher();
        let origin = origin.clone();
        use_effect_with((), move |_| {
            let listener = listen(d, origin.clone(), playing);
            post(&HostEvent::Ready, &origin);
            move || drop(listener)
        });
    }
    // After each render, not during it: what changed is told once. While a
    // run is being opened the host hears nothing: what it replays is the
    // link's past, and the first look after it tells the world as it is.
    let latest = (**model).clone();
    use_effect(move || {
        if latest.replaying_run.is_some() {
            return;
        }
        for e in &events(&mut told.borrow_mut(), &latest) {
            post(e, &origin);
        }
    });
}

fn listen(
    d: UseReducerDispatcher<Model>,
    origin: HostOrigin,
    playing: Rc<RefCell<bool>>,
) -> Option<EventListener> {
    if origin == HostOrigin::Nobody {
        return None;
    }
    let parent = parent()?;
    let w = web_sys::window()?;
    Some(EventListener::new(&w, "message", move |e| {
        let Some(e) = e.dyn_ref::<web_sys::MessageEvent>() else {
            return;
        };
        let from_parent = e.source().is_some_and(|s| js_sys::Object::is(&s, &parent));
        let origin_ok = match &origin {
            HostOrigin::Any => true,
            HostOrigin::Only(o) => e.origin() == *o,
            HostOrigin::Nobody => false,
        };
        if !(from_parent && origin_ok) {
            return;
        }
        if let Some(msg) = read_message(&e.data()).and_then(|c| to_msg(c, *playing.borrow())) {
            d.dispatch(msg);
        }
    }))
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn parse(q: &[(&str, &str)]) -> Options {
        let pairs: Vec<(String, String)> = q
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Options::parse(&pairs)
    }

    fn one_problem(q: &[(&str, &str)], says: &str) -> Options {
        let o = parse(q);
        assert_eq!(o.problems.len(), 1, "{q:?}: {:?}", o.problems);
        assert!(o.problems[0].contains(says), "{q:?}: {:?}", o.problems);
        o
    }

    #[wasm_bindgen_test]
    fn a_good_query_has_no_problems() {
        let o = parse(&[
            ("embed", "1"),
            ("panels", "controls,map,terminal,quorum,promises"),
            ("lesson", "001-learner-design"),
            ("step", "2"),
            ("autoplay", "1"),
            ("speed", "5"),
            ("origin", "https://course.example"),
        ]);
        assert_eq!(o.problems, Vec::<String>::new());
        assert_eq!(o.notice(), None);
        assert!(o.shows("promises"), "promises is a panel");
        assert_eq!(o.origin, HostOrigin::Only("https://course.example".into()));
        let o = parse(&[("start", "empty"), ("seed", "42")]);
        assert_eq!((o.start, o.seed, o.problems.len()), (Start::Empty, 42, 0));
        assert_eq!(o.etcd, EtcdVersion::V3_4);
        let o = parse(&[("etcd", "3.5")]);
        assert_eq!((o.etcd, o.problems.len()), (EtcdVersion::V3_5, 0));
        let o = one_problem(
            &[("etcd", "3.6<b>")],
            "etcd: \"3.6<b>\" is not 3.4 or 3.5; the page runs etcd 3.4.23",
        );
        assert_eq!(o.etcd, EtcdVersion::V3_4);
        assert_eq!(parse(&[]).origin, HostOrigin::Any);
        // `?` alone and stray `&`s are not parameters.
        assert_eq!(parse(&[("", ""), ("", "")]).problems.len(), 0);
    }

    #[wasm_bindgen_test]
    fn world_controls_hide_when_embedded_unless_asked() {
        let all = WORLD_CONTROLS.to_vec();
        assert_eq!(parse(&[]).controls, all, "the page itself shows them all");
        assert_eq!(parse(&[("embed", "1")]).controls, Vec::<&str>::new());
        let o = parse(&[("embed", "1"), ("controls", "reset,seed")]);
        assert_eq!((o.controls, o.problems.len()), (vec!["seed", "reset"], 0));
        assert_eq!(parse(&[("embed", "1"), ("controls", "all")]).controls, all);
        let o = parse(&[("embed", "1"), ("controls", "none")]);
        assert_eq!((o.controls.len(), o.problems.len()), (0, 0));
        let o = one_problem(
            &[("embed", "1"), ("controls", "reset,<b>wipe</b>")],
            "\"<b>wipe</b>\" is not a control",
        );
        assert_eq!(o.controls, ["reset"]);
        let o = one_problem(&[("controls", "seed")], "only an embedded page");
        assert_eq!(o.controls, all);
        assert!(o.controls.contains(&"empty"));
    }

    #[wasm_bindgen_test]
    fn unknown_and_repeated_parameters_are_named() {
        one_problem(
            &[("foo", "1")],
            "\"foo\" is not a parameter this page reads",
        );
        one_problem(&[("", "x")], "\"\" is not a parameter");
        let o = one_problem(
            &[("seed", "2"), ("seed", "3")],
            "seed= is given more than once; the last one is used",
        );
        assert_eq!(o.seed, 3);
        let long = "x".repeat(1000);
        let o = one_problem(&[(long.as_str(), "1")], "is not a parameter");
        assert!(o.problems[0].len() < 300, "a long name is cut short");
    }

    #[wasm_bindgen_test]
    fn bad_flags_start_seed_and_speed_say_what_the_page_did() {
        let o = one_problem(
            &[("autoplay", "maybe")],
            "autoplay: \"maybe\" is not 0 or 1; it is ignored",
        );
        assert_eq!(o.autoplay, None);
        let o = one_problem(&[("embed", "yes")], "embed: \"yes\" is not 0 or 1");
        assert!(!o.embed && o.shows("logs"), "the whole page shows");
        let o = one_problem(
            &[("start", "mars")],
            "start: \"mars\" is not cluster or empty; the page starts with a three-member cluster",
        );
        assert_eq!(o.start, Start::Cluster);
        one_problem(&[("start", "")], "is not cluster or empty");
        let o = one_problem(&[("seed", "x")], "seed: \"x\" is not a whole number");
        assert_eq!(o.seed, 1);
        let o = one_problem(&[("speed", "fast")], "speed: \"fast\"");
        assert_eq!(o.speed, None);
    }

    #[wasm_bindgen_test]
    fn panels_empty_or_unknown_fall_back_and_say_so() {
        for empty in ["", ",", " , "] {
            let o = one_problem(
                &[("embed", "1"), ("panels", empty)],
                "no known panel is named; the default ones show (controls, map, terminal, quorum)",
            );
            assert_eq!(o.panels, EMBED_DEFAULT.to_vec());
        }
        let o = parse(&[("embed", "1"), ("panels", "nope,<b>")]);
        assert_eq!(o.panels, EMBED_DEFAULT.to_vec());
        assert_eq!(o.problems.len(), 3, "{:?}", o.problems);
        let o = one_problem(&[("panels", "logs,nope")], "\"nope\" is not a panel");
        assert_eq!(o.panels, ["logs"]);
    }

    #[wasm_bindgen_test]
    fn steps_and_lessons_name_what_is_ignored() {
        for bad in ["0", "x", "-1", "1.5", ""] {
            let o = one_problem(
                &[("lesson", "a"), ("step", bad)],
                "is not a step number (1, 2, …); the lesson opens at step 1",
            );
            assert_eq!(o.step, 1);
        }
        one_problem(
            &[("step", "3")],
            "step: no lesson= is given, so it is ignored",
        );
        // One problem per parameter: a bad value is not also "ignored".
        one_problem(&[("step", "0")], "is not a step number");
        one_problem(
            &[("lesson", "a"), ("seed", "x")],
            "seed: \"x\" is not a whole number",
        );
        one_problem(
            &[("lesson", "a"), ("seed", "3"), ("start", "empty")],
            "seed= and start= are ignored: the lesson starts its own world",
        );
        let o = one_problem(&[("lesson", "  ")], "lesson: no lesson is named");
        assert_eq!(o.lesson, None);
    }

    #[wasm_bindgen_test]
    fn origins_must_be_origins_or_the_bridge_hears_nobody() {
        let cases = [
            ("https://example.org", Some("https://example.org")),
            ("https://example.org/", Some("https://example.org")),
            ("HTTPS://Example.ORG:443", Some("https://example.org")),
            ("http://127.0.0.1:8080", Some("http://127.0.0.1:8080")),
            ("http://[::1]:80", Some("http://[::1]")),
            ("http://elsewhere.invalid", Some("http://elsewhere.invalid")),
            ("", None),
            ("*", None),
            ("null", None),
            ("example.org", None),
            ("ftp://example.org", None),
            ("https://", None),
            ("https://example.org/path", None),
            ("https://example.org?x", None),
            ("https://user@example.org", None),
            ("https://example.org:0", None),
            ("https://example.org:99999", None),
            ("https://example.org:08", None),
            ("https://example.org:", None),
            ("https://exa mple.org", None),
            ("https://.example.org", None),
            ("https://[zz]", None),
            ("https://[::1]x", None),
            ("javascript://example.org", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_origin(text).as_deref(), want, "{text:?}");
        }
        let o = one_problem(
            &[("origin", "example.org")],
            "origin: \"example.org\" is not an origin such as https://example.org",
        );
        assert_eq!(o.origin, HostOrigin::Nobody);
        assert!(o.problems[0].contains("reads no messages from its host"));
    }

    #[wasm_bindgen_test]
    fn the_notice_lists_a_few_then_counts_the_rest() {
        let q: Vec<(String, String)> = (0..7).map(|i| (format!("p{i}"), String::new())).collect();
        let o = Options::parse(&q);
        let n = o.notice().expect("a notice");
        assert!(n.contains("\"p3\"") && !n.contains("\"p4\""), "{n}");
        assert!(n.ends_with("(And 3 more.)"), "{n}");
    }

    #[wasm_bindgen_test]
    fn a_share_link_says_which_world_parameters_it_overrides() {
        assert_eq!(parse(&[("embed", "1"), ("speed", "2")]).link_notice(), None);
        assert_eq!(
            parse(&[("seed", "3"), ("lesson", "a"), ("step", "2")])
                .link_notice()
                .as_deref(),
            Some("seed=, lesson= and step= are ignored: the share link's run has its own world.")
        );
        assert_eq!(
            parse(&[("start", "empty")]).link_notice().as_deref(),
            Some("start= is ignored: the share link's run has its own world.")
        );
    }
}
