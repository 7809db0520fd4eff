//! The page's state and its one reducer: a shell session, the page's clock
//! (play/pause, speed, one tick), the terminal (lines, history, a pending command
//! and the lines typed while it runs), the timeline of terms and leaders, and the
//! text the screen-reader live region announces. Every change is a `Msg`.
//! The reducer has no side effects: it calls no browser API and writes
//! nothing outside the model; the page does that in effects after the render
//! (the panic report's copy of the run, a share's clipboard). What a panel's
//! handler needs at the moment it fires is in its props, or is asked of the
//! reducer with a message (`Msg::ForecastLine`, `Msg::Export`).
//!
//! Every command is also recorded in a [`Run`] with the simulated time the clock
//! ran before it, so any moment can be rebuilt by replay: a share link opens a
//! run ([`Model::replay_run`]); dragging the timeline back ([`Msg::Seek`])
//! replays the run up to that moment and keeps the rest as the *future*, shown
//! until the person acts (types, clicks, steps or plays), which forks it: from
//! then on the run is the replayed past and what they do next.
//!
//! How the clock and commands meet: the world only moves forward. A command that
//! runs simulated time (`etcdctl put` while quorum is lost, `sleep 3`) runs in the
//! world at once, which records a frame of the world every [`FRAME_MS`] on the
//! way. While the clock plays, the page then shows those frames as its clock
//! catches up, and prints the command's output when it reaches the moment the
//! simulated request finished: the command is *pending* until then, and lines
//! typed (or buttons clicked) meanwhile wait behind it, as type-ahead waits in a
//! terminal. While the clock is paused, a command shows its result at once (the
//! clock jumps by exactly the time it took), so a script typed into a paused page
//! prints what the headless runner prints.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use yew::Reducible;

use crate::lessons::{self, Lesson};
use crate::link::{LessonAt, Run, Step};
use crate::shell::actions;
use crate::shell::command::{self, Command};
use crate::shell::parse::{self, Prompt, Reader};
use crate::shell::session::{LimitsMet, Session};
use crate::sim::budget::{self, Spent};
use crate::sim::etcd::logfmt::Stamp;
pub use crate::sim::etcd::version::EtcdVersion;
use crate::sim::invariants::Promise;
use crate::sim::lost::{self, LostWrite};
use crate::sim::quorum::{self, Change, QuorumInfo};
use crate::sim::view::{elapsed_text, WorldView};
use crate::sim::world::{Action, LogLine};

/// What the page opens a world with: three machines running a three-member
/// cluster (the boot script), or no machines at all.
pub use crate::lessons::Start;

/// Simulated time a replay runs between two looks at the world (for the
/// timeline's samples), as a playing page looks once per frame.
const REPLAY_SLICE_MS: u64 = FRAME_MS;

/// Simulated milliseconds between two recorded frames of a pending command.
pub const FRAME_MS: u64 = 100;

/// What "one tick" advances: one etcd heartbeat tick (`--heartbeat-interval` 100 ms).
pub const TICK_MS: u64 = 100;

/// The longest real time one animation frame may play; a later frame plays nothing.
pub const MAX_FRAME_MS: f64 = 250.0;

/// The speed field's presets (the field accepts any value in between).
pub const SPEEDS: [f64; 10] = [0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 25.0, 50.0, 100.0];

/// Slowest and fastest speed (a share link's range too).
pub use crate::link::{SPEED_MAX, SPEED_MIN};

/// The longest command the terminal reads, continuation lines and all (the
/// shell refuses a longer expansion anyway: `parse::MAX_EXPANDED_CHARS`).
pub const MAX_TYPED_BYTES: usize = parse::MAX_EXPANDED_CHARS;

/// Events a replay handles between two renders of its progress: about a
/// tenth of a second of work in the browser.
pub const REPLAY_CHUNK_EVENTS: u64 = 100_000;

/// A run being opened in parts, so the page paints and can say how far it got
/// (and be cancelled) while a long run replays.
#[derive(Debug, Clone, PartialEq)]
pub struct Replaying {
    pub run: Rc<Run>,
    /// The next of `run.steps` to type.
    pub next: usize,
    /// What the page says once the run is whole (Import's count, say).
    pub done_announce: String,
    /// Whether the clock plays once the run is whole (`autoplay=1`).
    pub play_after: bool,
    /// Lines that arrived meanwhile, typed (`true`) or a button's (a host's
    /// `run`): they run, as they came, once the run is whole.
    pub waiting: Vec<(bool, String)>,
    /// The lesson step (1 is the first) this replay leads to, when a lesson's
    /// steps are replayed; `None` for a run opened (a link, even one that
    /// names a lesson, or an Import).
    pub lesson_step: Option<usize>,
}

/// Samples the timeline keeps (older ones are dropped).
const TIMELINE_SAMPLES: usize = 4000;

/// What kind of terminal line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TermKind {
    /// The prompt and command as typed.
    Echo,
    Stdout,
    Stderr,
}

/// One line in the terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermLine {
    pub kind: TermKind,
    pub text: String,
}

/// Changes to the page's state.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// Run a line typed in the terminal (a `HOST$` prompt is optional; a `\`
    /// at the end waits for the next line).
    Run(String),
    /// A button's command: always one whole line, whatever is being typed. A
    /// `HOST$ cmd` line runs on HOST and leaves the terminal's machine as it
    /// was (typing the same line switches to HOST, as a shell does).
    Button(String),
    /// The page's clock: this many real milliseconds passed (scaled by the speed
    /// while playing; a frame later than `MAX_FRAME_MS` plays nothing).
    Frame(f64),
    /// One tick of simulated time, playing or not.
    Step,
    /// Play or pause the page's clock.
    TogglePlay,
    /// The speed field's text, checked here.
    SetSpeed(String),
    /// A new world: the seed field's text (checked here), what to start with
    /// and the etcd its machines install.
    Reset {
        seed: String,
        start: Start,
        etcd: EtcdVersion,
    },
    /// Close the notice.
    Dismiss,
    /// Show a notice (a link that cannot be opened, say); nothing else changes.
    Notice(String),
    /// Type the current step's commands into the terminal.
    LessonRun,
    /// Go to the next step (the world stays as it is).
    LessonNext,
    /// Go back one step: replay the lesson to the end of the previous step.
    LessonBack,
    /// Put the world back where the lesson expects it at the current step.
    LessonRestore,
    /// Close the lesson.
    LessonClose,
    /// Play the lesson on this etcd (its header's, or the other one): the
    /// world is replayed to the current step on it.
    LessonEtcd(EtcdVersion),
    /// Pick a choice of the step's question (before the step ran).
    LessonAnswer(usize),
    /// Type the learner's command of the step for them ("Do it for me"): the
    /// step goes on, but it is not performed by the learner.
    LessonDoIt,
    /// Close the banner about lost writes.
    DismissLost,
    /// A lesson named by a share link was loaded (or could not be): show it at
    /// the link's step, without touching the world the link rebuilt.
    AttachLesson {
        lesson: Result<Rc<Lesson>, String>,
        step: usize,
        done: bool,
    },
    /// A lesson was loaded (or could not be), for the lesson menu (`step` 0)
    /// or `?lesson=NAME&step=N`: open it at that step (0 is the first), the
    /// steps before it replayed.
    OpenLessonAt {
        lesson: Result<Rc<Lesson>, String>,
        step: usize,
    },
    /// Show the run as it was at this simulated moment (the timeline dragged
    /// back or forward); the run's future is kept until the person acts.
    Seek(u64),
    /// Replay the next part of the run being opened (`Replaying`); the page
    /// sends it again after each render until the run is whole.
    ReplayMore,
    /// Stop replaying the run being opened: the page shows it as far as it got.
    ReplayCancel,
    /// A new world from a run (an imported script, say): replayed to its end.
    Load(Rc<Run>),
    /// Which changes pause the clock when they happen.
    PauseOn(PauseOn),
    /// The change a button under the pointer would make, for the quorum
    /// panel's forecast (none: the pointer left it).
    Forecast(Option<Change>),
    /// The line being typed in the terminal: the forecast is the change it
    /// would make in the world shown now (`actions::change_of`).
    ForecastLine(String),
    /// A share or export button: the run up to the moment shown is kept in
    /// [`Model::export`] for the share panel to show (and copy).
    Export(ExportKind),
}

/// What a share panel button makes of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    Link,
    Embed,
    Transcript,
    Script,
    Bash,
}

/// A share panel button pressed: what to make, of the run as it was then.
/// A new `Rc` per press, so the panel shows (and copies) each press once.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    pub kind: ExportKind,
    pub run: Run,
}

/// The changes that pause the playing clock when they happen (the map's
/// "pause on" option); off by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PauseOn {
    /// A new leader, or none.
    pub leader: bool,
    /// Quorum lost or regained.
    pub quorum: bool,
}

