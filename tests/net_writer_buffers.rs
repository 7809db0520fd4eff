//! rafthttp's writer buffers against a broken connection (issue 16).
//!
//! A raft message that finds its NIC's queue full waits in its stream
//! writer's buffer (`streamWriter.msgc`). etcd 3.4.23's `rafthttp/stream.go`
//! drops that buffer when the writer's connection closes
//! (`closeUnlocked`: `if len(cw.msgc) > 0 { cw.r.ReportUnreachable(…) }`,
//! then `cw.msgc = make(chan raftpb.Message, streamBufSize)`), so what waited
//! never crosses a link that was cut and then healed: the stream that comes
//! back is a new connection with an empty buffer.
#![cfg(not(target_arch = "wasm32"))]

use quorum_playground::lessons::CLUSTER_SCRIPT;
use quorum_playground::shell::parse;
use quorum_playground::shell::runner::run_one;
use quorum_playground::shell::session::Session;

fn run(s: &mut Session, line: &str) {
    let out = s.run_typed(line);
    assert_eq!(out.output.status, 0, "{line}: {}", out.output.merged());
}

#[test]
fn what_waits_for_a_broken_stream_is_lost_with_it() {
    let mut s = Session::new(1);
    for c in &parse::parse_script(CLUSTER_SCRIPT).expect("the boot script") {
        run_one(&mut s, c, false, &mut String::new());
    }
    run(&mut s, "$ sleep 2");
    // 100 bytes a second and a queue of 100 bytes: heartbeats pile up
    run(&mut s, "$ net rate node01 800bit limit 100b");
    run(&mut s, "$ sleep 0.5");
    let before = (
        s.world.held("node01", "node02"),
        s.world.held("node01", "node03"),
    );
    println!("held before the cut (node02, node03): {before:?}");
    assert!(before.0 >= 2 && before.1 >= 2, "{before:?}");
    run(&mut s, "$ net cut node01->node02");
    run(&mut s, "$ sleep 0.3");
    run(&mut s, "$ net heal node01 node02");
    let after = (
        s.world.held("node01", "node02"),
        s.world.held("node01", "node03"),
    );
    println!("held after the cut healed (node02, node03): {after:?}");
    assert_eq!(after.0, 0, "the broken stream's buffer is gone: {after:?}");
    assert!(
        after.1 >= before.1,
        "node03's stream did not break: {after:?}"
    );
}
