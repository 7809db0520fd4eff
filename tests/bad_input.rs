//! Bad input: every malformed or impossible command gets the error a shell or
//! etcdctl would print, nothing panics, and the world is as it was.
#![cfg(not(target_arch = "wasm32"))]

use quorum_playground::shell::parse;
use quorum_playground::shell::runner::run_one;
use quorum_playground::shell::session::Session;
use quorum_playground::sim::view::WorldView;

const BOOT: &str = include_str!("../src/ui/boot.sh");

/// A running three-member cluster plus an empty machine, node04.
fn session() -> Session {
    let mut s = Session::new(1);
    let mut sink = String::new();
    for c in parse::parse_script(BOOT).expect("boot script parses") {
        run_one(&mut s, &c, false, &mut sink);
    }
    s.run_typed("machine add node04 192.168.0.64");
    s.run_typed("ssh node01");
    s
}

/// The view without what merely passing time changes (the clock, the log length).
fn timeless(mut v: WorldView) -> WorldView {
    v.now_ms = 0;
    v.wall_ms = 0;
    v.log_lines = 0;
    v
}

/// Runs `line`; checks its stderr, status, and that the world did not change.
fn rejects(s: &mut Session, line: &str, stderr: &str, status: i32) {
    let before = s.world.view();
    let current = s.current().map(String::from);
    let ex = s.run_typed(line);
    assert!(
        ex.output.stderr.contains(stderr),
        "{line}: expected stderr containing {stderr:?}, got {:?}",
        ex.output.stderr
    );
    assert_eq!(ex.output.status, status, "{line}: exit status");
    assert_eq!(ex.output.stdout, "", "{line}: no standard output");
    assert_eq!(
        timeless(s.world.view()),
        timeless(before),
        "{line}: the world changed"
    );
    assert_eq!(
        s.current().map(String::from),
        current,
        "{line}: the current machine changed"
    );
}

#[test]
fn shell_syntax_errors_change_nothing() {
    let mut s = session();
    let unsupported = [
        ("etcdctl member list | grep node01", "pipes"),
        ("etcdctl put a b && etcdctl get a", "&&"),
        ("etcdctl put a b || true", "||"),
        ("etcdctl put a b; etcdctl get a", ";"),
        ("etcd --name x &", "&"),
        ("echo $(date)", "command substitution"),
        ("echo `date`", "command substitution"),
        ("etcdctl member list > members.txt", "redirection"),
    ];
    for (line, what) in unsupported {
        rejects(&mut s, line, what, 2);
    }
    rejects(
        &mut s,
        "echo \"unterminated",
        "unterminated quoted string",
        2,
    );
    rejects(&mut s, "echo ${NODE01", "bad substitution", 2);
}

#[test]
fn unknown_commands_and_machines_change_nothing() {
    let mut s = session();
    rejects(
        &mut s,
        "frobnicate --now",
        "sh: frobnicate: command not found",
        127,
    );
    rejects(
        &mut s,
        "node09$ etcdctl member list",
        "ssh: Could not resolve hostname node09",
        255,
    );
    rejects(
        &mut s,
        "net partition node01 node09 | node02",
        "node09: no such machine",
        1,
    );
    rejects(
        &mut s,
        "ssh node09",
        "Could not resolve hostname node09",
        255,
    );
    rejects(&mut s, "machine add node01", "already exists", 1);
    rejects(
        &mut s,
        "machine add 'bad name'",
        "not a valid machine name",
        2,
    );
    rejects(
        &mut s,
        "machine add node05 192.168.0.61",
        "address 192.168.0.61 is already in use",
        1,
    );
    rejects(&mut s, "machine frob", "usage: machine", 2);
    rejects(
        &mut s,
        "net cut node01 node09",
        "node09: no such machine",
        1,
    );
    rejects(
        &mut s,
        "net delay node01 node02 soon",
        "invalid duration",
        2,
    );
    rejects(&mut s, "net partition node01 |", "usage: net partition", 2);
    rejects(&mut s, "net bogus", "usage: net", 2);
    rejects(&mut s, "sleep soon", "invalid time interval", 1);
    rejects(&mut s, "sleep", "missing operand", 1);
    rejects(&mut s, "date -s tomorrow", "invalid date", 1);
    rejects(&mut s, "export 1X=2", "bad variable name", 1);
    rejects(&mut s, "hosts set onlyname", "usage: hosts", 2);
    rejects(&mut s, "kill -HUP etcd", "usage: kill", 2);
    rejects(&mut s, "kill nginx", "no such process", 1);
    rejects(&mut s, "rm -rf", "missing operand", 1);
}

#[test]
fn etcd_flag_errors_change_nothing() {
    let mut s = session();
    s.run_typed("ssh node04");
    rejects(
        &mut s,
        "node04$ etcd --bogus",
        "flag provided but not defined: -bogus",
        2,
    );
    rejects(
        &mut s,
        "node04$ etcd --initial-cluster-state maybe",
        "invalid value \"maybe\" for flag -initial-cluster-state",
        2,
    );
    rejects(
        &mut s,
        "node04$ etcd --heartbeat-interval abc",
        "invalid value \"abc\" for flag -heartbeat-interval: parse error",
        2,
    );
    rejects(
        &mut s,
        "node04$ etcd --listen-peer-urls ftp://x:2380",
        "URL scheme must be http, https, unix, or unixs",
        2,
    );
    rejects(
        &mut s,
        "node04$ etcd --name",
        "flag needs an argument: -name",
        2,
    );
}

