//! The database snapshot a leader sends a follower whose entries it compacted
//! away, as etcd 3.4 moves it: the leader merges its v2 store (in the raft
//! message) with its bbolt file (`createMergedSnapshotMessage`), rafthttp's
//! snapshot sender POSTs both to the follower's `/raft/snapshot`, whose handler
//! saves the file, hands the message to raft and only then answers, so the
//! sender hears back after raft took it. Each side logs its part, in capnslog
//! and in zap, as real etcd 3.4.23 printed them
//! (`tests/reference-run-b/snapshot-catch-up/`,
//! `tests/reference-run-b/zap/zx-snapshot-send-and-recover.log`).

use super::logfmt::go_duration;
use super::server::Ctx;
use super::zapfmt::{object, Val};

/// etcd's `releaseDelayAfterSnapshot`: a sent snapshot stays in flight (and
/// blocks log compaction) this long after the follower took it.
pub const RELEASE_DELAY_MS: u64 = 30_000;

/// One merged snapshot on its way from `from` to `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transfer {
    pub index: u64,
    pub from: u64,
    pub to: u64,
    /// The bbolt file sent behind the raft message (`db size`).
    pub db_bytes: u64,
    /// The raft message carrying the v2 store (`raft message size`).
    pub message_bytes: u64,
}

impl Transfer {
    /// What `sendMergedSnap` counts: the message and the file.
    pub fn total_bytes(&self) -> u64 {
        self.db_bytes + self.message_bytes
    }

    /// The leader starts sending: etcd's `sendMergedSnap`, then the snapshot
    /// sender, then the pipe that streams the file out.
    pub fn log_sending(&self, ctx: &mut Ctx) {
        if ctx.zap {
            self.sending_zap(ctx);
            return;
        }
        let text = format!(
            "start to send database snapshot [index: {}, to {:x}, size {}]...",
            self.index,
            self.to,
            humanize_bytes(self.total_bytes())
        );
        ctx.server('I', "rafthttp", &text);
        let text = format!(
            "wrote database snapshot out [total bytes: {}]",
            self.db_bytes
        );
        ctx.server('I', "etcdserver", &text);
    }

    fn sending_zap(&self, ctx: &mut Ctx) {
        let ts = ctx.stamp().zap();
        let merged = ("etcdserver/server.go:2127", "sending merged snapshot");
        ctx.log
            .push(self.merged_zap(("info", &ts), merged.0, merged.1, None));
        let sender = (
            "rafthttp/snapshot_sender.go:84",
            "sending database snapshot",
        );
        ctx.log.push(self.sender_zap(&ts, sender.0, sender.1));
        let fields = [("bytes", num(self.db_bytes)), ("size", size(self.db_bytes))];
        let writer = (
            "etcdserver/snapshot_merge.go:70",
            "sent database snapshot to writer",
        );
        ctx.log
            .push(object("info", &ts, writer.0, writer.1, &fields));
    }

    /// The follower's `/raft/snapshot` handler: the message arrives, the file
    /// is saved under `data_dir`, and the handler hands the message to raft.
    /// The POST's last byte arrived `transfer_ms` after its first.
    pub fn log_received(&self, ctx: &mut Ctx, data_dir: &str, transfer_ms: u64) {
        let took = go_duration(took_nanos(self.db_bytes, transfer_ms));
        if ctx.zap {
            self.received_zap(ctx, data_dir, took);
            return;
        }
        let (msg, db) = (
            humanize_bytes(self.message_bytes),
            humanize_bytes(self.db_bytes),
        );
        let (index, from) = (self.index, self.from);
        let text = format!("receiving database snapshot [index: {index}, from: {from:x}, raft message size: {msg}]");
        ctx.server('I', "rafthttp", &text);
        let text = format!(
            "saved database snapshot to disk [total bytes: {}]",
            self.db_bytes
        );
        ctx.server('I', "snap", &text);
        let text = format!(
            "successfully received and saved database snapshot [index: {index}, from: {from:x}, raft message size: {msg}, db size: {db}, took: {took}]"
        );
        ctx.server('I', "rafthttp", &text);
    }

