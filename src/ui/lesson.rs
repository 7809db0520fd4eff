//! The lesson player: the lesson list, and for an open lesson the current
//! step's narration and commands, Run (types them into the terminal), Back
//! (replays to the end of the previous step), Next, and the step's checks once
//! its commands have finished, with a way to put the world back when it went off
//! the lesson's path. Lessons are fetched from `static/lessons/NAME.lesson` (or
//! a URL on the same site) and parsed by `crate::lessons`; text from a lesson is
//! only ever shown as text.
//!
//! "The same site" is decided on the URL the browser's own parser makes of
//! `?lesson=` against the page ([`resolve_against`]): its origin must be the
//! page's (so no `data:`, `blob:`, `javascript:`, protocol-relative or other
//! host), and the request is `same-origin`. The pure halves, [`lesson_url`]
//! and [`same_site`], say why anything else is refused ([`Refusal`]).

use std::rc::Rc;

use yew::prelude::*;

use super::state::{command_line, EtcdVersion, LessonState, Model, Msg, Shared};
use crate::lessons::{self, Lesson, LessonCommand, Question};
use crate::sim::glossary::Word;
use crate::sim::view::clipped;

/// The lessons shipped in `static/lessons/`: file stem and title.
pub const CATALOGUE: [(&str, &str); 7] = [
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
    ("006-rolling-upgrade", "006: a rolling upgrade to etcd 3.5"),
];

/// Why a `?lesson=` is not opened: a closed list, each said in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Nothing was given.
    Empty,
    /// A control character (tab, line feed, carriage return, …) or a
    /// backslash: the browser's URL parser drops the first and reads the
    /// second as `/`, so what the text seems to say is not where it leads.
    Hidden,
    /// The browser cannot read it as a URL relative to the page.
    NotUrl,
    /// A scheme other than the page's web ones (`data:`, `blob:`,
    /// `javascript:`, …), without its colon.
    Scheme(String),
    /// Another site, by its origin (`null` for an opaque one).
    OtherSite(String),
    /// The page itself is not on an `http:` or `https:` site.
    PageNotWeb,
    /// Not a `.lesson` file.
    NotLesson,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Empty => write!(f, "nothing was given"),
            Refusal::Hidden => write!(
                f,
                "it holds a tab, a line break, another control character or a backslash"
            ),
            Refusal::NotUrl => write!(f, "it is not a URL"),
            Refusal::Scheme(s) => write!(f, "{:?} URLs are not lessons", format!("{s}:")),
            Refusal::OtherSite(o) => write!(f, "it is on another site ({o:?})"),
            Refusal::PageNotWeb => write!(f, "this page is not served from a web site"),
            Refusal::NotLesson => write!(f, "it does not end in .lesson"),
        }
    }
}

/// A `?lesson=` refused, with the text as given (shortened) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonRefused {
    pub spec: String,
    pub why: Refusal,
}

impl std::fmt::Display for LessonRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.why {
            // What such a URL holds is not repeated: it is no place on this site.
            Refusal::Scheme(_) => write!(f, "lesson: {} on this site", self.why)?,
            why => write!(
                f,
                "lesson: {:?} is not a lesson on this site: {why}",
                self.spec
            )?,
        }
        write!(
            f,
            ". Give a name such as 000-server-addition-deletion, or a path on this site ending in .lesson."
        )
    }
}

/// The longest part of a refused spec a message repeats.
const SHOWN_CHARS: usize = 80;

fn refuse(spec: &str, why: Refusal) -> LessonRefused {
    LessonRefused {
        spec: clipped(spec, SHOWN_CHARS),
        why,
    }
}