/// What the map announces: a leader change, no leader, quorum lost or
/// regained, as the page's clock reaches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapEvent {
    /// Grows with each event, so the map shows each one afresh.
    pub seq: u64,
    pub kind: EventKind,
    pub text: String,
    /// The clock paused on it ([`PauseOn`]).
    pub paused: bool,
}

named_enum! {
    /// The kind of a [`MapEvent`], the most serious first when several happen
    /// at once.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    pub enum EventKind {
        QuorumLost => "quorum-lost",
        NoLeader => "no-leader",
        Leader => "leader",
        QuorumRegained => "quorum-regained",
    }
    /// The automation contract's name (`data-kind` on the banner).
    fn name;
}

/// A run and when each of its commands ran in the world: (start, end) ms.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    pub run: Rc<Run>,
    pub times: Rc<Vec<(u64, u64)>>,
    /// The world's clock when the run began (after the boot script).
    pub origin_ms: u64,
    /// The last moment of the run.
    pub end_ms: u64,
    /// The run's timeline, to the end.
    pub timeline: Rc<Timeline>,
}

/// The lesson being played: which step shows, and whether its commands were typed.
#[derive(Debug, Clone)]
pub struct LessonState {
    pub lesson: Rc<Lesson>,
    /// The step shown (index into `lesson.steps`).
    pub step: usize,
    /// Whether the shown step's commands were typed (the learner's included).
    pub done: bool,
    /// The choice picked for the step's question, if any.
    pub picked: Option<usize>,
    /// Run typed the commands before the learner's: the page waits for the
    /// learner to run theirs.
    pub awaiting: bool,
    /// Whether the learner performed the step's command (`Some(true)`), or
    /// "Do it for me" typed it (`Some(false)`).
    pub performed: Option<bool>,
    /// Run started the clock for the step: it pauses once the step's commands
    /// finished.
    pub playing_step: bool,
    /// How many commands the run had when the page began waiting for the
    /// learner's: later ones are compared with it.
    pub seen: usize,
}

impl LessonState {
    /// The shown step's learner's command, if it has one.
    fn learner_command(&self) -> Option<&lessons::LessonCommand> {
        let step = self.lesson.steps.get(self.step)?;
        step.learner_command().and_then(|k| step.commands.get(k))
    }

    /// The lesson at `step`, its commands typed or not, nothing picked.
    pub fn at(lesson: Rc<Lesson>, step: usize, done: bool) -> LessonState {
        LessonState {
            lesson,
            step,
            done,
            picked: None,
            awaiting: false,
            performed: None,
            playing_step: false,
            seen: 0,
        }
    }
}

/// A kind of timeline marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerKind {
    /// A cut, heal, kill, power-off or wipe.
    Fault,
    /// `member add|remove|promote|update`.
    Membership,
    /// An etcd process started.
    Start,
    QuorumLost,
    QuorumRegained,
}

/// A moment on the timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    pub ms: u64,
    pub kind: MarkerKind,
    pub label: String,
}

/// Term, leader and quorum at a moment; the timeline keeps one per change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    pub ms: u64,
    pub term: u64,
    pub leader: Option<String>,
    pub quorum: bool,
}

/// Term and leader over time, with markers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timeline {
    pub start_ms: u64,
    pub samples: Vec<Sample>,
    pub markers: Vec<Marker>,
}

/// Raft's and etcd's promises as the page watches them: the world checks the
/// invariants after every event, and records the clients' history; after each
/// command (and each change of leader or quorum) the page asks whether the
/// history is still linearizable and whether acknowledged writes were lost.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Promises {
    /// How many of the world's violations were read.
    seen: usize,
    /// Each broken promise, the first time it broke.
    pub broken: Vec<Broken>,
    /// Why the clients' history has no linearization, if it has none.
    pub not_linearizable: Option<String>,
    /// Acknowledged writes lost, oldest first (kept until dismissed).
    pub lost: Vec<LostWrite>,
    /// The command that lost them: the latest that forced a new cluster,
    /// removed files or restored a snapshot, if any.
    pub cause: Option<String>,
}

/// A promise broken, in words, and the command before it that can break
/// it on purpose (a wiped data dir, a forced new cluster, a restore), if any:
/// then it is the person's doing, as it would be on real etcd.
#[derive(Debug, Clone, PartialEq)]
pub struct Broken {
    pub promise: Promise,
    pub why: String,
    pub after: Option<String>,
}

/// A line run in the world, before the page shows it ([`Model`]'s `execute`).
struct Ran {
    plan: LinePlan,
    /// The prompt and line, as the terminal echoes them.
    echo: String,
    output: Vec<TermLine>,
    start_ms: u64,
    end_ms: u64,
    /// Frames of the world while it ran (while the clock plays).
    frames: Vec<(u64, Rc<WorldView>)>,
    /// The command read, if the line was one.
    command: Option<Command>,
}

/// A command whose simulated time the page's clock has not reached yet.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    /// The command as echoed.
    pub echo: String,
    pub start_ms: u64,
    pub end_ms: u64,
    output: Vec<TermLine>,
    frames: Vec<(u64, Rc<WorldView>)>,
    end_view: Rc<WorldView>,
}

/// An `Rc` compared by pointer, for props that change only when replaced
/// (the terminal's lines, a pending command, the queue, the lesson): a panel
/// given one re-renders when the model put a new value there, not on every
/// frame of the clock, and comparing costs nothing.
pub struct Shared<T>(pub Rc<T>);

