//! Behaviours a person meets in the terminal, each checked against what etcd 3.4
//! does.
//!
//! # The cases: `tests/behaviour/*.case`
//!
//! Each file is one case in the lesson format (`src/lessons.rs`): a header
//! (`title:`, `seed:`, `start: empty|cluster`), then `## ` steps of narration,
//! commands, their expected output as `| ` blocks and `? ` checks. Adding a
//! case is adding a file; [`every_case_prints_its_golden_output`] runs them all.
//! A case differs from a lesson in three ways:
//!
//! - every command's output is compared: a command without a `| ` block must
//!   print nothing;
//! - a server log is checked with the shell's `logs NAME` command, whose output
//!   is the machine's whole log so far (time stamps are the simulated clock's);
//! - `= exit MACHINE STATUS` lines check that MACHINE runs no etcd and its last
//!   one exited with STATUS, after the step's commands (the shell's `wait`
//!   does not report it);
//!
//! and it asks no question and has no learner's command. Write the commands,
//! checks and narration, run `UPDATE_GOLDEN=1 cargo test --profile release-test
//! --test behaviour` to fill the `| ` blocks with what the simulation prints,
//! and read them: they are reviewed like any golden file.
//!
//! ```text
//! title: A client with several endpoints fails over to a live one
//! start: cluster
//!
//! ## node01 killed; node02's client lists node01 first
//! node01$ kill -9 etcd
//! $ sleep 3
//! node02$ etcdctl --endpoints=http://192.168.0.61:2379,http://192.168.0.62:2379 put k v
//! | OK
//! ```
//!
//! # Compared with real runs
//!
//! The tests below the runner compare the simulation's logs, line by line,
//! with real etcd 3.4.23 runs kept in the repository: `--snapshot-count` and
//! snapshots sent to a member far behind or new
//! (`tests/reference-run-b/snapshot-catch-up/`, the second on
//! `tests/scripts/snapshot-new-member.sh`, which `tests/golden.rs` and
//! `tests/zap.rs` run too), and a wiped follower started again under its old
//! ID (the cases `wiped-follower-restarted*.case` against
//! `tests/findings/wiped-member-restarted-as-new.real.*`). The first builds
//! its script here: it puts 6,100 keys, a loop no data file should spell out.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

use quorum_playground::lessons::{self, Lesson, StepResult};
use quorum_playground::shell::parse;
use quorum_playground::shell::runner::run_one;
use quorum_playground::shell::session::Session;

// ---------------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------------

/// Where the cases live.
const CASES: &str = "tests/behaviour";

/// How many cases `tests/behaviour/` holds today: the runner fails on fewer,
/// so a lost directory or a renamed extension cannot pass unnoticed.
const CASE_COUNT: usize = 14;

/// An `= exit MACHINE STATUS` line: checked after the step it stands in.
struct ExitCheck {
    line: usize,
    /// The index of its step in `Lesson::steps`.
    step: usize,
    machine: String,
    status: i32,
}

/// A case file, parsed.
struct Case {
    src: String,
    lesson: Lesson,
    exits: Vec<ExitCheck>,
}

