//! The commands the page's buttons stand for. A button never changes the world
//! itself: it types one of these lines into the terminal, so people learn the
//! commands by clicking. Each function reads a `WorldView` and returns the line
//! (with a `HOST$` prompt where it matters), or `None` when the button has no
//! sensible command now (no running member to ask, for example).

use super::command::{self, Command, Docker, Machine, Net, Op};
use super::parse::{self, Prompt};
use crate::sim::quorum::Change;
use crate::sim::view::{MachineView, ProcessView, Role, WorldView};

/// The peer port and client port etcd uses by default.
const PEER_PORT: u16 = 2380;
const CLIENT_PORT: u16 = 2379;

/// The machine an `etcdctl` button runs on: the leader's, else the first with a
/// running, ready voter, else the first with any voter running (a learner
/// answers only `endpoint status` and serializable reads, so never a learner).
pub fn via(view: &WorldView) -> Option<&str> {
    let voters = || {
        view.machines
            .iter()
            .filter(|m| m.process.as_ref().is_some_and(|p| p.role != Role::Learner))
    };
    let leader = voters().find(|m| m.process.as_ref().is_some_and(|p| p.role == Role::Leader));
    leader
        .or_else(|| voters().find(|m| m.process.as_ref().is_some_and(|p| p.ready)))
        .or_else(|| voters().next())
        .map(|m| m.name.as_str())
}

/// `VIA$ etcdctl` with `--endpoints=` when the machine's etcd does not listen on
/// the loopback address etcdctl uses by default (`127.0.0.1:2379`).
fn etcdctl(view: &WorldView) -> Option<String> {
    let name = via(view)?;
    let m = machine(view, name)?;
    let p = m.process.as_ref()?;
    let local = p.listen_client_urls.iter().any(|u| {
        ["//0.0.0.0:", "//127.0.0.1:", "//localhost:", "//[::]:"]
            .iter()
            .any(|h| u.contains(h))
    });
    if local {
        return Some(format!("{name}$ etcdctl"));
    }
    let ep = p
        .members
        .iter()
        .find(|x| x.id == p.id)
        .and_then(|x| x.client_urls.first().cloned())
        .or_else(|| p.listen_client_urls.first().cloned())?;
    Some(format!("{name}$ etcdctl --endpoints={ep}"))
}

/// `machine add nodeNN 192.168.0.(60+NN)` with the first free number.
pub fn add_machine(view: &WorldView) -> String {
    let taken = |n: u32| {
        let name = format!("node{n:02}");
        let addr = format!("192.168.0.{}", 60 + n);
        view.machines
            .iter()
            .any(|m| m.name.eq_ignore_ascii_case(&name) || m.addrs.contains(&addr))
    };
    let n = (1..=190).find(|n| !taken(*n)).unwrap_or(190);
    format!("machine add node{n:02} 192.168.0.{}", 60 + n)
}

/// The address a machine's etcd advertises: its first address that is not its name.
pub fn address(m: &MachineView) -> &str {
    m.addrs
        .iter()
        .find(|a| **a != m.name)
        .unwrap_or(&m.name)
        .as_str()
}

fn peer_url(m: &MachineView) -> String {
    format!("http://{}:{PEER_PORT}", address(m))
}

fn machine<'a>(view: &'a WorldView, name: &str) -> Option<&'a MachineView> {
    view.machines.iter().find(|m| m.name == name)
}

/// The member list as the cluster sees it: from the leader, else the running
/// process with the highest applied index.
pub fn members(view: &WorldView) -> Option<&ProcessView> {
    let procs = || view.machines.iter().filter_map(|m| m.process.as_ref());
    procs()
        .find(|p| p.role == Role::Leader)
        .or_else(|| procs().max_by_key(|p| (p.applied, p.term)))
}

