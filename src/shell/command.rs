//! The command language as data, and its one parser. This module owns the
//! tables of every command, subcommand and flag the shell, `etcd` and `etcdctl`
//! accept (each flag's kind, default and whether it repeats; each command's
//! usage, an example and the arguments it takes), and [`parse`], which reads a
//! line's words (as [`parse::words`](super::parse::words) gives them) once into
//! a typed [`Line`]. The session runs the typed command; completion, forecasts,
//! the page's markers and the lessons' checker read it; none re-reads the text.
//!
//! Parsing never fails: a command used wrongly parses to its `Usage` form (or
//! keeps its flag error), so that the session reports it in the order etcd and
//! the shell would (after, say, "no machine yet").

use std::fmt;

use crate::sim::etcd::version::EtcdVersion;
use EtcdVersion::{V3_4, V3_5};

/// What a value (a flag's or a positional argument's) may be, for completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Val {
    /// Anything.
    Text,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A machine's name.
    Machine,
    /// A machine's or a member's name (`--name`).
    Name,
    /// A member ID, in hex.
    MemberId,
    /// A machine that is not a member yet (`member add NAME`).
    NewMember,
}

/// A flag's kind: a boolean (`--learner`, `--learner=false`) or one taking a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    Value(Val),
}

/// One flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag {
    /// Its long name without dashes (the shell's own commands, whose flags are
    /// few and irregular, spell theirs in full: `-rf`, `--set`).
    pub name: &'static str,
    pub kind: Kind,
    /// Its default as etcd documents it (`None`: unset, or false).
    pub default: Option<&'static str>,
    /// Whether it may be given more than once to add values (else the last wins).
    pub repeatable: bool,
    /// Whether it changes what the playground does (else accepted and ignored).
    pub effect: bool,
    /// The one etcd release that has it (`None`: both).
    pub only: Option<EtcdVersion>,
}

const fn flag(name: &'static str, kind: Kind) -> Flag {
    Flag {
        name,
        kind,
        default: None,
        repeatable: false,
        effect: true,
        only: None,
    }
}

const fn boolean(name: &'static str) -> Flag {
    flag(name, Kind::Bool)
}

const fn value(name: &'static str) -> Flag {
    flag(name, Kind::Value(Val::Text))
}

const fn with_default(f: Flag, default: &'static str) -> Flag {
    Flag {
        default: Some(default),
        ..f
    }
}

const fn ignored(f: Flag) -> Flag {
    Flag { effect: false, ..f }
}

/// A flag only one etcd release has (the other says `flag provided but not
/// defined`).
const fn only(version: EtcdVersion, f: Flag) -> Flag {
    Flag {
        only: Some(version),
        ..f
    }
}

const fn repeated(f: Flag) -> Flag {
    Flag {
        repeatable: true,
        ..f
    }
}

/// How many positional arguments a command takes, and what it says otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arity {
    pub min: usize,
    pub max: Option<usize>,
    /// The message for too few.
    pub missing: &'static str,
    /// The message for too many.
    pub extra: &'static str,
}

const ANY: Arity = Arity {
    min: 0,
    max: None,
    missing: "",
    extra: "",
};

const fn exactly(n: usize, message: &'static str) -> Arity {
    Arity {
        min: n,
        max: Some(n),
        missing: message,
        extra: message,
    }
}

/// One command or subcommand: its words, usage, an example, flags and arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec<T: 'static> {
    /// What the command is to its runner.
    pub id: T,
    /// Its words (`["member", "add"]`; the program's name is not among them).
    pub words: &'static [&'static str],
    pub usage: &'static str,
    pub example: &'static str,
    /// Its own flags (etcdctl reads every table's flags anywhere, as pflag does
    /// with its persistent ones; completion offers a command's own).
    pub flags: &'static [Flag],
    /// What each positional argument is, for completion.
    pub args: &'static [Val],
    pub arity: Arity,
    /// Whether completion offers it (a few accepted forms do nothing).
    pub offered: bool,
}

impl<T> Spec<T> {
    /// Its help, from the table: the usage, each flag (with its values and
    /// default), and the example.
    pub fn help(&self) -> String {
        let mut s = format!("usage: {}\n", self.usage);
        for f in self.flags {
            let value = match f.kind {
                Kind::Bool => String::new(),
                Kind::Value(Val::Choice(words)) => format!("={}", words.join("|")),
                Kind::Value(_) => "=VALUE".to_string(),
            };
            let default = f
                .default
                .map_or(String::new(), |d| format!(" (default {d})"));
            let dashes = if f.name.starts_with('-') { "" } else { "--" };
            s.push_str(&format!("  {dashes}{}{value}{default}\n", f.name));
        }
        s.push_str(&format!("example: {}\n", self.example));
        s
    }
}

// ---------------------------------------------------------------------------------
// etcdctl
// ---------------------------------------------------------------------------------

/// What an etcdctl command does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    MemberAdd,
    MemberRemove,
    MemberPromote,
    MemberUpdate,
    MemberList,
    EndpointStatus,
    EndpointHealth,
    Put,
    Get,
    Del,
    MoveLeader,
    SnapshotSave,
    SnapshotStatus,
    SnapshotRestore,
    Version,
    CheckPerf,
    CheckDatascale,
}

/// `-w` values.
pub const FORMATS: &[&str] = &["json", "simple", "table"];

/// etcdctl's global flags.
#[rustfmt::skip]
pub const ETCDCTL_GLOBALS: &[Flag] = &[
    boolean("debug"), boolean("hex"), boolean("insecure-discovery"),
    boolean("insecure-skip-tls-verify"), boolean("insecure-transport"),
    value("cacert"), value("cert"), with_default(value("command-timeout"), "5s"),
    with_default(value("dial-timeout"), "2s"), value("discovery-srv"), value("discovery-srv-name"),
    with_default(value("endpoints"), "127.0.0.1:2379"), value("keepalive-time"),
    value("keepalive-timeout"), value("key"), value("password"), value("user"),
    with_default(flag("write-out", Kind::Value(Val::Choice(FORMATS))), "simple"),
];

const PEER_URLS: Flag = value("peer-urls");
const CLUSTER: Flag = boolean("cluster");
const PREFIX: Flag = boolean("prefix");
const PREV_KV: Flag = boolean("prev-kv");
const FROM_KEY: Flag = boolean("from-key");
const NO_ARGS: &[Val] = &[];
/// `check`'s workloads (etcdctl also reads `small`, `medium`, `large`, `xLarge`).
pub const LOADS: &[&str] = &["s", "m", "l", "xl"];
const LOAD: Flag = with_default(flag("load", Kind::Value(Val::Choice(LOADS))), "s");
/// `check perf`'s flags (its `--prefix` takes a value, unlike `get`'s).
#[rustfmt::skip]
const CHECK_PERF: &[Flag] = &[
    LOAD, with_default(value("prefix"), "/etcdctl-check-perf/"),
    ignored(boolean("auto-compact")), ignored(boolean("auto-defrag")),
];
#[rustfmt::skip]
const CHECK_DATASCALE: &[Flag] = &[
    LOAD, with_default(value("prefix"), "/etcdctl-check-datascale/"),
    ignored(boolean("auto-compact")), ignored(boolean("auto-defrag")),
];
const ID: &[Val] = &[Val::MemberId];

const fn etcdctl(
    id: Op,
    words: &'static [&'static str],
    usage: &'static str,
    example: &'static str,
    flags: &'static [Flag],
    args: &'static [Val],
    arity: Arity,
) -> Spec<Op> {
    Spec {
        id,
        words,
        usage,
        example,
        flags,
        args,
        arity,
        offered: true,
    }
}

const ID_MISSING: Arity = Arity {
    min: 1,
    max: None,
    missing: "member ID is not provided",
    extra: "",
};
const GET_ARGS: &str =
    "get command needs one argument as key and an optional argument as range_end";
