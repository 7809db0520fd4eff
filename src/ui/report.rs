//! Never a dead page: the seed and every command run so far, kept outside Yew,
//! and a panic hook that shows them in a banner (plain DOM, since a panicked Yew
//! app cannot render any more) with a report to copy and a reload button.

use std::cell::RefCell;

use crate::lessons::Start;
use crate::link::{Run, Step};

thread_local! {
    static RUN: RefCell<Option<Run>> = const { RefCell::new(None) };
}

/// A new world began.
pub fn reset(seed: u64, start: Start) {
    RUN.with(|r| *r.borrow_mut() = Some(Run::new(seed, start)));
}

/// A command the page recorded, with the time its clock ran before it (the
/// page's own `Run` step, kept here too because a panicked app cannot be read).
pub fn command(step: &Step) {
    RUN.with(|r| {
        if let Some(run) = r.borrow_mut().as_mut() {
            run.steps.push(step.clone());
        }
    });
}

/// The report: what to paste into a bug report, and the run as a script the
/// runner replays (`Run::script`).
pub fn text(panic: &str) -> String {
    RUN.with(|r| match r.borrow().as_ref() {
        Some(run) => format!(
            "Quorum Playground stopped: {panic}\ncommands so far: {}\n{}",
            run.steps.len(),
            run.script()
        ),
        None => format!("Quorum Playground stopped: {panic}\n(before any world began)\n"),
    })
}

/// Installs the panic hook (once, at start-up).
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let report = text(&info.to_string());
        web_sys::console::error_1(&report.clone().into());
        show_banner(&report);
    }));
}

/// Puts the banner at the top of the body, built with DOM calls (text only, no HTML).
pub fn show_banner(report: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if doc.query_selector(".panic-banner").ok().flatten().is_some() {
        // One banner: a dead app may panic again on every later event.
        return;
    }
    let Some(body) = doc.body() else {
        return;
    };
    let Ok(banner) = doc.create_element("div") else {
        return;
    };
    banner.set_class_name("panic-banner");
    let _ = banner.set_attribute("role", "alert");
    let _ = banner.set_attribute("data-testid", "panic-banner");
    if let Ok(h) = doc.create_element("strong") {
        h.set_text_content(Some(
            "The playground hit a bug and stopped. Copy the report below (it has the seed and your commands) and reload the page.",
        ));
        let _ = banner.append_child(&h);
    }
    if let Ok(pre) = doc.create_element("textarea") {
        pre.set_text_content(Some(report));
        let _ = pre.set_attribute("readonly", "");
        let _ = pre.set_attribute("rows", "8");
        let _ = pre.set_attribute("aria-label", "bug report");
        let _ = banner.append_child(&pre);
    }
    if let Ok(b) = doc.create_element("button") {
        b.set_text_content(Some("Reload"));
        let _ = b.set_attribute("onclick", "location.reload()");
        let _ = banner.append_child(&b);
    }
    let _ = body.insert_before(&banner, body.first_child().as_ref());
}
