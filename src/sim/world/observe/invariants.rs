//! The invariants watcher: when a test asks, Raft's and etcd's promises
//! (`sim::invariants`) are checked after every event.

use crate::sim::invariants::Violation;
use crate::sim::world::World;

impl World {
    /// Checks Raft's and etcd's promises after every event from now on
    /// (`sim::invariants`); [`Self::violations`] says what broke.
    pub fn check_invariants(&mut self) {
        self.observe.invariants.get_or_insert_with(Default::default);
        self.check_invariants_now();
    }

    /// What broke since [`Self::check_invariants`], in order.
    pub fn violations(&self) -> &[Violation] {
        self.observe
            .invariants
            .as_ref()
            .map_or(&[], |c| &c.violations)
    }

    #[inline(always)]
    pub(in crate::sim::world) fn check_invariants_now(&mut self) {
        // run for every event: no call unless a test asked
        if self.observe.invariants.is_some() {
            self.check_invariants_all();
        }
    }

    /// [`Self::check_invariants_now`] while a test watches.
    fn check_invariants_all(&mut self) {
        let Some(checker) = self.observe.invariants.as_mut() else {
            return;
        };
        for (name, m) in &self.machines {
            if let Some(p) = &m.process {
                checker.observe_server(name, p.pid, &p.server);
            }
        }
    }

    /// A new cluster begins under `cluster_id` (a fresh bootstrap, a forced
    /// new cluster, a restore): its history starts over.
    pub(in crate::sim::world) fn forget_cluster(&mut self, cluster_id: u64) {
        if let Some(c) = self.observe.invariants.as_mut() {
            c.forget_cluster(cluster_id);
        }
    }
}
