//! The promises panel: a live badge for each of Raft's and etcd's promises the
//! world checks after every event (one leader per term, commit never goes
//! back, …) and one for the clients' history (linearizable), and the banner
//! that names acknowledged writes a person's action lost. A broken badge says
//! what broke, in words; writes lost by forcing a new cluster or wiping data
//! are a lesson, shown as such, not as a bug; so is a promise broken after a
//! command that breaks it on purpose (a wiped data dir restarted under its
//! old ID diverges on real etcd too: `tests/findings/`). The panel is a
//! disclosure, open by default, whose summary says how many are kept, so a
//! learner who folds it still sees when one breaks.

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::view::{count, visible_string};

use super::state::{Msg, Promises};
use crate::sim::invariants::Promise;

#[derive(Properties, PartialEq)]
pub struct PromisesProps {
    pub promises: Rc<Promises>,
}

#[function_component(PromisesPanel)]
pub fn promises_panel(props: &PromisesProps) -> Html {
    let p = &props.promises;
    let badges = Promise::ALL.iter().map(|&promise| {
        let broken = p.broken.iter().find(|b| b.promise == promise);
        let why = broken.map(|b| match &b.after {
            Some(cmd) => format!(
                "{} after “{cmd}”: the person's doing, as on real etcd",
                b.why
            ),
            None => b.why.clone(),
        });
        let by_person = broken.is_some_and(|b| b.after.is_some());
        badge(promise.slug(), promise.label(), why.as_deref(), by_person)
    });
    // A history with no linearization is expected once writes were lost by
    // the person's own action; otherwise it is a broken promise.
    let history = badge(
        "linearizable",
        "reads see acknowledged writes",
        p.not_linearizable.as_deref(),
        !p.lost.is_empty(),
    );
    let total = Promise::ALL.len() + 1;
    let broken = p.broken.len() + usize::from(p.not_linearizable.is_some());
    let kept = total.saturating_sub(broken);
    let summary = if broken == 0 {
        format!("all {total} kept")
    } else {
        format!("{kept} of {total} kept")
    };
    html! {
        <details class="promises" data-testid="promises-panel" open=true>
            <summary>
                <h2>{ "Promises" }<span class={classes!("promises-count", (broken > 0).then_some("warn"))} data-testid="promises-summary">{ summary }</span></h2>
            </summary>
            <ul class="badges" aria-label="Promises the world keeps">
                { for badges }
                { history }
            </ul>
        </details>
    }
}

/// One badge: kept (✓), broken (✗, with why), or lost by the person's action (!).
fn badge(slug: &'static str, label: &'static str, why: Option<&str>, by_person: bool) -> Html {
    let (state, mark) = match (why, by_person) {
        (None, _) => ("kept", "✓"),
        (Some(_), true) => ("lost", "!"),
        (Some(_), false) => ("broken", "✗"),
    };
    html! {
        <li class={classes!("badge", state)} data-testid={format!("promise-{slug}")} data-state={state}
            title={why.map(|w| visible_string(w.to_string()))}>
            <span class="mark" aria-hidden="true">{ mark }</span>
            <span>{ label }</span>
            if let Some(why) = why {
                <span class="sr-only">{ visible_string(format!(": {why}")) }</span>
            }
        </li>
    }
}

#[derive(Properties, PartialEq)]
pub struct LostBannerProps {
    pub promises: Rc<Promises>,
    pub on_msg: Callback<Msg>,
}

/// The most of a command the banner shows (its whole text is the tooltip).
const CAUSE_CHARS: usize = 72;

/// A long command as its start and its end around `…`: the program and the
/// flag that decided (`--force-new-cluster` is typed last more often than
/// not) both stay in sight on a phone.
fn shortened(command: &str) -> String {
    let chars: Vec<char> = command.chars().collect();
    if chars.len() <= CAUSE_CHARS {
        return command.to_string();
    }
    let half = CAUSE_CHARS / 2;
    let head: String = chars[..half].iter().collect();
    let tail: String = chars[chars.len() - half..].iter().collect();
    format!("{} … {}", head.trim_end(), tail.trim_start())
}

/// The banner naming acknowledged writes that are gone, and the command that
/// threw them away.
#[function_component(LostBanner)]
pub fn lost_banner(props: &LostBannerProps) -> Html {
    let p = &props.promises;
    if p.lost.is_empty() {
        return Html::default();
    }
    let cause = p.cause.as_ref().map_or_else(
        || "An action".to_string(),
        |c| format!("“{}”", shortened(c)),
    );
    let whole = p.cause.as_ref().map(|c| visible_string(c.clone()));
    let on_msg = props.on_msg.clone();
    // folded to its headline: opened at a later lesson step (or on a phone)
    // the whole list would push the cluster map out of sight
    html! {
        <div class="lost-banner" role="alert" data-testid="lost-writes">
            <details>
                <summary>
                    <strong title={whole}>{ visible_string(format!("{cause} lost {}.", count(p.lost.len(), "acknowledged write"))) }</strong>
                    <span class="lost-more">{ " Which, and why?" }</span>
                </summary>
                <p>{ "etcd had promised to keep them; forcing a new cluster from a member that missed them, wiping a majority's data or restoring an old snapshot throws them away. That is a lesson, not a bug." }</p>
                <ul>
                    { for p.lost.iter().map(|l| html! { <li><code>{ visible_string(l.to_string()) }</code></li> }) }
                </ul>
            </details>
            <button onclick={Callback::from(move |_| on_msg.emit(Msg::DismissLost))}>{ "dismiss" }</button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn a_long_cause_keeps_its_start_and_end() {
        assert_eq!(
            shortened("node01$ etcd --force-new-cluster"),
            "node01$ etcd --force-new-cluster"
        );
        let long = "node01$ etcd --name node01 --initial-advertise-peer-urls http://10.200.0.1:2380 --listen-peer-urls http://10.200.0.1:2380 --force-new-cluster";
        let s = shortened(long);
        assert!(s.starts_with("node01$ etcd --name node01"), "{s}");
        assert!(s.ends_with("--force-new-cluster"), "{s}");
        assert!(s.contains(" … "), "{s}");
        assert!(s.chars().count() <= CAUSE_CHARS + 3, "{s}");
        // not a char boundary problem: any text
        assert!(shortened(&"é".repeat(200)).contains('…'));
    }
}
