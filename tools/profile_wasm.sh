#!/usr/bin/env bash
# Where V8 spends the time of make bench's ratio workload, as wasm in Node
# (tests/bench_profile.rs): perf samples the process every 0.2 ms
# (`cpu-clock`: no hardware counters needed), V8 writes a map of the code it
# compiled (`node --perf-prof`), `perf inject --jit` names the samples, and
# tools/perf_split.py splits them between the simulation and bare raft-rs:
# each side's share in `memory.copy` (a call out of wasm into V8's runtime
# and memmove) and in the allocator, and its functions by own samples.
#
#   tools/profile_wasm.sh       needs perf (apt install linux-perf) and the
#                               wasm test tools (make test-tools)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v perf >/dev/null || { echo "profile_wasm: needs perf (apt install linux-perf)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
wasm=$(cargo test --release --target wasm32-unknown-unknown --features bench-web \
  --test bench_profile --no-run --message-format=json 2>/dev/null \
  | sed -n 's/.*"executable":"\([^"]*bench_profile[^"]*\.wasm\)".*/\1/p' | tail -1)
[ -n "$wasm" ] || { echo "profile_wasm: the test did not build" >&2; exit 1; }
# the runner starts `node`: this one runs Node under perf, writing V8's map
cat >"$out/node" <<EOF
#!/bin/sh
cd "$out"
exec perf record -q -k 1 --call-graph=fp -e cpu-clock -F 5000 -o "$out/perf.data" "$(command -v node)" --perf-prof "\$@"
EOF
chmod +x "$out/node"
PATH="$out:$PATH" RUST_LIB_BACKTRACE=0 WASM_BINDGEN_TEST_TIMEOUT=600 \
  wasm-bindgen-test-runner "$wasm" --nocapture 2>&1 | grep -E '^sim_over_bare_raft_node: |FAILED|panicked' || true
perf inject --jit -i "$out/perf.data" -o "$out/perf.jit.data" 2>/dev/null
perf script -i "$out/perf.jit.data" 2>/dev/null | python3 tools/perf_split.py
