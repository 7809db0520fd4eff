//! The headless runner: `run FILE [--logs] [--seed N] [--etcd-version 3.4|3.5]` prints a script's
//! transcript as `design/shell.md` specifies.

use super::parse::{self, ScriptCommand};
use super::session::Session;
use crate::sim::etcd::version::EtcdVersion;

/// Options of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunOptions {
    pub seed: u64,
    pub logs: bool,
    /// The etcd every `machine add` installs unless it names one.
    pub etcd: EtcdVersion,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            seed: 1,
            logs: false,
            etcd: EtcdVersion::default(),
        }
    }
}

/// Runs a parsed script and returns its transcript.
pub fn transcript(commands: &[ScriptCommand], opts: RunOptions) -> String {
    let mut session = Session::new(opts.seed);
    session.default_etcd = opts.etcd;
    let mut out = String::new();
    for c in commands {
        run_one(&mut session, c, opts.logs, &mut out);
    }
    out
}

/// Runs one command of a script, appending its echo, output and (optionally) logs.
pub fn run_one(session: &mut Session, c: &ScriptCommand, logs: bool, out: &mut String) {
    let first_log = session.world.logs().len();
    let ex = session.run(&c.prompt, &c.text);
    let host = ex.machine.as_deref().unwrap_or("");
    out.push_str(&format!("{host}$ {}\n", c.text));
    let printed = ex.output.merged();
    out.push_str(&printed);
    // output without a final newline (`curl`'s JSON) still ends its block,
    // as the recorder's transcripts show it
    if !printed.is_empty() && !printed.ends_with('\n') {
        out.push('\n');
    }
    if logs {
        let mut lines: Vec<_> = session.world.logs()[first_log..].iter().collect();
        lines.sort_by(|a, b| (a.ms, &a.machine).cmp(&(b.ms, &b.machine)));
        for l in lines {
            out.push_str(&format!("[{}] {}\n", l.machine, l.text));
        }
    }
}

/// Parses and runs a script's text.
pub fn run_source(src: &str, opts: RunOptions) -> Result<String, parse::ParseError> {
    let commands = parse::parse_script(src)?;
    Ok(transcript(&commands, opts))
}

#[cfg(not(target_arch = "wasm32"))]
const USAGE: &str =
    "usage: quorum-playground run FILE|- [--logs] [--seed N] [--etcd-version 3.4|3.5]";

/// `run FILE|- [--logs] [--seed N] [--etcd-version 3.4|3.5]`: the headless runner's command line (see
/// `crate::cli` for the binary's whole usage).
#[cfg(not(target_arch = "wasm32"))]
pub fn run_cli(args: &[String]) -> i32 {
    use std::io::{Read, Write};
    let mut opts = RunOptions::default();
    let mut file = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--logs" => opts.logs = true,
            "--seed" => {
                i += 1;
                match args.get(i).and_then(|s| s.parse().ok()) {
                    Some(s) => opts.seed = s,
                    None => {
                        eprintln!("--seed needs a number\n{USAGE}");
                        return 2;
                    }
                }
            }
            "--etcd-version" => {
                i += 1;
                match args.get(i).and_then(|v| EtcdVersion::from_name(v)) {
                    Some(v) => opts.etcd = v,
                    None => {
                        eprintln!("--etcd-version needs 3.4 or 3.5\n{USAGE}");
                        return 2;
                    }
                }
            }
            f if file.is_none() => file = Some(f.to_string()),
            other => {
                eprintln!("unexpected argument {other:?}\n{USAGE}");
                return 2;
            }
        }
        i += 1;
    }
    let Some(file) = file else {
        eprintln!("{USAGE}");
        return 2;
    };
    let src = if file == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map(|_| s)
    } else {
        std::fs::read_to_string(&file)
    };
    let src = match src {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}: {e}");
            return 2;
        }
    };
    match run_source(&src, opts) {
        Ok(t) => {
            let _ = std::io::stdout().write_all(t.as_bytes());
            0
        }
        Err(e) => {
            eprintln!("{file}:{}: {}", e.line, e.message);
            2
        }
    }
}
