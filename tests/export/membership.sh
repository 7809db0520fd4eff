# seed: 1
# Export test A (tests/export_real.rs runs it in the playground and, exported to
# bash, against real etcd 3.4, and compares every etcdctl output): a static
# three-member cluster, a member added and started, puts and gets around it, a
# bootstrap member and the added member removed, and the errors of removing them
# again or promoting a voter.
# The machines own 127.0.0.11-14 themselves, so the bootstrap member IDs and the
# cluster ID are the same in the playground and in real etcd. node01-03 listen on
# 0.0.0.0 (their loopback address in bash), node04 only on its own address, so
# etcdctl's default endpoint (127.0.0.1:2379) reaches nothing there. After each
# removal the script waits 3 s: the removed member may have been the leader (real
# elections are won by whoever times out first), and a request sent before the
# next election ends waits for it.
machine add node01 127.0.0.11
machine add node02 127.0.0.12
machine add node03 127.0.0.13
machine add node04 127.0.0.14
node01$ etcd --name node01 --initial-advertise-peer-urls http://127.0.0.11:2380 \
  --listen-peer-urls http://0.0.0.0:2380 --advertise-client-urls http://127.0.0.11:2379 \
  --listen-client-urls http://0.0.0.0:2379 --initial-cluster-token export-a \
  --initial-cluster node01=http://127.0.0.11:2380,node02=http://127.0.0.12:2380,node03=http://127.0.0.13:2380
node02$ etcd --name node02 --initial-advertise-peer-urls http://127.0.0.12:2380 \
  --listen-peer-urls http://0.0.0.0:2380 --advertise-client-urls http://127.0.0.12:2379 \
  --listen-client-urls http://0.0.0.0:2379 --initial-cluster-token export-a \
  --initial-cluster node01=http://127.0.0.11:2380,node02=http://127.0.0.12:2380,node03=http://127.0.0.13:2380
node03$ etcd --name node03 --initial-advertise-peer-urls http://127.0.0.13:2380 \
  --listen-peer-urls http://0.0.0.0:2380 --advertise-client-urls http://127.0.0.13:2379 \
  --listen-client-urls http://0.0.0.0:2379 --initial-cluster-token export-a \
  --initial-cluster node01=http://127.0.0.11:2380,node02=http://127.0.0.12:2380,node03=http://127.0.0.13:2380
# 10 s: real etcd accepts a membership change only after 5 s of connection to a
# quorum, and on a busy host its members can take 2-3 s to start and connect.
$ sleep 10
node01$ etcdctl member list
node01$ etcdctl put foo bar
node02$ etcdctl get foo
node03$ etcdctl --endpoints=http://127.0.0.11:2379,http://127.0.0.12:2379 get foo --print-value-only
node01$ etcdctl member add node04 --peer-urls=http://127.0.0.14:2380
$ etcdctl member list -w table
node04$ etcd --name node04 --initial-advertise-peer-urls http://127.0.0.14:2380 \
  --listen-peer-urls http://127.0.0.14:2380 --advertise-client-urls http://127.0.0.14:2379 \
  --listen-client-urls http://127.0.0.14:2379 --initial-cluster-token export-a \
  --initial-cluster node01=http://127.0.0.11:2380,node02=http://127.0.0.12:2380,node03=http://127.0.0.13:2380,node04=http://127.0.0.14:2380 \
  --initial-cluster-state existing
$ sleep 3
node04$ etcdctl get foo
node04$ etcdctl put k1 v1
node01$ etcdctl member list
node04$ etcdctl --endpoints=http://127.0.0.14:2379 get foo
node01$ etcdctl member remove e164c2a761ed9677
$ sleep 3
node01$ etcdctl member list
node01$ etcdctl member remove e164c2a761ed9677
node03$ etcdctl put k2 v2
node04$ etcdctl --endpoints=127.0.0.14:2379 get k --prefix
node01$ etcdctl member remove efa6c28e237a6881
$ sleep 3
node01$ etcdctl member list -w table
node01$ etcdctl member remove efa6c28e237a6881
node01$ echo $?
node01$ etcdctl member promote 81e780ee7da65993
node03$ etcdctl get k --prefix --keys-only