fn case_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(CASES)
        .unwrap_or_else(|e| panic!("{CASES}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "case"))
        .collect();
    files.sort();
    files
}

fn load(path: &Path) -> Case {
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path
        .file_stem()
        .map_or(String::new(), |s| s.to_string_lossy().into_owned());
    let lesson = lessons::parse(&name, &src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        lesson.question_count() == 0 && lesson.learner_step_count() == 0,
        "{}: a case asks no question and has no learner's command",
        path.display()
    );
    let mut exits = Vec::new();
    for (i, text) in src.lines().enumerate() {
        let Some(rest) = text.strip_prefix("= ") else {
            continue;
        };
        let line = i + 1;
        let bad = || {
            panic!(
                "{}:{line}: expected `= exit MACHINE STATUS`",
                path.display()
            )
        };
        let [kind, machine, status] = rest.split_whitespace().collect::<Vec<_>>()[..] else {
            bad()
        };
        let Ok(status) = status.parse() else { bad() };
        if kind != "exit" {
            bad();
        }
        let Some(step) = lesson.steps.iter().rposition(|s| s.line < line) else {
            panic!(
                "{}:{line}: an `= ` line before the first step",
                path.display()
            )
        };
        exits.push(ExitCheck {
            line,
            step,
            machine: machine.to_string(),
            status,
        });
    }
    Case { src, lesson, exits }
}

/// Runs a case step by step from its header's world: each step's results,
/// the failures of its `= exit` lines (as `LINE: message`), and the session.
fn play(case: &Case) -> (Vec<StepResult>, Vec<String>, Session) {
    let mut session = lessons::boot_session(&case.lesson);
    let mut results = Vec::new();
    let mut failures = Vec::new();
    for (i, step) in case.lesson.steps.iter().enumerate() {
        results.push(lessons::run_step(&mut session, step));
        for x in case.exits.iter().filter(|x| x.step == i) {
            let status = exit_status(&session, &x.machine);
            let running = session
                .world
                .view()
                .machines
                .iter()
                .any(|m| m.name == x.machine && m.process.is_some());
            if running || status != Some(x.status) {
                failures.push(format!(
                    "{}: {} should have exited with {}: running {running}, last exit {status:?}",
                    x.line, x.machine, x.status
                ));
            }
        }
    }
    (results, failures, session)
}

/// Every difference of a run from its case, as `LINE: message`: outputs (a
/// command without a block must print nothing), then `? ` checks.
fn differences(case: &Case, results: &[StepResult]) -> Vec<String> {
    let mut out = Vec::new();
    for (step, result) in case.lesson.steps.iter().zip(results) {
        for (c, r) in step.commands.iter().zip(&result.commands) {
            let want = c.expected.clone().unwrap_or_default();
            let got = r.block().unwrap_or_default();
            if want != got {
                let k = want
                    .lines()
                    .zip(got.lines())
                    .take_while(|(a, b)| a == b)
                    .count();
                out.push(format!(
                    "{}: `{}` printed another output; first difference at its line {}:\n  want: {:?}\n  got:  {:?}",
                    c.line,
                    r.echo.trim_end(),
                    k + 1,
                    want.lines().nth(k).unwrap_or("(nothing)"),
                    got.lines().nth(k).unwrap_or("(nothing)")
                ));
            }
        }
        for r in &result.checks {
            if let Err(e) = &r.result {
                out.push(format!("{}: `? {}` fails: {e}", r.check.line(), r.check));
            }
        }
    }
    out
}

#[test]
fn every_case_prints_its_golden_output() {
    let update = std::env::var("UPDATE_GOLDEN").is_ok();
    let files = case_files();
    let mut failures = Vec::new();
    for path in &files {
        let case = load(path);
        let (results, exits, _) = play(&case);
        if update {
            let new = lessons::update_with(&case.src, &case.lesson, &results);
            std::fs::write(path, new).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        } else {
            failures.extend(
                differences(&case, &results)
                    .into_iter()
                    .map(|d| format!("{}:{d}", path.display())),
            );
        }
        failures.extend(exits.into_iter().map(|d| format!("{}:{d}", path.display())));
    }
    println!("{} cases run", files.len());
    assert!(
        failures.is_empty(),
        "{}\n(`UPDATE_GOLDEN=1` rewrites the blocks; review the diff)",
        failures.join("\n")
    );
    assert!(
        files.len() >= CASE_COUNT,
        "{} cases in {CASES}, expected at least {CASE_COUNT}",
        files.len()
    );
}

#[test]
fn the_runner_catches_a_wrong_block_an_unprinted_output_and_a_wrong_exit() {
    let src = "title: T\n## S\n$ machine add a\na$ etcd --heartbeat-interval 0\n\
               $ echo hi\n| ho\n$ echo quiet\n= exit a 2\n? quorum ok\n";
    let lesson = lessons::parse("t", src).expect("parses");
    let case = Case {
        src: src.to_string(),
        exits: vec![ExitCheck {
            line: 8,
            step: 0,
            machine: "a".to_string(),
            status: 2,
        }],
        lesson,
    };
    let (results, exits, _) = play(&case);
    let d = differences(&case, &results);
    assert_eq!(d.len(), 3, "{d:?}");
    assert!(
        d[0].starts_with("5: `a$ echo hi` printed another output"),
        "{d:?}"
    );
    assert!(
        d[1].starts_with("7: `a$ echo quiet` printed another output"),
        "{d:?}"
    );
    assert!(d[2].starts_with("9: `? quorum ok` fails"), "{d:?}");
    assert_eq!(exits.len(), 1);
    assert!(
        exits[0].starts_with("8: a should have exited with 2"),
        "{exits:?}"
    );
}

// ---------------------------------------------------------------------------------
// Compared with real runs
// ---------------------------------------------------------------------------------

fn run(s: &mut Session, lines: &str) -> String {
    let mut out = String::new();
    for c in parse::parse_script(lines).expect("parses") {
        run_one(s, &c, false, &mut out);
    }
    out
}

fn log_of(s: &Session, machine: &str) -> String {
    s.world
        .logs()
        .iter()
        .filter(|l| l.machine == machine)
        .map(|l| format!("{}\n", l.text))
        .collect()
}

/// `--snapshot-count`: a server saves a snapshot once more entries than that
/// were applied since the last, and compacts its raft log keeping 5,000
/// entries (etcd 3.4's `SnapshotCatchUpEntries`); a member that was down for
/// longer than that catches up from a snapshot, and the logs say so.
#[test]
fn snapshots_compact_the_log_and_a_member_far_behind_catches_up_from_one() {
    let cluster =
        "node01=http://10.0.0.1:2380,node02=http://10.0.0.2:2380,node03=http://10.0.0.3:2380";
    let etcd = |n: u32| {
        format!(
            "node0{n}$ etcd --name node0{n} --snapshot-count 1000 \
             --initial-advertise-peer-urls http://10.0.0.{n}:2380 --listen-peer-urls http://10.0.0.{n}:2380 \
             --advertise-client-urls http://10.0.0.{n}:2379 --listen-client-urls http://10.0.0.{n}:2379 \
             --initial-cluster {cluster}\n"
        )
    };
    let mut s = Session::new(1);
    let mut script = String::new();
    for n in 1..=3 {
        script.push_str(&format!("machine add node0{n} 10.0.0.{n}\n"));
    }
    for n in 1..=3 {
        script.push_str(&etcd(n));
    }
    script.push_str("$ sleep 3\nnode03$ kill etcd\nnode03$ wait\n");
    for i in 0..6100 {
        script.push_str(&format!(
            "node01$ etcdctl --endpoints=http://10.0.0.1:2379 put k{i} v{i}\n"
        ));
    }
    run(&mut s, &script);
    let leader = log_of(&s, "node01") + &log_of(&s, "node02");
    for line in [
        "I | etcdserver: start to snapshot (applied: 1001, lastsnap: 0)",
        "I | etcdserver: saved snapshot at index 1001",
        "I | etcdserver: compacted raft log at 1",
        "I | etcdserver: saved snapshot at index 5005",
        "I | etcdserver: compacted raft log at 5\n",
        "I | etcdserver: saved snapshot at index 6006",
        "I | etcdserver: compacted raft log at 1006\n",
    ] {
        assert!(leader.contains(line), "{line}\n{leader}");
    }
    let before = log_of(&s, "node03");
    let out = run(
        &mut s,
        &format!(
            "{}$ sleep 5\nnode03$ etcdctl --endpoints=http://10.0.0.3:2379 get k6099\n",
            etcd(3)
        ),
    );
    assert!(out.ends_with("k6099\nv6099\n"), "{out}");
    let after = log_of(&s, "node03")[before.len()..].to_string();
    for line in [
        "I | etcdserver: applying snapshot at index",
        "I | etcdserver: raft applied incoming snapshot at index",
        // etcd's applySnapshot: the stores, then the transport's peers anew
        "I | etcdserver: restoring mvcc store...",
        "I | etcdserver: recovering cluster configuration...",
        "I | etcdserver/membership: set the cluster version to 3.4 from store",
        "I | etcdserver: removing old peers from network...",
        "I | rafthttp: removed peer",
        "I | etcdserver: adding peers from new cluster configuration into network...",
        "I | etcdserver: finished applying incoming snapshot at index",
    ] {
        assert!(after.contains(line), "{line}\n{after}");
    }
    // the transfer's own lines, as the real run printed them (n2 sent, n3
    // took it), time stamps, IDs and numbers aside
    let real = |name: &str| {
        std::fs::read_to_string(format!(
            "tests/reference-run-b/snapshot-catch-up/{name}.log"
        ))
        .expect("the real run is in the repository")
    };
    let leader = log_of(&s, "node01") + &log_of(&s, "node02");
    assert_eq!(sent_lines(&leader), sent_lines(&real("n2")), "{leader}");
    assert_eq!(
        received_lines(&after),
        received_lines(&real("n3")),
        "{after}"
    );
    assert_eq!(sent_lines(&leader).len(), 3);
    assert_eq!(received_lines(&after).len(), 8);
}

/// The sender's transfer lines: `start to send`, `wrote … out`, `sent out`.
fn sent_lines(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains("database snapshot"))
        .map(shape)
        .collect()
}

