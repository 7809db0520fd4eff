//! The clock room: simulated milliseconds since the start, the wall clock
//! they map to (`date -s` moves only the wall clock), and the event queue.
//! Every timer, message and reply is an [`Event`] due at a moment, handled
//! in (time, then scheduling) order; [`World::run_until`] is the one loop
//! that moves time, and it stops where the work budget (`sim::budget`) says.

use std::rc::Rc;

use crate::sim::etcd::parcel::Parcel;

use super::network::Conn;
use super::timeline::Timeline;
use super::World;
use crate::sim::budget::{Budget, Spent};
use crate::sim::etcd::logfmt::{days_from_civil, Stamp};
use crate::sim::etcd::request::{Request, Response, ServerError};

/// The simulated wall clock at time zero: 2021-03-03 16:25:57 UTC (seed 000).
pub fn start_unix_ms() -> i64 {
    (days_from_civil(2021, 3, 3) * 86_400 + 16 * 3600 + 25 * 60 + 57) * 1000
}

/// Something due at a moment: a timer of a process, or something arriving
/// over the network. Events for a process name its pid: one that finds a
/// newer process (or none) on its machine is dropped.
///
/// The queue moves events by value (in, out and to their handler), so the
/// frequent ones are kept small (40 bytes) and the rare, larger ones are
/// boxed as [`Rare`].
#[derive(Debug, Clone)]
pub(super) enum Event {
    // the machine of the most frequent events is shared: no allocation each
    Tick {
        machine: Rc<str>,
        pid: u64,
    },
    Raft {
        machine: Rc<str>,
        pid: u64,
        msg: Parcel,
    },
    /// A peer closed its streams to this process: a transport-only step.
    StreamCheck {
        machine: String,
        pid: u64,
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
    /// A sender's NIC queue has room for a message waiting in a rafthttp
    /// writer's buffer (`network::buffer`).
    NicRoom {
        machine: String,
    },
    /// A cut is as old as TCP's keepalive lets a stream across it live: what
    /// a dial finds may have changed (`network::dial`).
    CutAged,
    /// One of the rarer events.
    Rare(Box<Rare>),
}

/// The rarer events, larger than the frequent ones: boxed in [`Event::Rare`].
#[derive(Debug, Clone)]
pub(super) enum Rare {
    /// A merged snapshot reaches its follower (rafthttp's snapshot POST); the
    /// sender, process `from_pid` on `from`, hears back once raft has it.
    Snapshot {
        machine: Rc<str>,
        pid: u64,
        msg: Parcel,
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
    ClientArrive {
        machine: String,
        req: u64,
        request: Request,
        /// Handed over by another member (promote goes to the leader over peer HTTP).
        forwarded: bool,
    },
    /// TCP retransmits what waits on `machine`'s connection `conn` to
    /// `target`, which a cut stalled (`network::buffer`).
    Retransmit {
        machine: String,
        target: String,
        conn: Conn,
    },
    /// A joining member's dial for `/downgrade/enabled` timed out
    /// (`processes.rs`): `error` is Go's.
    JoinDialFailed {
        machine: String,
        req: u64,
        error: String,
    },
}

impl From<Rare> for Event {
    fn from(rare: Rare) -> Event {
        Event::Rare(Box::new(rare))
    }
}

impl Event {
    /// The machine an event is for, when it must exist as the event is
    /// scheduled, and the process when it must be the one running then (a
    /// raft message goes where a dial just found it). A snapshot's answer
    /// may find its sender gone, and a reply goes to a client, not a machine.
    fn must_find(&self) -> Option<(&str, Option<u64>)> {
        match self {
            Event::Raft { machine, pid, .. } => Some((machine, Some(*pid))),
            Event::Tick { machine, .. } => Some((machine, None)),
            Event::StreamCheck { machine, .. }
            | Event::StopCheck { machine, .. }
            | Event::Wake { machine, .. }
            | Event::NicRoom { machine } => Some((machine, None)),
            Event::CutAged | Event::ClientReply { .. } => None,
            Event::Rare(rare) => match &**rare {
                Rare::Snapshot { machine, pid, .. } => Some((machine, Some(*pid))),
                Rare::ClientArrive { machine, .. } | Rare::Retransmit { machine, .. } => {
                    Some((machine, None))
                }
                Rare::SnapshotDone { .. } | Rare::JoinDialFailed { .. } => None,
            },
        }
    }
}

/// The clock's state: only this room changes it.
pub(super) struct Clock {
    now_ms: u64,
    wall_offset_ms: i64,
    /// The queued events' slots by (time, then the order they were
    /// scheduled in). The events stay where they were put.
    queue: Timeline,
    /// The queued events, each in the slot the queue names; `None`: free.
    slots: Vec<Option<Event>>,
    /// Free slots, reused before `slots` grows.
    free: Vec<usize>,
    /// Events handled since the world began: the simulation's unit of work.
    events: u64,
    /// Where the clock must stop, if anywhere.
    budget: Budget,
    /// Which bound stopped the clock, since the last [`World::take_spent`].
    spent: Option<Spent>,
}

impl Clock {
    pub(super) fn new() -> Clock {
        Clock {
            now_ms: 0,
            wall_offset_ms: 0,
            queue: Timeline::default(),
            slots: Vec::new(),
            free: Vec::new(),
            events: 0,
            budget: Budget::NONE,
            spent: None,
        }
    }

