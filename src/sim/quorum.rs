//! Quorum arithmetic over a [`WorldView`]: who leads, how many voters the leader
//! reaches, what a learner lacks before etcd promotes it, and what a change
//! (a member added, removed or promoted, a process stopped, a link cut) would
//! do to the quorum, in sentences for a learner of etcd, with its [`Outcome`].
//! The words the quorum panel shows are made here too ([`QuorumInfo::rows`],
//! [`MemberLabel`]): "started" as etcd means it (published) apart from
//! running, a member added but never started named and called "not started".
//!
//! Everything here is a pure function of the view. "Reachable" is never guessed
//! from the member table: a voter is reachable when the leader's rafthttp sees
//! it as an active peer and the leader has heard from it lately: its raft
//! progress tracker has heard from it since its last quorum check (raft-rs's
//! `recent_active`), or the voter's machine sent the leader's machine a reply
//! (an append, heartbeat or vote response) within the last election timeout.
//! The second half bridges raft-rs clearing every `recent_active` at each
//! check (once per election timeout): without it a healthy cluster would look
//! unreachable until the answers to the next heartbeat arrive, a round trip
//! later (half a second per second under `net delay 250ms`). With no leader,
//! nothing is reachable.
//!
//! etcd 3.4's rules are mirrored from `sim::etcd`: `isLearnerReady` (a learner's
//! match must reach 90 % of the leader's), the strict-reconfig checks
//! (`Membership::ready_to_add_voter`, `ready_to_remove_voter`,
//! `ready_to_promote`, and the 5 s peer-health checks of `mayAddMember` and
//! `mayRemoveMember`) and the learner limit (`MAX_LEARNERS`). etcd runs the
//! strict checks on the member that receives the request; a forecast runs them
//! on the leader's view.

use std::fmt;

use super::etcd::catchup;
use super::etcd::membership::{Member, MemberError, Membership, Shortfall, MAX_LEARNERS};
use super::etcd::request::ServerError;
use super::etcd::server::{HEALTH_INTERVAL_MS, READY_PERCENT};
use super::glossary::Word;
use super::url::split_url;
use super::view::{count, MachineView, PeerProgress, ProcessView, Role, WorldView};
use super::world::DEFAULT_RATE_BPS;

/// The leader: the process whose role is leader at the highest term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaderInfo {
    pub name: String,
    pub id: u64,
    pub term: u64,
    pub machine: String,
}

/// The cluster's quorum as the leader sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuorumInfo {
    pub leader: Option<LeaderInfo>,
    /// Voting members (ID, name; the name is empty until the member starts),
    /// from the leader's member list, or with no leader from the process that
    /// applied the most.
    pub voters: Vec<(u64, String)>,
    pub learners: Vec<(u64, String)>,
    /// Voters needed to commit: voters/2 + 1.
    pub quorum: usize,
    /// Voters that have published their name (etcd's `IsStarted`), whether
    /// or not their etcd still runs.
    pub voters_started: usize,
    /// Voters whose etcd runs now (what the map shows as not stopped).
    pub voters_running: usize,
    /// Every member of the same list, voters and learners in its order, as the
    /// page names them (see [`MemberLabel`]).
    pub members: Vec<MemberLabel>,
    /// The leader and the voters it hears from (0 with no leader).
    pub voters_reachable: usize,
    /// How many more reachable voters can be lost while writes still commit.
    pub failures_tolerated: usize,
    /// What the cluster's size alone tolerates: (voters - 1)/2.
    pub tolerance_by_size: usize,
    /// A leader exists and reaches a quorum of voters.
    pub can_commit: bool,
    /// The IDs of the voters the leader reaches, its own included (empty with
    /// no leader).
    pub reachable: Vec<u64>,
}

named_enum! {
    /// Whether a member's etcd runs, in the words the page uses.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum MemberStatus {
        /// Its etcd runs now.
        Running => "running",
        /// It has published its name (etcd's started) but its etcd does not run now.
        Stopped => "stopped",
        /// Added by `member add` and never published its name: not started, as
        /// etcd says (its etcd may be starting, or may never have run).
        NotStarted => "not started",
    }
    /// "running", "stopped", "not started".
    fn word;
}

/// A member as the page names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberLabel {
    pub id: u64,
    /// Its published name; before it publishes one, the machine its peer URL
    /// names (the name `member add` was given in every lesson: etcd itself
    /// keeps no name until the member publishes); else its ID in hex.
    pub name: String,
    pub is_learner: bool,
    pub status: MemberStatus,
}

impl MemberLabel {
    /// "node01", "node03 (stopped)", "node04 (not started)".
    pub fn text(&self) -> String {
        match self.status {
            MemberStatus::Running => self.name.clone(),
            s => format!("{} ({})", self.name, s.word()),
        }
    }
}

/// One row of the quorum panel: its label, the glossary word the label
/// names (linked there), and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub label: &'static str,
    pub word: Option<Word>,
    pub value: String,
}

impl Row {
    /// A row whose label links to the glossary word it names, if any.
    fn new(label: &'static str, value: String) -> Row {
        let word = Word::in_label(label);
        Row { label, word, value }
    }
}

impl QuorumInfo {
    /// The quorum panel's rows.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = vec![Row::new("leader", self.leader_text())];
        if let Some(l) = &self.leader {
            rows.push(Row::new("term", l.term.to_string()));
        }
        rows.push(Row::new("voters", self.list(false)));
        rows.push(Row::new("learners", self.list(true)));
        rows.extend(self.count_rows());
        let commits = if self.can_commit { "yes" } else { "no" };
        rows.push(Row::new("can commit", commits.into()));
        rows
    }

    /// Quorum, started, reachable and tolerated failures ("no voters" while
    /// there are none).
    fn count_rows(&self) -> [Row; 4] {
        let n = self.voters.len();
        let say = |text: String| match n {
            0 => "no voters".to_string(),
            _ => text,
        };
        let started = format!(
            "running {} of {n} voters · published {} of {n}",
            self.voters_running, self.voters_started
        );
        let reachable = format!("{} of {n} voters, from the leader", self.voters_reachable);
        let tolerates = format!(
            "{} now, {} by size",
            count(self.failures_tolerated, "failure"),
            self.tolerance_by_size
        );
        [
            Row::new("quorum", say(format!("{} of {n} voters", self.quorum))),
            Row::new("started", say(started)),
            Row::new("reachable", say(reachable)),
            Row::new("tolerates", say(tolerates)),
        ]
    }

    fn leader_text(&self) -> String {
        match &self.leader {
            Some(l) => format!("{} ({:x})", l.name, l.id),
            None => "none".to_string(),
        }
    }

    /// "none", or "2: node01, node03 (stopped)".
    fn list(&self, learners: bool) -> String {
        let names: Vec<String> = self
            .members
            .iter()
            .filter(|m| m.is_learner == learners)
            .map(MemberLabel::text)
            .collect();
        if names.is_empty() {
            return "none".to_string();
        }
        format!("{}: {}", names.len(), names.join(", "))
    }

    /// One line that starts "quorum ok" or "quorum lost".
    pub fn summary(&self) -> String {
        let n = self.voters.len();
        let Some(l) = &self.leader else {
            if n == 0 {
                return "quorum lost: no leader".to_string();
            }
            return format!(
                "quorum lost: no leader ({n} voters, {} needed)",
                self.quorum
            );
        };
        if self.can_commit {
            return format!(
                "quorum ok: {} leads at term {}; {} of {n} voters reachable, {} needed",
                l.name, l.term, self.voters_reachable, self.quorum
            );
        }
        format!(
            "quorum lost: {} leads at term {} but reaches {} of {n} voters, {} needed",
            l.name, l.term, self.voters_reachable, self.quorum
        )
    }
}

/// The quorum of the world's cluster.
pub fn analyze(view: &WorldView) -> QuorumInfo {
    Cluster::of(view).info
}

/// Why etcd 3.4 would not promote a learner now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromoteRefusal {
    /// No leader to check the learner's progress against and commit the change.
    NoLeader,
    /// `isLearnerReady`: the learner's match is below 90 % of the leader's.
    NotInSync {
        matched: u64,
        leader_matched: u64,
        needed: u64,
    },
    /// Strict reconfig (`IsReadyToPromoteMember`): the started voters, counting
    /// the learner, would be fewer than the quorum.
    NotEnoughStarted { started: usize, quorum: usize },
    /// No such member (apply time: it uses a raft entry).
    NotFound { id: u64 },
    /// The member is already a voter (apply time: it uses a raft entry).
    NotLearner { id: u64 },
}

impl fmt::Display for PromoteRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PromoteRefusal::NoLeader => write!(
                f,
                "no leader: etcd checks a promotion on the leader, so the request waits and times out"
            ),
            PromoteRefusal::NotInSync {
                matched,
                leader_matched,
                needed,
            } => write!(
                f,
                "{} (match {matched} of leader's {leader_matched}; needs {needed})",
                etcd_text(ServerError::LearnerNotReady)
            ),
            PromoteRefusal::NotEnoughStarted { started, quorum } => write!(
                f,
                "{} ({started} started voters with the learner, {quorum} needed)",
                etcd_text(ServerError::NotEnoughStartedMembers)
            ),
            PromoteRefusal::NotFound { id } => write!(
                f,
                "{} (no member {id:x})",
                etcd_text(ServerError::Member(MemberError::IdNotFound))
            ),
            PromoteRefusal::NotLearner { id } => write!(
                f,
                "{} ({id:x} is already a voter)",
                etcd_text(ServerError::Member(MemberError::NotLearner))
            ),
        }
    }
}

