//! The playground shell's syntax: splitting a script into commands, reading prompts,
//! sh word splitting with quoting and `$VAR` expansion, and duration arguments.
//!
//! This module owns everything between raw text and a list of words; it runs nothing
//! and knows no machines, variables or commands (callers pass a variable lookup and
//! match host names themselves). It uses `std` only and never panics on any input.
//!
//! Choices made where the design (`shared/design/shell.md`) is silent:
//!
//! - **Prompts.** `$ CMD` is the current machine. `HOST$ CMD` needs HOST to be a plain
//!   word (ASCII letters, digits, `-`, `_`, `.`, starting with a letter or digit) right
//!   before `$`, and `$` must be followed by a blank or the end of the line, so
//!   `echo $?`, `$NODE01` and `etcd --name x` are never prompts. `(LABEL)$ CMD`: a label
//!   that is a plain word (after trimming blanks) is a host; any other label, such as
//!   `etcd Container` or anything containing a blank, means the current machine. A
//!   label must be non-empty and contain none of `(`, `)`, `'`, `"`, `` ` ``, `$` and
//!   `\`, so a `$` inside quotes is never a prompt. Blanks around the command are
//!   trimmed. A prompt with no command (`node01$`) yields an empty command text; the
//!   caller decides what it means.
//! - **Continuations.** A line continues when it ends in a `\` that sh would read as a
//!   line continuation: outside quotes or inside double quotes, not escaped (`\\`), and
//!   not inside a `#` comment. Trailing blanks after that `\` are forgiven (pasted
//!   text often has them). The pieces are joined with one space; a piece is glued on
//!   without a space only when neither side had blanks at the joint (`foo\` + `bar`
//!   is `foobar`, as in sh). A blank continuation line ends the command, as in sh; a
//!   continuation line that is a comment also ends it (the comment stays in `text`).
//!   Lines may end in `\r\n`; a leading byte-order mark is ignored. A trailing `# ...`
//!   comment stays in `text` (the runner echoes commands as typed); `words` drops it.
//! - **Quotes do not span lines.** A command whose quotes are still open where it ends
//!   is a parse error at the line where the command started.
//! - **Parse errors** are only: an unterminated quote, a script ending right after a
//!   continuation `\` (reported at that last line), and a line starting with `(` that
//!   is not a `(LABEL)$ ` prompt. Unsupported operators are not parse errors: `words`
//!   reports them when the command runs, so the rest of the script still runs.
//! - **Words.** Operators (`| || & && ; < > >> << 2>&1 &> ( )`) are recognised only
//!   unquoted, even inside a word (`a|b`), as sh does. Command substitution (`$(`,
//!   `` ` ``) is reported inside double quotes too, because sh would run it there;
//!   inside single quotes everything is literal. `$NAME` takes the longest name,
//!   `$?` is the last status, `$#` is `0`, `$0` is `sh`, and the other special and
//!   positional parameters (`$1`, `$@`, `$*`, `$$`, `$!`, `$-`) are empty. `${NAME}`
//!   accepts only a name or a special parameter; modifiers such as `${X:-y}` are a
//!   bad substitution. No tilde, glob or arithmetic expansion (`*` stays literal for
//!   the command to interpret); `$((` is reported as unsupported. Field splitting uses
//!   sh's default IFS (space, tab, newline). Assignment words (`ETCD_NAME=x etcd`) are
//!   ordinary words; the caller interprets them.
//! - **Durations.** One grammar for `sleep` and Go-style flags: `[+]N[.N]UNIT...` with
//!   units `ms`, `s`, `m`, `h` (case-sensitive, as Go). A bare number is seconds when
//!   `bare_is_seconds`, otherwise only `0` is accepted (as Go's `time.ParseDuration`).
//!   The result is rounded half up to a millisecond; more than one day is rejected.

/// Who a script line addresses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prompt {
    /// `$ cmd`, `(etcd Container)$ cmd`, or a bare line with no prompt: the current machine.
    Current,
    /// `node01$ cmd` or `(Node01)$ cmd`: that machine (name as written; matching is the
    /// caller's job, case-insensitive).
    Host(String),
}

/// One command of a script: where it starts, who it addresses, and its text with
/// continuations joined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptCommand {
    /// 1-based line number where the command starts.
    pub line: usize,
    /// Who the command addresses.
    pub prompt: Prompt,
    /// The command as typed: continuation lines joined with single spaces (the `\`
    /// removed, each continuation line trimmed), variables not expanded.
    pub text: String,
}

/// Why a script cannot be parsed; the runner prints it as `FILE:LINE: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong, without the location.
    pub message: String,
}

/// Why a command line cannot be run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WordsError {
    /// A `'` or `"` without its closing partner.
    UnterminatedQuote,
    /// Pipes, redirection, command substitution, `&&`, `||`, `;`, background `&`,
    /// subshells: the construct as written, e.g. `|`, `>`, `2>&1`, `$(`, `` ` ``, `&&`,
    /// `||`, `;`, `&`, `(`.
    Unsupported(String),
    /// `${` without a closing `}`, or with something other than a name inside.
    BadSubstitution,
    /// The words, once expanded, hold more than [`MAX_EXPANDED_CHARS`].
    TooLong,
}

/// The most characters a command's words may hold once its variables are
/// expanded. sh has no such bound; without one, `A=$A$A…` doubles a value
/// per line until the page runs out of memory.
pub const MAX_EXPANDED_CHARS: usize = 65_536;

impl WordsError {
    /// The message a shell prints for the error; one function so that all callers
    /// print the same text.
    #[must_use]
    pub fn message(&self) -> String {
        match self {
            WordsError::UnterminatedQuote => "sh: syntax error: unterminated quoted string".into(),
            WordsError::BadSubstitution => "sh: syntax error: bad substitution".into(),
            WordsError::TooLong => format!(
                "sh: the command is longer than {MAX_EXPANDED_CHARS} characters once its variables are expanded (the playground's limit); nothing was run"
            ),
            WordsError::Unsupported(construct) => unsupported_message(construct),
        }
    }
}

fn unsupported_message(construct: &str) -> String {
    let tail = "not supported in this playground";
    match construct {
        "|" => format!("sh: pipes (|) are {tail}"),
        "&" => format!("sh: background jobs (&) are {tail}; etcd already runs in the background"),
        "&&" | "||" | ";" => {
            format!("sh: command lists ({construct}) are {tail}; put each command on its own line")
        }
        "`" => format!("sh: command substitution (`...`) is {tail}"),
        "$(" => format!("sh: command substitution ($(...)) is {tail}"),
        "$((" => format!("sh: arithmetic expansion ($((...))) is {tail}"),
        "(" | ")" => format!("sh: subshells ( ... ) are {tail}"),
        _ => format!("sh: redirection ({construct}) is {tail}"),
    }
}

// ---------------------------------------------------------------------------------
// Scripts
// ---------------------------------------------------------------------------------

/// A command being read across continuation lines.
#[derive(Debug, Clone)]
struct Pending {
    line: usize,
    prompt: Prompt,
    /// The text so far, with the continuation `\` already removed.
    text: String,
    /// How the lexer stood at the end of `text`, so the next piece is scanned
    /// from there and not from the start (reading stays linear in the text).
    state: ScanState,
}

/// The error for text that ends inside a `\` continuation: more lines would
/// complete it (the page's terminal waits for them).
pub const OPEN_CONTINUATION: &str = "the script ends after a line continuation (\\)";

/// Split a whole script into commands. Comments (`#` first non-blank char) and blank
/// lines are skipped. A line ending in `\` continues on the next line. Errors: an
/// unterminated quote (reported at the line where the command started), a script that
/// ends inside a continuation, a line starting with `(` that is not a prompt.
///
/// # Errors
///
/// The first [`ParseError`] met, with its 1-based line number; nothing is returned
/// for the lines that did parse.
pub fn parse_script(src: &str) -> Result<Vec<ScriptCommand>, ParseError> {
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    let mut reader = Reader::default();
    let mut commands = Vec::new();
    for raw in src.split_terminator('\n') {
        commands.extend(reader.feed(raw)?);
    }
    reader.finish()?;
    Ok(commands)
}

/// Reads a script a line at a time, as [`parse_script`] reads it whole: the
/// page's terminal feeds it each line typed or pasted, so a command continued
/// over thousands of lines costs time in proportion to its length.
#[derive(Debug, Clone, Default)]
pub struct Reader {
    /// Lines fed so far.
    lines: usize,
    pending: Option<Pending>,
}

