#!/usr/bin/env python3
# one line per run from runN/summary.txt (times: stall start rel. cut -> first post-heal retransmission rel. heal)
import re, sys, glob
runs = sys.argv[1:] or sorted(glob.glob('run*/summary.txt'))
print('%-5s %6s | %-28s | %-28s | %-28s | %-10s | %-22s | %-22s' % ('run','heal@', 'L->learner msgapp stream', 'L->learner message stream', 'learner->L message stream', 'idx31 seen', 'last refused promote', 'first OK promote'))
print('%-5s %6s | %-28s | %-28s | %-28s | %-10s | %-22s | %-22s' % ('','cut+', 'stall t0(cut+) -> retx heal+', 'stall t0(cut+) -> retx heal+', 'stall t0(cut+) -> retx heal+', 'heal+', 'sent/answered heal+', 'sent/answered heal+'))
for f in runs:
    r = f.split('/')[0]
    s = open(f).read()
    heal = float(re.search(r'heal \(first iptables -F\) at cut\+([0-9.]+)', s).group(1))
    def conn(pat):
        m = re.search(pat + r'\]\n +\S+ -> \S+: first unacked data after cut at cut\+([0-9.]+) .*first send after heal at cut\+[0-9.]+ = heal\+([0-9.]+)', s)
        return '%s -> %s' % (m.group(1), m.group(2))
    a = conn(r'\(dialed by node03\) \[GET /raft/stream/msgapp/\w+')
    b = conn(r'\(dialed by node03\) \[GET /raft/stream/message/\w+')
    c = conn(r'\(dialed by node0[12]\) \[GET /raft/stream/message/\w+')
    idx = re.search(r'first change to \d+ at cut\+[0-9.]+ heal\+([0-9.]+)', s).group(1)
    lr = re.search(r'last refused promote: sent cut\+[0-9.]+ heal\+([0-9.]+), answered heal\+([0-9.]+)', s)
    ok = re.search(r'first successful promote: sent cut\+[0-9.]+ heal\+([0-9.]+), answered heal\+([0-9.]+)', s)
    print('%-5s %6.3f | %-28s | %-28s | %-28s | %-10s | %-22s | %-22s' % (r, heal, a, b, c, idx, '%s/%s' % lr.groups(), '%s/%s' % ok.groups()))
