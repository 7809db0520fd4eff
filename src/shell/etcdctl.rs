//! `etcdctl` (API v3, 3.4.23) run from its typed command (its flags and
//! commands are the command table's, `shell::command`): the global flags'
//! values, each command against the world, the client's retry warnings and
//! timeouts, and its printers (simple, table, json), byte for byte.

use serde_json::{json, Value};

use super::command::{Call, Dialect, Etcdctl, Flags, Op};
use super::parse::duration_ms;
use super::print;
use super::Output;
use crate::sim::etcd::bootstrap::restore;
use crate::sim::etcd::config::EtcdConfig;
use crate::sim::etcd::datadir::{Backend, DataDir};
use crate::sim::etcd::kv::Kv;
use crate::sim::etcd::logfmt::Stamp;
use crate::sim::etcd::membership::Member;
use crate::sim::etcd::request::{
    Code, Header, Reply, Request, Response, ServerError, SnapshotData, StatusInfo,
};
use crate::sim::etcd::version::EtcdVersion;
use crate::sim::world::{CallResult, DiskItem, World};

mod check;

/// `-w`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Simple,
    Table,
    Json,
}

/// Flags of every etcdctl command. `--hex` is accepted and, as in 3.4.23 for
/// the outputs simulated here (member IDs in JSON stay decimal), changes nothing.
#[derive(Debug, Clone)]
struct Globals {
    endpoints: Vec<String>,
    format: Format,
    timeout_ms: u64,
}

/// A command line being run: its global flags resolved, and every flag given.
struct Line<'a> {
    globals: Globals,
    flags: &'a Flags,
}

impl Line<'_> {
    fn flag(&self, name: &str) -> Option<&str> {
        self.flags.get(name)
    }

    fn bool_flag(&self, name: &str) -> bool {
        self.flags.on(name)
    }
}

/// A failure with etcdctl's message and exit status.
struct Fail {
    status: i32,
    message: String,
}

fn fail(status: i32, message: impl Into<String>) -> Fail {
    Fail {
        status,
        message: message.into(),
    }
}

/// Runs one etcdctl command line from `machine`: its flags, then its global
/// flags' values (`env` holds `ETCDCTL_*`), then its command, each refused as
/// etcdctl refuses it.
pub fn run(
    world: &mut World,
    machine: &str,
    e: &Etcdctl,
    env: &dyn Fn(&str) -> Option<String>,
) -> Output {
    run_tool(world, machine, e, env, false)
}

/// `etcdutl snapshot status|restore`: etcd 3.5's offline tool runs etcdctl's
/// snapshot code without its deprecation notice (`etcdutl/snapshot_command.go`).
pub fn run_etcdutl(
    world: &mut World,
    machine: &str,
    e: &Etcdctl,
    env: &dyn Fn(&str) -> Option<String>,
) -> Output {
    run_tool(world, machine, e, env, true)
}

fn run_tool(
    world: &mut World,
    machine: &str,
    e: &Etcdctl,
    env: &dyn Fn(&str) -> Option<String>,
    etcdutl: bool,
) -> Output {
    let mut out = Output::default();
    let resolved = match &e.flags.error {
        Some(f) => Err(fail(1, f.message(Dialect::Pflag))),
        None => globals(&e.flags, env),
    };
    let line = match resolved {
        Ok(globals) => Line {
            globals,
            flags: &e.flags,
        },
        Err(f) => {
            out.err(&format!("Error: {}", f.message));
            out.status = f.status;
            return out;
        }
    };
    let mut client = Client {
        world,
        machine: machine.to_string(),
        out: &mut out,
        health_logger: false,
        client_at: None,
        etcdutl,
    };
    let done = match &e.call {
        Call::Help => Ok(()),
        Call::Unknown(other) => Err(fail(
            1,
            format!("unknown command {other:?} for \"etcdctl\"\nRun 'etcdctl --help' for usage."),
        )),
        Call::Usage(message) => Err(fail(128, message.clone())),
        Call::Run { spec, args } => {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            client.dispatch(&line, spec.id, &args)
        }
    };
    if let Err(f) = done {
        client.out.err(&format!("Error: {}", f.message));
        client.out.status = f.status;
    }
    out
}

/// The global flags' values: given, else from `ETCDCTL_*`, else the defaults.
fn globals(flags: &Flags, env: &dyn Fn(&str) -> Option<String>) -> Result<Globals, Fail> {
    let endpoints = flags
        .get("endpoints")
        .map(String::from)
        .or_else(|| env("ETCDCTL_ENDPOINTS"))
        .unwrap_or_else(|| "127.0.0.1:2379".into());
    let format = match flags
        .get("write-out")
        .map(String::from)
        .or_else(|| env("ETCDCTL_WRITE_OUT"))
        .as_deref()
    {
        None | Some("simple") => Format::Simple,
        Some("table") => Format::Table,
        Some("json") => Format::Json,
        Some(_) => return Err(fail(1, "unsupported output format")),
    };
    let timeout_ms = match flags.get("command-timeout") {
        None => 5000,
        Some(v) => duration_ms(v, false).ok_or_else(|| {
            fail(1, format!("invalid argument {v:?} for \"--command-timeout\" flag: time: invalid duration {v:?}"))
        })?,
    };
    Ok(Globals {
        endpoints: endpoints
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        format,
        timeout_ms,
    })
}

struct Client<'a> {
    world: &'a mut World,
    machine: String,
    out: &'a mut Output,
    /// etcdctl 3.5's `endpoint health` gives each endpoint's client its own
    /// production logger, `lg.Named("client")` (`ep_command.go:91,119`):
    /// its warnings say `"logger":"client"` with an epoch `ts`.
    health_logger: bool,
    /// etcdctl 3.5's client's address, drawn once per run (its gRPC target).
    client_at: Option<u64>,
    /// Run as `etcdutl` (3.5's snapshot commands, without etcdctl's notice).
    etcdutl: bool,
}

