//! The quorum panel: voters, learners, quorum size, voters running and started
//! (as etcd means it: published), reachable from the leader (from its raft
//! progress and peer activity), failures tolerated, whether the cluster can
//! commit now, the forecast of the action under the pointer or focus (coloured
//! by its outcome: refused and quorum lost are warnings), and each learner's
//! catch-up bar with why `member promote` would be accepted or refused, and
//! under it the data on its way: bytes received and left (a snapshot's bytes
//! as they leave the leader) and the time left at the rate the panel has seen
//! (`sim::quorum::CatchUpMeter`, kept across renders). All
//! numbers and words come from `sim::quorum`; a label that is a glossary word
//! carries a [`Gloss`] link to its definition (`sim::glossary`). The quorum
//! line comes first, so it stays in view at the top of its column.

use std::rc::Rc;

use yew::prelude::*;

use crate::shell::netunits::rate_text;
use crate::sim::glossary::Word;
use crate::sim::quorum::{
    CatchUpBytes, CatchUpMeter, Forecast, LearnerInfo, Outcome, QuorumInfo, Row,
};
use crate::sim::view::visible_string;
use crate::ui::netmap::size_text;

/// The panel's numbers, worked out by the page (`quorum::analyze`, `learners`
/// and `forecast` of the view shown), so the panel re-renders only when one
/// of them changes.
#[derive(Properties, PartialEq)]
pub struct QuorumProps {
    pub quorum: Rc<QuorumInfo>,
    pub learners: Vec<LearnerInfo>,
    /// What the action under the pointer or focus would do, if any.
    pub forecast: Option<Forecast>,
}

#[derive(Properties, PartialEq)]
pub struct GlossProps {
    pub word: Word,
}

/// A glossary link: a small "?" button after a word. Hovering shows the
/// definition as its title; a click or Enter opens it under the button (Tab
/// reaches it; Escape, a second press or leaving it closes it).
#[function_component(Gloss)]
pub fn gloss(props: &GlossProps) -> Html {
    let w = props.word;
    let open = use_state(|| false);
    let onclick = super::toggle(&open);
    let onkeydown = {
        let open = open.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" && *open {
                e.stop_propagation();
                open.set(false);
            }
        })
    };
    let onblur = open.setter().to_callback().reform(|_: FocusEvent| false);
    html! {
        <span class="gloss" data-testid={format!("gloss-{}", w.name())}>
            <button type="button" class="gloss-btn" aria-expanded={open.to_string()} title={w.definition()}
                {onclick} {onkeydown} {onblur}>
                <span aria-hidden="true">{ "?" }</span>
                <span class="sr-only">{ format!("What is “{}”?", w.name()) }</span>
            </button>
            if *open {
                <span class="gloss-def" role="note" data-testid="gloss-definition">
                    <strong>{ w.name() }</strong>{ ": " }{ w.definition() }
                </span>
            }
        </span>
    }
}

/// A label followed by its glossary link, if it names a word.
pub fn labelled(label: &str, word: Option<Word>) -> Html {
    html! { <>{ label.to_string() }{ for word.map(|w| html! { <Gloss word={w} /> }) }</> }
}

/// The class, symbol and data name of a forecast's outcome (never colour alone).
fn outcome_look(o: Outcome) -> (&'static str, &'static str) {
    match o {
        Outcome::KeepsQuorum => ("ok", "✔"),
        Outcome::QuorumLost => ("lost", "✖"),
        Outcome::Refused => ("warn", "⚠"),
    }
}

fn forecast(f: Option<&Forecast>) -> Html {
    let Some(f) = f else {
        return html! { <p class="muted">{ "Point at or focus an action to see what it does to quorum." }</p> };
    };
    let o = f.outcome();
    let (class, mark) = outcome_look(o);
    html! {
        <p class={classes!("outcome", class)} data-outcome={o.name()}>
            <span class="outcome-mark" aria-hidden="true">{ mark }</span>
            <strong>{ "Forecast: " }</strong>{ visible_string(f.text.clone()) }
        </p>
    }
}

fn row(r: Row) -> Html {
    html! {
        <div class="fact" key={r.label}>
            <dt>{ labelled(r.label, r.word) }</dt>
            <dd>{ visible_string(r.value) }</dd>
        </div>
    }
}

