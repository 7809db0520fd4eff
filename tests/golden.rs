//! Golden transcripts: every script in `tests/scripts/` runs through the headless
//! runner with `--logs` and seed 1, and must equal `tests/golden/NAME.out`
//! byte for byte. `UPDATE_GOLDEN=1 cargo test --test golden` rewrites them;
//! a diff in review means behaviour changed. The same files are checked in
//! headless Chromium by `tests/web.rs`, so native and wasm agree.
//!
//! The scripts stay shell scripts, not narrated cases like `tests/behaviour/`:
//! most are made from real etcd transcripts (`tools/transcript2script.py`),
//! other tests replay the same files (`transcripts`, `zap`, `partitions`,
//! `invariants`, `seed000`, `web`), and a golden file interleaves each
//! command's server log lines with its output, which a `| ` block cannot hold.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

use quorum_playground::shell::runner::{run_source, RunOptions};

fn scripts() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir("tests/scripts")
        .expect("tests/scripts exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sh"))
        .collect();
    v.sort();
    // not an empty corpus: every script kept today (raise it when adding one)
    assert!(v.len() >= 25, "tests/scripts holds {} scripts", v.len());
    v
}

fn golden_path(script: &Path) -> PathBuf {
    let stem = script.file_stem().and_then(|s| s.to_str()).unwrap_or("x");
    Path::new("tests/golden").join(format!("{stem}.out"))
}

fn run(script: &Path, seed: u64) -> String {
    let src = std::fs::read_to_string(script).expect("script readable");
    run_source(
        &src,
        RunOptions {
            seed,
            logs: true,
            ..Default::default()
        },
    )
    .expect("script parses")
}

#[test]
fn transcripts_match_golden_files() {
    let update = std::env::var("UPDATE_GOLDEN").is_ok();
    let mut failures = Vec::new();
    for script in scripts() {
        let got = run(&script, 1);
        let path = golden_path(&script);
        if update {
            std::fs::write(&path, &got).expect("golden writable");
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if got != want {
            let line = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(got.lines().count().min(want.lines().count()));
            failures.push(format!(
                "{}: differs from {} at line {}\n  got:  {:?}\n  want: {:?}",
                script.display(),
                path.display(),
                line + 1,
                got.lines().nth(line).unwrap_or(""),
                want.lines().nth(line).unwrap_or("")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n(rerun with UPDATE_GOLDEN=1 and review the diff)",
        failures.join("\n")
    );
}

#[test]
fn same_seed_gives_identical_bytes() {
    for script in scripts() {
        assert_eq!(run(&script, 7), run(&script, 7), "{}", script.display());
    }
}

#[test]
fn a_different_seed_gives_a_different_run() {
    let script = Path::new("tests/scripts/seed-000.sh");
    assert_ne!(run(script, 1), run(script, 2));
}
