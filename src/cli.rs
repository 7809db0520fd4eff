//! The native binary's command line: `run` (the headless runner,
//! `shell::runner`) and `check [--update]` (lessons, `crate::lessons`). It sits
//! above both, so the shell never depends on lessons.

use crate::shell::runner;

pub const USAGE: &str =
    "usage: quorum-playground run FILE|- [--logs] [--seed N] [--etcd-version 3.4|3.5]
       quorum-playground check [--update] LESSON...

run     prints a script's transcript
check   runs each lesson (on its header's etcd) and compares every command's output with its `| ` block
        and every `? ` check: prints `LESSON: ok (...)` or each difference as
        `LESSON:LINE: message`; exit status 1 on a difference, 2 on a mistake
        in a file (`LESSON:LINE: message`)
        --update rewrites the `| ` blocks with the actual output, then reports
        failing checks (exit status 1 if one fails)";

/// The native command line; returns the process exit status.
pub fn main(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("run") => runner::run_cli(&args[1..]),
        Some("check") => check_cli(&args[1..]),
        _ => {
            eprintln!("{USAGE}");
            2
        }
    }
}

/// `check [--update] LESSON...`: every file is checked; the exit status is the
/// worst: 2 (a file cannot be read or parsed), 1 (a difference), 0.
fn check_cli(args: &[String]) -> i32 {
    let mut update = false;
    let mut files = Vec::new();
    for a in args {
        match a.as_str() {
            "--update" => update = true,
            other if other.starts_with("--") => {
                eprintln!("unexpected option {other:?}\n{USAGE}");
                return 2;
            }
            file => files.push(file),
        }
    }
    if files.is_empty() {
        eprintln!("{USAGE}");
        return 2;
    }
    files
        .into_iter()
        .map(|f| check_file(f, update))
        .max()
        .unwrap_or(0)
}

/// Checks (or updates) one lesson file; returns its exit status.
fn check_file(file: &str, update: bool) -> i32 {
    let (name, src, lesson) = match read_lesson(file) {
        Ok(read) => read,
        Err(status) => return status,
    };
    let results = crate::lessons::run(&lesson);
    let mut counts = format!(
        "{} steps, {} commands, {} checks",
        lesson.steps.len(),
        lesson.command_count(),
        lesson.check_count()
    );
    // A lesson on another etcd than the default says which it ran on.
    if lesson.etcd != crate::sim::etcd::version::EtcdVersion::default() {
        counts.push_str(&format!(", etcd {}", lesson.etcd.release()));
    }
    if update {
        update_file(file, &name, &src, &lesson, &results, &counts)
    } else {
        report_differences(file, &lesson, &results, &counts)
    }
}

/// Reads and parses a lesson file: its name (the file's stem), text and
/// lesson, or the exit status after saying what went wrong.
fn read_lesson(file: &str) -> Result<(String, String, crate::lessons::Lesson), i32> {
    let src = std::fs::read_to_string(file).map_err(|e| {
        eprintln!("{file}: {e}");
        2
    })?;
    let name = std::path::Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned());
    let lesson = crate::lessons::parse(&name, &src).map_err(|e| {
        eprintln!("{file}:{}: {}", e.line, e.message);
        2
    })?;
    Ok((name, src, lesson))
}

/// Prints each difference between the lesson and its run at its line.
fn report_differences(
    file: &str,
    lesson: &crate::lessons::Lesson,
    results: &[crate::lessons::StepResult],
    counts: &str,
) -> i32 {
    let differences = crate::lessons::differences(lesson, results);
    for d in &differences {
        println!("{file}:{}: {}", d.line, d.message);
    }
    verdict(file, differences.len(), "difference", counts)
}

/// Rewrites the file's output blocks from the run, then reports the checks
/// that fail, at their lines in the rewritten file.
fn update_file(
    file: &str,
    name: &str,
    src: &str,
    lesson: &crate::lessons::Lesson,
    results: &[crate::lessons::StepResult],
    counts: &str,
) -> i32 {
    let new = crate::lessons::update_with(src, lesson, results);
    let changed = results
        .iter()
        .flat_map(|r| &r.commands)
        .filter(|c| c.block() != c.expected)
        .count();
    if new != src {
        if let Err(e) = std::fs::write(file, &new) {
            eprintln!("{file}: {e}");
            return 2;
        }
    }
    let lines: Vec<usize> = match crate::lessons::parse(name, &new) {
        Ok(l) => l
            .steps
            .iter()
            .flat_map(|s| &s.checks)
            .map(crate::lessons::Check::line)
            .collect(),
        Err(_) => Vec::new(),
    };
    let mut failing = 0;
    for (i, r) in results.iter().flat_map(|r| &r.checks).enumerate() {
        if let Err(message) = &r.result {
            let line = lines.get(i).copied().unwrap_or_else(|| r.check.line());
            println!("{file}:{line}: {message}");
            failing += 1;
        }
    }
    let updated = format!("{changed} block{} updated", plural(changed));
    verdict(
        file,
        failing,
        "failing check",
        &format!("{counts}; {updated}"),
    )
}

/// `FILE: ok (COUNTS)`, or `FILE: N WHATs (COUNTS)` when `n` things are
/// wrong; the exit status, 0 or 1.
fn verdict(file: &str, n: usize, what: &str, counts: &str) -> i32 {
    if n == 0 {
        println!("{file}: ok ({counts})");
        return 0;
    }
    println!("{file}: {n} {what}{} ({counts})", plural(n));
    1
}

/// "s" after a count other than one.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
