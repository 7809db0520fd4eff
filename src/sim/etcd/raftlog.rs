//! The raft log a data dir holds, as raft-rs's `MemStorage` keeps it (the same
//! methods and the same answers and errors to raft), but smaller: an entry is
//! kept as its term, type and payload (56 bytes, the payload shared with every
//! other copy of the entry) rather than as a protobuf `Entry` (104 bytes), and
//! in chunks of at most [`CHUNK`] entries, so a long log never holds a doubled
//! buffer. A day of one put a second is 86,400 entries on every member.
//!
//! Where `MemStorage` panics (an append that leaves a gap, a read past the
//! end), this answers raft with an error instead. One deliberate difference:
//! after a compaction the term of the last entry compacted away is still
//! known, as etcd's `MemoryStorage` keeps it in its dummy entry (raft needs it
//! to check the next append; `MemStorage` forgets it).

use std::cell::{Ref, RefCell, RefMut};
use std::rc::Rc;

use bytes::Bytes;
use protobuf::Message as _;
use raft::eraftpb::{ConfState, Entry, EntryType, HardState, Snapshot, SnapshotMetadata};
use raft::{Error, GetEntriesContext, RaftState, Storage, StorageError};

/// Entries per chunk (a power of two, so a growing chunk ends at exactly this
/// capacity).
pub const CHUNK: usize = 4096;

/// One entry without its index (the position gives it) and protobuf fields.
#[derive(Debug, Clone)]
struct Slot {
    term: u64,
    data: Bytes,
    /// Almost always empty; boxed so the common entry stays small.
    context: Option<Box<Bytes>>,
    entry_type: EntryType,
    sync_log: bool,
}

impl Slot {
    fn of(e: &Entry) -> Slot {
        Slot {
            term: e.term,
            data: e.data.clone(),
            context: (!e.context.is_empty()).then(|| Box::new(e.context.clone())),
            entry_type: e.get_entry_type(),
            sync_log: e.sync_log,
        }
    }

    fn entry(&self, index: u64) -> Entry {
        Entry {
            entry_type: self.entry_type.into(),
            term: self.term,
            index,
            data: self.data.clone(),
            context: self.context.as_deref().cloned().unwrap_or_default(),
            sync_log: self.sync_log,
        }
    }
}

/// Slots in chunks of at most [`CHUNK`].
#[derive(Debug, Clone, Default)]
struct Slots {
    chunks: Vec<Vec<Slot>>,
    len: usize,
}

impl Slots {
    fn get(&self, i: usize) -> Option<&Slot> {
        self.chunks.get(i / CHUNK)?.get(i % CHUNK)
    }

    fn push(&mut self, s: Slot) {
        match self.chunks.last_mut() {
            Some(c) if c.len() < CHUNK => c.push(s),
            _ => self.chunks.push(vec![s]),
        }
        self.len += 1;
    }

    /// Keeps the first `n` slots.
    fn truncate(&mut self, n: usize) {
        if n >= self.len {
            return;
        }
        self.chunks.truncate(n.div_ceil(CHUNK));
        if let Some(last) = self.chunks.last_mut() {
            last.truncate(n - (n.div_ceil(CHUNK) - 1) * CHUNK);
        }
        self.len = n;
    }

    /// Drops the first `n` slots (a compaction).
    fn drop_front(&mut self, n: usize) {
        let rest: Vec<Slot> = (n..self.len).filter_map(|i| self.get(i).cloned()).collect();
        *self = Slots::default();
        for s in rest {
            self.push(s);
        }
    }
}

/// The log, hard state and configuration; see [`LogStorage::wl`].
#[derive(Debug, Clone, Default)]
pub struct LogCore {
    raft_state: RaftState,
    /// slots[i] is the entry at index `offset + i`.
    slots: Slots,
    offset: u64,
    /// The last snapshot applied (index and term 0 at first). As in
    /// `MemStorage`, a compaction does not change it.
    snapshot_metadata: SnapshotMetadata,
    /// Index and term of the last entry compacted away (etcd's dummy entry).
    compacted: (u64, u64),
    /// How many times entries the log held were replaced (an append over
    /// them, a snapshot): what was weighed before one is weighed again.
    rewrites: u64,
}

impl LogCore {
    pub fn set_hardstate(&mut self, hs: HardState) {
        self.raft_state.hard_state = hs;
    }

