//! The raft messages on the map: each message the world recorded
//! (`sim::wire`) drawn as a dot on its way from its sender's box to its
//! receiver's, shaped and coloured by its kind (a legend names them), and
//! the message inspector that shows one message's fields.
//!
//! **Flight time.** A message arrives after its time on the network: its
//! wait in its sender's NIC queue and its link's latency (1 ms on the default
//! LAN, far too fast to see). A dot flies [`FLOOR_MS`] of real time plus that
//! time at the page's speed (at most [`CEILING_MS`]): every dot can be
//! followed, and a message on a 200 ms link flies visibly longer than one on
//! the LAN (0.7 s against 0.5 s at 1x, 2.5 s against 0.5 s at 0.1x). A reply leaves
//! once the dot of the message it answers has arrived (a heartbeat lands,
//! then its reply flies back), so the exchange reads in order. While a dot of
//! the same sender, receiver and kind is still flying, a new one is not
//! drawn: at high speed one dot stands for many messages (the skipped ones
//! are counted). A dropped message flies part-way and fades where it stops.
//!
//! **Two ways of moving.** While the clock plays, the page renders every
//! frame, and each dot's `transform` is set for the time since it left. On a
//! still page (paused, or one tick) nothing renders, so a dot flies by a CSS
//! animation (`.dot.still`, styles/map.css) that the compositor runs.

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::view::WorldView;
use crate::sim::wire::{Wire, WireKind};

/// The least time (real ms) a dot is on its way: what it flies on top of
/// its time on the network at the page's speed.
pub const FLOOR_MS: f64 = 500.0;
/// The most time (real ms) a dot is on its way, however slow the link.
pub const CEILING_MS: f64 = 8000.0;
/// How long a dropped message's dot lives: it stops at [`DROP_AT`] of its
/// way after 60 % of it, then fades.
const DROP_MS: f64 = 700.0;
const DROP_AT: f64 = 0.45;

/// A map point (SVG units).
pub type Point = (f64, f64);

/// One dot: the message it draws, when it leaves (`Date.now()` ms, later
/// than now for a reply waiting for its request to land) and for how long it
/// flies.
#[derive(Clone, Debug)]
pub struct Flight {
    pub wire: Wire,
    pub born: f64,
    pub dur: f64,
    /// Set the first time it is drawn on a still page: its animation's delay
    /// (ms; negative once on its way), kept so a re-render does not restart it.
    still_delay: Option<f64>,
}

impl Flight {
    /// Where it is (0: its sender's edge, 1: its receiver's) and its
    /// opacity, at real time `now`; `None` before it leaves or after it
    /// landed or faded.
    pub fn at(&self, now: f64) -> Option<(f64, f64)> {
        if now < self.born {
            return None;
        }
        let p = (now - self.born) / self.dur;
        if p >= 1.0 {
            return None;
        }
        if self.wire.dropped {
            let along = DROP_AT * (p / 0.6).min(1.0);
            let opacity = if p < 0.6 { 1.0 } else { 1.0 - (p - 0.6) / 0.4 };
            return Some((along, opacity));
        }
        Some((p, 1.0))
    }

    fn ends(&self) -> f64 {
        self.born + self.dur
    }
}

/// The dots on their way, and what the map saw last.
#[derive(Default, Debug)]
pub struct Sky {
    /// Whether a view was taken yet (the first one's messages are the past).
    seen: bool,
    /// The newest message number taken (`None`: none yet).
    last_seq: Option<u64>,
    /// The simulated time of the last view taken.
    last_ms: u64,
    pub flying: Vec<Flight>,
    /// Messages not drawn because a dot of the same kind and pair flew.
    pub skipped: u64,
    /// The campaigns seen in the messages, newest last.
    pub campaigns: Vec<Campaign>,
}

/// A campaign as its messages tell it: a candidate's vote (or pre-vote)
/// requests at a term, and the replies it got, each counted when its dot
/// lands. raft's own tally lasts as long as a round trip (a millisecond or
/// two of simulated time, between two frames); this one is paced by the dots.
#[derive(Clone, Debug, PartialEq)]
pub struct Campaign {
    pub candidate: Rc<str>,
    pub term: u64,
    pub pre: bool,
    /// When each granting reply's dot lands (real ms).
    pub granted: Vec<f64>,
    /// When each refusing reply's dot lands (real ms).
    pub rejected: Vec<f64>,
    /// When its last dot lands.
    pub last: f64,
    /// When it was first drawn on a still page (real ms): its tally's
    /// animations count from there, so a re-render does not restart them.
    still_at: Option<f64>,
}

