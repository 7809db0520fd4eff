# Seed 001, figure 9: four members, one failed and one misconfigured; the two
# left up cannot change the membership (3 votes needed), so --force-new-cluster.
machine add node01 10.200.0.1
machine add node02 10.200.0.2
machine add node03 10.200.0.3

node01$ etcd --name node01 --initial-advertise-peer-urls http://10.200.0.1:2380 --listen-peer-urls http://10.200.0.1:2380 --advertise-client-urls http://10.200.0.1:2379 --listen-client-urls http://10.200.0.1:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380
node02$ etcd --name node02 --initial-advertise-peer-urls http://10.200.0.2:2380 --listen-peer-urls http://10.200.0.2:2380 --advertise-client-urls http://10.200.0.2:2379 --listen-client-urls http://10.200.0.2:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380
node03$ etcd --name node03 --initial-advertise-peer-urls http://10.200.0.3:2380 --listen-peer-urls http://10.200.0.3:2380 --advertise-client-urls http://10.200.0.3:2379 --listen-client-urls http://10.200.0.3:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380
$ sleep 7
node01$ etcdctl --endpoints=http://10.200.0.1:2379 put foo before
# the operator mistypes the fourth member's address: 3 of 4 are up, so it is accepted
node01$ etcdctl --endpoints=http://10.200.0.1:2379 member add node04 --peer-urls=http://10.200.0.40:2380
node01$ etcdctl --endpoints=http://10.200.0.1:2379 put foo three-of-four
# then a member fails: 2 of 4 are up, below the quorum of 3
node03$ kill -9 etcd
$ sleep 3
node01$ etcdctl --endpoints=http://10.200.0.1:2379 put foo two-of-four
node01$ etcdctl --endpoints=http://10.200.0.1:2379 endpoint status -w table
node01$ etcdctl --endpoints=http://10.200.0.1:2379 member list
# removing the misconfigured member needs 3 votes too
# removing the misconfigured member needs 3 votes too (its ID is the add's, above)
node01$ etcdctl --endpoints=http://10.200.0.1:2379 member remove d89f0820c1e87e0c
# the way out: one survivor forces a new one-member cluster, then the other rejoins
node02$ kill etcd
node02$ wait
node01$ kill etcd
node01$ wait
node01$ etcd --name node01 --initial-advertise-peer-urls http://10.200.0.1:2380 --listen-peer-urls http://10.200.0.1:2380 --advertise-client-urls http://10.200.0.1:2379 --listen-client-urls http://10.200.0.1:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380 --force-new-cluster
$ sleep 3
node01$ etcdctl --endpoints=http://10.200.0.1:2379 member list
node01$ etcdctl --endpoints=http://10.200.0.1:2379 get foo