    fn received_zap(&self, ctx: &mut Ctx, data_dir: &str, took: String) {
        let ts = ctx.stamp().zap();
        let mut fields = self.handler_fields();
        fields.push((
            "incoming-snapshot-message-size-bytes",
            num(self.message_bytes),
        ));
        fields.push(("incoming-snapshot-message-size", size(self.message_bytes)));
        let receiving = ("rafthttp/http.go:268", "receiving database snapshot");
        ctx.log
            .push(object("info", &ts, receiving.0, receiving.1, &fields));
        let path = format!("{data_dir}/member/snap/{:016x}.snap.db", self.index);
        let fields = [
            ("path", Val::Str(path)),
            ("bytes", num(self.db_bytes)),
            ("size", size(self.db_bytes)),
        ];
        let saved = ("snap/db.go:67", "saved database snapshot to disk");
        ctx.log.push(object("info", &ts, saved.0, saved.1, &fields));
        let mut fields = self.handler_fields();
        fields.push(("incoming-snapshot-size-bytes", num(self.db_bytes)));
        fields.push(("incoming-snapshot-size", size(self.db_bytes)));
        fields.push(("download-took", Val::Str(took)));
        let done = (
            "rafthttp/http.go:305",
            "received and saved database snapshot",
        );
        ctx.log.push(object("info", &ts, done.0, done.1, &fields));
    }

    /// The fields the snapshot handler's lines start with.
    fn handler_fields(&self) -> Vec<(&'static str, Val)> {
        vec![
            ("local-member-id", hex(self.to)),
            ("remote-snapshot-sender-id", hex(self.from)),
            ("incoming-snapshot-index", num(self.index)),
        ]
    }

    /// The follower answered: raft has the snapshot.
    pub fn log_sent(&self, ctx: &mut Ctx) {
        if ctx.zap {
            let ts = ctx.stamp().zap();
            ctx.log.push(self.sender_zap(
                &ts,
                "rafthttp/snapshot_sender.go:137",
                "sent database snapshot",
            ));
            return;
        }
        let text = format!(
            "database snapshot [index: {}, to: {:x}] sent out successfully",
            self.index, self.to
        );
        ctx.server('I', "rafthttp", &text);
    }

    /// The POST failed (the follower could not be reached, or refused it).
    /// zap's form of this line was not recorded: it keeps its capnslog text.
    pub fn log_failed(&self, ctx: &mut Ctx, error: &str) {
        let text = format!(
            "database snapshot [index: {}, to: {:x}] failed to be sent out ({error})",
            self.index, self.to
        );
        ctx.server('W', "rafthttp", &text);
    }

    /// zap only: the snapshot leaves the in-flight count `took_ms` after it
    /// started (capnslog says nothing here).
    pub fn log_released(&self, ctx: &mut Ctx, took_ms: u64) {
        if ctx.zap {
            let ts = ctx.stamp().zap();
            let (caller, took) = ("etcdserver/server.go:2147", Some(took_ms));
            ctx.log
                .push(self.merged_zap(("info", &ts), caller, "sent merged snapshot", took));
        }
    }

    /// zap only: the server stops while the snapshot is still on its way
    /// (the caller is the line after `sent merged snapshot` in etcd 3.4.23's
    /// `sendMergedSnap`; this line was not recorded).
    pub fn log_canceled(&self, ctx: &mut Ctx) {
        if ctx.zap {
            let ts = ctx.stamp().zap();
            let msg = "canceled sending merged snapshot; server stopping";
            let caller = "etcdserver/server.go:2152";
            ctx.log
                .push(self.merged_zap(("warn", &ts), caller, msg, None));
        }
    }

    /// `sendMergedSnap`'s lines: from, to, bytes, size (and how long it took).
    fn merged_zap(
        &self,
        (level, ts): (&str, &str),
        caller: &str,
        msg: &str,
        took_ms: Option<u64>,
    ) -> String {
        let mut fields = vec![
            ("from", hex(self.from)),
            ("to", hex(self.to)),
            ("bytes", num(self.total_bytes())),
            ("size", size(self.total_bytes())),
        ];
        if let Some(ms) = took_ms {
            fields.push(("took", Val::Str(go_duration(ms * 1_000_000))));
        }
        object(level, ts, caller, msg, &fields)
    }

    /// The snapshot sender's lines: index, peer, bytes, size.
    fn sender_zap(&self, ts: &str, caller: &str, msg: &str) -> String {
        let fields = [
            ("snapshot-index", num(self.index)),
            ("remote-peer-id", hex(self.to)),
            ("bytes", num(self.total_bytes())),
            ("size", size(self.total_bytes())),
        ];
        object("info", ts, caller, msg, &fields)
    }
}

fn num(v: u64) -> Val {
    Val::Num(v.to_string())
}

