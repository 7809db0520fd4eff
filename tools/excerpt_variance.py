#!/usr/bin/env python3
"""Compare the server-log excerpts of two real etcd 3.4.23 runs of the same scenario.

Run A is the shared reference transcript (shared/reference/transcripts/NAME.txt),
run B a second real run recorded with the same script (tests/reference-run-b/NAME.txt).
For every log excerpt of A the tool finds the lines that run B did NOT print the
same way (after normalisation), groups them by kind of line (KINDS below: one
regex per kind, with the reason why real etcd does not repeat it) and counts them.
It is the evidence behind tests/reference-run-b/EXCERPT-VARIANCE.md and the
UNREPEATABLE table of tests/log_excerpts.rs.

    python3 tools/excerpt_variance.py                 # all scenarios present in both dirs
    python3 tools/excerpt_variance.py 03 09-partitions-01 --lines   # chosen ones, list every line
    options: --a DIR (default ../shared/reference/transcripts)
             --b DIR (default tests/reference-run-b)
             --lines      print each differing normalised line under its kind
             --unmatched  print lines that match no kind (to grow KINDS)
             --excerpts   print the score of every excerpt
             --md         one markdown table row per scenario (as in EXCERPT-VARIANCE.md)

Columns: missing = A lines not in the LCS with B's excerpt (what the test would miss);
absent = of those, B has fewer copies of the line; reordered = B has it elsewhere;
num-only = the line would match if all numbers (terms, indexes) were masked;
window = after the last matched line of an excerpt cut at its maximum length;
B-only = lines of B's excerpt that A lacks.

In the 09 scenarios run B may elect another leader than run A, and the scripts give
the roles (leader, followers) to whichever node won. Then B's node names, addresses and
static member IDs are permuted to A's for that part (reported as `roles differ`), so that
leader is compared with leader; lines whose order follows ID values (voters=(...)) then
differ by construction.

Excerpts are parsed as tests/log_excerpts.rs does: a block starts at a
`----- TITLE -----` line and ends at `----- end ... -----`, the next title, a blank
line, a `$ ` or a `### ` line; `[transcript note ...]` lines are left out (but a
'N more matching lines not shown' note marks the excerpt as cut: see `cut`).
Excerpts of A and B are paired by title (digits ignored) and occurrence number.

Normalisation (both runs): the `HH:MM:SS.mmm| ` receive-time prefix, capnslog's
`YYYY-MM-DD HH:MM:SS.ffffff ` and raft's `raftYYYY/MM/DD HH:MM:SS ` (-> `raft `)
prefixes; member IDs created at runtime (`Member X added to cluster` in the
command output, paired in order, also when printed with
fewer than 16 digits -> <ID1>, <ID2>, ..., hex and decimal); other
16-hex IDs found in only one of the two transcripts (cluster IDs -> <CIDn>, IDs
of rejected member-add proposals etc. -> <RID>); ephemeral TCP ports
(`:NNNNN->`); `sent-request-id: N`; `took too long (X)`; `"ts":...`; goroutine
numbers and pointer values of a panic trace.

Per excerpt, an A line is "missing" when it is not in the longest common
subsequence of A's and B's normalised lines (the check the test makes), split
into "absent" (the line is nowhere in B's excerpt, or fewer times) and
"reordered" (B has it, but not at a place that keeps the order).
"""