const DEL_ARGS: &str =
    "del command needs one argument as key and an optional argument as range_end";

/// etcdctl 3.4's commands, as this playground runs them.
#[rustfmt::skip]
pub const ETCDCTL: &[Spec<Op>] = &[
    etcdctl(Op::MemberAdd, &["member", "add"], "member add NAME --peer-urls=URLS [--learner]",
        "etcdctl member add node04 --peer-urls=http://192.168.0.64:2380 --learner",
        &[boolean("learner"), PEER_URLS], &[Val::NewMember],
        Arity { min: 1, max: Some(1), missing: "member name not provided", extra: "too many arguments" }),
    etcdctl(Op::MemberRemove, &["member", "remove"], "member remove ID",
        "etcdctl member remove 8e9e05c52164694d", &[], ID, ID_MISSING),
    etcdctl(Op::MemberPromote, &["member", "promote"], "member promote ID",
        "etcdctl member promote 8e9e05c52164694d", &[], ID, ID_MISSING),
    etcdctl(Op::MemberUpdate, &["member", "update"], "member update ID --peer-urls=URLS",
        "etcdctl member update 8e9e05c52164694d --peer-urls=http://192.168.0.71:2380",
        &[PEER_URLS], ID, ID_MISSING),
    etcdctl(Op::MemberList, &["member", "list"], "member list", "etcdctl member list -w table",
        &[], NO_ARGS, ANY),
    etcdctl(Op::EndpointStatus, &["endpoint", "status"], "endpoint status [--cluster]",
        "etcdctl endpoint status --cluster -w table", &[CLUSTER], NO_ARGS, ANY),
    etcdctl(Op::EndpointHealth, &["endpoint", "health"], "endpoint health [--cluster]",
        "etcdctl endpoint health --cluster", &[CLUSTER], NO_ARGS, ANY),
    etcdctl(Op::Put, &["put"], "put KEY VALUE", "etcdctl put foo bar",
        &[PREV_KV, value("lease")], NO_ARGS,
        exactly(2, "put command needs 1 argument and input from stdin or 2 arguments")),
    etcdctl(Op::Get, &["get"], "get KEY [RANGE_END] [--prefix] [--print-value-only] [--consistency=l|s]",
        "etcdctl get foo --consistency=s",
        &[boolean("count-only"), FROM_KEY, boolean("keys-only"), PREFIX, boolean("print-value-only"),
          with_default(flag("consistency", Kind::Value(Val::Choice(&["l", "s"]))), "l"),
          value("limit"), value("order"), value("rev"), value("sort-by"),
          #[cfg(test)] MADE_UP],
        NO_ARGS,
        Arity { min: 1, max: Some(2), missing: GET_ARGS, extra: GET_ARGS }),
    etcdctl(Op::Del, &["del"], "del KEY [RANGE_END] [--prefix]", "etcdctl del foo --prefix",
        &[FROM_KEY, PREFIX, PREV_KV], NO_ARGS,
        Arity { min: 1, max: Some(2), missing: DEL_ARGS, extra: DEL_ARGS }),
    etcdctl(Op::MoveLeader, &["move-leader"], "move-leader ID",
        "etcdctl move-leader 8e9e05c52164694d", &[], ID,
        exactly(1, "move-leader command needs 1 argument")),
    etcdctl(Op::SnapshotSave, &["snapshot", "save"], "snapshot save FILE",
        "etcdctl snapshot save backup.db", &[], NO_ARGS,
        exactly(1, "snapshot save expects one argument")),
    etcdctl(Op::SnapshotStatus, &["snapshot", "status"], "snapshot status FILE",
        "etcdctl snapshot status backup.db -w table", &[], NO_ARGS,
        exactly(1, "snapshot status requires exactly one argument")),
    etcdctl(Op::SnapshotRestore, &["snapshot", "restore"],
        "snapshot restore FILE --name NAME --initial-cluster NAME=URL,... --initial-advertise-peer-urls URL [--data-dir DIR] [--skip-hash-check]",
        "etcdctl snapshot restore backup.db --name node01 --initial-cluster node01=http://192.168.0.61:2380 --initial-advertise-peer-urls http://192.168.0.61:2380",
        &[boolean("skip-hash-check"), value("data-dir"), value("initial-advertise-peer-urls"),
          with_default(value("initial-cluster"), "default=http://localhost:2380"),
          with_default(value("initial-cluster-token"), "etcd-cluster"),
          with_default(flag("name", Kind::Value(Val::Name)), "default"), value("wal-dir")],
        NO_ARGS, exactly(1, "snapshot restore requires exactly one argument")),
    etcdctl(Op::Version, &["version"], "version", "etcdctl version", &[], NO_ARGS, ANY),
    etcdctl(Op::CheckPerf, &["check", "perf"],
        "check perf [--load=s|m|l|xl] [--prefix=PREFIX] [--auto-compact] [--auto-defrag]",
        "etcdctl check perf --load=s", CHECK_PERF, NO_ARGS, ANY),
    etcdctl(Op::CheckDatascale, &["check", "datascale"],
        "check datascale [--load=s|m|l|xl] [--prefix=PREFIX] [--auto-compact] [--auto-defrag]",
        "etcdctl check datascale --load=s", CHECK_DATASCALE, NO_ARGS, ANY),
];

/// etcdctl's flags as a `check` command reads them: its own first (cobra
/// reads each command's flags; `check`'s `--prefix` takes a value).
fn check_flag(name: &str) -> Option<&'static Flag> {
    CHECK_PERF
        .iter()
        .find(|f| f.name == name)
        .or_else(|| etcdctl_flag(name))
}

/// A flag that exists only in tests: the table is the one place a flag is
/// added (see the test `a_made_up_flag_needs_only_the_table`).
#[cfg(test)]
const MADE_UP: Flag = with_default(
    flag("made-up", Kind::Value(Val::Choice(&["one", "two"]))),
    "one",
);

/// Which etcdctl flag a name is: a global one or any command's (pflag reads
/// them anywhere on the line).
pub fn etcdctl_flag(name: &str) -> Option<&'static Flag> {
    let name = if name == "w" { "write-out" } else { name };
    ETCDCTL_GLOBALS
        .iter()
        .chain(ETCDCTL.iter().flat_map(|s| s.flags))
        .find(|f| f.name == name)
}

// ---------------------------------------------------------------------------------
// etcd
// ---------------------------------------------------------------------------------

/// `--initial-cluster-state` values.
pub const CLUSTER_STATES: &[&str] = &["existing", "new"];