/// zap's epoch time encoder: seconds as the shortest float (`1614788767.1`).
fn epoch_seconds(wall_ms: i64) -> Value {
    let text = format!(
        "{}.{:03}",
        wall_ms.div_euclid(1000),
        wall_ms.rem_euclid(1000)
    );
    let text = text.trim_end_matches('0').trim_end_matches('.');
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// `member list -w json --hex` of etcdctl 3.5 (`printMemberListWithHexJSON`,
/// `printer_json.go:60` at v3.5.1): the IDs and the term in hex strings (the
/// term without quotes), no `isLearner`, and its `clientURLS` spelling.
fn members_hex_json(h: &Header, members: &[Member]) -> String {
    let urls = |u: &[String]| {
        let list = (!u.is_empty()).then(|| json!(u));
        go_json(&list.unwrap_or(Value::Null))
    };
    let mut s = format!(
        "{{\"header\":{{\"cluster_id\":\"{:x}\",\"member_id\":\"{:x}\",\"raft_term\":{:x}}}",
        h.cluster_id, h.member_id, h.raft_term
    );
    for (i, m) in members.iter().enumerate() {
        s.push_str(if i == 0 { ",\"members\":[" } else { "," });
        s.push_str(&format!(
            "{{\"ID\":\"{:x}\",\"name\":\"{}\",\"peerURLs\":{},\"clientURLS\":{}}}",
            m.id,
            m.name,
            urls(&m.peer_urls),
            urls(&m.client_urls)
        ));
    }
    if !members.is_empty() {
        s.push(']');
    }
    s.push('}');
    s
}

/// Whether clientv3 retries a request after an Unavailable error (immutable RPCs).
fn retried(r: &Request) -> bool {
    matches!(
        r,
        Request::Range { .. } | Request::MemberList { .. } | Request::Status
    )
}

/// etcdctl's endpoint text in gRPC targets: the URL without its scheme.
fn bare(ep: &str) -> &str {
    ep.split_once("://").map(|(_, r)| r).unwrap_or(ep)
}

impl Client<'_> {
    /// One match over etcdctl's operations (the table checked their arguments).
    fn dispatch(&mut self, l: &Line, op: Op, rest: &[&str]) -> Result<(), Fail> {
        match op {
            Op::MemberAdd => self.member_add(l, rest),
            Op::MemberRemove => self.member_id_cmd(l, rest, "removed"),
            Op::MemberPromote => self.member_id_cmd(l, rest, "promoted"),
            Op::MemberUpdate => self.member_id_cmd(l, rest, "updated"),
            Op::MemberList => self.member_list(l),
            Op::EndpointStatus => self.endpoint_status(l),
            Op::EndpointHealth => self.endpoint_health(l),
            Op::Put => self.put(l, rest),
            Op::Get => self.get(l, rest),
            Op::Del => self.del(l, rest),
            Op::MoveLeader => self.move_leader(l, rest),
            Op::SnapshotSave => self.snapshot_save(l, rest),
            Op::SnapshotStatus => self.snapshot_status(l, rest),
            Op::SnapshotRestore => self.snapshot_restore(l, rest),
            Op::CheckPerf => self.check_perf(l),
            Op::CheckDatascale => self.check_datascale(l),
            Op::Version => {
                self.out.raw(&self.version().tool_version_text("etcdctl"));
                Ok(())
            }
        }
    }

    fn header_json(&self, h: &Header, with_rev: bool) -> Value {
        if with_rev {
            json!({"cluster_id": h.cluster_id, "member_id": h.member_id, "revision": h.revision, "raft_term": h.raft_term})
        } else {
            json!({"cluster_id": h.cluster_id, "member_id": h.member_id, "raft_term": h.raft_term})
        }
    }

    /// A zap-style clientv3 warning for one failed attempt.
    fn retry_warning(&mut self, target: &str, attempt: u32, code: Code, desc: &str) {
        let ts = self.world.stamp().zap();
        let error = format!("rpc error: code = {} desc = {desc}", code.name());
        let line = match self.version() {
            EtcdVersion::V3_4 => json!({
                "level": "warn", "ts": ts, "caller": "clientv3/retry_interceptor.go:62",
                "msg": "retrying of unary invoker failed", "target": target,
                "attempt": attempt, "error": error,
            }),
            EtcdVersion::V3_5 if self.health_logger => json!({
                "level": "warn", "ts": epoch_seconds(self.world.wall_ms()), "logger": "client",
                "caller": "v3/retry_interceptor.go:62",
                "msg": "retrying of unary invoker failed", "target": target,
                "attempt": attempt, "error": error,
            }),
            // clientv3 3.5 names its logger; its module is go.etcd.io/etcd/client/v3
            EtcdVersion::V3_5 => json!({
                "level": "warn", "ts": ts, "logger": "etcd-client",
                "caller": "v3/retry_interceptor.go:62",
                "msg": "retrying of unary invoker failed", "target": target,
                "attempt": attempt, "error": error,
            }),
        };
        self.out.err(&go_json(&line));
    }

    /// The target of a connection to one endpoint (`Maintenance.Status`):
    /// 3.4 dials it alone (`passthrough:///EP`); 3.5's `Client.Dial` keeps the
    /// client's target, named after its first endpoint (client.go:299).
    fn endpoint_target(&mut self, l: &Line, ep: &str) -> String {
        match self.version() {
            EtcdVersion::V3_4 => format!("passthrough:///{ep}"),
            EtcdVersion::V3_5 => {
                let first = l.globals.endpoints.first().cloned();
                self.client_target(&first.unwrap_or_else(|| ep.to_string()))
            }
        }
    }

    /// The gRPC target clientv3 dials: 3.4 names its resolver after a client
    /// UUID, 3.5 after the client's address in memory (`etcd-endpoints://%p/`,
    /// client.go:299 at v3.5.1: one client, one address, per etcdctl run).
    fn client_target(&mut self, ep: &str) -> String {
        if self.version() == EtcdVersion::V3_5 {
            let at = match self.client_at {
                Some(at) => at,
                None => 0x30_0000 + (self.world.random_u64() % 0x4000) * 0x80,
            };
            self.client_at = Some(at);
            return format!("etcd-endpoints://0xc000{at:06x}/{}", bare(ep));
        }
        let a = self.world.random_u64();
        let b = self.world.random_u64();
        format!(
            "endpoint://client-{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}/{}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            0x8000 | (b >> 48 & 0x3fff),
            b & 0xffff_ffff_ffff,
            bare(ep)
        )
    }

    /// The etcd installed where etcdctl runs: its etcdctl is the same release.
    fn version(&self) -> EtcdVersion {
        let m = self.world.machines().get(&self.machine);
        m.map(|m| m.etcd).unwrap_or_default()
    }

    /// A member list as this etcdctl's client library sends it.
    fn member_list_request(&self) -> Request {
        let linearizable = self.version().linearizable_member_list();
        Request::MemberList { linearizable }
    }

    /// Calls one endpoint as clientv3's balancer picks it, printing retry
    /// warnings; returns the response or the error text etcdctl shows.
    fn call(&mut self, l: &Line, request: Request) -> Result<Response, String> {
        let first = l.globals.endpoints.first().cloned().unwrap_or_default();
        let target = self.client_target(&first);
        let ep = self.balanced_endpoint(l).unwrap_or(first);
        self.call_target(&ep, &target, request, l.globals.timeout_ms, false)
    }

    /// The endpoint clientv3's balancer sends an RPC to: one it could connect
    /// to. 3.5's is grpc-go 1.38's round robin, whose picker starts at a random
    /// one of its ready connections (`rrPickerBuilder.Build`:
    /// `grpcrand.Intn(len(scs))`), so with several reachable endpoints an RPC
    /// goes to any of them (09-partitions-06 at 3.5.1: with the cut member
    /// listed first, `put` and `get` went to the others). 3.4.23's own
    /// round-robin balancer lists its connections in Go's map order, random
    /// too (its recording: the `put` went to the cut member, the `get` to
    /// another); the playground's 3.4 takes the first, a simplification that
    /// keeps every 3.4 transcript, lesson and golden as they were recorded.
    fn balanced_endpoint(&mut self, l: &Line) -> Option<String> {
        let ready: Vec<String> = l
            .globals
            .endpoints
            .iter()
            .filter(|ep| self.world.can_dial(&self.machine, ep))
            .cloned()
            .collect();
        if self.version() == EtcdVersion::V3_5 && ready.len() > 1 {
            let at = self.world.random_u64() % ready.len() as u64;
            return ready.get(at as usize).cloned();
        }
        ready.into_iter().next()
    }

    fn call_target(
        &mut self,
        ep: &str,
        target: &str,
        request: Request,
        timeout_ms: u64,
        passthrough: bool,
    ) -> Result<Response, String> {
        let deadline = self.world.now_ms() + timeout_ms;
        let mut attempt = 0;
        loop {
            let left = deadline.saturating_sub(self.world.now_ms());
            let result = self.world.call(&self.machine, ep, request.clone(), left);
            match result {
                CallResult::Reply(r) => return Ok(r),
                CallResult::Deadline { dial } => {
                    let v35 = self.version() == EtcdVersion::V3_5;
                    let desc = match (dial, passthrough) {
                        (None, _) => "context deadline exceeded".to_string(),
                        // grpc-go 1.38 (etcd 3.5) names the last connection error
                        (Some(e), _) if v35 => format!(
                            "latest balancer error: last connection error: connection error: desc = \"transport: Error while dialing {e}\""
                        ),
                        (Some(e), true) => format!(
                            "latest balancer error: connection error: desc = \"transport: Error while dialing {e}\""
                        ),
                        (Some(_), false) => "latest balancer error: all SubConns are in TransientFailure".to_string(),
                    };
                    self.retry_warning(target, attempt, Code::DeadlineExceeded, &desc);
                    return Err("context deadline exceeded".into());
                }
                CallResult::Error(e) => {
                    let (code, desc) = e.status();
                    self.retry_warning(target, attempt, code, desc);
                    let again = code == Code::Unavailable && retried(&request) && attempt < 99;
                    if !again {
                        return Err(error_text(e));
                    }
                    attempt += 1;
                    let jitter = self.world.random_u64() % 6;
                    self.world
                        .apply(crate::sim::world::Action::Advance { ms: 23 + jitter })
                        .ok();
                    if self.world.now_ms() >= deadline {
                        return Err("context deadline exceeded".into());
                    }
                }
            }
        }
    }

    fn parse_id(&self, arg: Option<&&str>) -> Result<u64, Fail> {
        let Some(arg) = arg else {
            return Err(fail(128, "member ID is not provided"));
        };
        u64::from_str_radix(arg, 16).map_err(|_| {
            fail(
                128,
                format!("bad member ID arg (strconv.ParseUint: parsing {arg:?}: invalid syntax), expecting ID in Hex"),
            )
        })
    }

    fn peer_urls(&self, l: &Line) -> Result<Vec<String>, Fail> {
        let v = l.flag("peer-urls").unwrap_or("");
        if v.is_empty() {
            return Err(fail(128, "member peer urls not provided"));
        }
        super::etcd_flags::urls(v).map_err(|e| fail(128, e))
    }

    fn member_add(&mut self, l: &Line, rest: &[&str]) -> Result<(), Fail> {
        let name = rest.first().copied().unwrap_or_default();
        let urls = self.peer_urls(l)?;
        let learner = l.bool_flag("learner");
        let resp = self
            .call(
                l,
                Request::MemberAdd {
                    peer_urls: urls.clone(),
                    learner,
                },
            )
            .map_err(|e| fail(1, e))?;
        let Reply::Members {
            member: Some(m),
            members,
        } = &resp.reply
        else {
            return Ok(());
        };
        match l.globals.format {
            Format::Json => self.members_json(&resp, members, Some(m)),
            Format::Table => self.members_table(members),
            Format::Simple => {
                self.out.line(&format!(
                    "Member {:>16x} added to cluster {:>16x}",
                    m.id, resp.header.cluster_id
                ));
                self.env_block(name, m, members, &urls);
            }
        }
        Ok(())
    }

    fn env_block(&mut self, name: &str, added: &Member, members: &[Member], urls: &[String]) {
        let mut parts = Vec::new();
        for m in members {
            let n = if m.id == added.id {
                name
            } else {
                m.name.as_str()
            };
            for u in &m.peer_urls {
                parts.push(format!("{n}={u}"));
            }
        }
        self.out.line("");
        self.out.line(&format!("ETCD_NAME={name:?}"));
        self.out
            .line(&format!("ETCD_INITIAL_CLUSTER={:?}", parts.join(",")));
        self.out.line(&format!(
            "ETCD_INITIAL_ADVERTISE_PEER_URLS={:?}",
            urls.join(",")
        ));
        self.out.line("ETCD_INITIAL_CLUSTER_STATE=\"existing\"");
    }

    /// `member remove`, `promote` and `update`: the member named by its ID,
    /// and a line saying what happened to it.
    fn member_id_cmd(&mut self, l: &Line, rest: &[&str], verb: &str) -> Result<(), Fail> {
        let id = self.parse_id(rest.first())?;
        let request = match verb {
            "removed" => Request::MemberRemove { id },
            "updated" => Request::MemberUpdate {
                id,
                peer_urls: self.peer_urls(l)?,
            },
            _ => Request::MemberPromote { id },
        };
        let resp = self.call(l, request).map_err(|e| fail(1, e))?;
        let Reply::Members { members, .. } = &resp.reply else {
            return Ok(());
        };
        match l.globals.format {
            Format::Json => self.members_json(&resp, members, None),
            Format::Table => self.members_table(members),
            Format::Simple => {
                let prep = if verb == "removed" { "from" } else { "in" };
                self.out.line(&format!(
                    "Member {id:>16x} {verb} {prep} cluster {:>16x}",
                    resp.header.cluster_id
                ));
            }
        }
        Ok(())
    }

    fn member_list(&mut self, l: &Line) -> Result<(), Fail> {
        let resp = self
            .call(l, self.member_list_request())
            .map_err(|e| fail(1, e))?;
        let Reply::Members { members, .. } = &resp.reply else {
            return Ok(());
        };
        match l.globals.format {
            Format::Json if l.bool_flag("hex") && self.version() == EtcdVersion::V3_5 => {
                self.out.line(&members_hex_json(&resp.header, members));
            }
            Format::Json => self.members_json(&resp, members, None),
            Format::Table => self.members_table(members),
            Format::Simple => {
                for row in member_rows(members) {
                    self.out.line(&row.join(", "));
                }
            }
        }
        Ok(())
    }

    fn members_table(&mut self, members: &[Member]) {
        self.out
            .raw(&print::table(&MEMBER_HEADER, &member_rows(members)));
    }

    fn members_json(&mut self, resp: &Response, members: &[Member], added: Option<&Member>) {
        let list: Vec<Value> = members.iter().map(member_json).collect();
        let mut v = json!({"header": self.header_json(&resp.header, false)});
        if let Some(m) = added {
            v["member"] = member_json(m);
        }
        v["members"] = Value::Array(list);
        self.out.line(&go_json(&v));
    }

    fn endpoints_for(&mut self, l: &Line) -> Result<Vec<String>, Fail> {
        if !l.bool_flag("cluster") {
            return Ok(l.globals.endpoints.clone());
        }
        // ep_command.go's endpointsFromCluster (the same in 3.4.23 and 3.5.1)
        let resp = self.call(l, self.member_list_request()).map_err(|e| {
            fail(
                1,
                format!("failed to fetch endpoints from etcd cluster member list: {e}"),
            )
        })?;
        let Reply::Members { members, .. } = resp.reply else {
            return Ok(Vec::new());
        };
        Ok(members.iter().flat_map(|m| m.client_urls.clone()).collect())
    }

    fn endpoint_status(&mut self, l: &Line) -> Result<(), Fail> {
        let eps = self.endpoints_for(l)?;
        let mut rows: Vec<(String, Header, StatusInfo)> = Vec::new();
        let mut failed = false;
        for ep in &eps {
            let target = self.endpoint_target(l, ep);
            match self.call_target(ep, &target, Request::Status, l.globals.timeout_ms, true) {
                Ok(Response {
                    header,
                    reply: Reply::Status(s),
                }) => rows.push((ep.clone(), header, s)),
                Ok(_) => {}
                Err(e) => {
                    failed = true;
                    self.out
                        .err(&format!("Failed to get the status of endpoint {ep} ({e})"));
                }
            }
        }
        match l.globals.format {
            Format::Json => {
                let list: Vec<Value> = rows
                    .iter()
                    .map(|(ep, h, s)| status_json(ep, h, s))
                    .collect();
                self.out.line(&go_json(&Value::Array(list)));
            }
            Format::Table => {
                let header = STATUS_HEADER;
                let cells: Vec<Vec<String>> =
                    rows.iter().map(|(ep, h, s)| status_row(ep, h, s)).collect();
                self.out.raw(&print::table(&header, &cells));
            }
            Format::Simple => {
                for (ep, h, s) in &rows {
                    self.out.line(&status_row(ep, h, s).join(", "));
                }
            }
        }
        if failed {
            self.out.status = 1;
        }
        Ok(())
    }

    /// etcdctl 3.5's second question to a healthy endpoint (`ep_command.go:139`
    /// at v3.5.1): its alarms. An alarm, or no answer, makes it unhealthy.
    fn alarms(&mut self, ep: &str, target: &str, timeout: u64) -> Result<(), String> {
        match self.call_target(ep, target, Request::AlarmList, timeout, false) {
            Ok(Response {
                reply: Reply::Alarms(alarms),
                ..
            }) if !alarms.is_empty() => Err(format!("Active Alarm(s): {} ", alarms.join(" "))),
            Ok(_) => Ok(()),
            Err(_) => Err("Unable to fetch the alarm list".into()),
        }
    }

    fn endpoint_health(&mut self, l: &Line) -> Result<(), Fail> {
        let eps = self.endpoints_for(l)?;
        let mut rows = Vec::new();
        let mut unhealthy = false;
        self.health_logger = true;
        for ep in &eps {
            let start = self.world.now_ms();
            let target = self.client_target(ep);
            let req = Request::Range {
                key: "health".into(),
                prefix: false,
                serializable: false,
            };
            let res = self.call_target(ep, &target, req, l.globals.timeout_ms, false);
            let took_ns = (self.world.now_ms() - start).max(1) * 1_000_000 + 123_457;
            let took = print::go_duration(took_ns);
            let res = match res {
                Ok(_) if self.version() == EtcdVersion::V3_5 => {
                    // the same context as the read: what is left of its timeout
                    let spent = self.world.now_ms() - start;
                    self.alarms(ep, &target, l.globals.timeout_ms.saturating_sub(spent))
                }
                other => other.map(|_| ()),
            };
            match res {
                Ok(_) => rows.push(vec![ep.clone(), "true".into(), took, String::new()]),
                Err(e) => {
                    unhealthy = true;
                    rows.push(vec![ep.clone(), "false".into(), took, e]);
                }
            }
        }
        // etcdctl collects every endpoint's result, then prints them (the retry
        // warnings above were written as they happened).
        match l.globals.format {
            Format::Simple => {
                for r in &rows {
                    let line = match r[1].as_str() {
                        "true" => format!(
                            "{} is healthy: successfully committed proposal: took = {}",
                            r[0], r[2]
                        ),
                        _ => format!("{} is unhealthy: failed to commit proposal: {}", r[0], r[3]),
                    };
                    self.out.err(&line);
                }
            }
            Format::Table => {
                let header = ["endpoint", "health", "took", "error"];
                self.out.raw(&print::table(&header, &rows));
            }
            Format::Json => {
                let list: Vec<Value> = rows
                    .iter()
                    .map(|r| {
                        let mut v =
                            json!({"endpoint": r[0], "health": r[1] == "true", "took": r[2]});
                        if !r[3].is_empty() {
                            v["error"] = json!(r[3]);
                        }
                        v
                    })
                    .collect();
                self.out.line(&go_json(&Value::Array(list)));
            }
        }
        if unhealthy {
            return Err(fail(1, "unhealthy cluster"));
        }
        Ok(())
    }

    fn put(&mut self, l: &Line, rest: &[&str]) -> Result<(), Fail> {
        let (key, value) = (arg(rest, 0), arg(rest, 1));
        let resp = self
            .call(
                l,
                Request::Put {
                    key: key.to_string(),
                    value: value.to_string(),
                },
            )
            .map_err(|e| fail(1, e))?;
        match l.globals.format {
            Format::Json => {
                let v = json!({"header": self.header_json(&resp.header, true)});
                self.out.line(&go_json(&v));
            }
            _ => self.out.line("OK"),
        }
        Ok(())
    }

    fn get(&mut self, l: &Line, rest: &[&str]) -> Result<(), Fail> {
        let key = arg(rest, 0).to_string();
        let serializable = match l.flag("consistency").unwrap_or("l") {
            "l" => false,
            "s" => true,
            other => return Err(fail(4, format!("unknown consistency flag {other:?}"))),
        };
        let prefix = l.bool_flag("prefix");
        let resp = self
            .call(
                l,
                Request::Range {
                    key,
                    prefix,
                    serializable,
                },
            )
            .map_err(|e| fail(1, e))?;
        let Reply::Range(kvs) = &resp.reply else {
            return Ok(());
        };
        if l.globals.format == Format::Json {
            let list: Vec<Value> = kvs
                .iter()
                .map(|kv| {
                    json!({"key": b64(&kv.key), "create_revision": kv.create_revision,
                           "mod_revision": kv.mod_revision, "version": kv.version, "value": b64(&kv.value)})
                })
                .collect();
            let mut v = json!({"header": self.header_json(&resp.header, true)});
            if !list.is_empty() {
                v["kvs"] = Value::Array(list);
                v["count"] = json!(kvs.len());
            }
            self.out.line(&go_json(&v));
            return Ok(());
        }
        for kv in kvs {
            if !l.bool_flag("print-value-only") {
                self.out.line(&kv.key);
            }
            // --keys-only asks for no values: etcd prints an empty one
            let value = if l.bool_flag("keys-only") {
                ""
            } else {
                &kv.value
            };
            self.out.line(value);
        }
        Ok(())
    }

    fn del(&mut self, l: &Line, rest: &[&str]) -> Result<(), Fail> {
        let key = arg(rest, 0).to_string();
        let prefix = l.bool_flag("prefix");
        let resp = self
            .call(l, Request::Delete { key, prefix })
            .map_err(|e| fail(1, e))?;
        if let Reply::Delete(n) = resp.reply {
            self.out.line(&n.to_string());
        }
        Ok(())
    }

    fn move_leader(&mut self, l: &Line, rest: &[&str]) -> Result<(), Fail> {
        let text = arg(rest, 0);
        let id = u64::from_str_radix(text, 16).map_err(|_| {
            fail(
                128,
                format!("strconv.ParseUint: parsing {text:?}: invalid syntax"),
            )
        })?;
        let mut leader_ep = None;
        for ep in l.globals.endpoints.clone() {
            let target = self.endpoint_target(l, &ep);
            if let Ok(Response {
                header,
                reply: Reply::Status(s),
            }) = self.call_target(&ep, &target, Request::Status, l.globals.timeout_ms, true)
            {
                if s.leader == header.member_id && s.leader != 0 {
                    leader_ep = Some(ep);
                    break;
                }
            }
        }
        let Some(ep) = leader_ep else {
            return Err(fail(
                128,
                format!(
                    "no leader endpoint given at [{}]",
                    l.globals.endpoints.join(" ")
                ),
            ));
        };
        let target = self.client_target(&ep);
        let resp = self
            .call_target(
                &ep,
                &target,
                Request::MoveLeader { id },
                l.globals.timeout_ms,
                false,
            )
            .map_err(|e| fail(1, e))?;
        if let Reply::MoveLeader { from, to } = resp.reply {
            self.out
                .line(&format!("Leadership transferred from {from:x} to {to:x}"));
        }
        Ok(())
    }

    fn snapshot_save(&mut self, l: &Line, rest: &[&str]) -> Result<(), Fail> {
        let path = arg(rest, 0);
        let ep = l.globals.endpoints.first().cloned().unwrap_or_default();
        let part = format!("{path}.part");
        // the snapshot package's callers at v3.4.23 and v3.5.1
        let v35 = self.version() == EtcdVersion::V3_5;
        let at =
            |l34: u32, l35: u32| format!("snapshot/v3_snapshot.go:{}", if v35 { l35 } else { l34 });
        let created = at(119, 68);
        self.zap_float(
            &created,
            "created temporary db file",
            &[("path", json!(part))],
        );
        let resp = self.call(l, Request::Snapshot).map_err(|e| fail(1, e))?;
        let Reply::Snapshot(data) = resp.reply else {
            return Ok(());
        };
        self.client_info(200, 211, "opened snapshot stream; downloading");
        self.zap_float(
            &at(127, 76),
            "fetching snapshot",
            &[("endpoint", json!(ep))],
        );
        self.client_info(208, 219, "completed snapshot read; closing");
        let size = print::humanize_bytes(data.size);
        // 3.5 says how long ago it started, in words (humanize.Time)
        let took = if v35 { json!("now") } else { json!(0.002) };
        let fields = [
            ("endpoint", json!(ep)),
            ("size", json!(size)),
            ("took", took),
        ];
        self.zap_float(&at(142, 91), "fetched snapshot", &fields);
        let action = crate::sim::world::Action::WriteSnapshot {
            machine: self.machine.clone(),
            path: path.to_string(),
            data,
        };
        self.world
            .apply(action)
            .map_err(|_| fail(1, "could not write the snapshot"))?;
        self.zap_float(&at(152, 100), "saved", &[("path", json!(path))]);
        self.out.line(&format!("Snapshot saved at {path}"));
        Ok(())
    }

    /// A zap info line with a float time stamp (etcdctl's snapshot package).
    fn zap_float(&mut self, caller: &str, msg: &str, fields: &[(&str, Value)]) {
        let ms = self.world.wall_ms();
        let ts = format!("{}.{:03}", ms.div_euclid(1000), ms.rem_euclid(1000));
        let mut v = json!({"level": "info", "ts": 0, "caller": caller, "msg": msg});
        v["ts"] = serde_json::from_str(&ts).unwrap_or(json!(0));
        for (k, val) in fields {
            v[*k] = val.clone();
        }
        self.out.err(&go_json(&v));
    }

    /// clientv3's maintenance lines during a snapshot: 3.4's logger has a
    /// text time stamp; 3.5's is etcdctl's production logger named `client`.
    fn client_info(&mut self, line34: u32, line35: u32, msg: &str) {
        let v = match self.version() {
            EtcdVersion::V3_4 => {
                let caller = format!("clientv3/maintenance.go:{line34}");
                json!({"level": "info", "ts": self.world.stamp().zap(), "caller": caller, "msg": msg})
            }
            EtcdVersion::V3_5 => {
                let caller = format!("v3/maintenance.go:{line35}");
                let ts = epoch_seconds(self.world.wall_ms());
                json!({"level": "info", "ts": ts, "logger": "client", "caller": caller, "msg": msg})
            }
        };
        self.out.err(&go_json(&v));
    }

    /// etcdutl's logger (3.5, also under `etcdctl snapshot restore`): zap's
    /// console encoder, an RFC 3339 time, tabs, then the fields as JSON with
    /// spaces (`etcdutl/common.go`'s GetLogger).
    fn zap_console(&mut self, caller: &str, msg: &str, fields: &[(&str, Value)]) {
        let ts = Stamp::from_unix_ms(self.world.wall_ms()).rfc3339_seconds();
        let mut line = format!("{ts}\tinfo\t{caller}\t{msg}");
        if !fields.is_empty() {
            let parts: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{}: {}", json!(k), console_json(v)))
                .collect();
            line.push_str(&format!("\t{{{}}}", parts.join(", ")));
        }
        self.out.err(&line);
    }

    /// etcdctl 3.5's notice before the snapshot commands etcdutl took over.
    fn deprecated(&mut self, what: &str) {
        if self.version() == EtcdVersion::V3_5 && !self.etcdutl {
            self.out.err(&format!(
                "Deprecated: Use `etcdutl snapshot {what}` instead.\n"
            ));
        }
    }

    /// A snapshot file, or the backend file `DIR/member/snap/db` inside a data dir.
    fn snapshot_file(&self, path: &str) -> Result<SnapshotData, Fail> {
        let disk = self.world.machines().get(&self.machine).map(|m| &m.disk);
        let inner = path
            .strip_suffix("/member/snap/db")
            .and_then(|dir| disk.and_then(|d| d.get(dir)));
        if let Some(DiskItem::DataDir(d)) = inner {
            return Ok(db_file(d));
        }
        let item = disk.and_then(|d| d.get(path));
        match item {
            Some(DiskItem::Snapshot(d)) => Ok(d.clone()),
            Some(DiskItem::DataDir(_)) => Err(fail(1, format!("read {path}: is a directory"))),
            None => Err(fail(1, format!("stat {path}: no such file or directory"))),
        }
    }

    fn snapshot_status(&mut self, l: &Line, rest: &[&str]) -> Result<(), Fail> {
        self.deprecated("status");
        let path = arg(rest, 0);
        let d = self.snapshot_file(path)?;
        let row = vec![
            format!("{:x}", d.hash()),
            d.revision.to_string(),
            d.total_keys().to_string(),
            print::humanize_bytes(d.size),
        ];
        match l.globals.format {
            Format::Table => {
                let header = ["hash", "revision", "total keys", "total size"];
                self.out.raw(&print::table(&header, &[row]));
            }
            Format::Json => {
                let v = json!({"hash": d.hash(), "revision": d.revision, "totalKey": d.total_keys(), "totalSize": d.size});
                self.out.line(&go_json(&v));
            }
            Format::Simple => self.out.line(&row.join(", ")),
        }
        Ok(())
    }

    /// `snapshot restore`'s flags as an etcd configuration (its defaults are etcd's).
    fn restore_config(&self, l: &Line) -> Result<(EtcdConfig, String), Fail> {
        let name = l.flag("name").unwrap_or("default").to_string();
        let ic = l
            .flag("initial-cluster")
            .unwrap_or("default=http://localhost:2380");
        let adv = l
            .flag("initial-advertise-peer-urls")
            .unwrap_or("http://localhost:2380");
        let data_dir = l
            .flag("data-dir")
            .map(String::from)
            .unwrap_or_else(|| format!("{name}.etcd"));
        let mut cfg = EtcdConfig {
            name,
            initial_advertise_peer_urls: adv.split(',').map(String::from).collect(),
            initial_cluster_token: l
                .flag("initial-cluster-token")
                .unwrap_or("etcd-cluster")
                .to_string(),
            ..EtcdConfig::default()
        };
        for part in ic.split(',').filter(|p| !p.is_empty()) {
            let (n, u) = part
                .split_once('=')
                .ok_or_else(|| fail(1, format!("missing '=' in {part:?}")))?;
            cfg.initial_cluster.push((n.to_string(), u.to_string()));
        }
        Ok((cfg, data_dir))
    }

    fn snapshot_restore(&mut self, l: &Line, rest: &[&str]) -> Result<(), Fail> {
        if self.version() == EtcdVersion::V3_5 {
            self.deprecated("restore");
            return self.restore_35(l, rest);
        }
        let path = arg(rest, 0);
        let (cfg, data_dir) = self.restore_config(l)?;
        let d = self.snapshot_file(path)?;
        if self.world.path_exists(&self.machine, &data_dir) {
            return Err(fail(1, format!("data-dir {data_dir:?} exists")));
        }
        let dirs = [
            ("path", json!(path)),
            ("wal-dir", json!(format!("{data_dir}/member/wal"))),
            ("data-dir", json!(data_dir)),
            ("snap-dir", json!(format!("{data_dir}/member/snap"))),
        ];
        self.zap_float("snapshot/v3_snapshot.go:296", "restoring snapshot", &dirs);
        if !d.has_hash && !l.bool_flag("skip-hash-check") {
            return Err(self.hash_missing(&data_dir, &d));
        }
        let (dir, members, cid) = restore(&cfg, &d).map_err(|f| fail(1, f.0))?;
        for m in &members {
            let fields = [
                ("cluster-id", json!(format!("{cid:x}"))),
                ("local-member-id", json!("0")),
                ("added-peer-id", json!(format!("{:x}", m.id))),
                ("added-peer-peer-urls", json!(m.peer_urls)),
            ];
            self.zap_float("membership/cluster.go:392", "added member", &fields);
        }
        let action = crate::sim::world::Action::PutDataDir {
            machine: self.machine.clone(),
            path: data_dir.clone(),
            dir: Box::new(dir),
        };
        self.world
            .apply(action)
            .map_err(|_| fail(1, "could not write the data dir"))?;
        self.zap_float("snapshot/v3_snapshot.go:309", "restored snapshot", &dirs);
        Ok(())
    }

    /// etcd 3.5.1's restore (`etcdutl/snapshot/v3_snapshot.go`, also behind
    /// `etcdctl snapshot restore`): the same data dir as 3.4's, its console
    /// log lines, and its own refusal of a data dir that exists.
    /// A restore refused for a snapshot without its hash: etcd (3.4.23's
    /// `copyAndVerifyDB`, and 3.5.1's, etcdutl/snapshot/v3_snapshot.go:308)
    /// has already copied the db into DATA_DIR/member/snap when it checks the
    /// hash, and leaves it there: a second restore finds the dir.
    fn hash_missing(&mut self, data_dir: &str, d: &SnapshotData) -> Fail {
        let partial = DataDir {
            storage: crate::sim::etcd::raftlog::LogStorage::new(),
            id: 0,
            cluster_id: 0,
            backend: Backend {
                kv: Kv::restored(d.kvs.clone(), d.revision),
                consistent_index: d.consistent_index,
                meta_35: d.release == EtcdVersion::V3_5,
                ..Backend::default()
            },
            has_wal: false,
        };
        let put = crate::sim::world::Action::PutDataDir {
            machine: self.machine.clone(),
            path: data_dir.to_string(),
            dir: Box::new(partial),
        };
        match self.world.apply(put) {
            Ok(_) => fail(1, "snapshot missing hash but --skip-hash-check=false"),
            Err(_) => fail(1, "could not write the data dir"),
        }
    }

    fn restore_35(&mut self, l: &Line, rest: &[&str]) -> Result<(), Fail> {
        let path = arg(rest, 0);
        let (cfg, data_dir) = self.restore_config(l)?;
        let d = self.snapshot_file(path)?;
        if self.world.path_exists(&self.machine, &data_dir) {
            let text = format!("data-dir {data_dir:?} not empty or could not be read");
            return Err(fail(1, text));
        }
        let dirs = [
            ("path", json!(path)),
            ("wal-dir", json!(format!("{data_dir}/member/wal"))),
            ("data-dir", json!(data_dir)),
            ("snap-dir", json!(format!("{data_dir}/member/snap"))),
        ];
        let mut restoring = dirs.to_vec();
        restoring.push(("stack", json!(restore_stack(self.etcdutl))));
        self.zap_console(
            "snapshot/v3_snapshot.go:251",
            "restoring snapshot",
            &restoring,
        );
        if !d.has_hash && !l.bool_flag("skip-hash-check") {
            return Err(self.hash_missing(&data_dir, &d));
        }
        let (dir, members, cid) = restore(&cfg, &d).map_err(|f| fail(1, f.0))?;
        let trimming = "Trimming membership information from the backend...";
        self.zap_console("membership/store.go:141", trimming, &[]);
        for m in &members {
            let fields = [
                ("cluster-id", json!(format!("{cid:x}"))),
                ("local-member-id", json!("0")),
                ("added-peer-id", json!(format!("{:x}", m.id))),
                ("added-peer-peer-urls", json!(m.peer_urls)),
            ];
            self.zap_console("membership/cluster.go:421", "added member", &fields);
        }
        let action = crate::sim::world::Action::PutDataDir {
            machine: self.machine.clone(),
            path: data_dir.clone(),
            dir: Box::new(dir),
        };
        self.world
            .apply(action)
            .map_err(|_| fail(1, "could not write the data dir"))?;
        self.zap_console("snapshot/v3_snapshot.go:272", "restored snapshot", &dirs);
        Ok(())
    }
}

