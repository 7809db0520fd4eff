//! A shell session over one world: the current machine, each machine's variables,
//! the last exit status, and the commands of `design/shell.md` (world, processes
//! and disk, docker forms, network and time), each read once by
//! `shell::command` and turned into world actions.

use std::collections::BTreeMap;

use super::command::{self, Command, Curl, Docker, Etcd, Etcdutl, Line, Machine, Op, Signal};
use super::parse::{self, Prompt};
use super::{etcd_flags, etcdctl, Output};
use crate::sim::budget::{self, Budget, Spent};
use crate::sim::etcd::config::EtcdConfig;
use crate::sim::etcd::logfmt::{days_from_civil, Stamp};
use crate::sim::etcd::request::{Reply, Request, Response};
use crate::sim::etcd::version::EtcdVersion;
use crate::sim::world::{self, Action, CallResult, Held, World, WorldError};

mod netcmd;

/// A shell over a world.
pub struct Session {
    pub world: World,
    pub seed: u64,
    current: Option<String>,
    vars: BTreeMap<String, BTreeMap<String, String>>,
    /// Bytes of every variable's name and value, on every machine.
    var_bytes: usize,
    last_status: i32,
    /// A replay's bounds (`sim::budget`): every command runs inside them, as
    /// well as inside its own.
    replay: Budget,
    /// The playground's limits the commands met: how many times, and the
    /// first refusal's message (a replay's notice names it).
    limits: LimitsMet,
    /// Set while a command runs when it meets a limit.
    met: Option<String>,
    /// The etcd a `machine add` installs when it names none (the runner's
    /// `--etcd-version`).
    pub default_etcd: EtcdVersion,
}

/// The playground's own limits (`sim::budget`, the shell's sizes) that
/// commands met, as a replay's notice reports them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LimitsMet {
    /// Commands refused or stopped by a limit.
    pub commands: usize,
    /// What the first of them printed.
    pub first: Option<String>,
}

/// curl's default connect timeout (libcurl's `DEFAULT_CONNECT_TIMEOUT`).
const CURL_CONNECT_MS: u64 = 300_000;

/// `etcdutl` alone (or `--help`), as etcdutl 3.5.1 prints it.
const ETCDUTL_HELP: &str = "Usage:
  etcdutl [command]

Available Commands:
  backup      [legacy] offline backup of etcd directory
  defrag      Defragments the storage of the etcd
  help        Help about any command
  snapshot    Manages etcd node snapshots
  version     Prints the version of etcdutl

Flags:
  -h, --help               help for etcdutl
  -w, --write-out string   set the output format (fields, json, protobuf, simple, table) (default \"simple\")

Use \"etcdutl [command] --help\" for more information about a command.
";

/// The most bytes of variables (names and values, all machines together) a
/// session holds.
pub const MAX_VAR_BYTES: usize = 1 << 20;

/// What a command was, what it ran on and what it printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Executed {
    /// The command as the shell read it (None when its words could not be read,
    /// or its `HOST$` prompt named no machine).
    pub command: Option<Line>,
    /// The machine it ran on (None before any machine exists).
    pub machine: Option<String>,
    pub output: Output,
}

impl Session {
    pub fn new(seed: u64) -> Session {
        Session {
            world: World::new(seed),
            seed,
            current: None,
            vars: BTreeMap::new(),
            var_bytes: 0,
            last_status: 0,
            replay: Budget::NONE,
            limits: LimitsMet::default(),
            met: None,
            default_etcd: EtcdVersion::default(),
        }
    }

    /// The machine commands run on now.
    pub fn current(&self) -> Option<&str> {
        self.current.as_deref()
    }

    pub fn last_status(&self) -> i32 {
        self.last_status
    }

    /// Bounds every later command (and the time run between them) by a
    /// replay's budget: at most [`budget::REPLAY_EVENTS`] events and
    /// [`budget::REPLAY_MS`] of simulated time from now.
    pub fn start_replay(&mut self) {
        self.replay = Budget {
            until_ms: Some(self.world.now_ms().saturating_add(budget::REPLAY_MS)),
            until_events: Some(self.world.events().saturating_add(budget::REPLAY_EVENTS)),
        };
        self.world.set_budget(self.replay);
    }

    /// The replay is over (or was never started): only each command's own
    /// budget bounds what follows.
    pub fn end_replay(&mut self) {
        self.replay = Budget::NONE;
        self.world.set_budget(Budget::NONE);
    }

    /// The limits commands met since the last call (a replay asks at its end).
    pub fn take_limits(&mut self) -> LimitsMet {
        std::mem::take(&mut self.limits)
    }

