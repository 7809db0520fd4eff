//! `WorldView`: the plain, cloneable picture of the world the UI and the tests
//! read, and how the page writes what it shows of it: times
//! ([`elapsed_text`]) and text a person or a link put there
//! ([`visible_text`]). Nothing in it reaches into raft-rs.

use std::borrow::Cow;
use std::rc::Rc;

use raft::StateRole;

use super::etcd::catchup::CatchUpBytes;
use super::etcd::membership::Member;
use super::etcd::request::StatusInfo;
use super::etcd::version::EtcdVersion;
use super::wire::{Wire, WIRE_IN_VIEW};
use super::world::{ExitInfo, LinkSpec, NicSpec, Traffic, World};

named_enum! {
    /// A process's raft role.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Role {
        Leader => "leader",
        Follower => "follower",
        Candidate => "candidate",
        PreCandidate => "pre-candidate",
        Learner => "learner",
    }
    /// The role as etcd's documents name it.
    fn name;
}

/// One entry of the leader's raft progress tracker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeerProgress {
    pub id: u64,
    /// The highest log index known to be replicated on this member.
    pub matched: u64,
    /// raft-rs's `recent_active`: the leader heard from this member since its
    /// last quorum check (cleared at each check, once per election timeout; the
    /// leader's own entry is always set after a check).
    pub recent_active: bool,
    /// For a learner: its catch-up in bytes, from the leader's log and the
    /// snapshot on its way to it (`sim::etcd::catchup`).
    pub bytes: Option<CatchUpBytes>,
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
    /// The leader's raft progress tracker, ascending by ID, its own entry
    /// included (learners too); empty on a non-leader.
    pub progress: Vec<PeerProgress>,
    /// The raft log's last index.
    pub last_index: u64,
    pub revision: i64,
    /// Peers rafthttp sees as active now.
    pub active_peers: Vec<u64>,
    /// rafthttp's `ActiveSince` for each active peer: (ID, since ms), ascending.
    pub active_since: Vec<(u64, u64)>,
    /// `--strict-reconfig-check` (etcd's default: on).
    pub strict_reconfig_check: bool,
    /// `--election-timeout` in ms: how often a leader checks its quorum.
    pub election_ms: u64,
    /// `--listen-client-urls`, as given.
    pub listen_client_urls: Vec<String>,
    /// What `etcdctl endpoint status` reports for this server.
    pub status: StatusInfo,
    /// The etcd this process runs (its configuration's): the machine's
    /// installed one when it started ([`MachineView::etcd`]).
    pub etcd: EtcdVersion,
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
    /// The etcd installed: what `etcd` starts here and which etcdctl runs.
    pub etcd: EtcdVersion,
    /// A 3.5 etcd that started and is still asking the other members for
    /// `/downgrade/enabled` before its raft starts (no process to show yet).
    pub joining: bool,
}

impl MachineView {
    /// The state the page's automation contract and lesson checks name:
    /// `leader|follower|candidate|learner|stopped|exited` (`stopped`: never
    /// started, or stopped by `kill`, `kill -9` or power-off; `exited`: ended by
    /// itself, such as a fatal start, a removal or a raft panic).
    pub fn state(&self) -> &'static str {
        match (&self.process, &self.last_exit) {
            (Some(p), _) if p.role == Role::PreCandidate => "candidate",
            (Some(p), _) => p.role.name(),
            (None, Some(e)) if !e.was_stopped() => "exited",
            (None, _) => "stopped",
        }
    }

    /// The etcd the machine shows: the running server's, else the installed
    /// one (they differ only if a machine's etcd were switched under a
    /// running server, which `machine etcd-version` refuses).
    pub fn etcd_shown(&self) -> EtcdVersion {
        self.process.as_ref().map_or(self.etcd, |p| p.etcd)
    }
}

/// A pair of machines' two directed links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkView {
    pub a: String,
    pub b: String,
    pub a_to_b: bool,
    pub b_to_a: bool,
}