/// `HOST$ etcd …` for a machine: joins the cluster if it is a member (state
/// `existing`), starts a one-member cluster if no cluster exists yet, and
/// restarts from its data dir if it has one (etcd then ignores the
/// `--initial-*` flags). `None` if it is already running, powered off, or not a
/// member of an existing cluster (add it first).
pub fn start_etcd(view: &WorldView, name: &str) -> Option<String> {
    let m = machine(view, name)?;
    if m.process.is_some() || m.joining || !m.up {
        return None;
    }
    let url = peer_url(m);
    let has_dir = m.disk.iter().any(|d| *d == format!("{name}.etcd/"));
    let cluster = members(view).map(|p| p.members.clone()).unwrap_or_default();
    let (initial, state) = if cluster.is_empty() {
        // No etcd runs anywhere: a new one-member cluster, unless some machine
        // keeps a data dir (then that cluster's members must be restarted, not
        // replaced by a new cluster).
        let dirs_elsewhere = view
            .machines
            .iter()
            .any(|x| x.name != name && x.disk.iter().any(|d| d.ends_with(".etcd/")));
        if dirs_elsewhere && !has_dir {
            return None;
        }
        (format!("{name}={url}"), "new")
    } else {
        let me = cluster.iter().find(|mem| mem.peer_urls.contains(&url));
        if me.is_none() && !has_dir {
            return None;
        }
        // As `member add` prints ETCD_INITIAL_CLUSTER: every peer URL of every
        // member, unstarted ones with an empty name.
        let parts: Vec<String> = cluster
            .iter()
            .flat_map(|mem| {
                let n = if mem.peer_urls.contains(&url) {
                    name
                } else {
                    mem.name.as_str()
                };
                mem.peer_urls.iter().map(move |u| format!("{n}={u}"))
            })
            .collect();
        (parts.join(","), if has_dir { "new" } else { "existing" })
    };
    let addr = address(m);
    let mut line = format!(
        "{name}$ etcd --name {name} --initial-advertise-peer-urls {url} \
         --listen-peer-urls http://0.0.0.0:{PEER_PORT} \
         --advertise-client-urls http://{addr}:{CLIENT_PORT} \
         --listen-client-urls http://0.0.0.0:{CLIENT_PORT} --initial-cluster {initial}"
    );
    if state == "existing" {
        line.push_str(" --initial-cluster-state existing");
    }
    Some(line)
}

/// `HOST$ kill etcd` (graceful) or `kill -9 etcd` (a crash).
pub fn stop(name: &str, crash: bool) -> String {
    if crash {
        format!("{name}$ kill -9 etcd")
    } else {
        format!("{name}$ kill etcd")
    }
}

/// `machine down NAME` / `machine up NAME`.
pub fn power(name: &str, on: bool) -> String {
    format!("machine {} {name}", if on { "up" } else { "down" })
}

/// `HOST$ rm -rf NAME.etcd`: wipes the machine's data dir (its etcd must be stopped
/// for a real wipe; etcd keeps running on a deleted dir otherwise).
pub fn wipe(name: &str) -> String {
    format!("{name}$ rm -rf {name}.etcd")
}

/// `VIA$ etcdctl member add NAME --peer-urls=URL [--learner]` for a machine.
pub fn member_add(view: &WorldView, name: &str, learner: bool) -> Option<String> {
    let m = machine(view, name)?;
    let flag = if learner { " --learner" } else { "" };
    Some(format!(
        "{} member add {name} --peer-urls={}{flag}",
        etcdctl(view)?,
        peer_url(m)
    ))
}

/// `VIA$ etcdctl member remove ID`.
pub fn member_remove(view: &WorldView, id: u64) -> Option<String> {
    Some(format!("{} member remove {id:x}", etcdctl(view)?))
}

/// `VIA$ etcdctl member promote ID`.
pub fn promote(view: &WorldView, id: u64) -> Option<String> {
    Some(format!("{} member promote {id:x}", etcdctl(view)?))
}

/// `VIA$ etcdctl move-leader ID` (VIA is the leader's machine when there is one:
/// etcdctl sends move-leader to the endpoint it is given, which must lead).
pub fn move_leader(view: &WorldView, id: u64) -> Option<String> {
    Some(format!("{} move-leader {id:x}", etcdctl(view)?))
}

/// `VIA$ etcdctl put KEY VALUE`.
pub fn put(view: &WorldView, key: &str, value: &str) -> Option<String> {
    Some(format!("{} put {key} {value}", etcdctl(view)?))
}

/// `net cut A B`, `net cut A->B` (one way) or `net heal A B`.
pub fn link(a: &str, b: &str, cut: bool, one_way: bool) -> String {
    match (cut, one_way) {
        (true, false) => format!("net cut {a} {b}"),
        (true, true) => format!("net cut {a}->{b}"),
        (false, _) => format!("net heal {a} {b}"),
    }
}

/// The latency the "Delay" button gives a link: a WAN, slower than a
/// heartbeat's 100 ms interval.
pub const DELAY_EXAMPLE: &str = "200ms";
/// The loss the "Loss" button gives a link.
pub const LOSS_EXAMPLE: &str = "5%";
/// The egress rate the "Limit NIC" button gives a machine.
pub const RATE_EXAMPLE: &str = "1mbit";

/// `net delay A B 200ms`: both links between `a` and `b`.
pub fn delay(a: &str, b: &str) -> String {
    format!("net delay {a} {b} {DELAY_EXAMPLE}")
}

/// `net loss A B 5%`: both links between `a` and `b`.
pub fn loss(a: &str, b: &str) -> String {
    format!("net loss {a} {b} {LOSS_EXAMPLE}")
}

/// `net rate A 1mbit`: machine `a`'s NIC (its queue keeps the default limit).
pub fn rate(a: &str) -> String {
    format!("net rate {a} {RATE_EXAMPLE}")
}

