//! The lesson format's questions, learner's commands, why lines and speeds
//! (`src/lessons.rs`): good and bad files, what `check` verifies of them (a
//! wrong answer, a lesson without a question or a learner's command), how
//! the page recognises the learner's command (`lessons::same_command`), and
//! the shipped lessons' counts and narration lengths.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

use quorum_playground::lessons::{self, Check, Condition, Lesson};
use quorum_playground::shell::parse;

/// One machine; the learner starts etcd; a question on quorum and one on the
/// last command's exit status and output.
const GOOD: &str = r#"title: Questions
seed: 3

## 1. A machine
speed: 0.5
Start a machine.
> Why: a machine is where etcd runs.
>
> A second paragraph of why.

?? Will there be a leader after the start?
?+ Yes, node01 :: leader node01 :: One voter of one is a quorum.
?- No :: no leader :: A one-member cluster elects itself.
?- Maybe node02 :: leader node02 :: There is no node02.

$ machine add node01 10.0.0.1
! node01$ etcd --name node01 \
  --initial-advertise-peer-urls http://10.0.0.1:2380 --listen-peer-urls http://10.0.0.1:2380 \
  --advertise-client-urls http://10.0.0.1:2379 --listen-client-urls http://10.0.0.1:2379 \
  --initial-cluster node01=http://10.0.0.1:2380
$ sleep 2
? quorum ok

## 2. A write
?? Does `put` print OK?
?+ Yes :: output contains OK :: The leader commits it.
?- No, it fails :: exit 1 :: It does not fail.
$ etcdctl --endpoints=http://10.0.0.1:2379 put foo bar
| OK
"#;

fn parsed(src: &str) -> Lesson {
    match lessons::parse("good", src) {
        Ok(l) => l,
        Err(e) => panic!("{e}"),
    }
}

fn mistake(src: &str) -> (usize, String) {
    match lessons::parse("bad", src) {
        Ok(l) => panic!("parsed {src:?}: {l:?}"),
        Err(e) => {
            assert_eq!(e.to_string(), format!("bad:{}: {}", e.line, e.message));
            (e.line, e.message)
        }
    }
}

#[test]
fn questions_learner_commands_why_and_speed_parse() {
    let l = parsed(GOOD);
    assert_eq!((l.question_count(), l.learner_step_count()), (2, 1));
    let s = &l.steps[0];
    assert_eq!(s.narration, "Start a machine.");
    assert_eq!(
        s.why,
        "Why: a machine is where etcd runs.\n\nA second paragraph of why."
    );
    assert_eq!(s.speed, Some(0.5));
    assert_eq!(s.speed(), 0.5);
    assert_eq!(l.steps[1].speed(), lessons::DEFAULT_SPEED);
    assert_eq!(s.learner_command(), Some(1));
    let etcd = &s.commands[1];
    assert!(etcd.learner && etcd.command.text.starts_with("etcd --name node01 "));
    assert_eq!((etcd.line, etcd.last_line), (17, 20));
    let q = s.question.as_ref().expect("a question");
    assert_eq!(
        (q.line, q.text.as_str()),
        (11, "Will there be a leader after the start?")
    );
    assert_eq!(q.choices.len(), 3);
    assert_eq!(q.right(), 0);
    assert_eq!(q.choices[0].text, "Yes, node01");
    assert_eq!(q.choices[0].reason, "One voter of one is a quorum.");
    assert_eq!(
        q.choices[0].when,
        Condition::Check(Check::Leader {
            name: "node01".into(),
            line: 12
        })
    );
    assert!(!q.choices[1].right && q.choices[1].line == 13);
    let q2 = l.steps[1].question.as_ref().expect("a question");
    assert_eq!(q2.choices[0].when, Condition::OutputContains("OK".into()));
    assert_eq!(q2.choices[1].when, Condition::Exit(1));
    assert_eq!(q2.choices[1].when.to_string(), "exit 1");
    // The learner's command is in the lesson's script, as if they typed it.
    assert!(lessons::script(&l).contains("node01$ etcd --name node01 "));
}

