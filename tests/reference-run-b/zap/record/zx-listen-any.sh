#!/bin/bash
# zx: single node listening on 0.0.0.0 (inside a private network namespace zq9 with only lo): '[::]:2379'
TRANSCRIPT=/tmp/zq/transcripts/zx-listen-any.txt
source "$(dirname "$0")/lib.sh"
D=$GOLD_ROOT/zx-any; rm -rf "$D"; mkdir -p "$D"; : >"$TRANSCRIPT"
ip netns list | grep -qw zq9 || ip netns add zq9; ip -n zq9 link set lo up
log "\$ ip netns exec zq9 etcd ... --listen-peer-urls http://0.0.0.0:2380 --listen-client-urls http://0.0.0.0:2379"
ip netns exec zq9 etcd --name node01 --data-dir $D/node01 --initial-advertise-peer-urls http://127.0.0.1:2380 --listen-peer-urls http://0.0.0.0:2380 \
  --advertise-client-urls http://127.0.0.1:2379 --listen-client-urls http://0.0.0.0:2379 --initial-cluster node01=http://127.0.0.1:2380 \
  --logger=zap --log-outputs=stderr >>$D/node01.log 2>&1 &
PIDS[n1]=$!
sleep 3
run_cmd 10 ip netns exec zq9 etcdctl --endpoints=http://127.0.0.1:2379 put foo bar
stop_all
ip netns del zq9
