//! The observers: read-only watchers of the world. They count and record
//! what happens (raft traffic, frames of the view, Raft's and etcd's
//! promises, the clients' operations), and nothing in the simulation reads
//! what they keep: turning one on or off changes no byte of any output.

mod frames;
mod history;
mod invariants;
mod traffic;

pub use frames::MAX_FRAMES;
pub use traffic::Traffic;

use crate::sim::invariants::Checker;
use crate::sim::view::WorldView;
use crate::sim::wire::WireLog;

/// What the observers keep: only this room changes it.
#[derive(Default)]
pub(super) struct Observers {
    /// Raft messages per directed pair of machines.
    traffic: traffic::TrafficTable,
    /// When asked: the recent raft messages, one record each (`sim::wire`).
    wire: WireLog,
    /// While recording: the frame spacing, and the frames so far.
    frame_every_ms: Option<u64>,
    frames: Vec<(u64, WorldView)>,
    /// When a test asks: Raft's and etcd's promises, checked after every event.
    invariants: Option<Checker>,
    /// When asked: the clients' key-value operations, and the call each
    /// still waits for (`sim::history`).
    history: Option<history::Recorder>,
}
