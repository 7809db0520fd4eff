//! Lessons: an etcd document told step by step, as plain text a trainer writes
//! without Rust. The page plays a lesson (narration, a Run button per step,
//! checks after it); the runner checks it (`quorum-playground check FILE...`), so
//! every lesson is also a golden test.
//!
//! # The lesson file format
//!
//! ```text
//! title: etcd server addition and deletion
//! seed: 20
//! start: empty
//! source: 000_4da45dd4aad1be94.txt
//!
//! ## 1. A single etcd server
//! Start one machine and one etcd on it. Narration is **Markdown**:
//! paragraphs, `code`, "- " list items.
//!
//! $ machine add node01 192.168.0.61
//! (Node01)$ docker run -d \
//!   --net=host --name etcd gcr.io/etcd-development/etcd:v3.4.0 \
//!   /usr/local/bin/etcd --name node01 ...
//! node01$ etcdctl member list
//! | 4eee438bb97e1153, started, node01, http://192.168.0.61:2380, http://192.168.0.61:2379, false
//! ? quorum ok
//! ? node01 is leader
//!
//! ## 2. Next step
//! ...
//! ```
//!
//! **Header.** `key: value` lines before the first step:
//!
//! | key | value |
//! |---|---|
//! | `title` | required: the lesson's title |
//! | `seed` | the world's seed, a whole number (default 1) |
//! | `start` | `empty` (default: no machines) or `cluster` (the page's three machines running a three-member cluster, [`CLUSTER_SCRIPT`]) |
//! | `etcd` | `3.4` (default: etcd 3.4.23) or `3.5` (etcd 3.5.1): what every `machine add` installs, the `start: cluster` machines' too |
//! | `source` | optional: the document the lesson follows |
//!
//! Blank lines and `#` comments (but not `##`) are ignored in the header; any
//! other key, a key given twice, or any other line is a mistake.
//!
//! **Steps.** A line `## TITLE` starts a step. Inside a step each line is one of:
//!
//! - **A command**: a line that starts, in its first column, with a prompt
//!   `$ `, `NAME$ ` or `(Name)$ `, exactly as in scripts: `NAME$` runs on
//!   machine NAME and makes it the current machine; `$` and `(etcd Container)$`
//!   run on the current machine. A line ending in `\` continues on the next line;
//!   quoting, joining and errors are the runner's (`shell::parse::parse_script`).
//!   The first word (after any `VAR=value` assignments) must be a command of the
//!   playground shell ([`command::commands`]): `etcd`, `/usr/local/bin/etcd`, `docker`,
//!   `etcdctl`, `machine`, `net`, `sleep`, `export`, ...
//! - **Expected output**: lines starting with `| ` right under a command (its
//!   last continuation line) or under another such line; `|` alone is an empty
//!   line. The block is what the command prints, standard output and standard
//!   error merged in the order they were written, as the runner prints them (the
//!   echo of the command is not part of it). A command without a block is run but
//!   not compared. A command that prints nothing gets no block. (So narration
//!   never starts a line with `|`: no Markdown tables.)
//! - **A check**, `? ...`, evaluated on the world after all the step's commands
//!   ran, wherever it stands in the step:
//!
//!   | check | holds when |
//!   |---|---|
//!   | `? quorum ok`, `? quorum lost` | a leader reaches a quorum of voters, or not (`sim::quorum::analyze`) |
//!   | `? leader NAME`, `? no leader` | the leader runs on machine NAME or is the member NAME; there is no leader |
//!   | `? MACHINE is STATE` | the machine's state is STATE: `leader`, `follower`, `candidate`, `learner`, `stopped` (never started, killed or powered off), `exited` (ended by itself) or `running` (any etcd process) |
//!   | `? MACHINE at term N` | the etcd running on the machine is at raft term N (a whole number): its current term, as its raft log says, not the `RAFT TERM` of `endpoint status` (the term of the last entry it applied) |
//!   | `? member NAME is STATE` | in the member list of the leader (with no leader, of the process that applied the most), member NAME is a `voter` or a `learner` (started or not, as `IS LEARNER` in `member list -w table`), `unstarted` (added, never started: no name yet) or `absent` |
//!
//!   A member is found by its name, else by a peer URL whose host is NAME or an
//!   address of machine NAME: an added member has no name until it starts (etcd
//!   does not send `member add`'s NAME to the cluster), so it is found under its
//!   machine's name (`? member node04 is unstarted` once node04's URL is
//!   added), or under its peer URL's host when no machine has that address
//!   (`? member 10.0.0.40 is unstarted`). Names match case-insensitively.
//! - **A learner's command**, `! ` before a command (`! node03$ kill etcd`):
//!   the learner performs it. The page's Run types the commands before it,
//!   says what to do and waits: it recognises the command when the learner's
//!   terminal runs an equivalent one (typed, or a button's or map link's
//!   `(HOST)$ cmd` line; both read with the shell's parser, words compared
//!   after quoting and blanks are gone, `net cut|heal A B` in either order,
//!   etcdctl's `--endpoints` left out when it names the default endpoint, the
//!   host compared when the lesson names one, except for `machine`, `net` and
//!   `sleep`), marks the step performed and types the rest. "Do it for me"
//!   types it, but the step is then not performed by the learner. `check` and
//!   the runner run it like any command. One per step at most.
//! - **A question**, `?? QUESTION`, followed right under it by 2 to 4 choices,
//!   exactly one right: `?+ TEXT :: CONDITION :: REASON` (right) and
//!   `?- TEXT :: CONDITION :: REASON` (wrong). The page asks it before the step
//!   runs (the learner picks a choice) and answers it once the step ran (right
//!   or wrong, with the reasons). CONDITION is what holds after the step when
//!   the choice is right: any check (`quorum lost`, `node04 is learner`,
//!   `member node04 is voter`, ...), `exit N` (the step's last command exited
//!   with status N) or `output contains TEXT` (it printed TEXT). `check`
//!   verifies that the right choice's condition holds and every wrong one's
//!   does not. One question per step at most.
//!
//!   ```text
//!   ?? node04 was added but never started. Will the `put` commit?
//!   ?+ No, it times out :: exit 1 :: Four voters need 3; only 2 run.
//!   ?- Yes :: exit 0 :: A voter counts as soon as it is added, started or not.
//!   ```
//! - **Why**, lines starting `> ` (or `>` alone): detail the page folds away
//!   under "Why?" (a `<details>`), Markdown like the narration. Keep the
//!   narration short (about 60 words; the shipped lessons are tested to say
//!   at most 70 outside their why) and move the rest here.
//! - **Speed**, `speed: N` (0.1 to 100, default [`DEFAULT_SPEED`]): the page's
//!   Run plays the step's commands on its clock at this speed, so a `sleep`,
//!   an election or a heal unfolds on the map instead of the clock jumping
//!   over it, and the step's checks and answer come once it finished. The
//!   clock pauses again at the end of the step (outputs stay the golden ones).
//! - **Narration**: every other line, blank lines included: Markdown, kept as
//!   written. Blank lines at both ends of the step are dropped; narration
//!   separated by commands, output or checks becomes separate paragraphs. A
//!   **bold** glossary word (`sim::glossary`) gets its glossary link on the page.
//!
//! **Mistakes** are errors `NAME:LINE: message` (NAME is the file's stem): an
//! unknown or repeated header key, a bad seed, start or etcd, no title, no step, a
//! command, output, check, question, why, speed or learner's command before
//! the first step, an output line that is not right under a command or its
//! block, a line starting with `|` but not `| `, an unknown check, a command
//! whose first word is not a shell command, an unterminated quote, a `\`
//! continuation left open at the end of the file or running into a step
//! title, output line, check or question; a second question in a step, a
//! question without text, a choice not right under its question or its
//! choices, a choice without its three `::` parts, text or reason, a question
//! with fewer than 2 or more than 4 choices or not exactly one right, `exit`
//! without a whole number, `output contains` without a text, `exit` or
//! `output` in a step without commands; a `! ` without a prompted command, a
//! second `! ` command in a step; a `speed:` that is not a number from 0.1 to
//! 100, or given twice in a step.
//!
//! `check` also reports a lesson that asks no question, or has no learner's
//! command, at line 1: every lesson has both.
//!
//! # Checking a lesson
//!
//! ```sh
//! cargo run --release -- check FILE...           # FILE: ok (N steps, M commands, K checks), or FILE:LINE: difference
//! cargo run --release -- check --update FILE...  # rewrite every `| ` block with what the command printed
//! ```
//!
//! `check` runs the lesson from its header's world, seed and etcd and reports each
//! output that differs from its block (at the first differing line), each
//! failing check, and each choice whose condition says otherwise than the
//! choice (a right one that does not hold, a wrong one that holds); exit status 1 on a difference, 2 on a mistake in the file.
//! `--update` writes the blocks (review the diff), then reports failing checks.
//! Write the commands and checks, run `check --update`, read what etcd printed,
//! and write the narration around it.
//!
//! # Running a lesson
//!
//! [`boot_session`] makes the lesson's world; [`run_step`] runs a step's
//! commands in it, as the runner runs a script ([`runner::run_one`]), and
//! evaluates its checks; [`check`] runs every step in one session and lists each
//! [`Difference`]; [`update`] rewrites the expected blocks with what the
//! commands printed.

