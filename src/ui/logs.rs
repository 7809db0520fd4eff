//! The logs panel: every machine's etcd log up to the page's clock, filtered by
//! machine, level and a search text, following the tail unless the reader scrolls
//! up. Long logs stay fast: the filter only scans lines it has not seen, and only
//! the rows in view are rendered (fixed row height, a spacer for the rest).
//! Log lines quote names, keys and flags a person typed: they are shown through
//! `visible_text`, and searched as they are.

use std::cell::RefCell;
use std::rc::Rc;

use web_sys::{HtmlElement, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::state::WorldLog;
use crate::sim::etcd::logfmt::{level_of, Level};
use crate::sim::view::visible_text;
use crate::sim::world::LogLine;

/// Pixels per row; must match `.log-row` in the style sheet.
const ROW_H: f64 = 18.0;
/// Rows drawn above and below the visible ones.
const OVERSCAN: usize = 8;

#[derive(Clone, PartialEq, Default)]
struct Filter {
    machine: String,
    min: Option<Level>,
    search: String,
}

impl Filter {
    fn keeps(&self, l: &LogLine) -> bool {
        (self.machine.is_empty() || l.machine == self.machine)
            && self.min.is_none_or(|min| level_of(&l.text) >= min)
            && (self.search.is_empty() || l.text.to_lowercase().contains(&self.search))
    }

    /// The filter as it applies: a machine that is gone (a reset, `machine
    /// rm`) no longer filters.
    fn effective(&self, machines: &[String]) -> Filter {
        let mut f = self.clone();
        if !machines.contains(&f.machine) {
            f.machine.clear();
        }
        f
    }
}

/// The filter's matches so far (indexes into the world's log).
#[derive(Default)]
struct Cache {
    filter: Filter,
    world: u64,
    scanned: usize,
    matches: Vec<usize>,
}

/// What the logs panel depends on: it re-renders when lines reach the page's
/// clock or the machines change, not on every frame. The lines themselves are
/// read from the world's log (`log`, the one read handle, see [`WorldLog`])
/// when it renders: only the first `upto`, which never change in a world.
#[derive(Properties, PartialEq)]
pub struct LogsProps {
    pub world_id: u64,
    /// The world's log lines at or before the page's clock.
    pub upto: usize,
    /// The machines' names, for the machine filter.
    pub machines: Vec<String>,
    pub log: WorldLog,
}

fn update(cache: &mut Cache, filter: &Filter, world: u64, logs: &[LogLine], upto: usize) {
    if cache.filter != *filter || cache.world != world || upto < cache.scanned {
        *cache = Cache {
            filter: filter.clone(),
            world,
            ..Cache::default()
        };
    }
    for (i, l) in logs.iter().enumerate().take(upto).skip(cache.scanned) {
        if filter.keeps(l) {
            cache.matches.push(i);
        }
    }
    cache.scanned = upto;
}

/// The part of the log body in view: its scroll offset and height, and
/// whether it follows the tail.
#[derive(Clone)]
struct Viewport {
    scroll: UseStateHandle<f64>,
    height: UseStateHandle<f64>,
    follow: UseStateHandle<bool>,
}

impl Viewport {
    /// The matches to draw: those in view, and [`OVERSCAN`] on each side.
    fn rows(&self) -> (usize, usize) {
        let first = ((*self.scroll / ROW_H) as usize).saturating_sub(OVERSCAN);
        let count = (*self.height / ROW_H) as usize + 2 * OVERSCAN;
        (first, count)
    }

    /// Scrolling: what is in view, and whether the reader left the tail.
    fn on_scroll(&self) -> Callback<Event> {
        let v = self.clone();
        Callback::from(move |e: Event| {
            let Some(el) = e.target_dyn_into::<HtmlElement>() else {
                return;
            };
            let top = f64::from(el.scroll_top());
            let h = f64::from(el.client_height());
            v.scroll.set(top);
            v.height.set(h.max(ROW_H));
            v.follow
                .set(top + h >= f64::from(el.scroll_height()) - ROW_H);
        })
    }
}

/// The filter's controls: a select or a field's value changes one part.
fn on_filter<E: AsRef<Event> + 'static>(
    filter: &UseStateHandle<Filter>,
    f: fn(&mut Filter, String),
) -> Callback<E> {
    let filter = filter.clone();
    Callback::from(move |e: E| {
        let e = e.as_ref();
        let value = e
            .target_dyn_into::<HtmlSelectElement>()
            .map(|s| s.value())
            .or_else(|| e.target_dyn_into::<HtmlInputElement>().map(|i| i.value()))
            .unwrap_or_default();
        let mut next = (*filter).clone();
        f(&mut next, value);
        filter.set(next);
    })
}

