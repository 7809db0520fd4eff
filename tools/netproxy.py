#!/usr/bin/env python3
"""netproxy.py -- a userspace TCP proxy that shapes the network between etcd peers.

Why: `tc netem` is not available on these machines, so real etcd 3.4.23 is recorded
with its peer traffic going through this proxy (issue 16, point 5). Python 3 standard
library only.

WHAT IT MODELS
  * Machines ("nodes") with names, e.g. node01..node03, each with a real peer address
    (where the etcd member really listens, e.g. 127.0.0.1:2380).
  * One directed LINK per ordered pair A->B with
      - latency (one-way, seconds) and optional jitter (uniform +-jitter, never
        reordering bytes of one connection: TCP delivers in order),
      - loss (probability that one TCP segment of MSS=1448 bytes is lost).
  * One NIC per machine: an egress rate (bits/s) shared by every byte the machine
    sends on any link, served FIFO (a byte waits behind every byte the machine sent
    before it, whatever the link), with a queue limit in bytes. When the queue is full
    the proxy stops reading from the sending socket, so the sender's kernel buffer
    fills and its write() blocks: backpressure, as a full socket buffer / qdisc would
    do, never a silent drop (TCP does not lose bytes).
  * A per-direction in-flight cap (--window, default 4 MiB) standing in for the TCP
    window: without it a 200 ms link would carry unbounded bytes "on the wire".

HOW LOSS IS MODELLED (honestly, for TCP)
  A TCP stream never loses bytes; a lost segment is retransmitted and every later
  byte of that connection waits behind it (head-of-line blocking). So a chunk read
  from the sender, which spans k = ceil(len/1448) segments, is "hit" with probability
  1-(1-p)^k; a hit chunk is delivered one retransmission timeout later, RTO =
  max(200 ms, 2 x link RTT) (Linux's RTO floor is 200 ms; a retransmission of a
  sparse stream, like raft heartbeats, waits for the timer or a tail-loss probe of
  about that size), and the retransmission itself can be lost again with the same
  probability, doubling the RTO each time (exponential backoff). Later chunks of the
  same connection wait behind the delayed one. Connections are never reset by loss
  (a real 10 % loss does not reset TCP); this is the one approximation: fast
  retransmit on a busy stream would recover in ~1 RTT instead of one RTO.

HOW DIRECTIONS ARE SEPARATED (the topology)
  etcd dials the *advertised* peer URL of a member, one URL per member, and does not
  bind its source address (on loopback every connection comes from 127.0.0.1), so
  neither the destination nor the source address tells who is dialling. We therefore
  give every member a private view of the names:
    - member B advertises   http://nodeB.peer:2380   (a host name, not an address)
    - member B listens on   127.0.0.B:2380           (its real peer port)
    - the proxy listens on  127.1.A.B:2380  for "A dials B"  (one listener per pair)
    - member A runs in its own mount namespace (`unshare -m`) with /etc/hosts
      bind-mounted from a file that says  nodeB.peer -> 127.1.A.B  for every B != A
      (and nodeA.peer -> 127.0.0.A for itself).
  So a TCP connection arriving on listener 127.1.A.B was dialled by A towards B, and
  is forwarded to 127.0.0.B:2380. Its client->server bytes are traffic A->B (link
  A->B, A's NIC), its server->client bytes are traffic B->A (link B->A, B's NIC):
  rafthttp's streams carry B's messages on the response body of a connection A
  dialled, so both halves are shaped, each as its own direction. Every accepted
  connection is logged with the pair it was classified as
  ("conn #7 node01->node02 from 127.0.0.1:41234 via 127.1.1.2:2380").
  Nothing but loopback is used; network namespaces are not.
  `--hosts-dir DIR` writes DIR/hosts.<name> for each node (a copy of /etc/hosts plus
  those lines) for the recording script to bind-mount.

USAGE
  python3 tools/netproxy.py --node node01=127.0.0.1:2380 --node node02=127.0.0.2:2380 \
      --node node03=127.0.0.3:2380 --control 127.0.0.1:7390 --hosts-dir /tmp/x
  Listeners: 127.1.A.B:<port of B's real address> for every ordered pair (A, B),
  A and B 1-based in the order of --node.
  Control (while running), one command per connection, text line, answer text:
    python3 tools/netproxy.py ctl [--control 127.0.0.1:7390] delay node01 node02 200ms [20ms]
        (both ways; write node01->node02 for one way; latency is ONE-WAY per direction,
         so 'delay A B 200ms' adds 400 ms to an A<->B round trip)
    ... ctl loss node01 node02 10%        (both ways; A->B one way)
    ... ctl rate node01 1mbit [limit 4mb] (node01's egress NIC; 'rate node01 off')
    ... ctl clear node01 [node02]         (all of node01's links and NIC, or one link both ways)
    ... ctl show                          (every link's and NIC's settings and queue)
  Units: ms/s/us; %, or a fraction; bit/kbit/mbit/gbit (bits per second);
  b/kb/mb (bytes, 1000-based) / kib/mib.
  Self-test on loopback:  python3 tools/netproxy.py --self-test
"""
import argparse
import asyncio
import math
import random
import re
import socket
import sys
import time

