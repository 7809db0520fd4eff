#!/usr/bin/env python3
"""Convert a real etcd 3.4.23 transcript into a Quorum Playground script.

The transcripts in shared/reference/transcripts/ were recorded by the bash
scripts in shared/reference/record/ (lib.sh explains the format). This tool
turns one of them into a script for the playground's headless runner
(`cargo run --release -- run FILE`), so that tests/transcripts.rs can replay it
and compare the output of each etcdctl command with the real one.

    python3 tools/transcript2script.py                     # the eight default scenarios
    python3 tools/transcript2script.py --partitions        # the six 09-partitions-* ones
    python3 tools/transcript2script.py T.txt [T2.txt ...]  # chosen transcripts
    python3 tools/transcript2script.py --etcd 3.5 --dir tests/reference-run-b/3.5 \
        --out tests/scripts/3.5 T.txt ...                  # the 3.5.1 recordings
    options: --dir DIR (transcripts; default ../shared/reference/transcripts)
             --out DIR (default tests/scripts)   --stdout (print, write nothing)

What the script contains:
  * `date -s` with the real run's clock, and one machine per loopback address
    (127.0.0.N), named after the etcd --name used on it (node01, etcd-1, ...);
  * each etcd start on the machine owning its peer URL address, flags verbatim
    (bash's `\\,` escapes dropped); each `[stopping X ... SIGTERM]` as `kill etcd`
    (SIGKILL: `kill -9 etcd`) on X's machine;
  * each etcdctl command on the machine its first endpoint points at (node01 by
    default); commands the playground does not have as `# skipped (REASON): ...`;
  * `sleep` lines so each command starts at the same offset from the first etcd
    start as in the real run (start = `t=` stamp - wall, 10 ms steps);
  * steps the recording script performed without echoing them (`rm -rf` of data
    dirs), from a small table below, each citing the record script's line.

The 09-partitions-* transcripts (recognised by their `$ ip netns exec pnN ...`
commands; 09-partitions-lib.sh explains them) differ, and are read strictly: a
line outside a log excerpt that the converter does not understand is an error.
  * One machine per host 10.200.0.N, named node0N after its etcd --name, also for
    hosts that only appear in a URL or a rule (node05 of a `member add`, the
    client host pn4); `ip netns exec pnN CMD` runs CMD on node0N.
  * `iptables -I INPUT -s 10.200.0.X -j DROP` in pnY (packets from X never reach
    Y) is `net cut 'node0X->node0Y'` (quoted: `>` is a redirection to the shell).
    `iptables -F INPUT` in pnY drops every rule of pnY: the converter keeps the
    set of rules and writes `net heal node0X node0Y` for each link into Y that was
    cut; `net heal` heals both directions, so when pnX still drops packets from Y
    it writes `net cut 'node0Y->node0X'` again, and the links are as in the real run.
  * Lines the recorder logged instead of echoing a command are replayed, each
    after a `# (transcript line N, not echoed: LINE)` comment:
      `[put K V via node0N: exit=... t=END]` as that put on node0N;
      `[HH:MM:SS.mmm] node0N:... | ...` (lib's terms()) as one `--command-timeout=1s
        endpoint status -w json` per member listed, each on its own host, back to back;
      `attempt K: sent at +X s after heal, answered at +Y s ...` as the command of
        its retry loop (RETRIES), sent at THEAL + X, running Y - X;
    the first two carry only their end time: they start when the recorder's sleeps
    say (LOOPS: the sleep before a loop's first step and between its steps, per
    loop, citing the record script). `[... ] leader after heal: node0N` gives only
    the last answer of a poll: that call is replayed (LAST_POLLS), the earlier
    ones are a `# skipped` comment. `timeout N` wrappers are dropped.
  * `[nN did not exit in 10 s; SIGKILL]` is `kill -9 etcd` 10 s after the SIGTERM.
  * `[TCUT=...]`, `[THEAL=...]` and other result lines become `# real run: ...`
    comments, `# ...` lines stay comments; TIMINGS and LOG EXCERPT(S) sections are
    one comment each (their heading and transcript lines), never commands.

Parsing errors fail loudly with the transcript's name and line number.
"""

import argparse
import calendar
import hashlib
import os
import re
import shlex
import struct
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

DEFAULT_SCENARIOS = [
    "01-single-node",
    "02-add-voter-quorum-loss",
    "03-remove-leader-follower",
    "04-learner",
    "05-reconfig-errors",
    "05d-strict-reconfig-off",
    "06-clustering-step-by-step",
    "07-learner-standby-failover",
]

# etcdctl commands the playground has (design/shell.md, "Clients").
SUPPORTED_ETCDCTL = {
    ("member", "add"), ("member", "remove"), ("member", "promote"),
    ("member", "update"), ("member", "list"),
    ("endpoint", "status"), ("endpoint", "health"),
    ("put",), ("get",), ("del",), ("move-leader",),
    ("snapshot", "save"), ("snapshot", "restore"), ("snapshot", "status"),
}
GROUPED_ETCDCTL = {"member", "endpoint", "snapshot"}

# etcdctl flags that take a value as the next argument when written without '='.
ETCDCTL_VALUE_FLAGS = {
    "-w", "--write-out", "--endpoints", "--command-timeout", "--dial-timeout",
    "--peer-urls", "--name", "--initial-cluster", "--initial-cluster-token",
    "--initial-advertise-peer-urls", "--data-dir", "--consistency",
}

# Why a non-etcdctl command is not replayed.
OTHER_COMMAND_REASONS = {
    "timeout": "the playground has no `timeout` and no `etcdctl watch`",
    "ls": "a listing of the real file system; the playground's disk is not one",
    "find": "a listing of the real file system; the playground's disk is not one",
    "cat": "a file of the real file system",
    "bash": "pipes (`| jq`) are not supported in the playground",
    "jq": "pipes (`| jq`) are not supported in the playground",
}

# A command's simulated run is assumed to take its real wall time minus the
# etcdctl process start-up, which the simulation does not have.
CLIENT_STARTUP_S = 0.010

# Steps the recording scripts performed without echoing them into the
# transcript. Each is inserted right after the `nth` event whose transcript line
# contains `after` (the recorder's `[stopping NAME ` or a start's log file, not
# a pid: the 3.4.23 and 3.5.1 recordings ran the same record scripts with other
# pids), on the machine owning `addr`. `command` None means the step cannot be
# replayed in the playground (shown as a comment only).
@dataclass
class HiddenStep:
    after: str
    nth: int
    addr: str
    command: Optional[str]
    source: str
    note: str = ""


HIDDEN_STEPS: Dict[str, List[HiddenStep]] = {
    "06-clustering-step-by-step": [
        HiddenStep("[stopping e2 ", 1, "127.0.0.2",
                   "rm -rf /var/tmp/etcd-gold/s06/manual/etcd-2.etcd",
                   "06-clustering-step-by-step.sh:28"),
        HiddenStep("[stopping e2 ", 2, "127.0.0.2",
                   "rm -rf /var/tmp/etcd-gold/s06/manual/etcd-2.etcd",
                   "06-clustering-step-by-step.sh:41"),
        HiddenStep("log -> etcd-2-existing.log", 1, "127.0.0.2",
                   "rm -rf /var/tmp/etcd-gold/s06/manual/etcd-2.etcd",
                   "06-clustering-step-by-step.sh:46"),
        HiddenStep("[stopping e1 ", 5, "127.0.0.1",
                   "rm -rf /var/tmp/etcd-gold/s06/staticA/etcd-1.etcd",
                   "06-clustering-step-by-step.sh:110"),
        HiddenStep("log -> etcd-1-nodata.log", 1, "127.0.0.1",
                   "rm -rf /var/tmp/etcd-gold/s06/staticA/etcd-1.etcd",
                   "06-clustering-step-by-step.sh:113"),
        HiddenStep("[stopping e1 ", 6, "127.0.0.1",
                   "rm -rf /var/tmp/etcd-gold/s06/staticA/etcd-1.etcd",
                   "06-clustering-step-by-step.sh:130"),
        HiddenStep("[stopping e1 ", 6, "127.0.0.2",
                   "rm -rf /var/tmp/etcd-gold/s06/staticA/etcd-2.etcd",
                   "06-clustering-step-by-step.sh:130"),
        HiddenStep("[stopping e1 ", 6, "127.0.0.3",
                   "rm -rf /var/tmp/etcd-gold/s06/staticA/etcd-3.etcd",
                   "06-clustering-step-by-step.sh:130"),
        HiddenStep("[stopping e3 ", 5, "127.0.0.2",
                   "rm -rf /var/tmp/etcd-gold/s06/restored/etcd-2.etcd",
                   "06-clustering-step-by-step.sh:148"),
        HiddenStep("[stopping e3 ", 5, "127.0.0.3",
                   "rm -rf /var/tmp/etcd-gold/s06/restored/etcd-3.etcd",
                   "06-clustering-step-by-step.sh:148"),
    ],
    "07-learner-standby-failover": [
        HiddenStep("[stopping n2 ", 1, "127.0.0.2",
                   "cp -a /var/tmp/etcd-gold/s07/node02 /var/tmp/etcd-gold/s07/node02-backup",
                   "07-learner-standby-failover.sh:45"),
    ],
}


