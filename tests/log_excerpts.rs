#![cfg(not(target_arch = "wasm32"))]
//! Server logs against real etcd's: every log excerpt of the real etcd 3.4.23
//! transcripts (`../shared/reference/transcripts/`, or `QP_REFERENCE_TRANSCRIPTS`)
//! must appear, line by line and in order, in the log the playground's server on
//! the same machine wrote while the scenario's script (`tests/scripts/`) ran.
//!
//! # How
//!
//! An excerpt is a block between `----- <title> -----` and `----- end … -----` (or
//! the next blank line); the title names the log file (`node01.log`,
//! `cut-node02.log`, `etcd-2 log …`), whose machine is the member of that name.
//! Both sides are normalised, and only for:
//!
//! * time stamps: the recorder's `HH:MM:SS.mmm| ` receive-time prefix, capnslog's
//!   `YYYY-MM-DD HH:MM:SS.ffffff` and raft's `raftYYYY/MM/DD HH:MM:SS`;
//! * runtime IDs: members added at runtime (`Member X added to cluster …` in the
//!   commands' output, paired in order on both sides; hex and decimal), and the
//!   ephemeral client port of a TCP connection (`10.200.0.1:58094->`).
//!
//! Each excerpt must be a subsequence of its machine's whole log (the longest
//! common subsequence is taken, so one early false match cannot hide the rest).
//! A line that is missing fails the test unless it matches an entry of
//! [`UNREPEATABLE`]: lines a real run does not print the same way twice, each
//! with its reason and the evidence (`tests/reference-run-b/`, second real runs).
//! `cargo test --release --test log_excerpts -- --nocapture` prints every
//! excerpt's score and each missing line.
//!
//! # etcd 3.5.1
//!
//! The 3.5.1 recordings (`tests/reference-run-b/3.5/`, scripts in
//! `tests/scripts/3.5/`) run with `--etcd-version 3.5` and seed 25 (as
//! `tests/transcripts.rs` runs them) and are checked the same way. Their logs
//! are zap JSON, so besides the above, and only for these, a line is normalised
//! ([`normalise_zap`]): the `"ts"` stamp; the wall-clock measurements real etcd
//! takes of itself (`"took"`, a request's `"start time"` and `"time spent"`, a
//! trace's ID, `"start"`, `"end"`, `"duration"` and steps' durations, a
//! prober's last `"rtt"`), Go's `WARNING: YYYY/MM/DD HH:MM:SS` stamp of grpc's
//! lines, the client's ephemeral port in `"remote"`, and `"sent-request-id"`
//! (3.4's `sent-request-id: N`). A zap line of raft (`"logger":"raft"`) is
//! checked as its capnslog text (`raft INFO: …`) is: the same sources and
//! excuses apply to its message ([`raft_view`]). A scenario not yet at the 3.4
//! bar (no line missing) is held to the number of lines it misses today (a
//! ratchet, as `tests/transcripts.rs`'s 3.5 floors were), each cause listed at
//! [`V35_SCENARIOS`].
//!
//! The data is `../shared/` (CI always has it): without a transcript or seed
//! 000's document the tests fail, they never skip, and a transcript with no
//! excerpt fails too.
mod common;
use common::{added_ids, re};
use std::collections::BTreeMap;
use std::path::PathBuf;

use quorum_playground::shell::parse::parse_script;
use quorum_playground::shell::runner::run_one;
use quorum_playground::shell::session::Session;
use quorum_playground::sim::etcd::version::EtcdVersion;
use regex::Regex;

/// Lines real etcd does not print the same way twice, as (scope, pattern of the
/// normalised line, why). A missing line that matches one is excused only if
/// the playground printed a line of the same pattern (the same kind of event,
/// another count or order): on the same machine (`*`), on any machine of the
/// run (`RUN`), or not at all (`ANY`: the event may not happen).
/// Evidence: `tests/reference-run-b/` (second real runs) and its
/// `EXCERPT-VARIANCE.md`, and `tests/reference-run-b/probe-*.log` (fresh real
/// runs of one and three members, restarted and stopped).
const UNREPEATABLE: &[(&str, &str, &str)] = &[
    (
        "*",
        r"read-only range request .* took too long \(.*\) to execute",
        "the duration is the client's deadline as the server measured it, and whether the \
         server sees `context canceled` or `context deadline exceeded` is a race with the \
         client (02 prints both for the same kind of request, lines 169 and 200)",
    ),
    (
        "*",
        r"failed to dial \S+ on stream (Message|MsgApp v2) \(the member has been permanently removed from the cluster\)",
        "which of the two stream readers redials first and ends the active status is a \
         race (03 line 56 names stream Message, line 167 stream MsgApp v2)",
    ),
    (
        "*",
        r"rafthttp: (stopping peer \S+\.\.\.|stopped HTTP pipelining with peer \S+|stopped peer \S+)$",
        "a stopping server stops its peers by walking a Go map, in random order (05 line \
         162 and tests/reference-run-b/05)",
    ),
    (
        "*",
        r"rafthttp: rejected the stream from peer \S+ since it was removed",
        "one line per redial of the removed member's readers: 6 in 05's run A, 1 in run B",
    ),
    (
        "*",
        r"added member \S+ \[.*\] to cluster \S+ from store",
        "the member table recovered from a snapshot is a Go map: 06 prints the same three \
         members in two orders (lines 431 and 465)",
    ),
    (
        "ANY",
        r"etcdserver: (publish error: etcdserver: request cancelled|aborting publish because server is stopped)",
        "a removed member restarting may or may not get to publish before it stops: 3 \
         errors in 05's run A, none in run B",
    ),
    (
        "RUN",
        r"rafthttp: failed to dial \S+ on stream \S+( v2)? \(dial tcp \S+: i/o timeout\)",
        "a reader's dial still in flight when a link heals fails at its timeout only if \
         its SYN retry fell inside the cut; how many do is a phase race: 1, 4, 2 of them \
         in 09-02, 09-04, 09-05's run A against 4, 2, 3 in run B",
    ),
    (
        "*",
        r"etcdserver: not healthy for reconfigure, rejecting member add",
        "one line per rejected attempt of a retry loop: the first attempt that passes the \
         5-second rule depends on when the streams reconnect after the heal (attempt 12 in \
         09-01's run A, 11 in run B)",
    ),
    (
        "ANY",
        r"(ignored a MsgVote message with lower term from|lease is not expired)",
        "a vote request from a member whose term fell behind, or one that arrives while \
         the receiver still hears a leader: whether any comes depends on who campaigns \
         when; 09-02's run A has 2 and 1 of them, run B none; 09-03 1 and 0 leases",
    ),
    (
        "ANY",
        r"ignored a Msg(HeartbeatResp|AppResp) message with lower term from",
        "a response that was in flight across a term change: 09-01's run A logged one, \
         run B none",
    ),
    (
        "ANY",
        r"as single-node; fast-forwarding 9 ticks",
        "after a restart, adjustTicks races with the replay of the first member: 07's \
         forced restart printed it, a fresh real one-member restart and 07's run B did not \
         (tests/reference-run-b/probe-restart.log)",
    ),
    (
        "ANY",
        r#""msg":"started as single-node; fast-forwarding election ticks""#,
        "3.5.1's form of the line above, the same race (adjustTicks counts the voting \
         members before the WAL's conf changes are replayed; etcdserver/server.go:728 at \
         v3.5.1): in 3.5's 10, node01's restart into a three-member cluster printed it, \
         node02's and node03's restarts into the same cluster did not",
    ),
];

