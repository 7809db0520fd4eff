//! `etcd`'s command line: its flags (Go `flag` package syntax: `-f`, `--f`,
//! `--f=v`, `--f v`), `ETCD_*` environment variables, defaults, and the errors
//! etcd 3.4.23 prints for unknown flags and bad values.

use crate::sim::etcd::config::{ClusterState, EtcdConfig, Logger};

/// Flags etcd 3.4 accepts that take a value and change nothing here.
pub const IGNORED_VALUE_FLAGS: &[&str] = &[
    "wal-dir",
    "listen-metrics-urls",
    "max-snapshots",
    "max-wals",
    "quota-backend-bytes",
    "backend-batch-limit",
    "backend-batch-interval",
    "max-txn-ops",
    "max-request-bytes",
    "grpc-keepalive-min-time",
    "grpc-keepalive-interval",
    "grpc-keepalive-timeout",
    "discovery",
    "discovery-fallback",
    "discovery-proxy",
    "discovery-srv",
    "discovery-srv-name",
    "auto-compaction-retention",
    "auto-compaction-mode",
    "cors",
    "host-whitelist",
    "log-outputs",
    "log-level",
    "log-package-levels",
    "proxy",
    "proxy-failure-wait",
    "proxy-refresh-interval",
    "proxy-dial-timeout",
    "proxy-write-timeout",
    "proxy-read-timeout",
    "ca-file",
    "cert-file",
    "key-file",
    "client-crl-file",
    "client-cert-allowed-hostname",
    "trusted-ca-file",
    "peer-ca-file",
    "peer-cert-file",
    "peer-key-file",
    "peer-trusted-ca-file",
    "peer-crl-file",
    "peer-cert-allowed-cn",
    "peer-cert-allowed-hostname",
    "cipher-suites",
    "auth-token",
    "bcrypt-cost",
    "config-file",
    "metrics",
    "experimental-backend-bbolt-freelist-type",
    "experimental-corrupt-check-time",
    "experimental-compaction-batch-limit",
    "experimental-peer-skip-client-san-verification",
    "experimental-watch-progress-notify-interval",
    "experimental-warning-apply-duration",
];

/// Boolean flags etcd 3.4 accepts that change nothing here.
pub const IGNORED_BOOL_FLAGS: &[&str] = &[
    "enable-v2",
    "enable-pprof",
    "debug",
    "client-cert-auth",
    "auto-tls",
    "peer-client-cert-auth",
    "peer-auto-tls",
    "initial-election-tick-advance",
    "unsafe-no-fsync",
    "experimental-initial-corrupt-check",
    "experimental-enable-v2v3",
    "experimental-enable-lease-checkpoint",
];

/// Boolean flags that change something here.
pub const BOOL_FLAGS: &[&str] = &["strict-reconfig-check", "pre-vote", "force-new-cluster"];

/// Why `etcd` refused its command line: the message and exit status (Go's flag
/// package exits 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagError {
    pub message: String,
    pub status: i32,
}

fn is_bool(name: &str) -> bool {
    BOOL_FLAGS.contains(&name) || IGNORED_BOOL_FLAGS.contains(&name) || name == "version"
}

fn is_known(name: &str) -> bool {
    is_bool(name)
        || IGNORED_VALUE_FLAGS.contains(&name)
        || matches!(
            name,
            "name"
                | "data-dir"
                | "listen-client-urls"
                | "advertise-client-urls"
                | "listen-peer-urls"
                | "initial-advertise-peer-urls"
                | "initial-cluster"
                | "initial-cluster-state"
                | "initial-cluster-token"
                | "heartbeat-interval"
                | "election-timeout"
                | "snapshot-count"
                | "logger"
        )
}

/// Parses `etcd`'s arguments; `env` holds the machine's variables (for `ETCD_*`).
pub fn parse(
    args: &[String],
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<EtcdConfig, FlagError> {
    let mut given: Vec<(String, String)> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        let Some(body) = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')) else {
            // Go's flag package stops at the first non-flag argument.
            break;
        };
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (body.to_string(), None),
        };
        if !is_known(&name) {
            return Err(bad(format!("flag provided but not defined: -{name}")));
        }
        let value = match (inline, is_bool(&name)) {
            (Some(v), _) => v,
            (None, true) => "true".to_string(),
            (None, false) => {
                i += 1;
                match args.get(i) {
                    Some(v) => v.clone(),
                    None => return Err(bad(format!("flag needs an argument: -{name}"))),
                }
            }
        };
        given.push((name, value));
        i += 1;
    }
    let mut cfg = EtcdConfig::default();
    for name in ENV_FLAGS {
        let var = format!("ETCD_{}", name.to_uppercase().replace('-', "_"));
        if given.iter().any(|(n, _)| n == name) {
            continue;
        }
        if let Some(v) = env(&var) {
            set(&mut cfg, name, &v).map_err(|e| FlagError {
                message: format!("invalid value {v:?} for {var}: {e}"),
                status: 1,
            })?;
        }
    }
    for (name, value) in &given {
        set(&mut cfg, name, value)
            .map_err(|e| bad(format!("invalid value {value:?} for flag -{name}: {e}")))?;
    }
    // etcd drops its default advertised client URL when the listen URLs are
    // set (by flag or variable) and the advertised ones are not
    // (`configFromCmdLine`); `EtcdConfig::validate` then refuses the start.
    let is_set = |flag: &str| {
        given.iter().any(|(n, _)| n == flag)
            || env(&format!("ETCD_{}", flag.to_uppercase().replace('-', "_"))).is_some()
    };
    if is_set("listen-client-urls") && !is_set("advertise-client-urls") {
        cfg.advertise_client_urls.clear();
    }
    Ok(cfg)
}