use std::collections::BTreeMap;
use std::fmt;

use crate::shell::command::{self, Command, Item, Line, Net};
use crate::shell::parse::{self, Prompt, ScriptCommand};
use crate::shell::runner;
use crate::shell::session::Session;
use crate::sim::etcd::membership::Member;
use crate::sim::etcd::version::EtcdVersion;
use crate::sim::quorum::{self, LeaderInfo};
use crate::sim::url::split_url;
use crate::sim::view::{count, MachineView, WorldView};

/// The page's three-machine, three-member boot script (`start: cluster`).
pub const CLUSTER_SCRIPT: &str = include_str!("ui/boot.sh");

named_enum! {
    /// What world a lesson starts in.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub enum Start {
        /// No machines at all.
        #[default]
        Empty => "empty",
        /// Three machines running a three-member cluster ([`CLUSTER_SCRIPT`]).
        Cluster => "cluster",
    }
    /// The word in a lesson's header, a share link and the page's address.
    fn name;
}

/// A parsed lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    /// The file's stem, used in messages.
    pub name: String,
    pub title: String,
    pub seed: u64,
    pub start: Start,
    /// The etcd its `machine add`s install (`etcd:`; 3.4 without it).
    pub etcd: EtcdVersion,
    /// The document the lesson follows, if the header names it.
    pub source: Option<String>,
    pub steps: Vec<Step>,
}

impl Lesson {
    /// How many commands all the steps hold.
    pub fn command_count(&self) -> usize {
        self.steps.iter().map(|s| s.commands.len()).sum()
    }

    /// How many checks all the steps hold.
    pub fn check_count(&self) -> usize {
        self.steps.iter().map(|s| s.checks.len()).sum()
    }

    /// How many steps ask a question.
    pub fn question_count(&self) -> usize {
        self.steps.iter().filter(|s| s.question.is_some()).count()
    }

    /// How many steps have a command the learner performs.
    pub fn learner_step_count(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| s.learner_command().is_some())
            .count()
    }
}

/// One `## ` step.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub title: String,
    /// The line of its `## ` title.
    pub line: usize,
    /// Markdown, as written (see the module docs): the short text the step shows.
    pub narration: String,
    /// The `> ` lines: detail shown folded ("Why?"), Markdown like the narration.
    pub why: String,
    pub commands: Vec<LessonCommand>,
    pub checks: Vec<Check>,
    /// The `?? ` question asked before the step runs, if any.
    pub question: Option<Question>,
    /// The `speed:` the step plays at, if it gives one ([`Step::speed`]).
    pub speed: Option<f64>,
}

impl Step {
    /// The speed the page's clock plays the step at: its `speed:` line, else
    /// [`DEFAULT_SPEED`].
    pub fn speed(&self) -> f64 {
        self.speed.unwrap_or(DEFAULT_SPEED)
    }

    /// The index (in `commands`) of the command the learner performs, if any.
    pub fn learner_command(&self) -> Option<usize> {
        self.commands.iter().position(|c| c.learner)
    }

    /// How many words of narration the step shows unfolded (its `why` not counted).
    pub fn narration_words(&self) -> usize {
        self.narration.split_whitespace().count()
    }
}

/// The speed a step plays at when it gives none: a `sleep 6` takes 3 s of real time.
pub const DEFAULT_SPEED: f64 = 2.0;

/// The slowest and fastest `speed:` (the page's speed field's range).
pub const STEP_SPEED_RANGE: (f64, f64) = (0.1, 100.0);

/// A `?? ` question: asked before the step runs, answered after it ran.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    pub text: String,
    /// The line of the `?? `.
    pub line: usize,
    /// 2 to 4 choices, exactly one of them right.
    pub choices: Vec<Choice>,
}

impl Question {
    /// The index of the right choice.
    pub fn right(&self) -> usize {
        self.choices.iter().position(|c| c.right).unwrap_or(0)
    }
}

/// A `?+ ` (right) or `?- ` (wrong) choice: `TEXT :: CONDITION :: REASON`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub text: String,
    pub right: bool,
    /// What holds after the step exactly when this choice is the right one.
    pub when: Condition,
    /// Why the choice is right or wrong, shown once the step ran.
    pub reason: String,
    pub line: usize,
}

/// What a choice says about the world (or the step's last command) after the step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// Any `? ` check.
    Check(Check),
    /// `exit N`: the step's last command exited with status N.
    Exit(i32),
    /// `output contains TEXT`: the step's last command printed TEXT.
    OutputContains(String),
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Condition::Check(c) => write!(f, "{c}"),
            Condition::Exit(n) => write!(f, "exit {n}"),
            Condition::OutputContains(t) => write!(f, "output contains {t}"),
        }
    }
}

/// A command of a step and the output the lesson expects from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonCommand {
    /// The command as the runner reads it (line numbers are the file's).
    pub command: ScriptCommand,
    /// The `| ` block, each line without its `| ` and ending in `\n`; None when
    /// the command has no block.
    pub expected: Option<String>,
    /// The line where the command starts.
    pub line: usize,
    /// The command's last line (its `\` continuation lines included); its block
    /// starts on the next line.
    pub last_line: usize,
    /// A `! ` command: the learner performs it; the page does not run it.
    pub learner: bool,
}

named_enum! {
    /// The state `? MACHINE is STATE` asks for.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum MachineState {
        Leader => "leader",
        Follower => "follower",
        Candidate => "candidate",
        Learner => "learner",
        Stopped => "stopped",
        Exited => "exited",
        /// Any running etcd process.
        Running => "running",
    }
    /// The word in a lesson (and in `MachineView::state`).
    fn name;
}

named_enum! {
    /// The state `? member NAME is STATE` asks for.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum MemberState {
        /// A voting member (started or not).
        Voter => "voter",
        /// A learner (started or not), as `IS LEARNER` in `member list -w table`.
        Learner => "learner",
        /// Added but never started: no name yet (a voter or a learner).
        Unstarted => "unstarted",
        /// Not in the member list.
        Absent => "absent",
    }
    /// The word in a lesson.
    fn name;
}

/// A `? ` line: what the world should look like after a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// `? quorum ok` (`ok`) or `? quorum lost`.
    Quorum { ok: bool, line: usize },
    /// `? leader NAME`: a machine or member name.
    Leader { name: String, line: usize },
    /// `? no leader`.
    NoLeader { line: usize },
    /// `? MACHINE is STATE`.
    Machine {
        machine: String,
        state: MachineState,
        line: usize,
    },
    /// `? member NAME is STATE`.
    Member {
        name: String,
        state: MemberState,
        line: usize,
    },
    /// `? MACHINE at term N`: the raft term of the etcd running on MACHINE.
    Term {
        machine: String,
        term: u64,
        line: usize,
    },
}