    /// Which of the replay's bounds has been reached, if one has: then the
    /// world's clock no longer moves, and a replay should stop.
    pub fn replay_spent(&self) -> Option<Spent> {
        spent_of(self.replay, &self.world)
    }

    /// Runs one command line as typed in the terminal (a prompt is optional).
    pub fn run_typed(&mut self, line: &str) -> Executed {
        let (prompt, text) = parse::split_prompt(line);
        self.run(&prompt, &text)
    }

    /// Runs one command addressed by `prompt`.
    pub fn run(&mut self, prompt: &Prompt, text: &str) -> Executed {
        if let Prompt::Host(h) = prompt {
            match self.world.find_machine(h) {
                Some(m) => self.current = Some(m.to_string()),
                None => {
                    let mut out = Output::default();
                    out.err(&format!(
                        "ssh: Could not resolve hostname {}: Name or service not known",
                        h.to_lowercase()
                    ));
                    out.status = 255;
                    self.last_status = out.status;
                    return Executed {
                        command: None,
                        machine: self.current.clone(),
                        output: out,
                    };
                }
            }
        }
        let machine = self.current.clone();
        let (command, output) = self.budgeted(text);
        self.last_status = output.status;
        Executed {
            command,
            machine,
            output,
        }
    }

    /// Runs one command addressed by `prompt`, as a button of the page does:
    /// on the machine a `HOST$` prompt names, after which the current machine
    /// is the one it was (while it still exists). With no current machine
    /// yet, the command's machine becomes the current one, as with [`run`].
    ///
    /// [`run`]: Session::run
    pub fn run_on(&mut self, prompt: &Prompt, text: &str) -> Executed {
        let before = self.current.clone();
        let ex = self.run(prompt, text);
        if let Some(name) = before {
            if self.world.find_machine(&name).is_some() {
                self.current = Some(name);
            }
        }
        ex
    }

    /// Runs a command inside its own budget ([`budget::command_events`]) and
    /// the replay's; a command stopped by either says which, and fails with
    /// 124 (as `timeout` does) if it had not failed already.
    fn budgeted(&mut self, text: &str) -> (Option<Line>, Output) {
        let line = match self.read_line(text) {
            Ok(line) => line,
            Err(out) => return (None, out),
        };
        let bound = budget::command_events(is_check_workload(&line.command));
        let own = Budget {
            until_ms: None,
            until_events: Some(self.world.events().saturating_add(bound)),
        };
        self.world.set_budget(self.replay.min(own));
        let mut output = self.with_assignments(&line);
        let line = Some(line);
        let spent = self.world.take_spent();
        self.world.set_budget(self.replay);
        if let Some(spent) = spent {
            let by_replay = spent_of(self.replay, &self.world).is_some();
            let message = spent_message(spent, by_replay, bound);
            output.err(&message);
            self.met.get_or_insert(message);
            if output.status == 0 {
                output.status = 124;
            }
        }
        if let Some(message) = self.met.take() {
            self.limits.commands += 1;
            self.limits.first.get_or_insert(message);
        }
        (line, output)
    }

    fn var(&self, name: &str) -> Option<String> {
        let key = self.current.clone().unwrap_or_default();
        self.vars.get(&key).and_then(|v| v.get(name)).cloned()
    }

    /// Sets a variable on the current machine, within [`MAX_VAR_BYTES`].
    fn set_var(&mut self, name: &str, value: &str) -> Result<(), Output> {
        let key = self.current.clone().unwrap_or_default();
        let vars = self.vars.entry(key).or_default();
        let old = vars.get(name).map_or(0, |v| name.len() + v.len());
        let bytes = self.var_bytes - old + name.len() + value.len();
        if bytes > MAX_VAR_BYTES {
            let message = format!(
                "sh: {name}: cannot set: the variables would hold more than {MAX_VAR_BYTES} bytes (the playground's limit)"
            );
            self.met = Some(message.clone());
            return Err(Output::failure(&message, 1));
        }
        vars.insert(name.to_string(), value.to_string());
        self.var_bytes = bytes;
        Ok(())
    }

    /// Removes a variable from the current machine.
    fn unset_var(&mut self, name: &str) {
        let key = self.current.clone().unwrap_or_default();
        if let Some(v) = self.vars.get_mut(&key).and_then(|m| m.remove(name)) {
            self.var_bytes -= name.len() + v.len();
        }
    }

