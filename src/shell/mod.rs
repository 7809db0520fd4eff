//! The playground shell: parsing lines, running world and etcdctl commands, and
//! printing what etcd 3.4.23's tools print. Knows nothing of the DOM.

pub mod actions;
pub mod command;
pub mod complete;
pub mod etcd_flags;
pub mod etcdctl;
pub mod netunits;
pub mod parse;
pub mod print;
pub mod runner;
pub mod session;

/// A piece of output, in the order it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub stderr: bool,
    pub text: String,
}

/// What a command wrote and how it ended. `stdout` and `stderr` hold each stream;
/// `chunks` holds both in the order they were written, as a terminal shows them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub chunks: Vec<Chunk>,
    pub status: i32,
}

impl Output {
    /// Standard output only, status 0.
    pub fn text(s: &str) -> Output {
        let mut o = Output::default();
        o.raw(s);
        o
    }

    /// One line on standard error and a status.
    pub fn failure(msg: &str, status: i32) -> Output {
        let mut o = Output::default();
        o.err(msg);
        o.status = status;
        o
    }

    fn write(&mut self, stderr: bool, text: &str) {
        if text.is_empty() {
            return;
        }
        let stream = if stderr {
            &mut self.stderr
        } else {
            &mut self.stdout
        };
        stream.push_str(text);
        match self.chunks.last_mut() {
            Some(c) if c.stderr == stderr => c.text.push_str(text),
            _ => self.chunks.push(Chunk {
                stderr,
                text: text.to_string(),
            }),
        }
    }

    /// Appends a line to standard output.
    pub fn line(&mut self, s: &str) {
        self.write(false, &format!("{s}\n"));
    }

    /// Appends text (already ending in a newline) to standard output.
    pub fn raw(&mut self, s: &str) {
        self.write(false, s);
    }

    /// Appends a line to standard error.
    pub fn err(&mut self, s: &str) {
        self.write(true, &format!("{s}\n"));
    }

    /// Both streams in the order they were written.
    pub fn merged(&self) -> String {
        self.chunks.iter().map(|c| c.text.as_str()).collect()
    }
}
