//! `etcd`'s flags as a configuration: what each flag of the command table
//! ([`command::ETCD_FLAGS`](super::command::ETCD_FLAGS)) sets, the `ETCD_*`
//! environment variables, and the errors etcd 3.4.23 and 3.5.1 print for bad
//! values and for flags their release does not have.

use super::command::{etcd_flag, Dialect, Flags, Kind, ETCD_FLAGS};
use crate::sim::etcd::config::{ClusterState, EtcdConfig, Logger};
use crate::sim::etcd::version::EtcdVersion;

/// What Go's flag package prints after a flag error (`etcdmain/help.go`'s
/// usage line; the same in 3.4.23 and 3.5.1).
pub const USAGE: &str = "Usage:

  etcd [flags]
    Start an etcd server.

  etcd --version
    Show the version of etcd.

  etcd -h | --help
    Show the help information about etcd.

  etcd --config-file
    Path to the server configuration file. Note that if a configuration file is provided, other command line flags and environment variables will be ignored.

  etcd gateway
    Run the stateless pass-through etcd TCP connection forwarding proxy.

  etcd grpc-proxy
    Run the stateless etcd v3 gRPC L7 reverse proxy.
";

/// Why `etcd` refused its command line: the message and exit status (Go's flag
/// package exits 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagError {
    pub message: String,
    pub status: i32,
}

/// etcd's configuration from its flags (read with [`ETCD_FLAGS`]) and
/// `env`, the machine's variables (for `ETCD_*`).
///
/// # Errors
///
/// An unknown flag, a flag without its value, or a bad value, as etcd says them.
pub fn config(
    flags: &Flags,
    env: &dyn Fn(&str) -> Option<String>,
    version: EtcdVersion,
) -> Result<EtcdConfig, FlagError> {
    if let Some(e) = refused(flags, version) {
        return Err(e);
    }
    let given: Vec<(&str, &str)> = flags.given().map(|g| (g.flag.name, g.value())).collect();
    let mut cfg = EtcdConfig::for_version(version);
    // Go's flag package reads the command line first (an error: usage,
    // status 2); then `SetFlagsFromEnv` the variables of the flags not given,
    // whose first error etcd logs as it verifies its flags (status 1)
    for (name, value) in &given {
        set(&mut cfg, name, value)
            .map_err(|e| bad(format!("invalid value {value:?} for flag -{name}: {e}")))?;
    }
    for name in ETCD_FLAGS.iter().filter(|f| f.effect).map(|f| f.name) {
        let var = env_var(name);
        if given.iter().any(|(n, _)| *n == name) {
            continue;
        }
        if let Some(v) = env(&var) {
            if let Err(e) = set(&mut cfg, name, &v) {
                cfg.env_error = Some(format!("invalid value {v:?} for {var}: {e}"));
                break;
            }
        }
    }
    // etcd drops its default advertised client URL when the listen URLs are
    // set (by flag or variable) and the advertised ones are not
    // (`configFromCmdLine`); `EtcdConfig::validate` then refuses the start.
    let is_set =
        |flag: &str| given.iter().any(|(n, _)| *n == flag) || env(&env_var(flag)).is_some();
    if is_set("listen-client-urls") && !is_set("advertise-client-urls") {
        cfg.advertise_client_urls.clear();
    }
    Ok(cfg)
}

/// The flag error Go's flag package stops at, if any: the first flag this
/// release does not have (they come before a word the table does not know,
/// as `Flags::read` stops there), else the table's own error.
pub fn refused(flags: &Flags, version: EtcdVersion) -> Option<FlagError> {
    let missing = flags
        .given()
        .find(|g| g.flag.only.is_some_and(|v| v != version));
    match (missing, &flags.error) {
        (Some(g), _) => Some(bad(format!(
            "flag provided but not defined: -{}",
            g.flag.name
        ))),
        (None, Some(e)) => Some(bad(e.message(Dialect::Go))),
        (None, None) => None,
    }
}

/// The `ETCD_*` variable that stands for a flag.
fn env_var(flag: &str) -> String {
    format!("ETCD_{}", flag.to_uppercase().replace('-', "_"))
}

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
        _ if etcd_flag(name).is_some_and(|f| f.kind == Kind::Bool) => {
            boolean(v)?;
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Flags {
        let words: Vec<String> = s.split_whitespace().map(String::from).collect();
        Flags::read(&words, Dialect::Go, etcd_flag)
    }

    fn parse(flags: &Flags, env: &dyn Fn(&str) -> Option<String>) -> Result<EtcdConfig, FlagError> {
        config(flags, env, EtcdVersion::V3_4)
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
