//! The world: machines (addresses, disk, at most one etcd process), the hosts
//! table, directed links, the clock and its event queue, client calls in flight,
//! and every server's log. Every change goes through `World::apply(Action)`.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::rc::Rc;

use raft::eraftpb::Message;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::budget::{self, Budget, Spent};
use super::etcd::bootstrap::{self, RemoteMembers};
use super::etcd::config::Logger;
use super::etcd::config::{ClusterState, EtcdConfig, ADVERTISE_CLIENT_URLS_REQUIRED};
use super::etcd::datadir::DataDir;
use super::etcd::logfmt::{days_from_civil, Stamp};
use super::etcd::rafthttp::{Reaches, StreamRequest};
use super::etcd::request::{Reply, Request, Response, ServerError, SnapshotData};
use super::etcd::server::{self, Ctx, Exit, Out, Reach, Server};
use super::etcd::zapfmt::{self, ZapCtx};
use super::wire::WireLog;

/// The simulated wall clock at time zero: 2021-03-03 16:25:57 UTC (seed 000).
pub fn start_unix_ms() -> i64 {
    (days_from_civil(2021, 3, 3) * 86_400 + 16 * 3600 + 25 * 60 + 57) * 1000
}

/// One-way latency of a link unless `net delay` says otherwise.
const DEFAULT_LATENCY_MS: u64 = 1;

/// Something that can be on a machine's disk.
#[derive(Debug, Clone)]
pub enum DiskItem {
    DataDir(Box<DataDir>),
    Snapshot(SnapshotData),
}

/// A running etcd process.
pub struct Process {
    pub pid: u64,
    pub server: Server,
    pub data_dir: String,
    /// The data dir was deleted while the process ran: it does not come back.
    pub dir_deleted: bool,
}

/// A machine.
pub struct Machine {
    pub name: String,
    pub addrs: Vec<String>,
    pub up: bool,
    pub disk: BTreeMap<String, DiskItem>,
    pub process: Option<Process>,
    /// How the last etcd process on this machine ended, if it did.
    pub last_exit: Option<ExitInfo>,
}

/// How a process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExitInfo {
    pub status: i32,
    pub reason: String,
}

impl ExitInfo {
    /// Whether someone stopped it (`kill`, `kill -9`, power off), rather than
    /// the process exiting by itself (a fatal start, a removal, a raft panic).
    pub fn was_stopped(&self) -> bool {
        self.reason == "stopped" || self.reason.starts_with("killed")
    }
}

/// One line of a server log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub ms: u64,
    pub machine: String,
    pub text: String,
}

/// How `kill` stops a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Term,
    Kill,
}

/// A client call's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallResult {
    Reply(Response),
    Error(ServerError),
    /// No answer before the client's deadline; `dial` says why a connection failed, if it did.
    Deadline {
        dial: Option<String>,
    },
}

/// A client call in flight.
#[derive(Debug, Clone)]
struct Call {
    from: String,
    deadline_ms: u64,
    dial_error: Option<String>,
    result: Option<CallResult>,
}

/// Raft messages from one machine to another, cumulative.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Put on the wire (they may still find the process gone on arrival).
    pub sent: u64,
    /// Lost at the sender: the link is cut, or the peer unreachable or refusing.
    pub dropped: u64,
    /// When the last reply (an append, heartbeat or vote response) was sent:
    /// raft-rs clears a leader's `recent_active` flags at each quorum check, and
    /// this bridges the gap until the answers to its next heartbeat arrive.
    pub last_reply_ms: Option<u64>,
}

/// Why an etcd process ended at start-up (both exit with status 1).
enum StartFailure {
    /// `embed.Config.Validate` refused the flags.
    Flags(String),
    /// A `C | etcdmain:` fatal error while bootstrapping.
    Fatal(String),
}

/// Every change to the world.
#[derive(Debug, Clone)]
pub enum Action {
    AddMachine {
        name: String,
        addrs: Vec<String>,
    },
    RemoveMachine {
        name: String,
    },
    PowerOff {
        name: String,
    },
    PowerOn {
        name: String,
    },
    SetHost {
        name: String,
        addr: String,
    },
    SetDate {
        unix_secs: i64,
    },
    StartEtcd {
        machine: String,
        cfg: Box<EtcdConfig>,
    },
    Kill {
        machine: String,
        signal: Signal,
    },
    RemovePaths {
        machine: String,
        paths: Vec<String>,
    },
    WriteSnapshot {
        machine: String,
        path: String,
        data: SnapshotData,
    },
    PutDataDir {
        machine: String,
        path: String,
        dir: Box<DataDir>,
    },
    /// `cp` / `scp`: copies a file or a whole data dir, possibly to another machine.
    Copy {
        from: String,
        src: String,
        to: String,
        dst: String,
    },
    Cut {
        from: String,
        to: String,
    },
    Heal {
        pair: Option<(String, String)>,
    },
    SetDelay {
        a: String,
        b: String,
        ms: u64,
    },
    Advance {
        ms: u64,
    },
    /// The shell's `wait`: time runs until the machine's etcd has exited (or
    /// `max_ms` passed).
    WaitExit {
        machine: String,
        max_ms: u64,
    },
}

/// Why an action could not be done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorldError {
    NoSuchMachine(String),
    MachineExists(String),
    AddressTaken(String),
    MachineDown(String),
    NoProcess(String),
    AddressAlreadyInUse(String),
    NoSuchFile(String),
    Unreachable(String),
    /// A bound of `sim::budget` (what, and the most there may be).
    TooMany {
        what: Held,
        max: usize,
    },
}

/// What a world holds a bounded number of (see `sim::budget`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held {
    Machines,
    Addresses,
    Hosts,
}

#[derive(Debug, Clone)]
enum Event {
    Tick {
        machine: String,
        pid: u64,
    },
    Raft {
        machine: String,
        pid: u64,
        msg: Box<Message>,
    },
    /// A merged snapshot reaches its follower (rafthttp's snapshot POST); the
    /// sender, process `from_pid` on `from`, hears back once raft has it.
    Snapshot {
        machine: String,
        pid: u64,
        msg: Box<Message>,
        from: String,
        from_pid: u64,
    },
    /// The sender of a snapshot to member `to` hears how its POST ended.
    SnapshotDone {
        machine: String,
        pid: u64,
        to: u64,
        error: Option<String>,
    },
    /// A peer closed its streams to this process: a transport-only step.
    StreamCheck {
        machine: String,
        pid: u64,
    },
    ClientArrive {
        machine: String,
        req: u64,
        // boxed, as the raft message: the queue moves events, and most are ticks
        request: Box<Request>,
        /// Handed over by another member (promote goes to the leader over peer HTTP).
        forwarded: bool,
    },
    ClientReply {
        req: u64,
        result: Box<Result<Response, ServerError>>,
    },
    StopCheck {
        machine: String,
        pid: u64,
    },
    Wake {
        machine: String,
        pid: u64,
    },
}

impl Action {
    /// Whether the action can change what a dial between machines finds
    /// (machines, addresses, processes, links); time, disks and delays cannot.
    fn changes_reach(&self) -> bool {
        matches!(
            self,
            Action::AddMachine { .. }
                | Action::RemoveMachine { .. }
                | Action::PowerOff { .. }
                | Action::PowerOn { .. }
                | Action::SetHost { .. }
                | Action::StartEtcd { .. }
                | Action::Kill { .. }
                | Action::Cut { .. }
                | Action::Heal { .. }
        )
    }
}

/// What a machine's cached peer reaches were computed under (see `World::reach_key`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct ReachKey {
    topo_gen: u64,
    transport_epochs: u64,
    removed: u64,
}

/// An event in the queue. The heap is a max-heap, so the order is reversed:
/// the earliest (time, sequence number) comes out first.
#[derive(Debug)]
struct Scheduled {
    at: (u64, u64),
    ev: Event,
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at
    }
}

