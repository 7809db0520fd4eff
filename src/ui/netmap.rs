//! The network on the map (`net delay`, `net loss`, `net rate`), read from
//! the view's `net_links` and `nics`; on a default LAN it draws nothing.
//!
//! - **Links.** Beside the handle of each link whose latency, jitter or loss
//!   is not the default, a label: "200 ms", "±10 ms", "5% loss", a line each.
//!   When both directions agree, one label, on the side away from the map's
//!   centre; when they differ, one per direction that is not the default,
//!   on the side its messages fly (their lane, `flights::lane`), with an
//!   arrow the way they go.
//! - **NICs.** Under each machine whose NIC is limited (or holds a queue),
//!   its rate ("NIC 1mbit · queue") and a gauge of its queue: the bar fills
//!   with the queued bytes over the queue's limit, its text says both, and
//!   once a small raft message no longer fits (rafthttp then holds what it
//!   cannot send in its writer buffer; only a full buffer drops, and that
//!   message's dot stops with ✕) the bar is red and says "full". A
//!   snapshot enters a chunk at a time as the queue drains, so it keeps the
//!   queue at its limit; a client's request waits whole, so it can take the
//!   queue past the limit: the bar stays full and the text says how much.
//!
//! The labels and gauges are models ([`link_labels`], [`nic_gauges`]) the
//! map draws ([`labels`], [`gauges`]) and the tests read.

use std::collections::BTreeMap;

use yew::prelude::*;

use super::map::{Geometry, Point};
use crate::shell::netunits;
use crate::sim::view::{visible_string as shown, LinkView, WorldView};
use crate::sim::world::{LinkSetting, LinkSpec};

/// A queue is full when a raft message this small (a heartbeat is about 20
/// bytes with its frame) no longer fits beside what waits.
pub const SMALL_MESSAGE_BYTES: u64 = 64;

/// A label beside a link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkLabel {
    /// The pair as the map lists it (`LinkView::a`, `b`).
    pub a: String,
    pub b: String,
    /// The direction it tells (from, to); `None`: both ways alike.
    pub way: Option<(String, String)>,
    /// Its lines: latency, jitter, loss, each when not the default.
    pub lines: Vec<String>,
}

impl LinkLabel {
    /// The automation contract's id: `net-link-A-B` for both ways,
    /// `net-link-FROM-TO` for one.
    pub fn testid(&self) -> String {
        match &self.way {
            Some((from, to)) => format!("net-link-{from}-{to}"),
            None => format!("net-link-{}-{}", self.a, self.b),
        }
    }

    /// In words, for a tooltip and a screen reader.
    pub fn words(&self) -> String {
        let what = self.lines.join(", ");
        match &self.way {
            Some((from, to)) => format!("{from} → {to} only: {what}"),
            None => format!("{} ↔ {}, each way: {what}", self.a, self.b),
        }
    }
}

/// A link's settings as the label's lines.
pub fn spec_lines(spec: &LinkSpec) -> Vec<String> {
    let line = |s: LinkSetting| match s {
        LinkSetting::Delay(ms) => format!("{ms} ms"),
        LinkSetting::Jitter(ms) => format!("±{ms} ms"),
        LinkSetting::Loss(ppm) => format!("{} loss", netunits::loss_text(ppm)),
    };
    spec.settings().into_iter().map(line).collect()
}

/// The settings of the link from `from` to `to` in `view`.
fn spec_of(view: &WorldView, from: &str, to: &str) -> LinkSpec {
    view.net_links
        .iter()
        .find(|l| l.from == from && l.to == to)
        .map_or_else(LinkSpec::default, |l| l.spec)
}

/// The labels the map draws, pair by pair in the view's order.
pub fn link_labels(view: &WorldView) -> Vec<LinkLabel> {
    if view.net_links.is_empty() {
        return Vec::new();
    }
    view.links
        .iter()
        .flat_map(|l| pair_labels(view, l))
        .collect()
}