    pub fn hard_state(&self) -> &HardState {
        &self.raft_state.hard_state
    }

    pub fn mut_hard_state(&mut self) -> &mut HardState {
        &mut self.raft_state.hard_state
    }

    pub fn set_conf_state(&mut self, cs: ConfState) {
        self.raft_state.conf_state = cs;
    }

    pub fn first_index(&self) -> u64 {
        if self.slots.len == 0 {
            return self.snapshot_metadata.index + 1;
        }
        self.offset
    }

    pub fn last_index(&self) -> u64 {
        if self.slots.len == 0 {
            return self.snapshot_metadata.index;
        }
        self.offset + self.slots.len as u64 - 1
    }

    /// The slot of `index`, if the log holds it.
    /// How many times entries this log held were replaced.
    pub fn rewrites(&self) -> u64 {
        self.rewrites
    }

    fn slot(&self, index: u64) -> Option<&Slot> {
        let i = index.checked_sub(self.offset)?;
        self.slots.get(usize::try_from(i).ok()?)
    }

    /// Replaces the log with a snapshot's position and configuration.
    pub fn apply_snapshot(&mut self, mut snapshot: Snapshot) -> raft::Result<()> {
        let mut meta = snapshot.take_metadata();
        if self.first_index() > meta.index {
            return Err(Error::Store(StorageError::SnapshotOutOfDate));
        }
        let hs = &mut self.raft_state.hard_state;
        hs.term = hs.term.max(meta.term);
        hs.commit = meta.index;
        self.slots = Slots::default();
        self.compacted = (0, 0);
        self.rewrites += 1;
        self.raft_state.conf_state = meta.take_conf_state();
        self.snapshot_metadata = meta;
        Ok(())
    }

    /// Discards the entries before `compact_index`.
    pub fn compact(&mut self, compact_index: u64) -> raft::Result<()> {
        if compact_index <= self.first_index() {
            return Ok(());
        }
        if compact_index > self.last_index() + 1 {
            return Err(Error::Store(StorageError::Unavailable));
        }
        if self.slots.len > 0 {
            let term = self.slot(compact_index - 1).map_or(0, |s| s.term);
            self.slots
                .drop_front((compact_index - self.offset) as usize);
            self.offset = compact_index;
            self.compacted = (compact_index - 1, term);
        }
        Ok(())
    }

    /// Appends entries, replacing any the log holds from the first one's index on.
    pub fn append(&mut self, ents: &[Entry]) -> raft::Result<()> {
        let Some(first) = ents.first() else {
            return Ok(());
        };
        if self.first_index() > first.index {
            return Err(Error::Store(StorageError::Compacted));
        }
        if self.last_index() + 1 < first.index {
            return Err(Error::Store(StorageError::Unavailable));
        }
        let start = self.first_index();
        if first.index <= self.last_index() {
            self.rewrites += 1;
        }
        self.slots.truncate((first.index - start) as usize);
        if self.slots.len == 0 {
            self.offset = first.index;
        }
        for e in ents {
            self.slots.push(Slot::of(e));
        }
        Ok(())
    }
}

/// A shared raft log: clones see the same log, as a running server and its
/// data dir on disk do. The world runs on one thread, so the log is shared
/// without a lock: raft reads it several times per message.
#[derive(Clone, Default)]
pub struct LogStorage {
    core: Rc<RefCell<LogCore>>,
    /// Weights of whole blocks of entries, remembered for this log
    /// (`catchup`): by block, the term of its last entry, the log's
    /// [`LogCore::rewrites`] then, and the weight.
    weights: Rc<RefCell<WeightCache>>,
}

/// See [`LogStorage::weights`].
pub type WeightCache = std::collections::BTreeMap<u64, (u64, u64, u64)>;

impl LogStorage {
    pub fn new() -> LogStorage {
        LogStorage::default()
    }

    /// Reads the log (never while a change holds it: each change is one
    /// statement).
    pub fn rl(&self) -> Ref<'_, LogCore> {
        self.core.borrow()
    }

    /// Changes the log.
    pub fn wl(&self) -> RefMut<'_, LogCore> {
        self.core.borrow_mut()
    }

    /// The block weights remembered for this log (its clones share them).
    pub fn weights(&self) -> RefMut<'_, WeightCache> {
        self.weights.borrow_mut()
    }
}