/// A directed link whose latency, jitter or loss is not the default
/// (`net delay`, `net loss`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetLinkView {
    pub from: String,
    pub to: String,
    pub spec: LinkSpec,
}

/// A machine's NIC that is not the default (`net rate`), or a default one
/// holding at least a millisecond of queue (as `net show` lists them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NicView {
    pub machine: String,
    pub spec: NicSpec,
    /// Bytes waiting in its queue now: past the limit by at most one chunk
    /// of a snapshot POST, or by a client's request or answer, which waits
    /// whole rather than drop.
    pub queued_bytes: u64,
}

/// Everything the UI may see.
///
/// Equality compares the world's state and leaves out `traffic`, `wire` and
/// `timers`: the message counters and records and the timers' progress are an
/// observation of what passing time did, not state (two views
/// of an unchanged world, as `tests/bad_input.rs` compares them, are equal
/// however many heartbeats flowed in between).
#[derive(Debug, Clone, Default)]
pub struct WorldView {
    pub now_ms: u64,
    pub wall_ms: i64,
    pub machines: Vec<MachineView>,
    pub links: Vec<LinkView>,
    pub hosts: Vec<(String, String)>,
    pub log_lines: usize,
    /// Raft messages per directed pair of machines (from, to), cumulative,
    /// in map order.
    pub traffic: Vec<(String, String, Traffic)>,
    /// The newest raft messages, oldest first (empty unless the world keeps
    /// its wire log, `World::set_wire_log`).
    pub wire: Rc<[Wire]>,
    /// Each running process's election timer and, while it campaigns, its
    /// votes, in map order.
    pub timers: Vec<NodeTimer>,
    /// The directed links that are not the defaults, by (from, to).
    pub net_links: Vec<NetLinkView>,
    /// The NICs that are not the defaults or hold a queue, by machine.
    pub nics: Vec<NicView>,
}

/// A process's election timer as raft runs it (`Server::election_timer`),
/// in simulated ms, and its vote tally while it campaigns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeTimer {
    pub machine: String,
    /// Time since the timer was last reset (a whole number of ticks).
    pub elapsed_ms: u64,
    /// When it fires: a follower campaigns, a leader checks its quorum.
    pub timeout_ms: u64,
    /// (granted, rejected, voters) while a candidate or pre-candidate.
    pub votes: Option<(usize, usize, usize)>,
}

impl PartialEq for WorldView {
    fn eq(&self, other: &Self) -> bool {
        // destructured so that a new field is not forgotten here
        let WorldView {
            now_ms,
            wall_ms,
            machines,
            links,
            hosts,
            log_lines,
            traffic: _,
            wire: _,
            timers: _,
            net_links,
            nics,
        } = self;
        *now_ms == other.now_ms
            && *wall_ms == other.wall_ms
            && *machines == other.machines
            && *links == other.links
            && *hosts == other.hosts
            && *log_lines == other.log_lines
            && *net_links == other.net_links
            && *nics == other.nics
    }
}

impl Eq for WorldView {}