MSS = 1448
RTO_MIN = 0.200
CHUNK = 16384


def parse_time(s):
    m = re.fullmatch(r"([0-9.]+)(us|ms|s)?", s)
    if not m:
        raise ValueError("bad time %r" % s)
    v = float(m.group(1))
    return v * {"us": 1e-6, "ms": 1e-3, "s": 1.0, None: 1e-3}[m.group(2)]


def parse_frac(s):
    if s.endswith("%"):
        return float(s[:-1]) / 100.0
    return float(s)


def parse_rate(s):
    m = re.fullmatch(r"([0-9.]+)(bit|kbit|mbit|gbit|bps)?", s.lower())
    if not m:
        raise ValueError("bad rate %r" % s)
    return float(m.group(1)) * {"bit": 1, "bps": 1, None: 1, "kbit": 1e3, "mbit": 1e6, "gbit": 1e9}[m.group(2)]


def parse_bytes(s):
    m = re.fullmatch(r"([0-9.]+)(b|kb|mb|gb|kib|mib|gib)?", s.lower())
    if not m:
        raise ValueError("bad size %r" % s)
    return int(float(m.group(1)) * {"b": 1, None: 1, "kb": 1e3, "mb": 1e6, "gb": 1e9,
                                     "kib": 1024, "mib": 1 << 20, "gib": 1 << 30}[m.group(2)])


class Link:
    def __init__(self):
        self.latency = 0.0
        self.jitter = 0.0
        self.loss = 0.0
        self.bytes = 0
        self.hits = 0

    def desc(self):
        return "latency=%.1fms jitter=%.1fms loss=%.1f%% bytes=%d lost-chunks=%d" % (
            self.latency * 1e3, self.jitter * 1e3, self.loss * 100, self.bytes, self.hits)


class Nic:
    """FIFO egress serializer: busy_until is when the last queued byte leaves the NIC."""

    def __init__(self):
        self.rate = 0.0  # bits/s, 0 = unlimited
        self.limit = 4 * 1000 * 1000
        self.busy_until = 0.0

    def backlog(self, now):
        if self.rate <= 0:
            return 0
        return max(0.0, self.busy_until - now) * self.rate / 8.0

    def desc(self, now):
        r = "unlimited" if self.rate <= 0 else "%gbit/s" % self.rate
        return "rate=%s limit=%dB queued=%dB" % (r, self.limit, int(self.backlog(now)))