impl Storage for LogStorage {
    fn initial_state(&self) -> raft::Result<RaftState> {
        Ok(self.rl().raft_state.clone())
    }

    fn entries(
        &self,
        low: u64,
        high: u64,
        max_size: impl Into<Option<u64>>,
        _context: GetEntriesContext,
    ) -> raft::Result<Vec<Entry>> {
        let core = self.rl();
        if low < core.first_index() {
            return Err(Error::Store(StorageError::Compacted));
        }
        if high > core.last_index() + 1 {
            return Err(Error::Store(StorageError::Unavailable));
        }
        let ents = (low..high).map_while(|i| core.slot(i).map(|s| s.entry(i)));
        Ok(limit_shipped(ents, max_size.into()))
    }

    fn term(&self, idx: u64) -> raft::Result<u64> {
        let core = self.rl();
        if idx == core.snapshot_metadata.index {
            return Ok(core.snapshot_metadata.term);
        }
        if idx == core.compacted.0 && idx > 0 {
            return Ok(core.compacted.1);
        }
        if idx < core.first_index() {
            return Err(Error::Store(StorageError::Compacted));
        }
        core.slot(idx)
            .map(|s| s.term)
            .ok_or(Error::Store(StorageError::Unavailable))
    }

    fn first_index(&self) -> raft::Result<u64> {
        Ok(self.rl().first_index())
    }

    fn last_index(&self) -> raft::Result<u64> {
        Ok(self.rl().last_index())
    }

    /// The data dir's own snapshots are built by the server (`SimStorage`);
    /// this one answers as `MemStorage` does: the position of the commit index.
    fn snapshot(&self, request_index: u64, _to: u64) -> raft::Result<Snapshot> {
        let core = self.rl();
        let mut snap = Snapshot::default();
        let commit = core.raft_state.hard_state.commit;
        let meta = snap.mut_metadata();
        meta.index = commit.max(request_index);
        meta.term = if commit == core.snapshot_metadata.index {
            core.snapshot_metadata.term
        } else {
            core.slot(commit).map_or(0, |s| s.term)
        };
        meta.set_conf_state(core.raft_state.conf_state.clone());
        Ok(snap)
    }
}

/// raft-rs's `limit_size`, each entry weighed as etcd ships it: a generated
/// put (`check perf|datascale`), kept short here, weighs its key and value.
/// So a catch-up's MsgApp carries at most `max` bytes of real entries (etcd's
/// 1 MiB `MaxSizePerMsg`), always at least one entry, as in raft.
/// Entries are built only up to the limit: a catch-up asks for the whole
/// log behind the follower, and raft keeps only the first megabyte of it.
fn limit_shipped(ents: impl Iterator<Item = Entry>, max: Option<u64>) -> Vec<Entry> {
    let mut total = 0u64;
    let mut kept = Vec::new();
    for e in ents {
        let first = total == 0;
        let size = u64::from(e.compute_size());
        total += crate::sim::etcd::catchup::generated_weight(&e.data)
            .map_or(size, |shipped| size.max(shipped));
        if !first && max.is_some_and(|m| total > m) {
            break;
        }
        kept.push(e);
    }
    kept
}

#[cfg(test)]
mod tests {
    use raft::storage::MemStorage;

    use super::*;

    fn entry(index: u64, term: u64, data: &[u8]) -> Entry {
        Entry {
            index,
            term,
            data: Bytes::copy_from_slice(data),
            ..Default::default()
        }
    }

