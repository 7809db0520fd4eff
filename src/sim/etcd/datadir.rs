//! An etcd data dir as it lies on a machine's disk: the raft log and hard state
//! (the WAL), the member and cluster IDs (WAL metadata), and the backend (the
//! applied key-value state and member table), which survive a process's end.

use raft::eraftpb::ConfState;
use raft::storage::MemStorage;

use super::kv::Kv;
use super::membership::Membership;

/// What etcd's bbolt backend holds: everything applied so far.
#[derive(Debug, Clone, Default)]
pub struct Backend {
    pub kv: Kv,
    pub members: Membership,
    pub applied: u64,
    pub conf: ConfState,
}

/// A data dir. The raft storage is shared with a running server, as a file is.
#[derive(Clone)]
pub struct DataDir {
    pub storage: MemStorage,
    pub id: u64,
    pub cluster_id: u64,
    pub backend: Backend,
}

impl std::fmt::Debug for DataDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DataDir({:x} in {:x})", self.id, self.cluster_id)
    }
}
