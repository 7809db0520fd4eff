//! Acknowledged writes the cluster no longer has.
//!
//! Some of a person's actions lose data etcd had promised to keep: forcing a
//! new cluster from a member that missed the latest writes, wiping a majority's
//! data dirs, restoring an old snapshot. That is a lesson, not a bug, and the
//! page names what was lost. [`lost_writes`] asks the recorded client history
//! (`World::record_history`) a question per key: could a linearizable read,
//! answered now by the cluster's serving leader, see what that leader holds?
//! When it could not, the key's last acknowledged write is lost.
//!
//! Only a leader that is serving and has caught up answers (it has committed
//! an entry of its own term and applied all it committed, and no member of
//! its cluster is in a later term), so neither a new leader that has not yet
//! learnt what its predecessor committed nor an old one cut off from the
//! others counts as a loss.

use std::collections::BTreeSet;

use super::etcd::server::Server;
use super::history::{self, Kind, Op};
use super::view::elapsed_text;
use super::world::World;

/// A write the cluster acknowledged and no longer has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LostWrite {
    pub key: String,
    /// What the write set (`None`: a delete).
    pub value: Option<String>,
    /// When it was acknowledged (simulated ms).
    pub acked_ms: u64,
    /// The serving leader's machine, and what it holds for the key.
    pub machine: String,
    pub now: Option<String>,
}

impl std::fmt::Display for LostWrite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match &self.value {
            Some(v) => format!("put {} {v}", self.key),
            None => format!("del {}", self.key),
        };
        let now = self
            .now
            .as_deref()
            .map_or("no such key".to_string(), |v| format!("{v:?}"));
        write!(
            f,
            "{what} (acknowledged at {}) is gone: {} now has {now}",
            elapsed_text(self.acked_ms),
            self.machine
        )
    }
}

/// The leader that serves linearizable reads and has applied all it knows
/// committed. A leader cut off from the others still believes it leads until
/// its election timeout: it counts only while no member of its cluster has
/// moved to a later term.
fn serving(world: &World) -> Option<(&str, &Server)> {
    world.servers().find(|(_, s)| {
        let commit = s.commit_index();
        let latest = world
            .servers()
            .filter(|(_, o)| o.cluster_id == s.cluster_id)
            .all(|(_, o)| o.term() <= s.term());
        s.is_leader()
            && s.ready
            && latest
            && s.backend.applied >= commit
            && s.log_term(commit) == Some(s.term())
    })
}

/// The acknowledged writes the serving leader no longer has, by key. Empty
/// when no leader serves, or when history is not being recorded.
pub fn lost_writes(world: &World) -> Vec<LostWrite> {
    let ops = world.history();
    let Some((machine, leader)) = serving(world) else {
        return Vec::new();
    };
    let now = world.now_ms();
    let keys: BTreeSet<&str> = ops
        .iter()
        .filter(|o| matches!(o.kind, Kind::Write(_)) && o.complete.is_some())
        .map(|o| o.key.as_str())
        .collect();
    let mut lost = Vec::new();
    for key in keys {
        let held = leader
            .backend
            .kv
            .range(key, false)
            .first()
            .map(|kv| kv.value.clone());
        let mut with_read: Vec<Op> = ops.iter().filter(|o| o.key == key).cloned().collect();
        let last_ack = with_read
            .iter()
            .filter(|o| matches!(o.kind, Kind::Write(_)))
            .filter_map(|o| o.complete.map(|c| (c, o.kind.clone())))
            .max_by_key(|(c, _)| *c);
        with_read.push(Op {
            key: key.to_string(),
            kind: Kind::Read(held.clone()),
            invoke: now,
            complete: Some(now),
        });
        if history::check(&with_read).is_ok() {
            continue;
        }
        if let Some((acked_ms, Kind::Write(value))) = last_ack {
            lost.push(LostWrite {
                key: key.to_string(),
                value,
                acked_ms,
                machine: machine.to_string(),
                now: held,
            });
        }
    }
    lost
}
