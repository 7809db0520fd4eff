//! Server logs: capturing raft-rs's slog records and turning them into etcd 3.4's
//! lines (capnslog for the server, Go's `log` default logger for raft), with the
//! time stamps of the simulated wall clock.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use slog::{Drain, Key, OwnedKVList, Record, Serializer, KV};

/// One raft-rs log record, as captured from slog.
#[derive(Debug, Clone)]
pub struct RaftRecord {
    pub level: slog::Level,
    pub msg: String,
    pub kv: Vec<(String, String)>,
}

impl RaftRecord {
    /// The value of a key-value pair, if present.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.kv
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn num(&self, key: &str) -> u64 {
        self.get(key).and_then(|v| v.parse().ok()).unwrap_or(0)
    }
}

/// The shared buffer a server reads its raft records from after each call into raft.
pub type RecordSink = Arc<Records>;

/// Captured records, and whether there are any: a server looks after every
/// call into raft, and raft says something worth keeping only now and then,
/// so the look is a plain load rather than a lock.
#[derive(Default)]
pub struct Records {
    any: AtomicBool,
    list: Mutex<Vec<RaftRecord>>,
}

impl Records {
    /// Whether any record was captured since the last take.
    #[inline]
    pub fn any(&self) -> bool {
        self.any.load(Ordering::Acquire)
    }

    /// The records captured since the last take (none: no lock taken).
    pub fn take(&self) -> Vec<RaftRecord> {
        if !self.any.load(Ordering::Acquire) {
            return Vec::new();
        }
        self.any.store(false, Ordering::Release);
        self.list
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }

    fn push(&self, rec: RaftRecord) {
        if let Ok(mut list) = self.list.lock() {
            list.push(rec);
            self.any.store(true, Ordering::Release);
        }
    }
}

/// A slog drain that keeps the records a server needs: every info and above.
pub struct CaptureDrain {
    pub sink: RecordSink,
}

struct KvCollector(Vec<(String, String)>);

impl Serializer for KvCollector {
    fn emit_arguments(&mut self, key: Key, val: &std::fmt::Arguments) -> slog::Result {
        self.0.push((key.to_string(), val.to_string()));
        Ok(())
    }
}

impl Drain for CaptureDrain {
    type Ok = ();
    type Err = slog::Never;

    fn log(&self, record: &Record, _values: &OwnedKVList) -> Result<(), slog::Never> {
        let keep = record.level().is_at_least(slog::Level::Info)
            || record
                .msg()
                .as_str()
                .is_some_and(|m| m.starts_with("reset election timeout"));
        if !keep {
            return Ok(());
        }
        let mut kv = KvCollector(Vec::new());
        record
            .kv()
            .serialize(record, &mut kv)
            .expect("KvCollector's every emit pushes onto a Vec and returns Ok");
        let rec = RaftRecord {
            level: record.level(),
            msg: record.msg().to_string(),
            kv: kv.0,
        };
        self.sink.push(rec);
        Ok(())
    }
}

/// A logger for one raft node that writes into `sink`.
pub fn raft_logger(sink: RecordSink) -> slog::Logger {
    slog::Logger::root(CaptureDrain { sink }.fuse(), slog::o!())
}

/// A simulated wall-clock instant, split into the fields log stamps need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub min: u32,
    pub sec: u32,
    pub micros: u32,
}

impl Stamp {
    /// Unix time in milliseconds to a UTC calendar stamp.
    pub fn from_unix_ms(ms: i64) -> Stamp {
        let secs = ms.div_euclid(1000);
        let micros = (ms.rem_euclid(1000) * 1000) as u32;
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        Stamp {
            year,
            month,
            day,
            hour: (rem / 3600) as u32,
            min: ((rem % 3600) / 60) as u32,
            sec: (rem % 60) as u32,
            micros,
        }
    }