impl Check {
    /// The line of the `? ` check.
    pub fn line(&self) -> usize {
        match self {
            Check::Quorum { line, .. }
            | Check::Leader { line, .. }
            | Check::NoLeader { line }
            | Check::Machine { line, .. }
            | Check::Member { line, .. }
            | Check::Term { line, .. } => *line,
        }
    }
}

/// The check as written after `? ` (`quorum ok`, `node03 is learner`, ...).
impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Check::Quorum { ok: true, .. } => write!(f, "quorum ok"),
            Check::Quorum { ok: false, .. } => write!(f, "quorum lost"),
            Check::Leader { name, .. } => write!(f, "leader {name}"),
            Check::NoLeader { .. } => write!(f, "no leader"),
            Check::Machine { machine, state, .. } => write!(f, "{machine} is {}", state.name()),
            Check::Member { name, state, .. } => write!(f, "member {name} is {}", state.name()),
            Check::Term { machine, term, .. } => write!(f, "{machine} at term {term}"),
        }
    }
}

/// A mistake in a lesson file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonError {
    /// The lesson's name (the file's stem).
    pub name: String,
    /// 1-based line number.
    pub line: usize,
    /// What is wrong, without the location.
    pub message: String,
}

/// `NAME:LINE: message`.
impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.name, self.line, self.message)
    }
}

impl std::error::Error for LessonError {}

// ---------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------

/// A mistake at a line, before the lesson's name is attached.
type Mistake = (usize, String);

fn mistake<T>(line: usize, message: impl Into<String>) -> Result<T, Mistake> {
    Err((line, message.into()))
}

/// Parses a lesson file; `name` (the file's stem) names it in messages.
///
/// # Errors
///
/// The first mistake met, as `NAME:LINE: message` (see the module docs).
pub fn parse(name: &str, src: &str) -> Result<Lesson, LessonError> {
    parse_lines(name, src).map_err(|(line, message)| LessonError {
        name: name.to_string(),
        line,
        message,
    })
}