    /// Reads the line's words and parses them into its one typed command;
    /// a line the shell cannot read is its error output.
    fn read_line(&mut self, text: &str) -> Result<Line, Output> {
        let words = {
            let lookup = |n: &str| self.var(n);
            match text.trim_start().strip_prefix("net partition") {
                // `net partition A B | C D`: here `|` separates the sides, not a pipe.
                Some(rest) => partition_words(rest, &lookup, self.last_status),
                None => parse::words(text, &lookup, self.last_status),
            }
        };
        let words = match words {
            Ok(w) => w,
            Err(e) => {
                if e == parse::WordsError::TooLong {
                    self.met = Some(e.message());
                }
                return Err(Output::failure(&e.message(), 2));
            }
        };
        Ok(command::parse(&words))
    }

    /// Runs a line's command with its `NAME=VALUE` assignments set for it
    /// alone, or sets them when there is no command.
    fn with_assignments(&mut self, line: &Line) -> Output {
        let assigns = &line.assigns;
        if line.command == Command::Nothing {
            for (k, v) in assigns {
                if let Err(out) = self.set_var(k, v) {
                    return out;
                }
            }
            return Output::default();
        }
        let saved: Vec<(String, Option<String>)> = assigns
            .iter()
            .map(|(k, _)| (k.clone(), self.var(k)))
            .collect();
        let set = assigns.iter().try_for_each(|(k, v)| self.set_var(k, v));
        let out = match set {
            Ok(()) => self.command(&line.command),
            Err(out) => out,
        };
        // Put back what was there: never more bytes than before.
        for (k, old) in saved {
            self.unset_var(&k);
            if let Some(v) = old {
                let _ = self.set_var(&k, &v);
            }
        }
        out
    }

    /// One match over every command.
    fn command(&mut self, c: &Command) -> Output {
        match c {
            Command::Nothing | Command::Nop => Output::default(),
            Command::Machine(m) => self.machine_cmd(m),
            Command::Hosts(set) => self.hosts_cmd(set.as_ref()),
            Command::HostsUsage => usage_error("hosts", 2),
            Command::Ssh(name) => self.ssh(name),
            Command::Date(when) => self.date(when.as_deref()),
            Command::DateUsage => Output::failure(
                "date: only `date` and `date -s \"YYYY-MM-DD HH:MM:SS\"` are supported",
                1,
            ),
            Command::Echo(rest) => Output::text(&format!("{}\n", rest.join(" "))),
            Command::Export(rest) => self.export(rest),
            Command::Etcd(e) => self.etcd(e),
            Command::Docker(d) => self.docker(d),
            Command::Kill(k) => self.kill(k.as_ref()),
            Command::Rm(paths) => self.rm(paths),
            Command::Ls => self.ls(),
            Command::Copy { remote, paths } => self.copy(paths.as_ref(), *remote),
            Command::Logs(host) => self.logs(host.as_deref()),
            Command::Etcdctl(e) => self.etcdctl(e),
            Command::Etcdutl(u) => self.etcdutl(u),
            Command::Curl(c) => self.curl(c),
            Command::Net(n) => self.net(n),
            Command::Sleep(d) => self.sleep(d.as_deref()),
            Command::Wait(None) => self.wait(),
            Command::Wait(Some(pid)) => Output::failure(
                &format!("sh: wait: pid {pid} is not a child of this shell"),
                127,
            ),
            Command::NotFound(other) => {
                Output::failure(&format!("sh: {other}: command not found"), 127)
            }
        }
    }

    fn need_machine(&self) -> Result<String, Output> {
        self.current.clone().ok_or_else(|| {
            Output::failure(
                "sh: no machine yet: add one with `machine add NAME [ADDR...]`",
                1,
            )
        })
    }

    fn world_error(e: WorldError) -> Output {
        let msg = match e {
            WorldError::NoSuchMachine(m) => format!("machine: {m}: no such machine"),
            WorldError::MachineExists(m) => format!("machine: {m}: already exists"),
            WorldError::AddressTaken(a) => format!("machine: address {a} is already in use"),
            WorldError::MachineDown(m) => format!("sh: {m} is powered off"),
            WorldError::NoProcess(_) => "kill: etcd: no such process".to_string(),
            WorldError::EtcdRunning(m) => {
                format!("machine: {m}: etcd is running: stop it before switching its version")
            }
            WorldError::AddressAlreadyInUse(a) => {
                format!("etcdmain: listen tcp {a}: bind: address already in use")
            }
            WorldError::NoSuchFile(p) => {
                format!("cp: cannot stat '{p}': No such file or directory")
            }
            WorldError::Unreachable(h) => {
                format!("ssh: connect to host {h} port 22: Connection timed out")
            }
            WorldError::TooMany { what, max } => budget_message(what, max),
        };
        Output::failure(&msg, 1)
    }

