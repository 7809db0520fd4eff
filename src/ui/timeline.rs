//! The timeline: term over time as a step line, the leader named where it
//! changes, a band that is solid where the cluster could commit and hatched
//! where quorum was lost, and markers for faults (▲), membership changes (●),
//! etcd starts (◆) and quorum lost/regained, each with its command as a tooltip.
//! Under it, a slider that moves through the run: dragged back, the page shows
//! that moment (a replay) and the chart keeps the run's future, dimmed, until
//! the person acts there and forks it. The chart's x-axis and the slider
//! cover the same stretch (the run's first moment to its last) and line up on
//! the screen: the slider's thumb at a moment sits over that moment's x.

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::view::visible_string;

use super::state::{MarkerKind, Timeline};

const W: f64 = 1200.0;
const H: f64 = 130.0;
const LEFT: f64 = 56.0;
/// The plot's right margin: the slider under the chart spans LEFT to W - RIGHT.
const RIGHT: f64 = 10.0;
const TOP: f64 = 22.0;
const PLOT_H: f64 = 70.0;
const BAND_Y: f64 = 100.0;
const BAND_H: f64 = 12.0;

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// The run's timeline (the whole run's while an earlier moment shows).
    pub timeline: Rc<Timeline>,
    /// The moment shown.
    pub now_ms: u64,
    /// The run's first moment: the slider's left end.
    pub origin_ms: u64,
    /// While an earlier moment shows: the run's last moment, kept until the
    /// person acts.
    pub future_end_ms: Option<u64>,
    /// Show this moment (a slider move, or "back to the end").
    pub on_seek: Callback<u64>,
}

fn fmt_ms(ms: u64) -> String {
    format!("{}:{:02}", ms / 60_000, ms / 1000 % 60)
}

#[function_component(TimelineChart)]
pub fn timeline_chart(props: &TimelineProps) -> Html {
    let tl = &props.timeline;
    // The chart's x-axis is the slider's: from the run's first moment to its
    // last (the style sheet lines the slider's ends up with LEFT and W - RIGHT).
    let start = props.origin_ms;
    let last_ms = props
        .future_end_ms
        .unwrap_or(props.now_ms)
        .max(props.now_ms);
    let end = axis_end(start, last_ms);
    let span = (end - start) as f64;
    let x = |ms: u64| LEFT + (ms.clamp(start, end) - start) as f64 / span * (W - LEFT - RIGHT);
    let max_term = tl.samples.iter().map(|s| s.term).max().unwrap_or(1).max(1) as f64;
    let y = |term: u64| TOP + PLOT_H - term as f64 / max_term * PLOT_H;
    let mut path = String::new();
    let mut band = Vec::new();
    let mut labels = Vec::new();
    let mut last_label_x = f64::NEG_INFINITY;
    for (i, s) in tl.samples.iter().enumerate() {
        let next_ms = tl.samples.get(i + 1).map(|n| n.ms).unwrap_or(last_ms);
        let (x0, x1) = (x(s.ms), x(next_ms.max(s.ms)));
        let (cmd, ys) = (if path.is_empty() { "M" } else { "L" }, y(s.term));
        path.push_str(&format!("{cmd}{x0:.1},{ys:.1} L{x1:.1},{ys:.1} "));
        let class = if s.quorum { "band ok" } else { "band lost" };
        band.push(html! { <rect class={class} x={format!("{x0:.1}")} y={BAND_Y.to_string()} width={format!("{:.1}", (x1 - x0).max(0.5))} height={BAND_H.to_string()} /> });
        let leader_changed = i == 0 || tl.samples[i - 1].leader != s.leader;
        if leader_changed && x0 - last_label_x > 70.0 {
            last_label_x = x0;
            let text = match &s.leader {
                Some(l) => format!("{l} · t{}", s.term),
                None => "no leader".to_string(),
            };
            // Near the right end a label ends at its change instead of running off the chart.
            let anchor = if x0 > W - 160.0 { "end" } else { "start" };
            labels.push(html! { <text class="tl-label" x={format!("{x0:.1}")} y={format!("{:.1}", y(s.term) - 4.0)} text-anchor={anchor}>{ visible_string(text) }</text> });
        }
    }
    let markers = tl.markers.iter().map(|m| {
        let mx = x(m.ms);
        let (sym, class) = match m.kind {
            MarkerKind::Fault => ("▲", "mk fault"),
            MarkerKind::Membership => ("●", "mk member"),
            MarkerKind::Start => ("◆", "mk start"),
            MarkerKind::QuorumLost => ("✖", "mk lost"),
            MarkerKind::QuorumRegained => ("✔", "mk ok"),
        };
        html! {
            <g class={class}>
                <title>{ visible_string(format!("{} at t+{}", m.label, fmt_ms(m.ms))) }</title>
                <line x1={format!("{mx:.1}")} x2={format!("{mx:.1}")} y1="12" y2={format!("{}", BAND_Y + BAND_H)} />
                <text x={format!("{mx:.1}")} y="11" text-anchor="middle">{ sym }</text>
            </g>
        }
    });
    let last = tl.samples.last();
    let summary = match last {
        Some(s) => format!(
            "term {} now, leader {}, {}; {} markers since t+{}",
            s.term,
            s.leader.as_deref().unwrap_or("none"),
            if s.quorum { "quorum ok" } else { "quorum lost" },
            tl.markers.len(),
            fmt_ms(start)
        ),
        None => "no samples yet".to_string(),
    };
    html! {
        <div class="timeline">
            <h2>{ "Timeline — term and leader" }</h2>
            <svg viewBox={format!("0 0 {W} {H}")} class="timeline-svg" role="img" aria-label={visible_string(summary.clone())} data-testid="timeline">
                <defs>
                    <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                        <rect width="6" height="6" class="hatch-bg" />
                        <line x1="0" y1="0" x2="0" y2="6" class="hatch-line" />
                    </pattern>
                </defs>
                <text class="axis" x="2" y={format!("{}", TOP + 4.0)}>{ format!("t{}", max_term as u64) }</text>
                <text class="axis" x="2" y={format!("{}", TOP + PLOT_H)}>{ "t0" }</text>
                <text class="axis" x="2" y={format!("{}", BAND_Y + BAND_H - 2.0)}>{ "quorum" }</text>
                { for band }
                <path class="term-line" d={path} />
                { for labels }
                { for markers }
                { future_veil(props, &x) }
                <text class="axis" x={LEFT.to_string()} y={format!("{}", H - 4.0)}>{ format!("t+{}", fmt_ms(start)) }</text>
                <text class="axis" x={format!("{}", W - RIGHT)} y={format!("{}", H - 4.0)} text-anchor="end">{ format!("t+{}", fmt_ms(end)) }</text>
            </svg>
            { seek_bar(props, last_ms) }
            <p class="small muted">{ "▲ fault  ● membership change  ◆ etcd started  ✖ quorum lost  ✔ quorum regained; band: solid = can commit, hatched = quorum lost" }</p>
        </div>
    }
}

