//! The page's state and its one reducer: a shell session, the terminal's lines and
//! history, and the `WorldView` the components draw. Every change is a `Msg`.

use std::cell::RefCell;
use std::rc::Rc;

use yew::Reducible;

use crate::shell::parse::{self, Prompt};
use crate::shell::runner;
use crate::shell::session::Session;
use crate::sim::etcd::logfmt::Stamp;
use crate::sim::view::WorldView;
use crate::sim::world::Action;

/// The script the page opens on.
pub const BOOT_SCRIPT: &str = include_str!("boot.sh");

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
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Msg {
    /// Run a line typed in the terminal (a `HOST$` prompt is optional).
    Run(String),
    /// The page's clock: this many simulated milliseconds passed.
    Tick(u64),
    /// Play or pause the page's clock.
    TogglePlay,
}

/// The page's state.
#[derive(Clone)]
pub struct Model {
    session: Rc<RefCell<Session>>,
    pub lines: Rc<Vec<TermLine>>,
    pub history: Rc<Vec<String>>,
    pub view: WorldView,
    pub prompt: String,
    /// Whether the page's clock runs the world in real time.
    pub playing: bool,
}

impl PartialEq for Model {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.lines, &other.lines) && self.view == other.view
    }
}

impl Model {
    /// A new session with the boot script already run, its transcript shown.
    pub fn boot(seed: u64) -> Model {
        let mut session = Session::new(seed);
        let mut lines = Vec::new();
        if let Ok(commands) = parse::parse_script(BOOT_SCRIPT) {
            for c in &commands {
                let mut text = String::new();
                runner::run_one(&mut session, c, false, &mut text);
                push_text(&mut lines, TermKind::Stdout, &text);
            }
        }
        let view = session.world.view();
        let prompt = prompt_of(&session);
        Model {
            session: Rc::new(RefCell::new(session)),
            lines: Rc::new(lines),
            history: Rc::new(Vec::new()),
            view,
            prompt,
            playing: true,
        }
    }

    /// Runs the world's clock forward.
    pub fn tick(&self, ms: u64) -> Model {
        let view = {
            let mut session = self.session.borrow_mut();
            let _ = session.world.apply(Action::Advance { ms });
            session.world.view()
        };
        Model {
            view,
            ..self.clone()
        }
    }

    /// The simulated wall clock, as `date` prints it.
    pub fn clock_text(&self) -> String {
        let ms = self.view.wall_ms;
        Stamp::from_unix_ms(ms).date(ms.div_euclid(1000))
    }

    /// Runs one typed line and returns the next state.
    pub fn run(&self, line: &str) -> Model {
        let mut lines = (*self.lines).clone();
        let mut history = (*self.history).clone();
        let trimmed = line.trim();
        {
            let mut session = self.session.borrow_mut();
            let (prompt, text) = parse::split_prompt(trimmed);
            let host_before = prompt_of(&session);
            let ex = session.run(&prompt, &text);
            let host = match (&prompt, &ex.machine) {
                (Prompt::Host(_), Some(m)) => format!("{m}$"),
                _ => host_before,
            };
            lines.push(TermLine {
                kind: TermKind::Echo,
                text: format!("{host} {text}"),
            });
            for chunk in &ex.output.chunks {
                let kind = if chunk.stderr {
                    TermKind::Stderr
                } else {
                    TermKind::Stdout
                };
                push_text(&mut lines, kind, &chunk.text);
            }
        }
        if !trimmed.is_empty() && history.last().map(|s| s.as_str()) != Some(trimmed) {
            history.push(trimmed.to_string());
        }
        let session = self.session.borrow();
        Model {
            session: self.session.clone(),
            lines: Rc::new(lines),
            history: Rc::new(history),
            view: session.world.view(),
            prompt: prompt_of(&session),
            playing: self.playing,
        }
    }

    /// The whole terminal as plain text.
    pub fn terminal_text(&self) -> String {
        self.lines.iter().map(|l| format!("{}\n", l.text)).collect()
    }
}

impl Reducible for Model {
    type Action = Msg;

    fn reduce(self: Rc<Self>, action: Msg) -> Rc<Self> {
        match action {
            Msg::Run(line) => Rc::new(self.run(&line)),
            Msg::Tick(ms) => Rc::new(self.tick(ms)),
            Msg::TogglePlay => Rc::new(Model {
                playing: !self.playing,
                ..(*self).clone()
            }),
        }
    }
}

fn prompt_of(session: &Session) -> String {
    format!("{}$", session.current().unwrap_or(""))
}

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

/// Whether a transcript line is a command echo (`HOST$ cmd` or `$ cmd`).
fn is_echo(l: &str) -> bool {
    let Some((host, _)) = l.split_once("$ ") else {
        return false;
    };
    host.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
}
