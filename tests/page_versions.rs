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

const ON_3_5: &str = "tests/lessons_etcd/on-etcd-3.5.lesson";

fn lesson_source() -> String {
    std::fs::read_to_string(ON_3_5).expect("the test lesson")
}

/// A lesson whose header says `etcd: 3.5` runs its boot cluster and its
/// later `machine add`s on 3.5.1: every block and check holds, and the same
/// lesson without the header does not (its blocks are 3.5.1's).
#[test]
fn a_lesson_header_puts_its_world_on_etcd_3_5() {
    use quorum_playground::lessons;
    let src = lesson_source();
    let lesson = lessons::parse("on-etcd-3.5", &src).expect("parses");
    assert_eq!(lesson.etcd, EtcdVersion::V3_5);
    assert_eq!(lesson.steps.len(), 3);
    assert_eq!(lessons::check(&lesson), Vec::new());
    let session = lessons::boot_session(&lesson);
    let view = session.world.view();
    assert_eq!(view.machines.len(), 3);
    assert!(view
        .machines
        .iter()
        .all(|m| m.etcd == EtcdVersion::V3_5 && m.process.is_some()));
    let on_3_4 = lessons::parse("x", &src.replace("etcd: 3.5\n", "")).expect("parses");
    assert_eq!(on_3_4.etcd, EtcdVersion::V3_4);
    let differences = lessons::check(&on_3_4);
    assert!(
        differences
            .iter()
            .any(|d| d.message.contains("3.5.1") && d.message.contains("3.4.23")),
        "{differences:?}"
    );
    // Bad values are mistakes at their line.
    for bad in ["3.6", "3.5.1", "", "latest"] {
        let e = lessons::parse("x", &src.replace("etcd: 3.5", &format!("etcd: {bad}")))
            .expect_err("refused");
        assert_eq!(e.line, 4, "{e}");
        assert!(e.to_string().contains("etcd must be `3.4` or `3.5`"), "{e}");
    }
    let twice = src.replace("etcd: 3.5\n", "etcd: 3.5\netcd: 3.4\n");
    let e = lessons::parse("x", &twice).expect_err("refused");
    assert!(e.to_string().contains("`etcd` is given twice"), "{e}");
}

/// `quorum-playground check` honours the header and says which etcd ran.
#[test]
fn check_runs_a_lesson_on_its_headers_etcd() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_quorum-playground"))
        .args(["check", ON_3_5])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_eq!(
        stdout,
        format!("{ON_3_5}: ok (3 steps, 9 commands, 2 checks, etcd 3.5.1)\n")
    );
}

/// The lesson as a page's run: its script and link keep etcd 3.5, and the
/// runner's transcript of it (`--etcd-version 3.5`) is the lesson's own run.
#[test]
fn a_lesson_on_3_5_as_a_run_keeps_its_etcd() {
    use quorum_playground::lessons;
    use quorum_playground::link::Run;
    let lesson = lessons::parse("on-etcd-3.5", &lesson_source()).expect("parses");
    let whole = runner::run_source(
        &lessons::script(&lesson),
        runner::RunOptions {
            seed: lesson.seed,
            logs: false,
            etcd: lesson.etcd,
        },
    )
    .expect("parses");
    let mut ran = String::new();
    for r in lessons::run(&lesson) {
        ran.push_str(&r.transcript());
    }
    assert!(whole.ends_with(&ran), "{whole}\n---\n{ran}");
    let mut run = Run::new(lesson.seed, lesson.start);
    run.etcd = lesson.etcd;
    let back = Run::from_link(&run.to_link().expect("fits")).expect("opens");
    assert_eq!(back.etcd, EtcdVersion::V3_5);
}
