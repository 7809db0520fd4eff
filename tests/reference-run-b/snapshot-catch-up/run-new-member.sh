#!/bin/bash
# Real etcd 3.4.23: a member added to a one-member cluster whose raft log was
# compacted (--snapshot-count 5) catches up from a snapshot; puts during the
# 30 s the sent snapshot stays in flight, then after. Run once with each
# logger: `bash run-new-member.sh capnslog` and `bash run-new-member.sh zap`
# (loopback 127.0.0.81-82 only; every etcd is stopped by its PID).
set -u
export ETCDCTL_API=3
LOGGER=${1:-capnslog}
D=${ROOT:-/var/tmp/etcd-findings/new-member}/$LOGGER
rm -rf "$D"; mkdir -p "$D"; cd "$D" || exit 1
E1=http://127.0.0.81:2379; E2=http://127.0.0.82:2379; P1=http://127.0.0.81:2380; P2=http://127.0.0.82:2380
FLAGS=(--snapshot-count 5)
[ "$LOGGER" = zap ] && FLAGS+=(--logger=zap --log-outputs=stderr)
declare -A PID
stop_all() { for n in "${!PID[@]}"; do kill "${PID[$n]}" 2>/dev/null; wait "${PID[$n]}" 2>/dev/null; done; }
trap stop_all EXIT
healthy() { for _ in $(seq 1 50); do etcdctl --endpoints="$1" --command-timeout=1s endpoint health >/dev/null 2>&1 && return; sleep 0.2; done; }
puts() { for i in $(seq "$1" "$2"); do etcdctl --endpoints=$E1 put "k$i" "v$i" >/dev/null; done; }

etcd --name n1 --data-dir n1.etcd --initial-advertise-peer-urls $P1 --listen-peer-urls $P1 \
  --advertise-client-urls $E1 --listen-client-urls $E1 --initial-cluster n1=$P1 "${FLAGS[@]}" >>n1.log 2>&1 &
PID[n1]=$!
healthy $E1
puts 1 7
etcdctl --endpoints=$E1 member add n2 --peer-urls=$P2
etcd --name n2 --data-dir n2.etcd --initial-advertise-peer-urls $P2 --listen-peer-urls $P2 \
  --advertise-client-urls $E2 --listen-client-urls $E2 --initial-cluster n1=$P1,n2=$P2 \
  --initial-cluster-state existing "${FLAGS[@]}" >>n2.log 2>&1 &
PID[n2]=$!
healthy $E2
echo "=== puts within 30 s of the snapshot $(date -u +%T.%3N)" | tee -a n1.log
puts 8 13
etcdctl --endpoints=$E2 get k13
sleep 32
echo "=== puts after 30 s $(date -u +%T.%3N)" | tee -a n1.log
puts 14 19
etcdctl --endpoints=$E2 get k19
kill "${PID[n2]}"; wait "${PID[n2]}"; unset "PID[n2]"
kill "${PID[n1]}"; wait "${PID[n1]}"; unset "PID[n1]"
echo "logs in $D"