/// How long a campaign's tally stays after its last reply landed (real ms).
pub const TALLY_MS: f64 = 2500.0;

impl Campaign {
    /// (granted, rejected) by real time `now`, the candidate's own vote
    /// included.
    pub fn count(&self, now: f64) -> (usize, usize) {
        let by = |v: &[f64]| v.iter().filter(|&&t| t <= now).count();
        (1 + by(&self.granted), by(&self.rejected))
    }

    /// The tally's states from `now` on: (from, until, granted, rejected),
    /// each reply's landing a new state, the last until the tally goes.
    pub fn states(&self, now: f64) -> Vec<(f64, f64, usize, usize)> {
        let mut times: Vec<f64> = self
            .granted
            .iter()
            .chain(&self.rejected)
            .copied()
            .filter(|&t| t > now)
            .collect();
        times.sort_by(f64::total_cmp);
        let mut out = Vec::with_capacity(times.len() + 1);
        let mut from = now;
        for t in times {
            let (g, r) = self.count(from);
            out.push((from, t, g, r));
            from = t;
        }
        let (g, r) = self.count(from);
        out.push((from, self.last + TALLY_MS, g, r));
        out
    }
}

impl Sky {
    /// Takes a view's messages at real time `now`, the page's clock playing
    /// at `speed`: each message newer than the last one taken gets a dot.
    /// A view from another world (a reset, a replay, a move back in time)
    /// starts the sky afresh, with nothing in flight.
    pub fn take(&mut self, view: &WorldView, now: f64, speed: f64) {
        let newest = view.wire.last().map(|w| w.seq);
        let another_world = view.now_ms < self.last_ms
            || matches!((newest, self.last_seq), (Some(n), Some(l)) if n < l);
        self.last_ms = view.now_ms;
        if another_world || !self.seen {
            self.seen = true;
            self.flying.clear();
            self.campaigns.clear();
            self.last_seq = newest;
            return;
        }
        let last = self.last_seq;
        for w in view.wire.iter().filter(|w| last.is_none_or(|l| w.seq > l)) {
            self.launch(w, now, speed);
        }
        if newest.is_some() {
            self.last_seq = newest;
        }
        self.flying.retain(|f| now < f.ends());
        self.campaigns.retain(|c| now < c.last + TALLY_MS);
    }

    /// Counts a vote request or reply in its campaign; `lands` is when its
    /// dot arrives.
    fn tally(&mut self, w: &Wire, lands: f64) {
        let pre = match w.kind {
            WireKind::Vote | WireKind::VoteResponse => false,
            WireKind::PreVote | WireKind::PreVoteResponse => true,
            _ => return,
        };
        let candidate = if w.kind.is_response() { &w.to } else { &w.from };
        let i = match self
            .campaigns
            .iter()
            .position(|c| c.candidate == *candidate && c.term == w.term && c.pre == pre)
        {
            Some(i) => i,
            None if w.kind.is_response() => return,
            None => {
                self.campaigns.push(Campaign {
                    candidate: candidate.clone(),
                    term: w.term,
                    pre,
                    granted: Vec::new(),
                    rejected: Vec::new(),
                    last: lands,
                    still_at: None,
                });
                self.campaigns.len() - 1
            }
        };
        let c = &mut self.campaigns[i];
        c.last = c.last.max(lands);
        if w.kind.is_response() {
            if w.reject {
                c.rejected.push(lands);
            } else {
                c.granted.push(lands);
            }
        }
    }

    fn launch(&mut self, w: &Wire, now: f64, speed: f64) {
        let same =
            |f: &&Flight| f.wire.from == w.from && f.wire.to == w.to && f.wire.kind == w.kind;
        if self.flying.iter().filter(same).any(|f| now < f.ends()) {
            self.skipped += 1;
            self.tally(w, now + FLOOR_MS);
            return;
        }
        // A reply leaves when the dot of what it answers has landed.
        let answered = self
            .flying
            .iter()
            .filter(|f| f.wire.from == w.to && f.wire.to == w.from)
            .filter(|f| w.kind.is_response() && f.wire.kind == w.kind.request())
            .map(Flight::ends)
            .fold(now, f64::max);
        let dur = if w.dropped {
            DROP_MS
        } else {
            flight_ms(w.arrive_ms.saturating_sub(w.sent_ms), speed)
        };
        if !w.dropped {
            self.tally(w, answered + dur);
        }
        self.flying.push(Flight {
            wire: w.clone(),
            born: answered,
            dur,
            still_delay: None,
        });
    }
}