impl Eq for Scheduled {}

impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Scheduled {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        Reverse(self.at).cmp(&Reverse(other.at))
    }
}

/// At most this many frames are kept while recording (see `record_frames`).
pub const MAX_FRAMES: usize = 2000;

/// The world.
pub struct World {
    now_ms: u64,
    wall_offset_ms: i64,
    rng: ChaCha8Rng,
    pub machines: BTreeMap<String, Machine>,
    pub hosts: BTreeMap<String, String>,
    pub cut: BTreeSet<(String, String)>,
    delays: BTreeMap<(String, String), u64>,
    /// Events by (time, then the order they were scheduled in).
    queue: BinaryHeap<Scheduled>,
    seq: u64,
    next_pid: u64,
    next_req: u64,
    calls: BTreeMap<u64, Call>,
    /// rafthttp streams: machine, then peer ID, to the (machine, pid) they reach.
    streams: BTreeMap<String, BTreeMap<u64, (String, u64)>>,
    /// Counts the world's changes that can change what a dial finds: every
    /// action, every process start and end.
    topo_gen: u64,
    /// Each machine's last [`Self::peer_reach`], with the [`Self::reach_key`]
    /// it was computed under: a pure function of that state, so it is reused
    /// until the key changes.
    reach_cache: BTreeMap<String, (ReachKey, Rc<Reaches>)>,
    pub logs: Vec<LogLine>,
    // ----- observations only: nothing in the simulation reads these -----
    /// Raft messages per directed pair of machines: from, then to.
    traffic: BTreeMap<String, BTreeMap<String, Traffic>>,
    /// When asked: the recent raft messages, one record each (`sim::wire`).
    wire: WireLog,
    /// While recording: the frame spacing, and the frames so far.
    frame_every_ms: Option<u64>,
    frames: Vec<(u64, super::view::WorldView)>,
    /// When a test asks: Raft's and etcd's promises, checked after every event.
    invariants: Option<super::invariants::Checker>,
    /// When asked: the clients' key-value operations, and the call each
    /// still waits for (`sim::history`).
    history: Option<(Vec<super::history::Op>, BTreeMap<u64, usize>)>,
    // ----- the work budget (`sim::budget`) -----
    /// Events handled since the world began: the simulation's unit of work.
    events: u64,
    /// Where the clock must stop, if anywhere.
    budget: Budget,
    /// Which bound stopped the clock, since the last [`Self::take_spent`].
    spent: Option<Spent>,
}

impl World {
    pub fn new(seed: u64) -> World {
        World {
            now_ms: 0,
            wall_offset_ms: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
            machines: BTreeMap::new(),
            hosts: BTreeMap::new(),
            cut: BTreeSet::new(),
            delays: BTreeMap::new(),
            queue: BinaryHeap::new(),
            seq: 0,
            next_pid: 100,
            next_req: 1,
            calls: BTreeMap::new(),
            streams: BTreeMap::new(),
            topo_gen: 0,
            reach_cache: BTreeMap::new(),
            logs: Vec::new(),
            traffic: BTreeMap::new(),
            wire: WireLog::default(),
            frame_every_ms: None,
            frames: Vec::new(),
            invariants: None,
            history: None,
            events: 0,
            budget: Budget::NONE,
            spent: None,
        }
    }

    /// Simulated milliseconds since the start.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// The simulated wall clock, Unix milliseconds.
    pub fn wall_ms(&self) -> i64 {
        start_unix_ms() + self.now_ms as i64 + self.wall_offset_ms
    }

    pub fn stamp(&self) -> Stamp {
        Stamp::from_unix_ms(self.wall_ms())
    }

    /// A number from the world's RNG (client IDs in retry lines, and the like).
    pub fn random_u64(&mut self) -> u64 {
        self.rng.gen()
    }

    /// Events handled since the world began (timer ticks, messages, client
    /// calls): the unit a [`Budget`] counts.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// From now on the clock stops where `budget` says (replacing any
    /// earlier budget); [`Self::take_spent`] tells whether it did.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// The budget in force.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Which bound stopped the clock since the last call, if one did.
    pub fn take_spent(&mut self) -> Option<Spent> {
        self.spent.take()
    }

    /// Applies one action.
    pub fn apply(&mut self, action: Action) -> Result<(), WorldError> {
        if action.changes_reach() {
            self.topo_gen += 1;
        }
        match action {
            Action::AddMachine { name, addrs } => self.add_machine(name, addrs),
            Action::RemoveMachine { name } => {
                self.power_off(&name)?;
                self.machines.remove(&name);
                self.cut.retain(|(a, b)| *a != name && *b != name);
                self.delays.retain(|(a, b), _| *a != name && *b != name);
                self.streams.remove(&name);
                for to in self.streams.values_mut() {
                    to.retain(|_, (b, _)| *b != name);
                }
                Ok(())
            }
            Action::PowerOff { name } => self.power_off(&name),
            Action::PowerOn { name } => {
                self.machine_mut(&name)?.up = true;
                Ok(())
            }
            Action::SetHost { name, addr } => {
                if !self.hosts.contains_key(&name) && self.hosts.len() >= budget::MAX_HOSTS {
                    return Err(WorldError::TooMany {
                        what: Held::Hosts,
                        max: budget::MAX_HOSTS,
                    });
                }
                self.hosts.insert(name, addr);
                Ok(())
            }
            Action::SetDate { unix_secs } => {
                // years 0..=9999 only (the shell checks), so this cannot overflow
                let secs = unix_secs.clamp(-62_167_219_200, 253_402_300_799);
                self.wall_offset_ms = secs * 1000 - start_unix_ms() - self.now_ms as i64;
                Ok(())
            }
            Action::StartEtcd { machine, cfg } => self.start_etcd(&machine, *cfg),
            Action::Kill { machine, signal } => self.kill(&machine, signal),
            Action::RemovePaths { machine, paths } => self.remove_paths(&machine, &paths),
            Action::WriteSnapshot {
                machine,
                path,
                data,
            } => {
                self.machine_mut(&machine)?
                    .disk
                    .insert(path, DiskItem::Snapshot(data));
                Ok(())
            }
            Action::PutDataDir { machine, path, dir } => {
                self.machine_mut(&machine)?
                    .disk
                    .insert(path, DiskItem::DataDir(dir));
                Ok(())
            }
            Action::Copy { from, src, to, dst } => self.copy(&from, &src, &to, &dst),
            Action::Cut { from, to } => {
                self.cut.insert((from, to));
                Ok(())
            }
            Action::Heal { pair } => {
                match pair {
                    Some((a, b)) => {
                        self.cut.remove(&(a.clone(), b.clone()));
                        self.cut.remove(&(b, a));
                    }
                    None => self.cut.clear(),
                }
                Ok(())
            }
            Action::SetDelay { a, b, ms } => {
                for key in [(a.clone(), b.clone()), (b, a)] {
                    if ms == 0 {
                        self.delays.remove(&key);
                    } else {
                        self.delays.insert(key, ms);
                    }
                }
                Ok(())
            }
            Action::Advance { ms } => {
                self.run_until(self.now_ms + ms, |_| false);
                Ok(())
            }
            Action::WaitExit { machine, max_ms } => {
                self.run_until(self.now_ms + max_ms, |w| w.pid_of(&machine).is_none());
                Ok(())
            }
        }
    }

    // ----- machines -----

    fn machine_mut(&mut self, name: &str) -> Result<&mut Machine, WorldError> {
        self.machines
            .get_mut(name)
            .ok_or_else(|| WorldError::NoSuchMachine(name.to_string()))
    }