import argparse
import os
import re
import sys
from collections import Counter, OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# (kind, regex on the normalised line, reason). First match wins.
KINDS = [
    ("election", r"is starting a new election|became candidate|became pre-candidate"
     r"|sent Msg(Pre)?Vote request|received Msg(Pre)?VoteResp|has received \d+ Msg(Pre)?VoteResp"
     r"|cast Msg(Pre)?Vote|rejected Msg(Pre)?Vote|ignored Msg(Pre)?Vote|Msg(Pre)?Vote message with (higher|lower) term",
     "number/terms of campaigns depend on randomized election timeouts (and who times out first)"),
    ("term change", r"became (follower|leader) at term|elected leader|lost leader|changed leader"
     r"|stepped down to follower|MsgApp(Resp)? message with higher term|MsgHeartbeat(Resp)? message with higher term",
     "the term numbers (and the winner) follow from how many campaigns happened"),
    ("health check", r"health check for peer",
     "one line per failed probe; rafthttp probes every 5 s (prober tick phase vs. cut/heal time)"),
    ("stale message", r"message with lower term",
     "late messages from the other side of a heal; how many are in flight varies"),
    ("log conflict", r"found conflict at index|replace the unstable entries",
     "only when the isolated old leader had appended an entry that got overwritten"),
    ("peer active/inactive", r"became (in)?active",
     "depends on which send/dial fails first and on reconnect timing"),
    ("stream lost/dial/read", r"lost the TCP streaming connection|failed to (dial|read|write)|failed to find member"
     r"|established a TCP streaming|(started|stopped) streaming with peer|closed the TCP streaming|closed an existing TCP streaming|rejected the stream"
     r"|dropped internal raft message|failed to heartbeat|failed to send out heartbeat",
     "per-stream goroutines (Message/MsgApp reader/writer) race; retries every 100 ms, count & order vary"),
    ("ReadIndex retry", r"waiting for ReadIndex response took too long|timed out waiting for read index",
     "one line per 500 ms retry until the client's deadline; count depends on when the request started"),
    ("slow request", r"took too long|apply request took|read-only range request",
     "printed only when a request exceeds 100 ms; durations/occurrence vary"),
    ("reconfig rejected", r"rejecting member (add|remove|promote)|not healthy for reconfigure",
     "one line per client attempt; number of attempts depends on when the peers became active"),
    ("version probe", r"failed to reach the peerURL|cannot get the version of member|cluster version",
     "the version monitor runs on a timer; count depends on its phase"),
    ("publish", r"publish|failed to (publish|get)",
     "publish retries every request-timeout until a leader exists"),
    ("voters order", r"switched to configuration",
     "voters=(...)/learners=(...) are sorted by ID value, and runtime IDs are random"),
    ("members from store", r"added member .* from store|newRaft",
     "members recovered from the store come out of a Go map: random order on every restart"),
    ("member add/remove", r"added member|removed member|promote member|(added|removed|starting|started|stopping|stopped) peer",
     "position relative to concurrent rafthttp/apply lines varies"),
    ("tick fast-forward", r"fast-forwarding \d+ ticks",
     "printed by a goroutine racing with startup (missing when the process dies first)"),
    ("shutdown/startup order", r"listening for (peers|client)|permanently removed|data-dir used by this member"
     r"|serving insecure|ready to serve|server is stopped|stopping",
     "emitted by different goroutines during start/stop; their interleaving varies"),
    ("transcript window", r"^\[transcript note",
     "the excerpt was cut at N lines; the cut moves with the number of earlier lines"),
]
KIND_RES = [(k, re.compile(r), why) for k, r, why in KINDS]

TITLE = re.compile(r"^----- (.*) -----$")
# etcd prints IDs with %x (no zero padding): an ID below 2^60 has 15 digits or fewer,
# and etcdctl pads it with spaces: "Member  10f7214e4e58f4f added".
HEX16 = re.compile(r"\b(?=[0-9]*[a-f])[0-9a-f]{14,16}\b|\b[0-9a-f]{16}\b")


def excerpts(text):
    """[(title, [lines], cut)] as tests/log_excerpts.rs parses them."""
    out, cur = [], None
    for line in text.splitlines():
        m = TITLE.match(line)
        is_title = bool(m) and not line.startswith("----- end")
        if cur is not None:
            if is_title or line.startswith("----- end") or line == "" or line.startswith("$ ") \
                    or line.startswith("### "):
                out.append(cur)
                cur = None
            elif line.startswith("[transcript note"):
                if "more matching lines not shown" in line:
                    cur[2] = True
            else:
                cur[1].append(line)
        if is_title:
            cur = [m.group(1), [], False]
    if cur is not None:
        out.append(cur)
    return [tuple(e) for e in out]


