# Randomized run, seed 38 (`chaos::run(38, 200)` before wiped members were kept
# from restarting), shrunk: node01's data dir is wiped and node01 restarts with
# `--initial-cluster-state new` and its old member ID while node02 and node03
# keep theirs. sim::invariants reports: members 3946eed05236dc5f and
# 56e07ef9ac34367f applied index 8 to different states. Open question (issue 7):
# what real etcd 3.4 does here (raft's "tocommit out of range" panic is likely),
# and whether the simulation's state at index 8 is a bug.
# quorum-playground run --seed 38 --logs tests/findings/wiped-member-restarted-as-new.sh
machine add node01 10.9.0.1
machine add node02 10.9.0.2
machine add node03 10.9.0.3
machine add node04 10.9.0.4
machine add node05 10.9.0.5
node01$ etcd --name node01 --initial-advertise-peer-urls http://10.9.0.1:2380 --listen-peer-urls http://10.9.0.1:2380 --advertise-client-urls http://10.9.0.1:2379 --listen-client-urls http://10.9.0.1:2379 --initial-cluster node01=http://10.9.0.1:2380,node02=http://10.9.0.2:2380,node03=http://10.9.0.3:2380 --initial-cluster-state new
node02$ etcd --name node02 --initial-advertise-peer-urls http://10.9.0.2:2380 --listen-peer-urls http://10.9.0.2:2380 --advertise-client-urls http://10.9.0.2:2379 --listen-client-urls http://10.9.0.2:2379 --initial-cluster node01=http://10.9.0.1:2380,node02=http://10.9.0.2:2380,node03=http://10.9.0.3:2380 --initial-cluster-state new
node03$ etcd --name node03 --initial-advertise-peer-urls http://10.9.0.3:2380 --listen-peer-urls http://10.9.0.3:2380 --advertise-client-urls http://10.9.0.3:2379 --listen-client-urls http://10.9.0.3:2379 --initial-cluster node01=http://10.9.0.1:2380,node02=http://10.9.0.2:2380,node03=http://10.9.0.3:2380 --initial-cluster-state new
node02$ kill etcd
node05$ etcdctl --endpoints=http://10.9.0.3:2379 --command-timeout=2s put k6 v2583
node01$ kill -9 etcd
node01$ rm -rf node01.etcd
node03$ kill -9 etcd
node01$ etcd --name node01 --initial-advertise-peer-urls http://10.9.0.1:2380 --listen-peer-urls http://10.9.0.1:2380 --advertise-client-urls http://10.9.0.1:2379 --listen-client-urls http://10.9.0.1:2379 --initial-cluster node01=http://10.9.0.1:2380,node02=http://10.9.0.2:2380,node03=http://10.9.0.3:2380 --initial-cluster-state new
node02$ etcd --name node02 --initial-advertise-peer-urls http://10.9.0.2:2380 --listen-peer-urls http://10.9.0.2:2380 --advertise-client-urls http://10.9.0.2:2379 --listen-client-urls http://10.9.0.2:2379 --initial-cluster node01=http://10.9.0.1:2380,node02=http://10.9.0.2:2380,node03=http://10.9.0.3:2380 --initial-cluster-state new
node03$ etcd --name node03 --initial-advertise-peer-urls http://10.9.0.3:2380 --listen-peer-urls http://10.9.0.3:2380 --advertise-client-urls http://10.9.0.3:2379 --listen-client-urls http://10.9.0.3:2379 --initial-cluster node01=http://10.9.0.1:2380,node02=http://10.9.0.2:2380,node03=http://10.9.0.3:2380 --initial-cluster-state new
$ sleep 530ms
