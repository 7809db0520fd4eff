//! Lessons (`src/lessons.rs`): the file format's mistakes, checking, updating,
//! the runner's `check` mode, and every lesson in `static/lessons/` as a golden
//! test (its expected blocks and checks hold when it runs).
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::Command;

use quorum_playground::lessons::{self, Check, Lesson, MachineState, MemberState, Start};
use quorum_playground::shell::parse;
use quorum_playground::shell::runner::{self, RunOptions};

/// One machine, one member; then stopped. Every block and check holds (seed 3).
const TINY: &str = r#"title: A tiny lesson
seed: 3
# a comment

## 1. One machine
One machine, one member.

$ machine add node01 10.0.0.1
node01$ etcd --name node01 \
  --initial-advertise-peer-urls http://10.0.0.1:2380 --listen-peer-urls http://10.0.0.1:2380 \
  --advertise-client-urls http://10.0.0.1:2379 --listen-client-urls http://10.0.0.1:2379 \
  --initial-cluster node01=http://10.0.0.1:2380
$ sleep 2
$ etcdctl --endpoints=http://10.0.0.1:2379 put foo bar
| OK
$ etcdctl --endpoints=http://10.0.0.1:2379 get foo
| foo
| bar
$ echo "a  b" \
  c
| a  b c
? quorum ok
? leader node01
? node01 is leader
? node01 is running
? member node01 is voter
? member node02 is absent

## 2. Stopped
The `get` runs into its timeout.

node01$ kill etcd
$ etcdctl --endpoints=http://10.0.0.1:2379 --command-timeout=1s get foo
$ echo $?
| 1
$ echo
|
? quorum lost
? no leader
? node01 is stopped

## 3. Started again
?? node01 restarts on its data. Does it lead again?
?+ Yes :: leader node01 :: One voter of one is a quorum.
?- No :: no leader :: Its data makes it the same member, the only voter.

! node01$ etcd --name node01 --initial-advertise-peer-urls http://10.0.0.1:2380 --listen-peer-urls http://10.0.0.1:2380 --advertise-client-urls http://10.0.0.1:2379 --listen-client-urls http://10.0.0.1:2379 --initial-cluster node01=http://10.0.0.1:2380
$ sleep 2
"#;

/// Starts from the page's cluster and adds a learner that never starts.
const CLUSTER: &str = "title: Cluster\nstart: cluster\nsource: doc.txt\n\n\
## Add a learner\n\
?? A learner is added and never started. Is there still a quorum?\n\
?+ Yes :: quorum ok :: A learner does not count.\n\
?- No :: quorum lost :: Only voters count.\n\
$ sleep 3\n\
! $ machine add node04 192.168.0.64\n\
node01$ etcdctl member add node04 --learner --peer-urls=http://192.168.0.64:2380\n\
$ etcdctl member add node05 --peer-urls=http://10.9.9.9:2380\n\
? quorum ok\n\
? node01 is running\n\
? node04 is stopped\n\
? member node02 is voter\n\
? member node04 is learner\n\
? member node04 is unstarted\n\
? member 10.9.9.9 is unstarted\n\
? member 10.9.9.9 is voter\n\
? member node09 is absent\n";

fn parsed(name: &str, src: &str) -> Lesson {
    match lessons::parse(name, src) {
        Ok(l) => l,
        Err(e) => panic!("{e}"),
    }
}

/// (line, message) of a lesson that must not parse.
fn mistake(src: &str) -> (usize, String) {
    match lessons::parse("bad", src) {
        Ok(l) => panic!("parsed {src:?}: {l:?}"),
        Err(e) => {
            assert_eq!(e.to_string(), format!("bad:{}: {}", e.line, e.message));
            (e.line, e.message)
        }
    }
}

/// The lesson without its expected blocks.
fn without_blocks(src: &str) -> String {
    src.split_inclusive('\n')
        .filter(|l| !(l.starts_with("| ") || l.trim_end() == "|"))
        .collect()
}