fn parse_lines(name: &str, src: &str) -> Result<Lesson, Mistake> {
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    let lines: Vec<&str> = src
        .split_terminator('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let first_step = lines
        .iter()
        .position(|l| step_title(l).is_some())
        .unwrap_or(lines.len());
    let header = parse_header(&lines[..first_step])?;
    let mut steps = Vec::new();
    let mut at = first_step;
    while at < lines.len() {
        let end = lines[at + 1..]
            .iter()
            .position(|l| step_title(l).is_some())
            .map_or(lines.len(), |p| at + 1 + p);
        steps.push(parse_step(&lines, at, end)?);
        at = end;
    }
    let Some(title) = header.title else {
        return mistake(1, "the lesson has no title: begin it with `title: ...`");
    };
    if steps.is_empty() {
        return mistake(
            lines.len().max(1),
            "the lesson has no step: start each step with a line `## TITLE`",
        );
    }
    Ok(Lesson {
        name: name.to_string(),
        title,
        seed: header.seed.unwrap_or(1),
        start: header.start.unwrap_or_default(),
        etcd: header.etcd.unwrap_or_default(),
        source: header.source,
        steps,
    })
}

/// The title of a `## TITLE` line (possibly empty), or None for any other line.
fn step_title(line: &str) -> Option<&str> {
    if line == "##" {
        return Some("");
    }
    line.strip_prefix("## ").map(str::trim)
}

#[derive(Default)]
struct Header {
    title: Option<String>,
    seed: Option<u64>,
    start: Option<Start>,
    etcd: Option<EtcdVersion>,
    source: Option<String>,
}

/// What a line of a step is.
enum Kind<'a> {
    Command,
    /// An expected-output line: its text.
    Output(&'a str),
    /// A `|` line that is not `| TEXT` or `|`.
    BadOutput,
    /// A `? ` line: its text.
    Check(&'a str),
    /// A `?? ` line: the question's text.
    Question(&'a str),
    /// A `?+ ` (right) or `?- ` (wrong) choice: its text.
    Choice(bool, &'a str),
    /// A `> ` line (or `>` alone): a line of the step's "why".
    Why(&'a str),
    /// A `! ` line: the rest is the learner's command.
    Learner(&'a str),
    /// A `speed:` line: its value.
    Speed(&'a str),
    Narration,
}

fn kind(line: &str) -> Kind<'_> {
    if let Some(text) = after_mark(line, ">") {
        return Kind::Why(text);
    }
    if let Some(rest) = line.strip_prefix("! ") {
        return Kind::Learner(rest);
    }
    if let Some(value) = line.strip_prefix("speed:") {
        return Kind::Speed(value.trim());
    }
    for (mark, right) in [("?+", true), ("?-", false)] {
        if let Some(text) = after_mark(line, mark) {
            return Kind::Choice(right, text.trim());
        }
    }
    if let Some(text) = after_mark(line, "??") {
        return Kind::Question(text.trim());
    }
    if let Some(text) = after_mark(line, "|") {
        return Kind::Output(text);
    }
    if line.starts_with('|') {
        return Kind::BadOutput;
    }
    if let Some(text) = after_mark(line, "?") {
        return Kind::Check(text.trim());
    }
    if has_prompt(line) {
        return Kind::Command;
    }
    Kind::Narration
}

/// The text after `mark` on a line that is `mark` alone (then "") or
/// `mark TEXT`.
fn after_mark<'a>(line: &'a str, mark: &str) -> Option<&'a str> {
    match line.strip_prefix(mark)? {
        "" => Some(""),
        rest => rest.strip_prefix(' '),
    }
}

/// Whether a line starts, in its first column, with a `$ `, `NAME$ ` or
/// `(Name)$ ` prompt (the prompts `parse::split_prompt` reads).
fn has_prompt(line: &str) -> bool {
    if line.is_empty() || line.starts_with(|c: char| c.is_ascii_whitespace()) {
        return false;
    }
    let (prompt, rest) = parse::split_prompt(line);
    prompt != Prompt::Current || rest != line.trim()
}

const HEADER_KEYS: &str = "title, seed, start, etcd, source";

fn parse_header(lines: &[&str]) -> Result<Header, Mistake> {
    let mut header = Header::default();
    for (index, &line) in lines.iter().enumerate() {
        let n = index + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || (trimmed.starts_with('#') && !trimmed.starts_with("##")) {
            continue;
        }
        match key_value(line) {
            Some((key, value)) => header_key(&mut header, key, value.trim(), n)?,
            None => return not_header(line, n),
        }
    }
    Ok(header)
}

/// One header line, `key: value`, into `header`.
fn header_key(header: &mut Header, key: &str, value: &str, n: usize) -> Result<(), Mistake> {
    let given_before = match key {
        "title" if value.is_empty() => return mistake(n, "the title is empty"),
        "title" => header.title.replace(value.to_string()).is_some(),
        "seed" => {
            let Ok(seed) = value.parse::<u64>() else {
                return mistake(n, format!("seed must be a whole number, not {value:?}"));
            };
            header.seed.replace(seed).is_some()
        }
        "start" => {
            let Some(start) = Start::from_name(value) else {
                return mistake(
                    n,
                    format!("start must be `empty` or `cluster`, not {value:?}"),
                );
            };
            header.start.replace(start).is_some()
        }
        "etcd" => {
            let Some(etcd) = EtcdVersion::from_name(value) else {
                return mistake(
                    n,
                    format!(
                        "etcd must be {}, not {value:?}",
                        command::ETCD_VERSIONS
                            .iter()
                            .map(|v| format!("`{v}`"))
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ),
                );
            };
            header.etcd.replace(etcd).is_some()
        }
        "source" => header.source.replace(value.to_string()).is_some(),
        _ => {
            return mistake(
                n,
                format!("unknown header key `{key}` (the keys are {HEADER_KEYS})"),
            )
        }
    };
    if given_before {
        return mistake(n, format!("`{key}` is given twice"));
    }
    Ok(())
}

/// The mistake of a line in the header that is not `key: value`.
fn not_header<T>(line: &str, n: usize) -> Result<T, Mistake> {
    let what = match kind(line) {
        Kind::Command => "a command",
        Kind::Output(_) | Kind::BadOutput => "an output line",
        Kind::Check(_) => "a check",
        Kind::Question(_) | Kind::Choice(..) => "a question",
        Kind::Why(_) => "a `> ` (why) line",
        Kind::Learner(_) => "a learner's command (`! `)",
        Kind::Speed(_) => "a `speed:` line",
        Kind::Narration if line.trim().starts_with("##") => {
            return mistake(n, "a step starts with `## ` and its title")
        }
        Kind::Narration => &format!("expected `key: value` ({HEADER_KEYS}) or a step (`## TITLE`)"),
    };
    mistake(n, format!("{what} before the first step (`## TITLE`)"))
}

/// `key: value` with a key of ASCII letters, digits, `-` and `_`.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    plain.then_some((key, value))
}

/// Narration lines between two non-narration lines.
#[derive(Default)]
struct Narration {
    chunks: Vec<String>,
    open: Vec<String>,
}

impl Narration {
    fn push(&mut self, line: &str) {
        self.open.push(line.to_string());
    }

    /// Ends the current chunk: blank lines at its ends dropped.
    fn close(&mut self) {
        let lines = std::mem::take(&mut self.open);
        let blank = |l: &String| l.trim().is_empty();
        let start = lines.iter().position(|l| !blank(l));
        let end = lines.iter().rposition(|l| !blank(l));
        if let (Some(start), Some(end)) = (start, end) {
            self.chunks
                .push(lines[start..=end].join("\n").trim_end().to_string());
        }
    }

    fn text(mut self) -> String {
        self.close();
        self.chunks.join("\n\n")
    }
}

/// Parses the step whose `## ` title is `lines[at]`, ending before `lines[end]`.
fn parse_step(lines: &[&str], at: usize, end: usize) -> Result<Step, Mistake> {
    let title = step_title(lines[at]).unwrap_or_default();
    if title.is_empty() {
        return mistake(at + 1, "a step needs a title: `## TITLE`");
    }
    let mut step = StepReader::default();
    let mut i = at + 1;
    while i < end {
        i = step.line(lines, i, end)?;
        i += 1;
    }
    step.finish(title, at + 1)
}

/// A step being read, line by line.
#[derive(Default)]
struct StepReader {
    commands: Vec<LessonCommand>,
    checks: Vec<Check>,
    narration: Narration,
    why: Narration,
    question: Option<Question>,
    speed: Option<f64>,
    /// Whether the previous line was a command's last line or its block's.
    under_command: bool,
    /// Whether the previous line was the question or one of its choices.
    in_question: bool,
}

impl StepReader {
    /// Reads `lines[i]` (and, for a command, its continuation lines); returns
    /// the index of the last line it read.
    fn line(&mut self, lines: &[&str], i: usize, end: usize) -> Result<usize, Mistake> {
        let (n, line) = (i + 1, lines[i]);
        let k = kind(line);
        if self.in_question && !matches!(k, Kind::Choice(..)) {
            self.in_question = false;
        }
        match k {
            Kind::Output(text) => self.output(text, n)?,
            Kind::BadOutput => {
                return mistake(
                    n,
                    "malformed output line: write `| ` (a bar and a space) before the text, \
                     or `|` alone for an empty line",
                )
            }
            Kind::Check(text) => {
                self.checks.push(parse_check(text, n)?);
                self.narration.close();
                self.under_command = false;
            }
            Kind::Question(text) => self.question(text, n)?,
            Kind::Choice(right, text) => {
                let Some(q) = self.question.as_mut().filter(|_| self.in_question) else {
                    return mistake(
                        n,
                        "a choice (`?+` or `?-`) must stand right under its question (`?? `) \
                         or the choices before it",
                    );
                };
                q.choices.push(parse_choice(right, text, n)?);
                self.in_question = true;
            }
            Kind::Why(text) => {
                self.why.push(text);
                self.under_command = false;
            }
            Kind::Speed(value) => self.speed(value, n)?,
            Kind::Command => return self.command(lines, line, i, end, false),
            Kind::Learner(rest) => return self.command(lines, rest, i, end, true),
            Kind::Narration => {
                self.narration.push(line);
                self.under_command = false;
            }
        }
        Ok(i)
    }

    /// `| TEXT`: a line of the block under the command before it.
    fn output(&mut self, text: &str, n: usize) -> Result<(), Mistake> {
        match self.commands.last_mut() {
            Some(c) if self.under_command => {
                let block = c.expected.get_or_insert_with(String::new);
                block.push_str(text);
                block.push('\n');
            }
            Some(c) => {
                return mistake(
                    n,
                    format!(
                        "an output line must stand right under its command (line {}) \
                         or the output lines before it",
                        c.line
                    ),
                )
            }
            None => return mistake(n, "an output line with no command before it in this step"),
        }
        self.narration.close();
        Ok(())
    }

    /// `?? QUESTION`: the step's one question.
    fn question(&mut self, text: &str, n: usize) -> Result<(), Mistake> {
        if let Some(q) = &self.question {
            return mistake(
                n,
                format!(
                    "a step asks one question at most (it asks one on line {})",
                    q.line
                ),
            );
        }
        if text.is_empty() {
            return mistake(n, "a question needs its text: `?? QUESTION`");
        }
        self.question = Some(Question {
            text: text.to_string(),
            line: n,
            choices: Vec::new(),
        });
        self.narration.close();
        self.under_command = false;
        self.in_question = true;
        Ok(())
    }

    /// `speed: N`: the clock's speed while the step plays.
    fn speed(&mut self, value: &str, n: usize) -> Result<(), Mistake> {
        let (lo, hi) = STEP_SPEED_RANGE;
        let Some(v) = value
            .strip_suffix(['x', 'X'])
            .unwrap_or(value)
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && (lo..=hi).contains(v))
        else {
            return mistake(
                n,
                format!("speed must be a number from {lo} to {hi} (for example 1 or 0.5), not {value:?}"),
            );
        };
        if self.speed.replace(v).is_some() {
            return mistake(n, "`speed:` is given twice in this step");
        }
        self.narration.close();
        self.under_command = false;
        Ok(())
    }

    /// A command (the learner's when `learner`, after its `! `) starting at
    /// `lines[i]` with `first` as its text; returns its last line's index.
    fn command(
        &mut self,
        lines: &[&str],
        first: &str,
        i: usize,
        end: usize,
        learner: bool,
    ) -> Result<usize, Mistake> {
        let n = i + 1;
        if learner {
            if !has_prompt(first) {
                return mistake(
                    n,
                    "`! ` must be followed by a command with its prompt: `! $ CMD` or `! NAME$ CMD`",
                );
            }
            if let Some(c) = self.commands.iter().find(|c| c.learner) {
                return mistake(
                    n,
                    format!(
                        "a step has one command for the learner (`! `) at most (line {} is one)",
                        c.line
                    ),
                );
            }
        }
        let (command, last) = read_command(lines, first, i, end)?;
        check_command_name(&command.text).or_else(|m| mistake(n, m))?;
        self.commands.push(LessonCommand {
            line: command.line,
            command,
            expected: None,
            last_line: last + 1,
            learner,
        });
        self.narration.close();
        self.under_command = true;
        Ok(last)
    }

    /// The step, once its question (if any) is checked whole.
    fn finish(self, title: &str, line: usize) -> Result<Step, Mistake> {
        if let Some(q) = &self.question {
            check_question(q, !self.commands.is_empty())?;
        }
        Ok(Step {
            title: title.to_string(),
            line,
            narration: self.narration.text(),
            why: self.why.text(),
            commands: self.commands,
            checks: self.checks,
            question: self.question,
            speed: self.speed,
        })
    }
}

/// A question has 2 to 4 choices, one of them right, and a choice about the
/// step's last command needs a command.
fn check_question(q: &Question, has_command: bool) -> Result<(), Mistake> {
    let count = q.choices.len();
    if !(2..=4).contains(&count) {
        return mistake(
            q.line,
            format!(
                "a question needs 2 to 4 choices (`?+ ` right, `?- ` wrong), this one has {count}"
            ),
        );
    }
    let right = q.choices.iter().filter(|c| c.right).count();
    if right != 1 {
        return mistake(
            q.line,
            format!("a question needs exactly one right choice (`?+ `), this one has {right}"),
        );
    }
    let needs_command = q
        .choices
        .iter()
        .any(|c| !matches!(c.when, Condition::Check(_)));
    if needs_command && !has_command {
        return mistake(
            q.line,
            "`exit N` and `output contains TEXT` are about the step's last command, and this step has none",
        );
    }
    Ok(())
}

/// A choice's `TEXT :: CONDITION :: REASON`.
fn parse_choice(right: bool, text: &str, line: usize) -> Result<Choice, Mistake> {
    let parts: Vec<&str> = text.split("::").map(str::trim).collect();
    let [answer, when, reason] = parts.as_slice() else {
        return mistake(
            line,
            "a choice is `?+ TEXT :: CONDITION :: REASON` (right) or `?- TEXT :: CONDITION :: REASON` (wrong)",
        );
    };
    if answer.is_empty() || reason.is_empty() {
        return mistake(line, "a choice needs its text and its reason");
    }
    Ok(Choice {
        text: answer.to_string(),
        right,
        when: parse_condition(when, line)?,
        reason: reason.to_string(),
        line,
    })
}

/// A check, `exit N` or `output contains TEXT`.
fn parse_condition(text: &str, line: usize) -> Result<Condition, Mistake> {
    if let Some(n) = after_mark(text, "exit").map(str::trim) {
        return match n.parse::<i32>() {
            Ok(n) => Ok(Condition::Exit(n)),
            Err(_) => mistake(line, format!("`exit` needs a whole number, not {n:?}")),
        };
    }
    if let Some(t) = after_mark(text, "output contains").map(str::trim) {
        if t.is_empty() {
            return mistake(line, "`output contains` needs a text");
        }
        return Ok(Condition::OutputContains(t.to_string()));
    }
    parse_check(text, line)
        .map(Condition::Check)
        .map_err(|(l, m)| (l, format!("{m}; or `exit N`, `output contains TEXT`")))
}

/// Reads the command starting at `lines[start]` with its `\` continuation lines,
/// through `parse::parse_script` so that joining, quoting and errors are the
/// runner's. Returns the command and the index of its last line.
fn read_command(
    lines: &[&str],
    first: &str,
    start: usize,
    end: usize,
) -> Result<(ScriptCommand, usize), Mistake> {
    let mut last = start;
    loop {
        let text: String = std::iter::once(first)
            .chain(lines[start + 1..=last].iter().copied())
            .flat_map(|l| [l, "\n"])
            .collect();
        let err = match parse::parse_script(&text) {
            Ok(commands) => {
                return match commands.into_iter().next() {
                    Some(mut c) => {
                        c.line = start + 1;
                        Ok((c, last))
                    }
                    None => mistake(start + 1, "an empty command"),
                };
            }
            Err(e) => e,
        };
        // A blank line ends a continued command, so the command is still open
        // exactly when one more blank line makes it parse.
        let open = parse::parse_script(&format!("{text}\n")).is_ok();
        if !open {
            return mistake(start + err.line, err.message);
        }
        let next = last + 1;
        if next >= lines.len() {
            return mistake(
                next,
                "the lesson ends after a line continuation (\\): the command is left open",
            );
        }
        let what = if next >= end {
            Some("the next step's title")
        } else {
            match kind(lines[next]) {
                Kind::Output(_) | Kind::BadOutput => Some("an output line"),
                Kind::Check(_) => Some("a check"),
                Kind::Question(_) | Kind::Choice(..) => Some("a question"),
                _ => None,
            }
        };
        if let Some(what) = what {
            return mistake(
                next + 1,
                format!(
                    "the command of line {} ends in a line continuation (\\) and runs into {what}",
                    start + 1
                ),
            );
        }
        last = next;
    }
}

/// The first word of a command (after `VAR=value` words) must be a shell command.
fn check_command_name(text: &str) -> Result<(), String> {
    // Variables are unknown until the command runs; a word made by one is not checked.
    const VARIABLE: &str = "\u{0}";
    let lookup = |_: &str| Some(VARIABLE.to_string());
    // Operators and bad substitutions are the shell's to report when the command runs.
    let Ok(words) = parse::words(text, &lookup, 0) else {
        return Ok(());
    };
    match command::parse(&words).command {
        Command::NotFound(w) if !w.contains(VARIABLE) && !command::is_command(&w) => Err(format!(
            "unknown command `{w}`: the playground shell runs {}",
            command::commands().join(", ")
        )),
        _ => Ok(()),
    }
}

const CHECK_FORMS: &str = "`? quorum ok`, `? quorum lost`, `? leader NAME`, `? no leader`, \
     `? MACHINE is leader|follower|candidate|learner|stopped|exited|running`, \
     `? member NAME is voter|learner|unstarted|absent`, `? MACHINE at term N`";

fn parse_check(text: &str, line: usize) -> Result<Check, Mistake> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let check = match words.as_slice() {
        ["quorum", "ok"] => Check::Quorum { ok: true, line },
        ["quorum", "lost"] => Check::Quorum { ok: false, line },
        ["no", "leader"] => Check::NoLeader { line },
        ["leader", name] => Check::Leader {
            name: name.to_string(),
            line,
        },
        ["member", name, "is", state] => match MemberState::from_name(state) {
            Some(state) => Check::Member {
                name: name.to_string(),
                state,
                line,
            },
            None => {
                return mistake(
                    line,
                    format!(
                        "unknown member state `{state}`: write voter, learner, unstarted or absent"
                    ),
                )
            }
        },
        [machine, "at", "term", n] => match n.parse::<u64>() {
            Ok(term) => Check::Term {
                machine: machine.to_string(),
                term,
                line,
            },
            Err(_) => return mistake(line, format!("a term is a whole number, not `{n}`")),
        },
        [machine, "is", state] => match MachineState::from_name(state) {
            Some(state) => Check::Machine {
                machine: machine.to_string(),
                state,
                line,
            },
            None => {
                return mistake(
                    line,
                    format!(
                        "unknown machine state `{state}`: write leader, follower, candidate, \
                         learner, stopped, exited or running"
                    ),
                )
            }
        },
        _ => {
            return mistake(
                line,
                format!("unknown check `? {text}`: the checks are {CHECK_FORMS}"),
            )
        }
    };
    Ok(check)
}

// ---------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------

/// Evaluates a check on a view of the world: `Ok` with what holds ("node03 is
/// learner"), or `Err` with what was expected and what is ("expected node03 to
/// be learner, it is follower").
///
/// # Errors
///
/// The check does not hold; the text says why.
pub fn evaluate(view: &WorldView, check: &Check) -> Result<String, String> {
    match check {
        Check::Quorum { ok, .. } => {
            let info = quorum::analyze(view);
            let summary = info.summary();
            if info.can_commit == *ok {
                Ok(summary)
            } else {
                Err(format!("expected {check}, {summary}"))
            }
        }
        Check::Leader { name, .. } => match quorum::analyze(view).leader {
            Some(l) if same(&l.machine, name) || same(&l.name, name) => Ok(format!(
                "{} is the leader (term {})",
                leader_label(&l),
                l.term
            )),
            Some(l) => Err(format!(
                "expected {name} to be the leader, {} is (term {})",
                leader_label(&l),
                l.term
            )),
            None => Err(format!(
                "expected {name} to be the leader, there is no leader"
            )),
        },
        Check::NoLeader { .. } => match quorum::analyze(view).leader {
            None => Ok("no leader".to_string()),
            Some(l) => Err(format!(
                "expected no leader, {} leads at term {}",
                leader_label(&l),
                l.term
            )),
        },
        Check::Machine { machine, state, .. } => machine_is(view, machine, *state),
        Check::Member { name, state, .. } => member_is(view, name, *state),
        Check::Term { machine, term, .. } => machine_at_term(view, machine, *term),
    }
}

/// `? MACHINE at term N`: the running etcd's current raft term.
fn machine_at_term(view: &WorldView, machine: &str, want: u64) -> Result<String, String> {
    let Some(m) = find_machine(view, machine) else {
        return Err(format!(
            "expected {machine} at term {want}, there is no machine {machine}"
        ));
    };
    match &m.process {
        Some(p) if p.term == want => Ok(format!("{} is at term {want}", m.name)),
        Some(p) => Err(format!(
            "expected {} at term {want}, it is at term {}",
            m.name, p.term
        )),
        None => Err(format!(
            "expected {} at term {want}, it runs no etcd ({})",
            m.name,
            m.state()
        )),
    }
}

/// `? MACHINE is STATE`.
fn machine_is(view: &WorldView, machine: &str, state: MachineState) -> Result<String, String> {
    let want = state.name();
    let Some(m) = find_machine(view, machine) else {
        return Err(format!(
            "expected {machine} to be {want}, there is no machine {machine}"
        ));
    };
    let is = m.state();
    let holds = match state {
        MachineState::Running => m.process.is_some(),
        _ => is == want,
    };
    match (holds, state) {
        (true, MachineState::Running) => Ok(format!("{} is running ({is})", m.name)),
        (true, _) => Ok(format!("{} is {is}", m.name)),
        (false, _) => Err(format!("expected {} to be {want}, it is {is}", m.name)),
    }
}

/// `? member NAME is STATE`, by the member list a client would read.
fn member_is(view: &WorldView, name: &str, state: MemberState) -> Result<String, String> {
    let want = state.name();
    let Some(members) = quorum::reference(view).map(|p| p.members.as_slice()) else {
        return match state {
            MemberState::Absent => Ok(format!("member {name} is absent (no etcd runs)")),
            _ => Err(format!(
                "expected member {name} to be {want}, no etcd runs to list the members"
            )),
        };
    };
    let Some(m) = find_member(view, members, name) else {
        return match state {
            MemberState::Absent => Ok(format!("member {name} is absent")),
            _ => Err(format!(
                "expected member {name} to be {want}, there is no such member"
            )),
        };
    };
    let role = if m.is_learner { "learner" } else { "voter" };
    let is = if m.is_started() {
        role.to_string()
    } else {
        format!("unstarted {role}")
    };
    let holds = match state {
        MemberState::Voter => !m.is_learner,
        MemberState::Learner => m.is_learner,
        MemberState::Unstarted => !m.is_started(),
        MemberState::Absent => false,
    };
    if holds {
        Ok(format!("member {name} is {is}"))
    } else {
        Err(format!("expected member {name} to be {want}, it is {is}"))
    }
}

fn same(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

fn leader_label(l: &LeaderInfo) -> String {
    if l.name == l.machine {
        l.name.clone()
    } else {
        format!("{} (on {})", l.name, l.machine)
    }
}

fn find_machine<'a>(view: &'a WorldView, name: &str) -> Option<&'a MachineView> {
    view.machines.iter().find(|m| same(&m.name, name))
}

