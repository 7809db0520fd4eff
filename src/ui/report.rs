//! Never a dead page: the seed and every command run so far, kept outside Yew,
//! and a panic hook that shows them in a banner (plain DOM, since a panicked Yew
//! app cannot render any more) with a report to copy and a reload button.

use std::cell::RefCell;

thread_local! {
    static RUN: RefCell<Run> = const { RefCell::new(Run { seed: 1, empty: false, commands: Vec::new(), last_ms: 0 }) };
}

struct Run {
    seed: u64,
    empty: bool,
    commands: Vec<String>,
    /// The world's clock when the last command ended.
    last_ms: u64,
}

/// A new world began; its clock reads `now_ms` (after the boot script).
pub fn reset(seed: u64, empty: bool, now_ms: u64) {
    RUN.with(|r| {
        let mut r = r.borrow_mut();
        r.seed = seed;
        r.empty = empty;
        r.commands.clear();
        r.last_ms = now_ms;
    });
}

/// A command ran from `start_ms` to `end_ms` of the world's clock. Time the
/// page's clock ran in between becomes a `sleep`, so the runner replays the
/// same run.
pub fn command(start_ms: u64, end_ms: u64, line: &str) {
    RUN.with(|r| {
        let mut r = r.borrow_mut();
        if start_ms > r.last_ms {
            let gap = start_ms - r.last_ms;
            r.commands.push(format!("sleep {gap}ms"));
        }
        r.commands.push(line.to_string());
        r.last_ms = end_ms;
    });
}

/// The report: what to paste into a bug report, and a script the runner replays.
pub fn text(panic: &str) -> String {
    RUN.with(|r| {
        let r = r.borrow();
        let mut s = format!(
            "Quorum Playground stopped: {panic}\nseed: {}\nstart: {}\ncommands so far ({}):\n",
            r.seed,
            if r.empty {
                "empty world"
            } else {
                "three-member cluster (src/ui/boot.sh)"
            },
            r.commands.len()
        );
        for c in &r.commands {
            s.push_str(c);
            s.push('\n');
        }
        s
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