/// What the runner prints for the lesson's commands as one script, and the
/// lesson's own run: the boot script's transcript, then each step's.
fn transcripts(lesson: &Lesson) -> (String, String) {
    let opts = RunOptions {
        seed: lesson.seed,
        logs: false,
        etcd: lesson.etcd,
    };
    let script = match parse::parse_script(&lessons::script(lesson)) {
        Ok(s) => s,
        Err(e) => panic!("{}: script line {}: {}", lesson.name, e.line, e.message),
    };
    let whole = runner::transcript(&script, opts);
    let mut ran = match lesson.start {
        Start::Cluster => match parse::parse_script(lessons::CLUSTER_SCRIPT) {
            Ok(boot) => runner::transcript(&boot, opts),
            Err(e) => panic!("boot script: {e:?}"),
        },
        Start::Empty => String::new(),
    };
    for r in lessons::run(lesson) {
        ran.push_str(&r.transcript());
    }
    (whole, ran)
}

#[test]
fn a_tiny_lesson_parses() {
    let l = parsed("tiny", TINY);
    assert_eq!(l.name, "tiny");
    assert_eq!(l.title, "A tiny lesson");
    assert_eq!((l.seed, l.start, l.source.clone()), (3, Start::Empty, None));
    assert_eq!(l.steps.len(), 3);
    let s = &l.steps[0];
    assert_eq!((s.title.as_str(), s.line), ("1. One machine", 5));
    assert_eq!(s.narration, "One machine, one member.");
    assert_eq!(s.commands.len(), 6);
    let etcd = &s.commands[1];
    assert_eq!((etcd.line, etcd.last_line, etcd.command.line), (9, 12, 9));
    assert!(etcd
        .command
        .text
        .starts_with("etcd --name node01 --initial-advertise-peer-urls"));
    assert!(etcd
        .command
        .text
        .ends_with("--initial-cluster node01=http://10.0.0.1:2380"));
    assert_eq!(etcd.expected, None);
    assert_eq!(s.commands[3].expected.as_deref(), Some("OK\n"));
    assert_eq!(s.commands[4].expected.as_deref(), Some("foo\nbar\n"));
    assert_eq!(s.commands[5].command.text, "echo \"a  b\" c");
    assert_eq!(
        s.checks,
        vec![
            Check::Quorum { ok: true, line: 22 },
            Check::Leader {
                name: "node01".into(),
                line: 23
            },
            Check::Machine {
                machine: "node01".into(),
                state: MachineState::Leader,
                line: 24
            },
            Check::Machine {
                machine: "node01".into(),
                state: MachineState::Running,
                line: 25
            },
            Check::Member {
                name: "node01".into(),
                state: MemberState::Voter,
                line: 26
            },
            Check::Member {
                name: "node02".into(),
                state: MemberState::Absent,
                line: 27
            },
        ]
    );
    let shown: Vec<String> = s.checks.iter().map(|c| format!("? {c}")).collect();
    let written: Vec<&str> = TINY.lines().skip(21).take(6).collect();
    assert_eq!(shown, written);
    let last = &l.steps[1];
    assert_eq!(last.commands[3].expected.as_deref(), Some("\n"));
    assert_eq!(last.narration, "The `get` runs into its timeout.");
    assert_eq!((l.command_count(), l.check_count()), (12, 9));
    assert_eq!((l.question_count(), l.learner_step_count()), (1, 1));
}

