#![cfg(not(target_arch = "wasm32"))]
//! What each etcd document (`../shared/seeds/000_*.txt` … `004_*.txt`) quotes
//! or claims, checked against the run of its lesson (`static/lessons/`).
//!
//! # Documents that quote output (000, 002, 004)
//!
//! Every output and log line a document quotes is a constant below, with the
//! document's line number, in blocks: a block is one of the document's quoted
//! runs of lines, with where the lesson plays it (the command output of some of
//! its steps, a machine's server log written during some steps, or a machine's
//! exit status after a step). Each quoted line must appear there, in the
//! document's order. Both sides are normalised, and only for:
//!
//! * time stamps (capnslog's, raft's, clientv3's JSON `ts`), clientv3's client
//!   UUIDs, raft's request IDs and ephemeral ports;
//! * member IDs assigned at runtime by `member add` (etcd hashes them from the
//!   time): the document's are listed with the lesson's `member add` they
//!   stand for (the Nth of the run), and both become `<added#N>`, in hex and in
//!   decimal; `voters=(…)` lists are sorted again afterwards.
//!
//! "In order" is per source, as in `tests/log_excerpts.rs`: lines that etcd's
//! goroutines write independently (the prober, the version monitor, each
//! rafthttp stream, raft's election timer, the start-up goroutines) keep their
//! order within their source, not against each other. All output lines of a
//! block are one source, except the rows of an `endpoint status --cluster`
//! table listed in `any_order`: etcd lists members by ID, and the document's
//! members had other runtime IDs.
//!
//! Blocks are checked each where the lesson plays it, not against each other:
//! 002's examples are independent, and its lesson plays them in another order
//! (the error cases of `member add` right after the first add).
//!
//! Where etcd 3.4.23 (or the lesson's run, for the election terms that depend
//! on random timeouts) prints something else than the document, the document's
//! line is paired in `real` with the line(s) etcd prints, taken from the real
//! transcripts (`../shared/reference/transcripts/`) or the lesson's expected
//! blocks, with the reason; the real line is checked instead, and a failure
//! names both. Lines the document cut short are matched as a part (`cut`).
//! Lines that cannot be matched at all are listed in `unmatched` with the
//! reason, and the test checks that the run indeed does not print them.
//!
//! # Documents that quote no output (001, 003)
//!
//! Each claim the document makes (who leads, whether writes commit, which
//! error a client sees, what a learner refuses) is listed with its line and
//! checked against the lesson's run, step by step: the commands' outputs, the
//! server logs and the world after the step (`lessons::evaluate`,
//! `sim::quorum::analyze`).
//!
//! `cargo test --profile release-test --test lesson_quotes -- --nocapture`
//! prints what was checked. Without `../shared/seeds/` the document's line
//! numbers are not verified against the files (the checks still run).
mod common;
use common::{added_ids, re};
use std::collections::HashMap;
use std::ops::Range;

use quorum_playground::lessons::{self, Check, CommandResult, Lesson, MachineState, MemberState};
use quorum_playground::sim::quorum::{self, QuorumInfo};
use quorum_playground::sim::view::WorldView;
use quorum_playground::sim::world::LogLine;

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
    doc: &'static str,
    steps: Vec<StepRun>,
    logs: Vec<LogLine>,
    /// The runtime member IDs of the run, in the order of its `member add`s.
    added: Vec<u64>,
}

fn play(doc: &'static str, lesson_name: &str) -> Played {
    let path = format!("static/lessons/{lesson_name}.lesson");
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let lesson: Lesson = lessons::parse(lesson_name, &src).unwrap_or_else(|e| panic!("{e}"));
    let mut session = lessons::boot_session(&lesson);
    let mut steps = Vec::new();
    for step in &lesson.steps {
        let from = session.world.logs.len();
        let result = lessons::run_step(&mut session, step);
        steps.push(StepRun {
            title: step.title.clone(),
            commands: result.commands,
            logs: from..session.world.logs.len(),
            view: session.world.view(),
        });
    }
    let all_output: String = steps
        .iter()
        .flat_map(|s| &s.commands)
        .map(|c| c.got.as_str())
        .collect();
    Played {
        doc,
        added: added_ids(&all_output),
        steps,
        logs: session.world.logs.clone(),
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

/// Time stamps, client UUIDs, request IDs, ephemeral ports and the runtime IDs
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
// Quotes
// =================================================================================

/// Where the lesson plays a quoted block (steps are the lesson's `## N.`, 1-based).
#[derive(Clone, Copy, Debug)]
enum At {
    /// The output of the commands of steps FROM..=TO.
    Out(usize, usize),
    /// MACHINE's server log, the lines written during steps FROM..=TO.
    Log(&'static str, usize, usize),
    /// MACHINE's exit status after step N, as `exit STATUS`.
    Exit(&'static str, usize),
}

/// One quoted run of lines: (document line, text as the document prints it).
struct Block {
    at: At,
    quotes: &'static [(usize, &'static str)],
}

/// What to look for: a whole line, or a part of one.
#[derive(Clone, Copy, Debug)]
enum T {
    L(&'static str),
    P(&'static str),
}

/// A document line and what etcd 3.4.23 prints instead, in order.
struct Real {
    line: usize,
    real: &'static [T],
    why: &'static str,
}

/// A document's quotes and how to read them.
struct Quotes {
    doc: &'static str,
    lesson: &'static str,
    /// The document's runtime member IDs, each with the run's `member add` (1-based)
    /// it stands for.
    ids: &'static [(u64, usize)],
    blocks: &'static [Block],
    real: &'static [Real],
    /// Lines the document cut short (matched as a part of a line), and where.
    cut: &'static [(usize, &'static str)],
    /// Table rows whose order depends on runtime member IDs.
    any_order: &'static [usize],
    /// Lines the lesson's run cannot print, and why.
    unmatched: &'static [(usize, &'static str)],
}

/// The document's text, if `../shared/seeds/` holds it.
fn document(prefix: &str) -> Option<Vec<String>> {
    let dir = std::env::var("QP_SEEDS").unwrap_or_else(|_| "../shared/seeds".to_string());
    let entry = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok())
        .find(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("{prefix}_"))
        })?;
    let text = std::fs::read_to_string(entry.path()).ok()?;
    Some(text.lines().map(str::to_string).collect())
}

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
    notes: Vec<String>,
}

fn check_quotes(q: &Quotes) -> QuoteReport {
    let played = play(q.doc, q.lesson);
    let run_ids = played.placeholders();
    let doc_ids: Vec<(u64, String)> = q
        .ids
        .iter()
        .map(|&(id, n)| (id, format!("<added#{n}>")))
        .collect();
    let doc_text = document(q.doc);
    let mut report = QuoteReport {
        checked: 0,
        paired: 0,
        cut: 0,
        unmatched: 0,
        failures: Vec::new(),
        notes: Vec::new(),
    };

    // The tables name only quoted lines, and the quotes are the document's.
    let quoted: Vec<usize> = q
        .blocks
        .iter()
        .flat_map(|b| b.quotes.iter().map(|(l, _)| *l))
        .collect();
    let listed = q
        .real
        .iter()
        .map(|r| r.line)
        .chain(q.cut.iter().map(|c| c.0))
        .chain(q.any_order.iter().copied())
        .chain(q.unmatched.iter().map(|u| u.0));
    for l in listed {
        assert!(
            quoted.contains(&l),
            "{}: line {l} is in a table but quoted in no block",
            q.doc
        );
    }
    match &doc_text {
        Some(lines) => {
            for b in q.blocks {
                for &(l, text) in b.quotes {
                    let at = lines.get(l - 1).map(String::as_str).unwrap_or("");
                    assert_eq!(
                        at, text,
                        "{} line {l}: the quote is not the document's line",
                        q.doc
                    );
                }
            }
        }
        None => report.notes.push(format!(
            "../shared/seeds/{}_*.txt not found: line numbers not verified",
            q.doc
        )),
    }
    if !q.ids.is_empty() && played.added.len() < q.ids.iter().map(|i| i.1).max().unwrap_or(0) {
        report.failures.push(format!(
            "{}: the lesson's run added {} members at runtime ({:x?}); the document's IDs need more",
            q.doc,
            played.added.len(),
            played.added
        ));
        return report;
    }

    for b in q.blocks {
        let (have, place): (Vec<(String, String)>, String) = match b.at {
            At::Out(from, to) => (
                played.output_lines(from, to),
                format!("the output of lesson steps {from}–{to}"),
            ),
            At::Log(m, from, to) => (
                played.log_lines(m, from, to),
                format!("{m}'s server log during lesson steps {from}–{to}"),
            ),
            At::Exit(m, n) => {
                let view = &played.step(n).view;
                let status = view
                    .machines
                    .iter()
                    .find(|x| x.name == m)
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
        };
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
        for &(line, text) in b.quotes {
            if let Some((_, why)) = q.unmatched.iter().find(|u| u.0 == line) {
                report.unmatched += 1;
                let n = normalise(text, &doc_ids);
                if let Some(i) = norm.iter().position(|h| *h == n) {
                    report.failures.push(format!(
                        "{} line {line} `{text}` is listed as unmatched ({why}), but {place} prints it at #{}: match it instead",
                        q.doc,
                        i + 1
                    ));
                }
                continue;
            }
            report.checked += 1;
            let real = q.real.iter().find(|r| r.line == line);
            let cut = q.cut.iter().find(|c| c.0 == line);
            let wants: Vec<T> = match (real, cut) {
                (Some(r), _) => {
                    report.paired += 1;
                    r.real.to_vec()
                }
                (None, Some(_)) => {
                    report.cut += 1;
                    vec![T::P(text)]
                }
                (None, None) => vec![T::L(text)],
            };
            let unordered = q.any_order.contains(&line);
            for want in &wants {
                let (raw, ids) = match (want, real) {
                    (T::L(s) | T::P(s), Some(_)) => (*s, &run_ids),
                    (T::L(s) | T::P(s), None) => (*s, &doc_ids),
                };
                let n = normalise(raw, ids);
                let src = source(&n);
                let start = if unordered {
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
                        if unordered {
                            if let Some(f) = free.as_mut() {
                                f.1 = f.1.max(i + 1);
                            }
                        } else {
                            cursor.insert(src.clone(), i + 1);
                        }
                        last.insert(src, (line, i));
                    }
                    None => {
                        let instead = match real {
                            Some(r) => format!(
                                "; etcd 3.4.23 prints {} instead ({})",
                                describe(want),
                                r.why
                            ),
                            None => String::new(),
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
                            q.doc
                        ));
                    }
                }
            }
        }
    }
    report
}

fn run_quotes(q: &Quotes) {
    let r = check_quotes(q);
    println!(
        "{} ({}): {} quoted lines checked, {} paired with the line etcd 3.4.23 prints instead, {} cut short by the document (matched as a part), {} unmatched",
        q.doc, q.lesson, r.checked, r.paired, r.cut, r.unmatched
    );
    for n in &r.notes {
        println!("  note: {n}");
    }
    for p in q.real {
        let real: Vec<String> = p.real.iter().map(describe).collect();
        println!("  line {}: {} ({})", p.line, real.join(" + "), p.why);
    }
    for (l, why) in q.unmatched {
        println!("  line {l} unmatched: {why}");
    }
    assert!(
        r.failures.is_empty(),
        "{} quoted line(s) of document {} not found in the run of lesson {}:\n{}",
        r.failures.len(),
        q.doc,
        q.lesson,
        r.failures.join("\n")
    );
}