    fn apply(&mut self, a: Action) -> Output {
        match self.world.apply(a) {
            Ok(()) => Output::default(),
            Err(e) => {
                let out = Self::world_error(e.clone());
                if matches!(e, WorldError::TooMany { .. }) {
                    self.met = Some(out.stderr.trim_end().to_string());
                }
                out
            }
        }
    }

    fn machine_name(&self, name: &str) -> Result<String, Output> {
        self.world
            .find_machine(name)
            .map(|s| s.to_string())
            .ok_or_else(|| Output::failure(&format!("machine: {name}: no such machine"), 1))
    }

    fn machine_cmd(&mut self, m: &Machine) -> Output {
        let (name, action): (&str, Box<dyn Fn(String) -> Action>) = match m {
            Machine::Add { name, addrs, etcd } => {
                return self.machine_add(name, addrs, etcd.unwrap_or(self.default_etcd))
            }
            Machine::Install(name, etcd) => {
                let etcd = *etcd;
                (
                    name,
                    Box::new(move |name| Action::InstallEtcd { name, etcd }),
                )
            }
            Machine::BadVersion(v) => {
                let known = command::ETCD_VERSIONS.join(" or ");
                return Output::failure(&format!("machine: etcd version {v:?}: not {known}"), 2);
            }
            Machine::Rm(name) => (name, Box::new(|name| Action::RemoveMachine { name })),
            Machine::Down(name) => (name, Box::new(|name| Action::PowerOff { name })),
            Machine::Up(name) => (name, Box::new(|name| Action::PowerOn { name })),
            Machine::Usage => return usage_error("machine", 2),
        };
        let name = match self.machine_name(name) {
            Ok(n) => n,
            Err(o) => return o,
        };
        let out = self.apply(action(name.clone()));
        if matches!(m, Machine::Rm(_)) && self.current.as_deref() == Some(&name) {
            self.current = self.world.machines().keys().next().cloned();
        }
        out
    }

    fn machine_add(&mut self, name: &str, addrs: &[String], etcd: EtcdVersion) -> Output {
        if !valid_name(name) {
            return Output::failure(&format!("machine: {name:?} is not a valid machine name"), 2);
        }
        let a = Action::AddMachine {
            name: name.to_string(),
            addrs: addrs.to_vec(),
        };
        let mut out = self.apply(a);
        if out.status == 0 && etcd != EtcdVersion::default() {
            let name = name.to_string();
            out = self.apply(Action::InstallEtcd { name, etcd });
        }
        if out.status == 0 && self.current.is_none() {
            self.current = Some(name.to_string());
        }
        out
    }

    fn hosts_cmd(&mut self, set: Option<&(String, String)>) -> Output {
        match set {
            None => {
                let mut s = String::from("127.0.0.1\tlocalhost\n");
                for m in self.world.machines().values() {
                    for a in m.addrs.iter().filter(|a| **a != m.name) {
                        s.push_str(&format!("{a}\t{}\n", m.name));
                    }
                }
                for (name, addr) in self.world.hosts() {
                    s.push_str(&format!("{addr}\t{name}\n"));
                }
                Output::text(&s)
            }
            Some((name, addr)) => self.apply(Action::SetHost {
                name: name.clone(),
                addr: addr.clone(),
            }),
        }
    }

    fn ssh(&mut self, name: &str) -> Output {
        match self.world.find_machine(name) {
            Some(m) => {
                self.current = Some(m.to_string());
                Output::default()
            }
            None => Output::failure(
                &format!("ssh: Could not resolve hostname {name}: Name or service not known"),
                255,
            ),
        }
    }

    fn date(&mut self, when: Option<&str>) -> Output {
        if let Some(when) = when {
            match parse_date(when) {
                Some(secs) => {
                    let _ = self.world.apply(Action::SetDate { unix_secs: secs });
                }
                None => return Output::failure(&format!("date: invalid date '{when}'"), 1),
            }
        }
        let ms = self.world.wall_ms();
        let secs = ms.div_euclid(1000);
        Output::text(&format!("{}\n", Stamp::from_unix_ms(ms).date(secs)))
    }

    fn export(&mut self, rest: &[String]) -> Output {
        for a in rest {
            match a.split_once('=') {
                Some((k, v)) if parse::is_name(k) => {
                    if let Err(out) = self.set_var(k, v) {
                        return out;
                    }
                }
                Some((k, _)) => {
                    return Output::failure(&format!("sh: export: {k}: bad variable name"), 1)
                }
                None if parse::is_name(a) => {}
                None => return Output::failure(&format!("sh: export: {a}: bad variable name"), 1),
            }
        }
        Output::default()
    }

