//! The cluster map (SVG): each machine with its etcd process (state, member name
//! and ID, term, commit/applied), the links between machines (click: cut or heal
//! both ways; shift-click: cut one way; cut links drawn red and dashed with a
//! label, never by colour alone; each link's handle drawn above every line, at
//! its middle or moved along it clear of the others, see [`handle_points`],
//! and forecasting the cut or heal a click makes; the handles are the top
//! layer, so no dot takes their click) and, when the toggle is on, the raft
//! messages on their way (`flights`), each node's election timer, the vote
//! tallies, the quorum line and marks, the event banner, "pause on" and the
//! message inspector; the network's settings (`netmap`): a label by each
//! link that is not the default, a queue gauge under each limited NIC. Names and reasons are a person's
//! text, shown through `visible_text` (a bidi control cannot flip a label).
//! Under the map, a legend of the words its nodes use, each with its glossary
//! link; a machine whose etcd never ran says "not started", with the member
//! `member add` made for it, if any.

use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

use super::flights::{self, Inspector, Sky};
use super::machine::Pointing;
use super::netmap;
use super::quorum::labelled;
use super::state::{MapEvent, PauseOn, Shared};
use super::tables::MachinesOf;
use crate::shell::actions;
use crate::sim::etcd::version::EtcdVersion;
use crate::sim::glossary::Word;
use crate::sim::quorum::{self, Change, MemberLabel, QuorumInfo};
use crate::sim::view::{clipped, visible_string as shown, LinkView, MachineView, Role, WorldView};
use crate::sim::wire::Wire;

/// The map's drawing sizes (SVG units): the whole map, a machine's box, and
/// its link handles' hit radius and least spacing. A narrow screen (a phone)
/// gets the compact map: smaller boxes of three lines on a taller ring, so
/// once the SVG is scaled to the screen its text is still at least 11 px
/// and a handle is a finger's size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    pub w: f64,
    pub h: f64,
    pub box_w: f64,
    pub box_h: f64,
    pub compact: bool,
    hit_r: f64,
    gap: f64,
}

impl Geometry {
    /// For `n` machines: more machines, a larger ring, so boxes never overlap.
    pub fn of(n: usize, compact: bool) -> Geometry {
        let extra = n.saturating_sub(4) as f64;
        if compact {
            Geometry {
                w: 450.0 + 50.0 * extra,
                h: 430.0 + 70.0 * extra,
                box_w: 170.0,
                box_h: 72.0,
                compact,
                hit_r: 28.0,
                gap: 52.0,
            }
        } else {
            Geometry {
                w: 600.0 + 90.0 * extra,
                h: 400.0 + 50.0 * extra,
                box_w: 196.0,
                box_h: 84.0,
                compact,
                hit_r: 16.0,
                gap: HANDLE_GAP,
            }
        }
    }
}

/// The width at or under which the page draws the compact map: the phone
/// layout's (styles/app.css).
const COMPACT_MAX: &str = "44rem";

/// Whether the screen is narrow enough for the compact map, followed as it
/// changes (a phone turned, a window resized).
#[hook]
fn use_compact() -> bool {
    let query = format!("(max-width: {COMPACT_MAX})");
    let list = use_memo((), move |_| {
        web_sys::window().and_then(|w| w.match_media(&query).ok().flatten())
    });
    let compact = use_state(|| list.as_ref().as_ref().is_some_and(|l| l.matches()));
    {
        let compact = compact.clone();
        use_effect_with(list, move |list| {
            let listener = list.as_ref().as_ref().map(|l| {
                let l2 = l.clone();
                let on = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
                    compact.set(l2.matches())
                });
                l.set_onchange(Some(wasm_bindgen::JsCast::unchecked_ref(on.as_ref())));
                (l.clone(), on)
            });
            move || {
                if let Some((l, _on)) = listener {
                    l.set_onchange(None);
                }
            }
        });
    }
    *compact
}

#[derive(Properties, PartialEq)]
pub struct MapProps {
    pub view: Rc<WorldView>,
    pub selected: Option<String>,
    pub animate: bool,
    /// Whether the clock plays, and its time (how message dots are animated,
    /// see `FlightsLayer`).
    pub playing: bool,
    pub now_ms: u64,
    /// The page's speed: a slow link's dot flies its latency at this speed.
    #[prop_or(1.0)]
    pub speed: f64,
    /// The cluster's quorum (`quorum::analyze` of `view`), as the page
    /// computed it; computed here when not given.
    #[prop_or_default]
    pub quorum: Option<Rc<QuorumInfo>>,
    /// The latest leader or quorum change, announced on the map.
    #[prop_or_default]
    pub event: Option<Rc<MapEvent>>,
    /// Which changes pause the clock (the map's "pause on" option).
    #[prop_or_default]
    pub pause_on: PauseOn,
    #[prop_or_default]
    pub on_pause_on: Callback<PauseOn>,
    pub on_run: Callback<String>,
    pub on_select: Callback<Option<String>>,
    pub on_forecast: Callback<Option<Change>>,
}

/// The map's layers re-render apart: the links when a link or the set of
/// machines changes, the machines when one of them changes, the messages
/// when a new frame of the world is shown.
#[derive(Clone)]
struct LinksOf(Rc<WorldView>);

impl PartialEq for LinksOf {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.0, &other.0);
        Rc::ptr_eq(a, b)
            || (a.links == b.links
                && a.net_links == b.net_links
                && a.machines.len() == b.machines.len()
                && a.machines
                    .iter()
                    .zip(&b.machines)
                    .all(|(x, y)| x.name == y.name))
    }
}

#[derive(Properties, PartialEq)]
struct LinksProps {
    view: LinksOf,
    geo: Geometry,
    /// Which part this layer draws: the lines (under the machines and the
    /// dots) or the handles (over everything, so no dot takes their click).
    handles: bool,
    /// The link under the pointer or focus, shared by both parts.
    pointed: Shared<PointedLink>,
    on_run: Callback<String>,
    on_forecast: Callback<Option<Change>>,
}

