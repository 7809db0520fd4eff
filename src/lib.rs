//! Quorum Playground: a simulated etcd 3.4 world on raft-rs, its shell, and its UI.
#[macro_use]
mod named;

pub mod bench;
pub mod chaos;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod export;
pub mod lessons;
pub mod link;
pub mod shell;
pub mod sim;
#[cfg(target_arch = "wasm32")]
pub mod ui;
