# Randomized run, seed 38 (`chaos::run(38, 200)` before wiped members were kept
# from restarting), shrunk: node01's data dir is wiped and node01 restarts with
# `--initial-cluster-state new` and its old member ID while node02 and node03
# keep theirs. sim::invariants reports: members 3946eed05236dc5f and
# 56e07ef9ac34367f applied index 8 to different states.
# Real etcd 3.4.23 does the same (`wiped-member-restarted-as-new.real.sh`,
# scenario C, output in `.real.txt`): with no peer up to say the member was
# already bootstrapped, the wiped member bootstraps again at term 1 with the
# three bootstrap entries, it and the member that never ran elect a leader
# at term 2 (the term the old leader had used) and write their own entries
# 4-7; the third member comes back with the old term-2 entries 4-8, matches
# the new leader's log at index 7 (same term) and keeps its own: no panic, no
# error, the same raft index everywhere, `get k6` answered by one member only
# and `endpoint hashkv` differing. The divergence is the person's doing (a
# wiped member restarted under its old ID), not the simulation's. With a peer
# up, etcd refuses the start instead (`member … has already been
# bootstrapped`, exit 1, scenarios A and B); started as `existing`, a wiped
# follower panics on the leader's first heartbeat (`tocommit(N) is out of
# range [lastIndex(0)]`, exit 2, scenario D), as the simulation now does too.
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