/// etcd's flags: first those that change something here, in the order their
/// `ETCD_*` variables are read, then `version` and the ignored ones, then those
/// only one release has (as real 3.4.23 and 3.5.1 accept or refuse them).
/// `--logger`'s and `--pre-vote`'s defaults are 3.4's; 3.5 turns both over
/// (`EtcdVersion`).
#[rustfmt::skip]
pub const ETCD_FLAGS: &[Flag] = &[
    with_default(flag("name", Kind::Value(Val::Name)), "default"),
    with_default(value("data-dir"), "${name}.etcd"),
    with_default(value("listen-client-urls"), "http://localhost:2379"),
    with_default(value("advertise-client-urls"), "http://localhost:2379"),
    with_default(value("listen-peer-urls"), "http://localhost:2380"),
    with_default(value("initial-advertise-peer-urls"), "http://localhost:2380"),
    with_default(value("initial-cluster"), "default=http://localhost:2380"),
    with_default(flag("initial-cluster-state", Kind::Value(Val::Choice(CLUSTER_STATES))), "new"),
    with_default(value("initial-cluster-token"), "etcd-cluster"),
    with_default(value("heartbeat-interval"), "100"),
    with_default(value("election-timeout"), "1000"),
    with_default(value("snapshot-count"), "100000"),
    boolean("strict-reconfig-check"), boolean("pre-vote"), boolean("force-new-cluster"),
    with_default(flag("logger", Kind::Value(Val::Choice(&["capnslog", "zap"]))), "capnslog"),
    ignored(boolean("version")),
    ignored(value("wal-dir")), ignored(value("listen-metrics-urls")),
    ignored(value("max-snapshots")), ignored(value("max-wals")),
    ignored(value("quota-backend-bytes")), ignored(value("backend-batch-limit")),
    ignored(value("backend-batch-interval")), ignored(value("max-txn-ops")),
    ignored(value("max-request-bytes")), ignored(value("grpc-keepalive-min-time")),
    ignored(value("grpc-keepalive-interval")), ignored(value("grpc-keepalive-timeout")),
    ignored(value("discovery")), ignored(value("discovery-fallback")),
    ignored(value("discovery-proxy")), ignored(value("discovery-srv")),
    ignored(value("discovery-srv-name")), ignored(value("auto-compaction-retention")),
    ignored(value("auto-compaction-mode")), ignored(value("cors")),
    ignored(value("host-whitelist")), ignored(value("log-outputs")), ignored(value("log-level")),
    ignored(value("proxy")),
    ignored(value("proxy-failure-wait")), ignored(value("proxy-refresh-interval")),
    ignored(value("proxy-dial-timeout")), ignored(value("proxy-write-timeout")),
    ignored(value("proxy-read-timeout")), ignored(value("ca-file")), ignored(value("cert-file")),
    ignored(value("key-file")), ignored(value("client-crl-file")),
    ignored(value("client-cert-allowed-hostname")), ignored(value("trusted-ca-file")),
    ignored(value("peer-ca-file")), ignored(value("peer-cert-file")),
    ignored(value("peer-key-file")), ignored(value("peer-trusted-ca-file")),
    ignored(value("peer-crl-file")), ignored(value("peer-cert-allowed-cn")),
    ignored(value("peer-cert-allowed-hostname")), ignored(value("cipher-suites")),
    ignored(value("auth-token")), ignored(value("bcrypt-cost")), ignored(value("config-file")),
    ignored(value("metrics")),
    ignored(value("experimental-corrupt-check-time")),
    ignored(value("experimental-compaction-batch-limit")),
    ignored(value("experimental-peer-skip-client-san-verification")),
    ignored(value("experimental-watch-progress-notify-interval")),
    ignored(value("experimental-warning-apply-duration")),
    ignored(boolean("enable-v2")), ignored(boolean("enable-pprof")), 
    ignored(boolean("client-cert-auth")), ignored(boolean("auto-tls")),
    ignored(boolean("peer-client-cert-auth")), ignored(boolean("peer-auto-tls")),
    ignored(boolean("initial-election-tick-advance")), ignored(boolean("unsafe-no-fsync")),
    ignored(boolean("experimental-initial-corrupt-check")),
    ignored(boolean("experimental-enable-v2v3")),
    ignored(boolean("experimental-enable-lease-checkpoint")), ignored(value("raft-read-timeout")),
    ignored(value("raft-write-timeout")),
    // Only in 3.4.23 (00-versions-and-help.txt; 3.5.1 refuses them).
    only(V3_4, ignored(boolean("debug"))), only(V3_4, ignored(value("log-package-levels"))),
    only(V3_4, ignored(value("log-output"))), only(V3_4, ignored(value("max-concurrent-streams"))),
    only(V3_4, ignored(value("experimental-backend-bbolt-freelist-type"))),
    only(V3_4, ignored(boolean("experimental-enable-lease-checkpoint-persist"))),
    // Only in 3.5.1.
    only(V3_5, ignored(value("backend-bbolt-freelist-type"))),
    only(V3_5, ignored(boolean("enable-log-rotation"))),
    only(V3_5, ignored(value("log-rotation-config-json"))),
    only(V3_5, ignored(value("self-signed-cert-validity"))),
    only(V3_5, ignored(boolean("socket-reuse-address"))),
    only(V3_5, ignored(boolean("socket-reuse-port"))), only(V3_5, ignored(value("v2-deprecation"))),
    only(V3_5, ignored(value("client-cert-file"))), only(V3_5, ignored(value("client-key-file"))),
    only(V3_5, ignored(value("peer-client-cert-file"))),
    only(V3_5, ignored(value("peer-client-key-file"))),
    only(V3_5, ignored(value("experimental-bootstrap-defrag-threshold-megabytes"))),
    only(V3_5, ignored(boolean("experimental-txn-mode-write-with-shared-buffer"))),
    only(V3_5, ignored(value("experimental-downgrade-check-time"))),
    only(V3_5, ignored(boolean("experimental-memory-mlock"))),
    only(V3_5, ignored(boolean("experimental-enable-distributed-tracing"))),
    only(V3_5, ignored(value("experimental-distributed-tracing-address"))),
    only(V3_5, ignored(value("experimental-distributed-tracing-instance-id"))),
    only(V3_5, ignored(value("experimental-distributed-tracing-service-name"))),
];

/// Which etcd flag a name is.
pub fn etcd_flag(name: &str) -> Option<&'static Flag> {
    ETCD_FLAGS.iter().find(|f| f.name == name)
}

// ---------------------------------------------------------------------------------
// The shell
// ---------------------------------------------------------------------------------

/// `kill`'s signal words.
pub const SIGNALS: &[&str] = &["KILL", "SIGKILL", "SIGTERM", "TERM"];
const ETCD_ONLY: &[Val] = &[Val::Choice(&["etcd"])];
const MACHINE: &[Val] = &[Val::Machine];
/// The etcd releases a machine can run (`EtcdVersion`'s names).
pub const ETCD_VERSIONS: &[&str] = &["3.4", "3.5"];

const fn shell(
    words: &'static [&'static str],
    usage: &'static str,
    example: &'static str,
    flags: &'static [Flag],
    args: &'static [Val],
) -> Spec<()> {
    Spec {
        id: (),
        words,
        usage,
        example,
        flags,
        args,
        arity: ANY,
        offered: true,
    }
}

const fn hidden(s: Spec<()>) -> Spec<()> {
    Spec {
        offered: false,
        ..s
    }
}

