//! What clients ask an etcd server and what it answers: the gRPC requests etcdctl
//! sends, their replies, and the errors with their gRPC codes and texts.

use super::kv::{Generated, KeyValue};
use super::membership::{Member, MemberError};
use super::version::EtcdVersion;

/// A client request (one etcdctl RPC).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    Put {
        key: String,
        value: String,
    },
    Range {
        key: String,
        prefix: bool,
        serializable: bool,
    },
    Delete {
        key: String,
        prefix: bool,
    },
    /// A put of etcdctl's load generators (`check perf`, `check datascale`).
    PutGenerated(Generated),
    /// The metrics endpoint's `process_resident_memory_bytes` (`check datascale`).
    Metrics,
    /// `linearizable`: etcdctl 3.5's client asks for it; a 3.5 server then
    /// answers after a read index, as a linearizable range.
    MemberList {
        linearizable: bool,
    },
    MemberAdd {
        peer_urls: Vec<String>,
        learner: bool,
    },
    MemberRemove {
        id: u64,
    },
    MemberUpdate {
        id: u64,
        peer_urls: Vec<String>,
    },
    MemberPromote {
        id: u64,
    },
    Status,
    /// The client URL's `/version` (HTTP, as `curl` asks for it).
    Version,
    /// `AlarmList`: etcd serves it through raft (an `Alarm` request with
    /// action GET), so it appends an entry; etcdctl 3.5's `endpoint health`
    /// asks for it after its read.
    AlarmList,
    MoveLeader {
        id: u64,
    },
    Snapshot,
    /// A peer URL's `/downgrade/enabled` (HTTP, etcd 3.5): a member that
    /// joins asks it of the others before its raft starts. 3.5 serves it as
    /// a linearizable read with `ReqTimeout`; 3.4 has no such path.
    DowngradeEnabled,
}

impl Request {
    /// Learners serve only status and serializable reads
    /// (`isRPCSupportedForLearner`), and on etcd 3.5 the Snapshot stream
    /// (v3.5.1's stream interceptor lets `snapshotMethod` through,
    /// `v3rpc/interceptor.go:218`; 3.4.23's refuses every stream).
    pub fn allowed_on_learner(&self, etcd: super::version::EtcdVersion) -> bool {
        if matches!(self, Request::Snapshot) {
            return etcd == super::version::EtcdVersion::V3_5;
        }
        matches!(
            self,
            Request::Status
                | Request::Metrics
                | Request::Version
                | Request::DowngradeEnabled
                | Request::Range {
                    serializable: true,
                    ..
                }
        )
    }
}

/// The response header every reply carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Header {
    pub cluster_id: u64,
    pub member_id: u64,
    pub revision: i64,
    pub raft_term: u64,
}

/// `endpoint status`'s payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusInfo {
    pub version: String,
    pub db_size: u64,
    pub db_size_in_use: u64,
    pub leader: u64,
    pub raft_index: u64,
    pub raft_term: u64,
    pub raft_applied_index: u64,
    pub is_learner: bool,
    pub errors: Vec<String>,
}

/// The state a `snapshot save` carries away: the backend's keys and member table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotData {
    pub kvs: Vec<KeyValue>,
    pub revision: i64,
    pub size: u64,
    pub members: Vec<Member>,
    pub removed: usize,
    /// `snapshot save` appends a hash; a `member/snap/db` copied from a data dir has none.
    pub has_hash: bool,
    pub consistent_index: u64,
    /// The release of the server whose backend it is: 3.5 keeps two more
    /// keys in its meta bucket (the applied term and the conf state).
    pub release: EtcdVersion,
}

impl SnapshotData {
    /// bbolt's key count as `snapshot status` reports it: one key per revision,
    /// the members and removed members, the consistent index, the cluster
    /// version and the auth revision (and on 3.5 the term and conf state: real
    /// 3.5.1 counts 2 more than 3.4.23 for the same data, in 06 and in the
    /// exported rolling upgrade).
    pub fn total_keys(&self) -> u64 {
        let meta = match self.release {
            EtcdVersion::V3_4 => 3,
            EtcdVersion::V3_5 => 5,
        };
        (self.revision.max(1) - 1) as u64 + self.members.len() as u64 + self.removed as u64 + meta
    }

    /// A stable 32-bit hash of the contents (etcd prints the db's CRC-32).
    pub fn hash(&self) -> u32 {
        let mut h: u32 = 0x811c_9dc5;
        let mut feed = |bytes: &[u8]| {
            for b in bytes {
                h ^= u32::from(*b);
                h = h.wrapping_mul(0x0100_0193);
            }
        };
        for kv in &self.kvs {
            feed(kv.key.as_bytes());
            feed(kv.value.as_bytes());
            feed(&kv.mod_revision.to_be_bytes());
        }
        for m in &self.members {
            feed(&m.id.to_be_bytes());
        }
        feed(&self.revision.to_be_bytes());
        h
    }
}

