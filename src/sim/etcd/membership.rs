//! The member table of one etcd server (`RaftCluster` in etcd): members, learners,
//! removed IDs, the cluster version, and etcd 3.4's membership rules, both the
//! propose-time checks (strict reconfig) and the apply-time validation.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// etcd's `maxLearners`: a constant in 3.4.
pub const MAX_LEARNERS: usize = 1;

/// One member as etcd stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    pub id: u64,
    pub name: String,
    pub peer_urls: Vec<String>,
    pub client_urls: Vec<String>,
    pub is_learner: bool,
}

impl Member {
    /// Go's `%+v` of etcd's `Member`: `{ID:… RaftAttributes:{…} Attributes:{…}}`.
    pub fn go_text(&self) -> String {
        format!(
            "{{ID:{:x} RaftAttributes:{{PeerURLs:[{}] IsLearner:{}}} Attributes:{{Name:{} ClientURLs:[{}]}}}}",
            self.id,
            self.peer_urls.join(" "),
            self.is_learner,
            self.name,
            self.client_urls.join(" ")
        )
    }

    /// A member known only by its ID (for removals and lookups).
    pub fn bare(id: u64) -> Member {
        Member {
            id,
            name: String::new(),
            peer_urls: Vec::new(),
            client_urls: Vec::new(),
            is_learner: false,
        }
    }

    /// etcd's `IsStarted`: the member has published its name at least once.
    pub fn is_started(&self) -> bool {
        !self.name.is_empty()
    }
}

/// What a membership change does; carried in the raft entry's context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChangeKind {
    Add,
    Remove,
    Update,
    Promote,
}

/// Apply-time refusals (`etcdserver/api/membership/errors.go`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberError {
    IdRemoved,
    IdExists,
    IdNotFound,
    PeerUrlExists,
    NotLearner,
    TooManyLearners,
    /// Not etcd's: the playground's bound on a cluster (`sim::budget::MAX_MEMBERS`).
    TooManyMembers,
}

/// Too few started voters for a reconfiguration: etcd's warning gives both numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shortfall {
    pub started: usize,
    pub quorum: usize,
}

impl Shortfall {
    /// etcd rejects when `nstarted < nmembers/2 + 1`.
    fn check(started: usize, nmembers: usize) -> Result<(), Shortfall> {
        let quorum = nmembers / 2 + 1;
        if started < quorum {
            return Err(Shortfall { started, quorum });
        }
        Ok(())
    }

    /// `Reject <what> request: the number of started member (N) will be less than …`.
    pub fn warning(&self, what: &str) -> String {
        format!(
            "Reject {what} request: the number of started member ({}) will be less than the quorum number of the cluster ({})",
            self.started, self.quorum
        )
    }
}

/// The member table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Membership {
    pub members: BTreeMap<u64, Member>,
    pub removed: BTreeSet<u64>,
    pub version: Option<String>,
}

impl Membership {
    pub fn get(&self, id: u64) -> Option<&Member> {
        self.members.get(&id)
    }

    /// Voting member IDs, ascending.
    pub fn voters(&self) -> Vec<u64> {
        self.members
            .values()
            .filter(|m| !m.is_learner)
            .map(|m| m.id)
            .collect()
    }

    /// Learner IDs, ascending.
    pub fn learners(&self) -> Vec<u64> {
        self.members
            .values()
            .filter(|m| m.is_learner)
            .map(|m| m.id)
            .collect()
    }

    fn started_voters(&self, except: Option<u64>) -> (usize, usize) {
        let voters = self
            .members
            .values()
            .filter(|m| !m.is_learner && Some(m.id) != except);
        voters.fold((0, 0), |(n, s), m| (n + 1, s + usize::from(m.is_started())))
    }

    /// `IsReadyToAddVotingMember`: the new voter counts as a member, not as started.
    pub fn ready_to_add_voter(&self) -> Result<(), Shortfall> {
        let (n, started) = self.started_voters(None);
        let nmembers = n + 1;
        if started == 1 && nmembers == 2 {
            // adding a member to a one-member cluster (to restore its data)
            return Ok(());
        }
        Shortfall::check(started, nmembers)
    }

    /// `IsReadyToRemoveVotingMember`: the quorum of the members left.
    pub fn ready_to_remove_voter(&self, id: u64) -> Result<(), Shortfall> {
        let (nmembers, started) = self.started_voters(Some(id));
        Shortfall::check(started, nmembers)
    }

