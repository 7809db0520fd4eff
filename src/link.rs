//! A run as data, and its two portable forms.
//!
//! The world is a pure function of a seed and the commands typed into it, each
//! after some simulated time had passed. A [`Run`] is exactly that: the seed,
//! how the world started and which etcd its `machine add`s install, and every command with the time the clock ran before
//! it was typed, plus the time after the last one (the moment shown), the speed
//! and the lesson step that was open.
//!
//! - [`Run::script`] is the run in the shell language, as the headless runner
//!   and the page's Import read it: the time the clock ran becomes `sleep`, and
//!   a run on etcd 3.5 says `# etcd-version: 3.5` (the runner's
//!   `--etcd-version`; Import reads the line back).
//! - [`Run::to_link`] / [`Run::from_link`] is the share link's fragment:
//!   `run=N.` followed by the run as JSON, zlib-compressed (the zlib checksum
//!   catches a truncated or changed link) and base64url-encoded. The number
//!   before the dot is the format version; a version this page does not know is
//!   refused by name, before anything is decoded. Format 1 is a run on etcd
//!   3.4.23, the only etcd of the pages that wrote it; format 2 is format 1 and
//!   a required `etcd` field (`"3.4"` or `"3.5"`). The page writes the oldest
//!   format that holds the run: format 1 for a run on 3.4 (it opens on every
//!   page, old ones too), format 2 for a run on 3.5, which an older page then
//!   refuses by its number instead of replaying it on 3.4. An etcd this page
//!   does not have is refused by name. Links are size-limited both
//!   ways ([`MAX_LINK_CHARS`], [`MAX_JSON_BYTES`]), and a decoded run is checked
//!   field by field ([`LIMITS`]) before the page replays it: nothing but the
//!   shell commands the link lists ever runs.
//! - [`transcript`] is the run as the runner prints it, and [`import`] reads a
//!   pasted script or transcript back into a run.

use serde::{Deserialize, Serialize};

use crate::lessons::{Start, CLUSTER_SCRIPT};
use crate::shell::command;
use crate::shell::parse::{self, Prompt, ScriptCommand};
use crate::shell::runner::{self, RunOptions};
use crate::sim::etcd::version::EtcdVersion;
use crate::sim::view::{clipped, count, visible_text};

/// The newest link format this page writes (a run on etcd 3.5; a run on 3.4
/// is written as format 1, see the module docs). [`Run::from_link`] reads it
/// and every older format (the private `read_version` dispatches on the
/// version).
pub const FORMAT: u32 = 2;

/// The script and transcript line naming a run's etcd when it is not 3.4
/// (`# etcd-version: 3.5`), which Import reads.
pub const ETCD_LINE: &str = "# etcd-version:";

/// Slowest and fastest speed (the page's speed field takes the same range).
pub const SPEED_MIN: f64 = 0.1;
pub const SPEED_MAX: f64 = 100.0;

/// The longest link fragment (`run=...`) the page writes or reads, in
/// characters: short enough for chat tools and e-mail, and a run that does not
/// fit is exported as a script instead.
pub const MAX_LINK_CHARS: usize = 8192;

/// The most JSON a link may decompress to (a guard against a link that
/// inflates to gigabytes).
pub const MAX_JSON_BYTES: usize = 256 * 1024;

/// Bounds on a decoded run.
pub struct Limits {
    /// Commands in one run.
    pub commands: usize,
    /// Characters in one command line.
    pub line_chars: usize,
    /// Simulated time the clock runs between commands, in all (replaying a
    /// link must not freeze the page).
    pub wait_ms: u64,
}

/// The bounds every decoded run is checked against.
pub const LIMITS: Limits = Limits {
    commands: 5000,
    line_chars: 4096,
    wait_ms: 24 * 3600 * 1000,
};

/// One command and the simulated time the clock ran before it was typed
/// (after the previous command finished, or after the world began).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub wait_ms: u64,
    /// The line as the terminal echoes it: `HOST$ text`, or the text alone.
    pub line: String,
}

/// The lesson step that was open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonAt {
    /// A lesson's name in `static/lessons/` (letters, digits, `-`, `_`).
    pub name: String,
    /// The step shown (0 is the first).
    pub step: usize,
    /// Whether that step's commands were typed.
    pub done: bool,
}

/// A whole run: what the page needs to show the same moment again.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub seed: u64,
    pub start: Start,
    /// The etcd the world's `machine add`s install when they name none (the
    /// boot cluster's machines too): `Session::default_etcd`.
    pub etcd: EtcdVersion,
    pub steps: Vec<Step>,
    /// Simulated time the clock ran after the last command.
    pub tail_ms: u64,
    pub speed: f64,
    pub lesson: Option<LessonAt>,
}

/// Why a link (or a pasted script) cannot be opened. Each message says what
/// the page did instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkError {
    /// The fragment does not start with `run=VERSION.`.
    NotALink,
    /// A version this page cannot read (a newer page made it).
    UnknownVersion(String),
    /// Longer than [`MAX_LINK_CHARS`].
    TooLong { chars: usize },
    /// Not base64url, not zlib, or the checksum does not match: cut short or changed.
    Damaged,
    /// Inflates to more than [`MAX_JSON_BYTES`].
    TooBig,
    /// Decoded, but not a run this page accepts (the reason is given).
    Invalid(String),
}

impl LinkError {
    /// Why, without what the page does about it.
    pub fn why(&self) -> String {
        match self {
            LinkError::NotALink => "it is not a Quorum Playground run link (it should contain #run=1.… or #run=2.…)".to_string(),
            LinkError::UnknownVersion(v) => format!(
                "it was made in link format {v:?}, and this page reads formats 1 to {FORMAT}; open it in the version of Quorum Playground that made it"
            ),
            LinkError::TooLong { chars } => format!(
                "it is {chars} characters long, and a run link is at most {MAX_LINK_CHARS}"
            ),
            LinkError::Damaged => {
                "it was cut short or changed on the way (its checksum does not match); copy the whole link again".to_string()
            }
            LinkError::TooBig => format!("it unpacks to more than {MAX_JSON_BYTES} bytes"),
            LinkError::Invalid(why) => why.clone(),
        }
    }
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "This link cannot be opened: {}. The default world is shown instead.",
            self.why()
        )
    }
}