    fn etcd(&mut self, e: &Etcd) -> Output {
        let machine = match self.need_machine() {
            Ok(m) => m,
            Err(o) => return o,
        };
        let version = e.image.unwrap_or_else(|| self.etcd_of(&machine));
        // Go's flag package prints etcd's usage after a flag error (status 2)
        let usage = |e: etcd_flags::FlagError| match e.status {
            2 => Output::failure(&format!("{}\n{}", e.message, etcd_flags::USAGE), 2),
            status => Output::failure(&e.message, status),
        };
        if let Some(err) = etcd_flags::refused(&e.flags, version) {
            return usage(err);
        }
        if e.version {
            return Output::text(version.etcd_version_text());
        }
        let cfg = {
            let env = |k: &str| self.var(k);
            etcd_flags::config(&e.flags, &env, version)
        };
        match cfg {
            Ok(cfg) => self.apply(Action::StartEtcd {
                machine,
                cfg: Box::new(EtcdConfig {
                    args: e.argv.clone(),
                    ..cfg
                }),
            }),
            Err(e) => usage(e),
        }
    }

    /// The etcd installed on a machine.
    fn etcd_of(&self, machine: &str) -> EtcdVersion {
        self.world
            .machines()
            .get(machine)
            .map(|m| m.etcd)
            .unwrap_or_default()
    }

    /// `etcdutl …`: etcd 3.5's offline tool; 3.4 has none.
    fn etcdutl(&mut self, u: &Etcdutl) -> Output {
        let machine = match self.need_machine() {
            Ok(m) => m,
            Err(o) => return o,
        };
        let version = self.etcd_of(&machine);
        if version == EtcdVersion::V3_4 {
            return Output::failure("sh: etcdutl: command not found", 127);
        }
        match u {
            Etcdutl::Version => Output::text(&version.tool_version_text("etcdutl")),
            Etcdutl::Snapshot(e) => {
                let vars = self.vars.get(&machine).cloned().unwrap_or_default();
                let env = |k: &str| vars.get(k).cloned();
                etcdctl::run_etcdutl(&mut self.world, &machine, e, &env)
            }
            Etcdutl::Usage => Output::text(ETCDUTL_HELP),
            Etcdutl::Unknown(c) => Output::failure(
                &format!("Error: unknown command {c:?} for \"etcdutl\"\nRun 'etcdutl --help' for usage.\nError: unknown command {c:?} for \"etcdutl\""),
                1,
            ),
        }
    }

    /// `curl URL`: etcd's client HTTP handler answers `/version` (both
    /// releases print `{"etcdserver":"…","etcdcluster":"…"}`); any other path
    /// is `404 page not found`. Errors as curl 7.88 prints them.
    fn curl(&mut self, c: &Curl) -> Output {
        let machine = match self.need_machine() {
            Ok(m) => m,
            Err(o) => return o,
        };
        let (url, silent) = match c {
            Curl::Get { url, silent } => (url, *silent),
            Curl::Usage(bad) => {
                let first = bad
                    .as_ref()
                    .map_or(String::new(), |o| format!("curl: option {o}: is unknown\n"));
                let help = "curl: try 'curl --help' or 'curl --manual' for more information";
                return Output::failure(&format!("{first}{help}"), 2);
            }
        };
        let rest = url.split_once("://").map_or(url.as_str(), |(_, r)| r);
        let path = rest.find('/').map_or("/", |at| &rest[at..]);
        let Some((host, port)) = world::split_url(url) else {
            return Output::failure("curl: (3) URL using bad/illegal format or missing URL", 3);
        };
        let fail = |code: i32, text: String| match silent {
            true => Output {
                status: code,
                ..Output::default()
            },
            false => Output::failure(&format!("curl: ({code}) {text}"), code),
        };
        match self.world.call(&machine, &format!("{host}:{port}"), Request::Version, CURL_CONNECT_MS) {
            CallResult::Reply(_) if path != "/version" => Output::text("404 page not found\n"),
            CallResult::Reply(Response {
                reply: Reply::Version { server, cluster },
                ..
            }) => {
                let cluster = cluster.map_or("not_decided".into(), |v| format!("{v}.0"));
                Output::text(&format!("{{\"etcdserver\":\"{server}\",\"etcdcluster\":\"{cluster}\"}}"))
            }
            CallResult::Deadline { dial: Some(_) } | CallResult::Reply(_) | CallResult::Error(_) => fail(
                7,
                format!("Failed to connect to {host} port {port} after 0 ms: Couldn't connect to server"),
            ),
            CallResult::Deadline { dial: None } => fail(
                28,
                format!("Failed to connect to {host} port {port} after {CURL_CONNECT_MS} ms: Timeout was reached"),
            ),
        }
    }