/// A field's JSON as zap's console encoder writes it: `", "` and `": "`.
fn console_json(v: &Value) -> String {
    match v {
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(console_json).collect();
            format!("[{}]", parts.join(", "))
        }
        other => go_json(other),
    }
}

/// The stack etcd 3.5.1's restore logs with its first line (`zap.Stack`),
/// as its release binaries print it: under etcdutl, or etcdctl's wrapper.
fn restore_stack(etcdutl: bool) -> String {
    const REL: &str = "/tmp/etcd-release-3.5.1/etcd/release/etcd";
    const COBRA: &str =
        "/home/remote/sbatsche/.gvm/pkgsets/go1.16.3/global/pkg/mod/github.com/spf13/cobra@v1.1.3/command.go";
    let mut frames = vec![
        (
            "go.etcd.io/etcd/etcdutl/v3/snapshot.(*v3Manager).Restore".to_string(),
            format!("{REL}/etcdutl/snapshot/v3_snapshot.go:257"),
        ),
        (
            "go.etcd.io/etcd/etcdutl/v3/etcdutl.SnapshotRestoreCommandFunc".into(),
            format!("{REL}/etcdutl/etcdutl/snapshot_command.go:147"),
        ),
    ];
    let caller = match etcdutl {
        true => (
            "go.etcd.io/etcd/etcdutl/v3/etcdutl.snapshotRestoreCommandFunc",
            format!("{REL}/etcdutl/etcdutl/snapshot_command.go:117"),
        ),
        false => (
            "go.etcd.io/etcd/etcdctl/v3/ctlv3/command.snapshotRestoreCommandFunc",
            format!("{REL}/etcdctl/ctlv3/command/snapshot_command.go:128"),
        ),
    };
    frames.push((caller.0.into(), caller.1));
    for (f, line) in [("execute", 856), ("ExecuteC", 960), ("Execute", 897)] {
        frames.push((
            format!("github.com/spf13/cobra.(*Command).{f}"),
            format!("{COBRA}:{line}"),
        ));
    }
    let tail: &[(&str, String)] = &if etcdutl {
        [
            ("main.Start", format!("{REL}/etcdutl/ctl.go:50")),
            ("main.main", format!("{REL}/etcdutl/main.go:23")),
        ]
        .to_vec()
    } else {
        [
            (
                "go.etcd.io/etcd/etcdctl/v3/ctlv3.Start",
                format!("{REL}/etcdctl/ctlv3/ctl.go:107"),
            ),
            (
                "go.etcd.io/etcd/etcdctl/v3/ctlv3.MustStart",
                format!("{REL}/etcdctl/ctlv3/ctl.go:111"),
            ),
            ("main.main", format!("{REL}/etcdctl/main.go:59")),
        ]
        .to_vec()
    };
    frames.extend(tail.iter().map(|(f, l)| (f.to_string(), l.clone())));
    frames.push((
        "runtime.main".into(),
        "/home/remote/sbatsche/.gvm/gos/go1.16.3/src/runtime/proc.go:225".into(),
    ));
    let lines: Vec<String> = frames.iter().map(|(f, l)| format!("{f}\n\t{l}")).collect();
    lines.join("\n")
}