    /// The machine called `name`, matched case-insensitively.
    pub fn find_machine(&self, name: &str) -> Option<&str> {
        if let Some((k, _)) = self.machines.get_key_value(name) {
            return Some(k.as_str());
        }
        self.machines
            .keys()
            .find(|k| k.eq_ignore_ascii_case(name))
            .map(|k| k.as_str())
    }

    fn add_machine(&mut self, name: String, mut addrs: Vec<String>) -> Result<(), WorldError> {
        if self.find_machine(&name).is_some() {
            return Err(WorldError::MachineExists(name));
        }
        if self.machines.len() >= budget::MAX_MACHINES {
            return Err(WorldError::TooMany {
                what: Held::Machines,
                max: budget::MAX_MACHINES,
            });
        }
        if !addrs.contains(&name) {
            addrs.insert(0, name.clone());
        }
        if addrs.len() > budget::MAX_ADDRESSES {
            return Err(WorldError::TooMany {
                what: Held::Addresses,
                max: budget::MAX_ADDRESSES,
            });
        }
        for a in &addrs {
            if self.owner_of(a).is_some() {
                return Err(WorldError::AddressTaken(a.clone()));
            }
        }
        let m = Machine {
            name: name.clone(),
            addrs,
            up: true,
            disk: BTreeMap::new(),
            process: None,
            last_exit: None,
        };
        self.machines.insert(name, m);
        Ok(())
    }

    fn owner_of(&self, addr: &str) -> Option<&str> {
        self.machines
            .values()
            .find(|m| m.addrs.iter().any(|a| a == addr))
            .map(|m| m.name.as_str())
    }

    /// Which machine a host name or address reaches, seen from `from`.
    pub fn resolve<'a>(&'a self, host: &str, from: &'a str) -> Option<&'a str> {
        let host = self.hosts.get(host).map(|s| s.as_str()).unwrap_or(host);
        if let Some(m) = self.owner_of(host) {
            return Some(m);
        }
        match host {
            "localhost" | "127.0.0.1" | "0.0.0.0" | "::1" | "[::1]" => Some(from),
            _ => None,
        }
    }

    fn power_off(&mut self, name: &str) -> Result<(), WorldError> {
        self.machine_mut(name)?;
        self.end_process(name, 137, "killed (power off)");
        self.machine_mut(name)?.up = false;
        Ok(())
    }

    fn remove_paths(&mut self, machine: &str, paths: &[String]) -> Result<(), WorldError> {
        let m = self.machine_mut(machine)?;
        for p in paths {
            let doomed: Vec<String> = m
                .disk
                .keys()
                .filter(|k| path_matches(p, k))
                .cloned()
                .collect();
            for k in doomed {
                m.disk.remove(&k);
            }
            if let Some(proc_) = m.process.as_mut() {
                if path_matches(p, &proc_.data_dir) {
                    proc_.dir_deleted = true;
                }
            }
        }
        Ok(())
    }

    fn copy(&mut self, from: &str, src: &str, to: &str, dst: &str) -> Result<(), WorldError> {
        if from != to && !self.links_up(from, to) {
            return Err(WorldError::Unreachable(to.to_string()));
        }
        let machine = self
            .machines
            .get(from)
            .ok_or_else(|| WorldError::NoSuchMachine(from.to_string()))?;
        let running = machine
            .process
            .as_ref()
            .filter(|p| p.data_dir == src && !p.dir_deleted)
            .map(|p| DiskItem::DataDir(Box::new(p.server.data_dir_copy())));
        let item = running
            .or_else(|| machine.disk.get(src).cloned())
            .ok_or_else(|| WorldError::NoSuchFile(src.to_string()))?;
        // A copied data dir gets its own raft log, as a copied directory would.
        let item = match item {
            DiskItem::DataDir(d) => DiskItem::DataDir(Box::new(d.deep_copy())),
            other => other,
        };
        self.machine_mut(to)?.disk.insert(dst.to_string(), item);
        Ok(())
    }

    // ----- processes -----

    fn start_etcd(&mut self, machine: &str, cfg: EtcdConfig) -> Result<(), WorldError> {
        let m = self.machine_mut(machine)?;
        if !m.up {
            return Err(WorldError::MachineDown(machine.to_string()));
        }
        if m.process.is_some() {
            let addr = cfg
                .listen_peer_urls
                .first()
                .map(|u| host_port(u))
                .unwrap_or_default();
            return Err(WorldError::AddressAlreadyInUse(addr));
        }
        let mut out = Vec::new();
        let mut log = Vec::new();
        let wall = self.wall_ms();
        let mut ctx = Ctx {
            now_ms: self.now_ms,
            wall_ms: wall,
            out: &mut out,
            log: &mut log,
            zap: cfg.logger == Logger::Zap,
        };
        let dir = self
            .machines
            .get(machine)
            .and_then(|m| m.disk.get(&cfg.data_dir()));
        let initialized = dir.is_some_and(|d| matches!(d, DiskItem::DataDir(d) if d.has_wal));
        // a cluster begins anew: a fresh bootstrap, a forced new cluster, or
        // a restored data dir that never ran (its term is still the restore's 1)
        let new_history = cfg.force_new_cluster
            || (!initialized && cfg.initial_cluster_state == ClusterState::New)
            || dir.is_some_and(
                |d| matches!(d, DiskItem::DataDir(d) if d.storage.rl().hard_state().term <= 1),
            );
        server::log_start(&mut ctx, &cfg, initialized);
        let zap = cfg.logger == Logger::Zap;
        let started = self.boot(machine, cfg, &mut ctx);
        let pid = started.as_ref().ok().map(|p| p.pid);
        let zap = zap.then(|| {
            started
                .as_ref()
                .map(|p| p.server.zap_ctx())
                .unwrap_or_default()
        });
        self.push_logs_as(machine, log, zap.clone());
        match started {
            Ok(p) => {
                let heartbeat = p.server.cfg.heartbeat_ms;
                if let Some(c) = self.invariants.as_mut().filter(|_| new_history) {
                    c.forget_cluster(p.server.cluster_id);
                }
                if let Some(m) = self.machines.get_mut(machine) {
                    m.process = Some(p);
                    self.topo_gen += 1;
                    m.last_exit = None;
                }
                // the stream readers dial their peers as soon as they start
                let reach = self.peer_reach(machine);
                let requests = self.with_server(machine, |s, ctx| s.dial_peers(ctx, &reach));
                self.deliver_stream_requests(machine, requests.unwrap_or_default());
                self.check_stop(machine);
                if let Some(pid) = pid {
                    self.schedule(
                        heartbeat.max(1),
                        Event::Tick {
                            machine: machine.to_string(),
                            pid,
                        },
                    );
                }
                self.route(machine, out);
            }
            Err(failure) => {
                let stamp = self.stamp().capnslog();
                let ts = self.stamp().zap();
                let unset = matches!(&failure, StartFailure::Flags(m) if m == ADVERTISE_CLIENT_URLS_REQUIRED);
                let (lines, reason) = match failure {
                    StartFailure::Flags(msg) if zap.is_some() => {
                        let mut lines = vec![zapfmt::flag_error(&ts, &msg)];
                        if unset {
                            lines.push(zapfmt::advertise_unset(&ts, &msg));
                        }
                        (lines, msg)
                    }
                    StartFailure::Flags(msg) => {
                        let mut lines = vec![format!("{stamp} E | etcdmain: error verifying flags, {msg}. See 'etcd --help'.")];
                        if unset {
                            lines.push(format!("{stamp} E | etcdmain: When listening on specific address(es), this etcd process must advertise accessible url(s) to each connected client."));
                        }
                        (lines, msg)
                    }
                    StartFailure::Fatal(msg) if zap.is_some() => (zapfmt::fatal(&ts, &msg), msg),
                    StartFailure::Fatal(msg) => (vec![format!("{stamp} C | etcdmain: {msg}")], msg),
                };
                self.push_logs_as(machine, lines, None);
                if let Some(m) = self.machines.get_mut(machine) {
                    m.last_exit = Some(ExitInfo { status: 1, reason });
                }
            }
        }
        Ok(())
    }