    fn docker(&mut self, d: &Docker) -> Output {
        match d {
            Docker::Run(Some(etcd)) => {
                let out = self.etcd(etcd);
                if out.status != 0 {
                    return out;
                }
                let a = self.world.random_u64();
                let b = self.world.random_u64();
                Output::text(&format!("{a:016x}{b:016x}{a:016x}{b:016x}\n"))
            }
            Docker::Run(None) => Output::failure(
                "docker: this playground runs only etcd images: IMAGE /usr/local/bin/etcd FLAGS...",
                125,
            ),
            Docker::Nothing => Output::default(),
            Docker::Logs => self.logs(None),
            Docker::Stop => self.kill(Some(&(Signal::Term, "etcd".to_string()))),
            Docker::Kill => self.kill(Some(&(Signal::Kill, "etcd".to_string()))),
            Docker::Usage => Output::failure(
                "docker: only run, exec, logs, stop and kill are simulated",
                1,
            ),
        }
    }

    fn kill(&mut self, k: Option<&(Signal, String)>) -> Output {
        let machine = match self.need_machine() {
            Ok(m) => m,
            Err(o) => return o,
        };
        let Some((signal, target)) = k else {
            return Output::failure(&format!("kill: usage: {}", command::usage("kill")), 2);
        };
        if target != "etcd" {
            return Output::failure(&format!("sh: kill: {target}: no such process"), 1);
        }
        let signal = match signal {
            Signal::Term => world::Signal::Term,
            Signal::Kill => world::Signal::Kill,
        };
        self.apply(Action::Kill { machine, signal })
    }

    fn rm(&mut self, paths: &[String]) -> Output {
        let machine = match self.need_machine() {
            Ok(m) => m,
            Err(o) => return o,
        };
        if paths.is_empty() {
            return Output::failure("rm: missing operand", 1);
        }
        let paths = paths.to_vec();
        self.apply(Action::RemovePaths { machine, paths })
    }

    /// `cp [-r] SRC DST`, `scp [-r] [HOST:]SRC [HOST:]DST`.
    fn copy(&mut self, paths: Option<&(String, String)>, remote: bool) -> Output {
        let machine = match self.need_machine() {
            Ok(m) => m,
            Err(o) => return o,
        };
        let Some((src, dst)) = paths else {
            return usage_error(if remote { "scp" } else { "cp" }, 1);
        };
        let place = |arg: &str| -> Result<(String, String), Output> {
            match arg.split_once(':').filter(|_| remote) {
                Some((host, path)) => self.machine_name(host).map(|h| (h, path.to_string())),
                None => Ok((machine.clone(), arg.to_string())),
            }
        };
        let ((from, src), (to, dst)) = match (place(src), place(dst)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(o), _) | (_, Err(o)) => return o,
        };
        let out = self.apply(Action::Copy { from, src, to, dst });
        if remote && out.status != 0 {
            return Output { status: 255, ..out };
        }
        out
    }

    fn ls(&mut self) -> Output {
        let Ok(machine) = self.need_machine() else {
            return Output::default();
        };
        let s: String = self
            .world
            .listing(&machine)
            .into_iter()
            .map(|p| p + "\n")
            .collect();
        Output::text(&s)
    }

    fn logs(&mut self, host: Option<&str>) -> Output {
        let machine = match host {
            Some(h) => match self.machine_name(h) {
                Ok(m) => m,
                Err(o) => return o,
            },
            None => match self.need_machine() {
                Ok(m) => m,
                Err(o) => return o,
            },
        };
        let mut s = String::new();
        for l in self.world.logs().iter().filter(|l| l.machine == machine) {
            s.push_str(&l.text);
            s.push('\n');
        }
        Output::text(&s)
    }

    fn etcdctl(&mut self, e: &command::Etcdctl) -> Output {
        let machine = match self.need_machine() {
            Ok(m) => m,
            Err(o) => return o,
        };
        let vars = self.vars.get(&machine).cloned().unwrap_or_default();
        let env = |k: &str| vars.get(k).cloned();
        etcdctl::run(&mut self.world, &machine, e, &env)
    }

    fn cut_one(&mut self, a: &str, b: &str) -> Output {
        match (self.machine_name(a), self.machine_name(b)) {
            (Ok(from), Ok(to)) => self.apply(Action::Cut { from, to }),
            (Err(o), _) | (_, Err(o)) => o,
        }
    }

    fn cut_pair(&mut self, a: &str, b: &str) -> Output {
        let out = self.cut_one(a, b);
        if out.status != 0 {
            return out;
        }
        self.cut_one(b, a)
    }

    fn isolate(&mut self, a: &str) -> Output {
        let a = match self.machine_name(a) {
            Ok(a) => a,
            Err(o) => return o,
        };
        let others: Vec<String> = self
            .world
            .machines()
            .keys()
            .filter(|m| **m != a)
            .cloned()
            .collect();
        for b in others {
            self.cut_pair(&a, &b);
        }
        Output::default()
    }

    fn partition(&mut self, groups: &[String]) -> Output {
        let mut sides: Vec<Vec<String>> = vec![Vec::new()];
        for g in groups {
            if *g == "|" {
                sides.push(Vec::new());
                continue;
            }
            match self.machine_name(g) {
                Ok(m) => sides.last_mut().map(|s| s.push(m)).unwrap_or(()),
                Err(o) => return o,
            }
        }
        if sides.len() < 2 || sides.iter().any(|s| s.is_empty()) {
            return Output::failure(
                &format!(
                    "usage: {}",
                    command::shell_spec(&["net", "partition"]).map_or("", |s| s.usage)
                ),
                2,
            );
        }
        for (i, left) in sides.iter().enumerate() {
            for right in sides.iter().skip(i + 1) {
                for a in left {
                    for b in right {
                        self.cut_pair(a, b);
                    }
                }
            }
        }
        Output::default()
    }

    /// `wait`: as a shell waits for its background jobs, time runs until this
    /// machine's etcd has exited; a playground gives up after a minute.
    fn wait(&mut self) -> Output {
        let machine = match self.need_machine() {
            Ok(m) => m,
            Err(out) => return out,
        };
        self.apply(Action::WaitExit {
            machine,
            max_ms: WAIT_LIMIT_MS,
        })
    }

    fn sleep(&mut self, d: Option<&str>) -> Output {
        let Some(d) = d else {
            return Output::failure("sleep: missing operand", 1);
        };
        match parse::duration_ms(d, true) {
            Some(ms) => self.apply(Action::Advance { ms }),
            None => Output::failure(&format!("sleep: invalid time interval '{d}'"), 1),
        }
    }
}

