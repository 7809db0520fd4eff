//! The learner panel's catch-up line in headless Chromium: the quorum panel
//! mounted on the views of a real run (a learner that needs a 28 kB snapshot
//! from a leader whose NIC sends 64 kbit/s), re-rendered every quarter of a
//! simulated second. The line counts the snapshot's bytes as they leave, the
//! time left is "—" until the panel has watched the rate for a second and
//! then counts down, and the line goes once the learner has taken it and
//! `member promote` would be accepted.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use quorum_playground::shell::session::Session;
use quorum_playground::sim::quorum;
use quorum_playground::ui::{QuorumPanel, QuorumProps};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[path = "common/page.rs"]
mod page;
use page::{body_root, by_testid};

const SCRIPT: &str = "\
$ machine add node01 10.0.5.1
$ machine add node02 10.0.5.2
node01$ etcd --name node01 --initial-advertise-peer-urls http://10.0.5.1:2380 --listen-peer-urls http://10.0.5.1:2380 --advertise-client-urls http://10.0.5.1:2379 --listen-client-urls http://10.0.5.1:2379 --initial-cluster node01=http://10.0.5.1:2380 --snapshot-count 5
$ sleep 1
node01$ etcdctl --endpoints=http://10.0.5.1:2379 put k1 v1
node01$ etcdctl --endpoints=http://10.0.5.1:2379 put k2 v2
node01$ etcdctl --endpoints=http://10.0.5.1:2379 put k3 v3
node01$ etcdctl --endpoints=http://10.0.5.1:2379 put k4 v4
node01$ etcdctl --endpoints=http://10.0.5.1:2379 put k5 v5
node01$ etcdctl --endpoints=http://10.0.5.1:2379 put k6 v6
node01$ etcdctl --endpoints=http://10.0.5.1:2379 put k7 v7
$ net rate node01 64kbit
node01$ etcdctl --endpoints=http://10.0.5.1:2379 member add node02 --learner --peer-urls=http://10.0.5.2:2380
node02$ etcd --name node02 --initial-advertise-peer-urls http://10.0.5.2:2380 --listen-peer-urls http://10.0.5.2:2380 --advertise-client-urls http://10.0.5.2:2379 --listen-client-urls http://10.0.5.2:2379 --initial-cluster node01=http://10.0.5.1:2380,node02=http://10.0.5.2:2380 --initial-cluster-state existing --snapshot-count 5";

fn props(s: &Session) -> QuorumProps {
    let view = s.world.view();
    QuorumProps {
        quorum: Rc::new(quorum::analyze(&view)),
        learners: quorum::learners(&view),
        forecast: None,
    }
}

fn text(root: &web_sys::Element, id: &str) -> Option<String> {
    by_testid(root, id).and_then(|e| e.text_content())
}

#[wasm_bindgen_test]
async fn the_catch_up_line_counts_a_snapshots_bytes_and_the_time_left() {
    let mut s = Session::new(1);
    for line in SCRIPT.lines() {
        assert_eq!(s.run_typed(line).output.status, 0, "{line}");
    }
    let root = body_root();
    let mut handle =
        yew::Renderer::<QuorumPanel>::with_root_and_props(root.clone(), props(&s)).render();
    let mut seen = Vec::new();
    for _ in 0..24 {
        s.run_typed("$ sleep 0.25");
        handle.update(props(&s));
        gloo::timers::future::TimeoutFuture::new(0).await;
        let bar = by_testid(&root, "catchup-transfer")
            .and_then(|t| t.query_selector("[role=progressbar]").ok().flatten())
            .and_then(|b| b.get_attribute("aria-valuenow"));
        seen.push((
            text(&root, "catchup-bytes"),
            text(&root, "catchup-eta"),
            bar,
            text(&root, &format!("learner-{:x}", 0x5ab1696a6c225f72u64)).unwrap_or_default(),
        ));
    }
    let sending: Vec<_> = seen
        .iter()
        .filter(|(b, ..)| {
            b.as_deref()
                .is_some_and(|b| b.starts_with("snapshot: ") && b.contains(" sent"))
        })
        .collect();
    assert!(sending.len() >= 8, "the snapshot takes seconds: {seen:?}");
    assert_eq!(sending[0].1.as_deref(), Some("time left —"), "{seen:?}");
    let etas: Vec<u64> = sending
        .iter()
        .filter_map(|(_, e, ..)| {
            e.as_deref()?
                .strip_prefix("about ")?
                .strip_suffix(" s left")?
                .parse()
                .ok()
        })
        .collect();
    assert!(etas.len() >= 4, "the time left, once observed: {seen:?}");
    assert!(
        etas.windows(2).all(|w| w[0] >= w[1]) && etas[0] > etas[etas.len() - 1],
        "{etas:?}"
    );
    let bars: Vec<u32> = sending
        .iter()
        .filter_map(|(_, _, b, _)| b.as_deref()?.parse().ok())
        .collect();
    assert!(
        bars.iter().any(|&b| b > 10 && b < 90),
        "the bytes bar moves: {bars:?}"
    );
    assert!(
        sending
            .iter()
            .all(|(.., l)| l.contains("promote would be refused")),
        "{seen:?}"
    );
    let (bytes, _, _, last) = seen.last().expect("renders");
    assert_eq!(bytes, &None, "no line once it has everything: {seen:?}");
    assert!(last.contains("promote would be accepted"), "{last}");
    handle.destroy();
    root.remove();
}