#[test]
fn a_tiny_lesson_checks_ok() {
    let l = parsed("tiny", TINY);
    assert_eq!(lessons::check(&l), Vec::new());
    let results = lessons::run(&l);
    let oks: Vec<String> = results
        .iter()
        .flat_map(|r| &r.checks)
        .map(|c| c.result.clone().unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert!(
        oks[0].starts_with("quorum ok: node01 leads at term "),
        "{oks:?}"
    );
    assert!(oks[1].starts_with("node01 is the leader (term "), "{oks:?}");
    assert_eq!(
        oks[2..6],
        [
            "node01 is leader",
            "node01 is running (leader)",
            "member node01 is voter",
            "member node02 is absent"
        ]
    );
    assert_eq!(
        oks[6..],
        ["quorum lost: no leader", "no leader", "node01 is stopped"]
    );
    // outputs are compared without the echo
    let first = &results[0].commands[3];
    assert_eq!(
        first.echo,
        "node01$ etcdctl --endpoints=http://10.0.0.1:2379 put foo bar\n"
    );
    assert_eq!(first.got, "OK\n");
}

#[test]
fn checks_of_a_cluster_start_and_unstarted_members() {
    let l = parsed("cluster", CLUSTER);
    assert_eq!(l.start, Start::Cluster);
    assert_eq!(l.seed, 1);
    assert_eq!(l.source.as_deref(), Some("doc.txt"));
    assert_eq!(lessons::check(&l), Vec::new());
    let results = lessons::run(&l);
    let texts: Vec<String> = results[0]
        .checks
        .iter()
        .map(|c| c.result.clone().unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(texts[4], "member node04 is unstarted learner");
    let session = lessons::boot_session(&l);
    assert_eq!(session.world.machines().len(), 3);
    assert_eq!(session.seed, 1);
}

#[test]
fn failing_checks_say_what_was_expected() {
    let src = "title: T\nstart: cluster\n## S\n$ sleep 3\n\
               ? quorum lost\n? no leader\n? leader node09\n? node01 is exited\n\
               ? node09 is leader\n? member node01 is learner\n? member node01 is unstarted\n\
               ? member node09 is voter\n";
    let l = parsed("t", src);
    let d = lessons::check(&l);
    let lines: Vec<usize> = d.iter().map(|d| d.line).collect();
    // ... and, at line 1, that it asks nothing and leaves the learner nothing to do
    let mut want: Vec<usize> = (5..=12).collect();
    want.extend([1, 1]);
    assert_eq!(lines, want);
    assert!(d[8].message.contains("asks no question"), "{d:?}");
    assert!(d[9].message.contains("no step for the learner"), "{d:?}");
    assert!(
        d[0].message
            .starts_with("expected quorum lost, quorum ok: "),
        "{d:?}"
    );
    assert!(
        d[1].message.starts_with("expected no leader, node0"),
        "{d:?}"
    );
    assert!(
        d[2].message
            .starts_with("expected node09 to be the leader, node0"),
        "{d:?}"
    );
    assert!(
        d[3].message
            .starts_with("expected node01 to be exited, it is "),
        "{d:?}"
    );
    assert_eq!(
        d[4].message,
        "expected node09 to be leader, there is no machine node09"
    );
    assert_eq!(
        d[5].message,
        "expected member node01 to be learner, it is voter"
    );
    assert_eq!(
        d[6].message,
        "expected member node01 to be unstarted, it is voter"
    );
    assert_eq!(
        d[7].message,
        "expected member node09 to be voter, there is no such member"
    );
}

/// `? MACHINE at term N` reads the running etcd's raft term (the page's
/// cluster elects node01 at term 3 with seed 1); a wrong term, a stopped etcd
/// and an unknown machine each fail, saying what was expected and what is.
#[test]
fn a_term_check_reads_the_running_etcds_term() {
    let src = "title: T\nstart: cluster\n## S\n$ sleep 3\n\
               ? node01 at term 3\n? node02 at term 3\n? node02 at term 4\n? node09 at term 3\n\
               ## K\nnode03$ kill etcd\n? node03 at term 3\n";
    let l = parsed("t", src);
    assert_eq!(
        l.steps[0].checks[0],
        Check::Term {
            machine: "node01".into(),
            term: 3,
            line: 5
        }
    );
    let results = lessons::run(&l);
    let got: Vec<Result<String, String>> = results
        .iter()
        .flat_map(|r| &r.checks)
        .map(|c| c.result.clone())
        .collect();
    assert_eq!(
        got,
        [
            Ok("node01 is at term 3".to_string()),
            Ok("node02 is at term 3".to_string()),
            Err("expected node02 at term 4, it is at term 3".to_string()),
            Err("expected node09 at term 3, there is no machine node09".to_string()),
            Err("expected node03 at term 3, it runs no etcd (stopped)".to_string()),
        ]
    );
}

#[test]
fn a_wrong_block_is_a_difference_at_its_line() {
    let src = TINY.replace("| bar\n", "| baz\n");
    let d = lessons::check(&parsed("tiny", &src));
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].line, 18);
    assert_eq!(d[0].message, "output differs: expected `baz`, got `bar`");

    let src = TINY.replace("| foo\n| bar\n", "| foo\n");
    let d = lessons::check(&parsed("tiny", &src));
    assert_eq!(
        (d[0].line, d[0].message.as_str()),
        (17, "the output goes on past its block: `bar`")
    );

    let src = TINY.replace("| OK\n", "| OK\n| and more\n");
    let d = lessons::check(&parsed("tiny", &src));
    assert_eq!(d[0].line, 16);
    assert!(d[0].message.contains("ends early"), "{d:?}");

    // a failing check and a wrong block, in file order within the step
    let src = TINY
        .replace("| a  b c\n", "| a b c\n")
        .replace("? no leader\n", "? leader node01\n");
    let d = lessons::check(&parsed("tiny", &src));
    let lines: Vec<usize> = d.iter().map(|d| d.line).collect();
    assert_eq!(lines, [21, 39]);
    assert_eq!(
        d[1].message,
        "expected node01 to be the leader, there is no leader"
    );
}