    /// `IsReadyToPromoteMember` (v3.4.4 and later: the learner counts as a member
    /// and as started).
    pub fn ready_to_promote(&self) -> Result<(), Shortfall> {
        let (n, started) = self.started_voters(None);
        Shortfall::check(started + 1, n + 1)
    }

    /// `ValidateConfigurationChange`.
    pub fn validate(&self, kind: ChangeKind, m: &Member) -> Result<(), MemberError> {
        if self.removed.contains(&m.id) {
            return Err(MemberError::IdRemoved);
        }
        let existing = self.members.get(&m.id);
        match kind {
            ChangeKind::Promote => match existing {
                None => Err(MemberError::IdNotFound),
                Some(e) if !e.is_learner => Err(MemberError::NotLearner),
                Some(_) => Ok(()),
            },
            ChangeKind::Add => {
                if existing.is_some() {
                    return Err(MemberError::IdExists);
                }
                if self.url_in_use(&m.peer_urls, None) {
                    return Err(MemberError::PeerUrlExists);
                }
                if m.is_learner && self.learners().len() + 1 > MAX_LEARNERS {
                    return Err(MemberError::TooManyLearners);
                }
                if self.members.len() >= crate::sim::budget::MAX_MEMBERS {
                    return Err(MemberError::TooManyMembers);
                }
                Ok(())
            }
            ChangeKind::Remove => existing.map(|_| ()).ok_or(MemberError::IdNotFound),
            ChangeKind::Update => {
                existing.ok_or(MemberError::IdNotFound)?;
                if self.url_in_use(&m.peer_urls, Some(m.id)) {
                    return Err(MemberError::PeerUrlExists);
                }
                Ok(())
            }
        }
    }

    fn url_in_use(&self, urls: &[String], except: Option<u64>) -> bool {
        self.members
            .values()
            .filter(|e| Some(e.id) != except)
            .any(|e| e.peer_urls.iter().any(|u| urls.contains(u)))
    }

    /// Applies a validated change.
    pub fn apply(&mut self, kind: ChangeKind, m: &Member) {
        match kind {
            ChangeKind::Add => {
                self.members.insert(m.id, m.clone());
            }
            ChangeKind::Remove => {
                self.members.remove(&m.id);
                self.removed.insert(m.id);
            }
            ChangeKind::Update => {
                if let Some(e) = self.members.get_mut(&m.id) {
                    e.peer_urls = m.peer_urls.clone();
                }
            }
            ChangeKind::Promote => {
                if let Some(e) = self.members.get_mut(&m.id) {
                    e.is_learner = false;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(id: u64, name: &str, learner: bool) -> Member {
        Member {
            id,
            name: name.into(),
            peer_urls: vec![format!("http://10.0.0.{id}:2380")],
            client_urls: vec![],
            is_learner: learner,
        }
    }

    fn table(ms: &[Member]) -> Membership {
        let mut t = Membership::default();
        for m in ms {
            t.members.insert(m.id, m.clone());
        }
        t
    }

    #[test]
    fn one_node_cluster_may_add_a_voter_but_not_two() {
        let mut t = table(&[member(1, "a", false)]);
        assert!(t.ready_to_add_voter().is_ok());
        t.apply(ChangeKind::Add, &member(2, "", false));
        assert!(t.ready_to_add_voter().is_err());
    }

    #[test]
    fn apply_time_rules() {
        let mut t = table(&[member(1, "a", false), member(2, "", true)]);
        assert_eq!(
            t.validate(ChangeKind::Add, &member(3, "", true)),
            Err(MemberError::TooManyLearners)
        );
        assert_eq!(
            t.validate(ChangeKind::Promote, &member(1, "", false)),
            Err(MemberError::NotLearner)
        );
        assert_eq!(
            t.validate(ChangeKind::Remove, &member(9, "", false)),
            Err(MemberError::IdNotFound)
        );
        t.apply(ChangeKind::Remove, &member(2, "", false));
        assert_eq!(
            t.validate(ChangeKind::Add, &member(2, "", false)),
            Err(MemberError::IdRemoved)
        );
        let mut dup = member(4, "", false);
        dup.peer_urls = member(1, "", false).peer_urls;
        assert_eq!(
            t.validate(ChangeKind::Add, &dup),
            Err(MemberError::PeerUrlExists)
        );
    }
}