impl Reader {
    /// Reads one line (without its `\n`; a trailing `\r` is forgiven). Returns
    /// the command it completes, if any.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] for the command this line ends or starts; the reader
    /// is then empty again, ready for the next command.
    pub fn feed(&mut self, raw: &str) -> Result<Option<ScriptCommand>, ParseError> {
        self.lines += 1;
        let line = raw.trim_end_matches(is_space);
        let mut commands = Vec::new();
        let read = match self.pending.take() {
            Some(open) => continue_command(open, line, &mut commands),
            None => start_command(self.lines, line, &mut commands),
        };
        self.pending = read?;
        Ok(commands.pop())
    }

    /// Whether a command waits for its continuation lines.
    pub fn is_open(&self) -> bool {
        self.pending.is_some()
    }

    /// The script ended: an open continuation is an error.
    ///
    /// # Errors
    ///
    /// [`OPEN_CONTINUATION`] at the last line when a command still waits.
    pub fn finish(&self) -> Result<(), ParseError> {
        match self.pending {
            Some(_) => Err(ParseError {
                line: self.lines,
                message: OPEN_CONTINUATION.into(),
            }),
            None => Ok(()),
        }
    }
}

fn start_command(
    line_no: usize,
    line: &str,
    commands: &mut Vec<ScriptCommand>,
) -> Result<Option<Pending>, ParseError> {
    let trimmed = line.trim_start_matches(is_space);
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    let (prompt, rest) = match prompt_prefix(trimmed) {
        Some((prompt, rest)) => (prompt, rest.trim_matches(is_space)),
        None if trimmed.starts_with('(') => {
            return Err(ParseError {
                line: line_no,
                message: "a line starting with ( must be a prompt, as in (HOST)$ COMMAND".into(),
            })
        }
        None => (Prompt::Current, trimmed),
    };
    let open = Pending {
        line: line_no,
        prompt,
        text: String::new(),
        state: ScanState::default(),
    };
    end_of_line(open, rest, commands)
}

fn continue_command(
    mut open: Pending,
    line: &str,
    commands: &mut Vec<ScriptCommand>,
) -> Result<Option<Pending>, ParseError> {
    let piece = line.trim_matches(is_space);
    if piece.is_empty() {
        // `\` followed by an empty line: sh ends the command here.
        return end_of_line(open, "", commands);
    }
    let spaced = open.text.ends_with(is_space) || line.starts_with(is_space);
    let kept = open.text.trim_end_matches(is_space).len();
    open.text.truncate(kept);
    let joint = if spaced && !open.text.is_empty() {
        " "
    } else {
        ""
    };
    end_of_line(open, &format!("{joint}{piece}"), commands)
}

/// Appends `piece` to the command read so far and decides what the end of
/// the physical line means for it.
fn end_of_line(
    mut open: Pending,
    piece: &str,
    commands: &mut Vec<ScriptCommand>,
) -> Result<Option<Pending>, ParseError> {
    open.text.push_str(piece);
    match open.state.scan(piece) {
        LineEnd::Continues => {
            open.text.pop();
            Ok(Some(open))
        }
        LineEnd::OpenQuote(quote) => Err(ParseError {
            line: open.line,
            message: format!("unterminated quote (no closing {quote})"),
        }),
        LineEnd::Complete => {
            let text = open.text.trim_end_matches(is_space).to_string();
            commands.push(ScriptCommand {
                line: open.line,
                prompt: open.prompt,
                text,
            });
            Ok(None)
        }
    }
}

/// How a line of command text ends, lexically.
#[derive(Debug, PartialEq, Eq)]
enum LineEnd {
    Complete,
    /// Ends in a `\` that escapes the newline.
    Continues,
    /// Ends inside a quote opened by this character.
    OpenQuote(char),
}

/// Where sh's lexer stands after some text: inside a quote or not, inside a
/// word or not (a `#` starts a comment only outside one).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct ScanState {
    quote: Option<char>,
    in_token: bool,
}

impl ScanState {
    /// Tracks quotes, escapes and comments through `text` the way sh's lexer
    /// does, from where the text before it left off, to find out how the
    /// line ends. Words and operators are not interpreted here. A line that
    /// continues leaves the state as it stood before its final `\`.
    fn scan(&mut self, text: &str) -> LineEnd {
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            match (self.quote, c) {
                (Some('\''), '\'') | (Some('"'), '"') => self.quote = None,
                (Some('"') | None, '\\') => {
                    if chars.next().is_none() {
                        return LineEnd::Continues;
                    }
                    self.in_token = true;
                }
                (Some(_), _) => {}
                (None, '\'' | '"') => {
                    self.quote = Some(c);
                    self.in_token = true;
                }
                (None, '#') if !self.in_token => return LineEnd::Complete,
                (None, _) => self.in_token = !(is_blank(c) || is_operator_char(c)),
            }
        }
        match self.quote {
            Some(q) => LineEnd::OpenQuote(q),
            None => LineEnd::Complete,
        }
    }
}

// ---------------------------------------------------------------------------------
// Prompts
// ---------------------------------------------------------------------------------

/// Split one already-joined command into a prompt and text (used by the page's
/// terminal too, where the user usually types no prompt). A line without a prompt is
/// addressed to the current machine and returned whole (trimmed).
#[must_use]
pub fn split_prompt(line: &str) -> (Prompt, String) {
    let line = line.trim_matches(is_space);
    match prompt_prefix(line) {
        Some((prompt, rest)) => (prompt, rest.trim_matches(is_space).to_string()),
        None => (Prompt::Current, line.to_string()),
    }
}

/// The prompt at the start of `line` (which has no leading blanks) and what follows it.
fn prompt_prefix(line: &str) -> Option<(Prompt, &str)> {
    if let Some(rest) = line.strip_prefix('$') {
        return after_dollar(rest).map(|rest| (Prompt::Current, rest));
    }
    if let Some(inner) = line.strip_prefix('(') {
        let close = inner.find(')')?;
        let label = inner.get(..close)?;
        let rest = after_dollar(inner.get(close + 1..)?.strip_prefix('$')?)?;
        return Some((paren_prompt(label)?, rest));
    }
    let end = line.find(|c: char| !is_host_char(c)).unwrap_or(line.len());
    let host = line.get(..end)?;
    if !is_host(host) {
        return None;
    }
    let rest = after_dollar(line.get(end..)?.strip_prefix('$')?)?;
    Some((Prompt::Host(host.to_string()), rest))
}

/// What follows a prompt's `$`, if the `$` really ends a prompt.
fn after_dollar(rest: &str) -> Option<&str> {
    match rest.chars().next() {
        None => Some(rest),
        Some(c) if is_blank(c) => Some(rest),
        Some(_) => None,
    }
}

/// The prompt meant by `(LABEL)$`, or None when LABEL cannot be a prompt label.
fn paren_prompt(label: &str) -> Option<Prompt> {
    let forbidden = |c: char| matches!(c, '(' | ')' | '\'' | '"' | '`' | '$' | '\\');
    let trimmed = label.trim_matches(is_space);
    if trimmed.is_empty() || label.contains(forbidden) {
        return None;
    }
    if is_host(trimmed) {
        Some(Prompt::Host(trimmed.to_string()))
    } else {
        Some(Prompt::Current)
    }
}

/// A character of a host name (or an IPv4 address): ASCII letters and digits,
/// `-`, `_` and `.`.
pub fn is_host_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
}

fn is_host(text: &str) -> bool {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.is_ascii_alphanumeric() && chars.all(is_host_char),
        None => false,
    }
}

// ---------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------

/// POSIX-shell word splitting with quoting (`'...'`, `"..."`, backslash escapes) and
/// parameter expansion of `$NAME`, `${NAME}` and `$?` (`$?` uses `last_status`;
/// unknown variables expand to nothing; nothing expands inside single quotes; unquoted
/// expansions are field-split on whitespace as sh does, quoted ones are not). A word
/// that is entirely an empty quoted string (`""`) is kept as an empty word. An
/// unquoted `#` starting a word begins a comment to the end of the text.
///
/// # Errors
///
/// The first problem met reading left to right: an unterminated quote, an unsupported
/// construct (see [`WordsError::Unsupported`]) or a bad `${...}`. Print it with
/// [`WordsError::message`].
pub fn words(
    text: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
    last_status: i32,
) -> Result<Vec<String>, WordsError> {
    if let Some(plain) = plain_words(text) {
        return Ok(plain);
    }
    lex(text, lookup, last_status)
}

