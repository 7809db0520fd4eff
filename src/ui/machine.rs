//! The actions panel: buttons for the cluster (add a machine, write a key) and for
//! the selected machine (start, stop, crash, power, add as member or learner,
//! promote, remove, make leader, wipe) and its network (slow or lossy links to
//! a peer chosen in a list, a limited NIC, and clearing them: `net delay`,
//! `net loss`, `net rate`, `net clear`). Each button types the command it stands
//! for (`shell::actions`) and, under the pointer or focus, asks the quorum panel
//! for its forecast. A button's `HOST$ cmd` runs on that machine and leaves the
//! terminal's machine as it was; only "Use NAME's terminal" (which types
//! `ssh NAME`) moves the terminal. Names, addresses and data dirs come from
//! what a person typed: they are shown through `visible_text`.

use std::rc::Rc;

use yew::prelude::*;

use crate::shell::actions;
use crate::sim::etcd::version::EtcdVersion;
use crate::sim::quorum::Change;
use crate::sim::view::{visible_string, visible_text, MachineView, Role, WorldView};
use crate::sim::world::NicSpec;

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
    net: NetData,
    /// The etcd installed, and the running server's when it differs.
    etcd: EtcdVersion,
    running: Option<EtcdVersion>,
}

/// What the selected machine's network buttons offer: each other machine
/// (and whether its links with this one are not the defaults), and whether
/// this machine's NIC is limited.
#[derive(Clone, PartialEq)]
pub struct NetData {
    machine: String,
    peers: Vec<(String, bool)>,
    nic_limited: bool,
}

impl NetData {
    fn of(view: &WorldView, name: &str) -> NetData {
        let set = |p: &str| {
            view.net_links
                .iter()
                .any(|l| (l.from == name && l.to == p) || (l.from == p && l.to == name))
        };
        NetData {
            machine: name.to_string(),
            peers: view
                .machines
                .iter()
                .filter(|m| m.name != name)
                .map(|m| (m.name.clone(), set(&m.name)))
                .collect(),
            nic_limited: view
                .nics
                .iter()
                .any(|n| n.machine == name && n.spec != NicSpec::default()),
        }
    }
}

/// One action: its label, test id, command, and the change it forecasts.
#[derive(Clone, PartialEq)]
struct Action {
    id: &'static str,
    label: &'static str,
    command: String,
    change: Option<Change>,
}

fn action_button(
    a: &Action,
    on_run: &Callback<String>,
    on_forecast: &Callback<Option<Change>>,
) -> Html {
    let onclick = typing(a.command.clone(), on_run, on_forecast);
    let p = {
        let (f, g) = (on_forecast.clone(), on_forecast.clone());
        let change = a.change.clone();
        Pointing::new(move || f.emit(change.clone()), move || g.emit(None))
    };
    html! {
        <button key={a.id} data-testid={format!("action-{}", a.id)} title={visible_text(&a.command).into_owned()} {onclick}
            onmouseenter={p.enter} onmouseleave={p.leave} onfocus={p.focus} onblur={p.blur}>{ a.label }</button>
    }
}

/// A click that types `line`; the forecast of what was under the pointer
/// goes.
fn typing(
    line: String,
    on_run: &Callback<String>,
    on_forecast: &Callback<Option<Change>>,
) -> Callback<MouseEvent> {
    let (on_run, on_forecast) = (on_run.clone(), on_forecast.clone());
    Callback::from(move |_| {
        on_forecast.emit(None);
        on_run.emit(line.clone());
    })
}

/// The handlers of an element whose forecast shows while the pointer is
/// over it or it has the focus: `show` on entering and focus, `hide` on
/// leaving and blur.
pub(super) struct Pointing {
    pub enter: Callback<MouseEvent>,
    pub leave: Callback<MouseEvent>,
    pub focus: Callback<FocusEvent>,
    pub blur: Callback<FocusEvent>,
}

impl Pointing {
    pub fn new(show: impl Fn() + 'static, hide: impl Fn() + 'static) -> Pointing {
        let (show, hide) = (Rc::new(show), Rc::new(hide));
        let (s, h) = (show.clone(), hide.clone());
        Pointing {
            enter: Callback::from(move |_: MouseEvent| s()),
            leave: Callback::from(move |_: MouseEvent| h()),
            focus: Callback::from(move |_: FocusEvent| show()),
            blur: Callback::from(move |_: FocusEvent| hide()),
        }
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
    // a joining 3.5 etcd runs too, though its raft has not started yet
    let running = m.process.is_some() || m.joining;
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
    if !running {
        out.push(switch_etcd(&name, m.etcd));
    }
    out
}

/// While a machine's etcd is stopped: switch it to the other release (a
/// rolling upgrade, or back), as `machine etcd-version NAME V` does.
fn switch_etcd(name: &str, installed: EtcdVersion) -> Action {
    let (label, to) = match installed {
        EtcdVersion::V3_4 => ("Switch to etcd 3.5.1", EtcdVersion::V3_5),
        EtcdVersion::V3_5 => ("Switch to etcd 3.4.23", EtcdVersion::V3_4),
    };
    Action {
        id: "switch-etcd",
        label,
        command: format!("machine etcd-version {name} {}", to.name()),
        change: None,
    }
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
            net: NetData::of(view, &m.name),
            etcd: m.etcd,
            running: m.process.as_ref().map(|p| p.etcd).filter(|v| *v != m.etcd),
        });
    PanelData { cluster, selected }
}

