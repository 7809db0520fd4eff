//! The actions panel: buttons for the cluster (add a machine, write a key) and for
//! the selected machine (start, stop, crash, power, add as member or learner,
//! promote, remove, make leader, wipe). Each button types the command it stands
//! for (`shell::actions`) and, under the pointer or focus, asks the quorum panel
//! for its forecast. A button's `HOST$ cmd` runs on that machine and leaves the
//! terminal's machine as it was; only "Use NAME's terminal" (which types
//! `ssh NAME`) moves the terminal. Names, addresses and data dirs come from
//! what a person typed: they are shown through `visible_text`.

use yew::prelude::*;

use crate::shell::actions;
use crate::sim::quorum::Change;
use crate::sim::view::{visible_string, visible_text, MachineView, Role, WorldView};

#[derive(Properties, PartialEq)]
pub struct MachineProps {
    /// What the panel shows ([`panel`]).
    pub data: PanelData,
    pub on_run: Callback<String>,
    pub on_forecast: Callback<Option<Change>>,
    pub on_select: Callback<Option<String>>,
}

/// Everything the panel shows, worked out from the view: the panel re-renders
/// only when this changes (a new machine, a member added, a process stopped),
/// not when commit indexes move.
#[derive(Clone, PartialEq)]
pub struct PanelData {
    cluster: Vec<Action>,
    selected: Option<Selected>,
}

/// The selected machine: its name and state, its actions, addresses and disk.
#[derive(Clone, PartialEq)]
struct Selected {
    name: String,
    state: &'static str,
    actions: Vec<Action>,
    facts: String,
}

/// One action: its label, test id, command, and the change it forecasts.
#[derive(Clone, PartialEq)]
struct Action {
    id: &'static str,
    label: &'static str,
    command: String,
    change: Option<Change>,
}

fn button(a: &Action, props: &MachineProps) -> Html {
    let onclick = {
        let on = props.on_run.clone();
        let f = props.on_forecast.clone();
        let c = a.command.clone();
        Callback::from(move |_: MouseEvent| {
            f.emit(None);
            on.emit(c.clone());
        })
    };
    let show = {
        let f = props.on_forecast.clone();
        let ch = a.change.clone();
        move || f.emit(ch.clone())
    };
    let enter = {
        let show = show.clone();
        Callback::from(move |_: MouseEvent| show())
    };
    let focus = Callback::from(move |_: FocusEvent| show());
    let hide = {
        let f = props.on_forecast.clone();
        Callback::from(move |_: MouseEvent| f.emit(None))
    };
    let blur = {
        let f = props.on_forecast.clone();
        Callback::from(move |_: FocusEvent| f.emit(None))
    };
    html! {
        <button key={a.id} data-testid={format!("action-{}", a.id)} title={visible_text(&a.command).into_owned()} {onclick}
            onmouseenter={enter} onmouseleave={hide} onfocus={focus} onblur={blur}>{ a.label }</button>
    }
}

/// An action whose forecast is the change its command would make (read from
/// the typed command, as the terminal's forecast is).
fn action(view: &WorldView, id: &'static str, label: &'static str, command: String) -> Action {
    let change = actions::change_of(view, None, &command);
    Action {
        id,
        label,
        command,
        change,
    }
}

/// A machine's membership actions: add it (as a member or a learner), or
/// promote it, make it the leader, remove it.
fn membership_actions(view: &WorldView, m: &MachineView) -> Vec<Action> {
    let name = &m.name;
    let member = actions::member_of(view, name);
    let info = member.and_then(|id| {
        actions::members(view)?
            .members
            .iter()
            .find(|x| x.id == id)
            .cloned()
    });
    let mut out = Vec::new();
    match &info {
        None => {
            if let Some(command) = actions::member_add(view, name, false) {
                out.push(action(view, "add-member", "Add as member", command));
            }
            if let Some(command) = actions::member_add(view, name, true) {
                out.push(action(view, "add-learner", "Add as learner", command));
            }
        }
        Some(mem) => {
            if mem.is_learner {
                if let Some(command) = actions::promote(view, mem.id) {
                    out.push(action(view, "promote", "Promote", command));
                }
            } else if m.process.as_ref().is_some_and(|p| p.role != Role::Leader) {
                if let Some(command) = actions::move_leader(view, mem.id) {
                    out.push(action(view, "move-leader", "Make leader", command));
                }
            }
            if let Some(command) = actions::member_remove(view, mem.id) {
                out.push(action(view, "remove", "Remove member", command));
            }
        }
    }
    out
}