    /// capnslog: `2021-03-03 16:25:57.005589`.
    pub fn capnslog(&self) -> String {
        format!(
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:06}",
            self.year, self.month, self.day, self.hour, self.min, self.sec, self.micros
        )
    }

    /// Go's `log.LstdFlags` after the `raft` prefix: `2021/03/03 16:25:57`.
    pub fn go_log(&self) -> String {
        format!(
            "{:04}/{:02}/{:02} {:02}:{:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.min, self.sec
        )
    }

    /// The clientv3 zap stamp: `2021-03-03T16:25:59.114Z`.
    pub fn zap(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
            self.year,
            self.month,
            self.day,
            self.hour,
            self.min,
            self.sec,
            self.micros / 1000
        )
    }

    /// zap's RFC 3339 time encoder (etcdutl 3.5): `2021-03-03T16:25:57Z`.
    pub fn rfc3339_seconds(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            self.year, self.month, self.day, self.hour, self.min, self.sec
        )
    }

    /// `date`'s default output: `Wed Mar  3 16:25:57 UTC 2021`.
    pub fn date(&self, unix_secs: i64) -> String {
        const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
        const MONTHS: [&str; 12] = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        let wd = DAYS[unix_secs.div_euclid(86_400).rem_euclid(7) as usize];
        let mon = MONTHS[(self.month.clamp(1, 12) - 1) as usize];
        format!(
            "{} {} {:>2} {:02}:{:02}:{:02} UTC {}",
            wd, mon, self.day, self.hour, self.min, self.sec, self.year
        )
    }
}

/// Howard Hinnant's days-to-civil algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// The inverse: a civil date and time (UTC) to Unix seconds.
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// etcd's name for a raft-rs message type.
pub fn msg_type_name(raft_rs: &str) -> &str {
    match raft_rs {
        "MsgPropose" => "MsgProp",
        "MsgAppend" => "MsgApp",
        "MsgAppendResponse" => "MsgAppResp",
        "MsgRequestVote" => "MsgVote",
        "MsgRequestVoteResponse" => "MsgVoteResp",
        "MsgSnapshot" => "MsgSnap",
        "MsgHeartbeatResponse" => "MsgHeartbeatResp",
        "MsgRequestPreVote" => "MsgPreVote",
        "MsgRequestPreVoteResponse" => "MsgPreVoteResp",
        other => other,
    }
}

/// A raft line's level and text (without the `raftYYYY/...` prefix).
pub type RaftLine = (&'static str, String);

/// Turns one raft-rs record into etcd 3.4's raft lines (none, one, or several),
/// following the spec's section 5 mapping. `voters` are the node's voters, used to
/// expand the vote broadcast; `conf` is the etcd text of the current configuration.
pub fn etcd_raft_lines(id: u64, rec: &RaftRecord, conf: &str) -> Vec<RaftLine> {
    let m = rec.msg.as_str();
    let info = |s: String| vec![("INFO", s)];
    if let Some(rest) = m.strip_prefix("became ") {
        return info(format!("{id:x} became {rest}"));
    }
    match m {
        "starting a new election" => info(format!(
            "{id:x} is starting a new election at term {}",
            rec.num("term")
        )),
        "broadcasting vote request" => vote_requests(id, rec),
        "received votes response" => vote_responses(id, rec),
        "stepped down to follower since quorum is not active" => vec![(
            "WARN",
            format!("{id:x} stepped down to follower since quorum is not active"),
        )],
        "switched to configuration" => info(format!("{id:x} switched to configuration {conf}")),
        "newRaft" => Vec::new(),
        _ => match snapshot_line(id, rec) {
            Some(text) => info(text),
            None => other_line(id, rec),
        },
    }
}

/// raft's lines about a snapshot a follower is sent (its log restored from
/// it, or the snapshot ignored), in etcd raft's words: raft-rs's log also
/// names its `persisted` index, which etcd's does not have.
fn snapshot_line(id: u64, rec: &RaftRecord) -> Option<String> {
    let m = rec.msg.as_str();
    let n = numbers(m);
    let at = |i: usize| n.get(i).copied().unwrap_or(0);
    if m.starts_with("log [") && m.contains("] starts to restore snapshot [") {
        // committed, persisted, applied, unstable offset and length; index, term
        return Some(format!(
            "log [committed={}, applied={}, unstable.offset={}, len(unstable.Entries)={}] starts to restore snapshot [index: {}, term: {}]",
            at(0), at(2), at(3), at(4), at(5), at(6)
        ));
    }
    let position = |what: &str| {
        format!(
            "{id:x} [commit: {}, lastindex: {}, lastterm: {}] {what} [index: {}, term: {}]",
            rec.num("commit"),
            rec.num("last_index"),
            rec.num("last_term"),
            rec.num("snapshot_index"),
            rec.num("snapshot_term")
        )
    };
    match m {
        "restored snapshot" => Some(position("restored snapshot")),
        "fast-forwarded commit to snapshot" => Some(position("fast-forwarded commit to snapshot")),
        // `[commit: C, term: T] restored snapshot [index: I, term: T]`
        _ if m.starts_with("[commit: ") && m.contains("] restored snapshot [") => Some(format!(
            "{id:x} [commit: {}] restored snapshot [index: {}, term: {}]",
            at(0),
            at(2),
            at(3)
        )),
        _ if m.starts_with("[commit: ") && m.contains("] ignored snapshot [") => Some(format!(
            "{id:x} [commit: {}] ignored snapshot [index: {}, term: {}]",
            at(0),
            at(1),
            at(2)
        )),
        _ => None,
    }
}

fn vote_requests(id: u64, rec: &RaftRecord) -> Vec<RaftLine> {
    let kind = if rec.get("type") == Some("MsgRequestPreVote") {
        "MsgPreVote"
    } else {
        "MsgVote"
    };
    let mut to: Vec<u64> = rec
        .get("to")
        .unwrap_or("")
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|s| s.parse().ok())
        .collect();
    to.sort_unstable();
    to.iter()
        .map(|peer| {
            (
                "INFO",
                format!(
                    "{id:x} [logterm: {}, index: {}] sent {kind} request to {peer:x} at term {}",
                    rec.num("log_term"),
                    rec.num("log_index"),
                    rec.num("term")
                ),
            )
        })
        .collect()
}