class Proxy:
    def __init__(self, nodes, window=4 << 20, log=print, seed=None):
        self.names = [n for n, _ in nodes]
        self.real = dict(nodes)
        self.links = {(a, b): Link() for a in self.names for b in self.names if a != b}
        self.nics = {n: Nic() for n in self.names}
        self.window = window
        self.log = log
        self.rng = random.Random(seed)
        self.nconn = 0
        self.servers = []

    def listen_addr(self, a, b):
        ia, ib = self.names.index(a) + 1, self.names.index(b) + 1
        port = int(self.real[b].rsplit(":", 1)[1])
        return "127.1.%d.%d" % (ia, ib), port

    async def start(self):
        for a in self.names:
            for b in self.names:
                if a == b:
                    continue
                host, port = self.listen_addr(a, b)
                srv = await asyncio.start_server(
                    lambda r, w, a=a, b=b: self.handle(r, w, a, b), host, port)
                self.servers.append(srv)
                self.log("listen %s:%d = %s dials %s -> %s" % (host, port, a, b, self.real[b]))

    async def close(self):
        for s in self.servers:
            s.close()

    async def handle(self, cr, cw, a, b):
        self.nconn += 1
        cid = self.nconn
        peer = cw.get_extra_info("peername")
        sock = cw.get_extra_info("sockname")
        host, port = self.real[b].rsplit(":", 1)
        try:
            sr, sw = await asyncio.open_connection(host, int(port))
        except OSError as e:
            self.log("conn #%d %s->%s from %s:%d via %s:%d: upstream %s: %s" % (
                cid, a, b, peer[0], peer[1], sock[0], sock[1], self.real[b], e))
            cw.close()
            return
        self.log("conn #%d %s->%s from %s:%d via %s:%d" % (cid, a, b, peer[0], peer[1], sock[0], sock[1]))
        t1 = asyncio.create_task(self.pump(cr, sw, a, b))
        t2 = asyncio.create_task(self.pump(sr, cw, b, a))
        await asyncio.gather(t1, t2, return_exceptions=True)
        self.log("conn #%d %s->%s closed" % (cid, a, b))

    async def pump(self, src, dst, frm, to):
        """Bytes sent by machine `frm` to machine `to` on one TCP connection."""
        link = self.links[(frm, to)]
        nic = self.nics[frm]
        q = asyncio.Queue()
        state = {"inflight": 0, "last": 0.0}
        room = asyncio.Event()
        room.set()

        async def writer():
            try:
                while True:
                    at, data = await q.get()
                    if data is None:
                        break
                    d = at - time.monotonic()
                    if d > 0:
                        await asyncio.sleep(d)
                    dst.write(data)
                    await dst.drain()
                    state["inflight"] -= len(data)
                    if state["inflight"] < self.window:
                        room.set()
            except (OSError, ConnectionError):
                pass
            finally:
                try:
                    if dst.can_write_eof():
                        dst.write_eof()
                except OSError:
                    pass

        wt = asyncio.create_task(writer())
        try:
            while True:
                await room.wait()
                data = await src.read(CHUNK)
                if not data:
                    break
                n = len(data)
                # NIC queue: wait (not reading further from the sender) until it has room.
                while True:
                    now = time.monotonic()
                    if nic.rate <= 0:
                        break
                    over = nic.backlog(now) + n - nic.limit
                    if over <= 0:
                        break
                    await asyncio.sleep(max(over * 8.0 / nic.rate, 0.001))
                now = time.monotonic()
                if nic.rate > 0:
                    nic.busy_until = max(now, nic.busy_until) + n * 8.0 / nic.rate
                    sent = nic.busy_until
                else:
                    sent = now
                at = sent + link.latency
                if link.jitter > 0:
                    at += self.rng.uniform(-link.jitter, link.jitter)
                if link.loss > 0:
                    segs = max(1, math.ceil(n / MSS))
                    p_hit = 1 - (1 - link.loss) ** segs
                    rtt = link.latency + self.links[(to, frm)].latency
                    rto = max(RTO_MIN, 2 * rtt)
                    while self.rng.random() < p_hit:
                        link.hits += 1
                        at += rto
                        rto *= 2
                        p_hit = link.loss  # the retransmission is one segment
                at = max(at, state["last"])  # TCP is in order
                state["last"] = at
                link.bytes += n
                state["inflight"] += n
                if state["inflight"] >= self.window:
                    room.clear()
                q.put_nowait((at, data))
        except (OSError, ConnectionError):
            pass
        finally:
            q.put_nowait((0, None))
            await wt
            try:
                dst.close()
            except OSError:
                pass

    # ---- control ----
    def pairs(self, spec_a, spec_b):
        if spec_b is None and "->" in spec_a:
            a, b = spec_a.split("->")
            return [(a, b)]
        return [(spec_a, spec_b), (spec_b, spec_a)]

    def command(self, line):
        w = line.split()
        if not w:
            return "empty command"
        cmd, args = w[0], w[1:]
        now = time.monotonic()
        try:
            if cmd == "show":
                out = []
                for n in self.names:
                    out.append("nic %s: %s" % (n, self.nics[n].desc(now)))
                for (a, b), l in sorted(self.links.items()):
                    out.append("link %s->%s: %s" % (a, b, l.desc()))
                return "\n".join(out)
            if cmd in ("delay", "loss"):
                if "->" in args[0]:
                    prs, vals = self.pairs(args[0], None), args[1:]
                else:
                    prs, vals = self.pairs(args[0], args[1]), args[2:]
                for p in prs:
                    if p not in self.links:
                        return "unknown link %s->%s" % p
                for a, b in prs:
                    l = self.links[(a, b)]
                    if cmd == "delay":
                        l.latency = parse_time(vals[0])
                        l.jitter = parse_time(vals[1]) if len(vals) > 1 else 0.0
                    else:
                        l.loss = parse_frac(vals[0])
                return "ok: " + "; ".join("%s->%s %s" % (a, b, self.links[(a, b)].desc()) for a, b in prs)
            if cmd == "rate":
                nic = self.nics[args[0]]
                if args[1] == "off":
                    nic.rate = 0.0
                else:
                    nic.rate = parse_rate(args[1])
                if len(args) >= 4 and args[2] == "limit":
                    nic.limit = parse_bytes(args[3])
                return "ok: nic %s %s" % (args[0], nic.desc(now))
            if cmd == "clear":
                a = args[0]
                if len(args) > 1:
                    prs = self.pairs(a, args[1])
                else:
                    prs = [p for p in self.links if a in p]
                    self.nics[a].rate = 0.0
                for p in prs:
                    l = self.links[p]
                    l.latency = l.jitter = l.loss = 0.0
                return "ok: cleared " + ", ".join("%s->%s" % p for p in prs)
        except (IndexError, KeyError, ValueError) as e:
            return "error: %s: %r" % (line, e)
        return "error: unknown command %r" % cmd

    async def control_server(self, host, port):
        async def h(r, w):
            line = (await r.readline()).decode().strip()
            ans = self.command(line)
            if not line.startswith("show"):
                self.log("control: %s -> %s" % (line, ans))
            w.write((ans + "\n").encode())
            await w.drain()
            w.close()
        return await asyncio.start_server(h, host, port)