/// The characters the lexer takes as themselves wherever they stand: no
/// quote, expansion, operator, comment, glob or escape among them.
fn is_plain(b: u8) -> bool {
    matches!(b, b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'/' | b':' | b',' | b'=' | b'@' | b'+' | b'%')
}

/// [`words`] of a line of plain words (see [`is_plain`]) between blanks,
/// such as `etcdctl put key1 value1`, split without the lexer's char-by-char
/// building: its answer exactly (a test compares the two). `None` for any
/// other line, and for one past [`MAX_EXPANDED_CHARS`] (the lexer says so).
fn plain_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut start = None;
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if is_plain(b) {
            start.get_or_insert(i);
        } else if is_ifs(char::from(b)) {
            if let Some(s) = start.take() {
                words.push(text.get(s..i)?.to_string());
            }
        } else {
            return None;
        }
    }
    if let Some(s) = start {
        words.push(text.get(s..)?.to_string());
    }
    let chars: usize = words.iter().map(String::len).sum();
    (chars <= MAX_EXPANDED_CHARS).then_some(words)
}

/// [`words`], character by character.
fn lex(
    text: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
    last_status: i32,
) -> Result<Vec<String>, WordsError> {
    let mut lexer = Lexer {
        chars: text.chars().collect(),
        pos: 0,
        token_start: None,
        fields: Fields::default(),
        lookup,
        last_status,
    };
    lexer.run()?;
    if lexer.fields.over() {
        return Err(WordsError::TooLong);
    }
    Ok(lexer.fields.finish())
}

/// The words being built, with sh's field splitting.
#[derive(Default)]
struct Fields {
    done: Vec<String>,
    current: String,
    /// The current field exists, even if empty (it had a quote or a character).
    started: bool,
    /// Characters in all fields so far.
    chars: usize,
}

impl Fields {
    fn push(&mut self, c: char) {
        self.chars += 1;
        if self.over() {
            return;
        }
        self.current.push(c);
        self.started = true;
    }

    fn push_quoted(&mut self, value: &str) {
        self.chars = self.chars.saturating_add(value.chars().count());
        if self.over() {
            return;
        }
        self.current.push_str(value);
        self.started = true;
    }

    /// Whether the words have grown past [`MAX_EXPANDED_CHARS`] (nothing more
    /// is kept then).
    fn over(&self) -> bool {
        self.chars > MAX_EXPANDED_CHARS
    }

    /// Add an unquoted expansion: IFS whitespace in it separates fields.
    fn push_unquoted(&mut self, value: &str) {
        for c in value.chars() {
            if self.over() {
                return;
            }
            if is_ifs(c) {
                self.end_field();
            } else {
                self.push(c);
            }
        }
    }

    fn end_field(&mut self) {
        if self.started {
            self.done.push(std::mem::take(&mut self.current));
            self.started = false;
        }
    }

    fn finish(mut self) -> Vec<String> {
        self.end_field();
        self.done
    }
}

struct Lexer<'a> {
    chars: Vec<char>,
    pos: usize,
    /// Where the current token (lexical word) started, if one is open.
    token_start: Option<usize>,
    fields: Fields,
    lookup: &'a dyn Fn(&str) -> Option<String>,
    last_status: i32,
}

impl Lexer<'_> {
    /// `->` inside a word between two names (`net cut node01->node02`): the
    /// playground's link arrow, as design/shell.md writes it. sh would read a
    /// redirection there; the playground has none, so the arrow is a word.
    fn at_arrow(&self, c: char) -> bool {
        let before = self.pos.checked_sub(1).and_then(|p| self.chars.get(p));
        let after = self.peek(1);
        c == '>'
            && self.token_start.is_some()
            && before == Some(&'-')
            && after.is_some_and(|a| !is_blank(a) && !is_operator_char(a))
    }

    fn peek(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos.checked_add(offset)?).copied()
    }

    fn run(&mut self) -> Result<(), WordsError> {
        while let Some(c) = self.peek(0) {
            if self.fields.over() {
                return Err(WordsError::TooLong);
            }
            if is_ifs(c) {
                self.fields.end_field();
                self.token_start = None;
                self.pos += 1;
                continue;
            }
            if c == '#' && self.token_start.is_none() {
                return Ok(());
            }
            if is_operator_char(c) && !self.at_arrow(c) {
                return Err(self.operator(c));
            }
            self.token_start.get_or_insert(self.pos);
            self.unquoted(c)?;
        }
        Ok(())
    }

    fn unquoted(&mut self, c: char) -> Result<(), WordsError> {
        match c {
            '\\' => {
                self.escape();
                Ok(())
            }
            '\'' => self.single_quoted(),
            '"' => self.double_quoted(),
            '$' => self.dollar(false),
            '`' => Err(WordsError::Unsupported("`".into())),
            _ => {
                self.fields.push(c);
                self.pos += 1;
                Ok(())
            }
        }
    }

    /// An unquoted backslash: the next character is literal; before a newline it
    /// joins lines; at the very end it stays a backslash.
    fn escape(&mut self) {
        match self.peek(1) {
            None => self.fields.push('\\'),
            Some('\n') => {}
            Some(next) => self.fields.push(next),
        }
        self.pos += 2;
    }

    fn single_quoted(&mut self) -> Result<(), WordsError> {
        self.pos += 1;
        self.fields.push_quoted("");
        loop {
            match self.peek(0) {
                None => return Err(WordsError::UnterminatedQuote),
                Some('\'') => break,
                Some(c) => self.fields.push(c),
            }
            self.pos += 1;
        }
        self.pos += 1;
        Ok(())
    }

    fn double_quoted(&mut self) -> Result<(), WordsError> {
        self.pos += 1;
        self.fields.push_quoted("");
        loop {
            match self.peek(0) {
                None => return Err(WordsError::UnterminatedQuote),
                Some('"') => break,
                Some('$') => self.dollar(true)?,
                Some('`') => return Err(WordsError::Unsupported("`".into())),
                Some('\\') => self.escape_in_double_quotes(),
                Some(c) => {
                    self.fields.push(c);
                    self.pos += 1;
                }
            }
        }
        self.pos += 1;
        Ok(())
    }

    /// Inside double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and newline.
    fn escape_in_double_quotes(&mut self) {
        match self.peek(1) {
            Some(c @ ('$' | '`' | '"' | '\\')) => {
                self.fields.push(c);
                self.pos += 2;
            }
            Some('\n') => self.pos += 2,
            _ => {
                self.fields.push('\\');
                self.pos += 1;
            }
        }
    }

    /// A `$` at `pos`: an expansion, an unsupported substitution, or a literal `$`.
    fn dollar(&mut self, quoted: bool) -> Result<(), WordsError> {
        let value = match self.peek(1) {
            Some('{') => self.braced()?,
            Some('(') => {
                let construct = if self.peek(2) == Some('(') {
                    "$(("
                } else {
                    "$("
                };
                return Err(WordsError::Unsupported(construct.into()));
            }
            Some(c) if is_name_start(c) => self.name(),
            next => {
                let Some(value) = next.and_then(|c| self.special(c)) else {
                    self.fields.push('$');
                    self.pos += 1;
                    return Ok(());
                };
                self.pos += 2;
                value
            }
        };
        if quoted {
            self.fields.push_quoted(&value);
        } else {
            self.fields.push_unquoted(&value);
        }
        Ok(())
    }

    /// `$NAME` at `pos`: the longest name, looked up.
    fn name(&mut self) -> String {
        let start = self.pos + 1;
        let mut end = start;
        while self.chars.get(end).is_some_and(|c| is_name_char(*c)) {
            end += 1;
        }
        let name: String = self
            .chars
            .get(start..end)
            .unwrap_or_default()
            .iter()
            .collect();
        self.pos = end;
        (self.lookup)(&name).unwrap_or_default()
    }

    /// `${...}` at `pos`.
    fn braced(&mut self) -> Result<String, WordsError> {
        let start = self.pos + 2;
        let rest = self.chars.get(start..).unwrap_or_default();
        let len = rest
            .iter()
            .position(|c| *c == '}')
            .ok_or(WordsError::BadSubstitution)?;
        let inner: String = rest.get(..len).unwrap_or_default().iter().collect();
        self.pos = start + len + 1;
        let mut inner_chars = inner.chars();
        match (inner_chars.next(), inner_chars.next()) {
            (Some(c), None) if !is_name_start(c) => {
                self.special(c).ok_or(WordsError::BadSubstitution)
            }
            _ if is_name(&inner) => Ok((self.lookup)(&inner).unwrap_or_default()),
            _ if !inner.is_empty() && inner.chars().all(|c| c.is_ascii_digit()) => {
                Ok(String::new())
            }
            _ => Err(WordsError::BadSubstitution),
        }
    }

    /// The value of a special or positional parameter named by one character.
    fn special(&self, c: char) -> Option<String> {
        match c {
            '?' => Some(self.last_status.to_string()),
            '#' => Some("0".into()),
            '0' => Some("sh".into()),
            '1'..='9' | '@' | '*' | '$' | '!' | '-' => Some(String::new()),
            _ => None,
        }
    }

    /// An unquoted operator character at `pos`: the construct as written.
    fn operator(&self, c: char) -> WordsError {
        let next = self.peek(1);
        let construct = match (c, next) {
            ('|', Some('|')) => "||",
            ('|', _) => "|",
            ('&', Some('&')) => "&&",
            ('&', Some('>')) => "&>",
            ('&', _) => "&",
            (';', _) => ";",
            ('(', _) => "(",
            (')', _) => ")",
            _ => return WordsError::Unsupported(self.redirection(c)),
        };
        WordsError::Unsupported(construct.into())
    }

    /// A redirection starting with `<` or `>` at `pos`, with its IO number (`2>&1`).
    fn redirection(&self, c: char) -> String {
        let mut construct: String = match self.token_start {
            Some(start) => {
                let token = self.chars.get(start..self.pos).unwrap_or_default();
                if token.iter().all(char::is_ascii_digit) {
                    token.iter().collect()
                } else {
                    String::new()
                }
            }
            None => String::new(),
        };
        construct.push(c);
        let mut at = self.pos + 1;
        let second = self.chars.get(at).copied();
        let pairs: &[char] = match c {
            '>' => &['>', '&', '|'],
            _ => &['<', '&', '>'],
        };
        if let Some(s) = second.filter(|s| pairs.contains(s)) {
            construct.push(s);
            at += 1;
        }
        if construct.ends_with('&') {
            while let Some(d) = self
                .chars
                .get(at)
                .filter(|d| d.is_ascii_digit() || **d == '-')
            {
                construct.push(*d);
                at += 1;
            }
        }
        construct
    }
}

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `text` is a sh variable name (`[A-Za-z_][A-Za-z0-9_]*`).
pub fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => is_name_start(first) && chars.all(is_name_char),
        None => false,
    }
}

