//! The processes room: the etcd process a machine runs. Starting one
//! (bootstrap, with etcd's start-up failures; a 3.5 member that joins first
//! asks the others for `/downgrade/enabled`, see [`Joining`]), stopping it (`kill`, power
//! off, or by itself), its heartbeat timer, and what its server puts out:
//! log lines go to the world's log, messages and replies to the network and
//! the clients.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use super::clock::{Event, Rare};
use super::network::PeerHttp;
use super::{host_port, DiskItem, World, WorldError};
use crate::sim::drop_unused;
use crate::sim::etcd::bootstrap::{self, RemoteMembers};
use crate::sim::etcd::config::{ClusterState, EtcdConfig, Logger, ADVERTISE_CLIENT_URLS_REQUIRED};
use crate::sim::etcd::parcel::Parcels;
use crate::sim::etcd::request::{Reply, Response, ServerError};
use crate::sim::etcd::server::{self, Ctx, Exit, Out, Server, DEPRECATED_CAPNSLOG};
use crate::sim::etcd::version::EtcdVersion;
use crate::sim::etcd::zapfmt::{self, ZapCtx};

/// A running etcd process.
pub struct Process {
    pub pid: u64,
    pub server: Server,
    pub data_dir: String,
    /// The data dir was deleted while the process ran: it does not come back.
    pub dir_deleted: bool,
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

/// Why an etcd process ended at start-up (both exit with status 1).
enum StartFailure {
    /// `embed.Config.Validate` refused the flags.
    Flags(String),
    /// A `C | etcdmain:` fatal error while bootstrapping.
    Fatal(String),
}

/// What the start's failure lines need of its configuration.
struct Start {
    zap: bool,
    version: EtcdVersion,
    /// The command line, for 3.5's `Running: `.
    args: Vec<String>,
    /// 3.5 without a logger of its own: `--logger=capnslog` is refused
    /// while etcd sets its logging up.
    no_logger: bool,
}

/// A 3.5 member joining an existing cluster, between its start and its
/// raft's. Before `NewServer` starts raft, `isCompatibleWithCluster` asks
/// the other members, in ID order, for `/downgrade/enabled` until one
/// answers (`getDowngradeEnabledFromRemotePeers`, cluster_util.go:371 at
/// v3.5.1). A 3.5 member serves it as a linearizable read under its
/// `ReqTimeout` (7 s at the default election timeout): a member that joins a
/// cluster without quorum waits those 7 s, with a warning, before its raft
/// starts. (etcd 3.4 has no such question: its joiners start at once.)
pub(super) struct Joining {
    cfg: EtcdConfig,
    /// What the other members' `/members` answered at the start.
    remote: Remote,
    new_history: bool,
    /// The members still to ask, in ID order.
    ask: VecDeque<Asked>,
    /// The member being asked, and its peer URLs still to try.
    member: u64,
    urls: VecDeque<String>,
    /// The question in flight.
    asking: Option<Asking>,
    /// The member's last failure, for `failed to get downgrade enabled status`.
    last_error: String,
}

/// What each peer URL of the initial cluster answers to `/members`.
type Remote = BTreeMap<String, Option<RemoteMembers>>;

/// A member a joining member asks: its ID and peer URLs.
type Asked = (u64, Vec<String>);

/// A joining member's question in flight.
struct Asking {
    req: u64,
    /// The URL asked, `…/downgrade/enabled`.
    addr: String,
    /// The machine whose server was asked (`None`: a dial that times out).
    target: Option<String>,
}

/// `PeerDialTimeout`: 1 s plus the election timeout.
fn peer_dial_timeout_ms(cfg: &EtcdConfig) -> u64 {
    1000 + cfg.election_ms
}

impl World {
    // ----- a 3.5 member joining: /downgrade/enabled -----