#[test]
fn check_verifies_the_answers() {
    let l = parsed(GOOD);
    assert_eq!(lessons::check(&l), Vec::new());
    let results = lessons::run(&l);
    let holds: Vec<bool> = results[0].answers.iter().map(|a| a.holds.is_ok()).collect();
    assert_eq!(holds, [true, false, false]);
    let holds: Vec<bool> = results[1].answers.iter().map(|a| a.holds.is_ok()).collect();
    assert_eq!(holds, [true, false]);
    assert_eq!(results[1].commands[0].status, 0);
}

#[test]
fn check_catches_a_wrong_answer() {
    // The right and a wrong choice swapped: both are reported, at their lines.
    let src = GOOD
        .replace("?+ Yes, node01", "?- Yes, node01")
        .replace("?- No :: no leader", "?+ No :: no leader");
    let d = lessons::check(&parsed(&src));
    let at: Vec<(usize, &str)> = d.iter().map(|d| (d.line, d.message.as_str())).collect();
    assert_eq!(d.len(), 2, "{d:?}");
    assert_eq!(at[0].0, 12);
    assert!(
        at[0].1.starts_with(
            "the wrong answer `Yes, node01` is right too: its condition `leader node01` holds"
        ),
        "{d:?}"
    );
    assert_eq!(at[1].0, 13);
    assert!(
        at[1]
            .1
            .starts_with("the right answer `No` is wrong: its condition `no leader` does not hold"),
        "{d:?}"
    );
    // An exit status or output that says otherwise.
    let src = GOOD.replace(":: exit 1 ::", ":: exit 0 ::");
    let d = lessons::check(&parsed(&src));
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].line, 27);
    assert!(
        d[0].message
            .contains("`exit 0` holds (the command exited with status 0)"),
        "{d:?}"
    );
    let src = GOOD.replace("output contains OK", "output contains NOPE");
    let d = lessons::check(&parsed(&src));
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].message.contains("the command did not print `NOPE`"),
        "{d:?}"
    );
}

#[test]
fn check_catches_a_missing_learner_step_and_a_missing_question() {
    let src = GOOD.replace("! node01$ etcd", "node01$ etcd");
    let l = parsed(&src);
    assert_eq!(l.learner_step_count(), 0);
    let d = lessons::check(&l);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].line, 1);
    assert_eq!(
        d[0].message,
        "the lesson has no step for the learner to perform: mark a command with `! `"
    );
    let no_questions: String = GOOD
        .lines()
        .filter(|l| !l.starts_with('?') || l.starts_with("? "))
        .map(|l| format!("{l}\n"))
        .collect();
    let d = lessons::check(&parsed(&no_questions));
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].message.starts_with("the lesson asks no question"),
        "{d:?}"
    );
    // Without its learner's command the step's world is not the lesson's:
    // the check after it fails too.
    let without: String = GOOD
        .split_inclusive('\n')
        .filter(|l| !l.starts_with("! ") && !l.starts_with("  --"))
        .collect();
    let d = lessons::check(&parsed(&without));
    let messages: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
    assert!(
        messages.iter().any(|m| m.starts_with("expected quorum ok")),
        "{messages:?}"
    );
}

