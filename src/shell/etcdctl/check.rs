//! `etcdctl check perf` and `etcdctl check datascale` as etcd 3.4.23's
//! `etcdctl/ctlv3/command/check.go` runs them: the workload tables, the check
//! that the prefix is empty, puts from many concurrent clients through the
//! simulated cluster (each a proposal through raft, taking simulated time),
//! the report, the `del --prefix` cleanup and the PASS/FAIL lines.
//!
//! The clients: a wave of puts is sent at once, each on its own connection, and
//! the next wave leaves when the last of them is answered (`check perf` also
//! waits for its rate limiter's tokens, one per `1/limit` s). The keys are
//! etcdctl's: the prefix, `binary.PutVarint` of a random `Int63n` written over
//! the same buffer, zero bytes up to 256 (perf) or 512 (datascale); the values
//! are zero bytes, 1024 or 512 of them (kept as a description, see `sim::etcd::kv`).
//!
//! The progress bar (cheggaaa/pb with `Format("Bom !")`, which on a terminal
//! without a known width shows only its counters) rewrites its line with `\r`;
//! the page prints its final state once. `check perf` returns before the bar's
//! last tick, so its last state is `59 / 60` and the next line follows it on the
//! same line, as a real run shows (tests/reference-run-b/check-perf-s.txt).
//! `--auto-compact` and `--auto-defrag` are accepted and do nothing here (the
//! playground has no compaction).

use std::collections::BTreeMap;

use super::{error_text, fail, Client, Fail, Line};
use crate::shell::print;
use crate::sim::etcd::kv::Generated;
use crate::sim::etcd::request::{Reply, Request};
use crate::sim::world::{Action, CallResult};

/// A workload: how many puts (perf: per second), clients, seconds (perf).
#[derive(Debug, Clone, Copy)]
struct Load {
    limit: u64,
    clients: u64,
    duration_s: u64,
}

/// `checkPerfCfgMap`.
fn perf_load(model: &str) -> Load {
    let (limit, clients) = match model {
        "m" => (1000, 200),
        "l" => (8000, 500),
        "xl" => (15000, 1000),
        _ => (150, 50),
    };
    Load {
        limit,
        clients,
        duration_s: 60,
    }
}

/// `checkDatascaleCfgMap` (every workload writes 1024 bytes per pair).
fn datascale_load(model: &str) -> Load {
    let (limit, clients) = match model {
        "m" => (100_000, 200),
        "l" => (1_000_000, 500),
        "xl" => (3_000_000, 1000),
        _ => (10_000, 50),
    };
    Load {
        limit,
        clients,
        duration_s: 0,
    }
}

/// `--load`'s value as etcdctl's alias table reads it.
fn model(l: &Line) -> Result<&'static str, Fail> {
    let given = l.flag("load").unwrap_or("s");
    match given {
        "s" | "small" => Ok("s"),
        "m" | "medium" => Ok("m"),
        "l" | "large" => Ok("l"),
        "xl" | "xLarge" => Ok("xl"),
        other => Err(fail(4, format!("unknown load option {other}"))),
    }
}

/// What the clients measured (`pkg/report`'s stats).
#[derive(Debug, Default)]
struct Stats {
    latencies_ms: Vec<u64>,
    errors: BTreeMap<String, u64>,
}

impl Stats {
    fn count(&self) -> u64 {
        self.latencies_ms.len() as u64 + self.errors.values().sum::<u64>()
    }

    fn slowest_s(&self) -> f64 {
        self.latencies_ms
            .iter()
            .max()
            .map_or(0.0, |m| *m as f64 / 1000.0)
    }

    fn stddev_s(&self) -> f64 {
        let n = self.latencies_ms.len();
        if n == 0 {
            return 0.0;
        }
        let secs = self.latencies_ms.iter().map(|m| *m as f64 / 1000.0);
        let mean = secs.clone().sum::<f64>() / n as f64;
        (secs.map(|s| (s - mean) * (s - mean)).sum::<f64>() / n as f64).sqrt()
    }
}

/// The keys' shape: prefix, bytes after it, value bytes.
struct Shape {
    prefix: String,
    key_len: u16,
    value_len: u16,
}

/// cheggaaa/pb's counters: ` cur / total  pp.pp%`.
fn bar(current: u64, total: u64) -> String {
    let percent = if total == 0 {
        0.0
    } else {
        current as f64 * 100.0 / total as f64
    };
    format!(" {current} / {total} {percent:>7.2}%")
}

