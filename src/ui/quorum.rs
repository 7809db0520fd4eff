//! The quorum panel: voters, learners, quorum size, voters started and reachable
//! from the leader (from its raft progress and peer activity), failures
//! tolerated, whether the cluster can commit now, the forecast of the action under
//! the pointer or focus, and each learner's catch-up bar with why `member promote`
//! would be accepted or refused. All numbers come from `sim::quorum`.

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::view::visible_string;

use crate::sim::quorum::{Forecast, LearnerInfo, QuorumInfo};

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

fn names(list: &[(u64, String)]) -> String {
    if list.is_empty() {
        return "none".to_string();
    }
    list.iter()
        .map(|(id, n)| {
            if n.is_empty() {
                format!("{id:x} (unstarted)")
            } else {
                n.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[function_component(QuorumPanel)]
pub fn quorum_panel(props: &QuorumProps) -> Html {
    let q = &props.quorum;
    let ok = q.can_commit;
    let status_class = if ok { "ok" } else { "lost" };
    let row = |k: &str, v: String| html! { <><dt>{ k.to_string() }</dt><dd>{ visible_string(v) }</dd></> };
    html! {
        <div class="quorum-panel">
            <div class="forecast" data-testid="forecast" aria-live="polite">
                { match &props.forecast {
                    Some(f) => html! { <p class={classes!(if f.keeps_quorum { "ok" } else { "lost" })}><strong>{ "Forecast: " }</strong>{ visible_string(f.text.clone()) }</p> },
                    None => html! { <p class="muted">{ "Point at or focus an action to see what it does to quorum." }</p> },
                } }
            </div>
            <h2>{ "Quorum" }</h2>
            <p class={classes!("quorum", status_class)} data-testid="quorum-status">
                <span aria-hidden="true">{ if ok { "✔ " } else { "✖ " } }</span>{ visible_string(q.summary()) }
            </p>
            <dl class="facts">
                { row("leader", q.leader.as_ref().map(|l| format!("{} ({:x}), term {}", l.name, l.id, l.term)).unwrap_or_else(|| "none".to_string())) }
                { row("voters", format!("{}: {}", q.voters.len(), names(&q.voters))) }
                { row("learners", format!("{}: {}", q.learners.len(), names(&q.learners))) }
                { row("quorum", format!("{} of {}", q.quorum, q.voters.len())) }
                { row("started", format!("{} of {} voters", q.voters_started, q.voters.len())) }
                { row("reachable", format!("{} of {} voters, from the leader", q.voters_reachable, q.voters.len())) }
                { row("tolerates", format!("{} failure(s) now, {} by size", q.failures_tolerated, q.tolerance_by_size)) }
                { row("can commit", if ok { "yes".to_string() } else { "no".to_string() }) }
            </dl>
            { for props.learners.iter().map(|l| {
                let pct = (l.fraction * 100.0).clamp(0.0, 100.0);
                let verdict = match &l.promote {
                    Ok(()) => "promote would be accepted".to_string(),
                    Err(why) => format!("promote would be refused: {why}"),
                };
                html! {
                    <div class="learner" data-testid={format!("learner-{:x}", l.id)}>
                        <h3>{ visible_string(format!("Learner {} catch-up", if l.name.is_empty() { format!("{:x}", l.id) } else { l.name.clone() })) }</h3>
                        <div class="bar" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow={format!("{pct:.0}")}
                            aria-label="learner's match against the leader's">
                            <div class="fill" style={format!("width:{pct:.1}%")}></div>
                            <div class="mark90" title="90 %: etcd promotes from here"></div>
                        </div>
                        <p class="small">{ format!("match {} of the leader's {} ({pct:.0} %): {verdict}", l.matched, l.leader_matched) }</p>
                    </div>
                }
            }) }
        </div>
    }
}
