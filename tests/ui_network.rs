//! The network on the page's map, in headless Chromium: after `net delay`
//! and `net rate` the map's model has a label on the slow link and a queue
//! gauge on the limited machine, a default LAN has neither, and the selected
//! machine's network buttons type those commands into the terminal and
//! draw the label and the gauge.
#![cfg(target_arch = "wasm32")]

use quorum_playground::ui::netmap::{link_labels, nic_gauges};
use quorum_playground::ui::{Model, Msg};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[path = "common/page.rs"]
mod page;
use page::{by_testid, click, mount, paused, play, send, until};

#[wasm_bindgen_test]
fn the_maps_model_shows_a_slow_link_and_a_limited_nic() {
    let m = paused(Model::boot(1));
    assert!(link_labels(&m.view).is_empty() && nic_gauges(&m.view).is_empty());
    let m = send(m, Msg::Run("net delay node01 node02 200ms".into()));
    let m = send(m, Msg::Run("net rate node01 1mbit".into()));
    let labels = link_labels(&m.view);
    assert_eq!(labels.len(), 1, "{labels:?}");
    let l = &labels[0];
    assert_eq!(
        (l.a.as_str(), l.b.as_str(), &l.way),
        ("node01", "node02", &None)
    );
    assert_eq!(l.lines, ["200 ms"]);
    assert_eq!(l.testid(), "net-link-node01-node02");
    let gauges = nic_gauges(&m.view);
    assert_eq!(gauges.len(), 1, "{gauges:?}");
    let g = &gauges[0];
    assert_eq!((g.machine.as_str(), g.rate.as_str()), ("node01", "1mbit"));
    assert_eq!(g.limit, 4 << 20);
    assert!(!g.full);
    // one way: a label for that direction alone
    let m = send(m, Msg::Run("net loss node03->node02 5%".into()));
    let one = link_labels(&m.view);
    assert!(one
        .iter()
        .any(|l| l.way == Some(("node03".into(), "node02".into())) && l.lines == ["5% loss"]));
    // time passes: the gauge follows the queue, which the heartbeats keep small
    let m = play(m, 2000);
    let g = &nic_gauges(&m.view)[0];
    assert!(g.fill < 0.01 && !g.full, "{g:?}");
    // cleared: nothing shown
    let m = paused(m);
    let m = send(m, Msg::Run("net clear node01 node02".into()));
    let m = send(m, Msg::Run("net clear node03 node02".into()));
    let m = send(m, Msg::Run("net clear node01".into()));
    assert!(link_labels(&m.view).is_empty() && nic_gauges(&m.view).is_empty());
}

#[wasm_bindgen_test]
fn a_queue_fills_frame_by_frame_and_is_shown_full() {
    // 8 kbit (a byte a millisecond) with a 1 kB queue: a 2 kB append to one
    // follower takes 2 s to leave, and the one to the other follower does
    // not fit behind it
    let m = play(Model::boot(1), 100);
    let m = send(m, Msg::Run("net rate node01 8kbit limit 1kb".into()));
    let m = send(m, Msg::Run(format!("etcdctl put k {}", "v".repeat(2000))));
    let mut m = m;
    let mut seen = Vec::new();
    for _ in 0..60 {
        m = play(m, 48);
        if let Some(g) = nic_gauges(&m.view).first() {
            seen.push((g.fill, g.full, g.queued));
        }
    }
    assert!(
        seen.iter()
            .any(|&(fill, full, q)| full && fill == 1.0 && q > 1024),
        "{seen:?}"
    );
    // it drains at the rate: a second later, a thousand bytes fewer
    let first = seen.iter().position(|s| s.1).unwrap_or(0);
    assert!(
        seen.iter().skip(first).any(|s| s.2 + 900 < seen[first].2),
        "{seen:?}"
    );
}

#[wasm_bindgen_test]
async fn the_network_buttons_type_commands_and_the_map_draws_them() {
    let (root, handle) = mount();
    until(&root, "machines", |r| {
        by_testid(r, "machine-node01").is_some()
    })
    .await;
    assert!(by_testid(&root, "nic-node01").is_none());
    assert!(by_testid(&root, "net-link-node01-node02").is_none());
    let node = by_testid(&root, "machine-node01").expect("node01");
    node.dispatch_event(&web_sys::MouseEvent::new("click").expect("event"))
        .expect("dispatch");
    until(&root, "the network buttons", |r| {
        by_testid(r, "action-net-rate").is_some()
    })
    .await;
    click(&by_testid(&root, "action-net-rate").expect("rate"));
    until(&root, "the gauge", |r| by_testid(r, "nic-node01").is_some()).await;
    click(&by_testid(&root, "action-net-delay").expect("delay"));
    until(&root, "the label", |r| {
        by_testid(r, "net-link-node01-node02").is_some()
    })
    .await;
    let label = by_testid(&root, "net-link-node01-node02").expect("label");
    assert_eq!(label.get_attribute("data-lines").as_deref(), Some("200 ms"));
    let out = by_testid(&root, "terminal-output")
        .and_then(|e| e.text_content())
        .unwrap_or_default();
    assert!(out.contains("net rate node01 1mbit"), "{out}");
    assert!(out.contains("net delay node01 node02 200ms"), "{out}");
    // the buttons now clear what they set
    until(&root, "clear buttons", |r| {
        by_testid(r, "action-net-clear-nic").is_some()
            && by_testid(r, "action-net-clear-link").is_some()
    })
    .await;
    click(&by_testid(&root, "action-net-clear-link").expect("clear link"));
    until(&root, "no label", |r| {
        by_testid(r, "net-link-node01-node02").is_none()
    })
    .await;
    click(&by_testid(&root, "action-net-clear-nic").expect("clear nic"));
    until(&root, "no gauge", |r| by_testid(r, "nic-node01").is_none()).await;
    handle.destroy();
    root.remove();
}
