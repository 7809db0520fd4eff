//! Seed 000's walkthrough (`tests/scripts/seed-000.sh`, pasted with its docker
//! commands) shows what the document shows: the IDs, the add, the step-down and
//! rising terms while node02 is missing, the election, the removals, the learner
//! and its promotion.
#![cfg(not(target_arch = "wasm32"))]

use quorum_playground::shell::runner::{run_source, RunOptions};

fn transcript() -> String {
    let src = std::fs::read_to_string("tests/scripts/seed-000.sh").expect("script");
    run_source(
        &src,
        RunOptions {
            seed: 1,
            logs: true,
            ..Default::default()
        },
    )
    .expect("parses")
}

/// The index of the first line containing `needle` at or after `from`.
fn find(lines: &[&str], from: usize, needle: &str) -> usize {
    lines[from..]
        .iter()
        .position(|l| l.contains(needle))
        .map(|i| i + from)
        .unwrap_or_else(|| panic!("{needle:?} not found after line {from}"))
}

#[test]
fn the_walkthrough_reproduces_the_document() {
    let t = transcript();
    let lines: Vec<&str> = t.lines().collect();
    let start = find(
        &lines,
        0,
        "starting member 4eee438bb97e1153 in cluster 35d99f7f50aa4509",
    );
    // 3. The add at 16:27:23 gives the ID the document's log shows.
    let add = find(
        &lines,
        start,
        "Member 6d66440fb5660edc added to cluster 35d99f7f50aa4509",
    );
    assert_eq!(lines[add + 1], "");
    assert_eq!(lines[add + 2], "ETCD_NAME=\"node02\"");
    assert_eq!(
        lines[add + 5],
        "ETCD_INITIAL_CLUSTER_STATE=\"existing\"",
        "the env block as etcd 3.4 prints it (underscores, not the document's hyphens)"
    );
    find(
        &lines,
        add,
        "switched to configuration voters=(5687557646807077203 7883063032017194716)",
    );
    let down = find(
        &lines,
        add,
        "WARN: 4eee438bb97e1153 stepped down to follower since quorum is not active",
    );
    assert!(
        lines[down].contains("16:27:2"),
        "steps down about 2 s after the add: {}",
        lines[down]
    );
    find(
        &lines,
        down,
        "raft.node: 4eee438bb97e1153 lost leader 4eee438bb97e1153 at term 2",
    );
    // Rising terms, each with a vote request to node02, until node02 starts.
    let mut at = down;
    for term in 3..=40 {
        at = find(
            &lines,
            at,
            &format!("4eee438bb97e1153 became candidate at term {term}"),
        );
        at = find(&lines, at, "sent MsgVote request to 6d66440fb5660edc");
    }
    let joined = find(&lines, at, "node02$ docker run -d");
    let elected = find(
        &lines,
        joined,
        "has received 2 MsgVoteResp votes and 0 vote rejections",
    );
    let leader = find(
        &lines,
        elected,
        "raft.node: 4eee438bb97e1153 elected leader 4eee438bb97e1153 at term",
    );
    let term: u64 = lines[leader]
        .rsplit(' ')
        .next()
        .and_then(|t| t.parse().ok())
        .expect("term");
    assert!(
        (50..=70).contains(&term),
        "the document's election is at term 61; got {term}"
    );
    // 4.1 The leader's removal, and node02 electing itself.
    let rm = find(
        &lines,
        leader,
        "Member 4eee438bb97e1153 removed from cluster 35d99f7f50aa4509",
    );
    find(
        &lines,
        rm,
        "removed member 4eee438bb97e1153 from cluster 35d99f7f50aa4509",
    );
    let new_leader = find(
        &lines,
        rm,
        "changed leader from 4eee438bb97e1153 to 6d66440fb5660edc",
    );
    find(
        &lines,
        new_leader,
        "the member has been permanently removed from the cluster",
    );
    // 4.2 A follower's removal.
    find(
        &lines,
        new_leader,
        "Member 9885d7fd2cdc9cfb removed from cluster 35d99f7f50aa4509",
    );
    // 5. The learner, seen in endpoint status, then promoted.
    let learner = find(&lines, new_leader, "etcdctl member add node03 --learner");
    let status = find(
        &lines,
        learner,
        "| http://192.168.0.63:2379 | 907178cd988e15f3 |",
    );
    assert!(
        lines[status].contains("|       true |"),
        "IS LEARNER true: {}",
        lines[status]
    );
    let promoted = find(
        &lines,
        status,
        "Member 907178cd988e15f3 promoted in cluster 35d99f7f50aa4509",
    );
    let after = find(
        &lines,
        promoted,
        "| http://192.168.0.63:2379 | 907178cd988e15f3 |",
    );
    assert!(
        lines[after].contains("|      false |"),
        "a voter now: {}",
        lines[after]
    );
    find(
        &lines,
        after,
        "promote member 907178cd988e15f3 in cluster 35d99f7f50aa4509",
    );
}