/// One pair's labels: none, one for both ways, or one per direction.
pub fn pair_labels(view: &WorldView, l: &LinkView) -> Vec<LinkLabel> {
    let (ab, ba) = (spec_of(view, &l.a, &l.b), spec_of(view, &l.b, &l.a));
    let label = |way: Option<(&String, &String)>, spec: &LinkSpec| LinkLabel {
        a: l.a.clone(),
        b: l.b.clone(),
        way: way.map(|(f, t)| (f.clone(), t.clone())),
        lines: spec_lines(spec),
    };
    if ab == ba {
        return match ab == LinkSpec::default() {
            true => Vec::new(),
            false => vec![label(None, &ab)],
        };
    }
    [(&l.a, &l.b, ab), (&l.b, &l.a, ba)]
        .into_iter()
        .filter(|(_, _, spec)| *spec != LinkSpec::default())
        .map(|(from, to, spec)| label(Some((from, to)), &spec))
        .collect()
}

/// A NIC's gauge.
#[derive(Debug, Clone, PartialEq)]
pub struct NicGauge {
    pub machine: String,
    /// Its egress rate, as `net rate` writes it (`1mbit`).
    pub rate: String,
    pub queued: u64,
    pub limit: u64,
    /// How full the bar is drawn: queued over limit, at most 1.
    pub fill: f64,
    /// A small raft message no longer fits: raft messages are dropped.
    pub full: bool,
}

impl NicGauge {
    /// The bar's text: "3.9mb / 4mb", "full: 30mb / 4mb".
    pub fn queue_text(&self) -> String {
        let queued = match self.queued {
            0 => "0".to_string(),
            q => size_text(q),
        };
        let full = if self.full { "full: " } else { "" };
        format!("{full}{queued} / {}", size_text(self.limit))
    }

    /// In words, for a tooltip.
    pub fn words(&self) -> String {
        let state = if self.full {
            "Full: a raft message that does not fit is dropped (its dot stops with ✕), as rafthttp drops what it cannot send; a snapshot's bytes wait instead."
        } else {
            "A raft message that does not fit beside what waits is dropped; a snapshot's bytes wait instead."
        };
        format!(
            "{}'s NIC sends {}: {} of its queue of {} waiting. {state}",
            self.machine,
            self.rate,
            size_text(self.queued),
            size_text(self.limit)
        )
    }
}

/// The gauges the map draws, by machine.
pub fn nic_gauges(view: &WorldView) -> Vec<NicGauge> {
    view.nics
        .iter()
        .map(|n| {
            let limit = n.spec.limit_bytes;
            NicGauge {
                machine: n.machine.clone(),
                rate: netunits::rate_text(n.spec.rate_bps),
                queued: n.queued_bytes,
                limit,
                fill: (n.queued_bytes as f64 / limit.max(1) as f64).min(1.0),
                full: n.queued_bytes > 0
                    && n.queued_bytes.saturating_add(SMALL_MESSAGE_BYTES) > limit,
            }
        })
        .collect()
}

/// Bytes in `tc`'s units, as `net rate … limit` takes them: `850b`,
/// `37kb`, `3.9mb`, `4mb` (a decimal only under 10 of a unit).
pub fn size_text(bytes: u64) -> String {
    let units = [(1u64 << 30, "gb"), (1 << 20, "mb"), (1 << 10, "kb")];
    for (scale, unit) in units {
        if bytes >= scale {
            let x = bytes as f64 / scale as f64;
            return if x < 9.95 && !bytes.is_multiple_of(scale) {
                format!("{x:.1}{unit}")
            } else {
                format!("{x:.0}{unit}")
            };
        }
    }
    format!("{bytes}b")
}

/// The height (SVG units) a gauge takes under its machine's box.
pub fn gauge_height(g: Geometry) -> f64 {
    let (font, bar) = sizes(g);
    4.0 + font + 4.0 + bar
}

