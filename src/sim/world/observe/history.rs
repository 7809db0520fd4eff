//! The history watcher: when asked, the clients' single-key puts, deletes
//! and linearizable gets, each with when it was sent and answered
//! (`sim::history` checks them).

use std::collections::BTreeMap;

use crate::sim::etcd::request::{Reply, Request};
use crate::sim::history::{Kind, Op};
use crate::sim::world::{CallResult, World};

/// The operations so far, and for each call still waiting its operation's place.
#[derive(Default)]
pub(super) struct Recorder {
    ops: Vec<Op>,
    waiting: BTreeMap<u64, usize>,
}

impl World {
    /// Records every client put, delete and linearizable get from now on.
    pub fn record_history(&mut self) {
        self.observe.history.get_or_insert_with(Default::default);
    }

    /// The recorded operations, in the order they were sent.
    pub fn history(&self) -> &[Op] {
        self.observe.history.as_ref().map_or(&[], |h| &h.ops)
    }

    /// Client call `req` was sent with `request`.
    pub(in crate::sim::world) fn note_invoke(&mut self, req: u64, request: &Request) {
        let now = self.now_ms();
        let Some(h) = self.observe.history.as_mut() else {
            return;
        };
        let Some((key, kind)) = history_kind(request) else {
            return;
        };
        h.waiting.insert(req, h.ops.len());
        h.ops.push(Op {
            key,
            kind,
            invoke: now,
            complete: None,
        });
    }

    /// Client call `req` ended with `result`.
    pub(in crate::sim::world) fn note_complete(&mut self, req: u64, result: &CallResult) {
        let now = self.now_ms();
        let Some(h) = self.observe.history.as_mut() else {
            return;
        };
        let Some(op) = h.waiting.remove(&req).and_then(|i| h.ops.get_mut(i)) else {
            return;
        };
        let CallResult::Reply(r) = result else {
            return; // no answer: it may still take effect
        };
        match (&mut op.kind, &r.reply) {
            (Kind::Read(v), Reply::Range(kvs)) => {
                *v = kvs.first().map(|kv| kv.value.clone());
                op.complete = Some(now);
            }
            (Kind::Write(_), Reply::Put | Reply::Delete(_)) => op.complete = Some(now),
            _ => {}
        }
    }
}

/// The key and kind a history records for `request`: single-key puts,
/// deletes and linearizable gets (a serializable get may read a stale value
/// by design; prefix operations are not registers).
fn history_kind(request: &Request) -> Option<(String, Kind)> {
    match request {
        Request::Put { key, value } => Some((key.clone(), Kind::Write(Some(value.clone())))),
        Request::Delete { key, prefix: false } => Some((key.clone(), Kind::Write(None))),
        Request::Range {
            key,
            prefix: false,
            serializable: false,
        } => Some((key.clone(), Kind::Read(None))),
        _ => None,
    }
}