/// How long (real ms) a dot flies for a message `on_way_ms` simulated ms
/// on its way, at the page's `speed`: the floor plus that time at the speed,
/// never more than the ceiling.
pub fn flight_ms(on_way_ms: u64, speed: f64) -> f64 {
    (FLOOR_MS + on_way_ms as f64 / speed.max(1e-3)).min(CEILING_MS)
}

/// Where a dot leaves and lands between boxes centred at `a` and `b` of
/// half-sizes `ha` and `hb`: on the boxes' edges (so no box hides it),
/// moved a little to the side of its direction, so messages and their
/// replies fly in two lanes.
pub fn lane(a: Point, b: Point, (ha, hb): (Point, Point)) -> (Point, Point) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy);
    if len < 1e-6 {
        return (a, b);
    }
    // the share of the way from a box's centre to its edge (a half-size
    // over no distance is infinite: that side is never crossed)
    let exit = |half: Point| (half.0 / dx.abs()).min(half.1 / dy.abs()).min(0.45);
    let (ta, tb) = (exit(ha), exit(hb));
    let (nx, ny) = (-dy / len * 5.0, dx / len * 5.0);
    (
        (a.0 + dx * ta + nx, a.1 + dy * ta + ny),
        (b.0 - dx * tb + nx, b.1 - dy * tb + ny),
    )
}

/// A dot's shape, centred on (0, 0): replies have their request's shape,
/// drawn hollow (`.reply`).
fn shape(kind: WireKind) -> Html {
    match kind.request() {
        WireKind::Heartbeat => html! { <circle r="5.5" /> },
        WireKind::Append => html! { <rect x="-5.5" y="-5.5" width="11" height="11" /> },
        WireKind::Vote => html! { <polygon points="0,-8 8,0 0,8 -8,0" /> },
        WireKind::PreVote => html! { <polygon points="0,-8 7,5 -7,5" /> },
        WireKind::Snapshot => html! { <rect x="-9" y="-7" width="18" height="14" rx="2" /> },
        _ => html! { <circle r="3.5" /> },
    }
}

/// The classes of a dot of `kind`.
fn dot_classes(kind: WireKind) -> Classes {
    classes!(
        "dot",
        format!("k-{}", kind.request().name()),
        kind.is_response().then_some("reply")
    )
}

/// The kinds the key shows (a reply stands for every reply: the same shape,
/// hollow).
const KEY_KINDS: [WireKind; 6] = [
    WireKind::Heartbeat,
    WireKind::HeartbeatResponse,
    WireKind::Append,
    WireKind::Vote,
    WireKind::PreVote,
    WireKind::Snapshot,
];

/// A dot of `kind` as a small inline picture, `px` wide.
fn key_dot(kind: WireKind, px: &'static str) -> Html {
    html! {
        <svg class="legend-dot" viewBox="-10 -10 20 20" width={px} height={px} aria-hidden="true">
            <g class={dot_classes(kind)}>{ shape(kind) }</g>
        </svg>
    }
}

/// The message shapes in a row, for the folded key's summary.
#[function_component(MsgShapes)]
pub fn msg_shapes() -> Html {
    html! {
        <span class="msg-shapes" aria-hidden="true">
            { for KEY_KINDS.iter().map(|&k| key_dot(k, "13")) }
        </span>
    }
}

/// The legend of message kinds (under the map, beside the states'), drawn
/// once, not on every frame.
#[function_component(MsgLegend)]
pub fn legend() -> Html {
    html! {
        <ul class="msg-legend" data-testid="msg-legend" aria-label="The message dots' shapes">
            { for KEY_KINDS.iter().map(|&k| html! { <li>{ key_dot(k, "16") }{ k.label() }</li> }) }
            <li class="muted">{ "hollow: the reply · stops and fades (✕): dropped · a dot flies 0.5 s plus its time on the network at the page's speed, so a slow link's dots fly longer" }</li>
        </ul>
    }
}

