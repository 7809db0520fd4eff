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

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::state::{Pending, Shared, TermKind, TermLine};
use crate::shell::{actions, complete};
use crate::sim::etcd::version::EtcdVersion;
use crate::sim::view::{visible_string, visible_text, WorldView};

/// What the terminal shows of the model, and what its keys need: the
/// history for up/down and the words Tab completes. Each changes only when
/// a command ran or the world's machines or members changed, so the
/// terminal does not re-render on the clock's frames; its handlers read
/// these props, never a model captured elsewhere.
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
    /// The lines run so far, oldest first (up/down).
    pub history: Shared<Vec<String>>,
    /// What Tab completes with.
    pub words: Words,
    pub on_run: Callback<String>,
    /// The line being typed (none: it was run), for the quorum panel's
    /// forecast: the reducer works out the change it would make.
    pub on_typed: Callback<Option<String>>,
}

/// The world's words Tab completes: machine names, member IDs and names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Words {
    machines: Vec<String>,
    member_ids: Vec<u64>,
    member_names: Vec<String>,
    /// Machines on etcd 3.4.23, which has no `etcdutl`.
    without_etcdutl: Vec<String>,
    /// The terminal's machine.
    here: String,
}

impl Words {
    /// The words of the world shown (cheap: a few names per machine), with
    /// the terminal on machine `here`.
    pub fn of(view: &WorldView, here: &str) -> Words {
        let old = view.machines.iter().filter(|m| m.etcd == EtcdVersion::V3_4);
        let members = actions::members(view)
            .map(|p| p.members.as_slice())
            .unwrap_or_default();
        Words {
            machines: view.machines.iter().map(|m| m.name.clone()).collect(),
            member_ids: members.iter().map(|m| m.id).collect(),
            member_names: members
                .iter()
                .map(|m| m.name.clone())
                .filter(|n| !n.is_empty())
                .collect(),
            without_etcdutl: old.map(|m| m.name.clone()).collect(),
            here: here.to_string(),
        }
    }

    fn context(&self) -> complete::Context<'_> {
        complete::Context {
            machines: &self.machines,
            member_ids: &self.member_ids,
            member_names: &self.member_names,
            without_etcdutl: &self.without_etcdutl,
            here: &self.here,
        }
    }
}

/// Completes the input's text in place; returns the candidates to show when
/// there are several.
fn tab(el: &HtmlInputElement, words: &Words) -> Vec<String> {
    let line = el.value();
    let c = complete::complete(&line, &words.context());
    if let Some(head) = line.get(..c.start) {
        el.set_value(&format!("{head}{}", c.common));
    }
    if c.candidates.len() > 1 {
        c.candidates
    } else {
        Vec::new()
    }
}

/// After Escape, Tab moves focus on instead of completing, until a key is
/// typed: read by the key handler at once (a cell), shown in the hint (a state).
#[derive(Clone)]
struct Release {
    now: Rc<RefCell<bool>>,
    shown: UseStateHandle<bool>,
}

impl Release {
    fn set(&self, free: bool) {
        *self.now.borrow_mut() = free;
        self.shown.set(free);
    }

    /// Notes a key pressed; returns whether Tab was released before it.
    fn key(&self, key: &str) -> bool {
        let was = *self.now.borrow();
        if let Some(free) = releases_tab(key, was) {
            self.set(free);
        }
        was
    }
}

/// The input's state between keys: the history entry shown, if any, and
/// the completions offered.
#[derive(Clone)]
struct Field {
    input: NodeRef,
    cursor: UseStateHandle<Option<usize>>,
    choices: UseStateHandle<Vec<String>>,
}

impl Field {
    /// Enter: the line runs, the field empties.
    fn enter(
        &self,
        el: &HtmlInputElement,
        on_run: &Callback<String>,
        on_typed: &Callback<Option<String>>,
    ) {
        on_run.emit(el.value());
        on_typed.emit(None);
        el.set_value("");
        self.cursor.set(None);
        self.choices.set(Vec::new());
    }