/// Member `name`: by its name, else by a peer URL whose host is `name` or an
/// address of machine `name`.
fn find_member<'a>(view: &WorldView, members: &'a [Member], name: &str) -> Option<&'a Member> {
    let by_name = members
        .iter()
        .find(|m| m.is_started() && same(&m.name, name));
    by_name.or_else(|| {
        members.iter().find(|m| {
            m.peer_urls
                .iter()
                .any(|u| split_url(u).is_some_and(|(host, _)| host_names_machine(view, host, name)))
        })
    })
}

/// Whether a peer URL's host is machine `name`: its name or one of its addresses
/// (through the hosts table).
fn host_names_machine(view: &WorldView, host: &str, name: &str) -> bool {
    same(host, name)
        || find_machine(view, name).is_some_and(|m| quorum::names_machine(view, host, m))
}

// ---------------------------------------------------------------------------------
// Recognising the learner's command
// ---------------------------------------------------------------------------------

/// A command's assignments and words as the shell reads them (quotes and
/// blanks gone, variables left as written), without an `--endpoints` that names
/// etcdctl's default endpoint (the page's buttons leave it out on a machine
/// whose etcd listens there), `net cut|heal A B` with A and B in order.
fn normal(text: &str) -> Option<(Line, Vec<String>)> {
    let line = command::read(text)?;
    let words = match &line.command {
        Command::Etcdctl(e) => std::iter::once("etcdctl".to_string())
            .chain(
                e.flags
                    .items
                    .iter()
                    .filter(|i| !is_default_endpoint(i))
                    .flat_map(Item::words),
            )
            .collect(),
        Command::Net(Net::Cut(a, b) | Net::Heal(Some((a, b)))) if a > b => {
            let mut w = line.words.clone();
            w.swap(2, 3);
            w
        }
        _ => line.words.clone(),
    };
    Some((line, words))
}

