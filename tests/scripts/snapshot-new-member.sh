# --snapshot-count 5: a member added to a one-member cluster whose raft log
# was compacted catches up from the leader's snapshot (the transfer's lines on
# both sides, raft's restore, etcd's recovery); puts within the 30 s the sent
# snapshot stays in flight skip compaction. The real run:
# tests/reference-run-b/snapshot-catch-up/run-new-member.sh (new-member-n*.log).
machine add n1 127.0.0.81
machine add n2 127.0.0.82
n1$ etcd --name n1 --data-dir n1.etcd --initial-advertise-peer-urls http://127.0.0.81:2380 --listen-peer-urls http://127.0.0.81:2380 --advertise-client-urls http://127.0.0.81:2379 --listen-client-urls http://127.0.0.81:2379 --initial-cluster n1=http://127.0.0.81:2380 --snapshot-count 5
$ sleep 1
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k1 v1
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k2 v2
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k3 v3
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k4 v4
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k5 v5
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k6 v6
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k7 v7
n1$ etcdctl --endpoints=http://127.0.0.81:2379 member add n2 --peer-urls=http://127.0.0.82:2380
n2$ etcd --name n2 --data-dir n2.etcd --initial-advertise-peer-urls http://127.0.0.82:2380 --listen-peer-urls http://127.0.0.82:2380 --advertise-client-urls http://127.0.0.82:2379 --listen-client-urls http://127.0.0.82:2379 --initial-cluster n1=http://127.0.0.81:2380,n2=http://127.0.0.82:2380 --initial-cluster-state existing --snapshot-count 5
$ sleep 1
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k8 v8
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k9 v9
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k10 v10
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k11 v11
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k12 v12
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k13 v13
n2$ etcdctl --endpoints=http://127.0.0.82:2379 get k13
$ sleep 32
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k14 v14
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k15 v15
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k16 v16
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k17 v17
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k18 v18
n1$ etcdctl --endpoints=http://127.0.0.81:2379 put k19 v19
n2$ etcdctl --endpoints=http://127.0.0.82:2379 get k19
n2$ kill etcd
n2$ wait
n1$ kill etcd
n1$ wait