#[derive(Properties, PartialEq)]
struct NodesProps {
    view: MachinesOf,
    geo: Geometry,
    selected: Option<String>,
    on_select: Callback<Option<String>>,
}

#[derive(Properties, PartialEq)]
struct TagsProps {
    view: MachinesOf,
    geo: Geometry,
}

/// The dots in flight, kept by the map between renders (`flights::Sky`).
type SkyState = Shared<std::cell::RefCell<Sky>>;

#[derive(Properties, PartialEq)]
struct FlightsProps {
    view: Rc<WorldView>,
    geo: Geometry,
    animate: bool,
    playing: bool,
    speed: f64,
    /// The page's clock: while it plays, the dots move on every frame.
    now_ms: u64,
    state: SkyState,
    /// A dot was clicked: its message number.
    on_pick: Callback<u64>,
    /// The cluster's voters, for the vote tallies.
    voters: usize,
}

/// A shape for each state word, so state never rests on colour alone.
fn symbol(word: &str) -> &'static str {
    match word {
        "leader" => "★",
        "follower" => "●",
        "candidate" | "pre-candidate" => "◔",
        "learner" => "◇",
        "exited" => "✕",
        "not started" => "□",
        _ => "■",
    }
}

/// The word a node shows for its etcd: its state (`MachineView::state`), but
/// "not started" for a machine whose etcd never ran, and "pre-candidate" for
/// a candidate in a pre-vote.
pub fn state_word(m: &MachineView) -> &'static str {
    match (&m.process, &m.last_exit) {
        (Some(p), _) if p.role == Role::PreCandidate => "pre-candidate",
        (None, _) if m.joining => "starting",
        (None, None) => "not started",
        _ => m.state(),
    }
}

/// The legend under the map: each state word with its shape, and the words
/// of the node text, with their glossary links (a component without props:
/// drawn once, not on every frame).
#[function_component(MapLegend)]
fn legend() -> Html {
    let states: [(&str, Option<Word>); 8] = [
        ("leader", Some(Word::Leader)),
        ("follower", Some(Word::Follower)),
        ("candidate", Some(Word::Candidate)),
        ("pre-candidate", Some(Word::PreVote)),
        ("learner", Some(Word::Learner)),
        ("stopped", None),
        ("not started", Some(Word::Started)),
        ("exited", None),
    ];
    let item = |mark: &str, label: &str, word: Option<Word>| {
        html! {
            <li>
                if !mark.is_empty() { <span class="legend-mark" aria-hidden="true">{ mark.to_string() }</span> }
                { labelled(label, word) }
            </li>
        }
    };
    html! {
        <ul class="map-legend" data-testid="map-legend" aria-label="What the map's words mean">
            { for states.iter().map(|(w, g)| item(symbol(w), w, *g)) }
            { for [Word::Term, Word::Commit, Word::Applied].into_iter().map(|w| item("", w.name(), Some(w))) }
            <li class="muted" data-testid="legend-net">
                { "by a link, “200 ms”, “±10 ms”, “5% loss”: its delay, jitter and loss (▸ one way only) · under a machine, “NIC 1mbit · queue”: its send rate and the bytes waiting to leave; red and “full”: raft messages are dropped (✕)" }
            </li>
        </ul>
    }
}

/// The automation contract's link state: up|cut|one-way.
pub fn link_state(l: &LinkView) -> &'static str {
    match (l.a_to_b, l.b_to_a) {
        (true, true) => "up",
        (false, false) => "cut",
        _ => "one-way",
    }
}

fn positions(view: &WorldView, g: Geometry) -> BTreeMap<String, (f64, f64)> {
    let n = view.machines.len().max(1) as f64;
    let (w, h) = (g.w, g.h);
    let (cx, cy) = (w / 2.0, h / 2.0 + 4.0);
    let (rx, ry) = (w / 2.0 - g.box_w / 2.0 - 8.0, h / 2.0 - g.box_h / 2.0 - 8.0);
    view.machines
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let a = -std::f64::consts::FRAC_PI_2 + i as f64 * 2.0 * std::f64::consts::PI / n;
            let (x, y) = if view.machines.len() == 1 {
                (cx, cy)
            } else {
                (cx + rx * a.cos(), cy + ry * a.sin())
            };
            (m.name.clone(), (x, y))
        })
        .collect()
}

