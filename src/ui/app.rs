//! The components: the app shell, the machine list, the quorum line and the
//! terminal. They read the `Model` and send `Msg`s; nothing else changes state.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::state::{Model, Msg, TermKind};
use crate::sim::view::{LinkView, MachineView, Role, WorldView};

/// The whole page.
#[function_component(App)]
pub fn app() -> Html {
    let model = use_reducer(|| Model::boot(1));
    let on_run = {
        let model = model.clone();
        Callback::from(move |line: String| model.dispatch(Msg::Run(line)))
    };
    {
        // The page's clock: 100 simulated ms every 100 ms while playing.
        let model = model.clone();
        use_effect_with(model.playing, move |playing| {
            let timer = playing.then(|| {
                gloo::timers::callback::Interval::new(100, move || model.dispatch(Msg::Tick(100)))
            });
            move || drop(timer)
        });
    }
    let on_toggle = {
        let model = model.clone();
        Callback::from(move |_| model.dispatch(Msg::TogglePlay))
    };
    html! {
        <main class="app">
            <header class="app-header">
                <h1>{ "Quorum Playground" }</h1>
                <p class="muted">
                    { "Three etcd 3.4 servers on real raft-rs nodes. Try " }
                    <code>{ "etcdctl member list -w table" }</code>{ ", " }
                    <code>{ "node02$ kill etcd" }</code>{ " or " }
                    <code>{ "net isolate node01" }</code>{ "." }
                </p>
            </header>
            <section class="panel" aria-label="Machines">
                <h2>{ "Machines" }</h2>
                <p class="clock">
                    <button data-testid="play-pause" onclick={on_toggle}
                        aria-label={ if model.playing { "pause the clock" } else { "run the clock" } }>
                        { if model.playing { "pause" } else { "play" } }
                    </button>
                    { " " }
                    <span data-testid="clock-time">{ model.clock_text() }</span>
                </p>
                <QuorumLine view={model.view.clone()} />
                <MachineList view={model.view.clone()} />
                <LinkList view={model.view.clone()} on_run={on_run.clone()} />
            </section>
            <Terminal model={(*model).clone()} on_run={on_run} />
        </main>
    }
}

#[derive(Properties, PartialEq)]
struct ViewProps {
    view: WorldView,
}

/// Whether the cluster can commit: a leader of the newest term that is connected
/// to a majority of its voters (itself included), from its own peer activity.
#[function_component(QuorumLine)]
fn quorum_line(props: &ViewProps) -> Html {
    let procs: Vec<_> = props
        .view
        .machines
        .iter()
        .filter_map(|m| m.process.as_ref())
        .collect();
    let newest = procs.iter().map(|p| p.term).max().unwrap_or(0);
    let leader = procs
        .iter()
        .find(|p| p.role == Role::Leader && p.term == newest);
    let text = match leader {
        Some(p) => {
            let voters: Vec<u64> = p
                .members
                .iter()
                .filter(|m| !m.is_learner)
                .map(|m| m.id)
                .collect();
            let reachable = voters
                .iter()
                .filter(|id| **id == p.id || p.active_peers.contains(id))
                .count();
            let needed = voters.len() / 2 + 1;
            if reachable >= needed {
                format!(
                    "quorum ok: {} leads at term {}; {reachable} of {} voters reachable, {needed} needed",
                    p.name,
                    p.term,
                    voters.len()
                )
            } else {
                format!(
                    "quorum lost: {} leads at term {} but reaches {reachable} of {} voters, {needed} needed",
                    p.name,
                    p.term,
                    voters.len()
                )
            }
        }
        None => "quorum lost: no leader".to_string(),
    };
    html! { <p class="quorum" data-testid="quorum-status" role="status">{ text }</p> }
}

#[function_component(MachineList)]
fn machine_list(props: &ViewProps) -> Html {
    html! {
        <table class="machines">
            <thead><tr>
                <th scope="col">{ "machine" }</th><th scope="col">{ "addresses" }</th>
                <th scope="col">{ "etcd" }</th><th scope="col">{ "member" }</th>
                <th scope="col">{ "term" }</th><th scope="col">{ "commit / applied" }</th>
            </tr></thead>
            <tbody>{ for props.view.machines.iter().map(machine_row) }</tbody>
        </table>
    }
}

/// The state the automation contract names: leader|follower|candidate|learner|stopped|exited.
fn machine_state(m: &MachineView) -> (&'static str, String) {
    match (&m.process, &m.last_exit) {
        (Some(p), _) => {
            let s = match p.role {
                Role::PreCandidate => "candidate",
                r => r.name(),
            };
            (s, s.to_string())
        }
        (None, Some(e)) => ("exited", format!("exited ({}): {}", e.status, e.reason)),
        (None, None) if !m.up => ("stopped", "powered off".to_string()),
        (None, None) => ("stopped", "not running".to_string()),
    }
}