def write_hosts(proxy, d):
    import os
    os.makedirs(d, exist_ok=True)
    try:
        base = open("/etc/hosts").read()
    except OSError:
        base = "127.0.0.1 localhost\n"
    for i, a in enumerate(proxy.names):
        lines = [base.rstrip("\n"), "# netproxy view of " + a]
        for b in proxy.names:
            if a == b:
                lines.append("%s %s.peer" % (proxy.real[a].rsplit(":", 1)[0], a))
            else:
                lines.append("%s %s.peer" % (proxy.listen_addr(a, b)[0], b))
        with open(os.path.join(d, "hosts." + a), "w") as f:
            f.write("\n".join(lines) + "\n")


def stamp_log(msg):
    t = time.time()
    print("%s.%03d| netproxy: %s" % (time.strftime("%H:%M:%S", time.localtime(t)), int((t % 1) * 1000), msg), flush=True)


async def main_run(args):
    nodes = []
    for s in args.node:
        n, addr = s.split("=", 1)
        nodes.append((n, addr))
    p = Proxy(nodes, window=args.window, log=stamp_log, seed=args.seed)
    await p.start()
    host, port = args.control.rsplit(":", 1)
    await p.control_server(host, int(port))
    stamp_log("control on %s" % args.control)
    if args.hosts_dir:
        write_hosts(p, args.hosts_dir)
        stamp_log("hosts files in %s" % args.hosts_dir)
    await asyncio.Event().wait()


def ctl(args, words):
    host, port = args.control.rsplit(":", 1)
    s = socket.create_connection((host, int(port)), timeout=5)
    s.sendall((" ".join(words) + "\n").encode())
    out = b""
    while True:
        d = s.recv(65536)
        if not d:
            break
        out += d
    s.close()
    text = out.decode().rstrip("\n")
    print(text)
    return 0 if not text.startswith("error") else 1