/// Whether a word is a sh assignment, `NAME=VALUE`.
pub fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| is_name(name))
}

/// sh's default IFS, which also separates words.
fn is_ifs(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n')
}

/// A blank that ends a token or a prompt.
fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n')
}

/// Whitespace trimmed from the ends of lines and commands (includes `\r`).
fn is_space(c: char) -> bool {
    c.is_ascii_whitespace()
}

/// Characters that sh reads as (the start of) an operator when unquoted.
fn is_operator_char(c: char) -> bool {
    matches!(c, '|' | '&' | ';' | '<' | '>' | '(' | ')')
}

// ---------------------------------------------------------------------------------
// Durations
// ---------------------------------------------------------------------------------

/// One day, the longest duration accepted.
const MAX_MS: u128 = 24 * 60 * 60 * 1000;
/// Fixed-point scale for exact sums: 10^18 units per millisecond.
const SCALE: u128 = 1_000_000_000_000_000_000;
/// Fraction digits kept (more cannot change the rounded result meaningfully).
const FRACTION_DIGITS: usize = 18;

/// Parse a duration as `sleep` and etcdctl's `--command-timeout` accept: `2`, `1.5`,
/// `2s`, `1.5s`, `300ms`, `1m`, `1m30s` (units `ms`, `s`, `m`, `h`; a bare number is
/// seconds when `bare_is_seconds`, otherwise only `0` is accepted, as in Go). Returns
/// milliseconds, rounded to the nearest one. None on anything invalid, negative, or
/// longer than one day.
#[must_use]
pub fn duration_ms(text: &str, bare_is_seconds: bool) -> Option<u64> {
    let body = text.strip_prefix('+').unwrap_or(text);
    let (number, rest) = split_number(body)?;
    let scaled = if rest.is_empty() {
        if !bare_is_seconds && body != "0" {
            return None;
        }
        scaled_ms(number, 1000)?
    } else {
        sum_components(body)?
    };
    let ms = scaled.checked_add(SCALE / 2)? / SCALE;
    if ms > MAX_MS {
        return None;
    }
    u64::try_from(ms).ok()
}

/// The exact sum of `N[.N]UNIT` components, in units of 10^-18 ms.
fn sum_components(mut text: &str) -> Option<u128> {
    let mut total: u128 = 0;
    while !text.is_empty() {
        let (number, rest) = split_number(text)?;
        let (unit_ms, rest) = split_unit(rest)?;
        total = total.checked_add(scaled_ms(number, unit_ms)?)?;
        if total > (MAX_MS + 1) * SCALE {
            return None;
        }
        text = rest;
    }
    Some(total)
}

/// A decimal number at the start of `text` (`2`, `1.5`, `.5`, `5.`), and the rest.
fn split_number(text: &str) -> Option<(Number<'_>, &str)> {
    let int_len = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let int = text.get(..int_len)?;
    let after = text.get(int_len..)?;
    let (frac, rest) = match after.strip_prefix('.') {
        Some(tail) => {
            let len = tail
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(tail.len());
            (tail.get(..len)?, tail.get(len..)?)
        }
        None => ("", after),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    Some((Number { int, frac }, rest))
}

fn split_unit(text: &str) -> Option<(u128, &str)> {
    let units: [(&str, u128); 4] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)];
    units
        .iter()
        .find_map(|(unit, ms)| text.strip_prefix(unit).map(|rest| (*ms, rest)))
}

/// A non-negative decimal number as written: integer and fraction digits.
#[derive(Clone, Copy)]
struct Number<'a> {
    int: &'a str,
    frac: &'a str,
}

/// `number` × `unit_ms`, in units of 10^-18 ms; None if beyond one day.
fn scaled_ms(number: Number<'_>, unit_ms: u128) -> Option<u128> {
    let mut int: u128 = 0;
    for d in number.int.chars().filter_map(|c| c.to_digit(10)) {
        int = int.checked_mul(10)?.checked_add(u128::from(d))?;
        if int > MAX_MS {
            return None;
        }
    }
    let whole_ms = int.checked_mul(unit_ms)?;
    if whole_ms > MAX_MS {
        return None;
    }
    let mut frac: u128 = 0;
    let mut digits = 0;
    for d in number.frac.chars().filter_map(|c| c.to_digit(10)) {
        if digits == FRACTION_DIGITS {
            break;
        }
        frac = frac * 10 + u128::from(d);
        digits += 1;
    }
    for _ in digits..FRACTION_DIGITS {
        frac *= 10;
    }
    whole_ms
        .checked_mul(SCALE)?
        .checked_add(frac.checked_mul(unit_ms)?)
}