/// Which of `budget`'s bounds `world` has reached, if one has.
fn spent_of(budget: Budget, world: &World) -> Option<Spent> {
    if budget.until_events.is_some_and(|e| world.events() >= e) {
        Some(Spent::Work)
    } else if budget.until_ms.is_some_and(|t| world.now_ms() >= t) {
        Some(Spent::Time)
    } else {
        None
    }
}

/// Whether a command is an `etcdctl check perf|datascale` workload, which
/// gets [`budget::CHECK_EVENTS`].
fn is_check_workload(command: &Command) -> bool {
    let Command::Etcdctl(e) = command else {
        return false;
    };
    matches!(e.op(), Some((Op::CheckPerf | Op::CheckDatascale, _)))
}

/// What a command stopped by a budget prints (`sim::budget`).
fn spent_message(spent: Spent, by_replay: bool, command_events: u64) -> String {
    let what = match (spent, by_replay) {
        (Spent::Time, _) => format!(
            "a replay runs at most {} simulated hours",
            budget::REPLAY_MS / 3_600_000
        ),
        (Spent::Work, true) => format!(
            "a replay handles at most {} simulated events",
            budget::REPLAY_EVENTS
        ),
        (Spent::Work, false) => {
            format!("one command handles at most {command_events} simulated events")
        }
    };
    format!("sh: stopped here: {what} (the playground's work limit); the world stays as it was at this moment")
}

/// A world bound's refusal, naming the bound (`sim::budget`).
fn budget_message(what: Held, max: usize) -> String {
    let (who, things) = match what {
        Held::Machines => ("machine", "machines"),
        Held::Addresses => ("machine", "addresses on one machine"),
        Held::Hosts => ("hosts", "names added with `hosts set`"),
    };
    format!(
        "{who}: this playground holds at most {max} {things} (a limit that keeps the page quick)"
    )
}

/// The longest `wait` in simulated time (a real shell would wait forever).
const WAIT_LIMIT_MS: u64 = 60_000;

/// `net partition`'s words, with each `|` kept as a side separator.
fn partition_words(
    rest: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
    status: i32,
) -> Result<Vec<String>, parse::WordsError> {
    let mut words = vec!["net".to_string(), "partition".to_string()];
    for (i, side) in rest.split('|').enumerate() {
        if i > 0 {
            words.push("|".to_string());
        }
        words.extend(parse::words(side, lookup, status)?);
    }
    Ok(words)
}