# The recorder's `wait_healthy EP` (lib.sh:66): an `etcdctl endpoint health`
# it ran, unechoed, until the member answered. On etcd 3.4.23 a health check is
# a read and leaves nothing behind; on 3.5.1 it also asks for the alarm list,
# which etcd serves through raft, so each one adds an entry to the log (RAFT
# INDEX). For the 3.5 recordings, each start listed here (by the text of its
# transcript line, in order) is followed by a health check of these client
# addresses, run just before the next recorded step. Sources: the record
# scripts' `wait_healthy` lines, and lib.sh's build_two (:139-156).
WAIT_HEALTHY_35: Dict[str, List[Tuple[str, List[str], str]]] = {
    "01-single-node": [("s01/node01 ", ["127.0.0.1"], "01-single-node.sh:13")],
    "02-add-voter-quorum-loss": [
        ("s02/node01 ", ["127.0.0.1"], "02-add-voter-quorum-loss.sh:13"),
        ("s02/node02 ", ["127.0.0.1", "127.0.0.2"], "02-add-voter-quorum-loss.sh:48-49"),
    ],
    "03-remove-leader-follower": [
        (f"{part}/node0{n} ", [f"127.0.0.{n}"], "lib.sh:144,155 (build_two)")
        for part in ("s03a", "s03b", "s03c") for n in (1, 2)
    ],
    "04-learner": [("s04/node01 ", ["127.0.0.1"], "04-learner.sh:12")],
    "05-reconfig-errors": [
        ("s05a/node01 ", ["127.0.0.1"], "lib.sh:144 (build_two)"),
        ("s05a/node02 ", ["127.0.0.2"], "lib.sh:155 (build_two)"),
        ("s05a/node03 ", ["127.0.0.3"], "05-reconfig-errors.sh:37"),
        ("s05a/node02 ", ["127.0.0.2"], "05-reconfig-errors.sh:66"),
        ("s05b/node03 ", ["127.0.0.1", "127.0.0.2", "127.0.0.3"], "05-reconfig-errors.sh:75"),
    ],
    "05d-strict-reconfig-off": [
        ("s05d/node03 ", ["127.0.0.1", "127.0.0.2", "127.0.0.3"],
         "05d-strict-reconfig-off.sh:12"),
    ],
    "06-clustering-step-by-step": [
        ("s06/manual/etcd-1.etcd ", ["127.0.0.1"], "06-clustering-step-by-step.sh:21"),
        ("s06/manual/etcd-2.etcd ", ["127.0.0.2"], "06-clustering-step-by-step.sh:25"),
        # not the start of 6.3 (the same data dir, no wait_healthy): 6.5's
        ("existing   # started in background as 'e2', log -> etcd-2.log ", ["127.0.0.2"],
         "06-clustering-step-by-step.sh:50"),
        ("s06/manual/etcd-3.etcd ", ["127.0.0.3"], "06-clustering-step-by-step.sh:56"),
        ("s06/staticA/etcd-3.etcd ", ["127.0.0.1", "127.0.0.2", "127.0.0.3"],
         "06-clustering-step-by-step.sh:76"),
        ("s06/staticB/etcd-3.etcd ", ["127.0.0.1", "127.0.0.2", "127.0.0.3"],
         "06-clustering-step-by-step.sh:76"),
        ("s06/staticA/etcd-3.etcd ", ["127.0.0.1", "127.0.0.2", "127.0.0.3"],
         "06-clustering-step-by-step.sh:97"),
        ("s06/staticA/etcd-1.etcd ", ["127.0.0.1"], "06-clustering-step-by-step.sh:105"),
        ("log -> etcd-1b.log ", ["127.0.0.1"], "06-clustering-step-by-step.sh:119"),
        ("s06/restored/etcd-3.etcd ", ["127.0.0.1", "127.0.0.2", "127.0.0.3"],
         "06-clustering-step-by-step.sh:136"),
        ("--force-new-cluster ", ["127.0.0.1"], "06-clustering-step-by-step.sh:153"),
        ("log -> etcd-2-new.log ", ["127.0.0.2"], "06-clustering-step-by-step.sh:161"),
        ("log -> etcd-3-new.log ", ["127.0.0.3"], "06-clustering-step-by-step.sh:165"),
    ],
    # build_two's node02 is a learner: wait_port, not wait_healthy (lib.sh:157)
    "07-learner-standby-failover": [
        ("s07/node01 ", ["127.0.0.1"], "lib.sh:144 (build_two)"),
        ("s07/node02-partial ", ["127.0.0.2"], "07-learner-standby-failover.sh:74"),
        ("s07/node02-restored ", ["127.0.0.2"], "07-learner-standby-failover.sh:85"),
    ],
    # tools/record-3.5/10-rolling-upgrade.sh; its etcdctl is 3.5.1 against
    # 3.4.23 members too, and a 3.4.23 server also serves the alarm list
    # through raft
    "10-rolling-upgrade": [
        ("s10/node03 ", ["127.0.0.1", "127.0.0.2", "127.0.0.3"], "10-rolling-upgrade.sh:35"),
        ("s10/node01 ", ["127.0.0.1"], "10-rolling-upgrade.sh:45"),
        ("s10/node02 ", ["127.0.0.2"], "10-rolling-upgrade.sh:45"),
        ("s10/node03 ", ["127.0.0.3"], "10-rolling-upgrade.sh:45"),
        ("s10/node03 ", ["127.0.0.3"], "10-rolling-upgrade.sh:70"),
    ],
    # the partition scenarios (09-partitions-lib.sh:76): each wait_healthy asks
    # the member from its own namespace, after every member of the cluster started
    "09-partitions-01-leader-isolated": [
        ("s01/node03 ", [f"10.200.0.{n}" for n in (1, 2, 3)],
         "09-partitions-01-leader-isolated.sh:17"),
    ],
    "09-partitions-02-follower-isolated": [
        ("s02/node03 ", [f"10.200.0.{n}" for n in (1, 2, 3)], "09-partitions-lib.sh:124 (start3)"),
    ],
    "09-partitions-03-four-members": [
        (f"{d}/node03 ", [f"10.200.0.{n}" for n in (1, 2, 3)], "09-partitions-lib.sh:124 (start3)")
        for d in ("s03a", "s03b1", "s03b2", "s03c")
    ],
    "09-partitions-04-one-way": [
        (f"{d}/node03 ", [f"10.200.0.{n}" for n in (1, 2, 3)], "09-partitions-lib.sh:124 (start3)")
        for d in ("s04A", "s04B")
    ],
    # node03 joins as a learner: wait_port, not wait_healthy (09-partitions-05-learner.sh:24)
    "09-partitions-05-learner": [
        (f"{d}/node02 ", ["10.200.0.1", "10.200.0.2"], "09-partitions-05-learner.sh:17")
        for d in ("s05a", "s05b")
    ],
    "09-partitions-06-client-timeouts": [
        ("s06/node03 ", [f"10.200.0.{n}" for n in (1, 2, 3)], "09-partitions-lib.sh:124 (start3)"),
    ],
}


# Recordings whose etcdctl and curl are not the members' own: the rolling
# upgrade switches the members' etcd between 3.4.23 and 3.5.1 while the
# recorder's etcdctl stays 3.5.1 (tools/record-3.5/record.sh puts it first on
# PATH). Their commands run on a machine of their own at this address, which
# keeps the runner's release.
CLIENT_MACHINE: Dict[str, str] = {"10-rolling-upgrade": "127.0.0.100"}


class ConvertError(Exception):
    """A transcript line the converter does not understand."""


# ---------------------------------------------------------------- parsing

@dataclass
class Event:
    """One thing that happened in the real run, in transcript order."""
    kind: str            # "start", "fg-start", "command", "stop", "exited", "heading", "comment"
    line_no: int
    raw: str
    text: str = ""       # command text (bash-escaped as recorded) or comment text
    name: str = ""       # the recorder's process name (n1, e2, ...)
    time: Optional[float] = None   # seconds since midnight: start of the event
    wall: float = 0.0
    exit_status: Optional[int] = None
    signal: str = ""
    output: List[str] = field(default_factory=list)
    ns: int = 0                    # netns transcripts: the namespace pnN the event ran in
    end: Optional[float] = None    # netns transcripts: end of an unechoed step (clock)
    steps: List[Tuple[int, str]] = field(default_factory=list)  # (ns, command) of a step
    end_line: int = 0              # netns transcripts: last line of a report section


START_RE = re.compile(
    r"^\$ etcd (?P<args>.*?)   # started in background as '(?P<name>[^']+)', "
    r"log -> \S+  t=(?P<t>\d\d:\d\d:\d\d\.\d{3})$")
FG_START_RE = re.compile(r"^\$ etcd (?P<args>.*?)   # foreground, log -> \S+$")
FG_EXIT_RE = re.compile(r"^\[exit=(?P<rc>\d+)\]   \(124 would mean")
EXIT_RE = re.compile(
    r"^\[exit=(?P<rc>\d+)  wall=(?P<wall>\d+\.\d+)s  t=(?P<t>\d\d:\d\d:\d\d\.\d{3})\]$")
