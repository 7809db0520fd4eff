//! The terminal: output (standard error set apart), a prompt that names the
//! current machine, history on up/down, tab completion of commands, flags,
//! machine names and member IDs (`shell::complete`), `\` continuation lines, the
//! pending command and the lines waiting behind it, and a button that copies the
//! whole terminal as text. Long lines wrap; an etcdctl `-w table` (its lines
//! start with `+` or `|`) is one block that keeps its columns and scrolls
//! sideways when it is wider than the terminal. Tab completes in the input
//! until Escape: then Tab moves focus on, until the next key typed.
//! Every line is shown through `visible_text`, so a
//! bidi control in what was typed or printed shows as `<U+202E>` and cannot
//! flip the terminal; the command runs, and Copy copies, exactly what was typed.

use std::collections::VecDeque;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::app::Latest;
use super::state::{Model, Pending, Shared, TermKind, TermLine};
use crate::shell::{actions, complete};
use crate::sim::quorum::Change;
use crate::sim::view::{visible_string, visible_text};

/// What the terminal shows of the model; its handlers read the latest model
/// when they run (history, completion, forecast, Copy).
#[derive(Properties, PartialEq)]
pub struct TerminalProps {
    pub lines: Shared<Vec<TermLine>>,
    pub pending: Option<Shared<Pending>>,
    /// Simulated ms the pending command has run so far.
    pub running_ms: Option<u64>,
    pub queue: Shared<VecDeque<String>>,
    /// A `\` continuation waiting for the rest.
    pub partial: String,
    pub prompt: String,
    pub latest: Latest,
    pub on_run: Callback<String>,
    /// The change the line being typed would make, for the quorum panel's forecast.
    pub on_forecast: Callback<Option<Change>>,
}

/// Completes the input's text in place; returns the candidates to show when
/// there are several.
fn tab(el: &HtmlInputElement, model: &Model) -> Vec<String> {
    let line = el.value();
    let view = &model.view;
    let machines: Vec<String> = view.machines.iter().map(|m| m.name.clone()).collect();
    let members = actions::members(view)
        .map(|p| p.members.clone())
        .unwrap_or_default();
    let member_ids: Vec<u64> = members.iter().map(|m| m.id).collect();
    let member_names: Vec<String> = members
        .iter()
        .map(|m| m.name.clone())
        .filter(|n| !n.is_empty())
        .collect();
    let ctx = complete::Context {
        machines: &machines,
        member_ids: &member_ids,
        member_names: &member_names,
    };
    let c = complete::complete(&line, &ctx);
    if let Some(head) = line.get(..c.start) {
        el.set_value(&format!("{head}{}", c.common));
    }
    if c.candidates.len() > 1 {
        c.candidates
    } else {
        Vec::new()
    }
}