/// `net clear A B` (both links between them) or `net clear A` (its NIC).
pub fn clear(a: &str, b: Option<&str>) -> String {
    match b {
        Some(b) => format!("net clear {a} {b}"),
        None => format!("net clear {a}"),
    }
}

/// The member a machine runs, as the cluster's member list knows it (by peer URL).
pub fn member_of(view: &WorldView, name: &str) -> Option<u64> {
    let m = machine(view, name)?;
    if let Some(p) = &m.process {
        return Some(p.id);
    }
    let url = peer_url(m);
    members(view)?
        .members
        .iter()
        .find(|mem| mem.peer_urls.contains(&url))
        .map(|mem| mem.id)
}

/// The change a typed line would make to membership or to quorum, for the
/// forecast the page shows while it is typed (see [`change`]). `current` is the
/// machine a line without a prompt runs on.
pub fn change_of(view: &WorldView, current: Option<&str>, line: &str) -> Option<Change> {
    let (prompt, text) = parse::split_prompt(line.trim());
    let host = match &prompt {
        Prompt::Host(h) => view
            .machines
            .iter()
            .find(|m| m.name.eq_ignore_ascii_case(h))
            .map(|m| m.name.as_str()),
        _ => current,
    };
    change(view, host, &command::read(&text)?.command)
}