/// How far a machine's NIC gauge reaches under its box: [`gauge_height`]
/// when it has one, else nothing.
pub fn gauge_under(view: &WorldView, machine: &str, g: Geometry) -> f64 {
    let has = view.nics.iter().any(|n| n.machine == machine);
    if has {
        gauge_height(g)
    } else {
        0.0
    }
}

/// The font size and bar height (SVG units) of the network's marks: the
/// compact map's text is larger, as its other text is (styles/map.css).
fn sizes(g: Geometry) -> (f64, f64) {
    if g.compact {
        (14.5, 18.0)
    } else {
        (12.0, 15.0)
    }
}

/// A text's width estimate (SVG units) at `font`: the page's sans-serif
/// at weight 600 averages under 0.64 em a character in these labels.
fn text_w(text: &str, font: f64) -> f64 {
    text.chars().count() as f64 * font * 0.64
}

/// Where a label of `size` sits beside a handle at `h` on the link from `p`
/// to `q`: along the link's normal on `side` (+1: the lane of p → q), just
/// clear of the handle's circle of radius `r`, so it covers neither the
/// handle nor the line.
pub fn beside(h: Point, p: Point, q: Point, side: f64, size: (f64, f64), r: f64) -> Point {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let len = dx.hypot(dy).max(1e-9);
    let (nx, ny) = (-dy / len * side, dx / len * side);
    let d = r + 4.0 + nx.abs() * size.0 / 2.0 + ny.abs() * size.1 / 2.0;
    (h.0 + nx * d, h.1 + ny * d)
}

/// The side (+1 or -1 of p → q's normal) away from `centre`.
fn outward(h: Point, p: Point, q: Point, centre: Point) -> f64 {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let dot = -dy * (h.0 - centre.0) + dx * (h.1 - centre.1);
    if dot < -1e-6 {
        -1.0
    } else {
        1.0
    }
}

/// A rectangle on the map: (left, top, right, bottom).
pub type Rect = (f64, f64, f64, f64);

fn rect_at((cx, cy): Point, (w, h): (f64, f64)) -> Rect {
    (cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0)
}

