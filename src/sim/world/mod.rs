//! The world, in rooms, behind one door. `World` holds the seeded RNG and
//! each room's state; everything that changes the world comes in through
//! [`World::enter`] as an [`Input`]: an [`Action`] ([`World::apply`]) or an
//! etcdctl request ([`World::call`]). The door checks the world's
//! invariants on the way in and out (debug builds).
//!
//! The rooms, each a file owning its state:
//! - `machines`: machines, their addresses, power and disks; the hosts table.
//! - `processes`: the etcd process on a machine: start, stop, its timer, and
//!   where what its server puts out goes; the servers' logs.
//! - `network`: links (cut, latency, jitter, loss), NICs (rate, queue) and
//!   raft messages, snapshots and client traffic on them (`network/nic`: the
//!   model; `network/size`: each message's bytes); `network/dial`: what a
//!   dial finds, and rafthttp's streams.
//! - `clock`: the event queue and the wall clock.
//! - `clients`: etcdctl requests in flight.
//! - `observe`: read-only watchers (traffic, frames, invariants, history).

mod clients;
mod clock;
mod machines;
mod names;
mod network;
mod observe;
mod processes;
mod timeline;

use std::collections::{BTreeMap, BTreeSet};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::etcd::config::EtcdConfig;
use super::etcd::datadir::DataDir;
use super::etcd::request::{Request, SnapshotData};
use super::etcd::server as server_out;
use super::etcd::version::EtcdVersion;