def id_map(text, other):
    """hex/decimal -> placeholder for IDs of this run that the other run does not share."""
    mine = OrderedDict((h, None) for h in HEX16.findall(text))
    theirs = set(HEX16.findall(other))
    m = OrderedDict()
    for i, h in enumerate(OrderedDict.fromkeys(re.findall(r"Member +([0-9a-f]{1,16}) added to cluster", text))):
        m[h] = "<ID%d>" % (i + 1)
    cid = 0
    for h in mine:
        if h in m or h in theirs:
            continue
        if re.search(r"(cluster|ClusterID:|cluster-id\":\"|local=|\]=|want |got )\s*" + h, text):
            cid += 1
            m[h] = "<CID%d>" % cid
        else:
            m[h] = "<RID>"
    full = OrderedDict()
    for h, p in m.items():
        full[h] = p
        full[str(int(h, 16))] = p
    return full


SUBS = [
    (re.compile(r"^\d\d:\d\d:\d\d\.\d{3}\| "), ""),
    (re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6} "), ""),
    (re.compile(r"^raft\d{4}/\d\d/\d\d \d\d:\d\d:\d\d "), "raft "),
    (re.compile(r":\d+->"), ":<port>->"),
    (re.compile(r"sent-request-id: \d+"), "sent-request-id: <REQ>"),
    (re.compile(r"took too long \([^)]*\)"), "took too long (<DUR>)"),
    (re.compile(r'"ts":("[^"]*"|[0-9.e+]+)'), '"ts":<TS>'),
    (re.compile(r"^goroutine \d+ "), "goroutine <N> "),
    (re.compile(r"0x[0-9a-f]+"), "0x<P>"),
]


def normalise(line, ids):
    s = line
    for rx, rep in SUBS:
        s = rx.sub(rep, s)
    if ids:
        s = re.sub(r"\b(" + "|".join(map(re.escape, ids)) + r")\b", lambda m: ids[m.group(1)], s)
    return s


def title_key(title):
    """excerpt title without the log line numbers, which move between runs."""
    return re.sub(r"\b(from line|lines) \d+(-\d+)?", r"\1 N", title)


def lcs_missing(a, b):
    """indices of a not in an LCS of a and b (same tie-break as tests/log_excerpts.rs)."""
    n, m = len(a), len(b)
    t = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            t[i][j] = t[i + 1][j + 1] + 1 if a[i] == b[j] else max(t[i + 1][j], t[i][j + 1])
    i = j = 0
    out = []
    while i < n:
        if j < m and a[i] == b[j]:
            i += 1
            j += 1
        elif j < m and t[i][j + 1] >= t[i + 1][j]:
            j += 1
        else:
            out.append(i)
            i += 1
    return out


def kind_of(line):
    for k, rx, _ in KIND_RES:
        if rx.search(line):
            return k
    return "other"


ROLE_LINE = re.compile(r"^# leader = node0(\d)(?:; followers = node0(\d), node0(\d)|, other voter = node0(\d))")


def static_ids(text):
    """node number -> hex member ID, from `endpoint status --cluster` rows (09 scenarios)."""
    return {int(n): h for n, h in re.findall(r"^\| http://10\.200\.0\.(\d):2379 \| +([0-9a-f]+) \|", text, re.M)}


