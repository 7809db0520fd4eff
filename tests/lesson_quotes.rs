#![cfg(not(target_arch = "wasm32"))]
//! What each etcd document (`../shared/seeds/000_*.txt` … `004_*.txt`) quotes
//! or claims, checked against the run of its lesson (`static/lessons/`).
//!
//! The data is in `tests/lesson_quotes/LESSON.quotes`, one file per document
//! (not beside the lessons: Trunk ships all of `static/`); this file is the
//! runner. [`every_document_holds_in_its_lesson_run`] reads every file, plays
//! its lesson step by step and checks each quote and claim. Adding a document
//! is adding a file; so is checking a document on another etcd (see below).
//!
//! # The `.quotes` format
//!
//! ```text
//! doc: 000                                 the document's number (../shared/seeds/000_*.txt)
//! lesson: 000-server-addition-deletion     its lesson (static/lessons/NAME.lesson)
//! etcd: 3.5                                optional: play it on this etcd (else the lesson's `etcd:`)
//! id: 4c0878749a891a5f 1                   a runtime member ID of the document: the run's 1st `member add`
//! reason TERM_62: the lesson's node01 …    a reason named once, used by `because TERM_62`
//!
//! ## output 2-2                            a block: the output of the commands of steps 2..=2,
//! ## log node01 1-4                        or node01's server log written during steps 1..=4,
//! ## exit node03 2                         or node03's exit status after step 2 (`exit N`)
//! 41: Member 4c0878749a891a5f added …      a quoted line: its line in the document and its text
//! 43: ETCD-NAME="node02"
//!   = ETCD_NAME="node02"                   what the run's etcd prints instead (`~ TEXT`: a part of a line);
//!   because ENV_UNDERSCORES                why (`because: TEXT` when not a named reason)
//!   cut: the document cut the line short   matched as a part of a line
//!   any order                              a table row whose order depends on runtime IDs
//!   unmatched: why                         the run cannot print it: checked absent
//!
//! claim 7: If the leader still maintains   a claim: the document's line and words of it
//!   says: figure 2: a follower cut off …   what it says
//!   after 2: leader node01                 evidence, all of which must hold (see below)
//!
//! unchecked 38: Make learner state only    a claim not checked, and
//!   why: proposed for future releases      why
//! ```
//!
//! Blank lines and lines starting with `#` (but not `## `) are comments. Steps are the lesson's
//! `## N.` steps, 1-based.
//!
//! # Quotes (000, 002, 004)
//!
//! Each quoted line must appear where its block says, in the document's order.
//! Both sides are normalised, and only for:
//!
//! * time stamps (capnslog's, raft's, zap's JSON `ts`), clientv3's client
//!   UUIDs (3.5's client: its address in memory, `etcd-endpoints://0x…/`),
//!   raft's request IDs and ephemeral ports;
//! * member IDs assigned at runtime by `member add` (etcd hashes them from the
//!   time): the document's are listed with `id:`, the run's are taken from its
//!   `Member X added` lines, and both become `<added#N>`, in hex and in
//!   decimal; `voters=(…)` lists are sorted again afterwards.
//!
//! "In order" is per source, as in `tests/log_excerpts.rs`: lines that etcd's
//! goroutines write independently (the prober, the version monitor, each
//! rafthttp stream, raft's election timer, the start-up goroutines) keep their
//! order within their source, not against each other. All output lines of a
//! block are one source, except `any order` rows (an `endpoint status
//! --cluster` table: etcd lists members by ID, and the document's members had
//! other runtime IDs). Blocks are checked each where the lesson plays it, not
//! against each other: 002's examples are independent, and its lesson plays
//! them in another order.
//!
//! Where etcd 3.4.23 (or the lesson's run, for election terms that depend on
//! random timeouts) prints something else than the document, the quote is
//! paired with the real line(s), taken from the real transcripts
//! (`../shared/reference/transcripts/`) or the lesson's expected blocks, with
//! the reason; the real line is checked instead, and a failure names both.
//!
//! # One document, two etcds
//!
//! A file with `etcd: 3.5` plays its lesson with every machine on etcd 3.5.1
//! (the lesson's `etcd:` header overridden, the lesson file unchanged), so a
//! document written on etcd 3.5 (004: zap JSON logs) is checked against 3.5's
//! run as well: `004-clustering-step-by-step.quotes` holds 004's quotes for
//! the lesson's own etcd (3.4.23), `004-clustering-step-by-step.3.5.quotes`
//! for 3.5.1, each with its own real lines and reasons. A whole file per etcd
//! rather than a version on each block: a file is one run, its reasons speak
//! of one etcd, and every quote of the document is checked on both. The
//! paired lines of a 3.5 file come from real 3.5.1
//! (`tests/reference-run-b/3.5/`). JSON lines are compared whole, apart from
//! `"ts"` and the client's address (see above). The sources above are told
//! apart by capnslog's text: a 3.5 run's zap lines are all one source, so a
//! 3.5 file quotes one log line per block.
//!
//! # Claims (001, 003, and one of 004)
//!
//! A document that quotes no output makes claims (who leads, whether writes
//! commit, which error a client sees, what a learner refuses), each checked on
//! the lesson's run by its evidence lines:
//!
//! | evidence | holds when |
//! |---|---|
//! | `after N: CHECK` | the lesson check (`leader node01`, `quorum lost`, `node02 is learner`, `member node03 is absent`, …) holds after step N |
//! | `not after N: CHECK` | it does not |
//! | ``prints N `NEEDLE` LINE`` | the first command of step N whose echo contains NEEDLE printed the whole line LINE (``…`NEEDLE`#K`` the Kth such command) |
//! | ``prints-part N `NEEDLE` TEXT`` | its output contains TEXT |
//! | ``prints-nothing N `NEEDLE` `` | it printed nothing |
//! | `sizes N: V voters, L learners, quorum Q` | the quorum analysis after step N (`sim::quorum::analyze`) |
//! | ``logged N MACHINE `A` `B` …`` | MACHINE logged lines containing A, B, … in that order during step N |
//! | ``never-logged N-M MACHINE `TEXT` `` | MACHINE logged no line containing TEXT during steps N to M |
//! | `same-applied N MACHINE OTHER` | both run etcd after step N and applied the same index |
//! | `only-election N: TEXT` | step N's logs hold one `became leader` line, ending in TEXT |
//! | `leader-term N: T` | after step N the leader's term is T |
//! | `both-sides-campaign N: A B \| C D` | in step N, after the leader stepped down, a member of each side became candidate |
//!
//! `cargo test --profile release-test --test lesson_quotes -- --nocapture`
//! prints what was checked. The document's line numbers and words are verified
//! against `../shared/seeds/` (or `QP_SEEDS`); without it the test fails.
mod common;
use common::{added_ids, re};
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use quorum_playground::lessons::{self, Check, CommandResult, Lesson};
use quorum_playground::sim::etcd::version::EtcdVersion;
use quorum_playground::sim::quorum::{self, QuorumInfo};
use quorum_playground::sim::view::WorldView;
use quorum_playground::sim::world::LogLine;

/// Where the data lives.
const DIR: &str = "tests/lesson_quotes";