#[test]
fn update_fills_the_blocks_and_is_idempotent() {
    let bare = without_blocks(TINY);
    assert_ne!(bare, TINY);
    let updated = lessons::update(&bare, &parsed("tiny", &bare));
    // the timeout's output (retry line and error) is the one block TINY leaves out
    let l = parsed("tiny", &updated);
    let get = &l.steps[1].commands[1];
    let block = get.expected.clone().unwrap_or_default();
    assert!(block.starts_with("{\"level\":\"warn\""), "{block}");
    assert!(
        block.ends_with("Error: context deadline exceeded\n"),
        "{block}"
    );
    let block_lines = block.lines().count();
    let mut without_get: Vec<&str> = updated.split_inclusive('\n').collect();
    without_get.drain(get.last_line..get.last_line + block_lines);
    assert_eq!(without_get.concat(), TINY);
    assert_eq!(lessons::check(&l), Vec::new());
    assert_eq!(lessons::update(&updated, &l), updated);
    // wrong blocks are replaced, blocks of silent commands removed
    let wrong = TINY
        .replace("| bar\n", "| baz\n| more\n")
        .replace("$ sleep 2\n", "$ sleep 2\n| noise\n|\n");
    assert_eq!(
        lessons::update(&wrong, &parsed("tiny", &wrong)),
        lessons::update(&bare, &parsed("tiny", &bare))
    );
}

#[test]
fn a_lesson_runs_as_the_runner_runs_its_commands() {
    for src in [TINY, CLUSTER] {
        let l = parsed("t", src);
        let (whole, ran) = transcripts(&l);
        assert_eq!(ran, whole);
    }
}

