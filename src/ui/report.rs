//! Never a dead page: the seed and every command run so far, kept outside Yew
//! (the page hands its run over in an effect after each render, [`keep`]: the
//! reducer itself has no side effects), and a panic hook, installed through Yew's own setter so rendering keeps it,
//! that shows them in a banner (plain DOM, since a panicked Yew app cannot
//! render any more) with a report to copy and a reload button. After a panic
//! the page stops cleanly: everything but the banner is made `inert`, no event
//! reaches the app's listeners and its pending frames and timers are
//! cancelled, so typing and clicking reach nothing, and a later panic adds
//! nothing. A test-only trigger, callable from the page's own script and from
//! nowhere a link can reach, makes the app panic while rendering, as a real
//! bug would.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::wasm_bindgen;
use yew::prelude::*;

use crate::link::Run;

thread_local! {
    /// The page's run as of its last render (shared with the model, not copied).
    static RUN: RefCell<Option<Rc<Run>>> = const { RefCell::new(None) };
    /// Whether the page has stopped (a panic was reported).
    static STOPPED: Cell<bool> = const { Cell::new(false) };
    /// Whether the test-only trigger was pulled: the next render panics.
    static ARMED: Cell<bool> = const { Cell::new(false) };
    /// Re-renders the root component, for the trigger.
    static RERENDER: RefCell<Option<UseForceUpdateHandle>> = const { RefCell::new(None) };
}

/// The page's run (its seed, start and every command with the time its
/// clock ran before it), kept here because a panicked app cannot be read.
/// Called by the page in an effect whenever the model's run changed
/// (`app::use_report`), never by the reducer.
pub fn keep(run: Rc<Run>) {
    RUN.with(|r| {
        if let Ok(mut r) = r.try_borrow_mut() {
            *r = Some(run);
        }
    });
}

/// The report: what to paste into a bug report, and the run as a script the
/// runner replays (`Run::script`). Never panics itself, even if the panic
/// came while the run was being written.
pub fn text(panic: &str) -> String {
    RUN.with(|r| match r.try_borrow().as_deref() {
        Ok(Some(run)) => format!(
            "Quorum Playground stopped: {panic}\ncommands so far: {}\n{}",
            run.steps.len(),
            run.script()
        ),
        Ok(None) => format!("Quorum Playground stopped: {panic}\n(before any world began)\n"),
        Err(_) => format!("Quorum Playground stopped: {panic}\n(the commands could not be read)\n"),
    })
}

/// Installs the panic hook (once, at start-up, before the app is rendered):
/// through `yew::set_custom_panic_hook`, since `Renderer::render` replaces a
/// hook set any other way with Yew's own.
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info| on_panic(&info.to_string())));
}

/// The first panic: the report to the console and the banner, then the page
/// stops. Any later one (a dead app may panic again) adds nothing.
fn on_panic(panic: &str) {
    if STOPPED.with(|s| s.replace(true)) {
        return;
    }
    let report = text(panic);
    web_sys::console::error_1(&report.clone().into());
    show_banner(&report);
    stop_page();
}

/// Makes everything but the banner inert (no focus, no clicks, no typing)
/// and marks the body `stopped` for the style; then [`SHIELD`] keeps every
/// other event from reaching the app's listeners and cancels its pending
/// frames and timers. A panicked app may hold its state borrowed, or be
/// half-way through an update: nothing may call into it again.
fn stop_page() {
    let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    else {
        return;
    };
    let _ = body.class_list().add_1("stopped");
    let children = body.children();
    for i in 0..children.length() {
        if let Some(el) = children.item(i) {
            if !el.class_list().contains("panic-banner") {
                let _ = el.set_attribute("inert", "");
            }
        }
    }
    // Plain script, so that nothing after a panic enters the wasm module; a
    // page whose policy forbids it keeps the inert part.
    let _ = js_sys::eval(SHIELD);
}

/// After a panic: listeners on `window`, first in every event's path
/// (capture), stop whatever is not aimed at the banner, and the banner stops
/// its own events from going further up, so no handler of the app
/// (`document` keys, host messages, `hashchange`, Yew's own on the body, …)
/// runs; the app's pending animation frames and timers are cancelled, as the
/// clock's loop would otherwise step a world nobody sees.
const SHIELD: &str = r#"(function () {
  var types = ['keydown', 'keyup', 'keypress', 'beforeinput', 'input', 'change', 'submit',
    'click', 'dblclick', 'auxclick', 'contextmenu', 'mousedown', 'mouseup', 'mousemove',
    'mouseover', 'mouseout', 'pointerdown', 'pointerup', 'pointermove', 'pointerover',
    'pointerout', 'touchstart', 'touchend', 'wheel', 'focus', 'blur', 'focusin', 'focusout',
    'paste', 'copy', 'cut', 'dragstart', 'dragover', 'drop', 'message', 'hashchange',
    'popstate', 'resize', 'visibilitychange'];
  var banner = document.querySelector('.panic-banner');
  var shield = function (e) {
    if (banner && e.target instanceof Node && banner.contains(e.target)) return;
    e.stopImmediatePropagation();
  };
  // The banner's own events work there, and go no further.
  var stop = function (e) { e.stopPropagation(); };
  types.forEach(function (t) {
    window.addEventListener(t, shield, true);
    if (banner) banner.addEventListener(t, stop);
  });
  var frame = requestAnimationFrame(function () {});
  for (var f = Math.max(1, frame - 1000); f <= frame; f++) cancelAnimationFrame(f);
  var timer = setTimeout(function () {}, 0);
  for (var t = Math.max(1, timer - 1000); t <= timer; t++) clearTimeout(t);
})();"#;

/// Test only: makes the app panic in its next render, as a bug in the page's
/// code would. Exported to the page's own script (`window.wasmBindings`, as
/// Trunk names it) for the end-to-end test; no link, query or message can
/// call it.
#[wasm_bindgen(js_name = quorumPlaygroundTestPanic)]
pub fn test_panic() {
    ARMED.with(|a| a.set(true));
    let rerender = RERENDER.with(|r| r.try_borrow().ok().and_then(|r| r.clone()));
    if let Some(rerender) = rerender {
        rerender.force_update();
    }
}

/// The trigger's side in the root component: it panics in render once
/// [`test_panic`] was called.
#[hook]
pub fn use_test_panic() {
    let rerender = use_force_update();
    RERENDER.with(|r| {
        if let Ok(mut r) = r.try_borrow_mut() {
            *r = Some(rerender);
        }
    });
    if ARMED.with(Cell::get) {
        panic!("test panic: quorumPlaygroundTestPanic() was called");
    }
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
    // Each part: an element with its text, after the ones before it.
    let add = |tag: &str, text: &str| {
        let el = doc.create_element(tag).ok()?;
        el.set_text_content(Some(text));
        banner.append_child(&el).ok()?;
        Some(el)
    };
    add(
        "strong",
        "The playground hit a bug and stopped. Copy the report below (it has the seed and your commands) and reload the page.",
    );
    add(
        "p",
        "The page below is frozen as it was: typing and clicking do nothing until you reload.",
    );
    let report_box = add("textarea", report);
    if let Some(pre) = &report_box {
        let _ = pre.set_attribute("readonly", "");
        let _ = pre.set_attribute("rows", "8");
        let _ = pre.set_attribute("aria-label", "bug report");
    }
    if let Some(b) = add("button", "Reload") {
        let _ = b.set_attribute("onclick", "location.reload()");
    }
    let _ = body.insert_before(&banner, body.first_child().as_ref());
    if let Some(t) =
        report_box.and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(t).ok())
    {
        let _ = t.focus();
    }
}