// ---------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use Prompt::Current;

    #[test]
    fn a_link_arrow_is_a_word_and_a_redirection_is_refused() {
        let none = |_: &str| None;
        assert_eq!(
            words("net cut node01->node02", &none, 0),
            Ok(vec!["net".into(), "cut".into(), "node01->node02".into()])
        );
        assert!(words("echo x >y", &none, 0).is_err());
        assert!(words("echo x-> y", &none, 0).is_err());
    }

    fn host(name: &str) -> Prompt {
        Prompt::Host(name.to_string())
    }

    fn cmd(line: usize, prompt: Prompt, text: &str) -> ScriptCommand {
        ScriptCommand {
            line,
            prompt,
            text: text.to_string(),
        }
    }

    fn env(name: &str) -> Option<String> {
        let value = match name {
            "NODE01" => "192.168.0.61",
            "NODE02" => "192.168.0.62",
            "NODE03" => "192.168.0.63",
            "REGISTRY" => "gcr.io/etcd-development/etcd",
            "SPACED" => "  a  b\tc ",
            "EMPTY" => "",
            "STAR" => "etcd-*",
            "QUOTE" => "it's \"x\"",
            _ => return None,
        };
        Some(value.to_string())
    }

    fn w(text: &str) -> Vec<String> {
        ws(text, 0)
    }

    fn ws(text: &str, status: i32) -> Vec<String> {
        words(text, &env, status).unwrap_or_else(|e| panic!("words({text:?}): {e:?}"))
    }

    fn werr(text: &str) -> WordsError {
        match words(text, &env, 0) {
            Ok(list) => panic!("words({text:?}) should fail, got {list:?}"),
            Err(e) => e,
        }
    }

    fn unsupported(text: &str) -> String {
        match werr(text) {
            WordsError::Unsupported(c) => c,
            other => panic!("words({text:?}): expected Unsupported, got {other:?}"),
        }
    }

    fn script(src: &str) -> Vec<ScriptCommand> {
        parse_script(src).unwrap_or_else(|e| panic!("parse_script failed: {e:?}"))
    }

    fn script_err(src: &str) -> ParseError {
        match parse_script(src) {
            Ok(list) => panic!("parse_script should fail, got {list:?}"),
            Err(e) => e,
        }
    }

    fn sp(line: &str) -> (Prompt, String) {
        split_prompt(line)
    }

    /// What `split_prompt` gives for a line on the current machine.
    fn cur(text: &str) -> (Prompt, String) {
        (Prompt::Current, text.to_string())
    }

    /// What `split_prompt` gives for a line on `host`.
    fn at(host_name: &str, text: &str) -> (Prompt, String) {
        (host(host_name), text.to_string())
    }

    // ----- prompts -------------------------------------------------------------

    #[test]
    fn prompt_parenthesised_host_from_seed_000() {
        assert_eq!(
            sp("(Node01)$ export NODE01=192.168.0.61"),
            at("Node01", "export NODE01=192.168.0.61")
        );
        assert_eq!(
            sp("(Node02)$ docker logs -f etcd"),
            at("Node02", "docker logs -f etcd")
        );
    }

    #[test]
    fn prompt_etcd_container_is_current() {
        assert_eq!(
            sp("(etcd Container)$ etcdctl member add node02 --peer-urls=http://192.168.0.62:2380"),
            cur("etcdctl member add node02 --peer-urls=http://192.168.0.62:2380")
        );
        assert_eq!(sp("(my box)$ ls"), cur("ls"));
        assert_eq!(sp("(root@x)$ ls"), cur("ls"));
        assert_eq!(sp("( node02 )$ ls"), at("node02", "ls"));
    }

    #[test]
    fn prompt_plain_host() {
        assert_eq!(
            sp("node01$ etcd --name node01"),
            at("node01", "etcd --name node01")
        );
        assert_eq!(sp("etcd-1$ ls"), at("etcd-1", "ls"));
        assert_eq!(sp("192.168.0.61$ ls"), at("192.168.0.61", "ls"));
        assert_eq!(sp("my_host$\tls"), at("my_host", "ls"));
        assert_eq!(sp("  node01$   sleep 2  "), at("node01", "sleep 2"));
    }

    #[test]
    fn prompt_dollar_from_seeds_002_and_004() {
        assert_eq!(sp("$ etcdctl member list"), cur("etcdctl member list"));
        assert_eq!(sp("$ cat /etc/hosts"), cur("cat /etc/hosts"));
        assert_eq!(
            sp("$ export ETCD_NAME=\"infra3\""),
            cur("export ETCD_NAME=\"infra3\"")
        );
        assert_eq!(sp("$\tsleep 3"), cur("sleep 3"));
    }

    #[test]
    fn prompt_alone_gives_empty_text() {
        assert_eq!(sp("$"), cur(""));
        assert_eq!(sp("$   "), cur(""));
        assert_eq!(sp("node01$"), at("node01", ""));
        assert_eq!(sp("(Node01)$"), at("Node01", ""));
        assert_eq!(sp(""), cur(""));
    }

    #[test]
    fn bare_lines_are_not_prompts() {
        for line in [
            "machine add node01 192.168.0.61",
            "echo $?",
            "$?",
            "$NODE01",
            "${NODE01}",
            "etcd --name x",
            "echo node01$ x",
            "node01$x",
            "node01$$ x",
            "\"node01\"$ x",
            "'node01'$ x",
            "-x$ ls",
            ".x$ ls",
            "(Node01)$x",
            "(Node01) $ x",
            "()$ x",
            "(a\"b)$ x",
            "(a'b)$ x",
            "($X)$ ls",
            "(a(b)$ ls",
            "nodé$ ls",
        ] {
            assert_eq!(sp(line), cur(line), "line {line:?}");
        }
    }

    // ----- scripts -------------------------------------------------------------

    const SEED_000_RUN: &str = r"(Node01)$ export NODE01=192.168.0.61
(Node01)$ export REGISTRY=gcr.io/etcd-development/etcd

(Node01)$ docker run -d \
  --net=host \
  --name etcd ${REGISTRY}:v3.4.0 \
  /usr/local/bin/etcd \
  --data-dir=/etcd-data --name node01 \
  --initial-advertise-peer-urls http://${NODE01}:2380 --listen-peer-urls http://0.0.0.0:2380 \
  --advertise-client-urls http://${NODE01}:2379 --listen-client-urls http://0.0.0.0:2379 \
  --initial-cluster node01=http://${NODE01}:2380
