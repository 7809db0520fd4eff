//! `make bench`: benchmarks that print one line per figure, `name: value unit (goal: ...)`.
//! Native only; timing uses the host clock, never the simulation's.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    bench::run();
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
#[allow(clippy::disallowed_methods)] // a benchmark measures host time
mod bench {
    use std::time::Instant;

    use quorum_playground::shell::parse;
    use quorum_playground::shell::runner::run_one;
    use quorum_playground::shell::session::Session;

    const BOOT: &str = include_str!("../ui/boot.sh");

    fn booted(seed: u64) -> Session {
        let mut s = Session::new(seed);
        let mut sink = String::new();
        for c in parse::parse_script(BOOT).unwrap_or_default() {
            run_one(&mut s, &c, false, &mut sink);
        }
        s
    }

    /// 60 simulated seconds of a three-member cluster with one put per second.
    fn sixty_seconds() -> (f64, u64) {
        let mut s = booted(1);
        let start_ms = s.world.now_ms();
        let t = Instant::now();
        let mut i = 0;
        while s.world.now_ms() < start_ms + 60_000 {
            let put = s.run_typed(&format!("etcdctl put key{i} value{i}"));
            assert_eq!(put.output.status, 0, "put failed: {}", put.output.stderr);
            let now = s.world.now_ms();
            let next = start_ms + (i + 1) * 1000;
            if next > now {
                s.run_typed(&format!("sleep {}ms", next - now));
            }
            i += 1;
        }
        (t.elapsed().as_secs_f64() * 1000.0, i)
    }

    pub fn run() {
        let runs = 5;
        let mut best = f64::MAX;
        let mut puts = 0;
        for _ in 0..runs {
            let (ms, n) = sixty_seconds();
            best = best.min(ms);
            puts = n;
        }
        // Three servers each tick every 100 ms: 1,800 raft ticks in 60 s.
        let ticks_per_s = 1800.0 / (best / 1000.0);
        println!("sim_3_members_60s_1_put_per_s: {best:.1} ms (best of {runs}; {puts} puts) (goal: none yet)");
        println!("sim_3_members_ticks_per_s: {ticks_per_s:.0} ticks/s (goal: none yet)");
    }
}