/// How many files `tests/lesson_quotes/` holds today (documents 000 to 004,
/// and 004 again on etcd 3.5): the runner fails on fewer, so a lost directory
/// cannot pass unnoticed.
const FILES: usize = 6;

/// How many quoted lines the files hold today, all checked (matched, or
/// checked absent when unmatched): the runner fails on fewer.
const QUOTES: usize = 230;

// =================================================================================
// Running a lesson
// =================================================================================

/// One step of a lesson's run.
struct StepRun {
    title: String,
    commands: Vec<CommandResult>,
    /// The server log lines (indices into `Played::logs`) written during the step.
    logs: Range<usize>,
    /// The world after the step.
    view: WorldView,
}

/// A lesson played step by step from its header's world.
struct Played {
    doc: String,
    /// The etcd its machines ran.
    etcd: EtcdVersion,
    steps: Vec<StepRun>,
    logs: Vec<LogLine>,
    /// The runtime member IDs of the run, in the order of its `member add`s.
    added: Vec<u64>,
}

/// Plays `lesson_name` from its header's world, on `etcd` when given (else
/// on the lesson's own `etcd:`).
fn play(doc: &str, lesson_name: &str, etcd: Option<EtcdVersion>) -> Played {
    let path = format!("static/lessons/{lesson_name}.lesson");
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lesson: Lesson = lessons::parse(lesson_name, &src).unwrap_or_else(|e| panic!("{e}"));
    if let Some(etcd) = etcd {
        lesson.etcd = etcd;
    }
    let mut session = lessons::boot_session(&lesson);
    let mut steps = Vec::new();
    for step in &lesson.steps {
        let from = session.world.logs().len();
        let result = lessons::run_step(&mut session, step);
        steps.push(StepRun {
            title: step.title.clone(),
            commands: result.commands,
            logs: from..session.world.logs().len(),
            view: session.world.view(),
        });
    }
    // the lesson's own machines (its first step's) run the release it was
    // played on; a later step may switch some on purpose (001's 3.5 steps)
    let machines = steps
        .first()
        .map(|s| s.view.machines.as_slice())
        .unwrap_or_default();
    assert!(
        !machines.is_empty(),
        "{doc}: the lesson's first step adds no machine"
    );
    if let Some(m) = machines.iter().find(|m| m.etcd != lesson.etcd) {
        panic!(
            "{doc}: {} runs etcd {}, not the {} the lesson was played on",
            m.name,
            m.etcd.release(),
            lesson.etcd.release()
        );
    }
    let all_output: String = steps
        .iter()
        .flat_map(|s| &s.commands)
        .map(|c| c.got.as_str())
        .collect();
    Played {
        doc: doc.to_string(),
        etcd: lesson.etcd,
        added: added_ids(&all_output),
        steps,
        logs: session.world.logs().to_vec(),
    }
}

impl Played {
    fn step(&self, n: usize) -> &StepRun {
        self.steps
            .get(n - 1)
            .unwrap_or_else(|| panic!("{}: the lesson has no step {n}", self.doc))
    }

    /// Output lines of steps `from..=to`, each with where it was printed.
    fn output_lines(&self, from: usize, to: usize) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for n in from..=to {
            for c in &self.step(n).commands {
                let echo = c.echo.trim_end();
                for l in c.got.lines() {
                    out.push((l.to_string(), format!("step {n}, `{echo}`")));
                }
            }
        }
        out
    }

    /// `machine`'s log lines written during steps `from..=to`.
    fn log_lines(&self, machine: &str, from: usize, to: usize) -> Vec<(String, String)> {
        let range = self.step(from).logs.start..self.step(to).logs.end;
        self.logs[range]
            .iter()
            .filter(|l| l.machine == machine)
            .flat_map(|l| l.text.lines())
            .map(|t| (t.to_string(), format!("{machine}'s log, steps {from}–{to}")))
            .collect()
    }

    /// The `<added#N>` placeholders of the run's runtime IDs.
    fn placeholders(&self) -> Vec<(u64, String)> {
        self.added
            .iter()
            .enumerate()
            .map(|(i, &id)| (id, format!("<added#{}>", i + 1)))
            .collect()
    }
}

// =================================================================================
// Normalising
// =================================================================================

