//! Tab completion for the page's terminal: given a line (cursor at its end) and
//! what the terminal knows (machines, member IDs and names), which words may
//! replace the last one.
//!
//! This module owns how a half-typed line is read for completion; what it offers
//! (command names, subcommands, flags, values) comes from the command table
//! ([`command`]), the one grammar the session runs. It runs nothing, uses `std`
//! only, and never panics on any input.
//!
//! Rules:
//!
//! - The word being completed is the text after the last unquoted blank (so an
//!   unclosed quote makes the rest of the line one word). Earlier words are read with
//!   their quotes and backslashes removed (no `$VAR` expansion); leading `NAME=VALUE`
//!   assignments are skipped, as the session skips them.
//! - A prompt (`HOST$ `, `(Host)$ `, `$ `, see [`parse::split_prompt`]) is kept, and
//!   the word after it is a command name. The first word of a line with no prompt is
//!   a command name too, or `NAME$` for a machine whose name it starts (a non-empty
//!   word only).
//! - Flags are offered only for a word starting with `-`. Flags that take a value end
//!   in `=` (`--peer-urls=`); boolean flags do not. `-w` is etcdctl's only short flag.
//! - Machine names and member IDs match case-insensitively when no candidate matches
//!   exactly, as the shell finds machines case-insensitively and etcdctl reads hex in
//!   either case.
//! - `candidates` are the whole words, without the trailing space; `common` is the
//!   text to put in place of the word: the single candidate followed by a space
//!   (unless it ends in `=` or `$`), or the longest common prefix of several (the
//!   word as typed when that prefix would be shorter than it), or the word as typed
//!   when nothing matches.

use super::command::{self, Flag, Kind, Spec, Val};
use super::parse;

/// What the terminal knows for completion.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// Machine names, as the world spells them.
    pub machines: &'a [String],
    /// Member IDs offered where etcdctl takes one, shown as hex (`8e9e05c52164694d`).
    pub member_ids: &'a [u64],
    /// Member names: offered for `--name`; `member add NAME` offers machines not among them.
    pub member_names: &'a [String],
    /// Machines whose etcd has no `etcdutl` (3.4.23: etcd 3.5 added it). A
    /// line that runs on one is not offered it, as bash offers only the
    /// commands on its `PATH`.
    pub without_etcdutl: &'a [String],
    /// The machine a line without a `HOST$` prompt runs on.
    pub here: &'a str,
}

/// The completion of a line with the cursor at its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// Byte offset in the line where the replaced word starts (a char boundary).
    pub start: usize,
    /// Every word that may replace it: sorted, deduplicated, without a trailing space.
    pub candidates: Vec<String>,
    /// The text to put in place of the word (see the module docs).
    pub common: String,
}

/// The words that may follow `words` in `table`, as its entries (offered ones) name them.
fn next_words<T>(table: &[Spec<T>], words: &[&str]) -> Vec<&'static str> {
    let mut next: Vec<&'static str> = table
        .iter()
        .filter(|s| s.offered && s.words.len() > words.len() && s.words.starts_with(words))
        .filter_map(|s| s.words.get(words.len()).copied())
        .collect();
    next.dedup();
    next
}

/// The longest entry of `table` that `words` start with.
fn entry<'t, T>(table: &'t [Spec<T>], words: &[&str]) -> Option<&'t Spec<T>> {
    table
        .iter()
        .filter(|s| words.starts_with(s.words))
        .max_by_key(|s| s.words.len())
}

/// Flags by kind: booleans, then those taking a value.
fn split_flags<'f>(
    flags: impl IntoIterator<Item = &'f Flag>,
) -> (Vec<&'static str>, Vec<&'static str>) {
    let (b, v): (Vec<&Flag>, Vec<&Flag>) = flags.into_iter().partition(|f| f.kind == Kind::Bool);
    (
        b.iter().map(|f| f.name).collect(),
        v.iter().map(|f| f.name).collect(),
    )
}

/// Completes `line` with the cursor at its end.
#[must_use]
pub fn complete(line: &str, ctx: &Context) -> Completion {
    let (cmd_start, has_prompt) = command_start(line);
    let rest = line.get(cmd_start..).unwrap_or("");
    let (words, cur_offset) = split_words(rest);
    let start = cmd_start + cur_offset;
    let cur = line.get(start..).unwrap_or("");
    let assignments = words.iter().take_while(|w| parse::is_assignment(w)).count();
    let args = words.get(assignments..).unwrap_or(&[]);
    let mut picked = Picked::new(cur);
    if args.is_empty() {
        let etcdutl = has_etcdutl(line, ctx);
        picked.words(
            command::commands()
                .into_iter()
                .filter(|c| etcdutl || *c != "etcdutl"),
        );
        if !has_prompt && words.is_empty() && !cur.is_empty() {
            picked.machines(ctx, "$", &[]);
        }
    } else {
        command_args(&mut picked, args, ctx);
    }
    picked.finish(start)
}