fn hits(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

fn within(a: Rect, b: Rect) -> bool {
    a.0 >= b.0 && a.1 >= b.1 && a.2 <= b.2 && a.3 <= b.3
}

/// Where a label of `size` goes: beside its handle ([`beside`]) on the
/// first of `sides` where it fits, moved out along the link's normal and
/// along the link in small steps until it is inside `bounds` and clear of
/// every rectangle `taken` (boxes, gauges, handles, other labels); the
/// plain spot beside the handle when nowhere is.
pub fn place(
    h: Point,
    (p, q): (Point, Point),
    sides: &[f64],
    size: (f64, f64),
    taken: &[Rect],
    bounds: Rect,
) -> Point {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let len = dx.hypot(dy).max(1e-9);
    let (tx, ty) = (dx / len, dy / len);
    for &side in sides {
        let (nx, ny) = (-ty * side, tx * side);
        let (bx, by) = beside(h, p, q, side, size, 11.0);
        for out in 0..=12 {
            for along in [0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0] {
                let (o, a) = (f64::from(out) * 6.0, along * 10.0);
                let c = (bx + nx * o + tx * a, by + ny * o + ty * a);
                let r = rect_at(c, size);
                if within(r, bounds) && !taken.iter().any(|t| hits(r, *t)) {
                    return c;
                }
            }
        }
    }
    beside(h, p, q, sides.first().copied().unwrap_or(1.0), size, 11.0)
}

/// What a label must keep clear of: each machine's box (and its gauge),
/// and each link's handle.
fn obstacles(
    view: &WorldView,
    pos: &BTreeMap<String, Point>,
    handles: &BTreeMap<(String, String), Point>,
    g: Geometry,
) -> Vec<Rect> {
    let boxes = pos.iter().map(|(name, &(x, y))| {
        let below = gauge_under(view, name, g);
        (
            x - g.box_w / 2.0 - 2.0,
            y - g.box_h / 2.0 - 2.0,
            x + g.box_w / 2.0 + 2.0,
            y + g.box_h / 2.0 + below + 2.0,
        )
    });
    let handles = handles.values().map(|&h| rect_at(h, (26.0, 26.0)));
    boxes.chain(handles).collect()
}

/// The labels beside the links: `handles` holds each pair's handle point.
pub fn labels(
    view: &WorldView,
    pos: &BTreeMap<String, Point>,
    handles: &BTreeMap<(String, String), Point>,
    g: Geometry,
) -> Html {
    let mut taken = obstacles(view, pos, handles, g);
    let bounds = (2.0, 2.0, g.w - 2.0, g.h - 2.0);
    let mut items = Vec::new();
    for l in link_labels(view) {
        let Some(&h) = handles.get(&(l.a.clone(), l.b.clone())) else {
            continue;
        };
        let ends = match &l.way {
            Some((from, to)) => (pos.get(from), pos.get(to)),
            None => (pos.get(&l.a), pos.get(&l.b)),
        };
        let (Some(&p), Some(&q)) = ends else {
            continue;
        };
        let size = label_size(&l, g);
        let out = outward(h, p, q, (g.w / 2.0, g.h / 2.0));
        let sides: &[f64] = match l.way {
            Some(_) => &[1.0],
            None => &[out, -out],
        };
        let c = place(h, (p, q), sides, size, &taken, bounds);
        taken.push(rect_at(c, size));
        items.push(label(&l, c, size, (p, q), g));
    }
    html! { <g class="net-labels" aria-hidden="true">{ for items }</g> }
}

/// A label's size (SVG units): its widest line, an arrow for one way.
fn label_size(l: &LinkLabel, g: Geometry) -> (f64, f64) {
    let (font, _) = sizes(g);
    let arrow = if l.way.is_some() { font } else { 0.0 };
    let widest = l.lines.iter().map(|t| text_w(t, font)).fold(0.0, f64::max);
    (
        widest + arrow + 12.0,
        (font + 2.0) * l.lines.len() as f64 + 4.0,
    )
}

fn label(
    l: &LinkLabel,
    (cx, cy): Point,
    (w, ht): (f64, f64),
    (p, q): (Point, Point),
    g: Geometry,
) -> Html {
    let (font, _) = sizes(g);
    let line_h = font + 2.0;
    let arrow = if l.way.is_some() { font } else { 0.0 };
    let (x0, y0) = (cx - w / 2.0, cy - ht / 2.0);
    let tx = x0 + 6.0 + arrow;
    let lines = l.lines.iter().enumerate().map(|(i, t)| {
        let y = y0 + 2.0 + line_h * (i as f64 + 1.0) - 3.5;
        html! { <text x={format!("{tx:.1}")} y={format!("{y:.1}")}>{ t.clone() }</text> }
    });
    // the arrow points the way the messages go, p → q
    let arrow_mark = l.way.as_ref().map(|_| {
        let deg = (q.1 - p.1).atan2(q.0 - p.0).to_degrees();
        let (ax, ay) = (x0 + 4.0 + arrow / 2.0, y0 + 2.0 + line_h / 2.0);
        html! {
            <path class="net-arrow" d="M-4.5,-4 L4.5,0 L-4.5,4 Z"
                transform={format!("translate({ax:.1} {ay:.1}) rotate({deg:.0})")} />
        }
    });
    html! {
        <g class={classes!("net-label", l.way.is_some().then_some("one-way"))} data-testid={l.testid()}
            data-lines={l.lines.join(" · ")}>
            <title>{ shown(l.words()) }</title>
            <rect x={format!("{x0:.1}")} y={format!("{y0:.1}")} width={format!("{w:.1}")} height={format!("{ht:.1}")} rx="5" />
            { for arrow_mark }
            { for lines }
        </g>
    }
}

/// The NIC gauges under the machines' boxes.
pub fn gauges(view: &WorldView, pos: &BTreeMap<String, Point>, g: Geometry) -> Html {
    let items = nic_gauges(view)
        .into_iter()
        .filter_map(|n| Some(gauge(&n, *pos.get(&n.machine)?, g)));
    html! { <g class="nic-gauges">{ for items }</g> }
}

fn gauge(n: &NicGauge, (x, y): Point, g: Geometry) -> Html {
    let (font, bar_h) = sizes(g);
    let (x0, w) = (x - g.box_w / 2.0 + 6.0, g.box_w - 12.0);
    let top = y + g.box_h / 2.0 + 4.0;
    let text_y = top + font;
    let bar_y = text_y + 4.0;
    let head = format!("NIC {} · queue", n.rate);
    let f = |v: f64| format!("{v:.1}");
    html! {
        <g key={n.machine.clone()} class={classes!("nic", n.full.then_some("full"))}
            data-testid={format!("nic-{}", n.machine)} data-fill={format!("{:.2}", n.fill)}
            data-full={n.full.to_string()} data-queued={n.queued.to_string()} data-limit={n.limit.to_string()}>
            <title>{ shown(n.words()) }</title>
            <rect class="back" x={f(x0 - 3.0)} y={f(top - 1.0)} width={f(w + 6.0)} height={f(gauge_height(g) - 2.0)} rx="4" />
            <text class="head" x={f(x0)} y={f(text_y - 2.0)}>{ head }</text>
            <rect class="track" x={f(x0)} y={f(bar_y)} width={f(w)} height={f(bar_h)} rx="3" />
            <rect class="fill" x={f(x0)} y={f(bar_y)} width={f(w * n.fill)} height={f(bar_h)} rx="3" />
            <text class="queue" x={f(x0 + w / 2.0)} y={f(bar_y + bar_h - 4.0)} text-anchor="middle">{ n.queue_text() }</text>
        </g>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::sim::view::{NetLinkView, NicView};
    use crate::sim::world::NicSpec;

    fn view(links: &[(&str, &str, LinkSpec)], nics: &[(&str, u64, u64, u64)]) -> WorldView {
        WorldView {
            links: vec![LinkView {
                a: "a".into(),
                b: "b".into(),
                a_to_b: true,
                b_to_a: true,
            }],
            net_links: links
                .iter()
                .map(|(from, to, spec)| NetLinkView {
                    from: from.to_string(),
                    to: to.to_string(),
                    spec: *spec,
                })
                .collect(),
            nics: nics
                .iter()
                .map(|&(m, rate_bps, limit_bytes, queued_bytes)| NicView {
                    machine: m.into(),
                    spec: NicSpec {
                        rate_bps,
                        limit_bytes,
                    },
                    queued_bytes,
                })
                .collect(),
            ..WorldView::default()
        }
    }

    fn spec(latency_ms: u64, jitter_ms: u64, loss_ppm: u32) -> LinkSpec {
        LinkSpec {
            latency_ms,
            jitter_ms,
            loss_ppm,
        }
    }

    #[wasm_bindgen_test]
    fn a_default_lan_shows_nothing() {
        let v = view(&[], &[]);
        assert!(link_labels(&v).is_empty() && nic_gauges(&v).is_empty());
    }

    #[wasm_bindgen_test]
    fn both_ways_alike_is_one_label_else_one_per_direction() {
        let slow = spec(200, 10, 50_000);
        let v = view(&[("a", "b", slow), ("b", "a", slow)], &[]);
        let ls = link_labels(&v);
        assert_eq!(ls.len(), 1);
        assert_eq!(
            (ls[0].way.clone(), ls[0].testid()),
            (None, "net-link-a-b".into())
        );
        assert_eq!(ls[0].lines, ["200 ms", "±10 ms", "5% loss"]);
        let v = view(&[("b", "a", spec(1, 0, 10_000))], &[]);
        let ls = link_labels(&v);
        assert_eq!(ls.len(), 1);
        assert_eq!(ls[0].way, Some(("b".into(), "a".into())));
        assert_eq!(
            (ls[0].testid(), ls[0].lines.clone()),
            ("net-link-b-a".into(), vec!["1% loss".to_string()])
        );
        assert!(ls[0].words().starts_with("b → a only"));
    }

    #[wasm_bindgen_test]
    fn a_gauge_fills_with_the_queue_and_is_full_when_a_small_message_no_longer_fits() {
        let limit = 4 << 20;
        let v = view(&[], &[("a", 1_000_000, limit, 0)]);
        let n = &nic_gauges(&v)[0];
        assert_eq!((n.rate.as_str(), n.fill, n.full), ("1mbit", 0.0, false));
        assert_eq!(n.queue_text(), "0 / 4mb");
        let v = view(&[], &[("a", 1_000_000, limit, limit / 2)]);
        let n = &nic_gauges(&v)[0];
        assert_eq!(
            (n.fill, n.full, n.queue_text()),
            (0.5, false, "2mb / 4mb".into())
        );
        let v = view(&[], &[("a", 1_000_000, limit, limit - 10)]);
        assert!(nic_gauges(&v)[0].full);
        // bytes past the limit (a client's request): the bar stays full, the text says how much
        let v = view(&[], &[("a", 1_000_000, limit, 30 << 20)]);
        let n = &nic_gauges(&v)[0];
        assert_eq!(
            (n.fill, n.full, n.queue_text()),
            (1.0, true, "full: 30mb / 4mb".into())
        );
    }

    #[wasm_bindgen_test]
    fn sizes_read_as_tc_writes_them() {
        assert_eq!(size_text(850), "850b");
        assert_eq!(size_text(37 * 1024 + 100), "37kb");
        assert_eq!(size_text(4 << 20), "4mb");
        assert_eq!(size_text((39 << 20) / 10), "3.9mb");
    }

    #[wasm_bindgen_test]
    fn a_label_sits_beside_its_handle_clear_of_the_line() {
        // a horizontal link: a label above or below the handle, never on the line
        let (p, q, h) = ((0.0, 100.0), (400.0, 100.0), (200.0, 100.0));
        let size = (60.0, 20.0);
        for side in [1.0, -1.0] {
            let (x, y) = beside(h, p, q, side, size, 11.0);
            assert!((x - 200.0).abs() < 1e-9);
            assert!((y - 100.0).abs() >= 11.0 + size.1 / 2.0, "{y}");
        }
        // p → q's lane is on its normal's side: below when going right (SVG's y grows down)
        assert!(beside(h, p, q, 1.0, size, 11.0).1 > 100.0);
        assert!(beside(h, q, p, 1.0, size, 11.0).1 < 100.0);
        // a box right below the handle: moved further out, clear of it
        let boxed = [(150.0, 110.0, 250.0, 160.0)];
        let c = place(h, (p, q), &[1.0], size, &boxed, (0.0, 0.0, 400.0, 400.0));
        assert!(!hits(rect_at(c, size), boxed[0]), "{c:?}");
        assert!(c.1 > 100.0, "still on its side: {c:?}");
        // no room on that side within the bounds: the other side
        let c = place(
            h,
            (p, q),
            &[1.0, -1.0],
            size,
            &boxed,
            (0.0, 0.0, 400.0, 170.0),
        );
        assert!(c.1 < 100.0, "{c:?}");
        // away from a centre above the link: below it
        assert_eq!(outward(h, p, q, (200.0, 0.0)), 1.0);
        assert_eq!(outward(h, q, p, (200.0, 0.0)), -1.0);
    }
}