    /// Bootstraps and starts a server; `Err` is the log line that ends it.
    fn boot(
        &mut self,
        machine: &str,
        cfg: EtcdConfig,
        ctx: &mut Ctx,
    ) -> Result<Process, StartFailure> {
        cfg.validate().map_err(StartFailure::Flags)?;
        let dir_path = cfg.data_dir();
        let remote = self.remote_members(machine, &cfg);
        let existing = match self
            .machines
            .get_mut(machine)
            .and_then(|m| m.disk.remove(&dir_path))
        {
            Some(DiskItem::DataDir(d)) => Some(*d),
            Some(other) => {
                if let Some(m) = self.machines.get_mut(machine) {
                    m.disk.insert(dir_path.clone(), other);
                }
                return Err(StartFailure::Fatal(format!(
                    "error listing data dir: {dir_path}"
                )));
            }
            None => None,
        };
        let kept = existing.clone();
        let lookup = |url: &str| remote.get(url).cloned().flatten();
        let booted = match bootstrap::bootstrap(&cfg, existing, &lookup, ctx) {
            Ok(b) => b,
            Err(f) => {
                if let (Some(d), Some(m)) = (kept, self.machines.get_mut(machine)) {
                    m.disk.insert(dir_path, DiskItem::DataDir(Box::new(d)));
                }
                return Err(StartFailure::Fatal(f.0));
            }
        };
        let rng = ChaCha8Rng::seed_from_u64(self.rng.gen());
        // raft can still refuse the dir: then it goes back on the disk as it was
        let kept = booted.dir.clone();
        let server = match Server::start(cfg, booted, rng, ctx) {
            Ok(s) => s,
            Err(e) => {
                if let Some(m) = self.machines.get_mut(machine) {
                    m.disk.insert(dir_path, DiskItem::DataDir(Box::new(kept)));
                }
                return Err(StartFailure::Fatal(e));
            }
        };
        self.next_pid += 1;
        Ok(Process {
            pid: self.next_pid,
            server,
            data_dir: dir_path,
            dir_deleted: false,
        })
    }

    /// What each peer URL of the initial cluster answers to `/members` from `machine`.
    fn remote_members(
        &self,
        machine: &str,
        cfg: &EtcdConfig,
    ) -> BTreeMap<String, Option<RemoteMembers>> {
        cfg.initial_cluster()
            .into_iter()
            .map(|(_, url)| {
                let ans = self.peer_server(machine, &url).map(|s| {
                    let ms = s.backend.members.members.values().cloned().collect();
                    (s.cluster_id, ms)
                });
                (url, ans)
            })
            .collect()
    }

    /// The server listening on a peer URL, reachable from `from` both ways.
    fn peer_server(&self, from: &str, url: &str) -> Option<&Server> {
        let (target, port) = self.target_of(from, url)?;
        let (host, _) = split_url(url)?;
        if !self.links_up(from, target) {
            return None;
        }
        let m = self.machines.get(target)?;
        let p = m.process.as_ref()?;
        self.listens(target, &p.server.cfg.listen_peer_urls, from, host, port)
            .then_some(&p.server)
    }