/// Whether a flag names etcdctl's default endpoint.
fn is_default_endpoint(item: &Item) -> bool {
    const DEFAULT_ENDPOINTS: [&str; 4] = [
        "http://127.0.0.1:2379",
        "127.0.0.1:2379",
        "http://localhost:2379",
        "localhost:2379",
    ];
    matches!(item, Item::Flag(g) if g.flag.name == "endpoints" && DEFAULT_ENDPOINTS.contains(&g.value()))
}

/// Whether `line`, a command the learner's terminal ran (as the page records
/// it: `cmd`, `HOST$ cmd` typed, or a button's `(HOST)$ cmd`), is the lesson's
/// `command`: the same words once the shell has read both, on the same machine
/// when the lesson names one (`current` is the terminal's machine, for a line
/// without a prompt), except for `machine`, `net` and `sleep`, which run the
/// same anywhere.
pub fn same_command(command: &ScriptCommand, line: &str, current: Option<&str>) -> bool {
    let (prompt, text) = parse::split_prompt(line);
    let (Some((want, want_words)), Some((got, got_words))) = (normal(&command.text), normal(&text))
    else {
        return false;
    };
    if (want.assigns.is_empty() && want_words.is_empty())
        || (want.assigns, want_words) != (got.assigns, got_words)
    {
        return false;
    }
    let Prompt::Host(host) = &command.prompt else {
        return true;
    };
    // `machine`, `net` and `sleep` run the same on any machine.
    if matches!(
        want.command,
        Command::Machine(_) | Command::Net(_) | Command::Sleep(_)
    ) {
        return true;
    }
    let ran_on = match &prompt {
        Prompt::Host(h) => Some(h.as_str()),
        Prompt::Current => current,
    };
    ran_on.is_some_and(|h| same(h, host))
}

// ---------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------

/// A session with the lesson's seed and etcd, after the boot script when it
/// starts with a cluster (as the page opens it).
pub fn boot_session(lesson: &Lesson) -> Session {
    let mut session = Session::new(lesson.seed);
    session.default_etcd = lesson.etcd;
    boot(&mut session, lesson.start);
    session
}

/// Runs the page's boot script ([`CLUSTER_SCRIPT`]) in `session` when `start`
/// is the cluster: what each command printed (the runner's echo and output).
/// Its machines get the session's `default_etcd`.
pub fn boot(session: &mut Session, start: Start) -> Vec<String> {
    let mut printed = Vec::new();
    if start == Start::Cluster {
        for c in parse::parse_script(CLUSTER_SCRIPT).unwrap_or_default() {
            let mut text = String::new();
            runner::run_one(session, &c, false, &mut text);
            printed.push(text);
        }
    }
    printed
}