fn machine_row(m: &MachineView) -> Html {
    let (state, label) = machine_state(m);
    let (member, term, index) = match &m.process {
        Some(p) => (
            format!("{} {:x}", p.name, p.id),
            p.term.to_string(),
            format!("{} / {}", p.commit, p.applied),
        ),
        None => (String::new(), String::new(), String::new()),
    };
    html! {
        <tr data-testid={format!("machine-{}", m.name)} data-state={state} class={classes!("state", state)}>
            <th scope="row">{ &m.name }</th>
            <td>{ m.addrs.join(", ") }</td>
            <td>{ label }</td>
            <td><code>{ member }</code></td>
            <td>{ term }</td>
            <td>{ index }</td>
        </tr>
    }
}

#[derive(Properties, PartialEq)]
struct LinkProps {
    view: WorldView,
    on_run: Callback<String>,
}

/// `up`, `cut`, or `one-way` (the automation contract's link states).
pub fn link_state(l: &LinkView) -> &'static str {
    match (l.a_to_b, l.b_to_a) {
        (true, true) => "up",
        (false, false) => "cut",
        _ => "one-way",
    }
}

/// The links between machines; each button runs the `net` command it stands
/// for, so the terminal shows people the command.
#[function_component(LinkList)]
fn link_list(props: &LinkProps) -> Html {
    let row = |l: &LinkView| {
        let state = link_state(l);
        let command = if state == "up" {
            format!("net cut {} {}", l.a, l.b)
        } else {
            format!("net heal {} {}", l.a, l.b)
        };
        let label = match (l.a_to_b, l.b_to_a) {
            (true, true) => "up".to_string(),
            (false, false) => "cut both ways".to_string(),
            (false, true) => format!("cut {} → {}", l.a, l.b),
            (true, false) => format!("cut {} → {}", l.b, l.a),
        };
        let on_run = props.on_run.clone();
        let run = command.clone();
        let onclick = Callback::from(move |_: MouseEvent| on_run.emit(run.clone()));
        html! {
            <li data-testid={format!("link-{}-{}", l.a, l.b)} data-state={state} class={classes!("link", state)}>
                <span>{ format!("{} ↔ {}: {label}", l.a, l.b) }</span>
                { " " }
                <button {onclick} title={command.clone()}>
                    { if state == "up" { "cut" } else { "heal" } }
                </button>
            </li>
        }
    };
    html! {
        <ul class="links" aria-label="Links between machines">
            { for props.view.links.iter().map(row) }
        </ul>
    }
}

#[derive(Properties, PartialEq)]
struct TerminalProps {
    model: Model,
    on_run: Callback<String>,
}

/// The terminal: output, a prompt, history with up/down.
#[function_component(Terminal)]
fn terminal(props: &TerminalProps) -> Html {
    let input = use_node_ref();
    let cursor = use_state(|| None::<usize>);
    let output = use_node_ref();
    {
        let output = output.clone();
        let len = props.model.lines.len();
        use_effect_with(len, move |_| {
            if let Some(el) = output.cast::<web_sys::HtmlElement>() {
                el.set_scroll_top(el.scroll_height());
            }
        });
    }
    let onkeydown = {
        let input = input.clone();
        let cursor = cursor.clone();
        let history = props.model.history.clone();
        let on_run = props.on_run.clone();
        Callback::from(move |e: KeyboardEvent| {
            let Some(el) = input.cast::<HtmlInputElement>() else {
                return;
            };
            match e.key().as_str() {
                "Enter" => {
                    on_run.emit(el.value());
                    el.set_value("");
                    cursor.set(None);
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
    let line = |l: &super::state::TermLine| {
        let class = match l.kind {
            TermKind::Echo => "echo",
            TermKind::Stdout => "out",
            TermKind::Stderr => "err",
        };
        html! { <div class={class}>{ &l.text }</div> }
    };
    html! {
        <section class="panel terminal" aria-label="Terminal">
            <h2>{ "Terminal" }</h2>
            <div class="term-output" data-testid="terminal-output" ref={output} role="log" aria-live="polite">
                { for props.model.lines.iter().map(line) }
            </div>
            <label class="term-input">
                <span class="prompt">{ &props.model.prompt }</span>
                <input ref={input} data-testid="terminal-input" type="text" spellcheck="false"
                    autocomplete="off" aria-label="command" {onkeydown} />
            </label>
        </section>
    }
}