STOP_RE = re.compile(
    r"^\[stopping (?P<name>\S+) pid \d+ with SIG(?P<sig>TERM|KILL)  "
    r"t=(?P<t>\d\d:\d\d:\d\d\.\d{3})\]$")
EXITED_RE = re.compile(
    r"^\[(?P<name>\S+) pid \d+ (?P<what>exited with status \d+|had already exited.*"
    r"|EXITED EARLY with status \d+)")
DATE_RE = re.compile(r"^# date: (\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)Z")
END_MARKER = "### NOTE (added by hand"


def clock(stamp: str) -> float:
    """HH:MM:SS.mmm to seconds since midnight."""
    h, m, s = stamp.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


class Transcript:
    """The events of one transcript, plus its header lines and recording date."""

    def __init__(self, path: str):
        self.path = path
        self.stem = os.path.splitext(os.path.basename(path))[0]
        self.header: List[str] = []
        self.date: Optional[Tuple[int, int, int]] = None
        self.events: List[Event] = []
        with open(path, encoding="utf-8") as f:
            self.lines = f.read().split("\n")
        self._parse()

    def fail(self, line_no: int, message: str) -> ConvertError:
        return ConvertError(f"{self.path}:{line_no}: {message}")

    def _parse(self) -> None:
        i = 0
        while i < len(self.lines):
            line, line_no = self.lines[i], i + 1
            if line.startswith(END_MARKER):
                break  # a hand-added note quoting an earlier run: not part of this run
            if line.startswith("$ "):
                i = self._parse_dollar(i)
                continue
            self._parse_other(line, line_no)
            i += 1

    def _parse_dollar(self, i: int) -> int:
        """Parses the `$ ...` line at index i (and what belongs to it); returns the next index."""
        line, line_no = self.lines[i], i + 1
        m = START_RE.match(line)
        if m:
            self.events.append(Event("start", line_no, line, text=m["args"], name=m["name"],
                                     time=clock(m["t"])))
            return i + 1
        m = FG_START_RE.match(line)
        if m:
            nxt = self.lines[i + 1] if i + 1 < len(self.lines) else ""
            em = FG_EXIT_RE.match(nxt)
            if not em:
                raise self.fail(line_no + 1, "foreground etcd without its `[exit=N]` line")
            self.events.append(Event("fg-start", line_no, line, text=m["args"],
                                     exit_status=int(em["rc"])))
            return i + 2
        return self._parse_command(i)

    def _parse_command(self, i: int) -> int:
        line_no = i + 1
        ev = Event("command", line_no, self.lines[i], text=self.lines[i][2:])
        j = i + 1
        while j < len(self.lines):
            m = EXIT_RE.match(self.lines[j])
            if m:
                ev.wall = float(m["wall"])
                ev.time = clock(m["t"]) - ev.wall
                ev.exit_status = int(m["rc"])
                self.events.append(ev)
                return j + 1
            if self.lines[j].startswith("$ "):
                break
            ev.output.append(self.lines[j])
            j += 1
        raise self.fail(line_no, "command without its `[exit=N  wall=…s  t=…]` line")

    def _parse_other(self, line: str, line_no: int) -> None:
        m = DATE_RE.match(line)
        if m and self.date is None:
            self.date = (int(m[1]), int(m[2]), int(m[3]))
        if line.startswith("[stopping "):
            m = STOP_RE.match(line)
            if not m:
                raise self.fail(line_no, f"unrecognised stop line: {line!r}")
            self.events.append(Event("stop", line_no, line, name=m["name"], signal=m["sig"],
                                     time=clock(m["t"])))
        elif line.startswith("[BUG GUARD"):
            raise self.fail(line_no, "the recorder's bug guard fired: the run is not clean")
        elif (m := EXITED_RE.match(line)) is not None:
            self.events.append(Event("exited", line_no, line, name=m["name"], text=m["what"]))
        elif line.startswith("### "):
            self.events.append(Event("heading", line_no, line, text=line[4:].strip()))
        elif line.startswith("## "):
            self.events.append(Event("heading", line_no, line, text=line[3:].strip()))
        elif line.startswith("# "):
            if not self.events:
                self.header.append(line[2:])
            else:
                self.events.append(Event("comment", line_no, line, text=line[2:]))
        elif line.strip() and self.events and self.events[-1].kind == "heading":
            # a heading followed by log lines introduces an excerpt, not commands
            self.events[-1].output.append(line)


# ---------------------------------------------------------------- helpers

SAFE_ARG = re.compile(r"^[A-Za-z0-9_@%+=:,./-]+$")


def quote(arg: str) -> str:
    """Quotes one argument for a POSIX shell, as plainly as possible."""
    if SAFE_ARG.match(arg):
        return arg
    if "'" not in arg:
        return f"'{arg}'"
    if not re.search(r'["$`\\!]', arg):
        return f'"{arg}"'
    return "'" + arg.replace("'", "'\"'\"'") + "'"


def split_args(text: str, where: str) -> List[str]:
    try:
        return shlex.split(text, posix=True)
    except ValueError as e:
        raise ConvertError(f"{where}: cannot split {text!r}: {e}") from e


def url_host(url: str) -> str:
    rest = url.split("://", 1)[-1]
    return rest.split("/", 1)[0].rsplit(":", 1)[0]


def flag_value(argv: List[str], names: Tuple[str, ...]) -> Optional[str]:
    """The value of the last occurrence of one of `names` (`--f v`, `--f=v`)."""
    value = None
    for k, a in enumerate(argv):
        for n in names:
            if a == n and k + 1 < len(argv):
                value = argv[k + 1]
            elif a.startswith(n + "="):
                value = a[len(n) + 1:]
    return value


def etcdctl_positionals(argv: List[str]) -> List[str]:
    pos, k = [], 1
    while k < len(argv):
        a = argv[k]
        if a.startswith("-"):
            k += 1 if ("=" in a or a not in ETCDCTL_VALUE_FLAGS) else 2
            continue
        pos.append(a)
        k += 1
    return pos


def etcdctl_subcommand(argv: List[str]) -> Tuple[str, ...]:
    pos = etcdctl_positionals(argv)
    if pos and pos[0] in GROUPED_ETCDCTL:
        return tuple(pos[:2])
    return tuple(pos[:1])


def skip_reason(argv: List[str]) -> Optional[str]:
    """Why a recorded command is not replayed, or None if the playground has it."""
    if not argv:
        return "an empty command"
    if argv[0] == "curl":
        return None   # `curl URL`: a member's /version
    if argv[0] != "etcdctl":
        return OTHER_COMMAND_REASONS.get(argv[0], f"`{argv[0]}` is not a playground command")
    sub = etcdctl_subcommand(argv)
    if sub in SUPPORTED_ETCDCTL:
        return None
    return f"the playground has no `etcdctl {' '.join(sub)}`"


def member_id(urls: List[str], unix_secs: int) -> str:
    """etcd's runtime member ID: SHA-1 of the sorted peer URLs and the Unix second."""
    data = "".join(sorted(urls)) + str(unix_secs)
    return "%x" % struct.unpack(">Q", hashlib.sha1(data.encode()).digest()[:8])[0]


def seconds_text(s: float) -> str:
    text = f"{s:.2f}".rstrip("0").rstrip(".")
    return text or "0"


# ---------------------------------------------------------------- machines

LOOPBACK = re.compile(r"\b127\.\d+\.\d+\.\d+\b")


class Machines:
    """One machine per loopback address, named after the etcd --name used there."""

    def __init__(self, tr: Transcript):
        addrs = set()
        names: Dict[str, set] = {}
        for ev in tr.events:
            if ev.kind in ("start", "fg-start", "command"):
                addrs.update(LOOPBACK.findall(ev.text))
            if ev.kind in ("start", "fg-start"):
                argv = split_args(ev.text, f"{tr.path}:{ev.line_no}")
                addr = etcd_peer_addr(argv, f"{tr.path}:{ev.line_no}")
                names.setdefault(addr, set()).add(flag_value(argv, ("--name",)) or "default")
        self.by_addr = self._name_all(sorted(addrs, key=addr_key), names)

    @staticmethod
    def _name_all(addrs: List[str], names: Dict[str, set]) -> Dict[str, str]:
        chosen: Dict[str, str] = {}
        for a in addrs:
            used = names.get(a, set())
            if len(used) == 1 and valid_machine_name(next(iter(used))):
                chosen[a] = next(iter(used))
        scheme = naming_scheme(chosen)
        for a in addrs:
            if a not in chosen:
                chosen[a] = scheme_name(scheme, a)
        if len(set(chosen.values())) != len(chosen):
            chosen = {a: scheme_name("node", a) for a in addrs}
        return chosen

    def of(self, addr: str) -> str:
        return self.by_addr.get(addr, self.default())

    def default(self) -> str:
        return self.by_addr.get("127.0.0.1") or next(iter(self.by_addr.values()), "node01")

    def for_url(self, url: Optional[str]) -> str:
        if not url:
            return self.default()
        return self.of(url_host(url.split(",")[0]))