/// The receiver's lines from `receiving database snapshot` to etcd's
/// `applying snapshot`: the handler's, then raft's restore (other
/// goroutines' lines in between left out).
fn received_lines(log: &str) -> Vec<String> {
    let lines: Vec<&str> = log.lines().collect();
    let Some(start) = lines
        .iter()
        .position(|l| l.contains("receiving database snapshot"))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for l in &lines[start..] {
        if l.contains("snapshot") || l.contains("switched to configuration") {
            out.push(shape(l));
        }
        if l.contains("applying snapshot at index") {
            break;
        }
    }
    out
}

/// A log line without its time stamp, with member IDs (hex, or decimal in
/// `voters=(…)`) as `ID` and every other number (indexes, terms, sizes,
/// durations) as `N`.
fn shape(line: &str) -> String {
    // `2026-11-23 22:49:52.113867 I | …` and `raft2026/11/23 22:49:52 INFO: …`
    let stamped = line.starts_with(|c: char| c.is_ascii_digit()) || line.starts_with("raft2");
    let text = match line.splitn(3, ' ').nth(2) {
        Some(rest) if stamped => rest,
        _ => line,
    };
    let mut out = String::new();
    for word in text.split(' ') {
        let core = word.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        let id = core.len() >= 13 && core.chars().all(|c| c.is_ascii_hexdigit());
        if !out.is_empty() {
            out.push(' ');
        }
        if id {
            out.push_str(&word.replace(core, "ID"));
            continue;
        }
        let mut last_digit = false;
        for c in word.chars() {
            let digit = c.is_ascii_digit() || (last_digit && c == '.');
            if !digit {
                out.push(c);
            } else if !last_digit {
                out.push('N');
            }
            last_digit = digit;
        }
    }
    out
}

