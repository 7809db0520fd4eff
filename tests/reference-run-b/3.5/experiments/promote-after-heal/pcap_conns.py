#!/usr/bin/env python3
"""Parse br0.pcap of a run: per TCP connection between two given hosts, identify the HTTP purpose
(first request line from the dialer), and list data segments (with retransmission marks) in a window.
usage: pcap_conns.py <rundir> [hostA] [hostB] [from_rel_cut] [to_rel_cut]
times are printed relative to the cut (ECUT) and heal (EHEAL) from meta.txt."""
import struct, sys, os, collections

rundir = sys.argv[1]
A = sys.argv[2] if len(sys.argv) > 2 else '10.200.0.1'
B = sys.argv[3] if len(sys.argv) > 3 else '10.200.0.3'
T0 = float(sys.argv[4]) if len(sys.argv) > 4 else -1.0
T1 = float(sys.argv[5]) if len(sys.argv) > 5 else 1e9
meta = dict(l.strip().split('=', 1) for l in open(os.path.join(rundir, 'meta.txt')) if '=' in l and not l.startswith('L='))
for l in open(os.path.join(rundir, 'meta.txt')):
    if l.startswith('L='):
        for kv in l.split():
            k, v = kv.split('='); meta[k] = v
ECUT = float(meta['ECUT']); EHEAL = float(meta['EHEAL'])


def packets(path):
    with open(path, 'rb') as f:
        gh = f.read(24)
        magic = struct.unpack('<I', gh[:4])[0]
        nano = magic == 0xa1b23c4d
        while True:
            h = f.read(16)
            if len(h) < 16:
                return
            ts, tf, incl, orig = struct.unpack('<IIII', h)
            data = f.read(incl)
            t = ts + tf / (1e9 if nano else 1e6)
            yield t, data, orig


def ip(b):
    return '.'.join(str(x) for x in b)


conns = collections.OrderedDict()
for t, d, orig in packets(os.path.join(rundir, 'br0.pcap')):
    if len(d) < 34 or d[12:14] != b'\x08\x00':
        continue
    iph = d[14:]
    ihl = (iph[0] & 15) * 4
    if iph[9] != 6:
        continue
    tot = struct.unpack('>H', iph[2:4])[0]
    src, dst = ip(iph[12:16]), ip(iph[16:20])
    tcp = iph[ihl:]
    sp, dp, seq, ack = struct.unpack('>HHII', tcp[:12])
    off = (tcp[12] >> 4) * 4
    flags = tcp[13]
    plen = tot - ihl - off
    payload = tcp[off:off + plen]  # may be truncated by snaplen
    if {src, dst} != {A, B}:
        continue
    key = tuple(sorted([(src, sp), (dst, dp)]))
    c = conns.get(key)
    if c is None:
        c = conns[key] = dict(pk=[], client=None, req=None, isn={}, maxend={}, first=t)
    if flags & 0x02 and not flags & 0x10:  # SYN
        c['client'] = (src, sp)
    if flags & 0x02:
        c['isn'][(src, sp)] = seq + 1
    isn = c['isn'].get((src, sp), seq)
    rs = (seq - isn) & 0xffffffff
    re_ = rs + plen
    retx = False
    if plen > 0:
        m = c['maxend'].get((src, sp), 0)
        if re_ <= m:
            retx = True
        c['maxend'][(src, sp)] = max(m, re_)
        if c['req'] is None and payload[:4] in (b'GET ', b'POST', b'PUT '):
            c['req'] = payload.split(b'\r\n')[0].decode(errors='replace')
            if c['client'] is None:
                c['client'] = (src, sp)
    fl = ''.join(ch for bit, ch in ((1, 'F'), (2, 'S'), (4, 'R'), (8, 'P'), (16, '.')) if flags & bit)
    c['pk'].append((t, (src, sp), fl, rs, plen, retx, (ack - c['isn'].get((dst, dp), ack)) & 0xffffffff, payload[:plen]))


def rel(t):
    return 'cut%+8.3f heal%+8.3f' % (t - ECUT, t - EHEAL)


def decode_msg_stream(payload):
    # rafthttp message stream: 8-byte BE length + raftpb.Message; return list of (type, ...) best effort
    out = []
    i = 0
    TYPES = ['Hup', 'Beat', 'Prop', 'App', 'AppResp', 'Vote', 'VoteResp', 'Snap', 'Heartbeat', 'HeartbeatResp',
             'Unreachable', 'SnapStatus', 'CheckQuorum', 'TransferLeader', 'TimeoutNow', 'ReadIndex', 'ReadIndexResp',
             'PreVote', 'PreVoteResp']
    while i + 8 <= len(payload):
        n = struct.unpack('>Q', payload[i:i + 8])[0]
        body = payload[i + 8:i + 8 + n]
        f = {}
        j = 0
        while j < len(body):
            tag = body[j]; j += 1
            fn, wt = tag >> 3, tag & 7
            if wt == 0:
                v = 0; s = 0
                while j < len(body):
                    b = body[j]; j += 1; v |= (b & 0x7f) << s; s += 7
                    if not b & 0x80: break
                f[fn] = v
            elif wt == 2:
                ln = 0; s = 0
                while j < len(body):
                    b = body[j]; j += 1; ln |= (b & 0x7f) << s; s += 7
                    if not b & 0x80: break
                j += ln
            else:
                break
        ty = f.get(1, 0)
        name = TYPES[ty] if ty < len(TYPES) else str(ty)
        if name == 'Heartbeat' and f.get(2, 0) == 0:
            name = 'linkHeartbeat'
        desc = name
        if name in ('AppResp', 'App'):
            desc += '(idx=%d)' % f.get(6, 0)
        out.append(desc)
        i += 8 + n
    return out


for key, c in conns.items():
    cl = c['client']
    sv = key[0] if key[1] == cl else key[1]
    print('=' * 100)
    print('CONN dialer %s:%d -> %s:%d  first seen %s  req=%r' % (cl[0], cl[1], sv[0], sv[1], rel(c['first']), c['req']))
    lastack = {}
    for (t, frm, fl, rs, plen, retx, ak, pl) in c['pk']:
        if not (T0 <= t - ECUT <= T1):
            continue
        d = 'C->S' if frm == cl else 'S->C'
        who = 'node0%s' % frm[0][-1]
        if plen == 0 and 'S' not in fl and 'F' not in fl and 'R' not in fl:
            continue  # pure acks: skip
        extra = ''
        if plen and c['req'] and 'stream/message' in c['req'] and d == 'S->C' and not retx and pl[:4] != b'HTTP':
            extra = ' ' + ','.join(decode_msg_stream(pl))[:120]
        print('  %s %s %-5s %s seq=%d len=%d%s%s' % (rel(t), who, d, fl, rs, plen, ' RETX' if retx else '', extra))