impl<T> Shared<T> {
    pub fn new(rc: &Rc<T>) -> Self {
        Shared(rc.clone())
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The one read handle a panel keeps on the world: its etcd log, for the
/// logs panel. The log is the session's (thousands of lines, appended as the
/// world runs): copying it into the model, or into props, on every frame
/// would cost more than the panel. It is append-only within a world, so the
/// panel's props (the world and how many lines reach the page's clock)
/// decide what it shows, and this handle only reads the lines they name.
/// Compared by pointer: it is the same for the whole world, so it never
/// re-renders anything.
#[derive(Clone)]
pub struct WorldLog(Rc<RefCell<Session>>);

impl PartialEq for WorldLog {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl WorldLog {
    /// The log's lines, read while the borrow lasts.
    pub fn lines(&self) -> std::cell::Ref<'_, [LogLine]> {
        std::cell::Ref::map(self.0.borrow(), |s| s.world.logs())
    }
}

/// The page's state.
#[derive(Clone)]
pub struct Model {
    session: Rc<RefCell<Session>>,
    pub seed: u64,
    pub start: Start,
    pub lines: Rc<Vec<TermLine>>,
    pub history: Rc<Vec<String>>,
    /// What the page shows: the world now, or a frame of a pending command
    /// (shared: cloning the model, as every frame and every panel does, copies
    /// no machines).
    pub view: Rc<WorldView>,
    /// `quorum::analyze` of `view`, computed once per change of the view.
    pub quorum: Rc<QuorumInfo>,
    /// The page's clock in simulated milliseconds (the world's, or behind it while a command is pending).
    pub shown_ms: u64,
    pub prompt: String,
    /// The lines of a command continued with `\`, as typed, waiting for the rest.
    pub partial: String,
    /// Reads typed lines into commands (`parse::Reader`), as the runner does.
    reader: Rc<Reader>,
    /// A run being opened in parts (a link, an Import), if one is.
    pub replaying_run: Option<Rc<Replaying>>,
    pub pending: Option<Rc<Pending>>,
    /// Lines typed while a command was pending.
    pub queue: Rc<VecDeque<String>>,
    pub playing: bool,
    pub speed: f64,
    carry: f64,
    pub timeline: Rc<Timeline>,
    /// The latest announcement for the live region.
    pub announce: String,
    /// The latest leader or quorum change, as the map announces it.
    pub event: Option<Rc<MapEvent>>,
    /// Which changes pause the clock.
    pub pause_on: PauseOn,
    /// The change the quorum panel forecasts (a button under the pointer, the
    /// line being typed); a page option like `pause_on`, kept by a new world.
    pub forecast: Option<Change>,
    /// The last share or export asked for in this world, if any.
    pub export: Option<Rc<Export>>,
    /// A message about bad input in a field, shown until dismissed or replaced.
    pub notice: Option<String>,
    /// Bumped on every change of state, so components can skip work.
    pub version: u64,
    /// Tells worlds apart: a reset makes a new one.
    pub world_id: u64,
    /// The lesson being played, if any.
    pub lesson: Option<Rc<LessonState>>,
    /// Why a lesson could not be opened.
    pub lesson_error: Option<String>,
    /// Every command so far, with the time the clock ran before it.
    pub run: Rc<Run>,
    /// When each of `run`'s commands started and ended in the world.
    pub times: Rc<Vec<(u64, u64)>>,
    /// The world's clock when the run began (after the boot script).
    pub origin_ms: u64,
    /// While the page shows an earlier moment of a run: the whole run, whose
    /// future is discarded when the person acts.
    pub future: Option<Rc<Recorded>>,
    /// The promises kept and broken, and writes lost.
    pub promises: Rc<Promises>,
    /// While a run is replayed: the history is checked once, at its end.
    replaying: bool,
    /// The machine the run's script addresses after its last command, when
    /// that is not the terminal's: a button ran its command on another
    /// machine, which a script's `HOST$` prompt would switch to. The next line
    /// typed without a prompt is then recorded with the terminal's machine
    /// (see [`LinePlan`]), so the script and transcript stay the page's.
    script_host: Option<String>,
}

thread_local! {
    static WORLDS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl PartialEq for Model {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version && Rc::ptr_eq(&self.session, &other.session)
    }
}

impl Model {
    /// The page's default: the boot cluster with seed 1, playing at 1x.
    pub fn boot(seed: u64) -> Model {
        Model::new(seed, Start::Cluster)
    }

    /// A new world with `seed` on etcd 3.4, paused or playing as the page was.
    pub fn new(seed: u64, start: Start) -> Model {
        Model::on_etcd(seed, start, EtcdVersion::default())
    }

    /// A new world with `seed` whose `machine add`s (the boot cluster's
    /// too) install `etcd`.
    pub fn on_etcd(seed: u64, start: Start, etcd: EtcdVersion) -> Model {
        let mut session = Session::new(seed);
        session.default_etcd = etcd;
        session.world.check_invariants();
        session.world.record_history();
        session.world.set_wire_log(true);
        let mut lines = Vec::new();
        for text in lessons::boot(&mut session, start) {
            push_text(&mut lines, TermKind::Stdout, &text);
        }
        let view = Rc::new(session.world.view());
        let quorum = Rc::new(quorum::analyze(&view));
        let prompt = prompt_of(&session);
        let shown_ms = view.now_ms;
        let mut m = Model {
            session: Rc::new(RefCell::new(session)),
            seed,
            start,
            lines: Rc::new(lines),
            history: Rc::new(Vec::new()),
            view,
            quorum,
            shown_ms,
            prompt,
            partial: String::new(),
            reader: Rc::new(Reader::default()),
            replaying_run: None,
            pending: None,
            queue: Rc::new(VecDeque::new()),
            playing: true,
            speed: 1.0,
            carry: 0.0,
            timeline: Rc::new(Timeline {
                start_ms: shown_ms,
                ..Timeline::default()
            }),
            announce: String::new(),
            event: None,
            pause_on: PauseOn::default(),
            forecast: None,
            export: None,
            notice: None,
            version: 0,
            world_id: WORLDS.with(|w| {
                w.set(w.get() + 1);
                w.get()
            }),
            lesson: None,
            lesson_error: None,
            run: Rc::new(Run {
                etcd,
                ..Run::new(seed, start)
            }),
            times: Rc::new(Vec::new()),
            origin_ms: shown_ms,
            future: None,
            promises: Rc::new(Promises::default()),
            replaying: false,
            script_host: None,
        };
        m.observe();
        m.announce.clear();
        m.event = None;
        m
    }

    /// The etcd this world's `machine add`s install (the version picker's
    /// and the run's).
    pub fn etcd(&self) -> EtcdVersion {
        self.run.etcd
    }

    /// The session, for components that read the world's logs.
    pub fn session(&self) -> std::cell::Ref<'_, Session> {
        self.session.borrow()
    }

    /// The world's log, for the logs panel (`WorldLog`).
    pub fn log(&self) -> WorldLog {
        WorldLog(self.session.clone())
    }

    /// The simulated wall clock at the page's time, as `date` prints it.
    pub fn clock_text(&self) -> String {
        let ms = self.view.wall_ms;
        Stamp::from_unix_ms(ms).date(ms.div_euclid(1000))
    }

    /// The whole terminal as plain text.
    pub fn terminal_text(&self) -> String {
        self.lines.iter().map(|l| format!("{}\n", l.text)).collect()
    }

    /// Runs one typed line and returns the next state (for tests and the reducer).
    pub fn run(&self, line: &str) -> Model {
        let mut next = self.clone();
        next.type_line(line);
        next.version += 1;
        next
    }

    /// A line typed in the terminal. Lines are read as the runner reads a
    /// script (`parse::Reader`, one line at a time, so a paste of thousands
    /// of continued lines takes time in proportion to its length): a `\`
    /// continuation waits for the next line, comments and blank lines run
    /// nothing, and a continued command is joined exactly as the runner
    /// joins it. A paste arrives as several lines in one message.
    fn type_line(&mut self, text: &str) {
        for line in text.split('\n') {
            self.type_one(line);
        }
    }

    fn type_one(&mut self, line: &str) {
        if self.partial.len().saturating_add(line.len()) > MAX_TYPED_BYTES {
            self.refuse_typed(line);
            return;
        }
        let reader = Rc::make_mut(&mut self.reader);
        match reader.feed(line) {
            Ok(Some(c)) => {
                self.partial.clear();
                self.submit(&command_line(&c));
            }
            Ok(None) if reader.is_open() => {
                if !self.partial.is_empty() {
                    self.partial.push('\n');
                }
                self.partial.push_str(line);
            }
            Ok(None) => {
                self.partial.clear();
                if line.trim().is_empty() {
                    // Enter on an empty line shows the prompt again, as a terminal does.
                    self.submit("");
                }
            }
            // Anything else (an unclosed quote, say): the shell answers with its error.
            Err(_) => {
                let buffer = if self.partial.is_empty() {
                    line.to_string()
                } else {
                    format!("{}\n{line}", self.partial)
                };
                self.partial.clear();
                self.submit(&buffer);
            }
        }
    }

    /// A command typed or pasted past [`MAX_TYPED_BYTES`]: refused whole, as
    /// the shell refuses an over-long expansion, and nothing runs.
    fn refuse_typed(&mut self, line: &str) {
        let first = if self.partial.is_empty() {
            line
        } else {
            &self.partial
        };
        let head: String = first.chars().take(60).collect();
        self.partial.clear();
        self.reader = Rc::new(Reader::default());
        let lines = Rc::make_mut(&mut self.lines);
        lines.push(TermLine {
            kind: TermKind::Echo,
            text: format!("{} {head}…", self.prompt),
        });
        lines.push(TermLine {
            kind: TermKind::Stderr,
            text: format!(
                "sh: the command is longer than {MAX_TYPED_BYTES} bytes (the playground's limit); nothing was run"
            ),
        });
    }

    /// A button's line: a `HOST$ cmd` is submitted as `(HOST)$ cmd`, the form
    /// that runs on HOST and keeps the terminal's machine ([`LinePlan`]).
    fn press(&mut self, line: &str) {
        match one_command_on_host(line) {
            Some((host, text)) => self.submit(&paren_line(&host, &text)),
            None => self.submit(line),
        }
    }

    /// A complete command line (typed, or a button's): runs now, or waits behind
    /// the pending command.
    fn submit(&mut self, line: &str) {
        if self.pending.is_some() {
            Rc::make_mut(&mut self.queue).push_back(line.to_string());
            return;
        }
        self.execute(line);
    }

    /// Pausing: a pending command finishes at once and the lines waiting behind
    /// it run, as paused commands do.
    fn settle(&mut self) {
        while let Some(p) = self.pending.clone() {
            self.finish_pending(&p);
            while self.pending.is_none() {
                let Some(next) = self.next_queued() else {
                    break;
                };
                self.execute(&next);
            }
        }
    }

    /// The next line typed while a command was pending, if any (the queue is
    /// copied only when there is one: an untouched queue stays the same `Rc`,
    /// so the terminal does not re-render for it every frame).
    fn next_queued(&mut self) -> Option<String> {
        if self.queue.is_empty() {
            return None;
        }
        Rc::make_mut(&mut self.queue).pop_front()
    }

    /// Runs a complete line in the world now.
    fn execute(&mut self, line: &str) {
        let record = self.playing;
        let ran = self.run_in_world(line.trim(), record);
        let status = self.session.borrow().last_status();
        self.follow_script(&ran.plan);
        self.record(&ran.plan.record, ran.start_ms, ran.end_ms);
        self.check_promises();
        self.remember(&ran, status);
        Rc::make_mut(&mut self.lines).push(TermLine {
            kind: TermKind::Echo,
            text: ran.echo.clone(),
        });
        self.show_ran(ran, record);
    }

    /// The line run in the session (recording frames while the clock
    /// plays): what it printed, and when it started and ended.
    fn run_in_world(&mut self, trimmed: &str, record: bool) -> Ran {
        let mut session = self.session.borrow_mut();
        let start_ms = session.world.now_ms();
        if record {
            session.world.record_frames(FRAME_MS);
        }
        let plan = LinePlan::new(trimmed, &session, self.script_host.is_some());
        let (prompt, text) = (&plan.prompt, &plan.text);
        let host_before = prompt_of(&session);
        let ex = if plan.keep_current {
            session.run_on(prompt, text)
        } else {
            session.run(prompt, text)
        };
        let frames = if record {
            session
                .world
                .take_frames()
                .into_iter()
                .map(|(t, v)| (t, Rc::new(v)))
                .collect()
        } else {
            Vec::new()
        };
        let host = match (prompt, &ex.machine) {
            (Prompt::Host(_), Some(m)) => format!("{m}$"),
            _ => host_before,
        };
        let mut output = Vec::new();
        for chunk in &ex.output.chunks {
            let kind = if chunk.stderr {
                TermKind::Stderr
            } else {
                TermKind::Stdout
            };
            push_lines(&mut output, kind, &chunk.text);
        }
        let echo = format!("{host} {text}").trim_end().to_string();
        Ran {
            echo,
            output,
            start_ms,
            end_ms: session.world.now_ms(),
            frames,
            command: ex.command.map(|l| l.command),
            plan,
        }
    }

    /// A line that ran: on the timeline if it succeeded and stands for
    /// something there, and in the history (once, if repeated).
    fn remember(&mut self, ran: &Ran, status: i32) {
        let said = ran.plan.history.as_str();
        if said.is_empty() {
            return;
        }
        if let (0, Some(command)) = (status, &ran.command) {
            self.mark_command(ran.start_ms, said, command);
        }
        let history = Rc::make_mut(&mut self.history);
        if history.last().map(|s| s.as_str()) != Some(said) {
            history.push(said.to_string());
        }
    }

    /// A line that took simulated time while the clock plays is pending
    /// until the clock reaches its end; any other shows its output now.
    fn show_ran(&mut self, ran: Ran, record: bool) {
        let end_view = Rc::new(self.session.borrow().world.view());
        if record && ran.end_ms > ran.start_ms {
            let start_ms = ran.start_ms;
            self.pending = Some(Rc::new(Pending {
                echo: ran.echo,
                start_ms,
                end_ms: ran.end_ms,
                output: ran.output,
                frames: ran.frames,
                end_view,
            }));
            self.show_at(start_ms);
        } else {
            self.show_end(ran.output, ran.end_ms, end_view);
        }
    }

    /// After a line ran: whether the run's script now addresses another
    /// machine than the terminal's (a button ran on another machine, which a
    /// script's prompt switches to). A line that names no machine that
    /// exists moves neither.
    fn follow_script(&mut self, plan: &LinePlan) {
        let Some(host) = &plan.host else {
            return;
        };
        let session = self.session.borrow();
        let moved = plan.keep_current && session.current() != Some(host.as_str());
        self.script_host = moved.then(|| host.clone());
    }

    /// Moves the page's clock forward by `ms` simulated milliseconds.
    fn advance(&mut self, ms: u64) {
        let target = self.shown_ms.saturating_add(ms);
        loop {
            if let Some(p) = self.pending.clone() {
                if target < p.end_ms {
                    self.show_at(target);
                    return;
                }
                self.finish_pending(&p);
                continue;
            }
            if let Some(next) = self.next_queued() {
                self.execute(&next);
                continue;
            }
            if self.lesson_step_over() {
                return;
            }
            let now = self.session.borrow().world.now_ms();
            if target > now {
                let mut session = self.session.borrow_mut();
                let _ = session.world.apply(Action::Advance { ms: target - now });
            }
            let session = self.session.borrow();
            self.shown_ms = session.world.now_ms();
            self.view = Rc::new(session.world.view());
            drop(session);
            self.observe();
            return;
        }
    }

    /// Shows the pending command's last frame at or before `ms`.
    fn show_at(&mut self, ms: u64) {
        self.shown_ms = ms;
        if let Some(p) = &self.pending {
            if let Some((_, v)) = p.frames.iter().rev().find(|(t, _)| *t <= ms) {
                if !Rc::ptr_eq(v, &self.view) && **v != *self.view {
                    self.view = v.clone();
                }
            }
        }
        self.observe();
    }

    fn finish_pending(&mut self, p: &Pending) {
        self.pending = None;
        self.show_end(p.output.clone(), p.end_ms, p.end_view.clone());
    }

    /// A command's end shown: its output, the world when it ended, the prompt.
    fn show_end(&mut self, output: Vec<TermLine>, end_ms: u64, end_view: Rc<WorldView>) {
        Rc::make_mut(&mut self.lines).extend(output);
        self.shown_ms = end_ms;
        self.view = end_view;
        self.prompt = prompt_of(&self.session.borrow());
        self.observe();
    }

    /// Records the view on the timeline and announces leader and quorum changes.
    fn observe(&mut self) {
        self.read_violations();
        let q = quorum::analyze(&self.view);
        if q != *self.quorum {
            self.quorum = Rc::new(q);
        }
        let q = self.quorum.clone();
        let sample = Sample {
            ms: self.shown_ms,
            term: q.leader.as_ref().map(|l| l.term).unwrap_or_else(|| {
                self.view
                    .machines
                    .iter()
                    .filter_map(|m| m.process.as_ref().map(|p| p.term))
                    .max()
                    .unwrap_or(0)
            }),
            leader: q.leader.as_ref().map(|l| l.name.clone()),
            quorum: q.can_commit,
        };
        let last = self.timeline.samples.last().cloned();
        let changed = last.as_ref().is_none_or(|l| {
            (l.term, &l.leader, l.quorum) != (sample.term, &sample.leader, sample.quorum)
        });
        if !changed {
            return;
        }
        let tl = Rc::make_mut(&mut self.timeline);
        if last.as_ref().is_some_and(|l| l.quorum != sample.quorum) {
            let (kind, label) = if sample.quorum {
                (MarkerKind::QuorumRegained, "quorum regained")
            } else {
                (MarkerKind::QuorumLost, "quorum lost")
            };
            tl.markers.push(Marker {
                ms: sample.ms,
                kind,
                label: label.to_string(),
            });
        }
        self.announce = announcement(last.as_ref(), &sample);
        let event = last.as_ref().and_then(|l| map_event(l, &sample));
        tl.samples.push(sample);
        if tl.samples.len() > TIMELINE_SAMPLES {
            let drop = tl.samples.len() - TIMELINE_SAMPLES;
            tl.samples.drain(..drop);
            tl.start_ms = tl.samples.first().map(|s| s.ms).unwrap_or(tl.start_ms);
            let start = tl.start_ms;
            tl.markers.retain(|m| m.ms >= start);
        }
        if let Some(e) = event {
            self.show_event(e);
        }
        self.check_promises();
    }

    /// Announces a change on the map, pausing the clock if asked to.
    fn show_event(&mut self, (kind, text, leader, quorum): (EventKind, String, bool, bool)) {
        if self.replaying {
            return;
        }
        let pause =
            self.playing && ((self.pause_on.leader && leader) || (self.pause_on.quorum && quorum));
        if pause {
            self.set_playing(false);
        }
        let seq = self.event.as_ref().map_or(0, |e| e.seq + 1);
        self.event = Some(Rc::new(MapEvent {
            seq,
            kind,
            text,
            paused: pause,
        }));
    }

    fn mark_command(&mut self, ms: u64, line: &str, command: &Command) {
        if let Some(kind) = marker_kind(command) {
            let (_, text) = parse::split_prompt(line);
            Rc::make_mut(&mut self.timeline).markers.push(Marker {
                ms,
                kind,
                label: text,
            });
        }
    }

    fn set_speed(&mut self, text: &str) {
        match parse_speed(text) {
            Ok(s) => {
                self.speed = s;
                self.carry = 0.0;
                self.notice = None;
            }
            Err(e) => self.notice = Some(e),
        }
    }

    fn reset(&mut self, seed: &str, start: Start, etcd: EtcdVersion) {
        match parse_seed(seed) {
            Ok(s) => {
                let mut next = Model::on_etcd(s, start, etcd);
                next.playing = self.playing;
                next.speed = self.speed;
                next.version = self.version;
                next.announce = format!("new world with seed {s} on etcd {}", etcd.release());
                *self = next;
            }
            Err(e) => self.notice = Some(e),
        }
    }
}

/// Lessons: every move is a replay of the lesson's own commands in a new
/// world (paused, so outputs are the lesson's golden ones), except Run, which
/// types the step's commands into the terminal like a person would.
impl Model {
    /// A new world with the lesson's seed and start on `etcd` (the lesson's
    /// own, or the other one the learner chose), the steps before `step` run
    /// (and `step` itself if `done`), paused.
    fn replay(&mut self, lesson: &Rc<Lesson>, step: usize, done: bool, etcd: EtcdVersion) {
        let upto = if done { step + 1 } else { step };
        // Replayed as a run is, so with a link's budget (`sim::budget`).
        let mut run = Run::new(lesson.seed, lesson.start);
        run.etcd = etcd;
        run.steps = (lesson.steps.iter().take(upto))
            .flat_map(|s| &s.commands)
            .map(|c| Step {
                wait_ms: 0,
                line: command_line(&c.command),
            })
            .collect();
        // Its first part now (most lesson moves are whole after it, so the
        // page never flashes a progress panel); a longer one goes on a part
        // per message, as a link does, the page painting and answering
        // between parts.
        let mut next = Model::begin_replay(&run, String::new());
        if let Some(job) = next.replaying_run.as_mut() {
            Rc::make_mut(job).lesson_step = Some(step + 1);
        }
        next.replay_part(REPLAY_CHUNK_EVENTS);
        next.speed = self.speed;
        next.version = self.version;
        next.lesson = Some(Rc::new(LessonState::at(lesson.clone(), step, done)));
        *self = next;
    }