#[function_component(Terminal)]
pub fn terminal(props: &TerminalProps) -> Html {
    let input = use_node_ref();
    let cursor = use_state(|| None::<usize>);
    let choices = use_state(Vec::<String>::new);
    let copied = use_state(String::new);
    // After Escape, Tab moves focus on instead of completing, until a key is
    // typed: read by the key handler at once (a cell), shown in the hint (a state).
    let released = use_mut_ref(|| false);
    let hint_released = use_state(|| false);
    let output = use_node_ref();
    {
        let output = output.clone();
        let len = props.lines.len();
        let pending = props.pending.is_some();
        use_effect_with((len, pending), move |_| {
            if let Some(el) = output.cast::<web_sys::HtmlElement>() {
                el.set_scroll_top(el.scroll_height());
            }
        });
    }
    let onkeydown = {
        let input = input.clone();
        let cursor = cursor.clone();
        let choices = choices.clone();
        let latest = props.latest.clone();
        let on_run = props.on_run.clone();
        let on_forecast = props.on_forecast.clone();
        let released = released.clone();
        let hint_released = hint_released.clone();
        Callback::from(move |e: KeyboardEvent| {
            let Some(el) = input.cast::<HtmlInputElement>() else {
                return;
            };
            let key = e.key();
            let was = *released.borrow();
            if let Some(free) = releases_tab(&key, was) {
                *released.borrow_mut() = free;
                hint_released.set(free);
            }
            // Shift+Tab, and Tab after Escape, move focus as everywhere else.
            if key == "Tab" && (e.shift_key() || was) {
                return;
            }
            let model = latest.get();
            let history = &model.history;
            match key.as_str() {
                "Escape" => choices.set(Vec::new()),
                "Enter" => {
                    on_run.emit(el.value());
                    on_forecast.emit(None);
                    el.set_value("");
                    cursor.set(None);
                    choices.set(Vec::new());
                }
                "Tab" => {
                    e.prevent_default();
                    choices.set(tab(&el, &model));
                }
                "ArrowUp" | "ArrowDown" if !history.is_empty() => {
                    e.prevent_default();
                    let last = history.len() - 1;
                    let next = match (e.key().as_str(), *cursor) {
                        ("ArrowUp", None) => Some(last),
                        ("ArrowUp", Some(i)) => Some(i.saturating_sub(1)),
                        ("ArrowDown", Some(i)) if i < last => Some(i + 1),
                        _ => None,
                    };
                    el.set_value(
                        next.and_then(|i| history.get(i))
                            .map(|s| s.as_str())
                            .unwrap_or(""),
                    );
                    cursor.set(next);
                }
                _ => {}
            }
        })
    };
    let oninput = {
        let latest = props.latest.clone();
        let f = props.on_forecast.clone();
        let released = released.clone();
        let hint_released = hint_released.clone();
        Callback::from(move |e: InputEvent| {
            // Typing (or pasting) takes Tab back for completion.
            if *released.borrow() {
                *released.borrow_mut() = false;
                hint_released.set(false);
            }
            if let Some(el) = e.target_dyn_into::<HtmlInputElement>() {
                let model = latest.get();
                let current = model.prompt.trim_end_matches('$');
                let current = (!current.is_empty()).then_some(current);
                f.emit(actions::change_of(&model.view, current, &el.value()));
            }
        })
    };
    // Pasting several lines runs them one by one, as a terminal does.
    let onpaste = {
        let input = input.clone();
        let on_run = props.on_run.clone();
        Callback::from(move |e: Event| {
            let Some(text) = e
                .dyn_ref::<web_sys::ClipboardEvent>()
                .and_then(|c| c.clipboard_data())
                .and_then(|d| d.get_data("text").ok())
            else {
                return;
            };
            if !text.contains('\n') {
                return;
            }
            e.prevent_default();
            let Some(el) = input.cast::<HtmlInputElement>() else {
                return;
            };
            let mut lines: Vec<String> = text
                .replace("\r\n", "\n")
                .split('\n')
                .map(str::to_string)
                .collect();
            // The last line stays in the field, unless the paste ended with a newline.
            let rest = lines.pop().unwrap_or_default();
            if let Some(first) = lines.first_mut() {
                *first = format!("{}{first}", el.value());
            }
            // One message for the whole paste: the terminal reads its lines
            // one after the other, in time linear in the paste.
            if !lines.is_empty() {
                on_run.emit(lines.join("\n"));
            }
            el.set_value(&rest);
        })
    };
    let on_copy = {
        let latest = props.latest.clone();
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(w) = web_sys::window() else {
                return;
            };
            let text = latest.get().terminal_text();
            // Plain http on a non-local address has no clipboard at all.
            let has = js_sys::Reflect::has(&w.navigator(), &"clipboard".into()).unwrap_or(false);
            if !has {
                copied.set("this page has no clipboard here (it needs https or localhost): select the text instead".to_string());
                return;
            }
            let promise = w.navigator().clipboard().write_text(&text);
            let copied = copied.clone();
            let lines = text.lines().count();
            spawn_local(async move {
                match JsFuture::from(promise).await {
                    Ok(_) => copied.set(format!("copied {lines} lines")),
                    Err(_) => copied.set(
                        "the browser refused the clipboard: select the text instead".to_string(),
                    ),
                }
            });
        })
    };
    let m = props;
    let prompt = if m.partial.is_empty() {
        m.prompt.clone()
    } else {
        ">".to_string()
    };
    html! {
        <section class="panel terminal" aria-label="Terminal">
            <h2>
                { format!("Terminal — {}", visible_text(m.prompt.trim_end_matches('$'))) }
                <button class="small-button" data-testid="copy-terminal" onclick={on_copy} title="copy the whole terminal as text">{ "Copy" }</button>
                <span class="small muted" role="status">{ (*copied).clone() }</span>
            </h2>
            <div class="term-output" data-testid="terminal-output" ref={output} role="log" aria-live="polite" tabindex="0">
                <Lines lines={m.lines.clone()} />
                { for m.running_ms.iter().map(|ms| html! {
                    <div class="pending" data-testid="terminal-pending">
                        { format!("… running (simulated {:.1} s so far)", *ms as f64 / 1000.0) }
                    </div>
                }) }
                { for m.queue.iter().map(|q| html! { <div class="queued">{ format!("(waiting) {}", visible_text(q)) }</div> }) }
                { for continued(&m.partial) }
            </div>
            if !choices.is_empty() {
                <div class="completions small" data-testid="completions">{ visible_string(choices.join("  ")) }</div>
            }
            <label class="term-input">
                <span class="prompt">{ visible_string(prompt) }</span>
                <input ref={input} data-testid="terminal-input" type="text" spellcheck="false"
                    autocomplete="off" autocapitalize="off" aria-label="command" aria-describedby="term-hint"
                    {onkeydown} {oninput} {onpaste} />
            </label>
            <p id="term-hint" class="term-hint small muted" data-testid="terminal-hint">{ hint(*hint_released) }</p>
        </section>
    }
}