fn machine_actions(view: &WorldView, m: &MachineView) -> Vec<Action> {
    let name = m.name.clone();
    let running = m.process.is_some();
    let mut out = Vec::new();
    if let Some(command) = actions::start_etcd(view, &name) {
        out.push(action(view, "start", "Start etcd", command));
    }
    if running {
        out.push(action(
            view,
            "stop",
            "Stop etcd",
            actions::stop(&name, false),
        ));
        out.push(action(
            view,
            "crash",
            "Crash (kill -9)",
            actions::stop(&name, true),
        ));
    }
    if m.up {
        out.push(action(
            view,
            "power-off",
            "Power off",
            actions::power(&name, false),
        ));
    } else {
        out.push(action(
            view,
            "power-on",
            "Power on",
            actions::power(&name, true),
        ));
    }
    out.extend(membership_actions(view, m));
    if !running && m.disk.iter().any(|d| *d == format!("{name}.etcd/")) {
        out.push(action(view, "wipe", "Wipe data dir", actions::wipe(&name)));
    }
    out
}

/// The panel's content for `view` with `selected` (a machine's name) chosen.
pub fn panel(view: &WorldView, selected: Option<&str>) -> PanelData {
    let mut cluster = vec![action(
        view,
        "add-machine",
        "Add machine",
        actions::add_machine(view),
    )];
    if let Some(command) = actions::put(view, "foo", "bar") {
        cluster.push(action(view, "put", "Write a key", command));
    }
    let selected = selected
        .and_then(|n| view.machines.iter().find(|m| m.name == n))
        .map(|m| Selected {
            name: m.name.clone(),
            state: super::map::state_word(m),
            actions: machine_actions(view, m),
            facts: visible_string(format!(
                "addresses: {}; disk: {}",
                m.addrs.join(", "),
                if m.disk.is_empty() {
                    "empty".to_string()
                } else {
                    m.disk.join(" ")
                }
            )),
        });
    PanelData { cluster, selected }
}

/// The control that moves the terminal to the selected machine by typing
/// `ssh NAME`, so the run records it (and a link replays it) as typed.
fn terminal_switch(name: &str, props: &MachineProps) -> Html {
    let shown = visible_text(name).into_owned();
    let onclick = {
        let on = props.on_run.clone();
        let f = props.on_forecast.clone();
        let line = format!("ssh {name}");
        Callback::from(move |_: MouseEvent| {
            f.emit(None);
            on.emit(line.clone());
        })
    };
    html! {
        <p class="use-terminal">
            <button data-testid="use-terminal" {onclick}
                title={format!("types ssh {shown}: the terminal's commands then run on {shown}")}>
                { format!("Use {shown}'s terminal") }
            </button>
            <span class="small muted">{ "The buttons above run on this machine; the terminal stays where it is." }</span>
        </p>
    }
}

#[function_component(MachinePanel)]
pub fn machine_panel(props: &MachineProps) -> Html {
    let data = &props.data;
    let close = {
        let on = props.on_select.clone();
        Callback::from(move |_: MouseEvent| on.emit(None))
    };
    html! {
        <div class="actions">
            <h2>{ "Actions" }</h2>
            <div class="buttons">{ for data.cluster.iter().map(|a| button(a, props)) }</div>
            { match &data.selected {
                Some(m) => html! {
                    <div class="selected" data-testid="selected-machine">
                        <h3>
                            { format!("{} ({})", visible_text(&m.name), m.state) }
                            <button class="link-button" onclick={close} aria-label="close the machine's actions">{ "×" }</button>
                        </h3>
                        <div class="buttons">{ for m.actions.iter().map(|a| button(a, props)) }</div>
                        { terminal_switch(&m.name, props) }
                        <p class="small muted">{ m.facts.clone() }</p>
                    </div>
                },
                None => html! { <p class="small muted">{ "Click a machine on the map for its actions." }</p> },
            } }
        </div>
    }
}