    /// The clock's promises, checked at the world's door (debug builds):
    /// nothing in the queue is due before now.
    pub(super) fn debug_check(&self) {
        debug_assert!(
            self.queue.peek_time().is_none_or(|t| t >= self.now_ms),
            "an event is due at {:?} ms, before now ({} ms)",
            self.queue.peek_time(),
            self.now_ms
        );
        debug_assert_eq!(
            self.queue.len() + self.free.len(),
            self.slots.len(),
            "every slot is queued or free"
        );
    }
}

impl World {
    /// Simulated milliseconds since the start.
    pub fn now_ms(&self) -> u64 {
        self.clock.now_ms
    }

    /// The simulated wall clock, Unix milliseconds.
    pub fn wall_ms(&self) -> i64 {
        start_unix_ms() + self.clock.now_ms as i64 + self.clock.wall_offset_ms
    }

    pub fn stamp(&self) -> Stamp {
        Stamp::from_unix_ms(self.wall_ms())
    }

    /// Events handled since the world began (timer ticks, messages, client
    /// calls): the unit a [`Budget`] counts.
    pub fn events(&self) -> u64 {
        self.clock.events
    }

    /// From now on the clock stops where `budget` says (replacing any
    /// earlier budget); [`Self::take_spent`] tells whether it did.
    pub fn set_budget(&mut self, budget: Budget) {
        self.clock.budget = budget;
    }

    /// The budget in force.
    pub fn budget(&self) -> Budget {
        self.clock.budget
    }

    /// Which bound stopped the clock since the last call, if one did.
    pub fn take_spent(&mut self) -> Option<Spent> {
        self.clock.spent.take()
    }

    /// `date -s`: the wall clock shows `unix_secs` from now on.
    pub(super) fn set_date(&mut self, unix_secs: i64) {
        // years 0..=9999 only (the shell checks), so this cannot overflow
        let secs = unix_secs.clamp(-62_167_219_200, 253_402_300_799);
        self.clock.wall_offset_ms = secs * 1000 - start_unix_ms() - self.clock.now_ms as i64;
    }

    /// Puts `ev` in the queue, due `after_ms` from now.
    pub(super) fn schedule(&mut self, after_ms: u64, ev: Event) {
        debug_assert!(
            ev.must_find().is_none_or(|(machine, pid)| match pid {
                Some(pid) => self.pid_of(machine) == Some(pid),
                None => self.machines.contains_key(machine),
            }),
            "an event for a machine or process that is not there: {ev:?}"
        );
        let c = &mut self.clock;
        let slot = match c.free.pop() {
            Some(slot) => {
                c.slots[slot] = Some(ev);
                slot
            }
            None => {
                c.slots.push(Some(ev));
                c.slots.len() - 1
            }
        };
        c.queue.push(c.now_ms + after_ms, slot);
    }

    /// Runs events until `until_ms`, or until `done` says so after an event,
    /// or until the [`Budget`] stops the clock: at its moment, or (its events
    /// handled) where the last event left it.
    pub(super) fn run_until(&mut self, until_ms: u64, done: impl Fn(&World) -> bool) {
        let stop_ms = self
            .clock
            .budget
            .until_ms
            .map_or(until_ms, |b| until_ms.min(b));
        loop {
            if done(self) {
                return;
            }
            let c = &mut self.clock;
            if c.budget.until_events.is_some_and(|e| c.events >= e) {
                // out of work, with an event due: the budget stopped it
                if c.queue.peek_time().is_some_and(|t| t <= stop_ms) {
                    c.spent = Some(Spent::Work);
                    return;
                }
                break;
            }
            let Some((t, slot)) = c.queue.pop_due(stop_ms) else {
                break;
            };
            let Some(ev) = c.slots.get_mut(slot).and_then(Option::take) else {
                break;
            };
            c.free.push(slot);
            self.record_frame_before(t);
            self.clock.now_ms = t;
            self.clock.events += 1;
            self.handle(ev);
            self.check_invariants_now();
        }
        self.record_frame_before(stop_ms);
        self.clock.now_ms = self.clock.now_ms.max(stop_ms);
        if stop_ms < until_ms {
            self.clock.spent = Some(Spent::Time);
        }
    }

    /// Hands an event to the room it is for.
    fn handle(&mut self, ev: Event) {
        match ev {
            Event::Tick { machine, pid } => self.on_tick(machine, pid),
            Event::Raft { machine, pid, msg } => self.on_raft(&machine, pid, msg),
            Event::ClientReply { req, result } => self.on_client_reply(req, *result),
            Event::Wake { machine, pid } => self.on_wake(&machine, pid),
            Event::StreamCheck { machine, pid } => self.stream_check(&machine, pid),
            Event::StopCheck { machine, pid } => self.on_stop_check(&machine, pid),
            Event::NicRoom { machine } => self.on_nic_room(&machine),
            Event::CutAged => self.net.topology_changed(),
            Event::Rare(rare) => self.handle_rare(*rare),
        }
    }

    /// [`Self::handle`] for the rarer events, out of its way.
    #[inline(never)]
    fn handle_rare(&mut self, rare: Rare) {
        match rare {
            Rare::Snapshot {
                machine,
                pid,
                msg,
                from,
                from_pid,
            } => self.on_snapshot(&machine, pid, msg, (&from, from_pid)),
            Rare::SnapshotDone {
                machine,
                pid,
                to,
                error,
            } => self.on_snapshot_done(&machine, pid, to, error),
            Rare::ClientArrive {
                machine,
                req,
                request,
                forwarded,
            } => self.on_client_arrive(&machine, req, request, forwarded),
            Rare::Retransmit {
                machine,
                target,
                conn,
            } => self.on_retransmit(&machine, &target, conn),
            Rare::JoinDialFailed {
                machine,
                req,
                error,
            } => self.on_join_dial_failed(&machine, req, error),
        }
    }
}