/// Whether Tab is released from completion after `key` (None: as it was):
/// Escape releases it, a key typed takes it back; Tab itself and the
/// modifier keys change nothing.
fn releases_tab(key: &str, released: bool) -> Option<bool> {
    match key {
        "Escape" => (!released).then_some(true),
        "Tab" | "Shift" | "Control" | "Alt" | "Meta" | "CapsLock" => None,
        _ => released.then_some(false),
    }
}

/// The line under the input: how to complete, and how to leave.
fn hint(released: bool) -> &'static str {
    if released {
        "Tab now moves to the next control; type a key to complete with Tab again."
    } else {
        "Tab completes; Esc then Tab leaves the terminal. ssh NAME (or NAME$ cmd) changes its machine; wide tables scroll sideways."
    }
}

/// The lines of a command still being continued: the last [`CONTINUED_SHOWN`]
/// of them, after a count of the others (a paste may leave thousands).
fn continued(partial: &str) -> Vec<Html> {
    let lines: Vec<&str> = partial.lines().collect();
    let hidden = lines.len().saturating_sub(CONTINUED_SHOWN);
    let more = (hidden > 0).then(|| {
        html! { <div class="queued">{ format!("(continued: {hidden} earlier lines)") }</div> }
    });
    more.into_iter()
        .chain(lines[hidden..].iter().map(|q| {
            html! { <div class="queued">{ format!("(continued) {}", visible_text(q)) }</div> }
        }))
        .collect()
}

/// How many lines of a continued command the terminal shows.
const CONTINUED_SHOWN: usize = 20;

/// The terminal's lines, compared by pointer: they are re-rendered only when a
/// command printed something, not on every frame of the clock.
#[derive(Properties, PartialEq)]
struct LinesProps {
    lines: Shared<Vec<TermLine>>,
}

#[function_component(Lines)]
fn lines(props: &LinesProps) -> Html {
    html! { <>{ for blocks(&props.lines).into_iter().map(block) }</> }
}

/// A run of the terminal's lines shown together: one line, or an etcdctl
/// table's lines.
enum Block<'a> {
    Line(&'a TermLine),
    Table(&'a [TermLine]),
}

/// Whether `l` is a line of an etcdctl `-w table` box (`+---+` or `| a |`).
fn is_table_line(l: &TermLine) -> bool {
    l.kind == TermKind::Stdout && (l.text.starts_with('+') || l.text.starts_with('|'))
}

/// The lines in blocks: each run of table lines that starts with a `+`
/// border is one table; every other line is its own.
fn blocks(lines: &[TermLine]) -> Vec<Block<'_>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(l) = lines.get(i) {
        let run = lines[i..].iter().take_while(|l| is_table_line(l)).count();
        if run > 1 && l.text.starts_with('+') {
            out.push(Block::Table(&lines[i..i + run]));
            i += run;
        } else {
            out.push(Block::Line(l));
            i += 1;
        }
    }
    out
}

fn block(b: Block<'_>) -> Html {
    match b {
        Block::Line(l) => line(l),
        // One element whose text is the rows joined by newlines, so the
        // terminal's text (one line per child) reads the same as before.
        Block::Table(rows) => {
            let text: Vec<String> = rows
                .iter()
                .map(|l| visible_text(&l.text).into_owned())
                .collect();
            html! {
                <div class="out term-table" data-testid="terminal-table" role="group" tabindex="0"
                    aria-label="etcdctl table (scrolls sideways when wider than the terminal)">
                    { text.join("\n") }
                </div>
            }
        }
    }
}

fn line(l: &TermLine) -> Html {
    let class = match l.kind {
        TermKind::Echo => "echo",
        TermKind::Stdout => "out",
        TermKind::Stderr => "err",
    };
    html! { <div class={class}>{ visible_text(&l.text).into_owned() }</div> }
}
