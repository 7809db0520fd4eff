//! What a message weighs on the wire, in bytes: the NIC's queue and rate
//! (`nic`) take them by this size.
//!
//! - A raft message on a rafthttp stream: `8 + protobuf size` (the stream
//!   frames each message with its 8-byte length; the protobuf size counts
//!   the header fields, the entries with their data, and the context).
//! - A snapshot POST: `HTTP_OVERHEAD + the merged snapshot's bytes` (the raft
//!   message with the v2 store, and the bbolt file behind it, as etcd's
//!   `sendMergedSnap` counts them); its answer is `HTTP_OVERHEAD`.
//! - A client request: `GRPC_OVERHEAD + key + value` (a put), `+ key` (a
//!   range or a delete), `+ the peer URLs` (member add or update); a reply:
//!   `GRPC_OVERHEAD + each key-value's key + value + KV_OVERHEAD` (a range),
//!   `+ MEMBER_BYTES` per member listed, `+ the file` (a snapshot save).
//! - A stream's close (a FIN): no payload, only the link's time.

use protobuf::Message as _;
use raft::eraftpb::Message;

use crate::sim::etcd::catchup::generated_weight;
use crate::sim::etcd::request::{Reply, Request, Response, ServerError};

/// rafthttp's frame around a message on a stream: its length.
const FRAME_BYTES: u64 = 8;
/// HTTP/1.1 request or response head of a peer POST (roughly).
pub const HTTP_OVERHEAD: u64 = 200;
/// gRPC over HTTP/2: frame, headers and the response header (roughly).
pub const GRPC_OVERHEAD: u64 = 64;
/// A key-value's revisions and versions in a range reply.
const KV_OVERHEAD: u64 = 24;
/// A member in a member list (ID, name, URLs; roughly).
const MEMBER_BYTES: u64 = 80;

/// A raft message on a stream. An entry the simulation keeps shorter than
/// etcd does (a generated put) weighs what etcd would ship for it (read from
/// its proposal's last fields, not by decoding it: a catch-up weighs
/// thousands of them a message).
pub fn raft_bytes(m: &Message) -> u64 {
    let shipped: u64 = m
        .entries
        .iter()
        .filter_map(|e| generated_weight(&e.data).map(|b| b.saturating_sub(e.data.len() as u64)))
        .sum();
    FRAME_BYTES + u64::from(m.compute_size()) + shipped
}

/// The most a raft message of header fields alone (no entries, snapshot
/// or context) weighs on a stream: its frame and each field at its longest,
/// a ten-byte varint behind its tag (eleven such fields, one byte of tag
/// each; `reject`, two bytes; `priority`, tag 16, twelve).
pub const SMALL_RAFT_MAX: u64 = FRAME_BYTES + 11 * 11 + 2 + 12;

/// [`SMALL_RAFT_MAX`] for a message of header fields alone (a heartbeat, a
/// vote, most responses), known without computing its size; `None` for
/// any other.
#[inline]
pub fn small_raft_bound(m: &Message) -> Option<u64> {
    let small = m.entries.is_empty() && m.snapshot.is_none() && m.context.is_empty();
    small.then_some(SMALL_RAFT_MAX)
}

/// A client request.
pub fn request_bytes(r: &Request) -> u64 {
    let body = match r {
        Request::Put { key, value } => key.len() + value.len(),
        Request::PutGenerated(g) => {
            g.prefix.len() + usize::from(g.key_len) + usize::from(g.value_len)
        }
        Request::Range { key, .. } | Request::Delete { key, .. } => key.len(),
        Request::MemberAdd { peer_urls, .. } | Request::MemberUpdate { peer_urls, .. } => {
            peer_urls.iter().map(String::len).sum()
        }
        _ => 0,
    };
    GRPC_OVERHEAD + body as u64
}

/// A reply to a client.
pub fn response_bytes(r: &Result<Response, ServerError>) -> u64 {
    let body = match r {
        Ok(Response {
            reply: Reply::Range(kvs),
            ..
        }) => kvs
            .iter()
            .map(|kv| (kv.key.len() + kv.value.len()) as u64 + KV_OVERHEAD)
            .sum(),
        Ok(Response {
            reply: Reply::Members { members, .. },
            ..
        }) => members.len() as u64 * MEMBER_BYTES,
        Ok(Response {
            reply: Reply::Snapshot(data),
            ..
        }) => data.size,
        _ => 0,
    };
    GRPC_OVERHEAD + body
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_only_message_weighs_at_most_its_bound_and_can_weigh_that() {
        let mut m = Message {
            msg_type: -1, // an int32 varint at its longest
            to: u64::MAX,
            from: u64::MAX,
            term: u64::MAX,
            log_term: u64::MAX,
            index: u64::MAX,
            commit: u64::MAX,
            commit_term: u64::MAX,
            request_snapshot: u64::MAX,
            reject: true,
            reject_hint: u64::MAX,
            deprecated_priority: u64::MAX,
            priority: -1,
            ..Default::default()
        };
        assert_eq!(small_raft_bound(&m), Some(SMALL_RAFT_MAX));
        assert_eq!(raft_bytes(&m), SMALL_RAFT_MAX);
        m.context = vec![1];
        assert_eq!(small_raft_bound(&m), None);
        let heartbeat = Message::default();
        assert!(raft_bytes(&heartbeat) <= SMALL_RAFT_MAX);
    }

    #[test]
    fn a_message_weighs_its_entries() {
        let mut m = Message::default();
        m.set_msg_type(raft::eraftpb::MessageType::MsgAppend);
        let empty = raft_bytes(&m);
        m.mut_entries().push(raft::eraftpb::Entry {
            data: vec![7u8; 1000].into(),
            ..Default::default()
        });
        assert!(raft_bytes(&m) >= empty + 1000, "{}", raft_bytes(&m));
        let put = Request::Put {
            key: "k".into(),
            value: "v".repeat(100),
        };
        assert_eq!(request_bytes(&put), GRPC_OVERHEAD + 101);
    }

    /// The catch-up panel weighs a log's entries one by one
    /// (`sim::etcd::catchup`): they add up to what an append carrying them weighs.
    #[test]
    fn an_append_weighs_its_header_and_each_entry() {
        use crate::sim::etcd::catchup::entry_bytes;
        use raft::eraftpb::Entry;
        let mut m = Message::default();
        m.set_msg_type(raft::eraftpb::MessageType::MsgAppend);
        let empty = raft_bytes(&m);
        let entries: Vec<Entry> = [10usize, 300, 70_000]
            .iter()
            .map(|&n| Entry {
                data: vec![1u8; n].into(),
                index: 7,
                term: 2,
                ..Default::default()
            })
            .collect();
        let each: u64 = entries.iter().map(entry_bytes).sum();
        m.set_entries(entries);
        assert_eq!(raft_bytes(&m), empty + each);
    }
}