impl World {
    /// The current picture of the world.
    pub fn view(&self) -> WorldView {
        let mut machines: Vec<MachineView> = self
            .machines
            .values()
            .map(|m| MachineView {
                name: m.name.clone(),
                addrs: m.addrs.clone(),
                up: m.up,
                disk: self.listing(&m.name),
                process: self.process_view(&m.name),
                last_exit: m.last_exit.clone(),
                etcd: m.etcd,
                joining: self.joining(&m.name),
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
        learners_as_the_cluster_lists_them(&mut machines);
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
            traffic: self.traffic(),
            wire: self.wire_log().newest(WIRE_IN_VIEW).into(),
            timers: self.timers(),
            net_links: self
                .link_specs()
                .into_iter()
                .map(|(from, to, spec)| NetLinkView {
                    from: from.to_string(),
                    to: to.to_string(),
                    spec,
                })
                .collect(),
            nics: self.nic_views(),
        }
    }

    /// The NICs worth showing: not the default, or with at least 1 ms of
    /// queue (a default NIC's microseconds of queue are noise).
    fn nic_views(&self) -> Vec<NicView> {
        self.machines
            .keys()
            .filter_map(|name| {
                let (spec, queued_bytes) = self.nic(name);
                let queued_us =
                    u128::from(queued_bytes) * 8_000_000 / u128::from(spec.rate_bps.max(1));
                (spec != NicSpec::default() || queued_us >= 1000).then(|| NicView {
                    machine: name.clone(),
                    spec,
                    queued_bytes,
                })
            })
            .collect()
    }

    fn timers(&self) -> Vec<NodeTimer> {
        self.machines
            .values()
            .filter_map(|m| {
                let s = &m.process.as_ref()?.server;
                let (elapsed, timeout) = s.election_timer();
                let tick = s.cfg.heartbeat_ms;
                Some(NodeTimer {
                    machine: m.name.clone(),
                    elapsed_ms: elapsed as u64 * tick,
                    timeout_ms: timeout as u64 * tick,
                    votes: s.votes(),
                })
            })
            .collect()
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
        let progress = s
            .progress_all()
            .into_iter()
            .map(|(id, matched, recent_active)| PeerProgress {
                id,
                matched,
                recent_active,
                bytes: s.catch_up_bytes(id, matched),
            })
            .collect();
        let active_since = s
            .transport
            .peers
            .keys()
            .filter_map(|&id| s.transport.active_since(id).map(|t| (id, t)))
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
            last_index: s.last_index(),
            revision: s.backend.kv.revision(),
            active_peers: s.transport.active_peers(),
            active_since,
            strict_reconfig_check: s.cfg.strict_reconfig_check,
            election_ms: s.cfg.election_ms,
            listen_client_urls: s.cfg.listen_client_urls.clone(),
            status: s.status(),
            etcd: s.cfg.version,
        })
    }
}

/// raft-rs reports a learner as a follower, and a process knows it is a
/// learner only once it has applied its own `member add --learner`: a new
/// learner would show as a follower while it catches up. A follower whose own
/// member list does not hold it yet takes its role from the cluster's list
/// instead (the most applied other process of its cluster): a learner there
/// is a learner here.
fn learners_as_the_cluster_lists_them(machines: &mut [MachineView]) {
    let listed_learner = |machines: &[MachineView], me: &ProcessView| {
        machines
            .iter()
            .filter_map(|m| m.process.as_ref())
            .filter(|p| p.id != me.id && p.cluster_id == me.cluster_id)
            .max_by_key(|p| p.applied)
            .is_some_and(|p| p.members.iter().any(|x| x.id == me.id && x.is_learner))
    };
    let learners: Vec<usize> = machines
        .iter()
        .enumerate()
        .filter_map(|(i, m)| Some((i, m.process.as_ref()?)))
        .filter(|(_, p)| p.role == Role::Follower && !p.members.iter().any(|x| x.id == p.id))
        .filter(|(_, p)| listed_learner(machines, p))
        .map(|(i, _)| i)
        .collect();
    for i in learners {
        if let Some(p) = machines[i].process.as_mut() {
            p.role = Role::Learner;
        }
    }
}