fn vote_responses(id: u64, rec: &RaftRecord) -> Vec<RaftLine> {
    let kind = msg_type_name(rec.get("type").unwrap_or("MsgRequestVoteResponse"));
    let kind = if kind == "MsgVote" {
        "MsgVoteResp"
    } else {
        kind
    };
    let kind = if kind == "MsgPreVote" {
        "MsgPreVoteResp"
    } else {
        kind
    };
    let from = rec.num("from");
    let term = rec.num("term");
    let granted = rec.get("vote") == Some("true");
    let first = if granted {
        format!("{id:x} received {kind} from {from:x} at term {term}")
    } else {
        format!("{id:x} received {kind} rejection from {from:x} at term {term}")
    };
    let mut lines = vec![("INFO", first)];
    if from != id {
        lines.push((
            "INFO",
            format!(
                "{id:x} has received {} {kind} votes and {} vote rejections",
                rec.num("approvals"),
                rec.num("rejections")
            ),
        ));
    }
    lines
}

/// The unsigned numbers in a text, in order.
fn numbers(text: &str) -> Vec<u64> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter_map(|s| s.parse().ok())
        .collect()
}

/// Records that raft-rs prints with decimal IDs or other names: rebuilt in etcd's words.
fn other_line(id: u64, rec: &RaftRecord) -> Vec<RaftLine> {
    let m = rec.msg.as_str();
    let level = match rec.level {
        slog::Level::Warning => "WARN",
        slog::Level::Error | slog::Level::Critical => "ERROR",
        _ => "INFO",
    };
    let n = numbers(m);
    let text = vote_text(rec, &n)
        .or_else(|| transfer_text(m, &n))
        .or_else(|| {
            (m.starts_with("no leader at term") || m.starts_with("cannot campaign"))
                .then(|| m.to_string())
        });
    match text {
        Some(text) => vec![(level, format!("{id:x} {text}"))],
        None => Vec::new(),
    }
}