/// The `i`th argument (the command table checked how many there are).
fn arg<'a>(rest: &[&'a str], i: usize) -> &'a str {
    rest.get(i).copied().unwrap_or_default()
}

/// What `DIR/member/snap/db` holds: the backend, without a snapshot hash
/// (with 3.5's two meta keys once a 3.5 server applied to it).
fn db_file(d: &DataDir) -> SnapshotData {
    SnapshotData {
        kvs: d.backend.kv.iter().cloned().collect(),
        revision: d.backend.kv.revision(),
        size: d.backend.kv.db_size(),
        members: d.backend.members.members.values().cloned().collect(),
        removed: d.backend.members.removed.len(),
        has_hash: false,
        consistent_index: d.backend.consistent_index,
        release: if d.backend.meta_35 {
            EtcdVersion::V3_5
        } else {
            EtcdVersion::V3_4
        },
    }
}

fn error_text(e: ServerError) -> String {
    let (_, desc) = e.status();
    match e {
        ServerError::ContextDeadline => format!("rpc error: code = Unknown desc = {desc}"),
        _ => desc.to_string(),
    }
}

/// `member list -w table`'s columns.
pub const MEMBER_HEADER: [&str; 6] = [
    "ID",
    "Status",
    "Name",
    "Peer Addrs",
    "Client Addrs",
    "Is Learner",
];