fn hex(v: u64) -> Val {
    Val::Str(format!("{v:x}"))
}

fn size(v: u64) -> Val {
    Val::Str(humanize_bytes(v))
}

/// The raft message's size: etcd's merged snapshot carries the v2 store as
/// JSON (the store's skeleton and statistics, then per member its raft and
/// client attributes, in the node tree and in the store's event history; a
/// removed member leaves its node under `removed_members` and its events).
/// Estimated as 5,100 bytes, plus 1,300 per member and 1,050 per removed ID,
/// which is what four real 3.4.23 runs sent: 7,683 bytes with two members,
/// "9.0 kB" with three, 9,837 with two members and two removed, 10,786
/// with three and two removed.
pub fn message_bytes(members: usize, removed: usize) -> u64 {
    5_100 + 1_300 * members as u64 + 1_050 * removed as u64
}

/// How long the follower takes to read and save the file: 1 ms (the fsync)
/// plus 2.5 ns a byte, which is what the real runs took on loopback (20,480
/// bytes in 1.05 ms, 405,504 bytes in 2.0 ms).
pub fn download_nanos(db_bytes: u64) -> u64 {
    1_000_000 + db_bytes * 5 / 2
}

/// The handler's `took` (etcd's `http.go`: from the moment the handler
/// starts, when the POST's head arrives with its first bytes, to the file
/// saved): it reads the body as it arrives, so a slow network sets it
/// (`transfer_ms`, from the first byte's arrival to the last's, then the
/// fsync); on a fast one the reading and saving do ([`download_nanos`]).
pub fn took_nanos(db_bytes: u64, transfer_ms: u64) -> u64 {
    let network = transfer_ms
        .saturating_mul(1_000_000)
        .saturating_add(1_000_000);
    download_nanos(db_bytes).max(network)
}

/// go-humanize's `Bytes` (SI units, as etcd and etcdctl print sizes):
/// `7.7 kB`, `406 kB`, `2.1 GB`; below ten of a unit one decimal, otherwise
/// none, rounded as Go's `%.0f` rounds (halves to even). The unit is found in
/// exact integers (go-humanize's floating-point `log` can differ only at
/// exact powers of 1000 from 1 PB up).
pub fn humanize_bytes(n: u64) -> String {
    const UNITS: [&str; 7] = ["B", "kB", "MB", "GB", "TB", "PB", "EB"];
    if n < 10 {
        return format!("{n} B");
    }
    let mut e = 0;
    let mut scale = 1u64;
    while n / scale >= 1000 && e + 1 < UNITS.len() {
        scale *= 1000;
        e += 1;
    }
    let val = ((n as f64 / scale as f64) * 10.0 + 0.5).floor() / 10.0;
    if val < 10.0 {
        format!("{val:.1} {}", UNITS[e])
    } else {
        format!("{val:.0} {}", UNITS[e])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sizes the real runs printed, with their byte counts.
    #[test]
    fn sizes_read_as_go_humanize_prints_them() {
        assert_eq!(humanize_bytes(405_504), "406 kB");
        assert_eq!(humanize_bytes(409_600), "410 kB");
        assert_eq!(humanize_bytes(417_282), "417 kB");
        assert_eq!(humanize_bytes(7_682), "7.7 kB");
        assert_eq!(humanize_bytes(2_147_483_648), "2.1 GB");
        assert_eq!(humanize_bytes(20_480), "20 kB");
        assert_eq!(humanize_bytes(7), "7 B");
        // 414.5 kB: Go's %.0f rounds the half to even
        assert_eq!(humanize_bytes(414_504), "414 kB");
    }

    #[test]
    fn the_message_size_follows_the_members() {
        assert_eq!(humanize_bytes(message_bytes(2, 0)), "7.7 kB");
        assert_eq!(humanize_bytes(message_bytes(3, 0)), "9.0 kB");
        assert_eq!(humanize_bytes(message_bytes(2, 2)), "9.8 kB");
        assert_eq!(humanize_bytes(message_bytes(3, 2)), "11 kB");
        assert_eq!(go_duration(download_nanos(20_480)), "1.0512ms");
        assert_eq!(go_duration(download_nanos(405_504)), "2.01376ms");
        // a fast network: reading and saving set it; a slow one: the bytes
        assert_eq!(took_nanos(20_480, 0), download_nanos(20_480));
        assert_eq!(go_duration(took_nanos(20_000_000, 16_400)), "16.401s");
    }
}