/// A member added after the leader compacted its log (`--snapshot-count 5`)
/// gets the leader's snapshot; puts within the 30 s it stays in flight skip
/// compaction. Every snapshot line both members print is the real run's
/// (`tests/reference-run-b/snapshot-catch-up/new-member-n*.log`, recorded
/// with `run-new-member.sh`), in the same order, time stamps, IDs and numbers
/// aside.
#[test]
fn a_new_member_catches_up_from_a_snapshot_as_real_etcd_logs_it() {
    let script = std::fs::read_to_string("tests/scripts/snapshot-new-member.sh").expect("script");
    let mut s = Session::new(1);
    let out = run(&mut s, &script);
    assert!(out.contains("get k19\nk19\nv19\n"), "{out}");
    for n in ["n1", "n2"] {
        let real = std::fs::read_to_string(format!(
            "tests/reference-run-b/snapshot-catch-up/new-member-{n}.log"
        ))
        .expect("the real run is in the repository");
        let ours = log_of(&s, n);
        assert_eq!(snapshot_story(&ours), snapshot_story(&real), "{n}:\n{ours}");
    }
    let skipped = "I | etcdserver: skip compaction since there is an inflight snapshot";
    assert!(log_of(&s, "n1").contains(skipped));
}

/// Every line about snapshots, compaction and the recovery from one, shaped.
fn snapshot_story(log: &str) -> Vec<String> {
    const WORDS: [&str; 6] = [
        "snapshot",
        "compact",
        "restor",
        "recover",
        "from store",
        "capabilities",
    ];
    log.lines()
        .filter(|l| !l.starts_with("==="))
        .filter(|l| WORDS.iter().any(|w| l.contains(w)))
        .map(shape)
        .collect()
}