#[function_component(ClusterMap)]
pub fn cluster_map(props: &MapProps) -> Html {
    let sky = Shared(use_mut_ref(Sky::default));
    let pointed = Shared(use_mut_ref(|| None));
    let q = props
        .quorum
        .clone()
        .unwrap_or_else(|| Rc::new(quorum::analyze(&props.view)));
    let picked = use_state(|| None::<Wire>);
    let compact = use_compact();
    let geo = Geometry::of(props.view.machines.len(), compact);
    let (w, h) = (geo.w, geo.h);
    let on_pick = {
        let (picked, sky) = (picked.clone(), sky.clone());
        Callback::from(move |seq: u64| {
            let found = sky
                .0
                .borrow()
                .flying
                .iter()
                .find(|f| f.wire.seq == seq)
                .map(|f| f.wire.clone());
            if found.is_some() {
                picked.set(found);
            }
        })
    };
    let on_pick_or_close = picked.setter().to_callback();
    if props.view.machines.is_empty() {
        return html! {
            <p class="muted empty-map">{ "No machines yet. Type " }<code>{ "machine add node01 192.168.0.61" }</code>{ " or use “Add machine”." }</p>
        };
    }
    html! {
        <>
        <div class="map-head">
            { quorum_line(&q) }
            { etcd_line(&props.view) }
            { event_banner(props.event.as_deref()) }
        </div>
        <div class="map-stage">
            <svg class={classes!("map", compact.then_some("compact"))} viewBox={format!("0 0 {w} {h}")} role="group"
                aria-label="machines and the links between them">
                <Links view={LinksOf(props.view.clone())} {geo} handles={false} pointed={pointed.clone()}
                    on_run={props.on_run.clone()} on_forecast={props.on_forecast.clone()} />
                <Nodes view={MachinesOf(props.view.clone())} {geo} selected={props.selected.clone()} on_select={props.on_select.clone()} />
                <NicGauges view={props.view.clone()} {geo} />
                <Timers view={props.view.clone()} {geo} />
                <QuorumMarks view={props.view.clone()} {geo} quorum={q.clone()} />
                <FlightsLayer view={props.view.clone()} {geo} animate={props.animate} playing={props.playing}
                    speed={props.speed} now_ms={props.now_ms} state={sky} on_pick={on_pick.clone()} voters={q.voters.len()} />
                // over the dots: a message reaching a box's top edge passes
                // under its release tab instead of hiding the release
                // (the tab takes no pointer events: a dot under it still clicks)
                <EtcdTags view={MachinesOf(props.view.clone())} {geo} />
                <Links view={LinksOf(props.view.clone())} {geo} handles={true} pointed={pointed}
                    on_run={props.on_run.clone()} on_forecast={props.on_forecast.clone()} />
            </svg>
        </div>
        <div class="map-tools">
            { pause_controls(props.pause_on, &props.on_pause_on) }
            <Inspector recent={props.view.wire.clone()} picked={(*picked).clone()} playing={props.playing}
                on_pick={on_pick_or_close} />
        </div>
        // the key starts folded, so the map keeps its room on a wide screen
        // and a tapped machine's actions stay near it on a phone; its summary
        // still shows the message shapes
        <details class="map-key" data-testid="map-key">
            <summary>{ "Key" }if props.animate { <flights::MsgShapes /> }</summary>
            <MapLegend />
            if props.animate { <flights::MsgLegend /> }
        </details>
        </>
    }
}

#[function_component(Links)]
fn links(props: &LinksProps) -> Html {
    let view = &props.view.0;
    let pos = positions(view, props.geo);
    // The link under the pointer or focus: when its state changes (a click
    // cut or healed it), its forecast becomes the other change's (watched by
    // the handles' layer only).
    let pointed: Pointed = props.pointed.0.clone();
    {
        let pointed = pointed.clone();
        let on_forecast = props.on_forecast.clone();
        let links = view.links.clone();
        let watch = props.handles;
        use_effect_with(links, move |links| {
            if !watch {
                return;
            }
            let now = pointed.borrow().clone();
            if let Some((a, b, was_up)) = now {
                if let Some(l) = links.iter().find(|l| l.a == a && l.b == b) {
                    let up = link_state(l) == "up";
                    if up != was_up {
                        *pointed.borrow_mut() = Some((a.clone(), b.clone(), up));
                        on_forecast.emit(Some(link_change(&a, &b, up)));
                    }
                }
            }
        });
    }
    // the links whose two machines are on the map, with their ends
    let drawn: Vec<(&LinkView, (Point, Point))> = view
        .links
        .iter()
        .filter_map(|l| Some((l, (*pos.get(&l.a)?, *pos.get(&l.b)?))))
        .collect();
    let ends: Vec<(Point, Point)> = drawn.iter().map(|&(_, e)| e).collect();
    let g = props.geo;
    let points = handle_points(&ends, g.gap, (g.box_w / 2.0, g.box_h / 2.0));
    let (lines, handles): (Vec<Html>, Vec<Html>) = drawn
        .iter()
        .zip(touch_radii(&points, g.hit_r))
        .zip(points.iter().copied())
        .map(|((&(l, e), r), h)| link(l, e, (h, r), props, &pointed))
        .unzip();
    if props.handles {
        let at: BTreeMap<(String, String), Point> = drawn
            .iter()
            .map(|(l, _)| (l.a.clone(), l.b.clone()))
            .zip(points.iter().copied())
            .collect();
        html! {
            <>
                <g class="links link-handles">{ for handles }</g>
                { netmap::labels(view, &pos, &at, g) }
            </>
        }
    } else {
        html! { <g class="links link-lines">{ for lines }</g> }
    }
}

/// The link under the pointer or keyboard focus: its ends and whether it was
/// up when its forecast was sent.
type PointedLink = std::cell::RefCell<Option<(String, String, bool)>>;
type Pointed = Rc<PointedLink>;

/// The change a link's handle forecasts: a cut while it is up, else a heal.
fn link_change(a: &str, b: &str, up: bool) -> Change {
    let (a, b) = (a.to_string(), b.to_string());
    if up {
        Change::Cut { a, b }
    } else {
        Change::Heal { a, b }
    }
}

/// A point on the map (SVG units).
pub type Point = (f64, f64);

/// The least distance (SVG units) between two link handles' centres: two
/// radii and a gap, so every handle can be hit.
const HANDLE_GAP: f64 = 44.0;

