# seed: 1
# Export test B (tests/export_real.rs runs it in the playground and, exported to
# bash, against real etcd 3.4, and compares every etcdctl output): a learner
# added, started and promoted; a member stopped, another crashed, a quorum lost
# (a put that times out) and regained by a restart; a network fault, which the
# export lists as a manual step.
# The machines own 127.0.0.21-24 themselves, so the bootstrap member IDs and the
# cluster ID are the same in the playground and in real etcd. node01 listens on
# its own address and on 127.0.0.1, so etcdctl's default endpoint reaches it.
# The put without quorum has a 10 s timeout, so etcd's own 7 s request timeout
# answers it: with a client timeout under 7 s, whether the client's deadline or
# the server's copy of it fires first is a race in real etcd (DeadlineExceeded or
# Unknown), which two real runs here did not agree on.
machine add node01 127.0.0.21
machine add node02 127.0.0.22
machine add node03 127.0.0.23
machine add node04 127.0.0.24
node01$ etcd --name node01 --initial-advertise-peer-urls http://127.0.0.21:2380 \
  --listen-peer-urls http://127.0.0.21:2380 --advertise-client-urls http://127.0.0.21:2379 \
  --listen-client-urls http://127.0.0.21:2379,http://127.0.0.1:2379 --initial-cluster-token export-b \
  --initial-cluster node01=http://127.0.0.21:2380,node02=http://127.0.0.22:2380,node03=http://127.0.0.23:2380
node02$ etcd --name node02 --initial-advertise-peer-urls http://127.0.0.22:2380 \
  --listen-peer-urls http://127.0.0.22:2380 --advertise-client-urls http://127.0.0.22:2379 \
  --listen-client-urls http://127.0.0.22:2379 --initial-cluster-token export-b \
  --initial-cluster node01=http://127.0.0.21:2380,node02=http://127.0.0.22:2380,node03=http://127.0.0.23:2380
node03$ etcd --name node03 --initial-advertise-peer-urls http://127.0.0.23:2380 \
  --listen-peer-urls http://127.0.0.23:2380 --advertise-client-urls http://127.0.0.23:2379 \
  --listen-client-urls http://127.0.0.23:2379 --initial-cluster-token export-b \
  --initial-cluster node01=http://127.0.0.21:2380,node02=http://127.0.0.22:2380,node03=http://127.0.0.23:2380
# 10 s: real etcd accepts a membership change only after 5 s of connection to a
# quorum, and on a busy host its members can take 2-3 s to start and connect.
$ sleep 10
node01$ etcdctl put foo bar
node01$ etcdctl member add node04 --peer-urls=http://127.0.0.24:2380 --learner
node01$ etcdctl member add node05 --peer-urls=http://127.0.0.25:2380 --learner
node04$ etcd --name node04 --initial-advertise-peer-urls http://127.0.0.24:2380 \
  --listen-peer-urls http://127.0.0.24:2380 --advertise-client-urls http://127.0.0.24:2379 \
  --listen-client-urls http://127.0.0.24:2379 --initial-cluster-token export-b \
  --initial-cluster node01=http://127.0.0.21:2380,node02=http://127.0.0.22:2380,node03=http://127.0.0.23:2380,node04=http://127.0.0.24:2380 \
  --initial-cluster-state existing
$ sleep 3
node04$ etcdctl --endpoints=http://127.0.0.24:2379 get foo --consistency=s
node04$ etcdctl --endpoints=http://127.0.0.24:2379 put k v
node01$ etcdctl member list
node01$ etcdctl member promote 88cf2c20284b14f5
node01$ etcdctl member list -w table
node02$ kill etcd
$ sleep 2
node01$ etcdctl put a 1
node01$ etcdctl member list
node03$ kill -9 etcd
$ sleep 2
node01$ etcdctl --command-timeout=10s put b 2
$ echo $?
node01$ etcdctl get a --consistency=s
node01$ etcdctl --endpoints=http://127.0.0.22:2379 --command-timeout=2s get a
net cut node01 node04
net heal
node02$ etcd --name node02 --initial-advertise-peer-urls http://127.0.0.22:2380 \
  --listen-peer-urls http://127.0.0.22:2380 --advertise-client-urls http://127.0.0.22:2379 \
  --listen-client-urls http://127.0.0.22:2379 --initial-cluster-token export-b \
  --initial-cluster node01=http://127.0.0.21:2380,node02=http://127.0.0.22:2380,node03=http://127.0.0.23:2380
$ sleep 3
node01$ etcdctl put b 2
node04$ etcdctl --endpoints=http://127.0.0.24:2379 get b
node01$ etcdctl member promote 88cf2c20284b14f5