    /// Run: the clock plays at the step's speed and the step's commands are
    /// typed, up to the learner's (then the page waits for them).
    fn lesson_run(&mut self) {
        let Some(l) = self.lesson.clone() else {
            return;
        };
        if l.done || l.awaiting {
            return;
        }
        let Some(step) = l.lesson.steps.get(l.step) else {
            return;
        };
        self.play_lesson_step(step.speed());
        let upto = step.learner_command().unwrap_or(step.commands.len());
        for c in &step.commands[..upto] {
            self.submit(&command_line(&c.command));
        }
        let awaiting = upto < step.commands.len();
        let seen = self.run.steps.len();
        self.update_lesson(|l| {
            l.done = !awaiting;
            l.awaiting = awaiting;
            l.playing_step = true;
            l.seen = seen;
        });
        self.lesson_step_settled();
    }

    /// Changes the lesson's state, if a lesson is open (in a new `Rc` when
    /// the old one is shared, so whoever holds it sees the change).
    fn update_lesson(&mut self, change: impl FnOnce(&mut LessonState)) {
        if let Some(l) = self.lesson.as_mut() {
            change(Rc::make_mut(l));
        }
    }

    fn play_lesson_step(&mut self, speed: f64) {
        self.playing = true;
        self.speed = speed;
        self.carry = 0.0;
    }