/// Whether the machine `line` runs on (its prompt's, else the terminal's)
/// has `etcdutl`.
fn has_etcdutl(line: &str, ctx: &Context) -> bool {
    let machine = match parse::split_prompt(line).0 {
        parse::Prompt::Host(host) => host,
        parse::Prompt::Current => ctx.here.to_string(),
    };
    let mut without = ctx.without_etcdutl.iter();
    !without.any(|m| m.eq_ignore_ascii_case(&machine))
}

/// Where the command text starts in `line`, and whether a prompt precedes it. A
/// line that is only `HOST$` (the cursor right after the `$`) has no prompt yet: its
/// last word is completed as a first word.
fn command_start(line: &str) -> (usize, bool) {
    let (_, rest) = parse::split_prompt(line);
    let trimmed = line.trim_matches(|c: char| c.is_ascii_whitespace());
    if rest == trimmed {
        return (0, false);
    }
    let end = line
        .trim_end_matches(|c: char| c.is_ascii_whitespace())
        .len();
    if rest.is_empty() {
        return if end < line.len() {
            (line.len(), true)
        } else {
            (0, false)
        };
    }
    match end.checked_sub(rest.len()) {
        Some(start) if line.get(start..end) == Some(rest.as_str()) => (start, true),
        _ => (0, false),
    }
}

/// The finished words of `text` (quotes and backslashes removed) and the byte offset
/// where the last, unfinished word starts (`text.len()` after a trailing blank).
fn split_words(text: &str) -> (Vec<String>, usize) {
    let mut words = Vec::new();
    let mut word: Option<(usize, String)> = None;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if escaped {
            escaped = false;
            if let Some((_, w)) = word.as_mut() {
                w.push(c);
            }
            continue;
        }
        if let Some(q) = quote {
            match c {
                _ if c == q => quote = None,
                '\\' if q == '"' => escaped = true,
                _ => {
                    if let Some((_, w)) = word.as_mut() {
                        w.push(c);
                    }
                }
            }
            continue;
        }
        if c.is_ascii_whitespace() {
            if let Some((_, w)) = word.take() {
                words.push(w);
            }
            continue;
        }
        let (_, w) = word.get_or_insert_with(|| (i, String::new()));
        match c {
            '\'' | '"' => quote = Some(c),
            '\\' => escaped = true,
            _ => w.push(c),
        }
    }
    let start = word.map_or(text.len(), |(start, _)| start);
    (words, start)
}

/// `a` starts with `prefix`, ignoring ASCII case.
fn starts_with_ignore_case(a: &str, prefix: &str) -> bool {
    a.get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
}

/// The candidates found so far for one word.
struct Picked<'w> {
    word: &'w str,
    found: Vec<String>,
}

impl<'w> Picked<'w> {
    fn new(word: &'w str) -> Picked<'w> {
        Picked {
            word,
            found: Vec::new(),
        }
    }

    /// Offers each option that starts with the word.
    fn words<S: AsRef<str>>(&mut self, options: impl IntoIterator<Item = S>) {
        for o in options {
            let o = o.as_ref();
            if o.starts_with(self.word) {
                self.found.push(o.to_string());
            }
        }
    }

    /// Offers each option that starts with the word, or, when none does, each that
    /// starts with it ignoring ASCII case.
    fn words_any_case(&mut self, options: &[String]) {
        let exact: Vec<&String> = options
            .iter()
            .filter(|o| o.starts_with(self.word))
            .collect();
        if exact.is_empty() {
            let word = self.word;
            self.found.extend(
                options
                    .iter()
                    .filter(|o| starts_with_ignore_case(o, word))
                    .cloned(),
            );
        } else {
            self.found.extend(exact.into_iter().cloned());
        }
    }

    /// Offers machine names (each followed by `suffix`), leaving out `except`.
    fn machines(&mut self, ctx: &Context, suffix: &str, except: &[String]) {
        let names: Vec<String> = ctx
            .machines
            .iter()
            .filter(|m| !except.iter().any(|e| e.eq_ignore_ascii_case(m)))
            .map(|m| format!("{m}{suffix}"))
            .collect();
        self.words_any_case(&names);
    }

    /// Offers the member IDs in hex.
    fn member_ids(&mut self, ctx: &Context) {
        let ids: Vec<String> = ctx.member_ids.iter().map(|id| format!("{id:x}")).collect();
        self.words_any_case(&ids);
    }

    /// Offers the values `val` stands for.
    fn values(&mut self, val: Val, ctx: &Context) {
        match val {
            Val::Text => {}
            Val::Choice(words) => self.words(words.iter().copied()),
            Val::Machine => self.machines(ctx, "", &[]),
            Val::Name => {
                let mut names: Vec<String> = ctx.machines.to_vec();
                names.extend(ctx.member_names.iter().cloned());
                self.words_any_case(&names);
            }
            Val::MemberId => self.member_ids(ctx),
            Val::NewMember => {
                let free: Vec<String> = ctx
                    .machines
                    .iter()
                    .filter(|m| !ctx.member_names.contains(m))
                    .cloned()
                    .collect();
                self.words_any_case(&free);
            }
        }
    }

    /// Offers each flag: `PREFIXNAME=` for value flags, `PREFIXNAME` for booleans.
    fn flags(&mut self, prefix: &str, bool_flags: &[&str], value_flags: &[&str]) {
        self.words(bool_flags.iter().map(|f| format!("{prefix}{f}")));
        self.words(value_flags.iter().map(|f| format!("{prefix}{f}=")));
    }

    fn finish(self, start: usize) -> Completion {
        let mut candidates = self.found;
        candidates.sort();
        candidates.dedup();
        let common = match candidates.as_slice() {
            [] => self.word.to_string(),
            [only] if only.ends_with('=') || only.ends_with('$') => only.clone(),
            [only] => format!("{only} "),
            [first, others @ ..] => {
                let common = others
                    .iter()
                    .fold(first.as_str(), |acc, c| common_prefix(acc, c));
                if common.len() < self.word.len() {
                    self.word.to_string()
                } else {
                    common.to_string()
                }
            }
        };
        Completion {
            start,
            candidates,
            common,
        }
    }
}

/// The longest common prefix of `a` and `b`, ending on a char boundary.
fn common_prefix<'a>(a: &'a str, b: &str) -> &'a str {
    let len = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or_else(|| a.len().min(b.len()), |((i, _), _)| i);
    a.get(..len).unwrap_or("")
}