/// The JSON of formats 1 and 2: format 2 is format 1 and `etcd`, which
/// format 1 has not (`read_body` checks which the link says it is).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Body {
    v: u32,
    seed: u64,
    start: String,
    speed: f64,
    steps: Vec<(u64, String)>,
    tail: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lesson: Option<LessonAt>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    etcd: Option<String>,
}

impl Run {
    /// A run with nothing typed yet.
    pub fn new(seed: u64, start: Start) -> Run {
        Run {
            seed,
            start,
            etcd: EtcdVersion::default(),
            steps: Vec::new(),
            tail_ms: 0,
            speed: 1.0,
            lesson: None,
        }
    }

    /// The run in the shell language, for the headless runner and Import: a
    /// header naming the seed, the boot script when the world started as a
    /// cluster, then each command after a `sleep` for the time the clock ran.
    pub fn script(&self) -> String {
        let mut s = format!(
            "# Quorum Playground run, seed {seed}: replay with\n#   quorum-playground run FILE --seed {seed}{flag}\n# seed: {seed}\n{line}",
            seed = self.seed,
            flag = self.etcd_flag(),
            line = self.etcd_line()
        );
        if self.start == Start::Cluster {
            s.push_str(CLUSTER_SCRIPT);
        }
        for step in &self.steps {
            push_sleep(&mut s, step.wait_ms);
            s.push_str(&step.line);
            s.push('\n');
        }
        push_sleep(&mut s, self.tail_ms);
        s
    }

    /// The runner's `--etcd-version` for this run: none on 3.4 (its default).
    fn etcd_flag(&self) -> String {
        match self.etcd {
            EtcdVersion::V3_4 => String::new(),
            v => format!(" --etcd-version {}", v.name()),
        }
    }

    /// The [`ETCD_LINE`] of a script or transcript: none on 3.4.
    fn etcd_line(&self) -> String {
        match self.etcd {
            EtcdVersion::V3_4 => String::new(),
            v => format!("{ETCD_LINE} {}\n", v.name()),
        }
    }

    /// The share link's fragment, without `#`: `run=1.` (a run on etcd 3.4)
    /// or `run=2.` (on 3.5) and the packed run.
    pub fn to_link(&self) -> Result<String, LinkError> {
        let format = match self.etcd {
            EtcdVersion::V3_4 => 1,
            _ => 2,
        };
        let body = Body {
            v: format,
            seed: self.seed,
            start: self.start.name().to_string(),
            speed: self.speed,
            steps: self
                .steps
                .iter()
                .map(|s| (s.wait_ms, s.line.clone()))
                .collect(),
            tail: self.tail_ms,
            lesson: self.lesson.clone(),
            etcd: (format == 2).then(|| self.etcd.name().to_string()),
        };
        let json = serde_json::to_vec(&body).map_err(|e| LinkError::Invalid(e.to_string()))?;
        let link = pack_as(format, &json);
        if link.len() > MAX_LINK_CHARS {
            return Err(LinkError::TooLong { chars: link.len() });
        }
        Ok(link)
    }

    /// Reads a link's fragment (with or without the leading `#`; other
    /// `&`-separated fields are ignored).
    pub fn from_link(fragment: &str) -> Result<Run, LinkError> {
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        let value = fragment
            .split('&')
            .find_map(|f| f.strip_prefix("run="))
            .ok_or(LinkError::NotALink)?;
        if value.len() > MAX_LINK_CHARS {
            return Err(LinkError::TooLong { chars: value.len() });
        }
        let (version, body) = value.split_once('.').ok_or(LinkError::NotALink)?;
        read_version(version, body)
    }
}

/// A link fragment holding `json` as format 1 holds it (the fuzzer and the
/// tests make links from hand-written JSON with it).
pub fn pack(json: &[u8]) -> String {
    pack_as(1, json)
}

/// A link fragment `run=FORMAT.` holding `json`.
pub fn pack_as(format: u32, json: &[u8]) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(json, 9);
    format!("run={format}.{}", base64url_encode(&packed))
}

/// Format dispatch: each version the page has ever written is read here.
fn read_version(version: &str, body: &str) -> Result<Run, LinkError> {
    match version {
        "1" => read_body(1, body),
        "2" => read_body(2, body),
        other => Err(LinkError::UnknownVersion(clipped(other, 12))),
    }
}

/// The etcd a link's run names: none in format 1 (3.4, the only etcd then),
/// a known one in format 2.
fn read_etcd(format: u32, etcd: Option<&str>) -> Result<EtcdVersion, LinkError> {
    match (format, etcd) {
        (1, None) => Ok(EtcdVersion::V3_4),
        (1, Some(_)) => Err(LinkError::Invalid(
            "it names its etcd in format 1, which has no etcd field".to_string(),
        )),
        (_, None) => Err(LinkError::Invalid(format!(
            "its run does not name its etcd, which format {format} requires"
        ))),
        (_, Some(v)) => EtcdVersion::from_name(v).ok_or_else(|| {
            LinkError::Invalid(format!(
                "it runs etcd {:?}, and this page has etcd {}",
                visible_text(&clipped(v, 12)),
                command::ETCD_VERSIONS.join(" and ")
            ))
        }),
    }
}

fn read_body(format: u32, body: &str) -> Result<Run, LinkError> {
    let packed = base64url_decode(body).ok_or(LinkError::Damaged)?;
    let json = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&packed, MAX_JSON_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => LinkError::TooBig,
            _ => LinkError::Damaged,
        })?;
    // serde's message quotes what it read, which a link controls: clipped.
    let v1: Body = serde_json::from_slice(&json).map_err(|e| {
        LinkError::Invalid(format!(
            "its run does not read as format {format} ({})",
            clipped(&e.to_string(), 160)
        ))
    })?;
    if v1.v != format {
        return Err(LinkError::Invalid(format!(
            "it says format {} inside and format {format} outside",
            v1.v
        )));
    }
    let run = Run {
        seed: v1.seed,
        start: parse_start(&v1.start)?,
        etcd: read_etcd(format, v1.etcd.as_deref())?,
        steps: v1
            .steps
            .into_iter()
            .map(|(wait_ms, line)| Step { wait_ms, line })
            .collect(),
        tail_ms: v1.tail,
        speed: v1.speed,
        lesson: v1.lesson,
    };
    check(&run)?;
    Ok(run)
}

