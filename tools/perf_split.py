#!/usr/bin/env python3
"""Splits `perf script` samples of the ratio workload in Node (read from
stdin; see tools/profile_wasm.sh) between the simulation (a stack through
`bench::puts_for`) and bare raft-rs (through `bench::bare_raft`), and prints
for each side its samples, its share in `memory.copy` and in the allocator,
and its functions by own samples."""
import collections
import re
import sys

ALLOC = ("dlmalloc", "deallocate", "__rust_alloc", "__rust_dealloc", "__rust_realloc",
         "finish_grow", "grow_amortized", "grow_one", "do_reserve")
COPY = ("memmove", "memory_copy", "memcpy")


def samples(lines):
    """Each sample's frames, leaf first."""
    stack = None
    for line in lines:
        if line and not line[0].isspace() and "cpu-clock" in line:
            if stack:
                yield stack
            stack = []
            continue
        text = line.strip()
        if not text or stack is None:
            continue
        m = re.match(r"[0-9a-f]+ (.*) \(", text)
        stack.append(re.sub(r"\+0x[0-9a-f]+$", "", m.group(1) if m else text))
    if stack:
        yield stack


def name(frame):
    """A function's name without V8's prefix, index and tier, nor Rust's hash."""
    frame = re.sub(r"-\d+-(turbofan|liftoff)$", "", frame.removeprefix("JS:"))
    return re.sub(r"::h[0-9a-f]{16}$", "", frame)


def side(stack):
    for frame in stack:
        if "bench::puts_for" in frame or "bench::puts_over" in frame:
            return "simulation"
        if "bench::bare_raft" in frame:
            return "bare raft-rs"
    return None


def main():
    count = collections.Counter()
    copy = collections.Counter()
    alloc = collections.Counter()
    own = collections.defaultdict(collections.Counter)
    for stack in samples(sys.stdin):
        s = side(stack)
        if s is None:
            continue
        leaf = stack[0]
        count[s] += 1
        copy[s] += any(k in leaf for k in COPY)
        alloc[s] += any(k in leaf for k in ALLOC)
        own[s][name(leaf)] += 1
    for s in ("simulation", "bare raft-rs"):
        n = max(count[s], 1)
        print(f"{s}: {count[s]} samples; memory.copy {100 * copy[s] / n:.1f} %, "
              f"the allocator {100 * alloc[s] / n:.1f} %")
        for f, c in own[s].most_common(15):
            print(f"  {100 * c / n:5.1f} %  {f[:110]}")


if __name__ == "__main__":
    main()