/// The dots of `sky` at real time `now` (`still`: as CSS animations); a
/// click on one emits its message number. `half(name, dy)` is the half-size
/// of a machine's box as seen by a dot leaving it (or arriving) with a
/// vertical direction `dy`: taller downwards under a NIC gauge, so the dot
/// starts clear of the gauge too.
pub fn dots(
    sky: &mut Sky,
    at: &dyn Fn(&str) -> Option<Point>,
    half: &dyn Fn(&str, f64) -> Point,
    now: f64,
    still: bool,
    reduced: bool,
    on_pick: &Callback<u64>,
) -> Html {
    let mut out = Vec::with_capacity(sky.flying.len());
    for f in sky.flying.iter_mut() {
        let (Some(a), Some(b)) = (at(&f.wire.from), at(&f.wire.to)) else {
            continue;
        };
        let halves = (half(&f.wire.from, b.1 - a.1), half(&f.wire.to, a.1 - b.1));
        let (p0, p1) = lane(a, b, halves);
        out.push(if still {
            still_dot(f, p0, p1, now)
        } else {
            f.still_delay = None;
            moving_dot(f, p0, p1, if reduced { f.ends() - 1.0 } else { now })
        });
    }
    // one listener for every dot: the clicked dot's message number
    let pick = on_pick.clone();
    let onclick = Callback::from(move |e: MouseEvent| {
        let seq = e
            .target()
            .and_then(|t| {
                use wasm_bindgen::JsCast;
                t.dyn_into::<web_sys::Element>().ok()
            })
            .and_then(|el| el.closest("[data-seq]").ok().flatten())
            .and_then(|g| g.get_attribute("data-seq"))
            .and_then(|s| s.parse::<u64>().ok());
        if let Some(seq) = seq {
            pick.emit(seq);
        }
    });
    html! { <g class="flights" {onclick}>{ for out }</g> }
}

/// Each recent campaign's tally under its candidate's box: "votes 1 of 3 ·
/// 2 needed", counting each reply as its dot lands. While the clock plays,
/// the state of this frame; on a still page, every state to come, each shown
/// in its own time by a CSS animation (`.tally.still`), as still dots fly.
pub fn tallies(
    sky: &mut Sky,
    at: &dyn Fn(&str) -> Option<Point>,
    below: f64,
    voters: usize,
    now: f64,
    still: bool,
) -> Html {
    // each candidate's newest campaign
    let mut candidates = std::collections::BTreeSet::new();
    let shown: Vec<usize> = (0..sky.campaigns.len())
        .rev()
        .filter(|&i| candidates.insert(sky.campaigns[i].candidate.clone()))
        .collect();
    let mut items = Vec::new();
    for i in shown {
        let c = &mut sky.campaigns[i];
        let Some((x, y)) = at(&c.candidate) else {
            continue;
        };
        let key = format!("{}-{}-{}", c.candidate, c.term, c.pre);
        let (x, y) = (format!("{x:.1}"), format!("{:.1}", y + below));
        let line = |g: usize, r: usize, style: Option<String>| {
            let needed = voters / 2 + 1;
            let what = if c.pre { "pre-votes" } else { "votes" };
            let mut text = format!("{what} {g} of {voters} · {needed} needed");
            if r > 0 {
                text.push_str(&format!(" · {r} refused"));
            }
            if g >= needed {
                text.push_str(" ✔");
            }
            let class = classes!(
                "votes",
                (g >= needed).then_some("won"),
                style.is_some().then_some("still")
            );
            html! {
                <text key={format!("{key}-{g}-{r}")} {class} {style} data-testid="votes" data-machine={c.candidate.to_string()}
                    data-granted={g.to_string()} data-pre={c.pre.to_string()}
                    x={x.clone()} y={y.clone()} text-anchor="middle">{ text }</text>
            }
        };
        if !still {
            c.still_at = None;
            let (g, r) = c.count(now);
            items.push(line(g, r, None));
            continue;
        }
        let origin = *c.still_at.get_or_insert(now);
        for (from, until, g, r) in c.states(origin) {
            let style = format!("animation-delay:{:.0}ms,{:.0}ms", from - now, until - now);
            items.push(line(g, r, Some(style)));
        }
    }
    html! { <g class="tallies" aria-hidden="true">{ for items }</g> }
}

/// A still dot's tooltip (a moving one is gone before a tooltip shows).
fn title(w: &Wire) -> String {
    format!("{} {} → {}, term {}", w.type_name, w.from, w.to, w.term)
}