/// A learner's catch-up as the leader sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct LearnerInfo {
    pub id: u64,
    /// As [`MemberLabel::name`]: before it publishes, its machine's name.
    pub name: String,
    /// The learner's match in the leader's progress tracker (0 without a leader).
    pub matched: u64,
    /// The leader's own match (0 without a leader).
    pub leader_matched: u64,
    /// matched / leader_matched (0 without a leader, 1 when the leader's is 0).
    pub fraction: f64,
    /// Whether `etcdctl member promote` would be accepted now.
    pub promote: Result<(), PromoteRefusal>,
    /// While the leader's NIC is limited or holds a queue (`net rate`): the
    /// bytes waiting in it and its rate in bits per second, so the page can
    /// say how long what is already sent will take to leave.
    pub leader_queue: Option<(u64, u64)>,
    /// The catch-up in bytes, from the leader's log and the snapshot on its
    /// way (`None` without a leader).
    pub bytes: Option<CatchUpBytes>,
    /// The view's time (simulated ms): when these numbers were true.
    pub at_ms: u64,
}

/// A learner's catch-up in bytes, as the page shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CatchUpBytes {
    /// What the learner has: the leader's log entries up to its match, and
    /// what of a snapshot on its way has left the leader's NIC.
    pub received: u64,
    /// What it still lacks: the rest of that snapshot and the entries after
    /// its match (or after the snapshot's index).
    pub left: u64,
    /// A snapshot on its way: (bytes sent so far, its bytes).
    pub snapshot: Option<(u64, u64)>,
    /// The leader must send a snapshot first (it compacted the entries the
    /// learner lacks) and has not started: `left` is only the log after it.
    pub needs_snapshot: bool,
}

impl CatchUpBytes {
    /// The leader's measure of its log (`sim::etcd::catchup`), with a
    /// snapshot's bytes streamed out at the leader NIC's rate since its POST
    /// started. (The NIC may still have held older bytes ahead of it when it
    /// started; the snapshot is only counted whole once the learner took it.)
    fn of(m: &catchup::CatchUpBytes, now_ms: u64, rate_bps: u64) -> CatchUpBytes {
        let snapshot = m.snapshot.map(|s| {
            let elapsed = u128::from(now_ms.saturating_sub(s.started_ms));
            let streamed = elapsed * u128::from(rate_bps) / 8_000;
            let sent = u64::try_from(streamed).unwrap_or(u64::MAX).min(s.bytes);
            (sent, s.bytes)
        });
        let (sent, total) = snapshot.unwrap_or((0, 0));
        CatchUpBytes {
            received: m.have + sent,
            left: m.lack + (total - sent),
            snapshot,
            needs_snapshot: m.needs_snapshot,
        }
    }

    /// received / (received + left); 1 with nothing to move.
    pub fn fraction(&self) -> f64 {
        match self.received + self.left {
            0 => 1.0,
            all => self.received as f64 / all as f64,
        }
    }
}

/// How long the rate is observed over: the bytes a learner received in the
/// last [`RATE_WINDOW_MS`] of simulated time.
pub const RATE_WINDOW_MS: u64 = 3_000;
/// No rate is claimed from less than this much observed time.
pub const RATE_MIN_SPAN_MS: u64 = 1_000;

/// The time a catch-up has left, from its observed rate: the page feeds it
/// each view's learners ([`CatchUpMeter::observe`]); the rate is the bytes
/// received over the last [`RATE_WINDOW_MS`] (at least [`RATE_MIN_SPAN_MS`]
/// observed), and the time left is the bytes left at that rate. Unknown
/// (`None`) before that, while nothing arrives, and again from scratch when a
/// learner's count goes back (a new leader measures it anew) or time does
/// (the page went back in time).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CatchUpMeter {
    /// (learner ID, simulated ms, bytes received), oldest first per learner.
    samples: Vec<(u64, u64, u64)>,
}

impl CatchUpMeter {
    /// Takes one view's numbers.
    pub fn observe(&mut self, learners: &[LearnerInfo]) {
        self.samples
            .retain(|(id, ..)| learners.iter().any(|l| l.id == *id && l.bytes.is_some()));
        for l in learners {
            let Some(b) = l.bytes else { continue };
            let last = self
                .samples
                .iter()
                .rev()
                .find(|(id, ..)| *id == l.id)
                .copied();
            match last {
                Some((_, at, got)) if l.at_ms < at || b.received < got => {
                    self.samples.retain(|(id, ..)| *id != l.id);
                }
                Some((_, at, _)) if l.at_ms == at => continue,
                _ => {}
            }
            self.samples.push((l.id, l.at_ms, b.received));
            self.forget_before(l.id, l.at_ms.saturating_sub(RATE_WINDOW_MS));
        }
    }

    /// Drops a learner's samples older than `start`, keeping the newest of
    /// them (so the window spans at least its length once observed that long).
    fn forget_before(&mut self, id: u64, start: u64) {
        let old: Vec<usize> = (0..self.samples.len())
            .filter(|&i| self.samples[i].0 == id && self.samples[i].1 < start)
            .collect();
        if let Some((_, drop)) = old.split_last() {
            for &i in drop.iter().rev() {
                self.samples.remove(i);
            }
        }
    }

    /// Bytes per simulated second a learner received lately, if known.
    pub fn rate(&self, id: u64) -> Option<f64> {
        let mut mine = self.samples.iter().filter(|(i, ..)| *i == id);
        let (_, t0, b0) = *mine.next()?;
        let (_, t1, b1) = *mine.next_back()?;
        let span = t1.checked_sub(t0)?;
        (span >= RATE_MIN_SPAN_MS && b1 > b0).then(|| (b1 - b0) as f64 * 1000.0 / span as f64)
    }

    /// Seconds left for `l` at its observed rate (`None`: unknown, as while
    /// the snapshot it needs has not started).
    pub fn seconds_left(&self, l: &LearnerInfo) -> Option<f64> {
        let b = l.bytes.filter(|b| !b.needs_snapshot)?;
        self.rate(l.id).map(|r| b.left as f64 / r)
    }
}

/// Every learner of the cluster, with its catch-up and promotion verdict.
pub fn learners(view: &WorldView) -> Vec<LearnerInfo> {
    let c = Cluster::of(view);
    c.info
        .learners
        .iter()
        .map(|(id, _)| {
            let (matched, leader_matched) = c.matches(*id);
            LearnerInfo {
                id: *id,
                name: c.label(*id),
                matched,
                leader_matched,
                fraction: fraction(c.leader.is_some(), matched, leader_matched),
                promote: c.promote_check(*id),
                leader_queue: leader_queue(view, c.info.leader.as_ref()),
                bytes: catch_up_bytes(view, c.info.leader.as_ref(), *id),
                at_ms: view.now_ms,
            }
        })
        .collect()
}

/// The leader's NIC queue and rate, when the view lists its NIC.
fn leader_queue(view: &WorldView, leader: Option<&LeaderInfo>) -> Option<(u64, u64)> {
    let leader = leader?;
    view.nics
        .iter()
        .find(|n| n.machine == leader.machine)
        .map(|n| (n.queued_bytes, n.spec.rate_bps))
}

/// A learner's catch-up in bytes, from the leader's progress entry for it
/// and its NIC's rate (the default rate when the view does not list it).
fn catch_up_bytes(view: &WorldView, leader: Option<&LeaderInfo>, id: u64) -> Option<CatchUpBytes> {
    let leader = leader?;
    let m = view
        .machines
        .iter()
        .find(|m| m.name == leader.machine)?
        .process
        .as_ref()?
        .progress
        .iter()
        .find(|p| p.id == id)?
        .bytes?;
    let rate = view
        .nics
        .iter()
        .find(|n| n.machine == leader.machine)
        .map_or(DEFAULT_RATE_BPS, |n| n.spec.rate_bps);
    Some(CatchUpBytes::of(&m, view.now_ms, rate))
}

fn fraction(has_leader: bool, matched: u64, leader_matched: u64) -> f64 {
    match (has_leader, leader_matched) {
        (false, _) => 0.0,
        (true, 0) => 1.0,
        (true, l) => matched as f64 / l as f64,
    }
}

/// A change a user might make, to forecast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// `member add` of a voter for machine `name`; `started`: its etcd runs
    /// (and reaches the leader) as soon as it is added.
    AddVoter { name: String, started: bool },
    /// `member add --learner`.
    AddLearner { name: String },
    /// `member promote`.
    Promote { id: u64 },
    /// `member remove`.
    Remove { id: u64 },
    /// Stopping the etcd on a machine.
    Stop { machine: String },
    /// Powering a machine off.
    PowerOff { machine: String },
    /// Cutting both directions of the link between two machines.
    Cut { a: String, b: String },
    /// Healing both directions of the link between two machines (`net heal`).
    Heal { a: String, b: String },
    /// Starting the etcd of the member that lives on a machine.
    Start { machine: String },
}

/// Why etcd would reject a change outright.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Strict reconfig: started voters would be fewer than the quorum.
    NotEnoughStarted { started: usize, quorum: usize },
    /// Strict reconfig: a voter has not been connected for the last 5 s
    /// (adds), or removing this one breaks the active quorum.
    Unhealthy,
    /// etcd 3.4 allows one learner (apply time: it uses a raft entry).
    TooManyLearners,
    /// No such member (apply time: it uses a raft entry).
    MemberNotFound { id: u64 },
    /// `member promote`'s own checks.
    Promote(PromoteRefusal),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Refusal::NotEnoughStarted { started, quorum } => write!(
                f,
                "{} ({started} started voters, {quorum} needed)",
                etcd_text(ServerError::NotEnoughStartedMembers)
            ),
            Refusal::Unhealthy => write!(
                f,
                "{} (a voter has not been connected to the leader for the last 5 s)",
                etcd_text(ServerError::Unhealthy)
            ),
            Refusal::TooManyLearners => write!(
                f,
                "{} (etcd 3.4 allows {MAX_LEARNERS})",
                etcd_text(ServerError::Member(MemberError::TooManyLearners))
            ),
            Refusal::MemberNotFound { id } => write!(
                f,
                "{} (no member {id:x})",
                etcd_text(ServerError::Member(MemberError::IdNotFound))
            ),
            Refusal::Promote(p) => p.fmt(f),
        }
    }
}