def relabel_roles(a_text, b_text):
    """Renames B's nodes so that each part's leader/followers carry A's names.

    The 09 scripts pick the roles from the elected leader (`# leader = node0X; followers
    = ...`), and run B may elect another node. Per part (from one `# leader =` line to the
    next) B's node names, 10.200.0.N addresses, pnN namespaces and static member IDs (hex
    and decimal) are permuted to A's. Returns (B text, list of permutations applied)."""
    ra = [m for m in (ROLE_LINE.match(l) for l in a_text.splitlines()) if m]
    ids = static_ids(a_text)
    ids.update({k: v for k, v in static_ids(b_text).items() if k not in ids})
    out, seg, applied = [], -1, []
    perm = {}
    for line in b_text.splitlines(keepends=True):
        m = ROLE_LINE.match(line)
        if m:
            seg += 1
            perm = {}
            if seg < len(ra):
                bn = [int(x) for x in m.groups() if x]
                an = [int(x) for x in ra[seg].groups() if x]
                if len(an) == len(bn) and an != bn:
                    perm = dict(zip(bn, an))
                    applied.append("part %d: B node0%s -> A node0%s" % (
                        seg + 1, "/".join(map(str, bn)), "/".join(map(str, an))))
        if perm and all(k in ids for k in perm):
            table = {}
            for b, a in perm.items():
                table["node0%d" % b] = "node0%d" % a
                table["10.200.0.%d" % b] = "10.200.0.%d" % a
                table["pn%d" % b] = "pn%d" % a
                table[ids[b]] = ids[a]
                table[str(int(ids[b], 16))] = str(int(ids[a], 16))
            rx = re.compile(r"(?<![0-9a-z.])(" + "|".join(map(re.escape, sorted(table, key=len, reverse=True)))
                            + r")(?![0-9a-z])")
            line = rx.sub(lambda mm: table[mm.group(1)], line)
        out.append(line)
    return "".join(out), applied


def mask(line):
    """the line with every number (terms, indexes, counts) masked."""
    return re.sub(r"\d+", "#", line)


COLS = ("missing", "absent", "reordered", "numbers", "window", "b_only")