def addr_key(a: str) -> Tuple[int, ...]:
    return tuple(int(p) for p in a.split("."))


def valid_machine_name(n: str) -> bool:
    return bool(re.match(r"^[A-Za-z0-9_.-]{1,63}$", n))


def naming_scheme(chosen: Dict[str, str]) -> str:
    """Returns "etcd" if every named machine is etcd-N on 127.0.0.N, else "node" (node0N)."""
    if chosen and all(n == scheme_name("etcd", a) for a, n in chosen.items()):
        return "etcd"
    return "node"


def scheme_name(scheme: str, addr: str) -> str:
    """node0N or etcd-N for 127.0.0.N."""
    n = int(addr.rsplit(".", 1)[1])
    return f"etcd-{n}" if scheme == "etcd" else f"node{n:02}"


def etcd_peer_addr(argv: List[str], where: str) -> str:
    url = flag_value(argv, ("--initial-advertise-peer-urls", "--listen-peer-urls"))
    if not url:
        raise ConvertError(f"{where}: etcd start without a peer URL")
    return url_host(url.split(",")[0])


# ---------------------------------------------------------------- the script

class Writer:
    """Builds the script: tracks the simulated clock and the pending sleeps."""

    def __init__(self, tr: Transcript, machines: Machines, etcd: str = "3.4"):
        self.tr = tr
        self.m = machines
        self.out: List[str] = []
        self.t0: Optional[float] = None   # real clock of the first etcd start
        self.sim = 0.0                    # simulated seconds since the first etcd start
        self.procs: Dict[str, str] = {}   # recorder's process name -> machine
        self.files: Dict[str, str] = {}   # snapshot file -> machine holding it
        self.files_copied: set = set()    # (file, machine) pairs already copied
        self.pending_kills: List[str] = []
        self.hidden = list(HIDDEN_STEPS.get(tr.stem, []))
        self.seen: Dict[str, int] = {}    # hidden steps' `after`: events seen containing it
        self.healthy = list(WAIT_HEALTHY_35.get(tr.stem, [])) if etcd == "3.5" else []
        self.pending_health: List[str] = []
        self.day_offset = 0.0
        self.last_clock = None
        self.pending_heading: Optional[str] = None

    def add(self, line: str) -> None:
        """Appends a script line, preceded by the section heading it belongs to."""
        if self.pending_heading is not None:
            self.out.extend(["", f"# {self.pending_heading}"])
            self.pending_heading = None
        self.out.append(line)

    # -- time

    def offset(self, t: float) -> float:
        """Seconds since the first etcd start of a real clock reading (midnight-safe)."""
        if self.last_clock is not None and t + self.day_offset < self.last_clock - 43200:
            self.day_offset += 86400
        self.last_clock = t + self.day_offset
        return t + self.day_offset - self.t0

    def wait_until(self, target: float) -> None:
        gap = round((target - self.sim) * 100) / 100
        if gap > 0:
            self.add(f"$ sleep {seconds_text(gap)}")
            self.sim += gap
        for k in self.pending_kills:
            self.add(k)   # stops that were due before this point
        self.pending_kills.clear()
        for h in self.pending_health:
            self.add(h)   # the recorder's wait_healthy, done before this step
        self.pending_health.clear()

    # -- events

    def emit(self, ev: Event) -> None:
        where = f"{self.tr.path}:{ev.line_no}"
        handler = getattr(self, "on_" + ev.kind.replace("-", "_"))
        handler(ev, where)
        self.emit_hidden_after(ev)

    def on_heading(self, ev: Event, where: str) -> None:
        # written only if something follows it; a log excerpt's heading is dropped
        self.pending_heading = None if ev.output else ev.text

    def on_comment(self, ev: Event, where: str) -> None:
        self.add(f"# {ev.text}")
        # the rolling upgrade's recorder says which binary a member runs next
        m = re.match(r"(node\d+) runs etcd (3\.[45]):", ev.text)
        if m:
            self.add(f"machine etcd-version {m[1]} {m[2]}")

    def on_exited(self, ev: Event, where: str) -> None:
        machine = self.procs.get(ev.name, "?")
        self.add(f"# (real run: {machine}'s etcd {ev.text})")
        if ev.text.startswith("exited with status") and machine != "?":
            # the recorder waited for the exit (lib.sh wait_exit) before going on
            self.add(f"{machine}$ wait")

    def on_start(self, ev: Event, where: str) -> None:
        argv = split_args(ev.text, where)
        machine = self.m.of(etcd_peer_addr(argv, where))
        if self.t0 is None:
            self.t0 = ev.time
            self.set_date(ev.time)
        self.wait_until(self.offset(ev.time))
        self.procs[ev.name] = machine
        self.add(etcd_line(machine, argv))

    def on_fg_start(self, ev: Event, where: str) -> None:
        if self.t0 is None:
            raise ConvertError(f"{where}: a foreground etcd before any background one")
        argv = split_args(ev.text, where)
        machine = self.m.of(etcd_peer_addr(argv, where))
        self.wait_until(self.sim)
        self.add(etcd_line(machine, argv))
        if ev.exit_status == 124:
            self.add("# (real run: still running when the recorder's timeout stopped it)")
            self.pending_kills.append(f"# (the recorder's timeout stops the foreground etcd "
                                      f"started at line {ev.line_no} of the transcript)")
            self.pending_kills.append(f"{machine}$ kill etcd")
        else:
            self.add(f"# (real run: this etcd ran in the foreground and exited with "
                     f"status {ev.exit_status})")

    def on_stop(self, ev: Event, where: str) -> None:
        machine = self.procs.get(ev.name)
        if machine is None:
            raise ConvertError(f"{where}: stop of {ev.name!r}, which was never started")
        self.wait_until(self.offset(ev.time))
        self.add(f"{machine}$ kill {'-9 ' if ev.signal == 'KILL' else ''}etcd")
        # the recorder waits for the process to exit before it goes on (stop_node)
        self.add(f"{machine}$ wait")

    def on_command(self, ev: Event, where: str) -> None:
        if self.t0 is None:
            raise ConvertError(f"{where}: a command before the first etcd start")
        argv = split_args(ev.text, where)
        text = " ".join(quote(a) for a in argv)
        machine = self.command_machine(argv)
        reason = skip_reason(argv)
        if reason:
            self.add(f"# skipped ({reason}): {machine}$ {text}")
            return
        target = self.offset(ev.time)
        target = self.align_member_add(ev, argv, target)
        self.wait_until(target)
        self.copy_snapshot_file(argv, machine)
        self.add(f"{machine}$ {text}")
        self.sim += max(ev.wall - CLIENT_STARTUP_S, 0.0)
        self.note_snapshot_file(argv, machine)

    def copy_snapshot_file(self, argv: List[str], machine: str) -> None:
        """The real run had one file system; here a snapshot file lives on the
        machine that saved it, so a restore elsewhere first copies it over."""
        pos = etcdctl_positionals(argv)
        if tuple(pos[:2]) != ("snapshot", "restore") or len(pos) < 3:
            return
        holder = self.files.get(pos[2])
        if holder is None or holder == machine or (pos[2], machine) in self.files_copied:
            return
        self.add(f"# the real run had one file system: copy the snapshot to {machine}")
        self.add(f"{holder}$ scp {pos[2]} {machine}:{pos[2]}")
        self.files_copied.add((pos[2], machine))

    # -- where etcdctl runs

    def command_machine(self, argv: List[str]) -> str:
        if self.tr.stem in CLIENT_MACHINE:
            return "client"
        if argv and argv[0] == "etcdctl":
            sub = etcdctl_subcommand(argv)
            pos = etcdctl_positionals(argv)
            if sub == ("snapshot", "restore"):
                # the restored data dir must be on the machine that will run it
                return self.m.for_url(flag_value(argv, ("--initial-advertise-peer-urls",)))
            if sub == ("snapshot", "status") and len(pos) > 2 and pos[2] in self.files:
                return self.files[pos[2]]
        return self.m.for_url(flag_value(argv, ("--endpoints",)))

    def note_snapshot_file(self, argv: List[str], machine: str) -> None:
        pos = etcdctl_positionals(argv)
        if tuple(pos[:2]) == ("snapshot", "save") and len(pos) > 2:
            self.files[pos[2]] = machine

    def align_member_add(self, ev: Event, argv: List[str], target: float) -> float:
        """Keeps a `member add` in the real run's Unix second, so the ID hashes the same.

        etcd names a member added at runtime by hashing its peer URLs and the Unix
        second of the request; the second is found from the ID the real run printed.
        """
        # etcdctl pads the ID to 16 columns (`Member  f6467d951156c0f added`)
        added = next((re.match(r"^Member +([0-9a-f]+) added to cluster", o)
                      for o in ev.output if o.startswith("Member ")), None)
        urls = flag_value(argv, ("--peer-urls",))
        if not added or not urls or self.tr.date is None:
            return target
        midnight = calendar.timegm(self.tr.date + (0, 0, 0))
        base = int(midnight + self.t0 + target)
        for secs in range(base - 3, base + 4):
            if member_id(urls.split(","), secs) == added[1]:
                lo, hi = secs - midnight - self.t0, secs - midnight - self.t0 + 1
                aligned = min(max(target, lo + 0.05), hi - 0.1)
                if aligned != target:
                    self.add(f"# (timing: starts at +{aligned:.2f}s, in the Unix second "
                             f"the real run hashed into member ID {added[1]})")
                return aligned
        print(f"{self.tr.path}:{ev.line_no}: warning: no Unix second near the command hashes "
              f"{urls} into {added[1]}; timing not aligned", file=sys.stderr)
        return target

    # -- the rest

    def set_date(self, t: float) -> None:
        if self.tr.date is None:
            return
        secs = int(t)
        y, mo, d = self.tr.date
        # written before any pending heading: it belongs to the set-up
        self.out.append(f'$ date -s "{y:04}-{mo:02}-{d:02} '
                        f'{secs // 3600:02}:{secs % 3600 // 60:02}:{secs % 60:02}"')
        self.sim = -(t - secs)   # the first etcd start is at sim 0

    def queue_wait_healthy(self, ev: Event) -> None:
        """The recorder's wait_healthy after this start (3.5 recordings only)."""
        if ev.kind != "start" or not self.healthy or self.healthy[0][0] not in ev.raw:
            return
        _, addrs, source = self.healthy.pop(0)
        self.pending_health.append(f"# (not echoed in the transcript: wait_healthy, {source})")
        for a in addrs:
            # the variable marks it as the recorder's (tests/transcripts.rs pairs
            # only the lines that start with `etcdctl` with the transcript's)
            host = self.command_machine(["etcdctl", f"--endpoints=http://{a}:2379"])
            self.pending_health.append(f"{host}$ RECORDER=wait_healthy etcdctl "
                                       f"--endpoints=http://{a}:2379 "
                                       "--command-timeout=1s endpoint health")

    def emit_hidden_after(self, ev: Event) -> None:
        self.queue_wait_healthy(ev)
        for after in {s.after for s in self.hidden if s.after in ev.raw}:
            self.seen[after] = self.seen.get(after, 0) + 1
        for step in [s for s in self.hidden
                     if s.after in ev.raw and self.seen[s.after] == s.nth]:
            self.hidden.remove(step)
            machine = self.m.of(step.addr)
            if step.command:
                self.add(f"# (not echoed in the transcript: {step.source})")
                self.add(f"{machine}$ {step.command}")
                words = step.command.split()
                if words[0] == "cp":
                    # a copied data dir brings its backend file along
                    self.files[words[-1] + "/member/snap/db"] = machine
            else:
                self.add(f"# not replayable ({step.source}): {step.note}")

    def finish(self) -> None:
        self.wait_until(self.sim)
        if self.healthy:
            raise ConvertError(f"{self.tr.path}: wait_healthy steps never placed: "
                               + ", ".join(h[0] for h in self.healthy))
        if self.hidden:
            raise ConvertError(f"{self.tr.path}: hidden steps never placed: "
                               + ", ".join(f"{s.after}#{s.nth}" for s in self.hidden))