/// What a change would do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forecast {
    /// A short sentence for a learner of etcd.
    pub text: String,
    /// A leader with a quorum of reachable voters is expected afterwards.
    pub keeps_quorum: bool,
    /// etcd would reject the change outright.
    pub refusal: Option<Refusal>,
}

named_enum! {
    /// What a forecast foretells, for its colour and symbol: refused and quorum
    /// lost are warnings, a kept quorum is fine.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Outcome {
        /// A leader with a quorum of reachable voters afterwards.
        KeepsQuorum => "ok",
        /// No quorum afterwards: writes stop (or stay stopped).
        QuorumLost => "lost",
        /// etcd would reject the change outright.
        Refused => "refused",
    }
    /// The page's name for it (its `data-outcome`): `ok`, `lost`, `refused`.
    fn name;
}

impl Forecast {
    /// Refused if etcd rejects it, else whether quorum holds afterwards.
    pub fn outcome(&self) -> Outcome {
        match (self.refusal, self.keeps_quorum) {
            (Some(_), _) => Outcome::Refused,
            (None, true) => Outcome::KeepsQuorum,
            (None, false) => Outcome::QuorumLost,
        }
    }
}

/// What `change` would do to the quorum, from [`analyze`]'s numbers.
pub fn forecast(view: &WorldView, change: &Change) -> Forecast {
    let c = Cluster::of(view);
    match change {
        Change::AddVoter { name, started } => c.add_voter(name, *started),
        Change::AddLearner { .. } => c.add_learner(),
        Change::Promote { id } => c.promote(*id),
        Change::Remove { id } => c.remove(*id),
        Change::Stop { machine } => c.stop(machine, "stopping"),
        Change::PowerOff { machine } => c.power_off(machine),
        Change::Cut { a, b } => c.cut(a, b),
        Change::Heal { a, b } => c.heal(a, b),
        Change::Start { machine } => c.start(machine),
    }
}

/// etcd's client-visible text for an error.
fn etcd_text(e: ServerError) -> &'static str {
    e.status().1
}

/// "tolerates no failure", "tolerates 1 failure", "tolerates 2 failures".
fn tolerates(reachable: usize, quorum: usize) -> String {
    match reachable.saturating_sub(quorum) {
        0 => "tolerates no failure".to_string(),
        k => format!("tolerates {}", count(k, "failure")),
    }
}

/// The voters after a change: count, quorum.
fn sized(voters: usize) -> (usize, usize) {
    (voters, voters / 2 + 1)
}

/// The view seen from its leader (or, with none, from the most applied process).
struct Cluster<'a> {
    view: &'a WorldView,
    info: QuorumInfo,
    leader: Option<Located<'a>>,
    members: &'a [Member],
    /// The reachable voters' IDs, the leader's included.
    reachable: Vec<u64>,
}

impl<'a> Cluster<'a> {
    fn of(view: &'a WorldView) -> Cluster<'a> {
        let leader = leader_process(view);
        let reference = leader.or_else(|| most_applied(view));
        let members: &[Member] = reference.map(|(_, p)| p.members.as_slice()).unwrap_or(&[]);
        let listed = |learner: bool| -> Vec<(u64, String)> {
            members
                .iter()
                .filter(|m| m.is_learner == learner)
                .map(|m| (m.id, m.name.clone()))
                .collect()
        };
        let (voters, learners) = (listed(false), listed(true));
        let reachable: Vec<u64> = leader
            .map(|l| reachable_voters(view, l, &voters))
            .unwrap_or_default();
        let (n, quorum) = sized(voters.len());
        let r = reachable.len();
        let labels: Vec<MemberLabel> = members.iter().map(|m| label_of(view, m)).collect();
        let info = QuorumInfo {
            voters_running: labels
                .iter()
                .filter(|l| !l.is_learner && l.status == MemberStatus::Running)
                .count(),
            members: labels,
            leader: leader.map(|(m, p)| LeaderInfo {
                name: if p.name.is_empty() {
                    m.name.clone()
                } else {
                    p.name.clone()
                },
                id: p.id,
                term: p.term,
                machine: m.name.clone(),
            }),
            voters_started: members
                .iter()
                .filter(|m| !m.is_learner && m.is_started())
                .count(),
            voters,
            learners,
            quorum,
            voters_reachable: r,
            failures_tolerated: r.saturating_sub(quorum),
            tolerance_by_size: n.saturating_sub(1) / 2,
            can_commit: leader.is_some() && r >= quorum,
            reachable: reachable.clone(),
        };
        Cluster {
            view,
            info,
            leader,
            members,
            reachable,
        }
    }

    fn n(&self) -> usize {
        self.info.voters.len()
    }

    fn q(&self) -> usize {
        self.info.quorum
    }

    fn r(&self) -> usize {
        self.info.voters_reachable
    }

    fn machine(&self, name: &str) -> Option<&'a MachineView> {
        self.view.machines.iter().find(|m| m.name == name)
    }

