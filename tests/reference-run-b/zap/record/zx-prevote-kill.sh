#!/bin/bash
# zx: 3 static voters with --pre-vote; the leader is killed with SIGKILL; elections with pre-vote; the killed member restarts.
TRANSCRIPT=/tmp/zq/transcripts/zx-prevote-kill.txt
source "$(dirname "$0")/lib.sh"
D=$GOLD_ROOT/zx-prevote; rm -rf "$D"; mkdir -p "$D"; : >"$TRANSCRIPT"
IC3=node01=http://127.0.0.1:2380,node02=http://127.0.0.2:2380,node03=http://127.0.0.3:2380
for n in 1 2 3; do start_etcd n$n $D/node0$n.log $(nodeflags $n $D/node0$n $IC3) --pre-vote; done
for n in 1 2 3; do wait_healthy http://127.0.0.$n:2379 30; done
sleep 2
run_cmd 10 etcdctl --endpoints=http://127.0.0.1:2379 put foo bar
LE=$(timeout 8 etcdctl --endpoints=http://127.0.0.1:2379 endpoint status --cluster 2>/dev/null | awk -F', ' '$5=="true"{print $1}' | head -n1)
L=${LE#http://127.0.0.}; L=${L%:2379}
log "# leader: node0$L"
stop_etcd n$L KILL
sleep 7
run_cmd 10 etcdctl --endpoints=http://127.0.0.1:2379,http://127.0.0.2:2379,http://127.0.0.3:2379 endpoint status -w table
note "restart node0$L"
start_etcd n$L $D/node0$L.log $(nodeflags $L $D/node0$L $IC3) --pre-vote
sleep 4
stop_all
