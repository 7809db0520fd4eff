//! `make fuzz`: mutation fuzzing of what reads a person's text, natively, each
//! target for a given time: `fuzz TARGET MINUTES [SEED]`, TARGET one of
//! `parse` (the shell parser: `parse_script`), `lesson` (the lesson parser),
//! `run` (the runner: parsed scripts run in a fresh world), `link` (share
//! links: the text as a link, as the JSON inside a well-packed link, and as a
//! pasted script or transcript for Import). Inputs are the
//! repository's scripts and lessons, cut, spliced and sprinkled with the
//! shell's own tokens and random bytes. Every input must give a result or an
//! error: a panic is a finding, written to `tests/fuzz-found/TARGET-N.txt`
//! (kept as a regression test by `tests/fuzz_found.rs`). Prints how many
//! inputs ran.

#[cfg(not(target_arch = "wasm32"))]
#[allow(clippy::disallowed_methods)] // the time limit is host time
fn main() {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::time::{Duration, Instant};

    let args: Vec<String> = std::env::args().collect();
    let target = args.get(1).cloned().unwrap_or_default();
    let minutes: f64 = args.get(2).and_then(|m| m.parse().ok()).unwrap_or(1.0);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let Some(check) = fuzz::target(&target) else {
        eprintln!("usage: fuzz parse|lesson|run|link MINUTES [SEED]");
        std::process::exit(2);
    };
    let corpus = fuzz::corpus(&target);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let limit = Duration::from_secs_f64(minutes * 60.0);
    let start = Instant::now();
    std::panic::set_hook(Box::new(|_| {}));
    let (mut n, mut found) = (0u64, 0u64);
    while start.elapsed() < limit {
        let input = fuzz::mutate(&corpus, &mut rng);
        n += 1;
        if std::panic::catch_unwind(|| check(&input)).is_err() {
            found += 1;
            let path = format!("tests/fuzz-found/{target}-{found}.txt");
            let _ = std::fs::create_dir_all("tests/fuzz-found");
            let _ = std::fs::write(&path, &input);
            println!("fuzz {target}: a panic; input kept in {path}");
        }
    }
    println!(
        "fuzz {target}: {n} inputs in {:.0} s, {found} panicked (seed {seed})",
        start.elapsed().as_secs_f64()
    );
    if found > 0 {
        std::process::exit(1);
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod fuzz {
    use rand::Rng;
    use rand_chacha::ChaCha8Rng;

    use quorum_playground::shell::parse;
    use quorum_playground::shell::runner::{run_source, RunOptions};
    use quorum_playground::{lessons, link};

    /// The shell's own words, spliced into inputs.
    #[rustfmt::skip]
    const TOKENS: &[&str] = &[
        "\"steps\":[[0,\"", "\"lesson\":{\"name\":\"x\",\"step\":9,\"done\":true}",
        "\"speed\":1e308", "\"tail\":18446744073709551615", "null", "-1", "run=1.", "etcd",
        "etcdctl", "member", "add", "remove", "promote", "list", "--learner", "--peer-urls=",
        "--endpoints=", "http://", ":2379", ":2380", "machine", "net", "cut", "heal", "isolate",
        "kill", "-9", "sleep", "wait", "rm", "-rf", "cp", "$", "#", "\\", "\n", "'", "\"", "=", ",",
        "->", "node01$ ", "(etcd Container)$ ", "|", "?", "## ", "title:", "seed:", "start:",
        "--initial-cluster", "--force-new-cluster", "--snapshot-count", "put", "get", "del", "-w",
        "table", "json", "0", "18446744073709551616", "-1", "\u{0}", "é", "\t", "  ",
        "delay", "loss", "rate", "clear", "show", "limit", "ms", "%", "mbit", "kbit", "gbit", "kb",
        "mb", "0.5%", "100%", "1bit", "300ms", "10ms", "'node01->node02'",
    ];

    /// The network's physics, for the runner and the parser: links' delays,
    /// jitter and loss and NICs' rates on a cluster, cleared again.
    const NET_SCRIPT: &str = "machine add node01 10.9.0.1
machine add node02 10.9.0.2
node01$ etcd --name node01 --listen-client-urls http://10.9.0.1:2379 --advertise-client-urls http://10.9.0.1:2379
$ net delay node01 node02 200ms 20ms
$ net delay 'node02->node01' 50ms
$ net loss node01 node02 10%
$ net loss 'node01->node02' 0.5%
$ net rate node01 1mbit limit 64kb
node02$ etcdctl --endpoints=http://10.9.0.1:2379 --command-timeout=1s put k v
$ net show
$ net rate node01 10mbit
$ net clear node01 node02
$ net clear node01
$ net";

    /// The function a target runs on one input.
    pub fn target(name: &str) -> Option<fn(&str)> {
        match name {
            "parse" => Some(|s| {
                let _ = parse::parse_script(s);
            }),
            "lesson" => Some(|s| {
                let _ = lessons::parse("fuzz", s);
            }),
            // only the lines that parse: a script with a parse error runs
            // nothing, and the point is to run the world
            "run" => Some(|s| {
                let kept: Vec<&str> = s
                    .lines()
                    .filter(|l| parse::parse_script(l).is_ok())
                    .collect();
                let _ = run_source(
                    &kept.join("\n"),
                    RunOptions {
                        seed: 1,
                        logs: true,
                        ..Default::default()
                    },
                );
            }),
            "link" => Some(|s| {
                let _ = link::Run::from_link(s);
                let _ = link::Run::from_link(&link::pack(s.as_bytes()));
                let _ = link::import_with_report(s).map(|i| i.report.to_string());
            }),
            _ => None,
        }
    }

    /// The inputs mutations start from.
    pub fn corpus(target: &str) -> Vec<String> {
        let dir = if target == "lesson" {
            "static/lessons"
        } else {
            "tests/scripts"
        };
        let mut out: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| std::fs::read_to_string(e.path()).ok())
            .collect();
        // the attacks of issue 20 (a link's, an Import's or a host's text)
        if target != "lesson" {
            out.extend(
                std::fs::read_dir("tests/attacks")
                    .into_iter()
                    .flatten()
                    .flatten()
                    .filter_map(|e| std::fs::read_to_string(e.path()).ok()),
            );
        }
        if target == "link" {
            // each script as a run's JSON (imported, then packed and read
            // back out of its link), and the committed format-1 link
            out = out
                .iter()
                .filter_map(|s| link::import(s).ok())
                .filter_map(|r| r.to_link().ok())
                .filter_map(|l| json_of(&l))
                .collect();
            out.extend(std::fs::read_to_string("tests/links/format-1.link"));
        }
        if target == "run" {
            // the runner gets short pieces: whole scenarios take seconds each
            out = out
                .iter()
                .flat_map(|s| {
                    let lines: Vec<&str> = s.lines().collect();
                    lines.chunks(12).map(|c| c.join("\n")).collect::<Vec<_>>()
                })
                .collect();
        }
        if target != "lesson" {
            out.push(NET_SCRIPT.to_string());
        }
        out.push(String::new());
        out
    }

    /// The JSON inside a format-1 link.
    fn json_of(link: &str) -> Option<String> {
        let body = link.strip_prefix("run=1.")?;
        let packed = link::base64url_decode(body)?;
        let json = miniz_oxide::inflate::decompress_to_vec_zlib(&packed).ok()?;
        String::from_utf8(json).ok()
    }

    /// A random mutation of a random corpus entry.
    pub fn mutate(corpus: &[String], rng: &mut ChaCha8Rng) -> String {
        let base = &corpus[rng.gen_range(0..corpus.len())];
        let mut s: Vec<char> = base.chars().collect();
        for _ in 0..rng.gen_range(1..8) {
            let at = rng.gen_range(0..=s.len());
            match rng.gen_range(0..6) {
                0 if !s.is_empty() => {
                    let end = (at + rng.gen_range(1..40)).min(s.len());
                    s.drain(at.min(end)..end);
                }
                1 => {
                    let t = TOKENS[rng.gen_range(0..TOKENS.len())];
                    s.splice(at..at, t.chars());
                }
                2 => s.insert(at, char::from(rng.gen_range(0u8..128))),
                3 => {
                    let other = &corpus[rng.gen_range(0..corpus.len())];
                    let take: String = other
                        .chars()
                        .skip(rng.gen_range(0..other.len().max(1)))
                        .take(80)
                        .collect();
                    s.splice(at..at, take.chars());
                }
                4 if !s.is_empty() => {
                    let i = rng.gen_range(0..s.len());
                    s[i] = char::from_u32(rng.gen_range(0..0x3000)).unwrap_or('x');
                }
                _ => {
                    let digits = rng.gen_range(0..u64::MAX).to_string();
                    s.splice(at..at, digits.chars());
                }
            }
        }
        let text: String = s.into_iter().collect();
        // keep runs short: long sleeps and waits become short ones
        text.lines()
            .map(|l| {
                if l.contains("sleep") || l.contains("wait") || l.contains("date") {
                    "sleep 1".to_string()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}