    fn member(&self, id: u64) -> Option<&'a Member> {
        self.members.iter().find(|m| m.id == id)
    }

    /// The member's name as the page gives it ([`MemberLabel::name`]).
    fn label(&self, id: u64) -> String {
        self.info
            .members
            .iter()
            .find(|l| l.id == id)
            .map(|l| l.name.clone())
            .unwrap_or_else(|| format!("{id:x}"))
    }

    fn leader_id(&self) -> Option<u64> {
        self.leader.map(|(_, p)| p.id)
    }

    fn progress(&self, id: u64) -> Option<&'a PeerProgress> {
        let (_, p) = self.leader?;
        p.progress.iter().find(|pr| pr.id == id)
    }

    /// (member's match, leader's match) in the leader's progress tracker.
    fn matches(&self, id: u64) -> (u64, u64) {
        let own = self.leader_id().and_then(|l| self.progress(l));
        let of = |p: Option<&PeerProgress>| p.map(|p| p.matched).unwrap_or(0);
        (of(self.progress(id)), of(own))
    }

    /// Whether the leader hears from member `id` (the leader itself counts).
    fn reaches(&self, id: u64) -> bool {
        self.leader
            .is_some_and(|l| id == l.1.id || heard_from(self.view, l, id))
    }

    /// Which member lives on `machine`: its running process's ID, or the member
    /// whose peer URL names one of the machine's addresses.
    fn member_on(&self, machine: &str) -> Option<&'a Member> {
        let m = self.machine(machine)?;
        if let Some(p) = &m.process {
            return self.member(p.id);
        }
        self.members.iter().find(|mem| {
            mem.peer_urls
                .iter()
                .any(|u| split_url(u).is_some_and(|(host, _)| names_machine(self.view, host, m)))
        })
    }

    /// The leader's member table, for `Membership`'s strict-reconfig rules.
    fn table(&self) -> Membership {
        Membership {
            members: self.members.iter().map(|m| (m.id, m.clone())).collect(),
            ..Membership::default()
        }
    }

    fn strict(&self) -> bool {
        self.leader.is_some_and(|(_, p)| p.strict_reconfig_check)
    }

    /// rafthttp's `ActiveSince` of a peer, seen from the leader.
    fn active_since(&self, id: u64) -> Option<u64> {
        let (_, p) = self.leader?;
        p.active_since
            .iter()
            .find(|(peer, _)| *peer == id)
            .map(|(_, t)| *t)
    }

    /// `isConnectedFullySince(now - 5 s)` over the voters, as `mayAddMember` asks.
    fn healthy_for_add(&self) -> bool {
        let now = self.view.now_ms;
        let since = now.saturating_sub(HEALTH_INTERVAL_MS);
        self.info.voters.iter().all(|(v, _)| {
            Some(*v) == self.leader_id()
                || (now >= HEALTH_INTERVAL_MS && self.active_since(*v).is_some_and(|t| t <= since))
        })
    }

    /// `mayRemoveMember`'s active-quorum check for a voter.
    fn healthy_for_remove(&self, id: u64) -> bool {
        if Some(id) != self.leader_id() && self.active_since(id).is_none() {
            return true;
        }
        let since = self.view.now_ms.saturating_sub(HEALTH_INTERVAL_MS);
        let n = self.n();
        let active = self
            .info
            .voters
            .iter()
            .filter(|(v, _)| {
                Some(*v) == self.leader_id() || self.active_since(*v).is_some_and(|t| t <= since)
            })
            .count();
        // etcd rejects when (active - 1) < 1 + (voters - 1)/2
        active.saturating_sub(1) > n.saturating_sub(1) / 2
    }

    /// `member promote`'s checks in etcd's order: `isLearnerReady`, strict
    /// reconfig, then apply-time validation.
    fn promote_check(&self, id: u64) -> Result<(), PromoteRefusal> {
        if self.leader.is_none() {
            return Err(PromoteRefusal::NoLeader);
        }
        if self.progress(id).is_some() {
            let (matched, leader_matched) = self.matches(id);
            let needed = (leader_matched as f64 * READY_PERCENT).ceil() as u64;
            if (matched as f64) < (leader_matched as f64) * READY_PERCENT {
                return Err(PromoteRefusal::NotInSync {
                    matched,
                    leader_matched,
                    needed,
                });
            }
        }
        if self.strict() {
            self.table()
                .ready_to_promote()
                .map_err(|s| PromoteRefusal::NotEnoughStarted {
                    started: s.started,
                    quorum: s.quorum,
                })?;
        }
        match self.member(id) {
            None => Err(PromoteRefusal::NotFound { id }),
            Some(m) if !m.is_learner => Err(PromoteRefusal::NotLearner { id }),
            Some(_) => Ok(()),
        }
    }

    // ----- forecasts -----

    fn refused(&self, r: Refusal) -> Forecast {
        Forecast {
            text: format!("etcd refuses: {r}"),
            keeps_quorum: self.info.can_commit,
            refusal: Some(r),
        }
    }

    fn unchanged(&self, text: String) -> Forecast {
        Forecast {
            text,
            keeps_quorum: self.info.can_commit,
            refusal: None,
        }
    }

    /// `what` leaves the quorum as it is.
    fn same_quorum(&self, what: &str) -> Forecast {
        self.unchanged(format!(
            "{what} does not change the quorum ({} of {})",
            self.q(),
            self.n()
        ))
    }

    /// `what` leaves `r` voters reachable against a quorum of `q`: lost, or
    /// held (`holds` said before how many failures it tolerates).
    fn reachable_after(&self, what: &str, r: usize, q: usize, holds: &str) -> Forecast {
        if r < q {
            return self.outcome(
                format!("{what}, but only {r} reachable: quorum lost, writes stop"),
                false,
            );
        }
        self.outcome(format!("{what}: {holds}{}", tolerates(r, q)), true)
    }

    fn outcome(&self, text: String, keeps_quorum: bool) -> Forecast {
        Forecast {
            text,
            keeps_quorum,
            refusal: None,
        }
    }

    /// "(2 of 3 reachable, 2 needed)": the quorum as it stands.
    fn as_it_stands(&self) -> String {
        format!(
            "({} of {} reachable, {} needed)",
            self.r(),
            self.n(),
            self.q()
        )
    }

    /// What `--strict-reconfig-check` refuses of a voter added or removed:
    /// fewer `started` voters than the quorum after it, else a voter not
    /// connected for long enough (not `healthy`).
    fn strict_refusal(&self, started: Result<(), Shortfall>, healthy: bool) -> Option<Forecast> {
        if !self.strict() {
            return None;
        }
        if let Err(s) = started {
            return Some(self.refused(Refusal::NotEnoughStarted {
                started: s.started,
                quorum: s.quorum,
            }));
        }
        (!healthy).then(|| self.refused(Refusal::Unhealthy))
    }

    /// A membership change needs a committing cluster; `None` when there is one.
    fn cannot_commit(&self, what: &str) -> Option<Forecast> {
        if self.info.can_commit {
            return None;
        }
        let why = match &self.info.leader {
            None => "no leader".to_string(),
            Some(_) => format!("the leader reaches {} of {} voters", self.r(), self.q()),
        };
        Some(self.outcome(
            format!("quorum lost now ({why}): {what} cannot commit, etcdctl times out"),
            false,
        ))
    }

    fn add_voter(&self, name: &str, started: bool) -> Forecast {
        let strict = self.strict_refusal(self.table().ready_to_add_voter(), self.healthy_for_add());
        if let Some(f) = strict.or_else(|| self.cannot_commit("the add")) {
            return f;
        }
        let (n, q) = sized(self.n() + 1);
        let r = self.r() + usize::from(started);
        let keeps = r >= q;
        let text = match (started, keeps) {
            (false, false) => format!(
                "adding a voter now needs {q} of {n}; {name} is not started: writes will stop until it starts"
            ),
            (true, false) => format!(
                "adding {name} makes {n} voters, quorum {q} of {n}, but only {r} reachable: quorum lost, writes stop"
            ),
            (false, true) => format!(
                "adding {name} as a voter makes {n} voters, quorum {q} of {n}; it is not started: {r} reachable, {}",
                tolerates(r, q)
            ),
            (true, true) => format!(
                "adding {name} as a voter makes {n} voters, quorum {q} of {n}: {}",
                tolerates(r, q)
            ),
        };
        self.outcome(text, keeps)
    }

    fn add_learner(&self) -> Forecast {
        if self.strict() && !self.healthy_for_add() {
            return self.refused(Refusal::Unhealthy);
        }
        if self.info.learners.len() + 1 > MAX_LEARNERS {
            return self.refused(Refusal::TooManyLearners);
        }
        if let Some(f) = self.cannot_commit("the add") {
            return f;
        }
        self.same_quorum("adding a learner")
    }

    fn promote(&self, id: u64) -> Forecast {
        if let Err(p) = self.promote_check(id) {
            return Forecast {
                text: format!("promote refused: {p}"),
                keeps_quorum: self.info.can_commit,
                refusal: Some(Refusal::Promote(p)),
            };
        }
        if let Some(f) = self.cannot_commit("the promotion") {
            return f;
        }
        let (n, q) = sized(self.n() + 1);
        let r = self.r() + usize::from(self.reaches(id));
        let who = self.label(id);
        let what = format!("promoting {who} makes {n} voters, quorum {q} of {n}");
        self.reachable_after(&what, r, q, &format!("{r} reachable, "))
    }

    fn remove(&self, id: u64) -> Forecast {
        let Some(m) = self.member(id) else {
            return self.refused(Refusal::MemberNotFound { id });
        };
        let who = self.label(id);
        if m.is_learner {
            if let Some(f) = self.cannot_commit("the removal") {
                return f;
            }
            return self.same_quorum(&format!("removing learner {who}"));
        }
        let started = self.table().ready_to_remove_voter(id);
        let strict = self.strict_refusal(started, self.healthy_for_remove(id));
        if let Some(f) = strict.or_else(|| self.cannot_commit("the removal")) {
            return f;
        }
        self.remove_voter(id, &who)
    }

    fn remove_voter(&self, id: u64, who: &str) -> Forecast {
        let (n, q) = sized(self.n().saturating_sub(1));
        if n == 0 {
            return self.outcome(format!("removing {who} leaves no voter"), false);
        }
        let r = self.r() - usize::from(self.reachable.contains(&id));
        let leader = Some(id) == self.leader_id();
        let role = if leader { " (the leader)" } else { "" };
        let after = if leader {
            "it steps down and the others elect a new leader; "
        } else {
            ""
        };
        let what = format!("removing {who}{role} leaves {n} voters, quorum {q} of {n}");
        self.reachable_after(&what, r, q, after)
    }

    fn power_off(&self, machine: &str) -> Forecast {
        match self.machine(machine) {
            Some(m) if !m.up => self.unchanged(format!("{machine} is already off")),
            _ => self.stop(machine, "powering off"),
        }
    }

    /// Stopping the etcd on `machine` (`verb`: "stopping", "powering off").
    fn stop(&self, machine: &str, verb: &str) -> Forecast {
        let running = self.machine(machine).and_then(|m| m.process.as_ref());
        let Some(p) = running else {
            return self.unchanged(format!(
                "no etcd runs on {machine}: the quorum does not change"
            ));
        };
        match self.member(p.id) {
            Some(m) if !m.is_learner => self.stop_voter(machine, verb, p.id),
            Some(_) => self.same_quorum(&format!("{verb} {machine} (a learner)")),
            None => self.same_quorum(&format!("{verb} {machine} (not a member)")),
        }
    }

    fn stop_voter(&self, machine: &str, verb: &str, id: u64) -> Forecast {
        let (n, q) = (self.n(), self.q());
        if self.leader.is_none() {
            return self.outcome(
                format!(
                    "{verb} {machine}: quorum is already lost (no leader), writes stay stopped"
                ),
                false,
            );
        }
        let r = self.r() - usize::from(self.reachable.contains(&id));
        let keeps = r >= q;
        let text = match (Some(id) == self.leader_id(), keeps) {
            (true, true) => format!(
                "{verb} {machine} (the leader) leaves {r} of {n} voters: a new leader is elected within about a second; quorum holds"
            ),
            (true, false) => format!(
                "{verb} {machine} (the leader) leaves {r} of {n} voters: no new leader can be elected, quorum lost, writes stop"
            ),
            (false, true) => format!(
                "{verb} {machine} leaves {r} of {n} voters reachable: quorum holds, {}",
                tolerates(r, q)
            ),
            (false, false) => format!(
                "{verb} {machine} leaves {r} of {n} voters reachable: quorum lost, writes stop"
            ),
        };
        self.outcome(text, keeps)
    }

    fn cut(&self, a: &str, b: &str) -> Forecast {
        let Some((lm, _)) = self.leader else {
            return self.outcome(
                format!("cutting {a} from {b}: quorum is already lost (no leader)"),
                false,
            );
        };
        let Some(other) = other_end(&lm.name, a, b) else {
            return self.unchanged(format!(
                "cutting {a} from {b} leaves the leader's links: quorum unchanged {}",
                self.as_it_stands()
            ));
        };
        let lost = self
            .member_on(other)
            .filter(|m| !m.is_learner && self.reachable.contains(&m.id));
        if lost.is_none() {
            return self.unchanged(format!(
                "cutting the leader from {other} does not change the quorum {}",
                self.as_it_stands()
            ));
        }
        let (n, q, r) = (self.n(), self.q(), self.r().saturating_sub(1));
        let after = if r < q {
            "the leader loses its quorum, writes stop".to_string()
        } else {
            format!("quorum holds, {}", tolerates(r, q))
        };
        let leader = &lm.name;
        self.outcome(
            format!("cutting {leader} (the leader) from {other} leaves {r} of {n} voters reachable: {after}"),
            r >= q,
        )
    }

    /// Healing both directions of the link between `a` and `b`: with a
    /// leader, whether it brings a voter back within the leader's reach;
    /// without one, whether a quorum of running voters could then elect one.
    fn heal(&self, a: &str, b: &str) -> Forecast {
        let (n, q) = (self.n(), self.q());
        if n == 0 {
            return self.unchanged(format!(
                "healing {a} – {b}: no cluster's voters run there, the quorum does not change"
            ));
        }
        let Some((lm, _)) = self.leader else {
            let k = self.electable_after_heal(a, b);
            let text = if k >= q {
                format!("healing {a} – {b} lets {k} of {n} voters reach one candidate: they can elect a leader (quorum {q})")
            } else {
                format!("healing {a} – {b}: at most {k} of {n} voters reach one candidate, still short of quorum {q}, no leader")
            };
            return self.outcome(text, k >= q);
        };
        let Some(other) = other_end(&lm.name, a, b) else {
            return self.unchanged(format!(
                "healing {a} – {b} leaves the leader's links as they are: quorum unchanged {}",
                self.as_it_stands()
            ));
        };
        let running = self
            .machine(other)
            .is_some_and(|m| m.up && m.process.is_some());
        let joins = running
            && self
                .member_on(other)
                .is_some_and(|m| !m.is_learner && !self.reachable.contains(&m.id));
        let leader = &lm.name;
        if !joins {
            return self.unchanged(format!(
                "healing {leader} (the leader) – {other} brings no voter back: quorum unchanged {}",
                self.as_it_stands()
            ));
        }
        let action = format!("healing {leader} (the leader) – {other}");
        self.within_reach(&action, self.r() + 1, "")
    }

    /// `action` leaves `r` voters within the leader's reach: whether quorum
    /// holds, comes back (then `then` is said too) or is still short.
    fn within_reach(&self, action: &str, r: usize, then: &str) -> Forecast {
        let (n, q) = (self.n(), self.q());
        let keeps = r >= q;
        let text = match (keeps, self.info.can_commit) {
            (true, true) => format!(
                "{action} brings {r} of {n} voters within reach: quorum holds, {}{then}",
                tolerates(r, q)
            ),
            (true, false) => format!(
                "{action} brings {r} of {n} voters within reach: quorum restored, writes resume{then}"
            ),
            (false, _) => format!(
                "{action} brings {r} of {n} voters within reach: still short of quorum {q}, writes stay stopped"
            ),
        };
        self.outcome(text, keeps)
    }

    /// With the link `a` – `b` healed, the most running voters one candidate
    /// reaches (itself included): a candidate needs each vote directly.
    fn electable_after_heal(&self, a: &str, b: &str) -> usize {
        let voters: Vec<&MachineView> = self
            .view
            .machines
            .iter()
            .filter(|m| {
                m.up && m
                    .process
                    .as_ref()
                    .is_some_and(|p| self.info.voters.iter().any(|(id, _)| *id == p.id))
            })
            .collect();
        let up =
            |x: &str, y: &str| (x == a && y == b) || (x == b && y == a) || link_up(self.view, x, y);
        voters
            .iter()
            .map(|v| voters.iter().filter(|w| up(&v.name, &w.name)).count())
            .max()
            .unwrap_or(0)
    }

    fn start(&self, machine: &str) -> Forecast {
        let Some(m) = self.machine(machine) else {
            return self.unchanged(format!("there is no machine {machine}"));
        };
        if !m.up {
            return self.unchanged(format!("{machine} is off: power it on first"));
        }
        if m.process.is_some() {
            return self.unchanged(format!("etcd already runs on {machine}"));
        }
        match self.member_on(machine) {
            Some(mem) if !mem.is_learner => self.start_voter(m, mem),
            Some(_) => self.same_quorum(&format!("starting {machine} (a learner)")),
            None => self.unchanged(format!(
                "{machine} holds no member of this cluster: the quorum does not change ({} of {})",
                self.q(),
                self.n()
            )),
        }
    }

    fn start_voter(&self, m: &MachineView, mem: &Member) -> Forecast {
        let (n, q) = (self.n(), self.q());
        let machine = &m.name;
        let publishes = if mem.is_started() {
            ""
        } else {
            "; it publishes its name and counts as started"
        };
        let Some((lm, _)) = self.leader else {
            let k = self.running_voters() + 1;
            let text = if k >= q {
                format!("starting {machine} makes {k} of {n} voters run: they can elect a leader (quorum {q}){publishes}")
            } else {
                format!("starting {machine} makes {k} of {n} voters run: still short of quorum {q}, no leader")
            };
            return self.outcome(text, k >= q);
        };
        let joins = link_up(self.view, &lm.name, machine) && !self.reachable.contains(&mem.id);
        let r = self.r() + usize::from(joins);
        self.within_reach(&format!("starting {machine}"), r, publishes)
    }

    /// Voters whose etcd runs now (for forecasts with no leader).
    fn running_voters(&self) -> usize {
        self.info
            .voters
            .iter()
            .filter(|(id, _)| {
                self.view
                    .machines
                    .iter()
                    .any(|m| m.up && m.process.as_ref().is_some_and(|p| p.id == *id))
            })
            .count()
    }
}