// =================================================================================
// 000: etcd server addition and deletion
// =================================================================================

const ENV_UNDERSCORES: &str = "the document prints the variables with hyphens; etcd 3.4.23 prints \
     `ETCD_…` with underscores, the names etcd reads";
const ENV_ORDER: &str = "underscores, not hyphens; and the order of the members in \
     ETCD_INITIAL_CLUSTER is Go map order, not stable in etcd";
const TERM_62: &str = "the lesson's node01 wins the election one term later, at 62 (the terms \
     depend on random election timeouts; lesson 000 step 4's expected block)";
const TERM_63: &str = "the document's node02 came from another run (its table says term 61, its \
     log term 5); in the lesson node02 takes over at term 63 (step 5's expected block)";
const ROW_000: &str = "etcd 3.4.23 reports version 3.4.23, not the document's v3.4.0 image; \
     RAFT TERM and RAFT INDEX are the lesson's run (its expected block)";
const GO_QUOTES: &str = "the document's etcd 3.4.0 was built with Go 1.12; etcd 3.4.23's Go \
     quotes the URL in the error (`Get \"http://…\":`)";

const QUOTES_000: Quotes = Quotes {
    doc: "000",
    lesson: "000-server-addition-deletion",
    ids: &[
        // 41: the document's `member add` printed another ID than its log (79) shows
        (0x4c0878749a891a5f, 1),
        (0x6d66440fb5660edc, 1),
        // 4.1 was another run: node02 there is 6c9f385ab14331a2
        (0x6c9f385ab14331a2, 1),
        // 4.2: node02 added again
        (0x9035c191246d362c, 2),
        // 5: node02 and node03
        (0x341224f3422176dd, 3),
        (0xaa9ac53bcb1de8c6, 4),
    ],
    blocks: &[
        // 3. `member add node02`
        Block {
            at: At::Out(2, 2),
            quotes: &[
                (41, "Member 4c0878749a891a5f added to cluster 35d99f7f50aa4509"),
                (43, "ETCD-NAME=\"node02\""),
                (44, "ETCD-INITIAL-CLUSTER=\"node02=http://192.168.0.62:2380,node01=http://192.168.0.61:2380\""),
                (45, "ETCD-INITIAL-ADVERTISE-PEER-URLS=\"http://192.168.0.62:2380\""),
                (46, "ETCD-INITIAL-CLUSTER-STATE=\"existing\""),
            ],
        },
        // 3. node01's log: start-up, the add, the rising terms, the election
        Block {
            at: At::Log("node01", 1, 4),
            quotes: &[
                (72, "tcdserver/membership: set the initial cluster version to 3.4"),
                (73, "2021-03-03 16:25:57.005589 I | embed: ready to serve client requests"),
                (74, "2021-03-03 16:25:57.005633 I | etcdserver: published {Name:node01 ClientURLs:[http://192.168.0.61:2379]} to cluster 35d99f7f50aa4509"),
                (75, "2021-03-03 16:25:57.005641 I | etcdserver/api: enabled capabilities for version 3.4"),
                (76, "2021-03-03 16:25:57.006043 N | embed: serving insecure client requests on [::]:2379, this is strongly discouraged!"),
                (78, "raft2021/03/03 16:27:23 INFO: 4eee438bb97e1153 switched to configuration voters=(5687557646807077203 7883063032017194716)"),
                (79, "2021-03-03 16:27:23.856885 I | etcdserver/membership: added member 6d66440fb5660edc [http://192.168.0.62:2380] to cluster 35d99f7f50aa4509"),
                (80, "2021-03-03 16:27:23.856932 I | rafthttp: starting peer 6d66440fb5660edc..."),
                (81, "2021-03-03 16:27:23.856952 I | rafthttp: started HTTP pipelining with peer 6d66440fb5660edc"),
                (82, "2021-03-03 16:27:23.857507 I | rafthttp: started streaming with peer 6d66440fb5660edc (writer)"),
                (83, "2021-03-03 16:27:23.857752 I | rafthttp: started streaming with peer 6d66440fb5660edc (writer)"),
                (84, "2021-03-03 16:27:23.859022 I | rafthttp: started peer 6d66440fb5660edc"),
                (85, "2021-03-03 16:27:23.859053 I | rafthttp: added peer 6d66440fb5660edc"),
                (86, "2021-03-03 16:27:23.859079 I | rafthttp: started streaming with peer 6d66440fb5660edc (stream MsgApp v2 reader)"),
                (87, "2021-03-03 16:27:23.859114 I | rafthttp: started streaming with peer 6d66440fb5660edc (stream Message reader)"),
                (88, "raft2021/03/03 16:27:25 WARN: 4eee438bb97e1153 stepped down to follower since quorum is not active"),
                (89, "raft2021/03/03 16:27:25 INFO: 4eee438bb97e1153 became follower at term 2"),
                (90, "raft2021/03/03 16:27:25 INFO: raft.node: 4eee438bb97e1153 lost leader 4eee438bb97e1153 at term 2"),
                (91, "raft2021/03/03 16:27:26 INFO: 4eee438bb97e1153 is starting a new election at term 2"),
                (92, "raft2021/03/03 16:27:26 INFO: 4eee438bb97e1153 became candidate at term 3"),
                (93, "raft2021/03/03 16:27:26 INFO: 4eee438bb97e1153 received MsgVoteResp from 4eee438bb97e1153 at term 3"),
                (94, "raft2021/03/03 16:27:26 INFO: 4eee438bb97e1153 [logterm: 2, index: 5] sent MsgVote request to 6d66440fb5660edc at term 3"),
                (95, "raft2021/03/03 16:27:28 INFO: 4eee438bb97e1153 is starting a new election at term 3"),
                (96, "raft2021/03/03 16:27:28 INFO: 4eee438bb97e1153 became candidate at term 4"),
                (97, "raft2021/03/03 16:27:28 INFO: 4eee438bb97e1153 received MsgVoteResp from 4eee438bb97e1153 at term 4"),
                (98, "raft2021/03/03 16:27:28 INFO: 4eee438bb97e1153 [logterm: 2, index: 5] sent MsgVote request to 6d66440fb5660edc at term 4"),
                (99, "2021-03-03 16:27:28.859259 W | rafthttp: health check for peer 6d66440fb5660edc could not connect: dial tcp 192.168.0.62:2380: connect: connection refused"),
                (100, "2021-03-03 16:27:28.859309 W | rafthttp: health check for peer 6d66440fb5660edc could not connect: dial tcp 192.168.0.62:2380: connect: connection refused"),
                (101, "raft2021/03/03 16:27:29 INFO: 4eee438bb97e1153 is starting a new election at term 4"),
                (102, "raft2021/03/03 16:27:29 INFO: 4eee438bb97e1153 became candidate at term 5"),
                (103, "raft2021/03/03 16:27:29 INFO: 4eee438bb97e1153 received MsgVoteResp from 4eee438bb97e1153 at term 5"),
                (104, "raft2021/03/03 16:27:29 INFO: 4eee438bb97e1153 [logterm: 2, index: 5] sent MsgVote request to 6d66440fb5660edc at term 5"),
                (105, "raft2021/03/03 16:27:30 INFO: 4eee438bb97e1153 is starting a new election at term 5"),
                (106, "raft2021/03/03 16:27:30 INFO: 4eee438bb97e1153 became candidate at term 6"),
                (107, "raft2021/03/03 16:27:30 INFO: 4eee438bb97e1153 received MsgVoteResp from 4eee438bb97e1153 at term 6"),
                (108, "raft2021/03/03 16:27:30 INFO: 4eee438bb97e1153 [logterm: 2, index: 5] sent MsgVote request to 6d66440fb5660edc at term 6"),
                (109, "raft2021/03/03 16:27:32 INFO: 4eee438bb97e1153 is starting a new election at term 6"),
                (110, "raft2021/03/03 16:27:32 INFO: 4eee438bb97e1153 became candidate at term 7"),
                (111, "raft2021/03/03 16:27:32 INFO: 4eee438bb97e1153 received MsgVoteResp from 4eee438bb97e1153 at term 7"),
                (112, "raft2021/03/03 16:27:32 INFO: 4eee438bb97e1153 [logterm: 2, index: 5] sent MsgVote request to 6d66440fb5660edc at term 7"),
                (113, "raft2021/03/03 16:27:33 INFO: 4eee438bb97e1153 is starting a new election at term 7"),
                (114, "raft2021/03/03 16:27:33 INFO: 4eee438bb97e1153 became candidate at term 8"),
                (115, "raft2021/03/03 16:27:33 INFO: 4eee438bb97e1153 received MsgVoteResp from 4eee438bb97e1153 at term 8"),
                (116, "raft2021/03/03 16:27:33 INFO: 4eee438bb97e1153 [logterm: 2, index: 5] sent MsgVote request to 6d66440fb5660edc at term 8"),
                (117, "2021-03-03 16:27:33.859469 W | rafthttp: health check for peer 6d66440fb5660edc could not connect: dial tcp 192.168.0.62:2380: connect: connection refused"),
                (118, "2021-03-03 16:27:33.859602 W | rafthttp: health check for peer 6d66440fb5660edc could not connect: dial tcp 192.168.0.62:2380: connect: connection refuse"),
                (120, "2021-03-03 16:28:50.446253 I | rafthttp: peer 6d66440fb5660edc became active"),
                (121, "2021-03-03 16:28:50.446282 I | rafthttp: established a TCP streaming connection with peer 6d66440fb5660edc (stream Message writer)"),
                (122, "2021-03-03 16:28:50.446748 I | rafthttp: established a TCP streaming connection with peer 6d66440fb5660edc (stream MsgApp v2 writer)"),
                (123, "2021-03-03 16:28:50.460719 I | rafthttp: established a TCP streaming connection with peer 6d66440fb5660edc (stream MsgApp v2 reader)"),
                (124, "2021-03-03 16:28:50.460880 I | rafthttp: established a TCP streaming connection with peer 6d66440fb5660edc (stream Message reader)"),
                (125, "raft2021/03/03 16:28:52 INFO: 4eee438bb97e1153 is starting a new election at term 60"),
                (126, "raft2021/03/03 16:28:52 INFO: 4eee438bb97e1153 became candidate at term 61"),
                (127, "raft2021/03/03 16:28:52 INFO: 4eee438bb97e1153 received MsgVoteResp from 4eee438bb97e1153 at term 61"),
                (128, "raft2021/03/03 16:28:52 INFO: 4eee438bb97e1153 [logterm: 2, index: 5] sent MsgVote request to 6d66440fb5660edc at term 61"),
                (129, "raft2021/03/03 16:28:52 INFO: 4eee438bb97e1153 received MsgVoteResp from 6d66440fb5660edc at term 61"),
                (130, "raft2021/03/03 16:28:52 INFO: 4eee438bb97e1153 has received 2 MsgVoteResp votes and 0 vote rejections"),
                (131, "raft2021/03/03 16:28:52 INFO: 4eee438bb97e1153 became leader at term 61"),
                (132, "raft2021/03/03 16:28:52 INFO: raft.node: 4eee438bb97e1153 elected leader 4eee438bb97e1153 at term 6"),
            ],
        },
        // 4.1 `endpoint status` before removing the leader
        Block {
            at: At::Out(5, 5),
            quotes: &[
                (146, "+--------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+"),
                (147, "|         ENDPOINT         |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS |"),
                (148, "+--------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+"),
                (149, "| http://192.168.0.61:2379 | 4eee438bb97e1153 |   3.4.0 |   20 kB |      true |      false |        61 |          7 |                  7 |        |"),
                (150, "| http://192.168.0.62:2379 | 6c9f385ab14331a2 |   3.4.0 |   20 kB |     false |      false |        61 |          7 |                  7 |        |"),
                (151, "+--------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+"),
            ],
        },
        // 4.1 node02's log: the leader removed, node02 elects itself
        Block {
            at: At::Log("node02", 5, 5),
            quotes: &[
                (161, "raft2021/03/03 16:46:41 INFO: 6c9f385ab14331a2 switched to configuration voters=(7827036639565394338)"),
                (162, "2021-03-03 16:46:41.520426 I | etcdserver/membership: removed member 4eee438bb97e1153 from cluster 35d99f7f50aa4509"),
                (163, "2021-03-03 16:46:41.520470 I | rafthttp: stopping peer 4eee438bb97e1153..."),
                (164, "2021-03-03 16:46:41.521156 I | rafthttp: closed the TCP streaming connection with peer 4eee438bb97e1153 (stream MsgApp v2 writer)"),
                (165, "2021-03-03 16:46:41.521191 I | rafthttp: stopped streaming with peer 4eee438bb97e1153 (writer)"),
                (166, "2021-03-03 16:46:41.522150 W | rafthttp: rejected the stream from peer 4eee438bb97e1153 since it was removed"),
                (167, "2021-03-03 16:46:41.523061 I | rafthttp: closed the TCP streaming connection with peer 4eee438bb97e1153 (stream Message writer)"),
                (168, "2021-03-03 16:46:41.523166 I | rafthttp: stopped streaming with peer 4eee438bb97e1153 (writer)"),
                (169, "2021-03-03 16:46:41.523369 I | rafthttp: stopped HTTP pipelining with peer 4eee438bb97e1153"),
                (170, "2021-03-03 16:46:41.523436 W | rafthttp: lost the TCP streaming connection with peer 4eee438bb97e1153 (stream MsgApp v2 reader)"),
                (171, "2021-03-03 16:46:41.523458 E | rafthttp: failed to read 4eee438bb97e1153 on stream MsgApp v2 (context canceled)"),
                (172, "2021-03-03 16:46:41.523462 I | rafthttp: peer 4eee438bb97e1153 became inactive (message send to peer failed)"),
                (173, "2021-03-03 16:46:41.523485 I | rafthttp: stopped streaming with peer 4eee438bb97e1153 (stream MsgApp v2 reader)"),
                (174, "2021-03-03 16:46:41.523525 W | rafthttp: lost the TCP streaming connection with peer 4eee438bb97e1153 (stream Message reader)"),
                (175, "2021-03-03 16:46:41.523534 I | rafthttp: stopped streaming with peer 4eee438bb97e1153 (stream Message reader)"),
                (176, "2021-03-03 16:46:41.523538 I | rafthttp: stopped peer 4eee438bb97e1153"),
                (177, "2021-03-03 16:46:41.523548 I | rafthttp: removed peer 4eee438bb97e1153"),
                (178, "2021-03-03 16:46:41.524312 W | rafthttp: rejected the stream from peer 4eee438bb97e1153 since it was removed"),
                (179, "raft2021/03/03 16:46:43 INFO: 6c9f385ab14331a2 is starting a new election at term 5"),
                (180, "raft2021/03/03 16:46:43 INFO: 6c9f385ab14331a2 became candidate at term 6"),
                (181, "raft2021/03/03 16:46:43 INFO: 6c9f385ab14331a2 received MsgVoteResp from 6c9f385ab14331a2 at term 6"),
                (182, "raft2021/03/03 16:46:43 INFO: 6c9f385ab14331a2 became leader at term 6"),
                (183, "raft2021/03/03 16:46:43 INFO: raft.node: 6c9f385ab14331a2 changed leader from 4eee438bb97e1153 to 6c9f385ab14331a2 at term 6"),
            ],
        },
        // 4.2 `endpoint status` before removing the follower
        Block {
            at: At::Out(7, 7),
            quotes: &[
                (195, "+--------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+"),
                (196, "|         ENDPOINT         |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS |"),
                (197, "+--------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+"),
                (198, "| http://192.168.0.61:2379 | 4eee438bb97e1153 |   3.4.0 |   20 kB |      true |      false |        11 |          7 |                  7 |        |"),
                (199, "| http://192.168.0.62:2379 | 9035c191246d362c |   3.4.0 |   20 kB |     false |      false |        11 |          7 |                  7 |        |"),
                (200, "+--------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+"),
            ],
        },
        // 4.2 node01's log: the follower removed, no election
        Block {
            at: At::Log("node01", 7, 7),
            quotes: &[
                (210, "raft2021/03/03 17:04:23 INFO: 4eee438bb97e1153 switched to configuration voters=(5687557646807077203)"),
                (211, "2021-03-03 17:04:23.420808 I | etcdserver/membership: removed member 9035c191246d362c from cluster 35d99f7f50aa4509"),
                (212, "2021-03-03 17:04:23.420843 I | rafthttp: stopping peer 9035c191246d362c..."),
                (213, "2021-03-03 17:04:23.421311 I | rafthttp: closed the TCP streaming connection with peer 9035c191246d362c (stream MsgApp v2 writer)"),
                (214, "2021-03-03 17:04:23.421346 I | rafthttp: stopped streaming with peer 9035c191246d362c (writer)"),
                (215, "2021-03-03 17:04:23.421918 I | rafthttp: closed the TCP streaming connection with peer 9035c191246d362c (stream Message writer)"),
                (216, "2021-03-03 17:04:23.421951 I | rafthttp: stopped streaming with peer 9035c191246d362c (writer)"),
                (217, "2021-03-03 17:04:23.422194 W | rafthttp: rejected the stream from peer 9035c191246d362c since it was removed"),
                (218, "2021-03-03 17:04:23.422338 I | rafthttp: stopped HTTP pipelining with peer 9035c191246d362c"),
                (219, "2021-03-03 17:04:23.422612 W | rafthttp: lost the TCP streaming connection with peer 9035c191246d362c (stream MsgApp v2 reader)"),
                (220, "2021-03-03 17:04:23.422620 W | rafthttp: rejected the stream from peer 9035c191246d362c since it was removed"),
                (221, "2021-03-03 17:04:23.422657 E | rafthttp: failed to read 9035c191246d362c on stream MsgApp v2 (context canceled)"),
                (222, "2021-03-03 17:04:23.422667 I | rafthttp: peer 9035c191246d362c became inactive (message send to peer failed)"),
                (223, "2021-03-03 17:04:23.422679 I | rafthttp: stopped streaming with peer 9035c191246d362c (stream MsgApp v2 reader)"),
                (224, "2021-03-03 17:04:23.422729 W | rafthttp: lost the TCP streaming connection with peer 9035c191246d362c (stream Message reader)"),
                (225, "2021-03-03 17:04:23.422739 I | rafthttp: stopped streaming with peer 9035c191246d362c (stream Message reader)"),
                (226, "2021-03-03 17:04:23.422747 I | rafthttp: stopped peer 9035c191246d362c"),
                (227, "2021-03-03 17:04:23.422757 I | rafthttp: removed peer 9035c191246d362c"),
            ],
        },
        // 5. `member add node03 --learner`
        Block {
            at: At::Out(9, 9),
            quotes: &[
                (239, "Member aa9ac53bcb1de8c6 added to cluster 35d99f7f50aa4509"),
                (241, "ETCD-NAME=\"node03\""),
                (242, "ETCD-INITIAL-CLUSTER=\"node02=http://192.168.0.62:2380,node01=http://192.168.0.61:2380,node03=http://192.168.0.63:2380\""),
                (243, "ETCD-INITIAL-ADVERTISE-PEER-URLS=\"http://192.168.0.63:2380\""),
                (244, "ETCD-INITIAL-CLUSTER-STATE=\"existing\""),
            ],
        },
        // 5. the learner in `endpoint status`, promoted, a voter
        Block {
            at: At::Out(11, 11),
            quotes: &[
                (271, "+--------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+"),
                (272, "|         ENDPOINT         |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS |"),
                (273, "+--------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+"),
                (274, "| http://192.168.0.63:2379 | aa9ac53bcb1de8c6 |   3.4.0 |   20 kB |     false |       true |        36 |         10 |                 10 |        |"),
                (275, "| http://192.168.0.62:2379 | 341224f3422176dd |   3.4.0 |   20 kB |     false |      false |        36 |         10 |                 10 |        |"),
                (276, "| http://192.168.0.61:2379 | 4eee438bb97e1153 |   3.4.0 |   20 kB |      true |      false |        36 |         10 |                 10 |        |"),
                (277, "+--------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+"),
                (280, "Member aa9ac53bcb1de8c6 promoted in cluster 35d99f7f50aa450"),
                (282, "+--------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+"),
                (283, "|         ENDPOINT         |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS |"),
                (284, "+--------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+"),
                (285, "| http://192.168.0.63:2379 | aa9ac53bcb1de8c6 |   3.4.0 |   20 kB |     false |      false |        36 |         12 |                 12 |        |"),
                (286, "| http://192.168.0.62:2379 | 341224f3422176dd |   3.4.0 |   20 kB |     false |      false |        36 |         12 |                 12 |        |"),
                (287, "| http://192.168.0.61:2379 | 4eee438bb97e1153 |   3.4.0 |   20 kB |      true |      false |        36 |         12 |                 12 |        |"),
                (288, "+--------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+"),
            ],
        },
        // 5. node01's log: the learner unreachable, then connected and promoted
        Block {
            at: At::Log("node01", 9, 11),
            quotes: &[
                (296, "2021-03-06 13:41:09.130322 W | rafthttp: health check for peer aa9ac53bcb1de8c6 could not connect: dial tcp 192.168.0.63:2380: connect: connection refused"),
                (297, "2021-03-06 13:41:09.130381 W | rafthttp: health check for peer aa9ac53bcb1de8c6 could not connect: dial tcp 192.168.0.63:2380: connect: connection refused"),
                (298, "2021-03-06 13:41:09.786452 W | etcdserver: failed to reach the peerURL(http://192.168.0.63:2380) of member aa9ac53bcb1de8c6 (Get http://192.168.0.63:2380/version: dial tcp 192.168.0.63:2380: connect: connection refused)"),
                (299, "2021-03-06 13:41:09.786492 W | etcdserver: cannot get the version of member aa9ac53bcb1de8c6 (Get http://192.168.0.63:2380/version: dial tcp 192.168.0.63:2380: connect: connection refused)"),
                (300, "2021-03-06 13:41:13.787721 W | etcdserver: failed to reach the peerURL(http://192.168.0.63:2380) of member aa9ac53bcb1de8c6 (Get http://192.168.0.63:2380/version: dial tcp 192.168.0.63:2380: connect: connection refused)"),
                (301, "2021-03-06 13:41:13.787755 W | etcdserver: cannot get the version of member aa9ac53bcb1de8c6 (Get http://192.168.0.63:2380/version: dial tcp 192.168.0.63:2380: connect: connection refused)"),
                (302, "2021-03-06 13:41:14.130602 W | rafthttp: health check for peer aa9ac53bcb1de8c6 could not connect: dial tcp 192.168.0.63:2380: connect: connection refused"),
                (303, "2021-03-06 13:41:14.130679 W | rafthttp: health check for peer aa9ac53bcb1de8c6 could not connect: dial tcp 192.168.0.63:2380: connect: connection refused"),
                (305, "2021-03-06 13:41:25.492675 I | rafthttp: peer aa9ac53bcb1de8c6 became active"),
                (306, "2021-03-06 13:41:25.492718 I | rafthttp: established a TCP streaming connection with peer aa9ac53bcb1de8c6 (stream Message writer)"),
                (307, "2021-03-06 13:41:25.492901 I | rafthttp: established a TCP streaming connection with peer aa9ac53bcb1de8c6 (stream MsgApp v2 writer)"),
                (308, "2021-03-06 13:41:25.493739 I | rafthttp: established a TCP streaming connection with peer aa9ac53bcb1de8c6 (stream Message reader)"),
                (309, "2021-03-06 13:41:25.493797 I | rafthttp: established a TCP streaming connection with peer aa9ac53bcb1de8c6 (stream MsgApp v2 reader)"),
                (310, "raft2021/03/06 13:42:07 INFO: 4eee438bb97e1153 switched to configuration voters=(3752102066758186717 5687557646807077203) learners=(12293354993462667462)"),
                (311, "raft2021/03/06 13:42:15 INFO: 4eee438bb97e1153 switched to configuration voters=(3752102066758186717 5687557646807077203 12293354993462667462)"),
                (313, "2021-03-06 13:42:15.610651 N | etcdserver/membership: promote member aa9ac53bcb1de8c6 in cluster 35d99f7f50aa4509"),
            ],
        },
    ],
    real: &[
        Real { line: 43, real: &[T::L(r#"ETCD_NAME="node02""#)], why: ENV_UNDERSCORES },
        Real {
            line: 44,
            real: &[T::L(r#"ETCD_INITIAL_CLUSTER="node01=http://192.168.0.61:2380,node02=http://192.168.0.62:2380""#)],
            why: ENV_ORDER,
        },
        Real {
            line: 45,
            real: &[T::L(r#"ETCD_INITIAL_ADVERTISE_PEER_URLS="http://192.168.0.62:2380""#)],
            why: ENV_UNDERSCORES,
        },
        Real { line: 46, real: &[T::L(r#"ETCD_INITIAL_CLUSTER_STATE="existing""#)], why: ENV_UNDERSCORES },
        Real {
            line: 125,
            real: &[T::L("raft2021/03/03 16:28:49 INFO: 4eee438bb97e1153 is starting a new election at term 61")],
            why: TERM_62,
        },
        Real {
            line: 126,
            real: &[T::L("raft2021/03/03 16:28:49 INFO: 4eee438bb97e1153 became candidate at term 62")],
            why: TERM_62,
        },
        Real {
            line: 127,
            real: &[T::L("raft2021/03/03 16:28:49 INFO: 4eee438bb97e1153 received MsgVoteResp from 4eee438bb97e1153 at term 62")],
            why: TERM_62,
        },
        Real {
            line: 128,
            real: &[T::L("raft2021/03/03 16:28:49 INFO: 4eee438bb97e1153 [logterm: 2, index: 5] sent MsgVote request to 6d66440fb5660edc at term 62")],
            why: TERM_62,
        },
        Real {
            line: 129,
            real: &[T::L("raft2021/03/03 16:28:49 INFO: 4eee438bb97e1153 received MsgVoteResp from 6d66440fb5660edc at term 62")],
            why: TERM_62,
        },
        Real {
            line: 131,
            real: &[T::L("raft2021/03/03 16:28:49 INFO: 4eee438bb97e1153 became leader at term 62")],
            why: TERM_62,
        },
        Real {
            line: 132,
            real: &[T::L("raft2021/03/03 16:28:49 INFO: raft.node: 4eee438bb97e1153 elected leader 4eee438bb97e1153 at term 62")],
            why: "the document cut the line short (`at term 6`); the lesson's node01 is elected at term 62 (random election timeouts)",
        },
        Real {
            line: 149,
            real: &[T::L("| http://192.168.0.61:2379 | 4eee438bb97e1153 |  3.4.23 |   20 kB |      true |      false |        62 |          7 |                  7 |        |")],
            why: ROW_000,
        },
        Real {
            line: 150,
            real: &[T::L("| http://192.168.0.62:2379 | 6d66440fb5660edc |  3.4.23 |   20 kB |     false |      false |        62 |          7 |                  7 |        |")],
            why: ROW_000,
        },
        Real {
            line: 179,
            real: &[T::L("raft2021/03/03 16:29:00 INFO: 6d66440fb5660edc is starting a new election at term 62")],
            why: TERM_63,
        },
        Real {
            line: 180,
            real: &[T::L("raft2021/03/03 16:29:00 INFO: 6d66440fb5660edc became candidate at term 63")],
            why: TERM_63,
        },
        Real {
            line: 181,
            real: &[T::L("raft2021/03/03 16:29:00 INFO: 6d66440fb5660edc received MsgVoteResp from 6d66440fb5660edc at term 63")],
            why: TERM_63,
        },
        Real {
            line: 182,
            real: &[T::L("raft2021/03/03 16:29:00 INFO: 6d66440fb5660edc became leader at term 63")],
            why: TERM_63,
        },
        Real {
            line: 183,
            real: &[T::L("raft2021/03/03 16:29:00 INFO: raft.node: 6d66440fb5660edc changed leader from 4eee438bb97e1153 to 6d66440fb5660edc at term 63")],
            why: TERM_63,
        },
        Real {
            line: 198,
            real: &[T::L("| http://192.168.0.61:2379 | 4eee438bb97e1153 |  3.4.23 |   20 kB |      true |      false |         2 |          6 |                  6 |        |")],
            why: "version 3.4.23; and the lesson's fresh two-member cluster has had one election (term 2) and 6 entries, the document's had history (term 11)",
        },
        Real {
            line: 199,
            real: &[T::L("| http://192.168.0.62:2379 | 9885d7fd2cdc9cfb |  3.4.23 |   20 kB |     false |      false |         2 |          6 |                  6 |        |")],
            why: "version 3.4.23; and the lesson's fresh two-member cluster has had one election (term 2) and 6 entries, the document's had history (term 11)",
        },
        Real { line: 241, real: &[T::L(r#"ETCD_NAME="node03""#)], why: ENV_UNDERSCORES },
        Real {
            line: 242,
            real: &[T::L(r#"ETCD_INITIAL_CLUSTER="node01=http://192.168.0.61:2380,node03=http://192.168.0.63:2380,node02=http://192.168.0.62:2380""#)],
            why: ENV_ORDER,
        },
        Real {
            line: 243,
            real: &[T::L(r#"ETCD_INITIAL_ADVERTISE_PEER_URLS="http://192.168.0.63:2380""#)],
            why: ENV_UNDERSCORES,
        },
        Real { line: 244, real: &[T::L(r#"ETCD_INITIAL_CLUSTER_STATE="existing""#)], why: ENV_UNDERSCORES },
        Real {
            line: 274,
            real: &[T::L("| http://192.168.0.63:2379 | 907178cd988e15f3 |  3.4.23 |   20 kB |     false |       true |         2 |         11 |                 11 |        |")],
            why: ROW_000,
        },
        Real {
            line: 275,
            real: &[T::L("| http://192.168.0.62:2379 | e618a7383cf09f4e |  3.4.23 |   20 kB |     false |      false |         2 |         11 |                 11 |        |")],
            why: ROW_000,
        },
        Real {
            line: 276,
            real: &[T::L("| http://192.168.0.61:2379 | 4eee438bb97e1153 |  3.4.23 |   20 kB |      true |      false |         2 |         11 |                 11 |        |")],
            why: ROW_000,
        },
        Real {
            line: 285,
            real: &[T::L("| http://192.168.0.63:2379 | 907178cd988e15f3 |  3.4.23 |   20 kB |     false |      false |         2 |         12 |                 12 |        |")],
            why: ROW_000,
        },
        Real {
            line: 286,
            real: &[T::L("| http://192.168.0.62:2379 | e618a7383cf09f4e |  3.4.23 |   20 kB |     false |      false |         2 |         12 |                 12 |        |")],
            why: ROW_000,
        },
        Real {
            line: 287,
            real: &[T::L("| http://192.168.0.61:2379 | 4eee438bb97e1153 |  3.4.23 |   20 kB |      true |      false |         2 |         12 |                 12 |        |")],
            why: ROW_000,
        },
        Real {
            line: 298,
            real: &[T::L(r#"2021-03-03 16:29:32.506000 W | etcdserver: failed to reach the peerURL(http://192.168.0.63:2380) of member 907178cd988e15f3 (Get "http://192.168.0.63:2380/version": dial tcp 192.168.0.63:2380: connect: connection refused)"#)],
            why: GO_QUOTES,
        },
        Real {
            line: 299,
            real: &[T::L(r#"2021-03-03 16:29:32.506000 W | etcdserver: cannot get the version of member 907178cd988e15f3 (Get "http://192.168.0.63:2380/version": dial tcp 192.168.0.63:2380: connect: connection refused)"#)],
            why: GO_QUOTES,
        },
        Real {
            line: 300,
            real: &[T::L(r#"2021-03-03 16:29:36.506000 W | etcdserver: failed to reach the peerURL(http://192.168.0.63:2380) of member 907178cd988e15f3 (Get "http://192.168.0.63:2380/version": dial tcp 192.168.0.63:2380: connect: connection refused)"#)],
            why: GO_QUOTES,
        },
        Real {
            line: 301,
            real: &[T::L(r#"2021-03-03 16:29:36.506000 W | etcdserver: cannot get the version of member 907178cd988e15f3 (Get "http://192.168.0.63:2380/version": dial tcp 192.168.0.63:2380: connect: connection refused)"#)],
            why: GO_QUOTES,
        },
    ],
    cut: &[
        (72, "the document's excerpt begins mid-word: `N | etcdserver/membership: …`"),
        (118, "the document cut the line short: `connection refuse`"),
        (280, "the document cut the cluster ID short: `35d99f7f50aa450`"),
    ],
    any_order: &[274, 275, 276, 285, 286, 287],
    unmatched: &[],
};

#[test]
fn doc_000_quotes_appear_in_the_lesson_run() {
    run_quotes(&QUOTES_000);
}

// =================================================================================
// 002: runtime reconfiguration
// =================================================================================

const V2_LIST: &str = "the document shows etcdctl v2's `member list`; etcdctl v3 (3.4's \
     default API) prints `ID, status, name, peer URLs, client URLs, is learner`, here as \
     the lesson's `-w table` row of the same member (node0N on 127.0.0.N)";
const ADD_002: &str = "the document adds infra3 to infra0–2 on 10.0.1.x; the lesson adds node02 \
     to node01 on 127.0.0.x, and etcd 3.4.23 prints `Member ID added to cluster CID`, all \
     four variables, `\"existing\"` quoted";
const ENV_QUOTED: &str = "etcd 3.4.23 quotes the value: `ETCD_INITIAL_CLUSTER_STATE=\"existing\"`";
const REMOVED_EXIT: &str = "etcd 3.4.23 logs these two lines instead of `… Exiting.` \
     (transcript 05, lines 119–120 and 150–151)";

const QUOTES_002: Quotes = Quotes {
    doc: "002",
    lesson: "002-runtime-reconfiguration",
    ids: &[],
    blocks: &[
        // "To list all members with etcdctl"
        Block {
            at: At::Out(5, 5),
            quotes: &[
                (69, "6e3bd23ae5f1eae0: name=node2 peerURLs=http://localhost:23802 clientURLs=http://127.0.0.1:23792"),
                (70, "924e2e83e93f2560: name=node3 peerURLs=http://localhost:23803 clientURLs=http://127.0.0.1:23793"),
                (71, "a8266ecf031671f3: name=node1 peerURLs=http://localhost:23801 clientURLs=http://127.0.0.1:23791"),
            ],
        },
        // `member update`
        Block {
            at: At::Out(8, 8),
            quotes: &[(76, "Updated member with ID a8266ecf031671f3 in cluster")],
        },
        // `member remove`
        Block {
            at: At::Out(6, 6),
            quotes: &[(83, "Removed member a8266ecf031671f3 from cluster")],
        },
        // "The target member will stop itself at this point and print out the removal in the log"
        Block {
            at: At::Log("node03", 6, 6),
            quotes: &[(87, "etcd: this member has been permanently removed from the cluster. Exiting.")],
        },
        // `member add`
        Block {
            at: At::Out(1, 1),
            quotes: &[
                (101, "added member 9bf1b35fc7761a23 to cluster"),
                (103, "ETCD_NAME=\"infra3\""),
                (104, "ETCD_INITIAL_CLUSTER=\"infra0=http://10.0.1.10:2380,infra1=http://10.0.1.11:2380,infra2=http://10.0.1.12:2380,infra3=http://10.0.1.13:2380\""),
                (105, "ETCD_INITIAL_CLUSTER_STATE=existing"),
            ],
        },
        // `member add --learner`
        Block {
            at: At::Out(10, 10),
            quotes: &[
                (133, "Member 9bf1b35fc7761a23 added to cluster a7ef944b95711739"),
                (135, "ETCD_NAME=\"infra3\""),
                (136, "ETCD_INITIAL_CLUSTER=\"infra0=http://10.0.1.10:2380,infra1=http://10.0.1.11:2380,infra2=http://10.0.1.12:2380,infra3=http://10.0.1.13:2380\""),
                (137, "ETCD_INITIAL_CLUSTER_STATE=existing"),
            ],
        },
        // `member promote`
        Block {
            at: At::Out(11, 11),
            quotes: &[(142, "Member 9e29bbaa45d74461 promoted in cluster a7ef944b95711739")],
        },
        // "a new host is not included in the list of enumerated nodes"
        Block {
            at: At::Log("node03", 2, 2),
            quotes: &[(151, "etcdserver: assign ids error: the member count is unequal")],
        },
        Block {
            at: At::Exit("node03", 2),
            quotes: &[(152, "exit 1")],
        },
        // "give a different address (10.0.1.14:2380) from the one used to join"
        Block {
            at: At::Log("node04", 3, 3),
            quotes: &[(159, "etcdserver: assign ids error: unmatched member while checking PeerURLs")],
        },
        Block {
            at: At::Exit("node04", 3),
            quotes: &[(160, "exit 1")],
        },
        // "If etcd starts using the data directory of a removed member"
        Block {
            at: At::Log("node03", 7, 7),
            quotes: &[(165, "etcd: this member has been permanently removed from the cluster. Exiting.")],
        },
        Block {
            at: At::Exit("node03", 7),
            quotes: &[(166, "exit 1")],
        },
        // the error cases of learners, each its own example
        Block {
            at: At::Out(10, 10),
            quotes: &[(173, "Error: etcdserver: too many learner members in cluster")],
        },
        Block {
            at: At::Out(10, 10),
            quotes: &[(180, "Error: etcdserver: can only promote a learner member which is in sync with leader")],
        },
        Block {
            at: At::Out(10, 10),
            quotes: &[(185, "Error: etcdserver: can only promote a learner member")],
        },
        Block {
            at: At::Out(10, 10),
            quotes: &[(190, "Error: etcdserver: member not found")],
        },
    ],
    real: &[
        Real {
            line: 69,
            real: &[T::L("| 3f8a158212f196fc | started | node02 | http://127.0.0.2:2380 | http://127.0.0.2:2379 |      false |")],
            why: V2_LIST,
        },
        Real {
            line: 70,
            real: &[T::L("| 6f0f76f637bc9ea2 | started | node03 | http://127.0.0.3:2380 | http://127.0.0.3:2379 |      false |")],
            why: V2_LIST,
        },
        Real {
            line: 71,
            real: &[T::L("| b71f75320dc06a6c | started | node01 | http://127.0.0.1:2380 | http://127.0.0.1:2379 |      false |")],
            why: V2_LIST,
        },
        Real {
            line: 76,
            real: &[T::L("Member 3f8a158212f196fc updated in cluster 1c45a069f3a1d796")],
            why: "etcdctl v3's wording (transcript 05, line 178); the lesson updates node02's peer URL",
        },
        Real {
            line: 83,
            real: &[T::L("Member 6f0f76f637bc9ea2 removed from cluster 1c45a069f3a1d796")],
            why: "etcdctl v3's wording (transcript 05, line 115); the lesson removes node03",
        },
        Real {
            line: 87,
            real: &[
                T::L("2026-11-22 01:36:52.559770 E | etcdserver: the member has been permanently removed from the cluster"),
                T::L("2026-11-22 01:36:52.559788 I | etcdserver: the data-dir used by this member must be removed."),
            ],
            why: REMOVED_EXIT,
        },
        Real { line: 101, real: &[T::L("Member 3f8a158212f196fc added to cluster 1c45a069f3a1d796")], why: ADD_002 },
        Real { line: 103, real: &[T::L(r#"ETCD_NAME="node02""#)], why: ADD_002 },
        Real {
            line: 104,
            real: &[T::L(r#"ETCD_INITIAL_CLUSTER="node02=http://127.0.0.2:2380,node01=http://127.0.0.1:2380""#)],
            why: ADD_002,
        },
        Real { line: 105, real: &[T::L(r#"ETCD_INITIAL_CLUSTER_STATE="existing""#)], why: ENV_QUOTED },
        Real {
            line: 133,
            real: &[T::L("Member 3a97989fffc533ed added to cluster 1c45a069f3a1d796")],
            why: "the lesson's learner is node02, added to node01's one-member cluster (1c45a069f3a1d796); the document's cluster is infra0–2",
        },
        Real {
            line: 135,
            real: &[T::L(r#"ETCD_NAME="node02""#)],
            why: "the lesson's learner is node02",
        },
        Real {
            line: 136,
            real: &[T::L(r#"ETCD_INITIAL_CLUSTER="node02=http://127.0.0.2:2380,node01=http://127.0.0.1:2380""#)],
            why: "the lesson's learner is node02, added to node01's one-member cluster",
        },
        Real { line: 137, real: &[T::L(r#"ETCD_INITIAL_CLUSTER_STATE="existing""#)], why: ENV_QUOTED },
        Real {
            line: 142,
            real: &[T::L("Member 3a97989fffc533ed promoted in cluster 1c45a069f3a1d796")],
            why: "etcd prints the ID it promoted (the document's 9e29bbaa45d74461 is not the 9bf1b35fc7761a23 it promoted); transcript 04, line 213",
        },
        Real {
            line: 151,
            real: &[T::L("2026-11-22 01:36:25.692000 C | etcdmain: error validating peerURLs {ClusterID:1c45a069f3a1d796 Members:[&{ID:3f8a158212f196fc RaftAttributes:{PeerURLs:[http://127.0.0.2:2380] IsLearner:false} Attributes:{Name:node02 ClientURLs:[http://127.0.0.2:2379]}} &{ID:6f0f76f637bc9ea2 RaftAttributes:{PeerURLs:[http://127.0.0.3:2380] IsLearner:false} Attributes:{Name: ClientURLs:[]}} &{ID:b71f75320dc06a6c RaftAttributes:{PeerURLs:[http://127.0.0.1:2380] IsLearner:false} Attributes:{Name:node01 ClientURLs:[http://127.0.0.1:2379]}}] RemovedMemberIDs:[]}: member count is unequal")],
            why: "etcd 3.4.23 logs `C | etcdmain: error validating peerURLs {…}: member count is unequal` (transcript 05, line 50)",
        },
        Real {
            line: 159,
            real: &[T::L(r#"2026-11-22 01:36:25.692000 C | etcdmain: error validating peerURLs {ClusterID:1c45a069f3a1d796 Members:[&{ID:3f8a158212f196fc RaftAttributes:{PeerURLs:[http://127.0.0.2:2380] IsLearner:false} Attributes:{Name:node02 ClientURLs:[http://127.0.0.2:2379]}} &{ID:6f0f76f637bc9ea2 RaftAttributes:{PeerURLs:[http://127.0.0.3:2380] IsLearner:false} Attributes:{Name: ClientURLs:[]}} &{ID:b71f75320dc06a6c RaftAttributes:{PeerURLs:[http://127.0.0.1:2380] IsLearner:false} Attributes:{Name:node01 ClientURLs:[http://127.0.0.1:2379]}}] RemovedMemberIDs:[]}: PeerURLs: no match found for existing member (6f0f76f637bc9ea2, [http://127.0.0.3:2380]), last resolver error (resolved urls: "http://127.0.0.3:2380" != "http://127.0.0.4:2380")"#)],
            why: "etcd 3.4.23 logs `error validating peerURLs {…}: PeerURLs: no match found for existing member …` (transcript 05, line 64)",
        },
        Real {
            line: 165,
            real: &[
                T::L("2026-11-22 01:36:52.829642 E | etcdserver: the member has been permanently removed from the cluster"),
                T::L("2026-11-22 01:36:52.829663 I | etcdserver: the data-dir used by this member must be removed."),
            ],
            why: REMOVED_EXIT,
        },
        Real {
            line: 166,
            real: &[T::L("exit 0")],
            why: "etcd 3.4.23 exits with status 0 after logging its removal (transcript 05, line 147: `[exit=0]`)",
        },
    ],
    cut: &[],
    any_order: &[],
    unmatched: &[],
};

#[test]
fn doc_002_quotes_appear_in_the_lesson_run() {
    run_quotes(&QUOTES_002);
}

// =================================================================================
// 004: clustering step by step
// =================================================================================

const HOSTS_TAB: &str = "the playground's /etc/hosts separates address and name with a tab";
const HOSTS_MOVED: &str = "the lesson's URLs hold the addresses, so members come back at \
     their own address and /etc/hosts is never edited (lesson 004, steps 10 and 11)";

const QUOTES_004: Quotes = Quotes {
    doc: "004",
    lesson: "004-clustering-step-by-step",
    ids: &[],
    blocks: &[
        // Prerequisites: `cat /etc/hosts`
        Block {
            at: At::Out(1, 1),
            quotes: &[
                (18, "# Static table lookup for hostnames."),
                (19, "# See hosts(5) for details."),
                (20, "127.0.0.1 etcd-1"),
                (21, "127.0.0.2 etcd-2"),
                (22, "127.0.0.3 etcd-3"),
            ],
        },
        // The first instance: `put foo bar`
        Block {
            at: At::Out(1, 1),
            quotes: &[(58, "OK")],
        },
        // The second instance with both members, state new: cluster ID mismatch
        Block {
            at: At::Log("etcd-2", 3, 3),
            quotes: &[(101, r#"{"level":"warn","ts":"2023-06-17T21:26:46.212008-0700","caller":"rafthttp/stream.go:653","msg":"request sent was ignored by remote peer due to cluster ID mismatch","remote-peer-id":"a3959071884acd0c","remote-peer-cluster-id":"572a811fac16a854","local-member-id":"97ecdd3706cc2d90","local-member-cluster-id":"b2698d4259f33e40","error":"cluster ID mismatch"}"#)],
        },
        // `existing` without `member add`
        Block {
            at: At::Log("etcd-2", 4, 4),
            quotes: &[(120, r#"{"level":"fatal","ts":"2023-06-17T21:30:36.560232-0700","caller":"etcdmain/etcd.go:204","msg":"discovery failed","error":"error validating peerURLs {ClusterID:572a811fac16a854 Members:[&{ID:a3959071884acd0c RaftAttributes:{PeerURLs:[http://etcd-1:2380] IsLearner:false} Attributes:{Name:etcd-1 ClientURLs:[http://etcd-1:2379]}}] RemovedMemberIDs:[]}: member count is unequal","stacktrace":"go.etcd.io/etcd/server/v3/etcdmain.startEtcdOrProxyV2\n\tgo.etcd.io/etcd/server/v3/etcdmain/etcd.go:204\ngo.etcd.io/etcd/server/v3/etcdmain.Main\n\tgo.etcd.io/etcd/server/v3/etcdmain/main.go:40\nmain.main\n\tgo.etcd.io/etcd/server/v3/main.go:31\nruntime.main\n\truntime/proc.go:250"}"#)],
        },
        // `member list` of etcd-1: the lesson's last step runs the document's own URLs,
        // which give the document's ID (step 4 prints the same line with IP URLs)
        Block {
            at: At::Out(18, 18),
            quotes: &[(128, "a3959071884acd0c, started, etcd-1, http://etcd-1:2380, http://etcd-1:2379, false")],
        },
        // etcd-2 joined: `get foo`
        Block {
            at: At::Out(5, 5),
            quotes: &[(146, "foo"), (147, "bar")],
        },
        // etcd-3 joined: `get foo`
        Block {
            at: At::Out(6, 6),
            quotes: &[(164, "foo"), (165, "bar")],
        },
        // the static cluster's ID, through jq
        Block {
            at: At::Out(18, 18),
            quotes: &[(217, "1176270058202747400")],
        },
        // Minority failure with data: /etc/hosts moves etcd-1
        Block {
            at: At::Out(1, 18),
            quotes: &[
                (243, "# Static table lookup for hostnames."),
                (244, "# See hosts(5) for details."),
                (245, "127.0.0.4 etcd-1"),
                (246, "127.0.0.2 etcd-2"),
                (247, "127.0.0.3 etcd-3"),
            ],
        },
        // Minority failure without data: bootstrapped again
        Block {
            at: At::Log("etcd-1", 12, 12),
            quotes: &[(284, r#"{"level":"fatal","ts":"2023-06-18T13:16:48.878283-0700","caller":"etcdmain/etcd.go:204","msg":"discovery failed","error":"member a3959071884acd0c has already been bootstrapped","stacktrace":"go.etcd.io/etcd/server/v3/etcdmain.startEtcdOrProxyV2\n\tgo.etcd.io/etcd/server/v3/etcdmain/etcd.go:204\ngo.etcd.io/etcd/server/v3/etcdmain.Main\n\tgo.etcd.io/etcd/server/v3/etcdmain/main.go:40\nmain.main\n\tgo.etcd.io/etcd/server/v3/main.go:31\nruntime.main\n\truntime/proc.go:250"}"#)],
        },
        // Majority failure with data: /etc/hosts moves etcd-2 and etcd-3
        Block {
            at: At::Out(1, 18),
            quotes: &[
                (319, "# Static table lookup for hostnames."),
                (320, "# See hosts(5) for details."),
                (321, "127.0.0.4 etcd-1"),
                (322, "127.0.0.5 etcd-2"),
                (323, "127.0.0.6 etcd-3"),
            ],
        },
    ],
    real: &[
        Real { line: 20, real: &[T::L("127.0.0.1\tetcd-1")], why: HOSTS_TAB },
        Real { line: 21, real: &[T::L("127.0.0.2\tetcd-2")], why: HOSTS_TAB },
        Real { line: 22, real: &[T::L("127.0.0.3\tetcd-3")], why: HOSTS_TAB },
        Real {
            line: 101,
            real: &[T::L("2026-11-22 01:39:39.959519 E | rafthttp: request sent was ignored (cluster ID mismatch: peer[b71f75320dc06a6c]=1c45a069f3a1d796, local=e20c19704c51badd)")],
            why: "etcd 3.5's JSON; etcd 3.4.23 logs this capnslog line (transcript 06, line 45), with the IDs of the lesson's IP URLs (step 18, with the document's URLs, logs the document's IDs: checked by the test below)",
        },
        Real {
            line: 120,
            real: &[T::L("2026-11-22 01:39:51.520136 C | etcdmain: error validating peerURLs {ClusterID:1c45a069f3a1d796 Members:[&{ID:b71f75320dc06a6c RaftAttributes:{PeerURLs:[http://127.0.0.1:2380] IsLearner:false} Attributes:{Name:etcd-1 ClientURLs:[http://127.0.0.1:2379]}}] RemovedMemberIDs:[]}: member count is unequal")],
            why: "etcd 3.5's JSON `discovery failed`; etcd 3.4.23 logs this capnslog line (transcript 06, line 76), with the IDs and URLs of the lesson's IP URLs",
        },
        Real {
            line: 217,
            real: &[T::P(r#"{"header":{"cluster_id":1176270058202747494,"#)],
            why: "the document piped `member list -w json` through jq, which rounds the 64-bit ID to a float64 (SUMMARY.md of the transcripts); the lesson prints the JSON, whose cluster_id is 1176270058202747494",
        },
        Real {
            line: 284,
            real: &[T::L("2026-11-22 01:40:28.812455 C | etcdmain: member b71f75320dc06a6c has already been bootstrapped")],
            why: "etcd 3.5's JSON `discovery failed`; etcd 3.4.23 logs this capnslog line (transcript 06, line 320), with the ID of the lesson's IP URL",
        },
    ],
    cut: &[],
    any_order: &[],
    unmatched: &[
        (18, "the playground's /etc/hosts has no comment lines"),
        (19, "the playground's /etc/hosts has no comment lines"),
        (243, HOSTS_MOVED),
        (244, HOSTS_MOVED),
        (245, HOSTS_MOVED),
        (246, HOSTS_MOVED),
        (247, HOSTS_MOVED),
        (319, HOSTS_MOVED),
        (320, HOSTS_MOVED),
        (321, HOSTS_MOVED),
        (322, HOSTS_MOVED),
        (323, HOSTS_MOVED),
    ],
};

#[test]
fn doc_004_quotes_appear_in_the_lesson_run() {
    run_quotes(&QUOTES_004);
    // 101: with the document's own URLs (step 18), etcd 3.4.23's capnslog line carries
    // the IDs of the document's JSON line: remote peer a3959071884acd0c in
    // 572a811fac16a854, local cluster b2698d4259f33e40.
    let played = play("004", QUOTES_004.lesson);
    let want = "E | rafthttp: request sent was ignored (cluster ID mismatch: peer[a3959071884acd0c]=572a811fac16a854, local=b2698d4259f33e40)";
    let logs = played.log_lines("etcd-2", 18, 18);
    assert!(
        logs.iter().any(|(l, _)| normalise(l, &[]) == want),
        "004 line 101: etcd-2's log in lesson step 18 should hold `{want}`; its mismatch lines: {:?}",
        logs.iter()
            .filter(|(l, _)| l.contains("mismatch"))
            .take(3)
            .collect::<Vec<_>>()
    );
    // 79-82: `get foo` on the independent etcd-2 "gives nothing".
    let get = played
        .step(2)
        .commands
        .iter()
        .find(|c| c.echo.contains("get foo"))
        .expect("step 2 runs `get foo`");
    assert!(
        get.got.is_empty(),
        "004 line 82: `get foo` on etcd-2 gives nothing; the lesson's step 2 printed `{}`",
        get.got
    );
}

// =================================================================================
// Claims (001, 003)
// =================================================================================

/// A claim of a document, checked on the lesson's run: Ok with what the run
/// showed, Err with what it showed instead.
struct Claim {
    line: usize,
    /// Words of the document's line, to show the line number is right.
    quote: &'static str,
    says: &'static str,
    check: fn(&Played) -> Result<String, String>,
}

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

    fn prints(&self, n: usize, needle: &str, line: &str) -> Result<String, String> {
        self.prints_nth(n, needle, 0, line)
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

fn leader(name: &str) -> Check {
    Check::Leader {
        name: name.to_string(),
        line: 0,
    }
}

fn no_leader() -> Check {
    Check::NoLeader { line: 0 }
}

fn quorum_ok(ok: bool) -> Check {
    Check::Quorum { ok, line: 0 }
}

fn machine(name: &str, state: MachineState) -> Check {
    Check::Machine {
        machine: name.to_string(),
        state,
        line: 0,
    }
}

fn member(name: &str, state: MemberState) -> Check {
    Check::Member {
        name: name.to_string(),
        state,
        line: 0,
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

fn run_claims(
    doc: &'static str,
    lesson: &str,
    claims: &[Claim],
    not_checked: &[(usize, &str, &str)],
) {
    let played = play(doc, lesson);
    match document(doc) {
        Some(text) => {
            let lines = claims
                .iter()
                .map(|c| (c.line, c.quote))
                .chain(not_checked.iter().map(|n| (n.0, n.1)));
            for (l, quote) in lines {
                assert!(
                    text.get(l - 1).is_some_and(|t| t.contains(quote)),
                    "{doc} line {l} does not say `{quote}`: it is `{}`",
                    text.get(l - 1).map_or("", String::as_str)
                );
            }
        }
        None => println!("../shared/seeds/{doc}_*.txt not found: line numbers not verified"),
    }
    let mut failures = Vec::new();
    println!("{doc} ({lesson}): {} claims", claims.len());
    for c in claims {
        match (c.check)(&played) {
            Ok(evidence) => println!("  line {}: {}\n      ok: {evidence}", c.line, c.says),
            Err(e) => {
                println!("  line {}: {}\n      FAILED: {e}", c.line, c.says);
                failures.push(format!(
                    "{doc} line {}: {}\n    the run: {e}",
                    c.line, c.says
                ));
            }
        }
    }
    for (l, _, why) in not_checked {
        println!("  line {l}: not checked here: {why}");
    }
    assert!(
        failures.is_empty(),
        "{} claim(s) of document {doc} do not hold in the run of lesson {lesson}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// =================================================================================
// 001: the learner design
// =================================================================================

fn claims_001() -> Vec<Claim> {
    vec![
        Claim {
            line: 5,
            quote: "starts with no data",
            says: "figure 1: a newly joined member starts with no data and receives the leader's log until it catches up",
            check: |r| {
                let view = &r.step(6).view;
                let applied = |m: &str| {
                    view.machines
                        .iter()
                        .find(|x| x.name == m)
                        .and_then(|x| x.process.as_ref())
                        .map(|p| p.applied)
                };
                let (new, old) = (applied("node04"), applied("node01"));
                all(vec![
                    r.holds(6, machine("node04", MachineState::Follower)),
                    r.holds(6, member("node04", MemberState::Voter)),
                    if new.is_some() && new == old {
                        Ok(format!("node04 applied {new:?}, as the leader node01"))
                    } else {
                        Err(format!("node04 applied {new:?}, the leader node01 {old:?}"))
                    },
                ])
            },
        },
        Claim {
            line: 7,
            quote: "If the leader still maintains the active quorum",
            says: "figure 2: a follower cut off, the leader keeps the active quorum: the cluster keeps operating",
            check: |r| {
                all(vec![
                    r.prints(2, "put foo during-cut", "OK"),
                    r.holds(2, leader("node01")),
                    r.holds(2, quorum_ok(true)),
                    r.prints(2, "put foo from-minority", "Error: context deadline exceeded"),
                    r.prints(3, "get foo", "during-cut"),
                ])
            },
        },
        Claim {
            line: 9,
            quote: "it reverts back to follower",
            says: "figure 3: a leader cut off from the quorum reverts to follower, and the cluster's availability suffers",
            check: |r| {
                all(vec![
                    r.logged(4, "node01", &["stepped down to follower since quorum is not active"]),
                    r.prints(4, "put foo minority", "Error: context deadline exceeded"),
                    not(r.holds(4, leader("node01")), "node01 leads"),
                    r.holds(4, quorum_ok(true)),
                    r.prints(4, "put foo majority", "OK"),
                ])
            },
        },
        Claim {
            line: 11,
            quote: "the quorum size becomes 3",
            says: "a new node added to a 3-node cluster: the cluster size becomes 4 and the quorum 3",
            check: |r| r.sizes(6, 4, 0, 3),
        },
        Claim {
            line: 11,
            quote: "No leadership election happens",
            says: "figure 4: the new node in the leader's partition: the leader keeps its quorum of 3, no election happens, writes commit",
            check: |r| {
                // one election in the step: the bootstrap's; none after the partition
                let leaders: Vec<String> = r
                    .step_log(6)
                    .into_iter()
                    .filter(|(_, t)| t.contains(" became leader at term "))
                    .map(|(m, t)| format!("{m}: {t}"))
                    .collect();
                all(vec![
                    r.prints(6, "put foo three-of-four", "OK"),
                    r.holds(6, leader("node01")),
                    if leaders.len() == 1 && leaders[0].ends_with("became leader at term 2") {
                        Ok("the only `became leader` line of the step is the bootstrap's, at term 2".to_string())
                    } else {
                        Err(format!("`became leader` lines in step 6: {leaders:?}"))
                    },
                    match r.quorum(6).leader {
                        Some(l) if l.term == 2 => Ok("node01 still leads at term 2".to_string()),
                        other => Err(format!("the leader after step 6: {other:?}")),
                    },
                ])
            },
        },
        Claim {
            line: 13,
            quote: "neither of partition maintains the quorum of 3",
            says: "figure 5: split 2 and 2, neither side has the quorum of 3: a leader election happens, and no side wins",
            check: |r| {
                // after the split, the leader steps down and both sides campaign
                let lines = r.step_log(7);
                let down = lines
                    .iter()
                    .position(|(_, t)| t.contains("stepped down to follower since quorum is not active"));
                let campaigns = |side: [&str; 2]| {
                    let d = down?;
                    lines[d..]
                        .iter()
                        .find(|(m, t)| side.contains(m) && t.contains("became candidate"))
                        .map(|(m, t)| format!("{m}: {t}"))
                };
                let sides = (campaigns(["node01", "node02"]), campaigns(["node03", "node04"]));
                let elections = match (down, sides) {
                    (Some(d), (Some(a), Some(b))) => Ok(format!(
                        "`{}` ({}), then `{a}` and `{b}`",
                        lines[d].1, lines[d].0
                    )),
                    (d, (a, b)) => Err(format!(
                        "step 7's logs: step-down {:?}, campaigns after it {a:?} and {b:?}",
                        d.map(|d| lines[d])
                    )),
                };
                all(vec![
                    r.holds(7, no_leader()),
                    r.holds(7, quorum_ok(false)),
                    elections,
                    r.prints(7, "put foo side-a", "Error: context deadline exceeded"),
                    r.prints(7, "put foo side-b", "Error: context deadline exceeded"),
                ])
            },
        },
        Claim {
            line: 15,
            quote: "thus losing quorum and starting a new leadership election",
            says: "figure 6: a partition first, then an add: the quorum goes from 2 to 3 with only 2 of 4 active: quorum lost, a new election starts",
            check: |r| {
                all(vec![
                    r.prints(8, "member add node04", "Member ebf4ddf2f9b02498 added to cluster 66c24fee189d74e2"),
                    r.sizes(8, 4, 0, 3),
                    r.holds(8, no_leader()),
                    r.logged(8, "node01", &["added member ebf4ddf2f9b02498", "stepped down to follower since quorum is not active", "became candidate"]),
                    r.prints(8, "put foo after-add", "Error: context deadline exceeded"),
                ])
            },
        },
        Claim {
            line: 17,
            quote: "first to replace an unhealthy node",
            says: "member add can change the quorum size, so an unhealthy node is to be removed first: with one unreachable, etcd refuses a further add",
            check: |r| r.prints(8, "member add node05 --learner", "Error: etcdserver: unhealthy cluster"),
        },
        Claim {
            line: 18,
            quote: "immediately causing a leader election when the previous leader finds out quorum is not active",
            says: "figure 7: adding a member to a 1-node cluster makes the quorum 2, and the leader steps down once it finds the quorum not active",
            check: |r| {
                all(vec![
                    r.sizes(9, 2, 0, 2),
                    r.holds(9, member("node02", MemberState::Unstarted)),
                    r.logged(9, "node01", &["added member 18802c19c505034b", "stepped down to follower since quorum is not active", "became candidate"]),
                    r.holds(9, no_leader()),
                    r.prints(9, "put k1 v1", "Error: etcdserver: request timed out"),
                    r.prints(9, "member add node03", "Error: etcdserver: re-configuration failed due to not enough started members"),
                ])
            },
        },
        Claim {
            line: 18,
            quote: "is a 2-step process",
            says: "member add is 2 steps: once the new node's process starts, the cluster has its quorum again",
            check: |r| {
                all(vec![
                    r.holds(10, leader("node01")),
                    r.holds(10, quorum_ok(true)),
                    r.holds(10, machine("node02", MachineState::Follower)),
                    r.prints(10, "put k3 v3", "OK"),
                ])
            },
        },
        Claim {
            line: 20,
            quote: "is applied regardless of URL",
            says: "figure 8: member add is applied even with a wrong URL; the new etcd cannot start; the cluster loses quorum and the change cannot be reverted",
            check: |r| {
                all(vec![
                    r.prints(11, "member add node02", "Member b621ad8aed771a80 added to cluster 162832b26d39dfb8"),
                    r.holds(11, machine("node02", MachineState::Exited)),
                    r.logged(11, "node02", &["no match found for existing member (b621ad8aed771a80, [http://10.200.0.20:2380])"]),
                    r.holds(11, no_leader()),
                    r.prints(11, "put foo after", "Error: context deadline exceeded"),
                    r.prints(11, "member remove b621ad8aed771a80", "Error: context deadline exceeded"),
                ])
            },
        },
        Claim {
            line: 22,
            quote: "it requires at least 3 votes to change the cluster membership",
            says: "figure 9: 4 members, one misconfigured and one failed: 2 up need 3 votes, so the membership cannot change",
            check: |r| {
                all(vec![
                    r.sizes(13, 4, 0, 3),
                    r.prints(13, "put foo three-of-four", "OK"),
                    r.prints(14, "put foo two-of-four", "Error: context deadline exceeded"),
                    r.nth_cmd(14, "endpoint status", 0).and_then(|c| {
                        if c.got.contains("etcdserver: no leader") {
                            Ok("step 14 `endpoint status` says `etcdserver: no leader`".to_string())
                        } else {
                            Err(format!("step 14 `endpoint status` printed {:?}", c.got))
                        }
                    }),
                    r.prints(14, "member remove 13fb94a8272b6703", "Error: context deadline exceeded"),
                ])
            },
        },
        Claim {
            line: 24,
            quote: "etcd --force-new-cluster flag",
            says: "the way out of an inoperative cluster is to recreate it with --force-new-cluster",
            check: |r| {
                all(vec![
                    r.holds(12, leader("node01")),
                    r.prints(12, "member list", "df48869882b8cef9, started, node01, http://10.200.0.1:2380, http://10.200.0.1:2379, false"),
                    r.prints(12, "get foo", "before"),
                    r.holds(14, leader("node01")),
                    r.holds(14, quorum_ok(true)),
                    r.sizes(14, 1, 0, 1),
                    r.prints(14, "get foo", "three-of-four"),
                ])
            },
        },
        Claim {
            line: 28,
            quote: "joins cluster as a non-voting member but still receives all data from leader",
            says: "figure 10: member add --learner joins a non-voting member (the quorum does not change) that still receives all data",
            check: |r| {
                all(vec![
                    r.prints(15, "member add node02 --learner", "Member 1a993f5a4c86eb24 added to cluster 1c45a069f3a1d796"),
                    r.sizes(15, 1, 1, 1),
                    r.prints(15, "put k1 v1", "OK"),
                    r.prints(17, "endpoint status --cluster", "| http://127.0.0.2:2379 | 1a993f5a4c86eb24 |  3.4.23 |   20 kB |     false |       true |         2 |         11 |                 11 |        |"),
                    r.prints(17, "endpoint status --cluster", "| http://127.0.0.1:2379 | b71f75320dc06a6c |  3.4.23 |   20 kB |      true |      false |         2 |         11 |                 11 |        |"),
                    r.prints(17, "get k1 --consistency=s", "v1"),
                ])
            },
        },
        Claim {
            line: 30,
            quote: "which then counts towards the quorum",
            says: "figure 11: a learner that caught up is promoted with member promote, and then counts towards the quorum",
            check: |r| {
                all(vec![
                    r.prints(19, "member promote 1a993f5a4c86eb24", "Member 1a993f5a4c86eb24 promoted in cluster 1c45a069f3a1d796"),
                    r.sizes(19, 2, 0, 2),
                    r.holds(19, member("node02", MemberState::Voter)),
                    r.prints(19, "put k3 v3", "OK"),
                ])
            },
        },
        Claim {
            line: 32,
            quote: "Only after its log has caught up to leader",
            says: "figure 12: only a learner whose log caught up with the leader's can be promoted",
            check: |r| {
                all(vec![
                    r.prints(16, "member promote 1a993f5a4c86eb24", "Error: etcdserver: can only promote a learner member which is in sync with leader"),
                    r.prints(21, "10.200.0.2:2379 member promote", "Error: etcdserver: can only promote a learner member which is in sync with leader"),
                    r.prints(21, "10.200.0.1:2379 member promote", "Error: etcdserver: can only promote a learner member which is in sync with leader"),
                    r.prints_nth(21, "member promote f6467d951156c0f", 2, "Member  f6467d951156c0f promoted in cluster d5aec513bd96f809"),
                    r.holds(21, member("node03", MemberState::Voter)),
                ])
            },
        },
        Claim {
            line: 34,
            quote: "Leadership cannot be transferred to learner",
            says: "figure 13: leadership cannot be transferred to a learner",
            check: |r| {
                all(vec![
                    r.prints(18, "move-leader 1a993f5a4c86eb24", "Error: etcdserver: bad leader transferee"),
                    r.holds(18, leader("node01")),
                    r.holds(18, machine("node02", MachineState::Learner)),
                ])
            },
        },
        Claim {
            line: 34,
            quote: "Learner rejects client reads and writes",
            says: "a learner rejects client reads and writes",
            check: |r| {
                all(vec![
                    r.prints(17, "put k2 v2", "Error: etcdserver: rpc not supported for learner"),
                    r.prints(17, "127.0.0.2:2379 get foo", "Error: etcdserver: rpc not supported for learner"),
                    r.prints(17, "del foo", "Error: etcdserver: rpc not supported for learner"),
                ])
            },
        },
        Claim {
            line: 36,
            quote: "etcd limits the total number of learners",
            says: "etcd limits the number of learners a cluster can have",
            check: |r| {
                all(vec![
                    r.prints(16, "member add node03 --learner", "Error: etcdserver: too many learner members in cluster"),
                    r.holds(16, member("node03", MemberState::Absent)),
                    r.sizes(16, 1, 1, 1),
                ])
            },
        },
        Claim {
            line: 36,
            quote: "Learner never promotes itself",
            says: "a learner never promotes itself",
            check: |r| {
                // in sync since step 17, still a learner after step 18's 6 s
                all(vec![
                    r.holds(18, member("node02", MemberState::Learner)),
                    r.never_logged(17, 18, "node01", "promote member"),
                ])
            },
        },
        Claim {
            line: 46,
            quote: "This learner node can neither vote nor count as quorum",
            says: "a learner can neither vote nor count towards the quorum",
            check: |r| {
                all(vec![
                    r.sizes(20, 2, 1, 2),
                    r.holds(20, leader("node02")),
                    r.holds(20, machine("node03", MachineState::Learner)),
                    r.prints(20, "put foo v20", "OK"),
                    r.never_logged(20, 21, "node03", "became candidate"),
                    r.never_logged(20, 21, "node03", "cast MsgVote"),
                ])
            },
        },
        Claim {
            line: 47,
            quote: "learner rejects all requests other than serializable read and member status API",
            says: "a learner rejects all requests other than serializable reads and the member status API",
            check: |r| {
                all(vec![
                    r.prints(17, "get foo --consistency=s", "bar"),
                    r.prints(17, "127.0.0.2:2379 endpoint status", "| http://127.0.0.2:2379 | 1a993f5a4c86eb24 |  3.4.23 |   20 kB |     false |       true |         2 |         11 |                 11 |        |"),
                    r.prints(17, "127.0.0.2:2379 member add node03", "Error: etcdserver: rpc not supported for learner"),
                    r.prints(17, "127.0.0.2:2379 member promote", "Error: etcdserver: rpc not supported for learner"),
                    // etcd 3.4.23 refuses `member list` on a learner as well (lesson 001 step 17)
                    r.prints(17, "127.0.0.2:2379 member list", "Error: etcdserver: rpc not supported for learner"),
                ])
            },
        },
        Claim {
            line: 48,
            quote: "MemberList and MemberStatus responses should indicate which node is learner",
            says: "MemberList and MemberStatus responses indicate which node is a learner",
            check: |r| {
                all(vec![
                    r.prints(15, "member list -w table", "| 1a993f5a4c86eb24 | unstarted |        | http://127.0.0.2:2380 |                       |       true |"),
                    r.prints_nth(15, "member list", 1, "1a993f5a4c86eb24, unstarted, , http://127.0.0.2:2380, , true"),
                    r.prints(20, "member list", "f6467d951156c0f, started, node03, http://10.200.0.3:2380, http://10.200.0.3:2379, true"),
                ])
            },
        },
        Claim {
            line: 50,
            quote: "Only accept promote request if and only if",
            says: "a promote request is accepted only while the learner is in sync with the leader (behind, it is rejected; caught up, accepted)",
            check: |r| {
                all(vec![
                    r.prints(21, "10.200.0.2:2379 member promote", "Error: etcdserver: can only promote a learner member which is in sync with leader"),
                    r.prints(21, "get foo --consistency=s", "v0"),
                    r.prints_nth(21, "get foo --consistency=s", 1, "v20"),
                    r.prints_nth(21, "member promote f6467d951156c0f", 2, "Member  f6467d951156c0f promoted in cluster d5aec513bd96f809"),
                    r.sizes(21, 3, 0, 2),
                ])
            },
        },
    ]
}

#[test]
fn doc_001_claims_hold_in_the_lesson_run() {
    run_claims(
        "001",
        "001-learner-design",
        &claims_001(),
        &[
            (5, "more vulnerable to leader election", "figure 1's leader overload (dropped heartbeats, elections while a new member catches up) needs a network with limited bandwidth; the playground's has none (lesson 001 step 6 says so)"),
            (38, "Make learner state only and default", "proposed for future releases, not in etcd 3.4"),
            (43, "mirror maker", "mirror maker is not part of the playground"),
        ],
    );
}

// =================================================================================
// 003: two nodes with a learner standby
// =================================================================================

fn claims_003() -> Vec<Claim> {
    vec![
        Claim {
            line: 5,
            quote: "Create a 1 node etcd-cluster on Host #1",
            says: "a 1-node etcd cluster on host #1",
            check: |r| {
                all(vec![
                    r.holds(1, leader("node01")),
                    r.holds(1, quorum_ok(true)),
                    r.sizes(1, 1, 0, 1),
                ])
            },
        },
        Claim {
            line: 24,
            quote: "Run the etcd script manually on the backup node",
            says: "steps 8 and 9: run etcd on the backup node before step 10's member add (etcd 3.4 refuses: the cluster has one member, --initial-cluster two)",
            check: |r| {
                all(vec![
                    r.holds(2, machine("node02", MachineState::Exited)),
                    r.logged(2, "node02", &["]}: member count is unequal"]),
                    r.holds(2, member("node02", MemberState::Absent)),
                ])
            },
        },
        Claim {
            line: 26,
            quote: "to add the new node in Learner Mode",
            says: "step 10: member add --learner adds the backup node in learner mode",
            check: |r| {
                all(vec![
                    r.prints(3, "member add node02 --learner", "Member 1d1e262771ab266d added to cluster 1c45a069f3a1d796"),
                    r.holds(3, machine("node02", MachineState::Learner)),
                    r.holds(3, member("node02", MemberState::Learner)),
                ])
            },
        },
        Claim {
            line: 11,
            quote: "does not vote, cannot serve as leader, and is not part of quorum",
            says: "in learner mode a node does not vote and is not part of the quorum; it just receives updates",
            check: |r| {
                all(vec![
                    r.sizes(4, 1, 1, 1),
                    r.prints(4, "endpoint status --cluster", "| http://127.0.0.2:2379 | 1d1e262771ab266d |  3.4.23 |   20 kB |     false |       true |         2 |          8 |                  8 |        |"),
                    r.prints(4, "endpoint status --cluster", "| http://127.0.0.1:2379 | b71f75320dc06a6c |  3.4.23 |   20 kB |      true |      false |         2 |          8 |                  8 |        |"),
                    r.prints(4, "get app/config --consistency=s", "v1"),
                ])
            },
        },
        Claim {
            line: 13,
            quote: "A node can be left in Learner Mode permanently",
            says: "a node can be left in learner mode permanently (it is not promoted by itself)",
            check: |r| {
                all(vec![
                    r.holds(4, member("node02", MemberState::Learner)),
                    r.never_logged(3, 4, "node01", "promote member"),
                ])
            },
        },
        Claim {
            line: 33,
            quote: "Shut down main node",
            says: "failover step 1, shut down the main node: etcd 3.4 has no leader and no quorum left, and the learner stays a learner",
            check: |r| {
                all(vec![
                    r.holds(5, machine("node01", MachineState::Stopped)),
                    r.holds(5, no_leader()),
                    r.holds(5, quorum_ok(false)),
                    r.holds(5, machine("node02", MachineState::Learner)),
                    r.never_logged(5, 7, "node02", "became candidate"),
                    r.prints(5, "endpoint status", "| http://127.0.0.2:2379 | 1d1e262771ab266d |  3.4.23 |   20 kB |     false |       true |         2 |          8 |                  8 |        |"),
                ])
            },
        },
        Claim {
            line: 11,
            quote: "cannot serve as leader",
            says: "the learner cannot serve as leader (and with the voter gone, it only serves serializable reads; transcript 07, 7.2)",
            check: |r| {
                all(vec![
                    r.prints(6, "put app/config v2", "Error: etcdserver: rpc not supported for learner"),
                    r.prints(6, "get app/config --consistency=s", "v1"),
                    r.prints(6, "get app --prefix --consistency=s", "ok"),
                    r.prints(6, "member list", "Error: etcdserver: rpc not supported for learner"),
                    r.prints(7, "move-leader", "Error: no leader endpoint given at [http://127.0.0.2:2379]"),
                    r.holds(7, no_leader()),
                ])
            },
        },
        Claim {
            line: 34,
            quote: "Remove backup node from cluster",
            says: "failover step 2, remove the backup node from the cluster: etcd 3.4 refuses (the learner cannot, the dead voter cannot answer; transcript 07, 7.2 and 7.2b)",
            check: |r| {
                all(vec![
                    r.prints(7, "member remove 1d1e262771ab266d", "Error: etcdserver: rpc not supported for learner"),
                    r.prints(7, "member remove b71f75320dc06a6c", "Error: etcdserver: rpc not supported for learner"),
                    r.prints(7, "127.0.0.1:2379 member promote", "Error: context deadline exceeded"),
                    r.holds(7, member("node02", MemberState::Learner)),
                ])
            },
        },
        Claim {
            line: 35,
            quote: "Re add backup node to cluster, without Learner Mode",
            says: "failover step 3, re-add the backup node without learner mode: etcd 3.4 refuses (transcript 07, 7.2)",
            check: |r| {
                all(vec![
                    r.prints(7, "member add node02b", "Error: etcdserver: rpc not supported for learner"),
                    r.prints(7, "127.0.0.2:2379 member promote", "Error: etcdserver: rpc not supported for learner"),
                    r.holds(7, machine("node02", MachineState::Learner)),
                ])
            },
        },
        Claim {
            line: 13,
            quote: "the new joiner can be started in normal mode and take over",
            says: "the joiner 'started in normal mode' to take over: with --force-new-cluster on the learner's data, etcd 3.4.23 panics (transcript 07, 7.3)",
            check: |r| {
                all(vec![
                    r.holds(8, machine("node02", MachineState::Exited)),
                    r.logged(8, "node02", &["panic: removed all voters"]),
                    r.prints(8, "put app/config v2", "Error: context deadline exceeded"),
                ])
            },
        },
        Claim {
            line: 36,
            quote: "Test former backup node as new main node",
            says: "failover step 4, test the former backup as the new main node: it works once the learner's data is restored as a new one-member cluster (transcript 07, 7.4b)",
            check: |r| {
                all(vec![
                    r.prints(9, "snapshot restore", "Error: snapshot missing hash but --skip-hash-check=false"),
                    r.holds(10, leader("node02")),
                    r.holds(10, quorum_ok(true)),
                    r.sizes(10, 1, 0, 1),
                    r.prints(10, "member list -w table", "| 23284278a2d8a0e6 | started | node02 | http://127.0.0.2:2380 | http://127.0.0.2:2379 |      false |"),
                    r.prints(10, "get app --prefix", "v1"),
                    r.prints(10, "get app --prefix", "ok"),
                    r.prints(10, "put app/config v2", "OK"),
                    r.prints(10, "get app/config", "v2"),
                ])
            },
        },
    ]
}

#[test]
fn doc_003_claims_hold_in_the_lesson_run() {
    run_claims(
        "003",
        "003-two-nodes-learner-standby",
        &claims_003(),
        &[
            (3, "etcd only works with 2 nodes if both nodes are active", "a two-voter cluster only works while both are active: lesson 003 has one voter; lesson 002 step 14 and lesson 001 step 9 show it"),
            (17, "Get IPs / hostnames and SSH keys", "steps 1 to 6 (SSH keys, a startup script copied with scp, systemd) have no counterpart in the playground: the `etcd` command is typed directly"),
        ],
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