/// The bounds of [`LIMITS`], the speed's range, and a lesson name that can
/// only name a file in `static/lessons/`.
fn check(run: &Run) -> Result<(), LinkError> {
    let bad = |why: String| Err(LinkError::Invalid(why));
    if run.steps.len() > LIMITS.commands {
        return bad(format!(
            "it lists {} commands, and a run link holds at most {}",
            run.steps.len(),
            LIMITS.commands
        ));
    }
    if let Some(i) = run
        .steps
        .iter()
        .position(|s| s.line.chars().count() > LIMITS.line_chars)
    {
        return bad(format!(
            "its command {} is longer than {} characters",
            i + 1,
            LIMITS.line_chars
        ));
    }
    let wait = run
        .steps
        .iter()
        .try_fold(run.tail_ms, |sum, s| sum.checked_add(s.wait_ms));
    if wait.is_none_or(|w| w > LIMITS.wait_ms) {
        return bad("it runs the clock for more than 24 simulated hours".to_string());
    }
    if !(run.speed.is_finite() && (SPEED_MIN..=SPEED_MAX).contains(&run.speed)) {
        return bad(format!("its speed is not from {SPEED_MIN} to {SPEED_MAX}"));
    }
    if let Some(l) = &run.lesson {
        let plain = !l.name.is_empty()
            && l.name.len() <= 100
            && l.name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !plain {
            return bad("its lesson is not a lesson name of this site".to_string());
        }
    }
    Ok(())
}

/// The first line of an exported transcript, which [`import`] recognizes.
pub const TRANSCRIPT_HEADER: &str = "# Quorum Playground transcript";

/// The run as the headless runner prints it (`quorum-playground run` of
/// [`Run::script`] with the run's seed), under a header naming the seed.
pub fn transcript(run: &Run) -> String {
    let body = runner::run_source(
        &run.script(),
        RunOptions {
            seed: run.seed,
            logs: false,
            etcd: run.etcd,
        },
    )
    .unwrap_or_else(|e| {
        format!(
            "# the run's script does not parse: line {}: {}\n",
            e.line, e.message
        )
    });
    format!(
        "{TRANSCRIPT_HEADER}, seed {seed}\n# seed: {seed}\n{line}{body}",
        seed = run.seed,
        line = run.etcd_line()
    )
}

/// Why pasted text cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportError {
    /// Nothing to run in it.
    Empty,
    /// A script line that does not parse (1-based line, the parser's message).
    Parse { line: usize, message: String },
    /// The `# seed:` line is not a number.
    Seed(String),
    /// The `# etcd-version:` line names no etcd the page has.
    Etcd(String),
    /// Beyond what a run may hold.
    Limits(String),
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportError::Empty => write!(f, "import: there is no command in the text"),
            ImportError::Parse { line, message } => write!(f, "import: line {line}: {message}"),
            ImportError::Seed(s) => write!(f, "import: \"# seed: {s}\" is not a whole number"),
            ImportError::Etcd(v) => write!(
                f,
                "import: \"{ETCD_LINE} {v}\" is not {}",
                command::ETCD_VERSIONS.join(" or ")
            ),
            ImportError::Limits(why) => write!(f, "import: {why}"),
        }
    }
}

/// A pasted script (what the runner reads) or transcript (what it prints) as a
/// run in an empty world: its commands in order, each typed when the one before
/// finished (time passes only where the text says `sleep`). The seed is the
/// first `# seed: N` line's, else the runner's default, 1. How the text was
/// read is [`import_with_report`]'s to say; this is its run alone.
pub fn import(text: &str) -> Result<Run, ImportError> {
    import_with_report(text).map(|i| i.run)
}

/// What [`import_with_report`] makes of a text: the run, and what it did.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub run: Run,
    pub report: ImportReport,
}

/// What Import did with a text, for the notice the page shows after it:
/// how it read the text and why, how many commands it kept, and every line
/// worth a word (a command the shell does not know, a command-like line that
/// did not run). Its `Display` is that notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportReport {
    pub read_as: ReadAs,
    /// The lines' shape, which decided [`ReadAs`] when there is no header.
    pub shape: Shape,
    /// Commands kept: the run's steps.
    pub kept: usize,
    /// Lines without a prompt a transcript's reading skipped as output.
    pub output_skipped: usize,
    /// The lines worth a word, by line number.
    pub notes: Vec<LineNote>,
}

/// Script or transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadAs {
    /// Every command runs, with or without a prompt (what the runner does).
    Script,
    /// Only the lines after a prompt run; the others are output. `header` is
    /// the line (1-based) of [`TRANSCRIPT_HEADER`] when there is one; without
    /// it, the text has prompted lines and more of its other lines look like
    /// output than like commands.
    Transcript { header: Option<usize> },
}

/// The non-blank, non-comment lines of a text by what they look like (a
/// `\` continuation line counts with the line it continues).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shape {
    /// Lines that start with a prompt (`$ `, `HOST$ `, `(X)$ `).
    pub prompted: usize,
    /// Lines without a prompt that look like commands: the first word is a
    /// command the shell knows, an assignment, or one typing slip away from a
    /// command (`ectdctl`).
    pub commands: usize,
    /// Lines without a prompt that do not look like commands.
    pub output: usize,
}

/// One line Import has something to say about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineNote {
    /// 1-based, as an editor numbers it.
    pub line: usize,
    /// The line (trimmed, at most [`NOTE_CHARS`] characters).
    pub text: String,
    pub fate: Fate,
}

/// What became of a noted line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Kept and run, but its first word is no command the shell knows: the
    /// terminal shows `sh: WORD: command not found`, as the runner would.
    UnknownCommand,
    /// Not run: a line without a prompt in a transcript that looks like a
    /// command (a transcript's commands all have prompts).
    NoPrompt,
}

/// The most characters of a line a [`LineNote`] quotes.
pub const NOTE_CHARS: usize = 60;

/// How many noted lines the notice quotes; the rest it lists by number.
const NOTICE_QUOTED: usize = 6;
/// How many more line numbers the notice lists before "and N more".
const NOTICE_NUMBERED: usize = 30;