#[test]
fn mistakes_name_their_line() {
    let cases: &[(&str, usize, &str)] = &[
        (
            "title: T\ncolour: red\n## S\n",
            2,
            "unknown header key `colour`",
        ),
        ("title: T\ntitle: U\n## S\n", 2, "`title` is given twice"),
        ("Title: T\n## S\n", 1, "unknown header key `Title`"),
        (
            "title: T\nseed: many\n## S\n",
            2,
            "seed must be a whole number",
        ),
        (
            "title: T\nstart: warm\n## S\n",
            2,
            "start must be `empty` or `cluster`",
        ),
        ("title: T\nSome words.\n## S\n", 2, "expected `key: value`"),
        (
            "title: T\n\nnode01$ etcd\n## S\n",
            3,
            "a command before the first step",
        ),
        (
            "title: T\n| OK\n## S\n",
            2,
            "an output line before the first step",
        ),
        (
            "title: T\n? quorum ok\n## S\n",
            2,
            "a check before the first step",
        ),
        (
            "title: T\n## S\nText.\n| OK\n",
            4,
            "no command before it in this step",
        ),
        (
            "title: T\n## S\n$ echo a\n| a\n## U\n| b\n",
            6,
            "no command before it in this step",
        ),
        (
            "title: T\n## S\n$ echo a\n\n| a\n",
            5,
            "right under its command (line 3)",
        ),
        (
            "title: T\n## S\n$ echo a\n? quorum ok\n| a\n",
            5,
            "right under its command",
        ),
        ("title: T\n## S\n$ echo a\n|a\n", 4, "malformed output line"),
        (
            "title: T\n## S\n\n? quorum fine\n",
            4,
            "unknown check `? quorum fine`",
        ),
        (
            "title: T\n## S\n? node01 is happy\n",
            3,
            "unknown machine state `happy`",
        ),
        (
            "title: T\n## S\n? member node01 is leader\n",
            3,
            "unknown member state `leader`",
        ),
        ("title: T\n## S\n?\n", 3, "unknown check"),
        (
            "title: T\n## S\n$ ls\nnode01$ etcdclt member list\n",
            4,
            "unknown command `etcdclt`",
        ),
        ("title: T\n## S\n$ X=1 jq .\n", 3, "unknown command `jq`"),
        (
            "title: T\n## S\n$ echo a \\\n  b \\\n",
            4,
            "ends after a line continuation",
        ),
        (
            "title: T\n## S\n$ echo a \\\n## U\n",
            4,
            "runs into the next step's title",
        ),
        (
            "title: T\n## S\n$ echo a \\\n| a\n",
            4,
            "runs into an output line",
        ),
        (
            "title: T\n## S\n$ echo a \\\n? quorum ok\n",
            4,
            "runs into a check",
        ),
        ("title: T\n## S\n\n$ echo 'a \\\n", 4, "unterminated quote"),
        (
            "title: T\n## S\n(not a prompt)$x\n$ echo \"a\n",
            4,
            "unterminated quote",
        ),
        ("title: T\n##\n", 2, "a step needs a title"),
        ("title: T\n##  \n", 2, "a step needs a title"),
        ("title:\n## S\n", 1, "the title is empty"),
        ("seed: 2\n\n## S\n$ ls\n", 1, "the lesson has no title"),
        ("title: T\n\n", 2, "the lesson has no step"),
        ("", 1, "the lesson has no title"),
    ];
    for (src, line, text) in cases {
        let (l, m) = mistake(src);
        assert_eq!(l, *line, "{src:?}: {m}");
        assert!(m.contains(text), "{src:?}: {m}");
    }
}

#[test]
fn what_is_not_a_mistake() {
    let src = "\u{feff}title: T\r\n# comment\r\n\r\n## S\r\n\
               Narration with $ signs, (parentheses) and ### a heading.\r\n\
               ### Sub heading\r\n\
               \x20 $ indented: narration\r\n\
               $ ETCDCTL_API=3 etcdctl version\r\n\
               $ export A=etcd\r\n\
               $ $A --version\r\n\
               (etcd Container)$ etcdctl member list | jq .\r\n\
               node01$\r\n\
               ? Node01 is stopped\r\n";
    let l = parsed("ok", src);
    let s = &l.steps[0];
    assert_eq!(s.commands.len(), 5);
    assert_eq!(
        s.narration,
        "Narration with $ signs, (parentheses) and ### a heading.\n### Sub heading\n  $ indented: narration"
    );
    assert_eq!(
        s.commands[4].command.prompt,
        parse::Prompt::Host("node01".into())
    );
}

