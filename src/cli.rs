//! The native binary's command line: `run` (the headless runner,
//! `shell::runner`) and `check [--update]` (lessons, `crate::lessons`). It sits
//! above both, so the shell never depends on lessons.

use crate::shell::runner;

pub const USAGE: &str = "usage: quorum-playground run FILE|- [--logs] [--seed N]
       quorum-playground check [--update] LESSON...

run     prints a script's transcript
check   runs each lesson and compares every command's output with its `| ` block
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
    use crate::lessons;
    let src = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}: {e}");
            return 2;
        }
    };
    let name = std::path::Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned());
    let lesson = match lessons::parse(&name, &src) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{file}:{}: {}", e.line, e.message);
            return 2;
        }
    };
    let results = lessons::run(&lesson);
    let counts = format!(
        "{} steps, {} commands, {} checks",
        lesson.steps.len(),
        lesson.command_count(),
        lesson.check_count()
    );
    if !update {
        let differences = lessons::differences(&lesson, &results);
        for d in &differences {
            println!("{file}:{}: {}", d.line, d.message);
        }
        return match differences.len() {
            0 => {
                println!("{file}: ok ({counts})");
                0
            }
            n => {
                let s = if n == 1 { "" } else { "s" };
                println!("{file}: {n} difference{s} ({counts})");
                1
            }
        };
    }
    let new = lessons::update_with(&src, &lesson, &results);
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
    // Checks are reported at their lines in the rewritten file.
    let lines: Vec<usize> = match lessons::parse(&name, &new) {
        Ok(l) => l
            .steps
            .iter()
            .flat_map(|s| &s.checks)
            .map(lessons::Check::line)
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
    let s = if changed == 1 { "" } else { "s" };
    let updated = format!("{changed} block{s} updated");
    match failing {
        0 => {
            println!("{file}: ok ({counts}; {updated})");
            0
        }
        n => {
            let s = if n == 1 { "" } else { "s" };
            println!("{file}: {n} failing check{s} ({counts}; {updated})");
            1
        }
    }
}