/// [`import`], saying what it did: read as a script when the text has no
/// [`TRANSCRIPT_HEADER`] and either no prompts or at least as many
/// command-like lines without a prompt as output-like ones (so one stray line
/// cannot turn a script into a transcript and drop its commands). Nothing is
/// dropped without a [`LineNote`].
pub fn import_with_report(text: &str) -> Result<Imported, ImportError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let seed = seed_line(text)?.unwrap_or(1);
    let etcd = etcd_line(text)?;
    let kinds = line_kinds(text);
    let shape = shape_of(&kinds);
    let header = text
        .lines()
        .position(|l| l.starts_with(TRANSCRIPT_HEADER))
        .map(|i| i + 1);
    let transcript = header.is_some() || (shape.prompted > 0 && shape.output > shape.commands);
    let (lines, report) = if transcript {
        read_transcript(text, &kinds, header, shape)
    } else {
        read_script(text, shape)?
    };
    if lines.is_empty() {
        return Err(ImportError::Empty);
    }
    let mut run = Run::new(seed, Start::Empty);
    run.etcd = etcd;
    run.steps = lines
        .into_iter()
        .map(|line| Step { wait_ms: 0, line })
        .collect();
    check(&run).map_err(|e| match e {
        LinkError::Invalid(why) => ImportError::Limits(why.replace("its command", "command")),
        other => ImportError::Limits(other.to_string()),
    })?;
    Ok(Imported { run, report })
}

fn seed_line(text: &str) -> Result<Option<u64>, ImportError> {
    let Some(value) = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("# seed:"))
        .map(str::trim)
    else {
        return Ok(None);
    };
    value
        .parse()
        .map(Some)
        .map_err(|_| ImportError::Seed(value.chars().take(30).collect()))
}

/// The first [`ETCD_LINE`]'s etcd, else 3.4 (the runner's default).
fn etcd_line(text: &str) -> Result<EtcdVersion, ImportError> {
    let Some(value) = text
        .lines()
        .find_map(|l| l.trim().strip_prefix(ETCD_LINE))
        .map(str::trim)
    else {
        return Ok(EtcdVersion::default());
    };
    EtcdVersion::from_name(value)
        .ok_or_else(|| ImportError::Etcd(visible_text(&clipped(value, 30)).into_owned()))
}

/// A line's text after its prompt, if it has one (`$ `, `HOST$ `, `(X)$ `).
fn prompted(line: &str) -> Option<String> {
    let (_, text) = parse::split_prompt(line);
    (text != line.trim()).then_some(text)
}

/// What one line of a pasted text looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Blank, a comment, or the rest of a `\` continued line.
    Skip,
    Prompted,
    Command,
    Output,
}

/// Each line's [`Kind`], in order.
fn line_kinds(text: &str) -> Vec<Kind> {
    let mut continued = false;
    text.lines()
        .map(|line| {
            let t = line.trim();
            let was_continued = continued;
            // A comment ends at its line; anything else may go on after `\`.
            continued = t.ends_with('\\') && (was_continued || !t.starts_with('#'));
            if t.is_empty() || t.starts_with('#') || was_continued {
                Kind::Skip
            } else if prompted(t).is_some() {
                Kind::Prompted
            } else if looks_like_command(t) {
                Kind::Command
            } else {
                Kind::Output
            }
        })
        .collect()
}

fn shape_of(kinds: &[Kind]) -> Shape {
    let count = |k: Kind| kinds.iter().filter(|&&x| x == k).count();
    Shape {
        prompted: count(Kind::Prompted),
        commands: count(Kind::Command),
        output: count(Kind::Output),
    }
}

/// Whether a line without a prompt reads as a command a person typed rather
/// than a command's output. Output such as `etcdctl version: 3.4.23` (a word
/// ending in `:` first or second) does not.
fn looks_like_command(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("");
    let second = words.next().unwrap_or("");
    if first.ends_with(':') || second.ends_with(':') {
        return false;
    }
    command::is_command(first) || parse::is_assignment(first) || near_command(first)
}

/// A word one typing slip (a letter wrong, missing, extra, or two swapped)
/// from a command of four letters or more: `ectdctl`, `etcdclt`, `mahcine`.
fn near_command(word: &str) -> bool {
    let plain = word.len() >= 4
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/'));
    plain
        && command::commands()
            .iter()
            .any(|c| c.len() >= 4 && one_slip(word.as_bytes(), c.as_bytes()))
}

/// Whether `a` and `b` differ by exactly one substitution, insertion,
/// deletion or swap of neighbours.
fn one_slip(a: &[u8], b: &[u8]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let p = short.iter().zip(long).take_while(|(x, y)| x == y).count();
    match long.len() - short.len() {
        0 if p < short.len() => {
            let substituted = short.get(p + 1..) == long.get(p + 1..);
            let swapped = short.get(p) == long.get(p + 1)
                && short.get(p + 1) == long.get(p)
                && short.get(p + 2..) == long.get(p + 2..);
            substituted || swapped
        }
        1 => short.get(p..) == long.get(p + 1..),
        _ => false,
    }
}

/// The first word of a command, when it is plainly no command the shell
/// knows. A word with quotes, `$` or `\` is only known after the shell
/// expands it, and an assignment (`A=1 cmd`) is not the command: neither is
/// judged.
fn unknown_command(command: &str) -> bool {
    let first = command.split_whitespace().next().unwrap_or("");
    let expands = first.contains(['\'', '"', '$', '\\', '`', '{', '*', '?', '[', '~']);
    !first.is_empty() && !expands && !parse::is_assignment(first) && !command::is_command(first)
}

fn note(line: usize, text: &str, fate: Fate) -> LineNote {
    LineNote {
        line,
        text: clipped(text.trim(), NOTE_CHARS),
        fate,
    }
}

/// A transcript's commands: its prompted lines, as echoed (already joined),
/// and the report: output lines counted, command-like lines without a prompt
/// and prompted commands the shell does not know noted.
fn read_transcript(
    text: &str,
    kinds: &[Kind],
    header: Option<usize>,
    shape: Shape,
) -> (Vec<String>, ImportReport) {
    let mut lines = Vec::new();
    let mut notes = Vec::new();
    let mut output_skipped = 0;
    for (i, (line, kind)) in text.lines().zip(kinds).enumerate() {
        let t = line.trim();
        if t.starts_with('#') {
            continue;
        }
        if let Some(command) = prompted(t) {
            if unknown_command(&command) {
                notes.push(note(i + 1, t, Fate::UnknownCommand));
            }
            // `(HOST)$ cmd` as `HOST$ cmd`: the page records a button's
            // command (run on HOST, the terminal's machine kept) in the
            // parenthesised form, and a transcript's prompt switches.
            lines.push(match parse::split_prompt(t) {
                (Prompt::Host(h), text) => format!("{h}$ {text}"),
                (Prompt::Current, _) => t.to_string(),
            });
            continue;
        }
        match kind {
            Kind::Command => notes.push(note(i + 1, t, Fate::NoPrompt)),
            Kind::Output => output_skipped += 1,
            Kind::Skip | Kind::Prompted => {}
        }
    }
    let report = ImportReport {
        read_as: ReadAs::Transcript { header },
        shape,
        kept: lines.len(),
        output_skipped,
        notes,
    };
    (lines, report)
}