    /// The learner's command ran (`performed`), or "Do it for me" typed it:
    /// the rest of the step is typed, at the step's speed.
    fn lesson_rest(&mut self, performed: bool) {
        let Some(l) = self.lesson.clone() else {
            return;
        };
        let Some(step) = l.lesson.steps.get(l.step) else {
            return;
        };
        let Some(k) = step.learner_command() else {
            return;
        };
        self.play_lesson_step(step.speed());
        for c in &step.commands[k + 1..] {
            self.submit(&command_line(&c.command));
        }
        self.update_lesson(|l| {
            l.done = true;
            l.awaiting = false;
            l.performed = Some(performed);
            l.playing_step = true;
        });
        self.lesson_step_settled();
    }

    /// "Do it for me": the learner's command typed as the lesson writes it.
    fn lesson_do_it(&mut self) {
        let Some(l) = self.lesson.clone() else {
            return;
        };
        if !l.awaiting {
            return;
        }
        let Some(c) = l.learner_command() else {
            return;
        };
        let line = command_line(&c.command);
        self.update_lesson(|l| l.awaiting = false);
        self.submit(&line);
        self.lesson_rest(false);
    }

    /// After every message: while the page waits for the learner's command,
    /// whether a command their terminal ran since is it; and a step's clock
    /// that was paused meanwhile is the person's again.
    fn lesson_watch(&mut self) {
        let Some(l) = self.lesson.clone() else {
            return;
        };
        if l.playing_step && !self.playing {
            self.update_lesson(|l| l.playing_step = false);
        }
        if !l.awaiting || self.run.steps.len() == l.seen {
            return;
        }
        let Some(c) = l.learner_command() else {
            return;
        };
        let current = self.session.borrow().current().map(str::to_string);
        let from = l.seen.min(self.run.steps.len());
        let found = self.run.steps[from..]
            .iter()
            .any(|s| lessons::same_command(&c.command, &s.line, current.as_deref()));
        let seen = self.run.steps.len();
        self.update_lesson(|l| l.seen = seen);
        if found {
            self.lesson_rest(true);
        }
    }

    /// A step's commands all finished while its clock played: the clock
    /// pauses there, so the next step starts where the lesson's golden run
    /// does. Called by `advance` once nothing is pending or waiting; true
    /// when it paused.
    fn lesson_step_over(&mut self) -> bool {
        let Some(l) = self.lesson.clone() else {
            return false;
        };
        if !(l.playing_step && self.playing) {
            return false;
        }
        self.playing = false;
        self.update_lesson(|l| l.playing_step = false);
        true
    }

    /// Right after Run typed: nothing took simulated time, so the step is over.
    fn lesson_step_settled(&mut self) {
        if self.idle() {
            self.lesson_step_over();
        }
    }

    fn lesson_answer(&mut self, choice: usize) {
        let Some(l) = self.lesson.clone() else {
            return;
        };
        let choices = l
            .lesson
            .steps
            .get(l.step)
            .and_then(|s| s.question.as_ref())
            .map_or(0, |q| q.choices.len());
        if l.done || choice >= choices {
            return;
        }
        self.update_lesson(|l| l.picked = Some(choice));
    }

    fn lesson_move(&mut self, by: i64) {
        let Some(l) = self.lesson.clone() else {
            return;
        };
        let last = l.lesson.steps.len().saturating_sub(1);
        if by > 0 {
            // The next step waits until this one finished.
            if l.step < last && self.idle() {
                self.lesson = Some(Rc::new(LessonState::at(
                    l.lesson.clone(),
                    l.step + 1,
                    false,
                )));
            }
        } else if l.step > 0 {
            self.replay(&l.lesson, l.step - 1, true, self.etcd());
        } else {
            self.replay(&l.lesson, 0, false, self.etcd());
        }
    }

    fn lesson_restore(&mut self) {
        if let Some(l) = self.lesson.clone() {
            self.replay(&l.lesson, l.step, l.done, self.etcd());
        }
    }

    /// The lesson on `etcd` from the current step (its commands typed again
    /// if they were).
    fn lesson_etcd(&mut self, etcd: EtcdVersion) {
        if let Some(l) = self.lesson.clone() {
            self.replay(&l.lesson, l.step, l.done, etcd);
            self.announce = format!("the lesson now runs on etcd {}", etcd.release());
        }
    }

    /// Whether the terminal is idle: nothing pending, nothing waiting.
    pub fn idle(&self) -> bool {
        self.pending.is_none()
            && self.queue.is_empty()
            && self.partial.is_empty()
            && self.replaying_run.is_none()
    }
}

/// Promises: what the world's checker found, and lost writes.
impl Model {
    /// Reads violations the world found since the last look (cheap: a
    /// length compared, every frame).
    fn read_violations(&mut self) {
        let session = self.session.borrow();
        let all = session.world.violations();
        if all.len() == self.promises.seen {
            return;
        }
        let after = self.destructive_command();
        let p = Rc::make_mut(&mut self.promises);
        for v in &all[p.seen..] {
            let promise = v.promise();
            if !p.broken.iter().any(|b| b.promise == promise) {
                p.broken.push(Broken {
                    promise,
                    why: v.to_string(),
                    after: after.clone(),
                });
            }
        }
        p.seen = all.len();
    }

    /// The history's linearizability and lost writes (after a command, and
    /// when the leader or quorum changed).
    fn check_promises(&mut self) {
        if self.replaying {
            return;
        }
        let session = self.session.borrow();
        let not_linearizable = crate::sim::history::check(session.world.history())
            .err()
            .map(|e| e.to_string());
        let lost = lost::lost_writes(&session.world);
        drop(session);
        let known = &self.promises.lost;
        let new: Vec<LostWrite> = lost
            .into_iter()
            .filter(|l| {
                !known
                    .iter()
                    .any(|k| (&k.key, k.acked_ms) == (&l.key, l.acked_ms))
            })
            .collect();
        if not_linearizable == self.promises.not_linearizable && new.is_empty() {
            return;
        }
        let cause = self.destructive_command();
        let p = Rc::make_mut(&mut self.promises);
        p.not_linearizable = not_linearizable;
        if !new.is_empty() {
            p.lost.extend(new);
            p.cause = cause;
        }
    }

    /// The latest command that can throw acknowledged writes away.
    fn destructive_command(&self) -> Option<String> {
        self.run
            .steps
            .iter()
            .rev()
            .map(|s| &s.line)
            .find(|l| {
                command::read(&parse::split_prompt(l).1).is_some_and(|c| c.command.is_destructive())
            })
            .map(|l| as_echoed(l))
    }
}

/// Runs: every command recorded with the time before it, a run replayed into a
/// new world, and moving through a run's moments (rewind, fork).
impl Model {
    /// Records a command that ran in the world from `start_ms` to `end_ms`.
    fn record(&mut self, line: &str, start_ms: u64, end_ms: u64) {
        let step = Step {
            wait_ms: start_ms.saturating_sub(self.last_end_ms()),
            line: line.to_string(),
        };
        Rc::make_mut(&mut self.run).steps.push(step);
        Rc::make_mut(&mut self.times).push((start_ms, end_ms));
    }