    fn target_of<'a>(&'a self, from: &'a str, url: &str) -> Option<(&'a str, u16)> {
        let (host, port) = split_url(url)?;
        Some((self.resolve(host, from)?, port))
    }

    /// Whether a process on `target` listening on `urls` accepts a connection from
    /// `from` to `dialed:port`. `0.0.0.0` accepts everything; a loopback address no
    /// machine owns (`localhost`, `127.0.0.1`) accepts only the machine itself
    /// dialling loopback (etcd's default listen URLs, and the classic mistake of
    /// forgetting `--listen-peer-urls`); any other address of the target accepts
    /// connections to the target's addresses.
    fn listens(&self, target: &str, urls: &[String], from: &str, dialed: &str, port: u16) -> bool {
        let dialed_loopback = self.is_local_alias(dialed);
        urls.iter().any(|u| {
            split_url(u).is_some_and(|(h, p)| {
                if p != port {
                    return false;
                }
                if h == "0.0.0.0" || h == "[::]" {
                    return true;
                }
                if self.is_local_alias(h) {
                    return dialed_loopback && from == target;
                }
                !dialed_loopback && self.resolve(h, target) == Some(target)
            })
        })
    }

    /// `localhost`, `127.0.0.1` or `::1` when no machine owns it: "this machine".
    fn is_local_alias(&self, host: &str) -> bool {
        let host = self.hosts.get(host).map(|s| s.as_str()).unwrap_or(host);
        matches!(host, "localhost" | "127.0.0.1" | "::1" | "[::1]") && self.owner_of(host).is_none()
    }

    fn links_up(&self, a: &str, b: &str) -> bool {
        self.link_up(a, b) && !self.is_cut(b, a)
    }

    fn link_up(&self, a: &str, b: &str) -> bool {
        let up = |m: &str| self.machines.get(m).is_some_and(|m| m.up);
        up(a) && up(b) && !self.is_cut(a, b)
    }

    /// Whether the link from `a` to `b` is cut (a scan: the set is small, and
    /// a lookup by `(String, String)` would allocate on every message).
    fn is_cut(&self, a: &str, b: &str) -> bool {
        self.cut.iter().any(|(x, y)| x == a && y == b)
    }

    fn latency(&self, a: &str, b: &str) -> u64 {
        if a == b {
            return 0;
        }
        self.delays
            .iter()
            .find(|((x, y), _)| x == a && y == b)
            .map_or(DEFAULT_LATENCY_MS, |(_, ms)| *ms)
    }

    fn kill(&mut self, machine: &str, signal: Signal) -> Result<(), WorldError> {
        let m = self.machine_mut(machine)?;
        if m.process.is_none() {
            return Err(WorldError::NoProcess(machine.to_string()));
        }
        match signal {
            Signal::Kill => self.end_process(machine, 137, "killed"),
            Signal::Term => {
                self.with_server(machine, |s, ctx| s.begin_graceful_stop(ctx));
                self.check_stop(machine);
            }
        }
        Ok(())
    }

    /// Ends the process on `machine`, putting its data dir back on disk.
    fn end_process(&mut self, machine: &str, status: i32, reason: &str) {
        if status == 0 {
            // a clean exit stops the transport; a killed process just vanishes
            self.with_server(machine, |s, ctx| s.shutdown(ctx));
        }
        // its streams end with it (the peers' streams to it notice by pid)
        self.streams.remove(machine);
        let Some(m) = self.machines.get_mut(machine) else {
            return;
        };
        self.topo_gen += 1;
        let Some(p) = m.process.take() else {
            return;
        };
        if !p.dir_deleted {
            let dir = p.server.into_data_dir();
            m.disk.insert(p.data_dir, DiskItem::DataDir(Box::new(dir)));
        }
        m.last_exit = Some(ExitInfo {
            status,
            reason: reason.to_string(),
        });
    }

    fn check_stop(&mut self, machine: &str) {
        let now = self.now_ms;
        let Some(p) = self.machines.get(machine).and_then(|m| m.process.as_ref()) else {
            return;
        };
        let pid = p.pid;
        match p.server.stop_at {
            Some((at, Exit::Removed)) if at <= now => {
                let st = self.stamp().capnslog();
                self.push_logs(
                    machine,
                    vec![
                        format!("{st} E | etcdserver: the member has been permanently removed from the cluster"),
                        format!("{st} I | etcdserver: the data-dir used by this member must be removed."),
                    ],
                );
                self.end_process(
                    machine,
                    0,
                    "the member has been permanently removed from the cluster",
                );
            }
            Some((at, Exit::Stopped)) if at <= now => self.end_process(machine, 0, "stopped"),
            Some((at, Exit::Panic)) if at <= now => self.end_process(machine, 2, "panic"),
            Some((at, _)) => {
                let wait = at - now;
                self.schedule(
                    wait,
                    Event::StopCheck {
                        machine: machine.to_string(),
                        pid,
                    },
                );
            }
            None => {}
        }
    }

    // ----- the clock -----

    fn schedule(&mut self, after_ms: u64, ev: Event) {
        self.seq += 1;
        self.queue.push(Scheduled {
            at: (self.now_ms + after_ms, self.seq),
            ev,
        });
    }

    /// Runs events until `until_ms`, or until `done` says so after an event,
    /// or until the [`Budget`] stops the clock: at its moment, or (its events
    /// handled) where the last event left it.
    fn run_until(&mut self, until_ms: u64, done: impl Fn(&World) -> bool) {
        let stop_ms = self.budget.until_ms.map_or(until_ms, |b| until_ms.min(b));
        loop {
            if done(self) {
                return;
            }
            let Some(&Scheduled { at: (t, _), .. }) = self.queue.peek() else {
                break;
            };
            if t > stop_ms {
                break;
            }
            if self.budget.until_events.is_some_and(|e| self.events >= e) {
                self.spent = Some(Spent::Work);
                return;
            }
            let Some(Scheduled { ev, .. }) = self.queue.pop() else {
                break;
            };
            self.record_frame_before(t);
            self.now_ms = t;
            self.events += 1;
            self.handle(ev);
            self.check_invariants_now();
        }
        self.record_frame_before(stop_ms);
        self.now_ms = self.now_ms.max(stop_ms);
        if stop_ms < until_ms {
            self.spent = Some(Spent::Time);
        }
    }

    // ----- invariants (observation only) -----

    /// Checks Raft's and etcd's promises after every event from now on
    /// (`sim::invariants`); [`Self::violations`] says what broke.
    pub fn check_invariants(&mut self) {
        self.invariants.get_or_insert_with(Default::default);
        self.check_invariants_now();
    }

    /// What broke since [`Self::check_invariants`], in order.
    pub fn violations(&self) -> &[super::invariants::Violation] {
        self.invariants.as_ref().map_or(&[], |c| &c.violations)
    }

    fn check_invariants_now(&mut self) {
        let Some(checker) = self.invariants.as_mut() else {
            return;
        };
        for (name, m) in &self.machines {
            if let Some(p) = &m.process {
                checker.observe_server(name, p.pid, &p.server);
            }
        }
    }

    // ----- frame recording (observation only) -----

    /// Starts recording a view at each multiple of `every_ms` (at least 1)
    /// the clock passes, dropping frames not yet taken.
    pub fn record_frames(&mut self, every_ms: u64) {
        self.frame_every_ms = Some(every_ms.max(1));
        self.frames.clear();
    }

    /// Stops recording and hands over the frames: (ms, the world as it was
    /// then), ascending by ms.
    pub fn take_frames(&mut self) -> Vec<(u64, super::view::WorldView)> {
        self.frame_every_ms = None;
        std::mem::take(&mut self.frames)
    }

    /// The clock is about to jump from now to `t`: records the first frame
    /// boundary `b` with now < b <= t, showing the state that holds until `t`
    /// (one frame for a quiet stretch).
    fn record_frame_before(&mut self, t: u64) {
        let Some(every) = self.frame_every_ms else {
            return;
        };
        let b = (self.now_ms / every + 1).saturating_mul(every);
        if b > t {
            return;
        }
        let mut v = self.view();
        v.now_ms = b;
        v.wall_ms = self.wall_ms() + (b - self.now_ms) as i64;
        self.frames.push((b, v));
        // A long command (`sleep 86400`) must not fill memory: past the cap,
        // keep every other frame and space the next ones twice as far.
        if self.frames.len() >= MAX_FRAMES {
            let mut i = 0;
            self.frames.retain(|_| {
                i += 1;
                i % 2 == 0
            });
            self.frame_every_ms = Some(every.saturating_mul(2));
        }
    }

    // ----- end of frame recording -----

    fn handle(&mut self, ev: Event) {
        match ev {
            Event::Tick { machine, pid } => self.on_tick(&machine, pid),
            Event::Raft { machine, pid, msg } => self.on_raft(&machine, pid, *msg),
            Event::Snapshot {
                machine,
                pid,
                msg,
                from,
                from_pid,
            } => self.on_snapshot(&machine, pid, *msg, (&from, from_pid)),
            Event::SnapshotDone {
                machine,
                pid,
                to,
                error,
            } => {
                if self.pid_of(&machine) == Some(pid) {
                    self.with_server(&machine, |s, ctx| s.snapshot_done(ctx, to, error));
                }
            }
            Event::ClientArrive {
                machine,
                req,
                request,
                forwarded,
            } => {
                // gRPC carries the client's deadline to the server.
                let deadline = self.calls.get(&req).map(|c| c.deadline_ms);
                if let Some(deadline) = deadline.filter(|d| *d > self.now_ms) {
                    self.with_server(&machine, |s, ctx| {
                        if forwarded {
                            s.handle_from_peer(ctx, req, *request, deadline);
                        } else {
                            s.handle(ctx, req, *request, deadline);
                        }
                    });
                }
            }
            Event::ClientReply { req, result } => {
                if let Some(c) = self.calls.get_mut(&req) {
                    if c.result.is_none() {
                        c.result = Some(match *result {
                            Ok(r) => CallResult::Reply(r),
                            Err(e) => CallResult::Error(e),
                        });
                    }
                }
            }
            Event::Wake { machine, pid } => {
                if self.pid_of(&machine) == Some(pid) {
                    self.with_server(&machine, |s, ctx| s.wake(ctx));
                }
            }
            Event::StreamCheck { machine, pid } => self.stream_check(&machine, pid),
            Event::StopCheck { machine, pid } => {
                if self.pid_of(&machine) == Some(pid) {
                    self.check_stop(&machine);
                }
            }
        }
    }

    fn pid_of(&self, machine: &str) -> Option<u64> {
        self.machines
            .get(machine)
            .and_then(|m| m.process.as_ref())
            .map(|p| p.pid)
    }

    fn on_tick(&mut self, machine: &str, pid: u64) {
        if self.pid_of(machine) != Some(pid) {
            return;
        }
        let reach = self.peer_reach(machine);
        let ticked = self.with_server(machine, |s, ctx| {
            let requests = s.tick(ctx, &reach);
            s.retry_reads(ctx);
            (s.cfg.heartbeat_ms, requests, s.stop_at.is_some())
        });
        let Some((hb, requests, stopping)) = ticked else {
            return;
        };
        self.deliver_stream_requests(machine, requests);
        self.schedule(
            hb.max(1),
            Event::Tick {
                machine: machine.to_string(),
                pid,
            },
        );
        if stopping {
            self.check_stop(machine);
        }
    }

    /// What a dial from `machine`'s server to each of its peers finds; keeps
    /// rafthttp's streams: one stays up while its process lives and the links
    /// hold, even if the peer's URLs change (`member update`).
    fn peer_reach(&mut self, machine: &str) -> Rc<Reaches> {
        let key = self.reach_key();
        if let Some((k, r)) = self.reach_cache.get(machine) {
            if *k == key {
                return r.clone();
            }
        }
        let r = Rc::new(self.dial_peers_now(machine));
        self.reach_cache
            .insert(machine.to_string(), (key, r.clone()));
        r
    }

    /// Everything [`Self::peer_reach`] reads that can change without an
    /// action or a process starting or ending: the servers' peer lists and
    /// URLs (each transport's epoch only grows) and their removed members
    /// (a set that only grows while a server runs).
    fn reach_key(&self) -> ReachKey {
        let mut key = ReachKey {
            topo_gen: self.topo_gen,
            ..ReachKey::default()
        };
        for p in self.machines.values().filter_map(|m| m.process.as_ref()) {
            key.transport_epochs += p.server.transport.epoch;
            key.removed += p.server.backend.members.removed.len() as u64;
        }
        key
    }

    /// [`Self::peer_reach`] computed afresh.
    fn dial_peers_now(&mut self, machine: &str) -> Reaches {
        let Some((ids, cid, local)) = self.server(machine).map(|s| {
            let ids: Vec<u64> = s.transport.peers.keys().copied().collect();
            (ids, s.cluster_id, s.id)
        }) else {
            return Reaches::default();
        };
        let mut out = Reaches::default();
        for id in ids {
            match self.dial(machine, id) {
                Ok(stream) => {
                    let pid = stream.1;
                    self.keep_stream(machine, id, stream);
                    out.stream.insert(id, Reach::Ok { pid });
                }
                Err(r) => {
                    if let Some(to) = self.streams.get_mut(machine) {
                        to.remove(&id);
                    }
                    out.stream.insert(id, r);
                }
            }
            let url = self.peer_url(machine, id).unwrap_or_default();
            out.url
                .insert(id, self.reach(machine, &url, cid, local, id));
        }
        out
    }

    /// Keeps `machine`'s stream to member `id`.
    fn keep_stream(&mut self, machine: &str, id: u64, stream: (String, u64)) {
        match self.streams.get_mut(machine) {
            Some(to) => {
                to.insert(id, stream);
            }
            None => {
                self.streams
                    .insert(machine.to_string(), BTreeMap::from([(id, stream)]));
            }
        }
    }

    /// What dialling `url` from `from`'s server (member `local` of `cluster_id`)
    /// finds, expecting member `id` there.
    fn reach(&self, from: &str, url: &str, cluster_id: u64, local: u64, id: u64) -> Reach {
        let host = split_url(url).map(|(h, _)| h).unwrap_or_default();
        let Some((target, port)) = self.target_of(from, url) else {
            return Reach::Refused(format!("dial tcp: lookup {host}: no such host"));
        };
        if !self.links_up(from, target) {
            return Reach::Silent(host_port(url));
        }
        let refused = || {
            Reach::Refused(format!(
                "dial tcp {}: connect: connection refused",
                host_port(url)
            ))
        };
        let Some(p) = self.machines.get(target).and_then(|m| m.process.as_ref()) else {
            return refused();
        };
        if !self.listens(target, &p.server.cfg.listen_peer_urls, from, host, port) {
            return refused();
        }
        Self::handler_verdict(&p.server, cluster_id, local, id).unwrap_or(Reach::Ok { pid: p.pid })
    }

    /// What a peer's stream handler answers member `local` of `cluster_id`
    /// asking for member `id`: `None` when it accepts.
    fn handler_verdict(s: &Server, cluster_id: u64, local: u64, id: u64) -> Option<Reach> {
        if s.cluster_id != cluster_id {
            return Some(Reach::Mismatch {
                remote_cluster: s.cluster_id,
            });
        }
        if s.backend.members.removed.contains(&local) {
            return Some(Reach::Removed);
        }
        if s.id != id || !s.transport.peers.contains_key(&local) {
            return Some(Reach::Unknown);
        }
        None
    }

    /// Hands the stream requests `machine`'s server made to the servers they reached.
    fn deliver_stream_requests(&mut self, machine: &str, requests: Vec<StreamRequest>) {
        if requests.is_empty() {
            return;
        }
        let Some((local, cluster, pid)) = self
            .machines
            .get(machine)
            .and_then(|m| m.process.as_ref())
            .map(|p| (p.server.id, p.server.cluster_id, p.pid))
        else {
            return;
        };
        for r in requests {
            let url = self.peer_url(machine, r.to).unwrap_or_default();
            let Some(target) = self.target_of(machine, &url).map(|(t, _)| t.to_string()) else {
                continue;
            };
            self.with_server(&target, |s, ctx| {
                s.stream_request(ctx, local, cluster, r.kind, pid)
            });
        }
    }

    fn on_raft(&mut self, machine: &str, pid: u64, msg: Message) {
        // etcd answers a removed member's messages with 410 Gone; the sender
        // learns it was removed when its stream readers redial (rafthttp)
        if self.accepts(machine, pid, msg.from) {
            self.step_raft(machine, msg);
        }
    }

    /// Whether process `pid` on `machine` still runs and takes messages from `from`.
    fn accepts(&self, machine: &str, pid: u64, from: u64) -> bool {
        self.machines
            .get(machine)
            .and_then(|m| m.process.as_ref())
            .is_some_and(|p| p.pid == pid && !p.server.backend.members.removed.contains(&from))
    }

    /// A snapshot POST arrives: the follower's handler takes it and answers
    /// once raft has it; a process that is gone (or refuses a removed
    /// sender) fails the POST instead.
    fn on_snapshot(&mut self, machine: &str, pid: u64, msg: Message, from: (&str, u64)) {
        let to = msg.to;
        let error = if self.accepts(machine, pid, msg.from) {
            self.step_raft(machine, msg);
            None
        } else {
            Some(self.post_error(from.0, to))
        };
        let lat = self.latency(machine, from.0);
        let done = Event::SnapshotDone {
            machine: from.0.to_string(),
            pid: from.1,
            to,
            error,
        };
        self.schedule(lat, done);
    }

    /// Why a snapshot POST from `from` to member `to` failed: what a dial
    /// finds now (a process that ended mid-request leaves `EOF`).
    fn post_error(&self, from: &str, to: u64) -> String {
        let local = self.server(from).map_or(0, |s| s.id);
        match self.dial(from, to) {
            Ok(_) => "EOF".to_string(),
            Err(reach) => reach.dial_error(local, to).unwrap_or_default(),
        }
    }

    /// A snapshot to member `to` could not even be dialled: its sender learns
    /// at once.
    fn snapshot_undelivered(&mut self, from: &str, to: u64, reach: &Reach) {
        let local = self.server(from).map_or(0, |s| s.id);
        let error = reach.dial_error(local, to);
        self.with_server(from, |s, ctx| s.snapshot_done(ctx, to, error));
    }

    /// Hands a message to `machine`'s server, and stops a server that ends on it.
    fn step_raft(&mut self, machine: &str, msg: Message) {
        let stopping = self.with_server(machine, |s, ctx| {
            s.step(ctx, msg);
            s.stop_at.is_some()
        });
        if stopping == Some(true) {
            self.check_stop(machine);
        }
    }

    pub fn server(&self, machine: &str) -> Option<&Server> {
        self.machines
            .get(machine)
            .and_then(|m| m.process.as_ref())
            .map(|p| &p.server)
    }

    /// Every running server, by machine name.
    pub fn servers(&self) -> impl Iterator<Item = (&str, &Server)> {
        self.machines
            .iter()
            .filter_map(|(name, m)| m.process.as_ref().map(|p| (name.as_str(), &p.server)))
    }

    fn server_mut(&mut self, machine: &str) -> Option<&mut Server> {
        self.machines
            .get_mut(machine)
            .and_then(|m| m.process.as_mut())
            .map(|p| &mut p.server)
    }

    /// Runs `f` on the machine's server with a context, then routes what it produced.
    fn with_server<T>(
        &mut self,
        machine: &str,
        f: impl FnOnce(&mut Server, &mut Ctx) -> T,
    ) -> Option<T> {
        let (now, wall) = (self.now_ms, self.wall_ms());
        let mut out = Vec::new();
        let mut log = Vec::new();
        let s = self.server_mut(machine)?;
        let mut ctx = Ctx {
            now_ms: now,
            wall_ms: wall,
            out: &mut out,
            log: &mut log,
            zap: s.cfg.logger == Logger::Zap,
        };
        let r = f(s, &mut ctx);
        if !log.is_empty() {
            self.push_logs(machine, log);
        }
        self.route(machine, out);
        Some(r)
    }

    fn push_logs(&mut self, machine: &str, lines: Vec<String>) {
        let zap = self
            .server(machine)
            .filter(|s| s.cfg.logger == Logger::Zap)
            .map(|s| s.zap_ctx());
        self.push_logs_as(machine, lines, zap);
    }

    /// Appends a machine's log lines; a server started with `--logger=zap`
    /// writes each as zap JSON.
    fn push_logs_as(&mut self, machine: &str, lines: Vec<String>, zap: Option<ZapCtx>) {
        let ms = self.now_ms;
        let lines = match zap {
            Some(z) => zapfmt::to_zap(lines, &self.stamp().zap(), &z),
            None => lines,
        };
        self.logs.extend(lines.into_iter().map(|text| LogLine {
            ms,
            machine: machine.to_string(),
            text,
        }));
    }

    fn route(&mut self, machine: &str, out: Vec<Out>) {
        for o in out {
            match o {
                Out::Raft { msg, url } => self.send_raft(machine, msg, url),
                Out::Reply { req, result } => {
                    let Some(call) = self.calls.get(&req) else {
                        continue;
                    };
                    let client = call.from.clone();
                    if self.link_up(machine, &client) || machine == client {
                        let lat = self.latency(machine, &client);
                        let result = Box::new(result);
                        self.schedule(lat, Event::ClientReply { req, result });
                    }
                }
                Out::Forward { to, req, request } => self.forward(machine, to, req, request),
                Out::StreamsClosed { peer } => self.streams_closed(machine, peer),
                Out::WakeAt(at) => {
                    if let Some(pid) = self.pid_of(machine) {
                        let after = at.saturating_sub(self.now_ms);
                        let ev = Event::Wake {
                            machine: machine.to_string(),
                            pid,
                        };
                        self.schedule(after, ev);
                    }
                }
            }
        }
    }

    /// `machine`'s transport closed its streams to member `peer`: that member's
    /// readers notice the EOF as soon as the FIN arrives.
    fn streams_closed(&mut self, machine: &str, peer: u64) {
        let target = self.machines.iter().find_map(|(name, m)| {
            let p = m.process.as_ref()?;
            (p.server.id == peer && name != machine).then(|| (name.clone(), p.pid))
        });
        let Some((target, pid)) = target else {
            return;
        };
        if self.links_up(machine, &target) {
            let lat = self.latency(machine, &target);
            self.schedule(
                lat,
                Event::StreamCheck {
                    machine: target,
                    pid,
                },
            );
        }
    }

    /// A transport-only step: the readers notice closed streams and redial.
    fn stream_check(&mut self, machine: &str, pid: u64) {
        if self.pid_of(machine) != Some(pid) {
            return;
        }
        let reach = self.peer_reach(machine);
        let requests = self.with_server(machine, |s, ctx| s.dial_peers(ctx, &reach));
        self.deliver_stream_requests(machine, requests.unwrap_or_default());
        self.check_stop(machine);
    }

    /// A peer's first URL as `from`'s transport knows it.
    fn peer_url(&self, from: &str, id: u64) -> Option<String> {
        self.server(from)?.peer_url(id)
    }

    /// Where a message from `from`'s server to member `id` goes: over the stream
    /// rafthttp already holds to that process, or else by dialling the peer URL.
    fn dial(&self, from: &str, id: u64) -> Result<(String, u64), Reach> {
        self.dial_url(from, id, None)
    }

    /// [`Self::dial`] with the peer's URL given (`None`: as the transport knows it now).
    fn dial_url(&self, from: &str, id: u64, url: Option<String>) -> Result<(String, u64), Reach> {
        let sender = self.machines.get(from);
        let (cid, local) = sender
            .and_then(|m| m.process.as_ref())
            .map(|p| (p.server.cluster_id, p.server.id))
            .unwrap_or((0, 0));
        if let Some((target, pid)) = self.streams.get(from).and_then(|to| to.get(&id)) {
            // one lookup of each end: this runs for every raft message
            let peer = self.machines.get(target);
            let live = peer
                .and_then(|m| m.process.as_ref())
                .filter(|p| p.pid == *pid);
            let up = sender.is_some_and(|m| m.up) && peer.is_some_and(|m| m.up);
            if let Some(p) =
                live.filter(|_| up && !self.is_cut(from, target) && !self.is_cut(target, from))
            {
                // the connection stands; the handler still has its say
                if let Some(r) = Self::handler_verdict(&p.server, cid, local, id) {
                    return Err(r);
                }
                return Ok((target.clone(), *pid));
            }
        }
        let url = url.or_else(|| self.peer_url(from, id)).unwrap_or_default();
        match self.reach(from, &url, cid, local, id) {
            Reach::Ok { pid } => {
                let (target, _) = self
                    .target_of(from, &url)
                    .ok_or_else(|| Reach::Silent(host_port(&url)))?;
                Ok((target.to_string(), pid))
            }
            other => Err(other),
        }
    }

    fn send_raft(&mut self, from: &str, m: Message, url: Option<String>) {
        let snapshot = m.get_msg_type() == raft::eraftpb::MessageType::MsgSnapshot;
        let (target, pid) = match self.dial_url(from, m.to, url.clone()) {
            Ok(found) => found,
            Err(reach) => {
                if let Some(target) = self.raft_target(from, m.to, url) {
                    self.count_traffic(from, &target, None);
                    self.wire.record(from, &target, &m, self.now_ms, None);
                }
                if snapshot {
                    self.snapshot_undelivered(from, m.to, &reach);
                }
                return;
            }
        };
        // a dial only succeeds over links up both ways
        self.count_traffic(from, &target, Some(&m));
        let lat = self.latency(from, &target);
        self.wire.record(from, &target, &m, self.now_ms, Some(lat));
        let msg = Box::new(m);
        let ev = match self.pid_of(from).filter(|_| snapshot) {
            Some(from_pid) => Event::Snapshot {
                machine: target,
                pid,
                msg,
                from: from.to_string(),
                from_pid,
            },
            None => Event::Raft {
                machine: target,
                pid,
                msg,
            },
        };
        self.schedule(lat, ev);
    }

    // ----- traffic counters (observation only) -----

    /// The machine a raft message to member `id` was meant for: the one its URL
    /// names (`None` when no machine answers to the host).
    fn raft_target(&self, from: &str, id: u64, url: Option<String>) -> Option<String> {
        let url = url.or_else(|| self.peer_url(from, id))?;
        self.target_of(from, &url)
            .map(|(target, _)| target.to_string())
    }

    /// Counts a message `sent` (`None`: dropped) from one machine to another.
    fn count_traffic(&mut self, from: &str, to: &str, sent: Option<&Message>) {
        let row = match self.traffic.get_mut(from) {
            Some(row) => row,
            None => self.traffic.entry(from.to_string()).or_default(),
        };
        let t = match row.get_mut(to) {
            Some(t) => t,
            None => row.entry(to.to_string()).or_default(),
        };
        let Some(m) = sent else {
            t.dropped += 1;
            return;
        };
        t.sent += 1;
        use raft::eraftpb::MessageType::*;
        if matches!(
            m.get_msg_type(),
            MsgAppendResponse
                | MsgHeartbeatResponse
                | MsgRequestVoteResponse
                | MsgRequestPreVoteResponse
        ) {
            t.last_reply_ms = Some(self.now_ms);
        }
    }

    /// Raft messages per directed pair of machines (from, to), cumulative, in
    /// map order.
    pub fn traffic(&self) -> Vec<(String, String, Traffic)> {
        self.traffic
            .iter()
            .flat_map(|(a, row)| row.iter().map(|(b, t)| (a.clone(), b.clone(), *t)))
            .collect()
    }

    /// Starts or stops keeping a record of each raft message (`sim::wire`):
    /// the page keeps one to draw and inspect messages; nothing else reads it.
    pub fn set_wire_log(&mut self, on: bool) {
        self.wire.set_on(on);
    }

    /// The recent raft messages (empty unless [`Self::set_wire_log`] is on).
    pub fn wire_log(&self) -> &WireLog {
        &self.wire
    }

    // ----- end of traffic counters -----

    fn forward(&mut self, from: &str, to: u64, req: u64, request: Request) {
        let Ok((target, _)) = self.dial(from, to) else {
            return;
        };
        if self.links_up(from, &target) {
            let lat = self.latency(from, &target);
            self.schedule(
                lat,
                Event::ClientArrive {
                    machine: target,
                    req,
                    request: Box::new(request),
                    forwarded: true,
                },
            );
        }
    }

    // ----- clients -----

    /// Starts a client call from `from` to a client endpoint (`host:port` or a URL).
    pub fn start_call(
        &mut self,
        from: &str,
        endpoint: &str,
        request: Request,
        timeout_ms: u64,
    ) -> u64 {
        let req = self.next_req;
        self.next_req += 1;
        let request_kind = history_kind(&request);
        let mut call = Call {
            from: from.to_string(),
            deadline_ms: self.now_ms + timeout_ms,
            dial_error: None,
            result: None,
        };
        match self.client_target(from, endpoint) {
            Ok(target) => {
                if self.link_up(from, &target) {
                    let lat = self.latency(from, &target);
                    self.schedule(
                        lat,
                        Event::ClientArrive {
                            machine: target,
                            req,
                            request: Box::new(request),
                            forwarded: false,
                        },
                    );
                }
            }
            Err(e) => call.dial_error = Some(e),
        }
        // a call that could not connect did nothing: it is not history
        if call.dial_error.is_none() {
            self.note_invoke(req, &request_kind);
        }
        self.calls.insert(req, call);
        req
    }

    /// Records every client put, delete and linearizable get from now on.
    pub fn record_history(&mut self) {
        self.history.get_or_insert_with(Default::default);
    }

    /// The recorded operations, in the order they were sent.
    pub fn history(&self) -> &[super::history::Op] {
        self.history.as_ref().map_or(&[], |h| &h.0)
    }

    fn note_invoke(&mut self, req: u64, request: &Option<(String, super::history::Kind)>) {
        let (Some((ops, waiting)), Some((key, kind))) = (self.history.as_mut(), request) else {
            return;
        };
        waiting.insert(req, ops.len());
        ops.push(super::history::Op {
            key: key.clone(),
            kind: kind.clone(),
            invoke: self.now_ms,
            complete: None,
        });
    }

    fn note_complete(&mut self, req: u64, result: &CallResult) {
        let now = self.now_ms;
        let Some((ops, waiting)) = self.history.as_mut() else {
            return;
        };
        let Some(op) = waiting.remove(&req).and_then(|i| ops.get_mut(i)) else {
            return;
        };
        let CallResult::Reply(r) = result else {
            return; // no answer: it may still take effect
        };
        match (&mut op.kind, &r.reply) {
            (super::history::Kind::Read(v), Reply::Range(kvs)) => {
                *v = kvs.first().map(|kv| kv.value.clone());
                op.complete = Some(now);
            }
            (super::history::Kind::Write(_), Reply::Put | Reply::Delete(_)) => {
                op.complete = Some(now)
            }
            _ => {}
        }
    }

    /// The machine whose etcd listens on a client endpoint, or the dial error.
    fn client_target(&self, from: &str, endpoint: &str) -> Result<String, String> {
        let url = if endpoint.contains("://") {
            endpoint.to_string()
        } else {
            format!("http://{endpoint}")
        };
        let Some((host, port)) = split_url(&url) else {
            return Err(format!(
                "dial tcp: address {endpoint}: missing port in address"
            ));
        };
        let Some(target) = self.resolve(host, from) else {
            return Err(format!("dial tcp: lookup {host}: no such host"));
        };
        if !self.links_up(from, target) {
            return Ok(target.to_string());
        }
        let listening = self
            .machines
            .get(target)
            .and_then(|m| m.process.as_ref())
            .is_some_and(|p| {
                self.listens(target, &p.server.cfg.listen_client_urls, from, host, port)
            });
        if !listening {
            return Err(format!(
                "dial tcp {}: connect: connection refused",
                host_port(&url)
            ));
        }
        Ok(target.to_string())
    }

    /// What `ls` shows: the disk's paths in order, data dirs with a trailing `/`,
    /// including the data dir a running server holds.
    pub fn listing(&self, machine: &str) -> Vec<String> {
        let Some(m) = self.machines.get(machine) else {
            return Vec::new();
        };
        let mut paths: Vec<String> = m
            .disk
            .iter()
            .map(|(p, item)| match item {
                DiskItem::DataDir(_) => format!("{p}/"),
                DiskItem::Snapshot(_) => p.clone(),
            })
            .collect();
        if let Some(p) = m.process.as_ref().filter(|p| !p.dir_deleted) {
            paths.push(format!("{}/", p.data_dir));
        }
        paths.sort();
        paths
    }

    /// Whether `path` exists on `machine`'s disk, including a running server's data dir.
    pub fn path_exists(&self, machine: &str, path: &str) -> bool {
        self.machines.get(machine).is_some_and(|m| {
            m.disk.contains_key(path)
                || m.process
                    .as_ref()
                    .is_some_and(|p| p.data_dir == path && !p.dir_deleted)
        })
    }

    /// Whether a client on `from` can open a connection to `endpoint` now.
    pub fn can_dial(&self, from: &str, endpoint: &str) -> bool {
        self.client_target(from, endpoint)
            .is_ok_and(|target| self.links_up(from, &target))
    }

    /// Runs the clock until the call completes or its deadline passes.
    pub fn finish_call(&mut self, req: u64) -> CallResult {
        let deadline = self
            .calls
            .get(&req)
            .map(|c| c.deadline_ms)
            .unwrap_or(self.now_ms);
        self.run_until(deadline, |w| {
            w.calls.get(&req).is_none_or(|c| c.result.is_some())
        });
        let call = self.calls.remove(&req);
        let result = match call {
            Some(Call {
                result: Some(r), ..
            }) => r,
            Some(c) => CallResult::Deadline { dial: c.dial_error },
            None => CallResult::Deadline { dial: None },
        };
        self.note_complete(req, &result);
        result
    }

    /// A whole call: start it and run the clock until it ends.
    pub fn call(
        &mut self,
        from: &str,
        endpoint: &str,
        request: Request,
        timeout_ms: u64,
    ) -> CallResult {
        let req = self.start_call(from, endpoint, request, timeout_ms);
        self.finish_call(req)
    }
}

pub use super::url::{host_port, split_url};

/// `rm` path matching: exact, a path under it, or a trailing-`*` glob.
/// The key and kind a history records for `request`: single-key puts,
/// deletes and linearizable gets (a serializable get may read a stale value
/// by design; prefix operations are not registers).
fn history_kind(request: &Request) -> Option<(String, super::history::Kind)> {
    use super::history::Kind;
    match request {
        Request::Put { key, value } => Some((key.clone(), Kind::Write(Some(value.clone())))),
        Request::Delete { key, prefix: false } => Some((key.clone(), Kind::Write(None))),
        Request::Range {
            key,
            prefix: false,
            serializable: false,
        } => Some((key.clone(), Kind::Read(None))),
        _ => None,
    }
}

fn path_matches(pattern: &str, path: &str) -> bool {
    let pattern = pattern.trim_end_matches('/');
    if let Some(prefix) = pattern.strip_suffix('*') {
        return path.starts_with(prefix);
    }
    path == pattern || path.starts_with(&format!("{pattern}/"))
}