/// A vote cast, rejected or ignored, or a message of another term, in
/// etcd's words (`n`: the numbers in raft-rs's message).
fn vote_text(rec: &RaftRecord, n: &[u64]) -> Option<String> {
    let m = rec.msg.as_str();
    let at = |i: usize| n.get(i).copied().unwrap_or(0);
    let ty = msg_type_name(rec.get("msg type").unwrap_or("MsgRequestVote"));
    let text = if m.contains("cast vote for") || m.contains("rejected vote from") {
        let verb = if m.contains("cast vote") {
            "cast"
        } else {
            "rejected"
        };
        let prep = if verb == "cast" { "for" } else { "from" };
        format!(
            "[logterm: {}, index: {}, vote: {:x}] {verb} {ty} {prep} {:x} [logterm: {}, index: {}] at term {}",
            at(0), at(1), at(2), at(3), at(4), at(5), at(6)
        )
    } else if m.contains("lease is not expired") {
        format!(
            "[logterm: {}, index: {}, vote: {:x}] ignored {ty} from {:x} [logterm: {}, index: {}] at term {}: lease is not expired (remaining ticks: {})",
            at(0),
            at(1),
            at(2),
            at(3),
            at(4),
            at(5),
            rec.num("term"),
            rec.num("remaining ticks")
        )
    } else if m.starts_with("received a message with higher term from") {
        format!(
            "[term: {}] received a {ty} message with higher term from {:x} [term: {}]",
            rec.num("term"),
            at(0),
            rec.num("message_term")
        )
    } else if m.starts_with("ignored a message with lower term from") {
        format!(
            "[term: {}] ignored a {ty} message with lower term from {:x} [term: {}]",
            rec.num("term"),
            at(0),
            rec.num("msg term")
        )
    } else {
        return None;
    };
    Some(text)
}

/// A leadership transfer's steps, in etcd's words.
fn transfer_text(m: &str, n: &[u64]) -> Option<String> {
    let at = |i: usize| n.get(i).copied().unwrap_or(0);
    let text = if m.contains("received MsgTimeoutNow from") {
        format!(
            "[term {}] received MsgTimeoutNow from {:x} and starts an election to get leadership.",
            at(0),
            at(1)
        )
    } else if m.contains("starts to transfer leadership to") {
        format!(
            "[term {}] starts to transfer leadership to {:x}",
            at(0),
            at(1)
        )
    } else if m.starts_with("sends MsgTimeoutNow to") {
        format!(
            "sends MsgTimeoutNow to {:x} immediately as {:x} already has up-to-date log",
            at(0),
            at(0)
        )
    } else if m.starts_with("sent MsgTimeoutNow to") {
        format!(
            "sent MsgTimeoutNow to {:x} after received MsgAppResp",
            at(0)
        )
    } else {
        return None;
    };
    Some(text)
}

/// etcd's `tracker.Config.String()` for a simple (non-joint) configuration.
pub fn conf_string(voters: &[u64], learners: &[u64]) -> String {
    let join = |ids: &[u64]| {
        let mut v = ids.to_vec();
        v.sort_unstable();
        v.iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut s = format!("voters=({})", join(voters));
    if !learners.is_empty() {
        s.push_str(&format!(" learners=({})", join(learners)));
    }
    s
}

/// Go time.Duration.String() for a duration in nanoseconds ("1.094543ms", "2s", "1.5s", "300ms", "0s", "1m0s", "850µs").
pub fn go_duration(nanos: u64) -> String {
    const SECOND: u64 = 1_000_000_000;
    if nanos == 0 {
        return "0s".to_string();
    }
    if nanos < SECOND {
        let (digits, unit) = match nanos {
            0..=999 => (0, "ns"),
            1_000..=999_999 => (3, "µs"),
            _ => (6, "ms"),
        };
        let (whole, frac) = split_fraction(nanos, digits);
        return format!("{whole}{frac}{unit}");
    }
    let (secs, frac) = split_fraction(nanos, 9);
    let (mins, hours) = (secs / 60, secs / 3600);
    match (hours, mins) {
        (0, 0) => format!("{secs}{frac}s"),
        (0, _) => format!("{mins}m{}{frac}s", secs % 60),
        _ => format!("{hours}h{}m{}{frac}s", mins % 60, secs % 60),
    }
}

/// Splits `v` into `v / 10^digits` and Go's `fmtFrac` text for the rest:
/// `"."` plus the zero-padded fraction with trailing zeros dropped, or `""`
/// when the fraction is zero.
fn split_fraction(v: u64, digits: u32) -> (u64, String) {
    let scale = 10u64.pow(digits);
    let frac = v % scale;
    if frac == 0 {
        return (v / scale, String::new());
    }
    let padded = format!("{frac:0width$}", width = digits as usize);
    (v / scale, format!(".{}", padded.trim_end_matches('0')))
}

/// A log line's severity, read from its text (capnslog, raft and zap forms).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

/// The level of a capnslog (`… I | …`), raft (`raft… WARN: …`) or zap (`"level":"warn"`) line.
pub fn level_of(text: &str) -> Level {
    if let Some(rest) = text.strip_prefix("{\"level\":\"") {
        return match rest.split('"').next() {
            Some("debug") => Level::Debug,
            Some("warn") => Level::Warn,
            Some("error" | "fatal" | "panic" | "dpanic") => Level::Error,
            _ => Level::Info,
        };
    }
    if text.starts_with("raft") {
        let word = text.split_whitespace().nth(2).unwrap_or("");
        return match word {
            "DEBUG:" => Level::Debug,
            "INFO:" => Level::Info,
            "WARN:" => Level::Warn,
            // raft's default logger panics through Go's log, without a level
            _ => Level::Error,
        };
    }
    if text.starts_with("panic: ") {
        return Level::Error;
    }
    match text
        .split(" | ")
        .next()
        .and_then(|head| head.chars().last())
    {
        Some('D') => Level::Debug,
        Some('W') => Level::Warn,
        Some('E' | 'C') => Level::Error,
        _ => Level::Info,
    }
}

/// etcd's `WarningApplyDuration` (`embed.DefaultWarningApplyDuration`): a
/// read-only range request that takes longer is logged as too long.
pub const WARNING_APPLY_MS: u64 = 100;

/// The bytes a protobuf varint of `v` takes.
fn varint_len(v: u64) -> u64 {
    u64::from((64 - v.max(1).leading_zeros()).div_ceil(7))
}

/// A length-delimited protobuf field of `len` bytes: tag, length, payload.
fn delimited(len: u64) -> u64 {
    1 + varint_len(len) + len
}

/// A varint field: nothing when zero (proto3), else tag and value.
fn varint_field(v: i64) -> u64 {
    if v == 0 {
        0
    } else {
        1 + varint_len(v as u64)
    }
}

/// One key-value of a range result: its key, value, revisions and version.
#[derive(Debug, Clone, Copy)]
pub struct KvSize<'a> {
    pub key: &'a [u8],
    pub value_len: u64,
    pub create_revision: i64,
    pub mod_revision: i64,
    pub version: i64,
}

