//! Which etcd the page shows and replays (issue 18): each machine's view
//! carries its installed release and its running server's, a share link and
//! an exported script keep the world's etcd, and a lesson's `etcd:` header
//! boots and checks its world on that release.

use quorum_playground::shell::parse;
use quorum_playground::shell::runner;
use quorum_playground::shell::session::Session;
use quorum_playground::sim::etcd::version::EtcdVersion;

fn run(session: &mut Session, script: &str) -> String {
    let mut out = String::new();
    for c in parse::parse_script(script).expect("parses") {
        runner::run_one(session, &c, false, &mut out);
    }
    out
}

#[test]
fn the_view_shows_each_machines_etcd_and_the_running_servers() {
    let mut s = Session::new(1);
    run(
        &mut s,
        "machine add a 10.0.0.1\nmachine add b 10.0.0.2 --etcd-version 3.5\n\
         b$ etcd --name b --data-dir b.etcd\n",
    );
    let view = s.world.view();
    let of = |name: &str| {
        view.machines
            .iter()
            .find(|m| m.name == name)
            .expect("machine")
    };
    assert_eq!(of("a").etcd, EtcdVersion::V3_4);
    assert_eq!(of("a").etcd_shown(), EtcdVersion::V3_4);
    assert!(of("a").process.is_none());
    let b = of("b");
    assert_eq!(b.etcd, EtcdVersion::V3_5);
    assert_eq!(b.process.as_ref().map(|p| p.etcd), Some(EtcdVersion::V3_5));
    assert_eq!(b.etcd_shown().release(), "3.5.1");
    // A stopped machine switched to the other release shows the new one.
    let out = run(
        &mut s,
        "b$ kill etcd\nsleep 1\nmachine etcd-version b 3.4\n",
    );
    assert!(!out.contains("refused"), "{out}");
    let view = s.world.view();
    let b = view.machines.iter().find(|m| m.name == "b").expect("b");
    assert_eq!((b.etcd, b.process.is_none()), (EtcdVersion::V3_4, true));
}