    /// When the last command ended (or the run began).
    fn last_end_ms(&self) -> u64 {
        self.times.last().map_or(self.origin_ms, |t| t.1)
    }

    /// The run up to the moment shown: what a share link holds. A command still
    /// running is in it, and the link opens where it ends.
    pub fn to_run(&self) -> Run {
        let mut run = (*self.run).clone();
        run.tail_ms = if self.pending.is_some() {
            0
        } else {
            self.shown_ms.saturating_sub(self.last_end_ms())
        };
        run.speed = self.speed;
        run.lesson = self.lesson.as_ref().map(|l| LessonAt {
            name: l.lesson.name.clone(),
            step: l.step,
            done: l.done,
        });
        run
    }

    /// The whole run this page can move through: the future kept while an
    /// earlier moment shows, or else the run up to now.
    pub fn recorded(&self) -> Rc<Recorded> {
        if let Some(f) = &self.future {
            return f.clone();
        }
        Rc::new(Recorded {
            run: Rc::new(self.to_run()),
            times: self.times.clone(),
            origin_ms: self.origin_ms,
            end_ms: self.shown_ms.max(self.last_end_ms()),
            timeline: self.timeline.clone(),
        })
    }

    /// A new world with the run's seed and start, its commands typed after
    /// the time it lists, paused at its last moment: the same terminal, logs
    /// and world as the run that made it. The whole replay at once (a rewind,
    /// tests); the page opens a link, an Import or a lesson's step in parts
    /// ([`Model::begin_replay`] and [`Msg::ReplayMore`]).
    pub fn replay_run(run: &Run) -> Model {
        let mut m = Model::begin_replay(run, String::new());
        while m.replaying_run.is_some() {
            m.replay_part(u64::MAX);
        }
        m
    }

    /// A new world for `run`, paused, its replay started but nothing of the
    /// run typed yet: the page renders this at once and then replays the run
    /// a part at a time. The replay is bounded (`sim::budget`): a simulated
    /// day, and [`budget::REPLAY_EVENTS`] events of work.
    pub fn begin_replay(run: &Run, done_announce: String) -> Model {
        let mut m = Model::on_etcd(run.seed, run.start, run.etcd);
        m.playing = false;
        m.speed = run.speed;
        // The history and lost writes are asked once, at the end: what a
        // replay arrives at is the same, and asking after every command
        // would cost a third of the replay's time.
        m.replaying = true;
        m.session.borrow_mut().start_replay();
        m.replaying_run = Some(Rc::new(Replaying {
            run: Rc::new(run.clone()),
            next: 0,
            done_announce,
            play_after: false,
            waiting: Vec::new(),
            lesson_step: None,
        }));
        m
    }

    /// Plays or pauses the clock; while a run is being opened, from when it
    /// is whole (the world must not move under the replay).
    pub fn set_playing(&mut self, play: bool) {
        match self.replaying_run.clone() {
            Some(job) => {
                self.replaying_run = Some(Rc::new(Replaying {
                    play_after: play,
                    ..(*job).clone()
                }))
            }
            None => self.playing = play,
        }
    }

    /// Replays the run being opened for about `events` events of work (at
    /// least one command), or to its end, or until its budget is spent.
    fn replay_part(&mut self, events: u64) {
        let Some(job) = self.replaying_run.clone() else {
            return;
        };
        let until = self.session.borrow().world.events().saturating_add(events);
        let mut next = job.next;
        let steps = &job.run.steps;
        loop {
            let spent = self.session.borrow().replay_spent();
            if let Some(spent) = spent {
                let why = replay_cut(spent, next, steps.len());
                self.end_replay(Some(why), &job.done_announce);
                return;
            }
            let Some(step) = steps.get(next) else {
                self.idle_for(job.run.tail_ms);
                let spent = self.session.borrow().replay_spent();
                let why = spent.map(|s| replay_cut(s, next, steps.len()));
                self.end_replay(why, &job.done_announce);
                return;
            };
            self.idle_for(step.wait_ms);
            if self.session.borrow().replay_spent().is_some() {
                // The wait before this command spent the budget: it is not typed.
                continue;
            }
            self.submit(&step.line);
            next += 1;
            if self.session.borrow().world.events() >= until {
                break;
            }
        }
        self.replaying_run = Some(Rc::new(Replaying {
            next,
            ..(*job).clone()
        }));
    }

    /// The person stopped the replay: the page shows the run as far as it got.
    fn cancel_replay(&mut self) {
        if let Some(job) = self.replaying_run.clone() {
            let (done, all) = (job.next, job.run.steps.len());
            let why = match job.lesson_step {
                Some(step) => format!(
                    "You stopped replaying the lesson: the world shows the first {done} of its {all} commands, so it is not where step {step} expects it."
                ),
                None => format!("You stopped opening this run: it shows its first {done} of {all} commands."),
            };
            self.end_replay(Some(why), "");
        }
    }

    /// The replay is over: its budget lifted, the promises checked once, and
    /// the notice says whether (and why) it was cut short.
    fn end_replay(&mut self, cut: Option<String>, announce: &str) {
        let (play_after, waiting) = self
            .replaying_run
            .take()
            .map_or((false, Vec::new()), |job| {
                (job.play_after, job.waiting.clone())
            });
        self.replaying = false;
        let limits = {
            let mut session = self.session.borrow_mut();
            session.end_replay();
            session.take_limits()
        };
        self.check_promises();
        if let Some(why) = replay_notice(cut, &limits) {
            // After what was said when the run was opened (Import's report).
            self.notice = Some(match self.notice.take() {
                Some(said) => format!("{said} {why}"),
                None => why,
            });
        }
        if !announce.is_empty() {
            self.announce = announce.to_string();
        }
        // Lines that arrived while the run was opened (a host's `run`) now run.
        for (typed, line) in waiting {
            if typed {
                self.type_line(&line);
            } else {
                self.press(&line);
            }
        }
        self.playing = play_after;
    }

    /// Runs the clock for `ms`, looking at the world every
    /// [`REPLAY_SLICE_MS`] so the timeline sees what happened meanwhile.
    fn idle_for(&mut self, ms: u64) {
        let mut left = ms;
        while left > 0 {
            let slice = left.min(REPLAY_SLICE_MS);
            self.advance(slice);
            left -= slice;
        }
    }

    /// Shows moment `ms` of the whole run. A moment while a command was
    /// running the clock shows the moment it was typed. At or past the run's
    /// end, the run is whole again and nothing is kept aside.
    fn seek(&mut self, ms: u64) {
        let full = self.recorded();
        let (run, at_end) = cut(&full, ms);
        let mut next = Model::replay_run(&run);
        next.speed = self.speed;
        next.version = self.version;
        next.lesson = self.lesson.clone();
        next.future = if at_end { None } else { Some(full) };
        next.announce = format!("showing {}", elapsed_text(next.shown_ms));
        *self = next;
    }

    /// A lesson named by a link, shown at the link's step.
    fn attach_lesson(&mut self, lesson: Rc<Lesson>, step: usize, done: bool) {
        let last = lesson.steps.len().saturating_sub(1);
        self.lesson_error = None;
        self.lesson = Some(Rc::new(LessonState::at(
            lesson,
            step.min(last),
            done && step <= last,
        )));
    }

    /// A new world from a run (Import, a link opened in this tab), replayed
    /// in parts from the next message on.
    fn load(&mut self, run: &Run) {
        let announce = format!(
            "replayed {} commands with seed {}",
            run.steps.len(),
            run.seed
        );
        let mut next = Model::begin_replay(run, announce);
        next.version = self.version;
        *self = next;
    }
}

/// The part of a recorded run up to `ms` (snapped back to the start of a
/// command running at `ms`), and whether that is the whole run.
fn cut(full: &Recorded, ms: u64) -> (Run, bool) {
    let mut run = (*full.run).clone();
    if ms >= full.end_ms {
        return (run, true);
    }
    let ms = ms.max(full.origin_ms);
    // A command typed at `ms` itself is not in the past of `ms`: the fork
    // point of a run shows what was there before the person acted there.
    let kept = full
        .times
        .iter()
        .take_while(|t| t.0 < ms && t.1 <= ms)
        .count();
    let ms = match full.times.get(kept) {
        Some(&(start, _)) if start < ms => start,
        _ => ms,
    };
    let last_end = kept
        .checked_sub(1)
        .and_then(|i| full.times.get(i))
        .map_or(full.origin_ms, |t| t.1);
    run.steps.truncate(kept);
    run.tail_ms = ms.saturating_sub(last_end);
    (run, false)
}

/// A lesson command as a person types it: `HOST$ text`, or the text alone.
pub use crate::link::command_line;

impl Model {
    /// A line that arrived while a run is being opened: it waits its turn.
    fn wait_for_replay(self: Rc<Self>, typed: bool, line: String) -> Rc<Self> {
        let mut next = (*self).clone();
        if let Some(job) = next.replaying_run.as_mut() {
            Rc::make_mut(job).waiting.push((typed, line));
        }
        next.version += 1;
        Rc::new(next)
    }
}

impl Reducible for Model {
    type Action = Msg;