/// The shell's commands and subcommands (`etcd` and `etcdctl` have their own
/// tables). Their flags are spelled in full (`-rf`, `--set`), as they are few
/// and irregular.
#[rustfmt::skip]
pub const SHELL: &[Spec<()>] = &[
    shell(&["machine"], "machine add NAME [ADDR...] [--etcd-version 3.4|3.5] | machine rm NAME | machine down NAME | machine up NAME | machine etcd-version NAME 3.4|3.5",
        "machine add node04 192.168.0.64", &[], &[]),
    shell(&["machine", "add"], "machine add NAME [ADDR...] [--etcd-version 3.4|3.5]",
        "machine add node04 192.168.0.64 --etcd-version 3.5",
        &[flag("--etcd-version", Kind::Value(Val::Choice(ETCD_VERSIONS)))], &[]),
    shell(&["machine", "etcd-version"], "machine etcd-version NAME 3.4|3.5", "machine etcd-version node01 3.5",
        &[], &[Val::Machine, Val::Choice(ETCD_VERSIONS)]),
    shell(&["machine", "rm"], "machine rm NAME", "machine rm node04", &[], MACHINE),
    shell(&["machine", "down"], "machine down NAME", "machine down node02", &[], MACHINE),
    shell(&["machine", "up"], "machine up NAME", "machine up node02", &[], MACHINE),
    shell(&["hosts"], "hosts | hosts set NAME ADDR", "hosts", &[], &[]),
    shell(&["hosts", "set"], "hosts set NAME ADDR", "hosts set etcd-1 127.0.0.4", &[], MACHINE),
    shell(&["cat"], "cat /etc/hosts", "cat /etc/hosts", &[], &[Val::Choice(&["/etc/hosts"])]),
    shell(&["ssh"], "ssh NAME", "ssh node02", &[], MACHINE),
    shell(&["date"], "date | date -s \"YYYY-MM-DD HH:MM:SS\"", "date -s \"2021-03-03 16:27:23\"",
        &[value("--set"), value("-s")], &[]),
    shell(&["echo"], "echo ARGS", "echo $?", &[], &[]),
    shell(&["export"], "export NAME=VALUE...", "export NODE01=192.168.0.61", &[], &[]),
    shell(&["etcd"], "etcd [FLAGS]", "etcd --name node01 --initial-cluster node01=http://192.168.0.61:2380",
        ETCD_FLAGS, &[]),
    shell(&["/usr/local/bin/etcd"], "/usr/local/bin/etcd [FLAGS]", "/usr/local/bin/etcd --name node01",
        ETCD_FLAGS, &[]),
    shell(&["docker"], "docker run|exec|logs|stop|kill ...", "docker logs etcd", &[], &[]),
    shell(&["docker", "run"], "docker run [OPTS] IMAGE /usr/local/bin/etcd [FLAGS]",
        "docker run -d --net=host --name etcd quay.io/coreos/etcd:v3.4.23 /usr/local/bin/etcd --name node01",
        DOCKER_RUN, &[]),
    shell(&["docker", "exec"], "docker exec -it etcd sh", "docker exec -it etcd sh",
        &[boolean("-it")], ETCD_ONLY),
    shell(&["docker", "logs"], "docker logs [-f] etcd", "docker logs etcd", &[boolean("-f")], ETCD_ONLY),
    shell(&["docker", "stop"], "docker stop etcd", "docker stop etcd", &[], ETCD_ONLY),
    shell(&["docker", "kill"], "docker kill etcd", "docker kill etcd", &[], ETCD_ONLY),
    hidden(shell(&["docker", "rm"], "docker rm etcd", "docker rm etcd", &[], &[])),
    hidden(shell(&["docker", "ps"], "docker ps", "docker ps", &[], &[])),
    hidden(shell(&["docker", "pull"], "docker pull IMAGE", "docker pull quay.io/coreos/etcd:v3.4.23", &[], &[])),
    shell(&["kill"], "kill [-9|-TERM] etcd", "kill -9 etcd", KILL, ETCD_ONLY),
    shell(&["rm"], "rm -rf PATH...", "rm -rf node01.etcd", &[boolean("-rf"), boolean("-drf")], &[]),
    shell(&["ls"], "ls", "ls", &[], &[]),
    shell(&["cp"], "cp [-r] SRC DST", "cp backup.db old.db", &[boolean("-r")], &[]),
    shell(&["scp"], "scp [-r] [HOST:]SRC [HOST:]DST", "scp backup.db node02:backup.db", &[boolean("-r")], &[]),
    shell(&["logs"], "logs [HOST]", "logs node01", &[], MACHINE),
    shell(&["etcdctl"], "etcdctl [FLAGS] COMMAND ...", "etcdctl member list", ETCDCTL_GLOBALS, &[]),
    shell(&["etcdutl"], "etcdutl version | etcdutl snapshot status|restore ... (etcd 3.5 only)", "etcdutl version", &[], &[]),
    shell(&["curl"], "curl [-s] http://HOST:2379/version", "curl -s http://192.168.0.61:2379/version",
        &[boolean("-s"), boolean("-sS"), boolean("-L")], &[]),
    shell(&["etcdutl", "version"], "etcdutl version", "etcdutl version", &[], &[]),
    shell(&["etcdutl", "snapshot", "status"], "etcdutl snapshot status FILE [-w table]",
        "etcdutl snapshot status backup.db -w table", &[], &[]),
    shell(&["etcdutl", "snapshot", "restore"],
        "etcdutl snapshot restore FILE --name NAME --initial-cluster NAME=URL,... --initial-advertise-peer-urls URL [--data-dir DIR]",
        "etcdutl snapshot restore backup.db --name node01 --initial-cluster node01=http://192.168.0.61:2380 --initial-advertise-peer-urls http://192.168.0.61:2380",
        &[], &[]),
    shell(&["net"], "net | net show | net cut A B | net cut A->B | net heal [A B] | net isolate A | net partition A B | C D | net delay A B DURATION [JITTER] | net loss A B PERCENT | net rate A RATE [limit SIZE] | net clear A [B]",
        "net cut node01 node02", &[], &[]),
    shell(&["net", "show"], "net show", "net show", &[], &[]),
    shell(&["net", "cut"], "net cut A B | net cut A->B", "net cut node01->node02", &[], &[Val::Machine, Val::Machine]),
    shell(&["net", "heal"], "net heal [A B]", "net heal node01 node02", &[], &[Val::Machine, Val::Machine]),
    shell(&["net", "isolate"], "net isolate A", "net isolate node01", &[], MACHINE),
    shell(&["net", "partition"], "net partition A B | C D", "net partition node01 | node02 node03", &[], &[]),
    shell(&["net", "delay"], "net delay A B DURATION [JITTER] | net delay A->B DURATION [JITTER]", "net delay node01 node02 50ms 10ms",
        &[], &[Val::Machine, Val::Machine]),
    shell(&["net", "loss"], "net loss A B PERCENT | net loss A->B PERCENT", "net loss node01 node02 5%", &[], &[Val::Machine, Val::Machine]),
    shell(&["net", "rate"], "net rate A RATE [limit SIZE]", "net rate node01 10mbit limit 4mb", &[],
        &[Val::Machine, Val::Choice(&["1gbit", "100mbit", "10mbit", "500kbit"]), Val::Choice(&["limit"]),
          Val::Choice(&["4mb", "256kb"])]),
    shell(&["net", "clear"], "net clear A [B]", "net clear node01 node02", &[], &[Val::Machine, Val::Machine]),
    shell(&["sleep"], "sleep DURATION", "sleep 1.5s", &[], &[]),
    shell(&["wait"], "wait", "wait", &[], &[]),
    shell(&["true"], "true", "true", &[], &[]),
    shell(&["sh"], "sh", "sh", &[], &[]),
    shell(&["clear"], "clear", "clear", &[], &[]),
];

/// `kill`'s flags (`-s` takes a signal name).
#[rustfmt::skip]
const KILL: &[Flag] = &[
    boolean("-9"), boolean("-15"), boolean("-KILL"), boolean("-SIGKILL"), boolean("-TERM"),
    boolean("-SIGTERM"), flag("-s", Kind::Value(Val::Choice(SIGNALS))),
];

/// `docker run`'s options: those taking a value, then common booleans.
#[rustfmt::skip]
const DOCKER_RUN: &[Flag] = &[
    flag("--name", Kind::Value(Val::Choice(&["etcd"]))),
    repeated(value("-p")), repeated(value("-v")), repeated(value("-e")),
    flag("--net", Kind::Value(Val::Choice(&["host"]))),
    flag("--network", Kind::Value(Val::Choice(&["host"]))),
    value("--restart"), repeated(value("--mount")),
    boolean("-d"), boolean("-it"), boolean("--rm"),
];

/// The shell's table entry for these words (`["net", "cut"]`).
pub fn shell_spec(words: &[&str]) -> Option<&'static Spec<()>> {
    SHELL.iter().find(|s| s.words == words)
}

/// Every command name the shell runs, sorted.
pub fn commands() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = SHELL
        .iter()
        .filter_map(|s| match s.words {
            [name] => Some(*name),
            _ => None,
        })
        .collect();
    names.sort_unstable();
    names
}

/// Whether the shell runs a command of this name.
pub fn is_command(name: &str) -> bool {
    SHELL.iter().any(|s| s.words == [name])
}

/// The usage the shell prints for a command (`net` and `machine` list every form).
pub fn usage(command: &str) -> &'static str {
    shell_spec(&[command]).map_or("", |s| s.usage)
}

// ---------------------------------------------------------------------------------
// Flags on a line
// ---------------------------------------------------------------------------------

