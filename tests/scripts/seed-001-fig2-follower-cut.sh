# Seed 001, figure 2: a follower is cut off; the leader keeps its quorum (09-partitions-02).
machine add node01 10.200.0.1
machine add node02 10.200.0.2
machine add node03 10.200.0.3
machine add node04 10.200.0.4
node01$ etcd --name node01 --initial-advertise-peer-urls http://10.200.0.1:2380 --listen-peer-urls http://10.200.0.1:2380 --advertise-client-urls http://10.200.0.1:2379 --listen-client-urls http://10.200.0.1:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380
node02$ etcd --name node02 --initial-advertise-peer-urls http://10.200.0.2:2380 --listen-peer-urls http://10.200.0.2:2380 --advertise-client-urls http://10.200.0.2:2379 --listen-client-urls http://10.200.0.2:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380
node03$ etcd --name node03 --initial-advertise-peer-urls http://10.200.0.3:2380 --listen-peer-urls http://10.200.0.3:2380 --advertise-client-urls http://10.200.0.3:2379 --listen-client-urls http://10.200.0.3:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380
$ sleep 3
node01$ etcdctl --endpoints=http://10.200.0.1:2379 put foo before-cut
$ net isolate node03
$ sleep 6
node01$ etcdctl --endpoints=http://10.200.0.1:2379 put foo during-cut
node03$ etcdctl --endpoints=http://10.200.0.3:2379 put foo from-minority
node03$ etcdctl --endpoints=http://10.200.0.3:2379 get foo --consistency=s
node03$ etcdctl --endpoints=http://10.200.0.3:2379 endpoint status -w table
node03$ etcdctl --endpoints=http://10.200.0.3:2379 member list
$ net heal
$ sleep 6
node03$ etcdctl --endpoints=http://10.200.0.3:2379 get foo
node01$ etcdctl --endpoints=http://10.200.0.1:2379 endpoint status --cluster -w table
