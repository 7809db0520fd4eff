//! A learner's catch-up measured in bytes, from the leader's real state: the
//! wire weight of the leader's raft log entries the learner has (up to its
//! match) and lacks (after it), as an append carries them
//! ([`entry_bytes`], as the network's `size` weighs an append), and the merged
//! snapshot on its way to it, if any (its bytes and when its POST started,
//! `snapshot_transfer`). `sim::quorum` turns these into what the learner panel
//! shows: bytes received, bytes left, and the time left.

use protobuf::Message as _;
use raft::eraftpb::Entry;
use raft::{GetEntriesContext, Storage};

use super::raftlog::{LogStorage, WeightCache};
use super::server::{generated_entry_bytes, PUT_REQUEST_OVERHEAD};

/// A learner's catch-up in bytes, as the leader sees it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CatchUpBytes {
    /// The leader's log entries up to the learner's match (those it still holds).
    pub have: u64,
    /// The leader's log entries after the learner's match (after the snapshot's
    /// index while one is on its way).
    pub lack: u64,
    /// A merged snapshot being sent to the learner and not yet taken by it.
    pub snapshot: Option<SnapshotSending>,
    /// The leader no longer holds the entries right after the learner's
    /// match (it compacted them) and is not sending a snapshot yet: it must,
    /// and its size is not known before it is made.
    pub needs_snapshot: bool,
}

/// A merged snapshot POST on its way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SnapshotSending {
    /// The raft index it holds the store at.
    pub index: u64,
    /// The raft message and the bbolt file (`sendMergedSnap`'s count).
    pub bytes: u64,
    /// When the leader started sending it (simulated ms).
    pub started_ms: u64,
}

/// What one entry adds to an append on the wire: its protobuf size with the
/// field's tag and length, and for a generated put what etcd ships beyond
/// what the simulation keeps (as the network weighs a raft message).
pub fn entry_bytes(e: &Entry) -> u64 {
    let size = u64::from(e.compute_size());
    let shipped = generated_weight(&e.data).map_or(0, |b| b.saturating_sub(e.data.len() as u64));
    1 + varint_len(size) + size + shipped
}

/// How a proposal starts: its request ID follows.
const REQ_HEAD: &[u8] = b"{\"req\":";
/// What follows the ID in a proposal, up to its operation's name.
const OP_HEAD: &[u8] = b",\"op\":{\"";
/// What follows [`OP_HEAD`] in a generated put's proposal, up to its prefix.
const GENERATED_TAG: &[u8] = b"PutGenerated\":{\"prefix\":\"";

/// [`generated_entry_bytes`] without decoding the whole proposal: a panel
/// weighs thousands of entries per frame, and the network every entry of a
/// catch-up's appends. A generated put's JSON is `{"req":N,"op":{"PutGenerated":
/// {"prefix":"…",…,"key_len":K,"value_len":V}}}` (the fields' order in
/// `server::Proposal` and `kv::Generated`); anything else is decoded in full.
///
/// A proposal of another operation is told by its tag alone: `{"req":N,
/// "op":{"Put":…` names its operation first, and an operation object has
/// only that one key, so a tag other than `PutGenerated` (written without
/// escapes) is no generated put, with no search for the mark.
pub fn generated_weight(data: &[u8]) -> Option<u64> {
    let after_id = data.strip_prefix(REQ_HEAD).map(|r| {
        let digits = r.iter().take_while(|c| c.is_ascii_digit()).count();
        &r[digits..]
    });
    if let Some(tag) = after_id.and_then(|r| r.strip_prefix(OP_HEAD)) {
        if let Some(rest) = tag.strip_prefix(GENERATED_TAG) {
            return quick_weight(rest).or_else(|| generated_entry_bytes(data));
        }
        // the tag's name, up to its closing quote, without escapes
        if let Some(end) = tag.iter().position(|&c| c == b'"') {
            if !tag[..end].contains(&b'\\') {
                return None;
            }
        }
    }
    generated_entry_bytes(data)
}

/// `prefix","head":[…],"key_len":K,"value_len":V}}}` → prefix + K + V + overhead
/// (`None` for an escaped prefix or another shape).
fn quick_weight(rest: &[u8]) -> Option<u64> {
    let prefix = &rest[..rest.iter().position(|&c| c == b'"')?];
    if prefix.contains(&b'\\') {
        return None;
    }
    let body = rest.strip_suffix(b"}}}")?;
    let (body, value) = split_number(body, b",\"value_len\":")?;
    let (_, key) = split_number(body, b",\"key_len\":")?;
    Some(prefix.len() as u64 + key + value + PUT_REQUEST_OVERHEAD)
}

