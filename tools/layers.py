#!/usr/bin/env python3
"""Splits a callgrind profile of the simulation by layer: raft-rs, the etcd
imitation (src/sim/etcd), the world (src/sim/world: clock, machines, network),
the shell, and ours elsewhere.

Usage: tools/layers.py CALLGRIND_OUT   (tools/profile_sim.sh makes one)

Each function's own instructions go to the layer its name is in. Code of
raft-rs inlined into one of our functions counts for raft-rs (callgrind names
the file it came from). A function of no layer (malloc, memcpy, the standard
library's maps, heaps and vectors, where not inlined) has its own
instructions shared among its callers in proportion to what each call cost,
again and again until every instruction sits in a layer: a message copied by
raft-rs counts for raft-rs, a string our world allocates counts for the world.
"""

import collections
import re
import subprocess
import sys

LAYERS = [
    ("quorum_playground::sim::world", "world (src/sim/world)"),
    ("quorum_playground::sim::etcd", "etcd imitation (src/sim/etcd)"),
    ("quorum_playground::shell", "shell (src/shell)"),
    ("quorum_playground", "ours, elsewhere"),
]
RAFT = "raft-rs (raft, raft-proto, prost)"
RAFT_FN = re.compile(r"^<?(raft|raft_proto|prost|protobuf)::|eraftpb")
RAFT_FILE = re.compile(r"/(raft-0\.7\.0|raft-proto|prost-[0-9.]+)/")
ENTRY = re.compile(r"^\s*([\d,]+) \([ \d.]+%\)\s+([<*>])\s+(.*?)(?: \([\d,]+x\))?(?: \[[^\]]*\])?$")


def layer_of(fn_name, file_name):
    """The layer a function belongs to, or None for shared code."""
    if RAFT_FILE.search(file_name) or RAFT_FN.search(fn_name):
        return RAFT
    name = fn_name.lstrip("<")
    for prefix, layer in LAYERS:
        if name.startswith(prefix):
            return layer
    return None


def split(entry):
    """(file, function) of an annotate entry `file:function`."""
    file_name, _, fn_name = entry.partition(":")
    if not fn_name:
        return "", file_name
    return file_name, fn_name


def annotate(path, *args):
    """callgrind_annotate's listing of every function of `path`."""
    return subprocess.run(
        ["callgrind_annotate", "--auto=no", "--threshold=100", *args, path],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def read(path):
    """The total, the own cost of each (file, function), and each function's
    callers with what their calls cost (callgrind_annotate's caller tree)."""
    own = {}
    callers = collections.defaultdict(list)
    pending = []
    for line in annotate(path, "--tree=caller").splitlines():
        m = ENTRY.match(line)
        if not m:
            pending = []
            continue
        cost = int(m.group(1).replace(",", ""))
        entry = split(m.group(3))
        if m.group(2) == "<":
            pending.append((entry, cost))
        elif m.group(2) == "*":
            callers[entry[1]].extend(pending)
            pending = []
    total = 0
    for line in annotate(path).splitlines():
        m = re.match(r"^\s*([\d,]+) \([ \d.]+%\)\s+(.*?)(?: \[[^\]]*\])?$", line)
        if not m:
            continue
        cost = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in m.group(2):
            total = cost
            continue
        entry = split(m.group(2))
        own[entry] = own.get(entry, 0) + cost
    return total, own, callers


def attribute(own, callers):
    """Instructions per layer, shared code passed up to its callers."""
    layers = collections.Counter()
    floating = collections.Counter()
    for (file_name, fn_name), cost in own.items():
        layer = layer_of(fn_name, file_name)
        if layer:
            layers[layer] += cost
        else:
            floating[(file_name, fn_name)] += cost
    for _ in range(50):
        if not floating:
            break
        nxt = collections.Counter()
        for (file_name, fn_name), cost in floating.items():
            cs = [c for c in callers.get(fn_name, []) if c[1] > 0]
            weight = sum(c for _, c in cs)
            if not weight:
                layers["(no caller known)"] += cost
                continue
            for (cfile, cfn), c in cs:
                share = cost * c / weight
                layer = layer_of(cfn, cfile)
                if layer:
                    layers[layer] += share
                elif cfn == fn_name:
                    layers["(recursion)"] += share
                else:
                    nxt[(cfile, cfn)] += share
        floating = nxt
    for cost in floating.values():
        layers["(unresolved)"] += cost
    return layers


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    total, own, callers = read(sys.argv[1])
    layers = attribute(own, callers)
    print(f"{'instructions':>14}  share  layer")
    for layer, cost in layers.most_common():
        print(f"{cost:14,.0f}  {100 * cost / total:4.1f} %  {layer}")
    print(f"{total:14,}  100 %  total")


if __name__ == "__main__":
    main()
