#!/usr/bin/env python3
"""Summarise one run: per TCP connection between node01 (leader) and node03 (learner) alive at the cut,
which direction had unacked data during the cut, since when, its retransmissions, and when data was delivered
after the heal; plus learner catch-up and promote success times.  usage: summary.py <rundir>"""
import struct, sys, os, collections

rundir = sys.argv[1]
meta = {}
for l in open(os.path.join(rundir, 'meta.txt')):
    for kv in l.split():
        if '=' in kv:
            k, v = kv.split('=', 1); meta[k] = v
ECUT = float(meta['ECUT']); EHEAL = float(meta['EHEAL']); EHD = float(meta.get('EHEAL_DONE', meta['EHEAL']))
L = meta['L']
A, B = '10.200.0.%s' % L, '10.200.0.3'
TYPES = ['Hup', 'Beat', 'Prop', 'App', 'AppResp', 'Vote', 'VoteResp', 'Snap', 'Heartbeat', 'HeartbeatResp',
         'Unreachable', 'SnapStatus', 'CheckQuorum', 'TransferLeader', 'TimeoutNow', 'ReadIndex', 'ReadIndexResp',
         'PreVote', 'PreVoteResp']


def packets(path):
    with open(path, 'rb') as f:
        gh = f.read(24)
        nano = struct.unpack('<I', gh[:4])[0] == 0xa1b23c4d
        while True:
            h = f.read(16)
            if len(h) < 16:
                return
            ts, tf, incl, orig = struct.unpack('<IIII', h)
            yield ts + tf / (1e9 if nano else 1e6), f.read(incl)


def ipstr(b):
    return '.'.join(str(x) for x in b)


def varint(b, j):
    v = 0; s = 0
    while j < len(b):
        x = b[j]; j += 1; v |= (x & 0x7f) << s; s += 7
        if not x & 0x80:
            break
    return v, j


def parse_msg(body):
    f = {}; j = 0
    while j < len(body):
        tag, j = varint(body, j)
        fn, wt = tag >> 3, tag & 7
        if wt == 0:
            v, j = varint(body, j); f[fn] = v
        elif wt == 2:
            ln, j = varint(body, j); j += ln
        else:
            break
    ty = f.get(1, 0)
    name = TYPES[ty] if ty < len(TYPES) else str(ty)
    if name == 'Heartbeat' and f.get(2, 0) == 0:
        name = 'linkHeartbeat'
    if name in ('App', 'AppResp'):
        name += '(idx=%d)' % f.get(6, 0)
    return name


conns = collections.OrderedDict()
for t, d in packets(os.path.join(rundir, 'br0.pcap')):
    if len(d) < 34 or d[12:14] != b'\x08\x00':
        continue
    iph = d[14:]; ihl = (iph[0] & 15) * 4
    if iph[9] != 6:
        continue
    tot = struct.unpack('>H', iph[2:4])[0]
    src, dst = ipstr(iph[12:16]), ipstr(iph[16:20])
    if {src, dst} != {A, B}:
        continue
    tcp = iph[ihl:]
    sp, dp, seq, ack = struct.unpack('>HHII', tcp[:12])
    off = (tcp[12] >> 4) * 4; flags = tcp[13]
    plen = tot - ihl - off
    payload = tcp[off:off + plen]
    key = tuple(sorted([(src, sp), (dst, dp)]))
    c = conns.setdefault(key, dict(pk=[], client=None, reqs=[], isn={}, maxend={}, stream=collections.defaultdict(bytes)))
    if flags & 0x02:
        c['isn'][(src, sp)] = seq + 1
        if not flags & 0x10:
            c['client'] = (src, sp)
    isn = c['isn'].get((src, sp), seq)
    rs = (seq - isn) & 0xffffffff
    retx = False
    if plen > 0:
        m = c['maxend'].get((src, sp), 0)
        retx = rs + plen <= m
        c['maxend'][(src, sp)] = max(m, rs + plen)
        if rs + plen > m:  # in-order reassembly of new bytes (segments carry [rs, rs+plen))
            c['stream'][(src, sp)] += payload[max(0, m - rs):]
            c.setdefault('segs', {}).setdefault((src, sp), []).append((t, max(m, rs), rs + plen))
        if payload[:4] in (b'GET ', b'POST'):
            c['reqs'].append((t, payload.split(b'\r\n')[0].decode(errors='replace')))
            if c['client'] is None:
                c['client'] = (src, sp)
    c['pk'].append((t, (src, sp), flags, rs, plen, retx))


def rc(t):
    return t - ECUT


def rh(t):
    return t - EHEAL


def node(ipp):
    return 'node0%s' % ipp[0][-1]


print('RUN %s: leader node0%s; cut at 0.000; heal (first iptables -F) at cut+%.3f, all flushed at cut+%.3f' % (
    rundir, L, EHEAL - ECUT, EHD - ECUT))