/// While an earlier moment shows: the kept future dimmed, and a cursor at the
/// moment shown.
fn future_veil(props: &TimelineProps, x: &dyn Fn(u64) -> f64) -> Html {
    let Some(end) = props.future_end_ms else {
        return Html::default();
    };
    let (x0, x1) = (x(props.now_ms), x(end));
    html! {
        <g class="future" data-testid="timeline-future">
            <rect class="future-veil" x={format!("{x0:.1}")} y="12" width={format!("{:.1}", (x1 - x0).max(0.0))} height={format!("{}", BAND_Y + BAND_H - 12.0)} />
            <line class="cursor" x1={format!("{x0:.1}")} x2={format!("{x0:.1}")} y1="12" y2={format!("{}", BAND_Y + BAND_H)} />
        </g>
    }
}

/// The slider's and the chart's last moment: the run's last, rounded up to
/// the slider's 100 ms step from the first moment (a range input's thumb
/// only reaches its max on a step; a seek past the run's end shows the end),
/// and at least one step.
fn axis_end(origin_ms: u64, last_ms: u64) -> u64 {
    let steps = last_ms.saturating_sub(origin_ms).div_ceil(STEP_MS).max(1);
    origin_ms + steps * STEP_MS
}

/// The slider's step, ms.
const STEP_MS: u64 = 100;

/// The slider through the run, and while an earlier moment shows, what acting
/// there does and a way back to the end.
fn seek_bar(props: &TimelineProps, last_ms: u64) -> Html {
    let on_seek = props.on_seek.clone();
    let oninput = Callback::from(move |e: InputEvent| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        if let Ok(ms) = input.value().parse::<f64>() {
            if ms.is_finite() && ms >= 0.0 {
                on_seek.emit(ms as u64);
            }
        }
    });
    // The note is always in the DOM (hidden while the end shows): a node
    // inserted after the slider makes Yew re-insert the slider before it, and
    // a detached range input ends the pointer's drag (one 0.5 s step).
    let rewound = props.future_end_ms.map(|end| {
        let on_seek = props.on_seek.clone();
        html! {
            <>
                { format!("Showing t+{} of t+{}. Type, click, step or play to go on from here: the rest of the run is then replaced. ", fmt_ms(props.now_ms), fmt_ms(end)) }
                <button data-testid="seek-end" onclick={Callback::from(move |_| on_seek.emit(end))}>{ "Back to the end" }</button>
            </>
        }
    });
    // At the end of the run the thumb sits at the slider's end (the moment's
    // own step could be short of it).
    let shown = match props.future_end_ms {
        None => axis_end(props.origin_ms, last_ms),
        Some(_) => props.now_ms,
    };
    html! {
        <div class="seek">
            <label key="label" class="small" for="seek">{ "Moment shown" }</label>
            <input key="seek" id="seek" type="range" data-testid="seek" min={props.origin_ms.to_string()}
                max={axis_end(props.origin_ms, last_ms).to_string()} step={STEP_MS.to_string()} value={shown.to_string()}
                aria-valuetext={format!("t+{}", fmt_ms(props.now_ms))} {oninput} />
            <p key="rewound" class="rewound small" role="status" data-testid={rewound.is_some().then_some("rewound")}
                hidden={rewound.is_none()}>
                { rewound.unwrap_or_default() }
            </p>
        </div>
    }
}