/// A script's commands, each as one line (`HOST$ text` or the text alone),
/// and the report: commands the shell does not know noted (they run).
fn read_script(text: &str, shape: Shape) -> Result<(Vec<String>, ImportReport), ImportError> {
    let commands = parse::parse_script(text).map_err(|e| ImportError::Parse {
        line: e.line,
        message: e.message,
    })?;
    let source: Vec<&str> = text.lines().collect();
    let notes = commands
        .iter()
        .filter(|c| unknown_command(&c.text))
        .map(|c| {
            let line = source.get(c.line.wrapping_sub(1)).copied().unwrap_or("");
            note(c.line, line, Fate::UnknownCommand)
        })
        .collect();
    let report = ImportReport {
        read_as: ReadAs::Script,
        shape,
        kept: commands.len(),
        output_skipped: 0,
        notes,
    };
    Ok((commands.iter().map(command_line).collect(), report))
}

impl ImportReport {
    /// The noted lines with this fate.
    pub fn lines(&self, fate: Fate) -> Vec<usize> {
        self.notes
            .iter()
            .filter(|n| n.fate == fate)
            .map(|n| n.line)
            .collect()
    }

    /// Why the text was read as it was, in a parenthesis's words.
    fn why(&self) -> String {
        let s = self.shape;
        match self.read_as {
            ReadAs::Transcript { header: Some(line) } => {
                format!("line {line} is the header “{TRANSCRIPT_HEADER}”")
            }
            ReadAs::Transcript { header: None } => format!(
                "{} {} a prompt, and {} of its {} other lines look like output, not commands",
                s.prompted,
                plural(s.prompted, "line starts with", "lines start with"),
                s.output,
                s.output + s.commands
            ),
            ReadAs::Script if s.prompted == 0 => "no line starts with a prompt".to_string(),
            ReadAs::Script if s.output + s.commands == 0 => {
                "every line starts with a prompt".to_string()
            }
            ReadAs::Script => format!(
                "{} of its {} lines without a prompt look like commands",
                s.commands,
                s.output + s.commands
            ),
        }
    }
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// `line 4 (“foo”), line 9 (“bar”)`, the first few quoted, the rest by
/// number, and `and N more` past that.
fn noted_lines(notes: &[&LineNote]) -> String {
    let mut parts: Vec<String> = notes
        .iter()
        .take(NOTICE_QUOTED)
        .map(|n| format!("line {} (“{}”)", n.line, visible_text(&n.text)))
        .collect();
    let rest = notes.iter().skip(NOTICE_QUOTED);
    parts.extend(
        rest.clone()
            .take(NOTICE_NUMBERED)
            .map(|n| n.line.to_string()),
    );
    let more = rest.count().saturating_sub(NOTICE_NUMBERED);
    if more > 0 {
        parts.push(format!("and {more} more"));
    }
    parts.join(", ")
}

impl std::fmt::Display for ImportReport {
    /// The notice: one paragraph, lines quoted with their hidden characters
    /// shown (`visible_text`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = count(self.kept, "command");
        match self.read_as {
            ReadAs::Script => write!(
                f,
                "Import read the text as a script ({}) and kept all its {kept}.",
                self.why()
            )?,
            ReadAs::Transcript { .. } => write!(
                f,
                "Import read the text as a transcript ({}): it kept the {kept} after a prompt and skipped {} of output.",
                self.why(),
                count(self.output_skipped, "line")
            )?,
        }
        for (fate, said) in [
            (Fate::UnknownCommand, "Not a command this shell knows, so the terminal says “command not found”"),
            (Fate::NoPrompt, "Not run, as a transcript's commands start with a prompt (add one, e.g. “$ ”, to run them)"),
        ] {
            let noted: Vec<&LineNote> = self.notes.iter().filter(|n| n.fate == fate).collect();
            if !noted.is_empty() {
                write!(f, " {said}: {}.", noted_lines(&noted))?;
            }
        }
        Ok(())
    }
}

/// A script command as a person types it: `HOST$ text`, or the text alone.
pub fn command_line(c: &ScriptCommand) -> String {
    match &c.prompt {
        Prompt::Host(h) => format!("{h}$ {}", c.text),
        Prompt::Current => c.text.clone(),
    }
}

fn parse_start(text: &str) -> Result<Start, LinkError> {
    Start::from_name(text).ok_or_else(|| {
        LinkError::Invalid(format!(
            "its world starts as {:?}, which is neither cluster nor empty",
            clipped(text, 20)
        ))
    })
}

