//! `make soak`: randomized runs (`quorum_playground::chaos`, the network's
//! physics among the actions) from seed 1 on, 200 actions each, until 10,000 seeds or 30 minutes (`soak [SEEDS]
//! [MINUTES]`). Prints a line per 500 seeds, each failing seed's shrunk script,
//! and a summary; exits 1 when any seed broke a promise.

#[cfg(not(target_arch = "wasm32"))]
#[allow(clippy::disallowed_methods)] // the time limit is host time
fn main() {
    use quorum_playground::chaos;
    use std::time::{Duration, Instant};

    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(default)
    };
    let (seeds, minutes) = (arg(1, 10_000), arg(2, 30));
    let limit = Duration::from_secs(minutes * 60);
    let start = Instant::now();
    let (mut ran, mut lines, mut failed) = (0u64, 0usize, 0u64);
    let (mut shaped, mut ops, mut answered) = (0usize, 0usize, 0usize);
    for seed in 1..=seeds {
        if start.elapsed() > limit {
            break;
        }
        // a panic is a failure too: say which seed, and go on
        let Ok(out) = std::panic::catch_unwind(|| chaos::run(seed, 200)) else {
            failed += 1;
            ran += 1;
            println!("# seed {seed}: panicked (replay: chaos::run({seed}, 200))");
            continue;
        };
        ran += 1;
        lines += out.lines.len();
        shaped += out.shaped;
        ops += out.ops;
        answered += out.answered;
        if !out.violations.is_empty() {
            failed += 1;
            let short = chaos::shrink(seed, &out.lines);
            print!(
                "{}",
                chaos::script(seed, &short, &chaos::replay(seed, &short))
            );
        }
        if seed % 500 == 0 {
            println!(
                "soak: {seed} seeds, {failed} failed, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "soak: {ran} seeds of 200 random actions ({lines} lines, {shaped} on the network's physics, \
         {ops} key-value operations, {answered} answered), {failed} broke a promise, {:.0} s",
        start.elapsed().as_secs_f64()
    );
    if failed > 0 {
        std::process::exit(1);
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
