# seed: 1
# Export test C (tests/export_real.rs runs it in the playground and, exported to
# bash, against real etcd 3.4.23 and 3.5.1, and compares every etcdctl, etcdutl
# and curl output): a static three-member cluster on etcd 3.4.23, upgraded
# member by member to 3.5.1 on the same data dirs; the cluster version before
# and after; 3.5's snapshot commands (etcdctl's notice, etcdutl).
# The machines own 127.0.0.31-33 themselves, so the member and cluster IDs are
# the same in the playground and in real etcd. Each start waits 3 s, and the
# last one 8 s: the leader raises the cluster version within a few seconds of
# the last upgrade (its version check runs every 4 s).
machine add node01 127.0.0.31
machine add node02 127.0.0.32
machine add node03 127.0.0.33
node01$ etcd --name node01 --initial-advertise-peer-urls http://127.0.0.31:2380 \
  --listen-peer-urls http://127.0.0.31:2380 --advertise-client-urls http://127.0.0.31:2379 \
  --listen-client-urls http://127.0.0.31:2379 --initial-cluster-token export-c \
  --initial-cluster node01=http://127.0.0.31:2380,node02=http://127.0.0.32:2380,node03=http://127.0.0.33:2380
node02$ etcd --name node02 --initial-advertise-peer-urls http://127.0.0.32:2380 \
  --listen-peer-urls http://127.0.0.32:2380 --advertise-client-urls http://127.0.0.32:2379 \
  --listen-client-urls http://127.0.0.32:2379 --initial-cluster-token export-c \
  --initial-cluster node01=http://127.0.0.31:2380,node02=http://127.0.0.32:2380,node03=http://127.0.0.33:2380
node03$ etcd --name node03 --initial-advertise-peer-urls http://127.0.0.33:2380 \
  --listen-peer-urls http://127.0.0.33:2380 --advertise-client-urls http://127.0.0.33:2379 \
  --listen-client-urls http://127.0.0.33:2379 --initial-cluster-token export-c \
  --initial-cluster node01=http://127.0.0.31:2380,node02=http://127.0.0.32:2380,node03=http://127.0.0.33:2380
$ sleep 3
node01$ etcdctl --endpoints=127.0.0.31:2379 put k0 v0
node01$ curl -s http://127.0.0.31:2379/version
node01$ kill etcd
node01$ wait
node01$ machine etcd-version node01 3.5
node01$ etcd --name node01 --initial-advertise-peer-urls http://127.0.0.31:2380 \
  --listen-peer-urls http://127.0.0.31:2380 --advertise-client-urls http://127.0.0.31:2379 \
  --listen-client-urls http://127.0.0.31:2379 --initial-cluster-token export-c \
  --initial-cluster node01=http://127.0.0.31:2380,node02=http://127.0.0.32:2380,node03=http://127.0.0.33:2380
$ sleep 3
node01$ etcdctl version
node01$ etcdctl --endpoints=127.0.0.31:2379 get k0
node01$ curl -s http://127.0.0.31:2379/version
node02$ kill etcd
node02$ wait
node02$ machine etcd-version node02 3.5
node02$ etcd --name node02 --initial-advertise-peer-urls http://127.0.0.32:2380 \
  --listen-peer-urls http://127.0.0.32:2380 --advertise-client-urls http://127.0.0.32:2379 \
  --listen-client-urls http://127.0.0.32:2379 --initial-cluster-token export-c \
  --initial-cluster node01=http://127.0.0.31:2380,node02=http://127.0.0.32:2380,node03=http://127.0.0.33:2380
$ sleep 3
node03$ kill etcd
node03$ wait
node03$ machine etcd-version node03 3.5
node03$ etcd --name node03 --initial-advertise-peer-urls http://127.0.0.33:2380 \
  --listen-peer-urls http://127.0.0.33:2380 --advertise-client-urls http://127.0.0.33:2379 \
  --listen-client-urls http://127.0.0.33:2379 --initial-cluster-token export-c \
  --initial-cluster node01=http://127.0.0.31:2380,node02=http://127.0.0.32:2380,node03=http://127.0.0.33:2380
$ sleep 8
node01$ curl -s http://127.0.0.31:2379/version
node01$ etcdctl --endpoints=127.0.0.31:2379 member list -w table
node01$ etcdctl --endpoints=127.0.0.31:2379 put k1 v1
node01$ etcdctl --endpoints=127.0.0.31:2379 snapshot save backup.db
node01$ etcdctl -w table snapshot status backup.db
node01$ etcdutl snapshot status backup.db
node01$ etcdutl version