/// Whether a spec is a bare lesson name (`000-server-addition-deletion`,
/// with or without `.lesson`).
fn is_name(spec: &str) -> bool {
    !spec.is_empty()
        && !spec.starts_with('.')
        && spec
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The first, pure half of reading `?lesson=`: a bare name is a file in
/// `static/lessons/`; anything else is a URL to resolve against the page
/// (then [`same_site`] judges where it leads). Returns the lesson's name and
/// that URL, relative to the page. Text the browser's URL parser would
/// silently change (control characters, backslashes) is refused here.
pub fn lesson_url(spec: &str) -> Result<(String, String), LessonRefused> {
    let spec = spec.trim_matches(' ');
    if spec.is_empty() {
        return Err(refuse(spec, Refusal::Empty));
    }
    if is_name(spec) {
        let name = spec.strip_suffix(".lesson").unwrap_or(spec);
        return Ok((name.to_string(), format!("static/lessons/{name}.lesson")));
    }
    if spec.chars().any(|c| c.is_control() || c == '\\') {
        return Err(refuse(spec, Refusal::Hidden));
    }
    let path = spec.split(['?', '#']).next().unwrap_or(spec);
    let stem = path.rsplit('/').next().unwrap_or(path);
    let name = stem.strip_suffix(".lesson").unwrap_or(stem);
    Ok((name.to_string(), spec.to_string()))
}

/// The parts of a URL the browser's parser gave, as `URL` names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed<'a> {
    /// With its colon: `https:`.
    pub protocol: &'a str,
    /// `https://example.org`, or `null` for an opaque origin.
    pub origin: &'a str,
    pub pathname: &'a str,
}

/// The second, pure half: whether a lesson URL, as the browser resolved it
/// against the page, is a `.lesson` file on the page's own site (`page`: the
/// page's URL, parsed the same way).
pub fn same_site(url: &Parsed, page: &Parsed) -> Result<(), Refusal> {
    let web = |p: &str| matches!(p, "http:" | "https:");
    if !web(page.protocol) || page.origin == "null" {
        return Err(Refusal::PageNotWeb);
    }
    if !web(url.protocol) {
        return Err(Refusal::Scheme(
            url.protocol.trim_end_matches(':').to_string(),
        ));
    }
    if url.origin != page.origin {
        return Err(Refusal::OtherSite(url.origin.to_string()));
    }
    if !url.pathname.ends_with(".lesson") {
        return Err(Refusal::NotLesson);
    }
    Ok(())
}

/// Where a lesson spec leads from the page at `page_href`, by the browser's
/// own URL parser: the lesson's name and the absolute URL to fetch, or why it
/// is refused.
pub fn resolve_against(spec: &str, page_href: &str) -> Result<(String, String), LessonRefused> {
    let (name, relative) = lesson_url(spec)?;
    let Ok(page) = web_sys::Url::new(page_href) else {
        return Err(refuse(spec, Refusal::PageNotWeb));
    };
    let url = web_sys::Url::new_with_base(&relative, &page.href())
        .map_err(|_| refuse(spec, Refusal::NotUrl))?;
    let (p, po, pp) = (page.protocol(), page.origin(), page.pathname());
    let (u, uo, up) = (url.protocol(), url.origin(), url.pathname());
    let page = Parsed {
        protocol: &p,
        origin: &po,
        pathname: &pp,
    };
    let parsed = Parsed {
        protocol: &u,
        origin: &uo,
        pathname: &up,
    };
    same_site(&parsed, &page).map_err(|why| refuse(spec, why))?;
    Ok((name, url.href()))
}

/// [`resolve_against`] this page.
fn resolve(spec: &str) -> Result<(String, String), LessonRefused> {
    let href = web_sys::window().and_then(|w| w.location().href().ok());
    let Some(href) = href else {
        return Err(refuse(spec, Refusal::PageNotWeb));
    };
    resolve_against(spec, &href)
}

/// Fetches and parses a lesson from this site only: the URL fetched is the
/// one [`same_site`] accepted, and the request is `same-origin`, so the
/// browser itself refuses another site, even after a redirect.
pub async fn fetch(spec: String) -> Result<Rc<Lesson>, String> {
    let (name, url) = resolve(&spec).map_err(|e| e.to_string())?;
    let resp = gloo::net::http::Request::get(&url)
        .mode(web_sys::RequestMode::SameOrigin)
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
        let lesson = fetch(spec).await;
        on_msg.emit(Msg::OpenLessonAt { lesson, step: 0 });
    });
}

/// What the page should say once `?lesson=`'s lesson was fetched: `said`, the
/// notice the page opened with (opening a lesson starts a new world, which
/// has none), then a `step=` beyond the lesson's last step (`step`: 1 is the
/// first), then why the lesson could not be opened if `error_unseen` (no
/// lesson panel shows it).
pub fn query_notice(
    said: Option<&str>,
    step: usize,
    lesson: &Result<Rc<Lesson>, String>,
    error_unseen: bool,
) -> Option<String> {
    let extra = match lesson {
        Ok(l) => step_beyond(step, l.steps.len()),
        Err(e) => error_unseen.then(|| e.clone()),
    };
    match (said, extra) {
        (Some(s), Some(e)) => Some(format!("{s} {e}")),
        (s, e) => e.or(s.map(str::to_string)),
    }
}

