//! The machines room: machines by name, their addresses, power and disks,
//! and the hosts table that names addresses. What runs on a machine is the
//! processes room's (`processes.rs`).

use std::collections::{BTreeMap, BTreeSet};

use super::{Held, Process, World, WorldError};
use crate::sim::budget;
use crate::sim::etcd::datadir::DataDir;
use crate::sim::etcd::request::SnapshotData;
use crate::sim::etcd::version::EtcdVersion;

/// Something that can be on a machine's disk.
#[derive(Debug, Clone)]
pub enum DiskItem {
    DataDir(Box<DataDir>),
    Snapshot(SnapshotData),
}

/// A machine.
pub struct Machine {
    pub name: String,
    pub addrs: Vec<String>,
    pub up: bool,
    pub disk: BTreeMap<String, DiskItem>,
    pub process: Option<Process>,
    /// How the last etcd process on this machine ended, if it did.
    pub last_exit: Option<super::ExitInfo>,
    /// The etcd installed: what `etcd` starts, and which etcdctl runs here.
    pub etcd: EtcdVersion,
}

impl World {
    pub(super) fn machine_mut(&mut self, name: &str) -> Result<&mut Machine, WorldError> {
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

    pub(super) fn add_machine(
        &mut self,
        name: String,
        mut addrs: Vec<String>,
    ) -> Result<(), WorldError> {
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
            etcd: EtcdVersion::default(),
        };
        self.machines.insert(name, m);
        Ok(())
    }

    /// `machine etcd-version`: another etcd on a machine whose etcd is not
    /// running (a rolling upgrade stops a member, switches, starts it again).
    pub(super) fn install_etcd(&mut self, name: &str, etcd: EtcdVersion) -> Result<(), WorldError> {
        let joining = self.joining(name);
        let m = self.machine_mut(name)?;
        if m.process.is_some() || joining {
            return Err(WorldError::EtcdRunning(name.to_string()));
        }
        m.etcd = etcd;
        Ok(())
    }

    /// `machine rm`: the machine goes, and with it its links and streams.
    pub(super) fn remove_machine(&mut self, name: &str) -> Result<(), WorldError> {
        self.power_off(name)?;
        self.machines.remove(name);
        self.forget_links(name);
        Ok(())
    }

    pub(super) fn power_off(&mut self, name: &str) -> Result<(), WorldError> {
        // down first: what it was doing vanishes, nothing is closed
        self.machine_mut(name)?.up = false;
        self.end_join(name, 137, "killed (power off)");
        self.end_process(name, 137, "killed (power off)");
        Ok(())
    }

    pub(super) fn power_on(&mut self, name: &str) -> Result<(), WorldError> {
        self.machine_mut(name)?.up = true;
        Ok(())
    }

    /// `hosts set`: `name` resolves to `addr` everywhere.
    pub(super) fn set_host(&mut self, name: String, addr: String) -> Result<(), WorldError> {
        if !self.hosts.contains_key(&name) && self.hosts.len() >= budget::MAX_HOSTS {
            return Err(WorldError::TooMany {
                what: Held::Hosts,
                max: budget::MAX_HOSTS,
            });
        }
        self.hosts.insert(name, addr);
        Ok(())
    }

    pub(super) fn owner_of(&self, addr: &str) -> Option<&str> {
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

    // ----- disks -----

    /// Puts a file or a data dir at `path` on `machine`'s disk.
    pub(super) fn put_file(
        &mut self,
        machine: &str,
        path: String,
        item: DiskItem,
    ) -> Result<(), WorldError> {
        self.machine_mut(machine)?.disk.insert(path, item);
        Ok(())
    }

    pub(super) fn remove_paths(
        &mut self,
        machine: &str,
        paths: &[String],
    ) -> Result<(), WorldError> {
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

    /// `cp` / `scp`: copies a file or a whole data dir, possibly to another machine.
    pub(super) fn copy(
        &mut self,
        from: &str,
        src: &str,
        to: &str,
        dst: &str,
    ) -> Result<(), WorldError> {
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

    /// The machines' promises, checked at the world's door (debug builds):
    /// each is filed under its name, which is one of its addresses; no
    /// address belongs to two machines; a process runs only on a machine
    /// that is up, under a pid of its own; the budget's bounds hold.
    pub(super) fn debug_check_machines(&self) {
        let mut owners: BTreeMap<&str, &str> = BTreeMap::new();
        let mut pids = BTreeSet::new();
        for (name, m) in &self.machines {
            debug_assert_eq!(name, &m.name);
            debug_assert!(m.addrs.contains(name), "{name} lacks its own name");
            for a in &m.addrs {
                let owner = owners.insert(a, name);
                debug_assert!(
                    owner.is_none_or(|o| o == name.as_str()),
                    "{a}: {owner:?} and {name}"
                );
            }
            if let Some(p) = &m.process {
                debug_assert!(m.up, "a process runs on {name}, which is down");
                debug_assert!(
                    p.pid <= self.next_pid && pids.insert(p.pid),
                    "pid {}",
                    p.pid
                );
            }
        }
        debug_assert!(self.machines.len() <= budget::MAX_MACHINES);
        debug_assert!(self.hosts.len() <= budget::MAX_HOSTS);
    }
}

/// `rm` path matching: exact, a path under it, or a trailing-`*` glob.
fn path_matches(pattern: &str, path: &str) -> bool {
    let pattern = pattern.trim_end_matches('/');
    if let Some(prefix) = pattern.strip_suffix('*') {
        return path.starts_with(prefix);
    }
    path == pattern || path.starts_with(&format!("{pattern}/"))
}