fn push_sleep(s: &mut String, ms: u64) {
    if ms > 0 {
        s.push_str(&format!("sleep {ms}ms\n"));
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Base64url without padding (RFC 4648 §5): safe in a URL fragment as is.
/// (Twenty lines, where the `base64` crate would add its engines to the wasm.)
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// The inverse of [`base64url_encode`]; `None` for any other text (a padding
/// `=`, a character outside the alphabet, a length no encoding has).
pub fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    if bytes.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            let v = B64.iter().position(|&b| b == c)? as u32;
            n |= v << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Run {
        Run {
            seed: 7,
            start: Start::Cluster,
            etcd: EtcdVersion::V3_4,
            steps: vec![
                Step {
                    wait_ms: 0,
                    line: "etcdctl put a 1".into(),
                },
                Step {
                    wait_ms: 2500,
                    line: "node02$ net isolate node01".into(),
                },
                Step {
                    wait_ms: 1200,
                    line: "etcdctl put b \"two words\"".into(),
                },
            ],
            tail_ms: 300,
            speed: 2.5,
            lesson: Some(LessonAt {
                name: "000-server-addition-deletion".into(),
                step: 2,
                done: true,
            }),
        }
    }

    #[test]
    fn base64url_round_trips_every_length() {
        for len in 0..40 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let text = base64url_encode(&bytes);
            assert!(!text.contains(['+', '/', '=']));
            assert_eq!(base64url_decode(&text), Some(bytes));
        }
        assert_eq!(base64url_encode(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64url_encode(b"fo"), "Zm8");
        assert_eq!(base64url_encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(base64url_decode("Zm8="), None);
        assert_eq!(base64url_decode("Zm9vY"), None);
        assert_eq!(base64url_decode("Zm 8"), None);
    }

    #[test]
    fn a_run_survives_its_link() {
        let run = sample();
        let link = run.to_link().expect("fits");
        assert!(link.starts_with("run=1."));
        assert_eq!(Run::from_link(&link), Ok(run.clone()));
        assert_eq!(Run::from_link(&format!("#embed&{link}")), Ok(run));
    }

    #[test]
    fn script_puts_waits_as_sleeps_after_the_boot_script() {
        let s = sample().script();
        assert!(s.contains("# seed: 7\n"));
        assert!(s.contains(CLUSTER_SCRIPT));
        let tail: Vec<&str> = s.lines().rev().take(6).collect();
        assert_eq!(
            tail,
            [
                "sleep 300ms",
                "etcdctl put b \"two words\"",
                "sleep 1200ms",
                "node02$ net isolate node01",
                "sleep 2500ms",
                "etcdctl put a 1"
            ]
        );
    }

    #[test]
    fn damaged_links_are_refused_by_name() {
        let link = sample().to_link().expect("fits");
        let cut = &link[..link.len() - 5];
        assert_eq!(Run::from_link(cut), Err(LinkError::Damaged));
        // One character changed in the middle.
        let mut bytes = link.clone().into_bytes();
        let mid = bytes.len() / 2;
        bytes[mid] = if bytes[mid] == b'A' { b'B' } else { b'A' };
        let tampered = String::from_utf8(bytes).expect("ascii");
        assert!(matches!(
            Run::from_link(&tampered),
            Err(LinkError::Damaged | LinkError::Invalid(_))
        ));
        assert_eq!(
            Run::from_link(&link.replacen("run=1.", "run=3.", 1)),
            Err(LinkError::UnknownVersion("3".into()))
        );
        // A format-1 body under format 2's number is not format 2.
        assert!(matches!(
            Run::from_link(&link.replacen("run=1.", "run=2.", 1)),
            Err(LinkError::Invalid(_))
        ));
        assert_eq!(Run::from_link("lesson=x"), Err(LinkError::NotALink));
        assert_eq!(Run::from_link("run=1"), Err(LinkError::NotALink));
        let long = format!("run=1.{}", "A".repeat(MAX_LINK_CHARS));
        assert!(matches!(
            Run::from_link(&long),
            Err(LinkError::TooLong { .. })
        ));
    }

    fn pack(json: &str) -> String {
        super::pack(json.as_bytes())
    }

    #[test]
    fn a_well_packed_but_wrong_run_is_refused() {
        let ok = r#"{"v":1,"seed":1,"start":"cluster","speed":1.0,"steps":[],"tail":0}"#;
        assert!(Run::from_link(&pack(ok)).is_ok());
        for bad in [
            r#"{"v":1,"seed":1,"start":"cluster","speed":1000.0,"steps":[],"tail":0}"#,
            r#"{"v":1,"seed":1,"start":"mars","speed":1.0,"steps":[],"tail":0}"#,
            r#"{"v":1,"seed":1,"start":"cluster","speed":1.0,"steps":[],"tail":999999999999}"#,
            r#"{"v":1,"seed":1,"start":"cluster","speed":1.0,"steps":[[0,"a"],[99999999999,"b"]],"tail":0}"#,
            r#"{"v":1,"seed":1,"start":"cluster","speed":1.0,"steps":[],"tail":0,"lesson":{"name":"../x","step":0,"done":false}}"#,
            r#"{"v":1,"seed":1,"start":"cluster","speed":1.0,"steps":[],"tail":0,"html":"<b>"}"#,
            r#"{"v":2,"seed":1,"start":"cluster","speed":1.0,"steps":[],"tail":0}"#,
            r#"[1,2,3]"#,
        ] {
            assert!(
                matches!(Run::from_link(&pack(bad)), Err(LinkError::Invalid(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_zip_bomb_is_too_big() {
        let huge = format!(
            r#"{{"v":1,"seed":1,"start":"cluster","speed":1.0,"steps":[],"tail":0,"x":"{}"}}"#,
            "a".repeat(MAX_JSON_BYTES * 2)
        );
        assert_eq!(Run::from_link(&pack(&huge)), Err(LinkError::TooBig));
    }

    #[test]
    fn a_run_too_long_for_a_link_says_so() {
        let mut run = Run::new(1, Start::Empty);
        // Incompressible lines: each a different pseudo-random word.
        let mut x: u64 = 1;
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            run.steps.push(Step {
                wait_ms: x % 1000,
                line: format!("etcdctl put k{x} v{}", x >> 7),
            });
        }
        assert!(matches!(run.to_link(), Err(LinkError::TooLong { .. })));
    }

    fn runner(script: &str, seed: u64) -> String {
        runner::run_source(
            script,
            RunOptions {
                seed,
                logs: false,
                ..Default::default()
            },
        )
        .expect("parses")
    }

    /// A run of real commands, with time between them.
    fn busy() -> Run {
        let mut run = Run::new(3, Start::Cluster);
        for (wait_ms, line) in [
            (0, "etcdctl put a 1"),
            (1500, "node03$ kill etcd"),
            (2500, "node01$ etcdctl member list"),
            (700, "etcdctl get a"),
        ] {
            run.steps.push(Step {
                wait_ms,
                line: line.into(),
            });
        }
        run.tail_ms = 900;
        run
    }

    #[test]
    fn an_exported_script_or_transcript_imports_as_the_same_run() {
        let run = busy();
        let expected = runner(&run.script(), 3);
        assert!(expected.contains("node03$ sleep 2500ms\n"), "{expected}");
        let t = transcript(&run);
        assert!(t.starts_with("# Quorum Playground transcript, seed 3\n# seed: 3\n"));
        assert!(t.ends_with(&expected));
        for text in [run.script(), t] {
            let imported = import(&text).expect("imports");
            assert_eq!(imported.seed, 3);
            assert_eq!(runner(&imported.script(), 3), expected);
        }
    }

    fn report(text: &str) -> (usize, ImportReport) {
        let i = import_with_report(text).expect("imports");
        (i.run.steps.len(), i.report)
    }

    /// The issue's text: two prompted commands, three bare ones and one line
    /// whose first word is no command. It was read as a transcript and four
    /// of its six commands were dropped without a word.
    #[test]
    fn one_unknown_command_does_not_make_a_script_a_transcript() {
        let text = "machine add n1 10.0.0.1\n\
                    n1$ etcd --name n1 --data-dir n1.etcd\n\
                    etcdctl put a 1\n\
                    frobnicate now\n\
                    etcdctl get a\n\
                    n1$ etcdctl member list\n";
        let (kept, r) = report(text);
        assert_eq!(kept, 6, "every command runs, the unknown one too");
        assert_eq!(r.read_as, ReadAs::Script);
        assert_eq!(
            r.shape,
            Shape {
                prompted: 2,
                commands: 3,
                output: 1
            }
        );
        assert_eq!(r.lines(Fate::UnknownCommand), [4]);
        assert_eq!(r.lines(Fate::NoPrompt), Vec::<usize>::new());
        let notice = r.to_string();
        assert!(notice.contains("as a script"), "{notice}");
        assert!(notice.contains("all its 6 commands"), "{notice}");
        assert!(notice.contains("line 4 (“frobnicate now”)"), "{notice}");
        // The runner runs the same six and says so.
        let out = runner(&import(text).expect("imports").script(), 1);
        assert!(out.contains("sh: frobnicate: command not found"), "{out}");
    }

    #[test]
    fn a_real_transcript_keeps_its_prompted_lines_and_says_so() {
        // With the header, as Transcript exports it.
        let t = transcript(&busy());
        let prompted = t.lines().filter(|l| prompted(l).is_some()).count();
        let (kept, r) = report(&t);
        assert_eq!(r.read_as, ReadAs::Transcript { header: Some(1) });
        assert_eq!(kept, prompted);
        assert!(r.output_skipped > 0);
        assert_eq!(r.notes, []);
        let notice = r.to_string();
        assert!(notice.contains("line 1 is the header"), "{notice}");
        assert!(notice.contains(&format!("kept the {prompted} commands after a prompt")));
        // Without it, as pasted from a terminal: `etcdctl version` prints
        // lines that start with a command's name, and they are output too.
        let t = "$ machine add n1 10.0.0.1\nn1$ etcdctl put a 1\nOK\nn1$ etcdctl get a\na\n1\n\
                 n1$ etcdctl version\netcdctl version: 3.4.23\nAPI version: 3.4\n";
        let (kept, r) = report(t);
        assert_eq!(r.read_as, ReadAs::Transcript { header: None });
        assert_eq!((kept, r.output_skipped), (4, 5));
        assert_eq!(r.notes, []);
        let notice = r.to_string();
        assert!(
            notice.contains(
                "4 lines start with a prompt, and 5 of its 5 other lines look like output"
            ),
            "{notice}"
        );
    }

    #[test]
    fn a_real_script_runs_whole_and_unknown_commands_are_named() {
        let script = "machine add n1 10.0.0.1\nn1$ export A=1\nB=2\netcd --name n1 \\\n  --data-dir x\netcdctl get a\n";
        let (kept, r) = report(script);
        assert_eq!(kept, 5);
        assert_eq!(r.read_as, ReadAs::Script);
        assert_eq!(r.notes, []);
        assert!(r.to_string().contains("all its 5 commands"));
        let (kept, r) = report("machine add n1 10.0.0.1\nn1$ sleep 1s\nmachnie rm n1\n");
        assert_eq!((kept, r.read_as), (3, ReadAs::Script));
        assert_eq!(r.lines(Fate::UnknownCommand), [3]);
        // Without prompts, every line is a command, output-like or not.
        let (kept, r) = report("etcdctl get a\nOK\n\nls\n");
        assert_eq!((kept, r.read_as), (3, ReadAs::Script));
        assert_eq!(r.lines(Fate::UnknownCommand), [2]);
        assert!(r.to_string().contains("no line starts with a prompt"));
    }

    #[test]
    fn a_mixed_text_is_read_by_its_majority_and_every_line_is_accounted_for() {
        // Mostly commands: a script, with a typo and a pasted output line
        // that run (and the shell says so).
        let text = "# seed: 4\n\
                    machine add n1 10.0.0.1\n\
                    n1$ etcd --name n1 \\\n\
                    \x20 --data-dir n1.etcd\n\
                    ectdctl put a 1\n\
                    OK\n\
                    etcdctl get a\n\
                    n1$ etcdctl member list\n";
        let (kept, r) = report(text);
        assert_eq!(r.read_as, ReadAs::Script);
        assert_eq!(kept, 6);
        assert_eq!(r.lines(Fate::UnknownCommand), [5, 6]);
        // Mostly output: a transcript; the one command without a prompt is
        // named, not dropped silently.
        let text = "$ machine add n1 10.0.0.1\nn1$ etcdctl put a 1\nOK\netcdctl get a\na\n1\n";
        let (kept, r) = report(text);
        assert_eq!(r.read_as, ReadAs::Transcript { header: None });
        assert_eq!((kept, r.output_skipped), (2, 3));
        assert_eq!(r.lines(Fate::NoPrompt), [4]);
        let notice = r.to_string();
        assert!(notice.contains("Not run"), "{notice}");
        assert!(notice.contains("line 4 (“etcdctl get a”)"), "{notice}");
    }

    #[test]
    fn typing_slips_look_like_commands() {
        for slip in [
            "ectdctl", "etcdclt", "etcdtl", "etcdctll", "mahcine", "Etcdctl", "slep",
        ] {
            assert!(near_command(slip), "{slip}");
        }
        for not in [
            "OK",
            "a",
            "8e9e05c52164694d,",
            "sh:",
            "API",
            "nothing",
            "cta",
        ] {
            assert!(!near_command(not), "{not}");
        }
        assert!(!looks_like_command("etcd Version: 3.4.23"));
        assert!(!looks_like_command("sh: foo: command not found"));
        assert!(looks_like_command("A=1 etcdctl get a"));
    }

    #[test]
    fn the_notice_shows_hidden_characters_and_stays_short() {
        let (_, r) = report("echo a\nx\u{202e}y z\n");
        assert_eq!(r.read_as, ReadAs::Script);
        let notice = r.to_string();
        assert!(notice.contains("line 2 (“x<U+202E>y z”)"), "{notice}");
        assert!(!notice.contains('\u{202e}'));
        let many: String = (0..100).map(|i| format!("nope{i}\n")).collect();
        let (kept, r) = report(&many);
        assert_eq!((kept, r.notes.len()), (100, 100));
        let notice = r.to_string();
        assert!(notice.contains(", 35, 36, and 64 more."), "{notice}");
        assert!(notice.len() < 700, "{}", notice.len());
    }

    #[test]
    fn bad_imports_say_why() {
        assert_eq!(import(""), Err(ImportError::Empty));
        assert_eq!(import("# only a comment\n\n"), Err(ImportError::Empty));
        assert_eq!(
            import("# seed: many\netcdctl get a\n"),
            Err(ImportError::Seed("many".into()))
        );
        let e = import("etcdctl put a 'unclosed\n").expect_err("does not parse");
        assert!(matches!(e, ImportError::Parse { line: 1, .. }), "{e:?}");
        let long = format!("etcdctl put a {}\n", "x".repeat(LIMITS.line_chars));
        assert!(matches!(import(&long), Err(ImportError::Limits(_))));
    }

    /// A link written by format 1 must open in every later version of the page.
    #[test]
    fn a_committed_format_1_link_still_opens() {
        let link = include_str!("../tests/links/format-1.link").trim();
        let run = Run::from_link(link).expect("format 1 opens");
        assert_eq!(run, sample());
    }

    /// A run on etcd 3.5 writes format 2 and comes back on 3.5; a run on
    /// 3.4 still writes format 1, byte for byte as before.
    #[test]
    fn a_run_on_etcd_3_5_survives_its_link_as_format_2() {
        let mut run = sample();
        run.etcd = EtcdVersion::V3_5;
        let link = run.to_link().expect("fits");
        assert!(link.starts_with("run=2."), "{link}");
        assert_eq!(Run::from_link(&link), Ok(run.clone()));
        let old = include_str!("../tests/links/format-1.link").trim();
        assert_eq!(sample().to_link().as_deref(), Ok(old));
        // A page that reads format 1 only refuses it by its number: this
        // page's answer for a format it does not know.
        assert_eq!(
            Run::from_link(&link.replacen("run=2.", "run=3.", 1)),
            Err(LinkError::UnknownVersion("3".into()))
        );
        // Its script and transcript say which etcd, and import back on it.
        let script = run.script();
        assert!(
            script.contains("--seed 7 --etcd-version 3.5\n# seed: 7\n# etcd-version: 3.5\n"),
            "{script}"
        );
        assert_eq!(import(&script).map(|r| r.etcd), Ok(EtcdVersion::V3_5));
        let t = transcript(&run);
        assert!(t.contains("etcdctl put a 1\nOK\n"), "{t}");
        assert_eq!(import(&t).map(|r| r.etcd), Ok(EtcdVersion::V3_5));
        assert_eq!(
            import(&sample().script()).map(|r| r.etcd),
            Ok(EtcdVersion::V3_4)
        );
    }

    /// The transcript of a run on 3.5 is the runner's with `--etcd-version 3.5`:
    /// the boot cluster's machines install 3.5.1.
    #[test]
    fn a_transcript_on_3_5_runs_the_boot_cluster_on_3_5() {
        let mut run = Run::new(2, Start::Cluster);
        run.etcd = EtcdVersion::V3_5;
        run.steps.push(Step {
            wait_ms: 0,
            line: "node02$ etcdctl version".into(),
        });
        let t = transcript(&run);
        assert!(
            t.contains("node02$ etcdctl version\netcdctl version: 3.5.1\n"),
            "{t}"
        );
        run.etcd = EtcdVersion::V3_4;
        let t = transcript(&run);
        assert!(t.contains("etcdctl version: 3.4.23\n"), "{t}");
    }

    #[test]
    fn a_link_naming_an_etcd_wrongly_is_refused_by_name() {
        let body = |v: u32, etcd: &str| {
            format!(
                r#"{{"v":{v},"seed":1,"start":"cluster","speed":1.0,"steps":[],"tail":0{etcd}}}"#
            )
        };
        let ok = pack_as(2, body(2, r#","etcd":"3.5""#).as_bytes());
        assert_eq!(Run::from_link(&ok).map(|r| r.etcd), Ok(EtcdVersion::V3_5));
        let ok = pack_as(2, body(2, r#","etcd":"3.4""#).as_bytes());
        assert_eq!(Run::from_link(&ok).map(|r| r.etcd), Ok(EtcdVersion::V3_4));
        let invalid =
            |format: u32, json: String| match Run::from_link(&pack_as(format, json.as_bytes())) {
                Err(LinkError::Invalid(why)) => why,
                other => panic!("{json}: {other:?}"),
            };
        let why = invalid(2, body(2, r#","etcd":"3.6""#));
        assert!(
            why.contains(r#"etcd "3.6", and this page has etcd 3.4 and 3.5"#),
            "{why}"
        );
        let why = invalid(2, body(2, r#","etcd":"3.5.1\u202e<b>x</b>and more""#));
        assert!(
            why.contains("<U+202E>") && why.contains('…') && !why.contains('\u{202e}'),
            "{why}"
        );
        for (format, json) in [
            (2, body(2, "")),
            (2, body(2, r#","etcd":35"#)),
            (2, body(2, r#","etcd":null"#)),
            (2, body(1, r#","etcd":"3.5""#)),
            (1, body(1, r#","etcd":"3.5""#)),
            (1, body(1, r#","etcd":"3.4""#)),
            (1, body(2, r#","etcd":"3.5""#)),
        ] {
            invalid(format, json);
        }
    }

    #[test]
    fn an_import_naming_an_unknown_etcd_says_so() {
        let e = import("# etcd-version: 3.6\netcdctl get a\n").expect_err("refused");
        assert_eq!(e, ImportError::Etcd("3.6".into()));
        assert_eq!(
            e.to_string(),
            "import: \"# etcd-version: 3.6\" is not 3.4 or 3.5"
        );
    }
}