    /// The members a new 3.5 member asks for `/downgrade/enabled`, in ID
    /// order, when its start will get that far (`None`: it does not ask:
    /// another release, a data dir, a new cluster, or a start that fails
    /// before).
    fn downgrade_questions(
        &self,
        machine: &str,
        cfg: &EtcdConfig,
        initialized: bool,
    ) -> Option<(Vec<Asked>, Remote)> {
        let asks = cfg.version == EtcdVersion::V3_5
            && !initialized
            && cfg.initial_cluster_state == ClusterState::Existing
            && cfg.validate().is_ok();
        if !asks {
            return None;
        }
        let remote = self.remote_members(machine, cfg);
        let lookup = |url: &str| remote.get(url).cloned().flatten();
        let (local, members) = bootstrap::join_check(cfg, &lookup).ok()?;
        let mut others: Vec<Asked> = members
            .into_iter()
            .filter(|m| m.id != local)
            .map(|m| (m.id, m.peer_urls))
            .collect();
        others.sort_by_key(|(id, _)| *id);
        Some((others, remote))
    }

    /// Asks the next peer URL, or the next member; starts the server when
    /// one has answered or none is left.
    fn ask_next(&mut self, machine: &str) {
        loop {
            let Some(j) = self.joins.get_mut(machine) else {
                return;
            };
            let Some(url) = j.urls.pop_front() else {
                if j.member != 0 {
                    let (id, err) = (j.member, std::mem::take(&mut j.last_error));
                    j.member = 0;
                    let line = zapfmt::downgrade_status_failed(&self.stamp().zap(), id, &err);
                    self.push_logs(machine, vec![line]);
                    continue;
                }
                match j.ask.pop_front() {
                    Some((id, urls)) => {
                        j.member = id;
                        j.urls = urls.into();
                        continue;
                    }
                    None => return self.finish_join(machine),
                }
            };
            let addr = format!("{url}/downgrade/enabled");
            match self.peer_http(machine, &url) {
                PeerHttp::Server(target) => {
                    let req = self.start_join_call(machine, &target);
                    let target = Some(target);
                    self.set_asking(machine, Some(Asking { req, addr, target }));
                    return;
                }
                PeerHttp::Silent(host_port) => {
                    let req = self.next_req_id();
                    let asking = Asking {
                        req,
                        addr: addr.clone(),
                        target: None,
                    };
                    self.set_asking(machine, Some(asking));
                    let wait = self
                        .joins
                        .get(machine)
                        .map_or(0, |j| peer_dial_timeout_ms(&j.cfg));
                    let error = format!("Get \"{addr}\": dial tcp {host_port}: i/o timeout");
                    let machine = machine.to_string();
                    self.schedule(
                        wait,
                        Rare::JoinDialFailed {
                            machine,
                            req,
                            error,
                        }
                        .into(),
                    );
                    return;
                }
                PeerHttp::Refused(dial) => {
                    self.url_failed(machine, &addr, format!("Get \"{addr}\": {dial}"), true);
                }
            }
        }
    }

    fn set_asking(&mut self, machine: &str, req: Option<Asking>) {
        if let Some(j) = self.joins.get_mut(machine) {
            j.asking = req;
        }
    }

    /// One peer URL failed: `failed to reach the peer URL` (`reach`) or
    /// `failed to convert response`; the next is tried.
    fn url_failed(&mut self, machine: &str, addr: &str, error: String, reach: bool) {
        let Some(j) = self.joins.get_mut(machine) else {
            return;
        };
        let id = j.member;
        j.asking = None;
        let ts = self.stamp().zap();
        let line = if reach {
            zapfmt::downgrade_unreachable(&ts, addr, id, &error)
        } else {
            zapfmt::downgrade_unconvertible(&ts, addr, id, &error)
        };
        if let Some(j) = self.joins.get_mut(machine) {
            j.last_error = error;
        }
        self.push_logs(machine, vec![line]);
    }

    /// The address question `req` asked, while `machine` still waits for it.
    fn asked(&self, machine: &str, req: u64) -> Option<String> {
        let a = self.joins.get(machine)?.asking.as_ref()?;
        (a.req == req).then(|| a.addr.clone())
    }