    fn reduce(self: Rc<Self>, action: Msg) -> Rc<Self> {
        let action = if self.replaying_run.is_some() {
            match action {
                // The world must not move under a replay: lines wait, and the
                // clock's own moves are not made.
                Msg::Run(line) => return self.wait_for_replay(true, line),
                Msg::Button(line) => return self.wait_for_replay(false, line),
                Msg::Frame(_) | Msg::Step | Msg::TogglePlay | Msg::Seek(_) => return self,
                other => other,
            }
        } else {
            action
        };
        let mut next = (*self).clone();
        match action {
            Msg::Frame(real_ms) => match next.frame(real_ms) {
                Framed::Nothing => return self,
                Framed::Carried => return Rc::new(next),
                Framed::Moved => {}
            },
            // Only the forecast changes: the lesson has nothing to watch.
            Msg::Forecast(change) => return next.with_forecast(change),
            Msg::ForecastLine(line) => {
                let change = next.change_of(&line);
                return next.with_forecast(change);
            }
            action => {
                // The person acted while an earlier moment showed: its future is gone.
                if forks(&action, next.playing) {
                    next.future = None;
                }
                let sets_pause = matches!(action, Msg::PauseOn(_));
                next.act(action);
                // Page options: a new world (a reset, a lesson, a replay) keeps them.
                if !sets_pause {
                    next.pause_on = self.pause_on;
                }
                next.forecast = self.forecast.clone();
            }
        }
        next.lesson_watch();
        next.version += 1;
        Rc::new(next)
    }
}

/// What one animation frame of the clock did.
enum Framed {
    /// Nothing: paused, or a frame too late to play; the page does not render.
    Nothing,
    /// Less than a simulated millisecond, carried to the next frame; the
    /// version stays, so the page does not render this frame.
    Carried,
    /// The clock moved.
    Moved,
}

/// The reducer's steps: a frame of the clock, the forecast, and every
/// other message.
impl Model {
    /// `real_ms` of real time passed (scaled by the speed while playing).
    fn frame(&mut self, real_ms: f64) -> Framed {
        if !(self.playing && real_ms.is_finite() && real_ms > 0.0) {
            return Framed::Nothing;
        }
        // A frame this late means the page was not drawn meanwhile (a
        // background tab or window, a frozen page): that time is not played.
        if real_ms > MAX_FRAME_MS {
            return Framed::Nothing;
        }
        let sim = real_ms * self.speed + self.carry;
        let whole = sim.floor();
        self.carry = sim - whole;
        if whole < 1.0 {
            // Not one simulated millisecond yet (a slow speed on a fast
            // display): the world is not asked for a new view (`App`
            // re-renders on a new version); the time is carried.
            return Framed::Carried;
        }
        self.advance(whole as u64);
        Framed::Moved
    }

    /// The change the line being typed would make in the world shown, with
    /// the terminal's machine as the host of a line without a prompt.
    fn change_of(&self, line: &str) -> Option<Change> {
        let current = self.prompt.trim_end_matches('$');
        let current = (!current.is_empty()).then_some(current);
        actions::change_of(&self.view, current, line)
    }

    /// The model with this forecast, as a new version.
    fn with_forecast(mut self, change: Option<Change>) -> Rc<Self> {
        self.forecast = change;
        self.version += 1;
        Rc::new(self)
    }

    /// Every message but a frame and the forecast.
    fn act(&mut self, action: Msg) {
        match action {
            Msg::Run(line) => self.type_line(&line),
            Msg::Button(line) => self.press(&line),
            Msg::Step => self.advance(TICK_MS),
            Msg::TogglePlay => {
                self.playing = !self.playing;
                if !self.playing {
                    self.settle();
                }
            }
            Msg::SetSpeed(text) => self.set_speed(&text),
            Msg::Reset { seed, start, etcd } => self.reset(&seed, start, etcd),
            Msg::Dismiss => self.notice = None,
            // After what is said already (a replay's cut, say), not instead.
            Msg::Notice(text) => {
                self.notice = Some(match self.notice.take() {
                    Some(said) if !text.contains(&said) => format!("{said} {text}"),
                    _ => text,
                })
            }
            Msg::DismissLost => {
                let p = Rc::make_mut(&mut self.promises);
                p.lost.clear();
                p.cause = None;
            }
            Msg::LessonRun => self.lesson_run(),
            Msg::LessonNext => self.lesson_move(1),
            Msg::LessonBack => self.lesson_move(-1),
            Msg::LessonRestore => self.lesson_restore(),
            Msg::LessonClose => {
                self.lesson = None;
                self.lesson_error = None;
            }
            Msg::LessonEtcd(etcd) => self.lesson_etcd(etcd),
            Msg::LessonAnswer(choice) => self.lesson_answer(choice),
            Msg::LessonDoIt => self.lesson_do_it(),
            Msg::AttachLesson {
                lesson: Ok(lesson),
                step,
                done,
            } => self.attach_lesson(lesson, step, done),
            Msg::AttachLesson { lesson: Err(e), .. } => self.lesson_error = Some(e),
            Msg::OpenLessonAt {
                lesson: Ok(lesson),
                step,
            } => {
                let step = step.min(lesson.steps.len().saturating_sub(1));
                self.lesson_error = None;
                let etcd = lesson.etcd;
                self.replay(&lesson, step, false, etcd);
            }
            Msg::OpenLessonAt { lesson: Err(e), .. } => self.lesson_error = Some(e),
            Msg::Seek(ms) => self.seek(ms),
            Msg::Load(run) => self.load(&run),
            Msg::ReplayMore => self.replay_part(REPLAY_CHUNK_EVENTS),
            Msg::ReplayCancel => self.cancel_replay(),
            Msg::PauseOn(p) => self.pause_on = p,
            Msg::Export(kind) => {
                let run = self.to_run();
                self.export = Some(Rc::new(Export { kind, run }));
            }
            Msg::Frame(_) | Msg::Forecast(_) | Msg::ForecastLine(_) => {}
        }
    }
}

/// Whether a message acts on the world (so a kept future is discarded):
/// typing, a button, a tick, playing, a lesson move, a new world. Any other
/// message (a frame, a notice, a seek, a forecast, an export...) keeps it.
fn forks(action: &Msg, playing: bool) -> bool {
    match action {
        Msg::TogglePlay => !playing,
        // A seed that is not a number changes nothing, so it keeps the future too.
        Msg::Reset { seed, .. } => parse_seed(seed).is_ok(),
        _ => matches!(
            action,
            Msg::Run(_)
                | Msg::Button(_)
                | Msg::Step
                | Msg::Load(_)
                | Msg::OpenLessonAt { lesson: Ok(_), .. }
                | Msg::LessonRun
                | Msg::LessonNext
                | Msg::LessonBack
                | Msg::LessonRestore
                | Msg::LessonEtcd(_)
                | Msg::LessonDoIt
        ),
    }
}

/// What the page says after a replay: why it was cut short, if it was, and
/// how many of its commands a limit refused or stopped.
fn replay_notice(cut: Option<String>, limits: &LimitsMet) -> Option<String> {
    // The command a cut stopped met a limit too: the cut says so already.
    let earlier = limits.commands.saturating_sub(usize::from(cut.is_some()));
    let met = limits.first.as_ref().filter(|_| earlier > 0).map(|first| {
        let commands = if earlier == 1 {
            "one of its commands".to_string()
        } else {
            format!("{earlier} of its commands")
        };
        format!("{commands} met the playground's limits; the first was told: {first}")
    });
    match (cut, met) {
        (Some(cut), Some(met)) => Some(format!("{cut} Before that, {met}")),
        (None, Some(met)) => Some(format!("This run was replayed whole, but {met}")),
        (cut, None) => cut,
    }
}

/// The notice for a replay its budget cut short at command `next` (0-based)
/// of `total`.
fn replay_cut(spent: Spent, next: usize, total: usize) -> String {
    let limit = match spent {
        Spent::Time => format!(
            "it runs the clock for more than {} simulated hours",
            budget::REPLAY_MS / 3_600_000
        ),
        Spent::Work => format!(
            "it needs more work than the page does for one run ({} simulated events)",
            budget::REPLAY_EVENTS
        ),
    };
    format!("This run was cut short: {limit}. The page shows the world where the limit was reached, after {next} of its {total} commands.")
}

/// The speed field: `0.1` to `100`, an optional trailing `x`.
pub fn parse_speed(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let num = t.strip_suffix(['x', 'X', '×']).unwrap_or(t).trim();
    match num.parse::<f64>() {
        Ok(s) if s.is_finite() && (SPEED_MIN..=SPEED_MAX).contains(&s) => Ok(s),
        _ => Err(format!(
            "speed: {t:?} is not a speed from {SPEED_MIN} to {SPEED_MAX} (for example 0.5, 1 or 10); the speed is unchanged"
        )),
    }
}

/// The seed field: a whole number that fits in 64 bits.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    let t = text.trim();
    t.parse::<u64>().map_err(|_| {
        format!(
            "seed: {t:?} is not a whole number from 0 to {}; the world is unchanged",
            u64::MAX
        )
    })
}

