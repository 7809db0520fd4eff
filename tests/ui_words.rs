//! The page's words in headless Chromium (wasm-bindgen-test), on the mounted
//! app: every quorum-panel label that is a glossary word links to it, and the
//! link opens and closes; "started" counts the voters the map shows running,
//! apart from etcd's published; a refused forecast is a warning; the hint line
//! says what the world holds, down to an empty world.
#![cfg(target_arch = "wasm32")]

use quorum_playground::sim::glossary::Word;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[path = "common/page.rs"]
mod page;
use page::{by_testid, click, mount, until};

fn find(root: &web_sys::Element, selector: &str) -> Option<web_sys::Element> {
    root.query_selector(selector).ok().flatten()
}

fn text(root: &web_sys::Element, id: &str) -> String {
    by_testid(root, id)
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

/// An event made by JavaScript (`new KeyboardEvent(…)`), dispatched on `el`.
fn dispatch(el: &web_sys::Element, make: &str) {
    let ev: web_sys::Event = js_sys::eval(make).expect("an event").unchecked_into();
    el.dispatch_event(&ev).expect("dispatch");
}

/// Each label of the quorum panel, with the glossary word its link opens.
fn labels(root: &web_sys::Element) -> Vec<(String, Option<String>)> {
    let dts = root
        .query_selector_all("[data-testid=\"quorum-facts\"] dt")
        .expect("dt");
    (0..dts.length())
        .filter_map(|i| dts.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .map(|dt| {
            let label = dt
                .first_child()
                .and_then(|t| t.text_content())
                .unwrap_or_default();
            let link = find(&dt, "[data-testid^=\"gloss-\"]")
                .and_then(|g| g.get_attribute("data-testid"))
                .map(|id| id.trim_start_matches("gloss-").to_string());
            (label, link)
        })
        .collect()
}

fn running_on_map(root: &web_sys::Element) -> u32 {
    root.query_selector_all(
        "[data-testid^=\"machine-\"]:not([data-state=\"stopped\"]):not([data-state=\"exited\"])",
    )
    .map(|l| l.length())
    .unwrap_or(0)
}

#[wasm_bindgen_test]
async fn the_page_says_what_it_shows_in_words_a_learner_knows() {
    let (root, handle) = mount();
    until(&root, "quorum ok", |r| {
        text(r, "quorum-status").contains("quorum ok")
    })
    .await;

    // every label that is a glossary word links to its word
    let rows = labels(&root);
    assert!(rows.len() >= 8, "{rows:?}");
    for (label, link) in &rows {
        let word = Word::in_label(label).map(|w| w.name().to_string());
        assert_eq!(link, &word, "the label {label:?}");
    }
    assert!(rows.iter().filter(|(_, l)| l.is_some()).count() >= 6);

    // the hint says what the world holds
    until(&root, "the hint", |r| {
        text(r, "hint").starts_with("3 machines, all running etcd 3.4")
    })
    .await;
    let started = |r: &web_sys::Element, want: &str| text(r, "quorum-facts").contains(want);
    assert!(started(&root, "running 3 of 3 voters · published 3 of 3"));

    // node02 stopped: running follows the map, published stays etcd's
    let node = by_testid(&root, "machine-node02").expect("node02");
    dispatch(&node, "new MouseEvent('click', {bubbles: true})");
    until(&root, "its actions", |r| {
        by_testid(r, "action-stop").is_some()
    })
    .await;
    click(&by_testid(&root, "action-stop").expect("stop"));
    until(&root, "the count", |r| {
        started(r, "running 2 of 3 voters · published 3 of 3")
    })
    .await;
    assert_eq!(running_on_map(&root), 2);
    assert!(
        text(&root, "quorum-facts").contains("node02 (stopped)"),
        "{}",
        text(&root, "quorum-facts")
    );
    until(&root, "the hint", |r| {
        text(r, "hint").starts_with("3 machines, 2 running etcd 3.4")
    })
    .await;

    // a glossary link opens its definition and Escape closes it
    let gloss = find(
        &root,
        "[data-testid=\"quorum-facts\"] [data-testid=\"gloss-started\"] button",
    )
    .expect("the started label's link");
    click(&gloss);
    until(&root, "the definition", |r| {
        find(
            r,
            "[data-testid=\"gloss-started\"] [data-testid=\"gloss-definition\"]",
        )
        .and_then(|d| d.text_content())
        .is_some_and(|t| t.starts_with("started: etcd counts a member as started"))
    })
    .await;
    assert_eq!(
        gloss.get_attribute("aria-expanded").as_deref(),
        Some("true")
    );
    dispatch(
        &gloss,
        "new KeyboardEvent('keydown', {key: 'Escape', bubbles: true})",
    );
    until(&root, "the definition closed", |r| {
        find(r, "[data-testid=\"gloss-definition\"]").is_none()
    })
    .await;

    // a refused forecast (promoting a member that does not exist) is a warning
    let input = by_testid(&root, "terminal-input").expect("the terminal");
    input
        .dyn_ref::<web_sys::HtmlInputElement>()
        .expect("an input")
        .set_value("etcdctl member promote 99");
    dispatch(&input, "new InputEvent('input', {bubbles: true})");
    until(&root, "a refused forecast", |r| {
        find(r, "[data-testid=\"forecast\"] p[data-outcome=\"refused\"]")
            .is_some_and(|p| p.class_list().contains("warn"))
    })
    .await;
    assert!(text(&root, "forecast").contains("member not found"));

    // an empty world: the hint gives a first step
    click(&by_testid(&root, "reset-empty").expect("Empty world"));
    until(&root, "the empty world's hint", |r| {
        text(r, "hint").starts_with("An empty world")
    })
    .await;
    assert!(text(&root, "hint").contains("machine add node01 192.168.0.61"));
    handle.destroy();
    root.remove();
}