/// Where each link's handle sits, for links given by their ends (the
/// centres of boxes of half-size `half`): at the link's middle, or when that
/// is within `gap` of a handle already placed (with four machines on a ring,
/// two links cross at the centre), moved along its own link (a tenth, then
/// more, either way, never past 0.25 or 0.75 of it, and never over a box) to
/// the first point clear of the others (the one with the most room, if none
/// is). The links with the least room between their boxes are placed first,
/// so a short link keeps its middle and a long one moves.
pub fn handle_points(ends: &[(Point, Point)], gap: f64, half: Point) -> Vec<(f64, f64)> {
    const TRIES: [f64; 9] = [0.5, 0.4, 0.6, 0.35, 0.65, 0.3, 0.7, 0.25, 0.75];
    // a handle's radius and a margin, clear of the box it leaves
    const CLEAR: f64 = 15.0;
    let range = |&((x1, y1), (x2, y2)): &(Point, Point)| {
        let (dx, dy) = ((x2 - x1).abs(), (y2 - y1).abs());
        let len = dx.hypot(dy).max(1e-9);
        let exit = (half.0 / dx.max(1e-9)).min(half.1 / dy.max(1e-9)).min(0.5);
        let lo = (exit + CLEAR / len).min(0.5);
        (lo, 1.0 - lo, (1.0 - 2.0 * lo) * len)
    };
    let mut order: Vec<usize> = (0..ends.len()).collect();
    order.sort_by(|&a, &b| range(&ends[a]).2.total_cmp(&range(&ends[b]).2));
    let mut placed: Vec<Option<(f64, f64)>> = vec![None; ends.len()];
    for i in order {
        let ((x1, y1), (x2, y2)) = ends[i];
        let (lo, hi, _) = range(&ends[i]);
        let at = |t: f64| (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t);
        let room = |p: (f64, f64)| {
            placed
                .iter()
                .flatten()
                .map(|q| (p.0 - q.0).hypot(p.1 - q.1))
                .fold(f64::INFINITY, f64::min)
        };
        let tries: Vec<(f64, f64)> = TRIES
            .iter()
            .filter(|&&t| (lo..=hi).contains(&t))
            .map(|&t| at(t))
            .collect();
        let p = tries
            .iter()
            .copied()
            .find(|&p| room(p) >= gap)
            .or_else(|| {
                tries
                    .iter()
                    .copied()
                    .max_by(|a, b| room(*a).total_cmp(&room(*b)))
            })
            .unwrap_or_else(|| at(0.5));
        placed[i] = Some(p);
    }
    placed.into_iter().flatten().collect()
}

/// Each handle's touch circle: `hit_r`, but never past half the way to the
/// nearest other handle, so a tap near a handle is that handle's.
fn touch_radii(points: &[(f64, f64)], hit_r: f64) -> Vec<f64> {
    points
        .iter()
        .map(|p| {
            points
                .iter()
                .filter(|q| *q != p)
                .map(|q| (p.0 - q.0).hypot(p.1 - q.1) / 2.0)
                .fold(hit_r, f64::min)
        })
        .collect()
}

#[function_component(Nodes)]
fn nodes(props: &NodesProps) -> Html {
    let view = &props.view.0;
    let pos = positions(view, props.geo);
    html! {
        <g class="nodes">{ for view.machines.iter().map(|m| node(m, &pos, props)) }</g>
    }
}

/// Each limited NIC's rate and queue, under its machine's box (`netmap`).
#[function_component(NicGauges)]
fn nic_gauges(props: &ViewProps) -> Html {
    if props.view.nics.is_empty() {
        return Html::default();
    }
    let pos = positions(&props.view, props.geo);
    netmap::gauges(&props.view, &pos, props.geo)
}

/// The raft messages on their way (see `flights`): a dot per message of the
/// newest views, moved every frame while the clock plays, flown by CSS on a
/// still page.
#[function_component(FlightsLayer)]
fn flights_layer(props: &FlightsProps) -> Html {
    let mut sky = props.state.0.borrow_mut();
    let now = js_sys::Date::now();
    if !props.animate {
        sky.flying.clear();
        return Html::default();
    }
    sky.take(&props.view, now, props.speed);
    // `prefers-reduced-motion` cuts every animation short (styles/app.css):
    // a moving dot is at its end at once, as a still one is.
    let reduced = props.playing && !sky.flying.is_empty() && super::app::prefers_reduced_motion();
    let g = props.geo;
    let pos = positions(&props.view, g);
    let at = |name: &str| pos.get(name).copied();
    let half = (g.box_w / 2.0 + 4.0, g.box_h / 2.0 + 4.0);
    // a machine with a NIC gauge under its box: a dot going down starts
    // (or lands) under the gauge, and its tally goes under it
    let gauge = |name: &str| netmap::gauge_under(&props.view, name, g);
    let half_of = |name: &str, dy: f64| {
        let under = if dy > 0.0 { gauge(name) } else { 0.0 };
        (half.0, half.1 + under)
    };
    let tallies = if sky.campaigns.is_empty() {
        Html::default()
    } else {
        let under = |name: &str| at(name).map(|(x, y)| (x, y + gauge(name)));
        flights::tallies(
            &mut sky,
            &under,
            g.box_h / 2.0 + 16.0,
            props.voters,
            now,
            !props.playing,
        )
    };
    html! {
        <>
            { flights::dots(&mut sky, &at, &half_of, now, !props.playing, reduced, &props.on_pick) }
            { tallies }
        </>
    }
}

/// Which etcd each machine runs, as a tab on its box's top edge: `etcd
/// 3.4.23` quiet, `etcd 3.5.1` filled, so a mixed cluster shows at a glance
/// (the box's name for a screen reader says it too).
#[function_component(EtcdTags)]
fn etcd_tags(props: &TagsProps) -> Html {
    let view = &props.view.0;
    let g = props.geo;
    let pos = positions(view, g);
    // sized as the box's lines are (`styles/map.css`): 12 px, 14 px compact
    let (char_px, h) = if g.compact { (8.0, 18.0) } else { (6.9, 16.0) };
    let tags = view.machines.iter().filter_map(|m| {
        let &(x, y) = pos.get(&m.name)?;
        let v = m.etcd_shown();
        let text = format!("etcd {}", v.release());
        let w = text.len() as f64 * char_px + 12.0;
        // over the top edge, right of the name and left of the quorum mark on
        // the top-right corner; its foot clears the name line, and it stays
        // inside the map over the top box
        let tx = x + g.box_w / 2.0 - 18.0 - w;
        let ty = (y - g.box_h / 2.0 - h + 4.0).max(1.0);
        Some(html! {
            <g key={m.name.clone()} class={classes!("etcd-tag", version_class(v))}
                data-testid={format!("etcd-{}", m.name)} data-etcd={v.release()}>
                <rect x={format!("{tx:.1}")} y={format!("{ty:.1}")} width={format!("{w:.1}")} height={h.to_string()} rx={(h / 2.0).to_string()} />
                <text x={format!("{:.1}", tx + w / 2.0)} y={format!("{:.1}", ty + h - 4.0)} text-anchor="middle">{ text }</text>
            </g>
        })
    });
    html! { <g class="etcd-tags" aria-hidden="true">{ for tags }</g> }
}