/// `…NAME123` → (`…`, 123): the number is the body's last digits (at most
/// five: the lengths are `u16`).
fn split_number<'a>(body: &'a [u8], name: &[u8]) -> Option<(&'a [u8], u64)> {
    let digits = body.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 5 {
        return None;
    }
    let (head, number) = body.split_at(body.len() - digits);
    let head = head.strip_suffix(name)?;
    let n = number
        .iter()
        .fold(0u64, |n, c| n * 10 + u64::from(c - b'0'));
    Some((head, n))
}

/// The bytes of a protobuf varint holding `v`.
fn varint_len(v: u64) -> u64 {
    u64::from((64 - v.leading_zeros()).max(1).div_ceil(7))
}

/// Weighs the leader's `log` around a learner's `matched` index; `sending`
/// is a snapshot on its way to it (index, bytes, started).
pub fn measure(log: &LogStorage, matched: u64, sending: Option<(u64, u64, u64)>) -> CatchUpBytes {
    let snapshot = sending.map(|(index, bytes, started_ms)| SnapshotSending {
        index,
        bytes,
        started_ms,
    });
    let (first, last) = {
        let core = log.rl();
        (core.first_index(), core.last_index())
    };
    let lack_from = snapshot.map_or(matched, |s| s.index.max(matched)) + 1;
    CatchUpBytes {
        have: weigh(log, first, matched.min(last)),
        lack: weigh(log, lack_from.max(first), last),
        snapshot,
        needs_snapshot: snapshot.is_none() && lack_from < first,
    }
}

/// Entries per cached block of weights.
const BLOCK: u64 = 256;

/// The wire weight of the entries `low..=high` (0 when the range is empty;
/// entries the log no longer holds count nothing). Whole blocks are weighed
/// once and remembered by the log itself (a page weighs the same long log
/// every frame).
fn weigh(log: &LogStorage, low: u64, high: u64) -> u64 {
    if low > high {
        return 0;
    }
    let mut blocks = log.weights();
    weigh_blocks(log, &mut blocks, low, high)
}

fn weigh_blocks(log: &LogStorage, blocks: &mut WeightCache, low: u64, high: u64) -> u64 {
    let mut total = 0;
    let mut at = low;
    while at <= high {
        let b = (at - 1) / BLOCK;
        let (start, end) = (b * BLOCK + 1, (b + 1) * BLOCK);
        if at == start && end <= high {
            if let Some(w) = block_weight(log, blocks, b) {
                total += w;
                at = end + 1;
                continue;
            }
        }
        let stop = high.min(end);
        total += weigh_entries(log, at, stop).map_or(0, |e| e.iter().map(entry_bytes).sum());
        at = stop + 1;
    }
    total
}

/// Block `b`'s weight, remembered or weighed now (`None` when the log does
/// not hold all of it).
fn block_weight(log: &LogStorage, blocks: &mut WeightCache, b: u64) -> Option<u64> {
    let end = (b + 1) * BLOCK;
    let last = weigh_entries(log, end, end)?.pop()?;
    // by raft's log matching, the same term at the block's last index means
    // the same entries up to it, unless the log replaced entries since
    let mark = (last.term, log.rl().rewrites());
    if let Some(&(term, rewrites, w)) = blocks.get(&b) {
        if (term, rewrites) == mark {
            return Some(w);
        }
    }
    let ents = weigh_entries(log, b * BLOCK + 1, end)?;
    let w = ents.iter().map(entry_bytes).sum();
    blocks.insert(b, (mark.0, mark.1, w));
    Some(w)
}

