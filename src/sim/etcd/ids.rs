//! etcd 3.4's member and cluster IDs (spec §1).
//!
//! This module owns the two hashes etcd uses to name things:
//! * [`member_id`]: `membership.newMember`, used for every member, whether it
//!   comes from a static `--initial-cluster` bootstrap (token = the
//!   `--initial-cluster-token`, no time) or from a runtime `member add`
//!   (token = `""`, time = the Unix second of the request);
//! * [`cluster_id`]: `RaftCluster.genID`, computed once at bootstrap from the
//!   bootstrap members' IDs and never changed afterwards.
//!
//! Both are the first 8 bytes of a SHA-1, read big-endian. Formatting the IDs
//! (`%x`, `%16x`, decimal) is the caller's business.

use sha1::{Digest, Sha1};

/// etcd's membership.newMember ID: SHA-1 over the sorted peer URLs concatenated, then the token (cluster name), then the decimal Unix seconds if given; first 8 bytes big-endian.
pub fn member_id(peer_urls: &[String], token: &str, now_unix: Option<i64>) -> u64 {
    let mut urls: Vec<&str> = peer_urls.iter().map(String::as_str).collect();
    // Go's sort.Strings: byte-wise order, which is what `str`'s Ord is.
    urls.sort_unstable();
    let mut hasher = Sha1::new();
    for url in urls {
        hasher.update(url.as_bytes());
    }
    hasher.update(token.as_bytes());
    if let Some(secs) = now_unix {
        hasher.update(secs.to_string().as_bytes());
    }
    first_u64(&hasher.finalize())
}

/// etcd's RaftCluster.genID: SHA-1 over the member IDs sorted ascending, each 8 bytes big-endian; first 8 bytes big-endian.
pub fn cluster_id(member_ids: &[u64]) -> u64 {
    let mut ids = member_ids.to_vec();
    ids.sort_unstable();
    let mut hasher = Sha1::new();
    for id in ids {
        hasher.update(id.to_be_bytes());
    }
    first_u64(&hasher.finalize())
}