/// The level select's value as a least level.
fn min_level(value: &str) -> Option<Level> {
    match value {
        "warn" => Some(Level::Warn),
        "error" => Some(Level::Error),
        _ => None,
    }
}

/// Keeps the body at the tail while it follows, as matches arrive.
#[hook]
fn use_follow_tail(body: &NodeRef, total: usize, follow: bool) {
    let body = body.clone();
    use_effect_with((total, follow), move |_| {
        if follow {
            if let Some(el) = body.cast::<HtmlElement>() {
                el.set_scroll_top(el.scroll_height());
            }
        }
    });
}

/// Row `row` of the matches: log line `i`, placed at its height.
fn row(row: usize, i: usize, l: &LogLine) -> Html {
    let level = match level_of(&l.text) {
        Level::Debug => "debug",
        Level::Info => "info",
        Level::Warn => "warn",
        Level::Error => "error",
    };
    let text = visible_text(&l.text).into_owned();
    html! {
        <div key={i} class={classes!("log-row", level)} data-testid="log-row" style={format!("top:{}px", row as f64 * ROW_H)}
            title={text.clone()}>
            <span class="log-machine">{ format!("[{}] ", visible_text(&l.machine)) }</span>{ text }
        </div>
    }
}

#[function_component(Logs)]
pub fn logs(props: &LogsProps) -> Html {
    let filter = use_state(Filter::default);
    let cache: Rc<RefCell<Cache>> = use_mut_ref(Cache::default);
    let view = Viewport {
        scroll: use_state(|| 0.0_f64),
        height: use_state(|| 320.0_f64),
        follow: use_state(|| true),
    };
    let body = use_node_ref();
    let all = props.log.lines();
    let upto = props.upto.min(all.len());
    let machines = &props.machines;
    let effective = filter.effective(machines);
    update(
        &mut cache.borrow_mut(),
        &effective,
        props.world_id,
        &all,
        upto,
    );
    let total = cache.borrow().matches.len();
    let follow = view.follow.clone();
    use_follow_tail(&body, total, *follow);
    let onscroll = view.on_scroll();
    let on_machine = on_filter::<Event>(&filter, |f, v| f.machine = v);
    let on_level = on_filter::<Event>(&filter, |f, v| f.min = min_level(&v));
    let on_search = on_filter::<InputEvent>(&filter, |f, v| f.search = v.to_lowercase());
    let on_follow = super::toggle(&follow);
    let (first, count) = view.rows();
    let c = cache.borrow();
    let rows = c.matches.iter().enumerate().skip(first).take(count);
    let rows = rows.filter_map(|(n, &i)| all.get(i).map(|l| row(n, i, l)));
    html! {
        <section class="panel wide logs" aria-label="Server logs" data-testid="logs-panel">
            <h2>{ "Logs" }</h2>
            <div class="log-filters">
                <label>{ "machine " }
                    <select data-testid="logs-machine" onchange={on_machine}>
                        <option value="" selected={effective.machine.is_empty()}>{ "all machines" }</option>
                        { for machines.iter().map(|n| html! { <option value={n.clone()} selected={effective.machine == *n}>{ visible_text(n).into_owned() }</option> }) }
                    </select>
                </label>
                <label>{ "level " }
                    <select data-testid="logs-level" onchange={on_level}>
                        <option value="all" selected={filter.min.is_none()}>{ "all" }</option>
                        <option value="warn" selected={filter.min == Some(Level::Warn)}>{ "warnings and errors" }</option>
                        <option value="error" selected={filter.min == Some(Level::Error)}>{ "errors" }</option>
                    </select>
                </label>
                <label>{ "search " }
                    <input data-testid="logs-search" type="search" oninput={on_search} aria-label="search the logs" />
                </label>
                <button data-testid="logs-follow" onclick={on_follow} aria-pressed={follow.to_string()}>
                    { if *follow { "following the tail" } else { "follow the tail" } }
                </button>
                <span class="small muted" data-testid="logs-count">{ format!("{total} of {upto} lines") }</span>
            </div>
            <div class="log-body" ref={body} {onscroll} tabindex="0" role="log" aria-label="log lines">
                <div class="log-spacer" style={format!("height:{}px", total as f64 * ROW_H)}>
                    { for rows }
                </div>
            </div>
        </section>
    }
}
