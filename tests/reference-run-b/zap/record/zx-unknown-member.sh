#!/bin/bash
# zx: 3 static voters; node03 frozen (SIGSTOP) while node04 is added and starts -> node03 does not know node04 yet
# ('failed to find member'); then node03 is wiped and restarted with state new ('has already been bootstrapped').
TRANSCRIPT=/tmp/zq/transcripts/zx-unknown-member.txt
source "$(dirname "$0")/lib.sh"
D=$GOLD_ROOT/zx-unknown; rm -rf "$D"; mkdir -p "$D"; : >"$TRANSCRIPT"
IC3=node01=http://127.0.0.1:2380,node02=http://127.0.0.2:2380,node03=http://127.0.0.3:2380
for n in 1 2 3; do start_etcd n$n $D/node0$n.log $(nodeflags $n $D/node0$n $IC3); done
for n in 1 2 3; do wait_healthy http://127.0.0.$n:2379 30; done
sleep 6
run_cmd 10 etcdctl --endpoints=http://127.0.0.1:2379 endpoint status --cluster -w table
LE=$(timeout 8 etcdctl --endpoints=http://127.0.0.1:2379 endpoint status --cluster 2>/dev/null | awk -F', ' '$5=="true"{print $1}' | head -n1)
log "# leader endpoint: $LE"
log "[SIGSTOP n3 pid ${PIDS[n3]}  t=$(date '+%H:%M:%S.%3N')]"; kill -STOP ${PIDS[n3]}
run_cmd 10 etcdctl --endpoints=$LE member add node04 --peer-urls=http://127.0.0.4:2380
start_etcd n4 $D/node04.log $(nodeflags 4 $D/node04 $IC3,node04=http://127.0.0.4:2380 existing)
sleep 3
log "[SIGCONT n3  t=$(date '+%H:%M:%S.%3N')]"; kill -CONT ${PIDS[n3]}
wait_healthy http://127.0.0.4:2379 30
sleep 2
run_cmd 10 etcdctl --endpoints=$LE endpoint status --cluster -w table
note "stop node03, wipe its data dir, start it again with --initial-cluster-state new"
stop_etcd n3
rm -rf $D/node03
fg_etcd 15 $D/node03-rebootstrap.log $(nodeflags 3 $D/node03 $IC3,node04=http://127.0.0.4:2380)
stop_all