fn moving_dot(f: &Flight, (x0, y0): Point, (x1, y1): Point, now: f64) -> Html {
    let Some((p, opacity)) = f.at(now) else {
        return Html::default();
    };
    let (seq, kind) = (f.wire.seq.to_string(), f.wire.kind.name());
    let (x, y) = (x0 + (x1 - x0) * p, y0 + (y1 - y0) * p);
    // fill and stroke opacity, not `opacity`: a group's opacity would make
    // every dot a layer of its own to paint; a moving dot has no tooltip
    // either (it is gone before one shows; the inspector tells it)
    let fade = (opacity < 1.0).then(|| format!("{opacity:.2}"));
    let class = classes!(
        dot_classes(f.wire.kind),
        f.wire.dropped.then_some("dropped")
    );
    html! {
        <g key={seq.clone()} {class} data-testid="msg" data-kind={kind} data-seq={seq} data-dropped={f.wire.dropped.to_string()}
            transform={format!("translate({x:.1} {y:.1})")} fill-opacity={fade.clone()} stroke-opacity={fade}>
            { shape(f.wire.kind) }
            if f.wire.dropped { <text class="drop-mark" x="7" y="-6">{ "✕" }</text> }
        </g>
    }
}

fn still_dot(f: &mut Flight, (x0, y0): Point, (x1, y1): Point, now: f64) -> Html {
    if now >= f.ends() {
        return Html::default();
    }
    let delay = *f.still_delay.get_or_insert(f.born - now);
    let (seq, kind, title) = (f.wire.seq.to_string(), f.wire.kind.name(), title(&f.wire));
    let (dx, dy) = if f.wire.dropped {
        ((x1 - x0) * DROP_AT, (y1 - y0) * DROP_AT)
    } else {
        (x1 - x0, y1 - y0)
    };
    let style = format!(
        "--x0:{x0:.1}px;--y0:{y0:.1}px;--x1:{:.1}px;--y1:{:.1}px;animation-duration:{:.0}ms;animation-delay:{delay:.0}ms",
        x0 + dx,
        y0 + dy,
        f.dur
    );
    let class = classes!(
        dot_classes(f.wire.kind),
        "still",
        f.wire.dropped.then_some("dropped")
    );
    html! {
        <g key={seq.clone()} {class} data-testid="msg" data-kind={kind} data-seq={seq} data-dropped={f.wire.dropped.to_string()} {style}>
            <title>{ title }</title>
            { shape(f.wire.kind) }
            if f.wire.dropped { <text class="drop-mark" x="7" y="-6">{ "✕" }</text> }
        </g>
    }
}

#[derive(Properties, PartialEq)]
pub struct InspectorProps {
    /// The messages of the moment shown (the view's newest), oldest first.
    pub recent: Rc<[Wire]>,
    pub picked: Option<Wire>,
    pub playing: bool,
    pub on_pick: Callback<Option<Wire>>,
}

/// How many of the moment's messages the paused list offers.
const LISTED: usize = 8;

/// The message inspector: the picked message's fields, and while the clock
/// is paused, the moment's newest messages to pick from.
#[function_component(Inspector)]
pub fn inspector(props: &InspectorProps) -> Html {
    let list = (!props.playing).then(|| {
        let items = props.recent.iter().rev().take(LISTED).map(|w| {
            let wire = w.clone();
            let onclick = props.on_pick.reform(move |_: MouseEvent| Some(wire.clone()));
            let on = props.picked.as_ref().is_some_and(|p| p.seq == w.seq);
            html! {
                <li key={w.seq.to_string()}>
                    <button class={classes!("link-like", on.then_some("on"))} data-testid="msg-item"
                        data-kind={w.kind.name()} aria-pressed={on.to_string()} {onclick}>
                        { key_dot(w.kind, "12") }
                        { format!("{} → {} {}{}", w.from, w.to, w.kind.label(), if w.dropped { " (dropped)" } else { "" }) }
                    </button>
                </li>
            }
        });
        html! {
            <details class="msg-list" data-testid="msg-list">
                <summary>{ "Messages of this moment" }</summary>
                if props.recent.is_empty() {
                    <p class="small muted">{ "No raft messages yet." }</p>
                } else {
                    <ul>{ for items }</ul>
                }
            </details>
        }
    });
    let card = props.picked.as_ref().map(|w| {
        let close = props.on_pick.reform(|_: MouseEvent| None);
        html! {
            <section class="inspector" data-testid="inspector" aria-label="The message inspector" data-kind={w.kind.name()}>
                <header>
                    <strong>{ w.type_name }</strong>{ format!(" — {}", w.kind.label()) }
                    <button class="link-button" onclick={close} aria-label="close the inspector">{ "×" }</button>
                </header>
                <dl>{ for fields(w).into_iter().map(|(k, v)| html! { <><dt>{ k }</dt><dd>{ v }</dd></> }) }</dl>
            </section>
        }
    });
    html! { <div class="msg-tools">{ for list }{ for card }</div> }
}