/// `endpoint status -w table`'s columns.
pub const STATUS_HEADER: [&str; 10] = [
    "endpoint",
    "ID",
    "version",
    "db size",
    "is leader",
    "is learner",
    "raft term",
    "raft index",
    "raft applied index",
    "errors",
];

/// `member list`'s cells, one row a member, as etcdctl prints them.
pub fn member_rows(members: &[Member]) -> Vec<Vec<String>> {
    members
        .iter()
        .map(|m| {
            vec![
                format!("{:x}", m.id),
                if m.is_started() {
                    "started"
                } else {
                    "unstarted"
                }
                .to_string(),
                m.name.clone(),
                m.peer_urls.join(","),
                m.client_urls.join(","),
                m.is_learner.to_string(),
            ]
        })
        .collect()
}

fn member_json(m: &Member) -> Value {
    let mut v = json!({"ID": m.id});
    if !m.name.is_empty() {
        v["name"] = json!(m.name);
    }
    v["peerURLs"] = json!(m.peer_urls);
    if !m.client_urls.is_empty() {
        v["clientURLs"] = json!(m.client_urls);
    }
    if m.is_learner {
        v["isLearner"] = json!(true);
    }
    v
}

/// `endpoint status`'s cells for one endpoint, as etcdctl prints them.
pub fn status_row(ep: &str, h: &Header, s: &StatusInfo) -> Vec<String> {
    vec![
        ep.to_string(),
        format!("{:x}", h.member_id),
        s.version.clone(),
        print::humanize_bytes(s.db_size),
        (s.leader == h.member_id).to_string(),
        s.is_learner.to_string(),
        s.raft_term.to_string(),
        s.raft_index.to_string(),
        s.raft_applied_index.to_string(),
        s.errors.join(", "),
    ]
}

