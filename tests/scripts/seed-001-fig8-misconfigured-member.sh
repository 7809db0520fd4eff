# Seed 001, figures 8 and 9: a member added with a wrong peer URL takes the quorum for good; --force-new-cluster is the way out.
machine add node01 10.200.0.1
machine add node02 10.200.0.2
node01$ etcd --name node01 --initial-advertise-peer-urls http://10.200.0.1:2380 --listen-peer-urls http://10.200.0.1:2380 --advertise-client-urls http://10.200.0.1:2379 --listen-client-urls http://10.200.0.1:2379 --initial-cluster node01=http://10.200.0.1:2380
$ sleep 2
node01$ etcdctl --endpoints=http://10.200.0.1:2379 put foo before
# the operator mistypes node02's address
node01$ etcdctl --endpoints=http://10.200.0.1:2379 member add node02 --peer-urls=http://10.200.0.20:2380
node02$ etcd --name node02 --initial-advertise-peer-urls http://10.200.0.2:2380 --listen-peer-urls http://10.200.0.2:2380 --advertise-client-urls http://10.200.0.2:2379 --listen-client-urls http://10.200.0.2:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380 --initial-cluster-state existing
$ sleep 3
node01$ etcdctl --endpoints=http://10.200.0.1:2379 put foo after
node01$ etcdctl --endpoints=http://10.200.0.1:2379 member list
node01$ etcdctl --endpoints=http://10.200.0.1:2379 member remove 81e6fbba346406c3
# no quorum, so the membership cannot be changed back: force a new cluster
node01$ kill etcd
$ sleep 1
node01$ etcd --name node01 --initial-advertise-peer-urls http://10.200.0.1:2380 --listen-peer-urls http://10.200.0.1:2380 --advertise-client-urls http://10.200.0.1:2379 --listen-client-urls http://10.200.0.1:2379 --initial-cluster node01=http://10.200.0.1:2380 --force-new-cluster
$ sleep 3
node01$ etcdctl --endpoints=http://10.200.0.1:2379 member list
node01$ etcdctl --endpoints=http://10.200.0.1:2379 get foo