/// A follower's data dir wiped and the member started again with its old
/// flags (`tests/behaviour/wiped-follower-restarted*.case`, with etcd's
/// default logger and with zap), against real etcd 3.4.23
/// (`tests/findings/wiped-member-restarted-as-new.real.sh`, scenarios A and
/// D): with `--initial-cluster-state new` its peers say it was already
/// bootstrapped (the case checks its exit status, 1); with `existing` raft
/// panics (exit status 2) with the real run's last lines, time stamps, IDs
/// and numbers aside.
#[test]
fn a_wiped_follower_started_again_under_its_old_id() {
    for (name, zap) in [
        ("wiped-follower-restarted", false),
        ("wiped-follower-restarted-zap", true),
    ] {
        let case = load(&Path::new(CASES).join(format!("{name}.case")));
        let (results, exits, s) = play(&case);
        assert!(
            differences(&case, &results).is_empty() && exits.is_empty(),
            "{name}: see every_case_prints_its_golden_output"
        );
        let log = log_of(&s, "n2");
        let refused = if zap {
            r#""msg":"discovery failed","error":"member {} has already been bootstrapped""#
        } else {
            "C | etcdmain: member {} has already been bootstrapped"
        };
        let refused_here = refused.split("{}").all(|part| log.contains(part));
        assert!(refused_here, "{name}: {log}");
        // n2 exited: its last lines are the panic's
        if zap {
            let real = std::fs::read_to_string(
                "tests/reference-run-b/zap/zx-wiped-follower-existing-panic.log",
            )
            .expect("recorded");
            let panic = |text: &str| {
                text.lines()
                    .find(|l| l.contains(r#""level":"panic""#))
                    .map(|l| shape(&l[l.find(r#""caller""#).unwrap_or(0)..]))
            };
            assert!(panic(&real).is_some());
            assert_eq!(panic(&log), panic(&real), "{log}");
            let last = log.lines().last().unwrap_or("");
            assert_eq!(shape(last), shape(&real_panic_lines()[3]), "{log}");
        } else {
            let last: Vec<&str> = log.lines().rev().take(4).collect();
            let got: Vec<String> = last.iter().rev().map(|l| shape(l)).collect();
            let want: Vec<String> = real_panic_lines().iter().map(|l| shape(l)).collect();
            assert_eq!(got, want, "{log}");
        }
    }
}

/// The wiped follower's last lines in the real run (scenario D of
/// `tests/findings/wiped-member-restarted-as-new.real.sh`): the heartbeat's
/// higher term, the new term, raft's panic and Go's.
fn real_panic_lines() -> Vec<String> {
    let text = std::fs::read_to_string("tests/findings/wiped-member-restarted-as-new.real.txt")
        .expect("the real run is in the repository");
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("raft") && l.contains(" tocommit("))
        .expect("the real run panicked");
    lines[at.saturating_sub(2)..(at + 2).min(lines.len())]
        .iter()
        .map(|l| l.to_string())
        .collect()
}

fn exit_status(s: &Session, machine: &str) -> Option<i32> {
    let v = s.world.view();
    let m = v.machines.iter().find(|m| m.name == machine)?;
    m.last_exit.as_ref().map(|e| e.status)
}