/// `binary.BigEndian.Uint64(hash[:8])`.
fn first_u64(digest: &[u8]) -> u64 {
    digest
        .iter()
        .take(8)
        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "etcd-cluster";

    fn urls(list: &[&str]) -> Vec<String> {
        list.iter().map(|u| u.to_string()).collect()
    }

    fn boot_id(url: &str, token: &str) -> u64 {
        member_id(&urls(&[url]), token, None)
    }

    /// Static bootstrap member IDs: (peer URL, token, ID). Sources: SUMMARY.md
    /// section 1, spec §1.4, seed 000.
    const MEMBERS: &[(&str, &str, u64)] = &[
        // SUMMARY.md section 1
        ("http://127.0.0.1:2380", TOKEN, 0xb71f75320dc06a6c),
        ("http://127.0.0.2:2380", TOKEN, 0x23284278a2d8a0e6),
        ("http://127.0.0.3:2380", TOKEN, 0xcc4a03f30001902d),
        ("http://127.0.0.1:2380", "other-token", 0xbd8329bf1440b8e2),
        ("http://127.0.0.2:2380", "other-token", 0xbb2395d5e7821c33),
        ("http://127.0.0.3:2380", "other-token", 0x7a418c9a11c50ddc),
        // spec §1.4: hostnames
        ("http://etcd-1:2380", TOKEN, 0xa3959071884acd0c),
        ("http://etcd-2:2380", TOKEN, 0x97ecdd3706cc2d90),
        ("http://etcd-3:2380", TOKEN, 0x1e738073e57b0810),
        // spec §1.4: etcd's default --initial-cluster
        ("http://localhost:2380", TOKEN, 0x8e9e05c52164694d),
        // spec §1.4: IP-URL cluster
        ("http://127.0.10.1:2380", TOKEN, 0x8f94de6178459e0d),
        ("http://127.0.10.2:2380", TOKEN, 0x3782ebeebd7ff322),
        ("http://127.0.10.3:2380", TOKEN, 0x243d7a69dd304ba3),
        // seed 000: node01
        ("http://192.168.0.61:2380", TOKEN, 0x4eee438bb97e1153),
    ];

    /// Static bootstrap clusters: (peer URLs, token, cluster ID).
    #[rustfmt::skip]
    const CLUSTERS: &[(&[&str], &str, u64)] = &[
        // SUMMARY.md section 1
        (&["http://127.0.0.1:2380"], TOKEN, 0x1c45a069f3a1d796),
        (&["http://127.0.0.2:2380"], TOKEN, 0xfc16bb254946a06d),
        (&["http://127.0.0.1:2380", "http://127.0.0.2:2380", "http://127.0.0.3:2380"], TOKEN, 0x6d05ff0701ee2767),
        (&["http://127.0.0.1:2380", "http://127.0.0.2:2380"], TOKEN, 0xe20c19704c51badd),
        (&["http://127.0.0.1:2380", "http://127.0.0.2:2380", "http://127.0.0.3:2380"], "other-token", 0x5116bdae403e8b28),
        // spec §1.4
        (&["http://etcd-1:2380", "http://etcd-2:2380", "http://etcd-3:2380"], TOKEN, 0x1052f362c31a5266),
        (&["http://etcd-1:2380"], TOKEN, 0x572a811fac16a854),
        (&["http://etcd-1:2380", "http://etcd-2:2380"], TOKEN, 0xb2698d4259f33e40),
        (&["http://localhost:2380"], TOKEN, 0xcdf818194e3a8c32),
        (&["http://127.0.10.1:2380", "http://127.0.10.2:2380", "http://127.0.10.3:2380"], TOKEN, 0xa00559334322efc1),
        // seed 000: single node01 (its log: "published ... to cluster 35d99f7f50aa4509")
        (&["http://192.168.0.61:2380"], TOKEN, 0x35d99f7f50aa4509),
    ];

    /// Runtime `member add` IDs: (peer URL, Unix second, ID). The seconds were
    /// found by searching around the recorded wall-clock times; each matches
    /// the `t=`/log timestamp of the add in its transcript.
    const RUNTIME: &[(&str, i64, u64)] = &[
        // spec §1.1: 2026-11-22T01:29:57Z and 01:30:36Z
        ("http://127.0.10.4:2380", 1_795_310_997, 0xc19f4ee6810d7719),
        ("http://127.0.10.4:2380", 1_795_311_036, 0x4c643c15f6ca7337),
        // transcript 02: `member add node02` at t=01:27:47
        ("http://127.0.0.2:2380", 1_795_310_867, 0x18802c19c505034b),
        // transcript 02: rejected add of node03 logged at 01:28:11
        ("http://127.0.0.3:2380", 1_795_310_891, 0xc518302a00876d02),
        // transcript 05: rejected add of node04 logged at 01:37:10
        ("http://127.0.0.4:2380", 1_795_311_430, 0xf3d7a6eb218204c7),
        // seed 000: node02 added at 2021-03-03 16:27:23 (log time, UTC)
        (
            "http://192.168.0.62:2380",
            1_614_788_843,
            0x6d66440fb5660edc,
        ),
    ];

    #[test]
    fn bootstrap_member_ids() {
        for &(url, token, want) in MEMBERS {
            let got = boot_id(url, token);
            assert_eq!(got, want, "{url} token {token}: got {got:x}, want {want:x}");
        }
    }

    #[test]
    fn bootstrap_cluster_ids() {
        for &(list, token, want) in CLUSTERS {
            let ids: Vec<u64> = list.iter().map(|u| boot_id(u, token)).collect();
            let got = cluster_id(&ids);
            assert_eq!(
                got, want,
                "{list:?} token {token}: got {got:x}, want {want:x}"
            );
        }
    }

    #[test]
    fn decimal_forms_from_the_tables() {
        assert_eq!(
            boot_id("http://127.0.0.1:2380", TOKEN),
            13195394291058371180
        );
        assert_eq!(boot_id("http://etcd-3:2380", TOKEN), 2194238678719203344);
        let ids: Vec<u64> = [
            "http://127.0.0.1:2380",
            "http://127.0.0.2:2380",
            "http://127.0.0.3:2380",
        ]
        .iter()
        .map(|u| boot_id(u, TOKEN))
        .collect();
        assert_eq!(cluster_id(&ids), 7855965530579937127);
    }

    #[test]
    fn runtime_member_add_ids() {
        for &(url, secs, want) in RUNTIME {
            let got = member_id(&urls(&[url]), "", Some(secs));
            assert_eq!(got, want, "{url} at {secs}: got {got:x}, want {want:x}");
        }
    }

    #[test]
    fn runtime_id_depends_on_token_and_second() {
        let url = urls(&["http://127.0.10.4:2380"]);
        let with_token = member_id(&url, TOKEN, Some(1_795_310_997));
        assert_ne!(with_token, 0xc19f4ee6810d7719);
        assert_ne!(member_id(&url, "", Some(1_795_310_998)), 0xc19f4ee6810d7719);
    }

    #[test]
    fn peer_url_order_does_not_matter() {
        let a = urls(&["http://10.0.0.1:2380", "http://10.0.0.1:7001"]);
        let b = urls(&["http://10.0.0.1:7001", "http://10.0.0.1:2380"]);
        assert_eq!(member_id(&a, TOKEN, None), member_id(&b, TOKEN, None));
        // sorted, then concatenated without a separator
        let joined = urls(&["http://10.0.0.1:2380http://10.0.0.1:7001"]);
        assert_eq!(member_id(&a, TOKEN, None), member_id(&joined, TOKEN, None));
    }

    #[test]
    fn member_order_does_not_matter_for_the_cluster() {
        let asc = [0x1e738073e57b0810, 0x97ecdd3706cc2d90, 0xa3959071884acd0c];
        let mixed = [0xa3959071884acd0c, 0x1e738073e57b0810, 0x97ecdd3706cc2d90];
        assert_eq!(cluster_id(&asc), cluster_id(&mixed));
        assert_eq!(cluster_id(&mixed), 0x1052f362c31a5266);
    }

    #[test]
    fn empty_inputs_do_not_panic() {
        // SHA-1 of "" starts da39a3ee5e6b4b0d.
        assert_eq!(member_id(&[], "", None), 0xda39a3ee5e6b4b0d);
        assert_eq!(cluster_id(&[]), 0xda39a3ee5e6b4b0d);
        // negative seconds format as Go's %d would
        let x = urls(&["x"]);
        assert_ne!(member_id(&x, "", Some(-1)), member_id(&x, "", None));
    }
}
