#!/usr/bin/env python3
# list every HTTP request line (and its sender) seen on the wire between leader and learner after the cut
import sys, struct, os
rundir = sys.argv[1]
meta = {}
for l in open(os.path.join(rundir, 'meta.txt')):
    for kv in l.split():
        if '=' in kv: k, v = kv.split('=', 1); meta[k] = v
ECUT, EHEAL, L = float(meta['ECUT']), float(meta['EHEAL']), meta['L']
f = open(os.path.join(rundir, 'br0.pcap'), 'rb'); gh = f.read(24)
while True:
    h = f.read(16)
    if len(h) < 16: break
    ts, tf, incl, orig = struct.unpack('<IIII', h); d = f.read(incl); t = ts + tf / 1e6
    if d[12:14] != b'\x08\x00' or d[23] != 6: continue
    iph = d[14:]; ihl = (iph[0] & 15) * 4; src = '.'.join(map(str, iph[12:16])); dst = '.'.join(map(str, iph[16:20]))
    if {src, dst} != {'10.200.0.' + L, '10.200.0.3'} or t < ECUT: continue
    tcp = iph[ihl:]; sp, dp = struct.unpack('>HH', tcp[:4]); off = (tcp[12] >> 4) * 4; pl = tcp[off:]
    if pl[:4] in (b'GET ', b'POST', b'PUT '):
        print('cut%+8.3f heal%+8.3f %s:%d -> %s:%d  %s' % (t - ECUT, t - EHEAL, src, sp, dst, dp, pl.split(b'\r\n')[0].decode()))
