#!/usr/bin/env bash
# make bench's headline figure in Chromium: tests/bench_ratio.rs (the
# simulation against bare raft-rs, best of 30 runs each after 100 warm-ups)
# in PAGES fresh pages (3 unless set), one after another, each once the
# last one's Chromium has exited. Each page's lines are printed with its
# number; then the ratio's median over the pages, so that one page loaded
# on a busy moment (V8 compiles the code anew in each) does not make the
# figure.
#
#   tools/ratio_pages.sh        needs the wasm test tools (make test-tools);
#                               make bench sets the environment for Chromium
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
pages=${PAGES:-3}
ratios=()
# A page's Chromium goes on exiting for a few seconds after its test
# returns: timed beside it, the next page (or make bench's next figures)
# runs slower. This waits until it is gone (20 s at most).
chromium_gone() {
  for _ in $(seq 40); do pgrep -f chromium >/dev/null || return 0; sleep 0.5; done
}
for page in $(seq "$pages"); do
  chromium_gone
  out=$(cargo test --release --target wasm32-unknown-unknown --features bench-web \
    --test bench_ratio -- --nocapture 2>&1) || { echo "$out" >&2; exit 1; }
  if grep -qE 'FAILED|panicked' <<<"$out"; then echo "$out" >&2; exit 1; fi
  grep -E '^[a-z0-9_]+: ' <<<"$out" | sed "s/\$/ [page $page of $pages]/"
  ratios+=("$(sed -n 's/^sim_over_bare_raft_wasm: \([0-9.]*\).*/\1/p' <<<"$out")")
done
chromium_gone
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
echo "sim_over_bare_raft_wasm_median: $median (pages: ${ratios[*]}) (goal: >= 0.5)"
