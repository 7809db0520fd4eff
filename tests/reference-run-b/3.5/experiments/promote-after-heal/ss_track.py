#!/usr/bin/env python3
"""Track sockets in ss -tnioep snapshots.  usage: ss_track.py <rundir> <ns> <peer-ip> [from] [to]
Prints, per socket to/from <peer-ip>, the snapshots where Send-Q/Recv-Q/unacked/retrans/backoff/bytes changed,
times relative to cut and heal."""
import re, sys, os
rundir, ns, peer = sys.argv[1], sys.argv[2], sys.argv[3]
T0 = float(sys.argv[4]) if len(sys.argv) > 4 else -2
T1 = float(sys.argv[5]) if len(sys.argv) > 5 else 30
meta = {}
for l in open(os.path.join(rundir, 'meta.txt')):
    for kv in l.split():
        if '=' in kv:
            k, v = kv.split('=', 1); meta[k] = v
ECUT = float(meta['ECUT']); EHEAL = float(meta['EHEAL'])
snaps = []
cur = None
lines = open(os.path.join(rundir, 'ss-%s.txt' % ns)).read().split('\n')
i = 0
while i < len(lines):
    l = lines[i]
    if l.startswith('=== '):
        cur = (float(l.split()[1]), {}); snaps.append(cur)
    elif l.startswith('ESTAB') or l.startswith('FIN') or l.startswith('CLOSE') or l.startswith('LAST') or l.startswith('TIME') or l.startswith('SYN'):
        f = l.split()
        st, rq, sq, la, ra = f[0], f[1], f[2], f[3], f[4]
        det = lines[i + 1] if i + 1 < len(lines) and lines[i + 1].startswith('\t') else ''
        if peer in ra and cur is not None:
            d = {'st': st, 'rq': rq, 'sq': sq}
            m = re.search(r'timer:\(([^)]*)\)', l)
            d['timer'] = m.group(1) if m else ''
            for k in ('unacked', 'retrans', 'backoff', 'rto', 'lastsnd', 'lastrcv', 'bytes_sent', 'bytes_acked', 'bytes_received', 'bytes_retrans', 'lost'):
                m = re.search(r'\b%s:([0-9./]+)' % k, det)
                d[k] = m.group(1) if m else ''
            cur[1][(la, ra)] = d
    i += 1
keys = []
for t, s in snaps:
    for k in s:
        if k not in keys:
            keys.append(k)
for k in keys:
    out = []
    prev = None
    for t, s in snaps:
        if not (T0 <= t - ECUT <= T1):
            continue
        d = s.get(k)
        sig = None if d is None else tuple(d[x] for x in ('st', 'rq', 'sq', 'unacked', 'retrans', 'backoff', 'bytes_acked', 'bytes_received'))
        if sig != prev:
            if d is None:
                out.append('  cut%+8.3f heal%+8.3f  (gone)' % (t - ECUT, t - EHEAL))
            else:
                out.append('  cut%+8.3f heal%+8.3f  %s Recv-Q=%s Send-Q=%s unacked=%s retrans=%s backoff=%s rto=%s lastsnd=%s lastrcv=%s sent=%s acked=%s rcvd=%s timer=%s' % (
                    t - ECUT, t - EHEAL, d['st'], d['rq'], d['sq'], d['unacked'], d['retrans'], d['backoff'], d['rto'], d['lastsnd'], d['lastrcv'], d['bytes_sent'], d['bytes_acked'], d['bytes_received'], d['timer']))
            prev = sig
    if out:
        print('SOCKET %s  <->  %s' % k)
        print('\n'.join(out))