/// How a program reads its flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Go's `flag` package (etcd): flags stop at the first other word.
    Go,
    /// spf13's `pflag` (etcdctl): flags anywhere until `--`.
    Pflag,
}

/// A flag as given on a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given {
    pub flag: &'static Flag,
    /// As typed before any `=` (`-w`, `--name`, `-name`).
    pub spelled: String,
    /// The value (`None`: a boolean given alone).
    pub value: Option<String>,
    /// Whether the value came after `=` in the same word.
    pub inline: bool,
}

impl Given {
    /// The value, `true` for a boolean given alone.
    pub fn value(&self) -> &str {
        self.value.as_deref().unwrap_or("true")
    }
}

/// A word of a program's arguments: a flag (with its value), a positional, or
/// pflag's `--` (every word after it is a positional).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Flag(Given),
    Arg(String),
    End,
}

/// Why a program refused its flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlagError {
    /// A flag no table holds (the word as typed for pflag; the name for Go).
    Unknown(String),
    /// A flag that takes a value, last on the line.
    NeedsArgument(&'static str),
}

impl FlagError {
    /// The message the program prints (etcdctl prefixes `Error: `).
    pub fn message(&self, dialect: Dialect) -> String {
        match (self, dialect) {
            (FlagError::Unknown(n), Dialect::Go) => format!("flag provided but not defined: -{n}"),
            (FlagError::Unknown(a), Dialect::Pflag) => format!("unknown flag: {a}"),
            (FlagError::NeedsArgument(n), Dialect::Go) => format!("flag needs an argument: -{n}"),
            (FlagError::NeedsArgument(n), Dialect::Pflag) => {
                format!("flag needs an argument: --{n}")
            }
        }
    }
}

/// A program's arguments read with its flag table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flags {
    /// Every word, in order.
    pub items: Vec<Item>,
    /// The first flag error (the words after it are not read).
    pub error: Option<FlagError>,
}

impl Flags {
    /// Reads `args` as `dialect` does, with `find` naming the known flags.
    pub fn read(
        args: &[String],
        dialect: Dialect,
        find: fn(&str) -> Option<&'static Flag>,
    ) -> Flags {
        let mut items = Vec::new();
        let mut words = args.iter();
        let error = loop {
            let Some(a) = words.next() else { break None };
            let body = match dialect {
                Dialect::Go => a.strip_prefix("--").or_else(|| a.strip_prefix('-')),
                Dialect::Pflag if a == "--" => None,
                Dialect::Pflag => a
                    .strip_prefix("--")
                    .or_else(|| a.strip_prefix('-').filter(|b| !b.is_empty())),
            };
            let Some(body) = body else {
                if dialect == Dialect::Go || a == "--" {
                    // Go stops at the first positional; pflag's `--` ends its flags.
                    let first = match dialect {
                        Dialect::Go => Item::Arg(a.clone()),
                        Dialect::Pflag => Item::End,
                    };
                    items.push(first);
                    items.extend(words.by_ref().cloned().map(Item::Arg));
                    break None;
                }
                items.push(Item::Arg(a.clone()));
                continue;
            };
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            let Some(flag) = find(name) else {
                let shown = if dialect == Dialect::Go { name } else { a };
                break Some(FlagError::Unknown(shown.to_string()));
            };
            let spelled = a.split_once('=').map_or(a.as_str(), |(s, _)| s).to_string();
            let is_inline = inline.is_some();
            let value = match (inline, flag.kind) {
                (Some(v), _) => Some(v),
                (None, Kind::Bool) => None,
                (None, Kind::Value(_)) => match words.next() {
                    Some(v) => Some(v.clone()),
                    None => break Some(FlagError::NeedsArgument(flag.name)),
                },
            };
            items.push(Item::Flag(Given {
                flag,
                spelled,
                value,
                inline: is_inline,
            }));
        };
        Flags { items, error }
    }

    /// The last value given for `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.given()
            .filter(|g| g.flag.name == name)
            .last()
            .map(Given::value)
    }

    /// Whether a boolean flag is on (given, and not `=false`).
    pub fn on(&self, name: &str) -> bool {
        self.get(name).is_some_and(|v| v != "false")
    }

    /// The flags given, in order.
    pub fn given(&self) -> impl Iterator<Item = &Given> {
        self.items.iter().filter_map(|i| match i {
            Item::Flag(g) => Some(g),
            _ => None,
        })
    }

    /// The positional arguments, in order.
    pub fn args(&self) -> Vec<&str> {
        self.items
            .iter()
            .filter_map(|i| match i {
                Item::Arg(a) => Some(a.as_str()),
                _ => None,
            })
            .collect()
    }
}

impl Item {
    /// The word or words it was given as.
    pub fn words(&self) -> Vec<String> {
        match self {
            Item::Arg(a) => vec![a.clone()],
            Item::End => vec!["--".to_string()],
            Item::Flag(g) => match (&g.value, g.inline) {
                (Some(v), true) => vec![format!("{}={v}", g.spelled)],
                (Some(v), false) => vec![g.spelled.clone(), v.clone()],
                (None, _) => vec![g.spelled.clone()],
            },
        }
    }
}

// ---------------------------------------------------------------------------------
// Typed commands
// ---------------------------------------------------------------------------------

/// An `etcdctl` line: its flags and the command its positionals name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Etcdctl {
    pub flags: Flags,
    pub call: Call,
}

/// The etcdctl command a line names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    /// No command, or a family alone (`etcdctl member`): etcdctl prints its help.
    Help,
    /// A word no table holds.
    Unknown(String),
    /// A command used with the wrong number of arguments: its message.
    Usage(String),
    /// A command with its positional arguments (the command's words left out).
    Run {
        spec: &'static Spec<Op>,
        args: Vec<String>,
    },
}

impl Etcdctl {
    fn parse(args: &[String]) -> Etcdctl {
        let mut flags = Flags::read(args, Dialect::Pflag, etcdctl_flag);
        if flags.args().contains(&"check") {
            flags = Flags::read(args, Dialect::Pflag, check_flag);
        }
        let positional = flags.args();
        let spec = ETCDCTL.iter().find(|s| positional.starts_with(s.words));
        let call = match (spec, positional.as_slice()) {
            (Some(spec), _) => {
                let rest: Vec<String> = positional[spec.words.len()..]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                match arity_error(spec, &rest) {
                    Some(message) => Call::Usage(message),
                    None => Call::Run { spec, args: rest },
                }
            }
            (None, [] | ["member" | "endpoint" | "snapshot" | "check"]) => Call::Help,
            _ => Call::Unknown(positional.first().map_or(String::new(), |s| s.to_string())),
        };
        Etcdctl { flags, call }
    }

    /// The operation and its arguments, when the line names one.
    pub fn op(&self) -> Option<(Op, &[String])> {
        match &self.call {
            Call::Run { spec, args } => Some((spec.id, args)),
            _ => None,
        }
    }
}

/// The message for a wrong number of arguments; `member add`'s names the
/// `--peer-urls` a URL given as an argument was meant for.
fn arity_error(spec: &Spec<Op>, args: &[String]) -> Option<String> {
    let a = spec.arity;
    if args.len() < a.min {
        return Some(a.missing.to_string());
    }
    if a.max.is_some_and(|max| args.len() > max) {
        let mut msg = a.extra.to_string();
        if spec.flags.contains(&PEER_URLS) {
            for extra in args.iter().skip(1).filter(|e| e.starts_with("http")) {
                msg.push_str(&format!(", did you mean --peer-urls={extra}"));
            }
        }
        return Some(msg);
    }
    None
}

/// An `etcd` line (also `docker run … etcd`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Etcd {
    /// `--version` (or `-version`) given: print the version, start nothing.
    pub version: bool,
    pub flags: Flags,
    /// The release a `docker run` image's tag names (`…:v3.5.1`): it runs
    /// whatever the machine has installed.
    pub image: Option<EtcdVersion>,
    /// The program as named and its arguments, as etcd 3.5 logs them
    /// (`Running: `).
    pub argv: Vec<String>,
}