/// Over the map, which etcd the machines run: `etcd 3.5.1`, or, when they
/// differ, `mixed etcd: 2 × 3.4.23, 1 × 3.5.1` (each release's machines in
/// its tooltip).
fn etcd_line(view: &WorldView) -> Html {
    let mut by: BTreeMap<EtcdVersion, Vec<&str>> = BTreeMap::new();
    for m in &view.machines {
        by.entry(m.etcd_shown()).or_default().push(&m.name);
    }
    let title = by
        .iter()
        .map(|(v, names)| format!("etcd {}: {}", v.release(), names.join(", ")))
        .collect::<Vec<_>>()
        .join("\n");
    let (class, text) = match by.keys().collect::<Vec<_>>()[..] {
        [v] => (version_class(*v), format!("etcd {}", v.release())),
        _ => (
            "mixed".to_string(),
            format!(
                "mixed etcd: {}",
                by.iter()
                    .map(|(v, names)| format!("{} × {}", names.len(), v.release()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    };
    html! {
        <span class={classes!("etcd-line", class)} data-testid="etcd-line" title={shown(title)}>{ text }</span>
    }
}

/// The class of an etcd version's tag and badge: `v3-4`, `v3-5`.
pub fn version_class(v: EtcdVersion) -> String {
    format!("v{}", v.name().replace('.', "-"))
}

/// Each running process's election timer, a bar along its box's foot that
/// drains as the timer runs and fills again when a heartbeat resets it (a
/// follower's or candidate's: a leader sends heartbeats and a learner never
/// campaigns). Vote tallies are the messages' (`flights::tallies`).
#[function_component(Timers)]
fn timers(props: &ViewProps) -> Html {
    let view = &props.view;
    let g = props.geo;
    let pos = positions(view, g);
    let bars = view.timers.iter().filter_map(|t| {
        let m = view.machines.iter().find(|m| m.name == t.machine)?;
        let p = m.process.as_ref()?;
        if matches!(p.role, Role::Leader | Role::Learner) || t.timeout_ms == 0 {
            return None;
        }
        let &(x, y) = pos.get(&t.machine)?;
        let left = 1.0 - (t.elapsed_ms as f64 / t.timeout_ms as f64).min(1.0);
        let (bx, by, w) = (x - g.box_w / 2.0 + 10.0, y + g.box_h / 2.0 - 9.0, g.box_w - 20.0);
        let title = format!(
            "election timer: {:.1} s of {:.1} s left. A heartbeat from the leader resets it; when it runs out, {} campaigns.",
            (t.timeout_ms - t.elapsed_ms.min(t.timeout_ms)) as f64 / 1000.0,
            t.timeout_ms as f64 / 1000.0,
            t.machine
        );
        Some(html! {
            <g key={t.machine.clone()} class={classes!("timer", (left < 0.3).then_some("low"))} data-testid="timer"
                data-machine={t.machine.clone()} data-left={format!("{left:.2}")}>
                <title>{ shown(title) }</title>
                <rect class="track" x={format!("{bx:.1}")} y={format!("{by:.1}")} width={format!("{w:.1}")} height="4" rx="2" />
                <rect class="left" x={format!("{bx:.1}")} y={format!("{by:.1}")} width={format!("{:.1}", w * left)} height="4" rx="2" />
            </g>
        })
    });
    html! { <g class="timers" aria-hidden="true">{ for bars }</g> }
}

#[derive(Properties, PartialEq)]
struct ViewProps {
    view: Rc<WorldView>,
    geo: Geometry,
}

/// On each voter's box, while there is a leader, whether the leader reaches
/// it (✔) or not (✖).
#[derive(Properties, PartialEq)]
struct MarksProps {
    view: Rc<WorldView>,
    geo: Geometry,
    quorum: Rc<QuorumInfo>,
}

#[function_component(QuorumMarks)]
fn quorum_marks(props: &MarksProps) -> Html {
    let view = &props.view;
    let q = &props.quorum;
    if q.voters.is_empty() {
        return Html::default();
    }
    let g = props.geo;
    let pos = positions(view, g);
    let marks = view.machines.iter().filter_map(|m| {
        let id = m.process.as_ref().map(|p| p.id).or_else(|| quorum::resident(view, &m.name).map(|l| l.id))?;
        if !q.voters.iter().any(|(v, _)| *v == id) || q.leader.is_none() {
            return None;
        }
        let reached = q.reachable.contains(&id);
        let &(x, y) = pos.get(&m.name)?;
        let (cx, cy) = (x + g.box_w / 2.0 - 2.0, y - g.box_h / 2.0 + 2.0);
        Some(html! {
            <g key={m.name.clone()} class={classes!("reach", if reached { "ok" } else { "lost" })}
                data-testid={format!("reach-{}", m.name)} data-reached={reached.to_string()}>
                <title>{ shown(format!("{}: {}", m.name, if reached { "a voter the leader reaches" } else { "a voter the leader does not reach" })) }</title>
                <circle cx={format!("{cx:.1}")} cy={format!("{cy:.1}")} r="9" />
                <text x={format!("{cx:.1}")} y={format!("{:.1}", cy + 4.0)} text-anchor="middle">{ if reached { "✔" } else { "✖" } }</text>
            </g>
        })
    });
    html! { <g class="map-quorum" aria-hidden="true">{ for marks }</g> }
}

/// The quorum line over the map: "quorum: 2 of 3 voters needed, 3 reached ✔"
/// (reached by the leader, the ★ on the map).
fn quorum_line(q: &QuorumInfo) -> Html {
    if q.voters.is_empty() {
        return Html::default();
    }
    let n = q.voters.len();
    let (mark, class) = if q.can_commit {
        ("✔", "ok")
    } else {
        ("✖", "lost")
    };
    let tail = match &q.leader {
        Some(_) => format!("{} reached {mark}", q.voters_reachable),
        None => format!("no leader {mark}"),
    };
    html! {
        <p class={classes!("quorum-line", class)} data-testid="map-quorum" data-ok={q.can_commit.to_string()}>
            { labelled("quorum", Some(Word::Quorum)) }
            { shown(format!(": {} of {n} voters needed, {tail}", q.quorum)) }
        </p>
    }
}

/// The banner over the map for the latest leader or quorum change; a new
/// event is a new element, so its entrance (styles/map.css) plays again.
fn event_banner(e: Option<&MapEvent>) -> Html {
    let Some(e) = e else {
        return Html::default();
    };
    let class = classes!("map-event", e.kind.name(), e.paused.then_some("paused"));
    html! {
        <div key={e.seq.to_string()} {class} data-testid="map-event" data-kind={e.kind.name()} data-paused={e.paused.to_string()}>
            { shown(e.text.clone()) }
            if e.paused { <span class="small">{ " — paused here (Space plays on)" }</span> }
        </div>
    }
}

/// The "pause on" option: which changes stop the playing clock.
fn pause_controls(p: PauseOn, on: &Callback<PauseOn>) -> Html {
    let toggle = |which: fn(&mut PauseOn)| {
        let on = on.clone();
        Callback::from(move |_: Event| {
            let mut next = p;
            which(&mut next);
            on.emit(next)
        })
    };
    html! {
        <fieldset class="pause-on" data-testid="pause-on">
            <legend>{ "Pause on" }</legend>
            <label><input type="checkbox" data-testid="pause-on-leader" checked={p.leader}
                onchange={toggle(|p| p.leader = !p.leader)} />{ " leader change" }</label>
            <label><input type="checkbox" data-testid="pause-on-quorum" checked={p.quorum}
                onchange={toggle(|p| p.quorum = !p.quorum)} />{ " quorum lost or regained" }</label>
        </fieldset>
    }
}

/// A link's words, as shown: its label for screen readers, its title,
/// and the label drawn by it when it is cut.
fn link_words(l: &LinkView, state: &str) -> (String, String, String) {
    let label = match (l.a_to_b, l.b_to_a) {
        (true, true) => String::new(),
        (false, false) => "✕ cut".to_string(),
        (false, true) => format!("✕ {} → {} cut", l.a, l.b),
        (true, false) => format!("✕ {} → {} cut", l.b, l.a),
    };
    let aria = if state == "up" {
        format!(
            "link {} – {}: up. Press to cut it (shift: {} → {} only)",
            l.a, l.b, l.a, l.b
        )
    } else {
        format!(
            "link {} – {}: {}. Press to heal it",
            l.a,
            l.b,
            label.trim_start_matches("✕ ")
        )
    };
    let title = if state == "up" {
        format!("net cut {} {} (shift: one way)", l.a, l.b)
    } else {
        format!("net heal {} {}", l.a, l.b)
    };
    (shown(aria), shown(title), shown(label))
}

/// A link under the pointer or the keyboard's focus: the forecast of
/// pressing it, and which link that is (`Pointed`).
fn link_pointer(l: &LinkView, up: bool, props: &LinksProps, pointed: &Pointed) -> Pointing {
    let (f, g) = (props.on_forecast.clone(), props.on_forecast.clone());
    let (pointed, unpointed) = (pointed.clone(), pointed.clone());
    let (a, b) = (l.a.clone(), l.b.clone());
    Pointing::new(
        move || {
            *pointed.borrow_mut() = Some((a.clone(), b.clone(), up));
            f.emit(Some(link_change(&a, &b, up)))
        },
        move || {
            *unpointed.borrow_mut() = None;
            g.emit(None)
        },
    )
}

fn link(
    l: &LinkView,
    ((x1, y1), (x2, y2)): (Point, Point),
    ((mx, my), touch_r): (Point, f64),
    props: &LinksProps,
    pointed: &Pointed,
) -> (Html, Html) {
    let state = link_state(l);
    let run = {
        let on_run = props.on_run.clone();
        let (a, b) = (l.a.clone(), l.b.clone());
        let up = state == "up";
        move |one_way: bool| on_run.emit(actions::link(&a, &b, up, one_way))
    };
    let onclick = {
        let run = run.clone();
        Callback::from(move |e: MouseEvent| run(e.shift_key()))
    };
    let onkeydown = pressed_by_key(run);
    let p = link_pointer(l, state == "up", props, pointed);
    let (aria, title, label) = link_words(l, state);
    // a link that is not the default says how, after what a press does
    let net: Vec<String> = netmap::pair_labels(&props.view.0, l)
        .iter()
        .map(|n| shown(n.words()))
        .collect();
    let (aria, title) = if net.is_empty() {
        (aria, title)
    } else {
        let net = net.join("; ");
        (format!("{aria}. {net}"), format!("{title}\n{net}"))
    };
    let key = format!("{}-{}", l.a, l.b);
    let (x1, y1, x2, y2) = (
        format!("{x1:.1}"),
        format!("{y1:.1}"),
        format!("{x2:.1}"),
        format!("{y2:.1}"),
    );
    // The line (a wide, clear hit stroke and the wire) is a pointer target
    // too; the handle, the button the keyboard and the automation contract
    // know, is drawn above every line so no other link's stroke covers it.
    let line = html! {
        <g key={key.clone()} class={classes!("link", "link-line", state)} aria-hidden="true"
            onclick={onclick.clone()} onmouseenter={p.enter.clone()} onmouseleave={p.leave.clone()}>
            <title>{ title.clone() }</title>
            <line class="hit" x1={x1.clone()} y1={y1.clone()} x2={x2.clone()} y2={y2.clone()} />
            <line class="wire" {x1} {y1} {x2} {y2} />
        </g>
    };
    let handle = html! {
        <g {key} class={classes!("link", state)} data-testid={format!("link-{}-{}", l.a, l.b)}
            data-state={state} role="button" tabindex="0" aria-label={aria} {onclick} {onkeydown}
            onmouseenter={p.enter} onmouseleave={p.leave} onfocus={p.focus} onblur={p.blur}>
            <title>{ title }</title>
            <circle class="touch" cx={format!("{mx:.1}")} cy={format!("{my:.1}")} r={format!("{touch_r:.1}")} aria-hidden="true" />
            <circle class="focus-ring" cx={format!("{mx:.1}")} cy={format!("{my:.1}")} r="16" aria-hidden="true" />
            <circle class="handle" cx={format!("{mx:.1}")} cy={format!("{my:.1}")} r="11" />
            <text class="handle-mark" x={format!("{mx:.1}")} y={format!("{:.1}", my + 4.5)} text-anchor="middle" aria-hidden="true">
                { match (l.a_to_b, l.b_to_a) { (true, true) => "↔", (false, false) => "✕", _ => "→" } }
            </text>
            if !label.is_empty() {
                <text class="link-label" x={format!("{mx:.1}")} y={format!("{:.1}", my - 16.0)} text-anchor="middle">{ label }</text>
            }
        </g>
    };
    (line, handle)
}

/// A key handler for an element that acts as a button: Enter or Space
/// presses it (`press` is told whether Shift was held).
fn pressed_by_key(press: impl Fn(bool) + 'static) -> Callback<KeyboardEvent> {
    Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            press(e.shift_key());
        }
    })
}

fn node(m: &MachineView, pos: &BTreeMap<String, (f64, f64)>, props: &NodesProps) -> Html {
    let Some(&(x, y)) = pos.get(&m.name) else {
        return Html::default();
    };
    let state = m.state();
    let word = state_word(m);
    let (l1, l2, l3) = match (&m.process, &m.last_exit) {
        // etcd 3.5 asks a member for /downgrade/enabled before its raft
        // starts: a linearizable read, which waits up to 7 s without quorum
        (None, _) if m.joining => (
            "etcd starting".to_string(),
            "asks /downgrade/enabled".to_string(),
            String::new(),
        ),
        (Some(p), _) => (
            format!("{} {:x}", p.name, p.id),
            format!(
                "term {} · {}",
                p.term,
                if p.ready { "ready" } else { "starting" }
            ),
            format!("commit {} · applied {}", p.commit, p.applied),
        ),
        (None, Some(e)) if e.was_stopped() => {
            (format!("etcd {}", e.reason), String::new(), String::new())
        }
        (None, Some(e)) => (
            format!("exited ({})", e.status),
            clipped(&e.reason, 26),
            String::new(),
        ),
        (None, None) => never_started(m, quorum::resident(&props.view.0, &m.name)),
    };
    let selected = props.selected.as_deref() == Some(m.name.as_str());
    let select = {
        let on = props.on_select.clone();
        let name = m.name.clone();
        move || on.emit(if selected { None } else { Some(name.clone()) })
    };
    let onclick = {
        let select = select.clone();
        Callback::from(move |_: MouseEvent| select())
    };
    let onkeydown = pressed_by_key(move |_| select());
    let addr = actions::address(m).to_string();
    let full = match &m.last_exit {
        Some(e) if m.process.is_none() => format!(
            "{}: {state}, exit status {}: {}",
            m.name, e.status, e.reason
        ),
        _ => format!("{}: {word}. {l1}. {l2}. {l3}", m.name),
    };
    let full = format!("{full}. etcd {}", m.etcd_shown().release());
    let full = shown(full);
    // The button is the box itself (`rect.box`), named by the machine's whole
    // state ("node01: leader. …", so a voice command can say "node01"): the
    // lines over it, each with its words' definitions as a tooltip, are not
    // inside the button, whose name would then have to hold every tooltip.
    let aria = format!("{full}. Press for its actions");
    let g = props.geo;
    let (bx, by) = (x - g.box_w / 2.0, y - g.box_h / 2.0);
    let line = |j: usize, dy: f64, class: &'static str, text: String| {
        let tip = tip(&text);
        let squeeze = squeezed(class, &text, g.box_w - 20.0);
        let adjust = squeeze.as_ref().map(|_| "spacingAndGlyphs");
        let text = html! {
            <text data-line={j.to_string()} class={class} x={format!("{:.1}", bx + 10.0)} y={format!("{:.1}", by + dy)}
                textLength={squeeze} lengthAdjust={adjust}>{ shown(text) }</text>
        };
        if tip.is_empty() {
            return text;
        }
        // The definitions as the line's tooltip, beside the text (not in it).
        html! { <g class="words"><title>{ tip }</title>{ text }</g> }
    };
    html! {
        <g key={m.name.clone()} class={classes!("node", state, selected.then_some("selected"), (!m.up).then_some("off"))}
            data-testid={format!("machine-{}", m.name)} data-state={state} {onclick} {onkeydown}>
            <title>{ aria.clone() }</title>
            <rect class="box" role="button" tabindex="0" aria-pressed={selected.to_string()} aria-label={aria}
                x={format!("{bx:.1}")} y={format!("{by:.1}")} width={g.box_w.to_string()} height={g.box_h.to_string()} rx="8" />
            { line(0, 18.0, "name", format!("{} {} {word}", m.name, symbol(word))) }
            if g.compact {
                // three lines: a running etcd's term and its commit/applied
                // (its member ID is in the machine's panel), else what ended it
                if m.process.is_some() {
                    { line(2, 39.0, "sub", l2) }
                } else {
                    { line(1, 39.0, "sub", l1) }
                }
                { line(3, 57.0, "sub", if l3.is_empty() { addr } else { l3 }) }
            } else {
                { line(1, 36.0, "sub", l1) }
                { line(2, 52.0, "sub", l2) }
                { line(3, 68.0, "sub", if l3.is_empty() { addr } else { l3 }) }
            }
        </g>
    }
}