def compare(name, a_text, b_text):
    """-> dict: per-kind Counters (COLS), details, per-excerpt scores."""
    b_text, relabelled = relabel_roles(a_text, b_text)
    ida, idb = id_map(a_text, b_text), id_map(b_text, a_text)
    ea, eb = excerpts(a_text), excerpts(b_text)
    seen = Counter()
    b_by = {}
    for title, lines, cut in eb:
        key = title_key(title)
        seen[key] += 1
        b_by[(key, seen[key])] = (title, lines, cut)
    seen = Counter()
    res = {c: Counter() for c in COLS}
    res.update({"excerpts": 0, "lines": 0, "unpaired": [], "detail": [], "cut": 0,
                "relabelled": relabelled, "scores": []})
    for title, lines, cut in ea:
        key = title_key(title)
        seen[key] += 1
        res["excerpts"] += 1
        na = [normalise(l, ida) for l in lines]
        res["lines"] += len(na)
        if (key, seen[key]) not in b_by:
            res["unpaired"].append(title)
            continue
        _, blines, bcut = b_by[(key, seen[key])]
        nb = [normalise(l, idb) for l in blines]
        if cut or bcut:
            res["cut"] += 1
        miss = lcs_missing(na, nb)
        res["scores"].append((title, len(na), len(miss), cut or bcut))
        miss_masked = set(lcs_missing([mask(l) for l in na], [mask(l) for l in nb]))
        matched = [i for i in range(len(na)) if i not in set(miss)]
        last_match = matched[-1] if matched else -1
        budget = Counter(na) - Counter(nb)  # occurrences of A that B lacks
        for i in miss:
            line = na[i]
            k = kind_of(line)
            res["missing"][k] += 1
            if budget[line] > 0:
                budget[line] -= 1
                how = "absent"
            else:
                how = "reordered"
            res[how][k] += 1
            if i not in miss_masked:
                res["numbers"][k] += 1
                how += ",numbers-only"
            if (cut or bcut) and i > last_match:
                res["window"][k] += 1
                how += ",window"
            res["detail"].append((title, how, k, line))
        for line, c in (Counter(nb) - Counter(na)).items():
            res["b_only"][kind_of(line)] += c
            res["detail"].append((title, "B-only x%d" % c, kind_of(line), line))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenarios", nargs="*", help="name prefixes (default: all in both dirs)")
    ap.add_argument("--a", default=os.path.normpath(os.path.join(REPO, "..", "shared", "reference", "transcripts")))
    ap.add_argument("--b", default=os.path.join(REPO, "tests", "reference-run-b"))
    ap.add_argument("--lines", action="store_true")
    ap.add_argument("--unmatched", action="store_true")
    ap.add_argument("--excerpts", action="store_true", help="score of every excerpt")
    ap.add_argument("--md", action="store_true", help="one markdown table row per scenario")
    args = ap.parse_args()
    names = sorted(f[:-4] for f in os.listdir(args.b)
                   if f.endswith(".txt") and os.path.exists(os.path.join(args.a, f)))
    if args.scenarios:
        names = [n for n in names if any(n.startswith(p) for p in args.scenarios)]
    if not names:
        sys.exit("no scenario found in both %s and %s" % (args.a, args.b))
    total = {c: Counter() for c in COLS}
    header = "   %-22s %7s %7s %9s %8s %7s %7s" % ("kind", "missing", "absent", "reordered",
                                                  "num-only", "window", "B-only")
    for name in names:
        a = open(os.path.join(args.a, name + ".txt")).read()
        b = open(os.path.join(args.b, name + ".txt")).read()
        r = compare(name, a, b)
        nmiss = sum(r["missing"].values())
        if args.md:
            kinds = sorted(r["missing"], key=lambda k: -r["missing"][k])
            print("| %s | %d | %d | %d (%.0f%%) | %s |" % (
                name.split("-")[0] + ("-" + name.split("-")[2] if name.startswith("09") else ""),
                r["excerpts"], r["lines"], nmiss, 100.0 * nmiss / max(1, r["lines"]),
                ", ".join("%s %d (%d/%d/%d/%d)" % (k, r["missing"][k], r["absent"][k], r["reordered"][k],
                                                   r["numbers"][k], r["window"][k]) for k in kinds) or "-"))
            for c in COLS:
                for k in r[c]:
                    total[c][k] += r[c][k]
            continue
        print("== %s: %d excerpts (%d cut at max lines), %d A lines, %d not in LCS with B (%.1f%%)%s" % (
            name, r["excerpts"], r["cut"], r["lines"], nmiss, 100.0 * nmiss / max(1, r["lines"]),
            ("; unpaired: %s" % r["unpaired"]) if r["unpaired"] else ""))
        for p in r["relabelled"]:
            print("   roles differ, B relabelled: " + p)
        if args.excerpts:
            for title, n, m, c in r["scores"]:
                print("   excerpt %-62s %3d/%3d missing%s" % (title[:62], m, n, " (cut)" if c else ""))
        kinds = sorted(set(r["missing"]) | set(r["b_only"]), key=lambda k: (-r["missing"][k], -r["b_only"][k]))
        if kinds:
            print(header)
        for k in kinds:
            print("   %-22s %7d %7d %9d %8d %7d %7d" % ((k,) + tuple(r[c][k] for c in COLS)))
            for c in COLS:
                total[c][k] += r[c][k]
        if args.lines or args.unmatched:
            for title, how, k, line in r["detail"]:
                if args.lines or k == "other":
                    print("     [%s] %-10s %-12s %s" % (k, how, title[:40], line))
    print("== all scenarios")
    print(header)
    for k, _ in total["missing"].most_common():
        print("   %-22s %7d %7d %9d %8d %7d %7d" % ((k,) + tuple(total[c][k] for c in COLS)))
    print("   reasons:")
    for k, _, why in KINDS + [("other", "", "unclassified")]:
        if total["missing"][k] or total["b_only"][k]:
            print("   %-22s %s" % (k, why))


if __name__ == "__main__":
    main()
