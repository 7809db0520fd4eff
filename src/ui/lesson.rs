//! The lesson player: the lesson list, and for an open lesson the current
//! step's narration and commands, Run (types them into the terminal), Back
//! (replays to the end of the previous step), Next, and the step's checks once
//! its commands have finished, with a way to put the world back when it went off
//! the lesson's path. Lessons are fetched from `static/lessons/NAME.lesson` (or
//! a URL on the same site) and parsed by `crate::lessons`; text from a lesson is
//! only ever shown as text.

use std::rc::Rc;

use yew::prelude::*;

use super::state::{command_line, LessonState, Model, Msg, Shared};
use crate::lessons::{self, Lesson};

/// The lessons shipped in `static/lessons/`: file stem and title.
pub const CATALOGUE: [(&str, &str); 6] = [
    (
        "000-server-addition-deletion",
        "000: adding and removing servers",
    ),
    ("001-learner-design", "001: the learner design"),
    (
        "002-runtime-reconfiguration",
        "002: runtime reconfiguration",
    ),
    (
        "003-two-nodes-learner-standby",
        "003: two nodes and a learner standby",
    ),
    (
        "004-clustering-step-by-step",
        "004: clustering step by step",
    ),
    ("005-snapshot-catch-up", "005: catching up from a snapshot"),
];

/// Where a lesson given as `?lesson=` lives: a bare name is a file in
/// `static/lessons/`; a path must stay on this site (no scheme, no `//`).
pub fn lesson_url(spec: &str) -> Result<(String, String), String> {
    let spec = spec.trim();
    let is_name = !spec.is_empty()
        && spec
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !spec.starts_with('.');
    if is_name {
        let name = spec.strip_suffix(".lesson").unwrap_or(spec);
        return Ok((name.to_string(), format!("static/lessons/{name}.lesson")));
    }
    let local = !spec.contains("://")
        && !spec.starts_with("//")
        && !spec.contains('\\')
        && spec.ends_with(".lesson");
    if !local {
        return Err(format!(
            "lesson: {spec:?} is not a lesson on this site (give a name such as 000-server-addition-deletion, or a path ending in .lesson)"
        ));
    }
    let stem = spec.rsplit('/').next().unwrap_or(spec);
    let name = stem.strip_suffix(".lesson").unwrap_or(stem);
    Ok((name.to_string(), spec.to_string()))
}

/// Fetches and parses a lesson.
pub async fn fetch(spec: String) -> Result<Rc<Lesson>, String> {
    let (name, url) = lesson_url(&spec)?;
    let resp = gloo::net::http::Request::get(&url)
        .send()
        .await
        .map_err(|e| format!("lesson {name}: {e}"))?;
    if !resp.ok() {
        return Err(format!("lesson {name}: {url}: HTTP {}", resp.status()));
    }
    let text = resp
        .text()
        .await
        .map_err(|e| format!("lesson {name}: {e}"))?;
    lessons::parse(&name, &text)
        .map(Rc::new)
        .map_err(|e| e.to_string())
}

/// Opens a lesson by name or path: fetches it, then tells the reducer.
pub fn open(spec: String, on_msg: Callback<Msg>) {
    wasm_bindgen_futures::spawn_local(async move {
        on_msg.emit(Msg::OpenLesson(fetch(spec).await));
    });
}

/// Fetches and opens a lesson at a step (0 is the first).
pub fn open_at(spec: String, step: usize, on_msg: Callback<Msg>) {
    wasm_bindgen_futures::spawn_local(async move {
        on_msg.emit(Msg::OpenLessonAt {
            lesson: fetch(spec).await,
            step,
        });
    });
}

/// Fetches the lesson a share link names and shows it at the link's step,
/// leaving the world the link rebuilt as it is.
pub fn attach(at: crate::link::LessonAt, on_msg: Callback<Msg>) {
    wasm_bindgen_futures::spawn_local(async move {
        on_msg.emit(Msg::AttachLesson {
            lesson: fetch(at.name).await,
            step: at.step,
            done: at.done,
        });
    });
}

/// What the lesson panel shows of the model.
#[derive(Properties, PartialEq)]
pub struct LessonProps {
    pub lesson: Option<Shared<LessonState>>,
    /// Why a lesson could not be opened.
    pub error: Option<String>,
    /// `Model::idle`.
    pub idle: bool,
    /// The step's checks, once its commands have finished ([`checks`]).
    pub checks: Option<Vec<Result<String, String>>>,
    pub on_msg: Callback<Msg>,
}

/// The shown step's checks against the world, once its commands were typed and
/// have finished; `None` before that.
pub fn checks(m: &Model) -> Option<Vec<Result<String, String>>> {
    let state = m.lesson.as_ref()?;
    if !(state.done && m.idle()) {
        return None;
    }
    let step = state.lesson.steps.get(state.step)?;
    Some(
        step.checks
            .iter()
            .map(|c| lessons::evaluate(&m.view, c))
            .collect(),
    )
}