    /// The process on `gone` ended while members joining asked it: their
    /// connection closes, and Go's `Get` fails with `EOF` (a machine powered
    /// off closes nothing: its questions wait, as Go's client has no
    /// deadline of its own).
    fn asked_process_ended(&mut self, gone: &str) {
        if !self.machines.get(gone).is_some_and(|m| m.up) {
            return;
        }
        let waiting: Vec<(String, u64, String)> = self
            .joins
            .iter()
            .filter_map(|(m, j)| {
                let a = j.asking.as_ref()?;
                (a.target.as_deref() == Some(gone)).then(|| (m.clone(), a.req, a.addr.clone()))
            })
            .collect();
        for (machine, req, addr) in waiting {
            self.drop_join_call(req);
            self.url_failed(&machine, &addr, format!("Get \"{addr}\": EOF"), true);
            self.ask_next(&machine);
        }
    }

    /// The dial of question `req` timed out.
    pub(super) fn on_join_dial_failed(&mut self, machine: &str, req: u64, error: String) {
        let Some(addr) = self.asked(machine, req) else {
            return;
        };
        self.url_failed(machine, &addr, error, true);
        self.ask_next(machine);
    }

    /// A member answered question `req`: `false` ends the questions; any
    /// other body is a failure (`strconv.ParseBool`), and the next is asked.
    pub(super) fn join_answered(
        &mut self,
        machine: &str,
        req: u64,
        result: Result<Response, ServerError>,
    ) {
        let Some(addr) = self.asked(machine, req) else {
            return;
        };
        let body = match result {
            Ok(Response {
                reply: Reply::DowngradeEnabled { body },
                ..
            }) => body,
            Ok(_) => String::new(),
            Err(e) => format!("failed linearized read: {}\n", e.status().1),
        };
        if body.parse::<bool>().is_ok() {
            if let Some(j) = self.joins.get_mut(machine) {
                j.ask.clear();
                j.urls.clear();
                j.member = 0;
                j.asking = None;
            }
            return self.ask_next(machine);
        }
        let error = format!("strconv.ParseBool: parsing {body:?}: invalid syntax");
        self.url_failed(machine, &addr, error, false);
        self.ask_next(machine);
    }

    /// The questions are over: the server starts (its raft lines now).
    fn finish_join(&mut self, machine: &str) {
        let Some(j) = self.joins.remove(machine) else {
            return;
        };
        // the members as they answered before the questions
        // (`getClusterFromRemotePeers` runs first in NewServer)
        let remote = Some(j.remote);
        self.boot_and_start(machine, j.cfg, j.new_history, remote, Default::default());
    }

    /// A joining member's etcd ends before its raft started (`kill`, power off).
    pub(super) fn end_join(&mut self, machine: &str, status: i32, reason: &str) -> bool {
        let Some(j) = self.joins.remove(machine) else {
            return false;
        };
        if let Some(a) = j.asking {
            self.drop_join_call(a.req);
        }
        if let Some(m) = self.machines.get_mut(machine) {
            m.last_exit = Some(ExitInfo {
                status,
                reason: reason.to_string(),
            });
        }
        true
    }

    /// The configuration of `machine`'s joining etcd, if it is joining.
    pub(super) fn joining_cfg(&self, machine: &str) -> Option<&EtcdConfig> {
        self.joins.get(machine).map(|j| &j.cfg)
    }

    /// Whether `machine`'s etcd is a 3.5 member still asking before its raft starts.
    pub fn joining(&self, machine: &str) -> bool {
        self.joins.contains_key(machine)
    }

    // ----- start -----

