#!/bin/bash
# zx: start-up errors (flags, initial cluster, data dir), each a foreground etcd that exits
TRANSCRIPT=/tmp/zq/transcripts/zx-fatal.txt
source "$(dirname "$0")/lib.sh"
D=$GOLD_ROOT/zx-fatal; rm -rf "$D"; mkdir -p "$D"; : >"$TRANSCRIPT"
P1=http://127.0.0.1:2380; E1=http://127.0.0.1:2379
B="--listen-peer-urls $P1 --advertise-client-urls $E1 --listen-client-urls $E1"
fg_etcd 10 $D/f01-heartbeat-zero.log --name node01 --data-dir $D/f01 --initial-advertise-peer-urls $P1 $B --initial-cluster node01=$P1 --heartbeat-interval=0
fg_etcd 10 $D/f02-election-too-long.log --name node01 --data-dir $D/f02 --initial-advertise-peer-urls $P1 $B --initial-cluster node01=$P1 --election-timeout=60000
fg_etcd 10 $D/f03-election-lt-5x-heartbeat.log --name node01 --data-dir $D/f03 --initial-advertise-peer-urls $P1 $B --initial-cluster node01=$P1 --election-timeout=300
fg_etcd 10 $D/f04-duplicate-url.log --name node01 --data-dir $D/f04 --initial-advertise-peer-urls $P1 $B --initial-cluster node01=$P1,node02=$P1
fg_etcd 10 $D/f05-local-name-missing.log --name node03 --data-dir $D/f05 --initial-advertise-peer-urls $P1 $B --initial-cluster node01=$P1
fg_etcd 10 $D/f06-initial-cluster-url-not-advertised.log --name node01 --data-dir $D/f06 --initial-advertise-peer-urls $P1 $B --initial-cluster node01=http://127.0.0.9:2380
fg_etcd 10 $D/f07-advertised-url-not-in-initial-cluster.log --name node01 --data-dir $D/f07 --initial-advertise-peer-urls $P1,http://127.0.0.1:2381 $B --initial-cluster node01=$P1
fg_etcd 20 $D/f08-existing-no-peers.log --name node01 --data-dir $D/f08 --initial-advertise-peer-urls $P1 $B --initial-cluster node01=$P1,node02=http://127.0.0.2:2380 --initial-cluster-state existing
: > $D/f09-file; fg_etcd 10 $D/f09-data-dir-is-file.log --name node01 --data-dir $D/f09-file --initial-advertise-peer-urls $P1 $B --initial-cluster node01=$P1
fg_etcd 10 $D/f10-data-dir-under-file.log --name node01 --data-dir $D/f09-file/sub --initial-advertise-peer-urls $P1 $B --initial-cluster node01=$P1
