//! An etcd data dir as it lies on a machine's disk: the raft log and hard state
//! (the WAL), the member and cluster IDs (WAL metadata), and the backend (the
//! applied key-value state and member table), which survive a process's end.

use raft::eraftpb::ConfState;
use raft::storage::MemStorage;
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
}

/// A data dir. The raft storage is shared with a running server, as a file is.
#[derive(Clone)]
pub struct DataDir {
    pub storage: MemStorage,
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
        // MemStorage::entries takes the write lock: read the hard state first.
        let hard_state = self.storage.rl().hard_state().clone();
        let storage = MemStorage::new();
        {
            let mut new = storage.wl();
            let first = self.storage.first_index().unwrap_or(1);
            let last = self.storage.last_index().unwrap_or(0);
            if first > 1 {
                if let Ok(snap) = self.storage.snapshot(0, 0) {
                    let _ = new.apply_snapshot(snap);
                }
            }
            if last >= first {
                let ents = self
                    .storage
                    .entries(first, last + 1, u64::MAX, GetEntriesContext::empty(false))
                    .unwrap_or_default();
                let _ = new.append(&ents);
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