";

    const SEED_000_DOCKER: &str = "docker run -d --net=host --name etcd ${REGISTRY}:v3.4.0 \
/usr/local/bin/etcd --data-dir=/etcd-data --name node01 \
--initial-advertise-peer-urls http://${NODE01}:2380 --listen-peer-urls http://0.0.0.0:2380 \
--advertise-client-urls http://${NODE01}:2379 --listen-client-urls http://0.0.0.0:2379 \
--initial-cluster node01=http://${NODE01}:2380";

    #[test]
    fn seed_000_docker_block_joins() {
        let commands = script(SEED_000_RUN);
        assert_eq!(
            commands,
            vec![
                cmd(1, host("Node01"), "export NODE01=192.168.0.61"),
                cmd(
                    2,
                    host("Node01"),
                    "export REGISTRY=gcr.io/etcd-development/etcd"
                ),
                cmd(4, host("Node01"), SEED_000_DOCKER),
            ]
        );
    }

    #[test]
    fn seed_000_docker_block_words() {
        let got = w(SEED_000_DOCKER);
        #[rustfmt::skip]
        let expected: Vec<&str> = vec![
            "docker", "run", "-d", "--net=host", "--name", "etcd",
            "gcr.io/etcd-development/etcd:v3.4.0", "/usr/local/bin/etcd", "--data-dir=/etcd-data",
            "--name", "node01", "--initial-advertise-peer-urls", "http://192.168.0.61:2380",
            "--listen-peer-urls", "http://0.0.0.0:2380", "--advertise-client-urls",
            "http://192.168.0.61:2379", "--listen-client-urls", "http://0.0.0.0:2379",
            "--initial-cluster", "node01=http://192.168.0.61:2380",
        ];
        assert_eq!(got, expected);
    }

    #[test]
    fn seed_000_container_session() {
        let src = "(Node01)$ docker exec -it etcd sh\n\
                   (etcd Container)$ etcdctl endpoint status --cluster -w table\n\
                   (etcd Container)$ etcdctl member remove 4eee438bb97e1153\n";
        assert_eq!(
            script(src),
            vec![
                cmd(1, host("Node01"), "docker exec -it etcd sh"),
                cmd(2, Current, "etcdctl endpoint status --cluster -w table"),
                cmd(3, Current, "etcdctl member remove 4eee438bb97e1153"),
            ]
        );
    }

    #[test]
    fn seed_002_exports() {
        let src = r#"$ export ETCD_NAME="infra3"
$ export ETCD_INITIAL_CLUSTER="infra0=http://10.0.1.10:2380,infra1=http://10.0.1.11:2380,infra2=http://10.0.1.12:2380,infra3=http://10.0.1.13:2380"
$ export ETCD_INITIAL_CLUSTER_STATE=existing
$ etcd --name infra3 \
  --initial-cluster infra0=http://10.0.1.10:2380,infra1=http://10.0.1.11:2380,infra2=http://10.0.1.12:2380 \
  --initial-cluster-state existing
"#;
        let commands = script(src);
        assert_eq!(commands.len(), 4);
        assert_eq!(commands[0], cmd(1, Current, "export ETCD_NAME=\"infra3\""));
        assert_eq!(w(&commands[0].text), vec!["export", "ETCD_NAME=infra3"]);
        assert_eq!(
            w(&commands[1].text),
            vec![
                "export",
                "ETCD_INITIAL_CLUSTER=infra0=http://10.0.1.10:2380,infra1=http://10.0.1.11:2380,\
                 infra2=http://10.0.1.12:2380,infra3=http://10.0.1.13:2380"
            ]
        );
        assert_eq!(commands[3].line, 4);
        assert_eq!(
            commands[3].text,
            "etcd --name infra3 --initial-cluster infra0=http://10.0.1.10:2380,\
             infra1=http://10.0.1.11:2380,infra2=http://10.0.1.12:2380 \
             --initial-cluster-state existing"
        );
    }

    #[test]
    fn seed_004_four_space_continuations() {
        let src = "$ etcd --name=etcd-1 \\\n    --listen-peer-urls http://127.0.0.1:2380 \\\n    \
                   --listen-client-urls http://127.0.0.1:2379 \\\n    \
                   --initial-cluster etcd-1=http://etcd-1:2380 \\\n    \
                   --initial-advertise-peer-urls http://etcd-1:2380 \\\n    \
                   --advertise-client-urls http://etcd-1:2379\n\
                   $ etcdctl --endpoints=http://etcd-1:2379 put foo bar\n";
        assert_eq!(
            script(src),
            vec![
                cmd(
                    1,
                    Current,
                    "etcd --name=etcd-1 --listen-peer-urls http://127.0.0.1:2380 \
                     --listen-client-urls http://127.0.0.1:2379 \
                     --initial-cluster etcd-1=http://etcd-1:2380 \
                     --initial-advertise-peer-urls http://etcd-1:2380 \
                     --advertise-client-urls http://etcd-1:2379"
                ),
                cmd(
                    7,
                    Current,
                    "etcdctl --endpoints=http://etcd-1:2379 put foo bar"
                ),
            ]
        );
    }

    #[test]
    fn shell_md_example_script() {
        let src = "machine add node01 192.168.0.61\n\
node01$ etcd --name node01 --initial-advertise-peer-urls http://192.168.0.61:2380 \\\n  \
--listen-peer-urls http://0.0.0.0:2380 --advertise-client-urls http://192.168.0.61:2379 \\\n  \
--listen-client-urls http://0.0.0.0:2379 --initial-cluster node01=http://192.168.0.61:2380\n\
$ sleep 2\n\
# a put, then the member list\n\
$ etcdctl put foo bar\n\
$ etcdctl member list\n\
$ etcdctl member promote 4eee438bb97e1153\n\
$ echo $?\n";
        assert_eq!(
            script(src),
            vec![
                cmd(1, Current, "machine add node01 192.168.0.61"),
                cmd(
                    2,
                    host("node01"),
                    "etcd --name node01 --initial-advertise-peer-urls http://192.168.0.61:2380 \
                     --listen-peer-urls http://0.0.0.0:2380 \
                     --advertise-client-urls http://192.168.0.61:2379 \
                     --listen-client-urls http://0.0.0.0:2379 \
                     --initial-cluster node01=http://192.168.0.61:2380"
                ),
                cmd(5, Current, "sleep 2"),
                cmd(7, Current, "etcdctl put foo bar"),
                cmd(8, Current, "etcdctl member list"),
                cmd(9, Current, "etcdctl member promote 4eee438bb97e1153"),
                cmd(10, Current, "echo $?"),
            ]
        );
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        assert_eq!(script(""), vec![]);
        assert_eq!(script("\n\n   \n\t\n"), vec![]);
        assert_eq!(script("# only\n   # indented\n#\n"), vec![]);
        assert_eq!(
            script("# intro\n\n  ls  \n# end"),
            vec![cmd(3, Current, "ls")]
        );
    }

    #[test]
    fn crlf_bom_and_trailing_blanks() {
        let src = "\u{feff}$ etcd --name a \\\r\n  --data-dir x\r\n$ ls\r\n";
        assert_eq!(
            script(src),
            vec![
                cmd(1, Current, "etcd --name a --data-dir x"),
                cmd(3, Current, "ls"),
            ]
        );
        // Blanks pasted after the backslash are forgiven.
        assert_eq!(
            script("$ etcd \\   \n --name a"),
            vec![cmd(1, Current, "etcd --name a")]
        );
    }

    #[test]
    fn continuation_glues_without_blanks() {
        let commands = script("echo foo\\\nbar\necho a \\\nb\necho c\\\n  d");
        assert_eq!(
            commands,
            vec![
                cmd(1, Current, "echo foobar"),
                cmd(3, Current, "echo a b"),
                cmd(5, Current, "echo c d"),
            ]
        );
        assert_eq!(w(&commands[0].text), vec!["echo", "foobar"]);
    }

    #[test]
    fn continuation_of_prompt_only_line() {
        assert_eq!(
            script("node01$ \\\n  etcd --name x"),
            vec![cmd(1, host("node01"), "etcd --name x")]
        );
    }

    #[test]
    fn blank_line_ends_a_continuation() {
        assert_eq!(
            script("etcd --name a \\\n\n$ ls"),
            vec![cmd(1, Current, "etcd --name a"), cmd(3, Current, "ls")]
        );
    }

    #[test]
    fn comment_line_ends_a_continuation() {
        assert_eq!(
            script("etcd --name a \\\n  # note \\\nls"),
            vec![
                cmd(1, Current, "etcd --name a # note \\"),
                cmd(3, Current, "ls"),
            ]
        );
        assert_eq!(
            script("etcd --name x # started in background \\\necho hi"),
            vec![
                cmd(1, Current, "etcd --name x # started in background \\"),
                cmd(2, Current, "echo hi"),
            ]
        );
    }

    #[test]
    fn escaped_backslash_does_not_continue() {
        assert_eq!(
            script("echo a \\\\\nls"),
            vec![cmd(1, Current, "echo a \\\\"), cmd(2, Current, "ls")]
        );
        assert_eq!(w("echo a \\\\"), vec!["echo", "a", "\\"]);
    }

    #[test]
    fn backslash_continues_inside_double_quotes_only() {
        assert_eq!(
            script("echo \"a \\\n  b\""),
            vec![cmd(1, Current, "echo \"a b\"")]
        );
        let e = script_err("ls\necho 'a \\\n b'");
        assert_eq!(e.line, 2);
        assert!(e.message.contains("unterminated quote"), "{e:?}");
    }

    #[test]
    fn unterminated_quote_reports_command_start() {
        let e = script_err("ls\n$ etcd --name \\\n  --data-dir \"x \\\n  y\n");
        assert_eq!(e.line, 2);
        assert_eq!(e.message, "unterminated quote (no closing \")");
        let e = script_err("# c\n\n(Node01)$ export X='abc\n$ ls");
        assert_eq!(e.line, 3);
        assert_eq!(e.message, "unterminated quote (no closing ')");
    }

    #[test]
    fn script_ending_in_continuation_is_an_error() {
        let e = script_err("ls\n$ etcd --name a \\\n  --data-dir x \\");
        assert_eq!(e.line, 3);
        assert!(e.message.contains("continuation"), "{e:?}");
        let e = script_err("ls \\\n");
        assert_eq!(e.line, 1);
    }

    #[test]
    fn malformed_parenthesised_prompt_is_an_error() {
        for src in [
            "(Node01) ls",
            "(Node01)$ls",
            "(etcd Container)# ls",
            "(cd /tmp; ls)",
        ] {
            let e = script_err(&format!("ls\n{src}\n"));
            assert_eq!(e.line, 2, "{src}");
            assert!(e.message.contains("prompt"), "{e:?}");
        }
    }

    #[test]
    fn unsupported_constructs_are_not_parse_errors() {
        let commands = script("$ etcdctl member list -w json | jq .\nls > x\n");
        assert_eq!(commands.len(), 2);
        assert_eq!(unsupported(&commands[0].text), "|");
    }

    #[test]
    fn comment_text_is_kept_but_dropped_by_words() {
        let commands = script("node01$ etcd --name x   # started in background\n");
        assert_eq!(
            commands,
            vec![cmd(
                1,
                host("node01"),
                "etcd --name x   # started in background"
            )]
        );
        assert_eq!(w(&commands[0].text), vec!["etcd", "--name", "x"]);
    }

    // ----- words ---------------------------------------------------------------

    /// What `words` gives for each text (with `env`, status 0), by topic.
    const WORDS: &[(&str, &[&str])] = &[
        // splits on blanks
        ("  etcdctl   member\tlist  ", &["etcdctl", "member", "list"]),
        ("", &[]),
        (" \t ", &[]),
        ("a\nb", &["a", "b"]),
        // ordinary words with urls and equals
        (
            "etcdctl member add n2 --peer-urls=http://a:2380,http://b:2380",
            &[
                "etcdctl",
                "member",
                "add",
                "n2",
                "--peer-urls=http://a:2380,http://b:2380",
            ],
        ),
        (
            "--initial-cluster node01=http://x:2380",
            &["--initial-cluster", "node01=http://x:2380"],
        ),
        ("rm -drf etcd-*", &["rm", "-drf", "etcd-*"]),
        ("a{b}c ~ ! [x]", &["a{b}c", "~", "!", "[x]"]),
        // quoting
        ("echo 'a b'  \"c  d\"", &["echo", "a b", "c  d"]),
        ("a'b c'\"d e\"f", &["ab cd ef"]),
        ("'it''s'", &["its"]),
        ("\"it's\"", &["it's"]),
        ("'say \"hi\"'", &["say \"hi\""]),
        (
            "date -s \"2021-03-03 16:27:23\"",
            &["date", "-s", "2021-03-03 16:27:23"],
        ),
        (
            "jq '.members[] | select(.name == \"etcd-1\") | .ID'",
            &["jq", ".members[] | select(.name == \"etcd-1\") | .ID"],
        ),
        // empty quoted words are kept
        ("put k \"\"", &["put", "k", ""]),
        ("put k ''", &["put", "k", ""]),
        ("'' \"\" x", &["", "", "x"]),
        ("\"$EMPTY\"", &[""]),
        ("\"$UNSET\"", &[""]),
        ("$EMPTY''", &[""]),
        // backslash escapes
        ("a\\ b", &["a b"]),
        ("\\$NODE01", &["$NODE01"]),
        ("\\'x\\\"", &["'x\""]),
        ("\\|\\;\\&\\>", &["|;&>"]),
        ("\\#x", &["#x"]),
        ("\"\\$X \\\" \\\\ \\a \\`\"", &["$X \" \\ \\a `"]),
        ("'\\n\\'", &["\\n\\"]),
        ("end\\", &["end\\"]),
        ("a\\\nb", &["ab"]),
        ("\"a\\\nb\"", &["ab"]),
        // variables expand
        (
            "--name etcd ${REGISTRY}:v3.4.0",
            &["--name", "etcd", "gcr.io/etcd-development/etcd:v3.4.0"],
        ),
        ("http://$NODE01:2379", &["http://192.168.0.61:2379"]),
        ("http://${NODE02}:2380", &["http://192.168.0.62:2380"]),
        (
            "--initial-cluster node01=http://${NODE01}:2380,node02=http://${NODE02}:2380",
            &[
                "--initial-cluster",
                "node01=http://192.168.0.61:2380,node02=http://192.168.0.62:2380",
            ],
        ),
        ("\"$NODE01\"", &["192.168.0.61"]),
        ("$NODE01X", &[]),
        ("${NODE01}X", &["192.168.0.61X"]),
        ("$NODE01.x", &["192.168.0.61.x"]),
        ("$QUOTE", &["it's", "\"x\""]),
        ("$STAR", &["etcd-*"]),
        // unknown variables expand to nothing
        ("echo $UNSET", &["echo"]),
        ("echo ${UNSET} x", &["echo", "x"]),
        ("echo a${UNSET}b", &["echo", "ab"]),
        ("$EMPTY $UNSET", &[]),
        // single quotes do not expand
        (
            "'$NODE01' '${NODE01}' '$?'",
            &["$NODE01", "${NODE01}", "$?"],
        ),
        // special parameters
        ("$# $0 ${0} ${#}", &["0", "sh", "sh", "0"]),
        ("a$1b $@ $* $$ $! $- ${10}", &["ab"]),
        ("$10", &["0"]),
        // literal dollars
        (
            "$ a$ $/ \"$\" '$' $. $:",
            &["$", "a$", "$/", "$", "$", "$.", "$:"],
        ),
        ("cost: 5$", &["cost:", "5$"]),
        ("$\"x\"", &["$x"]),
        // field splitting
        ("$SPACED", &["a", "b", "c"]),
        ("\"$SPACED\"", &["  a  b\tc "]),
        ("x$SPACED", &["x", "a", "b", "c"]),
        ("x${SPACED}y", &["x", "a", "b", "c", "y"]),
        ("'q'$SPACED'r'", &["q", "a", "b", "c", "r"]),
        // comments
        (
            "etcd --name x   # started in background",
            &["etcd", "--name", "x"],
        ),
        ("# all comment | ; &", &[]),
        ("a#b c", &["a#b", "c"]),
        ("\"#\" '#'", &["#", "#"]),
        ("x\t#c", &["x"]),
        ("$EMPTY#x", &["#x"]),
        ("'a'#b", &["a#b"]),
        // quoted operators are plain
        (
            "'a|b' \"a;b\" \"a > b\" 'x && y' \"(z)\" '$(no)' '`no`' \"&\"",
            &["a|b", "a;b", "a > b", "x && y", "(z)", "$(no)", "`no`", "&"],
        ),
        (
            "net partition A B '|' C D",
            &["net", "partition", "A", "B", "|", "C", "D"],
        ),
    ];

    #[test]
    fn words_split_quote_and_expand() {
        for (text, want) in WORDS {
            assert_eq!(w(text), *want, "{text:?}");
        }
    }

    #[test]
    fn last_status() {
        assert_eq!(ws("echo $?", 1), vec!["echo", "1"]);
        assert_eq!(ws("echo \"$?\"", 0), vec!["echo", "0"]);
        assert_eq!(ws("echo ${?}", 127), vec!["echo", "127"]);
        assert_eq!(ws("echo x$?y", 2), vec!["echo", "x2y"]);
        assert_eq!(ws("echo $?", -1), vec!["echo", "-1"]);
    }

    #[test]
    fn bad_substitution() {
        for text in [
            "${",
            "echo ${NODE01",
            "${}",
            "${A B}",
            "${X:-y}",
            "${#X}",
            "\"${\"",
            "${a-}",
        ] {
            assert_eq!(werr(text), WordsError::BadSubstitution, "{text:?}");
        }
    }

    #[test]
    fn each_unsupported_operator() {
        let cases = [
            ("a | b", "|"),
            ("a|b", "|"),
            ("a || b", "||"),
            ("a && b", "&&"),
            ("a&&b", "&&"),
            ("etcd --name x &", "&"),
            ("etcd --name x&", "&"),
            ("a ; b", ";"),
            ("a;", ";"),
            ("echo x > f", ">"),
            ("echo x>f", ">"),
            ("echo x >> f", ">>"),
            ("cat < f", "<"),
            ("cat << EOF", "<<"),
            ("etcd 2>&1", "2>&1"),
            ("etcd 2> err", "2>"),
            ("etcd >&2", ">&2"),
            ("etcd 12>x", "12>"),
            ("etcd a2>x", ">"),
            ("etcd &> log", "&>"),
            ("echo $(date)", "$("),
            ("x=$(etcdctl member list)", "$("),
            ("echo $((1+2))", "$(("),
            ("echo `date`", "`"),
            ("(ls)", "("),
            ("echo a)", ")"),
            ("echo \"$(date)\"", "$("),
            ("echo \"`date`\"", "`"),
        ];
        for (text, construct) in cases {
            assert_eq!(unsupported(text), construct, "{text:?}");
        }
    }

    #[test]
    fn seed_004_jq_lines_are_unsupported() {
        let line = "memberid=$(etcdctl --endpoints=http://etcd-2:2379 member list --hex -w json \
                    | jq -r '.members[] | select(.name == \"etcd-1\") | .ID')";
        assert_eq!(unsupported(line), "$(");
        let line =
            "etcdctl --endpoints=http://etcd-1:2379 member list -w json | jq '.header.cluster_id'";
        assert_eq!(unsupported(line), "|");
        assert_eq!(
            w("etcdctl --endpoints=http://etcd-2:2379 member remove $memberid"),
            vec![
                "etcdctl",
                "--endpoints=http://etcd-2:2379",
                "member",
                "remove"
            ]
        );
    }

    #[test]
    fn first_error_wins() {
        assert_eq!(unsupported("a | b 'open"), "|");
        assert_eq!(werr("'open | b"), WordsError::UnterminatedQuote);
        assert_eq!(werr("${X | b"), WordsError::BadSubstitution);
    }

    #[test]
    fn unterminated_quotes() {
        for text in [
            "'abc",
            "\"abc",
            "echo \"abc\\\"",
            "a 'b' 'c",
            "\"'",
            "'\"",
            "\"$NODE01",
        ] {
            assert_eq!(werr(text), WordsError::UnterminatedQuote, "{text:?}");
        }
    }

    #[test]
    fn messages() {
        assert_eq!(
            WordsError::UnterminatedQuote.message(),
            "sh: syntax error: unterminated quoted string"
        );
        assert_eq!(
            WordsError::BadSubstitution.message(),
            "sh: syntax error: bad substitution"
        );
        let m = |c: &str| WordsError::Unsupported(c.into()).message();
        assert_eq!(m("|"), "sh: pipes (|) are not supported in this playground");
        assert_eq!(
            m("&&"),
            "sh: command lists (&&) are not supported in this playground; \
             put each command on its own line"
        );
        assert!(m("||").contains("(||)"));
        assert!(m(";").contains("(;)"));
        assert!(m("&").contains("background jobs (&)"));
        assert_eq!(
            m(">"),
            "sh: redirection (>) is not supported in this playground"
        );
        assert_eq!(
            m("2>&1"),
            "sh: redirection (2>&1) is not supported in this playground"
        );
        assert!(m("<<").contains("redirection (<<)"));
        assert!(m("$(").contains("command substitution"));
        assert!(m("`").contains("command substitution"));
        assert!(m("$((").contains("arithmetic"));
        assert!(m("(").contains("subshells"));
        for c in ["|", "||", "&&", ";", "&", ">", "<", "$(", "`", "(", ")"] {
            assert!(m(c).starts_with("sh: "), "{c}");
            assert!(!m(c).ends_with('\n'), "{c}");
        }
    }

    // ----- durations ------------------------------------------------------------

    #[test]
    fn durations_valid() {
        let cases: [(&str, bool, u64); 23] = [
            ("2", true, 2000),
            ("+0", false, 0),
            ("1.5", true, 1500),
            (".5", true, 500),
            ("5.", true, 5000),
            ("0", true, 0),
            ("0", false, 0),
            ("2s", false, 2000),
            ("1.5s", true, 1500),
            ("300ms", true, 300),
            ("1m", false, 60_000),
            ("1m30s", false, 90_000),
            ("1h", true, 3_600_000),
            ("1h2m3s4ms", false, 3_723_004),
            ("+5s", false, 5000),
            ("0.0005s", true, 1),
            ("0.0004s", true, 0),
            ("1.5ms", true, 2),
            ("0.4ms0.4ms", true, 1),
            ("24h", true, 86_400_000),
            ("86400", true, 86_400_000),
            ("0.0000000000000000000001s", true, 0),
            ("000010s", true, 10_000),
        ];
        for (text, bare, ms) in cases {
            assert_eq!(duration_ms(text, bare), Some(ms), "{text:?} bare={bare}");
        }
    }

    #[test]
    fn durations_invalid() {
        #[rustfmt::skip]
        let bad = [
            "", "s", ".", ".s", "-1", "-1s", "2x", "2 s", " 2", "2 ", "1m30", "1S", "1ns", "1us",
            "1d", "abc", "1e3", "inf", "nan", "++1", "1..5", "24h1ms", "86400.001", "1.5.5s",
            "99999999999999999999999999999999999999999999h", "100000000000000000000", "２s",
        ];
        for text in bad {
            assert_eq!(duration_ms(text, true), None, "{text:?}");
            assert_eq!(duration_ms(text, false), None, "{text:?}");
        }
        for text in ["2", "1.5", "0.0", "-0", "5."] {
            assert_eq!(
                duration_ms(text, false),
                None,
                "{text:?} without bare seconds"
            );
        }
    }

    // ----- no panics -------------------------------------------------------------

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    const INTERESTING: &[&str] = &[
        "$", "{", "}", "(", ")", "'", "\"", "\\", "|", "&", ";", "<", ">", "#", " ", "\t", "\n",
        "\r", "`", "?", "a", "Z", "0", "9", "_", "-", ".", ":", "=", "node01", "$ ", ")$ ", "(",
        "${", "$(", "2>&1", "\\\n", "é", "€", "\u{feff}", "ms", "s", "m", "h", "+",
    ];

    fn random_text(rng: &mut ChaCha8Rng) -> String {
        let len = rng.gen_range(0..24);
        if rng.gen_range(0..3) == 0 {
            let bytes: Vec<u8> = (0..len * 2).map(|_| rng.gen::<u8>()).collect();
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        (0..len)
            .map(|_| INTERESTING[rng.gen_range(0..INTERESTING.len())])
            .collect()
    }

    fn check_one(text: &str) {
        let lookup =
            |name: &str| -> Option<String> { (!name.contains('Z')).then(|| format!(" {name} x ")) };
        let _ = words(text, &lookup, 3).map(|list| list.iter().map(String::len).sum::<usize>());
        let _ = duration_ms(text, true);
        let _ = duration_ms(text, false);
        if let Err(e) = words(text, &lookup, 3) {
            assert!(e.message().starts_with("sh: "));
        }
        let (_, rest) = split_prompt(text);
        assert!(rest.len() <= text.len());
        assert_eq!(rest, rest.trim_matches(is_space));
        let line_count = text.split('\n').count();
        match parse_script(text) {
            Ok(commands) => {
                let mut previous = 0;
                for c in commands {
                    assert!(c.line > previous && c.line <= line_count, "{text:?}");
                    previous = c.line;
                    assert!(!c.text.contains('\n'), "{text:?}");
                    let result = words(&c.text, &lookup, 0);
                    assert_ne!(result, Err(WordsError::UnterminatedQuote), "{text:?}");
                }
            }
            Err(e) => assert!(e.line >= 1 && e.line <= line_count, "{text:?} {e:?}"),
        }
    }

    #[test]
    fn plain_words_are_the_lexers_words() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_9a1e);
        let lookup = |_: &str| -> Option<String> { Some("x y".into()) };
        let (mut plain, mut other) = (0, 0);
        let usual = b"aZ09-_./:,=@+% \t\n";
        let rare = [
            '$', '\'', '"', '#', '>', '|', '\\', '~', '*', '\r', 'é', '{',
        ];
        for _ in 0..5000 {
            let len = rng.gen_range(0..32);
            let text: String = (0..len)
                .map(|_| match rng.gen_range(0..40) {
                    0 => rare[rng.gen_range(0..rare.len())],
                    _ => char::from(usual[rng.gen_range(0..usual.len())]),
                })
                .collect();
            match plain_words(&text) {
                Some(w) => {
                    assert_eq!(Ok(w), lex(&text, &lookup, 0), "{text:?}");
                    plain += 1;
                }
                None => other += 1,
            }
        }
        // both kinds were met, plenty of each
        assert!(plain > 500 && other > 500, "{plain} plain, {other} other");
        let long = "a".repeat(MAX_EXPANDED_CHARS + 1);
        assert_eq!(plain_words(&long), None);
        assert_eq!(words(&long, &lookup, 0), Err(WordsError::TooLong));
        let line = "etcdctl --endpoints=http://10.0.0.1:2379 put key1 v-1.5_%@+,";
        let want: Vec<String> = line.split(' ').map(String::from).collect();
        assert_eq!(plain_words(line), Some(want));
    }

    #[test]
    fn no_function_panics_on_random_input() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x9e37_79b9_7f4a_7c15);
        for _ in 0..5000 {
            let text = random_text(&mut rng);
            check_one(&text);
        }
    }
}