/// A `step=` beyond the lesson's last step: what the page does instead.
pub fn step_beyond(step: usize, steps: usize) -> Option<String> {
    (step > steps && steps > 0).then(|| {
        format!("step: the lesson has {steps} steps, not {step}; it opens at step {steps}.")
    })
}

/// Opens `?lesson=` at `step=` (1 is the first), then says again what the
/// page opened with, and what `step=` or the lesson could not do
/// ([`query_notice`]).
pub fn open_from_query(
    spec: String,
    step: usize,
    said: Option<String>,
    error_unseen: bool,
    on_msg: Callback<Msg>,
) {
    wasm_bindgen_futures::spawn_local(async move {
        let lesson = fetch(spec).await;
        let notice = query_notice(said.as_deref(), step, &lesson, error_unseen);
        let at = match &lesson {
            Ok(l) => step.clamp(1, l.steps.len().max(1)) - 1,
            Err(_) => 0,
        };
        on_msg.emit(Msg::OpenLessonAt { lesson, step: at });
        if let Some(text) = notice {
            on_msg.emit(Msg::Notice(text));
        }
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
    /// The etcd the lesson's world runs on (`Model::etcd`): its header's,
    /// or the other one the learner chose.
    pub etcd: EtcdVersion,
    /// The releases installed on the world's machines now, oldest first
    /// ([`installed`]): a step may add machines on another release.
    pub installed: Vec<EtcdVersion>,
    pub on_msg: Callback<Msg>,
}

/// The releases installed on the machines of `view`, oldest first, each once.
pub fn installed(view: &crate::sim::view::WorldView) -> Vec<EtcdVersion> {
    let all: std::collections::BTreeSet<EtcdVersion> =
        view.machines.iter().map(|m| m.etcd).collect();
    all.into_iter().collect()
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

/// Run, then the step finished: focus moves from Run to Next.
#[hook]
fn use_focus_next(finished: Option<(usize, bool)>, run_ref: &NodeRef, next_ref: &NodeRef) {
    let (run_ref, next_ref) = (run_ref.clone(), next_ref.clone());
    use_effect_with(finished, move |f| {
        if let Some((_, true)) = f {
            let active = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element());
            let on_run = active
                .zip(run_ref.get())
                .is_some_and(|(a, r)| web_sys::Node::from(a) == r);
            if on_run {
                if let Some(n) = next_ref.cast::<web_sys::HtmlElement>() {
                    let _ = n.focus();
                }
            }
        }
    });
}

/// The catalogue, when no lesson is open (with why one could not be).
fn lesson_list(error: Option<Html>, on_msg: &Callback<Msg>) -> Html {
    html! {
        <div class="lesson-list" data-testid="lesson-list">
            <h2>{ "Lessons" }</h2>
            { for error }
            <ul>
                { for CATALOGUE.iter().map(|(name, title)| {
                    let on = on_msg.clone();
                    let spec = name.to_string();
                    let onclick = Callback::from(move |_: MouseEvent| open(spec.clone(), on.clone()));
                    html! { <li><button class="link-like" data-testid={format!("lesson-open-{name}")} {onclick}>{ *title }</button></li> }
                }) }
            </ul>
        </div>
    }
}

#[function_component(LessonPanel)]
pub fn lesson_panel(props: &LessonProps) -> Html {
    let run_ref = use_node_ref();
    let next_ref = use_node_ref();
    let finished = props
        .lesson
        .as_ref()
        .map(|s| (s.step, s.done && props.idle));
    use_focus_next(finished, &run_ref, &next_ref);
    let error = props.error.as_ref().map(|e| {
        html! { <p class="lesson-error" role="alert" data-testid="lesson-error">{ e }</p> }
    });
    let Some(state) = &props.lesson else {
        return lesson_list(error, &props.on_msg);
    };
    let lesson = &state.lesson;
    let n = lesson.steps.len();
    let Some(step) = lesson.steps.get(state.step) else {
        return html! {};
    };
    let send = |msg: Msg| props.on_msg.reform(move |_: MouseEvent| msg.clone());
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
    let answered = props.checks.is_some();
    let question = step
        .question
        .as_ref()
        .map(|q| question_view(q, state.picked, answered, &props.on_msg));
    let learner = step
        .learner_command()
        .map(|k| learner_view(&step.commands[k], state, &send));
    let running = (state.done || state.awaiting) && !props.idle;
    let can_run = !state.done && !state.awaiting;
    let can_next = state.step + 1 < n && props.idle && !state.awaiting;
    let can_back = state.step > 0 || state.done;
    let guard = |ok: bool, msg: Msg| {
        let on = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| {
            if ok {
                on.emit(msg.clone())
            }
        })
    };
    let phase = if state.awaiting {
        "your-turn"
    } else if running {
        "running"
    } else if state.done {
        "done"
    } else {
        "ready"
    };
    html! {
        <div class="lesson" data-testid="lesson-panel" data-phase={phase}>
            <div class="lesson-body">
                <h2>{ "Lesson" }</h2>
                { for error }
                <p class="lesson-title" data-testid="lesson-title"><strong>{ &lesson.title }</strong></p>
                { lesson_etcd(lesson.etcd, props.etcd, &props.on_msg) }
                { machines_etcd(props.etcd, &props.installed) }
                <h3 data-testid="lesson-step">{ format!("Step {} of {n}: {}", state.step + 1, bare_title(&step.title)) }</h3>
                <div class="narration" data-testid="lesson-narration">{ narration(&step.narration) }</div>
                { for question }
                { for learner }
                if !step.why.is_empty() {
                    <details class="lesson-why" data-testid="lesson-why">
                        <summary>{ "Why? More detail" }</summary>
                        <div class="narration">{ narration(&step.why) }</div>
                    </details>
                }
                if !step.commands.is_empty() {
                    <pre class="lesson-commands" tabindex="0" aria-label="the step's commands">{ for step.commands.iter().map(|c| {
                        let line = command_line(&c.command);
                        if c.learner {
                            html! { <span class="you">{ format!("{line}   ← you\n") }</span> }
                        } else {
                            html! { { format!("{line}\n") } }
                        }
                    }) }</pre>
                }
                if running {
                    <p class="small muted" data-testid="lesson-running">{ format!("playing at {}x… the next step waits until it finished", step.speed()) }</p>
                }
                { for checks }
            </div>
            <div class="lesson-controls" role="group" aria-label="lesson steps">
                <button data-testid="lesson-back" onclick={guard(can_back, Msg::LessonBack)} aria-disabled={(!can_back).to_string()}>{ "◀ Back" }</button>
                <button data-testid="lesson-run" class="primary" ref={run_ref} onclick={guard(can_run, Msg::LessonRun)} aria-disabled={(!can_run).to_string()}>{ "Run" }</button>
                <button data-testid="lesson-next" ref={next_ref} onclick={guard(can_next, Msg::LessonNext)} aria-disabled={(!can_next).to_string()}>{ "Next ▶" }</button>
            </div>
            <button class="link-button lesson-close" data-testid="lesson-close" onclick={send(Msg::LessonClose)} aria-label="close the lesson">{ "×" }</button>
        </div>
    }
}

/// The step's question: its choices to pick before the step runs, and once it
/// ran, which was right and why.
fn question_view(
    q: &Question,
    picked: Option<usize>,
    answered: bool,
    on_msg: &Callback<Msg>,
) -> Html {
    let right = q.right();
    let verdict = match (answered, picked) {
        (false, _) => "open",
        (true, None) => "unanswered",
        (true, Some(p)) if p == right => "right",
        (true, Some(_)) => "wrong",
    };
    html! {
        <fieldset class="lesson-question" data-testid="lesson-question" data-verdict={verdict}>
            <legend>{ "Predict: " }{ inline(&q.text) }</legend>
            <div class="choices">
                { for q.choices.iter().enumerate().map(|(i, c)| {
                    let onclick = on_msg.reform(move |_: MouseEvent| Msg::LessonAnswer(i));
                    let mark = match (answered, c.right, picked == Some(i)) {
                        (true, true, _) => "✔ ",
                        (true, false, true) => "✖ ",
                        _ => "",
                    };
                    let class = classes!(
                        "choice",
                        (picked == Some(i)).then_some("picked"),
                        (answered && c.right).then_some("right"),
                    );
                    html! {
                        <button type="button" {class} data-testid={format!("lesson-choice-{i}")}
                            aria-pressed={(picked == Some(i)).to_string()} disabled={answered} {onclick}>
                            { mark }{ inline(&c.text) }
                        </button>
                    }
                }) }
            </div>
            if answered {
                <div class="answer" data-testid="lesson-answer" role="status">
                    <p><strong>{ match verdict {
                        "right" => "Right. ",
                        "wrong" => "Not this time. ",
                        _ => "The answer: ",
                    } }</strong>{ inline(&q.choices[right].text) }{ ": " }{ inline(&q.choices[right].reason) }</p>
                    if let Some(p) = picked.filter(|p| *p != right) {
                        <p class="small">{ "You picked “" }{ inline(&q.choices[p].text) }{ "”: " }{ inline(&q.choices[p].reason) }</p>
                    }
                </div>
            } else if picked.is_none() {
                <p class="small muted">{ "Pick one, then Run and see." }</p>
            }
        </fieldset>
    }
}

/// The learner's command: what to do, and whether it was done.
fn learner_view(
    c: &LessonCommand,
    state: &LessonState,
    send: &dyn Fn(Msg) -> Callback<MouseEvent>,
) -> Html {
    let line = command_line(&c.command);
    let (status, text) = match (state.awaiting, state.performed) {
        (true, _) => ("waiting", "Your turn: run this in the terminal, or use the page's button or map link that does it."),
        (false, Some(true)) => ("performed", "✔ You did it; the lesson went on."),
        (false, Some(false)) => ("done-for-you", "Done for you. Next time, try it yourself."),
        (false, None) if state.done => ("done-for-you", "Done."),
        (false, None) => ("todo", "In this step you run a command yourself. Press Run first."),
    };
    html! {
        <div class={classes!("lesson-do", status)} data-testid="lesson-do" data-state={status}>
            <p class="small">{ text }</p>
            <code class="do-line">{ line }</code>
            if state.awaiting {
                <button type="button" class="do-it" data-testid="lesson-do-it" onclick={send(Msg::LessonDoIt)}>{ "Do it for me" }</button>
            }
        </div>
    }
}

/// Which etcd the lesson was written for and which it runs on, and a button
/// that plays it on the other one (outputs and checks are the header's
/// etcd's: on the other, the learner sees where the two differ).
fn lesson_etcd(written: EtcdVersion, playing: EtcdVersion, on_msg: &Callback<Msg>) -> Html {
    let other = match playing {
        EtcdVersion::V3_4 => EtcdVersion::V3_5,
        EtcdVersion::V3_5 => EtcdVersion::V3_4,
    };
    let onclick = on_msg.reform(move |_: MouseEvent| Msg::LessonEtcd(other));
    let badge = |v: EtcdVersion, id: &str, title: &str| {
        html! {
            <span class={classes!("etcd-badge", super::map::version_class(v))} data-testid={id.to_string()} title={title.to_string()}>
                { format!("etcd {}", v.release()) }
            </span>
        }
    };
    html! {
        <p class="lesson-etcd small" data-testid="lesson-etcd-line">
            if written == playing {
                { "Runs on " }{ badge(written, "lesson-etcd", "the etcd this lesson was written for: its outputs and checks are this etcd's") }
            } else {
                { "Written for " }{ badge(written, "lesson-etcd", "the etcd this lesson was written for: its outputs and checks are this etcd's") }
                { ", playing on " }{ badge(playing, "lesson-etcd-playing", "the etcd the lesson's machines run now: outputs and checks may differ from the lesson's") }
                { " (outputs may differ)." }
            }
            { " " }
            <button class="link-like" data-testid="lesson-etcd-switch" {onclick}
                title={format!("replay the lesson to this step with every machine on etcd {}", other.release())}>
                if written == playing { { format!("Try on etcd {}", other.release()) } } else { { format!("Back to etcd {}", other.release()) } }
            </button>
        </p>
    }
}

/// A line under [`lesson_etcd`] when the machines run another release than
/// the lesson plays on (a step that adds its machines with
/// `--etcd-version`): which one, as the map's tabs say it. Nothing otherwise.
fn machines_etcd(playing: EtcdVersion, installed: &[EtcdVersion]) -> Html {
    if installed.is_empty() || installed == [playing] {
        return html! {};
    }
    let badges = installed.iter().map(|v| {
        html! {
            <span class={classes!("etcd-badge", super::map::version_class(*v))}>
                { format!("etcd {}", v.release()) }
            </span>
        }
    });
    let what = match installed.len() {
        1 => "This step's machines run ",
        _ => "This step's machines run a mix: ",
    };
    html! {
        <p class="lesson-etcd small" data-testid="lesson-machines-etcd">
            { what }{ for badges }{ "." }
        </p>
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

/// `code` and **bold** spans; everything else plain text (an unclosed
/// mark, and all after it, too).
fn inline(text: &str) -> Html {
    let mut parts = Vec::new();
    let mut rest = text;
    loop {
        let marks = [
            rest.find('`').map(|i| (i, "`")),
            rest.find("**").map(|i| (i, "**")),
        ];
        let Some((at, mark)) = marks.into_iter().flatten().min() else {
            break;
        };
        let after = &rest[at + mark.len()..];
        let Some(end) = after.find(mark) else {
            break;
        };
        parts.push(html! { { &rest[..at] } });
        let span = &after[..end];
        if mark == "`" {
            parts.push(html! { <code>{ span }</code> });
        } else {
            let word = Word::in_label(span).filter(|w| {
                span.trim().eq_ignore_ascii_case(w.name())
                    || span.trim().to_lowercase().strip_suffix('s') == Some(w.name())
            });
            parts.push(html! { <strong>{ span }</strong> });
            if let Some(w) = word {
                parts.push(html! { <super::quorum::Gloss word={w} /> });
            }
        }
        rest = &after[end + mark.len()..];
    }
    if !rest.is_empty() {
        parts.push(html! { { rest } });
    }
    html! { <>{ for parts }</> }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    const PAGE: &str = "https://learn.example/sub/path/?lesson=x";

    fn why(spec: &str) -> Refusal {
        match resolve_against(spec, PAGE) {
            Ok(ok) => panic!("{spec:?} was accepted: {ok:?}"),
            Err(e) => e.why,
        }
    }

    #[wasm_bindgen_test]
    fn names_and_paths_on_this_site_open() {
        let ok = |spec: &str| resolve_against(spec, PAGE).map_err(|e| e.to_string());
        let sub = "https://learn.example/sub/path/static/lessons";
        assert_eq!(
            ok("000-server-addition-deletion"),
            Ok((
                "000-server-addition-deletion".into(),
                format!("{sub}/000-server-addition-deletion.lesson")
            ))
        );
        assert_eq!(
            ok("001-learner-design.lesson").map(|r| r.0),
            Ok("001-learner-design".into())
        );
        assert_eq!(
            ok("static/lessons/002-runtime-reconfiguration.lesson"),
            Ok((
                "002-runtime-reconfiguration".into(),
                format!("{sub}/002-runtime-reconfiguration.lesson")
            ))
        );
        for same in [
            "/other/place/x.lesson",
            "./x.lesson",
            "../x.lesson",
            "x.lesson?v=2",
            "x.lesson#top",
            "HTTPS://LEARN.EXAMPLE/x.lesson",
            "https://learn.example:443/x.lesson",
            // Same scheme, no slashes: a path relative to the page.
            "https:x.lesson",
            "https:other.host/x.lesson",
        ] {
            let (_, url) = ok(same).unwrap_or_else(|e| panic!("{same:?}: {e}"));
            assert!(
                url.starts_with("https://learn.example/"),
                "{same:?} -> {url}"
            );
        }
    }

    #[wasm_bindgen_test]
    fn anything_else_is_refused_with_its_reason() {
        let other = |o: &str| Refusal::OtherSite(o.to_string());
        let cases = [
            ("", Refusal::Empty),
            ("/\t/other.host/x.lesson", Refusal::Hidden),
            ("/\n/other.host/x.lesson", Refusal::Hidden),
            ("/\r/other.host/x.lesson", Refusal::Hidden),
            ("\t//other.host/x.lesson", Refusal::Hidden),
            ("http:/\t/other.host/x.lesson", Refusal::Hidden),
            ("ht\ttps://other.host/x.lesson", Refusal::Hidden),
            ("/\\other.host/x.lesson", Refusal::Hidden),
            ("//other.host/x.lesson", other("https://other.host")),
            ("///other.host/x.lesson", other("https://other.host")),
            ("http:other.host/x.lesson", other("http://other.host")),
            (
                "http://learn.example/x.lesson",
                other("http://learn.example"),
            ),
            (
                "https://learn.example.evil/x.lesson",
                other("https://learn.example.evil"),
            ),
            (
                "https://learn.example@evil.host/x.lesson",
                other("https://evil.host"),
            ),
            ("https://127.0.0.1:9/x.lesson", other("https://127.0.0.1:9")),
            (
                "data:text/plain,title: x.lesson",
                Refusal::Scheme("data".into()),
            ),
            (
                "blob:https://learn.example/0e5c-x.lesson",
                Refusal::Scheme("blob".into()),
            ),
            (
                "javascript:alert(1)//x.lesson",
                Refusal::Scheme("javascript".into()),
            ),
            (
                "JavaScript:alert(1)//x.lesson",
                Refusal::Scheme("javascript".into()),
            ),
            ("file:///etc/x.lesson", Refusal::Scheme("file".into())),
            ("static/lessons/x.txt", Refusal::NotLesson),
            ("x.lesson/", Refusal::NotLesson),
            ("http://[x/x.lesson", Refusal::NotUrl),
        ];
        for (spec, want) in cases {
            assert_eq!(why(spec), want, "{spec:?}");
        }
        let page = |href: &str| resolve_against("x.lesson", href).map_err(|e| e.why);
        assert_eq!(page("file:///home/x/index.html"), Err(Refusal::PageNotWeb));
        assert_eq!(page("not a url"), Err(Refusal::PageNotWeb));
    }

    #[wasm_bindgen_test]
    fn a_refusal_says_why_as_text() {
        let e = resolve_against("//other.host/x.lesson", PAGE).expect_err("refused");
        let text = e.to_string();
        assert!(text.starts_with("lesson: \"//other.host/x.lesson\" is not a lesson on this site: it is on another site (\"https://other.host\")."), "{text}");
        let long = format!("//h/{}<b>.lesson", "a".repeat(500));
        let text = resolve_against(&long, PAGE)
            .expect_err("refused")
            .to_string();
        assert!(text.len() < 400 && text.contains('…'), "{text}");
        let e = resolve_against("data:,FOREIGN.lesson", PAGE).expect_err("refused");
        let text = e.to_string();
        assert!(
            text.starts_with("lesson: \"data:\" URLs are not lessons on this site."),
            "{text}"
        );
        assert!(
            !text.contains("FOREIGN"),
            "what a data: URL holds is not repeated: {text}"
        );
    }

    #[wasm_bindgen_test]
    fn same_site_judges_the_parsed_parts() {
        let page = Parsed {
            protocol: "http:",
            origin: "http://127.0.0.1:8080",
            pathname: "/",
        };
        let url = |protocol, origin, pathname| Parsed {
            protocol,
            origin,
            pathname,
        };
        assert_eq!(
            same_site(&url("http:", "http://127.0.0.1:8080", "/a/x.lesson"), &page),
            Ok(())
        );
        assert_eq!(
            same_site(&url("http:", "http://127.0.0.1:8081", "/x.lesson"), &page),
            Err(Refusal::OtherSite("http://127.0.0.1:8081".into()))
        );
        assert_eq!(
            same_site(&url("data:", "null", "x.lesson"), &page),
            Err(Refusal::Scheme("data".into()))
        );
        let opaque = url("http:", "null", "/");
        assert_eq!(
            same_site(&url("http:", "null", "/x.lesson"), &opaque),
            Err(Refusal::PageNotWeb)
        );
    }

    #[wasm_bindgen_test]
    fn a_step_beyond_the_lesson_is_said() {
        assert_eq!(step_beyond(3, 5), None);
        assert_eq!(step_beyond(5, 5), None);
        assert_eq!(
            step_beyond(9, 5).as_deref(),
            Some("step: the lesson has 5 steps, not 9; it opens at step 5.")
        );
        let failed: Result<Rc<Lesson>, String> = Err("lesson: nope".into());
        assert_eq!(query_notice(None, 1, &failed, false), None);
        assert_eq!(
            query_notice(Some("a."), 1, &failed, false).as_deref(),
            Some("a.")
        );
        assert_eq!(
            query_notice(Some("a."), 1, &failed, true).as_deref(),
            Some("a. lesson: nope")
        );
        assert_eq!(
            query_notice(None, 1, &failed, true).as_deref(),
            Some("lesson: nope")
        );
    }
}
