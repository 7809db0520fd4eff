//! The top bar: play/pause, one tick, the speed field (0.1x to 100x), the
//! simulated clock, the seed field and the etcd picker (3.4.23 or 3.5.1) with
//! reset (a three-member cluster or an empty world on that etcd), the
//! message-animation toggle and the light/dark theme switch. Bad text
//! in a field reaches the reducer, which answers with a notice and changes nothing.
//! It is one row from 1280 px up; on a narrow screen the speed, world and view
//! groups fold behind a "Settings" disclosure button (`aria-expanded`), so the
//! clock's buttons and time stay in one short row. An embedded page shows only
//! the world controls `controls=` asks for (`ui::embed`).

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::sim::view::visible_string;

use super::state::{EtcdVersion, Msg, Start, SPEEDS};

/// What the top bar shows of the model (it re-renders when one of these
/// changes: the clock's text at most every 100 simulated ms).
#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub playing: bool,
    pub speed: f64,
    pub seed: u64,
    /// The etcd the world's machines install (the picker shows it until
    /// another is picked for the next reset).
    pub etcd: EtcdVersion,
    pub world_id: u64,
    pub notice: Option<String>,
    /// The pending command's echo, if one runs.
    pub pending: Option<String>,
    /// `Model::clock_text` and the page's time as `view::elapsed_text` writes it.
    pub clock: String,
    pub elapsed: String,
    pub on_msg: Callback<Msg>,
    pub animate: bool,
    pub on_animate: Callback<bool>,
    /// The world controls shown (`embed::WORLD_CONTROLS`: seed, etcd, reset, empty).
    #[prop_or(vec!["seed", "etcd", "reset", "empty"])]
    pub world: Vec<&'static str>,
}

/// The speed and seed fields' texts. Each field keeps the text being typed
/// in its own state (the clock renders 60 times a second); the model's value
/// replaces it only when the speed or the seed itself changes.
#[hook]
fn use_field_texts(m: &ControlsProps) -> (UseStateHandle<String>, UseStateHandle<String>) {
    let speed_text = use_state(|| format!("{}x", m.speed));
    let seed_text = use_state(|| m.seed.to_string());
    {
        // A rejected value (a notice) puts the real speed back in the field.
        let t = speed_text.clone();
        use_effect_with((m.speed.to_bits(), m.notice.clone()), move |(bits, _)| {
            t.set(format!("{}x", f64::from_bits(*bits)));
        });
        let t = seed_text.clone();
        use_effect_with((m.seed, m.world_id), move |(seed, _)| {
            t.set(seed.to_string());
        });
    }
    (speed_text, seed_text)
}

/// The etcd picked for the next reset: the world's until another is picked,
/// and the world's again when a new world comes (a reset, a link, a lesson).
#[hook]
fn use_picked_etcd(m: &ControlsProps) -> UseStateHandle<EtcdVersion> {
    let picked = use_state(|| m.etcd);
    let p = picked.clone();
    use_effect_with((m.etcd, m.world_id), move |(etcd, _)| p.set(*etcd));
    picked
}

/// The etcd picker: `etcd 3.4.23 | 3.5.1`, applied by Reset and Empty
/// world (Reset is marked while the pick is not the world's etcd).
fn etcd_picker(picked: &UseStateHandle<EtcdVersion>, world: EtcdVersion) -> Html {
    let onchange = {
        let picked = picked.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_dyn_into::<HtmlSelectElement>()
                .and_then(|s| EtcdVersion::from_name(&s.value()));
            if let Some(v) = v {
                picked.set(v);
            }
        })
    };
    let changed = **picked != world;
    let title = if changed {
        format!(
            "this world runs etcd {}; Reset or Empty world makes a new one on etcd {}",
            world.release(),
            picked.release()
        )
    } else {
        "the etcd a new world's machines install: Reset or Empty world applies it".to_string()
    };
    html! {
        <label class={classes!("field", changed.then_some("changed"))} {title}>
            <span>{ "etcd" }</span>
            <select data-testid="etcd-version" {onchange} aria-label="etcd version of a new world">
                { for [EtcdVersion::V3_4, EtcdVersion::V3_5].into_iter().map(|v| html! {
                    <option value={v.name()} selected={v == **picked}>{ v.release() }</option>
                }) }
            </select>
        </label>
    }
}

/// The speed field applies its text on Enter and when it changes.
fn speed_handlers(
    on_msg: &Callback<Msg>,
    speed_text: &UseStateHandle<String>,
) -> (Callback<KeyboardEvent>, Callback<Event>) {
    let (on, t) = (on_msg.clone(), speed_text.clone());
    let on_speed_key = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" {
            on.emit(Msg::SetSpeed((*t).clone()));
        }
    });
    let t = speed_text.clone();
    let on_speed_change = on_msg.reform(move |_: Event| Msg::SetSpeed((*t).clone()));
    (on_speed_key, on_speed_change)
}

