//! Raft's and etcd 3.4's promises, checked against the running servers after
//! every event when a test asks (`World::check_invariants`):
//!
//! - at most one leader per term (in one cluster);
//! - a process's commit index never goes back;
//! - members that committed the same index agree on its term (so a committed
//!   entry is the same entry everywhere);
//! - members that applied the same index have the same key-value state and the
//!   same member list;
//! - no member is both voter and learner in a raft configuration;
//! - at most one learner in a member list (etcd 3.4);
//! - a member that has removed an ID never lists it again.
//!
//! The checker sees plain [`Observation`]s, so its rules are tested on made-up
//! histories as well as on real runs.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

use super::etcd::server::Server;

/// What one running server shows at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    pub machine: String,
    pub pid: u64,
    pub id: u64,
    pub cluster: u64,
    pub term: u64,
    pub leader: bool,
    pub commit: u64,
    /// The term of the entry at `commit` (0 when the log no longer holds it).
    pub commit_term: u64,
    pub applied: u64,
    /// A digest of the key-value state and member list at `applied`.
    pub state: u64,
    pub voters: Vec<u64>,
    pub learners: Vec<u64>,
    /// Member IDs of the member list, with whether each is a learner.
    pub members: Vec<(u64, bool)>,
    pub removed: Vec<u64>,
}

impl Observation {
    /// What `server` (process `pid` on `machine`) shows now.
    pub fn of(machine: &str, pid: u64, s: &Server) -> Observation {
        let commit = s.commit_index();
        let conf = &s.backend.conf;
        Observation {
            machine: machine.to_string(),
            pid,
            id: s.id,
            cluster: s.cluster_id,
            term: s.term(),
            leader: s.is_leader(),
            commit,
            commit_term: s.log_term(commit).unwrap_or(0),
            applied: s.backend.applied,
            state: digest(s),
            voters: conf.get_voters().to_vec(),
            learners: conf.get_learners().to_vec(),
            members: s
                .backend
                .members
                .members
                .values()
                .map(|m| (m.id, m.is_learner))
                .collect(),
            removed: s.backend.members.removed.iter().copied().collect(),
        }
    }
}

/// The key-value state (the store's kept digest: nothing here grows with the
/// data) and member list, hashed (SipHash with fixed keys: the same on every
/// run and platform).
fn digest(s: &Server) -> u64 {
    #[allow(deprecated)]
    let mut h = std::hash::SipHasher::new();
    s.backend.kv.digest().hash(&mut h);
    for (id, m) in &s.backend.members.members {
        (id, &m.peer_urls, m.is_learner).hash(&mut h);
    }
    h.finish()
}

/// A broken promise, in words a person can check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    TwoLeaders {
        term: u64,
        first: u64,
        second: u64,
    },
    CommitWentBack {
        machine: String,
        from: u64,
        to: u64,
    },
    CommittedTermsDiffer {
        index: u64,
        first: (u64, u64),
        second: (u64, u64),
    },
    AppliedStatesDiffer {
        index: u64,
        first: u64,
        second: u64,
    },
    VoterAndLearner {
        machine: String,
        id: u64,
    },
    TwoLearners {
        machine: String,
        learners: Vec<u64>,
    },
    RemovedCameBack {
        machine: String,
        id: u64,
    },
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Violation::TwoLeaders {
                term,
                first,
                second,
            } => {
                write!(f, "two leaders at term {term}: {first:x} and {second:x}")
            }
            Violation::CommitWentBack { machine, from, to } => {
                write!(f, "{machine}: commit index went back from {from} to {to}")
            }
            Violation::CommittedTermsDiffer {
                index,
                first,
                second,
            } => write!(
                f,
                "committed entry {index} has term {} on {:x} but {} on {:x}",
                first.1, first.0, second.1, second.0
            ),
            Violation::AppliedStatesDiffer {
                index,
                first,
                second,
            } => write!(
                f,
                "members {first:x} and {second:x} applied index {index} to different states"
            ),
            Violation::VoterAndLearner { machine, id } => {
                write!(f, "{machine}: {id:x} is both voter and learner")
            }
            Violation::TwoLearners { machine, learners } => {
                write!(
                    f,
                    "{machine}: {} learners in the member list",
                    learners.len()
                )
            }
            Violation::RemovedCameBack { machine, id } => {
                write!(
                    f,
                    "{machine}: removed member {id:x} is in the member list again"
                )
            }
        }
    }
}

named_enum! {
    /// The promises [`Violation`]s break, one per kind, for the page's badges
    /// (in the order the page shows them).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    pub enum Promise {
        OneLeaderPerTerm => "one-leader",
        CommitNeverGoesBack => "commit-forward",
        CommittedEntriesStay => "committed-stay",
        SameAppliedState => "same-state",
        VoterOrLearner => "voter-or-learner",
        OneLearner => "one-learner",
        RemovedStaysRemoved => "removed-stays",
    }
    /// A stable name for tests and styles (`data-testid="promise-…"`).
    fn slug;
}