/// The flags that change something here, in the order their `ETCD_*`
/// variables are read: those with a value and the booleans of [`BOOL_FLAGS`].
pub const ENV_FLAGS: &[&str] = &[
    "name",
    "data-dir",
    "listen-client-urls",
    "advertise-client-urls",
    "listen-peer-urls",
    "initial-advertise-peer-urls",
    "initial-cluster",
    "initial-cluster-state",
    "initial-cluster-token",
    "heartbeat-interval",
    "election-timeout",
    "snapshot-count",
    "strict-reconfig-check",
    "pre-vote",
    "force-new-cluster",
    "logger",
];

fn bad(message: String) -> FlagError {
    FlagError { message, status: 2 }
}

/// A comma-separated URL list as etcd and etcdctl parse it (`types.NewURLs`).
pub fn urls(v: &str) -> Result<Vec<String>, String> {
    let list: Vec<String> = v.split(',').map(|s| s.trim().to_string()).collect();
    for u in &list {
        let ok = (u.starts_with("http://") || u.starts_with("https://"))
            && crate::sim::world::split_url(u).is_some();
        if !ok {
            return Err(format!(
                "URL scheme must be http, https, unix, or unixs: {u}"
            ));
        }
    }
    Ok(list)
}

fn number(v: &str) -> Result<u64, String> {
    v.parse().map_err(|_| "parse error".to_string())
}

fn boolean(v: &str) -> Result<bool, String> {
    match v {
        "true" | "1" | "t" | "T" | "TRUE" | "True" => Ok(true),
        "false" | "0" | "f" | "F" | "FALSE" | "False" => Ok(false),
        _ => Err("parse error".into()),
    }
}

fn initial_cluster(v: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for part in v.split(',').filter(|p| !p.is_empty()) {
        let Some((name, url)) = part.split_once('=') else {
            return Err(format!("missing '=' in {part:?}"));
        };
        urls(url)?;
        out.push((name.to_string(), url.to_string()));
    }
    Ok(out)
}

/// One flag's effect; one match for every flag that matters.
fn set(cfg: &mut EtcdConfig, name: &str, v: &str) -> Result<(), String> {
    match name {
        "name" => cfg.name = v.to_string(),
        "data-dir" => cfg.data_dir = v.to_string(),
        "listen-client-urls" => cfg.listen_client_urls = urls(v)?,
        "advertise-client-urls" => cfg.advertise_client_urls = urls(v)?,
        "listen-peer-urls" => cfg.listen_peer_urls = urls(v)?,
        "initial-advertise-peer-urls" => cfg.initial_advertise_peer_urls = urls(v)?,
        "initial-cluster" => cfg.initial_cluster = initial_cluster(v)?,
        "initial-cluster-state" => {
            cfg.initial_cluster_state = match v {
                "new" => ClusterState::New,
                "existing" => ClusterState::Existing,
                _ => return Err("invalid value".into()),
            }
        }
        "initial-cluster-token" => cfg.initial_cluster_token = v.to_string(),
        "heartbeat-interval" => cfg.heartbeat_ms = number(v)?,
        "election-timeout" => cfg.election_ms = number(v)?,
        "snapshot-count" => cfg.snapshot_count = number(v)?,
        "strict-reconfig-check" => cfg.strict_reconfig_check = boolean(v)?,
        "pre-vote" => cfg.pre_vote = boolean(v)?,
        "force-new-cluster" => cfg.force_new_cluster = boolean(v)?,
        "logger" => {
            cfg.logger = match v {
                "capnslog" => Logger::Capnslog,
                "zap" => Logger::Zap,
                _ => return Err(format!("unknown logger option {v:?}")),
            }
        }
        _ if is_bool(name) => {
            boolean(v)?;
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_and_env() {
        let env = |k: &str| (k == "ETCD_NAME").then(|| "envname".to_string());
        let cfg = parse(
            &args("--data-dir=/x -initial-cluster-state existing --pre-vote"),
            &env,
        )
        .expect("valid");
        assert_eq!(cfg.name, "envname");
        assert_eq!(cfg.data_dir, "/x");
        assert_eq!(cfg.initial_cluster_state, ClusterState::Existing);
        assert!(cfg.pre_vote);
        let cfg = parse(&args("--name flag"), &env).expect("valid");
        assert_eq!(cfg.name, "flag");
    }

    #[test]
    fn errors_match_etcd() {
        let none = |_: &str| None;
        let e = parse(&args("--foo"), &none).expect_err("unknown");
        assert_eq!(e.message, "flag provided but not defined: -foo");
        assert_eq!(e.status, 2);
        let e = parse(&args("--initial-cluster-state bogus"), &none).expect_err("bad");
        assert_eq!(
            e.message,
            "invalid value \"bogus\" for flag -initial-cluster-state: invalid value"
        );
        let e = parse(&args("--heartbeat-interval abc"), &none).expect_err("bad");
        assert_eq!(
            e.message,
            "invalid value \"abc\" for flag -heartbeat-interval: parse error"
        );
    }
}