impl Etcd {
    fn parse(program: &str, args: &[String]) -> Etcd {
        let flags = Flags::read(args, Dialect::Go, etcd_flag);
        let argv = std::iter::once(program.to_string()).chain(args.iter().cloned());
        Etcd {
            version: flags.on("version"),
            flags,
            image: None,
            argv: argv.collect(),
        }
    }
}

/// The release an image's tag names: `v3.4.x` or `v3.5.x` (`None`: another
/// tag, or none).
fn image_version(image: &str) -> Option<EtcdVersion> {
    let tag = image.rsplit_once(':')?.1;
    EtcdVersion::ALL.into_iter().find(|v| {
        tag.strip_prefix('v')
            .and_then(|t| t.strip_prefix(v.name()))
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
    })
}

/// `machine …`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Machine {
    /// `machine add NAME [ADDR...] [--etcd-version V]` (`None`: the session's).
    Add {
        name: String,
        addrs: Vec<String>,
        etcd: Option<EtcdVersion>,
    },
    Rm(String),
    Down(String),
    Up(String),
    /// `machine etcd-version NAME V`: another etcd on a machine whose etcd is
    /// stopped.
    Install(String, EtcdVersion),
    /// An `--etcd-version` that is neither 3.4 nor 3.5, as written.
    BadVersion(String),
    Usage,
}

/// `net …`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Net {
    Show,
    /// Both directions.
    Cut(String, String),
    /// One direction (`A->B`).
    CutOne(String, String),
    /// `A->B` missing: `net cut` with one word that is no arrow.
    CutUsage,
    Heal(Option<(String, String)>),
    Isolate(String),
    /// Names, with `|` between the sides.
    Partition(Vec<String>),
    /// `net delay`: latency and optional jitter, as written.
    Delay {
        links: Links,
        duration: String,
        jitter: Option<String>,
    },
    /// `net loss`: the chance, as written (`5%`).
    Loss {
        links: Links,
        percent: String,
    },
    /// `net rate`: a machine's egress rate and queue limit, as written.
    Rate {
        machine: String,
        rate: String,
        limit: Option<String>,
    },
    /// `net clear A` (the NIC) or `net clear A B` (the pair's links).
    Clear {
        machine: String,
        peer: Option<String>,
    },
    /// A subcommand used wrongly: its usage (`delay`, `loss`, `rate`, `clear`).
    UsageOf(&'static str),
    Usage,
}

/// The links a `net delay` or `net loss` sets: both ways between two
/// machines, or one way (`A->B`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Links {
    Both(String, String),
    One(String, String),
}

impl Links {
    /// The two machines, in the order written.
    pub fn ends(&self) -> (&str, &str) {
        match self {
            Links::Both(a, b) | Links::One(a, b) => (a, b),
        }
    }

    /// The arguments as written (`A B` or `A->B`).
    pub fn words(&self) -> String {
        match self {
            Links::Both(a, b) => format!("{a} {b}"),
            Links::One(a, b) => format!("{a}->{b}"),
        }
    }
}

/// `docker …`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Docker {
    /// `docker run`: the etcd it starts, if its image runs etcd.
    Run(Option<Etcd>),
    Logs,
    Stop,
    Kill,
    /// Accepted, does nothing (`exec`, `rm`, `ps`, `pull`).
    Nothing,
    Usage,
}

/// `etcdutl …`: what etcd 3.5.1's etcdutl does here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Etcdutl {
    Version,
    /// `etcdutl snapshot status|restore …`: read with etcdctl's table (the
    /// same commands and flags, offline).
    Snapshot(Etcdctl),
    /// No command: cobra prints the usage.
    Usage,
    /// A command etcdutl does not have, as written.
    Unknown(String),
}

/// `curl [-s|-sS|--silent] [-L] URL`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Curl {
    Get {
        url: String,
        silent: bool,
    },
    /// An option curl does not know here, as written (`None`: no URL).
    Usage(Option<String>),
}

fn curl(rest: &[&str]) -> Curl {
    let mut silent = false;
    let mut url = None;
    for w in rest {
        match *w {
            "-s" | "--silent" | "-sS" | "-sL" | "-Ls" => silent = true,
            "-S" | "-L" | "--location" | "--show-error" => {}
            o if o.starts_with('-') => return Curl::Usage(Some(o.to_string())),
            u => url = Some(u.to_string()),
        }
    }
    match url {
        Some(url) => Curl::Get { url, silent },
        None => Curl::Usage(None),
    }
}

/// A signal `kill` sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Term,
    Kill,
}

/// One command, typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// No command (a blank line, or assignments alone).
    Nothing,
    Machine(Machine),
    /// `hosts` (`cat /etc/hosts`), or `hosts set NAME ADDR`.
    Hosts(Option<(String, String)>),
    HostsUsage,
    Ssh(String),
    /// `date`, or `date -s WHEN`.
    Date(Option<String>),
    DateUsage,
    Echo(Vec<String>),
    Export(Vec<String>),
    Etcd(Etcd),
    Docker(Docker),
    /// `kill [SIGNAL] TARGET`, or its usage (`None`).
    Kill(Option<(Signal, String)>),
    /// `rm`'s paths (its flags left out).
    Rm(Vec<String>),
    Ls,
    /// `cp` / `scp` (`remote`): source and destination, or `None` for its usage.
    Copy {
        remote: bool,
        paths: Option<(String, String)>,
    },
    Logs(Option<String>),
    Etcdctl(Etcdctl),
    /// `etcdutl …` (etcd 3.5's offline tool).
    Etcdutl(Etcdutl),
    /// `curl [-s] URL`: an HTTP GET of a member's client URL (`/version`).
    Curl(Curl),
    Net(Net),
    /// `sleep DURATION` (`None`: a missing or extra operand).
    Sleep(Option<String>),
    /// `wait`, or `wait PID`.
    Wait(Option<String>),
    /// `true`, `sh`, `clear`.
    Nop,
    NotFound(String),
}

/// A parsed line: leading `NAME=VALUE` assignments, the words, the command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub assigns: Vec<(String, String)>,
    /// The command's words (assignments left out), as the shell read them.
    pub words: Vec<String>,
    pub command: Command,
}

impl fmt::Display for Line {
    /// The canonical line: each word quoted only where sh needs it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let assigns = self
            .assigns
            .iter()
            .map(|(k, v)| format!("{k}={}", quote(v)));
        // `net partition`'s `|` is a word, not a pipe (see `net`).
        let words = self
            .words
            .iter()
            .map(|w| if w == "|" { w.clone() } else { quote(w) });
        let all: Vec<String> = assigns.chain(words).collect();
        f.write_str(&all.join(" "))
    }
}

impl Command {
    /// Whether it can throw acknowledged writes away: a forced new cluster, a
    /// snapshot restore, deleting files.
    pub fn is_destructive(&self) -> bool {
        match self {
            Command::Etcd(e) | Command::Docker(Docker::Run(Some(e))) => {
                e.flags.on("force-new-cluster")
            }
            Command::Etcdctl(e) => matches!(e.op(), Some((Op::SnapshotRestore, _))),
            Command::Rm(_) => true,
            _ => false,
        }
    }
}

/// Reads a command's text as the shell would, with variables left as written
/// (`$NAME`), for what looks at a line without running it. `None` when its
/// words cannot be read (an open quote, a pipe).
pub fn read(text: &str) -> Option<Line> {
    let keep = |name: &str| Some(format!("${name}"));
    super::parse::words(text, &keep, 0).ok().map(|w| parse(&w))
}