    pub(super) fn start_etcd(&mut self, machine: &str, cfg: EtcdConfig) -> Result<(), WorldError> {
        let m = self.machine_mut(machine)?;
        if !m.up {
            return Err(WorldError::MachineDown(machine.to_string()));
        }
        if m.process.is_some() || self.joins.contains_key(machine) {
            let addr = cfg
                .listen_peer_urls
                .first()
                .map(|u| host_port(u))
                .unwrap_or_default();
            return Err(WorldError::AddressAlreadyInUse(addr));
        }
        let mut out = Vec::new();
        let mut parcels = Parcels::default();
        let mut log = Vec::new();
        let mut ctx = self.start_ctx(&mut out, &mut parcels, &mut log, cfg.zap());
        let start = Start {
            zap: cfg.zap(),
            version: cfg.version,
            args: cfg.args.clone(),
            no_logger: cfg.version == EtcdVersion::V3_5 && cfg.logger == Logger::Capnslog,
        };
        // etcd verifies its flags (3.5: its logger among them) before it
        // says a word: `cfg.parse` in startEtcdOrProxyV2, before the banner
        if let Err(msg) = cfg.validate() {
            self.start_failed(machine, StartFailure::Flags(msg), &start);
            return Ok(());
        }
        let (initialized, new_history) = self.dir_on_disk(machine, &cfg);
        server::log_start(&mut ctx, &cfg, initialized);
        if let Some((ask, remote)) = self.downgrade_questions(machine, &cfg, initialized) {
            let zap = ZapCtx {
                version: start.version,
                ..ZapCtx::default()
            };
            self.push_logs_as(machine, log, Some(zap));
            let join = Joining {
                cfg,
                remote,
                new_history,
                ask: ask.into(),
                urls: VecDeque::new(),
                member: 0,
                asking: None,
                last_error: String::new(),
            };
            self.joins.insert(machine.to_string(), join);
            self.ask_next(machine);
            return Ok(());
        }
        self.boot_and_start(machine, cfg, new_history, None, (log, out));
        Ok(())
    }