/// What one command of a step printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandResult {
    /// The command's line.
    pub line: usize,
    /// The runner's echo of the command (`HOST$ COMMAND\n`).
    pub echo: String,
    /// The lesson's block, if any.
    pub expected: Option<String>,
    /// What the command printed, both streams in write order.
    pub got: String,
    /// Its exit status.
    pub status: i32,
}

impl CommandResult {
    /// The block [`update`] writes for the command: the output with a final
    /// newline, None when it printed nothing.
    pub fn block(&self) -> Option<String> {
        (!self.got.is_empty()).then(|| with_newline(&self.got))
    }

    /// The output differs from a block the lesson gives (a command without a
    /// block never differs).
    pub fn differs(&self) -> bool {
        self.expected
            .as_ref()
            .is_some_and(|e| *e != with_newline(&self.got))
    }
}

/// A check and how it came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckResult {
    pub check: Check,
    pub result: Result<String, String>,
}

/// A choice of the step's question and whether its condition held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceResult {
    pub choice: Choice,
    /// `Ok` when the condition holds (what holds), `Err` when not (why).
    pub holds: Result<String, String>,
}

/// What running a step did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepResult {
    pub commands: Vec<CommandResult>,
    pub checks: Vec<CheckResult>,
    /// The question's choices, each with its condition evaluated after the step.
    pub answers: Vec<ChoiceResult>,
}

impl StepResult {
    /// The step's part of the runner's transcript: each echo and its output.
    pub fn transcript(&self) -> String {
        self.commands
            .iter()
            .flat_map(|c| [c.echo.as_str(), c.got.as_str()])
            .collect()
    }
}

/// Runs a step's commands as the runner runs a script's (without logs), then
/// evaluates its checks on the world they leave.
pub fn run_step(session: &mut Session, step: &Step) -> StepResult {
    let commands = step
        .commands
        .iter()
        .map(|c| {
            let mut echo = String::new();
            runner::run_one(session, &c.command, false, &mut echo);
            // The echo is one line: a command's text never holds a newline.
            let cut = echo.find('\n').map_or(echo.len(), |i| i + 1);
            let got = echo.split_off(cut);
            CommandResult {
                line: c.line,
                echo,
                expected: c.expected.clone(),
                got,
                status: session.last_status(),
            }
        })
        .collect::<Vec<_>>();
    let view = session.world.view();
    let checks = step
        .checks
        .iter()
        .map(|c| CheckResult {
            check: c.clone(),
            result: evaluate(&view, c),
        })
        .collect();
    let last = commands.last();
    let answers = step
        .question
        .iter()
        .flat_map(|q| &q.choices)
        .map(|c| ChoiceResult {
            choice: c.clone(),
            holds: evaluate_condition(&view, last, &c.when),
        })
        .collect();
    StepResult {
        commands,
        checks,
        answers,
    }
}

/// Evaluates a choice's condition after a step: a check on the world, or the
/// exit status or output of the step's last command (`last`; `None` on the
/// page, which answers these from the lesson alone).
///
/// # Errors
///
/// The condition does not hold (or cannot be told); the text says why.
pub fn evaluate_condition(
    view: &WorldView,
    last: Option<&CommandResult>,
    when: &Condition,
) -> Result<String, String> {
    match when {
        Condition::Check(c) => evaluate(view, c),
        Condition::Exit(n) => match last {
            Some(r) if r.status == *n => Ok(format!("the command exited with status {n}")),
            Some(r) => Err(format!(
                "expected exit status {n}, the command exited with {}",
                r.status
            )),
            None => Err("no command ran".to_string()),
        },
        Condition::OutputContains(t) => match last {
            Some(r) if r.got.contains(t.as_str()) => Ok(format!("the command printed `{t}`")),
            Some(_) => Err(format!("the command did not print `{t}`")),
            None => Err("no command ran".to_string()),
        },
    }
}

/// Runs every step of a lesson in one session from [`boot_session`].
pub fn run(lesson: &Lesson) -> Vec<StepResult> {
    let mut session = boot_session(lesson);
    lesson
        .steps
        .iter()
        .map(|s| run_step(&mut session, s))
        .collect()
}

/// An output that differs from its block, or a check that fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The line of the first differing block line (the block's last line when the
    /// output goes on past it), or of the failing check.
    pub line: usize,
    pub message: String,
}

/// Runs a lesson and lists every difference, in file order within each step:
/// outputs first, then checks.
pub fn check(lesson: &Lesson) -> Vec<Difference> {
    differences(lesson, &run(lesson))
}

/// The differences of a run ([`run`]) of `lesson`.
pub fn differences(lesson: &Lesson, results: &[StepResult]) -> Vec<Difference> {
    let mut out = Vec::new();
    for (step, result) in lesson.steps.iter().zip(results) {
        for (c, r) in step.commands.iter().zip(&result.commands) {
            if let Some(expected) = &c.expected {
                if let Some((offset, message)) = compare(expected, &with_newline(&r.got)) {
                    out.push(Difference {
                        line: c.last_line + offset,
                        message,
                    });
                }
            }
        }
        for r in &result.checks {
            if let Err(message) = &r.result {
                out.push(Difference {
                    line: r.check.line(),
                    message: message.clone(),
                });
            }
        }
        for r in &result.answers {
            let c = &r.choice;
            let message = match (&r.holds, c.right) {
                (Err(why), true) => format!(
                    "the right answer `{}` is wrong: its condition `{}` does not hold ({why})",
                    c.text, c.when
                ),
                (Ok(what), false) => format!(
                    "the wrong answer `{}` is right too: its condition `{}` holds ({what})",
                    c.text, c.when
                ),
                _ => continue,
            };
            out.push(Difference {
                line: c.line,
                message,
            });
        }
    }
    if lesson.question_count() == 0 {
        out.push(Difference {
            line: 1,
            message: "the lesson asks no question: give a step a `?? QUESTION` and its choices"
                .to_string(),
        });
    }
    if lesson.learner_step_count() == 0 {
        out.push(Difference {
            line: 1,
            message: "the lesson has no step for the learner to perform: mark a command with `! `"
                .to_string(),
        });
    }
    out
}

fn with_newline(text: &str) -> String {
    if text.is_empty() || text.ends_with('\n') {
        text.to_string()
    } else {
        format!("{text}\n")
    }
}

/// The first difference between a block and an output: the block line
/// (1-based) it is reported at, and a message.
fn compare(expected: &str, got: &str) -> Option<(usize, String)> {
    if expected == got {
        return None;
    }
    let e: Vec<&str> = expected.split_terminator('\n').collect();
    let g: Vec<&str> = got.split_terminator('\n').collect();
    let k = e.iter().zip(&g).take_while(|(a, b)| a == b).count();
    let found = match (e.get(k), g.get(k)) {
        (Some(want), Some(have)) => (
            k + 1,
            format!("output differs: expected `{want}`, got `{have}`"),
        ),
        (Some(want), None) if g.is_empty() => (
            k + 1,
            format!("the command printed nothing, expected `{want}`"),
        ),
        (Some(want), None) => (
            k + 1,
            format!("the output ends early: expected `{want}`, got no more lines"),
        ),
        (None, Some(have)) => {
            let more = g.len() - k - 1;
            let tail = match more {
                0 => String::new(),
                n => format!(" and {}", count(n, "more line")),
            };
            (
                e.len().max(1),
                format!("the output goes on past its block: `{have}`{tail}"),
            )
        }
        (None, None) => (e.len().max(1), "output differs".to_string()),
    };
    Some(found)
}

