//! The raft messages the world put on the wire lately, one record each: what
//! the page draws as a dot on its way and what its message inspector shows
//! (type, from, to, term, index, entries). An observation only: nothing in the
//! simulation reads it, and it is off unless asked ([`WireLog::set_on`]), so
//! the runner and the benchmarks pay nothing for it.
//!
//! The log keeps the last [`WIRE_KEPT`] messages; a view carries the last
//! [`WIRE_IN_VIEW`] of them, each with a sequence number that only grows, so
//! a reader that remembers the last number it saw takes exactly the new ones.

use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use raft::eraftpb::{Message, MessageType};

/// How many records the log keeps.
pub const WIRE_KEPT: usize = 256;

/// How many of the newest records a view carries.
pub const WIRE_IN_VIEW: usize = 96;

named_enum! {
    /// What a raft message is, in the groups the page draws and its legend
    /// names (in the legend's order).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    pub enum WireKind {
        Heartbeat => "heartbeat",
        HeartbeatResponse => "heartbeat-response",
        Append => "append",
        AppendResponse => "append-response",
        Vote => "vote",
        VoteResponse => "vote-response",
        PreVote => "prevote",
        PreVoteResponse => "prevote-response",
        Snapshot => "snapshot",
        /// Every other message raft sends between peers (`MsgTimeoutNow`,
        /// `MsgReadIndex`, `MsgReadIndexResp`, `MsgTransferLeader`...).
        Other => "other",
    }
    /// The automation contract's name (`data-kind` on the page's dots).
    fn name;
}

impl WireKind {
    /// The kind of a raft-rs message type.
    pub fn of(t: MessageType) -> WireKind {
        use MessageType::*;
        match t {
            MsgHeartbeat => WireKind::Heartbeat,
            MsgHeartbeatResponse => WireKind::HeartbeatResponse,
            MsgAppend => WireKind::Append,
            MsgAppendResponse => WireKind::AppendResponse,
            MsgRequestVote => WireKind::Vote,
            MsgRequestVoteResponse => WireKind::VoteResponse,
            MsgRequestPreVote => WireKind::PreVote,
            MsgRequestPreVoteResponse => WireKind::PreVoteResponse,
            MsgSnapshot => WireKind::Snapshot,
            _ => WireKind::Other,
        }
    }

    /// What a learner reads in the legend.
    pub fn label(self) -> &'static str {
        match self {
            WireKind::Heartbeat => "heartbeat",
            WireKind::HeartbeatResponse => "heartbeat reply",
            WireKind::Append => "append entries",
            WireKind::AppendResponse => "append reply",
            WireKind::Vote => "vote request",
            WireKind::VoteResponse => "vote reply",
            WireKind::PreVote => "pre-vote request",
            WireKind::PreVoteResponse => "pre-vote reply",
            WireKind::Snapshot => "snapshot",
            WireKind::Other => "other",
        }
    }

    /// Whether it answers another message (drawn hollow).
    pub fn is_response(self) -> bool {
        matches!(
            self,
            WireKind::HeartbeatResponse
                | WireKind::AppendResponse
                | WireKind::VoteResponse
                | WireKind::PreVoteResponse
        )
    }

    /// The request a response answers (itself for a request).
    pub fn request(self) -> WireKind {
        match self {
            WireKind::HeartbeatResponse => WireKind::Heartbeat,
            WireKind::AppendResponse => WireKind::Append,
            WireKind::VoteResponse => WireKind::Vote,
            WireKind::PreVoteResponse => WireKind::PreVote,
            k => k,
        }
    }
}

/// One raft message put on the wire (or lost at its sender).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wire {
    /// Grows by one for every message recorded since the world began.
    pub seq: u64,
    pub from: Rc<str>,
    pub to: Rc<str>,
    pub kind: WireKind,
    /// raft-rs's name of the type, such as `MsgAppend`.
    pub type_name: &'static str,
    pub from_id: u64,
    pub to_id: u64,
    pub term: u64,
    /// For an append: the index of the entry before the ones sent; for a
    /// response, the index it answers with; for a vote, the candidate's last.
    pub index: u64,
    pub log_term: u64,
    pub entries: usize,
    pub commit: u64,
    pub reject: bool,
    /// When it was sent (simulated ms).
    pub sent_ms: u64,
    /// When it arrives (simulated ms): sent plus the link's latency; for a
    /// dropped message, when it was dropped.
    pub arrive_ms: u64,
    /// Lost at the sender: the link is cut, or the peer unreachable.
    pub dropped: bool,
}

/// The recent messages, newest last.
#[derive(Debug, Default)]
pub struct WireLog {
    on: bool,
    next_seq: u64,
    kept: VecDeque<Wire>,
    /// Each machine name once, so a record clones a pointer, not a string.
    names: BTreeMap<String, Rc<str>>,
}