fn status_json(ep: &str, h: &Header, s: &StatusInfo) -> Value {
    let mut st = json!({
        "header": {"cluster_id": h.cluster_id, "member_id": h.member_id, "revision": h.revision, "raft_term": h.raft_term},
        "version": s.version, "dbSize": s.db_size, "leader": s.leader,
        "raftIndex": s.raft_index, "raftTerm": s.raft_term, "raftAppliedIndex": s.raft_applied_index,
    });
    if !s.errors.is_empty() {
        st["errors"] = json!(s.errors);
    }
    st["dbSizeInUse"] = json!(s.db_size_in_use);
    if s.is_learner {
        st["isLearner"] = json!(true);
    }
    json!({"Endpoint": ep, "Status": st})
}

/// Go's `encoding/json` output: compact, keys in the order written (serde_json's
/// `preserve_order`).
fn go_json(v: &Value) -> String {
    v.to_string()
}

/// Go's standard base64 (etcdctl's JSON keys and values): the link's base64url
/// with the standard alphabet's last two characters, padded with `=`.
fn b64(s: &str) -> String {
    let url = crate::link::base64url_encode(s.as_bytes());
    let mut out = url.replace('-', "+").replace('_', "/");
    while !out.len().is_multiple_of(4) {
        out.push('=');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_go() {
        assert_eq!(b64("foo"), "Zm9v");
        assert_eq!(b64("bar"), "YmFy");
        assert_eq!(b64("ab"), "YWI=");
        assert_eq!(b64("a"), "YQ==");
        assert_eq!(b64("~~~?"), "fn5+Pw==");
    }
}
