//! `WorldView`: the plain, cloneable picture of the world the UI and the tests
//! read. Nothing in it reaches into raft-rs.

use raft::StateRole;

use super::etcd::membership::Member;
use super::world::{ExitInfo, World};

/// A process's raft role as etcd's documents name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Leader,
    Follower,
    Candidate,
    PreCandidate,
    Learner,
}

impl Role {
    pub fn name(&self) -> &'static str {
        match self {
            Role::Leader => "leader",
            Role::Follower => "follower",
            Role::Candidate => "candidate",
            Role::PreCandidate => "pre-candidate",
            Role::Learner => "learner",
        }
    }
}

/// A running etcd process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessView {
    pub pid: u64,
    pub name: String,
    pub id: u64,
    pub cluster_id: u64,
    pub role: Role,
    pub term: u64,
    pub leader: u64,
    pub commit: u64,
    pub applied: u64,
    pub ready: bool,
    pub members: Vec<Member>,
    /// The leader's view of each member's match index, with its own.
    pub progress: Vec<(u64, u64)>,
    pub revision: i64,
    /// Peers rafthttp sees as active now.
    pub active_peers: Vec<u64>,
}

/// A machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineView {
    pub name: String,
    pub addrs: Vec<String>,
    pub up: bool,
    pub disk: Vec<String>,
    pub process: Option<ProcessView>,
    pub last_exit: Option<ExitInfo>,
}

/// A pair of machines' two directed links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkView {
    pub a: String,
    pub b: String,
    pub a_to_b: bool,
    pub b_to_a: bool,
}

/// Everything the UI may see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorldView {
    pub now_ms: u64,
    pub wall_ms: i64,
    pub machines: Vec<MachineView>,
    pub links: Vec<LinkView>,
    pub hosts: Vec<(String, String)>,
    pub log_lines: usize,
}

impl World {
    /// The current picture of the world.
    pub fn view(&self) -> WorldView {
        let machines: Vec<MachineView> = self
            .machines
            .values()
            .map(|m| MachineView {
                name: m.name.clone(),
                addrs: m.addrs.clone(),
                up: m.up,
                disk: self.listing(&m.name),
                process: self.process_view(&m.name),
                last_exit: m.last_exit.clone(),
            })
            .collect();
        let names: Vec<&String> = self.machines.keys().collect();
        let mut links = Vec::new();
        for (i, a) in names.iter().enumerate() {
            for b in names.iter().skip(i + 1) {
                links.push(LinkView {
                    a: (*a).clone(),
                    b: (*b).clone(),
                    a_to_b: !self.cut.contains(&((*a).clone(), (*b).clone())),
                    b_to_a: !self.cut.contains(&((*b).clone(), (*a).clone())),
                });
            }
        }
        WorldView {
            now_ms: self.now_ms(),
            wall_ms: self.wall_ms(),
            machines,
            links,
            hosts: self
                .hosts
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            log_lines: self.logs.len(),
        }
    }

    fn process_view(&self, machine: &str) -> Option<ProcessView> {
        let p = self.machines.get(machine)?.process.as_ref()?;
        let s = &p.server;
        let role = match s.role() {
            StateRole::Leader => Role::Leader,
            StateRole::Candidate => Role::Candidate,
            StateRole::PreCandidate => Role::PreCandidate,
            StateRole::Follower if s.is_learner() => Role::Learner,
            StateRole::Follower => Role::Follower,
        };
        let members: Vec<Member> = s.backend.members.members.values().cloned().collect();
        let progress = members
            .iter()
            .filter_map(|m| s.progress_of(m.id).map(|(matched, _)| (m.id, matched)))
            .collect();
        Some(ProcessView {
            pid: p.pid,
            name: s.cfg.name.clone(),
            id: s.id,
            cluster_id: s.cluster_id,
            role,
            term: s.term(),
            leader: s.leader(),
            commit: s.commit_index(),
            applied: s.backend.applied,
            ready: s.ready,
            members,
            progress,
            revision: s.backend.kv.revision(),
            active_peers: s.transport.active_peers(),
        })
    }
}
