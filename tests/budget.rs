//! The work budget (`sim::budget`) against the attacks of issue 20, each kept
//! as a script in `tests/attacks/`: replayed as the page replays a link
//! (`Session::start_replay`, command by command until the budget is spent),
//! every one ends within its bounds, with a message that names the bound.
#![cfg(not(target_arch = "wasm32"))]

use quorum_playground::shell::parse;
use quorum_playground::shell::session::Session;
use quorum_playground::sim::budget::{self, Spent};

/// What a replay of an attack left: the outputs of the commands it typed,
/// how many it typed of how many, and which bound stopped it.
struct Replayed {
    outputs: Vec<String>,
    typed: usize,
    total: usize,
    spent: Option<Spent>,
    session: Session,
}

fn attack(name: &str) -> String {
    std::fs::read_to_string(format!("tests/attacks/{name}.sh")).expect("the attack is kept")
}

/// Replays a script as the page replays a link's commands.
fn replay(script: &str) -> Replayed {
    let commands = parse::parse_script(script).expect("parses");
    let mut session = Session::new(1);
    session.start_replay();
    let mut outputs = Vec::new();
    let mut typed = 0;
    for c in &commands {
        if session.replay_spent().is_some() {
            break;
        }
        outputs.push(session.run(&c.prompt, &c.text).output.merged());
        typed += 1;
    }
    Replayed {
        spent: session.replay_spent(),
        outputs,
        typed,
        total: commands.len(),
        session,
    }
}

#[test]
fn exponential_variables_are_refused_before_they_grow() {
    let r = replay(&attack("exponential-variables"));
    assert_eq!(r.typed, 4);
    assert_eq!(r.outputs[0], "");
    for out in &r.outputs[1..3] {
        assert!(
            out.contains(&format!(
                "longer than {} characters once its variables are expanded",
                parse::MAX_EXPANDED_CHARS
            )),
            "{out}"
        );
    }
    // Nothing changed: A is still the 4,000 characters it was set to.
    assert_eq!(r.outputs[3].len(), 4001);
}

#[test]
fn variables_hold_at_most_a_mebibyte() {
    let mut s = Session::new(1);
    let chunk = "y".repeat(60_000);
    let mut refused = None;
    for i in 0..40 {
        let out = s.run_typed(&format!("V{i}={chunk}")).output;
        if out.status != 0 {
            refused = Some((i, out.merged()));
            break;
        }
    }
    let (i, msg) = refused.expect("refused before 40 × 60 kB");
    assert_eq!(i, 17, "17 × 60 kB fit in 1 MiB");
    assert!(msg.contains("more than 1048576 bytes"), "{msg}");
    // Re-setting a variable to something shorter is always allowed.
    assert_eq!(s.run_typed("V0=short").output.status, 0);
    assert_eq!(s.run_typed(&format!("V17={chunk}")).output.status, 0);
}

#[test]
fn machines_stop_at_the_limit_with_a_message() {
    let r = replay(&attack("machines-1200"));
    assert_eq!(r.typed, 1200, "each refused at once: no work");
    assert_eq!(r.session.world.machines().len(), budget::MAX_MACHINES);
    let refusal = &r.outputs[budget::MAX_MACHINES];
    assert_eq!(
        refusal,
        "machine: this playground holds at most 16 machines (a limit that keeps the page quick)\n"
    );
    assert!(r.session.world.events() < 1000);
}

#[test]
fn a_hundred_clusters_and_a_day_are_cut_by_the_work_budget() {
    let r = replay(&attack("clusters-100-day"));
    assert_eq!(r.total, 201);
    assert_eq!(r.typed, 201, "the sleep is typed, and cut");
    // 16 clusters for a day: the sleep's own budget stops it first.
    assert_eq!(r.spent, None);
    let sleep = r.outputs.last().expect("the sleep's output");
    assert!(
        sleep.contains("one command handles at most 1500000 simulated events"),
        "{sleep}"
    );
    let events = r.session.world.events();
    assert!(events <= budget::REPLAY_EVENTS, "{events}");
    let hours = r.session.world.now_ms() / 3_600_000;
    assert!(hours < 24, "{hours} h");
}

#[test]
fn seven_hundred_ninety_servers_and_two_days_are_cut_too() {
    let r = replay(&attack("servers-790-two-days"));
    assert_eq!(r.total, 1582);
    assert_eq!(r.session.world.machines().len(), budget::MAX_MACHINES);
    let running = r
        .session
        .world
        .machines()
        .values()
        .filter(|m| m.process.is_some())
        .count();
    assert_eq!(running, budget::MAX_MACHINES);
    // Each day is cut by its command's budget, the second by the replay's.
    assert_eq!(r.spent, Some(Spent::Work));
    assert_eq!(r.typed, 1582);
    let last = r.outputs.last().expect("the second sleep's output");
    assert!(
        last.contains("a replay handles at most 3000000 simulated events"),
        "{last}"
    );
    assert_eq!(r.session.world.events(), budget::REPLAY_EVENTS);
}

#[test]
fn three_days_replay_one() {
    let r = replay(&attack("three-days"));
    assert_eq!(r.spent, Some(Spent::Time));
    assert_eq!(r.typed, 3, "the first day fills the budget");
    let start = r.session.world.now_ms() - budget::REPLAY_MS;
    assert!(
        start < 1000,
        "the clock stopped a day after the replay began"
    );
}

#[test]
fn one_typed_command_is_bounded_too() {
    let mut s = Session::new(1);
    for line in quorum_playground::lessons::CLUSTER_SCRIPT.lines() {
        if !line.trim().is_empty() && !line.starts_with('#') {
            s.run_typed(line);
        }
    }
    let before = s.world.events();
    let out = s.run_typed("sleep 24h").output;
    assert_eq!(out.status, 124);
    assert!(
        out.merged()
            .contains("one command handles at most 1500000 simulated events"),
        "{}",
        out.merged()
    );
    assert_eq!(s.world.events() - before, budget::COMMAND_EVENTS);
    // The next command has a budget of its own: the world goes on.
    let out = s.run_typed("etcdctl put a 1").output;
    assert_eq!(out.merged(), "OK\n");
}

#[test]
fn a_cluster_holds_at_most_its_members() {
    let peers: Vec<String> = (0..=budget::MAX_MEMBERS)
        .map(|i| format!("m{i}=http://10.0.9.{i}:2380"))
        .collect();
    let mut s = Session::new(1);
    s.run_typed("machine add m0 10.0.9.0");
    let out = s
        .run_typed(&format!(
            "etcd --name m0 --initial-advertise-peer-urls http://10.0.9.0:2380 --initial-cluster {}",
            peers.join(",")
        ))
        .output;
    let logs: String = s
        .world
        .logs()
        .iter()
        .map(|l| format!("{}\n", l.text))
        .collect();
    assert!(
        logs.contains(
            "--initial-cluster lists 33 members, and this playground runs clusters of at most 32"
        ),
        "{}{logs}",
        out.merged()
    );
}
