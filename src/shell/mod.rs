//! The playground shell: parsing lines, running world and etcdctl commands, and
//! printing what etcd 3.4.23's tools print. Knows nothing of the DOM.

pub mod etcd_flags;
pub mod etcdctl;
pub mod parse;
pub mod print;
pub mod runner;
pub mod session;

/// What a command wrote and how it ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub status: i32,
}

impl Output {
    /// Standard output only, status 0.
    pub fn text(s: &str) -> Output {
        Output {
            stdout: s.to_string(),
            ..Output::default()
        }
    }

    /// One line on standard error and a status.
    pub fn failure(msg: &str, status: i32) -> Output {
        Output {
            stderr: format!("{msg}\n"),
            status,
            ..Output::default()
        }
    }

    /// Appends a line to standard output.
    pub fn line(&mut self, s: &str) {
        self.stdout.push_str(s);
        self.stdout.push('\n');
    }

    /// Appends text (already ending in a newline) to standard output.
    pub fn raw(&mut self, s: &str) {
        self.stdout.push_str(s);
    }

    /// Appends a line to standard error.
    pub fn err(&mut self, s: &str) {
        self.stderr.push_str(s);
        self.stderr.push('\n');
    }
}
