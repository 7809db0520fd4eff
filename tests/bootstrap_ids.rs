//! Every static bootstrap in the reference (`transcripts/SUMMARY.md` section 1,
//! and the spec's worked examples) started in the simulation: the server logs
//! the member and cluster IDs real etcd 3.4.23 printed, and adds every member
//! of `--initial-cluster` with its real ID.
#![cfg(not(target_arch = "wasm32"))]

use quorum_playground::shell::session::Session;

struct Case {
    /// `name=url` pairs of `--initial-cluster`; the first one is started.
    cluster: &'static [(&'static str, &'static str)],
    token: Option<&'static str>,
    /// Expected member IDs in the order of `cluster`, then the cluster ID.
    ids: &'static [&'static str],
    cluster_id: &'static str,
}

const CASES: &[Case] = &[
    Case {
        cluster: &[("node01", "http://127.0.0.1:2380")],
        token: None,
        ids: &["b71f75320dc06a6c"],
        cluster_id: "1c45a069f3a1d796",
    },
    Case {
        cluster: &[("node02", "http://127.0.0.2:2380")],
        token: None,
        ids: &["23284278a2d8a0e6"],
        cluster_id: "fc16bb254946a06d",
    },
    Case {
        cluster: &[
            ("etcd-1", "http://127.0.0.1:2380"),
            ("etcd-2", "http://127.0.0.2:2380"),
            ("etcd-3", "http://127.0.0.3:2380"),
        ],
        token: None,
        ids: &["b71f75320dc06a6c", "23284278a2d8a0e6", "cc4a03f30001902d"],
        cluster_id: "6d05ff0701ee2767",
    },
    Case {
        cluster: &[
            ("node01", "http://127.0.0.1:2380"),
            ("node02", "http://127.0.0.2:2380"),
        ],
        token: None,
        ids: &["b71f75320dc06a6c", "23284278a2d8a0e6"],
        cluster_id: "e20c19704c51badd",
    },
    Case {
        cluster: &[
            ("etcd-1", "http://127.0.0.1:2380"),
            ("etcd-2", "http://127.0.0.2:2380"),
            ("etcd-3", "http://127.0.0.3:2380"),
        ],
        token: Some("other-token"),
        ids: &["bd8329bf1440b8e2", "bb2395d5e7821c33", "7a418c9a11c50ddc"],
        cluster_id: "5116bdae403e8b28",
    },
    Case {
        cluster: &[
            ("etcd-1", "http://etcd-1:2380"),
            ("etcd-2", "http://etcd-2:2380"),
            ("etcd-3", "http://etcd-3:2380"),
        ],
        token: None,
        ids: &["a3959071884acd0c", "97ecdd3706cc2d90", "1e738073e57b0810"],
        cluster_id: "1052f362c31a5266",
    },
    Case {
        cluster: &[("etcd-1", "http://etcd-1:2380")],
        token: None,
        ids: &["a3959071884acd0c"],
        cluster_id: "572a811fac16a854",
    },
    Case {
        cluster: &[
            ("etcd-1", "http://etcd-1:2380"),
            ("etcd-2", "http://etcd-2:2380"),
        ],
        token: None,
        ids: &["a3959071884acd0c", "97ecdd3706cc2d90"],
        cluster_id: "b2698d4259f33e40",
    },
    Case {
        cluster: &[
            ("etcd-1", "http://127.0.10.1:2380"),
            ("etcd-2", "http://127.0.10.2:2380"),
            ("etcd-3", "http://127.0.10.3:2380"),
        ],
        token: None,
        ids: &["8f94de6178459e0d", "3782ebeebd7ff322", "243d7a69dd304ba3"],
        cluster_id: "a00559334322efc1",
    },
    Case {
        cluster: &[("node01", "http://192.168.0.61:2380")],
        token: None,
        ids: &["4eee438bb97e1153"],
        cluster_id: "35d99f7f50aa4509",
    },
];

fn host_of(url: &str) -> &str {
    let rest = url.trim_start_matches("http://");
    rest.split(':').next().unwrap_or(rest)
}

/// Starts the first member of `c` in a fresh world and returns its log.
fn boot(c: &Case) -> String {
    let mut s = Session::new(1);
    for (name, url) in c.cluster {
        let host = host_of(url);
        let line = if host == *name {
            format!("machine add {name}")
        } else {
            format!("machine add {name} {host}")
        };
        assert_eq!(s.run_typed(&line).output.status, 0, "{line}");
    }
    let (name, url) = c.cluster[0];
    let ic: Vec<String> = c.cluster.iter().map(|(n, u)| format!("{n}={u}")).collect();
    let token = c
        .token
        .map(|t| format!(" --initial-cluster-token {t}"))
        .unwrap_or_default();
    let cmd = format!(
        "{name}$ etcd --name {name} --initial-advertise-peer-urls {url} --listen-peer-urls {url} --initial-cluster {}{token}",
        ic.join(",")
    );
    let ex = s.run_typed(&cmd);
    assert_eq!(ex.output.status, 0, "{cmd}: {}", ex.output.stderr);
    s.world
        .logs()
        .iter()
        .map(|l| format!("{}\n", l.text))
        .collect()
}

#[test]
fn static_bootstraps_give_etcds_ids() {
    for c in CASES {
        let log = boot(c);
        let start = format!("starting member {} in cluster {}", c.ids[0], c.cluster_id);
        assert!(log.contains(&start), "missing {start:?} in:\n{log}");
        for ((_, url), id) in c.cluster.iter().zip(c.ids) {
            let added = format!("added member {id} [{url}] to cluster {}", c.cluster_id);
            assert!(log.contains(&added), "missing {added:?} in:\n{log}");
        }
    }
}