macro_rules! scenario_tests {
    ($($test:ident => $name:literal,)*) => {
        $(
            #[test]
            fn $test() {
                check_scenario($name);
            }
        )*
    };
}

scenario_tests! {
    s01_single_node => "01-single-node",
    s02_add_voter_quorum_loss => "02-add-voter-quorum-loss",
    s03_remove_leader_follower => "03-remove-leader-follower",
    s04_learner => "04-learner",
    s05_reconfig_errors => "05-reconfig-errors",
    s06_clustering_step_by_step => "06-clustering-step-by-step",
    s07_learner_standby_failover => "07-learner-standby-failover",
    s09_01_leader_isolated => "09-partitions-01-leader-isolated",
    s09_02_follower_isolated => "09-partitions-02-follower-isolated",
    s09_03_four_members => "09-partitions-03-four-members",
    s09_04_one_way => "09-partitions-04-one-way",
    s09_05_learner => "09-partitions-05-learner",
    s09_06_client_timeouts => "09-partitions-06-client-timeouts",
}

/// The etcd 3.5.1 scenarios, each with the number of its excerpts' lines the
/// playground may miss (not excused): 0 is the 3.4 bar; more is today's count,
/// a ratchet, its causes in the comment above the scenario.
macro_rules! scenario_tests_35 {
    ($($test:ident => $name:literal misses $allowed:literal,)*) => {
        /// The 3.5.1 scenarios checked, with the misses each is held to.
        const V35_SCENARIOS: &[(&str, usize)] = &[$(($name, $allowed),)*];
        $(
            #[test]
            fn $test() {
                check(&V3_5, $name, $allowed);
            }
        )*
    };
}

// The causes of the lines still missing, by kind (each is the simulation's:
// none is a race of real etcd's; 0 is the 3.4 bar):
// * REQ: 3.5.1 logs a slow request itself: `request stats`
//   (v3rpc/interceptor.go:197), its `trace[…]` (traceutil/trace.go:171),
//   `apply request took too long` with the deadline's error, grpc's
//   `transport is closing` warning, `timed out waiting for read index
//   response` and `first commit in current term: resending ReadIndex request`
//   (etcdserver/v3_server.go:807, :827); the simulated server logs none of
//   them (src/sim/etcd/server.rs, not its log format).
// * CONF: the member that serves a `member add/remove/update/promote` logs
//   `applied a configuration change through raft` (etcdserver/server.go:1905)
//   once it is applied; the simulated server does not log it.
// * URLS: `removed member` names the removed member's peer URLs
//   (membership/cluster.go:472 reads them before the delete); zapfmt takes them
//   from the transport's peers (`ZapCtx::peers`), which no longer (or never:
//   the local member) hold it, so it prints `[]`.
// * CVER: the proposer's `cluster version is updated` (etcdserver/server.go:2500)
//   once its cluster version proposal returns: zapfmt writes it when the
//   proposal and its apply fall in one batch of the server's lines; one that
//   commits in a later step goes without it (no scenario below meets it now).
// * VOTE: under cut links real etcd's pre-vote exchanges went another way
//   (`rejected MsgPreVote` from a member whose log is behind, `rejected
//   MsgVote`, `found conflict`/`replace the unstable entries`), which no
//   member of the playground's run logged at all (so no election excuse).
// * REMOVAL: a removed member's last stream handlers (`failed to find remote
//   peer in cluster`, `failed to process Raft message`, `stopped HTTP
//   pipelining`), `stopped publish because server is stopped`.
// * MISMATCH (06): the simulated `request cluster ID mismatch` names 3.4.23 as
//   both servers' versions and no `remote-peer-server-name`; `request sent was
//   ignored due to cluster ID mismatch` (rafthttp/util.go:99, an error with a
//   stack) is not logged; `recovered v2 store from snapshot` sizes the store
//   7.6 kB in real etcd, 20 kB here.
// * PARTITION (09-01, 09-03): `dropped internal Raft message since sending
//   buffer is full` to the never-started learner, the version monitor's `no
//   route to host` to it, and the add-node excerpts of a `member add` that real
//   etcd's leader took and the playground's (another leader after the cut)
//   refused.
scenario_tests_35! {
    v35_s01_single_node => "01-single-node" misses 0,
    // REQ 32, CONF 1
    v35_s02_add_voter_quorum_loss => "02-add-voter-quorum-loss" misses 33,
    // URLS 3, REMOVAL 4, CONF 1
    v35_s03_remove_leader_follower => "03-remove-leader-follower" misses 8,
    // CONF 4
    v35_s04_learner => "04-learner" misses 4,
    // URLS 2, REMOVAL 1, CONF 1
    v35_s05_reconfig_errors => "05-reconfig-errors" misses 4,
    // MISMATCH 2, URLS 2, `recovered v3 backend from snapshot` and two
    // `added remote peer` of the forced restart in another order
    v35_s06_clustering_step_by_step => "06-clustering-step-by-step" misses 7,
    v35_s07_learner_standby_failover => "07-learner-standby-failover" misses 0,
    // PARTITION, REQ, CONF, VOTE
    v35_s09_01_leader_isolated => "09-partitions-01-leader-isolated" misses 65,
    v35_s09_02_follower_isolated => "09-partitions-02-follower-isolated" misses 0,
    // CONF 4, REQ 2, and the `member add`s after the cut that the playground's
    // leader (another member: the election) took or refused otherwise
    // (`rejecting member add request`, `no leader at term 2; dropping index
    // reading msg`): 13; and one pre-vote rejection that the playground's
    // retransmission brings after the excerpt's window (the link heartbeats'
    // stalls): 14
    v35_s09_03_four_members => "09-partitions-03-four-members" misses 14,
    v35_s09_04_one_way => "09-partitions-04-one-way" misses 0,
    // CONF 1 (`applied a configuration change through raft`)
    v35_s09_05_learner => "09-partitions-05-learner" misses 1,
    // REQ 2
    v35_s09_06_client_timeouts => "09-partitions-06-client-timeouts" misses 2,
    v35_s10_rolling_upgrade => "10-rolling-upgrade" misses 0,
}