pub use super::url::{host_port, split_url};
pub use clients::CallResult;
pub use clock::start_unix_ms;
pub use machines::{DiskItem, Machine};
pub use names::ByName;
pub use network::{
    LinkSetting, LinkSpec, NicSpec, DEFAULT_LATENCY_MS, DEFAULT_LIMIT_BYTES, DEFAULT_RATE_BPS,
};
pub use observe::{Traffic, MAX_FRAMES};
pub use processes::{ExitInfo, LogLine, Process, Signal};

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
    /// Another etcd on a machine whose etcd is not running.
    InstallEtcd {
        name: String,
        etcd: EtcdVersion,
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
    /// A directed link's latency, jitter and loss (`net delay`, `net loss`,
    /// `net clear A B`).
    SetLink {
        from: String,
        to: String,
        spec: LinkSpec,
    },
    /// A machine's NIC: egress rate and queue (`net rate`, `net clear A`).
    SetNic {
        machine: String,
        spec: NicSpec,
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

/// Why an action could not be done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorldError {
    NoSuchMachine(String),
    MachineExists(String),
    AddressTaken(String),
    MachineDown(String),
    NoProcess(String),
    /// An etcd process runs on the machine (its etcd cannot be switched).
    EtcdRunning(String),
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

/// What comes in through the world's one door, [`World::enter`].
#[derive(Debug, Clone)]
pub enum Input {
    /// A change to the world.
    Act(Action),
    /// An etcdctl request from machine `from` to a client endpoint
    /// (`host:port` or a URL): the clock runs until it is answered or
    /// `timeout_ms` have passed.
    Call {
        from: String,
        endpoint: String,
        request: Request,
        timeout_ms: u64,
    },
    /// Requests sent at once from one client machine, each on its own
    /// connection (etcdctl's load generators' concurrent clients): the clock
    /// runs until all are answered or `timeout_ms` have passed.
    Calls {
        from: String,
        endpoint: String,
        requests: Vec<Request>,
        timeout_ms: u64,
    },
}

/// What comes out of the door: an action's end, or a request's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Done,
    Called(CallResult),
    /// Each request's outcome and the simulated time it came.
    CalledAll(Vec<(CallResult, u64)>),
}

/// The world.
pub struct World {
    rng: ChaCha8Rng,
    // ----- machines and processes (`machines.rs`, `processes.rs`) -----
    /// The machines by name (read outside `sim` through [`World::machines`]).
    pub(in crate::sim) machines: ByName<Machine>,
    /// The hosts table: a name to the address it stands for.
    pub(in crate::sim) hosts: BTreeMap<String, String>,
    next_pid: u64,
    /// The wakes queued for processes, (pid, due ms): a server asks for one
    /// per deadline (three per request), and many fall on the same
    /// millisecond; one event a moment wakes it for all of them.
    wakes: BTreeSet<(u64, u64)>,
    /// 3.5 members between their start and their raft's (`processes.rs`).
    joins: BTreeMap<String, processes::Joining>,
    /// Every server's log, in order.
    pub(in crate::sim) logs: Vec<LogLine>,
    // ----- the network (`network/`) -----
    /// The cut links (from, to); only the network room changes it.
    pub(in crate::sim) cut: BTreeSet<(String, String)>,
    net: network::Network,
    // ----- the clock (`clock.rs`) and the clients (`clients.rs`) -----
    clock: clock::Clock,
    clients: clients::Clients,
    // ----- observations only: nothing in the simulation reads these -----
    observe: observe::Observers,
    /// A server step's output buffer, kept empty between steps (no
    /// allocation per step; see `World::with_server`).
    out_buf: Vec<server_out::Out>,
    /// The spare boxes of raft messages (`etcd::parcel`): a message
    /// stepped leaves its box here for the next one sent.
    parcels: crate::sim::etcd::parcel::Parcels,
}

/// What the shell, the page and tests may read of the world's rooms: the
/// fields are private to `sim`, so every change goes through the door.
impl World {
    /// The machines by name.
    pub fn machines(&self) -> &ByName<Machine> {
        &self.machines
    }

    /// The hosts table: a name to the address it stands for.
    pub fn hosts(&self) -> &BTreeMap<String, String> {
        &self.hosts
    }

    /// Every server's log, in order.
    pub fn logs(&self) -> &[LogLine] {
        &self.logs
    }

    /// The cut links, (from, to).
    pub fn cut(&self) -> &BTreeSet<(String, String)> {
        &self.cut
    }
}

impl World {
    pub fn new(seed: u64) -> World {
        World {
            rng: ChaCha8Rng::seed_from_u64(seed),
            machines: ByName::new(),
            hosts: BTreeMap::new(),
            next_pid: 100,
            wakes: BTreeSet::new(),
            joins: BTreeMap::new(),
            logs: Vec::new(),
            cut: BTreeSet::new(),
            net: network::Network::default(),
            clock: clock::Clock::new(),
            clients: clients::Clients::new(),
            observe: observe::Observers::default(),
            out_buf: Vec::new(),
            parcels: Default::default(),
        }
    }

    /// A number from the world's RNG (client IDs in retry lines, and the like).
    pub fn random_u64(&mut self) -> u64 {
        self.rng.gen()
    }

    /// The world's one door: every action and every request comes in here.
    /// The world's invariants are checked on the way in and out (debug
    /// builds), and the clock only moves forward.
    pub fn enter(&mut self, input: Input) -> Result<Outcome, WorldError> {
        let (now, events) = (self.now_ms(), self.events());
        self.debug_check();
        let outcome = match input {
            Input::Act(action) => self.act(action).map(|()| Outcome::Done),
            Input::Call {
                from,
                endpoint,
                request,
                timeout_ms,
            } => Ok(Outcome::Called(
                self.run_call(&from, &endpoint, request, timeout_ms),
            )),
            Input::Calls {
                from,
                endpoint,
                requests,
                timeout_ms,
            } => Ok(Outcome::CalledAll(
                self.run_calls(&from, &endpoint, requests, timeout_ms),
            )),
        };
        debug_assert!(self.now_ms() >= now, "the clock went back");
        debug_assert!(self.events() >= events);
        self.debug_check();
        outcome
    }

    /// Applies one action (through [`Self::enter`]).
    pub fn apply(&mut self, action: Action) -> Result<(), WorldError> {
        self.enter(Input::Act(action)).map(|_| ())
    }

    /// A whole client call from `from` to a client endpoint (`host:port` or
    /// a URL), through [`Self::enter`]: the clock runs until it is answered
    /// or `timeout_ms` have passed.
    pub fn call(
        &mut self,
        from: &str,
        endpoint: &str,
        request: Request,
        timeout_ms: u64,
    ) -> CallResult {
        let input = Input::Call {
            from: from.to_string(),
            endpoint: endpoint.to_string(),
            request,
            timeout_ms,
        };
        match self.enter(input) {
            Ok(Outcome::Called(result)) => result,
            other => unreachable!("a call ends in its outcome, not {other:?}"),
        }
    }

    /// Concurrent client calls through [`Self::enter`] (see [`Input::Calls`]).
    pub fn call_all(
        &mut self,
        from: &str,
        endpoint: &str,
        requests: Vec<Request>,
        timeout_ms: u64,
    ) -> Vec<(CallResult, u64)> {
        let input = Input::Calls {
            from: from.to_string(),
            endpoint: endpoint.to_string(),
            requests,
            timeout_ms,
        };
        match self.enter(input) {
            Ok(Outcome::CalledAll(results)) => results,
            other => unreachable!("calls end in their outcomes, not {other:?}"),
        }
    }

    /// Hands an action to the room it is for.
    fn act(&mut self, action: Action) -> Result<(), WorldError> {
        if action.changes_reach() {
            self.net.topology_changed();
        }
        match action {
            Action::AddMachine { name, addrs } => self.add_machine(name, addrs),
            Action::RemoveMachine { name } => self.remove_machine(&name),
            Action::InstallEtcd { name, etcd } => self.install_etcd(&name, etcd),
            Action::PowerOff { name } => self.power_off(&name),
            Action::PowerOn { name } => self.power_on(&name),
            Action::SetHost { name, addr } => self.set_host(name, addr),
            Action::SetDate { unix_secs } => {
                self.set_date(unix_secs);
                Ok(())
            }
            Action::StartEtcd { machine, cfg } => self.start_etcd(&machine, *cfg),
            Action::Kill { machine, signal } => self.kill(&machine, signal),
            Action::RemovePaths { machine, paths } => self.remove_paths(&machine, &paths),
            Action::WriteSnapshot {
                machine,
                path,
                data,
            } => self.put_file(&machine, path, DiskItem::Snapshot(data)),
            Action::PutDataDir { machine, path, dir } => {
                self.put_file(&machine, path, DiskItem::DataDir(dir))
            }
            Action::Copy { from, src, to, dst } => self.copy(&from, &src, &to, &dst),
            Action::Cut { from, to } => {
                self.cut_link(from, to);
                Ok(())
            }
            Action::Heal { pair } => {
                self.heal(pair);
                Ok(())
            }
            Action::SetDelay { a, b, ms } => {
                self.set_delay(a, b, ms);
                Ok(())
            }
            Action::SetLink { from, to, spec } => {
                self.need_machines(&[&from, &to])?;
                self.set_link(from, to, spec);
                Ok(())
            }
            Action::SetNic { machine, spec } => {
                self.need_machines(&[&machine])?;
                self.set_nic(machine, spec);
                Ok(())
            }
            Action::Advance { ms } => {
                self.run_until(self.now_ms() + ms, |_| false);
                Ok(())
            }
            Action::WaitExit { machine, max_ms } => {
                self.run_until(self.now_ms() + max_ms, |w| {
                    w.pid_of(&machine).is_none() && !w.joining(&machine)
                });
                Ok(())
            }
        }
    }

    /// `Err(NoSuchMachine)` for the first name no machine has.
    fn need_machines(&self, names: &[&str]) -> Result<(), WorldError> {
        match names.iter().find(|n| !self.machines.contains_key(n)) {
            Some(n) => Err(WorldError::NoSuchMachine(n.to_string())),
            None => Ok(()),
        }
    }

    /// Each room's promises (debug builds only; each check is linear in
    /// the machines, addresses and streams, and O(1) in the event queue).
    fn debug_check(&self) {
        if cfg!(debug_assertions) {
            self.clock.debug_check();
            self.clients.debug_check();
            self.debug_check_machines();
            self.debug_check_network();
        }
    }
}

/// The door's checks catch a broken promise (debug builds only: release
/// builds leave them out).
#[cfg(all(test, debug_assertions))]
mod door_tests {
    use super::clock::Event;
    use super::*;

    fn one_machine() -> World {
        let mut w = World::new(1);
        let add = Action::AddMachine {
            name: "node01".into(),
            addrs: vec!["10.0.0.1".into()],
        };
        w.apply(add).expect("a machine");
        w
    }

    #[test]
    #[should_panic(expected = "an event for a machine or process that is not there")]
    fn no_event_for_a_machine_that_does_not_exist() {
        let mut w = one_machine();
        let tick = Event::Tick {
            machine: "node02".into(),
            pid: 1,
        };
        w.schedule(1, tick);
    }

    #[test]
    #[should_panic(expected = "a process runs on node01, which is down")]
    fn a_broken_promise_is_caught_at_the_door() {
        let mut w = one_machine();
        // what only a room's bug could do: a machine down, its process running
        w.apply(Action::StartEtcd {
            machine: "node01".into(),
            cfg: Box::default(),
        })
        .expect("a start");
        if let Some(m) = w.machines.get_mut("node01") {
            m.up = false;
        }
        assert!(w.apply(Action::Advance { ms: 1 }).is_ok());
    }
}