impl WireLog {
    /// Whether records are kept (the page asks for them).
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// Starts or stops recording (stopping forgets what was kept).
    pub fn set_on(&mut self, on: bool) {
        self.on = on;
        if !on {
            self.kept.clear();
        }
    }

    fn name(&mut self, n: &str) -> Rc<str> {
        if let Some(r) = self.names.get(n) {
            return r.clone();
        }
        let r: Rc<str> = Rc::from(n);
        self.names.insert(n.to_string(), r.clone());
        r
    }

    /// Records `m` from machine `from` to `to`, sent at `now_ms` and arriving
    /// `latency_ms` later (`None`: dropped at the sender).
    pub fn record(
        &mut self,
        from: &str,
        to: &str,
        m: &Message,
        now_ms: u64,
        latency_ms: Option<u64>,
    ) {
        if !self.on {
            return;
        }
        let t = m.get_msg_type();
        let w = Wire {
            seq: self.next_seq,
            from: self.name(from),
            to: self.name(to),
            kind: WireKind::of(t),
            type_name: type_name(t),
            from_id: m.from,
            to_id: m.to,
            term: m.term,
            index: m.index,
            log_term: m.log_term,
            entries: m.entries.len(),
            commit: m.commit,
            reject: m.reject,
            sent_ms: now_ms,
            arrive_ms: now_ms.saturating_add(latency_ms.unwrap_or(0)),
            dropped: latency_ms.is_none(),
        };
        self.next_seq += 1;
        if self.kept.len() == WIRE_KEPT {
            self.kept.pop_front();
        }
        self.kept.push_back(w);
    }

    /// The newest `n` records, oldest first.
    pub fn newest(&self, n: usize) -> Vec<Wire> {
        let skip = self.kept.len().saturating_sub(n);
        self.kept.iter().skip(skip).cloned().collect()
    }
}

/// raft-rs's name of a message type.
pub fn type_name(t: MessageType) -> &'static str {
    use MessageType::*;
    match t {
        MsgHup => "MsgHup",
        MsgBeat => "MsgBeat",
        MsgPropose => "MsgPropose",
        MsgAppend => "MsgAppend",
        MsgAppendResponse => "MsgAppendResponse",
        MsgRequestVote => "MsgRequestVote",
        MsgRequestVoteResponse => "MsgRequestVoteResponse",
        MsgSnapshot => "MsgSnapshot",
        MsgHeartbeat => "MsgHeartbeat",
        MsgHeartbeatResponse => "MsgHeartbeatResponse",
        MsgUnreachable => "MsgUnreachable",
        MsgSnapStatus => "MsgSnapStatus",
        MsgCheckQuorum => "MsgCheckQuorum",
        MsgTransferLeader => "MsgTransferLeader",
        MsgTimeoutNow => "MsgTimeoutNow",
        MsgReadIndex => "MsgReadIndex",
        MsgReadIndexResp => "MsgReadIndexResp",
        MsgRequestPreVote => "MsgRequestPreVote",
        MsgRequestPreVoteResponse => "MsgRequestPreVoteResponse",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(t: MessageType, term: u64) -> Message {
        let mut m = Message::default();
        m.set_msg_type(t);
        m.term = term;
        m.from = 1;
        m.to = 2;
        m
    }

    #[test]
    fn off_records_nothing() {
        let mut log = WireLog::default();
        log.record("a", "b", &msg(MessageType::MsgHeartbeat, 2), 10, Some(1));
        assert!(log.newest(10).is_empty());
    }

    #[test]
    fn keeps_the_newest_with_growing_numbers() {
        let mut log = WireLog::default();
        log.set_on(true);
        for i in 0..(WIRE_KEPT as u64 + 10) {
            log.record("a", "b", &msg(MessageType::MsgAppend, i), i, Some(1));
        }
        log.record("b", "a", &msg(MessageType::MsgRequestVote, 9), 500, None);
        let all = log.newest(usize::MAX);
        assert_eq!(all.len(), WIRE_KEPT);
        assert!(all.windows(2).all(|w| w[1].seq == w[0].seq + 1));
        let last = all.last().expect("a record");
        assert_eq!(
            (last.kind, last.dropped, last.arrive_ms),
            (WireKind::Vote, true, 500)
        );
        assert_eq!(last.seq, WIRE_KEPT as u64 + 10);
        assert_eq!(log.newest(3).len(), 3);
    }

    #[test]
    fn kinds_pair_requests_and_responses() {
        for k in WireKind::ALL {
            assert!(!k.request().is_response(), "{k:?}");
            if k.is_response() {
                assert_ne!(k.request(), k);
            }
        }
        assert_eq!(WireKind::of(MessageType::MsgTimeoutNow), WireKind::Other);
    }
}
