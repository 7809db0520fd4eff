#!/bin/bash
# Scenario 10: a rolling upgrade of a three-member cluster from etcd 3.4.23 to 3.5.1,
# member by member on the same data dirs, as etcd's upgrade guide describes; then a
# 3.4.23 binary on an upgraded member's data dir (a downgrade, which etcd refuses).
# Needs both versions: 3.4.23 at /usr/bin (apt) and 3.5.1 at $ETCD35_BIN (record.sh
# installs it). etcdctl is 3.5.1's throughout. Loopback only: node0N = 127.0.0.N.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/etcd35.sh"
REC=${REFERENCE_RECORD:-$HERE/../../../shared/reference/record}
TRANSCRIPT=${OUTDIR:?set OUTDIR (record.sh does)}/10-rolling-upgrade.txt
source "$REC/lib.sh"
E34=/usr/bin/etcd
D=$GOLD_ROOT/s10; rm -rf "$D"; mkdir -p "$D"; : >"$TRANSCRIPT"
export PATH=$ETCD35_BIN:$PATH
log "# Scenario 10: rolling upgrade 3.4.23 -> 3.5.1 (etcd $($E34 --version | head -1 | awk '{print $3}') and $("$ETCD35_BIN/etcd" --version | head -1 | awk '{print $3}'); etcdctl $(etcdctl version | head -1 | awk '{print $3}'))"
log "# date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')   node01=127.0.0.1 node02=127.0.0.2 node03=127.0.0.3 (loopback)"
IC=node01=http://127.0.0.1:2380,node02=http://127.0.0.2:2380,node03=http://127.0.0.3:2380
EPS=http://127.0.0.1:2379,http://127.0.0.2:2379,http://127.0.0.3:2379

# start <N> <3.4|3.5> [state]: member N with that version's binary on its data dir
start() {
  local n=$1 v=$2 st=${3:-new} bin=$E34
  [ "$v" = 3.5 ] && bin=$ETCD35_BIN/etcd
  log "# node0$n runs etcd $v: $bin"
  PATH=$(dirname "$bin"):$PATH start_etcd n$n $D/node0$n.log $(nodeflags $n $D/node0$n $IC $st)
}
versions() {
  local n
  for n in 1 2 3; do run_cmd 5 curl -s http://127.0.0.$n:2379/version; done
  run_cmd 10 etcdctl --endpoints=$EPS endpoint status -w table
}

note "10.1 a 3.4.23 cluster of three, with data"
for n in 1 2 3; do start $n 3.4; done
for n in 1 2 3; do wait_healthy http://127.0.0.$n:2379 30; done
run_cmd 10 etcdctl --endpoints=$EPS put foo bar
run_cmd 10 etcdctl --endpoints=$EPS member list -w table
versions

for n in 1 2 3; do
  note "10.$((n+1)) upgrade node0$n: stop it, start 3.5.1 on the same data dir"
  stop_etcd n$n
  L0=$(lines $D/node0$n.log)
  start $n 3.5 existing
  wait_healthy http://127.0.0.$n:2379 30
  run_cmd 10 etcdctl --endpoints=http://127.0.0.$n:2379 get foo
  run_cmd 10 etcdctl --endpoints=$EPS put k$n v$n
  sleep 5   # the leader's version monitor runs every 4 s
  versions
  note "node0$n's log since its 3.5.1 start"
  logslice $D/node0$n.log $((L0+1)) $(lines $D/node0$n.log)
done

note "10.5 every member runs 3.5.1: the cluster version"
sleep 5
versions
run_cmd 10 etcdctl --endpoints=$EPS member list -w table
for n in 1 2 3; do excerpt $D/node0$n.log 'cluster version|cluster-version|downgrade'; done

note "10.6 downgrade: node03's upgraded data dir under etcd 3.4.23"
stop_etcd n3
L0=$(lines $D/node03.log)
log "# node03 runs etcd 3.4: $E34"
PATH=/usr/bin:$PATH fg_etcd 30 $D/node03-downgrade.log $(nodeflags 3 $D/node03 $IC existing)
logslice $D/node03-downgrade.log 1 $(lines $D/node03-downgrade.log)
run_cmd 10 etcdctl --endpoints=$EPS endpoint status -w table

note "10.7 node03 back on 3.5.1"
start 3 3.5 existing
wait_healthy http://127.0.0.3:2379 30
run_cmd 10 etcdctl --endpoints=http://127.0.0.3:2379 get foo
versions
stop_all