/// The lesson's commands as a script for the runner: the boot script first when
/// the lesson starts with a cluster, then each command on one line with its
/// prompt. `runner::transcript` of it, with the lesson's seed, prints the boot
/// script's echoes and then every step's [`StepResult::transcript`].
pub fn script(lesson: &Lesson) -> String {
    let mut out = String::new();
    if lesson.start == Start::Cluster {
        out.push_str(CLUSTER_SCRIPT);
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    for c in lesson.steps.iter().flat_map(|s| &s.commands) {
        match &c.command.prompt {
            Prompt::Host(h) => out.push_str(&format!("{h}$ {}\n", c.command.text)),
            Prompt::Current => out.push_str(&format!("$ {}\n", c.command.text)),
        }
    }
    out
}

/// `src` with every command's `| ` block replaced by (or, where it has none,
/// given) what the command printed; a command that prints nothing loses its
/// block. Everything else stays byte for byte. `lesson` must be parsed from
/// `src`.
pub fn update(src: &str, lesson: &Lesson) -> String {
    update_with(src, lesson, &run(lesson))
}

/// [`update`] with the results of a run ([`run`]) of `lesson`.
pub fn update_with(src: &str, lesson: &Lesson, results: &[StepResult]) -> String {
    // last line of a command -> (lines of its old block, its new block)
    let mut blocks: BTreeMap<usize, (usize, Option<String>)> = BTreeMap::new();
    for (step, result) in lesson.steps.iter().zip(results) {
        for (c, r) in step.commands.iter().zip(&result.commands) {
            let old = c.expected.as_ref().map_or(0, |e| e.matches('\n').count());
            blocks.insert(c.last_line, (old, r.block()));
        }
    }
    let eol = if src.contains("\r\n") { "\r\n" } else { "\n" };
    let mut out = String::with_capacity(src.len());
    let mut skip = 0;
    for (index, piece) in src.split_inclusive('\n').enumerate() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        out.push_str(piece);
        let Some((old, new)) = blocks.get(&(index + 1)) else {
            continue;
        };
        if let Some(new) = new {
            if !piece.ends_with('\n') {
                out.push_str(eol);
            }
            for line in new.split_terminator('\n') {
                out.push('|');
                if !line.is_empty() {
                    out.push(' ');
                    out.push_str(line);
                }
                out.push_str(eol);
            }
        }
        skip = *old;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson(src: &str) -> Lesson {
        match parse("t", src) {
            Ok(l) => l,
            Err(e) => panic!("{e}"),
        }
    }

    fn error(src: &str) -> (usize, String) {
        match parse("t", src) {
            Ok(l) => panic!("parsed: {l:?}"),
            Err(e) => (e.line, e.message),
        }
    }

    #[test]
    fn a_step_with_commands_blocks_checks_and_narration() {
        let l = lesson(
            "title: T\nseed: 7\nstart: cluster\nsource: s.txt\n# note\n\n\
             ## One\n\nSay *this*.\n\n$ echo a \\\n  b\n| a b\n|\n? quorum ok\nMore.\nnode01$ sleep 1\n\n",
        );
        assert_eq!(l.title, "T");
        assert_eq!((l.seed, l.start), (7, Start::Cluster));
        assert_eq!(l.source.as_deref(), Some("s.txt"));
        let s = &l.steps[0];
        assert_eq!((s.title.as_str(), s.line), ("One", 7));
        assert_eq!(s.narration, "Say *this*.\n\nMore.");
        assert_eq!(s.commands.len(), 2);
        let c = &s.commands[0];
        assert_eq!((c.line, c.last_line), (11, 12));
        assert_eq!(c.command.text, "echo a b");
        assert_eq!(c.expected.as_deref(), Some("a b\n\n"));
        assert_eq!(s.commands[1].command.prompt, Prompt::Host("node01".into()));
        assert_eq!(s.commands[1].expected, None);
        assert_eq!(s.checks, vec![Check::Quorum { ok: true, line: 15 }]);
    }

    #[test]
    fn checks_parse_and_display_as_written() {
        for text in [
            "quorum ok",
            "quorum lost",
            "leader node01",
            "no leader",
            "node03 is learner",
            "node03 is running",
            "member node03 is unstarted",
            "member infra1 is absent",
            "node03 at term 2",
        ] {
            let check = parse_check(text, 4).map_err(|e| e.1);
            assert_eq!(
                check.map(|c| (c.to_string(), c.line())),
                Ok((text.into(), 4))
            );
        }
        assert!(parse_check("node03 is happy", 1).is_err());
        assert!(parse_check("member node03 is leader", 1).is_err());
        assert!(parse_check("everything fine", 1).is_err());
        assert!(parse_check("node03 at term two", 1).is_err());
        assert!(parse_check("node03 at term -1", 1).is_err());
    }

    #[test]
    fn prompts_are_found_in_the_first_column_only() {
        assert!(has_prompt("$ ls"));
        assert!(has_prompt("node01$ ls"));
        assert!(has_prompt("(Node01)$ ls"));
        assert!(has_prompt("(etcd Container)$ ls"));
        assert!(has_prompt("node01$"));
        assert!(!has_prompt("  $ ls"));
        assert!(!has_prompt("Run this: ls"));
        assert!(!has_prompt("(an aside)"));
        assert!(!has_prompt("echo $HOME"));
        assert!(!has_prompt(""));
    }

    #[test]
    fn mistakes_name_their_line() {
        let cases: [(&str, usize, &str); 9] = [
            ("title: T\ncolour: red\n## S\n", 2, "unknown header key"),
            ("title: T\n$ ls\n## S\n", 2, "before the first step"),
            ("title: T\n## S\n| x\n", 3, "no command before it"),
            (
                "title: T\n## S\n$ ls\n\n| x\n",
                5,
                "right under its command",
            ),
            ("title: T\n## S\n? all good\n", 3, "unknown check"),
            (
                "title: T\n## S\n\n$ etcdctll get k\n",
                4,
                "unknown command `etcdctll`",
            ),
            ("title: T\n## S\n$ echo \\\n", 3, "line continuation"),
            ("title: T\n## S\n$ echo \\\n## U\n", 4, "next step's title"),
            ("title: T\n## S\n$ echo 'a\n", 3, "unterminated quote"),
        ];
        for (src, line, text) in cases {
            let (l, m) = error(src);
            assert_eq!(l, line, "{src:?}: {m}");
            assert!(m.contains(text), "{src:?}: {m}");
        }
        assert_eq!(error("## S\n$ ls\n").0, 1);
        assert!(error("## S\n$ ls\n").1.contains("no title"));
        assert!(error("title: T\n\n").1.contains("no step"));
    }

    #[test]
    fn assignments_exports_and_variables_are_commands() {
        let l = lesson(
            "title: T\n## S\n$ ETCDCTL_API=3 etcdctl member list\n$ export A=b\n$ A=1\n$ $CMD x\n",
        );
        assert_eq!(l.command_count(), 4);
    }

    #[test]
    fn compare_reports_the_first_difference() {
        assert_eq!(compare("a\nb\n", "a\nb\n"), None);
        assert_eq!(compare("a\nb\n", "a\nc\n").map(|d| d.0), Some(2));
        assert_eq!(compare("a\nb\n", "a\n").map(|d| d.0), Some(2));
        assert_eq!(compare("a\n", "a\nb\nc\n").map(|d| d.0), Some(1));
        assert!(compare("a\n", "a\nb\nc\n").is_some_and(|d| d.1.contains("1 more line")));
        assert!(compare("a\n", "").is_some_and(|d| d.1.contains("printed nothing")));
    }

    #[test]
    fn update_keeps_every_other_byte() {
        let src = "title: T\r\n## S\r\n$ echo hi\r\n| old\r\n| older\r\nText\r\n$ echo new\r\n$ true\r\n| gone";
        let l = lesson(src);
        let new = update(src, &l);
        assert_eq!(
            new,
            "title: T\r\n## S\r\n$ echo hi\r\n| hi\r\nText\r\n$ echo new\r\n| new\r\n$ true\r\n"
        );
        assert_eq!(update(&new, &lesson(&new)), new);
    }
}