/// A word as sh (and the exported bash) reads it back: bare when safe, else in
/// single quotes.
pub fn quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Reads a line's words (after expansion) into a typed command.
pub fn parse(words: &[String]) -> Line {
    let mut i = 0;
    let mut assigns = Vec::new();
    while let Some((k, v)) = words.get(i).and_then(|w| w.split_once('=')) {
        if !super::parse::is_name(k) {
            break;
        }
        assigns.push((k.to_string(), v.to_string()));
        i += 1;
    }
    let argv = words.get(i..).unwrap_or_default().to_vec();
    let command = command(&argv);
    Line {
        assigns,
        words: argv,
        command,
    }
}

fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|s| s.to_string()).collect()
}

/// One match over every command name.
fn command(argv: &[String]) -> Command {
    let args: Vec<&str> = argv.iter().map(String::as_str).collect();
    let tail = || argv.get(1..).unwrap_or_default();
    match args.as_slice() {
        [] => Command::Nothing,
        ["machine", rest @ ..] => Command::Machine(machine(rest)),
        ["hosts"] | ["cat", "/etc/hosts"] => Command::Hosts(None),
        ["hosts", "set", name, addr] => Command::Hosts(Some((name.to_string(), addr.to_string()))),
        ["hosts", ..] => Command::HostsUsage,
        ["ssh", name] => Command::Ssh(name.to_string()),
        ["date"] => Command::Date(None),
        ["date", "-s" | "--set", when] => Command::Date(Some(when.to_string())),
        ["date", ..] => Command::DateUsage,
        ["echo", rest @ ..] => Command::Echo(owned(rest)),
        ["export", rest @ ..] => Command::Export(owned(rest)),
        [program @ ("etcd" | "/usr/local/bin/etcd"), ..] => {
            Command::Etcd(Etcd::parse(program, tail()))
        }
        ["docker", rest @ ..] => Command::Docker(docker(rest)),
        ["kill", rest @ ..] => Command::Kill(kill(rest)),
        ["rm", rest @ ..] => Command::Rm(
            owned(rest)
                .into_iter()
                .filter(|a| !a.starts_with('-'))
                .collect(),
        ),
        ["ls", ..] => Command::Ls,
        [c @ ("cp" | "scp"), rest @ ..] => {
            let plain: Vec<&str> = rest
                .iter()
                .copied()
                .filter(|a| !a.starts_with('-'))
                .collect();
            let paths = match plain.as_slice() {
                [src, dst] => Some((src.to_string(), dst.to_string())),
                _ => None,
            };
            Command::Copy {
                remote: *c == "scp",
                paths,
            }
        }
        ["logs", rest @ ..] => Command::Logs(rest.first().map(|s| s.to_string())),
        ["etcdctl", ..] => Command::Etcdctl(Etcdctl::parse(tail())),
        ["curl", rest @ ..] => Command::Curl(curl(rest)),
        ["etcdutl"] | ["etcdutl", "--help" | "-h" | "help"] => Command::Etcdutl(Etcdutl::Usage),
        ["etcdutl", "version", ..] => Command::Etcdutl(Etcdutl::Version),
        ["etcdutl", "snapshot", "status" | "restore", ..] => {
            Command::Etcdutl(Etcdutl::Snapshot(Etcdctl::parse(tail())))
        }
        ["etcdutl", other, ..] => Command::Etcdutl(Etcdutl::Unknown(other.to_string())),
        ["net", rest @ ..] => Command::Net(net(rest)),
        ["sleep", d] => Command::Sleep(Some(d.to_string())),
        ["sleep", ..] => Command::Sleep(None),
        ["wait"] => Command::Wait(None),
        ["wait", pid, ..] => Command::Wait(Some(pid.to_string())),
        ["true"] | ["sh"] | ["clear"] => Command::Nop,
        [other, ..] => Command::NotFound(other.to_string()),
    }
}

fn machine(rest: &[&str]) -> Machine {
    match rest {
        ["add", name, words @ ..] => machine_add(name, words),
        ["rm", name] => Machine::Rm(name.to_string()),
        ["down", name] => Machine::Down(name.to_string()),
        ["up", name] => Machine::Up(name.to_string()),
        ["etcd-version", name, v] => match EtcdVersion::from_name(v) {
            Some(v) => Machine::Install(name.to_string(), v),
            None => Machine::BadVersion(v.to_string()),
        },
        _ => Machine::Usage,
    }
}

/// `machine add NAME [ADDR...] [--etcd-version V | --etcd-version=V]`.
fn machine_add(name: &str, words: &[&str]) -> Machine {
    let mut addrs = Vec::new();
    let mut etcd = None;
    let mut rest = words.iter();
    while let Some(w) = rest.next() {
        let v = match w.strip_prefix("--etcd-version") {
            Some("") => rest.next().copied(),
            Some(v) => v.strip_prefix('='),
            None if w.starts_with('-') => return Machine::Usage,
            None => {
                addrs.push(w.to_string());
                continue;
            }
        };
        match v.map(|v| (v, EtcdVersion::from_name(v))) {
            Some((_, Some(v))) => etcd = Some(v),
            Some((v, None)) => return Machine::BadVersion(v.to_string()),
            None => return Machine::Usage,
        }
    }
    Machine::Add {
        name: name.to_string(),
        addrs,
        etcd,
    }
}

fn net(rest: &[&str]) -> Net {
    match rest {
        [] => Net::Show,
        ["cut", a, b] => Net::Cut(a.to_string(), b.to_string()),
        ["cut", ab] => match ab.split_once("->") {
            Some((a, b)) => Net::CutOne(a.to_string(), b.to_string()),
            None => Net::CutUsage,
        },
        ["heal"] => Net::Heal(None),
        ["heal", a, b] => Net::Heal(Some((a.to_string(), b.to_string()))),
        ["isolate", a] => Net::Isolate(a.to_string()),
        ["partition", groups @ ..] => Net::Partition(owned(groups)),
        ["show"] => Net::Show,
        ["delay", rest @ ..] => match links(rest) {
            Some((links, [d, jitter @ ..])) if jitter.len() <= 1 => Net::Delay {
                links,
                duration: d.to_string(),
                jitter: jitter.first().map(|j| j.to_string()),
            },
            _ => Net::UsageOf("delay"),
        },
        ["loss", rest @ ..] => match links(rest) {
            Some((links, [p])) => Net::Loss {
                links,
                percent: p.to_string(),
            },
            _ => Net::UsageOf("loss"),
        },
        ["rate", a, r] | ["rate", a, r, "limit", _] => Net::Rate {
            machine: a.to_string(),
            rate: r.to_string(),
            limit: rest.get(4).map(|s| s.to_string()),
        },
        ["rate", ..] => Net::UsageOf("rate"),
        ["clear", a] => Net::Clear {
            machine: a.to_string(),
            peer: None,
        },
        ["clear", a, b] => Net::Clear {
            machine: a.to_string(),
            peer: Some(b.to_string()),
        },
        ["clear", ..] => Net::UsageOf("clear"),
        _ => Net::Usage,
    }
}

/// `A->B` or `A B` at the front of `rest`, and the words after them.
fn links<'a, 'b>(rest: &'a [&'b str]) -> Option<(Links, &'a [&'b str])> {
    let (first, tail) = rest.split_first()?;
    if let Some((a, b)) = first.split_once("->") {
        return Some((Links::One(a.to_string(), b.to_string()), tail));
    }
    let (second, tail) = tail.split_first()?;
    Some((Links::Both(first.to_string(), second.to_string()), tail))
}

fn docker(rest: &[&str]) -> Docker {
    match rest {
        ["run", opts @ ..] => Docker::Run(docker_run(opts)),
        ["logs", ..] => Docker::Logs,
        ["stop", _] => Docker::Stop,
        ["kill", _] => Docker::Kill,
        ["exec", ..] | ["rm", ..] | ["ps", ..] | ["pull", ..] => Docker::Nothing,
        _ => Docker::Usage,
    }
}