#[test]
fn each_new_mistake_names_its_line() {
    let head = "title: T\n## S\n";
    let cases: Vec<(String, usize, &str)> = vec![
        ("title: T\n?? Q\n## S\n".into(), 2, "a question before the first step"),
        ("title: T\n> why\n## S\n".into(), 2, "a `> ` (why) line before the first step"),
        ("title: T\n! $ ls\n## S\n".into(), 2, "a learner's command (`! `) before the first step"),
        (format!("{head}?? Q\n?+ a :: quorum ok :: r\n$ ls\n?? Q2\n?+ a :: quorum ok :: r\n?- b :: quorum lost :: r\n"), 6, "one question at most"),
        (format!("{head}??\n?+ a :: quorum ok :: r\n?- b :: quorum lost :: r\n"), 3, "needs its text"),
        (format!("{head}?+ a :: quorum ok :: r\n"), 3, "right under its question"),
        (format!("{head}?? Q\n\n?+ a :: quorum ok :: r\n"), 5, "right under its question"),
        (format!("{head}?? Q\n?+ a :: quorum ok\n"), 4, "a choice is `?+ TEXT :: CONDITION :: REASON`"),
        (format!("{head}?? Q\n?+ :: quorum ok :: r\n"), 4, "needs its text and its reason"),
        (format!("{head}?? Q\n?+ a :: all fine :: r\n"), 4, "unknown check `? all fine`"),
        (format!("{head}?? Q\n?+ a :: exit one :: r\n"), 4, "`exit` needs a whole number"),
        (format!("{head}?? Q\n?+ a :: output contains  :: r\n"), 4, "`output contains` needs a text"),
        (format!("{head}?? Q\n?+ a :: quorum ok :: r\n"), 3, "needs 2 to 4 choices"),
        (format!("{head}?? Q\n?+ a :: quorum ok :: r\n?- b :: quorum ok :: r\n?- c :: quorum ok :: r\n?- d :: quorum ok :: r\n?- e :: quorum ok :: r\n"), 3, "needs 2 to 4 choices (`?+ ` right, `?- ` wrong), this one has 5"),
        (format!("{head}?? Q\n?+ a :: quorum ok :: r\n?+ b :: quorum lost :: r\n"), 3, "exactly one right choice"),
        (format!("{head}?? Q\n?- a :: quorum ok :: r\n?- b :: quorum lost :: r\n"), 3, "exactly one right choice (`?+ `), this one has 0"),
        (format!("{head}?? Q\n?+ a :: exit 0 :: r\n?- b :: exit 1 :: r\n"), 3, "this step has none"),
        (format!("{head}! ls\n"), 3, "`! ` must be followed by a command with its prompt"),
        (format!("{head}! $ ls\n! $ ls\n"), 4, "one command for the learner (`! `) at most (line 3 is one)"),
        (format!("{head}! $ lss\n"), 3, "unknown command `lss`"),
        (format!("{head}speed: fast\n"), 3, "speed must be a number from 0.1 to 100"),
        (format!("{head}speed: 1000\n"), 3, "speed must be a number"),
        (format!("{head}speed: 1\nspeed: 2\n"), 4, "`speed:` is given twice"),
        (format!("{head}$ echo \\\n?? Q\n"), 4, "runs into a question"),
    ];
    let mut ran = 0;
    for (src, line, text) in &cases {
        let (l, m) = mistake(src);
        assert_eq!(l, *line, "{src:?}: {m}");
        assert!(m.contains(text), "{src:?}: {m}");
        ran += 1;
    }
    assert_eq!(ran, 24);
    // Not mistakes: `?+`-like text inside narration, a speed with an x, `>` alone.
    let l = parsed("title: T\n## S\nspeed: 5x\nSay ?+ here, and ?? too.\n>\n> w\n$ ls\n");
    assert_eq!(l.steps[0].speed, Some(5.0));
    assert_eq!(l.steps[0].narration, "Say ?+ here, and ?? too.");
    assert_eq!(l.steps[0].why, "w");
}

fn command(line: &str) -> parse::ScriptCommand {
    match parse::parse_script(line) {
        Ok(mut c) if c.len() == 1 => c.remove(0),
        other => panic!("{line}: {other:?}"),
    }
}