/// The entries `low..=high`, if the log holds them all.
fn weigh_entries(log: &LogStorage, low: u64, high: u64) -> Option<Vec<Entry>> {
    log.entries(low, high + 1, None, GetEntriesContext::empty(false))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick reading of a generated put agrees with the full decoding,
    /// prefix escaped or not; other payloads weigh nothing extra.
    #[test]
    fn a_generated_put_is_weighed_as_etcd_ships_it() {
        for prefix in ["", "/bench", "a\"b", "é"] {
            let g = crate::sim::etcd::kv::Generated {
                prefix: prefix.to_string(),
                head: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
                key_len: 32,
                value_len: 1024,
            };
            let data =
                serde_json::to_vec(&serde_json::json!({"req": 77, "op": {"PutGenerated": g}}))
                    .expect("json");
            let full = generated_entry_bytes(&data);
            assert!(full.is_some(), "{prefix}");
            assert_eq!(generated_weight(&data), full, "{prefix}");
        }
        assert!(quick_weight(b"a\\\"b\",\"key_len\":1,\"value_len\":2}}}").is_none());
        assert_eq!(
            quick_weight(b"ab\",\"head\":[0],\"key_len\":1,\"value_len\":2}}}"),
            Some(5 + PUT_REQUEST_OVERHEAD)
        );
        assert_eq!(generated_weight(b"{\"req\":1,\"op\":{\"Put\":{}}}"), None);
    }

    /// The quick answer for other operations is the full decoding's, on
    /// proposals as the server writes them and on shapes it never writes
    /// (an escaped tag, a key holding the mark, no closing quote).
    #[test]
    fn other_operations_weigh_as_the_full_decoding_says() {
        let generated = r#"{"PutGenerated":{"prefix":"p","head":[1,2,3,4,5,6,7,8,9,10],"key_len":1,"value_len":2}}"#;
        let ops = [
            r#"{"Put":{"key":"k","value":"v","lease":0,"prev_kv":false,"ignore_value":false,"ignore_lease":false}}"#.to_string(),
            r#"{"Put":{"key":"\"op\":{\"PutGenerated\"","value":"v"}}"#.to_string(),
            r#"{"Put\u0047enerated":{"prefix":"p","head":[1,2,3,4,5,6,7,8,9,10],"key_len":1,"value_len":2}}"#.to_string(),
            generated.to_string(),
            r#"{"Delete"#.to_string(),
            r#"{""#.to_string(),
        ];
        let mut checked = 0;
        for op in &ops {
            let data = format!(r#"{{"req":5,"op":{op}}}"#);
            let full = generated_entry_bytes(data.as_bytes());
            assert_eq!(generated_weight(data.as_bytes()), full, "{data}");
            checked += 1;
        }
        assert_eq!(checked, 6);
    }

    #[test]
    fn varints_grow_by_seven_bits() {
        assert_eq!((varint_len(0), varint_len(127), varint_len(128)), (1, 1, 2));
        assert_eq!(varint_len(1 << 14), 3);
    }

    fn log_of(sizes: &[usize]) -> LogStorage {
        let log = LogStorage::new();
        let ents: Vec<Entry> = sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| Entry {
                index: i as u64 + 1,
                term: 1,
                data: vec![b'x'; n].into(),
                ..Default::default()
            })
            .collect();
        log.wl().append(&ents).expect("a log from 1");
        log
    }

    #[test]
    fn the_log_is_split_at_the_match() {
        let log = log_of(&[100, 200, 300, 400]);
        let all = measure(&log, 0, None);
        assert_eq!(all.have, 0);
        assert!(all.lack > 1000, "{all:?}");
        let half = measure(&log, 2, None);
        assert_eq!(half.have + half.lack, all.lack);
        assert!(half.have > 300 && half.have < 400, "{half:?}");
        let done = measure(&log, 4, None);
        assert_eq!((done.have, done.lack), (all.lack, 0));
    }

    #[test]
    fn a_snapshot_on_its_way_covers_the_entries_up_to_its_index() {
        let log = log_of(&[100, 200, 300, 400]);
        assert!(!measure(&log, 0, None).needs_snapshot);
        log.wl().compact(3).expect("compacted to 3");
        let behind = measure(&log, 1, None);
        assert!(behind.needs_snapshot, "{behind:?}");
        let m = measure(&log, 0, Some((3, 5_000, 70)));
        assert!(!m.needs_snapshot);
        assert_eq!(m.lack, measure(&log, 3, None).lack);
        assert_eq!(m.lack, weigh(&log, 4, 4));
        assert_eq!(
            m.snapshot.map(|s| (s.bytes, s.started_ms)),
            Some((5_000, 70))
        );
        // a log longer than a batch is weighed whole
        let long = log_of(&vec![10; 3000]);
        let w = measure(&long, 0, None).lack;
        let each: u64 = long
            .entries(1, 3001, None, GetEntriesContext::empty(false))
            .expect("entries")
            .iter()
            .map(entry_bytes)
            .sum();
        assert_eq!(w, each);
        assert!(w > 3000 * 10, "{w}");
        // weighed again from the remembered blocks, and from the middle
        assert_eq!(measure(&long, 0, None).lack, w);
        let mid = measure(&long, 1000, None);
        assert_eq!(mid.have + mid.lack, w);
        // a block rewritten (a new term from index 700) is weighed anew
        let ents: Vec<Entry> = (700..=800)
            .map(|i| Entry {
                index: i,
                term: 2,
                data: vec![b'y'; 50].into(),
                ..Default::default()
            })
            .collect();
        long.wl().append(&ents).expect("a suffix replaced");
        assert!(measure(&long, 0, None).lack < w, "cut to 800 entries");
        let ents = long
            .entries(1, 801, None, GetEntriesContext::empty(false))
            .expect("entries");
        assert_eq!(
            measure(&long, 0, None).lack,
            ents.iter().map(entry_bytes).sum::<u64>()
        );
    }
}