    /// Up or down through the history.
    fn recall(&self, el: &HtmlInputElement, key: &str, history: &[String]) {
        let last = history.len() - 1;
        let next = match (key, *self.cursor) {
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
        self.cursor.set(next);
    }
}

/// The input's keys: Enter, Tab, Escape and the history.
fn on_keydown(field: &Field, release: &Release, props: &TerminalProps) -> Callback<KeyboardEvent> {
    let (field, release) = (field.clone(), release.clone());
    let (history, words) = (props.history.clone(), props.words.clone());
    let (on_run, on_typed) = (props.on_run.clone(), props.on_typed.clone());
    Callback::from(move |e: KeyboardEvent| {
        let Some(el) = field.input.cast::<HtmlInputElement>() else {
            return;
        };
        let key = e.key();
        let was = release.key(&key);
        // Shift+Tab, and Tab after Escape, move focus as everywhere else.
        if key == "Tab" && (e.shift_key() || was) {
            return;
        }
        match key.as_str() {
            "Escape" => field.choices.set(Vec::new()),
            "Enter" => field.enter(&el, &on_run, &on_typed),
            "Tab" => {
                e.prevent_default();
                field.choices.set(tab(&el, &words));
            }
            "ArrowUp" | "ArrowDown" if !history.is_empty() => {
                e.prevent_default();
                field.recall(&el, &key, &history);
            }
            _ => {}
        }
    })
}

/// Typing: Tab completes again, and the forecast follows the line.
fn on_input(release: &Release, on_typed: &Callback<Option<String>>) -> Callback<InputEvent> {
    let (release, on_typed) = (release.clone(), on_typed.clone());
    Callback::from(move |e: InputEvent| {
        // Typing (or pasting) takes Tab back for completion.
        if *release.now.borrow() {
            release.set(false);
        }
        if let Some(el) = e.target_dyn_into::<HtmlInputElement>() {
            on_typed.emit(Some(el.value()));
        }
    })
}

/// Pasting several lines runs them one by one, as a terminal does.
fn on_paste(input: &NodeRef, on_run: &Callback<String>) -> Callback<Event> {
    let (input, on_run) = (input.clone(), on_run.clone());
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
}

/// Copy: the terminal's lines (the props of this render, which are the
/// page's: the terminal re-renders whenever its lines change) to the
/// clipboard, in the click's own handler as the browser asks.
fn on_copy(lines: &Shared<Vec<TermLine>>, copied: &UseStateHandle<String>) -> Callback<MouseEvent> {
    let (lines, copied) = (lines.clone(), copied.clone());
    Callback::from(move |_: MouseEvent| {
        let Some(w) = web_sys::window() else {
            return;
        };
        let text = terminal_text(&lines);
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
                Err(_) => copied
                    .set("the browser refused the clipboard: select the text instead".to_string()),
            }
        });
    })
}

/// The terminal's lines as plain text, one per line.
pub fn terminal_text(lines: &[TermLine]) -> String {
    lines.iter().map(|l| format!("{}\n", l.text)).collect()
}

/// Keeps the output scrolled to its end when a line or the pending command
/// arrives.
#[hook]
fn use_follow_output(output: &NodeRef, len: usize, pending: bool) {
    let output = output.clone();
    use_effect_with((len, pending), move |_| {
        if let Some(el) = output.cast::<web_sys::HtmlElement>() {
            el.set_scroll_top(el.scroll_height());
        }
    });
}

#[function_component(Terminal)]
pub fn terminal(props: &TerminalProps) -> Html {
    let field = Field {
        input: use_node_ref(),
        cursor: use_state(|| None::<usize>),
        choices: use_state(Vec::<String>::new),
    };
    let copied = use_state(String::new);
    let release = Release {
        now: use_mut_ref(|| false),
        shown: use_state(|| false),
    };
    let output = use_node_ref();
    use_follow_output(&output, props.lines.len(), props.pending.is_some());
    let onkeydown = on_keydown(&field, &release, props);
    let oninput = on_input(&release, &props.on_typed);
    let onpaste = on_paste(&field.input, &props.on_run);
    let on_copy = on_copy(&props.lines, &copied);
    let (input, choices, hint_released) = (
        field.input.clone(),
        field.choices.clone(),
        release.shown.clone(),
    );
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
