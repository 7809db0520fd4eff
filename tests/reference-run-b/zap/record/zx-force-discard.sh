#!/bin/bash
# zx: uncommitted entries in the WAL (proposed after a member add left the single node without quorum), then --force-new-cluster
TRANSCRIPT=/tmp/zq/transcripts/zx-force-discard.txt
source "$(dirname "$0")/lib.sh"
D=$GOLD_ROOT/zx-discard; rm -rf "$D"; mkdir -p "$D"; : >"$TRANSCRIPT"
E1=http://127.0.0.1:2379; P1=http://127.0.0.1:2380; P2=http://127.0.0.2:2380
N1="--name node01 --data-dir $D/node01 --initial-advertise-peer-urls $P1 --listen-peer-urls $P1 --advertise-client-urls $E1 --listen-client-urls $E1 --initial-cluster node01=$P1"
start_etcd n1 $D/node01.log $N1
wait_healthy $E1 20
run_cmd 10 etcdctl --endpoints=$E1 put foo bar
log "\$ etcdctl member add node02 --peer-urls=$P2 ; then 3 puts in the background at once  t=$(date '+%H:%M:%S.%3N')"
etcdctl --endpoints=$E1 member add node02 --peer-urls=$P2 >>"$TRANSCRIPT" 2>&1
for i in 1 2 3; do timeout 4 etcdctl --endpoints=$E1 --command-timeout=3s put k$i v$i >>"$TRANSCRIPT" 2>&1 & done
sleep 5
wait
stop_etcd n1
sleep 1
note "restart with --force-new-cluster"
start_etcd n1 $D/node01.log $N1 --force-new-cluster
wait_healthy $E1 20
run_cmd 10 etcdctl --endpoints=$E1 member list -w table
run_cmd 10 etcdctl --endpoints=$E1 get k --prefix
stop_all