#[test]
fn the_learners_command_is_recognised_as_the_shell_reads_it() {
    let kill = command("node03$ kill etcd");
    let same = |c: &parse::ScriptCommand, line: &str, current: Option<&str>| {
        lessons::same_command(c, line, current)
    };
    // typed with its prompt, a button's `(HOST)$`, or without a prompt on node03
    assert!(same(&kill, "node03$ kill etcd", None));
    assert!(same(&kill, "(node03)$ kill   etcd", Some("node01")));
    assert!(same(&kill, "NODE03$ kill 'etcd'", None));
    assert!(same(&kill, "kill etcd", Some("node03")));
    // another machine, another command
    assert!(!same(&kill, "kill etcd", Some("node01")));
    assert!(!same(&kill, "node01$ kill etcd", Some("node03")));
    assert!(!same(&kill, "node03$ kill -9 etcd", None));
    assert!(!same(&kill, "node03$ kill", None));
    assert!(!same(&kill, "", Some("node03")));
    // `net`, `machine` and `sleep` run the same anywhere; a link either way round
    let cut = command("node01$ net cut node01 node03");
    assert!(same(&cut, "net cut node03 node01", Some("node02")));
    assert!(same(&cut, "(node02)$ net cut node01 node03", None));
    assert!(!same(&cut, "net heal node01 node03", None));
    let isolate = command("$ net isolate node03");
    assert!(same(&isolate, "node02$ net isolate node03", None));
    // a lesson command without a host: any machine
    let promote = command("(etcd Container)$ etcdctl member promote 907178cd988e15f3");
    assert!(same(
        &promote,
        "node01$ etcdctl member promote 907178cd988e15f3",
        None
    ));
    assert!(!same(
        &promote,
        "node01$ etcdctl member promote 907178cd988e15f4",
        None
    ));
    // quoting and continuation do not matter, variables stay as written
    let put = command("node01$ etcdctl --endpoints=http://10.0.0.1:2379 put k \"a b\"");
    assert!(same(
        &put,
        "node01$ etcdctl --endpoints=http://10.0.0.1:2379 put k 'a b'",
        None
    ));
    assert!(!same(
        &put,
        "node01$ etcdctl --endpoints=http://10.0.0.1:2379 put k a b",
        None
    ));
    // etcdctl's default endpoint named or not (the page's buttons leave it out)
    let remove =
        command("node01$ etcdctl --endpoints=http://127.0.0.1:2379 member remove 6f0f76f637bc9ea2");
    assert!(same(
        &remove,
        "(node01)$ etcdctl member remove 6f0f76f637bc9ea2",
        None
    ));
    assert!(same(
        &remove,
        "node01$ etcdctl --endpoints 127.0.0.1:2379 member remove 6f0f76f637bc9ea2",
        None
    ));
    assert!(!same(
        &remove,
        "node01$ etcdctl --endpoints=http://127.0.0.2:2379 member remove 6f0f76f637bc9ea2",
        None
    ));
    let var = command("$ etcdctl --endpoints=$EP get k");
    assert!(same(&var, "etcdctl --endpoints=\"$EP\" get k", None));
    assert!(!same(&var, "etcdctl --endpoints=http://x get k", None));
}

/// The shipped lessons: how many, how many questions and learner's commands,
/// and how long each step's narration is.
#[test]
fn the_shipped_lessons_ask_and_let_the_learner_act() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/lessons");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "lesson"));
    files.sort();
    let (mut lessons_seen, mut questions, mut learner, mut steps) = (0, 0, 0, 0);
    let mut too_long = Vec::new();
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap_or_default();
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let l = match lessons::parse(&name, &src) {
            Ok(l) => l,
            Err(e) => panic!("{e}"),
        };
        assert!(l.question_count() >= 1, "{name}: no question");
        assert!(l.learner_step_count() >= 1, "{name}: no learner's command");
        for s in &l.steps {
            if s.narration_words() > 70 {
                too_long.push(format!("{name}:{}: {} words", s.line, s.narration_words()));
            }
            assert!(!s.narration.is_empty(), "{name}:{}: no narration", s.line);
            if let Some(q) = &s.question {
                assert!((2..=4).contains(&q.choices.len()));
            }
        }
        lessons_seen += 1;
        questions += l.question_count();
        learner += l.learner_step_count();
        steps += l.steps.len();
    }
    assert!(too_long.is_empty(), "narration over 70 words: {too_long:?}");
    assert_eq!((lessons_seen, steps), (7, 93));
    assert_eq!((questions, learner), (20, 13));
}