# ---------------- self-test ----------------
async def self_test():
    asyncio.get_running_loop().set_exception_handler(
        lambda loop, ctx: None if isinstance(ctx.get("exception"), asyncio.CancelledError)
        else loop.default_exception_handler(ctx))
    logs = []
    # machine b: an echo server (answers every byte) on 127.0.0.2; a sink too.
    async def echo(r, w):
        try:
            while True:
                d = await r.read(65536)
                if not d:
                    break
                w.write(d)
                await w.drain()
        finally:
            w.close()
    srv = await asyncio.start_server(echo, "127.0.0.2", 0)
    bport = srv.sockets[0].getsockname()[1]
    p = Proxy([("a", "127.0.0.1:%d" % bport), ("b", "127.0.0.2:%d" % bport)], log=logs.append, seed=1)
    await p.start()
    lh, lp = p.listen_addr("a", "b")

    async def rtts(n=10):
        r, w = await asyncio.open_connection(lh, lp)
        out = []
        for _ in range(n):
            t = time.monotonic()
            w.write(b"x")
            await w.drain()
            await r.readexactly(1)
            out.append(time.monotonic() - t)
        w.close()
        return out

    def med(v):
        v = sorted(v)
        return v[len(v) // 2]

    ok = True
    base = med(await rtts())
    print("baseline RTT through proxy a->b: %.2f ms" % (base * 1e3))
    print(p.command("delay a->b 200ms"))
    one = med(await rtts())
    print("delay a->b 200ms (one way): RTT %.1f ms, added %.1f ms (expect ~200)" % (one * 1e3, (one - base) * 1e3))
    ok &= 0.19 < one - base < 0.23
    print(p.command("delay a b 200ms"))
    both = med(await rtts(6))
    print("delay a b 200ms (both ways): RTT %.1f ms, added %.1f ms (expect ~400)" % (both * 1e3, (both - base) * 1e3))
    ok &= 0.38 < both - base < 0.44
    print(p.command("clear a"))

    # rate: 1 MB through a 1 mbit NIC of a (upload), echo back unshaped (b has no rate).
    print(p.command("rate a 1mbit limit 64kb"))
    r, w = await asyncio.open_connection(lh, lp)
    total = 1000 * 1000
    payload = b"y" * total
    t0 = time.monotonic()

    async def send():
        w.write(payload)
        await w.drain()
        return time.monotonic()

    st = asyncio.create_task(send())
    got = 0
    maxq = 0
    while got < total:
        got += len(await r.read(65536))
        maxq = max(maxq, p.nics["a"].backlog(time.monotonic()))
    t1 = time.monotonic()
    tw = await st
    print("1 MB at 1mbit (a's NIC, limit 64 kB): received after %.2f s (expect ~8.0); NIC queue never above "
          "%d B (limit 64000 + one %d B read); the sender's write returned after %.2f s (what the NIC queue refuses "
          "waits in the kernel's socket buffers, which loopback autotunes to MBs)" % (t1 - t0, maxq, CHUNK, tw - t0))
    ok &= 7.6 < t1 - t0 < 8.6 and maxq <= 64000 + CHUNK
    w.close()
    print(p.command("rate a off"))

    # FIFO across links of one machine: small message behind a big transfer from a
    print(p.command("rate a 8mbit limit 4mb"))
    r1, w1 = await asyncio.open_connection(lh, lp)
    r2, w2 = await asyncio.open_connection(lh, lp)
    t0 = time.monotonic()
    w1.write(b"z" * 500000)  # 0.5 s of a's NIC
    await asyncio.sleep(0.05)
    w2.write(b"h")
    await r2.readexactly(1)
    th = time.monotonic() - t0
    print("1-byte 'heartbeat' sent 50 ms after 500 kB on another connection of a at 8mbit: "
          "answered after %.3f s (expect ~0.5: FIFO behind the bulk bytes)" % th)
    ok &= 0.45 < th < 0.6
    got = 0
    while got < 500000:
        got += len(await r1.read(65536))
    w1.close(); w2.close()
    print(p.command("clear a"))

    # loss: 10 % per segment on small messages, both ways
    print(p.command("loss a b 10%"))
    lr = await rtts(200)
    late = sum(1 for x in lr if x > base + 0.15)
    print("loss a b 10%%: 200 one-byte round trips: %d took >150 ms more (expect ~19%% = 1-(0.9^2)), "
          "median %.2f ms, max %.0f ms" % (late, med(lr) * 1e3, max(lr) * 1e3))
    ok &= 20 < late < 60
    print(p.command("clear a"))
    print("connection log: " + "; ".join(l for l in logs if l.startswith("conn #1 ")))
    await p.close()
    srv.close()
    await asyncio.sleep(0.2)
    print("SELF-TEST", "PASS" if ok else "FAIL")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--node", action="append", default=[], help="name=host:port of the real peer listener")
    ap.add_argument("--control", default="127.0.0.1:7390")
    ap.add_argument("--hosts-dir")
    ap.add_argument("--window", type=int, default=4 << 20)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if args.self_test:
        sys.exit(asyncio.run(self_test()))
    if args.rest and args.rest[0] == "ctl":
        sys.exit(ctl(args, args.rest[1:]))
    if not args.node:
        ap.error("give --node name=host:port at least twice, or --self-test, or ctl ...")
    try:
        asyncio.run(main_run(args))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