/// The control that moves the terminal to the selected machine by typing
/// `ssh NAME`, so the run records it (and a link replays it) as typed.
fn terminal_switch(name: &str, props: &MachineProps) -> Html {
    let shown = visible_text(name).into_owned();
    let onclick = typing(format!("ssh {name}"), &props.on_run, &props.on_forecast);
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
    let close = props.on_select.reform(|_: MouseEvent| None);
    let button = |a| action_button(a, &props.on_run, &props.on_forecast);
    html! {
        <div class="actions">
            <h2>{ "Actions" }</h2>
            <div class="buttons">{ for data.cluster.iter().map(button) }</div>
            { match &data.selected {
                Some(m) => html! {
                    <div class="selected" data-testid="selected-machine">
                        <h3>
                            <span>
                                { format!("{} ({}) ", visible_text(&m.name), m.state) }
                                { etcd_badge(m.etcd, m.running) }
                            </span>
                            <button class="link-button" onclick={close} aria-label="close the machine's actions">{ "×" }</button>
                        </h3>
                        <div class="buttons">{ for m.actions.iter().map(button) }</div>
                        <NetButtons data={m.net.clone()} on_run={props.on_run.clone()} on_forecast={props.on_forecast.clone()} />
                        { terminal_switch(&m.name, props) }
                        <p class="small muted">{ m.facts.clone() }</p>
                    </div>
                },
                None => html! { <p class="small muted">{ "Click a machine on the map for its actions." }</p> },
            } }
        </div>
    }
}

/// The selected machine's etcd, as its map tab shows it; a running server
/// whose release is not the installed one says both.
fn etcd_badge(installed: EtcdVersion, running: Option<EtcdVersion>) -> Html {
    let shown = running.unwrap_or(installed);
    let (text, title) = match running {
        Some(r) => (
            format!("etcd {} (installed {})", r.release(), installed.release()),
            "the running etcd is not the machine's installed one: a restart runs the installed one",
        ),
        None => (
            format!("etcd {}", installed.release()),
            "the etcd installed on this machine: what `etcd` starts and which etcdctl runs here",
        ),
    };
    html! {
        <span class={classes!("etcd-badge", super::map::version_class(shown))} data-testid="selected-etcd" {title}>{ text }</span>
    }
}

#[derive(Properties, PartialEq)]
struct NetProps {
    data: NetData,
    on_run: Callback<String>,
    on_forecast: Callback<Option<Change>>,
}

/// A network action: the command it types (no forecast: the quorum panel
/// forecasts membership and quorum, which a setting does not change).
fn net_action(id: &'static str, label: &'static str, command: String) -> Action {
    Action {
        id,
        label,
        command,
        change: None,
    }
}

/// The selected machine's network: its NIC's limit, and the links to a
/// peer chosen in a list (the first other machine until one is chosen).
#[function_component(NetButtons)]
fn net_buttons(props: &NetProps) -> Html {
    let chosen = use_state(|| None::<String>);
    let d = &props.data;
    let name = &d.machine;
    let peer = chosen
        .as_ref()
        .and_then(|c| d.peers.iter().find(|(p, _)| p == c))
        .or_else(|| d.peers.first());
    let nic = if d.nic_limited {
        net_action(
            "net-clear-nic",
            "Clear NIC limit",
            actions::clear(name, None),
        )
    } else {
        net_action("net-rate", "Limit NIC to 1mbit", actions::rate(name))
    };
    let mut links = Vec::new();
    if let Some((p, set)) = peer {
        links.push(net_action(
            "net-delay",
            "Delay 200 ms",
            actions::delay(name, p),
        ));
        links.push(net_action("net-loss", "Loss 5%", actions::loss(name, p)));
        if *set {
            links.push(net_action(
                "net-clear-link",
                "Clear link",
                actions::clear(name, Some(p)),
            ));
        }
    }
    let onchange = {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .map(|s| s.value());
            chosen.set(value);
        })
    };
    let b = |a: &Action| action_button(a, &props.on_run, &props.on_forecast);
    let shown_peer = peer.map(|(p, _)| p.clone()).unwrap_or_default();
    html! {
        <div class="buttons net-actions" data-testid="net-actions" role="group" aria-label="network">
            <span class="small muted">{ "Network:" }</span>
            { b(&nic) }
            if !links.is_empty() {
                <label class="small">{ "link to " }
                    <select data-testid="net-peer" {onchange}>
                        { for d.peers.iter().map(|(p, _)| html! {
                            <option value={p.clone()} selected={*p == shown_peer}>{ visible_text(p).into_owned() }</option>
                        }) }
                    </select>
                </label>
                { for links.iter().map(b) }
            }
        </div>
    }
}