def etcd_line(machine: str, argv: List[str]) -> str:
    """`MACHINE$ etcd FLAGS` (argv = the flags), wrapped at flag boundaries for reading."""
    words, k = [], 0
    while k < len(argv):
        a = argv[k]
        if a.startswith("--") and "=" not in a and k + 1 < len(argv) \
                and not argv[k + 1].startswith("--"):
            words.append(f"{quote(a)} {quote(argv[k + 1])}")
            k += 2
        else:
            words.append(quote(a))
            k += 1
    lines, current = [], f"{machine}$ etcd"
    for w in words:
        if len(current) + 1 + len(w) > 100:
            lines.append(current + " \\")
            current = "  " + w
        else:
            current += " " + w
    lines.append(current)
    return "\n".join(lines)


# ---------------------------------------------------------------- netns transcripts (09)
#
# The 09-partitions transcripts come from other recording scripts
# (09-partitions-lib.sh): every host is a network namespace pnN with the address
# 10.200.0.N (09-partitions-netns.sh), every command is `ip netns exec pnN CMD`,
# cuts are iptables rules, and some steps were logged in a compact form of their
# own instead of being echoed (loops of puts, polls of every member's term, a
# retry loop). Everything below handles only those transcripts; a transcript is
# one of them if it runs its commands with `ip netns exec`.

PARTITION_SCENARIOS = [
    "09-partitions-01-leader-isolated",
    "09-partitions-02-follower-isolated",
    "09-partitions-03-four-members",
    "09-partitions-04-one-way",
    "09-partitions-05-learner",
    "09-partitions-06-client-timeouts",
]

NETNS_SUBNET = "10.200.0."          # pnN is 10.200.0.N (09-partitions-netns.sh, up())
NETNS_ADDR = re.compile(r"\b10\.200\.0\.\d+\b")
NETNS_CMD_RE = re.compile(r"^ip netns exec pn(?P<ns>\d+) (?P<cmd>.*)$")
STAMP = r"\d\d:\d\d:\d\d\.\d{3}"
NETNS_START_RE = re.compile(
    r"^\$ ip netns exec pn(?P<ns>\d+) etcd (?P<args>.*?)   # background '(?P<name>[^']+)', "
    r"log -> \S+  t=(?P<t>" + STAMP + r")$")
PID_RE = re.compile(r"^\[pid \d+\]$")
# run by the put loops of 09-02 (:22), 09-04 (:25) and 09-05 (:41): `timeout 10 ip netns
# exec pnN etcdctl --endpoints=$(EP N) put K V`, logged as one line after it returned
PUT_STEP_RE = re.compile(
    r"^\[put (?P<key>\S+) (?P<value>\S+) via node0*(?P<ns>\d+): exit=(?P<rc>\d+) "
    r"'(?P<out>[^']*)' t=(?P<t>" + STAMP + r")\]$")
# 09-partitions-lib.sh:134, terms(): per member `timeout 3 ip netns exec pnN etcdctl
# --endpoints=$(EP N) --command-timeout=1s endpoint status -w json`, one after the
# other, logged as one line (grepped fields) stamped when the last one returned
TERMS_RE = re.compile(r"^\[(?P<t>" + STAMP + r")\] (?P<rest>node\d+:.*)$")
TERMS_PART_RE = re.compile(r"^node0*(?P<ns>\d+):(?P<fields>.*)$")
LEADER_RE = re.compile(r"^\[(?P<t>" + STAMP + r")\] leader after heal: node0*(?P<ns>\d+)$")
ATTEMPT_RE = re.compile(
    r"^attempt (?P<k>\d+): sent at (?P<sent>[+-]\d+\.\d+) s after heal, answered at "
    r"(?P<ans>[+-]\d+\.\d+) s: exit=(?P<rc>\d+): ?(?P<first>.*)$")
THEAL_RE = re.compile(r"^\[THEAL=(?P<t>" + STAMP + r")[\] ]")
MARKER_RE = re.compile(r"^\[(TCUT=" + STAMP + r"|THEAL=" + STAMP +
                       r"|member add returned at |wait_healthy node)")
SIGKILL_RE = re.compile(r"^\[(?P<name>\S+) did not exit in (?P<s>\d+) s; SIGKILL\]$")
EARLY_RE = re.compile(r"^\[(?P<name>\S+) EXITED EARLY; (?P<what>.*)\]$")
REPORT_HEADINGS = ("TIMINGS", "LOG EXCERPT")   # sections of log-derived results
EXCERPT_START, EXCERPT_END = "----- log excerpt:", "----- end excerpt -----"

# What a command's real wall time has on top of its simulated run, in netns
# transcripts (the loopback ones use CLIENT_STARTUP_S): etcdctl's start-up plus
# `ip netns exec` (alone about 5 ms: the iptables commands' wall) for an echoed
# command; for a call of an unechoed step, also the recorder's `timeout` and
# pipeline (NETNS_STEP_EXTRA_S more). The error adds up over the hundreds of quick
# calls of the polls: with 0.010 the runner's stops came 0.3-2.2 s early.
#
# A 3.5.1 recording measures its own: a call that ran into etcdctl's 5 s command
# timeout spent exactly 5 s of simulated time, so its wall minus 5 s is the
# overhead (`measured_overhead`): 25-47 ms (3.5.1's etcdctl starts slower). The
# 3.4.23 recordings keep 20 ms, with which their replays' stops were checked
# (measured, 17-25 ms; applied, they moved the 3.4 goldens, and 09-02's first
# status after the heal lost the leader the real run still showed). 20 ms is
# also the default for a recording without such a call.
NETNS_CLIENT_OVERHEAD_S = 0.020
NETNS_STEP_EXTRA_S = 0.005
COMMAND_TIMEOUT_S = 5.0

TERMS_COMMAND = "etcdctl --endpoints=http://{addr}:2379 --command-timeout=1s endpoint status -w json"
PUT_COMMAND = "etcdctl --endpoints=http://{addr}:2379 put {key} {value}"