/// The other end of the link `a` – `b`, when one end is `leader`.
fn other_end<'s>(leader: &str, a: &'s str, b: &'s str) -> Option<&'s str> {
    match (a == leader, b == leader) {
        (true, _) => Some(b),
        (_, true) => Some(a),
        _ => None,
    }
}

/// The member of the world's cluster that lives on `machine` (its etcd runs
/// there, or its peer URL names one of the machine's addresses), as the page
/// names it; `None` for a machine that holds no member.
pub fn resident(view: &WorldView, machine: &str) -> Option<MemberLabel> {
    let c = Cluster::of(view);
    let id = c.member_on(machine)?.id;
    c.info.members.iter().find(|l| l.id == id).cloned()
}

/// How the page names member `m` and whether its etcd runs.
fn label_of(view: &WorldView, m: &Member) -> MemberLabel {
    let running = view
        .machines
        .iter()
        .find(|x| x.up && x.process.as_ref().is_some_and(|p| p.id == m.id));
    let home = running.or_else(|| {
        view.machines.iter().find(|x| {
            m.peer_urls
                .iter()
                .any(|u| split_url(u).is_some_and(|(host, _)| names_machine(view, host, x)))
        })
    });
    let name = match (m.is_started(), home) {
        (true, _) => m.name.clone(),
        (false, Some(x)) => x.name.clone(),
        (false, None) => format!("{:x}", m.id),
    };
    let status = match (running, m.is_started()) {
        (Some(_), _) => MemberStatus::Running,
        (None, true) => MemberStatus::Stopped,
        (None, false) => MemberStatus::NotStarted,
    };
    MemberLabel {
        id: m.id,
        name,
        is_learner: m.is_learner,
        status,
    }
}

/// The process that is leader at the highest term (the first machine on a tie).
fn leader_process(view: &WorldView) -> Option<Located<'_>> {
    processes(view)
        .filter(|(_, p)| p.role == Role::Leader)
        .fold(None, |best, cur| match best {
            Some((_, b)) if b.term >= cur.1.term => best,
            _ => Some(cur),
        })
}

/// The process whose member list is the cluster's: the leader at the highest
/// term, else the one that applied the most (the first machine on a tie).
pub fn reference(view: &WorldView) -> Option<&ProcessView> {
    leader_process(view)
        .or_else(|| most_applied(view))
        .map(|(_, p)| p)
}

/// The process that applied the most (the first machine on a tie).
fn most_applied(view: &WorldView) -> Option<Located<'_>> {
    processes(view).fold(None, |best, cur| match best {
        Some((_, b)) if b.applied >= cur.1.applied => best,
        _ => Some(cur),
    })
}

fn processes(view: &WorldView) -> impl Iterator<Item = Located<'_>> {
    view.machines
        .iter()
        .filter_map(|m| m.process.as_ref().map(|p| (m, p)))
}

type Located<'a> = (&'a MachineView, &'a ProcessView);

/// Whether the leader hears from peer `id`: an active rafthttp peer, and raft's
/// `recent_active` or a reply within the last election timeout.
fn heard_from(view: &WorldView, (lm, p): Located, id: u64) -> bool {
    let recent = p.progress.iter().any(|pr| pr.id == id && pr.recent_active);
    p.active_peers.contains(&id) && (recent || replied_lately(view, lm, p, id))
}

/// Whether the machine running member `id` sent the leader's machine a raft
/// reply within the leader's election timeout.
fn replied_lately(view: &WorldView, lm: &MachineView, p: &ProcessView, id: u64) -> bool {
    let Some((peer, _)) = processes(view).find(|(_, q)| q.id == id) else {
        return false;
    };
    view.traffic
        .iter()
        .find(|(from, to, _)| *from == peer.name && *to == lm.name)
        .and_then(|(_, _, t)| t.last_reply_ms)
        .is_some_and(|t| t.saturating_add(p.election_ms) >= view.now_ms)
}

/// The voters the leader reaches, itself included.
fn reachable_voters(view: &WorldView, leader: Located, voters: &[(u64, String)]) -> Vec<u64> {
    voters
        .iter()
        .map(|(id, _)| *id)
        .filter(|&id| id == leader.1.id || heard_from(view, leader, id))
        .collect()
}

/// Whether `host` (a name in the hosts table, an address or a machine name)
/// is machine `m`.
pub(crate) fn names_machine(view: &WorldView, host: &str, m: &MachineView) -> bool {
    let addr = view
        .hosts
        .iter()
        .find(|(name, _)| name == host)
        .map(|(_, a)| a.as_str())
        .unwrap_or(host);
    m.name == addr || m.addrs.iter().any(|a| a == addr)
}