impl Promise {
    /// A short name, for a badge.
    pub fn label(self) -> &'static str {
        match self {
            Promise::OneLeaderPerTerm => "one leader per term",
            Promise::CommitNeverGoesBack => "commit index never goes back",
            Promise::CommittedEntriesStay => "committed entries stay",
            Promise::SameAppliedState => "same state at the same index",
            Promise::VoterOrLearner => "voter or learner, not both",
            Promise::OneLearner => "at most one learner",
            Promise::RemovedStaysRemoved => "a removed ID never comes back",
        }
    }
}

impl Violation {
    /// The promise this breaks.
    pub fn promise(&self) -> Promise {
        match self {
            Violation::TwoLeaders { .. } => Promise::OneLeaderPerTerm,
            Violation::CommitWentBack { .. } => Promise::CommitNeverGoesBack,
            Violation::CommittedTermsDiffer { .. } => Promise::CommittedEntriesStay,
            Violation::AppliedStatesDiffer { .. } => Promise::SameAppliedState,
            Violation::VoterAndLearner { .. } => Promise::VoterOrLearner,
            Violation::TwoLearners { .. } => Promise::OneLearner,
            Violation::RemovedCameBack { .. } => Promise::RemovedStaysRemoved,
        }
    }
}

/// What the checker remembers between observations.
#[derive(Debug, Default)]
pub struct Checker {
    /// (cluster, term) → the leader seen.
    leaders: BTreeMap<(u64, u64), u64>,
    /// pid → the last commit index seen.
    commits: BTreeMap<u64, u64>,
    /// (cluster, index) → (member, term) of the first member seen committed there.
    committed: BTreeMap<(u64, u64), (u64, u64)>,
    /// (cluster, applied index) → (member, state digest).
    applied: BTreeMap<(u64, u64), (u64, u64)>,
    /// (cluster, member) → the IDs that member has recorded as removed.
    removed: BTreeMap<(u64, u64), BTreeSet<u64>>,
    /// pid → what its last checked observation was taken at: (cluster, term,
    /// leader, commit, applied). Everything an observation holds changes only
    /// with one of these, so an unchanged process is not observed again.
    seen: BTreeMap<u64, (u64, u64, bool, u64, u64)>,
    pub violations: Vec<Violation>,
}

impl Checker {
    /// A cluster's history starts over (a fresh bootstrap, a forced new
    /// cluster, a restore): what its members did before no longer binds them.
    pub fn forget_cluster(&mut self, cluster: u64) {
        self.leaders.retain(|k, _| k.0 != cluster);
        self.committed.retain(|k, _| k.0 != cluster);
        self.applied.retain(|k, _| k.0 != cluster);
        self.removed.retain(|k, _| k.0 != cluster);
        self.seen.clear();
    }

    /// Checks process `pid` of `machine`, unless nothing it shows changed
    /// since it was last checked (what makes checking after every event cheap
    /// enough for the page).
    pub fn observe_server(&mut self, machine: &str, pid: u64, s: &Server) {
        let at = (
            s.cluster_id,
            s.term(),
            s.is_leader(),
            s.commit_index(),
            s.backend.applied,
        );
        if self.seen.insert(pid, at) == Some(at) {
            return;
        }
        self.check(&Observation::of(machine, pid, s));
    }

    /// Checks one moment's observations (every running server).
    pub fn observe(&mut self, now: &[Observation]) {
        for o in now {
            self.check(o);
        }
    }

    fn check(&mut self, o: &Observation) {
        let mut found = Vec::new();
        self.check_raft(o, &mut found);
        self.check_membership(o, &mut found);
        for v in found {
            if !self.violations.contains(&v) {
                self.violations.push(v);
            }
        }
    }

    /// Raft's promises: one leader a term, commit indexes that never go
    /// back, one term per committed index, one state per applied index.
    fn check_raft(&mut self, o: &Observation, found: &mut Vec<Violation>) {
        if o.leader {
            let first = *self.leaders.entry((o.cluster, o.term)).or_insert(o.id);
            if first != o.id {
                found.push(Violation::TwoLeaders {
                    term: o.term,
                    first,
                    second: o.id,
                });
            }
        }
        let last = self.commits.insert(o.pid, o.commit).unwrap_or(0);
        if o.commit < last {
            found.push(Violation::CommitWentBack {
                machine: o.machine.clone(),
                from: last,
                to: o.commit,
            });
        }
        if o.commit > 0 && o.commit_term > 0 {
            let first = *self
                .committed
                .entry((o.cluster, o.commit))
                .or_insert((o.id, o.commit_term));
            if first.1 != o.commit_term {
                found.push(Violation::CommittedTermsDiffer {
                    index: o.commit,
                    first,
                    second: (o.id, o.commit_term),
                });
            }
        }
        let first = *self
            .applied
            .entry((o.cluster, o.applied))
            .or_insert((o.id, o.state));
        if first.1 != o.state {
            found.push(Violation::AppliedStatesDiffer {
                index: o.applied,
                first: first.0,
                second: o.id,
            });
        }
    }