@dataclass
class Loop:
    """A loop of unechoed steps (puts, term polls): the recorder's sleeps around them.

    Such a step is logged with its end time only; it started `first_gap` seconds
    after the end of the event before the loop (its first step), or `after_put` /
    `after_terms` seconds after the end of the step before it.
    """
    first_line: int          # transcript line of the loop's first step
    first_gap: float
    after_put: Optional[float]
    after_terms: Optional[float]
    source: str


LOOPS: Dict[str, List[Loop]] = {
    "09-partitions-02-follower-isolated": [
        Loop(40, 0.5, 0.5, None, "09-partitions-02-follower-isolated.sh:21-25 (put; sleep 0.5)"),
        Loop(65, 0.5, None, None,
             "09-partitions-02-follower-isolated.sh:24-26 (the put loop's sleep 0.5; terms)"),
        Loop(100, 0.0, None, 0.25,
             "09-partitions-02-follower-isolated.sh:36-44 (terms; sleep 0.25)"),
    ],
    "09-partitions-03-four-members": [
        Loop(68, 3.0, None, None, "09-partitions-03-four-members.sh:31 (sleep 3; terms)"),
        Loop(95, 0.0, None, None, "09-partitions-03-four-members.sh:37 (terms)"),
        Loop(390, 0.0, None, 0.5, "09-partitions-03-four-members.sh:86 (terms; sleep 0.5)"),
        Loop(416, 0.0, None, 0.25, "09-partitions-03-four-members.sh:92 (terms; sleep 0.25)"),
        Loop(659, 0.0, None, 0.5, "09-partitions-03-four-members.sh:86 (terms; sleep 0.5)"),
        Loop(684, 0.0, None, 0.25, "09-partitions-03-four-members.sh:92 (terms; sleep 0.25)"),
        Loop(878, 0.0, None, 0.5, "09-partitions-03-four-members.sh:86 (terms; sleep 0.5)"),
        Loop(904, 0.0, None, 0.25, "09-partitions-03-four-members.sh:92 (terms; sleep 0.25)"),
    ],
    "09-partitions-04-one-way": [
        Loop(26, 0.0, 0.6, 0.0, "09-partitions-04-one-way.sh:23-27 (terms; put; sleep 0.6)"),
        Loop(74, 0.0, None, 0.25, "09-partitions-04-one-way.sh:33 (terms; sleep 0.25)"),
        Loop(281, 0.0, 0.6, 0.0, "09-partitions-04-one-way.sh:23-27 (terms; put; sleep 0.6)"),
        Loop(329, 0.0, None, 0.25, "09-partitions-04-one-way.sh:33 (terms; sleep 0.25)"),
    ],
    "09-partitions-05-learner": [
        Loop(59, 0.25, 0.25, None, "09-partitions-05-learner.sh:39-43 (put; sleep 0.25)"),
        Loop(80, 0.25, None, None,
             "09-partitions-05-learner.sh:42-44 (the put loop's sleep 0.25; terms)"),
        Loop(121, 0.0, None, 0.25, "09-partitions-05-learner.sh:55-59 (terms; sleep 0.25)"),
        Loop(296, 3.0, None, None, "09-partitions-05-learner.sh:89-90 (sleep 3; terms)"),
        Loop(314, 0.0, None, 0.25, "09-partitions-05-learner.sh:95 (terms; sleep 0.25)"),
    ],
    "09-partitions-06-client-timeouts": [
        Loop(133, 0.0, None, 0.25, "09-partitions-06-client-timeouts.sh:46 (terms; sleep 0.25)"),
    ],
}


@dataclass
class Retry:
    """A retry loop logged as `attempt K: sent at +X s after heal, ...` lines."""
    heading: str             # the start of the heading over the attempt lines
    command: str             # what each attempt ran (from the record script)
    source: str


RETRIES: Dict[str, List[Retry]] = {
    "09-partitions-01-leader-isolated": [
        Retry("retry 'member add node05 --learner' on node02 ",
              "ip netns exec pn2 etcdctl --endpoints=http://10.200.0.2:2379 member add node05 "
              "--learner --peer-urls=http://10.200.0.5:2380",
              "09-partitions-01-leader-isolated.sh:57 (F1 = node02)"),
    ],
}


@dataclass
class LastPoll:
    """A poll whose transcript line gives only its last answer and when it came."""
    line: int
    command: str             # the call it repeated (from the record script)
    wall: float              # assumed duration of its last call
    source: str
    why: str


LAST_POLLS: Dict[str, List[LastPoll]] = {
    "09-partitions-03-four-members": [
        LastPoll(107, "ip netns exec pn2 etcdctl --endpoints=http://10.200.0.2:2379 "
                 "endpoint status --cluster", 0.03,
                 "09-partitions-03-four-members.sh:42, leader_node $A with A = node02 "
                 "('# leader = node02' at transcript line 22)",
                 "a poll every 0.25 s from the heal until a leader shows: the transcript "
                 "gives only its last answer, not how many times it asked"),
    ],
}


class NetnsTranscript(Transcript):
    """A 09-partitions transcript: every line outside log excerpts must be understood."""

    def _parse(self) -> None:
        self.theal: Optional[float] = None
        heading, report = "", None
        i = 0
        while i < len(self.lines):
            line, line_no = self.lines[i], i + 1
            if line.startswith(END_MARKER):
                break
            if line.startswith(EXCERPT_START):
                if report is None or not report.text.startswith("LOG EXCERPT"):
                    raise self.fail(line_no, "a log excerpt outside a LOG EXCERPT(S) section")
                j = i + 1
                while j < len(self.lines) and self.lines[j] != EXCERPT_END:
                    j += 1
                if j == len(self.lines):
                    raise self.fail(line_no, f"a log excerpt without its `{EXCERPT_END}` line")
                report.end_line = j + 1
                i = j + 1
                continue
            if line.startswith("$ "):
                report = None
                i = self._parse_netns_dollar(i)
                continue
            if line.startswith("### ") or line.startswith("## "):
                heading = line.lstrip("#").strip()
                kind = "report" if heading.startswith(REPORT_HEADINGS) else "heading"
                ev = Event(kind, line_no, line, text=heading, end_line=line_no)
                report = ev if kind == "report" else None
                self.events.append(ev)
                i += 1
                continue
            if not line.strip():
                i += 1
                continue
            if report is not None and (line.startswith(("TIMING ", "# ", "[transcript note:"))):
                report.end_line = line_no   # a result derived from the logs
                i += 1
                continue
            report = None
            m = ATTEMPT_RE.match(line)
            if m:
                i = self._parse_attempt(i, m, heading)
                continue
            self._parse_netns_other(line, line_no)
            i += 1

    def _parse_netns_dollar(self, i: int) -> int:
        line, line_no = self.lines[i], i + 1
        m = NETNS_START_RE.match(line)
        if m:
            self.events.append(Event("start", line_no, line, text=m["args"], name=m["name"],
                                     time=clock(m["t"]), ns=int(m["ns"])))
            return i + 1
        nxt = self._parse_command(i)
        ev = self.events[-1]
        m = NETNS_CMD_RE.match(ev.text)
        if not m:
            raise self.fail(line_no, f"a command not run with `ip netns exec pnN`: {line!r}")
        ev.ns, ev.text = int(m["ns"]), m["cmd"]
        if ev.text.split()[0] == "etcd":
            raise self.fail(line_no, "an etcd start without its `# background ...` note")
        return nxt

    def _parse_attempt(self, i: int, m: "re.Match", heading: str) -> int:
        line_no = i + 1
        if self.theal is None:
            raise self.fail(line_no, "a retry attempt before any `[THEAL=...]` line")
        retry = next((r for r in RETRIES.get(self.stem, []) if heading.startswith(r.heading)),
                     None)
        if retry is None:
            raise self.fail(line_no, f"a retry loop with no entry in RETRIES (heading {heading!r})")
        cm = NETNS_CMD_RE.match(retry.command)
        sent, answered = float(m["sent"]), float(m["ans"])
        out, j = [], i + 1
        while j < len(self.lines) and self.lines[j].startswith("    |"):
            out.append(re.sub(r"^    \| ?", "", self.lines[j]))
            j += 1
        self.events.append(Event("attempt", line_no, self.lines[i], text=retry.source,
                                 time=self.theal + sent, wall=answered - sent,
                                 exit_status=int(m["rc"]), output=out,
                                 steps=[(int(cm["ns"]), cm["cmd"])]))
        return j

    def _parse_netns_other(self, line: str, line_no: int) -> None:
        def add(kind: str, **kw) -> None:
            self.events.append(Event(kind, line_no, line, **kw))

        if PID_RE.match(line):
            return
        if (m := PUT_STEP_RE.match(line)) is not None:
            addr = NETNS_SUBNET + m["ns"]
            cmd = PUT_COMMAND.format(addr=addr, key=quote(m["key"]), value=quote(m["value"]))
            add("step", text="put", end=clock(m["t"]), steps=[(int(m["ns"]), cmd)])
        elif (m := TERMS_RE.match(line)) is not None:
            steps = []
            for part in [p.strip() for p in m["rest"].split("|") if p.strip()]:
                pm = TERMS_PART_RE.match(part)
                if not pm:
                    raise self.fail(line_no, f"unrecognised member in a term poll: {part!r}")
                steps.append((int(pm["ns"]), TERMS_COMMAND.format(addr=NETNS_SUBNET + pm["ns"])))
            add("step", text="terms", end=clock(m["t"]), steps=steps)
        elif (m := LEADER_RE.match(line)) is not None:
            poll = next((p for p in LAST_POLLS.get(self.stem, []) if p.line == line_no), None)
            if poll is None:
                raise self.fail(line_no, "a poll's last answer with no entry in LAST_POLLS")
            cm = NETNS_CMD_RE.match(poll.command)
            add("last-poll", text=poll.why, end=clock(m["t"]), wall=poll.wall,
                name=poll.source, steps=[(int(cm["ns"]), cm["cmd"])])
        elif line.startswith("[stopping "):
            m = STOP_RE.match(line)
            if not m:
                raise self.fail(line_no, f"unrecognised stop line: {line!r}")
            add("stop", name=m["name"], signal=m["sig"], time=clock(m["t"]))
        elif (m := SIGKILL_RE.match(line)) is not None:
            add("sigkill", name=m["name"], wall=float(m["s"]))
        elif (m := EARLY_RE.match(line)) is not None:
            add("exited", name=m["name"], text=f"exited early ({m['what']})")
        elif (m := EXITED_RE.match(line)) is not None:
            add("exited", name=m["name"], text=m["what"])
        elif line.startswith("[BUG GUARD"):
            raise self.fail(line_no, "the recorder's bug guard fired: the run is not clean")
        elif MARKER_RE.match(line):
            if (m := THEAL_RE.match(line)) is not None:
                self.theal = clock(m["t"])
            add("marker", text=line)
        elif line.startswith("TIMING "):
            add("marker", text=line.split("   <- ")[0])
        elif line.startswith("# "):
            m = DATE_RE.match(line)
            if m and self.date is None:
                self.date = (int(m[1]), int(m[2]), int(m[3]))
            if not self.events:
                self.header.append(line[2:])
            else:
                add("comment", text=line[2:])
        else:
            raise self.fail(line_no, f"unrecognised line: {line!r}")