/// The fields the inspector lists, as (name, value).
pub fn fields(w: &Wire) -> Vec<(&'static str, String)> {
    let mut v = vec![
        ("from", format!("{} ({:x})", w.from, w.from_id)),
        ("to", format!("{} ({:x})", w.to, w.to_id)),
        ("term", w.term.to_string()),
        ("index", w.index.to_string()),
        ("log term", w.log_term.to_string()),
        ("entries", w.entries.to_string()),
        ("commit", w.commit.to_string()),
    ];
    if w.kind.is_response() {
        v.push(("reject", w.reject.to_string()));
    }
    v.push(("sent", crate::sim::view::elapsed_text(w.sent_ms)));
    v.push((
        if w.dropped { "dropped" } else { "arrives" },
        if w.dropped {
            "at its sender: the link is cut, the peer unreachable, or the sender's NIC queue full"
                .to_string()
        } else {
            format!(
                "{} ({} ms later)",
                crate::sim::view::elapsed_text(w.arrive_ms),
                w.arrive_ms - w.sent_ms
            )
        },
    ));
    v
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn wire(seq: u64, from: &str, to: &str, kind: WireKind, sent: u64, lat: Option<u64>) -> Wire {
        Wire {
            seq,
            from: from.into(),
            to: to.into(),
            kind,
            type_name: "Msg",
            from_id: 1,
            to_id: 2,
            term: 2,
            index: 0,
            log_term: 0,
            entries: 0,
            commit: 0,
            reject: false,
            sent_ms: sent,
            arrive_ms: sent + lat.unwrap_or(0),
            dropped: lat.is_none(),
        }
    }

    fn view(now_ms: u64, wire: Vec<Wire>) -> WorldView {
        WorldView {
            now_ms,
            wire: wire.into(),
            ..WorldView::default()
        }
    }

    #[wasm_bindgen_test]
    fn a_reply_leaves_when_its_request_lands() {
        let mut sky = Sky::default();
        sky.take(&view(0, vec![]), 0.0, 1.0);
        let hb = wire(0, "a", "b", WireKind::Heartbeat, 100, Some(1));
        let re = wire(1, "b", "a", WireKind::HeartbeatResponse, 101, Some(1));
        sky.take(&view(101, vec![hb, re]), 10.0, 1.0);
        assert_eq!(sky.flying.len(), 2);
        let (h, r) = (&sky.flying[0], &sky.flying[1]);
        assert_eq!((h.born, h.dur), (10.0, FLOOR_MS + 1.0));
        assert_eq!(r.born, 10.0 + FLOOR_MS + 1.0);
        assert!(r.at(20.0).is_none(), "the reply waits");
        assert!(h.at(20.0).is_some() && r.at(10.0 + FLOOR_MS + 2.0).is_some());
    }

    #[wasm_bindgen_test]
    fn one_dot_per_pair_and_kind_at_a_time() {
        let mut sky = Sky::default();
        sky.take(&view(0, vec![]), 0.0, 1.0);
        let ws: Vec<Wire> = (0..5)
            .map(|i| wire(i, "a", "b", WireKind::Heartbeat, 100 * i, Some(1)))
            .collect();
        sky.take(&view(500, ws), 0.0, 100.0);
        assert_eq!((sky.flying.len(), sky.skipped), (1, 4));
        // a slow link at a slow speed flies its latency on top of the floor
        let slow = wire(5, "b", "c", WireKind::Append, 600, Some(200));
        sky.take(&view(600, vec![slow]), 1.0, 0.1);
        let f = sky.flying.last().expect("a dot");
        assert_eq!(f.dur, FLOOR_MS + 2000.0);
    }

    #[wasm_bindgen_test]
    fn a_slow_link_flies_longer_than_the_lan_at_every_speed() {
        for speed in [0.1, 0.5, 1.0, 2.0, 5.0] {
            let (lan, slow) = (flight_ms(1, speed), flight_ms(200, speed));
            assert!(lan >= FLOOR_MS && slow > lan, "{speed}x: {lan} {slow}");
        }
        // at 1x the difference is the latency itself: 0.2 s more
        assert_eq!(flight_ms(200, 1.0) - flight_ms(1, 1.0), 199.0);
        // a queue of a minute flies the ceiling, not a minute
        assert_eq!(flight_ms(60_000, 1.0), CEILING_MS);
    }

    #[wasm_bindgen_test]
    fn a_dropped_dot_stops_part_way_and_fades() {
        let mut sky = Sky::default();
        sky.take(&view(0, vec![]), 0.0, 1.0);
        sky.take(
            &view(5, vec![wire(0, "a", "b", WireKind::Append, 5, None)]),
            0.0,
            1.0,
        );
        let f = &sky.flying[0];
        let (along, o) = f.at(DROP_MS * 0.9).expect("fading");
        assert!((along - DROP_AT).abs() < 1e-9 && o < 0.5);
        assert!(f.at(DROP_MS).is_none());
    }

    #[wasm_bindgen_test]
    fn another_world_clears_the_sky() {
        let mut sky = Sky::default();
        sky.take(&view(0, vec![]), 0.0, 1.0);
        sky.take(
            &view(5, vec![wire(7, "a", "b", WireKind::Append, 5, Some(1))]),
            0.0,
            1.0,
        );
        assert_eq!(sky.flying.len(), 1);
        sky.take(
            &view(3, vec![wire(2, "a", "b", WireKind::Append, 3, Some(1))]),
            1.0,
            1.0,
        );
        assert!(sky.flying.is_empty());
    }

    #[wasm_bindgen_test]
    fn a_campaign_counts_each_granted_vote_as_its_dot_lands() {
        let mut sky = Sky::default();
        sky.take(&view(0, vec![]), 0.0, 1.0);
        let mut ask = wire(0, "b", "a", WireKind::Vote, 10, Some(1));
        ask.term = 4;
        let mut yes = wire(1, "a", "b", WireKind::VoteResponse, 11, Some(1));
        yes.term = 4;
        let mut ask2 = wire(2, "b", "c", WireKind::Vote, 10, Some(1));
        ask2.term = 4;
        let mut no = wire(3, "c", "b", WireKind::VoteResponse, 11, Some(1));
        (no.term, no.reject) = (4, true);
        sky.take(&view(11, vec![ask, yes, ask2, no]), 0.0, 1.0);
        let c = &sky.campaigns[0];
        assert_eq!((&*c.candidate, c.term, c.pre), ("b", 4, false));
        // each dot flies the floor and its 1 ms at 1x
        let dot = flight_ms(1, 1.0);
        assert_eq!(
            c.count(dot),
            (1, 0),
            "only its own vote while the request flies"
        );
        assert_eq!(
            c.count(2.0 * dot),
            (2, 1),
            "each reply counts when it lands"
        );
        sky.take(&view(12, vec![]), 2.0 * dot + TALLY_MS + 1.0, 1.0);
        assert!(sky.campaigns.is_empty(), "a tally stays a while, then goes");
    }

    #[wasm_bindgen_test]
    fn lanes_start_and_end_outside_the_boxes() {
        let half = (100.0, 44.0);
        let ((x0, y0), (x1, _)) = lane((0.0, 0.0), (400.0, 0.0), (half, half));
        assert!(x0 >= 100.0 && x1 <= 300.0 && y0.abs() > 1.0);
        // the reply's lane is the other side of the line
        let ((_, y0r), _) = lane((400.0, 0.0), (0.0, 0.0), (half, half));
        assert!(y0 * y0r < 0.0);
        // a box taller below (a NIC gauge under it): a dot going down leaves its foot
        let tall = (100.0, 80.0);
        let ((_, y0), (_, y1)) = lane((0.0, 0.0), (0.0, 400.0), (tall, half));
        assert!(
            (y0 - 80.0).abs() < 1e-9 && (y1 - 356.0).abs() < 1e-9,
            "{y0} {y1}"
        );
    }
}
