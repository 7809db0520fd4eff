#!/bin/bash
# Real etcd 3.4.23: snapshot-count 1000, a member down for 6100 puts, then restarted.
cd /tmp/realsnap
C="n1=http://127.0.0.11:2380,n2=http://127.0.0.12:2380,n3=http://127.0.0.13:2380"
start() { etcd --name n$1 --data-dir n$1.etcd --snapshot-count 1000 --initial-advertise-peer-urls http://127.0.0.1$1:2380 --listen-peer-urls http://127.0.0.1$1:2380 --advertise-client-urls http://127.0.0.1$1:2379 --listen-client-urls http://127.0.0.1$1:2379 --initial-cluster $C >> n$1.log 2>&1 & echo $! > n$1.pid; }
for i in 1 2 3; do start $i; done
sleep 4
kill $(cat n3.pid); sleep 2
for i in $(seq 0 6099); do ETCDCTL_API=3 etcdctl --endpoints=http://127.0.0.11:2379 put k$i v$i > /dev/null; done
echo "=== restart n3" >> n1.log
start 3
sleep 6
ETCDCTL_API=3 etcdctl --endpoints=http://127.0.0.13:2379 get k6099 > get.out 2>&1
for i in 1 2 3; do kill $(cat n$i.pid); done
sleep 1