class NetnsMachines(Machines):
    """One machine per host 10.200.0.N (namespace pnN), named after its etcd --name."""

    def __init__(self, tr: Transcript):
        addrs = set()
        names: Dict[str, set] = {}
        for ev in tr.events:
            if ev.ns:
                addrs.add(NETNS_SUBNET + str(ev.ns))
            for ns, cmd in ev.steps:
                addrs.add(NETNS_SUBNET + str(ns))
                addrs.update(NETNS_ADDR.findall(cmd))
            if ev.kind in ("start", "command"):
                addrs.update(NETNS_ADDR.findall(ev.text))
            if ev.kind == "start":
                argv = split_args(ev.text, f"{tr.path}:{ev.line_no}")
                addr = etcd_peer_addr(argv, f"{tr.path}:{ev.line_no}")
                names.setdefault(addr, set()).add(flag_value(argv, ("--name",)) or "default")
        self.by_addr = self._name_all(sorted(addrs, key=addr_key), names)

    def ns(self, n: int) -> str:
        return self.by_addr[NETNS_SUBNET + str(n)]


def measured_overhead(tr: Transcript) -> float:
    """The median of (wall - 5 s) over the etcdctl calls that ran into the default
    5 s command timeout (see NETNS_CLIENT_OVERHEAD_S), in whole milliseconds."""
    extra = sorted(ev.wall - COMMAND_TIMEOUT_S for ev in tr.events
                   if ev.kind == "command" and ev.exit_status == 1
                   and ev.text.startswith("etcdctl ") and "--command-timeout" not in ev.text
                   and COMMAND_TIMEOUT_S <= ev.wall < COMMAND_TIMEOUT_S + 0.1
                   and any("context deadline exceeded" in o for o in ev.output))
    if not extra:
        return NETNS_CLIENT_OVERHEAD_S
    mid = len(extra) // 2
    median = extra[mid] if len(extra) % 2 else (extra[mid - 1] + extra[mid]) / 2
    return round(median, 3)


class NetnsWriter(Writer):
    """Builds the script of a netns transcript: namespaces, iptables rules, unechoed steps."""

    def __init__(self, tr: Transcript, machines: NetnsMachines, etcd: str = "3.4"):
        super().__init__(tr, machines, etcd)
        self.m: NetnsMachines = machines
        self.rules: set = set()            # (from ns, to ns): packets from -> to dropped
        self.last_end: Optional[float] = None   # real end (offset) of the last timed event
        # LOOPS gives the 3.4.23 transcripts' line numbers; a 3.5.1 recording ran
        # the same record script, so its loops come in the same order, elsewhere
        self.loops = {lp.first_line: lp for lp in LOOPS.get(tr.stem, [])}
        self.loops_in_order: Optional[List[Loop]] = \
            list(LOOPS.get(tr.stem, [])) if etcd == "3.5" else None
        self.loop: Optional[Loop] = None   # the loop of unechoed steps being replayed
        self.prev_step: Optional[str] = None   # "put"/"terms" if the last timed event was one
        self.stop_times: Dict[str, float] = {}
        self.after_report = False
        self.client_overhead = measured_overhead(tr) if etcd == "3.5" else NETNS_CLIENT_OVERHEAD_S
        self.step_overhead = self.client_overhead + NETNS_STEP_EXTRA_S

    def add(self, line: str) -> None:
        super().add(line)
        self.after_report = False

    def timed(self, end: float, step: Optional[str] = None) -> None:
        """Notes the real end (offset) of the event just written."""
        self.last_end = end
        self.prev_step = step

    # -- events

    def on_report(self, ev: Event, where: str) -> None:
        what = "log excerpts" if ev.text.startswith("LOG EXCERPT") else "time stamps of log lines"
        self.pending_heading = ev.text
        self.add(f"# (not commands: {what} of the real run, transcript lines "
                 f"{ev.line_no}-{ev.end_line})")
        self.after_report = True

    def on_marker(self, ev: Event, where: str) -> None:
        self.add(f"# real run: {ev.text}")

    def on_start(self, ev: Event, where: str) -> None:
        argv = split_args(ev.text, where)
        if etcd_peer_addr(argv, where) != NETNS_SUBNET + str(ev.ns):
            raise ConvertError(f"{where}: etcd in pn{ev.ns} advertises another host's peer URL")
        machine = self.m.ns(ev.ns)
        if self.t0 is None:
            self.t0 = ev.time
            self.set_date(ev.time)
        self.wait_until(self.offset(ev.time))
        self.procs[ev.name] = machine
        self.add(etcd_line(machine, argv))
        self.timed(self.offset(ev.time))

    def on_stop(self, ev: Event, where: str) -> None:
        if self.after_report:
            self.pending_heading = "the recorder stops every etcd (stop_all)"
        super().on_stop(ev, where)
        self.stop_times[ev.name] = ev.time
        self.timed(self.offset(ev.time))

    def on_sigkill(self, ev: Event, where: str) -> None:
        machine = self.procs.get(ev.name)
        if machine is None or ev.name not in self.stop_times:
            raise ConvertError(f"{where}: SIGKILL of {ev.name!r}, which was never stopped")
        self.add(f"# (real run: {machine}'s etcd did not exit within {int(ev.wall)} s of SIGTERM; "
                 f"the recorder then sent SIGKILL)")
        self.wait_until(self.offset(self.stop_times[ev.name]) + ev.wall)
        self.add(f"{machine}$ kill -9 etcd")
        self.timed(self.offset(self.stop_times[ev.name]) + ev.wall)

    def on_command(self, ev: Event, where: str) -> None:
        if self.t0 is None:
            raise ConvertError(f"{where}: a command before the first etcd start")
        argv = split_args(ev.text, where)
        machine = self.m.ns(ev.ns)
        if argv[0] == "iptables":
            self.iptables(ev, argv, where)
        else:
            self.run(ev, argv, machine, self.offset(ev.time))
        self.timed(self.offset(ev.time + ev.wall))

    def run(self, ev: Event, argv: List[str], machine: str, target: float,
            note: str = "") -> None:
        """Writes one etcdctl command (or its skip comment) that starts at `target`."""
        text = " ".join(quote(a) for a in argv)
        reason = skip_reason(argv)
        if reason:
            if note:
                self.add(note)
            self.add(f"# skipped ({reason}): {machine}$ {text}")
            return
        target = self.align_member_add(ev, argv, target)
        self.wait_until(target)
        if note:
            self.add(note)
        self.add(f"{machine}$ {text}")
        self.sim += max(ev.wall - self.client_overhead, 0.0)

    def iptables(self, ev: Event, argv: List[str], where: str) -> None:
        to = ev.ns
        self.wait_until(self.offset(ev.time))
        if len(argv) == 7 and argv[1:4] == ["-I", "INPUT", "-s"] and argv[5:] == ["-j", "DROP"] \
                and argv[4].startswith(NETNS_SUBNET):
            frm = int(argv[4][len(NETNS_SUBNET):])
            self.rules.add((frm, to))
            self.add(f"{self.m.ns(to)}$ net cut {quote(self.m.ns(frm) + '->' + self.m.ns(to))}")
        elif argv[1:] == ["-F", "INPUT"]:
            into = sorted(f for (f, t) in self.rules if t == to)
            name = self.m.ns(to)
            if not into:
                self.add(f"# {name}: iptables -F INPUT (no DROP rule there: nothing to heal)")
                return
            recut = [f for f in into if (to, f) in self.rules]
            self.add(f"# {name}: iptables -F INPUT heals every link into {name}"
                     + ("; `net heal` heals both ways, so a link out of it that a rule on the "
                        "other side still drops is cut again" if recut else ""))
            for f in into:
                self.rules.discard((f, to))
                self.add(f"{name}$ net heal {self.m.ns(f)} {name}")
                if f in recut:
                    self.add(f"{name}$ net cut {quote(name + '->' + self.m.ns(f))}")
        else:
            raise ConvertError(f"{where}: an iptables command the converter does not know: "
                               f"{ev.text!r}")

    def on_attempt(self, ev: Event, where: str) -> None:
        ns, cmd = ev.steps[0]
        argv = split_args(cmd, where)
        self.run(ev, argv, self.m.ns(ns), self.offset(ev.time),
                 note=f"# (transcript line {ev.line_no}, not echoed: {ev.raw.rstrip()})")
        self.timed(self.offset(ev.time + ev.wall))

    def on_step(self, ev: Event, where: str) -> None:
        if self.prev_step is None:
            if self.loops_in_order is not None:
                self.loop = self.loops_in_order.pop(0) if self.loops_in_order else None
                self.loops.pop(self.loop.first_line if self.loop else -1, None)
            else:
                self.loop = self.loops.pop(ev.line_no, None)
            if self.loop is None:
                raise ConvertError(f"{where}: a loop of unechoed steps with no entry in LOOPS "
                                   f"(the recorder's sleeps before and between its steps)")
            gap: Optional[float] = self.loop.first_gap
        else:
            gap = self.loop.after_put if self.prev_step == "put" else self.loop.after_terms
            if gap is None:
                raise ConvertError(f"{where}: LOOPS gives no gap after a {self.prev_step} step "
                                   f"in the loop of line {self.loop.first_line}")
        start, end = self.last_end + gap, self.offset(ev.end)
        if end < start:
            raise ConvertError(f"{where}: the step ends {start - end:.3f} s before the start "
                               f"LOOPS gives it ({self.loop.source})")
        self.wait_until(start)
        self.add(f"# (transcript line {ev.line_no}, not echoed: {ev.raw.rstrip()})")
        each = (end - start) / len(ev.steps)
        for ns, cmd in ev.steps:
            self.add(f"{self.m.ns(ns)}$ {cmd}")
            self.sim += max(each - self.step_overhead, 0.0)
        self.timed(end, ev.text)

    def on_last_poll(self, ev: Event, where: str) -> None:
        ns, cmd = ev.steps[0]
        machine = self.m.ns(ns)
        self.add(f"# skipped ({ev.text}): {machine}$ {cmd}")
        end = self.offset(ev.end)
        self.wait_until(end - ev.wall)
        self.add(f"# (transcript line {ev.line_no}, not echoed: {ev.raw.rstrip()}) its last "
                 f"call, assumed to take {seconds_text(ev.wall)} s; from {ev.name}")
        self.add(f"{machine}$ {cmd}")
        self.sim += max(ev.wall - self.client_overhead, 0.0)
        self.timed(end)

    def finish(self) -> None:
        super().finish()
        if self.loops_in_order:
            raise ConvertError(f"{self.tr.path}: {len(self.loops_in_order)} LOOPS entries left "
                               "over: the recording has fewer loops of unechoed steps")
        if self.loops and self.loops_in_order is None:
            raise ConvertError(f"{self.tr.path}: LOOPS entries for lines with no unechoed step: "
                               + ", ".join(str(k) for k in self.loops))