for key, c in conns.items():
    if not c['pk'] or c['pk'][0][0] > ECUT or c['client'] is None:
        continue  # only connections that existed before the cut
    cl = c['client']; sv = key[0] if key[1] == cl else key[1]
    reqs = sorted(set(r for _, r in c['reqs']))
    purpose = '; '.join(r.replace(' HTTP/1.1', '') for r in reqs)
    lines = []
    for frm in (cl, sv):
        to = sv if frm == cl else cl
        data = [p for p in c['pk'] if p[1] == frm and p[4] > 0]
        # was the direction's data all acked before the cut? find first data sent after the cut
        after = [p for p in data if p[0] >= ECUT]
        if not after:
            continue
        retx = [p for p in after if p[5]]
        first = after[0]
        if retx:  # stall start = original transmission of the first segment that had to be retransmitted
            r0 = min(retx, key=lambda p: ((p[3] - retx[0][3] + 2**31) % 2**32))  # lowest retransmitted seq
            orig = [p for p in after if p[3] <= r0[3] < p[3] + p[4] and not p[5]]
            if orig:
                first = orig[0]
        # acks from receiver covering first's seq: first ACK from 'to' with ack > first.rs arriving after heal
        isn_from = c['isn'].get(frm, 0)
        acked_at = None
        for p in c['pk']:
            pass
        # delivery after heal: first packet from frm after EHEAL (retransmission that got through)
        post = [p for p in after if p[0] >= EHEAL]
        deliv = post[0] if post else None
        # content of first new data after cut (message stream only)
        content = ''
        st = c['stream'][frm]
        lines.append('   %s -> %s: first unacked data after cut at cut%+.3f (len %d)%s; retransmissions at cut+[%s]; first send after heal at %s' % (
            node(frm), node(to), rc(first[0]), first[4], content,
            ', '.join('%.3f' % rc(p[0]) for p in retx if p[0] < EHEAL + 30),
            ('cut%+.3f = heal%+.3f (%s)' % (rc(deliv[0]), rh(deliv[0]), 'RETX' if deliv[5] else 'new data')) if deliv else 'none'))
    if not lines:
        continue
    print('CONN %s:%d -> %s:%d (dialed by %s) [%s]' % (cl[0], cl[1], sv[0], sv[1], node(cl), purpose))
    print('\n'.join(lines))

# message stream node03 -> leader: decode the MsgAppResp timeline
print('\nMessage-stream decode (learner -> leader, AppResp / first messages after heal):')
for key, c in conns.items():
    if not any('stream/message' in r for _, r in c['reqs']) or c['client'] is None:
        continue
    cl = c['client']; sv = key[0] if key[1] == cl else key[1]
    # reassemble server->client stream with timestamps
    buf = b''; marks = []
    for (t, frm, fl, rs, plen, retx) in c['pk']:
        pass
    # rebuild from packets in order, tracking time of each byte range
    segs = [(t, a, b - a) for (t, a, b) in c.get('segs', {}).get(sv, [])]
    data = c['stream'][sv]
    # skip HTTP response header
    hdr_end = data.find(b'\r\n\r\n')
    if hdr_end < 0:
        continue
    pos = hdr_end + 4
    # chunked transfer encoding: parse chunks
    body = b''; bpos_map = []
    p = pos
    while p < len(data):
        e = data.find(b'\r\n', p)
        if e < 0:
            break
        try:
            n = int(data[p:e], 16)
        except ValueError:
            break
        if n == 0 or e + 2 + n > len(data):
            break
        bpos_map.append((len(body), e + 2))
        body += data[e + 2:e + 2 + n]
        p = e + 2 + n + 2

    def wire_time(stream_off):
        # find the (first, new-data) packet carrying stream offset
        for (t, rs, plen) in segs:
            if rs <= stream_off < rs + plen:
                return t
        return None

    def body_to_stream(bo):
        best = None
        for b0, s0 in bpos_map:
            if b0 <= bo:
                best = (b0, s0)
        return best[1] + (bo - best[0]) if best else None
    i = 0; out = []
    while i + 8 <= len(body):
        n = struct.unpack('>Q', body[i:i + 8])[0]
        name = parse_msg(body[i + 8:i + 8 + n])
        so = body_to_stream(i)
        t = wire_time(so) if so is not None else None
        if t is not None and t >= ECUT - 0.3:
            out.append((t, name))
        i += 8 + n
    # also the time the leader could have received them: first packet from sv at/after t that gets through after heal
    print(' CONN %s:%d -> %s:%d  writer=%s reader=%s' % (cl[0], cl[1], sv[0], sv[1], node(sv), node(cl)))
    shown = 0
    prev = None
    for t, name in out:
        k = name if not name.startswith('Heartbeat') else 'HB'
        if name.startswith('AppResp') or name == 'linkHeartbeat' or k != prev:
            print('   first queued/sent at cut%+.3f heal%+.3f: %s' % (rc(t), rh(t), name))
            shown += 1
        prev = k
        if shown > 25:
            break

# learner index / promote
idx = [l.split() for l in open(os.path.join(rundir, 'idx.txt'))]
vals = [(float(a), b.split('=')[1]) for a, b in idx]
first_idx = None
base = vals[0][1] if vals else None
for t, v in vals:
    if v and v != base:
        first_idx = (t, v); break
print('\nlearner index (endpoint status on node03, sample end time): %s at start, first change to %s at cut%+.3f heal%+.3f' % (
    base, first_idx[1] if first_idx else '?', rc(first_idx[0]) if first_idx else 0, rh(first_idx[0]) if first_idx else 0))
pr = [l.split(None, 3) for l in open(os.path.join(rundir, 'promote.txt'))]
ok = [p for p in pr if p[2] == 'rc=0']
bad = [p for p in pr if p[2] != 'rc=0']
if bad:
    lb = bad[-1]
    print('last refused promote: sent cut%+.3f heal%+.3f, answered heal%+.3f (%d refusals)' % (rc(float(lb[0])), rh(float(lb[0])), rh(float(lb[1])), len(bad)))
if ok:
    o = ok[0]
    print('first successful promote: sent cut%+.3f heal%+.3f, answered heal%+.3f' % (rc(float(o[0])), rh(float(o[0])), rh(float(o[1]))))