    /// A starting server's context: now, and the buffers its start fills.
    /// What it sends (little: a start sends nothing until its first tick)
    /// goes in boxes of its own, `parcels`.
    fn start_ctx<'a>(
        &self,
        out: &'a mut Vec<Out>,
        parcels: &'a mut Parcels,
        log: &'a mut Vec<String>,
        zap: bool,
    ) -> Ctx<'a> {
        Ctx {
            now_ms: self.now_ms(),
            wall_ms: self.wall_ms(),
            out,
            parcels,
            log,
            zap,
        }
    }

    /// Bootstraps and starts `cfg`'s server now (its banner is in `log`),
    /// from what the other members answered (`remote`: asked now if `None`).
    fn boot_and_start(
        &mut self,
        machine: &str,
        cfg: EtcdConfig,
        new_history: bool,
        remote: Option<Remote>,
        (mut log, mut out): (Vec<String>, Vec<Out>),
    ) {
        let start = Start {
            zap: cfg.zap(),
            version: cfg.version,
            args: cfg.args.clone(),
            no_logger: false,
        };
        let mut parcels = Parcels::default();
        let mut ctx = self.start_ctx(&mut out, &mut parcels, &mut log, cfg.zap());
        let started = self.boot(machine, cfg, remote, &mut ctx);
        let zap = start.zap.then(|| {
            started
                .as_ref()
                .map(|p| p.server.zap_ctx())
                .unwrap_or_else(|_| ZapCtx {
                    version: start.version,
                    ..ZapCtx::default()
                })
        });
        self.push_logs_as(machine, log, zap);
        match started {
            Ok(p) => self.started(machine, p, new_history, out),
            Err(failure) => self.start_failed(machine, failure, &start),
        }
    }

    /// Whether `cfg`'s data dir on `machine` holds a WAL, and whether the
    /// cluster begins anew: a fresh bootstrap, a forced new cluster, or a
    /// restored data dir that never ran (its term is still the restore's 1).
    fn dir_on_disk(&self, machine: &str, cfg: &EtcdConfig) -> (bool, bool) {
        let dir = self
            .machines
            .get(machine)
            .and_then(|m| m.disk.get(&cfg.data_dir()));
        let initialized = dir.is_some_and(|d| matches!(d, DiskItem::DataDir(d) if d.has_wal));
        let new_history = cfg.force_new_cluster
            || (!initialized && cfg.initial_cluster_state == ClusterState::New)
            || dir.is_some_and(
                |d| matches!(d, DiskItem::DataDir(d) if d.storage.rl().hard_state().term <= 1),
            );
        (initialized, new_history)
    }

    /// The process runs: it dials its peers, its heartbeat timer starts, and
    /// what it put out while starting goes out.
    fn started(&mut self, machine: &str, p: Process, new_history: bool, out: Vec<Out>) {
        let heartbeat = p.server.cfg.heartbeat_ms;
        let pid = p.pid;
        if new_history {
            self.forget_cluster(p.server.cluster_id);
        }
        if let Some(m) = self.machines.get_mut(machine) {
            m.process = Some(p);
            self.net.topology_changed();
            m.last_exit = None;
        }
        if matches!(
            self.server(machine).and_then(|s| s.stop_at),
            Some((_, Exit::Fatal))
        ) {
            // a fatal line while starting (a refused downgrade): it exits now
            self.check_stop(machine);
            return;
        }
        // the stream readers dial their peers as soon as they start
        let reach = self.peer_reach(machine).reaches;
        let requests = self.with_server(machine, |s, ctx| s.dial_peers(ctx, &reach));
        self.deliver_stream_requests(machine, requests.unwrap_or_default());
        self.check_stop(machine);
        self.schedule(
            heartbeat.max(1),
            Event::Tick {
                machine: machine.into(),
                pid,
            },
        );
        self.route(machine, out);
    }

    /// The process ended while starting: its last words, and status 1.
    fn start_failed(&mut self, machine: &str, failure: StartFailure, start: &Start) {
        let zap = start.zap;
        let stamp = self.stamp().capnslog();
        let ts = self.stamp().zap();
        let unset =
            matches!(&failure, StartFailure::Flags(m) if m == ADVERTISE_CLIENT_URLS_REQUIRED);
        let v35 = start.version == EtcdVersion::V3_5;
        let (lines, reason) = match failure {
            StartFailure::Flags(msg) if v35 => {
                // no logger when its own setup failed: zap's production one
                let epoch = start.no_logger.then(|| self.wall_ms());
                let lines = zapfmt::flag_failure_v35(&ts, epoch, &start.args, &msg, unset);
                (lines, msg)
            }
            StartFailure::Flags(msg) if zap => {
                let mut lines = vec![zapfmt::flag_error(&ts, &msg)];
                if unset {
                    lines.push(zapfmt::advertise_unset(&ts, &msg));
                }
                (lines, msg)
            }
            StartFailure::Flags(msg) => {
                // capnslog's deprecation notice comes first, as etcd parses
                // `--logger` before it verifies the rest
                let mut lines = vec![
                    DEPRECATED_CAPNSLOG.to_string(),
                    format!(
                        "{stamp} E | etcdmain: error verifying flags, {msg}. See 'etcd --help'."
                    ),
                ];
                if unset {
                    lines.push(format!("{stamp} E | etcdmain: When listening on specific address(es), this etcd process must advertise accessible url(s) to each connected client."));
                }
                (lines, msg)
            }
            StartFailure::Fatal(msg) if zap => (zapfmt::fatal_of(start.version, &ts, &msg), msg),
            StartFailure::Fatal(msg) => (vec![format!("{stamp} C | etcdmain: {msg}")], msg),
        };
        self.push_logs_as(machine, lines, None);
        if let Some(m) = self.machines.get_mut(machine) {
            m.last_exit = Some(ExitInfo { status: 1, reason });
        }
    }

    /// Bootstraps and starts a server; `Err` is the log line that ends it.
    fn boot(
        &mut self,
        machine: &str,
        cfg: EtcdConfig,
        remote: Option<Remote>,
        ctx: &mut Ctx,
    ) -> Result<Process, StartFailure> {
        cfg.validate().map_err(StartFailure::Flags)?;
        let dir_path = cfg.data_dir();
        let remote = remote.unwrap_or_else(|| self.remote_members(machine, &cfg));
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
    fn remote_members(&self, machine: &str, cfg: &EtcdConfig) -> Remote {
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

    // ----- stop -----

    pub(super) fn kill(&mut self, machine: &str, signal: Signal) -> Result<(), WorldError> {
        let m = self.machine_mut(machine)?;
        if m.process.is_none() {
            let status = if signal == Signal::Kill { 137 } else { 0 };
            let reason = if signal == Signal::Kill {
                "killed"
            } else {
                "stopped"
            };
            if self.end_join(machine, status, reason) {
                return Ok(());
            }
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
    pub(super) fn end_process(&mut self, machine: &str, status: i32, reason: &str) {
        if status == 0 {
            // a clean exit stops the transport; a killed process just vanishes
            self.with_server(machine, |s, ctx| s.shutdown(ctx));
        }
        // its streams end with it (the peers' streams to it notice by pid)
        self.net.close_streams_of(machine);
        let Some(m) = self.machines.get_mut(machine) else {
            return;
        };
        self.net.topology_changed();
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
        // and so does a joining member's question to it
        self.asked_process_ended(machine);
    }

    /// Ends the process if its server is due to stop, or looks again when it is.
    pub(super) fn check_stop(&mut self, machine: &str) {
        let now = self.now_ms();
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
            Some((at, Exit::Fatal)) if at <= now => self.end_process(machine, 1, "fatal"),
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

    // ----- timers -----

    pub(super) fn on_tick(&mut self, name: Rc<str>, pid: u64) {
        let machine = &*name;
        // one look at the machine: whether the process is still the one
        // that asked, and which probes of its transport are due
        let now = self.now_ms();
        let Some(due) = self
            .machines
            .get(machine)
            .and_then(|m| m.process.as_ref())
            .filter(|p| p.pid == pid)
            .map(|p| p.server.transport.probes_due(now))
        else {
            return;
        };
        let dialled = self.peer_reach(machine);
        let reach = dialled.reaches;
        let probes = self.probe_flights(machine, due, &dialled.url_targets);
        let ticked = self.with_server(machine, |s, ctx| {
            s.transport.send_probes(ctx.now_ms, &probes);
            let requests = s.tick(ctx, &reach);
            s.retry_reads(ctx);
            (s.cfg.heartbeat_ms, requests, s.stop_at.is_some())
        });
        let Some((hb, requests, stopping)) = ticked else {
            return;
        };
        self.deliver_stream_requests(machine, requests);
        let next = Event::Tick {
            machine: Rc::clone(&name),
            pid,
        };
        self.schedule(hb.max(1), next);
        if stopping {
            self.check_stop(machine);
        }
    }

    pub(super) fn on_wake(&mut self, machine: &str, pid: u64) {
        self.wakes.remove(&(pid, self.now_ms()));
        if self.pid_of(machine) == Some(pid) {
            self.with_server(machine, |s, ctx| s.wake(ctx));
        }
    }

    pub(super) fn on_stop_check(&mut self, machine: &str, pid: u64) {
        if self.pid_of(machine) == Some(pid) {
            self.check_stop(machine);
        }
    }

    // ----- servers -----

    pub(super) fn pid_of(&self, machine: &str) -> Option<u64> {
        self.machines
            .get(machine)
            .and_then(|m| m.process.as_ref())
            .map(|p| p.pid)
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

    /// Runs `f` on the machine's server with a context, then routes what it produced.
    pub(super) fn with_server<T>(
        &mut self,
        machine: &str,
        f: impl FnOnce(&mut Server, &mut Ctx) -> T,
    ) -> Option<T> {
        self.with_process(machine, |p, ctx| f(&mut p.server, ctx))
    }

    /// [`Self::with_server`] with the whole process (its pid too): one
    /// lookup of the machine for a step.
    pub(super) fn with_process<T>(
        &mut self,
        machine: &str,
        f: impl FnOnce(&mut Process, &mut Ctx) -> T,
    ) -> Option<T> {
        let (now, wall) = (self.now_ms(), self.wall_ms());
        // the buffer of an earlier call, emptied: no allocation per step
        let mut out = std::mem::take(&mut self.out_buf);
        let mut log = Vec::new();
        let Some(p) = self
            .machines
            .get_mut(machine)
            .and_then(|m| m.process.as_mut())
        else {
            self.out_buf = out;
            return None;
        };
        let mut ctx = Ctx {
            now_ms: now,
            wall_ms: wall,
            out: &mut out,
            parcels: &mut self.parcels,
            log: &mut log,
            zap: p.server.cfg.zap(),
        };
        let signature = p.server.reach_signature();
        let r = f(p, &mut ctx);
        if p.server.reach_signature() != signature {
            // what a dial finds may have changed with it
            self.net.topology_changed();
        }
        if log.is_empty() {
            drop_unused(log);
        } else {
            self.push_logs(machine, log);
        }
        // most steps put out nothing (a follower's heartbeat answer taken)
        if !out.is_empty() {
            self.route_drain(machine, &mut out);
        }
        drop_unused(std::mem::replace(&mut self.out_buf, out));
        Some(r)
    }

    pub(super) fn push_logs(&mut self, machine: &str, lines: Vec<String>) {
        let zap = self
            .server(machine)
            .filter(|s| s.cfg.zap())
            .map(|s| s.zap_ctx());
        self.push_logs_as(machine, lines, zap);
    }

    /// Appends a machine's log lines; a server started with `--logger=zap`
    /// writes each as zap JSON.
    fn push_logs_as(&mut self, machine: &str, lines: Vec<String>, zap: Option<ZapCtx>) {
        let ms = self.now_ms();
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

    /// Sends what `machine`'s server put out to the room each is for.
    fn route(&mut self, machine: &str, mut out: Vec<Out>) {
        self.route_drain(machine, &mut out);
    }

    /// [`Self::route`], leaving `out` empty for the next step to fill.
    /// Test builds: the URL a message from `machine` goes to (pinned, or
    /// read from the transport now) is the one its transport knew on
    /// sending (`Out::Raft`).
    #[cfg(debug_assertions)]
    fn check_sent_url(
        &self,
        machine: &str,
        msg: &raft::eraftpb::Message,
        url: Option<&Rc<str>>,
        sent_url: Option<Rc<str>>,
    ) {
        let now = self
            .server(machine)
            .and_then(|s| s.transport.first_url(msg.to));
        assert_eq!(
            url.cloned().or_else(|| now.clone()),
            sent_url.or(now),
            "{machine}'s message to {:x} keeps the URL it was sent to",
            msg.to
        );
    }

    fn route_drain(&mut self, machine: &str, out: &mut Vec<Out>) {
        for o in out.drain(..) {
            match o {
                Out::Raft {
                    msg,
                    url,
                    #[cfg(debug_assertions)]
                    sent_url,
                } => {
                    #[cfg(debug_assertions)]
                    self.check_sent_url(machine, &msg, url.as_ref(), sent_url);
                    self.send_raft(machine, msg, url)
                }
                Out::Reply { req, result } => self.reply_to_client(machine, req, result),
                Out::Forward { to, req, request } => self.forward(machine, to, req, *request),
                Out::StreamsClosed { peer } => self.streams_closed(machine, peer),
                Out::LinkHeartbeat { peer, kind } => self.link_heartbeat(machine, peer, kind),
                Out::WakeAt(at) => {
                    if let Some(pid) = self.pid_of(machine) {
                        let after = at.saturating_sub(self.now_ms());
                        // a wake already due then serves this one too: it
                        // comes first at that moment, and `wake` handles
                        // everything due by then
                        if !self.wakes.insert((pid, self.now_ms() + after)) {
                            continue;
                        }
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
}