NETNS_HEAD = [
    "# One machine per host 10.200.0.N (network namespace pnN), named node0N; every command",
    "# runs on the machine of its namespace (`ip netns exec pnN` dropped).",
    "# `iptables -I INPUT -s 10.200.0.X -j DROP` in pnY is `net cut 'node0X->node0Y'`;",
    "# `iptables -F INPUT` in pnY heals every link into node0Y (`net heal` is two-way: a link",
    "# out of node0Y that a rule elsewhere still drops is cut again).",
    "# `date -s` and the `sleep` lines replay the real run's clock: each command starts",
    "# at the same offset from the first etcd start as in the real run (t= minus wall,",
    "# 10 ms steps), assuming it runs as long as it did minus etcdctl's start-up.",
    "# Steps the recorder logged in a line of their own instead of echoing them (put",
    "# loops, term polls, retries) follow a `# (transcript line N, not echoed: ...)`",
    "# comment; they start when the recorder's sleeps say (`timeout N` wrappers dropped:",
    "# etcdctl's own --command-timeout ends each call first).",
    "# Commands the playground lacks are `# skipped (reason): ...`.",
]


def is_netns_transcript(path: str) -> bool:
    with open(path, encoding="utf-8") as f:
        return any(line.startswith("$ ip netns exec ") for line in f)


def source_line(path: str, etcd: str) -> str:
    """Which real etcd the transcript is from, and where it lives."""
    if etcd == "3.4":
        return "# (real etcd 3.4.23; shared/reference/transcripts/). Regenerate, do not edit."
    release = {"3.4": "3.4.23", "3.5": "3.5.1"}[etcd]
    where = os.path.relpath(os.path.dirname(os.path.abspath(path)),
                            os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return f"# (real etcd {release}; {where}/). Regenerate, do not edit."


def convert_netns(path: str, etcd: str = "3.4") -> str:
    tr = NetnsTranscript(path)
    machines = NetnsMachines(tr)
    w = NetnsWriter(tr, machines, etcd)
    head = [f"# Generated by tools/transcript2script.py from {os.path.basename(path)}",
            source_line(path, etcd),
            "#"]
    head += [f"# {h}" for h in tr.header]
    head += ["#"] + NETNS_HEAD
    if etcd == "3.5":
        head.append(f"# Each etcdctl call is taken to spend {w.client_overhead * 1000:.0f} ms outside the "
                    "simulation (measured_overhead).")
    head.append("")
    for addr, name in machines.by_addr.items():
        head.append(f"machine add {name} {addr}")
    for ev in tr.events:
        w.emit(ev)
    w.finish()
    return "\n".join(head + w.out).rstrip("\n") + "\n"


def convert(path: str, etcd: str = "3.4") -> str:
    if is_netns_transcript(path):
        return convert_netns(path, etcd)
    tr = Transcript(path)
    machines = Machines(tr)
    w = Writer(tr, machines, etcd)
    head = [f"# Generated by tools/transcript2script.py from {os.path.basename(path)}",
            source_line(path, etcd),
            "#"]
    head += [f"# {h}" for h in tr.header]
    head += ["#",
             "# One machine per loopback address; etcdctl runs where its endpoint points.",
             "# `date -s` and the `sleep` lines replay the real run's clock: each command starts",
             "# at the same offset from the first etcd start as in the real run (t= minus wall,",
             "# 10 ms steps), assuming it runs as long as it did minus etcdctl's start-up.",
             "# Commands the playground lacks are `# skipped (reason): ...`.",
             ""]
    for addr, name in machines.by_addr.items():
        head.append(f"machine add {name} {addr}")
    if tr.stem in CLIENT_MACHINE:
        head.append(f"# the recorder's etcdctl and curl (3.5.1 throughout)")
        head.append(f"machine add client {CLIENT_MACHINE[tr.stem]}")
    for ev in tr.events:
        w.emit(ev)
    w.finish()
    return "\n".join(head + w.out).rstrip("\n") + "\n"


def main(argv: List[str]) -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("transcripts", nargs="*")
    p.add_argument("--dir",
                   default=os.path.join(repo, "..", "shared", "reference", "transcripts"))
    p.add_argument("--out", default=os.path.join(repo, "tests", "scripts"))
    p.add_argument("--stdout", action="store_true")
    p.add_argument("--partitions", action="store_true")
    p.add_argument("--etcd", choices=["3.4", "3.5"], default="3.4",
                   help="the release the transcripts were recorded on (3.5: "
                        "tests/reference-run-b/3.5, with the recorder's wait_healthy)")
    args = p.parse_args(argv)
    scenarios = PARTITION_SCENARIOS if args.partitions else DEFAULT_SCENARIOS
    paths = args.transcripts or [os.path.join(args.dir, s + ".txt") for s in scenarios]
    try:
        for path in paths:
            script = convert(path, args.etcd)
            if args.stdout:
                sys.stdout.write(script)
                continue
            name = os.path.splitext(os.path.basename(path))[0] + ".sh"
            with open(os.path.join(args.out, name), "w", encoding="utf-8") as f:
                f.write(script)
            print(f"wrote {os.path.join(args.out, name)}")
    except (ConvertError, OSError) as e:
        print(f"transcript2script: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