fn learner(l: &LearnerInfo, seconds_left: Option<f64>) -> Html {
    let pct = (l.fraction * 100.0).clamp(0.0, 100.0);
    let verdict = match &l.promote {
        Ok(()) => "promote would be accepted".to_string(),
        Err(why) => format!("promote would be refused: {why}"),
    };
    let name = if l.name.is_empty() {
        format!("{:x}", l.id)
    } else {
        l.name.clone()
    };
    html! {
        <div class="learner" data-testid={format!("learner-{:x}", l.id)}>
            <h3>{ visible_string(format!("Learner {name} catch-up")) }</h3>
            <div class="bar" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow={format!("{pct:.0}")}
                aria-label="learner's match against the leader's">
                <div class="fill" style={format!("width:{pct:.1}%")}></div>
                <div class="mark90" title="90 %: etcd promotes from here"></div>
            </div>
            <p class="small">
                { "match" }<Gloss word={Word::Match} />
                { format!(" {} of the leader's {} ({pct:.0} %): {verdict}", l.matched, l.leader_matched) }
            </p>
            { for l.bytes.filter(|b| b.left > 0).map(|b| transfer(&b, seconds_left)) }
            { for l.leader_queue.filter(|(q, _)| *q > 0 && pct < 100.0).map(leader_queue) }
        </div>
    }
}

/// The data still on its way: a thin bar of the bytes received, then the
/// snapshot's bytes sent (and the log after it) or the log's bytes received,
/// and the time left at the rate seen over the last few simulated seconds
/// ("—" while it is not known).
fn transfer(b: &CatchUpBytes, seconds_left: Option<f64>) -> Html {
    if b.needs_snapshot {
        return html! {
            <div class="transfer" data-testid="catchup-transfer">
                <p class="small" data-testid="catchup-bytes">
                    { format!(
                        "snapshot: the leader compacted the entries it lacks, so a snapshot comes first, then {} of log · ",
                        size_text(b.left)
                    ) }
                    <span data-testid="catchup-eta">{ "time left —" }</span>
                </p>
            </div>
        };
    }
    let pct = (b.fraction() * 100.0).clamp(0.0, 100.0);
    let what = match b.snapshot {
        Some((sent, total)) => {
            let log = b.left.saturating_sub(total - sent);
            let then = if log > 0 {
                format!(", then {} of log", size_text(log))
            } else {
                String::new()
            };
            format!(
                "snapshot: {} of {} sent{then}",
                size_text(sent),
                size_text(total)
            )
        }
        None => format!(
            "log: {} of {} received",
            size_text(b.received),
            size_text(b.received + b.left)
        ),
    };
    let left = match seconds_left {
        Some(t) => format!("about {} left", seconds_text(t)),
        None => "time left —".to_string(),
    };
    html! {
        <div class="transfer" data-testid="catchup-transfer">
            <div class="bar thin" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow={format!("{pct:.0}")}
                aria-label="data the learner has received">
                <div class="fill" style={format!("width:{pct:.1}%")}></div>
            </div>
            <p class="small" data-testid="catchup-bytes">
                { format!("{what} · ") }
                <span data-testid="catchup-eta">{ left }</span>
            </p>
        </div>
    }
}

/// A time left in whole seconds (minutes and seconds from a minute on).
fn seconds_text(t: f64) -> String {
    let s = t.ceil().max(1.0) as u64;
    if s < 60 {
        format!("{s} s")
    } else {
        format!("{} min {} s", s / 60, s % 60)
    }
}

/// What the leader has already sent and still waits in its NIC: bytes (in
/// the map's gauge's units), and the time they take to leave at its rate
/// (`net rate`).
fn leader_queue((queued, rate_bps): (u64, u64)) -> Html {
    let secs = queued as f64 * 8.0 / rate_bps.max(1) as f64;
    html! {
        <p class="small" data-testid="learner-queue">
            { format!(
                "the leader's NIC holds {} for its peers: about {secs:.1} s at {}",
                size_text(queued),
                rate_text(rate_bps)
            ) }
        </p>
    }
}

#[function_component(QuorumPanel)]
pub fn quorum_panel(props: &QuorumProps) -> Html {
    let q = &props.quorum;
    let meter = use_mut_ref(CatchUpMeter::default);
    meter.borrow_mut().observe(&props.learners);
    let meter = meter.borrow();
    let ok = q.can_commit;
    let status_class = if ok { "ok" } else { "lost" };
    html! {
        <div class="quorum-panel">
            <h2>{ "Quorum" }</h2>
            <p class={classes!("quorum", status_class)} data-testid="quorum-status">
                <span aria-hidden="true">{ if ok { "✔ " } else { "✖ " } }</span>{ visible_string(q.summary()) }
            </p>
            <div class="forecast" data-testid="forecast" aria-live="polite">
                { forecast(props.forecast.as_ref()) }
            </div>
            <dl class="facts" data-testid="quorum-facts">
                { for q.rows().into_iter().map(row) }
            </dl>
            { for props.learners.iter().map(|l| learner(l, meter.seconds_left(l))) }
        </div>
    }
}
