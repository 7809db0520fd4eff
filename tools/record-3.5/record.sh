#!/bin/bash
# Records the reference scenarios on real etcd 3.5.1 into tests/reference-run-b/3.5/:
# the same scripts that recorded 3.4.23 (../shared/reference/record/), with 3.5.1's
# etcd and etcdctl first on PATH, then this directory's own scenarios (a rolling
# upgrade from 3.4.23). Loopback and network namespaces only, as those scripts.
# usage: tools/record-3.5/record.sh [SCENARIO...]   (default: all; a name without .sh)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
REC=${REFERENCE_RECORD:-$ROOT/../shared/reference/record}
source "$HERE/etcd35.sh"
export OUTDIR=$ROOT/tests/reference-run-b/3.5
mkdir -p "$OUTDIR"
# The partition scripts write to ../transcripts beside themselves: run copies of
# the scripts from a scratch tree whose transcripts/ is OUTDIR.
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
cp -r "$REC" "$SCRATCH/record"
ln -s "$OUTDIR" "$SCRATCH/transcripts"
ALL=(00-versions-and-help 01-single-node 02-add-voter-quorum-loss 03-remove-leader-follower 04-learner
  05-reconfig-errors 05d-strict-reconfig-off 06-clustering-step-by-step 07-learner-standby-failover
  09-partitions-01-leader-isolated 09-partitions-02-follower-isolated 09-partitions-03-four-members
  09-partitions-04-one-way 09-partitions-05-learner 09-partitions-06-client-timeouts
  10-rolling-upgrade)
[ $# -gt 0 ] && ALL=("$@")
# keep_logs SCENARIO SCRIPT: every etcd log the scenario wrote into OUTDIR/logs/SCENARIO/,
# whole, for the zap catalog (the transcripts hold only excerpts). Its work dirs are the
# GOLD_ROOT/sNN or WORK/sNN the script names, and their suffixed siblings (s04 -> s04A, s04B).
keep_logs() {
  local prefix d
  declare -A done=()
  rm -rf "$OUTDIR/logs/$1"
  for prefix in $(grep -o 'GOLD_ROOT/s[0-9A-Za-z]*\|WORK/s[0-9A-Za-z]*' "$2" | sort -u); do
    prefix=${prefix/GOLD_ROOT//var/tmp/etcd-gold}; prefix=${prefix/WORK//tmp/partition-work}
    for d in "$prefix" "$prefix"?*; do
      [ -d "$d" ] && [ -z "${done[$d]:-}" ] || continue
      done[$d]=1
      mkdir -p "$OUTDIR/logs/$1/$(basename "$d")"
      (cd "$d" && find . -name '*.log' -exec cp --parents {} "$OUTDIR/logs/$1/$(basename "$d")/" \;)
    done
  done
}
for s in "${ALL[@]}"; do
  case $s in
    09-*) command -v iptables >/dev/null ||
      { echo "== $s: needs iptables (apt-get install iptables) for its cuts" >&2; exit 1; } ;;
  esac
  script=$SCRATCH/record/$s.sh
  [ -f "$script" ] || script=$HERE/$s.sh
  echo "== $s" >&2
  REFERENCE_RECORD=$SCRATCH/record PATH=$ETCD35_BIN:$PATH timeout 900 bash "$script" >/dev/null ||
    echo "== $s: exit $?" >&2
  keep_logs "$s" "$script"
done
