//! An etcd data dir as it lies on a machine's disk: the raft log and hard state
//! (the WAL), the member and cluster IDs (WAL metadata), and the backend (the
//! applied key-value state and member table), which survive a process's end.

use super::raftlog::LogStorage;
use raft::eraftpb::ConfState;
use raft::{GetEntriesContext, Storage};

use super::kv::Kv;
use super::membership::Membership;

/// What etcd's bbolt backend holds: everything applied so far.
#[derive(Debug, Clone, Default)]
pub struct Backend {
    pub kv: Kv,
    pub members: Membership,
    pub applied: u64,
    pub conf: ConfState,
    /// etcd's consistent index: the last entry applied to the key-value store.
    /// Entries at or below it are not applied again.
    pub consistent_index: u64,
    /// The last raft snapshot saved in the data dir (`member/snap`), if any: a
    /// restart recovers the member table from it and replays the log after it.
    pub snapshot: Option<SavedSnapshot>,
    /// An etcd 3.5 server applied to it: its meta bucket holds the applied
    /// `term` and the `confState` too (3.5.1's `UnsafeUpdateConsistentIndex`
    /// and `MustUnsafeSaveConfStateToBackend`), which `snapshot status` counts.
    pub meta_35: bool,
}

/// What a restart finds in a saved snapshot.
#[derive(Debug, Clone, Default)]
pub struct SavedSnapshot {
    pub index: u64,
    pub conf: ConfState,
    pub members: Membership,
}

/// A data dir. The raft storage is shared with a running server, as a file is.
#[derive(Clone)]
pub struct DataDir {
    pub storage: LogStorage,
    pub id: u64,
    pub cluster_id: u64,
    pub backend: Backend,
    /// Whether the dir holds a WAL. A dir with only a backend (`member/snap/db`,
    /// as a failed `snapshot restore` leaves it) bootstraps as if empty, but keeps
    /// its keys and consistent index.
    pub has_wal: bool,
}

impl DataDir {
    /// A copy that shares nothing with this one (a copied directory).
    pub fn deep_copy(&self) -> DataDir {
        // read the hard state before the entries (one lock at a time)
        let hard_state = self.storage.rl().hard_state().clone();
        let storage = LogStorage::new();
        {
            let mut new = storage.wl();
            let (first, last) = {
                let core = self.storage.rl();
                (core.first_index(), core.last_index())
            };
            if first > 1 {
                // the log starts after a snapshot: copy its metadata
                let mut snap = raft::eraftpb::Snapshot::default();
                let meta = snap.mut_metadata();
                meta.index = first - 1;
                meta.term = self.storage.term(first - 1).expect(
                    "the index before the first entry is the snapshot's or the last compacted: its term is kept",
                );
                meta.set_conf_state(self.backend.conf.clone());
                new.apply_snapshot(snap).expect(
                    "an empty log starts at index 1, and this snapshot's index is at least 1",
                );
            }
            if last >= first {
                let ents = self
                    .storage
                    .entries(first, last + 1, u64::MAX, GetEntriesContext::empty(false))
                    .expect("first..=last is exactly what the log holds");
                new.append(&ents)
                    .expect("the entries follow the snapshot just applied (or start at 1)");
            }
            new.set_hardstate(hard_state);
            new.set_conf_state(self.backend.conf.clone());
        }
        DataDir {
            storage,
            id: self.id,
            cluster_id: self.cluster_id,
            backend: self.backend.clone(),
            has_wal: self.has_wal,
        }
    }
}

impl std::fmt::Debug for DataDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DataDir({:x} in {:x})", self.id, self.cluster_id)
    }
}

/// The raft storage a running server uses: the data dir's log, plus the snapshot
/// etcd sends a follower whose entries were compacted away (its backend, at the
/// applied index). raft-rs asks for it inside a step; when none is ready the
/// request is noted and the server builds one after that step, so raft's next
/// try finds it.
#[derive(Clone, Default)]
pub struct SimStorage {
    pub mem: LogStorage,
    /// Shared with the clones raft-rs holds; one thread, so no lock.
    snapshot: std::rc::Rc<std::cell::RefCell<SnapState>>,
}

#[derive(Default)]
struct SnapState {
    ready: Option<raft::eraftpb::Snapshot>,
    requested: bool,
}

impl SimStorage {
    pub fn new(mem: LogStorage) -> SimStorage {
        SimStorage {
            mem,
            snapshot: Default::default(),
        }
    }

    /// Whether raft asked for a snapshot that was not ready (and forgets it).
    pub fn take_request(&self) -> bool {
        std::mem::take(&mut self.snapshot.borrow_mut().requested)
    }

    /// Offers a snapshot for raft's next request.
    pub fn offer(&self, snap: raft::eraftpb::Snapshot) {
        self.snapshot.borrow_mut().ready = Some(snap);
    }
}

impl Storage for SimStorage {
    fn initial_state(&self) -> raft::Result<raft::RaftState> {
        self.mem.initial_state()
    }

    fn entries(
        &self,
        low: u64,
        high: u64,
        max_size: impl Into<Option<u64>>,
        context: GetEntriesContext,
    ) -> raft::Result<Vec<raft::eraftpb::Entry>> {
        self.mem.entries(low, high, max_size, context)
    }

    fn term(&self, idx: u64) -> raft::Result<u64> {
        self.mem.term(idx)
    }

    fn first_index(&self) -> raft::Result<u64> {
        self.mem.first_index()
    }

    fn last_index(&self) -> raft::Result<u64> {
        self.mem.last_index()
    }

    fn snapshot(&self, request_index: u64, _to: u64) -> raft::Result<raft::eraftpb::Snapshot> {
        let unavailable = raft::Error::Store(raft::StorageError::SnapshotTemporarilyUnavailable);
        let mut s = self.snapshot.borrow_mut();
        // A snapshot is used once: the next follower that needs one gets a fresh
        // one, with the configuration that includes it.
        match s.ready.take() {
            Some(snap) if snap.get_metadata().index >= request_index => Ok(snap),
            _ => {
                s.requested = true;
                Err(unavailable)
            }
        }
    }
}