/// Completes an argument of the command `args[0]`; `args` are the finished words.
fn command_args(p: &mut Picked, args: &[String], ctx: &Context) {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["etcd" | "/usr/local/bin/etcd", flags @ ..] => etcd(p, flags, ctx),
        ["docker", "run", opts @ ..] => docker_run(p, opts, ctx),
        ["kill", rest @ ..] => kill(p, rest),
        ["net", rest @ ..] => net(p, rest, ctx),
        ["etcdctl", rest @ ..] => etcdctl(p, rest, ctx),
        _ => shell(p, &words, ctx),
    }
}

/// A shell command from its table entry: its flags for a word starting with
/// `-`, else its subcommands, else what its next positional argument is.
fn shell(p: &mut Picked, words: &[&str], ctx: &Context) {
    let Some(spec) = entry(command::SHELL, words) else {
        return;
    };
    if p.word.starts_with('-') {
        p.words(spec.flags.iter().map(|f| f.name));
        return;
    }
    let rest = words.get(spec.words.len()..).unwrap_or_default();
    let n = rest.iter().filter(|w| !w.starts_with('-')).count();
    if n == 0 {
        p.words(next_words(command::SHELL, spec.words));
    }
    if let Some(val) = spec.args.get(n) {
        p.values(*val, ctx);
    }
}

fn kill(p: &mut Picked, rest: &[&str]) {
    let dash = p.word.starts_with('-');
    let flags = command::shell_spec(&["kill"]).map_or(&[][..], |s| s.flags);
    match rest {
        [.., "-s"] => p.words(command::SIGNALS.iter().copied()),
        [] if dash => p.words(flags.iter().map(|f| f.name)),
        [] | ["-s", _] => p.words(["etcd"]),
        [flag] if flag.starts_with('-') && !dash => p.words(["etcd"]),
        _ => {}
    }
}

fn net(p: &mut Picked, rest: &[&str], ctx: &Context) {
    let named = |names: &[&str]| -> Vec<String> {
        names
            .iter()
            .flat_map(|n| n.split("->"))
            .map(str::to_string)
            .collect()
    };
    let word = p.word;
    match rest {
        [] => p.words(next_words(command::SHELL, &["net"])),
        ["cut" | "delay" | "loss"] => match word.split_once("->") {
            Some((a, b)) => {
                let mut inner = Picked::new(b);
                inner.machines(ctx, "", &[a.to_string()]);
                p.found
                    .extend(inner.found.into_iter().map(|m| format!("{a}->{m}")));
            }
            None => p.machines(ctx, "", &[]),
        },
        ["isolate" | "heal" | "rate" | "clear"] => p.machines(ctx, "", &[]),
        ["cut" | "heal" | "delay" | "loss" | "clear", a] if !a.contains("->") => {
            p.machines(ctx, "", &named(&[*a]))
        }
        ["partition", names @ ..] => p.machines(ctx, "", &named(names)),
        ["cut" | "delay" | "loss", _] => {}
        // the other arguments are the table's (`net rate A RATE limit SIZE`)
        _ => shell(p, &[&["net"][..], rest].concat(), ctx),
    }
}

/// `docker run [OPTS] IMAGE [/usr/local/bin/]etcd FLAGS...`, read as the session
/// reads it.
fn docker_run(p: &mut Picked, opts: &[&str], ctx: &Context) {
    let options = command::shell_spec(&["docker", "run"]).map_or(&[][..], |s| s.flags);
    let option = |o: &str| options.iter().find(|f| f.name == o);
    let i = command::docker_image_at(opts);
    if i > opts.len() {
        // The word is the value of the last option.
        if let Some(Kind::Value(val)) = opts.last().and_then(|o| option(o)).map(|f| f.kind) {
            p.values(val, ctx);
        }
        return;
    }
    let binaries = ["/usr/local/bin/etcd", "etcd"];
    match opts.get(i..).unwrap_or(&[]) {
        [] if p.word.starts_with('-') => p.words(options.iter().map(|f| f.name)),
        [_image] => p.words(binaries),
        [_image, binary, flags @ ..] if binaries.contains(binary) => etcd(p, flags, ctx),
        _ => {}
    }
}

