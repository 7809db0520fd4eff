//! The page (wasm32 only): a Yew app over one shell session. It opens on a running
//! three-machine cluster, shows the machines, and offers the terminal; every change
//! goes through the same shell commands a person types.

mod app;
mod state;

pub use app::App;
pub use state::{Model, TermKind, TermLine};

/// Mounts the app on the page's body.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
