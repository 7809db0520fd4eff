//! The work budget: how much one world may hold, and how much work one command
//! or one replay may make it do.
//!
//! A stranger's share link, an imported script, a host page's `run` message, a
//! lesson or a person at the keyboard all drive the same world, and the page
//! runs it synchronously. Without bounds, 1,200 `machine add` lines or a day
//! of a hundred clusters hold the tab for minutes and gigabytes. So every world
//! is bounded in what it holds (machines, addresses, host names, members of a
//! cluster) and, when its driver asks, in what it does: a [`Budget`] stops the
//! clock at a moment, or after a number of handled events (timer ticks and
//! messages: the simulation's unit of work, which is deterministic, unlike a
//! wall clock). What ran out is reported as a [`Spent`], and the caller says so.
//!
//! The numbers were chosen by measurement (`cargo run --release --bin bench`
//! prints the events of each workload; the README's "Limits" section has the
//! table): the largest lesson and the ten-minute benchmark run stay far below
//! every bound, while the attacks in the fuzz corpus (`tests/fuzz_found.rs`)
//! hit one within a few seconds of work.

/// The most machines a world holds. Each machine runs at most one etcd, so
/// this bounds etcd processes too. The map and tables stay readable at this
/// size (every pair of machines is a link on the map: 120 at 16).
pub const MAX_MACHINES: usize = 16;

/// The most addresses one machine has (its name included).
pub const MAX_ADDRESSES: usize = 8;

/// The most names `hosts set` may add.
pub const MAX_HOSTS: usize = 64;

/// The most members one cluster holds (voters and learners). Real etcd has no
/// such bound; a member that no process serves still costs every peer a
/// stream to dial, so a cluster of thousands would freeze the page. With one
/// etcd a machine, a cluster that can still commit has at most
/// `2 * MAX_MACHINES - 1` voters (a majority of them running) and a learner.
pub const MAX_MEMBERS: usize = 2 * MAX_MACHINES;

/// The most events one command may handle: about six simulated hours of the
/// page's three-member cluster (250,000 events an hour), a second or two of
/// the browser's time, for which the page does not paint. A longer `sleep`
/// stops there and says so.
pub const COMMAND_EVENTS: u64 = 1_500_000;

/// The most events one `etcdctl check` (`perf` or `datascale`) may handle
/// when a person types it: the workload is declared by its `--load` (up to
/// 1,000,000 puts of about 7 events each for `datascale --load=l`, a 1 GB
/// data set), and the person asked for all of it, so it runs whole. A replay
/// (a link, an Import, a lesson, a rewind) still stops it at
/// [`REPLAY_EVENTS`] over all its commands, so a stranger's link stays
/// bounded; `--load=xl` (3,000,000 puts) stops here and says so.
pub const CHECK_EVENTS: u64 = 10_000_000;

/// The events one command may handle: [`CHECK_EVENTS`] for an `etcdctl
/// check` workload (`check_workload`: what the shell parsed the line as, so
/// `echo etcdctl check perf` or a comment is not one), [`COMMAND_EVENTS`]
/// for every other command.
pub fn command_events(check_workload: bool) -> u64 {
    if check_workload {
        CHECK_EVENTS
    } else {
        COMMAND_EVENTS
    }
}

/// The most events a whole replay (a link, an Import, a lesson, a rewind)
/// may handle, over all its commands: 33 times the ten-minute benchmark run
/// (89,000 events) and 240 times the largest lesson (12,000), a few seconds
/// of the browser's time, which the page spends in parts, painting between.
pub const REPLAY_EVENTS: u64 = 3_000_000;

/// The most simulated time a replay may run, from the moment its world began.
pub const REPLAY_MS: u64 = 24 * 3600 * 1000;

/// Where a world's clock must stop: absolute bounds, either of which may be
/// absent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Budget {
    /// The clock does not run past this simulated moment.
    pub until_ms: Option<u64>,
    /// No event is handled once the world has handled this many in all.
    pub until_events: Option<u64>,
}

impl Budget {
    /// No bound at all.
    pub const NONE: Budget = Budget {
        until_ms: None,
        until_events: None,
    };

    /// The tighter of two budgets, bound by bound.
    #[must_use]
    pub fn min(self, other: Budget) -> Budget {
        let min = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Budget {
            until_ms: min(self.until_ms, other.until_ms),
            until_events: min(self.until_events, other.until_events),
        }
    }
}

/// Which bound of a [`Budget`] stopped the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spent {
    /// The clock reached `until_ms`.
    Time,
    /// The world handled `until_events` events.
    Work,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal etcd's request layer prints names this bound.
    #[test]
    fn the_member_refusal_names_the_bound() {
        let (_, text) = crate::sim::etcd::request::ServerError::Member(
            crate::sim::etcd::membership::MemberError::TooManyMembers,
        )
        .status();
        assert!(text.contains(&format!("at most {MAX_MEMBERS})")), "{text}");
    }

    #[test]
    fn min_takes_each_bound_from_whichever_has_the_tighter() {
        let a = Budget {
            until_ms: Some(10),
            until_events: None,
        };
        let b = Budget {
            until_ms: Some(20),
            until_events: Some(5),
        };
        assert_eq!(
            a.min(b),
            Budget {
                until_ms: Some(10),
                until_events: Some(5)
            }
        );
        assert_eq!(Budget::NONE.min(Budget::NONE), Budget::NONE);
        assert_eq!(Budget::NONE.min(a), a);
    }
}