/// `--name`, `-name`, `--name=x`, `-name=x`: the flag's name and inline value.
fn flag_parts(word: &str) -> Option<(&str, Option<&str>)> {
    let body = word
        .strip_prefix("--")
        .or_else(|| word.strip_prefix('-'))
        .filter(|b| !b.is_empty())?;
    Some(match body.split_once('=') {
        Some((name, value)) => (name, Some(value)),
        None => (body, None),
    })
}

/// The values a flag takes, if it takes one.
fn flag_values(flag: Option<&Flag>) -> Option<Val> {
    match flag?.kind {
        Kind::Value(val) => Some(val),
        Kind::Bool => None,
    }
}

/// Completes `word` as `FLAG=VALUE`, `find` naming the flags.
fn inline_value(p: &mut Picked, ctx: &Context, find: fn(&str) -> Option<&'static Flag>) {
    let word = p.word;
    let Some((head, value)) = word.split_once('=') else {
        return;
    };
    let Some(val) = flag_parts(head).and_then(|(name, _)| flag_values(find(name))) else {
        return;
    };
    let mut inner = Picked::new(value);
    inner.values(val, ctx);
    p.found
        .extend(inner.found.into_iter().map(|v| format!("{head}={v}")));
}

fn etcd(p: &mut Picked, flags: &[&str], ctx: &Context) {
    if etcd_waiting(flags) {
        let flag = flags.last().and_then(|w| flag_parts(w));
        if let Some(val) = flag.and_then(|(name, _)| flag_values(command::etcd_flag(name))) {
            p.values(val, ctx);
        }
    } else if p.word.contains('=') {
        inline_value(p, ctx, command::etcd_flag);
    } else if p.word.starts_with('-') {
        let (bools, values) = split_flags(command::ETCD_FLAGS);
        let dashes = if p.word == "-" || p.word.starts_with("--") {
            "--"
        } else {
            "-"
        };
        p.flags(dashes, &bools, &values);
    }
}

/// Whether the last of `flags` is a value flag waiting for its value, reading the
/// words from the start as etcd does (a value flag without `=` takes the next word).
fn etcd_waiting(flags: &[&str]) -> bool {
    let mut waiting = false;
    for w in flags {
        waiting = match (waiting, flag_parts(w)) {
            (false, Some((name, None))) => flag_values(command::etcd_flag(name)).is_some(),
            _ => false,
        };
    }
    waiting
}