#[test]
fn narration_around_commands_stays_in_paragraphs() {
    let l = parsed("n", "title: T\n## S\n\n\nFirst.\nStill first.\n$ echo a\nSecond.\n\n? quorum lost\n\nThird.\n\n");
    assert_eq!(
        l.steps[0].narration,
        "First.\nStill first.\n\nSecond.\n\nThird."
    );
}

// ---------------------------------------------------------------------------------
// The runner's check mode
// ---------------------------------------------------------------------------------

struct Temp(PathBuf);

impl Temp {
    fn new(name: &str, text: &str) -> Temp {
        let dir = std::env::temp_dir().join(format!("quorum-lessons-{}", std::process::id()));
        if let Err(e) = std::fs::create_dir_all(&dir) {
            panic!("{}: {e}", dir.display());
        }
        let path = dir.join(name);
        if let Err(e) = std::fs::write(&path, text) {
            panic!("{}: {e}", path.display());
        }
        Temp(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap_or_default()
    }

    fn read(&self) -> String {
        std::fs::read_to_string(&self.0).unwrap_or_default()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// (exit status, stdout, stderr)
fn cli(args: &[&str]) -> (i32, String, String) {
    match Command::new(env!("CARGO_BIN_EXE_quorum-playground"))
        .args(args)
        .output()
    {
        Ok(o) => (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        ),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn check_mode_exit_codes() {
    let good = Temp::new("good.lesson", TINY);
    let (code, out, err) = cli(&["check", good.path()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out,
        format!("{}: ok (3 steps, 12 commands, 9 checks)\n", good.path())
    );
    assert_eq!(err, "");

    let wrong = Temp::new("wrong.lesson", &TINY.replace("| bar\n", "| baz\n"));
    let (code, out, _) = cli(&["check", wrong.path()]);
    assert_eq!(code, 1, "{out}");
    let p = wrong.path();
    assert_eq!(
        out,
        format!("{p}:18: output differs: expected `baz`, got `bar`\n{p}: 1 difference (3 steps, 12 commands, 9 checks)\n")
    );

    let broken = Temp::new("broken.lesson", "title: T\n## S\n$ etcdctll get k\n");
    let (code, out, err) = cli(&["check", broken.path()]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(
        err.starts_with(&format!("{}:3: unknown command `etcdctll`", broken.path())),
        "{err}"
    );

    // every file is checked; the worst status wins
    let (code, out, err) = cli(&["check", good.path(), broken.path(), wrong.path()]);
    assert_eq!(code, 2);
    assert!(
        out.contains(": ok (") && out.contains(":18: output differs"),
        "{out}"
    );
    assert!(err.contains(":3: unknown command"), "{err}");
    let (code, _, _) = cli(&["check", good.path(), wrong.path()]);
    assert_eq!(code, 1);

    let (code, _, err) = cli(&["check", "/nonexistent/quorum-playground.lesson"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("/nonexistent/quorum-playground.lesson: "),
        "{err}"
    );
    let (code, _, err) = cli(&["check"]);
    assert_eq!(code, 2);
    assert!(err.contains("check [--update] LESSON..."), "{err}");
    let (code, _, _) = cli(&["check", "--frobnicate", good.path()]);
    assert_eq!(code, 2);

    // `run` is unchanged
    let script = Temp::new("script.sh", "echo hi\n");
    assert_eq!(
        cli(&["run", script.path()]),
        (0, "$ echo hi\nhi\n".to_string(), String::new())
    );
}

#[test]
fn check_update_rewrites_blocks_in_place() {
    let bare = without_blocks(TINY);
    let file = Temp::new(
        "update.lesson",
        &bare.replacen("$ sleep 2\n", "$ sleep 2\n| stale\n", 1),
    );
    let (code, out, err) = cli(&["check", "--update", file.path()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out,
        format!(
            "{}: ok (3 steps, 12 commands, 9 checks; 7 blocks updated)\n",
            file.path()
        )
    );
    assert_eq!(file.read(), lessons::update(&bare, &parsed("tiny", &bare)));
    let (code, out, _) = cli(&["check", file.path()]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = cli(&["check", "--update", file.path()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("; 0 blocks updated)\n"), "{out}");

    // a failing check is reported at its line in the rewritten file
    let src = bare.replace("? no leader\n", "? leader node01\n");
    let failing = Temp::new("failing.lesson", &src);
    let (code, out, _) = cli(&["check", "--update", failing.path()]);
    assert_eq!(code, 1, "{out}");
    let rewritten = failing.read();
    let line = rewritten
        .lines()
        .collect::<Vec<_>>()
        .iter()
        .rposition(|l| *l == "? leader node01")
        .map(|i| i + 1)
        .unwrap_or_default();
    assert!(line > 0 && rewritten != src);
    let p = failing.path();
    assert!(
        out.starts_with(&format!(
            "{p}:{line}: expected node01 to be the leader, there is no leader\n"
        )),
        "{out}"
    );
    assert!(
        out.ends_with("1 failing check (3 steps, 12 commands, 9 checks; 6 blocks updated)\n"),
        "{out}"
    );

    // a file that does not parse is left alone
    let broken = Temp::new("broken-update.lesson", "title: T\n## S\n| x\n");
    let (code, _, err) = cli(&["check", "--update", broken.path()]);
    assert_eq!(code, 2);
    assert!(err.contains(":3: "), "{err}");
    assert_eq!(broken.read(), "title: T\n## S\n| x\n");
}

// ---------------------------------------------------------------------------------
// The lessons in static/lessons/: each one is a golden test
// ---------------------------------------------------------------------------------

/// The lessons the site ships, sorted. Fails on a missing or thin corpus: a
/// test over no lessons would pass without checking any.
fn shipped_lessons() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/lessons");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "lesson"))
        .collect();
    files.sort();
    assert!(
        files.len() >= SHIPPED_LESSONS,
        "{}: {} lessons, expected at least {SHIPPED_LESSONS}",
        dir.display(),
        files.len()
    );
    files
}

/// How many lessons `static/lessons/` holds today: the tests fail on fewer.
const SHIPPED_LESSONS: usize = 6;

fn shipped(path: &Path) -> (Lesson, String) {
    let src = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => panic!("{}: {e}", path.display()),
    };
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match lessons::parse(&name, &src) {
        Ok(l) => (l, src),
        Err(e) => panic!("static/lessons/{}.lesson:{}: {}", name, e.line, e.message),
    }
}

#[test]
fn every_shipped_lesson_checks_without_differences() {
    let mut failures = Vec::new();
    let lessons = shipped_lessons();
    println!("{} lessons checked", lessons.len());
    for path in lessons {
        let (lesson, _) = shipped(&path);
        assert!(!lesson.steps.is_empty());
        for d in lessons::check(&lesson) {
            failures.push(format!("{}:{}: {}", path.display(), d.line, d.message));
        }
    }
    assert!(
        failures.is_empty(),
        "{} difference(s) (`cargo run --release -- check --update FILE` rewrites the blocks):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_shipped_lesson_runs_as_its_script_runs() {
    for path in shipped_lessons() {
        let (lesson, src) = shipped(&path);
        let (whole, ran) = transcripts(&lesson);
        assert!(
            ran == whole,
            "{}: the lesson's run differs from its script's",
            path.display()
        );
        // an up-to-date lesson is its own update
        let results = lessons::run(&lesson);
        if results
            .iter()
            .flat_map(|r| &r.commands)
            .all(|c| c.block() == c.expected)
        {
            assert_eq!(
                lessons::update_with(&src, &lesson, &results),
                src,
                "{}",
                path.display()
            );
        }
    }
}