#[test]
fn every_35_recording_with_a_script_is_checked() {
    let dir = PathBuf::from(V3_5.scripts);
    let mut scripts: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".sh").map(str::to_string)
        })
        .filter(|name| {
            let txt = PathBuf::from(V3_5.transcripts).join(format!("{name}.txt"));
            std::fs::read_to_string(txt).is_ok_and(|t| !excerpts(&t).is_empty())
        })
        .collect();
    scripts.sort();
    let checked: Vec<String> = V35_SCENARIOS.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(
        scripts, checked,
        "3.5 scripts with log excerpts vs the scenarios checked"
    );
    assert_eq!(checked.len(), 14);
}

/// Which etcd recorded a set of transcripts: where they and their scripts
/// are, and what the playground runs them with.
struct Release {
    etcd: EtcdVersion,
    /// The real transcripts (3.4: see [`reference_dir`]).
    transcripts: &'static str,
    scripts: &'static str,
}

/// etcd 3.4.23: `../shared/reference/transcripts/` (or `QP_REFERENCE_TRANSCRIPTS`).
const V3_4: Release = Release {
    etcd: EtcdVersion::V3_4,
    transcripts: "",
    scripts: "tests/scripts",
};

/// etcd 3.5.1: `tests/reference-run-b/3.5/`, scripts by
/// `tools/transcript2script.py --etcd 3.5`.
const V3_5: Release = Release {
    etcd: EtcdVersion::V3_5,
    transcripts: "tests/reference-run-b/3.5",
    scripts: "tests/scripts/3.5",
};

/// One excerpt of a real log.
struct Excerpt {
    title: String,
    line_no: usize,
    machine: String,
    lines: Vec<String>,
}

