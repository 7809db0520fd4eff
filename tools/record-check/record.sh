#!/bin/bash
# Records real etcd 3.4.23 for `etcdctl check perf|datascale` and bbolt's DB size growth.
# One single-member etcd on loopback (127.0.0.1:23790 client, :23800 peer), a fresh data dir under /tmp per part.
# Writes tests/reference-run-b/check-perf-s.txt, check-datascale-s.txt (etcdctl's stdout byte for byte, with the
# progress bar's \r updates as printed; then '# exit=N' and endpoint status -w json after) and check-dbsize.txt
# (dbSize from `endpoint status -w json` after N puts of 1 KiB values, batched 100 per txn).
set -u
OUT=${OUT:-$(cd "$(dirname "$0")/../.." && pwd)/tests/reference-run-b}
EP=http://127.0.0.1:23790
D=/tmp/record-check.$$
PID=
start() {
  rm -rf "$D"; mkdir -p "$D"
  etcd --name n1 --data-dir "$D/n1.etcd" --listen-client-urls $EP --advertise-client-urls $EP \
    --listen-peer-urls http://127.0.0.1:23800 --initial-advertise-peer-urls http://127.0.0.1:23800 \
    --initial-cluster n1=http://127.0.0.1:23800 >"$D/etcd.log" 2>&1 &
  PID=$!
  for _ in $(seq 50); do etcdctl --endpoints=$EP endpoint health >/dev/null 2>&1 && return; sleep 0.2; done
  echo "etcd did not start" >&2; exit 1
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null; rm -rf "$D"; }
dbsize() { etcdctl --endpoints=$EP endpoint status -w json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Status"]["dbSize"])'; }
check() { # $1 perf|datascale
  local f=$OUT/check-$1-s.txt
  start
  { echo "# etcd 3.4.23 single member on loopback; $(date -u +%FT%TZ); nproc=$(nproc)"
    echo "\$ etcdctl --endpoints=$EP check $1 --load=s"; } >"$f"
  etcdctl --endpoints=$EP check "$1" --load=s >>"$f" 2>"$D/err"; echo "# exit=$?" >>"$f"
  sed 's/^/# stderr: /' "$D/err" >>"$f"
  echo "# keys left under the prefix: $(etcdctl --endpoints=$EP get --prefix /etcdctl-check-$1/ --limit=1 -w json | python3 -c "import json,sys; print(json.load(sys.stdin).get(\"count\", 0))")" >>"$f"
  echo "# dbSize after: $(dbsize)" >>"$f"
  stop
}
puts() { # $1 first index, $2 count: puts of 1 KiB values, 100 per txn
  local v; v=$(head -c 1024 /dev/zero | tr '\0' x)
  python3 - "$1" "$2" "$v" <<'PY' | while IFS= read -r -d $'\f' batch; do printf '%s' "$batch" | etcdctl --endpoints=$EP txn >/dev/null || exit 1; done
import sys
first, n, v = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
for b in range(first, first + n, 100):
    sys.stdout.write("\n" + "".join(f"put /dbsize/{i:08d} {v}\n" for i in range(b, min(b + 100, first + n))) + "\n\n\f")
PY
}
dbsizes() {
  local f=$OUT/check-dbsize.txt done=0
  start
  { echo "# etcd 3.4.23 single member on loopback; $(date -u +%FT%TZ)"
    echo "# puts of 1024-byte values under /dbsize/%08d, 100 per txn; dbSize from endpoint status -w json"
    echo "puts=0 dbSize=$(dbsize)"; } >"$f"
  for n in 1000 2000 5000 10000 20000 50000 100000; do
    puts $done $((n - done)); done=$n; echo "puts=$n dbSize=$(dbsize)" >>"$f"
  done
  etcdctl --endpoints=$EP del --prefix /dbsize/ >/dev/null; echo "after del --prefix dbSize=$(dbsize)" >>"$f"
  rev=$(etcdctl --endpoints=$EP endpoint status -w json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Status"]["header"]["revision"])')
  etcdctl --endpoints=$EP compact "$rev" >/dev/null; sleep 1; echo "after compact dbSize=$(dbsize)" >>"$f"
  puts 0 10000; echo "after 10000 puts again dbSize=$(dbsize)" >>"$f"
  etcdctl --endpoints=$EP defrag >/dev/null; echo "after defrag dbSize=$(dbsize)" >>"$f"
  stop
}
case "${1:-all}" in
  perf|datascale) check "$1" ;;
  dbsize) dbsizes ;;
  all) check datascale; check perf; dbsizes ;;
esac