#[function_component(Controls)]
pub fn controls(props: &ControlsProps) -> Html {
    let m = props;
    let (speed_text, seed_text) = use_field_texts(m);
    let picked = use_picked_etcd(m);
    let send = |msg: Msg| props.on_msg.reform(move |_: MouseEvent| msg.clone());
    let typed = |t: &UseStateHandle<String>| {
        let t = t.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(el) = e.target_dyn_into::<HtmlInputElement>() {
                t.set(el.value());
            }
        })
    };
    let on_speed_input = typed(&speed_text);
    let on_seed_input = typed(&seed_text);
    let (on_speed_key, on_speed_change) = speed_handlers(&props.on_msg, &speed_text);
    let reset = |start: Start| {
        let (t, etcd) = (seed_text.clone(), *picked);
        props.on_msg.reform(move |_: MouseEvent| Msg::Reset {
            seed: (*t).clone(),
            start,
            etcd,
        })
    };
    let now = props.animate;
    let on_animate = props.on_animate.reform(move |_: MouseEvent| !now);
    let play_label = if m.playing {
        "❚❚ Pause"
    } else {
        "▶ Play"
    };
    let menu_open = use_state(|| false);
    let on_menu = super::toggle(&menu_open);
    let shows = |c: &str| props.world.contains(&c);
    let pending = m.pending.as_ref().map(|echo| {
        html! { <span class="pending-dot" title={visible_string(format!("running: {echo}"))}>{ "⏳ command running" }</span> }
    });
    html! {
        <header class={classes!("topbar", (*menu_open).then_some("open"))}>
            <h1>{ "Quorum Playground" }</h1>
            <div class="group" role="group" aria-label="Clock">
                <button data-testid="play-pause" onclick={send(Msg::TogglePlay)} aria-pressed={m.playing.to_string()}
                    title="play or pause the simulated clock (space)">{ play_label }</button>
                <button data-testid="tick" onclick={send(Msg::Step)} title="advance one 100 ms tick (.)">{ "+1 tick" }</button>
                <span class="clock" data-testid="clock-time" title="simulated wall clock">{ clock_parts(&m.clock) }</span>
                <span class="muted elapsed" data-testid="elapsed" title="simulated time since the world began">{ format!("t+{}", m.elapsed) }</span>
                { for pending }
            </div>
            <button class="menu-button" data-testid="controls-menu" onclick={on_menu} aria-expanded={menu_open.to_string()}
                aria-controls="topbar-more" title="speed, seed, reset, messages and theme">
                <span aria-hidden="true">{ "⚙ " }</span>{ "Settings" }
            </button>
            <div class="more" id="topbar-more">
                <div class="group" role="group" aria-label="Speed">
                    <label class="field">
                        <span>{ "speed" }</span>
                        <input data-testid="speed" value={(*speed_text).clone()} oninput={on_speed_input} type="text" inputmode="decimal" size="4" list="speeds"
                            onkeydown={on_speed_key} onchange={on_speed_change}
                            aria-label="speed, 0.1x to 100x" />
                        <datalist id="speeds">
                            { for SPEEDS.iter().map(|s| html! { <option value={format!("{s}x")} /> }) }
                        </datalist>
                    </label>
                </div>
                if shows("seed") || shows("etcd") || shows("reset") || shows("empty") {
                    <div class="group" role="group" aria-label="World">
                        if shows("seed") {
                            <label class="field">
                                <span>{ "seed" }</span>
                                <input data-testid="seed" value={(*seed_text).clone()} oninput={on_seed_input} type="text" inputmode="numeric" size="5"
                                    aria-label="seed" />
                            </label>
                        }
                        if shows("etcd") {
                            { etcd_picker(&picked, m.etcd) }
                        }
                        if shows("reset") {
                            // marked while the picked etcd is not the world's: Reset applies it
                            <button data-testid="reset" class={classes!((*picked != m.etcd).then_some("primary"))} onclick={reset(Start::Cluster)}
                                title="a new three-member cluster with this seed and etcd">{ "Reset" }</button>
                        }
                        if shows("empty") {
                            <button data-testid="reset-empty" onclick={reset(Start::Empty)} title="an empty world with this seed and etcd, for pasting a document's steps">{ "Empty world" }</button>
                        }
                    </div>
                }
                <div class="group" role="group" aria-label="View">
                    <button data-testid="animate" onclick={on_animate} aria-pressed={props.animate.to_string()}
                        title="show messages moving along the links">{ if props.animate { "msgs: on" } else { "msgs: off" } }</button>
                    <ThemeSwitch />
                </div>
            </div>
        </header>
    }
}

/// The wall clock's text with its time of day apart (`Wed Mar 3 ` |
/// `16:26:02` | ` UTC 2021`), so a phone can show the time alone and a
/// 1280 px bar can leave out the zone and year (to keep one row with the etcd
/// picker); the text as a whole is unchanged.
fn clock_parts(clock: &str) -> Html {
    let time = clock
        .split(' ')
        .find(|w| w.contains(':'))
        .and_then(|w| clock.find(w).map(|at| (at, at + w.len())));
    match time {
        Some((a, b)) => html! {
            <>
                <span class="clock-date">{ clock[..a].to_string() }</span>
                { clock[a..b].to_string() }
                <span class="clock-date clock-zone">{ clock[b..].to_string() }</span>
            </>
        },
        None => html! { { clock.to_string() } },
    }
}

/// Auto (the system's), light or dark: sets `data-theme` on the root element.
#[function_component(ThemeSwitch)]
fn theme_switch() -> Html {
    let theme = use_state(|| "auto");
    let onclick = {
        let theme = theme.clone();
        Callback::from(move |_: MouseEvent| {
            let next = match *theme {
                "auto" => "light",
                "light" => "dark",
                _ => "auto",
            };
            if let Some(root) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element())
            {
                let _ = root.set_attribute("data-theme", next);
            }
            theme.set(next);
        })
    };
    html! {
        <button data-testid="theme" {onclick} title="colour theme: auto, light or dark">{ format!("theme: {}", *theme) }</button>
    }
}