#[function_component(LessonPanel)]
pub fn lesson_panel(props: &LessonProps) -> Html {
    let error = props.error.as_ref().map(|e| {
        html! { <p class="lesson-error" role="alert" data-testid="lesson-error">{ e }</p> }
    });
    let Some(state) = &props.lesson else {
        return html! {
            <div class="lesson-list" data-testid="lesson-list">
                <h2>{ "Lessons" }</h2>
                { for error }
                <ul>
                    { for CATALOGUE.iter().map(|(name, title)| {
                        let on = props.on_msg.clone();
                        let spec = name.to_string();
                        let onclick = Callback::from(move |_: MouseEvent| open(spec.clone(), on.clone()));
                        html! { <li><button class="link-like" data-testid={format!("lesson-open-{name}")} {onclick}>{ *title }</button></li> }
                    }) }
                </ul>
            </div>
        };
    };
    let lesson = &state.lesson;
    let n = lesson.steps.len();
    let Some(step) = lesson.steps.get(state.step) else {
        return html! {};
    };
    let send = |msg: Msg| {
        let on = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| on.emit(msg.clone()))
    };
    let checks = props.checks.as_ref().map(|results| {
        let off = results.iter().any(|r| r.is_err());
        html! {
            <div class={classes!("lesson-checks", if off { "off" } else { "on" })} data-testid="lesson-checks" data-state={if off { "off-path" } else { "on-path" }}>
                if results.is_empty() {
                    <p class="small muted">{ "This step has no checks." }</p>
                }
                <ul>
                    { for results.iter().map(|r| match r {
                        Ok(t) => html! { <li class="ok">{ format!("✔ {t}") }</li> },
                        Err(t) => html! { <li class="lost">{ format!("✖ {t}") }</li> },
                    }) }
                </ul>
                if off {
                    <p class="small">{ "The world is not where the lesson expects." }
                        <button data-testid="lesson-restore" onclick={send(Msg::LessonRestore)}>{ "Put the world back" }</button>
                    </p>
                }
            </div>
        }
    });
    let running = state.done && !props.idle;
    html! {
        <div class="lesson" data-testid="lesson-panel">
            <h2>
                { "Lesson" }
                <button class="link-button" data-testid="lesson-close" onclick={send(Msg::LessonClose)} aria-label="close the lesson">{ "×" }</button>
            </h2>
            { for error }
            <p class="lesson-title" data-testid="lesson-title"><strong>{ &lesson.title }</strong></p>
            <h3 data-testid="lesson-step">{ format!("Step {} of {n}: {}", state.step + 1, bare_title(&step.title)) }</h3>
            <div class="narration">{ narration(&step.narration) }</div>
            if !step.commands.is_empty() {
                <pre class="lesson-commands" aria-label="the step's commands">{ for step.commands.iter().map(|c| format!("{}\n", command_line(&c.command))) }</pre>
            }
            <div class="buttons">
                <button data-testid="lesson-back" onclick={send(Msg::LessonBack)} disabled={state.step == 0 && !state.done}>{ "◀ Back" }</button>
                <button data-testid="lesson-run" class="primary" onclick={send(Msg::LessonRun)} disabled={state.done}>{ "Run" }</button>
                <button data-testid="lesson-next" onclick={send(Msg::LessonNext)} disabled={state.step + 1 >= n}>{ "Next ▶" }</button>
            </div>
            if running {
                <p class="small muted">{ "running… (press play, or “+1 tick”, if the clock is paused and a command waits)" }</p>
            }
            { for checks }
        </div>
    }
}

/// A step title without the number the lesson gave it (`11. Promoting` → `Promoting`),
/// since the player numbers steps itself.
fn bare_title(t: &str) -> &str {
    match t.split_once(". ") {
        Some((n, rest)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => rest,
        _ => t,
    }
}

/// Markdown, a little of it: paragraphs, `- ` items, `code` and **bold**, all as text.
fn narration(text: &str) -> Html {
    let mut out = Vec::new();
    for para in text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
        let lines: Vec<&str> = para.lines().collect();
        if lines.iter().all(|l| l.trim_start().starts_with("- ")) {
            out.push(html! { <ul>{ for lines.iter().map(|l| html! { <li>{ inline(l.trim_start().trim_start_matches("- ")) }</li> }) }</ul> });
        } else {
            out.push(html! { <p>{ inline(&lines.join(" ")) }</p> });
        }
    }
    html! { <>{ for out }</> }
}

/// `code` and **bold** spans; everything else plain text.
fn inline(text: &str) -> Html {
    let mut parts = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let code = rest.find('`');
        let bold = rest.find("**");
        match (code, bold) {
            (Some(c), b) if b.is_none_or(|b| c < b) => {
                let after = &rest[c + 1..];
                match after.find('`') {
                    Some(end) => {
                        parts.push(html! { { &rest[..c] } });
                        parts.push(html! { <code>{ &after[..end] }</code> });
                        rest = &after[end + 1..];
                    }
                    None => {
                        parts.push(html! { { rest } });
                        rest = "";
                    }
                }
            }
            (_, Some(b)) => {
                let after = &rest[b + 2..];
                match after.find("**") {
                    Some(end) => {
                        parts.push(html! { { &rest[..b] } });
                        parts.push(html! { <strong>{ &after[..end] }</strong> });
                        rest = &after[end + 2..];
                    }
                    None => {
                        parts.push(html! { { rest } });
                        rest = "";
                    }
                }
            }
            _ => {
                parts.push(html! { { rest } });
                rest = "";
            }
        }
    }
    html! { <>{ for parts }</> }
}