/// What a command stands for on the timeline, if anything.
fn marker_kind(command: &Command) -> Option<MarkerKind> {
    use crate::shell::command::{Docker, Machine, Net, Op};
    match command {
        Command::Etcdctl(e) => match e.op()?.0 {
            Op::MemberAdd | Op::MemberRemove | Op::MemberPromote | Op::MemberUpdate => {
                Some(MarkerKind::Membership)
            }
            _ => None,
        },
        Command::Net(
            Net::Cut(..)
            | Net::CutOne(..)
            | Net::Heal(_)
            | Net::Isolate(_)
            | Net::Partition(_)
            | Net::Delay { .. }
            | Net::Loss { .. }
            | Net::Rate { .. }
            | Net::Clear { .. },
        )
        | Command::Kill(_)
        | Command::Machine(Machine::Down(_) | Machine::Up(_) | Machine::Rm(_))
        | Command::Rm(_)
        | Command::Docker(Docker::Stop) => Some(MarkerKind::Fault),
        Command::Etcd(_) | Command::Docker(Docker::Run(_)) => Some(MarkerKind::Start),
        _ => None,
    }
}

/// The map's announcement of a change between two samples: its kind, its
/// text, and whether the leader and the quorum changed.
fn map_event(before: &Sample, now: &Sample) -> Option<(EventKind, String, bool, bool)> {
    let leader = (before.leader.as_ref(), before.term) != (now.leader.as_ref(), now.term);
    let quorum = before.quorum != now.quorum;
    let mut said: Vec<(EventKind, String)> = Vec::new();
    if leader {
        let t = now.term;
        said.push(match (&before.leader, &now.leader) {
            (_, None) => (EventKind::NoLeader, format!("No leader (term {t})")),
            (Some(b), Some(l)) if b != l => (
                EventKind::Leader,
                format!("New leader: {l} (was {b}), term {t}"),
            ),
            (_, Some(l)) => (EventKind::Leader, format!("{l} is the leader, term {t}")),
        });
    }
    if quorum {
        said.push(if now.quorum {
            (
                EventKind::QuorumRegained,
                "quorum regained: writes commit again".into(),
            )
        } else {
            (
                EventKind::QuorumLost,
                "quorum lost: writes cannot commit".into(),
            )
        });
    }
    let kind = said.iter().map(|(k, _)| *k).min()?;
    let text: Vec<String> = said.into_iter().map(|(_, t)| t).collect();
    Some((kind, text.join("; "), leader, quorum))
}

/// The live region's text for a change between two samples.
fn announcement(before: Option<&Sample>, now: &Sample) -> String {
    let mut parts = Vec::new();
    let leader_changed =
        before.is_none_or(|b| (b.leader.as_ref(), b.term) != (now.leader.as_ref(), now.term));
    if leader_changed {
        match &now.leader {
            Some(l) => parts.push(format!("{l} is the leader at term {}", now.term)),
            None => parts.push(format!("no leader at term {}", now.term)),
        }
    }
    match before.map(|b| b.quorum) {
        Some(true) if !now.quorum => parts.push("quorum lost".to_string()),
        Some(false) if now.quorum => parts.push("quorum regained".to_string()),
        _ => {}
    }
    parts.join("; ")
}

/// How a complete line runs, how the run records it and what the history
/// keeps. A line is one of:
///
/// - a line as typed (`cmd`, `HOST$ cmd`): it runs as a shell runs it (a
///   prompt switches the terminal's machine) and is recorded and kept as it is;
/// - `(HOST)$ cmd` with HOST another machine than the terminal's: a button's
///   command ([`Msg::Button`]), run on HOST keeping the terminal's machine
///   ([`Session::run_on`]), kept in the history as `HOST$ cmd`;
/// - `(HOST)$ cmd` with HOST the terminal's machine: a button's command on
///   it, or a line typed without a prompt after a button ran on another
///   machine, recorded with the terminal's machine so that a script of the
///   run (where `HOST$` switches) runs it there too; kept as `cmd`.
///
/// The reader turns a typed `(HOST)$ cmd` into `HOST$ cmd`, and a line it
/// cannot read is never taken for a button's (`one_command_on_host`), so
/// runs recorded before buttons kept the terminal's machine replay as they ran.
struct LinePlan {
    prompt: Prompt,
    text: String,
    /// The machine the prompt names, if it names one that exists.
    host: Option<String>,
    /// A button's command on another machine: the terminal's machine stays.
    keep_current: bool,
    /// The line as the run records it.
    record: String,
    /// The line as the history keeps it (nothing for an empty line).
    history: String,
}

impl LinePlan {
    /// The plan for `trimmed`; `diverged` when the run's script addresses
    /// another machine than the terminal's ([`Model`]'s `script_host`).
    fn new(trimmed: &str, session: &Session, diverged: bool) -> LinePlan {
        let current = session.current().map(str::to_string);
        let (prompt, text) = parse::split_prompt(trimmed);
        let host = match &prompt {
            Prompt::Host(h) => session.world.find_machine(h).map(str::to_string),
            Prompt::Current => None,
        };
        let here = host.is_some() && host == current;
        let paren = trimmed.starts_with('(') && host.is_some();
        let mut plan = LinePlan {
            prompt,
            host,
            keep_current: false,
            record: trimmed.to_string(),
            history: trimmed.to_string(),
            text,
        };
        if paren && here {
            plan.history = plan.text.clone();
        } else if paren && one_command_on_host(trimmed).is_some() {
            plan.keep_current = true;
            plan.history = as_echoed(trimmed);
        } else if let (Prompt::Current, Some(c), true) = (&plan.prompt, current, diverged) {
            plan.record = paren_line(&c, &plan.text);
            plan.history = plan.text.clone();
            plan.prompt = Prompt::Host(c.clone());
            plan.host = Some(c);
        }
        plan
    }
}

/// `line` read as one whole command with a `HOST$` (or `(HOST)$`) prompt:
/// the host as written and the command's text.
fn one_command_on_host(line: &str) -> Option<(String, String)> {
    if line.contains('\n') {
        return None;
    }
    let mut reader = Reader::default();
    match reader.feed(line) {
        Ok(Some(c)) if !reader.is_open() => match c.prompt {
            Prompt::Host(h) => Some((h, c.text)),
            Prompt::Current => None,
        },
        _ => None,
    }
}

/// A recorded line as the terminal echoed it: a button's `(HOST)$ cmd` as
/// `HOST$ cmd`, any other line as it is.
fn as_echoed(line: &str) -> String {
    match one_command_on_host(line).filter(|_| line.starts_with('(')) {
        Some((host, text)) => format!("{host}$ {text}").trim_end().to_string(),
        None => line.to_string(),
    }
}

/// `(HOST)$ text`, the form a button's command is recorded in.
fn paren_line(host: &str, text: &str) -> String {
    format!("({host})$ {text}").trim_end().to_string()
}

fn prompt_of(session: &Session) -> String {
    format!("{}$", session.current().unwrap_or(""))
}

/// Splits a transcript's text into lines, marking command echoes.
fn push_text(lines: &mut Vec<TermLine>, kind: TermKind, text: &str) {
    for l in text.lines() {
        let kind = if kind == TermKind::Stdout && l.contains("$ ") && is_echo(l) {
            TermKind::Echo
        } else {
            kind
        };
        lines.push(TermLine {
            kind,
            text: l.to_string(),
        });
    }
}

/// Splits a command's output into lines of one kind.
fn push_lines(lines: &mut Vec<TermLine>, kind: TermKind, text: &str) {
    lines.extend(text.lines().map(|l| TermLine {
        kind,
        text: l.to_string(),
    }));
}

/// Whether a transcript line is a command echo (`HOST$ cmd` or `$ cmd`).
fn is_echo(l: &str) -> bool {
    let Some((host, _)) = l.split_once("$ ") else {
        return false;
    };
    host.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
}