#[test]
fn etcdctl_argument_errors_change_nothing() {
    let mut s = session();
    let cases = [
        ("etcdctl --bogus member list", "Error: unknown flag: --bogus", 1),
        ("etcdctl bogus", "Error: unknown command \"bogus\" for \"etcdctl\"", 1),
        ("etcdctl -w yaml member list", "Error: unsupported output format", 1),
        ("etcdctl member add", "Error: member name not provided", 128),
        ("etcdctl member add node04", "Error: member peer urls not provided", 128),
        (
            "etcdctl member add node04 --peer-urls=http://192.168.0.64:2380 http://x",
            "Error: too many arguments, did you mean --peer-urls=http://x",
            128,
        ),
        (
            "etcdctl member add node04 --peer-urls=ftp://192.168.0.64:2380",
            "Error: URL scheme must be http, https, unix, or unixs: ftp://192.168.0.64:2380",
            128,
        ),
        ("etcdctl member remove", "Error: member ID is not provided", 128),
        (
            "etcdctl member remove zz",
            "Error: bad member ID arg (strconv.ParseUint: parsing \"zz\": invalid syntax), expecting ID in Hex",
            128,
        ),
        ("etcdctl member promote", "Error: member ID is not provided", 128),
        ("etcdctl member update abc", "Error: member peer urls not provided", 128),
        ("etcdctl put onlykey", "Error: put command needs 1 argument and input from stdin or 2 arguments", 128),
        ("etcdctl get", "Error: get command needs one argument as key", 128),
        ("etcdctl get a --consistency=x", "Error: unknown consistency flag \"x\"", 4),
        ("etcdctl move-leader", "Error: move-leader command needs 1 argument", 128),
        ("etcdctl snapshot save", "Error: snapshot save expects one argument", 128),
        ("etcdctl --command-timeout=soon get a", "invalid argument \"soon\" for \"--command-timeout\" flag", 1),
    ];
    for (line, err, status) in cases {
        rejects(&mut s, line, err, status);
    }
}

#[test]
fn commands_on_a_machine_without_etcd() {
    let mut s = session();
    s.run_typed("ssh node04");
    rejects(
        &mut s,
        "node04$ kill etcd",
        "kill: etcd: no such process",
        1,
    );
    // etcdctl's default endpoint 127.0.0.1:2379 is node04 itself: nothing listens,
    // so the client retries until its deadline, as real etcdctl does.
    rejects(
        &mut s,
        "node04$ etcdctl member list",
        "Error: context deadline exceeded",
        1,
    );
    rejects(
        &mut s,
        "node04$ etcdctl put a b",
        "all SubConns are in TransientFailure",
        1,
    );
    rejects(
        &mut s,
        "node04$ etcdctl endpoint status",
        "Failed to get the status of endpoint 127.0.0.1:2379 (context deadline exceeded)",
        1,
    );
}

#[test]
fn refused_at_apply_time_keeps_members_and_keys() {
    // etcd validates remove/promote/update of an unknown ID when the entry is
    // applied, so the request uses a raft index (spec section 3.2); only the
    // indexes and the clock move.
    let mut s = session();
    let members = |s: &Session| -> Vec<_> {
        s.world
            .view()
            .machines
            .into_iter()
            .filter_map(|m| m.process.map(|p| (p.members, p.revision)))
            .collect()
    };
    let before = members(&s);
    for line in [
        "etcdctl member remove 1234",
        "etcdctl member promote 1234",
        "etcdctl member update 1234 --peer-urls=http://192.168.0.99:2380",
    ] {
        let ex = s.run_typed(line);
        assert!(
            ex.output
                .stderr
                .ends_with("Error: etcdserver: member not found\n"),
            "{line}: {:?}",
            ex.output.stderr
        );
        assert_eq!(ex.output.status, 1);
    }
    assert_eq!(members(&s), before);
}

#[test]
fn random_lines_never_panic() {
    let mut s = session();
    let words = [
        "etcdctl",
        "etcd",
        "member",
        "add",
        "remove",
        "promote",
        "--peer-urls=http://x:1",
        "put",
        "get",
        "-w",
        "table",
        "json",
        "net",
        "cut",
        "node01",
        "node02",
        "->",
        "|",
        "kill",
        "-9",
        "sleep",
        "0.1",
        "'",
        "\"",
        "$X",
        "${",
        "docker",
        "run",
        "logs",
        "machine",
        "rm",
        "ls",
        "date",
        "-s",
        "echo",
        "$?",
        "--learner",
        "endpoint",
        "status",
        "--cluster",
        "health",
        "move-leader",
        "1",
        "zz",
        "\\",
        "#",
        "=",
        "ssh",
    ];
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..400 {
        let mut line = String::new();
        for _ in 0..(x % 6 + 1) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            line.push_str(words[(x % words.len() as u64) as usize]);
            line.push(' ');
        }
        let _ = s.run_typed(&line);
    }
}