/// Go's `binary.PutVarint` of `x` over `buf` (bytes past the varint keep
/// what an earlier, longer one wrote, as etcdctl's reused buffer does).
fn put_varint(buf: &mut [u8; 10], x: i64) {
    let mut ux = (x as u64) << 1;
    if x < 0 {
        ux = !ux;
    }
    let mut i = 0;
    while ux >= 0x80 && i < 9 {
        buf[i] = (ux as u8) | 0x80;
        ux >>= 7;
        i += 1;
    }
    buf[i] = ux as u8;
}

/// One wave's calls may run this long (etcdctl's clients use no deadline).
const WAVE_TIMEOUT_MS: u64 = 60_000;

impl Client<'_> {
    /// The endpoint the clients talk to: the first one they can reach.
    fn load_endpoint(&self, l: &Line) -> String {
        let eps = &l.globals.endpoints;
        eps.iter()
            .find(|ep| self.world.can_dial(&self.machine, ep))
            .or(eps.first())
            .cloned()
            .unwrap_or_default()
    }

    /// Refuses a prefix that already has keys (etcdctl's first `Get`).
    fn prefix_empty(&mut self, l: &Line, prefix: &str) -> Result<(), Fail> {
        let request = Request::Range {
            key: prefix.to_string(),
            prefix: true,
            serializable: false,
        };
        let resp = self.call(l, request).map_err(|e| fail(1, e))?;
        match resp.reply {
            Reply::Range(kvs) if !kvs.is_empty() => Err(fail(
                3,
                format!(
                    "prefix {prefix:?} has keys. Delete with etcdctl del --prefix {prefix} first"
                ),
            )),
            _ => Ok(()),
        }
    }

    /// Sends `n` puts at once and records each one's latency or error.
    fn wave(&mut self, ep: &str, n: u64, shape: &Shape, buf: &mut [u8; 10], stats: &mut Stats) {
        let requests: Vec<Request> = (0..n)
            .map(|_| {
                let r = (self.world.random_u64() >> 1) % (i64::MAX as u64);
                put_varint(buf, r as i64);
                Request::PutGenerated(Generated {
                    prefix: shape.prefix.clone(),
                    head: *buf,
                    key_len: shape.key_len,
                    value_len: shape.value_len,
                })
            })
            .collect();
        let start = self.world.now_ms();
        let machine = self.machine.clone();
        for (result, end) in self.world.call_all(&machine, ep, requests, WAVE_TIMEOUT_MS) {
            let error = match result {
                CallResult::Reply(_) => {
                    stats.latencies_ms.push(end.saturating_sub(start));
                    continue;
                }
                CallResult::Error(e) => error_text(e),
                CallResult::Deadline { .. } => "context deadline exceeded".to_string(),
            };
            *stats.errors.entry(error).or_insert(0) += 1;
        }
    }

    /// `del --prefix` after the run; the keys' count, for the caller.
    fn cleanup(&mut self, l: &Line, prefix: &str) -> Result<(), Fail> {
        let ep = self.load_endpoint(l);
        let target = self.client_target(&ep);
        let request = Request::Delete {
            key: prefix.to_string(),
            prefix: true,
        };
        self.call_target(&ep, &target, request, 30_000, false)
            .map(|_| ())
            .map_err(|e| fail(1, e))
    }

    fn error_lines(&mut self, stats: &Stats) -> bool {
        if stats.errors.is_empty() {
            return false;
        }
        self.out.line("FAIL: too many errors");
        for (e, n) in &stats.errors {
            self.out.line(&format!("FAIL: ERROR({e}) -> {n}"));
        }
        true
    }

    /// `etcdctl check perf`.
    pub(super) fn check_perf(&mut self, l: &Line) -> Result<(), Fail> {
        let load = perf_load(model(l)?);
        let prefix = l
            .flag("prefix")
            .unwrap_or("/etcdctl-check-perf/")
            .to_string();
        self.prefix_empty(l, &prefix)?;
        let shape = Shape {
            prefix: prefix.clone(),
            key_len: 256,
            value_len: 1024,
        };
        let ep = self.load_endpoint(l);
        let (start, end) = (
            self.world.now_ms(),
            self.world.now_ms() + load.duration_s * 1000,
        );
        let (mut stats, mut buf, mut issued) = (Stats::default(), [0u8; 10], 0u64);
        while self.world.now_ms() < end {
            // rate.NewLimiter(limit, 1): a token every 1/limit s, a burst of one
            let due = load.limit * (self.world.now_ms() - start) / 1000 + 1;
            let n = due.saturating_sub(issued).min(load.clients);
            if n == 0 {
                let next = (issued * 1000).div_ceil(load.limit) + start;
                let ms = next.saturating_sub(self.world.now_ms()).max(1);
                self.world.apply(Action::Advance { ms }).ok();
                continue;
            }
            issued += n;
            self.wave(&ep, n, &shape, &mut buf, &mut stats);
        }
        let elapsed_s = (self.world.now_ms() - start).max(1) as f64 / 1000.0;
        self.cleanup(l, &prefix)?;
        let mut ok = !self.error_lines(&stats);
        let rps = stats.count() as f64 / elapsed_s;
        let progress = bar(load.duration_s - 1, load.duration_s);
        if rps / load.limit as f64 <= 0.9 {
            self.out.line(&format!(
                "{progress}FAIL: Throughput too low: {} writes/s",
                rps as u64 + 1
            ));
            ok = false;
        } else {
            self.out.line(&format!(
                "{progress}PASS: Throughput is {} writes/s",
                rps as u64 + 1
            ));
        }
        let slowest = stats.slowest_s();
        if slowest > 0.5 {
            self.out
                .line(&format!("Slowest request took too long: {slowest:.6}s"));
            ok = false;
        } else {
            self.out
                .line(&format!("PASS: Slowest request took {slowest:.6}s"));
        }
        let stddev = stats.stddev_s();
        if stddev > 0.1 {
            self.out.line(&format!("Stddev too high: {stddev:.6}s"));
            ok = false;
        } else {
            self.out.line(&format!("PASS: Stddev is {stddev:.6}s"));
        }
        self.out.line(if ok { "PASS" } else { "FAIL" });
        if !ok {
            self.out.status = 1;
        }
        Ok(())
    }

    /// The first endpoint's `process_resident_memory_bytes`, or `None` (etcdctl
    /// then prints a `FAIL:` line and exits 1).
    fn memory_metric(&mut self, l: &Line) -> Option<u64> {
        let ep = l.globals.endpoints.first().cloned().unwrap_or_default();
        let target = format!("passthrough:///{ep}");
        match self.call_target(&ep, &target, Request::Metrics, l.globals.timeout_ms, true) {
            Ok(resp) => match resp.reply {
                Reply::Metrics(bytes) => Some(bytes),
                _ => None,
            },
            Err(e) => {
                self.out.line(&format!("fetch error: {e}"));
                None
            }
        }
    }

    /// `etcdctl check datascale`.
    pub(super) fn check_datascale(&mut self, l: &Line) -> Result<(), Fail> {
        let load = datascale_load(model(l)?);
        let prefix = l
            .flag("prefix")
            .unwrap_or("/etcdctl-check-datascale/")
            .to_string();
        self.prefix_empty(l, &prefix)?;
        let Some(before) = self.memory_metric(l) else {
            self.out.line(
                "FAIL: Could not read process_resident_memory_bytes before the put operations.",
            );
            self.out.status = 1;
            return Ok(());
        };
        self.out.line(&format!(
            "Start data scale check for work load [{} key-value pairs, 1024 bytes per key-value, {} concurrent clients].",
            load.limit, load.clients
        ));
        let shape = Shape {
            prefix: prefix.clone(),
            key_len: 512,
            value_len: 512,
        };
        let ep = self.load_endpoint(l);
        let start = self.world.now_ms();
        let (mut stats, mut buf, mut sent) = (Stats::default(), [0u8; 10], 0u64);
        while sent < load.limit {
            let n = (load.limit - sent).min(load.clients);
            sent += n;
            self.wave(&ep, n, &shape, &mut buf, &mut stats);
        }
        let took_s = (self.world.now_ms() - start) / 1000;
        let took = print::go_duration(took_s * 1_000_000_000);
        self.out
            .line(&format!("{} {took}", bar(load.limit, load.limit)));
        let after = self.memory_metric(l);
        self.cleanup(l, &prefix)?;
        let Some(after) = after else {
            self.out.line(
                "FAIL: Could not read process_resident_memory_bytes after the put operations.",
            );
            self.out.status = 1;
            return Ok(());
        };
        if self.error_lines(&stats) {
            self.out.status = 1;
            return Ok(());
        }
        let mb = after.saturating_sub(before) as f64 / (1024.0 * 1024.0);
        self.out.line(&format!(
            "PASS: Approximate system memory used : {mb:.2} MB."
        ));
        Ok(())
    }
}
