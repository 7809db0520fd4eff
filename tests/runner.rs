//! The headless runner's contract (`design/shell.md`, "The headless runner"): its
//! example script gives its example transcript, parse errors exit 2 with
//! `FILE:LINE: message` and run nothing, a failing command is part of the
//! transcript, not an error, stdin and a file give the same run, two seeds give
//! runs that differ only in their random parts, and `--logs` prints each
//! command's server log lines after its echo.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

const EXAMPLE: &str = "tests/scripts/shell-md-example.sh";

/// The transcript `design/shell.md` prints for its example. The retry line's
/// time stamp and client ID come from the simulated clock and the seed, so they
/// are compared with those two values masked.
const EXPECTED: &str = r#"$ machine add node01 192.168.0.61
node01$ etcd --name node01 --initial-advertise-peer-urls http://192.168.0.61:2380 --listen-peer-urls http://0.0.0.0:2380 --advertise-client-urls http://192.168.0.61:2379 --listen-client-urls http://0.0.0.0:2379 --initial-cluster node01=http://192.168.0.61:2380
node01$ sleep 2
node01$ etcdctl put foo bar
OK
node01$ etcdctl member list
4eee438bb97e1153, started, node01, http://192.168.0.61:2380, http://192.168.0.61:2379, false
node01$ etcdctl member promote 4eee438bb97e1153
{"level":"warn","ts":"2021-03-03T16:25:59.114Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-…/127.0.0.1:2379","attempt":0,"error":"rpc error: code = FailedPrecondition desc = etcdserver: can only promote a learner member"}
Error: etcdserver: can only promote a learner member
node01$ echo $?
1
"#;

fn runner(args: &[&str], stdin: Option<&str>) -> std::process::Output {
    use std::io::Write;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_quorum-playground"));
    cmd.args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().expect("runner starts");
    if let Some(input) = stdin {
        let _ = child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes());
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().expect("runner ends")
}

/// Masks `"ts":"…"` and the client UUID of retry warnings.
fn mask(s: &str) -> String {
    s.lines()
        .map(|l| {
            let mut l = l.to_string();
            if let Some(p) = l.find("\"ts\":\"") {
                let end = l[p + 6..].find('"').map(|e| p + 6 + e).unwrap_or(l.len());
                l.replace_range(p + 6..end, "TS");
            }
            if let Some(p) = l.find("endpoint://client-") {
                let start = p + "endpoint://client-".len();
                let end = l[start..].find('/').map(|e| start + e).unwrap_or(l.len());
                l.replace_range(start..end, "…");
            }
            l + "\n"
        })
        .collect()
}

#[test]
fn the_shell_md_example_gives_its_transcript() {
    let out = runner(&["run", EXAMPLE], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(mask(&String::from_utf8_lossy(&out.stdout)), mask(EXPECTED));
}

#[test]
fn stdin_and_seed_work_and_seeds_differ_only_in_random_parts() {
    let src = std::fs::read_to_string(EXAMPLE).expect("example");
    let a = runner(&["run", "-", "--seed", "5"], Some(&src));
    let b = runner(&["run", EXAMPLE, "--seed", "5"], None);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout, "stdin and a file give the same run");
    // Another seed draws another client ID for the retry line: the bytes
    // differ, and only there (masked, the transcripts are equal).
    let c = runner(&["run", EXAMPLE, "--seed", "6"], None);
    assert!(c.status.success());
    let (a, c) = (
        String::from_utf8_lossy(&a.stdout),
        String::from_utf8_lossy(&c.stdout),
    );
    assert_ne!(a, c, "seeds 5 and 6 give the same bytes");
    assert_eq!(
        mask(&a),
        mask(&c),
        "seeds 5 and 6 differ outside random parts"
    );
}

/// `--logs` prints each command's server log lines right after its echo,
/// before the next command's echo.
#[test]
fn logs_follow_each_command() {
    let out = runner(&["run", EXAMPLE, "--logs"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("no `{needle}` in:\n{text}"))
    };
    let etcd = at("node01$ etcd --name node01");
    let sleep = at("node01$ sleep 2");
    let put = at("node01$ etcdctl put foo bar");
    // etcd's start-up lines, stamped with the simulated clock, between the
    // `etcd` command and the `sleep`
    let started = at("[node01] 2021-03-03 16:25:57.000000 I | etcdserver: starting member 4eee438bb97e1153 in cluster 35d99f7f50aa4509");
    let raft = at("[node01] raft2021/03/03 16:25:5");
    assert!(etcd < started && started < sleep, "{text}");
    assert!(etcd < raft && raft < sleep, "{text}");
    // the election happens while the clock runs: between `sleep` and `put`
    let elected = at("elected leader 4eee438bb97e1153 at term 2");
    assert!(sleep < elected && elected < put, "{text}");
}

#[test]
fn parse_errors_exit_2_and_run_nothing() {
    let out = runner(
        &["run", "-"],
        Some("machine add a\n$ echo \"unterminated\n"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "", "nothing ran");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("-:2: unterminated quote"), "{err}");

    let out = runner(&["run", "no/such/file.sh"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("no/such/file.sh: "));

    let out = runner(&["run", "-", "--seed", "x"], Some(""));
    assert_eq!(out.status.code(), Some(2));
    let out = runner(&["frobnicate"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn failing_commands_are_part_of_the_transcript() {
    let out = runner(&["run", "-"], Some("frobnicate\nnode09$ ls\n$ echo $?\n"));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "$ frobnicate\nsh: frobnicate: command not found\n$ ls\nssh: Could not resolve hostname node09: Name or service not known\n$ echo $?\n255\n"
    );
}