/// The three lines of a machine whose etcd never ran: the member `member
/// add` made for it, if any (named, never a bare ID), or that none runs.
fn never_started(m: &MachineView, member: Option<MemberLabel>) -> (String, String, String) {
    let off = if m.up { "" } else { "powered off" };
    match member {
        Some(l) => (
            format!("{} {:x}", l.name, l.id),
            format!(
                "{} · not started",
                if l.is_learner { "learner" } else { "voter" }
            ),
            off.to_string(),
        ),
        None if !m.up => ("powered off".to_string(), String::new(), String::new()),
        None => ("no etcd running".to_string(), String::new(), String::new()),
    }
}

/// The glossary definitions of the words a node's line uses (its tooltip).
/// A monospaced line (`sub`, 12.5 px: about 7.5 px a character) too long for
/// its box, e.g. `commit 10010 · applied 10010` after a large data set, is
/// drawn squeezed into the box's width rather than past its edge: the width
/// to give SVG's `textLength`, or `None` when it fits.
fn squeezed(class: &str, text: &str, avail: f64) -> Option<String> {
    const MONO_CHAR_PX: f64 = 7.5;
    let wide = text.chars().count() as f64 * MONO_CHAR_PX;
    (class == "sub" && wide > avail).then(|| format!("{avail:.1}"))
}