    /// etcd's membership promises: no member both voter and learner, at
    /// most one learner, no removed member back.
    fn check_membership(&mut self, o: &Observation, found: &mut Vec<Violation>) {
        if let Some(&id) = o.voters.iter().find(|v| o.learners.contains(v)) {
            found.push(Violation::VoterAndLearner {
                machine: o.machine.clone(),
                id,
            });
        }
        let learners: Vec<u64> = o.members.iter().filter(|m| m.1).map(|m| m.0).collect();
        if learners.len() > 1 {
            found.push(Violation::TwoLearners {
                machine: o.machine.clone(),
                learners,
            });
        }
        let removed = self.removed.entry((o.cluster, o.id)).or_default();
        removed.extend(o.removed.iter().copied());
        if let Some(&(id, _)) = o.members.iter().find(|m| removed.contains(&m.0)) {
            found.push(Violation::RemovedCameBack {
                machine: o.machine.clone(),
                id,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(id: u64, pid: u64) -> Observation {
        Observation {
            machine: format!("m{id}"),
            pid,
            id,
            cluster: 7,
            term: 2,
            leader: false,
            commit: 10,
            commit_term: 2,
            applied: 10,
            state: 99,
            voters: vec![1, 2, 3],
            learners: vec![],
            members: vec![(1, false), (2, false), (3, false)],
            removed: vec![],
        }
    }

    fn check(history: &[Vec<Observation>]) -> Vec<Violation> {
        let mut c = Checker::default();
        for moment in history {
            c.observe(moment);
        }
        c.violations
    }

    #[test]
    fn a_healthy_history_breaks_nothing() {
        let mut leader = obs(1, 101);
        leader.leader = true;
        let later = Observation {
            term: 3,
            commit: 12,
            commit_term: 3,
            applied: 12,
            state: 5,
            ..obs(2, 102)
        };
        let mut new_leader = later.clone();
        new_leader.leader = true;
        let history = vec![
            vec![leader, obs(2, 102), obs(3, 103)],
            vec![new_leader, later],
        ];
        assert_eq!(check(&history), vec![]);
    }

    #[test]
    fn each_broken_promise_is_named() {
        let mut a = obs(1, 101);
        a.leader = true;
        let mut b = obs(2, 102);
        b.leader = true;
        assert!(matches!(
            check(&[vec![a, b]])[..],
            [Violation::TwoLeaders {
                term: 2,
                first: 1,
                second: 2
            }]
        ));

        let back = Observation {
            commit: 9,
            commit_term: 2,
            applied: 9,
            state: 1,
            ..obs(1, 101)
        };
        assert!(
            check(&[vec![obs(1, 101)], vec![back]]).contains(&Violation::CommitWentBack {
                machine: "m1".into(),
                from: 10,
                to: 9
            })
        );

        let other_term = Observation {
            commit_term: 3,
            ..obs(2, 102)
        };
        assert!(matches!(
            check(&[vec![obs(1, 101), other_term]])[..],
            [Violation::CommittedTermsDiffer { index: 10, .. }]
        ));

        let other_state = Observation {
            state: 98,
            ..obs(2, 102)
        };
        assert!(matches!(
            check(&[vec![obs(1, 101), other_state]])[..],
            [Violation::AppliedStatesDiffer { index: 10, .. }]
        ));

        let both = Observation {
            learners: vec![3],
            ..obs(1, 101)
        };
        assert!(matches!(
            check(&[vec![both]])[..],
            [Violation::VoterAndLearner { id: 3, .. }]
        ));

        let two = Observation {
            members: vec![(1, false), (4, true), (5, true)],
            ..obs(1, 101)
        };
        assert!(matches!(
            check(&[vec![two]])[..],
            [Violation::TwoLearners { .. }]
        ));

        let gone = Observation {
            members: vec![(1, false), (2, false)],
            removed: vec![3],
            ..obs(1, 101)
        };
        // another member that has not applied the removal yet still lists 3: fine
        assert_eq!(check(&[vec![gone.clone(), obs(2, 102)]]), vec![]);
        let back = Observation {
            removed: vec![3],
            ..obs(1, 101)
        };
        assert!(matches!(
            check(&[vec![gone], vec![back]])[..],
            [Violation::RemovedCameBack { id: 3, .. }]
        ));
    }

    #[test]
    fn a_restarted_process_starts_its_own_commit_history() {
        let before = obs(1, 101);
        let restarted = Observation {
            commit: 4,
            commit_term: 2,
            applied: 4,
            state: 3,
            ..obs(1, 104)
        };
        assert_eq!(check(&[vec![before], vec![restarted]]), vec![]);
    }
}