/// A successful reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    Put,
    Range(Vec<KeyValue>),
    Delete(usize),
    /// Member commands: the member concerned and the member list after the change.
    Members {
        member: Option<Member>,
        members: Vec<Member>,
    },
    Status(StatusInfo),
    MoveLeader {
        from: u64,
        to: u64,
    },
    Snapshot(SnapshotData),
    /// `process_resident_memory_bytes`.
    Metrics(u64),
    /// The active alarms (the playground raises none: no NOSPACE, no CORRUPT).
    Alarms(Vec<String>),
    /// `/version`: the server's release and the cluster version (`None`: not
    /// decided yet).
    Version {
        server: String,
        cluster: Option<String>,
    },
    /// `/downgrade/enabled`'s HTTP body: `false` (this playground has no
    /// downgrade), or 3.4's `404 page not found`.
    DowngradeEnabled {
        body: String,
    },
}

/// A reply with its header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub header: Header,
    pub reply: Reply,
}

/// gRPC status codes that reach etcdctl.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    Unknown,
    InvalidArgument,
    DeadlineExceeded,
    NotFound,
    FailedPrecondition,
    Unavailable,
}

impl Code {
    pub fn name(&self) -> &'static str {
        match self {
            Code::Unknown => "Unknown",
            Code::InvalidArgument => "InvalidArgument",
            Code::DeadlineExceeded => "DeadlineExceeded",
            Code::NotFound => "NotFound",
            Code::FailedPrecondition => "FailedPrecondition",
            Code::Unavailable => "Unavailable",
        }
    }
}

/// The errors an etcd 3.4 server returns, closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerError {
    Member(MemberError),
    NotEnoughStartedMembers,
    LearnerNotReady,
    Unhealthy,
    BadLeaderTransferee,
    NotLeader,
    Timeout,
    /// The read loop's ReadIndex wait ended with a new leader.
    LeaderChanged,
    TimeoutDueToLeaderFail,
    TimeoutLeaderTransfer,
    NotSupportedForLearner,
    /// The request never reached raft before the server's deadline.
    ContextDeadline,
}

impl ServerError {
    /// The gRPC code and description the client sees.
    pub fn status(&self) -> (Code, &'static str) {
        use Code::*;
        match self {
            ServerError::Member(e) => member_status(*e),
            ServerError::NotEnoughStartedMembers => (
                Unknown,
                "etcdserver: re-configuration failed due to not enough started members",
            ),
            ServerError::LearnerNotReady => (
                FailedPrecondition,
                "etcdserver: can only promote a learner member which is in sync with leader",
            ),
            ServerError::Unhealthy => (Unavailable, "etcdserver: unhealthy cluster"),
            ServerError::BadLeaderTransferee => {
                (FailedPrecondition, "etcdserver: bad leader transferee")
            }
            ServerError::NotLeader => (FailedPrecondition, "etcdserver: not leader"),
            ServerError::Timeout => (Unavailable, "etcdserver: request timed out"),
            ServerError::LeaderChanged => (Unavailable, "etcdserver: leader changed"),
            ServerError::TimeoutDueToLeaderFail => (
                Unavailable,
                "etcdserver: request timed out, possibly due to previous leader failure",
            ),
            ServerError::TimeoutLeaderTransfer => (
                Unknown,
                "etcdserver: request timed out, leader transfer took too long",
            ),
            ServerError::NotSupportedForLearner => {
                (Unavailable, "etcdserver: rpc not supported for learner")
            }
            ServerError::ContextDeadline => (Unknown, "context deadline exceeded"),
        }
    }
}

fn member_status(e: MemberError) -> (Code, &'static str) {
    use Code::*;
    match e {
        MemberError::IdRemoved | MemberError::IdNotFound => {
            (NotFound, "etcdserver: member not found")
        }
        MemberError::IdExists => (FailedPrecondition, "etcdserver: member ID already exist"),
        MemberError::PeerUrlExists => (FailedPrecondition, "etcdserver: Peer URLs already exists"),
        MemberError::NotLearner => (
            FailedPrecondition,
            "etcdserver: can only promote a learner member",
        ),
        MemberError::TooManyLearners => (
            FailedPrecondition,
            "etcdserver: too many learner members in cluster",
        ),
        MemberError::TooManyMembers => (
            FailedPrecondition,
            "etcdserver: too many members in cluster (this playground holds at most 32)",
        ),
    }
}