fn tip(text: &str) -> String {
    let mut words: Vec<Word> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter_map(Word::in_label)
        .collect();
    words.dedup();
    words
        .iter()
        .map(|w| format!("{}: {}", w.name(), w.definition()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    /// A wide screen's box, half of it.
    const HALF: Point = (98.0, 42.0);

    #[wasm_bindgen_test]
    fn a_long_line_is_squeezed_into_its_box_and_a_short_one_is_not() {
        let long = "commit 10010 · applied 10010";
        assert_eq!(squeezed("sub", long, 176.0), Some("176.0".to_string()));
        assert_eq!(squeezed("sub", "commit 8 · applied 8", 176.0), None);
        assert_eq!(
            squeezed("name", long, 176.0),
            None,
            "the name line is not mono"
        );
    }

    /// The map's `n` machines on their ring, all linked, as the page draws them.
    fn ring(n: usize) -> Vec<(Point, Point)> {
        let names: Vec<String> = (1..=n).map(|i| format!("node{i:02}")).collect();
        let view = WorldView {
            machines: names
                .iter()
                .map(|name| MachineView {
                    name: name.clone(),
                    addrs: Vec::new(),
                    up: true,
                    disk: Vec::new(),
                    process: None,
                    last_exit: None,
                    etcd: Default::default(),
                    joining: false,
                })
                .collect(),
            ..WorldView::default()
        };
        let pos = positions(&view, Geometry::of(n, false));
        let mut ends = Vec::new();
        for (i, a) in names.iter().enumerate() {
            for b in names.iter().skip(i + 1) {
                ends.push((pos[a], pos[b]));
            }
        }
        ends
    }

    fn min_distance(ps: &[(f64, f64)]) -> f64 {
        let mut d = f64::INFINITY;
        for (i, p) in ps.iter().enumerate() {
            for q in &ps[i + 1..] {
                d = d.min((p.0 - q.0).hypot(p.1 - q.1));
            }
        }
        d
    }

    #[wasm_bindgen_test]
    fn four_machines_have_six_handles_apart() {
        let ends = ring(4);
        assert_eq!(ends.len(), 6);
        // The two diagonals cross at the centre: their middles coincide.
        let mid =
            |((x1, y1), (x2, y2)): ((f64, f64), (f64, f64))| ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
        let middles: Vec<(f64, f64)> = ends.iter().map(|&e| mid(e)).collect();
        assert!(min_distance(&middles) < 1.0);
        let hs = handle_points(&ends, HANDLE_GAP, HALF);
        assert_eq!(hs.len(), 6);
        assert!(min_distance(&hs) >= HANDLE_GAP, "{hs:?}");
    }

    #[wasm_bindgen_test]
    fn handles_stay_at_the_middle_when_clear_and_on_their_link() {
        let ends = ring(3);
        let hs = handle_points(&ends, HANDLE_GAP, HALF);
        for (&((x1, y1), (x2, y2)), &(hx, hy)) in ends.iter().zip(&hs) {
            assert!((hx - (x1 + x2) / 2.0).abs() < 1e-9 && (hy - (y1 + y2) / 2.0).abs() < 1e-9);
        }
        for n in 2..=8 {
            let ends = ring(n);
            let hs = handle_points(&ends, HANDLE_GAP, HALF);
            for (&((x1, y1), (x2, y2)), &(hx, hy)) in ends.iter().zip(&hs) {
                // On the segment: the cross product is zero, between the ends.
                let cross = (x2 - x1) * (hy - y1) - (y2 - y1) * (hx - x1);
                assert!(cross.abs() < 1e-6, "{n}: off its link");
                let t = ((hx - x1) * (x2 - x1) + (hy - y1) * (y2 - y1))
                    / ((x2 - x1).powi(2) + (y2 - y1).powi(2));
                assert!((0.25..=0.75).contains(&t), "{n}: t = {t}");
            }
            if n <= 6 {
                assert!(min_distance(&hs) >= HANDLE_GAP, "{n} machines: {hs:?}");
            }
        }
    }

    #[wasm_bindgen_test]
    fn a_cut_link_forecasts_its_heal() {
        assert_eq!(
            link_change("node01", "node02", true),
            Change::Cut {
                a: "node01".into(),
                b: "node02".into()
            }
        );
        assert_eq!(
            link_change("node01", "node02", false),
            Change::Heal {
                a: "node01".into(),
                b: "node02".into()
            }
        );
    }
}