/// Time stamps, client UUIDs (3.5: client addresses), request IDs, ephemeral ports and the runtime IDs
/// in `ids` (real → placeholder) made neutral; ID lists sorted again.
fn normalise(line: &str, ids: &[(u64, String)]) -> String {
    let mut s = line.trim_end().to_string();
    s = re(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6} ")
        .replace(&s, "")
        .into_owned();
    s = re(r"^raft\d{4}/\d\d/\d\d \d\d:\d\d:\d\d ")
        .replace(&s, "raft ")
        .into_owned();
    s = re(r#""ts":"[^"]*""#)
        .replace_all(&s, r#""ts":"<ts>""#)
        .into_owned();
    s = re(r#""ts":[0-9.]+"#)
        .replace_all(&s, r#""ts":<ts>"#)
        .into_owned();
    s = re(r"client-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
        .replace_all(&s, "client-<uuid>")
        .into_owned();
    s = re(r"etcd-endpoints://0x[0-9a-f]+/")
        .replace_all(&s, "etcd-endpoints://<ptr>/")
        .into_owned();
    s = re(r":\d+->").replace_all(&s, ":<port>->").into_owned();
    s = re(r"sent-request-id: \d+")
        .replace_all(&s, "sent-request-id: <REQ>")
        .into_owned();
    for (id, name) in ids {
        s = s.replace(&format!("{id:x}"), name);
        s = s.replace(&id.to_string(), name);
    }
    re(r"(voters|learners)=\(([^)]*)\)")
        .replace_all(&s, |c: &regex::Captures| {
            let mut v: Vec<&str> = c[2].split(' ').filter(|x| !x.is_empty()).collect();
            v.sort_unstable();
            format!("{}=({})", &c[1], v.join(" "))
        })
        .into_owned()
}

// =================================================================================
// Sources: what may interleave by timing
// =================================================================================

/// raft's election lines (its node loop, apart from the apply loop).
const ELECTION: &str = r"^raft (INFO|WARN): (raft\.node: )?\S+ (is starting a new election|became (candidate|pre-candidate|leader|follower)|received Msg(Pre)?VoteResp|has received|\[logterm|\[term|elected leader|lost leader|changed leader|stepped down)";

/// etcd's goroutines whose lines interleave by timing, not by cause (as in
/// `tests/log_excerpts.rs`, plus `serve`: embed's client listeners log once the
/// server is ready, racing the publish and the apply loop).
const SOURCES: &[(&str, &str)] = &[
    ("prober", r"rafthttp: health check for peer"),
    (
        "version monitor",
        r"failed to reach the peerURL|cannot get the version of member",
    ),
    (
        "requests",
        r"Reject \w+ member request|not enough started members|not healthy for reconfigure|reconfigure breaks active quorum",
    ),
    ("purge", r"pkg/fileutil: started to purge"),
    ("adjustTicks", r"fast-forwarding \d+ ticks"),
    ("peer listener", r"embed: listening for peers"),
    ("cluster version", r"setting up the initial cluster version"),
    (
        "serve",
        r"embed: (ready to serve client requests|serving insecure client requests)",
    ),
    (
        "publish",
        r"etcdserver: (published \{|publish error|aborting publish)",
    ),
    (
        "removal",
        r"etcdserver: (the member has been permanently removed from the cluster|the data-dir used by this member must be removed)",
    ),
];

/// The source of a (normalised) log line: one rafthttp stream, the peer
/// status, the stream handler, raft's elections, one of [`SOURCES`], or `main`.
fn source_of(line: &str) -> String {
    let named = re(
        r"rafthttp: (?:lost|established|closed) (?:the|a|an existing) TCP streaming connection with peer (\S+) \((stream \S+(?: v2)?) (reader|writer)\)",
    );
    if let Some(c) = named.captures(line) {
        return format!("stream {} {} {}", &c[1], &c[2], &c[3]);
    }
    let failed = re(r"rafthttp: failed to (dial|read|write) (\S+) on (stream \S+(?: v2)?)");
    if let Some(c) = failed.captures(line) {
        let end = if &c[1] == "write" { "writer" } else { "reader" };
        return format!("stream {} {} {end}", &c[2], &c[3]);
    }
    let started = re(
        r"rafthttp: (?:started|stopped) streaming with peer (\S+) \((stream \S+(?: v2)? )?(reader|writer)\)",
    );
    if let Some(c) = started.captures(line) {
        let kind = c.get(2).map(|m| m.as_str().trim()).unwrap_or("");
        return format!("stream {} {kind} {}", &c[1], &c[3]);
    }
    if let Some(c) = re(r"rafthttp: peer (\S+) became (?:in)?active").captures(line) {
        return format!("status {}", &c[1]);
    }
    if re(r"rafthttp: (rejected the stream|request sent was ignored|request cluster ID mismatch)")
        .is_match(line)
    {
        return "stream handler".to_string();
    }
    if re(ELECTION).is_match(line) {
        return "raft elections".to_string();
    }
    SOURCES
        .iter()
        .find(|(_, pat)| re(pat).is_match(line))
        .map(|(name, _)| name.to_string())
        .unwrap_or_else(|| "main".to_string())
}

// =================================================================================
// The data: `tests/lesson_quotes/*.quotes`
// =================================================================================

/// Where the lesson plays a quoted block (steps are the lesson's `## N.`, 1-based).
#[derive(Clone, Debug)]
enum At {
    /// `## output FROM-TO`: the output of the commands of steps FROM..=TO.
    Out(usize, usize),
    /// `## log MACHINE FROM-TO`: MACHINE's server log, the lines written during steps FROM..=TO.
    Log(String, usize, usize),
    /// `## exit MACHINE N`: MACHINE's exit status after step N, as `exit STATUS`.
    Exit(String, usize),
}

/// What to look for: a whole line (`= `), or a part of one (`~ `).
#[derive(Clone, Debug)]
enum T {
    L(String),
    P(String),
}

/// One line a document quotes, and how to read it.
struct Quote {
    /// Its line in the document.
    line: usize,
    /// The line as the document prints it.
    text: String,
    /// What the run's etcd prints instead, in order (empty: the quote itself).
    real: Vec<T>,
    /// Why the real line differs.
    why: String,
    /// The document cut the line short (matched as a part of a line): why.
    cut: Option<String>,
    /// A table row whose order depends on runtime member IDs.
    any_order: bool,
    /// The lesson's run cannot print it: why (checked absent).
    unmatched: Option<String>,
}

/// One quoted run of lines and where the lesson plays it.
struct Block {
    at: At,
    quotes: Vec<Quote>,
}

/// One piece of evidence for a claim (the table in the module docs).
enum Evidence {
    After {
        step: usize,
        check: Check,
        holds: bool,
    },
    Prints {
        step: usize,
        needle: String,
        nth: usize,
        line: String,
    },
    PrintsPart {
        step: usize,
        needle: String,
        text: String,
    },
    PrintsNothing {
        step: usize,
        needle: String,
    },
    Sizes {
        step: usize,
        voters: usize,
        learners: usize,
        quorum: usize,
    },
    Logged {
        step: usize,
        machine: String,
        needles: Vec<String>,
    },
    NeverLogged {
        from: usize,
        to: usize,
        machine: String,
        needle: String,
    },
    SameApplied {
        step: usize,
        machine: String,
        other: String,
    },
    OnlyElection {
        step: usize,
        text: String,
    },
    LeaderTerm {
        step: usize,
        term: u64,
    },
    BothSidesCampaign {
        step: usize,
        sides: [Vec<String>; 2],
    },
}

/// A claim of a document (`claim LINE: WORDS`), or one not checked (`unchecked`).
struct Claim {
    line: usize,
    /// Words of the document's line, to show the line number is right.
    quote: String,
    says: String,
    evidence: Vec<Evidence>,
    /// For `unchecked`: why it is not checked.
    unchecked: Option<String>,
}

/// One `.quotes` file.
struct Document {
    path: PathBuf,
    doc: String,
    lesson: String,
    /// `etcd:`: the etcd to play the lesson on (None: the lesson's own).
    etcd: Option<EtcdVersion>,
    /// The document's runtime member IDs, each with the run's `member add` (1-based).
    ids: Vec<(u64, usize)>,
    blocks: Vec<Block>,
    claims: Vec<Claim>,
}

/// `N-M` or `N` as a range of steps.
fn steps(s: &str) -> Option<(usize, usize)> {
    match s.split_once('-') {
        Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
        None => s.parse().ok().map(|n| (n, n)),
    }
}

/// A lesson check (`leader node01`, `quorum ok`, …), read by the lesson parser.
fn lesson_check(text: &str) -> Option<Check> {
    let lesson = lessons::parse("check", &format!("title: t\n## s\n? {text}\n")).ok()?;
    lesson.steps.first()?.checks.first().cloned()
}

/// The `` `…` `` words of `s`.
fn backticked(s: &str) -> Vec<String> {
    re(r"`([^`]*)`")
        .captures_iter(s)
        .map(|c| c[1].to_string())
        .collect()
}

/// One evidence line (without its indent), or None when it is not one.
fn evidence(s: &str) -> Option<Evidence> {
    let num = |x: &str| x.parse::<usize>().ok();
    if let Some(c) = re(r"^(not )?after (\d+): (.+)$").captures(s) {
        return Some(Evidence::After {
            step: num(&c[2])?,
            check: lesson_check(&c[3])?,
            holds: c.get(1).is_none(),
        });
    }
    if let Some(c) = re(r"^prints (\d+) `([^`]*)`(?:#(\d+))? (.*)$").captures(s) {
        let nth = c.get(3).map_or(Some(1), |k| num(k.as_str()))?;
        return Some(Evidence::Prints {
            step: num(&c[1])?,
            needle: c[2].to_string(),
            nth: nth.checked_sub(1)?,
            line: c[4].to_string(),
        });
    }
    if let Some(c) = re(r"^prints-part (\d+) `([^`]*)` (.*)$").captures(s) {
        return Some(Evidence::PrintsPart {
            step: num(&c[1])?,
            needle: c[2].to_string(),
            text: c[3].to_string(),
        });
    }
    if let Some(c) = re(r"^prints-nothing (\d+) `([^`]*)`$").captures(s) {
        return Some(Evidence::PrintsNothing {
            step: num(&c[1])?,
            needle: c[2].to_string(),
        });
    }
    if let Some(c) = re(r"^sizes (\d+): (\d+) voters, (\d+) learners, quorum (\d+)$").captures(s) {
        return Some(Evidence::Sizes {
            step: num(&c[1])?,
            voters: num(&c[2])?,
            learners: num(&c[3])?,
            quorum: num(&c[4])?,
        });
    }
    if let Some(c) = re(r"^logged (\d+) (\S+) (`.*`)$").captures(s) {
        return Some(Evidence::Logged {
            step: num(&c[1])?,
            machine: c[2].to_string(),
            needles: backticked(&c[3]),
        });
    }
    if let Some(c) = re(r"^never-logged (\S+) (\S+) `([^`]*)`$").captures(s) {
        let (from, to) = steps(&c[1])?;
        return Some(Evidence::NeverLogged {
            from,
            to,
            machine: c[2].to_string(),
            needle: c[3].to_string(),
        });
    }
    if let Some(c) = re(r"^same-applied (\d+) (\S+) (\S+)$").captures(s) {
        return Some(Evidence::SameApplied {
            step: num(&c[1])?,
            machine: c[2].to_string(),
            other: c[3].to_string(),
        });
    }
    if let Some(c) = re(r"^only-election (\d+): (.+)$").captures(s) {
        return Some(Evidence::OnlyElection {
            step: num(&c[1])?,
            text: c[2].to_string(),
        });
    }
    if let Some(c) = re(r"^leader-term (\d+): (\d+)$").captures(s) {
        return Some(Evidence::LeaderTerm {
            step: num(&c[1])?,
            term: c[2].parse().ok()?,
        });
    }
    if let Some(c) = re(r"^both-sides-campaign (\d+): ([^|]+)\|(.+)$").captures(s) {
        let side = |x: &str| x.split_whitespace().map(str::to_string).collect();
        return Some(Evidence::BothSidesCampaign {
            step: num(&c[1])?,
            sides: [side(&c[2]), side(&c[3])],
        });
    }
    None
}

/// Reads a `.quotes` file; a line it cannot read fails with `FILE:LINE:`.
fn load(path: &Path) -> Document {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = Reader {
        d: Document {
            path: path.to_path_buf(),
            doc: String::new(),
            lesson: String::new(),
            etcd: None,
            ids: Vec::new(),
            blocks: Vec::new(),
            claims: Vec::new(),
        },
        reasons: HashMap::new(),
        in_claim: false,
    };
    for (i, raw) in text.lines().enumerate() {
        if let Err(e) = reader.line(raw) {
            panic!("{}:{}: {e}: `{raw}`", path.display(), i + 1);
        }
    }
    let d = reader.d;
    assert!(
        !d.doc.is_empty() && !d.lesson.is_empty(),
        "{}: no `doc:` or `lesson:`",
        path.display()
    );
    for q in d.blocks.iter().flat_map(|b| &b.quotes) {
        assert!(
            q.real.is_empty() == q.why.is_empty(),
            "{}: line {}: a real line goes with its reason (`because`)",
            path.display(),
            q.line
        );
    }
    for c in &d.claims {
        let ok = match &c.unchecked {
            Some(why) => !why.is_empty() && c.evidence.is_empty(),
            None => !c.says.is_empty() && !c.evidence.is_empty(),
        };
        assert!(
            ok,
            "{}: claim of line {}: a claim says what and gives evidence; an unchecked one says why",
            path.display(),
            c.line
        );
    }
    d
}

/// The state of reading a `.quotes` file line by line.
struct Reader {
    d: Document,
    /// `reason NAME: TEXT` lines so far.
    reasons: HashMap<String, String>,
    /// Whether indented lines belong to the last claim (else to the last quote).
    in_claim: bool,
}

impl Reader {
    fn line(&mut self, raw: &str) -> Result<(), String> {
        let trimmed = raw.trim_start();
        let comment = trimmed.starts_with('#') && !raw.starts_with("## ");
        if trimmed.is_empty() || comment {
            return Ok(());
        }
        match raw.strip_prefix("  ") {
            Some(rest) if self.in_claim => self.claim_line(rest),
            Some(rest) => self.quote_line(rest),
            None => self.top_line(raw),
        }
    }

    /// A line in the first column: the header, a block, a quote or a claim.
    fn top_line(&mut self, raw: &str) -> Result<(), String> {
        let d = &mut self.d;
        let words: Vec<&str> = raw.split_whitespace().collect();
        let number = |s: &str| s.parse::<usize>().map_err(|_| "a bad number".to_string());
        if let Some(v) = raw.strip_prefix("doc: ") {
            d.doc = v.to_string();
        } else if let Some(v) = raw.strip_prefix("lesson: ") {
            d.lesson = v.to_string();
        } else if let Some(v) = raw.strip_prefix("etcd: ") {
            d.etcd = Some(EtcdVersion::from_name(v).ok_or("etcd must be 3.4 or 3.5")?);
        } else if let ["id:", hex, n] = words[..] {
            let id = u64::from_str_radix(hex, 16).map_err(|_| "a bad ID")?;
            d.ids.push((id, number(n)?));
        } else if let Some((name, text)) =
            raw.strip_prefix("reason ").and_then(|r| r.split_once(": "))
        {
            self.reasons.insert(name.to_string(), text.to_string());
        } else if raw.starts_with("## ") {
            self.in_claim = false;
            let at = match words[1..] {
                ["output", s] => steps(s).map(|(a, b)| At::Out(a, b)),
                ["log", m, s] => steps(s).map(|(a, b)| At::Log(m.to_string(), a, b)),
                ["exit", m, n] => n.parse().ok().map(|n| At::Exit(m.to_string(), n)),
                _ => None,
            };
            let at =
                at.ok_or("expected `## output N-M`, `## log MACHINE N-M` or `## exit MACHINE N`")?;
            d.blocks.push(Block {
                at,
                quotes: Vec::new(),
            });
        } else if let Some(c) = re(r"^(claim|unchecked) (\d+): (.+)$").captures(raw) {
            self.in_claim = true;
            d.claims.push(Claim {
                line: number(&c[2])?,
                quote: c[3].to_string(),
                says: String::new(),
                evidence: Vec::new(),
                unchecked: (&c[1] == "unchecked").then(String::new),
            });
        } else if let Some(c) = re(r"^(\d+): (.*)$").captures(raw) {
            if self.in_claim {
                return Err("a quote after a claim: start a block first".to_string());
            }
            let block = d.blocks.last_mut().ok_or("a quote outside a block")?;
            block.quotes.push(Quote {
                line: number(&c[1])?,
                text: c[2].to_string(),
                real: Vec::new(),
                why: String::new(),
                cut: None,
                any_order: false,
                unmatched: None,
            });
        } else {
            return Err("not a line of the format".to_string());
        }
        Ok(())
    }

    /// An indented line under a quote: its real line(s), reason, cut, order, unmatched.
    fn quote_line(&mut self, rest: &str) -> Result<(), String> {
        let quote = self
            .d
            .blocks
            .last_mut()
            .and_then(|b| b.quotes.last_mut())
            .ok_or("an indented line under no quote or claim")?;
        // `because: TEXT` or `because NAME` (a `reason NAME:`)
        let reasons = &self.reasons;
        let reason = |r: &str| match r.strip_prefix(": ") {
            Some(text) => Ok(text.to_string()),
            None => reasons.get(r.trim()).cloned().ok_or("no such reason"),
        };
        if let Some(line) = rest.strip_prefix("= ") {
            quote.real.push(T::L(line.to_string()));
        } else if let Some(part) = rest.strip_prefix("~ ") {
            quote.real.push(T::P(part.to_string()));
        } else if let Some(r) = rest.strip_prefix("because") {
            quote.why = reason(r)?;
        } else if let Some(why) = rest.strip_prefix("cut: ") {
            quote.cut = Some(why.to_string());
        } else if rest == "any order" {
            quote.any_order = true;
        } else if let Some(r) = rest.strip_prefix("unmatched") {
            quote.unmatched = Some(reason(r)?);
        } else {
            return Err("not a modifier of a quote".to_string());
        }
        Ok(())
    }

    /// An indented line under a claim: what it says, a piece of evidence, or why not checked.
    fn claim_line(&mut self, rest: &str) -> Result<(), String> {
        let claim = self.d.claims.last_mut().ok_or("no claim")?;
        if let Some(says) = rest.strip_prefix("says: ") {
            claim.says = says.to_string();
        } else if let Some(why) = rest.strip_prefix("why: ") {
            claim.unchecked = Some(why.to_string());
        } else {
            claim
                .evidence
                .push(evidence(rest).ok_or("not a piece of evidence")?);
        }
        Ok(())
    }
}

/// The document's text, from `../shared/seeds/` (or `QP_SEEDS`): CI always has it.
fn document(prefix: &str) -> Vec<String> {
    let dir = std::env::var("QP_SEEDS").unwrap_or_else(|_| "../shared/seeds".to_string());
    let entry = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e} (the documents are needed)"))
        .filter_map(|e| e.ok())
        .find(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("{prefix}_"))
        })
        .unwrap_or_else(|| panic!("{dir}/{prefix}_*.txt not found"));
    let text = std::fs::read_to_string(entry.path()).unwrap_or_else(|e| panic!("{prefix}: {e}"));
    text.lines().map(str::to_string).collect()
}

/// Every quote is the document's line, and every claim's words are on its line.
fn verify_line_numbers(d: &Document) {
    let lines = document(&d.doc);
    let at = |l: usize| lines.get(l.wrapping_sub(1)).map_or("", String::as_str);
    for q in d.blocks.iter().flat_map(|b| &b.quotes) {
        assert_eq!(
            at(q.line),
            q.text,
            "{} line {}: the quote is not the document's line",
            d.doc,
            q.line
        );
    }
    for c in &d.claims {
        assert!(
            at(c.line).contains(&c.quote),
            "{} line {} does not say `{}`: it is `{}`",
            d.doc,
            c.line,
            c.quote,
            at(c.line)
        );
    }
}

// =================================================================================
// Checking quotes
// =================================================================================

fn describe(t: &T) -> String {
    match t {
        T::L(s) => format!("`{s}`"),
        T::P(s) => format!("a line containing `{s}`"),
    }
}

fn matches(want: &T, norm_want: &str, have: &str) -> bool {
    match want {
        T::L(_) => have == norm_want,
        T::P(_) => have.contains(norm_want),
    }
}
/// The run lines most like `want` (shared words), for failure messages.
fn nearest(want: &str, have: &[(String, String)], norm: &[String]) -> String {
    let words: std::collections::HashSet<&str> = want.split_whitespace().collect();
    let mut scored: Vec<(usize, usize)> = norm
        .iter()
        .enumerate()
        .map(|(i, h)| {
            (
                h.split_whitespace().filter(|w| words.contains(w)).count(),
                i,
            )
        })
        .filter(|(s, _)| *s > 0)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let shown: Vec<String> = scored
        .iter()
        .take(3)
        .map(|&(_, i)| format!("      #{} `{}`", i + 1, have[i].0))
        .collect();
    if shown.is_empty() {
        "      (nothing like it)".to_string()
    } else {
        shown.join("\n")
    }
}

/// What checking a document's quotes found.
struct QuoteReport {
    checked: usize,
    paired: usize,
    cut: usize,
    unmatched: usize,
    failures: Vec<String>,
}

/// The lines a block is searched in, and how to name that place.
fn lines_at(played: &Played, at: &At) -> (Vec<(String, String)>, String) {
    match at {
        At::Out(from, to) => (
            played.output_lines(*from, *to),
            format!("the output of lesson steps {from}–{to}"),
        ),
        At::Log(m, from, to) => (
            played.log_lines(m, *from, *to),
            format!("{m}'s server log during lesson steps {from}–{to}"),
        ),
        At::Exit(m, n) => {
            let view = &played.step(*n).view;
            let status = view
                .machines
                .iter()
                .find(|x| x.name == *m)
                .map(|x| match (&x.process, &x.last_exit) {
                    (Some(_), _) => "running".to_string(),
                    (None, Some(e)) => format!("exit {}", e.status),
                    (None, None) => "never started".to_string(),
                })
                .unwrap_or_else(|| "no such machine".to_string());
            (
                vec![(status, format!("{m} after step {n}"))],
                format!("{m}'s exit status after lesson step {n}"),
            )
        }
    }
}

fn check_quotes(d: &Document, played: &Played) -> QuoteReport {
    let run_ids = played.placeholders();
    let doc_ids: Vec<(u64, String)> = d
        .ids
        .iter()
        .map(|&(id, n)| (id, format!("<added#{n}>")))
        .collect();
    let mut report = QuoteReport {
        checked: 0,
        paired: 0,
        cut: 0,
        unmatched: 0,
        failures: Vec::new(),
    };
    let needed = d.ids.iter().map(|i| i.1).max().unwrap_or(0);
    if played.added.len() < needed {
        report.failures.push(format!(
            "{}: the lesson's run added {} members at runtime ({:x?}); the document's IDs need {needed}",
            d.doc,
            played.added.len(),
            played.added
        ));
        return report;
    }

    for b in &d.blocks {
        let (have, place) = lines_at(played, &b.at);
        let norm: Vec<String> = have.iter().map(|(l, _)| normalise(l, &run_ids)).collect();
        let is_log = matches!(b.at, At::Log(..));
        let source = |line: &str| {
            if is_log {
                source_of(line)
            } else {
                "output".to_string()
            }
        };
        let mut cursor: HashMap<String, usize> = HashMap::new();
        // source -> (document line, run index) of its last match
        let mut last: HashMap<String, (usize, usize)> = HashMap::new();
        // a run of unordered rows: (where they are searched from, past the last found)
        let mut free: Option<(usize, usize)> = None;
        for q in &b.quotes {
            let (line, text) = (q.line, q.text.as_str());
            if let Some(why) = &q.unmatched {
                report.unmatched += 1;
                let n = normalise(text, &doc_ids);
                if let Some(i) = norm.iter().position(|h| *h == n) {
                    report.failures.push(format!(
                        "{} line {line} `{text}` is listed as unmatched ({why}), but {place} prints it at #{}: match it instead",
                        d.doc,
                        i + 1
                    ));
                }
                continue;
            }
            report.checked += 1;
            let paired = !q.real.is_empty();
            let wants: Vec<T> = if paired {
                report.paired += 1;
                q.real.clone()
            } else if q.cut.is_some() {
                report.cut += 1;
                vec![T::P(text.to_string())]
            } else {
                vec![T::L(text.to_string())]
            };
            for want in &wants {
                let (T::L(raw) | T::P(raw)) = want;
                let ids = if paired { &run_ids } else { &doc_ids };
                let n = normalise(raw, ids);
                let src = source(&n);
                let start = if q.any_order {
                    let anchor = free.map_or_else(|| *cursor.get(&src).unwrap_or(&0), |f| f.0);
                    free.get_or_insert((anchor, anchor));
                    anchor
                } else {
                    if let Some((_, end)) = free.take() {
                        let c = cursor.entry(src.clone()).or_insert(0);
                        *c = (*c).max(end);
                    }
                    *cursor.get(&src).unwrap_or(&0)
                };
                let found = (start..norm.len()).find(|&i| matches(want, &n, &norm[i]));
                match found {
                    Some(i) => {
                        if q.any_order {
                            if let Some(f) = free.as_mut() {
                                f.1 = f.1.max(i + 1);
                            }
                        } else {
                            cursor.insert(src.clone(), i + 1);
                        }
                        last.insert(src, (line, i));
                    }
                    None => {
                        let instead = if paired {
                            format!(
                                "; etcd {} prints {} instead ({})",
                                played.etcd.release(),
                                describe(want),
                                q.why
                            )
                        } else {
                            String::new()
                        };
                        let earlier = (0..start).find(|&i| matches(want, &n, &norm[i]));
                        let after = match last.get(&src) {
                            Some((l, i)) => format!(
                                " after the match of document line {l} (#{} `{}`)",
                                i + 1,
                                have[*i].0
                            ),
                            None => String::new(),
                        };
                        let why = match earlier {
                            Some(i) => format!(
                                "it appears only earlier, at #{} ({}): out of order",
                                i + 1,
                                have[i].1
                            ),
                            None => format!(
                                "the run's closest lines there:\n{}",
                                nearest(&n, &have, &norm)
                            ),
                        };
                        report.failures.push(format!(
                            "{} line {line}: `{text}`{instead}\n    not found in {place}{after}: {why}",
                            d.doc
                        ));
                    }
                }
            }
        }
    }
    report
}

/// Checks a document's quotes; prints what was checked and returns how many
/// quotes were checked (matched, or checked absent) and the failures.
fn run_quotes(d: &Document, played: &Played) -> (usize, Vec<String>) {
    if d.blocks.is_empty() {
        return (0, Vec::new());
    }
    let r = check_quotes(d, played);
    println!(
        "{} ({} on etcd {}): {} quoted lines checked, {} paired with the line etcd {} prints instead, {} cut short by the document (matched as a part), {} unmatched",
        d.doc,
        d.lesson,
        played.etcd.release(),
        r.checked,
        r.paired,
        played.etcd.release(),
        r.cut,
        r.unmatched
    );
    for q in d.blocks.iter().flat_map(|b| &b.quotes) {
        if !q.real.is_empty() {
            let real: Vec<String> = q.real.iter().map(describe).collect();
            println!("  line {}: {} ({})", q.line, real.join(" + "), q.why);
        }
        if let Some(why) = &q.unmatched {
            println!("  line {} unmatched: {why}", q.line);
        }
    }
    (r.checked + r.unmatched, r.failures)
}

// =================================================================================
// Checking claims
// =================================================================================

impl Played {
    /// The `nth` (0-based) command of step `n` whose echo contains `needle`.
    fn nth_cmd(&self, n: usize, needle: &str, nth: usize) -> Result<&CommandResult, String> {
        self.step(n)
            .commands
            .iter()
            .filter(|c| c.echo.contains(needle))
            .nth(nth)
            .ok_or_else(|| {
                let all: Vec<&str> = self
                    .step(n)
                    .commands
                    .iter()
                    .map(|c| c.echo.trim_end())
                    .collect();
                format!(
                    "step {n} ({}) has no command `{needle}` (#{nth}); it runs {all:?}",
                    self.step(n).title
                )
            })
    }

    /// Every machine's log lines written during step `n`, as (machine, line).
    fn step_log(&self, n: usize) -> Vec<(&str, &str)> {
        self.logs[self.step(n).logs.clone()]
            .iter()
            .flat_map(|l| l.text.lines().map(move |t| (l.machine.as_str(), t)))
            .collect()
    }

    /// Step `n`'s command `needle` (its `nth` occurrence) printed the line `line`.
    fn prints_nth(&self, n: usize, needle: &str, nth: usize, line: &str) -> Result<String, String> {
        let c = self.nth_cmd(n, needle, nth)?;
        let echo = c.echo.trim_end();
        if c.got.lines().any(|l| l == line) {
            Ok(format!("step {n} `{echo}` printed `{line}`"))
        } else {
            let tail: Vec<&str> = c.got.lines().rev().take(3).collect();
            Err(format!(
                "step {n} `{echo}` did not print `{line}`; it ended with {:?}",
                tail.into_iter().rev().collect::<Vec<_>>()
            ))
        }
    }

    /// A lesson check, evaluated on the world after step `n`.
    fn holds(&self, n: usize, check: Check) -> Result<String, String> {
        lessons::evaluate(&self.step(n).view, &check)
            .map(|s| format!("after step {n}: {s}"))
            .map_err(|e| format!("after step {n}: {e}"))
    }

    fn quorum(&self, n: usize) -> QuorumInfo {
        quorum::analyze(&self.step(n).view)
    }

    /// The numbers of voters and learners and the quorum after step `n`.
    fn sizes(&self, n: usize, voters: usize, learners: usize, q: usize) -> Result<String, String> {
        let info = self.quorum(n);
        let got = (info.voters.len(), info.learners.len(), info.quorum);
        let text = format!(
            "after step {n}: {} voters, {} learners, quorum {} ({})",
            got.0,
            got.1,
            got.2,
            info.summary()
        );
        if got == (voters, learners, q) {
            Ok(text)
        } else {
            Err(format!(
                "{text}; expected {voters} voters, {learners} learners, quorum {q}"
            ))
        }
    }

    /// `machine` logged lines containing each of `needles`, in order, during step `n`.
    fn logged(&self, n: usize, machine: &str, needles: &[&str]) -> Result<String, String> {
        let lines = self.log_lines(machine, n, n);
        let mut at = 0;
        for needle in needles {
            match lines[at..].iter().position(|(l, _)| l.contains(needle)) {
                Some(i) => at += i + 1,
                None => {
                    return Err(format!(
                        "{machine}'s log in step {n} has no `{needle}` after {} of its {} lines",
                        at,
                        lines.len()
                    ))
                }
            }
        }
        Ok(format!("{machine} logged {needles:?} in step {n}"))
    }

    /// `machine` logged no line containing `needle` during steps `from..=to`.
    fn never_logged(
        &self,
        from: usize,
        to: usize,
        machine: &str,
        needle: &str,
    ) -> Result<String, String> {
        let lines = self.log_lines(machine, from, to);
        match lines.iter().find(|(l, _)| l.contains(needle)) {
            None => Ok(format!(
                "{machine} logged no `{needle}` in steps {from}–{to}"
            )),
            Some((l, _)) => Err(format!("{machine} logged `{l}` in steps {from}–{to}")),
        }
    }
}

/// All of `parts` hold: their evidence joined, or the first failure.
fn all(parts: Vec<Result<String, String>>) -> Result<String, String> {
    let mut ok = Vec::new();
    for p in parts {
        ok.push(p?);
    }
    Ok(ok.join("; "))
}

/// Not `r`: a check that must fail (what the run must not show).
fn not(r: Result<String, String>, what: &str) -> Result<String, String> {
    match r {
        Ok(s) => Err(format!("{what}, but {s}")),
        Err(s) => Ok(format!("not {what} ({s})")),
    }
}

/// Evaluates one piece of evidence on the run: Ok with what the run showed,
/// Err with what it showed instead.
fn weigh(r: &Played, e: &Evidence) -> Result<String, String> {
    match e {
        Evidence::After { step, check, holds } => {
            let result = r.holds(*step, check.clone());
            if *holds {
                result
            } else {
                not(result, &format!("`{check}` after step {step}"))
            }
        }
        Evidence::Prints {
            step,
            needle,
            nth,
            line,
        } => r.prints_nth(*step, needle, *nth, line),
        Evidence::PrintsPart { step, needle, text } => {
            let c = r.nth_cmd(*step, needle, 0)?;
            let echo = c.echo.trim_end();
            if c.got.contains(text.as_str()) {
                Ok(format!("step {step} `{echo}` says `{text}`"))
            } else {
                Err(format!("step {step} `{echo}` printed {:?}", c.got))
            }
        }
        Evidence::PrintsNothing { step, needle } => {
            let c = r.nth_cmd(*step, needle, 0)?;
            let echo = c.echo.trim_end();
            if c.got.is_empty() {
                Ok(format!("step {step} `{echo}` printed nothing"))
            } else {
                Err(format!("step {step} `{echo}` printed {:?}", c.got))
            }
        }
        Evidence::Sizes {
            step,
            voters,
            learners,
            quorum,
        } => r.sizes(*step, *voters, *learners, *quorum),
        Evidence::Logged {
            step,
            machine,
            needles,
        } => {
            let needles: Vec<&str> = needles.iter().map(String::as_str).collect();
            r.logged(*step, machine, &needles)
        }
        Evidence::NeverLogged {
            from,
            to,
            machine,
            needle,
        } => r.never_logged(*from, *to, machine, needle),
        Evidence::SameApplied {
            step,
            machine,
            other,
        } => {
            let view = &r.step(*step).view;
            let applied = |m: &str| {
                view.machines
                    .iter()
                    .find(|x| x.name == m)
                    .and_then(|x| x.process.as_ref())
                    .map(|p| p.applied)
            };
            let (new, old) = (applied(machine), applied(other));
            if new.is_some() && new == old {
                Ok(format!("{machine} applied {new:?}, as {other}"))
            } else {
                Err(format!("{machine} applied {new:?}, {other} {old:?}"))
            }
        }
        Evidence::OnlyElection { step, text } => {
            let leaders: Vec<String> = r
                .step_log(*step)
                .into_iter()
                .filter(|(_, t)| t.contains(" became leader at term "))
                .map(|(m, t)| format!("{m}: {t}"))
                .collect();
            if leaders.len() == 1 && leaders[0].ends_with(text.as_str()) {
                Ok(format!(
                    "the only `became leader` line of step {step} ends `{text}`"
                ))
            } else {
                Err(format!("`became leader` lines in step {step}: {leaders:?}"))
            }
        }
        Evidence::LeaderTerm { step, term } => match r.quorum(*step).leader {
            Some(l) if l.term == *term => {
                Ok(format!("after step {step} the leader is at term {term}"))
            }
            other => Err(format!("the leader after step {step}: {other:?}")),
        },
        Evidence::BothSidesCampaign { step, sides } => {
            // after the leader steps down, a member of each side becomes candidate
            let lines = r.step_log(*step);
            let down = lines.iter().position(|(_, t)| {
                t.contains("stepped down to follower since quorum is not active")
            });
            let campaigns = |side: &[String]| {
                let d = down?;
                lines[d..]
                    .iter()
                    .find(|(m, t)| side.iter().any(|s| s == m) && t.contains("became candidate"))
                    .map(|(m, t)| format!("{m}: {t}"))
            };
            match (down, campaigns(&sides[0]), campaigns(&sides[1])) {
                (Some(d), Some(a), Some(b)) => Ok(format!(
                    "`{}` ({}), then `{a}` and `{b}`",
                    lines[d].1, lines[d].0
                )),
                (d, a, b) => Err(format!(
                    "step {step}'s logs: step-down {:?}, campaigns after it {a:?} and {b:?}",
                    d.map(|d| lines[d])
                )),
            }
        }
    }
}

/// Checks a document's claims; prints what was checked and returns the failures.
fn run_claims(d: &Document, played: &Played) -> Vec<String> {
    let checked = d.claims.iter().filter(|c| c.unchecked.is_none()).count();
    if d.claims.is_empty() {
        return Vec::new();
    }
    println!(
        "{} ({} on etcd {}): {checked} claims",
        d.doc,
        d.lesson,
        played.etcd.release()
    );
    let mut failures = Vec::new();
    for c in &d.claims {
        if let Some(why) = &c.unchecked {
            println!("  line {}: not checked here: {why}", c.line);
            continue;
        }
        match all(c.evidence.iter().map(|e| weigh(played, e)).collect()) {
            Ok(evidence) => println!("  line {}: {}\n      ok: {evidence}", c.line, c.says),
            Err(e) => {
                println!("  line {}: {}\n      FAILED: {e}", c.line, c.says);
                failures.push(format!(
                    "{} line {}: {}\n    the run: {e}",
                    d.doc, c.line, c.says
                ));
            }
        }
    }
    failures
}

// =================================================================================
// The test
// =================================================================================

/// How many quotes, claims and unchecked claims a document file holds.
fn counts(d: &Document) -> (usize, usize, usize) {
    let quotes = d.blocks.iter().map(|b| b.quotes.len()).sum();
    let unchecked = d.claims.iter().filter(|c| c.unchecked.is_some()).count();
    (quotes, d.claims.len() - unchecked, unchecked)
}

#[test]
fn every_document_holds_in_its_lesson_run() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(DIR)
        .unwrap_or_else(|e| panic!("{DIR}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "quotes"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut total = (0, 0, 0);
    for path in &files {
        let d = load(path);
        verify_line_numbers(&d);
        let played = play(&d.doc, &d.lesson, d.etcd);
        let (q, c, u) = counts(&d);
        assert!(q + c > 0, "{}: nothing to check", d.path.display());
        let (checked, mut bad) = run_quotes(&d, &played);
        if checked != q {
            bad.push(format!("{checked} of its {q} quoted lines were checked"));
        }
        total = (total.0 + checked, total.1 + c, total.2 + u);
        bad.extend(run_claims(&d, &played));
        if !bad.is_empty() {
            failures.push(format!(
                "{} ({} finding(s)), lesson {}:\n{}",
                d.path.display(),
                bad.len(),
                d.lesson,
                bad.join("\n")
            ));
        }
    }
    println!(
        "{} files: {} quoted lines checked, {} claims checked, {} not checked",
        files.len(),
        total.0,
        total.1,
        total.2
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        files.len() >= FILES,
        "{} files in {DIR}, expected at least {FILES}",
        files.len()
    );
    assert!(
        total.0 >= QUOTES,
        "{} quoted lines checked, expected at least {QUOTES}",
        total.0
    );
}

#[test]
fn the_format_reads_every_kind_of_line() {
    let path = std::env::temp_dir().join(format!("qp-quotes-{}.quotes", std::process::id()));
    let text = [
        "doc: 009",
        "lesson: x",
        "etcd: 3.5",
        "id: 00000000000000ff 1",
        "reason R: a reason",
        "",
        "## output 1-2",
        "# a comment",
        "7: a | b",
        "  = real",
        "  ~ part",
        "  because R",
        "8: cut sho",
        "  cut: why",
        "9: row",
        "  any order",
        "10: never",
        "  unmatched: no",
        "## log node01 3",
        "11: x",
        "  = y",
        "  because: literal",
        "## exit node02 4",
        "12: exit 1",
        "",
        "claim 5: words",
        "  says: it says",
        "  not after 2: leader node01",
        "  prints 3 `get k`#2  two  spaces",
        "  logged 1 n1 `a` `b c`",
        "  never-logged 1-2 n2 `x`",
        "  sizes 1: 3 voters, 1 learners, quorum 2",
        "  both-sides-campaign 7: a b | c d",
        "",
        "unchecked 6: other words",
        "  why: because",
    ]
    .join("\n");
    std::fs::write(&path, text).expect("temp file");
    let d = load(&path);
    let _ = std::fs::remove_file(&path);
    assert_eq!((d.doc.as_str(), d.lesson.as_str()), ("009", "x"));
    assert_eq!(d.etcd, Some(EtcdVersion::V3_5));
    assert_eq!(d.ids, vec![(0xff, 1)]);
    assert_eq!(d.blocks.len(), 3);
    let q = &d.blocks[0].quotes;
    assert_eq!(
        (q[0].line, q[0].text.as_str(), q[0].why.as_str()),
        (7, "a | b", "a reason")
    );
    assert!(matches!(&q[0].real[..], [T::L(l), T::P(p)] if l == "real" && p == "part"));
    assert!(q[1].cut.is_some() && q[2].any_order && q[3].unmatched.is_some());
    assert!(matches!(&d.blocks[1].at, At::Log(m, 3, 3) if m == "node01"));
    assert_eq!(d.blocks[1].quotes[0].why, "literal");
    assert!(matches!(&d.blocks[2].at, At::Exit(m, 4) if m == "node02"));
    assert_eq!(counts(&d), (6, 1, 1));
    let c = &d.claims[0];
    assert_eq!(
        (c.line, c.quote.as_str(), c.says.as_str()),
        (5, "words", "it says")
    );
    assert!(matches!(
        &c.evidence[0],
        Evidence::After {
            step: 2,
            holds: false,
            ..
        }
    ));
    assert!(
        matches!(&c.evidence[1], Evidence::Prints { step: 3, needle, nth: 1, line } if needle == "get k" && line == " two  spaces")
    );
    assert!(matches!(&c.evidence[2], Evidence::Logged { needles, .. } if needles == &["a", "b c"]));
    assert!(matches!(
        &c.evidence[3],
        Evidence::NeverLogged { from: 1, to: 2, .. }
    ));
    assert!(matches!(
        &c.evidence[4],
        Evidence::Sizes {
            voters: 3,
            learners: 1,
            quorum: 2,
            ..
        }
    ));
    assert!(
        matches!(&c.evidence[5], Evidence::BothSidesCampaign { sides, .. } if sides[1] == ["c", "d"])
    );
    assert_eq!(d.claims[1].unchecked.as_deref(), Some("because"));
}

#[test]
fn a_line_it_cannot_read_names_its_file_and_line() {
    let path = std::env::temp_dir().join(format!("qp-bad-{}.quotes", std::process::id()));
    std::fs::write(
        &path,
        "doc: 009\nlesson: x\n## output 1-1\n7: a\n  because NOPE\n",
    )
    .expect("temp file");
    let err = std::panic::catch_unwind(|| load(&path).doc).expect_err("a reason never named");
    let _ = std::fs::remove_file(&path);
    let message = err.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        message.ends_with(".quotes:5: no such reason: `  because NOPE`"),
        "{message}"
    );
}

// =================================================================================
// The machinery itself
// =================================================================================

#[test]
fn normalising_keeps_all_but_stamps_ports_and_runtime_ids() {
    let ids = vec![(0x6d66440fb5660edc_u64, "<added#1>".to_string())];
    assert_eq!(
        normalise(
            "raft2021/03/03 16:27:23 INFO: 4eee438bb97e1153 switched to configuration voters=(7883063032017194716 5687557646807077203)",
            &ids
        ),
        "raft INFO: 4eee438bb97e1153 switched to configuration voters=(5687557646807077203 <added#1>)"
    );
    assert_eq!(
        normalise(
            "2021-03-03 16:27:23.856932 I | rafthttp: starting peer 6d66440fb5660edc...",
            &ids
        ),
        "I | rafthttp: starting peer <added#1>..."
    );
    assert_eq!(
        normalise(
            r#"{"level":"warn","ts":"2026-11-22T01:46:47.052Z","target":"endpoint://client-102fb068-d85a-4281-82ef-811f3be2abfd/x"}"#,
            &[]
        ),
        r#"{"level":"warn","ts":"<ts>","target":"endpoint://client-<uuid>/x"}"#
    );
    assert_eq!(
        normalise(
            r#"{"level":"fatal","ts":"2023-06-17T21:30:36.560232-0700","target":"etcd-endpoints://0xc000326000/127.0.0.2:2379"}"#,
            &[]
        ),
        r#"{"level":"fatal","ts":"<ts>","target":"etcd-endpoints://<ptr>/127.0.0.2:2379"}"#
    );
}

#[test]
fn sources_separate_what_interleaves_by_timing() {
    assert_eq!(
        source_of("I | embed: ready to serve client requests"),
        "serve"
    );
    assert_eq!(
        source_of("N | etcdserver/membership: set the initial cluster version to 3.4"),
        "main"
    );
    assert_eq!(
        source_of("raft INFO: x became candidate at term 3"),
        "raft elections"
    );
    assert_eq!(
        source_of("W | rafthttp: health check for peer x could not connect: e"),
        "prober"
    );
    assert_ne!(
        source_of("I | rafthttp: established a TCP streaming connection with peer x (stream Message writer)"),
        source_of("I | rafthttp: established a TCP streaming connection with peer x (stream MsgApp v2 writer)")
    );
}