/// Completes a word of `etcdctl ARGS`, reading the finished words as etcdctl
/// does: flags anywhere, a value flag without `=` takes the next word, `--` ends
/// the flags.
fn etcdctl(p: &mut Picked, args: &[&str], ctx: &Context) {
    let mut positional: Vec<&str> = Vec::new();
    let mut waiting: Option<Val> = None;
    let mut only_positional = false;
    for w in args {
        if waiting.take().is_some() {
            continue;
        }
        if only_positional {
            positional.push(w);
        } else if *w == "--" {
            only_positional = true;
        } else if let Some((name, inline)) = flag_parts(w) {
            if inline.is_none() {
                waiting = flag_values(command::etcdctl_flag(name));
            }
        } else {
            positional.push(w);
        }
    }
    if let Some(val) = waiting {
        p.values(val, ctx);
        return;
    }
    let word = p.word;
    if !only_positional && word.starts_with('-') {
        if word.contains('=') {
            inline_value(p, ctx, command::etcdctl_flag);
            return;
        }
        if word == "-" || word == "-w" {
            p.words(["-w"]);
        }
        let own = command::ETCDCTL
            .iter()
            .filter(|s| positional.starts_with(s.words))
            .flat_map(|s| s.flags);
        let (bools, values) = split_flags(command::ETCDCTL_GLOBALS.iter().chain(own));
        p.flags("--", &bools, &values);
        return;
    }
    match entry(command::ETCDCTL, &positional) {
        Some(spec) => {
            if let Some(val) = spec.args.get(positional.len() - spec.words.len()) {
                p.values(*val, ctx);
            }
        }
        None => p.words(next_words(command::ETCDCTL, &positional)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    const IDS: [u64; 3] = [
        0x8e9e_05c5_2164_694d,
        0x4eee_438b_b97e_1153,
        0x0abc_0000_0000_0001,
    ];

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// Completes with three machines, two of them members.
    fn c(line: &str) -> Completion {
        let machines = strings(&["node01", "node02", "node03"]);
        let names = strings(&["node01", "node02"]);
        let ctx = Context {
            machines: &machines,
            member_ids: &IDS,
            member_names: &names,
            without_etcdutl: &[],
            here: "",
        };
        complete(line, &ctx)
    }

    #[test]
    fn etcdutl_is_offered_only_where_etcd_3_5_runs() {
        let machines = strings(&["node01", "node02"]);
        let old = strings(&["node01"]);
        let on = |here: &str, line: &str| {
            let ctx = Context {
                machines: &machines,
                member_ids: &[],
                member_names: &[],
                without_etcdutl: &old,
                here,
            };
            complete(line, &ctx).candidates
        };
        // node01 runs 3.4.23: no etcdutl there, as bash would not find it
        assert_eq!(on("node01", "et"), ["etcd", "etcdctl"]);
        assert_eq!(on("node01", "etcdu"), Vec::<String>::new());
        assert_eq!(on("node02", "et"), ["etcd", "etcdctl", "etcdutl"]);
        // a prompt names the machine the line runs on, in any case
        assert_eq!(on("node02", "NODE01$ et"), ["etcd", "etcdctl"]);
        assert_eq!(on("node01", "node02$ et"), ["etcd", "etcdctl", "etcdutl"]);
        assert_eq!(on("node02", "node02$ etcdutl sn"), ["snapshot"]);
    }

    fn cands(line: &str) -> Vec<String> {
        c(line).candidates
    }

    fn common(line: &str) -> String {
        c(line).common
    }

    fn sorted(list: &[&str]) -> Vec<String> {
        let mut v = strings(list);
        v.sort();
        v
    }

    /// The line after accepting the completion.
    fn accept(line: &str) -> String {
        let done = c(line);
        format!("{}{}", &line[..done.start], done.common)
    }

    #[test]
    fn empty_line_offers_every_command() {
        let done = c("");
        assert_eq!(done.start, 0);
        assert_eq!(done.candidates, sorted(&command::commands()));
        assert_eq!(done.common, "");
        assert_eq!(c("   ").start, 3);
        assert_eq!(cands("   "), sorted(&command::commands()));
    }

    #[test]
    fn command_names() {
        assert_eq!(cands("et"), ["etcd", "etcdctl", "etcdutl"]);
        assert_eq!(common("et"), "etcd");
        assert_eq!(common("etcdc"), "etcdctl ");
        assert_eq!(accept("mach"), "machine ");
        assert_eq!(cands("s"), ["scp", "sh", "sleep", "ssh"]);
        assert_eq!(common("ss"), "ssh ");
        assert_eq!(common("cl"), "clear ");
        assert_eq!(common("/"), "/usr/local/bin/etcd ");
        assert_eq!(accept("  ec"), "  echo ");
        assert_eq!(c("  ec").start, 2);
        assert!(cands("zzz").is_empty());
        assert_eq!(common("zzz"), "zzz");
        assert_eq!(common("etcd"), "etcd");
        assert_eq!(cands("etcd"), ["etcd", "etcdctl", "etcdutl"]);
    }

    #[test]
    fn first_word_may_address_a_machine() {
        assert_eq!(cands("nod"), ["node01$", "node02$", "node03$"]);
        assert_eq!(common("nod"), "node0");
        assert_eq!(common("node01"), "node01$");
        assert_eq!(common("node01$"), "node01$");
        assert_eq!(c("node01$").start, 0);
        assert_eq!(common("NODE02"), "node02$");
        // An empty line offers commands only.
        assert!(!cands("").iter().any(|w| w.ends_with('$')));
        // Once a prompt is there, no second prompt is offered.
        assert!(cands("node01$ nod").is_empty());
        assert!(cands("$ nod").is_empty());
        // After an assignment the word is a command.
        assert!(cands("X=1 nod").is_empty());
    }

    #[test]
    fn prompt_prefix_is_kept() {
        let done = c("node01$ et");
        assert_eq!(done.start, 8);
        assert_eq!(done.candidates, ["etcd", "etcdctl", "etcdutl"]);
        assert_eq!(accept("node01$ etcdctl mem"), "node01$ etcdctl member ");
        assert_eq!(
            accept("(Node01)$ etcdctl member pro"),
            "(Node01)$ etcdctl member promote "
        );
        assert_eq!(
            accept("(etcd Container)$ etcdctl endpoint st"),
            "(etcd Container)$ etcdctl endpoint status "
        );
        assert_eq!(accept("$ ssh node03"), "$ ssh node03 ");
        let done = c("$ ");
        assert_eq!(done.start, 2);
        assert_eq!(done.candidates, sorted(&command::commands()));
        let done = c("node02$ ");
        assert_eq!(done.start, 8);
        assert_eq!(done.candidates, sorted(&command::commands()));
        let done = c("(etcd Container)$   ");
        assert_eq!(done.start, 20);
        assert_eq!(done.candidates, sorted(&command::commands()));
        assert_eq!(accept("  node01$\tlo"), "  node01$\tlogs ");
    }

    #[test]
    fn lone_dollar_and_odd_prompts() {
        let done = c("$");
        assert_eq!((done.start, done.candidates.len()), (0, 0));
        assert_eq!(done.common, "$");
        assert!(cands("(etcd Container)$").is_empty());
        assert!(cands("(").is_empty());
        assert!(cands(")$ ").is_empty());
        assert!(cands("$$ ").is_empty());
    }

    #[test]
    fn machine_names_as_arguments() {
        assert_eq!(accept("machine d"), "machine down ");
        assert_eq!(cands("machine rm "), ["node01", "node02", "node03"]);
        assert_eq!(accept("machine up node03"), "machine up node03 ");
        assert_eq!(accept("machine down N"), "machine down node0");
        assert!(cands("machine add n").is_empty());
        assert!(cands("machine rm node01 ").is_empty());
        assert_eq!(accept("ssh node02"), "ssh node02 ");
        assert!(cands("ssh node01 ").is_empty());
        assert_eq!(cands("hosts set "), ["node01", "node02", "node03"]);
        assert_eq!(accept("cat "), "cat /etc/hosts ");
        assert!(cands("date ").is_empty());
        assert!(cands("echo ").is_empty());
    }

    #[test]
    fn net_arguments() {
        assert_eq!(accept("net is"), "net isolate ");
        assert_eq!(cands("net cut "), ["node01", "node02", "node03"]);
        assert_eq!(cands("net cut node01 "), ["node02", "node03"]);
        assert_eq!(
            cands("net cut node01->"),
            ["node01->node02", "node01->node03"]
        );
        assert_eq!(accept("net cut node01->node03"), "net cut node01->node03 ");
        assert_eq!(accept("net cut node01->N"), "net cut node01->node0");
        assert!(cands("net cut node01 node02 ").is_empty());
        assert!(cands("net isolate node01 ").is_empty());
        assert_eq!(cands("net delay node03 "), ["node01", "node02"]);
        assert!(cands("net delay node03 node01 ").is_empty());
        assert_eq!(
            accept("net partition node01 node02 | n"),
            "net partition node01 node02 | node03 "
        );
    }

    #[test]
    fn docker_and_kill() {
        assert_eq!(accept("docker stop "), "docker stop etcd ");
        assert_eq!(accept("docker logs -f "), "docker logs -f etcd ");
        assert_eq!(accept("docker exec -it "), "docker exec -it etcd ");
        assert_eq!(
            accept("docker run -d --name "),
            "docker run -d --name etcd "
        );
        assert_eq!(accept("docker run --net "), "docker run --net host ");
        assert!(cands("docker run -d ").is_empty());
        assert_eq!(
            cands("docker run -d --net=host --name etcd quay.io/coreos/etcd:v3.4.23 "),
            ["/usr/local/bin/etcd", "etcd"]
        );
        let seed000 = "docker run -d --net=host --name etcd quay.io/coreos/etcd:v3.4.23 \
                       /usr/local/bin/etcd --name node01 --initial-cl";
        assert_eq!(common(seed000), "--initial-cluster");
        assert_eq!(
            accept("docker run -d img etcd --initial-cluster-state e"),
            "docker run -d img etcd --initial-cluster-state existing "
        );
        assert!(cands("docker run -d img sh -").is_empty());
        assert_eq!(accept("kill -9 "), "kill -9 etcd ");
        assert_eq!(cands("kill -s "), ["KILL", "SIGKILL", "SIGTERM", "TERM"]);
        assert_eq!(accept("kill -s KILL e"), "kill -s KILL etcd ");
        assert!(cands("kill etcd ").is_empty());
    }

    #[test]
    fn etcdctl_commands_and_subcommands() {
        assert_eq!(accept("etcdctl mem"), "etcdctl member ");
        assert_eq!(cands("etcdctl snapshot s"), ["save", "status"]);
        assert_eq!(common("etcdctl snapshot s"), "s");
        assert!(cands("etcdctl put ").is_empty());
        assert!(cands("etcdctl member list ").is_empty());
        // Global flags before the command do not count as positionals.
        assert_eq!(accept("etcdctl -w table mem"), "etcdctl -w table member ");
        assert_eq!(
            accept("etcdctl --endpoints=http://node01:2379 --hex member l"),
            "etcdctl --endpoints=http://node01:2379 --hex member list "
        );
        assert_eq!(
            accept("etcdctl --endpoints http://node01:2379 member l"),
            "etcdctl --endpoints http://node01:2379 member list "
        );
        assert_eq!(
            accept("'etcdctl' \"member\" a"),
            "'etcdctl' \"member\" add "
        );
        assert_eq!(
            accept("ETCDCTL_API=3 etcdctl mem"),
            "ETCDCTL_API=3 etcdctl member "
        );
        assert_eq!(cands("ETCDCTL_API=3 et"), ["etcd", "etcdctl", "etcdutl"]);
    }

    #[test]
    fn member_ids() {
        let all = sorted(&["8e9e05c52164694d", "4eee438bb97e1153", "abc000000000001"]);
        assert_eq!(cands("etcdctl member remove "), all);
        assert_eq!(
            accept("etcdctl member remove 8"),
            "etcdctl member remove 8e9e05c52164694d "
        );
        assert_eq!(
            accept("etcdctl member promote 8E9E"),
            "etcdctl member promote 8e9e05c52164694d "
        );
        assert_eq!(
            accept("etcdctl -w json move-leader 4"),
            "etcdctl -w json move-leader 4eee438bb97e1153 "
        );
        assert!(cands("etcdctl member remove 9").is_empty());
        assert!(cands("etcdctl member remove 8e9e05c52164694d ").is_empty());
        let none = Context {
            machines: &[],
            member_ids: &[],
            member_names: &[],
            without_etcdutl: &[],
            here: "",
        };
        assert!(complete("etcdctl member remove ", &none)
            .candidates
            .is_empty());
    }

    #[test]
    fn member_add_offers_machines_that_are_not_members() {
        assert_eq!(accept("etcdctl member add "), "etcdctl member add node03 ");
        assert!(cands("etcdctl member add node03 ").is_empty());
    }

    #[test]
    fn etcdctl_flags() {
        let dash = cands("etcdctl -");
        assert!(dash.contains(&"-w".to_string()));
        assert!(dash.contains(&"--hex".to_string()));
        assert!(dash.contains(&"--endpoints=".to_string()));
        assert!(!dash.contains(&"--prefix".to_string()));
        assert_eq!(common("etcdctl --"), "--");
        assert_eq!(accept("etcdctl --end"), "etcdctl --endpoints=");
        assert_eq!(accept("etcdctl -w"), "etcdctl -w ");
        assert_eq!(accept("etcdctl --he"), "etcdctl --hex ");
        // A command's own flags come after the command only.
        assert!(cands("etcdctl --cl").is_empty());
        assert_eq!(
            accept("etcdctl endpoint status --cl"),
            "etcdctl endpoint status --cluster "
        );
        assert_eq!(
            accept("etcdctl member add node04 --pe"),
            "etcdctl member add node04 --peer-urls="
        );
        assert!(cands("etcdctl member list --le").is_empty());
        assert_eq!(
            cands("etcdctl get foo --pr"),
            ["--prefix", "--print-value-only"]
        );
        assert_eq!(common("etcdctl get foo --pr"), "--pr");
        assert_eq!(cands("etcdctl get foo --key"), ["--key=", "--keys-only"]);
        assert_eq!(common("etcdctl get foo --key"), "--key");
        assert_eq!(common("etcdctl snapshot restore s.db --init"), "--initial-");
        // After `--` everything is a positional.
        assert!(cands("etcdctl -- -").is_empty());
        assert_eq!(accept("etcdctl -- mem"), "etcdctl -- member ");
    }

    #[test]
    fn etcdctl_flag_values() {
        assert_eq!(cands("etcdctl -w "), ["json", "simple", "table"]);
        assert_eq!(accept("etcdctl -w t"), "etcdctl -w table ");
        assert_eq!(
            accept("etcdctl --write-out t"),
            "etcdctl --write-out table "
        );
        assert_eq!(
            cands("etcdctl --write-out="),
            [
                "--write-out=json",
                "--write-out=simple",
                "--write-out=table"
            ]
        );
        assert_eq!(
            accept("etcdctl member list --write-out=ta"),
            "etcdctl member list --write-out=table "
        );
        assert_eq!(accept("etcdctl -w=j"), "etcdctl -w=json ");
        assert!(cands("etcdctl -w=x").is_empty());
        assert!(cands("etcdctl --endpoints ").is_empty());
        assert!(cands("etcdctl --endpoints=").is_empty());
        assert_eq!(
            cands("etcdctl snapshot restore s.db --name "),
            ["node01", "node02", "node03"]
        );
        // A value flag's value is not a positional.
        assert_eq!(cands("etcdctl --command-timeout 3s "), cands("etcdctl "));
    }

    #[test]
    fn etcd_flags_complete() {
        let all = cands("etcd --");
        assert!(all.contains(&"--name=".to_string()));
        assert!(all.contains(&"--force-new-cluster".to_string()));
        assert_eq!(cands("etcd -"), all);
        assert_eq!(accept("etcd --na"), "etcd --name=");
        assert_eq!(accept("etcd -na"), "etcd -name=");
        assert_eq!(accept("etcd --forc"), "etcd --force-new-cluster ");
        assert_eq!(
            accept("/usr/local/bin/etcd --pre"),
            "/usr/local/bin/etcd --pre-vote "
        );
        assert_eq!(common("etcd --initial-c"), "--initial-cluster");
        assert_eq!(cands("etcd --initial-cluster-state "), ["existing", "new"]);
        assert_eq!(
            accept("etcd --initial-cluster-state=e"),
            "etcd --initial-cluster-state=existing "
        );
        assert_eq!(
            accept("etcd -initial-cluster-state n"),
            "etcd -initial-cluster-state new "
        );
        assert_eq!(cands("etcd --name "), ["node01", "node02", "node03"]);
        assert_eq!(
            accept("etcd --name node01 --data-dir "),
            "etcd --name node01 --data-dir "
        );
        // `--data-dir` takes `--name` as its value, so the next word is a flag's place.
        assert!(cands("etcd --data-dir --name ").is_empty());
        assert_eq!(
            cands("etcd --data-dir x --name n"),
            ["node01", "node02", "node03"]
        );
        assert!(cands("etcd --bogus").is_empty());
        assert!(cands("etcd ").is_empty());
        assert!(cands("etcd --pre-vote ").is_empty());
    }

    #[test]
    fn quotes_and_escapes() {
        let done = c("echo 'a b");
        assert_eq!(done.start, 5);
        assert!(done.candidates.is_empty());
        assert_eq!(done.common, "'a b");
        let done = c("ssh \"node01 ");
        assert_eq!(done.start, 4);
        assert_eq!(done.common, "\"node01 ");
        let done = c("ssh no\\ ");
        assert_eq!((done.start, done.common.as_str()), (4, "no\\ "));
        assert!(cands("etcdctl put \"a b\" ").is_empty());
        assert_eq!(accept("etcdctl \"mem\"ber l"), "etcdctl \"mem\"ber list ");
        assert_eq!(c("etcdctl put k \\").start, 14);
    }

    #[test]
    fn unicode_never_splits_a_char() {
        let done = c("ssh é");
        assert_eq!((done.start, done.common.as_str()), (4, "é"));
        assert!(done.candidates.is_empty());
        assert_eq!(c("ñ").start, 0);
        assert_eq!(c("机器 ").start, "机器 ".len());
        assert_eq!(c("etcdctl «member» ").start, "etcdctl «member» ".len());
        let machines = strings(&["nöde", "ABC1", "abc2"]);
        let ctx = Context {
            machines: &machines,
            member_ids: &[],
            member_names: &[],
            without_etcdutl: &[],
            here: "",
        };
        assert_eq!(complete("ssh nö", &ctx).common, "nöde ");
        assert!(complete("ssh NÖ", &ctx).candidates.is_empty());
        // Case-insensitive matches whose common prefix is shorter keep the word.
        let done = complete("ssh Ab", &ctx);
        assert_eq!(done.candidates, ["ABC1", "abc2"]);
        assert_eq!(done.common, "Ab");
        assert_eq!(complete("ssh ab", &ctx).common, "abc2 ");
        assert_eq!(complete("ssh é機", &ctx).common, "é機");
    }

    #[test]
    fn common_prefix_is_char_aware() {
        assert_eq!(common_prefix("héllo", "hélp"), "hél");
        assert_eq!(common_prefix("é", "è"), "");
        assert_eq!(common_prefix("abc", "ab"), "ab");
        assert_eq!(common_prefix("", "x"), "");
    }

    #[test]
    fn command_start_matches_split_prompt() {
        assert_eq!(command_start("node01$ etcd"), (8, true));
        assert_eq!(command_start("(etcd Container)$ ls"), (18, true));
        assert_eq!(command_start("$ ls "), (2, true));
        assert_eq!(command_start("ls"), (0, false));
        assert_eq!(command_start("node01$"), (0, false));
        assert_eq!(command_start("echo $?"), (0, false));
        assert_eq!(command_start("node01$  "), (9, true));
    }

    // ----- no panics on any input --------------------------------------------------

    #[rustfmt::skip]
    const PIECES: &[&str] = &[
        " ", " ", "\t", "$", "$ ", "node01", "node01$", "(", ")", ")$ ", "'", "\"", "\\", "é", "机",
        "\u{1f600}", "-", "--", "=", "-w", "->", "|", "etcd", "etcdctl", "member", "remove", "add",
        "docker", "run", "kill", "-s", "net", "cut", "partition", "ssh", "machine", "rm", "--name",
        "--write-out=", "8e", "X=1", "img", "\r", "\n",
    ];

    fn random_line(rng: &mut ChaCha8Rng) -> String {
        let len = rng.gen_range(0..16);
        if rng.gen_range(0..4) == 0 {
            let bytes: Vec<u8> = (0..len * 2).map(|_| rng.gen::<u8>()).collect();
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        (0..len)
            .map(|_| PIECES[rng.gen_range(0..PIECES.len())])
            .collect()
    }

    fn check(line: &str) {
        let done = c(line);
        assert!(done.start <= line.len(), "{line:?}");
        assert!(line.is_char_boundary(done.start), "{line:?}");
        let word = &line[done.start..];
        let mut sorted = done.candidates.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, done.candidates, "{line:?}");
        match done.candidates.as_slice() {
            [] => assert_eq!(done.common, word, "{line:?}"),
            [only] => assert!(done.common.starts_with(only.as_str()), "{line:?}"),
            many => assert!(
                done.common == word || many.iter().all(|m| m.starts_with(&done.common)),
                "{line:?}"
            ),
        }
        // Accepting the completion gives a line that completes too.
        let accepted = format!("{}{}", &line[..done.start], done.common);
        let again = c(&accepted);
        assert!(accepted.is_char_boundary(again.start), "{accepted:?}");
    }

    #[test]
    fn no_panic_on_generated_lines() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
        for _ in 0..4000 {
            check(&random_line(&mut rng));
        }
        for line in [
            "", " ", "$", "$ ", "\\", "'", "\"", "(", "()$ ", "=", "-", "--", "-=",
        ] {
            check(line);
        }
    }
}
