//! An etcd server's configuration: the flags `etcd` was started with, after
//! defaults, as `embed.Config` holds them, and the checks `embed` makes on them.

use super::version::EtcdVersion;

/// `--initial-cluster-state`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClusterState {
    New,
    Existing,
}

/// `--logger`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Logger {
    Capnslog,
    Zap,
}

/// `embed.ErrUnsetAdvertiseClientURLsFlag`: `--listen-client-urls` set and
/// `--advertise-client-urls` not.
pub const ADVERTISE_CLIENT_URLS_REQUIRED: &str =
    "--advertise-client-urls is required when --listen-client-urls is set explicitly";

/// The flags an etcd 3.4 server runs with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EtcdConfig {
    pub name: String,
    pub data_dir: String,
    pub listen_client_urls: Vec<String>,
    pub advertise_client_urls: Vec<String>,
    pub listen_peer_urls: Vec<String>,
    pub initial_advertise_peer_urls: Vec<String>,
    /// `name=url` pairs in the order given.
    pub initial_cluster: Vec<(String, String)>,
    pub initial_cluster_state: ClusterState,
    pub initial_cluster_token: String,
    pub force_new_cluster: bool,
    pub strict_reconfig_check: bool,
    pub heartbeat_ms: u64,
    pub election_ms: u64,
    pub snapshot_count: u64,
    pub pre_vote: bool,
    pub logger: Logger,
    /// The release running (the machine's etcd, or a docker image's).
    pub version: EtcdVersion,
    /// The command line as typed (program first), which 3.5 logs.
    pub args: Vec<String>,
    /// An `ETCD_*` variable etcd could not read (`flags.SetFlagsFromEnv`):
    /// etcd stops at it while verifying its flags, before its banner.
    pub env_error: Option<String>,
}

impl Default for EtcdConfig {
    /// `embed.NewConfig()`.
    fn default() -> Self {
        EtcdConfig {
            name: "default".into(),
            data_dir: String::new(),
            listen_client_urls: vec!["http://localhost:2379".into()],
            advertise_client_urls: vec!["http://localhost:2379".into()],
            listen_peer_urls: vec!["http://localhost:2380".into()],
            initial_advertise_peer_urls: vec!["http://localhost:2380".into()],
            initial_cluster: Vec::new(),
            initial_cluster_state: ClusterState::New,
            initial_cluster_token: "etcd-cluster".into(),
            force_new_cluster: false,
            strict_reconfig_check: true,
            heartbeat_ms: 100,
            election_ms: 1000,
            snapshot_count: 100_000,
            pre_vote: false,
            logger: Logger::Capnslog,
            version: EtcdVersion::V3_4,
            args: Vec::new(),
            env_error: None,
        }
    }
}

impl EtcdConfig {
    /// `embed.NewConfig()` of a release: 3.5 turns pre-vote on and logs
    /// with zap.
    pub fn for_version(version: EtcdVersion) -> Self {
        EtcdConfig {
            pre_vote: version.pre_vote_default(),
            logger: match version {
                EtcdVersion::V3_4 => Logger::Capnslog,
                EtcdVersion::V3_5 => Logger::Zap,
            },
            version,
            ..EtcdConfig::default()
        }
    }

    /// Whether it logs zap JSON: `--logger=zap`, and always on 3.5 (whose
    /// refusal of `--logger=capnslog` is itself a zap line).
    pub fn zap(&self) -> bool {
        self.logger == Logger::Zap || self.version == EtcdVersion::V3_5
    }

    /// The data dir, defaulting to `NAME.etcd` as etcd does.
    pub fn data_dir(&self) -> String {
        if self.data_dir.is_empty() {
            format!("{}.etcd", self.name)
        } else {
            self.data_dir.clone()
        }
    }

    /// The initial cluster, defaulting to `NAME=<initial advertise peer urls>`.
    pub fn initial_cluster(&self) -> Vec<(String, String)> {
        if !self.initial_cluster.is_empty() {
            return self.initial_cluster.clone();
        }
        self.initial_advertise_peer_urls
            .iter()
            .map(|u| (self.name.clone(), u.clone()))
            .collect()
    }

    /// Election ticks: `--election-timeout / --heartbeat-interval`.
    pub fn election_ticks(&self) -> usize {
        (self.election_ms / self.heartbeat_ms.max(1)).max(2) as usize
    }

    /// etcd's `ReqTimeout`: 5 s plus two election timeouts.
    pub fn request_timeout_ms(&self) -> u64 {
        5000 + 2 * self.election_ms
    }

    /// `embed.Config.Validate`'s timing checks (etcd prints them after
    /// `error verifying flags, `).
    pub fn validate(&self) -> Result<(), String> {
        if let Some(e) = &self.env_error {
            return Err(e.clone());
        }
        if self.version == EtcdVersion::V3_5 && self.logger == Logger::Capnslog {
            return Err("--logger=capnslog is removed in v3.5".into());
        }
        if self.heartbeat_ms == 0 {
            return Err("--heartbeat-interval must be >0 (set to 0ms)".into());
        }
        if self.election_ms == 0 {
            return Err("--election-timeout must be >0 (set to 0ms)".into());
        }
        if self.heartbeat_ms.saturating_mul(5) > self.election_ms {
            return Err(format!(
                "--election-timeout[{}ms] should be at least as 5 times as --heartbeat-interval[{}ms]",
                self.election_ms, self.heartbeat_ms
            ));
        }
        if self.election_ms > 50_000 {
            return Err(format!(
                "--election-timeout[{}ms] is too long, and should be set less than 50000ms",
                self.election_ms
            ));
        }
        // checked last, as etcd does
        if self.advertise_client_urls.is_empty() {
            return Err(ADVERTISE_CLIENT_URLS_REQUIRED.into());
        }
        Ok(())
    }
}