/// Where the image stands in `docker run`'s words after `run`: past its
/// options, each with its value if it takes one (past the end when the last
/// option's value is missing).
pub fn docker_image_at(opts: &[&str]) -> usize {
    let mut i = 0;
    while let Some(o) = opts.get(i).filter(|o| o.starts_with('-')) {
        let takes_value = DOCKER_RUN
            .iter()
            .any(|f| matches!(f.kind, Kind::Value(_)) && f.name == *o);
        i += if takes_value { 2 } else { 1 };
    }
    i
}

/// `docker run [OPTS] IMAGE [/usr/local/bin/]etcd FLAGS...`: the etcd it starts.
fn docker_run(opts: &[&str]) -> Option<Etcd> {
    let at = docker_image_at(opts);
    match opts.get(at + 1..)? {
        [binary, flags @ ..] if matches!(*binary, "etcd" | "/usr/local/bin/etcd") => Some(Etcd {
            image: opts.get(at).and_then(|i| image_version(i)),
            ..Etcd::parse(binary, &owned(flags))
        }),
        _ => None,
    }
}

fn kill(rest: &[&str]) -> Option<(Signal, String)> {
    let (signal, target) = match rest {
        [t] => (Signal::Term, *t),
        ["-9" | "-KILL" | "-SIGKILL", t] | ["-s", "KILL" | "SIGKILL", t] => (Signal::Kill, *t),
        ["-15" | "-TERM" | "-SIGTERM", t] | ["-s", "TERM" | "SIGTERM", t] => (Signal::Term, *t),
        _ => return None,
    };
    Some((signal, target.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        let none = |_: &str| None;
        // `net partition`'s `|` is no pipe (the session splits its sides first).
        let sides: Vec<Vec<String>> = text
            .split(" | ")
            .map(|side| super::super::parse::words(side, &none, 0).expect("words"))
            .collect();
        parse(&sides.join(&"|".to_string()))
    }

    #[test]
    fn every_entry_has_usage_and_an_example() {
        let shell = SHELL.iter().map(|s| (s.words, s.usage, s.example));
        let etcdctl = ETCDCTL.iter().map(|s| (s.words, s.usage, s.example));
        for (words, usage, example) in shell.chain(etcdctl) {
            assert!(!usage.is_empty() && !example.is_empty(), "{words:?}");
        }
    }

    #[test]
    fn every_example_parses_to_its_own_command() {
        for s in ETCDCTL {
            let l = line(s.example);
            let Command::Etcdctl(e) = &l.command else {
                panic!("{}", s.example)
            };
            assert_eq!(e.op().map(|(op, _)| op), Some(s.id), "{}", s.example);
            assert!(e.flags.error.is_none(), "{}", s.example);
        }
        for s in SHELL {
            let l = line(s.example);
            assert!(!matches!(l.command, Command::NotFound(_)), "{}", s.example);
            assert_eq!(
                l.words.first().map(String::as_str),
                s.words.first().copied()
            );
        }
    }

    #[test]
    fn display_reads_back_as_the_same_line() {
        for text in [
            "etcdctl put k \"snapshot restore\"",
            "X=1 etcdctl --endpoints=http://a:2379 -w table member list",
            "echo 'it''s' \"a b\"",
            "etcd --name n1 --initial-cluster n1=http://1.2.3.4:2380",
        ] {
            let l = line(text);
            assert_eq!(line(&l.to_string()), l, "{text} -> {l}");
        }
    }

    /// The table is the one place a flag lives: `MADE_UP`, in `get`'s entry
    /// under `cfg(test)`, is parsed, run, completed, exported (passed through
    /// as written: export rewrites only URL, path and member-ID values) and
    /// documented, with no other file naming it.
    #[test]
    fn a_made_up_flag_needs_only_the_table() {
        let Command::Etcdctl(e) = line("etcdctl get k --made-up two").command else {
            panic!("etcdctl")
        };
        assert_eq!(
            (&e.flags.error, e.flags.get("made-up")),
            (&None, Some("two"))
        );
        assert!(e
            .op()
            .is_some_and(|(op, args)| op == Op::Get && args == ["k"]));
        let mut s = crate::shell::session::Session::new(1);
        s.run_typed("machine add n1");
        let out = s
            .run_typed("etcdctl --command-timeout=50ms get k --made-up=two")
            .output;
        assert!(out.stderr.contains("context deadline exceeded"), "{out:?}");
        let ctx = crate::shell::complete::Context {
            machines: &[],
            member_ids: &[],
            member_names: &[],
            without_etcdutl: &[],
            here: "",
        };
        let done = |l: &str| crate::shell::complete::complete(l, &ctx).candidates;
        assert_eq!(done("etcdctl get k --made"), ["--made-up="]);
        assert!(done("etcdctl put k v --made").is_empty(), "get's own flag");
        assert_eq!(done("etcdctl get k --made-up "), ["one", "two"]);
        let script = "machine add n1\nn1$ etcdctl get k --made-up=two\n";
        let bash = crate::export::bash(script).expect("exports");
        assert!(
            bash.contains("\"$ETCDCTL\" get k --made-up=two; st=$?"),
            "{bash}"
        );
        let get = ETCDCTL.iter().find(|s| s.id == Op::Get).expect("get");
        assert!(
            get.help().contains("  --made-up=one|two (default one)\n"),
            "{}",
            get.help()
        );
    }

    #[test]
    fn destructive_commands_are_read_from_the_typed_command() {
        let destructive = |text: &str| read(text).is_some_and(|l| l.command.is_destructive());
        assert!(!destructive("etcdctl put k \"snapshot restore\""));
        assert!(!destructive("etcdctl put k --force-new-cluster"));
        assert!(!destructive("echo rm -rf x"));
        assert!(!destructive("etcd --force-new-cluster=false"));
        assert!(destructive("etcdctl snapshot restore s.db --name n1"));
        assert!(destructive("etcdctl -w json snapshot restore s.db"));
        assert!(destructive("etcd --name n1 --force-new-cluster"));
        assert!(destructive("X=1 rm -rf n1.etcd"));
    }

    #[test]
    fn kill_reads_every_spelling_of_its_signals() {
        for (text, signal) in [
            ("kill etcd", Signal::Term),
            ("kill -15 etcd", Signal::Term),
            ("kill -TERM etcd", Signal::Term),
            ("kill -SIGTERM etcd", Signal::Term),
            ("kill -s TERM etcd", Signal::Term),
            ("kill -s SIGTERM etcd", Signal::Term),
            ("kill -9 etcd", Signal::Kill),
            ("kill -KILL etcd", Signal::Kill),
            ("kill -SIGKILL etcd", Signal::Kill),
            ("kill -s KILL etcd", Signal::Kill),
            ("kill -s SIGKILL etcd", Signal::Kill),
        ] {
            let want = Command::Kill(Some((signal, "etcd".into())));
            assert_eq!(line(text).command, want, "{text}");
        }
    }

    #[test]
    fn etcdctl_lines_are_typed() {
        let l = line("etcdctl put k \"snapshot restore\"");
        let Command::Etcdctl(e) = &l.command else {
            panic!("etcdctl")
        };
        assert_eq!(
            e.op(),
            Some((
                Op::Put,
                &["k".to_string(), "snapshot restore".to_string()][..]
            ))
        );
        let Command::Etcdctl(e) =
            line("etcdctl -w json --learner=false member add n --peer-urls x").command
        else {
            panic!("etcdctl")
        };
        assert_eq!(e.flags.get("write-out"), Some("json"));
        assert!(!e.flags.on("learner"));
        assert_eq!(e.flags.get("peer-urls"), Some("x"));
        let Command::Etcdctl(e) = line("etcdctl member add a http://x").command else {
            panic!("etcdctl")
        };
        assert_eq!(
            e.call,
            Call::Usage("too many arguments, did you mean --peer-urls=http://x".into())
        );
        let Command::Etcdctl(e) = line("etcdctl --bogus version").command else {
            panic!("etcdctl")
        };
        assert_eq!(e.flags.error, Some(FlagError::Unknown("--bogus".into())));
    }
}