/// The shell's usage message for a command, from the command table.
fn usage_error(command: &str, status: i32) -> Output {
    Output::failure(&format!("usage: {}", command::usage(command)), status)
}

fn valid_name(n: &str) -> bool {
    !n.is_empty()
        && n.len() <= 63
        && n.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
}

/// `YYYY-MM-DD HH:MM:SS` (or `YYYY-MM-DD`, or `HH:MM:SS` today is not supported) to Unix seconds.
fn parse_date(s: &str) -> Option<i64> {
    let (date, time) = s.trim().split_once(' ').unwrap_or((s.trim(), "00:00:00"));
    let d: Vec<u32> = date
        .split('-')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let t: Vec<u32> = time
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let ([y, mo, da], [h, mi, se]) = (d.as_slice(), t.as_slice()) else {
        return None;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days_in_month = match mo {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    let valid = *y <= 9999
        && (1..=12).contains(mo)
        && (1..=days_in_month).contains(da)
        && *h <= 23
        && *mi <= 59
        && *se <= 59;
    if !valid {
        return None;
    }
    Some(days_from_civil(i64::from(*y), *mo, *da) * 86_400 + i64::from(h * 3600 + mi * 60 + se))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the typed command is, not its text, earns a check's bound.
    #[test]
    fn a_check_workload_is_known_by_its_parsed_command() {
        let of = |t: &str| {
            let words = parse::words(t, &|_| None, 0).expect("it reads");
            is_check_workload(&command::parse(&words).command)
        };
        for check in [
            "etcdctl check datascale --load=l",
            "etcdctl --endpoints=http://10.0.0.1:2379 check perf --load=s",
            "etcdctl --endpoints http://10.0.0.1:2379 check perf",
            "ETCDCTL_API=3 etcdctl check datascale",
        ] {
            assert!(of(check), "{check}");
        }
        for other in [
            "sleep 24h # etcdctl check perf",
            "echo etcdctl check perf",
            "etcdctl put check datascale",
            "etcdctl check",
            "etcdctl check other",
            "",
        ] {
            assert!(!of(other), "{other}");
        }
    }

    #[test]
    fn dates_parse() {
        assert_eq!(parse_date("2021-03-03 16:25:57"), Some(1_614_788_757));
        assert_eq!(parse_date("2021-13-03 16:25:57"), None);
        assert_eq!(parse_date("2021-02-31 00:00:00"), None);
        assert_eq!(parse_date("2024-02-29 00:00:00"), Some(1_709_164_800));
        assert_eq!(parse_date("300000000-01-01 00:00:00"), None);
        assert_eq!(parse_date("soon"), None);
    }

    fn three_machines() -> Session {
        let mut s = Session::new(1);
        for line in [
            "machine add node01",
            "machine add node02",
            "machine add node03",
        ] {
            s.run_typed(line);
        }
        s
    }

    #[test]
    fn run_on_keeps_the_current_machine() {
        let mut s = three_machines();
        assert_eq!(s.current(), Some("node01"));
        let host = Prompt::Host("node03".to_string());
        let ex = s.run_on(&host, "echo hi");
        assert_eq!(ex.machine.as_deref(), Some("node03"));
        assert_eq!(ex.output.stdout, "hi\n");
        assert_eq!(s.current(), Some("node01"));
        // Case-insensitive, as prompts are; an unknown host changes nothing.
        let ex = s.run_on(&Prompt::Host("NODE02".to_string()), "true");
        assert_eq!(ex.machine.as_deref(), Some("node02"));
        assert_eq!(s.current(), Some("node01"));
        let ex = s.run_on(&Prompt::Host("node09".to_string()), "true");
        assert_eq!(ex.output.status, 255);
        assert_eq!(s.current(), Some("node01"));
        // A typed prompt still switches, as a shell would.
        s.run_typed("node02$ true");
        assert_eq!(s.current(), Some("node02"));
    }

    #[test]
    fn run_on_with_no_current_machine_or_a_removed_one() {
        let mut s = Session::new(1);
        let ex = s.run_on(&Prompt::Host("node01".to_string()), "true");
        assert_eq!(ex.output.status, 255);
        assert_eq!(s.current(), None);
        let mut s = three_machines();
        // The current machine removed by the command itself: not restored.
        s.run_on(&Prompt::Host("node02".to_string()), "machine rm node01");
        assert_ne!(s.current(), Some("node01"));
        assert!(s.current().is_some());
    }
}