/// `RangeResponse.Size()` as etcd 3.4's `warnOfExpensiveReadOnlyRangeRequest`
/// sees it: the header holds only the store's revision (the gRPC layer fills
/// the rest later), then the key-values, then `count` (`more` is never set:
/// no limit).
pub fn range_response_size(kvs: &[KvSize], revision: i64) -> u64 {
    let header = delimited(varint_field(revision));
    let kv_bytes: u64 = kvs
        .iter()
        .map(|kv| {
            let key = kv.key.len() as u64;
            let key = if key == 0 { 0 } else { delimited(key) };
            let value = if kv.value_len == 0 {
                0
            } else {
                delimited(kv.value_len)
            };
            delimited(
                key + varint_field(kv.create_revision)
                    + varint_field(kv.mod_revision)
                    + varint_field(kv.version)
                    + value,
            )
        })
        .sum();
    header + kv_bytes + varint_field(kvs.len() as i64)
}

/// `warnOfExpensiveGenericRequest`'s capnslog line for a read-only range
/// request (`request` is its protobuf text) that took `took_ms` and ended
/// with `result`: `range_response_count:N size:S`, or `error:…`.
pub fn slow_range_line(request: &str, result: &str, took_ms: u64) -> String {
    format!(
        "read-only range request {request:?} with result {result:?} took too long ({}) to execute",
        go_duration(took_ms.saturating_mul(1_000_000))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_response_sizes_are_the_recorded_ones() {
        // tests/reference-run-b/net-01-200ms-link.txt: `k1-from-2` = `r1` at
        // revision 15 weighs 29 bytes; no `health` key, 4
        let kv = KvSize {
            key: b"k1-from-2",
            value_len: 2,
            create_revision: 15,
            mod_revision: 15,
            version: 1,
        };
        assert_eq!(range_response_size(&[kv], 15), 29);
        assert_eq!(range_response_size(&[], 15), 4);
        assert_eq!(range_response_size(&[], 300), 5);
        assert_eq!(varint_len(127), 1);
        assert_eq!(varint_len(128), 2);
        assert_eq!(
            slow_range_line("key:\"k\" ", "range_response_count:0 size:4", 402),
            "read-only range request \"key:\\\"k\\\" \" with result \"range_response_count:0 size:4\" took too long (402ms) to execute"
        );
    }

    #[test]
    fn levels() {
        assert_eq!(
            level_of("2021-03-03 16:27:25.856885 I | etcdserver: x"),
            Level::Info
        );
        assert_eq!(
            level_of("2021-03-03 16:27:25.856885 W | rafthttp: x"),
            Level::Warn
        );
        assert_eq!(
            level_of("2021-03-03 16:27:25.856885 C | etcdmain: x"),
            Level::Error
        );
        assert_eq!(
            level_of("raft2021/03/03 16:27:25 WARN: 1 stepped down"),
            Level::Warn
        );
        assert_eq!(
            level_of("raft2021/03/03 16:27:25 INFO: 1 became follower"),
            Level::Info
        );
        assert_eq!(level_of("{\"level\":\"warn\",\"ts\":1}"), Level::Warn);
        assert_eq!(
            level_of("raft2026/11/24 00:58:46 tocommit(13) is out of range [lastIndex(0)]. Was the raft log corrupted, truncated, or lost?"),
            Level::Error
        );
        assert_eq!(level_of("panic: removed all voters"), Level::Error);
    }

    #[test]
    fn stamps_match_seed_000() {
        // 2021-03-03 16:25:57 UTC
        let secs = days_from_civil(2021, 3, 3) * 86_400 + 16 * 3600 + 25 * 60 + 57;
        assert_eq!(secs, 1_614_788_757);
        let s = Stamp::from_unix_ms(secs * 1000 + 5);
        assert_eq!(s.capnslog(), "2021-03-03 16:25:57.005000");
        assert_eq!(s.go_log(), "2021/03/03 16:25:57");
        assert_eq!(s.zap(), "2021-03-03T16:25:57.005Z");
        assert_eq!(s.date(secs), "Wed Mar  3 16:25:57 UTC 2021");
    }

    /// raft-rs's records of a follower restoring a snapshot, in etcd's words
    /// (the real run: tests/reference-run-b/snapshot-catch-up/n3.log).
    #[test]
    fn snapshot_restore_lines_take_etcds_words() {
        let rec = |msg: &str, kv: &[(&str, u64)]| RaftRecord {
            level: slog::Level::Info,
            msg: msg.to_string(),
            kv: kv
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        };
        let id = 0xddc94412dde9164d;
        let lines = |r: &RaftRecord| etcd_raft_lines(id, r, "voters=(1)");
        assert_eq!(
            lines(&rec("log [committed=8, persisted=8, applied=8, unstable.offset=9, unstable.entries.len()=0] starts to restore snapshot [index: 6108, term: 2]", &[])),
            vec![("INFO", "log [committed=8, applied=8, unstable.offset=9, len(unstable.Entries)=0] starts to restore snapshot [index: 6108, term: 2]".to_string())]
        );
        let kv = [
            ("commit", 6108),
            ("last_index", 6108),
            ("last_term", 2),
            ("snapshot_index", 6108),
            ("snapshot_term", 2),
        ];
        assert_eq!(
            lines(&rec("restored snapshot", &kv)),
            vec![("INFO", "ddc94412dde9164d [commit: 6108, lastindex: 6108, lastterm: 2] restored snapshot [index: 6108, term: 2]".to_string())]
        );
        assert_eq!(
            lines(&rec(
                "[commit: 6108, term: 2] restored snapshot [index: 6108, term: 2]",
                &[]
            )),
            vec![(
                "INFO",
                "ddc94412dde9164d [commit: 6108] restored snapshot [index: 6108, term: 2]"
                    .to_string()
            )]
        );
        assert_eq!(
            lines(&rec(
                "[commit: 9] ignored snapshot [index: 7, term: 2]",
                &[]
            )),
            vec![(
                "INFO",
                "ddc94412dde9164d [commit: 9] ignored snapshot [index: 7, term: 2]".to_string()
            )]
        );
    }

    #[test]
    fn conf_strings_sort_decimal() {
        assert_eq!(conf_string(&[], &[]), "voters=()");
        assert_eq!(
            conf_string(&[7883063032017194716, 5687557646807077203], &[]),
            "voters=(5687557646807077203 7883063032017194716)"
        );
        assert_eq!(conf_string(&[2], &[1]), "voters=(2) learners=(1)");
    }
}