/// At most `max` characters of `text`, and `…` after them when it is
/// longer: how a message quotes what a person or a link gave.
pub fn clipped(text: &str, max: usize) -> String {
    let mut out: String = text.chars().take(max).collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// `n` and a noun, plural unless `n` is 1: "1 machine", "3 machines".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A moment of simulated time since the world began, `mm:ss.s` (the page's
/// clock and the lost-writes banner write it so).
pub fn elapsed_text(ms: u64) -> String {
    format!("{:02}:{:02}.{}", ms / 60_000, ms / 1000 % 60, ms / 100 % 10)
}

/// Text as the page shows it: every character that is not seen but changes
/// how the text around it reads (see [`is_hidden`]) written as `<U+XXXX>`.
/// Names, keys, values, flags and echoed commands are a person's or a link's
/// text; shown through this, a right-to-left override cannot flip a line or a
/// label, and two names that differ by a zero-width space look different.
/// Only the display changes: commands run with what was typed.
pub fn visible_text(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_hidden(c) {
            out.push_str(&format!("<U+{:04X}>", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`visible_text`] of an owned string, which it returns as it is (no copy)
/// when nothing in it is hidden.
pub fn visible_string(text: String) -> String {
    match visible_text(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(shown) => shown,
    }
}

/// The characters [`visible_text`] writes as escapes: bidi controls
/// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069: they reorder the
/// text around them), the other invisible format characters (zero-width
/// space, non-joiner and joiner, word joiner and invisible operators,
/// deprecated format controls, byte-order mark, soft hyphen, Mongolian vowel
/// separator, interlinear annotations, tag characters), line and paragraph
/// separators, and control characters other than tab and newline.
pub fn is_hidden(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}'
        | '\u{b}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{ad}'
        | '\u{61c}'
        | '\u{180e}'
        | '\u{200b}'..='\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206f}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}'
        | '\u{e0000}'..='\u{e007f}')
}

#[cfg(test)]
mod visible_tests {
    use super::*;

    #[test]
    fn bidi_controls_are_written_as_escapes() {
        assert_eq!(visible_text("a\u{202e}b"), "a<U+202E>b");
        for (c, shown) in [
            ('\u{202a}', "<U+202A>"),
            ('\u{202b}', "<U+202B>"),
            ('\u{202c}', "<U+202C>"),
            ('\u{202d}', "<U+202D>"),
            ('\u{2066}', "<U+2066>"),
            ('\u{2067}', "<U+2067>"),
            ('\u{2068}', "<U+2068>"),
            ('\u{2069}', "<U+2069>"),
            ('\u{200e}', "<U+200E>"),
            ('\u{200f}', "<U+200F>"),
            ('\u{61c}', "<U+061C>"),
        ] {
            assert_eq!(visible_text(&format!("x{c}y")), format!("x{shown}y"));
        }
    }

    #[test]
    fn invisible_and_control_characters_too() {
        assert_eq!(
            visible_text("node0\u{200b}1 \u{200d}\u{feff}\u{1b}[31m\r"),
            "node0<U+200B>1 <U+200D><U+FEFF><U+001B>[31m<U+000D>"
        );
        assert_eq!(visible_text("tag\u{e0041}"), "tag<U+E0041>");
    }

    #[test]
    fn an_owned_string_too() {
        assert_eq!(visible_string("a\u{2067}b".into()), "a<U+2067>b");
        assert_eq!(visible_string("node01".into()), "node01");
    }

    #[test]
    fn ordinary_text_is_left_alone_and_not_copied() {
        for text in [
            "etcdctl put a 1",
            "\tb\n",
            "שלום עולם",
            "مرحبا",
            "ü → ★ 日本",
            "",
        ] {
            assert!(matches!(visible_text(text), Cow::Borrowed(t) if t == text));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::etcd::config::EtcdConfig;
    use crate::sim::etcd::request::Request;
    use crate::sim::quorum;
    use crate::sim::world::{Action, CallResult, Signal};

    fn cfg(i: u64) -> EtcdConfig {
        let peer = |i: u64| format!("http://10.0.0.{i}:2380");
        let client = vec![format!("http://10.0.0.{i}:2379")];
        EtcdConfig {
            name: format!("node{i:02}"),
            listen_peer_urls: vec![peer(i)],
            initial_advertise_peer_urls: vec![peer(i)],
            listen_client_urls: client.clone(),
            advertise_client_urls: client,
            initial_cluster: (1..=3).map(|j| (format!("node{j:02}"), peer(j))).collect(),
            ..EtcdConfig::default()
        }
    }

    fn act(w: &mut World, a: Action) {
        assert_eq!(w.apply(a), Ok(()));
    }

    /// Three machines, each starting its member of a 3-member cluster.
    fn three(w: &mut World) {
        for i in 1..=3 {
            let name = format!("node{i:02}");
            let addrs = vec![format!("10.0.0.{i}")];
            act(w, Action::AddMachine { name, addrs });
        }
        for i in 1..=3 {
            let machine = format!("node{i:02}");
            let cfg = Box::new(cfg(i));
            act(w, Action::StartEtcd { machine, cfg });
        }
    }

    /// A world of seed 1 with `three`, `ms` after they started.
    fn settled(ms: u64) -> World {
        let mut w = World::new(1);
        three(&mut w);
        act(&mut w, Action::Advance { ms });
        w
    }

    fn put(w: &mut World, key: &str) -> CallResult {
        let request = Request::Put {
            key: key.into(),
            value: "v".into(),
        };
        w.call("node01", "10.0.0.1:2379", request, 5000)
    }

    fn cut(w: &mut World, a: &str, b: &str) {
        for (from, to) in [(a, b), (b, a)] {
            let (from, to) = (from.to_string(), to.to_string());
            act(w, Action::Cut { from, to });
        }
    }

    /// A run with elections, writes, a partition, a heal and a stop; what
    /// every client saw.
    fn scenario(w: &mut World) -> Vec<CallResult> {
        three(w);
        act(w, Action::Advance { ms: 3000 });
        let mut seen = vec![put(w, "a")];
        cut(w, "node01", "node02");
        act(w, Action::Advance { ms: 2500 });
        seen.push(put(w, "b"));
        act(w, Action::Heal { pair: None });
        act(w, Action::Advance { ms: 2000 });
        let (machine, signal) = ("node03".to_string(), Signal::Term);
        act(w, Action::Kill { machine, signal });
        let machine = "node03".to_string();
        act(
            w,
            Action::WaitExit {
                machine,
                max_ms: 60_000,
            },
        );
        seen.push(put(w, "c"));
        act(w, Action::Advance { ms: 1234 });
        seen
    }

    fn traffic(w: &World, from: &str, to: &str) -> Traffic {
        w.view()
            .traffic
            .into_iter()
            .find(|(a, b, _)| a == from && b == to)
            .map(|(_, _, t)| t)
            .unwrap_or_default()
    }

    #[test]
    fn recording_frames_changes_nothing() {
        let mut plain = World::new(5);
        let seen = scenario(&mut plain);
        let mut rec = World::new(5);
        rec.record_frames(100);
        let seen_rec = scenario(&mut rec);
        let frames = rec.take_frames();
        assert_eq!(seen_rec, seen);
        assert_eq!(rec.logs, plain.logs);
        assert_eq!(rec.view(), plain.view());
        assert_eq!(rec.view().traffic, plain.view().traffic);
        assert!(frames.len() > 50, "{} frames", frames.len());
        // taking the frames stopped the recording
        act(&mut rec, Action::Advance { ms: 1000 });
        assert!(rec.take_frames().is_empty());
    }

    #[test]
    fn frames_rise_by_at_least_the_spacing_and_show_the_state_then() {
        let mut w = World::new(3);
        w.record_frames(250);
        scenario(&mut w);
        let end = w.now_ms();
        let frames = w.take_frames();
        assert!(frames.windows(2).all(|p| p[1].0 >= p[0].0 + 250));
        assert!(frames
            .iter()
            .all(|(ms, v)| ms % 250 == 0 && v.now_ms == *ms));
        assert!(frames
            .last()
            .is_some_and(|(ms, _)| *ms <= end && end - ms < 250));
        // the frames follow the story: no leader at first, one later, node03 gone at the end
        let led = |v: &WorldView| quorum::analyze(v).leader.is_some();
        assert!(!led(&frames[0].1));
        assert!(frames.iter().any(|(_, v)| led(v)));
        let last = &frames[frames.len() - 1].1;
        assert!(last.machines[2].process.is_none());
        assert!(frames[frames.len() / 2].1.log_lines <= last.log_lines);
    }

    #[test]
    fn traffic_counts_sent_and_dropped_per_direction() {
        let mut w = settled(3000);
        let before = traffic(&w, "node01", "node02");
        assert!(before.sent > 0);
        assert_eq!(before.dropped, 0);
        cut(&mut w, "node01", "node02");
        act(&mut w, Action::Advance { ms: 1000 });
        let after = traffic(&w, "node01", "node02");
        let back = traffic(&w, "node02", "node01");
        assert!(after.dropped > 0, "{after:?}");
        assert!(back.dropped > 0, "{back:?}");
        let view = w.view();
        let keys: Vec<(&String, &String)> = view.traffic.iter().map(|(a, b, _)| (a, b)).collect();
        assert!(keys.windows(2).all(|p| p[0] < p[1]), "map order");
    }

    #[test]
    fn process_view_shows_progress_log_and_status() {
        let mut w = settled(3000);
        assert!(matches!(put(&mut w, "k"), CallResult::Reply(_)));
        let v = w.view();
        let procs: Vec<&ProcessView> = v
            .machines
            .iter()
            .filter_map(|m| m.process.as_ref())
            .collect();
        let leader = procs
            .iter()
            .find(|p| p.role == Role::Leader)
            .expect("a leader");
        assert_eq!(leader.progress.len(), 3);
        assert!(leader.progress.windows(2).all(|p| p[0].id < p[1].id));
        assert!(leader.progress.iter().any(|p| p.id == leader.id));
        assert!(leader
            .progress
            .iter()
            .all(|p| p.matched == leader.last_index));
        for p in &procs {
            assert_eq!(p.status.leader, leader.id);
            assert_eq!(p.status.raft_index, p.commit);
            assert!(p.last_index >= p.commit);
            assert_eq!(p.active_since.len(), 2);
            if p.role != Role::Leader {
                assert!(p.progress.is_empty());
            }
        }
    }

    /// Frames every millisecond over `ms`: the reachable-voter count of each.
    fn reachable_per_frame(w: &mut World, ms: u64) -> Vec<usize> {
        w.record_frames(1);
        act(w, Action::Advance { ms });
        let frames = w.take_frames();
        frames
            .iter()
            .map(|(_, v)| quorum::analyze(v).voters_reachable)
            .collect()
    }

    fn leader_machine(w: &World) -> String {
        quorum::analyze(&w.view())
            .leader
            .map(|l| l.machine)
            .unwrap_or_default()
    }

    #[test]
    fn a_new_learner_is_never_shown_as_a_follower() {
        use crate::sim::etcd::config::ClusterState;
        let mut w = settled(7000);
        let add = Request::MemberAdd {
            peer_urls: vec!["http://10.0.0.4:2380".into()],
            learner: true,
        };
        let added = w.call("node01", "10.0.0.1:2379", add, 5000);
        assert!(matches!(added, CallResult::Reply(_)), "{added:?}");
        let (name, addrs) = ("node04".to_string(), vec!["10.0.0.4".to_string()]);
        act(&mut w, Action::AddMachine { name, addrs });
        let mut c = cfg(4);
        c.initial_cluster = (1..=4)
            .map(|j| (format!("node{j:02}"), format!("http://10.0.0.{j}:2380")))
            .collect();
        c.initial_cluster_state = ClusterState::Existing;
        w.record_frames(10);
        let (machine, cfg) = ("node04".to_string(), Box::new(c));
        act(&mut w, Action::StartEtcd { machine, cfg });
        act(&mut w, Action::Advance { ms: 3000 });
        let frames = w.take_frames();
        let node04 = |v: &WorldView| v.machines[3].process.clone();
        // raft-rs calls it a follower until it applies its own add: such frames exist
        assert!(frames
            .iter()
            .any(|(_, v)| { node04(v).is_some_and(|p| !p.members.iter().any(|m| m.id == p.id)) }));
        let roles: Vec<Option<Role>> = frames
            .iter()
            .map(|(_, v)| node04(v).map(|p| p.role))
            .collect();
        assert!(roles.contains(&Some(Role::Learner)), "{roles:?}");
        assert!(!roles.contains(&Some(Role::Follower)), "{roles:?}");
    }

    #[test]
    fn the_view_shows_links_and_nics_that_are_not_the_defaults() {
        use crate::sim::world::DEFAULT_LIMIT_BYTES;
        let mut w = settled(3000);
        let v = w.view();
        assert!(
            v.net_links.is_empty() && v.nics.is_empty(),
            "a LAN shows nothing"
        );
        let (a, b) = ("node01".to_string(), "node02".to_string());
        act(&mut w, Action::SetDelay { a, b, ms: 200 });
        let spec = NicSpec {
            rate_bps: 1_000_000,
            limit_bytes: DEFAULT_LIMIT_BYTES,
        };
        let machine = "node01".to_string();
        act(&mut w, Action::SetNic { machine, spec });
        let v = w.view();
        let links: Vec<(&str, &str, u64)> = v
            .net_links
            .iter()
            .map(|l| (l.from.as_str(), l.to.as_str(), l.spec.latency_ms))
            .collect();
        assert_eq!(
            links,
            [("node01", "node02", 200), ("node02", "node01", 200)]
        );
        assert_eq!(v.nics.len(), 1);
        assert_eq!(
            (v.nics[0].machine.as_str(), v.nics[0].spec),
            ("node01", spec)
        );
        // a 100 kB write leaves node01 at 1 mbit: its queue fills, then drains
        w.record_frames(10);
        let request = Request::Put {
            key: "big".into(),
            value: "v".repeat(100_000),
        };
        let _ = w.call("node01", "10.0.0.1:2379", request, 5000);
        act(&mut w, Action::Advance { ms: 3000 });
        let queued: Vec<u64> = w
            .take_frames()
            .iter()
            .filter_map(|(_, v)| v.nics.first().map(|n| n.queued_bytes))
            .collect();
        let most = queued.iter().copied().max().unwrap_or(0);
        assert!(most > 100_000, "two followers' appends wait: {most}");
        assert_eq!(queued.last(), Some(&0), "{queued:?}");
    }

    #[test]
    fn a_healthy_cluster_stays_reachable_frame_by_frame() {
        // raft-rs clears recent_active at each quorum check; the view must not
        // flicker while the answers to the next heartbeat are on their way
        let mut w = settled(5000);
        let counts = reachable_per_frame(&mut w, 5000);
        assert!(counts.len() > 100);
        assert!(counts.iter().all(|&n| n == 3), "{counts:?}");
        // slow links: replies take 400 ms to come back
        let l = leader_machine(&w);
        for other in ["node01", "node02", "node03"]
            .into_iter()
            .filter(|m| *m != l)
        {
            let (a, b) = (l.clone(), other.to_string());
            act(&mut w, Action::SetDelay { a, b, ms: 200 });
        }
        act(&mut w, Action::Advance { ms: 2000 });
        let counts = reachable_per_frame(&mut w, 5000);
        assert!(counts.iter().all(|&n| n == 3), "{counts:?}");
    }

    #[test]
    fn a_cut_follower_leaves_reach_within_an_election_timeout_and_stays_out() {
        let mut w = settled(5000);
        let l = leader_machine(&w);
        let other = if l == "node02" { "node03" } else { "node02" };
        cut(&mut w, &l, other);
        let first = reachable_per_frame(&mut w, 1100);
        assert_eq!(first.first(), Some(&3));
        assert_eq!(first.last(), Some(&2));
        let counts = reachable_per_frame(&mut w, 8000);
        assert!(counts.iter().all(|&n| n == 2), "{counts:?}");
        act(&mut w, Action::Heal { pair: None });
        act(&mut w, Action::Advance { ms: 3000 });
        assert_eq!(quorum::analyze(&w.view()).voters_reachable, 3);
    }
}
