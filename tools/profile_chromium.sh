#!/usr/bin/env bash
# Where Chromium spends the time of make bench's ratio workload: one fresh
# page of tests/bench_ratio.rs (as tools/ratio_pages.sh runs it), sampled by
# perf over the whole machine while it runs (`cpu-clock`, every 0.5 ms),
# with V8 writing the names of the code it compiled to /tmp/perf-PID.map
# (`--js-flags=--perf-basic-prof`), which `perf script` reads. Then
# tools/perf_split.py splits the samples between the simulation and bare
# raft-rs, as tools/profile_wasm.sh does for Node. Chromium's V8 is years
# newer than Node's and its answers differ: memory.copy took 4.8 % of the
# simulation's samples here against 11 % in Node (28 Nov).
#
#   tools/profile_chromium.sh   needs perf (apt install linux-perf) and the
#                               wasm test tools (make test-tools)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v perf >/dev/null || { echo "profile_chromium: needs perf (apt install linux-perf)" >&2; exit 1; }
out=$(mktemp -d)
marker="$out/started"
touch "$marker"
# the maps V8 wrote for this run's processes go with the rest
trap 'find /tmp -maxdepth 1 -name "perf-*.map" -newer "$marker" -delete; rm -rf "$out"' EXIT
# V8's own log, which the flag also starts, goes to the temporary
# directory, not to the working directory (the repository)
python3 - "$out" <<'EOF'
import json, sys
d = json.load(open("tools/webdriver.json"))
flags = f"--perf-basic-prof --no-logfile-per-isolate --logfile={sys.argv[1]}/v8.log"
d["goog:chromeOptions"]["args"] += [f"--js-flags={flags}", "--no-zygote"]
json.dump(d, open(f"{sys.argv[1]}/webdriver.json", "w"))
EOF
run() {
  cargo test --release --target wasm32-unknown-unknown --features bench-web --test bench_ratio "$@"
}
run --no-run 2>/dev/null || { echo "profile_chromium: the test did not build" >&2; exit 1; }
export RUST_LIB_BACKTRACE=0 CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver} \
  WASM_BINDGEN_TEST_WEBDRIVER_JSON="$out/webdriver.json" WASM_BINDGEN_USE_BROWSER=1 \
  WASM_BINDGEN_TEST_TIMEOUT=300
perf record -a -q --call-graph=fp -e cpu-clock -F 2000 -o "$out/perf.data" \
  -- bash -c "$(declare -f run); run -- --nocapture" 2>&1 |
  grep -E '^sim_over_bare_raft_wasm: |FAILED|panicked' || true
perf script -i "$out/perf.data" 2>/dev/null | python3 tools/perf_split.py