/// The change a command would make to membership or to quorum: `member
/// add|remove|promote`, `kill`, `docker stop`, `machine down|rm`, `net cut A B`,
/// and starting etcd. `host` is the machine it runs on.
pub fn change(view: &WorldView, host: Option<&str>, c: &Command) -> Option<Change> {
    let on_host = || host.map(str::to_string);
    let id = |s: &str| u64::from_str_radix(s, 16).ok();
    match c {
        Command::Kill(Some((_, target))) if target == "etcd" => Some(Change::Stop {
            machine: on_host()?,
        }),
        Command::Docker(Docker::Stop) => Some(Change::Stop {
            machine: on_host()?,
        }),
        Command::Machine(Machine::Down(name) | Machine::Rm(name)) => Some(Change::PowerOff {
            machine: name.clone(),
        }),
        Command::Net(Net::Cut(a, b)) => Some(Change::Cut {
            a: a.clone(),
            b: b.clone(),
        }),
        Command::Etcd(_) | Command::Docker(Docker::Run(_)) => Some(Change::Start {
            machine: on_host()?,
        }),
        Command::Etcdctl(e) => match e.op()? {
            (Op::MemberAdd, [name, ..]) if e.flags.on("learner") => {
                Some(Change::AddLearner { name: name.clone() })
            }
            (Op::MemberAdd, [name, ..]) => Some(Change::AddVoter {
                name: name.clone(),
                started: view
                    .machines
                    .iter()
                    .any(|m| m.name == *name && m.process.is_some()),
            }),
            (Op::MemberRemove, [x, ..]) => Some(Change::Remove { id: id(x)? }),
            (Op::MemberPromote, [x, ..]) => Some(Change::Promote { id: id(x)? }),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::session::Session;

    fn boot() -> Session {
        let mut s = Session::new(1);
        let script = include_str!("../ui/boot.sh");
        for c in crate::shell::parse::parse_script(script).expect("boot parses") {
            s.run(&c.prompt, &c.text);
        }
        s
    }

    fn run(s: &mut Session, line: &str) -> String {
        let ex = s.run_typed(line);
        ex.output.merged()
    }

    #[test]
    fn the_network_buttons_type_commands_the_shell_runs() {
        let mut s = boot();
        for line in [
            delay("node01", "node02"),
            loss("node01", "node03"),
            rate("node02"),
        ] {
            assert_eq!(run(&mut s, &line), "", "{line}");
            assert_eq!(change_of(&s.world.view(), None, &line), None, "{line}");
        }
        let v = s.world.view();
        assert_eq!(v.net_links.len(), 4);
        assert!(v
            .net_links
            .iter()
            .any(|l| l.from == "node02" && l.to == "node01" && l.spec.latency_ms == 200));
        assert!(v
            .net_links
            .iter()
            .any(|l| l.from == "node03" && l.to == "node01" && l.spec.loss_ppm == 50_000));
        assert_eq!(v.nics.len(), 1);
        assert_eq!(v.nics[0].spec.rate_bps, 1_000_000);
        for line in [
            clear("node01", Some("node02")),
            clear("node03", Some("node01")),
            clear("node02", None),
        ] {
            assert_eq!(run(&mut s, &line), "", "{line}");
        }
        let v = s.world.view();
        assert!(v.net_links.is_empty() && v.nics.is_empty());
    }

    #[test]
    fn a_learner_is_added_started_and_promoted_with_button_commands() {
        let mut s = boot();
        // etcd refuses a member add until every voter has been connected for 5 s.
        run(&mut s, "sleep 3");
        let add = add_machine(&s.world.view());
        assert_eq!(add, "machine add node04 192.168.0.64");
        run(&mut s, &add);
        let line = member_add(&s.world.view(), "node04", true).expect("a member to ask");
        assert!(line
            .ends_with("etcdctl member add node04 --peer-urls=http://192.168.0.64:2380 --learner"));
        let out = run(&mut s, &line);
        assert!(out.contains("added to cluster"), "{out}");
        let start = start_etcd(&s.world.view(), "node04").expect("a start command");
        assert!(start.starts_with("node04$ etcd --name node04"), "{start}");
        assert!(
            start.ends_with("--initial-cluster-state existing"),
            "{start}"
        );
        run(&mut s, &start);
        run(&mut s, "sleep 3");
        let v = s.world.view();
        let id = member_of(&v, "node04").expect("node04 is a member");
        let node04 = v.machines.iter().find(|m| m.name == "node04").expect("m");
        assert_eq!(node04.process.as_ref().map(|p| p.role), Some(Role::Learner));
        let out = run(&mut s, &promote(&v, id).expect("promote"));
        assert!(out.contains("promoted in cluster"), "{out}");
        run(&mut s, "sleep 1");
        let v = s.world.view();
        let node04 = v.machines.iter().find(|m| m.name == "node04").expect("m");
        assert_eq!(
            node04.process.as_ref().map(|p| p.role),
            Some(Role::Follower)
        );
    }

    #[test]
    fn stop_restart_and_remove_commands() {
        let mut s = boot();
        run(&mut s, &stop("node02", false));
        let v = s.world.view();
        assert!(v
            .machines
            .iter()
            .any(|m| m.name == "node02" && m.process.is_none()));
        let again = start_etcd(&v, "node02").expect("restart from its data dir");
        run(&mut s, &again);
        run(&mut s, "sleep 2");
        let v = s.world.view();
        let id = member_of(&v, "node03").expect("node03");
        let out = run(&mut s, &member_remove(&v, id).expect("remove"));
        assert!(out.contains("removed from cluster"), "{out}");
        assert!(
            start_etcd(&s.world.view(), "node01").is_none(),
            "already running"
        );
    }

    #[test]
    fn an_empty_world_starts_a_one_member_cluster() {
        let mut s = Session::new(1);
        let add = add_machine(&s.world.view());
        assert_eq!(add, "machine add node01 192.168.0.61");
        run(&mut s, &add);
        let start = start_etcd(&s.world.view(), "node01").expect("start");
        assert!(start.contains("--initial-cluster node01=http://192.168.0.61:2380"));
        assert!(!start.contains("existing"));
        run(&mut s, &start);
        run(&mut s, "sleep 2");
        let out = run(&mut s, "etcdctl put foo bar");
        assert_eq!(out, "OK\n");
        assert!(member_add(&s.world.view(), "nobody", false).is_none());
    }

    #[test]
    fn typed_lines_map_to_the_changes_they_forecast() {
        let s = boot();
        let v = s.world.view();
        let c = |line: &str| change_of(&v, Some("node01"), line);
        assert_eq!(
            c("etcdctl member add node04 --peer-urls=http://192.168.0.64:2380 --learner"),
            Some(Change::AddLearner {
                name: "node04".into()
            })
        );
        assert_eq!(
            c("etcdctl member add node04 --peer-urls=http://192.168.0.64:2380"),
            Some(Change::AddVoter {
                name: "node04".into(),
                started: false
            })
        );
        assert_eq!(
            c("etcdctl member remove 8e9e05c52164694d"),
            Some(Change::Remove {
                id: 0x8e9e05c52164694d
            })
        );
        assert_eq!(c("etcdctl member promote zz"), None);
        assert_eq!(
            c("node02$ kill -9 etcd"),
            Some(Change::Stop {
                machine: "node02".into()
            })
        );
        assert_eq!(
            c("kill etcd"),
            Some(Change::Stop {
                machine: "node01".into()
            })
        );
        assert_eq!(
            c("machine down node03"),
            Some(Change::PowerOff {
                machine: "node03".into()
            })
        );
        assert_eq!(
            c("net cut node01 node02"),
            Some(Change::Cut {
                a: "node01".into(),
                b: "node02".into()
            })
        );
        assert_eq!(c("etcdctl put foo bar"), None);
        assert_eq!(c(""), None);
        assert_eq!(c("nobody$ kill etcd"), None);
    }

    #[test]
    fn link_commands() {
        assert_eq!(link("a", "b", true, false), "net cut a b");
        assert_eq!(link("a", "b", true, true), "net cut a->b");
        assert_eq!(link("a", "b", false, true), "net heal a b");
    }
}