fn reference_dir() -> PathBuf {
    std::env::var("QP_REFERENCE_TRANSCRIPTS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from("../shared/reference/transcripts"))
}

/// The seed every scenario runs with (as in `tests/transcripts.rs`): `QP_SEED`, else 20.
///
/// Measured over seeds 1 to 40: 15 pass every scenario (20 among them); 01–04,
/// 09-03, 09-05 and 09-06 pass with every seed, 09-04 fails at 1, 05 at 4, 09-01
/// at 10, 09-02 at 11, 06 at 12. A failing seed is one whose elections went
/// another way than the real run's: another member leads when a link is cut, so
/// another member steps down or restarts at another commit index.
fn seed() -> u64 {
    std::env::var("QP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20)
}

/// A release's seed: 3.4's is [`seed`]; the 3.5.1 runs are other runs, with
/// elections of their own, and run with `tests/transcripts.rs`'s 3.5 seed, 25
/// (`QP_SEED` overrides both).
fn seed_of(release: &Release) -> u64 {
    match release.etcd {
        EtcdVersion::V3_4 => seed(),
        EtcdVersion::V3_5 => std::env::var("QP_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(25),
    }
}

/// The excerpts of a transcript, in order.
fn excerpts(text: &str) -> Vec<Excerpt> {
    let title_re = re(r"^----- (.*) -----$");
    let mut out = Vec::new();
    let mut current: Option<Excerpt> = None;
    for (i, line) in text.lines().enumerate() {
        let title = title_re
            .captures(line)
            .filter(|_| !line.starts_with("----- end"));
        if let Some(ex) = current.as_mut() {
            let ends = title.is_some()
                || line.starts_with("----- end")
                || line.is_empty()
                || line.starts_with("$ ")
                || line.starts_with("### ");
            if ends {
                out.extend(current.take());
            } else if !is_annotation(line) {
                ex.lines.push(line.to_string());
            }
        }
        if let Some(c) = title {
            let title = c[1].to_string();
            current = Some(Excerpt {
                machine: machine_of(&title),
                title,
                line_no: i + 1,
                lines: Vec::new(),
            });
        }
    }
    out.extend(current);
    out
}

/// A line the recorder wrote into an excerpt, not etcd: `[transcript note: …]`,
/// `count of '…' lines in … log over ~6s: 239`, `count in etcd-1: 239`.
fn is_annotation(line: &str) -> bool {
    line.starts_with("[transcript note") || line.starts_with("count ")
}

/// The machine whose log a title names: `node01.log`, `cut-node02.log`,
/// `etcd-2 log …`, `node03 restart log`. Untitled leader-side excerpts name the
/// leader by context, listed here.
fn machine_of(title: &str) -> String {
    let re = re(r"\b(node\d\d|etcd-\d)\b");
    if title.starts_with("leader-side lines") {
        return "node01".into(); // 05: node01 leads the cluster node03 tried to rejoin
    }
    re.captures(title)
        .map(|c| c[1].to_string())
        .unwrap_or_default()
}

/// What a scenario's run leaves: each machine's log, and the commands' output.
struct Run {
    logs: BTreeMap<String, Vec<String>>,
    output: String,
}

fn run_named(name: &str, seed: u64) -> Run {
    run_in(&V3_4, name, seed)
}

fn run_in(release: &Release, name: &str, seed: u64) -> Run {
    let path = format!("{}/{name}.sh", release.scripts);
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let commands = parse_script(&src).expect("script parses");
    let mut session = Session::new(seed);
    session.default_etcd = release.etcd;
    let mut output = String::new();
    for c in &commands {
        run_one(&mut session, c, false, &mut output);
    }
    let mut logs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for l in session.world.logs() {
        for text in l.text.lines() {
            logs.entry(l.machine.clone())
                .or_default()
                .push(text.to_string());
        }
    }
    Run { logs, output }
}

/// Normalises one log line: time stamps and runtime IDs (`ids`: real → placeholder).
fn normalise(line: &str, ids: &[(u64, String)]) -> String {
    let prefix = re(r"^\d\d:\d\d:\d\d\.\d{3}\| ");
    let capnslog = re(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6} ");
    let raft = re(r"^raft\d{4}/\d\d/\d\d \d\d:\d\d:\d\d ");
    let port = re(r":\d+->");
    let req_id = re(r"sent-request-id: \d+");
    let mut s = prefix.replace(line, "").to_string();
    s = capnslog.replace(&s, "").to_string();
    s = raft.replace(&s, "raft ").to_string();
    s = port.replace_all(&s, ":<port>->").to_string();
    s = req_id.replace_all(&s, "sent-request-id: <REQ>").to_string();
    for (id, name) in ids {
        s = s.replace(&format!("{id:x}"), name);
        s = s.replace(&id.to_string(), name);
    }
    sort_id_lists(&s)
}

/// A 3.5.1 line normalised: [`normalise`]'s rules, and first zap's time
/// stamps and the measurements real etcd takes of its own wall clock (see the
/// module's doc): values no two runs share.
fn normalise_zap(line: &str, ids: &[(u64, String)]) -> String {
    let prefix = re(r"^\d\d:\d\d:\d\d\.\d{3}\| ");
    let measured = re(r#""(ts|took|start time|time spent|start|end|duration|rtt)":"[^"]*""#);
    let trace = re(r"trace\[\d+\]");
    let step = re(r"\(duration: [^)]*\)");
    let remote = re(r#""remote":"([^"]*):\d+""#);
    let req_id = re(r#""sent-request-id":\d+"#);
    let go_log = re(r"^WARNING: \d{4}/\d\d/\d\d \d\d:\d\d:\d\d ");
    let mut s = prefix.replace(line, "").to_string();
    s = measured.replace_all(&s, r#""$1":"<T>""#).to_string();
    s = trace.replace_all(&s, "trace[<N>]").to_string();
    s = step.replace_all(&s, "(duration: <T>)").to_string();
    s = remote
        .replace_all(&s, r#""remote":"$1:<port>""#)
        .to_string();
    s = req_id
        .replace_all(&s, r#""sent-request-id":<REQ>"#)
        .to_string();
    s = go_log.replace(&s, "WARNING: ").to_string();
    normalise(&s, ids)
}

/// A release's normalisation: 3.4's lines by [`normalise`] alone.
fn normalise_for(release: &Release, line: &str, ids: &[(u64, String)]) -> String {
    match release.etcd {
        EtcdVersion::V3_4 => normalise(line, ids),
        EtcdVersion::V3_5 => normalise_zap(line, ids),
    }
}

/// A zap line of raft's logger as its capnslog text (`raft INFO: <msg>`),
/// which the election rules below are written for; any other line as it is.
fn raft_view(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.starts_with('{') || !line.contains(r#""logger":"raft""#) {
        return line.into();
    }
    let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
        return line.into();
    };
    let level = v["level"].as_str().unwrap_or("").to_uppercase();
    let msg = v["msg"].as_str().unwrap_or("");
    format!("raft {level}: {msg}").into()
}

/// `voters=(…)` and `learners=(…)` list IDs in numeric order, so where a runtime
/// ID (now a placeholder) stands depends on its value: the lists are sorted
/// again after the IDs are replaced.
fn sort_id_lists(line: &str) -> String {
    re(r"(voters|learners)=\(([^)]*)\)")
        .replace_all(line, |c: &regex::Captures| {
            let mut ids: Vec<&str> = c[2].split(' ').filter(|x| !x.is_empty()).collect();
            ids.sort_unstable();
            format!("{}=({})", &c[1], ids.join(" "))
        })
        .into_owned()
}

fn placeholders(ids: &[u64]) -> Vec<(u64, String)> {
    ids.iter()
        .enumerate()
        .map(|(i, &id)| (id, format!("<ID{}>", i + 1)))
        .collect()
}

/// Indices of `want` lines that are not in the longest common subsequence with `have`.
fn missing(want: &[String], have: &[String]) -> Vec<usize> {
    let (n, m) = (want.len(), have.len());
    let mut t = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            t[i][j] = if want[i] == have[j] {
                t[i + 1][j + 1] + 1
            } else {
                t[i + 1][j].max(t[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n {
        if j < m && want[i] == have[j] {
            i += 1;
            j += 1;
        } else if j < m && t[i][j + 1] >= t[i + 1][j] {
            j += 1;
        } else {
            out.push(i);
            i += 1;
        }
    }
    out
}

/// The goroutines (sources) whose lines interleave by timer phase and scheduling,
/// not by cause: a prober every 5 s, the read loop every 500 ms, the version
/// monitor every 4 s, the request handlers (a client's timing), the start-up
/// goroutines, and one goroutine per rafthttp stream (its writer or reader, per
/// peer). Each source's lines must appear in order; how two sources interleave
/// is not checked. Everything else (raft, applying entries, membership, peers
/// starting and stopping) is one source, `main`.
const SOURCES: &[(&str, &str)] = &[
    ("prober", r"rafthttp: health check for peer"),
    (
        "read loop",
        r"ReadIndex response took too long|read index response|read-only range request",
    ),
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
        "publish",
        r"etcdserver: (published \{|publish error|aborting publish)",
    ),
    (
        "removal",
        r"etcdserver: (the member has been permanently removed from the cluster|the data-dir used by this member must be removed)",
    ),
];

/// A stream goroutine's lines: `… peer X (stream Message reader)`, `failed to
/// dial X on stream Message`, `started streaming with peer X (writer)`; and the
/// peer status, which any of them may change.
fn stream_source(line: &str) -> Option<String> {
    let named = re(
        r"rafthttp: (?:lost|established|closed) (?:the|a|an existing) TCP streaming connection with peer (\S+) \((stream \S+(?: v2)?) (reader|writer)\)",
    );
    if let Some(c) = named.captures(line) {
        return Some(format!("stream {} {} {}", &c[1], &c[2], &c[3]));
    }
    let failed = re(r"rafthttp: failed to (dial|read|write) (\S+) on (stream \S+(?: v2)?)");
    if let Some(c) = failed.captures(line) {
        let end = if &c[1] == "write" { "writer" } else { "reader" };
        return Some(format!("stream {} {} {end}", &c[2], &c[3]));
    }
    let started = re(
        r"rafthttp: (?:started|stopped) streaming with peer (\S+) \((stream \S+(?: v2)? )?(reader|writer)\)",
    );
    if let Some(c) = started.captures(line) {
        let kind = c.get(2).map(|m| m.as_str().trim()).unwrap_or("");
        return Some(format!("stream {} {kind} {}", &c[1], &c[3]));
    }
    let status = re(r"rafthttp: peer (\S+) became (?:in)?active");
    if let Some(c) = status.captures(line) {
        return Some(format!("status {}", &c[1]));
    }
    let handler =
        re(r"rafthttp: (rejected the stream|request sent was ignored|request cluster ID mismatch)");
    handler.is_match(line).then(|| "stream handler".to_string())
}

/// 3.5.1's sources (zap lines, by their `"msg"`), as [`SOURCES`] for 3.4's
/// text; and three that 3.4's checks keep in `main`: embed's peer listener
/// (`serving peer traffic`, its cmux), a client listener's goroutine, which
/// waits for the server to be ready (`embed/serve.go:98`, `:140`), and
/// etcdmain's, which waits for the same and notifies systemd
/// (`etcdmain/main.go:47`, `:53`): 01's real log has the notification before
/// `serving client traffic insecurely`, 10's after it. A member's requests'
/// lines (`applied a configuration change through raft` among them) are the
/// `requests` source.
const SOURCES_35: &[(&str, &str)] = &[
    ("prober", r#""msg":"prober detected unhealthy status""#),
    (
        "read loop",
        r#""msg":"(waiting for ReadIndex response took too long, retrying|timed out waiting for read index response|first commit in current term: resending ReadIndex request)"#,
    ),
    (
        "version monitor",
        r#""msg":"(failed to reach the peer URL|failed to get version)""#,
    ),
    (
        "requests",
        r#"^WARNING: .*\[core\] grpc|"msg":"(request stats|apply request took too long|trace\[<N>\] |rejecting member |applied a configuration change through raft)"#,
    ),
    ("purge", r#""msg":"started to purge file""#),
    (
        "adjustTicks",
        r#""msg":"(started as single-node; fast-forwarding election ticks|initialized peer connections; fast-forwarding election ticks|starting initial election tick advance)""#,
    ),
    (
        "peer listener",
        r#""msg":"(now serving peer/client/metrics|serving peer traffic|cmux::serve)""#,
    ),
    (
        "serve",
        r#""msg":"(ready to serve client requests|serving client traffic insecurely; this is strongly discouraged!)""#,
    ),
    (
        "notify",
        r#""msg":"(notifying init daemon|successfully notified init daemon)""#,
    ),
    (
        "cluster version",
        r#""msg":"(setting up initial cluster version using v2 API|updating cluster version using v2 API|cluster version is updated)""#,
    ),
    (
        "publish",
        r#""msg":"(published local member to cluster through raft|failed to publish local member to cluster through raft|stopped publish because server is stopped)""#,
    ),
];

/// A 3.5.1 stream goroutine's line, as [`stream_source`] names 3.4's: the
/// reader or writer of one stream with one peer (a writer's `started` line
/// names no stream), the peer's status, or the stream handler.
fn stream_source_35(line: &str) -> Option<String> {
    let msg = zap_str(line, "msg")?;
    let field = |k: &str| zap_str(line, k);
    let peer = field("remote-peer-id").or_else(|| field("to"));
    match msg.as_str() {
        "started stream reader with remote peer"
        | "stopped stream reader with remote peer"
        | "established TCP streaming connection with remote peer"
        | "lost TCP streaming connection with remote peer"
        | "closed TCP streaming connection with remote peer"
        | "stopped TCP streaming connection with remote peer"
        | "set message encoder"
        | "started stream writer with remote peer"
        | "stopped stream writer with remote peer" => {
            let (kind, end) = match (field("stream-reader-type"), field("stream-writer-type")) {
                (Some(t), _) => (t, "reader"),
                (None, Some(t)) => (t, "writer"),
                (None, None) => (field("stream-type").unwrap_or_default(), "writer"),
            };
            Some(format!("stream {} {kind} {end}", peer.unwrap_or_default()))
        }
        "peer became active" | "peer became inactive (message send to peer failed)" => {
            Some(format!("status {}", field("peer-id").unwrap_or_default()))
        }
        "request cluster ID mismatch"
        | "failed to find remote peer in cluster"
        | "rejected stream from remote peer because it was removed"
        | "request sent was ignored by remote peer due to cluster ID mismatch"
        | "request sent was ignored due to cluster ID mismatch" => Some("stream handler".into()),
        _ => None,
    }
}

/// A zap line's string field (`"key":"value"`, the value without escapes,
/// as the fields read here are): found by text, for speed.
fn zap_str(line: &str, key: &str) -> Option<String> {
    let at = line.find(&format!("\"{key}\":\""))? + key.len() + 4;
    let len = line[at..].find('"')?;
    Some(line[at..at + len].to_string())
}

/// A zap line's source (`None`: not a zap line). raft's lines are sorted by
/// their capnslog text.
fn zap_source(line: &str) -> Option<String> {
    if line.starts_with('{') && line.contains(r#""logger":"raft""#) {
        return Some(source_of(&raft_view(line)));
    }
    let zap = line.starts_with("{\"level\"") || line.starts_with("WARNING: ");
    if !zap {
        return None;
    }
    let named = stream_source_35(line).or_else(|| {
        SOURCES_35
            .iter()
            .find(|(_, pat)| re(pat).is_match(line))
            .map(|(name, _)| name.to_string())
    });
    Some(named.unwrap_or_else(|| "main".to_string()))
}

fn source_of(line: &str) -> String {
    if let Some(s) = zap_source(line) {
        return s;
    }
    if let Some(s) = stream_source(line) {
        return s;
    }
    if re(ELECTION).is_match(line) {
        // raft's node loop (ticks, votes) runs apart from the apply loop
        return "raft elections".to_string();
    }
    SOURCES
        .iter()
        .find(|(_, pat)| re(pat).is_match(line))
        .map(|(name, _)| name.to_string())
        .unwrap_or_else(|| "main".to_string())
}

/// Indices of `want` lines not found in order among `have`'s lines of the same source.
fn missing_by_source(want: &[String], have: &[String]) -> Vec<usize> {
    let want_src: Vec<String> = want.iter().map(|l| source_of(l)).collect();
    let have_src: Vec<String> = have.iter().map(|l| source_of(l)).collect();
    let mut names: Vec<&String> = want_src.iter().collect();
    names.sort();
    names.dedup();
    let mut out = Vec::new();
    for name in names {
        let idx: Vec<usize> = (0..want.len()).filter(|&i| &want_src[i] == name).collect();
        let w: Vec<String> = idx.iter().map(|&i| want[i].clone()).collect();
        let h: Vec<String> = (0..have.len())
            .filter(|&j| &have_src[j] == name)
            .map(|j| have[j].clone())
            .collect();
        out.extend(missing(&w, &h).into_iter().map(|k| idx[k]));
    }
    out.sort_unstable();
    out
}

/// raft's election lines: who campaigns, votes, wins or steps down. How many
/// campaigns a member makes and at which terms depend on randomized election
/// timeouts, in etcd as in the playground: the two real runs of 09-01 ended the
/// heal at terms 27 and 24 (`tests/reference-run-b/EXCERPT-VARIANCE.md`: 443 of
/// the 682 lines that differ between two real runs are these). Such a line is
/// excused when the same member logged the same event at another term or index.
const ELECTION: &str = r"^raft (INFO|WARN): (raft\.node: )?\S+ (is starting a new election|became (candidate|pre-candidate|leader|follower)|received Msg(Pre)?VoteResp|has received|\[logterm|\[term|\[logterm: \d+, index: \d+, vote|elected leader|lost leader|changed leader|stepped down)";

/// A stream reader's or writer's failure: which of a peer's two streams fails
/// first, and whether the peer was still active then (only a failure that ends
/// the active status is printed), depends on when each stream last heard from
/// the peer and on dials in flight when a link heals. Such a line is excused
/// when the playground printed the same failure for the same peer on either stream.
const STREAM_FAILURE: &str = r"rafthttp: failed to (dial|read|write) \S+ on stream ";

/// A prober's report: its error text is the last probe's, which lags the
/// network by up to a probe interval (`connection refused` after a cut, `<nil>`
/// before a probe into a silent network has failed), and the count depends on
/// the 5 s phase. Excused when the playground reported the same peer unhealthy.
const PROBER: &str = r"^W \| rafthttp: health check for peer \S+ could not connect: ";

/// `line` with the stream's name, and the ephemeral port, made wildcards.
fn any_stream(line: &str) -> Regex {
    let text = regex::escape(line);
    let text = text
        .replace("stream Message", "stream (Message|MsgApp v2)")
        .replace("stream MsgApp v2", "stream (Message|MsgApp v2)");
    Regex::new(&format!("^{text}$")).expect("escaped pattern")
}

/// Under cut links (the `09-partitions-*` scenarios) the elections themselves
/// differ between real runs, not only their terms: who times out first on each
/// side, who disrupts whom after the heal, who votes for whom, who leads (and so
/// who steps down). An election line there is excused when some member of the
/// playground's run logged the same event (`stepped down …`, `ignored a MsgVote
/// message with lower term …`); what the elections decide (who leads, which
/// writes commit, which errors clients see) is checked by `tests/partitions.rs`.
const PARTITION_ELECTIONS: &str = "an election under cut links that went another way (see \
     PARTITION_ELECTIONS; run B of 09-01 won after the heal at term 24, run A at term 27)";

/// An election line's event, without the members named, terms or indexes:
/// `became candidate at term`, `stepped down to follower since quorum is not active`.
fn election_event(line: &str) -> String {
    let body = line.split_once(": ").map(|(_, b)| b).unwrap_or(line);
    let words: Vec<&str> = body
        .split_whitespace()
        .filter(|w| !w.chars().any(|c| c.is_ascii_digit()) && !is_member_id(w))
        .collect();
    words.join(" ")
}

/// A member ID (hex) or its placeholder.
fn is_member_id(word: &str) -> bool {
    word.starts_with("<ID") || (word.len() >= 13 && word.chars().all(|c| c.is_ascii_hexdigit()))
}

/// `line` with its numbers made wildcards, as a pattern.
fn any_numbers(line: &str) -> Regex {
    let digits = re(r"\d+");
    let parts: Vec<String> = digits.split(line).map(regex::escape).collect();
    Regex::new(&format!("^{}$", parts.join(r"\d+"))).expect("escaped pattern")
}

/// 3.5.1's forms of [`STREAM_FAILURE`], [`PROBER`] and the peer status
/// flaps: a zap line of one of these kinds, for one peer (`"remote-peer-id"`,
/// a prober's round tripper too, or `"peer-id"`), is excused as its 3.4 form
/// is when the playground printed the same kind for the same peer, with
/// another stream, error text or count.
const PEER_EVENTS_35: &[(&str, &str, &str)] = &[
    (
        "lost TCP streaming connection with remote peer",
        "remote-peer-id",
        "a stream failure on the peer's other stream or with another error (see STREAM_FAILURE)",
    ),
    (
        "peer became inactive (message send to peer failed)",
        "peer-id",
        "a peer status change caused by the failure of the peer's other stream (see STREAM_FAILURE)",
    ),
    (
        "peer became active",
        "peer-id",
        "a peer status change that flapped another number of times (see STREAM_FAILURE)",
    ),
    (
        "prober detected unhealthy status",
        "remote-peer-id",
        "a prober failure with another error text (see PROBER)",
    ),
];

/// [`PEER_EVENTS_35`]'s excuse for a zap line, if it is one of those kinds.
fn peer_event_35(line: &str, have: &[String]) -> Option<&'static str> {
    let value = zap_str;
    let msg = value(line, "msg")?;
    let (_, key, why) = PEER_EVENTS_35.iter().find(|(m, _, _)| *m == msg)?;
    let peer = value(line, key);
    let tripper = value(line, "round-tripper-name");
    have.iter()
        .any(|h| {
            value(h, "msg").as_deref() == Some(msg.as_str())
                && value(h, key) == peer
                && value(h, "round-tripper-name") == tripper
        })
        .then_some(*why)
}

/// Why a missing line may be missing, if it is one real etcd does not repeat
/// and (unless marked `ANY`) the playground printed one of its kind.
fn excuse(scenario: &str, line: &str, have: &[String], all: &[String]) -> Option<&'static str> {
    if line.starts_with('{') {
        if let Some(why) = peer_event_35(line, have) {
            return Some(why);
        }
    }
    if re(STREAM_FAILURE).is_match(line) {
        let same = any_stream(line);
        if have.iter().any(|h| same.is_match(h)) {
            return Some("a stream failure on the peer's other stream (see STREAM_FAILURE)");
        }
    }
    if let Some(c) = re(PROBER).captures(line) {
        let prefix = c[0].to_string();
        if have.iter().any(|h| h.starts_with(&prefix)) {
            return Some("a prober failure with another error text (see PROBER)");
        }
    }
    let flap = re(r"^I \| rafthttp: peer \S+ became (in)?active$");
    if flap.is_match(line) && have.iter().any(|h| h == line) {
        return Some(
            "a peer status change that flapped another number of times (see STREAM_FAILURE)",
        );
    }
    if re(ELECTION).is_match(&raft_view(line)) {
        let same = any_numbers(line);
        if have.iter().any(|h| same.is_match(h)) {
            return Some("an election line at another term (see ELECTION)");
        }
        let event = election_event(&raft_view(line));
        if scenario.starts_with("09-") && all.iter().any(|h| election_event(&raft_view(h)) == event)
        {
            return Some(PARTITION_ELECTIONS);
        }
    }
    UNREPEATABLE.iter().find_map(|(sc, pat, why)| {
        let applies = *sc == "*" || *sc == "ANY" || *sc == "RUN";
        let pattern = re(pat);
        let seen_in = if *sc == "RUN" { all } else { have };
        let kind_seen = *sc == "ANY" || seen_in.iter().any(|h| pattern.is_match(h));
        (applies && pattern.is_match(line) && kind_seen).then_some(*why)
    })
}

/// Lines only the leader prints (its peer handler's refusals, its version
/// monitor): under cut links
/// another member may lead in the playground's run than in the real one, so
/// such a line counts where the playground's leader printed it.
const LEADER_ONLY: &str = r#"^(E \| etcdserver/api/etcdhttp: error promoting member |W \| etcdserver: (failed to reach the peerURL|cannot get the version of member)|\{"level":"warn","ts":"<T>","caller":"etcdserver/cluster_util\.go:\d+","msg":"(failed to reach the peer URL|failed to get version)")"#;

fn leader_elsewhere(
    release: &Release,
    line: &str,
    run: &Run,
    machine: &str,
    ids: &[(u64, String)],
) -> Option<&'static str> {
    if !re(LEADER_ONLY).is_match(line) {
        return None;
    }
    let elsewhere = run
        .logs
        .iter()
        .filter(|(m, _)| m.as_str() != machine)
        .flat_map(|(_, v)| v.iter())
        .any(|l| normalise_for(release, l, ids) == line);
    elsewhere.then_some("printed by the member that led in the playground's run (see LEADER_ONLY)")
}

fn check_scenario(name: &str) {
    check(&V3_4, name, 0);
}

/// Checks one scenario's excerpts; fails if more than `allowed` lines are
/// missing without an excuse.
fn check(release: &Release, name: &str, allowed: usize) {
    let path = match release.etcd {
        EtcdVersion::V3_4 => reference_dir(),
        EtcdVersion::V3_5 => PathBuf::from(release.transcripts),
    }
    .join(format!("{name}.txt"));
    // CI always has `../shared`: a missing transcript is a failure, not a skip.
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (the real transcripts are needed)", path.display()));
    let run = run_in(release, name, seed_of(release));
    let real_ids = placeholders(&added_ids(&text));
    let sim_ids = placeholders(&added_ids(&run.output));
    let normalise = |line: &str, ids: &[(u64, String)]| normalise_for(release, line, ids);
    let mut failures = Vec::new();
    let mut report = String::new();
    let all: Vec<String> = run
        .logs
        .values()
        .flatten()
        .map(|l| normalise(l, &sim_ids))
        .collect();
    let excerpts = excerpts(&text);
    assert!(
        !excerpts.is_empty(),
        "{}: no log excerpts found",
        path.display()
    );
    let wanted: usize = excerpts.iter().map(|e| e.lines.len()).sum();
    for ex in excerpts {
        let want: Vec<String> = ex.lines.iter().map(|l| normalise(l, &real_ids)).collect();
        let have: Vec<String> = run
            .logs
            .get(&ex.machine)
            .map(|v| v.iter().map(|l| normalise(l, &sim_ids)).collect())
            .unwrap_or_default();
        let miss = missing_by_source(&want, &have);
        report.push_str(&format!(
            "{name}:{} {} [{}]: {}/{} lines\n",
            ex.line_no,
            ex.title,
            ex.machine,
            want.len() - miss.len(),
            want.len()
        ));
        for i in miss {
            let why = excuse(name, &want[i], &have, &all)
                .or_else(|| leader_elsewhere(release, &want[i], &run, &ex.machine, &sim_ids));
            match why {
                Some(why) => report.push_str(&format!("    excused: {}  ({why})\n", want[i])),
                None => {
                    report.push_str(&format!("    MISSING: {}\n", want[i]));
                    failures.push(format!("{name}:{}: {}", ex.line_no + 1 + i, want[i]));
                }
            }
        }
    }
    if release.etcd == EtcdVersion::V3_4 {
        println!("{report}");
        assert!(
            failures.is_empty(),
            "{} log line(s) of real etcd missing from the playground's logs:\n{}",
            failures.len(),
            failures.join("\n")
        );
        return;
    }
    println!(
        "{report}{} {name}: {} of {wanted} lines missing (held to {allowed})\n",
        release.etcd.release(),
        failures.len()
    );
    assert!(
        failures.len() <= allowed,
        "{} log line(s) of real etcd {} missing from the playground's logs, more than the {allowed} \
         held to:\n{}",
        failures.len(),
        release.etcd.release(),
        failures.join("\n")
    );
}

#[test]
fn excerpts_are_found_in_transcripts() {
    let text = "x\n----- log lines 1-2 of node01.log -----\na\nb\n----- end -----\n\
                ----- leader-side lines about it -----\nc\n\n$ etcdctl\n";
    let ex = excerpts(text);
    assert_eq!(ex.len(), 2);
    assert_eq!(ex[0].machine, "node01");
    assert_eq!(ex[0].lines, vec!["a", "b"]);
    assert_eq!(ex[1].lines, vec!["c"]);
}

#[test]
fn the_subsequence_check_finds_what_is_missing() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(missing(&s(&["a", "b", "c"]), &s(&["a", "x", "c"])), vec![1]);
    assert_eq!(missing(&s(&["b", "a"]), &s(&["a", "b"])).len(), 1);
    assert!(missing(&s(&["a", "c"]), &s(&["a", "b", "c"])).is_empty());
}

#[test]
fn sources_are_checked_apart() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let hc = "W | rafthttp: health check for peer x could not connect: e";
    // a prober line may fall on either side of an election line...
    let want = s(&[hc, "raft INFO: x became candidate at term 3"]);
    let have = s(&["raft INFO: x became candidate at term 3", hc]);
    assert!(missing_by_source(&want, &have).is_empty());
    // ...but raft's own lines keep their order
    let want = s(&["raft a", "raft b"]);
    assert_eq!(missing_by_source(&want, &s(&["raft b", "raft a"])).len(), 1);
}

#[test]
fn normalising_keeps_all_but_stamps_and_runtime_ids() {
    let ids = placeholders(&[0x18802c19c505034b]);
    assert_eq!(
        normalise(
            "02:16:33.489| 2026-11-22 02:16:33.488778 W | rafthttp: lost peer 18802c19c505034b",
            &ids
        ),
        "W | rafthttp: lost peer <ID1>"
    );
    assert_eq!(
        normalise(
            "raft2026/11/22 01:27:47 INFO: x switched to configuration voters=(1765459543120479051 1)",
            &ids
        ),
        "raft INFO: x switched to configuration voters=(1 <ID1>)",
        "a runtime ID's place in a sorted list is part of the ID"
    );
    assert_eq!(
        normalise(
            "raft2026/11/22 01:27:47 INFO: x waiting (sent-request-id: 7668682390110193669)",
            &ids
        ),
        "raft INFO: x waiting (sent-request-id: <REQ>)"
    );
}

// ------------------------------------------------------------------ seed 000

/// Seed 000's sections 3 to 5 quote node logs after `docker logs -f etcd`; each
/// run of lines between `...` must appear in the pasted walkthrough's log
/// (`tests/scripts/seed-000.sh`), in order, as the transcripts' excerpts do.
///
/// Besides time stamps, two things are normalised, both listed here:
/// * runtime IDs: the document's sections were separate runs, so its members
///   added at runtime carry other IDs than the walkthrough's single run gives
///   them (pairs below, each the same member in the same role);
/// * the document ran etcd 3.4.0, built with Go 1.12, whose HTTP errors print
///   `Get http://…/version:` where 3.4.23's Go quotes the URL.
const SEED_000_IDS: &[(u64, u64, &str)] = &[
    (0x6d66440fb5660edc, 0x6d66440fb5660edc, "<node02-s3-s4.1>"),
    (0x6c9f385ab14331a2, 0x6d66440fb5660edc, "<node02-s3-s4.1>"),
    (0x9035c191246d362c, 0x9885d7fd2cdc9cfb, "<node02-s4.2>"),
    (0x341224f3422176dd, 0xe618a7383cf09f4e, "<node02-s5>"),
    (0xaa9ac53bcb1de8c6, 0x907178cd988e15f3, "<node03-s5>"),
];

/// The quoted log runs of seed 000: (section line, machine, lines).
fn seed_000_excerpts(doc: &str) -> Vec<(usize, String, Vec<String>)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String, Vec<String>)> = None;
    let start = re(r"^\((Node\d\d)\)\$ docker logs -f etcd$");
    let log_line = re(r"^(\d{4}-\d\d-\d\d |raft\d{4}/)");
    for (i, line) in doc.lines().enumerate() {
        if let Some(c) = start.captures(line) {
            current = Some((i + 2, c[1].to_lowercase(), Vec::new()));
            continue;
        }
        let Some(cur) = current.as_mut() else {
            continue;
        };
        if line.starts_with("```") || line == "..." {
            if !cur.2.is_empty() {
                out.push(cur.clone());
            }
            cur.2.clear();
            cur.0 = i + 2;
            if line.starts_with("```") {
                current = None;
            }
        } else if log_line.is_match(line) {
            cur.2.push(line.to_string());
        }
    }
    out
}

/// The document cut a few long lines short in mid-word (`… connect: connection
/// refuse`): such a line stands for the one line of the log it begins, where
/// the word goes on.
fn complete_cut_line(want: String, have: &[String]) -> String {
    if have.contains(&want) {
        return want;
    }
    let mid_word = |h: &&String| {
        h.starts_with(&want)
            && h[want.len()..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric)
    };
    let mut longer: Vec<&String> = have.iter().filter(mid_word).collect();
    longer.sort();
    longer.dedup();
    match longer.as_slice() {
        [only] => only.to_string(),
        _ => want,
    }
}

#[test]
fn seed_000_log_excerpts_appear_in_order() {
    // CI always has `../shared`: a missing document is a failure, not a skip.
    let doc = std::fs::read_dir("../shared/seeds")
        .ok()
        .and_then(|d| {
            d.filter_map(|e| e.ok())
                .find(|e| e.file_name().to_string_lossy().starts_with("000_"))
                .and_then(|e| std::fs::read_to_string(e.path()).ok())
        })
        .expect("../shared/seeds/000_*.txt (seed 000's document) is needed");
    let run = run_named("seed-000", 1);
    let doc_ids: Vec<(u64, String)> = SEED_000_IDS
        .iter()
        .map(|(d, _, n)| (*d, n.to_string()))
        .collect();
    let sim_ids: Vec<(u64, String)> = SEED_000_IDS
        .iter()
        .map(|(_, s, n)| (*s, n.to_string()))
        .collect();
    let go112 = re(r#"Get (http://[^ ]+/version):"#);
    let excerpts = seed_000_excerpts(&doc);
    assert!(excerpts.len() >= 6, "seed 000's quoted logs were found");
    let mut failures = Vec::new();
    for (line_no, machine, lines) in excerpts {
        let want: Vec<String> = lines
            .iter()
            .map(|l| {
                go112
                    .replace(&normalise(l, &doc_ids), r#"Get "$1":"#)
                    .into_owned()
            })
            .collect();
        let have: Vec<String> = run
            .logs
            .get(&machine)
            .map(|v| v.iter().map(|l| normalise(l, &sim_ids)).collect())
            .unwrap_or_default();
        let want: Vec<String> = want
            .into_iter()
            .map(|w| complete_cut_line(w, &have))
            .collect();
        for i in missing_by_source(&want, &have) {
            if excuse("seed-000", &want[i], &have, &have).is_none() {
                failures.push(format!(
                    "seed 000 line {}: [{machine}] {}",
                    line_no + i,
                    want[i]
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "seed 000's log lines missing from the walkthrough's log:\n{}",
        failures.join("\n")
    );
}
