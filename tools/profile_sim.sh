#!/usr/bin/env bash
# Counts the instructions of make bench's ratio workload (five members, one
# put a simulated second, 60 simulated seconds) under callgrind, the
# simulation's side and bare raft-rs's, and splits the simulation's by layer
# (tools/layers.py). Instructions, unlike times, are the same on every run.
#
#   tools/profile_sim.sh            needs valgrind (apt install valgrind)
#
# The binary is the release build with line tables, in target/profile.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v valgrind >/dev/null || { echo "profile_sim: needs valgrind (apt install valgrind)" >&2; exit 1; }
export CARGO_PROFILE_RELEASE_DEBUG=line-tables-only
cargo build --quiet --release --bin bench --target-dir target/profile
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() { # count NAME FUNCTION: instructions inside FUNCTION, profile in $out/NAME
  valgrind --tool=callgrind --callgrind-out-file="$out/$1" --toggle-collect="$2" \
    target/profile/release/bench --sim 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
sim=$(count sim 'quorum_playground::bench::puts_over')
bare=$(count bare 'quorum_playground::bench::bare_raft')
echo "simulation: $sim instructions; bare raft-rs: $bare (the simulation's side takes $(python3 -c "print(round($sim / $bare, 2))") times as many)"
echo "by instructions the ratio is $(python3 -c "print(round($bare / $sim, 2))"); 0.5 would need the simulation at $(python3 -c "print(round(2 * $bare / 1e6, 1))") M or fewer, if time followed instructions (make bench's timed ratio runs lower)"
echo "the simulation, by layer:"
python3 tools/layers.py "$out/sim"
echo "bare raft-rs, by layer (ours: the harness's Ready loop in src/bench.rs):"
python3 tools/layers.py "$out/bare"
