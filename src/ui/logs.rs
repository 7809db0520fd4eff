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

#[function_component(Logs)]
pub fn logs(props: &LogsProps) -> Html {
    let filter = use_state(Filter::default);
    let cache: Rc<RefCell<Cache>> = use_mut_ref(Cache::default);
    let scroll = use_state(|| 0.0_f64);
    let follow = use_state(|| true);
    let height = use_state(|| 320.0_f64);
    let body = use_node_ref();
    let all = props.log.lines();
    let upto = props.upto.min(all.len());
    let machines = &props.machines;
    // A machine that is gone (a reset, `machine rm`) no longer filters.
    let gone = !filter.machine.is_empty() && !machines.iter().any(|x| *x == filter.machine);
    let effective = if gone {
        Filter {
            machine: String::new(),
            ..(*filter).clone()
        }
    } else {
        (*filter).clone()
    };
    update(
        &mut cache.borrow_mut(),
        &effective,
        props.world_id,
        &all,
        upto,
    );
    let total = cache.borrow().matches.len();
    {
        let body = body.clone();
        let follow = *follow;
        use_effect_with((total, follow), move |_| {
            if follow {
                if let Some(el) = body.cast::<HtmlElement>() {
                    el.set_scroll_top(el.scroll_height());
                }
            }
        });
    }
    let onscroll = {
        let scroll = scroll.clone();
        let follow = follow.clone();
        let height = height.clone();
        Callback::from(move |e: Event| {
            let Some(el) = e.target_dyn_into::<HtmlElement>() else {
                return;
            };
            let top = f64::from(el.scroll_top());
            let h = f64::from(el.client_height());
            scroll.set(top);
            height.set(h.max(ROW_H));
            follow.set(top + h >= f64::from(el.scroll_height()) - ROW_H);
        })
    };
    let set = |f: fn(&mut Filter, String)| {
        let filter = filter.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target_dyn_into::<HtmlSelectElement>()
                .map(|s| s.value())
                .or_else(|| e.target_dyn_into::<HtmlInputElement>().map(|i| i.value()))
                .unwrap_or_default();
            let mut next = (*filter).clone();
            f(&mut next, value);
            filter.set(next);
        })
    };
    let on_machine = set(|f, v| f.machine = v);
    let on_level = set(|f, v| {
        f.min = match v.as_str() {
            "warn" => Some(Level::Warn),
            "error" => Some(Level::Error),
            _ => None,
        }
    });
    let on_search = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                let mut next = (*filter).clone();
                next.search = i.value().to_lowercase();
                filter.set(next);
            }
        })
    };
    let on_follow = {
        let follow = follow.clone();
        Callback::from(move |_: MouseEvent| follow.set(!*follow))
    };
    let first = ((*scroll / ROW_H) as usize).saturating_sub(OVERSCAN);
    let count = (*height / ROW_H) as usize + 2 * OVERSCAN;
    let c = cache.borrow();
    let rows = c.matches.iter().enumerate().skip(first).take(count).filter_map(|(row, &i)| {
        let l = all.get(i)?;
        let level = match level_of(&l.text) {
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        };
        let text = visible_text(&l.text).into_owned();
        Some(html! {
            <div key={i} class={classes!("log-row", level)} data-testid="log-row" style={format!("top:{}px", row as f64 * ROW_H)}
                title={text.clone()}>
                <span class="log-machine">{ format!("[{}] ", visible_text(&l.machine)) }</span>{ text }
            </div>
        })
    });
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