/// Both directions of the link between two machines are up (a machine reaches itself).
fn link_up(view: &WorldView, a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let up = |n: &str| view.machines.iter().any(|m| m.name == n && m.up);
    let link = view
        .links
        .iter()
        .find(|l| (l.a == a && l.b == b) || (l.a == b && l.b == a));
    up(a) && up(b) && link.is_some_and(|l| l.a_to_b && l.b_to_a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::etcd::request::StatusInfo;
    use crate::sim::view::LinkView;

    const NOW: u64 = 60_000;

    fn name(i: u64) -> String {
        format!("node{i:02}")
    }

    fn member(i: u64, learner: bool) -> Member {
        Member {
            id: i,
            name: name(i),
            peer_urls: vec![format!("http://10.0.0.{i}:2380")],
            client_urls: vec![format!("http://10.0.0.{i}:2379")],
            is_learner: learner,
        }
    }

    fn status(leader: u64) -> StatusInfo {
        StatusInfo {
            version: "3.4.23".into(),
            db_size: 20480,
            db_size_in_use: 16384,
            leader,
            raft_index: 100,
            raft_term: 2,
            raft_applied_index: 100,
            is_learner: false,
            errors: Vec::new(),
        }
    }

    fn process(i: u64, members: &[Member]) -> ProcessView {
        let peers: Vec<u64> = members.iter().map(|m| m.id).filter(|&p| p != i).collect();
        ProcessView {
            pid: 100 + i,
            name: name(i),
            id: i,
            cluster_id: 7,
            role: Role::Follower,
            term: 2,
            leader: 1,
            commit: 100,
            applied: 100,
            ready: true,
            members: members.to_vec(),
            progress: Vec::new(),
            last_index: 100,
            revision: 1,
            active_since: peers.iter().map(|&p| (p, 0)).collect(),
            active_peers: peers,
            strict_reconfig_check: true,
            election_ms: 1000,
            listen_client_urls: vec!["http://0.0.0.0:2379".to_string()],
            status: status(1),
            etcd: Default::default(),
        }
    }

    fn machine(i: u64, process: Option<ProcessView>) -> MachineView {
        MachineView {
            name: name(i),
            addrs: vec![name(i), format!("10.0.0.{i}")],
            up: true,
            disk: vec![format!("{}.etcd/", name(i))],
            process,
            last_exit: None,
            etcd: Default::default(),
            joining: false,
        }
    }

    /// `n` voters, node01 leads at term 2, all in sync and heard from.
    fn cluster(n: u64) -> WorldView {
        let members: Vec<Member> = (1..=n).map(|i| member(i, false)).collect();
        let mut machines: Vec<MachineView> = (1..=n)
            .map(|i| machine(i, Some(process(i, &members))))
            .collect();
        if let Some(p) = machines[0].process.as_mut() {
            p.role = Role::Leader;
            p.progress = (1..=n)
                .map(|id| PeerProgress {
                    id,
                    matched: 100,
                    recent_active: true,
                    bytes: None,
                })
                .collect();
        }
        let mut view = WorldView {
            now_ms: NOW,
            machines,
            ..WorldView::default()
        };
        relink(&mut view);
        view
    }

    fn relink(view: &mut WorldView) {
        let names: Vec<String> = view.machines.iter().map(|m| m.name.clone()).collect();
        view.links.clear();
        for (i, a) in names.iter().enumerate() {
            for b in names.iter().skip(i + 1) {
                view.links.push(LinkView {
                    a: a.clone(),
                    b: b.clone(),
                    a_to_b: true,
                    b_to_a: true,
                });
            }
        }
    }

    fn proc_mut(view: &mut WorldView, i: u64) -> &mut ProcessView {
        view.machines
            .iter_mut()
            .find(|m| m.name == name(i))
            .and_then(|m| m.process.as_mut())
            .expect("a running process")
    }

    fn leader_mut(view: &mut WorldView) -> &mut ProcessView {
        proc_mut(view, 1)
    }

    /// The leader stops hearing from `i` (raft and rafthttp).
    fn unheard(view: &mut WorldView, i: u64) {
        let l = leader_mut(view);
        l.progress
            .iter_mut()
            .filter(|p| p.id == i)
            .for_each(|p| p.recent_active = false);
        l.active_peers.retain(|&p| p != i);
        l.active_since.retain(|&(p, _)| p != i);
    }

    /// The etcd on machine `i` stops.
    fn stop(view: &mut WorldView, i: u64) {
        unheard(view, i);
        stop_process(view, i);
    }

    /// A learner `n + 1` on its own machine, its match at `matched` of 100.
    fn with_learner(mut view: WorldView, matched: u64) -> WorldView {
        let i = view.machines.len() as u64 + 1;
        let l = member(i, true);
        for m in view.machines.iter_mut() {
            if let Some(p) = m.process.as_mut() {
                p.members.push(l.clone());
            }
        }
        let members = leader_mut(&mut view).members.clone();
        let mut p = process(i, &members);
        p.role = Role::Learner;
        p.applied = matched;
        view.machines.push(machine(i, Some(p)));
        let leader = leader_mut(&mut view);
        leader.progress.push(PeerProgress {
            id: i,
            matched,
            recent_active: true,
            bytes: None,
        });
        leader.active_peers.push(i);
        leader.active_since.push((i, 0));
        relink(&mut view);
        view
    }

    fn says(view: &WorldView, change: Change) -> Forecast {
        forecast(view, &change)
    }

    fn add_voter(name: &str, started: bool) -> Change {
        let name = name.into();
        Change::AddVoter { name, started }
    }

    fn add_learner(name: &str) -> Change {
        let name = name.into();
        Change::AddLearner { name }
    }

    fn stop_on(machine: &str) -> Change {
        let machine = machine.into();
        Change::Stop { machine }
    }

    fn power_off(machine: &str) -> Change {
        let machine = machine.into();
        Change::PowerOff { machine }
    }

    fn start_on(machine: &str) -> Change {
        let machine = machine.into();
        Change::Start { machine }
    }

    fn cut(a: &str, b: &str) -> Change {
        let (a, b) = (a.into(), b.into());
        Change::Cut { a, b }
    }

    fn heal(a: &str, b: &str) -> Change {
        let (a, b) = (a.into(), b.into());
        Change::Heal { a, b }
    }

    #[test]
    fn healthy_three_of_three() {
        let q = analyze(&cluster(3));
        assert_eq!(
            q.leader,
            Some(LeaderInfo {
                name: "node01".into(),
                id: 1,
                term: 2,
                machine: "node01".into()
            })
        );
        assert_eq!(q.voters.len(), 3);
        assert_eq!(q.voters[1], (2, "node02".to_string()));
        assert!(q.learners.is_empty());
        assert_eq!((q.quorum, q.voters_started, q.voters_reachable), (2, 3, 3));
        assert_eq!((q.failures_tolerated, q.tolerance_by_size), (1, 1));
        assert!(q.can_commit);
        assert_eq!(
            q.summary(),
            "quorum ok: node01 leads at term 2; 3 of 3 voters reachable, 2 needed"
        );
    }

    #[test]
    fn one_follower_stopped() {
        let mut v = cluster(3);
        stop(&mut v, 3);
        let q = analyze(&v);
        assert_eq!((q.voters.len(), q.voters_reachable, q.quorum), (3, 2, 2));
        assert_eq!((q.failures_tolerated, q.tolerance_by_size), (0, 1));
        assert!(q.can_commit);
        assert!(q.summary().starts_with("quorum ok:"), "{}", q.summary());
    }

    #[test]
    fn isolated_leader_reaches_only_itself() {
        let mut v = cluster(3);
        for p in leader_mut(&mut v).progress.iter_mut().skip(1) {
            p.recent_active = false;
        }
        let q = analyze(&v);
        assert_eq!(q.voters_reachable, 1);
        assert!(!q.can_commit);
        assert_eq!(q.failures_tolerated, 0);
        assert_eq!(
            q.summary(),
            "quorum lost: node01 leads at term 2 but reaches 1 of 3 voters, 2 needed"
        );
    }

    #[test]
    fn reachable_needs_both_raft_and_rafthttp() {
        let mut v = cluster(3);
        // raft heard from node02 lately, but rafthttp has lost it
        leader_mut(&mut v).active_peers.retain(|&p| p != 2);
        // rafthttp has node03, raft has not heard from it since the last check
        leader_mut(&mut v).progress[2].recent_active = false;
        assert_eq!(analyze(&v).voters_reachable, 1);
    }

    #[test]
    fn a_recent_reply_bridges_the_quorum_check() {
        use crate::sim::world::Traffic;
        // the leader's check just cleared every flag; node02 replied 300 ms ago,
        // node03 last replied 1.5 s ago (beyond the 1 s election timeout)
        let mut v = cluster(3);
        for p in leader_mut(&mut v).progress.iter_mut().skip(1) {
            p.recent_active = false;
        }
        let reply = |ms| Traffic {
            sent: 10,
            dropped: 0,
            last_reply_ms: Some(NOW - ms),
        };
        v.traffic = vec![
            ("node02".into(), "node01".into(), reply(300)),
            ("node03".into(), "node01".into(), reply(1500)),
        ];
        assert_eq!(analyze(&v).voters_reachable, 2);
        // a reply counts only from a peer rafthttp still sees as active
        leader_mut(&mut v).active_peers.retain(|&p| p != 2);
        assert_eq!(analyze(&v).voters_reachable, 1);
    }

    #[test]
    fn no_leader_counts_from_the_most_applied_process() {
        let mut v = cluster(3);
        leader_mut(&mut v).role = Role::Candidate;
        leader_mut(&mut v).progress.clear();
        // node02 applied more, and knows a learner the others do not
        let p2 = proc_mut(&mut v, 2);
        p2.applied = 101;
        p2.members.push(member(9, true));
        let q = analyze(&v);
        assert_eq!(q.leader, None);
        assert_eq!((q.voters.len(), q.learners.len()), (3, 1));
        assert_eq!((q.voters_reachable, q.failures_tolerated), (0, 0));
        assert!(!q.can_commit);
        assert_eq!(q.summary(), "quorum lost: no leader (3 voters, 2 needed)");
        assert_eq!(
            analyze(&WorldView {
                machines: Vec::new(),
                ..v
            })
            .summary(),
            "quorum lost: no leader"
        );
    }

    #[test]
    fn the_leader_at_the_highest_term_wins() {
        let mut v = cluster(3);
        // node01 was cut off and still thinks it leads at term 2; node02 leads at 3
        let p2 = proc_mut(&mut v, 2);
        p2.role = Role::Leader;
        p2.term = 3;
        p2.progress = vec![
            PeerProgress {
                id: 2,
                matched: 100,
                recent_active: true,
                bytes: None,
            },
            PeerProgress {
                id: 3,
                matched: 100,
                recent_active: true,
                bytes: None,
            },
        ];
        let q = analyze(&v);
        assert_eq!(q.leader.as_ref().map(|l| l.id), Some(2));
        assert_eq!(q.voters_reachable, 2);
        assert!(q.can_commit);
    }

    #[test]
    fn learner_at_half_is_refused_in_etcds_words() {
        let v = with_learner(cluster(3), 50);
        let ls = learners(&v);
        assert_eq!(ls.len(), 1);
        let l = &ls[0];
        assert_eq!((l.id, l.matched, l.leader_matched), (4, 50, 100));
        assert!((l.fraction - 0.5).abs() < 1e-9);
        assert_eq!(
            l.promote,
            Err(PromoteRefusal::NotInSync {
                matched: 50,
                leader_matched: 100,
                needed: 90
            })
        );
        let why = l.promote.err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(
            why,
            "etcdserver: can only promote a learner member which is in sync with leader (match 50 of leader's 100; needs 90)"
        );
        let q = analyze(&v);
        assert_eq!((q.voters.len(), q.learners.len(), q.quorum), (3, 1, 2));
    }

    #[test]
    fn learner_at_95_percent_is_accepted_and_90_is_the_line() {
        let ok = |m| learners(&with_learner(cluster(3), m))[0].promote;
        assert_eq!(ok(95), Ok(()));
        assert_eq!(ok(90), Ok(()));
        assert!(matches!(
            ok(89),
            Err(PromoteRefusal::NotInSync { needed: 90, .. })
        ));
    }

    #[test]
    fn learner_without_leader() {
        let mut v = with_learner(cluster(3), 100);
        leader_mut(&mut v).role = Role::Follower;
        let ls = learners(&v);
        assert_eq!(ls[0].promote, Err(PromoteRefusal::NoLeader));
        assert_eq!((ls[0].matched, ls[0].fraction), (0, 0.0));
    }

    #[test]
    fn promote_follows_the_strict_started_rule() {
        // 3 voters, two never started: with the learner, 2 started of 4, quorum 3
        let mut v = with_learner(cluster(3), 100);
        for m in leader_mut(&mut v).members.iter_mut().filter(|m| m.id != 1) {
            if !m.is_learner {
                m.name.clear();
            }
        }
        let refused = Err(PromoteRefusal::NotEnoughStarted {
            started: 2,
            quorum: 3,
        });
        assert_eq!(learners(&v)[0].promote, refused);
        assert!(refused
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
            .starts_with("etcdserver: re-configuration failed due to not enough started members"));
        leader_mut(&mut v).strict_reconfig_check = false;
        assert_eq!(learners(&v)[0].promote, Ok(()));
    }

    #[test]
    fn forecast_add_voter() {
        let one = cluster(1);
        let f = says(&one, add_voter("node02", false));
        assert_eq!(
            f.text,
            "adding a voter now needs 2 of 2; node02 is not started: writes will stop until it starts"
        );
        assert!(!f.keeps_quorum);
        assert_eq!(f.refusal, None);

        let f = says(&cluster(3), add_voter("node04", true));
        assert_eq!(
            f.text,
            "adding node04 as a voter makes 4 voters, quorum 3 of 4: tolerates 1 failure"
        );
        assert!(f.keeps_quorum);

        let f = says(&cluster(3), add_voter("node04", false));
        assert!(f.keeps_quorum, "{}", f.text);
        assert!(f.text.contains("tolerates no failure"), "{}", f.text);
    }

    #[test]
    fn forecast_add_voter_refused_by_strict_reconfig() {
        // a voter that never started: 2 started of 4 after the add, quorum 3
        let mut v = cluster(3);
        leader_mut(&mut v).members[2].name.clear();
        let add = add_voter("node04", false);
        let f = says(&v, add.clone());
        assert_eq!(
            f.refusal,
            Some(Refusal::NotEnoughStarted {
                started: 2,
                quorum: 3
            })
        );
        assert_eq!(
            f.text,
            "etcd refuses: etcdserver: re-configuration failed due to not enough started members (2 started voters, 3 needed)"
        );
        leader_mut(&mut v).strict_reconfig_check = false;
        assert_eq!(says(&v, add).refusal, None);
    }

    #[test]
    fn forecast_add_refused_while_a_peer_reconnected_lately() {
        let mut v = cluster(3);
        leader_mut(&mut v).active_since[0].1 = NOW - 1000;
        for c in [add_voter("node04", true), add_learner("node04")] {
            let f = says(&v, c);
            assert_eq!(f.refusal, Some(Refusal::Unhealthy));
            assert!(
                f.text.contains("etcdserver: unhealthy cluster"),
                "{}",
                f.text
            );
        }
    }

    #[test]
    fn forecast_add_learner() {
        let f = says(&cluster(3), add_learner("node04"));
        assert_eq!(
            f.text,
            "adding a learner does not change the quorum (2 of 3)"
        );
        assert!(f.keeps_quorum);
        let f = says(&with_learner(cluster(3), 100), add_learner("node05"));
        assert_eq!(f.refusal, Some(Refusal::TooManyLearners));
        assert!(f
            .text
            .contains("etcdserver: too many learner members in cluster"));
    }

    #[test]
    fn forecast_promote() {
        let f = says(&with_learner(cluster(3), 50), Change::Promote { id: 4 });
        assert!(f.text.starts_with("promote refused: etcdserver: can only promote a learner member which is in sync with leader"), "{}", f.text);
        assert!(matches!(
            f.refusal,
            Some(Refusal::Promote(PromoteRefusal::NotInSync { .. }))
        ));
        assert!(f.keeps_quorum);

        let f = says(&with_learner(cluster(3), 95), Change::Promote { id: 4 });
        assert_eq!(
            f.text,
            "promoting node04 makes 4 voters, quorum 3 of 4: 4 reachable, tolerates 1 failure"
        );
        assert_eq!(f.refusal, None);

        let f = says(&cluster(3), Change::Promote { id: 2 });
        assert_eq!(
            f.refusal,
            Some(Refusal::Promote(PromoteRefusal::NotLearner { id: 2 }))
        );
        let f = says(&cluster(3), Change::Promote { id: 99 });
        assert_eq!(
            f.refusal,
            Some(Refusal::Promote(PromoteRefusal::NotFound { id: 99 }))
        );
    }

    #[test]
    fn forecast_remove() {
        let f = says(&cluster(3), Change::Remove { id: 3 });
        assert_eq!(
            f.text,
            "removing node03 leaves 2 voters, quorum 2 of 2: tolerates no failure"
        );
        assert!(f.keeps_quorum);

        let f = says(&cluster(3), Change::Remove { id: 1 });
        assert!(
            f.text.starts_with(
                "removing node01 (the leader) leaves 2 voters, quorum 2 of 2: it steps down"
            ),
            "{}",
            f.text
        );
        assert!(f.keeps_quorum);

        let f = says(&cluster(3), Change::Remove { id: 99 });
        assert_eq!(f.refusal, Some(Refusal::MemberNotFound { id: 99 }));
        assert_eq!(
            f.text,
            "etcd refuses: etcdserver: member not found (no member 63)"
        );

        let f = says(&with_learner(cluster(3), 10), Change::Remove { id: 4 });
        assert_eq!(
            f.text,
            "removing learner node04 does not change the quorum (2 of 3)"
        );
    }

    #[test]
    fn forecast_remove_with_a_voter_down() {
        // etcd: 3 voters with one down, removing a live voter breaks the active quorum
        let mut v = cluster(3);
        stop(&mut v, 3);
        let f = says(&v, Change::Remove { id: 2 });
        assert_eq!(f.refusal, Some(Refusal::Unhealthy));
        // removing the stopped one is allowed
        let f = says(&v, Change::Remove { id: 3 });
        assert_eq!(f.refusal, None);
        assert_eq!(
            f.text,
            "removing node03 leaves 2 voters, quorum 2 of 2: tolerates no failure"
        );
    }

    #[test]
    fn forecast_stop_and_power_off() {
        let f = says(&cluster(3), stop_on("node01"));
        assert_eq!(
            f.text,
            "stopping node01 (the leader) leaves 2 of 3 voters: a new leader is elected within about a second; quorum holds"
        );
        assert!(f.keeps_quorum);

        let mut v = cluster(3);
        stop(&mut v, 3);
        let f = says(&v, stop_on("node02"));
        assert_eq!(
            f.text,
            "stopping node02 leaves 1 of 3 voters reachable: quorum lost, writes stop"
        );
        assert!(!f.keeps_quorum);

        let f = says(&cluster(3), power_off("node02"));
        assert_eq!(
            f.text,
            "powering off node02 leaves 2 of 3 voters reachable: quorum holds, tolerates no failure"
        );
        let f = says(&v, stop_on("node03"));
        assert!(f.text.starts_with("no etcd runs on node03"), "{}", f.text);
        let f = says(&with_learner(cluster(3), 10), stop_on("node04"));
        assert_eq!(
            f.text,
            "stopping node04 (a learner) does not change the quorum (2 of 3)"
        );
    }

    #[test]
    fn forecast_cut() {
        let f = says(&cluster(3), cut("node02", "node01"));
        assert_eq!(
            f.text,
            "cutting node01 (the leader) from node02 leaves 2 of 3 voters reachable: quorum holds, tolerates no failure"
        );
        assert!(f.keeps_quorum);
        let f = says(&cluster(3), cut("node02", "node03"));
        assert!(f.text.contains("quorum unchanged (3 of 3"), "{}", f.text);
        let mut v = cluster(3);
        stop(&mut v, 3);
        let f = says(&v, cut("node01", "node02"));
        assert!(!f.keeps_quorum);
        assert!(f.text.contains("loses its quorum"), "{}", f.text);
    }

    #[test]
    fn forecast_heal() {
        // The leader's link to a voter it does not hear: the voter comes back.
        let mut v = cluster(3);
        unheard(&mut v, 2);
        let f = says(&v, heal("node02", "node01"));
        assert_eq!(
            f.text,
            "healing node01 (the leader) – node02 brings 3 of 3 voters within reach: quorum holds, tolerates 1 failure"
        );
        assert!(f.keeps_quorum);
        assert!(f.refusal.is_none());
        // Two voters unheard: healing one restores the quorum.
        unheard(&mut v, 3);
        let f = says(&v, heal("node01", "node03"));
        assert!(
            f.text.contains("quorum restored, writes resume"),
            "{}",
            f.text
        );
        assert!(f.keeps_quorum);
        // A link away from the leader leaves the quorum as it is.
        let f = says(&cluster(3), heal("node02", "node03"));
        assert!(
            f.text
                .starts_with("healing node02 – node03 leaves the leader's links"),
            "{}",
            f.text
        );
        assert!(f.keeps_quorum);
        // The leader's link to a stopped voter brings nobody back.
        let mut v = cluster(3);
        stop(&mut v, 3);
        let f = says(&v, heal("node01", "node03"));
        assert!(f.text.contains("brings no voter back"), "{}", f.text);
        assert!(!f.text.contains("cutting"), "{}", f.text);
        // No leader, every link cut: healing one link lets two of three elect.
        let mut v = cluster(3);
        proc_mut(&mut v, 1).role = Role::Follower;
        v.links.iter_mut().for_each(|l| {
            l.a_to_b = false;
            l.b_to_a = false;
        });
        let f = says(&v, heal("node02", "node03"));
        assert_eq!(
            f.text,
            "healing node02 – node03 lets 2 of 3 voters reach one candidate: they can elect a leader (quorum 2)"
        );
        assert!(f.keeps_quorum);
        assert_eq!(f.outcome(), Outcome::KeepsQuorum);
        // ... but not with the other end stopped.
        stop_process(&mut v, 3);
        let f = says(&v, heal("node02", "node03"));
        assert!(
            f.text.contains("still short of quorum 2, no leader"),
            "{}",
            f.text
        );
        assert_eq!(f.outcome(), Outcome::QuorumLost);
    }

    /// The etcd on machine `i` stops (no leader's bookkeeping).
    fn stop_process(view: &mut WorldView, i: u64) {
        if let Some(m) = view.machines.iter_mut().find(|m| m.name == name(i)) {
            m.process = None;
        }
    }

    #[test]
    fn forecast_start() {
        let mut v = cluster(3);
        stop(&mut v, 3);
        let f = says(&v, start_on("node03"));
        assert_eq!(
            f.text,
            "starting node03 brings 3 of 3 voters within reach: quorum holds, tolerates 1 failure"
        );
        stop(&mut v, 2);
        let f = says(&v, start_on("node02"));
        assert_eq!(
            f.text,
            "starting node02 brings 2 of 3 voters within reach: quorum restored, writes resume"
        );
        assert!(f.keeps_quorum);
        // no leader at all: two of three running can elect one
        leader_mut(&mut v).role = Role::Follower;
        let f = says(&v, start_on("node02"));
        assert!(f.keeps_quorum);
        assert!(f.text.contains("they can elect a leader"), "{}", f.text);
        let f = says(&v, start_on("node01"));
        assert_eq!(f.text, "etcd already runs on node01");
    }

    /// A voter `n + 1` added by `member add` for a machine of its own, never started.
    fn with_unstarted(mut view: WorldView, learner: bool) -> WorldView {
        let i = view.machines.len() as u64 + 1;
        let mut m = member(i, learner);
        m.name.clear();
        m.client_urls.clear();
        for x in view.machines.iter_mut() {
            if let Some(p) = x.process.as_mut() {
                p.members.push(m.clone());
            }
        }
        view.machines.push(machine(i, None));
        relink(&mut view);
        view
    }

    fn row(q: &QuorumInfo, label: &str) -> String {
        q.rows()
            .into_iter()
            .find(|r| r.label == label)
            .map(|r| r.value)
            .unwrap_or_else(|| panic!("no row {label}"))
    }

    #[test]
    fn started_counts_running_and_published_apart() {
        let q = analyze(&cluster(3));
        assert_eq!(q.voters_running, 3);
        assert_eq!(
            row(&q, "started"),
            "running 3 of 3 voters · published 3 of 3"
        );
        assert_eq!(row(&q, "voters"), "3: node01, node02, node03");
        assert_eq!(row(&q, "learners"), "none");
        assert_eq!(row(&q, "leader"), "node01 (1)");
        assert_eq!(row(&q, "term"), "2");
        assert_eq!(row(&q, "tolerates"), "1 failure now, 1 by size");
        // node03 stopped: etcd still counts it started (it published its name)
        let mut v = cluster(3);
        stop(&mut v, 3);
        let q = analyze(&v);
        assert_eq!((q.voters_started, q.voters_running), (3, 2));
        assert_eq!(
            row(&q, "started"),
            "running 2 of 3 voters · published 3 of 3"
        );
        assert_eq!(row(&q, "voters"), "3: node01, node02, node03 (stopped)");
        assert_eq!(row(&q, "tolerates"), "0 failures now, 1 by size");
    }

    #[test]
    fn an_empty_world_has_no_voters_to_count() {
        let q = analyze(&WorldView {
            machines: Vec::new(),
            ..cluster(1)
        });
        for label in ["quorum", "started", "reachable", "tolerates"] {
            assert_eq!(row(&q, label), "no voters", "{label}");
        }
        assert_eq!(
            (row(&q, "leader"), row(&q, "can commit")),
            ("none".into(), "no".into())
        );
    }

    #[test]
    fn a_member_added_but_not_started_is_named_by_its_machine() {
        let q = analyze(&with_unstarted(cluster(3), false));
        assert_eq!(
            row(&q, "voters"),
            "4: node01, node02, node03, node04 (not started)"
        );
        assert_eq!(
            row(&q, "started"),
            "running 3 of 4 voters · published 3 of 4"
        );
        let q = analyze(&with_unstarted(cluster(3), true));
        assert_eq!(row(&q, "learners"), "1: node04 (not started)");
        assert_eq!(
            row(&q, "started"),
            "running 3 of 3 voters · published 3 of 3"
        );
        // no machine holds its peer URL: its ID, in hex as etcdctl prints it
        let mut v = with_unstarted(cluster(3), true);
        v.machines.pop();
        assert_eq!(row(&analyze(&v), "learners"), "1: 4 (not started)");
        // the forecasts name it too
        let v = with_unstarted(cluster(3), false);
        let f = says(&v, Change::Remove { id: 4 });
        assert!(
            f.text.starts_with("removing node04 leaves 3 voters"),
            "{}",
            f.text
        );
    }

    #[test]
    fn resident_names_the_member_a_machine_holds() {
        let v = with_unstarted(cluster(3), true);
        let r = resident(&v, "node04").expect("node04 holds the learner");
        assert_eq!((r.id, r.name.as_str(), r.is_learner), (4, "node04", true));
        assert_eq!(r.status, MemberStatus::NotStarted);
        let r = resident(&v, "node02").expect("node02 runs a voter");
        assert_eq!(
            (r.status, r.text()),
            (MemberStatus::Running, "node02".to_string())
        );
        let mut v = cluster(3);
        v.machines.push(machine(9, None));
        assert_eq!(resident(&v, "node09"), None);
    }

    #[test]
    fn every_row_label_that_is_a_glossary_word_links_to_it() {
        let mut v = with_learner(cluster(3), 50);
        stop(&mut v, 3);
        for q in [
            analyze(&v),
            analyze(&cluster(1)),
            analyze(&WorldView {
                machines: Vec::new(),
                ..cluster(1)
            }),
        ] {
            let rows = q.rows();
            assert!(rows.len() >= 8, "{rows:?}");
            for r in rows {
                assert_eq!(r.word, Word::in_label(r.label), "row {}", r.label);
            }
        }
        // the words the panel's labels name
        let words: Vec<Word> = analyze(&cluster(3))
            .rows()
            .iter()
            .filter_map(|r| r.word)
            .collect();
        for w in [
            Word::Leader,
            Word::Term,
            Word::Voter,
            Word::Learner,
            Word::Quorum,
            Word::Started,
            Word::Commit,
        ] {
            assert!(words.contains(&w), "{w:?}");
        }
    }

    #[test]
    fn forecast_outcomes_colour_refusals_and_losses() {
        let refused = says(&with_learner(cluster(3), 50), Change::Promote { id: 4 });
        assert_eq!(refused.outcome(), Outcome::Refused);
        assert!(refused.keeps_quorum, "a refusal leaves the quorum as it is");
        let ok = says(&cluster(3), Change::Remove { id: 3 });
        assert_eq!(ok.outcome(), Outcome::KeepsQuorum);
        let mut v = cluster(3);
        stop(&mut v, 3);
        let lost = says(&v, stop_on("node02"));
        assert_eq!(lost.outcome(), Outcome::QuorumLost);
        let names: Vec<&str> = [refused, ok, lost]
            .iter()
            .map(|f| f.outcome().name())
            .collect();
        assert_eq!(names, ["refused", "ok", "lost"]);
        let too_many = says(&with_learner(cluster(3), 100), add_learner("node05"));
        assert_eq!(too_many.outcome(), Outcome::Refused);
    }
}