    /// Both storages after the same calls, compared through raft's trait
    /// (but for the term of the last compacted entry: see the module doc).
    fn same(ours: &LogStorage, theirs: &MemStorage) {
        assert_eq!(ours.first_index().ok(), theirs.first_index().ok());
        assert_eq!(ours.last_index().ok(), theirs.last_index().ok());
        assert_eq!(
            ours.initial_state()
                .ok()
                .map(|s| (s.hard_state, s.conf_state)),
            theirs
                .initial_state()
                .ok()
                .map(|s| (s.hard_state, s.conf_state))
        );
        let (first, last) = (
            theirs.first_index().unwrap_or(1),
            theirs.last_index().unwrap_or(0),
        );
        let dummy = ours.rl().compacted.0;
        for i in first.saturating_sub(2)..=last + 1 {
            if i == dummy && i > 0 {
                continue;
            }
            assert_eq!(ours.term(i).ok(), theirs.term(i).ok(), "term({i})");
        }
        let ctx = || GetEntriesContext::empty(false);
        // every start near the ends and a chunk boundary, and a sample between
        let starts = (first..=last).filter(|i| {
            *i < first + 3 || *i + 3 > last || i.abs_diff(CHUNK as u64) < 3 || i % 97 == 0
        });
        for lo in starts {
            for max in [None, Some(0), Some(40)] {
                let a = ours.entries(lo, last + 1, max, ctx());
                let b = theirs.entries(lo, last + 1, max, ctx());
                assert_eq!(a.ok(), b.ok(), "entries({lo}, {}, {max:?})", last + 1);
            }
        }
    }

    #[test]
    fn answers_as_mem_storage_does() {
        let (ours, theirs) = (LogStorage::new(), MemStorage::new());
        let batches = [
            vec![entry(1, 1, b"a"), entry(2, 1, b"bb"), entry(3, 2, b"ccc")],
            // a conflicting suffix replaces what follows index 2
            vec![entry(3, 3, b"x"), entry(4, 3, b"yy")],
            (5..=9000).map(|i| entry(i, 4, b"put")).collect(),
            // a new leader overwrites across a chunk boundary
            vec![entry(4097, 5, b"z"), entry(4098, 5, b"zz")],
        ];
        for b in &batches {
            ours.wl().append(b).expect("a valid append");
            theirs.wl().append(b).expect("a valid append");
            let hs = HardState {
                term: b[0].term,
                commit: b[0].index,
                ..Default::default()
            };
            ours.wl().set_hardstate(hs.clone());
            theirs.wl().set_hardstate(hs);
        }
        assert_eq!(ours.last_index().ok(), Some(4098));
        let hs = HardState {
            commit: 4000,
            ..Default::default()
        };
        ours.wl().set_hardstate(hs.clone());
        theirs.wl().set_hardstate(hs);
        same(&ours, &theirs);
        ours.wl().compact(3000).expect("a valid compaction");
        theirs.wl().compact(3000).expect("a valid compaction");
        same(&ours, &theirs);
        // etcd's dummy entry: the term of 2999 stays known
        assert_eq!(ours.term(2999).ok(), Some(4));
        assert!(theirs.term(2999).is_err());
        assert!(matches!(
            ours.entries(10, 20, None, GetEntriesContext::empty(false)),
            Err(Error::Store(StorageError::Compacted))
        ));
        let mut snap = Snapshot::default();
        snap.mut_metadata().index = 5000;
        snap.mut_metadata().term = 6;
        ours.wl()
            .apply_snapshot(snap.clone())
            .expect("a newer snapshot");
        theirs.wl().apply_snapshot(snap).expect("a newer snapshot");
        same(&ours, &theirs);
        ours.wl()
            .append(&[entry(5001, 6, b"after")])
            .expect("a valid append");
        theirs
            .wl()
            .append(&[entry(5001, 6, b"after")])
            .expect("a valid append");
        same(&ours, &theirs);
    }

    #[test]
    fn errors_where_mem_storage_panics() {
        let ours = LogStorage::new();
        ours.wl()
            .append(&[entry(1, 1, b"a")])
            .expect("a valid append");
        // a gap
        assert!(ours.wl().append(&[entry(5, 1, b"e")]).is_err());
        // past the end
        let ctx = GetEntriesContext::empty(false);
        assert!(ours.entries(1, 9, None, ctx).is_err());
        assert_eq!(ours.last_index().ok(), Some(1));
    }

    #[test]
    fn a_long_log_is_held_in_whole_chunks() {
        let ours = LogStorage::new();
        let ents: Vec<Entry> = (1..=3 * CHUNK as u64 + 1)
            .map(|i| entry(i, 1, b""))
            .collect();
        ours.wl().append(&ents).expect("a valid append");
        let core = ours.rl();
        assert_eq!(core.slots.chunks.len(), 4);
        assert!(core.slots.chunks[..3].iter().all(|c| c.capacity() == CHUNK));
        assert_eq!(std::mem::size_of::<Slot>(), 56);
    }
}
