//! The page (wasm32 only): a Yew app over one shell session. It opens on a running
//! three-machine cluster and shows the cluster map, the quorum panel, the members
//! and status tables, the terminal, the logs and the timeline; every change goes
//! through the same shell commands a person types (`netmap`: the network's
//! labels and queue gauges on the map, public for the tests). If the code ever panics,
//! `report` shows a banner and stops the page.

mod app;
mod controls;
pub mod embed;
mod flights;
mod lesson;
mod logs;
mod machine;
mod map;
pub mod netmap;
mod promises;
mod quorum;
pub mod report;
mod share;
mod state;
mod tables;
mod terminal;
mod timeline;

pub use app::App;
pub use lesson::{
    lesson_url, resolve_against, same_site, LessonRefused, Parsed, Refusal, CATALOGUE,
};
pub use map::link_state;
pub use quorum::{QuorumPanel, QuorumProps};
pub use share::{embed_code, share_url};
pub use state::{
    command_line, parse_seed, parse_speed, EtcdVersion, EventKind, Export, ExportKind, LessonState,
    MapEvent, Marker, MarkerKind, Model, Msg, PauseOn, Promises, Recorded, Start, TermKind,
    TermLine, FRAME_MS, TICK_MS,
};

/// A click that flips a yes/no state (a menu, a disclosure, a mode).
fn toggle(state: &yew::UseStateHandle<bool>) -> yew::Callback<yew::MouseEvent> {
    let state = state.clone();
    yew::Callback::from(move |_| state.set(!*state))
}

/// Installs the panic banner, then mounts the app on the page's body.
pub fn start() {
    report::install();
    yew::Renderer::<Root>::new().render();
}

/// The page's root: the app, under the test-only panic trigger
/// (`report::use_test_panic`).
#[yew::function_component(Root)]
fn root() -> yew::Html {
    report::use_test_panic();
    yew::html! { <App /> }
}
